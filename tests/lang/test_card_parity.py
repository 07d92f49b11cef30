"""YAML and the card language accept the same cards and build the same model (docs/cards.md).

* Every card the generator writes (tests/cardgen.py, every wording of the grammar) parses;
  written back by :mod:`sgcheck.lang.cards.writer` as YAML and as ``.sgcard`` it reads back
  as the same model, spans aside, and ``sgcheck check`` reports the same findings (codes,
  severities, messages) for the card in either form.
* The other way: YAML written with every spelling YAML accepts (``opponent``, ``kings``, ``sp``,
  ``permanently``, a cost as a list...) reads as a model that the card language writes and
  reads back unchanged, with the same findings.
* Word by word: in each place a card names a side, a piece, a resource, an event, a phase,
  an action, a duration or a limit, a word is accepted by both front-ends or by neither,
  and the schema's patterns accept exactly the words of the grammar's terminals.
"""

from __future__ import annotations

import dataclasses
import io
import itertools
import json
import re
import typing
from collections import Counter
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sgcheck.config import Config
from sgcheck.contract.checker import check_plan, plan_check
from sgcheck.core.cards import model as A
from sgcheck.core.parameters import PARAMETERS
from sgcheck.diagnostics import Diagnostic, Span
from sgcheck.lang.cards import writer as W
from sgcheck.lang.cards.parser import parse_cards
from sgcheck.lang.cards.vocab import COUNTABLE_WORDS, piece_class
from sgcheck.lang.cards.yaml_loader import load_card_yaml
from sgcheck.lang.yaml.tree import compose
from tests.cardgen import card_sources

