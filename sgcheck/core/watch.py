"""The contract's invariants, watched action by action as a game is played (core §8).

Replay and the contract checker's explorer both pass every applied action through
:func:`observe`, so a pack that slips past the checker still cannot break core §8 in a game
without a finding at that action, and the explorer judges a pack by exactly what replay
would report. Each breach names the §8 item and the cards involved.

What is watched, for both players in every action, whoever's turn it is (a window of the
player whose turn it is, and of the opponent when the opponent's own cards act in it; at the
hand-over, the End of one and the Upkeep of the other):

- **Exchange** (core §2, §8; R05, R16): every *window* (one action and what it fires) is
  accounted by source. Payments for the action itself and the core's own gains (Upkeep
  income, the capture reward, the Pass bonus) are set apart; what is left is what the cards
  and the conversion moved. A window in which the player gives up SP and receives LP is an
  exchange, and the SP it pays for the action counts too (R05 lets any cost be paid in SP,
  so LP on an action bought with SP is SP turned into LP). Windows in different places pair by
  ruling CR1 (:mod:`sgcheck.core.cards.exchange`): only the player's own doing counts (what the
  opponent's cards take is a drain, what they give a gift); SP the player's own cards take in a
  window that brings no LP wait one round of the player for LP their cards give for nothing
  (the disguised conversion spread over phases or turns), and for the rest of the game for LP
  the same cards give (one card's two halves are one exchange, however far apart); SP that were
  the price of something else the card gave count for the rate, not toward the 20 a turn. Each
  exchange must be at 2 SP or more for 1 LP, and the SP exchanged in a turn, counted at most 2
  for each LP, must stay within 20.
- **Negative cost** (core §8, R23): an action whose core cost with every card modifier adds
  up to less than 0 (play stops it at 0, but the cards turned a cost into income).
- **Reroll sources** (core §4.5, R20): more than one card granting a reroll or advantage to
  one accuracy roll.
- **Repair denial** (core §6, §8): a player with a broken Gem who cannot attempt a Repair in
  the Upkeeps of two consecutive turns because of the opponent's effects, by any route: a
  denial, a price raised past what the player holds while the core's own price was payable,
  or SP and LP the opponent's cards took since the End of the player's turn without which the
  core's price was payable.
- **Cheap attempts** (core §6, §8): a second Break or Repair attempt in one Upkeep priced below
  the core's 20 or 10, which makes the 12+/10+ threshold a matter of repetition (attempts at the
  core's price are extra actions inside the phase, which cards may grant).
- **King damage** (core §4.4, R19): a King's damage changed by anything but an attack.
- **Stacking** (core §4.5, R20): copies of one card (a trigger fired again, one card before
  each player) adding more than +25 to-hit or +2 damage per hit to one attack.
- **King immune** (core §4.4, §8; R19, R26): an attack on a King with reductions in play that
  leave a hit boosted to the +2 cap (1 + 2 damage) at 0: no attack can convert that King, which
  changes its 20 hit points in all but name.
- **Priced out** (core §2, §6, §7, §8): at the start of a player's turn, a kind of action (attack,
  move, Summon, Teleport, Break, Repair) that the opponent's cards make dearer by 1,000 or more in
  every instance the position offers: no player can pay that (a player with 1,000 LP has won), so
  the phase, or the Gem attempt, is gone in all but name.
- **Growth** (core §8): within one turn, the same position (board, phase, the turn's
  counters, the cards in play) reached again with more LP or SP and no less of either: the
  sequence in between can be repeated for ever. Across turns (ruling CR3,
  :mod:`sgcheck.core.cards.compounding`): a pool that grows in a window by a gain read from the
  player's own pool, which the player's gains feed back again and again (SP from SP; LP from SP
  and SP from LP), with nothing of the player's own taking from it again and again: it compounds.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from functools import lru_cache
from typing import ClassVar, Final, NamedTuple, assert_never, final

from sgcheck import codes
from sgcheck.core import caps, engine
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
    Summon,
    Teleport,
)
from sgcheck.core.cards import compounding
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
from sgcheck.core.cards.exchange import (
    PAIRING,
    effect_moves,
    holders_move,
    pairing_counts,
    pairing_key,
    pairing_until,
)
from sgcheck.core.cards.model import Card, Effect
from sgcheck.core.cards.parts import CostKind, Mode, Resource
from sgcheck.core.cards.parts import Side as CardSide
from sgcheck.core.cards.semantics import amount, changes
from sgcheck.core.cards.table import CardsByName, Lasting, ply
from sgcheck.core.legal import attacks, gem_attempts, moves, summons, teleports, with_roll
from sgcheck.core.outcome import Applied, Rejected
from sgcheck.core.pieces import PIECE_VALUES, Color, Kind, Phase
from sgcheck.core.play.cards import repair_denied
from sgcheck.core.record import Record
from sgcheck.core.state import GameState
from sgcheck.core.windows import ACTION_WINDOWS
from sgcheck.diagnostics import Diagnostic, Span, listing


class Breach(NamedTuple):
    """One invariant broken at one action: the finding (no span yet), its kind and the cards."""

    kind: str  # one of KINDS
    diagnostic: Diagnostic
    cards: tuple[str, ...]
    sp: int = 0  # the numbers behind it, as data: SP and LP exchanged, a raw cost, sources...
    lp: int = 0
    what: str = ""  # which side of its kind: an exchange's "rate" or "amount"; "alone" or "together" (cost, reroll)


#: The kinds of breach, each with its replay code and the §8 item it enforces.
KINDS: dict[str, tuple[str, str]] = {
    "exchange": ("SG-R130", "the SP→LP conversion rate (2:1) and its 20 SP a turn"),
    "negative-cost": ("SG-R131", "costs changed only within their floor (no action pays its taker)"),
    "reroll": ("SG-R132", "one reroll or advantage source per accuracy roll"),
    "repair-denied": ("SG-R133", "no repair denial on consecutive turns"),
    "free-attempt": ("SG-R134", "the Break 12+ / Repair 10+ thresholds"),
    "king-damage": ("SG-R135", "the King damaged only by attacks"),
    "growth": ("SG-R136", "no unbounded SP or LP"),
    "stacking": ("SG-R137", "the +25 to-hit and +2 damage caps per attack, copies of one card included"),
    "king-immune": ("SG-R138", "the King's 20 hit points: a hit boosted to the cap always deals damage"),
    "priced-out": ("SG-R139", "the turn's phases: no kind of action priced past what any player can hold"),
}


class Exchange(NamedTuple):
    """SP given up for LP in one window, and the cards whose effects acted in it."""

    sp: int
    lp: int


@final
class Side(Record):
    """What the watch remembers for one player."""

    __match_args__: ClassVar[tuple[str, ...]] = (
        "waiting",
        "turn_sp",
        "turn_lp",
        "turn_cards",
        "denied_ply",
        "denied_by",
        "ledger",
        "drained",
        "drained_by",
    )
    __slots__ = __match_args__

    # SP the player's own cards took in windows that brought no LP, oldest first: how many, the
    # pairing key of the first window they no longer wait in, and whether they were a price (CR1)
    waiting: Final[tuple[tuple[int, int, bool], ...]]
    turn_sp: Final[int]  # SP exchanged for LP in the current turn (counted at most 2 per LP)
    turn_lp: Final[int]
    turn_cards: Final[tuple[str, ...]]  # the cards of this turn's exchanges
    denied_ply: Final[int]  # the ply of the last Upkeep in which Repair was denied
    denied_by: Final[tuple[str, ...]]  # the cards that denied it then
    # SP the player's own cards took in windows that brought no LP, by the cards that acted then:
    # they wait for LP those cards give, however much later (one card's two halves are paired)
    ledger: Final[tuple[tuple[tuple[str, ...], int], ...]]
    drained: Final[int]  # SP and LP the opponent's cards took from the player since the End of their last turn
    drained_by: Final[tuple[str, ...]]

    def __init__(
        self,
        waiting: tuple[tuple[int, int, bool], ...] = (),
        turn_sp: int = 0,
        turn_lp: int = 0,
        turn_cards: tuple[str, ...] = (),
        denied_ply: int = -2,
        denied_by: tuple[str, ...] = (),
        ledger: tuple[tuple[tuple[str, ...], int], ...] = (),
        drained: int = 0,
        drained_by: tuple[str, ...] = (),
    ) -> None:
        self.waiting = waiting
        self.turn_sp = turn_sp
        self.turn_lp = turn_lp
        self.turn_cards = turn_cards
        self.denied_ply = denied_ply
        self.denied_by = denied_by
        self.ledger = ledger
        self.drained = drained
        self.drained_by = drained_by

    @property
    def pending_sp(self) -> int:
        """The SP still waiting for LP."""
        return sum(sp for sp, _, _ in self.waiting)


@final
class Watch(Record):
    """The watch's memory: per side, and the positions of the current turn (for growth)."""

    __match_args__: ClassVar[tuple[str, ...]] = (
        "sides",
        "ply",
        "seen",
        "free_attempts",
        "free_repairs",
    )
    __slots__ = __match_args__

    sides: Final[tuple[Side, Side]]
    ply: Final[int]
    # (position, LP, SP) reached this turn; two positions are compared (position_key) only when
    # the resources could show growth, which keeps the watch cheap on every other action
    seen: Final[tuple[tuple[GameState, int, int], ...]]
    free_attempts: Final[int]  # Break attempts this Upkeep that cost nothing
    free_repairs: Final[int]  # Repair attempts this Upkeep that cost nothing (the core allows one of each)

    def __init__(
        self,
        sides: tuple[Side, Side] = (Side(), Side()),
        ply: int = -1,
        seen: tuple[tuple[GameState, int, int], ...] = (),
        free_attempts: int = 0,
        free_repairs: int = 0,
    ) -> None:
        self.sides = sides
        self.ply = ply
        self.seen = seen
        self.free_attempts = free_attempts
        self.free_repairs = free_repairs


