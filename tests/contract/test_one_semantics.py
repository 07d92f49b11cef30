"""One meaning of card effects for replay and the contract checker (R20, R23, core §8).

Replay and ``sgcheck check`` read what an effect adds to an attack from one function,
``attack_parts.attack_part``, and which effects are refused in every game from
``semantics.forbidden``. The properties below hold the two sides to that, over cards drawn
from the whole card language (tests/cardgen.py):

* core §8 (R19, R17): an effect replay refuses when it is played is reported by the contract
  check as an error, with the code replay names, at that effect; so a card that checks clean
  is never refused in play (a ``set`` of a core number names the code of that number,
  ``sgcheck.core.parameters``);
* R20, R23: a card that checks clean never passes a per-attack cap of core §4.5 in play
  (+25 to-hit, +2 damage per hit with on-hit damage to the attacked piece included, one reroll
  source), in any matchup (attacker kind x defender kind), as ``attack_cards`` (the function
  replay uses) sums it.
"""

from __future__ import annotations

import io
from collections import Counter
from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings

from sgcheck.config import Config
from sgcheck.contract.checker import check_plan, plan_check
from sgcheck.contract.context import CheckContext
from sgcheck.contract.facts.bonuses import attack_bonuses
from sgcheck.contract.facts.matchups import describe_mask
from sgcheck.core import caps
from sgcheck.core.cards import model as A
from sgcheck.core.cards.attack_parts import AttackKind, attack_part
from sgcheck.core.cards.semantics import LASTING_ACTIONS, Situation, attack_cards, forbidden, forbidden_in
from sgcheck.core.cards.table import CardsByName, Lasting, new_cards
from sgcheck.core.parameters import PARAMETERS
from sgcheck.core.pieces import BLACK, KING, WHITE, Color, Kind, Piece, piece
from sgcheck.core.squares import Square, square
from sgcheck.core.state import GameState, initial_state
from sgcheck.diagnostics import Diagnostic, Severity
from sgcheck.lang.cards.parser import parse_cards
from tests.cardgen import cards

SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def checked(source: str) -> tuple[A.Card, tuple[Diagnostic, ...]]:
    """The card and the findings of ``sgcheck check`` on it, through the library the CLI uses."""
    config = Config()
    job = plan_check(["-"], config, stdin_name="card.sgcard")
    (plan,) = job.plans
    result = check_plan(plan, config, io.BytesIO(source.encode("utf-8")))
    (card,) = result.cards
    return card, tuple(d for r in result.results for d in r.diagnostics)


def errors(findings: tuple[Diagnostic, ...]) -> tuple[Diagnostic, ...]:
    return tuple(d for d in findings if d.severity is Severity.ERROR)


# --- the generator -----------------------------------------------------------------------------------


@settings(max_examples=200, deadline=None)
@given(cards())
def test_every_generated_card_parses(source: str) -> None:
    """The strategy writes well-formed cards only (docs/cards.md): no syntax or structure error."""
    parsed = parse_cards(source, "card.sgcard")
    assert parsed.diagnostics == ()
    assert len(parsed.cards) == 1 and 1 <= len(parsed.cards[0].effects) <= 3


# --- attack_part: the one classification -------------------------------------------------------------


def _effect(text: str) -> A.Effect:
    card = parse_cards(f'relic "Probe" {{ cost 1 SP effect {text} }}\n', "probe.sgcard").cards[0]
    return card.effects[0]


@pytest.mark.parametrize(
    ("text", "kind", "amount", "scope", "on_hit"),
    [
        ("to_hit +10", AttackKind.TO_HIT, 10, A.Side.OWN, False),
        ("to_hit -10 on enemy attacks", AttackKind.TO_HIT, -10, A.Side.ENEMY, False),
        ("on capture: to_hit +15", AttackKind.TO_HIT, 15, A.Side.OWN, False),  # what it starts once fired
        ("damage +1", AttackKind.DAMAGE, 1, A.Side.OWN, False),
        ("on hit: deal 2 damage to enemy Rook", AttackKind.DAMAGE, 2, A.Side.OWN, True),
        ("reduce damage by 1 on own Rook", AttackKind.REDUCTION, 1, A.Side.ENEMY, False),
        ("reduce damage by 1 on enemy Pawn", AttackKind.REDUCTION, 1, A.Side.OWN, False),
        ("advantage on enemy attacks", AttackKind.REROLL, 1, A.Side.ENEMY, False),
        ("reroll accuracy 2 times", AttackKind.REROLL, 2, A.Side.OWN, False),
    ],
)
def test_attack_part_classifies_each_effect_once(
    text: str, kind: AttackKind, amount: int, scope: A.Side, on_hit: bool
) -> None:
    """R23: on-hit damage to the attacked piece is damage on the holder's own attacks."""
    part = attack_part(_effect(text))
    assert part is not None
    assert (part.kind, part.amount, part.scope, part.on_hit) == (kind, amount, scope, on_hit)