ROOT = Path(__file__).resolve().parents[2]
SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def plain(value: Any) -> Any:
    """A model node as comparable data: every field but its spans (which differ between forms)."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        fields = {
            f.name: plain(getattr(value, f.name))
            for f in dataclasses.fields(value)
            if not isinstance(getattr(value, f.name), Span)
        }
        return type(value).__name__, fields
    if isinstance(value, (tuple, list)):
        return [plain(v) for v in value]
    if isinstance(value, frozenset):
        return sorted(value)
    return value


def findings(text: str, shown: str) -> Counter[tuple[str, str, str]]:
    """What ``sgcheck check`` reports on one card file (read as ``shown`` says), spans left out."""
    config = Config()
    (plan,) = plan_check(["-"], config, stdin_name=shown).plans
    result = check_plan(plan, config, io.BytesIO(text.encode("utf-8")))
    return Counter((d.code, d.severity.value, d.message) for r in result.results for d in r.diagnostics)


def one_card(text: str, yaml: bool) -> A.Card:
    loaded = load_card_yaml(text, "c.sgcard.yaml") if yaml else parse_cards(text, "c.sgcard")
    assert loaded.diagnostics == (), (text, [d.message for d in loaded.diagnostics])
    (card,) = loaded.cards
    return card


# --- the generator's cards, both ways -----------------------------------------------------------


@SETTINGS
@given(card_sources())
def test_a_card_reads_the_same_from_yaml_and_from_sgcard(source: str) -> None:
    card = one_card(source, yaml=False)
    yaml = W.yaml_text([card])
    assert plain(one_card(yaml, yaml=True)) == plain(card), yaml
    text = W.sgcard_text([card])
    again = one_card(text, yaml=False)
    assert plain(again) == plain(card), text
    # canonical: writing what was read back gives the same text
    assert W.sgcard_text([again]) == text
    assert W.yaml_text([one_card(yaml, yaml=True)]) == yaml


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(card_sources())
def test_the_contract_check_reports_the_same_for_both_forms(source: str) -> None:
    card = one_card(source, yaml=False)
    expected = findings(source, "card.sgcard")
    assert findings(W.yaml_text([card]), "card.sgcard.yaml") == expected
    assert findings(W.sgcard_text([card]), "card.sgcard") == expected


# --- YAML's own spellings, read and written back as .sgcard ----------------------------------------


def _case(draw: st.DrawFn, word: str) -> str:
    return draw(st.sampled_from((word, word.lower(), word.upper(), word.swapcase())))


def _piece(draw: st.DrawFn, word: str) -> str:
    """``Rook`` as ``rooks``, ``ROOK``...; ``pieces`` as ``piece``: the same kinds."""
    stem = word[:-1] if word.lower().endswith("s") else word
    return _case(draw, stem + draw(st.sampled_from(("", "s"))))


def _side(draw: st.DrawFn, word: str) -> str:
    return draw(st.sampled_from(("enemy", "opponent"))) if word == "enemy" else word


def _target(draw: st.DrawFn, word: str) -> str:
    side, piece = word.split(" ")
    return f"{_side(draw, side)} {_piece(draw, piece)}"


def _resource(draw: st.DrawFn, word: str) -> str:
    return _case(draw, word)


_COUNTABLE_SPELLINGS: dict[A.Countable, list[str]] = {}
for _words, _countable in COUNTABLE_WORDS.items():
    _COUNTABLE_SPELLINGS.setdefault(_countable, []).append(_words)


def _quantity(draw: st.DrawFn, value: dict[str, Any]) -> dict[str, Any]:
    value = dict(value, resource=_resource(draw, value["resource"]))
    if "per" in value:
        value["per"] = draw(st.sampled_from(_COUNTABLE_SPELLINGS[A.Countable(value["per"])]))
    if "equal_to" in value:
        scale = value["equal_to"]
        value["equal_to"] = dict(scale, side=_side(draw, scale["side"]), resource=_resource(draw, scale["resource"]))
    return value


def _cost(draw: st.DrawFn, value: Any) -> Any:
    """``{SP: 2, LP: 1}`` as ``[{SP: 2}, {LP: 1}]``, ``3`` as ``{any: 3}`` or ``[3]``."""
    if isinstance(value, int):
        return draw(st.sampled_from((value, {"any": value}, [value])))
    if isinstance(value, dict) and draw(st.booleans()):
        return [{key: amount} for key, amount in value.items()]
    return value


def _modifier(draw: st.DrawFn, value: Any) -> Any:
    if isinstance(value, (int, str)):  # ``to_hit: 10``, ``damage: double``
        key = "scale" if isinstance(value, str) else "delta"
        return draw(st.sampled_from((value, {key: value}, {key: value, "attacks": "own"})))
    return dict(value, attacks=_side(draw, value["attacks"]))


def _action(draw: st.DrawFn, key: str, value: Any) -> Any:
    if key in ("capture", "convert"):
        return _target(draw, value)
    if key == "reduce_damage":
        return dict(value, on=_target(draw, value["on"]))
    if key == "deal_damage":
        return dict(value, to=_target(draw, value["to"]))
    if key in ("gain", "lose", "steal"):
        return _quantity(draw, value)
    if key in ("to_hit", "damage"):
        return _modifier(draw, value)
    if key == "cost_modifier" and "resource" in value:
        return dict(value, resource=_resource(draw, value["resource"]))
    if key == "reroll":
        value = dict(value, attacks=_side(draw, value.get("attacks", "own")))
        return value if "times" in value or draw(st.booleans()) else dict(value, times=1)
    if key == "extra_action":
        value = dict(value, action=value["action"] + draw(st.sampled_from(("", "s"))))
        return value if "count" in value or draw(st.booleans()) else dict(value, count=1)
    return value


def _predicate(draw: st.DrawFn, predicate: dict[str, Any]) -> dict[str, Any]:
    ((key, value),) = predicate.items()
    if key in ("attacker", "target"):
        negated = isinstance(value, dict)
        words = value["not"] if negated else value
        listed = [_piece(draw, w) for w in (words if isinstance(words, list) else [words])]
        spelt: Any = listed[0] if len(listed) == 1 and draw(st.booleans()) else listed
        return {key: {"not": spelt} if negated else spelt}
    if key.endswith("_in_camp"):
        return {key: _side(draw, value)}
    return predicate


def _duration(draw: st.DrawFn, value: Any) -> Any:
    if isinstance(value, dict):
        turns = value["turns"]
        return draw(st.sampled_from((value, f"for {turns} turn{'s' if turns != 1 else ''}", f"for {turns} turns")))
    return draw(st.sampled_from(("permanent", "permanently"))) if value == "permanent" else value


def _limit(draw: st.DrawFn, value: Any) -> Any:
    if isinstance(value, dict):
        return draw(st.sampled_from((value, f"{value['times']} per {value['per']}")))
    period = value.split(" ")[-1]
    return draw(st.sampled_from((value, f"1 per {period}", {"times": 1, "per": period})))


def _event(draw: st.DrawFn, word: str) -> str:
    if " " not in word:
        return word
    verb, resource = word.split(" ")
    return f"{verb}{draw(st.sampled_from(('', 's')))} {_resource(draw, resource)}"


@st.composite
def yaml_spellings(draw: st.DrawFn) -> str:
    """A generated card as YAML, each value in one of the spellings YAML accepts."""
    card = W.card_data(one_card(draw(card_sources()), yaml=False))
    if "cost" in card:
        card["cost"] = _cost(draw, card["cost"])
    effects = []
    for effect in card.get("effects", []):
        spelt: dict[str, Any] = {}
        for key, value in effect.items():
            if key == "pay":
                spelt[key] = _cost(draw, value)
            elif key == "on":
                spelt[key] = _event(draw, value)
            elif key == "when":
                spelt[key] = [_predicate(draw, p) for p in value]
            elif key == "duration":
                spelt[key] = _duration(draw, value)
            elif key == "limit":
                spelt[key] = _limit(draw, value)
            elif key == "at":
                spelt[key] = value
            else:
                spelt[key] = _action(draw, key, value)
        effects.append(spelt)
    if effects:
        card["effects"] = effects
    return W.dump_yaml({"cards": [card]})


def without_words(value: Any) -> Any:
    """:func:`plain` without the spelling of targets (``enemy Kings`` and ``opponent king`` name the same)."""
    if isinstance(value, tuple) and len(value) == 2 and value[0] == "Target":
        return value[0], {k: v for k, v in value[1].items() if k != "word"}
    if isinstance(value, tuple):
        return tuple(without_words(v) for v in value)
    if isinstance(value, list):
        return [without_words(v) for v in value]
    if isinstance(value, dict):
        return {k: without_words(v) for k, v in value.items()}
    return value


@SETTINGS
@given(yaml_spellings())
def test_every_yaml_spelling_has_a_card_language_wording(yaml: str) -> None:
    card = one_card(yaml, yaml=True)
    canonical = W.yaml_text([card])
    assert without_words(plain(one_card(canonical, yaml=True))) == without_words(plain(card))
    text = W.sgcard_text([card])
    assert plain(one_card(text, yaml=False)) == plain(card), (yaml, text)
    assert plain(one_card(W.yaml_text([card]), yaml=True)) == plain(card)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(yaml_spellings())
def test_yaml_spellings_are_checked_as_their_card_language_wording(yaml: str) -> None:
    card = one_card(yaml, yaml=True)
    assert findings(yaml, "card.sgcard.yaml") == findings(W.sgcard_text([card]), "card.sgcard")


# --- word by word ---------------------------------------------------------------------------------

PIECE_WORDS = ("King", "Queen", "Rook", "Bishop", "Knight", "Pawn", "piece")
_SPELLINGS = [
    *(f(w + s) for w in PIECE_WORDS for s in ("", "s") for f in (str, str.lower, str.upper)),
    "kInG",
    "Kingz",
    "Kingss",
    "Pawnes",
    "piecess",
    "Pieces",
]
WORDS: tuple[str, ...] = tuple(
    dict.fromkeys(
        [
            # sides, pieces, targets
            *("own", "enemy", "opponent", "Enemy", "OWN", "opponents", "foe"),
            *_SPELLINGS,
            *(f"{side} {p}" for side in ("own", "enemy", "opponent", "Enemy", "foe") for p in _SPELLINGS[::3]),
            *("enemy", "enemy pieces on", "own King Queen"),
            # resources and events
            *("SP", "sp", "Sp", "sP", "LP", "lp", "lP", "SPs", "XP", "S P"),
            *("capture", "captured", "hit", "miss", "attacked", "summon", "teleport", "move", "Capture", "phase"),
            *(f"{v} {r}" for v in ("gain", "gains", "lose", "loses", "gained", "Gain") for r in ("SP", "lp", "XP")),
            # phases and actions
            *("upkeep", "main1", "main2", "main", "battle", "end", "Main1", "BATTLE", "main3", "movement"),
            *(ACTION_WORDS := ("move", "attack", "summon", "teleport", "activation", "break", "repair")),
            *(f"{word}s" for word in ACTION_WORDS),
            *("distance", "convert"),
            *("Attack", "attackss", "turn", "Move"),
            *("double", "halve", "Double", "triple", "halved"),
            *("to-hit", "after", "night-watch", "_x", "a.b", "9lives", "Reckoning", "x-"),
            # durations and limits
            *("this attack", "this turn", "permanent", "permanently", "Permanent", "this game"),
            *("for 2 turns", "for 1 turn", "for 1 turns", "for 2 turn", "for 0 turns", "for 2", "for 0000000001 turns"),
            *("next turn", "until your next turn", "until next turn"),
            *("once per turn", "once per game", "2 per turn", "1 per game", "0 per turn", "02 per game"),
            *("twice per turn", "once per round", "once", "limit once per turn", "1234567890 per game"),
            # what a 'per' amount counts
            *COUNTABLE_WORDS,
            *("pieces in own gem", "piece in own gems", "own Pieces on board", "enemy piece on the board"),
            # comparisons
            *("<= 2", "<2", "== 3", "!= 0", "= 10", "> 7", ">= 0", "=> 2", "<= -1", "< x", "2"),
            # core parameters
            *sorted(PARAMETERS)[:6],
            *("value.unknown", "value"),
        ]
    )
)

#: Each place a card writes a word: the effect in the card language, and the same effect as YAML data.
SLOTS: dict[str, tuple[str, Callable[[str], dict[str, Any]]]] = {
    "target": ("capture {w}", lambda w: {"capture": w}),
    "reduced target": ("reduce damage by 1 on {w}", lambda w: {"reduce_damage": {"by": 1, "on": w}}),
    "piece": ("deny repair when attacker is {w}", lambda w: {"deny_repair": True, "when": [{"attacker": w}]}),
    "not piece": (
        "deny repair when target is not Pawn or {w}",
        lambda w: {"deny_repair": True, "when": [{"target": {"not": ["Pawn", w]}}]},
    ),
    "resource": ("gain 2 {w}", lambda w: {"gain": {"amount": 2, "resource": w}}),
    "cost resource": ("cost move -1 {w}", lambda w: {"cost_modifier": {"action": "move", "delta": -1, "resource": w}}),
    "scope": ("to_hit +5 on {w} attacks", lambda w: {"to_hit": {"delta": 5, "attacks": w}}),
    "reroll scope": ("advantage on {w} attacks", lambda w: {"reroll": {"kind": "advantage", "attacks": w}}),
    "equal to side": (
        "steal LP equal to {w} SP / 2",
        lambda w: {"steal": {"resource": "LP", "equal_to": {"side": w, "resource": "SP", "divide": 2}}},
    ),
    "scaled resource": (
        "gain SP equal to own {w}",
        lambda w: {"gain": {"resource": "SP", "equal_to": {"side": "own", "resource": w}}},
    ),
    "camp": (
        "deny repair when target not in {w} camp",
        lambda w: {"deny_repair": True, "when": [{"target_not_in_camp": w}]},
    ),
    "countable": ("gain 1 SP per {w}", lambda w: {"gain": {"amount": 1, "resource": "SP", "per": w}}),
    "event": ("on {w}: deny repair", lambda w: {"on": w, "deny_repair": True}),
    "trigger phase": ("at {w}: deny repair", lambda w: {"at": w, "deny_repair": True}),
    "phase": ("skip {w}", lambda w: {"skip_phase": w}),
    "extra in": ("extra summon in {w}", lambda w: {"extra_action": {"action": "summon", "phase": w}}),
    "extra kind": ("extra 2 {w}", lambda w: {"extra_action": {"action": w, "count": 2}}),
    "cost kind": ("cost {w} -1", lambda w: {"cost_modifier": {"action": w, "delta": -1}}),
    "distance of": (
        "cost {w} distance -1",
        lambda w: {"cost_modifier": {"action": "distance", "only": w, "delta": -1}},
    ),
    "scaled cost": ("halve cost {w}", lambda w: {"cost_modifier": {"action": w, "scale": "halve"}}),
    "damage scale": ("{w} damage on enemy attacks", lambda w: {"damage": {"scale": w, "attacks": "enemy"}}),
    "phase name": ("extra phase {w}", lambda w: {"extra_phase": {"name": w}}),
    "duration": ("deny repair {w}", lambda w: {"deny_repair": True, "duration": w}),
    "limit": ("deny repair limit {w}", lambda w: {"deny_repair": True, "limit": w}),
    "distance": ("deny repair when distance {w}", lambda w: {"deny_repair": True, "when": [{"distance": w}]}),
    "parameter": ("set {w} to 1", lambda w: {"set": {"parameter": w, "to": 1}}),
}


#: Each slot's effect ends with the suffixes it does not test, so that a word cannot pass as one
#: of them (``cost move -1 this turn`` would read ``this turn`` as a duration, not as a resource):
#: an effect takes each suffix once.
CLOSERS: dict[str, tuple[str, dict[str, Any]]] = {
    "duration": ("this turn", {"duration": "this turn"}),
    "limit": ("limit once per turn", {"limit": "once per turn"}),
    "when": ("when distance = 1", {"when": [{"distance": "= 1"}]}),
}


def _read_both(slot: str, word: str) -> tuple[A.CardFile, A.CardFile]:
    template, data = SLOTS[slot]
    effect_text, effect_data = template.format(w=word), data(word)
    for key, (words, value) in CLOSERS.items():
        if key not in effect_data:
            effect_text += f" {words}"
            effect_data.update(value)
    sgcard = parse_cards(f'relic "Probe" {{\n    effect {effect_text}\n}}\n', "probe.sgcard")
    # JSON is YAML: no quoting question can hide a word
    document = {"cards": [{"name": "Probe", "kind": "relic", "effects": [effect_data]}]}
    return sgcard, load_card_yaml(json.dumps(document), "probe.sgcard.yaml")


@pytest.mark.parametrize("slot", sorted(SLOTS))
def test_each_word_is_accepted_by_both_front_ends_or_by_neither(slot: str) -> None:
    differ: list[str] = []
    accepted = 0
    for word in WORDS:
        sgcard, yaml = _read_both(slot, word)
        if bool(sgcard.cards) != bool(yaml.cards):
            why = (sgcard.diagnostics or yaml.diagnostics)[0].message
            differ.append(f"{word!r}: {'.sgcard' if sgcard.cards else 'YAML'} only ({why})")
        elif sgcard.cards:
            accepted += 1
            assert plain(sgcard.cards[0].effects) == plain(yaml.cards[0].effects), word
    assert differ == []
    assert accepted > 0  # the slot is tested with words it takes


def test_a_phase_name_with_a_dot_is_refused_by_both() -> None:
    """``extra phase Value.rook``: a word that no terminal matches is an error in the card
    language, as the WORD pattern (no dot) makes it in YAML."""
    sgcard, yaml = _read_both("phase name", "Value.rook")
    assert not yaml.cards
    assert not sgcard.cards


@cache
def grammar_terminals() -> dict[str, re.Pattern[str]]:
    from lark import Lark

    from sgcheck.resources import grammar_text

    lark = Lark(grammar_text("sgcard.lark"), parser="lalr", start="card")
    return {t.name: re.compile(t.pattern.to_regexp()) for t in lark.terminals}


@cache
def schema_defs() -> dict[str, Any]:
    defs: dict[str, Any] = json.loads((ROOT / "schemas/card.schema.json").read_text(encoding="utf-8"))["$defs"]
    return defs


def every_case(word: str) -> set[str]:
    return {"".join(chars) for chars in itertools.product(*({c.lower(), c.upper()} for c in word))}


NEAR_MISSES = ("", " ", "Kingz", "kingss", "pieced", "King\n", " King", "King ", "sp\n", "S", "spp", "xp", "Ki ng")


def test_piece_words_of_the_schema_are_the_grammar_s() -> None:
    """PIECE_CLASS in grammar/sgcard.lark, ``piece_class`` in vocab.py and the schema's ``piece`` and
    ``target`` patterns accept the same words: every case of every singular and plural."""
    grammar = grammar_terminals()["PIECE_CLASS"]
    piece = schema_defs()["piece"]["pattern"]
    target = schema_defs()["target"]["pattern"]
    words = set(NEAR_MISSES)
    for stem in ("king", "queen", "rook", "bishop", "knight", "pawn", "piece"):
        words |= every_case(stem) | every_case(stem + "s")
    assert len(words) > 700
    for word in sorted(words):
        ok = grammar.fullmatch(word) is not None
        assert ok == (piece_class(word) is not None) == (re.search(piece, word) is not None), repr(word)
        for side in ("own", "enemy", "opponent", "Own", "foe"):
            side_ok = grammar_terminals()["SIDE"].fullmatch(side) is not None
            assert (ok and side_ok) == (re.search(target, f"{side} {word}") is not None), f"{side} {word}"


def test_resource_words_of_the_schema_are_the_grammar_s() -> None:
    grammar = grammar_terminals()["RESOURCE"]
    pattern = schema_defs()["resource"]["pattern"]
    words = every_case("sp") | every_case("lp") | set(NEAR_MISSES)
    for word in sorted(words):
        assert (grammar.fullmatch(word) is not None) == (re.search(pattern, word) is not None), repr(word)
    assert sum(re.search(pattern, w) is not None for w in words) == 8


def test_yaml_word_lists_are_the_grammar_s() -> None:
    """The enumerations of the schema list exactly the words of the grammar's terminals."""
    defs = schema_defs()
    effect = defs["effect"]["properties"]
    terminals = grammar_terminals()

    def grammar_words(name: str, universe: list[str]) -> set[str]:
        return {w for w in universe if terminals[name].fullmatch(w)}

    assert set(defs["side"]["enum"]) == grammar_words("SIDE", ["own", "enemy", "opponent", "foe"])
    assert set(defs["phase"]["enum"]) == grammar_words("PHASE", [*defs["phase"]["enum"], "main3", "Main1"])
    kinds = effect["extra_action"]["properties"]["action"]["enum"]
    assert set(kinds) == grammar_words("EXTRA_KIND", [*kinds, *(k + "s" for k in kinds), "Attack"])
    costs = effect["cost_modifier"]["properties"]["action"]["enum"]
    assert set(costs) == grammar_words("COST_KIND", [*costs, *(k.value for k in A.CostKind), "Move", "moves"])
    assert set(defs["quantity"]["properties"]["per"]["enum"]) == set(COUNTABLE_WORDS)


