"""The retrievers of one recall as a table (issue 25 item 4), as ``recipes.py`` is declarative.

Each :class:`Retriever` has a name — its list in the fusion and its path in the trace —,
``off``: why it does not run for this search ("off" when the recipe switches it off,
"skipped: …" when there is nothing to search with), or None when it runs, and ``run``.
``RecallPipeline`` consumes :data:`RETRIEVERS` (then :data:`HOP_RETRIEVERS` for the second hop)
in one loop; every ``run`` gets its own sub-transaction there, so a failing retriever costs its
own list only (seed 003 §18 degradation matrix).

Order matters: BM25 runs first, while the query embedding finishes in a worker thread
(:attr:`Search.probe` waits for it, at the first retriever that reads the vector); the graph
starts from the lists found before it, and the raw fallback is triggered by how few they are.
A conversation-shaped query is also searched in two views, the current message (``focus``)
and the user's own lines (``user``): each has its own analysis and, when the recipe weighs
it, its own vector (seed 003 §5.1 Q + C).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

import numpy as np

from ..config import Settings
from ..store.db import Conn
from ..types import RawPassage
from . import retrievers
from .concepts import concepts
from .fusion import Ranked
from .query import analyze_query, user_lines
from .retrievers import Probe
from .trace import NO_VECTOR, Trace

#: ``off`` for a retriever with nothing to search for this question: it leaves no path in the trace
NOT_APPLICABLE = ""
#: the lists the graph walk is seeded from
GRAPH_SEED_LISTS = ("bm25", "vector", "bm25_focus", "vector_focus")
VIEWS = ("focus", "user")


class Search:
    """What the retrievers of one search read and write: the connection, the probe (its vector
    awaited on first use), the views of the question, the lists found so far and the raw passages."""

    def __init__(
        self,
        conn: Conn,
        probe: Probe,
        settings: Settings,
        trace: Trace,
        *,
        pending: Callable[[], np.ndarray | None] | None = None,
        embed: Callable[[str], np.ndarray | None] | None = None,
        lists: dict[str, list[Ranked]] | None = None,
    ) -> None:
        self.conn = conn
        self.settings = settings
        self.trace = trace
        self.lists: dict[str, list[Ranked]] = dict(lists or {})
        self.passages: list[RawPassage] = []
        self.lexical = probe  # the probe before its vector: enough for BM25
        self._probe = probe
        self._pending = pending
        self._embed = embed
        self._views: dict[str, Probe | None] = {}
        self._trigger: str | None = None

    @property
    def probe(self) -> Probe:
        """The probe with the query vector (None if the embedder failed), waited for once."""
        if self._pending is not None:
            pending, self._pending = self._pending, None
            self._probe = replace(self._probe, vector=pending())
        return self._probe

    @property
    def dim(self) -> int:
        return self.settings.store.embedding_dim

    def view(self, name: str) -> Probe | None:
        """The ``focus`` or ``user`` view of a conversation-shaped query, or None for this question."""
        if name not in self._views:
            self._views[name] = self._make_view(name)
        return self._views[name]

    def _make_view(self, name: str) -> Probe | None:
        probe = self.probe
        recipe, text = probe.recipe, probe.analysis.text
        seen = (
            focus_text(text, recipe.focus_lines)
            if name == "focus"
            else (user_lines(text) if recipe.user_view else None)
        )
        if seen is None:
            return None
        analysis = analyze_query(seen, probe.analysis.reference)
        vector = None
        if recipe.use_vector and recipe.weighs(f"vector_{name}") and probe.vector is not None and self._embed:
            embed = self._embed
            vector = self.trace.timed(f"embed_{name}", lambda: embed(seen))
        if self.trace.enabled:
            self.trace.stages[name] = {"text": seen, "terms": list(analysis.terms)}
        return replace(probe, analysis=analysis, vector=vector)

    def raw_trigger(self) -> str:
        """Why the raw fallback runs, from the lists found before it ("" when it should not)."""
        if self._trigger is None:
            distinct = len({h.id for hits in self.lists.values() for h in hits})
            self._trigger = retrievers.raw_trigger(self.probe.analysis, distinct, self.probe.recipe)
        return self._trigger


@dataclass(frozen=True, slots=True)
class Retriever:
    """One row of the table: ``off(search)`` is None when it runs; ``run(search)`` its list."""

    name: str
    off: Callable[[Search], str | None]
    run: Callable[[Search], list[Ranked]]


def focus_text(query: str, lines: int) -> str | None:
    """The last ``lines`` non-empty lines of a multi-line query, or None for a one-message query."""
    if lines <= 0:
        return None
    parts = [ln.strip() for ln in query.splitlines() if ln.strip()]
    if len(parts) <= lines:
        return None
    return "\n".join(parts[-lines:])


# ---------------------------------------------------------------- why a retriever is off
def _bm25_off(s: Search) -> str | None:
    if not s.lexical.recipe.use_bm25:
        return "off"
    return None if s.lexical.analysis.terms else "skipped: no query terms"


def _vector_off(s: Search) -> str | None:
    if not s.lexical.recipe.use_vector:
        return "off"
    return None if s.probe.vector is not None else NO_VECTOR


def _turns_off(s: Search, needs: str) -> str | None:
    probe = s.lexical  # whether turns are wanted, and the words: known before the vector
    if not retrievers.turns_wanted(probe):
        return "off" if not probe.recipe.use_turns else "skipped: a type or metadata filter excludes turns"
    if needs == "terms":
        return None if probe.analysis.terms else "skipped: no query terms"
    return None if s.probe.vector is not None else NO_VECTOR


def _concepts_off(s: Search) -> str | None:
    recipe = s.probe.recipe
    if not recipe.use_concepts:
        return "off"
    return None if recipe.weighs("concepts") and s.probe.vector is not None else "skipped: no query vector"


def _view_bm25_off(view: str) -> Callable[[Search], str | None]:
    def off(s: Search) -> str | None:
        probe = s.view(view)
        if probe is None:
            return NOT_APPLICABLE
        if not (probe.recipe.use_bm25 and probe.recipe.weighs(f"bm25_{view}")):
            return "off"
        return None if probe.analysis.terms else "skipped: no query terms"

    return off


def _view_vector_off(view: str) -> Callable[[Search], str | None]:
    def off(s: Search) -> str | None:
        probe = s.view(view)
        if probe is None:
            return NOT_APPLICABLE
        if probe.vector is not None:
            return None
        wanted = probe.recipe.use_vector and probe.recipe.weighs(f"vector_{view}")
        return NO_VECTOR if wanted else "off"

    return off


def _raw_off(s: Search) -> str | None:
    if not s.probe.recipe.use_raw:
        return "off"
    return None if s.raw_trigger() else "skipped: not triggered"


# ---------------------------------------------------------------- what a retriever returns
def _view_probe(s: Search, view: str) -> Probe:
    probe = s.view(view)
    assert probe is not None  # off() said it runs
    return probe


def _graph(s: Search) -> list[Ranked]:
    outcome = retrievers.graph(s.conn, s.probe, [s.lists[n] for n in GRAPH_SEED_LISTS if n in s.lists])
    if s.trace.enabled:
        s.trace.stages["graph_subgraph"] = {
            "seeds": outcome.seeds,
            "entity_nodes": outcome.entity_nodes,
            "edges": outcome.edges,
            "nodes": outcome.nodes,
        }
    return outcome.hits


def _raw(s: Search) -> list[Ranked]:
    trigger = s.raw_trigger()
    outcome = retrievers.raw(s.conn, s.probe, trigger)
    s.passages = outcome.passages
    if s.trace.enabled:
        s.trace.stages["raw_trigger"] = trigger
        s.trace.stages["raw_passages"] = [
            {"sha256": p.sha256, "offset": p.offset, "text": p.text} for p in outcome.passages
        ]
    return outcome.hits


def _view_bm25(view: str) -> Callable[[Search], list[Ranked]]:
    return lambda s: retrievers.bm25(s.conn, _view_probe(s, view), s.settings.recall)


def _view_vector(view: str) -> Callable[[Search], list[Ranked]]:
    return lambda s: retrievers.vector(s.conn, _view_probe(s, view), s.dim)


def _views() -> tuple[Retriever, ...]:
    """For each view: BM25, then the vector, over the view's own words."""
    return tuple(
        entry
        for view in VIEWS
        for entry in (
            Retriever(f"bm25_{view}", _view_bm25_off(view), _view_bm25(view)),
            Retriever(f"vector_{view}", _view_vector_off(view), _view_vector(view)),
        )
    )


