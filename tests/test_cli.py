"""The `memorybot` command line end to end, as a user runs it (subprocess, real stores and model).

Each `memorybot` process that stores or recalls loads the real model: those tests are marked `model`."""

from __future__ import annotations

import asyncio
import itertools
import json
import subprocess
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import pytest

from bot.offline import NO_MODEL_LINE
from memory.embedders import CachedEmbedder, LocalEmbedder
from memory.engine import MemoryEngine
from memory.models import MemoryDraft, Scope
from memory.turn_text import message_embed_text
from tests.helpers import ROOT, child_env, past_turn


def run(
    args: list[str], data_dir: Path, stdin: str = "", cwd: Path | None = None
) -> subprocess.CompletedProcess[str]:
    env = child_env(MEMORYBOT_DATA_DIR=str(data_dir), LLM_PROVIDER="offline")
    return subprocess.run(
        [sys.executable, "-m", "bot", *args],
        input=stdin,
        capture_output=True,
        text=True,
        env=env,
        cwd=cwd or ROOT,
        timeout=300,
    )


@pytest.fixture
def data_dir(tmp_path: Path) -> Path:
    return tmp_path / "data"


@asynccontextmanager
async def opened(data_dir: Path, embedder: LocalEmbedder) -> AsyncIterator[MemoryEngine]:
    """The store at `data_dir`, opened here with the model the CLI uses and closed on the way out
    (before the CLI opens it)."""
    engine = await MemoryEngine.open(data_dir, CachedEmbedder(embedder))
    try:
        yield engine
    finally:
        await engine.close()


def active(data_dir: Path) -> list[dict[str, object]]:
    result = run(["memories", "list", "--json"], data_dir)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


@pytest.mark.model
def test_chat_recalls_a_fact_from_an_earlier_run(data_dir: Path) -> None:
    first = run(["chat", "--user", "Mickael"], data_dir, stdin="I broke my shoulder on 10 January\n")
    assert first.returncode == 0, first.stderr
    assert "No language model is configured" in first.stdout
    second = run(["chat", "--user", "Mickael"], data_dir, stdin="What happened to my shoulder?\n")
    assert second.returncode == 0, second.stderr
    assert "shoulder" in second.stdout.split("What I remember", 1)[1]
    assert "10 January" in second.stdout


@pytest.mark.model
def test_chat_handles_many_lines_and_blank_ones(data_dir: Path) -> None:
    lines = "my name is Sofia\n\n   \nI prefer tea over coffee\n/quit\nnever read\n"
    result = run(["chat", "--user", "sofia"], data_dir, stdin=lines)
    assert result.returncode == 0, result.stderr
    assert result.stdout.count("offline responder") == 2  # blank lines are skipped, /quit stops
    contents = [m["content"] for m in active(data_dir)]
    assert any("tea" in str(c) for c in contents)


@pytest.mark.model
def test_add_shoulder_pair_leaves_one_dated_memory(data_dir: Path) -> None:
    for text in ("Mickael broke his shoulder", "Mickael broke his shoulder on 10 January 2026"):
        assert run(["memories", "add", text, "--user", "mickael"], data_dir).returncode == 0
    rows = active(data_dir)
    assert [r["content"] for r in rows] == ["Mickael broke his shoulder on 10 January 2026"]
    for key in ("id", "content", "memory_type", "subjects", "importance", "created_at", "expires_at"):
        assert key in rows[0]


@pytest.mark.model
def test_add_paris_and_son_leaves_two(data_dir: Path) -> None:
    for text in ("David lives in Paris", "David has a son"):
        result = run(["memories", "add", text, "--json"], data_dir)
        assert json.loads(result.stdout)["action"] == "inserted"
    assert sorted(r["content"] for r in active(data_dir)) == ["David has a son", "David lives in Paris"]


@pytest.mark.model
def test_add_ttl_search_forget_export(data_dir: Path, tmp_path: Path) -> None:
    added = run(
        [
            "memories",
            "add",
            "Standup is at 9:30 this week",
            "--ttl",
            "7d",
            "--subjects",
            "standup",
            "--type",
            "event",
            "--json",
        ],
        data_dir,
    )
    memory = json.loads(added.stdout)["memory"]
    assert memory["expires_at"] is not None and memory["subjects"] == ["standup"]
    bad = run(["memories", "add", "Something", "--ttl", "next week"], data_dir)
    assert bad.returncode == 2 and "invalid TTL" in bad.stderr
    found = json.loads(run(["memories", "search", "when is the standup?", "--json"], data_dir).stdout)
    assert found[0]["id"] == memory["id"]
    out = tmp_path / "export.json"
    assert run(["memories", "export", "--out", str(out)], data_dir).returncode == 0
    assert [m["id"] for m in json.loads(out.read_text())] == [memory["id"]]
    assert run(["memories", "forget", memory["id"]], data_dir).returncode == 0
    assert active(data_dir) == []
    missing = run(["memories", "forget", memory["id"]], data_dir)
    assert missing.returncode == 1 and "no memory" in missing.stderr


