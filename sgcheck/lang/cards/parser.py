"""Parse ``.sgcard`` text into the card model, one card at a time.

A file is cut into blocks at every line that starts with ``relic`` or ``spell``; each
block is parsed on its own with the LALR grammar in ``grammar/sgcard.lark``. A syntax
error therefore costs only the card it is in: the error is reported at its line:col
(``SG-P020``-``SG-P023``) and every other card is still parsed and checked.

Lark is imported on first use so that ``sgcheck --help`` stays fast.
"""

from __future__ import annotations

import re
import threading
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from sgcheck.core.cards.model import Card, CardFile
from sgcheck.diagnostics import Diagnostic, Span
from sgcheck.lang.cards.input_codes import CARD_STRUCTURE, NO_CARDS, SYNTAX_ERROR, UNEXPECTED_CHARACTER, UNEXPECTED_END

if TYPE_CHECKING:
    from lark import Lark

    from sgcheck.lang.cards.builder import CardBuilder
    from sgcheck.lang.cards.lalr import CardLALR, ParseError


CARD_RULES: tuple[str, ...] = ()

_BLOCK_START = re.compile(r"^[ \t\ufeff]*(?:relic|spell)\b", re.MULTILINE)
#: Blank lines and comments only. Possessive, so a failing match never retries another way of
#: cutting a run of '#' or spaces into pieces (the greedy form took time exponential in its length).
_BLANK = re.compile(r"(?:[\s\ufeff]++|#[^\n]*+)*+")
_HEADER = re.compile(r'\s*(relic|spell)\s+"((?:[^"\\\n]|\\.){0,80})')

_TERMINAL_WORDS = {
    "NAME": "a quoted name",
    "INT": "a number",
    "SIGNED_INT": "a signed number such as +10",
    "PHASE": "a phase (upkeep, main1, main, battle, main2, end)",
    "RESOURCE": "SP or LP",
    "CARD_KIND": "'relic' or 'spell'",
    "MODE": "passive, activated or instant",
    "COST_KIND": "an action to discount (move, attack, summon, teleport, distance, break, repair)",
    "EXTRA_KIND": "an action (move, attack, summon, teleport, activation, break, repair)",
    "EVENT": "an event (capture, captured, hit, miss, attacked, summon, teleport, move)",
    "CHANGE_VERB": "gain or lose",
    "SIDE": "own or enemy",
    "PIECE_CLASS": "a piece (King, Queen, Rook, Bishop, Knight, Pawn, pieces)",
    "PIECES": "'pieces'",
    "ROLE": "attacker or target",
    "CMP": "a comparison (<, <=, >, >=, =, !=)",
    "GEM_STATE": "broken or intact",
    "PERMANENT": "'permanent'",
    "LIMIT_PERIOD": "turn or game",
    "TO_HIT": "'to_hit'",
    "REROLL_KIND": "reroll or advantage",
    "PARAMETER": "a core parameter such as value.rook",
    "WORD": "a phase name",
    "$END": "the end of the file",
}

# Known mistakes, matched by parser state (Lark's UnexpectedInput.match_examples); the label leads the message.
_MISTAKES: dict[str, list[str]] = {
    "the card name must be written in double quotes": ["relic Soul {", "spell Ward Two {"],
    "a card's clauses go between '{' and '}'": ['relic "X" cost 1 SP }', 'spell "X" effect'],
    "a card holds only cost, phase, text and effect clauses": ['relic "X" { colour red }'],
    "a cost is a number, optionally followed by SP or LP (e.g. 'cost 3 SP')": ['relic "X" { cost SP }'],
    "a modifier needs a number such as +10 or -1": ['relic "X" { effect to_hit }', 'relic "X" { effect damage }'],
    "'effect' must be followed by an action (see docs/cards.md)": [
        'relic "X" { effect }',
        'relic "X" { effect bless }',
    ],
    "a trigger ends with ':' before its action": ['relic "X" { effect on capture gain 1 SP }'],
    "an amount is a number followed by SP or LP (e.g. 'gain 2 SP')": [
        'relic "X" { effect gain 2 }',
        'relic "X" { effect steal SP }',
    ],
}
# Each mistake also as the second clause of a card: Lark compares whole parser states, stack depth included.
_EXAMPLES: dict[str, list[str]] = {
    label: [*bad, *(text.replace("{ ", "{ phase main ", 1) for text in bad if "{ " in text)]
    for label, bad in _MISTAKES.items()
}


@dataclass(slots=True)
class _Machinery:
    lalr: CardLALR
    builder: CardBuilder
    literals: dict[str, str]
    reference: Lark | None = None


_local = threading.local()


def _machinery() -> _Machinery:
    """One parser per thread (the builder carries the name of the file being parsed)."""
    found: _Machinery | None = getattr(_local, "machinery", None)
    if found is None:
        from lark import Lark
        from lark.lexer import Lexer

        from sgcheck.lang.cards.builder import CardBuilder
        from sgcheck.lang.cards.lalr import CardLALR
        from sgcheck.resources import grammar_text

        class _Unused(Lexer):
            """Lark wants a lexer; :class:`CardLALR` scans the text itself."""

            def __init__(self, conf: Any) -> None:
                pass

            def lex(self, lexer_state: Any, parser_state: Any) -> Any:  # pragma: no cover
                raise NotImplementedError

        builder = CardBuilder()
        lark = Lark(
            grammar_text("sgcard.lark"),
            parser="lalr",
            lexer=_Unused,
            start="card",
            keep_all_tokens=True,
            maybe_placeholders=False,
            transformer=builder,
        )
        literals = {t.name: f"'{t.pattern.value}'" for t in lark.terminals if t.pattern.type == "str"}
        found = _Machinery(CardLALR(lark), builder, literals)
        _local.machinery = found
    return found


