"""Per-channel record of what the pre-hook already injected: ids by turn and a buffer of stored vectors."""

from __future__ import annotations

import json
from collections import OrderedDict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

import numpy as np

DEFAULT_MAX_IDS = 100
DEFAULT_MAX_VECTORS = 100
DEFAULT_MAX_CHANNELS = 10_000


class ChannelKey(NamedTuple):
    """One conversation the bot keeps injection state for."""

    platform: str
    workspace_id: str
    channel_id: str
    thread_id: str | None
    agent_id: str

    def storage_key(self) -> str:
        """The conversation as one string, the same in every process (locks, stored state)."""
        return json.dumps(list(self), separators=(",", ":"))


@dataclass(slots=True)
class _Injected:
    turn: int
    updated_at: float


class ChannelInjectionState:
    """What one channel's model was recently given, kept in RAM and bounded.

    `turn` counts pre-hook runs in the channel. A memory injected at turn `t` is not injected
    again while `turn - t < context_window_depth`, unless its `updated_at` moved (an update is
    new information). The semantic buffer keeps the STORED vectors of injected memories so a
    near-duplicate with another id is skipped too; only vectors still within the depth count,
    because older ones have scrolled out of the model's context just like their ids.
    Nothing here is reset by compaction: the model may still hold what was injected.
    """

    def __init__(
        self,
        context_window_depth: int = 20,
        semantic_threshold: float = 0.85,
        max_ids: int = DEFAULT_MAX_IDS,
        max_vectors: int = DEFAULT_MAX_VECTORS,
    ) -> None:
        self.context_window_depth = context_window_depth
        self.semantic_threshold = semantic_threshold
        self.max_ids = max_ids
        self.max_vectors = max_vectors
        self.turn = 0
        self._ids: OrderedDict[str, _Injected] = OrderedDict()
        # id -> (turn injected, stored vector); insertion order is age, oldest first.
        self._vectors: OrderedDict[str, tuple[int, np.ndarray]] = OrderedDict()
        # Stacked copy of the buffer, rebuilt lazily: the hook reads it once per run.
        self._matrix: np.ndarray | None = None
        self._matrix_ids: list[str] = []
        self._matrix_turns: np.ndarray = np.zeros(0, dtype=np.int64)
        self._builds = 0
        # The rows of the stacked buffer still within the depth at one turn, transposed for the
        # product, and their ids' columns: one run asks several times at the same turn.
        self._live: tuple[tuple[int, int], np.ndarray, dict[str, int]] | None = None

    def __len__(self) -> int:
        return len(self._ids)

    @property
    def vector_count(self) -> int:
        return len(self._vectors)

    def injected_turn(self, memory_id: str) -> int | None:
        """The turn `memory_id` was last injected at, if still remembered."""
        entry = self._ids.get(memory_id)
        return None if entry is None else entry.turn

    def should_reinject(self, memory_id: str, updated_at: float, turn: int | None = None) -> bool:
        """True unless `memory_id` was injected within the last `context_window_depth` turns unchanged."""
        entry = self._ids.get(memory_id)
        if entry is None:
            return True
        if updated_at > entry.updated_at:
            return True
        now = self.turn if turn is None else turn
        return now - entry.turn >= self.context_window_depth

    def _buffer(self) -> tuple[np.ndarray | None, list[str], np.ndarray]:
        if self._matrix is None and self._vectors:
            self._matrix_ids = list(self._vectors)
            self._matrix_turns = np.fromiter((t for t, _ in self._vectors.values()), dtype=np.int64)
            self._matrix = np.stack([v for _, v in self._vectors.values()])
            self._builds += 1
        return self._matrix, self._matrix_ids, self._matrix_turns

    def _live_at(self, now: int) -> tuple[np.ndarray, dict[str, int]] | None:
        """The buffered vectors still within the depth at turn `now` (transposed) and each one's
        column by id; None when there are none."""
        matrix, buffer_ids, turns = self._buffer()
        if matrix is None:
            return None
        key = (self._builds, now)
        if self._live is None or self._live[0] != key:
            live = (now - turns) < self.context_window_depth
            ids = (i for i, keep in zip(buffer_ids, live, strict=True) if keep)
            self._live = (key, np.ascontiguousarray(matrix[live].T), {mid: n for n, mid in enumerate(ids)})
        _, live_t, column = self._live
        return (live_t, column) if column else None

    def semantic_duplicates(
        self, vectors: np.ndarray, ids: Sequence[str | None] | None = None, turn: int | None = None
    ) -> np.ndarray:
        """For each row of `vectors` (n, dim): does a buffered vector have cosine > threshold with it?

        One matrix product for the whole batch. Vectors must be L2-normalised (every embedder
        here returns them so). A row's own earlier vector (same id in `ids`) is ignored: an
        updated memory must not be hidden by its previous version.
        """
        queries = np.asarray(vectors, dtype=np.float32)
        if queries.ndim == 1:
            queries = queries.reshape(1, -1)
        result = np.zeros(len(queries), dtype=bool)
        live = self._live_at(self.turn if turn is None else turn)
        if live is None or len(queries) == 0:
            return result
        live_t, column = live
        if queries.shape[1] != live_t.shape[0]:
            return result
        sims = queries @ live_t  # (n, live)
        if ids is not None:
            for row, memory_id in enumerate(ids):
                col = column.get(memory_id) if memory_id is not None else None
                if col is not None:
                    sims[row, col] = -1.0
        return (sims > self.semantic_threshold).any(axis=1)

    def is_semantic_duplicate(
        self, vector: np.ndarray, memory_id: str | None = None, turn: int | None = None
    ) -> bool:
        """True if `vector` has cosine > `semantic_threshold` with a vector injected within the depth."""
        return bool(self.semantic_duplicates(np.asarray(vector).reshape(1, -1), [memory_id], turn)[0])

    def record(
        self, injected: Iterable[tuple[str, float, np.ndarray | None]], turn: int | None = None
    ) -> None:
        """Remember `(memory_id, updated_at, stored_vector)` as injected at `turn` (default: now)."""
        at = self.turn if turn is None else turn
        for memory_id, updated_at, vector in injected:
            self._ids.pop(memory_id, None)
            self._ids[memory_id] = _Injected(at, updated_at)
            if vector is not None and self.max_vectors > 0:
                self._vectors.pop(memory_id, None)
                self._vectors[memory_id] = (at, np.asarray(vector, dtype=np.float32).reshape(-1))
        while len(self._ids) > self.max_ids:
            self._ids.popitem(last=False)
        while len(self._vectors) > self.max_vectors:
            self._vectors.popitem(last=False)
        self._matrix = None

    def export(self) -> tuple[dict[str, object], bytes]:
        """The state as JSON values plus its vectors as little-endian float32 bytes, for `restore`."""
        values: dict[str, object] = {
            "turn": self.turn,
            "ids": [[memory_id, e.turn, e.updated_at] for memory_id, e in self._ids.items()],
            "vectors": [[memory_id, turn, len(v)] for memory_id, (turn, v) in self._vectors.items()],
        }
        data = b"".join(v.astype("<f4").tobytes() for _, v in self._vectors.values())
        return values, data

    def restore(self, values: dict[str, Any], data: bytes) -> None:
        """Take the state `export` gave (in another process); raises ValueError if it is not one."""
        try:
            turn = int(values["turn"])
            ids = [(str(i), int(t), float(u)) for i, t, u in values["ids"]]
            shapes = [(str(i), int(t), int(n)) for i, t, n in values["vectors"]]
        except (KeyError, TypeError, ValueError) as exc:
            raise ValueError(f"not an injection state: {exc}") from None
        if sum(n for _, _, n in shapes) * 4 != len(data):
            raise ValueError("injection state vectors do not match their ids")
        self.turn = turn
        self._ids = OrderedDict((i, _Injected(t, u)) for i, t, u in ids)
        self._vectors = OrderedDict()
        offset = 0
        for memory_id, at, n in shapes:
            vector = np.frombuffer(data, dtype="<f4", count=n, offset=offset).astype(np.float32)
            self._vectors[memory_id] = (at, vector)
            offset += n * 4
        self._matrix = None

    def advance_turn(self) -> int:
        """One more pre-hook run in this channel; returns the new turn number."""
        self.turn += 1
        return self.turn

    def forget_ids(self, ids: Iterable[str]) -> int:
        """Drop forgotten or superseded memories (their ids and vectors); returns how many were held."""
        dropped = 0
        for memory_id in ids:
            held = self._ids.pop(memory_id, None) is not None
            held = self._vectors.pop(memory_id, None) is not None or held
            dropped += held
        if dropped:
            self._matrix = None
        return dropped


