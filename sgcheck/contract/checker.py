"""Check packs and card files: the library entry point behind ``sgcheck check``.

:func:`check_paths` discovers what to check, reads every card file (a broken card only
costs itself), runs each enabled per-card rule on each card and each pack-level
analysis on each pack, applies the configuration (disabled codes, severities) and the
inline suppressions, and returns a :class:`~sgcheck.results.Run` for the renderers.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from sgcheck import __version__, codes
from sgcheck.codes import CATALOGUE, CodeInfo
from sgcheck.config import Config
from sgcheck.contract.analysis.explore import Found
from sgcheck.contract.context import CheckContext
from sgcheck.contract.facts.pack_facts import PackFacts, PackView
from sgcheck.contract.packs import CardSource, PackPlan, discover
from sgcheck.contract.proven import card_at, is_static_break, proved, refused_as
from sgcheck.contract.registry import Scope, all_rules, code_catalogue, meta
from sgcheck.contract.suppressions import FileSuppressions, Suppression, scan, silencing_pack_wide, unused
from sgcheck.core.cards.model import Card, CardFile
from sgcheck.core.ruleset import Ruleset
from sgcheck.diagnostics import Diagnostic, Severity, Span
from sgcheck.discovery import DEFAULT, DiscoveryOptions
from sgcheck.lang.source import (
    CARD_LIMIT,
    SCENARIO_LIMIT,
    YAML_CARD_LIMIT,
    BinaryReader,
    InputLimit,
    SourceText,
    read_source,
    read_stream,
)
from sgcheck.project.kinds import is_scenario_file, is_yaml
from sgcheck.results import CardFileFacts, Facts, FileResult, ManifestFacts, Run, ScenarioFileFacts, Suppressed

_READING_CODES = ("SG-P004", "SG-P005", "SG-P008", "SG-P010", "SG-P011")
#: What ``check`` reports on scenario files and scenario sections (R24), besides the contract's codes.
#: And the module section's (R26).
_SCENARIO_CODES = ("SG-P032", "SG-P033", "SG-P034", "SG-P035", "SG-P036", "SG-S103", "SG-P038")


STDIN = "-"


@dataclass(frozen=True, slots=True)
class StdinSource(CardSource):
    """Card text read from standard input; ``shown`` (``<stdin>`` or ``--stdin-filename``) picks its format."""


@dataclass(slots=True)
class CheckJob:
    """What one ``check`` will look at: the configuration and the packs and loose files found."""

    config: Config
    plans: list[PackPlan]
    # with ``check --explain-break DIR``: where each break found in play is written as a game,
    # and what was written (the folder of each proof, or why it could not be written)
    proof_dir: Path | None = None
    proofs: list[str] = field(default_factory=list)
    # processes the play of each pack may use (``check --jobs``); the report does not depend on it
    jobs: int = 1

    @property
    def empty(self) -> bool:
        """Nothing to check and nothing to report: a command line that named no card file."""
        return not self.plans and not self.config.problems

    def inputs(self) -> list[str]:
        """Every file this check reads that is known before it runs: the card files, scenarios and
        manifests of its plans and the configuration file (standard input is none)."""
        found = [self.config.source] if self.config.source is not None else []
        for plan in self.plans:
            if plan.manifest is not None:
                found.append(str(plan.manifest.path))
            found.extend(str(source.path) for source in plan.files if not isinstance(source, StdinSource))
        return found

    def results(self, stdin: BinaryReader | None = None) -> Iterator[tuple[FileResult, Mapping[str, str]]]:
        """Each file's result with the texts its findings point into, pack by pack.

        A failure of sgcheck itself while checking one pack becomes SG-X001 on that pack, and
        the other packs are still checked.
        """
        config = self.config
        if config.problems and config.source is not None:
            yield FileResult(config.source, tuple(config.problems)), {config.source: config.text}
        for plan in self.plans:
            checked = check_plan(plan, config, stdin, jobs=self.jobs)
            if self.proof_dir is not None and checked.breaks:
                self.proofs.extend(write_proofs(self.proof_dir, plan.name, checked, plan.context.ruleset))
            for result in checked.results:
                yield result, checked.sources


@dataclass(frozen=True, slots=True)
class CheckedPlan:
    """One pack (or loose file) checked: what ``check`` reports on it, the texts those findings
    point into, and every card that loaded, in file order (replay plays a game with them)."""

    results: tuple[FileResult, ...]
    sources: Mapping[str, str]
    cards: tuple[Card, ...]
    breaks: tuple[Found, ...] = ()  # the breaks found in play that the run reports, with their games


def check_plan(
    plan: PackPlan, config: Config | None = None, stdin: BinaryReader | None = None, *, jobs: int = 1
) -> CheckedPlan:
    """Check one pack or loose file, as ``check`` checks each of its plans (its play in ``jobs``
    processes); a failure of sgcheck itself becomes SG-X001 on the plan, with no cards."""
    config = config if config is not None else Config()
    sources: dict[str, str] = {}
    breaks: list[Found] = []
    try:
        checked, cards = _check_plan(plan, config, sources, stdin, breaks, jobs)
    except (Exception, RecursionError, MemoryError) as error:  # one pack must not hide the others
        failed = FileResult(plan.name, (codes.internal_error(error).at(Span.point(plan.name)),))
        return CheckedPlan((failed,), {}, ())
    return CheckedPlan(tuple(checked), sources, tuple(cards), tuple(breaks))


def write_proofs(folder: Path, name: str, checked: CheckedPlan, ruleset: Ruleset) -> Iterator[str]:
    """Write each break ``checked`` reports as a game that replays to it (:mod:`sgcheck.contract.proof`):
    one new folder a break under ``folder``, named after the pack and the break (never one that
    exists already). Yields the path of each log written, or a line saying why one could not be."""
    from sgcheck.contract.proof import write_proof
    from sgcheck.contract.proven import REFUSED_KIND, proof_comments

    by_name = {card.name: card for card in checked.cards}
    stem = "".join(c if c.isalnum() or c in "-_" else "-" for c in Path(name).name).strip("-") or "pack"
    for index, found in enumerate(checked.breaks, start=1):
        target = _fresh(folder / f"{stem}-{index:02d}-{found.kind}{'-projected' if found.projected else ''}")
        dealt = [by_name[n] for n in dict.fromkeys((*found.hands[0], *found.hands[1])) if n in by_name]
        comments = proof_comments(name, found, target)
        try:
            log = write_proof(
                target,
                cards=dealt,
                scenario=found.probe.scenario,
                hands=found.hands,
                actions=found.path,
                ruleset=ruleset,
                comments=comments,
                refused=found.kind == REFUSED_KIND,
            )
        except (ValueError, OSError) as error:
            yield f"{target}: not written: {error}"
            continue
        yield str(log)


def _fresh(target: Path) -> Path:
    """``target``, or the first of ``target-2``, ``target-3``... that does not exist yet: a proof
    never writes over what is there (an earlier run's proofs, or anything else)."""
    candidate, n = target, 1
    while candidate.exists() or candidate.is_symlink():
        n += 1
        candidate = target.with_name(f"{target.name}-{n}")
    return candidate


def plan_check(
    paths: Sequence[str],
    config: Config | None = None,
    *,
    stdin_name: str = "<stdin>",
    discovery: DiscoveryOptions = DEFAULT,
) -> CheckJob:
    """Find the packs and card files under ``paths`` (folders walked as ``discovery`` says);
    ``-`` stands for card text on standard input, checked after the files as one loose card file."""
    config = config if config is not None else Config()
    plans = discover([path for path in paths if path != STDIN], config.ruleset, discovery)
    if STDIN in paths:
        loose = CheckContext(ruleset=config.ruleset)
        plans.append(PackPlan(stdin_name, [StdinSource(Path(stdin_name), stdin_name)], loose))
    return CheckJob(config, plans)


def check_paths(
    paths: Sequence[str],
    config: Config | None = None,
    *,
    stdin: BinaryReader | None = None,
    stdin_name: str = "<stdin>",
) -> Run:
    """Check every pack and card file under ``paths`` and gather the whole report."""
    job = plan_check(paths, config, stdin_name=stdin_name)
    files: list[FileResult] = []
    sources: dict[str, str] = {}
    for result, texts in job.results(stdin):
        files.append(result)
        sources.update(texts)
    return Run("check", tuple(files), sources, rules_table(), __version__)


def rules_table() -> dict[str, CodeInfo]:
    """Metadata of every code ``check`` may report (the SARIF rule table)."""
    table = {code: CATALOGUE[code] for code in (*_READING_CODES, *_SCENARIO_CODES) if code in CATALOGUE}
    table.update(code_catalogue())
    return table


def read_scenario(
    source: CardSource, sources: dict[str, str], stdin: BinaryReader | None = None
) -> tuple[list[Diagnostic], str, ScenarioFileFacts | None]:
    """Read and check one scenario file (R24): its findings, its text and its facts."""
    from sgcheck.contract.scenario_contract import check_scenario_text

    read = _read(source, stdin, SCENARIO_LIMIT)
    if isinstance(read, Diagnostic):
        return [read], "", None
    sources[source.shown] = read.text
    loaded, findings = check_scenario_text(read.text, source.shown)
    facts = ScenarioFileFacts(loaded.scenario.name) if loaded.scenario is not None else None
    return findings, read.text, facts


def read_cards(source: CardSource, sources: dict[str, str], stdin: BinaryReader | None = None) -> tuple[CardFile, str]:
    """Parse one card file in the format its name says; unreadable files become diagnostics."""
    from sgcheck.lang.cards.parser import parse_cards
    from sgcheck.lang.cards.yaml_loader import load_card_yaml, not_a_card_file

    limit = YAML_CARD_LIMIT if is_yaml(source.shown) else CARD_LIMIT
    read = _read(source, stdin, limit)
    if isinstance(read, Diagnostic):
        return CardFile(source.shown, (), (read,)), ""
    sources[source.shown] = read.text
    parse = load_card_yaml if is_yaml(source.shown) else parse_cards
    parsed = parse(read.text, source.shown)
    if not_a_card_file(parsed):
        del sources[source.shown]  # named and placed, never quoted (docs/limits.md)
    return parsed, read.text


@dataclass(slots=True)
class _Gathered:
    """What reading a plan's files produced, before rules, configuration and suppressions."""

    findings: dict[str, list[Diagnostic]] = field(default_factory=dict)
    cards: list[Card] = field(default_factory=list)
    counts: dict[str, int] = field(default_factory=dict)
    per_file: dict[str, FileSuppressions] = field(default_factory=dict)
    facts: dict[str, ScenarioFileFacts | None] = field(default_factory=dict)  # of scenario files
    pack_wide: list[Suppression] = field(default_factory=list)
    every: list[Suppression] = field(default_factory=list)


def _read(source: CardSource, stdin: BinaryReader | None, limit: InputLimit) -> SourceText | Diagnostic:
    """The text of a file or of standard input, read no further than ``limit``; or why it cannot be
    read, placed on the file. FIFOs and devices are refused unread."""
    read: SourceText | Diagnostic
    if isinstance(source, StdinSource):
        read = (
            read_stream(stdin, source.shown, limit=limit)
            if stdin is not None
            else codes.diagnostic("SG-P008", "standard input is not available")
        )
    else:
        read = read_source(source.path, source.shown, limit=limit)
    if isinstance(read, Diagnostic):
        return read.at(read.span or Span.point(source.shown))
    return read


def _gather(plan: PackPlan, sources: dict[str, str], stdin: BinaryReader | None) -> _Gathered:
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
        if is_scenario_file(source.shown):  # a scenario file (R24), checked on its own
            findings, text, gathered.facts[source.shown] = read_scenario(source, sources, stdin)
            suppressions, problems = scan(text, source.shown)
            gathered.every.extend(suppressions)
            gathered.per_file[source.shown] = FileSuppressions(suppressions, [])
            gathered.findings.setdefault(source.shown, []).extend([*findings, *problems])
            continue
        card_file, text = read_cards(source, sources, stdin)
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


def _check_plan(
    plan: PackPlan,
    config: Config,
    sources: dict[str, str],
    stdin: BinaryReader | None = None,
    breaks: list[Found] | None = None,
    jobs: int = 1,
) -> tuple[list[FileResult], list[Card]]:
    gathered = _gather(plan, sources, stdin)
    manifest = plan.manifest.shown if plan.manifest is not None else None
    findings = gathered.findings
    if plan.module is not None and manifest is not None:  # the market's deck names cards of the pack (R26)
        from sgcheck.contract.module_contract import market_findings
        from sgcheck.lang.modules.module_loader import deck_findings

        findings.setdefault(manifest, []).extend(deck_findings(plan.module, gathered.cards))
        findings[manifest].extend(market_findings(plan.module, gathered.cards))
    for diagnostic in _run_rules(gathered.cards, plan, config, breaks, jobs):
        where = diagnostic.span.source if diagnostic.span is not None else (manifest or plan.name)
        findings.setdefault(where, []).append(diagnostic)
    silenced: dict[str, list[Suppressed]] = {}
    for shown, raw in findings.items():
        findings[shown], silenced[shown] = _kept(raw, config, gathered.per_file.get(shown), gathered.pack_wide)
    if config.honour_suppressions:
        for diagnostic in unused(gathered.every, config.disabled):
            configured = config.apply(diagnostic)
            if configured is not None and configured.span is not None:
                findings.setdefault(configured.span.source, []).append(configured)
    results = []
    for shown, kept in findings.items():
        kept.sort(key=lambda d: d.sort_key)
        facts: Facts | None = CardFileFacts(gathered.counts[shown]) if shown in gathered.counts else None
        facts = gathered.facts.get(shown, facts)
        summary: ManifestFacts | None = None
        if shown == manifest:  # the report spells the pack's summary from its facts
            facts = summary = _manifest_facts(plan, len(gathered.cards))
        quiet = tuple(sorted(silenced.get(shown, ()), key=lambda q: q.diagnostic.sort_key))
        results.append(FileResult(shown, tuple(kept), summary=summary, facts=facts, suppressed=quiet))
    return results, gathered.cards


def _manifest_facts(plan: PackPlan, cards: int) -> ManifestFacts:
    """What the manifest says of its pack (``plan.facts``, as far as it was read), its cards and files."""

    def said(key: str) -> str | None:
        value = plan.facts.get(key)
        return None if value is None else str(value)

    return ManifestFacts(
        cards, len(plan.files), said("pack"), said("version"), said("ruleset"), said("scenario"), said("module")
    )


def _kept(
    raw: list[Diagnostic], config: Config, suppressions: FileSuppressions | None, pack_wide: list[Suppression]
) -> tuple[list[Diagnostic], list[Suppressed]]:
    """The findings left after the configuration, and those a suppression comment silenced
    (none when the configuration does not honour them: ``--no-suppressions``)."""
    kept: list[Diagnostic] = []
    silenced: list[Suppressed] = []
    for diagnostic in raw:
        configured = config.apply(diagnostic)
        if configured is None:
            continue
        if config.honour_suppressions:
            by = suppressions.silencing(configured) if suppressions is not None else None
            by = by or silencing_pack_wide(configured, pack_wide)
            if by is not None:
                silenced.append(Suppressed(configured, by.reason, by.span))
                continue
        kept.append(configured)
    return kept, silenced


def _run_rules(
    cards: list[Card], plan: PackPlan, config: Config, breaks: list[Found] | None = None, jobs: int = 1
) -> Iterator[Diagnostic]:
    rules = [rule for rule in all_rules() if config.enabled(rule.meta.code)]
    card_checks = [rule.check_card for rule in rules if rule.check_card is not None]
    pack_checks = [r.check_pack for r in rules if r.check_pack is not None and r.meta.scope is not Scope.PLAY]
    play_checks = [r.check_pack for r in rules if r.check_pack is not None and r.meta.scope is Scope.PLAY]
    context = plan.context
    found: list[Diagnostic] = []
    for card in cards:
        for check in card_checks:
            found.extend(check(card, context))
    facts = PackFacts(tuple(cards), context)
    facts.jobs = jobs
    view = PackView(plan.name, facts)  # one per pack: its analyses are shared
    for pack_check in pack_checks:
        found.extend(pack_check(view, context))
    # no error without a game: each error that judges a break of core §8 gets the game that shows
    # it, or is a warning that says none was found (sgcheck/contract/proven.py)
    needs_play = any(
        is_static_break(d) and not ((on := card_at(cards, d)) is not None and refused_as(on)) for d in found
    )
    exploration = facts.explored if play_checks or needs_play else None
    found = list(proved(found, cards, exploration, name=plan.name, ruleset=context.ruleset, games=facts.reported_play))
    yield from found
    if play_checks:
        # what the explorer finds on cards the analyses above already stop is not said twice
        facts.known_findings = _codes_by_card(cards, found)
        facts.known_error_codes = frozenset(d.code for d in found if d.severity is Severity.ERROR)
        for play_check in play_checks:
            yield from play_check(view, context)
    if breaks is not None:
        breaks.extend(facts.reported_play)


def _codes_by_card(cards: list[Card], found: list[Diagnostic]) -> dict[str, frozenset[str]]:
    """The codes reported so far on each card (by the card the finding points into)."""
    spans: dict[str, list[tuple[int, int, str]]] = {}
    for card in cards:
        spans.setdefault(card.span.source, []).append((card.span.offset, card.span.end_offset, card.name))
    out: dict[str, set[str]] = {}
    for diagnostic in found:
        span = diagnostic.span
        if span is None:
            continue
        for start, end, name in spans.get(span.source, ()):
            if start <= span.offset <= end:
                out.setdefault(name, set()).add(diagnostic.code)
    return {name: frozenset(codes) for name, codes in out.items()}
