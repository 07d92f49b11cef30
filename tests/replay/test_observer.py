"""One observer protocol for replay (sgcheck.replay.observer): an observer names the events it
watches (the turns, the steps, the statements' effects), is told of those only, and stops the
replay by answering STOP, never by raising; several watch one replay as one.

The oracle of each observed replay is the plain replay of the same log (core §2: turns in
order; R04: a pass is not an action; R15: claims are judged unless an observer of the effects
takes them instead).
"""

from __future__ import annotations

import warnings

import pytest

from sgcheck.core.outcome import Effects
from sgcheck.core.state import GameState, PlayerState
from sgcheck.lang.logs.ast import Statement
from sgcheck.lang.logs.reader import PlainTurn
from sgcheck.lang.source import SourceText
from sgcheck.replay.interpreter import replay_source
from sgcheck.replay.observer import GO, STOP, Event, Flow, Observers, ReplayObserver, TurnObserver, joined
from sgcheck.replay.position import ReplayPosition
from sgcheck.replay.sink import Found
from tests.replay.test_position import WRONG_RESULT

#: WRONG_RESULT with a wrong LP claim on White's first summon (SG-R203, R15).
WRONG_CLAIM = WRONG_RESULT.replace("summon P d2 lp 14", "summon P d2 lp 15")


class _Calls(ReplayObserver):
    """Notes every method called on it, answers STOP at the ``nth`` call of ``stop_at``."""

    def __init__(self, events: Event, stop_at: str = "", nth: int = 0) -> None:
        self.events = events
        self.stop_at, self.nth = stop_at, nth
        self.calls: list[str] = []
        self.turns: list[tuple[int, int]] = []  # (line of the turn, statements before it)
        self.effects: list[tuple[str, int, int]] = []  # (line, LP, SP of the actor after it)

    def _answer(self, name: str) -> Flow:
        self.calls.append(name)
        return STOP if name == self.stop_at and self.calls.count(name) == self.nth else GO

    def turn_begins(self, turn: PlainTurn, position: ReplayPosition, found: Found | None) -> Flow:
        self.turns.append((turn.line, position.statements))
        return self._answer("turn_begins")

    def statement_effects(self, stmt: Statement, effects: Effects, player: PlayerState) -> Flow:
        self.effects.append((type(stmt).__name__, player.lp, player.sp))
        return self._answer("statement_effects")

    def started(self, state: GameState, line: int) -> Flow:
        return self._answer("started")

    def step_begins(self) -> Flow:
        return self._answer("step_begins")


def _replay(text: str, observer: ReplayObserver | None) -> object:
    return replay_source(SourceText("t.sglog", text), observer=observer)


def test_an_observer_is_told_only_of_the_events_it_watches() -> None:
    for events in (Event.TURNS, Event.STEPS, Event.EFFECTS, Event.TURNS | Event.STEPS):
        observer = _Calls(events)
        _replay(WRONG_RESULT, observer)
        told = set(observer.calls)
        assert ("turn_begins" in told) is (Event.TURNS in events)
        assert ("step_begins" in told and "started" in told) is (Event.STEPS in events)
        assert ("statement_effects" in told) is (Event.EFFECTS in events)


def test_an_observer_that_watches_nothing_changes_nothing() -> None:
    plain = _replay(WRONG_CLAIM, None)
    for events in (Event.NONE, Event.TURNS, Event.STEPS):
        assert _replay(WRONG_CLAIM, _Calls(events)) == plain


def test_turns_are_told_with_the_position_before_them_and_stop_the_replay() -> None:
    """Four turns (core §2); STOP before the third: the first two are played, nothing after, the
    end of the log (its wrong result, SG-R210) not judged."""
    full = _Calls(Event.TURNS)
    whole = replay_source(SourceText("t.sglog", WRONG_RESULT), observer=full)
    assert [d.code for d in whole.diagnostics] == ["SG-R210"]
    assert [line for line, _ in full.turns] == [5, 7, 9, 10]
    assert [count for _, count in full.turns] == [0, 1, 2, 2]  # a pass is no action (R04)
    stopping = _Calls(Event.TURNS, "turn_begins", 3)
    stopped = replay_source(SourceText("t.sglog", WRONG_RESULT), observer=stopping)
    assert stopped.stopped and stopped.diagnostics == ()
    assert stopped.turns == 2 and stopped.statements == 2
    assert stopping.calls == ["turn_begins"] * 3


def test_an_observer_of_the_effects_takes_the_claims_instead_of_the_replay() -> None:
    """R15's claims are judged by the replay, unless an observer of the statements' effects is
    told of them: the wrong LP claim is then not a finding, and the observer sees the true LP."""
    assert [d.code for d in _replay(WRONG_CLAIM, None).diagnostics] == ["SG-R203"]
    observer = _Calls(Event.EFFECTS)
    result = replay_source(SourceText("t.sglog", WRONG_CLAIM), observer=observer)
    assert not any(d.code == "SG-R203" for d in result.diagnostics)
    assert observer.effects[0] == ("SummonStmt", 14, observer.effects[0][2])  # not the 15 written
    # two summons and two passes, each told with the actor after it
    assert [name for name, *_ in observer.effects] == ["SummonStmt", "SummonStmt", "PassStmt", "PassStmt"]


def test_an_observer_of_the_effects_stops_the_replay_by_answering() -> None:
    observer = _Calls(Event.EFFECTS, "statement_effects", 1)
    result = replay_source(SourceText("t.sglog", WRONG_RESULT), observer=observer)
    assert result.stopped and result.statements == 1 and result.turns == 1
    assert observer.calls == ["statement_effects"]


def test_observers_watch_one_replay_as_one() -> None:
    """Each is told of its own events, in order; one STOP stops the replay for all."""
    turns, steps, effects = _Calls(Event.TURNS), _Calls(Event.STEPS), _Calls(Event.EFFECTS)
    both = joined(turns, None, steps, effects)
    assert isinstance(both, Observers) and both.events == Event.TURNS | Event.STEPS | Event.EFFECTS
    replay_source(SourceText("t.sglog", WRONG_RESULT), observer=both)
    assert set(turns.calls) == {"turn_begins"} and set(effects.calls) == {"statement_effects"}
    assert {"started", "step_begins"} == set(steps.calls)
    assert joined(None, steps) is steps and joined() is None
    stopper, watcher = _Calls(Event.STEPS, "step_begins", 2), _Calls(Event.STEPS)
    result = replay_source(SourceText("t.sglog", WRONG_RESULT), observer=Observers([stopper, watcher]))
    assert result.stopped and watcher.calls == stopper.calls  # the other was told of the same steps


def test_the_former_keywords_still_work_and_say_they_are_deprecated() -> None:
    """``turn_observer=``, ``checkpoint=`` and ``observe=`` give what the one observer gives."""
    seen: list[int] = []
    told: list[int] = []
    with pytest.warns(DeprecationWarning, match="observer="):
        old = replay_source(
            SourceText("t.sglog", WRONG_CLAIM),
            turn_observer=TurnObserver(),
            checkpoint=lambda turn, position, found: seen.append(turn.line),
            observe=lambda stmt, effects, player: told.append(player.lp),
        )
    observer = _Calls(Event.TURNS | Event.EFFECTS)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        new = replay_source(SourceText("t.sglog", WRONG_CLAIM), observer=observer)
    assert old == new
    assert seen == [line for line, _ in observer.turns] and told == [lp for _, lp, _ in observer.effects]
