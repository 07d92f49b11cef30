"""A one-off's condition in a replayed game (docs/cards.md, In play; the issue's hole): the log's
claim is checked against what the card did, which is nothing when its condition does not hold."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.replay.test_watch_in_replay import Case, located, replay, write_game

CARD = 'spell "Last Stand" { cost free phase main1 effect gain 40 SP when enemy LP < 20 }'


@pytest.mark.parametrize(("claim", "ok"), [("gain 0sp", True), ("gain 40sp", False)])
def test_r23_a_one_off_whose_condition_fails_gains_nothing_in_replay(tmp_path: Path, claim: str, ok: bool) -> None:
    """Black has 20 LP: ``gain 40 SP when enemy LP < 20`` gains nothing, and a log that claims the
    40 is a wrong claim at the play (it was played as the 40 before)."""
    log = f'draft white "Last Stand"\n\n1.   main1: play "Last Stand" {claim}\n'
    result = replay(write_game(tmp_path, Case("", CARD, log, 0, 0, "")))
    errors = [d for d in result.diagnostics if d.is_error]
    if ok:
        assert errors == [] and result.state is not None and result.state.players[0].sp == 20
    else:
        assert [located(d) for d in errors] == [("SG-R211", 7, 31)], errors  # the claim, after the header
        assert (errors[0].expected, errors[0].claimed) == (0, 40)
        assert "this card play gains 0 SP, not 40" in errors[0].message