#: every retriever of the first hop, in the order they run: the two that need only the question's words
#: first, while the query embedding finishes (its wait is the vector's first use)
RETRIEVERS: tuple[Retriever, ...] = (
    Retriever("bm25", _bm25_off, lambda s: retrievers.bm25(s.conn, s.lexical, s.settings.recall)),
    Retriever(
        "bm25_turns",
        lambda s: _turns_off(s, "terms"),
        lambda s: retrievers.turn_bm25(s.conn, s.lexical, s.settings.recall),
    ),
    Retriever("vector", _vector_off, lambda s: retrievers.vector(s.conn, s.probe, s.dim)),
    *_views(),
    Retriever(
        "vector_turns",
        lambda s: _turns_off(s, "vector"),
        lambda s: retrievers.turn_vector(s.conn, s.probe, s.dim),
    ),
    Retriever(
        "traits",
        lambda s: None if s.probe.recipe.use_traits else "off",
        lambda s: retrievers.traits(s.conn, s.probe, s.settings.recall, s.dim, s.settings.traits),
    ),
    Retriever(
        "concepts", _concepts_off, lambda s: concepts(s.conn, s.probe, s.dim)
    ),  # lifecycle.concepts' route
    Retriever("graph", lambda s: None if s.probe.recipe.use_graph else "off", _graph),
    Retriever("raw", _raw_off, _raw),
)

