"""The grammar's reading of a game log (``.sglog``): the reference for the syntax.

Design, in short (details in ``grammar/sglog.lark`` and ``docs/log-format.md``):

- Lark LALR with the contextual lexer, compiled once per process, with the transformer of
  :mod:`~sgcheck.lang.logs.transformer` embedded, so nodes are built at reduction time and
  no parse tree exists. The top-level item list keeps only a placeholder on the parser
  stack; finished items are handed out token by token as they complete.
- :func:`items_from` reads from the start of any item, the lexer placed there directly, so
  the line reader (:mod:`~sgcheck.lang.logs.reader`) can hand it one item, never the file,
  and every error is found, worded and placed as in a reading of the whole text.
- Errors become :class:`LogSyntaxError` with a catalogued diagnostic, worded by
  :mod:`~sgcheck.lang.logs.syntax_errors`.

Lark is imported lazily so that importing this module (e.g. for ``LogSyntaxError``) stays
cheap for the command line.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import cache
from typing import TYPE_CHECKING, cast

from sgcheck import codes
from sgcheck.core.caps import MAX_NUMBER_DIGITS
from sgcheck.diagnostics import Diagnostic, Span
from sgcheck.lang.lark_adapter import start_lexing_at
from sgcheck.lang.logs.ast import (
    Header,
    LogItem,
    Tag,
)
from sgcheck.lang.logs.syntax_errors import diagnose, end_position
from sgcheck.lang.logs.transformer import (
    HEADER_TERMINALS,
    NUMBER_TERMINALS,
    LogBuilder,
    SemanticError,
    refuse_long,
    tjoin,
    unquote,
)
from sgcheck.lang.source import SourceText
from sgcheck.resources import grammar_text

if TYPE_CHECKING:
    from lark import Lark, Token


__all__ = ["LogSyntaxError", "accepted_after", "grammar_items", "items_from"]

GRAMMAR_FILE = "sglog.lark"


class LogSyntaxError(Exception):
    """The log text does not follow the grammar; ``diagnostic`` says where and why."""

    def __init__(self, diagnostic: Diagnostic) -> None:
        where = f"{diagnostic.span}: " if diagnostic.span else ""
        super().__init__(where + diagnostic.message)
        self.diagnostic = diagnostic


# --- building the parser -------------------------------------------------------------------------


@cache
def _builder() -> LogBuilder:
    """The process-wide transformer: :class:`LogBuilder`'s callbacks on lark's ``Transformer``.

    The lark base class is mixed in here, not in the class statement, so that importing this
    module does not import lark.
    """
    from lark import Transformer

    transformer_class = type("LogTransformer", (LogBuilder, Transformer), {})
    return cast(LogBuilder, transformer_class())


@cache
def _lark() -> Lark:
    """The compiled parser, built once per process (compiling takes ~0.1 s)."""
    from lark import Lark

    return Lark(
        grammar_text(GRAMMAR_FILE),
        g_regex_flags=re.ASCII,  # keywords are ASCII letters in any case: 'ſ' is no 's' (sgcheck.letters)
        parser="lalr",
        lexer="contextual",
        transformer=_builder(),
        maybe_placeholders=False,
        propagate_positions=False,
    )


def _parse_example(text: str) -> None:
    """Read a labelled example of a mistake (syntax_errors), ignoring what the transformer checks."""
    _builder().bind("<example>", [])
    try:
        _lark().parse(text)
    except SemanticError:
        return


def accepted_after(text: str) -> tuple[list[Token], frozenset[str]]:
    """The tokens of ``text`` (the start of a log) as the parser reads them, and the terminals
    its state accepts after them (Lark's ``InteractiveParser.accepts()``): an editor's completion
    asks whether a statement can start there. At a syntax error, the tokens before it and no
    terminal."""
    from lark.exceptions import LarkError, UnexpectedToken

    _builder().bind("<completion>", [])
    parser = _lark().parse_interactive(text)
    tokens: list[Token] = []
    try:
        for token in parser.iter_parse():  # each token is fed when the loop asks for the next one
            tokens.append(token)
        return tokens, frozenset(parser.accepts())  # type: ignore[no-untyped-call]
    except UnexpectedToken as error:
        return (tokens[:-1] if tokens and error.token is tokens[-1] else tokens), frozenset()
    except (LarkError, SemanticError, RecursionError):
        return tokens, frozenset()


def _end_token(text: str) -> Token:
    """The ``$END`` token, placed at the real end of the text (lark would borrow the last token's)."""
    from lark import Token

    line, column = end_position(text)
    return Token("$END", "", len(text), line, column, line, column, len(text))


def _make_header(n: str, toks: list[Token]) -> Header:
    if not toks:
        return Header((), Span.point(n))
    tags = tuple(
        Tag(toks[i + 1].value.rstrip(), unquote(toks[i + 2].value.rstrip()), tjoin(n, toks[i], toks[i + 3]))
        for i in range(0, len(toks) - 3, 4)
    )
    return Header(tags, tjoin(n, toks[0], toks[len(tags) * 4 - 1]))


# --- the public API ------------------------------------------------------------------------------


#: Where the reader goes on after an item the grammar read: (file offset, line, column) of the
#: next item's first token, or of the end of the text; None when the syntax error that follows
#: the item is raised by the next step of the same reading.
Resume = tuple[int, int, int] | None


def grammar_items(source: SourceText) -> Iterator[LogItem]:
    """The log's items as the grammar alone reads them, from the first character to the last
    (the reference the line reader is tested against)."""
    for item, _resume in items_from(source):
        yield item


def items_from(
    source: SourceText, offset: int = 0, line: int = 1, column: int = 1, *, header: bool = True, final: bool = True
) -> Iterator[tuple[LogItem, Resume]]:
    """The grammar's reading of ``source`` from ``offset`` (at ``line`` and ``column``), item by
    item, each with where the next item starts (:data:`Resume`).

    From offset 0 with ``header``, the Header comes first (always, possibly with no tags; an
    empty header gets a zero-width span at 1:1). Otherwise ``offset`` must be the start of an
    item: the parser is then in the state a reading of the whole text would be in there, so
    every error is found, worded and placed exactly as in that reading. Items are yielded as
    soon as they are complete; LogSyntaxError is raised at the first syntax error, after every
    item before it.

    Without ``final`` the text is the start of a longer log, cut at the start of a line outside
    any comment: the reading stops where the text does, without reading its end. Every item
    whose next token is in the text comes out; the last one, which the text may cut, does not
    (it starts at the last resume given).
    """
    from lark.exceptions import UnexpectedInput

    n, text = source.name, source.text
    builder = _builder()
    out: list[LogItem] = []
    builder.bind(n, out)
    parser = _lark().parse_interactive(text)
    if offset:
        start_lexing_at(parser, text, offset, line, column)
    tokens = parser.iter_parse()
    header_toks: list[Token] = []
    header_sent = not header
    previous: Token | None = None
    try:
        if not header_sent:
            for tok in tokens:  # each token is fed to the parser when the loop asks for the next one
                if tok.type in HEADER_TERMINALS:
                    header_toks.append(tok)
                    continue
                header_sent = True
                yield _make_header(n, header_toks), _at(tok)
                builder.bind(n, out)
                if len(tok.value) > MAX_NUMBER_DIGITS and tok.type in NUMBER_TERMINALS:
                    refuse_long(n, tok)
                previous = tok
                break
        for tok in tokens:
            if len(tok.value) > MAX_NUMBER_DIGITS and tok.type in NUMBER_TERMINALS:
                refuse_long(n, tok)  # before the parser sees it: errors come in text order
            if out:  # reduced when ``previous`` came: the next item starts there
                assert previous is not None
                for item in _drain(out):
                    yield item, _at(previous)
                builder.bind(n, out)
            previous = tok
        if out:  # reduced when the last token came
            assert previous is not None
            for item in _drain(out):
                yield item, _at(previous)
            builder.bind(n, out)
        if not final:
            return
        end = _end_token(text)
        parser.feed_token(end)
        if not header_sent:
            header_sent = True
            yield _make_header(n, header_toks), _at(end)
        for item in _drain(out):
            yield item, _at(end)
        return
    except UnexpectedInput as exc:
        diagnostic = diagnose(exc, parser, source, _parse_example)
    except SemanticError as exc:
        diagnostic = exc.diagnostic
    except (RecursionError, ValueError, KeyError, IndexError, TypeError, AttributeError) as exc:
        # Never expected; reported as a syntax error so that no input can crash a caller.
        diagnostic = codes.diagnostic(
            "SG-P001", f"syntax error: the log could not be parsed (internal error: {type(exc).__name__})"
        ).at(Span.point(n), "parsing stopped here")
    if not header_sent and len(header_toks) % 4 == 0:
        yield _make_header(n, header_toks), None
    for item in _drain(out):
        yield item, None
    raise LogSyntaxError(diagnostic)


def _drain(out: list[LogItem]) -> list[LogItem]:
    items = list(out)
    out.clear()
    return items


def _at(tok: Token) -> tuple[int, int, int]:
    return tok.start_pos, tok.line, tok.column  # type: ignore[return-value]
