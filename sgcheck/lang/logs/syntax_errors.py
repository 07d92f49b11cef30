"""Friendly syntax errors for game logs: Lark's exceptions in words a chess player can act on.

``match_examples`` classifies the parser state of an error against labelled examples of common
mistakes; a few word-level checks (``i9``, ``upkeep`` without its colon, misspelt keywords)
sharpen the message. Every syntax error of a log is worded here (SG-P001, SG-P002, SG-P003).
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast

from sgcheck import codes
from sgcheck.diagnostics import Diagnostic, Span
from sgcheck.lang.lark_adapter import last_value, state_position
from sgcheck.lang.source import SourceText
from sgcheck.letters import Foreign, ascii_lower, describe, first_foreign, unfold

if TYPE_CHECKING:
    from lark.exceptions import UnexpectedInput

    from sgcheck.lang.lark_adapter import InteractiveParser


from sgcheck.lang.logs.transformer import or_list


@dataclass(frozen=True, slots=True)
class _Expect:
    """What a parser state was waiting for, in words a player understands.

    ``expected`` and ``hint`` may use ``{prev}``: the word just before the error. With
    ``hint_first`` the hint wins over the hints about the word found (which would mislead there).
    """

    expected: str
    label: str
    hint: str | None = None
    hint_first: bool = False


def _stmt_examples(*bodies: str) -> tuple[str, ...]:
    """Statement-level mistakes, placed in a phase block. (A loose statement reaches the same
    LALR states, and matching ignores stack depth, so one placement covers both.)"""
    return tuple(f"1. main1: {b}" for b in bodies)


_ATTACK_ROLL = _Expect(
    "'roll' and the two accuracy dice after the target (e.g. 'roll 6 1')",
    "expected 'roll' here",
    "an attack is written 'attack <attacker> <target> roll <tens> <ones>', e.g. 'attack Ra3 a5 roll 6 1'",
)
_ATTACK_DICE = _Expect(
    "the dice after 'roll' (two d10 faces, e.g. 'roll 6 1')",
    "expected two dice here",
    "accuracy is two d10 read as tens and ones; '0 0' counts as 100 (core §4.2)",
)
_GEM_ROLL = _Expect(
    "'roll' and the three d6 after '{prev}' (e.g. '{prev} roll 4 5 6')",
    "expected 'roll' here",
)
_GEM_DICE = _Expect(
    "the dice after 'roll' (three d6 faces, e.g. 'roll 4 5 6')",
    "expected three dice here",
    "Break and Repair roll 3d6 (core §6)",
)
_CLAIM_NUMBER = _Expect(
    "a number after '{prev}'",
    "expected a number here",
    "write the value the claim states, e.g. '{prev} 7'",
)
_CLAIM_AMOUNT = _Expect(
    "an amount with its resource after '{prev}', such as '{prev} 5sp' or '{prev} 7lp'",
    "expected an amount like 5sp or 7lp",
    "write the resource right after the number, with no space: '5sp', '7lp'",
)
_STMT_NUMBER = _Expect("a number after '{prev}' (e.g. '{prev} 10')", "expected a number here")
_PIECE = _Expect(
    "the piece, written as its square with an optional piece letter (e.g. 'Ra1' or 'a1')",
    "expected a piece here",
    "squares run from a1 to h8; piece letters are K Q R B N P in capitals",
)
_DESTINATION = _Expect(
    "the destination square (a1 to h8)",
    "expected a square here",
    "the destination is a bare square such as 'a3'; a knight's two-jump move lists its middle square first",
)
_TARGET = _Expect(
    "the target, written as its square with an optional piece letter (e.g. 'Pa5' or 'a5')",
    "expected the target here",
)
_SUMMON_PIECE = _Expect(
    "the piece letter and the square to summon on (e.g. 'summon Q d1')",
    "expected a piece letter here",
    "piece letters are K Q R B N P in capitals",
)
_SUMMON_SQUARE = _Expect("the square to summon on (a1 to h8)", "expected a square here")
_CARD = _Expect(
    "the card name in double quotes (e.g. 'activate \"Soul Drain\"')",
    "expected a quoted card name",
)
_PLAY_CARD = _Expect(
    "the card name in double quotes (e.g. 'play \"Soul Drain\"')",
    "expected a quoted card name",
    "write the card's name as its pack does, in double quotes; a target follows it: 'play \"Bolt\" on Rb7'",
)
_REVEAL_CARD = _Expect(
    "the card revealed, its name in double quotes (e.g. 'reveal \"Haste\" to white')",
    "expected a quoted card name",
    "a market's reveal is written after the capture: 'reveal \"Card\" to white' or 'to black' (R26)",
)
_REVEAL_TO = _Expect(
    "'to' and the player the card is placed before (e.g. 'reveal \"Haste\" to black')",
    "expected 'to' here",
    "the capturer places the revealed card before either player: 'to white' or 'to black' (R26)",
)
_REVEAL_SIDE = _Expect(
    "the player the card is placed before, 'white' or 'black', after 'to'",
    "expected white or black",
)
_CARD_TARGET = _Expect(
    "the piece the card acts on after 'on', written as its square with an optional piece letter "
    "(e.g. 'on Rb7' or 'on b7')",
    "expected a piece here",
    "squares run from a1 to h8; piece letters are K Q R B N P in capitals",
)
_SECOND_DICE = _Expect(
    "the two dice of the second roll after '{prev}' (two d10 faces, e.g. '{prev} 2 3')",
    "expected two dice here",
    "a card's reroll or advantage is a second accuracy roll, written after the first: 'roll 4 1 reroll 2 3'",
)
_SECOND_DIE = _Expect(
    "the second die of the second roll (two d10 faces, e.g. 'reroll 2 3')",
    "expected a second die here",
    "a second accuracy roll is two d10 read as tens and ones, like the first",
)
_AFTER_SECOND = _Expect(
    "a claim or the next statement after the second roll, which is two dice (e.g. 'reroll 2 3')",
    "unexpected after the second roll",
    "a second accuracy roll is two d10 read as tens and ones, like the first",
    hint_first=True,  # a third die is no claim's number
)
_COLOUR = _Expect("the colour, 'white' or 'black', after '{prev}'", "expected white or black")
_DRAFT_CARDS = _Expect(
    'the kept cards as quoted names (e.g. \'draft white "Soul Ward" "Soul Drain"\')',
    "expected a quoted card name",
)
_ROLLOFF_WHITE = _Expect(
    "'white' and White's three d6 (the roll-off is written 'rolloff white 6 5 3 black 2 2 1')",
    "expected 'white' here",
)
_ROLLOFF_DICE = _Expect(
    "three d6 faces per player (the roll-off is written 'rolloff white 6 5 3 black 2 2 1')",
    "expected a die here",
    "the roll-off is 3d6 per player, White's dice first (core §1, R01)",
)
_ROLLOFF_BLACK = _Expect(
    "'black' after White's three dice (the roll-off is written 'rolloff white 6 5 3 black 2 2 1')",
    "expected 'black' here",
    "the roll-off is 3d6 per player, White's dice first (core §1, R01)",
)
_KING_SQUARE = _Expect("the King's square (a1 to h8)", "expected a square here")
_SCORE = _Expect("the score after 'result': 1-0, 0-1, 1/2-1/2 or *", "expected a score here")
_TAG_NAME = _Expect("the tag name after '[' (e.g. '[Event \"Friday league\"]')", "expected a tag name")
_TAG_VALUE = _Expect("the tag value in double quotes (e.g. '[Event \"Friday league\"]')", "expected a quoted value")
_TAG_CLOSE = _Expect("']' to close the tag", "expected ']' here")

#: Labelled examples of common mistakes. Each example must fail exactly at the state it labels
#: (tests/lang/test_log_parser.py checks this). Matching is by parser state, ignoring stack depth.
_EXAMPLES: tuple[tuple[_Expect, tuple[str, ...]], ...] = (
    (_ATTACK_ROLL, _stmt_examples("attack Ra1 a2 hit", "attack Ra1 a2 6 1")),
    (_ATTACK_DICE, _stmt_examples("attack Ra1 a2 roll hit")),
    (_GEM_ROLL, _stmt_examples("break 4 5 6", "repair 4 5 6")),
    (_GEM_DICE, _stmt_examples("break roll success", "repair roll fail")),
    (
        _CLAIM_NUMBER,
        _stmt_examples(
            "pass cost x", "pass lp x", "pass sp x", "pass threshold x", "pass damage x", "pass king-damage x"
        ),
    ),
    (_CLAIM_AMOUNT, _stmt_examples("pass pay 5", "pass pay 5sp 5", "pass gain 5")),
    (_STMT_NUMBER, _stmt_examples("convert x", "income x")),
    (_PIECE, _stmt_examples("move x", "teleport x", "attack x")),
    (_DESTINATION, _stmt_examples("move Ra1 x", "teleport Ra1 x")),
    (_TARGET, _stmt_examples("attack Ra1 x")),
    (_SUMMON_PIECE, _stmt_examples("summon x")),
    (_SUMMON_SQUARE, _stmt_examples("summon Q x")),
    (_CARD, _stmt_examples("activate x")),
    (_PLAY_CARD, _stmt_examples("play x")),
    (_CARD_TARGET, _stmt_examples('play "X" on x', 'activate "X" on x')),
    (_REVEAL_CARD, _stmt_examples("reveal x")),
    (_REVEAL_TO, _stmt_examples('reveal "X" x')),
    (_REVEAL_SIDE, _stmt_examples('reveal "X" to x')),
    (_SECOND_DICE, _stmt_examples("attack Ra1 a2 roll 1 1 reroll x", "attack Ra1 a2 roll 1 1 advantage x")),
    (_SECOND_DIE, _stmt_examples("attack Ra1 a2 roll 1 1 reroll 1 x", "attack Ra1 a2 roll 1 1 advantage 1 x")),
    (_AFTER_SECOND, _stmt_examples("attack Ra1 a2 roll 1 1 reroll 1 1 1", "attack Ra1 a2 roll 1 1 advantage 1 1 1")),
    (_COLOUR, ("draft x", "king x")),
    (_DRAFT_CARDS, ("draft white x",)),
    (_ROLLOFF_WHITE, ("rolloff x",)),
    (
        _ROLLOFF_DICE,
        (
            "rolloff white x",
            "rolloff white 1 x",
            "rolloff white 1 2 x",
            "rolloff white 1 2 3 black x",
            "rolloff white 1 2 3 black 1 x",
            "rolloff white 1 2 3 black 1 2 x",
        ),
    ),
    (_ROLLOFF_BLACK, ("rolloff white 1 2 3 x",)),
    (_KING_SQUARE, ("king white x",)),
    (_SCORE, ("result x",)),
    (_TAG_NAME, ("[1",)),
    (_TAG_VALUE, ("[Event x",)),
    (_TAG_CLOSE, ('[Event "x" x',)),
)

#: Plain-word descriptions of terminals, for the generic "expected ..." message.
_SINGLE_WORDS: dict[str, str] = {
    "TURN": "a turn number ('3.' for White, '3...' for Black)",
    "PHASE": "a phase label (upkeep:, main1:, battle:, main2:, end:)",
    "RESULT": "a result line",
    "LSQB": "a header tag",
    "REF": "a square with an optional piece letter (e.g. 'Ra1')",
    "SQUARE": "a square (a1 to h8)",
    "PIECE_LETTER": "a piece letter (K Q R B N P)",
    "INT": "a number",
    "AMOUNT": "an amount such as '5sp' or '7lp'",
    "STRING": 'a name in double quotes (e.g. "Soul Drain")',
    "TAG_NAME": "a tag name",
    "RSQB": "']'",
    "WHITE": "'white'",
    "BLACK": "'black'",
    "ROLL": "'roll'",
    "ON": "a target ('on' and a piece, e.g. 'on Rb7')",
    "SCORE": "a score (1-0, 0-1, 1/2-1/2 or *)",
    "REASON": "a result reason (conversion, lp1000, turn-limit, scenario)",
    "$END": "the end of the log",
}
_STATEMENT_TERMINALS = (
    "SUMMON", "MOVE", "ATTACK", "CONVERT", "TELEPORT", "BREAK", "REPAIR", "ACTIVATE", "PLAY", "REVEAL", "PASS",
    "INCOME",
)  # fmt: skip
_CLAIM_TERMINALS = (
    "COST", "PAY", "LP", "SP", "THRESHOLD", "HIT", "MISS", "DAMAGE", "KING_DAMAGE", "CAPTURE", "CONVERTS",
    "SUCCESS", "FAIL", "GAIN",
)  # fmt: skip
_SETUP_TERMINALS = ("DRAFT", "ROLLOFF", "KING")
_SECOND_ROLL_TERMINALS = ("REROLL", "ADVANTAGE")
_GROUPS: tuple[tuple[tuple[str, ...], str], ...] = (
    (_SECOND_ROLL_TERMINALS, "a second roll"),
    (_CLAIM_TERMINALS, "a claim"),
    (_STATEMENT_TERMINALS, "a statement"),
    (("PHASE",), _SINGLE_WORDS["PHASE"]),
    (("TURN",), _SINGLE_WORDS["TURN"]),
    (_SETUP_TERMINALS, "a setup line"),
    (("RESULT",), "a result line"),
)
_ORDER = ("LSQB", "TAG_NAME", "STRING", "RSQB", "WHITE", "BLACK", "ROLL", "ON", "PIECE_LETTER", "REF", "SQUARE",
          "INT", "AMOUNT", "SCORE", "REASON")  # fmt: skip
_PHASE_WORDS = ("upkeep:", "main1:", "battle:", "main2:", "end:")


def _keyword_of(terminal: str) -> str:
    return terminal.lower().replace("_", "-")


def _expected_words(accepts: Iterable[str]) -> str:
    """A readable 'expected' phrase for a set of acceptable terminals."""
    acc = set(accepts)
    groups = [(group, phrase) for group, phrase in _GROUPS if acc.intersection(group)]
    brief = len(groups) > 3  # many choices: name the kinds only, or the sentence gets unreadable
    parts: list[str] = []
    for group, phrase in groups:
        present = [t for t in group if t in acc]
        acc.difference_update(group)
        if brief:
            parts.append(phrase.split(" (")[0])
        elif len(group) > 1 and len(present) < len(group) and len(present) <= 4:
            parts.append(f"{phrase} ({', '.join(_keyword_of(t) for t in present)})")
        elif len(group) > 1 and phrase != "a claim":
            parts.append(f"{phrase} ({', '.join(_keyword_of(t) for t in group)})")
        else:
            parts.append(phrase)
    for terminal in _ORDER:
        if terminal in acc:
            acc.discard(terminal)
            parts.append(_SINGLE_WORDS[terminal])
    ends = "$END" in acc
    acc.discard("$END")
    parts.extend(sorted(_keyword_of(t) for t in acc))
    if ends:
        parts.append(_SINGLE_WORDS["$END"])
    return or_list(parts) if parts else "something else"


def _keywords_of(accepts: Iterable[str]) -> list[str]:
    """The literal words the parser would accept, for 'did you mean' suggestions."""
    words: list[str] = []
    for terminal in accepts:
        if terminal == "PHASE":
            words.extend(w[:-1] for w in _PHASE_WORDS)
        elif terminal in _STATEMENT_TERMINALS or terminal in _CLAIM_TERMINALS or terminal in _SETUP_TERMINALS:
            words.append(_keyword_of(terminal))
        elif terminal in ("WHITE", "BLACK", "ROLL", "RESULT", "ON", "TO") or terminal in _SECOND_ROLL_TERMINALS:
            words.append(terminal.lower())
    return words


def _shown(text: str, limit: int = 24) -> str:
    """Found text as shown in a message: quoted, shortened, control characters escaped."""
    if len(text) > limit:
        text = text[:limit] + "…"
    return "'" + "".join(c if c.isprintable() else f"\\u{ord(c):04x}" for c in text) + "'"


class _StateKey:
    """Compares parser states by LALR state only.

    ``match_examples`` normally also compares stack depth, but the depth of a statement's
    state depends on what precedes it (a loose statement, a phase block), which the examples
    cannot enumerate; the LALR state alone already says what was expected.
    """

    __slots__ = ("position",)

    def __init__(self, position: object) -> None:
        self.position = position

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _StateKey) and other.position == self.position

    def __hash__(self) -> int:
        return hash(self.position)


def _classify(exc: UnexpectedInput, parse: Callable[[str], None]) -> _Expect | None:
    """Which labelled example (if any) failed in the same parser state as ``exc``; ``parse``
    reads an example with the grammar, raising what Lark raises."""
    from lark.exceptions import UnexpectedInput

    def parse_example(text: str) -> None:
        try:
            parse(text)
        except UnexpectedInput as ex:
            ex.state = _StateKey(state_position(ex.state))
            raise

    state = exc.state
    exc.state = _StateKey(state_position(state))
    try:
        return exc.match_examples(
            cast(Any, parse_example), _EXAMPLES, token_type_match_fallback=True, use_accepts=False
        )
    finally:
        exc.state = state


_DOTS = re.compile(r"\.*")
_WORD_RE = re.compile(r"[^\s;{}\[\]\"]+")
_SQUARE_LIKE = re.compile(r"([A-Za-z]?)([A-Za-z])([0-9]+)")


def diagnose(
    exc: UnexpectedInput, parser: InteractiveParser, source: SourceText, parse: Callable[[str], None]
) -> Diagnostic:
    """Turn lark's exception into a diagnostic a chess player can act on (``parse``: see _classify)."""
    from lark.exceptions import UnexpectedToken

    n, text = source.name, source.text
    try:
        accepts: set[str] = set(parser.accepts())  # type: ignore[no-untyped-call]
    except Exception:  # pragma: no cover - accepts() only replays the parse table
        accepts = set()
    top = last_value(parser)
    prev = str(top).rstrip() if top is not None and hasattr(top, "type") else ""
    expect = _classify(exc, parse) if exc.state is not None else None

    expected = expect.expected.replace("{prev}", prev) if expect else _expected_words(accepts)
    label = expect.label if expect else "unexpected here"
    label_hint = expect.hint.replace("{prev}", prev) if expect and expect.hint else None

    if isinstance(exc, UnexpectedToken) and exc.token.type == "$END":
        line, column = end_position(text)
        return codes.diagnostic(
            "SG-P002",
            f"unexpected end of the log: expected {expected}",
            hint=label_hint or "the file may have been cut off, or the last statement is unfinished",
        ).at(Span.point(n, line, column, len(text)), "the log ends here")

    if isinstance(exc, UnexpectedToken):
        tok = exc.token
        pos, line, column = int(tok.start_pos or 0), int(tok.line or 1), int(tok.column or 1)
        word_token = tok.type == "TAG_NAME"  # the catch-all for words that are no keyword
    else:
        pos, line, column = int(exc.pos_in_stream or 0), int(exc.line), int(exc.column)
        word_token = False

    def at(length: int, shift: int = 0) -> Span:
        """``length`` characters starting ``shift`` characters after the error (same line)."""
        return Span(n, line, column + shift, line, column + shift + length, pos + shift, pos + shift + length)

    foreign = _foreign_in_word(text, pos)
    if foreign is not None:
        return foreign_error(foreign, text, pos, at, expected)

    if isinstance(exc, UnexpectedToken) and not word_token:
        found = str(exc.token).rstrip()
        hint = label_hint if expect and expect.hint_first else _token_hint(exc.token.type, found, accepts) or label_hint
        return codes.diagnostic("SG-P001", f"syntax error: expected {expected}, found {_shown(found)}", hint=hint).at(
            at(len(found)), label
        )

    char = text[pos] if pos < len(text) else ""
    if char == "{":
        return codes.diagnostic(
            "SG-P002",
            "unexpected end of the log: the '{' comment is never closed with '}'",
            hint="close the comment with '}' (brace comments do not nest)",
        ).at(at(1), "comment opened here")
    if char == '"':
        return _string_error(text, pos, at)
    if char == "}":
        return codes.diagnostic(
            "SG-P003",
            "unexpected character '}': no brace comment is open here",
            hint="brace comments are written '{ like this }' and do not nest",
        ).at(at(1), "unexpected '}'")
    if char == "." and re.search(r"[0-9]\.+$", text[max(0, pos - 40) : pos]):
        start = pos
        while start > max(0, pos - 40) and text[start - 1] in ".0123456789":
            start -= 1
        end = min(_DOTS.match(text, pos).end(), pos + 40)  # type: ignore[union-attr]
        return codes.diagnostic(
            "SG-P001",
            "syntax error: expected a turn number written '12.' for White or '12...' for Black, "
            f"found {_shown(text[start:end])}",
            hint="use one dot for White's turn and three dots for Black's",
        ).at(at(end - start, start - pos), "one or three dots")
    if not (char.isascii() and (char.isalnum() or char in "_*")):
        return codes.diagnostic(
            "SG-P003",
            f"unexpected character {_shown(char)}: expected {expected}",
            hint="squares are a1..h8, pieces K Q R B N P; comments start with ';' or go in '{ }'",
        ).at(at(1), "unexpected character")

    match = _WORD_RE.match(text, pos)
    word = match.group()[:200] if match else char
    return _word_error(word, expected, accepts, at, label if expect else "unknown word", label_hint)