@dataclass(eq=False)
class InjectionStates:
    """Registry of channel states keyed by (platform, workspace, channel, thread, agent), LRU-bounded.

    An evicted channel simply starts afresh: at worst a memory is injected once more.
    """

    context_window_depth: int = 20
    semantic_threshold: float = 0.85
    max_ids: int = DEFAULT_MAX_IDS
    max_vectors: int = DEFAULT_MAX_VECTORS
    max_channels: int = DEFAULT_MAX_CHANNELS
    _states: OrderedDict[ChannelKey, ChannelInjectionState] = field(
        default_factory=OrderedDict, init=False, repr=False
    )

    def __len__(self) -> int:
        return len(self._states)

    def __contains__(self, key: object) -> bool:
        return key in self._states

    def get(
        self,
        platform: str,
        workspace_id: str,
        channel_id: str,
        thread_id: str | None,
        agent_id: str,
    ) -> ChannelInjectionState:
        """The state of this conversation, created on first use; marks it most recently used."""
        key = ChannelKey(platform, workspace_id, channel_id, thread_id, agent_id)
        state = self._states.get(key)
        if state is None:
            state = ChannelInjectionState(
                self.context_window_depth, self.semantic_threshold, self.max_ids, self.max_vectors
            )
            self._states[key] = state
            while len(self._states) > self.max_channels:
                self._states.popitem(last=False)
        else:
            self._states.move_to_end(key)
        return state

    def peek(self, key: ChannelKey) -> ChannelInjectionState | None:
        """The state for `key` if it exists, without creating it or touching the LRU order."""
        return self._states.get(key)

    def forget_ids(
        self,
        ids: Iterable[str],
        platform: str | None = None,
        workspace_id: str | None = None,
        agent_id: str | None = None,
    ) -> int:
        """Drop `ids` from every channel state (optionally only those of one workspace and agent)."""
        wanted = list(ids)
        dropped = 0
        for key, state in self._states.items():
            if platform is not None and key.platform != platform:
                continue
            if workspace_id is not None and key.workspace_id != workspace_id:
                continue
            if agent_id is not None and key.agent_id != agent_id:
                continue
            dropped += state.forget_ids(wanted)
        return dropped
