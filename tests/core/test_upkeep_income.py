"""An Upkeep's income is one number however it is worked out (core §6, R14).

:func:`sgcheck.core.formulas.upkeep_income` adds the Gem's pieces up at every call in the compiled
build and reads :func:`~sgcheck.core.formulas.income`'s cache in the pure one. Both ways must give
the worked income's value, for every Gem, side and table choice (R14: the enemy's pieces, or all).
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sgcheck.core import formulas
from sgcheck.core.pieces import BLACK, WHITE, Color, Kind
from sgcheck.core.ruleset import CORE, Ruleset

GEMS = st.lists(st.integers(0, 9), min_size=12, max_size=12).map(tuple)


@pytest.mark.parametrize("compiled_way", [True, False])
@given(gem=GEMS, color=st.sampled_from([WHITE, BLACK]), counts_all=st.booleans())
def test_upkeep_income_is_the_worked_income(
    compiled_way: bool, gem: tuple[int, ...], color: Color, counts_all: bool
) -> None:
    ruleset = Ruleset(income_counts_all=counts_all)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(formulas, "_COMPILED", compiled_way)
        got = formulas.upkeep_income(gem, color, ruleset)
    assert got == formulas.income(gem, color, ruleset).value


def test_the_enemy_pieces_count_twice_their_value() -> None:
    """core §6: 2 SP per point of value of the enemy's pieces in the Gem (a Rook 5, a Knight 3)."""
    gem = [0] * 12
    gem[BLACK * 6 + Kind.ROOK] = 1  # one black Rook
    gem[BLACK * 6 + Kind.KNIGHT] = 2  # two black Knights
    gem[WHITE * 6 + Kind.QUEEN] = 1  # a white Queen: White's own, not counted for White under the core rules
    for compiled_way in (True, False):
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(formulas, "_COMPILED", compiled_way)
            assert formulas.upkeep_income(tuple(gem), WHITE, CORE) == 2 * (5 + 2 * 3)
