"""Options and plumbing shared by the commands: output format, colour, writing, exit codes."""

from __future__ import annotations

import functools
import os
import sys
from collections.abc import Callable, Iterable, Mapping
from typing import IO, TYPE_CHECKING, ParamSpec, TypeVar

import click

from sgcheck.codes import CodeInfo
from sgcheck.results import FileResult

if TYPE_CHECKING:
    from sgcheck.report import ReportStream

FORMATS = ("text", "json", "sarif", "github")

P = ParamSpec("P")
R = TypeVar("R")


def format_option(func: Callable[P, R]) -> Callable[P, R]:
    return click.option(
        "--format",
        "fmt",
        type=click.Choice(FORMATS),
        default="text",
        show_default=True,
        help="Output format: text for people, json/sarif for tools, github for workflow annotations.",
    )(func)


def color_option(func: Callable[P, R]) -> Callable[P, R]:
    return click.option(
        "--color/--no-color",
        default=None,
        help="Colour text output (default: on a terminal, unless NO_COLOR is set or TERM=dumb; FORCE_COLOR forces it).",
    )(func)


#: Codes that mean an input could not be read at all, or sgcheck failed on it: not a finding (exit 2).
IO_ERROR_CODES = frozenset({"SG-P008", "SG-X001"})


def exit_code_of(files: Iterable[FileResult]) -> int:
    """2 when an input could not be read (or sgcheck failed on it), 1 for an error finding, else 0."""
    results = list(files)
    if any(d.code in IO_ERROR_CODES for result in results for d in result.diagnostics):
        return 2
    return 1 if any(result.has_errors for result in results) else 0


def use_color(flag: bool | None, fmt: str, stream: IO[str], environ: Mapping[str, str] | None = None) -> bool:
    """Whether to colour the output.

    The command-line flag decides first; then, as most terminal programs do, ``NO_COLOR``
    (set and not empty) turns colour off, ``FORCE_COLOR`` (set and not empty) turns it on,
    ``TERM=dumb`` turns it off, and otherwise colour follows whether ``stream`` is a terminal.
    Only the text format is ever coloured.
    """
    if fmt != "text":
        return False
    if flag is not None:
        return flag
    env = os.environ if environ is None else environ
    if env.get("NO_COLOR"):
        return False
    if env.get("FORCE_COLOR"):
        return True
    if env.get("TERM") == "dumb":
        return False
    try:
        return stream.isatty()
    except (OSError, ValueError):
        return False


class OutputError(Exception):
    """The report could not be written (a full disk, a closed pipe): exit 2, not a finding."""


class Output:
    """Writes the report, degrading characters a terminal cannot show and turning write
    failures into :class:`OutputError`."""

    def __init__(self, stream: IO[str] | None = None) -> None:
        self.stream = stream if stream is not None else sys.stdout

    def write(self, text: str) -> None:
        if not text:
            return
        try:
            try:
                self.stream.write(text)
            except UnicodeEncodeError:  # a terminal that cannot show '×' or '§': degrade, never crash
                encoding = getattr(self.stream, "encoding", None) or "ascii"
                self.stream.write(text.encode(encoding, "replace").decode(encoding))
            self.stream.flush()
        except OSError as error:
            raise OutputError(error.strerror or str(error)) from None


def open_report(
    fmt: str,
    *,
    command: str,
    rules: Mapping[str, CodeInfo],
    file_count: int,
    color: bool | None = None,
    stream: IO[str] | None = None,
) -> tuple[Output, ReportStream]:
    """Where the report goes and how it is spelled (colour decided here, once)."""
    from sgcheck import __version__
    from sgcheck.report import ReportStream, labels_summaries

    out = Output(stream)
    report = ReportStream(
        fmt,
        command=command,
        rules=rules,
        tool_version=__version__,
        color=use_color(color, fmt, out.stream),
        labelled=labels_summaries(command, file_count),
    )
    return out, report


def write_report(rendered: Iterable[tuple[FileResult, str]], out: Output, report: ReportStream) -> int:
    """Write each file's part as it comes, then the end of the report; return the exit code."""
    done: list[FileResult] = []
    for result, part in rendered:
        done.append(result)
        out.write(report.add_rendered(result, part))
    out.write(report.close())
    return exit_code_of(done)


def _quiet_stdout() -> None:
    """Point stdout at the null device so the interpreter's final flush cannot fail again."""
    try:
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        pass


def guarded(func: Callable[P, int]) -> Callable[P, None]:
    """Turn a command body's return value into the exit code; any unexpected
    exception becomes a one-line message and exit 2 instead of a traceback."""

    @functools.wraps(func)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> None:
        try:
            code = func(*args, **kwargs)
        except click.exceptions.Exit:
            raise
        except click.ClickException:
            raise
        except KeyboardInterrupt:
            sys.exit(2)
        except (OutputError, BrokenPipeError) as error:
            reason = error.strerror if isinstance(error, OSError) and error.strerror else str(error)
            _quiet_stdout()
            click.echo(f"sgcheck: cannot write the report: {reason}", err=True)
            sys.exit(2)
        except RecursionError:
            click.echo("sgcheck: internal error: input nested too deeply", err=True)
            sys.exit(2)
        except MemoryError:
            click.echo("sgcheck: internal error: out of memory", err=True)
            sys.exit(2)
        except Exception as exc:  # the promise: no traceback, ever
            click.echo(f"sgcheck: internal error: {type(exc).__name__}: {exc}", err=True)
            sys.exit(2)
        sys.exit(code)

    return wrapper
