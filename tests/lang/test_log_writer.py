"""The .sglog writer: canonical text, and parse(format(items)) == items apart from spans."""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sgcheck.core.caps import MAX_NUMBER_DIGITS
from sgcheck.core.pieces import Color, Kind, Phase
from sgcheck.core.squares import Square, parse_square
from sgcheck.diagnostics import Span
from sgcheck.lang.logs.ast import (
    ActivateStmt,
    AttackStmt,
    BreakStmt,
    CardName,
    Claim,
    ClaimKind,
    ConvertStmt,
    Dice,
    Draft,
    Header,
    IncomeStmt,
    KingPlacement,
    LogItem,
    MoveStmt,
    PassStmt,
    PhaseBlock,
    PieceRef,
    PlayStmt,
    RepairStmt,
    ResultLine,
    RollOff,
    SecondRoll,
    SquareRef,
    Statement,
    SummonStmt,
    Tag,
    TeleportStmt,
    Turn,
)
from sgcheck.lang.logs.grammar import LogSyntaxError
from sgcheck.lang.logs.reader import parse_log
from sgcheck.lang.logs.writer import format_claim, format_item, format_log, format_statement
from sgcheck.lang.source import SourceText

from .test_log_parser import EXAMPLE

S = Span.point("dummy")  # the generator's dummy span: the writer must ignore it


def shape(node: object) -> object:
    """A node with every span removed, for comparing what was written with what was parsed."""
    if isinstance(node, Span):
        return None
    if isinstance(node, tuple):
        return tuple(shape(x) for x in node)
    if dataclasses.is_dataclass(node) and not isinstance(node, type):
        return (type(node).__name__, *(shape(getattr(node, f.name)) for f in dataclasses.fields(node)))
    return node


def sq(name: str) -> SquareRef:
    return SquareRef(parse_square(name), S)


def piece(kind: Kind | None, name: str) -> PieceRef:
    return PieceRef(kind, parse_square(name), S)


def c(kind: ClaimKind, value: int | None = None, sp: int = 0, lp: int = 0) -> Claim:
    return Claim(kind, S, value, sp, lp)


def roundtrip(items: list[LogItem]) -> list[LogItem]:
    return parse_log(SourceText("rt.sglog", format_log(items)))


# --- canonical text ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("stmt", "text"),
    [
        (SummonStmt(Kind.QUEEN, S, sq("d1"), (c(ClaimKind.COST, 14),), S), "summon Q d1 cost 14"),
        (MoveStmt(piece(Kind.ROOK, "a1"), sq("a3"), None, (), S), "move Ra1 a3"),
        (MoveStmt(piece(Kind.KNIGHT, "g1"), sq("d4"), sq("f3"), (), S), "move Ng1 f3 d4"),
        (MoveStmt(piece(None, "e2"), sq("e4"), None, (), S), "move e2 e4"),
        (
            AttackStmt(piece(Kind.ROOK, "a3"), piece(Kind.PAWN, "a5"), Dice((6, 1), S), (c(ClaimKind.HIT),), S),
            "attack Ra3 Pa5 roll 6 1 hit",
        ),
        (ConvertStmt(10, S, (c(ClaimKind.GAIN_LP, 5),), S), "convert 10 gain 5lp"),
        (TeleportStmt(piece(Kind.ROOK, "f3"), sq("a1"), (), S), "teleport Rf3 a1"),
        (BreakStmt(Dice((4, 5, 6), S), (c(ClaimKind.SUCCESS),), S), "break roll 4 5 6 success"),
        (RepairStmt(Dice((1, 2, 3), S), (c(ClaimKind.FAIL),), S), "repair roll 1 2 3 fail"),
        (ActivateStmt(CardName('Say "hi" \\o/', S), (), S), 'activate "Say \\"hi\\" \\\\o/"'),
        (ActivateStmt(CardName("Altar", S), (), S, piece(None, "b2")), 'activate "Altar" on b2'),
        (
            PlayStmt(CardName("Bolt", S), piece(Kind.ROOK, "b7"), (c(ClaimKind.COST, 2), c(ClaimKind.DAMAGE, 2)), S),
            'play "Bolt" on Rb7 cost 2 damage 2',
        ),
        (PlayStmt(CardName("Soul Drain", S), None, (c(ClaimKind.GAIN_SP, 5),), S), 'play "Soul Drain" gain 5sp'),
        (
            AttackStmt(
                piece(Kind.ROOK, "a3"),
                piece(Kind.PAWN, "a5"),
                Dice((4, 1), S),
                (c(ClaimKind.HIT),),
                S,
                SecondRoll(False, Dice((2, 3), S), S),
            ),
            "attack Ra3 Pa5 roll 4 1 reroll 2 3 hit",
        ),
        (
            AttackStmt(
                piece(None, "a3"), piece(None, "a5"), Dice((9, 1), S), (), S, SecondRoll(True, Dice((0, 0), S), S)
            ),
            "attack a3 a5 roll 9 1 advantage 0 0",
        ),
        (PassStmt((c(ClaimKind.LP, 26),), S), "pass lp 26"),
        (IncomeStmt(4, S, (c(ClaimKind.SP, 9),), S), "income 4 sp 9"),
    ],
)
def test_format_statement(stmt: Statement, text: str) -> None:
    assert format_statement(stmt) == text
    (_, turn) = parse_log(SourceText("t", "1. main1: " + text))
    assert isinstance(turn, Turn)
    assert shape(turn.phases[0].statements[0]) == shape(stmt)