START = Watch()


def needs_watch(cards: Iterable[Card]) -> bool:
    """Whether a game played with ``cards`` can break anything :func:`observe` watches.

    False only when every effect of every card is one that cannot, on its own or with the
    others: a to-hit or damage modifier, damage reductions and maluses that together take less
    than a boosted hit's 3 (1 + 2) and none on an activated Relic, SP gained, lost or stolen, LP lost
    or turned into SP, an extra action (at the core's price, as no cost modifier is there),
    and at most one reroll or advantage source in the whole pack, not on an activated Relic
    (two uses would be two sources), and at most one effect taking from the opponent, not on an
    activated Relic (two could keep a Repair out of reach on consecutive turns). Anything else
    (a trigger, a gain read from the holder's own pool on an activated Relic (CR3), LP given, a
    cost modifier, a denial, direct damage, capture, what replay refuses to play) keeps the
    watch. Replay asks once per game with a pack, so a pack that cannot breach the contract pays nothing for it.
    """
    rerolls = 0
    drains = 0
    shield = 0  # what the pack's reductions and damage maluses take off a hit, together
    for card in cards:
        found = compounding.traits(card)
        if found is not None and found.links:
            return True  # a gain read from the holder's own pool, again and again: it may compound (CR3)
        for effect in card.effects:
            action = effect.action
            if effect.trigger is not None:
                return True  # a trigger gives or takes in any window, and is what grows
            match action:
                case Reroll():
                    rerolls += 1
                    if rerolls > 1 or card.mode is Mode.ACTIVATED:
                        return True
                case ResourceChange() | Steal():
                    if action.quantity.resource is Resource.LP and (isinstance(action, Steal) or action.gain):
                        return True  # LP given: half of an exchange
                    if isinstance(action, Steal) or (action.who is CardSide.ENEMY and not action.gain):
                        # what is taken from the opponent on two turns may keep a Repair out of reach:
                        # a second such effect, or one an activated Relic repeats, keeps the watch
                        drains += 2 if card.mode is Mode.ACTIVATED else 1
                        if drains > 1:
                            return True
                case ConvertResource():
                    if action.get_resource is Resource.LP:
                        return True
                case DamageReduction() | DamageModifier():
                    lowers = action.amount if isinstance(action, DamageReduction) else -action.delta
                    if isinstance(action, DamageModifier) and action.scale < 0:
                        lowers = caps.DAMAGE_BONUS_CAP  # a halving takes 2 of a boosted hit's 3
                    if lowers > 0:
                        # enough of them may leave a King no boosted hit can damage: copies, or 1 + 2 in all
                        shield += lowers if card.mode is not Mode.ACTIVATED else _FULL_HIT
                        if shield >= _FULL_HIT:
                            return True
                case ToHitModifier() | ExtraAction():
                    pass  # breaks nothing the watch looks at, on its own or with the others
                case (
                    CostModifier()
                    | ExtraPhase()
                    | ExtraTurn()
                    | SkipPhase()
                    | SwapPhases()
                    | SetParameter()
                    | DenyRepair()
                    | DealDamage()
                    | CapturePiece()
                    | ConvertPiece()
                ):
                    return True
                case _:
                    assert_never(action)
    return False


#: The most one hit can deal: 1 and the +2 per hit cap (core §4.3, §4.5).
_FULL_HIT = caps.DAMAGE_PER_HIT + caps.DAMAGE_BONUS_CAP


def ply_of(state: GameState) -> int:
    """Each player's turn is one ply; the same counting as the cards in play use."""
    return ply(state.turn_number, state.to_move)


def _with_side(watch: Watch, color: Color, side: Side) -> Watch:
    sides = (side, watch.sides[1]) if color is Color.WHITE else (watch.sides[0], side)
    return watch.replace(sides=sides)


def _diag(kind: str, message: str, rules: tuple[str, ...]) -> Diagnostic:
    return codes.diagnostic(KINDS[kind][0], message, rules=rules)


def _resource_cards(state: GameState, color: Color, also: str | None = None) -> tuple[str, ...]:
    """The cards of ``color`` whose effects move SP or LP (for naming the cards of an exchange)."""
    cards = state.cards
    if cards is None:
        return ()
    names: dict[str, None] = {}
    if also is not None:
        names[also] = None
    for item in cards.lasting:
        action = item.effect.action
        moves = isinstance(action, ResourceChange | Steal | ConvertResource)
        if item.owner is color and (moves or (item.effect.trigger is not None and item.effect.trigger.pay)):
            names[item.card] = None
    return tuple(names)


# --- the accounting of one window ------------------------------------------------------------------


