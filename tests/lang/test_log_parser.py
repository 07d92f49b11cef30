"""The .sglog parser: nodes and fields, exact spans, laziness and friendly syntax errors."""

from __future__ import annotations

import dataclasses
import threading
from collections.abc import Iterator
from typing import Any

import pytest

from sgcheck.core.pieces import Color, Kind, Phase
from sgcheck.core.squares import parse_square
from sgcheck.diagnostics import Span
from sgcheck.lang.logs import grammar as log_parser
from sgcheck.lang.logs import syntax_errors
from sgcheck.lang.logs.ast import (
    ActivateStmt,
    AttackStmt,
    BreakStmt,
    Claim,
    ClaimKind,
    ConvertStmt,
    Draft,
    Header,
    IncomeStmt,
    KingPlacement,
    LogItem,
    MoveStmt,
    PassStmt,
    PlayStmt,
    RepairStmt,
    ResultLine,
    RollOff,
    Statement,
    SummonStmt,
    TeleportStmt,
    Turn,
)
from sgcheck.lang.logs.grammar import LogSyntaxError
from sgcheck.lang.logs.reader import iter_log, parse_log
from sgcheck.lang.source import SourceText, decode

EXAMPLE = """\
; a comment to end of line.   { a brace comment, may span lines, no nesting }
[Event "Friday league"]
[White "Ana"]
[Black "Ben"]
[Date "2026.11.14"]
[Ruleset "core"]
[Result "1-0"]

draft white "Soul Ward" "Temporal Rift" "Soul Drain"
draft black "Mirror Barrier" "Arcane Surge" "Spirit Exchange"
rolloff white 3 3 3 black 3 3 3      ; a tie: reroll on the next line
rolloff white 6 5 3 black 2 2 1
king white e1
king black e8

1. upkeep: summon R a1 cost 10 pay 10lp lp 10 sp 0
   main1: move Ra1 a3 cost 7 lp 3
1... upkeep: summon Q d8 cost 14
     end: pass
2. end: pass lp 9
2... main1: move Qd8 d6
     battle: attack Qd6 d2 roll 4 1 threshold 90 hit damage 1 king-damage 1
     main2: convert 4 gain 2lp
3. upkeep: income 2 sp 2
   break roll 4 5 6 success
   repair roll 1 2 3 fail
   main1: move Ng1 f3 d4      ; two knight jumps with the middle square f3
          move Ng1 h3
   battle: attack Ra3 Pa5 roll 0 0 miss
   end: teleport Rf3 a1 cost 10
        activate "Soul Drain" pay 3sp
result 1-0 conversion
"""


def parse(text: str, name: str = "t.sglog") -> list[LogItem]:
    return parse_log(SourceText(name, text))


def error(text: str) -> LogSyntaxError:
    with pytest.raises(LogSyntaxError) as info:
        parse(text)
    return info.value


def one_statement(body: str) -> Statement:
    items = parse(f"1. main1: {body}")
    turn = items[1]
    assert isinstance(turn, Turn)
    (block,) = turn.phases
    (stmt,) = block.statements
    return stmt


def sq(name: str) -> int:
    return parse_square(name)


def spans(node: object) -> Iterator[Span]:
    """Every span in a node tree."""
    if isinstance(node, Span):
        yield node
    elif isinstance(node, tuple):
        for child in node:
            yield from spans(child)
    elif dataclasses.is_dataclass(node):
        for field in dataclasses.fields(node):
            yield from spans(getattr(node, field.name))


def text_at(text: str, span: Span) -> str:
    return text[span.offset : span.end_offset]


# --- the example from the design -----------------------------------------------------------------