@pytest.mark.parametrize(
    ("stmt", "text"),
    [
        (
            AttackStmt(piece(Kind.KNIGHT, "e2"), piece(Kind.KING, "f5"), Dice((6, 7), S), (c(ClaimKind.COST, 8),), S),
            "attack Ne2 Kf5 roll  cost 8",
        ),
        (
            AttackStmt(
                piece(None, "a3"), piece(None, "a5"), Dice((0, 0), S), (), S, SecondRoll(False, Dice((1, 1), S), S)
            ),
            "attack a3 a5 roll ",
        ),
        (BreakStmt(Dice((1, 1, 1), S), (c(ClaimKind.COST, 3),), S), "break roll  cost 3"),
        (RepairStmt(Dice((6, 6, 6), S), (), S), "repair roll "),
        (MoveStmt(piece(Kind.ROOK, "a1"), sq("a3"), None, (), S), "move Ra1 a3"),
    ],
)
def test_a_statement_offered_before_its_dice_leaves_every_roll_out(stmt: Statement, text: str) -> None:
    """The editor offers an attack, a Break or a Repair with its cost and threshold but no dice
    (core §4.2, §5): the rolls are left out whatever faces the statement holds, and nothing else
    of the statement changes."""
    assert format_statement(stmt, dice=False) == text


@pytest.mark.parametrize(
    ("claim", "text"),
    [
        (c(ClaimKind.PAY, sp=5), "pay 5sp"),
        (c(ClaimKind.PAY, lp=7), "pay 7lp"),
        (c(ClaimKind.PAY, sp=5, lp=7), "pay 5sp 7lp"),
        (c(ClaimKind.PAY), "pay 0sp"),
        (c(ClaimKind.KING_DAMAGE, 20), "king-damage 20"),
        (c(ClaimKind.CONVERT_KING), "converts"),
        (c(ClaimKind.GAIN_SP, 15), "gain 15sp"),
        (c(ClaimKind.THRESHOLD, 95), "threshold 95"),
    ],
)
def test_format_claim(claim: Claim, text: str) -> None:
    assert format_claim(claim) == text


def test_turn_layout_matches_the_documented_style() -> None:
    turn = Turn(
        3,
        Color.WHITE,
        S,
        (),
        (
            PhaseBlock(Phase.UPKEEP, S, (IncomeStmt(2, S, (), S), BreakStmt(Dice((4, 5, 6), S), (), S)), S),
            PhaseBlock(Phase.MAIN1, S, (), S),
            PhaseBlock(Phase.END, S, (PassStmt((), S),), S),
        ),
        S,
    )
    assert format_item(turn) == ("3.   upkeep: income 2\n             break roll 4 5 6\n     main1:\n     end: pass")
    black = Turn(12, Color.BLACK, S, (PassStmt((), S), PassStmt((), S)), (), S)
    assert format_item(black) == "12... pass\n      pass"
    assert format_item(Turn(1, Color.WHITE, S, (), (), S)) == "1."


