"""The turn: one batch in, stored and learned from, at most one reply out (with a model or offline)."""

from __future__ import annotations

import asyncio
import logging
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, tzinfo
from functools import partial

from adapters.base import IncomingMessage
from memory.conversations import ConversationKinds
from memory.engine import MemoryEngine, StorageError, WriteResult
from memory.errors import LLMError
from memory.models import Memory, Scope, StoredMessage
from memory.people import AliasStore, ProfileStore, ProfileUpdater
from memory.prehook import PreHook, PrehookResult
from memory.prehook.injection_state import ChannelKey
from memory.storage import MemoryChange
from memory.summaries import SummaryManager
from memory.summarizer import ExtractiveSummarizer, Summarizer
from memory.text import credential_values, is_forget_request

from ..config import Settings
from ..history import ShownBlock, ShownBlocks, assemble
from ..json_reply import parse_reply
from ..llm.types import LLMProvider
from ..llm.usage import LLMUsage, counted, llm_purpose
from ..llm_summarizer import LLMSummarizer, ModelCallBudget
from ..memory_tools import MemoryToolbox, TurnContext, participants_index
from ..offline import offline_reply
from ..prompt import BOT_NAME, system_prompt
from .background import Background
from .channel_state import ChannelStates
from .context import TurnContextReader
from .learning import Author, Learner
from .messages import (
    MAX_MESSAGE_CHARS,
    Speaking,
    audience_of,
    clean_incoming,
    conversation_of,
    scope_of,
    to_stored,
    valid_utf8,
    visibility_of,
)
from .model import complete, keep_reply_memories

# One logger for the whole turn pipeline, whichever of its modules speaks.
log = logging.getLogger("bot.pipeline")


@dataclass(slots=True)
class TurnResult:
    """What one batch produced: the reply (None when the bot stays silent) and what memory did."""

    reply: str | None
    learned: list[Memory] = field(default_factory=list)
    stored_message_ids: list[str] = field(default_factory=list)
    remembered: list[Memory] = field(default_factory=list)
    prehook: PrehookResult | None = None
    tool_calls: int = 0
    error: str | None = None
    duplicate: bool = False
    # Set when SQLite refused to store the batch (disk full, failing disk): nothing was stored.
    storage_error: str | None = None

    @property
    def injected(self) -> list[Memory]:
        return self.prehook.injected if self.prehook is not None else []


APOLOGY = (
    "Sorry, I couldn't reach my language model just now. Your message is saved; please try again in a moment."
)
STORAGE_APOLOGY = (
    "Sorry, I couldn't save your message: my storage is full or failing right now. Please try again later."
)
EMPTY_REPLY = "Noted."


