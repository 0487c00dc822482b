"""The turn pipeline: store incoming messages, learn from them, recall, reply, store the reply."""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import uuid
import weakref
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, tzinfo

from adapters.base import IncomingMessage
from memory.aliases import AliasStore, learn_aliases
from memory.conversations import ConversationKinds
from memory.engine import MemoryEngine, StorageError, WriteResult
from memory.episodes import detect_episodes
from memory.errors import InvalidInput, LLMError
from memory.injection_state import ChannelKey
from memory.models import (
    Audience,
    Conversation,
    Memory,
    MemoryDraft,
    Scope,
    Source,
    StoredMessage,
    Summary,
    Visibility,
)
from memory.prehook import PreHook, PrehookRequest, PrehookResult
from memory.profiles import ProfileStore, ProfileUpdater, compact
from memory.summaries import SummaryManager
from memory.summarizer import ExtractiveSummarizer, Summarizer
from memory.text import extract

from .config import Settings
from .history import ShownBlock, ShownBlocks, assemble, summaries_message, window
from .json_reply import parse_reply
from .llm.types import ChatMessage, LLMProvider
from .llm.usage import LLMUsage, counted, llm_purpose
from .llm_summarizer import LLMSummarizer, ModelCallBudget
from .memory_tools import MEMORY_TOOLS, MemoryToolbox, TurnContext, participants_index
from .offline import offline_reply
from .prompt import BOT_NAME, system_prompt

log = logging.getLogger(__name__)

MAX_MESSAGE_CHARS = 40_000  # longer messages are stored truncated; models and embedders choke on more


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


def scope_of(message: IncomingMessage, agent_id: str) -> Scope:
    return Scope(message.platform, message.workspace_id, message.channel_id, agent_id, message.thread_id)


def audience_of(message: IncomingMessage, agent_id: str) -> Audience:
    """What a conversation may see: its workspace's shared memories, its own channel's, and in a
    DM the author's private notes and what they said about themselves in other workspaces."""
    return Audience(
        platform=message.platform,
        workspace_id=message.workspace_id,
        agent_id=agent_id,
        viewer_id=message.author_id,
        channel_id=message.channel_id,
        private_ok=message.is_dm,
        own_elsewhere=message.is_dm,
    )


def visibility_of(message: IncomingMessage) -> Visibility:
    """Who may be shown what is learned from `message`: decided by its conversation's kind."""
    return message.conversation.visibility


def conversation_of(message: IncomingMessage) -> Conversation:
    return Conversation(message.platform, message.workspace_id, message.channel_id, message.conversation)


def valid_utf8(text: str) -> str:
    """`text` with unpaired surrogates replaced: SQLite, LanceDB, logs and platform APIs all need UTF-8."""
    return text.encode("utf-8", "replace").decode("utf-8")


def _clean_incoming(message: IncomingMessage) -> IncomingMessage:
    # Platforms hand over JSON-decoded strings, and JSON can spell a lone surrogate ("\ud800").
    text, name = valid_utf8(message.text), valid_utf8(message.author_name)
    if text == message.text and name == message.author_name:
        return message
    return dataclasses.replace(message, text=text, author_name=name)


def to_stored(message: IncomingMessage, agent_id: str) -> StoredMessage:
    text = valid_utf8(message.text)[:MAX_MESSAGE_CHARS]
    return StoredMessage(
        id=uuid.uuid4().hex,
        platform=message.platform,
        workspace_id=message.workspace_id,
        channel_id=message.channel_id,
        thread_id=message.thread_id,
        agent_id=agent_id,
        author_id=message.author_id,
        author_name=message.author_name,
        role="system" if message.is_system else "user",
        content=text,
        created_at=message.timestamp,
        external_id=message.external_id,
        visibility=visibility_of(message),
    )


