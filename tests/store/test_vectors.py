"""Vectors to and from pgvector: text literals in, the binary ``halfvec_send`` form out."""

from __future__ import annotations

import numpy as np
import psycopg

from neuromem.store.vectors import from_halfvec_send, to_halfvec


def test_halfvec_send_round_trip(db_url: str) -> None:
    vector = np.random.default_rng(3).normal(size=48).astype(np.float32)
    with psycopg.connect(db_url) as conn:
        sent = conn.execute("SELECT halfvec_send(%s::halfvec)", (to_halfvec(vector, 48),)).fetchone()[0]
        null = conn.execute("SELECT halfvec_send(NULL::halfvec)").fetchone()[0]
    got = from_halfvec_send(sent)
    assert got is not None and got.dtype == np.float32 and got.shape == (48,)
    np.testing.assert_array_equal(got, vector.astype(np.float16).astype(np.float32))  # halfvec precision
    assert from_halfvec_send(null) is None
