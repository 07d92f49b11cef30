"""Per-project settings from ``[tool.sgcheck]`` in ``pyproject.toml``.

The nearest ``pyproject.toml`` that has a ``[tool.sgcheck]`` table, searching upward from
the first checked path, is used (or the file given with ``--config``)::

    [tool.sgcheck]
    select = ["ALL"]               # the codes reported (default: all); extend-select adds to them
    ignore = ["C120"]              # codes not reported at all (also: disable)
    per-file-ignores = {"legacy/*.sgcard" = ["C121"]}
    ruleset = "core"               # profile for card files outside packs
    suppressions = false           # do not honour in-source suppressions (CI)
    [tool.sgcheck.severity]
    SG-C130 = "error"              # error, warning or note
    [tool.sgcheck.replay]
    ruleset = "core; king_value=3" # replay's settings: ruleset, keep-going, jobs, select, ignore

Problems in the table are reported as SG-C210 and the valid parts still apply; a ``tool`` or
``tool.sgcheck`` that is not a table is SG-C210 and the defaults apply. Each problem is placed on
the setting it is about, from an index of the settings' keys and values built in one pass over
the text (:class:`_Index`), so a file with thousands of problems is checked in linear time.

The module sits below both commands that read the file (``replay`` and the contract checker), at
the level of :mod:`sgcheck.discovery`. The codes the settings may name are handed to it (``codes``:
the contract's codes, :func:`sgcheck.contract.code_catalogue`; replay's table may also name those
of :data:`sgcheck.codes.CATALOGUE`), so it imports neither command.
"""

from __future__ import annotations

import os
import re
import tomllib
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path

from sgcheck.codes import CATALOGUE, CodeInfo, code_spellings, select_codes, spell_code, unknown_code
from sgcheck.core.ruleset import CORE, Ruleset, RulesetError, parse_ruleset
from sgcheck.diagnostics import Diagnostic, Severity, Span, did_you_mean
from sgcheck.lang.source import CONFIG_LIMIT, SourceText, read_source
from sgcheck.selection import PerFile, Selection, SelectionError, codes_named, per_file_entry, selection

#: The code of every problem of the configuration, and its severity (the catalogue's entry).
CONFIG_PROBLEM = CATALOGUE["SG-C210"].code
CONFIG_PROBLEM_SEVERITY = CATALOGUE["SG-C210"].severity
#: The codes of ``sgcheck check``, which ``[tool.sgcheck]`` selects: the contract's catalogue.
Codes = Mapping[str, CodeInfo]
_SELECTION_KEYS = ("select", "extend-select", "ignore", "disable", "enable")
_KEYS = (*_SELECTION_KEYS, "per-file-ignores", "severity", "ruleset", "suppressions", "statistics", "replay", "exclude")
#: Codes that configuration may not switch off: a card that cannot be read must be reported.
ALWAYS_ON = frozenset(
    {
        "SG-P020",
        "SG-P021",
        "SG-P022",
        "SG-P023",
        "SG-P024",
        "SG-P025",
        "SG-P026",
        "SG-P027",
        "SG-P029",
        "SG-P004",
        "SG-P005",
        "SG-P008",
        "SG-C210",
    }
)


