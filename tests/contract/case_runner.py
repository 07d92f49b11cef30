"""Load and run the per-rule pass/fail cases in ``sgcheck/contract/rules/cases/*.yaml``.

One file per code, named after it (``C010.yaml`` for SG-C010)::

    code: SG-C010
    fail:
      - name: "a +30 to-hit bonus exceeds the +25 cap (core §4.5)"
        sgcard: |
          spell "Too Sharp" { cost 2 SP phase battle effect to_hit +30 this attack }
        expect:
          - {code: SG-C010, at: "1:44", message: "to-hit bonus +30 exceeds the +25 cap"}
    pass:
      - name: "exactly +25 is allowed (core §4.5)"
        sgcard: |
          spell "Sharp" { cost 2 SP phase battle effect to_hit +25 this attack }

A case writes its input into an empty folder and checks that folder: ``sgcard`` (written to
``cards.sgcard``), ``yaml`` (``cards.sgcard.yaml``), ``files`` (a mapping of relative path to
text), ``generate`` (a file too big to keep in the case: ``file``, ``prefix`` and a ``size``
in characters or a ``nesting`` depth of ``[``...``]``) and ``config`` (``pyproject.toml``).

``expect`` (fail cases only, never empty) is the complete list of findings the case
produces for every code it names, and it must name the file's own code:

- ``code``: the finding's code;
- ``at``: where its primary span starts, ``"LINE:COL"`` (1-based), or ``"FILE:LINE:COL"``
  with FILE relative to the case folder. FILE is required when the case writes more than
  one file, and may be left out only when it writes exactly one;
- ``message`` (optional): a substring of the finding's message.

The comparison is order-insensitive (entries are written in span order by convention):
for each code named in ``expect``, the run must report exactly as many findings of that
code as there are entries, each at the stated place and with the stated message. A
missing, extra or misplaced finding fails the case. Findings of codes the list does not
name are ignored. A pass case has no ``expect``: the run must report no finding of the
file's code.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ruamel.yaml import YAML

from sgcheck.config import Config
from sgcheck.contract import check_paths, load_config
from sgcheck.diagnostics import Diagnostic
from sgcheck.results import Run

CASES_DIR = Path(__file__).resolve().parents[2] / "sgcheck" / "contract" / "rules" / "cases"

INPUT_KEYS = frozenset({"sgcard", "yaml", "files", "generate", "config"})
AT_PATTERN = re.compile(r"(?:(?P<file>.+):)?(?P<line>[1-9][0-9]*):(?P<column>[1-9][0-9]*)")
_ENTRY_KEYS = frozenset({"code", "at", "message"})


class CaseFormatError(ValueError):
    """A case file does not follow the format described at the top of this module."""


@dataclass(frozen=True)
class Expected:
    """One finding a failing case must produce."""

    code: str
    file: str
    line: int
    column: int
    message: str | None = None

    def matches(self, found: Found) -> bool:
        if (self.code, self.file, self.line, self.column) != (found.code, found.file, found.line, found.column):
            return False
        return self.message is None or self.message in found.message

    def __str__(self) -> str:
        text = f"{self.code} at {self.file}:{self.line}:{self.column}"
        return text + (f" with message containing {self.message!r}" if self.message is not None else "")


@dataclass(frozen=True)
class Found:
    """One finding of a run, with its file relative to the case folder."""

    code: str
    file: str | None
    line: int
    column: int
    message: str

    def __str__(self) -> str:
        where = f"{self.file}:{self.line}:{self.column}" if self.file is not None else "(no position)"
        return f"{self.code} at {where}: {self.message}"


@dataclass(frozen=True)
class Case:
    code: str
    name: str
    expect: str  # "fail" or "pass" (the section the case is listed in)
    body: dict[str, Any]
    findings: tuple[Expected, ...] = ()  # a fail case's complete expected findings

    @property
    def id(self) -> str:
        """E.g. ``SG-C010 [core §4.5, core §8] fail: a +30 to-hit bonus exceeds the +25 cap``."""
        from sgcheck.contract.registry import rules_by_code

        cites = ", ".join(rules_by_code()[self.code].meta.rules)
        return f"{self.code} [{cites}] {self.expect}: {self.name}".replace("§", "")  # pytest ids stay ASCII

    @property
    def files(self) -> list[str]:
        """The files the case writes, relative to its folder."""
        return written_files(self.body)


def written_files(body: dict[str, Any]) -> list[str]:
    names = []
    if "sgcard" in body:
        names.append("cards.sgcard")
    if "yaml" in body:
        names.append("cards.sgcard.yaml")
    if "generate" in body:
        names.append(str(body["generate"]["file"]))
    names += [str(name) for name in body.get("files", {})]
    if "config" in body:
        names.append("pyproject.toml")
    return names


def load_cases() -> list[Case]:
    yaml = YAML(typ="safe", pure=True)
    found = []
    for path in sorted(CASES_DIR.glob("*.yaml")):
        data = yaml.load(path.read_text(encoding="utf-8"))
        found += _cases_of(path.name, data)
    return found


def _cases_of(filename: str, data: Any) -> list[Case]:
    def fail(message: str) -> CaseFormatError:
        return CaseFormatError(f"{filename}: {message}")

    if not isinstance(data, dict) or set(data) - {"code", "fail", "pass"} or "code" not in data:
        raise fail("a case file has the keys code, fail and pass (and nothing else)")
    code = data["code"]
    cases = []
    for section in ("fail", "pass"):
        items = data.get(section) or []
        if not isinstance(items, list):
            raise fail(f"{section} must be a list of cases")
        for item in items:
            if not isinstance(item, dict) or not isinstance(item.get("name"), str):
                raise fail(f"every case in {section} needs a name")
            where = f"{section} case {item['name']!r}"
            allowed = {"name"} | INPUT_KEYS | ({"expect"} if section == "fail" else set())
            unknown = set(item) - allowed
            if unknown:
                raise fail(f"{where}: unknown key(s) {', '.join(sorted(unknown))}")
            if not set(item) & INPUT_KEYS:
                raise fail(f"{where}: no input (one of {', '.join(sorted(INPUT_KEYS))})")
            findings: tuple[Expected, ...] = ()
            if section == "fail":
                try:
                    findings = _expected(item.get("expect"), code, written_files(item))
                except CaseFormatError as error:
                    raise fail(f"{where}: {error}") from None
            cases.append(Case(code, item["name"], section, item, findings))
    return cases


def _expected(entries: Any, code: str, files: Sequence[str]) -> tuple[Expected, ...]:
    if not isinstance(entries, list) or not entries:
        raise CaseFormatError("a fail case needs a non-empty expect list")
    expected = []
    for entry in entries:
        if not isinstance(entry, dict) or set(entry) - _ENTRY_KEYS or not {"code", "at"} <= set(entry):
            raise CaseFormatError(f"an expect entry has code, at and optionally message: {entry!r}")
        match = AT_PATTERN.fullmatch(str(entry["at"]))
        if match is None:
            raise CaseFormatError(f"at must read LINE:COL or FILE:LINE:COL, not {entry['at']!r}")
        file = match["file"]
        if file is None:
            if len(files) != 1:
                raise CaseFormatError(f"the case writes {len(files)} files, so at must name one: {entry['at']!r}")
            file = files[0]
        elif file not in files:
            raise CaseFormatError(f"{file!r} is not a file of the case ({', '.join(files)})")
        message = entry.get("message")
        expected.append(Expected(str(entry["code"]), file, int(match["line"]), int(match["column"]), message))
    if not any(e.code == code for e in expected):
        raise CaseFormatError(f"expect must list the findings of {code}")
    return tuple(expected)


def run_case(case: Case, folder: Path) -> Run:
    """Write the case's files into ``folder`` and check it (with its configuration, if any)."""
    body = case.body
    if "sgcard" in body:
        (folder / "cards.sgcard").write_text(body["sgcard"], encoding="utf-8")
    if "yaml" in body:
        (folder / "cards.sgcard.yaml").write_text(body["yaml"], encoding="utf-8")
    if "generate" in body:
        spec = body["generate"]
        if "nesting" in spec:
            nesting = int(spec["nesting"])
            filler = "[" * nesting + "]" * nesting
        else:
            filler = "x" * int(spec["size"])
        (folder / spec["file"]).write_text(spec["prefix"] + filler + "\n", encoding="utf-8")
    for relative, text in body.get("files", {}).items():
        target = folder / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
    config = Config()
    if "config" in body:
        (folder / "pyproject.toml").write_text(body["config"], encoding="utf-8")
        config = load_config(folder / "pyproject.toml", "pyproject.toml")
    return check_paths([str(folder)], config)


