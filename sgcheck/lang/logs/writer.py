"""Canonical ``.sglog`` text for log AST nodes.

The random-game generator builds AST nodes (with dummy spans) and needs text; the
round-trip tests need ``parse(format(items)) == items`` apart from spans. So the writer
ignores spans, keeps every list in its given order (claims included: their order is part
of the AST) and refuses values the language cannot express instead of writing text that
would parse differently.
"""

from __future__ import annotations

from collections.abc import Iterable

from sgcheck.core.pieces import Color, Kind, Phase
from sgcheck.core.squares import name as square_name
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

__all__ = ["format_claim", "format_item", "format_log", "format_statement"]

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


def format_statement(stmt: Statement) -> str:
    """One statement with its claims, on one line."""
    if isinstance(stmt, SummonStmt):
        head = f"summon {Kind(stmt.kind).letter} {square_name(stmt.to.square)}"
    elif isinstance(stmt, MoveStmt):
        if stmt.via is None:
            head = f"move {_piece(stmt.piece)} {square_name(stmt.to.square)}"
        else:
            head = f"move {_piece(stmt.piece)} {square_name(stmt.via.square)} {square_name(stmt.to.square)}"
    elif isinstance(stmt, AttackStmt):
        head = f"attack {_piece(stmt.attacker)} {_piece(stmt.target)} roll {_dice(stmt.roll)}"
        if stmt.second is not None:
            head += " " + _second(stmt.second)
    elif isinstance(stmt, ConvertStmt):
        head = f"convert {_int_text(stmt.amount)}"
    elif isinstance(stmt, TeleportStmt):
        head = f"teleport {_piece(stmt.piece)} {square_name(stmt.to.square)}"
    elif isinstance(stmt, BreakStmt):
        head = f"break roll {_dice(stmt.roll)}"
    elif isinstance(stmt, RepairStmt):
        head = f"repair roll {_dice(stmt.roll)}"
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


def _block(prefix: str, statements: tuple[Statement, ...]) -> list[str]:
    """``prefix`` + the first statement; later statements aligned under the first one."""
    if not statements:
        return [prefix.rstrip()]
    pad = " " * len(prefix)
    return [prefix + format_statement(statements[0])] + [pad + format_statement(s) for s in statements[1:]]


def _turn(turn: Turn) -> str:
    header = f"{_int_text(turn.number)}{'.' if turn.color is Color.WHITE else '...'}"
    indent = " " * (len(header) + 1)
    lines: list[str] = []
    prefix = header + " "
    if turn.loose:
        lines.extend(_block(prefix, turn.loose))
        prefix = indent
    for block in turn.phases:
        lines.extend(_block(prefix + _PHASE_LABELS[Phase(block.phase)] + " ", block.statements))
        prefix = indent
    if not lines:
        lines.append(header)
    return "\n".join(lines)


def _tag(tag: Tag) -> str:
    if not tag.name or not (tag.name[0].isascii() and tag.name[0].isalpha()):
        raise ValueError(f"not a tag name: {tag.name!r}")
    if not all(c.isascii() and (c.isalnum() or c == "_") for c in tag.name):
        raise ValueError(f"not a tag name: {tag.name!r}")
    return f"[{tag.name} {_string(tag.value)}]"


def format_item(item: LogItem) -> str:
    """The text of one top-level item (no trailing newline; an empty header is "")."""
    if isinstance(item, Turn):
        return _turn(item)
    if isinstance(item, Header):
        return "\n".join(_tag(t) for t in item.tags)
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
