"""``sgcheck replay --explain LINE``, ``--at TURN`` and ``--format json --timeline``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING

import jsonschema
import pytest
from click.testing import CliRunner

from sgcheck.cli import main

if TYPE_CHECKING:
    from conftest import Golden

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = Path(__file__).with_name("golden")
EXAMPLE_A = "examples/logs/guide-example-a.sglog"
RELICS = "examples/logs/relic-game.sglog"
SCHEMA = json.loads((ROOT / "schemas" / "report.schema.json").read_text(encoding="utf-8"))


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, ["replay", *args])
    return result.exit_code, result.stdout, result.stderr


@pytest.mark.parametrize(
    ("name", "args"),
    [
        ("explain-example-a-line-22", ("--explain", "22", EXAMPLE_A)),
        ("explain-example-a-turn-4", ("--at", "4", EXAMPLE_A)),
        ("explain-relic-game-turn-10", ("--at", "10", RELICS)),
        ("explain-illegal-move-line-6", ("--explain", "6", "examples/logs/broken/illegal-move.sglog")),
    ],
)
def test_explain_output_matches_golden(
    name: str, args: tuple[str, ...], monkeypatch: pytest.MonkeyPatch, golden: Golden
) -> None:
    monkeypatch.chdir(ROOT)
    code, out, err = run(*args)
    assert code == (1 if "illegal" in name else 0), err
    golden.check(GOLDEN / f"{name}.txt", out)


def test_explain_shows_the_numbers_and_the_position_after_the_action() -> None:
    """core §4.1, §4.2: the worked example's cost 12 and threshold 60, then the board after the attack."""
    code, out, _ = run("--explain", "22", str(ROOT / EXAMPLE_A))
    assert code == 0
    assert "line 22 · turn 4. · White · Battle" in out
    assert "12 = 2×Rook 5 + distance 2  (core §4.1, R08)" in out
    assert "60 = 20 + 10×(Rook 5 − Pawn 1)  (core §4.2, R10)" in out
    assert "position after line 22 (after the action):" in out
    assert "  3 R . . . . . . ." in out  # the Rook on a3, the Pawn on a5 gone
    assert "White  LP 3    SP 5    King damage 0/20" in out


def test_at_takes_the_logs_turn_notation() -> None:
    code, out, _ = run("--at", "3...", str(ROOT / EXAMPLE_A))
    assert code == 0 and "turn 3... · Black · End" in out and "+6 LP" in out
    code, white, _ = run("--at", "3.", str(ROOT / EXAMPLE_A))
    assert code == 0 and "turn 3. · White · End" in white
    assert run("--at", "3", str(ROOT / EXAMPLE_A))[1] == white


def test_a_line_without_a_statement_is_a_usage_error_naming_the_nearest() -> None:
    code, out, err = run("--explain", "16", str(ROOT / EXAMPLE_A))  # `1... upkeep: summon` is line 16
    assert code == 0
    code, out, err = run("--explain", "5", str(ROOT / EXAMPLE_A))  # a header tag
    assert code == 2 and out == ""
    assert "line 5 has no statement to explain; the nearest lines with one: 15" in err
    code, _, err = run("--explain", "18", str(ROOT / EXAMPLE_A))
    assert code == 0, err
    code, _, err = run("--explain", "999", str(ROOT / EXAMPLE_A))
    assert code == 2 and "the nearest lines with one: 22" in err
    assert "Traceback" not in err


def test_a_turn_the_log_does_not_have() -> None:
    code, _, err = run("--at", "9...", str(ROOT / EXAMPLE_A))
    assert code == 2 and "turn 9... has nothing to explain; the log's turns run from 1. to 4." in err
    code, _, err = run("--at", "four", str(ROOT / EXAMPLE_A))
    assert code == 2 and "'four' is not a turn" in err
    code, _, err = run("--at", "0", str(ROOT / EXAMPLE_A))
    assert code == 2 and "is not a turn" in err


def test_explain_needs_one_log_and_text() -> None:
    code, _, err = run("--explain", "22", str(ROOT / EXAMPLE_A), str(ROOT / RELICS))
    assert code == 2 and "--explain explains one game log; 2 were given or found" in err
    code, _, err = run("--at", "4", str(ROOT / "examples" / "logs"))
    assert code == 2 and "--at explains one game log" in err
    code, _, err = run("--explain", "22", "--format", "json", str(ROOT / EXAMPLE_A))
    assert code == 2 and "cannot be used with --format json" in err
    code, _, err = run("--explain", "22", "--at", "4", str(ROOT / EXAMPLE_A))
    assert code == 2 and "cannot be used together" in err
    code, _, err = run("--timeline", str(ROOT / EXAMPLE_A))
    assert code == 2 and "--timeline" in err and "--format json" in err


def test_a_refused_statement_is_explained_and_the_exit_says_the_log_has_an_error() -> None:
    code, out, _ = run("--explain", "6", str(ROOT / "examples" / "logs" / "broken" / "illegal-move.sglog"))
    assert code == 1
    assert "· refused" in out and "SG-R103 illegal move: a Rook moves along ranks and files" in out


def test_json_timeline_lists_every_explanation_and_fits_the_schema() -> None:
    code, out, _ = run("--format", "json", "--timeline", str(ROOT / EXAMPLE_A), str(ROOT / RELICS))
    assert code == 0
    document = json.loads(out)
    jsonschema.Draft202012Validator(SCHEMA).validate(document)
    first, second = document["files"]
    assert "timeline" not in first["facts"]  # the positions are the HTML page's, not the report's
    lines = [e["line"] for e in first["timeline"]]
    assert lines == sorted(lines) and 22 in lines
    attack = next(e for e in first["timeline"] if e["line"] == 22 and e["kind"] == "statement")
    assert {fact["key"]: fact["value"] for fact in attack["facts"]}["threshold"] == 60
    assert any(fact["key"] == "threshold" and fact["parts"] for e in second["timeline"] for fact in e["facts"])


def test_json_without_timeline_has_none() -> None:
    code, out, _ = run("--format", "json", str(ROOT / EXAMPLE_A))
    assert code == 0
    [only] = json.loads(out)["files"]
    assert "timeline" not in only and "timeline" not in only["facts"]


def test_exit_zero_and_output_file(tmp_path: Path) -> None:
    illegal = str(ROOT / "examples" / "logs" / "broken" / "illegal-move.sglog")
    assert run("--explain", "6", "--exit-zero", illegal)[0] == 0
    code, _, err = run("--explain", "22", "-o", str(tmp_path / "out.txt"), str(ROOT / EXAMPLE_A))
    assert code == 2 and "-o/--output-file" in err and not (tmp_path / "out.txt").exists()


def test_a_log_from_standard_input_and_one_that_cannot_be_replayed(tmp_path: Path) -> None:
    text = (ROOT / EXAMPLE_A).read_text(encoding="utf-8")
    result = CliRunner().invoke(main, ["replay", "--explain", "22", "-"], input=text)
    assert result.exit_code == 0 and "12 = 2×Rook 5 + distance 2" in result.stdout
    binary = tmp_path / "binary.sglog"
    binary.write_bytes(b"\x00\x01king white e1\n")
    code, out, err = run("--explain", "1", str(binary))
    assert code == 1 and "SG-P005" in out and "nothing to explain" in err and "Traceback" not in err
