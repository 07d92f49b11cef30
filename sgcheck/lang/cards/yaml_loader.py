"""Load cards written in YAML into the same model as the ``.sgcard`` language.

A YAML card file is ``cards: [...]``, validated by ``schemas/card.schema.json``
(Draft 2020-12; editors can autocomplete it through the ``yaml-language-server``
modeline shown in docs/cards.md). Each card is validated and converted on its own, so
a schema error in one card (reported at its YAML line:col as ``SG-P027``) never hides
the others.
"""

from __future__ import annotations

from collections.abc import Iterator
from difflib import SequenceMatcher
from typing import Any

from sgcheck.core.caps import MAX_NUMBER_DIGITS, number_too_long
from sgcheck.core.cards import model as A
from sgcheck.core.cards.catalog import EFFECTS
from sgcheck.core.pieces import Kind
from sgcheck.diagnostics import Diagnostic, Span
from sgcheck.lang.cards.builder import CardStructureError
from sgcheck.lang.cards.input_codes import CARD_STRUCTURE, NO_CARDS, SCHEMA_ERROR
from sgcheck.lang.cards.vocab import (
    COUNTABLE_WORDS,
    EVENT_WORDS,
    PHASE_WORDS,
    SIDE_WORDS,
    piece_class,
    resource_event,
)
from sgcheck.lang.yaml.schema import schema_errors
from sgcheck.lang.yaml.tree import LongNumber, YNode, compose

CARD_SCHEMA = "card.schema.json"
_RULES: tuple[str, ...] = ()
_CMP_WORDS = ("<=", ">=", "==", "!=", "<", ">", "=")
#: Durations written as in the card language (``for 2 turns`` is read apart).
_DURATIONS = {
    "this attack": A.DurationKind.THIS_ATTACK,
    "this turn": A.DurationKind.THIS_TURN,
    "next turn": A.DurationKind.NEXT_TURN,
    "until your next turn": A.DurationKind.UNTIL_NEXT_TURN,
    "permanent": A.DurationKind.PERMANENT,
    "permanently": A.DurationKind.PERMANENT,
}
_SCALES = {"double": 1, "halve": -1}
#: What a distance discount may be narrowed to (``cost summon distance -1``): an action that moves a piece.
_HAS_DISTANCE = (A.CostKind.MOVE, A.CostKind.ATTACK, A.CostKind.SUMMON, A.CostKind.TELEPORT)


def load_card_yaml(text: str, source: str) -> A.CardFile:
    """Every valid card of a YAML card file; invalid cards and unreadable YAML become diagnostics."""
    root = compose(text, source)
    if isinstance(root, Diagnostic):
        return A.CardFile(source, (), (root,))
    if root.value is None:
        return A.CardFile(source, (), (_no_cards(source),))
    if not _meant_as_cards(root):
        return A.CardFile(source, (), (_not_cards(source),))
    bad_cards: set[int] = set()
    diagnostics: list[Diagnostic] = []
    long_numbers: set[int] = set()  # ids of the nodes holding numbers too long to read
    for index, node in _long_numbers(root):
        if index is not None:
            bad_cards.add(index)
        if id(node) in long_numbers:
            continue  # the same node again, through an alias
        long_numbers.add(id(node))
        digits = node.value.digits
        diagnostics.append(
            Diagnostic(
                CARD_STRUCTURE.code,
                CARD_STRUCTURE.severity,
                number_too_long(node.value, digits),
                node.span,
                _RULES,
                context=_card_context(root, index),
            )
        )
    for path, message, span in schema_errors(CARD_SCHEMA, root.plain(), root):
        if long_numbers and id(root.locate(path)[0]) in long_numbers:
            continue  # already reported as a number too long
        index = path[1] if len(path) > 1 and path[0] == "cards" and isinstance(path[1], int) else None
        if index is not None:
            bad_cards.add(index)
        if index is not None:
            message = message.removeprefix(f"cards[{index}].").removeprefix(f"cards[{index}]: ")
        diagnostics.append(
            Diagnostic(
                SCHEMA_ERROR.code, SCHEMA_ERROR.severity, message, span, _RULES, context=_card_context(root, index)
            )
        )
    cards_node = root.value.get("cards") if isinstance(root.value, dict) else None
    cards: list[A.Card] = []
    if cards_node is not None and isinstance(cards_node.value, list):
        converter = _Converter(source)
        for index, card_node in enumerate(cards_node.value):
            if index in bad_cards:
                continue
            try:
                cards.append(converter.card(card_node))
            except CardStructureError as error:
                diagnostics.append(
                    Diagnostic(
                        CARD_STRUCTURE.code,
                        CARD_STRUCTURE.severity,
                        error.message,
                        error.span,
                        _RULES,
                        context=_card_context(root, index),
                    )
                )
        if not cards_node.value and not diagnostics:
            diagnostics.append(_no_cards(source))
    return A.CardFile(source, tuple(cards), tuple(diagnostics))


