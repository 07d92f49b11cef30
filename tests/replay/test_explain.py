"""Every replayed statement explained: the numbers the core worked out, as data (sgcheck.replay.explain).

The explanations ride on the timeline (field 11 of a frame); these tests read them from replays
of the shipped examples and of generated games, and check them against the rules they cite.
"""

from __future__ import annotations

import os
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sgcheck.core.state import GameState
from sgcheck.lang.logs.writer import format_item
from sgcheck.lang.source import SourceText
from sgcheck.replay.generate import Claims, Style, iter_game
from sgcheck.replay.interpreter import ReplayOptions, ReplayResult, replay_source, replay_text
from sgcheck.replay.timeline import LABEL, START, STATEMENT, TURN_END
from sgcheck.results import ExplainedFact, Explanation, FactPart, SideTotals, Totals

ROOT = Path(__file__).resolve().parents[2]
LOGS = ROOT / "examples" / "logs"
CAPPED = LOGS / "broken" / "cards" / "capped-threshold.sglog"
RELIC = LOGS / "relic-game.sglog"
FULL = LOGS / "full-game.sglog"


def replayed(path: Path, *, keep_going: bool = False) -> ReplayResult:
    source = SourceText(str(path.relative_to(ROOT)), path.read_text(encoding="utf-8"))
    options = ReplayOptions(timeline=True, keep_going=keep_going)
    return replay_source(source, options, folder=os.path.dirname(path))


def explanations(result: ReplayResult) -> tuple[Explanation, ...]:
    assert result.timeline is not None
    return result.timeline.explanations


def at(result: ReplayResult, line: int, kind: str = "statement") -> Explanation:
    [found] = [e for e in explanations(result) if e.line == line and e.kind == kind]
    return found


def line_of(path: Path, needle: str) -> int:
    """The line of ``path`` that holds ``needle`` (the only one): tests name a statement by what it
    says, so a layout change of the example does not move them."""
    [line] = [n for n, text in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if needle in text]
    return line


def facts(explained: Explanation) -> dict[str, ExplainedFact]:
    """The facts by key (each key once in the explanations these tests read)."""
    keys = [fact.key for fact in explained.facts]
    assert len(keys) == len(set(keys)), keys
    return {fact.key: fact for fact in explained.facts}


def test_the_rook_attack_of_worked_example_a() -> None:
    """Guide example A (R21): cost 2×5 + 2 = 12 (core §4.1), threshold 20 + 10×(5 − 1) = 60
    (core §4.2), roll 34 hits, 1 damage captures the Pawn (core §4.3, R11): +5 SP."""
    explained = at(replayed(LOGS / "guide-example-a.sglog"), line_of(LOGS / "guide-example-a.sglog", "attack Ra3 Pa5"))
    assert explained.turn == 4 and explained.side == "white" and explained.phase == "battle"
    assert explained.legal is True
    assert str(explained.statement).startswith("attack Ra3 Pa5 roll 3 4")
    found = facts(explained)
    assert list(found) == ["cost", "paid", "threshold", "roll", "hit", "damage", "capture", "reward"]
    cost = found["cost"]
    assert cost.value == 12 and cost.text == "12 = 2×Rook 5 + distance 2"
    assert "core §4.1" in cost.rules
    assert found["paid"].value == 12
    assert found["paid"].parts == (FactPart("SP", 0), FactPart("LP", 12))  # R05: SP first
    threshold = found["threshold"]
    assert threshold.value == 60 and threshold.text == "60 = 20 + 10×(Rook 5 − Pawn 1)"
    assert "core §4.2" in threshold.rules
    assert found["roll"].value == 34
    assert found["roll"].parts == (FactPart("tens", 3), FactPart("ones", 4))
    assert found["hit"].value is True and found["hit"].text == "34 ≤ 60: hit"
    assert found["damage"].value == 1
    assert found["capture"].value == "Black Pawn" and "core §4.3" in found["capture"].rules
    assert found["reward"].value == 5  # 5 × the Pawn's value (core §4.3)
    assert explained.after == Totals(SideTotals(lp=3, sp=5, king_damage=0), SideTotals(lp=17, sp=0, king_damage=0))


