"""The shipped logs played with cards: a complete game with the guide's Relic Spells, and one
small broken log per card mistake (R17, R19, R20, R22, R23). Their text output is golden
(SGCHECK_UPDATE_GOLDEN=1 rewrites it)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from click.testing import CliRunner

from sgcheck.cli import main
from sgcheck.core.pieces import Color, Outcome
from sgcheck.lang.source import SourceText, read_source
from sgcheck.replay.interpreter import ReplayOptions, ReplayResult, replay_source

if TYPE_CHECKING:
    from conftest import Golden

ROOT = Path(__file__).resolve().parents[2]
LOGS = ROOT / "examples" / "logs"
BROKEN = LOGS / "broken" / "cards"
GOLDEN = Path(__file__).with_name("golden")
GUIDE_CARDS = {"Soul Ward", "Soul Drain", "Arcane Surge", "Mirror Barrier", "Spirit Exchange"}


def replay(path: Path, options: ReplayOptions | None = None) -> ReplayResult:
    """Replay a shipped log as the command line does: its [Pack] tag is read from its folder."""
    options = options if options is not None else ReplayOptions()
    shown = path.relative_to(ROOT).as_posix()
    source = read_source(path, shown)
    assert isinstance(source, SourceText)
    return replay_source(source, options, folder=path.parent.relative_to(ROOT).as_posix())


@pytest.fixture
def at_root(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)  # relative paths in reports, as a user would type them


# --- the complete game --------------------------------------------------------------------------


def test_relic_game_is_legal_and_ends_as_its_header_says(at_root: None) -> None:
    """R18: at the turn limit White has dealt 2 King damage and Black none; the [Result] is 1-0."""
    result = replay(LOGS / "relic-game.sglog")
    assert result.diagnostics == (), result.diagnostics[:3]
    assert result.ok and not result.stopped
    assert result.pack is not None and not result.pack.breaks_contract
    assert result.header is not None
    tag = result.header.get("Result")
    assert tag is not None
    state = result.state
    assert state is not None and state.result is not None
    assert state.result.score == tag.value == "1-0"
    assert state.result.outcome is Outcome.TURN_LIMIT
    assert state.result.winner is Color.WHITE
    assert (state.player(Color.BLACK).king_damage, state.player(Color.WHITE).king_damage) == (2, 0)


def test_relic_game_plays_every_card_of_its_pack(at_root: None) -> None:
    """R22: both Relics stay in play, the three Spells are discarded, no card is left in hand."""
    result = replay(LOGS / "relic-game.sglog")
    assert result.pack is not None
    assert {card.name for card in result.pack.cards} == GUIDE_CARDS  # Temporal Rift is left out
    assert result.state is not None
    cards = result.state.cards
    assert cards is not None
    assert {relic.card for relic in cards.in_play} == {"Soul Ward", "Mirror Barrier"}
    assert set(cards.discarded[Color.WHITE]) == {"Soul Drain", "Arcane Surge"}
    assert set(cards.discarded[Color.BLACK]) == {"Spirit Exchange"}
    assert cards.hand(Color.WHITE) == cards.hand(Color.BLACK) == ()


def test_relic_game_claims_show_each_card_acting() -> None:
    """The claims the players wrote for each card moment, which replay confirms (R20, R23)."""
    text = (LOGS / "relic-game.sglog").read_text(encoding="utf-8")
    for claim in (
        'play "Soul Drain" cost 3 gain 5sp',  # a steal of 5 SP
        'play "Spirit Exchange" cost 2 gain 4sp lp 21 sp 9',  # 2 + 4 LP for 4 SP
        "threshold 30 hit damage 2 king-damage 2",  # Arcane Surge: 1 + 1 damage
        "threshold 50 hit damage 0 king-damage 0",  # Soul Ward: 1 − 2, never below 0
        "attack Rh2 Rh1 roll 1 6 cost 11 pay 10sp 1lp threshold 10 miss",  # Mirror Barrier: 20 − 10
    ):
        assert claim in text


def test_relic_game_replays_with_exit_status_0(at_root: None) -> None:
    result = CliRunner().invoke(main, ["replay", "examples/logs/relic-game.sglog"])
    assert result.exit_code == 0, result.output
    assert "legal game, White wins at the turn limit (13) on King damage dealt 2 to 0" in result.output


# --- one mistake per broken log ------------------------------------------------------------------

#: name, code, line, column, a fragment of the message, the options it is replayed with
CASES = [
    ("card-not-drafted", "SG-R120", 9, 13, "White did not keep it in the draft", ()),
    ("card-played-twice", "SG-R120", 11, 13, "it was already played", ()),
    ("third-activation", "SG-T105", 14, 13, "this would be activation 3", ()),
    ("card-wrong-phase", "SG-R121", 10, 13, "'Arcane Surge' is cast in Battle, not in Main 1", ()),
    (
        "capped-threshold",
        "SG-R202",
        25,
        45,
        "it is 65 (20 + 10×(Knight 3 − Pawn 1) + 25 (Knight's Banner +10, Eagle Eye +20, capped at +25)), not 70",
        (),
    ),
    ("forbidden-card", "SG-R123", 11, 13, "it changes the turn structure", ("--allow-violations",)),
    ("draft-hand-limit", "SG-S107", 4, 1, "White keeps 4 cards, but the pack's draft keeps 3 of 5", ()),
]


def _options(flags: tuple[str, ...]) -> ReplayOptions:
    return ReplayOptions(allow_violations="--allow-violations" in flags)


@pytest.mark.parametrize(("name", "code", "line", "column", "fragment", "flags"), CASES, ids=[c[0] for c in CASES])
def test_broken_card_log_stops_at_its_mistake(
    name: str, code: str, line: int, column: int, fragment: str, flags: tuple[str, ...], at_root: None
) -> None:
    log = BROKEN / f"{name}.sglog"
    result = replay(log, _options(flags))
    assert not result.ok and result.stopped
    source = log.relative_to(ROOT).as_posix()
    errors = [d for d in result.diagnostics if d.is_error and d.span is not None and d.span.source == source]
    first = errors[0]
    assert (first.code, first.span is not None and (first.span.line, first.span.column)) == (code, (line, column))
    assert fragment in first.message
    assert len(errors) == 1  # replay stops at the first error in the log


def test_every_other_broken_card_log_has_no_finding_before_its_mistake(at_root: None) -> None:
    """Only the Temporal Rift log has findings before its own: those of its card file."""
    for name, code, *_ in CASES:
        errors = [d for d in replay(BROKEN / f"{name}.sglog").diagnostics if d.is_error]
        if name == "forbidden-card":
            continue
        assert [d.code for d in errors] == [code], name


def test_temporal_rift_stops_the_game_before_it_begins_without_allow_violations(at_root: None) -> None:
    """SG-P015: the card file breaks the contract (SG-C050), so the log is not replayed."""
    result = replay(BROKEN / "forbidden-card.sglog")
    assert [d.code for d in result.diagnostics] == ["SG-C050", "SG-P015"]
    rift, stop = result.diagnostics
    assert rift.span is not None and rift.span.source.endswith("broken/cards/rift.sgcard")
    assert stop.span is not None and (stop.span.line, stop.span.column) == (5, 1)
    assert result.state is None


def test_temporal_rift_is_refused_when_played_even_with_allow_violations(at_root: None) -> None:
    """R19, R23: the contract's findings come first, then SG-N305, then the refusal in the log."""
    result = replay(BROKEN / "forbidden-card.sglog", ReplayOptions(allow_violations=True))
    assert [d.code for d in result.diagnostics] == ["SG-C050", "SG-N305", "SG-R123"]
    assert result.state is not None and result.state.cards is not None
    assert result.state.cards.hand(Color.WHITE) == ("Temporal Rift",)  # refused: nothing was played