@dataclass(frozen=True, slots=True)
class Config:
    disabled: frozenset[str] = frozenset()
    severities: Mapping[str, Severity] = field(default_factory=dict)
    ruleset: Ruleset = CORE
    source: str | None = None
    problems: tuple[Diagnostic, ...] = ()
    text: str = ""  # the configuration file's text, for the snippets of its problems
    # in-source suppressions silence findings (they are still listed); False: ``--no-suppressions``
    honour_suppressions: bool = True
    # the file's own selection, kept apart so that ``--select`` replaces its ``select`` only
    selected: frozenset[str] | None = None
    extended: frozenset[str] = frozenset()
    ignored: frozenset[str] = frozenset()
    per_file: tuple[PerFile, ...] = ()
    replay: ReplaySettings = field(default_factory=lambda: ReplaySettings())
    # ``exclude``: gitignore-style patterns of paths not searched, relative to the file's folder
    exclude: tuple[str, ...] = ()
    statistics: bool = False  # --statistics by default
    # the folder holding the file, as the file system names it (``source`` is how reports name
    # the file, which may be ``<outside>/pyproject.toml``): ``exclude`` is relative to it
    folder: str | None = None

    def enabled(self, code: str) -> bool:
        return code not in self.disabled

    def apply(self, diagnostic: Diagnostic) -> Diagnostic | None:
        """The diagnostic with its configured severity, or None when its code is not reported
        (everywhere, or in its file)."""
        if diagnostic.code in self.disabled:
            return None
        if self.per_file and not Selection(per_file=self.per_file).reports(diagnostic):
            return None
        severity = self.severities.get(diagnostic.code)
        return replace(diagnostic, severity=severity) if severity is not None else diagnostic

    def with_codes(
        self,
        codes: Codes,
        enable: Iterable[str] = (),
        disable: Iterable[str] = (),
        *,
        select: Iterable[str] | None = None,
        extend_select: Iterable[str] = (),
        ignore: Iterable[str] = (),
        per_file: Iterable[str] = (),
    ) -> Config:
        """The command line on top of the file: ``select`` replaces the file's ``select``; the others
        add to the file's lists (``enable`` is ``extend_select``, ``disable`` is ``ignore``).
        ``codes``: the contract's codes (:data:`Codes`). A spelling naming no code, or an exact code
        that cannot be switched off, raises ValueError."""
        catalogue = codes
        for code in (*disable, *ignore):
            _known(code, codes)
        base = codes_named(select, catalogue) if select is not None else self.selected
        added = codes_named((*enable, *extend_select), catalogue)
        extended = self.extended | added
        ignored = (self.ignored - added) | codes_named((*disable, *ignore), catalogue)  # the command line wins
        entries = self.per_file + tuple(per_file_entry(entry, catalogue, ALWAYS_ON) for entry in per_file)
        return replace(
            self,
            disabled=_disabled(frozenset(catalogue), base, extended, ignored),
            selected=base,
            extended=extended,
            ignored=ignored,
            per_file=entries,
        )


@dataclass(frozen=True, slots=True)
class ReplaySettings:
    """``[tool.sgcheck.replay]``: the defaults of ``sgcheck replay`` (its options override them)."""

    ruleset: str | None = None
    keep_going: bool | None = None
    statistics: bool | None = None
    jobs: int | None = None
    select: tuple[str, ...] | None = None
    extend_select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()

    def selects(
        self,
        select: tuple[str, ...] | None = None,
        extend_select: tuple[str, ...] = (),
        ignore: tuple[str, ...] = (),
        per_file: tuple[str, ...] = (),
    ) -> bool:
        """Whether the command line or this table selects or ignores any code (else every finding is reported)."""
        return (select, self.select) != (None, None) or bool(
            extend_select or ignore or per_file or self.extend_select or self.ignore
        )

    def selection(
        self,
        codes: Codes,
        select: tuple[str, ...] | None = None,
        extend_select: tuple[str, ...] = (),
        ignore: tuple[str, ...] = (),
        per_file: tuple[str, ...] = (),
    ) -> Selection | None:
        """The command line's selection on top of this table's (None: nothing is selected or
        ignored). An error is the locked core (or the contract) broken: replay never switches one
        off, and naming one to ignore raises :class:`~sgcheck.selection.SelectionError`. ``codes``: the
        contract's (:data:`Codes`); replay also reports those of :data:`sgcheck.codes.CATALOGUE`."""
        if not self.selects(select, extend_select, ignore, per_file):
            return None
        catalogue = {**CATALOGUE, **codes}
        errors = frozenset(code for code, info in catalogue.items() if info.severity is Severity.ERROR)
        ignored = (*(c for c in self.ignore if c not in extend_select), *ignore)
        for spelling in (*ignored, *(entry.rpartition(":")[2] for entry in per_file)):
            for each in spelling.replace(" ", ",").split(","):
                code = spell_code(each, catalogue)
                if code in errors:
                    raise SelectionError(
                        f"{each!r} is {code}, an error: replay always reports the rules it breaks "
                        "(notes and warnings can be switched off)"
                    )
        return selection(
            catalogue,
            select=select if select is not None else self.select,
            extend_select=(*self.extend_select, *extend_select),
            ignore=ignored,
            per_file=per_file,
            always_on=errors,
        )


