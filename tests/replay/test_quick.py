"""Quick turns give the same replay as the full syntax tree.

Replay takes plainly written turns without building their syntax tree
(``sgcheck.lang.logs.quick``, ``sgcheck.replay.quick``) and falls back to the tree whenever
anything is wrong. These tests hold the shortcut to the reference: the same reading of
every plain line, and the same replay result (diagnostics, final state, counts) on the
examples, on generated games and on logs broken at random, with and without keep_going.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import TypeVar

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sgcheck.codes import diagnostic
from sgcheck.core.actions import Attack, Break, Convert, Move, Repair, Summon, Teleport
from sgcheck.core.pieces import Color, Kind, Phase
from sgcheck.core.squares import parse_square
from sgcheck.core.state import Payment
from sgcheck.lang.logs import log_fast
from sgcheck.lang.logs.ast import ClaimKind, Turn
from sgcheck.lang.logs.grammar import LogSyntaxError, iter_log, iter_log_quick
from sgcheck.lang.logs.quick import QuickTurn, read_quick_line
from sgcheck.lang.logs.writer import format_log
from sgcheck.lang.source import SourceText
from sgcheck.replay.generate import Claims, Style, generate_game
from sgcheck.replay.interpreter import ReplayOptions, ReplayResult, replay_text
from sgcheck.replay.translate import translate

T = TypeVar("T")
EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "logs"
ALL_EXAMPLES = sorted(EXAMPLES.rglob("*.sglog"))


def both(text: str, keep_going: bool = False) -> tuple[ReplayResult, ReplayResult]:
    quick = replay_text(text, "q.sglog", ReplayOptions(keep_going=keep_going))
    full = replay_text(text, "q.sglog", ReplayOptions(keep_going=keep_going, quick_turns=False))
    return quick, full


def generated(seed: int, style: Style = Style.RANDOM, claims: Claims = Claims.ALL, turns: int = 30) -> str:
    return format_log(generate_game(seed, style=style, claims=claims, max_turns=turns).items)


# --- reading -------------------------------------------------------------------------------------


def sq(name: str) -> int:
    return parse_square(name)


@pytest.mark.parametrize(
    ("line", "word", "action", "claims"),
    [
        ("move Ra1 a3", "move", Move(sq("a1"), sq("a3"), None, Kind.ROOK), ()),
        ("move a1 a3 cost 7 lp 13", "move", Move(sq("a1"), sq("a3")), ((ClaimKind.COST, 7), (ClaimKind.LP, 13))),
        ("move Ng1 f3 d4", "move", Move(sq("g1"), sq("d4"), sq("f3"), Kind.KNIGHT), ()),
        (
            "attack Ra3 Pa5 roll 6 1 hit threshold 60",
            "attack",
            Attack(sq("a3"), sq("a5"), (6, 1), Kind.ROOK, Kind.PAWN),
            ((ClaimKind.HIT, None), (ClaimKind.THRESHOLD, 60)),
        ),
        ("summon P a2 pay 2sp 4lp", "summon", Summon(Kind.PAWN, sq("a2"), Payment(2, 4)), ()),
        ("summon Qd1", "summon", Summon(Kind.QUEEN, sq("d1")), ()),
        ("teleport Rf3 a1 pay 12lp", "teleport", Teleport(sq("f3"), sq("a1"), Kind.ROOK, Payment(0, 12)), ()),
        ("break roll 6 5 4 success", "break", Break((6, 5, 4)), ((ClaimKind.SUCCESS, None),)),
        ("repair roll 1 1 1 fail", "repair", Repair((1, 1, 1)), ((ClaimKind.FAIL, None),)),
        ("convert 10 gain 5lp", "convert", Convert(10), ((ClaimKind.GAIN_LP, 5),)),
        ("attack Nd3 e5 roll 0 1 capture gain 15sp", "attack", Attack(sq("d3"), sq("e5"), (0, 1), Kind.KNIGHT),
         ((ClaimKind.CAPTURE, None), (ClaimKind.GAIN_SP, 15))),
    ],
)
def test_plain_statements_read_into_core_actions(
    line: str, word: str, action: object, claims: tuple[object, ...]
) -> None:
    step = read_quick_line("   " + line)
    assert step is not None
    assert (step.word, step.action, step.claims) == (word, action, claims)


def test_headers_labels_pass_and_income() -> None:
    step = read_quick_line("12... upkeep: income 4 sp 9")
    assert step is not None
    assert (step.number, step.color, step.phase, step.word, step.amount) == (12, Color.BLACK, Phase.UPKEEP, "income", 4)
    assert step.claims == ((ClaimKind.SP, 9),)
    step = read_quick_line("3. end: pass lp 26")
    assert step is not None
    assert (step.number, step.color, step.phase, step.word, step.action) == (3, Color.WHITE, Phase.END, "pass", None)
    step = read_quick_line("    battle:")
    assert step is not None and (step.phase, step.word) == (Phase.BATTLE, None)


@pytest.mark.parametrize(
    "line",
    [
        "MOVE Ra1 a3",  # upper-case keyword: the word-level reader takes it
        "move  Ra1 a3",  # two spaces
        "move Ra1 a3 hit",  # a claim that does not fit the statement
        "summon P a2 pay 2sp 3sp",  # the same unit twice
        "attack Ra3 a5 roll 6 1 gain 5lp",  # an attack gains SP, not LP
        "0. main1: move a1 a2",  # there is no turn 0
        "1.main1: move a1 a2",  # no space after the header
        "move Ra1 a3 move a4 a5",  # two statements on one line
        'activate "Soul Drain"',  # cards are never quick
        "move Ra1 a3 {note}",
        "king white e1",  # setup is not a line of a turn
        "result 1-0",
        "move Ra1 a9",
        "",
    ],
)
def test_anything_but_the_plainest_form_is_not_quick(line: str) -> None:
    assert read_quick_line(line) is None


def _statements(turn: Turn) -> list[object]:
    return [*turn.loose, *(s for block in turn.phases for s in block.statements)]


def read_all(items: Iterator[T]) -> tuple[list[T], str | None]:
    """Every item, and the syntax error that ended the reading (if any)."""
    out: list[T] = []
    try:
        out.extend(items)
    except LogSyntaxError as exc:
        return out, str(exc)
    return out, None


def assert_same_reading(text: str) -> int:
    """Every quick turn builds into the turn the word-level reader gives, and its steps are the
    actions and claims of that turn's statements. Returns the number of quick turns."""
    source = SourceText("r.sglog", text)
    reference, reference_error = read_all(iter_log(source))
    quick, quick_error = read_all(iter_log_quick(source))
    assert quick_error == reference_error
    assert len(quick) == len(reference)
    count = 0
    for mine, theirs in zip(quick, reference, strict=True):
        if not isinstance(mine, QuickTurn):
            assert mine == theirs
            continue
        count += 1
        assert isinstance(theirs, Turn)
        assert mine.build() == theirs
        assert (mine.number, mine.color) == (theirs.number, theirs.color)
        steps = [s for s in mine.steps if s.word is not None]
        statements = _statements(theirs)
        assert len(steps) == len(statements)
        for step, stmt in zip(steps, statements, strict=True):
            assert step.action == translate(stmt)  # type: ignore[arg-type]
            claims = tuple((c.kind, c.value) for c in stmt.claims if c.kind is not ClaimKind.PAY)  # type: ignore[union-attr]
            assert step.claims == claims
    return count