def test_the_cap_log_notes_the_clamp_when_replay_goes_on(at_root: None) -> None:
    """SG-N304 (R20) follows the wrong threshold when replay keeps going past it."""
    result = replay(BROKEN / "capped-threshold.sglog", ReplayOptions(keep_going=True))
    assert [d.code for d in result.diagnostics] == ["SG-R202", "SG-N304"]
    assert "to-hit +30 (Knight's Banner +10, Eagle Eye +20, capped at +25)" in result.diagnostics[1].message


def test_the_broken_logs_pack_keeps_the_contract(at_root: None) -> None:
    result = replay(BROKEN / "card-wrong-phase.sglog")
    assert result.pack is not None and result.pack.findings == ()


def test_every_broken_card_log_is_covered() -> None:
    assert {p.stem for p in BROKEN.glob("*.sglog")} == {name for name, *_ in CASES}


@pytest.mark.parametrize(("name", "flags"), [(c[0], c[5]) for c in CASES], ids=[c[0] for c in CASES])
def test_broken_card_log_output_matches_golden(
    name: str, flags: tuple[str, ...], at_root: None, golden: Golden
) -> None:
    log = f"examples/logs/broken/cards/{name}.sglog"
    result = CliRunner().invoke(main, ["replay", *flags, log])
    assert result.exit_code == 1, result.output
    golden.check(GOLDEN / f"cards-{name}.txt", result.output)
