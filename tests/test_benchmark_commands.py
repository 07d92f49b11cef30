"""The command lines the benchmarks time must do the job they are quoted for.

The benchmarks are never run by the tests (their figures live in docs/benchmarks.md), so a change
elsewhere can leave one timing an error instead of a replay: the generated corpora live in
``benchmarks/out/``, which git ignores, and a folder search skips what git ignores.
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from sgcheck.cli import main

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

from shared import SGCHECK, replay_cli  # noqa: E402  (the benchmarks' helpers are not a package)

LEGAL_LOG = ROOT / "examples" / "logs" / "guide-example-a.sglog"


def test_the_corpus_command_replays_a_folder_git_ignores(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / ".git").mkdir()
    (tmp_path / ".gitignore").write_text("out/\n", encoding="utf-8")
    corpus = tmp_path / "out" / "corpus"
    corpus.mkdir(parents=True)
    for index in range(3):
        shutil.copy(LEGAL_LOG, corpus / f"game-{index}.sglog")
    monkeypatch.chdir(tmp_path)
    command = replay_cli(corpus, 1)
    assert command[: len(SGCHECK)] == SGCHECK
    result = CliRunner().invoke(main, command[len(SGCHECK) :], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    assert "3 files checked: no problems found" in result.output


def test_the_play_benchmark_measures_each_pack(capsys: pytest.CaptureFixture[str]) -> None:
    """bench_explore.py on small packs: the guide's cards, a dense pack, two packs of cards apart."""
    import bench_explore

    assert bench_explore.main(["--dense", "4", "--apart", "5", "10"]) == 0
    out = capsys.readouterr().out
    assert "the guide's cards" in out and "6 cards" in out
    assert "dense generated pack" in out and "4 cards" in out
    assert out.count("cards that do not meet ") == 2 and "in a minute at these rates" in out
    combinations = [int(n) for n in __import__("re").findall(r"(\d+) combinations", out)]
    assert combinations[-2:] == [5, 10]  # cards apart are each played alone


def test_the_memory_benchmark_formats_a_copy_of_each_log(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """bench_memory.py's fmt cases on a small log: sgcheck fmt rewrites a copy (exit 0), measured,
    and leaves the log itself as it was."""
    import bench_memory

    log = tmp_path / "game.sglog"
    text = LEGAL_LOG.read_text(encoding="utf-8").replace("\n1.", "\n\n\n1.", 1)  # a blank line to take out
    log.write_text(text, encoding="utf-8")
    idle = bench_memory.measure([sys.executable, "-c", "pass"])
    results = bench_memory.fmt_logs(idle, {"small log": log})
    assert [r.status for r in results] == [0]
    assert results[0].mb > 5 and "1 file reformatted" in results[0].last
    assert log.read_text(encoding="utf-8") == text and sorted(p.name for p in tmp_path.iterdir()) == ["game.sglog"]
    assert "target met" in capsys.readouterr().out
