"""The contract checker against an adversary it does not share (tests/contract/adversary.py).

The adversary writes random packs, plays 40 turns a side with both players pushing each quantity
core §8 bounds, and reports what the core's run-time watch sees (the codes replay reports). A pack
that ``sgcheck check`` passes and a game breaks is a miss of the checker: a failing test. The
suite runs a fixed budget of packs; ``python -m tests.contract.adversary --packs 100000`` runs a
campaign (docs/contract-rules.md, "An oracle it does not share").
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from sgcheck.lang.cards.parser import parse_cards
from tests.contract import adversary

#: Packs each run of the suite plays (fixed seeds: the same packs every run).
BUDGET = 12
SEED = 20261207


@pytest.mark.parametrize("index", range(BUDGET))
def test_no_pack_that_check_passes_breaks_in_play(index: int, tmp_path: Path) -> None:
    """core §8: a game of 40 turns a side with a pack check passes never breaks the contract."""
    text, breaks, errors = adversary.one(SEED * 1_000_003 + index, str(tmp_path))
    assert errors != ["unreadable"], text
    if breaks and not errors:
        first = breaks[0]
        pytest.fail(
            f"check passes this pack, and a game breaks it ({first.kind} by {first.cards} at ply {first.ply}, "
            f"{first.action}):\n{text}"
        )


def test_the_adversary_finds_a_known_break() -> None:
    """The oracle is not blind: a card that turns 1 SP into 1 LP on every King step, and a +30
    to-hit, are broken in its games (core §8, R16, R20)."""
    cards = parse_cards(
        'relic "Stride" passive {\n    cost 0 SP\n    effect on move: gain 1 LP\n}\n'
        'relic "Eagle" passive {\n    cost 0 SP\n    effect to_hit +30\n}\n',
        "cards.sgcard",
    ).cards
    kinds = {found.kind for found in adversary.play(cards, seed=3, turns=6)}
    assert "exchange" in kinds and "cap-to-hit" in kinds


def test_the_adversary_plays_long_games() -> None:
    """40 turns a side at least (the issue's bar), and packs from every kind of effect it writes."""
    assert adversary.TURNS >= 40
    import random

    texts = [adversary.random_pack(random.Random(seed)) for seed in range(200)]
    for word in ("permanently", "on captured", "opponent cost", "deny repair", "steal", "limit"):
        assert any(word in text for text in texts), word
    for text in texts[:50]:
        assert parse_cards(text, "cards.sgcard").cards


def test_the_campaign_command_runs(capsys: pytest.CaptureFixture[str]) -> None:
    """The documented campaign command (docs/contract-rules.md), on a small budget."""
    status = adversary.main(["--packs", "3", "--seed", "5", "--turns", "4"])
    out = capsys.readouterr().out
    assert re.match(r"packs [0-3], refused by check \d+, broken in play \d+, caught \d+, missed \d+", out), out
    assert status == (1 if "--- missed:" in out else 0)


def test_a_campaign_in_several_processes_tallies_as_in_one(tmp_path: Path) -> None:
    """``--jobs``: each pack is a task of its own; the tally (packs, refusals, breaks, misses) is the
    same for any number of processes."""
    one = adversary.campaign(3, 5, str(tmp_path), turns=4, jobs=1)
    two = adversary.campaign(3, 5, str(tmp_path), turns=4, jobs=2)
    assert (one.packs, one.refused, one.broken, one.caught, one.misses) == (
        two.packs,
        two.refused,
        two.broken,
        two.caught,
        two.misses,
    )
    assert two.check_seconds > 0 and two.play_seconds > 0


def test_a_miss_says_whether_check_reasoned_it_out(tmp_path: Path) -> None:
    """A miss is split by what check said: a warning that a break is possible and no game shows it
    (reasoned, the witness search fell short) or nothing at all (the reasoning does not see it).
    core §8: an extra attack in Battle granted at the start of End can only be taken by going
    back, a change of the turn's order the rule reads and no game shows (the core never grants it)."""
    errors, warnings = adversary.checked(
        'relic "A" passive {\n    cost 4 SP\n    effect at end: extra attack in battle\n}\n', str(tmp_path)
    )
    assert errors == [] and warnings == ["SG-C050"]
    errors, warnings = adversary.checked(
        'relic "B" passive {\n    cost 1 SP\n    effect at upkeep: gain 1 SP\n}\n', str(tmp_path)
    )
    assert errors == [] and warnings == []


def test_the_campaign_tallies_its_misses_by_kind(tmp_path: Path) -> None:
    """Every miss is counted once under the kind of its first break, as warned or silent."""
    tally = adversary.campaign(6, 5, str(tmp_path), turns=4)
    assert sum(w + s for w, s in tally.kinds.values()) == len(tally.misses)
    assert all(m.endswith("; check silent") or "; check warned: " in m for m in tally.misses)
