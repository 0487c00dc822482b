"""Settings from the environment and `.env`, one section per concern; bad values fail at start."""

from __future__ import annotations

from datetime import tzinfo
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import (
    AliasChoices,
    BaseModel,
    Field,
    SecretStr,
    ValidationError,
    ValidationInfo,
    field_validator,
)
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

from memory.errors import ConfigError, TTLError
from memory.prehook.config import PrehookConfig
from memory.text.zones import zone_named
from memory.ttl import parse_duration

CommaList = Annotated[list[str], NoDecode]


def _split_commas(value: Any) -> Any:
    if isinstance(value, str):
        return [part.strip() for part in value.split(",") if part.strip()]
    return value


class _Section(BaseSettings):
    model_config = SettingsConfigDict(
        env_file=".env",
        env_file_encoding="utf-8",
        extra="ignore",
        populate_by_name=True,
        env_ignore_empty=True,
    )


class DiscordSettings(_Section):
    model_config = SettingsConfigDict(env_prefix="DISCORD_")

    token: SecretStr | None = None
    channels: CommaList = Field(default_factory=list, description="channel ids answered without a mention")
    learn_channels: CommaList = Field(default_factory=list, description="channel ids learned from passively")
    message_content_intent: bool = True
    guild_ready_timeout_seconds: float = Field(
        2.0, ge=0, description="wait after READY for the guilds' GUILD_CREATEs before answering (discord.py)"
    )
    # Sharding: Discord gives each shard the guilds whose id maps to it, (guild_id >> 22) % count.
    # Several processes each run some of the shards (`shard_ids`) of one `shard_count`.
    shard_count: int | None = Field(None, ge=1, description="total shards of the bot, over every process")
    shard_ids: Annotated[list[int], NoDecode] = Field(
        default_factory=list, description="the shards this process runs (default: all of shard_count)"
    )

    _split = field_validator("channels", "learn_channels", "shard_ids", mode="before")(_split_commas)

    @field_validator("shard_ids")
    @classmethod
    def _shards_of_the_count(cls, ids: list[int], info: ValidationInfo) -> list[int]:
        if not ids:
            return ids
        count = info.data.get("shard_count")
        if count is None:
            raise ValueError("shard ids need DISCORD_SHARD_COUNT (the bot's total number of shards)")
        wrong = [i for i in ids if not 0 <= i < count]
        if wrong:
            raise ValueError(
                f"shard ids must be within 0..{count - 1} (DISCORD_SHARD_COUNT={count}); got {wrong}"
            )
        if len(set(ids)) != len(ids):
            raise ValueError("a shard id is listed twice")
        return ids


class SlackSettings(_Section):
    model_config = SettingsConfigDict(env_prefix="SLACK_")

    bot_token: SecretStr | None = None
    app_token: SecretStr | None = None
    signing_secret: SecretStr | None = None
    mode: Literal["socket", "http"] = "socket"
    channels: CommaList = Field(default_factory=list)
    learn_channels: CommaList = Field(default_factory=list)
    api_url: str | None = Field(None, description="Web API base URL (a proxy or a local test server)")

    _split = field_validator("channels", "learn_channels", mode="before")(_split_commas)


class LLMSettings(_Section):
    model_config = SettingsConfigDict(env_prefix="LLM_")

    provider: Literal["anthropic", "openai", "offline"] | None = None
    model: str | None = None
    timeout_seconds: float = Field(60.0, gt=0)
    max_retries: int = Field(2, ge=0, le=10)
    max_tool_rounds: int = Field(5, ge=0, le=10)
    max_output_tokens: int = Field(1024, gt=0)
    max_background_calls: int = Field(3, ge=0, le=20, description="summary model calls per message")
    summary_model: str | None = Field(
        None, description="a cheaper model of the same provider for summaries (default: the reply model)"
    )
    anthropic_api_key: SecretStr | None = Field(None, validation_alias=AliasChoices("ANTHROPIC_API_KEY"))
    anthropic_base_url: str | None = Field(None, validation_alias=AliasChoices("ANTHROPIC_BASE_URL"))
    openai_api_key: SecretStr | None = Field(None, validation_alias=AliasChoices("OPENAI_API_KEY"))
    openai_base_url: str | None = Field(None, validation_alias=AliasChoices("OPENAI_BASE_URL"))

    @property
    def resolved_provider(self) -> str:
        """The provider to use: the explicit one, else the first whose key (or base URL) is set."""
        if self.provider is not None:
            return self.provider
        if self.anthropic_api_key is not None:
            return "anthropic"
        if self.openai_api_key is not None or self.openai_base_url:
            return "openai"
        return "offline"