def _disabled(
    every: frozenset[str], selected: frozenset[str] | None, extended: frozenset[str], ignored: frozenset[str]
) -> frozenset[str]:
    """The codes not reported: those outside the selection, and those ignored; never the always-on."""
    chosen = (selected if selected is not None else every) | extended
    return ((every - chosen) | ignored) - ALWAYS_ON


def _known(code: str, codes: Codes) -> str:
    """An exact code that cannot be switched off is refused by name (a family is not: its
    always-on codes simply stay on)."""
    exact = spell_code(code, codes)
    if exact in ALWAYS_ON:
        raise ValueError(f"{code!r} cannot be switched off: unreadable cards are always reported")
    if not select_codes(code, codes):
        hint = unknown_code(code, codes)
        raise ValueError(f"{code!r} is not a contract code that can be switched{hint} ('sgcheck explain --list')")
    return exact or code


def find_pyproject(start: Path) -> Path | None:
    """The nearest pyproject.toml with a [tool.sgcheck] table, from ``start`` upward."""
    here = start.resolve()
    for folder in (here, *here.parents) if here.is_dir() else here.parents:
        candidate = folder / "pyproject.toml"
        if candidate.is_file():
            read = read_source(candidate, limit=CONFIG_LIMIT)
            if isinstance(read, SourceText) and has_sgcheck_table(read.text):
                return candidate
    return None


def load_config(path: Path | None, shown: str | None = None, *, codes: Codes) -> Config:
    """Read ``[tool.sgcheck]`` from ``path`` (no path: defaults); the file is read within its limit.
    A ``tool`` or ``tool.sgcheck`` that is not a table is a problem (SG-C210) and the defaults apply.
    ``codes``: the contract's codes (:data:`Codes`), which the settings' code lists are checked against
    (:func:`sgcheck.contract.load_config` passes them)."""
    if path is None:
        return Config()
    return replace(_read_config(path, shown or str(path), codes), folder=os.path.dirname(os.path.abspath(path)))


def _read_config(path: Path, name: str, codes: Codes) -> Config:
    read = read_source(path, name, limit=CONFIG_LIMIT)
    if isinstance(read, Diagnostic):
        problem = _problem(f"cannot read the configuration: {read.message}", _Where(name, ""), "")
        return Config(source=name, problems=(problem,))
    text = read.text
    where = _Where(name, text)
    try:
        document = tomllib.loads(text)
    except (tomllib.TOMLDecodeError, RecursionError, ValueError) as error:
        problem = _problem(f"cannot read the configuration: {_short(str(error))}", where, "")
        return Config(source=name, problems=(problem,), text=text)
    tool = document.get("tool", {})
    if not isinstance(tool, dict):
        problem = where.outer_problem("[tool] must be a table (it holds [tool.sgcheck])", ("tool",))
        return Config(source=name, problems=(problem,), text=text)
    table = tool.get("sgcheck", {})
    if not isinstance(table, dict):
        problem = where.outer_problem("[tool.sgcheck] must be a table", ("tool", "sgcheck"))
        return Config(source=name, problems=(problem,), text=text)
    return replace(_parse_table(table, where, codes), text=text)


