"""The line reader reads every log the way the grammar does, and hands it only the turns it must.

The grammar (grammar/sglog.lark) is the reference for the syntax and the one source of syntax
errors; the line reader (sgcheck.lang.logs.reader) reads every layout the format allows into
compact steps, and gives the grammar one item at a time, only where it cannot read it. These
tests hold the reader to the grammar: the same items, spans included, and the same error, on
the shipped examples, on generated games in every layout people write, on text split into
pieces anywhere, and on text broken at random; and they count the grammar's readings.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import TypeVar

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sgcheck.core.actions import Attack, Break, Convert, Move, Repair, Summon, Teleport
from sgcheck.core.pieces import Color, Kind, Phase
from sgcheck.core.squares import parse_square
from sgcheck.core.state import Payment
from sgcheck.lang.logs import reader
from sgcheck.lang.logs.ast import ClaimKind, Turn
from sgcheck.lang.logs.grammar import LogSyntaxError, grammar_items
from sgcheck.lang.logs.reader import KEYWORDS, TERMINALS, PlainTurn, iter_log, read_log
from sgcheck.lang.logs.writer import format_log
from sgcheck.lang.source import SourceText, decode
from sgcheck.replay.generate import Claims, Style, generate_game
from sgcheck.replay.layouts import LAYOUTS, relayout
from sgcheck.replay.translate import translate
from sgcheck.resources import grammar_text

T = TypeVar("T")
ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples" / "logs"
ALL_EXAMPLES = sorted(EXAMPLES.rglob("*.sglog"))
#: Every log the project ships or keeps as test data: examples, scenarios, modules, fuzz corpus, cascades.
SHIPPED = sorted({*(ROOT / "examples").rglob("*.sglog"), *(ROOT / "tests").rglob("*.sglog")})


def read_all(items: Iterator[T]) -> tuple[list[T], str | None]:
    """Every item, and the syntax error that ended the reading (its message and place), if any."""
    out: list[T] = []
    try:
        out.extend(items)
    except LogSyntaxError as exc:
        d = exc.diagnostic
        return out, f"{d.code} {d.span} {d.message} {d.hint} {d.label}"
    return out, None


def assert_agree(source: SourceText) -> list[object]:
    """The reader's items (turns as the grammar reads them) are the grammar's, and so is its error."""
    expected, expected_error = read_all(grammar_items(source))
    mine, error = read_all(iter_log(source))
    assert error == expected_error
    assert mine == expected
    return mine


def text_of(seed: int, style: Style = Style.RANDOM, claims: Claims = Claims.ALL, turns: int = 12) -> str:
    return format_log(generate_game(seed, style=style, claims=claims, max_turns=turns).items)


# --- the reader's words are the grammar's ----------------------------------------------------------


def _grammar_terminals() -> dict[str, tuple[str, str]]:
    """Each terminal of grammar/sglog.lark: its pattern and flags, without the whitespace it swallows."""
    found: dict[str, tuple[str, str]] = {}
    for line in grammar_text("sglog.lark").splitlines():
        m = re.fullmatch(r"([A-Z_]+)(?:\.-?\d+)?: /(.*)/([a-z]*)(?: _TAIL)?", line.strip())
        if m is not None:
            found[m.group(1)] = (m.group(2), m.group(3))
    return found


def test_the_readers_terminals_are_the_grammars() -> None:
    """TERMINALS and KEYWORDS are the grammar's patterns, character for character, so the two
    readers cannot drift apart (the reader only caps numbers at 9 digits; see test_log_numbers)."""
    terminals = _grammar_terminals()
    for name, pattern in TERMINALS.items():
        assert terminals[name][0] == pattern, name
    keywords = {name: p for name, (p, flags) in terminals.items() if p.endswith(r"(?![\w-])") and flags == "i"}
    words = {p.removesuffix(r"(?![\w-])") for name, p in keywords.items() if name not in ("REASON", "AMOUNT")}
    assert words == set(KEYWORDS)
    case_insensitive = {name for name, (_p, flags) in terminals.items() if flags == "i"}
    assert {"PHASE", "AMOUNT", "REASON"} <= case_insensitive


# --- the same items and errors ------------------------------------------------------------------------


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: str(p.relative_to(ROOT)))
def test_shipped_logs_agree(path: Path) -> None:
    """Every shipped log: the same items, statements, claims and spans as the grammar, or the same error."""
    data = path.read_bytes()
    source = decode(data, path.name)
    if isinstance(source, SourceText):
        assert_agree(source)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 10_000),
    style=st.sampled_from(list(Style)),
    claims=st.sampled_from(list(Claims)),
    layout=st.sampled_from(LAYOUTS),
    layout_seed=st.integers(0, 100),
)
def test_generated_games_agree_in_every_layout(
    seed: int, style: Style, claims: Claims, layout: str, layout_seed: int
) -> None:
    """Capitalised keywords, other indentation, brace comments, statements over two lines, CRLF
    and a BOM: the same items as the grammar, and the reader reads every turn itself."""
    data = relayout(text_of(seed, style, claims), layout, seed=layout_seed).encode("utf-8")
    source = decode(data, "gen.sglog")
    assert isinstance(source, SourceText)
    items = assert_agree(source)
    plain = list(read_log(source))
    turns = [item for item in items if isinstance(item, Turn)]
    assert turns
    assert sum(isinstance(item, PlainTurn) for item in plain) == len(turns)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_text_in_pieces_reads_as_one(data: st.DataObject) -> None:
    """A log arrives in pieces cut anywhere (inside a word, a comment, a statement continued over
    lines): the reader reads exactly what it reads from the whole text."""
    layout = data.draw(st.sampled_from(LAYOUTS))
    text = relayout(text_of(data.draw(st.integers(0, 1000)), turns=8), layout).replace("\r\n", "\n")
    text = text.removeprefix("\ufeff")
    cuts = sorted(data.draw(st.lists(st.integers(0, len(text)), max_size=12)))
    pieces = [text[a:b] for a, b in zip([0, *cuts], [*cuts, len(text)], strict=True)]
    whole, whole_error = read_all(iter_log(SourceText("p.sglog", text)))
    split, split_error = read_all(iter_log(SourceText("p.sglog", pieces=tuple(pieces))))
    assert (split, split_error) == (whole, whole_error)


MUTATION_BASES = [
    (EXAMPLES / "guide-example-a.sglog").read_text(encoding="utf-8"),
    "\n".join((EXAMPLES / "full-game.sglog").read_text(encoding="utf-8").splitlines()[:60]),
    (EXAMPLES / "broken" / "activation-limit.sglog").read_text(encoding="utf-8"),
    relayout(text_of(7, turns=6), "mixed").removeprefix("\ufeff").replace("\r\n", "\n"),
]
PIECES = ["", " ", "\n", "\t", ";", ":", "1", "0", ".", "a9", "K", "hit", "lp", '"', "x", "1234567890", "²", "{", "}",
          "2.", "king", "MOVE", "\\", "[", "sp", "end:"]  # fmt: skip


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_mutated_logs_agree(data: st.DataObject) -> None:
    """Insert, delete or replace characters in a real log: the same items and the same error."""
    text = data.draw(st.sampled_from(MUTATION_BASES))
    for _ in range(data.draw(st.integers(1, 4))):
        at = data.draw(st.integers(0, len(text)))
        cut = data.draw(st.integers(0, 3))
        text = text[:at] + data.draw(st.sampled_from(PIECES)) + text[at + cut :]
    assert_agree(SourceText("m.sglog", text))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_broken_text_in_pieces_reads_as_the_grammar_does(data: st.DataObject) -> None:
    """Text broken at random and cut into pieces anywhere: the same items and the same error as
    the grammar reading it whole (the reader reads on with more text, or hands the item over)."""
    text = data.draw(st.sampled_from(MUTATION_BASES))
    for _ in range(data.draw(st.integers(1, 3))):
        at = data.draw(st.integers(0, len(text)))
        text = text[:at] + data.draw(st.sampled_from(PIECES)) + text[at + data.draw(st.integers(0, 3)) :]
    cuts = sorted(data.draw(st.lists(st.integers(0, len(text)), max_size=8)))
    pieces = tuple(text[a:b] for a, b in zip([0, *cuts], [*cuts, len(text)], strict=True))
    expected = read_all(grammar_items(SourceText("b.sglog", text)))
    assert read_all(iter_log(SourceText("b.sglog", pieces=pieces))) == expected


@pytest.mark.parametrize(
    "text",
    [
        'draft white "Soul Ward"\n  "Soul Drain" "Temporal Rift"\nking white e1\nking black e8\n',
        "king white e1\nking black e8\n1. end: pass\nresult *\n",
        "king white e1\nking black e8\n1. end: pass\n1... end: pass\nresult 1-0\n  conversion\n",
        "rolloff white 6 5 4 black 1 1 1\nchoose white\nking white e1\nking black e8\n",
        "king white e1 king black e8 1. upkeep: pass 1... end: pass lp 12 1. MAIN1 : move Ra1 a2",
        "1. end: pass\n7777777777... end: pass\n",
        "1. end: pass\n2.. end: pass\n",
        '1. end: pass\n[Event "late"]\n',
        '[Event "x" ; comment\n] 1. end: pass',
        "1. main1: move Ra1 { a comment\nover two lines } a3 cost\n 7 ; why not\n",
        "1. main1: move Ra1 a3 hit\n",
        '1. main1: activate "Soul Drain" pay 3sp\n1... end: pass\n',
        '1. main1: play "Bolt" on Rb7 cost 2\n1... end: pass\n',
        '1. main1: activate "Altar"\n on\n b2\n1... battle: attack Ra1 a2 roll 1 1 Reroll\n 2 3\n',
        "1. battle: attack Ra1 a2 roll 1 1 advantage 2\n3 hit\n2. end: pass\n",
        "1. battle: attack Ra1 a2 roll 1 1 advantage 2\n3. hit\n",
    ],
)
def test_items_continued_and_odd_places_agree(text: str) -> None:
    """Items continued on the next line, several on one line, junk after an item: the grammar's
    reading and its error, never a shorter item or a different message."""
    assert_agree(SourceText("c.sglog", text))


# --- the grammar reads only what the reader cannot ------------------------------------------------


class GrammarReadings:
    """Counts the grammar's readings (each from the start of one item)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.starts: list[int] = []
        real = reader.items_from

        def counted(source: SourceText, offset: int = 0, *args: object, **kwargs: object) -> object:
            self.starts.append(offset)
            return real(source, offset, *args, **kwargs)  # type: ignore[arg-type]

        monkeypatch.setattr(reader, "items_from", counted)


