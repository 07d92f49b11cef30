"""Where the contract checker plays a pack: probe positions, and the situations swept at each state.

A probe is a small scenario (R24), so the game the explorer plays from it can be written as a
log that replays (:mod:`sgcheck.contract.proof`): both Kings, one piece of each kind for each
side, set so that every kind has an attack to make and room to move, Gems that pay income, and
resources well above what any one action costs (60 LP, 60 SP: enough to pay the core's dearest
actions several times a turn, and to convert the full 20 SP). A probe may start with a
*prelude* of actions: in one, White breaks Black's Gem in its first Upkeep, so that Black must
repair while White's cards act; in another, Black breaks White's, so that White repairs with its
own cards in play.

Besides the moves it plays, the explorer sweeps each state it reaches over the finite space of
situations the cards' conditions can tell apart (the acting piece's kind, the attacked piece's
kind, the distances its moves and attacks can span, the camps of both squares), asking the
same functions replay asks at a concrete action (:func:`~sgcheck.core.cards.semantics.cost_shares`
and :func:`~sgcheck.core.cards.semantics.attack_cards`). A situation is only ever one the core
allows: a King steps 1 square, a Knight jumps once or twice, a Pawn attacks at distance 1, the
sliding pieces reach 1 to 7 squares; distances a condition names are taken at their edges.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, replace

from sgcheck.core import caps
from sgcheck.core.actions import Action, Break, EndTurn
from sgcheck.core.cards.attack_parts import attack_part
from sgcheck.core.cards.model import Card, DamageModifier, DistanceIs, Effect, InCamp, PieceIs, ResourceIs, Side
from sgcheck.core.cards.parts import CostKind, Role
from sgcheck.core.cards.semantics import AttackCards, Share, Situation, cost_shares, parts_on_attack
from sgcheck.core.cards.table import CardsByName, Lasting, ply
from sgcheck.core.cards.table import new_cards as deal
from sgcheck.core.formulas import attack_cost, below_zero_alone, hit_threshold, move_cost
from sgcheck.core.pieces import BLACK, NON_KING_KINDS, PIECE_VALUES, WHITE, Color, Kind, piece
from sgcheck.core.play.victory import scenario_start
from sgcheck.core.record import pickle_by_fields
from sgcheck.core.ruleset import CORE, Ruleset
from sgcheck.core.scenario import Scenario, SideSetup
from sgcheck.core.squares import Square, in_camp, parse_square
from sgcheck.core.state import GameState, initial_state
from sgcheck.diagnostics import Span

#: Resources of both sides in every probe (see the module's docstring).
PROBE_LP = 60
PROBE_SP = 60


def _side(spec: str, captured: tuple[int, int, int, int, int]) -> SideSetup:
    pieces = tuple((parse_square(word[1:]), Kind.from_letter(word[0])) for word in spec.split())
    return SideSetup(lp=PROBE_LP, sp=PROBE_SP, captured=captured, pieces=pieces)


#: Both armies face each other: White's Queen, Rook, Knight and Pawn each have a target, a Knight
#: can reach the enemy King and Black's Queen White's, and so on for Black; the Bishops can move in
#: and out of their camps. Each Gem holds an enemy Pawn and Knight (income 8 SP from a side's
#: second turn, R14).
_FIELD = Scenario(
    name="sgcheck probe: open field",
    sides=(
        _side("Kh2 Qd3 Ra4 Bc2 Nf3 Pg4", (1, 1, 0, 0, 0)),
        _side("Kh7 Qd6 Ra7 Be6 Ng6 Ph5", (1, 1, 0, 0, 0)),
    ),
    description="Both Kings and one piece of each kind a side, with attacks to make and room to move.",
)


@dataclass(frozen=True, slots=True)
class Probe:
    """A starting position for the explorer: a scenario and the actions played before the search."""

    name: str
    scenario: Scenario
    prelude: tuple[Action, ...] = ()


PROBES: tuple[Probe, ...] = (
    Probe("open field", _FIELD),
    # White breaks Black's Gem at once: Black's Repair, and the effects that deny or price it, come into play
    Probe("Black's Gem broken", _FIELD, (Break((6, 6, 6)),)),
    # White passes its first turn and Black breaks White's Gem: the holder's own Repair, with its
    # own cards (discounts, extra attempts, conditions on a broken Gem)
    Probe("White's Gem broken", _FIELD, (EndTurn(), Break((6, 6, 6)))),
)


def probes_for(cards: tuple[Card, ...], scenario: Scenario | None = None) -> tuple[Probe, ...]:
    """:data:`PROBES`, and the open field with both sides' LP and SP at each level a card's
    resource condition compares with (just below, at, and just above it); and the position of the
    pack's own ``scenario`` (R24), where its games start, when it places both Kings (its win
    conditions and turn limit left out: a probe wins nothing)."""
    levels: set[int] = set()
    for card in cards:
        for effect in card.effects:
            for p in effect.condition.predicates if effect.condition is not None else ():
                if isinstance(p, ResourceIs):
                    levels.update(v for v in (p.value - 1, p.value, p.value + 1) if v >= 0)
    extra = []
    for level in sorted(levels):
        if level == PROBE_SP:
            continue
        sides = tuple(
            SideSetup(lp=max(level, 1), sp=level, captured=side.captured, pieces=side.pieces) for side in _FIELD.sides
        )
        leveled = Scenario(
            name=f"sgcheck probe: open field, {level} LP and SP",
            sides=(sides[0], sides[1]),
            description=_FIELD.description,
        )
        extra.append(Probe(f"open field at {level} LP and SP", leveled))
    if scenario is not None and all(scenario.side(color).king is not None for color in (WHITE, BLACK)):
        position = replace(scenario, conditions=(), turn_limit=None, core_victory=True)
        extra.append(Probe(f"the pack's scenario '{scenario.name}'", position))
    return (*PROBES, *extra)


def start(
    probe: Probe, cards: tuple[Card, ...], hands: tuple[tuple[str, ...], tuple[str, ...]], ruleset: Ruleset = CORE
) -> GameState:
    """The probe's position with the cards dealt, before its prelude (as a proof log starts)."""
    white = probe.scenario.side(WHITE).king
    black = probe.scenario.side(BLACK).king
    assert white is not None and black is not None
    state = initial_state(white, black, ruleset, probe.scenario)
    state = scenario_start(state.replace(cards=deal(CardsByName(cards), *hands)))
    # a probe sets up the position and wins nothing: with no win condition of its own, the game
    # goes on exactly as without a scenario, and the engine has nothing to remember for it
    assert not probe.scenario.conditions and probe.scenario.turn_limit is None
    return state.replace(scenario=None)