def test_example_parses_to_the_expected_items() -> None:
    items = parse(EXAMPLE)
    kinds = [type(i).__name__ for i in items]
    setup = ["Draft", "Draft", "RollOff", "RollOff", "KingPlacement", "KingPlacement"]
    assert kinds == ["Header", *setup, "Turn", "Turn", "Turn", "Turn", "Turn", "ResultLine"]
    header = items[0]
    assert isinstance(header, Header)
    assert [(t.name, t.value) for t in header.tags] == [
        ("Event", "Friday league"),
        ("White", "Ana"),
        ("Black", "Ben"),
        ("Date", "2026.11.14"),
        ("Ruleset", "core"),
        ("Result", "1-0"),
    ]
    assert header.get("event") is header.tags[0]
    draft = items[1]
    assert isinstance(draft, Draft)
    assert draft.color is Color.WHITE
    assert [c.name for c in draft.cards] == ["Soul Ward", "Temporal Rift", "Soul Drain"]
    roll = items[4]
    assert isinstance(roll, RollOff)
    assert (roll.white.faces, roll.black.faces) == ((6, 5, 3), (2, 2, 1))
    king = items[6]
    assert isinstance(king, KingPlacement)
    assert (king.color, king.square.square) == (Color.BLACK, sq("e8"))
    turns = [i for i in items if isinstance(i, Turn)]
    assert [(t.number, t.color) for t in turns] == [
        (1, Color.WHITE),
        (1, Color.BLACK),
        (2, Color.WHITE),
        (2, Color.BLACK),
        (3, Color.WHITE),
    ]
    assert [[b.phase for b in t.phases] for t in turns] == [
        [Phase.UPKEEP, Phase.MAIN1],
        [Phase.UPKEEP, Phase.END],
        [Phase.END],
        [Phase.MAIN1, Phase.BATTLE, Phase.MAIN2],
        [Phase.UPKEEP, Phase.MAIN1, Phase.BATTLE, Phase.END],
    ]
    third = turns[4]
    assert [type(s) for s in third.phases[0].statements] == [IncomeStmt, BreakStmt, RepairStmt]
    assert [type(s) for s in third.phases[3].statements] == [TeleportStmt, ActivateStmt]
    result = items[-1]
    assert isinstance(result, ResultLine)
    assert (result.score, result.reason) == ("1-0", "conversion")


def test_turn_count_in_example() -> None:
    assert sum(isinstance(i, Turn) for i in parse(EXAMPLE)) == 5


def test_every_span_in_the_example_is_consistent_with_its_text() -> None:
    """line/column and offsets agree everywhere, and no span is empty or inverted."""
    for item in parse(EXAMPLE):
        for span in spans(item):
            assert span.source == "t.sglog"
            if isinstance(item, Header) and not item.tags:
                continue
            assert span.offset < span.end_offset
            line = EXAMPLE.count("\n", 0, span.offset) + 1
            column = span.offset - (EXAMPLE.rfind("\n", 0, span.offset) + 1) + 1
            assert (span.line, span.column) == (line, column)
            end_line = EXAMPLE.count("\n", 0, span.end_offset) + 1
            end_column = span.end_offset - (EXAMPLE.rfind("\n", 0, span.end_offset) + 1) + 1
            assert (span.end_line, span.end_column) == (end_line, end_column)


def test_node_spans_cover_exactly_their_text() -> None:
    items = parse(EXAMPLE)
    header = items[0]
    assert isinstance(header, Header)
    assert text_at(EXAMPLE, header.span).startswith('[Event "Friday league"]')
    assert text_at(EXAMPLE, header.span).endswith('[Result "1-0"]')
    assert text_at(EXAMPLE, header.tags[1].span) == '[White "Ana"]'
    draft = items[1]
    assert isinstance(draft, Draft)
    assert text_at(EXAMPLE, draft.span) == 'draft white "Soul Ward" "Temporal Rift" "Soul Drain"'
    assert text_at(EXAMPLE, draft.cards[0].span) == '"Soul Ward"'
    roll = items[3]
    assert isinstance(roll, RollOff)
    assert text_at(EXAMPLE, roll.span) == "rolloff white 3 3 3 black 3 3 3"
    assert text_at(EXAMPLE, roll.black.span) == "3 3 3"
    turn = items[7]
    assert isinstance(turn, Turn)
    assert text_at(EXAMPLE, turn.header_span) == "1."
    assert text_at(EXAMPLE, turn.span) == (
        "1. upkeep: summon R a1 cost 10 pay 10lp lp 10 sp 0\n   main1: move Ra1 a3 cost 7 lp 3"
    )
    summon = turn.phases[0].statements[0]
    assert isinstance(summon, SummonStmt)
    assert text_at(EXAMPLE, summon.span) == "summon R a1 cost 10 pay 10lp lp 10 sp 0"
    assert text_at(EXAMPLE, summon.kind_span) == "R"
    assert text_at(EXAMPLE, summon.claims[1].span) == "pay 10lp"
    assert text_at(EXAMPLE, turn.phases[1].label_span) == "main1:"
    assert text_at(EXAMPLE, turn.phases[1].span) == "main1: move Ra1 a3 cost 7 lp 3"
    black2 = items[10]
    assert isinstance(black2, Turn)
    attack = black2.phases[1].statements[0]
    assert isinstance(attack, AttackStmt)
    assert text_at(EXAMPLE, attack.roll.span) == "4 1"
    assert text_at(EXAMPLE, attack.span).endswith("king-damage 1")
    end_only = items[9]
    assert isinstance(end_only, Turn)
    assert text_at(EXAMPLE, end_only.phases[0].span) == "end: pass lp 9"
    assert text_at(EXAMPLE, items[-1].span) == "result 1-0 conversion"


