"""Burst coalescer: debounce, max wait, urgent messages, one batch in flight, shutdown; on a fake clock."""

from __future__ import annotations

import asyncio
import heapq
import itertools
import logging
import subprocess
import sys
from collections.abc import Callable
from types import SimpleNamespace

import pytest

from adapters.base import IncomingMessage
from adapters.coalescer import (
    Coalescer,
    CoalescerClosed,
    ConversationKey,
    conversation_key,
)
from tests.helpers import ROOT


class FakeHandle:
    def __init__(self, due: float, callback: Callable[[], None]) -> None:
        self.due = due
        self.callback = callback
        self.cancelled = False

    def cancel(self) -> None:
        self.cancelled = True


class FakeScheduler:
    """Time only moves on `advance`, which fires due timers in time order (ties in arming order)."""

    def __init__(self) -> None:
        self._now = 0.0
        self._seq = itertools.count()
        self._heap: list[tuple[float, int, FakeHandle]] = []

    def now(self) -> float:
        return self._now

    def call_later(self, delay: float, callback: Callable[[], None]) -> FakeHandle:
        handle = FakeHandle(self._now + max(0.0, delay), callback)
        heapq.heappush(self._heap, (handle.due, next(self._seq), handle))
        return handle

    def advance(self, seconds: float) -> None:
        target = self._now + seconds
        while self._heap and self._heap[0][0] <= target:
            due, _, handle = heapq.heappop(self._heap)
            if handle.cancelled:
                continue
            self._now = due
            handle.callback()
        self._now = target

    @property
    def live_timers(self) -> int:
        return sum(1 for _, _, handle in self._heap if not handle.cancelled)


class Recorder:
    """A batch handler that records what it got and when; a channel with a gate waits for it."""

    def __init__(self, scheduler: FakeScheduler) -> None:
        self.scheduler = scheduler
        self.started: list[tuple[float, str, list[str]]] = []
        self.finished: list[tuple[str, list[str]]] = []
        self.gates: dict[str, asyncio.Event] = {}
        self.fail_texts: set[str] = set()
        self.cancelled: list[str] = []

    async def __call__(self, batch: list[IncomingMessage]) -> None:
        channel = batch[0].channel_id
        texts = [m.text for m in batch]
        self.started.append((self.scheduler.now(), channel, texts))
        gate = self.gates.get(channel)
        if gate is not None:
            try:
                await gate.wait()
            except asyncio.CancelledError:
                self.cancelled.append(channel)
                raise
        if self.fail_texts & set(texts):
            raise RuntimeError("handler exploded")
        self.finished.append((channel, texts))

    @property
    def batches(self) -> list[list[str]]:
        return [texts for _, _, texts in self.started]


def msg(text: str, channel: str = "c1", thread: str | None = None, **kw: bool) -> IncomingMessage:
    return IncomingMessage(
        platform="discord",
        workspace_id="guild",
        channel_id=channel,
        author_id="u1",
        author_name="Ann",
        text=text,
        thread_id=thread,
        **kw,
    )


async def settle(rounds: int = 20) -> None:
    """Let ready tasks run; sleep(0) only yields to the loop, it never waits on time."""
    for _ in range(rounds):
        await asyncio.sleep(0)


async def advance(clock: FakeScheduler, seconds: float) -> None:
    """Move the fake clock by `seconds`, then let what fell due run."""
    clock.advance(seconds)
    await settle()


@pytest.fixture
def clock() -> FakeScheduler:
    return FakeScheduler()


@pytest.fixture
def rec(clock: FakeScheduler) -> Recorder:
    return Recorder(clock)


@pytest.fixture
def co(rec: Recorder, clock: FakeScheduler) -> Coalescer:
    return Coalescer(rec, debounce=1.5, max_wait=5.0, scheduler=clock)


async def test_burst_within_debounce_is_one_batch_in_order(co, rec, clock):
    for text in ("one", "two", "three"):
        co.submit(msg(text))
        clock.advance(0.5)
    await settle()
    assert rec.batches == []
    assert co.pending_count == 3

    clock.advance(0.99)  # last message at t=1.0, quiet until 2.5
    await settle()
    assert rec.batches == []

    await advance(clock, 0.01)
    assert rec.started == [(2.5, "c1", ["one", "two", "three"])]
    assert rec.finished == [("c1", ["one", "two", "three"])]
    assert co.pending_count == 0
    assert co.in_flight == 0


