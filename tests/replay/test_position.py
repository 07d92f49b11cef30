"""A replay's position is a value the turn loop replaces step by step, its findings go to one sink,
and an observer stops the loop by answering STOP (sgcheck.replay.position, sgcheck.replay.sink,
sgcheck.replay.observer).

The oracle of a resumed replay is the replay of the same text from its first line, which takes no
checkpoint: with ``--keep-going`` (the cascade's counterfactuals open across checkpoints, the
SG-N306 notes amend findings at the end) as without.
"""

from __future__ import annotations

import random
import re
from collections.abc import Sequence
from pathlib import Path

import pytest

from sgcheck.codes import diagnostic
from sgcheck.core.state import GameState
from sgcheck.diagnostics import Diagnostic
from sgcheck.lang.logs.reader import PlainTurn, TurnStep
from sgcheck.lang.source import SourceText
from sgcheck.replay.interpreter import ReplayOptions, replay_source
from sgcheck.replay.observer import GO, STOP, Event, Flow, ReplayObserver
from sgcheck.replay.position import ReplayPosition
from sgcheck.replay.resume import replay_kept
from sgcheck.replay.sink import FindingSink, Found, listed

CASCADES = sorted(Path(__file__).with_name("cascades").glob("*.sglog"))
KEEP = ReplayOptions(keep_going=True)


