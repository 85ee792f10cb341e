"""The first recall, fused in one SQL statement (seed 000 §6.1; STYLE.md habit 7).

Per-type vector top-k (HNSW with iterative scans, rows without embeddings skipped, types the
user has no rows of skipped), plus full-text rank (ts_rank: half the cost of ts_rank_cd at 100k
rows per user, and short memories gain little from cover density) over the jieba-segmented
tokens of a bounded candidate set (see ``_lexical_cte``), fused by RRF and scored::

    final = rrf · (1 + recency + importance + stage_boost)
    recency    = w_r · exp(−age_days / (τ_type · (1 + arousal · arousal_factor)))   (neuromem.decay)
    importance = w_i · importance
    stage      = core 0.25 | established 0.15 | emerging 0.05 (traits only)

Traits come from ``mv_trait_decayed`` (emerging/established/core, decayed confidence
above the floor, computed now with the rates of the settings: ``store.decay``). Only currently valid memories are returned, or with ``as_of`` those
known and valid at that moment (seed 000 §6.3).
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from psycopg import sql

from ..config import RecallSettings, TraitSettings
from ..decay import recency_rate
from ..types import MemoryType, ScoreBreakdown, SearchHit
from .db import Conn
from .decay import trait_confidence_sql, trait_decay_params
from .filters import CompiledFilter
from .memories import SELECT_COLUMNS, row_to_memory
from .sql_parts import ACTIVE_TRAIT_STAGES, AS_OF, CURRENT, named_filter, nearest_in_partition, quote_term
from .vectors import to_halfvec

# shared with the recall queries (store.sql_parts); the private names stay for this module's SQL
_CURRENT = CURRENT
_AS_OF = AS_OF
_quote_term = quote_term
_named = named_filter

# full text: the OR match brings at most per_type_k × this many candidate rows
_MATCH_CANDIDATES = 25
# rows holding two of the terms are looked for among the first this many terms (28 pairs)
_PAIR_TERMS = 8


@dataclass(frozen=True, slots=True)
class SearchRequest:
    user_id: str
    vector: np.ndarray | None
    terms: Sequence[str]
    types: Sequence[MemoryType]
    limit: int
    as_of: dt.datetime | None = None
    where: CompiledFilter | None = None


def _vector_cte(memory_type: MemoryType, validity: str, extra: str) -> str:
    if memory_type is MemoryType.TRAIT:
        # decayed confidence from the materialized view (seed 000 §5.1, §6.1)
        return f"""
        vec_trait AS (
            SELECT t.id, 'trait'::text AS memory_type,
                   row_number() OVER (ORDER BY t.embedding <=> %(v)s::halfvec) AS rank
            FROM (SELECT mv.id, mv.embedding FROM mv_trait_decayed mv
                  WHERE mv.user_id = %(user_id)s AND mv.embedding IS NOT NULL
                    AND mv.trait_stage = ANY(%(stages)s) AND {trait_confidence_sql('mv')} > %(floor)s
                    AND EXISTS (SELECT 1 FROM memories m WHERE m.id = mv.id AND m.memory_type = 'trait'
                                AND {validity} {extra})
                  ORDER BY mv.embedding <=> %(v)s::halfvec LIMIT %(k)s) t
        )"""
    name = memory_type.value
    return f"""
        vec_{name} AS (
            SELECT s.id, s.memory_type, row_number() OVER (ORDER BY s.distance) AS rank
            FROM ({nearest_in_partition(name, f"{validity} {extra}", "%(k)s")}) s
        )"""


def _lexical_cte(n_terms: int, validity: str, extra: str) -> list[str]:
    """Full text: ``ts_rank`` of the OR of the query terms over a bounded candidate set.

    Ranking every match costs a heap fetch and a ``ts_rank`` per row: thousands for a common
    word (45 ms at 100k rows for one user), nearly all of them tied and out of the top ``2k``.
    So the OR match fetches at most ``cap`` rows (the GIN match is cheap, the LIMIT stops the
    heap fetches; the bitmap visits rows in physical order, oldest first for an append-mostly
    table, which is also how the rank breaks ties). Only when the cap is reached, one GIN
    intersection adds every row holding two or more of the terms wherever it lies. The ranking
    is exact whenever the terms match fewer than ``cap`` rows; past that, only rows holding a
    single term (several times) beyond the first ``cap`` matches can be missed.
    """
    where = f"""m.user_id = %(user_id)s AND m.memory_type = ANY(%(types)s)
                    AND (m.memory_type <> 'trait' OR m.trait_stage = ANY(%(stages)s))
                    AND {validity} {extra}"""
    ctes = [f"""
        lex_any AS MATERIALIZED (
            SELECT m.id, m.memory_type, m.fts FROM memories m
            WHERE m.fts @@ to_tsquery('simple', %(tsq)s) AND {where} LIMIT %(cap)s
        )"""]
    candidates = "SELECT id, memory_type, fts FROM lex_any"
    if n_terms > 1:
        ctes.append(f"""
        lex_pairs AS (
            SELECT m.id, m.memory_type, m.fts FROM memories m
            WHERE (SELECT count(*) FROM lex_any) >= %(cap)s
              AND m.fts @@ to_tsquery('simple', %(pairs)s) AND {where} LIMIT %(cap)s
        )""")
        candidates = f"""SELECT DISTINCT ON (id, memory_type) id, memory_type, fts
                         FROM ({candidates} UNION ALL SELECT id, memory_type, fts FROM lex_pairs) u"""
    ctes.append(f"""
        lexical AS (
            SELECT s.id, s.memory_type, row_number() OVER (ORDER BY s.r DESC, s.id) AS rank
            FROM (SELECT c.id, c.memory_type, ts_rank(c.fts, to_tsquery('simple', %(tsq)s)) AS r
                  FROM ({candidates}) c
                  ORDER BY r DESC, c.id LIMIT %(k)s * 2) s
        )""")
    return ctes


def fused_query(
    request: SearchRequest, settings: RecallSettings, dim: int, traits: TraitSettings
) -> tuple[sql.SQL | None, dict[str, Any]]:
    """The fused first-recall statement and its parameters, or None when there is nothing to search
    (``search`` runs it; the scale benchmark EXPLAINs it)."""
    validity = _AS_OF if request.as_of is not None else _CURRENT
    terms = list(dict.fromkeys(t for t in request.terms if t))
    lexemes = [_quote_term(t) for t in terms]
    params: dict[str, Any] = {
        "user_id": request.user_id,
        "k": settings.per_type_k,
        "limit": request.limit,
        "rrf_k": settings.rrf_k,
        "stages": list(ACTIVE_TRAIT_STAGES),
        "floor": settings.trait_confidence_floor,
        "types": [t.value for t in request.types],
        "as_of": request.as_of,
        "w_rec": settings.recency_weight,
        "recency_rates": json.dumps({t.value: recency_rate(t, settings) for t in MemoryType}),
        **trait_decay_params(traits, None),
        "arousal": settings.arousal_factor,
        "w_imp": settings.importance_weight,
        "b_core": settings.stage_boost_core,
        "b_est": settings.stage_boost_established,
        "b_emg": settings.stage_boost_emerging,
        "v": None if request.vector is None else to_halfvec(request.vector, dim),
        "tsq": " | ".join(lexemes),
        "cap": settings.per_type_k * _MATCH_CANDIDATES,
        "pairs": " | ".join(f"{a} & {b}" for i, a in enumerate(lexemes[:_PAIR_TERMS])
                            for b in lexemes[i + 1 : _PAIR_TERMS]),
    }  # fmt: skip
    extra = ""
    if request.where is not None:
        # the filter's positional params are rendered into named ones
        extra_sql, extra_params = _named(request.where)
        extra = "AND " + extra_sql
        params.update(extra_params)

    ctes: list[str] = []
    lists = []
    if request.vector is not None:
        for memory_type in request.types:
            ctes.append(_vector_cte(memory_type, validity, extra))
            lists.append(f"SELECT id, memory_type, rank, 'vector' AS source FROM vec_{memory_type.value}")
    if lexemes and request.types:
        ctes.extend(_lexical_cte(len(lexemes), validity, extra))
        lists.append("SELECT id, memory_type, rank, 'lexical' AS source FROM lexical")
    if not lists:
        return None, params
    union = " UNION ALL ".join(lists)
    ctes.append(f"""
        ranked AS ({union}),
        rrf AS (
            SELECT id, memory_type, sum(1.0 / (%(rrf_k)s + rank)) AS rrf,
                   jsonb_object_agg(source, rank) AS ranks
            FROM ranked GROUP BY id, memory_type
        )""")
    query = f"""
        WITH {", ".join(ctes)}
        SELECT {_prefixed_columns()}, r.rrf, r.ranks,
               neuromem_decay(%(w_rec)s, (%(recency_rates)s::jsonb ->> m.memory_type)::float8,
                   greatest(0, coalesce((m.metadata->'emotion'->>'arousal')::float, 0)) * %(arousal)s,
                   coalesce(m.valid_at, m.created_at), now()) AS recency,
               %(w_imp)s * coalesce(m.importance, 0.5) AS importance_bonus,
               CASE WHEN m.memory_type = 'trait' THEN
                   CASE m.trait_stage WHEN 'core' THEN %(b_core)s WHEN 'established' THEN %(b_est)s
                                      WHEN 'emerging' THEN %(b_emg)s ELSE 0 END
               ELSE 0 END AS stage_boost
        FROM rrf r JOIN memories m ON m.id = r.id AND m.memory_type = r.memory_type
        WHERE m.user_id = %(user_id)s
    """
    outer = f"SELECT *, rrf * (1 + recency + importance_bonus + stage_boost) AS final FROM ({query}) x " \
            "ORDER BY final DESC, id LIMIT %(limit)s"  # fmt: skip
    return sql.SQL(outer), params


def search(
    conn: Conn, request: SearchRequest, settings: RecallSettings, dim: int, traits: TraitSettings
) -> list[SearchHit]:
    """Run the fused recall and return hits with every score component."""
    query, params = fused_query(request, settings, dim, traits)
    if query is None:
        return []
    rows = conn.execute(query, params).fetchall()  # type: ignore[arg-type]
    return [
        SearchHit(
            memory=row_to_memory(r),
            score=ScoreBreakdown(
                rrf=float(r["rrf"]),
                recency=float(r["recency"]),
                importance=float(r["importance_bonus"]),
                stage_boost=float(r["stage_boost"]),
                final=float(r["final"]),
                ranks={k: int(v) for k, v in (r["ranks"] or {}).items()},
            ),
        )
        for r in rows
    ]


def _prefixed_columns() -> str:
    cols = [c.strip() for c in SELECT_COLUMNS.replace("\n", " ").split(",")]
    out = []
    for col in cols:
        if col.startswith("(embedding"):
            out.append("(m.embedding IS NOT NULL) AS has_embedding")
        elif col:
            out.append(f"m.{col}")
    return ", ".join(out)
