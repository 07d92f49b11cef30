"""Cards and rerolls in a log: ``play "Card" [on REF]``, ``activate "Card" [on REF]`` and an
attack's second roll (``roll 4 1 reroll 2 3``, ``roll 9 1 advantage 2 3``).

The grammar is the reference; the line reader must give the same nodes, spans and errors (it
hands a turn with a card to the grammar, and reads a rerolled attack itself); the writer's text
must read back into the same nodes; and the mistakes players make with the new words get a
message that says where and what was expected.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sgcheck.core.actions import Activate, Attack, Part, Play
from sgcheck.core.pieces import Color, Kind, Phase
from sgcheck.core.squares import parse_square
from sgcheck.core.state import Payment
from sgcheck.diagnostics import Diagnostic, Span
from sgcheck.lang.logs.ast import (
    ActivateStmt,
    AttackStmt,
    CardName,
    ClaimKind,
    Dice,
    LogItem,
    PhaseBlock,
    PieceRef,
    PlayStmt,
    SecondRoll,
    Statement,
    Turn,
)
from sgcheck.lang.logs.grammar import LogSyntaxError, grammar_items
from sgcheck.lang.logs.reader import PlainTurn, iter_log, read_log
from sgcheck.lang.logs.writer import format_log, format_statement
from sgcheck.lang.source import SourceText
from sgcheck.replay.layouts import LAYOUTS, relayout
from sgcheck.replay.translate import span_of, translate

from .test_log_reader import GrammarReadings, assert_agree, read_all
from .test_log_writer import ATTACK, PAYING, S, claims_for, faces, names, refs, shape

# --- reading each form ---------------------------------------------------------------------------


def statements_of(text: str) -> list[Statement]:
    """Every statement of every turn of ``text``, as the grammar reads it (the reader agreeing)."""
    items = assert_agree(SourceText("c.sglog", text))
    return [
        stmt
        for item in items
        if isinstance(item, Turn)
        for stmt in (*item.loose, *(s for block in item.phases for s in block.statements))
    ]


def one(body: str, phase: str = "main1") -> tuple[Statement, str]:
    """The one statement of ``1. <phase>: <body>``, and the text it was read from."""
    text = f"1. {phase}: {body}\n"
    (stmt,) = statements_of(text)
    return stmt, text


def error(text: str) -> Diagnostic:
    """The grammar's syntax error in ``text``, after checking that the line reader reports the same."""
    with pytest.raises(LogSyntaxError) as info:
        list(grammar_items(SourceText("e.sglog", text)))
    _items, reader_error = read_all(iter_log(SourceText("e.sglog", text)))
    d = info.value.diagnostic
    assert reader_error == f"{d.code} {d.span} {d.message} {d.hint} {d.label}"
    return d


def at(text: str, span: Span) -> str:
    return text[span.offset : span.end_offset]


def sq(name: str) -> int:
    return parse_square(name)


def test_play_with_claims() -> None:
    stmt, text = one('play "Soul Drain" cost 3 pay 3sp 0lp sp 12 gain 5sp')
    assert isinstance(stmt, PlayStmt)
    assert (stmt.card.name, stmt.target) == ("Soul Drain", None)
    assert [c.kind for c in stmt.claims] == [ClaimKind.COST, ClaimKind.PAY, ClaimKind.SP, ClaimKind.GAIN_SP]
    assert (stmt.claims[1].sp, stmt.claims[1].lp, stmt.claims[3].value) == (3, 0, 5)
    assert at(text, stmt.card.span) == '"Soul Drain"'
    assert at(text, stmt.span) == 'play "Soul Drain" cost 3 pay 3sp 0lp sp 12 gain 5sp'


def test_play_with_a_target() -> None:
    stmt, text = one('play "Bolt" on Rb7 cost 2 damage 2')
    assert isinstance(stmt, PlayStmt)
    assert stmt.target is not None
    assert (stmt.target.kind, stmt.target.square) == (Kind.ROOK, sq("b7"))
    assert at(text, stmt.target.span) == "Rb7"
    assert [(c.kind, c.value) for c in stmt.claims] == [(ClaimKind.COST, 2), (ClaimKind.DAMAGE, 2)]
    assert at(text, stmt.span) == 'play "Bolt" on Rb7 cost 2 damage 2'


