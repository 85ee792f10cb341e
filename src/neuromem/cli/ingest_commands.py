"""``memctl ingest FILE``, ``memctl documents upload/list/delete``, ``memctl session end``."""

from __future__ import annotations

import time
from pathlib import Path

import click

from .context import friendly_errors, load_settings, open_memory, remote_or_none, user_option

UPLOAD_BATCH = 8  # chunks per embedding batch of `documents upload`: one step of its bar
POLL_S = 0.2  # how often the upload bar reads the document's state


def _load_model(m, *, quiet: bool) -> None:  # type: ignore[no-untyped-def]
    """Load the embedding model before a progress bar starts, saying so."""
    if not quiet:
        click.echo("loading the embedding model…", err=True)
    m.warm_up()


@click.command()
@user_option
@click.argument("file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--batch-size", type=click.IntRange(1, 10_000), default=None, help="Turns per transaction.")
@click.option("--no-progress", is_flag=True, help="Hide the progress bar.")
@click.option(
    "--no-wait",
    is_flag=True,
    help="Return once the turns are stored (searchable by full text); `memctl backfill` or a "
    "running `memctl worker` gives them their vectors.",
)
@friendly_errors
def ingest(user_id: str, file: Path, batch_size: int | None, no_progress: bool, no_wait: bool) -> None:
    """Ingest a JSON / JSONL chat export (format: docs/chat-export.md); run it again to resume
    after an interruption: turns already stored are skipped. Then the turns' vectors are embedded
    (ingest.turn_vectors="background" leaves them to the backfill) unless --no-wait."""
    from tqdm import tqdm

    from neuromem.admin import read_chat_export

    total = sum(len(m) for m in read_chat_export(file).values())
    with open_memory() as m:
        _load_model(
            m, quiet=no_progress
        )  # before the bar: its ETA measures the ingest, not the model loading
        with tqdm(total=total, unit="turn", disable=no_progress, desc="ingest") as bar:
            summary = m.import_chat_export(file, user_id=user_id, batch_size=batch_size, progress=bar.update)
        if not no_wait and m.pending_embeddings(user_id=user_id):
            click.echo("embedding the turns…", err=True)
            m.flush()
        left = m.pending_embeddings(user_id=user_id)
    dropped = ", ".join(f"{k} {v}" for k, v in sorted(summary.dropped.items())) or "none"
    click.echo(
        f"{summary.turns_ingested} turns ingested ({summary.turns_skipped} already stored) in "
        f"{summary.sessions} sessions; {summary.memories_written} memories written; dropped: {dropped}"
    )
    for session, bad in summary.rejected:  # not stored: say which and why
        click.echo(f"rejected: session {session}, message {bad.index}: {bad.reason}", err=True)
    if left:
        click.echo(
            f"{left} turns and memories still to embed; they are searchable by full text and embedded by "
            "`memctl backfill` or a running `memctl worker`"
        )


@click.group()
def documents() -> None:
    """Upload, list and delete documents (text or markdown), stored as searchable chunks."""


