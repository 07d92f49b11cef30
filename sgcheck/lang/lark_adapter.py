"""The one place sgcheck reaches past Lark's documented API.

sgcheck uses Lark's public API (``Lark``, ``Lark.parse``, ``Lark.parse_interactive``,
``InteractiveParser.iter_parse``/``feed_token``/``accepts``, ``Transformer``, the exceptions and
``UnexpectedInput.match_examples``) where it can. A few things it needs are only reachable through
Lark's internals; each is one function here, with a small typed interface, so the rest of sgcheck
imports this module for them and never Lark's private modules or attributes. Written for, and
tested with, Lark 1.2 and 1.3 (``pyproject.toml`` pins ``lark>=1.2,<2``); each docstring says
which behaviour of those versions it relies on. Importing this module does not import Lark.

- :func:`parse_table`: the LALR(1) table and callbacks Lark built for a grammar, which the card
  language's own driver (:mod:`sgcheck.lang.cards.lalr`) runs;
- :func:`terminals`: a grammar's terminals as names and regular expressions;
- :func:`no_lexer`: a lexer class for a ``Lark`` whose tables are driven by that driver;
- :func:`start_lexing_at`: make an interactive parser lex from an offset whose line and column
  are known, without counting the lines before it;
- :func:`last_value`: the last value the interactive parser shifted or reduced (the word a
  syntax error follows);
- :func:`state_position`: the LALR state of a parse error's parser state;
- :func:`full_lexer` and :func:`lex_from`: every terminal of a grammar, ignored ones included,
  read from any offset of a text up to the first character none of them matches (the editor's
  highlighting, :mod:`sgcheck.server.tokens`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from lark import Lark
    from lark.lexer import Lexer
    from lark.parsers.lalr_interactive_parser import InteractiveParser

__all__ = [
    "InteractiveParser",
    "ParseTable",
    "Reduction",
    "Terminal",
    "full_lexer",
    "last_value",
    "lex_from",
    "no_lexer",
    "parse_table",
    "start_lexing_at",
    "state_position",
    "terminals",
]


@dataclass(frozen=True, slots=True)
class Reduction:
    """Reduce by a rule: pop ``size`` symbols, call ``callback`` on their values, go to ``origin``."""

    size: int
    callback: Callable[[list[Any]], Any]
    origin: str


@dataclass(frozen=True, slots=True)
class ParseTable:
    """An LALR(1) table: per state, each symbol's next state (a shift or goto) or reduction."""

    start: int
    end: int
    states: dict[int, dict[str, int | Reduction]]


@dataclass(frozen=True, slots=True)
class Terminal:
    """A terminal of the grammar: its name, a regular expression for it, its priority, and its
    text when it is a literal string (None for a pattern)."""

    name: str
    regexp: str
    priority: int
    literal: str | None


def parse_table(lark: Lark, start: str) -> ParseTable:
    """The table Lark built for ``lark`` (``parser="lalr"``), from rule ``start``, with the
    transformer's callbacks.

    Relies on Lark 1.x's layout: ``Lark.parser`` (a ``ParsingFrontend``) ``.parser`` (the
    ``LALR_Parser``) ``.parser`` (the ``_Parser``) holding ``parse_table`` (``states``: state ->
    symbol -> ``(Shift, state)`` or ``(Reduce, rule)``; ``start_states``, ``end_states``) and
    ``callbacks`` (rule -> callable), and on ``lark.parsers.lalr_analysis.Shift`` marking a shift.
    """
    from lark.parsers.lalr_analysis import Shift

    inner = lark.parser.parser.parser
    table, callbacks = inner.parse_table, inner.callbacks
    states: dict[int, dict[str, int | Reduction]] = {}
    for state, row in table.states.items():
        compiled: dict[str, int | Reduction] = {}
        for symbol, (action, arg) in row.items():
            if action is Shift:
                compiled[str(symbol)] = arg
            else:
                compiled[str(symbol)] = Reduction(len(arg.expansion), callbacks[arg], str(arg.origin.name))
        states[state] = compiled
    return ParseTable(table.start_states[start], table.end_states[start], states)


