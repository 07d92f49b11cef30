"""Every effect × condition × duration × trigger × limit of the card language, played by the engine
(docs/cards.md, In play; R22, R23; the issue's item 5).

The cases are generated from the card catalogue (``sgcheck.core.cards.catalog``): each effect's
wording, each predicate, each duration, each trigger and each limit period. What the engine must
do is worked out here, from docs/cards.md, by code that shares nothing with the rules: whether a
predicate holds is read off the situation the probe set up (:func:`oracle`), a duration's plies
and a limit's count are tables of this file. Each probe plays the card with ``engine.apply`` and
looks at what changed, against the same game played without the card.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import assert_never

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sgcheck.core.actions import Action, Attack, EndTurn, EnterPhase, Move, Play, Repair, Summon, Teleport
from sgcheck.core.cards import catalog
from sgcheck.core.cards.effects import (
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
from sgcheck.core.cards.model import DistanceIs, DurationKind, Event, GemIs, InCamp, Period, PieceIs, ResourceIs
from sgcheck.core.cards.table import new_cards
from sgcheck.core.engine import apply
from sgcheck.core.outcome import Applied
from sgcheck.core.pieces import Color, Kind, Phase
from sgcheck.core.squares import Square
from sgcheck.core.state import GameState
from tests.core.helpers import HIT, MISS, cards_by_name, ok, position, sq

W, B = Color.WHITE, Color.BLACK
ROUTES = [kind.action.__name__ for kind in catalog.EFFECTS]

# --- the worlds a condition is read in, and the oracle ---------------------------------------------------------


@dataclass(frozen=True)
class World:
    """White's acting piece and its square, White's SP and Gem: what a probe's position is built from."""

    letter: str = "R"  # the acting piece: Rook or Queen
    square: str = "a3"
    sp: int = 60
    enemy_gem_broken: bool = False


#: One wording per predicate of the catalogue, and a world where it holds and one where it does not
#: (for the probes that act with White's piece on ``square``).
PREDICATE_CASES: dict[type[object], tuple[str, World, World]] = {
    PieceIs: ("attacker is Rook", World(), World(letter="Q")),
    DistanceIs: ("distance <= 2", World(), World(square="a1")),
    InCamp: ("attacker in enemy camp", World(square="a6"), World()),
    GemIs: ("enemy gem is broken", World(enemy_gem_broken=True), World()),
    ResourceIs: ("own SP >= 40", World(), World(sp=20)),
}


@dataclass(frozen=True)
class Seen:
    """What a probe saw: whether the effect acted, and the situation its condition was read in
    (the acting piece's kind, the distance and the square it acted from; None outside an action)."""

    acted: bool
    kind: Kind | None = None
    distance: int | None = None
    frm: str | None = None
    sp: int | None = None  # the holder's SP when the condition was read
    enemy_gem_broken: bool | None = None  # the opponent's Gem then, when the probe changed it


def oracle(predicate: type[object], world: World, seen: Seen) -> bool:
    """Whether the predicate of :data:`PREDICATE_CASES` holds, from docs/cards.md alone: a predicate
    about a piece, a distance or a camp needs an action's situation; the others read the holder."""
    if predicate is PieceIs:
        return seen.kind is Kind.ROOK
    if predicate is DistanceIs:
        return seen.distance is not None and seen.distance <= 2
    if predicate is InCamp:
        return seen.frm is not None and int(seen.frm[1]) >= 5  # White's enemy camp: ranks 5 to 8
    if predicate is GemIs:
        return world.enemy_gem_broken if seen.enemy_gem_broken is None else seen.enemy_gem_broken
    if predicate is ResourceIs:
        return (world.sp if seen.sp is None else seen.sp) >= 40
    raise AssertionError(predicate)


def start(world: World, cards: str, white: tuple[str, ...] = (), black: tuple[str, ...] = ()) -> GameState:
    spec = f"Ke1 {world.letter}{world.square} ke8 pa5 qd8 nb8"
    state = position(spec, sp=(world.sp, 10), gem_broken=(False, world.enemy_gem_broken))
    if not cards:
        return state  # the same game without a pack
    return state.replace(cards=new_cards(cards_by_name(cards, "table.sgcard"), white, black))


