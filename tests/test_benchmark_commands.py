"""Every benchmark command runs, on a small input, and prints the figures it is quoted for.

The benchmarks' figures live in docs/benchmarks.md, never in timed tests; but a benchmark that
measures nothing must not go unnoticed (the corpus benchmark once timed a folder search that
skipped every log, for weeks). So each ``benchmarks/bench_*.py`` command, and each option
combination docs/benchmarks.md shows, is run here on a small input: it must exit 0 and print its
figures. A measurement that measured nothing (an empty corpus, logs without a statement, a replay
with findings, python-chess missing) must stop the benchmark with exit code 2 and say why.

The sgcheck figures are measured in child processes of the checkout (``--checkout``), in the
builds it has; generated inputs go to a temporary folder (``SGCHECK_BENCH_OUT``).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from sgcheck.cli import main

ROOT = Path(__file__).resolve().parents[1]
BENCHMARKS = ROOT / "benchmarks"
sys.path.insert(0, str(BENCHMARKS))

from shared import PURE_ENV, SGCHECK, Target, replay_cli  # noqa: E402  (the benchmarks' helpers are not a package)

LEGAL_LOG = ROOT / "examples" / "logs" / "guide-example-a.sglog"
ILLEGAL_LOG = ROOT / "examples" / "logs" / "broken" / "illegal-move.sglog"
LEGAL_FOLDER = "{a folder of legal logs}"
BASELINE_VENV = "{another install}"
DOC = ROOT / "docs" / "benchmarks.md"
PLANTED = "examples/packs/planted"
SIEGE = "examples/scenarios/gem-siege.scenario.yaml"

RATIO = r"\d+\.\d\d×"
FIGURE = rf"\d+\.\d\d s · {RATIO}"
COMPILED = rf"(?:—|{FIGURE})"
PEAK = rf"\d+ MB · {RATIO}"  # the compiled build's cell: measured only when the checkout is compiled
SMALL = ("--checkout",)

#: Each command a test runs, on a small input, with what its output must show.
COMMANDS: dict[str, tuple[list[str], list[str]]] = {
    "layouts: every table": (
        [
            "bench_layouts.py",
            *SMALL,
            "--actions",
            "300",
            "--layouts",
            "plain,mixed",
            "--repeats",
            "1",
            "--games",
            "3",
            "--game-actions",
            "12",
            "--memory-actions",
            "300",
        ],
        [
            r"(measuring the pure build only|: compiled build)",
            rf"\| `plain` \| [\d.]+ MB \| [\d,]+ \| {COMPILED} \| {FIGURE} \| [\d.]+ s \|",
            rf"\| `mixed` \| [\d.]+ MB \| [\d,]+ \| {COMPILED} \| {FIGURE} \| [\d.]+ s \|",
            rf"\| `plain` \| pure \| {FIGURE} \| {FIGURE} \| [\d.]+ s, [\d.]+ s \| ≥ 0.95×: (met|NOT met) \|",
            rf"\| `mixed` \| pure \| {FIGURE} \| {FIGURE} \|",
            rf"\| pure \| {FIGURE} \| {FIGURE} \| [\d.]+ s \([\d,]+ plies\) \| {RATIO} \|",
            rf"\| `plain` \| [\d,]+ \| [\d.]+ MB \| (—|{PEAK}) \| {PEAK} \| \d+ MB \| ≤ 100: met \|",
            r"\| pure \| [\d.]+ s \| [\d.]+ s \(\d+%\) \| [\d.]+ s \(\d+%\) \| -?[\d.]+ s \(-?\d+%\) \| [\d.]+ \|",
            r"\| `sgcheck\.[\w.]+` \| [\d.]+ s \| \d+% \|",
        ],
    ),
    "layouts: throughput": (
        [
            "bench_layouts.py",
            *SMALL,
            "--only",
            "throughput",
            "--actions",
            "300",
            "--layouts",
            "indented",
            "--repeats",
            "1",
        ],
        [rf"\| `indented` \| [\d.]+ MB \| [\d,]+ \| {COMPILED} \| {FIGURE} \|"],
    ),
    "layouts: corpus": (
        [
            "bench_layouts.py",
            *SMALL,
            "--only",
            "corpus",
            "--games",
            "2",
            "--game-actions",
            "12",
            "--repeats",
            "1",
            "--corpus-layouts",
            "two-line",
        ],
        [rf"\| `two-line` \| pure \| {FIGURE} \| {FIGURE} \|", r"2 one-game logs of 12 actions"],
    ),
    "layouts: cards": (
        ["bench_layouts.py", *SMALL, "--only", "cards", "--actions", "300", "--repeats", "1"],
        [rf"\| pure \| {FIGURE} \| {FIGURE} \|", r"play the guide's cards"],
    ),
    "layouts: memory": (
        ["bench_layouts.py", *SMALL, "--only", "memory", "--memory-actions", "300", "--layouts", "plain,crlf-bom"],
        [rf"\| `crlf-bom` \| [\d,]+ \| [\d.]+ MB \| (—|{PEAK}) \| {PEAK} \| \d+ MB \| ≤ 100: met \|"],
    ),
    "layouts: profile": (
        ["bench_layouts.py", *SMALL, "--only", "profile", "--actions", "300", "--repeats", "1"],
        [r"\| pure \| [\d.]+ s \| [\d.]+ s \(\d+%\) \| [\d.]+ s \(\d+%\)", r"\| `sgcheck\.core\.[\w.]+` \|"],
    ),
    "replay: every figure": (
        ["bench_replay.py", *SMALL, "--actions", "300", "--memory-actions", "300", "--repeats", "1", "--runs", "2"],
        [
            r"python-chess read_game \(parse \+ SAN validation\): [\d.]+ s",
            r"pure build \(parse \+ full validation\): [\d.]+ s = [\d,]+ actions/s; ratio sgcheck/python-chess: ",
            r"pure build: with cards [\d.]+ s = [\d,]+ actions/s \([\d.]+x python-chess\); without",
            r"pure build: peak RSS \d+ MB \(interpreter \+ sgcheck imported, idle: \d+ MB\)",
            r"pure build: sgcheck --help: \d+ ms; ratio [\d.]+x",
        ],
    ),
    "replay: throughput": (
        ["bench_replay.py", *SMALL, "--only", "throughput", "--actions", "300", "--repeats", "1"],
        [r"ratio sgcheck/python-chess: [\d.]+x"],
    ),
    "replay: cards": (
        ["bench_replay.py", *SMALL, "--only", "cards", "--actions", "300", "--repeats", "1"],
        [r"ratio with/without: [\d.]+x"],
    ),
    "replay: memory": (
        ["bench_replay.py", *SMALL, "--only", "memory", "--memory-actions", "300"],
        [r"pure build: peak RSS \d+ MB"],
    ),
    "replay: startup": (
        ["bench_replay.py", *SMALL, "--only", "startup", "--runs", "2"],
        [r"pure build: sgcheck --help: \d+ ms; ratio [\d.]+x"],
    ),
    "corpus": (
        [
            "bench_corpus.py",
            *SMALL,
            "--games",
            "3",
            "--actions",
            "12",
            "--jobs",
            "2",
            "--repeats",
            "1",
            "--layouts",
            "plain,two-line,mixed",
        ],
        [
            r"layout plain:\n  3 logs, --jobs 1 \([\d,]+ statements\):\n    pure +[\d.]+ s +[\d.]+k statements/s"
            r" +[\d.]+x python-chess\n    python-chess +[\d.]+ s",
            r"layout two-line:\n",
            r"layout mixed:\n",
            r"3 logs, --jobs 2, wall time \([\d,]+ statements\):\n    pure +[\d.]+ s",
            r"one long log of the same game length in total \([\d,]+ statements\):\n"
            r"    pure +[\d.]+ s .*x python-chess",
            r"a statement in the short games, and in the long log:\n    pure +[\d.]+ µs, +[\d.]+ µs",
            r"per log: 3 logs of one action against one such log, the difference per log:\n"
            r"    pure +-?[\d.]+ ms a log +\(-?\d+% of the time of the 3 games\)",
        ],
    ),
    "corpus: a folder of logs": (
        ["bench_corpus.py", *SMALL, "--corpus", LEGAL_FOLDER, "--repeats", "1"],
        [r"layout as given:\n  2 logs, --jobs 1 \([\d,]+ statements\):\n    pure +[\d.]+ s"],
    ),
    "corpus: against a baseline install": (
        [
            "bench_corpus.py",
            *SMALL,
            "--games",
            "2",
            "--actions",
            "12",
            "--repeats",
            "1",
            "--layouts",
            "indented",
            "--baseline-venv",
            BASELINE_VENV,
        ],
        [
            r"from the installed package of .*baseline.*python \(.*\): pure build",
            r"layout indented:\n  2 logs, --jobs 1 \([\d,]+ statements\):\n"
            r"    pure +[\d.]+ s .*\n    baseline pure +[\d.]+ s",
            r"    pure against the baseline's: [\d.]+x",
            r"\n    baseline pure +-?[\d.]+ ms a log",
        ],
    ),
    "corpus: the short games alone, against a baseline install": (
        [
            "bench_corpus.py",
            *SMALL,
            "--games",
            "2",
            "--actions",
            "12",
            "--repeats",
            "1",
            "--layouts",
            "plain",
            "--no-long",
            "--baseline-venv",
            BASELINE_VENV,
        ],
        [
            r"layout plain:\n  2 logs, --jobs 1 \([\d,]+ statements\):\n"
            r"    pure +[\d.]+ s .*\n    baseline pure +[\d.]+ s",
            r"    pure against the baseline's: [\d.]+x\n?$",
        ],
    ),
    "memory: logs": (
        ["bench_memory.py", *SMALL, "--only", "logs", "--actions", "300", "--largest-bytes", "60000"],
        [r"LF \([\d.]+ MB\) \[pure\] +\d+ MB .* exit 0", r"target met", r"largest accepted log .* exit 0"],
    ),
    "memory: refused": (
        ["bench_memory.py", *SMALL, "--only", "refused"],
        [r"100 MB log file \[pure\] +\d+ MB .* exit 1", r"endless text through a pipe .* exit [12]"],
    ),
    "memory: cards": (
        ["bench_memory.py", *SMALL, "--only", "cards", "--card-bytes", "1500"],
        [r"--format json", r"manifest of one file listed over and over .* exit 0"],
    ),
    "memory: fmt": (
        ["bench_memory.py", *SMALL, "--only", "fmt", "--actions", "300", "--largest-bytes", "60000"],
        [r"1 file reformatted", r"target met"],
    ),
    "check": (
        ["bench_check.py", "--sizes", "20", "40", "--repeat", "1"],
        [r"    20 cards: check +[\d.]+ s \(best of 1\), \d+ findings", r"    40 cards: check"],
    ),
    "explore": (
        ["bench_explore.py", *SMALL, "--dense", "4", "--apart", "5", "10", "--jobs", "1", "2"],
        [
            r"the guide's cards +6 cards",
            r"dense generated pack +4 cards",
            r"time per card, largest / smallest",
            r"sgcheck check, pure build, wall time: --jobs 1: [\d.]+ s, --jobs 2: [\d.]+ s \(speed-up [\d.]+×\)",
        ],
    ),
    "discovery": (
        ["bench_discovery.py", "--deep", "100", "--depths", "20", "40"],
        [r"accepted patterns .*: [\d.]+ s", r"a path of 79 characters: [\d.]+ s"],
    ),
    "simulate": (
        [
            "bench_simulate.py",
            *SMALL,
            "--games",
            "2",
            "--turn-limit",
            "4",
            "--policies",
            "random",
            "search",
            "--baseline",
            str(ROOT),
            "--repeats",
            "1",
            "--scaling-games",
            "2",
            "--scaling-policy",
            "greedy",
            "--no-cluster",
        ],
        [
            r"\| random \| core alone \| [\d.]+ \| [\d.]+ \| \d+ \|",
            r"\| search \| the guide's cards on one side \| [\d.]+ \| [\d.]+ \|",
            r"\| 2 processes \| [\d.]+ s \| [\d.]+ \| [\d.]+× \|",
        ],
    ),
    "simulate: lookahead": (
        [
            "bench_simulate.py",
            *SMALL,
            "--games",
            "2",
            "--turn-limit",
            "4",
            "--policy",
            "lookahead",
            "--no-cluster",
            "--scaling-policy",
            "lookahead",
        ],
        [r"policies lookahead"],
    ),
    "ladder": (
        ["bench_ladder.py", "--games", "1", "--seed", "1", "--jobs", "1"],
        [r"\| greedy vs random \| \d+% \[\d+%-\d+%\] \| \d+ / \d+ \|", r"\| search vs lookahead \|"],
    ),
    "equal": (
        ["bench_equal.py", "--games", "1", "--seed", "1", "--jobs", "1", "--no-core", "--pack", PLANTED],
        [
            rf"\| {PLANTED} against the core \| conversion 2 \| [\d.]+ \| [\d.]+ \(\d of 2\) \|",
            r"\| [\d.]+ \| \d of 2 \|",
        ],
    ),
    "equal-scenario": (
        ["bench_equal.py", "--games", "1", "--jobs", "1", "--no-core", "--pack", PLANTED, "--scenario", SIEGE],
        [rf"scenario {SIEGE}:", rf"\| {PLANTED} against the core \|"],
    ),
    "server": (
        ["bench_server.py", *SMALL, "--turns", "120", "--repeats", "1"],
        [r"\| pure \| [\d.]+ ms \| [\d.]+ ms \(\d+ states\) \| [\d.]+ ms \| [\d.]+ ms \| [\d,]+× \|"],
    ),
    "html": (
        ["bench_html.py", "--turns", "20", "--repeats", "1", "--no-browser"],
        [r"shipped game: full-game.sglog", r"page [\d.]+ MB", r"generated game: html-20-5.sglog"],
    ),
}


@pytest.fixture(scope="module")
def out() -> Iterator[Path]:
    """Generated inputs, shared by the commands of this module."""
    with tempfile.TemporaryDirectory(prefix="sgcheck-bench-") as folder:
        yield Path(folder)


def bench(args: list[str], out: Path, **env: str) -> subprocess.CompletedProcess[str]:
    """A benchmark command as a user runs it: ``python benchmarks/bench_x.py ...``."""
    environment = {**os.environ, "SGCHECK_BENCH_OUT": str(out), "PYTHONPATH": str(ROOT), **env}
    return subprocess.run(
        [sys.executable, str(BENCHMARKS / args[0]), *args[1:]],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=environment,
        timeout=600,
        check=False,
    )


def another_install(folder: Path) -> Path:
    """An environment whose ``bin/python`` imports this checkout's sgcheck, as another install would
    (the benchmark's children drop ``PYTHONPATH``; this Python sets it again)."""
    python = folder / "bin" / "python"
    python.parent.mkdir(parents=True)
    python.write_text(f'#!/bin/sh\nPYTHONPATH="{ROOT}" exec "{sys.executable}" "$@"\n', encoding="utf-8")
    python.chmod(0o755)
    return folder


@pytest.mark.skipif(os.name == "nt", reason="the stand-in environment is a shell script")
def test_a_baseline_that_is_no_environment_with_sgcheck_fails_the_benchmark(out: Path, tmp_path: Path) -> None:
    done = bench(["bench_corpus.py", *SMALL, "--games", "2", "--actions", "12", "--baseline-venv", str(tmp_path)], out)
    assert done.returncode == 2 and "is not a Python environment" in done.stderr, done.stderr
    (tmp_path / "bin").mkdir()
    (tmp_path / "bin" / "python").symlink_to(sys.executable)  # a Python without sgcheck
    done = bench(["bench_corpus.py", *SMALL, "--games", "2", "--actions", "12", "--baseline-venv", str(tmp_path)], out)
    assert done.returncode == 2 and "sgcheck could not build" in done.stderr, done.stderr


@pytest.mark.parametrize("name", COMMANDS)
def test_the_benchmark_command_prints_its_figures(name: str, out: Path, tmp_path: Path) -> None:
    args, figures = COMMANDS[name]
    if LEGAL_FOLDER in args:
        for index, log in enumerate((LEGAL_LOG, ROOT / "examples" / "logs" / "full-game.sglog")):
            shutil.copy(log, tmp_path / f"game-{index}.sglog")
        args = [str(tmp_path) if arg == LEGAL_FOLDER else arg for arg in args]
    if BASELINE_VENV in args:
        args = [str(another_install(tmp_path / "baseline")) if arg == BASELINE_VENV else arg for arg in args]
    done = bench(args, out)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    for figure in figures:
        assert re.search(figure, done.stdout), (figure, done.stdout[-3000:])


def _options(args: list[str]) -> set[str]:
    """The options of a command line (``--only`` with its value: each mode is its own command)."""
    named = {arg for arg in args if arg.startswith("--")}
    if "--only" in args:
        named.add("--only=" + args[args.index("--only") + 1])
    return named


def documented() -> list[tuple[str, set[str], str]]:
    text = DOC.read_text(encoding="utf-8")
    found = []
    for match in re.finditer(r"python benchmarks/(bench_\w+\.py)([^\n`#]*)", text):
        found.append((match.group(1), _options(match.group(2).split()), match.group(0).strip()))
    return found


def test_every_benchmark_and_every_documented_command_is_run_here() -> None:
    runs = [(args[0], _options(args[1:])) for args, _ in COMMANDS.values()]
    scripts = sorted(path.name for path in BENCHMARKS.glob("bench_*.py"))
    assert sorted({script for script, _ in runs}) == scripts
    shown = documented()
    assert {script for script, _, _ in shown} == set(scripts), "docs/benchmarks.md shows every benchmark"
    for script, options, line in shown:
        assert any(script == ran and options <= ran_options | set(SMALL) for ran, ran_options in runs), (
            f"no test runs `{line}` of docs/benchmarks.md"
        )


def test_the_builds_are_measured_in_children_that_import_the_installed_sgcheck() -> None:
    """Children run outside the checkout, without its path, unless --checkout names it; the pure build is
    asked for with the build's switch."""
    installed, checkout = Target(), Target(checkout=True)
    assert "PYTHONPATH" not in installed.env() and installed.env()["PYTHONSAFEPATH"] == "1"
    assert installed.env("pure")[PURE_ENV] == "1" and PURE_ENV not in installed.env("compiled")
    assert checkout.env()["PYTHONPATH"] == str(ROOT)
    where = installed.run(
        [sys.executable, "-c", "import os, sys; print(os.getcwd()); print(sys.path[0])"], capture_output=True
    )
    cwd, first = where.stdout.splitlines()
    assert not Path(cwd).resolve().is_relative_to(ROOT) and first != ""
    answer = checkout.work("pure", "build")
    assert answer["build"] == "pure" and Path(answer["file"]).resolve().is_relative_to(ROOT)


# --- a benchmark that measured nothing fails ------------------------------------------------------


def test_an_empty_corpus_fails_the_benchmark(out: Path, tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("not a log\n", encoding="utf-8")
    done = bench(["bench_corpus.py", *SMALL, "--corpus", str(tmp_path), "--repeats", "1"], out)
    assert done.returncode == 2 and "holds no .sglog file: nothing to measure" in done.stderr, done.stderr
    done = bench(["bench_corpus.py", *SMALL, "--games", "0"], out)
    assert done.returncode == 2 and "nothing to measure" in done.stderr, done.stderr


def test_logs_without_a_statement_fail_the_benchmark(out: Path, tmp_path: Path) -> None:
    header = LEGAL_LOG.read_text(encoding="utf-8").split("\n1.", 1)[0] + "\n"
    (tmp_path / "empty-game.sglog").write_text(header, encoding="utf-8")
    done = bench(["bench_corpus.py", *SMALL, "--corpus", str(tmp_path), "--repeats", "1"], out)
    assert done.returncode == 2 and "hold no statement: nothing to measure" in done.stderr, done.stderr


def test_a_corpus_replayed_with_findings_fails_the_benchmark(out: Path, tmp_path: Path) -> None:
    """A replay that reports findings (exit 1) did not time the legal replay the figure is quoted for."""
    shutil.copy(LEGAL_LOG, tmp_path / "a.sglog")
    shutil.copy(ILLEGAL_LOG, tmp_path / "b.sglog")
    done = bench(["bench_corpus.py", *SMALL, "--corpus", str(tmp_path), "--repeats", "1"], out)
    assert done.returncode == 2 and "exited 1" in done.stderr, done.stderr


def test_a_missing_peer_fails_the_benchmark(out: Path, tmp_path: Path) -> None:
    """Without python-chess no figure has its peer: the benchmarks say to install the bench extra."""
    (tmp_path / "chess").mkdir()
    (tmp_path / "chess" / "__init__.py").write_text("raise ImportError('no chess here')\n", encoding="utf-8")
    path = f"{tmp_path}{os.pathsep}{ROOT}"
    for args in (
        ["bench_corpus.py", *SMALL, "--games", "2", "--actions", "12"],
        ["bench_layouts.py", *SMALL, "--only", "throughput", "--actions", "300"],
        ["bench_replay.py", *SMALL, "--only", "throughput", "--actions", "300"],
    ):
        done = bench(args, out, PYTHONPATH=path)
        assert done.returncode == 2, (args, done.stdout, done.stderr)
        assert "python-chess, the peer of every figure, is not available" in done.stderr
        assert "pip install '.[bench]'" in done.stderr


def test_nothing_to_measure_is_refused_by_every_command(out: Path) -> None:
    for args in (
        ["bench_check.py", "--sizes", "0"],
        ["bench_explore.py", *SMALL, "--dense", "0"],
        ["bench_discovery.py", "--depths", "0"],
        ["bench_html.py", "--turns", "0"],
        ["bench_server.py", *SMALL, "--turns", "10"],
    ):
        done = bench(args, out)
        assert done.returncode == 2 and "benchmark failed:" in done.stderr, (args, done.stderr)
    done = bench(["bench_layouts.py", *SMALL, "--layouts", ""], out)
    assert done.returncode == 2 and "nothing to measure" in done.stderr, done.stderr


# --- what the corpus command times ---------------------------------------------------------------


def test_the_corpus_command_replays_a_folder_git_ignores(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The generated corpora live in ``benchmarks/out/``, which git ignores, and a folder search
    skips what git ignores: the timed command must search it anyway."""
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


def test_the_memory_benchmark_formats_a_copy_of_each_log(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """bench_memory.py's fmt cases on a small log: sgcheck fmt rewrites a copy (exit 0), measured,
    and leaves the log itself as it was."""
    import bench_memory

    log = tmp_path / "game.sglog"
    text = LEGAL_LOG.read_text(encoding="utf-8").replace("\n1.", "\n\n\n1.", 1)  # a blank line to take out
    log.write_text(text, encoding="utf-8")
    target = Target(checkout=True)
    idle = bench_memory.measure([sys.executable, "-c", "pass"], target=target)
    results = bench_memory.fmt_logs(bench_memory.Run(target, "pure", idle), {"small log": log})
    assert [r.status for r in results] == [0]
    assert results[0].mb > 5 and "1 file reformatted" in results[0].last
    assert log.read_text(encoding="utf-8") == text and sorted(p.name for p in tmp_path.iterdir()) == ["game.sglog"]
    assert "target met" in capsys.readouterr().out


def test_the_equal_sides_table_is_written_in_its_place_and_a_bad_pack_stops_it(out: Path, tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text("before\n<!-- equal-sides -->\nold\n<!-- /equal-sides -->\nafter\n", encoding="utf-8")
    args = ["bench_equal.py", "--games", "1", "--no-core", "--pack", PLANTED, "--write", str(page)]
    done = bench(args, out)
    assert done.returncode == 0, done.stderr
    text = page.read_text(encoding="utf-8")
    assert "old" not in text and text.startswith("before\n<!-- equal-sides -->\n") and text.endswith("after\n")
    assert f"| {PLANTED} against the core |" in text
    done = bench(["bench_equal.py", "--games", "1", "--no-core", "--pack", str(tmp_path / "nothing")], out)
    assert done.returncode == 2 and done.stderr.startswith("bench_equal: "), done.stderr
