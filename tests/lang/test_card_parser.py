"""The .sgcard language: what parses into which model, spans, and error reports (docs/cards.md)."""

from __future__ import annotations

import pytest

from sgcheck.core.cards import model as A
from sgcheck.core.pieces import Kind, Phase
from sgcheck.diagnostics import Span
from sgcheck.lang.cards.parser import parse_cards


def one_card(text: str) -> A.Card:
    parsed = parse_cards(text, "t.sgcard")
    assert not parsed.diagnostics, [d.message for d in parsed.diagnostics]
    assert len(parsed.cards) == 1
    return parsed.cards[0]


def one_effect(text: str) -> A.Effect:
    card = one_card(f'relic "X" {{ cost 1 SP effect {text} }}')
    assert len(card.effects) == 1
    return card.effects[0]


def test_card_header_clauses_and_defaults() -> None:
    card = one_card('relic "Soul Ward" {\n  cost 6 SP + 1 LP\n  phase main\n  text "Shields \\"you\\"."\n}\n')
    assert (card.kind, card.name, card.mode) == (A.CardKind.RELIC, "Soul Ward", A.Mode.PASSIVE)
    assert card.cost is not None and card.cost.total == 7 and card.cost.of(A.Resource.LP) == 1
    assert card.phase is not None and card.phase.phases == (Phase.MAIN1, Phase.MAIN2)
    assert card.text == 'Shields "you".'
    assert one_card('spell "S" { cost free }').mode is A.Mode.INSTANT
    assert one_card('relic "R" activated { cost 2 }').mode is A.Mode.ACTIVATED


def test_spans_point_at_the_text() -> None:
    text = '# intro\n\nspell "Soul Drain" {\n    cost 3 SP\n    effect steal 5 SP\n}\n'
    card = one_card(text)
    assert (card.span.line, card.span.column, card.span.end_line) == (3, 1, 6)
    assert (card.name_span.line, card.name_span.column, card.name_span.end_column) == (3, 7, 19)
    effect = card.effects[0]
    assert (effect.span.line, effect.span.column) == (5, 5)
    assert text[effect.span.offset : effect.span.end_offset] == "effect steal 5 SP"


#: The expected modifiers' span, which is not compared (a real Span: compiled, a field's type is checked).
UNCOMPARED = Span("", 0, 0, 0, 0)


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("to_hit +10", A.ToHitModifier(10, A.Side.OWN, UNCOMPARED)),
        ("to-hit -10 on enemy attacks", A.ToHitModifier(-10, A.Side.ENEMY, UNCOMPARED)),
        ("damage +1", A.DamageModifier(1, A.Side.OWN, UNCOMPARED)),
        ("cost summon -2 SP", A.CostModifier(A.CostKind.SUMMON, -2, A.Resource.SP, UNCOMPARED)),
    ],
)
def test_modifiers(source: str, expected: object) -> None:
    action = one_effect(source).action
    assert type(action) is type(expected)
    for field in ("delta", "scope", "cost", "resource"):
        if hasattr(expected, field):
            assert getattr(action, field) == getattr(expected, field)


def test_quantities() -> None:
    fixed = one_effect("gain 2 SP").action
    assert isinstance(fixed, A.ResourceChange) and fixed.gain and fixed.quantity.value == 2
    per = one_effect("gain 1 SP per piece in own gem").action
    assert isinstance(per, A.ResourceChange) and per.quantity.per is A.Countable.OWN_GEM
    scaled = one_effect("gain SP equal to enemy LP / 2").action
    assert isinstance(scaled, A.ResourceChange)
    q = scaled.quantity
    assert (q.kind, q.scale_side, q.scale_resource, q.divide) == (A.QuantityKind.SCALED, A.Side.ENEMY, A.Resource.LP, 2)
    loss = one_effect("opponent loses 3 LP").action
    assert isinstance(loss, A.ResourceChange) and loss.who is A.Side.ENEMY and not loss.gain
    steal = one_effect("steal unlimited SP").action
    assert isinstance(steal, A.Steal) and steal.quantity.kind is A.QuantityKind.UNLIMITED


