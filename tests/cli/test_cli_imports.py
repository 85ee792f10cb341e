"""The command line imports only the public doors — ``neuromem``, ``neuromem.admin`` and
``neuromem.service`` — and lazily (issue 13 item 4, issue 12 item 10, issue 25 item 5): ``memctl
--help`` or a command sent to a service loads no store, no recall pipeline and no model."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import neuromem

SRC = Path(neuromem.__file__).resolve().parent
DOORS = {"neuromem", "neuromem.admin", "neuromem.service"}  # the public modules the CLI may import


def test_cli_modules_import_only_the_public_doors() -> None:
    for path in sorted((SRC / "cli").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if isinstance(node, ast.ImportFrom):
                if node.level == 1 or (node.module or "").startswith("neuromem.cli"):  # the cli's own modules
                    continue
                assert node.level == 0 and (node.module in DOORS or not node.module.startswith("neuromem")), (
                    f"{path.name}: from {'.' * node.level}{node.module} import …"
                )
            elif isinstance(node, ast.Import):
                assert all(not a.name.startswith("neuromem") for a in node.names), path.name


def test_loading_the_command_line_loads_no_engine() -> None:
    code = (
        "import sys; from neuromem.cli.main import cli; import neuromem.admin, neuromem.service; "
        "print(' '.join(sorted(m for m in sys.modules if m.split('.')[0] in ('neuromem', 'numpy', 'psycopg', 'torch'))))"
    )
    loaded = set(
        subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, check=True
        ).stdout.split()
    )
    assert not loaded & {
        "neuromem.memory",
        "neuromem.core",
        "neuromem.store.db",
        "numpy",
        "psycopg",
        "torch",
    }, loaded