def test_format_log_layout() -> None:
    items: list[LogItem] = [
        Header((Tag("Event", 'A "quoted" name', S),), S),
        Draft(Color.WHITE, (CardName("Soul Ward", S),), S),
        RollOff(Dice((6, 5, 3), S), Dice((2, 2, 1), S), S),
        KingPlacement(Color.WHITE, sq("e1"), S),
        Turn(1, Color.WHITE, S, (), (PhaseBlock(Phase.END, S, (PassStmt((), S),), S),), S),
        ResultLine("*", None, S),
    ]
    assert format_log(items) == (
        '[Event "A \\"quoted\\" name"]\n\n'
        'draft white "Soul Ward"\n'
        "rolloff white 6 5 3 black 2 2 1\n"
        "king white e1\n\n"
        "1.   end: pass\n"
        "result *\n"
    )
    assert [shape(i) for i in roundtrip(items)] == [shape(i) for i in items]


def test_empty_log() -> None:
    assert format_log([]) == ""
    assert format_log([Header((), S)]) == ""
    assert [shape(i) for i in roundtrip([Header((), S)])] == [shape(Header((), S))]


def test_the_example_round_trips() -> None:
    items = parse_log(SourceText("ex", EXAMPLE))
    again = roundtrip(items)
    assert [shape(i) for i in again] == [shape(i) for i in items]
    assert format_log(again) == format_log(items)


def test_writer_refuses_what_the_language_cannot_say() -> None:
    with pytest.raises(ValueError, match="negative"):
        format_statement(ConvertStmt(-2, S, (), S))
    with pytest.raises(ValueError, match="line break"):
        format_statement(ActivateStmt(CardName("two\nlines", S), (), S))
    with pytest.raises(ValueError, match="needs a value"):
        format_claim(c(ClaimKind.COST))
    with pytest.raises(ValueError, match="score"):
        format_item(ResultLine("2-0", None, S))
    with pytest.raises(ValueError, match="tag name"):
        format_item(Header((Tag("1bad", "x", S),), S))
    with pytest.raises(ValueError, match="at least one"):
        format_statement(BreakStmt(Dice((), S), (), S))


def test_the_largest_number_a_log_may_hold_round_trips() -> None:
    """Numbers of up to MAX_NUMBER_DIGITS digits round-trip; the writer can spell longer ones (past
    the 4,300 digits str() refuses), and the parser refuses those as SG-P012, never by crashing."""
    largest = 10**MAX_NUMBER_DIGITS - 1
    stmt = ConvertStmt(largest, S, (c(ClaimKind.LP, largest),), S)
    (_, turn) = parse_log(SourceText("t", "1. " + format_statement(stmt)))
    assert isinstance(turn, Turn)
    assert shape(turn.loose[0]) == shape(stmt)
    big = 7 * 10**9000 + 123456789
    text = format_statement(ConvertStmt(big, S, (c(ClaimKind.LP, big),), S))
    assert text.startswith("convert 7000") and text.count("123456789") == 2
    with pytest.raises(LogSyntaxError) as caught:
        parse_log(SourceText("t", "1. " + text))
    assert caught.value.diagnostic.code == "SG-P012"
    assert caught.value.diagnostic.message == "number 700000000000… has 9,001 digits; at most 9"


# --- hypothesis: generated statements and logs survive the round trip -----------------------------

squares = st.integers(0, 63).map(lambda i: SquareRef(Square(i), S))
kinds = st.sampled_from(list(Kind))
refs = st.builds(PieceRef, st.none() | kinds, st.integers(0, 63).map(Square), st.just(S))
small = st.integers(0, 10**6)
faces = st.lists(st.integers(0, 99), min_size=1, max_size=4).map(lambda f: Dice(tuple(f), S))
names = st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\n\r"), min_size=0, max_size=12)