def _generated(seed: int, turns: int = 60) -> str:
    from sgcheck.lang.logs.from_actions import Claims
    from sgcheck.lang.logs.writer import format_item
    from sgcheck.replay.generate import Style, iter_game

    items = iter_game(seed, style=Style.ENDLESS, claims=Claims.SOME, max_turns=turns // 2)
    return "".join(format_item(item) + "\n" for item in items if not isinstance(item, GameState))


def _with_wrong_totals(text: str, seed: int, count: int = 4) -> str:
    """``text`` with ``count`` of its LP and SP claims made wrong: each a wrong total (SG-R203)
    that ``--keep-going`` carries forward in a counterfactual (sgcheck.replay.cascade)."""
    rng = random.Random(seed)
    lines = text.split("\n")
    claimed = [i for i, line in enumerate(lines) if re.search(r"\b(lp|sp) \d+", line)]
    for at in rng.sample(claimed, min(count, len(claimed))):
        lines[at] = re.sub(r"\b(lp|sp) (\d+)", lambda m: f"{m.group(1)} {int(m.group(2)) + 3}", lines[at], count=1)
    return "\n".join(lines)


def _texts() -> list[tuple[str, str]]:
    texts = [(path.name, path.read_text(encoding="utf-8")) for path in CASCADES]
    texts += [(f"generated-{seed}.sglog", _with_wrong_totals(_generated(seed), seed)) for seed in (3, 8)]
    return texts


@pytest.mark.parametrize(("name", "text"), _texts(), ids=[name for name, _ in _texts()])
def test_a_replay_resumed_from_any_checkpoint_equals_one_from_the_start(name: str, text: str) -> None:
    """With --keep-going and errors whose counterfactuals are open across checkpoints: every
    checkpoint, resumed (twice: a checkpoint is a value a resumed replay does not change), gives the
    result of the replay from the first line."""
    source = SourceText(name, text)
    full = replay_source(source, KEEP, folder=str(CASCADES[0].parent))
    assert any(d.is_error for d in full.diagnostics)
    _, checkpoints = replay_kept(source, KEEP, folder=str(CASCADES[0].parent), every=1)
    assert checkpoints
    assert any(point.position.cascade.open for point in checkpoints) or name.startswith("two-independent")
    for point in checkpoints:
        first, _ = replay_kept(source, KEEP, folder=str(CASCADES[0].parent), start=point, every=1)
        again, _ = replay_kept(source, KEEP, folder=str(CASCADES[0].parent), start=point, every=1)
        assert first == full, point.line
        assert again == full, point.line


def test_a_step_leaves_the_position_it_replaced_intact() -> None:
    """The positions and findings shown before each turn are unchanged when the replay ends,
    although the turn loop went on from them, the cascade followed findings and the SG-N306 notes
    amended errors (core §2, R04: the refused actions of the cascade logs)."""
    seen: list[tuple[ReplayPosition, Found | None, object, list[Diagnostic]]] = []

    class Keep(ReplayObserver):
        events = Event.TURNS

        def turn_begins(self, turn: PlainTurn, position: ReplayPosition, found: Found | None) -> Flow:
            as_seen = (position.state, position.statements, position.progress, position.opening, position.cascade)
            seen.append((position, found, as_seen, listed(found)))
            return GO

    for path in CASCADES:
        seen.clear()
        text = path.read_text(encoding="utf-8")
        result = replay_source(SourceText(path.name, text), KEEP, folder=str(path.parent), observer=Keep())
        assert any(d.code == "SG-N306" for d in result.diagnostics)
        assert len(seen) > 2
        for position, found, as_seen, findings in seen:
            now = (position.state, position.statements, position.progress, position.opening, position.cascade)
            assert now == as_seen
            assert listed(found) == findings
        statements = [position.statements for position, *_ in seen]
        assert statements == sorted(statements)  # each turn's position is a new value, later ones further on


class _Steps(ReplayObserver):
    """Tells of every call, and answers STOP at the call named ``stop_at`` the ``nth`` time."""

    def __init__(self, stop_at: str, nth: int) -> None:
        self.stop_at, self.nth = stop_at, nth
        self.calls: list[str] = []

    def _answer(self, name: str) -> Flow:
        self.calls.append(name)
        return STOP if name == self.stop_at and self.calls.count(name) == self.nth else GO

    def started(self, state: GameState, line: int) -> Flow:
        return self._answer("started")

    def step_begins(self) -> Flow:
        return self._answer("step_begins")

    def label_played(self, line: int, state: GameState | None) -> Flow:
        return self._answer("label_played")

    def statement_played(
        self,
        turn: PlainTurn,
        step: TurnStep,
        before: GameState | None,
        state: GameState | None,
        findings: Sequence[Diagnostic],
    ) -> Flow:
        return self._answer("statement_played")

    def turn_ended(self, turn: PlainTurn, passes: Sequence[TurnStep], state: GameState | None) -> Flow:
        return self._answer("turn_ended")


#: A legal game whose log writes the wrong result: the end of the log has a finding (SG-R210).
WRONG_RESULT = """rolloff white 5 4 3 black 2 2 1
king white e1
king black e8

1.   upkeep: summon P d2 lp 14
     end:
1... upkeep: summon P d7 lp 14
     end:
2.   end: pass lp 20
2... end: pass lp 20
result 1-0
"""


@pytest.mark.parametrize(
    ("stop_at", "nth"),
    [
        ("started", 1),
        ("step_begins", 1),
        ("step_begins", 4),
        ("label_played", 2),
        ("statement_played", 1),
        ("statement_played", 2),
        ("turn_ended", 1),
        ("turn_ended", 3),
    ],
)
def test_an_observer_stops_the_replay_by_answering_stop(stop_at: str, nth: int) -> None:
    """STOP ends the replay at once, without an exception: no later call, no later step played,
    the end of the log not judged (its SG-R210 is not found), the result stopped."""
    full = replay_source(SourceText("t.sglog", WRONG_RESULT))
    assert [d.code for d in full.diagnostics] == ["SG-R210"]
    observer = _Steps(stop_at, nth)
    result = replay_source(SourceText("t.sglog", WRONG_RESULT), observer=observer)
    assert observer.calls[-1] == stop_at and observer.calls.count(stop_at) == nth
    assert result.stopped and result.diagnostics == ()
    # the statements counted are those of the steps played (a pass is played with its turn's end)
    assert result.statements <= full.statements
    assert result.statements >= observer.calls.count("statement_played")
    if stop_at == "step_begins":
        # the step about to begin is not played: every step told to begin before it was
        ends = sum(observer.calls.count(name) for name in ("label_played", "statement_played", "turn_ended"))
        assert ends == nth - 1
    if stop_at == "started":
        assert result.statements == 0 and result.turns == 0
    go_on = replay_source(SourceText("t.sglog", WRONG_RESULT), observer=_Steps("none", 1))
    assert go_on == full


def test_an_observer_is_told_of_a_step_a_finding_stops() -> None:
    """A finding that stops the replay inside a step (the first error, without --keep-going) still
    ends the step for the observer; its answer changes nothing then."""
    text = WRONG_RESULT.replace("summon P d7", "summon P d2")  # onto a White Pawn: refused
    observer = _Steps("statement_played", 2)
    result = replay_source(SourceText("t.sglog", text), observer=observer)
    assert [d.code for d in result.diagnostics if d.is_error] and result.stopped
    assert observer.calls[-1] == "statement_played" and observer.calls.count("statement_played") == 2


def test_the_sink_keeps_findings_as_a_value() -> None:
    """The sink's findings so far are a chain each finding extends: one kept is never changed by
    later findings or by an amendment, which shows only in the sink's list."""
    sink = FindingSink()
    first, second, third = (diagnostic("SG-T107", f"finding {n}") for n in range(3))
    sink.add(first)
    kept = sink.kept
    sink.add(second)
    sink.amend(0, third)
    assert listed(kept) == [first] and listed(sink.kept) == [first, second]
    assert sink.findings() == [third, second] and sink.since(1) == [second] and sink.count == 2
    resumed = FindingSink(kept)
    resumed.add(third)
    assert resumed.findings() == [first, third] and listed(sink.kept) == [first, second]


def test_the_sink_tells_the_observer_of_each_finding_of_play_only() -> None:
    """Findings made before play (a pack's, a scenario's) are kept without a step to show them at;
    each later one is told to the observer with its number."""

    class Numbers(ReplayObserver):
        def __init__(self) -> None:
            self.told: list[int] = []

        def reported(self, index: int) -> None:
            self.told.append(index)

    numbers = Numbers()
    sink = FindingSink(observer=numbers)
    sink.extend([diagnostic("SG-T107", "before play")] * 2)
    sink.add(diagnostic("SG-T107", "in play"))
    assert numbers.told == [2] and sink.count == 3
