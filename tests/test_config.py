"""Settings: their defaults, env parsing, errors that name the setting, secrets hidden."""

from __future__ import annotations

import os
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from bot.config import ConfigError, Settings, environment_variables
from memory.text.zones import zone_named


@pytest.fixture(autouse=True)
def clean_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    for var in (
        "ANTHROPIC_API_KEY",
        "OPENAI_API_KEY",
        "OPENAI_BASE_URL",
        "LLM_PROVIDER",
        "DISCORD_TOKEN",
        "SLACK_BOT_TOKEN",
        "MEMORYBOT_DATA_DIR",
        "LOG_LEVEL",
        "PORT",
    ):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.chdir(tmp_path)  # no stray .env


def test_defaults_match_design() -> None:
    s = Settings.load(env_file=None)
    assert s.prehook.recent_duration == "6h"
    assert s.prehook.channel_scope is False
    assert s.prehook.semantic_threshold == 0.85
    assert s.prehook.max_semantic_buffer == 100
    assert s.prehook.max_injection_count == 40
    assert s.prehook.context_window_depth == 20
    assert s.memory.search_threshold == 0.5
    assert s.coalesce.debounce_seconds == 1.5
    assert s.coalesce.max_wait_seconds == 5.0
    assert s.storage.data_dir == Path("data")
    assert s.llm.resolved_provider == "offline"
    assert s.embedding.provider == "local"


@pytest.mark.parametrize(
    ("count", "ids", "problem"),
    [
        (None, "0", "need DISCORD_SHARD_COUNT"),
        ("2", "1,2", "within 0..1"),
        ("2", "1,1", "listed twice"),
        ("0", None, "DISCORD_SHARD_COUNT"),
        ("2", "one", "DISCORD_SHARD_IDS"),
    ],
)
def test_discord_shards_are_checked_against_their_count(
    monkeypatch: pytest.MonkeyPatch, count: str | None, ids: str | None, problem: str
) -> None:
    for name, value in (("DISCORD_SHARD_COUNT", count), ("DISCORD_SHARD_IDS", ids)):
        if value is not None:
            monkeypatch.setenv(name, value)
    with pytest.raises(ConfigError, match=problem):
        Settings.load(env_file=None)


def test_discord_shards_this_process_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    assert (
        Settings.load(env_file=None).discord.shard_count,
        Settings.load(env_file=None).discord.shard_ids,
    ) == (
        None,
        [],
    )
    monkeypatch.setenv("DISCORD_SHARD_COUNT", "4")
    monkeypatch.setenv("DISCORD_SHARD_IDS", " 3, 0")
    discord = Settings.load(env_file=None).discord
    assert (discord.shard_count, discord.shard_ids) == (4, [3, 0])


