"""The proof of a break of the contract (``sgcheck.contract.proof``): the files it writes replay,
through the library ``sgcheck replay`` uses, with no error and to the state the path reaches; its
pack passes ``sgcheck check``; a path the engine rejects is refused before anything is written."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

import pytest
from click.testing import CliRunner

from sgcheck.cli import main
from sgcheck.contract.proof import write_proof
from sgcheck.core import engine
from sgcheck.core.actions import Action, Activate, Attack, EndTurn, EnterPhase, Move, Play, Summon
from sgcheck.core.cards.model import Card
from sgcheck.core.cards.table import CardsByName, new_cards
from sgcheck.core.outcome import Applied
from sgcheck.core.pieces import BLACK, KING, WHITE, Kind, Phase
from sgcheck.core.play.victory import scenario_start
from sgcheck.core.ruleset import CORE, Ruleset
from sgcheck.core.scenario import Scenario, SideSetup, WinCondition, WinKind
from sgcheck.core.squares import Square, parse_square
from sgcheck.core.state import GameState, Payment, initial_state
from sgcheck.diagnostics import Diagnostic
from sgcheck.lang.cards.parser import parse_cards
from sgcheck.lang.source import read_source
from sgcheck.paths import display
from sgcheck.replay.files import LogInput, replay_input
from sgcheck.replay.interpreter import ReplayOptions, ReplayResult, replay_source
from sgcheck.replay.summary import state_facts
from sgcheck.results import FileResult, ReplayFacts

CARDS = """\
spell "Quick Strike" {
    cost 2 SP
    phase battle
    text "This attack deals +1 damage per hit."
    effect damage +1 this attack
}

relic "Iron Hide" passive {
    cost 4 SP
    phase main
    text "Your Rooks take 1 less damage per hit."
    effect reduce damage by 1 on own Rook
}

relic "Watchtower" activated {
    cost 2 SP
    phase main1
    text "Attacks against your Rooks take -10 to hit this turn."
    effect to_hit -10 on enemy attacks when target is Rook this turn
}