def test_a_statement_without_claims_ends_with_its_last_word() -> None:
    bare, text = one('play "Bolt"')
    assert at(text, bare.span) == 'play "Bolt"'
    target, text = one('play "Bolt" on b7  ; a note')
    assert isinstance(target, PlayStmt) and target.target is not None
    assert target.target.kind is None and at(text, target.span) == 'play "Bolt" on b7'
    activate, text = one('activate "Blood Altar" on Qd4')
    assert isinstance(activate, ActivateStmt) and activate.target is not None
    assert at(text, activate.span) == 'activate "Blood Altar" on Qd4'
    assert at(text, activate.target.span) == "Qd4"


def test_activate_takes_a_target_too() -> None:
    stmt, _ = one('activate "Blood Altar" on Pc5 pay 1lp')
    assert isinstance(stmt, ActivateStmt)
    assert stmt.target is not None
    assert (stmt.card.name, stmt.target.kind, stmt.target.square) == ("Blood Altar", Kind.PAWN, sq("c5"))
    assert [c.kind for c in stmt.claims] == [ClaimKind.PAY]
    plain, _ = one('activate "Blood Altar"')
    assert isinstance(plain, ActivateStmt) and plain.target is None


@pytest.mark.parametrize(("word", "advantage"), [("reroll", False), ("advantage", True)])
def test_an_attack_with_a_second_roll(word: str, advantage: bool) -> None:
    stmt, text = one(f"attack Ra3 Pa5 roll 4 1 {word} 2 3 cost 12 threshold 60 hit", "battle")
    assert isinstance(stmt, AttackStmt)
    assert stmt.second is not None
    assert (stmt.roll.faces, stmt.second.dice.faces, stmt.second.advantage) == ((4, 1), (2, 3), advantage)
    assert at(text, stmt.second.span) == f"{word} 2 3"
    assert at(text, stmt.second.dice.span) == "2 3"
    assert at(text, stmt.roll.span) == "4 1"
    assert [c.kind for c in stmt.claims] == [ClaimKind.COST, ClaimKind.THRESHOLD, ClaimKind.HIT]
    assert at(text, stmt.span) == f"attack Ra3 Pa5 roll 4 1 {word} 2 3 cost 12 threshold 60 hit"


def test_a_second_roll_without_claims_ends_the_attack() -> None:
    stmt, text = one("attack Ra3 a5 roll 9 1 advantage 0 0 { the better one }", "battle")
    assert isinstance(stmt, AttackStmt) and stmt.second is not None
    assert at(text, stmt.span) == "attack Ra3 a5 roll 9 1 advantage 0 0"
    plain, _ = one("attack Ra3 a5 roll 9 1 miss", "battle")
    assert isinstance(plain, AttackStmt) and plain.second is None


def test_the_first_roll_keeps_every_die_before_the_second() -> None:
    """Replay reports a first roll of the wrong size (SG-R114); the second is two dice by syntax."""
    stmt, _ = one("attack Ra3 a5 roll 4 1 7 reroll 2 3", "battle")
    assert isinstance(stmt, AttackStmt) and stmt.second is not None
    assert (stmt.roll.faces, stmt.second.dice.faces) == ((4, 1, 7), (2, 3))


@pytest.mark.parametrize(
    "text",
    [
        'PLAY "Bolt" ON Rb7 COST 2',
        'Play "Bolt" On Rb7 Cost 2',
        'pLaY "Bolt" oN Rb7 cOsT 2',
        'ACTIVATE "Bolt" On Rb7 cost 2',
    ],
)
def test_card_keywords_in_any_case(text: str) -> None:
    stmt, _ = one(text)
    assert isinstance(stmt, PlayStmt | ActivateStmt)
    assert stmt.card.name == "Bolt"
    assert stmt.target is not None and stmt.target.square == sq("b7")


