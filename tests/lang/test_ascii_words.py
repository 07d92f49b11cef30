"""Keywords, units and labels are ASCII letters in any case; a look-alike is refused and named.

Python's case-insensitive matching follows Unicode: ``(?i)s`` matches ``'ſ'`` (U+017F), ``(?i)i``
matches ``'ı'`` (U+0131) and ``'İ'`` (U+0130), ``(?i)k`` the Kelvin sign (U+212A). Each of them,
in every keyword of a log that has the letter, must be a syntax error at the character that names
it, the same in the line reader and the grammar, and never a keyword.
"""

from __future__ import annotations

import re

import pytest

from sgcheck.codes import CATALOGUE, select_codes, spell_code
from sgcheck.core.ruleset import RulesetError, parse_ruleset
from sgcheck.lang.cards.parser import parse_cards
from sgcheck.lang.logs.grammar import LogSyntaxError, grammar_items
from sgcheck.lang.logs.reader import parse_log
from sgcheck.lang.source import SourceText
from sgcheck.letters import ascii_lower, ascii_upper, describe, first_foreign, lookalike, not_ascii, unfold

KELVIN = "\u212a"
LONG_S = "\u017f"
DOTLESS_I = "\u0131"
DOTTED_I = "\u0130"

#: Every character beyond ASCII that Python's Unicode case-insensitive matching takes for an ASCII letter.
UNICODE_CASE_VARIANTS = {
    ch: letter
    for ch in map(chr, range(0x80, 0x30000))
    for letter in [next((a for a in "abcdefghijklmnopqrstuvwxyz" if re.fullmatch(f"(?i){a}", ch)), None)]
    if letter is not None
}


def test_the_unicode_case_variants_of_ascii_letters_are_these_four() -> None:
    """What the tests below go through is all there is (so every case is covered)."""
    assert UNICODE_CASE_VARIANTS == {DOTTED_I: "i", DOTLESS_I: "i", LONG_S: "s", KELVIN: "k"}


# --- the letters module --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("char", "message"),
    [
        (LONG_S, "'ſ' (U+017F LATIN SMALL LETTER LONG S) is not the letter s"),
        (DOTLESS_I, "'ı' (U+0131 LATIN SMALL LETTER DOTLESS I) is not the letter i"),
        (DOTTED_I, "'İ' (U+0130 LATIN CAPITAL LETTER I WITH DOT ABOVE) is not the letter I"),
        (KELVIN, f"'{KELVIN}' (U+212A KELVIN SIGN) is not the letter K"),
        ("\u0430", "'а' (U+0430 CYRILLIC SMALL LETTER A) is not the letter a"),
        ("\u0440", "'р' (U+0440 CYRILLIC SMALL LETTER ER) is not the letter p"),
        ("\u03bf", "'ο' (U+03BF GREEK SMALL LETTER OMICRON) is not the letter o"),
        ("\u03bd", "'ν' (U+03BD GREEK SMALL LETTER NU) is not the letter v"),
        ("\uff53", "'ｓ' (U+FF53 FULLWIDTH LATIN SMALL LETTER S) is not the letter s"),
        ("\u00b2", "'²' (U+00B2 SUPERSCRIPT TWO) is not the digit 2"),
        ("\ufb01", "'ﬁ' (U+FB01 LATIN SMALL LIGATURE FI) is not the letters fi"),
        ("\u00e9", "'é' (U+00E9 LATIN SMALL LETTER E WITH ACUTE) is not an ASCII letter"),
        ("\u0663", "'٣' (U+0663 ARABIC-INDIC DIGIT THREE) is not an ASCII digit"),
        ("\u20ac", "'€' (U+20AC EURO SIGN) is not an ASCII character"),
        ("\u200b", "U+200B ZERO WIDTH SPACE is not an ASCII character"),  # invisible: not quoted
        ("\u00a0", "U+00A0 NO-BREAK SPACE is not an ASCII character"),
        ("\u0301", "U+0301 COMBINING ACUTE ACCENT is not an ASCII character"),
        ("\u202e", "U+202E RIGHT-TO-LEFT OVERRIDE is not an ASCII character"),
    ],
)
def test_a_character_is_named_with_its_code_point_and_the_letter_it_imitates(char: str, message: str) -> None:
    assert not_ascii(char) == message


