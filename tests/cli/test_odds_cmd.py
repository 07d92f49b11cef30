"""``sgcheck odds``: the tables and the capture question at the command line, text and JSON."""

from __future__ import annotations

import json
import re
import shlex
from fractions import Fraction
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from sgcheck.cli import main


def invoke(*args: str) -> Result:
    return CliRunner().invoke(main, ["odds", *args], catch_exceptions=False)


def test_bare_odds_prints_the_tables() -> None:
    result = invoke()
    assert result.exit_code == 0
    assert result.output == invoke("table").output
    lines = result.output.splitlines()
    assert lines[0].startswith("Accuracy: hit if d100 ≤ the threshold (core §4.2, core §4.4, R10)")
    assert lines[2].split() == ["attacker", "\\", "defender", "Pawn", "Knight", "Bishop", "Rook", "Queen", "King"]
    assert lines[3].split() == ["Pawn", "20", "5", "5", "5", "5", "10"]
    assert lines[6].split() == ["Rook", "60", "40", "40", "20", "5", "50"]  # guide A, C
    assert lines[7].split() == ["Queen", "95", "80", "80", "60", "20", "90"]  # guide B, intuition
    for title, corner in (
        ("Move cost", "piece \\ squares"),
        ("Attack cost", "piece \\ distance"),
        ("Summon cost", "piece \\ extra"),
    ):
        at = next(i for i, line in enumerate(lines) if line.startswith(title))
        assert lines[at + 2].startswith(corner), (title, lines[at + 2])  # every table's columns are labelled
    # columns line up: every number of a row ends where its header ends
    header = lines[2]
    for row in lines[3:8]:
        ends = [i for i, c in enumerate(row) if c != " " and (i + 1 == len(row) or row[i + 1] == " ")]
        header_ends = [i for i, c in enumerate(header) if c != " " and (i + 1 == len(header) or header[i + 1] == " ")]
        assert ends[1:] == header_ends[-6:]  # the corner "attacker \\ defender" is one cell


def test_bonus_is_given_to_odds_or_to_table() -> None:
    via_group, via_table = invoke("--bonus", "30"), invoke("table", "--bonus", "30")
    assert via_group.output == via_table.output
    assert "to-hit bonus +30, capped at +25 (core §4.5, R20)" in via_group.output
    assert "Rook                   85      65      65    45      5    75" in via_group.output


def test_tables_as_json() -> None:
    result = invoke("--format", "json")
    assert result.exit_code == 0
    data = json.loads(result.output)
    assert (data["bonus"], data["applied_bonus"]) == (0, 0)
    accuracy = {(e["attacker"], e["defender"]): e["threshold"] for e in data["accuracy"]}
    assert len(accuracy) == 5 * 6
    assert (accuracy["Rook", "Pawn"], accuracy["Queen", "Rook"], accuracy["Rook", "King"]) == (60, 60, 50)
    assert (accuracy["Queen", "King"], accuracy["Knight", "King"]) == (90, 30)
    attack = {(e["piece"], e["distance"]): e["cost"] for e in data["costs"]["attack"]["entries"]}
    assert attack["Rook", 2] == 12 and attack["Queen", 3] == 21
    summon = {(e["piece"], e["distance"]): e for e in data["costs"]["summon"]["entries"]}
    assert summon["Queen", 6]["cost"] == 20 and summon["Queen", 6]["worked"] == "Queen 9 + 5 + placement 6 from d1"


def test_capture_text() -> None:
    result = invoke("capture", "--attacker", "Rook", "--target", "pawn", "--distance", "2", "--lp", "20", "--sp", "8")
    assert result.exit_code == 0
    out = result.output
    assert "each attack: hit if d100 ≤ 60 (20 + 10×(Rook 5 − Pawn 1)): 60.00%" in out
    assert "Best plan: in Battle, attack up to 2 times from distance 2 for 12 each" in out
    assert "chance to capture this turn: 84.00% (exactly 21/25)" in out
    assert "expected spend: 16.8 (exactly 84/5), 8 of it from SP (SP first, R05); at most 24" in out
    assert "on capture: +5 SP (core §4.3)" in out
    assert out.splitlines()[-1].startswith("rules: core §3, core §4.1, core §4.2")


def test_capture_text_when_the_budget_cannot_capture() -> None:
    """The brief's own example: a Rook needs three hits on a Knight, 20 LP pays for one attack."""
    result = invoke("capture", "--attacker", "Rook", "--target", "Knight", "--distance", "2", "--lp", "20")
    assert result.exit_code == 0
    assert "No plan within 20 LP + 0 SP can capture the Knight this turn: 3 hits are needed" in result.output


def test_capture_json_with_a_move_and_a_reroll() -> None:
    result = invoke(
        "capture", "--attacker", "knight", "--target", "pawn", "--distance", "5", "--lp", "30",
        "--second-roll", "reroll", "--format", "json",
    )  # fmt: skip
    assert result.exit_code == 0
    data = json.loads(result.output)
    assert data["hit_chance"]["fraction"] == "16/25"  # 1 − 0.6², core §4.5
    assert Fraction(data["probability"]["fraction"]) == 1 - Fraction(9, 25) ** 2
    plan = data["plan"]
    assert (plan["moved"], plan["distance"], plan["attacks"]) == (3, 2, 2)
    assert [m["cost"] for m in plan["moves"]] == [6, 3]  # two jumps, then one (R07)
    assert Fraction(plan["expected_spend"]["fraction"]) == 9 + 8 + Fraction(9, 25) * 8
    assert sum(Fraction(s["chance"]) for s in plan["spend"]) == 1
    assert "R07" in data["rules"] and "R20" in data["rules"]