def _long_numbers(root: YNode) -> Iterator[tuple[int | None, YNode]]:
    """Every scalar holding an integer with more digits than a card may use (caps.MAX_NUMBER_DIGITS),
    with the index of the card it is in (None outside the cards list), in document order."""
    cards = root.value.get("cards") if isinstance(root.value, dict) else None
    found: list[tuple[int, int | None, YNode]] = []
    # Aliases are walked as often as they occur (the composer bounds the expanded size), so a
    # number shared by two cards makes both of them invalid.
    stack: list[tuple[YNode, int | None]] = [(root, None)]
    while stack:
        node, index = stack.pop()
        if isinstance(node.value, LongNumber):
            found.append((node.span.offset, index, node))
        elif isinstance(node.value, dict):
            stack.extend((child, index) for child in node.value.values())
        elif isinstance(node.value, list):
            in_cards = node is cards
            stack.extend((child, i if in_cards else index) for i, child in enumerate(node.value))
    found.sort(key=lambda item: (item[0], -1 if item[1] is None else item[1]))
    for _, index, node in found:
        yield index, node


def _no_cards(source: str) -> Diagnostic:
    return Diagnostic(
        NO_CARDS.code,
        NO_CARDS.severity,
        "the file holds no cards",
        Span.point(source),
        _RULES,
        hint="a YAML card file is a mapping with a 'cards' list (see docs/cards.md)",
    )


#: The message of a YAML file that is not a card file at all (:func:`not_a_card_file`).
NOT_CARDS = "not a card file: its document is not a mapping with a 'cards' list (nothing of it is shown)"


def not_a_card_file(parsed: A.CardFile) -> bool:
    """``parsed`` did not read as cards at all: its one finding says so, and the checker keeps its
    text out of the report's sources, so that no report quotes a line of it (a token or a
    configuration listed as cards by mistake is named and placed, never shown)."""
    return not parsed.cards and [d.message for d in parsed.diagnostics] == [NOT_CARDS]


def _meant_as_cards(root: YNode) -> bool:
    """The document is a mapping with ``cards`` or a key that misspells it (``card``, ``Cards``,
    a look-alike letter): a card file with a mistake, whose findings may quote it. Any other
    document (a string, a list, a mapping of other keys: a token or a configuration) is no card
    file. A key longer than 12 characters is never within the 0.6 ratio of 'cards'."""
    if not isinstance(root.value, dict):
        return False
    return any(
        isinstance(key, str) and len(key) <= 12 and SequenceMatcher(None, key.casefold(), "cards").ratio() >= 0.6
        for key in root.value
    )


def _not_cards(source: str) -> Diagnostic:
    """A YAML file that is not a card file at all (its document is no mapping with a ``cards``
    list): one finding at its start, quoting no value of it."""
    return Diagnostic(
        SCHEMA_ERROR.code,
        SCHEMA_ERROR.severity,
        NOT_CARDS,
        Span.point(source),
        _RULES,
        hint="a YAML card file is a mapping with a 'cards' list (see docs/cards.md)",
    )