def terminals(lark: Lark) -> tuple[Terminal, ...]:
    """``lark``'s terminals (``Lark.terminals``, public), read through their ``TerminalDef.pattern``:
    ``to_regexp()``, ``type`` (``"str"`` for a literal) and ``value``, as in Lark 1.x."""
    return tuple(
        Terminal(t.name, t.pattern.to_regexp(), t.priority, t.pattern.value if t.pattern.type == "str" else None)
        for t in lark.terminals
    )


def no_lexer() -> type[Lexer]:
    """A lexer class for ``Lark(..., lexer=no_lexer())`` whose tables another driver runs.

    Lark 1.x accepts a ``Lexer`` subclass as ``lexer=`` and builds it with the lexer
    configuration; it asks it to ``lex`` only when Lark itself parses, which such a ``Lark``
    never does."""
    from lark.lexer import Lexer

    class _Unused(Lexer):
        def __init__(self, conf: Any) -> None:
            pass

        def lex(self, lexer_state: Any, parser_state: Any) -> Any:  # pragma: no cover
            raise NotImplementedError("this grammar's tables are driven without Lark's lexer")

    return _Unused


def start_lexing_at(parser: InteractiveParser, text: str, offset: int, line: int, column: int) -> None:
    """Make ``parser`` (fresh from ``Lark.parse_interactive(text)``) lex ``text`` from ``offset``,
    which is on ``line`` at ``column`` (1-based).

    Lark can lex a slice of a text (``lark.utils.TextSlice``, Lark 1.2+) but counts its lines by
    reading everything before it; the caller already knows where the slice starts, so the line
    counter is set directly. Relies on ``InteractiveParser.lexer_thread.state`` being a
    ``lark.lexer.LexerState(text, line_counter)`` and on ``LineCounter``'s fields ``char_pos``,
    ``line``, ``column`` and ``line_start_pos``, as in Lark 1.2 and 1.3.
    """
    from lark.lexer import LexerState, LineCounter
    from lark.utils import TextSlice

    counter = LineCounter("\n")  # type: ignore[no-untyped-call]
    counter.char_pos, counter.line, counter.column = offset, line, column
    counter.line_start_pos = offset - column + 1
    parser.lexer_thread.state = LexerState(TextSlice(text, offset, len(text)), counter)


def last_value(parser: InteractiveParser) -> object | None:
    """The value on top of ``parser``'s stack (a token or a reduced rule's value), None when empty.

    Relies on ``InteractiveParser.parser_state.value_stack`` (Lark 1.x)."""
    stack = parser.parser_state.value_stack
    return stack[-1] if stack else None


def state_position(state: Any) -> object:
    """The LALR state a parse error happened in, from ``UnexpectedInput.state`` (which Lark
    documents as opaque): ``ParserState.position``, the state on top of its stack (Lark 1.x)."""
    return state.position


def full_lexer(lark: Lark) -> Lexer:
    """A lexer of every terminal of ``lark``'s grammar, the ignored ones (whitespace, comments)
    included, built once for many texts. It is the lexer ``Lark.lex(text, dont_ignore=True)``
    builds at each call: ``Lark._build_lexer(dont_ignore=True)``, a ``BasicLexer``, as in Lark 1.2
    and 1.3."""
    lexer: Lexer = lark._build_lexer(dont_ignore=True)
    return lexer


def lex_from(lexer: Lexer, text: str, start: int) -> tuple[list[Any], int | None]:
    """The tokens ``lexer`` reads in ``text`` from offset ``start`` (their ``start_pos`` counted from
    the start of ``text``), up to the first character no terminal matches; that character's offset,
    or None when the text was read to its end. ``lark.lexer.LexerThread.from_text`` over a
    ``lark.utils.TextSlice``, as ``Lark.lex`` does (Lark 1.2 and 1.3)."""
    from lark.exceptions import UnexpectedCharacters
    from lark.lexer import LexerThread
    from lark.utils import TextSlice

    tokens: list[Any] = []
    try:
        for token in LexerThread.from_text(lexer, TextSlice(text, start, len(text))).lex(None):  # type: ignore[no-untyped-call]
            tokens.append(token)
    except UnexpectedCharacters as error:
        return tokens, error.pos_in_stream
    return tokens, None