@pytest.mark.parametrize(
    "text",
    [
        "on hit: deal 1 damage to own Pawn",
        "on capture: deal 2 damage to enemy Rook",
        "deal 1 damage to enemy Rook",
        "gain 2 SP",
        "cost attack -1",
        "deny repair",
    ],
)
def test_attack_part_is_none_for_what_never_reaches_an_attack(text: str) -> None:
    """R23: only on-hit damage to the attacked piece is part of a hit; direct damage is not."""
    assert attack_part(_effect(text)) is None


def test_the_contract_counts_exactly_the_parts_replay_counts() -> None:
    """core §8: the contract's damage bonuses are attack_part's damage parts, on-hit damage included."""
    card = parse_cards(
        'relic "Burning Blade" { cost 4 SP effect damage +1 effect on hit: deal 2 damage to enemy Rook }\n', "b.sgcard"
    ).cards[0]
    bonuses = attack_bonuses(card, AttackKind.DAMAGE, CheckContext())
    assert [b.part for b in bonuses] == [attack_part(e) for e in card.effects]
    assert [b.part.label for b in bonuses] == ["+1", "on hit +2"]
    assert bonuses[1].part.target is not None and bonuses[1].part.target.side is A.Side.ENEMY
    assert bonuses[1].mask and describe_mask(bonuses[1].mask, CheckContext()) == "any piece attacking Rook"


# --- core §8: what replay refuses, the contract reports -------------------------------------------------


@pytest.mark.parametrize("parameter", sorted(PARAMETERS))
def test_replay_names_the_code_the_check_gives_each_core_number(parameter: str) -> None:
    """core §8, R23: a ``set`` is refused in play with the code ``sgcheck check`` reports for that number."""
    card, findings = checked(f'spell "Rewrite" {{\n    cost 1 SP\n    effect set {parameter} to 3\n}}\n')
    refused = forbidden(card.effects[0])
    assert refused is not None and refused[0] == PARAMETERS[parameter].code
    assert [d.code for d in errors(findings)] == [PARAMETERS[parameter].code]


@SETTINGS
@given(cards())
def test_what_replay_refuses_the_contract_reports_at_that_effect(source: str) -> None:
    """core §8, R19: every effect ``forbidden`` names a code for is an error of that code at that
    effect (for a ``set``, the code of the number it rewrites)."""
    card, findings = checked(source)
    found = {(d.code, d.span.line, d.span.column) for d in errors(findings) if d.span is not None}
    for effect in card.effects:
        refused = forbidden(effect)
        if refused is None:
            continue
        assert (refused[0], effect.span.line, effect.span.column) in found, (refused, sorted(found))
    if not errors(findings):
        assert forbidden_in(card) is None


# --- R20, R23: a clean card never passes a cap in play ----------------------------------------------------

#: How far each piece that may attack under the core reaches (core §3, R06-R08); the King cannot (R09).
REACH = {Kind.PAWN: 1, Kind.KNIGHT: 2, Kind.BISHOP: 7, Kind.ROOK: 7, Kind.QUEEN: 7}
HOLDER = WHITE


def in_play(card: A.Card, owner: Color) -> tuple[Lasting, ...]:
    """The card's effects acting at once, as replay keeps them (core/play/cards.py): every
    modifier and waiting trigger, and what each trigger starts once it has fired (R23)."""
    found: list[Lasting] = []
    for effect in card.effects:
        if effect.trigger is not None or isinstance(effect.action, (*LASTING_ACTIONS, A.DenyRepair)):
            found.append(Lasting(card.name, owner, 0, effect))
        if effect.trigger is not None and isinstance(effect.action, LASTING_ACTIONS):
            found.append(Lasting(card.name, owner, 0, replace(effect, trigger=None)))
    return tuple(found)


def _placements(actor: Color, distance: int) -> set[tuple[Square, Square]]:
    """The attacker near its own back rank or near the enemy's, the target ``distance`` ahead."""
    found = set()
    for start in (0, 7 - distance):
        if actor is WHITE:
            found.add((square(0, start), square(0, start + distance)))
        else:
            found.add((square(0, 7 - start), square(0, 7 - start - distance)))
    return found


def position(card: A.Card, attacker: Piece, victim: Piece, frm: Square, to: Square) -> GameState:
    """Both Kings, the attacker and its target; both Gems intact, resources generous, the card in play."""
    kings = {WHITE: square(7, 0), BLACK: square(7, 7)}
    if victim.kind is KING:
        kings[victim.color] = to
    state = initial_state(kings[WHITE], kings[BLACK])
    board = list(state.board)
    board[frm] = attacker
    board[to] = victim
    state = state.with_board(tuple(board))
    for color in Color:
        state = state.with_player(color, state.players[color].with_funds(60, 60))
    table = new_cards(CardsByName([card]), (), ()).with_lasting(in_play(card, HOLDER))
    return state.replace(cards=table, to_move=attacker.color, turn_number=3)


