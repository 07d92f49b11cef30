"""The design corpus: card designs written to get past ``sgcheck check`` (``tests/contract/designs/``).

Each ``NN-short-name.sgcard`` file is one design: a single card, or a combination of 2-3 cards a
player can hold together. A loose card file is checked as a pack of its own (docs/cards.md,
"Packs"), so a file of several cards goes through the pack analyses (SG-C1xx) as a pack
would, without a manifest. The file starts with a header that says what the checker must find,
read from core §8 and the rulings rather than from what the checker says today::

    # expect: SG-C011 SG-C060     the ERROR codes, exactly (``clean``: no error at all)
    # warnings: SG-C120           warning codes that must be reported too (optional)
    # class: cap                  which family of loophole the design tries (see CLASSES)
    # why: on-hit damage ...      the one-line reading of core §8 behind the expectation

The test runs the checker through its library entry point, :func:`sgcheck.contract.check_paths`,
with the default configuration, and compares the set of error codes with ``expect``. A finding
that an in-source suppression silenced still counts: the checker still reports it (as
suppressed), and the corpus is about what a design does, not what a comment hides. Warnings are
a lower bound for the loophole classes (a design may draw more complaints than the one it is
about) and exact for the honest designs and the guide's cards, which must not pick up new ones.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

import pytest

from sgcheck.config import Config
from sgcheck.contract import check_paths
from sgcheck.diagnostics import Diagnostic
from sgcheck.results import CardFileFacts, ManifestFacts, Run

ROOT = Path(__file__).resolve().parents[2]
DESIGNS_DIR = Path(__file__).resolve().parent / "designs"
GUIDE_CARDS = ROOT / "examples" / "cards" / "guide-relics.sgcard"

LOOPHOLE_CLASSES = {
    "cap": "a §4.5 cap reached by another road: on-hit damage (R23), bonuses split over effects or cards",
    "conversion": "an SP->LP conversion in disguise: SP lost and own LP gained in one window (R16)",
    "turn": "the turn structure by the back door: actions for phases already over, income renamed",
    "must-not": "repair denied on consecutive turns, a discount larger than the cost",
    "king-loop": "direct King effects, loops, unbounded SP/LP, stacked permanent bonuses, silenced findings",
}
CLASSES = frozenset({*LOOPHOLE_CLASSES, "guide", "honest"})
EXACT_WARNINGS = frozenset({"guide", "honest"})
MIN_LOOPHOLE_DESIGNS = 40
MIN_PER_CLASS = 4
MIN_HONEST = 8

FILE_NAME = re.compile(r"[0-9]{2}-[a-z0-9]+(?:-[a-z0-9]+)*\.sgcard")
HEADER_LINE = re.compile(r"# (?P<key>expect|warnings|class|why): (?P<value>\S.*)")
CODE = re.compile(r"SG-[A-Z][0-9]{3}")
CARD_START = re.compile(r"(?:relic|spell)\b")


#: No error without a game (core §8): the break these designs' headers expect is read from the cards'
#: words, and no game the checker plays shows it, so the rule reports it as a warning that says so
#: ("no game found"). Where the same cards break §8 another way, with a game, that error is
#: reported instead (an exchange read from the cards, R05, proven by its game, or one the play
#: found). design -> (codes reported as warnings, errors with a game instead).
_NONE: frozenset[str] = frozenset()
NO_GAME: dict[str, tuple[frozenset[str], frozenset[str]]] = {
    "12-second-chances.sgcard": (frozenset({"SG-C012"}), _NONE),
    "13-wildfire.sgcard": (frozenset({"SG-C011"}), _NONE),
    "18-soul-rebate.sgcard": (frozenset({"SG-C022"}), _NONE),
    "25-late-orders.sgcard": (frozenset({"SG-C050"}), _NONE),
    "26-afterstrike.sgcard": (frozenset({"SG-C050"}), _NONE),
    "27-backstep.sgcard": (frozenset({"SG-C050"}), _NONE),
    "28-second-dawn.sgcard": (frozenset({"SG-C050"}), _NONE),
    "29-late-muster.sgcard": (frozenset({"SG-C050"}), _NONE),
    "33-gem-tithe.sgcard": (frozenset({"SG-C004"}), _NONE),
    "34-rich-vein.sgcard": (frozenset({"SG-C004"}), _NONE),
    "35-cracked-vein.sgcard": (frozenset({"SG-C004"}), _NONE),
    "36-twin-hexes.sgcard": (frozenset({"SG-C130"}), _NONE),
    "41-vengeful-seal.sgcard": (frozenset({"SG-C040"}), _NONE),
    "52-echo-vault.sgcard": (frozenset({"SG-C030"}), _NONE),
    "53-bleeding-mirror.sgcard": (frozenset({"SG-C030"}), _NONE),
    "54-mutual-tithe.sgcard": (frozenset({"SG-C101"}), _NONE),
    "55-see-saw.sgcard": (frozenset({"SG-C101"}), _NONE),
    "59-endless-muster.sgcard": (frozenset({"SG-C032"}), _NONE),
    "63-bloodlust.sgcard": (frozenset({"SG-C011"}), _NONE),
    "66-silenced-echo.sgcard": (frozenset({"SG-C030"}), _NONE),
    "83-toll-road.sgcard": (_NONE, frozenset({"SG-C022"})),
    "85-bounty-hunter.sgcard": (frozenset({"SG-C033"}), frozenset({"SG-C022"})),
    "87-giants-wrath.sgcard": (frozenset({"SG-C011"}), _NONE),
    "93-sealed-twice.sgcard": (frozenset({"SG-C130"}), _NONE),
}


@dataclass(frozen=True)
class Design:
    """One design file and what its header says the checker must report."""

    path: Path
    errors: frozenset[str]
    warnings: frozenset[str]
    kind: str
    why: str
    header_lines: int
    cards: int

    @property
    def exact_warnings(self) -> bool:
        return self.kind in EXACT_WARNINGS


def design_files() -> list[Path]:
    return sorted(DESIGNS_DIR.glob("*.sgcard"))


def _codes(value: str, where: str) -> frozenset[str]:
    codes = value.split()
    bad = [code for code in codes if not CODE.fullmatch(code)]
    if not codes or bad:
        raise ValueError(f"{where}: not a list of codes: {value!r}")
    return frozenset(codes)


def load_design(path: Path) -> Design:
    """Read a design's header (its leading ``# key: value`` lines); ValueError if it is malformed."""
    lines = path.read_text(encoding="utf-8").splitlines()
    fields: dict[str, str] = {}
    count = 0
    for line in lines:
        match = HEADER_LINE.fullmatch(line)
        if match is None:
            break
        if match["key"] in fields:
            raise ValueError(f"{path.name}: '# {match['key']}:' given twice")
        fields[match["key"]] = match["value"].strip()
        count += 1
    missing = {"expect", "class", "why"} - set(fields)
    if missing:
        raise ValueError(f"{path.name}: the header lacks {', '.join(sorted(missing))}")
    kind = fields["class"]
    if kind not in CLASSES:
        raise ValueError(f"{path.name}: unknown class {kind!r} (one of {', '.join(sorted(CLASSES))})")
    expect = fields["expect"]
    errors = frozenset() if expect == "clean" else _codes(expect, f"{path.name}: expect")
    warnings = _codes(fields["warnings"], f"{path.name}: warnings") if "warnings" in fields else frozenset()
    cards = sum(1 for line in lines if CARD_START.match(line))
    return Design(path, errors, warnings, kind, fields["why"], count, cards)