class TurnPipeline:
    """One batch of a channel's messages in, at most one reply out.

    With a language model: store the batch, learn from it heuristically, run the pre-hook once
    on the batch's combined text, send the recent history (with the memory blocks shown so far,
    in a clone that is never stored) to the model with the memory tools, store the reply.
    Without one, the offline responder answers from what memory recalls.
    """

    def __init__(
        self,
        engine: MemoryEngine,
        settings: Settings,
        llm: LLMProvider | None = None,
        tz: tzinfo = UTC,
        summarizer: Summarizer | None = None,
        summary_llm: LLMProvider | None = None,
        on_background_call: Callable[[str], None] | None = None,
    ) -> None:
        self.engine = engine
        self.settings = settings
        # Every model call, reply or summary, is tallied by provider and purpose for /metrics.
        self.llm_usage = LLMUsage()
        if llm is not None:
            llm = counted(llm, self.llm_usage)
        self.llm = llm
        # Summaries may use a cheaper model of their own (LLM_SUMMARY_MODEL); the reply model else.
        summary_llm = counted(summary_llm, self.llm_usage) if summary_llm is not None else llm
        self.agent_id = settings.storage.agent_id
        self.tz = tz
        # Background model calls are charged to the message that caused them, never to a timer.
        # `on_background_call` (the metrics counter) sees each of them too.
        self.model_budget = ModelCallBudget(settings.llm.max_background_calls, on_call=on_background_call)
        if summarizer is None:
            summarizer = (
                LLMSummarizer(summary_llm, self.model_budget)
                if summary_llm is not None
                else ExtractiveSummarizer()
            )
        self.summaries = SummaryManager(engine, summarizer, clock=engine.clock)
        self.prehook = PreHook(engine, settings.prehook.prehook_config(), tz=tz, summaries=self.summaries)
        self.shown = ShownBlocks(depth=self.prehook.config.context_window_depth)
        # Both follow the conversation when several processes share the storage.
        self.channel_states = ChannelStates(engine.handover, self.prehook, self.shown)
        engine.on_forget(self._on_forget)
        # Summaries, episodes, renames and vector upkeep, off the reply path.
        self.background = Background(engine, self.summaries, self.model_budget)
        # Conversation kinds reported by the adapters; rows stored before a conversation was
        # known to be private are narrowed to it the first time it is.
        self.conversations = ConversationKinds(engine)
        self.aliases = AliasStore.of(engine)
        self.profiles = ProfileStore.of(engine)
        # Profiles follow identity and preference writes without slowing them.
        self.profile_updater = ProfileUpdater(engine, self.profiles)
        self.learner = Learner(engine, self.agent_id, self.aliases, self.profiles, self.background.spawn, tz)
        self.context = TurnContextReader(
            engine, settings, tz, self.summaries, self.aliases, self.profiles, self.profile_updater
        )

    def _on_forget(self, memory: Memory) -> None:
        """A forgotten memory leaves every kept block; the rest of those blocks may be injected again."""
        self._unshow(self.shown.drop_containing(memory.id))

    def _unshow(self, removed: Sequence[tuple[ChannelKey, ShownBlock]]) -> None:
        for key, block in removed:
            self.prehook.forget_shown(key, block.memory_ids)

    def on_change(self, change: MemoryChange | None) -> None:
        """A memory changed in a process sharing the database (`Storage.watch`): what this one keeps
        of it in RAM goes, as for its own writes; None (changes may have been missed) drops all."""
        self.prehook.on_change(change)
        if change is None:
            self._unshow(self.shown.clear())
        elif change.gone:
            self._unshow(self.shown.drop_containing(change.id))

    def key_of(self, message: IncomingMessage) -> ChannelKey:
        return ChannelKey(
            message.platform, message.workspace_id, message.channel_id, message.thread_id, self.agent_id
        )

    async def handle(self, batch: Sequence[IncomingMessage], respond: bool = True) -> TurnResult:
        """Store the batch and learn from it; unless `respond` is False, answer it.

        A batch whose messages were all stored before (a redelivered event) is not answered
        again. System messages are stored but never answered and never run the pre-hook.
        """
        messages = [clean_incoming(m) for m in batch if m.text and m.text.strip()]
        if not messages:
            return TurnResult(reply=None)
        for conversation in dict.fromkeys(conversation_of(m) for m in messages):
            try:
                await self.conversations.observe(conversation)
            except StorageError as exc:
                # The batch's own rows still get the right visibility; the narrowing runs next time.
                log.error("conversation kind not recorded", extra={"error": str(exc)})
        stored = [to_stored(m, self.agent_id) for m in messages]
        try:
            new_ids = set(await self.engine.store_messages(stored))
        except StorageError as exc:
            # Nothing of the batch was stored: answering as if it had been would be a lie.
            log.error("batch not stored", extra={"platform": messages[-1].platform, "error": str(exc)})
            answer = respond and any(not m.is_system for m in messages)
            return TurnResult(reply=STORAGE_APOLOGY if answer else None, storage_error=str(exc))
        fresh = [(m, row) for m, row in zip(messages, stored, strict=True) if row.id in new_ids]
        if not fresh:
            log.info("batch already handled", extra={"platform": messages[-1].platform})
            return TurnResult(reply=None, duplicate=True)
        writes: list[WriteResult] = []
        # Whom the bot answers (the last one to speak): their "tomorrow", and the day the model is
        # told it is, are theirs; read with their name, once a message.
        author: Author = ("", self.tz)
        for message, row in fresh:
            if not message.is_system:
                author = await self.learner.speaker(message)
                writes.extend(await self.learner.learn(message, row.id, author))
                await self.learner.learn_names(message)
        learned = [w.memory for w in writes]
        result = TurnResult(reply=None, learned=learned, stored_message_ids=[row.id for _, row in fresh])
        speaking = [(m, row) for m, row in fresh if not m.is_system]
        if not respond or not speaking:
            self.background.schedule_maintenance()
            return result
        key = self.key_of(speaking[-1][0])
        # One batch at a time per conversation, in every process on the storage: the injection
        # state and history assume it.
        async with self.engine.handover.hold(key.storage_key()):
            # What other processes changed before this turn is dropped from RAM before it is read,
            # and the conversation's state is taken from the process that answered it last.
            await self.engine.handover.catch_up()
            await self.channel_states.load(key)
            try:
                # What the batch itself says is already in front of the model (or the people
                # reading the offline reply): its heuristic memories count as injected now, so
                # the hook does not repeat them as notes.
                current_turn = self.prehook.mark_shown(key, writes)
                if self.llm is None:
                    await self._answer_offline(key, speaking, result, author)
                else:
                    with llm_purpose("reply"):
                        await self._answer(self.llm, key, speaking, result, current_turn, author)
            finally:
                await self.channel_states.save(key)
        self.background.schedule_maintenance()
        return result

    # --- with a model -------------------------------------------------------------------------

    async def _answer(
        self,
        llm: LLMProvider,
        key: ChannelKey,
        speaking: Speaking,
        result: TurnResult,
        current_turn: int,
        author: Author,
    ) -> None:
        """The model's reply to `speaking`; `author` is what memories call its last author and the
        zone they live in (read once a turn: the episodes of the exchange reuse it)."""
        zone = author[1]
        last = speaking[-1][0]
        audience = audience_of(last, self.agent_id)
        authors = list(dict.fromkeys(m.author_id for m, _ in speaking))
        (participants, window_rows), profiles = await asyncio.gather(
            self.context.context_of(speaking), self.context.profile_lines(last, authors)
        )
        present = {m.id for m in window_rows}
        scope = scope_of(last, self.agent_id)
        earlier, thread = await self.context.compacted(scope, audience, window_rows)
        hook = await self.prehook.run(self.context.prehook_request(speaking, participants, present, zone))
        result.prehook = hook
        turn = hook.turn if hook.turn is not None else current_turn
        anchor = next((row.id for _, row in speaking if row.id in present), speaking[0][1].id)
        if hook.block:
            shown_ids = (
                *(m.id for m in hook.injected),
                *(m.id for m in hook.injected_messages),
                *(s.id for s in hook.injected_summaries),
            )
            memories = tuple(m.id for m in hook.injected)
            self.shown.add(key, ShownBlock(anchor, hook.block, shown_ids, turn, memories))
        history = assemble(
            window_rows, self.shown.get(key, turn), [row.id for _, row in speaking], earlier=earlier
        )

        people = participants_index([(m.author_id, m.author_name) for m, _ in speaking])
        toolbox = MemoryToolbox(
            self.engine,
            TurnContext(
                scope=scope,
                audience=audience,
                author_id=last.author_id,
                visibility=visibility_of(last),
                source_message_ids=[row.id for _, row in speaking],
                participants=people,
                search_threshold=self.settings.memory.search_threshold,
                tz=zone,
            ),
        )
        system = system_prompt(
            platform=last.platform,
            is_dm=last.is_dm,
            now=self.engine.clock(),
            tz=zone,
            thread_summary=thread.content if thread is not None else None,
            profiles=profiles,
        )
        try:
            final = await complete(llm, system, history, toolbox, self.settings.llm.max_tool_rounds)
        except Exception as exc:
            # LLMError is the expected case; anything else from a provider is handled the same
            # way: the user hears a short apology and their message stays stored.
            result.error = str(exc) if isinstance(exc, LLMError) else f"{type(exc).__name__}"
            log.warning(
                "model call failed",
                extra={"provider": llm.name, "error": result.error},
                exc_info=not isinstance(exc, LLMError),
            )
            result.reply = APOLOGY
            self._record_stored(key, toolbox, hook, result)
            return
        parsed = parse_reply(final)
        await keep_reply_memories(parsed, toolbox)
        result.tool_calls = len(toolbox.log)
        self._record_stored(key, toolbox, hook, result)
        # The model's text (or a "\ud800" escape in its JSON) may hold a lone surrogate.
        result.reply = valid_utf8(parsed.message) or (EMPTY_REPLY if toolbox.stored else None)
        if result.reply:
            # A reply that repeats a password it was given ("Got it: hunter2") is stored masked too.
            said = [value for m, _ in speaking for value in credential_values(m.text)]
            reply_id = await self._store_reply(
                last, result.reply, toolbox.log, secrets=said, answering=speaking[-1][1]
            )
            reply_ids = [reply_id] if reply_id is not None else []
            self._after_reply(
                key, scope, [*(row.id for _, row in speaking), *reply_ids], speaking, result.reply, author
            )

    def _record_stored(
        self, key: ChannelKey, toolbox: MemoryToolbox, hook: PrehookResult, result: TurnResult
    ) -> None:
        """Memories the model wrote itself are in its context: the hook must not repeat them."""
        written = [r for r in toolbox.stored if r.action in ("inserted", "superseded")]
        result.remembered = [r.memory for r in written]
        self.prehook.mark_shown(key, written, hook.turn)

    # --- offline ------------------------------------------------------------------------------

    async def _answer_offline(
        self, key: ChannelKey, speaking: Speaking, result: TurnResult, author: Author
    ) -> None:
        """The same recall as with a model (the pre-hook, its channel state included), shown to
        people; `author` is the last author's name and zone, as for `_answer`."""
        zone = author[1]
        last = speaking[-1][0]
        batch_ids = [row.id for _, row in speaking]
        try:
            participants, window_rows = await self.context.context_of(speaking)
            request = self.context.prehook_request(speaking, participants, {m.id for m in window_rows}, zone)
            result.prehook = await self.prehook.run(request)
        except Exception:  # recall failing (storage down) still leaves what was learned to say
            log.warning("offline recall failed", exc_info=True)
        asked = any(is_forget_request(m.text) for m, _ in speaking)
        result.reply = offline_reply(result.learned, result.prehook, self.engine.clock(), zone, asked)
        # In the transcript, but never recalled: it only repeats what memory holds.
        await self._store_reply(last, result.reply, searchable=False)
        # The offline reply is boilerplate: only what the users said is worth summarizing.
        self._after_reply(key, scope_of(last, self.agent_id), batch_ids, speaking, None, author)

    # --- background and storage ---------------------------------------------------------------

    def _after_reply(
        self,
        key: ChannelKey,
        scope: Scope,
        message_ids: list[str],
        speaking: Speaking,
        reply: str | None,
        author: Author,
    ) -> None:
        """Summaries, and episodes of the exchange when there was a reply, in the background."""
        store_episodes = self.learner.store_episodes
        episodes = None if reply is None else partial(store_episodes, speaking, reply, message_ids, author)
        self.background.after_reply(key, scope, message_ids, episodes)

    async def aclose(self) -> None:
        """Wait for background work to finish before the stores close."""
        await self.profile_updater.aclose()
        await self.idle()
        if self.background.maintenance is not None:
            await self.background.maintenance
        await self.prehook.aclose()

    async def idle(self) -> None:
        """Wait until the background summaries queued so far are written (tests, benchmarks)."""
        await self.background.idle()

    async def _store_reply(
        self,
        to: IncomingMessage,
        text: str,
        tool_calls: Sequence[dict[str, object]] = (),
        searchable: bool = True,
        secrets: Sequence[str] = (),
        answering: StoredMessage | None = None,
    ) -> str | None:
        """Store the bot's reply (to `answering`, the row of `to`, when known); its id, or None when
        storage refused it (the reply still goes out)."""
        reply = StoredMessage(
            id=uuid.uuid4().hex,
            scope=scope_of(to, self.agent_id),
            author_id=BOT_NAME,
            author_name=BOT_NAME,
            role="assistant",
            content=text[:MAX_MESSAGE_CHARS],
            created_at=max(self.engine.clock(), to.timestamp),
            visibility=visibility_of(to),
            tool_calls=list(tool_calls),
        )
        try:
            await self.engine.store_messages([reply], searchable=searchable, secrets=secrets, after=answering)
        except StorageError as exc:
            # The user's message is stored; losing the reply's transcript row beats withholding it.
            log.error("reply not stored", extra={"platform": to.platform, "error": str(exc)})
            return None
        return reply.id
