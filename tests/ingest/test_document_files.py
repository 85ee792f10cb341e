"""PDF, DOCX and HTML documents (issue 27 item 4): files the test writes, read into chunks whose
``metadata.source_ref`` points back at the page or section, searchable like any document."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from neuromem import Memory
from neuromem.errors import InvalidInputError


def _chunks(memory: Memory, user_id: str, file_id: Any) -> list[Any]:
    rows = memory.get_all(user_id=user_id, filters={"memory_type": "document", "file_id": str(file_id)})
    return sorted(rows, key=lambda r: r.id)  # uuid7: the order they were written, the file's order


def _pdf(path: Path, pages: list[str]) -> Path:
    from fpdf import FPDF

    pdf = FPDF()
    pdf.set_font("Helvetica", size=12)
    for text in pages:
        pdf.add_page()
        pdf.multi_cell(0, 8, text)
    pdf.output(str(path))
    return path


def test_a_pdf_keeps_its_page_numbers(memory: Memory, tmp_path: Path) -> None:
    path = _pdf(tmp_path / "lease.pdf", ["The rent is 900 euros per month.", "The lease ends in March 2027."])
    doc = memory.add_document_file(path, user_id="u")
    assert doc.file_name == "lease.pdf" and doc.mime_type == "application/pdf"
    chunks = _chunks(memory, "u", doc.id)
    assert [c.metadata["source_ref"] for c in chunks] == [{"page": 1}, {"page": 2}]
    assert "900 euros" in chunks[0].content and "March 2027" in chunks[1].content
    [hit, *_] = memory.search("when does the lease end", user_id="u", memory_types=["document"])
    assert hit.memory.metadata["source_ref"] == {"page": 2}


def test_a_docx_keeps_its_sections(memory: Memory, tmp_path: Path) -> None:
    import docx

    document = docx.Document()
    document.add_paragraph("Notes taken in May.")
    document.add_heading("Pricing", level=1)
    document.add_paragraph("The premium plan costs 30 dollars.")
    document.add_heading("Support", level=1)
    document.add_paragraph("Support answers within one business day.")
    path = tmp_path / "plan.docx"
    document.save(str(path))
    doc = memory.add_document_file(path.read_bytes(), user_id="u", file_name="plan.docx")
    refs = [(c.metadata.get("source_ref"), c.content) for c in _chunks(memory, "u", doc.id)]
    assert refs[0] == (None, "Notes taken in May.")
    assert refs[1][0] == {"section": "Pricing"} and "30 dollars" in refs[1][1]
    assert refs[2][0] == {"section": "Support"} and "business day" in refs[2][1]


def test_html_is_read_by_headings_without_scripts(memory: Memory) -> None:
    page = (
        b"<html><head><title>x</title><script>var secret = 1;</script></head><body>"
        b"<h1>Trip</h1><p>We fly to Oslo on <b>June 3</b>.</p><h2>Hotel</h2><p>The hotel is near the harbour."
        b"</p><style>p {color: red}</style></body></html>"
    )
    doc = memory.add_document_file(page, user_id="u", file_name="trip.html")
    chunks = _chunks(memory, "u", doc.id)
    assert [c.metadata["source_ref"] for c in chunks] == [{"section": "Trip"}, {"section": "Hotel"}]
    assert "We fly to Oslo on June 3." in chunks[0].content
    assert all("secret" not in c.content and "color" not in c.content for c in chunks)


def test_unreadable_files_are_refused_and_nothing_is_written(memory: Memory, tmp_path: Path) -> None:
    with pytest.raises(InvalidInputError, match="PDF"):
        memory.add_document_file(b"%PDF-1.4 this is not really a pdf", user_id="u", file_name="bad.pdf")
    with pytest.raises(InvalidInputError, match="DOCX"):
        memory.add_document_file(b"PK not a zip", user_id="u", file_name="bad.docx")
    with pytest.raises(InvalidInputError, match="type"):
        memory.add_document_file(b"hello", user_id="u", file_name="notes.xyz")
    with pytest.raises(InvalidInputError, match="no text"):
        memory.add_document_file(_pdf(tmp_path / "blank.pdf", [""]), user_id="u")
    assert memory.list_documents(user_id="u") == []
