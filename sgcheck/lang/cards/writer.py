"""Write the card model back as canonical ``.sgcard`` text and as YAML data.

The two front-ends (:mod:`sgcheck.lang.cards.parser` and :mod:`sgcheck.lang.cards.yaml_loader`)
read the same model; this module goes the other way. :func:`sgcard_text` writes cards as the
examples are written: one clause per line, indented by four spaces, effects in their
canonical wording. :func:`yaml_data` writes the plain structure (dicts, lists, strings,
ints) that the YAML loader accepts, and :func:`yaml_text` dumps it with ruamel.yaml in the
layout of ``examples/cards/guide-relics.sgcard.yaml``. Reading either output gives back the
model that was written (spans aside): ``tests/lang/test_card_parity.py`` holds both to it.

Every node type has one small function per output, registered in a table keyed by the
node's type (:data:`SGCARD_WRITERS`, :data:`YAML_WRITERS`); a node without one, or a value
that neither front-end can express (a spell that is not instant, a name on two lines), is
a :class:`CardWriteError` naming it.
"""

from __future__ import annotations

import io
import re
from collections.abc import Callable, Iterable
from typing import Any, TypeVar

from sgcheck.core.cards import model as A
from sgcheck.core.pieces import Kind
from sgcheck.lang.cards.vocab import MAX_NAME_LENGTH, MAX_TEXT_LENGTH, PHASE_WORDS, SIDE_WORDS, piece_class
from sgcheck.lang.source import MAX_LINE_CHARS

__all__ = [
    "SGCARD_WRITERS",
    "YAML_WRITERS",
    "CardWriteError",
    "card_data",
    "card_lines",
    "card_text",
    "dump_yaml",
    "effect_data",
    "effect_text",
    "sgcard_text",
    "yaml_data",
    "yaml_text",
]

INDENT = "    "

N = TypeVar("N")


class CardWriteError(ValueError):
    """A card (or a part of one) that cannot be written: no writer for its type, or a value
    that neither card front-end can express."""


#: Node type -> its ``.sgcard`` words (actions, predicates and the parts they are made of).
SGCARD_WRITERS: dict[type[Any], Callable[[Any], str]] = {}
#: Node type -> its YAML value; an action gives its key and value, a predicate its one-key mapping.
YAML_WRITERS: dict[type[Any], Callable[[Any], Any]] = {}


def _sgcard(kind: type[N]) -> Callable[[Callable[[N], str]], Callable[[N], str]]:
    def register(write: Callable[[N], str]) -> Callable[[N], str]:
        SGCARD_WRITERS[kind] = write
        return write

    return register


def _yaml(kind: type[N]) -> Callable[[Callable[[N], Any]], Callable[[N], Any]]:
    def register(write: Callable[[N], Any]) -> Callable[[N], Any]:
        YAML_WRITERS[kind] = write
        return write

    return register


def _words(node: object) -> str:
    write = SGCARD_WRITERS.get(type(node))
    if write is None:
        raise CardWriteError(
            f"cannot write a {type(node).__name__} as .sgcard text: it has no writer in sgcheck/lang/cards/writer.py"
        )
    return write(node)


def _data(node: object) -> Any:
    write = YAML_WRITERS.get(type(node))
    if write is None:
        raise CardWriteError(
            f"cannot write a {type(node).__name__} as YAML: it has no writer in sgcheck/lang/cards/writer.py"
        )
    return write(node)


# --- whole cards ------------------------------------------------------------------------------


def sgcard_text(cards: Iterable[A.Card]) -> str:
    """The cards as one ``.sgcard`` file: a blank line between cards, a newline at the end."""
    return "\n".join(card_text(card) for card in cards)


def card_text(card: A.Card) -> str:
    """One card: its header line, then one clause per line, and the closing brace."""
    return "\n".join(text for _, text in card_lines(card)) + "\n"