def test_capture_against_the_king_uses_its_damage_so_far() -> None:
    result = invoke(
        "capture", "--attacker", "Queen", "--target", "King", "--distance", "1", "--lp", "60",
        "--damage-so-far", "18", "--format", "json",
    )  # fmt: skip
    data = json.loads(result.output)
    assert (data["threshold"]["value"], data["hits_needed"], data["reward_sp"]) == (90, 2, 0)
    assert Fraction(data["probability"]["fraction"]) == Fraction(9, 10) ** 2 + 2 * Fraction(9, 10) ** 2 / 10


def test_output_is_deterministic() -> None:
    args = ("capture", "--attacker", "Bishop", "--target", "Knight", "--distance", "4", "--lp", "40", "--bonus", "15")
    assert invoke(*args).output == invoke(*args).output
    assert invoke(*args, "--format", "json").output == invoke(*args, "--format", "json").output


@pytest.mark.parametrize(
    ("args", "hint"),
    [
        (["capture", "--attacker", "Wizard", "--target", "Pawn", "--distance", "1", "--lp", "5"], "'--attacker'"),
        (["capture", "--attacker", "King", "--target", "Pawn", "--distance", "1", "--lp", "5"], "'--attacker'"),
        (["capture", "--attacker", "Rook", "--target", "Pawn", "--distance", "9", "--lp", "5"], "'--distance'"),
        (["capture", "--attacker", "Pawn", "--target", "Pawn", "--distance", "3", "--lp", "5"], "'--distance'"),
        (["capture", "--attacker", "Rook", "--target", "Pawn", "--distance", "2", "--lp", "-3"], "'--lp'"),
        (["capture", "--attacker", "Rook", "--target", "Pawn", "--distance", "2", "--lp", "5", "--sp", "-1"], "'--sp'"),
        (["capture", "--attacker", "Rook", "--target", "Rook", "--distance", "2", "--lp", "5", "--damage-so-far", "5"],
         "'--damage-so-far'"),
        (["--bonus", "500"], "'--bonus'"),
        (["capture", "--attacker", "Rook", "--target", "Pawn", "--lp", "5"], "'--distance'"),
        (["capture", "--attacker", "r", "--target", "Pawn", "--distance", "1"], "capitals, as in logs: 'R'"),
        (["capture", "--attacker", "Knigt", "--target", "P", "--distance", "1"], "did you mean 'Knight'?"),
        (["capture", "--attacker", "X", "--target", "P", "--distance", "1"], "'X' is not a piece (K Q R B N P"),
    ],
)  # fmt: skip
def test_bad_arguments_are_usage_errors(args: list[str], hint: str) -> None:
    result = CliRunner().invoke(main, ["odds", *args])
    assert result.exit_code == 2
    assert hint in result.output
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)


def test_pieces_are_written_as_logs_write_them_or_by_name() -> None:
    """K Q R B N P as in logs (capitals), or the name in any case: the same question."""
    by_letter = invoke("capture", "--attacker", "R", "--target", "N", "--distance", "2", "--lp", "30")
    by_name = invoke("capture", "--attacker", "rook", "--target", "Knight", "--distance", "2", "--lp", "30")
    assert by_letter.exit_code == by_name.exit_code == 0
    assert by_letter.output == by_name.output
    assert by_letter.output.startswith("Rook against Knight from distance 2")


def test_lp_defaults_to_the_starting_lp() -> None:
    from sgcheck.core.caps import START_LP

    default = invoke("capture", "--attacker", "Q", "--target", "P", "--distance", "3")
    given = invoke("capture", "--attacker", "Q", "--target", "P", "--distance", "3", "--lp", str(START_LP))
    assert default.exit_code == 0 and default.output == given.output
    assert f"with {START_LP} LP + 0 SP" in default.output.splitlines()[0]
    assert f"[default: {START_LP};" in " ".join(invoke("capture", "--help").output.split())


def test_the_capture_table_has_a_header_row() -> None:
    out = invoke("capture", "--attacker", "R", "--target", "P", "--distance", "2").output.splitlines()
    header = next(line.split("  ") for line in out if line.strip().startswith("move "))
    assert [cell.strip() for cell in header if cell.strip()] == [
        "move", "distance", "move cost", "attack cost", "attacks", "chance", "expected spend", "most spend",
    ]  # fmt: skip


DOCS = Path(__file__).resolve().parents[2] / "docs" / "odds.md"


@pytest.mark.parametrize(
    ("command", "shown"),
    re.findall(r"```console\n\$ (sgcheck odds[^\n]*)\n(.*?)```", DOCS.read_text(encoding="utf-8"), re.S),
    ids=lambda value: value if value.startswith("sgcheck") else "",
)
def test_the_outputs_docs_odds_shows_are_the_commands_own(command: str, shown: str) -> None:
    result = CliRunner().invoke(main, shlex.split(command)[1:], catch_exceptions=False)
    assert result.exit_code == 0
    assert result.output == shown
