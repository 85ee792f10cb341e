"""Procedural memory (seed 004 §2.1 Layer 3, §5.3): how a task was done successfully.

A procedure is a ``fact`` with category ``procedure`` (MISSION decision 6) whose
``metadata["procedure"]`` holds the structure (``record.Procedure``); its content is the
same procedure as one readable line, which is what ``learnings.md`` shows and takes back.
"""
