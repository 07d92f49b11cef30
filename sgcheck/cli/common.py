"""Options and plumbing shared by the commands: output format, colour, writing, exit codes."""

from __future__ import annotations

import contextlib
import errno
import functools
import io
import os
import stat
import sys
import tempfile
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, ParamSpec, TypeVar, cast

import click

from sgcheck.codes import CATALOGUE, CodeInfo, Trait
from sgcheck.diagnostics import Severity
from sgcheck.distribute import ClusterError
from sgcheck.lang.source import files_read
from sgcheck.report.formats import ResultKind, names_for
from sgcheck.results import FileResult
from sgcheck.streams import cannot_write, end_quietly, is_closed_pipe, is_write_failure, reader_gone, stdout_gone

if TYPE_CHECKING:
    from sgcheck.discovery import DiscoveryOptions
    from sgcheck.project.definition import Project
    from sgcheck.report import ReportStream

P = ParamSpec("P")
R = TypeVar("R")


class FormatChoice(click.Choice[str]):
    """``--format``: the formats of the registry that render every kind of result in ``kinds``
    (:func:`sgcheck.report.formats.names_for`), read from the registry each time the option is
    parsed, shown or completed, so a format added to the registry is offered by every command
    whose result it renders, with no edit here or in the command."""

    def __init__(self, *kinds: ResultKind) -> None:
        self.kinds = kinds
        super().__init__(self.choices)

    @property
    def choices(self) -> tuple[str, ...]:
        first, *others = self.kinds
        return tuple(name for name in names_for(first) if all(name in names_for(kind) for kind in others))

    @choices.setter
    def choices(self, _value: object) -> None:
        """The registry's, never set (``click.Choice.__init__`` sets it)."""


def format_option(func: Callable[P, R], kind: ResultKind = ResultKind.CHECK) -> Callable[P, R]:
    page = "html" in names_for(kind)
    return click.option(
        "--format",
        "fmt",
        type=FormatChoice(kind),
        default="text",
        show_default=True,
        help="Output format: text for people, json/sarif for tools, github for workflow annotations, "
        "junit for test reports" + (", html for a page that shows the game." if page else "."),
    )(func)


def replay_format_option(func: Callable[P, R]) -> Callable[P, R]:
    """``--format`` of ``replay``: the check formats and html, the replay drawn as a page."""
    return format_option(func, ResultKind.REPLAY)


def color_option(func: Callable[P, R]) -> Callable[P, R]:
    return click.option(
        "--color/--no-color",
        default=None,
        help="Colour text output (default: on a terminal, unless NO_COLOR is set or TERM=dumb; FORCE_COLOR forces it).",
    )(func)


def _code_list(ctx: click.Context, param: click.Parameter, value: tuple[str, ...]) -> tuple[str, ...] | None:
    """Repeatable, and comma-separated as linters take them: ``--ignore C120,C121 --ignore R``."""
    if param.name == "select" and not value:
        return None  # not given: the configuration's select, or every code
    return tuple(code for item in value for code in item.replace(" ", ",").split(",") if code)


def selection_options(func: Callable[P, R]) -> Callable[P, R]:
    """``--select``, ``--extend-select``, ``--ignore`` and ``--per-file-ignores`` (sgcheck.selection)."""
    spellings = "codes in any spelling (SG-C050, C050, c050, a rule name) or families (C05, R2, ALL)"
    options = [
        click.option(
            "--select",
            multiple=True,
            metavar="CODES",
            callback=_code_list,
            help=f"Report only these: {spellings}; replaces the configuration's select.",
        ),
        click.option(
            "--extend-select",
            multiple=True,
            metavar="CODES",
            callback=_code_list,
            help="Report these too, on top of select (and of what the configuration ignores).",
        ),
        click.option("--ignore", multiple=True, metavar="CODES", callback=_code_list, help="Do not report these."),
        click.option(
            "--per-file-ignores",
            multiple=True,
            metavar="GLOB:CODES",
            help="Do not report CODES in files matching GLOB, e.g. 'legacy/*.sgcard:C120,C121'.",
        ),
    ]
    for option in reversed(options):
        func = option(func)
    return func