@pytest.mark.parametrize("word", ["REROLL", "Reroll", "ADVANTAGE", "Advantage", "aDvAnTaGe"])
def test_second_roll_keywords_in_any_case(word: str) -> None:
    stmt, _ = one(f"Attack Ra3 a5 ROLL 4 1 {word} 2 3 HIT", "battle")
    assert isinstance(stmt, AttackStmt) and stmt.second is not None
    assert stmt.second.advantage is (word.lower() == "advantage")


def test_several_cards_and_attacks_over_lines_with_comments() -> None:
    text = (
        '1. main1: play "Soul Drain" { a spell }\n'
        "   cost 3 play\n"
        '   "Bolt" ; its target on the next line\n'
        "   on\n"
        "   Rb7 damage 2\n"
        "   battle: attack Ra3 Pa5 roll 4 1\n"
        "     reroll\n"
        "     2 { tens } 3 hit attack Qd4 d6 roll 9 1 advantage 2 3 miss\n"
    )
    kinds = [type(stmt).__name__ for stmt in statements_of(text)]
    assert kinds == ["PlayStmt", "PlayStmt", "AttackStmt", "AttackStmt"]


# --- the new words are whole words -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("body", "found", "column"),
    [
        ('player "Bolt"', "'player'", 11),
        ('plays "Bolt"', "'plays'", 11),
        ('play-"Bolt"', "'play-", 11),
        ('play "Bolt" online Rb7', "'online'", 23),
        ('play "Bolt" on-b7', "'on-b7'", 23),
        ('play "Bolt" onRb7', "'onRb7'", 23),
        ('activate "Bolt" ontarget Rb7', "'ontarget'", 27),
    ],
)
def test_card_words_are_not_read_inside_longer_words(body: str, found: str, column: int) -> None:
    d = error(f"1. main1: {body}\n")
    assert d.code == "SG-P001"
    assert f"found {found}" in d.message, d.message
    assert d.span is not None and (d.span.line, d.span.column) == (1, column)


@pytest.mark.parametrize(
    ("body", "found"),
    [
        ("attack Ra3 a5 roll 4 1 rerolled 2 3", "'rerolled'"),
        ("attack Ra3 a5 roll 4 1 reroll2 3", "'reroll2'"),
        ("attack Ra3 a5 roll 4 1 advantages 2 3", "'advantages'"),
        ("attack Ra3 a5 roll 4 1 advantage-2 3", "'advantage-2'"),
    ],
)
def test_second_roll_words_are_not_read_inside_longer_words(body: str, found: str) -> None:
    d = error(f"1. battle: {body}\n")
    assert d.code == "SG-P001"
    assert f"found {found}" in d.message, d.message
    assert d.span is not None and (d.span.line, d.span.column) == (1, 35)


def test_a_misspelt_card_word_gets_a_suggestion() -> None:
    assert error('1. main1: player "Bolt"').hint == "did you mean 'play'?"
    assert error('1. main1: play "Bolt" onn Rb7').hint == "did you mean 'on'?"
    assert error("1. battle: attack Ra3 a5 roll 4 1 rerol 2 3").hint == "did you mean 'reroll'?"


# --- friendly errors for the common mistakes ---------------------------------------------------------


