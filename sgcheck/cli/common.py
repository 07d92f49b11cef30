"""Options and plumbing shared by the commands."""

from __future__ import annotations

import functools
import sys
from collections.abc import Callable
from typing import IO, ParamSpec, TypeVar

import click

from sgcheck.report.model import Run

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
        help="Colour text output (default: only when writing to a terminal).",
    )(func)


#: Codes that mean an input could not be read at all, or sgcheck failed on it: not a finding (exit 2).
IO_ERROR_CODES = frozenset({"SG-P008", "SG-X001"})


def exit_code(run: Run) -> int:
    """2 when an input could not be read, 1 when a file has an error-severity finding, else 0."""
    if any(d.code in IO_ERROR_CODES for d in run.diagnostics):
        return 2
    return 1 if run.has_errors else 0


def emit(run: Run, fmt: str, stream: IO[str] | None = None, color: bool | None = None) -> int:
    """Render ``run`` in ``fmt`` to ``stream`` and return the exit code."""
    from sgcheck.report import render

    out = stream if stream is not None else sys.stdout
    use_color = bool(color) if color is not None else (fmt == "text" and out.isatty())
    text = render(run, fmt, color=use_color)
    try:
        out.write(text)
    except UnicodeEncodeError:  # a terminal that cannot show '×' or '§': degrade, never crash
        encoding = getattr(out, "encoding", None) or "ascii"
        out.write(text.encode(encoding, "replace").decode(encoding))
    out.flush()
    return exit_code(run)


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
        except (KeyboardInterrupt, BrokenPipeError):
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
