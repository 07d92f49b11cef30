"""A simulation's and a gauntlet's report are trees of typed, frozen records
(docs/architecture.md, "results"): no field is an open ``Any`` or a string-keyed mapping, the
renderers read fields, and the one serializer (``as_json``) writes the JSON document of
schemas/simulate.schema.json. The figures are checked against the game records themselves."""

from __future__ import annotations

import dataclasses
import json
import types
import typing
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from sgcheck import results
from sgcheck.core.pieces import Color, Outcome
from sgcheck.play.pack import load_game_pack
from sgcheck.play.policies import Policy
from sgcheck.report import render
from sgcheck.results import Endings, GauntletReport, SimulationReport
from sgcheck.simulate.games import UNFINISHED, GameRecord, Side
from sgcheck.simulate.gauntlet import matches
from sgcheck.simulate.gauntlet import summarise as gauntlet_summary
from sgcheck.simulate.impact import paired
from sgcheck.simulate.run import RunPlan
from sgcheck.simulate.stats import summarise

ROOT = Path(__file__).resolve().parents[2]
SCHEMA = json.loads((ROOT / "schemas" / "simulate.schema.json").read_text(encoding="utf-8"))
STARTER = load_game_pack(str(ROOT / "examples" / "packs" / "starter"), log_folder=None, from_tag=False)
assert not isinstance(STARTER, tuple) and hasattr(STARTER, "cards")
PACK = Side("examples/packs/starter", STARTER.cards, STARTER.draw, STARTER.keep)
NAMES = tuple(card.name for card in PACK.cards)


def _reached(root: type) -> dict[type, dict[str, object]]:
    """Every record reachable from ``root`` through its fields' types, with its resolved hints."""
    found: dict[type, dict[str, object]] = {}
    todo = [root]
    while todo:
        record = todo.pop()
        if record in found:
            continue
        hints = typing.get_type_hints(record, vars(results))
        found[record] = {f.name: hints[f.name] for f in dataclasses.fields(record)}
        for hint in found[record].values():
            stack = [hint]
            while stack:
                part = stack.pop()
                origin = typing.get_origin(part) or part  # a generic record: BySide[WinRate]
                if dataclasses.is_dataclass(origin) and isinstance(origin, type):
                    todo.append(origin)
                stack += typing.get_args(part)
    return found


@pytest.mark.parametrize("root", [SimulationReport, GauntletReport], ids=lambda r: r.__name__)
def test_the_report_is_typed_all_the_way_down(root: type) -> None:
    """No ``Any``, no open mapping of strings to objects, no list: each part is a frozen, slotted
    record, a tuple of them, or a scalar (a generic record's parameter is checked where it is
    given: ``BySide[WinRate]``)."""
    for record, hints in _reached(root).items():
        params = record.__dataclass_params__  # type: ignore[attr-defined]
        assert params.frozen and hasattr(record, "__slots__"), record.__name__
        for name, hint in hints.items():
            stack = [hint]
            while stack:
                part = stack.pop()
                origin = typing.get_origin(part) or part
                assert part is not typing.Any, f"{record.__name__}.{name}"
                assert origin not in (dict, list, set, object), f"{record.__name__}.{name}: {hint}"
                typed = origin in (tuple, types.UnionType, typing.Union) or dataclasses.is_dataclass(origin)
                typed = typed or isinstance(part, typing.TypeVar)
                assert typed or part in (str, int, float, bool, type(None), Ellipsis), f"{record.__name__}.{name}"
                stack += typing.get_args(part)


def test_the_kinds_of_ending_are_the_cores_outcomes_and_the_unfinished_game() -> None:
    """core §7, R18, R24: each way a rule ends a game, and a game no rule ended (a draw)."""
    assert set(Endings.KINDS) == {outcome.value for outcome in Outcome} | {UNFINISHED}
    counted = Endings.counted({"conversion": 3, "turn-limit": 2, UNFINISHED: 1})
    assert (counted.conversion, counted.turn_limit, counted.lp1000, counted.unfinished) == (3, 2, 0, 1)
    assert dict(counted.counts()) == {"conversion": 3, "turn-limit": 2, "lp1000": 0, "scenario": 0, UNFINISHED: 1}


games = st.tuples(
    st.sampled_from([Color.WHITE, Color.BLACK, None]),
    st.sampled_from(Endings.KINDS),
    st.integers(1, 40),
    st.sets(st.sampled_from(NAMES)),
    st.integers(0, 3),
    st.lists(st.tuples(st.integers(0, 900), st.integers(0, 30)), max_size=4),
)