def test_triggers_conditions_durations_limits() -> None:
    effect = one_effect(
        "on attacked pay 1 SP: to_hit -10 on enemy attacks when target is Queen or Rook and distance <= 2 "
        "and attacker not in own camp and own gem is broken and own SP >= 10 this attack limit once per turn"
    )
    assert effect.trigger is not None and effect.trigger.event is A.Event.ATTACKED
    assert effect.trigger.pay is not None and effect.trigger.pay.total == 1
    assert effect.condition is not None
    kinds = [type(p) for p in effect.condition.predicates]
    assert kinds == [A.PieceIs, A.DistanceIs, A.InCamp, A.GemIs, A.ResourceIs]
    piece = effect.condition.predicates[0]
    assert isinstance(piece, A.PieceIs) and piece.kinds == {Kind.QUEEN, Kind.ROOK}
    assert effect.duration is not None and effect.duration.kind is A.DurationKind.THIS_ATTACK
    assert effect.limit is not None and (effect.limit.times, effect.limit.period) == (1, A.Period.TURN)
    upkeep = one_effect("at upkeep: gain 1 LP for 2 turns limit 3 per game")
    assert upkeep.trigger is not None and upkeep.trigger.label == "at upkeep"
    assert upkeep.duration is not None and upkeep.duration.turns == 2


def test_the_language_can_express_what_the_contract_forbids() -> None:
    """core §8: forbidden things parse as cards so the checker can report them, not the parser."""
    forbidden = {
        "set value.rook to 6": A.SetParameter,
        "set conversion.rate to 1": A.SetParameter,
        "set threshold.break to 10": A.SetParameter,
        "extra phase movement after main1": A.ExtraPhase,
        "skip battle": A.SkipPhase,
        "swap battle with main1": A.SwapPhases,
        "deny repair": A.DenyRepair,
        "deal 2 damage to enemy King": A.DealDamage,
        "capture enemy King": A.CapturePiece,
        "convert enemy King": A.ConvertPiece,
        "gain SP equal to own SP": A.ResourceChange,
        "extra unlimited attacks in battle": A.ExtraAction,
        "reroll accuracy 2 times": A.Reroll,
    }
    for source, kind in forbidden.items():
        assert isinstance(one_effect(source).action, kind), source


def test_a_syntax_error_costs_only_its_card() -> None:
    text = (
        'spell "Good One" { cost 1 SP effect gain 1 SP }\n'
        'spell "Bad" { cost 1 SP effect to_hit }\n'
        'spell "Good Two" { cost 1 SP effect gain 1 LP }\n'
    )
    parsed = parse_cards(text, "t.sgcard")
    assert [c.name for c in parsed.cards] == ["Good One", "Good Two"]
    (error,) = parsed.diagnostics
    assert (error.code, error.span.line, error.span.column) == ("SG-P020", 2, 39)
    assert "a modifier needs a number" in error.message
    assert error.context == (("card", 'spell "Bad"'),)


@pytest.mark.parametrize(
    ("text", "code", "line", "column"),
    [
        ("relic Soul { }", "SG-P020", 1, 7),
        ('spell "X" {\n  cost 2 SP\n', "SG-P021", 2, 12),
        ('spell "X" { cost 2 SP é }', "SG-P022", 1, 23),
        ('spell "X" passive { }', "SG-P023", 1, 11),
        ('relic "X" instant { }', "SG-P023", 1, 11),
        ('spell "X" { cost 1 cost 2 }', "SG-P023", 1, 20),
        ('spell "X" { effect gain 1234567890 SP }', "SG-P023", 1, 25),
        ('spell "X" { effect gain SP equal to own SP / 0 }', "SG-P023", 1, 46),
        ('spell "" { }', "SG-P023", 1, 7),
        ('hello\nspell "X" { }', "SG-P020", 1, 1),
    ],
)
def test_error_positions(text: str, code: str, line: int, column: int) -> None:
    parsed = parse_cards(text, "t.sgcard")
    found = parsed.diagnostics[0]
    assert (found.code, found.span.line, found.span.column) == (code, line, column), found.message


def test_empty_file_and_comments_only() -> None:
    for text in ("", "   \n", "# nothing\n# at all\n", "\ufeff"):
        parsed = parse_cards(text, "t.sgcard")
        assert parsed.cards == () and [d.code for d in parsed.diagnostics] == ["SG-P028"]


def test_crlf_tabs_and_keyword_case() -> None:
    card = one_card('spell "X" {\r\n\tcost 2 sp\r\n\teffect reduce damage by 1 on own KNIGHTS\r\n}\r\n')
    action = card.effects[0].action
    assert isinstance(action, A.DamageReduction) and action.target.kinds == {Kind.KNIGHT}
    assert card.effects[0].span.line == 3


def test_unknown_parameter_suggests_close_names() -> None:
    (error,) = parse_cards('spell "X" { effect set value.rok to 3 }', "t").diagnostics
    assert "value.rook" in error.message
