"""``sgcheck fmt``: rewrite game logs and ``.sgcard`` files in the canonical layout, comments kept.

Thin by design: find the files (the discovery of ``replay`` and ``check``, their options and the
configuration's ``exclude`` included), format each with
:func:`sgcheck.lang.format_files.format_bytes`, then write it in place if it still holds what was
read (:func:`sgcheck.lang.rewrite.rewrite_file`), list it (``--check``) or show the change
(``--diff``). Exit status: 0 nothing to change or all formatted; 1 a file would change
(``--check``, ``--diff``) or does not read (syntax error, left untouched); 2 usage, configuration
or I/O problem (an invalid ``[tool.sgcheck]``, a file that cannot be read, or is not rewritten:
read-only, or changed meanwhile).

A file's bytes are let go of before its formatted bytes are read back whole to be written, so
the two are never held whole at once (docs/limits.md).
"""

from __future__ import annotations

import codecs
import os
import sys
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import click

from sgcheck.cli.common import (
    DEFAULT_WALK,
    Output,
    WalkOptions,
    discovery_of,
    discovery_options,
    guarded,
    project_of,
)
from sgcheck.codes import Trait, has
from sgcheck.diagnostics import Diagnostic, plural
from sgcheck.lang.format_files import FileKind, Formatted, format_bytes, kind_of, limit_of
from sgcheck.lang.rewrite import rewrite_file, stat_before_read
from sgcheck.lang.source import read_bytes, read_stream_bytes
from sgcheck.project.stamps import Stamp
from sgcheck.visible import visible

if TYPE_CHECKING:
    from sgcheck.discovery import DiscoveryOptions


@click.command("fmt", short_help="Rewrite logs and card files in the canonical layout, comments kept.")
@click.argument("paths", nargs=-1, required=True, type=click.Path(exists=True, allow_dash=True, path_type=str))
@click.option("--check", "check_only", is_flag=True, help="Change nothing; list the files that would change (exit 1).")
@click.option("--diff", "show_diff", is_flag=True, help="Change nothing; print a unified diff of each change (exit 1).")
@click.option(
    "--stdin-filename",
    metavar="NAME",
    default="<stdin>.sglog",
    show_default=True,
    help="The name standard input ('-') is reported under; a .sgcard (.sgcard.yaml) name formats it as cards "
    "(YAML cards), else as a log.",
)
@click.option(
    "--fill-claims",
    is_flag=True,
    help="Replay each log and write its claims: add the missing ones, correct the wrong ones (docs/fmt.md).",
)
@discovery_options
@guarded
def fmt_command(**given: Any) -> int:
    """Rewrite game logs (*.sglog) and card files (*.sgcard, *.sgcard.yaml) in the canonical layout (PATH: files,
    folders searched as replay and check search them, '-' for standard input to standard output).

    \b
    Every comment is kept, with the statement or clause it is written at (docs/fmt.md).
    A file that does not read (a syntax error) is reported and left untouched.
    Files are rewritten in place (owner, mode and hard links kept); a read-only file, or one
    that changed after it was read, is left untouched (SG-P009).
    With --fill-claims each log is replayed and its claims written from what its actions did:
    missing claims added, wrong ones corrected, up to the first illegal action (SG-P040).
    Folders are searched as check and replay search them: what git ignores and what an exclude
    pattern names (--exclude, or the configuration's exclude) are left out. An invalid
    [tool.sgcheck] configuration is reported and nothing is formatted (exit 2).
    Exit status: 0 nothing to change or formatted, 1 a file would change (--check, --diff),
    does not read, or is filled only up to an illegal action, 2 usage, configuration or I/O
    problem (SG-P009 included).
    """
    return run_fmt(FmtOptions(**given))


@dataclass(frozen=True, slots=True)
class FmtOptions:
    """The options of ``sgcheck fmt``, as parsed."""

    paths: tuple[str, ...]
    check_only: bool
    show_diff: bool
    stdin_filename: str
    fill_claims: bool = False
    walk: WalkOptions = DEFAULT_WALK


def run_fmt(options: FmtOptions) -> int:
    """Find the files, format each, say what was done, and return the exit code."""
    paths = options.paths
    project = project_of(paths)
    config = project.settings
    if config.problems:
        for problem in config.problems:
            _say(f"{problem.span or config.source}: {problem.code} {problem.message}", err=True)
        _say("sgcheck: the configuration is invalid: nothing formatted", err=True)
        return 2
    found, problems, code = _discover(paths, discovery_of(project, options.walk))
    changed = unchanged = 0
    for path, kind in found:
        status, outcome = _format_file(path, kind, options)
        code = max(code, status)
        changed += outcome == _CHANGED
        unchanged += outcome == _UNCHANGED
    check_only, show_diff = options.check_only, options.show_diff
    if "-" in paths:
        code = max(code, _stdin(options.stdin_filename, check_only, show_diff, options.fill_claims))
    for line in problems:
        _say(line, err=True)
    if found:
        verb = "would be reformatted" if (check_only or show_diff) else "reformatted"
        _say(f"{_files(changed)} {verb}, {_files(unchanged)} left unchanged", err=True)
    return code


#: What became of a file: rewritten (or would be), left as it was, or neither (a problem said why).
_CHANGED, _UNCHANGED = "changed", "unchanged"


