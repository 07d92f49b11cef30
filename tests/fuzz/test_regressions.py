"""Crashes, configuration mistakes and unbounded findings found by a reliability campaign.

Each test is one reproducer: a run that used to end in an internal error (SG-X001), a traceback,
a usage error blaming an option nobody gave, no report at all, time growing with the square of a
configuration's size, or findings that listed a whole pack each. Every run keeps the promises of
:func:`harness.check_sane`.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from sgcheck import config as config_module
from sgcheck.config import find_pyproject
from sgcheck.contract import load_config
from sgcheck.diagnostics import LISTED_NAMES, listing, shortlist
from sgcheck.lang.cards.format_yaml import format_yaml_text
from sgcheck.lang.cards.yaml_loader import load_card_yaml
from sgcheck.lang.formatting import shape
from tests import installed

from .harness import EXAMPLES, REPO, check_sane, hang_guard, run_in_process, run_subprocess

PACK = EXAMPLES / "logs" / "broken" / "cards" / "pack"
LEGAL_LOG = EXAMPLES / "logs" / "guide-example-a.sglog"


def _codes(document: dict[str, object]) -> list[tuple[str, str, int | None]]:
    """(path, code, line) of every finding of a JSON report."""
    files = document["files"]
    assert isinstance(files, list)
    return [
        (f["path"], d["code"], d["span"]["line"] if d.get("span") else None) for f in files for d in f["diagnostics"]
    ]


# --- 1. a drafted card the pack does not hold, then played, with --keep-going ---------------------

UNKNOWN_DRAFTED = """\
[Pack "pack"]
draft white "Soul Drain" "Nonexistent Card"
draft black "Mirror Barrier" "Soul Drain"
king white e1
king black e8