MISTAKES = [
    # (text, code, message fragment, line, column, label)
    ("1. main1: play Bolt", "SG-P001",
     "expected the card name in double quotes (e.g. 'play \"Soul Drain\"'), found 'Bolt'", 1, 16,
     "expected a quoted card name"),
    ("1. main1:\n  play Soul Drain on Rb7", "SG-P001", "found 'Soul'", 2, 8, "expected a quoted card name"),
    ("1. main1: play 'Bolt'", "SG-P00", "card name in double quotes", 1, 16, None),
    ("1. main1: play", "SG-P002", "unexpected end of the log: expected the card name in double quotes", 1, 15,
     "the log ends here"),
    ('1. main1: play "Bolt" on x', "SG-P001", "expected the piece the card acts on after 'on'", 1, 26,
     "expected a piece here"),
    ('1. main1: play "Bolt" on\n2. end: pass', "SG-P001", "the piece the card acts on after 'on', written as its "
     "square with an optional piece letter (e.g. 'on Rb7' or 'on b7'), found '2.'", 2, 1, "expected a piece here"),
    ('1. main1: play "Bolt" on', "SG-P002", "expected the piece the card acts on", 1, 25, "the log ends here"),
    ('1. main1: play "Bolt" on i9', "SG-P001", "found 'i9', which is not a square", 1, 26, "not a square"),
    ('1. main1: play "Bolt" on cost 2', "SG-P001", "the piece the card acts on", 1, 26, "expected a piece here"),
    ('1. main1: activate "Altar" on x', "SG-P001", "expected the piece the card acts on after 'on'", 1, 31,
     "expected a piece here"),
    ('1. main1: activate "Altar" On\n', "SG-P002", "the piece the card acts on", 2, 1, "the log ends here"),
    ("1. battle: attack Ra3 a5 roll 4 1 reroll 2 hit", "SG-P001",
     "expected the second die of the second roll (two d10 faces, e.g. 'reroll 2 3'), found 'hit'", 1, 44,
     "expected a second die here"),
    ("1. battle: attack Ra3 a5 roll 4 1 reroll 2\n2. end: pass", "SG-P001", "the second die of the second roll",
     2, 1, "expected a second die here"),
    ("1. battle: attack Ra3 a5 roll 4 1 reroll 2", "SG-P002", "expected the second die of the second roll", 1, 43,
     "the log ends here"),
    ("1. battle: attack Ra3 a5 roll 4 1 advantage 7 miss", "SG-P001", "the second die of the second roll", 1, 47,
     "expected a second die here"),
    ("1. battle: attack Ra3 a5 roll 4 1 reroll hit", "SG-P001",
     "expected the two dice of the second roll after 'reroll' (two d10 faces, e.g. 'reroll 2 3'), found 'hit'",
     1, 42, "expected two dice here"),
    ("1. battle: attack Ra3 a5 roll 4 1 ADVANTAGE\n", "SG-P002",
     "the two dice of the second roll after 'ADVANTAGE'", 2, 1, "the log ends here"),
    ("1. battle: attack Ra3 a5 roll 4 1 reroll 2 3 4 hit", "SG-P001",
     "expected a claim or the next statement after the second roll, which is two dice", 1, 46,
     "unexpected after the second roll"),
    ("1. battle: attack Ra3 a5 roll 4 1 hit reroll 2 3", "SG-P001", "found 'reroll'", 1, 39, "unexpected here"),
    ("1. battle: attack Ra3 a5 roll reroll 2 3", "SG-P001", "the dice after 'roll'", 1, 31,
     "expected two dice here"),
    ('1. main1: play "Bolt" cost 2 on Rb7', "SG-P001", "found 'on'", 1, 30, "unexpected here"),
    ("1. upkeep: break roll 4 5 6 reroll 1 2", "SG-P001", "found 'reroll'", 1, 29, "unexpected here"),
    ("1. main1: move Ra1 a3 on a4", "SG-P001", "found 'on'", 1, 23, "unexpected here"),
]  # fmt: skip


@pytest.mark.parametrize(("text", "code", "fragment", "line", "column", "label"), MISTAKES)
def test_common_mistakes_are_reported_where_they_are(
    text: str, code: str, fragment: str, line: int, column: int, label: str | None
) -> None:
    d = error(text)
    assert d.code.startswith(code), d.message
    assert fragment in d.message, d.message
    assert d.span is not None
    assert (d.span.line, d.span.column) == (line, column), d.message
    if label is not None:
        assert d.label == label
    assert d.label and d.hint, "each of these mistakes gets a caret label and a hint"