def test_a_character_without_a_name_still_gets_its_code_point() -> None:
    assert describe("\U000e0080") == "U+E0080"
    assert not_ascii("\U0010fffd").startswith("U+10FFFD")


def test_the_lookalike_table_only_names_ascii_letters_and_digits() -> None:
    from sgcheck.letters import _HOMOGLYPHS

    for char, imitates in _HOMOGLYPHS.items():
        assert not char.isascii(), char
        assert imitates.isascii() and imitates.isalnum(), (char, imitates)
        assert lookalike(char) == imitates


def test_ascii_case_folding_leaves_every_other_character_alone() -> None:
    assert ascii_lower(f"SUMMON {KELVIN}ing {DOTTED_I}") == f"summon {KELVIN}ing {DOTTED_I}"
    assert ascii_upper(f"pa{LONG_S}s {DOTLESS_I}") == f"PA{LONG_S}S {DOTLESS_I}"
    assert f"{KELVIN}ing".lower() == "king" and f"pa{LONG_S}s".upper() == "PASS"  # what str would do


def test_first_foreign_and_unfold() -> None:
    found = first_foreign(f"pay 10{LONG_S}p", 4)
    assert found is not None and (found.offset, found.char, found.imitates) == (6, LONG_S, "s")
    assert first_foreign("pay 10sp") is None
    assert first_foreign(f"10{LONG_S}p", 0, 2) is None
    assert unfold(f"pa{LONG_S}s") == "pass"
    assert unfold("caf\u00e9") is None


# --- game logs: every keyword, unit and label ----------------------------------------------------

#: A log that reads cleanly with every keyword of the language in it (not a legal game: the
#: grammar is all that is asked here).
TEMPLATE = """\
[Event "Site and Risk"]
[Site "x"]
draft white "Soul Drain"
rolloff white 1 2 3 black 4 5 6
choose white
king white e1
king black e8
1. upkeep: summon R a1 cost 10 pay 10lp 2sp lp 10 sp 0
   main1: move Ra1 a3 cost 7
   battle: attack Ra3 a5 roll 3 4 reroll 1 2 threshold 60 hit damage 1 king-damage 0 capture converts gain 5sp
   attack Ra3 a5 roll 3 4 advantage 1 2 miss
   main2: convert 4 gain 2lp
   end: teleport Ra3 a1 cost 10
1... upkeep: income 2 sp 2
   break roll 4 5 6 success
   repair roll 1 2 3 fail
   main1: activate "Soul Drain" on Ra1 pay 3sp
   play "Soul Drain" on a1 capture
   reveal "Soul Drain" to black
   end: pass
result 1-0 conversion
result 0-1 turn-limit
result * scenario
result 1/2-1/2 lp1000
"""

_QUOTED = re.compile(r'"[^"]*"')


def _letter_positions(text: str) -> list[int]:
    """Where an i, s or k (either case) stands outside the quoted names."""
    quoted = {i for m in _QUOTED.finditer(text) for i in range(*m.span())}
    return [i for i, ch in enumerate(text) if ch in "iIsSkK" and i not in quoted]


_VARIANTS = {"i": (DOTLESS_I, DOTTED_I), "s": (LONG_S,), "k": (KELVIN,)}
MUTANTS = [(pos, variant) for pos in _letter_positions(TEMPLATE) for variant in _VARIANTS[TEMPLATE[pos].lower()]]


def test_the_template_reads_and_has_every_keyword() -> None:
    from sgcheck.lang.logs.reader import KEYWORDS

    items = parse_log(SourceText("t.sglog", TEMPLATE))
    assert len(items) > 10
    words = set(re.findall(r"[a-z][a-z0-9-]*", _QUOTED.sub("", TEMPLATE.lower())))
    assert set(KEYWORDS) <= words
    assert len(MUTANTS) > 80


def _error(text: str) -> tuple[LogSyntaxError, LogSyntaxError]:
    """The error of the line reader's reading and of the grammar's reading from the first character."""
    source = SourceText("t.sglog", text)
    with pytest.raises(LogSyntaxError) as by_reader:
        parse_log(source)
    with pytest.raises(LogSyntaxError) as by_grammar:
        list(grammar_items(source))
    return by_reader.value, by_grammar.value


