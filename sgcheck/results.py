"""What a checker returns, independent of how it is rendered.

Replay and the contract checker both produce :class:`FileResult` values and the
renderers in :mod:`sgcheck.report` turn a :class:`Run` of them into text, JSON, SARIF
or annotations. The types live here, below all three, so dependencies point one way.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from sgcheck.codes import CodeInfo
from sgcheck.diagnostics import Diagnostic, Span


@dataclass(frozen=True, slots=True)
class Suppressed:
    """A finding an in-source suppression silenced: still reported, with the reason given and
    where the suppression is, so a silenced contract break never disappears without trace."""

    diagnostic: Diagnostic
    reason: str
    at: Span


@dataclass(frozen=True, slots=True)
class FileResult:
    """The outcome of checking one input (a game log, a card file or a pack).

    ``summary`` is the human-readable block printed after the diagnostics in text
    output (e.g. the final board of a replay); ``facts`` is its machine-readable form
    (JSON-compatible values only) used by the JSON output. ``suppressed`` are the findings an
    in-source suppression silenced: listed, counted, never an error of the run. ``hidden`` are
    the codes of the findings the run's selection (a configuration, or the command line) left
    out: counted in the report's summary, so that no finding disappears unsaid.
    """

    path: str
    diagnostics: tuple[Diagnostic, ...]
    summary: str | None = None
    facts: Mapping[str, object] = field(default_factory=dict)
    suppressed: tuple[Suppressed, ...] = ()
    hidden: tuple[str, ...] = ()

    @property
    def has_errors(self) -> bool:
        return any(d.is_error for d in self.diagnostics)


@dataclass(frozen=True, slots=True)
class Run:
    """Everything one command invocation reports.

    ``sources`` maps a span's ``source`` name to the text it points into, so the
    text renderer can show the offending line. ``rules`` is the metadata of every
    code that may appear (used by SARIF's rule table).
    """

    command: str
    files: tuple[FileResult, ...]
    sources: Mapping[str, str] = field(default_factory=dict)
    rules: Mapping[str, CodeInfo] = field(default_factory=dict)
    tool_version: str = ""
    #: where the run's configuration came from and what it hid (None: not said)
    configuration: Mapping[str, object] | None = None

    @property
    def diagnostics(self) -> tuple[Diagnostic, ...]:
        return tuple(d for f in self.files for d in f.diagnostics)

    @property
    def has_errors(self) -> bool:
        return any(f.has_errors for f in self.files)

    @property
    def suppressed(self) -> tuple[Suppressed, ...]:
        return tuple(s for f in self.files for s in f.suppressed)
