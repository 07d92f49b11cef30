"""Inline suppressions: ``# sgcheck: ignore SG-C092 -- reason`` in card files and manifests.

* In a card file, ``ignore`` covers the card the comment sits in, or the card that
  follows it when the comment is written between cards; ``ignore-file`` covers the file.
* In a pack manifest, ``ignore`` covers the named codes for the whole pack.

Every suppression must give a reason after ``--`` (otherwise it is not applied and
SG-C220 says so), must name codes that exist (SG-C222), and must silence something
(SG-C221 reports the ones that do not).
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from sgcheck.codes import CATALOGUE, Trait, reads_input, spell_code
from sgcheck.contract.registry import code_catalogue, meta
from sgcheck.diagnostics import Diagnostic, Fix, Span
from sgcheck.letters import ascii_upper

NO_REASON, UNUSED, MALFORMED = "SG-C220", "SG-C221", "SG-C222"
#: The codes no suppression silences (:attr:`~sgcheck.codes.Trait.UNSUPPRESSIBLE`); nor are those
#: about an input as a whole (a card file that cannot be read).
NOT_SUPPRESSIBLE = frozenset(code for code, info in CATALOGUE.items() if Trait.UNSUPPRESSIBLE in info.traits)
_DIRECTIVE = re.compile(r"#\s*sgcheck\s*:\s*(?P<body>.*)$")
_VERB = re.compile(r"(ignore-file|ignore)(?:\s+|$)")


@dataclass(slots=True)
class Suppression:
    codes: tuple[str, ...]
    reason: str
    span: Span
    whole_file: bool
    used: set[str] = field(default_factory=set)


def _comment_start(line: str) -> int:
    """Where a ``#`` comment starts on ``line``, ignoring ``#`` inside quotes (-1 if none)."""
    quote = ""
    escaped = False
    for index, char in enumerate(line):
        if quote:
            if escaped:
                escaped = False
            elif char == "\\" and quote == '"':
                escaped = True
            elif char == quote:
                quote = ""
        elif char in "\"'":
            quote = char
        elif char == "#":
            return index
    return -1


def scan(text: str, source: str) -> tuple[list[Suppression], list[Diagnostic]]:
    """The suppressions of a file, and findings for the malformed ones."""
    found: list[Suppression] = []
    problems: list[Diagnostic] = []
    if "sgcheck" not in text:
        return found, problems
    offset = 0
    for number, line in enumerate(text.split("\n"), start=1):
        start = _comment_start(line) if "sgcheck" in line else -1
        if start >= 0:
            directive = _DIRECTIVE.match(line, start)
            if directive is not None:
                span = Span(source, number, start + 1, number, len(line) + 1, offset + start, offset + len(line))
                parsed = _parse(directive.group("body").strip(), span)
                if isinstance(parsed, Diagnostic):
                    problems.append(parsed)
                elif parsed is not None:
                    found.append(parsed)
                    if not parsed.reason:
                        problems.append(
                            meta(NO_REASON).diagnostic(
                                f"suppression of {', '.join(parsed.codes)} gives no reason, so it is not applied",
                                span,
                                fix=Fix(
                                    "add the reason after '--'",
                                    replacement=f"# sgcheck: ignore {', '.join(parsed.codes)} -- <reason>",
                                ),
                                label="needs a reason",
                            )
                        )
        offset += len(line) + 1
    return [s for s in found if s.reason], problems


def _parse(body: str, span: Span) -> Suppression | Diagnostic | None:
    head, _, reason = body.partition("--")
    verb = _VERB.match(head)
    if verb is None:
        return meta(MALFORMED).diagnostic(
            "a sgcheck comment must read 'ignore CODE -- reason' or 'ignore-file CODE -- reason'",
            span,
            label="not understood",
        )
    written = tuple(c.strip() for c in re.split(r"[,\s]+", head[verb.end() :]) if c.strip())
    if not written:
        return meta(MALFORMED).diagnostic("the suppression names no code", span, label="which code?")
    codes = []
    for spelling in written:  # SG-C092, C092, c092 or the rule's name
        code = spell_code(spelling, code_catalogue())
        if code is None or code in NOT_SUPPRESSIBLE or reads_input(code):
            shown = code or ascii_upper(spelling)
            return meta(MALFORMED).diagnostic(
                f"{shown} is not a code that can be suppressed ('sgcheck explain --list')", span, label="unknown code"
            )
        codes.append(code)
    return Suppression(tuple(codes), reason.strip(), span, verb.group(1) == "ignore-file")


@dataclass(slots=True)
class FileSuppressions:
    """The suppressions of one card file, with the line ranges of its cards."""

    suppressions: list[Suppression]
    card_ends: list[int]  # last line of each card, in order

    def _card_index(self, line: int) -> int:
        return bisect_left(self.card_ends, line)

    def silencing(self, diagnostic: Diagnostic) -> Suppression | None:
        """The suppression of this file that silences ``diagnostic`` (None: none does)."""
        if diagnostic.span is None or diagnostic.code in NOT_SUPPRESSIBLE:
            return None
        target = self._card_index(diagnostic.span.line)
        for suppression in self.suppressions:
            if diagnostic.code not in suppression.codes:
                continue
            if suppression.whole_file or self._card_index(suppression.span.line) == target:
                suppression.used.add(diagnostic.code)
                return suppression
        return None


def silencing_pack_wide(diagnostic: Diagnostic, pack_wide: Sequence[Suppression]) -> Suppression | None:
    """The manifest's suppression that silences ``diagnostic`` for the whole pack (None: none does)."""
    if diagnostic.code in NOT_SUPPRESSIBLE:
        return None
    for suppression in pack_wide:
        if diagnostic.code in suppression.codes:
            suppression.used.add(diagnostic.code)
            return suppression
    return None


def unused(suppressions: Iterable[Suppression], disabled: frozenset[str]) -> list[Diagnostic]:
    """SG-C221 for each code a suppression names but never silenced (disabled codes excepted)."""
    found = []
    for suppression in suppressions:
        idle = [c for c in suppression.codes if c not in suppression.used and c not in disabled]
        if idle:
            found.append(
                meta(UNUSED).diagnostic(
                    f"suppression of {', '.join(idle)} silences nothing here",
                    suppression.span,
                    fix=_unused_fix(suppression, idle),
                    label="unused",
                )
            )
    return found


def _unused_fix(suppression: Suppression, idle: list[str]) -> Fix:
    """A safe fix: the comment deleted, or rewritten without the codes it does not use."""
    kept = [c for c in suppression.codes if c not in idle]
    verb = "ignore-file" if suppression.whole_file else "ignore"
    replacement = f"# sgcheck: {verb} {', '.join(kept)} -- {suppression.reason}" if kept else ""
    return Fix("delete the comment (or the unused codes)", replacement, suppression.span, safe=True)
