"""The job table in ``lifecycle/jobs.py``'s docstring is the registry's, once (issue 25 item 8)."""

from __future__ import annotations

import re

from neuromem.lifecycle import jobs


def test_the_docstring_has_one_job_table_naming_every_job_in_order() -> None:
    doc = jobs.__doc__ or ""
    assert doc.count("what it does") == 1
    rows = re.findall(r"^([a-z_]+) {2,}(?:every|daily|weekly|hourly)", doc, flags=re.MULTILINE)
    assert rows == list(jobs.JOBS)