class EmbeddingSettings(_Section):
    model_config = SettingsConfigDict(env_prefix="EMBEDDING_")

    provider: Literal["local", "openai"] = "local"
    model: str | None = None
    cache_size: int = Field(10_000, ge=0)


class StorageSettings(_Section):
    model_config = SettingsConfigDict(env_prefix="MEMORYBOT_")

    data_dir: Path = Path("data")
    # A `postgresql://` URL selects the PostgreSQL backend (pgvector); unset, the embedded one
    # (SQLite and LanceDB under `data_dir`). Secret: the URL usually carries a password.
    database_url: SecretStr | None = None
    agent_id: str = Field("default", min_length=1, max_length=64)
    # Rows per vector table searched from RAM (~1.5 KB each with local embeddings); 0 = LanceDB only.
    search_index_rows: int = Field(200_000, ge=0)

    @field_validator("database_url")
    @classmethod
    def _database_url_scheme(cls, value: SecretStr | None) -> SecretStr | None:
        # The message never repeats the URL: it carries a password.
        if value is not None and not value.get_secret_value().startswith(("postgresql://", "postgres://")):
            raise ValueError("MEMORYBOT_DATABASE_URL must be a postgresql:// URL")
        return value

    @property
    def location(self) -> str | Path:
        """Where the storage lives: the database URL when one is set, else the data directory."""
        return self.database_url.get_secret_value() if self.database_url is not None else self.data_dir


class MemorySettings(_Section):
    model_config = SettingsConfigDict(env_prefix="MEMORY_")

    dedup_threshold: float | None = Field(None, ge=0, le=1, description="override the model's calibrated one")
    search_threshold: float = Field(
        0.5,
        ge=-1,
        le=1,
        description="minimum relevance of explicit searches: /memory search, the model's search_memories "
        "tool, the offline responder (injection has its own floor, PREHOOK_MIN_RELEVANCE)",
    )
    sweep_interval_seconds: float = Field(3600.0, gt=0)
    timezone: str = Field(
        "UTC",
        description="the time zone a message's 'tomorrow' is read in when its author has not said theirs "
        "('I'm in PST'), and dates are shown in: an abbreviation (PST, CET), an offset (UTC+2) or a region "
        "(Europe/Paris)",
    )

    @field_validator("timezone")
    @classmethod
    def _known_zone(cls, value: str) -> str:
        if zone_named(value) is None:
            raise ValueError(
                f"unknown time zone {value!r}: say PST, CET, UTC+2 or a region such as Europe/Paris"
            )
        return value

    @property
    def zone(self) -> tzinfo:
        """`timezone` as the zone dates are read and shown in."""
        zone = zone_named(self.timezone)
        if zone is None:  # checked when the settings were read; only a later assignment gets here
            raise ConfigError(f"MEMORY_TIMEZONE: unknown time zone {self.timezone!r}")
        return zone


# The pre-hook's defaults live with the pre-hook; the settings only name and bound them.
_PREHOOK = PrehookConfig()
# Settings whose name differs from the pre-hook's field (the unit is in the environment name).
_PREHOOK_FIELD = {"preference_cache_ttl_seconds": "preference_cache_ttl"}


class PrehookSettings(_Section):
    model_config = SettingsConfigDict(env_prefix="PREHOOK_")

    recent_duration: str = _PREHOOK.recent_duration
    channel_scope: bool = _PREHOOK.channel_scope
    semantic_threshold: float = Field(_PREHOOK.semantic_threshold, ge=0, le=1)
    max_semantic_buffer: int = Field(_PREHOOK.max_semantic_buffer, ge=0)
    max_injection_count: int = Field(_PREHOOK.max_injection_count, ge=0)
    context_window_depth: int = Field(_PREHOOK.context_window_depth, ge=0)
    token_budget: int = Field(_PREHOOK.token_budget, ge=0)
    min_score_share: float = Field(
        _PREHOOK.min_score_share,
        ge=0,
        le=1,
        description="a line of the block scored below this share of the best line's score is left "
        "out before the token budget (0: every line competes for the budget)",
    )
    share_spares_tokens: int = Field(
        _PREHOOK.share_spares_tokens,
        ge=0,
        description="lines the score share left out go back, best first, while the block holds fewer "
        "tokens than this (0: the share alone decides)",
    )
    important_threshold: float = Field(_PREHOOK.important_threshold, ge=0, le=1)
    preference_min_confidence: float = Field(_PREHOOK.preference_min_confidence, ge=0, le=1)
    preference_cache_ttl_seconds: float = Field(_PREHOOK.preference_cache_ttl, ge=0)
    vector_top_k: int = Field(_PREHOOK.vector_top_k, ge=1, le=500)
    min_relevance: float = Field(
        _PREHOOK.min_relevance,
        ge=-1,
        le=1,
        description="below this similarity a search hit is not injected (identity, preferences, "
        "important and recent memories are ranked, never dropped by it)",
    )

    @field_validator("recent_duration")
    @classmethod
    def _duration(cls, value: str) -> str:
        try:
            parse_duration(value)
        except TTLError as exc:
            raise ValueError(str(exc)) from None
        return value

    def prehook_config(self) -> PrehookConfig:
        """The pre-hook's configuration: each setting by name onto its field (a setting with no
        field is a TypeError here, not a knob that silently does nothing); the rest keep the
        pre-hook's defaults."""
        values = {_PREHOOK_FIELD.get(name, name): value for name, value in self.model_dump().items()}
        return PrehookConfig(**values)