def test_invalid_setting_fails_at_start_naming_it(data_dir: Path, tmp_path: Path) -> None:
    (tmp_path / ".env").write_text("PREHOOK_MAX_INJECTION_COUNT=many\n")
    result = run(["memories", "list"], data_dir, cwd=tmp_path)
    assert result.returncode == 2
    assert "PREHOOK_MAX_INJECTION_COUNT" in result.stderr


def test_run_without_platforms_names_the_variables(data_dir: Path) -> None:
    result = run(["run"], data_dir)  # stdin is not a terminal: no chat, just the guidance
    assert result.returncode == 2
    assert "DISCORD_TOKEN" in result.stderr and "SLACK_BOT_TOKEN" in result.stderr


def test_a_command_without_a_model_never_imports_the_model_sdks(data_dir: Path) -> None:
    """The anthropic and openai SDKs cost over a second to import: only a configured provider
    loads its own. LanceDB's REST client API, as long again, loads for no local store."""
    script = (
        "import sys\n"
        "from bot.cli import main\n"
        "code = main(['memories', 'list', '--json'])\n"
        "assert 'lancedb' in sys.modules  # the command opened the embedded store\n"
        "print(sorted(m for m in sys.modules if m.startswith('lance_namespace_urllib3_client.api')))\n"
        "print(sorted(m for m in ('anthropic', 'openai') if m in sys.modules))\n"
        "sys.exit(code)\n"
    )
    env = child_env(MEMORYBOT_DATA_DIR=str(data_dir), LLM_PROVIDER="offline")
    result = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, env=env, cwd=ROOT, timeout=300
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[-2:] == ["[]", "[]"]


@pytest.mark.model
def test_chat_runs_memory_commands_from_the_shared_table(data_dir: Path) -> None:
    lines = "I prefer tea over coffee\n/memory list\n/memory search tea\n/memory frobnicate\n"
    result = run(["chat", "--user", "sofia"], data_dir, stdin=lines)
    assert result.returncode == 0, result.stderr
    listing = result.stdout.split("offline responder", 1)[1]
    assert "[preference] sofia prefers tea over coffee" in listing
    assert "Error: unknown command 'frobnicate'" in result.stdout
    (memory,) = active(data_dir)
    forget = run(["chat", "--user", "sofia"], data_dir, stdin=f"/memory forget {memory['id']}\n")
    assert forget.returncode == 0, forget.stderr
    assert active(data_dir) == []
    # Commands are not conversation: nothing from them was stored as a message or learned.
    again = run(["chat", "--user", "sofia"], data_dir, stdin="/memory list\n")
    assert "sofia prefers tea" not in again.stdout


@pytest.mark.model
def test_a_fact_from_turn_3_is_recalled_at_turn_50(data_dir: Path) -> None:
    topics = ["the weather", "a new podcast", "lunch plans", "the train delays", "a board game night"]
    turns = [
        "hello there",
        "I just got back from a long weekend",
        "My sister Ana lives in Porto and teaches chemistry",
    ]
    n = 0
    while len(turns) < 49:
        topic = topics[n % len(topics)]
        turns.append(f"Random thought number {n} about {topic}, nothing important")
        n += 1
    turns.append("Where does my sister Ana live?")
    result = run(["chat", "--user", "Mickael"], data_dir, stdin="\n".join(turns) + "\n")
    assert result.returncode == 0, result.stderr
    replies = result.stdout.split(NO_MODEL_LINE)[1:]
    assert len(replies) == 50
    assert "Porto" in replies[-1]
    # Recalled when asked, not repeated all along: the pre-hook shows a memory again only once the
    # conversation has moved on by its injection depth (20 turns).
    shown = [n for n, reply in enumerate(replies[3:-1], start=3) if "Porto" in reply]
    assert len(shown) <= 2 and all(b - a >= 20 for a, b in itertools.pairwise(shown)), shown
    # Its own boilerplate is never recalled: one offline line per reply.
    assert all(reply.count("offline responder") == 0 for reply in replies)


