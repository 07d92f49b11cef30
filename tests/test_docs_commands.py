"""Every console session in README.md and docs/*.md prints what the docs show, and every file the
docs show as a shipped one is that file (conventions: tests/doc_sessions.py and docs/ci.md).

``SGCHECK_UPDATE_GOLDEN=1`` rewrites the shown output of each session that is stale, and each
block marked ``<!-- file: … -->``, in place in the markdown; review the diff.
"""

from __future__ import annotations

import difflib
import itertools
import shutil
from pathlib import Path
from typing import TYPE_CHECKING

import doc_sessions
import pytest
from click.testing import CliRunner
from doc_sessions import ROOT, Block, Command, shown_name

from sgcheck.cli import main

if TYPE_CHECKING:
    from conftest import Golden

# What a session sees: the repository's example trees (copied, so that a command that writes,
# such as fmt, --fix or -o, leaves the repository alone), no colour, a fixed width, and no
# configuration but the repository's own.
COPIED = ("examples", "schemas")
ENVIRONMENT = {"NO_COLOR": "1", "COLUMNS": "100", "TERM": "dumb", "FORCE_COLOR": None, "SGCHECK_UPDATE_GOLDEN": None}

SESSIONS = list(doc_sessions.sessions())


def _id(block: Block) -> str:
    return block.where