def _capture_reward(before: GameState, applied: Applied) -> int:
    captured = applied.effects.captured
    if captured is None or before.mover.gem_broken:
        return 0
    return caps.CAPTURE_SP_PER_VALUE * PIECE_VALUES.get(captured.kind, 0)


def _account(
    watch: Watch,
    state: GameState,
    color: Color,
    taken_sp: int,
    given_lp: int,
    paid_sp: int,
    at: int,
    card: str | None,
    gross_sp: int = 0,
    acted: tuple[str, ...] = (),
    priced: bool = False,
) -> tuple[Watch, list[Breach]]:
    """One window of ``color``'s, at pairing key ``at``: SP the player's own cards took (net of what
    they gave back), LP they gave, the SP paid for the action, and ``gross_sp``, the SP given up
    before any refund (a conversion's SP, a payment): LP bought while SP was given up is an exchange
    even when the cards refunded it all.

    ``acted`` are ``color``'s cards that acted in the window; ``priced``, whether they gave the
    player something else in it (then the SP they took is its price). SP taken in a window that
    brings no LP waits for LP the player's cards give for nothing, by CR1
    (:func:`sgcheck.core.cards.exchange.pairing_counts`): any card's for one round of the player,
    the same cards' for the rest of the game (one card's SP taken and LP given are one exchange,
    whenever each happens)."""
    side = watch.sides[color]
    if side.waiting and side.waiting[0][1] <= at:
        side = side.replace(waiting=tuple(w for w in side.waiting if w[1] > at))
    out: list[Breach] = []
    exchange: Exchange | None = None
    counts = 0  # the SP of the exchange that count toward the 20 a turn (all but prices paired later)
    paired = False
    if given_lp > 0:
        sp = taken_sp + paid_sp
        if sp > 0 or gross_sp > 0:
            exchange = Exchange(sp, given_lp)
            counts = sp
        else:  # LP for nothing here, paired with SP the player's cards took earlier (CR1)
            # the same cards' SP first (the ledger), then any SP still waiting: each SP taken is in
            # both while it waits, so what one pairs leaves the other too
            side, kept = _from_ledger(side, acted, 2 * given_lp, 0)
            side, _, _ = _from_waiting(side, kept)
            side, loss, price = _from_waiting(side, 2 * given_lp - kept)
            used = loss + price
            side, _ = _from_ledger(side, (), 0, used)
            if used + kept > 0:
                exchange = Exchange(used + kept, given_lp)
                counts = loss + kept + (price if pairing_counts(True)[1] else 0)
                paired = True
    elif taken_sp > 0:
        side = side.replace(waiting=(*side.waiting, (taken_sp, pairing_until(at), priced)))
        if acted:
            side = side.replace(ledger=_recorded(side.ledger, acted, taken_sp))
    if exchange is not None:
        rate = caps.CONVERSION_SP_PER_LP
        cards = state.cards
        # the cards are named when any can act (a game's plain conversions pay nothing for this)
        names = _resource_cards(state, color, card) if card is not None or (cards and cards.lasting) else ()
        how = f" (SP taken earlier paired with LP given now, {PAIRING})" if paired else ""
        if exchange.sp < rate * exchange.lp:
            given = (
                f"turned {exchange.sp} SP into {exchange.lp} LP here"
                if exchange.sp > 0
                else (
                    f"received {exchange.lp} LP here and got back all the SP it gave up"
                    + (f", and {-exchange.sp} SP more" if exchange.sp < 0 else "")
                    + " (the cards refund it)"
                )
            )
            message = (
                f"{color.title} {given}, better than the core's {rate} SP for 1 LP"
                + (f" (cards: {listing(names, quote=str)})" if names else "")
                + how
            )
            out.append(
                Breach(
                    "exchange",
                    _diag("exchange", message, ("core §2", "core §8", "R05", "R16")),
                    names,
                    exchange.sp,
                    exchange.lp,
                    "rate",
                )
            )
        counted = max(0, min(counts, rate * exchange.lp))
        turn_cards = tuple(dict.fromkeys((*side.turn_cards, *names))) if counted else side.turn_cards
        side = side.replace(
            turn_sp=side.turn_sp + counted,
            turn_lp=side.turn_lp + (exchange.lp if counted or not paired else 0),
            turn_cards=turn_cards,
        )
        names = turn_cards
        cap = caps.CONVERSION_CAP_SP
        if counted and side.turn_sp > cap and side.turn_sp - counted <= cap:
            names = names or _resource_cards(state, color, card)
            message = (
                f"{color.title} has turned {side.turn_sp} SP into {side.turn_lp} LP this turn, past the "
                f"{cap} SP a turn the conversion allows"
                + (f" (cards: {listing(names, quote=str)})" if names else "")
                + how
            )
            out.append(
                Breach(
                    "exchange",
                    _diag("exchange", message, ("core §2", "core §8", "R16")),
                    names,
                    side.turn_sp,
                    side.turn_lp,
                    "amount",
                )
            )
    return _with_side(watch, color, side), out


def _from_waiting(side: Side, room: int) -> tuple[Side, int, int]:
    """Take up to ``room`` SP from what waits, oldest first: the side, and the SP taken that were
    losses and that were prices (CR1)."""
    loss = price = 0
    kept: list[tuple[int, int, bool]] = []
    for sp, until, priced in side.waiting:
        take = min(sp, room)
        room -= take
        if priced:
            price += take
        else:
            loss += take
        if sp > take:
            kept.append((sp - take, until, priced))
    if not loss and not price:
        return side, 0, 0
    return side.replace(waiting=tuple(kept)), loss, price


def _recorded(
    ledger: tuple[tuple[tuple[str, ...], int], ...], acted: tuple[str, ...], sp: int
) -> tuple[tuple[tuple[str, ...], int], ...]:
    """``ledger`` with ``sp`` more taken by the cards ``acted`` (one entry per set of cards, so it
    stays as small as the pack however long the game)."""
    for i, (cards, held) in enumerate(ledger):
        if cards == acted:
            return (*ledger[:i], (cards, held + sp), *ledger[i + 1 :])
    return (*ledger, (acted, sp))


def _from_ledger(side: Side, acted: tuple[str, ...], room: int, used: int) -> tuple[Side, int]:
    """Take from ``side``'s ledger the SP that the cards of ``acted`` took earlier, up to ``room``
    beyond the ``used`` SP that waited anyway (which leave the ledger too, oldest first): the
    other half of an exchange those cards make now. Returns the side and the SP taken beyond ``used``."""
    if not side.ledger:
        return side, 0
    kept: list[tuple[tuple[str, ...], int]] = []
    extra = 0
    for cards, sp in side.ledger:
        if room > 0 and acted and any(card in acted for card in cards):
            take = min(sp, room)
            room -= take
            extra += take
            sp -= take
        if used > 0 and sp > 0:
            take = min(sp, used)
            used -= take
            sp -= take
        if sp > 0:
            kept.append((cards, sp))
    return side.replace(ledger=tuple(kept)), extra


# --- the other invariants ----------------------------------------------------------------------------