def step(state: GameState, action: Action) -> Applied | None:
    outcome = apply(state, action)
    return outcome if isinstance(outcome, Applied) else None


def spell(effect: str, condition: str, duration: str = "") -> str:
    return f'spell "Probe" {{ cost free effect {effect} {condition} {duration} }}'


# --- one probe per effect kind -------------------------------------------------------------------------------


def _attack(world: World, cards: str, roll: tuple[int, int], second: tuple[int, ...] = ()) -> Applied | None:
    """White plays the card in Main 1 and attacks the Pawn on a5 from ``world.square`` in Battle."""
    state = start(world, cards, white=("Probe",) if cards else ())
    if cards:
        state = ok(state, Play("Probe")).state
    state = ok(state, EnterPhase(Phase.BATTLE)).state
    return step(state, Attack(sq(world.square), sq("a5"), roll, second=second))


def _attack_seen(world: World) -> tuple[Kind, int, str]:
    """The attack's situation: the acting piece, its distance to a5 and its square."""
    return (Kind.ROOK if world.letter == "R" else Kind.QUEEN), abs(int(world.square[1]) - 5), world.square


def probe(kind: catalog.EffectKind, condition: str, world: World) -> Seen:
    """Play the catalogue's wording of ``kind`` with ``condition`` in ``world``; what it did.

    The dispatch is over the model's actions, exhaustive (``assert_never``): an effect added to the
    model without a probe here fails mypy, and without a catalogue row the catalogue's tests."""
    lasting = "until your next turn" if kind.nature is catalog.Nature.MODIFIER else ""
    cards = spell(kind.example, condition, lasting)
    action = cards_by_name(cards, "probe.sgcard")["Probe"].effects[0].action
    match action:
        case ExtraPhase() | ExtraTurn() | SkipPhase() | SwapPhases() | SetParameter():
            outcome = apply(start(world, cards, white=("Probe",)), Play("Probe"))
            assert not isinstance(outcome, Applied) and outcome.first.diagnostic.code == "SG-R123"
            return Seen(False)
        case CostModifier():
            state = start(world, cards, white=("Probe",))
            frm, to = sq(world.square), Square(sq(world.square) + 1)  # one square to the right
            plain_cost = ok(state, Move(frm, to)).effects.cost
            played = ok(ok(state, Play("Probe")).state, Move(frm, to)).effects.cost
            assert plain_cost is not None and played is not None
            return Seen(played < plain_cost, Kind.ROOK if world.letter == "R" else Kind.QUEEN, 1, world.square)
        case ToHitModifier():
            plain_step, card_step = _attack(world, "", MISS), _attack(world, cards, MISS)
            assert plain_step is not None and card_step is not None
            plain, card = plain_step.effects.threshold_worked, card_step.effects.threshold_worked
            assert plain is not None and card is not None
            return Seen(card.value > plain.value, *_attack_seen(world))
        case DamageModifier() | DamageReduction():
            plain_step, card_step = _attack(world, "", HIT), _attack(world, cards, HIT)
            assert plain_step is not None and card_step is not None
            return Seen(card_step.effects.damage != plain_step.effects.damage, *_attack_seen(world))
        case Reroll():
            return Seen(_attack(world, cards, MISS, second=HIT) is not None, *_attack_seen(world))
        case ExtraAction():  # ``extra summon in upkeep``: a second Summon in one Upkeep
            state = start(world, cards, white=("Probe",))
            state = state.replace(turn=state.turn.replace(phase=Phase.UPKEEP))
            state = ok(ok(state, Play("Probe")).state, Summon(Kind.PAWN, sq("b2"))).state
            return Seen(step(state, Summon(Kind.PAWN, sq("c2"))) is not None, sp=state.players[W].sp)
        case DenyRepair():  # Black's broken Gem, repaired in Black's next Upkeep
            state = ok(ok(start(world, cards, white=("Probe",)), Play("Probe")).state, EndTurn()).state
            state = state.with_player(B, state.players[B].replace(gem_broken=True))
            outcome = apply(state, Repair((6, 6, 6)))
            if isinstance(outcome, Applied):
                return Seen(False, enemy_gem_broken=True)
            assert outcome.first.diagnostic.code == "SG-R127"
            return Seen(True, enemy_gem_broken=True)
        case DealDamage() | CapturePiece() | ConvertPiece():
            on = {DealDamage: "a5", CapturePiece: "d8", ConvertPiece: "b8"}[type(action)]
            after = ok(start(world, cards, white=("Probe",)), Play("Probe", target=sq(on))).state
            return Seen(after.board[sq(on)] is None or after.turn.damage_on(sq(on)) > 0)
        case ResourceChange() | Steal() | ConvertResource():
            state = start(world, cards, white=("Probe",))
            return Seen(ok(state, Play("Probe")).state.players != state.players)
        case _:
            assert_never(action)


