"""Turn structure: phases in order, activations, End-phase clean-up, Pass, and the next Upkeep's income.

(core §2, §6; R03, R04, R11, R14, R17)
"""

from __future__ import annotations

from sgcheck.core import caps
from sgcheck.core.actions import EndTurn, EnterPhase
from sgcheck.core.cards.model import Event
from sgcheck.core.formulas import upkeep_income
from sgcheck.core.outcome import Applied, Effects, Violation
from sgcheck.core.pieces import WHITE, Phase
from sgcheck.core.play.cards import expire, fire, resources_changed
from sgcheck.core.play.predicates import violation
from sgcheck.core.play.victory import (
    at_turn_limit,
    lp_victory,
    reaches_lp_victory,
    scenario_end_of_turn,
    turn_limit_result,
)
from sgcheck.core.state import GameResult, GameState, TurnState

_NO_EFFECTS = Effects()


def apply_enter(state: GameState, action: EnterPhase) -> Applied | Violation:
    """Phases only move forward; skipping is fine, going back or repeating is not (R03)."""
    current = state.turn.phase
    if action.phase <= current:
        verb = "repeated" if action.phase == current else "revisited"
        return violation(
            "SG-T102",
            f"phases run Upkeep, Main 1, Battle, Main 2, End; {action.phase.title} cannot be {verb} "
            f"after {current.title}",
        )
    state = state.with_turn(state.turn.with_phase(action.phase))
    if state.cards is not None:
        state = _phases_begin(state, current, action.phase)
    return Applied(state, _NO_EFFECTS)


_PHASES = tuple(Phase)


def _phases_begin(state: GameState, after: Phase, upto: Phase) -> GameState:
    """``at main1:`` and the like fire at the start of that phase, also one the log skips (R23)."""
    cards = state.cards
    if cards is None or Event.PHASE not in cards.lasting_index.events:
        return state
    for phase in _PHASES[after + 1 : upto + 1]:
        state = fire(state, Event.PHASE, state.to_move, phase=phase)
    return state


def apply_end(state: GameState, action: EndTurn) -> Applied | Violation:
    """End: clear partial damage (R11); +6 LP if no action was taken (R04); then the other player's Upkeep.

    With cards, gains and losses fire their triggers turn by turn (R23): those of the End (its
    ``at end:`` effects, the Pass bonus) in this turn, those of the next Upkeep (income, ``at
    upkeep:`` effects) in the next.
    """
    start = state
    cards = state.cards
    lively = cards is not None and not cards.lasting_index.quiet  # no trigger waits and nothing ends: no card work
    if lively and state.turn.phase < Phase.END:
        state = _phases_begin(state, state.turn.phase, Phase.END)
    passed = state.turn.actions == 0
    if passed:
        player = state.mover
        state = state.with_player(state.to_move, player.with_funds(player.lp + caps.PASS_BONUS_LP, player.sp))
    if lively:
        state = resources_changed(start, state)
    lp_gained = caps.PASS_BONUS_LP if passed else 0
    won = scenario_end_of_turn(state) if state.scenario is not None else None  # R24, R26
    if won is not None or at_turn_limit(state) or reaches_lp_victory(state):
        return _end_game(state, passed, lp_gained, won)
    ending = state
    state, gained = begin_turn(state)  # the next Upkeep replaces the turn record: no clean-up state needed
    if lively:
        state = resources_changed(ending, state)
    return Applied(state, Effects(passed=passed, lp_gained=lp_gained, income=gained))


def _end_game(state: GameState, passed: bool, lp_gained: int, won: GameResult | None = None) -> Applied:
    """The game ends at this End phase: 1000 LP (core §7), else a scenario's condition checked at
    the end of a turn (``won``, R24), else the turn limit (R18)."""
    state = state.with_turn(state.turn.replace(phase=Phase.END, damage=()))
    state, result = lp_victory(state)
    if result is None:
        result = won if won is not None else turn_limit_result(state)
        state = state.replace(result=result)
    return Applied(state, Effects(passed=passed, lp_gained=lp_gained, result=result))


def begin_turn(state: GameState) -> tuple[GameState, int]:
    """Hand the turn over and apply Upkeep income: none on a player's first turn or with a broken Gem (R14)."""
    nxt = state.to_move.other
    number = state.turn_number + (1 if nxt is WHITE else 0)
    player = state.players[nxt]
    first_turn = player.turns_started == 0
    gained = 0 if first_turn or player.gem_broken else upkeep_income(player.gem, nxt, state.ruleset)
    player = player.starting_turn(gained)
    players = (player, state.players[1]) if nxt is WHITE else (state.players[0], player)
    state = state.handed_over(players, nxt, number, TurnState(income=gained))
    cards = state.cards
    if cards is not None and (not cards.lasting_index.quiet or cards.pending):
        state = fire(expire(state), Event.PHASE, nxt, phase=Phase.UPKEEP)
    return state, gained
