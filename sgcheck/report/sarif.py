"""SARIF 2.1.0 output, for code-scanning dashboards (GitHub code scanning, IDE viewers).

One SARIF run per sgcheck run. The rule table lists only the codes that occur in
the results: a viewer needs metadata for what it shows, and listing the whole
catalogue would repeat dozens of long explanations in every uploaded file.
Codes that reach the results without catalogue metadata still get a minimal
rule entry, so every ``ruleIndex`` points at a real descriptor.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from typing import Any
from urllib.parse import quote

from sgcheck.codes import CodeInfo
from sgcheck.diagnostics import Diagnostic, Fix, Severity, Span
from sgcheck.report.formats import RUN_KINDS, Options, RunEnd, not_rendered, without_positions
from sgcheck.results import FileResult, Run, Suppressed
from sgcheck.visible import escape_json_text

__all__ = [
    "FINGERPRINT_KEY",
    "INFORMATION_URI",
    "SARIF_SCHEMA",
    "SARIF_VERSION",
    "artifact_location",
    "file_fingerprints",
    "render_sarif",
]

SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
SARIF_VERSION = "2.1.0"
INFORMATION_URI = "https://sgcheck.dev/"
SRCROOT = "%SRCROOT%"

_LEVELS = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.NOTE: "note"}
# Characters kept as they are in a relative URI path; everything else is percent-encoded.
# ':' is deliberately not kept: in a relative reference it could be read as a scheme.
_SAFE_PATH = "/!$&'()*+,;=@-._~"
_WINDOWS_DRIVE = re.compile(r"^[A-Za-z]:/")
_FIRST_SENTENCE = re.compile(r"(?<=[.!?])\s+")
#: The key of sgcheck's own entry in every result's ``partialFingerprints`` (docs/output-formats.md).
#: The key of sgcheck's fingerprint; its version names the recipe (v1 hashed the message's words,
#: v2 the finding's data only).
FINGERPRINT_KEY = "sgcheck/v2"


def artifact_location(path: str) -> dict[str, str]:
    """An ``artifactLocation`` for a source path as the user gave it.

    Relative paths stay relative to ``%SRCROOT%`` (code scanning resolves them
    against the repository root); absolute paths become ``file://`` URIs.
    Backslashes become slashes and unsafe characters are percent-encoded, since
    the property must be a valid URI reference.
    """
    posix = path.replace("\\", "/")
    if _WINDOWS_DRIVE.match(posix):
        return {"uri": "file:///" + posix[:2] + quote(posix[2:], safe=_SAFE_PATH, errors="surrogateescape")}
    if posix.startswith("/"):
        return {"uri": "file://" + quote(posix, safe=_SAFE_PATH, errors="surrogateescape")}
    while posix.startswith("./"):
        posix = posix[2:]
    return {"uri": quote(posix, safe=_SAFE_PATH, errors="surrogateescape"), "uriBaseId": SRCROOT}


def _region(span: Span) -> dict[str, int]:
    """A SARIF region; a zero-width span keeps only its start (SARIF needs end > start to mean a range)."""
    line, column = max(span.line, 1), max(span.column, 1)
    region = {"startLine": line, "startColumn": column}
    zero_width = span.end_line < line or (span.end_line == line and span.end_column <= column)
    if not zero_width:
        region["endLine"] = span.end_line
        region["endColumn"] = max(span.end_column, 1)
    return region


def _deleted_region(span: Span) -> dict[str, int]:
    """The region a fix replaces; here a zero-width span is an insertion point (end == start)."""
    line, column = max(span.line, 1), max(span.column, 1)
    end_line, end_column = span.end_line, span.end_column
    if (end_line, end_column) < (line, column):
        end_line, end_column = line, column
    return {"startLine": line, "startColumn": column, "endLine": end_line, "endColumn": end_column}


def _short_description(info: CodeInfo) -> str:
    """The explanation's first sentence: SARIF asks for one line that fits a narrow view."""
    return _FIRST_SENTENCE.split(info.explanation.strip(), maxsplit=1)[0] or info.name