def card_lines(card: A.Card) -> list[tuple[str, str]]:
    """The lines of one card, each with what it writes: ``header``, ``cost``, ``phase``, ``text``,
    ``effect N`` (N counting from 0) or ``close``."""
    header = f"{card.kind.value} {_quoted(card.name, 'name')}"
    _check_mode(card)
    if card.kind is A.CardKind.RELIC:
        header += f" {card.mode.value}"
    clauses: list[tuple[str, str]] = []
    if card.cost is not None:
        clauses.append(("cost", f"cost {_cost_words(card.cost)}"))
    if card.phase is not None:
        clauses.append(("phase", f"phase {_phase_word(card.phase)}"))
    if card.text is not None:
        clauses.append(("text", f"text {_quoted(card.text, 'text')}"))
    clauses.extend((f"effect {index}", effect_text(effect)) for index, effect in enumerate(card.effects))
    lines = [("header", f"{header} {{"), *((role, INDENT + clause) for role, clause in clauses), ("close", "}")]
    for _, line in lines:
        if len(line) > MAX_LINE_CHARS:
            raise CardWriteError(
                f'card "{card.name[:40]}": a line of {len(line):,} characters is longer than the '
                f"{MAX_LINE_CHARS:,} a .sgcard line may have"
            )
    return lines


def effect_text(effect: A.Effect) -> str:
    """``effect [trigger:] action [condition] [duration] [limit]``."""
    parts = ["effect"]
    if effect.trigger is not None:
        parts.append(_trigger_words(effect.trigger))
    parts.append(_words(effect.action))
    if effect.condition is not None:
        parts.append(_condition_words(effect.condition))
    if effect.duration is not None:
        parts.append(_duration_words(effect.duration))
    if effect.limit is not None:
        parts.append(_limit_words(effect.limit))
    return " ".join(parts)


def yaml_data(cards: Iterable[A.Card]) -> dict[str, Any]:
    """The cards as the plain data of a YAML card file: ``{"cards": [...]}``."""
    return {"cards": [card_data(card) for card in cards]}


def card_data(card: A.Card) -> dict[str, Any]:
    _check_mode(card)
    _one_line(card.name, "name")
    if len(card.name) > MAX_YAML_NAME:
        raise CardWriteError(f"a YAML card's name has at most {MAX_YAML_NAME} characters, not {len(card.name):,}")
    data: dict[str, Any] = {"name": card.name, "kind": card.kind.value}
    if card.kind is A.CardKind.RELIC:
        data["mode"] = card.mode.value
    if card.cost is not None:
        data["cost"] = _cost_data(card.cost, free=True)
    if card.phase is not None:
        data["phase"] = _phase_word(card.phase)
    if card.text is not None:
        _one_line(card.text, "text")
        if len(card.text) > MAX_YAML_TEXT:
            raise CardWriteError(f"a YAML card's text has at most {MAX_YAML_TEXT:,} characters, not {len(card.text):,}")
        data["text"] = card.text
    if card.effects:
        data["effects"] = [effect_data(effect) for effect in card.effects]
    return data


def effect_data(effect: A.Effect) -> dict[str, Any]:
    """Keys in the order of the examples: trigger, price, the action, condition, duration, limit."""
    data: dict[str, Any] = {}
    trigger = effect.trigger
    if trigger is not None:
        if trigger.event is A.Event.PHASE:
            data["at"] = _phase_word(_trigger_phase(trigger))
        else:
            data["on"] = trigger.event.value
        if trigger.pay is not None:
            data["pay"] = _cost_data(trigger.pay, free=False)
    key, value = _data(effect.action)
    data[key] = value
    if effect.condition is not None:
        data["when"] = [_data(predicate) for predicate in effect.condition.predicates]
    if effect.duration is not None:
        data["duration"] = _duration_data(effect.duration)
    if effect.limit is not None:
        limit = effect.limit
        _at_least(limit.times, 1, "a use limit")
        once = f"once per {limit.period.value}"
        data["limit"] = once if limit.times == 1 else {"times": limit.times, "per": limit.period.value}
    return data


def yaml_text(cards: Iterable[A.Card], *, schema: str | None = None) -> str:
    """The cards as a YAML card file: :func:`yaml_data` dumped by :func:`dump_yaml`."""
    return dump_yaml(yaml_data(cards), schema=schema)