1.   main2: play "Nonexistent Card" cost 2 gain 4sp lp 14 sp 4
"""


@pytest.mark.parametrize("keep_going", [True, False])
@pytest.mark.parametrize("fmt", ["text", "json"])
def test_a_card_drafted_but_not_in_the_pack_then_played_is_two_findings(
    tmp_path: Path, keep_going: bool, fmt: str
) -> None:
    """Used to be SG-X001 (KeyError) with --keep-going: now SG-S106 at the draft, then SG-R120 at
    the play, and the replay goes on."""
    shutil.copytree(PACK, tmp_path / "pack")
    log = tmp_path / "game.sglog"
    log.write_text(UNKNOWN_DRAFTED, encoding="utf-8")
    args = ("replay", *(["--keep-going"] if keep_going else []), str(log))
    outcome = check_sane(run_in_process(*args, fmt=fmt), inputs=1)
    assert outcome.exit_code == 1, outcome.describe()
    codes = outcome.codes()
    assert "SG-S106" in codes
    if keep_going:
        assert "SG-R120" in codes
        if fmt == "json":
            (found,) = [d for f in outcome.document["files"] for d in f["diagnostics"] if d["code"] == "SG-R120"]
            assert "the game's pack has no such card" in found["message"]
            assert found["span"]["line"] == 7


# --- 2. and 6. configuration tables that are not tables, and errors in replay's ignore -------------


@pytest.mark.parametrize(
    ("text", "line", "column"),
    [
        ("tool = 1\n# tool.sgcheck settings would go here\n", 1, 1),
        ('[project]\nname = "x"\n\n[tool]\nsgcheck = 1\n', 5, 1),
        ("tool.sgcheck = 1\n", 1, 6),
        ('[tool.sgcheck]\nreplay = "fast"\n', 2, 1),
        ("[tool.sgcheck]\nseverity = 3\n", 2, 1),
        ("[tool.sgcheck]\nper-file-ignores = []\n", 2, 1),
        ("[tool.sgcheck]\nexclude = 1\n", 2, 1),
        ("[tool.sgcheck.replay]\nignore = 5\n", 2, 1),
        ("[tool.sgcheck.replay]\nselect = [1]\n", 2, 1),
    ],
)
@pytest.mark.parametrize("command", ["replay", "check"])
def test_a_setting_that_is_not_a_table_is_a_located_config_problem(
    tmp_path: Path, text: str, line: int, column: int, command: str
) -> None:
    """Used to end in an internal error with no report (``tool = 1``): now SG-C210 on the key, in
    every format, and the run goes on with the defaults."""
    path = tmp_path / "pyproject.toml"
    path.write_text(text, encoding="utf-8")
    config = load_config(path, "pyproject.toml")
    assert [p.code for p in config.problems] == ["SG-C210"]
    span = config.problems[0].span
    assert span is not None and (span.line, span.column) == (line, column)
    target = str(LEGAL_LOG) if command == "replay" else str(EXAMPLES / "cards" / "guide-relics.sgcard")
    for fmt in ("json", "text", "sarif"):
        outcome = check_sane(run_in_process(command, "--config", str(path), target, fmt=fmt))
        assert "SG-C210" in outcome.codes(), outcome.describe()
        if fmt == "json":
            paths = [f["path"] for f in outcome.document["files"]]
            assert len(paths) == 2 and target in paths[1]  # the configuration's problems, then the file checked


@pytest.mark.parametrize(
    "text", ["tool = 1\n# tool.sgcheck\n", "[tool]\nsgcheck = 1\n", "[tool]\nsgcheck = {ignore = 1}\n"]
)
def test_a_configuration_found_upward_is_reported_whatever_its_shape(tmp_path: Path, text: str) -> None:
    (tmp_path / "pyproject.toml").write_text(text, encoding="utf-8")
    logs = tmp_path / "games"
    logs.mkdir()
    shutil.copy(LEGAL_LOG, logs / "game.sglog")
    assert find_pyproject(logs) == tmp_path / "pyproject.toml"
    outcome = check_sane(run_in_process("replay", str(logs / "game.sglog"), fmt="json"), inputs=2)
    assert [code for _, code, _ in _codes(outcome.document)] == ["SG-C210"]


def test_a_pyproject_without_sgcheck_settings_is_not_read(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text('tool = 1\n[project]\nname = "x"\n', encoding="utf-8")
    assert find_pyproject(tmp_path) is None


def test_an_error_code_in_replays_ignore_is_sg_c210_and_the_rest_applies(tmp_path: Path) -> None:
    """Used to be a usage error with no report; docs/ci.md promises SG-C210 with the valid settings."""
    path = tmp_path / "pyproject.toml"
    path.write_text(
        '[tool.sgcheck.replay]\nkeep-going = true\nignore = [\n    "N303",\n    "R101",\n    "wrong-hit",\n]\n',
        encoding="utf-8",
    )
    config = load_config(path, "pyproject.toml")
    assert [(p.code, p.span.line if p.span else None) for p in config.problems] == [("SG-C210", 5), ("SG-C210", 6)]
    assert "'R101' is SG-R101, an error" in config.problems[0].message
    assert config.replay.ignore == ("N303",) and config.replay.keep_going is True
    outcome = check_sane(run_in_process("replay", "--config", str(path), str(LEGAL_LOG), fmt="json"), inputs=2)
    assert outcome.exit_code == 2  # reported with the valid settings applied, then exit 2 (an invalid configuration)
    assert [code for _, code, _ in _codes(outcome.document)] == ["SG-C210", "SG-C210"]
    # on the command line it stays a usage error
    refused = run_in_process("replay", "--isolated", "--ignore", "R101", str(LEGAL_LOG), fmt="json")
    assert refused.exit_code == 2 and "R101" in refused.stderr


# --- 5. statistics = true in the configuration ----------------------------------------------------


@pytest.mark.parametrize("command", ["replay", "check"])
def test_configured_statistics_leave_other_formats_alone(tmp_path: Path, command: str) -> None:
    """Used to make every --format json run a usage error blaming --statistics."""
    path = tmp_path / "pyproject.toml"
    path.write_text("[tool.sgcheck]\nstatistics = true\n[tool.sgcheck.replay]\nstatistics = true\n", encoding="utf-8")
    target = (
        str(EXAMPLES / "logs" / "broken" / "wrong-hit.sglog")
        if command == "replay"
        else str(EXAMPLES / "cards" / "guide-relics.sgcard")
    )
    for fmt in ("json", "sarif"):
        outcome = check_sane(run_in_process(command, "--config", str(path), target, fmt=fmt), inputs=None)
        assert outcome.exit_code == 1, outcome.describe()
        assert "--statistics" not in outcome.stderr
    text = check_sane(run_in_process(command, "--config", str(path), target, fmt="text"))
    assert text.stdout.splitlines()[0].split()[1].startswith("SG-")  # the count table, not the findings
    given = run_in_process(command, "--config", str(path), "--statistics", target, fmt="json")
    assert given.exit_code == 2 and "--statistics" in given.stderr


# --- 3. YAML text with a line ending in a blank ---------------------------------------------------

TRAILING_BLANK = (
    "cards:\n"
    "  - name: Soul Ward\n"
    "    kind: relic\n"
    "    mode: passive\n"
    "    cost: {{SP: 6}}\n"
    "    phase: main\n"
    "    text: {style}\n"
    "      Reduces all damage \n"
    "      \n"
    "        to your\t\n"
    "      King by 2. \n"
    "\n"
    "    # the effect\n"
    "    effects:\n"
    "      - reduce_damage: {{by: 2, on: own King}}\n"
)


@pytest.mark.parametrize("style", ["|", ">", "|-", "|+", "|2"])
def test_a_block_text_with_trailing_blanks_is_formatted_to_the_same_card(tmp_path: Path, style: str) -> None:
    """``fmt`` used to strip the blanks inside the block and give up with an internal error: the
    text is now written double-quoted, and the file reads back as the same cards."""
    text = TRAILING_BLANK.format(style=style)
    before = load_card_yaml(text, "w.sgcard.yaml")
    out = format_yaml_text(text, "w.sgcard.yaml")
    assert isinstance(out, str) and out != text
    after = load_card_yaml(out, "w.sgcard.yaml")
    assert shape(after.cards) == shape(before.cards)
    written = before.cards[0].text
    assert written is not None and written.startswith("Reduces all damage \n")
    assert after.cards[0].text == written
    assert format_yaml_text(out, "w.sgcard.yaml") == out
    assert all(line == line.rstrip() for line in out.splitlines())
    path = tmp_path / "w.sgcard.yaml"
    path.write_text(text, encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "sgcheck", "fmt", str(path)], capture_output=True, cwd=REPO, timeout=120, check=False
    )
    assert done.returncode == 0, done.stderr
    assert b"internal error" not in done.stderr
    assert path.read_text(encoding="utf-8") == out


def test_a_comment_after_the_block_indicator_is_reported_not_lost() -> None:
    text = TRAILING_BLANK.format(style="|  # kept?")
    out = format_yaml_text(text, "w.sgcard.yaml")
    assert isinstance(out, list) and [d.code for d in out] == ["SG-P039"]
    assert out[0].span is not None and out[0].span.line == 7


# --- 4. output that cannot be written --------------------------------------------------------------

COMMANDS = [
    ["--help"],
    ["-h"],
    ["--version"],
    ["explain", "SG-R101"],
    ["explain", "--list"],
    ["explain", "--help"],
    ["schema"],
    ["odds"],
    ["rulings"],
    ["replay", "--help"],
    ["fmt", "-"],
    ["replay", str(LEGAL_LOG)],
    ["check", str(EXAMPLES / "cards" / "guide-relics.sgcard"), "--isolated"],
]


def _run(args: list[str], **kwargs: object) -> subprocess.CompletedProcess[bytes]:
    stdin = LEGAL_LOG.read_bytes() if args == ["fmt", "-"] else b""
    return subprocess.run(  # type: ignore[call-overload, no-any-return]
        [sys.executable, "-m", "sgcheck", *args], input=stdin, stderr=subprocess.PIPE, cwd=REPO, timeout=120, **kwargs
    )


def _said_cannot_write(returncode: int, stderr: bytes, reason: bytes) -> None:
    assert returncode == 2, stderr
    assert b"sgcheck: cannot write the report: " + reason in stderr, stderr
    for bad in (b"Traceback", b"internal error", b"Exception ignored"):
        assert bad not in stderr, stderr


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="the platform has no /dev/full to fill a disk")
@pytest.mark.parametrize("args", COMMANDS, ids=" ".join)
def test_a_full_disk_is_one_line_and_exit_2(args: list[str]) -> None:
    with open("/dev/full", "wb") as full:
        done = _run(args, stdout=full)
    _said_cannot_write(done.returncode, done.stderr, b"No space left on device")


@pytest.mark.parametrize("args", COMMANDS, ids=" ".join)
def test_a_closed_pipe_ends_quietly_with_the_runs_own_status(args: list[str]) -> None:
    """A reader that went away (``| head -1``) is no failure: no message, and the status the run
    has when its output is read."""
    expected = _run(args, stdout=subprocess.DEVNULL).returncode
    child = subprocess.Popen(
        [sys.executable, "-m", "sgcheck", *args],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=REPO,
    )
    assert child.stdout is not None and child.stdin is not None and child.stderr is not None
    child.stdout.close()  # the reader went away before anything was written
    if args == ["fmt", "-"]:
        child.stdin.write(LEGAL_LOG.read_bytes())
    child.stdin.close()
    errors = child.stderr.read()
    assert child.wait(timeout=120) == expected, errors
    assert errors == b"", errors


@pytest.mark.skipif(os.name != "posix", reason="closing a child's standard output needs POSIX")
@pytest.mark.parametrize("args", [["--version"], ["explain", "--list"], ["replay", str(LEGAL_LOG)]], ids=" ".join)
def test_a_closed_standard_output_is_one_line_and_exit_2(args: list[str]) -> None:
    done = _run(args, stdout=subprocess.DEVNULL, preexec_fn=lambda: os.close(1))
    _said_cannot_write(done.returncode, done.stderr, b"standard output is closed")


# --- 7. configuration problems are placed in one pass ----------------------------------------------


def test_thousands_of_unknown_codes_are_located_in_one_pass(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """8,000 unknown codes in per-file-ignores took 65 s: each problem read the whole text again.
    The settings are now indexed once, so the text is scanned once whatever the problems."""
    scans: list[int] = []
    real = config_module._own_lines

    def counted(text: str):  # type: ignore[no-untyped-def]
        scans.append(len(text))
        return real(text)

    monkeypatch.setattr(config_module, "_own_lines", counted)
    codes = ", ".join(f'"X{i:05d}"' for i in range(8000))
    path = tmp_path / "pyproject.toml"
    path.write_text(f'[tool.sgcheck]\nignore = ["C120"]\n[tool.sgcheck.per-file-ignores]\n"a/*" = [{codes}]\n', "utf-8")
    with hang_guard(30, "locating 8,000 configuration problems"):
        config = load_config(path, "pyproject.toml")
    assert len(config.problems) == 8000
    assert len(scans) == 1  # one pass over the settings for every problem
    last = config.problems[-1]
    assert last.span is not None and last.span.line == 4
    assert last.span.column == 1 + f'"a/*" = [{codes}]'.index('"X07999"') + 1


def test_problems_no_key_or_word_spells_search_the_text_a_bounded_number_of_times(tmp_path: Path) -> None:
    """A value written so that no key, quoted string or word of the text spells it (an inline
    table in a list of codes) may be searched for in the text, but only a bounded number of times."""
    values = ", ".join(f"{{a = {i}}}" for i in range(300))
    text = f"[tool.sgcheck]\nignore = [{values}]\n"
    path = tmp_path / "pyproject.toml"
    path.write_text(text, "utf-8")
    with hang_guard(30, "locating 300 configuration problems"):
        config = load_config(path, "pyproject.toml")
    assert len(config.problems) == 300

    class Lines(list[tuple[int, str]]):
        scans = 0

        def __iter__(self):  # type: ignore[no-untyped-def]
            Lines.scans += 1
            return super().__iter__()

    index = config_module._Index(text)
    index.lines = Lines(index.lines)
    assert index.find("ignore") == (2, 0)  # a key: no search
    assert all(index.find(f"{{'a': {i}}}") is None for i in range(300))
    assert Lines.scans == config_module._SCAN_BUDGET


def test_a_large_bad_configuration_is_checked_fast(tmp_path: Path) -> None:
    """Under the hang guard: a 1 MB configuration (90,000 unknown codes) took over 20 minutes to
    check, and 8,000 of them in a run of the command 65 s."""
    codes = ", ".join(f'"X{i:06d}"' for i in range(90000))
    path = tmp_path / "pyproject.toml"
    path.write_text(f"[tool.sgcheck]\nignore = [{codes}]\n", "utf-8")
    assert 900_000 < path.stat().st_size < 1_000_000
    with hang_guard(60, "checking a 1 MB configuration"):
        assert len(load_config(path, "pyproject.toml").problems) == 90000
    codes = ", ".join(f'"X{i:05d}"' for i in range(8000))
    path.write_text(f'[tool.sgcheck.per-file-ignores]\n"a/*" = [{codes}]\n', "utf-8")
    outcome = run_subprocess("replay", "--config", str(path), str(LEGAL_LOG), fmt="json", timeout=60)
    assert outcome.exit_code == 2, outcome.describe()
    assert len(outcome.codes()) == 8000


# --- 8. findings list a bounded number of names ----------------------------------------------------


def test_shortlist_keeps_the_closest_names_and_counts_the_rest() -> None:
    names = [f"Card {i:04d}" for i in range(1000)] + ["Soul Drain"]
    shown, more = shortlist(names, "Soul Drian")
    assert len(shown) == LISTED_NAMES and more == len(names) - LISTED_NAMES
    assert shown[0] == "Soul Drain"
    assert listing(["a", "b"]) == "'a', 'b'"
    assert listing([], none="nothing") == "nothing"
    assert listing([str(i) for i in range(8)], quote=str) == "0, 1, 2, 3, 4 and 3 more"


def _big_pack(folder: Path, cards: int) -> None:
    folder.mkdir()
    body = "".join(
        f'spell "Arcane Surge Variant {i:05d}" {{\n    cost 5 SP\n    phase battle\n'
        f"    effect damage +1 this attack\n}}\n\n"
        for i in range(cards)
    )
    (folder / "cards.sgcard").write_text(body, encoding="utf-8")
    (folder / "sgpack.yaml").write_text(
        "name: big\nversion: 1.0.0\nruleset: core\ndraft:\n  draw: 5\n  keep: 3\ncards:\n  - cards.sgcard\n", "utf-8"
    )


def _drafting_log(path: Path, unknown: int) -> None:
    names = " ".join(f'"Unknown Card Name {j:03d}"' for j in range(unknown))
    path.write_text(
        f'[Pack "pack"]\ndraft white {names}\nking white e1\nking black e8\n\n'
        '1.   main2: play "Unknown Card Name 000"\n',
        encoding="utf-8",
    )


def test_findings_about_unknown_cards_stay_small_whatever_the_pack(tmp_path: Path) -> None:
    """A 3 KB log drafting 300 unknown names against a 1 MB pack gave 70 MB of JSON (each finding
    listed the whole pack) and a 209 MB page. Each finding now lists a few names and a count."""
    sizes: dict[int, tuple[int, int]] = {}
    for cards in (8, 1500):
        folder = tmp_path / f"run{cards}"
        folder.mkdir()
        _big_pack(folder / "pack", cards)
        _drafting_log(folder / "game.sglog", 60)
        outcome = check_sane(
            run_subprocess("replay", "--keep-going", str(folder / "game.sglog"), fmt="json", timeout=120), inputs=1
        )
        findings = [d for f in outcome.document["files"] for d in f["diagnostics"]]
        assert {"SG-S106", "SG-R120"} <= {d["code"] for d in findings}
        for finding in findings:
            assert len(json.dumps(finding)) < 2000, finding["message"][:300]
        if cards > LISTED_NAMES:
            s106 = next(d for d in findings if d["code"] == "SG-S106")
            assert f"and {cards - LISTED_NAMES} more" in s106["message"]
        html = run_subprocess("replay", "--keep-going", str(folder / "game.sglog"), fmt="html", timeout=120)
        assert html.exit_code == 1
        sizes[cards] = (len(outcome.stdout), len(html.stdout))
    (small_json, small_html), (big_json, big_html) = sizes[8], sizes[1500]
    assert big_json < small_json * 1.5 and big_html < small_html * 1.5  # the pack's size does not show


def test_a_near_miss_costs_the_same_whatever_the_pack(monkeypatch: pytest.MonkeyPatch) -> None:
    """The reproducer: 300 unknown draft names against a 1 MB pack took 73 s, each name compared
    with every card of the pack. The pack's names are indexed once (NameIndex); each question
    compares the word with a fixed number of candidates, and still finds the near miss."""
    from sgcheck import diagnostics
    from sgcheck.diagnostics import NameIndex

    compared: list[int] = []
    real = diagnostics.get_close_matches

    def counting(word: str, possibilities: list[str], n: int = 3, cutoff: float = 0.6) -> list[str]:
        compared.append(len(possibilities))
        return real(word, possibilities, n=n, cutoff=cutoff)

    monkeypatch.setattr(diagnostics, "get_close_matches", counting)
    names = [f"Card of the Long Pack {number:05d}" for number in range(20_000)] + ["Soul Drain", "Soul Ward"]
    index = NameIndex(names)
    assert index.close("Soul Drian", cutoff=0.5)[0] == "Soul Drain"
    assert index.close("Card of the Long Pack 1234x", cutoff=0.5)  # a near miss among thousands alike
    for number in range(300):
        index.close(f"Unknown Card Name {number:03d}", cutoff=0.5)
    assert compared and max(compared) <= NameIndex.CANDIDATES
    assert index.listing(["Soul Drain"]) == f"'Soul Drain', {', '.join(map(repr, sorted(names)[:4]))} and 19997 more"


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="needs /dev/zero")
def test_a_secret_is_read_within_bounds() -> None:
    """The reproducers: `dice key @/dev/zero` and `dice commit - < /dev/zero` read without limit
    (until memory ran out). A secret is read up to a few hundred characters, then refused: exit 2,
    one usage error, within the harness's memory cap and hang guard."""
    from .harness import _limit_child

    def dice(*args: str, stdin: Any = subprocess.DEVNULL) -> subprocess.CompletedProcess[bytes]:
        return subprocess.run(
            [sys.executable, "-m", "sgcheck", "dice", *args], stdin=stdin, capture_output=True, cwd=REPO,
            env={**os.environ, "PYTHONPATH": installed.pythonpath()}, preexec_fn=_limit_child, timeout=30, check=False,
        )  # fmt: skip

    key = dice("key", "@/dev/zero", "--roll", "0")
    with open("/dev/zero", "rb") as zeros:
        commit = dice("commit", "-", stdin=zeros)
    for outcome in (key, commit):
        assert outcome.returncode == 2, outcome.stderr
        assert b"longer than 256 characters" in outcome.stderr and b"Traceback" not in outcome.stderr


