"""The forget SQL is a package of small modules, one per step, and a forget receipt has one
type from the table to the REST answer (issue 25 item 8)."""

from __future__ import annotations

import dataclasses
import importlib.util
from pathlib import Path

from neuromem import ForgetReceipt, Memory
from neuromem.store import forget as store_forget
from neuromem.store.forget import receipts as store_receipts
from neuromem.types import ForgetReceipt as ReceiptType

PACKAGE = Path(store_forget.__file__).parent


def test_forget_sql_is_split_into_modules_named_by_step() -> None:
    modules = {p.stem: len(p.read_text("utf-8").splitlines()) for p in PACKAGE.glob("*.py")}
    assert set(modules) == {
        "__init__",
        "work_sets",
        "seeds",
        "closure",
        "preview",
        "erase",
        "whole_user",
        "receipts",
    }
    assert max(modules.values()) < 300, modules


def test_the_reference_first_recall_statement_lives_in_bench_not_in_the_store() -> None:
    assert importlib.util.find_spec("neuromem.store.search") is None
    assert importlib.util.find_spec("bench.first_recall_sql") is not None


def test_one_receipt_type_from_the_table_to_the_public_api(memory: Memory) -> None:
    assert ForgetReceipt is ReceiptType
    assert not hasattr(store_forget, "ReceiptRow") and not hasattr(store_receipts, "ReceiptRow")
    added = memory.add("Ines keeps a spare key under the blue flowerpot", user_id="ines")[0].memory
    receipt = memory.forget(memory_id=added.id, user_id="ines")
    assert isinstance(receipt, ForgetReceipt) and receipt.proves(added.id)
    with memory.runtime.db.connection() as conn:
        stored = store_receipts.get_receipt(conn, "ines", receipt.id)
        listed = store_receipts.list_receipts(conn, "ines", 10)
    assert type(stored) is ForgetReceipt and [r.id for r in listed] == [receipt.id]
    # the store's row is the receipt minus what the pipeline did after the deletion
    assert stored == dataclasses.replace(receipt, traits_recomputed=0, traits_deleted=0, files_removed=0)