# --- the forms the contract checker must see through ---------------------------------------------


@pytest.mark.parametrize(
    ("sgcard", "yaml", "message"),
    [
        ("deal 2 damage to enemy king", "deal_damage: {amount: 2, to: enemy king}", "'K' damages a King directly"),
        ("capture opponent Kings", "capture: opponent Kings", "'K' captures a King directly"),
        (
            "convert opponent PIECES",
            "convert: opponent PIECES",
            "'K' converts a King directly ('enemy PIECES' includes the King)",
        ),
    ],
)
def test_a_king_targeted_directly_is_reported_from_both_forms(sgcard: str, yaml: str, message: str) -> None:
    """R19: ``to: enemy king`` and ``opponent Kings`` are read by YAML as by the card language."""
    text = f'spell "K" {{\n    cost 1 SP\n    effect {sgcard}\n}}\n'
    data = f"cards:\n  - name: K\n    kind: spell\n    cost: {{SP: 1}}\n    effects:\n      - {yaml}\n"
    assert plain(one_card(text, yaml=False)) == plain(one_card(data, yaml=True))
    found = findings(text, "k.sgcard")
    assert found == findings(data, "k.sgcard.yaml")
    assert ("SG-C060", "error", message) in found


@pytest.mark.parametrize(
    ("sgcard", "yaml", "words"),
    [
        ("deny repair for 0 turns", "{deny_repair: true, duration: for 0 turns}", "a duration lasts at least 1 turn"),
        ("deny repair limit 0 per turn", "{deny_repair: true, limit: 0 per turn}", "at least one use"),
        ("deny repair limit 1234567890 per turn", "{deny_repair: true, limit: 1234567890 per turn}", "10 digits"),
    ],
)
def test_a_phrase_both_forms_refuse_is_refused_with_the_same_code(sgcard: str, yaml: str, words: str) -> None:
    text = parse_cards(f'relic "X" {{ effect {sgcard} }}\n', "x.sgcard")
    data = load_card_yaml(f"cards:\n  - name: X\n    kind: relic\n    effects:\n      - {yaml}\n", "x.yaml")
    for loaded in (text, data):
        (diagnostic,) = loaded.diagnostics
        assert diagnostic.code == "SG-P023" and words in diagnostic.message, diagnostic.message