def has_sgcheck_table(text: str) -> bool:
    """``text`` (a pyproject.toml) is sgcheck's configuration: it names ``tool.sgcheck`` (a table
    header or a dotted key; a file that does not parse is reported then), or its ``[tool]``
    table has an ``sgcheck`` key."""
    if "tool.sgcheck" in text:
        return True
    if "sgcheck" not in text:
        return False
    try:
        tool = tomllib.loads(text).get("tool")
    except (tomllib.TOMLDecodeError, RecursionError, ValueError):
        return False
    return isinstance(tool, dict) and "sgcheck" in tool


def _short(message: str, limit: int = 200) -> str:
    return message if len(message) <= limit else message[:limit] + "…"


def _parse_table(table: dict[str, object], where: _Where, codes: Codes) -> Config:
    problems: list[Diagnostic] = []
    for key in table:
        if key not in _KEYS:
            hint = where.did_you_mean(key, lambda: _KEYS)
            problems.append(
                _problem(f"unknown key '{key}' in [tool.sgcheck]{hint} (known: {', '.join(_KEYS)})", where, key)
            )
    lists = {key: _code_list(table.get(key, []), key, where, problems, codes) for key in _SELECTION_KEYS}
    catalogue = codes
    selected = codes_named(lists["select"], catalogue) if "select" in table else None
    extended = codes_named((*lists["extend-select"], *lists["enable"]), catalogue)
    ignored = codes_named((*lists["ignore"], *lists["disable"]), catalogue)
    per_file = _per_file(table.get("per-file-ignores", {}), where, problems, codes)
    replay = _replay_settings(table.get("replay", {}), where, problems, codes)
    severities: dict[str, Severity] = {}
    raw_severity = table.get("severity", {})
    if not isinstance(raw_severity, dict):
        problems.append(_problem("[tool.sgcheck.severity] must be a table of CODE = level", where, "severity"))
        raw_severity = {}
    for code, level in raw_severity.items():
        checked = _check_code(code, where, problems, codes, allow_always_on=True)
        if checked is None:
            continue
        if level not in ("error", "warning", "note"):
            problems.append(_problem(f"severity of {code} must be error, warning or note, not {level!r}", where, code))
            continue
        for each in codes_named([checked], catalogue):
            severities[each] = Severity(level)
    ruleset = CORE
    raw_ruleset = table.get("ruleset", "core")
    try:
        ruleset = parse_ruleset(str(raw_ruleset))
    except RulesetError as error:
        problems.append(_problem(f"ruleset: {error}", where, "ruleset"))
    honour = _flag(table, "suppressions", where, problems)
    statistics = _flag(table, "statistics", where, problems)
    exclude = _exclude(table.get("exclude", []), where, problems)
    return Config(
        _disabled(frozenset(catalogue), selected, extended, ignored),
        severities,
        ruleset,
        where.name,
        tuple(problems),
        honour_suppressions=honour is not False,
        statistics=statistics is True,
        selected=selected,
        extended=extended,
        ignored=ignored,
        per_file=per_file,
        replay=replay,
        exclude=exclude,
    )


def _exclude(value: object, where: _Where, problems: list[Diagnostic]) -> tuple[str, ...]:
    """``exclude = ["PATTERN", ...]``: gitignore-style patterns (``sgcheck.discovery``)."""
    from sgcheck.discovery import pattern_problem

    if not isinstance(value, list):
        problems.append(_problem("'exclude' must be a list of gitignore-style patterns", where, "exclude"))
        return ()
    kept = []
    for pattern in value:
        problem = "a pattern must be a string" if not isinstance(pattern, str) else pattern_problem(pattern)
        if problem is not None:
            problems.append(_problem(f"exclude pattern {pattern!r}: {problem}", where, str(pattern)))
        else:
            kept.append(pattern)
    return tuple(kept)


def _per_file(value: object, where: _Where, problems: list[Diagnostic], codes: Codes) -> tuple[PerFile, ...]:
    """``per-file-ignores = {"GLOB" = ["CODE", ...]}``."""
    if not isinstance(value, dict):
        message = "'per-file-ignores' must be a table of GLOB = [codes]"
        problems.append(_problem(message, where, "per-file-ignores"))
        return ()
    entries = []
    for glob, spelled in value.items():
        named = _code_list(spelled, glob, where, problems, codes, allow_always_on=True)
        if named:
            entries.append(PerFile(glob, codes_named(named, codes) - ALWAYS_ON))
    return tuple(entries)