def _unique(items: tuple[str, ...]) -> list[str]:
    return list(dict.fromkeys(items))


def _descriptor(code: str, info: CodeInfo | None, fallback: Severity) -> dict[str, Any]:
    if info is None:
        return {"id": code, "defaultConfiguration": {"level": _LEVELS[fallback]}}
    help_text = info.explanation
    if info.rules:
        help_text += f"\n\nRules: {', '.join(info.rules)}."
    help_text += f"\n\nRun `sgcheck explain {code}` for details."
    descriptor: dict[str, Any] = {
        "id": code,
        "name": info.name,
        "shortDescription": {"text": _short_description(info)},
        "fullDescription": {"text": info.explanation},
        "help": {"text": help_text},
        "defaultConfiguration": {"level": _LEVELS[info.severity]},
    }
    if info.rules:
        descriptor["properties"] = {"tags": _unique(info.rules)}
    return descriptor


def _message_text(diagnostic: Diagnostic) -> str:
    if diagnostic.rules:
        return f"{diagnostic.message} ({', '.join(diagnostic.rules)})"
    return diagnostic.message


def _properties(diagnostic: Diagnostic) -> dict[str, Any]:
    properties: dict[str, Any] = {}
    if diagnostic.rules:
        properties["rules"] = list(diagnostic.rules)
    if diagnostic.context:
        context: dict[str, str] = {}
        for key, value in diagnostic.context:
            context.setdefault(key, value)
        properties["context"] = context
    if diagnostic.hint:
        properties["hint"] = diagnostic.hint
    if diagnostic.label:
        properties["label"] = diagnostic.label
    if diagnostic.expected is not None or diagnostic.claimed is not None:
        properties["expected"] = diagnostic.expected
        properties["claimed"] = diagnostic.claimed
    if diagnostic.fix is not None and (diagnostic.fix.replacement is None or _fix_span(diagnostic) is None):
        properties["fix"] = diagnostic.fix.description
    return properties


def _fix_span(diagnostic: Diagnostic) -> Span | None:
    fix = diagnostic.fix
    if fix is None:
        return None
    return fix.span if fix.span is not None else diagnostic.span


def _sarif_fix(fix: Fix, span: Span) -> dict[str, Any]:
    return {
        "description": {"text": fix.description},
        "artifactChanges": [
            {
                "artifactLocation": artifact_location(span.source),
                "replacements": [
                    {"deletedRegion": _deleted_region(span), "insertedContent": {"text": fix.replacement}}
                ],
            }
        ],
    }


def _result(diagnostic: Diagnostic, path: str, rule_index: int) -> dict[str, Any]:
    span = diagnostic.span
    physical: dict[str, Any] = {"artifactLocation": artifact_location(span.source if span else path)}
    if span is not None:
        physical["region"] = _region(span)
    result: dict[str, Any] = {
        "ruleId": diagnostic.code,
        "ruleIndex": rule_index,
        "level": _LEVELS[diagnostic.severity],
        "message": {"text": _message_text(diagnostic)},
        "locations": [{"physicalLocation": physical}],
    }
    fix_span = _fix_span(diagnostic)
    if diagnostic.fix is not None and diagnostic.fix.replacement is not None and fix_span is not None:
        result["fixes"] = [_sarif_fix(diagnostic.fix, fix_span)]
    properties = _properties(diagnostic)
    if properties:
        result["properties"] = properties
    return result


def _fingerprinted(result: dict[str, Any], key: str) -> dict[str, Any]:
    result["partialFingerprints"] = {FINGERPRINT_KEY: key}
    return result


def _suppressed(result: dict[str, Any], suppressed: Suppressed | None) -> dict[str, Any]:
    """A result an in-source suppression silenced says so, with the comment's reason and place."""
    if suppressed is not None:
        where = {"artifactLocation": artifact_location(suppressed.at.source), "region": _region(suppressed.at)}
        result["suppressions"] = [
            {"kind": "inSource", "justification": suppressed.reason, "location": {"physicalLocation": where}}
        ]
    return result