def test_a_cost_that_repeats_a_resource_is_a_list_in_yaml() -> None:
    card = one_card('spell "C" {\n    cost 2 SP + 1 SP + 3\n    effect gain 1 LP\n}\n', yaml=False)
    assert W.card_data(card)["cost"] == [{"SP": 2}, {"SP": 1}, 3]
    assert plain(one_card(W.yaml_text([card]), yaml=True)) == plain(card)


@pytest.mark.parametrize(
    ("effect", "words"),
    [
        ("{gain: {resource: SP, equal_to: {side: own, resource: SP, multiply: 2, divide: 3}}}", "not both"),
        ("{capture: enemy kingz}", "did you mean 'enemy King'?"),
        ("{capture: enemy  King}", "a side (own, enemy or opponent) and a piece class"),
        ("{on: gainz SP, deny_repair: true}", "expected an event"),
        ("{gain: {amount: 1, resource: XP}}", "expected SP or LP (any case)"),
        ("{set: {parameter: value.rook, to: -1}}", "less than the minimum of 0"),
    ],
)
def test_yaml_refuses_what_the_card_language_cannot_say_in_words(effect: str, words: str) -> None:
    loaded = load_card_yaml(f"cards:\n  - name: X\n    kind: relic\n    effects:\n      - {effect}\n", "x.yaml")
    assert loaded.cards == ()
    assert any(words in d.message for d in loaded.diagnostics), [d.message for d in loaded.diagnostics]


