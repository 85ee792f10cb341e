"""A sentence-transformers model loaded from a local directory — never from a hub.

Needs the optional extra: ``pip install 'neuromem[sentence-transformers]'``.
The model is loaded with ``local_files_only=True``, so a path that is not a
complete local model fails at once instead of reaching for the network
(MISSION decision 4).
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from ..errors import ConfigError, EmbedderError
from .base import Embedder, EmbedKind, finish_vectors, validate_texts

_EXTRA_HINT = "pip install 'neuromem[sentence-transformers]'"


def _import_sentence_transformer() -> Any:
    try:
        from sentence_transformers import SentenceTransformer
    except ImportError as exc:
        raise ImportError(
            f"the sentence-transformers embedder needs the optional extra: {_EXTRA_HINT}"
        ) from exc
    return SentenceTransformer


class SentenceTransformersEmbedder(Embedder):
    """Any sentence-transformers model saved on disk (``model.save(path)`` or a cloned repository).

    Asymmetric models: pass ``query_prompt`` / ``passage_prompt`` (for e5,
    ``"query: "`` and ``"passage: "``); when they are not given and the model's
    own configuration defines prompts named ``query`` and ``passage`` (or
    ``document``), those are used.

    >>> from neuromem.embed import SentenceTransformersEmbedder  # doctest: +SKIP
    >>> e = SentenceTransformersEmbedder("/models/bge-small-zh-v1.5")  # doctest: +SKIP
    >>> e.embed_query("我喜欢咖啡").shape  # doctest: +SKIP
    (512,)
    """

    default_batch_size = 32

    def __init__(
        self,
        model_path: str | Path,
        *,
        device: str | None = None,
        query_prompt: str | None = None,
        passage_prompt: str | None = None,
        batch_size: int = 32,
    ) -> None:
        SentenceTransformer = _import_sentence_transformer()
        path = Path(model_path).expanduser()
        if not path.is_dir():
            raise ConfigError(
                f"sentence-transformers model path {str(path)!r} is not a directory; "
                "neuromem loads these models from local files only, never from a hub"
            )
        try:
            self._model = SentenceTransformer(str(path), device=device, local_files_only=True)
        except Exception as exc:  # torch/transformers raise many types while loading
            raise EmbedderError(
                f"could not load sentence-transformers model from {str(path)!r}: {exc}"
            ) from exc
        dim = _model_dim(self._model)
        if not dim:
            raise EmbedderError(f"sentence-transformers model at {str(path)!r} does not report its dimension")
        self.dim = dim
        self.name = f"sentence-transformers:{path.name}"
        self.default_batch_size = batch_size
        prompts: dict[str, str] = dict(getattr(self._model, "prompts", None) or {})
        self._prompts: dict[str, str | None] = {
            "query": query_prompt if query_prompt is not None else prompts.get("query"),
            "passage": passage_prompt
            if passage_prompt is not None
            else prompts.get("passage", prompts.get("document")),
        }
        self._lock = threading.Lock()

    def embed_batch(self, texts: Sequence[str], *, kind: EmbedKind) -> np.ndarray:
        items = validate_texts(texts)
        if not items:
            return np.zeros((0, self.dim), dtype=np.float32)
        try:
            with self._lock:
                raw = self._model.encode(
                    items,
                    prompt=self._prompts[kind],
                    batch_size=self.default_batch_size,
                    normalize_embeddings=True,
                    convert_to_numpy=True,
                    show_progress_bar=False,
                )
        except Exception as exc:
            raise EmbedderError(f"{self.name} failed to embed {len(items)} text(s): {exc}") from exc
        return finish_vectors(raw, count=len(items), dim=self.dim, source=self.name)


def _model_dim(model: Any) -> int | None:
    for method in ("get_embedding_dimension", "get_sentence_embedding_dimension"):  # new name first
        getter = getattr(model, method, None)
        if callable(getter):
            value = getter()
            if value:
                return int(value)
    return None