_REPLAY_KEYS = ("ruleset", "keep-going", "statistics", "jobs", "select", "extend-select", "ignore")


def _flag(table: Mapping[str, object], key: str, where: _Where, problems: list[Diagnostic]) -> bool | None:
    """A true-or-false setting; None when it is not set (or is not true or false: a problem)."""
    value = table.get(key)
    if value is not None and not isinstance(value, bool):
        problems.append(_problem(f"'{key}' must be true or false", where, key))
        return None
    return value


def _replay_settings(value: object, where: _Where, problems: list[Diagnostic], codes: Codes) -> ReplaySettings:
    """``[tool.sgcheck.replay]``: checked here, as the rest of the table is (codes of every kind)."""
    if not isinstance(value, dict):
        problems.append(_problem("[tool.sgcheck.replay] must be a table", where, "replay"))
        return ReplaySettings()
    for key in value:
        if key not in _REPLAY_KEYS:
            known = ", ".join(_REPLAY_KEYS)
            hint = where.did_you_mean(key, lambda: _REPLAY_KEYS)
            message = f"unknown key '{key}' in [tool.sgcheck.replay]{hint} (known: {known})"
            problems.append(_problem(message, where, key))
    settings = ReplaySettings()
    ruleset = value.get("ruleset")
    if ruleset is not None:
        try:
            parse_ruleset(str(ruleset))
            settings = replace(settings, ruleset=str(ruleset))
        except RulesetError as error:
            problems.append(_problem(f"replay ruleset: {error}", where, "ruleset"))
    settings = replace(
        settings,
        keep_going=_flag(value, "keep-going", where, problems),
        statistics=_flag(value, "statistics", where, problems),
    )
    jobs = value.get("jobs")
    if jobs is not None and (isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 1):
        problems.append(_problem("'jobs' must be a whole number of at least 1", where, "jobs"))
    elif jobs is not None:
        settings = replace(settings, jobs=jobs)
    every = {**CATALOGUE, **codes}
    errors = frozenset(code for code, info in every.items() if info.severity is Severity.ERROR)
    spelled: dict[str, tuple[str, ...]] = {}
    for key in ("select", "extend-select", "ignore"):
        raw = value.get(key, [])
        if not isinstance(raw, list) or not all(isinstance(item, str) for item in raw):
            problems.append(_problem(f"'{key}' must be a list of codes", where, key))
            continue
        kept = []
        for item in raw:
            if not select_codes(item, every):
                hint = where.did_you_mean(item, lambda: code_spellings(every))
                message = f"unknown code {item!r}{hint} ('sgcheck explain --list' shows them)"
                problems.append(_problem(message, where, item))
            elif key == "ignore" and (code := spell_code(item, every)) in errors:
                message = (
                    f"{item!r} is {code}, an error: replay always reports the rules it breaks "
                    "(notes and warnings can be switched off)"
                )
                problems.append(_problem(message, where, item))
            else:
                kept.append(item)
        spelled[key] = tuple(kept)
    return replace(
        settings,
        select=spelled["select"] if "select" in value and "select" in spelled else None,
        extend_select=spelled.get("extend-select", ()),
        ignore=spelled.get("ignore", ()),
    )


def _code_list(
    value: object, key: str, where: _Where, problems: list[Diagnostic], codes: Codes, allow_always_on: bool = False
) -> list[str]:
    if not isinstance(value, list):
        problems.append(_problem(f"'{key}' must be a list of codes", where, key))
        return []
    found = []
    for code in value:
        switching_on = allow_always_on or key in ("select", "extend-select", "enable")
        checked = _check_code(code, where, problems, codes, switching_on)
        if checked is not None:
            found.append(checked)
    return found


