"""Detection and redaction of personal data (seed 003 §8: PII 检测与脱敏).

Kinds and how each is recognised — precise before broad, so ordinary numbers,
dates, timestamps, prices and years are left alone:

- ``email``: RFC-ish ``local@domain.tld``.
- ``id_card``: Chinese resident ID (18 characters: region, birth date 18xx–20xx,
  sequence, check digit). The ISO 7064 MOD 11-2 check digit (0–9 or X) is
  validated, so random 18-digit numbers are not flagged.
- ``bank_card``: 13–19 digits (optionally grouped by single spaces or dashes),
  first digit 2–6 (the issuer ranges of Visa, Mastercard, Amex, UnionPay,
  JCB, Discover), Luhn-valid. Millisecond timestamps (starting with 1) and
  zero-padded ids never qualify.
- ``phone``: Chinese mobile ``1[3-9]x xxxx xxxx`` (optional +86/0086, spaces,
  dashes); Chinese landline ``0xx(x)-xxxxxxx(x)``; US ``(xxx) xxx-xxxx`` and
  ``xxx-xxx-xxxx``; international ``+CC …`` with 8–15 digits in total (E.164).
- ``address``: Chinese addresses ending in a house number (…路/街/道/巷/弄 N号,
  optionally with 栋/单元/室) or a compound with a building/room number
  (…小区/花园/公寓/大厦 N栋/号楼 … N室); English street addresses
  ("221B Baker Street", "1600 Pennsylvania Ave NW, Apt 5").

- ``password``: the value after "password / passcode / PIN is|:|=" or 密码是/为 (the words
  around it are not part of the match);
- ``secret``: access keys and tokens (``sk-…``, ``AKIA…``, ``ghp_…``, ``xoxb-…``, JWTs, and a
  long token after "api key / token / secret is|:|=").

Redaction replaces each match with ``[EMAIL]``, ``[PHONE]``, ``[ID_CARD]``, ``[BANK_CARD]``,
``[ADDRESS]``, ``[PASSWORD]`` or ``[SECRET]``. Rejection names the kinds, never the values.

The policies (``ingest.pii_mode``, issue 21 item 5): ``mark`` (the default) keeps the user's
own words and marks every span (:func:`privacy_spans` → ``metadata.privacy``), redacting
only ``SECRET_KINDS`` — card numbers, national ids, access keys — which no memory needs
verbatim; a password the user tells the memory ("the wifi password is …") is marked, not
redacted: they expect it back. ``redact`` replaces every kind, ``keep`` changes nothing,
``reject`` refuses text with personal data. Words leave the store masked (:func:`mask`)
where someone other than their owner reads them: exports made ``mask_pii=True`` and the
pipeline's event log.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from neuromem.errors import ConfigError, PIIRejectedError

PIIKind = Literal["email", "phone", "id_card", "bank_card", "address", "password", "secret"]
PIIMode = Literal["mark", "redact", "keep", "reject"]
SECRET_KINDS: frozenset[str] = frozenset({"bank_card", "id_card", "secret"})  # redacted by ``mark`` too

PLACEHOLDERS: dict[str, str] = {
    "email": "[EMAIL]",
    "phone": "[PHONE]",
    "id_card": "[ID_CARD]",
    "bank_card": "[BANK_CARD]",
    "address": "[ADDRESS]",
    "password": "[PASSWORD]",
    "secret": "[SECRET]",
}


@dataclass(frozen=True, slots=True)
class PIIMatch:
    """One piece of personal data: ``text[start:end] == value``."""

    kind: PIIKind
    start: int
    end: int
    value: str


@dataclass(frozen=True, slots=True)
class RedactionResult:
    """Text after applying a policy, and what was found in the original."""

    text: str
    matches: tuple[PIIMatch, ...]

    @property
    def kinds(self) -> frozenset[str]:
        return frozenset(m.kind for m in self.matches)


# ---------------------------------------------------------------- validators

_ID_WEIGHTS = (7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2)
_ID_CHECK = "10X98765432"


def is_valid_cn_id(number: str) -> bool:
    """Check digit of an 18-character Chinese resident ID (GB 11643, ISO 7064 MOD 11-2)."""
    if len(number) != 18 or not number[:17].isdigit():
        return False
    total = sum(int(d) * w for d, w in zip(number[:17], _ID_WEIGHTS, strict=True))
    return _ID_CHECK[total % 11] == number[17].upper()


def luhn_valid(digits: str) -> bool:
    """Luhn (mod 10) checksum."""
    if not digits.isdigit():
        return False
    total = 0
    for index, ch in enumerate(reversed(digits)):
        d = int(ch)
        if index % 2 == 1:
            d = d * 2 - 9 if d > 4 else d * 2
        total += d
    return total % 10 == 0


def _digits(value: str) -> str:
    return re.sub(r"\D", "", value)


# ---------------------------------------------------------------- patterns

_HAN = "\u4e00-\u9fff"
# A Han character that is not a common verb/particle which would start the sentence part before an address.
_PLACE_CHAR = rf"(?:(?![在是到住于我你他她的和从寄送去来]){'['}{_HAN}{']'})"
_NUM_ZH = r"[\d零一二三四五六七八九十百]+"
_ZH_ADMIN = rf"(?:{_PLACE_CHAR}{{1,8}}(?:省|自治区|特别行政区))?(?:{_PLACE_CHAR}{{1,8}}(?:市|州|盟))?(?:{_PLACE_CHAR}{{1,8}}(?:区|县|旗))?(?:{_PLACE_CHAR}{{1,10}}(?:街道|镇|乡))?"
_ZH_ROOMS = rf"(?:{_NUM_ZH}(?:号楼|栋|幢|座|单元|层|楼|室|号房|户))*"

_EN_STREET = (
    r"Street|St|Avenue|Ave|Road|Rd|Boulevard|Blvd|Lane|Ln|Drive|Dr|Court|Ct|Place|Pl|Way|"
    r"Terrace|Ter|Parkway|Pkwy|Highway|Hwy|Square|Sq|Circle|Cir"
)

_NOT_PASSWORDS = frozenset(
    [
        "also",
        "the",
        "a",
        "an",
        "not",
        "my",
        "your",
        "our",
        "their",
        "its",
        "that",
        "this",
        "same",
        "different",
        "required",
        "needed",
        "correct",
        "wrong",
        "incorrect",
        "invalid",
        "valid",
        "strong",
        "weak",
        "secure",
        "long",
        "short",
        "protected",
        "set",
        "reset",
        "changed",
        "saved",
        "stored",
        "expired",
        "missing",
        "case",
        "sensitive",
        "empty",
        "blank",
        "optional",
        "mandatory",
        "there",
        "here",
        "still",
        "now",
    ]
)


_PATTERNS: list[tuple[PIIKind, re.Pattern[str], Callable[[str], bool] | None]] = [
    (
        "email",
        re.compile(
            r"(?<![\w.+-])[A-Za-z0-9][A-Za-z0-9._%+-]*@[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}(?![\w-])"
        ),
        None,
    ),
    (
        "id_card",
        re.compile(
            r"(?<![\dA-Za-z])[1-9]\d{5}(?:18|19|20)\d{2}(?:0[1-9]|1[0-2])(?:0[1-9]|[12]\d|3[01])\d{3}[\dXx](?![\dA-Za-z])"
        ),
        is_valid_cn_id,
    ),
    (
        "bank_card",
        re.compile(r"(?<![\d.,\-])[2-6]\d{3}(?:[ -]?\d){9,15}(?![\d]|[.,]\d)"),
        lambda v: 13 <= len(_digits(v)) <= 19 and luhn_valid(_digits(v)) and _consistent_groups(v),
    ),
    (
        "phone",
        re.compile(r"(?<![\d+])(?:(?:\+|00)86[ -]?)?1[3-9]\d(?:[ -]?\d{4}){2}(?!\d)"),
        None,
    ),
    (
        "phone",
        re.compile(r"(?<![\d-])0\d{2,3}-\d{7,8}(?![\d-])"),
        None,
    ),
    (
        "phone",
        re.compile(r"(?<![\d(])(?:\+?1[ .-]?)?(?:\(\d{3}\)\s?|\d{3}[.-])\d{3}[.-]\d{4}(?![\d-])"),
        None,
    ),
    (
        "phone",
        re.compile(r"(?<![\w+])\+[1-9]\d{0,2}(?:[ .-]?\(?\d{1,5}\)?){2,6}(?![\d])"),
        lambda v: 8 <= len(_digits(v)) <= 15,
    ),
    (
        "password",
        re.compile(
            r"(?i:\b(?:password|passcode|passwd|pin(?: code)?)\b(?:\s+(?:is|was)(?:\s+now)?|\s*[:=])\s*[\"'“]?)"
            r"(?P<v>[^\s\"'”,;]{3,64}?)(?=[\"'”]?(?:[.,;!?]?(?:\s|$)))|密码(?:是|为|：|:)\s*(?P<v2>[^\s，。,；;！!]{3,64})"
        ),
        lambda v: v.casefold() not in _NOT_PASSWORDS,
    ),
    (
        "secret",
        re.compile(
            r"(?<![\w-])(?:sk-[A-Za-z0-9_-]{20,}|AKIA[0-9A-Z]{16}|gh[pousr]_[A-Za-z0-9]{30,}|xox[abprs]-[A-Za-z0-9-]{10,}"
            r"|eyJ[A-Za-z0-9_-]{10,}\.eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,})(?![\w-])"
            r"|(?i:\b(?:api[ _-]?key|access[ _-]?key|secret(?:[ _-]?key)?|token)\b(?:\s+is|\s*[:=])\s*)(?P<v>[A-Za-z0-9_\-+/=]{16,})"
        ),
        None,
    ),
    (
        "address",
        re.compile(
            rf"{_ZH_ADMIN}(?:{_PLACE_CHAR}|\d){{1,15}}(?:路|街|大道|大街|道|巷|弄|胡同|里){_NUM_ZH}号(?:院)?{_ZH_ROOMS}"
        ),
        None,
    ),
    (
        "address",
        re.compile(
            rf"{_ZH_ADMIN}{_PLACE_CHAR}{{1,12}}(?:小区|花园|公寓|大厦|家园|苑|村|新村|广场){_NUM_ZH}(?:号楼|栋|幢|座|期|号){_ZH_ROOMS}"
        ),
        None,
    ),
    (
        "address",
        re.compile(
            rf"(?<![\w-])\d{{1,6}}[A-Za-z]?[ \t]+(?:(?:[NSEW]\.?|North|South|East|West)[ \t]+)?(?!(?:AM|PM|am|pm)\b)(?:[A-Z][A-Za-z'-]*\.?[ \t]+){{1,4}}(?:{_EN_STREET})\b\.?"
            r"(?:\s+(?:NW|NE|SW|SE|N|S|E|W)\b)?(?:,?\s*(?:Apt|Apartment|Suite|Ste|Unit|Room|#)\.?\s*#?\w+)?"
        ),
        None,
    ),
]


def _consistent_groups(value: str) -> bool:
    """Grouped card numbers use groups of 4 (or Amex 4-6-5); ungrouped is fine."""
    groups = re.split(r"[ -]", value)
    if len(groups) == 1:
        return True
    sizes = [len(g) for g in groups]
    return (
        (all(s == 4 for s in sizes[:-1]) and 1 <= sizes[-1] <= 4) or sizes == [4, 6, 5] or sizes == [4, 6, 4]
    )


_PRIORITY = {"secret": 0, "email": 1, "id_card": 2, "bank_card": 3, "password": 4, "phone": 5, "address": 6}


def find_pii(text: str) -> list[PIIMatch]:
    """All personal data in ``text``, in order, non-overlapping.

    Where candidates overlap, the one starting first wins, then the longer, then
    by kind (email > id_card > bank_card > phone > address).
    """
    candidates: list[PIIMatch] = []
    for kind, pattern, valid in _PATTERNS:
        for m in pattern.finditer(text):
            group = next((g for g in ("v", "v2") if g in pattern.groupindex and m.group(g)), 0)
            value = m.group(group).rstrip()
            if valid is None or valid(value):
                candidates.append(PIIMatch(kind, m.start(group), m.start(group) + len(value), value))
    candidates.sort(key=lambda c: (c.start, -(c.end - c.start), _PRIORITY[c.kind]))
    chosen: list[PIIMatch] = []
    for c in candidates:
        if chosen and c.start < chosen[-1].end:
            continue
        chosen.append(c)
    return chosen


def redact(text: str, kinds: frozenset[str] | None = None) -> RedactionResult:
    """Replace every match of :func:`find_pii` (of ``kinds``; every kind when None) with its placeholder.
    ``matches`` lists everything found in the original text."""
    matches = find_pii(text)
    parts: list[str] = []
    pos = 0
    for m in matches:
        if kinds is not None and m.kind not in kinds:
            continue
        parts.append(text[pos : m.start])
        parts.append(PLACEHOLDERS[m.kind])
        pos = m.end
    parts.append(text[pos:])
    return RedactionResult("".join(parts), tuple(matches))


def mask(text: str) -> str:
    """``text`` with every piece of personal data replaced by its placeholder: for readers other than its owner."""
    return redact(text).text if text else text


def privacy_spans(text: str) -> list[dict[str, int | str]]:
    """The personal data still in ``text`` as ``metadata.privacy`` items: ``{"kind", "start", "end"}``."""
    return [{"kind": m.kind, "start": m.start, "end": m.end} for m in find_pii(text)]


def apply_pii_policy(text: str, mode: PIIMode) -> RedactionResult:
    """Apply the configured privacy mode (``settings.pii_mode``) to ``text``.

    - ``"mark"``: the text unchanged but for ``SECRET_KINDS`` (placeholders); the rest is marked
      by the caller (``privacy_spans``);
    - ``"redact"``: placeholders instead of personal data;
    - ``"keep"``: text unchanged (matches still reported, e.g. for auditing);
    - ``"reject"``: raise :class:`~neuromem.errors.PIIRejectedError` naming the
      kinds found (never the values); text without PII passes unchanged.
    """
    if mode == "redact":
        return redact(text)
    if mode == "mark":
        return redact(text, SECRET_KINDS)
    matches = tuple(find_pii(text))
    if mode == "keep":
        return RedactionResult(text, matches)
    if mode == "reject":
        if matches:
            kinds = sorted({m.kind for m in matches}, key=_PRIORITY.__getitem__)
            error = PIIRejectedError(f"content contains personal data: {', '.join(kinds)}")
            error.kinds = tuple(kinds)  # type: ignore[attr-defined]
            raise error
        return RedactionResult(text, ())
    raise ConfigError(f"unknown PII mode {mode!r}; expected 'mark', 'redact', 'keep' or 'reject'")