# --- situations -----------------------------------------------------------------------------------

#: A square in each camp for each side, and how far the pieces of each kind can act.
_OWN_SQUARE = {WHITE: parse_square("d2"), BLACK: parse_square("d7")}
_ENEMY_SQUARE = {WHITE: parse_square("d6"), BLACK: parse_square("d3")}
MOVE_REACH: dict[Kind, tuple[int, ...]] = {
    Kind.KING: (1,),
    Kind.KNIGHT: (1, 2),
    Kind.PAWN: (1, 2),
    Kind.BISHOP: tuple(range(1, 8)),
    Kind.ROOK: tuple(range(1, 8)),
    Kind.QUEEN: tuple(range(1, 8)),
}
ATTACK_REACH: dict[Kind, tuple[int, ...]] = {**MOVE_REACH, Kind.PAWN: (1,)}


def _distances(reach: tuple[int, ...], edges: frozenset[int]) -> tuple[int, ...]:
    """The distances worth trying: the ends of the reach and each side of a distance a condition names."""
    wanted = {reach[0], reach[-1]}
    for value in edges:
        wanted.update((value - 1, value, value + 1))
    return tuple(sorted(d for d in wanted if d in reach))


def _squares(actor: Color, camps: bool) -> tuple[tuple[Square, Square], ...]:
    own, enemy = _OWN_SQUARE[actor], _ENEMY_SQUARE[actor]
    if not camps:
        return ((own, enemy),)
    return ((own, own), (own, enemy), (enemy, enemy), (enemy, own))