class AliasedOption(click.Option):
    """An option whose old spellings still parse but are not shown: ``aliases`` are left out of
    ``--help`` (one name per concept across commands: ``-o/--output-file`` writes the report)."""

    def __init__(self, *args: Any, aliases: tuple[str, ...] = (), **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.aliases = aliases

    def get_help_record(self, ctx: click.Context) -> tuple[str, str] | None:
        shown, self.opts = self.opts, [opt for opt in self.opts if opt not in self.aliases]
        try:
            return super().get_help_record(ctx)
        finally:
            self.opts = shown


def output_file_option(
    help: str, *, dash: bool = True, name: str = "output_file"
) -> Callable[[Callable[P, R]], Callable[P, R]]:
    """``-o/--output-file FILE``, as replay and check spell it, with ``--output`` kept as a hidden
    alias for the commands that spelt it so; ``name``: the command's parameter."""
    return click.option(
        "-o",
        "--output-file",
        "--output",
        name,
        cls=AliasedOption,
        aliases=("--output",),
        type=click.Path(dir_okay=False, allow_dash=dash),
        default=None,
        help=help,
    )


def report_options(func: Callable[P, R]) -> Callable[P, R]:
    """Where the report goes and what the exit status counts, as linters do it."""
    options = [
        click.option(
            "-o",
            "--output-file",
            type=click.Path(dir_okay=False, writable=True, allow_dash=True),
            help="Write the report to this file instead of standard output: never over an input of the "
            "run or a file named like a log, card file, scenario or manifest; any other file is overwritten.",
        ),
        click.option(
            "--exit-zero",
            is_flag=True,
            help="Exit 0 even when there are findings (2 still means a usage, I/O or internal error).",
        ),
        click.option(
            "--fail-on",
            type=click.Choice(("error", "warning")),
            default="error",
            show_default=True,
            help="The least severity that makes the exit status 1.",
        ),
        click.option(
            "--statistics/--no-statistics",
            default=None,
            help="Print how many findings of each code instead of the findings themselves (text format; "
            "default: the configuration's statistics, else no).",
        ),
        click.option(
            "-v",
            "--verbose",
            is_flag=True,
            help="Say on standard error which configuration is read and how many files are found.",
        ),
    ]
    for option in reversed(options):
        func = option(func)
    return func


def jobs_option(what: str) -> Callable[[Callable[P, R]], Callable[P, R]]:
    """``-j/--jobs N``: ``what`` in N local processes (sgcheck.distribute); the output is the same."""
    return click.option(
        "-j",
        "--jobs",
        type=click.IntRange(min=1),
        default=None,
        metavar="N",
        help=f"{what} in N processes at once (default: the number of cores). The output is the same.",
    )


def cluster_options(what: str) -> Callable[[Callable[P, R]], Callable[P, R]]:
    """``--cluster`` and ``--cluster-timeout`` (sgcheck.distribute): where ``what`` runs past this machine."""

    def decorate(func: Callable[P, R]) -> Callable[P, R]:
        func = click.option(
            "--cluster-timeout",
            type=click.FloatRange(min=0, min_open=True),
            default=10.0,
            show_default=True,
            metavar="SECONDS",
            help="How long to try to reach the --cluster scheduler and see a worker join it.",
        )(func)
        return click.option(
            "--cluster",
            metavar="ADDRESS",
            help=f"{what} on a Dask distributed cluster: the scheduler's address (tcp://HOST:PORT), or 'local' for "
            "a cluster of --jobs local processes started for the run. The output is the same. Needs the cluster "
            "extra.",
        )(func)

    return decorate


def statistics_setting(given: bool | None, configured: bool, fmt: str) -> bool:
    """Whether to print the count of each code instead of the findings. ``--statistics`` replaces the
    findings of the text report, so with another format it is a usage error; the configuration's
    ``statistics`` is a default for text reports and leaves the other formats as they are."""
    if given is None:
        return configured and fmt == "text"
    if given and fmt != "text":
        reason = "--statistics is a text report: drop --format or --statistics"
        raise click.BadParameter(reason, param_hint="--statistics")
    return given


@dataclass(frozen=True, slots=True)
class ExitPolicy:
    """What the exit status counts: ``--exit-zero`` and ``--fail-on``."""

    exit_zero: bool = False
    fail_on: str = "error"


#: Codes that mean the run could not be done as asked (:attr:`~sgcheck.codes.Trait.NOT_CHECKED`): an
#: input could not be read at all, sgcheck failed on it, or the configuration is invalid (SG-C210,
#: reported, then exit 2 as ruff does). Not findings: exit 2, whatever ``--exit-zero`` and the
#: severity say.
IO_ERROR_CODES = frozenset(code for code, info in CATALOGUE.items() if Trait.NOT_CHECKED in info.traits)


def exit_code_of(files: Iterable[FileResult], policy: ExitPolicy | None = None) -> int:
    """2 when an input could not be read (or sgcheck failed on it) or the configuration is invalid,
    1 for an error finding (or a warning, with ``--fail-on warning``; never with ``--exit-zero``),
    else 0."""
    policy = policy if policy is not None else ExitPolicy()
    results = list(files)
    if any(d.code in IO_ERROR_CODES for result in results for d in result.diagnostics):
        return 2
    if policy.exit_zero:
        return 0
    failing = {Severity.ERROR} if policy.fail_on == "error" else {Severity.ERROR, Severity.WARNING}
    return 1 if any(d.severity in failing for result in results for d in result.diagnostics) else 0


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
    """The report could not be written (a full disk, a closed standard output): exit 2, not a finding."""


class Output:
    """Writes the report, degrading characters a terminal cannot show and turning write
    failures into :class:`OutputError`.

    A closed pipe (the reader went away: ``| head -1``) is no failure: what is left is dropped,
    quietly, and the run goes on to its end, so that its exit status is what it would have been
    (:func:`sgcheck.streams.reader_gone`)."""

    def __init__(self, stream: IO[str] | None = None) -> None:
        self.stream = stream if stream is not None else sys.stdout
        self.gone = False

    def _is_stdout(self) -> bool:
        return self.stream is sys.stdout or self.stream is sys.__stdout__

    def write(self, text: str, *, flush: bool = True) -> None:
        """Write ``text``; ``flush=False`` leaves it in the stream's buffer (a report of many files
        is then written in a few large writes: :meth:`flush` at its end)."""
        if not text or self.gone or (self._is_stdout() and stdout_gone()):
            return
        try:
            try:
                self.stream.write(text)
            except UnicodeEncodeError:  # a terminal that cannot show '×' or '§': degrade, never crash
                encoding = getattr(self.stream, "encoding", None) or "ascii"
                self.stream.write(text.encode(encoding, "replace").decode(encoding))
            if flush:
                self.stream.flush()
        except OSError as error:
            self._failed(error)

    def flush(self) -> None:
        """Hand on what :meth:`write` left in the stream's buffer."""
        if self.gone or (self._is_stdout() and stdout_gone()):
            return
        try:
            self.stream.flush()
        except OSError as error:
            self._failed(error)

    def live(self) -> bool:
        """Whether someone watches the stream as it is written (a terminal): each part is then
        flushed as it comes; to a file or a pipe the parts are written in large pieces."""
        isatty = getattr(self.stream, "isatty", None)
        try:
            return bool(isatty()) if isatty is not None else False
        except (OSError, ValueError):
            return False

    def write_bytes(self, data: bytes) -> None:
        """Bytes as they are (``fmt -``'s formatted file), to the stream's buffer."""
        if not data or self.gone or (self._is_stdout() and stdout_gone()):
            return
        try:
            buffer: IO[bytes] = getattr(self.stream, "buffer")  # noqa: B009 - a text stream's bytes
            buffer.write(data)
            buffer.flush()
        except OSError as error:
            self._failed(error)

    def _failed(self, error: OSError) -> None:
        if not is_closed_pipe(error):
            raise OutputError(error.strerror or str(error)) from None
        self.gone = True
        if self._is_stdout():
            reader_gone()


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


def write_report(
    rendered: Iterable[tuple[FileResult, str]],
    out: Output,
    report: ReportStream,
    policy: ExitPolicy | None = None,
    *,
    statistics: bool = False,
) -> int:
    """Write each file's part as it comes, then the end of the report; return the exit code.
    ``statistics``: the count of each code instead of the findings, then the totals line."""
    done: list[FileResult] = []
    live = out.live()  # a terminal sees each file's part as it comes; a pipe or a file, in large writes
    for result, part in rendered:
        done.append(result)
        written = report.add_rendered(result, part)
        if not statistics:
            out.write(written, flush=live)
    if statistics:
        from sgcheck.report.text import statistics_table

        out.write(statistics_table(done, report.rules), flush=False)
    out.write(report.close(), flush=False)
    out.flush()
    return exit_code_of(done, policy)


def refuse_other_kinds(paths: Iterable[str], command: str) -> None:
    """A usage error (exit 2) for a file named on the command line that the other command reads:
    a game log given to ``check``, a card file, scenario or pack manifest given to ``replay``
    (``sgcheck.project.kinds``). Folders are searched for the command's own kind, and standard
    input is read as it."""
    from sgcheck.project.kinds import kind_of

    for path in paths:
        if path == "-" or os.path.isdir(path):
            continue
        kind = kind_of(path)
        if kind is not None and kind.command is not None and kind.command != command:
            from sgcheck.visible import visible

            shown = visible(path, keep="")
            raise click.UsageError(f"{shown} is a {kind.noun}: use `sgcheck {kind.command} {shown}`")


class _Inputs:
    """The files a run reads, by real path and by identity (device, inode): a hard link or a
    symbolic link to one of them is the same file."""

    def __init__(self, paths: Iterable[str | os.PathLike[str]]) -> None:
        self.shown: dict[object, str] = {}
        for path in paths:
            text = os.fspath(path)
            if text == "-":
                continue
            self.shown.setdefault(os.path.realpath(text), text)
            try:
                status = os.stat(text)
            except (OSError, ValueError):
                continue
            self.shown.setdefault((status.st_dev, status.st_ino), text)

    def named(self, path: str) -> str | None:
        """The input ``path`` is (as the run names it), by its real path or its identity; or None."""
        status = _status(path)
        return self.shown.get(os.path.realpath(path)) or (self.holds(status) if status is not None else None)

    def holds(self, status: os.stat_result) -> str | None:
        return self.shown.get((status.st_dev, status.st_ino))


def _status(path: str) -> os.stat_result | None:
    try:
        return os.stat(path)
    except (OSError, ValueError):
        return None


def _refuse(path: str, why: str) -> click.BadParameter:
    reason = f"{path!r} {why}; the report is not written: name another file"
    return click.BadParameter(reason, param_hint="--output-file")


def refuse_output(path: str, inputs: Iterable[str | os.PathLike[str]]) -> _Inputs:
    """Raise the usage error of :func:`open_output` when ``path`` names an input of the run or a
    file named like one sgcheck reads; else the inputs, by path and identity."""
    if path == "-":
        return _Inputs(())
    run = _Inputs(inputs)
    shown = run.named(path)
    if shown is not None:
        raise _refuse(path, f"is an input of this run ({shown})")
    from sgcheck.project.kinds import kind_of

    kind = kind_of(path) or kind_of(os.path.realpath(path))  # a link to a card file is one
    if kind is not None:  # what --output-file never names: the files sgcheck reads, input of this run or not
        raise _refuse(path, f"is named like a {kind.noun}, a file sgcheck reads")
    return run


class HeldReport(io.TextIOBase):
    """The file ``--output-file`` names, opened (and so known to be writable) before the run, and
    written only when the run ends well (:meth:`commit`): until then the report is held aside (in
    memory, in a temporary file past a few megabytes). A run that fails, is stopped or finds that
    it read the file (by any route: a log's tag, a manifest, a scenario, the configuration) leaves
    the file as it was; a report is never left emptied or cut off."""

    def __init__(self, handle: int, path: str, run: _Inputs) -> None:
        super().__init__()
        self.handle, self.path, self.run = handle, path, run
        self.held = tempfile.SpooledTemporaryFile(max_size=_HELD_BYTES)  # noqa: SIM115  (closed by close)
        self.committed = False

    @property
    def encoding(self) -> str:  # type: ignore[override]
        return "utf-8"

    def writable(self) -> bool:
        return True

    def isatty(self) -> bool:
        return False

    def write(self, text: str) -> int:
        self.held.write(text.encode("utf-8", "surrogateescape"))
        return len(text)

    def commit(self) -> None:
        """Write the report held over the file, then close it; a usage error (exit 2), the file
        untouched, when this run read the file after all."""
        status = os.fstat(self.handle)
        if (status.st_dev, status.st_ino) in files_read():
            self.close()
            raise _refuse(self.path, "is a file this run read")
        size = self.held.tell()
        self.held.seek(0)
        try:
            if stat.S_ISREG(status.st_mode):
                with contextlib.suppress(OSError, AttributeError):  # no room: found before anything is lost
                    os.posix_fallocate(self.handle, 0, max(size, 1))
            with os.fdopen(os.dup(self.handle), "wb", closefd=True) as out:
                while chunk := self.held.read(1 << 20):
                    out.write(chunk)
                out.flush()
                if stat.S_ISREG(status.st_mode):
                    os.ftruncate(out.fileno(), size)
        except OSError as error:
            raise OutputError(f"cannot write {self.path!r}: {error.strerror or error}") from None
        finally:
            self.committed = True
            self.close()

    def close(self) -> None:
        if not self.closed:
            self.held.close()
            os.close(self.handle)
        super().close()


#: A held report is kept in memory up to this size, and in a temporary file beyond.
_HELD_BYTES = 8 << 20


def open_output(path: str | None, inputs: Iterable[str | os.PathLike[str]] = ()) -> IO[str] | None:
    """The file ``--output-file`` names, opened for writing (None: standard output); a file that
    cannot be opened is a usage problem (exit 2), said before anything is checked.

    The report never goes over a file the run reads (``inputs``: by real path and by identity,
    so a hard or symbolic link to one is refused too) nor over a file named like one sgcheck
    reads (a log, card file, scenario, pack manifest or ``pyproject.toml``): the file is then
    left untouched. Any other file is overwritten (a previous report), when the run ends well:
    the report is held until then, and checked once more against every file the run read
    (:class:`HeldReport`; the command calls ``commit``).
    """
    if path is None or path == "-":
        return None
    run = refuse_output(path, inputs)
    flags = os.O_WRONLY | os.O_CREAT
    flags |= getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_BINARY", 0)
    try:
        handle = os.open(path, flags, 0o666)
    except OSError as error:
        reason = error.strerror or str(error)
        raise click.BadParameter(f"cannot write {path!r}: {reason}", param_hint="--output-file") from None
    try:
        status = os.fstat(handle)
        shown = run.holds(status)
        if shown is not None:
            raise _refuse(path, f"is an input of this run ({shown})")
        return cast("IO[str]", HeldReport(handle, path, run))
    except BaseException:
        os.close(handle)
        raise


def commit_output(stream: IO[str] | None) -> None:
    """Write the report :func:`open_output` held over its file, the run having ended well."""
    if isinstance(stream, HeldReport):
        stream.commit()


def writable_folder(folder: str, option: str) -> None:
    """A usage error (exit 2) before any work when files cannot be written into ``folder``:
    ``--sample-logs``, ``--explain-break``. A folder still missing is not made here (a run with
    nothing to write leaves none behind): the nearest folder above it that exists is tried."""
    existing = Path(folder)
    while not existing.exists() and existing != existing.parent:
        existing = existing.parent
    try:
        if not existing.is_dir():
            raise NotADirectoryError(errno.ENOTDIR, os.strerror(errno.ENOTDIR))
        probe = tempfile.NamedTemporaryFile(dir=existing, prefix=".sgcheck-", delete=True)  # noqa: SIM115
        probe.close()
    except OSError as error:
        reason = error.strerror or str(error)
        raise click.BadParameter(f"cannot write into {folder!r}: {reason}", param_hint=option) from None


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
        except OutputError as error:
            cannot_write(error)
        except ClusterError as error:  # the cluster went away mid-run: one line naming the cause
            click.echo(f"sgcheck: --cluster: {error}", err=True)
            sys.exit(2)
        except OSError as error:  # click.echo, or a write of bytes, to an output that is full or gone
            if is_closed_pipe(error):
                end_quietly()  # explain, schema, odds, rulings: their answer was all there was to do
            if is_write_failure(error):
                cannot_write(error)
            click.echo(f"sgcheck: internal error: {type(error).__name__}: {error}", err=True)
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


def discovery_options(func: Callable[..., R]) -> Callable[..., R]:
    """``--exclude``, ``--extend-exclude``, ``--force-exclude``, ``--no-respect-gitignore`` (sgcheck.discovery),
    handed to the command as one record, ``walk`` (:class:`WalkOptions`)."""

    @functools.wraps(func)
    def gathered(*args: Any, **given: Any) -> R:
        walk = WalkOptions(*(given.pop(name) for name in WalkOptions.__dataclass_fields__))
        return func(*args, walk=walk, **given)

    options = [
        click.option(
            "--exclude",
            multiple=True,
            metavar="PATTERN",
            help="Skip paths matching this gitignore-style pattern, relative to the working directory, "
            "when searching folders (repeatable; replaces the configuration's exclude).",
        ),
        click.option(
            "--extend-exclude",
            multiple=True,
            metavar="PATTERN",
            help="Like --exclude, on top of the configuration's exclude.",
        ),
        click.option(
            "--force-exclude",
            is_flag=True,
            help="Skip files named on the command line too when an exclude pattern matches them "
            "(for pre-commit, which names the changed files).",
        ),
        click.option(
            "--no-respect-gitignore",
            is_flag=True,
            help="Also search files and folders that .gitignore or .git/info/exclude ignore.",
        ),
    ]
    decorated: Callable[..., R] = gathered
    for option in reversed(options):
        decorated = option(decorated)
    return decorated


@dataclass(frozen=True, slots=True)
class WalkOptions:
    """The options of :func:`discovery_options`, as parsed: what a walk of folders leaves out."""

    exclude: tuple[str, ...] = ()
    extend_exclude: tuple[str, ...] = ()
    force_exclude: bool = False
    no_respect_gitignore: bool = False


#: No option of the walk given: ignore files respected, nothing else left out.
DEFAULT_WALK = WalkOptions()


def project_of(
    paths: tuple[str, ...],
    config_file: str | os.PathLike[str] | None = None,
    *,
    isolated: bool = False,
    audit: bool = False,
) -> Project:
    """The project a command runs on (``sgcheck.project.definition``), its settings' codes checked
    against the contract's catalogue."""
    from sgcheck.contract import code_catalogue
    from sgcheck.project.definition import load_project

    return load_project(paths, codes=code_catalogue, config_file=config_file, isolated=isolated, audit=audit)


def discovery_of(project: Project, walk: WalkOptions, *, whole_pack: bool = False) -> DiscoveryOptions:
    """What the command's folder walks leave out (:meth:`sgcheck.project.definition.Project.discovery`);
    a pattern that cannot be used is a usage error."""
    from sgcheck.discovery import PatternError

    try:
        return project.discovery(
            walk.exclude,
            walk.extend_exclude,
            force_exclude=walk.force_exclude,
            respect_gitignore=not walk.no_respect_gitignore,
            whole_pack=whole_pack,
        )
    except PatternError as error:
        raise click.BadParameter(str(error), param_hint="--exclude/--extend-exclude") from None