@pytest.mark.parametrize("kind", catalog.EFFECTS, ids=ROUTES)
@pytest.mark.parametrize("predicate", [spec.predicate for spec in catalog.PREDICATES], ids=lambda p: p.__name__)
def test_each_effect_acts_exactly_when_its_condition_holds(kind: catalog.EffectKind, predicate: type[object]) -> None:
    """docs/cards.md: a condition is read each time the effect would act; an effect whose condition
    does not hold does nothing, and a predicate about a piece, a distance or a camp holds only in
    an action that has one. A change of the core is refused whatever its condition (SG-R123)."""
    words, holds, fails = PREDICATE_CASES[predicate]
    for world in (holds, fails):
        seen = probe(kind, f"when {words}", world)
        if kind.nature is catalog.Nature.STRUCTURE:
            assert not seen.acted
            continue
        assert seen.acted == oracle(predicate, world, seen), (kind.example, words, world, seen)
    assert probe(kind, "", World()).acted == (kind.nature is not catalog.Nature.STRUCTURE)


def test_every_predicate_of_the_catalogue_has_its_worlds() -> None:
    assert set(PREDICATE_CASES) == {spec.predicate for spec in catalog.PREDICATES}


# --- durations ---------------------------------------------------------------------------------------------------

#: The plies each duration covers, counted from the ply the Spell is cast in (docs/cards.md,
#: Durations and limits): 0 is the caster's turn, 1 the opponent's next, 2 the caster's next...
PLIES: dict[DurationKind, set[int]] = {
    DurationKind.THIS_ATTACK: {0},  # no attack is made: it lasts at most this turn
    DurationKind.THIS_TURN: {0},
    DurationKind.TURNS: {0, 1, 2, 3},  # ``for 2 turns``: up to the end of the opponent's 2nd turn
    DurationKind.UNTIL_NEXT_TURN: {0, 1},
    DurationKind.NEXT_TURN: {1, 2},
    DurationKind.PERMANENT: {0, 1, 2, 3, 4, 5},
}


def _king_costs(cards: str) -> list[int]:
    """Each side moves its King once a turn for six turns, White first, after White casts the Spell."""
    state = position("Ke1 ke8", sp=(60, 60)).replace(cards=new_cards(cards_by_name(cards, "d.sgcard"), ("Probe",), ()))
    state = ok(state, Play("Probe")).state
    squares = {W: ("e1", "e2"), B: ("e8", "e7")}
    costs = []
    for turn in range(6):
        mover = state.to_move
        here, there = squares[mover] if turn % 4 < 2 else squares[mover][::-1]
        moved = ok(state, Move(sq(here), sq(there)))
        assert moved.effects.cost is not None
        costs.append(moved.effects.cost)
        state = ok(ok(moved.state, EndTurn()).state, EnterPhase(Phase.MAIN1)).state
    return costs


