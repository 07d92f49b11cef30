"""A simulation run: the list of games to play, and where they are played.

:func:`plan` turns what the designer asked for into independent :class:`GameTask` s (N games
with the pack's side playing first, N with the other side first); :func:`play` plays them and
returns the records in task order. Where the games are played is decided by
:func:`sgcheck.distribute.map_ordered` (this process, local processes or a Dask cluster), with
one contract: ``function`` applied to every task, results yielded in task order. A
game's seed comes from the run's seed and its index (:func:`~sgcheck.simulate.games.game_seed`),
so a run gives the same records whatever the number of workers.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from itertools import accumulate
from typing import overload

from sgcheck.core.pieces import Color
from sgcheck.core.ruleset import CORE, Ruleset
from sgcheck.core.scenario import Scenario
from sgcheck.distribute import DEFAULT_TIMEOUT, map_ordered
from sgcheck.play.policies import Policy
from sgcheck.simulate.games import GameRecord, GameTask, Side, game_seed, play_task

#: How many games of a run are kept as logs for ``--sample-logs`` at most, spread over the run.
SAMPLES = 10


@dataclass(frozen=True, slots=True)
class RunPlan:
    """What a run plays: ``games`` per side (2 × ``games`` in all), each side first in half."""

    pack: Side
    against: Side
    games: int
    seed: int
    policy: Policy
    ruleset: Ruleset = CORE
    scenario: Scenario | None = None
    scenario_label: str | None = None
    max_turns: int = 200
    samples: int = 0  # how many games keep their log text
    against_policy: Policy | None = None  # the ``against`` side's policy, when it differs (the ladder)

    @property
    def total(self) -> int:
        return 2 * self.games


def first_color(scenario: Scenario | None) -> Color:
    """Who takes the first turn: White (core §2), or the side the scenario names (R24)."""
    return scenario.first if scenario is not None else Color.WHITE


def sampled(index: int, total: int, samples: int) -> bool:
    """Whether game ``index`` is one of the ``samples`` kept as logs, spread evenly over the run."""
    if samples <= 0:
        return False
    step = max(1, total // samples)
    return index % step == 0 and index // step < samples


def plan(run: RunPlan) -> Tasks:
    """The games of ``run``, in order: first the pack's side plays first, then the other side.
    Each task is made when it is asked for, so a run of a million games never holds them all."""
    return Tasks(run)


class _Made(Sequence[GameTask]):
    """Tasks made as they are asked for: a subclass says how many (``__len__``) and makes the one
    at an index in range (``_make``); indexing, negative indices and slices are written here once."""

    def _make(self, index: int) -> GameTask:
        raise NotImplementedError

    @overload
    def __getitem__(self, index: int) -> GameTask: ...
    @overload
    def __getitem__(self, index: slice) -> list[GameTask]: ...
    def __getitem__(self, index: int | slice) -> GameTask | list[GameTask]:
        if isinstance(index, slice):
            return [self[at] for at in range(*index.indices(len(self)))]
        if not -len(self) <= index < len(self):
            raise IndexError(index)
        return self._make(index % len(self))


class Tasks(_Made):
    """The tasks of a run, made as they are asked for (a sequence: its length, any one of them)."""

    def __init__(self, run: RunPlan) -> None:
        self.run = run
        self.first = first_color(run.scenario)

    def __len__(self) -> int:
        return self.run.total

    def _make(self, index: int) -> GameTask:
        run = self.run
        return GameTask(
            index=index,
            seed=game_seed(run.seed, index),
            pack=run.pack,
            against=run.against,
            pack_color=self.first if index < run.games else self.first.other,
            policy=run.policy,
            ruleset=run.ruleset,
            scenario=run.scenario,
            scenario_label=run.scenario_label,
            max_turns=run.max_turns,
            sample=sampled(index, run.total, run.samples),
            against_policy=run.against_policy,
        )


class Chained(_Made):
    """Several runs' tasks one after another, as one sequence made as it is asked for."""

    def __init__(self, parts: Sequence[Sequence[GameTask]]) -> None:
        self.parts = parts
        self.ends = list(accumulate(len(part) for part in parts))

    def __len__(self) -> int:
        return self.ends[-1] if self.ends else 0

    def _make(self, index: int) -> GameTask:
        part = bisect_right(self.ends, index)
        return self.parts[part][index - (self.ends[part - 1] if part else 0)]


def play_runs(
    runs: Sequence[RunPlan],
    jobs: int = 1,
    cluster: str | None = None,
    timeout: float = DEFAULT_TIMEOUT,
    each: Callable[[GameRecord], None] | None = None,
) -> Iterator[list[GameRecord]]:
    """Play several runs (a run and its ablations, or a gauntlet's matches) as one stream of tasks
    made as they are sent, so the workers are never idle between runs; yield each run's records,
    in order, when done (``each`` is told of every record as it comes)."""
    records = play(Chained([plan(run) for run in runs]), jobs, cluster, timeout)
    for run in runs:
        done = []
        for _ in range(run.total):
            record = next(records)
            if each is not None:
                each(record)
            done.append(record)
        yield done


def play(
    tasks: Iterable[GameTask], jobs: int = 1, cluster: str | None = None, timeout: float = DEFAULT_TIMEOUT
) -> Iterator[GameRecord]:
    """Play ``tasks``, yielding each record in task order as soon as it and those before it are done:
    in this process, in ``jobs`` local processes, or on a Dask cluster (:func:`sgcheck.distribute.map_ordered`,
    the one place that decides where work runs). A task carries its cards, scenario and seed, so the
    records are the same wherever it is played."""
    return map_ordered(play_task, tasks, jobs=jobs, cluster=cluster, timeout=timeout)