def test_misplaced_words_say_where_they_go() -> None:
    after_claims = error("1. battle: attack Ra3 a5 roll 4 1 hit Reroll 2 3").hint
    assert after_claims == "'reroll' comes right after an attack's dice, before its claims: 'roll 4 1 reroll 2 3 hit'"
    target = error('1. main1: play "Bolt" cost 2 on Rb7').hint
    assert target == "a card's target comes right after its name, before its claims: 'play \"Bolt\" on Rb7 cost 2'"
    third_die = error("1. battle: attack Ra3 a5 roll 4 1 advantage 2 3 4").hint
    assert third_die == "a second accuracy roll is two d10 read as tens and ones, like the first"
    name = error('1. main1: move Ra1 "a3"').hint
    assert name == "quoted names only follow 'draft', 'activate', 'play' and header tag names"


def test_claims_that_do_not_fit_a_play() -> None:
    d = error('1. main1: play "Bolt" on Rb7 hit')
    assert d.message == "claim 'hit' does not apply to a play; it can follow an attack"
    assert d.span is not None and (d.span.line, d.span.column) == (1, 30)
    assert d.hint == "claims that can follow a play: capture, cost, damage, gain <n>lp, gain <n>sp, lp, pay, sp"


# --- the line reader reads cards and rerolled attacks itself ----------------------------------------

SETUP = "king white e1\nking black e8\n"


def test_a_turn_with_a_play_never_reaches_the_grammar(monkeypatch: pytest.MonkeyPatch) -> None:
    text = SETUP + '1. main1: play "Bolt" on Rb7\n1... end: pass\n2. main1: PLAY "X"\n2... end: pass\n'
    readings = GrammarReadings(monkeypatch)
    items = list(read_log(SourceText("p.sglog", text)))
    kinds = [type(item).__name__ for item in items]
    assert kinds == ["Header", "KingPlacement", "KingPlacement", "PlainTurn", "PlainTurn", "PlainTurn", "PlainTurn"]
    assert readings.starts == []
    turns = [item for item in items if isinstance(item, PlainTurn)]
    actions = [step.action for turn in turns for step in turn.steps if step.word == "play"]
    assert actions == [Play("Bolt", sq("b7"), Kind.ROOK), Play("X")]


def test_a_rerolled_attack_never_reaches_the_grammar(monkeypatch: pytest.MonkeyPatch) -> None:
    text = SETUP + (
        "1. battle: attack Ra3 Pa5 roll 4 1 reroll 2 3 cost 12 pay 2sp 10lp threshold 60 hit\n"
        "1... battle: ATTACK Qd4 d6 ROLL 9 1\n  Advantage 0 { ten } 0 miss\n"
        "2. battle: attack Ra3 Pa5 roll 4 1 7 reroll 2 3\n"
    )
    readings = GrammarReadings(monkeypatch)
    items = list(read_log(SourceText("r.sglog", text)))
    turns = [item for item in items if isinstance(item, PlainTurn)]
    assert len(turns) == 3 and readings.starts == []
    actions = [step.action for turn in turns for step in turn.steps if step.word is not None]
    a3, a5, d4, d6 = sq("a3"), sq("a5"), sq("d4"), sq("d6")
    assert actions == [
        Attack(a3, a5, (4, 1), Kind.ROOK, Kind.PAWN, Payment(2, 10), (2, 3), False),
        Attack(d4, d6, (9, 1), Kind.QUEEN, None, None, (0, 0), True),
        Attack(a3, a5, (4, 1, 7), Kind.ROOK, Kind.PAWN, None, (2, 3), False),
    ]
    claims = turns[0].steps[0].claims
    assert claims == ((ClaimKind.COST, 12), (ClaimKind.THRESHOLD, 60), (ClaimKind.HIT, None))
    for turn in turns:  # the steps are what the grammar's tree translates to
        tree = turn.tree()
        statements = [s for block in tree.phases for s in block.statements]
        steps = [s for s in turn.steps if s.word is not None]
        assert [s.action for s in steps] == [translate(stmt) for stmt in statements]