@pytest.mark.parametrize(("pos", "variant"), MUTANTS, ids=[f"{p}-U+{ord(v):04X}" for p, v in MUTANTS])
def test_a_unicode_case_variant_in_any_word_is_a_syntax_error_naming_it(pos: int, variant: str) -> None:
    text = TEMPLATE[:pos] + variant + TEMPLATE[pos + 1 :]
    by_reader, by_grammar = _error(text)
    assert by_reader.diagnostic == by_grammar.diagnostic
    d = by_reader.diagnostic
    assert d.code in ("SG-P001", "SG-P003"), d.message
    assert f"(U+{ord(variant):04X} " in d.message and "not the letter" in (d.label or ""), d.message
    assert d.span is not None and (d.span.offset, d.span.end_offset) == (pos, pos + 1), d.message
    assert d.hint is not None and "ASCII letters" in d.hint


@pytest.mark.parametrize(
    ("line", "message", "column"),
    [
        (f"1. upkeep: summon R a1 pay 10{LONG_S}p", "'ſ' (U+017F LATIN SMALL LETTER LONG S) is not the letter s", 30),
        (f"1. ma{DOTLESS_I}n2: pass", "'ı' (U+0131 LATIN SMALL LETTER DOTLESS I) is not the letter i", 6),
        (f"1. upkeep: summon R a1 {LONG_S}p 0", "'ſ' (U+017F LATIN SMALL LETTER LONG S): it is not the letter s", 24),
        (f"1. battle: attack Ra1 a2 roll 1 1 h{DOTLESS_I}t", "is not the letter i", 36),
        (f"1. upkeep: {LONG_S}ummon R a1", "unexpected character 'ſ' (U+017F LATIN SMALL LETTER LONG S)", 12),
        (f"1. end: pa{LONG_S}s", "'ſ' (U+017F LATIN SMALL LETTER LONG S) is not the letter s", 11),
        ("1. end: p\u0430ss", "'а' (U+0430 CYRILLIC SMALL LETTER A) is not the letter a", 10),
        ("1. end: pass lp 1\u03bf", "syntax error: 'ο' (U+03BF GREEK SMALL LETTER OMICRON) is not the letter o", 18),
        ("1. end: pass lp \uff11", "'１' (U+FF11 FULLWIDTH DIGIT ONE): it is not the digit 1", 17),
        ("1. end: pass\u00e9", "syntax error: 'é' (U+00E9 LATIN SMALL LETTER E WITH ACUTE) is not an ASCII letter", 13),
        ("1. end: pass \u20ac", "unexpected character '€' (U+20AC EURO SIGN): expected", 14),
    ],
)
def test_reproducers_are_named_at_the_character(line: str, message: str, column: int) -> None:
    by_reader, by_grammar = _error(line + "\n")
    assert by_reader.diagnostic == by_grammar.diagnostic
    d = by_reader.diagnostic
    assert message in d.message
    assert d.span is not None and (d.span.line, d.span.column, d.span.end_column) == (1, column, column + 1)


def test_the_hint_spells_the_word_in_ascii() -> None:
    d = _error(f"1. upkeep: summon R a1 pay 10{LONG_S}p\n")[0].diagnostic
    assert d.hint == "keywords, units and labels are ASCII letters, in any case: write '10sp'"
    d = _error("1. end: pass\u00e9\n")[0].diagnostic
    assert d.hint is not None and "comment or a quoted name" in d.hint


def test_any_character_stays_legitimate_in_comments_and_quoted_names() -> None:
    text = (
        f'[Event "K{DOTLESS_I}ng{LONG_S} \u0441\u043e\u0441\u0442 {KELVIN}"]\n'
        f"; {LONG_S}ummon pa{LONG_S}s h{DOTLESS_I}t\n"
        f'draft white "{LONG_S}oul Dra{DOTLESS_I}n"\n'
        f"1. upkeep: summon R a1 {{ pay 10{LONG_S}p }} cost 10 ; ma{DOTLESS_I}n2:\n"
    )
    items = parse_log(SourceText("t.sglog", text))
    assert [type(i).__name__ for i in items] == ["Header", "Draft", "Turn"]
    assert items[0].tags[0].value == f"K{DOTLESS_I}ng{LONG_S} \u0441\u043e\u0441\u0442 {KELVIN}"  # type: ignore[attr-defined]


def test_the_parsers_are_built_ascii_only() -> None:
    from sgcheck.lang.logs import reader
    from sgcheck.lang.logs.grammar import _lark

    assert _lark().options.g_regex_flags & re.ASCII
    for pattern in (reader._STEP, reader._BLANK, reader._ITEM_START, reader._KING, reader._RESULT, reader._DRAFT):
        assert pattern.flags & re.ASCII