def found_in(diagnostics: Sequence[Diagnostic], folder: Path) -> list[Found]:
    """The diagnostics in span order, placed relative to the case folder."""
    found = []
    for diagnostic in sorted(diagnostics, key=lambda d: d.sort_key):
        span = diagnostic.span
        if span is None:
            found.append(Found(diagnostic.code, None, 0, 0, diagnostic.message))
            continue
        found.append(Found(diagnostic.code, _relative(span.source, folder), span.line, span.column, diagnostic.message))
    return found


def _relative(source: str, folder: Path) -> str:
    path = Path(source)
    if not path.is_absolute():
        return path.as_posix()  # already a display name such as "pyproject.toml"
    try:
        return path.resolve().relative_to(folder.resolve()).as_posix()
    except ValueError:
        return source


def mismatch(case: Case, run: Run, folder: Path) -> str | None:
    """Why the run does not meet the case, or None when it does."""
    if case.expect == "pass":
        found = found_in([d for d in run.diagnostics if d.code == case.code], folder)
        if not found:
            return None
        return f"{case.code} must not be reported, but was:\n" + "\n".join(f"  {f}" for f in found)
    codes = {e.code for e in case.findings}
    found = found_in([d for d in run.diagnostics if d.code in codes], folder)
    owner = _pair(case.findings, found)
    missing = [e for i, e in enumerate(case.findings) if i not in owner.values()]
    extra = [f for j, f in enumerate(found) if j not in owner]
    if not missing and not extra:
        return None
    lines = [f"findings of {', '.join(sorted(codes))} differ from the case's expect list"]
    if missing:
        lines += ["expected but not reported:"] + [f"  {e}" for e in missing]
    if extra:
        lines += ["reported but not expected:"] + [f"  {f}" for f in extra]
    lines += ["all reported (span order):"] + [f"  {f}" for f in found]
    return "\n".join(lines)


def _pair(expected: Sequence[Expected], found: Sequence[Found]) -> dict[int, int]:
    """A largest one-to-one pairing of found findings (keys) with expected ones (values)."""
    owner: dict[int, int] = {}

    def place(i: int, seen: set[int]) -> bool:
        for j, candidate in enumerate(found):
            if j in seen or not expected[i].matches(candidate):
                continue
            seen.add(j)
            if j not in owner or place(owner[j], seen):
                owner[j] = i
                return True
        return False

    for i in range(len(expected)):
        place(i, set())
    return owner
