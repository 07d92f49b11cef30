"""Canonical ``.sglog`` text for log AST nodes.

The random-game generator builds AST nodes (with dummy spans) and needs text; the
round-trip tests need ``parse(format(items)) == items`` apart from spans. So the writer
ignores spans, keeps every list in its given order (claims included: their order is part
of the AST) and refuses values the language cannot express instead of writing text that
would parse differently.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple

from sgcheck.core.pieces import Color, Kind, Phase
from sgcheck.core.squares import name as square_name
from sgcheck.diagnostics import Span
from sgcheck.lang.logs.ast import (
    ActivateStmt,
    AttackStmt,
    BreakStmt,
    Claim,
    ClaimKind,
    ColourChoice,
    ConvertStmt,
    Dice,
    Draft,
    Header,
    IncomeStmt,
    KingPlacement,
    LogItem,
    MoveStmt,
    PassStmt,
    PieceRef,
    PlayStmt,
    RepairStmt,
    ResultLine,
    RevealStmt,
    RollOff,
    SecondRoll,
    Statement,
    SummonStmt,
    Tag,
    TeleportStmt,
    Turn,
)

__all__ = ["CLAIM_ORDER", "Line", "format_claim", "format_item", "format_log", "format_statement", "item_lines"]

_PHASE_LABELS: dict[Phase, str] = {
    Phase.UPKEEP: "upkeep:",
    Phase.MAIN1: "main1:",
    Phase.BATTLE: "battle:",
    Phase.MAIN2: "main2:",
    Phase.END: "end:",
}
_SCORES = frozenset({"1-0", "0-1", "1/2-1/2", "*"})
_REASONS = frozenset({"conversion", "lp1000", "turn-limit", "scenario"})
_SAFE_DIGITS = 4000  # below CPython's int/str conversion limit (4300 digits)


def _int_text(value: int) -> str:
    """Decimal text of a non-negative int, also beyond CPython's 4300-digit str() limit."""
    if value < 0:
        raise ValueError(f"the log language has no negative numbers (got a value below 0: {value:,d})")
    return _digits(value)