async def test_each_message_restarts_the_debounce(co, rec, clock):
    co.submit(msg("a"))
    clock.advance(1.4)
    co.submit(msg("b"))
    clock.advance(1.4)  # t=2.8: 1.5 s after "a" has passed, but only 1.4 s after "b"
    await settle()
    assert rec.batches == []

    await advance(clock, 0.1)
    assert rec.started == [(2.9, "c1", ["a", "b"])]


async def test_max_wait_caps_a_steady_stream(co, rec, clock):
    # One message a second never leaves 1.5 s of quiet; max_wait (5 s) must still cut a batch.
    for i in range(8):
        co.submit(msg(f"m{i}"))
        await advance(clock, 1.0)
    assert rec.started[0] == (5.0, "c1", ["m0", "m1", "m2", "m3", "m4"])
    assert len(rec.started) == 1

    clock.advance(0.5)  # last message at t=7 → quiet at 8.5
    await settle()
    assert rec.started[1] == (8.5, "c1", ["m5", "m6", "m7"])


async def test_max_wait_counts_from_first_message_of_each_batch(rec, clock):
    co = Coalescer(rec, debounce=10.0, max_wait=2.0, scheduler=clock)
    co.submit(msg("a"))
    await advance(clock, 2.0)
    co.submit(msg("b"))
    await advance(clock, 1.9)
    assert rec.batches == [["a"]]
    await advance(clock, 0.1)
    assert rec.started[1] == (4.0, "c1", ["b"])


@pytest.mark.parametrize("flag", ["is_dm", "mentions_bot"])
async def test_dm_or_mention_dispatches_at_once_with_pending_messages(co, rec, clock, flag):
    co.submit(msg("earlier"))
    clock.advance(0.3)
    co.submit(msg("also earlier"))
    co.submit(msg("hey bot", **{flag: True}))
    await settle()
    assert rec.started == [(0.3, "c1", ["earlier", "also earlier", "hey bot"])]
    assert co.pending_count == 0
    # No stale timer fires a second, empty batch later.
    await advance(clock, 10)
    assert len(rec.started) == 1


async def test_messages_during_a_running_handler_form_the_next_batch(co, rec, clock):
    rec.gates["c1"] = asyncio.Event()
    co.submit(msg("first", mentions_bot=True))
    await settle()
    assert rec.batches == [["first"]]
    assert co.in_flight == 1

    co.submit(msg("second"))
    clock.advance(0.5)
    co.submit(msg("third"))
    clock.advance(3.0)  # past the next batch's debounce, but the first is still running
    await settle()
    assert rec.batches == [["first"]]
    assert co.pending_count == 2
    assert co.in_flight == 1

    rec.gates["c1"].set()
    await settle()
    # Its deadline passed while waiting, so it goes out right after, without another timer.
    assert rec.started[1] == (3.5, "c1", ["second", "third"])
    assert rec.finished == [("c1", ["first"]), ("c1", ["second", "third"])]
    assert co.in_flight == 0


async def test_next_batch_still_debounces_if_first_finishes_early(co, rec, clock):
    rec.gates["c1"] = asyncio.Event()
    co.submit(msg("first", mentions_bot=True))
    await settle()
    co.submit(msg("second"))
    clock.advance(0.5)
    rec.gates["c1"].set()
    await settle()
    assert rec.batches == [["first"]]

    await advance(clock, 0.99)
    assert rec.batches == [["first"]]
    await advance(clock, 0.01)
    assert rec.started[1] == (1.5, "c1", ["second"])


async def test_mention_during_a_running_handler_goes_right_after_it(co, rec, clock):
    rec.gates["c1"] = asyncio.Event()
    co.submit(msg("first", is_dm=True))
    await settle()
    co.submit(msg("plain"))
    co.submit(msg("urgent", mentions_bot=True))
    await settle()
    assert rec.batches == [["first"]]

    rec.gates["c1"].set()
    await settle()  # no clock movement needed
    assert rec.batches == [["first"], ["plain", "urgent"]]


async def test_two_channels_run_concurrently(co, rec, clock):
    rec.gates["a"] = asyncio.Event()
    co.submit(msg("in a", channel="a", mentions_bot=True))
    co.submit(msg("in b", channel="b"))
    await settle()
    assert rec.batches == [["in a"]]

    await advance(clock, 1.5)
    # b is handled to completion while a's handler is still blocked.
    assert rec.finished == [("b", ["in b"])]
    assert co.in_flight == 1

    rec.gates["b"] = asyncio.Event()
    co.submit(msg("b again", channel="b", mentions_bot=True))
    await settle()
    assert co.in_flight == 2

    rec.gates["a"].set()
    rec.gates["b"].set()
    await settle()
    assert sorted(rec.finished) == [("a", ["in a"]), ("b", ["b again"]), ("b", ["in b"])]
    assert co.in_flight == 0
    # Idle conversations are forgotten, so state stays bounded by the active ones.
    assert co._conversations == {}