def _negative_cost(applied: Applied) -> list[Breach]:
    worked = applied.effects.cost_worked
    if worked is None or worked.raw >= 0:
        return []
    names = worked.sources
    message = f"the cards make this action cost {worked.raw} ({worked.detail}): a cost below 0 pays its taker" + (
        f" (cards: {listing(names, quote=str)})" if names else ""
    )
    # "alone": one card takes it below 0 (the contract checker's error); "together": only several
    # cards do, clamped at 0 as caps passed together are (R20, R23; the checker's warning)
    side = "alone" if worked.alone else "together"
    breach = _diag("negative-cost", message, ("core §8", "R23"))
    return [Breach("negative-cost", breach, names, 0, worked.raw, side)]


def _rerolls(applied: Applied) -> list[Breach]:
    on_attack = applied.effects.cards
    if on_attack is None or len(on_attack.rerolls) < 2:
        return []
    names = tuple(dict.fromkeys(card for card, _ in on_attack.rerolls))
    message = (
        f"{len(on_attack.rerolls)} reroll or advantage sources act on this accuracy roll "
        f"({', '.join(names)}); the cap is one"
    )
    # "alone": one card's copies are sources enough (R20: the card breaks the cap on its own);
    # "together": only several cards are, as with the other caps (the contract checker's warning)
    per_card = [card for card, _ in on_attack.rerolls]
    side = "alone" if any(per_card.count(card) > 1 for card in names) else "together"
    rules = ("core §4.5", "core §8", "R20")
    return [Breach("reroll", _diag("reroll", message, rules), names, 0, len(on_attack.rerolls), side)]


def _stacking(applied: Applied) -> list[Breach]:
    """Copies of one card on one attack (a trigger fired again, a Spell's effect started twice, the
    same card before each player) adding up past a cap of core §4.5: the card passes it alone,
    which R20 makes a contract violation; play clamps the total (SG-N304)."""
    on_attack = applied.effects.cards
    if on_attack is None:
        return []
    out: list[Breach] = []
    for what, shares, cap in (
        ("to-hit", on_attack.to_hit, caps.TO_HIT_BONUS_CAP),
        ("damage", on_attack.damage, caps.DAMAGE_BONUS_CAP),
    ):
        totals: dict[str, list[int]] = {}
        for share in shares:
            totals.setdefault(share.card, []).append(share.amount)
        for card, amounts in totals.items():
            total = sum(amounts)
            if len(amounts) < 2 or total <= cap:
                continue
            each = " + ".join(f"{a:+d}" for a in amounts)
            message = (
                f"{len(amounts)} copies of {card!r} add {each} = {total:+d} {what} to this attack, past the "
                f"{cap:+d} cap of core §4.5 by one card alone (play counts {cap:+d})"
            )
            rules = ("core §4.5", "core §8", "R20")
            out.append(Breach("stacking", _diag("stacking", message, rules), (card,), total, cap, what))
    return out


def _king_immune(before: GameState, action: Attack, applied: Applied) -> list[Breach]:
    """An attack on a King whose reductions would leave even a hit boosted to the +2 cap at 0 damage:
    no attack can convert that King (core §4.4; R26 says shields guarding the King change its hit
    points). Nothing clamps reductions, so one card or several. The engine itself plays the same
    attack as a sure hit with +2 more damage for the attacker (its maluses and a halving of the
    boosted hit counted as play counts them)."""
    victim = before.board[action.to]
    cards = before.cards
    if victim is None or victim.kind is not Kind.KING or cards is None:
        return []
    me = before.to_move
    boost = Lasting(_BOOST, me, -1, Effect(DamageModifier(caps.DAMAGE_BONUS_CAP, CardSide.OWN, _NOWHERE), _NOWHERE))
    players = list(before.players)
    players[me] = players[me].replace(lp=_rich(before))
    boosted = before.replace(players=(players[0], players[1]), cards=cards.with_lasting((*cards.lasting, boost)))
    step = engine.apply(boosted, action.replace(roll=_SURE_HIT, second=(), advantage=False, pay=None))
    if not isinstance(step, Applied) or not step.effects.hit or step.effects.damage != 0:
        return []
    on_attack = step.effects.cards
    if on_attack is None:
        return []
    lowering = (*on_attack.reduction, *(s for s in on_attack.damage if s.amount < 0))
    shares = ", ".join(f"{s.card} -{abs(s.amount)}" for s in lowering)
    message = (
        f"no hit on {victim.color.title}'s King can deal damage: a hit boosted to the +{caps.DAMAGE_BONUS_CAP} "
        f"cap ({_FULL_HIT}) still deals 0 ({shares}), so no attack can convert it"
    )
    names = tuple(dict.fromkeys(s.card.removesuffix(" halving") for s in lowering))
    rules = ("core §4.4", "core §8", "R19")
    return [Breach("king-immune", _diag("king-immune", message, rules), names, 0, on_attack.reduced, "reduction")]


#: The attacker's own cards at the +2 cap, for :func:`_king_immune`; a roll of 1 always hits (R10).
_BOOST = "a hit boosted to the cap"
_NOWHERE = Span("sgcheck watch", 0, 0, 0, 0)
_SURE_HIT = (0, 1)


#: Each kind of action a cost modifier can price, the phase it is taken in (core §2, R03) and the
#: candidates the position offers there (core/legal.py).
_PRICED: tuple[tuple[str, Phase, Callable[[GameState], Iterator[Action]]], ...] = (
    ("attack", Phase.BATTLE, attacks),
    ("move", Phase.MAIN1, moves),
    ("summon", Phase.UPKEEP, summons),
    ("teleport", Phase.END, teleports),
    ("break", Phase.UPKEEP, lambda state: (a for a in gem_attempts(state) if isinstance(a, Break))),
    ("repair", Phase.UPKEEP, lambda state: (a for a in gem_attempts(state) if isinstance(a, Repair))),
)

#: Dice for a candidate that rolls: the price does not depend on the faces.
_DICE: dict[type, tuple[int, ...]] = {Attack: (0, 0), Break: (1, 1, 1), Repair: (1, 1, 1)}

#: What no player can ever pay: a player holding 1,000 LP has won (core §7).
PRICED_OUT = caps.LP_VICTORY


def _rich(state: GameState) -> int:
    """LP that pay any price the cards in play can ask, so that the engine works out every cost it
    is shown: the dearest core cost and every card's surcharge, doubled once for each doubling."""
    cards = state.cards
    total, doublings = 10 * PRICED_OUT, 1
    if cards is not None:
        for item in cards.lasting:
            action = item.effect.action
            if isinstance(action, CostModifier):
                total += abs(action.delta)
                doublings += 1 if action.scale > 0 else 0
    return total << doublings


