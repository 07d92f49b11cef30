"""Modules against the contract (core §8, R26).

A market (Spell Chess's reveal-on-capture) is a variant §8 allows: its cards are the pack's and
are checked as cards. Soul Master's shields are allowed as a bounded damage reduction on pieces
other than the King; the seed's shield dice (2, 4 and 6, outer to inner) guarding the player,
here the King, add King hit points and change combat math, and the seed's "the first player skips
their first Battle Phase" changes the turn structure. Each is reported at the key that says it,
with the contract code of the core number it changes, read from the core's parameter table
(:mod:`sgcheck.core.parameters`) as a card's ``set`` effect is, or SG-C050 for the turn structure.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from sgcheck.contract.facts.repairs import denial_problem, reaches_enemy_upkeep
from sgcheck.contract.registry import meta
from sgcheck.core import caps
from sgcheck.core.cards import model as A
from sgcheck.core.parameters import PARAMETERS
from sgcheck.diagnostics import Diagnostic, Fix, Span
from sgcheck.lang.modules.module_loader import ModuleFile, load_module_node
from sgcheck.lang.yaml.tree import YNode

_WHY = "a module may add a market or bounded modifiers, never change a number of the core or the turn (core §8, R26)"


def check_module_node(node: YNode, source: str) -> tuple[ModuleFile, list[Diagnostic]]:
    """The ``module:`` section of a pack manifest, read and checked (its deck is checked once the
    pack's cards are loaded: :func:`sgcheck.lang.modules.module_loader.deck_findings`)."""
    loaded = load_module_node(node, source)
    findings = [*loaded.diagnostics, *contract_findings(loaded)]
    findings.sort(key=lambda d: d.sort_key)
    return loaded, findings


def contract_findings(loaded: ModuleFile) -> Iterator[Diagnostic]:
    module = loaded.module
    if module is None:
        return
    shields = module.shields
    if shields is not None and shields.dice:
        span = loaded.spans["shields.dice"]
        total = sum(shields.dice)
        dice = ", ".join(str(d) for d in shields.dice)
        if shields.guards_king:
            hp = PARAMETERS["king.hp"]
            yield meta(hp.code).diagnostic(
                f"the shield dice ({dice}) guarding the King add {total} hit points to its {caps.KING_HP}: "
                f"the King is converted at {caps.KING_HP + total} damage, not {hp.core}",
                span,
                hint=_WHY + "; shields on other pieces may be a bounded damage reduction (reduce: 1)",
                fix=Fix("guard pieces other than the King with 'reduce: 1' instead of dice"),
                label="adds King hit points",
                rules=("core §8", "R26", hp.section),
            )
        per_hit = PARAMETERS["damage.per_hit"]
        guarded = "the King" if shields.guards_king and len(shields.guard) == 1 else "a guarded piece"
        yield meta(per_hit.code).diagnostic(
            f"the shield dice take the hits on {guarded}: only the outermost shield can be attacked, and a hit "
            f"deals its damage to the shield, not {per_hit.core} to the piece: combat math changes",
            loaded.spans["shields.guard"],
            hint=_WHY,
            fix=Fix("replace 'dice' by 'reduce: 1' (at most the +2 damage cap of core §4.5)"),
            label="changes combat math",
            rules=("core §8", "R26", per_hit.section),
        )
    if module.first_player_skips is not None:
        yield meta("SG-C050").diagnostic(
            f"the first player skips their first {module.first_player_skips} phase: the turn structure changes; "
            "a turn is Upkeep, Main 1, Battle, Main 2, End, the players taking turns (core §2)",
            loaded.spans["first_player_skips"],
            hint=_WHY,
            fix=Fix("remove this key"),
            label="changes the turn structure",
            rules=("core §2", "core §8", "R26"),
        )


def market_findings(loaded: ModuleFile, cards: Iterable[A.Card]) -> Iterator[Diagnostic]:
    """Repair denials a market's deck hands out more than once (core §6, §8; R26).

    Each card of the deck is a card of its own: a copy revealed later enters play afresh, its
    ``limit ... per game`` unspent. The capturer places each revealed card before either player, and
    the other player's captures reveal cards too, so in some game one player holds a fresh one-turn
    denial on each of two turns in a row: two denials in a deck, copies of one card counted, deny
    repair on consecutive turns with one player's effects (SG-C130, as two such cards held together;
    two different cards are that pack finding already, so this one is about the copies of one card).
    A denial that can deny on consecutive turns on its own is the card's own finding (SG-C040).
    """
    module = loaded.module
    if module is None or module.market is None:
        return
    by_name = {card.name: card for card in cards}
    deniers: list[tuple[str, Span]] = []
    for name, span in zip(module.market.deck, loaded.deck_spans, strict=True):
        card = by_name.get(name)
        if card is None:
            continue
        if any(
            isinstance(effect.action, A.DenyRepair)
            and denial_problem(card, effect) is None
            and reaches_enemy_upkeep(card, effect)
            for effect in card.effects
        ):
            deniers.append((name, span))
    if len(deniers) < 2 or len({name for name, _ in deniers}) > 1:
        return  # two different denials are the pack's own SG-C130 (held together), said once there
    name, span = deniers[0][0], deniers[1][1]  # one card, several copies: placed at the second
    yield meta("SG-C130").diagnostic(
        f"the market deck holds {len(deniers)} copies of '{name}', each denying repair for a turn: each copy is "
        "revealed as a card of its own, and the capturer places it before either player, so one player can hold "
        "a fresh denial on consecutive turns",
        span,
        hint="a deck may hand out one one-turn repair denial; other copies give it again on the next turn",
        fix=Fix(f"keep one '{name}' in the deck: replace this copy with another card"),
        label="second repair denial in the deck",
        rules=("core §6", "core §8", "R26"),
    )
