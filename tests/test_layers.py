"""The package's import structure (issue 25 items 6 and 7): one import-linter ``layers`` contract
places every top-level module, and no module imports itself back through others — the command
line's modules included, which ``cli.main`` registers instead of them importing it."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import grimp

import neuromem

ROOT = Path(__file__).resolve().parents[1]
SRC = Path(neuromem.__file__).resolve().parent


def _graph() -> grimp.ImportGraph:
    return grimp.build_graph("neuromem", exclude_type_checking_imports=True)


def test_every_top_level_module_has_a_layer() -> None:
    """A module outside every layer would be free to import upwards: each one is placed."""
    [contract] = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["tool"]["importlinter"][
        "contracts"
    ]
    assert contract["type"] == "layers"
    placed = {
        name.strip().removeprefix("neuromem.")
        for layer in contract["layers"]
        for name in re.split(r"[|:]", layer)
    }
    modules = {p.stem for p in SRC.glob("*.py") if p.stem != "__init__"}
    packages = {p.parent.name for p in SRC.glob("*/__init__.py")}
    assert modules | packages - {"demo_data"} == placed, (modules | packages) ^ placed  # demo_data: JSON only


def test_no_module_imports_itself_back() -> None:
    """No import circle anywhere in the package (run-time imports, lazy ones included)."""
    graph = _graph()
    edges = {m: graph.find_modules_directly_imported_by(m) for m in graph.modules}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    circles: list[list[str]] = []

    def visit(module: str) -> None:  # Tarjan's strongly connected components
        index[module] = low[module] = len(index)
        stack.append(module)
        for imported in edges[module]:
            if imported not in index:
                visit(imported)
                low[module] = min(low[module], low[imported])
            elif imported in stack:
                low[module] = min(low[module], index[imported])
        if low[module] == index[module]:
            component = [stack.pop()]
            while component[-1] != module:
                component.append(stack.pop())
            if len(component) > 1:
                circles.append(sorted(component))

    for module in sorted(edges):
        if module not in index:
            visit(module)
    assert not circles, circles


def test_command_modules_never_import_the_main_module() -> None:
    """``memctl``'s command modules export ``register_commands``; ``cli.main`` calls each one."""
    from neuromem.cli import main

    graph = _graph()
    for name in main.COMMAND_MODULES:
        module = f"neuromem.cli.{name}"
        assert "neuromem.cli.main" not in graph.find_modules_directly_imported_by(module), module
        assert callable(__import__(module, fromlist=["register_commands"]).register_commands)
    on_disk = {p.stem for p in (SRC / "cli").glob("*_command*.py")}
    assert on_disk == set(main.COMMAND_MODULES), on_disk ^ set(main.COMMAND_MODULES)