def _priced_out(state: GameState) -> list[Breach]:
    """At the start of the mover's turn: each kind of action the opponent's cards make dearer by
    :data:`PRICED_OUT` or more in every instance the position offers. The engine prices each
    candidate twice, with and without the opponent's surcharges, for a player who could pay
    anything; the least difference decides (a discount of the player's own only lowers it)."""
    cards = state.cards
    me = state.to_move
    if cards is None:
        return []
    raisers = tuple(
        item
        for item in cards.lasting
        if item.owner is not me
        and isinstance(item.effect.action, CostModifier)
        and item.effect.action.who is CardSide.ENEMY
        and (item.effect.action.delta > 0 or item.effect.action.scale > 0)
    )
    if not raisers:
        return []
    players = list(state.players)
    players[me] = players[me].replace(lp=_rich(state))
    # a denial is judged on its own (repair-denied): the price is what is asked of an attempt allowed
    allowed = tuple(i for i in cards.lasting if not isinstance(i.effect.action, DenyRepair))
    rich = state.replace(players=(players[0], players[1]), cards=cards.with_lasting(allowed))
    bare = rich.replace(cards=cards.with_lasting(tuple(i for i in allowed if i not in raisers)))
    out: list[Breach] = []
    for what, phase, candidates in _PRICED:
        at, without = _offered(rich, what, phase), _offered(bare, what, phase)
        least: int | None = None
        for action in candidates(at):
            dice = _DICE.get(type(action))
            action = action if dice is None else with_roll(action, dice)
            dear, cheap = _price(at, action), _price(without, action)
            if dear is None or cheap is None:
                continue
            least = dear - cheap if least is None else min(least, dear - cheap)
            if least < PRICED_OUT:
                break
        if least is None or least < PRICED_OUT:
            continue
        names = tuple(dict.fromkeys(item.card for item in raisers))
        message = (
            f"the opponent's cards add {least} to every {what} {me.title} could take this turn "
            f"({listing(names, quote=str)}): past the {PRICED_OUT} LP that win the game (core §7), "
            f"no player can pay it, so the {phase.title} is gone in all but name"
        )
        rules = ("core §2", "core §6", "core §7", "core §8")
        out.append(Breach("priced-out", _diag("priced-out", message, rules), names, 0, least, what))
    return out


def _offered(state: GameState, what: str, phase: Phase) -> GameState:
    """``state`` in ``phase``, where actions of the kind ``what`` are taken; for a Gem attempt, with the
    Gems as the attempt needs them (a Repair of one's own broken Gem, a Break of the opponent's intact
    one, core §6, R15): a price that locks a Gem attempt out locks it out whenever the Gems come to
    that, and core §6 forbids a permanent repair denial."""
    turn = state.turn if phase is state.turn.phase else state.turn.replace(phase=phase)
    players = state.players
    me = state.to_move
    if what in ("repair", "break"):
        broken = what == "repair"
        owner = me if broken else me.other
        changed = list(players)
        changed[owner] = changed[owner].replace(gem_broken=broken)
        players = (changed[0], changed[1])
        turn = turn.replace(repaired=False) if broken else turn.replace(broke=False)
    return state.replace(turn=turn, players=players)


def _price(state: GameState, action: Action) -> int | None:
    """What ``action`` costs in ``state`` with the cards in play (before the floor at 0), or None
    when the engine refuses it for another reason."""
    step = engine.apply(state, action)
    if not isinstance(step, Applied):
        return None
    worked = step.effects.cost_worked
    if worked is None:
        return None
    return worked.raw


def _king_damage(before: GameState, after: GameState, action: Action) -> list[Breach]:
    if isinstance(action, Attack):
        return []
    out: list[Breach] = []
    for color in Color:
        was, now = before.players[color].king_damage, after.players[color].king_damage
        if now != was:
            message = f"{color.title}'s King damage changed from {was} to {now} outside an attack"
            name = (action.card,) if isinstance(action, Play | Activate) else ()
            out.append(
                Breach(
                    "king-damage", _diag("king-damage", message, ("core §4.4", "core §8", "R19")), name, 0, now - was
                )
            )
    return out


def repair_blocked(state: GameState) -> tuple[str, ...] | None:
    """Whether the mover, in Upkeep with a broken Gem, cannot attempt a Repair because of the
    opponent's effects; the cards that stop it (empty when they cannot be named), else None.

    Asked of the engine itself: a Repair with the best dice is tried, with the payment the rules
    choose; a refusal counts when it names a denial, or a price the player could have paid at
    the core's own cost.
    """
    me = state.mover
    if not me.gem_broken or state.turn.phase not in ACTION_WINDOWS[Repair].phases or state.turn.repaired:
        return None
    denier = repair_denied(state)
    raisers = _repair_raisers(state)
    if denier is None and not raisers:
        return None  # nothing of the opponent's stands in the way (asked first: the engine is dearer)
    step = engine.apply(state, Repair((6, 6, 6)))
    if not isinstance(step, Rejected):
        return None
    code = step.first.diagnostic.code
    if codes.has(code, codes.Trait.CARD_DENIAL):
        return (denier,) if denier else ()
    if me.lp + me.sp >= caps.REPAIR_COST and codes.has(code, codes.Trait.SHORT_OF_FUNDS) and raisers:
        return raisers
    return None


def _drained_out(state: GameState, side: Side) -> tuple[str, ...] | None:
    """Whether the mover, in Upkeep with a broken Gem, cannot pay for a Repair only because the
    opponent's cards took SP or LP from them since the End of their last turn (``side.drained``): the
    cards that took them, else None. Asked of the engine, as :func:`repair_blocked` does."""
    me = state.mover
    if side.drained <= 0 or not me.gem_broken or state.turn.repaired:
        return None
    if state.turn.phase not in ACTION_WINDOWS[Repair].phases:
        return None
    step = engine.apply(state, Repair((6, 6, 6)))
    if not isinstance(step, Rejected) or not codes.has(step.first.diagnostic.code, codes.Trait.SHORT_OF_FUNDS):
        return None
    if me.lp + me.sp + side.drained < caps.REPAIR_COST:
        return None  # poor without the opponent's help too
    return side.drained_by


def _repair_raisers(state: GameState) -> tuple[str, ...]:
    """The opponent's cards in play that raise the mover's Repair (``opponent cost repair +20``)."""
    cards = state.cards
    if cards is None or not cards.lasting_index.costs:
        return ()
    names: dict[str, None] = {}
    for item in cards.lasting:
        action = item.effect.action
        if (
            isinstance(action, CostModifier)
            and item.owner is not state.to_move
            and action.who is CardSide.ENEMY
            and item.effect.trigger is None
            and (action.delta > 0 or action.scale > 0)
            and CostKind.REPAIR in changes(action)
        ):
            names[item.card] = None
    return tuple(names)


def _price_cards(state: GameState) -> tuple[str, ...]:
    cards = state.cards
    if cards is None:
        return ()
    names = {
        item.card: None
        for item in cards.lasting
        if isinstance(item.effect.action, CostModifier) and item.owner is not state.to_move
    }
    return tuple(names)


def _repair(watch: Watch, state: GameState) -> tuple[Watch, list[Breach]]:
    """At the start of a player's Upkeep: is Repair blocked now, and was it on their last turn?"""
    color = state.to_move
    side = watch.sides[color]
    blocked = repair_blocked(state)
    if blocked is None:
        blocked = _drained_out(state, side)
    if blocked is None:
        return watch, []
    now = ply_of(state)
    out: list[Breach] = []
    if side.denied_ply == now - 2:
        names = tuple(dict.fromkeys((*side.denied_by, *blocked)))  # the denial of both turns
        message = (
            f"{color.title} cannot attempt a Repair in this Upkeep nor in the last one, because of "
            f"{color.other.title}'s effects" + (f" ({', '.join(names)})" if names else "")
        )
        out.append(Breach("repair-denied", _diag("repair-denied", message, ("core §6", "core §8")), names, 0, 2))
    return _with_side(watch, color, side.replace(denied_ply=now, denied_by=blocked)), out


