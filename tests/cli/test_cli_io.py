"""What users rely on from the command line around the checks: which files are read, how the
report is written (streamed, labelled, coloured) and the exit codes when writing fails."""

from __future__ import annotations

import io
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from sgcheck.cli import main
from sgcheck.cli.common import exit_code_of, use_color
from sgcheck.codes import CATALOGUE
from sgcheck.lang import source as source_module
from sgcheck.lang.source import SourceText
from sgcheck.replay import files as replay_files
from sgcheck.replay.files import LogInput, discover_logs, replay_input
from sgcheck.replay.interpreter import ReplayOptions
from sgcheck.report import ReportStream, render
from sgcheck.results import Run

ROOT = Path(__file__).resolve().parents[2]
LOGS = ROOT / "examples" / "logs"
LEGAL = LOGS / "guide-example-a.sglog"
BROKEN = LOGS / "broken" / "wrong-hit.sglog"


def invoke(*args: str, input: bytes | str | None = None, env: dict[str, str] | None = None) -> Result:
    return CliRunner().invoke(main, list(args), input=input, env=env, catch_exceptions=False)


# --- replay takes folders -----------------------------------------------------------------------


@pytest.fixture
def log_tree(tmp_path: Path) -> Path:
    """A folder of logs: nested, a hidden folder, a file of another kind."""
    (tmp_path / "league" / "round-2").mkdir(parents=True)
    (tmp_path / ".drafts").mkdir()
    shutil.copy(LEGAL, tmp_path / "league" / "b-legal.sglog")
    shutil.copy(BROKEN, tmp_path / "league" / "round-2" / "a-broken.SGLOG")
    shutil.copy(BROKEN, tmp_path / ".drafts" / "hidden.sglog")
    (tmp_path / "league" / "notes.txt").write_text("not a log", encoding="utf-8")
    return tmp_path


def test_replay_searches_folders_for_logs_in_a_stable_order(log_tree: Path) -> None:
    found = [log.path for log in discover_logs([str(log_tree)])]
    base = log_tree.as_posix()
    assert found == [f"{base}/league/b-legal.sglog", f"{base}/league/round-2/a-broken.SGLOG"]


def test_replay_of_a_folder_reports_every_log_in_it(log_tree: Path) -> None:
    result = invoke("replay", str(log_tree / "league"), "--format", "json")
    report = json.loads(result.output)
    assert [Path(f["path"]).name for f in report["files"]] == ["b-legal.sglog", "a-broken.SGLOG"]
    assert report["counts"]["error"] == 1
    assert result.exit_code == 1


def test_replay_of_a_folder_without_logs_says_so_and_exits_2(tmp_path: Path) -> None:
    (tmp_path / "readme.txt").write_text("nothing here", encoding="utf-8")
    result = CliRunner().invoke(main, ["replay", str(tmp_path)])
    assert result.exit_code == 2
    assert "no game logs (*.sglog) found" in result.output
    assert "checked" not in result.output


@pytest.mark.skipif(not hasattr(os, "symlink"), reason="the platform has no symbolic links")
def test_a_log_linked_from_outside_a_searched_folder_is_not_read(tmp_path: Path) -> None:
    """A link in a searched folder may point anywhere on the machine; its text must never reach the report."""
    secret = tmp_path / "secret.txt"
    secret.write_text('[Event "TOP-SECRET-TOKEN"]\n', encoding="utf-8")
    folder = tmp_path / "logs"
    folder.mkdir()
    (folder / "leak.sglog").symlink_to(secret)
    for fmt in ("text", "json", "sarif", "github"):
        result = CliRunner().invoke(main, ["replay", str(folder), "--format", fmt])
        assert "TOP-SECRET-TOKEN" not in result.output
        assert result.exit_code == 2
    assert "is a link to a file outside the folder" in CliRunner().invoke(main, ["replay", str(folder)]).output


@pytest.mark.skipif(not hasattr(os, "symlink"), reason="the platform has no symbolic links")
def test_only_links_that_leave_the_searched_folder_are_refused(tmp_path: Path) -> None:
    """The folder search resolves only files that are links: a link within the folder is read, a
    linked folder is not entered, a searched folder that is itself a link is searched, and a link
    deep in a subfolder that leaves the folder is refused."""
    outside = tmp_path / "outside"
    outside.mkdir()
    shutil.copy(LEGAL, outside / "elsewhere.sglog")
    real = tmp_path / "real"
    (real / "sub" / "deeper").mkdir(parents=True)
    shutil.copy(LEGAL, real / "sub" / "game.sglog")
    (real / "inside.sglog").symlink_to(Path("sub") / "game.sglog")  # relative, stays inside
    (real / "sub" / "deeper" / "out.sglog").symlink_to(outside / "elsewhere.sglog")
    (real / "linked").symlink_to(outside, target_is_directory=True)  # a linked folder: not walked
    alias = tmp_path / "alias"
    alias.symlink_to(real, target_is_directory=True)
    for root in (real, alias):
        found = {Path(log.path).relative_to(root).as_posix(): log.problem for log in discover_logs([str(root)])}
        assert set(found) == {"inside.sglog", "sub/game.sglog", "sub/deeper/out.sglog"}
        assert found["inside.sglog"] is None and found["sub/game.sglog"] is None
        problem = found["sub/deeper/out.sglog"]
        assert problem is not None and problem.code == "SG-P008" and "outside the folder" in problem.message


