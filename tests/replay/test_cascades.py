"""--keep-going reports every independent error and only those: a finding that disappears when an
earlier refused action is taken as the log wrote it (or a wrong total as the log claimed it), in
that error's counterfactual replayed by the engine, is counted in one SG-N306 note; every other
finding is reported (sgcheck.replay.cascade).

A refused action is replayed as if it had not been written: the state stays as it was, and the
action is no action for the Pass rule (core §2, R04). The logs of ``cascades/`` go on as if the
refused action had happened; their golden outputs are ``golden/cascade-*.txt``.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from click.testing import CliRunner

from sgcheck.cli import main
from sgcheck.codes import CATALOGUE
from sgcheck.core.pieces import Color
from sgcheck.diagnostics import Diagnostic, Severity
from sgcheck.lang.source import read_source
from sgcheck.replay.interpreter import ReplayOptions, ReplayResult, replay_source, replay_text
from tests.readers import by_grammar, source_by_grammar

if TYPE_CHECKING:
    from conftest import Golden

ROOT = Path(__file__).resolve().parents[2]
CASCADES = Path(__file__).with_name("cascades")
GOLDEN = Path(__file__).with_name("golden")
LOGS = sorted(CASCADES.glob("*.sglog"))
KINGS = "rolloff white 5 4 3 black 2 2 1\nking white e1\nking black e8\n"


def replay_log(path: Path, *, keep_going: bool = True, grammar: bool = False) -> ReplayResult:
    """The replay of ``path``; with ``grammar``, of the log read by the grammar alone."""
    options = ReplayOptions(keep_going=keep_going)
    source = read_source(str(path))
    assert not isinstance(source, Diagnostic)
    if grammar:
        return source_by_grammar(source, options, folder=str(path.parent))
    return replay_source(source, options, folder=str(path.parent))


def run(body: str) -> ReplayResult:
    """Replayed as read by the line reader and by the grammar, which must agree."""
    quick = replay_text(KINGS + body, "t.sglog", ReplayOptions(keep_going=True))
    full = by_grammar(KINGS + body, "t.sglog", ReplayOptions(keep_going=True))
    assert quick.diagnostics == full.diagnostics
    return quick


def errors(result: ReplayResult) -> list[tuple[str, int]]:
    return [(d.code, d.span.line if d.span else 0) for d in result.diagnostics if d.is_error]


def notes(result: ReplayResult) -> list[Diagnostic]:
    return [d for d in result.diagnostics if d.code == "SG-N306"]


@pytest.mark.parametrize("log", LOGS, ids=[p.stem for p in LOGS])
def test_cascade_output_matches_golden(log: Path, monkeypatch: pytest.MonkeyPatch, golden: Golden) -> None:
    monkeypatch.chdir(ROOT)
    result = CliRunner().invoke(main, ["replay", "--keep-going", str(log.relative_to(ROOT))])
    assert result.exit_code == 1, result.output
    golden.check(GOLDEN / f"cascade-{log.stem}.txt", result.output)


@pytest.mark.parametrize("log", LOGS, ids=[p.stem for p in LOGS])
def test_cascades_replay_alike_read_by_the_line_reader_or_the_grammar(log: Path) -> None:
    assert replay_log(log).diagnostics == replay_log(log, grammar=True).diagnostics


@pytest.mark.parametrize("log", LOGS, ids=[p.stem for p in LOGS])
def test_without_keep_going_the_first_error_stops_replay(log: Path) -> None:
    result = replay_log(log, keep_going=False)
    assert result.stopped and len(errors(result)) == 1 and not notes(result)
    assert errors(result)[0] == errors(replay_log(log))[0]


def test_refused_move_then_the_piece_moves_again() -> None:
    """core §3, R06: the Rook cannot go a1-b2; its later moves from b2 and the LP claims that
    count the refused move's cost and no Pass bonus (R04) follow from that one error."""
    result = replay_log(CASCADES / "refused-move-moves-again.sglog")
    assert errors(result) == [("SG-R103", 12)]
    [note] = notes(result)
    assert note.span == result.diagnostics[0].span and note.severity is Severity.NOTE
    assert note.message.startswith("4 later findings follow from this refused move")
    assert note.hint == "they are on lines 14, 16, 18, 20"
    assert note.context == result.diagnostics[0].context