def _free_attempt(watch: Watch, action: Action, applied: Applied) -> tuple[Watch, list[Breach]]:
    if not isinstance(action, Break | Repair):
        return watch, []
    breaking = isinstance(action, Break)
    paid = applied.effects.paid
    full = caps.BREAK_COST if breaking else caps.REPAIR_COST
    price = paid.total if paid is not None else 0
    if price >= full:
        return watch, []  # attempts at the core's price are extra actions inside the phase, as cards may grant
    if breaking:
        count = watch.free_attempts + 1
        watch = watch.replace(free_attempts=count)
    else:
        count = watch.free_repairs + 1
        watch = watch.replace(free_repairs=count)
    if count < 2:
        return watch, []  # one free attempt of each kind is one attempt, as the core allows (R15)
    verb = "Break" if breaking else "Repair"
    threshold = caps.BREAK_THRESHOLD if breaking else caps.REPAIR_THRESHOLD
    message = (
        f"a {_ordinal(count)} {verb} attempt in one Upkeep at {price} instead of the core's {full}: cheap "
        f"attempts repeated make the {threshold}+ on 3d6 a matter of trying again"
    )
    names = _price_cards(applied.state) or _own_cost_cards(applied.state)
    return watch, [Breach("free-attempt", _diag("free-attempt", message, ("core §6", "core §8")), names, 0, count)]


def _ordinal(n: int) -> str:
    words = {2: "second", 3: "third", 4: "fourth", 5: "fifth"}
    if n in words:
        return words[n]
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def _own_cost_cards(state: GameState) -> tuple[str, ...]:
    cards = state.cards
    if cards is None:
        return ()
    return tuple(dict.fromkeys(item.card for item in cards.lasting if item.owner is state.to_move))


def position_key(state: GameState) -> object:
    """What a repeated sequence must come back to: all but the players' LP and SP.

    How often an effect acted counts only where it bounds something: for an effect with a
    ``limit``, and for an extra action (its count); the counters of the others grow with each
    firing and bound nothing, so a cycle that fires them still comes back to the same position.
    """
    turn = state.turn
    cards = state.cards
    held = None
    if cards is not None:
        lasting = tuple(item if _counted(item) else _uncounted(item) for item in cards.lasting)
        held = (cards.hands, cards.in_play, lasting, cards.pending)
    players = tuple((p.gem, p.gem_broken, p.king_damage) for p in state.players)
    return (
        state.board,
        turn.phase,
        turn.activations,
        turn.summoned,
        turn.broke,
        turn.repaired,
        turn.teleported,
        turn.converted_sp,
        turn.damage,
        held,
        players,
    )


def _counted(item: Lasting) -> bool:
    return item.effect.limit is not None or isinstance(item.effect.action, ExtraAction)


def _uncounted(item: Lasting) -> tuple[object, ...]:
    """A lasting effect without how often it acted."""
    return (item.card, item.owner, item.order, item.effect, item.until, item.attack_only)


def _growth(watch: Watch, before: GameState, state: GameState) -> tuple[Watch, list[Breach]]:
    me = state.mover
    now_lp, now_sp = me.lp, me.sp
    positions = watch.seen
    if not positions and before.to_move is state.to_move:  # the turn's first position watched
        first = before.mover
        positions = ((before, first.lp, first.sp),)
    key: object = None
    for seen, lp, sp in positions:
        if now_lp < lp or now_sp < sp or (now_lp == lp and now_sp == sp):
            continue  # not more of one and no less of the other: no growth, whatever the position
        if key is None:
            key = position_key(state)
        if position_key(seen) == key:
            message = (
                f"{state.to_move.title} is back at the same position this turn with {me.lp - lp} LP and "
                f"{me.sp - sp} SP more: the actions in between can be repeated without end"
            )
            names = _own_cost_cards(state)
            return _with_seen(watch, positions), [
                Breach("growth", _diag("growth", message, ("core §8",)), names, me.sp - sp, me.lp - lp)
            ]
    return _with_seen(watch, (*positions, (state, now_lp, now_sp))), []


def _compounding(
    before: GameState, after: GameState, color: Color, grew_sp: int, grew_lp: int, card: str | None
) -> list[Breach]:
    """Growth across turns (ruling CR3, :mod:`sgcheck.core.cards.compounding`): in ``color``'s window,
    a pool grew (``grew_sp``, ``grew_lp``: net of the window's price, without the core's own gains)
    by a gain of ``color``'s cards read from ``color``'s own pool that their links feed back, again
    and again: the pool compounds, turn after turn, without bound."""
    cards = after.cards
    if cards is None or (grew_sp <= 0 and grew_lp <= 0):
        return []
    acted = _acted(before, after, color, card)
    if not acted:
        return []
    by_name = cards.by_name
    starts = [
        step
        for name in acted
        if name in by_name and (found := compounding.traits(by_name[name])) is not None
        for step in found.links
        if (grew_sp if step.fed is Resource.SP else grew_lp) > 0
        and step.adds(max(_pool(before, color, step.read), _pool(after, color, step.read))) > 0
    ]
    if not starts:
        return []
    held = [by_name[item.card] for item in cards.in_play if item.owner is color and item.card in by_name]
    for start in starts:
        closed = compounding.compounds(held, start)
        if closed is None:
            continue
        grew = grew_sp if start.fed is Resource.SP else grew_lp
        message = (
            f"{color.title}'s {start.fed.value} grew by {grew} from an amount read from their own "
            f"{start.read.value}, which their cards feed again and again ({compounding.describe(closed)}): "
            f"the pool compounds turn after turn without bound"
        )
        names = tuple(dict.fromkeys(step.card for step in closed))
        diagnostic = _diag("growth", message, ("core §8", compounding.RULING))
        return [Breach("growth", diagnostic, names, max(0, grew_sp), max(0, grew_lp), "compounding")]
    return []


def _links(state: GameState) -> bool:
    """Whether some card of the game makes a CR3 link (else nothing can compound)."""
    cards = state.cards
    return cards is not None and _any_link(cards.by_name)


@lru_cache(maxsize=64)
def _any_link(by_name: CardsByName) -> bool:
    return any(compounding.traits(card) is not None for card in by_name.values())


def _pool(state: GameState, color: Color, resource: Resource) -> int:
    player = state.players[color]
    return player.sp if resource is Resource.SP else player.lp


def _with_seen(watch: Watch, seen: tuple[tuple[GameState, int, int], ...]) -> Watch:
    """``watch.replace(seen=seen)``, by the constructor: replay calls it on nearly every action."""
    return Watch(watch.sides, watch.ply, seen, watch.free_attempts, watch.free_repairs)


# --- the watch ------------------------------------------------------------------------------------


