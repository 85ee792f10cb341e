"""Where settings come from, named without pydantic: the one place ``config.py`` and the CLI's fast
path to a running ``memctl serve`` read these names from (the fast path must not pay for
importing the settings machinery: it is most of a warm ``memctl search``).
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import NamedTuple

ENV_PREFIX = "NEUROMEM_"
CONFIG_FILE_VARIABLE = "NEUROMEM_CONFIG"
DEFAULT_CONFIG_FILE = Path(".neuromem") / "config.toml"  # under $HOME
DEFAULT_DATA_DIR = Path(".neuromem") / "pgdata"  # under $HOME: the embedded PostgreSQL's data
AUTO_START_VARIABLE = f"{ENV_PREFIX}SERVICE__AUTO_START"  # service.auto_start

#: short environment names → (section, field); the long form NEUROMEM_<SECTION>__<FIELD> wins
ALIASES: dict[str, tuple[str, str]] = {
    "NEUROMEM_DATABASE_URL": ("store", "database_url"),
    "NEUROMEM_DATA_DIR": ("store", "data_dir"),
    "NEUROMEM_EMBEDDING_DIM": ("store", "embedding_dim"),
    "NEUROMEM_EMBEDDER": ("embedder", "provider"),
    "NEUROMEM_EMBED_BASE_URL": ("embedder", "base_url"),
    "NEUROMEM_EMBED_API_KEY": ("embedder", "api_key"),
    "NEUROMEM_EMBED_MODEL": ("embedder", "model"),
    "NEUROMEM_LLM_BASE_URL": ("llm", "base_url"),
    "NEUROMEM_LLM_API_KEY": ("llm", "api_key"),
    "NEUROMEM_LLM_MODEL": ("llm", "model"),
}


def store_location(environ: Mapping[str, str], home: Path | None = None) -> tuple[Path, bool] | None:
    """``(store.data_dir, whether store.database_url is set)`` as ``Settings.from_env(environ)``
    resolves them, or None when a config file takes part (only the full settings can tell then)."""
    home = Path.home() if home is None else home
    if environ.get(CONFIG_FILE_VARIABLE) or (home / DEFAULT_CONFIG_FILE).exists():
        return None
    long_form = {key.upper(): value for key, value in environ.items() if key.upper().startswith(ENV_PREFIX)}

    def value(field: str) -> str | None:
        alias = next(name for name, target in ALIASES.items() if target == ("store", field))
        return long_form.get(f"{ENV_PREFIX}STORE__{field.upper()}", environ.get(alias))

    data_dir = value("data_dir")
    return (Path(data_dir) if data_dir else home / DEFAULT_DATA_DIR), bool(value("database_url"))


class ServiceFiles(NamedTuple):
    """The files of the service of one embedded data directory, beside that directory."""

    info: Path  # serve.json: where a running `memctl serve` listens, and its key
    lock: Path  # serve.lock: held by the running service, one per data directory
    log: Path  # serve.log: the output of a service a command started


def service_files(data_dir: Path) -> ServiceFiles:
    base = Path(data_dir).expanduser().parent
    return ServiceFiles(base / "serve.json", base / "serve.lock", base / "serve.log")


def service_auto_start(environ: Mapping[str, str]) -> bool:
    """``service.auto_start`` as the environment sets it (default true), parsed as pydantic does."""
    return environ.get(AUTO_START_VARIABLE, "true").strip().lower() not in (
        "0",
        "false",
        "no",
        "off",
        "f",
        "n",
    )


__all__ = [
    "ALIASES",
    "AUTO_START_VARIABLE",
    "CONFIG_FILE_VARIABLE",
    "DEFAULT_CONFIG_FILE",
    "DEFAULT_DATA_DIR",
    "ENV_PREFIX",
    "ServiceFiles",
    "service_auto_start",
    "service_files",
    "store_location",
]
