"""Apply an action to a state: the rule for its kind either performs it or says why not.

``apply`` never raises for a bad action; it returns :class:`Rejected` with the
violation. Pure: no I/O, no mutation. Each rule checks its small named
predicates in order (phase window, piece, geometry, dice, payment) and only then
builds the new state, so checking and performing share one computation.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any, Final

from sgcheck.codes import diagnostic
from sgcheck.core.actions import (
    Action,
    Activate,
    Attack,
    Break,
    Convert,
    EndTurn,
    EnterPhase,
    Move,
    Play,
    Repair,
    Reveal,
    Summon,
    Teleport,
)
from sgcheck.core.outcome import Applied, Rejected, Step, Violation
from sgcheck.core.play import attack, cards, economy, market, movement, summon, teleport, turns
from sgcheck.core.play.victory import game_over_rules, scenario_after
from sgcheck.core.state import GameState, Payment

_Rule = Callable[[Any, Any], "Applied | Violation"]

_RULES: Final[dict[type, _Rule]] = {
    Summon: summon.apply,
    Move: movement.apply,
    Attack: attack.apply,
    Convert: economy.apply_convert,
    Teleport: teleport.apply,
    Break: economy.apply_break,
    Repair: economy.apply_repair,
    Activate: cards.apply_use,
    Play: cards.apply_play,
    Reveal: market.apply_reveal,
    EnterPhase: turns.apply_enter,
    EndTurn: turns.apply_end,
}


def apply(state: GameState, action: Action) -> Step:
    """The new state and effects of ``action``, or why it is illegal."""
    if state.result is not None:
        over = diagnostic(
            "SG-T106", f"the game is already over: {state.result.detail}", rules=game_over_rules(state.result)
        )
        return Rejected((Violation(over),))
    outcome = _RULES[type(action)](state, action)
    if isinstance(outcome, Violation):
        return Rejected((outcome,))
    held = outcome.state.cards
    if held is not None and held.lasting_index.resources and type(action) is not EndTurn:
        outcome = _gains_and_losses(state, outcome, action)  # EndTurn fires its own, turn by turn
    if held is not None and held.market is not None and outcome.effects.captured is not None:
        outcome = market.after_capture(outcome)  # a market's capture reveals a card (R26)
    if outcome.state.scenario is not None:
        return scenario_after(state, outcome)  # the scenario's win conditions checked at any time (R24)
    return outcome


def _gains_and_losses(before: GameState, applied: Applied, action: Action) -> Applied:
    """``on gain SP:`` and the like fire after the action, for what it changed (R23).

    What the mover paid for the action is not a loss: its cost, or the SP converted to LP.
    """
    spent = Payment(action.sp, 0) if isinstance(action, Convert) else applied.effects.paid
    after = cards.resources_changed(before, applied.state, spent)
    return applied if after is applied.state else Applied(after, applied.effects)


def violations(state: GameState, action: Action) -> Iterator[Violation]:
    """Why ``action`` is illegal in ``state`` (nothing when it is legal)."""
    step = apply(state, action)
    if isinstance(step, Rejected):
        yield from step.violations


def is_legal(state: GameState, action: Action) -> bool:
    return isinstance(apply(state, action), Applied)