def test_spans_exact_with_bom_and_crlf() -> None:
    data = '\ufeff[Event "A"]\r\nking white e1\r\n1. upkeep: summon Qd1 cost 14\r\n   main1: move Qd1 d4\r\n'
    source = decode(data.encode("utf-8"), "s.sglog")
    assert isinstance(source, SourceText)
    header, king, turn = parse_log(source)
    assert isinstance(header, Header) and isinstance(king, KingPlacement) and isinstance(turn, Turn)
    assert header.span == Span("s.sglog", 1, 1, 1, 12, 0, 11)
    assert king.span == Span("s.sglog", 2, 1, 2, 14, 12, 25)
    assert king.square.span == Span("s.sglog", 2, 12, 2, 14, 23, 25)
    assert turn.header_span == Span("s.sglog", 3, 1, 3, 3, 26, 28)
    upkeep, main1 = turn.phases
    assert upkeep.label_span == Span("s.sglog", 3, 4, 3, 11, 29, 36)
    summon = upkeep.statements[0]
    assert isinstance(summon, SummonStmt)
    assert summon.span == Span("s.sglog", 3, 12, 3, 30, 37, 55)
    assert summon.kind_span == Span("s.sglog", 3, 19, 3, 20, 44, 45)
    assert summon.to.span == Span("s.sglog", 3, 20, 3, 22, 45, 47)
    assert summon.claims[0].span == Span("s.sglog", 3, 23, 3, 30, 48, 55)
    move = main1.statements[0]
    assert isinstance(move, MoveStmt)
    assert move.span == Span("s.sglog", 4, 11, 4, 22, 66, 77)
    assert move.piece.span == Span("s.sglog", 4, 16, 4, 19, 71, 74)
    assert turn.span == Span("s.sglog", 3, 1, 4, 22, 26, 77)


def test_tabs_count_as_one_column() -> None:
    (_, king) = parse("\tking\twhite\te1")
    assert king.span == Span("t.sglog", 1, 2, 1, 15, 1, 14)


# --- every statement and claim -------------------------------------------------------------------


def test_summon_forms() -> None:
    split = one_statement("summon Q d1 cost 14")
    joined = one_statement("summon Qd1 cost 14")
    assert isinstance(split, SummonStmt) and isinstance(joined, SummonStmt)
    for stmt in (split, joined):
        assert (stmt.kind, stmt.to.square) == (Kind.QUEEN, sq("d1"))
        assert [c.kind for c in stmt.claims] == [ClaimKind.COST]
    assert joined.kind_span.column + 1 == joined.to.span.column


def test_move_with_and_without_via() -> None:
    plain = one_statement("move Ra1 a3")
    assert isinstance(plain, MoveStmt)
    assert (plain.piece.kind, plain.piece.square, plain.to.square, plain.via) == (
        Kind.ROOK,
        sq("a1"),
        sq("a3"),
        None,
    )
    knight = one_statement("move Ng1 f3 d4")
    assert isinstance(knight, MoveStmt)
    assert knight.via is not None
    assert (knight.via.square, knight.to.square) == (sq("f3"), sq("d4"))
    bare = one_statement("move e2 e4")
    assert isinstance(bare, MoveStmt)
    assert bare.piece.kind is None


def test_attack_keeps_every_die() -> None:
    stmt = one_statement("attack Qd6 Pd2 roll 4 1 7 12")
    assert isinstance(stmt, AttackStmt)
    assert (stmt.attacker.kind, stmt.target.kind, stmt.target.square) == (Kind.QUEEN, Kind.PAWN, sq("d2"))
    assert stmt.roll.faces == (4, 1, 7, 12)
    single = one_statement("attack Qd6 d2 roll 0")
    assert isinstance(single, AttackStmt)
    assert single.roll.faces == (0,) and single.target.kind is None