def _foreign_in_word(text: str, pos: int) -> Foreign | None:
    """The first character outside ASCII in the word at ``pos`` (up to a blank, a comment, a
    bracket or a quote), if any: a keyword is ASCII letters, and Unicode is for names and comments."""
    match = _WORD_RE.match(text, pos)
    return first_foreign(text, pos, min(match.end(), pos + 200)) if match else None


def foreign_error(foreign: Foreign, text: str, pos: int, at: Callable[..., Span], expected: str) -> Diagnostic:
    """A character outside ASCII where the log has a word, named and placed at the character:
    SG-P003 where it starts the word as written (no token starts with it), SG-P001 inside one."""
    start = foreign.offset
    while start > max(0, foreign.offset - 40) and _WORD_RE.match(text[start - 1]):
        start -= 1
    match = _WORD_RE.match(text, start)
    word = match.group() if match and match.end() - start <= 40 else ""
    ascii_word = unfold(word) if word else None
    if ascii_word is not None:
        hint = f"keywords, units and labels are ASCII letters, in any case: write {_shown(ascii_word, 40)}"
    else:
        hint = (
            "keywords, units and labels are ASCII letters, in any case; other text belongs in a comment "
            "or a quoted name"
        )
    span = at(1, foreign.offset - pos)
    if start < foreign.offset:
        return codes.diagnostic("SG-P001", f"syntax error: {foreign.message}", hint=hint).at(span, foreign.label)
    if foreign.imitates is None and not foreign.char.isalnum():  # a sign, a mark, a space of another kind
        message = f"unexpected character {describe(foreign.char)}: expected {expected}"
    else:
        message = f"unexpected character {describe(foreign.char)}: it is {foreign.label}"
    return codes.diagnostic("SG-P003", message, hint=hint).at(span, foreign.label)