def test_each_cards_share_of_the_to_hit_bonus_and_the_cap() -> None:
    """R20: the cards' to-hit bonuses add up (+10 +20) and are capped at +25."""
    explained = at(replayed(CAPPED, keep_going=True), line_of(CAPPED, "attack Ne5 Pf7"))
    threshold = facts(explained)["threshold"]
    assert threshold.value == 65
    assert threshold.parts == (
        FactPart("Knight's Banner", 10),
        FactPart("Eagle Eye", 20),
        FactPart("cap (R20)", 25),
    )
    assert "R20" in threshold.rules


def test_a_damage_reduction_and_the_floor_of_zero() -> None:
    """R20, R23: Soul Ward's −2 takes a hit's 1 damage below 0, and damage stops at 0."""
    explained = at(replayed(RELIC), line_of(RELIC, "attack Rh1 Ke1"))
    found = facts(explained)
    assert found["damage"].value == 0
    assert found["damage"].parts == (FactPart("base", 1),)
    assert "never below 0" in str(found["damage"].text)
    assert found["reduction"].value == 2
    assert found["reduction"].parts == (FactPart("Soul Ward", -2),)


def test_a_cards_effect_on_the_other_side_is_shown() -> None:
    """Soul Drain takes 5 SP from Black: besides its own gain, the card changed Black's total (R23)."""
    found = facts(at(replayed(RELIC), line_of(RELIC, 'play "Soul Drain"')))
    assert found["gain"].value == 5
    assert found["effect"].parts == (FactPart("Black SP", -5),)


def test_break_and_repair_dice() -> None:
    """core §6, R15: a Break costs 20 and succeeds on 12+ with 3d6; a Repair costs 10 and succeeds on 10+."""
    result = replayed(FULL)
    broke = facts(at(result, line_of(FULL, "break roll 6 6 6")))
    assert broke["cost"].value == 20
    assert broke["dice"].value == 18
    assert [part.value for part in broke["dice"].parts] == [6, 6, 6]
    assert broke["success"].value is True and broke["success"].text == "18 ≥ 12: the Break succeeds"
    repaired = facts(at(result, line_of(FULL, "repair roll 3 4 6")))
    assert repaired["cost"].value == 10 and repaired["dice"].value == 13
    assert repaired["success"].text == "13 ≥ 10: the Repair succeeds"
    failed = facts(at(result, line_of(FULL, "break roll 5 4 1")))
    assert failed["dice"].value == 10 and failed["success"].value is False


def test_the_pass_bonus_and_the_next_income_at_the_end_of_a_turn() -> None:
    """core §2, R04: a turn without an action gains +6 LP; core §6, R14: the next player's Upkeep
    income is 2 × the value of the enemy pieces in their Gem, none on their first turn."""
    example = replayed(LOGS / "guide-example-a.sglog")
    passed = at(example, line_of(LOGS / "guide-example-a.sglog", "end: pass lp 16"), "turn_end")
    assert passed.phase == "end" and passed.statement == "pass lp 16"
    found = facts(passed)
    assert found["pass"].value == 6 and found["pass"].rules == ("core §2", "R04")
    assert found["income"].value == 0  # Black's Gem holds no White piece
    game = replayed(FULL)
    repair = line_of(FULL, "repair roll 3 4 6")
    ended = at(game, repair, "turn_end")
    assert ended.side == "black" and ended.statement == "end of turn"
    income = facts(ended)["income"]
    assert income.value == 8 and income.rules == ("core §6", "R14")
    assert income.text == "White gains 8 SP at the next Upkeep"
    # the totals after the end of the turn include the income (the next Upkeep has begun)
    before = at(game, repair)
    assert ended.after.white.sp == before.after.white.sp + 8


