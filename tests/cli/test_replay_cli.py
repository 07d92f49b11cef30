"""The command line, driven through click's runner: exit codes, formats, no tracebacks."""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from sgcheck.cli import main

ROOT = Path(__file__).resolve().parents[2]
LOGS = ROOT / "examples" / "logs"


def invoke(*args: str, input: bytes | str | None = None) -> Result:
    return CliRunner().invoke(main, list(args), input=input, catch_exceptions=False)


def test_version_and_help() -> None:
    assert invoke("--version").output.startswith("sgcheck, version ")
    result = invoke("--help")
    assert result.exit_code == 0
    for command in ("replay", "check", "explain", "rulings", "schema"):
        assert command in result.output


def test_legal_game_exits_0_with_summary() -> None:
    result = invoke("replay", str(LOGS / "full-game.sglog"))
    assert result.exit_code == 0
    assert "legal game, White wins by King conversion on White's turn 120" in result.output
    assert "a b c d e f g h" in result.output


def test_illegal_game_exits_1_with_location_and_context() -> None:
    result = invoke("replay", str(LOGS / "guide-walkthrough.sglog"))
    assert result.exit_code == 1
    assert "guide-walkthrough.sglog:17:25: SG-R101" in result.output
    assert "turn 3 · White · Battle" in result.output
    assert "state before: White LP 9 SP 0 · Black LP 12 SP 0" in result.output
    assert "state after" not in result.output  # the attack was refused: there is no after


def test_missing_file_is_a_usage_error() -> None:
    result = invoke("replay", "does-not-exist.sglog")
    assert result.exit_code == 2


def test_directory_is_a_usage_error(tmp_path: Path) -> None:
    assert invoke("replay", str(tmp_path)).exit_code == 2


def test_bad_ruleset_option_is_a_usage_error() -> None:
    result = invoke("replay", "--ruleset", "king_value=99", str(LOGS / "guide-example-a.sglog"))
    assert result.exit_code == 2
    assert "king_value" in result.output


def test_unreadable_file_is_reported_and_exits_2(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """An I/O error is still shown as a diagnostic (SG-P008), with exit status 2."""
    path = tmp_path / "x.sglog"
    path.write_text("king white e1\n")
    real_open = os.open

    def deny_logs(file: object, *args: object, **kwargs: object) -> int:
        if str(file).endswith("x.sglog"):
            raise PermissionError(13, "Permission denied")
        return real_open(file, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(os, "open", deny_logs)
    result = invoke("replay", str(path))
    assert result.exit_code == 2
    assert "SG-P008" in result.output and "Permission denied" in result.output


@pytest.mark.parametrize(
    ("data", "code"),
    [
        (b"", "SG-P006"),
        (b"\x00\x01\x02binary", "SG-P005"),
        (b"king white e1\n\xff\xfe\xfd", "SG-P004"),
        (b"\xef\xbb\xbfking white e1\r\nking black e8\r\n1. end: pass\r\n", None),
        (b"{" * 100_000, "SG-P011"),  # one line past the line limit (docs/limits.md)
        (b"[" * 100_000, "SG-P011"),
        (b"{" * 9_000, "SG-P002"),  # an unclosed comment within the limit
        (b"[" * 9_000, "SG-P00"),
        (b"1. " * 50_000, "SG-"),
    ],
)
def test_hostile_input_never_tracebacks(tmp_path: Path, data: bytes, code: str | None) -> None:
    path = tmp_path / "in.sglog"
    path.write_bytes(data)
    result = CliRunner().invoke(main, ["replay", "--no-summary", str(path)])
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert "Traceback" not in result.output
    if code is None:
        assert result.exit_code == 0, result.output
    else:
        assert result.exit_code == 1
        assert code in result.output


@pytest.mark.parametrize(
    ("make", "code"),
    [
        (lambda: "; " + "x" * 66_000_000 + "\n", "SG-P010"),  # a 66 MB comment: over the size limit
        (lambda: "king white e1\nking black e8\n" + "zz " * 22_000_000, "SG-P010"),  # 66 MB of words
        (lambda: "king white e1\nking black e8\n1. end: pass\n{" + "a" * 66_000_000, "SG-P010"),  # unclosed
        (lambda: "king white e1\nking black e8\n" + "zz " * 4_000_000, "SG-P011"),  # 12 MB on one line
    ],
    ids=["comment", "words", "unclosed-brace", "long-line"],
)
def test_fifty_megabyte_inputs_get_one_diagnostic(tmp_path: Path, make: Callable[[], str], code: str) -> None:
    path = tmp_path / "big.sglog"
    path.write_text(make(), encoding="utf-8")
    result = CliRunner().invoke(main, ["replay", "--no-summary", str(path)])
    assert result.exit_code == 1
    assert code in result.output
    assert result.output.count("SG-P") == 1
    assert len(result.output) < 2_000  # the snippet shows a window of the line, not the line


def test_stdin_dash() -> None:
    result = invoke("replay", "-", input=b"king white e1\nking black e8\n1. end: pass lp 26\n")
    assert result.exit_code == 0
    assert "legal so far" in result.output


def test_json_output_is_parseable_and_has_facts() -> None:
    result = invoke("replay", "--format", "json", str(LOGS / "guide-example-c.sglog"))
    doc = json.loads(result.output)
    [entry] = doc["files"]
    assert entry["status"] == "ok"
    assert entry["facts"]["final"]["black"]["king_damage"] == 1
    assert doc["counts"] == {"error": 0, "warning": 0, "note": 0, "suppressed": 0}


def test_keep_going_flag() -> None:
    log = "king white e1\nking black e8\n1. upkeep: summon R a1 cost 9\n   main1: move Ra1 b2\n"
    stop = invoke("replay", "-", input=log)
    keep = invoke("replay", "--keep-going", "-", input=log)
    assert stop.output.count("SG-R") == 1
    assert keep.output.count(": SG-R") == 2


def test_explain_and_rulings() -> None:
    result = invoke("explain", "SG-R204")
    assert result.exit_code == 0
    assert "wrong-hit" in result.output and "core §4.2" in result.output
    assert invoke("explain", "r204").exit_code == 0  # forgiving spelling
    assert invoke("explain", "SG-X999").exit_code == 2
    listing = invoke("explain", "--list").output
    assert "SG-P001" in listing and "SG-R211" in listing
    rulings = invoke("rulings").output
    assert all(f"R{n:02d}" in rulings for n in range(1, 22))
    assert "R09" in invoke("rulings", "R09").output and "R10" not in invoke("rulings", "R09").output
    assert invoke("rulings", "R99").exit_code == 2
