"""The ``Embedder`` protocol: one abstract method, everything else derived (STYLE habit 4).

An embedder maps texts to float32 rows of length ``dim``, L2-normalised, so a
dot product is a cosine similarity. Implementations only write
``embed_batch``; callers use ``embed_query`` and ``embed_passages``.

Input rule: every text must be a non-empty ``str`` (``InvalidInputError``
otherwise). Whitespace-only text is embedded as-is; deciding what is worth
embedding is the caller's job. Every provider failure becomes an
``EmbedderError``.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from types import TracebackType
from typing import Literal, Self

import numpy as np

from ..deadlines import model_work
from ..errors import EmbedderError, EmptyContentError, InvalidInputError

EmbedKind = Literal["query", "passage"]

__all__ = ["EmbedKind", "Embedder", "finish_vectors", "validate_texts"]


class Embedder(ABC):
    """Turns texts into L2-normalised float32 vectors.

    Subclasses set ``name`` and ``dim`` and implement ``embed_batch``::

        >>> from neuromem.embed import HashingEmbedder
        >>> e = HashingEmbedder(dim=64)
        >>> e.embed_passages(["tea", "coffee"]).shape
        (2, 64)
        >>> e.embed_query("tea").shape
        (64,)
    """

    name: str
    """Stable identifier of the model, recorded with every stored vector."""
    dim: int
    """Length of every vector this embedder returns."""
    default_batch_size: int = 64

    @abstractmethod
    def embed_batch(self, texts: Sequence[str], *, kind: EmbedKind) -> np.ndarray:
        """Embed ``texts`` in one provider call: float32, shape ``(len(texts), dim)``, unit rows.

        ``kind`` tells asymmetric models (e5) whether these are search queries or
        stored passages. Raises ``InvalidInputError`` for an empty text and
        ``EmbedderError`` when the provider fails.
        """

    def embed_query(self, text: str) -> np.ndarray:
        """One search query → a 1-d vector of length ``dim``."""
        with model_work():
            return self.embed_batch(validate_texts([text]), kind="query")[0]

    def embed_passages(self, texts: Sequence[str], batch_size: int | None = None) -> np.ndarray:
        """Many passages → ``(len(texts), dim)``, in batches of ``batch_size``; empty input → ``(0, dim)``."""
        items = validate_texts(texts)
        size = batch_size or self.default_batch_size
        if size < 1:
            raise InvalidInputError(f"batch_size must be at least 1, got {size}")
        if not items:
            return np.zeros((0, self.dim), dtype=np.float32)
        with model_work():  # a cold model's first pass is no database wait
            parts = [
                self.embed_batch(items[i : i + size], kind="passage") for i in range(0, len(items), size)
            ]
        return parts[0] if len(parts) == 1 else np.concatenate(parts, axis=0)

    def close(self) -> None:  # noqa: B027 - optional hook, most embedders hold nothing
        """Release network clients or models. Safe to call twice."""

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"{type(self).__name__}(name={self.name!r}, dim={self.dim})"


def validate_texts(texts: Sequence[str]) -> list[str]:
    """``texts`` as a list, or ``InvalidInputError`` naming the first unusable element."""
    if isinstance(texts, str):
        raise InvalidInputError("expected a sequence of texts, got a single str")
    items = list(texts)
    for i, text in enumerate(items):
        if not isinstance(text, str):
            raise InvalidInputError(f"text #{i} is {type(text).__name__}, expected str")
        if not text:
            raise EmptyContentError(f"text #{i} is empty; embedders need non-empty text")
    return items


def finish_vectors(raw: object, *, count: int, dim: int, source: str) -> np.ndarray:
    """Check a provider's vectors and L2-normalise them into float32 ``(count, dim)``.

    A wrong shape, a non-finite value or an all-zero row is an ``EmbedderError``
    naming ``source`` (provider and model), because storing it would corrupt
    recall silently.
    """
    try:
        matrix = np.asarray(raw, dtype=np.float32)
    except (TypeError, ValueError) as exc:
        raise EmbedderError(f"{source} returned vectors that are not numeric: {exc}") from None
    if matrix.ndim != 2 or matrix.shape[0] != count:
        raise EmbedderError(f"{source} returned shape {matrix.shape}, expected ({count}, {dim})")
    if matrix.shape[1] != dim:
        raise EmbedderError(
            f"{source} returned vectors of dimension {matrix.shape[1]}, expected {dim}; "
            "check the model and the configured embedding dimension"
        )
    if not np.isfinite(matrix).all():
        raise EmbedderError(f"{source} returned non-finite values (NaN or inf)")
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    if (norms == 0).any():
        raise EmbedderError(f"{source} returned an all-zero vector")
    return np.ascontiguousarray(matrix / norms, dtype=np.float32)
