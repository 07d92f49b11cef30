"""Console sessions and shown files in the docs, read from the markdown (docs/ci.md, "Docs that
are run", states the conventions for writers).

A fenced block whose info string is ``console`` is a console session: each line that starts with
``$ sgcheck`` is a command, and the lines after it, up to the next ``$`` line or the end of the
block, are what it prints (standard output, then standard error). A last line ``# exit N`` gives
a status other than 0; without it the command must exit 0. ``<...>`` alone on a line stands for
any number of lines (none included), and inside a line for any run of characters. A command may
end with ``< FILE`` (its standard input); no other shell syntax is understood.

``<!-- file: PATH -->`` on the line before a fence says the block is the file ``PATH`` of the
repository, whole; ``<!-- excerpt: PATH -->`` that it is a run of whole, consecutive lines of it.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
INFO = "console"
PROMPT = "$ "
PROGRAM = "sgcheck"
EXIT = re.compile(r"# exit (\d+)")
ELLIPSIS = "<...>"
SHOWN = re.compile(r"<!-- (file|excerpt): (\S+) -->")
FENCE = re.compile(r"^(\s*)(`{3,})(\S*)\s*$")


def doc_files() -> list[Path]:
    """README.md and every page of docs/, in a fixed order."""
    return [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


def shown_name(path: Path) -> str:
    """``path`` as the repository names it (as given when it lies elsewhere)."""
    return path.relative_to(ROOT).as_posix() if path.is_relative_to(ROOT) else path.as_posix()


@dataclass(frozen=True)
class Block:
    """One fenced block: ``first`` and ``last`` are the 0-based indexes of its body's lines in the
    file (``last`` exclusive), ``lines`` the body without the fence's indentation."""

    path: Path
    info: str
    fence_line: int
    first: int
    last: int
    indent: str
    lines: tuple[str, ...]
    marker: tuple[str, str] | None  # ("file" or "excerpt", path) from the line before the fence

    @property
    def where(self) -> str:
        return f"{shown_name(self.path)}:{self.fence_line + 1}"


def blocks(path: Path, text: str | None = None) -> list[Block]:
    """Every fenced block of ``path`` (or of ``text``, its new content)."""
    lines = (path.read_text(encoding="utf-8") if text is None else text).split("\n")
    found: list[Block] = []
    index = 0
    while index < len(lines):
        opening = FENCE.match(lines[index])
        if not opening:
            index += 1
            continue
        indent, ticks, info = opening.groups()
        end = index + 1
        while end < len(lines) and lines[end].strip() != ticks:
            end += 1
        if end == len(lines):
            raise AssertionError(f"{shown_name(path)}:{index + 1}: a fenced block is never closed")
        body = tuple(line.removeprefix(indent) for line in lines[index + 1 : end])
        marker = SHOWN.fullmatch(lines[index - 1].strip()) if index else None
        shown = (marker.group(1), marker.group(2)) if marker else None
        found.append(Block(path, info, index, index + 1, end, indent, body, shown))
        index = end + 1
    return found


@dataclass(frozen=True)
class Command:
    """One ``$ sgcheck …`` line of a session and what the docs say it prints."""

    line: int  # 1-based, in the markdown file
    text: str  # the line as written, ``$ `` included
    args: tuple[str, ...]  # after ``sgcheck``
    stdin: str | None  # the path after ``<``
    expected: tuple[str, ...]
    status: int


def commands(block: Block) -> list[Command]:
    """The commands of a console session; anything that is not one is an error at its line."""
    found: list[Command] = []
    starts = [i for i, line in enumerate(block.lines) if line.startswith(PROMPT)]
    if not starts or starts[0] != 0:
        raise AssertionError(f"{block.where}: a console block starts with a '$ {PROGRAM} …' line")
    for number, start in enumerate(starts):
        end = starts[number + 1] if number + 1 < len(starts) else len(block.lines)
        text = block.lines[start]
        line = block.first + start + 1
        words = shlex.split(text[len(PROMPT) :], comments=True)
        if not words or words[0] != PROGRAM:
            raise AssertionError(f"{shown_name(block.path)}:{line}: only '{PROGRAM}' commands are run: {text}")
        stdin = None
        if len(words) >= 3 and words[-2] == "<":
            stdin, words = words[-1], words[:-2]
        if any(word in {"<", ">", ">>", "|", "&&", ";", "2>"} for word in words):
            raise AssertionError(f"{shown_name(block.path)}:{line}: no pipes or redirections but '< FILE': {text}")
        output = list(block.lines[start + 1 : end])
        status = 0
        if output and (exit_line := EXIT.fullmatch(output[-1])):
            status = int(exit_line.group(1))
            output.pop()
        found.append(Command(line, text, tuple(words[1:]), stdin, tuple(output), status))
    return found


def sessions() -> Iterator[tuple[Block, int]]:
    """Each console block of the docs with its index among the console blocks of its file."""
    for path in doc_files():
        console = [block for block in blocks(path) if block.info == INFO]
        yield from ((block, index) for index, block in enumerate(console))


def _line_pattern(expected: str) -> re.Pattern[str]:
    return re.compile(".*".join(re.escape(part) for part in expected.split(ELLIPSIS)), re.S)


def matches(expected: tuple[str, ...] | list[str], actual: list[str]) -> bool:
    """``actual`` is ``expected`` line for line, ``<...>`` standing for lines or characters."""
    if not expected:
        return not actual
    head, rest = expected[0], list(expected[1:])
    if head == ELLIPSIS:
        return any(matches(rest, actual[skip:]) for skip in range(len(actual) + 1))
    if not actual:
        return False
    if head != actual[0] and not (ELLIPSIS in head and _line_pattern(head).fullmatch(actual[0])):
        return False
    return matches(rest, actual[1:])


def output_lines(text: str) -> list[str]:
    """Printed text as lines; a final line break ends the last line rather than starting one."""
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return lines


def session_body(shown: list[tuple[Command, list[str], int]]) -> list[str]:
    """The lines of a session: each command, what it printed and its status when not 0."""
    body: list[str] = []
    for command, output, status in shown:
        body.append(command.text)
        body.extend(output)
        if status:
            body.append(f"# exit {status}")
    return body


def replace_body(path: Path, info: str, index: int, body: list[str]) -> None:
    """Write ``body`` into the ``index``-th block of ``path`` whose info string is ``info``."""
    text = path.read_text(encoding="utf-8")
    block = [candidate for candidate in blocks(path, text) if candidate.info == info][index]
    lines = text.split("\n")
    lines[block.first : block.last] = [block.indent + line if line else line for line in body]
    path.write_text("\n".join(lines), encoding="utf-8")
