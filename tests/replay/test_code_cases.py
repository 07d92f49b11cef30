"""Replay's codes have example cases, as the contract rules' codes do: a log that produces the
code, where and with what message (``sgcheck/replay/cases/CODE.yaml``, named in docs/diagnostics.md).

Every code a log can produce has one. The few no log can (an input over a limit, a formatting
code, a failure of sgcheck itself, a guard the core gives no way to reach) are listed here, each
with why and the test that produces it instead; the named tests are run and each must build its
code, so the list cannot outlive what it points at. A case added for a listed code fails
until the code is taken off the list.
"""

from __future__ import annotations

import ast
import json
import os
import re
import subprocess
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from sgcheck.cli import main
from sgcheck.codes import REPLAY_CODES, Family
from tests import installed

from .code_cases import CASES_DIR, ROOT, CodeCase, load_case_file, load_cases, mismatches, replay_case, write_case

CASES = load_cases()

#: Replay's codes that no example case can show, each with why and the test that produces it
#: instead (``FILE::TEST``, a test function of that file that names the code).
WITHOUT_CASE: dict[str, tuple[str, str]] = {
    "SG-P008": (
        "a log that is not there, is a folder or changes while it is read: a case is a log that is there",
        "tests/cli/test_replay_cli.py::test_unreadable_file_is_reported_and_exits_2",
    ),
    "SG-P009": (
        "sgcheck fmt or check --fix leaving a file it could not rewrite: not replay",
        "tests/cli/test_safe_writes.py::test_a_read_only_file_is_refused_even_as_root",
    ),
    "SG-P010": (
        "an input over its size limit (64,000,000 bytes for a log): no case holds that much",
        "tests/test_limits.py::test_an_endless_log_is_refused_at_the_size_limit",
    ),
    "SG-P011": (
        "a line of more than 10,000 characters: a case file a reader cannot take in",
        "tests/test_limits.py::test_a_long_log_line_is_refused_where_it_crosses_the_limit",
    ),
    "SG-P039": (
        "sgcheck fmt leaving a YAML card file as it is: not replay",
        "tests/lang/test_fmt_yaml.py::test_a_comment_inside_a_flow_collection_leaves_the_file_as_it_is",
    ),
    "SG-P040": (
        "sgcheck fmt --fill-claims stopping where replay stops: not replay",
        "tests/cli/test_fmt_fill_claims.py::test_an_illegal_action_stops_filling_with_a_diagnostic",
    ),
    "SG-R135": (
        "a King damaged outside an attack: the core has no way to do it (a card that would is refused, SG-R123)",
        "tests/core/test_watch_king_damage.py::test_sg_r135_a_king_damaged_by_a_card_played_is_a_breach_naming_the_card",
    ),
    "SG-D105": (
        "a log of more than 4096 rolls (each a statement with verifiable dice): too long for a case",
        "tests/replay/test_dice_chain_end.py::test_sg_d105_the_roll_past_the_chains_end_is_reported_once_where_it_is",
    ),
    "SG-X001": (
        "sgcheck failing on an input: a bug, and a log that produces it is fixed, not kept",
        "tests/cli/test_cli_io.py::test_a_failure_on_one_log_is_reported_on_it_and_the_others_still_are",
    ),
}


@pytest.mark.parametrize("case", CASES, ids=lambda case: case.id)
def test_each_case_produces_its_findings(case: CodeCase, tmp_path: Path) -> None:
    problems = mismatches(case, replay_case(case, tmp_path))
    assert problems == [], f"{case.source.name}: {case.name}"


def test_every_replay_code_has_a_case_or_is_listed_without_one() -> None:
    with_case = {f"SG-{path.stem}" for path in CASES_DIR.glob("*.yaml")}
    assert with_case <= set(REPLAY_CODES), "a case file is named after a code of replay"
    assert not with_case & set(WITHOUT_CASE), "a code with a case comes off WITHOUT_CASE"
    assert set(REPLAY_CODES) - with_case == set(WITHOUT_CASE)


@pytest.mark.parametrize("code", sorted(WITHOUT_CASE))
def test_a_code_without_a_case_names_a_test_that_produces_it(code: str) -> None:
    """The test named is a test function of that file, and its body names the code: a test
    renamed, moved or no longer about the code is told here."""
    reason, pointer = WITHOUT_CASE[code]
    assert reason
    path, _, name = pointer.partition("::")
    assert path.startswith("tests/") and path.endswith(".py") and name.startswith("test_"), pointer
    source = (ROOT / path).read_text(encoding="utf-8")
    tests = {node.name: node for node in ast.parse(source).body if isinstance(node, ast.FunctionDef)}
    assert name in tests, f"{pointer}: no such test"
    test = tests[name]
    docstring = ast.get_docstring(test, clean=False)
    said = [
        node.value
        for node in ast.walk(test)
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value != docstring
    ]
    assert any(code in text for text in said), f"{pointer} names {code} in no string outside its docstring"
    assert path != "tests/replay/test_code_cases.py", "the test is not this list's own"


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


