"""Tasks for the tests of ``sgcheck.distribute``: module functions, so that the worker processes of
a pool or a cluster import them by name (``tests/`` is on their path, as on the tests')."""

from __future__ import annotations

import os
import random
import time
from pathlib import Path


def seeded(task: int) -> tuple[int, float]:
    """A pure task: its result depends on the task alone (a seeded draw, as a game's dice)."""
    return task, random.Random(task).random()


def fails_on_five(task: int) -> int:
    if task == 5:
        raise ArithmeticError(f"task {task} cannot be done")
    return task * 2


def slow(task: tuple[str, int]) -> tuple[int, float]:
    """A pure task that takes a while, leaving a mark when it starts and when it ends in the
    process that runs it (``INDEX-PID.start``, ``INDEX-PID.end`` in the task's folder), so a test
    can tell which tasks a killed worker lost."""
    folder, index = task
    mark = Path(folder) / f"{index}-{os.getpid()}"
    mark.with_suffix(".start").touch()
    time.sleep(0.5)
    mark.with_suffix(".end").touch()
    return seeded(index)