def end_position(text: str) -> tuple[int, int]:
    """Line and column just after the last character."""
    return text.count("\n") + 1, len(text) - (text.rfind("\n") + 1) + 1


def _word_error(
    word: str, expected: str, accepts: set[str], at: Callable[..., Span], label: str, hint: str | None
) -> Diagnostic:
    """A word that is no token here: a phase label without its colon, a bad square, a typo."""
    lower = ascii_lower(word)
    span = at(len(word))
    base = lower.rstrip(":")
    if "PHASE" in accepts and base in ("upkeep", "main1", "battle", "main2", "end", "main"):
        if base == "main":
            message = f"syntax error: expected the phase label 'main1:' or 'main2:' (no space), found {_shown(word)}"
        else:
            message = f"syntax error: a phase label ends with ':': expected '{base}:', found {_shown(word)}"
        return codes.diagnostic("SG-P001", message, hint="phase labels are upkeep:, main1:, battle:, main2:, end:").at(
            span, "phase label needs ':'"
        )

    square = _SQUARE_LIKE.fullmatch(word)
    if square and accepts & {"REF", "SQUARE", "PIECE_LETTER"}:
        letter, file, rank = square.group(1), square.group(2), square.group(3)
        return codes.diagnostic(
            "SG-P001",
            f"syntax error: expected {expected}, found {_shown(word)}, which is not a square",
            hint=_square_hint(letter, file, rank, letter_ok=bool(accepts & {"REF", "PIECE_LETTER"})),
        ).at(span, "not a square")

    close = difflib.get_close_matches(lower, _keywords_of(accepts), n=1, cutoff=0.7)
    if close:
        hint = f"did you mean '{close[0]}'?"
    elif hint is None and lower in _ALL_KEYWORDS:
        hint = f"'{lower}' cannot appear here"
    message = f"syntax error: expected {expected}, found {_shown(word)}"
    return codes.diagnostic("SG-P001", message, hint=hint).at(span, label)