def over_a_cap(card: A.Card) -> list[str]:
    """Every matchup in which the card passes a cap of core §4.5 in play (R20, R23)."""
    problems = []
    for actor in (HOLDER, HOLDER.other):  # the holder's attacks, and the enemy's on the holder's pieces
        for attacker_kind, reach in REACH.items():
            attacker = piece(actor, attacker_kind)
            for victim_kind in Kind:
                victim = piece(actor.other, victim_kind)
                for distance in range(1, reach + 1):
                    for frm, to in _placements(actor, distance):
                        state = position(card, attacker, victim, frm, to)
                        at = Situation(actor, attacker_kind, victim_kind, distance, frm, to)
                        assert state.cards is not None
                        on = attack_cards(state.cards.ordered(actor), state, at, victim)
                        if (
                            on.raw_to_hit > caps.TO_HIT_BONUS_CAP
                            or on.raw_damage > caps.DAMAGE_BONUS_CAP
                            or len(on.rerolls) > caps.REROLL_SOURCES_CAP
                        ):
                            where = f"{actor.title} {attacker_kind.title} on {victim_kind.title} at {distance}"
                            problems.append(f"{where}: to-hit {on.to_hit}, damage {on.damage}, rerolls {on.rerolls}")
    return problems


#: The findings that reason about a per-attack cap (core §4.5, R20): the card rules on to-hit, damage
#: and rerolls, and the play's caps passed by one card, by several, and by copies reasoned out.
CAP_CODES = frozenset({"SG-C010", "SG-C011", "SG-C012", "SG-C152", "SG-C153", "SG-C162"})


def test_a_card_the_checker_calls_clean_never_passes_a_cap_in_play() -> None:
    """R20, R23, core §8: summed as replay sums them, a clean card stays within +25, +2 and one source.

    What it holds, for every generated card (issue 33, items 3 and 6):

    * a card that checks clean (no error, no warning that a break may be possible with no game
      found) never passes a cap in play, in any matchup;
    * a card that passes a cap in play and has no error is reported all the same: a warning that a
      break of a cap may be possible and no game the checker played shows it (one of
      :data:`CAP_CODES`), with the rule's reasoning. Errors need a game ("where the reasoning says a
      break may be possible and no witness game is found, the finding is a warning that says so,
      never an error"), so this is the strongest form that holds while the witness search does not
      reach every attack.

    It does not hold that every card passing a cap is an error. The cards that fall short of it
    (one of them named "Ember" by the generator: +26 to-hit out of its camp) are of two sorts:

    * the rule reads a cap passed (``on move: damage 3``: +3 per hit, core §4.5) and the games the
      checker plays do not reach the attack (the bonus is swept at the End of the turn it was
      started in, past the turn's last attack; a bonus that holds only out of camp needs an
      attacker steered out of its camp), so no game proves it: the witness search's reach, not the
      reasoning;
    * this test's own model (:func:`in_play`) keeps every trigger waiting, while a Spell's trigger
      waits only for the turn it is cast in (docs/cards.md, Durations): a Spell cast in Main 2
      with ``on hit: deal 3 damage to enemy Bishop`` never meets an attack, and the rule warns of
      it as possible."""
    reached: Counter[str] = Counter()

    @SETTINGS
    @given(cards())
    def clean_cards_stay_within_the_caps(source: str) -> None:
        card, findings = checked(source)
        if errors(findings):
            return
        warned = [d for d in findings if "no game found" in d.message]
        broken = over_a_cap(card)
        if warned:
            reached["warned"] += 1
            if broken:  # reported, with the reasoning of a cap rule, not passed
                assert any(d.code in CAP_CODES for d in warned), (broken, [d.message for d in warned])
                assert all("reasoning" in dict(d.context) for d in warned if d.code in CAP_CODES)
            return
        reached["clean"] += 1
        assert broken == []

    clean_cards_stay_within_the_caps()
    assert reached["clean"] >= 20, reached  # about 60% of the generated cards check clean


def test_the_generator_reaches_clean_cards_near_the_caps() -> None:
    """The cards of the property above include clean ones with on-hit damage to the attacked
    piece (R23) and clean ones with a to-hit bonus close to +25 (R20); a fixed sample says so."""
    reached: Counter[str] = Counter()

    @settings(max_examples=120, deadline=None, derandomize=True, database=None)
    @given(cards())
    def sample(source: str) -> None:
        card = parse_cards(source, "card.sgcard").cards[0]
        parts = [p for p in map(attack_part, card.effects) if p is not None]
        on_hit = any(p.on_hit and p.target is not None for p in parts)
        near = sum(p.amount for p in parts if p.kind is AttackKind.TO_HIT) >= 15
        if (on_hit or near) and not errors(checked(source)[1]):
            reached["on hit"] += on_hit
            reached["to-hit near the cap"] += near

    sample()
    assert reached["on hit"] and reached["to-hit near the cap"], reached


def test_the_checker_flags_what_passes_a_cap_in_play() -> None:
    """R23: on-hit damage over the cap is caught by both sides (the property's converse, on one card)."""
    source = "\n".join(
        [
            'relic "Burning Blade" {',
            "    cost 4 SP",
            "    effect damage +1",
            "    effect on hit: deal 2 damage to enemy Rook",
            "}",
        ]
    )
    card, findings = checked(source + "\n")
    assert [(d.code, d.span.line if d.span else 0) for d in errors(findings)] == [("SG-C011", 3)]
    problems = over_a_cap(card)
    assert problems and all("Rook" in p for p in problems)