def test_refused_summon_then_attacks_from_its_square() -> None:
    """core §5, R12: a Queen summoned outside the camp is refused; taken as written she stands on
    d5, so the attack from d5 on the Pawn on d6 follows. The later attack on e6 is refused with her
    on d5 too (core §4.1, R08: e6 is empty in either game), and the Pass's LP 8 (core §2, R04)
    agrees with no reading of the log's own figures: both are errors of their own."""
    result = replay_log(CASCADES / "refused-summon-then-attacks.sglog")
    assert errors(result) == [("SG-R110", 9), ("SG-R101", 13), ("SG-R203", 16)]
    [note] = notes(result)
    assert note.message.startswith("1 later finding follows from this refused summon")
    assert note.hint == "it is on line 11"


def test_refused_action_pass_bonus_drift_and_a_later_independent_error() -> None:
    """R04: the refused summon was White's only action, so White earns the Pass bonus; the log's
    LP claims run 12 below the game from then on and hold in the game where the summon was played,
    but the claim off by another amount is an error of its own."""
    result = replay_log(CASCADES / "refused-pass-bonus-drift.sglog")
    assert errors(result) == [("SG-T103", 15), ("SG-R203", 23)]
    independent = result.diagnostics[1]
    assert independent.message == "wrong LP total: after this Pass LP is 48, not 40"
    [note] = notes(result)
    assert note.hint == "they are on lines 17, 19, 21"
    assert result.state is not None and result.state.player(Color.WHITE).lp == 48


def test_refused_attack_whose_capture_later_actions_assume() -> None:
    """core §4.2, R10: three accuracy dice; the income for the Pawn never captured (core §6, R14)
    and the Rook's move onto its square follow from the refusal."""
    result = replay_log(CASCADES / "refused-capture-assumed.sglog")
    assert errors(result) == [("SG-R114", 11)]
    [note] = notes(result)
    assert note.hint == "they are on lines 13, 14"


def test_two_independent_errors_are_both_reported() -> None:
    """Two refused moves of different pieces (core §3, R06, R07) and a wrong cost (core §5, R12):
    none follows from another, so all are errors; only the Rook's own later move follows."""
    result = replay_log(CASCADES / "two-independent-errors.sglog")
    assert errors(result) == [("SG-R103", 12), ("SG-R103", 13), ("SG-R201", 15)]
    [note] = notes(result)
    assert note.span == result.diagnostics[0].span and note.hint == "it is on line 14"


def test_a_move_across_a_refused_summons_square_is_judged_without_it() -> None:
    """core §3: the refused summon's square lies on the Rook's path; judged from the state without
    the Queen the path is clear, so the move is legal and only the refusal is reported."""
    result = run(
        "1.   upkeep: summon Q a5 cost 18\n"  # outside the camp: refused (core §5, R12)
        "1... end: pass\n"
        "2.   upkeep: summon R a1 cost 10\n"
        "2... end: pass\n"
        "3.   main1: move Ra1 a7\n"  # crosses a5
    )
    assert errors(result) == [("SG-R110", 4)]


def test_a_move_blocked_by_a_refused_moves_piece_follows_from_the_refusal() -> None:
    """core §3: the Rook stays on a3 when its move is refused; the other Rook's move up the a-file,
    which the log wrote as if a3 were empty, is blocked there: a consequence, not an error."""
    result = run(
        "1.   upkeep: summon R a3\n"
        "1... end: pass\n"
        "2.   main1: move Ra3 b4\n"  # a Rook does not move diagonally: refused
        "2... end: pass\n"
        "3.   upkeep: summon R a1\n"
        "     main1: move Ra1 a4\n"  # crosses a3, where the first Rook still stands
    )
    assert errors(result) == [("SG-R103", 6)]
    [note] = notes(result)
    assert note.hint == "it is on line 9"


def test_a_payment_short_of_the_cost_after_a_refused_capture_is_reported() -> None:
    """R05, R11: the log counts the capture reward of a refused attack, so White pays 5 SP that only
    the log's game has; but a Pawn on b2 costs 6 (core §5, R12), so the payment falls short in the
    game where the capture happened too: an error of its own, not a consequence."""
    result = run(
        "1.   upkeep: summon R a1\n"
        "1... upkeep: summon P a5\n"
        "2.   battle: attack Ra1 a5 roll 1 0 0 hit capture gain 5sp\n"  # three dice: refused (R10)
        "2... end: pass\n"
        "3.   upkeep: summon P b2 pay 5sp\n"  # White has no SP
    )
    assert errors(result) == [("SG-R114", 6), ("SG-R115", 8)]
    assert not notes(result)


