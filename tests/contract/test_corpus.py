"""A corpus of card designs that measures how the contract checker reasons, not what it pattern-matches.

Each design in ``tests/contract/corpus/`` is a loose card file (``NNN-name.sgcard`` or
``NNN-name.sgcard.yaml``, checked as a pack of its own) or a pack folder (``NNN-name/`` with an
``sgpack.yaml``). It opens with three comment lines (in the manifest for a folder)::

    # verdict: error        error | warning | clean
    # item: conversion      the core §8 reading the design is about (see ITEMS)
    # why: ...              one sentence: the reading behind the verdict and the game situation

The verdicts come from reading core §8 and the rulings, not from what the checker says today. About
half of the designs are legal ones that a checker matching words instead of working out what the
cards do would refuse; the others break §8 by roads it does not name.

The test runs :func:`sgcheck.contract.check_paths` on each design with the default configuration and
reduces the findings to a verdict: ``error`` if any finding is an error, else ``warning`` if any is a
warning, else ``clean`` (reading errors, ``SG-P``, must not appear at all). A ``clean`` design must
get no error, an ``error`` design at least one, a ``warning`` design no error and at least one
warning. Specific codes are never checked.

``KNOWN_MISSES`` lists the designs the checker gets wrong today; for those the test asserts that the
mismatch still happens, so an entry must be removed once the checker improves. The current figures
per item come from ``python -m tests.contract.test_corpus``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import pytest

from sgcheck.config import Config
from sgcheck.contract import check_paths
from sgcheck.diagnostics import Severity

# what a run reports (suppressed findings included: the corpus is about what designs do) and how many
# cards it loaded, read as the older design corpus reads them
from tests.contract.test_designs import _every_finding, _loaded_cards

CORPUS_DIR = Path(__file__).resolve().parent / "corpus"
MANIFEST = "sgpack.yaml"
CARD_SUFFIXES = (".sgcard", ".sgcard.yaml")

VERDICTS = ("error", "warning", "clean")
ITEMS: dict[str, str] = {
    "values": "piece values, move/attack costs, accuracy formulas rewritten",
    "caps": "+25 to-hit, +2 damage per hit, one reroll/advantage source per roll (core §4.5)",
    "conversion": "SP->LP at 2:1 and at most 20 SP a turn, by any route (R16)",
    "thresholds": "Break 12+ / Repair 10+ on 3d6, free repeated attempts included",
    "unbounded": "infinite loops, unbounded SP/LP, self-feeding amounts, trigger cycles",
    "cost-floor": "an action whose total cost is driven below zero",
    "repair": "repair denied on consecutive turns by one player's effects",
    "turn": "turn structure: phases added, skipped, swapped, made unreachable; extra activations (R17)",
    "king": "the King damaged, captured or converted other than by attacks within the caps; immunity",
    "draft": "hand limit and draft rules (R19)",
}
HEADER_KEYS = ("verdict", "item", "why")

MIN_DESIGNS = 160
MIN_CLEAN = 80
MIN_PER_ITEM = 4
MIN_PER_ITEM_EXCEPTIONS: dict[str, int] = {"draft": 2}

DESIGN_NAME = re.compile(r"(?P<number>[0-9]{3})-[a-z0-9]+(?:-[a-z0-9]+)*(?:\.sgcard|\.sgcard\.yaml)?")
HEADER_LINE = re.compile(r"# (?P<key>[a-z]+):(?P<value>.*)")

# Designs whose verdict the checker does not reach today: design name -> why it misses.
KNOWN_MISSES: dict[str, str] = {
    # No error without a game (core §8): the card and pack rules read these breaks from the cards'
    # words, and no game the checker plays shows them (the witness search included), so each is a
    # warning that says so.
    "141-double-step-rebate.sgcard": "a Pawn's two-square move from its second rank: no game played on reaches it",
    "228-knightfall-discount.sgcard": "a second Knight captured: the probe positions hold one Knight a side",
    "031-rook-breaker.sgcard": "the game shows the damage cap passed only by several cards together (R20)",
    "064-grand-exchange.sgcard": "a card's conversion moves no SP in play: no game converts 24 SP in a turn",
    "066-double-tithe-wheel.sgcard": "a card's conversion moves no SP in play: no game converts 24 SP in a turn",
    "112-fletcher-and-bookie.sgcard": "an action that pays its taker across turns: no game repeats it in one turn",
    "115-echo-pair-unbounded.sgcard": "a trigger cycle no game played fires",
    "157-hex-and-grudge": "two one-turn denials on consecutive Upkeeps: no game played lines them up",
    "184-conscript-the-fallen.sgcard": "an extra action outside its window: the core never grants it, no game shows it",
    "185-blink-and-run.sgcard": "an extra action outside its window: the core never grants it, no game shows it",
    "186-field-muster.sgcard": "an extra action outside its window: the core never grants it, no game shows it",
    "189-dusk-volley.sgcard": "an extra action outside its window: the core never grants it, no game shows it",
}


class HeaderError(ValueError):
    """A design whose header cannot be read."""


@dataclass(frozen=True)
class Design:
    """One design of the corpus and the verdict its header states."""

    path: Path
    verdict: str
    item: str
    why: str

    @property
    def name(self) -> str:
        return self.path.name

    @property
    def is_pack(self) -> bool:
        return self.path.is_dir()


@dataclass(frozen=True)
class Outcome:
    """What the checker reports on one design, reduced to codes."""

    errors: tuple[str, ...]
    warnings: tuple[str, ...]
    reading: tuple[str, ...]
    cards: int
    report: str

    @property
    def verdict(self) -> str:
        if self.errors:
            return "error"
        if self.warnings:
            return "warning"
        return "clean"


def parse_header(text: str, where: str) -> tuple[str, str, str]:
    """The (verdict, item, why) of a design's leading ``# key: value`` lines; HeaderError if malformed."""
    fields: dict[str, str] = {}
    for line in text.splitlines():
        match = HEADER_LINE.fullmatch(line.rstrip())
        if match is None or match["key"] not in HEADER_KEYS:
            break
        key, value = match["key"], match["value"].strip()
        if key in fields:
            raise HeaderError(f"{where}: '# {key}:' is given twice")
        if not value:
            raise HeaderError(f"{where}: '# {key}:' has no value")
        fields[key] = value
    missing = [key for key in HEADER_KEYS if key not in fields]
    if missing:
        raise HeaderError(
            f"{where}: the header lacks {', '.join(f'# {key}:' for key in missing)} "
            f"(a design starts with the lines '# verdict: ...', '# item: ...', '# why: ...')"
        )
    verdict, item, why = fields["verdict"], fields["item"], fields["why"]
    if verdict not in VERDICTS:
        raise HeaderError(f"{where}: unknown verdict {verdict!r} (one of {', '.join(VERDICTS)})")
    if item not in ITEMS:
        raise HeaderError(f"{where}: unknown item {item!r} (one of {', '.join(ITEMS)})")
    if not why.endswith("."):
        raise HeaderError(f"{where}: the why should be one full sentence ending with '.': {why!r}")
    return verdict, item, why


