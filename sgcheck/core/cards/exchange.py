"""The resources a card moves, and when: its exchange between SP and LP (core §2, R05, R16, R22, R23).

A card's effects move SP and LP: a ``gain``, a ``lose``, a ``steal``, a ``convert``, the price
of a trigger, the printed cost. This module says, for each effect and each card, *which side*
gains or loses *which resource*, *how much* (an exact number, or the least and the most a
``per`` or ``equal to`` amount can come to) and *in which window*: the moves that resolve
together, so that what is given up and what is gained in one window is one exchange.

The windows follow the rules of play (R17, R22, R23):

- a card played from hand: its printed cost and the effects without a trigger of a Spell or a
  passive Relic, resolved when it is played (``PLAY``);
- a use of an activated Relic: its effects without a trigger, each use (``USE``; the cost was
  paid when the Relic was played);
- the start of one of the holder's phases: every ``at <phase>:`` effect of every card in play
  (``PHASE``), the same window for every card;
- an event of the holder's: every ``on <event>:`` effect waiting for it (``EVENT``), likewise.

Only what an effect names is counted: the reward of a capture a card causes and the
resources an extra action costs are not moves of the card. Replay applies the same effects at a
concrete state (:func:`sgcheck.core.cards.semantics.amount` counts a ``per`` or ``equal to``
amount there); the contract checker reads the moves of this module to find SP given up for LP
at a better rate than the core's conversion, or more of it than 20 SP a turn.
"""

from __future__ import annotations

from enum import StrEnum
from typing import NamedTuple, assert_never

from sgcheck.core import caps
from sgcheck.core.cards.model import (
    CapturePiece,
    Card,
    CardKind,
    ConvertPiece,
    ConvertResource,
    Cost,
    CostModifier,
    DamageModifier,
    DamageReduction,
    DealDamage,
    DenyRepair,
    Effect,
    Event,
    ExtraAction,
    ExtraPhase,
    ExtraTurn,
    Mode,
    Quantity,
    QuantityKind,
    Reroll,
    Resource,
    ResourceChange,
    SetParameter,
    Side,
    SkipPhase,
    Steal,
    SwapPhases,
    ToHitModifier,
)
from sgcheck.core.pieces import KING, SET_COUNTS, Phase
from sgcheck.diagnostics import Span

#: The most pieces a ``per`` amount can count: a side's 15 pieces other than its King (a Gem never
#: holds a King, and ``per own piece on board`` leaves the King out).
MOST_COUNTED = sum(count for kind, count in SET_COUNTS.items() if kind is not KING)


class Amount(NamedTuple):
    """How much one move comes to when it happens: at least ``least``, at most ``most`` (None: no bound).

    A fixed amount is exact. ``N per piece`` moves N for each piece counted, so N at the least
    (one piece) and N x 15 at the most; ``equal to`` (a share of a side's SP or LP) and
    ``unlimited`` move at least 1 and have no bound.
    """

    least: int
    most: int | None
    fixed: bool
    words: str  # the amount as written: "20 SP", "1 SP per piece in own gem", "unlimited SP"


def amount_of(quantity: Quantity) -> Amount:
    resource = quantity.resource.value
    match quantity.kind:
        case QuantityKind.FIXED:
            return Amount(quantity.value, quantity.value, True, f"{quantity.value} {resource}")
        case QuantityKind.PER:
            per = quantity.per.value if quantity.per is not None else "piece"
            return Amount(
                quantity.value, quantity.value * MOST_COUNTED, False, f"{quantity.value} {resource} per {per}"
            )
        case QuantityKind.SCALED:
            side = quantity.scale_side.value if quantity.scale_side is not None else "own"
            read = quantity.scale_resource.value if quantity.scale_resource is not None else resource
            factor = f" x {quantity.multiply}" if quantity.multiply != 1 else ""
            factor += f" / {quantity.divide}" if quantity.divide != 1 else ""
            return Amount(1, None, False, f"{resource} equal to {side} {read}{factor}")
    return Amount(1, None, False, f"unlimited {resource}")


def fixed(value: int, resource: Resource) -> Amount:
    return Amount(value, value, True, f"{value} {resource.value}")


class Move(NamedTuple):
    """One change of one side's SP or LP: a gain or a loss of ``amount``.

    ``source`` says where it comes from as the card writes it (``lose 20 SP``, ``cost 2 SP``,
    ``pay 4 SP``). ``core_conversion`` marks the two halves of a conversion at the core's rate,
    which count toward the core's 20 SP a turn (R16): replay refuses one past that cap.
    """

    side: Side
    resource: Resource
    gain: bool
    amount: Amount
    source: str
    span: Span
    core_conversion: bool = False
    outside: bool = False  # not a card's: what fires the window (an effect taking SP, for ``on lose SP``)

    @property
    def low(self) -> int | None:
        """The smallest signed change (None: no bound below)."""
        if self.gain:
            return self.amount.least
        return None if self.amount.most is None else -self.amount.most

    @property
    def high(self) -> int | None:
        """The largest signed change (None: no bound above)."""
        if self.gain:
            return self.amount.most
        return -self.amount.least


