"""The `memorybot` command line: run, chat, and manage memories on the embedded default."""

from __future__ import annotations

import argparse
import asyncio
import getpass
import json
import os
import sys
from collections.abc import Awaitable, Callable, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from adapters.command_render import render_text
from adapters.command_table import Invoker, error_result, parse_command
from adapters.console import CONSOLE_CHANNEL, CONSOLE_PLATFORM, CONSOLE_WORKSPACE, run_console
from memory.errors import CommandError, ConfigError, MemorybotError
from memory.models import (
    Audience,
    Conversation,
    ConversationKind,
    Memory,
    MemoryDraft,
    MemoryType,
    Scope,
    Source,
    Visibility,
)
from memory.storage import MemoryQuery

from .app import App
from .commands import MemoryCommands
from .config import Settings
from .logs import setup_logging
from .process import limit_blas_threads


def _default_user() -> str:
    try:
        return getpass.getuser()
    except Exception:
        return "you"


def _add_common(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--data-dir", help="where the SQLite file and LanceDB live (MEMORYBOT_DATA_DIR)")


def _add_scope(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--platform", default=CONSOLE_PLATFORM, help="platform of the workspace (default console)"
    )
    parser.add_argument(
        "--workspace", default=CONSOLE_WORKSPACE, help="workspace id (default: the local one)"
    )


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="memorybot", description="A chat bot with long-term memory.")
    sub = parser.add_subparsers(dest="command")

    run = sub.add_parser("run", help="start every configured platform adapter (the main job)")
    _add_common(run)

    chat = sub.add_parser("chat", help="chat in the terminal (one message per line; works piped)")
    chat.add_argument("--user", default=None, help="your name in the chat (default: your login)")
    _add_common(chat)

    mem = sub.add_parser("memories", help="add, list, search, forget and export memories")
    msub = mem.add_subparsers(dest="action", required=True)

    def action(name: str, with_json: bool = True, **kw: Any) -> argparse.ArgumentParser:
        """A `memories` subcommand; each one reads a scope and the data dir, most can print JSON."""
        parser = msub.add_parser(name, **kw)
        if with_json:
            parser.add_argument("--json", action="store_true")
        _add_scope(parser)
        _add_common(parser)
        return parser

    add = action("add", help="remember something")
    add.add_argument("content")
    add.add_argument("--user", default=None, help="who the memory is about")
    add.add_argument("--subjects", default="", help="comma-separated tags")
    add.add_argument("--ttl", default=None, help="expire after e.g. 1h, 7d, 30d (default: permanent)")
    add.add_argument("--type", default="fact", choices=[t.value for t in MemoryType])

    lst = action("list", help="list memories, newest first")
    lst.add_argument("--type", default=None, choices=[t.value for t in MemoryType])
    lst.add_argument("--user", default=None, help="only memories about this user")
    lst.add_argument("--subjects", default="", help="only memories with one of these comma-separated tags")
    lst.add_argument("--limit", type=int, default=50)

    search = action("search", help="semantic + full-text search")
    search.add_argument("query")
    search.add_argument("--limit", type=int, default=10)

    action("forget", help="delete a memory from both stores").add_argument("id")
    action(
        "restore", help="undo a merge: bring back the older note (ID: it, or the memory that replaced it)"
    ).add_argument("id")

    export = action("export", with_json=False, help="every memory as a JSON array")
    export.add_argument("--user", default=None, help="only memories about this user")
    export.add_argument("--out", default=None, help="write to this file instead of stdout")

    repair = msub.add_parser(
        "repair-visibility",
        help="narrow what older versions stored in private channels, group DMs and private threads",
        description=(
            "Rows stored before the bot knew a conversation was members-only (a private channel, a "
            "group DM, a private thread, a Discord channel hidden from @everyone) were readable "
            "across their workspace. A running bot narrows them by itself as it learns each "
            "conversation's kind; this re-applies every kind it recorded, and with --channel "
            "marks a conversation the bot can no longer see (e.g. a private channel it has left)."
        ),
    )
    repair.add_argument("--dry-run", action="store_true", help="count what would be narrowed; change nothing")
    repair.add_argument("--platform", default=None, help="with --channel: discord or slack")
    repair.add_argument("--workspace", default=None, help="with --channel: the guild or team id")
    repair.add_argument("--channel", default=None, help="a members-only conversation the bot no longer sees")
    repair.add_argument(
        "--kind",
        default=ConversationKind.PRIVATE.value,
        choices=[ConversationKind.PRIVATE.value, ConversationKind.GROUP.value],
        help="what --channel is (default private)",
    )
    repair.add_argument("--json", action="store_true")
    _add_common(repair)

    mask = msub.add_parser(
        "mask-credentials",
        help="mask the passwords, keys and card numbers older versions kept in stored turns and summaries",
        description=(
            "Turns are stored with a credential's value as [redacted] (a password given with its "
            "value, a key or token, a card or social security number). Turns and summaries stored "
            "by older versions still hold what was typed: this rewrites them masked and indexes them "
            "again. Run it once after upgrading; a second run finds nothing."
        ),
    )
    mask.add_argument("--dry-run", action="store_true", help="count what would be masked; change nothing")
    mask.add_argument("--json", action="store_true")
    _add_common(mask)

    migrate = sub.add_parser(
        "migrate",
        help="copy the embedded data directory into PostgreSQL (vectors as stored, resumable)",
        description=(
            "Copy every memory, turn, summary, profile, alias and conversation kind of the data "
            "directory into a PostgreSQL database with pgvector, each with its stored vector (nothing "
            "is embedded again). The data directory is not changed. Rows already in the database "
            "are skipped, so running it again after an interruption finishes the job. At the end "
            "the rows per table are counted on both sides; a difference exits non-zero."
        ),
    )
    migrate.add_argument("--to", required=True, metavar="URL", help="the target: a postgresql:// URL")
    migrate.add_argument("--batch-size", type=int, default=500, help="rows per committed batch (default 500)")
    migrate.add_argument("--json", action="store_true", help="print the counts as JSON")
    _add_common(migrate)

    from bench.cli import add_bench_parser

    add_bench_parser(sub)

    discord_cmd = sub.add_parser("discord", help="Discord application tasks")
    dsub = discord_cmd.add_subparsers(dest="action", required=True)
    sync = dsub.add_parser("sync", help="register the /memory slash command with Discord")
    sync.add_argument("--guild", type=int, default=None, help="server id: instant there (default: global)")
    _add_common(sync)
    return parser