def header_file(path: Path) -> Path:
    """The file holding a design's header: the manifest of a folder, else the card file itself."""
    return path / MANIFEST if path.is_dir() else path


def load_design(path: Path) -> Design:
    """Read a design's header; HeaderError if it is malformed or the folder has no manifest."""
    source = header_file(path)
    if not source.is_file():
        raise HeaderError(f"{path.name}: a pack design needs its {MANIFEST}")
    verdict, item, why = parse_header(source.read_text(encoding="utf-8"), path.name)
    return Design(path, verdict, item, why)


def design_paths() -> list[Path]:
    """Every design of the corpus, in number order: folders and card files."""
    if not CORPUS_DIR.is_dir():
        return []
    return sorted(p for p in CORPUS_DIR.iterdir() if p.is_dir() or p.name.endswith(CARD_SUFFIXES))


@cache
def check_design(path: Path) -> Outcome:
    """Run the checker on one design with the default configuration."""
    run = check_paths([str(path)], Config())
    findings = _every_finding(run)
    reading = sorted({d.code for d in findings if d.code.startswith("SG-P")})
    errors = sorted({d.code for d in findings if d.is_error and not d.code.startswith("SG-P")})
    warnings = sorted({d.code for d in findings if d.severity is Severity.WARNING and not d.code.startswith("SG-P")})
    report = "\n".join(f"  {d.code} {d.severity.value}: {d.message}" for d in findings) or "  (nothing reported)"
    return Outcome(tuple(errors), tuple(warnings), tuple(reading), _loaded_cards(run), report)


