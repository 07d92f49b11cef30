"""Turns replayed from the reader's steps give the same replay as their syntax trees.

Replay plays a turn the reader read (a PlainTurn: core actions and claims, no spans) without
its syntax tree, and plays the tree instead, from the same state and with the same turn loop,
as soon as there is anything to report. ``ReplayOptions(plain_turns=False)`` always plays the
tree. These tests hold the two to each other: the same result (diagnostics, final state,
counts) on the examples, on generated games in every layout, and on logs broken at random,
with and without keep_going.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sgcheck.codes import diagnostic
from sgcheck.lang.logs.ast import Turn
from sgcheck.lang.logs.grammar import LogSyntaxError
from sgcheck.lang.logs.reader import PlainTurn
from sgcheck.lang.logs.writer import format_log
from sgcheck.lang.source import SourceText, decode
from sgcheck.replay.generate import Claims, Style, generate_game
from sgcheck.replay.interpreter import ReplayOptions, ReplayResult, replay_source, replay_text
from sgcheck.replay.layouts import LAYOUTS, relayout

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "logs"
ALL_EXAMPLES = sorted(EXAMPLES.rglob("*.sglog"))


def both(text: str, keep_going: bool = False) -> tuple[ReplayResult, ReplayResult]:
    plain = replay_text(text, "q.sglog", ReplayOptions(keep_going=keep_going))
    tree = replay_text(text, "q.sglog", ReplayOptions(keep_going=keep_going, plain_turns=False))
    return plain, tree


def generated(seed: int, style: Style = Style.RANDOM, claims: Claims = Claims.ALL, turns: int = 30) -> str:
    return format_log(generate_game(seed, style=style, claims=claims, max_turns=turns).items)


class TreesBuilt:
    """Counts the turns whose syntax tree replay asked for."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.count = 0
        real = PlainTurn.tree

        def counted(turn: PlainTurn) -> Turn:
            self.count += 1
            return real(turn)

        monkeypatch.setattr(PlainTurn, "tree", counted)


@pytest.mark.parametrize("path", ALL_EXAMPLES, ids=lambda p: p.name)
@pytest.mark.parametrize("keep_going", [False, True])
def test_examples_replay_the_same_both_ways(path: Path, keep_going: bool) -> None:
    plain, tree = both(path.read_text(encoding="utf-8"), keep_going)
    assert plain == tree


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 10_000),
    style=st.sampled_from(list(Style)),
    claims=st.sampled_from(list(Claims)),
    layout=st.sampled_from(LAYOUTS),
    keep_going=st.booleans(),
)
def test_generated_games_replay_the_same_both_ways_in_every_layout(
    seed: int, style: Style, claims: Claims, layout: str, keep_going: bool
) -> None:
    source = decode(relayout(generated(seed, style, claims), layout).encode(), "g.sglog")
    assert isinstance(source, SourceText)
    plain = replay_source(source, ReplayOptions(keep_going=keep_going))
    tree = replay_source(source, ReplayOptions(keep_going=keep_going, plain_turns=False))
    assert plain == tree
    assert plain.ok


def test_a_legal_game_builds_no_tree_until_the_game_ends(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every turn of a legal game that goes on is played from its steps alone; the turn that ends
    the game is played from its tree (so what follows is placed exactly)."""
    game = generate_game(21, style=Style.RANDOM, claims=Claims.ALL, max_turns=40)
    built = TreesBuilt(monkeypatch)
    result = replay_text(format_log(game.items), "g.sglog")
    assert result.ok and result.turns > 20
    assert built.count == (1 if result.state is not None and result.state.result is not None else 0)


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
    rng=st.randoms(use_true_random=False),
    layout=st.sampled_from(["plain", "capitalised", "two-line"]),
    keep_going=st.booleans(),
)
def test_broken_logs_replay_the_same_both_ways(
    seed: int, mutations: list[tuple[int, str]], rng: random.Random, layout: str, keep_going: bool
) -> None:
    """Break a legal generated log at random lines: both ways report the same findings."""
    lines = generated(seed, Style.RANDOM, Claims.ALL, turns=12).split("\n")
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
    plain, tree = both(relayout("\n".join(lines), layout), keep_going)
    assert plain == tree


def _wrong_lp_claim() -> str:
    """A generated log with one LP total misrecorded."""
    lines = generated(3, Style.RANDOM, Claims.ALL, turns=12).split("\n")
    i = next(i for i, line in enumerate(lines) if " lp " in line and "move" in line)
    head, _, tail = lines[i].partition(" lp ")
    number, _, rest = tail.partition(" ")
    lines[i] = f"{head} lp {int(number) + 1} {rest}".rstrip()
    return "\n".join(lines)


def test_a_wrong_claim_builds_the_tree_of_its_turn_only(monkeypatch: pytest.MonkeyPatch) -> None:
    text = _wrong_lp_claim()
    built = TreesBuilt(monkeypatch)
    result = replay_text(text, "w.sglog")
    assert [d.code for d in result.diagnostics] == ["SG-R203"]
    assert built.count == 1
    assert result == replay_text(text, "w.sglog", ReplayOptions(plain_turns=False))


def test_a_turn_that_cannot_be_built_is_reported_not_raised(monkeypatch: pytest.MonkeyPatch) -> None:
    """Should building a turn's tree ever fail, replay reports it and stops (no traceback)."""
    error = LogSyntaxError(diagnostic("SG-P001", "syntax error: this turn could not be read"))

    def fail(self: PlainTurn) -> Turn:
        raise error

    monkeypatch.setattr(PlainTurn, "tree", fail)
    result = replay_text(_wrong_lp_claim(), "w.sglog")
    assert result.stopped
    assert [(d.code, d.message) for d in result.diagnostics] == [
        ("SG-P001", "syntax error: this turn could not be read")
    ]