# --- several logs: labelled, streamed, one failure contained ------------------------------------


def test_each_summary_is_labelled_with_its_file_when_several_logs_are_replayed() -> None:
    output = invoke("replay", str(LEGAL), str(BROKEN), "--no-color").output
    assert f"{LEGAL}: legal so far: the game is unfinished" in output
    assert f"{BROKEN}: illegal game: replay stopped at the first error" in output
    single = invoke("replay", str(LEGAL), "--no-color").output
    assert single.startswith("legal so far")


@pytest.mark.parametrize("fmt", ["text", "json", "sarif", "github"])
def test_streamed_report_is_byte_identical_to_the_whole_report(fmt: str) -> None:
    """Writing file by file must print exactly what rendering the finished run prints."""
    results = [replay_input(LogInput(str(path)), ReplayOptions()) for path in (LEGAL, BROKEN, LEGAL)]
    sources = {name: text for _, texts in results for name, text in texts.items()}
    run = Run("replay", tuple(result for result, _ in results), sources, CATALOGUE, "test")
    stream = ReportStream(fmt, command="replay", rules=CATALOGUE, tool_version="test", labelled=True)
    parts = [stream.add(result, texts) for result, texts in results]
    assert "".join(parts) + stream.close() == render(run, fmt)
    if fmt == "text":
        assert "SG-R204" in parts[1] and "files checked" not in parts[1]