def test_too_little_sp_to_convert_after_a_refused_capture_follows_from_it() -> None:
    """R16: the log's White converts SP from a capture reward the game never paid (R11)."""
    result = run(
        "1.   upkeep: summon R a1\n"
        "1... upkeep: summon P a5\n"
        "2.   battle: attack Ra1 a5 roll 1 0 0 hit capture gain 5sp\n"  # three dice: refused (R10)
        "     main2: convert 4\n"  # White has no SP
    )
    assert errors(result) == [("SG-R114", 6)]
    [note] = notes(result)
    assert note.hint == "it is on line 7"


def test_a_cannot_afford_the_refusal_does_not_explain_is_reported() -> None:
    """R05: a refused summon leaves White richer than the log thinks, so a later action White
    cannot pay for is an error of its own."""
    result = run(
        "1.   main1: summon R a1 cost 10 lp 10\n"  # a summon in Main 1: refused (core §2, R03)
        "1... end: pass\n"
        "2.   upkeep: summon P b2 pay 5sp\n"  # White has no SP, in either game
    )
    assert [code for code, _ in errors(result)] == ["SG-T103", "SG-R115"]


def test_an_action_the_game_accepts_and_the_counterfactual_refuses_closes_it() -> None:
    """The Rook's move onto d5 replays cleanly in the game, and is refused where the refused Queen
    stands on d5: the log's writer did not see her there, so that counterfactual is dropped and
    later errors are independent again."""
    result = run(
        "1.   upkeep: summon Q d5\n"  # refused: outside the camp (core §5, R12)
        "1... end: pass\n"
        "2.   upkeep: summon R d1\n"
        "2... end: pass\n"
        "3.   main1: move Rd1 d5\n"  # names d5 and replays without findings: clears d5
        "3... end: pass\n"
        "4.   main1: move Rd5 e6\n"  # a Rook does not move diagonally (core §3, R06): independent
    )
    assert errors(result) == [("SG-R110", 4), ("SG-R103", 10)]
    assert not notes(result)


def test_a_wrong_total_carried_forward_is_reported_once() -> None:
    """R05: a wrong LP total the log carries forward: the later claims off by the same amount
    follow from it; a claim back in step with the game ends the offset."""
    result = run(
        "1.   upkeep: summon R a1 cost 10 lp 11\n"  # LP is 10: reported
        "1... end: pass\n"
        "2.   end: pass lp 17\n"  # 16 in the game, 17 by the log's own figure: follows
        "2... end: pass\n"
        "3.   end: pass lp 22\n"  # back in step: no finding
        "3... end: pass\n"
        "4.   end: pass lp 29\n"  # 28: a new slip, reported
    )
    assert errors(result) == [("SG-R203", 4), ("SG-R203", 10)]
    [note] = notes(result)
    assert "this wrong LP total" in note.message and note.hint == "it is on line 6"


def test_every_finding_on_one_action_shows_the_same_state_before_and_after() -> None:
    """A claim and a note on the same attack (core §4.5, R20) show one snapshot, labelled."""
    log = ROOT / "examples" / "logs" / "broken" / "cards" / "capped-threshold.sglog"
    result = replay_log(log)
    [attack] = [n for n, text in enumerate(log.read_text(encoding="utf-8").splitlines(), 1) if "attack Ne5 Pf7" in text]
    by_line: dict[int, set[tuple[tuple[str, str], ...]]] = {}
    for diag in result.diagnostics:
        if diag.span is not None and diag.context:
            by_line.setdefault(diag.span.line, set()).add(diag.context)
    assert by_line and all(len(contexts) == 1 for contexts in by_line.values())
    on_attack = [d for d in result.diagnostics if d.span is not None and d.span.line == attack]
    assert {d.code for d in on_attack} >= {"SG-R202", "SG-N304"}
    keys = [key for key, _ in on_attack[0].context]
    assert keys[-2:] == ["state before", "state after"]