@pytest.mark.parametrize("name", ["Two\nlines", "Nul\x00", " "])
def test_a_name_the_card_language_cannot_hold_is_refused_by_yaml(name: str) -> None:
    loaded = load_card_yaml(json.dumps({"cards": [{"name": name, "kind": "spell"}]}), "x.yaml")
    assert loaded.cards == () and [d.code for d in loaded.diagnostics] == ["SG-P027"]


# --- the writer -----------------------------------------------------------------------------------


def test_every_action_and_predicate_of_the_model_has_a_writer() -> None:
    nodes = {*typing.get_args(A.Action), *typing.get_args(A.Predicate)}
    assert len(nodes) >= 21
    assert sorted(n.__name__ for n in nodes - set(W.SGCARD_WRITERS)) == []
    assert sorted(n.__name__ for n in nodes - set(W.YAML_WRITERS)) == []


def test_a_node_without_a_writer_is_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    # a node kind the writers have no entry for (as a new effect would be until one is written);
    # the tables are the writer's, so the node stays a real one (compiled, fields are type-checked)
    monkeypatch.delitem(W.SGCARD_WRITERS, A.ToHitModifier)
    monkeypatch.delitem(W.YAML_WRITERS, A.ToHitModifier)
    effect = A.Effect(action=A.ToHitModifier(10, A.Side.OWN, Span.point("x")), span=Span.point("x"))
    card = A.Card(A.CardKind.SPELL, "X", A.Mode.INSTANT, Span.point("x"), Span.point("x"), effects=(effect,))
    with pytest.raises(W.CardWriteError, match=r"cannot write a ToHitModifier as \.sgcard text"):
        W.sgcard_text([card])
    with pytest.raises(W.CardWriteError, match="cannot write a ToHitModifier as YAML"):
        W.yaml_data([card])


