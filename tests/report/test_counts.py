"""Counts say what they count, with the right plural, in every command's output; "turn" means
one player's turn everywhere (core §2: ``N.`` is White's turn N, ``N...`` Black's)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from sgcheck.cli import main
from sgcheck.diagnostics import Diagnostic, Severity, plural
from sgcheck.replay.interpreter import replay_text
from sgcheck.replay.summary import headline, replay_summary, summary_facts
from sgcheck.report import render
from sgcheck.report.html import _headline
from sgcheck.report.replay_text import summary_text
from sgcheck.report.text import file_kinds, totals_line
from sgcheck.results import FileResult, ReplayFacts, Run

ROOT = Path(__file__).resolve().parents[2]
FULL_GAME = ROOT / "examples" / "logs" / "full-game.sglog"
STARTER = ROOT / "examples" / "packs" / "starter"


@pytest.mark.parametrize(("count", "expected"), [(0, "0 files"), (1, "1 file"), (2, "2 files"), (21, "21 files")])
def test_plural_is_singular_for_exactly_one(count: int, expected: str) -> None:
    assert plural(count, "file") == expected


def test_plural_with_an_irregular_plural() -> None:
    assert plural(2, "fix", "fixes") == "2 fixes" and plural(1, "fix", "fixes") == "1 fix"


def test_totals_line_plurals() -> None:
    assert totals_line({Severity.ERROR: 1}, 1) == "1 file checked: 1 error"
    assert totals_line({Severity.WARNING: 2, Severity.NOTE: 1}, 0) == "0 files checked: 2 warnings, 1 note"


def test_file_kinds_are_named_when_they_are_several() -> None:
    paths = ["p/sgpack.yaml", "p/relics.sgcard.yaml", "p/spells.sgcard"]
    assert file_kinds(paths) == "2 card files, 1 manifest"
    assert file_kinds(["a.sglog", "b.sglog"]) == ""  # one kind: "2 files" says it
    assert file_kinds(["a.sgcard", "notes.txt"]) == ""  # a file of no known kind: no breakdown
    assert file_kinds(["a.sglog", "s.scenario.yaml"]) == "1 log, 1 scenario"


def test_text_report_totals_name_the_kinds() -> None:
    run = Run("check", (FileResult("p/sgpack.yaml", ()), FileResult("p/cards.sgcard", ())))
    assert render(run, "text").splitlines()[-1] == "2 files checked (1 card file, 1 manifest): no problems found"


def test_check_of_a_pack_counts_card_files_and_the_manifest(monkeypatch: pytest.MonkeyPatch) -> None:
    """The pack summary and the totals line count the same files, each by kind."""
    monkeypatch.chdir(ROOT)
    result = CliRunner().invoke(main, ["check", "examples/packs/starter"])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert "pack starter 1.0.0 (core): 2 card files and 1 manifest · 6 cards" in lines
    assert lines[-1] == "3 files checked (2 card files, 1 manifest): no problems found"
    assert not any("1 files" in line or "1 cards" in line for line in lines)


def test_junit_more_findings_plural() -> None:
    one = Diagnostic("SG-R101", Severity.ERROR, "no piece there")
    run = Run("replay", (FileResult("g.sglog", (one, one)),))
    assert "(and 1 more error)" in render(run, "junit")
    run = Run("replay", (FileResult("g.sglog", (one, one, one)),))
    assert "(and 2 more errors)" in render(run, "junit")


# --- turns -------------------------------------------------------------------------------------------


def full_game() -> tuple[str, ReplayFacts]:
    result = replay_text(FULL_GAME.read_text(encoding="utf-8"), "full-game.sglog")
    return summary_text(replay_summary(result)), summary_facts(result)


def test_a_count_of_turns_counts_players_turns_and_names_the_first_and_last() -> None:
    """core §2: White's turns 1 to 120 and Black's 1 to 119 are 239 turns."""
    text, facts = full_game()
    assert "replayed 239 turns (1. to 120.) and 155 actions" in text
    assert facts.turns == 239 and facts.first_turn == "1." and facts.last_turn == "120."


def test_a_turn_number_comes_with_its_player() -> None:
    """The headline and the JSON result name whose turn the game ended on (core §4.4, R11)."""
    text, facts = full_game()
    assert text.startswith("legal game, White wins by King conversion on White's turn 120\n")
    result = facts.result
    assert result is not None and result.turn == 120 and result.winner == "White"


def test_one_turn_is_singular() -> None:
    result = replay_text("king white e1\nking black e8\n1. end: pass\n", "t.sglog")
    assert "replayed 1 turn (1.) and 0 actions" in summary_text(replay_summary(result))
    assert headline(replay_summary(result)) == "legal so far: the game is unfinished (Black to play turn 1)"


def test_no_turn_replayed() -> None:
    result = replay_text("king white e1\nking black e8\n", "t.sglog")
    facts = summary_facts(result)
    assert "replayed 0 turns and 0 actions" in summary_text(replay_summary(result))
    assert facts.first_turn is None and facts.last_turn is None


def test_html_header_says_the_same_as_the_summary() -> None:
    _, facts = full_game()
    style, text = _headline(FileResult("full-game.sglog", (), facts=facts))
    assert style == "good"
    assert text == "legal game, White wins by King conversion on White's turn 120 · 239 turns (1. to 120.), 155 actions"


def test_json_facts_keep_their_keys(monkeypatch: pytest.MonkeyPatch) -> None:
    """docs/output-formats.md: within version 1 existing fields keep their meaning."""
    monkeypatch.chdir(ROOT)
    result = CliRunner().invoke(main, ["replay", "--format", "json", "examples/logs/full-game.sglog"])
    facts = json.loads(result.output)["files"][0]["facts"]
    assert {"turns", "actions", "result", "final"} <= set(facts)
    # a count of turns, and turn numbers that come with their player: the game ended on 120.
    assert facts["turns"] == 239 and facts["last_turn"] == "120."
    assert (facts["final"]["turn"], facts["final"]["to_move"]) == (120, "White")
    assert (facts["result"]["turn"], facts["result"]["winner"]) == (120, "White")