@pytest.mark.parametrize("spec", catalog.DURATIONS, ids=lambda s: s.kind.value)
def test_each_duration_covers_the_plies_the_docs_give_it(spec: catalog.DurationSpec) -> None:
    """``cost move -1`` changes White's moves and ``opponent cost move +1`` Black's, each on the
    plies of its duration only (docs/cards.md, Durations and limits)."""
    own = _king_costs(spell("cost move -1", "", spec.words))
    theirs = _king_costs(spell("opponent cost move +1", "", spec.words))
    plain = 1  # a King's move costs 1 (R09)
    assert {ply for ply, cost in enumerate(own) if ply % 2 == 0 and cost != plain} == {
        p for p in PLIES[spec.kind] if p % 2 == 0
    }
    assert {ply for ply, cost in enumerate(theirs) if ply % 2 == 1 and cost != plain} == {
        p for p in PLIES[spec.kind] if p % 2 == 1
    }


def test_every_duration_of_the_catalogue_has_its_plies() -> None:
    assert set(PLIES) == {spec.kind for spec in catalog.DURATIONS}


# --- triggers ------------------------------------------------------------------------------------------------------

DRIVERS = """
spell "Boon" { cost free effect gain 2 SP }
spell "Blessing" { cost free effect gain 2 LP }
spell "Toll" { cost free effect lose 2 SP }
spell "Wound" { cost free effect lose 2 LP }
"""


def _drive(event: Event, phase: str) -> tuple[Color, list[Action]]:
    """Who holds the trigger, and the actions after the Relic is in play (White's Main 1) that
    make its event happen once."""
    battle = EnterPhase(Phase.BATTLE)
    match event:
        case Event.CAPTURE | Event.HIT:
            return W, [battle, Attack(sq("a3"), sq("a5"), HIT)]
        case Event.CAPTURED:
            return B, [battle, Attack(sq("a3"), sq("a5"), HIT)]
        case Event.MISS:
            return W, [battle, Attack(sq("a3"), sq("a5"), MISS)]
        case Event.ATTACKED:
            return B, [battle, Attack(sq("a3"), sq("a5"), MISS)]
        case Event.MOVE:
            return W, [Move(sq("e1"), sq("e2"))]
        case Event.SUMMON:
            return W, [EndTurn(), EndTurn(), Summon(Kind.PAWN, sq("b2"))]
        case Event.TELEPORT:
            return W, [EnterPhase(Phase.END), Teleport(sq("a3"), sq("b1"))]
        case Event.GAIN_SP:
            return W, [Play("Boon")]
        case Event.GAIN_LP:
            return W, [Play("Blessing")]
        case Event.LOSE_SP:
            return W, [Play("Toll")]
        case Event.LOSE_LP:
            return W, [Play("Wound")]
        case Event.PHASE:
            target = {"upkeep": None, "main1": None}.get(phase, Phase[phase.upper()])
            if target is None:  # the holder's next turn
                return W, [EndTurn(), EndTurn(), *([EnterPhase(Phase.MAIN1)] if phase == "main1" else [])]
            return W, [EnterPhase(target)]
        case _:
            assert_never(event)


def _fired(spec: catalog.TriggerSpec, condition: str, holder_sp: int) -> int:
    """How much SP the trigger's ``opponent loses 1 SP`` took, against the same game without it."""
    phase = spec.words.split()[1] if spec.event is Event.PHASE else ""
    holder, actions = _drive(spec.event, phase)
    relic = f'relic "Probe" passive {{ cost free phase main effect {spec.words}: opponent loses 1 SP {condition} }}'
    by_name = cards_by_name(relic + DRIVERS, "t.sgcard")
    taken = []
    for with_card in (False, True):
        sps = (holder_sp, 30) if holder is W else (30, holder_sp)
        state = position("Ke1 Ra3 ke8 pa5", sp=sps, to_move=holder)
        hands = ("Probe",) if with_card else ()
        drivers = ("Boon", "Blessing", "Toll", "Wound")
        state = state.replace(cards=new_cards(by_name, hands + drivers if holder is W else drivers, hands))
        if holder is B:
            state = ok(ok(state, Play("Probe")).state, EndTurn()).state if with_card else ok(state, EndTurn()).state
        elif with_card:
            state = ok(state, Play("Probe")).state
        before = state.players[holder.other].sp
        for action in actions:
            state = ok(state, action).state
        taken.append(before - state.players[holder.other].sp)
    return taken[1] - taken[0]


