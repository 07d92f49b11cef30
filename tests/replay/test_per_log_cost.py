"""What each replayed log pays: its facts are worked out only for a report that writes them, and
the command line keeps the cycle collector off what importing made."""

from __future__ import annotations

import gc
import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from sgcheck import launcher
from sgcheck.cli import main
from sgcheck.replay import files
from sgcheck.replay.interpreter import ReplayResult

ROOT = Path(__file__).resolve().parents[2]
GAME = str(ROOT / "examples" / "logs" / "full-game.sglog")


@pytest.fixture
def facts_made(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The logs whose facts were worked out."""
    made: list[str] = []
    real = files.summary_facts  # type: ignore[attr-defined]

    def counted(result: ReplayResult) -> dict[str, object]:
        made.append(str(result.statements))
        return real(result)

    monkeypatch.setattr(files, "summary_facts", counted)
    return made


@pytest.mark.parametrize("fmt", ["text", "sarif", "github", "junit"])
def test_a_report_without_facts_does_not_work_them_out(fmt: str, facts_made: list[str]) -> None:
    result = CliRunner().invoke(main, ["replay", GAME, "--format", fmt, "--no-summary"])
    assert result.exit_code == 0, result.output
    assert facts_made == []


def test_json_still_writes_every_fact(facts_made: list[str]) -> None:
    result = CliRunner().invoke(main, ["replay", GAME, "--format", "json"])
    assert result.exit_code == 0, result.output
    assert len(facts_made) == 1
    facts = json.loads(result.output)["files"][0]["facts"]
    assert facts["legal"] is True and facts["actions"] > 0 and facts["final"] is not None


@pytest.fixture
def gc_state() -> Iterator[None]:
    threshold = gc.get_threshold()
    yield
    gc.set_threshold(*threshold)
    gc.unfreeze()


def test_the_command_line_collects_less_often(gc_state: None) -> None:
    gc.unfreeze()
    kept = [[object()] for _ in range(100)]  # objects alive before the command runs
    launcher.collect_less()
    assert gc.get_threshold()[0] == launcher.YOUNG_OBJECTS
    assert gc.get_freeze_count() >= len(kept)


def test_a_plain_replay_imports_no_pack_scenario_or_contract_code(tmp_path: Path) -> None:
    """A log without a pack, a scenario or a code selection is replayed without importing the pack
    loader, the scenario loader or the contract's rules (their catalogue of codes): start-up and
    memory each log run pays for nothing. A [Pack] tag still loads the pack (tests/replay/test_game_pack.py)."""
    import os
    import subprocess
    import sys

    from tests.installed import pythonpath

    probe = (
        "import sys\n"
        "from sgcheck import launcher\n"
        "try:\n"
        f"    launcher.run(['replay', {GAME!r}, '--no-summary', '--isolated'])\n"
        "except SystemExit as stop:\n"
        "    assert not stop.code, stop.code\n"
        "loaded = sorted(m for m in sys.modules if m.startswith(('sgcheck.contract.', 'sgcheck.play.')))\n"
        "print('loaded:', ','.join(loaded))\n"
    )
    env = {**os.environ, "PYTHONSAFEPATH": "1", "PYTHONPATH": pythonpath()}
    done = subprocess.run([sys.executable, "-c", probe], cwd=tmp_path, env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    loaded = done.stdout.strip().splitlines()[-1].removeprefix("loaded:").strip()
    assert "sgcheck.contract.registry" not in loaded and "sgcheck.contract.rules" not in loaded, loaded
    assert "sgcheck.play.pack" not in loaded and "sgcheck.play.game_scenario" not in loaded, loaded