@documents.command("upload")
@user_option
@click.argument("file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option(
    "--no-wait",
    is_flag=True,
    help="Return once the text is stored (searchable by full text); a later `memctl worker` "
    "or backfill embeds the rest.",
)
@click.option("--no-progress", is_flag=True, help="Hide the progress bar.")
@friendly_errors
def documents_upload(user_id: str, file: Path, no_wait: bool, no_progress: bool) -> None:
    """Store FILE (UTF-8 text or markdown) as document chunks: searchable by full text at once,
    then embedded with a progress bar."""
    mime = "text/markdown" if file.suffix.lower() in (".md", ".markdown") else "text/plain"
    try:
        text = file.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise click.ClickException(f"{file} is not UTF-8 text") from None
    stored = remote_or_none(None, lambda r: r.add_document(user_id, text, file.name, mime))
    if stored is not None:  # the running service embeds the chunks (now, or in its backfill)
        click.echo(f"{stored['id']}  {stored['file_name']}  {stored['chunk_count']} chunks")
        return
    settings = load_settings()
    # small embedding batches: the background embedding commits each one, so the bar moves with the work
    batch = min(settings.embedder.batch_size, UPLOAD_BATCH)
    with open_memory(settings.with_updates(embedder={"batch_size": batch})) as m:
        if len(text) > settings.ingest.document_background_chars and not no_wait:
            _load_model(m, quiet=no_progress)
        doc = m.add_document(text, user_id=user_id, file_name=file.name, mime_type=mime)
        click.echo(f"{doc.id}  {doc.file_name}  {doc.chunk_count} chunks")
        status = m.document_status(doc.id, user_id=user_id)
        if status.pending and not no_wait:
            status = _wait_for_embedding(m, doc.id, user_id, status, no_progress)
    if status.pending:
        click.echo(
            f"{status.pending} of {status.chunks} chunks still to embed ({status.state}); they are "
            "searchable by full text and embedded by the next backfill (`memctl worker`)"
        )


def _wait_for_embedding(m, file_id, user_id, status, no_progress):  # type: ignore[no-untyped-def]
    """Poll the background embedding until every chunk has a vector or attempts start failing."""
    from tqdm import tqdm

    with tqdm(
        total=status.chunks, initial=status.embedded, unit="chunk", desc="embed", disable=no_progress
    ) as bar:
        while status.state == "embedding":
            time.sleep(POLL_S)
            status = m.document_status(file_id, user_id=user_id)
            bar.update(status.embedded - bar.n)
    return status


@documents.command("list")
@user_option
@friendly_errors
def documents_list(user_id: str) -> None:
    """List a user's documents."""
    found = remote_or_none(None, lambda r: r.list_documents(user_id))
    if found is not None:
        for d in found:
            click.echo(
                f"{d['id']}  {d['file_name']}  {d['chunk_count']} chunks  {d['size_bytes']} bytes  "
                f"{d['created_at'][:10]}"
            )
        if not found:
            click.echo("(none)")
        return
    with open_memory() as m:
        docs = m.list_documents(user_id=user_id)
        for doc in docs:
            click.echo(
                f"{doc.id}  {doc.file_name}  {doc.chunk_count} chunks  {doc.size_bytes} bytes  {doc.created_at:%Y-%m-%d}"
            )
        if not docs:
            click.echo("(none)")


@documents.command("delete")
@user_option
@click.argument("file_id")
@friendly_errors
def documents_delete(user_id: str, file_id: str) -> None:
    """Delete the document FILE_ID (as printed by upload or list) and its chunks."""
    deleted = remote_or_none(None, lambda r: r.delete_document(user_id, file_id))
    if deleted is not None:
        click.echo(f"deleted {deleted['id']}  {deleted['file_name']}")
        return
    with open_memory() as m:
        doc = m.delete_document(file_id, user_id=user_id)
    click.echo(f"deleted {doc.id}  {doc.file_name}")


@click.group()
def session() -> None:
    """Conversation sessions: a session groups the turns ingested under one session id.

    A session ends when you say so (`memctl session end`) or after the idle timeout
    (NEUROMEM_INGEST__SESSION_IDLE_TIMEOUT_S, 30 minutes); its end triggers reflection.
    """


@session.command("end")
@user_option
@click.argument("session_id")
@friendly_errors
def session_end(user_id: str, session_id: str) -> None:
    """End the session SESSION_ID now (reflection then looks at it)."""
    with open_memory() as m:
        end = m.end_session(user_id=user_id, session_id=session_id)
    click.echo(
        f"session {end.session_id} ended: {end.message_count} messages, {end.memories_written} memories"
    )


def register_commands(cli: click.Group) -> None:
    """Add this module's commands to ``memctl`` (``cli.main`` calls it)."""
    for command in (ingest, documents, session):
        cli.add_command(command)