def observe(watch: Watch, before: GameState, action: Action, applied: Applied) -> tuple[Watch, tuple[Breach, ...]]:
    """The watch after ``action`` took ``before`` to ``applied``, and what it broke.

    Pure: replay keeps the returned watch for the next action; the explorer keeps one per path.
    Replay calls it on every action of a game with cards, so the common case (a window that
    moves no SP or LP beyond its price, no King damage, no trigger that could grow) allocates
    nothing but its answer.
    """
    after = applied.state
    me = before.to_move
    now = (before.turn_number - 1) * 2 + (me is _BLACK)  # ply_of(before), on the watch's hottest path
    if watch.ply != now:
        watch = _new_turn(watch, now, me)
    kind = type(action)
    if kind is EndTurn:
        return _hand_over(watch, before, applied, me, now)
    fx = applied.effects
    out: list[Breach] | None = None
    if kind in _CORE and not _triggers(before):
        # A core action with no trigger waiting: only its price and the core's own gain (the
        # capture reward) moved SP or LP, no card damaged a King, no trigger can grow, and
        # nothing can start waiting during it. What is left to watch is on its effects.
        if kind is EnterPhase:
            return watch, ()
        watch, out = _on_the_action(watch, before, action, applied, out)
        return watch, (tuple(out) if out else ())
    players = after.players
    if before.players is not players:  # else no SP, LP or King damage moved
        # one window of the mover's: what SP and LP did, less the action's payment and the core's
        # capture reward, is what the cards (and the conversion) took and gave
        b, a = before.players[me], players[me]
        taken, given, paid_in_sp = b.sp - a.sp, a.lp - b.lp, 0
        payment = fx.paid
        if payment is not None:
            taken -= payment.sp
            given += payment.lp
            paid_in_sp = payment.sp
        if fx.captured is not None:
            taken += _capture_reward(before, applied)
        if kind is Convert:
            paid_in_sp = 0  # the SP converted are what the cards column holds: the conversion is the exchange
        card = action.card if isinstance(action, Play | Activate) else None
        if taken > 0 or given != 0:  # what the opponent's cards did to the mover is theirs (CR1)
            watch, taken, given = _theirs_apart(watch, before, after, me, taken, given, None)
        if taken > 0 or given > 0:  # else the window moved nothing but its price: no exchange, nothing waits
            gross = action.sp if isinstance(action, Convert) else paid_in_sp
            acted = _acted(before, after, me, card)
            at = pairing_key(now, after.turn.phase)
            priced = _priced(before, after, me, card, acted)
            watch, found = _account(watch, after, me, taken, given, paid_in_sp, at, card, gross, acted, priced)
            out = _more(out, found)
        # the opponent's side of the same window: what their own cards did in this turn (a trigger
        # on an attack, on a loss...) is judged as theirs; what this player's cards took from them
        # counts toward a Repair made impossible
        watch, found = _other_side(watch, before, after, me.other, now, card)
        out = _more(out, found)
        if _links(after):
            grew_sp = a.sp - b.sp - (_capture_reward(before, applied) if fx.captured is not None else 0)
            out = _more(out, _compounding(before, after, me, grew_sp, a.lp - b.lp, card))
            o, p = before.players[me.other], players[me.other]
            out = _more(out, _compounding(before, after, me.other, p.sp - o.sp, p.lp - o.lp, None))
        if kind is not Attack and _king_damaged(before, after):
            out = _more(out, _king_damage(before, after, action))
    watch, out = _on_the_action(watch, before, action, applied, out)
    cards = after.cards
    if cards is not None and cards.lasting_index.events and after.result is None:
        # Only a trigger gives SP or LP without changing the position (playing or using a card
        # changes the hands or the turn's activations; a capture changes the board for the rest
        # of the turn), so a position where no trigger waits can be on no growing cycle: the
        # cycle's positions all hold the same cards in play, and with them the same triggers.
        watch, found = _growth(watch, before, after)
        out = _more(out, found)
    return watch, (tuple(out) if out else ())


def _on_the_action(
    watch: Watch, before: GameState, action: Action, applied: Applied, out: list[Breach] | None
) -> tuple[Watch, list[Breach] | None]:
    """What the action itself shows, with or without cards acting after it: its cost below 0, the
    reroll sources of its roll, a cheap repeated Break or Repair."""
    fx = applied.effects
    worked = fx.cost_worked
    if worked is not None and worked.raw < 0:
        out = _more(out, _negative_cost(applied))
    if fx.cards is not None and len(fx.cards.rerolls) > 1:
        out = _more(out, _rerolls(applied))
    if fx.cards is not None and (len(fx.cards.to_hit) > 1 or len(fx.cards.damage) > 1):
        out = _more(out, _stacking(applied))
    if fx.cards is not None and fx.cards.reduction and isinstance(action, Attack):
        out = _more(out, _king_immune(before, action, applied))
    kind = type(action)
    if kind is Break or kind is Repair:
        watch, found = _free_attempt(watch, action, applied)
        out = _more(out, found)
    return watch, out


_BLACK = Color.BLACK

#: The core's own actions: they move SP or LP through their price and the core's gains alone,
#: unless a trigger fires after them (cards played, used or revealed, and the conversion, are
#: watched in full).
_CORE: frozenset[type] = frozenset({Move, Attack, Summon, Teleport, Break, Repair, EnterPhase})


def _triggers(state: GameState) -> bool:
    """Some trigger waits in ``state`` (of either player)."""
    cards = state.cards
    return cards is not None and bool(cards.lasting_index.events)


def _more(out: list[Breach] | None, found: list[Breach]) -> list[Breach] | None:
    """``out`` and ``found``: a list only once there is something in it."""
    if not found:
        return out
    return found if out is None else [*out, *found]


def _hand_over(
    watch: Watch, before: GameState, applied: Applied, me: Color, now: int
) -> tuple[Watch, tuple[Breach, ...]]:
    """EndTurn: the End of ``me``'s turn, then (unless the game ended) the next player's Upkeep
    begins: each is a window of its own player, and the Upkeep is where a denied Repair shows.
    In each, what SP and LP did less the core's own gains (the Pass bonus, the income) is what the
    cards moved."""
    after, fx = applied.state, applied.effects
    out: list[Breach] | None = None
    was, players = before.players, after.players
    # without a trigger before or after (an effect starting with the new turn may bring one),
    # only the Pass bonus and the income moved SP or LP, and no King took damage
    windows = _triggers(before) or _triggers(after)
    pass_bonus = caps.PASS_BONUS_LP if fx.passed else 0
    nxt = after.to_move
    if watch.sides[me].drained:  # what was taken in this player's own turn they could still answer
        watch = _with_side(watch, me, watch.sides[me].replace(drained=0, drained_by=()))
    handed = nxt is not me and after.result is None  # the next player's Upkeep began
    if windows:
        b, a = was[me], players[me]
        taken, given = b.sp - a.sp, a.lp - b.lp - pass_bonus
        if taken > 0 or given != 0:
            acted = _acted(before, after, me)
            if acted or given > 0 or not handed:
                watch, taken, given = _theirs_apart(watch, before, after, me, taken, given, None)
                if taken > 0 or given > 0:
                    at = pairing_key(now, Phase.END)
                    priced = _priced(before, after, me, None, acted)
                    watch, found = _account(watch, after, me, taken, given, 0, at, None, 0, acted, priced)
                    out = _more(out, found)
            else:  # only the next player's Upkeep took them: their cards', not this player's
                watch = _drained(watch, me, taken, -given, _acted(before, after, nxt))
    if windows and _links(after):  # the End's window of ``me``: growth across turns (CR3)
        b, a = was[me], players[me]
        out = _more(out, _compounding(before, after, me, a.sp - b.sp, a.lp - b.lp - pass_bonus, None))
    if handed:
        later = (after.turn_number - 1) * 2 + (nxt is _BLACK)  # ply_of(after)
        watch = _new_turn(watch, later, nxt)
        b, a = was[nxt], players[nxt]
        if windows:
            taken, given = b.sp - a.sp + (fx.income or 0), a.lp - b.lp
            if taken > 0 or given != 0:
                acted = _acted(before, after, nxt)
                if acted or given > 0:
                    watch, taken, given = _theirs_apart(watch, before, after, nxt, taken, given, None)
                    if taken > 0 or given > 0:
                        at = pairing_key(later, Phase.UPKEEP)
                        priced = _priced(before, after, nxt, None, acted)
                        watch, found = _account(watch, after, nxt, taken, given, 0, at, None, 0, acted, priced)
                        out = _more(out, found)
                else:  # the End's effects of the player whose turn ended took them
                    watch = _drained(watch, nxt, taken, -given, _acted(before, after, me))
        if windows and _links(after):  # the Upkeep's window of ``nxt``, without the income
            out = _more(out, _compounding(before, after, nxt, a.sp - b.sp - (fx.income or 0), a.lp - b.lp, None))
        if a.gem_broken:
            watch, found = _repair(watch, after)
            out = _more(out, found)
        cards = after.cards
        if cards is not None and cards.lasting_index.costs:
            out = _more(out, _priced_out(after))
        if watch.sides[nxt].drained:  # counted again from the End of this player's turn
            watch = _with_side(watch, nxt, watch.sides[nxt].replace(drained=0, drained_by=()))
    if windows and _king_damaged(before, after):
        out = _more(out, _king_damage(before, after, EndTurn()))
    return watch, (tuple(out) if out else ())