def dump_yaml(data: dict[str, Any], *, schema: str | None = None) -> str:
    """YAML card data (``{"cards": [...]}``) as text, laid out as the examples: cards and effects
    in block style, a blank line between cards, the values of an effect in flow style
    (``steal: {amount: 5, resource: SP}``). ``schema`` adds the ``yaml-language-server``
    modeline that lets editors validate the file against the card schema."""
    from ruamel.yaml import YAML
    from ruamel.yaml.comments import CommentedMap, CommentedSeq
    from ruamel.yaml.scalarstring import DoubleQuotedScalarString

    def flow(value: Any) -> Any:
        if isinstance(value, dict):
            mapping = CommentedMap((k, flow(v)) for k, v in value.items())
            mapping.fa.set_flow_style()
            return mapping
        if isinstance(value, list):
            seq = CommentedSeq(flow(v) for v in value)
            seq.fa.set_flow_style()
            return seq
        if isinstance(value, str) and _YAML_BREAKS.search(value):
            # ruamel writes these as line breaks, which read back as a space: escape them instead
            return DoubleQuotedScalarString(value)
        return value

    def block(value: dict[str, Any], blocks: dict[str, Callable[[Any], Any]]) -> CommentedMap:
        return CommentedMap((k, blocks[k](v) if k in blocks else flow(v)) for k, v in value.items())

    def predicates(value: list[dict[str, Any]]) -> CommentedSeq:
        return CommentedSeq(block(p, {}) for p in value)

    def effects(value: list[dict[str, Any]]) -> CommentedSeq:
        return CommentedSeq(block(effect, {"when": predicates}) for effect in value)

    document = block(data, {"cards": lambda cards: CommentedSeq(block(c, {"effects": effects}) for c in cards)})
    yaml = YAML(typ="rt", pure=True)
    yaml.indent(mapping=2, sequence=4, offset=2)
    yaml.width = 1 << 20  # one value per line, however long: never folded
    yaml.allow_unicode = True
    out = io.StringIO()
    yaml.dump(document, out)
    lines = out.getvalue().split("\n")
    # a card starts each "  - " line at the top level of the list: a blank line between cards
    text = "\n".join(
        ("\n" + line) if line.startswith("  - ") and index > 1 else line for index, line in enumerate(lines)
    )
    return (f"# yaml-language-server: $schema={schema}\n" if schema is not None else "") + text


# --- small parts ------------------------------------------------------------------------------

_QUOTE = re.compile(r'["\\]')
#: What no card file holds in a name or a text: a line break (a quoted string is one line), a NUL
#: (refused when a file is read) or half of a surrogate pair (not UTF-8).
_UNWRITABLE = re.compile("[\n\r\x00\ud800-\udfff]")
_UNWRITABLE_TEXT = re.compile("[\r\x00\ud800-\udfff]")  # printed text may run over lines (``\\n``)
#: The longest name and text the YAML card schema takes (``maxLength`` of ``$defs/name``, ``$defs/text``).
MAX_YAML_NAME = MAX_NAME_LENGTH
MAX_YAML_TEXT = MAX_TEXT_LENGTH
#: Characters YAML 1.1 counts as line breaks (NEL, LS, PS): written escaped, in double quotes.
_YAML_BREAKS = re.compile("[\x85\u2028\u2029]")


def _one_line(text: str, what: str) -> None:
    found = (_UNWRITABLE_TEXT if what == "text" else _UNWRITABLE).search(text)
    if found is not None:
        problem = "a line break" if found.group() in "\n\r" else f"the character {found.group()!r}"
        raise CardWriteError(f"a card's {what} is written on one line of text; {text[:40]!r} has {problem}")
    if what == "name" and not text.strip():
        raise CardWriteError("a card needs a name")


def _quoted(text: str, what: str) -> str:
    """A double-quoted string of the card language (``\\"``, ``\\\\`` and ``\\n`` escape)."""
    _one_line(text, what)
    return '"' + _QUOTE.sub(lambda m: "\\" + m.group(), text).replace("\n", "\\n") + '"'


def _check_mode(card: A.Card) -> None:
    if card.kind is A.CardKind.SPELL and card.mode is not A.Mode.INSTANT:
        raise CardWriteError(f'spell "{card.name[:40]}" is {card.mode.value}; a spell is always instant')
    if card.kind is A.CardKind.RELIC and card.mode is A.Mode.INSTANT:
        raise CardWriteError(f'relic "{card.name[:40]}" is instant; a relic is passive or activated')


def _at_least(value: int, low: int, what: str) -> None:
    if value < low:
        raise CardWriteError(f"{what} of {value} cannot be written: the card language takes {low} or more")