# --- partialFingerprints -------------------------------------------------------------------------


def _fingerprint_path(path: str) -> str:
    """A path as reported, spelled one way: forward slashes, no leading ``./``."""
    posix = path.replace("\\", "/")
    while posix.startswith("./"):
        posix = posix[2:]
    return posix


def _covered_range(source: str, span: Span) -> tuple[int, int]:
    """Where the whole lines ``span`` covers lie in ``source`` (found without splitting it)."""
    if span.line < 1:
        return 0, 0
    start = -1
    if 0 <= span.offset <= len(source):
        candidate = source.rfind("\n", 0, span.offset) + 1
        if span.offset - candidate + 1 == span.column and (span.line == 1) == (candidate == 0):
            start = candidate
    if start < 0:
        start = 0
        for _ in range(span.line - 1):
            start = source.find("\n", start) + 1
            if start == 0:
                return 0, 0
    last = span.end_line if span.end_column > 1 else span.end_line - 1  # an end at column 1 stops before its line
    stop = start
    for _ in range(max(last - span.line, 0) + 1):
        newline = source.find("\n", stop)
        if newline < 0:
            return start, len(source)
        stop = newline + 1
    return start, stop


def _identity(diagnostic: Diagnostic, path: str, text: tuple[str, str]) -> str:
    """The hash of what identifies a finding wherever it is, read from its data: rule, paths, the
    text (whitespace normalised) of the lines it points at and of its span itself, and what the
    rules give and what the input wrote (``expected``, ``claimed``). Never the message: its
    wording may change."""
    span = diagnostic.span
    location = span.source if span is not None else path
    where = [_fingerprint_path(path), _fingerprint_path(location), *text]
    fields = [FINGERPRINT_KEY, diagnostic.code, *where, diagnostic.expected, diagnostic.claimed]
    identity = json.dumps(fields, ensure_ascii=False)
    return hashlib.sha256(identity.encode("utf-8", "surrogatepass")).hexdigest()[:32]


def _normalised(text: str) -> str:
    """``text`` with every run of whitespace one space, none at the ends."""
    return " ".join(text.split())


#: The most characters of a span's own text that enter its fingerprint.
_POINTED_CHARS = 200


def _pointed(source: str, span: Span) -> str:
    """The whitespace-normalised text ``span`` itself covers (its first :data:`_POINTED_CHARS`
    characters), when its offsets agree with its column; else ``""``."""
    if not 0 <= span.offset <= span.end_offset <= len(source):
        return ""
    if source.rfind("\n", 0, span.offset) + span.column != span.offset:
        return ""
    return " ".join(source[span.offset : min(span.end_offset, span.offset + _POINTED_CHARS)].split())


def _line_texts(sources: Mapping[str, str]) -> Callable[[Diagnostic], tuple[str, str]]:
    """The whitespace-normalised text of the lines each finding covers, worked out once per
    stretch of lines (thousands of findings on one long line cost one pass over it), and of the
    span itself, so two findings of one rule on one line at different words are told apart; only
    the hash of each finding's identity is kept."""
    texts: dict[tuple[str, int, int], str] = {}

    def text_of(diagnostic: Diagnostic) -> tuple[str, str]:
        span = diagnostic.span
        if span is None or span.source not in sources:
            return "", ""
        source = sources[span.source]
        start, stop = _covered_range(source, span)
        key = (span.source, start, stop)
        if key not in texts:
            texts[key] = _normalised(source[start:stop])
        return texts[key], _pointed(source, span)

    return text_of


def _place(diagnostic: Diagnostic) -> tuple[int, int]:
    span = diagnostic.span
    return (0, 0) if span is None else (span.line, span.column)