def test_a_clean_log_in_any_layout_never_reaches_the_grammar(monkeypatch: pytest.MonkeyPatch) -> None:
    readings = GrammarReadings(monkeypatch)
    for layout in LAYOUTS:
        source = decode(relayout(text_of(11, turns=20), layout).encode(), "g.sglog")
        assert isinstance(source, SourceText)
        assert any(isinstance(item, PlainTurn) for item in read_log(source))
    assert readings.starts == []


def test_the_grammar_reads_only_the_turn_with_the_error(monkeypatch: pytest.MonkeyPatch) -> None:
    """A syntax error in one turn of a long log: the grammar reads that turn, not the file."""
    lines = text_of(5, turns=30).split("\n")
    broken = next(i for i, line in enumerate(lines) if i > len(lines) // 2 and line.lstrip().startswith(("1", "2")))
    lines[broken] += " cost"  # a claim without its number
    text = "\n".join(lines)
    readings = GrammarReadings(monkeypatch)
    items, error = read_all(read_log(SourceText("e.sglog", text)))
    assert error is not None and "SG-P00" in error
    turn_start = text.index(lines[broken].lstrip())
    assert len(readings.starts) == 1 and readings.starts[0] <= turn_start
    assert sum(isinstance(item, PlainTurn) for item in items) > 5


def test_card_statements_never_reach_the_grammar(monkeypatch: pytest.MonkeyPatch) -> None:
    """``activate``, ``play`` and ``reveal`` are read by the line reader like every statement."""
    text = (
        'king white e1\nking black e8\n1. main1: activate "Soul Drain"\n1... end: pass\n'
        '2. main1: play "Bolt;{x}" on Rb7 cost 2 { a comment } pay 2sp\n reveal "Ward" TO white\n'
    )
    readings = GrammarReadings(monkeypatch)
    items = list(read_log(SourceText("a.sglog", text)))
    assert [type(item).__name__ for item in items] == [
        "Header", "KingPlacement", "KingPlacement", "PlainTurn", "PlainTurn", "PlainTurn"
    ]  # fmt: skip
    assert readings.starts == []
    monkeypatch.undo()
    assert_agree(SourceText("a.sglog", text))


def test_the_grammar_reads_only_text_that_is_not_well_formed(monkeypatch: pytest.MonkeyPatch) -> None:
    """A claim that does not fit its statement, a payment naming a resource twice, turn 0: the
    grammar reads that turn for its error, and nothing else."""
    for broken in ('1. main1: play "Bolt" hit\n', "1. main1: move a2 a3 pay 1sp 2sp\n", "0. end: pass\n"):
        text = "king white e1\nking black e8\n" + broken
        readings = GrammarReadings(monkeypatch)
        _items, error = read_all(read_log(SourceText("b.sglog", text)))
        assert error is not None and "SG-P001" in error
        assert readings.starts == [text.index(broken)]
        monkeypatch.undo()
        assert_agree(SourceText("b.sglog", text))


# --- steps: what replay gets --------------------------------------------------------------------------


def sq(name: str) -> int:
    return parse_square(name)


def steps_of(body: str) -> list[reader.TurnStep]:
    (_, turn) = read_log(SourceText("s.sglog", "1. main1: " + body))
    assert isinstance(turn, PlainTurn)
    return [step for step in turn.steps if step.word is not None]


@pytest.mark.parametrize(
    ("text", "word", "action", "claims"),
    [
        ("move Ra1 a3", "move", Move(sq("a1"), sq("a3"), None, Kind.ROOK), ()),
        ("MOVE  a1\n a3 Cost 7 LP 13", "move", Move(sq("a1"), sq("a3")), ((ClaimKind.COST, 7), (ClaimKind.LP, 13))),
        ("move Ng1 f3 d4", "move", Move(sq("g1"), sq("d4"), sq("f3"), Kind.KNIGHT), ()),
        (
            "attack Ra3 Pa5 roll 6 {tens} 1 hit threshold 60",
            "attack",
            Attack(sq("a3"), sq("a5"), (6, 1), Kind.ROOK, Kind.PAWN),
            ((ClaimKind.HIT, None), (ClaimKind.THRESHOLD, 60)),
        ),
        ("summon P a2 pay 2SP 4lp", "summon", Summon(Kind.PAWN, sq("a2"), Payment(2, 4)), ()),
        ("Summon Qd1", "summon", Summon(Kind.QUEEN, sq("d1")), ()),
        ("teleport Rf3 a1 pay 12lp", "teleport", Teleport(sq("f3"), sq("a1"), Kind.ROOK, Payment(0, 12)), ()),
        ("break roll 6 5 4 success", "break", Break((6, 5, 4)), ((ClaimKind.SUCCESS, None),)),
        ("repair roll 1 1 1 ; no luck\n fail", "repair", Repair((1, 1, 1)), ((ClaimKind.FAIL, None),)),
        ("convert 10 gain 5lp", "convert", Convert(10), ((ClaimKind.GAIN_LP, 5),)),
        ("move a1 a3 { cost 5 } lp 2", "move", Move(sq("a1"), sq("a3")), ((ClaimKind.LP, 2),)),
        (
            "attack Ra3 Pa5 roll 4 1 reroll 2 3 pay 12sp hit",
            "attack",
            Attack(sq("a3"), sq("a5"), (4, 1), Kind.ROOK, Kind.PAWN, Payment(12, 0), (2, 3)),
            ((ClaimKind.HIT, None),),
        ),
        (
            "ATTACK a3 a5 ROLL 9 1\n ADVANTAGE { better } 0 ; tens\n 5",
            "attack",
            Attack(sq("a3"), sq("a5"), (9, 1), second=(0, 5), advantage=True),
            (),
        ),
    ],
)
def test_statements_in_any_layout_read_into_core_actions(
    text: str, word: str, action: object, claims: tuple[object, ...]
) -> None:
    (step,) = steps_of(text)
    assert (step.word, step.action, step.claims) == (word, action, claims)


def test_headers_labels_pass_and_income() -> None:
    (_, turn) = read_log(SourceText("s.sglog", "12... Upkeep : income 4 sp 9 END:pass lp 26"))
    assert isinstance(turn, PlainTurn)
    assert (turn.number, turn.color) == (12, Color.BLACK)
    income, end = turn.steps
    assert (income.phase, income.word, income.amount) == (Phase.UPKEEP, "income", 4)
    assert income.claims == ((ClaimKind.SP, 9),)
    assert (end.phase, end.word, end.action, end.claims) == (Phase.END, "pass", None, ((ClaimKind.LP, 26),))


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), layout=st.sampled_from(LAYOUTS))
def test_steps_are_the_statements_of_the_tree(seed: int, layout: str) -> None:
    """Every step is the core action and the claims of the statement the grammar reads there."""
    source = decode(relayout(text_of(seed, turns=10), layout).encode(), "t.sglog")
    assert isinstance(source, SourceText)
    for item in read_log(source):
        if not isinstance(item, PlainTurn):
            continue
        tree = item.tree()
        assert (item.number, item.color) == (tree.number, tree.color)
        statements = [*tree.loose, *(s for block in tree.phases for s in block.statements)]
        steps = [s for s in item.steps if s.word is not None]
        assert len(steps) == len(statements)
        for step, stmt in zip(steps, statements, strict=True):
            assert step.action == translate(stmt)
            assert step.claims == tuple((c.kind, c.value) for c in stmt.claims if c.kind is not ClaimKind.PAY)
        assert [s.phase for s in item.steps if s.phase is not None] == [block.phase for block in tree.phases]
