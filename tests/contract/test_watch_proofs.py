"""The proofs of SG-C152, SG-C156 and SG-C158 replay to the run-time watch's own breach (core §8).

Each design is written from the rules (not from the checker): copies of one card past the +2 damage
cap (core §4.5, R20), a ward that halves every hit and takes 1 more off a hit on the King, which
leaves a boosted hit at 0 (core §4.4, R19, R26), a Summon priced past the 1,000 LP that win the
game (core §2, §7). ``sgcheck check --explain-break`` writes a game for the finding; ``sgcheck
replay --allow-violations`` must report, at a line of that game's last turn, SG-R137, SG-R138 or
SG-R139: the break itself, not only a clamp or a note.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.contract.test_explore import proofs, replayed

DESIGNS = {
    "spite.sgcard": (
        'relic "Rising Spite" passive {\n    cost 3 SP\n    effect on attacked: damage +1 permanently\n}\n',
        "cap",
        "SG-R137",
    ),
    "bastion.sgcard": (
        'relic "Bastion" passive {\n    cost 6 SP\n    effect halve damage on enemy attacks\n'
        "    effect reduce damage by 1 on own King\n}\n",
        "king-immune",
        "SG-R138",
    ),
    "barracks.sgcard": (
        'relic "Closed Barracks" passive {\n    cost 5 SP\n    effect opponent cost summon +5000\n}\n',
        "priced-out",
        "SG-R139",
    ),
}


@pytest.mark.parametrize("name", sorted(DESIGNS))
def test_core_s8_the_proof_replays_to_the_watchs_breach(name: str, tmp_path: Path) -> None:
    text, kind, code = DESIGNS[name]
    design = tmp_path / name
    design.write_text(text, encoding="utf-8")
    written = proofs(design, tmp_path / "proofs")
    logs = [log for found, log in written if found == kind]
    assert logs, f"no {kind} proof among {[found for found, _ in written]}"
    for log in logs:
        found = replayed(log)
        lines = log.read_text(encoding="utf-8").splitlines()
        last_turn = max(i for i, line in enumerate(lines, 1) if re.match(r"\d+\.", line))
        at = [d.span.line for d in found if d.code == code and d.span is not None]
        assert at and max(at) >= last_turn, (code, [(d.code, d.message) for d in found])
