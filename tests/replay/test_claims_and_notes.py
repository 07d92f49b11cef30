"""Claims and notes that must read right: King damage after a miss, the Result tag, the wording of
SG-R204, the summary's totals, the context of SG-T106 and the two-jump knight move written without
its middle square.

Every log is replayed as the line reader reads it and as the grammar reads it, which must agree.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from sgcheck.cli import main
from sgcheck.diagnostics import Diagnostic
from sgcheck.replay.interpreter import ReplayOptions, ReplayResult, replay_text
from sgcheck.replay.summary import replay_summary, summary_facts
from sgcheck.report.replay_text import summary_text
from tests.readers import by_grammar

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "logs"
FULL_GAME = (EXAMPLES / "full-game.sglog").read_text(encoding="utf-8")
EXAMPLE_A = (EXAMPLES / "guide-example-a.sglog").read_text(encoding="utf-8")
KINGS = "king white e1\nking black e8\n"


def replay(text: str, keep_going: bool = False) -> ReplayResult:
    """The replay of ``text``; the line reader's and the grammar's reading give the same findings and state."""
    quick = replay_text(text, "t.sglog", ReplayOptions(keep_going=keep_going))
    full = by_grammar(text, "t.sglog", ReplayOptions(keep_going=keep_going))
    assert quick.diagnostics == full.diagnostics
    assert (quick.state, quick.upkeep_income) == (full.state, full.upkeep_income)
    return quick


def errors(result: ReplayResult) -> list[Diagnostic]:
    return [d for d in result.diagnostics if d.is_error]


# --- king-damage: the King's total after any attack on it (core §4.4, R11) -------------------------

#: Line 299 of the full game: a miss on the Black King, which has 19 damage from earlier hits.
MISS_ON_KING = "attack Ne6 Kf5 roll 9 6 cost 8 threshold 30 miss lp 12 sp 24"


def test_king_damage_after_a_miss_states_the_unchanged_total_r11() -> None:
    """core §4.4, R11: damage on the King never clears, and a miss adds none, so the total after
    a miss is the total before it (19 here, after earlier hits on that King)."""
    assert MISS_ON_KING in FULL_GAME
    result = replay(FULL_GAME.replace(MISS_ON_KING, MISS_ON_KING + " king-damage 19"))
    assert result.ok, [d.message for d in result.diagnostics]


def test_a_wrong_king_damage_total_after_a_miss_is_still_wrong_r11() -> None:
    result = replay(FULL_GAME.replace(MISS_ON_KING, MISS_ON_KING + " king-damage 20"))
    (error,) = errors(result)
    assert error.code == "SG-R205"
    assert error.message == "wrong King damage: after this attack the King's total is 19/20, not 20"
    assert "R11" in error.rules
    assert error.span is not None and error.span.line == 299


def test_king_damage_on_an_attack_on_another_piece_is_wrong_r11() -> None:
    """core §4.3, R11: only an attack on a King has a King damage total to claim."""
    text = EXAMPLE_A.replace("capture gain 5sp", "capture gain 5sp king-damage 0")
    (error,) = errors(replay(text))
    assert error.code == "SG-R205" and "the target is not a King" in error.message


def test_generated_logs_write_king_damage_after_hits_only() -> None:
    """The generator's claims did not change: a miss carries no king-damage claim (though one
    would be right), so generated logs and their benchmarks stay as they were."""
    assert "miss king-damage" not in FULL_GAME


# --- [Result "*"] and "result *" are one claim (core §7, R18) ----------------------------------------


@pytest.mark.parametrize("form", ["tag", "line"])
def test_unfinished_result_on_an_ended_game_is_wrong_either_way_r18(form: str) -> None:
    """core §7, R18: the game ended by King conversion, so '*' (unfinished) is wrong as a header
    tag exactly as it is as a result line."""
    body = FULL_GAME.replace("result 1-0 conversion\n", "")
    assert '[Result "1-0"]' in body
    text = body.replace('[Result "1-0"]', '[Result "*"]') if form == "tag" else body + "result *\n"
    (error,) = errors(replay(text))
    assert error.code == "SG-R210"
    assert error.message == (
        "the log says the game is unfinished (*), but White wins by King conversion on White's turn 120"
    )


@pytest.mark.parametrize("form", ["tag", "line"])
def test_unfinished_result_on_an_unfinished_game_is_right_either_way_r18(form: str) -> None:
    body = EXAMPLE_A.replace("result *\n", "").replace('[Result "*"]\n', "")
    text = '[Result "*"]\n' + body if form == "tag" else body + "result *\n"
    assert replay(text).ok


# --- SG-R204: a wrong hit/miss claim is not an illegal attack (core §4.2, R10) ----------------------


def test_a_wrong_hit_claim_says_the_claim_is_wrong_not_the_attack_r10() -> None:
    """core §4.2, R10: 61 > 60 misses. The attack is legal; only the claimed outcome is wrong."""
    result = replay((EXAMPLES / "broken" / "wrong-hit.sglog").read_text(encoding="utf-8"))
    (error,) = errors(result)
    assert error.code == "SG-R204"
    assert error.message == (
        "wrong claim: d100 roll 61 misses, the log says hit (61 > threshold 60 = 20 + 10×(Rook 5 − Pawn 1))"
    )
    assert "illegal" not in error.message
    assert error.rules == ("core §4.2", "R10")


def test_a_wrong_miss_claim_reads_the_same_way_r10() -> None:
    text = EXAMPLE_A.replace("roll 3 4 cost 12 threshold 60 hit damage 1 capture", "roll 3 4 cost 12 threshold 60 miss")
    (error,) = errors(replay(text))
    assert error.message.startswith("wrong claim: d100 roll 34 hits, the log says miss (34 ≤ threshold 60 = ")


# --- the summary's totals: as of the last action written (core §6, R14) -----------------------------

#: Example A with Black's turn 4 written: White's turn 5 begins by itself, with 2 SP of income
#: for the Black Pawn in White's Gem (core §6, R14).
BETWEEN_TURNS = EXAMPLE_A.replace("result *\n", "4... end: pass lp 23\n")


def test_summary_totals_are_those_of_the_last_action_written_r14() -> None:
    """White's last written total is SP 5 (the 'sp 5' claim); replay has begun White's turn 5 with
    2 SP of Upkeep income, which the summary names but does not add to the totals."""
    result = replay(BETWEEN_TURNS)
    assert result.ok
    assert result.state is not None and result.state.players[0].sp == 7  # the engine's state
    assert result.upkeep_income == 2
    text = summary_text(replay_summary(result))
    assert "  White  LP 3    SP 5  " in text
    assert "White's turn 5 starts with 2 SP of Upkeep income, not counted above" in text
    final = summary_facts(result).final
    assert final is not None
    assert (final.turn, final.to_move, final.phase, final.upkeep_income) == (5, "White", "Upkeep", 2)
    assert final.white.sp == 5 and final.black.lp == 23


def test_no_income_note_when_the_log_stops_inside_a_turn() -> None:
    result = replay(BETWEEN_TURNS + "5. upkeep: income 3\n")
    assert [d.code for d in errors(result)] == ["SG-R208"]
    assert result.upkeep_income == 0
    assert "Upkeep income" not in summary_text(replay_summary(result))


def test_summary_json_has_the_same_totals_as_the_text(tmp_path: Path) -> None:
    log = tmp_path / "between.sglog"
    log.write_text(BETWEEN_TURNS, encoding="utf-8")
    run = CliRunner().invoke(main, ["replay", "--format", "json", str(log)])
    assert run.exit_code == 0, run.output
    (entry,) = json.loads(run.output)["files"]
    assert entry["facts"]["final"]["white"]["sp"] == 5
    assert entry["facts"]["final"]["upkeep_income"] == 2
    assert "SP 5" in entry["summary"]


# --- SG-T106 shows the context of the line it reports (core §7, R11, R18) -----------------------------


def test_game_over_after_a_king_conversion_shows_the_late_lines_context_r11() -> None:
    """core §4.4, R11: the conversion on White's turn 120 ends the game. Black's turn 120 comes
    too late, and its finding is about Black's turn, not White's Battle phase."""
    text = FULL_GAME.replace("result 1-0 conversion\n", "120... main1: move Kf5 f4\n")
    (error,) = errors(replay(text))
    assert error.code == "SG-T106"
    assert error.span is not None and error.span.line == 301
    context = dict(error.context)
    assert (context["turn"], context["player"], context["phase"]) == ("120", "Black", "Main 1")
    assert {"R11", "R18"} <= set(error.rules)
    alone = FULL_GAME.replace("result 1-0 conversion\n", "120...\n  main1: move Kf5 f4\n")
    (error,) = errors(replay(alone))
    context = dict(error.context)
    assert (context["turn"], context["player"]) == ("120", "Black")
    assert "phase" not in context  # a turn header on a line of its own belongs to no phase


def test_game_over_inside_the_converting_turn_shows_the_phase_of_the_line_r11() -> None:
    text = FULL_GAME.replace("result 1-0 conversion\n", "     main2: convert 2\n")
    (error,) = errors(replay(text))
    assert error.code == "SG-T106"
    context = dict(error.context)
    assert (context["turn"], context["player"], context["phase"]) == ("120", "White", "Main 2")


def test_game_over_at_the_turn_limit_cites_r18() -> None:
    result = replay((EXAMPLES / "broken" / "game-over.sglog").read_text(encoding="utf-8"))
    (error,) = errors(result)
    assert error.code == "SG-T106" and error.rules == ("core §7", "R18")
    assert dict(error.context)["player"] == "White" and dict(error.context)["turn"] == "2"


# --- a two-jump knight move without its middle square (core §3, R07) ------------------------------


def test_two_jump_knight_move_may_omit_its_middle_square_r07() -> None:
    """core §3, R07: g1-d4 is two jumps (over f3 or e2, both empty): legal, cost 3 × 2 = 6."""
    result = replay(KINGS + "1. upkeep: summon N g1 cost 8\n   main1: move Ng1 d4 cost 6 lp 6\n")
    assert result.ok
    assert result.state is not None and result.state.board[27] is not None  # d4
    (error,) = errors(replay(KINGS + "1. upkeep: summon N g1\n   main1: move Ng1 d4 cost 5\n"))
    assert (error.code, error.message) == ("SG-R201", "wrong cost: the move costs 6 (3 per jump × 2), not 5")
    assert error.rules == ("core §3", "R07")


def test_two_jump_knight_move_without_middle_square_needs_an_empty_one_r07() -> None:
    """R07: the square between the jumps must be empty; with e2 and f3 both taken, g1-d4 is blocked."""
    text = KINGS + (
        "1. upkeep: summon N g1\n1... end: pass\n2. end: pass\n2... end: pass\n"
        "3. upkeep: summon P e2\n3... end: pass\n4. end: pass\n4... end: pass\n"
        "5. upkeep: summon P f2\n   main1: move Pf2 f3\n5... end: pass\n"
        "6. main1: move Ng1 d4\n"
    )
    (error,) = errors(replay(text))
    assert error.code == "SG-R104" and "R07" in error.rules
    assert "e2 (White Pawn)" in error.message and "f3 (White Pawn)" in error.message


# --- the claims of a card's use: what an activated Relic does is claimed as a play's is (R22) ------

EMBER = 'relic "Ember" activated { cost 2 LP phase main1 effect deal 1 damage to enemy Pawn }\n'
EMBER_GAME = (
    '[Pack "ember.sgcard"]\ndraft white "Ember"\n' + KINGS + "1.   upkeep: summon P d2 cost 6\n"
    "1... upkeep: summon P d7 cost 6\n"
    '2.   main1: play "Ember" cost 2\n'
    "2... end: pass\n"
    '3.   main1: activate "Ember" on Pd7 damage {claimed}\n'
)


@pytest.mark.parametrize(("claimed", "codes"), [(1, []), (2, ["SG-R205"])])
def test_r22_an_activated_relics_damage_is_claimed_and_checked(tmp_path: Path, claimed: int, codes: list[str]) -> None:
    """R22: a use of an activated Relic deals its damage then; the log may claim it, as after a play."""
    (tmp_path / "ember.sgcard").write_text(EMBER, encoding="utf-8")
    text = EMBER_GAME.format(claimed=claimed)
    (tmp_path / "g.sglog").write_text(text, encoding="utf-8")
    result = CliRunner().invoke(main, ["replay", "--format", "json", str(tmp_path / "g.sglog")])
    found = [d["code"] for f in json.loads(result.output)["files"] for d in f["diagnostics"]]
    assert [c for c in found if c.startswith(("SG-R", "SG-P", "SG-T"))] == codes, result.output
