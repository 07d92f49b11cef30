"""Replay reads each turn once, with the line reader, and places its findings from that reading.

The line reader (sgcheck.lang.logs.reader) gives replay every turn as a PlainTurn: core actions
and (kind, value) claims to play, and, on request, each statement's node and each label's span,
worked out from the text it read. The grammar reads only text that is not well formed. These
tests hold that reading to the grammar's: the same result (findings and their places, final
state, counts) as a replay of the log read by the grammar alone, on the examples, on generated
games in every layout and on logs broken at random, with and without keep_going; and a turn with
something to report is neither read by the grammar nor played twice.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sgcheck.core.actions import Action
from sgcheck.core.outcome import Applied, Rejected
from sgcheck.core.state import GameState
from sgcheck.lang.logs import reader
from sgcheck.lang.logs.reader import read_log
from sgcheck.lang.logs.writer import format_log
from sgcheck.lang.source import SourceText, decode
from sgcheck.replay.generate import Claims, Style, generate_game
from sgcheck.replay.interpreter import ReplayOptions, ReplayResult, replay_source, replay_text
from sgcheck.replay.layouts import LAYOUTS, relayout
from sgcheck.replay.observer import ReplayObserver
from sgcheck.replay.turn_loop import Replayer
from tests.readers import by_grammar, source_by_grammar

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "logs"
ALL_EXAMPLES = sorted(EXAMPLES.rglob("*.sglog"))


def both(text: str, keep_going: bool = False) -> tuple[ReplayResult, ReplayResult]:
    mine = replay_text(text, "q.sglog", ReplayOptions(keep_going=keep_going))
    grammar = by_grammar(text, "q.sglog", ReplayOptions(keep_going=keep_going))
    return mine, grammar


def generated(seed: int, style: Style = Style.RANDOM, claims: Claims = Claims.ALL, turns: int = 30) -> str:
    return format_log(generate_game(seed, style=style, claims=claims, max_turns=turns).items)


@pytest.mark.parametrize("path", ALL_EXAMPLES, ids=lambda p: p.name)
@pytest.mark.parametrize("keep_going", [False, True])
def test_examples_replay_the_same_read_either_way(path: Path, keep_going: bool) -> None:
    mine, grammar = both(path.read_text(encoding="utf-8"), keep_going)
    assert mine == grammar


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 10_000),
    style=st.sampled_from(list(Style)),
    claims=st.sampled_from(list(Claims)),
    layout=st.sampled_from(LAYOUTS),
    keep_going=st.booleans(),
)
def test_generated_games_replay_the_same_read_either_way_in_every_layout(
    seed: int, style: Style, claims: Claims, layout: str, keep_going: bool
) -> None:
    source = decode(relayout(generated(seed, style, claims), layout).encode(), "g.sglog")
    assert isinstance(source, SourceText)
    mine = replay_source(source, ReplayOptions(keep_going=keep_going))
    assert mine == source_by_grammar(source, ReplayOptions(keep_going=keep_going))
    assert mine.ok


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
    mutations=st.lists(
        st.tuples(st.integers(0, 10**6), st.sampled_from(["edit", "drop", "swap", "copy"])), min_size=1, max_size=3
    ),
    rng=st.randoms(use_true_random=False),
    layout=st.sampled_from(["plain", "capitalised", "two-line"]),
    keep_going=st.booleans(),
)
def test_broken_logs_replay_the_same_read_either_way(
    seed: int, mutations: list[tuple[int, str]], rng: random.Random, layout: str, keep_going: bool
) -> None:
    """Break a legal generated log at random lines: the same findings, at the same places."""
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
    mine, grammar = both(relayout("\n".join(lines), layout), keep_going)
    assert mine == grammar


def _wrong_lp_claim() -> tuple[str, str]:
    """A generated log, and the same with one LP total misrecorded."""
    text = generated(3, Style.RANDOM, Claims.ALL, turns=12)
    lines = text.split("\n")
    i = next(i for i, line in enumerate(lines) if " lp " in line and "move" in line)
    head, _, tail = lines[i].partition(" lp ")
    number, _, rest = tail.partition(" ")
    lines[i] = f"{head} lp {int(number) + 1} {rest}".rstrip()
    return text, "\n".join(lines)


class GrammarReadings:
    """Counts the grammar's readings (each from the start of one item)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.count = 0
        read = reader.items_from

        def reading(*args: object, **kwargs: object) -> object:
            self.count += 1
            return read(*args, **kwargs)  # type: ignore[arg-type]

        monkeypatch.setattr(reader, "items_from", reading)


class Applications(ReplayObserver):
    """Counts the core's judgements of statements and turn ends, as the turn loop tells them."""

    def __init__(self) -> None:
        self.count = 0

    def applied(self, before: GameState, action: Action, outcome: Applied | Rejected) -> None:
        self.count += 1


def applications(text: str) -> tuple[int, list[str]]:
    """How many times the core judged an action in a replay of ``text`` (keep_going), and the findings."""
    observer = Applications()
    replayer = Replayer("w.sglog", ReplayOptions(keep_going=True), observer=observer)
    for item in read_log(SourceText("w.sglog", text)):
        replayer.feed(item)
    return observer.count, [d.code for d in replayer.sink.findings()]


def test_a_wrong_claim_is_placed_without_the_grammar_and_its_turn_played_once(monkeypatch: pytest.MonkeyPatch) -> None:
    clean, wrong = _wrong_lp_claim()
    readings = GrammarReadings(monkeypatch)
    clean_count, clean_found = applications(clean)
    count, found = applications(wrong)
    assert (clean_found, found) == ([], ["SG-R203"])
    assert readings.count == 0  # neither log reaches the grammar
    assert count == clean_count  # every action and turn end judged once, as in the clean log
    monkeypatch.undo()
    options = ReplayOptions(keep_going=True)
    assert replay_text(wrong, "w.sglog", options) == by_grammar(wrong, "w.sglog", options)


def test_a_card_turn_is_read_and_placed_by_the_line_reader(monkeypatch: pytest.MonkeyPatch) -> None:
    """``activate`` and ``play`` (R17, R22) are the line reader's too: a game without a pack has
    its notes (SG-N301, SG-N302) placed at the statement and the card's name, as the grammar would."""
    text = (
        'draft white "Soul Ward" "Temporal Rift" "Soul Drain"\nking white e1\nking black e8\n'
        '1. main1: play "Bolt" on Rb7 cost 2\n1... main1: activate "Soul Ward"\n'
    )
    readings = GrammarReadings(monkeypatch)
    result = replay_text(text, "c.sglog")
    assert readings.count == 0
    assert [(d.code, d.span.line, d.span.column) for d in result.diagnostics if d.span] == [
        ("SG-N302", 4, 16),
        ("SG-N301", 4, 11),
    ]
    monkeypatch.undo()
    assert result == by_grammar(text, "c.sglog")
