"""Replay behaviour: stopping vs keep-going, claims, rulesets, results, card notes."""

from __future__ import annotations

import pytest

from sgcheck.core.pieces import Color
from sgcheck.replay.interpreter import ReplayOptions, ReplayResult, replay_text

KINGS = "king white e1\nking black e8\n"


def run(body: str, *, header: str = "", keep_going: bool = False, ruleset: str | None = None) -> ReplayResult:
    return replay_text(header + KINGS + body, "t.sglog", ReplayOptions(keep_going=keep_going, ruleset=ruleset))


def codes(result: ReplayResult) -> list[str]:
    return [d.code for d in result.diagnostics]


def test_stops_at_first_error_by_default() -> None:
    result = run("1. upkeep: summon R a1 cost 9\n   main1: move Ra1 b2\n")
    assert codes(result) == ["SG-R201"]
    assert result.stopped


def test_keep_going_reports_independent_errors_and_skips_illegal_actions() -> None:
    """An illegal action is skipped: the state stays as it was, so later actions are judged from there."""
    body = (
        "1. upkeep: summon R a1 cost 9\n"  # wrong claim, action still happens
        "   main1: move Ra1 b2\n"  # illegal, skipped
        "          move Ra1 a3 cost 7 lp 3\n"  # legal from the unchanged position
    )
    result = run(body, keep_going=True)
    assert codes(result) == ["SG-R201", "SG-R103"]
    assert not result.stopped
    assert result.state is not None and result.state.player(Color.WHITE).lp == 3


def test_keep_going_still_stops_when_no_consistent_state_exists() -> None:
    result = run("1. end: pass\n2. end: pass\n1... end: pass\n", keep_going=True)
    assert codes(result) == ["SG-T101"]
    assert result.stopped


@pytest.mark.parametrize(
    ("claim", "code"),
    [("cost 11", "SG-R201"), ("lp 9", "SG-R203"), ("sp 1", "SG-R203")],
)
def test_cost_and_total_claims_are_checked(claim: str, code: str) -> None:
    """core §5: a Rook summon costs 5 + 5 = 10, paid from LP here (R05)."""
    assert codes(run(f"1. upkeep: summon R a1 {claim}\n")) == [code]


def test_correct_claims_are_silent() -> None:
    assert run("1. upkeep: summon R a1 cost 10 pay 10lp lp 10 sp 0\n").diagnostics == ()


def test_stated_payment_must_add_up() -> None:
    """R05: a stated split must equal the cost."""
    result = run("1. upkeep: summon R a1 pay 4lp\n")
    assert codes(result) == ["SG-R115"]
    assert "adds up to 4" in result.diagnostics[0].message


ATTACK_SETUP = (
    "1. upkeep: summon R a1\n"
    "1... upkeep: summon P a7\n"
    "2. end: pass\n"
    "2... main1: move Pa7 a5\n"
    "3. end: pass\n"
    "3... end: pass\n"
    "4. main1: move Ra1 a3\n"
)


@pytest.mark.parametrize(
    ("attack", "code", "fragment"),
    [
        ("roll 6 1 hit", "SG-R204", "61 misses"),
        ("roll 5 9 miss", "SG-R204", "59 hits"),
        ("roll 5 9 threshold 50", "SG-R202", "it is 60"),
        ("roll 5 9 damage 2", "SG-R205", "dealt 1, not 2"),
        ("roll 9 9 capture", "SG-R206", "the attack missed"),
        ("roll 1 1 gain 4sp", "SG-R211", "gains 5 SP, not 4"),
        ("roll 1 1 king-damage 1", "SG-R205", "no King damage"),
    ],
)
def test_attack_claims(attack: str, code: str, fragment: str) -> None:
    """core §4.2-§4.3, R10, R11: Rook vs Pawn threshold 60; a hit deals 1 and captures the Pawn."""
    result = run(ATTACK_SETUP + f"   battle: attack Ra3 a5 {attack}\n")
    assert codes(result) == [code]
    assert fragment in result.diagnostics[0].message


def test_hit_claim_error_underlines_the_whole_statement() -> None:
    result = run(ATTACK_SETUP + "   battle: attack Ra3 a5 roll 6 1 hit\n")
    diag = result.diagnostics[0]
    assert diag.label == "claimed a hit"
    assert diag.span is not None and diag.span.end_column - diag.span.column == len("attack Ra3 a5 roll 6 1 hit")


def test_double_zero_is_a_hundred_and_misses() -> None:
    """core §4.2, R10: "0 0" reads 100, above any threshold (max 95)."""
    result = run(ATTACK_SETUP + "   battle: attack Ra3 a5 roll 0 0 hit\n")
    assert "d100 roll 100 misses" in result.diagnostics[0].message


def test_income_claim_on_second_turn() -> None:
    """R14: income is 2 × the value of enemy pieces in the Gem (here one Pawn: 2 SP)."""
    body = ATTACK_SETUP + "   battle: attack Ra3 a5 roll 1 1 capture\n4... end: pass\n5. upkeep: income 2 sp 7\n"
    assert run(body).diagnostics == ()
    assert codes(run(body.replace("income 2", "income 3"))) == ["SG-R208"]