def test_invalid_values_name_the_setting(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PREHOOK_MAX_INJECTION_COUNT", "lots")
    monkeypatch.setenv("PREHOOK_RECENT_DURATION", "a few hours")
    monkeypatch.setenv("SLACK_MODE", "carrier-pigeon")
    monkeypatch.setenv("PORT", "70000")
    with pytest.raises(ConfigError) as info:
        Settings.load(env_file=None)
    text = str(info.value)
    for name in ("PREHOOK_MAX_INJECTION_COUNT", "PREHOOK_RECENT_DURATION", "SLACK_MODE", "PORT"):
        assert name in text


def test_provider_is_chosen_from_the_keys_present(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-secret")
    assert Settings.load(env_file=None).llm.resolved_provider == "openai"
    monkeypatch.setenv("ANTHROPIC_API_KEY", "ak-test-secret")
    assert Settings.load(env_file=None).llm.resolved_provider == "anthropic"
    monkeypatch.setenv("LLM_PROVIDER", "offline")
    assert Settings.load(env_file=None).llm.resolved_provider == "offline"


def test_secrets_never_appear_in_dumps_or_repr(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", "discord-very-secret")
    monkeypatch.setenv("OPENAI_API_KEY", "sk-very-secret")
    s = Settings.load(env_file=None)
    assert s.discord.token is not None and s.discord.token.get_secret_value() == "discord-very-secret"
    for text in (repr(s), str(s.redacted())):
        assert "very-secret" not in text


def test_a_database_url_selects_postgresql_and_stays_secret(monkeypatch: pytest.MonkeyPatch) -> None:
    assert Settings.load(env_file=None).storage.location == Path("data")  # the embedded default
    monkeypatch.setenv("MEMORYBOT_DATABASE_URL", "postgresql://bot:pg-very-secret@db:5432/memorybot")
    s = Settings.load(env_file=None)
    assert s.storage.location == "postgresql://bot:pg-very-secret@db:5432/memorybot"
    for text in (repr(s), str(s.redacted())):
        assert "very-secret" not in text
    monkeypatch.setenv("MEMORYBOT_DATABASE_URL", "mysql://bot:pg-very-secret@db/memorybot")
    with pytest.raises(ConfigError, match="MEMORYBOT_DATABASE_URL") as raised:
        Settings.load(env_file=None)
    assert "very-secret" not in str(raised.value)


def test_dotenv_file_and_overrides(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    env = tmp_path / ".env"
    env.write_text("MEMORYBOT_DATA_DIR=/srv/bot\nDISCORD_CHANNELS=111, 222\nCOALESCE_DEBOUNCE_SECONDS=0.5\n")
    s = Settings.load(env_file=env)
    assert s.storage.data_dir == Path("/srv/bot")
    assert s.discord.channels == ["111", "222"]
    assert s.coalesce.debounce_seconds == 0.5
    assert Settings.load(env_file=env, storage={"data_dir": "/tmp/other"}).storage.data_dir == Path(
        "/tmp/other"
    )


def test_every_prehook_setting_reaches_the_prehook_and_an_unknown_one_is_refused() -> None:
    from bot.config import PrehookSettings

    for name, info in PrehookSettings.model_fields.items():
        default = info.default
        value = (
            (not default)
            if isinstance(default, bool)
            else "2h"
            if isinstance(default, str)
            else default / 2
            if isinstance(default, float)
            else default + 1
        )
        config = PrehookSettings(_env_file=None, **{name: value}).prehook_config()  # type: ignore[call-arg]
        field = "preference_cache_ttl" if name == "preference_cache_ttl_seconds" else name
        assert getattr(config, field) == value, name

    class WithAStrayKnob(PrehookSettings):
        no_such_knob: int = 1

    with pytest.raises(TypeError, match="no_such_knob"):
        WithAStrayKnob(_env_file=None).prehook_config()  # type: ignore[call-arg]


@pytest.mark.parametrize("share", ["-0.1", "1.5", "half"])
def test_a_score_share_outside_zero_to_one_is_refused(share: str, monkeypatch: pytest.MonkeyPatch) -> None:
    from pydantic import ValidationError

    from bot.config import PrehookSettings

    monkeypatch.setenv("PREHOOK_MIN_SCORE_SHARE", share)
    with pytest.raises(ValidationError, match="min_score_share"):
        PrehookSettings(_env_file=None)  # type: ignore[call-arg]


def test_environment_variables_name_every_setting_by_the_variable_it_reads() -> None:
    names = environment_variables()
    for expected in ("MEMORYBOT_DATABASE_URL", "DISCORD_TOKEN", "SLACK_MODE", "ANTHROPIC_API_KEY", "PORT"):
        assert expected in names
    assert len(names) == len(set(names))


def test_the_test_session_sees_none_of_the_bots_variables() -> None:
    # conftest clears them: a shell pointing the bot at a real database must not send tests there.
    assert [name for name in environment_variables() if name in os.environ] == []


@pytest.mark.parametrize(
    ("said", "offset_hours"),
    [("UTC", 0), ("UTC+10", 10), ("GMT-05:30", -5.5), ("CET", 1), ("Europe/Paris", 1)],
)
def test_the_bot_wide_time_zone(monkeypatch: pytest.MonkeyPatch, said: str, offset_hours: float) -> None:
    monkeypatch.setenv("MEMORY_TIMEZONE", said)
    zone = Settings.load(env_file=None).memory.zone
    winter = datetime(2026, 1, 15, 12, tzinfo=UTC)
    assert winter.astimezone(zone).utcoffset() == timedelta(hours=offset_hours)


@pytest.mark.parametrize("said", ["Mars/Olympus", "NYC", "UTC+15"])
def test_an_unknown_time_zone_fails_at_start_naming_it(monkeypatch: pytest.MonkeyPatch, said: str) -> None:
    monkeypatch.setenv("MEMORY_TIMEZONE", said)
    with pytest.raises(ConfigError, match="MEMORY_TIMEZONE"):
        Settings.load(env_file=None)


def test_a_zone_said_by_its_abbreviation_keeps_summer_time() -> None:
    """ "PST" names Los Angeles, whose clocks move in summer: 19:00 UTC in July is noon there."""
    zone = zone_named("PST")
    assert zone is not None
    assert datetime(2026, 7, 1, 19, tzinfo=UTC).astimezone(zone).hour == 12
    assert datetime(2026, 1, 1, 20, tzinfo=UTC).astimezone(zone).hour == 12


def test_the_example_environment_file_says_the_defaults() -> None:
    """.env.example is what a new deployment copies: each value it sets is the one the bot uses unset."""
    example = Path(__file__).resolve().parent.parent / ".env.example"
    defaults = Settings.load(env_file=None).model_dump()
    copied = Settings.load(env_file=example).model_dump()
    differ = {
        f"{section}.{key}"
        for section, values in defaults.items()
        if isinstance(values, dict)
        for key, value in values.items()
        if copied[section][key] != value
    }
    assert not differ, differ