@pytest.mark.parametrize("path", ALL_EXAMPLES, ids=lambda p: p.name)
def test_examples_read_the_same_both_ways(path: Path) -> None:
    assert_same_reading(path.read_text(encoding="utf-8"))


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), style=st.sampled_from(list(Style)), claims=st.sampled_from(list(Claims)))
def test_generated_games_read_the_same_both_ways(seed: int, style: Style, claims: Claims) -> None:
    text = generated(seed, style, claims, turns=15)
    assert assert_same_reading(text) > 0  # generated logs are written plainly


def test_build_falls_back_to_the_grammar(monkeypatch: pytest.MonkeyPatch) -> None:
    """Were the word-level reader ever to decline a quick turn, the grammar reads it instead."""
    text = (EXAMPLES / "guide-example-a.sglog").read_text(encoding="utf-8")
    source = SourceText("a.sglog", text)
    items = list(iter_log(source))
    quick = [item for item in iter_log_quick(source) if isinstance(item, QuickTurn)]
    assert quick

    def decline(name: str, lines: object) -> Turn:
        raise log_fast.Declined

    monkeypatch.setattr(log_fast, "build_turn", decline)
    assert [turn.build() for turn in quick] == [items[turn.index] for turn in quick]


# --- replay --------------------------------------------------------------------------------------


@pytest.mark.parametrize("path", ALL_EXAMPLES, ids=lambda p: p.name)
@pytest.mark.parametrize("keep_going", [False, True])
def test_examples_replay_the_same_both_ways(path: Path, keep_going: bool) -> None:
    quick, full = both(path.read_text(encoding="utf-8"), keep_going)
    assert quick == full


def test_full_game_is_replayed_quickly() -> None:
    """The long example is plain enough that most of its turns are quick."""
    source = SourceText("full-game.sglog", (EXAMPLES / "full-game.sglog").read_text(encoding="utf-8"))
    items = list(iter_log_quick(source))
    turns = [item for item in items if isinstance(item, (Turn, QuickTurn))]
    assert sum(isinstance(item, QuickTurn) for item in turns) > len(turns) // 2


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 10_000),
    style=st.sampled_from(list(Style)),
    claims=st.sampled_from(list(Claims)),
    keep_going=st.booleans(),
)
def test_generated_games_replay_the_same_both_ways(seed: int, style: Style, claims: Claims, keep_going: bool) -> None:
    quick, full = both(generated(seed, style, claims), keep_going)
    assert quick == full
    assert quick.ok