def test_break_and_repair_claims() -> None:
    """core §6, R15: Break needs 12+ on 3d6, Repair 10+; both cost whether or not they succeed."""
    body = (
        "1. end: pass\n1... end: pass\n2. end: pass\n2... end: pass\n"
        "3. upkeep: break roll 6 5 1 success cost 20 lp 12\n"
        "3... upkeep: repair roll 3 3 3 fail cost 10\n"
    )
    result = run(body)
    assert result.diagnostics == ()
    assert result.state is not None and result.state.player(Color.BLACK).gem_broken
    assert codes(run(body.replace("3 3 3 fail", "3 3 4 fail"))) == ["SG-R207"]


def test_pass_claim_gains_six() -> None:
    """core §2.5, R04: +6 LP when no action was taken."""
    assert run("1. end: pass lp 26 gain 6lp\n").diagnostics == ()
    assert codes(run("1. end: pass lp 27\n")) == ["SG-R203"]


def test_result_line_matches_turn_limit_result() -> None:
    """core §7, R18: at the turn limit, equal King damage goes to the higher score."""
    body = "1. upkeep: summon P a2\n1... end: pass\nresult 0-1 turn-limit\n"
    assert run(body, header='[TurnLimit "1"]\n').diagnostics == ()
    assert codes(run(body.replace("0-1", "1-0"), header='[TurnLimit "1"]\n')) == ["SG-R210"]


def test_header_result_tag_is_checked() -> None:
    result = run("1. end: pass\n", header='[Result "1-0"]\n')
    assert codes(result) == ["SG-R210"]


def test_unfinished_game_with_star_is_fine() -> None:
    assert run("1. end: pass\nresult *\n", header='[Result "*"]\n').diagnostics == ()


def test_house_rule_is_noted_and_enables_king_attacks() -> None:
    """R09 table choice: with king_value the King may attack; replay notes the §8 item it breaks."""
    body = "1. main1: move Ke1 e2\n"
    result = run(body, header='[Ruleset "core; king_value=3"]\n')
    assert codes(result) == ["SG-N303"]
    assert "king_value=3" in result.diagnostics[0].message
    assert "core §8" in result.diagnostics[0].message
    assert result.ok


def test_ruleset_option_refines_the_header() -> None:
    result = run("1. end: pass\n", ruleset="income=all")
    assert result.ruleset.income_counts_all
    assert codes(result) == ["SG-N303"]


def test_bad_ruleset_tag_is_reported() -> None:
    result = run("1. end: pass\n", header='[Ruleset "core; king_value=12"]\n')
    assert codes(result) == ["SG-P007"]
    assert "king_value" in result.diagnostics[0].message


def test_duplicate_tag_is_reported() -> None:
    assert "SG-P007" in codes(run("", header='[Event "a"]\n[Event "b"]\n'))


def test_statement_before_phase_label() -> None:
    result = run("1. summon R a1\n")
    assert codes(result) == ["SG-T107"]


def test_setup_out_of_order_and_tied_rolloff() -> None:
    """R01: draft, then roll-off (ties rerolled), then Kings."""
    out_of_order = replay_text(KINGS + "rolloff white 6 5 4 black 1 1 1\n", "t")
    assert codes(out_of_order) == ["SG-S101"]
    tied = replay_text("rolloff white 3 3 3 black 4 4 1\n" + KINGS + "1. end: pass\n", "t")
    assert codes(tied) == ["SG-S102"]
    rerolled = replay_text("rolloff white 3 3 3 black 4 4 1\nrolloff white 6 1 1 black 2 2 2\n" + KINGS, "t")
    assert rerolled.diagnostics == ()


def test_colour_choice_follows_the_roll_off() -> None:
    """core §1, R01: the higher roller chooses; their dice are written under the colour they took."""
    decided = "rolloff white 3 3 3 black 6 5 4\n"
    assert replay_text(decided + "choose black\n" + KINGS, "t").diagnostics == ()
    wrong = replay_text(decided + "choose white\n" + KINGS, "t")
    assert codes(wrong) == ["SG-S102"]
    assert "White's dice total 9, Black's 15: the winner plays Black" in wrong.diagnostics[0].message
    assert codes(replay_text("choose white\n" + KINGS, "t")) == ["SG-S101"]  # no roll-off yet
    tied = replay_text("rolloff white 3 3 3 black 4 4 1\nchoose white\n" + KINGS, "t", ReplayOptions(keep_going=True))
    assert codes(tied)[0] == "SG-S101"
    late = replay_text(decided + KINGS + "choose black\n", "t")
    assert codes(late) == ["SG-S101"]


def test_draft_over_hand_limit() -> None:
    """R19: keep 3 of 5."""
    result = replay_text('draft white "A" "B" "C" "D"\n' + KINGS, "t")
    assert codes(result) == ["SG-S105"]


def test_card_activation_notes() -> None:
    """R17 counts activations; playing an undrafted card is a warning; effects are not simulated."""
    result = replay_text('draft white "Soul Ward"\n' + KINGS + '1. main1: activate "Soul Drain" pay 2lp lp 18\n', "t")
    assert codes(result) == ["SG-N302", "SG-N301"]
    assert result.ok  # warnings only


def test_empty_file_is_reported() -> None:
    result = replay_text("", "empty.sglog")
    assert codes(result) == ["SG-P006"]
    comments_only = replay_text("; nothing\n{ at all }\n", "c.sglog")
    assert codes(comments_only) == ["SG-P006"]


def test_setup_only_log_is_a_game_not_yet_started() -> None:
    result = replay_text(KINGS, "t")
    assert result.ok and result.state is not None and result.state.turn_number == 1