def _every_finding(run: Run) -> list[Diagnostic]:
    """What the run reports, suppressed findings included."""
    return [*run.diagnostics, *(s.diagnostic for s in run.suppressed)]


def _loaded_cards(run: Run) -> int:
    total = 0
    for result in run.files:
        total += result.facts.cards if isinstance(result.facts, CardFileFacts | ManifestFacts) else 0
    return total


def _show(codes: Iterable[str]) -> str:
    return " ".join(sorted(codes)) or "none"


@pytest.mark.parametrize("path", design_files(), ids=[p.name for p in design_files()])
def test_design(path: Path) -> None:
    design = load_design(path)
    run = check_paths([str(path)], Config())
    findings = _every_finding(run)
    reading = sorted(d.code for d in findings if d.code.startswith("SG-P"))
    assert not reading, f"{path.name} does not read cleanly: {reading}"
    assert _loaded_cards(run) == design.cards, f"{path.name}: not every card of the file was checked"
    errors = {d.code for d in findings if d.is_error}
    warnings = {d.code for d in findings if not d.is_error}
    report = "\n".join(f"  {d.code} {d.severity.value}: {d.message}" for d in findings) or "  (nothing)"
    unproven, instead = NO_GAME.get(path.name, (_NONE, _NONE))
    said = {d.code for d in findings if not d.is_error and "no game found" in d.message}
    assert unproven <= said, f"{path.name}: {_show(unproven)} must be the warning that no game shows it\n{report}"
    expected = (design.errors - unproven) | instead
    assert errors == expected, (
        f"{path.name} ({design.why})\nerrors expected: {_show(expected)}; reported: {_show(errors)}\n{report}"
    )
    if design.exact_warnings:
        assert warnings == design.warnings, (
            f"{path.name}: warnings expected: {_show(design.warnings)}; reported: {_show(warnings)}\n{report}"
        )
    else:
        assert design.warnings <= warnings, (
            f"{path.name}: warnings expected at least: {_show(design.warnings)}; reported: {_show(warnings)}\n{report}"
        )


def test_corpus_is_large_and_covers_every_class() -> None:
    designs = [load_design(path) for path in design_files()]
    loopholes = [d for d in designs if d.kind in LOOPHOLE_CLASSES]
    assert len(loopholes) >= MIN_LOOPHOLE_DESIGNS, f"only {len(loopholes)} loophole designs"
    for kind, what in LOOPHOLE_CLASSES.items():
        count = sum(1 for d in designs if d.kind == kind)
        assert count >= MIN_PER_CLASS, f"class {kind} ({what}) has {count} designs, fewer than {MIN_PER_CLASS}"
    honest = [d for d in designs if d.kind == "honest"]
    assert len(honest) >= MIN_HONEST, f"only {len(honest)} honest designs"
    assert all(not d.errors for d in honest), "an honest design must expect no error"
    assert all(d.errors or d.warnings for d in loopholes), "a loophole design must expect a finding"


def test_design_files_are_named_and_numbered() -> None:
    names = [p.name for p in DESIGNS_DIR.iterdir()]
    assert all(FILE_NAME.fullmatch(name) for name in names), [n for n in names if not FILE_NAME.fullmatch(n)]
    numbers = [name[:2] for name in names]
    assert len(numbers) == len(set(numbers)), "two designs share a number"


def test_guide_cards_are_a_copy_of_the_example() -> None:
    guides = [d for d in (load_design(p) for p in design_files()) if d.kind == "guide"]
    assert len(guides) == 1
    guide = guides[0]
    body = guide.path.read_text(encoding="utf-8").split("\n", guide.header_lines)[-1]
    assert body.removeprefix("\n") == GUIDE_CARDS.read_text(encoding="utf-8"), "the guide's cards drifted"
    assert guide.cards == 6