def _digits(value: int) -> str:
    if value.bit_length() <= _SAFE_DIGITS * 3:  # < 10**3612, safely under the limit
        return str(value)
    half = (value.bit_length() * 3 // 10) // 2  # about half of the decimal digits
    high, low = divmod(value, 10**half)
    return _digits(high) + _digits(low).rjust(half, "0")


def _string(text: str) -> str:
    if "\n" in text or "\r" in text:
        raise ValueError(f"a quoted name cannot contain a line break: {text!r}")
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _color(color: Color) -> str:
    return "white" if color is Color.WHITE else "black"


def _piece(ref: PieceRef) -> str:
    letter = "" if ref.kind is None else Kind(ref.kind).letter
    return letter + square_name(ref.square)


def _dice(dice: Dice) -> str:
    if not dice.faces:
        raise ValueError("dice need at least one face")
    return " ".join(_int_text(face) for face in dice.faces)


def _second(second: SecondRoll) -> str:
    """``reroll 2 3`` or ``advantage 2 3``: the language has exactly two dice there."""
    if len(second.dice.faces) != 2:
        raise ValueError(f"a second accuracy roll has two dice, not {len(second.dice.faces)}")
    return f"{'advantage' if second.advantage else 'reroll'} {_dice(second.dice)}"


def _card(word: str, name: str, target: PieceRef | None) -> str:
    """``play "Bolt"``, ``play "Bolt" on Rb7`` (and the same with ``activate``)."""
    head = f"{word} {_string(name)}"
    return head if target is None else f"{head} on {_piece(target)}"


def format_claim(claim: Claim) -> str:
    """``cost 7``, ``pay 5sp 2lp``, ``gain 10sp``, ``hit`` ..."""
    kind = claim.kind
    if kind is ClaimKind.PAY:
        parts = []
        if claim.sp or not claim.lp:
            parts.append(f"{_int_text(claim.sp)}sp")
        if claim.lp:
            parts.append(f"{_int_text(claim.lp)}lp")
        return "pay " + " ".join(parts)
    if kind is ClaimKind.GAIN_SP or kind is ClaimKind.GAIN_LP:
        if claim.value is None:
            raise ValueError(f"claim {kind.value} needs a value")
        unit = "sp" if kind is ClaimKind.GAIN_SP else "lp"
        return f"gain {_int_text(claim.value)}{unit}"
    if kind in _VALUED:
        if claim.value is None:
            raise ValueError(f"claim {kind.value} needs a value")
        return f"{kind.value} {_int_text(claim.value)}"
    return str(kind.value)


#: The order claims are written in when sgcheck writes them (``fmt --fill-claims``): what the
#: action cost and how it was paid, what its dice did and what that did (threshold, hit or miss,
#: damage, the King's total, a capture or conversion, a Break's or Repair's outcome), what it
#: gained, and the player's totals after it. Claims written by hand keep the order written.
CLAIM_ORDER: tuple[ClaimKind, ...] = (
    ClaimKind.COST,
    ClaimKind.PAY,
    ClaimKind.THRESHOLD,
    ClaimKind.HIT,
    ClaimKind.MISS,
    ClaimKind.DAMAGE,
    ClaimKind.KING_DAMAGE,
    ClaimKind.CAPTURE,
    ClaimKind.CONVERT_KING,
    ClaimKind.SUCCESS,
    ClaimKind.FAIL,
    ClaimKind.GAIN_SP,
    ClaimKind.GAIN_LP,
    ClaimKind.LP,
    ClaimKind.SP,
)


_VALUED = frozenset(
    {
        ClaimKind.COST,
        ClaimKind.LP,
        ClaimKind.SP,
        ClaimKind.THRESHOLD,
        ClaimKind.DAMAGE,
        ClaimKind.KING_DAMAGE,
    }
)


def _with_claims(head: str, claims: tuple[Claim, ...]) -> str:
    if not claims:
        return head
    return head + " " + " ".join(format_claim(c) for c in claims)


def format_statement(stmt: Statement, *, dice: bool = True) -> str:
    """One statement with its claims, on one line. With ``dice=False`` its rolls are left for the
    player to write (``attack Ne2 Kf5 roll  cost 8``), as an editor offers a statement before
    the dice are thrown."""
    if isinstance(stmt, SummonStmt):
        head = f"summon {Kind(stmt.kind).letter} {square_name(stmt.to.square)}"
    elif isinstance(stmt, MoveStmt):
        if stmt.via is None:
            head = f"move {_piece(stmt.piece)} {square_name(stmt.to.square)}"
        else:
            head = f"move {_piece(stmt.piece)} {square_name(stmt.via.square)} {square_name(stmt.to.square)}"
    elif isinstance(stmt, AttackStmt):
        head = f"attack {_piece(stmt.attacker)} {_piece(stmt.target)} roll {_dice(stmt.roll) if dice else ''}"
        if stmt.second is not None and dice:
            head += " " + _second(stmt.second)
    elif isinstance(stmt, ConvertStmt):
        head = f"convert {_int_text(stmt.amount)}"
    elif isinstance(stmt, TeleportStmt):
        head = f"teleport {_piece(stmt.piece)} {square_name(stmt.to.square)}"
    elif isinstance(stmt, BreakStmt):
        head = f"break roll {_dice(stmt.roll) if dice else ''}"
    elif isinstance(stmt, RepairStmt):
        head = f"repair roll {_dice(stmt.roll) if dice else ''}"
    elif isinstance(stmt, ActivateStmt):
        head = _card("activate", stmt.card.name, stmt.target)
    elif isinstance(stmt, PlayStmt):
        head = _card("play", stmt.card.name, stmt.target)
    elif isinstance(stmt, RevealStmt):
        head = f"reveal {_string(stmt.card.name)} to {_color(stmt.to)}"
    elif isinstance(stmt, PassStmt):
        head = "pass"
    elif isinstance(stmt, IncomeStmt):
        head = f"income {_int_text(stmt.amount)}"
    else:  # pragma: no cover - exhaustive over Statement
        raise TypeError(f"not a statement: {stmt!r}")
    return _with_claims(head, stmt.claims)


class Line(NamedTuple):
    """One line of canonical text, and the source text it was written from (the offsets of the
    spans of what is on it; meaningless for nodes with dummy spans)."""

    text: str
    start: int
    end: int
    indent: str  # where the code of the line starts


def _turn_lines(turn: Turn) -> list[Line]:
    """The turn number on the first line with the first phase label and statement; each later
    statement on a line of its own, aligned under the first; each later phase label on a new
    line, aligned under the first label. The number is padded as wide as Black's (``12.   ``,
    ``12... ``), so that the labels of White's and Black's turns of a round line up."""
    number = _int_text(turn.number)
    header = f"{number}{'.' if turn.color is Color.WHITE else '...'}"
    indent = " " * (len(number) + 4)
    lines: list[Line] = []
    prefix = header.ljust(len(indent))
    pending: int | None = turn.header_span.offset  # where the next line's source text starts

    def add(text: str, first: int, last: int, pad: str) -> None:
        nonlocal pending
        lines.append(Line(text, first if pending is None else pending, last, pad))
        pending = None

    def block(label: str, label_span: Span | None, statements: tuple[Statement, ...]) -> None:
        nonlocal prefix, pending
        head = prefix + label
        if label_span is not None and pending is None:
            pending = label_span.offset
        line_indent = indent if lines else ""
        if not statements:
            assert label_span is not None
            add(head.rstrip(), label_span.offset, label_span.end_offset, line_indent)
        else:
            pad = " " * len(head)
            first = statements[0]
            add(head + format_statement(first), first.span.offset, first.span.end_offset, line_indent)
            for stmt in statements[1:]:
                add(pad + format_statement(stmt), stmt.span.offset, stmt.span.end_offset, pad)
        prefix = indent

    if turn.loose:
        block("", None, turn.loose)
    for phase in turn.phases:
        block(_PHASE_LABELS[Phase(phase.phase)] + " ", phase.label_span, phase.statements)
    if not lines:
        lines.append(Line(header, turn.header_span.offset, turn.header_span.end_offset, ""))
    return lines


def _tag(tag: Tag) -> str:
    if not tag.name or not (tag.name[0].isascii() and tag.name[0].isalpha()):
        raise ValueError(f"not a tag name: {tag.name!r}")
    if not all(c.isascii() and (c.isalnum() or c == "_") for c in tag.name):
        raise ValueError(f"not a tag name: {tag.name!r}")
    return f"[{tag.name} {_string(tag.value)}]"


def item_lines(item: LogItem) -> list[Line]:
    """The lines of one top-level item (none for an empty header), each with its source range."""
    if isinstance(item, Turn):
        return _turn_lines(item)
    if isinstance(item, Header):
        return [Line(_tag(t), t.span.offset, t.span.end_offset, "") for t in item.tags]
    return [Line(_one_line(item), item.span.offset, item.span.end_offset, "")]


def _one_line(item: LogItem) -> str:
    if isinstance(item, Draft):
        if not item.cards:
            raise ValueError("a draft line needs at least one card")
        return f"draft {_color(item.color)} " + " ".join(_string(c.name) for c in item.cards)
    if isinstance(item, RollOff):
        return f"rolloff white {_dice(item.white)} black {_dice(item.black)}"
    if isinstance(item, ColourChoice):
        return f"choose {_color(item.color)}"
    if isinstance(item, KingPlacement):
        return f"king {_color(item.color)} {square_name(item.square.square)}"
    if isinstance(item, ResultLine):
        if item.score not in _SCORES:
            raise ValueError(f"not a score: {item.score!r}")
        if item.reason is None:
            return f"result {item.score}"
        if item.reason not in _REASONS:
            raise ValueError(f"not a result reason: {item.reason!r}")
        return f"result {item.score} {item.reason}"
    raise TypeError(f"not a log item: {item!r}")  # pragma: no cover


def format_item(item: LogItem) -> str:
    """The text of one top-level item (no trailing newline; an empty header is "")."""
    return "\n".join(line.text for line in item_lines(item))


def format_log(items: Iterable[LogItem]) -> str:
    """A whole log: header tags, a blank line, the setup, a blank line, then the turns.

    Items are written in the order given (the writer never reorders what it is handed).
    """
    parts: list[str] = []
    previous: LogItem | None = None
    for item in items:
        text = format_item(item)
        if isinstance(item, Header):
            if text:
                parts.append(text + "\n")
            continue
        if isinstance(item, Turn) and previous is not None and not isinstance(previous, Turn):
            parts[-1] += "\n"
        parts.append(text)
        previous = item
    return "\n".join(parts) + "\n" if parts else ""
