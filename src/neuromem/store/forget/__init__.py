"""SQL of selective forgetting (seed 003 §24): find every trace of a target, then hard-delete it.

One module per step: :mod:`.work_sets` (the temporary tables), :mod:`.seeds` (what a target
names first), :mod:`.closure` (the derivation rules below), :mod:`.preview` (a dry run),
:mod:`.erase` (the deletion and its proof material), :mod:`.whole_user` and :mod:`.receipts`.

The caller (``neuromem.lifecycle.forget``) owns the transaction. Work sets live in
temporary tables dropped at commit (``_forget_*``), so a target of 100k memories is
joined in the database, never shipped to Python and back:

- ``_forget_mem (id, memory_type)`` — memory rows (every version of each chain);
- ``_forget_msg (id)``, ``_forget_session (id)``, ``_forget_chunk (sha256)``,
  ``_forget_doc (id)``, ``_forget_node (id)`` — messages, sessions, raw chunks,
  document files and graph nodes.

:func:`close_over` grows the sets to a fixpoint by the derivation rules: a memory takes
its whole supersede chain, the messages it was extracted from (``memory_sources``) and
the raw chunks it cites; a message takes its chunks; a chunk takes the messages and
memories that hold or cite its words; an episode takes the memories extracted from it
(``source_episode_ids``) — a compression summary goes with any of its originals, but its
own provenance (the originals' words) draws nothing further in. Traits are derived by reflection and are never seeds here:
:mod:`neuromem.lifecycle.forget` recomputes or dissolves them from the evidence left.

:func:`erase` deletes and returns, per table, the row counts and the sha256 of every
deleted content and id (the receipt's proof). Nothing here keeps deleted text.
"""

from .closure import add_chunks, close_over, extra_chunk_shas, spare_shared
from .erase import Erased, erase, restore_archived, scrub_log, write_tombstones
from .preview import PreviewRow, preview
from .receipts import get_receipt, insert_receipt, list_receipts
from .seeds import (
    lock_user,
    seed_document,
    seed_memory,
    seed_nodes,
    seed_older_than,
    seed_scope,
    seed_session,
    seed_soft_deleted,
    seed_text,
    seed_traits,
    seed_user,
    seed_window,
    users_with_older_than,
    users_with_soft_deleted,
)
from .whole_user import KEEP_ON_FORGET, chunk_paths, erase_user, user_tables
from .work_sets import open_sets

__all__ = [
    "KEEP_ON_FORGET",
    "Erased",
    "PreviewRow",
    "add_chunks",
    "chunk_paths",
    "close_over",
    "erase",
    "erase_user",
    "extra_chunk_shas",
    "get_receipt",
    "insert_receipt",
    "list_receipts",
    "lock_user",
    "open_sets",
    "preview",
    "restore_archived",
    "scrub_log",
    "seed_document",
    "seed_memory",
    "seed_nodes",
    "seed_older_than",
    "seed_scope",
    "seed_session",
    "seed_soft_deleted",
    "seed_text",
    "seed_traits",
    "seed_user",
    "seed_window",
    "spare_shared",
    "user_tables",
    "users_with_older_than",
    "users_with_soft_deleted",
    "write_tombstones",
]
