"""Warnings a caller sees in results when a model failed and neuromem fell back (issue #12 item 5)."""

from __future__ import annotations

import dataclasses
import logging

from .types import Operation, WriteResult

log = logging.getLogger(__name__)


def with_embedding_warning(result: WriteResult, failure: str | None, mode: str) -> WriteResult:
    """``result`` with a warning when it was written without a vector because the embedder failed."""
    if mode != "sync" or failure is None or result.operation is Operation.NOOP or result.memory.has_embedding:
        return result
    warning = (
        f"embedding deferred: {failure[:300]}; the memory is searchable by full text now and "
        "will be embedded by the backfill"
    )
    log.warning("add: %s", warning)
    return dataclasses.replace(result, warnings=(*result.warnings, warning))