def _phase_word(phase: A.PhaseRef) -> str:
    if PHASE_WORDS.get(phase.word) != phase.phases:
        raise CardWriteError(f"phase {phase.word!r} does not name the phases {[p.name for p in phase.phases]}")
    return phase.word


def _trigger_phase(trigger: A.Trigger) -> A.PhaseRef:
    if trigger.phase is None:
        raise CardWriteError("a phase trigger ('at ...:') needs its phase")
    return trigger.phase


def _signed(value: int) -> str:
    return f"{value:+d}"


def _cost_words(cost: A.Cost) -> str:
    if not cost.items:
        return "free"
    return " + ".join(_cost_item_words(item) for item in cost.items)


def _cost_item_words(item: A.CostItem) -> str:
    _at_least(item.amount, 0, "an amount")
    return f"{item.amount} {item.resource.value}" if item.resource is not None else str(item.amount)


def _cost_data(cost: A.Cost, *, free: bool) -> Any:
    """``4``, ``free``, ``{SP: 2, LP: 1}`` or, when a resource repeats, ``[{SP: 2}, {SP: 1}]``."""
    if not cost.items:
        if not free:
            raise CardWriteError("a trigger's price names at least one amount ('pay 1 SP')")
        return "free"
    for item in cost.items:
        _at_least(item.amount, 0, "an amount")
    keys = [item.resource.value if item.resource is not None else "any" for item in cost.items]
    if len(cost.items) == 1 and cost.items[0].resource is None:
        return cost.items[0].amount
    if len(set(keys)) == len(keys):
        return {key: item.amount for key, item in zip(keys, cost.items, strict=True)}
    return [item.amount if key == "any" else {key: item.amount} for key, item in zip(keys, cost.items, strict=True)]


def _trigger_words(trigger: A.Trigger) -> str:
    if trigger.event is A.Event.PHASE:
        head = f"at {_phase_word(_trigger_phase(trigger))}"
    else:
        head = f"on {trigger.event.value}"
    if trigger.pay is not None:
        if not trigger.pay.items:
            raise CardWriteError("a trigger's price names at least one amount ('pay 1 SP')")
        head += f" pay {_cost_words(trigger.pay)}"
    return head + ":"


#: Piece classes in the order they are written (``Queen or Rook``).
_KIND_ORDER = (Kind.KING, Kind.QUEEN, Kind.ROOK, Kind.BISHOP, Kind.KNIGHT, Kind.PAWN)


def _piece_words(kinds: frozenset[Kind]) -> list[str]:
    if not kinds:
        raise CardWriteError("a piece condition names at least one piece class")
    if kinds == A.ALL_KINDS:
        return ["pieces"]
    return [kind.title for kind in _KIND_ORDER if kind in kinds]


def _target_word(target: A.Target) -> str:
    """The target as it was written (``enemy Kings``), or from its side and kinds when the word
    does not say them."""
    side_word, _, piece_word = target.word.partition(" ")
    if SIDE_WORDS.get(side_word) is target.side and piece_class(piece_word) == target.kinds:
        return f"{target.side.value} {piece_word}"
    words = _piece_words(target.kinds)
    if len(words) != 1:
        raise CardWriteError(f"target {target.word!r}: a target names one piece class, not {' and '.join(words)}")
    return f"{target.side.value} {words[0]}"


def _quantity_words(quantity: A.Quantity) -> str:
    resource = quantity.resource.value
    match quantity.kind:
        case A.QuantityKind.FIXED:
            _at_least(quantity.value, 0, "an amount")
            return f"{quantity.value} {resource}"
        case A.QuantityKind.PER:
            _at_least(quantity.value, 0, "an amount")
            return f"{quantity.value} {resource} per {_countable(quantity).value}"
        case A.QuantityKind.SCALED:
            side, scaled = _scale(quantity)
            return f"{resource} equal to {side.value} {scaled.value}{_factor_words(quantity)}"
        case A.QuantityKind.UNLIMITED:
            return f"unlimited {resource}"
    raise CardWriteError(f"an amount of kind {quantity.kind!r} has no wording")  # pragma: no cover


def _countable(quantity: A.Quantity) -> A.Countable:
    if quantity.per is None:
        raise CardWriteError("a 'per' amount names what it counts")
    return quantity.per


