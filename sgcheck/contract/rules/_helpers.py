"""Small helpers shared by several rule modules (not a rule itself)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import replace

from sgcheck.contract.analysis.explore import Found
from sgcheck.contract.card_edits import lowered_bonus, removal_fix
from sgcheck.contract.context import CheckContext
from sgcheck.contract.facts.bonuses import Bonus, attack_bonuses, worst_matchup
from sgcheck.contract.facts.matchups import common_mask, describe_mask
from sgcheck.contract.facts.pack_facts import PackView
from sgcheck.contract.facts.repeats import Repeats, repeats
from sgcheck.contract.registry import RuleMeta
from sgcheck.core.cards import model as A
from sgcheck.core.cards.attack_parts import AttackKind
from sgcheck.core.parameters import PARAMETERS, ParamFamily
from sgcheck.diagnostics import Diagnostic, Fix, Severity, listing, plural


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
    as in replay: on-hit damage to the attacked piece is a damage bonus (R23). A bonus that adds
    up with itself (each use of an activated Relic, each firing of a trigger, starts a copy beside
    those still acting: :func:`~sgcheck.contract.facts.repeats.repeats`) counts once per copy; with no bound
    on the copies, as many as it takes to pass the cap.
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
                fix=removal_fix(effect, "remove this effect"),
                label="bypasses a cap",
                context=card_context(card),
            )
    bonuses = attack_bonuses(card, category, ctx)
    for scope in (A.Side.OWN, A.Side.ENEMY):
        mine = [b for b in bonuses if b.scope is scope]
        if not mine:
            continue
        copies = {id(b): _copies(card, b, cap, ctx) for b in mine}
        counted = [replace(b, value=b.value * copies[id(b)][0]) if copies[id(b)][1] else b for b in mine]
        total, _, used = worst_matchup(counted, ctx)
        if total <= cap:
            continue
        originals = {id(c): b for c, b in zip(counted, mine, strict=True)}
        used = [originals[id(b)] for b in used]
        repeated = [(b, rep) for b in used if (rep := copies[id(b)][1]) is not None]
        count = {id(b): copies[id(b)][0] for b in used}
        if any(rep.copies is None for _, rep in repeated):
            count, total = _fewest(used, count, copies, cap)
        yield _cap_finding(card, category, cap, meta, ctx, used, repeated, count, total, scope)


def _copies(card: A.Card, bonus: Bonus, cap: int, ctx: CheckContext) -> tuple[int, Repeats | None]:
    """How many copies of ``bonus`` to count, and how it repeats (None: once). Without a bound, as
    many as it takes to pass the cap on its own."""
    rep = repeats(card, bonus.effect, ctx)
    if rep is None or bonus.doubles:
        return 1, None  # a doubling repeated doubles again: counted once, which already reports it with +1 beside it
    return (rep.copies if rep.copies is not None else cap // bonus.value + 1), rep


def _fewest(
    used: list[Bonus], count: dict[int, int], copies: dict[int, tuple[int, Repeats | None]], cap: int
) -> tuple[dict[int, int], int]:
    """The fewest copies of the bonuses without a bound that pass the cap with the others."""
    unbounded = [b for b in used if (rep := copies[id(b)][1]) is not None and rep.copies is None]
    fewest = dict(count)
    for b in unbounded:
        fewest[id(b)] = 1
    for b in unbounded:
        others = sum(o.value * fewest[id(o)] for o in used if o is not b)
        fewest[id(b)] = max(1, (cap - others) // b.value + 1)
        if others + b.value * fewest[id(b)] > cap:
            break
    return fewest, sum(b.value * fewest[id(b)] for b in used)


def _cap_finding(
    card: A.Card,
    category: AttackKind,
    cap: int,
    meta: RuleMeta,
    ctx: CheckContext,
    used: list[Bonus],
    repeated: list[tuple[Bonus, Repeats]],
    count: dict[int, int],
    total: int,
    scope: A.Side,
) -> Diagnostic:
    words = _CAP_WORDS[category]
    where = describe_mask(common_mask(b.mask for b in used), ctx)
    whose = "" if scope is A.Side.OWN else " on enemy attacks"
    on_hit = any(b.on_hit for b in used)
    what = "on-hit damage" if on_hit else words[0]
    if repeated and len(used) == 1:
        rep = repeated[0][1]
        n = count[id(used[0])]
        if category is AttackKind.REROLL:
            message = (
                f"each {rep.each[0]} adds a reroll/advantage source {rep.lasting}: {n} {rep.each[1]} give {n} "
                f"sources to one accuracy roll ({where}); the cap is {cap}"
            )
        else:
            message = (
                f"each {rep.each[0]} adds {used[0].value:+d} {rep.lasting}: {n} {rep.each[1]} give "
                f"{_signed(total, words)} > {cap:+d}"
            )
    elif category is AttackKind.REROLL:
        message = f"{total} reroll/advantage sources can apply to one accuracy roll{whose} ({where}); the cap is {cap}"
    elif len(used) == 1:
        message = f"{what} {_signed(total, words)}{whose} exceeds the {_signed(cap, words)} cap"
    else:
        parts = ", ".join(_part(b, count[id(b)], dict(repeated).get(b), words) for b in used)
        message = (
            f"{words[1]} of one card add up to {_signed(total, words)}{whose} ({parts}, "
            f"{where}), over the {_signed(cap, words)} cap"
        )
    rules = meta.rules
    if on_hit:
        rules = (*rules, "R23")
    hint = f"one attack takes at most {_signed(cap, words)} in total from all cards together (core §4.5)"
    if on_hit:
        hint += "; on-hit damage to the attacked piece counts (R23)"
    fix = Fix(f"lower the {what if len(used) == 1 else words[0]} to {_signed(cap, words)} or less")
    if len(used) == 1 and not repeated:
        fix = lowered_bonus(used[0].effect, used[0].value, cap, fix.description) or fix
    if repeated:
        kinds = {"R17" if rep.each[0] == "activation" else "R23" for _, rep in repeated}
        rules = (*rules, *sorted(kinds - set(rules)))
        hint += "; each use of an activated Relic (R17) and each firing of a trigger (R23) starts a copy of its bonus"
        hint += " beside the copies still acting"
        bonus = repeated[0][0]
        others = sum(b.value * count[id(b)] for b in used if b is not bonus)
        allowed = (cap - others) // bonus.value
        if allowed >= 1:
            kept = _signed(others + allowed * bonus.value, words)
            fix = Fix(f"bound the copies: 'limit {allowed} per game' keeps this at {kept}, or lower the bonus")
    return meta.diagnostic(
        message,
        used[0].effect.span,
        rules=rules,
        hint=hint,
        fix=fix,
        label="over the cap",
        context=(*card_context(card), ("applies to", where)),
    )


def _part(bonus: Bonus, copies: int, rep: Repeats | None, words: tuple[str, str, str, str]) -> str:
    text = bonus.part.label if bonus.on_hit or bonus.doubles else _signed(bonus.value, words)
    if rep is None:
        return text
    return f"{text} x{copies}: each {rep.each[0]} adds it {rep.lasting}"


_CAP_WORDS = {
    AttackKind.TO_HIT: ("to-hit bonus", "to-hit bonuses", "+", ""),
    AttackKind.DAMAGE: ("damage bonus", "damage bonuses", "+", " per hit"),
    AttackKind.REROLL: ("reroll source count", "reroll sources", "", " source(s)"),
}


def _signed(value: int, words: tuple[str, str, str, str]) -> str:
    return f"{words[2]}{value}{words[3]}"


_NO_CODES: frozenset[str] = frozenset()


def market_route(hands: tuple[tuple[str, ...], tuple[str, ...]], ctx: CheckContext) -> str:
    """How a market's deck (R26) brings about ``hands`` where the draft alone does not: a copy of
    one card before each player, or a card of the deck before a player beside what the draft
    keeps; empty when the draft alone deals them."""
    deck = set(ctx.market)
    parts = [
        f"a copy of '{name}' from the market's deck before each player"
        for name in sorted(set(hands[0]) & set(hands[1]) & deck)
    ]
    for side, hand in zip(("White", "Black"), hands, strict=True):
        placed = [name for name in hand if name in deck]
        if len(hand) > ctx.held and placed:
            parts.append(f"{side} keeps {ctx.held} from the draft and the capturer places '{placed[0]}' before {side}")
    return "; ".join(parts) + " (R26)" if parts else ""


def play_findings(
    pack: PackView,
    meta: RuleMeta,
    kinds: tuple[str, ...] | None,
    covered_by: frozenset[str],
    severity: Severity | None = None,
    *,
    projected: bool = False,
    unless: Callable[[Found], bool] | None = None,
) -> Iterator[Diagnostic]:
    """The breaks of ``kinds`` the explorer found by playing the pack (:mod:`sgcheck.contract.analysis.explore`),
    as ``meta``'s findings at the first card of each chain.

    ``severity`` keeps only the breaks of that severity (one code per severity); ``kinds`` None keeps
    every kind. ``projected`` keeps only the breaks no game played reached (reasoned, not shown:
    SG-C162's), and leaves them out otherwise, so that every error has a game. ``unless`` leaves out
    the breaks it holds for (one said better by another kind). A break is left
    out when a card of its chain already has an error from the card and pack rules (those are
    fixed first, and a check after the fix shows what is left), or a finding among
    ``covered_by`` (the rules that read the same consequence from the cards): it is not said twice.
    """
    from sgcheck.contract.proof import played_actions  # the count the proof's log writes
    from sgcheck.contract.proven import proof_line  # what replay reports, and where

    by_name = {card.name: card for card in pack.cards}
    known = pack.facts.known_findings
    known_errors = pack.facts.known_error_codes
    exploration = pack.facts.explored
    for found in exploration.findings:
        if (kinds is not None and found.kind not in kinds) or bool(found.projected) is not projected:
            continue
        if severity is not None and found.severity is not severity:
            continue
        if unless is not None and unless(found):
            continue
        if any(known.get(name, _NO_CODES) & (covered_by | known_errors) for name in found.cards):
            continue
        pack.facts.reported_play.append(found)
        first = next((by_name[name] for name in found.cards if name in by_name), None)
        span = first.name_span if first is not None else None
        chain = listing(found.cards, quote=lambda name: f"'{name}'", none="the core alone")
        holder = " and ".join(
            f"{side} holding {listing(hand)}"
            for side, hand in (("White", found.hands[0]), ("Black", found.hands[1]))
            if hand
        )
        yield meta.diagnostic(
            found.message,
            span,
            hint=(
                "found by playing the cards with the core engine; `sgcheck check --explain-break DIR` writes "
                "a game log that replays to it"
            ),
            label="found in play",
            context=(
                ("cards", chain),
                ("situation", found.situation),
                (
                    "game",
                    f"{holder}, from the probe '{found.probe.name}', "
                    f"{plural(played_actions(found.path), 'action')} over {plural(found.turns, 'turn')}",
                ),
                ("search", exploration.bounds.describe()),
                *((("route", route),) if (route := market_route(found.hands, pack.facts.context)) else ()),
                *(
                    (("proof", proof_line(found, by_name, pack.name, pack.facts.context.ruleset)),)
                    if found.severity is Severity.ERROR
                    else ()
                ),
            ),
        )
