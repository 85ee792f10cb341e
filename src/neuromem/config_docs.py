"""The settings reference, generated from ``Settings`` itself so the docs cannot drift.

``docs/configuration.md`` is this module's output (``memctl config --reference``); a test
compares the two.
"""

from __future__ import annotations

from pydantic import BaseModel

from .config import _ALIASES, Settings


def reference_markdown() -> str:
    aliases = {target: name for name, target in _ALIASES.items()}
    lines = [
        "# Configuration reference",
        "",
        "Generated from `neuromem.Settings` by `memctl config --reference`; do not edit by hand.",
        "",
        "Every field can be set in code (`Settings(store={...})`) or, where settings are read from the",
        "environment (`memctl`, `Memory.from_env()`), as `NEUROMEM_<SECTION>__<FIELD>`.",
        "",
    ]
    defaults = Settings()
    for section_name, section_field in Settings.model_fields.items():
        section: BaseModel = getattr(defaults, section_name)
        doc = (type(section).__doc__ or "").strip().splitlines()[0] if type(section).__doc__ else ""
        lines += [f"## `{section_name}`", "", doc, "", "| field | default | environment |", "| --- | --- | --- |"]
        for name in type(section).model_fields:
            value = getattr(section, name)
            shown = "(home)/.neuromem/pgdata" if name == "data_dir" else repr(value)
            env = f"`NEUROMEM_{section_name.upper()}__{name.upper()}`"
            alias = aliases.get((section_name, name))
            if alias:
                env += f", `{alias}`"
            lines.append(f"| `{name}` | `{shown}` | {env} |")
        lines.append("")
        del section_field
    return "\n".join(lines).rstrip() + "\n"