APOLOGY = (
    "Sorry, I couldn't reach my language model just now. Your message is saved; please try again in a moment."
)
STORAGE_APOLOGY = (
    "Sorry, I couldn't save your message: my storage is full or failing right now. Please try again later."
)
EMPTY_REPLY = "Noted."
_TOOL_LIMIT_RESULT = '{"error": "tool round limit reached: reply to the user now, without tools"}'


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
        engine.on_forget(self._on_forget)
        self._background: set[asyncio.Task[None]] = set()
        self._summarizing: dict[ChannelKey, asyncio.Task[None]] = {}
        # Conversation kinds reported by the adapters; rows stored before a conversation was
        # known to be private are narrowed to it the first time it is.
        self.conversations = ConversationKinds(engine)
        self.aliases = AliasStore(engine.storage.people)
        self.profiles = ProfileStore(engine.storage, engine.clock)
        # Profiles follow identity and preference writes without slowing them.
        self.profile_updater = ProfileUpdater(engine, self.profiles)
        self._maintenance: asyncio.Task[None] | None = None
        # One batch at a time per conversation: the injection state and history assume it.
        # Weak values: a lock lives exactly as long as a batch of its channel holds or awaits it.
        self._locks: weakref.WeakValueDictionary[ChannelKey, asyncio.Lock] = weakref.WeakValueDictionary()

    def _on_forget(self, memory: Memory) -> None:
        """A forgotten memory leaves every kept block; the rest of those blocks may be injected again."""
        for key, block in self.shown.drop_containing(memory.id):
            self.prehook.forget_shown(key, block.memory_ids)

    def key_of(self, message: IncomingMessage) -> ChannelKey:
        return ChannelKey(
            message.platform, message.workspace_id, message.channel_id, message.thread_id, self.agent_id
        )

    async def known_name(self, message: IncomingMessage) -> str:
        """What memories call the author: the name they said they go by, else their display name."""
        try:
            if message.is_dm:
                profile = await self.profiles.in_own_dm(audience_of(message, self.agent_id))
            else:
                profile = await self.profiles.get(
                    message.platform, message.workspace_id, message.author_id, self.agent_id
                )
        except Exception:  # a name only words the memory; the display name will do
            log.warning("profile unavailable for the author's name", exc_info=True)
            return message.author_name
        name = profile.known_name(include_private=message.is_dm) if profile is not None else None
        return name or message.author_name

    async def learn(self, message: IncomingMessage, stored_id: str) -> list[WriteResult]:
        """Zero-cost heuristic extraction from one user message: the memories it wrote."""
        learned: list[WriteResult] = []
        now = datetime.fromtimestamp(message.timestamp, UTC)
        speaker = await self.known_name(message)
        for item in extract(message.text, speaker, now=now):
            if item.given_name is not None:
                # From now on memories call them so, and the earlier ones are reworded.
                self._rename_later(message, [message.author_name, speaker], item.given_name)
            draft = MemoryDraft(
                content=item.content,
                scope=scope_of(message, self.agent_id),
                memory_type=item.memory_type,
                subjects=item.subjects,
                confidence=item.confidence,
                source=Source.HEURISTIC,
                user_id=message.author_id,
                author_id=message.author_id,
                visibility=visibility_of(message),
                sources=[stored_id],
                created_at=message.timestamp,
                expires_at=item.expires_at,
            )
            try:
                result = await self.engine.remember(draft)
            except InvalidInput as exc:
                log.debug("heuristic memory rejected", extra={"reason": str(exc)})
                continue
            except Exception:  # a storage or embedding failure costs this memory, not the turn
                log.warning("heuristic memory not stored", exc_info=True)
                continue
            if result.action in ("inserted", "superseded"):
                learned.append(result)
        return learned

    def _rename_later(self, message: IncomingMessage, old_names: list[str], new_name: str) -> None:
        async def rename() -> None:
            try:
                await self.engine.rename_person(
                    scope_of(message, self.agent_id), message.author_id, old_names, new_name
                )
            except Exception:  # the old wording stays true enough; the next name statement retries
                log.warning("memories not renamed", exc_info=True)

        task = asyncio.create_task(rename())
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    async def _learn_names(self, message: IncomingMessage) -> None:
        """The names a user goes by: their display name and any "call me …" they say."""
        names = [message.author_name, *learn_aliases(message.text, message.author_name)]
        try:
            await self.aliases.add_many(
                message.platform, message.workspace_id, message.author_id, names, message.timestamp
            )
        except Exception:  # names only widen searches; losing one must not cost the turn
            log.warning("alias update failed", exc_info=True)

    async def handle(self, batch: Sequence[IncomingMessage], respond: bool = True) -> TurnResult:
        """Store the batch and learn from it; unless `respond` is False, answer it.

        A batch whose messages were all stored before (a redelivered event) is not answered
        again. System messages are stored but never answered and never run the pre-hook.
        """
        messages = [_clean_incoming(m) for m in batch if m.text and m.text.strip()]
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
        for message, row in fresh:
            if not message.is_system:
                writes.extend(await self.learn(message, row.id))
                await self._learn_names(message)
        learned = [w.memory for w in writes]
        result = TurnResult(reply=None, learned=learned, stored_message_ids=[row.id for _, row in fresh])
        speaking = [(m, row) for m, row in fresh if not m.is_system]
        if not respond or not speaking:
            self._schedule_maintenance()
            return result
        key = self.key_of(speaking[-1][0])
        lock = self._locks.get(key)
        if lock is None:
            lock = self._locks[key] = asyncio.Lock()
        async with lock:
            if self.llm is None:
                await self._answer_offline(key, speaking, result, writes)
            else:
                with llm_purpose("reply"):
                    await self._answer(self.llm, key, speaking, result, writes)
        self._schedule_maintenance()
        return result

    # --- with a model -------------------------------------------------------------------------

    async def _answer(
        self,
        llm: LLMProvider,
        key: ChannelKey,
        speaking: list[tuple[IncomingMessage, StoredMessage]],
        result: TurnResult,
        learned: Sequence[WriteResult],
    ) -> None:
        last = speaking[-1][0]
        audience = audience_of(last, self.agent_id)
        # What the batch itself says is already in front of the model: its heuristic memories
        # count as injected now, so the hook does not repeat them as notes.
        current_turn = self.prehook.mark_shown(key, learned)
        authors = list(dict.fromkeys(m.author_id for m, _ in speaking))
        (participants, window_rows), profiles = await asyncio.gather(
            self._context_of(speaking), self._profile_lines(last, authors)
        )
        present = {m.id for m in window_rows}
        scope = scope_of(last, self.agent_id)
        earlier, thread = await self._compacted(scope, audience, window_rows)
        hook = await self.prehook.run(self._prehook_request(speaking, participants, present))
        result.prehook = hook
        turn = hook.turn if hook.turn is not None else current_turn
        anchor = next((row.id for _, row in speaking if row.id in present), speaking[0][1].id)
        if hook.block:
            shown_ids = (
                *(m.id for m in hook.injected),
                *(m.id for m in hook.injected_messages),
                *(s.id for s in hook.injected_summaries),
            )
            self.shown.add(key, ShownBlock(anchor, hook.block, shown_ids, turn))
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
            ),
        )
        system = system_prompt(
            platform=last.platform,
            is_dm=last.is_dm,
            now=self.engine.clock(),
            tz=self.tz,
            thread_summary=thread.content if thread is not None else None,
            profiles=profiles,
        )
        try:
            final = await self._complete(llm, system, history, toolbox)
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
        for problem in parsed.errors:
            log.info("memory in JSON reply refused", extra={"reason": problem})
        for problem in parsed.warnings:
            log.warning("memory in JSON reply kept without its TTL", extra={"reason": problem})
        for request_, about in parsed.memories:
            try:
                await toolbox.remember(request_, about)
            except InvalidInput as exc:
                log.info("memory in JSON reply refused", extra={"reason": str(exc)})
            except Exception:  # the reply still goes out when its memory cannot be stored
                log.warning("memory in JSON reply not stored", exc_info=True)
        result.tool_calls = len(toolbox.log)
        self._record_stored(key, toolbox, hook, result)
        # The model's text (or a "\ud800" escape in its JSON) may hold a lone surrogate.
        result.reply = valid_utf8(parsed.message) or (EMPTY_REPLY if toolbox.stored else None)
        if result.reply:
            reply_id = await self._store_reply(last, result.reply, toolbox.log)
            reply_ids = [reply_id] if reply_id is not None else []
            self._after_reply(
                key, scope, [*(row.id for _, row in speaking), *reply_ids], speaking, result.reply
            )

    async def _context_of(
        self, speaking: list[tuple[IncomingMessage, StoredMessage]]
    ) -> tuple[list[str], list[StoredMessage]]:
        """Who takes part (the authors and whoever their names stand for) and the history window."""
        last = speaking[-1][0]
        authors = list(dict.fromkeys(m.author_id for m, _ in speaking))
        names = list(dict.fromkeys(m.author_name for m, _ in speaking if m.author_name))
        participants, recent = await asyncio.gather(
            self._participants(last, authors, names),
            self.engine.recent_turns(scope_of(last, self.agent_id), self.settings.history.max_messages),
        )
        history = self.settings.history
        return participants, window(recent, history.max_messages, history.max_chars)

    def _prehook_request(
        self,
        speaking: list[tuple[IncomingMessage, StoredMessage]],
        participants: list[str],
        present: set[str],
    ) -> PrehookRequest:
        """The pre-hook's view of a batch: its text, its conversation, who reads the reply."""
        last = speaking[-1][0]
        return PrehookRequest(
            text="\n".join(m.text for m, _ in speaking),
            platform=last.platform,
            workspace_id=last.workspace_id,
            channel_id=last.channel_id,
            thread_id=last.thread_id,
            agent_id=self.agent_id,
            viewer=audience_of(last, self.agent_id),
            participants=participants,
            exclude_message_ids=[row.id for _, row in speaking],
            in_context_message_ids=list(present),
        )

    async def _compacted(
        self, scope: Scope, audience: Audience, window_rows: Sequence[StoredMessage]
    ) -> tuple[str | None, Summary | None]:
        """What stands in for turns older than the window: their summaries, and the thread summary."""
        start = window_rows[0].created_at if window_rows else float("inf")
        try:
            pending, thread = await asyncio.gather(
                self.summaries.pending_level1(scope, audience), self.summaries.thread_summary(scope, audience)
            )
        except Exception:  # summaries only add context; a failure must not cost the reply
            log.warning("summaries unavailable for the prompt", exc_info=True)
            return None, None
        older = [s for s in pending if s.covers_to < start]
        return summaries_message(older, self.settings.history.summary_chars, self.tz), thread

    def _after_reply(
        self,
        key: ChannelKey,
        scope: Scope,
        message_ids: list[str],
        speaking: list[tuple[IncomingMessage, StoredMessage]],
        reply: str | None,
    ) -> None:
        """Summaries and episodes off the reply path, in order per channel, model calls budgeted."""
        previous = self._summarizing.get(key)

        async def work() -> None:
            if previous is not None:
                await asyncio.gather(previous, return_exceptions=True)
            if reply is not None:
                await self._store_episodes(speaking, reply, message_ids)
            with self.model_budget.message(message_ids[0]):
                try:
                    await self.summaries.summarize_turn(scope, message_ids)
                    await self.summaries.update_thread_summary(scope, message_ids)
                except Exception:
                    log.warning("background summary failed", exc_info=True)

        task = asyncio.create_task(work())
        self._summarizing[key] = task
        self._background.add(task)
        task.add_done_callback(self._background.discard)
        task.add_done_callback(
            lambda t: self._summarizing.pop(key, None) if self._summarizing.get(key) is t else None
        )

    async def _store_episodes(
        self, speaking: list[tuple[IncomingMessage, StoredMessage]], reply: str, message_ids: list[str]
    ) -> None:
        """Decisions, dated commitments and reminders that need the exchange, not one message."""
        last = speaking[-1][0]
        text = "\n".join(m.text for m, _ in speaking if m.author_id == last.author_id)
        now = datetime.fromtimestamp(last.timestamp, UTC)
        for episode in detect_episodes(text, reply, await self.known_name(last), now):
            draft = MemoryDraft(
                content=episode.content,
                scope=scope_of(last, self.agent_id),
                memory_type=episode.memory_type,
                subjects=list(episode.subjects),
                confidence=episode.confidence,
                source=Source.HEURISTIC,
                user_id=last.author_id,
                author_id=last.author_id,
                visibility=visibility_of(last),
                sources=list(message_ids),
            )
            try:
                await self.engine.remember(draft)
            except Exception:
                log.warning("episode not stored", exc_info=True)

    async def _participants(self, last: IncomingMessage, authors: list[str], names: list[str]) -> list[str]:
        """The batch's authors plus every user id their names stand for ("dev" is Mickael)."""
        try:
            known = await self.aliases.resolve_users(last.platform, last.workspace_id, [*authors, *names])
        except Exception:
            log.warning("alias lookup failed", exc_info=True)
            known = []
        return list(dict.fromkeys([*authors, *known]))

    async def _profile_lines(self, last: IncomingMessage, authors: list[str]) -> list[str]:
        try:
            # A fact forgotten a moment ago must already be gone from its user's profile line.
            await self.profile_updater.settle_forgets()
            found = await self.profiles.get_many(last.platform, last.workspace_id, authors, self.agent_id)
        except Exception:
            log.warning("profiles unavailable for the prompt", exc_info=True)
            return []
        if last.is_dm:
            # A DM is the one place a user's private profile facts may be shown, and only their
            # own; with what they said about themselves in the platform's other workspaces.
            try:
                own = await self.profiles.in_own_dm(audience_of(last, self.agent_id))
            except Exception:
                log.warning("profile unavailable for the prompt", exc_info=True)
                own = None
            if own is not None:
                found[last.author_id] = own
        return [
            line
            for user in authors
            if (line := compact(found.get(user), include_private=last.is_dm and user == last.author_id))
        ]

    async def _complete(
        self, llm: LLMProvider, system: str, history: list[ChatMessage], toolbox: MemoryToolbox
    ) -> str:
        """The tool loop: up to `max_tool_rounds` rounds of tool calls, then the model must answer."""
        messages = list(history)
        rounds = self.settings.llm.max_tool_rounds
        for round_number in range(rounds + 2):
            response = await llm.complete(system, messages, MEMORY_TOOLS if rounds else ())
            if not response.tool_calls:
                return response.text
            if round_number >= rounds:
                if round_number == rounds + 1 or response.text.strip():
                    return response.text
                # One last call in which every tool answers "limit reached", so the model replies.
                messages.append(response.as_message())
                messages.extend(
                    ChatMessage(role="tool", content=_TOOL_LIMIT_RESULT, tool_call_id=c.id, name=c.name)
                    for c in response.tool_calls
                )
                continue
            messages.append(response.as_message())
            for call in response.tool_calls:
                outcome = await toolbox.call(call)
                messages.append(
                    ChatMessage(role="tool", content=outcome, tool_call_id=call.id, name=call.name)
                )
        return ""

    def _record_stored(
        self, key: ChannelKey, toolbox: MemoryToolbox, hook: PrehookResult, result: TurnResult
    ) -> None:
        """Memories the model wrote itself are in its context: the hook must not repeat them."""
        written = [r for r in toolbox.stored if r.action in ("inserted", "superseded")]
        result.remembered = [r.memory for r in written]
        self.prehook.mark_shown(key, written, hook.turn)

    # --- offline ------------------------------------------------------------------------------

    async def _answer_offline(
        self,
        key: ChannelKey,
        speaking: list[tuple[IncomingMessage, StoredMessage]],
        result: TurnResult,
        learned: Sequence[WriteResult],
    ) -> None:
        """The same recall as with a model (the pre-hook, its channel state included), shown to people."""
        last = speaking[-1][0]
        self.prehook.mark_shown(key, learned)
        batch_ids = [row.id for _, row in speaking]
        try:
            participants, window_rows = await self._context_of(speaking)
            request = self._prehook_request(speaking, participants, {m.id for m in window_rows})
            result.prehook = await self.prehook.run(request)
        except Exception:  # recall failing (storage down) still leaves what was learned to say
            log.warning("offline recall failed", exc_info=True)
        result.reply = offline_reply(result.learned, result.prehook, self.engine.clock(), self.tz)
        # In the transcript, but never recalled: it only repeats what memory holds.
        await self._store_reply(last, result.reply, searchable=False)
        # The offline reply is boilerplate: only what the users said is worth summarizing.
        self._after_reply(key, scope_of(last, self.agent_id), batch_ids, speaking, None)

    # --- background and storage ---------------------------------------------------------------

    def _schedule_maintenance(self) -> None:
        """Vector compaction runs in the background, one at a time, never on the reply path."""
        if self.engine.needs_maintenance and (self._maintenance is None or self._maintenance.done()):
            self._maintenance = asyncio.create_task(self._maintain())

    async def _maintain(self) -> None:
        try:
            await self.engine.maintain()
        except Exception:  # compaction failing must not take the bot down
            log.warning("vector maintenance failed", exc_info=True)

    async def aclose(self) -> None:
        """Wait for background work to finish before the stores close."""
        await self.profile_updater.aclose()
        await self.idle()
        if self._maintenance is not None:
            await self._maintenance
        await self.prehook.aclose()

    async def idle(self) -> None:
        """Wait until the background summaries queued so far are written (tests, benchmarks)."""
        while self._background:
            await asyncio.gather(*list(self._background), return_exceptions=True)

    async def _store_reply(
        self,
        to: IncomingMessage,
        text: str,
        tool_calls: Sequence[dict[str, object]] = (),
        searchable: bool = True,
    ) -> str | None:
        """Store the bot's reply; its id, or None when storage refused it (the reply still goes out)."""
        reply = StoredMessage(
            id=uuid.uuid4().hex,
            platform=to.platform,
            workspace_id=to.workspace_id,
            channel_id=to.channel_id,
            thread_id=to.thread_id,
            agent_id=self.agent_id,
            author_id=BOT_NAME,
            author_name=BOT_NAME,
            role="assistant",
            content=text[:MAX_MESSAGE_CHARS],
            created_at=max(self.engine.clock(), to.timestamp),
            visibility=visibility_of(to),
            tool_calls=list(tool_calls),
        )
        try:
            await self.engine.store_messages([reply], searchable=searchable)
        except StorageError as exc:
            # The user's message is stored; losing the reply's transcript row beats withholding it.
            log.error("reply not stored", extra={"platform": to.platform, "error": str(exc)})
            return None
        return reply.id