def test_a_pass_that_is_not_one() -> None:
    """core §2, R04: a turn with an action gains no Pass bonus, whatever the log writes (SG-R209)."""
    log = (LOGS / "guide-example-a.sglog").read_text(encoding="utf-8")
    log = log.replace("2... main1: move Pa7 a5 cost 3 lp 11", "2... main1: move Pa7 a5 cost 3 lp 11\n     end: pass")
    result = replay_text(log, "a.sglog", ReplayOptions(timeline=True, keep_going=True))
    assert [d.code for d in result.diagnostics] == ["SG-R209"]
    [ended] = [e for e in explanations(result) if e.kind == "turn_end" and e.turn == 2 and e.side == "black"]
    found = facts(ended)
    assert found["pass"].value == 0 and "took 1 action" in str(found["pass"].text)


def test_a_refused_statement() -> None:
    """A statement the rules refuse is explained too: legal false, and the violation's code and message."""
    log = LOGS / "broken" / "illegal-move.sglog"
    explained = at(replayed(log), line_of(log, "move Ra1 c3"))
    assert explained.legal is False
    refused = facts(explained)["refused"]
    assert refused.value == "SG-R103"
    assert refused.text == "illegal move: a Rook moves along ranks and files"
    assert refused.rules


def test_frames_carry_their_explanation_as_field_11() -> None:
    result = replayed(LOGS / "guide-example-a.sglog")
    assert result.timeline is not None
    frames = result.timeline.frames
    assert all(len(frame.as_json()) == 12 for frame in frames)
    for frame in frames:
        if frame.kind in (START, LABEL):
            assert frame.explained is None and frame.as_json()[11] is None
        elif frame.kind == STATEMENT:
            assert frame.explained is not None
            assert frame.explained.line == frame.line and frame.explained.kind == "statement"
            assert frame.as_json()[11] == frame.explained.as_json()
        else:
            assert frame.kind == TURN_END and frame.explained is not None and frame.explained.kind == "turn_end"
    assert tuple(frame.explained for frame in frames if frame.explained is not None) == explanations(result)


def test_without_the_timeline_nothing_is_explained() -> None:
    result = replay_text((LOGS / "guide-example-a.sglog").read_text(encoding="utf-8"), "a.sglog")
    assert result.timeline is None and result.kept == ()


def _totals(explained: Explanation) -> tuple[int, ...]:
    after = explained.after
    return tuple(getattr(side, key) for side in (after.white, after.black) for key in ("lp", "sp", "king_damage"))


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(min_value=0, max_value=2**32 - 1), style=st.sampled_from([Style.RANDOM, Style.AGGRESSIVE]))
def test_every_statement_of_a_legal_game_is_explained_with_the_frames_totals(seed: int, style: Style) -> None:
    """For generated legal games: every statement frame has an explanation, legal, whose totals
    after it are the frame's (field 7); every turn end's too."""
    items = [item for item in iter_game(seed, style=style, claims=Claims.SOME, max_turns=30)]
    log = "".join(format_item(item) + "\n" for item in items if not isinstance(item, GameState))
    result = replay_text(log, "generated.sglog", ReplayOptions(timeline=True))
    assert result.ok, [d.message for d in result.diagnostics]
    assert result.timeline is not None
    frames = result.timeline.frames
    statements = [frame for frame in frames if frame.kind == STATEMENT]
    assert len(statements) >= result.statements - 1  # passes are explained at the turn end
    for frame in statements:
        explained = frame.explained
        assert explained is not None and explained.legal is True and explained.line == frame.line
        assert _totals(explained) == frame.totals
        assert explained.turn == frame.turn and explained.side == ("white", "black")[frame.side]
    for frame in frames:
        if frame.kind == TURN_END and frame.explained is not None:
            assert _totals(frame.explained) == frame.totals
