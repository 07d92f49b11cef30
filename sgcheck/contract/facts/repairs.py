"""Repair denials: whether one reaches the opponent's Upkeep, and why it is too long (core §6, R15)."""

from __future__ import annotations

from sgcheck.core.cards import model as A


def reaches_enemy_upkeep(card: A.Card, effect: A.Effect) -> bool:
    """Whether a deny-repair effect is still in force at an Upkeep of the opponent, the only time a
    Repair is attempted (core §6, R15): a denial that ends with the holder's own turn (``this
    turn``, ``this attack``, or no duration on a Spell, a use or a trigger, R23) refuses nothing."""
    duration = effect.duration
    if duration is None:
        return card.kind is A.CardKind.RELIC and card.mode is A.Mode.PASSIVE and effect.trigger is None
    return duration.kind not in (A.DurationKind.THIS_TURN, A.DurationKind.THIS_ATTACK)


def denial_problem(card: A.Card, effect: A.Effect) -> str | None:
    """Why this deny-repair effect can cover consecutive turns on its own (None if it cannot)."""
    duration = effect.duration
    if not reaches_enemy_upkeep(card, effect):
        return None  # it ends before any Repair could be refused
    if duration is not None and duration.kind is A.DurationKind.PERMANENT:
        return "it denies repair permanently"
    if duration is not None and duration.kind is A.DurationKind.TURNS and (duration.turns or 0) > 1:
        return f"it denies repair for {duration.turns} turns in a row"
    if card.kind is A.CardKind.RELIC:
        if effect.limit is not None and effect.limit.period is A.Period.GAME:
            return None if effect.limit.times == 1 else f"it can deny repair {effect.limit.times} times a game"
        if card.mode is A.Mode.PASSIVE and effect.trigger is None and duration is None:
            return "a passive relic's denial stays in force for the rest of the game"
        if card.mode is A.Mode.PASSIVE and effect.trigger is None:
            return None  # a passive relic's timed effect starts once, when it enters play (R22)
        return "the relic can deny repair again on the next turn"
    return None
