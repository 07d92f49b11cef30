"""The server's semantic tokens (sgcheck.server.tokens) against the parsers' own reading.

Every shipped example and fuzz-corpus file that parses is read by a Lark parser of its grammar
whose contextual lexer records each token (tests/editors/test_textmate.py): each of those tokens
must start a semantic token of its terminal's type, so an editor colours a word as the parser
read it in its place. Any text at all (Hypothesis) gives well-formed tokens: in order, not
overlapping, inside their lines, counted in UTF-16 units."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sgcheck.server.tokens import CARD_TYPES, LOG_TYPES, TOKEN_TYPES, semantic_tokens
from tests.editors.test_textmate import files, lark_tokens, read


def decoded(data: list[int]) -> dict[tuple[int, int], tuple[int, str]]:
    """(line, UTF-16 column) -> (length, type) of each encoded token."""
    found: dict[tuple[int, int], tuple[int, str]] = {}
    line = column = 0
    for index in range(0, len(data), 5):
        delta_line, delta_column, length, kind, modifiers = data[index : index + 5]
        assert modifiers == 0
        line, column = line + delta_line, (column + delta_column if delta_line == 0 else delta_column)
        found[(line, column)] = (length, TOKEN_TYPES[kind])
    return found


def expected(language: str, token: Any) -> list[tuple[int, str]]:
    """(column offset in the token, type) of the semantic tokens a parser's token should start:
    its terminal's type in the server's tables (the tables are the design; the reading is checked)."""
    name, value = token.type, str(token).rstrip()
    if language == "sglog":
        if name == "REF":
            return [(0, "type"), (1, "variable")] if len(value) == 3 else [(0, "variable")]
        return [(0, LOG_TYPES.get(name, "keyword"))]
    if value in ("{", "}", ":", "+", "*", "/"):
        return [(0, "operator")]
    return [(0, CARD_TYPES.get(name, "keyword"))]


@pytest.mark.parametrize("language", ["sglog", "sgcard"])
def test_tokens_follow_the_parsers_reading(language: str) -> None:
    checked = 0
    for path in files(language):
        text = read(path)
        tokens = lark_tokens(language, text)
        if tokens is None or not text.isascii():
            continue  # a file that does not parse has no reading to compare with; columns: ASCII
        found = decoded(semantic_tokens("log" if language == "sglog" else "sgcard", text))
        for token in tokens:
            if token.type in ("WS", "COMMENT", "BRACE_COMMENT") or not str(token).strip():
                continue
            for shift, kind in expected(language, token):
                where = (token.line - 1, token.column - 1 + shift)
                assert found.get(where, (0, None))[1] == kind, (path.name, token.type, str(token), where)
                checked += 1
    assert checked > 500


WORDS = [
    "1.",
    "2...",
    "upkeep:",
    "battle:",
    "summon",
    "R",
    "a1",
    "Ra1",
    "cost",
    "10",
    "lp",
    "; note",
    "{ a",
    "}",
    '"Soul Ward"',
    '"open',
    "relic",
    "{",
    "effect",
    "gain",
    "2",
    "SP",
    "# c",
    "ſ",
    "\U0001f600",
    "\t",
    " ",
    "\n",
    "+1",
    "<=",
    "value.rook",
    "[",
    "]",
    "Event",
]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(WORDS) | st.text(max_size=3), max_size=40), st.sampled_from(["log", "sgcard"]))
def test_any_text_gives_well_formed_tokens(parts: list[str], kind: str) -> None:
    text = " ".join(parts)
    data = semantic_tokens(kind, text)
    assert len(data) % 5 == 0
    rows = text.split("\n")
    line, end = 0, 0
    position = (0, 0)
    for index in range(0, len(data), 5):
        delta_line, delta_column, length, token_type, _ = data[index : index + 5]
        assert delta_line >= 0 and length > 0 and 0 <= token_type < len(TOKEN_TYPES)
        if delta_line:
            line, end = line + delta_line, 0
            column = delta_column
        else:
            column = position[1] + delta_column
            assert column >= end  # no overlap with the token before
        units = rows[line].encode("utf-16-le")
        assert column + length <= len(units) // 2
        word = units[2 * column : 2 * (column + length)].decode("utf-16-le")  # no half of a pair cut
        assert word.strip(), (rows[line], column, length)
        position, end = (line, column), column + length
