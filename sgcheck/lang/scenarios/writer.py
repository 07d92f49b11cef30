"""Write the core's scenario model back as a ``*.scenario.yaml`` file (R24).

:func:`scenario_text` goes the other way from :mod:`sgcheck.lang.scenarios.scenario_loader`:
the text it writes loads back into an equal :class:`~sgcheck.core.scenario.Scenario` (its
``source`` aside), laid out as the shipped scenarios are: the name, the first player and the
turn limit, each side's LP, SP, Gem and pieces on the board, the marker sets, the win
conditions. Each side's LP and SP and the first player are always written, so a reader sees the
whole start; what is the core's (no turn limit, no markers, the core's win conditions only) is
left out.

Values the schema refuses (a name it does not allow, LP over 999) are written as they are, and
the loader reports them; a model the format cannot express at all (a marker set with neutral
and owned markers, a condition for a set of sides other than one side or both) is a
``ValueError`` naming it.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from sgcheck.core.pieces import NON_KING_KINDS, Color
from sgcheck.core.scenario import NO_PIECES, Counts, MarkerSet, Scenario, SideSetup, WinCondition, WinKind
from sgcheck.core.squares import Square, name
from sgcheck.letters import ascii_lower

__all__ = ["scenario_text"]

_INDENT = "  "
#: A word YAML reads as a plain string: a marker set's name, written without quotes.
_WORD = re.compile(r"[A-Za-z][A-Za-z0-9_-]*")
#: Words YAML (1.1 or 1.2) may read as something other than a string: written in quotes.
_NOT_STRINGS = frozenset({"true", "false", "null", "yes", "no", "on", "off", "y", "n"})
_ESCAPES = {'"': '\\"', "\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t", "\x00": "\\0"}
_SIDE_WORDS = {(Color.WHITE,): "white", (Color.BLACK,): "black", (Color.WHITE, Color.BLACK): "both"}


def scenario_text(scenario: Scenario, *, schema: str | None = None) -> str:
    """The YAML text of ``scenario``, which the scenario loader reads back to an equal model.

    ``schema`` adds the ``yaml-language-server`` modeline that lets editors validate the file
    (a path relative to where the file is written, or a URL); without it none is written, since
    the shipped scenarios name the schema relative to their own place in the repository.
    """
    lines: list[str] = []
    if schema is not None:
        lines.append(f"# yaml-language-server: $schema={schema}")
    lines.append(f"name: {_quoted(scenario.name)}")
    if scenario.description:
        lines.append(f"description: {_quoted(scenario.description)}")
    lines.append(f"first: {_colour(scenario.first)}")
    if scenario.turn_limit is not None:
        lines.append(f"turn_limit: {scenario.turn_limit}")
    for color in Color:
        lines.append(f"{_colour(color)}:")
        lines.extend(_INDENT + line for line in _side(scenario.side(color)))
    if scenario.markers:
        lines.append("markers:")
        for markers in scenario.markers:
            lines.extend(_INDENT + line for line in _marker_set(markers))
    if scenario.conditions or not scenario.core_victory:
        lines.append("win:")
        lines.append(f"{_INDENT}core: {'true' if scenario.core_victory else 'false'}")
        if scenario.conditions:
            lines.append(f"{_INDENT}conditions:")
            lines.extend(f"{_INDENT * 2}- {_condition(condition)}" for condition in scenario.conditions)
    return "\n".join(lines) + "\n"


# --- the sides -----------------------------------------------------------------------------------


def _side(side: SideSetup) -> Iterator[str]:
    yield f"lp: {side.lp}"
    yield f"sp: {side.sp}"
    gem = []
    if side.own is not None:
        gem.append(f"own: {_counts(side.own)}")
    if side.captured != NO_PIECES:
        gem.append(f"captured: {_counts(side.captured)}")
    if gem:
        yield "gem:"
        yield from (_INDENT + line for line in gem)
    if side.pieces:
        yield "pieces: [" + ", ".join(kind.letter + name(sq) for sq, kind in side.pieces) + "]"


def _counts(counts: Counts) -> str:
    """``{P: 8, R: 1}``: the kinds a Gem holds, in the order P N B R Q (none: ``{}``)."""
    held = (f"{kind.letter}: {count}" for kind, count in zip(NON_KING_KINDS, counts, strict=True) if count)
    return "{" + ", ".join(held) + "}"


# --- markers and win conditions --------------------------------------------------------------------


def _marker_set(markers: MarkerSet) -> Iterator[str]:
    owners = set(markers.owners)
    if owners == {None} or not markers.squares:
        yield f"{_key(markers.name)}: {_squares(markers.squares)}"
        return
    if None in owners:
        raise ValueError(
            f"the marker set '{markers.name}' has neutral markers and markers of a side; a scenario file "
            "writes a set either as a list (neutral) or as {white: [...], black: [...]}"
        )
    groups: list[tuple[Color, list[Square]]] = []
    for sq, owner in zip(markers.squares, markers.owners, strict=True):
        assert owner is not None
        if groups and groups[-1][0] is owner:
            groups[-1][1].append(sq)
        elif any(color is owner for color, _ in groups):
            raise ValueError(
                f"the marker set '{markers.name}' lists {owner.title}'s markers apart; a scenario file lists "
                "each side's markers together"
            )
        else:
            groups.append((owner, [sq]))
    yield f"{_key(markers.name)}:"
    for color, squares in groups:
        yield f"{_INDENT}{_colour(color)}: {_squares(squares)}"


def _squares(squares: tuple[Square, ...] | list[Square]) -> str:
    return "[" + ", ".join(name(sq) for sq in squares) + "]"


def _condition(condition: WinCondition) -> str:
    """``captured_value: {at_least: 5, side: black}`` and the like (the side only when not both)."""
    side = _SIDE_WORDS.get(tuple(condition.sides))
    if side is None:
        sides = ", ".join(c.title for c in condition.sides) or "no side"
        raise ValueError(f"a win condition is for White, Black or both, not for {sides}")
    args: list[str] = []
    kind = condition.kind
    if (condition.markers is not None) != (kind is WinKind.HOLD_MARKERS):
        raise ValueError(f"{kind.value} {'needs' if kind is WinKind.HOLD_MARKERS else 'takes no'} marker set")
    if (condition.value is not None) != (kind is WinKind.CAPTURED_VALUE):
        raise ValueError(f"{kind.value} {'needs' if kind is WinKind.CAPTURED_VALUE else 'takes no'} value")
    if condition.markers is not None:
        args.append(f"set: {_key(condition.markers)}")
    if condition.value is not None:
        args.append(f"at_least: {condition.value}")
    if side != "both":
        args.append(f"side: {side}")
    return f"{kind.value}: {{{', '.join(args)}}}"


# --- words ------------------------------------------------------------------------------------------


def _colour(color: Color) -> str:
    return "white" if color is Color.WHITE else "black"


def _key(text: str) -> str:
    """A marker set's name: a plain word where YAML reads one as a string, else in quotes."""
    return text if _WORD.fullmatch(text) and ascii_lower(text) not in _NOT_STRINGS else _quoted(text)


def _quoted(text: str) -> str:
    """``text`` as a YAML double-quoted scalar: one line, every character YAML would not keep as
    written (line breaks, control characters, a byte-order mark) escaped."""
    return '"' + "".join(_ESCAPES.get(c) or (c if _printable(c) else _escape(c)) for c in text) + '"'


def _printable(c: str) -> bool:
    """YAML's printable characters (YAML 1.2 §5.1), without NEL, LS, PS (line breaks to YAML 1.1)
    and the byte-order mark."""
    code = ord(c)
    if code in (0x2028, 0x2029, 0xFEFF):
        return False
    return 0x20 <= code <= 0x7E or 0xA0 <= code <= 0xD7FF or 0xE000 <= code <= 0xFFFD or 0x10000 <= code <= 0x10FFFF


def _escape(c: str) -> str:
    code = ord(c)
    if code <= 0xFF:
        return f"\\x{code:02x}"
    return f"\\u{code:04x}" if code <= 0xFFFF else f"\\U{code:08x}"