_LABELS = ["upkeep:", "main1:", "battle:", "main2:", "end:"]
_FLAGS = ["hit", "miss", "capture", "converts", "success", "fail"]


def _mutate_line(line: str, rng: random.Random) -> str:
    """A plausible scorekeeping slip: a wrong number, square, piece letter, phase or outcome
    (mostly a word of the same sort, so that the log still reads and replay has to judge it)."""
    words = line.split(" ")
    candidates = [i for i, w in enumerate(words) if w]
    if not candidates:
        return line
    i = rng.choice(candidates)
    word = words[i]
    square = rng.choice("abcdefgh") + rng.choice("12345678")
    if word.isascii() and word.isdigit():
        step = rng.choice([-5, -1, 1, 2, 10, None])  # None: a number too long to read (SG-P012)
        words[i] = word + "0" * 9 if step is None else str(max(0, int(word) + step))
    elif len(word) == 2 and word[0] in "abcdefgh" and word[1] in "12345678":
        words[i] = square
    elif len(word) == 3 and word[0] in "PNBRQK":
        words[i] = rng.choice(["", "PNBRQK"[rng.randrange(6)]]) + (square if rng.random() < 0.5 else word[1:])
    elif word in _LABELS:
        words[i] = rng.choice(_LABELS)
    elif word in _FLAGS:
        words[i] = rng.choice(_FLAGS)
    else:
        words[i] = rng.choice([word, "pass", "lp", "1", ""])
    return " ".join(words)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 10_000),
    mutations=st.lists(st.tuples(st.integers(0, 10**6), st.sampled_from(["edit", "drop", "swap", "copy"])),
                       min_size=1, max_size=3),
    keep_going=st.booleans(),
)
def test_broken_logs_replay_the_same_both_ways(
    seed: int, mutations: list[tuple[int, str]], keep_going: bool
) -> None:
    """Break a legal generated log at random lines: both ways report the same findings."""
    lines = generated(seed, Style.RANDOM, Claims.ALL, turns=12).split("\n")
    rng = random.Random(seed)
    for where, how in mutations:
        i = where % len(lines)
        if how == "edit":
            lines[i] = _mutate_line(lines[i], rng)
        elif how == "drop":
            del lines[i]
        elif how == "swap" and i + 1 < len(lines):
            lines[i], lines[i + 1] = lines[i + 1], lines[i]
        else:
            lines.insert(i, lines[i])
    quick, full = both("\n".join(lines), keep_going)
    assert quick == full


def _wrong_lp_claim() -> str:
    """A generated log with one LP total misrecorded, in a turn written plainly."""
    lines = generated(3, Style.RANDOM, Claims.ALL, turns=12).split("\n")
    i = next(i for i, line in enumerate(lines) if " lp " in line and read_quick_line(line) is not None)
    head, _, tail = lines[i].partition(" lp ")
    number, _, rest = tail.partition(" ")
    lines[i] = f"{head} lp {int(number) + 1} {rest}".rstrip()
    return "\n".join(lines)


def test_replay_falls_back_to_the_grammar_too(monkeypatch: pytest.MonkeyPatch) -> None:
    """With the word-level reader declining, the grammar's tree of the broken quick turn gives
    the same finding."""
    text = _wrong_lp_claim()
    assert any(isinstance(item, QuickTurn) for item in iter_log_quick(SourceText("w.sglog", text)))
    expected = replay_text(text, "w.sglog", ReplayOptions(quick_turns=False))
    assert [d.code for d in expected.diagnostics] == ["SG-R203"]

    def decline(name: str, lines: object) -> Turn:
        raise log_fast.Declined

    monkeypatch.setattr(log_fast, "build_turn", decline)
    assert replay_text(text, "w.sglog") == expected


def test_a_turn_that_cannot_be_built_is_reported_not_raised(monkeypatch: pytest.MonkeyPatch) -> None:
    """Should building a quick turn's tree ever fail, replay reports it and stops (no traceback)."""
    error = LogSyntaxError(diagnostic("SG-P001", "syntax error: this turn could not be read"))

    def fail(self: QuickTurn) -> Turn:
        raise error

    monkeypatch.setattr(QuickTurn, "build", fail)
    result = replay_text(_wrong_lp_claim(), "w.sglog")
    assert result.stopped
    assert [(d.code, d.message) for d in result.diagnostics] == [
        ("SG-P001", "syntax error: this turn could not be read")
    ]