def test_refused_action_shows_only_the_state_before() -> None:
    result = run("1.   main1: move Ke1 e3\n")  # a King moves one square (core §3, R09)
    [diag] = [d for d in result.diagnostics if d.is_error]
    keys = [key for key, _ in diag.context]
    assert "state before" in keys and "state after" not in keys


def test_the_note_code_is_in_the_catalogue() -> None:
    info = CATALOGUE["SG-N306"]
    assert info.severity is Severity.NOTE and "R04" in info.rules


# --- independent errors after a refused action of every kind -------------------------------------
# Each log refuses one action (or writes one wrong total) and later has an error of its own. The
# oracle shares nothing with the counterfactual: the same log with the faulty line written right
# (the same number of lines) is replayed, and the later error must be an error there too; with
# --keep-going the faulty log must report it, not count it under the first error.

INDEPENDENT = {
    "move": (  # core §3, R06: a Rook does not move diagonally; no Knight stands on g1
        "1.   upkeep: summon R a1\n1... end: pass\n2.   main1: move Ra1 b2\n2... end: pass\n"
        "3.   main1: move Rb2 b5\n     main2: move Ng1 f3\n",
        "2.   main1: move Ra1 b1\n",
        ("SG-R101", 9),
    ),
    "attack": (  # core §4.2, R10: two accuracy dice, not three
        "1.   upkeep: summon R a1\n1... upkeep: summon P a5\n2.   battle: attack Ra1 a5 roll 1 0 0 hit capture\n"
        "2... end: pass\n3.   main1: move Ra1 a5\n     main2: move Ng1 f3\n",
        "2.   battle: attack Ra1 a5 roll 1 0 hit capture\n",
        ("SG-R101", 9),
    ),
    "summon": (  # core §2, R03: a Summon in Main 1
        "1.   main1: summon R a1\n1... end: pass\n2.   main1: move Ra1 a4\n     main2: move Ng1 f3\n",
        "1.   upkeep: summon R a1\n",
        ("SG-R101", 7),
    ),
    "break": (  # core §6, R15: three dice for a Break
        "1.   upkeep: break roll 4 5\n     main1: summon R a1\n1... end: pass\n2.   main1: move Ng1 f3\n",
        "1.   upkeep: break roll 4 5 6\n",
        ("SG-T103", 5),
    ),
    "repair": (  # core §6, R15: nothing to repair; a Rook on a1 costs 10 (core §5, R12)
        "1.   upkeep: repair roll 1 2 3 success\n1... end: pass\n2.   upkeep: summon R a1 cost 9\n",
        "1.   end: pass\n",
        ("SG-R201", 6),
    ),
    "card play": (  # R05: 5 SP to pay with none
        '1.   main1: play "Soul Drain" pay 5sp\n1... end: pass\n2.   main1: move Ng1 f3\n',
        '1.   main1: play "Soul Drain"\n',
        ("SG-R101", 6),
    ),
    "income": (  # core §6, R14: no income without enemy pieces in the Gem; the Break costs 20 (R15)
        "1.   upkeep: summon Q d1 cost 14 lp 6\n1... end: pass\n2.   upkeep: income 4 sp 4\n"
        "             break roll 4 5 6 success\n",
        "2.   upkeep: income 0 sp 0\n",
        ("SG-R106", 7),
    ),
    "LP total": (  # R05: LP 10 after the summon; the Pass's LP is off by another amount
        "1.   upkeep: summon R a1 cost 10 lp 11\n1... end: pass\n2.   end: pass lp 17\n2... end: pass\n"
        "3.   end: pass lp 29\n",
        "1.   upkeep: summon R a1 cost 10 lp 10\n",
        ("SG-R203", 8),
    ),
    "exchange": (  # R16: 4 SP to convert with none
        "1.   main2: convert 4 gain 2lp\n1... end: pass\n2.   main1: move Ng1 f3\n",
        "1.   end: pass\n",
        ("SG-R101", 6),
    ),
}