@pytest.mark.parametrize(
    "text",
    [
        SETUP + '1. main1: play "Soul Drain" cost 3 pay 3sp 0lp sp 12 gain 5sp\n1... end: pass\n',
        SETUP + '1. main1: play "Bolt" on Rb7 cost 2 damage 2 activate "Altar" on b2\n2. end: pass\nresult *\n',
        SETUP + "1. battle: attack Ra3 Pa5 roll 4 1 reroll 2 3 cost 12 threshold 60 hit\nresult 1-0\n",
        SETUP + "1. battle: attack Ra3 Pa5 roll 4 1 reroll 2 3 pay 5sp 5sp\n",
        SETUP + "1. battle: attack Ra3 Pa5 roll 4 1 reroll 2 3 gain 2lp\n",
        SETUP + "1. battle: attack Ra3 Pa5 roll 4 1 reroll 2 3 4\n1... end: pass\n",
        SETUP + "1. battle: attack Ra3 Pa5 roll 4 1 reroll 2\n1... end: pass\n",
        SETUP + "1. battle: attack Ra3 Pa5 roll 4 1 reroll 2 1234567890\n",
        SETUP + "1. battle: attack Ra3 Pa5 roll 4 1 reroll 2 3 reroll 4 5\n",
        SETUP + "1. battle: attack Ra3 Pa5 roll 4 1 reroll 2 3.\n",
        SETUP + '1. main1: play "Bolt" on Rb7 on b6\n',
        SETUP + '1. end: pass\n1... main1: play\n  "Bolt"\n  on\n  b7 { ok } lp 3\n2. end: pass\n',
        SETUP + "1. battle: attack Ra3 Pa5 roll 4 1 reroll 2 3 hit attack Ra3 a6 roll 0 0 advantage 9 9\n",
    ],
)
def test_reader_and_grammar_agree(text: str) -> None:
    assert_agree(SourceText("a.sglog", text))


# --- core actions and the text a finding points at ---------------------------------------------------


def test_statements_translate_into_core_actions() -> None:
    play, _ = one('play "Bolt" on Rb7 cost 2 pay 2sp')
    assert translate(play) == Play("Bolt", sq("b7"), Kind.ROOK, Payment(2, 0))
    bare, _ = one('play "Soul Drain"')
    assert translate(bare) == Play("Soul Drain")
    activate, _ = one('activate "Altar" on b2 pay 1lp')
    assert translate(activate) == Activate("Altar", Payment(0, 1), sq("b2"), None)
    attack, _ = one("attack Ra3 a5 roll 9 1 advantage 2 3 pay 12sp", "battle")
    assert translate(attack) == Attack(sq("a3"), sq("a5"), (9, 1), Kind.ROOK, None, Payment(12, 0), (2, 3), True)
    plain, _ = one("attack Ra3 a5 roll 9 1", "battle")
    assert translate(plain) == Attack(sq("a3"), sq("a5"), (9, 1), Kind.ROOK)


def test_findings_point_at_the_part_they_are_about() -> None:
    play, text = one('play "Bolt" on Rb7 cost 2 pay 2sp')
    assert at(text, span_of(play, Part.TARGET)) == "Rb7"
    assert at(text, span_of(play, Part.ACTION)) == 'play "Bolt" on Rb7 cost 2 pay 2sp'
    assert at(text, span_of(play, Part.PAY)) == "pay 2sp"
    assert at(text, span_of(play, Part.ROLL)) == 'play "Bolt" on Rb7 cost 2 pay 2sp'
    untargeted, text = one('activate "Altar" cost 1')
    assert at(text, span_of(untargeted, Part.TARGET)) == '"Altar"'
    assert at(text, span_of(untargeted, Part.ACTION)) == 'activate "Altar" cost 1'
    attack, text = one("attack Ra3 a5 roll 4 1 reroll 2 3 hit", "battle")
    assert at(text, span_of(attack, Part.REROLL)) == "reroll 2 3"
    assert at(text, span_of(attack, Part.ROLL)) == "4 1"
    assert at(text, span_of(attack, Part.TARGET)) == "a5"
    once, text = one("attack Ra3 a5 roll 4 1 hit", "battle")
    assert at(text, span_of(once, Part.REROLL)) == "attack Ra3 a5 roll 4 1 hit"