@pytest.mark.parametrize(
    ("body", "kind", "fields"),
    [
        ("convert 10 gain 5lp", ConvertStmt, {"amount": 10}),
        ("teleport Rf3 a1", TeleportStmt, {}),
        ("break roll 4 5 6 success", BreakStmt, {}),
        ("repair roll 1 2 3 fail", RepairStmt, {}),
        ('activate "Soul \\"Big\\" Drain \\\\ 2" pay 3sp', ActivateStmt, {}),
        ('play "Soul \\"Big\\" Drain \\\\ 2" on Rb7 cost 3', PlayStmt, {}),
        ("pass lp 26", PassStmt, {}),
        ("income 4 sp 9", IncomeStmt, {"amount": 4}),
    ],
)
def test_statement_kinds(body: str, kind: type, fields: dict[str, Any]) -> None:
    stmt = one_statement(body)
    assert isinstance(stmt, kind)
    for name, value in fields.items():
        assert getattr(stmt, name) == value
    if isinstance(stmt, ActivateStmt | PlayStmt):
        assert stmt.card.name == 'Soul "Big" Drain \\ 2'
    if isinstance(stmt, TeleportStmt):
        assert (stmt.piece.kind, stmt.piece.square, stmt.to.square) == (Kind.ROOK, sq("f3"), sq("a1"))
    if isinstance(stmt, (BreakStmt, RepairStmt)):
        assert len(stmt.roll.faces) == 3


@pytest.mark.parametrize(
    ("text", "claim"),
    [
        ("cost 7", Claim(ClaimKind.COST, Span.point("x"), value=7)),
        ("pay 5sp", Claim(ClaimKind.PAY, Span.point("x"), sp=5)),
        ("pay 7lp", Claim(ClaimKind.PAY, Span.point("x"), lp=7)),
        ("pay 5sp 7lp", Claim(ClaimKind.PAY, Span.point("x"), sp=5, lp=7)),
        ("pay 7LP 5Sp", Claim(ClaimKind.PAY, Span.point("x"), sp=5, lp=7)),
        ("lp 12", Claim(ClaimKind.LP, Span.point("x"), value=12)),
        ("sp 0", Claim(ClaimKind.SP, Span.point("x"), value=0)),
        ("threshold 60", Claim(ClaimKind.THRESHOLD, Span.point("x"), value=60)),
        ("hit", Claim(ClaimKind.HIT, Span.point("x"))),
        ("miss", Claim(ClaimKind.MISS, Span.point("x"))),
        ("damage 1", Claim(ClaimKind.DAMAGE, Span.point("x"), value=1)),
        ("king-damage 20", Claim(ClaimKind.KING_DAMAGE, Span.point("x"), value=20)),
        ("capture", Claim(ClaimKind.CAPTURE, Span.point("x"))),
        ("converts", Claim(ClaimKind.CONVERT_KING, Span.point("x"))),
        ("gain 15sp", Claim(ClaimKind.GAIN_SP, Span.point("x"), value=15)),
    ],
)
def test_attack_claims(text: str, claim: Claim) -> None:
    stmt = one_statement(f"attack Ra3 a5 roll 6 1 {text}")
    assert isinstance(stmt, AttackStmt)
    (got,) = stmt.claims
    assert dataclasses.replace(got, span=claim.span) == claim
    assert got.span.end_column - got.span.column == len(text)


@pytest.mark.parametrize(
    ("body", "kinds"),
    [
        ("break roll 6 6 6 cost 20 pay 20sp lp 5 sp 0 success", ["cost", "pay", "lp", "sp", "success"]),
        ("repair roll 1 1 1 fail", ["fail"]),
        ("convert 4 gain 2lp lp 3 sp 1", ["gain-lp", "lp", "sp"]),
        ("pass lp 26 sp 0 gain 6lp", ["lp", "sp", "gain-lp"]),
        ("income 4 lp 20 sp 9", ["lp", "sp"]),
        ("move Ra1 a3 sp 0 lp 3 pay 7lp cost 7", ["sp", "lp", "pay", "cost"]),
        ('activate "X" cost 3 pay 3sp lp 1 sp 2', ["cost", "pay", "lp", "sp"]),
        ("teleport Ra1 a2 cost 10", ["cost"]),
        ("summon P a2 cost 6 cost 6", ["cost", "cost"]),
    ],
)
def test_applicable_claims_are_kept_in_written_order(body: str, kinds: list[str]) -> None:
    stmt = one_statement(body)
    assert [c.kind.value for c in stmt.claims] == kinds