@pytest.mark.parametrize("kind", list(INDEPENDENT))
def test_an_independent_error_after_a_refused_action_of_every_kind_is_reported(kind: str) -> None:
    body, right, later = INDEPENDENT[kind]
    result = run(body)
    first = errors(result)[0]
    assert later in errors(result), f"{later} hidden after the {kind}"
    assert first[1] < later[1]
    lines = (KINGS + body).splitlines(keepends=True)
    lines[first[1] - 1] = right
    oracle = replay_text("".join(lines), "t.sglog", ReplayOptions(keep_going=True))
    assert first not in errors(oracle), "the line written right is not refused"
    assert later in errors(oracle), "the later error is an error in the game without the first one"


FOLLOWING = {
    "move": (INDEPENDENT["move"][0], ("SG-R103", 6), [8]),  # the Rook moves on from b2
    "attack": (INDEPENDENT["attack"][0], ("SG-R114", 6), [8]),  # a Rook onto the captured Pawn's square
    "summon": (INDEPENDENT["summon"][0], ("SG-T103", 4), [6]),  # the summoned Rook moves
    "income": (  # the SP total on the income's line is said in its hint; the conversion spends it
        "1.   upkeep: summon Q d1 cost 14 lp 6\n1... end: pass\n2.   upkeep: income 4 sp 4\n"
        "     main2: convert 4 gain 2lp\n",
        ("SG-R208", 6),
        [7],
    ),
    "exchange": (  # core §2, R16: the conversion's LP, as the log wrote it, under White's next Pass
        "1.   main2: convert 4 gain 2lp lp 22\n1... end: pass\n2.   end: pass lp 28\n",
        ("SG-R113", 4),
        [6],
    ),
}


@pytest.mark.parametrize("kind", list(FOLLOWING))
def test_what_disappears_when_the_refused_action_is_played_follows_from_it(kind: str) -> None:
    body, first, lines = FOLLOWING[kind]
    result = run(body)
    assert errors(result)[0] == first and not {line for _, line in errors(result)} & set(lines)
    [note] = notes(result)
    assert note.span is not None and note.span.line == first[1]
    said = "they are on lines" if len(lines) > 1 else "it is on line"
    assert note.hint == f"{said} {', '.join(map(str, lines))}"


def test_a_wrong_income_is_one_finding_with_its_line_s_total_in_its_hint() -> None:
    """core §6, R14: the SP total on the income's line follows from the income written: one error,
    whose hint says so, and no note."""
    result = run("1.   end: pass\n1... end: pass\n2.   upkeep: income 4 sp 4\n")
    [wrong] = result.diagnostics
    assert wrong.code == "SG-R208" and not notes(result)
    assert wrong.hint is not None and "SG-R203 wrong SP total" in wrong.hint


def test_the_shipped_every_kind_of_line_log_hides_no_independent_error() -> None:
    """The move Black cannot afford (R05) explains none of White's later faults: the attack on the
    empty d2, the Knight moves from the empty g1 and the teleport from the empty f3 are reported,
    and so is the Break no income claim pays for (R15)."""
    result = replay_log(ROOT / "examples" / "logs" / "broken" / "every-kind-of-line.sglog")
    reported = {line for _, line in errors(result)}
    assert {23, 26, 28, 29, 32} <= reported
    assert not notes(result)


def test_a_fault_of_a_line_that_follows_is_reported_from_the_counterfactual() -> None:
    """core §3, R06: the Rook's move onto a5 is refused only because the refused capture left the
    Pawn there, so that refusal follows; but taken as the log's writer saw it, the move costs 6,
    not the 3 the log writes: an error of its own, reported with the position it is found in."""
    result = run(
        "1.   upkeep: summon R a4\n1... upkeep: summon P a5\n2.   end: pass\n2... end: pass\n"
        "3.   end: pass\n3... end: pass\n"
        "4.   battle: attack Ra4 a5 roll 1 0 0 hit capture\n"  # three dice: refused (core §4.2, R10)
        "4... end: pass\n"
        "5.   main1: move Ra4 a5 cost 3\n"
    )
    assert errors(result) == [("SG-R114", 10), ("SG-R201", 12)]
    cost = result.diagnostics[1]
    assert cost.message == "wrong cost: the move costs 6 (Rook 5 + distance 1), not 3"
    assert cost.hint == "found in the game where the attack of line 10 is played as the log wrote it"
    assert dict(cost.context)["state after"].startswith("White LP 8 SP 1")  # the capture's SP, less the cost
    [note] = notes(result)
    assert note.hint == "it is on line 12"