@pytest.mark.parametrize("spec", catalog.TRIGGERS, ids=lambda s: s.words)
def test_each_trigger_fires_once_on_its_event_when_its_condition_holds(spec: catalog.TriggerSpec) -> None:
    """docs/cards.md, Triggers: each trigger fires once after its event, for the side that holds the
    card, and only when its condition holds as it fires (``own SP >= 40``)."""
    assert _fired(spec, "", 60) == 1
    assert _fired(spec, "when own SP >= 40", 60) == 1
    assert _fired(spec, "when own SP >= 40", 20) == 0


# --- limits --------------------------------------------------------------------------------------------------------

#: How often ``on move:`` fires in each of two turns in which White moves three times.
FIRINGS: dict[Period, tuple[int, int]] = {Period.TURN: (1, 1), Period.GAME: (2, 0)}
WORDS: dict[Period, str] = dict(catalog.LIMITS)


@pytest.mark.parametrize("period", [period for period, _ in catalog.LIMITS], ids=lambda p: p.value)
def test_each_limit_counts_its_firings_per_turn_or_per_game(period: Period) -> None:
    """``limit once per turn`` fires once in each turn, ``limit 2 per game`` twice in the game
    (docs/cards.md, Durations and limits: a trigger counts each time it fires)."""
    relic = f'relic "Probe" passive {{ cost free phase main effect on move: opponent loses 1 SP {WORDS[period]} }}'
    state = position("Ke1 ke8", sp=(60, 30)).replace(cards=new_cards(cards_by_name(relic, "l.sgcard"), ("Probe",), ()))
    state = ok(state, Play("Probe")).state
    counts = []
    for _ in range(2):
        before = state.players[B].sp
        for here, there in (("e1", "e2"), ("e2", "e1"), ("e1", "e2")):
            state = ok(state, Move(sq(here), sq(there))).state
        counts.append(before - state.players[B].sp)  # the fourth move, below, is counted in neither turn
        state = ok(ok(ok(state, Move(sq("e2"), sq("e1"))).state, EndTurn()).state, EndTurn()).state
        state = ok(state, EnterPhase(Phase.MAIN1)).state
    assert tuple(counts) == FIRINGS[period], counts


def test_every_limit_period_of_the_catalogue_has_its_count() -> None:
    assert set(FIRINGS) == {period for period, _ in catalog.LIMITS} == set(Period)


# --- a one-off's resource condition, for any numbers (Hypothesis) --------------------------------------------------

_COMPARE = {
    "<": lambda a, b: a < b,
    "<=": lambda a, b: a <= b,
    ">": lambda a, b: a > b,
    ">=": lambda a, b: a >= b,
    "=": lambda a, b: a == b,
    "==": lambda a, b: a == b,
    "!=": lambda a, b: a != b,
}


@settings(max_examples=60, deadline=None)
@given(
    cmp=st.sampled_from(sorted(_COMPARE)),
    value=st.integers(0, 40),
    side=st.sampled_from(["own", "enemy", "opponent"]),
    resource=st.sampled_from(["SP", "LP"]),
    funds=st.tuples(st.integers(0, 40), st.integers(1, 40), st.integers(0, 40), st.integers(1, 40)),
)
def test_r23_a_one_off_gains_exactly_when_its_resource_condition_holds(
    cmp: str, value: int, side: str, resource: str, funds: tuple[int, int, int, int]
) -> None:
    """``gain 3 SP when SIDE RESOURCE CMP N``, cast with any resources: White gains 3 SP exactly when
    the comparison holds of the numbers as they are (the issue's ``enemy LP < 20`` at 20 among them)."""
    white_sp, white_lp, black_sp, black_lp = funds
    card = spell("gain 3 SP", f"when {side} {resource} {cmp} {value}")
    state = position("Ke1 ke8", sp=(white_sp, black_sp), lp=(white_lp, black_lp))
    state = state.replace(cards=new_cards(cards_by_name(card, "h.sgcard"), ("Probe",), ()))
    have = {("own", "SP"): white_sp, ("own", "LP"): white_lp, ("enemy", "SP"): black_sp, ("enemy", "LP"): black_lp}
    holds = _COMPARE[cmp](have[("own" if side == "own" else "enemy", resource)], value)
    after = ok(state, Play("Probe")).state
    assert after.players[W].sp - white_sp == (3 if holds else 0)


