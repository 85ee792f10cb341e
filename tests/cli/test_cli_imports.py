"""The command line imports only the public ``neuromem`` package, and lazily (issue 13 item 4,
issue 12 item 10): ``memctl --help`` or a command sent to a service loads no store, no recall
pipeline and no model."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import neuromem

SRC = Path(neuromem.__file__).resolve().parent
# the other edges over the library, which `memctl serve` / `memctl mcp` start (optional extra `service`)
EDGES = {"api", "mcp"}


def test_cli_modules_import_only_from_neuromem() -> None:
    for path in sorted((SRC / "cli").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if isinstance(node, ast.ImportFrom):
                if node.level == 1 or (node.module or "").startswith("neuromem.cli"):  # the cli's own modules
                    continue
                if node.level == 2 and (node.module or "").split(".")[0] in EDGES:
                    continue
                assert node.level == 0 and (node.module == "neuromem" or not node.module.startswith("neuromem")), (
                    f"{path.name}: from {'.' * node.level}{node.module} import …")
            elif isinstance(node, ast.Import):
                assert all(not a.name.startswith("neuromem") for a in node.names), path.name


def test_loading_the_command_line_loads_no_engine() -> None:
    code = ("import sys; from neuromem.cli.main import cli; "
            "print(' '.join(sorted(m for m in sys.modules if m.split('.')[0] in ('neuromem', 'numpy', 'psycopg', 'torch'))))")  # fmt: skip
    loaded = set(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split())
    assert not loaded & {"neuromem.memory", "neuromem.core", "neuromem.store.db", "numpy", "psycopg", "torch"}, loaded


def test_public_names_are_listed_once_and_resolve() -> None:
    tree = ast.parse((SRC / "__init__.py").read_text("utf-8"))
    typed: dict[str, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.If):  # the TYPE_CHECKING block: what type checkers see
            for stmt in node.body:
                if isinstance(stmt, ast.ImportFrom):
                    typed.update({a.name: "." + (stmt.module or "") for a in stmt.names})
    assert typed == neuromem._EXPORTS
    assert set(neuromem.__all__) == {*neuromem._EXPORTS, "__version__"}
    for name in neuromem._EXPORTS:
        assert getattr(neuromem, name) is not None
