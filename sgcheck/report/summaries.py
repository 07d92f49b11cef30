"""The summary block of a file, spelled for every format that writes one (text, JSON's
``summary``, JUnit's ``system-out``): a replayed log's (:mod:`sgcheck.report.replay_text`) and
a pack manifest's. A checker gives the block as a typed record (:class:`SummaryRecord`); text
already spelled is written as it is."""

from __future__ import annotations

from sgcheck.diagnostics import plural
from sgcheck.results import ManifestFacts, SummaryRecord


def summary_text(summary: str | SummaryRecord | None) -> str | None:
    """The block's text (None: the file has none to show)."""
    if summary is None or isinstance(summary, str):
        return summary
    if isinstance(summary, ManifestFacts):
        return pack_summary(summary)
    from sgcheck.replay.summary import ReplaySummary
    from sgcheck.report import replay_text

    if isinstance(summary, ReplaySummary):
        return replay_text.summary_text(summary)
    raise TypeError(f"no summary is spelled for a {type(summary).__name__}")


def pack_summary(facts: ManifestFacts) -> str | None:
    """``pack Starter 1.0 (core): 2 card files and 1 manifest · 12 cards``: what the manifest names
    (None: it names no pack)."""
    if facts.pack is None:
        return None
    return (
        f"pack {facts.pack} {facts.version or ''} ({facts.ruleset or 'core'}): "
        f"{plural(facts.files, 'card file')} and 1 manifest · {plural(facts.cards, 'card')}"
        + (f" · module {facts.module}" if facts.module is not None else "")
    )
