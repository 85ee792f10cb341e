"""Documents beyond plain text (issue 27 item 4): PDF, DOCX and HTML read into sections of text,
each with the reference a citation points back to — ``{"page": n}`` for a PDF page,
``{"section": "heading"}`` for a DOCX or HTML heading — in front of the existing chunker.

PDF needs ``pypdf`` and DOCX ``python-docx``: the optional extra ``documents``
(``pip install 'neuromem[documents]'``); HTML uses the standard library's parser. A PDF whose
pages hold no text layer (a scan) is refused: there is nothing to read without OCR.
"""

from __future__ import annotations

import io
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import PurePath
from typing import Any

from ..errors import InvalidInputError

PDF = "application/pdf"
DOCX = "application/vnd.openxmlformats-officedocument.wordprocessingml.document"
HTML = "text/html"
READABLE = {PDF: ".pdf", DOCX: ".docx", HTML: ".html"}
_BY_SUFFIX = {".pdf": PDF, ".docx": DOCX, ".html": HTML, ".htm": HTML}


@dataclass(frozen=True, slots=True)
class Section:
    """A stretch of a document's text and where it is in the file."""

    text: str
    ref: dict[str, Any] = field(default_factory=dict)


def mime_of(file_name: str) -> str:
    """The MIME type the file name's suffix names (``InvalidInputError`` for one neuromem cannot read)."""
    mime = _BY_SUFFIX.get(PurePath(file_name).suffix.lower())
    if mime is None:
        raise InvalidInputError(
            f"cannot tell the type of {file_name!r}: give mime_type ({', '.join(READABLE)})"
        )
    return mime


def read_sections(data: bytes, mime_type: str) -> list[Section]:
    """The non-empty sections of a PDF, DOCX or HTML file, in order."""
    if not isinstance(data, bytes | bytearray) or not data:
        raise InvalidInputError("a document file needs non-empty bytes")
    readers = {PDF: _pdf, DOCX: _docx, HTML: _html}
    if mime_type not in readers:
        raise InvalidInputError(f"mime_type must be one of {sorted(readers)}, got {mime_type!r}")
    sections = [s for s in readers[mime_type](bytes(data)) if s.text.strip()]
    if not sections:
        raise InvalidInputError("the document has no text to read (a scanned PDF needs OCR first)")
    return sections


def _extra(module: str) -> Any:
    import importlib

    try:
        return importlib.import_module(module)
    except ImportError as exc:
        raise ImportError(
            f"reading this file needs the optional extra: pip install 'neuromem[documents]' "
            f"({module} is missing)"
        ) from exc


def _pdf(data: bytes) -> list[Section]:
    pypdf = _extra("pypdf")
    try:
        reader = pypdf.PdfReader(io.BytesIO(data))
        return [
            Section(page.extract_text() or "", {"page": n}) for n, page in enumerate(reader.pages, start=1)
        ]
    except pypdf.errors.PyPdfError as exc:
        raise InvalidInputError(f"not a readable PDF: {exc}") from None


def _docx(data: bytes) -> list[Section]:
    docx = _extra("docx")
    try:
        document = docx.Document(io.BytesIO(data))
    except Exception as exc:  # python-docx raises zipfile / KeyError / its own errors for a bad file
        raise InvalidInputError(f"not a readable DOCX file: {type(exc).__name__}") from None
    sections: list[Section] = []
    heading: str | None = None
    lines: list[str] = []
    for paragraph in document.paragraphs:
        style = (paragraph.style.name if paragraph.style is not None else "") or ""
        if style.lower().startswith(("heading", "title")) and paragraph.text.strip():
            sections.append(Section("\n\n".join(lines), {"section": heading} if heading else {}))
            heading, lines = paragraph.text.strip(), [paragraph.text.strip()]
        elif paragraph.text.strip():
            lines.append(paragraph.text.strip())
    sections.append(Section("\n\n".join(lines), {"section": heading} if heading else {}))
    return sections


class _HTMLSections(HTMLParser):
    """Text of an HTML page cut at its headings; scripts, styles and templates skipped."""

    SKIP = frozenset({"script", "style", "template", "noscript", "head"})
    BLOCKS = frozenset({"p", "div", "li", "br", "tr", "section", "article", "blockquote", "pre", "td", "th"})
    HEADINGS = frozenset({"h1", "h2", "h3", "h4", "h5", "h6"})

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.sections: list[Section] = []
        self._heading: str | None = None
        self._parts: list[str] = []
        self._in_heading: list[str] | None = None
        self._skipping = 0

    def handle_starttag(self, tag: str, attrs: Any) -> None:
        if tag in self.SKIP:
            self._skipping += 1
        elif tag in self.HEADINGS:
            self._in_heading = []
        elif tag in self.BLOCKS:
            self._parts.append("\n\n")

    def handle_endtag(self, tag: str) -> None:
        if tag in self.SKIP:
            self._skipping = max(0, self._skipping - 1)
        elif tag in self.HEADINGS and self._in_heading is not None:
            title = " ".join("".join(self._in_heading).split())
            self._in_heading = None
            if title:
                self._flush()
                self._heading = title
                self._parts = [title, "\n\n"]

    def handle_data(self, data: str) -> None:
        if self._skipping:
            return
        if self._in_heading is not None:
            self._in_heading.append(data)
        else:
            self._parts.append(data)

    def _flush(self) -> None:
        paragraphs = [" ".join(p.split()) for p in "".join(self._parts).split("\n\n")]
        text = "\n\n".join(p for p in paragraphs if p)
        self.sections.append(Section(text, {"section": self._heading} if self._heading else {}))

    def close(self) -> None:
        super().close()
        self._flush()


def _html(data: bytes) -> list[Section]:
    parser = _HTMLSections()
    parser.feed(data.decode("utf-8", errors="replace"))
    parser.close()
    return parser.sections
