"""The card language described once: each effect, condition, duration, trigger and limit (docs/cards.md).

One table per part of an effect says what it is called (its words in the card language, its
YAML key, its row in docs/cards.md) and what it is in play (a modifier acting for a while, a
one-off, a denial, or a change of the core refused in every game), with the window of each
duration. The rules read it (:func:`is_lasting`, :func:`window`); the parsers, the writers,
the YAML schema, the editors' TextMate grammars and the docs are checked against it by tests
(``tests/core/test_card_catalog.py``), and the engine's behaviour for each entry by a test
generated from it (``tests/core/test_effect_table.py``). Adding an effect to the model without
a row here fails those tests, and every dispatch over effect kinds ends in ``assert_never``.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from sgcheck.core.cards.effects import (
    Action,
    CapturePiece,
    ConvertPiece,
    ConvertResource,
    CostModifier,
    DamageModifier,
    DamageReduction,
    DealDamage,
    DenyRepair,
    ExtraAction,
    ExtraPhase,
    ExtraTurn,
    Reroll,
    ResourceChange,
    SetParameter,
    SkipPhase,
    Steal,
    SwapPhases,
    ToHitModifier,
)
from sgcheck.core.cards.model import DistanceIs, GemIs, InCamp, PieceIs, ResourceIs
from sgcheck.core.cards.parts import DurationKind, Event, Period
from sgcheck.core.record import pickle_by_fields


class Nature(StrEnum):
    """What an effect is in play (docs/cards.md, In play)."""

    MODIFIER = "modifier"  # acts for its duration: on attacks, costs or the actions a turn allows
    DENIAL = "denial"  # acts for its duration: the opponent's Repair is refused
    ONE_OFF = "one-off"  # acts once, when its card is played or used or its trigger fires
    STRUCTURE = "structure"  # changes the core: refused in every game (SG-R123)


@dataclass(frozen=True, slots=True)
class EffectKind:
    """One action of the card language."""

    action: type[object]  # its class in the card model
    row: str  # its row in the Actions table of docs/cards.md
    yaml: tuple[str, ...]  # its YAML action keys
    words: tuple[str, ...]  # the words that open it in the card language (the editors' action keywords)
    nature: Nature
    example: str  # one wording of it, as written after ``effect``
    logged: tuple[str, ...] = ()  # the words a game log writes for what it grants (a second roll)


#: Every action of the card language, in the order of docs/cards.md.
EFFECTS: tuple[EffectKind, ...] = (
    EffectKind(
        CostModifier, "cost modifier", ("cost_modifier",), ("cost", "double", "halve"), Nature.MODIFIER, "cost move -1"
    ),
    EffectKind(ToHitModifier, "to-hit modifier", ("to_hit",), ("to_hit", "to-hit"), Nature.MODIFIER, "to_hit +10"),
    EffectKind(
        DamageModifier, "damage modifier", ("damage",), ("damage", "double", "halve"), Nature.MODIFIER, "damage +1"
    ),
    EffectKind(
        DamageReduction,
        "damage reduction",
        ("reduce_damage",),
        ("reduce",),
        Nature.MODIFIER,
        "reduce damage by 1 on enemy Pawn",
    ),
    EffectKind(
        Reroll,
        "reroll / advantage",
        ("reroll",),
        ("reroll", "advantage"),
        Nature.MODIFIER,
        "reroll accuracy",
        logged=("reroll", "advantage"),
    ),
    EffectKind(
        ResourceChange, "gain / lose", ("gain", "lose"), ("gain", "gains", "lose", "loses"), Nature.ONE_OFF, "gain 2 SP"
    ),
    EffectKind(Steal, "steal", ("steal",), ("steal",), Nature.ONE_OFF, "steal 5 SP"),
    EffectKind(ExtraAction, "extra actions", ("extra_action",), ("extra",), Nature.MODIFIER, "extra summon in upkeep"),
    EffectKind(
        ExtraPhase, "extra phase", ("extra_phase",), ("extra",), Nature.STRUCTURE, "extra phase movement after main1"
    ),
    EffectKind(ExtraTurn, "extra turn", ("extra_turn",), ("extra",), Nature.STRUCTURE, "extra turn"),
    EffectKind(
        ConvertResource, "conversion", ("convert_resource",), ("convert",), Nature.ONE_OFF, "convert 2 SP to 1 LP"
    ),
    EffectKind(SkipPhase, "skip / swap phases", ("skip_phase",), ("skip",), Nature.STRUCTURE, "skip end"),
    EffectKind(
        SwapPhases, "skip / swap phases", ("swap_phases",), ("swap",), Nature.STRUCTURE, "swap battle with main1"
    ),
    EffectKind(SetParameter, "set a core number", ("set",), ("set",), Nature.STRUCTURE, "set value.rook to 6"),
    EffectKind(DenyRepair, "deny repair", ("deny_repair",), ("deny",), Nature.DENIAL, "deny repair for 1 turn"),
    EffectKind(DealDamage, "direct damage", ("deal_damage",), ("deal",), Nature.ONE_OFF, "deal 1 damage to enemy Pawn"),
    EffectKind(CapturePiece, "capture / convert", ("capture",), ("capture",), Nature.ONE_OFF, "capture enemy Queen"),
    EffectKind(ConvertPiece, "capture / convert", ("convert",), ("convert",), Nature.ONE_OFF, "convert enemy Knight"),
)

_BY_CLASS: dict[type[object], EffectKind] = {kind.action: kind for kind in EFFECTS}

#: The modifiers: what acts for a while rather than once (denials aside).
LASTING_ACTIONS: tuple[type[object], ...] = tuple(k.action for k in EFFECTS if k.nature is Nature.MODIFIER)


def effect_kind(action: Action) -> EffectKind:
    """The catalogue's entry for ``action`` (every action of the model has one; a test holds it)."""
    return _BY_CLASS[type(action)]