def matches(verdict: str, outcome: Outcome) -> bool:
    """Whether the checker's findings agree with a design's verdict."""
    if verdict == "clean":
        return not outcome.errors
    if verdict == "error":
        return bool(outcome.errors)
    return not outcome.errors and bool(outcome.warnings)


def miss_kind(verdict: str, outcome: Outcome) -> str | None:
    """None when the checker agrees; else 'false refusal' (an error on a design that expects none)
    or 'missed break' (less than the design's verdict asks for)."""
    if matches(verdict, outcome):
        return None
    return "false refusal" if outcome.errors else "missed break"


@dataclass(frozen=True)
class ItemFigures:
    """How the checker does on the designs of one item."""

    item: str
    designs: int
    matched: int
    missed_breaks: int
    false_refusals: int


def corpus_figures(paths: Sequence[Path] | None = None) -> list[ItemFigures]:
    """Per item: designs, verdicts matched, breaks missed, legal designs refused."""
    counts: dict[str, list[int]] = {item: [0, 0, 0, 0] for item in ITEMS}
    for path in design_paths() if paths is None else paths:
        design = load_design(path)
        row = counts[design.item]
        row[0] += 1
        kind = miss_kind(design.verdict, check_design(path))
        row[1 if kind is None else 2 if kind == "missed break" else 3] += 1
    return [ItemFigures(item, *row) for item, row in counts.items()]


def corpus_report(paths: Sequence[Path] | None = None) -> str:
    """The figures of :func:`corpus_figures` as a table, printed and returned."""
    figures = corpus_figures(paths)
    lines = [f"{'item':<12}{'designs':>8}{'matched':>9}{'missed breaks':>15}{'false refusals':>16}"]
    for row in figures:
        lines.append(f"{row.item:<12}{row.designs:>8}{row.matched:>9}{row.missed_breaks:>15}{row.false_refusals:>16}")
    total = ItemFigures(
        "total",
        sum(r.designs for r in figures),
        sum(r.matched for r in figures),
        sum(r.missed_breaks for r in figures),
        sum(r.false_refusals for r in figures),
    )
    lines.append(
        f"{total.item:<12}{total.designs:>8}{total.matched:>9}{total.missed_breaks:>15}{total.false_refusals:>16}"
    )
    text = "\n".join(lines)
    print(text)
    return text


def main() -> None:
    """``python -m tests.contract.test_corpus``: print the current figures and the mismatches."""
    corpus_report()
    print()
    for path in design_paths():
        design = load_design(path)
        kind = miss_kind(design.verdict, check_design(path))
        if kind is not None:
            outcome = check_design(path)
            known = "known" if design.name in KNOWN_MISSES else "NEW"
            print(f"{known:5} {kind:14} {design.name} ({design.item}, {design.verdict}, checker: {outcome.verdict})")


DESIGN_PATHS = design_paths()


@pytest.mark.parametrize("path", DESIGN_PATHS, ids=[p.name for p in DESIGN_PATHS])
def test_design_verdict(path: Path) -> None:
    design = load_design(path)
    outcome = check_design(path)
    assert not outcome.reading, f"{design.name} does not read cleanly: {' '.join(outcome.reading)}\n{outcome.report}"
    assert outcome.cards > 0, f"{design.name}: no card of the design was loaded\n{outcome.report}"
    expected = f"{design.name} [{design.item}] expects {design.verdict}: {design.why}"
    if design.name in KNOWN_MISSES:
        assert not matches(design.verdict, outcome), (
            f"{expected}\nthe checker now agrees ({outcome.verdict}); remove it from KNOWN_MISSES "
            f"({KNOWN_MISSES[design.name]})\n{outcome.report}"
        )
    else:
        assert matches(design.verdict, outcome), (
            f"{expected}\nthe checker says {outcome.verdict} ({miss_kind(design.verdict, outcome)})\n{outcome.report}"
        )