_ALL_KEYWORDS = frozenset(
    _keyword_of(t) for t in (*_STATEMENT_TERMINALS, *_CLAIM_TERMINALS, *_SETUP_TERMINALS, *_SECOND_ROLL_TERMINALS)
) | {"result", "roll", "on", "to"}


def _square_hint(letter: str, file: str, rank: str, letter_ok: bool) -> str:
    if letter and letter not in "KQRBNP":
        if letter.upper() in "KQRBNP":
            return f"piece letters are capitals: write '{letter.upper()}{file.lower()}{rank}'"
        return f"'{letter}' is not a piece letter; pieces are K Q R B N P"
    if letter and not letter_ok:
        return f"write the bare square here, without the piece letter: '{file.lower()}{rank}'"
    if file.isupper():
        return f"file letters are lowercase: write '{letter}{file.lower()}{rank}'"
    if file not in "abcdefgh":
        return "files run from a to h"
    return "ranks run from 1 to 8"


def _token_hint(found_type: str, found: str, accepts: set[str]) -> str | None:
    """A hint for a well-formed word in the wrong place."""
    if found_type == "LSQB" and not accepts & {"TAG_NAME", "STRING", "RSQB"}:
        return 'header tags like [Event "..."] must come before everything else in the log'
    starts_statement = found_type in _STATEMENT_TERMINALS or found_type == "PHASE"
    if starts_statement and "TURN" in accepts and not accepts & set(_STATEMENT_TERMINALS):
        return "statements and phase labels belong to a turn: start one with its number, e.g. '1.'"
    if found_type == "REF" and "SQUARE" in accepts and len(found) == 3:
        return f"write the bare square here, without the piece letter: '{found[1:]}'"
    if found_type == "SQUARE" and "REF" not in accepts and "SQUARE" not in accepts:
        return None
    if found_type == "INT" and accepts & set(_CLAIM_TERMINALS):
        return "a number must follow the claim it belongs to, e.g. 'cost 7' or 'lp 12'"
    if found_type in ("STRING",) and "STRING" not in accepts:
        return "quoted names only follow 'draft', 'activate', 'play' and header tag names"
    if found_type in _SECOND_ROLL_TERMINALS and not accepts & set(_SECOND_ROLL_TERMINALS):
        word = found.lower()
        return f"'{word}' comes right after an attack's dice, before its claims: 'roll 4 1 {word} 2 3 hit'"
    if found_type == "ON" and "ON" not in accepts:
        return "a card's target comes right after its name, before its claims: 'play \"Bolt\" on Rb7 cost 2'"
    return None


_STRING_BODY = re.compile(r'(?:[^"\\\n\r]++|\\["\\])*+')


def _string_error(text: str, pos: int, at: Callable[..., Span]) -> Diagnostic:
    """Why a quoted name starting at ``pos`` did not lex: a bad escape or no closing quote."""
    stop = _STRING_BODY.match(text, pos + 1)
    end = stop.end() if stop else pos + 1
    if end < len(text) and text[end] == "\\":
        return codes.diagnostic(
            "SG-P001",
            'syntax error: a quoted name may only use the escapes \\" and \\\\',
            hint='write a backslash as \\\\ and a double quote as \\"',
        ).at(at(2, end - pos), "bad escape")
    if end >= len(text):
        return codes.diagnostic(
            "SG-P002",
            "unexpected end of the log: a quoted name is never closed with '\"'",
            hint="the file may have been cut off; close the name with '\"'",
        ).at(at(1), "name starts here")
    return codes.diagnostic(
        "SG-P001",
        "syntax error: this quoted name is not closed with '\"' on its line",
        hint='names are written in double quotes on one line, e.g. "Soul Drain"',
    ).at(at(1), "name starts here")
