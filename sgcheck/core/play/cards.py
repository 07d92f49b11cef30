"""Cards in play: playing a card from hand, using an activated Relic, triggers, extra actions (R17, R19, R22, R23).

The rules here read cards as data (:mod:`sgcheck.core.cards.semantics` says what each effect
means); no card is known by name. A game without a pack (``state.cards is None``) keeps the
card-free meaning of ``activate``: the activation is counted and the stated payment applied.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import replace
from typing import assert_never

from sgcheck.core import caps
from sgcheck.core.actions import Activate, Part, Play
from sgcheck.core.cards.catalog import is_lasting
from sgcheck.core.cards.model import (
    CapturePiece,
    Card,
    CardKind,
    ConvertPiece,
    ConvertResource,
    Cost,
    CostKind,
    CostModifier,
    DamageModifier,
    DamageReduction,
    DealDamage,
    DenyRepair,
    Effect,
    Event,
    ExtraAction,
    ExtraKind,
    ExtraPhase,
    ExtraTurn,
    Mode,
    Reroll,
    Resource,
    ResourceChange,
    SetParameter,
    Side,
    SkipPhase,
    Steal,
    SwapPhases,
    Target,
    ToHitModifier,
)
from sgcheck.core.cards.semantics import (
    Situation,
    amount,
    cost_shares,
    forbidden_in,
    holds,
    starts,
    targets,
    until,
)
from sgcheck.core.cards.table import GAIN_LOSE, CardsState, InPlay, Lasting, ply
from sgcheck.core.formulas import Worked, value_of
from sgcheck.core.outcome import Applied, Effects, Violation
from sgcheck.core.pieces import KING, Color, Phase, Piece
from sgcheck.core.play.predicates import charge, resolve_payment, violation
from sgcheck.core.squares import Square, name
from sgcheck.core.state import GameState, Payment, PlayerState
from sgcheck.core.windows import EXTRA_WINDOWS, card_window
from sgcheck.diagnostics import listing

_PLAY_RULES = ("core §0", "R22")
_DIRECT = (DealDamage, CapturePiece, ConvertPiece)  # effects that act on one piece, named with ``on``


# --- shared checks ----------------------------------------------------------------------------------


def _activation_limit(state: GameState) -> Violation | None:
    if state.turn.activations >= caps.ACTIVATIONS_PER_TURN:
        return violation(
            "SG-T105",
            f"at most {caps.ACTIVATIONS_PER_TURN} card activations are allowed per turn "
            f"(this would be activation {state.turn.activations + 1})",
            rules=("core §0", "R17", "R22"),
        )
    return None


def _phase(state: GameState, card: Card, verb: str) -> Violation | None:
    allowed = card_window(card)
    if state.turn.phase in allowed:
        return None
    where = " or ".join(p.title for p in allowed)
    return violation(
        "SG-R121",
        f"{card.name!r} is {verb} in {where}, not in {state.turn.phase.title}",
        rules=("core §2", "R22"),
    )


def _forbidden(card: Card) -> Violation | None:
    found = forbidden_in(card)
    if found is None:
        return None
    code, why = found
    return violation(
        "SG-R123",
        f"{card.name!r} cannot be played: {why}; `sgcheck check` reports it as {code}",
        rules=("core §8", "R19", "R23"),
    )


def acts_on(card: Card, *, use: bool = False) -> tuple[Target, ...]:
    """What the effects of ``card`` that act on one piece, named with ``on``, may be aimed at when it
    is played from hand (a Spell, a passive Relic) or, with ``use``, when an activated Relic is used
    (R22): the effects without a trigger (a trigger's effect finds its own pieces, and an activated
    Relic's effects act on its uses, not on its play)."""
    if not use and card.kind is not CardKind.SPELL and card.mode is not Mode.PASSIVE:
        return ()
    return tuple(e.action.target for e in card.effects if e.trigger is None and isinstance(e.action, _DIRECT))


def _target(
    state: GameState, card: Card, aims: tuple[Target, ...], sq: Square | None, kind: object
) -> Violation | None:
    """A card that acts on a piece names it with ``on``; one that does not takes no target (R22)."""
    if not aims:
        if sq is None:
            return None
        return violation("SG-R124", f"{card.name!r} acts on no piece; remove `on {name(sq)}`", Part.TARGET)
    if sq is None:
        return violation(
            "SG-R124", f"{card.name!r} acts on a piece: name it with `on`, e.g. `on Rb7`", Part.TARGET, _PLAY_RULES
        )
    victim = state.board[sq]
    if victim is None:
        return violation("SG-R124", f"there is no piece on {name(sq)} for {card.name!r}", Part.TARGET)
    if kind is not None and victim.kind is not kind:
        return violation("SG-R124", f"{name(sq)} holds a {victim}, not a {kind}", Part.TARGET)
    for aim in aims:
        if not targets(aim, state.to_move, victim):
            return violation(
                "SG-R124",
                f"{card.name!r} acts on {aim.word}, not on the {victim} on {name(sq)}",
                Part.TARGET,
                _PLAY_RULES,
            )
    return None


def printed_cost(card: Card) -> Worked:
    total = 0 if card.cost is None else card.cost.total
    text = "no cost" if card.cost is None else " + ".join(_cost_item(i.amount, i.resource) for i in card.cost.items)
    return Worked(total, "{}, printed on the card", text, rules=("core §0", "R05", "R22"))


def _cost_item(value: int, resource: Resource | None) -> str:
    return f"{value} {resource.value}" if resource is not None else f"{value} (LP or SP)"


def _pay(state: GameState, card: Card, pay: Payment | None) -> Payment | Violation:
    """A card's cost is paid in full when it is played (R23): SP items in SP, LP items in LP, the rest as stated."""
    cost = printed_cost(card)
    return pay_cost(state, card.cost, cost, pay, f"card {card.name!r}")


def split_price(price: Cost, player: PlayerState) -> Payment:
    """How a card's price is paid when the log does not say: SP items in SP, LP items in LP,
    the rest SP first (R05). The result may be more than the player has; callers check."""
    sp_part, lp_part = price.of(Resource.SP), price.of(Resource.LP)
    free = price.total - sp_part - lp_part
    sp = sp_part + min(free, max(0, player.sp - sp_part))
    return Payment(sp, price.total - sp)


def pay_cost(
    state: GameState, cost: Cost | None, worked: Worked, pay: Payment | None, what: str
) -> Payment | Violation:
    if cost is None:
        return Payment(0, 0)
    sp_part, lp_part = cost.of(Resource.SP), cost.of(Resource.LP)
    paid = resolve_payment(state, worked, pay, what) if pay is not None else None
    if isinstance(paid, Violation):
        return paid
    player = state.mover
    if paid is None:
        paid = split_price(cost, player)
    if paid.sp < sp_part or paid.lp < lp_part:
        least = " and ".join(f"{n} {r}" for n, r in ((sp_part, "SP"), (lp_part, "LP")) if n)
        return violation("SG-R115", f"the {what} costs {worked.detail}: pay at least {least} of it", Part.PAY)
    if paid.sp > player.sp or paid.lp > player.lp:
        return violation(
            "SG-R106",
            f"the {what} costs {worked.value} ({worked.detail}) but the player has only LP {player.lp}, SP {player.sp}",
        )
    return paid


# --- playing a card from hand -----------------------------------------------------------------------


def apply_play(state: GameState, action: Play) -> Applied | Violation:
    """A Spell cast or a Relic put into play: one activation and one action, its cost paid (R22)."""
    cards = state.cards
    if cards is None:
        return _unknown_card(state, action.card, action.pay)
    me = state.to_move
    if action.card not in cards.hand(me) or action.card not in cards.by_name:
        return _not_in_hand(cards, me, action.card)
    card = cards.by_name[action.card]
    verb = "cast" if card.kind is CardKind.SPELL else "put into play"
    for check in (_phase(state, card, verb), _activation_limit(state), _forbidden(card)):
        if check is not None:
            return check
    aims = acts_on(card)
    if (v := _target(state, card, aims, action.target, action.target_kind)) is not None:
        return v
    paid = _pay(state, card, action.pay)
    if isinstance(paid, Violation):
        return paid
    before = state.mover
    state = charge(state, paid)
    state = state.with_turn(state.turn.replace(activations=state.turn.activations + 1))
    now = ply(state.turn_number, me)
    order = cards.entered
    cards = cards.with_hand(me, tuple(c for c in cards.hand(me) if c != card.name)).replace(entered=order + 1)
    relic = card.kind is CardKind.RELIC
    if relic:
        cards = cards.replace(in_play=(*cards.in_play, InPlay(card.name, me, order)))
    else:
        cards = cards.discard(me, card.name)
    state = state.replace(cards=cards)
    acting = card.effects if (not relic or card.mode is Mode.PASSIVE) else tuple(e for e in card.effects if e.trigger)
    board = state.board
    state, damage = _resolve(state, card, me, order, acting, action.target, now, relic=relic)
    captured = _taken(board, state, action.target)
    return Applied(state, _card_effects(printed_cost(card), paid, before, state.players[me], damage, captured))


def _unknown_card(state: GameState, card: str, pay: Payment | None) -> Applied | Violation:
    """Without a pack only the activation is counted and the stated payment applied (R17)."""
    if (v := _activation_limit(state)) is not None:
        return v
    stated = Worked(pay.total if pay else 0, "as stated", rules=("core §0", "R05", "R17"))
    if pay is not None:
        paid = resolve_payment(state, stated, pay, f"card {card!r}")
        if isinstance(paid, Violation):
            return paid
    state = charge(state, pay or Payment(0, 0))
    state = state.with_turn(state.turn.replace(activations=state.turn.activations + 1))
    return Applied(state, Effects(cost_worked=stated if pay else None, paid=pay))


def _not_in_hand(cards: CardsState, me: Color, card: str) -> Violation:
    if card not in cards.by_name:
        why = f"the game's pack has no such card (it has {listing(cards.by_name)})"
    elif card in cards.discarded[me] or cards.relic(me, card) is not None:
        why = "it was already played, and a card is played from hand only once"
    elif card in cards.hand(me.other):
        why = f"{me.other.title} kept it in the draft, not {me.title}"
    else:
        why = f"{me.title} did not keep it in the draft"
    held = listing(cards.hand(me), none="nothing")
    return violation("SG-R120", f"{me.title} cannot play {card!r}: {why}; the hand holds {held}", rules=("R19", "R22"))


# --- using an activated Relic -------------------------------------------------------------------------


def apply_use(state: GameState, action: Activate) -> Applied | Violation:
    """One use of an activated Relic in play: one activation (R17, R22); its printed cost was paid on play."""
    cards = state.cards
    if cards is None:
        return _unknown_card(state, action.card, action.pay)
    me = state.to_move
    relic = cards.relic(me, action.card)
    card = cards.by_name.get(action.card)
    if relic is None or card is None or card.mode is not Mode.ACTIVATED:
        return _not_usable(cards, me, action.card, card)
    for check in (_phase(state, card, "used"), _activation_limit(state), _limit(state, card, relic)):
        if check is not None:
            return check
    aims = acts_on(card, use=True)
    if (v := _target(state, card, aims, action.target, action.target_kind)) is not None:
        return v
    now = ply(state.turn_number, me)
    used = relic.replace(
        uses_turn=(relic.uses_turn + 1 if relic.used_in == now else 1), used_in=now, uses_game=relic.uses_game + 1
    )
    cards = cards.replace(in_play=tuple(used if r is relic else r for r in cards.in_play))
    before = state.mover
    state = charge(state, Payment(0, 0)).replace(cards=cards)
    state = state.with_turn(state.turn.replace(activations=state.turn.activations + 1))
    # the card's ``limit`` counts its uses (above): what a use starts then acts freely for its duration
    acting = tuple(e if e.limit is None else replace(e, limit=None) for e in card.effects if e.trigger is None)
    board = state.board
    state, damage = _resolve(state, card, me, relic.order, acting, action.target, now, relic=False)
    free = Worked(0, "paid when {!r} was played", card.name, rules=("R17", "R22"))
    captured = _taken(board, state, action.target)
    return Applied(state, _card_effects(free, Payment(0, 0), before, state.players[me], damage, captured))


def _taken(board: tuple[Piece | None, ...], state: GameState, target: Square | None) -> Piece | None:
    """The piece a card took off the board, for the ``capture`` claim."""
    if target is None or board[target] is None or state.board[target] is not None:
        return None
    return board[target]


def _not_usable(cards: CardsState, me: Color, name_: str, card: Card | None) -> Violation:
    if card is None:
        why = "the game's pack has no such card"
    elif card.kind is CardKind.SPELL:
        why = "it is a Spell: cast it from hand with `play`"
    elif card.mode is Mode.PASSIVE:
        why = "it is passive: its effects apply by themselves while it is in play"
    elif name_ in cards.hand(me):
        why = "it is still in hand: put it into play with `play` first"
    else:
        why = f"{me.title} has no {name_!r} in play"
    return violation("SG-R122", f"cannot activate {name_!r}: {why}", rules=("R17", "R22"))


def _limit(state: GameState, card: Card, relic: InPlay) -> Violation | None:
    now = ply(state.turn_number, state.to_move)
    for effect in card.effects:
        limit = effect.limit
        if limit is None:
            continue
        used = relic.uses_game if limit.period.value == "game" else (relic.uses_turn if relic.used_in == now else 0)
        if used >= limit.times:
            return violation(
                "SG-R126",
                f"{card.name!r} may be used {limit.times} time{'s' if limit.times != 1 else ''} per "
                f"{limit.period.value}; this would be use {used + 1}",
                rules=("R22", "R23"),
            )
    return None


# --- resolving effects ------------------------------------------------------------------------------------


def _card_effects(
    cost: Worked,
    paid: Payment,
    before: PlayerState,
    after: PlayerState,
    damage: int | None,
    captured: Piece | None = None,
) -> Effects:
    """What a card play or use did for its player: net gains past the price paid (the ``gain`` claim)."""
    sp = after.sp - (before.sp - paid.sp)
    lp = after.lp - (before.lp - paid.lp)
    return Effects(
        cost_worked=cost, paid=paid, sp_gained=max(0, sp), lp_gained=max(0, lp), damage=damage, captured=captured
    )


def enter_play(state: GameState, card: Card, owner: Color, order: int, now: int) -> GameState:
    """``card`` acts for ``owner`` as a passive Relic in play from ply ``now`` (a market's card, R26)."""
    state, _ = _resolve(state, card, owner, order, card.effects, None, now, relic=True)
    return state


def _resolve(
    state: GameState,
    card: Card,
    owner: Color,
    order: int,
    effects: tuple[Effect, ...],
    target: Square | None,
    now: int,
    *,
    relic: bool,
) -> tuple[GameState, int | None]:
    """Act out ``effects`` of ``card``: one-off ones now, the others as lasting effects (R23).

    A one-off acts only when its condition holds as it acts, after the card's earlier effects
    (``gain 40 SP when enemy LP < 20`` gains nothing against 20 LP); the piece named with ``on``
    is its ``target``. A lasting effect reads its condition each time it would act.
    """
    damage: int | None = None
    for effect in effects:
        if effect.trigger is not None or is_lasting(effect.action):
            state = _enter(state, Lasting(card.name, owner, order, effect), now, relic=relic)
            continue
        if not holds(effect.condition, owner, state, _aimed(state, owner, target)):
            continue
        state, dealt = resolve_once(state, owner, effect, target)
        if dealt is not None:
            damage = (damage or 0) + dealt
    return state, damage


def _enter(state: GameState, item: Lasting, now: int, *, relic: bool) -> GameState:
    """``item`` starts to act for its duration: now, or from a later ply (``next turn``).

    A Relic's trigger waits as long as the Relic is in play, from now: its duration is that of
    what each firing starts (``at end: opponent cost repair +5 for 1 turn`` fires at every End).
    """
    cards = state.cards
    assert cards is not None
    if relic and item.effect.trigger is not None:
        return state.replace(cards=cards.with_lasting((*cards.lasting, item.replace(until=None))))
    # started in the opponent's turn (ruling CR4): ``now`` is a ply of Black's when it is odd
    theirs = (now % 2 == 1) is not (item.owner is Color.BLACK)
    last, attack_only = until(item.effect, now, relic=relic, theirs=theirs)
    item = item.replace(until=last, attack_only=attack_only)
    start = starts(item.effect, now)
    if start > now:
        return state.replace(cards=cards.later(start, item))
    return state.replace(cards=cards.with_lasting((*cards.lasting, item)))


def _aimed(state: GameState, owner: Color, target: Square | None) -> Situation | None:
    """The situation a one-off's condition is read in: the piece named with ``on`` is the ``target``."""
    if target is None:
        return None
    piece = state.board[target]
    return Situation(owner, None, piece.kind if piece is not None else None, None, None, target)


def resolve_once(state: GameState, owner: Color, effect: Effect, target: Square | None) -> tuple[GameState, int | None]:
    """A one-off effect: resources change hands, a piece takes damage or is taken (R23).

    An effect on a piece acts on the piece on ``target`` only when it is one the effect names
    (``on attacked: deal 1 damage to enemy Pawn`` never hits the holder's attacked piece).
    """
    action = effect.action
    if isinstance(action, _DIRECT) and target is not None:
        aimed = state.board[target]
        if aimed is None or not targets(action.target, owner, aimed):
            return state, None
    match action:
        case ResourceChange():
            side = owner if action.who is Side.OWN else owner.other
            n = amount(action.quantity, owner, state)
            return _change(state, side, action.quantity.resource, n if action.gain else -n), None
        case Steal():
            resource = action.quantity.resource
            n = amount(action.quantity, owner, state)
            victim = state.players[owner.other]
            taken = min(n, victim.sp if resource is Resource.SP else victim.lp)  # what there is (R23)
            state = _change(state, owner.other, resource, -taken)
            return _change(state, owner, resource, taken), None
        case ConvertResource():
            return _convert(state, owner, action), None
        case DealDamage():
            return (state, None) if target is None else _damage(state, owner, target, action.amount)
        case CapturePiece() | ConvertPiece():
            piece = state.board[target] if target is not None else None
            if target is None or piece is None:
                return state, None
            return _damage(state, owner, target, value_of(piece.kind, state.ruleset))
        case (
            CostModifier()
            | ToHitModifier()
            | DamageModifier()
            | DamageReduction()
            | Reroll()
            | ExtraAction()
            | DenyRepair()
            | ExtraPhase()
            | ExtraTurn()
            | SkipPhase()
            | SwapPhases()
            | SetParameter()
        ):
            return state, None  # lasting (entered, not resolved) or refused before play (SG-R123)
        case _:
            assert_never(action)


def _convert(state: GameState, owner: Color, action: ConvertResource) -> GameState:
    """A card's conversion, done once if the holder has what it gives. SP into LP is the
    conversion of core §2: it counts toward the 20 SP a turn and is not done past them (R16);
    a rate other than the core's is refused before this (SG-C020)."""
    player = state.players[owner]
    have = player.sp if action.give_resource is Resource.SP else player.lp
    if have < action.give:
        return state
    if action.is_conversion:
        if owner is not state.to_move or state.turn.converted_sp + action.give > caps.CONVERSION_CAP_SP:
            return state
        state = state.with_turn(state.turn.replace(converted_sp=state.turn.converted_sp + action.give))
    state = _change(state, owner, action.give_resource, -action.give)
    return _change(state, owner, action.get_resource, action.get)


def _change(state: GameState, side: Color, resource: Resource, delta: int) -> GameState:
    """Add ``delta`` of a resource; what is taken stops at 0 (R23)."""
    player = state.players[side]
    if resource is Resource.SP:
        player = player.with_funds(player.lp, max(0, player.sp + delta))
    else:
        player = player.with_funds(max(0, player.lp + delta), player.sp)
    return state.with_player(side, player)


def _damage(state: GameState, owner: Color, sq: Square, dealt: int) -> tuple[GameState, int]:
    """Damage to a piece other than a King: it adds to the turn's damage and captures at its value (R11, R23)."""
    victim = state.board[sq]
    if victim is None or victim.kind is KING:
        return state, 0
    turn = state.turn
    total = turn.damage_on(sq) + dealt
    others = tuple((s, d) for s, d in turn.damage if s != sq)
    value = value_of(victim.kind, state.ruleset)
    if total < value:
        return state.with_turn(turn.with_damage((*others, (sq, total)))), dealt
    taker = state.players[owner]
    gem = list(taker.gem)
    gem[victim.index] += 1
    reward = 0 if taker.gem_broken else caps.CAPTURE_SP_PER_VALUE * value
    board = list(state.board)
    board[sq] = None
    state = state.with_player(owner, taker.with_gem(tuple(gem), taker.sp + reward))
    return state.with_board(tuple(board)).with_turn(turn.with_damage(others)), dealt


# --- triggers ---------------------------------------------------------------------------------------------


def fire(
    state: GameState,
    event: Event,
    holder: Color,
    at: Situation | None = None,
    phase: Phase | None = None,
    *,
    fired: set[tuple[str, Color, int]] | None = None,
) -> GameState:
    """Fire every lasting trigger waiting for ``event`` on ``holder``'s side, in the order of R23.

    Each triggered effect of a card fires at most once per event, after the event has resolved
    (``fired`` holds those that already fired for it, when one event is fired in several rounds:
    the card, its holder and which of its effects); a card with two effects on one trigger
    (``at main2: lose 10 SP`` and ``at main2: gain 5 LP``) does both; a
    trigger whose ``pay`` cannot be paid in full does not fire. On-hit damage to the attacked
    piece is part of the attack (it counts toward the +2 per hit) and is not fired here.
    """
    cards = state.cards
    if cards is None or event not in cards.lasting_index.events:
        return state
    now = ply(state.turn_number, state.to_move)
    if fired is None:
        fired = set()
    for item in cards.ordered(state.to_move):
        trigger = item.effect.trigger
        if trigger is None or trigger.event is not event or item.owner is not holder:
            continue
        if event is Event.PHASE and (trigger.phase is None or phase not in trigger.phase.phases):
            continue
        if event is Event.HIT and isinstance(item.effect.action, DealDamage):
            continue
        key = (item.card, item.owner, id(item.effect))
        if key in fired or not item.may_fire(now):
            continue
        if not holds(item.effect.condition, item.owner, state, at):
            continue
        if trigger.pay is not None:
            # the price is paid in full or the trigger does not fire (R23): SP items in SP, LP
            # items in LP, the rest SP first
            payer = state.players[holder]
            price = split_price(trigger.pay, payer)
            if price.sp > payer.sp or price.lp > payer.lp:
                continue
            state = state.with_player(holder, payer.with_funds(payer.lp - price.lp, payer.sp - price.sp))
            priced = state.cards
            assert priced is not None
            state = state.replace(cards=priced.priced(holder, price.sp, price.lp))
        fired.add(key)
        current = state.cards
        assert current is not None
        state = state.replace(
            cards=current.with_lasting(tuple(item.fired(now) if e is item else e for e in current.lasting))
        )
        if is_lasting(item.effect.action):
            # what the trigger starts acts like a Spell's effect; the ``limit`` counted the firing
            effect = replace(item.effect, trigger=None, limit=None)
            state = _enter(state, Lasting(item.card, item.owner, item.order, effect), now, relic=False)
        else:
            state, _ = resolve_once(state, item.owner, item.effect, at.to if at is not None else None)
    return state


def repair_denied(state: GameState) -> str | None:
    """The card of the opponent that denies the mover's Repair now, if any (core §6, R23).

    A denial acts while its condition holds, read for its holder as the Repair is attempted
    (``deny repair when own SP >= 10`` refuses nothing while the holder has less).
    """
    cards = state.cards
    if cards is None:
        return None
    me = state.to_move
    for item in cards.lasting:
        if (
            item.owner is not me
            and isinstance(item.effect.action, DenyRepair)
            and item.effect.trigger is None
            and holds(item.effect.condition, item.owner, state, Situation(me))
        ):
            return item.card
    return None


def expire(state: GameState) -> GameState:
    """At a new turn: effects whose time is over leave (R23)."""
    cards = state.cards
    if cards is None:
        return state
    kept = cards.expire(ply(state.turn_number, state.to_move))
    return state if kept is cards else state.replace(cards=kept)


def end_of_attack(state: GameState) -> GameState:
    """``this attack`` effects end with the attack, whoever owns them.

    An effect on the opponent's attacks that a trigger started in the opponent's turn (``on
    attacked: reroll on enemy attacks this attack``) acts on the next attack and ends with it,
    as one the attacker played does; the triggers of this attack fire after this, so what they
    start waits for the next attack (R20: one copy, never a pile of them).
    """
    cards = state.cards
    if cards is None or not cards.lasting_index.attack_only:
        return state
    kept = tuple(e for e in cards.lasting if not e.attack_only)
    return state.replace(cards=cards.with_lasting(kept))


# --- gains and losses of SP and LP ------------------------------------------------------------------------


def resources_changed(before: GameState, after: GameState, spent: Payment | None = None) -> GameState:
    """Fire ``on gain SP:`` and the like for how each side's SP and LP changed from ``before`` (R23).

    The change is the net change of one action, whatever caused it (income, a capture, the
    Pass bonus, a conversion, a card's effect, another trigger). A price paid is not a loss:
    ``spent`` is what the mover paid for the action (its cost, a card's printed cost, the SP
    converted), and a trigger's price is left out too; a loss is an effect taking a resource.
    The triggers fire after the action, the active player's side first. What they change
    fires these triggers again, but each triggered effect fires at most once per event within
    one action, so the chain ends.
    """
    cards = after.cards
    if cards is None or after.result is not None or not cards.lasting_index.resources:
        return after
    fired: dict[Event, set[tuple[str, Color, int]]] = {event: set() for event in GAIN_LOSE}
    while True:
        state = after
        for event, side in _changes(before, after, spent):
            state = fire(state, event, side, fired=fired[event])
        if state is after:  # nothing fired: the chain has ended
            return after
        before, after, spent = after, state, None


def _changes(before: GameState, after: GameState, spent: Payment | None) -> Iterator[tuple[Event, Color]]:
    """The gain and loss events from ``before`` to ``after``, the active player's first."""
    was, now = before.cards, after.cards
    assert was is not None and now is not None
    active = after.to_move
    for side in (active, active.other):
        old, new = before.players[side], after.players[side]
        sp = new.sp - old.sp + now.prices[side][0] - was.prices[side][0]
        lp = new.lp - old.lp + now.prices[side][1] - was.prices[side][1]
        if spent is not None and side is before.to_move:
            sp, lp = sp + spent.sp, lp + spent.lp
        for delta, gain, lose in ((sp, Event.GAIN_SP, Event.LOSE_SP), (lp, Event.GAIN_LP, Event.LOSE_LP)):
            if delta:
                yield (gain if delta > 0 else lose), side


# --- limits on modifiers ------------------------------------------------------------------------------------


def count_acts(state: GameState, items: Iterable[Lasting]) -> GameState:
    """Each of ``items`` (lasting effects of ``state``) acted once more this turn, for its ``limit`` (R23)."""
    cards = state.cards
    if cards is None:
        return state
    counted = cards.counted(items, ply(state.turn_number, state.to_move))
    return state if counted is cards else state.replace(cards=counted)


def costs_counted(before: GameState, after: GameState, kind: CostKind, at: Situation) -> GameState:
    """After an action: one act of each limited cost modifier that changed its cost (R23).

    ``before`` is the state the cost was worked out in, ``after`` the state once the action applied.
    """
    cards = before.cards
    if cards is None or not cards.lasting_index.limited:
        return after
    now = ply(before.turn_number, before.to_move)
    used = [
        e
        for e in cards.acting(before.to_move, now)
        if e.effect.limit is not None and cost_shares((e,), before, kind, at)
    ]
    return count_acts(after, used) if used else after


# --- extra actions --------------------------------------------------------------------------------------------


def _extras(state: GameState, kind: ExtraKind) -> Iterator[Lasting]:
    """The mover's lasting extra actions of ``kind`` that apply in this phase, in the order of R23:
    in the phase the card names, else in the action's own window (:data:`~sgcheck.core.windows.EXTRA_WINDOWS`).
    Only the actions the core limits are asked about: moves and attacks are unlimited, and extra
    activations are refused when their card is played (SG-R123)."""
    cards = state.cards
    if cards is None:
        return
    me = state.to_move
    for item in cards.lasting:
        action = item.effect.action
        if item.owner is not me or not isinstance(action, ExtraAction) or action.action is not kind:
            continue
        phases = action.phase.phases if action.phase is not None else EXTRA_WINDOWS.get(kind, ())
        if state.turn.phase in phases and holds(item.effect.condition, me, state, Situation(me)):
            yield item


def _granting(state: GameState, kind: ExtraKind) -> Lasting | None:
    """The first of the mover's extra actions of ``kind`` with a use left this turn (its count and its ``limit``)."""
    now = ply(state.turn_number, state.to_move)
    for item in _extras(state, kind):
        action = item.effect.action
        assert isinstance(action, ExtraAction)
        if (action.count is None or item.used_in(now) < action.count) and item.may_fire(now):
            return item
    return None


def extra_allowed(state: GameState, kind: ExtraKind) -> bool:
    """Whether a card of the mover grants one more action of ``kind`` now, beyond the core's limit (R23).

    A lasting ``extra summon`` (``extra break``, ...) of the mover, in its phase (the one it
    names, else the action's own), with a use left this turn: ``count`` more per turn (all, when
    it has none), and no more than the card's ``limit``. False in a game without cards.
    """
    return state.cards is not None and _granting(state, kind) is not None


def take_extra(state: GameState, kind: ExtraKind) -> GameState | str:
    """Take one extra action of ``kind`` granted by a card (see :func:`extra_allowed`).

    The state with that use counted; when no card grants one, the words to add to the refusal
    of the core's limit: which cards' extra actions are used up ("" when none applies).
    """
    item = _granting(state, kind) if state.cards is not None else None
    if item is None:
        return _used_up(state, kind)
    return count_acts(state, (item,))


def _used_up(state: GameState, kind: ExtraKind) -> str:
    names = list(dict.fromkeys(repr(item.card) for item in _extras(state, kind)))
    if not names:
        return ""
    what = kind.value.capitalize()
    if len(names) == 1:
        return f", and the extra {what} granted by {names[0]} is used up"
    return f", and the extra {what}s granted by {', '.join(names[:-1])} and {names[-1]} are used up"
