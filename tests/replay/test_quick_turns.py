"""A turn with nothing to report is played in one go (``Replayer._quick``: the state in hand, one
position for the whole turn) and gives exactly what the general loop gives, step by step.

The oracle is the general loop itself: a replay with an observer that watches every step (and
does nothing) plays every turn through it. Both replays of the same text, mutated so that turns
have refusals (core §2-§7), wrong claims (R15), statements before any label, game ends and
passes that are not Passes (R04), must agree on every finding, count and state, and on the
position before every turn.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sgcheck.lang.logs.reader import PlainTurn
from sgcheck.lang.source import SourceText
from sgcheck.replay.chain import in_order
from sgcheck.replay.interpreter import ReplayOptions, ReplayResult, replay_source
from sgcheck.replay.observer import GO, Event, Flow, ReplayObserver, joined
from sgcheck.replay.position import ReplayPosition
from sgcheck.replay.sink import Found, listed
from tests.replay.test_position import _generated, _with_wrong_totals

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples" / "logs"
#: Every log the repository ships: the examples (broken ones too, with packs and scenarios), the
#: fuzz corpus, the cascades and the play goldens.
SHIPPED = sorted(path for folder in ("examples", "tests") for path in (ROOT / folder).rglob("*.sglog"))
BASES = [_generated(seed, 40) for seed in (1, 5, 11)] + [
    (EXAMPLES / name).read_text(encoding="utf-8") for name in ("guide-example-a.sglog", "guide-walkthrough.sglog")
]
PIECES = [
    "main1:",
    "battle:",
    "end:",
    "pass",
    "pass lp 3",
    "move Ra1 a8",
    "summon P a3",
    "income 4",
    "lp 0",
    "sp 2",
    "cost 1",
    "\n3.   end: pass\n",
    "\n",
]


def _plain(position: ReplayPosition) -> object:
    """``position`` as values that compare across two replays: each replay reads its own turns and
    builds its own chains (both compared by identity), so a turn is shown by its line and a chain
    by its values."""
    progress, cascade = position.progress, position.cascade
    where = progress.where_turn
    return (
        position.replace(
            progress=progress.replace(where_turn=None, result_lines=None),
            cascade=cascade.__class__(None, None, cascade.open),
        ),
        where.line if where is not None else None,
        in_order(progress.result_lines),
        in_order(cascade.errors),
        in_order(cascade.follows),
    )


def _replayed(
    text: str, options: ReplayOptions, general: bool, folder: str | None = None, name: str = "q.sglog"
) -> tuple[ReplayResult, list[object]]:
    """The replay of ``text`` and what it showed before each turn (the position and the findings)."""
    turns = _Turns()
    # an observer of the steps, which does nothing, has every turn played by the general loop
    observer = joined(turns, ReplayObserver() if general else None)
    result = replay_source(SourceText(name, text), options, folder=folder, observer=observer)
    return result, turns.seen


class _Turns(ReplayObserver):
    """Keeps the position and the findings before each turn."""

    events = Event.TURNS

    def __init__(self) -> None:
        self.seen: list[object] = []

    def turn_begins(self, turn: PlainTurn, position: ReplayPosition, found: Found | None) -> Flow:
        self.seen.append((turn.line, _plain(position), listed(found)))
        return GO


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), keep_going=st.booleans(), wrong=st.integers(0, 3))
def test_a_turn_played_in_one_go_equals_the_general_loop(data: st.DataObject, keep_going: bool, wrong: int) -> None:
    text = data.draw(st.sampled_from(BASES))
    text = _with_wrong_totals(text, data.draw(st.integers(0, 99)), wrong)
    for _ in range(data.draw(st.integers(0, 4))):
        at = data.draw(st.integers(0, len(text)))
        piece = data.draw(st.sampled_from(PIECES))
        text = text[:at] + " " + piece + " " + text[at + data.draw(st.integers(0, 8)) :]
    options = ReplayOptions(keep_going=keep_going)
    quick, quick_seen = _replayed(text, options, general=False)
    general, general_seen = _replayed(text, options, general=True)
    assert quick == general
    assert quick_seen == general_seen


def test_clean_generated_games_are_played_in_one_go_and_agree() -> None:
    """Long clean games (claims on many statements, passes with totals): the same result and the
    same position before every turn, none of which the general loop reports on."""
    for seed in (2, 7):
        text = _generated(seed, 120)
        quick, quick_seen = _replayed(text, ReplayOptions(), general=False)
        general, general_seen = _replayed(text, ReplayOptions(), general=True)
        assert quick.ok and quick.turns > 50
        assert quick == general
        assert quick_seen == general_seen


@pytest.mark.parametrize("path", SHIPPED, ids=[str(path.relative_to(ROOT)) for path in SHIPPED])
def test_every_shipped_log_is_played_alike_in_one_go_and_by_the_general_loop(path: Path) -> None:
    """Each log the repository ships, as ``sgcheck replay`` replays it and with ``--keep-going``."""
    text = path.read_text(encoding="utf-8", errors="replace")
    for options in (ReplayOptions(), ReplayOptions(keep_going=True)):
        quick, quick_seen = _replayed(text, options, False, str(path.parent), path.name)
        general, general_seen = _replayed(text, options, True, str(path.parent), path.name)
        assert quick == general
        assert quick_seen == general_seen
