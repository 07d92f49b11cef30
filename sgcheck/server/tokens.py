"""Semantic tokens for logs and card files: each word's kind, read by the lexers the parsers use.

A log is cut into words by the lexer Lark builds from ``grammar/sglog.lark`` (every terminal of
the grammar, comments kept; a word right after ``[`` is a tag's name); a card file by the card
parser's own scanner (:mod:`sgcheck.lang.cards.lalr`), each word taken as the first terminal of
``grammar/sgcard.lark`` it can be, a word of the grammar before a name of one's own. So an editor
that colours with the server (Neovim 0.9+, Emacs's lsp-mode) colours the words as the parsers
read them (tests/editors/test_semantic_tokens.py compares the two on every shipped example). A
character no word of the language starts with gets no token, and the words after it on its line
are read again from the next blank.

The token types are LSP's standard ones (:data:`LEGEND`); docs/editors.md lists what each one
marks in the two languages. Positions are LSP's: 0-based lines, UTF-16 columns.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import cache, lru_cache
from typing import TYPE_CHECKING, Any

from lsprotocol import types as lsp

if TYPE_CHECKING:
    from lark import Token

#: The token types, in the order of their numbers in the encoded data.
TOKEN_TYPES: tuple[str, ...] = (
    "keyword",
    "operator",
    "number",
    "string",
    "comment",
    "type",
    "variable",
    "enumMember",
    "property",
    "namespace",
    "event",
    "decorator",
)
LEGEND = lsp.SemanticTokensLegend(token_types=list(TOKEN_TYPES), token_modifiers=[])
_NUMBER = {name: index for index, name in enumerate(TOKEN_TYPES)}

#: A log terminal's token type; a terminal not listed is a keyword (the setup items and actions).
LOG_TYPES = {
    "TURN": "namespace",
    "PHASE": "event",
    "ROLL": "operator",
    "ON": "operator",
    "TO": "operator",
    "REROLL": "operator",
    "ADVANTAGE": "operator",
    "LSQB": "operator",
    "RSQB": "operator",
    "COST": "property",
    "PAY": "property",
    "LP": "property",
    "SP": "property",
    "THRESHOLD": "property",
    "HIT": "property",
    "MISS": "property",
    "DAMAGE": "property",
    "KING_DAMAGE": "property",
    "CAPTURE": "property",
    "CONVERTS": "property",
    "SUCCESS": "property",
    "FAIL": "property",
    "GAIN": "property",
    "WHITE": "enumMember",
    "BLACK": "enumMember",
    "SCORE": "enumMember",
    "REASON": "enumMember",
    "PIECE_LETTER": "type",
    "SQUARE": "variable",
    "INT": "number",
    "AMOUNT": "number",
    "STRING": "string",
    "TAG_NAME": "decorator",
    "COMMENT": "comment",
    "BRACE_COMMENT": "comment",
}
#: A card terminal's token type; a terminal not listed (a literal word of the grammar) is a keyword.
CARD_TYPES = {
    "PIECE_CLASS": "type",
    "PIECES": "type",
    "PHASE": "event",
    "RESOURCE": "enumMember",
    "SIDE": "enumMember",
    "OPPONENT": "enumMember",
    "GEM_STATE": "enumMember",
    "ROLE": "enumMember",
    "PARAMETER": "variable",
    "WORD": "variable",
    "INT": "number",
    "SIGNED_INT": "number",
    "NAME": "string",
    "CMP": "operator",
}
_ANY_WORD = frozenset({"PARAMETER", "WORD"})  # terminals almost any word matches
_CARD_GROUPS = {"comment": "comment", "str": "string", "int": "number", "signed": "number", "op": "operator"}
_BLANK = re.compile(r"\S*\s*")  # the rest of a word and the blanks after it (where to read again)
_TAG_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_]*")  # grammar/sglog.lark's TAG_NAME
_MOST_RESTARTS = 64  # per line: a line of stray characters costs no more than this


def _units(text: str) -> int:
    return len(text) + sum(1 for char in text if ord(char) > 0xFFFF)


class _Encoder:
    """LSP's relative encoding: five numbers per token, each placed from the one before. Tokens
    come in order, so a line's UTF-16 columns are counted once, forwards."""

    def __init__(self) -> None:
        self.data: list[int] = []
        self.line = 0
        self.column = 0
        self.row_line = -1  # the line whose columns are being counted
        self.ascii = True
        self.chars = 0  # characters of that line counted so far
        self.units = 0  # their UTF-16 units

    def add(self, line: int, row: str, start: int, end: int, kind: str) -> None:
        """A token on ``line`` (0-based) from character ``start`` to ``end`` of ``row``."""
        if end <= start:
            return
        if line != self.row_line:
            self.row_line, self.ascii, self.chars, self.units = line, row.isascii(), 0, 0
        if self.ascii:
            column, length = start, end - start
        else:
            if start < self.chars:  # not in order: count from the line's start again
                self.chars, self.units = 0, 0
            self.units += _units(row[self.chars : start])
            self.chars = start
            column, length = self.units, _units(row[start:end])
        delta_column = column - self.column if line == self.line else column
        self.data += [line - self.line, delta_column, length, _NUMBER[kind], 0]
        self.line, self.column = line, column


