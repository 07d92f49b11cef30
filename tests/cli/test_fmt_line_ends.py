"""One notion of a line: the log format's line ends are LF, CRLF and a lone CR (docs/log-format.md);
every other character Unicode or Python calls a break (VT, FF, U+001C-U+001F, NEL, U+2028,
U+2029) is a blank inside a line, for the reader, the grammar, ``fmt`` and its diff alike.

The reproducers: ``fmt`` on a log holding U+001C-U+001F (``str.splitlines`` broke lines where the
grammar saw blanks), and ``fmt --diff`` output that ``patch`` and ``git apply`` rejected on VT, FF,
NEL and U+2028/9. The diff is checked with both tools, on the file as it is.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner

from sgcheck.cli import main
from sgcheck.lang.logs.reader import parse_log
from sgcheck.lang.source import decode

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "logs" / "guide-example-a.sglog"
#: Every character that is a break to ``str.splitlines`` but not a line end of the log format.
BLANK_BREAKS = ["\x0b", "\x0c", "\x1c", "\x1d", "\x1e", "\x1f", "\x85", "\u2028", "\u2029"]
LINE_ENDS = ["\n", "\r\n", "\r"]


def _messy(breaks: str, end: str) -> bytes:
    """The example log in ``end`` line ends, with ``breaks`` between words and inside comments,
    and layout fmt changes (indentation, spacing)."""
    lines = EXAMPLE.read_text(encoding="utf-8").split("\n")
    out = []
    for number, line in enumerate(lines):
        if line.startswith(("1.", "2.", "3.")):
            line = "   " + line.replace(" ", f" {breaks} ", 1) + f"  ; a note{breaks}with breaks"
        out.append(line if number % 5 else line + "   ")
    return end.join(out).encode("utf-8")


@pytest.mark.parametrize("end", LINE_ENDS, ids=["lf", "crlf", "cr"])
@pytest.mark.parametrize("char", BLANK_BREAKS, ids=[f"U+{ord(c):04X}" for c in BLANK_BREAKS])
def test_fmt_diff_applies_with_patch_and_git_apply(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, char: str, end: str
) -> None:
    monkeypatch.chdir(tmp_path)
    original = _messy(char, end)
    (tmp_path / "game.sglog").write_bytes(original)
    diff = CliRunner().invoke(main, ["fmt", "--diff", "game.sglog"])
    assert diff.exit_code == 1, diff.output
    patch_text = diff.stdout_bytes
    assert b"Traceback" not in patch_text and b"SG-X001" not in diff.stderr_bytes
    formatted = CliRunner().invoke(main, ["fmt", "game.sglog"])
    assert formatted.exit_code == 0, formatted.output
    expected = (tmp_path / "game.sglog").read_bytes()
    assert expected != original

    for tool in ("patch", "git"):
        if shutil.which(tool) is None:
            pytest.skip(f"{tool} is not installed")
        (tmp_path / "game.sglog").write_bytes(original)
        (tmp_path / "fmt.diff").write_bytes(patch_text)
        if tool == "patch":
            command = ["patch", "-p0", "--quiet", "--input", "fmt.diff"]
        else:
            command = ["git", "apply", "-p0", "--unsafe-paths", "--whitespace=nowarn", "fmt.diff"]
        done = subprocess.run(command, cwd=tmp_path, capture_output=True, check=False)
        assert done.returncode == 0, (tool, done.stdout, done.stderr)
        assert (tmp_path / "game.sglog").read_bytes() == expected, tool


@pytest.mark.parametrize("char", BLANK_BREAKS, ids=[f"U+{ord(c):04X}" for c in BLANK_BREAKS])
def test_the_reader_and_fmt_count_the_same_lines(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, char: str) -> None:
    """The reader places an item after a blank break on the line the file has it on (LF lines
    counted, nothing else), and fmt keeps as many lines as the layout asks, not one more per break."""
    text = _messy(char, "\n").decode("utf-8")
    source = decode(text.encode("utf-8"), "game.sglog")
    assert not hasattr(source, "code"), source
    items = parse_log(source)  # type: ignore[arg-type]
    for item in items:
        span = item.span
        assert span.line == text.count("\n", 0, span.offset) + 1, (item, span)
    monkeypatch.chdir(tmp_path)
    (tmp_path / "game.sglog").write_text(text, encoding="utf-8")
    assert CliRunner().invoke(main, ["fmt", "game.sglog"]).exit_code == 0
    again = (tmp_path / "game.sglog").read_text(encoding="utf-8")
    assert again.count("\n") <= text.count("\n")
