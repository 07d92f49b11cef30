"""The one diagnostic type every finding is reported as.

Parse errors, illegal actions, wrong claims and contract findings all become a
:class:`Diagnostic`: a stable code, a severity, a message, an optional source
span, the rules it cites, and an optional hint and fix. Checkers *yield*
diagnostics; :func:`raise_first` serves callers that only want the first error.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from difflib import SequenceMatcher, get_close_matches
from enum import StrEnum
from typing import NamedTuple

from sgcheck.letters import ascii_upper

#: A value a finding carries as data (``expected``, ``claimed``): a JSON scalar.
Scalar = int | str | bool | None


def _shown(value: Scalar) -> str:
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


class Severity(StrEnum):
    """How bad a finding is; errors make the run fail (exit 1)."""

    ERROR = "error"
    WARNING = "warning"
    NOTE = "note"

    @property
    def rank(self) -> int:
        return {"error": 3, "warning": 2, "note": 1}[self.value]


class Span(NamedTuple):
    """A region of a source file. Lines and columns are 1-based; offsets are 0-based characters.

    ``end_column`` is exclusive, so a one-character span has ``end_column == column + 1``.
    An immutable named tuple rather than a frozen dataclass: every node of every parsed log
    carries spans, and a tuple is three times cheaper to build (see docs/benchmarks.md).
    """

    source: str
    line: int
    column: int
    end_line: int
    end_column: int
    offset: int = 0
    end_offset: int = 0

    def union(self, other: Span) -> Span:
        """The smallest span covering both (same source assumed)."""
        first = self if (self.line, self.column) <= (other.line, other.column) else other
        last = self if (self.end_line, self.end_column) >= (other.end_line, other.end_column) else other
        return Span(
            self.source,
            first.line,
            first.column,
            last.end_line,
            last.end_column,
            min(self.offset, other.offset),
            max(self.end_offset, other.end_offset),
        )

    @classmethod
    def point(cls, source: str, line: int = 1, column: int = 1, offset: int = 0) -> Span:
        """A zero-width span, for findings about a place rather than a region."""
        return cls(source, line, column, line, column, offset, offset)

    def __str__(self) -> str:
        return f"{self.source}:{self.line}:{self.column}"


@dataclass(frozen=True, slots=True)
class Fix:
    """A suggested change: what to do, and optionally the text to put at ``span``.

    ``safe``: applying it never changes what a card does beyond taking away what the contract
    forbids in the obviously intended way (a bonus lowered to its cap); ``check --fix`` applies
    only safe fixes unless ``--unsafe-fixes`` is given (docs/fmt.md).
    """

    description: str
    replacement: str | None = None
    span: Span | None = None
    safe: bool = False


#: A citation closing a message: `` (core §2, R16)``; anchored at the end, one pass, linear.
_TRAILING_CITATION = re.compile(r" \(((?:core §\d+(?:\.\d+)*|R\d\d)(?:, (?:core §\d+(?:\.\d+)*|R\d\d))*)\)$")


@dataclass(frozen=True, slots=True)
class Diagnostic:
    """A finding shown to the user.

    ``rules`` cites the rulebook and rulings (``"core §4.2"``, ``"R10"``).
    ``label`` is a short text shown under the caret in text output.
    ``context`` carries ordered key/value facts about where the finding happened
    (turn, player, phase, state), rendered by every output format.
    ``expected`` and ``claimed``: for a finding about something the input wrote that the rules
    contradict (a wrong claim in a log: a cost, a total, hit or miss), what the rules give and
    what was written, as data (JSON scalars), so no report has to read them back from the
    message; None where the finding has no such pair.
    """

    code: str
    severity: Severity
    message: str
    span: Span | None = None
    rules: tuple[str, ...] = ()
    hint: str | None = None
    fix: Fix | None = None
    label: str | None = None
    context: tuple[tuple[str, str], ...] = field(default=())
    expected: Scalar = None
    claimed: Scalar = None

    def __post_init__(self) -> None:
        """A message that ends with its own citation ``(core §2, R16)`` has it merged into
        ``rules``, which every report prints after the message: each reference is cited once."""
        if not self.rules or not self.message.endswith(")"):
            return
        cited = _TRAILING_CITATION.search(self.message)
        if cited is None:
            return
        refs = [ref.strip() for ref in cited.group(1).split(",")]
        object.__setattr__(self, "message", self.message[: cited.start()].rstrip())
        missing = [ref for ref in refs if ref not in self.rules]
        if missing:
            merged = sorted((*self.rules, *missing), key=lambda ref: (not ref.startswith("core"), ref))
            object.__setattr__(self, "rules", tuple(merged))

    def at(self, span: Span | None, label: str | None = None) -> Diagnostic:
        """The same finding placed at ``span`` (used when a lower layer had no source location)."""
        return replace(self, span=span, label=label if label is not None else self.label)

    def contrasted(self, expected: Scalar, claimed: Scalar) -> Diagnostic:
        """The same finding with what the rules give and what the input wrote, as data."""
        return replace(self, expected=expected, claimed=claimed)

    @property
    def contrast(self) -> str | None:
        """``expected 12, claimed 10``, or None when the finding has neither."""
        if self.expected is None and self.claimed is None:
            return None
        return f"expected {_shown(self.expected)}, claimed {_shown(self.claimed)}"

    def with_context(self, *pairs: tuple[str, str]) -> Diagnostic:
        return replace(self, context=self.context + tuple(pairs))

    @property
    def is_error(self) -> bool:
        return self.severity is Severity.ERROR

    @property
    def sort_key(self) -> tuple[str, int, int, str]:
        if self.span is None:
            return ("", 0, 0, self.code)
        return (self.span.source, self.span.line, self.span.column, self.code)


#: The most names a finding lists (cards of a pack, markers of a scenario, cards in a hand...):
#: a list whose length the input decides is cut to these, then says how many more there are.
LISTED_NAMES = 5


def shortlist(names: Iterable[str], near: str | None = None, limit: int = LISTED_NAMES) -> tuple[list[str], int]:
    """At most ``limit`` of ``names`` and how many are left out. When some are left out, those
    closest to ``near`` (what was written instead, by :func:`difflib.get_close_matches`) come
    first, then the others in their order. Every finding that lists names a user's files decide
    lists them through this (or :func:`listing`), so its message and data stay small whatever
    the size of the pack or the log."""
    every = list(dict.fromkeys(names))
    if len(every) <= limit:
        return every, 0
    closest = get_close_matches(near, every, n=limit) if near is not None else []
    chosen = list(dict.fromkeys((*closest, *every[:limit])))[:limit]
    return chosen, len(every) - len(chosen)


class NameIndex:
    """A set of names (the cards of a pack) indexed for near misses at a fixed cost per question.

    ``difflib.get_close_matches`` compares a word with every name: a "did you mean" for each of
    hundreds of unknown names against a pack of tens of thousands of cards costs their product.
    Here each name is filed under the three-letter pieces of its ASCII-lowered spelling (at most
    :data:`POSTINGS` names a piece); a question looks up the pieces of the word (at most
    :data:`PIECES` of them), takes the :data:`CANDIDATES` names that share the most, and lets
    ``get_close_matches`` choose among those alone. Built once per set of names, in time in
    proportion to it; each question then costs the same whatever the number of names.
    """

    PIECES = 48
    POSTINGS = 256
    CANDIDATES = 32

    __slots__ = ("_pieces", "names", "ordered")

    def __init__(self, names: Iterable[str]) -> None:
        self.names = frozenset(names)
        self.ordered = sorted(self.names)
        pieces: dict[str, list[int]] = {}
        for number, name in enumerate(self.ordered):
            for piece in _pieces(name):
                filed = pieces.setdefault(piece, [])
                if len(filed) < self.POSTINGS:
                    filed.append(number)
        self._pieces = pieces

    def __contains__(self, name: object) -> bool:
        return name in self.names

    def __len__(self) -> int:
        return len(self.names)

    def close(self, written: str, n: int = LISTED_NAMES, cutoff: float = 0.6) -> list[str]:
        """At most ``n`` names close to ``written``, the closest first (``get_close_matches``
        among the names that share the most pieces with it)."""
        shared: dict[int, int] = {}
        for piece in _pieces(written)[: self.PIECES]:
            for number in self._pieces.get(piece, ()):
                shared[number] = shared.get(number, 0) + 1
        best = sorted(shared, key=lambda number: (-shared[number], number))[: self.CANDIDATES]
        return get_close_matches(written, [self.ordered[number] for number in best], n=n, cutoff=cutoff)

    def listing(self, first: Iterable[str] = (), *, limit: int = LISTED_NAMES) -> str:
        """``first``, then the names in order, as :func:`listing` writes them (``'a', 'b' and 12
        more``), in time in proportion to ``limit``, not to the names."""
        chosen = list(dict.fromkeys((*first, *self.ordered[:limit])))[:limit]
        more = len(self.names) - len(chosen)
        text = ", ".join(repr(name) for name in chosen) or "none"
        return f"{text} and {more} more" if more > 0 else text


def _pieces(name: str) -> list[str]:
    """The distinct three-letter pieces of ``name``, ASCII-lowered, its ends marked."""
    folded = f" {name[:200].lower()} "
    return list(dict.fromkeys(folded[at : at + 3] for at in range(max(1, len(folded) - 2))))


def listing(
    names: Iterable[str],
    near: str | None = None,
    *,
    limit: int = LISTED_NAMES,
    quote: Callable[[str], str] = repr,
    none: str = "none",
) -> str:
    """``names`` for a message, cut by :func:`shortlist`: ``'a', 'b', 'c' and 12 more``."""
    shown, more = shortlist(names, near, limit)
    text = ", ".join(quote(name) for name in shown) or none
    return f"{text} and {more} more" if more else text


#: Letters and the digits they are mistaken for (compared in upper case).
_LOOKALIKE = str.maketrans("OQDILZSB", "00011258")


def closest(written: str, names: Iterable[str] | Mapping[str, str]) -> str | None:
    """The one of ``names`` that ``written`` most likely misspells (:func:`difflib.get_close_matches`,
    letters compared in ASCII upper case), or None when none is close. ``names`` may map other
    spellings to the name to suggest (``R204`` and ``wrong-hit`` to ``SG-R204``)."""
    shown = names if isinstance(names, Mapping) else {name: name for name in names}
    every = {ascii_upper(spelling): name for spelling, name in shown.items()}
    wanted = ascii_upper(written.strip())
    found = get_close_matches(wanted, list(every), n=len(every) or 1, cutoff=0.6)
    if not found:
        return None

    def rank(name: str) -> tuple[bool, bool, float, int]:
        """A letter written for the digit it looks like first (C15O is C150, not C159), then
        letters swapped (R240 is R204), then the closest, then the longest shared start (C05O is
        C050 rather than C205)."""
        shared = zip(name, wanted, strict=False)
        start = next((i for i, (a, b) in enumerate(shared) if a != b), min(len(name), len(wanted)))
        alike = name.translate(_LOOKALIKE) == wanted.translate(_LOOKALIKE)
        return alike, sorted(name) == sorted(wanted), SequenceMatcher(None, wanted, name).ratio(), start

    return every[max(found, key=rank)]


def did_you_mean(written: str, names: Iterable[str] | Mapping[str, str]) -> str:
    """``"; did you mean 'X'?"`` for a message about an unknown ``written``, or ``""`` when no name
    is close: the one way every unknown code, rule name, setting, option and piece is answered."""
    near = closest(written, names)
    return f"; did you mean {near!r}?" if near is not None else ""


def plural(count: int, word: str, words: str | None = None) -> str:
    """``1 file``, ``2 files``, ``0 files``: a count and its noun, singular only for exactly one
    (``words`` for a plural not made with -s). Every count sgcheck prints goes through this."""
    return f"{count} {word if count == 1 else words or word + 's'}"


class DiagnosticError(Exception):
    """Raised by :func:`raise_first`; carries the diagnostic."""

    def __init__(self, diagnostic: Diagnostic) -> None:
        super().__init__(diagnostic.message)
        self.diagnostic = diagnostic


def raise_first(diagnostics: Iterable[Diagnostic]) -> None:
    """Raise :class:`DiagnosticError` for the first error-severity diagnostic, if any."""
    for diagnostic in diagnostics:
        if diagnostic.is_error:
            raise DiagnosticError(diagnostic)


def errors(diagnostics: Iterable[Diagnostic]) -> Iterator[Diagnostic]:
    """Only the error-severity diagnostics."""
    return (d for d in diagnostics if d.is_error)