def _check_code(
    code: object, where: _Where, problems: list[Diagnostic], codes: Codes, allow_always_on: bool = False
) -> str | None:
    """A code, family or rule name the settings may use; a problem for one naming nothing, and for
    switching off an exact code that is always on."""
    if not isinstance(code, str) or not select_codes(code, codes):
        hint = where.did_you_mean(code, lambda: code_spellings(codes)) if isinstance(code, str) else ""
        message = f"unknown code {code!r}{hint} ('sgcheck explain --list' shows them)"
        problems.append(_problem(message, where, str(code)))
        return None
    exact = spell_code(code, codes)
    if exact in ALWAYS_ON and not allow_always_on:
        problems.append(_problem(f"{exact} cannot be disabled: unreadable cards are always reported", where, code))
        return None
    return exact or code


_TABLE_HEADER = re.compile(r"\s*\[\s*([^\]\s]+)\s*\]")
#: A bare word of a settings line: what a non-string value (``1``, ``1.5``, ``true``) is written as.
_WORD = re.compile(r"[^\s\"'=,\[\]{}#]+")
#: Substring searches a configuration's problems may make when no key, quoted string or word
#: spells their needle; beyond it a problem is placed at the top of the file. Locating all
#: problems thus reads the text a bounded number of times, whatever their number.
_SCAN_BUDGET = 32


#: How many of a configuration's unknown keys and codes get a "did you mean" (each compares the
#: spelling with every known one); past it, the problem is reported without one.
_SUGGESTION_BUDGET = 32


class _Where:
    """The configuration file a problem is placed in: its name, its text, and the index of the
    positions of the ``[tool.sgcheck]`` settings (:class:`_Index`), built once on the first problem."""

    def __init__(self, name: str, text: str) -> None:
        self.name = name
        self.text = text
        self._index: _Index | None = None
        self._suggested = 0

    def did_you_mean(self, written: str, names: Callable[[], Iterable[str] | Mapping[str, str]]) -> str:
        """:func:`~sgcheck.diagnostics.did_you_mean` among ``names()``, for the first
        :data:`_SUGGESTION_BUDGET` problems of the file only: a file of thousands of unknown codes
        stays checked in linear time."""
        if self._suggested >= _SUGGESTION_BUDGET:
            return ""
        self._suggested += 1
        return did_you_mean(written, names())

    @property
    def index(self) -> _Index:
        if self._index is None:
            self._index = _Index(self.text)
        return self._index

    def outer_problem(self, message: str, path: tuple[str, ...]) -> Diagnostic:
        """A problem with ``tool`` or ``tool.sgcheck`` themselves, placed at the key (or header)
        that makes them: ``tool = 1``, ``[tool]`` ``sgcheck = 1``, ``tool.sgcheck = 1``."""
        found = _outer_key(self.text, path)
        return _diagnostic(message, self.name, found, path[-1])


def _key_path(raw: str) -> list[str]:
    """The parts of a TOML key as written (``tool . "sgcheck"`` is tool, sgcheck)."""
    return [part.strip().strip("\"'") for part in raw.split(".")]


def _outer_key(text: str, path: tuple[str, ...]) -> tuple[int, int] | None:
    """Line and 0-based column of the header or key that defines ``path`` (one pass)."""
    table: list[str] = []
    for number, line in enumerate(text.splitlines(), start=1):
        header = _TABLE_HEADER.match(line)
        if header is not None:
            table = _key_path(header.group(1).strip("[]"))
            if table[: len(path)] == list(path) and len(table) == len(path):
                return number, line.find(path[-1])
            continue
        code = _without_comment(line)
        if "=" not in code:
            continue
        key = code.split("=", 1)[0]
        full = table + _key_path(key)
        if len(table) < len(path) and full[: len(path)] == list(path):
            column = key.find(path[-1])
            return number, max(column, 0)
    return None


