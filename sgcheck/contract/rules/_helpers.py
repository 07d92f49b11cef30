"""Small helpers shared by several rule modules (not a rule itself)."""

from __future__ import annotations

from collections.abc import Iterator

from sgcheck.contract.context import CheckContext
from sgcheck.contract.facts import attack_bonuses, common_mask, describe_mask, worst_scenario
from sgcheck.contract.registry import RuleMeta
from sgcheck.core.cards import model as A
from sgcheck.core.cards.attack_parts import AttackKind
from sgcheck.core.parameters import PARAMETERS, ParamFamily
from sgcheck.diagnostics import Diagnostic, Fix


def card_context(card: A.Card) -> tuple[tuple[str, str], ...]:
    return (("card", f'{card.kind.value} "{card.name}"'),)


def parameter_findings(card: A.Card, family: ParamFamily, meta: RuleMeta, what: str) -> Iterator[Diagnostic]:
    """One finding per ``set`` effect of ``family``: the contract forbids rewriting core numbers."""
    for effect in card.effects:
        action = effect.action
        if not isinstance(action, A.SetParameter):
            continue
        parameter = PARAMETERS[action.parameter]
        if parameter.family is not family:
            continue
        same = " (the same number, but a card still may not own it)" if parameter.core == str(action.value) else ""
        yield meta.diagnostic(
            f"'{card.name}' rewrites {what} {action.parameter} to {action.value}; "
            f"the core fixes it at {parameter.core}{same}",
            effect.span,
            rules=(*meta.rules, parameter.section) if parameter.section not in meta.rules else meta.rules,
            hint="cards may add bounded, conditional modifiers on top of the core, never replace its numbers",
            fix=Fix("remove this effect, or express it as a modifier within the caps (docs/cards.md)"),
            label="rewrites a core number",
            context=card_context(card),
        )


def cap_findings(
    card: A.Card, category: AttackKind, cap: int, meta: RuleMeta, parameter: str, ctx: CheckContext
) -> Iterator[Diagnostic]:
    """Findings for a card that alone can exceed a per-attack cap of core §4.5 (or rewrites the cap).

    What counts toward the cap is what :func:`~sgcheck.core.cards.attack_parts.attack_part` says,
    as in replay: on-hit damage to the attacked piece is a damage bonus (R23).
    """
    words = _CAP_WORDS[category]
    for effect in card.effects:
        action = effect.action
        if isinstance(action, A.SetParameter) and action.parameter == parameter:
            yield meta.diagnostic(
                f"'{card.name}' rewrites the {words[0]} cap {parameter} to {action.value}; "
                f"the core caps it at {_signed(cap, words)}",
                effect.span,
                hint="the safety caps of core §4.5 bind every card; no card can lift them",
                fix=Fix("remove this effect"),
                label="bypasses a cap",
                context=card_context(card),
            )
    bonuses = attack_bonuses(card, category, ctx)
    for scope in (A.Side.OWN, A.Side.ENEMY):
        mine = [b for b in bonuses if b.scope is scope]
        if not mine:
            continue
        total, _, used = worst_scenario(mine)
        if total <= cap:
            continue
        where = describe_mask(common_mask(b.mask for b in used), ctx)
        whose = "" if scope is A.Side.OWN else " on enemy attacks"
        on_hit = any(b.on_hit for b in used)
        what = "on-hit damage" if on_hit else words[0]
        if category is AttackKind.REROLL:
            message = (
                f"{total} reroll/advantage sources can apply to one accuracy roll{whose} ({where}); the cap is {cap}"
            )
        elif len(used) == 1:
            message = f"{what} {_signed(total, words)}{whose} exceeds the {_signed(cap, words)} cap"
        else:
            parts = ", ".join(b.part.label if b.on_hit else _signed(b.value, words) for b in used)
            message = (
                f"{words[1]} of one card add up to {_signed(total, words)}{whose} ({parts}, "
                f"{where}), over the {_signed(cap, words)} cap"
            )
        counted = "; on-hit damage to the attacked piece counts (R23)" if on_hit else ""
        yield meta.diagnostic(
            message,
            used[0].effect.span,
            rules=(*meta.rules, "R23") if on_hit else meta.rules,
            hint=f"one attack takes at most {_signed(cap, words)} in total from all cards together "
            f"(core §4.5){counted}",
            fix=Fix(f"lower the {what if len(used) == 1 else words[0]} to {_signed(cap, words)} or less"),
            label="over the cap",
            context=(*card_context(card), ("applies to", where)),
        )


_CAP_WORDS = {
    AttackKind.TO_HIT: ("to-hit bonus", "to-hit bonuses", "+", ""),
    AttackKind.DAMAGE: ("damage bonus", "damage bonuses", "+", " per hit"),
    AttackKind.REROLL: ("reroll source count", "reroll sources", "", " source(s)"),
}


def _signed(value: int, words: tuple[str, str, str, str]) -> str:
    return f"{words[2]}{value}{words[3]}"