def _settings(args: argparse.Namespace) -> Settings:
    overrides: dict[str, dict[str, Any]] = {}
    if getattr(args, "data_dir", None):
        overrides["storage"] = {"data_dir": args.data_dir}
    return Settings.load(**overrides)


def _operator_audience(args: argparse.Namespace, settings: Settings) -> Audience:
    """The CLI operator administers one workspace: every non-private memory of it."""
    return Audience(args.platform, args.workspace, settings.storage.agent_id, operator=True)


def _fmt_time(ts: float | None) -> str:
    return "-" if ts is None else datetime.fromtimestamp(ts, UTC).strftime("%Y-%m-%d %H:%M")


def _line(memory: Memory) -> str:
    tags = f" [{', '.join(memory.subjects)}]" if memory.subjects else ""
    expiry = f" (expires {_fmt_time(memory.expires_at)})" if memory.expires_at else ""
    return f"{memory.id}  {memory.memory_type.value:<11} {memory.content}{tags}{expiry}"


def _subjects(raw: str) -> list[str]:
    return [s.strip() for s in raw.split(",") if s.strip()]


async def _repair_visibility(args: argparse.Namespace, app: App) -> int:
    kinds = app.pipeline.conversations
    named: Conversation | None = None
    if args.channel is not None:
        if not args.platform or not args.workspace:
            sys.stderr.write("--channel needs --platform and --workspace\n")
            return 2
        named = Conversation(args.platform, args.workspace, args.channel, ConversationKind(args.kind))
    elif args.platform or args.workspace:
        sys.stderr.write("--platform and --workspace go with --channel\n")
        return 2
    conversations = [c for c in await kinds.recorded() if c.members_only]
    if named is not None:
        conversations = [c for c in conversations if c.key != named.key] + [named]
    report = await kinds.repair(conversations, dry_run=args.dry_run)
    if named is not None and not args.dry_run:
        await kinds.observe(named)  # recorded, so the bot treats it as members-only from now on
    if args.json:
        sys.stdout.write(json.dumps({"dry_run": args.dry_run, **report.to_dict()}) + "\n")
    else:
        verb = "would narrow" if args.dry_run else "narrowed"
        sys.stdout.write(
            f"{verb} {report.memories} memories, {report.messages} turns and {report.summaries} summaries "
            f"in {report.conversations} private conversations\n"
        )
    return 0


async def _mask_credentials(args: argparse.Namespace, app: App) -> int:
    report = await app.engine.mask_stored_credentials(dry_run=args.dry_run)
    if args.json:
        sys.stdout.write(json.dumps({"dry_run": args.dry_run, **report.to_dict()}) + "\n")
    else:
        verb = "would mask" if args.dry_run else "masked"
        sys.stdout.write(f"{verb} credentials in {report.turns} turns and {report.summaries} summaries\n")
    return 0


