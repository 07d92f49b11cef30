"""What each replayed log pays: its facts are worked out only for a report that writes them, and
the command line keeps the cycle collector off what importing made."""

from __future__ import annotations

import gc
import io
import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from sgcheck import launcher
from sgcheck.cli import main
from sgcheck.replay import files
from sgcheck.replay.interpreter import ReplayOptions, ReplayResult
from sgcheck.results import ReplayFacts

ROOT = Path(__file__).resolve().parents[2]
GAME = str(ROOT / "examples" / "logs" / "full-game.sglog")


@pytest.fixture
def facts_made(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The logs whose facts were worked out."""
    made: list[str] = []
    real = files.summary_facts  # type: ignore[attr-defined]

    def counted(result: ReplayResult) -> ReplayFacts:
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


# --- each log read once ------------------------------------------------------------------------

LOGS = ROOT / "examples" / "logs"
SHIPPED = ("full-game.sglog", "fair-dice.sglog", "guide-example-a.sglog", "relic-game.sglog")


@pytest.fixture
def league(tmp_path: Path) -> Path:
    """A folder of shipped logs (one with committed dice, one naming a pack) and the pack."""
    import shutil

    for name in SHIPPED:
        shutil.copy(LOGS / name, tmp_path / name)
    shutil.copytree(LOGS / "relic-pack", tmp_path / "relic-pack")
    return tmp_path


def _opens(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The logs opened from now on, once per opening."""
    import os

    opened: list[str] = []
    real = os.open

    def counted(path: object, *args: object, **kwargs: object) -> int:
        if str(path).endswith(".sglog"):
            opened.append(Path(str(path)).name)
        return real(path, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(os, "open", counted)
    return opened


def test_a_run_over_a_folder_opens_each_log_once(league: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The pass over the headers (a secret two logs share, DR3) and the replay read one text: a
    log is opened, read and decoded once, not once for each."""
    opened = _opens(monkeypatch)
    result = CliRunner().invoke(main, ["replay", str(league), "--jobs", "1", "--no-summary", "--isolated"])
    assert result.exit_code == 0, result.output
    assert sorted(opened) == sorted(SHIPPED)


def test_what_a_run_cannot_keep_is_read_again_with_the_same_report(
    league: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Past HELD_CHARS of text the logs are read again at their replay; the report is the same
    bytes either way, in every format."""
    for fmt in ("json", "text", "sarif"):
        args = ["replay", str(league), "--jobs", "1", "--isolated", "--format", fmt]
        kept = CliRunner().invoke(main, args)
        monkeypatch.setattr(files, "HELD_CHARS", len((LOGS / SHIPPED[0]).read_text(encoding="utf-8")))
        opened = _opens(monkeypatch)
        again = CliRunner().invoke(main, args)
        monkeypatch.undo()
        assert (kept.exit_code, kept.output) == (again.exit_code, again.output)
        assert len(opened) > len(SHIPPED)  # some were read twice


def test_a_secret_two_logs_share_is_still_found_from_the_texts_kept(tmp_path: Path) -> None:
    """DR3 over logs read once: the same two commitments in two logs are SG-D107 on each player's
    tag of both logs (the header pass and the replay share each text)."""
    text = (LOGS / "fair-dice.sglog").read_text(encoding="utf-8")
    (tmp_path / "a.sglog").write_text(text, encoding="utf-8")
    (tmp_path / "b.sglog").write_text(text, encoding="utf-8")
    result = CliRunner().invoke(main, ["replay", str(tmp_path), "--jobs", "1", "--format", "json", "--isolated"])
    assert result.exit_code == 1
    for entry in json.loads(result.output)["files"]:
        found = [d for d in entry["diagnostics"] if d["code"] == "SG-D107"]
        assert len(found) == 2 and {d["span"]["line"] for d in found} == {11, 12}, found


TAG_NAMES = ("WhiteCommit", "whitecommit", "BLACKCOMMIT", "BlackCommit", "Black_Commit", "Event", "GameId", "Comm")


@given(
    tags=st.lists(
        st.tuples(st.sampled_from(TAG_NAMES), st.sampled_from(["00" * 32, "ab" * 32, "not hex", "Commit"])),
        max_size=5,
    ),
    after=st.sampled_from(["", "king white e1\n", "; commit\n", "1. end: pass\n"]),
)
@settings(max_examples=60, deadline=None)
def test_the_commitments_found_without_reading_a_header_are_the_headers(
    tags: list[tuple[str, str]], after: str
) -> None:
    """``log_commitments`` skips the header of a text that cannot hold a commitment's tag; what it
    finds is what reading the header finds (the oracle reads every header, in every case DR3 reads
    a tag's name in)."""
    from sgcheck.lang.logs.reader import read_log
    from sgcheck.lang.source import SourceText
    from sgcheck.replay.dice_reuse import commitments, first_header, log_commitments

    text = "".join(f'[{name} "{value}"]\n' for name, value in tags) + after
    header = first_header(read_log(SourceText("g.sglog", text)))
    expected = commitments("g.sglog", header) if header is not None else []
    assert log_commitments("g.sglog", SourceText("g.sglog", pieces=(text,))) == expected


def test_reading_a_log_opens_it_once_and_its_size_decides_whether_it_is_kept(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A log is opened once (no stat before): small, it is kept; above STREAMED_ABOVE it is
    checked whole and read again in pieces as the reader goes (the same text)."""
    import os

    from sgcheck.lang import source

    log = tmp_path / "g.sglog"
    text = (LOGS / "full-game.sglog").read_text(encoding="utf-8")
    log.write_text(text, encoding="utf-8")
    stats: list[object] = []
    real_stat = os.stat

    def counted_stat(path: object, *args: object, **kwargs: object) -> os.stat_result:
        stats.append(path)
        return real_stat(path, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(os, "stat", counted_stat)
    opened = _opens(monkeypatch)
    small = source.read_source(log, "g.sglog", streamed=True)
    assert isinstance(small, source.SourceText) and small.kept() is not None and small.text == text
    assert opened == ["g.sglog"] and not [s for s in stats if str(s).endswith(".sglog")]
    monkeypatch.setattr(source, "STREAMED_ABOVE", len(text.encode()) - 1)
    big = source.read_source(log, "g.sglog", streamed=True)
    assert isinstance(big, source.SourceText) and big.kept() is None and "".join(big.pieces) == text


@given(
    white=st.integers(0, 63),
    black=st.integers(0, 63),
    rules=st.sampled_from(["core", "king_value=3", "income=all", "turn_limit=40"]),
)
@settings(max_examples=40, deadline=None)
def test_the_opening_state_built_once_is_the_one_built_each_time(white: int, black: int, rules: str) -> None:
    """The state at the start of play is shared by the logs that place their Kings alike (it is
    immutable): it equals the core's own, built anew (R01, R02)."""
    from sgcheck.core.ruleset import parse_ruleset
    from sgcheck.core.squares import Square
    from sgcheck.core.state import initial_state
    from sgcheck.replay.setup_lines import _opening

    ruleset = parse_ruleset(rules)
    fresh = initial_state(Square(white), Square(black), ruleset)
    assert _opening(Square(white), Square(black), ruleset) == fresh
    assert _opening(Square(white), Square(black), ruleset) is _opening(Square(white), Square(black), ruleset)


class _Counted(io.StringIO):
    """A stream that counts its flushes; a terminal or not."""

    def __init__(self, tty: bool) -> None:
        super().__init__()
        self.tty = tty
        self.flushes = 0

    def isatty(self) -> bool:
        return self.tty

    def flush(self) -> None:
        self.flushes += 1
        super().flush()


@pytest.mark.parametrize("tty", [False, True])
def test_a_report_to_a_pipe_is_written_in_one_go_and_to_a_terminal_file_by_file(league: Path, tty: bool) -> None:
    """Each file's part of a text report is flushed as it comes only when a terminal shows it; to
    a file or a pipe the parts wait in the buffer, and the report is the same text."""
    from sgcheck.cli.common import open_report, write_report
    from sgcheck.codes import REPLAY_CODES

    stream = _Counted(tty)
    out, report = open_report(
        "text", command="replay", rules=REPLAY_CODES, file_count=len(SHIPPED), color=False, stream=stream
    )
    logs = files.discover_logs([str(league)])
    rendered = files.replay_all(logs, ReplayOptions(), report.renderer)
    assert write_report(rendered, out, report) == 0
    written = stream.getvalue()
    assert all(f"{name}: " in written for name in SHIPPED)  # each log's summary, labelled
    assert written.endswith("4 files checked: no problems found\n")
    assert stream.flushes == (len(SHIPPED) + 1 if tty else 1)


def test_a_folder_search_reads_links_from_the_folder_not_file_by_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Which files are links is read once a folder (no lstat a file); a link out of the folder is
    still refused (SG-P008) and one inside it replayed."""
    import os

    (tmp_path / "in").mkdir()
    outside = tmp_path / "outside.sglog"
    outside.write_text((LOGS / SHIPPED[0]).read_text(encoding="utf-8"), encoding="utf-8")
    (tmp_path / "in" / "a.sglog").write_text(outside.read_text(encoding="utf-8"), encoding="utf-8")
    (tmp_path / "in" / "b.sglog").symlink_to(tmp_path / "in" / "a.sglog")
    (tmp_path / "in" / "c.sglog").symlink_to(outside)
    asked: list[str] = []
    real = os.path.islink

    def islink(path: str) -> bool:
        asked.append(str(path))
        return real(path)

    monkeypatch.setattr(os.path, "islink", islink)
    found = files.discover_logs([str(tmp_path / "in")])
    assert [Path(log.path).name for log in found] == ["a.sglog", "b.sglog", "c.sglog"]
    assert [log.problem is not None and log.problem.code for log in found] == [False, False, "SG-P008"]
    assert not [path for path in asked if path.endswith(".sglog")]