def _records(drawn: list[tuple[Color | None, str, int, set[str], int, list[tuple[int, int]]]]) -> list[GameRecord]:
    half = (len(drawn) + 1) // 2
    return [
        GameRecord(
            index=i,
            pack_color=Color.WHITE if i < half else Color.BLACK,
            first=Color.WHITE,
            winner=winner,
            outcome=outcome,
            rounds=rounds,
            drafted=(tuple(NAMES), ()),
            played=(tuple(sorted(played)), ()),
            economy=(tuple(economy), tuple(economy[:1])),
            captures=captures,
        )
        for i, (winner, outcome, rounds, played, captures, economy) in enumerate(drawn)
    ]


@settings(max_examples=60, deadline=None)
@given(st.lists(games, min_size=1, max_size=24), st.booleans())
def test_the_json_document_is_the_records_and_keeps_the_schema(drawn: list, impact: bool) -> None:  # type: ignore[type-arg]
    """The report's figures add up to the games played (counted here from the records), its JSON
    document (the ``--format json`` output) keeps the schema and is ``as_json`` of the records."""
    records = _records(drawn)
    run = RunPlan(PACK, Side("core"), games=(len(records) + 1) // 2, seed=0, policy=Policy.RANDOM)
    measured = []
    if impact:  # the same games in the same order, results shuffled: as the ablated run would give
        ablated = [dataclasses.replace(r, winner=o.winner) for r, o in zip(records, reversed(records), strict=True)]
        measured = [paired((NAMES[0],), records, ablated)]
    report = summarise(run, records, measured)
    document = json.loads(render(report, "json"))
    assert document == report.as_json()
    Draft202012Validator(SCHEMA).validate(document)
    pack_wins = sum(1 for r in records if r.winner is r.pack_color)
    draws = sum(1 for r in records if r.winner is None)
    assert (report.sides.pack.wins, report.sides.pack.draws) == (pack_wins, draws)
    assert report.sides.against.wins == len(records) - pack_wins - draws
    assert sum(count for _, count in report.endings.counts()) == len(records)
    assert dict(report.endings.counts()) == {k: sum(1 for r in records if r.outcome == k) for k in Endings.KINDS}
    assert report.captures.total == sum(r.captures for r in records)
    assert sum(bar.games for bar in report.length.histogram) == len(records)
    for card in report.cards:
        assert card.played == sum(1 for r in records if card.card in r.played[0])
        assert card.when_played.games + card.when_not_played.games == len(records)
    assert report.dominant == tuple(card.card for card in report.cards if card.dominant)
    if impact:
        assert report.card(NAMES[0]).impact == measured[0] and document["cards"][0]["impact"] == document["impact"][0]
        assert document["impact"][0]["with"] == document["sides"]["pack"]  # the same games, counted alike


@settings(max_examples=20, deadline=None)
@given(st.lists(st.lists(games, min_size=2, max_size=6), min_size=3, max_size=3))
def test_a_gauntlets_standings_add_up_to_its_matches(drawn: list) -> None:  # type: ignore[type-arg]
    labels = ("a", "b", "c")
    base = RunPlan(Side("a"), Side("b"), games=1, seed=0, policy=Policy.RANDOM)
    entrants = [Side(label) for label in labels]
    runs = matches(base, entrants)
    played = [_records(match) for match in drawn]
    report = gauntlet_summary(base, entrants, runs, played)
    document = json.loads(render(report, "json"))
    assert document == report.as_json() and document["kind"] == "gauntlet"
    Draft202012Validator(SCHEMA).validate(document)
    assert [(m.pack, m.against) for m in report.matches] == [("a", "b"), ("a", "c"), ("b", "c")]
    for standing in report.standings:
        assert standing.wins + standing.draws + standing.losses == standing.games
        mine = [(m, m.pack == standing.entrant) for m in report.matches if standing.entrant in (m.pack, m.against)]
        assert standing.wins == sum(m.pack_wins if first else m.against_wins for m, first in mine)
    scores = [s.score or 0.0 for s in report.standings]
    assert scores == sorted(scores, reverse=True)
    assert report.run.games == sum(len(p) for p in played)


def test_a_report_is_frozen() -> None:
    report = summarise(RunPlan(PACK, Side("core"), games=1, seed=0, policy=Policy.RANDOM), _records([]))
    with pytest.raises(dataclasses.FrozenInstanceError):
        report.sides.pack.wins = 3  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        report.warnings = ()  # type: ignore[misc]


def test_data_still_gives_the_json_document_with_a_deprecation_warning() -> None:
    """``data`` was the JSON document: kept as a deprecated view of ``as_json``."""
    report = summarise(RunPlan(PACK, Side("core"), games=1, seed=0, policy=Policy.RANDOM), _records([]))
    with pytest.warns(DeprecationWarning, match=r"SimulationReport\.data is deprecated"):
        data = report.data
    assert data == report.as_json() and data["run"]["pack"] == "examples/packs/starter"  # type: ignore[index]
