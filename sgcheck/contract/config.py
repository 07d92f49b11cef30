"""Per-project settings from ``[tool.sgcheck]`` in ``pyproject.toml``.

The nearest ``pyproject.toml`` that has a ``[tool.sgcheck]`` table, searching upward from
the first checked path, is used (or the file given with ``--config``)::

    [tool.sgcheck]
    disable = ["SG-C120"]          # codes not reported at all
    ruleset = "core"               # profile for card files outside packs
    suppressions = false           # do not honour in-source suppressions (CI)
    [tool.sgcheck.severity]
    SG-C130 = "error"              # error, warning or note

Problems in the table are reported as SG-C210 and the valid parts still apply.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path

from sgcheck.contract.registry import meta, rules_by_code
from sgcheck.core.ruleset import CORE, Ruleset, RulesetError, parse_ruleset
from sgcheck.diagnostics import Diagnostic, Severity, Span
from sgcheck.lang.source import CONFIG_LIMIT, SourceText, read_source

CONFIG_PROBLEM = "SG-C210"
_KEYS = ("disable", "enable", "severity", "ruleset", "suppressions")
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

    def enabled(self, code: str) -> bool:
        return code not in self.disabled

    def apply(self, diagnostic: Diagnostic) -> Diagnostic | None:
        """The diagnostic with its configured severity, or None when its code is disabled."""
        if diagnostic.code in self.disabled:
            return None
        severity = self.severities.get(diagnostic.code)
        return replace(diagnostic, severity=severity) if severity is not None else diagnostic

    def with_codes(self, enable: Iterable[str] = (), disable: Iterable[str] = ()) -> Config:
        """Command-line ``--enable``/``--disable`` on top of the file (unknown codes raise ValueError)."""
        disabled = set(self.disabled)
        for code in disable:
            disabled.add(_known(code))
        for code in enable:
            disabled.discard(_known(code))
        return replace(self, disabled=frozenset(disabled))


def _known(code: str) -> str:
    wanted = code.strip().upper()
    if wanted not in rules_by_code() or wanted in ALWAYS_ON:
        raise ValueError(f"{code!r} is not a contract code that can be switched ('sgcheck explain --list')")
    return wanted


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
    name = shown or str(path)
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
    disabled: set[str] = set()
    for key, into_disabled in (("disable", True), ("enable", False)):
        for code in _code_list(table.get(key, []), key, name, text, problems):
            if into_disabled:
                disabled.add(code)
            else:
                disabled.discard(code)
    severities: dict[str, Severity] = {}
    raw_severity = table.get("severity", {})
    if not isinstance(raw_severity, dict):
        problems.append(_problem("[tool.sgcheck.severity] must be a table of CODE = level", name, text, "severity"))
        raw_severity = {}
    for code, level in raw_severity.items():
        if _check_code(code, name, text, problems, allow_always_on=True) is None:
            continue
        if level not in ("error", "warning", "note"):
            problems.append(
                _problem(f"severity of {code} must be error, warning or note, not {level!r}", name, text, code)
            )
            continue
        severities[code.upper()] = Severity(level)
    ruleset = CORE
    raw_ruleset = table.get("ruleset", "core")
    try:
        ruleset = parse_ruleset(str(raw_ruleset))
    except RulesetError as error:
        problems.append(_problem(f"ruleset: {error}", name, text, "ruleset"))
    honour = table.get("suppressions", True)
    if not isinstance(honour, bool):
        problems.append(_problem("'suppressions' must be true or false", name, text, "suppressions"))
        honour = True
    return Config(frozenset(disabled), severities, ruleset, name, tuple(problems), honour_suppressions=honour)


def _code_list(value: object, key: str, name: str, text: str, problems: list[Diagnostic]) -> list[str]:
    if not isinstance(value, list):
        problems.append(_problem(f"'{key}' must be a list of codes", name, text, key))
        return []
    found = []
    for code in value:
        checked = _check_code(code, name, text, problems)
        if checked is not None:
            found.append(checked)
    return found


def _check_code(
    code: object, name: str, text: str, problems: list[Diagnostic], allow_always_on: bool = False
) -> str | None:
    if not isinstance(code, str) or code.strip().upper() not in rules_by_code():
        problems.append(_problem(f"unknown code {code!r} ('sgcheck explain --list' shows them)", name, text, str(code)))
        return None
    upper = code.strip().upper()
    if upper in ALWAYS_ON and not allow_always_on:
        problems.append(
            _problem(f"{upper} cannot be disabled: unreadable cards are always reported", name, text, upper)
        )
        return None
    return upper


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