# --- the writer's text reads back into the same nodes -----------------------------------------------


def test_canonical_text_of_cards_and_second_rolls() -> None:
    rb7 = PieceRef(Kind.ROOK, sq("b7"), S)
    assert format_statement(PlayStmt(CardName("Bolt", S), rb7, (), S)) == 'play "Bolt" on Rb7'
    assert format_statement(PlayStmt(CardName('A "b"', S), None, (), S)) == 'play "A \\"b\\""'
    assert format_statement(ActivateStmt(CardName("Altar", S), (), S, rb7)) == 'activate "Altar" on Rb7'
    second = SecondRoll(True, Dice((2, 3), S), S)
    attack = AttackStmt(PieceRef(None, sq("a3"), S), rb7, Dice((4, 1), S), (), S, second)
    assert format_statement(attack) == "attack a3 Rb7 roll 4 1 advantage 2 3"
    with pytest.raises(ValueError, match="two dice"):
        format_statement(AttackStmt(rb7, rb7, Dice((4, 1), S), (), S, SecondRoll(False, Dice((2,), S), S)))


seconds = st.none() | st.builds(
    SecondRoll, st.booleans(), st.tuples(st.integers(0, 99), st.integers(0, 99)).map(lambda f: Dice(f, S)), st.just(S)
)
PLAY_CLAIMS = [*PAYING, ClaimKind.DAMAGE, ClaimKind.CAPTURE, ClaimKind.GAIN_SP, ClaimKind.GAIN_LP]
cards = st.builds(CardName, names, st.just(S))
new_statements: st.SearchStrategy[Statement] = st.one_of(
    st.builds(PlayStmt, cards, st.none() | refs, claims_for(PLAY_CLAIMS), st.just(S)),
    st.builds(ActivateStmt, cards, claims_for(PAYING), st.just(S), st.none() | refs),
    st.builds(AttackStmt, refs, refs, faces, claims_for(ATTACK), st.just(S), seconds),
)


@settings(max_examples=300, deadline=None)
@given(new_statements)
def test_statements_round_trip(stmt: Statement) -> None:
    text = format_statement(stmt)
    (stmt_again,) = statements_of("1. battle: " + text)
    assert shape(stmt_again) == shape(stmt)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    bodies=st.lists(st.lists(new_statements, min_size=1, max_size=3), min_size=1, max_size=4),
    layout=st.sampled_from(LAYOUTS),
    seed=st.integers(0, 50),
)
def test_logs_with_cards_read_alike_in_every_layout(bodies: list[list[Statement]], layout: str, seed: int) -> None:
    """The writer's log, rewritten in every layout people use: the same nodes as the writer's, and
    the reader agrees with the grammar (spans and errors included)."""
    turns: list[LogItem] = [
        Turn(1 + n // 2, Color(n % 2), S, (), (PhaseBlock(Phase.BATTLE, S, tuple(body), S),), S)
        for n, body in enumerate(bodies)
    ]
    text = relayout(format_log(turns), layout, seed=seed).removeprefix("\ufeff").replace("\r\n", "\n")
    items = assert_agree(SourceText("l.sglog", text))
    assert [shape(item) for item in items[1:]] == [shape(turn) for turn in turns]


def test_capitals_reach_the_new_keywords() -> None:
    text = SETUP + '1. main1: play "on play" on Rb7 cost 2\n   battle: attack Ra3 a5 roll 4 1 reroll 2 3 hit\n'
    text += "1... battle: attack Ra3 a5 roll 4 1 advantage 2 3 hit ; on play\n"
    new = relayout(text, "capitalised")
    assert 'Play "on play" On Rb7 Cost 2' in new
    assert "Roll 4 1 Reroll 2 3 Hit" in new and "Roll 4 1 Advantage 2 3 Hit ; on play" in new
    assert [shape(i) for i in assert_agree(SourceText("c.sglog", new))] == [
        shape(i) for i in assert_agree(SourceText("c.sglog", text))
    ]
