"""Held-out designs: written from core §8 and the rulings to try the checker's method, not its cases.

``tests/contract/heldout/`` holds designs in the corpus's format (tests/contract/test_corpus.py:
a verdict, the §8 item and why, read from the rules alone) of the kinds the checker's fixed horizon
and word-reading used to miss: slow accumulators crossing a bound after many turns, copies bounded
or not by a ``limit`` per game, effects firing in the opponent's turn or on the opponent's pools,
exchanges split across a turn boundary, cards a draft that keeps one card holds apart, and
independent cards that do not add up. Each is checked as the corpus is; every error's proof must
replay (tests/contract/test_explore.py). ``KNOWN_MISSES`` says where the checker is still wrong.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.contract.test_corpus import CARD_SUFFIXES, check_design, load_design, matches, miss_kind
from tests.contract.test_explore import assert_replays_to, proofs

HELDOUT_DIR = Path(__file__).resolve().parent / "heldout"
DESIGNS = sorted(p for p in HELDOUT_DIR.iterdir() if p.is_dir() or p.name.endswith(CARD_SUFFIXES))

KNOWN_MISSES: dict[str, str] = {}


@pytest.mark.parametrize("path", DESIGNS, ids=[p.name for p in DESIGNS])
def test_heldout_verdict(path: Path) -> None:
    design = load_design(path)
    outcome = check_design(path)
    if path.name in KNOWN_MISSES:
        assert not matches(design.verdict, outcome), f"{path.name} now passes: remove it from KNOWN_MISSES"
        return
    assert matches(design.verdict, outcome), (
        f"{path.name} [{design.item}] expects {design.verdict}: {design.why}\n"
        f"the checker says {outcome.verdict} ({miss_kind(design.verdict, outcome)})\n{outcome.report}"
    )


BREAKS = [p for p in DESIGNS if load_design(p).verdict == "error" and p.name not in KNOWN_MISSES]


@pytest.mark.parametrize("path", BREAKS, ids=[p.name for p in BREAKS])
def test_heldout_proofs_replay(path: Path, tmp_path: Path) -> None:
    """Every break the checker finds in play in a held-out design comes with a game that replays to it."""
    for kind, log in proofs(path, tmp_path):
        assert_replays_to(kind, log)


def test_heldout_designs_are_varied() -> None:
    verdicts = [load_design(p).verdict for p in DESIGNS]
    assert len(DESIGNS) >= 12 and verdicts.count("clean") >= 6 and verdicts.count("error") >= 6