spell "Tithe" {
    cost 1 SP
    phase main1
    text "Steal 2 SP."
    effect steal 2 SP
}
"""


def sq(text: str) -> Square:
    return parse_square(text)


def cards() -> tuple[Card, ...]:
    parsed = parse_cards(CARDS, "probe-cards.sgcard")
    assert parsed.diagnostics == ()
    return parsed.cards


#: Kings and a few pieces: a White Rook two squares from a Black Pawn, a Black Rook on the h-file.
PROBE = Scenario(
    "Probe: Rook against Pawn",
    sides=(
        SideSetup(lp=20, sp=20, pieces=((sq("e1"), KING), (sq("a3"), Kind.ROOK), (sq("b1"), Kind.KNIGHT))),
        SideSetup(lp=25, sp=30, pieces=((sq("e8"), KING), (sq("a5"), Kind.PAWN), (sq("h5"), Kind.ROOK))),
    ),
)
HANDS = (("Iron Hide", "Quick Strike"), ("Tithe", "Watchtower"))

WHITE_1: list[Action] = [
    EnterPhase(Phase.MAIN1),
    Play("Iron Hide"),
    Move(sq("a3"), sq("a4"), pay=Payment(0, 6)),  # the Rook's move paid in LP: a pay claim
    EnterPhase(Phase.BATTLE),
    Attack(sq("a4"), sq("a5"), (9, 9)),  # 99 against 60: a miss
    Play("Quick Strike"),
    Attack(sq("a4"), sq("a5"), (1, 0)),  # 10: a hit for 1 + 1, the Pawn captured
    EndTurn(),
]
BLACK_1: list[Action] = [
    EnterPhase(Phase.MAIN1),
    Play("Tithe"),
    Move(sq("h5"), sq("h4")),
    EnterPhase(Phase.BATTLE),
    Attack(sq("h4"), sq("a4"), (0, 5)),  # a hit on the Rook, which Iron Hide shields
    EndTurn(),
]
WHITE_2: list[Action] = [EndTurn()]  # a Pass
BLACK_2: list[Action] = [EnterPhase(Phase.MAIN1), Play("Watchtower"), Activate("Watchtower"), EndTurn()]
PATH = [*WHITE_1, *BLACK_1, *WHITE_2, *BLACK_2]


Hands = tuple[tuple[str, ...], tuple[str, ...]]


def start(scenario: Scenario, hand_cards: Sequence[Card], hands: Hands, ruleset: Ruleset = CORE) -> GameState:
    white, black = scenario.side(WHITE).king, scenario.side(BLACK).king
    assert white is not None and black is not None
    state = initial_state(white, black, ruleset, scenario)
    if hand_cards:
        state = state.replace(cards=new_cards(CardsByName(hand_cards), *hands))
    return scenario_start(state)


def play(state: GameState, actions: Sequence[Action]) -> GameState:
    for action in actions:
        step = engine.apply(state, action)
        assert isinstance(step, Applied), (action, step)
        state = step.state
    return state


def replayed(log: Path) -> tuple[FileResult, ReplayResult]:
    """The log replayed as ``sgcheck replay`` replays it (the report entry), and the replay itself
    (its final state), read as replay_input reads it."""
    result, _ = replay_input(LogInput(str(log)), ReplayOptions())
    source = read_source(str(log), display(str(log)), streamed=True)
    assert not isinstance(source, Diagnostic)
    replay = replay_source(source, ReplayOptions(), folder=str(log.parent))
    return result, replay


def errors(result: FileResult) -> list[str]:
    return [f"{d.code} {d.message}" for d in result.diagnostics if d.is_error]


def same_position(result: FileResult, replay: ReplayResult, expected: GameState) -> None:
    """Replay reached ``expected``: the report's totals and board, and the state itself, played with
    the cards replay read from the written pack (the same cards, read from their own text)."""
    assert isinstance(result.facts, ReplayFacts)
    final = result.facts.final
    # a log always ends between turns unless the game is over: the next player's Upkeep income is
    # then shown apart from the totals
    income = 0 if expected.result is not None else expected.turn.income
    assert final == state_facts(expected, income)
    assert replay.state is not None
    assert replay.state.replace(cards=None) == expected.replace(cards=None)
    if expected.cards is not None:
        assert replay.state.cards is not None
        held = replay.state.cards
        assert (held.hands, held.discarded, [(c.card, c.owner) for c in held.in_play]) == (
            expected.cards.hands,
            expected.cards.discarded,
            [(c.card, c.owner) for c in expected.cards.in_play],
        )


# --- a path over two rounds --------------------------------------------------------------------------


def test_a_path_over_two_rounds_replays_clean_to_its_state(tmp_path: Path) -> None:
    proof = write_proof(tmp_path / "proof", cards=cards(), scenario=PROBE, hands=HANDS, actions=PATH)
    assert proof == tmp_path / "proof" / "proof.sglog"
    result, replay = replayed(proof)
    assert isinstance(result.facts, ReplayFacts)
    assert errors(result) == [] and result.facts.legal is True and not replay.stopped
    assert result.facts.actions == 10 and result.facts.turns == 4
    expected = play(start(PROBE, cards(), HANDS), PATH)
    same_position(result, replay, expected)
    assert replay.pack is not None
    assert replay.state == play(start(PROBE, replay.pack.cards, HANDS), PATH)  # exactly, with replay's cards
    assert replay.state is not None and replay.state.turn_number == 3 and replay.state.to_move is WHITE


def test_the_log_writes_every_claim(tmp_path: Path) -> None:
    proof = write_proof(
        tmp_path,
        cards=cards(),
        scenario=PROBE,
        hands=HANDS,
        actions=PATH,
        comments=["SG-C999 (probe): Iron Hide shields the Rook", "", "two lines\nin one comment"],
    )
    text = proof.read_text(encoding="utf-8")
    head, _, turns = text.partition("\n1. ")
    assert head == (
        "; SG-C999 (probe): Iron Hide shields the Rook\n"
        ";\n"
        "; two lines\n"
        "; in one comment\n"
        '[Event "Contract proof"]\n'
        '[Ruleset "core"]\n'
        '[Pack "pack"]\n'
        '[Scenario "probe.scenario.yaml"]\n'
        "\n"
        'draft white "Iron Hide" "Quick Strike"\n'
        'draft black "Tithe" "Watchtower"\n'
    )
    assert "move Ra3 a4 cost 6 pay 6lp lp 14 sp 16" in turns
    assert "attack Ra4 Pa5 roll 9 9 cost 11 threshold 60 miss" in turns
    assert "attack Ra4 Pa5 roll 1 0 cost 11 threshold 60 hit damage 2 capture gain 5sp" in turns
    assert "attack Rh4 Ra4 roll 0 5 cost 17 threshold 20 hit damage 0" in turns
    assert "2.   end: pass lp " in turns
    assert "result" not in turns  # the game goes on
    scenario = (tmp_path / "probe.scenario.yaml").read_text(encoding="utf-8")
    assert scenario.startswith('name: "Probe: Rook against Pawn"\n')


def test_the_pack_passes_the_check(tmp_path: Path) -> None:
    write_proof(tmp_path, cards=cards(), scenario=PROBE, hands=HANDS, actions=PATH)
    for target in (tmp_path / "pack", tmp_path):
        run = CliRunner().invoke(main, ["check", str(target), "--isolated", "--format", "json"])
        report = json.loads(run.output)
        codes = [d["code"] for f in report["files"] for d in f["diagnostics"]]
        assert not [c for c in codes if c.startswith(("SG-P", "SG-C2"))], codes
        assert run.exit_code == 0, codes
    manifest = (tmp_path / "pack" / "sgpack.yaml").read_text(encoding="utf-8")
    assert "draft: {draw: 5, keep: 3}\n" in manifest and "  - cards.sgcard\n" in manifest


def test_hands_larger_than_r19s_get_a_draft_that_keeps_them(tmp_path: Path) -> None:
    """R19: a hand of four is legal under a draft that keeps four and lets a hand hold them."""
    hands = (("Iron Hide", "Quick Strike", "Tithe", "Watchtower"), ())
    path: list[Action] = [EnterPhase(Phase.MAIN1), Play("Tithe"), EndTurn()]
    proof = write_proof(tmp_path, cards=cards(), scenario=PROBE, hands=hands, actions=path)
    manifest = (tmp_path / "pack" / "sgpack.yaml").read_text(encoding="utf-8")
    assert "draft: {draw: 5, keep: 4, hand_limit: 4}\n" in manifest
    assert "draft black" not in proof.read_text(encoding="utf-8")  # Black kept nothing
    result, replay = replayed(proof)
    assert errors(result) == []
    same_position(result, replay, play(start(PROBE, cards(), hands), path))
    run = CliRunner().invoke(main, ["check", str(tmp_path / "pack"), "--isolated"])
    assert run.exit_code == 0, run.output


# --- where a path may stop -----------------------------------------------------------------------


def test_a_path_ending_in_the_middle_of_a_turn_replays(tmp_path: Path) -> None:
    """The turn is written as far as the path goes; replay ends it as it ends every turn."""
    path = [*WHITE_1, *BLACK_1[:3]]  # Black has played Tithe and moved its Rook: no End
    proof = write_proof(tmp_path, cards=cards(), scenario=PROBE, hands=HANDS, actions=path)
    text = proof.read_text(encoding="utf-8")
    assert text.endswith(
        '1... main1: play "Tithe" cost 1 gain 2sp lp 25 sp 31\n            move Rh5 h4 cost 6 lp 25 sp 25\n'
    )
    result, replay = replayed(proof)
    assert errors(result) == []
    reached = play(start(PROBE, cards(), HANDS), path)
    same_position(result, replay, play(reached, [EndTurn()]))


def test_a_path_ending_with_a_phase_label_replays(tmp_path: Path) -> None:
    path = [*WHITE_1, EnterPhase(Phase.MAIN1), EnterPhase(Phase.BATTLE)]
    result, replay = replayed(write_proof(tmp_path, cards=cards(), scenario=PROBE, hands=HANDS, actions=path))
    assert errors(result) == []
    same_position(result, replay, play(start(PROBE, cards(), HANDS), [*path, EndTurn()]))


def test_a_path_that_wins_ends_with_its_result(tmp_path: Path) -> None:
    """A scenario condition met by the path's last attack: the log ends with the result, which
    replay confirms (R24)."""
    drill = Scenario(
        "Probe: first capture wins",
        sides=PROBE.sides,
        conditions=(WinCondition(WinKind.CAPTURED_VALUE, (WHITE,), value=1),),
    )
    path = WHITE_1[:-1]  # no End: the capture wins at once
    proof = write_proof(tmp_path, cards=cards(), scenario=drill, hands=HANDS, actions=path)
    assert proof.read_text(encoding="utf-8").endswith("\nresult 1-0 scenario\n")
    result, replay = replayed(proof)
    assert errors(result) == []
    expected = play(start(drill, cards(), HANDS), path)
    assert expected.result is not None
    same_position(result, replay, expected)
    assert replay.state is not None and replay.state.result == expected.result


def test_black_first_and_a_turn_limit(tmp_path: Path) -> None:
    """A scenario where Black plays first (1...) and the game ends at its turn limit (R18): the
    [Ruleset] tag carries the limit, as the scenario sets it."""
    scenario = Scenario("Probe: Black first", sides=PROBE.sides, first=BLACK, turn_limit=1)
    path: list[Action] = [EnterPhase(Phase.MAIN1), Move(sq("h5"), sq("h4")), EndTurn(), EndTurn()]
    proof = write_proof(tmp_path, cards=cards(), scenario=scenario, hands=HANDS, actions=path)
    text = proof.read_text(encoding="utf-8")
    assert '[Ruleset "core; turn_limit=1"]' in text
    assert text.endswith(
        "\n1... main1: move Rh5 h4 cost 6 lp 25 sp 24\n2.   end: pass lp 26 sp 20\nresult 1-0 turn-limit\n"
    )
    result, replay = replayed(proof)
    assert errors(result) == []
    same_position(result, replay, play(start(scenario, cards(), HANDS, Ruleset(turn_limit=1)), path))


def test_without_cards_no_pack_is_written(tmp_path: Path) -> None:
    path: list[Action] = [Summon(Kind.PAWN, sq("d2")), EnterPhase(Phase.MAIN1), Move(sq("a3"), sq("a4")), EndTurn()]
    proof = write_proof(tmp_path, cards=(), scenario=PROBE, hands=((), ()), actions=path)
    assert not (tmp_path / "pack").exists() and "[Pack" not in proof.read_text(encoding="utf-8")
    result, replay = replayed(proof)
    assert errors(result) == []
    same_position(result, replay, play(start(PROBE, (), ((), ())), path))


# --- what is refused ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("path", "words"),
    [
        ([Move(sq("a3"), sq("a4"))], r"action 1 of the path .* is rejected: SG-T103"),
        ([EnterPhase(Phase.BATTLE), Attack(sq("a3"), sq("h5"), (1, 0))], "action 2 of the path"),
        ([*WHITE_1, EnterPhase(Phase.MAIN1), Play("Iron Hide")], "action 10 of the path"),  # Black's card
    ],
)
def test_a_rejected_action_raises_and_writes_nothing(tmp_path: Path, path: list[Action], words: str) -> None:
    with pytest.raises(ValueError, match=words):
        write_proof(tmp_path / "proof", cards=cards(), scenario=PROBE, hands=HANDS, actions=path)
    assert not (tmp_path / "proof").exists()


def test_what_cannot_be_a_probe_is_refused(tmp_path: Path) -> None:
    no_king = Scenario("No Kings", sides=(SideSetup(), SideSetup(pieces=((sq("e8"), KING),))))
    with pytest.raises(ValueError, match="does not place the White King"):
        write_proof(tmp_path, cards=cards(), scenario=no_king, hands=HANDS, actions=())
    with pytest.raises(ValueError, match="not among the cards"):
        write_proof(tmp_path, cards=cards(), scenario=PROBE, hands=(("Nope",), ()), actions=())
    with pytest.raises(ValueError, match="keeps a card twice"):
        write_proof(tmp_path, cards=cards(), scenario=PROBE, hands=(("Tithe", "Tithe"), ()), actions=())
    crowded = Scenario("Crowded", sides=(SideSetup(lp=1000, pieces=((sq("e1"), KING),)), PROBE.sides[1]))
    with pytest.raises(ValueError, match="cannot be played: SG-P032"):
        write_proof(tmp_path, cards=cards(), scenario=crowded, hands=HANDS, actions=())
    assert list(tmp_path.iterdir()) == []
