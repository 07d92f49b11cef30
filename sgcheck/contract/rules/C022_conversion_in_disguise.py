"""Cards give up SP for LP beyond the core's conversion: a conversion in disguise.

The core converts SP into LP in Main 2 only, 2 SP for 1 LP, at most 20 SP a turn (core §2,
R16), and core §8 forbids cards from altering that rate or cap. What a card does counts, not
what it is called: SP given up and the holder's LP gained in the same window, the moves that
resolve together, are a conversion. The windows: a card played (its untriggered effects and
its printed cost, a bare cost paid in SP first, R05), each use of an activated Relic, the
start of a phase (every ``at <phase>:`` effect of every card in play) and each event (every
``on <event>:`` effect, its ``pay`` price included).

Reported: an exchange at a better rate than 2 SP per LP (``lose 20 SP`` and ``gain 20 LP`` in
Main 2 is 1:1), and exchanges at the core's rate or worse that turn more than 20 SP into LP
in one turn (the SP counted are at most 2 for each LP gained; an event comes as often as it
happens unless a limit bounds it; an activated Relic is used at most twice a turn, R17). An
amount that is not fixed is taken at the player's best: a gain at its most (``per`` counts up
to 15 pieces, ``equal to`` and ``unlimited`` have no bound), a loss at its least; the finding
says so. An ``on lose SP:`` gain of LP is a rebate: every SP an effect takes fires it (a
``lose``, the opponent's ``steal``; as in replay, a price paid or SP converted is not a loss),
so 1 SP taken buys its LP and it converts on its own, in a pack with an effect that takes SP;
where no card of the pack takes SP from anyone, nothing can fire it and it is not reported.

Several cards: a hand holds 3 cards (R19), so the ``at <phase>:`` or ``on <event>:`` effects of
up to 3 cards form one exchange, and their conversions at the core's rate add up over a
turn; the finding names the smallest set. LP given up for SP (the guide's Spirit Exchange)
is not a conversion the contract names. Rewriting the rate itself (``set conversion.rate``) is
SG-C020.

Fails: ``effect lose 20 SP`` and ``effect gain 20 LP`` on a Main 2 spell. Passes:
``cost 6 SP`` and ``effect gain 2 LP`` (3 SP per LP).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import assert_never

from sgcheck.contract.analysis.conversion import CAP, RATE, Breach, Conversion, Exchange
from sgcheck.contract.context import CheckContext
from sgcheck.contract.facts.pack_facts import CardFacts, PackView
from sgcheck.contract.facts.timing import phase_words
from sgcheck.contract.registry import RuleMeta, Scope
from sgcheck.contract.rules._helpers import card_context
from sgcheck.core.cards import model as A
from sgcheck.core.cards.exchange import WindowKind
from sgcheck.core.windows import card_window
from sgcheck.diagnostics import Diagnostic, Fix, Severity

META = RuleMeta(
    code="SG-C022",
    name="conversion-in-disguise",
    severity=Severity.ERROR,
    enforces=f"core §8: no card gives up SP for LP at a better rate than {RATE}:1 or past {CAP} SP a turn",
    rules=("core §2", "core §8", "R16"),
    scope=Scope.CARD,
)

_HINT = (
    f"the core converts SP into LP in Main 2 only, {RATE} SP for 1 LP, at most {CAP} SP a turn (core §2, R16); "
    "SP given up and LP gained in one window are that conversion, whatever the card calls it"
)
_REBATE = "; an 'on lose SP:' gain of LP fires on every SP an effect takes, 1 SP and up"


def check(card: A.Card, ctx: CheckContext) -> Iterator[Diagnostic]:
    for conversion in CardFacts(card, ctx).conversions:
        if not _rebate_only(conversion):
            yield _finding(conversion, together=False)


def check_pack(pack: PackView, ctx: CheckContext) -> Iterator[Diagnostic]:
    # a rebate fires only on SP an effect takes (R23: a price paid never does), so it converts
    # only in a pack with an effect that takes SP: judged here, where the pack is known
    if any(_takes_sp(card) for card in pack.cards):
        for facts in pack.facts.card_facts:
            for conversion in facts.conversions:
                if _rebate_only(conversion):
                    yield _finding(conversion, together=False)
    for conversion in pack.facts.conversions:
        yield _finding(conversion, together=True)


def _rebate_only(conversion: Conversion) -> bool:
    """A conversion whose every exchange is an ``on lose SP:`` rebate."""
    return all(e.window.kind is WindowKind.EVENT and e.window.event is A.Event.LOSE_SP for e in conversion.exchanges)


def _takes_sp(card: A.Card) -> bool:
    """Whether an effect of ``card`` takes SP from a player (``lose``, ``opponent loses``, ``steal``)."""
    return any(_takes_sp_action(effect.action) for effect in card.effects)


def _takes_sp_action(action: A.Action) -> bool:
    match action:
        case A.ResourceChange():
            return not action.gain and action.quantity.resource is A.Resource.SP
        case A.Steal():
            return action.quantity.resource is A.Resource.SP
        case (
            A.CostModifier()
            | A.ToHitModifier()
            | A.DamageModifier()
            | A.DamageReduction()
            | A.Reroll()
            | A.ExtraAction()
            | A.ExtraPhase()
            | A.ExtraTurn()
            | A.ConvertResource()
            | A.SkipPhase()
            | A.SwapPhases()
            | A.SetParameter()
            | A.DenyRepair()
            | A.DealDamage()
            | A.CapturePiece()
            | A.ConvertPiece()
        ):
            return False  # neither loses nor steals SP
        case _:
            assert_never(action)


def _where(exchange: Exchange) -> str:
    window = exchange.window
    if window.kind is WindowKind.PLAY and len(exchange.cards) == 1:
        return f"when played ({phase_words(card_window(exchange.cards[0]))})"
    if window.kind is WindowKind.USE and len(exchange.cards) == 1:
        return f"at each use ({phase_words(card_window(exchange.cards[0]))})"
    return window.label


def _rounds(rounds: int | None) -> str:
    if rounds is None:
        return ", as often as it comes in a turn"
    return f", {rounds} times a turn" if rounds > 1 else ""


def _rebate(conversion: Conversion) -> bool:
    return any(e.window.kind is WindowKind.EVENT and e.window.event is A.Event.LOSE_SP for e in conversion.exchanges)


def _finding(conversion: Conversion, *, together: bool) -> Diagnostic:
    cards = conversion.cards
    names = " and ".join(f"'{c.name}'" for c in cards)
    who = f"{names} together" if together else names
    rate = conversion.breach is Breach.RATE
    if rate:
        (exchange,) = conversion.exchanges
        worst = exchange.assumptions(most_lost=False)
        message = (
            f"{who} give{'' if together else 's'} up SP for LP {_where(exchange)}: {exchange.chain(together)} = "
            f"{exchange.rate_words()}, a better rate than the core's {RATE} SP per LP"
        )
        gained = exchange.gained
        if _rebate(conversion):
            fix = Fix("gain SP (or nothing) on 'on lose SP:', not LP")
        elif gained is None:
            fix = Fix("give the LP gain a fixed amount, and take at least 2 SP for each LP")
        else:
            fix = Fix(f"give up at least {RATE * gained} SP for {gained} LP, or gain something other than LP")
    else:
        worst = [w for e in conversion.exchanges for w in e.assumptions(most_lost=True)]
        total = conversion.per_turn_sp
        amount = "SP without bound" if total is None else f"{total} SP"
        parts = "; ".join(
            f"{_where(e)}{_rounds(r)}: {e.chain(together)} = {e.rate_words()}"
            for e, r in zip(conversion.exchanges, conversion.rounds, strict=True)
        )
        turns = "turn" if together else "turns"
        message = f"{who} {turns} {amount} into LP in one turn, past the core's {CAP} SP a turn: {parts}"
        fix = Fix(f"turn at most {CAP} SP into LP a turn: lower the amounts, or bound them ('limit once per turn')")
    if worst:
        message += f" (worst case: {'; '.join(dict.fromkeys(worst))})"
    effect = conversion.effect
    context: tuple[tuple[str, str], ...]
    if together:
        context = (("cards", names), *((f"'{c.name}'", f"{c.kind.value} at {c.span}") for c in cards))
    else:
        context = card_context(cards[0])
    return META.diagnostic(
        message,
        effect.span if effect is not None else cards[0].span,
        rules=(*META.rules, "R19") if together else META.rules,
        hint=_HINT + (_REBATE if _rebate(conversion) else ""),
        fix=fix,
        label="converts SP into LP" if rate else "past the conversion cap",
        context=context,
    )