def is_lasting(action: Action) -> bool:
    """Whether ``action`` acts for a while once played or fired (a modifier or a denial), not once."""
    nature = _BY_CLASS[type(action)].nature
    return nature is Nature.MODIFIER or nature is Nature.DENIAL


@dataclass(frozen=True, slots=True)
class DurationSpec:
    """One duration: its words and the plies it covers, counted from the ply it starts in (0).

    The last ply is ``last + per_turn × N`` for ``for N turns``; None is the rest of the game.
    Each player's turn is one ply, so, for an effect started in its holder's turn, ply 1 is the
    opponent's next turn and ply 2 the holder's. Ruling CR4 (docs/contract-rules.md): a duration
    names turns from its holder's side, "this turn" being the turn it starts in, whoever's, and
    every other turn one that begins after it starts; for an effect started in the opponent's
    turn (a trigger on an attack on the holder's pieces), ply 1 is the holder's next turn and ply
    2 the opponent's, so its last ply moves by ``theirs``.
    """

    kind: DurationKind
    words: str
    first: int
    last: int | None
    per_turn: int = 0
    attack_only: bool = False
    theirs: int = 0


#: Every duration of docs/cards.md (Durations and limits) and the plies it covers.
DURATIONS: tuple[DurationSpec, ...] = (
    DurationSpec(DurationKind.THIS_ATTACK, "this attack", 0, 0, attack_only=True),
    DurationSpec(DurationKind.THIS_TURN, "this turn", 0, 0),
    # to the end of the opponent's N-th turn that begins after it starts
    DurationSpec(DurationKind.TURNS, "for 2 turns", 0, -1, per_turn=2, theirs=1),
    # until the holder's next turn begins
    DurationSpec(DurationKind.UNTIL_NEXT_TURN, "until your next turn", 0, 1, theirs=-1),
    # from the end of this turn to the end of the holder's next turn
    DurationSpec(DurationKind.NEXT_TURN, "next turn", 1, 2, theirs=-1),
    DurationSpec(DurationKind.PERMANENT, "permanent", 0, None),
)

_DURATIONS: dict[DurationKind, DurationSpec] = {spec.kind: spec for spec in DURATIONS}


def window(kind: DurationKind, turns: int | None, *, theirs: bool = False) -> tuple[int, int | None, bool]:
    """The first and last ply (relative, None: no end) of a duration, and whether it ends with an
    attack; ``theirs``: started in the opponent's turn (ruling CR4)."""
    spec = _DURATIONS[kind]
    if spec.last is None:
        return spec.first, None, spec.attack_only
    return spec.first, spec.last + spec.per_turn * max(1, turns or 1) + (spec.theirs if theirs else 0), spec.attack_only


@dataclass(frozen=True, slots=True)
class TriggerSpec:
    """One trigger: its words (before the ``:``) and the event it waits for."""

    event: Event
    words: str


#: Every trigger of docs/cards.md (Triggers); ``at PHASE:`` is one entry per phase word.
TRIGGERS: tuple[TriggerSpec, ...] = (
    TriggerSpec(Event.CAPTURE, "on capture"),
    TriggerSpec(Event.CAPTURED, "on captured"),
    TriggerSpec(Event.HIT, "on hit"),
    TriggerSpec(Event.MISS, "on miss"),
    TriggerSpec(Event.ATTACKED, "on attacked"),
    TriggerSpec(Event.SUMMON, "on summon"),
    TriggerSpec(Event.TELEPORT, "on teleport"),
    TriggerSpec(Event.MOVE, "on move"),
    TriggerSpec(Event.GAIN_SP, "on gain SP"),
    TriggerSpec(Event.GAIN_LP, "on gain LP"),
    TriggerSpec(Event.LOSE_SP, "on lose SP"),
    TriggerSpec(Event.LOSE_LP, "on lose LP"),
    TriggerSpec(Event.PHASE, "at upkeep"),
    TriggerSpec(Event.PHASE, "at main1"),
    TriggerSpec(Event.PHASE, "at battle"),
    TriggerSpec(Event.PHASE, "at main2"),
    TriggerSpec(Event.PHASE, "at end"),
)


@dataclass(frozen=True, slots=True)
class PredicateSpec:
    """One predicate of a condition: its name in docs/cards.md (Conditions), a wording, its class."""

    predicate: type[object]
    row: str
    example: str


#: Every predicate of docs/cards.md (Conditions).
PREDICATES: tuple[PredicateSpec, ...] = (
    PredicateSpec(PieceIs, "piece type", "attacker is Knight"),
    PredicateSpec(DistanceIs, "distance", "distance <= 2"),
    PredicateSpec(InCamp, "camp", "attacker in enemy camp"),
    PredicateSpec(GemIs, "Gem state", "enemy gem is broken"),
    PredicateSpec(ResourceIs, "resources", "enemy LP < 20"),
)

#: The periods of a ``limit`` (docs/cards.md, Durations and use limits).
LIMITS: tuple[tuple[Period, str], ...] = ((Period.TURN, "limit once per turn"), (Period.GAME, "limit 2 per game"))


pickle_by_fields(globals())
