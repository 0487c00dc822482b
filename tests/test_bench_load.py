"""The load benchmark on a tiny run: report shape, nothing lost or leaked, a leak detector that can fail."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bench.load import LoadOptions, run_load
from bench.load_model import Origin, injection_leaks, marker_leaks
from bot.cli import main
from bot.config import Settings
from memory.embedders import CachedEmbedder
from memory.models import (
    Audience,
    MemoryType,
    Scope,
    Summary,
    SummaryKind,
    Visibility,
)
from memory.prehook import PrehookResult
from tests.fakes.embedders import HashEmbedder
from tests.helpers import memory_row, past_turn

KEYS = {
    "throughput_msgs_per_s",
    "overhead_ms",
    "messages_lost",
    "cross_channel_leaks",
    "rss_mb",
    "model_calls_per_reply",
    "backend",
    "processes",
    "per_process",
}

GUILD_0 = Origin("discord", "guild-0", "C0000", "alice", Visibility.WORKSPACE)
GUILD_1 = Origin("discord", "guild-1", "C0001", "alice", Visibility.WORKSPACE)
SAME_GUILD_OTHER_CHANNEL = Origin("discord", "guild-0", "C0004", "bob", Visibility.WORKSPACE)
BOBS_SLACK_DM = Origin("slack", "T0001", "D0009", "bob", Visibility.PRIVATE)
ALICES_SLACK_DM = Origin("slack", "T0001", "D0008", "alice", Visibility.PRIVATE)
ORIGINS = {
    "code-0000-000001": GUILD_0,
    "code-0001-000002": GUILD_1,
    "code-0004-000003": SAME_GUILD_OTHER_CHANNEL,
    "code-0009-000004": BOBS_SLACK_DM,
    "code-0008-000005": ALICES_SLACK_DM,
}


def _check_shape(report: dict[str, object]) -> None:
    assert set(report) == KEYS
    assert isinstance(report["throughput_msgs_per_s"], float) and report["throughput_msgs_per_s"] > 0
    overhead = report["overhead_ms"]
    assert isinstance(overhead, dict) and set(overhead) == {"p50", "p95", "p99"}
    assert 0 <= overhead["p50"] <= overhead["p95"] <= overhead["p99"]
    assert isinstance(report["rss_mb"], float) and report["rss_mb"] > 0
    assert report["messages_lost"] == 0
    assert report["cross_channel_leaks"] == 0
    calls = report["model_calls_per_reply"]
    assert isinstance(calls, dict) and set(calls) == {"reply", "background"}
    # Every reply took at least its own call (more with a tool round), its summaries almost none.
    assert calls["reply"] >= 1.0 and 0 <= calls["background"] <= 0.25


async def test_a_small_load_run_loses_and_leaks_nothing(tmp_path: Path) -> None:
    # Two channels of one Discord guild, a Slack channel and a Slack DM in the same team: what may be
    # shared (the guild's channels) and what may not (the DM, the other workspace) sit side by side.
    # No model delay, no pauses.
    options = LoadOptions(channels=4, messages=24, workspaces=2, model_delay_ms=0, think=0, out=tmp_path)

    report = await run_load(options, CachedEmbedder(HashEmbedder()), Settings.load(env_file=None))

    _check_shape(report)
    assert isinstance(report["messages_lost"], int) and isinstance(report["cross_channel_leaks"], int)
    assert json.loads((tmp_path / "load.json").read_text(encoding="utf-8")) == report


def test_marker_leaks_flags_other_workspaces_and_other_peoples_dms() -> None:
    channel = Audience("discord", "guild-0", "default", viewer_id="alice", channel_id="C0000")
    seen = "history: code-0000-000001, a note from code-0004-000003 and one from code-0001-000002"
    # Another channel of the same workspace is fine; another workspace is not.
    assert marker_leaks(seen, channel, ORIGINS, "default") == ["code-0001-000002"]

    slack_channel = Audience("slack", "T0001", "default", viewer_id="alice", channel_id="C0005")
    assert marker_leaks("code-0009-000004 code-0008-000005", slack_channel, ORIGINS, "default") == [
        "code-0008-000005",
        "code-0009-000004",
    ]
    alices_dm = Audience("slack", "T0001", "default", viewer_id="alice", channel_id="D0008", private_ok=True)
    assert marker_leaks("code-0009-000004 code-0008-000005", alices_dm, ORIGINS, "default") == [
        "code-0009-000004"
    ]
    # A marker clipped by a summary is no marker at all, so it cannot be mistaken for another one.
    assert marker_leaks("code-0001-00000", channel, ORIGINS, "default") == []
    assert marker_leaks("code-0001-000002", channel, ORIGINS, "other-agent") == ["code-0001-000002"]


def test_injection_leaks_counts_items_the_conversation_may_not_see() -> None:
    channel = Audience("discord", "guild-0", "default", viewer_id="alice", channel_id="C0000")
    elsewhere = memory_row(
        "Alice prefers tea",
        id="m-other-guild",
        memory_type=MemoryType.PREFERENCE,
        scope=Scope("discord", "guild-1", "C0001"),
        user_id="alice",
        visibility=Visibility.WORKSPACE,
    )
    here = past_turn("the deploy is on Friday", 1.0, "bob", "C0004", workspace="guild-0", id="t-here")
    private_summary = Summary(
        id="s-private",
        scope=Scope("discord", "guild-0", "D0009"),
        level=1,
        kind=SummaryKind.TURNS,
        content="Bob talked about his health",
        covers_from=1.0,
        covers_to=2.0,
        visibility=Visibility.PRIVATE,
        author_id="bob",
    )

    assert injection_leaks(PrehookResult(injected_messages=[here]), channel) == []
    hook = PrehookResult(injected=[elsewhere], injected_messages=[here], injected_summaries=[private_summary])
    assert injection_leaks(hook, channel) == ["m-other-guild", "s-private"]
    assert injection_leaks(None, channel) == []


def test_the_cli_runs_a_tiny_load(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    # The hash embedder instead of the model the CLI would load.
    monkeypatch.setattr("bot.app.build_embedder", lambda settings: CachedEmbedder(HashEmbedder()))
    out = tmp_path / "results"

    code = main(
        ["bench", "load", "--channels", "2", "--messages", "10", "--out", str(out), "--model-delay-ms", "0"]
    )

    assert code == 0
    report = json.loads(capsys.readouterr().out)
    _check_shape(report)
    assert json.loads((out / "load.json").read_text(encoding="utf-8")) == report


def test_options_refuse_sizes_the_markers_cannot_hold() -> None:
    with pytest.raises(ValueError, match="channels"):
        LoadOptions(channels=10_000).check()
    with pytest.raises(ValueError, match="model_delay_ms"):
        LoadOptions(model_delay_ms=-1).check()
