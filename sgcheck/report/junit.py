"""JUnit XML output, for CI test-report views (Jenkins, GitLab, GitHub test-report actions).

The shape is the common Jenkins/Surefire one (validated against Jenkins' ``junit-10.xsd``):
``<testsuites>`` holding one ``<testsuite>`` named after the command, holding one
``<testcase>`` per checked file. A file is the unit that passes or fails, so the list of
tests stays the same from run to run and a dashboard can follow each file's history; a
testcase per finding would make a fixed file vanish instead of pass.

A testcase has at most one ``<failure>``, listing every error-severity finding of the file:
Jenkins reads only the first ``<failure>`` of a testcase, so findings spread over several
would be lost there. A file that could not be checked (unreadable, or sgcheck failed on it)
gets an ``<error>`` instead. Warnings, notes, suppressed findings and the file's summary go
to ``<system-out>``. Counts follow Surefire: ``failures`` and ``errors`` count testcases.

The document is a pure function of the run: no clock, no host name, ``time="0"``, so two
runs over the same input give the same bytes. It is built with ElementTree, which escapes
``<``, ``&`` and ``>``. Every text and attribute is first made visible as in text output
(:func:`sgcheck.visible.visible`: control characters, bidirectional controls and line
separators become printable stand-ins, a newline stays), since CI pages show these reports to
people; then whatever XML 1.0 still cannot carry (U+FFFE, U+FFFF) is replaced.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Mapping

from sgcheck.codes import CATALOGUE, Trait
from sgcheck.diagnostics import Diagnostic, Severity, plural
from sgcheck.report.formats import RUN_KINDS, Options, RunEnd, not_rendered, without_positions
from sgcheck.report.summaries import summary_text
from sgcheck.results import FileResult, Run, Suppressed
from sgcheck.visible import visible

__all__ = ["NOT_CHECKED", "render_junit", "xml_text"]

#: Codes that mean a file could not be checked at all, or the run's configuration is invalid
#: (SG-C210): the testcase gets an ``<error>``. These are the codes that make the run exit 2
#: (:attr:`~sgcheck.codes.Trait.NOT_CHECKED`).
NOT_CHECKED = frozenset(code for code, info in CATALOGUE.items() if Trait.NOT_CHECKED in info.traits)

_FORBIDDEN = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")
_DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>\n'


def _replace(match: re.Match[str]) -> str:
    code = ord(match.group())
    return chr(0x2400 + code) if code < 0x20 else "\ufffd"  # C0 controls become their "control pictures"


def xml_text(text: str) -> str:
    """``text`` with every character XML 1.0 forbids replaced by a visible stand-in."""
    return _FORBIDDEN.sub(_replace, text)


def _rules(diagnostic: Diagnostic) -> str:
    return f" ({', '.join(diagnostic.rules)})" if diagnostic.rules else ""


def _headline(diagnostic: Diagnostic, path: str) -> str:
    """``path:line:col: CODE message (rules)``, as the text format's headline."""
    span = diagnostic.span
    where = f"{span.source}:{span.line}:{span.column}" if span is not None else path
    severity = "" if diagnostic.severity is Severity.ERROR else f" {diagnostic.severity.value}:"
    return f"{where}: {diagnostic.code}{severity} {diagnostic.message}{_rules(diagnostic)}"


def _block(diagnostic: Diagnostic, path: str) -> str:
    """A finding's headline, then where in the game, other context, hint and fix."""
    lines = [_headline(diagnostic, path)]
    context: dict[str, str] = {}
    for key, value in diagnostic.context:
        context.setdefault(key, value)  # the first value of a repeated key wins
    where = [f"turn {context.pop('turn')}"] if "turn" in context else []
    where += [context.pop(key) for key in ("player", "phase") if key in context]
    if where:
        lines.append("   " + " · ".join(where))
    if diagnostic.contrast is not None:
        lines.append("   " + diagnostic.contrast)
    lines.extend(f"   {key}: {value}" for key, value in context.items())
    if diagnostic.hint:
        lines.append(f"   hint: {diagnostic.hint}")
    if diagnostic.fix is not None:
        fix = diagnostic.fix.description
        if diagnostic.fix.replacement is not None:
            fix += f"; replace with {diagnostic.fix.replacement!r}"
        lines.append(f"   fix: {fix}")
    return "\n".join(lines)


