"""The first recall, fused in one SQL statement (seed 000 §6.1; STYLE.md habit 7): a reference.

Not on the product path (``recall/`` fuses in Python); ``bench/scale.py`` reports this statement's
plan and timings as "first recall db".

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

from neuromem.config import RecallSettings, TraitSettings
from neuromem.decay import recency_rate
from neuromem.store.db import Conn
from neuromem.store.decay import trait_confidence_sql, trait_decay_params
from neuromem.store.filters import CompiledFilter
from neuromem.store.memories import M_MEMORY_COLUMNS, row_to_memory
from neuromem.store.sql_parts import (
    ACTIVE_TRAIT_STAGES,
    AS_OF_SQL,
    CURRENT_SQL,
    nearest_in_partition,
    quote_term,
)
from neuromem.store.vectors import to_halfvec
from neuromem.types import MemoryType, ScoreBreakdown, SearchHit

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


VEC_TRAIT = sql.SQL("""
        vec_trait AS (
            SELECT t.id, 'trait'::text AS memory_type,
                   row_number() OVER (ORDER BY t.embedding <=> %(v)s::halfvec) AS rank
            FROM (SELECT mv.id, mv.embedding FROM mv_trait_decayed mv
                  WHERE mv.user_id = %(user_id)s AND mv.embedding IS NOT NULL
                    AND mv.trait_stage = ANY(%(stages)s) AND {decayed} > %(floor)s
                    AND EXISTS (SELECT 1 FROM memories m WHERE m.user_id = %(user_id)s AND m.id = mv.id AND m.memory_type = 'trait'
                                AND {scope})
                  ORDER BY mv.embedding <=> %(v)s::halfvec LIMIT %(k)s) t
        )""")
VEC_PARTITION = sql.SQL("""
        {name} AS (
            SELECT s.id, s.memory_type, row_number() OVER (ORDER BY s.distance) AS rank
            FROM ({nearest}) s
        )""")
K = sql.Placeholder("k")


def _vector_cte(memory_type: MemoryType, scope: sql.Composable) -> sql.Composable:
    if memory_type is MemoryType.TRAIT:
        # decayed confidence from the materialized view (seed 000 §5.1, §6.1)
        return VEC_TRAIT.format(decayed=trait_confidence_sql("mv", one_user=True), scope=scope)
    name = memory_type.value
    return VEC_PARTITION.format(
        name=sql.Identifier(f"vec_{name}"), nearest=nearest_in_partition(name, scope, K)
    )


LEXICAL_FILTER = sql.SQL("""m.user_id = %(user_id)s AND m.memory_type = ANY(%(types)s)
                    AND (m.memory_type <> 'trait' OR m.trait_stage = ANY(%(stages)s))
                    AND {scope}""")
LEX_ANY = sql.SQL("""
        lex_any AS MATERIALIZED (
            SELECT m.id, m.memory_type, m.fts FROM memories m
            WHERE m.fts @@ to_tsquery('simple', %(tsq)s) AND {where} LIMIT %(cap)s
        )""")
LEX_ANY_ROWS = sql.SQL("SELECT id, memory_type, fts FROM lex_any")
LEX_PAIRS = sql.SQL("""
        lex_pairs AS (
            SELECT m.id, m.memory_type, m.fts FROM memories m
            WHERE (SELECT count(*) FROM lex_any) >= %(cap)s
              AND m.fts @@ to_tsquery('simple', %(pairs)s) AND {where} LIMIT %(cap)s
        )""")
LEX_ANY_OR_PAIRS_ROWS = sql.SQL("""SELECT DISTINCT ON (id, memory_type) id, memory_type, fts
                         FROM ({any} UNION ALL SELECT id, memory_type, fts FROM lex_pairs) u""")
LEXICAL = sql.SQL("""
        lexical AS (
            SELECT s.id, s.memory_type, row_number() OVER (ORDER BY s.r DESC, s.id) AS rank
            FROM (SELECT c.id, c.memory_type, ts_rank(c.fts, to_tsquery('simple', %(tsq)s)) AS r
                  FROM ({candidates}) c
                  ORDER BY r DESC, c.id LIMIT %(k)s * 2) s
        )""")


def _lexical_cte(n_terms: int, scope: sql.Composable) -> list[sql.Composable]:
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
    where = LEXICAL_FILTER.format(scope=scope)
    ctes: list[sql.Composable] = [LEX_ANY.format(where=where)]
    candidates: sql.Composable = LEX_ANY_ROWS
    if n_terms > 1:
        ctes.append(LEX_PAIRS.format(where=where))
        candidates = LEX_ANY_OR_PAIRS_ROWS.format(any=LEX_ANY_ROWS)
    ctes.append(LEXICAL.format(candidates=candidates))
    return ctes


VECTOR_LIST = sql.SQL("SELECT id, memory_type, rank, 'vector' AS source FROM {}")
LEXICAL_LIST = sql.SQL("SELECT id, memory_type, rank, 'lexical' AS source FROM lexical")
RRF = sql.SQL("""
        ranked AS ({union}),
        rrf AS (
            SELECT id, memory_type, sum(1.0 / (%(rrf_k)s + rank)) AS rrf,
                   jsonb_object_agg(source, rank) AS ranks
            FROM ranked GROUP BY id, memory_type
        )""")
FUSED = sql.SQL("""SELECT *, rrf * (1 + recency + importance_bonus + stage_boost) AS final FROM (
        WITH {ctes}
        SELECT {columns}, r.rrf, r.ranks,
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
    ) x ORDER BY final DESC, id LIMIT %(limit)s""")


def fused_query(
    request: SearchRequest, settings: RecallSettings, dim: int, traits: TraitSettings
) -> tuple[sql.Composed | None, dict[str, Any]]:
    """The fused first-recall statement and its parameters, or None when there is nothing to search
    (``search`` runs it; the scale benchmark EXPLAINs it)."""
    validity = AS_OF_SQL if request.as_of is not None else CURRENT_SQL
    terms = list(dict.fromkeys(t for t in request.terms if t))
    lexemes = [quote_term(t) for t in terms]
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
        "pairs": " | ".join(
            f"{a} & {b}" for i, a in enumerate(lexemes[:_PAIR_TERMS]) for b in lexemes[i + 1 : _PAIR_TERMS]
        ),
    }
    scope: sql.Composable = validity
    if request.where is not None:
        scope = sql.SQL(" AND ").join([validity, request.where.clause])
        params.update(request.where.params)

    ctes: list[sql.Composable] = []
    lists: list[sql.Composable] = []
    if request.vector is not None:
        for memory_type in request.types:
            ctes.append(_vector_cte(memory_type, scope))
            lists.append(VECTOR_LIST.format(sql.Identifier(f"vec_{memory_type.value}")))
    if lexemes and request.types:
        ctes.extend(_lexical_cte(len(lexemes), scope))
        lists.append(LEXICAL_LIST)
    if not lists:
        return None, params
    ctes.append(RRF.format(union=sql.SQL(" UNION ALL ").join(lists)))
    return FUSED.format(ctes=sql.SQL(", ").join(ctes), columns=M_MEMORY_COLUMNS), params


def search(
    conn: Conn, request: SearchRequest, settings: RecallSettings, dim: int, traits: TraitSettings
) -> list[SearchHit]:
    """Run the fused recall and return hits with every score component."""
    query, params = fused_query(request, settings, dim, traits)
    if query is None:
        return []
    rows = conn.execute(query, params).fetchall()
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
