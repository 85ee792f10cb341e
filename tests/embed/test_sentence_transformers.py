from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from neuromem.errors import ConfigError

HAS_ST = importlib.util.find_spec("sentence_transformers") is not None


@pytest.mark.skipif(HAS_ST, reason="sentence-transformers is installed")
def test_missing_extra_names_the_install_command(tmp_path: Path) -> None:
    from neuromem.embed import SentenceTransformersEmbedder

    with pytest.raises(ImportError, match=r"neuromem\[sentence-transformers\]"):
        SentenceTransformersEmbedder(tmp_path)


def test_missing_local_path_is_config_error(tmp_path: Path) -> None:
    pytest.importorskip("sentence_transformers")
    from neuromem.embed import SentenceTransformersEmbedder

    with pytest.raises(ConfigError, match="local files only"):
        SentenceTransformersEmbedder(tmp_path / "nowhere")