async def _memories(args: argparse.Namespace, settings: Settings) -> int:
    app = await App.start(settings, with_llm=False, warm=False)
    out = sys.stdout
    try:
        if args.action == "repair-visibility":
            return await _repair_visibility(args, app)
        if args.action == "mask-credentials":
            return await _mask_credentials(args, app)
        engine = app.engine
        audience = _operator_audience(args, settings)
        if args.action == "add":
            user = args.user.casefold() if args.user else None
            draft = MemoryDraft(
                content=args.content,
                scope=Scope(args.platform, args.workspace, CONSOLE_CHANNEL, settings.storage.agent_id),
                memory_type=MemoryType(args.type),
                subjects=_subjects(args.subjects) + ([user] if user else []),
                ttl=args.ttl,
                source=Source.NOTE,
                user_id=user,
                author_id=user,
                visibility=Visibility.WORKSPACE,
            )
            result = await engine.remember(draft)
            if args.json:
                payload = {"action": result.action, "memory": result.memory.to_public_dict()}
                if result.replaced is not None:
                    payload["replaced"] = result.replaced.id
                out.write(json.dumps(payload, ensure_ascii=False) + "\n")
            else:
                note = f" (supersedes {result.replaced.id})" if result.replaced else ""
                out.write(f"{result.action}: {_line(result.memory)}{note}\n")
        elif args.action == "list":
            query = MemoryQuery(
                types=[MemoryType(args.type)] if args.type else None,
                user_ids=[args.user.casefold()] if args.user else None,
                subjects=_subjects(args.subjects) or None,
                limit=max(1, args.limit),
            )
            rows = await engine.list_memories(audience, query)
            if args.json:
                out.write(json.dumps([m.to_public_dict() for m in rows], ensure_ascii=False, indent=2) + "\n")
            else:
                out.writelines(_line(m) + "\n" for m in rows)
                if not rows:
                    out.write("no memories\n")
        elif args.action == "search":
            hits = await engine.search(
                args.query, audience, limit=max(1, args.limit), threshold=settings.memory.search_threshold
            )
            if args.json:
                payload = [{**h.memory.to_public_dict(), "score": round(h.score, 4)} for h in hits]
                out.write(json.dumps(payload, ensure_ascii=False, indent=2) + "\n")
            else:
                out.writelines(f"{h.score:.2f}  {_line(h.memory)}\n" for h in hits)
                if not hits:
                    out.write("nothing found\n")
        elif args.action == "forget":
            forgotten = await engine.forget(args.id, audience)
            if args.json:
                out.write(json.dumps({"forgotten": forgotten is not None, "id": args.id}) + "\n")
            if forgotten is None:
                sys.stderr.write(f"no memory with id {args.id!r} in this workspace\n")
                return 1
            if not args.json:
                out.write(f"forgotten: {_line(forgotten)}\n")
        elif args.action == "restore":
            newer = await engine.merge_of(args.id, audience)
            try:
                restored = await engine.undo_supersede(newer.id) if newer is not None else None
            except KeyError:
                restored = None
            if restored is None:
                sys.stderr.write(f"no merge to undo for {args.id!r} in this workspace\n")
                return 1
            assert newer is not None  # restored only through it
            if args.json:
                out.write(json.dumps({"restored": restored.to_public_dict(), "kept": newer.id}) + "\n")
            else:
                out.write(f"restored: {_line(restored)} (kept {newer.id})\n")
        elif args.action == "export":
            rows = []
            offset = 0
            while True:
                page = await engine.list_memories(
                    audience,
                    MemoryQuery(
                        user_ids=[args.user.casefold()] if args.user else None, limit=500, offset=offset
                    ),
                )
                rows.extend(page)
                offset += len(page)
                if len(page) < 500:
                    break
            text = json.dumps([m.to_public_dict() for m in rows], ensure_ascii=False, indent=2) + "\n"
            if args.out:
                await asyncio.to_thread(Path(args.out).write_text, text, encoding="utf-8")
                sys.stderr.write(f"exported {len(rows)} memories to {args.out}\n")
            else:
                out.write(text)
        return 0
    finally:
        await app.close()


def console_commands(app: App, user: str) -> Callable[[str], Awaitable[str]]:
    """`/memory ...` lines at the terminal, run through the same command table as Discord and Slack."""
    runner = MemoryCommands(
        app.engine, app.settings.storage.agent_id, search_threshold=app.settings.memory.search_threshold
    )
    invoker = Invoker(CONSOLE_PLATFORM, CONSOLE_WORKSPACE, CONSOLE_CHANNEL, user_id=user.casefold())

    async def run(line: str) -> str:
        try:
            parsed = parse_command(line)
        except CommandError as exc:
            return render_text(error_result(exc))
        result = await runner.execute(parsed.name, parsed.args, invoker, parsed.page)
        return render_text(result)

    return run


