"""The TextMate grammars of editors/textmate/ highlight what the Lark grammars read.

The oracle is the parser itself: every shipped example (and every file of the fuzz corpus) that
``grammar/sglog.lark`` or ``grammar/sgcard.lark`` parses is lexed by Lark's contextual lexer,
and each character of each token must get the scope its terminal calls for (a keyword a
``keyword.*`` scope, a number ``constant.numeric``, a square, a piece, a card name, a header tag,
a comment...), with nothing marked ``invalid``. The keywords come from the Lark grammars, not from
a list: a terminal whose language is a set of words is a keyword. Every word any terminal can
be (sampled from its regular expression) gets its scope too, so the TextMate grammars cannot
fall behind the Lark ones. Files that do not parse must not break the highlighter, and no
character of any file is left without a scope.

The highlighter is tests/editors/textmate.py, an interpreter of the TextMate features the
grammars use, which refuses any feature or regular-expression construct it does not interpret
the way an editor does.
"""

from __future__ import annotations

import re
import re._constants as sre_constants
import re._parser as sre_parse
from collections.abc import Callable, Iterator
from functools import cache
from itertools import product
from pathlib import Path
from typing import Any

import pytest
from lark import Lark, Token
from lark.exceptions import LarkError

from tests.editors.textmate import Grammar, GrammarError, Scopes, check_portable, tokenize

ROOT = Path(__file__).resolve().parents[2]
TEXTMATE = ROOT / "editors" / "textmate"
TAIL = r"(?u:\s)*"  # the whitespace every .sglog token swallows (grammar/sglog.lark, _TAIL)
LANGUAGES = ("sglog", "sgcard")
CONTEXT = {  # where a sampled word of a terminal is written to be read as that terminal
    ("sglog", "TAG_NAME"): '[{} "value"]',
    ("sglog", "RSQB"): '[Event "value"{}',
    ("sgcard", "PARAMETER"): "set {} to 6",
    ("sgcard", "WORD"): "extra phase {}",
}
# Terminals whose language is not sampled (a negated class or any character): checked on the files only.
UNSAMPLED = {
    "sglog": {"STRING", "COMMENT", "BRACE_COMMENT", "WS"},
    "sgcard": {"NAME", "COMMENT"},
}


@cache
def grammar(language: str) -> Grammar:
    return Grammar.load(TEXTMATE / f"{language}.tmLanguage.json")


@cache
def lark(language: str) -> tuple[Lark, list[Token]]:
    """A parser built from grammar/<language>.lark whose lexer records every token it reads."""
    text = (ROOT / "grammar" / f"{language}.lark").read_text(encoding="utf-8")
    tokens: list[Token] = []

    def record(token: Token) -> Token:
        tokens.append(token)
        return token

    names = [t.name for t in Lark(text, g_regex_flags=re.ASCII, parser="lalr", lexer="contextual").terminals]
    parser = Lark(
        text, g_regex_flags=re.ASCII, parser="lalr", lexer="contextual", lexer_callbacks=dict.fromkeys(names, record)
    )
    return parser, tokens


def lark_tokens(language: str, text: str) -> list[Token] | None:
    """The tokens Lark reads in ``text``, or None when it does not parse."""
    parser, tokens = lark(language)
    tokens.clear()
    try:
        parser.parse(text)
    except LarkError:
        return None
    return list(tokens)


def terminals(language: str) -> dict[str, Any]:
    parser, _ = lark(language)
    return {t.name: t for t in parser.terminals}


# --- the languages of the terminals ------------------------------------------------------------