def _scale(quantity: A.Quantity) -> tuple[A.Side, A.Resource]:
    if quantity.scale_side is None or quantity.scale_resource is None:
        raise CardWriteError("an 'equal to' amount names a side and a resource")
    return quantity.scale_side, quantity.scale_resource


def _factor_words(quantity: A.Quantity) -> str:
    if quantity.multiply != 1 and quantity.divide != 1:
        raise CardWriteError("an 'equal to' amount multiplies or divides, not both")
    _at_least(quantity.multiply, 0, "a factor")
    _at_least(quantity.divide, 1, "a divisor")
    if quantity.multiply != 1:
        return f" x {quantity.multiply}"
    return f" / {quantity.divide}" if quantity.divide != 1 else ""


def _quantity_data(quantity: A.Quantity) -> dict[str, Any]:
    resource = quantity.resource.value
    match quantity.kind:
        case A.QuantityKind.FIXED:
            _at_least(quantity.value, 0, "an amount")
            return {"amount": quantity.value, "resource": resource}
        case A.QuantityKind.PER:
            _at_least(quantity.value, 0, "an amount")
            return {"amount": quantity.value, "resource": resource, "per": _countable(quantity).value}
        case A.QuantityKind.SCALED:
            side, scaled = _scale(quantity)
            _factor_words(quantity)  # the same checks
            scale: dict[str, Any] = {"side": side.value, "resource": scaled.value}
            if quantity.multiply != 1:
                scale["multiply"] = quantity.multiply
            if quantity.divide != 1:
                scale["divide"] = quantity.divide
            return {"resource": resource, "equal_to": scale}
        case A.QuantityKind.UNLIMITED:
            return {"amount": "unlimited", "resource": resource}
    raise CardWriteError(f"an amount of kind {quantity.kind!r} has no wording")  # pragma: no cover


def _scope_words(scope: A.Side) -> str:
    return "" if scope is A.Side.OWN else f" on {scope.value} attacks"


def _modifier_data(delta: int, scope: A.Side) -> Any:
    return delta if scope is A.Side.OWN else {"delta": delta, "attacks": scope.value}


def _condition_words(condition: A.Condition) -> str:
    if not condition.predicates:
        raise CardWriteError("a condition holds at least one predicate")
    return "when " + " and ".join(_words(predicate) for predicate in condition.predicates)


_DURATION_WORDS: dict[A.DurationKind, str] = {
    A.DurationKind.THIS_ATTACK: "this attack",
    A.DurationKind.THIS_TURN: "this turn",
    A.DurationKind.NEXT_TURN: "next turn",
    A.DurationKind.UNTIL_NEXT_TURN: "until your next turn",
    A.DurationKind.PERMANENT: "permanent",
}


def _duration_words(duration: A.Duration) -> str:
    if duration.kind is A.DurationKind.TURNS:
        turns = _turns(duration)
        return f"for {turns} turn{'' if turns == 1 else 's'}"
    return _duration_word(duration)


def _duration_data(duration: A.Duration) -> Any:
    if duration.kind is A.DurationKind.TURNS:
        return {"turns": _turns(duration)}
    return _duration_word(duration)


def _duration_word(duration: A.Duration) -> str:
    word = _DURATION_WORDS.get(duration.kind)
    if word is None:
        raise CardWriteError(f"the duration {duration.kind.value!r} has no writer in sgcheck/lang/cards/writer.py")
    return word


def _turns(duration: A.Duration) -> int:
    if duration.turns is None:
        raise CardWriteError("a duration in turns names how many")
    _at_least(duration.turns, 1, "a duration")
    return duration.turns


def _limit_words(limit: A.Limit) -> str:
    _at_least(limit.times, 1, "a use limit")
    return f"limit {'once' if limit.times == 1 else limit.times} per {limit.period.value}"


# --- predicates -------------------------------------------------------------------------------


@_sgcard(A.PieceIs)
def _piece_is(p: A.PieceIs) -> str:
    return f"{p.role.value} is {'not ' if p.negated else ''}{' or '.join(_piece_words(p.kinds))}"


@_yaml(A.PieceIs)
def _piece_is_data(p: A.PieceIs) -> dict[str, Any]:
    words = _piece_words(p.kinds)
    value: Any = words[0] if len(words) == 1 else words
    return {p.role.value: {"not": value} if p.negated else value}