def _card_context(root: YNode, index: int | None) -> tuple[tuple[str, str], ...]:
    if index is None:
        return ()
    node, _ = root.locate(("cards", index, "name"))
    name = node.value if isinstance(node.value, str) and not isinstance(node.value, LongNumber) else f"#{index + 1}"
    return (("card", name),)


class _Converter:
    """YNode trees that passed the schema -> card model nodes (spans from the YAML)."""

    def __init__(self, source: str) -> None:
        self.source = source

    def card(self, node: YNode) -> A.Card:
        m: dict[str, YNode] = node.value
        kind = A.CardKind(m["kind"].value)
        mode = A.Mode.PASSIVE if kind is A.CardKind.RELIC else A.Mode.INSTANT
        if "mode" in m:
            mode = A.Mode(m["mode"].value)
            if kind is A.CardKind.SPELL and mode is not A.Mode.INSTANT:
                raise CardStructureError(f"a spell is always instant; '{mode.value}' is for relics", m["mode"].span)
            if kind is A.CardKind.RELIC and mode is A.Mode.INSTANT:
                raise CardStructureError("a relic is passive or activated; 'instant' is for spells", m["mode"].span)
        effects = tuple(self.effect(e) for e in m["effects"].value) if "effects" in m else ()
        return A.Card(
            kind=kind,
            name=m["name"].value,
            mode=mode,
            span=node.span,
            name_span=m["name"].span,
            cost=self.cost(m["cost"]) if "cost" in m else None,
            phase=self.phase(m["phase"]) if "phase" in m else None,
            text=m["text"].value if "text" in m else None,
            effects=effects,
        )

    # --- small parts ------------------------------------------------------------------------

    def number(self, node: YNode) -> int:
        return int(node.value)  # the schema admits only integers (possibly written 3.0)

    def phase(self, node: YNode) -> A.PhaseRef:
        return A.PhaseRef(PHASE_WORDS[node.value], node.value, node.span)

    def cost(self, node: YNode) -> A.Cost:
        """``free``, ``4``, ``{SP: 2, LP: 1}`` or a list of those (``[{SP: 2}, {SP: 1}]``, as ``2 SP + 1 SP``)."""
        if node.value == "free":
            return A.Cost((), node.span)
        parts = node.value if isinstance(node.value, list) else [node]
        return A.Cost(tuple(item for part in parts for item in self.cost_items(part)), node.span)

    def cost_items(self, node: YNode) -> list[A.CostItem]:
        if isinstance(node.value, dict):
            return [
                A.CostItem(self.number(v), None if k == "any" else A.Resource(k), v.span) for k, v in node.value.items()
            ]
        return [A.CostItem(self.number(node), None, node.span)]

    def resource(self, node: YNode) -> A.Resource:
        return A.Resource(node.value.upper())  # any case, as in the card language

    def target(self, node: YNode) -> A.Target:
        side_word, word = node.value.split(" ", 1)
        kinds = piece_class(word)
        assert kinds is not None  # the schema's pattern admits piece words only
        side = SIDE_WORDS[side_word]
        # written as the card language writes it: ``opponent Kings`` is ``enemy Kings``
        return A.Target(side, kinds, f"{side.value} {word}", node.span)

    def side(self, node: YNode | None) -> A.Side:
        return SIDE_WORDS[node.value] if node is not None else A.Side.OWN

    def compare(self, node: YNode) -> tuple[A.Cmp, int]:
        text = node.value.strip()
        op = next(word for word in _CMP_WORDS if text.startswith(word))
        return A.Cmp("=" if op == "==" else op), int(text[len(op) :])

    # --- effects ----------------------------------------------------------------------------

    def effect(self, node: YNode) -> A.Effect:
        m: dict[str, YNode] = node.value
        if "on" in m and "at" in m:
            raise CardStructureError("an effect has one trigger: 'on' an event or 'at' a phase", m["at"].span)
        pay = self.cost(m["pay"]) if "pay" in m else None
        trigger = None
        if "on" in m:
            word = m["on"].value
            event = EVENT_WORDS.get(word) or resource_event(word.startswith("gain"), A.Resource(word[-2:].upper()))
            trigger = A.Trigger(event, None, pay, m["on"].span)
        elif "at" in m:
            trigger = A.Trigger(A.Event.PHASE, self.phase(m["at"]), pay, m["at"].span)
        elif pay is not None:
            raise CardStructureError("'pay' belongs to a trigger: add 'on' or 'at'", m["pay"].span)
        action_key = next(key for key in m if key in _ACTIONS)
        action = _ACTIONS[action_key](self, m[action_key])
        return A.Effect(
            action=action,
            span=node.span,
            trigger=trigger,
            condition=self.condition(m["when"]) if "when" in m else None,
            duration=self.duration(m["duration"]) if "duration" in m else None,
            limit=self.limit(m["limit"]) if "limit" in m else None,
        )

    def condition(self, node: YNode) -> A.Condition:
        return A.Condition(tuple(self.predicate(p) for p in node.value), node.span)

    def predicate(self, node: YNode) -> A.Predicate:
        key, value = next(iter(node.value.items()))
        span = node.span
        if key in ("attacker", "target"):
            negated = isinstance(value.value, dict)
            words = value.value["not"] if negated else value
            listed = words.value if isinstance(words.value, list) else [words]
            kinds: frozenset[Kind] = frozenset()
            for word in listed:
                kinds |= piece_class(word.value) or frozenset()
            return A.PieceIs(A.Role(key), kinds, negated, span)
        if key == "distance":
            cmp, number = self.compare(value)
            return A.DistanceIs(cmp, number, span)
        if key.endswith("_in_camp"):
            role = A.Role(key.split("_", 1)[0])
            return A.InCamp(role, self.side(value), "_not_" in key, span)
        if key.endswith("_gem"):
            return A.GemIs(A.Side(key[: -len("_gem")]), value.value == "broken", span)
        side, resource = key.split("_")
        cmp, number = self.compare(value)
        return A.ResourceIs(A.Side(side), A.Resource(resource), cmp, number, span)

    def word_number(self, word: str, node: YNode) -> int:
        """A number inside a phrase (``for 2 turns``), with the card language's digit limit."""
        if len(word) > MAX_NUMBER_DIGITS:  # never converted, as in the card language
            raise CardStructureError(number_too_long(word, len(word)), node.span)
        return int(word)

    def duration(self, node: YNode) -> A.Duration:
        if isinstance(node.value, dict):
            return A.Duration(A.DurationKind.TURNS, self.number(node.value["turns"]), node.span)
        words = node.value.split(" ")
        if words[0] != "for":
            return A.Duration(_DURATIONS[node.value], None, node.span)
        turns = self.word_number(words[1], node)
        if turns < 1:
            raise CardStructureError("a duration lasts at least 1 turn", node.span)
        return A.Duration(A.DurationKind.TURNS, turns, node.span)

    def limit(self, node: YNode) -> A.Limit:
        if isinstance(node.value, dict):
            return A.Limit(self.number(node.value["times"]), A.Period(node.value["per"].value), node.span)
        times, _, period = node.value.split(" ")  # ``once per turn``, ``2 per game``
        count = 1 if times == "once" else self.word_number(times, node)
        if count < 1:
            raise CardStructureError("a use limit allows at least one use", node.span)
        return A.Limit(count, A.Period(period), node.span)

    def quantity(self, node: YNode) -> A.Quantity:
        m: dict[str, YNode] = node.value
        resource = self.resource(m["resource"])
        if ("amount" in m) == ("equal_to" in m):
            raise CardStructureError("give either 'amount' or 'equal_to'", node.span)
        if "equal_to" in m:
            if "per" in m:
                raise CardStructureError("'per' goes with a fixed 'amount', not with 'equal_to'", m["per"].span)
            scale: dict[str, YNode] = m["equal_to"].value
            if "multiply" in scale and "divide" in scale:
                raise CardStructureError(
                    "'equal_to' takes 'multiply' or 'divide', not both (as 'x 2' or '/ 2' in the card language)",
                    scale["divide"].span,
                )
            return A.Quantity(
                A.QuantityKind.SCALED,
                resource,
                node.span,
                scale_side=self.side(scale["side"]),
                scale_resource=self.resource(scale["resource"]),
                multiply=self.number(scale["multiply"]) if "multiply" in scale else 1,
                divide=self.number(scale["divide"]) if "divide" in scale else 1,
            )
        if m["amount"].value == "unlimited":
            if "per" in m:
                raise CardStructureError("'per' needs a number, not 'unlimited'", m["per"].span)
            return A.Quantity(A.QuantityKind.UNLIMITED, resource, node.span)
        if "per" in m:
            per = COUNTABLE_WORDS[m["per"].value]
            return A.Quantity(A.QuantityKind.PER, resource, node.span, value=self.number(m["amount"]), per=per)
        return A.Quantity(A.QuantityKind.FIXED, resource, node.span, value=self.number(m["amount"]))

    # --- actions ----------------------------------------------------------------------------

    def cost_modifier(self, node: YNode) -> A.Action:
        """``{action: move, delta: -1}``, ``{action: distance, only: summon, delta: -1}``,
        ``{action: repair, scale: double, who: opponent}``: the card language's cost modifiers."""
        m = node.value
        delta, scale = self._delta_or_scale(node, "cost move -1", "double cost repair")
        if scale and "resource" in m:
            raise CardStructureError(
                "'resource' goes with a 'delta': a doubled or halved cost names none", m["resource"].span
            )
        resource = self.resource(m["resource"]) if "resource" in m else None
        cost, only = A.CostKind(m["action"].value), None
        if "only" in m:
            only = A.CostKind(m["only"].value)
            if cost is not A.CostKind.DISTANCE:
                raise CardStructureError(
                    f"'only' narrows a distance discount to one action ({{action: distance, only: {only.value}}}), "
                    f"not a {cost.value} cost",
                    m["only"].span,
                )
            if only not in _HAS_DISTANCE:
                raise CardStructureError(
                    f"a {only.value} has no distance; 'distance' applies to move, attack, summon and teleport",
                    m["only"].span,
                )
        who = A.Side.ENEMY if "who" in m and m["who"].value == "opponent" else A.Side.OWN
        return A.CostModifier(cost, delta, resource, node.span, only=only, who=who, scale=scale)

    def _delta_or_scale(self, node: YNode, delta_words: str, scale_words: str) -> tuple[int, int]:
        """The ``delta`` of a change (``cost move -1``) or its ``scale`` (``double cost repair``): one of them."""
        m = node.value
        if ("delta" in m) == ("scale" in m):
            raise CardStructureError(
                f"give 'delta' (as '{delta_words}') or 'scale' (as '{scale_words}'), one of them", node.span
            )
        if "scale" in m:
            return 0, _SCALES[m["scale"].value]
        return self.number(m["delta"]), 0

    def _modifier(self, node: YNode) -> tuple[int, A.Side]:
        if isinstance(node.value, dict):
            return self.number(node.value["delta"]), self.side(node.value.get("attacks"))
        return self.number(node), A.Side.OWN

    def to_hit(self, node: YNode) -> A.Action:
        return A.ToHitModifier(*self._modifier(node), node.span)

    def damage(self, node: YNode) -> A.Action:
        """``1``, ``{delta: -1, attacks: enemy}``, ``double``, ``{scale: halve, attacks: enemy}``."""
        if isinstance(node.value, str):
            return A.DamageModifier(0, A.Side.OWN, node.span, scale=_SCALES[node.value])
        if isinstance(node.value, dict):
            delta, scale = self._delta_or_scale(node, "damage +1", "double damage")
            return A.DamageModifier(delta, self.side(node.value.get("attacks")), node.span, scale=scale)
        return A.DamageModifier(self.number(node), A.Side.OWN, node.span)

    def reduce_damage(self, node: YNode) -> A.Action:
        return A.DamageReduction(self.number(node.value["by"]), self.target(node.value["on"]), node.span)

    def reroll(self, node: YNode) -> A.Action:
        m = node.value
        times = self.number(m["times"]) if "times" in m else 1
        return A.Reroll(m["kind"].value, times, self.side(m.get("attacks")), node.span)

    def _change(self, node: YNode, gain: bool) -> A.Action:
        who = A.Side.ENEMY if "who" in node.value and node.value["who"].value == "opponent" else A.Side.OWN
        return A.ResourceChange(who, gain, self.quantity(node), node.span)

    def gain(self, node: YNode) -> A.Action:
        return self._change(node, True)

    def lose(self, node: YNode) -> A.Action:
        return self._change(node, False)

    def steal(self, node: YNode) -> A.Action:
        return A.Steal(self.quantity(node), node.span)

    def extra_action(self, node: YNode) -> A.Action:
        m = node.value
        count = m["count"].value if "count" in m else 1
        phase = self.phase(m["phase"]) if "phase" in m else None
        kind = A.ExtraKind(m["action"].value.removesuffix("s"))  # ``attacks`` as well as ``attack``
        return A.ExtraAction(kind, None if count == "unlimited" else int(count), phase, node.span)

    def extra_phase(self, node: YNode) -> A.Action:
        m = node.value
        after = self.phase(m["after"]) if "after" in m else None
        return A.ExtraPhase(m["name"].value.lower(), after, node.span)

    def extra_turn(self, node: YNode) -> A.Action:
        return A.ExtraTurn(node.span)

    def skip_phase(self, node: YNode) -> A.Action:
        return A.SkipPhase(self.phase(node), node.span)

    def swap_phases(self, node: YNode) -> A.Action:
        first, second = node.value
        return A.SwapPhases(self.phase(first), self.phase(second), node.span)

    def set(self, node: YNode) -> A.Action:
        return A.SetParameter(node.value["parameter"].value, self.number(node.value["to"]), node.span)

    def deny_repair(self, node: YNode) -> A.Action:
        return A.DenyRepair(node.span)

    def deal_damage(self, node: YNode) -> A.Action:
        return A.DealDamage(self.number(node.value["amount"]), self.target(node.value["to"]), node.span)

    def capture(self, node: YNode) -> A.Action:
        return A.CapturePiece(self.target(node), node.span)

    def convert(self, node: YNode) -> A.Action:
        return A.ConvertPiece(self.target(node), node.span)

    def convert_resource(self, node: YNode) -> A.Action:
        """``{give: {SP: 2}, get: {LP: 1}}``, as ``convert 2 SP to 1 LP``."""
        ((give_key, give),) = node.value["give"].value.items()
        ((get_key, get),) = node.value["get"].value.items()
        give_resource, get_resource = A.Resource(give_key), A.Resource(get_key)
        if give_resource is get_resource:
            raise CardStructureError(
                f"a conversion turns one resource into the other, not {give_resource.value} into itself", node.span
            )
        if self.number(give) < 1 or self.number(get) < 1:
            raise CardStructureError("a conversion gives and gets at least 1", node.span)
        return A.ConvertResource(self.number(give), give_resource, self.number(get), get_resource, node.span)


#: The YAML action keys, one per action of the card catalogue (``sgcheck.core.cards.catalog``),
#: each read by the converter's method of that name.
_ACTIONS: dict[str, Any] = {key: getattr(_Converter, key) for kind in EFFECTS for key in kind.yaml}
