"""``sgcheck fmt`` for ``.sgcard`` files: the canonical layout of :mod:`~sgcheck.lang.cards.writer`, comments kept.

Every card is written as ``card_text`` writes it (header, ``cost``, ``phase``, ``text``, the
effects in their order, the closing brace, a blank line between cards); the ``#`` comments are
collected by a scanner with the card lexer's words and attached to those lines by
:mod:`sgcheck.lang.formatting`. A comment inside a card stays inside it and a comment between
cards stays before the card that follows, so a ``# sgcheck: ignore`` comment keeps covering the
card it covered (docs/cards.md#suppressing-a-finding). A file any card of which does not read
is not formatted: :func:`format_card_text` returns its diagnostics.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from dataclasses import dataclass

from sgcheck.core.cards.model import Card
from sgcheck.diagnostics import Diagnostic, Severity
from sgcheck.lang.formatting import Comment, Unit, attach, comment_texts, make_comments, render, shape

__all__ = ["CardFormatError", "card_comments", "format_card_text"]

#: The card lexer's words (sgcheck/lang/cards/lalr.py), each alternative linear.
_SCAN = re.compile(
    r"""(?P<comment>\#[^\n]*+)"""
    r"""|(?P<str>"(?:[^"\\\n\r]++|\\.)*+"?)"""
    r"""|(?P<word>[A-Za-z_][A-Za-z0-9_.\-]*+|[+-]?[0-9]++|<=|>=|==|!=|[^\s"#])"""
)


class CardFormatError(Exception):
    """The canonical text would not read back as the same cards: never written."""


@dataclass(frozen=True, slots=True)
class _Word:
    kind: str  # "str" or "word"
    text: str
    start: int
    end: int


def _scan(text: str) -> tuple[list[_Word], list[tuple[int, int, bool]]]:
    words: list[_Word] = []
    comments: list[tuple[int, int, bool]] = []
    for match in _SCAN.finditer(text):
        kind = match.lastgroup or "word"
        if kind == "comment":
            comments.append((match.start(), match.end(), True))
        else:
            words.append(_Word(kind, match.group(), match.start(), match.end()))
    return words, comments


def card_comments(text: str) -> list[Comment]:
    """The ``#`` comments of a card file, in order."""
    return make_comments(text, _scan(text)[1])


class _Words:
    def __init__(self, words: list[_Word]) -> None:
        self.words = words
        self.starts = [w.start for w in words]

    def before(self, offset: int) -> _Word:
        """The word that ends right before ``offset`` (comments are not words)."""
        return self.words[bisect_left(self.starts, offset) - 1]

    def from_(self, offset: int) -> int:
        return bisect_left(self.starts, offset)


def _card_units(card: Card, words: _Words, first: bool) -> list[Unit]:
    from sgcheck.lang.cards.writer import INDENT, card_lines

    start, end = card.span.offset, card.span.end_offset
    index = words.from_(card.name_span.end_offset)
    while words.words[index].text != "{":
        index += 1
    brace = words.words[index]
    ranges: dict[str, tuple[int, int]] = {"header": (start, brace.end), "close": (end - 1, end)}
    if card.cost is not None:
        ranges["cost"] = (words.before(card.cost.span.offset).start, card.cost.span.end_offset)
    if card.phase is not None:
        ranges["phase"] = (words.before(card.phase.span.offset).start, card.phase.span.end_offset)
    for number, effect in enumerate(card.effects):
        ranges[f"effect {number}"] = (effect.span.offset, effect.span.end_offset)
    if card.text is not None:
        inside = [r for key, r in ranges.items() if key.startswith("effect")]
        at = index + 1
        while at + 1 < len(words.words) and words.words[at].start < end:
            word, following = words.words[at], words.words[at + 1]
            if (
                word.kind == "word"
                and word.text == "text"
                and following.kind == "str"
                and not any(s <= word.start < e for s, e in inside)
            ):
                ranges["text"] = (word.start, following.end)
                break
            at += 1
    units: list[Unit] = []
    for role, line in card_lines(card):
        low, high = ranges[role]
        unit = Unit(line, low, high, "" if role == "header" else INDENT)
        if role == "header":
            unit.canonical_blank = not first
            unit.paragraph = True
        units.append(unit)
    return units


def format_card_text(text: str, name: str = "<cards>") -> str | list[Diagnostic]:
    """``text`` (LF line breaks, no BOM) in the canonical layout, every comment kept; or the
    errors of the cards that do not read (the file is then left as it is).

    Raises :class:`CardFormatError` if the result would not read back as the same cards.
    """
    from sgcheck.lang.cards.parser import parse_cards

    parsed = parse_cards(text, name)
    errors = [d for d in parsed.diagnostics if d.severity is Severity.ERROR]
    if errors:
        return errors
    found, raw_comments = _scan(text)
    words = _Words(found)
    comments = make_comments(text, raw_comments)
    units: list[Unit] = []
    for number, card in enumerate(parsed.cards):
        units.extend(_card_units(card, words, number == 0))
    at_end = attach(text, units, comments)
    formatted = render(units, at_end)
    if formatted != text:
        again = parse_cards(formatted, name)
        if again.diagnostics != parsed.diagnostics and any(d.severity is Severity.ERROR for d in again.diagnostics):
            raise CardFormatError("the formatted cards do not read")
        if shape(again.cards) != shape(parsed.cards):
            raise CardFormatError("the formatted cards read as different cards")
        if sorted(comment_texts(card_comments(formatted))) != sorted(comment_texts(comments)):  # clauses move
            raise CardFormatError("the formatted cards do not keep every comment")
    return formatted