@pytest.mark.parametrize(
    ("change", "words"),
    [
        ({"mode": A.Mode.ACTIVATED}, "a spell is always instant"),
        ({"name": "Two\nlines"}, "has a line break"),
        ({"name": "Nul\x00"}, "has the character '\\x00'"),
        ({"name": "   "}, "a card needs a name"),
        ({"text": "x" * 20_000}, "longer than the 10,000"),
    ],
)
def test_what_no_front_end_can_read_is_not_written(change: dict[str, Any], words: str) -> None:
    card = dataclasses.replace(one_card('spell "S" {\n    cost 1\n}\n', yaml=False), **change)
    with pytest.raises(W.CardWriteError, match=re.escape(words)):
        W.sgcard_text([card])
    if "longer than" not in words:  # YAML has no line limit
        with pytest.raises(W.CardWriteError, match=re.escape(words)):
            W.yaml_data([card])


def test_a_name_or_text_too_long_is_refused_by_both() -> None:
    """Names of up to 200 characters and texts of up to 4,000 (which fit on one line of a card
    file however they are escaped), in both front-ends; the writer refuses longer ones."""
    assert schema_defs()["name"]["maxLength"] == W.MAX_YAML_NAME
    assert schema_defs()["text"]["maxLength"] == W.MAX_YAML_TEXT
    spell = one_card('spell "S" {\n}\n', yaml=False)
    for change, words in (({"name": "n" * 201}, "at most 200 characters"), ({"text": "t" * 4001}, "at most 4,000")):
        card = dataclasses.replace(spell, **change)  # type: ignore[arg-type]
        (problem,) = parse_cards(W.sgcard_text([card]), "long.sgcard").diagnostics
        assert problem.code == "SG-P023" and words in problem.message
        with pytest.raises(W.CardWriteError, match=words):
            W.yaml_data([card])
    worst = dataclasses.replace(spell, name='"' * 200, text='"' * 2000 + "\n" * 2000)
    assert plain(one_card(W.yaml_text([worst]), yaml=True)) == plain(worst)
    assert plain(one_card(W.sgcard_text([worst]), yaml=False)) == plain(worst)


