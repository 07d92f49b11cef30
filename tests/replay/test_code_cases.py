"""Replay's codes have example cases, as the contract rules' codes do: a log that produces the
code, where and with what message (``sgcheck/replay/cases/CODE.yaml``, named in docs/diagnostics.md).

The codes still without a case are listed here by name, so the list can only shrink: a case added
for one of them fails until it is taken off the list.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from sgcheck.codes import REPLAY_CODES, Family

from .code_cases import CASES_DIR, ROOT, CodeCase, load_cases, mismatches, replay_case

CASES = load_cases()

#: Replay's codes without an example case yet, and why.
WITHOUT_CASE = {
    # Bytes a YAML case cannot hold (NUL, invalid UTF-8), a file that is missing, or inputs over a
    # limit: tests/fuzz/corpus/logs and tests/test_limits.py produce them.
    "SG-P004", "SG-P005", "SG-P008", "SG-P010", "SG-P011", "SG-P012",
    # Formatting and its claims filling (sgcheck fmt), not replay: tests/cli/test_fmt*.py.
    "SG-P009", "SG-P039", "SG-P040",
    # A scenario condition that can never hold (a warning), a pack's module section:
    # tests/replay/test_scenario_examples.py, tests/replay/test_modules.py.
    "SG-P036", "SG-P038",
    # A draft's hand, a market reveal or a broken Gem: tests/replay/test_interpreter.py,
    # tests/replay/test_modules.py.
    "SG-S105", "SG-T109", "SG-R111",
    # Cards in play that the shipped packs do not have (limits, targets, denials, breaches of the
    # contract, house rules): tests/replay/test_game_pack.py, tests/replay/test_watch_in_replay.py.
    "SG-R123", "SG-R124", "SG-R125", "SG-R127", "SG-R128",
    "SG-R130", "SG-R131", "SG-R132", "SG-R133", "SG-R134", "SG-R135", "SG-R136", "SG-R137", "SG-R138", "SG-R139",
    "SG-N302", "SG-N305",
    # Verifiable dice: tests/replay/test_dice_check.py (SG-D107 needs two logs of one run).
    "SG-D105", "SG-D107",
    # sgcheck failing on an input: tests/test_api.py and the fuzz harness.
    "SG-X001",
}  # fmt: skip


@pytest.mark.parametrize("case", CASES, ids=lambda case: case.id)
def test_each_case_produces_its_findings(case: CodeCase, tmp_path: Path) -> None:
    problems = mismatches(case, replay_case(case, tmp_path))
    assert problems == [], f"{case.source.name}: {case.name}"


def test_every_replay_code_has_a_case_or_is_listed_without_one() -> None:
    with_case = {f"SG-{path.stem}" for path in CASES_DIR.glob("*.yaml")}
    assert with_case <= set(REPLAY_CODES), "a case file is named after a code of replay"
    assert not with_case & WITHOUT_CASE, "a code with a case comes off WITHOUT_CASE"
    assert set(REPLAY_CODES) - with_case == WITHOUT_CASE


def test_the_cases_cover_every_family_a_log_can_produce() -> None:
    families = {REPLAY_CODES[case.code].family for case in CASES}
    assert families >= {Family.LOG_INPUT, Family.INPUT, Family.SETUP, Family.TURN, Family.ACTION, Family.CLAIM}
    assert families >= {Family.NOTE, Family.DICE}


def test_a_case_names_a_log_that_is_there() -> None:
    for case in CASES:
        if case.file is not None:
            assert (ROOT / case.file).is_file(), case.id
            assert case.file.endswith(".sglog"), case.id
        if case.pack is not None:
            assert (ROOT / case.pack / "sgpack.yaml").is_file(), case.id


def test_a_case_that_expects_what_the_log_does_not_produce_fails(tmp_path: Path) -> None:
    """The comparison is not vacuous: a wrong place, a wrong message and a missing finding are told."""
    (case,) = [c for c in CASES if c.code == "SG-R204"]
    found = replay_case(case, tmp_path)
    (entry,) = case.expect
    moved = replace(case, expect=(replace(entry, line=1, column=1),))
    assert mismatches(moved, found)
    worded = replace(case, expect=(replace(entry, message="no such words"),))
    assert mismatches(worded, found)
    assert mismatches(case, tuple(d for d in found if d.code != "SG-R204"))