def test_text_output_is_written_file_by_file(monkeypatch: pytest.MonkeyPatch) -> None:
    """The first log's report is on the way out before the second log is read."""
    seen: list[str] = []
    out = io.StringIO()
    real = replay_files.replay_input

    def spy(log: LogInput, options: ReplayOptions, **kwargs: object) -> object:
        seen.append(out.getvalue())
        return real(log, options, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(replay_files, "replay_input", spy)
    from sgcheck.cli.common import open_report, write_report

    output, report = open_report("text", command="replay", rules=CATALOGUE, file_count=2, stream=out)
    results = (replay_files.replay_input(LogInput(str(path)), ReplayOptions()) for path in (BROKEN, LEGAL))
    rendered = ((result, report.renderer(result, sources)) for result, sources in results)
    code = write_report(rendered, output, report)
    assert code == 1
    assert seen[0] == ""
    assert "SG-R204" in seen[1]


def test_a_failure_on_one_log_is_reported_on_it_and_the_others_still_are(monkeypatch: pytest.MonkeyPatch) -> None:
    """SG-X001: sgcheck's own failure on one input costs that input only; JSON stays a whole document."""
    real = replay_files.replay_source

    def fails_on_broken(source: SourceText, options: ReplayOptions, **kwargs: object) -> object:
        if source.name.endswith("wrong-hit.sglog"):
            raise ValueError("boom " + "x" * 1000)
        return real(source, options, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(replay_files, "replay_source", fails_on_broken)
    result = CliRunner().invoke(main, ["replay", str(BROKEN), str(LEGAL), "--format", "json", "--jobs", "1"])
    report = json.loads(result.output)
    first, second = report["files"]
    assert [d["code"] for d in first["diagnostics"]] == ["SG-X001"]
    assert "ValueError: boom" in first["diagnostics"][0]["message"]
    assert len(first["diagnostics"][0]["message"]) < 400
    assert second["facts"]["legal"] is True
    assert result.exit_code == 2


def test_a_streamed_log_replays_like_one_held_in_memory(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A big log file is checked, then read again piece by piece: the same report as reading it whole."""
    held = [replay_input(LogInput(str(path)), ReplayOptions())[0] for path in (LEGAL, BROKEN)]
    monkeypatch.setattr(source_module, "STREAMED_ABOVE", 0)  # stream every file
    streamed = [replay_input(LogInput(str(path)), ReplayOptions())[0] for path in (LEGAL, BROKEN)]
    assert streamed == held
    assert [d.code for d in streamed[1].diagnostics] == ["SG-R204"]


def test_a_log_that_changes_while_it_is_replayed_is_sg_p008(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Read twice (checked, then streamed), a log that turns binary in between is reported, not crashed on."""
    monkeypatch.setattr(source_module, "STREAMED_ABOVE", 0)
    path = tmp_path / "game.sglog"
    shutil.copyfile(LEGAL, path)
    real = replay_files.read_source

    def then_it_changes(*args: object, **kwargs: object) -> object:
        checked = real(*args, **kwargs)  # type: ignore[arg-type]
        path.write_bytes(b"king white e1\n\x00")
        return checked

    monkeypatch.setattr(replay_files, "read_source", then_it_changes)
    result, _ = replay_input(LogInput(str(path)), ReplayOptions())
    (finding,) = result.diagnostics
    assert finding.code == "SG-P008"
    assert "changed while it was read" in finding.message and "SG-X001" not in finding.message
    assert exit_code_of([result]) == 2


# --- colour -------------------------------------------------------------------------------------


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.mark.parametrize(
    ("flag", "environ", "tty", "expected"),
    [
        (None, {}, True, True),
        (None, {}, False, False),
        (None, {"NO_COLOR": "1"}, True, False),
        (None, {"NO_COLOR": ""}, True, True),
        (None, {"FORCE_COLOR": "1"}, False, True),
        (None, {"NO_COLOR": "1", "FORCE_COLOR": "1"}, True, False),
        (None, {"TERM": "dumb"}, True, False),
        (None, {"TERM": "dumb", "FORCE_COLOR": "1"}, False, True),
        (True, {"NO_COLOR": "1"}, False, True),
        (False, {"FORCE_COLOR": "1"}, True, False),
    ],
)
def test_colour_follows_flag_then_no_color_force_color_term_and_terminal(
    flag: bool | None, environ: dict[str, str], tty: bool, expected: bool
) -> None:
    stream = _Terminal() if tty else io.StringIO()
    assert use_color(flag, "text", stream, environ) is expected
    assert use_color(flag, "json", stream, environ) is False


def test_force_color_colours_the_text_report_through_a_pipe() -> None:
    coloured = invoke("replay", str(BROKEN), env={"FORCE_COLOR": "1", "NO_COLOR": ""}).output
    plain = invoke("replay", str(BROKEN), env={"FORCE_COLOR": "1", "NO_COLOR": "1"}).output
    assert "\x1b[" in coloured
    assert "\x1b[" not in plain


# --- writing the report fails -------------------------------------------------------------------


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="the platform has no /dev/full to fill a disk")
def test_a_full_disk_is_an_io_error_with_exit_2() -> None:
    with open("/dev/full", "w") as full:
        done = subprocess.run(
            [sys.executable, "-m", "sgcheck", "replay", str(LEGAL)], stdout=full, stderr=subprocess.PIPE, timeout=120
        )
    assert done.returncode == 2
    assert b"cannot write the report: No space left on device" in done.stderr
    assert b"Traceback" not in done.stderr and b"internal error" not in done.stderr


def test_a_closed_pipe_ends_quietly_with_the_runs_status() -> None:
    """A reader that went away (``| head -0``) is no I/O error: the run ends as it would, silently."""
    child = subprocess.Popen(
        [sys.executable, "-m", "sgcheck", "replay", str(LOGS / "full-game.sglog")],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert child.stdout is not None and child.stderr is not None
    child.stdout.close()  # the reader went away, as `sgcheck replay ... | head -0` does
    errors = child.stderr.read()
    assert child.wait(timeout=120) == 0  # the game is legal
    assert errors == b""


# --- check: standard input, nothing to check, one pack's failure contained -----------------------

CARD = 'relic "Hawk Eye" { cost 5 SP effect to_hit +5 }\nspell "Gift" { phase main1 effect gain 1 LP }\n'
YAML_CARD = """\
cards:
  - name: Hawk Eye
    kind: relic
    mode: passive
    cost: {SP: 5}
    phase: main
    effects:
      - to_hit: 5
"""


def test_check_reads_cards_from_standard_input() -> None:
    """`check -` reads card text like `replay -` reads a log; findings name <stdin>."""
    result = invoke("check", "-", "--isolated", "--format", "json", input=CARD)
    report = json.loads(result.output)
    assert [f["path"] for f in report["files"]] == ["<stdin>"]
    assert report["files"][0]["facts"] == {"cards": 2}
    assert [d["code"] for d in report["files"][0]["diagnostics"]] == ["SG-C092"]  # a free card (no cost)


def test_stdin_filename_names_the_cards_and_picks_their_format() -> None:
    text = invoke("check", "-", "--isolated", "--stdin-filename", "pack/gift.sgcard", input=CARD).output
    assert text.startswith("pack/gift.sgcard:2:")
    as_yaml = invoke("check", "-", "--isolated", "--stdin-filename", "hawk.sgcard.yaml", input=YAML_CARD)
    assert as_yaml.exit_code == 0, as_yaml.output
    assert "1 file checked: no problems found" in as_yaml.output


def test_check_of_a_folder_without_cards_says_so_and_exits_2(tmp_path: Path) -> None:
    (tmp_path / "notes.md").write_text("# nothing to check\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["check", str(tmp_path), "--isolated"])
    assert result.exit_code == 2
    assert "no card files (*.sgcard, *.sgcard.yaml), scenarios (*.scenario.yaml) or packs found" in result.output
    assert "no problems found" not in result.output


def test_a_failure_on_one_pack_is_reported_on_it_and_the_others_still_are(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """SG-X001 for the pack sgcheck failed on; the other card files are checked; SARIF stays valid."""
    from sgcheck.contract import checker as engine

    (tmp_path / "a.sgcard").write_text(CARD, encoding="utf-8")
    (tmp_path / "b.sgcard").write_text(CARD, encoding="utf-8")
    real = engine._gather

    def fails_on_a(plan: engine.PackPlan, *args: object) -> object:
        if plan.name.endswith("a.sgcard"):
            raise RecursionError("maximum recursion depth exceeded")
        return real(plan, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(engine, "_gather", fails_on_a)
    result = CliRunner().invoke(main, ["check", str(tmp_path), "--isolated", "--format", "json"])
    files = {Path(f["path"]).name: [d["code"] for d in f["diagnostics"]] for f in json.loads(result.output)["files"]}
    assert files == {"a.sgcard": ["SG-X001"], "b.sgcard": ["SG-C092"]}
    assert result.exit_code == 2
    sarif = json.loads(CliRunner().invoke(main, ["check", str(tmp_path), "--isolated", "--format", "sarif"]).output)
    assert {r["ruleId"] for r in sarif["runs"][0]["results"]} == {"SG-X001", "SG-C092"}


# --- several processes ----------------------------------------------------------------------------


@pytest.mark.parametrize("fmt", ["text", "json", "sarif", "github"])
def test_jobs_change_nothing_in_the_output(fmt: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """`--jobs 2` replays in two processes and prints the very bytes `--jobs 1` prints, in input order."""
    monkeypatch.chdir(ROOT)
    logs = ["examples/logs", "examples/logs/guide-example-a.sglog"]
    one = CliRunner().invoke(main, ["replay", *logs, "--format", fmt, "--jobs", "1", "--keep-going"])
    two = CliRunner().invoke(main, ["replay", *logs, "--format", fmt, "--jobs", "2", "--keep-going"])
    assert one.exit_code == two.exit_code == 1
    assert one.output == two.output
    assert one.output.count("broken/") > 10 or fmt == "github"


def test_many_logs_go_to_workers_in_batches_and_come_back_in_order(tmp_path: Path) -> None:
    """With many logs each worker takes a few at a time; the output is still that of `--jobs 1`."""
    sources = sorted((ROOT / "examples" / "logs").rglob("*.sglog"))
    for index in range(48):
        source = sources[index % len(sources)]
        (tmp_path / f"{index:02d}-{source.name}").write_bytes(source.read_bytes())
    one = CliRunner().invoke(main, ["replay", str(tmp_path), "--format", "json", "--jobs", "1"])
    two = CliRunner().invoke(main, ["replay", str(tmp_path), "--format", "json", "--jobs", "2"])
    assert one.output == two.output
    assert [Path(f["path"]).name[:2] for f in json.loads(two.output)["files"]] == [f"{i:02d}" for i in range(48)]


def test_a_worker_renders_its_part_and_sends_back_no_source() -> None:
    """What crosses between processes is the result and the text to print, never the log itself."""
    from sgcheck.report import PartRenderer

    logs = [LogInput(str(BROKEN)), LogInput(str(LEGAL))]
    items = list(replay_files.replay_all(logs, ReplayOptions(), PartRenderer("text"), jobs=2))
    assert [result.path for result, _ in items] == [str(BROKEN), str(LEGAL)]
    assert "attack Ra3 a5 roll 6 1 hit" in items[0][1]  # the snippet was rendered by the worker
    assert all(isinstance(part, str) for _, part in items)


def test_standard_input_is_replayed_in_this_process_whatever_jobs_says() -> None:
    log = "king white e1\nking black e8\n1. end: pass lp 26\n"
    result = invoke("replay", "-", str(LEGAL), "--jobs", "4", "--format", "json", input=log)
    report = json.loads(result.output)
    assert [f["path"] for f in report["files"]] == ["<stdin>", str(LEGAL)]  # as its findings name it (--stdin-filename)
    assert report["files"][0]["facts"]["legal"] is True