@pytest.fixture
def scratch(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A copy of the repository's example trees, the working folder of one session."""
    for name in COPIED:
        shutil.copytree(ROOT / name, tmp_path / name)
    monkeypatch.chdir(tmp_path)
    from sgcheck import config

    inside = config.find_pyproject

    def nearest_inside(start: Path) -> Path | None:
        found = inside(start)
        return found if found is not None and found.resolve().is_relative_to(tmp_path.resolve()) else None

    monkeypatch.setattr(config, "find_pyproject", nearest_inside)
    return tmp_path


def run(command: Command, folder: Path) -> tuple[list[str], int]:
    stdin = (folder / command.stdin).read_bytes() if command.stdin is not None else None
    result = CliRunner(env=ENVIRONMENT).invoke(main, list(command.args), input=stdin, prog_name="sgcheck")
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return doc_sessions.output_lines(result.stdout + result.stderr), result.exit_code


@pytest.mark.parametrize(("block", "index"), SESSIONS, ids=[_id(block) for block, _ in SESSIONS])
def test_session_prints_what_the_docs_show(block: Block, index: int, scratch: Path, golden: Golden) -> None:
    shown: list[tuple[Command, list[str], int]] = []
    stale: list[str] = []
    for command in doc_sessions.commands(block):
        output, status = run(command, scratch)
        if doc_sessions.matches(command.expected, output) and status == command.status:
            shown.append((command, list(command.expected), status))
            continue
        shown.append((command, output, status))
        expected = [*command.expected, *([f"# exit {command.status}"] if command.status else [])]
        printed = [*output, *([f"# exit {status}"] if status else [])]
        diff = difflib.unified_diff(expected, printed, "shown in the docs", "printed", lineterm="")
        stale.append(f"{shown_name(block.path)}:{command.line}: {command.text}\n" + "\n".join(diff))
    if stale and golden.update:
        doc_sessions.replace_body(block.path, doc_sessions.INFO, index, doc_sessions.session_body(shown))
        return
    assert not stale, "stale console session (SGCHECK_UPDATE_GOLDEN=1 rewrites it):\n" + "\n\n".join(stale)


SHOWN_FILES = [
    (block, index)
    for path in doc_sessions.doc_files()
    for block in doc_sessions.blocks(path)
    if block.marker is not None
    for index in [[b for b in doc_sessions.blocks(path) if b.info == block.info].index(block)]
]


@pytest.mark.parametrize(("block", "index"), SHOWN_FILES, ids=[_id(block) for block, _ in SHOWN_FILES])
def test_a_shown_file_is_the_shipped_file(block: Block, index: int, golden: Golden) -> None:
    assert block.marker is not None
    kind, name = block.marker
    target = ROOT / name
    assert target.is_file(), f"{block.where}: {name} is not a file of the repository"
    lines = doc_sessions.output_lines(target.read_text(encoding="utf-8"))
    shown = list(block.lines)
    if kind == "file":
        if shown != lines and golden.update:
            doc_sessions.replace_body(block.path, block.info, index, lines)
            return
        diff = "\n".join(difflib.unified_diff(shown, lines, "shown in the docs", name, lineterm=""))
        assert shown == lines, f"{block.where}: the block is not {name} (SGCHECK_UPDATE_GOLDEN=1 copies it)\n{diff}"
    else:
        runs = (lines[start : start + len(shown)] for start in range(len(lines) - len(shown) + 1))
        assert shown and any(run == shown for run in runs), f"{block.where}: the block is not a run of lines of {name}"


def test_every_sgcheck_command_with_output_is_in_a_console_block() -> None:
    """A ``$ sgcheck`` line outside a console block would be output nobody checks."""
    for path in doc_sessions.doc_files():
        for block in doc_sessions.blocks(path):
            if block.info != doc_sessions.INFO:
                prompts = [line for line in block.lines if line.startswith(doc_sessions.PROMPT + doc_sessions.PROGRAM)]
                assert not prompts, f"{block.where}: '{prompts[0]}' is shown in a '{block.info}' block, not 'console'"


def test_the_docs_have_sessions_and_shown_files() -> None:
    assert len(SESSIONS) >= 10
    assert {block.marker[0] for block, _ in SHOWN_FILES if block.marker} == {"file", "excerpt"}


def test_the_layout_example_of_fmt_md_is_what_fmt_writes() -> None:
    """docs/fmt.md shows a log before and after formatting, the two blocks around "becomes"."""
    from sgcheck.lang.logs.format_logs import format_log_text

    path = ROOT / "docs" / "fmt.md"
    lines = path.read_text(encoding="utf-8").split("\n")
    found = doc_sessions.blocks(path)
    pairs = [
        (before, after)
        for before, after in itertools.pairwise(found)
        if [line for line in lines[before.last + 1 : after.fence_line] if line.strip()] == ["becomes"]
    ]
    assert pairs, "docs/fmt.md lost its before/after example"
    for before, after in pairs:
        assert format_log_text("\n".join(before.lines) + "\n") == "\n".join(after.lines) + "\n", before.where


# The conventions themselves, on made-up markdown.


def _session(tmp_path: Path, body: str) -> Block:
    page = tmp_path / "page.md"
    page.write_text(f"Text.\n\n```console\n{body}```\n", encoding="utf-8")
    (block,) = doc_sessions.blocks(page)
    return block


@pytest.mark.parametrize(
    ("expected", "actual", "verdict"),
    [
        (["a", "b"], ["a", "b"], True),
        (["a", "b"], ["a", "b", "c"], False),
        (["a", "<...>"], ["a"], True),
        (["a", "<...>", "d"], ["a", "b", "c", "d"], True),
        (["a", "<...>", "d"], ["a", "b", "c"], False),
        (['"version": "<...>"'], ['"version": "0.1.0"'], True),
        (['"version": "<...>"'], ['"name": "0.1.0"'], False),
        (["1... upkeep: pass"], ["1.x. upkeep: pass"], False),  # '...' is text, only '<...>' stands for any
    ],
)
def test_placeholders_match_lines_or_text_within_a_line(expected: list[str], actual: list[str], verdict: bool) -> None:
    assert doc_sessions.matches(expected, actual) is verdict


def test_a_session_is_read_into_commands_outputs_and_statuses(tmp_path: Path) -> None:
    block = _session(
        tmp_path,
        "$ sgcheck replay --quiet a.sglog   # a comment\nout 1\n\nout 2\n# exit 1\n$ sgcheck fmt - < b.sglog\n",
    )
    first, second = doc_sessions.commands(block)
    assert (first.args, first.expected, first.status) == (("replay", "--quiet", "a.sglog"), ("out 1", "", "out 2"), 1)
    assert first.line == 4  # the line of the markdown file
    assert (second.args, second.stdin, second.expected, second.status) == (("fmt", "-"), "b.sglog", (), 0)


@pytest.mark.parametrize(
    "line", ["$ sgcheck replay a.sglog | head", "$ sgcheck replay a.sglog > out.txt", "$ python -m sgcheck"]
)
def test_a_session_refuses_other_shell_syntax_and_programs(tmp_path: Path, line: str) -> None:
    with pytest.raises(AssertionError, match=r"page\.md:4: "):
        doc_sessions.commands(_session(tmp_path, line + "\n"))


def test_an_update_rewrites_only_the_stale_session(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    second = "```console\n$ sgcheck y\nkept\n```\n"
    page.write_text("- a list item:\n\n  ```console\n  $ sgcheck x\n  old\n  ```\n\n" + second)
    (block, _) = doc_sessions.blocks(page)
    (command,) = doc_sessions.commands(block)
    doc_sessions.replace_body(page, "console", 0, doc_sessions.session_body([(command, ["new", "", "lines"], 2)]))
    assert page.read_text() == (
        "- a list item:\n\n  ```console\n  $ sgcheck x\n  new\n\n  lines\n  # exit 2\n  ```\n\n" + second
    )
