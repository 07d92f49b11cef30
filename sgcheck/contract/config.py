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

Problems in the table are reported as SG-C210 and the valid parts still apply.
"""

from __future__ import annotations

import os
import re
import tomllib
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path

from sgcheck.codes import CATALOGUE, select_codes, spell_code
from sgcheck.contract.registry import code_catalogue, meta
from sgcheck.core.ruleset import CORE, Ruleset, RulesetError, parse_ruleset
from sgcheck.diagnostics import Diagnostic, Severity, Span
from sgcheck.lang.source import CONFIG_LIMIT, SourceText, read_source
from sgcheck.selection import PerFile, Selection, SelectionError, codes_named, per_file_entry, selection

CONFIG_PROBLEM = "SG-C210"
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
        A spelling naming no code, or an exact code that cannot be switched off, raises ValueError."""
        catalogue = code_catalogue()
        for code in (*disable, *ignore):
            _known(code)
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

    def selection(
        self,
        select: tuple[str, ...] | None = None,
        extend_select: tuple[str, ...] = (),
        ignore: tuple[str, ...] = (),
        per_file: tuple[str, ...] = (),
    ) -> Selection | None:
        """The command line's selection on top of this table's (None: nothing is selected or
        ignored). An error is the locked core (or the contract) broken: replay never switches one
        off, and naming one to ignore raises :class:`~sgcheck.selection.SelectionError`."""
        if (select, self.select) == (None, None) and not (
            extend_select or ignore or per_file or self.extend_select or self.ignore
        ):
            return None
        catalogue = {**CATALOGUE, **code_catalogue()}
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


def _known(code: str) -> str:
    """An exact code that cannot be switched off is refused by name (a family is not: its
    always-on codes simply stay on)."""
    exact = spell_code(code, code_catalogue())
    if exact in ALWAYS_ON:
        raise ValueError(f"{code!r} cannot be switched off: unreadable cards are always reported")
    if not select_codes(code, code_catalogue()):
        raise ValueError(f"{code!r} is not a contract code that can be switched ('sgcheck explain --list')")
    return exact or code


def find_pyproject(start: Path) -> Path | None:
    """The nearest pyproject.toml with a [tool.sgcheck] table, from ``start`` upward."""
    here = start.resolve()
    for folder in (here, *here.parents) if here.is_dir() else here.parents:
        candidate = folder / "pyproject.toml"
        if candidate.is_file():
            read = read_source(candidate, limit=CONFIG_LIMIT)
            if isinstance(read, SourceText) and "tool.sgcheck" in read.text:
                return candidate
    return None


def load_config(path: Path | None, shown: str | None = None) -> Config:
    """Read ``[tool.sgcheck]`` from ``path`` (no path: defaults); the file is read within its limit."""
    if path is None:
        return Config()
    return replace(_read_config(path, shown or str(path)), folder=os.path.dirname(os.path.abspath(path)))


def _read_config(path: Path, name: str) -> Config:
    read = read_source(path, name, limit=CONFIG_LIMIT)
    if isinstance(read, Diagnostic):
        return Config(source=name, problems=(_problem(f"cannot read the configuration: {read.message}", name, "", ""),))
    text = read.text
    try:
        table = tomllib.loads(text).get("tool", {}).get("sgcheck", {})
    except (tomllib.TOMLDecodeError, RecursionError, ValueError) as error:
        problem = _problem(f"cannot read the configuration: {_short(str(error))}", name, "", "")
        return Config(source=name, problems=(problem,), text=text)
    if not isinstance(table, dict):
        problem = _problem("[tool.sgcheck] must be a table", name, text, "sgcheck")
        return Config(source=name, problems=(problem,), text=text)
    return replace(_parse_table(table, name, text), text=text)


def _short(message: str, limit: int = 200) -> str:
    return message if len(message) <= limit else message[:limit] + "…"