def test_each_code_without_a_case_is_produced_by_the_test_it_names(tmp_path: Path) -> None:
    """An oracle beyond the names: the tests named are run, with every finding built while each
    runs recorded (``tests/replay/code_recorder.py``); each passes and builds its code."""
    record = tmp_path / "codes.json"
    pointers = sorted({pointer for _reason, pointer in WITHOUT_CASE.values()})
    command = [sys.executable, "-m", "pytest", "-q", "-p", "tests.replay.code_recorder", "-p", "no:cacheprovider"]
    env = {**os.environ, "PYTHONPATH": installed.pythonpath(), "SGCHECK_CODES_RECORD": str(record)}
    run = subprocess.run([*command, *pointers], cwd=ROOT, env=env, capture_output=True, text=True, timeout=900)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    found = json.loads(record.read_text(encoding="utf-8"))
    for code, (_reason, pointer) in sorted(WITHOUT_CASE.items()):
        runs = {node: seen for node, seen in found.items() if node == pointer or node.startswith(pointer + "[")}
        assert runs, f"{pointer} did not run"
        assert all(seen["outcome"] == "passed" for seen in runs.values()), (pointer, runs)
        assert any(code in seen["codes"] for seen in runs.values()), f"{pointer} does not produce {code}: {runs}"


def _cli_findings(case: CodeCase, tmp_path: Path) -> tuple[int, list[dict[str, Any]]]:
    """The exit status and the findings on the case's log of ``sgcheck replay --format json``,
    run on the case's logs as a user runs it."""
    logs = write_case(case, tmp_path)
    flags = ["--keep-going"] * case.keep_going + ["--allow-violations"] * case.allow_violations
    result = CliRunner().invoke(main, ["replay", "--format", "json", "--no-summary", *flags, *map(str, logs)])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    files = json.loads(result.output)["files"]
    (own,) = [f for f in files if Path(f["path"]).resolve() == logs[0].resolve()]
    return result.exit_code, own["diagnostics"]


@pytest.mark.parametrize("case", CASES, ids=lambda case: case.id)
def test_the_command_line_reports_what_each_case_expects(case: CodeCase, tmp_path: Path) -> None:
    """An oracle the runner does not share: the command a user runs, its JSON read back. Each code
    the case names is reported there as often, at the same places, with the same words; the exit
    status is 1 when one of them is an error and 0 when the run has only warnings (docs/ci.md)."""
    status, found = _cli_findings(case, tmp_path)
    for code in {e.code for e in case.expect}:
        wanted = sorted((e.file or "", e.line, e.column) for e in case.expect if e.code == code)
        got = [d for d in found if d["code"] == code]
        name = [Path(d["span"]["source"]).name for d in got]
        places = sorted(
            ("" if n.endswith(".sglog") else n, d["span"]["line"], d["span"]["column"])
            for n, d in zip(name, got, strict=True)
        )
        assert places == wanted, (code, [d["message"] for d in got])
        for entry in case.expect:
            if entry.code == code and entry.message is not None:
                assert any(entry.message in d["message"] for d in got), (code, entry.message)
    errors = any(d["severity"] == "error" for d in found)
    assert status == (1 if errors else 0), found


@pytest.mark.parametrize(
    ("extra", "words"),
    [
        ("    files: {../outside.sgcard: x}\n", "is not a file name in the case's folder"),
        ("    files: {/etc/passwd: x}\n", "is not a file name in the case's folder"),
        ("    files: {pack/../../x: x}\n", "is not a file name in the case's folder"),
        ("    logs: {other.txt: x}\n", "another log of the run is named NAME.sglog"),
        ("    logs: {game.sglog: x}\n", "another log of the run is named NAME.sglog"),
    ],
)
def test_a_case_writes_only_inside_its_own_folder(tmp_path: Path, extra: str, words: str) -> None:
    path = tmp_path / "R204.yaml"
    expect = '    expect:\n      - {code: SG-R204, at: "1:1"}\n'
    path.write_text(f"code: SG-R204\nfail:\n  - name: x\n    log: |\n      king white e1\n{extra}{expect}")
    with pytest.raises(ValueError, match=re.escape(words)):
        load_case_file(path)