def file_fingerprints(result: FileResult, sources: Mapping[str, str]) -> tuple[str, ...]:
    """The ``partialFingerprints`` value of each of a file's results, in SARIF's order (its
    findings, then its suppressed findings).

    Each is ``<32 hex digits of sha256>:<n>``: the hash of the rule id, the file's path and the
    finding's location path as reported, the whitespace-normalised text of the source lines its
    span covers and of the span itself, and the finding's ``expected`` and ``claimed``; ``n``
    counts otherwise
    identical findings of the file in the order of their places (1 for the first), so a
    suppression added to one of them leaves the others' fingerprints alone. No line or column
    number enters it, so lines inserted above a finding do not change it.
    """
    findings = (*result.diagnostics, *(s.diagnostic for s in result.suppressed))
    text_of = _line_texts(sources)
    identities = [_identity(d, result.path, text_of(d)) for d in findings]
    seen: Counter[str] = Counter()
    ordinals = [0] * len(findings)
    for i in sorted(range(len(findings)), key=lambda i: (_place(findings[i]), i)):
        seen[identities[i]] += 1
        ordinals[i] = seen[identities[i]]
    return tuple(f"{identity}:{ordinal}" for identity, ordinal in zip(identities, ordinals, strict=True))


def sarif_document(run: Run, fingerprints: Sequence[Sequence[str]] | None = None) -> dict[str, Any]:
    """The SARIF log as plain data (what :func:`render_sarif` serialises).

    A finding an in-source suppression silenced is a result too, with a ``suppressions``
    entry (kind ``inSource``, the comment's reason as justification): viewers show it as
    suppressed, and it never disappears from the log.

    ``fingerprints`` are :func:`file_fingerprints` of each file, worked out while its sources
    were at hand (a streamed report drops them); without it they are worked out from
    ``run.sources``.
    """
    if fingerprints is None:
        fingerprints = [file_fingerprints(result, run.sources) for result in run.files]
    keys = [key for per_file in fingerprints for key in per_file]
    quiet = {id(s.diagnostic): s for result in run.files for s in result.suppressed}
    pairs = [
        (result.path, d)
        for result in run.files
        for d in (*result.diagnostics, *(s.diagnostic for s in result.suppressed))
    ]
    used: dict[str, Severity] = {}
    for _, diagnostic in pairs:
        used.setdefault(diagnostic.code, diagnostic.severity)
    # Catalogue order first (stable whatever order findings arrive in), then unknown codes.
    order = [code for code in run.rules if code in used]
    order += [code for code in used if code not in run.rules]
    index = {code: i for i, code in enumerate(order)}
    rules = [_descriptor(code, run.rules.get(code), used[code]) for code in order]

    driver: dict[str, Any] = {"name": "sgcheck", "informationUri": INFORMATION_URI}
    if run.tool_version:
        driver["version"] = run.tool_version
    driver["rules"] = rules
    sarif_run: dict[str, Any] = {
        "tool": {"driver": driver},
        "automationDetails": {"id": f"sgcheck/{run.command}/" if run.command else "sgcheck/"},
        "columnKind": "unicodeCodePoints",
        "results": [
            _suppressed(_fingerprinted(_result(d, path, index[d.code]), key), quiet.get(id(d)))
            for (path, d), key in zip(pairs, keys, strict=True)
        ],
    }
    return {"$schema": SARIF_SCHEMA, "version": SARIF_VERSION, "runs": [sarif_run]}


def render_sarif(run: Run, fingerprints: Sequence[Sequence[str]] | None = None) -> str:
    return escape_json_text(json.dumps(sarif_document(run, fingerprints), indent=2, ensure_ascii=False)) + "\n"


class SarifFormat:
    """SARIF 2.1.0 for code scanning: a run of checked files as one log."""

    name = "sarif"
    renders = RUN_KINDS
    streamed = False

    def part(self, result: FileResult, sources: Mapping[str, str], options: Options) -> str:
        # Fingerprints quote the source, which is at hand only now: kept, not written.
        return "\n".join(file_fingerprints(result, sources))

    def keep(self, result: FileResult) -> FileResult:
        return without_positions(result)

    def close(self, end: RunEnd) -> str:
        return render_sarif(end.run(), [part.split("\n") if part else [] for part in end.held])

    def render(self, result: object, options: Options) -> str:
        raise not_rendered(self.name, result)


FORMAT = SarifFormat()