def _parse_table(table: dict[str, object], name: str, text: str) -> Config:
    problems: list[Diagnostic] = []
    for key in table:
        if key not in _KEYS:
            problems.append(
                _problem(f"unknown key '{key}' in [tool.sgcheck] (known: {', '.join(_KEYS)})", name, text, key)
            )
    lists = {key: _code_list(table.get(key, []), key, name, text, problems) for key in _SELECTION_KEYS}
    catalogue = code_catalogue()
    selected = codes_named(lists["select"], catalogue) if "select" in table else None
    extended = codes_named((*lists["extend-select"], *lists["enable"]), catalogue)
    ignored = codes_named((*lists["ignore"], *lists["disable"]), catalogue)
    per_file = _per_file(table.get("per-file-ignores", {}), name, text, problems)
    replay = _replay_settings(table.get("replay", {}), name, text, problems)
    severities: dict[str, Severity] = {}
    raw_severity = table.get("severity", {})
    if not isinstance(raw_severity, dict):
        problems.append(_problem("[tool.sgcheck.severity] must be a table of CODE = level", name, text, "severity"))
        raw_severity = {}
    for code, level in raw_severity.items():
        checked = _check_code(code, name, text, problems, allow_always_on=True)
        if checked is None:
            continue
        if level not in ("error", "warning", "note"):
            problems.append(
                _problem(f"severity of {code} must be error, warning or note, not {level!r}", name, text, code)
            )
            continue
        for each in codes_named([checked], catalogue):
            severities[each] = Severity(level)
    ruleset = CORE
    raw_ruleset = table.get("ruleset", "core")
    try:
        ruleset = parse_ruleset(str(raw_ruleset))
    except RulesetError as error:
        problems.append(_problem(f"ruleset: {error}", name, text, "ruleset"))
    honour = _flag(table, "suppressions", name, text, problems)
    statistics = _flag(table, "statistics", name, text, problems)
    exclude = _exclude(table.get("exclude", []), name, text, problems)
    return Config(
        _disabled(frozenset(catalogue), selected, extended, ignored),
        severities,
        ruleset,
        name,
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


def _exclude(value: object, name: str, text: str, problems: list[Diagnostic]) -> tuple[str, ...]:
    """``exclude = ["PATTERN", ...]``: gitignore-style patterns (``sgcheck.discovery``)."""
    from sgcheck.discovery import pattern_problem

    if not isinstance(value, list):
        problems.append(_problem("'exclude' must be a list of gitignore-style patterns", name, text, "exclude"))
        return ()
    kept = []
    for pattern in value:
        problem = "a pattern must be a string" if not isinstance(pattern, str) else pattern_problem(pattern)
        if problem is not None:
            problems.append(_problem(f"exclude pattern {pattern!r}: {problem}", name, text, str(pattern)))
        else:
            kept.append(pattern)
    return tuple(kept)


def _per_file(value: object, name: str, text: str, problems: list[Diagnostic]) -> tuple[PerFile, ...]:
    """``per-file-ignores = {"GLOB" = ["CODE", ...]}``."""
    if not isinstance(value, dict):
        message = "'per-file-ignores' must be a table of GLOB = [codes]"
        problems.append(_problem(message, name, text, "per-file-ignores"))
        return ()
    entries = []
    for glob, spelled in value.items():
        codes = _code_list(spelled, glob, name, text, problems, allow_always_on=True)
        if codes:
            entries.append(PerFile(glob, codes_named(codes, code_catalogue()) - ALWAYS_ON))
    return tuple(entries)


_REPLAY_KEYS = ("ruleset", "keep-going", "statistics", "jobs", "select", "extend-select", "ignore")


def _flag(table: Mapping[str, object], key: str, name: str, text: str, problems: list[Diagnostic]) -> bool | None:
    """A true-or-false setting; None when it is not set (or is not true or false: a problem)."""
    value = table.get(key)
    if value is not None and not isinstance(value, bool):
        problems.append(_problem(f"'{key}' must be true or false", name, text, key))
        return None
    return value


def _replay_settings(value: object, name: str, text: str, problems: list[Diagnostic]) -> ReplaySettings:
    """``[tool.sgcheck.replay]``: checked here, as the rest of the table is (codes of every kind)."""
    if not isinstance(value, dict):
        problems.append(_problem("[tool.sgcheck.replay] must be a table", name, text, "replay"))
        return ReplaySettings()
    for key in value:
        if key not in _REPLAY_KEYS:
            known = ", ".join(_REPLAY_KEYS)
            problems.append(_problem(f"unknown key '{key}' in [tool.sgcheck.replay] (known: {known})", name, text, key))
    settings = ReplaySettings()
    ruleset = value.get("ruleset")
    if ruleset is not None:
        try:
            parse_ruleset(str(ruleset))
            settings = replace(settings, ruleset=str(ruleset))
        except RulesetError as error:
            problems.append(_problem(f"replay ruleset: {error}", name, text, "ruleset"))
    settings = replace(
        settings,
        keep_going=_flag(value, "keep-going", name, text, problems),
        statistics=_flag(value, "statistics", name, text, problems),
    )
    jobs = value.get("jobs")
    if jobs is not None and (isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 1):
        problems.append(_problem("'jobs' must be a whole number of at least 1", name, text, "jobs"))
    elif jobs is not None:
        settings = replace(settings, jobs=jobs)
    every = {**CATALOGUE, **code_catalogue()}
    spelled: dict[str, tuple[str, ...]] = {}
    for key in ("select", "extend-select", "ignore"):
        raw = value.get(key, [])
        if not isinstance(raw, list) or not all(isinstance(item, str) for item in raw):
            problems.append(_problem(f"'{key}' must be a list of codes", name, text, key))
            continue
        unknown = [item for item in raw if not select_codes(item, every)]
        for item in unknown:
            problems.append(_problem(f"unknown code {item!r} ('sgcheck explain --list' shows them)", name, text, item))
        spelled[key] = tuple(item for item in raw if item not in unknown)
    return replace(
        settings,
        select=spelled["select"] if "select" in value and "select" in spelled else None,
        extend_select=spelled.get("extend-select", ()),
        ignore=spelled.get("ignore", ()),
    )


def _code_list(
    value: object, key: str, name: str, text: str, problems: list[Diagnostic], allow_always_on: bool = False
) -> list[str]:
    if not isinstance(value, list):
        problems.append(_problem(f"'{key}' must be a list of codes", name, text, key))
        return []
    found = []
    for code in value:
        switching_on = allow_always_on or key in ("select", "extend-select", "enable")
        checked = _check_code(code, name, text, problems, switching_on)
        if checked is not None:
            found.append(checked)
    return found


def _check_code(
    code: object, name: str, text: str, problems: list[Diagnostic], allow_always_on: bool = False
) -> str | None:
    """A code, family or rule name the settings may use; a problem for one naming nothing, and for
    switching off an exact code that is always on."""
    if not isinstance(code, str) or not select_codes(code, code_catalogue()):
        problems.append(_problem(f"unknown code {code!r} ('sgcheck explain --list' shows them)", name, text, str(code)))
        return None
    exact = spell_code(code, code_catalogue())
    if exact in ALWAYS_ON and not allow_always_on:
        problems.append(_problem(f"{exact} cannot be disabled: unreadable cards are always reported", name, text, code))
        return None
    return exact or code


_TABLE_HEADER = re.compile(r"\s*\[\s*([^\]\s]+)\s*\]")


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


def _find(text: str, needle: str) -> tuple[int, int] | None:
    """Line and 0-based column of ``needle`` in the settings: a key before its ``=`` first,
    then a quoted value, then any mention in the [tool.sgcheck] tables."""
    lines = list(_own_lines(text))
    for number, line in lines:
        key = line.split("=", 1)[0] if "=" in line else ""
        column = key.find(needle)
        if column >= 0 and key[:column].strip(" \t\"'") == "":
            return number, column
    for quoted in (f'"{needle}"', f"'{needle}'"):
        for number, line in lines:
            column = line.find(quoted)
            if column >= 0:
                return number, column + 1
    for number, line in lines:
        column = line.find(needle)
        if column >= 0:
            return number, column
    return None


def _problem(message: str, name: str, text: str, needle: str) -> Diagnostic:
    """A SG-C210 finding, placed where the [tool.sgcheck] settings write ``needle``."""
    span = Span.point(name)
    found = _find(text, needle) if needle else None
    if found is not None:
        number, column = found
        span = Span(name, number, column + 1, number, column + 1 + len(needle))
    return meta(CONFIG_PROBLEM).diagnostic(message, span, hint="see docs/ci.md for the [tool.sgcheck] settings")
