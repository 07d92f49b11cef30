"""The Python library (sgcheck.api, docs/api.md): every documented example runs, and what it
returns agrees with the command line and the core it calls, checked against them here."""

from __future__ import annotations

import doctest
import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

import sgcheck
from sgcheck import api
from sgcheck.cli import main
from sgcheck.core.legal import legal_actions
from sgcheck.diagnostics import Diagnostic
from sgcheck.lang.logs.writer import format_log
from sgcheck.replay.generate import generate_game

ROOT = Path(__file__).resolve().parents[1]
KINGS = "rolloff white 5 4 3 black 2 2 1\nking white e1\nking black e8\n"


def _line(diagnostic: dict[str, object]) -> int:
    span = diagnostic["span"]
    return span["line"] if isinstance(span, dict) else 0


@pytest.fixture
def at_root(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)


def test_every_example_of_the_api_page_runs(at_root: None) -> None:
    failed, tried = doctest.testfile(str(ROOT / "docs" / "api.md"), module_relative=False, verbose=False)
    assert tried > 20 and failed == 0


def test_the_module_s_own_example_runs(at_root: None) -> None:
    failed, tried = doctest.testmod(api, verbose=False)
    assert tried and failed == 0


def test_the_public_names_are_served_from_the_package_and_typed() -> None:
    assert set(sgcheck.__all__) - {"__version__"} == set(api.__all__)
    assert all(getattr(sgcheck, name) is getattr(api, name) for name in api.__all__)
    assert (ROOT / "sgcheck" / "py.typed").is_file()
    with pytest.raises(AttributeError):
        sgcheck.no_such_name  # noqa: B018


@pytest.mark.parametrize(
    "log",
    [
        "examples/logs/broken/every-kind-of-line.sglog",
        "examples/logs/relic-game.sglog",
        "examples/logs/full-game.sglog",
    ],
)
def test_findings_are_the_ones_replay_reports_in_json(log: str, at_root: None) -> None:
    """The oracle is the command line's JSON report of the same log."""
    shown = CliRunner().invoke(main, ["replay", "--keep-going", "--format", "json", log])
    report = json.loads(shown.output)
    [file] = report["files"]
    expected = [(d["code"], d["severity"], d["message"], _line(d)) for d in file["diagnostics"]]
    game = sgcheck.read_game(log)
    assert [(f.code, f.severity, f.message, f.line) for f in game.findings] == expected
    assert game.legal is (not any(f.is_error for f in game.findings))


def test_check_pack_is_what_check_reports(at_root: None) -> None:
    target = "examples/cards/broken"
    shown = CliRunner().invoke(main, ["check", "--format", "json", target])
    report = json.loads(shown.output)
    expected = [(d["code"], _line(d)) for f in report["files"] for d in f["diagnostics"]]
    assert [(f.code, f.line) for f in sgcheck.check_pack(target)] == expected and expected


def test_a_pack_that_breaks_the_contract_is_not_playable(at_root: None) -> None:
    pack = sgcheck.read_pack("examples/packs/broken")
    assert not pack.playable and any(f.is_error for f in pack.findings)
    with pytest.raises(OSError):
        sgcheck.read_pack("examples/no-such-pack")


def test_the_end_position_is_the_state_replay_reached(at_root: None) -> None:
    from sgcheck.lang.source import read_source
    from sgcheck.replay.interpreter import ReplayOptions, replay_source

    log = "examples/logs/full-game.sglog"
    source = read_source(log)
    assert not isinstance(source, Diagnostic)
    result = replay_source(source, ReplayOptions(keep_going=True), folder="examples/logs")
    game = sgcheck.read_game(log)
    assert game.end is not None and game.end.state == result.state


def test_pushing_a_number_out_of_range_or_a_dice_action_without_dice_is_a_value_error() -> None:
    start = sgcheck.parse_game(KINGS).positions[0]
    count = len(start.legal_actions)
    for wrong in (0, count + 1, -1):
        with pytest.raises(ValueError, match="numbered 1 to"):
            start.push(wrong)
    with pytest.raises(ValueError, match="no colour"):
        start.lp("green")


def test_a_missing_file_is_an_os_error() -> None:
    with pytest.raises(OSError):
        sgcheck.read_game("examples/logs/no-such-game.sglog")


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10_000), index=st.integers(0, 10_000))
def test_every_listed_action_is_legal_and_numbered_as_the_core_lists_it(seed: int, index: int) -> None:
    """Invariant over positions of generated games: the listing is the core's, numbered from 1,
    and each action pushes (dice-bearing ones with dice of the count the core asks for)."""
    game = sgcheck.parse_game(format_log(generate_game(seed, max_turns=8).items), name="g.sglog")
    assert game.legal
    position = game.positions[index % len(game.positions)]
    listed = position.legal_actions
    assert [a.action for a in listed] == list(legal_actions(position.state))
    assert [a.number for a in listed] == list(range(1, len(listed) + 1))
    for legal in listed:
        roll = {"attack": (0, 0), "break": (1, 1, 1), "repair": (1, 1, 1)}.get(legal.text.split()[0])
        after = position.push(legal.number, roll=roll if legal.needs_roll else None)
        assert after is not position and position.state is not after.state