@dataclass(frozen=True, slots=True)
class Swept:
    """A situation in which the cards break a cap or a floor, with each card's share."""

    # "negative-cost" (one card alone takes a cost below 0), "negative-cost-stacked" (only several
    # together), "cap" (one card alone past a cap), "caps-stacked" (several together),
    # "king-fogged" (maluses that hold every unboosted attack on a King at the 5 floor),
    # "king-immune" (reductions on a King that leave no hit any damage), "priced-out" and
    # "steep-price" (what the opponent's cards add to the cheapest action of a kind)
    kind: str
    what: str  # "to-hit", "damage", "reroll", or the action whose cost falls below 0
    total: int
    limit: int
    shares: tuple[Share, ...]
    situation: str

    @property
    def cards(self) -> tuple[str, ...]:
        """The cards of the shares (a doubling or halving share is named after its card)."""
        return tuple(dict.fromkeys(_card_of(s) for s in self.shares))


def _edges(state: GameState) -> tuple[frozenset[int], bool]:
    cards = state.cards
    assert cards is not None
    values: set[int] = set()
    camps = False
    for item in cards.lasting:
        condition = item.effect.condition
        if condition is None:
            continue
        for p in condition.predicates:
            if isinstance(p, DistanceIs):
                values.add(p.value)
            elif isinstance(p, InCamp):
                camps = True
    return frozenset(values), camps


def _reads_target(lasting: tuple[Lasting, ...]) -> bool:
    """Whether a condition of the effects acting reads the attacked piece."""
    return any(
        isinstance(p, PieceIs) and p.role is Role.TARGET
        for item in lasting
        if item.effect.condition is not None
        for p in item.effect.condition.predicates
    )


def _where(actor: Color, frm: Square, to: Square, camps: bool) -> str:
    if not camps:
        return ""
    side = {True: "own camp", False: "enemy camp"}
    return f", from its {side[in_camp(frm, actor)]} to its {side[in_camp(to, actor)]}"


def sweep_key(state: GameState) -> object:
    """What :func:`sweep` depends on: the effects acting for the mover, the Gems, and the resources
    only where a condition reads them."""
    cards = state.cards
    if cards is None:
        return None
    actor = state.to_move
    lasting = cards.acting(actor, ply(state.turn_number, actor))
    effects = tuple((id(item.effect), item.owner) for item in lasting)
    reads = any(
        isinstance(p, ResourceIs)
        for item in lasting
        if item.effect.condition is not None
        for p in item.effect.condition.predicates
    )
    players = state.players
    resources = tuple((p.lp, p.sp) for p in players) if reads else ()
    return (effects, actor, players[0].gem_broken, players[1].gem_broken, resources, state.ruleset)


def sweep(state: GameState) -> Iterator[Swept]:
    """The caps and floors the cards acting for the mover break in some situation, in this state."""
    cards = state.cards
    if cards is None or not cards.lasting:
        return
    actor = state.to_move
    lasting = cards.acting(actor, ply(state.turn_number, actor))
    if not lasting:
        return
    edges, camps = _edges(state)
    ruleset = state.ruleset
    if cards.lasting_index.costs:
        yield from _cost_floors(state, lasting, actor, edges, camps, ruleset)
    if cards.lasting_index.attacking[actor]:
        yield from _attack_caps(state, lasting, actor, edges, camps, ruleset)