@_sgcard(A.DistanceIs)
def _distance_is(p: A.DistanceIs) -> str:
    _at_least(p.value, 0, "a distance")
    return f"distance {p.cmp.value} {p.value}"


@_yaml(A.DistanceIs)
def _distance_is_data(p: A.DistanceIs) -> dict[str, Any]:
    _at_least(p.value, 0, "a distance")
    return {"distance": f"{p.cmp.value} {p.value}"}


@_sgcard(A.InCamp)
def _in_camp(p: A.InCamp) -> str:
    return f"{p.role.value} {'not ' if p.negated else ''}in {p.side.value} camp"


@_yaml(A.InCamp)
def _in_camp_data(p: A.InCamp) -> dict[str, Any]:
    return {f"{p.role.value}_{'not_' if p.negated else ''}in_camp": p.side.value}


@_sgcard(A.GemIs)
def _gem_is(p: A.GemIs) -> str:
    return f"{p.side.value} gem is {'broken' if p.broken else 'intact'}"


@_yaml(A.GemIs)
def _gem_is_data(p: A.GemIs) -> dict[str, Any]:
    return {f"{p.side.value}_gem": "broken" if p.broken else "intact"}


@_sgcard(A.ResourceIs)
def _resource_is(p: A.ResourceIs) -> str:
    _at_least(p.value, 0, "a number")
    return f"{p.side.value} {p.resource.value} {p.cmp.value} {p.value}"


@_yaml(A.ResourceIs)
def _resource_is_data(p: A.ResourceIs) -> dict[str, Any]:
    _at_least(p.value, 0, "a number")
    return {f"{p.side.value}_{p.resource.value}": f"{p.cmp.value} {p.value}"}


# --- actions: each YAML writer gives the action's key and value -------------------------------


_SCALE_WORDS = {1: "double", -1: "halve"}


def _scale_word(scale: int, delta: int) -> str | None:
    """``double`` or ``halve`` for a scaled change (which adds nothing: its delta is 0), None for a delta."""
    if scale == 0:
        return None
    if scale not in _SCALE_WORDS or delta != 0:
        raise CardWriteError(f"a change doubles (scale 1) or halves (scale -1) without a delta, not scale {scale}")
    return _SCALE_WORDS[scale]


def _cost_kinds(a: A.CostModifier) -> str:
    """``move``, or ``summon distance`` for a distance discount on one action."""
    if a.only is None:
        return a.cost.value
    if a.cost is not A.CostKind.DISTANCE:
        raise CardWriteError(f"only a distance discount names one action ('cost summon distance -1'), not {a.cost}")
    return f"{a.only.value} {a.cost.value}"


@_sgcard(A.CostModifier)
def _cost_modifier(a: A.CostModifier) -> str:
    who = "opponent " if a.who is A.Side.ENEMY else ""
    scale = _scale_word(a.scale, a.delta)
    if scale is not None:
        if a.resource is not None:
            raise CardWriteError(f"'{scale} cost' names no resource")
        return f"{who}{scale} cost {_cost_kinds(a)}"
    resource = f" {a.resource.value}" if a.resource is not None else ""
    return f"{who}cost {_cost_kinds(a)} {_signed(a.delta)}{resource}"


@_yaml(A.CostModifier)
def _cost_modifier_data(a: A.CostModifier) -> tuple[str, Any]:
    _cost_kinds(a)  # the same checks
    value: dict[str, Any] = {"action": a.cost.value}
    if a.only is not None:
        value["only"] = a.only.value
    if a.who is A.Side.ENEMY:
        value["who"] = "opponent"
    scale = _scale_word(a.scale, a.delta)
    if scale is not None:
        if a.resource is not None:
            raise CardWriteError(f"'{scale} cost' names no resource")
        value["scale"] = scale
    else:
        value["delta"] = a.delta
    if a.resource is not None:
        value["resource"] = a.resource.value
    return "cost_modifier", value


@_sgcard(A.ToHitModifier)
def _to_hit(a: A.ToHitModifier) -> str:
    return f"to_hit {_signed(a.delta)}{_scope_words(a.scope)}"