def _acted(before: GameState, after: GameState, color: Color, card: str | None = None) -> tuple[str, ...]:
    """``color``'s cards that acted from ``before`` to ``after``: the card played or used (``card``),
    and each whose lasting effects fired, acted or entered (an effect changed is a new record)."""
    names: dict[str, None] = {} if card is None else {card: None}
    was, now = before.cards, after.cards
    if now is None or was is None or was.lasting is now.lasting:
        return tuple(names)
    old = {id(item) for item in was.lasting}
    for item in now.lasting:
        if item.owner is color and id(item) not in old:
            names[item.card] = None
    return tuple(names)


def _other_side(
    watch: Watch, before: GameState, after: GameState, other: Color, now: int, card: str | None
) -> tuple[Watch, list[Breach]]:
    """The window of ``other`` (not the mover) in the mover's action: their own cards' exchange,
    or what the mover's cards took from them (toward a Repair made impossible)."""
    b, a = before.players[other], after.players[other]
    if b is a or (b.sp == a.sp and b.lp == a.lp):
        return watch, []
    acted = _acted(before, after, other)
    if not acted:
        return _drained(watch, other, b.sp - a.sp, b.lp - a.lp, _acted(before, after, other.other, card)), []
    taken, given = b.sp - a.sp, a.lp - b.lp
    watch, taken, given = _theirs_apart(watch, before, after, other, taken, given, card)
    if taken <= 0 and given <= 0:
        return watch, []
    at = pairing_key(now, after.turn.phase)
    priced = _priced(before, after, other, None, acted)
    return _account(watch, after, other, taken, given, 0, at, None, 0, acted, priced)


def _fired(before: GameState, after: GameState, color: Color) -> list[Lasting]:
    """``color``'s lasting effects that fired or entered from ``before`` to ``after`` (new records)."""
    was, now = before.cards, after.cards
    if now is None or was is None or was.lasting is now.lasting:
        return []
    old = {id(item) for item in was.lasting}
    return [item for item in now.lasting if item.owner is color and id(item) not in old]


def _theirs_apart(
    watch: Watch, before: GameState, after: GameState, color: Color, taken: int, given: int, card: str | None
) -> tuple[Watch, int, int]:
    """``color``'s window without what the opponent's cards did to ``color`` in it (CR1: SP and LP the
    opponent's cards move are never half of a player's exchange; what they took is a drain, toward a
    Repair made impossible). ``card`` is the card the opponent played or used in the window, if any.
    Returns the watch and the SP taken and LP given that are ``color``'s own cards' (and price's)."""
    other = color.other
    effects = [item.effect for item in _fired(before, after, other) if item.effect.trigger is not None]
    cards = before.cards
    if card is not None and cards is not None and card in cards.by_name:
        effects.extend(e for e in cards.by_name[card].effects if e.trigger is None)
    sp = lp = 0  # SP taken from ``color`` and LP given to them by the opponent's cards
    for effect in effects:
        action = effect.action
        if not isinstance(action, ResourceChange | Steal):
            continue
        for move in effect_moves(effect):
            if holders_move(move):
                continue  # the opponent's own pools: their exchange, not this player's
            moved = amount(action.quantity, other, before) * (1 if move.gain else -1)
            if move.resource is Resource.SP:
                sp -= moved
            else:
                lp += moved
    if not sp and not lp:
        return watch, taken, given
    # what the opponent's cards took is at most what went (R23: a loss takes what there is)
    sp = min(sp, taken) if sp > 0 else max(sp, min(0, taken))
    lp = min(lp, given) if lp > 0 else max(lp, min(0, given))
    names = tuple(dict.fromkeys(item.card for item in _fired(before, after, other)))
    watch = _drained(watch, color, sp, -lp, (*((card,) if card else ()), *names))
    return watch, taken - sp, given - lp


def _priced(before: GameState, after: GameState, color: Color, card: str | None, acted: tuple[str, ...]) -> bool:
    """Whether ``color``'s cards that acted in the window gave the player something besides SP and LP
    in it (a bonus, a modifier, an action...): SP they took then is its price (CR1)."""
    if not acted:
        return False
    for item in _fired(before, after, color):
        if item.card in acted and not isinstance(item.effect.action, _RESOURCE_MOVES):
            return True
    cards = before.cards
    if card is not None and cards is not None and card in cards.by_name:
        return any(not isinstance(e.action, _RESOURCE_MOVES) for e in cards.by_name[card].effects if e.trigger is None)
    return False


_RESOURCE_MOVES = (ResourceChange, Steal, ConvertResource)


def _drained(watch: Watch, color: Color, sp: int, lp: int, by: tuple[str, ...]) -> Watch:
    """``color`` lost ``sp`` and ``lp`` (when positive) to the opponent's cards ``by``."""
    lost = max(0, sp) + max(0, lp)
    if lost <= 0:
        return watch
    side = watch.sides[color]
    names = tuple(dict.fromkeys((*side.drained_by, *by)))
    return _with_side(watch, color, side.replace(drained=side.drained + lost, drained_by=names))


def _new_turn(watch: Watch, now: int, color: Color) -> Watch:
    """A new ply: nothing seen yet, no attempt made, and ``color``'s conversion counters at 0."""
    side = watch.sides[color]
    if side.turn_sp or side.turn_lp:
        watch = _with_side(watch, color, side.replace(turn_sp=0, turn_lp=0, turn_cards=()))
    if watch.seen or watch.free_attempts or watch.free_repairs:
        return watch.replace(ply=now, seen=(), free_attempts=0, free_repairs=0)
    return Watch(watch.sides, now, watch.seen, watch.free_attempts, watch.free_repairs)  # once a ply


def _king_damaged(before: GameState, after: GameState) -> bool:
    was, now = before.players, after.players
    return was[0].king_damage != now[0].king_damage or was[1].king_damage != now[1].king_damage