# --- durations started in the opponent's turn (ruling CR4) ---------------------------------------------------

#: The plies each duration covers when a trigger starts it in the opponent's turn, counted from the
#: ply it starts in (0: the opponent's turn of the attack, 1 the holder's next, 2 the opponent's
#: next...). Ruling CR4 (docs/contract-rules.md, "Readings"): a duration names turns from its
#: holder's side, every turn but "this turn" one that begins after it starts.
THEIRS_PLIES: dict[DurationKind, set[int]] = {
    DurationKind.THIS_TURN: {0},
    DurationKind.TURNS: {0, 1, 2, 3, 4},  # ``for 2 turns``: to the end of the opponent's 2nd turn after it
    DurationKind.UNTIL_NEXT_TURN: {0},  # until the holder's next turn begins
    DurationKind.NEXT_TURN: {1},  # from the end of this turn to the end of the holder's next
    DurationKind.PERMANENT: {0, 1, 2, 3, 4, 5},
}


def _king_costs_after_an_attack(effect: str, words: str) -> list[int]:
    """White's Relic waits for an attack on her pieces; Black's Rook attacks her Pawn (a miss) in
    Black's Battle, then each side moves its King once a turn, Black first, for six turns."""
    text = f'relic "Probe" passive {{ cost free effect on attacked: {effect} {words} }}'
    state = position("Ke1 Pa4 ke8 ra8", sp=(60, 60)).replace(
        cards=new_cards(cards_by_name(text, "d.sgcard"), ("Probe",), ())
    )
    state = ok(ok(state, Play("Probe")).state, EndTurn()).state
    state = ok(state, EnterPhase(Phase.BATTLE)).state
    state = ok(state, Attack(sq("a8"), sq("a4"), MISS)).state
    state = ok(state, EnterPhase(Phase.MAIN2)).state
    squares = {W: ("e1", "e2"), B: ("e8", "e7")}
    costs = []
    for turn in range(6):
        mover = state.to_move
        here, there = squares[mover] if turn % 4 < 2 else squares[mover][::-1]
        moved = ok(state, Move(sq(here), sq(there)))
        assert moved.effects.cost is not None
        costs.append(moved.effects.cost)
        state = ok(moved.state, EndTurn()).state
        state = ok(state, EnterPhase(Phase.MAIN1)).state
    return costs


@pytest.mark.parametrize("kind", list(THEIRS_PLIES), ids=lambda k: k.value)
def test_cr4_a_duration_started_in_the_opponents_turn_names_turns_from_the_holders_side(kind: DurationKind) -> None:
    """CR4: ``opponent cost move +1`` started by an attack in Black's turn changes Black's moves, and
    ``cost move -1`` White's, each on the plies of its duration only: ``for N turns`` reaches the
    attacker's next turn (so ``on attacked: deny repair for 1 turn`` reaches the attacker's next
    Upkeep, core §6, §8)."""
    (spec,) = [s for s in catalog.DURATIONS if s.kind is kind]
    theirs = _king_costs_after_an_attack("opponent cost move +1", spec.words)
    own = _king_costs_after_an_attack("cost move -1", spec.words)
    plain = 1  # a King's move costs 1 (R09)
    assert {ply for ply, cost in enumerate(theirs) if ply % 2 == 0 and cost != plain} == {
        p for p in THEIRS_PLIES[kind] if p % 2 == 0
    }
    assert {ply for ply, cost in enumerate(own) if ply % 2 == 1 and cost != plain} == {
        p for p in THEIRS_PLIES[kind] if p % 2 == 1
    }


def test_cr4_every_duration_but_one_attack_has_its_plies_from_the_opponents_turn() -> None:
    assert set(THEIRS_PLIES) == {spec.kind for spec in catalog.DURATIONS} - {DurationKind.THIS_ATTACK}
