"""Moving a user's memory in and out: full-fidelity export/import (``export``, ``importer``,
``format``), a readable Markdown page (``readable``), and the two-way ``memory.md`` /
``learnings.md`` sync (``markdown_sync``)."""
