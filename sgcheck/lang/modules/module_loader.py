"""Load the ``module:`` section of a pack manifest into the core's model (:mod:`sgcheck.core.module`).

The section is validated against ``schemas/module.schema.json`` with every error placed at its
YAML line:col (SG-P038). What the schema cannot say needs the pack's cards and is checked by
:func:`deck_findings` once they are loaded: the market's deck names cards of the pack, each a
passive Relic (a card placed before a player acts as that player's card in play, R22, R26).

The parts of a module that change the core (Soul Master's shield dice, a skipped phase) load
into the model like the rest; the contract checker reports them
(:mod:`sgcheck.contract.module_contract`) and they are never played.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

from sgcheck.codes import diagnostic
from sgcheck.core.cards.model import Card
from sgcheck.core.cards.parts import CardKind, Mode
from sgcheck.core.module import Market, Module, Shields
from sgcheck.core.pieces import Kind
from sgcheck.diagnostics import Diagnostic, Span
from sgcheck.lang.yaml.schema import schema_errors
from sgcheck.lang.yaml.tree import YNode
from sgcheck.letters import ascii_lower

MODULE_SCHEMA = "module.schema.json"
_HINT = "see docs/modules.md for the module format"
_PREFIX = "module."
_KINDS = {kind.title.lower(): kind for kind in Kind}


@dataclass(frozen=True, slots=True)
class ModuleFile:
    """A module section as read: the model (None when it has an error), what reading found, and
    where each part is written (for the contract's findings and the deck's)."""

    source: str
    module: Module | None
    diagnostics: tuple[Diagnostic, ...]
    spans: dict[str, Span] = field(default_factory=dict)  # "shields.dice", "first_player_skips", ...
    deck_spans: tuple[Span, ...] = ()  # each card of the market's deck


def load_module_node(root: YNode, source: str) -> ModuleFile:
    """The module written at ``root`` (a manifest's ``module:`` section)."""
    if not isinstance(root.value, dict):
        what = "a list" if isinstance(root.value, list) else "nothing" if root.value is None else "a single value"
        message = f"a module is a mapping with a name and a market or shields, but this is {what}"
        return ModuleFile(source, None, (diagnostic("SG-P038", message, hint=_HINT).at(root.span),))
    found = []
    for _, message, span in schema_errors(MODULE_SCHEMA, root.plain(), root):
        document = message.startswith("document")
        message = "module" + message.removeprefix("document") if document else _PREFIX + message
        found.append(diagnostic("SG-P038", message, hint=_HINT).at(span))
    if found:
        return ModuleFile(source, None, tuple(found))
    values: dict[str, YNode] = root.value
    spans: dict[str, Span] = {key: root.key_spans.get(key, node.span) for key, node in values.items()}
    market = shields = None
    deck_spans: tuple[Span, ...] = ()
    if "market" in values:
        section = values["market"].value
        deck = section["deck"]
        deck_spans = tuple(item.span for item in deck.value)
        ordered = "order" not in section or section["order"].value == "committed"
        market = Market(tuple(str(item.value) for item in deck.value), ordered)
    if "shields" in values:
        node = values["shields"]
        section = node.value
        for key, child in section.items():
            spans[f"shields.{key}"] = node.key_spans.get(key, child.span)
        guard = section["guard"].plain()
        kinds = frozenset(_KINDS[ascii_lower(str(word))] for word in (guard if isinstance(guard, list) else [guard]))
        dice = tuple(int(v) for v in section["dice"].plain()) if "dice" in section else ()
        reduce = int(section["reduce"].value) if "reduce" in section else 0
        shields = Shields(kinds, dice, reduce)
    skips = values.get("first_player_skips")
    module = Module(str(values["name"].value), market, shields, str(skips.value) if skips is not None else None)
    return ModuleFile(source, module, (), spans, deck_spans)


def deck_findings(loaded: ModuleFile, cards: Iterable[Card]) -> Iterator[Diagnostic]:
    """SG-P038 for each card of the market's deck the pack does not hold, or that is not a passive Relic."""
    module = loaded.module
    if module is None or module.market is None:
        return
    by_name = {card.name: card for card in cards}
    for name, span in zip(module.market.deck, loaded.deck_spans, strict=True):
        card = by_name.get(name)
        if card is None:
            yield diagnostic(
                "SG-P038",
                f"module.market.deck names '{name}', which is not a card of the pack",
                hint="list the pack's card files under cards:, or correct the name",
            ).at(span)
        elif card.kind is not CardKind.RELIC or card.mode is not Mode.PASSIVE:
            what = "a Spell" if card.kind is CardKind.SPELL else "an activated Relic"
            yield diagnostic(
                "SG-P038",
                f"module.market.deck names '{name}', {what}: a card placed before a player acts as that "
                "player's card in play, so the deck holds passive Relics",
                hint="make it a passive relic, or leave it out of the deck",
            ).at(span)


def refused(loaded: ModuleFile, findings: Iterable[Diagnostic]) -> ModuleFile:
    """``loaded`` without its model: something found on it is an error."""
    if loaded.module is None or not any(d.is_error for d in findings):
        return loaded
    return ModuleFile(loaded.source, None, loaded.diagnostics, loaded.spans, loaded.deck_spans)
