"""The memory engine: the write path (validation, dedup, TTL, per-scope locks), sweep and rename."""

from __future__ import annotations

import logging
import time
from collections import Counter
from collections.abc import Callable, Sequence
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np

from .dedup import DedupAction, DedupPolicy, decide, policy_for_model, records_an_instance
from .drafts import build_memory, exact_key, scope_audience
from .embedders import Embedder
from .errors import InvalidInput, InvalidMemory
from .errors import MemoryWriteError as MemoryWriteError  # re-exported: callers catch it from here
from .errors import StorageError as StorageError  # re-exported, as above
from .handover import Handover
from .models import (
    Audience,
    Memory,
    MemoryDraft,
    Scope,
    StoredMessage,
    content_hash,
)
from .recall import OWN_ELSEWHERE_LIMIT as OWN_ELSEWHERE_LIMIT  # re-exported, as above
from .recall import MemoryReads
from .recall import SearchHit as SearchHit  # re-exported, as above
from .storage import MemoryQuery, ReconcileReport, Storage, open_storage
from .storage.base import write_lock_key
from .stored_credentials import MaskReport, mask_stored, masked_turn
from .text import renamed
from .turn_text import message_embed_text, message_search_text

log = logging.getLogger(__name__)

Clock = Callable[[], float]


@dataclass(slots=True)
class WriteResult:
    """What the write path did: inserted, duplicate (exact), covered (already known), superseded."""

    action: str
    memory: Memory
    replaced: Memory | None = None
    similarity: float = 0.0
    # The vector just stored (inserted or superseded), so callers need not read it back.
    vector: np.ndarray | None = None


