"""Every citation of a seed document or of MISSION / DESIGN / STYLE in ``src/`` resolves to a
heading of ``docs/design/`` (issue 25 item 8): the cited rules travel with the repository.

Forms recognised: ``seed 001 §4.2``, chains ``seed 003 §5.2, §15`` / ``§3.0/§4`` / ``§5.3–§5.5``,
a bare ``§6.4`` (the nearest seed named before it in the same file), named anchors
``seed 003 R2G-4`` / ``seed 003 W5``, a whole document ``seed 002``; ``STYLE(.md) habit N``,
``MISSION decision N`` / ``capability N`` / ``MISSION "Trust"``, ``DESIGN(.md) "quoted principle"``.
``issue N §M`` and ``RFC N §M`` are not seed citations.
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DESIGN = ROOT / "docs" / "design"
SOURCES = (".py", ".sql", ".html", ".js", ".css", ".md", ".toml")

CHAIN = re.compile(r"\b[Ss]eeds? (\d{3})((?:(?:,?\s?|\s?/\s?|\s?–\s?| and )§\s?[0-9]+(?:\.[0-9A-Za-z]+)*)*)")
SECTION = re.compile(r"§\s?([0-9]+(?:\.[0-9A-Za-z]+)*)")
NAMED = re.compile(r"\b[Ss]eed (\d{3}),? (R2G-\d+|W\d+)\b")
SEED_NAMED = re.compile(r"\b[Ss]eeds? (\d{3})\b")
NOT_A_SEED = re.compile(r"\b(?:issue|RFC) \d+\s*$")
PRINCIPLE = re.compile(
    r"\b(STYLE|MISSION|DESIGN)(?:\.md)?,? (?:(habit|decision|capability) (\d+)|\"([^\"]+)\")", re.IGNORECASE
)


def source_texts() -> dict[str, str]:
    src = ROOT / "src"
    return {
        str(p.relative_to(ROOT)): p.read_text("utf-8")
        for p in sorted(src.rglob("*"))
        if p.suffix in SOURCES and p.is_file()
    }


def seed_citations(text: str) -> list[tuple[str, str | None, int]]:
    """(seed, anchor or None for the whole document, offset) of every seed citation in ``text``."""
    found: list[tuple[str, str | None, int]] = []
    covered: set[int] = set()
    for m in CHAIN.finditer(text):
        covered.update(range(m.start(), m.end()))
        sections = SECTION.findall(m.group(2))
        found.extend((m.group(1), s, m.start()) for s in sections)
        if not sections:
            found.append((m.group(1), None, m.start()))
    found.extend((m.group(1), m.group(2), m.start()) for m in NAMED.finditer(text))
    for m in SECTION.finditer(text):
        if m.start() in covered or NOT_A_SEED.search(text[max(0, m.start() - 20) : m.start()]):
            continue
        before = list(SEED_NAMED.finditer(text, 0, m.start()))
        found.append((before[-1].group(1) if before else "none", m.group(1), m.start()))
    return found


def headings(path: Path) -> list[str]:
    return [line.lstrip("#").strip() for line in path.read_text("utf-8").splitlines() if line.startswith("#")]


def seed_anchors() -> dict[str, set[str]]:
    anchors: dict[str, set[str]] = {}
    for path in DESIGN.glob("seed-*.md"):
        seed = path.name.split("-")[1]
        anchors[seed] = {h.split()[0].lstrip("§") for h in headings(path) if re.match(r"§|R2G-|W\d", h)}
    return anchors


def line_of(text: str, offset: int) -> int:
    return text.count("\n", 0, offset) + 1


def test_every_seed_citation_in_src_names_a_digested_section() -> None:
    anchors = seed_anchors()
    assert set(anchors) == {"000", "001", "002", "003", "004"}
    cited, missing = 0, []
    for name, text in source_texts().items():
        for seed, anchor, offset in seed_citations(text):
            cited += 1
            if seed not in anchors or (anchor is not None and anchor not in anchors[seed]):
                missing.append(f"{name}:{line_of(text, offset)}: seed {seed} {anchor or ''}")
    assert cited > 300, cited  # the forms above still match what the source writes
    assert missing == [], "\n".join(missing)


def test_every_principle_citation_in_src_names_a_digested_principle() -> None:
    titles = [re.sub(r"\s+", " ", h).lower() for h in headings(DESIGN / "principles.md")]
    cited, missing = 0, []
    for name, text in source_texts().items():
        for m in PRINCIPLE.finditer(text):
            doc, kind, number, quote = m.group(1).upper(), m.group(2), m.group(3), m.group(4)
            cited += 1
            if kind:
                ok = f"{doc} {kind} {number}".lower() in titles or any(
                    t.startswith(f"{doc} {kind} {number} ".lower()) for t in titles
                )
            else:
                wanted = re.sub(r"\s+", " ", quote).lower()
                ok = any(t.startswith(doc.lower()) and wanted in t for t in titles)
            if not ok:
                missing.append(f"{name}:{line_of(text, m.start())}: {m.group(0)}")
    assert cited > 40, cited
    assert missing == [], "\n".join(missing)


def test_the_forms_are_read_as_documented() -> None:
    text = (
        "(seed 003 §5.2, W5; seed 000 §6.1–§6.2) seed 004 §2.1 Layer 3, §5.3 seed 001\n§4.4 "
        "(issue 5 §4) seed 003 R2G-4 the (§4.3)"
    )
    assert [(s, a) for s, a, _ in seed_citations(text)] == [
        ("003", "5.2"),
        ("000", "6.1"),
        ("000", "6.2"),
        ("004", "2.1"),
        ("001", "4.4"),
        ("003", None),
        ("003", "R2G-4"),
        ("004", "5.3"),
        ("003", "4.3"),
    ]


def test_readme_and_architecture_point_at_docs_design() -> None:
    for doc in ("README.md", "docs/architecture.md"):
        assert "docs/design/" in (ROOT / doc).read_text("utf-8"), doc