def _cost_floors(
    state: GameState, lasting: tuple[Lasting, ...], actor: Color, edges: frozenset[int], camps: bool, ruleset: Ruleset
) -> Iterator[Swept]:
    found: set[tuple[str, tuple[Share, ...]]] = set()
    theirs = {item.card for item in lasting if item.owner is not actor}
    # the least the opponent's cards add to each kind of action, over every situation, with it
    cheapest: dict[str, tuple[int, tuple[Share, ...], str]] = {}

    def judge(what: str, base: int, kind: CostKind, at: Situation, text: str) -> Iterator[Swept]:
        shares = cost_shares(lasting, state, kind, at, base)
        added = tuple(s for s in shares if s.amount > 0 and _card_of(s) in theirs)
        surcharge = sum(s.amount for s in added)
        if what not in cheapest or surcharge < cheapest[what][0]:
            cheapest[what] = (surcharge, added, text)
        if not shares:
            return
        raw = base + sum(s.amount for s in shares)
        if raw < 0 and (what, shares) not in found:
            found.add((what, shares))
            # only several cards together: clamped at 0 (R23), the warning, as caps passed together are
            stacked = not below_zero_alone(base, shares)
            yield Swept("negative-cost-stacked" if stacked else "negative-cost", what, raw, 0, shares, text)

    for kind, reach in MOVE_REACH.items():
        if kind is Kind.KING and ruleset.king_value is not None:
            continue
        for distance in _distances(reach, edges):
            base = move_cost(kind, distance, ruleset).value
            for frm, to in _squares(actor, camps):
                at = Situation(actor, kind, None, distance, frm, to)
                text = f"a {kind.title} moving {distance} square(s){_where(actor, frm, to, camps)}, core cost {base}"
                yield from judge("move", base, CostKind.MOVE, at, text)
    # an attack always has a target: each kind when a condition reads it (``when target is Knight``)
    victims: tuple[Kind | None, ...] = tuple(Kind) if _reads_target(lasting) else (None,)
    for kind in NON_KING_KINDS:
        for distance in _distances(ATTACK_REACH[kind], edges):
            base = attack_cost(kind, distance, ruleset).value
            for frm, to in _squares(actor, camps):
                for victim in victims:
                    at = Situation(actor, kind, victim, distance, frm, to)
                    on = f" a {victim.title}" if victim is not None else ""
                    text = (
                        f"a {kind.title} attacking{on} at distance {distance}{_where(actor, frm, to, camps)}, "
                        f"core cost {base}"
                    )
                    yield from judge("attack", base, CostKind.ATTACK, at, text)
        base = PIECE_VALUES[kind] + caps.SUMMON_BASE_COST
        for what, cost_kind in (("summon", CostKind.SUMMON), ("teleport", CostKind.TELEPORT)):
            for _, to in _squares(actor, camps):
                at = Situation(actor, kind, None, None, None, to)
                text = f"a {kind.title} {what}ed onto its starting square, core cost {base}"
                yield from judge(what, base, cost_kind, at, text)
    for what, cost_kind, base in (
        ("break", CostKind.BREAK, caps.BREAK_COST),
        ("repair", CostKind.REPAIR, caps.REPAIR_COST),
    ):
        yield from judge(what, base, cost_kind, Situation(actor), f"a {what.title()} attempt, core cost {base}")
    for what, (surcharge, added, text) in cheapest.items():
        if surcharge >= PRICED_OUT:
            yield Swept("priced-out", what, surcharge, PRICED_OUT, added, text)
        elif surcharge > STEEP_PRICE:
            yield Swept("steep-price", what, surcharge, STEEP_PRICE, added, text)


#: Readings of core §8 for prices the opponent's cards add (docs/contract-rules.md): a surcharge
#: past the 1,000 LP that win the game (core §7) is one no player can pay, so the action, and the
#: phase it is taken in, are gone in all but name; one past the 20 LP a side starts with (core §1)
#: is steep, a judgment call reported as a warning.
PRICED_OUT = caps.LP_VICTORY
STEEP_PRICE = caps.START_LP


def _card_of(share: Share) -> str:
    return share.card.removesuffix(" doubling").removesuffix(" halving")


#: The most one hit can deal: 1, and the +2 per hit cap (core §4.3, §4.5).
_FULL_HIT = caps.DAMAGE_PER_HIT + caps.DAMAGE_BONUS_CAP

_NOWHERE = Span("sgcheck probe", 0, 0, 0, 0)
_BOOSTS = {
    color: Lasting(
        "the attacker's cards at the +2 cap",
        color,
        -1,
        Effect(DamageModifier(caps.DAMAGE_BONUS_CAP, Side.OWN, _NOWHERE), _NOWHERE),
    )
    for color in Color
}


def _boost(actor: Color) -> Lasting:
    """A damage bonus of +2 for ``actor``: a hit boosted as far as the caps allow (core §4.5)."""
    return _BOOSTS[actor]


_CAPS = (("to-hit", caps.TO_HIT_BONUS_CAP), ("damage", caps.DAMAGE_BONUS_CAP), ("reroll", caps.REROLL_SOURCES_CAP))


def _parts(on_attack: AttackCards, what: str) -> tuple[Share, ...]:
    if what == "to-hit":
        return on_attack.to_hit
    if what == "damage":
        return on_attack.damage
    return tuple(Share(card, 1) for card, _ in on_attack.rerolls)


