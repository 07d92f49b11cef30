"""The same game log in the layouts people write by hand.

``sgcheck`` writes logs in one canonical layout (:mod:`sgcheck.lang.logs.writer`: lower-case
keywords, single spaces, one statement per line, later phases aligned under the first), and the
generator (:mod:`sgcheck.replay.generate`) produces every test and benchmark log in it. People at
the table write the same content in many other ways, all allowed by docs/log-format.md: keywords
in capitals, tabs and extra spaces, brace and end-of-line comments, a statement continued on the
next line, CRLF line ends and a byte-order mark. Tests need those layouts to show that every one
replays exactly like the canonical text, and benchmarks need them to show that every one is read
quickly, not only the canonical one. This module rewrites a log from one layout into another.

It is a pure text transformation: it never parses a log, never changes what a log says (the same
items, actions, claims, dice, numbers, squares, piece letters, quoted names and comments, in the
same order; comments are only ever added) and is deterministic; where it makes a choice (which
turns get a comment, a tab or four spaces), the choice comes from ``seed``. Words are told apart
by their spelling only, so it also works on logs that do not replay (a broken log stays broken in
the same place).

Layouts (:data:`LAYOUTS`):

``plain``
    the text unchanged.
``capitalised``
    every keyword capitalised (``Upkeep:``, ``Move``, ``Attack``, ``Roll``, ``Reroll``, ``Play``,
    ``On``, ``Cost``, ``Hit``, ``King``, ``White``, ``Result``...); piece letters, squares,
    amounts, tag names, quoted names and comments are never touched (piece letters and files are
    case-sensitive).
``indented``
    other indentation and spacing: one unit (four spaces or a tab, chosen per turn) before a phase
    label on its own line, two units before further statements and three before continued lines,
    a tab or two spaces after a turn number, and two spaces before every action keyword and
    before the first claim of an action.
``brace-comments``
    a ``{ ... }`` comment line before every few turns (some of them spanning two lines), now and
    then a ``{ ... }`` comment between a phase label and its action, and ``;`` comments at the
    end of some action lines.
``two-line``
    actions continued over two lines: an action's claims on the next line (an attack without
    claims: its ``roll`` and dice), a roll-off's ``black`` dice on the next line; a further
    action on the same line starts a line of its own.
``crlf-bom``
    CRLF line ends and a byte-order mark (U+FEFF) at the start: encode the text with
    :func:`relayout_bytes` to get the bytes of the file.
``mixed``
    all of the above at once.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Iterable, Iterator
from typing import Final, NamedTuple

from sgcheck.letters import ascii_lower, ascii_upper

__all__ = ["LAYOUTS", "relayout", "relayout_bytes", "relayout_lines"]

#: Every layout :func:`relayout` writes, the canonical one first.
LAYOUTS: Final[tuple[str, ...]] = (
    "plain",
    "capitalised",
    "indented",
    "brace-comments",
    "two-line",
    "crlf-bom",
    "mixed",
)

BOM: Final = "\ufeff"

_ACTIONS: Final = frozenset(
    (
        "summon",
        "move",
        "attack",
        "convert",
        "teleport",
        "break",
        "repair",
        "activate",
        "play",
        "reveal",
        "pass",
        "income",
    )
)
_CLAIMS: Final = frozenset(
    {
        "cost",
        "pay",
        "lp",
        "sp",
        "threshold",
        "hit",
        "miss",
        "damage",
        "king-damage",
        "capture",
        "converts",
        "success",
        "fail",
        "gain",
    }
)
_PHASE_NAMES: Final = ("upkeep", "main1", "battle", "main2", "end")
_PHASES: Final = frozenset(name + ":" for name in _PHASE_NAMES)
_SETUP: Final = frozenset({"draft", "rolloff", "choose", "king", "result"})
#: Every word that is a keyword (case-insensitive) wherever it stands outside a tag, a quoted
#: name or a comment. Piece letters, squares, numbers, amounts (``5sp``) and scores are not.
_KEYWORDS: Final = (
    _ACTIONS
    | _CLAIMS
    | _PHASES
    | _SETUP
    | frozenset(_PHASE_NAMES)
    | frozenset({"white", "black", "roll", "reroll", "advantage", "on", "to", "conversion", "lp1000", "turn-limit"})
)
_LINE_BREAK = re.compile(r"\r\n|\r|\n")
_TURN = re.compile(r"[0-9]+\.(?:\.\.)?")
# One token and the blanks before it: a ';' comment, a '{...}' comment (possibly still open at the
# end of the text it is given), a quoted name, or a word (anything else up to a blank or one of
# the characters that start the others).
_TOKEN = re.compile(r'([ \t\f\v]*)(?:(;[^\n]*)|(\{[^}]*\}?)|("(?:[^"\\\n]|\\.)*"?)|([^\s;{"]+))')


class _Tok(NamedTuple):
    gap: str  # the blanks before the token; for a line's first token, its indentation
    kind: str  # "word", "string", "comment" (';' to the end of the line) or "brace" ('{...}')
    text: str
    low: str  # a word in lower case; "" for the other kinds


_Line = list[_Tok]
_Transform = Callable[[Iterable[_Line], random.Random], Iterator[_Line]]


def _tokens(line: str) -> _Line:
    toks: _Line = []
    for match in _TOKEN.finditer(line):
        gap, comment, brace, string, word = match.groups()
        if comment is not None:
            toks.append(_Tok(gap, "comment", comment, ""))
        elif brace is not None:
            toks.append(_Tok(gap, "brace", brace, ""))
        elif string is not None:
            toks.append(_Tok(gap, "string", string, ""))
        else:
            toks.append(_Tok(gap, "word", word, ascii_lower(word)))
    return toks


def _open_brace(toks: _Line) -> bool:
    """Whether the line ends inside a ``{`` comment (which then continues on the next line)."""
    return bool(toks) and toks[-1].kind == "brace" and not toks[-1].text.endswith("}")


def _logical_lines(lines: Iterable[str]) -> Iterator[_Line]:
    """The tokens of each line; a line whose ``{`` comment runs on is joined with the lines it spans."""
    held = ""
    for raw in lines:
        line = raw.rstrip("\r\n")
        if held:
            line = held + "\n" + line
        toks = _tokens(line)
        if _open_brace(toks):
            held = line
            continue
        held = ""
        yield toks
    if held:  # a '{' never closed: kept as it is (the log is broken there anyway)
        yield _tokens(held)


def _text(toks: _Line) -> str:
    return "".join(tok.gap + tok.text for tok in toks)


def _role(toks: _Line) -> str:
    """What a line starts with: blank, tag, comment, turn, phase, action, setup or continuation."""
    if not toks:
        return "blank"
    first = toks[0]
    if first.kind in ("comment", "brace"):
        return "comment"
    if first.kind == "word":
        if first.text.startswith("["):
            return "tag"
        word = first.low
        if _TURN.fullmatch(word):
            return "turn"
        if word in _PHASES:
            return "phase"
        if word in _ACTIONS:
            return "action"
        if word in _SETUP:
            return "setup"
    return "continuation"


def _at(toks: _Line, index: int, gap: str) -> _Tok:
    tok = toks[index]
    return tok if tok.gap == gap else _Tok(gap, tok.kind, tok.text, tok.low)


# --- capitalised ---------------------------------------------------------------------------------


def _capitalise(lines: Iterable[_Line], rng: random.Random) -> Iterator[_Line]:
    in_tag = False
    for toks in lines:
        out: _Line = []
        for tok in toks:
            if tok.low:
                if tok.low[0] == "[":
                    in_tag = True
                if not in_tag and tok.low in _KEYWORDS:
                    tok = _Tok(tok.gap, tok.kind, ascii_upper(tok.low[0]) + tok.low[1:], tok.low)
                if tok.low[-1] == "]":
                    in_tag = False
            out.append(tok)
        yield out


# --- indented ------------------------------------------------------------------------------------


def _indent(lines: Iterable[_Line], rng: random.Random) -> Iterator[_Line]:
    unit = "    "
    in_turn = False
    for toks in lines:
        role = _role(toks)
        if role == "turn":
            unit = rng.choice(("    ", "\t"))
        if role in ("turn", "setup", "tag"):
            in_turn = role == "turn"
        if not in_turn or role not in ("turn", "phase", "action", "continuation"):
            yield toks
            continue
        indent = {"turn": "", "phase": unit, "action": unit * 2, "continuation": unit * 3}[role]
        out = [_at(toks, 0, indent)]
        seen_action = False
        claims_started = False
        for index in range(1, len(toks)):
            word = toks[index].low
            gap = toks[index].gap
            if word in _ACTIONS:
                gap, seen_action, claims_started = "  ", True, False
            elif word in _CLAIMS and seen_action and not claims_started:
                gap, claims_started = "  ", True
            elif index == 1 and role == "turn":
                gap = "\t" if unit == "\t" else "  "
            out.append(_at(toks, index, gap))
        yield out


# --- brace-comments ------------------------------------------------------------------------------

_BRACE_NOTES: Final = (
    "Ana thinks for a while",
    "clock: 12 min left",
    "a long think; then the plan",
    'the "Soul Drain" card is still in hand',
    "both players agree on the totals",
    "score sheet checked, page 2",
)
_TWO_LINE_NOTES: Final = (
    ("Ben asks for the rulebook", "and checks core §4.2 before going on"),
    ("a short break here,", "play resumes after ten minutes"),
    ("the Knight's two-jump move", "costs 6 whatever the middle square"),
)
_INLINE_NOTES: Final = ("forced", "after a long think", "as planned", "!?")
_LINE_NOTES: Final = (
    "checked by both players",
    "as agreed",
    "a slip of the pen? no",
    "the {first} roll fell off the table",
    "Ben's note",
)


def _brace_comments(lines: Iterable[_Line], rng: random.Random) -> Iterator[_Line]:
    until_comment = rng.randint(1, 3)
    written = 0
    for toks in lines:
        role = _role(toks)
        if role == "turn":
            until_comment -= 1
            if until_comment == 0:
                until_comment = rng.randint(2, 4)
                written += 1
                if written == 1 or rng.random() < 0.4:  # the first one, and about 40%, over two lines
                    first, second = rng.choice(_TWO_LINE_NOTES)
                    yield [_Tok("", "brace", "{ " + first + "\n  " + second + " }", "")]
                else:
                    yield [_Tok("", "brace", "{ " + rng.choice(_BRACE_NOTES) + " }", "")]
        if role in ("turn", "phase", "action", "continuation"):
            toks = list(toks)
            labels = [i for i, tok in enumerate(toks[:-1]) if tok.low in _PHASES]
            if labels and toks[labels[0] + 1].low in _ACTIONS and rng.random() < 0.1:
                at = labels[0] + 1
                toks.insert(at, _Tok(toks[at].gap, "brace", "{ " + rng.choice(_INLINE_NOTES) + " }", ""))
            if toks[-1].kind != "comment" and any(t.low in _ACTIONS for t in toks) and rng.random() < 0.15:
                toks.append(_Tok("   ", "comment", "; " + rng.choice(_LINE_NOTES), ""))
        yield toks


# --- two-line ------------------------------------------------------------------------------------


def _split_points(toks: _Line) -> list[int]:
    """Where a line goes on on the next line (token indexes): before the claims of each action (an
    attack without claims: before ``roll``), before each further action, before a roll-off's
    ``black`` dice."""
    if toks and toks[0].low == "rolloff":
        return [i for i, tok in enumerate(toks) if tok.low == "black"][:1]
    starts = [i for i, tok in enumerate(toks) if tok.low in _ACTIONS]
    points: list[int] = []
    for number, start in enumerate(starts):
        if number:
            points.append(start)
        end = starts[number + 1] if number + 1 < len(starts) else len(toks)
        words = [tok.low for tok in toks[start:end]]
        claim = next((i for i, word in enumerate(words) if word in _CLAIMS), None)
        if claim is None and words[0] == "attack" and "roll" in words:
            claim = words.index("roll")
        if claim is not None:
            points.append(start + claim)
    return points


def _two_line(lines: Iterable[_Line], rng: random.Random) -> Iterator[_Line]:
    for toks in lines:
        points = [i for i in _split_points(toks) if i > 0 and toks[i - 1].kind != "comment"]
        if not points:
            yield toks
            continue
        start = 0
        column = 0
        for point in [*points, len(toks)]:
            part = toks[start:point]
            if start == 0:
                # continued lines go two columns right of where the line's (first) action begins
                head = next((i for i, t in enumerate(part) if t.low in _ACTIONS or t.low == "rolloff"), 0)
                column = len(_text(part[:head])) + len(part[head].gap) + 2
                yield part
            else:
                yield [_at(part, 0, " " * column), *part[1:]]
            start = point


# --- the pipelines -------------------------------------------------------------------------------

_STEPS: Final[dict[str, tuple[tuple[str, _Transform], ...]]] = {
    "plain": (),
    "capitalised": (("capitalised", _capitalise),),
    "indented": (("indented", _indent),),
    "brace-comments": (("brace-comments", _brace_comments),),
    "two-line": (("two-line", _two_line),),
    "crlf-bom": (),
}
_STEPS["mixed"] = _STEPS["two-line"] + _STEPS["brace-comments"] + _STEPS["indented"] + _STEPS["capitalised"]
_CRLF_BOM: Final = frozenset({"crlf-bom", "mixed"})


def relayout_lines(lines: Iterable[str], layout: str, *, seed: int = 0) -> Iterator[str]:
    """Rewrite a log given line by line (with or without their line ends); yield the new text.

    Streams, so memory stays flat however long the log is. The pieces joined are the text of
    :func:`relayout`; every line comes out with a line end, LF or (``crlf-bom``, ``mixed``) CRLF.
    """
    if layout not in LAYOUTS:
        raise ValueError(f"unknown layout {layout!r}; expected one of {', '.join(LAYOUTS)}")
    end = "\r\n" if layout in _CRLF_BOM else "\n"
    if layout in _CRLF_BOM:
        yield BOM
    steps = _STEPS[layout]
    if not steps:
        for line in lines:
            yield line.rstrip("\r\n") + end
        return
    stream: Iterable[_Line] = _logical_lines(lines)
    for name, step in steps:
        stream = step(stream, random.Random(f"{name}:{seed}"))
    for toks in stream:
        yield _text(toks).replace("\n", end) + end


def relayout(text: str, layout: str, *, seed: int = 0) -> str:
    """``text`` (a log in any layout) rewritten in ``layout``; ``plain`` returns it unchanged.

    The result is text: for ``crlf-bom`` and ``mixed`` it starts with U+FEFF and its lines end in
    CRLF, so write it with :func:`relayout_bytes` (or ``.encode("utf-8")``), never through a file
    opened in text mode, which may translate the line ends again.
    """
    if layout == "plain":
        return text
    lines = _LINE_BREAK.split(text.removeprefix(BOM))
    final_break = lines[-1] == ""
    if final_break:
        lines.pop()
    out = "".join(relayout_lines(lines, layout, seed=seed))
    if lines and not final_break:  # a last line without a line end keeps it that way
        out = out[: -len("\r\n" if layout in _CRLF_BOM else "\n")]
    return out


def relayout_bytes(text: str, layout: str, *, seed: int = 0) -> bytes:
    """The bytes of a ``.sglog`` file holding ``text`` in ``layout`` (UTF-8)."""
    return relayout(text, layout, seed=seed).encode("utf-8")