@pytest.mark.parametrize(
    ("body", "word", "owner"),
    [
        ("move Ra1 a3 hit", "hit", "a move; it can follow an attack"),
        ("summon R a1 threshold 60", "threshold", "a summon; it can follow an attack"),
        ("convert 4 gain 5sp", "gain 5sp", "a convert; it can follow an attack"),
        ("pass cost 3", "cost", "a pass; it can follow a summon, a move"),
        ("income 4 success", "success", "an income; it can follow a break or a repair"),
        (
            "attack Ra1 a2 roll 1 1 gain 2lp",
            "gain 2lp",
            "an attack; it can follow a convert, a pass, a play or an activate",
        ),
        ("break roll 1 1 1 hit", "hit", "a break; it can follow an attack"),
        ('play "Bolt" on Rb7 hit', "hit", "a play; it can follow an attack"),
        ('activate "Altar" hit', "hit", "an activate; it can follow an attack"),
        ("attack Ra1 a2 roll 1 1 reroll 2 3 success", "success", "an attack; it can follow a break or a repair"),
    ],
)
def test_claims_that_do_not_apply_are_sg_p001(body: str, word: str, owner: str) -> None:
    err = error(f"1. main1: {body}")
    d = err.diagnostic
    assert d.code == "SG-P001"
    assert d.message.startswith(f"claim '{word}' does not apply to {owner}")
    assert d.span is not None and d.span.column == 11 + body.index(word.split()[0])
    assert d.label and d.hint


def test_exact_message_for_hit_after_move() -> None:
    assert error("1. main1: move Ra1 a3 hit").diagnostic.message == (
        "claim 'hit' does not apply to a move; it can follow an attack"
    )


def test_keywords_are_case_insensitive() -> None:
    items = parse(
        '[Event "x"]\nDRAFT White "A"\nRollOff WHITE 1 2 3 Black 4 5 6\nKing BLACK e8\n'
        "1. UPKEEP: Summon Qd1 COST 14 Pay 14SP\n Main1: MOVE Qd1 d2 Lp 3\nBattle: Attack Qd2 d7 Roll 1 1 "
        "Threshold 5 HIT Damage 1 King-Damage 1 Capture Converts Gain 5SP\n"
        "MAIN2: Convert 2 GAIN 1Lp\nEND: Teleport Qd2 d1 PASS Income 2 Break Roll 1 1 1 Success "
        'REPAIR roll 1 1 1 FAIL Activate "c"\nRESULT 1-0 Conversion'
    )
    assert [type(i).__name__ for i in items] == [
        "Header",
        "Draft",
        "RollOff",
        "KingPlacement",
        "Turn",
        "ResultLine",
    ]
    turn = items[4]
    assert isinstance(turn, Turn)
    assert [b.phase for b in turn.phases] == list(Phase)
    result = items[-1]
    assert isinstance(result, ResultLine) and result.reason == "conversion"


@pytest.mark.parametrize(
    ("line", "score", "reason"),
    [
        ("result 1-0", "1-0", None),
        ("result 0-1 lp1000", "0-1", "lp1000"),
        ("result 1/2-1/2 turn-limit", "1/2-1/2", "turn-limit"),
        ("result *", "*", None),
    ],
)
def test_result_lines(line: str, score: str, reason: str | None) -> None:
    (_, result) = parse(line)
    assert isinstance(result, ResultLine)
    assert (result.score, result.reason) == (score, reason)


def test_loose_statements_and_empty_turns() -> None:
    items = parse("1. pass move Ra1 a2 upkeep: 1... 2. end:")
    turns = [i for i in items if isinstance(i, Turn)]
    assert [len(t.loose) for t in turns] == [2, 0, 0]
    assert turns[0].phases[0].statements == ()
    assert turns[1].phases == () and turns[1].span == turns[1].header_span
    assert turns[1].color is Color.BLACK
    assert turns[2].phases[0].phase is Phase.END


def test_setup_items_anywhere_after_the_header() -> None:
    items = parse('1. pass\nking white e1\nresult *\n2. pass\ndraft black "X"')
    assert [type(i).__name__ for i in items] == [
        "Header",
        "Turn",
        "KingPlacement",
        "ResultLine",
        "Turn",
        "Draft",
    ]


def test_empty_and_comment_only_inputs_give_an_empty_header() -> None:
    for text in ("", "   \n\n", "; just a comment", "{ a\nbrace } ; and more\n"):
        (header,) = parse(text)
        assert header == Header((), Span.point("t.sglog"))


