"""Issue 23 item 4: raw chunks at rest are AES-GCM ciphertext under a per-user key that forgetting
the user destroys (crypto-shredding); reading them back is transparent."""

from __future__ import annotations

import shutil
from pathlib import Path

import psycopg
import pytest
from cryptography.exceptions import InvalidTag

from neuromem import ForgetReceipt, Memory, Settings
from neuromem.store.raw_chunks import ENCRYPTED, unseal

WORDS = "my safe deposit box number is 4471 at the harbour branch"


def _chunk_rows(url: str, user_id: str) -> list[tuple]:
    with psycopg.connect(url) as conn:
        return conn.execute(
            "SELECT sha256, compression, data, path, key_id FROM raw_chunks WHERE user_id = %s", (user_id,)
        ).fetchall()


def test_chunks_are_ciphertext_at_rest_and_read_back_as_text(memory: Memory, db_url: str) -> None:
    report = memory.ingest(
        [{"role": "user", "content": f"Remember: {WORDS}."}], user_id="ana", session_id="s1"
    )
    rows = _chunk_rows(db_url, "ana")
    assert rows and all(r[1] == ENCRYPTED and r[4] is not None for r in rows)
    assert all(b"harbour" not in bytes(r[2]) for r in rows)  # zstd alone leaves short text readable
    fact = next(r.memory for r in report.results if "4471" in r.memory.content)
    assert any(WORDS in q for q in memory.sources(fact.id, user_id="ana").quotes)  # decrypted on read
    assert memory.search("safe deposit box harbour", user_id="ana")  # full text still finds it
    with psycopg.connect(db_url) as conn:  # one key per user, and no other user can open ana's chunks
        keys = conn.execute("SELECT user_id, key FROM raw_chunk_keys").fetchall()
    assert [k[0] for k in keys] == ["ana"]
    with pytest.raises(InvalidTag):
        unseal(b"\1" * 32, rows[0][0].strip(), bytes(rows[0][2]))


def test_forgetting_a_user_shreds_the_copies_of_their_chunk_files(
    settings: Settings, tmp_path: Path, db_url: str
) -> None:
    chunk_dir, backup = tmp_path / "chunks", tmp_path / "backup"
    with Memory(settings.with_updates(ingest={"raw_chunk_dir": str(chunk_dir)})) as m:
        m.ingest([{"role": "user", "content": f"Remember: {WORDS}."}], user_id="ana", session_id="s1")
        m.ingest(
            [{"role": "user", "content": "I water the ferns on Sundays."}], user_id="ben", session_id="s1"
        )
        shutil.copytree(chunk_dir, backup)  # a file-system backup taken before the forget
        ana_files = [Path(r[3]) for r in _chunk_rows(db_url, "ana")]
        receipt = m.forget(user_id="ana", everything=True)
        assert isinstance(receipt, ForgetReceipt) and receipt.counts.get("raw_chunk_keys") == 1
        assert not any(p.exists() for p in ana_files)
        with psycopg.connect(db_url) as conn:
            left = [bytes(r[0]) for r in conn.execute("SELECT key FROM raw_chunk_keys").fetchall()]
        assert len(left) == 1  # ben's key only
        copies = [backup / p.relative_to(chunk_dir) for p in ana_files]
        for copy in copies:  # the backup still holds the files, and nothing left can open them
            blob = copy.read_bytes()
            assert b"harbour" not in blob
            for key in left:
                with pytest.raises(InvalidTag):
                    unseal(key, copy.stem, blob)
        assert m.get_all(user_id="ben")  # the other user is untouched
