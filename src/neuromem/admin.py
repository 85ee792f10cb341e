"""Operator verbs: operations on a store as a whole, for operators and ``memctl`` (not per user).

The library's front door is ``neuromem`` (``Memory`` and what it returns); this module holds what
runs a deployment — the embedded server, the worker, re-embedding, model checks, webhooks, the
files of a service a command leaves behind. The REST and MCP service's verbs are in
``neuromem.service``. Importing this module is cheap (``memctl``'s fast path reads
``service_files`` from it): each verb imports the engine when called.

>>> from neuromem import Settings
>>> from neuromem.admin import stop_embedded_server
>>> stop_embedded_server(Settings())        # doctest: +SKIP
ServerStop(data_dir=..., postmaster_pid=4242, watchdog_pid=4250, external=False)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .env_names import ServiceFiles, service_auto_start, service_files, store_location

if TYPE_CHECKING:
    from .config import Settings
    from .lifecycle.webhooks import Webhook
    from .memory import Memory

__all__ = [
    "ModelCheck",
    "ScheduledJob",
    "ServerStop",
    "ServiceFiles",
    "Webhook",
    "add_webhook",
    "check_models",
    "list_webhooks",
    "read_chat_export",
    "reembed",
    "remove_webhook",
    "run_worker",
    "scheduled_jobs",
    "service_auto_start",
    "service_files",
    "settings_reference",
    "stop_embedded_server",
    "store_location",
]


@dataclass(frozen=True, slots=True)
class ServerStop:
    """What ``stop_embedded_server`` did: the pids it stopped (None: nothing of that kind ran)."""

    data_dir: Path | None
    postmaster_pid: int | None
    watchdog_pid: int | None
    external: bool  # settings point at an external server: neuromem stops nothing


@dataclass(frozen=True, slots=True)
class ScheduledJob:
    """A periodic maintenance job (``Memory.run_job(name)`` runs it once)."""

    name: str
    cron: str  # its schedule on the queue (five cron fields, UTC)
    description: str
    previews: bool  # accepts ``dry_run``


def stop_embedded_server(settings: Settings) -> ServerStop:
    """Stop the embedded PostgreSQL of ``settings.store.data_dir`` and its idle watchdog now."""
    from .store.server import stop_embedded
    from .store.watchdog import watchdog_pid

    if settings.store.database_url:
        return ServerStop(data_dir=None, postmaster_pid=None, watchdog_pid=None, external=True)
    data_dir = Path(settings.store.data_dir).expanduser().resolve()
    watchdog = watchdog_pid(data_dir)
    postmaster = stop_embedded(data_dir)
    return ServerStop(data_dir=data_dir, postmaster_pid=postmaster, watchdog_pid=watchdog, external=False)


def reembed(settings: Settings, dim: int) -> int:
    """Change the stored embedding dimension to ``dim`` (every vector dropped) and embed every
    memory again with the configured embedder. Returns how many memories were embedded."""
    from .memory import Memory
    from .store.reembed import reembed as reset_vectors

    reset_vectors(settings, dim)
    with Memory(settings.with_updates(store={"embedding_dim": dim})) as m:
        return m.flush()


def scheduled_jobs() -> list[ScheduledJob]:
    """The periodic jobs of seed 000 §5.2 and seed 001 §7 with their schedules."""
    from .lifecycle.jobs import JOBS

    return [ScheduledJob(j.name, j.cron, j.description, j.previews) for j in JOBS.values()]


def run_worker(memory: Memory, *, concurrency: int = 1, wait: bool = True, name: str | None = None) -> None:
    """Run a job-queue worker over ``memory``'s database until stopped: every scheduled job on its
    cron schedule, once per tick across all workers (``neuromem.lifecycle.worker``)."""
    from .lifecycle.jobs import JobContext
    from .lifecycle.worker import run_worker as run

    context = JobContext(memory.runtime, memory._reflection, memory._ingest)
    run(context, memory.runtime.db.server.url, concurrency=concurrency, wait=wait, name=name)


def read_chat_export(path: str | Path) -> dict[str, list[dict[str, Any]]]:
    """Parse and check a chat export without storing it: messages grouped by session id, in
    file order (the format is described in ``docs/chat-export.md``)."""
    from .ingest.chat_export import read_export

    return read_export(Path(path))


def settings_reference() -> str:
    """The markdown reference of every setting (``docs/configuration.md``)."""
    from .config_docs import reference_markdown

    return reference_markdown()


@dataclass(frozen=True, slots=True)
class ModelCheck:
    """Which model ``settings`` configure for one role, and whether it answered a one-line request."""

    role: str  # "embedder" or "llm"
    configured: str  # what the settings name, e.g. "openai text-embedding-3-small at http://…"
    answered: bool | None  # None: nothing to ask (no LLM configured)
    detail: str  # "answered in 120 ms", the error, or what runs instead


def check_models(memory: Memory) -> list[ModelCheck]:
    """Ask ``memory``'s embedder and its configured LLM for one small answer each (``memctl status``)."""
    from .llm.factory import create_chat_model

    settings = memory.settings
    e, llm = settings.embedder, settings.llm
    embedder = memory.runtime.embedder
    configured = (
        f"{embedder.name} ({embedder.dim}-d, {e.provider}{f' at {e.base_url}' if e.base_url else ''})"
    )
    checks = [_ask("embedder", configured, lambda: embedder.embed_query("status check"))]
    if not llm.base_url:
        checks.append(ModelCheck("llm", "none", None, "rule-based extraction and reflection, offline"))
        return checks

    def chat() -> None:
        model = create_chat_model(llm.model_copy(update={"max_retries": 0}))
        assert model is not None
        with model:
            model.complete([{"role": "user", "content": "Reply with OK."}], operation="status")

    checks.append(_ask("llm", f"{llm.model} at {llm.base_url}", chat))
    return checks