def test_comments_do_not_nest() -> None:
    assert len(parse("{ a { b } king white e1")) == 2
    err = error("{ a { b } c } king white e1")
    assert err.diagnostic.span is not None and err.diagnostic.span.column == 11


def test_numbers_longer_than_nine_digits_are_refused_where_they_are_written() -> None:
    """A number has at most MAX_NUMBER_DIGITS digits (SG-P012 at its line and column); more, even
    past the 4,300 digits that int() refuses, is a finding, never a crash (docs/log-format.md)."""
    err = error("1. pass lp " + "1" * 200_001)
    assert err.diagnostic.code == "SG-P012"
    assert err.diagnostic.message == "number 111111111111… has 200,001 digits; at most 9"
    assert err.diagnostic.span == Span("t.sglog", 1, 12, 1, 12 + 200_001, 11, 11 + 200_001)
    stmt = one_statement("attack Ra1 a2 roll 999999999 0 damage 999999999 pay 999999999sp")
    assert isinstance(stmt, AttackStmt)
    assert stmt.roll.faces == (999_999_999, 0) and stmt.claims[0].value == stmt.claims[1].sp == 999_999_999


def test_unicode_in_names_and_comments() -> None:
    items = parse('[Site "Zürich ♞"]\ndraft white "Âme — 魂" ; ünïcode\n{ ♜ }')
    header, draft = items
    assert isinstance(header, Header) and header.tags[0].value == "Zürich ♞"
    assert isinstance(draft, Draft) and draft.cards[0].name == "Âme — 魂"


def test_whitespace_and_newlines_are_insignificant() -> None:
    from sgcheck.lang.logs.writer import format_log

    compact = parse("1.upkeep:summon Q d1 cost 14 main1:move Qd1 d2 result\t1-0")
    spread = parse("1.\n\nupkeep :\n  summon\nQ\nd1\ncost\n14\nmain1:\nmove Qd1\n d2 ; c\n{ c }result 1-0")
    assert (
        format_log(compact)
        == format_log(spread)
        == "1.   upkeep: summon Q d1 cost 14\n     main1: move Qd1 d2\nresult 1-0\n"
    )


# --- laziness --------------------------------------------------------------------------------------


def test_items_arrive_before_a_later_syntax_error() -> None:
    body = "".join(f"{n}. main1: move Ra1 a2\n{n}... main1: move Ra8 a7\n" for n in range(1, 51))
    text = "king white e1\nking black e8\n" + body + "51. main1: move Ra1 @\n"
    gen = iter_log(SourceText("lazy.sglog", text))
    assert isinstance(next(gen), Header)
    assert isinstance(next(gen), KingPlacement)
    assert isinstance(next(gen), KingPlacement)
    first_turn = next(gen)  # the error 100 turns later has not been seen yet
    assert isinstance(first_turn, Turn) and first_turn.number == 1
    received: list[LogItem] = [first_turn]
    with pytest.raises(LogSyntaxError) as info:
        for item in gen:
            received.append(item)
    assert len(received) == 100  # every complete turn before the error was delivered
    assert info.value.diagnostic.code == "SG-P003"
    assert info.value.diagnostic.span is not None and info.value.diagnostic.span.line == 103


def test_header_is_yielded_before_an_error_in_the_first_item() -> None:
    gen = iter_log(SourceText("t", '[Event "x"]\nking purple e1'))
    header = next(gen)
    assert isinstance(header, Header) and header.tags[0].value == "x"
    with pytest.raises(LogSyntaxError):
        next(gen)


def test_an_unfinished_header_is_not_yielded() -> None:
    gen = iter_log(SourceText("t", '[Event "x"] [Site'))
    with pytest.raises(LogSyntaxError):
        next(gen)


def test_interleaved_parses_keep_their_own_names() -> None:
    a = iter_log(SourceText("a.sglog", "1. pass\n2. pass\n3. pass\n"))
    b = iter_log(SourceText("b.sglog", "1... pass\n2... pass\n3... pass\n"))
    seen = []
    for x, y in zip(a, b, strict=True):
        seen.append((x, y))
    for x, y in seen:
        assert {s.source for s in spans(x)} <= {"a.sglog"}
        assert {s.source for s in spans(y)} <= {"b.sglog"}
    assert len(seen) == 4


