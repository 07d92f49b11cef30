"""Ruling CR1 (docs/contract-rules.md, "Readings"): SP taken and LP given in different windows,
checked against a model written from the ruling's text, for any sequence of windows (Hypothesis).

The model keeps each loss as the ruling describes it: how many SP, until when it waits (one round
of the player, the same phase of the player's next turn), and whether it was a price. A gift for
nothing takes the oldest SP still waiting, at most 2 for each LP; losses count toward the 20 SP a
turn, prices only for the rate (core §2, §8; R16).
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from sgcheck.core import caps
from sgcheck.core.cards.exchange import PAIRING_PLIES, pairing_key
from sgcheck.core.pieces import Color, Phase
from sgcheck.core.watch import START, _account
from tests.core.helpers import position

W = Color.WHITE
STATE = position("Ke1 ke8")

window = st.tuples(
    st.integers(0, 3),  # plies since the last window
    st.sampled_from(list(Phase)),
    st.sampled_from(["loss", "price", "gift"]),
    st.integers(1, 12),
)


@settings(max_examples=300, deadline=None)
@given(st.lists(window, max_size=25))
def test_cr1_the_watch_pairs_as_the_ruling_says(windows: list[tuple[int, Phase, str, int]]) -> None:
    watch = START
    waiting: list[list[int]] = []  # [sp, until, priced]
    counted = 0
    ply, last = 0, -1
    for step, phase, kind, amount in windows:
        ply += step
        at = max(pairing_key(ply, phase), last)  # windows come in the order of the game
        last = at
        waiting = [w for w in waiting if w[1] > at]
        if kind == "gift":
            room, loss, price = caps.CONVERSION_SP_PER_LP * amount, 0, 0
            for entry in waiting:
                take = min(entry[0], room)
                room -= take
                entry[0] -= take
                if entry[2]:
                    price += take
                else:
                    loss += take
            waiting = [w for w in waiting if w[0] > 0]
            counted += loss  # at most 2 a LP by construction
            below_rate = 0 < loss + price < caps.CONVERSION_SP_PER_LP * amount
            watch, found = _account(watch, STATE, W, 0, amount, 0, at, None)
            assert [b.what for b in found if b.what == "rate"] == (["rate"] if below_rate else [])
            if below_rate:
                assert "CR1" in found[0].diagnostic.message
        else:
            until = at + pairing_key(PAIRING_PLIES, Phase.UPKEEP)
            waiting.append([amount, until, kind == "price"])
            watch, found = _account(watch, STATE, W, amount, 0, 0, at, None, priced=kind == "price")
            assert found == []
        side = watch.sides[W]
        assert side.pending_sp == sum(w[0] for w in waiting)
        assert side.turn_sp == counted
        # the waiting SP never outlive a round of the player
        assert all(until > at for _, until, _ in side.waiting)