def _without_comments(text: str) -> str:
    lines = [line for line in text.splitlines() if not line.lstrip().startswith("#")]
    return re.sub(r"\n{3,}", "\n\n", "\n".join(lines).strip("\n") + "\n")


def test_the_writer_writes_the_guide_cards_as_the_examples_are_written() -> None:
    sgcard = (ROOT / "examples/cards/guide-relics.sgcard").read_text(encoding="utf-8")
    yaml = (ROOT / "examples/cards/guide-relics.sgcard.yaml").read_text(encoding="utf-8")
    cards = parse_cards(sgcard, "guide.sgcard").cards
    assert W.sgcard_text(cards) == _without_comments(sgcard)
    assert W.yaml_text(cards) == _without_comments(yaml)
    modeline = W.yaml_text(cards, schema="../../schemas/card.schema.json").splitlines()[0]
    assert modeline == yaml.splitlines()[0]


def test_escapes_are_written_back() -> None:
    source = 'relic "Say \\"hi\\" \\\\ there" passive {\n    cost free\n    text "a \\\\ b \\" c"\n}\n'
    card = one_card(source, yaml=False)
    assert (card.name, card.text) == ('Say "hi" \\ there', 'a \\ b " c')
    assert W.sgcard_text([card]) == source
    assert plain(one_card(W.yaml_text([card]), yaml=True)) == plain(card)