def test_corpus_size_and_balance() -> None:
    designs = [load_design(path) for path in DESIGN_PATHS]
    assert len(designs) >= MIN_DESIGNS, f"only {len(designs)} designs, fewer than {MIN_DESIGNS}"
    clean = sum(1 for d in designs if d.verdict == "clean")
    assert clean >= MIN_CLEAN, f"only {clean} clean designs, fewer than {MIN_CLEAN}"
    for item, what in ITEMS.items():
        count = sum(1 for d in designs if d.item == item)
        least = MIN_PER_ITEM_EXCEPTIONS.get(item, MIN_PER_ITEM)
        assert count >= least, f"item {item} ({what}) has {count} designs, fewer than {least}"
    assert any(d.is_pack for d in designs), "no pack folder design is checked"
    assert any(not d.is_pack for d in designs), "no loose card file design is checked"


def test_corpus_entries_are_named_and_numbered() -> None:
    names = sorted(p.name for p in CORPUS_DIR.iterdir())
    stray = [name for name in names if not DESIGN_NAME.fullmatch(name)]
    assert not stray, f"not named NNN-short-kebab-name[.sgcard|.sgcard.yaml]: {stray}"
    folders = [p for p in CORPUS_DIR.iterdir() if p.is_dir()]
    plain_files = [p for p in CORPUS_DIR.iterdir() if p.is_file() and not p.name.endswith(CARD_SUFFIXES)]
    assert not plain_files, f"files that are neither card files nor pack folders: {plain_files}"
    assert all((p / MANIFEST).is_file() for p in folders), "every folder design needs an sgpack.yaml"
    numbers = [name[:3] for name in names]
    repeated = sorted({n for n in numbers if numbers.count(n) > 1})
    assert not repeated, f"designs share a number: {repeated}"


def test_known_misses_name_designs() -> None:
    names = {p.name for p in DESIGN_PATHS}
    unknown = sorted(set(KNOWN_MISSES) - names)
    assert not unknown, f"KNOWN_MISSES names designs that do not exist: {unknown}"
    assert all(reason.strip() for reason in KNOWN_MISSES.values()), "every known miss needs a reason"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("# item: caps\n# why: x.\n", "lacks # verdict:"),
        ("# verdict: error\n# item: caps\n", "lacks # why:"),
        ("# verdict: maybe\n# item: caps\n# why: x.\n", "unknown verdict 'maybe'"),
        ("# verdict: clean\n# item: luck\n# why: x.\n", "unknown item 'luck'"),
        ("# verdict: clean\n# verdict: error\n# item: caps\n# why: x.\n", "given twice"),
        ("# verdict: clean\n# item: caps\n# why:\n", "has no value"),
        ('relic "X" { cost 1 SP effect to_hit +5 }\n', "lacks # verdict:, # item:, # why:"),
    ],
)
def test_malformed_headers_are_refused(text: str, message: str) -> None:
    with pytest.raises(HeaderError, match=re.escape(message)):
        parse_header(text, "design")


def test_a_well_formed_header_reads() -> None:
    text = '# verdict: warning\n# item: draft\n# why: a judgment call.\nrelic "X" { cost 1 SP }\n'
    assert parse_header(text, "design") == ("warning", "draft", "a judgment call.")


def test_report_accounts_for_every_design() -> None:
    figures = corpus_figures()
    assert sum(r.designs for r in figures) == len(DESIGN_PATHS)
    for row in figures:
        assert row.matched + row.missed_breaks + row.false_refusals == row.designs, row
    misses = sum(r.missed_breaks + r.false_refusals for r in figures)
    assert misses == len(KNOWN_MISSES), "every mismatch is a known miss, and every known miss a mismatch"


if __name__ == "__main__":
    main()