async def _chat(args: argparse.Namespace, settings: Settings) -> int:
    app = await App.start(settings)
    try:
        user = args.user or _default_user()

        async def handle(batch: list) -> str | None:  # type: ignore[type-arg]
            return (await app.pipeline.handle(batch)).reply

        await run_console(handle, user, commands=console_commands(app, user))
        return 0
    finally:
        await app.close()


async def _bench(args: argparse.Namespace, settings: Settings) -> int:
    from bench.cli import run_bench

    return await run_bench(args, settings)


async def _discord(args: argparse.Namespace, settings: Settings) -> int:
    """`memorybot discord sync`: commands are registered on request only, never at every start."""
    import discord

    from adapters.discord import sync_commands

    if settings.discord.token is None:
        sys.stderr.write("memorybot: set DISCORD_TOKEN to sync the Discord commands\n")
        return 2
    try:
        names = await sync_commands(settings.discord.token.get_secret_value(), args.guild)
    except discord.LoginFailure:
        sys.stderr.write("memorybot: Discord refused DISCORD_TOKEN (invalid token)\n")
        return 2
    except (discord.HTTPException, OSError) as exc:
        sys.stderr.write(f"memorybot: Discord command sync failed: {type(exc).__name__}\n")
        return 1
    where = f"server {args.guild}" if args.guild else "all servers (may take up to an hour to appear)"
    sys.stdout.write(f"synced {len(names)} commands to {where}:\n")
    sys.stdout.writelines(f"  /{name}\n" for name in names)
    return 0


async def _run(args: argparse.Namespace, settings: Settings) -> int:
    discord_set = settings.discord.token is not None
    slack_set = settings.slack.bot_token is not None
    if not (discord_set or slack_set):
        sys.stderr.write(
            "No platform is configured: set DISCORD_TOKEN for Discord, or SLACK_BOT_TOKEN with "
            "SLACK_APP_TOKEN (Socket Mode) or SLACK_SIGNING_SECRET (HTTP) for Slack.\n"
        )
        if sys.stdin.isatty():
            log_file = _log_to_file(settings)
            sys.stderr.write(f"Starting the local chat instead (the log goes to {log_file}).\n")
            args.user = None
            return await _chat(args, settings)
        return 2
    from .runner import run_platforms

    return await run_platforms(settings)


async def _migrate(args: argparse.Namespace, settings: Settings) -> int:
    """`memorybot migrate --to postgresql://…`: the embedded data directory into PostgreSQL."""
    from memory.storage.migrate import migrate_to_postgres

    report = await migrate_to_postgres(settings.storage.data_dir, args.to, batch_size=args.batch_size)
    if args.json:
        sys.stdout.write(json.dumps(report.as_dict(), indent=2) + "\n")
    else:
        sys.stdout.write(f"{'table':<20} {'source':>8} {'target':>8} {'copied':>8}\n")
        for table, row in report.as_dict()["tables"].items():  # type: ignore[union-attr]
            sys.stdout.write(f"{table:<20} {row['source']:>8} {row['target']:>8} {row['copied']:>8}\n")
    if not report.ok:
        sys.stderr.write(
            "memorybot: counts differ after the migration: " + "; ".join(report.mismatches) + "\n"
        )
        return 1
    return 0


def _log_to_file(settings: Settings) -> Path:
    """The terminal chat shows the conversation: the log goes to a file in the data directory."""
    log_file = Path(settings.storage.data_dir) / "memorybot.log"
    setup_logging(settings.server.log_level, settings.server.log_format, log_file=log_file)
    return log_file


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        args.command = "run"
        args.data_dir = None
    try:
        settings = _settings(args)
    except ConfigError as exc:
        sys.stderr.write(f"memorybot: {exc}\n")
        return 2
    level = settings.server.log_level
    if args.command in ("memories", "bench", "migrate") and "LOG_LEVEL" not in os.environ:
        level = "WARNING"  # a terminal session stays readable unless logs are asked for
    if args.command == "chat":
        _log_to_file(settings)
    else:
        setup_logging(level, settings.server.log_format)
    limit_blas_threads()
    runners = {
        "run": _run,
        "chat": _chat,
        "memories": _memories,
        "discord": _discord,
        "bench": _bench,
        "migrate": _migrate,
    }
    try:
        return asyncio.run(runners[args.command](args, settings))
    except MemorybotError as exc:  # refused input, a store or a provider that failed: one line
        sys.stderr.write(f"memorybot: {exc}\n")
        return 2
    except KeyboardInterrupt:
        return 130
