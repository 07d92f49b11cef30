"""Hypothesis on scenarios (R24): random scenario text and bytes, and random mutations of the
shipped scenarios and of their logs, through ``sgcheck check`` and ``sgcheck replay --scenario``.

Every run keeps the promises of :func:`harness.check_sane`: exit status 0, 1 or 2, no traceback,
no internal error, and a complete, valid report in the format asked for.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from .harness import (
    EXAMPLES,
    FORMATS,
    Mutation,
    apply_mutations,
    check_sane,
    mutations,
    run_in_process,
    scratch_folder,
)
from .test_random_inputs import ODD, YAML_WORDS

FUZZ = settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])

SCENARIO_WORDS = [
    *["name:", "Siege", "first:", "white", "black", "turn_limit:", "0", "3", "white:", "black:", "lp:", "sp:"],
    *["gem:", "own:", "captured:", "{R: 1}", "{P: 9}", "pieces:", "[Ke1, Ra3]", "[Ke4]", "[Pi9]", "[Ra3, Pa3]"],
    *["markers:", "wells:", "{white: [c3], black: [c6]}", "[d4, d4]", "win:", "core:", "false", "true"],
    *["conditions:", "- break_and_capture: {}", "- hold_markers: {set: wells}", "- hold_markers: {set: x}"],
    *["- captured_value: {at_least: 99}", "rules:", "set:", "cost.move: 3", "king_hp: 30", "phases: []"],
    *YAML_WORDS,
    *ODD,
]
SCENARIOS = sorted((EXAMPLES / "scenarios").glob("**/*.scenario.yaml"))
SCENARIO_LOGS = sorted((EXAMPLES / "scenarios").glob("*.sglog"))
GAME = EXAMPLES / "scenarios" / "gem-siege.sglog"


def _words(words: list[str], max_size: int = 50) -> st.SearchStrategy[str]:
    pieces = st.one_of(st.sampled_from(words), st.text(max_size=4))
    return st.tuples(st.lists(pieces, max_size=max_size), st.sampled_from(["\n", "\n  ", " "])).map(
        lambda parts: parts[1].join(parts[0])
    )


def _both(path: Path, fmt: str) -> None:
    """The scenario checked on its own, and a game replayed under it."""
    check_sane(run_in_process("check", "--isolated", str(path), fmt=fmt))
    check_sane(run_in_process("replay", "--scenario", str(path), str(GAME), fmt=fmt), inputs=1)


@FUZZ
@given(text=_words(SCENARIO_WORDS), fmt=st.sampled_from(FORMATS))
def test_random_scenario_text(text: str, fmt: str) -> None:
    path = scratch_folder() / "random.scenario.yaml"
    path.write_text(text, encoding="utf-8")
    _both(path, fmt)


@FUZZ
@given(data=st.binary(max_size=400), fmt=st.sampled_from(FORMATS))
def test_random_scenario_bytes(data: bytes, fmt: str) -> None:
    path = scratch_folder() / "bytes.scenario.yaml"
    path.write_bytes(data)
    _both(path, fmt)


@FUZZ
@given(source=st.sampled_from(SCENARIOS), data=st.data(), fmt=st.sampled_from(FORMATS))
def test_randomly_mutated_shipped_scenarios(source: Path, data: st.DataObject, fmt: str) -> None:
    steps: list[Mutation] = data.draw(mutations(source.read_bytes(), min_size=1, max_size=4))
    path = scratch_folder() / "mutated.scenario.yaml"
    path.write_bytes(apply_mutations(source.read_bytes(), steps))
    _both(path, fmt)


@FUZZ
@given(source=st.sampled_from(SCENARIO_LOGS), data=st.data(), fmt=st.sampled_from(FORMATS))
def test_randomly_mutated_scenario_logs(source: Path, data: st.DataObject, fmt: str) -> None:
    """A shipped scenario log, mutated, replayed from a folder holding its scenarios (its tag resolves)."""
    folder = scratch_folder() / "logs"
    if not folder.exists():
        folder.mkdir()
        for scenario in SCENARIOS:
            shutil.copy(scenario, folder / scenario.name)
    steps: list[Mutation] = data.draw(mutations(source.read_bytes(), min_size=1, max_size=4))
    path = folder / "mutated.sglog"
    path.write_bytes(apply_mutations(source.read_bytes(), steps))
    check_sane(run_in_process("replay", "--keep-going", str(path), fmt=fmt), inputs=1)