def test_a_game_id_that_is_not_utf8_is_a_usage_error() -> None:
    """The reproducer: `dice next --game-id` with bytes that are not UTF-8 crashed."""
    result = subprocess.run(
        [sys.executable, "-m", "sgcheck", "dice", "next", b"--game-id", b"board-\xff\xfe",
         "--white-commit", "1" * 64, "--black-commit", "2" * 64, "--white", "3" * 64, "--black", "4" * 64],
        capture_output=True, cwd=REPO, env={**os.environ, "PYTHONPATH": installed.pythonpath()}, check=False,
    )  # fmt: skip
    assert result.returncode == 2, result.stderr
    assert b"the game id must be a non-empty UTF-8 text" in result.stderr and b"Traceback" not in result.stderr


def test_one_unreadable_log_does_not_stop_dice_stats(tmp_path: Path) -> None:
    """The reproducer: one unreadable log aborted `dice stats` (exit 2, nothing counted). It is
    listed with the reason, the dice of the other logs are counted, and the run still ends with
    exit 2, an input it could not read (docs/dice.md)."""
    shutil.copy(EXAMPLES / "logs" / "full-game.sglog", tmp_path / "a.sglog")
    (tmp_path / "b.sglog").write_bytes(b"\x00binary\x00")
    outcome = run_in_process("dice", "stats", str(tmp_path), fmt="json")
    assert outcome.exit_code == 2, outcome.describe()
    document = json.loads(outcome.stdout)
    assert document["unreadable"] == 1 and [entry["log"] for entry in document["unread"]] == [str(tmp_path / "b.sglog")]
    assert document["players"], "the readable log's dice are counted"
    assert "Traceback" not in outcome.stderr


def test_a_streamed_diff_keeps_difflib_order_when_a_piece_ends_mid_line() -> None:
    """Found by the long fuzz run (test_streamed_diff_is_the_diff_patch_reads): a piece whose last
    line had no line end was held apart from the other side's, and the diff of 'a' against an
    empty line came out as an insertion before the deletion. Pieces are now held until both sides
    end at a line's end: the text is difflib's."""
    from sgcheck.lang.format_diff import UnifiedDiff

    written: list[str] = []
    diff = UnifiedDiff("f", written.append)
    diff.add("a", "\n")
    diff.finish()
    assert "".join(written) == "--- f\n+++ f\n@@ -1 +1 @@\n-a\n\\ No newline at end of file\n+\n"