def test_threads_parse_independently() -> None:
    results: dict[str, list[LogItem]] = {}

    def work(name: str) -> None:
        results[name] = parse(EXAMPLE + "4. pass\n" * 200, name)

    threads = [threading.Thread(target=work, args=(f"t{i}",)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for name, items in results.items():
        assert len(items) == 13 + 200
        assert all(s.source == name for item in items for s in spans(item))


def test_the_parser_is_built_once_with_an_embedded_transformer() -> None:
    from lark import Transformer

    assert log_parser._lark() is log_parser._lark()
    assert isinstance(log_parser._lark().options.transformer, Transformer)
    assert log_parser._lark().options.parser == "lalr"
    assert log_parser._lark().options.lexer == "contextual"


def test_importing_the_parser_does_not_import_lark() -> None:
    import subprocess
    import sys
    from pathlib import Path

    code = "import sys, sgcheck.lang.logs.grammar; print('lark' in sys.modules)"
    root = Path(__file__).resolve().parents[2]
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=root)
    assert out.stdout.strip() == "False"


# --- friendly syntax errors ------------------------------------------------------------------------

ERRORS = [
    # (text, code, message fragment, line, column)
    ("1. battle: attack Ra1 a2 hit", "SG-P001", "expected 'roll'", 1, 26),
    ("king white e1\n1. battle: attack Ra1 a2 hit", "SG-P001", "found 'hit'", 2, 26),
    ("1. attack Ra1 a2 hit", "SG-P001", "expected 'roll'", 1, 18),
    ("1. pass lp\n", "SG-P002", "expected a number after 'lp'", 2, 1),
    (
        "1. battle: attack Ra1 a2 roll hit",
        "SG-P001",
        "syntax error: expected the dice after 'roll' (two d10 faces, e.g. 'roll 6 1'), found 'hit'",
        1,
        31,
    ),
    ("1. upkeep: break roll success", "SG-P001", "three d6 faces", 1, 23),
    ("1. battle: attack Ra1 a2 roll", "SG-P002", "unexpected end of the log: expected the dice", 1, 30),
    ("1. upkeep summon R a1", "SG-P001", "expected 'upkeep:', found 'upkeep'", 1, 4),
    ("1.\nbattle attack Ra1 a2 roll 1 1", "SG-P001", "a phase label ends with ':'", 2, 1),
    ("1. main 1: move Ra1 a3", "SG-P001", "expected the phase label 'main1:' or 'main2:'", 1, 4),
    ("1. main1: move Ra1 i9", "SG-P001", "found 'i9', which is not a square", 1, 20),
    ("1. main1: move Ra1 A1", "SG-P001", "found 'A1', which is not a square", 1, 20),
    ("king white h9", "SG-P001", "found 'h9', which is not a square", 1, 12),
    ("1. main1: move Ra1 Ra3", "SG-P001", "expected the destination square", 1, 20),
    ("1. main1: mvoe Ra1 a3", "SG-P001", "found 'mvoe'", 1, 11),
    ("1. main1: move Ra1 a3 cots 7", "SG-P001", "found 'cots'", 1, 23),
    ("1. main1: move Ra1 a3 cost hit", "SG-P001", "expected a number after 'cost', found 'hit'", 1, 28),
    ("1. main1: move Ra1 a3 lp\n2. pass", "SG-P001", "expected a number after 'lp'", 2, 1),
    ("1. main1: move Ra1 a3 cost", "SG-P002", "expected a number after 'cost'", 1, 27),
    (
        "1. main1: move Ra1 a3 pay 5",
        "SG-P001",
        "after 'pay', such as 'pay 5sp' or 'pay 7lp', found '5'",
        1,
        27,
    ),
    ("1. main1: move Ra1 a3 pay 5sp 3sp", "SG-P001", "'pay' names SP twice", 1, 31),
    ('draft white "Soul Ward\n1. pass', "SG-P001", "not closed", 1, 13),
    ('draft white "Soul Ward', "SG-P002", "never closed", 1, 13),
    ('1. activate "bad \\n escape"', "SG-P001", "escapes", 1, 18),
    ("king white e1 { unclosed\ncomment", "SG-P002", "'{' comment is never closed", 1, 15),
    ("1. pass }", "SG-P003", "'}'", 1, 9),
    ("1. pass @", "SG-P003", "unexpected character '@'", 1, 9),
    ("1. pass €", "SG-P003", "unexpected character '€'", 1, 9),
    ("1.. pass", "SG-P001", "'12.' for White or '12...' for Black, found '1..'", 1, 1),
    ("\n 12.... pass", "SG-P001", "found '12....'", 2, 2),
    ("0. pass", "SG-P001", "turn numbers start at 1", 1, 1),
    ("summon R a1", "SG-P001", "expected a turn number", 1, 1),
    ('1. pass\n[Event "x"]', "SG-P001", "found '['", 2, 1),
    ("rolloff white 1 2 black 3 4 5", "SG-P001", "three d6 faces per player", 1, 19),
    ("rolloff white 1 2 3 4 black 3 4 5", "SG-P001", "'black' after White's three dice", 1, 21),
    ("king e1", "SG-P001", "'white' or 'black'", 1, 6),
    ("result 2-0", "SG-P001", "1-0, 0-1, 1/2-1/2 or *", 1, 8),
    ("1. upkeep: summon d1", "SG-P001", "expected a piece letter before 'd1'", 1, 19),
    ("1. upkeep: break 4 5 6", "SG-P001", "'roll' and the three d6 after 'break'", 1, 18),
    ("[Event x]", "SG-P001", "tag value in double quotes", 1, 8),
    ('[Event "x"', "SG-P002", "']' to close the tag", 1, 11),
    ("1. main1: move Ra1", "SG-P002", "destination square", 1, 19),
    ("1. main1: play Bolt", "SG-P001", "expected the card name in double quotes", 1, 16),
    ('1. main1: play "Bolt" on x', "SG-P001", "expected the piece the card acts on after 'on'", 1, 26),
    ('1. main1: activate "Bolt" on', "SG-P002", "expected the piece the card acts on after 'on'", 1, 29),
    ("1. battle: attack Ra1 a2 roll 4 1 reroll 2 hit", "SG-P001", "the second die of the second roll", 1, 44),
    ("1. battle: attack Ra1 a2 roll 4 1 advantage", "SG-P002", "the two dice of the second roll", 1, 44),
]


@pytest.mark.parametrize(("text", "code", "fragment", "line", "column"), ERRORS)
def test_friendly_syntax_errors(text: str, code: str, fragment: str, line: int, column: int) -> None:
    d = error(text).diagnostic
    assert d.code == code, d.message
    assert fragment in d.message, d.message
    assert d.span is not None
    assert (d.span.line, d.span.column) == (line, column), d.message
    assert d.label, "every syntax error has a caret label"
    if code == "SG-P001":
        semantic = ("turn numbers start at 1", "names SP twice", "may only use", "is not closed")
        assert "expected" in d.message or any(s in d.message for s in semantic), d.message


def test_unexpected_end_points_at_the_end_of_the_file() -> None:
    d = error("king white e1\n1. battle: attack Ra1 a2\n\n  ").diagnostic
    assert d.code == "SG-P002"
    assert d.span == Span("t.sglog", 4, 3, 4, 3, 42, 42)
    assert d.label == "the log ends here"


def test_error_spans_cover_the_offending_word() -> None:
    d = error("1. main1: mvoe Ra1 a3").diagnostic
    assert d.span is not None and (d.span.column, d.span.end_column) == (11, 15)
    assert d.hint == "did you mean 'move'?"
    d = error("1. main1: move Ra1 a3 cots 7").diagnostic
    assert d.hint == "did you mean 'cost'?"


@pytest.mark.parametrize(
    ("word", "hint"),
    [("i9", "files run from a to h"), ("A1", "lowercase"), ("e9", "ranks run from 1 to 8"),
     ("ra1", "piece letters are capitals"), ("Xa1", "not a piece letter")],
)  # fmt: skip
def test_square_hints(word: str, hint: str) -> None:
    d = error(f"1. main1: move {word} a3").diagnostic
    assert d.hint is not None and hint in d.hint, d.hint


def test_statement_before_any_turn_gets_a_hint() -> None:
    d = error("king white e1\nmove Ra1 a2").diagnostic
    assert d.hint is not None and "start one with its number" in d.hint


def test_misplaced_header_tag_gets_a_hint() -> None:
    d = error('king white e1\n[Event "x"]').diagnostic
    assert d.hint is not None and "must come before everything else" in d.hint


def test_every_labelled_example_fails_in_its_own_state() -> None:
    """Each match_examples example must fail, and be classified as its own label."""
    for expect, examples in syntax_errors._EXAMPLES:
        for example in examples:
            with pytest.raises(LogSyntaxError) as info:
                parse(example)
            fixed = expect.expected.split("{prev}")[0]
            assert fixed in info.value.diagnostic.message, (example, info.value.diagnostic.message)


def test_log_syntax_error_str_names_the_place() -> None:
    err = error("1. pass @")
    assert str(err).startswith("t.sglog:1:9: unexpected character")