def effect_moves(effect: Effect) -> tuple[Move, ...]:
    """What one firing or resolution of ``effect`` moves: its action, then its trigger's price.

    A price written without a resource is paid in SP first (R05), as replay pays it when the
    log does not say how.
    """
    action = effect.action
    span = effect.span
    moves: list[Move] = []
    match action:
        case ResourceChange():
            verb = "gain" if action.gain else "lose"
            who = "opponent " if action.who is Side.ENEMY else ""
            amount = amount_of(action.quantity)
            moves.append(
                Move(action.who, action.quantity.resource, action.gain, amount, f"{who}{verb} {amount.words}", span)
            )
        case Steal():
            amount = amount_of(action.quantity)
            resource = action.quantity.resource
            moves.append(Move(Side.OWN, resource, True, amount, f"steal {amount.words}", span))
            moves.append(Move(Side.ENEMY, resource, False, amount, f"steal {amount.words}", span))
        case ConvertResource():
            core = action.is_conversion and action.give == caps.CONVERSION_SP_PER_LP * action.get
            words = f"convert {action.give} {action.give_resource.value} to {action.get} {action.get_resource.value}"
            give, get = fixed(action.give, action.give_resource), fixed(action.get, action.get_resource)
            moves.append(Move(Side.OWN, action.give_resource, False, give, words, span, core))
            moves.append(Move(Side.OWN, action.get_resource, True, get, words, span, core))
        case (
            CostModifier()
            | ToHitModifier()
            | DamageModifier()
            | DamageReduction()
            | Reroll()
            | ExtraAction()
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
            pass  # moves no SP or LP itself
        case _:
            assert_never(action)
    trigger = effect.trigger
    if trigger is not None and trigger.pay is not None:
        moves.extend(_paid(trigger.pay, "pay", trigger.span))
    return tuple(moves)


def cost_moves(card: Card) -> tuple[Move, ...]:
    """The printed cost of ``card`` as losses of its holder, paid when it is played (R05, R22)."""
    if card.cost is None:
        return ()
    return _paid(card.cost, "cost", card.cost.span)


def _paid(cost: Cost, verb: str, span: Span) -> tuple[Move, ...]:
    moves = []
    for item in cost.items:
        if item.resource is not None:
            source = f"{verb} {item.amount} {item.resource.value}"
            moves.append(Move(Side.OWN, item.resource, False, fixed(item.amount, item.resource), source, item.span))
        else:
            source = f"{verb} {item.amount} (paid in SP first, R05)"
            moves.append(Move(Side.OWN, Resource.SP, False, fixed(item.amount, Resource.SP), source, item.span))
    return tuple(moves)


#: A conversion of the core at its smallest step: 2 SP for 1 LP in Main 2 (core §2, R16).
CORE_STEP_SP = caps.CONVERSION_SP_PER_LP


def smallest_loss(span: Span) -> Move:
    """The smallest SP loss that fires ``on lose SP:``: an effect taking 1 SP (a ``lose``, or the
    opponent's ``steal``). A price paid is not a loss in replay, nor is SP converted (R23)."""
    return Move(Side.OWN, Resource.SP, False, fixed(1, Resource.SP), "an effect taking 1 SP", span, outside=True)


# --- windows -------------------------------------------------------------------------------------


class WindowKind(StrEnum):
    PLAY = "play"  # a card played from hand: its cost and its effects without a trigger (R22)
    USE = "use"  # one use of an activated Relic: its effects without a trigger (R17, R22)
    PHASE = "phase"  # the start of one of the holder's phases: every ``at <phase>:`` effect
    EVENT = "event"  # an event of the holder's: every ``on <event>:`` effect waiting for it (R23)


class Window(NamedTuple):
    """Moves that resolve together. A PHASE or EVENT window is shared by every card in play."""

    kind: WindowKind
    phase: Phase | None = None
    event: Event | None = None

    @property
    def label(self) -> str:
        """``when played``, ``each use``, ``at the start of Main 2``, ``on lose SP``."""
        if self.kind is WindowKind.PLAY:
            return "when played"
        if self.kind is WindowKind.USE:
            return "each use"
        if self.kind is WindowKind.PHASE and self.phase is not None:
            return f"at the start of {self.phase.title}"
        return f"on {self.event.value if self.event is not None else 'its event'}"

    @property
    def shared(self) -> bool:
        """Whether the effects of several cards resolve in it together (a trigger's window)."""
        return self.kind in (WindowKind.PHASE, WindowKind.EVENT)


PLAYED = Window(WindowKind.PLAY)
USED = Window(WindowKind.USE)


def effect_windows(card: Card, effect: Effect) -> tuple[Window, ...]:
    """When ``effect`` of ``card`` resolves: when played, each use, or each time its trigger fires.

    An activated Relic's effects without a trigger act each time it is used, never when it is
    played (R22); a trigger ``at main:`` fires at the start of both Main phases.
    """
    trigger = effect.trigger
    if trigger is None:
        return (USED,) if card.kind is CardKind.RELIC and card.mode is Mode.ACTIVATED else (PLAYED,)
    if trigger.event is Event.PHASE and trigger.phase is not None:
        return tuple(Window(WindowKind.PHASE, phase=phase) for phase in trigger.phase.phases)
    return (Window(WindowKind.EVENT, event=trigger.event),)


def card_windows(card: Card) -> dict[Window, tuple[tuple[Effect | None, tuple[Move, ...]], ...]]:
    """Every window ``card`` moves resources in, with what each effect moves there (None: the
    printed cost, which belongs to the window the card is played in)."""
    found: dict[Window, list[tuple[Effect | None, tuple[Move, ...]]]] = {}
    paid = cost_moves(card)
    if paid:
        found.setdefault(PLAYED, []).append((None, paid))
    for effect in card.effects:
        moves = effect_moves(effect)
        if not moves:
            continue
        for window in effect_windows(card, effect):
            found.setdefault(window, []).append((effect, moves))
    return {window: tuple(entries) for window, entries in found.items()}


def per_turn(card: Card, effects: tuple[Effect, ...], window: Window, activations: int) -> int | None:
    """How many times ``window`` can come round for ``card`` in one turn (None: no bound).

    A card is played once (R22); an activated Relic is used at most ``activations`` times a
    turn (R17), and no more than any of its use limits allows; a phase starts once a turn; an
    event comes as often as it happens, unless the effects have a limit (R23).
    """
    if window.kind is WindowKind.PLAY:
        return 1
    if window.kind is WindowKind.PHASE:
        return 1
    bound: int | None = activations if window.kind is WindowKind.USE else None
    limited = card.effects if window.kind is WindowKind.USE else effects
    for effect in limited:
        if effect.limit is not None:
            bound = effect.limit.times if bound is None else min(bound, effect.limit.times)
    return bound


# --- pairing SP taken with LP given in different windows (CR1) ----------------------------------------

#: The ruling that pairs SP taken and LP given in different windows into one exchange
#: (docs/contract-rules.md, "Pairing an exchange (CR1)"); findings that pair name it.
PAIRING = "CR1"

#: How long SP a player's own cards took, in a window that brought no LP, wait for LP the same
#: player's cards give for nothing: one round of that player, two plies (core §2: the bound is
#: SP a turn, so a loss and a gift of one turn's cycle are one exchange, wherever the turn
#: boundary falls between them).
PAIRING_PLIES = 2


def pairing_key(ply: int, phase: Phase) -> int:
    """Where a window falls in the game, as one number that grows with it: its ply, then its phase."""
    return ply * (max(Phase) + 1) + phase


def pairing_until(key: int) -> int:
    """The first window SP taken in the window at ``key`` no longer waits in: the same phase one round on."""
    return key + pairing_key(PAIRING_PLIES, Phase.UPKEEP)


def pairing_counts(priced: bool) -> tuple[bool, bool]:
    """What SP taken in an earlier window counts for, once paired with LP given later by another
    card of the same player: ``(rate, amount)`` (CR1).

    SP a loss took that bought nothing else (``at end: lose 8 SP``) is the SP half of the exchange:
    it counts for the 2:1 rate and toward the 20 SP a turn. SP taken in a window where the same
    card gave its holder something else (``at main1: lose 4 SP`` with ``to_hit +10 this turn``) is
    that thing's price: LP coming later for less than 2 SP each is still SP turned into LP below
    the core's rate (the price only makes it better), but the SP did not all buy LP, so none of it
    fills the 20 SP a turn. SP and LP the opponent's cards move are never half of a player's
    exchange (:func:`holders_move`).
    """
    return (True, not priced)


def holders_move(move: Move) -> bool:
    """Whether ``move`` can be half of its card's holder's exchange (CR1): only what the holder's own
    cards do to the holder's own SP and LP; what they take from the opponent is a drain."""
    return move.side is Side.OWN