async def test_handler_exception_is_logged_and_channel_keeps_working(co, rec, clock, caplog):
    rec.fail_texts = {"secret boom"}
    with caplog.at_level(logging.DEBUG, logger="adapters.coalescer"):
        co.submit(msg("secret boom", mentions_bot=True))
        await settle()
        co.submit(msg("after", mentions_bot=True))
        await settle()

    assert rec.batches == [["secret boom"], ["after"]]
    assert rec.finished == [("c1", ["after"])]
    failures = [r for r in caplog.records if r.name == "adapters.coalescer" and r.levelno >= logging.ERROR]
    assert len(failures) == 1
    record = failures[0]
    assert record.channel_id == "c1"
    assert record.platform == "discord"
    assert record.batch_size == 1
    assert record.exc_info is not None
    assert all("secret boom" not in r.getMessage() for r in caplog.records)
    assert co.in_flight == 0


async def a2_waits_behind_a1_and_b1_waits(co: Coalescer, rec: Recorder) -> None:
    """Channel a's handler is blocked on a1 with a2 queued behind it; b1 waits its debounce."""
    rec.gates["a"] = asyncio.Event()
    co.submit(msg("a1", channel="a", mentions_bot=True))
    await settle()
    co.submit(msg("a2", channel="a"))  # waits behind the running a1
    co.submit(msg("b1", channel="b"))


async def test_aclose_flushes_every_pending_batch_and_waits_for_in_flight(co, rec, clock):
    await a2_waits_behind_a1_and_b1_waits(co, rec)
    co.submit(msg("b2", channel="b"))
    co.submit(msg("c1", channel="c", thread="t"))

    closing = asyncio.create_task(co.aclose())
    await settle()
    # Pending batches went out without any clock movement; a2 still waits for a1.
    assert sorted(rec.finished) == [("b", ["b1", "b2"]), ("c", ["c1"])]
    assert not closing.done()
    assert co.pending_count == 1

    rec.gates["a"].set()
    assert await closing == []
    assert rec.finished[-2:] == [("a", ["a1"]), ("a", ["a2"])]
    delivered = [text for _, texts in rec.finished for text in texts]
    assert sorted(delivered) == ["a1", "a2", "b1", "b2", "c1"]
    assert co.pending_count == 0
    assert co.in_flight == 0
    assert clock.live_timers == 0


async def test_drain_sends_what_waits_and_waits_for_follow_ups_but_keeps_intake_open(co, rec, clock):
    await a2_waits_behind_a1_and_b1_waits(co, rec)

    draining = asyncio.create_task(co.drain())
    await settle()
    assert rec.finished == [("b", ["b1"])]  # sent without any clock movement
    assert not draining.done()
    rec.gates["a"].set()
    await draining
    assert rec.finished[-2:] == [("a", ["a1"]), ("a", ["a2"])]
    assert co.pending_count == 0 and co.in_flight == 0
    co.submit(msg("after", channel="a", mentions_bot=True))  # not closed
    await co.drain()
    assert rec.finished[-1] == ("a", ["after"])


async def test_submit_after_close_raises(co, rec):
    await co.aclose()
    assert co.closed
    with pytest.raises(CoalescerClosed):
        co.submit(msg("too late", mentions_bot=True))
    assert co.pending_count == 0
    assert rec.batches == []


async def test_submit_is_refused_as_soon_as_aclose_starts(co, rec):
    rec.gates["c1"] = asyncio.Event()
    co.submit(msg("running", mentions_bot=True))
    await settle()
    closing = asyncio.create_task(co.aclose())
    await settle()
    with pytest.raises(CoalescerClosed):
        co.submit(msg("during shutdown"))
    rec.gates["c1"].set()
    await closing
    assert rec.batches == [["running"]]


async def test_thread_id_separates_conversations(co, rec, clock):
    co.submit(msg("main"))
    co.submit(msg("in thread", thread="t1"))
    co.submit(msg("other thread", thread="t2", mentions_bot=True))
    await settle()
    # The mention in t2 only flushes t2.
    assert rec.batches == [["other thread"]]
    await advance(clock, 1.5)
    assert sorted(rec.batches) == [["in thread"], ["main"], ["other thread"]]
    assert conversation_key(msg("x", thread="t1")) == ConversationKey("discord", "guild", "c1", "t1")
    assert conversation_key(msg("x")) != conversation_key(msg("x", thread="t1"))


