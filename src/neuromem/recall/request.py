"""One recall, validated once (issue 25 item 1; as httpx's ``build_request`` / ``send``).

The facade (``Memory.search``, ``Memory.recall_prompt``) checks the caller's arguments and
builds a :class:`RecallRequest`; :meth:`~neuromem.recall.pipeline.RecallPipeline.run` takes it
and answers a :class:`Recalled`: the public :class:`~neuromem.types.SearchResults` and the query
vector, so the prompt block does not embed the question a second time (the vector stays out of
the public results, which go over the wire as JSON). Nothing below the facade validates again.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..store.filters import CompiledFilter
from ..store.visibility import EVERYTHING, Viewer
from ..types import MemoryType, SearchResults
from .recipes import RecallRecipe


@dataclass(frozen=True, slots=True)
class RecallRequest:
    """What to recall, for whom, and how: every value already checked by the facade.

    ``where`` is the caller's metadata filter already narrowed to ``viewer`` (an agent or run
    sees its own memories and the user's shared ones); the prompt block narrows its pinned
    lines to ``viewer`` too. ``reference`` is "now" for relative dates in the query; ``as_of``
    (record time) and ``valid_at`` (event time) travel in time (docs/time-travel.md); ``include_shared``
    ranks what other users share with the user among the user's own hits (``recall.shared``)."""

    query: str
    user_id: str
    recipe: RecallRecipe
    types: tuple[MemoryType, ...]
    limit: int
    where: CompiledFilter | None = None
    viewer: Viewer = EVERYTHING
    as_of: dt.datetime | None = None
    valid_at: dt.datetime | None = None
    reference: dt.datetime | None = None
    trace: bool = False
    track_access: bool = True
    strict: bool = False
    include_shared: bool = False  # with what other users share with the user (``recall.shared``)


@dataclass(frozen=True, slots=True)
class Recalled:
    """What ``RecallPipeline.run`` answers: the results, and the query's vector (None when recall did not
    embed it — a lexical recipe — or the embedder failed; read-only, shared with the query-vector LRU)."""

    results: SearchResults
    query_vector: np.ndarray | None = None
    first: Any = None  # the answer of ``RecallPipeline.run``'s ``first`` read


__all__ = ["RecallRequest", "Recalled"]