def _suppressed_block(suppressed: Suppressed, path: str) -> str:
    at = suppressed.at
    return (
        f"suppressed: {_block(suppressed.diagnostic, path)}\n"
        f"   reason: {suppressed.reason} (at {at.source}:{at.line}:{at.column})"
    )


def _short(diagnostic: Diagnostic) -> str:
    return f"{diagnostic.code} {diagnostic.message}"


def _summary_message(findings: list[Diagnostic], noun: str) -> str:
    more = len(findings) - 1
    tail = f" (and {plural(more, f'more {noun}')})" if more else ""
    return _short(findings[0]) + tail


def _shown(text: str) -> str:
    """``text`` as the report holds it: visible, then valid XML."""
    return xml_text(visible(text))


def _element(parent: ET.Element, tag: str, text: str | None = None, **attributes: str) -> ET.Element:
    element = ET.SubElement(parent, tag, {key: _shown(value) for key, value in attributes.items()})
    if text is not None:
        element.text = _shown(text)
    return element


class _Outcome:
    """What one file's testcase says; counted once, rendered once."""

    def __init__(self, result: FileResult) -> None:
        self.result = result
        self.broken = [d for d in result.diagnostics if d.code in NOT_CHECKED]
        self.errors = [d for d in result.diagnostics if d.is_error and d.code not in NOT_CHECKED]
        self.others = [d for d in result.diagnostics if not d.is_error and d.code not in NOT_CHECKED]

    def testcase(self, suite: ET.Element) -> None:
        path = self.result.path
        case = _element(suite, "testcase", classname=path, name=path, time="0")
        if self.broken:
            text = "\n\n".join(_block(d, path) for d in self.broken)
            first = self.broken[0]
            _element(case, "error", text, message=_summary_message(self.broken, "error"), type=first.code)
        if self.errors:
            text = "\n\n".join(_block(d, path) for d in self.errors)
            first = self.errors[0]
            _element(case, "failure", text, message=_summary_message(self.errors, "error"), type=first.code)
        out = [_block(d, path) for d in self.others]
        out += [_suppressed_block(s, path) for s in self.result.suppressed]
        summary = summary_text(self.result.summary)
        if summary:
            out.append(summary.rstrip("\n"))
        if out:
            _element(case, "system-out", "\n\n".join(out) + "\n")


def render_junit(run: Run) -> str:
    """The run as a JUnit XML document (UTF-8, two-space indentation, trailing newline)."""
    outcomes = [_Outcome(result) for result in run.files]
    tests = str(len(outcomes))
    errors = str(sum(1 for o in outcomes if o.broken))
    failures = str(sum(1 for o in outcomes if o.errors and not o.broken))
    root = ET.Element("testsuites", {"name": "sgcheck", "tests": tests, "failures": failures, "errors": errors})
    suite_name = f"sgcheck {run.command}" if run.command else "sgcheck"
    suite = _element(
        root, "testsuite", name=suite_name, tests=tests, failures=failures, errors=errors, skipped="0", time="0"
    )
    if run.tool_version:
        properties = _element(suite, "properties")
        _element(properties, "property", name="sgcheck.version", value=run.tool_version)
    for outcome in outcomes:
        outcome.testcase(suite)
    ET.indent(root, space="  ")
    return _DECLARATION + ET.tostring(root, encoding="unicode") + "\n"


class JunitFormat:
    """JUnit XML for test dashboards: one test case a file, written whole at the end."""

    name = "junit"
    renders = RUN_KINDS
    streamed = False

    def part(self, result: FileResult, sources: Mapping[str, str], options: Options) -> str:
        return ""  # one document, written at the end

    def keep(self, result: FileResult) -> FileResult:
        return without_positions(result)

    def close(self, end: RunEnd) -> str:
        return render_junit(end.run())

    def render(self, result: object, options: Options) -> str:
        raise not_rendered(self.name, result)


FORMAT = JunitFormat()