async def test_aclose_grace_bounds_a_handler_that_never_finishes(co, rec, clock, caplog):
    rec.gates["stuck"] = asyncio.Event()  # never set
    co.submit(msg("hang", channel="stuck", mentions_bot=True))
    co.submit(msg("fine", channel="ok"))
    await settle()
    co.submit(msg("behind the stuck one", channel="stuck"))

    with caplog.at_level(logging.WARNING, logger="adapters.coalescer"):
        closing = asyncio.create_task(co.aclose(grace=2.0))
        await settle()
        assert not closing.done()
        assert ("ok", ["fine"]) in rec.finished

        await advance(clock, 1.99)
        assert not closing.done()

        clock.advance(0.01)
        unfinished = await closing

    stuck_key = ConversationKey("discord", "guild", "stuck", None)
    assert unfinished == [stuck_key]
    await settle()
    assert co.in_flight == 0
    assert co.pending_count == 0
    assert ("stuck", ["hang"]) not in rec.finished
    assert rec.cancelled == ["stuck"]
    warnings = [r for r in caplog.records if r.levelno == logging.WARNING]
    assert len(warnings) == 1
    assert warnings[0].dropped_messages == 1
    assert warnings[0].conversations == [
        {"platform": "discord", "workspace_id": "guild", "channel_id": "stuck", "thread_id": None}
    ]
    assert all("hang" not in r.getMessage() for r in caplog.records)


async def test_aclose_with_zero_grace_returns_without_waiting(co, rec, clock):
    rec.gates["stuck"] = asyncio.Event()  # never set
    co.submit(msg("hang", channel="stuck", mentions_bot=True))
    await settle()
    unfinished = await co.aclose(grace=0)
    assert unfinished == [ConversationKey("discord", "guild", "stuck", None)]
    await settle()
    assert co.in_flight == 0
    assert rec.cancelled == ["stuck"]


async def test_aclose_with_grace_returns_empty_when_all_finish(co, rec, clock):
    co.submit(msg("quick"))
    assert await co.aclose(grace=5.0) == []
    assert rec.finished == [("c1", ["quick"])]
    assert clock.live_timers == 0


async def test_flush_dispatches_pending_now_and_keeps_accepting(co, rec, clock):
    co.submit(msg("a", channel="x"))
    co.submit(msg("b", channel="y"))
    await co.flush()
    await settle()
    assert sorted(rec.batches) == [["a"], ["b"]]
    assert co.pending_count == 0
    assert clock.live_timers == 0

    co.submit(msg("c", channel="x"))
    await advance(clock, 1.5)
    assert rec.batches[-1] == ["c"]


async def test_from_settings_reads_debounce_and_max_wait(rec, clock):
    co = Coalescer.from_settings(
        rec, SimpleNamespace(debounce_seconds=0.25, max_wait_seconds=0.75), scheduler=clock
    )
    assert (co.debounce, co.max_wait) == (0.25, 0.75)
    co.submit(msg("a"))
    await advance(clock, 0.25)
    assert rec.started == [(0.25, "c1", ["a"])]


async def test_from_settings_accepts_the_real_config_section(rec):
    from bot.config import CoalesceSettings

    co = Coalescer.from_settings(rec, CoalesceSettings(debounce_seconds=2.0, max_wait_seconds=7.0))
    assert (co.debounce, co.max_wait) == (2.0, 7.0)


def test_negative_timings_are_rejected(rec):
    with pytest.raises(ValueError):
        Coalescer(rec, debounce=-1)
    with pytest.raises(ValueError):
        Coalescer(rec, max_wait=-0.1)


async def test_default_scheduler_uses_the_running_loop():
    got: list[list[str]] = []

    async def handler(batch: list[IncomingMessage]) -> None:
        got.append([m.text for m in batch])

    # A zero debounce arms a 0 s loop timer: it fires within a few loop turns, no waiting on time.
    co = Coalescer(handler, debounce=0, max_wait=5.0)
    co.submit(msg("a"))
    co.submit(msg("b"))
    assert got == []
    await settle()
    assert got == [["a", "b"]]
    assert await co.aclose() == []


def test_adapters_do_not_import_bot():
    code = "import sys, adapters.coalescer; assert not any(m.split('.')[0] == 'bot' for m in sys.modules)"
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
