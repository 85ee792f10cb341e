"""The store is the only SQL home, and its statements are named queries composed with
``psycopg.sql`` (issue 13 item 2): read from the source with ``ast``, no database needed."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import neuromem

SRC = Path(neuromem.__file__).resolve().parent
STORE = SRC / "store"
# modules whose statements are not yet named constants (empty: every store module is converted)
PENDING: set[str] = set()
# functions not yet converted in converted modules (empty)
PENDING_FUNCTIONS: dict[str, set[str]] = {}
# SQL words, upper case as the store writes them; message text is written in lower case
SQL_WORDS = re.compile(
    r"\b(SELECT|INSERT|UPDATE|DELETE|WHERE|FROM|SET|AND|OR|ORDER BY|LIMIT|RETURNING|ALTER)\b"
)


def _store_modules() -> list[Path]:
    return [p for p in sorted(STORE.glob("*.py")) if p.name not in PENDING]


def _checked(path: Path) -> ast.Module:
    """The module's syntax tree without the bodies of its pending functions."""
    tree = ast.parse(path.read_text("utf-8"))
    pending = PENDING_FUNCTIONS.get(path.name, set())
    tree.body = [n for n in tree.body if not (isinstance(n, ast.FunctionDef) and n.name in pending)]
    return tree


def _executes(tree: ast.AST) -> list[ast.Call]:
    return [
        node
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr in ("execute", "executemany")
        and node.args
    ]


def _is_named_query(node: ast.expr) -> bool:
    """A statement named elsewhere: a constant or variable, a choice between two, or a named template's ``format``."""
    if isinstance(node, ast.Name | ast.Attribute | ast.Subscript):
        return True
    if isinstance(node, ast.IfExp):
        return _is_named_query(node.body) and _is_named_query(node.orelse)
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr in ("format", "join")
    ):
        template = node.func.value  # a named template, or sql.SQL(NAME) where psycopg is imported late
        if isinstance(template, ast.Call) and len(template.args) == 1:
            template = template.args[0]
        return isinstance(template, ast.Name | ast.Attribute)
    return False


def _text_parts(node: ast.AST) -> str:
    return " ".join(
        n.value for n in ast.walk(node) if isinstance(n, ast.Constant) and isinstance(n.value, str)
    )


def _glued_sql(tree: ast.AST) -> list[int]:
    """Lines where SQL text is built as a string: an f-string, ``+`` or ``%`` on text with SQL words."""
    lines = []
    for node in ast.walk(tree):
        glued = isinstance(node, ast.JoinedStr) or (
            isinstance(node, ast.BinOp)
            and isinstance(node.op, ast.Add | ast.Mod)
            and any(
                isinstance(side, ast.Constant | ast.JoinedStr) and isinstance(getattr(side, "value", ""), str)
                for side in (node.left, node.right)
            )
        )
        if glued and SQL_WORDS.search(_text_parts(node)):
            lines.append(node.lineno)
    return lines


def test_store_statements_are_named_queries() -> None:
    inline = []
    for path in _store_modules():
        for call in _executes(_checked(path)):
            if not _is_named_query(call.args[0]):
                inline.append(f"{path.name}:{call.lineno}")
    assert not inline, f"statements written inline at execute(): {inline}; name them at module level"


def test_store_builds_no_sql_from_strings() -> None:
    glued = [f"{path.name}:{line}" for path in _store_modules() for line in _glued_sql(_checked(path))]
    assert not glued, f"SQL glued from strings (f-string, + or %): {glued}; compose with psycopg.sql"


def test_no_module_outside_the_store_executes_sql() -> None:
    outside = []
    for path in sorted(SRC.rglob("*.py")):
        if STORE in path.parents:
            continue
        outside += [
            f"{path.relative_to(SRC)}:{call.lineno}" for call in _executes(ast.parse(path.read_text("utf-8")))
        ]
    assert not outside, f"SQL executed outside neuromem.store: {outside}"


def test_the_checks_catch_what_they_forbid() -> None:
    """The checks above can fail: each catches a sample of what it forbids and passes its fixed form."""
    bad = ast.parse(
        'def f(conn, t):\n    conn.execute(f"SELECT * FROM {t}")\n    conn.execute("SELECT 1 " + "LIMIT 1")\n'
    )
    assert [c.lineno for c in _executes(bad) if not _is_named_query(c.args[0])] == [2, 3]
    assert _glued_sql(bad) == [2, 3]
    good = ast.parse(
        'Q = sql.SQL("SELECT * FROM {t}")\ndef f(conn, t):\n    conn.execute(Q.format(t=sql.Identifier(t)))\n'
    )
    assert not [c for c in _executes(good) if not _is_named_query(c.args[0])]
    assert not _glued_sql(good)
