"""Fuzz of the public API (issue #12 item 6): adversarial strings (NUL, lone surrogates, huge,
SQL), numbers (10**400, NaN, ±inf, 10**30), metadata nested deep, and malformed filters, into
``Memory.add / search / get_all / ingest / add_document / update / delete``.

The property, exactly: every call either succeeds or raises a ``NeuromemError`` — never any
other exception — and a call that raised wrote nothing (row counts of every table a call
writes are unchanged). Bounded: ``FUZZ_EXAMPLES`` examples, well under a minute.

``NEUROMEM_FUZZ_EXAMPLES=N`` runs more, ``NEUROMEM_FUZZ_SEED=1`` explores at random instead of
the fixed derandomized sequence, ``NEUROMEM_FUZZ_VERBOSE=1`` prints every rejection
(``bench/faults.py fuzz`` runs it that way).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

import psycopg
from hypothesis import HealthCheck, given
from hypothesis import settings as fuzz_settings
from hypothesis import strategies as st

from neuromem import Memory, NeuromemError, Settings

FUZZ_EXAMPLES = int(os.environ.get("NEUROMEM_FUZZ_EXAMPLES", "150"))
TABLES = (
    "memories",
    "memory_history",
    "memory_sources",
    "conversation_sessions",
    "conversation_messages",
    "raw_chunks",
    "graph_nodes",
    "graph_edges",
    "document_files",
)


class Deep(dict):  # type: ignore[type-arg]
    """``{"k": {"k": …}}`` nested ``depth`` levels, with a short repr (hypothesis prints examples)."""

    def __init__(self, depth: int) -> None:
        node: dict[str, Any] = {}
        for _ in range(depth - 1):
            node = {"k": node}
        super().__init__(k=node)
        self.depth = depth

    def __repr__(self) -> str:
        return f"Deep({self.depth})"


def _deep(depth: int) -> Deep:
    return Deep(depth)


NASTY_TEXT = [
    "\x00",
    "a\x00b",
    "\ud800",
    "ok \udfff",
    "x" * 25_000,
    "",
    "   ",
    "'; DROP TABLE memories;--",
    "%s %(x)s {}",
    "我对花生过敏",
    "\u200b",
    "\ufeff\n\t",
    "e\u0301",
    "🧠" * 10,
]
NASTY_NUMBERS = [
    10**400,
    -(10**400),
    10**30,
    2**63,
    -(2**63) - 1,
    float("nan"),
    float("inf"),
    -1,
    0,
    1.5,
    True,
]


def mostly(benign: st.SearchStrategy[Any], nasty: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    """Benign three times in four: each call has several arguments, and one bad one is enough to
    be rejected, so the success paths need benign values to be reached at all."""
    return st.one_of(benign, benign, benign, nasty)


plain = st.text(alphabet="abcdefg 我喜欢茶.", min_size=1, max_size=30).filter(str.strip)
texts = st.one_of(
    plain,
    plain,
    st.sampled_from(NASTY_TEXT),
    st.text(max_size=40),
    st.text(alphabet=st.characters(codec=None, categories=None), max_size=20),
)
numbers = st.one_of(st.sampled_from(NASTY_NUMBERS), st.integers(), st.floats())
scalars = st.one_of(texts, numbers, st.none(), st.booleans())
metadata = st.one_of(
    st.none(),
    st.sampled_from([_deep(10_000), _deep(40), {"\x00": 1}, {"k": "\x00"}, {"k": "\ud800"}, {1: "a"}, []]),
    st.recursive(
        scalars,
        lambda kids: st.lists(kids, max_size=3) | st.dictionaries(texts, kids, max_size=3),
        max_leaves=8,
    ),
)
filter_fields = st.sampled_from(
    [
        "category",
        "importance",
        "access_count",
        "created_at",
        "memory_type",
        "metadata.topic",
        "metadata.bad key",
        "file_id",
        "bogus",
        "AND",
        "OR",
        "NOT",
    ]
)
operators = st.sampled_from(["eq", "ne", "gt", "gte", "lt", "lte", "in", "nin", "contains", "like"])
filter_values = st.one_of(
    scalars,
    st.lists(scalars, max_size=3),
    st.dictionaries(operators, scalars, max_size=2),
    st.sampled_from([_deep(50), [{}], [{"category": "\x00"}]]),
)
filters = st.one_of(
    st.none(),
    st.dictionaries(filter_fields, filter_values, min_size=1, max_size=3),
    st.dictionaries(filter_fields, filter_values, min_size=1, max_size=3),
    texts,
    numbers,
)
user_ids = st.one_of(
    st.just("fuzz"),
    st.just("fuzz"),
    st.just("fuzz"),
    st.sampled_from(["", "bad user", "u\x00", "\ud800", "x" * 300]),
    texts,
)
limits = st.one_of(st.sampled_from([None, 1, 5, 0, -1, 10**30, 10**400, 1.5, "3"]), st.integers())
messages = st.one_of(
    st.lists(
        st.fixed_dictionaries(
            {
                "role": mostly(
                    st.sampled_from(["user", "assistant"]), st.sampled_from(["robot", "\x00", None])
                ),
                "content": texts,
            },
            optional={
                "metadata": mostly(st.none(), metadata),
                "name": mostly(plain, texts),
                "timestamp": mostly(st.just("2024-05-01T10:00:00Z"), scalars),
            },
        ),
        min_size=1,
        max_size=3,
    ),
    st.lists(st.fixed_dictionaries({"role": st.just("user"), "content": texts}), min_size=1, max_size=2),
    texts,
    numbers,
)


class KnownId:
    """The ``index``-th id added so far, resolved when the call runs (draws never depend on state)."""

    def __init__(self, ids: list[Any], index: int) -> None:
        self.ids, self.index = ids, index

    def __repr__(self) -> str:
        return f"KnownId({self.index})"


def _id(value: Any) -> Any:
    return value.ids[value.index % len(value.ids)] if isinstance(value, KnownId) else value


def _counts(url: str) -> tuple[int, ...]:
    with psycopg.connect(url) as conn:
        row = conn.execute("SELECT " + ", ".join(f"(SELECT count(*) FROM {t})" for t in TABLES)).fetchone()
    assert row is not None
    return tuple(row)


def _calls(m: Memory, ids: list[Any]) -> st.SearchStrategy[tuple[str, Callable[[], Any]]]:
    known = st.integers(0, 1000).map(lambda i: KnownId(ids, i))  # a memory that exists (or did)
    memory_ids = mostly(known, st.one_of(st.uuids(), texts, numbers))
    return st.one_of(
        st.builds(
            lambda c, u, md, imp, cat: (
                "add",
                lambda: m.add(c, user_id=u, metadata=md, importance=imp, category=cat),
            ),
            texts,
            user_ids,
            mostly(st.none(), metadata),
            mostly(st.none(), numbers),
            mostly(st.none(), texts),
        ),
        st.builds(
            lambda q, u, f, n: ("search", lambda: m.search(q, user_id=u, filters=f, limit=n)),
            texts,
            user_ids,
            mostly(st.none(), filters),
            mostly(st.none(), limits),
        ),
        st.builds(
            lambda u, f, n, o: ("get_all", lambda: m.get_all(user_id=u, filters=f, limit=n, offset=o)),
            user_ids,
            mostly(st.none(), filters),
            mostly(st.just(100), limits),
            mostly(st.just(0), limits),
        ),
        st.builds(
            lambda ms, u, s, md: ("ingest", lambda: m.ingest(ms, user_id=u, session_id=s, metadata=md)),
            messages,
            user_ids,
            mostly(st.none(), texts),
            mostly(st.none(), metadata),
        ),
        st.builds(
            lambda t, u, fn, md: (
                "add_document",
                lambda: m.add_document(t, user_id=u, file_name=fn, metadata=md),
            ),
            texts,
            user_ids,
            mostly(st.just("notes.md"), texts),
            mostly(st.none(), metadata),
        ),
        st.builds(
            lambda i, u, c, md, imp: (
                "update",
                lambda: m.update(_id(i), user_id=u, content=c, metadata=md, importance=imp),
            ),
            memory_ids,
            user_ids,
            st.one_of(st.none(), texts),
            mostly(st.none(), metadata),
            mostly(st.none(), numbers),
        ),
        st.builds(lambda i, u: ("delete", lambda: m.delete(_id(i), user_id=u)), memory_ids, user_ids),
    )


def test_public_api_answers_success_or_a_neuromem_error_and_a_rejection_writes_nothing(
    settings: Settings, db_url: str
) -> None:
    s = settings.with_updates(traits={"reflect_on_ingest": False})
    with Memory(s) as m:
        ids = [r.memory.id for r in m.add("seed memory about tea", user_id="fuzz")]
        outcomes: dict[str, int] = {}

        @settings_for_fuzz
        @given(data=st.data())
        def run(data: st.DataObject) -> None:
            name, call = data.draw(_calls(m, ids))
            before = _counts(db_url)
            try:
                result = call()
            except NeuromemError as exc:
                if os.environ.get("NEUROMEM_FUZZ_VERBOSE"):
                    print(name, type(exc).__name__, str(exc)[:100])
                outcomes[f"{name}: rejected"] = outcomes.get(f"{name}: rejected", 0) + 1
                assert _counts(db_url) == before, f"a rejected {name} wrote rows"
                return
            outcomes[f"{name}: ok"] = outcomes.get(f"{name}: ok", 0) + 1
            if name == "add":
                ids.extend(r.memory.id for r in result)

        run()
    if os.environ.get("NEUROMEM_FUZZ_VERBOSE"):
        print(sorted(outcomes.items()))
    assert sum(outcomes.values()) >= FUZZ_EXAMPLES // 2  # the fuzz really ran
    assert any(k.endswith("rejected") for k in outcomes) and any(k.endswith("ok") for k in outcomes)


settings_for_fuzz = fuzz_settings(
    max_examples=FUZZ_EXAMPLES,
    deadline=None,
    derandomize=os.environ.get("NEUROMEM_FUZZ_SEED") is None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