#: the order of the first hop's lists in the fusion (its sums run in this order): as before the lexical
#: retrievers moved ahead of the vector, so the scores stay bit for bit the same
FUSION_ORDER: tuple[str, ...] = (
    "bm25",
    "vector",
    "bm25_focus",
    "vector_focus",
    "bm25_user",
    "vector_user",
    "bm25_turns",
    "vector_turns",
    "traits",
    "concepts",
    "graph",
    "raw",
)


def in_fusion_order(lists: dict[str, list[Ranked]]) -> dict[str, list[Ranked]]:
    """``lists`` in :data:`FUSION_ORDER` (a list it does not name goes last, in the order found)."""
    rank = {name: i for i, name in enumerate(FUSION_ORDER)}
    return dict(sorted(lists.items(), key=lambda item: rank.get(item[0], len(rank))))


#: the second hop (``recall.hop``): the first hop's lexical searches again, with the words of its best hits
HOP_RETRIEVERS: tuple[Retriever, ...] = (
    Retriever(
        "bm25_hop",
        lambda s: None if s.probe.analysis.terms and s.probe.recipe.use_bm25 else "skipped: no new terms",
        lambda s: retrievers.bm25(s.conn, s.probe, s.settings.recall),
    ),
    Retriever(
        "bm25_turns_hop",
        lambda s: (
            None
            if s.probe.analysis.terms and retrievers.turns_wanted(s.probe)
            else "skipped: no new terms or no turn channel"
        ),
        lambda s: retrievers.turn_bm25(s.conn, s.probe, s.settings.recall),
    ),
)


__all__ = [
    "FUSION_ORDER",
    "HOP_RETRIEVERS",
    "NOT_APPLICABLE",
    "RETRIEVERS",
    "Retriever",
    "Search",
    "focus_text",
    "in_fusion_order",
]