def parse_cards(text: str, source: str) -> CardFile:
    """Every card of ``text``; cards that cannot be parsed become diagnostics instead."""
    machinery = _machinery()
    machinery.builder.source = source
    starts = [m.start() for m in _BLOCK_START.finditer(text)]
    first = starts[0] if starts else len(text)
    if _BLANK.fullmatch(text, 0, first) is None:
        starts.insert(0, 0)  # text before the first card: parse it so the error is reported
    cards: list[Card] = []
    diagnostics: list[Diagnostic] = []
    line, previous = 1, 0
    for index, start in enumerate(starts):
        line += text.count("\n", previous, start)
        previous = start
        end = starts[index + 1] if index + 1 < len(starts) else len(text)
        result = _parse_block(machinery, text[start:end], line, start, source)
        if isinstance(result, Card):
            cards.append(result)
        else:
            diagnostics.append(result)
    if not cards and not diagnostics:
        diagnostics.append(
            Diagnostic(
                NO_CARDS.code,
                NO_CARDS.severity,
                "the file holds no cards",
                Span.point(source),
                CARD_RULES,
                hint="a card starts with 'relic \"Name\" {' or 'spell \"Name\" {' (see docs/cards.md)",
            )
        )
    return CardFile(source, tuple(cards), tuple(diagnostics))


def _parse_block(machinery: _Machinery, block: str, line: int, offset: int, source: str) -> Card | Diagnostic:
    from sgcheck.lang.cards.builder import CardStructureError
    from sgcheck.lang.cards.lalr import ParseError, ScanError

    context = _card_context(block)
    try:
        card: Card = machinery.lalr.parse(block, line, offset)
        return card
    except CardStructureError as error:
        return Diagnostic(
            CARD_STRUCTURE.code, CARD_STRUCTURE.severity, error.message, error.span, CARD_RULES, context=context
        )
    except ScanError as error:
        span = Span(source, error.line, error.column, error.line, error.column + 1, error.offset, error.offset + 1)
        return Diagnostic(
            UNEXPECTED_CHARACTER.code,
            UNEXPECTED_CHARACTER.severity,
            f"unexpected character {error.char!r}",
            span,
            CARD_RULES,
            hint="see docs/cards.md for the card language",
            context=context,
        )
    except ParseError as error:
        return _token_error(machinery, error, block, source, context)


def _token_error(
    machinery: _Machinery, error: ParseError, block: str, source: str, context: tuple[tuple[str, str], ...]
) -> Diagnostic:
    token = error.token
    expected = _describe_expected(machinery, error.expected)
    span = Span(source, token.line, token.column, token.end_line, token.end_column, token.start_pos, token.end_pos)
    if token.type == "$END":
        return Diagnostic(
            UNEXPECTED_END.code,
            UNEXPECTED_END.severity,
            "the card ends too early",
            span,
            CARD_RULES,
            hint=f"expected {expected}",
            label="card ends here",
            context=context,
        )
    label = _match_example(machinery, block)
    message = f"{label}: unexpected {token.value!r}" if label else f"unexpected {token.value!r}"
    return Diagnostic(
        SYNTAX_ERROR.code,
        SYNTAX_ERROR.severity,
        message,
        span,
        CARD_RULES,
        hint=f"expected {expected}",
        label="not expected here",
        context=context,
    )


def _match_example(machinery: _Machinery, block: str) -> str | None:
    """The label of the known mistake this card's error resembles: Lark's ``UnexpectedInput.match_examples``.

    Only on the error path, the failing card is parsed again by a plain Lark LALR parser
    (its own contextual lexer, building a tree) so that Lark can compare the parser state
    of the error with the states in which the examples fail.
    """
    from lark import Lark
    from lark.exceptions import UnexpectedInput

    from sgcheck.resources import grammar_text

    if machinery.reference is None:
        machinery.reference = Lark(grammar_text("sgcard.lark"), parser="lalr", start="card", keep_all_tokens=True)
    reference = machinery.reference
    try:
        reference.parse(block)
    except UnexpectedInput as error:
        try:
            label: str | None = error.match_examples(reference.parse, _EXAMPLES, token_type_match_fallback=True)
        except (AssertionError, UnexpectedInput):  # an error without parser state (a stray character)
            return None
        return label
    return None


def _describe_expected(machinery: _Machinery, names: frozenset[str]) -> str:
    words = sorted({_TERMINAL_WORDS.get(n) or machinery.literals.get(n) or n.lower() for n in names})
    if len(words) > 8:
        words = [*words[:8], "..."]
    return ", ".join(words) if words else "nothing more"


def _card_context(block: str) -> tuple[tuple[str, str], ...]:
    found = _HEADER.match(block)
    if found is None:
        return ()
    return (("card", f'{found.group(1)} "{found.group(2)}"'),)