@_yaml(A.ToHitModifier)
def _to_hit_data(a: A.ToHitModifier) -> tuple[str, Any]:
    return "to_hit", _modifier_data(a.delta, a.scope)


@_sgcard(A.DamageModifier)
def _damage(a: A.DamageModifier) -> str:
    scale = _scale_word(a.scale, a.delta)
    if scale is not None:
        return f"{scale} damage{_scope_words(a.scope)}"
    return f"damage {_signed(a.delta)}{_scope_words(a.scope)}"


@_yaml(A.DamageModifier)
def _damage_data(a: A.DamageModifier) -> tuple[str, Any]:
    scale = _scale_word(a.scale, a.delta)
    if scale is None:
        return "damage", _modifier_data(a.delta, a.scope)
    return "damage", scale if a.scope is A.Side.OWN else {"scale": scale, "attacks": a.scope.value}


@_sgcard(A.DamageReduction)
def _reduce_damage(a: A.DamageReduction) -> str:
    _at_least(a.amount, 0, "a reduction")
    return f"reduce damage by {a.amount} on {_target_word(a.target)}"


@_yaml(A.DamageReduction)
def _reduce_damage_data(a: A.DamageReduction) -> tuple[str, Any]:
    _at_least(a.amount, 0, "a reduction")
    return "reduce_damage", {"by": a.amount, "on": _target_word(a.target)}


_REROLL_WORDS = {"reroll": "reroll accuracy", "advantage": "advantage"}


def _reroll_word(a: A.Reroll) -> str:
    if a.word not in _REROLL_WORDS:
        raise CardWriteError(f"a reroll is 'reroll' or 'advantage', not {a.word!r}")
    _at_least(a.count, 1, "a reroll count")
    return a.word


@_sgcard(A.Reroll)
def _reroll(a: A.Reroll) -> str:
    times = f" {a.count} times" if a.count != 1 else ""
    return f"{_REROLL_WORDS[_reroll_word(a)]}{times}{_scope_words(a.scope)}"


@_yaml(A.Reroll)
def _reroll_data(a: A.Reroll) -> tuple[str, Any]:
    value: dict[str, Any] = {"kind": _reroll_word(a)}
    if a.count != 1:
        value["times"] = a.count
    if a.scope is not A.Side.OWN:
        value["attacks"] = a.scope.value
    return "reroll", value


@_sgcard(A.ResourceChange)
def _resource_change(a: A.ResourceChange) -> str:
    verb = ("gain" if a.gain else "lose") if a.who is A.Side.OWN else ("opponent gains" if a.gain else "opponent loses")
    return f"{verb} {_quantity_words(a.quantity)}"


@_yaml(A.ResourceChange)
def _resource_change_data(a: A.ResourceChange) -> tuple[str, Any]:
    who = {} if a.who is A.Side.OWN else {"who": "opponent"}
    return ("gain" if a.gain else "lose"), {**who, **_quantity_data(a.quantity)}


@_sgcard(A.Steal)
def _steal(a: A.Steal) -> str:
    return f"steal {_quantity_words(a.quantity)}"


@_yaml(A.Steal)
def _steal_data(a: A.Steal) -> tuple[str, Any]:
    return "steal", _quantity_data(a.quantity)


@_sgcard(A.ExtraAction)
def _extra_action(a: A.ExtraAction) -> str:
    phase = f" in {_phase_word(a.phase)}" if a.phase is not None else ""
    if a.count is None:
        return f"extra unlimited {a.action.value}s{phase}"
    _at_least(a.count, 1, "a count of extra actions")
    if a.count == 1:
        return f"extra {a.action.value}{phase}"
    return f"extra {a.count} {a.action.value}s{phase}"


@_yaml(A.ExtraAction)
def _extra_action_data(a: A.ExtraAction) -> tuple[str, Any]:
    value: dict[str, Any] = {"action": a.action.value}
    if a.count is None:
        value["count"] = "unlimited"
    elif a.count != 1:
        _at_least(a.count, 1, "a count of extra actions")
        value["count"] = a.count
    if a.phase is not None:
        value["phase"] = _phase_word(a.phase)
    return "extra_action", value


_PHASE_NAME = re.compile(r"[a-z_][a-z0-9_-]*")


