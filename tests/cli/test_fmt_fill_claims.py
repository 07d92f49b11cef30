"""``sgcheck fmt --fill-claims`` through the command line (docs/fmt.md): what it writes, what it
leaves, its exit codes; the golden file of a ``--diff`` (SGCHECK_UPDATE_GOLDEN=1 rewrites it)."""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from click.testing import CliRunner, Result

from sgcheck.cli import main
from sgcheck.lang.logs.format_logs import format_log_text

if TYPE_CHECKING:
    from conftest import Golden

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = Path(__file__).with_name("golden")

BARE = "king white e1\nking black e8\n\n1.   upkeep: summon R a1  ; the rook\n1... end: pass\n"
#: BARE filled, in the layout fmt writes
FILLED = format_log_text(
    "king white e1\nking black e8\n\n1. upkeep: summon R a1 cost 10 lp 10 sp 0  ; the rook\n"
    "1... end: pass gain 6lp lp 26 sp 0\n"
)


def invoke(*args: str, input: bytes | str | None = None) -> Result:
    return CliRunner().invoke(main, list(args), input=input, catch_exceptions=False)


def test_fills_in_place_and_a_second_run_changes_nothing(tmp_path: Path) -> None:
    """core §5, R12: a Rook is summoned for 10 (20 LP - 10); core §2, R04: a Pass gives +6 LP."""
    log = tmp_path / "g.sglog"
    log.write_text(BARE, encoding="utf-8")
    first = invoke("fmt", "--fill-claims", str(log))
    assert first.exit_code == 0, first.output
    assert log.read_text(encoding="utf-8") == FILLED
    assert "1 file reformatted" in first.stderr
    again = invoke("fmt", "--fill-claims", "--check", str(log))
    assert again.exit_code == 0 and "0 files would be reformatted, 1 file left unchanged" in again.stderr
    assert invoke("replay", str(log)).exit_code == 0


def test_plain_fmt_writes_no_claim(tmp_path: Path) -> None:
    log = tmp_path / "g.sglog"
    log.write_text(BARE, encoding="utf-8")
    assert invoke("fmt", str(log)).exit_code == 0
    assert log.read_text(encoding="utf-8") == BARE


def test_check_and_diff_change_nothing_and_exit_1(tmp_path: Path) -> None:
    log = tmp_path / "g.sglog"
    log.write_text(BARE, encoding="utf-8")
    checked = invoke("fmt", "--fill-claims", "--check", str(log))
    assert checked.exit_code == 1 and f"would reformat {log}" in checked.stdout
    diffed = invoke("fmt", "--fill-claims", "--diff", str(log))
    assert diffed.exit_code == 1
    assert "summon R a1 cost 10 lp 10 sp 0  ; the rook\n" in diffed.stdout
    assert log.read_text(encoding="utf-8") == BARE


def test_diff_of_a_wrong_claim_matches_golden(monkeypatch: pytest.MonkeyPatch, golden: Golden) -> None:
    """core §4.2, R10: 61 > threshold 60, so the written ``hit`` becomes ``miss`` and the rest of
    the score sheet is added; the log is otherwise only laid out as fmt lays it out."""
    monkeypatch.chdir(ROOT)  # relative paths in the output, as a user would type them
    result = invoke("fmt", "--fill-claims", "--diff", "examples/logs/broken/wrong-hit.sglog")
    assert result.exit_code == 1, result.output
    assert "-     battle: attack Ra3 a5 roll 6 1 hit\n" in result.stdout
    assert "battle: attack Ra3 a5 roll 6 1 cost 12 threshold 60 miss lp 3 sp 0\n" in result.stdout
    golden.check(GOLDEN / "fill-claims-wrong-hit.diff", result.stdout)


def test_an_illegal_action_stops_filling_with_a_diagnostic(tmp_path: Path) -> None:
    """core §3, R06: a Rook does not move diagonally; what comes before is filled and written."""
    log = tmp_path / "g.sglog"
    log.write_text(BARE.replace("1... end: pass\n", "   main1: move Ra1 b2\n1... end: pass\n"), encoding="utf-8")
    result = invoke("fmt", "--fill-claims", str(log))
    assert result.exit_code == 1
    assert f"{log}:5:20: SG-P040 claims are not filled from here on: SG-R103" in result.stderr
    assert log.read_text(encoding="utf-8") == format_log_text(
        "king white e1\nking black e8\n\n"
        "1. upkeep: summon R a1 cost 10 lp 10 sp 0  ; the rook\n"
        "   main1: move Ra1 b2\n"
        "1... end: pass\n"
    )


