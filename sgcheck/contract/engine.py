"""Check packs and card files: the library entry point behind ``sgcheck check``.

:func:`check_paths` discovers what to check, reads every card file (a broken card only
costs itself), runs each enabled per-card rule on each card and each pack-level
analysis on each pack, applies the configuration (disabled codes, severities) and the
inline suppressions, and returns a :class:`~sgcheck.results.Run` for the renderers.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from pathlib import Path

from sgcheck import __version__, codes
from sgcheck.codes import CATALOGUE, CodeInfo
from sgcheck.contract.config import Config
from sgcheck.contract.context import PackView
from sgcheck.contract.packs import CardSource, PackPlan, discover, is_yaml
from sgcheck.contract.registry import all_rules, code_catalogue, meta
from sgcheck.contract.suppressions import FileSuppressions, Suppression, scan, silence_pack_wide, unused
from sgcheck.diagnostics import Diagnostic, Span
from sgcheck.lang.card_ast import Card, CardFile
from sgcheck.lang.source import SourceText, read_source
from sgcheck.results import FileResult, Run

_READING_CODES = ("SG-P004", "SG-P005", "SG-P008")


@contextmanager
def _no_gc_pauses() -> Iterator[None]:
    """Checking builds many small acyclic objects; the cycle collector only slows that down."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def check_paths(paths: Sequence[str], config: Config | None = None) -> Run:
    """Check every pack and card file under ``paths``."""
    config = config if config is not None else Config()
    files: list[FileResult] = []
    sources: dict[str, str] = {}
    if config.problems and config.source is not None:
        files.append(FileResult(config.source, tuple(config.problems)))
        with suppress(OSError, UnicodeDecodeError):  # without the text, only the quoted line is missing
            sources[config.source] = Path(config.source).read_text(encoding="utf-8")
    with _no_gc_pauses():
        for plan in discover(paths, config.ruleset):
            files.extend(_check_plan(plan, config, sources))
    return Run("check", tuple(files), sources, rules_table(), __version__)


def rules_table() -> dict[str, CodeInfo]:
    """Metadata of every code ``check`` may report (the SARIF rule table)."""
    table = {code: CATALOGUE[code] for code in _READING_CODES if code in CATALOGUE}
    table.update(code_catalogue())
    return table


def read_cards(source: CardSource, sources: dict[str, str]) -> tuple[CardFile, str]:
    """Parse one card file in the format its name says; unreadable files become diagnostics."""
    from sgcheck.lang.card_parser import parse_cards
    from sgcheck.lang.card_yaml import load_card_yaml

    if source.path.exists() and not source.path.is_file():  # a FIFO or device would never end
        read: SourceText | Diagnostic = codes.diagnostic(
            "SG-P008", f"cannot read {source.shown!r}: it is not a regular file"
        )
    else:
        read = read_source(source.path, source.shown)
    if isinstance(read, Diagnostic):
        return CardFile(source.shown, (), (read.at(read.span or Span.point(source.shown)),)), ""
    sources[source.shown] = read.text
    parse = load_card_yaml if is_yaml(source.shown) else parse_cards
    return parse(read.text, source.shown), read.text


@dataclass(slots=True)
class _Gathered:
    """What reading a plan's files produced, before rules, configuration and suppressions."""

    findings: dict[str, list[Diagnostic]] = field(default_factory=dict)
    cards: list[Card] = field(default_factory=list)
    counts: dict[str, int] = field(default_factory=dict)
    per_file: dict[str, FileSuppressions] = field(default_factory=dict)
    pack_wide: list[Suppression] = field(default_factory=list)
    every: list[Suppression] = field(default_factory=list)


def _gather(plan: PackPlan, sources: dict[str, str]) -> _Gathered:
    gathered = _Gathered()
    manifest = plan.manifest.shown if plan.manifest is not None else None
    if manifest is not None:
        sources[manifest] = plan.manifest_text
        gathered.pack_wide, problems = scan(plan.manifest_text, manifest)
        gathered.every.extend(gathered.pack_wide)
        gathered.findings[manifest] = [*plan.diagnostics, *problems]
    elif plan.diagnostics:
        gathered.findings[plan.name] = list(plan.diagnostics)
    for source in plan.files:
        card_file, text = read_cards(source, sources)
        gathered.cards.extend(card_file.cards)
        gathered.counts[source.shown] = len(card_file.cards)
        suppressions, problems = scan(text, source.shown)
        gathered.every.extend(suppressions)
        ends = sorted(card.span.end_line for card in card_file.cards)
        gathered.per_file[source.shown] = FileSuppressions(suppressions, ends)
        gathered.findings.setdefault(source.shown, []).extend([*card_file.diagnostics, *problems])
    if manifest is not None and plan.files and not gathered.cards and not plan.diagnostics:
        gathered.findings[manifest].append(
            meta("SG-C208").diagnostic("no listed card file holds a card", Span.point(manifest))
        )
    return gathered


def _check_plan(plan: PackPlan, config: Config, sources: dict[str, str]) -> list[FileResult]:
    gathered = _gather(plan, sources)
    manifest = plan.manifest.shown if plan.manifest is not None else None
    findings = gathered.findings
    for diagnostic in _run_rules(gathered.cards, plan, config):
        where = diagnostic.span.source if diagnostic.span is not None else (manifest or plan.name)
        findings.setdefault(where, []).append(diagnostic)
    for shown, raw in findings.items():
        findings[shown] = _kept(raw, config, gathered.per_file.get(shown), gathered.pack_wide)
    for diagnostic in unused(gathered.every, config.disabled):
        configured = config.apply(diagnostic)
        if configured is not None and configured.span is not None:
            findings.setdefault(configured.span.source, []).append(configured)
    results = []
    for shown, kept in findings.items():
        kept.sort(key=lambda d: d.sort_key)
        facts: dict[str, object] = {"cards": gathered.counts[shown]} if shown in gathered.counts else {}
        summary = None
        if shown == manifest:
            facts = {**plan.facts, "cards": len(gathered.cards), "files": len(plan.files)}
            summary = _pack_summary(facts)
        results.append(FileResult(shown, tuple(kept), summary=summary, facts=facts))
    return results


def _pack_summary(facts: dict[str, object]) -> str | None:
    if "pack" not in facts:
        return None
    return (
        f"pack {facts['pack']} {facts.get('version', '')} ({facts.get('ruleset', 'core')}): "
        f"{facts['cards']} cards in {facts['files']} files"
    )


def _kept(
    raw: list[Diagnostic], config: Config, suppressions: FileSuppressions | None, pack_wide: list[Suppression]
) -> list[Diagnostic]:
    """The findings left after the configuration and the suppression comments."""
    kept = []
    for diagnostic in raw:
        configured = config.apply(diagnostic)
        if configured is None:
            continue
        if suppressions is not None and suppressions.silences(configured):
            continue
        if silence_pack_wide(configured, pack_wide):
            continue
        kept.append(configured)
    return kept


def _run_rules(cards: list[Card], plan: PackPlan, config: Config) -> Iterator[Diagnostic]:
    rules = [rule for rule in all_rules() if config.enabled(rule.meta.code)]
    card_checks = [rule.check_card for rule in rules if rule.check_card is not None]
    pack_checks = [rule.check_pack for rule in rules if rule.check_pack is not None]
    context = plan.context
    for card in cards:
        for check in card_checks:
            yield from check(card, context)
    view = PackView(plan.name, tuple(cards))
    for pack_check in pack_checks:
        yield from pack_check(view, context)