def _chars(items: list[Any]) -> list[str] | None:
    chars: list[str] = []
    for op, value in items:
        if op == sre_constants.LITERAL:
            chars.append(chr(value))
        elif op == sre_constants.RANGE:
            low, high = value
            span = [chr(c) for c in range(low, high + 1)]
            chars.extend(span if len(span) <= 16 else [span[0], span[len(span) // 2], span[-1]])
        else:  # a negated class or a category: not sampled
            return None
    return chars


def _sample(items: Any) -> list[str] | None:
    """Strings of the regular expression ``items`` (sre_parse's form): every one when the
    language is finite and small; a repeat is taken at its least count and one more."""
    results = [""]
    for op, value in items:
        if op == sre_constants.LITERAL:
            options: list[str] | None = [chr(value)]
        elif op == sre_constants.IN:
            options = _chars(value)
        elif op == sre_constants.BRANCH:
            branches = [_sample(branch) for branch in value[1]]
            options = None if any(b is None for b in branches) else [s for b in branches if b for s in b]
        elif op == sre_constants.SUBPATTERN:
            options = _sample(value[3])
        elif op in (sre_constants.MAX_REPEAT, sre_constants.MIN_REPEAT, sre_constants.POSSESSIVE_REPEAT):
            low, high, inner = value
            once = _sample(inner)
            counts = [low] if high == low else [low, low + 1]
            options = None if once is None else ["".join(p) for n in counts for p in product(once, repeat=n)]
        elif op in (sre_constants.ASSERT, sre_constants.ASSERT_NOT, sre_constants.AT):
            options = [""]
        else:
            options = None
        if options is None:
            return None
        results = [a + b for a in results for b in options]
        if len(results) > 5000:
            raise AssertionError("a terminal's sample grew too large: sample it less")
    return results


def sample(terminal: Any) -> list[str] | None:
    """Words of a Lark terminal: its literal, or strings of its regular expression."""
    if terminal.pattern.type == "str":
        return [terminal.pattern.value]
    pattern = terminal.pattern.value.removesuffix(TAIL)
    words = _sample(sre_parse.parse(pattern))
    if words is None:
        return None
    if "i" in terminal.pattern.flags or "(?i" in pattern:  # any case: the upper case too
        words += [w.upper() for w in words]
    return sorted(set(words))


def is_keyword_terminal(terminal: Any) -> bool:
    """A keyword: every word of the terminal is a word of letters (and '-' or '_')."""
    words = sample(terminal)
    return bool(words) and all(re.fullmatch(r"[A-Za-z][A-Za-z0-9_-]*", w) for w in words)


# --- the scope each terminal calls for -----------------------------------------------------------

Expect = Callable[[str, int], "str | None"]  # (token text, index of the character) -> a scope prefix


def _by_char(letter: str, other: str) -> Expect:
    return lambda text, i: letter if text[i].isalpha() else other


SGLOG: dict[str, Expect] = {
    "TURN": lambda text, i: "entity.name.section.turn",
    "PHASE": lambda text, i: "punctuation.separator.phase" if text[i] == ":" else "keyword.control.phase",
    "REF": lambda text, i: "entity.name.type.piece" if text[i].isupper() else "constant.other.square",
    "SQUARE": lambda text, i: "constant.other.square",
    "PIECE_LETTER": lambda text, i: "entity.name.type.piece",
    "INT": lambda text, i: "constant.numeric",
    "AMOUNT": _by_char("keyword.other.unit", "constant.numeric"),
    "SCORE": lambda text, i: "constant.language.score",
    "REASON": lambda text, i: "constant.language.reason",
    "STRING": lambda text, i: "string.quoted.double",
    "TAG_NAME": lambda text, i: "entity.name.tag",
    "LSQB": lambda text, i: "punctuation.definition.tag",
    "RSQB": lambda text, i: "punctuation.definition.tag",
    "COMMENT": lambda text, i: "comment.line",
    "BRACE_COMMENT": lambda text, i: "comment.block",
}
SGCARD: dict[str, Expect] = {
    "PIECE_CLASS": lambda text, i: "entity.name.type.piece",
    "PIECES": lambda text, i: "entity.name.type.piece",
    "PIECE": lambda text, i: "entity.name.type.piece",  # the literal "piece" of "per piece in own gem"
    "RESOURCE": lambda text, i: "keyword.other.unit",
    "INT": lambda text, i: "constant.numeric",
    "SIGNED_INT": lambda text, i: "constant.numeric",
    "NAME": lambda text, i: "string.quoted.double",
    "COMMENT": lambda text, i: "comment.line",
    "PARAMETER": lambda text, i: "variable.other.parameter",
    "WORD": lambda text, i: "variable.other.phase",
    "CMP": lambda text, i: "keyword.operator.comparison",
}
SGCARD_LITERALS = {
    "{": "punctuation.section.block",
    "}": "punctuation.section.block",
    ":": "punctuation.separator",
    "+": "keyword.operator.arithmetic",
    "*": "keyword.operator.arithmetic",
    "/": "keyword.operator.arithmetic",
    "x": "keyword.operator.arithmetic",
}


def expectation(language: str, name: str) -> Expect | None:
    """What the characters of a token of terminal ``name`` must be scoped as (None: whitespace)."""
    terminal = terminals(language)[name]
    if name in ("WS",) or name.startswith("__IGNORE"):
        return None
    table = SGLOG if language == "sglog" else SGCARD
    if name in table:
        return table[name]
    if language == "sgcard" and terminal.pattern.type == "str" and terminal.pattern.value in SGCARD_LITERALS:
        prefix = SGCARD_LITERALS[terminal.pattern.value]
        return lambda text, i: prefix
    if is_keyword_terminal(terminal):
        return lambda text, i: "keyword."
    raise AssertionError(f"{language} terminal {name} ({terminal.pattern.value!r}) has no expected scope: add one")


# --- helpers -----------------------------------------------------------------------------------


def files(language: str) -> list[Path]:
    """Every shipped example and fuzz-corpus file of the language."""
    found = [*(ROOT / "examples").rglob(f"*.{language}"), *(ROOT / "tests" / "fuzz" / "corpus").rglob(f"*.{language}")]
    return sorted(found)


def read(path: Path) -> str:
    return path.read_bytes().decode("utf-8", errors="replace").replace("\r\n", "\n").replace("\r", "\n")


def has(scopes: Scopes, prefix: str) -> bool:
    return any(scope.startswith(prefix) for scope in scopes)


def positions(text: str, token: Token) -> Iterator[tuple[int, int, int]]:
    """(line, column, index in the token) of each character of the token, trailing space left out."""
    value = str(token).rstrip()
    line, column = token.line - 1, token.column - 1
    for index, char in enumerate(value):
        if char == "\n":
            line, column = line + 1, 0
            continue
        if not char.isspace():
            yield line, column, index
        column += 1


def show(path: Path, line: int, column: int, text: str, scopes: Scopes) -> str:
    source = text.split("\n")[line]
    return f"{path.relative_to(ROOT)}:{line + 1}:{column + 1}: {source[column]!r} in {source!r} has {scopes}"


# --- the grammars are the subset this interpreter reads -----------------------------------------


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_grammar_is_read_and_names_its_language(language: str) -> None:
    loaded = grammar(language)
    assert loaded.scope_name == f"source.{language}"


def test_the_interpreter_refuses_what_it_does_not_interpret() -> None:
    for pattern in [r"\Gx", r"\d+", r"a++", r"a{2}+", r"(?>a)", r"(?<name>a)", r"[[:alpha:]]", r"\p{L}", r"(?x)a"]:
        with pytest.raises(GrammarError):
            check_portable(pattern)
    for pattern in [r"(?i:a|b)(?![\w-])", r"[^\s;{]+", r"(?<=relic[ \t]|spell[ \t])\"", r"a*?b", r"[0-9]{10,}"]:
        check_portable(pattern)
    with pytest.raises(GrammarError, match="include"):
        Grammar({"scopeName": "source.x", "patterns": [{"include": "$self"}]})
    with pytest.raises(GrammarError, match="back-references"):
        Grammar({"scopeName": "source.x", "patterns": [{"begin": "(a)", "end": r"\1"}]})
    with pytest.raises(GrammarError, match="not interpreted"):
        Grammar({"scopeName": "source.x", "patterns": [{"match": "a", "applyEndPatternLast": 1}]})
    with pytest.raises(GrammarError, match="captures with"):
        Grammar({"scopeName": "source.x", "patterns": [{"match": "a", "captures": {"0": {"patterns": []}}}]})
    with pytest.raises(GrammarError, match="empty string"):
        tokenize(Grammar({"scopeName": "source.x", "patterns": [{"match": "a*", "name": "x"}]}), "b")


def test_the_interpreter_scans_like_an_editor() -> None:
    """The earliest match wins, then the end of the enclosing rule, then the rules in order;
    captures nest inside the rule's name, contentName inside begin/end but not on them."""
    toy = Grammar(
        {
            "scopeName": "source.toy",
            "patterns": [
                {"include": "#block"},
                {"name": "word.late", "match": "ab"},
                {"name": "word.early", "match": "b", "captures": {"0": {"name": "inner"}}},
            ],
            "repository": {
                "block": {
                    "name": "block",
                    "contentName": "content",
                    "begin": r"\(",
                    "end": r"\)",
                    "patterns": [{"name": "close.never", "match": r"\)"}, {"include": "#block"}],
                }
            },
        }
    )
    (line,) = tokenize(toy, "ab(x(y))z")
    assert line[0] == line[1] == ("source.toy", "word.late")
    assert line[2] == ("source.toy", "block")
    assert line[3] == ("source.toy", "block", "content")
    assert line[5] == ("source.toy", "block", "content", "block", "content")
    assert line[6] == ("source.toy", "block", "content", "block")
    assert line[7] == ("source.toy", "block")
    assert line[8] == ("source.toy",)
    (line,) = tokenize(toy, "b")
    assert line[0] == ("source.toy", "word.early", "inner")
    assert tokenize(toy, "(\n)") == [[("source.toy", "block")], [("source.toy", "block")]]


# --- the shipped files --------------------------------------------------------------------------


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_files_that_parse_are_highlighted_as_the_parser_reads_them(language: str) -> None:
    """On every file Lark parses, each token's characters get its terminal's scope (keywords a
    keyword scope, card names entity.name.card, ...) and nothing is marked invalid."""
    checked: set[str] = set()
    parsed = 0
    for path in files(language):
        text = read(path)
        tokens = lark_tokens(language, text)
        if tokens is None:
            continue
        parsed += 1
        lines = tokenize(grammar(language), text)
        in_tag = False
        previous: Token | None = None
        for token in tokens:
            expect = expectation(language, token.type)
            if expect is None:
                continue
            checked.add(token.type)
            in_tag = token.type == "LSQB" or (in_tag and token.type != "RSQB")
            value = str(token).rstrip()
            is_card_name = token.type in ("STRING", "NAME") and (
                (language == "sglog" and not in_tag) or (previous is not None and previous.type == "CARD_KIND")
            )
            for line, column, index in positions(text, token):
                scopes = lines[line][column]
                assert has(scopes, expect(value, index)), show(path, line, column, text, scopes)
                if token.type in ("STRING", "NAME") and 0 < index < len(value) - 1:
                    assert has(scopes, "entity.name.card") is is_card_name, show(path, line, column, text, scopes)
            if not token.type.startswith("__") and token.type not in ("WS", "COMMENT", "BRACE_COMMENT"):
                previous = token
        for number, line_scopes in enumerate(lines):
            for column, scopes in enumerate(line_scopes):
                assert not has(scopes, "invalid"), show(path, number, column, text, scopes)
    assert parsed >= 10
    keywords = {name for name, t in terminals(language).items() if is_keyword_terminal(t)}
    assert len(keywords & checked) >= len(keywords) // 2, "the files exercise at least half of the keywords"


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_file_is_highlighted_whole_without_breaking(language: str) -> None:
    """Broken files too: no exception, and every character that is not a space has a scope of
    the language's own, valid or ``invalid``. (A file that does not parse need not show anything
    invalid: a word in the wrong place, such as 'hit' where 'roll' belongs, is still a word.)"""
    for path in files(language):
        text = read(path)
        lines = tokenize(grammar(language), text)
        for number, (source, line_scopes) in enumerate(zip(text.split("\n"), lines, strict=True)):
            for column, (char, scopes) in enumerate(zip(source, line_scopes, strict=True)):
                if not char.isspace() and char != "\ufeff":  # a byte-order mark is space to the card grammar
                    assert len(scopes) > 1, show(path, number, column, text, scopes)


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_word_of_every_terminal_gets_its_scope(language: str) -> None:
    """Each word a Lark terminal can be (its literal, or strings sampled from its regular
    expression, in upper case too where it is case-insensitive) is highlighted as that terminal."""
    unsampled: set[str] = set()
    for name, terminal in terminals(language).items():
        words = sample(terminal)
        if words is None:
            unsampled.add(name)
            continue
        expect = expectation(language, name)
        if expect is None:  # the space between words
            continue
        context = CONTEXT.get((language, name), "{}")
        for word in words:
            text = context.format(word)
            (line,) = tokenize(grammar(language), text)
            start = context.index("{}")
            for index in (i for i, char in enumerate(word) if not char.isspace()):
                scopes = line[start + index]
                assert has(scopes, expect(word, index)), f"{name} {word!r} in {text!r}: {scopes}"
                assert not has(scopes, "invalid"), f"{name} {word!r} in {text!r}: {scopes}"
    assert unsampled == UNSAMPLED[language]


# --- what the grammars mark as errors -----------------------------------------------------------


def scopes_of(language: str, text: str, word: str) -> Scopes:
    (line,) = tokenize(grammar(language), text)
    return line[text.index(word)]


@pytest.mark.parametrize(
    ("text", "word"),
    [
        ("1. upkeep: mvoe Ra1 a3", "mvoe"),  # a misspelt keyword (SG-P001)
        ("1. main1: move RA1 a3", "RA1"),  # files are lower case
        ("1. main1: move Ra1 i9", "i9"),  # not a square
        ("1. main1: move Ra1 a3 pay 10\u017fp", "10\u017fp"),  # the long s is no 's' (docs/log-format.md)
        ("1. main1: \u0455ummon Q d1", "\u0455ummon"),  # a Cyrillic look-alike starting a word (SG-P003)
        ("1. upkeep: income 1234567890", "1234567890"),  # more than 9 digits (SG-P012)
        ('1. main1: play "Soul Drain', '"Soul Drain'),  # a quoted name not closed on its line
        ("1. main1: move Ra1 a3 @", "@"),
    ],
)
def test_a_log_marks_words_that_are_not_of_the_language(text: str, word: str) -> None:
    assert has(scopes_of("sglog", text, word), "invalid.illegal"), text


@pytest.mark.parametrize(
    ("text", "word"),
    [
        ('spell "X" { cost 3 SP effect stael 5 SP }', "stael"),
        ('spell "X" { cost 3 \u0455p effect gain 1 SP }', "\u0455p"),
        ('spell "X" { cost 3 SP ; }', ";"),  # a log's comment sign is no card's
        ('relic "Unclosed {', '"Unclosed'),
        ('spell "X" { Cost 3 SP }', "Cost"),  # keywords are lower case in cards (docs/cards.md)
    ],
)
def test_a_card_marks_words_that_are_not_of_the_language(text: str, word: str) -> None:
    assert has(scopes_of("sgcard", text, word), "invalid.illegal"), text


def test_comments_carry_the_suppressions_and_span_lines() -> None:
    text = "# sgcheck: ignore SG-C092 -- free on purpose"
    assert has(scopes_of("sgcard", text, "ignore"), "keyword.other.directive.suppression")
    assert has(scopes_of("sgcard", text, "SG-C092"), "constant.other.code")
    assert has(scopes_of("sgcard", text, "free"), "comment.line.number-sign")
    lines = tokenize(grammar("sglog"), "1. { a brace comment\n move Ra1 a3 } end: pass")
    assert has(lines[1][1], "comment.block") and has(lines[1][len(" move Ra1 a3 } ")], "keyword.control.phase")
    assert has(scopes_of("sglog", "2... end: pass ; move Ra1", "move"), "comment.line.semicolon")


def test_a_card_name_is_a_name_and_a_text_is_a_string() -> None:
    text = 'relic "Soul \\"Ward\\"" passive { text "Reduces damage." }'
    assert has(scopes_of("sgcard", text, "Soul"), "entity.name.card")
    assert has(scopes_of("sgcard", text, '\\"'), "constant.character.escape")
    assert has(scopes_of("sgcard", text, "Reduces"), "string.quoted.double")
    assert not has(scopes_of("sgcard", text, "Reduces"), "entity.name.card")
    lines = tokenize(grammar("sgcard"), 'spell  "Two Spaces"\nrelic\n  "Next Line" passive { effect gain 1 SP }')
    assert has(lines[0][len('spell  "')], "entity.name.card") and has(lines[2][len('  "')], "entity.name.card")
    assert has(lines[2][len('  "Next Line" ')], "keyword.other.mode")
    text = '[Event "Friday"]\ndraft white "Soul Drain"'
    first, second = tokenize(grammar("sglog"), text)
    assert has(first[len('[Event "')], "string.quoted.double") and not has(first[len('[Event "')], "entity.name")
    assert has(second[len('draft white "')], "entity.name.card")
