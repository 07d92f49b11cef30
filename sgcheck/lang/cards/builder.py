"""Build the typed card model straight from the LALR parser's reductions.

Each method is the callback of the grammar rule of the same name (Lark wires them up
with ``keep_all_tokens``, so keywords are passed too): a node's span runs from its first
token to its last, and no parse tree is ever built. Problems the grammar cannot express
(a clause given twice, an unknown ``set`` parameter, a number too long) raise
:class:`CardStructureError`.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass
from typing import Any

from sgcheck.core.caps import number_too_long
from sgcheck.core.cards import model as A
from sgcheck.core.parameters import PARAMETERS
from sgcheck.core.pieces import Kind
from sgcheck.diagnostics import Span
from sgcheck.lang.cards.lalr import Tok
from sgcheck.lang.cards.vocab import (
    EVENT_WORDS,
    MAX_NAME_LENGTH,
    MAX_NUMBER_DIGITS,
    MAX_TEXT_LENGTH,
    PHASE_WORDS,
    piece_class,
    resource_event,
)

_ESCAPE = re.compile(r"\\(.)")
SIDES = {"own": A.Side.OWN, "enemy": A.Side.ENEMY, "opponent": A.Side.ENEMY}
_SUFFIX_WORDS = {A.Condition: "condition", A.Duration: "duration", A.Limit: "use limit"}


class CardStructureError(Exception):
    """Valid syntax that still does not make a card; carries the span to report."""

    def __init__(self, message: str, span: Span) -> None:
        super().__init__(message)
        self.message = message
        self.span = span


@dataclass(frozen=True, slots=True)
class _Clause:
    name: str
    value: Any
    span: Span


def unquote(text: str) -> str:
    """A quoted string's text: ``\\n`` is a line break (printed text may run over lines), any
    other escaped character stands for itself (``\\"``, ``\\\\``)."""
    return _ESCAPE.sub(lambda m: "\n" if m.group(1) == "n" else m.group(1), text[1:-1])


class CardBuilder:
    """Rule callbacks; ``source`` names the file being parsed (set before each file)."""

    def __init__(self) -> None:
        self.source = "<card>"

    # --- helpers ----------------------------------------------------------------------------

    def __default__(self, data: str, children: list[Any], meta: Any) -> Any:  # pragma: no cover
        raise AssertionError(f"grammar rule {data!r} has no builder method")

    def _append(self, c: list[Any]) -> list[Any]:
        """Left-recursive lists (``clauses``, ``predicates``...): extend the list built so far."""
        if len(c) == 1:
            return [c[0]]
        items: list[Any] = c[0]
        items.append(c[-1])  # ``c[1]`` is the separator when there is one
        return items

    clauses = effect_suffixes = predicates = piece_list = _append

    def span(self, first: Any, last: Any | None = None) -> Span:
        """From the start of ``first`` to the end of ``last`` (tokens, or nodes with a span)."""
        end = first if last is None else last
        if isinstance(first, Tok):
            line, column, offset = first.line, first.column, first.start_pos
        else:
            line, column, offset = first.span.line, first.span.column, first.span.offset
        if isinstance(end, Tok):
            return Span(self.source, line, column, end.end_line, end.end_column, offset, end.end_pos)
        s = end.span
        return Span(self.source, line, column, s.end_line, s.end_column, offset, s.end_offset)

    def number(self, token: Tok) -> int:
        digits = token.value.lstrip("+-")
        if len(digits) > MAX_NUMBER_DIGITS:  # never converted: int() refuses 4,300 digits and more
            raise CardStructureError(number_too_long(token.value, len(digits)), self.span(token))
        return int(token.value)

    def phase(self, token: Tok) -> A.PhaseRef:
        word = token.value.lower()
        return A.PhaseRef(PHASE_WORDS[word], word, self.span(token))

    # --- card and clauses -------------------------------------------------------------------

    def card(self, c: list[Any]) -> A.Card:
        kind_token, name_token = c[0], c[1]
        kind = A.CardKind(kind_token.value)
        mode = A.Mode.PASSIVE if kind is A.CardKind.RELIC else A.Mode.INSTANT
        if isinstance(c[2], Tok) and c[2].type == "MODE":
            mode = self._mode(kind, c[2])
        name = unquote(name_token.value)
        if not name.strip():
            raise CardStructureError("a card needs a name", self.span(name_token))
        if "\n" in name or len(name) > MAX_NAME_LENGTH:
            raise CardStructureError(
                f"a card's name is one line of at most {MAX_NAME_LENGTH} characters", self.span(name_token)
            )
        seen: dict[str, _Clause] = {}
        effects: list[A.Effect] = []
        body = c[-2] if isinstance(c[-2], list) else []
        for item in body:
            if isinstance(item, A.Effect):
                effects.append(item)
            elif item.name in seen:
                raise CardStructureError(f"'{item.name}' is given twice in card \"{name}\"", item.span)
            else:
                seen[item.name] = item
        return A.Card(
            kind=kind,
            name=name,
            mode=mode,
            span=self.span(kind_token, c[-1]),
            name_span=self.span(name_token),
            cost=seen["cost"].value if "cost" in seen else None,
            phase=seen["phase"].value if "phase" in seen else None,
            text=seen["text"].value if "text" in seen else None,
            effects=tuple(effects),
        )

    def card_mode(self, c: list[Tok]) -> Tok:
        return c[0]

    def _mode(self, kind: A.CardKind, token: Tok) -> A.Mode:
        mode = A.Mode(token.value)
        if kind is A.CardKind.SPELL and mode is not A.Mode.INSTANT:
            raise CardStructureError(f"a spell is always instant; '{mode.value}' is for relics", self.span(token))
        if kind is A.CardKind.RELIC and mode is A.Mode.INSTANT:
            raise CardStructureError("a relic is passive or activated; 'instant' is for spells", self.span(token))
        return mode

    def cost_clause(self, c: list[Any]) -> _Clause:
        return _Clause("cost", c[1], self.span(c[0], c[1]))

    def phase_clause(self, c: list[Tok]) -> _Clause:
        return _Clause("phase", self.phase(c[1]), self.span(c[0], c[1]))

    def text_clause(self, c: list[Tok]) -> _Clause:
        text = unquote(c[1].value)
        if len(text) > MAX_TEXT_LENGTH:
            raise CardStructureError(
                f"a card's text has at most {MAX_TEXT_LENGTH:,} characters, not {len(text):,}", self.span(c[1])
            )
        return _Clause("text", text, self.span(c[0], c[1]))

    def effect_clause(self, c: list[Any]) -> A.Effect:
        trigger = c[1] if isinstance(c[1], A.Trigger) else None
        action = c[2] if trigger is not None else c[1]
        found: dict[type, Any] = {}
        suffixes: list[Any] = c[-1] if isinstance(c[-1], list) else []
        last = suffixes[-1] if suffixes else action
        for suffix in suffixes:
            if type(suffix) in found:
                raise CardStructureError(
                    f"an effect takes one {_SUFFIX_WORDS[type(suffix)]}; join conditions with 'and'", suffix.span
                )
            found[type(suffix)] = suffix
        return A.Effect(
            action=action,
            span=self.span(c[0], last),
            trigger=trigger,
            condition=found.get(A.Condition),
            duration=found.get(A.Duration),
            limit=found.get(A.Limit),
        )

    # --- costs and triggers -----------------------------------------------------------------

    def free_cost(self, c: list[Tok]) -> A.Cost:
        return A.Cost((), self.span(c[0]))

    def cost_items(self, c: list[Any]) -> A.Cost:
        if len(c) == 1:
            return A.Cost((c[0],), c[0].span)
        before: A.Cost = c[0]
        return A.Cost((*before.items, c[2]), self.span(before, c[2]))

    def cost_item(self, c: list[Tok]) -> A.CostItem:
        resource = A.Resource(c[1].value.upper()) if len(c) > 1 else None
        return A.CostItem(self.number(c[0]), resource, self.span(c[0], c[-1]))

    def trigger_pay(self, c: list[Any]) -> A.Cost:
        cost: A.Cost = c[1]
        return cost

    def event(self, c: list[Tok]) -> A.Event:
        return EVENT_WORDS[c[0].value]

    def resource_event(self, c: list[Tok]) -> A.Event:
        return resource_event(c[0].value.startswith("gain"), A.Resource(c[1].value.upper()))

    def event_trigger(self, c: list[Any]) -> A.Trigger:
        pay = c[2] if isinstance(c[2], A.Cost) else None
        return A.Trigger(c[1], None, pay, self.span(c[0], c[-1]))

    def phase_trigger(self, c: list[Any]) -> A.Trigger:
        pay = c[2] if isinstance(c[2], A.Cost) else None
        return A.Trigger(A.Event.PHASE, self.phase(c[1]), pay, self.span(c[0], c[-1]))

    # --- actions ----------------------------------------------------------------------------

    def signed(self, c: list[Tok]) -> Tok:
        return c[0]

    def attack_scope(self, c: list[Tok]) -> tuple[A.Side, Tok]:
        return SIDES[c[1].value], c[-1]

    def cost_modifier(self, c: list[Any]) -> A.CostModifier:
        delta = next(t for t in c if t.type in ("SIGNED_INT", "INT"))
        resource = A.Resource(c[-1].value.upper()) if c[-1].type == "RESOURCE" else None
        return self._cost_change(c, self.number(delta), resource, 0)

    def scale_cost(self, c: list[Tok]) -> A.CostModifier:
        scale = next(t for t in c if t.type == "SCALE")
        return self._cost_change(c, 0, None, 1 if scale.value == "double" else -1)

    def scale_damage(self, c: list[Any]) -> A.DamageModifier:
        scope, last = c[2] if len(c) > 2 else (A.Side.OWN, c[1])
        return A.DamageModifier(0, scope, self.span(c[0], last), scale=1 if c[0].value == "double" else -1)

    def _cost_change(self, c: list[Any], delta: int, resource: A.Resource | None, scale: int) -> A.CostModifier:
        """``[opponent] cost [ACTION] KIND ±N [SP|LP]`` or ``[opponent] double|halve cost [ACTION] KIND``."""
        who = A.Side.ENEMY if c[0].type == "OPPONENT" else A.Side.OWN
        words = [t for t in c if t.type == "COST_KIND"]
        span = self.span(c[0], c[-1])
        cost, only = A.CostKind(words[-1].value), None
        if len(words) == 2:
            only = A.CostKind(words[0].value)
            if cost is not A.CostKind.DISTANCE or not only.is_action:
                raise CardStructureError(
                    f"'cost {words[0].value} {words[1].value}' names two costs; a distance discount for one "
                    "action is written 'cost summon distance -1'",
                    self.span(words[0], words[1]),
                )
            if only in (A.CostKind.BREAK, A.CostKind.REPAIR, A.CostKind.CONVERT):
                raise CardStructureError(
                    f"a {only.value} has no distance; 'distance' applies to move, attack, summon and teleport",
                    self.span(words[0], words[1]),
                )
        return A.CostModifier(cost, delta, resource, span, only=only, who=who, scale=scale)

    def to_hit(self, c: list[Any]) -> A.ToHitModifier:
        scope, last = c[2] if len(c) > 2 else (A.Side.OWN, c[1])
        return A.ToHitModifier(self.number(c[1]), scope, self.span(c[0], last))

    def damage_modifier(self, c: list[Any]) -> A.DamageModifier:
        scope, last = c[2] if len(c) > 2 else (A.Side.OWN, c[1])
        return A.DamageModifier(self.number(c[1]), scope, self.span(c[0], last))

    def reduce_damage(self, c: list[Any]) -> A.DamageReduction:
        amount = next(self.number(t) for t in c if isinstance(t, Tok) and t.type == "INT")
        return A.DamageReduction(amount, c[-1], self.span(c[0], c[-1]))

    def reroll_count(self, c: list[Tok]) -> tuple[int, Tok]:
        return self.number(c[0]), c[1]

    def reroll(self, c: list[Any]) -> A.Reroll:
        count, scope, last = 1, A.Side.OWN, c[0]
        for item in c[1:]:
            if isinstance(item, Tok):
                last = item  # the optional word "accuracy"
            elif isinstance(item[0], A.Side):
                scope, last = item
            else:
                count, last = item
        if count < 1:
            raise CardStructureError("a reroll happens at least once", self.span(c[0], last))
        return A.Reroll(c[0].value, count, scope, self.span(c[0], last))

    def resource_change(self, c: list[Any]) -> A.ResourceChange:
        who = A.Side.ENEMY if c[0].type == "OPPONENT" else A.Side.OWN
        verb = c[1] if who is A.Side.ENEMY else c[0]
        return A.ResourceChange(who, verb.value.startswith("gain"), c[-1], self.span(c[0], c[-1]))

    def steal(self, c: list[Any]) -> A.Steal:
        return A.Steal(c[1], self.span(c[0], c[1]))

    def count(self, c: list[Tok]) -> int | None:
        return None if c[0].type == "UNLIMITED" else self.number(c[0])

    def extra_action(self, c: list[Any]) -> A.ExtraAction:
        kind = next(t for t in c if isinstance(t, Tok) and t.type == "EXTRA_KIND")
        count = c[1] if not isinstance(c[1], Tok) else 1
        phase = self.phase(c[-1]) if c[-1].type == "PHASE" else None
        if count is not None and count < 1:
            raise CardStructureError("an extra action happens at least once", self.span(c[0], c[-1]))
        return A.ExtraAction(A.ExtraKind(kind.value.rstrip("s")), count, phase, self.span(c[0], c[-1]))

    def extra_phase(self, c: list[Tok]) -> A.ExtraPhase:
        after = self.phase(c[-1]) if len(c) > 3 else None
        return A.ExtraPhase(c[2].value.lower(), after, self.span(c[0], c[-1]))

    def extra_turn(self, c: list[Tok]) -> A.ExtraTurn:
        return A.ExtraTurn(self.span(c[0], c[-1]))

    def skip_phase(self, c: list[Tok]) -> A.SkipPhase:
        return A.SkipPhase(self.phase(c[1]), self.span(c[0], c[1]))

    def swap_phases(self, c: list[Tok]) -> A.SwapPhases:
        return A.SwapPhases(self.phase(c[1]), self.phase(c[3]), self.span(c[0], c[3]))

    def set_parameter(self, c: list[Tok]) -> A.SetParameter:
        name = c[1].value
        if name not in PARAMETERS:
            close = difflib.get_close_matches(name, PARAMETERS, n=3)
            also = f"; did you mean {', '.join(close)}?" if close else "; docs/cards.md lists them"
            raise CardStructureError(f"unknown core parameter '{name}'{also}", self.span(c[1]))
        return A.SetParameter(name, self.number(c[-1]), self.span(c[0], c[-1]))

    def deny_repair(self, c: list[Tok]) -> A.DenyRepair:
        return A.DenyRepair(self.span(c[0], c[-1]))

    def deal_damage(self, c: list[Any]) -> A.DealDamage:
        return A.DealDamage(self.number(c[1]), c[-1], self.span(c[0], c[-1]))

    def capture_piece(self, c: list[Any]) -> A.CapturePiece:
        return A.CapturePiece(c[1], self.span(c[0], c[1]))

    def convert_piece(self, c: list[Any]) -> A.ConvertPiece:
        return A.ConvertPiece(c[1], self.span(c[0], c[1]))

    def convert_resource(self, c: list[Tok]) -> A.ConvertResource:
        give, give_resource = self.number(c[1]), A.Resource(c[2].value.upper())
        get, get_resource = self.number(c[4]), A.Resource(c[5].value.upper())
        if give_resource is get_resource:
            raise CardStructureError(
                f"a conversion turns one resource into the other, not {give_resource.value} into itself",
                self.span(c[0], c[-1]),
            )
        if give < 1 or get < 1:
            raise CardStructureError("a conversion gives and gets at least 1", self.span(c[0], c[-1]))
        return A.ConvertResource(give, give_resource, get, get_resource, self.span(c[0], c[-1]))

    # --- quantities and targets -------------------------------------------------------------

    def fixed_quantity(self, c: list[Tok]) -> A.Quantity:
        resource = A.Resource(c[1].value.upper())
        return A.Quantity(A.QuantityKind.FIXED, resource, self.span(c[0], c[1]), value=self.number(c[0]))

    def per_quantity(self, c: list[Any]) -> A.Quantity:
        countable, last = c[-1]
        resource = A.Resource(c[1].value.upper())
        return A.Quantity(A.QuantityKind.PER, resource, self.span(c[0], last), value=self.number(c[0]), per=countable)

    def scaled_quantity(self, c: list[Any]) -> A.Quantity:
        side, resource, multiply, divide, last = c[-1]
        return A.Quantity(
            A.QuantityKind.SCALED,
            A.Resource(c[0].value.upper()),
            self.span(c[0], last),
            scale_side=side,
            scale_resource=resource,
            multiply=multiply,
            divide=divide,
        )

    def unlimited_quantity(self, c: list[Tok]) -> A.Quantity:
        return A.Quantity(A.QuantityKind.UNLIMITED, A.Resource(c[1].value.upper()), self.span(c[0], c[1]))

    def scale(self, c: list[Any]) -> tuple[A.Side, A.Resource, int, int, Tok]:
        multiply, divide, last = (1, 1, c[1]) if len(c) == 2 else c[2]
        return SIDES[c[0].value], A.Resource(c[1].value.upper()), multiply, divide, last

    def multiply(self, c: list[Tok]) -> tuple[int, int, Tok]:
        return self.number(c[1]), 1, c[1]

    def divide(self, c: list[Tok]) -> tuple[int, int, Tok]:
        value = self.number(c[1])
        if value == 0:
            raise CardStructureError("cannot divide by 0", self.span(c[1]))
        return 1, value, c[1]

    def gem_count(self, c: list[Tok]) -> tuple[A.Countable, Tok]:
        own = SIDES[c[2].value] is A.Side.OWN
        return (A.Countable.OWN_GEM if own else A.Countable.ENEMY_GEM), c[-1]

    def board_count(self, c: list[Tok]) -> tuple[A.Countable, Tok]:
        own = SIDES[c[0].value] is A.Side.OWN
        return (A.Countable.OWN_BOARD if own else A.Countable.ENEMY_BOARD), c[-1]

    def target(self, c: list[Tok]) -> A.Target:
        kinds = piece_class(c[1].value)
        assert kinds is not None  # the PIECE_CLASS terminal only matches piece words
        side = SIDES[c[0].value]
        return A.Target(side, kinds, f"{side.value} {c[1].value}", self.span(c[0], c[1]))

    # --- conditions, durations, limits ------------------------------------------------------

    def condition(self, c: list[Any]) -> A.Condition:
        predicates: list[A.Predicate] = c[1]
        return A.Condition(tuple(predicates), self.span(c[0], predicates[-1]))

    def role_is(self, c: list[Any]) -> A.PieceIs:
        words: list[Tok] = c[-1]
        kinds: frozenset[Kind] = frozenset()
        for token in words:
            kinds |= piece_class(token.value) or frozenset()
        negated = len(c) == 4  # ROLE "is" NOT piece_list
        return A.PieceIs(A.Role(c[0].value), kinds, negated, self.span(c[0], words[-1]))

    def distance_cmp(self, c: list[Tok]) -> A.DistanceIs:
        return A.DistanceIs(_cmp(c[1]), self.number(c[2]), self.span(c[0], c[2]))

    def in_camp(self, c: list[Tok]) -> A.InCamp:
        return A.InCamp(A.Role(c[0].value), SIDES[c[-2].value], c[1].type == "NOT", self.span(c[0], c[-1]))

    def gem_state(self, c: list[Tok]) -> A.GemIs:
        return A.GemIs(SIDES[c[0].value], c[-1].value == "broken", self.span(c[0], c[-1]))

    def resource_cmp(self, c: list[Tok]) -> A.ResourceIs:
        resource = A.Resource(c[1].value.upper())
        return A.ResourceIs(SIDES[c[0].value], resource, _cmp(c[2]), self.number(c[3]), self.span(c[0], c[3]))

    def this_attack(self, c: list[Tok]) -> A.Duration:
        return A.Duration(A.DurationKind.THIS_ATTACK, None, self.span(c[0], c[-1]))

    def this_turn(self, c: list[Tok]) -> A.Duration:
        return A.Duration(A.DurationKind.THIS_TURN, None, self.span(c[0], c[-1]))

    def for_turns(self, c: list[Tok]) -> A.Duration:
        turns = self.number(c[1])
        if turns < 1:
            raise CardStructureError("a duration lasts at least 1 turn", self.span(c[0], c[-1]))
        return A.Duration(A.DurationKind.TURNS, turns, self.span(c[0], c[-1]))

    def next_turn(self, c: list[Tok]) -> A.Duration:
        return A.Duration(A.DurationKind.NEXT_TURN, None, self.span(c[0], c[-1]))

    def until_next_turn(self, c: list[Tok]) -> A.Duration:
        return A.Duration(A.DurationKind.UNTIL_NEXT_TURN, None, self.span(c[0], c[-1]))

    def permanent(self, c: list[Tok]) -> A.Duration:
        return A.Duration(A.DurationKind.PERMANENT, None, self.span(c[0]))

    def limit_times(self, c: list[Tok]) -> tuple[int, Tok]:
        return (1 if c[0].type == "ONCE" else self.number(c[0])), c[0]

    def limit(self, c: list[Any]) -> A.Limit:
        times, token = c[1]
        if times < 1:
            raise CardStructureError("a use limit allows at least one use", self.span(token))
        return A.Limit(times, A.Period(c[-1].value), self.span(c[0], c[-1]))


def _cmp(token: Tok) -> A.Cmp:
    return A.Cmp("=" if token.value == "==" else token.value)