def _format_file(path: str, kind: FileKind, options: FmtOptions) -> tuple[int, str | None]:
    """Format one file found; its exit status and what became of it."""
    status = stat_before_read(path)  # the stamp of what is read: the rewrite compares it
    data = read_bytes(path, path, limit=limit_of(kind))
    if not isinstance(data, bytes):
        _say(f"{path}: {data.code} {data.message}", err=True)
        return 2, None
    stamp = Stamp.of(status, data) if status is not None else None
    result, stopped = _format(data, path, kind, options.show_diff, options.fill_claims, os.path.dirname(path) or None)
    del data  # the formatted bytes may be as large: never both held at once
    code = 0
    if stopped is not None:
        _say(f"{stopped.span or path}: {stopped.code} {stopped.message}", err=True)
        code = 1
    if result.internal is not None:
        _say(f"sgcheck: internal error: {path} not formatted: {result.internal}", err=True)
        return 2, None
    if result.problems:
        for problem in result.problems:
            _say(f"{problem.span or path}: {problem.code} {problem.message}", err=True)
        return max(code, 2 if any(has(p.code, Trait.NOT_CHECKED) for p in result.problems) else 1), None
    if not result.changed:
        return code, _UNCHANGED
    if options.show_diff:
        _write_diff(result)
    elif options.check_only:
        _say(f"would reformat {path}")
    if options.show_diff or options.check_only:
        return max(code, 1), _CHANGED
    failure = rewrite_file(path, result.data, stamp) if path != "-" else None
    if failure is not None:
        _say(f"{path}: {failure.code} {failure.message}", err=True)
        return 2, None
    return code, _CHANGED


def _say(line: str, err: bool = False) -> None:
    """Print a line that may quote a path or a message, its control characters made visible
    (on standard output as the report is, so a closed pipe ends nothing: cli.common.Output)."""
    if err:
        click.echo(visible(line), err=True)
    else:
        Output().write(visible(line) + "\n")


def _files(count: int) -> str:
    return plural(count, "file")


def _discover(paths: tuple[str, ...], discovery: DiscoveryOptions) -> tuple[list[tuple[str, FileKind]], list[str], int]:
    """The logs and card files under ``paths``, each once, in the order found; the problems met.
    ``discovery``: what folder walks leave out, and named files ``--force-exclude`` leaves out."""
    from sgcheck.contract.packs import discover
    from sgcheck.core.ruleset import CORE
    from sgcheck.replay.files import discover_logs

    found: list[tuple[str, FileKind]] = []
    seen: set[str] = set()
    problems: list[str] = []
    code = 0

    def add(path: str, kind: FileKind) -> None:
        key = os.path.realpath(path)
        if key not in seen:
            seen.add(key)
            found.append((path, kind))

    for given in paths:
        if given == "-" or discovery.skips_named(given):
            continue
        if not os.path.isdir(given):
            kind = kind_of(given)
            if kind is None:
                problems.append(
                    f"sgcheck: {given}: not a game log (*.sglog) or card file (*.sgcard, *.sgcard.yaml); not formatted"
                )
                code = 2
            else:
                add(given, kind)
            continue
        for log in discover_logs([given], discovery):
            if log.problem is not None:
                problems.append(f"{log.path}: {log.problem.code} {log.problem.message}")
                code = 2
            else:
                add(log.path, FileKind.LOG)
        for plan in discover([given], CORE, discovery):
            for source in plan.files:
                kind = kind_of(source.shown)
                if discovery.excluded(source.shown, False):
                    continue  # a pack's own file, listed by its manifest: fmt formats file by file
                if kind in (FileKind.CARDS, FileKind.YAML_CARDS):
                    add(source.shown, kind)
            if plan.manifest is None and not plan.files:  # a link out of the folder, refused unread
                for diagnostic in plan.diagnostics:
                    problems.append(f"{diagnostic.span or plan.name}: {diagnostic.code} {diagnostic.message}")
                    code = 2
    return found, problems, code


def _format(
    data: bytes, name: str, kind: FileKind, show_diff: bool, fill_claims: bool, folder: str | None
) -> tuple[Formatted, Diagnostic | None]:
    """The formatted bytes of one input; with ``fill_claims``, a log's claims filled too, and
    SG-P040 when filling stopped before the end of the log (``folder``: where its pack is)."""
    if not fill_claims or kind is not FileKind.LOG:
        return format_bytes(data, name, kind, diff=show_diff), None
    from sgcheck.replay.fill_log import fill_bytes

    return fill_bytes(data, name, diff=show_diff, folder=folder)


def _stdin(name: str, check_only: bool, show_diff: bool, fill_claims: bool = False) -> int:
    kind = kind_of(name) or FileKind.LOG
    data = read_stream_bytes(sys.stdin.buffer, name, limit=limit_of(kind))
    if not isinstance(data, bytes):
        _say(f"{name}: {data.code} {data.message}", err=True)
        return 2
    result, stopped = _format(data, name, kind, show_diff, fill_claims, None)
    del data
    status = 0
    if stopped is not None:
        _say(f"{stopped.span or name}: {stopped.code} {stopped.message}", err=True)
        status = 1
    if result.internal is not None:
        _say(f"sgcheck: internal error: {name} not formatted: {result.internal}", err=True)
        return 2
    if result.problems:
        for problem in result.problems:
            _say(f"{problem.span or name}: {problem.code} {problem.message}", err=True)
        return 1
    if show_diff:
        _write_diff(result)
        return 1 if result.changed else status
    if check_only:
        if result.changed:
            _say(f"would reformat {name}", err=True)
        return 1 if result.changed else status
    out = Output()
    if result.output is not None:
        for chunk in result.output.chunks():
            out.write_bytes(chunk)
    return status


def _write_diff(result: Formatted) -> None:
    """The unified diff of a change (format_files spools it), a piece at a time."""
    if result.diff is None:
        return
    output = Output()
    decoder = codecs.getincrementaldecoder("utf-8")()
    for chunk in result.diff.chunks():
        output.write(decoder.decode(chunk))
    output.write(decoder.decode(b"", final=True))
