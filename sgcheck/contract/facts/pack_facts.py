"""The facts of one card and of a whole pack, each computed at most once.

Rules read these facts and never import one another. Per card (:class:`CardFacts`) and per pack
(:class:`PackFacts`): the facts of the other modules of this package gathered once, and the pack
analyses (trigger cycles, growth, cap stacking, conversions), each a cached property so that it
is computed at most once per pack however many rules ask and not at all when every rule that
needs it is disabled.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from sgcheck.contract.analysis.conversion import (
    CardExchanges,
    Conversion,
    alone,
    card_shares,
    combinations_of,
    may_convert,
    shares_windows,
)
from sgcheck.contract.analysis.explore import Exploration, Found, explore
from sgcheck.contract.analysis.growth import Link, feedback_loops
from sgcheck.contract.analysis.profit import Profit, profits, repeated_gains
from sgcheck.contract.analysis.stacking import Stack, worst_stack
from sgcheck.contract.analysis.triggers import Cycle, trigger_cycles
from sgcheck.contract.context import CheckContext
from sgcheck.contract.facts.bonuses import ATTACK_CAPS, own_bonus_profile
from sgcheck.contract.facts.income import Income, exchange_acts, second_income
from sgcheck.contract.facts.kings import FULL_HIT, king_shield
from sgcheck.contract.facts.matchups import matchup_bit, matchup_mask
from sgcheck.contract.facts.repairs import denial_problem, reaches_enemy_upkeep
from sgcheck.contract.facts.timing import Grant, extra_grants
from sgcheck.core.cards import model as A
from sgcheck.core.cards.attack_parts import AttackKind
from sgcheck.core.pieces import Kind


class CardFacts:
    """What the rules ask about one card, each computed once."""

    def __init__(self, card: A.Card, ctx: CheckContext) -> None:
        self.card = card
        self.context = ctx

    @cached_property
    def king_shields(self) -> tuple[tuple[A.Effect, int], ...]:
        """Each effect that lowers the damage of hits on a King, with by how much."""
        found = ((effect, king_shield(effect, self.context)) for effect in self.card.effects)
        return tuple((effect, shield) for effect, shield in found if shield > 0)

    @cached_property
    def repair_denials(self) -> tuple[tuple[A.Effect, str | None], ...]:
        """Each deny-repair effect with why it covers consecutive turns on its own (None: it does not)."""
        return tuple(
            (effect, denial_problem(self.card, effect))
            for effect in self.card.effects
            if isinstance(effect.action, A.DenyRepair)
        )

    @cached_property
    def grants(self) -> tuple[Grant, ...]:
        """Each extra action lasting the turn it is granted in, with when it is granted (R03)."""
        return extra_grants(self.card)

    @cached_property
    def incomes(self) -> tuple[Income, ...]:
        """Each gain that pays Soul Gem income again under another name (core §6)."""
        found = (second_income(self.card, effect, self.context) for effect in self.card.effects)
        return tuple(income for income in found if income is not None)

    @cached_property
    def exchanges(self) -> CardExchanges:
        """Every window the card moves its holder's SP and LP in (core §2, R16)."""
        return card_shares(self.card, exchange_acts(self.context), self.context.activations)

    @cached_property
    def profits(self) -> tuple[Profit, ...]:
        """The card's triggers on a freely repeated action that return more than it costs."""
        return tuple(profits(self.card, (), self.context, with_others=0))

    @cached_property
    def conversions(self) -> tuple[Conversion, ...]:
        """What the card converts from SP into LP on its own past the core's rate or cap (R16)."""
        if not may_convert(self.card):
            return ()  # no LP gained anywhere: its moves are not worked out
        return tuple(alone(self.exchanges, self.context.activations))


