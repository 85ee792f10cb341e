"""Turns → RawChunks and spans → ``raw_refs`` (seed 003 §3.0, R2G-1).

Each turn's text is kept whole as one content-addressed chunk; a turn longer than
``ingest.raw_chunk_max_chars`` is cut at sentence ends into several. A span of a
turn maps to ``{"sha256", "offset", "length"}`` in the chunk that holds its start.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..store.raw_chunks import RawChunk, sha256_of
from ..text.tokenize import search_text
from .rules import split_sentences


@dataclass(frozen=True, slots=True)
class TurnChunks:
    """The chunks of one turn: ``(start offset in the turn, chunk)`` in order."""

    pieces: tuple[tuple[int, RawChunk], ...]

    @property
    def first_sha(self) -> str:
        return self.pieces[0][1].sha256

    def ref(self, span: tuple[int, int]) -> dict[str, Any]:
        start, end = span
        for offset, chunk in reversed(self.pieces):
            if start >= offset:
                length = min(end, offset + len(chunk.text)) - start
                return {"sha256": chunk.sha256, "offset": start - offset, "length": max(0, length)}
        offset, chunk = self.pieces[0]
        return {"sha256": chunk.sha256, "offset": 0, "length": min(end - start, len(chunk.text))}


def _chunk(text: str) -> RawChunk:
    return RawChunk(sha256_of(text), text, search_text(text))


def chunk_turn(text: str, max_chars: int) -> TurnChunks:
    """Cut a turn into chunks of at most ``max_chars`` characters, at sentence ends when possible."""
    if len(text) <= max_chars:
        return TurnChunks(((0, _chunk(text)),))
    pieces: list[tuple[int, RawChunk]] = []
    start = 0
    cut = 0
    for _a, b in split_sentences(text):
        if b - start > max_chars and cut > start:
            pieces.append((start, _chunk(text[start:cut])))
            start = cut
        while b - start > max_chars:  # one sentence longer than a chunk
            pieces.append((start, _chunk(text[start : start + max_chars])))
            start += max_chars
        cut = b
    if start < len(text):
        pieces.append((start, _chunk(text[start:])))
    return TurnChunks(tuple(pieces))