def _ask(role: str, configured: str, call: Any) -> ModelCheck:
    import time

    started = time.perf_counter()
    try:
        call()
    except Exception as exc:  # any failure is the answer: status reports it
        return ModelCheck(role, configured, False, f"{type(exc).__name__}: {exc}")
    return ModelCheck(role, configured, True, f"answered in {(time.perf_counter() - started) * 1000:.0f} ms")


def add_webhook(
    memory: Memory, url: str, *, tenant: str = "default", events: Sequence[str] | None = None
) -> Webhook:
    """Deliver ``tenant``'s events (the kinds in ``events``; every kind when empty) to ``url`` from
    now on (issue 26 item 5; delivery is the job ``deliver_webhooks``, ``neuromem.lifecycle.webhooks``
    documents the signature). The result's ``secret`` signs the deliveries and is shown only here."""
    from .lifecycle import webhooks as feed
    from .store.tenancy import check_tenant

    return feed.add_webhook(memory.runtime, url, tenant=check_tenant(tenant), kinds=events)


def list_webhooks(
    memory: Memory, *, tenant: str | None = None, include_removed: bool = False
) -> list[Webhook]:
    """The webhooks of ``tenant`` (of every tenant when None), the removed ones too on request."""
    from .lifecycle import webhooks as feed
    from .store.tenancy import check_tenant

    return feed.list_webhooks(
        memory.runtime,
        tenant=None if tenant is None else check_tenant(tenant),
        include_removed=include_removed,
    )


def remove_webhook(memory: Memory, webhook_id: Any) -> Webhook:
    """Stop delivering to a webhook (it stays listed with ``removed_at``)."""
    from .lifecycle import webhooks as feed

    return feed.remove_webhook(memory.runtime, webhook_id)


def __getattr__(name: str) -> Any:
    """``Webhook`` loads on first use: importing its module loads the store."""
    if name == "Webhook":
        from .lifecycle.webhooks import Webhook

        return Webhook
    raise AttributeError(f"module 'neuromem.admin' has no attribute {name!r}")