@pytest.mark.model
async def test_repair_visibility_narrows_recorded_and_named_conversations(
    data_dir: Path, local_embedder: LocalEmbedder
) -> None:
    """`memorybot memories repair-visibility`: a channel marked by hand, then recorded kinds re-applied."""
    async with opened(data_dir, local_embedder) as engine:
        left, kept = await engine.import_memories(
            [
                MemoryDraft(
                    "The vault code is 4242", Scope("slack", "T1", "left"), user_id="u1", author_id="u1"
                ),
                MemoryDraft(
                    "The office opens at nine", Scope("slack", "T1", "general"), user_id="u1", author_id="u1"
                ),
            ]
        )
    named = ["--platform", "slack", "--workspace", "T1", "--channel", "left"]
    command = ["memories", "repair-visibility", "--json"]
    dry = await asyncio.to_thread(run, [*command, *named, "--dry-run"], data_dir)
    assert dry.returncode == 0, dry.stderr
    assert json.loads(dry.stdout) == {
        "dry_run": True,
        "conversations": 1,
        "memories": 1,
        "messages": 0,
        "summaries": 0,
    }
    done = await asyncio.to_thread(run, [*command, *named], data_dir)
    assert json.loads(done.stdout)["memories"] == 1
    # Recorded: a plain run re-applies every recorded kind and finds nothing left to narrow.
    again = await asyncio.to_thread(run, command, data_dir)
    assert json.loads(again.stdout) == {
        "dry_run": False,
        "conversations": 1,
        "memories": 0,
        "messages": 0,
        "summaries": 0,
    }
    refused = await asyncio.to_thread(run, ["memories", "repair-visibility", "--channel", "left"], data_dir)
    assert refused.returncode == 2 and "--platform" in refused.stderr
    listed = await asyncio.to_thread(
        run, ["memories", "list", "--json", "--platform", "slack", "--workspace", "T1"], data_dir
    )
    rows = {row["id"]: row["visibility"] for row in json.loads(listed.stdout)}
    assert rows == {left.id: "channel", kept.id: "workspace"}


@pytest.mark.model
def test_the_terminal_chat_shows_the_conversation_and_logs_to_a_file(data_dir: Path) -> None:
    result = run(["chat", "--user", "Mickael"], data_dir, stdin="I love green tea\n")
    assert result.returncode == 0, result.stderr
    assert " INFO " not in result.stderr and " INFO " not in result.stdout
    log = (data_dir / "memorybot.log").read_text(encoding="utf-8")
    assert " INFO " in log and "memory stored" in log
    assert "green tea" not in log  # no message bodies at INFO, in the file either


@pytest.mark.model
def test_a_wrong_merge_is_restored_from_the_command_line(data_dir: Path) -> None:
    first = run(["memories", "add", "Mickael broke his shoulder", "--json"], data_dir)
    older = json.loads(first.stdout)["memory"]["id"]
    second = run(["memories", "add", "Mickael broke his shoulder on 10 January 2026", "--json"], data_dir)
    added = json.loads(second.stdout)
    assert added["action"] == "superseded" and added["replaced"] == older
    restored = run(["memories", "restore", older, "--json"], data_dir)
    assert restored.returncode == 0, restored.stderr
    assert json.loads(restored.stdout)["restored"]["id"] == older
    assert {m["id"] for m in active(data_dir)} == {older, added["memory"]["id"]}
    again = run(["memories", "restore", older], data_dir)
    assert again.returncode == 1 and "no merge to undo" in again.stderr


@pytest.mark.model
async def test_mask_credentials_masks_what_an_older_version_stored_once(
    data_dir: Path, local_embedder: LocalEmbedder
) -> None:
    """`memorybot memories mask-credentials`: counted by a dry run, masked, then nothing left."""
    async with opened(data_dir, local_embedder) as engine:
        turn = past_turn("the wifi password: coffee123", 1_700_000_000.0, author="alice")
        vectors = await engine.embedder.embed([message_embed_text(turn)])
        await engine.storage.turns.add([turn], list(vectors), [turn.content])  # unmasked, as before
    command = ["memories", "mask-credentials", "--json"]
    dry = await asyncio.to_thread(run, [*command, "--dry-run"], data_dir)
    assert dry.returncode == 0, dry.stderr
    assert json.loads(dry.stdout) == {"dry_run": True, "turns": 1, "summaries": 0}
    done = await asyncio.to_thread(run, command, data_dir)
    assert json.loads(done.stdout) == {"dry_run": False, "turns": 1, "summaries": 0}
    again = await asyncio.to_thread(run, ["memories", "mask-credentials"], data_dir)
    assert again.stdout == "masked credentials in 0 turns and 0 summaries\n"
    async with opened(data_dir, local_embedder) as engine:
        [stored] = await engine.storage.turns.get_unscoped([turn.id])
    assert stored.content == "the wifi password: [redacted]"