def test_unicode_whitespace_still_separates_words() -> None:
    """Only keywords became ASCII: the spaces between words are as before."""
    text = "king\u00a0white e1\n1.\u2003upkeep:\u3000summon R a1\n"
    assert len(parse_log(SourceText("t.sglog", text))) == 3


# --- card files ------------------------------------------------------------------------------------


_GAIN_LONG_S = f'spell "X" {{ cost 1 SP effect gain 2 {LONG_S}P }}'
_GAIN_DOTLESS = f'spell "X" {{ cost 1 SP effect ga{DOTLESS_I}n 2 SP }}'
_KELVIN_KING = f'relic "X" {{ cost 1 SP effect to_hit +1 when attacker is {KELVIN}ing }}'
_EURO = 'spell "X" { cost 1 SP effect gain 2 SP \u20ac }'


@pytest.mark.parametrize(
    ("card", "message", "column"),
    [
        (_GAIN_LONG_S, "unexpected character 'ſ' (U+017F LATIN SMALL LETTER LONG S): it is not the letter s", 37),
        (_GAIN_DOTLESS, "unexpected character 'ı' (U+0131 LATIN SMALL LETTER DOTLESS I): it is not the letter i", 32),
        (_KELVIN_KING, "(U+212A KELVIN SIGN): it is not the letter K", 57),
        (_EURO, "unexpected character '€' (U+20AC EURO SIGN): it is not an ASCII character", 40),
    ],
)
def test_card_lookalikes_are_named_at_the_character(card: str, message: str, column: int) -> None:
    parsed = parse_cards(card, "c.sgcard")
    assert not parsed.cards
    (d,) = parsed.diagnostics
    assert d.code == "SG-P022" and message in d.message, d.message
    assert d.span is not None and (d.span.line, d.span.column) == (1, column)


def test_card_names_texts_and_comments_keep_any_character() -> None:
    text = f'spell "K{DOTLESS_I}ng {LONG_S}layer" {{ cost 1 SP text "{LONG_S}oul" effect gain 2 SP }}  # {LONG_S}\n'
    parsed = parse_cards(text, "c.sgcard")
    assert not parsed.diagnostics and parsed.cards[0].name == f"K{DOTLESS_I}ng {LONG_S}layer"


# --- codes, profiles and other words users write ---------------------------------------------------


def test_code_spellings_are_ascii() -> None:
    assert spell_code("sg-p001", CATALOGUE) == "SG-P001"
    assert spell_code(f"{LONG_S}g-p001", CATALOGUE) is None  # 'ſ'.upper() == 'S'
    assert select_codes("sg-p00", CATALOGUE) >= {"SG-P001", "SG-P002"}
    assert select_codes(f"{LONG_S}G-P00", CATALOGUE) == frozenset()
    assert select_codes("C\u0660\u0665", CATALOGUE) == frozenset()  # Arabic-Indic digits are no code


def test_ruleset_settings_are_ascii() -> None:
    assert parse_ruleset("king_value=3").king_value == 3
    with pytest.raises(RulesetError, match=r"U\+212A KELVIN SIGN\) is not the letter K"):
        parse_ruleset(f"{KELVIN}ing_value=3")  # str.lower() would read it as king_value
    with pytest.raises(RulesetError, match=r"U\+0130"):
        parse_ruleset(f"{DOTTED_I}NCOME=all")


def test_scenario_rules_keys_are_ascii() -> None:
    """``str.lower()`` would read the Kelvin sign's ``King_value`` as ``king_value``; it is no key."""
    from pathlib import Path

    from sgcheck.contract.scenario_contract import check_scenario_text

    shipped = Path(__file__).resolve().parents[2] / "examples" / "scenarios" / "drill-1-last-hit.scenario.yaml"
    rules = f"turn_limit: 1\nrules:\n  {KELVIN}ing_value: 3\n"
    text = shipped.read_text(encoding="utf-8").replace("turn_limit: 1\n", rules)
    _loaded, findings = check_scenario_text(text, "s.scenario.yaml")
    (finding,) = [f for f in findings if "ing_value" in f.message]
    assert finding.code == "SG-P032"
    assert "unknown core number; " in finding.message and "(U+212A KELVIN SIGN) is not the letter K" in finding.message
