"""Issue 22 item 7: the offline detector compares embeddings on the embedder's own scale.

multilingual-e5-small finds unrelated sentences about 0.74 alike, so the fixed
``link_min_similarity`` 0.55 attached every memory of the demo to its one running trait. An
anisotropic embedder (every vector leaning one way, as e5's do) must not link unrelated memories.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pytest

from neuromem import Memory, Settings
from neuromem.embed.base import EmbedKind
from neuromem.embed.hashing import HashingEmbedder
from neuromem.reflect.calibration import SimilarityFloor, mean_pairwise_cosine, rescaled
from tests.conftest import TEST_DIM

from .helpers import by_content, day, say

U = "lin"


class LeaningEmbedder(HashingEmbedder):
    """The hashing embedder with every vector pulled towards one direction: unrelated texts ≈ 0.75 alike."""

    def embed_batch(self, texts: Sequence[str], *, kind: EmbedKind) -> np.ndarray:
        plain = super().embed_batch(texts, kind=kind)
        lean = np.zeros(self.dim, dtype=np.float32)
        lean[0] = 1.0
        leaning = plain * 0.5 + lean * 0.87
        return (leaning / np.linalg.norm(leaning, axis=1, keepdims=True)).astype(np.float32)


def test_the_floor_is_the_similarity_of_unrelated_text() -> None:
    plain, leaning = HashingEmbedder(dim=TEST_DIM), LeaningEmbedder(dim=TEST_DIM)
    flat = SimilarityFloor(lambda texts: plain.embed_passages(list(texts))).value
    tilted = SimilarityFloor(lambda texts: leaning.embed_passages(list(texts))).value
    assert flat < 0.2 and tilted > 0.6
    assert SimilarityFloor(None).value == 0.0 and SimilarityFloor(lambda texts: None).value == 0.0
    assert mean_pairwise_cosine(np.eye(3)) == 0.0 and mean_pairwise_cosine(np.ones((3, 2))) == pytest.approx(
        1.0
    )
    assert rescaled(0.74, 0.74) == 0.0 and rescaled(1.0, 0.74) == 1.0 and rescaled(0.55, 0.0) == 0.55


def test_an_anisotropic_embedder_links_no_unrelated_memory_to_a_trait(settings: Settings) -> None:
    with Memory(settings, embedder=LeaningEmbedder(dim=TEST_DIM)) as memory:
        say(memory, U, day(0), ["I went jogging in the park this morning"], session="s0")
        say(memory, U, day(1), ["Another jogging session along the river today"], session="s1")
        say(
            memory,
            U,
            day(1),
            [
                "Our dashboard failed with a Kafka error",
                "My sister is a nurse in Vancouver",
                "I drink green tea in the afternoon",
            ],
            session="s1",
        )
        say(memory, U, day(2), ["jogging again before breakfast, felt great"], session="s2")
        memory.reflect(user_id=U, now=day(2.5))
        [trait] = by_content(memory, U, "jogging")
        evidence = [e.content or "" for e in memory.trait(trait.id, user_id=U).supporting]
        assert len(evidence) == 3 and all("jogging" in words for words in evidence), evidence