class PackFacts:
    """What the pack rules ask about one pack, built once per pack by the engine.

    Every analysis is a cached property: computed on first use, then shared by every rule
    that reads it.
    """

    def __init__(self, cards: tuple[A.Card, ...], ctx: CheckContext) -> None:
        self.cards = cards
        self.context = ctx
        # the codes the card and pack rules reported on each card, and which of those codes are
        # errors, handed over by the engine before the rules of play run (they leave out what
        # is already said)
        self.known_findings: dict[str, frozenset[str]] = {}
        self.known_error_codes: frozenset[str] = frozenset()
        # the breaks of play the rules reported, for their proofs (``check --explain-break``)
        self.reported_play: list[Found] = []
        # processes the play of the pack may use (``check --jobs``; its findings do not depend on it)
        self.jobs = 1

    @cached_property
    def explored(self) -> Exploration:
        """What playing the pack found (:mod:`sgcheck.contract.analysis.explore`), for the rules of play."""
        ctx = self.context
        return explore(self.cards, ctx.ruleset, ctx.held, jobs=self.jobs, market=ctx.market, scenario=ctx.scenario)

    @cached_property
    def card_facts(self) -> tuple[CardFacts, ...]:
        """The facts of each card, in pack order."""
        return tuple(CardFacts(card, self.context) for card in self.cards)

    @cached_property
    def trigger_cycles(self) -> tuple[Cycle, ...]:
        """Every distinct trigger cycle of the pack (infinite and bounded)."""
        return tuple(trigger_cycles(self.cards))

    @cached_property
    def growth_loops(self) -> tuple[tuple[Link, ...], ...]:
        """Feedback loops between the scaled amounts of the pack's cards."""
        return tuple(feedback_loops([card for card in self.cards if scales(card)]))

    @cached_property
    def cap_stacks(self) -> dict[AttackKind, Stack | None]:
        """Per bonus category of :data:`ATTACK_CAPS`, the worst stack past its cap (None: none)."""
        return {
            category: worst_stack(
                self.cards,
                own_bonus_profile(category, self.context),
                cap,
                self.context,
                enemy_profile=own_bonus_profile(category, self.context, A.Side.ENEMY),
            )
            for category, cap in ATTACK_CAPS.items()
        }

    @cached_property
    def king_immunity_stack(self) -> Stack | None:
        """The fewest cards whose reductions on a King reach a fully boosted hit (None: no such set)."""
        shields = {id(facts.card): facts.king_shields for facts in self.card_facts}
        ctx = self.context

        def profile(card: A.Card) -> dict[int, tuple[int, A.Effect]]:
            result: dict[int, tuple[int, A.Effect]] = {}
            for effect, shield in shields[id(card)]:
                mask = matchup_mask(effect, ctx)
                for attacker in Kind:
                    index = matchup_bit(attacker, Kind.KING).bit_length() - 1
                    if mask >> index & 1:
                        total, first = result.get(index, (0, effect))
                        result[index] = (total + shield, first)
            return result

        return worst_stack(self.cards, profile, FULL_HIT, ctx, strictly_above=False)

    @cached_property
    def conversions(self) -> tuple[Conversion, ...]:
        """Conversions past the core's rate or cap that need several cards (R16, R19); the
        cards that convert on their own are left out of them (the per-card part reports those)."""
        ctx = self.context
        taking = [f for f in self.card_facts if shares_windows(f.card) or may_convert(f.card)]
        by_card = {id(f.card): list(f.conversions) for f in taking}
        return tuple(combinations_of([f.exchanges for f in taking], by_card, ctx.activations, ctx.hand_limit))

    @cached_property
    def profits(self) -> tuple[Profit, ...]:
        """Triggers that return more than their action costs only with the discounts of other cards
        in the same hand (R19); those that do alone are the per-card part's."""
        found: list[Profit] = []
        for facts in self.card_facts:
            if facts.profits or not any(True for _ in repeated_gains(facts.card)):
                continue
            others = [card for card in self.cards if card is not facts.card]
            found.extend(profits(facts.card, others, self.context, with_others=self.context.hand_limit - 1))
        return tuple(found)

    @cached_property
    def repair_deniers(self) -> tuple[tuple[A.Card, A.Effect], ...]:
        """Cards with a one-turn repair denial (legal alone), each with its first such effect."""
        found: list[tuple[A.Card, A.Effect]] = []
        for facts in self.card_facts:
            first = next(
                (
                    effect
                    for effect, problem in facts.repair_denials
                    if problem is None and reaches_enemy_upkeep(facts.card, effect)
                ),
                None,
            )
            if first is not None:
                found.append((facts.card, first))
        return tuple(found)


def scales(card: A.Card) -> bool:
    """Does any effect gain or take an amount scaled by something (``equal to own SP``)?"""
    for effect in card.effects:
        action = effect.action
        if isinstance(action, (A.ResourceChange, A.Steal)) and action.quantity.kind is A.QuantityKind.SCALED:
            return True
    return False


@dataclass(frozen=True, slots=True)
class PackView:
    """What pack-level rules look at: every card of a pack that could be read, and the pack's
    facts (:class:`PackFacts`, built once per pack by the engine), whose
    cached analyses every pack rule reads instead of computing its own."""

    name: str
    facts: PackFacts

    @property
    def cards(self) -> tuple[A.Card, ...]:
        return self.facts.cards