class MemoryEngine(MemoryReads):
    """Owns the storage and the embedder; every memory write and query goes through it."""

    def __init__(
        self,
        storage: Storage,
        embedder: Embedder,
        policy: DedupPolicy | None = None,
        clock: Clock = time.time,
        dedup_candidates: int = 5,
    ) -> None:
        self.storage = storage
        self.embedder = embedder
        self.policy = policy or policy_for_model(embedder.name)
        self.clock = clock
        # What the bot needs of the storage to answer a conversation other processes answer too.
        self.handover = Handover(storage, lambda: self.clock())
        self._dedup_k = dedup_candidates
        self._listeners: list[Callable[[Memory], None]] = []
        self._forget_listeners: list[Callable[[Memory], None]] = []
        # Memories written (inserted, superseding or imported) by (memory_type, source), for /metrics.
        self.writes: Counter[tuple[str, str]] = Counter()

    @classmethod
    async def open(
        cls,
        data_dir: str | Path,
        embedder: Embedder,
        *,
        policy: DedupPolicy | None = None,
        clock: Clock = time.time,
        reconcile: bool = True,
        search_index_rows: int | None = None,
    ) -> MemoryEngine:
        """Open (or create) the storage at `data_dir` (see `open_storage`: a directory is the
        embedded backend, a `postgresql://` URL the PostgreSQL one) and reconcile it.

        `search_index_rows` bounds the rows per vector table searched from RAM (0: none).
        """
        storage = await open_storage(data_dir, dim=embedder.dim, search_index_rows=search_index_rows)
        engine = cls(storage, embedder, policy=policy, clock=clock)
        if reconcile:
            report = await engine.reconcile()
            if report.details:
                log.warning("reconciled stores at start-up", extra={"details": report.details})
        return engine

    async def close(self) -> None:
        await self.storage.close()

    async def _embed(self, texts: Sequence[str]) -> Sequence[np.ndarray]:
        # Looked up on every call, so a swapped embedder (tests, a reload) is the one used.
        return await self.embedder.embed(list(texts))

    def on_write(self, listener: Callable[[Memory], None]) -> None:
        """Call `listener` with every memory inserted, superseded or forgotten (cache invalidation)."""
        self._listeners.append(listener)

    def on_forget(self, listener: Callable[[Memory], None]) -> None:
        """Call `listener` with every memory deleted from both stores (forgotten or expired), after
        the delete: whatever still holds its text (rendered context blocks) must drop it."""
        self._forget_listeners.append(listener)

    def _notify(self, memory: Memory) -> None:
        for listener in self._listeners:
            listener(memory)

    def _notify_deleted(self, memories: Sequence[Memory]) -> None:
        for memory in memories:
            memory.forgotten = True
            self._notify(memory)
            for listener in self._forget_listeners:
                listener(memory)

    def _lock_for(self, memory: Memory) -> AbstractAsyncContextManager[None]:
        # The storage's write lock, so processes sharing a database check-then-insert one at a time.
        return self.storage.write_lock(
            [write_lock_key("memories", memory.platform, memory.workspace_id, memory.agent_id)]
        )

    # --- write path -----------------------------------------------------------------------------

    def build_memory(self, draft: MemoryDraft) -> Memory:
        """Validate a draft and turn it into a row; raises InvalidMemory (or TTLError) with a reason."""
        return build_memory(draft, self.clock())

    async def remember(self, draft: MemoryDraft) -> WriteResult:
        """Store a memory: exact duplicates are no-ops, refinements supersede, the rest is inserted."""
        memory = self.build_memory(draft)
        scope = scope_audience(memory)
        existing = await self.storage.memories.find_by_hash(
            memory.content_hash, scope, self.clock(), memory.visibility
        )
        if existing is not None:
            return WriteResult("duplicate", existing, similarity=1.0)
        # Embedded before the scope's lock is taken, so other writes in the workspace do not wait
        # for the model; the exact-duplicate check runs again under the lock.
        vector = (await self.embedder.embed([memory.content]))[0]
        async with self._lock_for(memory):
            now = self.clock()
            existing = await self.storage.memories.find_by_hash(
                memory.content_hash, scope, now, memory.visibility
            )
            if existing is not None:
                return WriteResult("duplicate", existing, similarity=1.0)
            hits = await self.storage.memories.search(
                scope, vector, self._dedup_k, now, visibility=memory.visibility.value
            )
            same_scope = await self.storage.memories.visible([h.id for h in hits], scope, now)
            neighbours = {m.id: m for m in same_scope}
            candidates = [
                (h.id, neighbours[h.id].content, h.score)
                for h in hits
                if h.id in neighbours and neighbours[h.id].is_active(now)
            ]
            said_with = set(memory.sources)
            siblings = frozenset(i for i, m in neighbours.items() if said_with & set(m.sources))
            decision = decide(memory.content, candidates, self.policy, siblings)
            if decision.action is DedupAction.COVERED and decision.existing_id is not None:
                return WriteResult(
                    "covered", neighbours[decision.existing_id], similarity=decision.similarity
                )
            replaced = (
                neighbours.get(decision.existing_id) if decision.action is DedupAction.SUPERSEDE else None
            )
            # A note of the kind a statement tells of ("Léa's written works include a screenplay: Léa
            # finished her screenplay on ...") is written beside the statement, not over it: the
            # statement keeps its own words and type, by which a question that does not ask by kind
            # finds it.
            if (
                replaced is not None
                and records_an_instance(memory.subjects)
                and not records_an_instance(replaced.subjects)
            ):
                replaced = None
            if replaced is not None:
                # The refinement keeps what the older memory knew: its subjects and sources.
                memory.subjects = list(dict.fromkeys([*memory.subjects, *replaced.subjects]))[:12]
                memory.sources = list(dict.fromkeys([*replaced.sources, *memory.sources]))
                memory.importance = max(memory.importance, replaced.importance)
            await self.storage.memories.add(memory, vector, replaced.id if replaced else None, self.clock())
        if replaced is not None:
            replaced.forgotten, replaced.superseded_by = True, memory.id
            self._notify(replaced)
        self._notify(memory)
        action = "superseded" if replaced is not None else "inserted"
        self.writes[(memory.memory_type.value, memory.source.value)] += 1
        log.info(
            "memory stored",
            extra={"action": action, "memory_id": memory.id, "memory_type": memory.memory_type.value},
        )
        return WriteResult(action, memory, replaced, decision.similarity, vector)

    async def import_memories(self, drafts: Sequence[MemoryDraft], batch_size: int = 512) -> list[Memory]:
        """Bulk-store memories (imports, benchmarks); returns the ones inserted, in draft order.

        Every draft is validated by `build_memory` before anything is written (a ValueError names
        the first bad one). Exact duplicates (same content hash and scope as an active memory, or
        as an earlier draft) are skipped; there is no similarity merge: an import is taken as
        given. Per batch: one `embed` call, one SQLite transaction, one vector write, then the
        rows are marked indexed. A failed vector write deletes that batch's rows and raises
        MemoryWriteError; batches stored before it stay stored.
        """
        if batch_size < 1:
            raise ValueError(f"batch_size must be at least 1, got {batch_size}")
        memories: list[Memory] = []
        for n, draft in enumerate(drafts):
            try:
                memories.append(self.build_memory(draft))
            except InvalidInput as exc:  # InvalidMemory or TTLError
                raise InvalidMemory(f"draft {n}: {exc}") from exc
        inserted: list[Memory] = []
        for start in range(0, len(memories), batch_size):
            inserted.extend(await self._import_batch(memories[start : start + batch_size]))
        return inserted

    async def _import_batch(self, batch: list[Memory]) -> list[Memory]:
        # Known duplicates are dropped before embedding (the slow part, done outside the scope
        # locks); the check is repeated under the locks in case a write landed meanwhile.
        batch = await self._new_by_hash(batch)
        if not batch:
            return []
        vectors = await self.embedder.embed([m.content for m in batch])
        vector_of = {m.id: v for m, v in zip(batch, vectors, strict=True)}
        # The storage takes the keys sorted, so two imports over the same scopes cannot each hold a
        # lock the other waits on.
        keys = {write_lock_key("memories", m.platform, m.workspace_id, m.agent_id) for m in batch}
        async with self.storage.write_lock(list(keys)):
            batch = await self._new_by_hash(batch)
            if not batch:
                return []
            batch_vectors = [vector_of[m.id] for m in batch]
            await self.storage.memories.add_many(batch, batch_vectors)
        for memory in batch:
            self._notify(memory)
            self.writes[(memory.memory_type.value, memory.source.value)] += 1
        log.info("memories imported", extra={"count": len(batch)})
        return batch

    async def _new_by_hash(self, batch: list[Memory]) -> list[Memory]:
        """`batch` without exact duplicates of active memories or of earlier items of the batch."""
        known = await self.storage.memories.active_hash_matches([m.content_hash for m in batch], self.clock())
        seen = {exact_key(*row) for row in known}
        fresh: list[Memory] = []
        for memory in batch:
            key = exact_key(
                memory.content_hash,
                memory.platform,
                memory.workspace_id,
                memory.agent_id,
                memory.visibility.value,
                memory.channel_id,
                memory.author_id,
            )
            if key is not None and key in seen:
                continue
            if key is not None:
                seen.add(key)
            fresh.append(memory)
        return fresh

    async def undo_supersede(self, memory_id: str) -> Memory:
        """Undo a wrong merge: restore the memory `memory_id` superseded (re-indexing its stored vector).

        The restore is a write into the older memory's scope, made under that scope's write lock
        like `remember`'s: when an active memory already says exactly the same (stored meanwhile,
        here or by another process), nothing is restored and that memory is returned (the fact is
        back, once)."""
        older = await self.storage.memories.superseded_unscoped(memory_id)
        if older is None:
            raise KeyError(f"memory {memory_id} did not supersede anything")
        vector = (await self.storage.memories.embeddings([older.id])).get(older.id)
        if vector is None:
            vector = (await self.embedder.embed([older.content]))[0]
        async with self._lock_for(older):
            now = self.clock()
            active = await self.storage.memories.find_by_hash(
                older.content_hash, scope_audience(older), now, older.visibility
            )
            if active is not None:
                return active
            # Read again under the lock: another process may have undone or forgotten it meanwhile.
            older = await self.storage.memories.superseded_unscoped(memory_id)
            if older is None:
                raise KeyError(f"memory {memory_id} did not supersede anything")
            await self.storage.memories.restore(older, vector, now)
        older.forgotten, older.superseded_by = False, None
        self._notify(older)
        return older

    async def forget(self, memory_id: str, audience: Audience) -> Memory | None:
        """Delete a memory from both stores if `audience` may see it; None when it may not."""
        found = await self.storage.memories.visible([memory_id], audience, self.clock())
        return await self._forget_found(found)

    async def forget_unscoped(self, memory_id: str) -> Memory | None:
        """Delete a memory by id whoever may see it (operators, repairs); users go through `forget`."""
        return await self._forget_found(await self.storage.memories.get_unscoped([memory_id]))

    async def _forget_found(self, found: Sequence[Memory]) -> Memory | None:
        if not found:
            return None
        memory = found[0]
        await self.storage.memories.delete([memory.id])
        self._notify_deleted([memory])
        log.info("memory forgotten", extra={"memory_id": memory.id})
        return memory

    async def forget_many_unscoped(self, ids: Sequence[str]) -> int:
        """Delete these memories whoever may see them (maintenance); returns how many existed."""
        memories = await self.storage.memories.get_unscoped(ids)
        await self.storage.memories.delete([m.id for m in memories])
        self._notify_deleted(memories)
        return len(memories)

    async def rescope(
        self,
        memory_ids: Sequence[str],
        message_ids: Sequence[str],
        summary_ids: Sequence[str],
        channel_id: str,
    ) -> None:
        """Bring the vector rows of rows SQLite just narrowed to `channel_id` in line with them.

        Searches already re-read every hit through SQLite, so a vector row that still says
        `workspace` never shows a narrowed row elsewhere; this keeps the pre-filters exact. The
        memories go to the write listeners with their new scope: cached preferences and profiles
        that held them as shared drop them.
        """
        await self.storage.memories.rescope(memory_ids, channel_id)
        await self.storage.turns.rescope(message_ids, channel_id)
        if summary_ids:
            await self.storage.summaries.rescope(summary_ids, channel_id)
        for memory in await self.storage.memories.get_unscoped(memory_ids):
            self._notify(memory)

    async def rename_person(
        self, scope: Scope, user_id: str, old_names: Sequence[str], new_name: str
    ) -> list[Memory]:
        """Call `user_id` by `new_name` in the memories about them that used an old name.

        "Root broke their shoulder", written before Root said their name is Mickael, becomes
        "Mickael broke their shoulder": new wording, hash and vector (SQLite first, then the vector
        row; a crash in between is repaired at start-up). A memory whose new wording an active one
        already says is forgotten instead, as `remember` would not store it twice. Returns the
        memories rewritten.
        """
        new = new_name.strip()
        olds = [
            n for n in dict.fromkeys(o.strip() for o in old_names) if n and n.casefold() != new.casefold()
        ]
        if not olds or not new:
            return []
        # Every memory about them in the workspace, whatever its visibility: only its wording changes.
        everything = Audience(
            scope.platform,
            scope.workspace_id,
            scope.agent_id,
            viewer_id=user_id,
            private_ok=True,
            operator=True,
        )
        about = await self.storage.memories.query(
            everything, self.clock(), MemoryQuery(user_ids=[user_id], limit=500)
        )
        # A memory naming the new name already ("Root's name is Mickael") says it as it was said.
        changed = [
            (m, renamed(m.content, olds, new)) for m in about if new.casefold() not in m.content.casefold()
        ]
        changed = [(m, text) for m, text in changed if text != m.content]
        if not changed:
            return []
        vectors = await self.embedder.embed([text for _, text in changed])
        done: list[Memory] = []
        dropped: list[Memory] = []
        # Every memory of the query shares the scope's write lock: a new wording is checked against
        # what is active and written one at a time with `remember`'s writes in every process.
        try:
            async with self.storage.write_lock(
                [write_lock_key("memories", scope.platform, scope.workspace_id, scope.agent_id)]
            ):
                now = self.clock()
                for (memory, text), vector in zip(changed, vectors, strict=True):
                    digest = content_hash(text)
                    same = await self.storage.memories.find_by_hash(
                        digest, scope_audience(memory), now, memory.visibility
                    )
                    if same is not None and same.id != memory.id:
                        # An active memory already says it (the dedup rule: one active copy of a fact).
                        await self.storage.memories.delete([memory.id])
                        dropped.append(memory)
                        continue
                    rewritten = replace(
                        memory,
                        content=text,
                        content_hash=digest,
                        updated_at=now,
                        subjects=list(dict.fromkeys([*memory.subjects, new.casefold()]))[:12],
                    )
                    await self.storage.memories.rewrite(rewritten, vector)
                    done.append(rewritten)
        finally:
            # A write that fails part-way (the lock's connection lost, a disk error) still leaves
            # the memories before it rewritten: the caches holding their old wording drop them
            # now, not at their next refresh. The rest keep the old name and are renamed again
            # the next time the name is learned.
            self._notify_deleted(dropped)
            for memory in done:
                self._notify(memory)
        log.info("memories renamed", extra={"count": len(done), "dropped_as_duplicates": len(dropped)})
        return done

    async def sweep_expired(self) -> int:
        """Delete every expired memory from both stores; returns how many."""
        ids = await self.storage.memories.expired_ids(self.clock())
        if ids:
            memories = await self.storage.memories.get_unscoped(ids)
            await self.storage.memories.delete(ids)
            self._notify_deleted(memories)
            log.info("expired memories swept", extra={"count": len(ids)})
        return len(ids)

    # --- messages -------------------------------------------------------------------------------

    async def store_messages(
        self,
        messages: Sequence[StoredMessage],
        searchable: bool = True,
        secrets: Sequence[str] = (),
        after: StoredMessage | None = None,
    ) -> list[str]:
        """Store turns with their vectors; a repeated external id is skipped. Returns new ids.

        Once this returns the rows are committed. A row whose vector could not be made or written
        (embedder or LanceDB failing) is kept unindexed, and `maintain()` or start-up reconcile
        indexes it. Raises StorageError when SQLite refuses the rows: then nothing was stored.
        Turns that are not `searchable` (the offline responder's boilerplate) stay in the
        transcript but are never embedded nor recalled. A credential in a turn or its tool calls
        (a password with its value, a key, a card number) is stored as "[redacted]", and so are
        `secrets` (the values a reply repeats of the turns it answers): the transcript is read
        back into prompts, summaries and searches, and no secret should live on there. `after`:
        the turn the first message follows in its conversation, when the caller knows it (a reply
        follows the message it answers), which spares reading it back.
        """
        if not messages:
            return []
        messages = [masked_turn(m, secrets) for m in messages]
        if not searchable:
            return await self.storage.turns.add_unsearchable(messages)
        vectors: list[np.ndarray | None]
        try:
            vectors = list(await self.embedder.embed([message_embed_text(m) for m in messages]))
        except Exception:
            # A turn must not be lost because its embedding failed: store it now, index it later.
            log.warning("message embedding failed; stored without vectors, queued for repair", exc_info=True)
            vectors = [None] * len(messages)
        previous = await self._previous_turns(messages, masked_turn(after, ()) if after is not None else None)
        texts = [message_search_text(m, previous.get(m.id)) for m in messages]
        return await self.storage.turns.add(messages, vectors, texts)

    async def _previous_turns(
        self, messages: Sequence[StoredMessage], after: StoredMessage | None
    ) -> dict[str, StoredMessage]:
        """Each new turn's predecessor in its conversation: the batch's own earlier turn, `after`,
        or the last stored one (one query per other conversation the batch touches)."""
        found: dict[str, StoredMessage] = {}
        last: dict[Scope, StoredMessage] = {} if after is None else {after.scope: after}
        for message in messages:
            key = message.scope
            if key not in last:
                before = await self.storage.turns.recent(key, limit=1, before=message.created_at)
                if before:
                    last[key] = before[-1]
            if key in last:
                found[message.id] = last[key]
            last[key] = message
        return found

    @property
    def needs_maintenance(self) -> bool:
        return self.storage.needs_maintenance

    async def warm_search(self) -> int:
        """Load the busiest scopes of the search index into RAM, so the first turn in each does not
        wait for it; returns the rows loaded."""
        return await self.storage.warm()

    async def build_search_indexes(self) -> None:
        """Build every search index now, approximate ones included (benchmarks, after bulk loads)."""
        await self.storage.build_indexes()

    async def maintain(self) -> None:
        """Index queued turns, compact and re-index the search tables; off the reply path."""
        await self.storage.maintain(self._embed)

    # --- consistency ----------------------------------------------------------------------------

    async def repair_messages(self) -> int:
        """Index the turns stored without a vector (embedder or index write failed); returns how many."""
        return await self.storage.repair_turns(self._embed)

    async def mask_stored_credentials(self, dry_run: bool = False, batch: int = 500) -> MaskReport:
        """Mask the credentials that turns and summaries stored by older versions still hold (turns
        are masked as they are stored now): each is rewritten with "[redacted]" in place of the
        value and indexed again without it. A second pass finds nothing; `dry_run` only counts."""
        report = await mask_stored(self.storage, self.embedder, dry_run, batch)
        if report.turns and not dry_run:
            await self.repair_messages()
        return report

    async def reconcile(self) -> ReconcileReport:
        """Make the storage consistent after a crash: index rows without vectors, drop stray vectors."""
        return await self.storage.reconcile(self._embed)