def _attack_caps(
    state: GameState, lasting: tuple[Lasting, ...], actor: Color, edges: frozenset[int], camps: bool, ruleset: Ruleset
) -> Iterator[Swept]:
    found: set[tuple[str, tuple[str, ...]]] = set()
    attackers = [*NON_KING_KINDS, *((Kind.KING,) if ruleset.king_value is not None else ())]
    # the to-hit maluses on attacks against the King, in every situation: None once one attack on
    # it without a bonus stays above the 5 floor (the King is then in reach)
    fog: list[tuple[int, int, tuple[Share, ...], str]] | None = []
    # each effect's part in an attack, worked out once for the whole sweep (attack_cards would work
    # it out again for every situation)
    entries = [(item, part) for item in lasting if (part := attack_part(item.effect)) is not None]
    boost = _boost(actor)
    boosted_entries = [*entries, (boost, attack_part(boost.effect))]
    for kind in attackers:
        reach = ATTACK_REACH.get(kind, (1,))
        for target in Kind:
            victim = piece(actor.other, target)
            for distance in _distances(reach, edges):
                for frm, to in _squares(actor, camps):
                    at = Situation(actor, kind, target, distance, frm, to)
                    on_attack = parts_on_attack(entries, state, at, victim)
                    if target is Kind.KING and fog is not None:
                        fog = _fogged(fog, kind, distance, on_attack, ruleset)
                    if target is Kind.KING and on_attack.reduction and ("king", ()) not in found:
                        boosted = parts_on_attack(boosted_entries, state, at, victim)
                        if boosted.hit_damage() == 0:
                            found.add(("king", ()))
                            text = f"a {kind.title} attacking the King at distance {distance}"
                            malus = tuple(s for s in boosted.damage if s.amount < 0)
                            yield Swept(
                                "king-immune",
                                "reduction",
                                boosted.reduced - sum(s.amount for s in malus),
                                _FULL_HIT,
                                (*boosted.reduction, *malus),
                                text,
                            )
                    if not (on_attack.to_hit or on_attack.damage or on_attack.rerolls):
                        continue
                    for what, cap in _CAPS:
                        shares = _parts(on_attack, what)
                        total = sum(s.amount for s in shares)
                        if total <= cap:
                            continue
                        by_card: dict[str, int] = {}
                        for s in shares:
                            by_card[s.card] = by_card.get(s.card, 0) + s.amount
                        alone = [card for card, amount in by_card.items() if amount > cap]
                        kind_of = "cap" if alone else "caps-stacked"
                        named = tuple(alone) if alone else tuple(by_card)
                        if (what, named) in found:
                            continue
                        found.add((what, named))
                        text = (
                            f"a {kind.title} attacking a {target.title} at distance {distance}"
                            f"{_where(actor, frm, to, camps)}"
                        )
                        kept = tuple(s for s in shares if s.card in named)
                        yield Swept(kind_of, what, sum(s.amount for s in kept), cap, kept, text)
    if fog:
        _, lowered, lowering, mildest = max(fog)  # the most an attack would have: every other is worse
        yield Swept("king-fogged", "to-hit", lowered, caps.MIN_TO_HIT, lowering, mildest)


def _fogged(
    fog: list[tuple[int, int, tuple[Share, ...], str]],
    kind: Kind,
    distance: int,
    on_attack: AttackCards,
    ruleset: Ruleset,
) -> list[tuple[int, int, tuple[Share, ...], str]] | None:
    """``fog`` with this attack on the King: None when the attack, without a bonus, stays above the 5
    floor with the cards' maluses (core §4.4, R10), as SG-C090 reads an unboosted hit."""
    malus = tuple(s for s in on_attack.to_hit if s.amount < 0)
    total = sum(s.amount for s in malus)
    if not malus or hit_threshold(kind, Kind.KING, ruleset, total).value > caps.MIN_TO_HIT:
        return None
    unboosted = hit_threshold(kind, Kind.KING, ruleset).value
    text = f"a {kind.title} attacking the King at distance {distance}, {unboosted} without the cards"
    return [*fog, (unboosted + total, total, malus, text)]


pickle_by_fields(globals())
