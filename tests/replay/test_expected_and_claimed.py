"""A wrong claim's finding carries what the rules give and what the log wrote, as data
(``Diagnostic.expected`` and ``claimed``), so no report reads them back from its message."""

from __future__ import annotations

from pathlib import Path

import pytest

from sgcheck.diagnostics import Scalar
from sgcheck.replay.interpreter import ReplayOptions, replay_text

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE_A = (ROOT / "examples" / "logs" / "guide-example-a.sglog").read_text(encoding="utf-8")
ATTACK = "battle: attack Ra3 Pa5 roll 3 4 cost 12 threshold 60 hit damage 1 capture gain 5sp lp 3 sp 5"


def findings(old: str, new: str) -> list[tuple[str, Scalar, Scalar]]:
    """Guide example A with ``old`` written as ``new``: its findings' codes, expected and claimed."""
    assert old in EXAMPLE_A
    result = replay_text(EXAMPLE_A.replace(old, new), "a.sglog", ReplayOptions(keep_going=True))
    return [(d.code, d.expected, d.claimed) for d in result.diagnostics]


@pytest.mark.parametrize(
    ("old", "new", "found"),
    [
        # core §4.1: 2 × Rook 5 + distance 2
        (ATTACK, ATTACK.replace("cost 12", "cost 10"), ("SG-R201", 12, 10)),
        # core §4.2: 20 + 10 × (5 − 1)
        (ATTACK, ATTACK.replace("threshold 60", "threshold 50"), ("SG-R202", 60, 50)),
        # core §0, R05: the totals after the action
        (ATTACK, ATTACK.replace("lp 3", "lp 4"), ("SG-R203", 3, 4)),
        (ATTACK, ATTACK.replace("sp 5", "sp 6"), ("SG-R203", 5, 6)),
        # core §4.3, R11: one hit deals 1
        (ATTACK, ATTACK.replace("damage 1", "damage 2"), ("SG-R205", 1, 2)),
        # core §4.3: 5 × the Pawn's value
        (ATTACK, ATTACK.replace("gain 5sp", "gain 4sp"), ("SG-R211", 5, 4)),
        # R05: a stated payment adds up to the cost
        (ATTACK, ATTACK.replace("cost 12", "cost 12 pay 2sp 8lp"), ("SG-R115", 12, 10)),
        # core §7: the game is not over
        ("result *", "result 1-0", ("SG-R210", "*", "1-0")),
    ],
    ids=["cost", "threshold", "lp", "sp", "damage", "gain", "payment", "result"],
)
def test_a_wrong_number_carries_both(old: str, new: str, found: tuple[str, Scalar, Scalar]) -> None:
    assert findings(old, new)[0] == found


def test_hit_or_miss_carries_the_words() -> None:
    """core §4.2, R10: d100 74 > 60 misses; the log says hit (and what follows from it)."""
    found = findings(ATTACK, ATTACK.replace("roll 3 4", "roll 7 4"))
    assert found[0] == ("SG-R204", "miss", "hit")
    assert ("SG-R206", "no capture", "capture") in found  # core §4.3: no hit, no capture


def test_a_wrong_income_carries_both() -> None:
    """core §6, R14: no income on a player's first turn."""
    assert findings("1... upkeep: summon", "1... upkeep: income 2\n     summon")[0] == ("SG-R208", 0, 2)


def test_findings_about_no_claim_carry_neither() -> None:
    found = findings("move Ra1 a3", "move Ra1 b2")
    assert found[0][0] == "SG-R103" and found[0][1:] == (None, None)