#: What a card's name or text may hold in both forms: anything on one line (no NUL, no lone surrogate).
ONE_LINE = st.text(st.characters(exclude_characters="\n\r\x00", exclude_categories=("Cs",)), max_size=60)


@settings(max_examples=200, deadline=None)
@given(name=ONE_LINE.filter(str.strip), text=ONE_LINE)
def test_any_name_and_text_on_one_line_are_written_and_read_back(name: str, text: str) -> None:
    """Quotes, backslashes, tabs, Unicode line separators: whatever one form holds, the other does."""
    card = one_card(f'spell "{name.replace(chr(92), chr(92) * 2).replace(chr(34), chr(92) + chr(34))}" {{\n}}\n', False)
    card = dataclasses.replace(card, text=text)
    assert (card.name, card.text) == (name, text)
    assert plain(one_card(W.sgcard_text([card]), yaml=False)) == plain(card)
    assert plain(one_card(W.yaml_text([card]), yaml=True)) == plain(card)


_SUFFIX_WORDS = ("when ", "if ", "this ", "for ", "limit ", "permanent", "next ", "until ")


def _doc_rows() -> list[tuple[str, str]]:
    doc = (ROOT / "docs/cards.md").read_text(encoding="utf-8")
    table = doc[doc.index("| `.sgcard` | YAML |") :].split("\n\n", 1)[0].splitlines()[2:]
    rows = []
    for line in table:
        sgcard_cell, yaml_cell = line.strip("|").split(" | ")
        sgcard, yaml = re.findall(r"`([^`]*)`", sgcard_cell), re.findall(r"`([^`]*)`", yaml_cell)
        assert len(sgcard) == len(yaml), line
        rows.extend(zip(sgcard, yaml, strict=True))
    return rows


def test_the_documented_yaml_spelling_of_each_wording_reads_as_that_wording() -> None:
    rows = _doc_rows()
    assert len(rows) >= 45
    actions = {branch["required"][0] for branch in schema_defs()["effect"]["oneOf"]}
    for sgcard, yaml in rows:
        effect = f"{sgcard} deny repair" if sgcard.endswith(":") else sgcard
        effect = f"deny repair {effect}" if effect.startswith(_SUFFIX_WORDS) else effect
        data = "{" + yaml + "}"
        node = compose(data, "row.yaml")
        assert not isinstance(node, Diagnostic), (yaml, node)
        if not actions & set(node.plain()):
            data = "{deny_repair: true, " + yaml + "}"
        text = one_card(f'relic "Row" {{\n    effect {effect}\n}}\n', yaml=False)
        loaded = one_card(f"cards:\n  - name: Row\n    kind: relic\n    effects:\n      - {data}\n", yaml=True)
        assert plain(text.effects) == plain(loaded.effects), (sgcard, yaml)