class HistorySettings(_Section):
    model_config = SettingsConfigDict(env_prefix="HISTORY_")

    max_messages: int = Field(40, ge=1, le=1000, description="stored turns sent to the model")
    max_chars: int = Field(24_000, ge=1000, description="character budget of those turns")
    summary_chars: int = Field(3_000, ge=0, description="summaries of older turns shown instead")


class CoalesceSettings(_Section):
    model_config = SettingsConfigDict(env_prefix="COALESCE_")

    debounce_seconds: float = Field(1.5, ge=0)
    max_wait_seconds: float = Field(5.0, ge=0)


class ServerSettings(_Section):
    port: int = Field(8080, ge=0, le=65535, validation_alias=AliasChoices("PORT"))
    log_level: Literal["DEBUG", "INFO", "WARNING", "ERROR"] = Field(
        "INFO", validation_alias=AliasChoices("LOG_LEVEL")
    )
    log_format: Literal["text", "json"] = Field("text", validation_alias=AliasChoices("LOG_FORMAT"))
    shutdown_grace_seconds: float = Field(
        20.0,
        ge=0,
        validation_alias=AliasChoices("SHUTDOWN_GRACE_SECONDS"),
        description="finish in-flight turns",
    )

    @field_validator("log_level", mode="before")
    @classmethod
    def _upper(cls, value: Any) -> Any:
        return value.upper() if isinstance(value, str) else value


_SECTIONS: dict[str, type[_Section]] = {
    "discord": DiscordSettings,
    "slack": SlackSettings,
    "llm": LLMSettings,
    "embedding": EmbeddingSettings,
    "storage": StorageSettings,
    "memory": MemorySettings,
    "prehook": PrehookSettings,
    "history": HistorySettings,
    "coalesce": CoalesceSettings,
    "server": ServerSettings,
}


def _env_name(section: type[_Section], field_name: str) -> str:
    field = section.model_fields.get(field_name)
    alias = field.validation_alias if field is not None else None
    if isinstance(alias, AliasChoices):
        return str(alias.choices[0])
    prefix = section.model_config.get("env_prefix", "") or ""
    return f"{prefix}{field_name}".upper()


def environment_variables() -> list[str]:
    """Every environment variable the settings read, by section order."""
    return [_env_name(section, name) for section in _SECTIONS.values() for name in section.model_fields]


class Settings(BaseModel):
    """Every knob of the bot; build it with `Settings.load()`."""

    discord: DiscordSettings
    slack: SlackSettings
    llm: LLMSettings
    embedding: EmbeddingSettings
    storage: StorageSettings
    memory: MemorySettings
    prehook: PrehookSettings
    history: HistorySettings
    coalesce: CoalesceSettings
    server: ServerSettings

    @classmethod
    def load(cls, env_file: str | Path | None = ".env", **overrides: dict[str, Any]) -> Settings:
        """Read every section from the environment and `env_file`; `overrides` win (CLI flags).

        Raises ConfigError naming each invalid setting by its environment variable.
        """
        values: dict[str, _Section] = {}
        problems: list[str] = []
        for name, section in _SECTIONS.items():
            given = {k: v for k, v in overrides.get(name, {}).items() if v is not None}
            try:
                values[name] = section(_env_file=env_file, **given)  # type: ignore[call-arg]
            except ValidationError as exc:
                for error in exc.errors():
                    field_name = str(error["loc"][0]) if error["loc"] else "?"
                    problems.append(f"{_env_name(section, field_name)}: {error['msg']}")
        if problems:
            raise ConfigError("invalid settings:\n  " + "\n  ".join(problems))
        return cls(**values)  # type: ignore[arg-type]

    def redacted(self) -> dict[str, Any]:
        """A loggable view: secrets show only whether they are set."""
        return self.model_dump(mode="json")
