"""``sgcheck fmt``: rewrite game logs and ``.sgcard`` files in the canonical layout, comments kept.

Thin by design: find the files (the discovery of ``replay`` and ``check``), format each with
:func:`sgcheck.lang.format_files.format_bytes`, then write it in place if it still holds what was
read (:func:`sgcheck.lang.rewrite.rewrite_file`), list it (``--check``) or show the change
(``--diff``). Exit status: 0 nothing to change or all formatted; 1 a file would change
(``--check``, ``--diff``) or does not read (syntax error, left untouched); 2 usage or I/O
problem (a file that cannot be read, or is not rewritten: read-only, or changed meanwhile).

A file's bytes are let go of before its formatted bytes are read back whole to be written, so
the two are never held whole at once (docs/limits.md).
"""

from __future__ import annotations

import codecs
import os
import sys
from typing import TYPE_CHECKING

import click

from sgcheck.cli.common import discovery_from, discovery_options, guarded
from sgcheck.lang.format_files import Formatted, Kind, format_bytes, kind_of, limit_of
from sgcheck.lang.rewrite import Stamp, rewrite_file, stat_before_read
from sgcheck.lang.source import read_bytes, read_stream_bytes
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
@discovery_options
@guarded
def fmt_command(
    paths: tuple[str, ...],
    check_only: bool,
    show_diff: bool,
    stdin_filename: str,
    exclude: tuple[str, ...],
    extend_exclude: tuple[str, ...],
    force_exclude: bool,
    no_respect_gitignore: bool,
) -> int:
    """Rewrite game logs (*.sglog) and card files (*.sgcard, *.sgcard.yaml) in the canonical layout (PATH: files,
    folders searched as replay and check search them, '-' for standard input to standard output).

    \b
    Every comment is kept, with the statement or clause it is written at (docs/fmt.md).
    A file that does not read (a syntax error) is reported and left untouched.
    Files are rewritten in place (owner, mode and hard links kept); a read-only file, or one
    that changed after it was read, is left untouched (SG-P009).
    Exit status: 0 nothing to change or formatted, 1 a file would change (--check, --diff) or
    does not read, 2 usage or I/O problem (SG-P009 included).
    """
    discovery = discovery_from(exclude, extend_exclude, force_exclude, no_respect_gitignore)
    found, problems, code = _discover(paths, discovery)
    changed = unchanged = 0
    for path, kind in found:
        status = stat_before_read(path)  # the stamp of what is read: the rewrite compares it
        data = read_bytes(path, path, limit=limit_of(kind))
        if not isinstance(data, bytes):
            _say(f"{path}: {data.code} {data.message}", err=True)
            code = 2
            continue
        stamp = Stamp.of(status, data) if status is not None else None
        result = format_bytes(data, path, kind, diff=show_diff)
        del data  # the formatted bytes may be as large: never both held at once
        if result.internal is not None:
            _say(f"sgcheck: internal error: {path} not formatted: {result.internal}", err=True)
            code = 2
            continue
        if result.problems:
            for problem in result.problems:
                _say(f"{problem.span or path}: {problem.code} {problem.message}", err=True)
            code = max(code, 2 if any(p.code == "SG-P008" for p in result.problems) else 1)
            continue
        if not result.changed:
            unchanged += 1
            continue
        changed += 1
        if show_diff:
            _write_diff(result)
        elif check_only:
            _say(f"would reformat {path}")
        if show_diff or check_only:
            code = max(code, 1)
        elif path == "-":
            pass
        else:
            failure = rewrite_file(path, result.data, stamp)
            if failure is not None:
                _say(f"{path}: {failure.code} {failure.message}", err=True)
                code = 2
                changed -= 1
    if "-" in paths:
        code = max(code, _stdin(stdin_filename, check_only, show_diff))
    for line in problems:
        _say(line, err=True)
    if found:
        verb = "would be reformatted" if (check_only or show_diff) else "reformatted"
        _say(f"{_files(changed)} {verb}, {_files(unchanged)} left unchanged", err=True)
    return code


def _say(line: str, err: bool = False) -> None:
    """Print a line that may quote a path or a message, its control characters made visible."""
    click.echo(visible(line), err=err)


def _files(count: int) -> str:
    return f"{count} file{'s' if count != 1 else ''}"


def _discover(paths: tuple[str, ...], discovery: DiscoveryOptions) -> tuple[list[tuple[str, Kind]], list[str], int]:
    """The logs and card files under ``paths``, each once, in the order found; the problems met.
    Folders are searched as ``replay`` and ``check`` search them, leaving out what ``discovery``
    excludes (a file named on the command line too, with ``--force-exclude``)."""
    from sgcheck.contract.packs import discover
    from sgcheck.core.ruleset import CORE
    from sgcheck.replay.files import discover_logs

    found: list[tuple[str, Kind]] = []
    seen: set[str] = set()
    problems: list[str] = []
    code = 0

    def add(path: str, kind: Kind) -> None:
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
                add(log.path, Kind.LOG)
        for plan in discover([given], CORE, discovery):
            for source in plan.files:
                kind = kind_of(source.shown)
                if discovery.excluded(source.shown, False):
                    continue  # a pack's own file, listed by its manifest: fmt formats file by file
                if kind in (Kind.CARDS, Kind.YAML_CARDS):
                    add(source.shown, kind)
            if plan.manifest is None and not plan.files:  # a link out of the folder, refused unread
                for diagnostic in plan.diagnostics:
                    problems.append(f"{diagnostic.span or plan.name}: {diagnostic.code} {diagnostic.message}")
                    code = 2
    return found, problems, code


def _stdin(name: str, check_only: bool, show_diff: bool) -> int:
    kind = kind_of(name) or Kind.LOG
    data = read_stream_bytes(sys.stdin.buffer, name, limit=limit_of(kind))
    if not isinstance(data, bytes):
        _say(f"{name}: {data.code} {data.message}", err=True)
        return 2
    result = format_bytes(data, name, kind, diff=show_diff)
    del data
    if result.internal is not None:
        _say(f"sgcheck: internal error: {name} not formatted: {result.internal}", err=True)
        return 2
    if result.problems:
        for problem in result.problems:
            _say(f"{problem.span or name}: {problem.code} {problem.message}", err=True)
        return 1
    if show_diff:
        _write_diff(result)
        return 1 if result.changed else 0
    if check_only:
        if result.changed:
            _say(f"would reformat {name}", err=True)
        return 1 if result.changed else 0
    out = sys.stdout.buffer
    if result.output is not None:
        for chunk in result.output.chunks():
            out.write(chunk)
    out.flush()
    return 0


def _write_diff(result: Formatted) -> None:
    """The unified diff of a change (format_files spools it), a piece at a time."""
    from sgcheck.cli.common import Output

    if result.diff is None:
        return
    output = Output(sys.stdout)
    decoder = codecs.getincrementaldecoder("utf-8")()
    for chunk in result.diff.chunks():
        output.write(decoder.decode(chunk))
    output.write(decoder.decode(b"", final=True))