def test_a_syntax_error_writes_nothing(tmp_path: Path) -> None:
    log = tmp_path / "g.sglog"
    broken = BARE + "2. battle: attack Ra1 a8 hit\n"
    log.write_text(broken, encoding="utf-8")
    result = invoke("fmt", "--fill-claims", str(log))
    assert result.exit_code == 1 and "SG-P001" in result.stderr and "SG-P040" not in result.stderr
    assert log.read_text(encoding="utf-8") == broken
    piped = invoke("fmt", "--fill-claims", "-", input=broken)
    assert piped.exit_code == 1 and piped.stdout == ""


def test_standard_input_to_standard_output() -> None:
    result = invoke("fmt", "--fill-claims", "-", input=BARE)
    assert result.exit_code == 0 and result.stdout == FILLED
    checked = invoke("fmt", "--fill-claims", "--check", "-", input=BARE)
    assert checked.exit_code == 1 and checked.stdout == ""
    assert invoke("fmt", "--fill-claims", "--check", "-", input=FILLED).exit_code == 0
    illegal = BARE.replace("1... end: pass\n", "   main1: move Ra1 b2\n")
    stopped = invoke("fmt", "--fill-claims", "-", input=illegal)
    assert stopped.exit_code == 1 and "<stdin>.sglog:5:20: SG-P040" in stopped.stderr
    assert "summon R a1 cost 10 lp 10 sp 0" in stopped.stdout


def test_a_read_only_file_is_refused(tmp_path: Path) -> None:
    log = tmp_path / "g.sglog"
    log.write_text(BARE, encoding="utf-8")
    os.chmod(log, 0o444)
    try:
        result = invoke("fmt", "--fill-claims", str(log))
    finally:
        os.chmod(log, 0o644)
    assert result.exit_code == 2
    assert f"{log}: SG-P009 not rewritten: the file is read-only" in result.stderr
    assert log.read_text(encoding="utf-8") == BARE


def test_crlf_and_bom_are_kept(tmp_path: Path) -> None:
    log = tmp_path / "g.sglog"
    log.write_bytes(b"\xef\xbb\xbf" + BARE.replace("\n", "\r\n").encode())
    assert invoke("fmt", "--fill-claims", str(log)).exit_code == 0
    assert log.read_bytes() == b"\xef\xbb\xbf" + FILLED.replace("\n", "\r\n").encode()


def test_a_game_with_cards_is_filled_with_its_pack(tmp_path: Path) -> None:
    """R22: a card's printed cost is paid when it is played (Soul Ward costs 6); the log's [Pack]
    is read from its own folder, as replay reads it."""
    shutil.copytree(ROOT / "examples" / "logs" / "relic-pack", tmp_path / "relic-pack")
    log = tmp_path / "relic-game.sglog"
    text = (ROOT / "examples" / "logs" / "relic-game.sglog").read_text(encoding="utf-8")
    log.write_text(text.replace('play "Soul Ward" cost 6 lp 5 sp 1', 'play "Soul Ward"'), encoding="utf-8")
    result = invoke("fmt", "--fill-claims", str(log))
    assert result.exit_code == 0, result.output
    assert 'main1: play "Soul Ward" cost 6 lp 5 sp 1\n' in log.read_text(encoding="utf-8")
    assert invoke("replay", str(log)).exit_code == 0


def test_card_files_are_formatted_as_usual(tmp_path: Path) -> None:
    cards = tmp_path / "c.sgcard"
    cards.write_bytes(b'relic "A" { cost 1 SP effect gain 1 SP }\n')
    assert invoke("fmt", "--fill-claims", str(cards)).exit_code == 0
    assert cards.read_bytes() == b'relic "A" passive {\n    cost 1 SP\n    effect gain 1 SP\n}\n'


def test_a_folder_of_examples(tmp_path: Path) -> None:
    """Every shipped log: the clean ones are filled and replay clean; the broken ones are filled
    up to their first error (SG-P040) or, not reading, left as they are; a second run changes nothing."""
    shutil.copytree(ROOT / "examples", tmp_path / "examples")
    root = tmp_path / "examples"
    first = invoke("fmt", "--fill-claims", str(root))
    assert first.exit_code == 1
    assert "SG-P040" in first.stderr
    for name in ("guide-example-a", "full-game", "relic-game"):
        assert invoke("replay", str(root / "logs" / f"{name}.sglog")).exit_code == 0
    for name in ("gem-siege", "wellsprings"):
        assert invoke("replay", str(root / "scenarios" / f"{name}.sglog")).exit_code == 0
    assert invoke("replay", str(root / "modules" / "spell-chess.sglog")).exit_code == 0
    again = invoke("fmt", "--fill-claims", "--check", str(root))
    assert "would reformat" not in again.stdout