def _phase_name(a: A.ExtraPhase) -> str:
    if not _PHASE_NAME.fullmatch(a.name):
        raise CardWriteError(f"a new phase is named by one lower-case word (letters, digits, _ and -), not {a.name!r}")
    return a.name


@_sgcard(A.ExtraPhase)
def _extra_phase(a: A.ExtraPhase) -> str:
    after = f" after {_phase_word(a.after)}" if a.after is not None else ""
    return f"extra phase {_phase_name(a)}{after}"


@_yaml(A.ExtraPhase)
def _extra_phase_data(a: A.ExtraPhase) -> tuple[str, Any]:
    value: dict[str, Any] = {"name": _phase_name(a)}
    if a.after is not None:
        value["after"] = _phase_word(a.after)
    return "extra_phase", value


@_sgcard(A.ExtraTurn)
def _extra_turn(a: A.ExtraTurn) -> str:
    return "extra turn"


@_yaml(A.ExtraTurn)
def _extra_turn_data(a: A.ExtraTurn) -> tuple[str, Any]:
    return "extra_turn", True


@_sgcard(A.SkipPhase)
def _skip_phase(a: A.SkipPhase) -> str:
    return f"skip {_phase_word(a.phase)}"


@_yaml(A.SkipPhase)
def _skip_phase_data(a: A.SkipPhase) -> tuple[str, Any]:
    return "skip_phase", _phase_word(a.phase)


@_sgcard(A.SwapPhases)
def _swap_phases(a: A.SwapPhases) -> str:
    return f"swap {_phase_word(a.first)} with {_phase_word(a.second)}"


@_yaml(A.SwapPhases)
def _swap_phases_data(a: A.SwapPhases) -> tuple[str, Any]:
    return "swap_phases", [_phase_word(a.first), _phase_word(a.second)]


@_sgcard(A.SetParameter)
def _set_parameter(a: A.SetParameter) -> str:
    _at_least(a.value, 0, "a core number")
    return f"set {a.parameter} to {a.value}"


@_yaml(A.SetParameter)
def _set_parameter_data(a: A.SetParameter) -> tuple[str, Any]:
    _at_least(a.value, 0, "a core number")
    return "set", {"parameter": a.parameter, "to": a.value}


@_sgcard(A.DenyRepair)
def _deny_repair(a: A.DenyRepair) -> str:
    return "deny repair"


@_yaml(A.DenyRepair)
def _deny_repair_data(a: A.DenyRepair) -> tuple[str, Any]:
    return "deny_repair", True


@_sgcard(A.DealDamage)
def _deal_damage(a: A.DealDamage) -> str:
    _at_least(a.amount, 0, "damage")
    return f"deal {a.amount} damage to {_target_word(a.target)}"


@_yaml(A.DealDamage)
def _deal_damage_data(a: A.DealDamage) -> tuple[str, Any]:
    _at_least(a.amount, 0, "damage")
    return "deal_damage", {"amount": a.amount, "to": _target_word(a.target)}


@_sgcard(A.CapturePiece)
def _capture(a: A.CapturePiece) -> str:
    return f"capture {_target_word(a.target)}"


@_yaml(A.CapturePiece)
def _capture_data(a: A.CapturePiece) -> tuple[str, Any]:
    return "capture", _target_word(a.target)


@_sgcard(A.ConvertPiece)
def _convert(a: A.ConvertPiece) -> str:
    return f"convert {_target_word(a.target)}"


@_yaml(A.ConvertPiece)
def _convert_data(a: A.ConvertPiece) -> tuple[str, Any]:
    return "convert", _target_word(a.target)


def _conversion(a: A.ConvertResource) -> None:
    if a.give_resource is a.get_resource:
        raise CardWriteError(f"a conversion turns one resource into the other, not {a.give_resource} into itself")
    _at_least(min(a.give, a.get), 1, "a conversion")


@_sgcard(A.ConvertResource)
def _convert_resource(a: A.ConvertResource) -> str:
    _conversion(a)
    return f"convert {a.give} {a.give_resource.value} to {a.get} {a.get_resource.value}"


@_yaml(A.ConvertResource)
def _convert_resource_data(a: A.ConvertResource) -> tuple[str, Any]:
    _conversion(a)
    return "convert_resource", {"give": {a.give_resource.value: a.give}, "get": {a.get_resource.value: a.get}}
