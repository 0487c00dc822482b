"""A conversation's injection state and kept memory blocks, carried between processes sharing a storage."""

from __future__ import annotations

import json
import logging

from memory.handover import Handover
from memory.prehook import PreHook
from memory.prehook.injection_state import ChannelKey

from ..history import ShownBlock, ShownBlocks

log = logging.getLogger(__name__)

_VERSION = 1


class ChannelStates:
    """`load` before a turn and `save` after it, both under the conversation's `channel_lock`.

    With a storage only one process uses (`Handover.shared` false) both do nothing: RAM is the
    state. Otherwise the process that answers a conversation takes the state the previous one
    left, so a memory is neither repeated nor lost when turns move between workers.
    """

    def __init__(self, handover: Handover, prehook: PreHook, shown: ShownBlocks) -> None:
        self.handover = handover
        self.prehook = prehook
        self.shown = shown

    async def load(self, key: ChannelKey) -> None:
        if not self.handover.shared:
            return
        try:
            saved = await self.handover.saved(key.storage_key())
            if saved is None:
                return  # never answered anywhere else: what this process holds (if anything) stands
            document, vectors = saved
            values = json.loads(document)
            if values.get("version") != _VERSION:
                raise ValueError(f"unknown version {values.get('version')!r}")
            blocks = [
                ShownBlock(a, t, tuple(ids), int(n), tuple(mem)) for a, t, ids, n, mem in values["shown"]
            ]
            state = self.prehook.states.get(*key)
            state.restore(values["injection"], vectors)
            # A block kept while a memory in it was forgotten (anywhere) must not be shown again;
            # the other items of such a block may then be injected afresh.
            wanted = list(dict.fromkeys(m for b in blocks for m in b.memories))
            alive = await self.handover.still_remembered(wanted)
            kept = [b for b in blocks if alive.issuperset(b.memories)]
            for block in blocks:
                if block not in kept:
                    state.forget_ids(block.memory_ids)
            self.shown.put(key, kept)
        except Exception as exc:
            # The turn goes on with what this process holds: at worst a memory is injected again.
            log.warning("conversation state not loaded", extra={"error": f"{type(exc).__name__}: {exc}"})

    async def save(self, key: ChannelKey) -> None:
        if not self.handover.shared:
            return
        state = self.prehook.states.peek(key)
        if state is None:
            return
        injection, vectors = state.export()
        blocks = [
            [b.anchor_id, b.text, list(b.memory_ids), b.turn, list(b.memories)]
            for b in self.shown.get(key, state.turn)
        ]
        document = json.dumps({"version": _VERSION, "injection": injection, "shown": blocks})
        try:
            await self.handover.save(key.storage_key(), document, vectors)
        except Exception as exc:
            log.warning("conversation state not saved", extra={"error": f"{type(exc).__name__}: {exc}"})