def claims_for(allowed: list[ClaimKind]) -> st.SearchStrategy[tuple[Claim, ...]]:
    def build(kind: ClaimKind, value: int, sp: int, lp: int, which: int) -> Claim:
        if kind is ClaimKind.PAY:
            return c(kind, sp=sp if which != 2 else 0, lp=lp if which != 1 else 0)
        if kind in (ClaimKind.HIT, ClaimKind.MISS, ClaimKind.CAPTURE, ClaimKind.CONVERT_KING):
            return c(kind)
        if kind in (ClaimKind.SUCCESS, ClaimKind.FAIL):
            return c(kind)
        return c(kind, value)

    one = st.builds(build, st.sampled_from(allowed), small, small, small, st.integers(0, 2))
    return st.lists(one, max_size=4).map(tuple)


K = ClaimKind
PAYING = [K.COST, K.PAY, K.LP, K.SP]
ATTACK = [*PAYING, K.THRESHOLD, K.HIT, K.MISS, K.DAMAGE, K.KING_DAMAGE, K.CAPTURE, K.CONVERT_KING, K.GAIN_SP]

statements: st.SearchStrategy[Statement] = st.one_of(
    st.builds(SummonStmt, kinds, st.just(S), squares, claims_for(PAYING), st.just(S)),
    st.builds(MoveStmt, refs, squares, st.none() | squares, claims_for(PAYING), st.just(S)),
    st.builds(AttackStmt, refs, refs, faces, claims_for(ATTACK), st.just(S)),
    st.builds(ConvertStmt, small, st.just(S), claims_for([K.GAIN_LP, K.LP, K.SP]), st.just(S)),
    st.builds(TeleportStmt, refs, squares, claims_for(PAYING), st.just(S)),
    st.builds(BreakStmt, faces, claims_for([*PAYING, K.SUCCESS, K.FAIL]), st.just(S)),
    st.builds(RepairStmt, faces, claims_for([*PAYING, K.SUCCESS, K.FAIL]), st.just(S)),
    st.builds(ActivateStmt, st.builds(CardName, names, st.just(S)), claims_for(PAYING), st.just(S)),
    st.builds(PassStmt, claims_for([K.LP, K.SP, K.GAIN_LP]), st.just(S)),
    st.builds(IncomeStmt, small, st.just(S), claims_for([K.LP, K.SP]), st.just(S)),
)
blocks = st.builds(
    PhaseBlock, st.sampled_from(list(Phase)), st.just(S), st.lists(statements, max_size=3).map(tuple), st.just(S)
)
turns = st.builds(
    Turn,
    st.integers(1, 10**4),
    st.sampled_from(list(Color)),
    st.just(S),
    st.lists(statements, max_size=2).map(tuple),
    st.lists(blocks, max_size=4).map(tuple),
    st.just(S),
)
setup = st.one_of(
    st.builds(Draft, st.sampled_from(list(Color)), st.lists(st.builds(CardName, names, st.just(S)), min_size=1,
                                                             max_size=4).map(tuple), st.just(S)),
    st.builds(RollOff, st.tuples(*[st.integers(1, 6)] * 3).map(lambda f: Dice(f, S)),
              st.tuples(*[st.integers(1, 6)] * 3).map(lambda f: Dice(f, S)), st.just(S)),
    st.builds(KingPlacement, st.sampled_from(list(Color)), squares, st.just(S)),
    st.builds(ResultLine, st.sampled_from(["1-0", "0-1", "1/2-1/2", "*"]),
              st.none() | st.sampled_from(["conversion", "lp1000", "turn-limit"]), st.just(S)),
)  # fmt: skip
tags = st.builds(Tag, st.from_regex(r"[A-Za-z][A-Za-z0-9_]{0,8}", fullmatch=True), names, st.just(S))
logs = st.builds(
    lambda header, body: [header, *body],
    st.builds(Header, st.lists(tags, max_size=3).map(tuple), st.just(S)),
    st.lists(st.one_of(setup, turns), max_size=6),
)


@settings(max_examples=300, deadline=None)
@given(statements)
def test_statements_round_trip(stmt: Statement) -> None:
    text = format_statement(stmt)
    assert "\n" not in text
    (_, turn) = parse_log(SourceText("t", "1. battle: " + text))
    assert isinstance(turn, Turn)
    assert shape(turn.phases[0].statements) == shape((stmt,))


@settings(max_examples=150, deadline=None)
@given(logs)
def test_logs_round_trip(items: list[LogItem]) -> None:
    again = roundtrip(items)
    assert [shape(i) for i in again] == [shape(i) for i in items]