class _Index:
    """Where each key, quoted string and bare word of the ``[tool.sgcheck]`` tables is first
    written, found in one pass over the text, so that placing every problem of a configuration
    costs time in proportion to its size, however many problems it has."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.keys: dict[str, tuple[int, int]] = {}
        self.double: dict[str, tuple[int, int]] = {}
        self.single: dict[str, tuple[int, int]] = {}
        self.words: dict[str, tuple[int, int]] = {}
        self.lines: list[tuple[int, str]] = []
        self._scanned: dict[str, tuple[int, int] | None] = {}
        for number, line in _own_lines(text):
            self.lines.append((number, line))
            self._read(number, line)

    def _read(self, number: int, line: str) -> None:
        if "=" in line:
            key = line.split("=", 1)[0]
            stripped = key.lstrip(" \t\"'")
            name = stripped.rstrip().rstrip("\"'")
            if name:
                self.keys.setdefault(name, (number, len(key) - len(stripped)))
        index, size = 0, len(line)
        while index < size:
            char = line[index]
            if char in "\"'":
                end = _closing(line, index)
                seen = self.double if char == '"' else self.single
                seen.setdefault(line[index + 1 : end], (number, index + 1))
                index = end + 1
                continue
            word = _WORD.match(line, index)
            if word is not None:
                self.words.setdefault(word.group(), (number, index))
                index = word.end()
            else:
                index += 1

    def find(self, needle: str) -> tuple[int, int] | None:
        """Line and 0-based column of ``needle``: a key before its ``=`` first, then a quoted
        string, then a bare word, then (within :data:`_SCAN_BUDGET`) any mention."""
        for seen in (self.keys, self.double, self.single, self.words):
            found = seen.get(needle)
            if found is not None:
                return found
        if needle in self._scanned:
            return self._scanned[needle]
        place = None
        if len(self._scanned) < _SCAN_BUDGET:
            for number, line in self.lines:
                column = line.find(needle)
                if column >= 0:
                    place = (number, column)
                    break
        self._scanned[needle] = place
        return place


def _closing(line: str, start: int) -> int:
    """The index of the quote closing the string opened at ``start`` (the line's end if none);
    a backslash escapes the next character in a double-quoted string."""
    quote = line[start]
    index = start + 1
    while index < len(line):
        char = line[index]
        if char == "\\" and quote == '"':
            index += 2
            continue
        if char == quote:
            return index
        index += 1
    return len(line)


def _own_lines(text: str) -> Iterator[tuple[int, str]]:
    """Numbered lines of the ``[tool.sgcheck]`` tables (and their sub-tables), comments cut off."""
    inside = False
    for number, line in enumerate(text.splitlines(), start=1):
        header = _TABLE_HEADER.match(line)
        if header is not None and not line.lstrip().startswith("[["):
            table = header.group(1).replace('"', "")
            inside = table == "tool.sgcheck" or table.startswith("tool.sgcheck.")
            continue
        if inside:
            yield number, _without_comment(line)


def _without_comment(line: str) -> str:
    """The line up to a ``#`` that is not inside a quoted string."""
    quote = ""
    for index, char in enumerate(line):
        if quote:
            if char == quote:
                quote = ""
        elif char in "\"'":
            quote = char
        elif char == "#":
            return line[:index]
    return line


def _problem(message: str, where: _Where, needle: str) -> Diagnostic:
    """A SG-C210 finding, placed where the [tool.sgcheck] settings write ``needle``."""
    found = where.index.find(needle) if needle and where.text else None
    return _diagnostic(message, where.name, found, needle)


def _diagnostic(message: str, name: str, found: tuple[int, int] | None, needle: str) -> Diagnostic:
    span = Span.point(name)
    if found is not None:
        number, column = found
        span = Span(name, number, column + 1, number, column + 1 + len(needle))
    hint = "see docs/ci.md for the [tool.sgcheck] settings"
    return Diagnostic(CONFIG_PROBLEM, CONFIG_PROBLEM_SEVERITY, message, span, hint=hint)
