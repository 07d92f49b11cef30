"""The executable answers --help and --version without click, with click's exact words."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from click.testing import CliRunner

from sgcheck import __version__
from sgcheck.cli import main
from sgcheck.launcher import HELP_FILE

if TYPE_CHECKING:
    from conftest import Golden

ROOT = Path(__file__).resolve().parents[2]


def test_stored_help_is_clicks_help(golden: Golden) -> None:
    golden.check(HELP_FILE, CliRunner().invoke(main, ["--help"], prog_name="sgcheck").output)


def test_help_and_version_do_not_import_click() -> None:
    probe = (
        "import sys; from sgcheck.launcher import run; run(['--help']); run(['--version']);"
        "print('click' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", probe], check=True, capture_output=True, text=True, cwd=ROOT).stdout
    assert out.endswith("False\n")
    assert f"sgcheck, version {__version__}" in out
    assert out.startswith("Usage: sgcheck [OPTIONS] COMMAND [ARGS]...")


def test_other_arguments_reach_click() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "sgcheck", "explain", "SG-R204"], capture_output=True, text=True, cwd=ROOT
    )
    assert out.returncode == 0
    assert "wrong-hit" in out.stdout