def semantic_tokens(kind: str, text: str) -> list[int]:
    """The encoded tokens of a log (``kind`` "log") or a ``.sgcard`` file (``kind`` "sgcard")."""
    encoder = _Encoder()
    words = _log_words(text) if kind == "log" else _card_words(text) if kind == "sgcard" else iter(())
    rows = text.split("\n")
    for line, start, end, name in words:
        encoder.add(line, rows[line], start, end, name)
    return encoder.data


# --- logs ------------------------------------------------------------------------------------------


@cache
def _log_lexer() -> Any:  # a lark Lexer (only sgcheck.lang.lark_adapter reaches into lark's modules)
    from sgcheck.lang.lark_adapter import full_lexer
    from sgcheck.lang.logs.grammar import _lark

    return full_lexer(_lark())


def _log_words(text: str) -> Iterator[tuple[int, int, int, str]]:
    """(line, start, end, type) of each word of a log, line by line; a brace comment may go on
    over several lines. Each line's words are kept (:func:`_log_line`), so after a change only
    the lines changed are read again."""
    in_comment = False
    for line, row in enumerate(text.split("\n")):
        words, in_comment = _log_line(row, in_comment)
        for start, end, kind in words:
            yield line, start, end, kind


@lru_cache(maxsize=1 << 16)
def _log_line(row: str, in_comment: bool) -> tuple[tuple[tuple[int, int, str], ...], bool]:
    """The words of one line of a log, (start, end, type), and whether a brace comment is still
    open at its end; ``in_comment``: whether one is open at its start."""
    from sgcheck.lang.lark_adapter import lex_from

    lexer = _log_lexer()
    words: list[tuple[int, int, str]] = []
    at = 0
    if in_comment:
        close = row.find("}")
        at = len(row) if close < 0 else close + 1
        first = len(row) - len(row.lstrip())
        if first < at:  # a line of blanks inside a comment has no token
            words.append((first, at, "comment"))
        in_comment = close < 0
    restarts = 0
    while at < len(row) and restarts <= _MOST_RESTARTS:
        tokens, stopped = lex_from(lexer, row, at)
        for index, token in enumerate(tokens):
            after_bracket = index > 0 and tokens[index - 1].type == "LSQB"
            if after_bracket and _TAG_NAME.fullmatch(token.value.rstrip()):
                start = token.start_pos or 0
                words.append((start, start + len(token.value.rstrip()), "decorator"))  # [White "…"]: a tag
            elif token.type != "TAG_NAME":  # any word reads as a tag's name, but only after '[' is one
                words += _log_token(token)
        if stopped is None:
            break
        if row[stopped] == "{" and "}" not in row[stopped:]:
            words.append((stopped, len(row), "comment"))
            in_comment = True
            break
        at = _skip(row, stopped + 1)
        restarts += 1
    return tuple(words), in_comment


def _skip(text: str, at: int) -> int:
    """Past the rest of the word at ``at`` and the blanks after it."""
    found = _BLANK.match(text, at)
    return found.end() if found is not None else len(text)


def _log_token(token: Token) -> list[tuple[int, int, str]]:
    if token.type == "WS":
        return []
    start = token.start_pos or 0
    end = start + len(token.value.rstrip())
    if token.type == "REF":  # a piece letter, then a square
        if end - start == 3:
            return [(start, start + 1, "type"), (start + 1, end, "variable")]
        return [(start, end, "variable")]
    return [(start, end, LOG_TYPES.get(token.type, "keyword"))]


# --- cards ------------------------------------------------------------------------------------------


def _card_words(text: str) -> Iterator[tuple[int, int, int, str]]:
    from sgcheck.lang.cards.lalr import SCAN
    from sgcheck.lang.cards.parser import card_tables

    lalr = card_tables()
    line, line_start, at = 0, 0, 0
    rows = text.split("\n")
    while at < len(text):
        found = SCAN.match(text, at)
        if found is None:  # no word starts here: read again after the next blank
            stop = _skip(text, at + 1)
            newlines = text.count("\n", at, stop)
            if newlines:
                line += newlines
                line_start = text.rfind("\n", at, stop) + 1
            at = stop
            continue
        group = found.lastgroup or ""
        start, end = found.start() - line_start, found.end() - line_start
        if group == "nl":
            line, line_start = line + 1, found.end()
        elif group == "word":
            names = lalr.candidates(found.group())
            named = [name for name in names if name not in _ANY_WORD] or names  # a word of the grammar first
            if named:
                yield line, start, min(end, len(rows[line])), CARD_TYPES.get(named[0], "keyword")
        elif group in _CARD_GROUPS:
            yield line, start, end, _CARD_GROUPS[group]
        at = found.end()
