"""Claims written by sgcheck (``fmt --fill-claims``, docs/fmt.md) and the fixes of wrong claims.

The scorekeeper writes actions and dice; the claims come from what the core returned when the
log was replayed (sgcheck.replay.fill). Each test replays the result again: a filled log must
replay clean up to where filling stopped, so every claim written is the rules' own number.
"""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sgcheck.diagnostics import Diagnostic
from sgcheck.lang.logs.ast import Claim, ClaimKind, IncomeStmt, Statement, Turn
from sgcheck.lang.logs.format_logs import format_log_text
from sgcheck.lang.logs.reader import parse_log
from sgcheck.lang.logs.writer import CLAIM_ORDER, format_claim, format_log, format_statement
from sgcheck.lang.source import SourceText
from sgcheck.replay.fill_log import Edit, apply_edits, fill_bytes, fill_text
from sgcheck.replay.generate import Claims, Style, generate_game
from sgcheck.replay.interpreter import ReplayResult, replay_source

ROOT = Path(__file__).resolve().parents[2]

#: Every shipped log that replays clean (the guide walkthrough and the missing reveal do not).
CLEAN_EXAMPLES = sorted(
    str(p.relative_to(ROOT))
    for folder in ("examples/logs", "examples/scenarios", "examples/modules")
    for p in (ROOT / folder).glob("*.sglog")
    if p.name not in {"guide-walkthrough.sglog", "spell-chess-missing-reveal.sglog"}
)


# --- helpers -------------------------------------------------------------------------------------


def statements(text: str, name: str = "t.sglog") -> list[Statement]:
    found: list[Statement] = []
    for item in parse_log(SourceText(name, text)):
        if isinstance(item, Turn):
            found.extend(item.loose)
            for block in item.phases:
                found.extend(block.statements)
    return found


def strip_claims(text: str) -> str:
    """The log with every claim taken away but ``pay``, which says how the player paid (an input, R05)."""
    cuts = [
        Edit(claim.span.offset, claim.span.end_offset, "")
        for stmt in statements(text)
        for claim in stmt.claims
        if claim.kind is not ClaimKind.PAY
    ]
    return apply_edits(text, cuts)


def claim_texts(stmt: Statement) -> list[str]:
    return [format_claim(c) for c in stmt.claims]


def fill(text: str, name: str = "t.sglog", folder: str | None = None) -> tuple[str, Diagnostic | None]:
    """What ``fmt --fill-claims`` writes for ``text``, and its SG-P040 if it stopped."""
    result, stopped = fill_bytes(text.encode("utf-8"), name, folder=folder)
    assert not result.problems and result.internal is None, (result.problems, result.internal)
    return result.data.decode("utf-8"), stopped


def replay(text: str, name: str = "t.sglog", folder: str | None = None) -> ReplayResult:
    return replay_source(SourceText(name, text), folder=folder)


def errors(result: ReplayResult) -> list[Diagnostic]:
    return [d for d in result.diagnostics if d.is_error]


def example(path: str) -> tuple[str, str]:
    """The text of a shipped log and its folder (where its pack or scenario is found)."""
    full = ROOT / path
    return full.read_text(encoding="utf-8"), str(full.parent)


# --- the shipped logs ----------------------------------------------------------------------------


@pytest.mark.parametrize("path", CLEAN_EXAMPLES)
def test_a_shipped_log_stripped_of_its_claims_fills_back(path: str) -> None:
    """Strip the claims of a clean shipped log, fill it: the result replays clean, holds every
    claim the log had, at the same statement and with the same words, and is the log filled as
    it is (with the claims the log wrote in an order of its own in that order), in the canonical
    layout of fmt."""
    text, folder = example(path)
    stripped = strip_claims(text)
    assert stripped != text
    filled, stopped = fill(stripped, path, folder)
    assert stopped is None
    assert errors(replay(filled, path, folder)) == []
    own, _ = fill(text, path, folder)  # the log filled as it is: its claims kept where written
    assert format_log_text(own, path) == own  # the canonical layout of fmt
    originals, from_empty, from_own = statements(text), statements(filled), statements(own)
    assert len(originals) == len(from_empty) == len(from_own)
    for original, empty, kept in zip(originals, from_empty, from_own, strict=True):
        # every claim the log wrote is kept, in the order written ...
        written = iter(claim_texts(kept))
        assert all(claim in written for claim in claim_texts(original)), (claim_texts(original), claim_texts(kept))
        # ... and the same claims are filled in from nothing, in CLAIM_ORDER
        assert sorted(claim_texts(empty)) == sorted(claim_texts(kept))
        ranks = [CLAIM_ORDER.index(c.kind) for c in empty.claims]
        assert ranks == sorted(ranks)
    if all(_in_claim_order(stmt.claims) for stmt in originals):
        assert filled == own


def _in_claim_order(claims: tuple[Claim, ...]) -> bool:
    ranks = [CLAIM_ORDER.index(c.kind) for c in claims]
    return ranks == sorted(ranks)


def test_guide_example_a_fills_back_to_its_claims_and_the_rest_of_the_score_sheet() -> None:
    """core §4.1, §4.2 (R21): the Rook's attack costs 2×5 + 2 = 12 at threshold 20 + 10×(5 − 1) = 60;
    filled from nothing, each statement gets exactly the example's claims, plus what the example
    leaves out: the SP total after every action and the +6 LP of each Pass (core §2, R04)."""
    text, folder = example("examples/logs/guide-example-a.sglog")
    filled, stopped = fill(strip_claims(text), "a.sglog", folder)
    assert stopped is None
    assert [format_statement(stmt) for stmt in statements(filled)] == [
        "summon R a1 cost 10 lp 10 sp 0",
        "summon P a7 cost 6 lp 14 sp 0",
        "pass gain 6lp lp 16 sp 0",
        "move Pa7 a5 cost 3 lp 11 sp 0",
        "pass gain 6lp lp 22 sp 0",
        "pass gain 6lp lp 17 sp 0",
        "move Ra1 a3 cost 7 lp 15 sp 0",
        "attack Ra3 Pa5 roll 3 4 cost 12 threshold 60 hit damage 1 capture gain 5sp lp 3 sp 5",
    ]
    assert filled == format_log_text(filled)  # laid out as fmt lays out any log


# --- correcting wrong claims ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("path", "wrong", "right"),
    [
        # core §3, R06: a Rook's move of 2 squares costs 5 + 2 = 7
        ("examples/logs/broken/wrong-cost.sglog", "move Ra1 a3 cost 6", "move Ra1 a3 cost 7 lp 3 sp 0"),
        # core §4.2, R10: 61 > threshold 60 is a miss, so no damage or capture follows
        (
            "examples/logs/broken/wrong-hit.sglog",
            "attack Ra3 a5 roll 6 1 hit",
            "attack Ra3 a5 roll 6 1 cost 12 threshold 60 miss lp 3 sp 0",
        ),
        # core §0, R05: a Rook summoned for 10 of 20 LP leaves 10
        ("examples/logs/broken/wrong-totals.sglog", "summon R a1 cost 10 lp 12", "summon R a1 cost 10 lp 10 sp 0"),
        # core §6, R14: no income on a player's first turn
        ("examples/logs/broken/wrong-income.sglog", "income 2", "income 0 lp 20 sp 0"),
    ],
)
def test_wrong_claims_are_corrected_where_they_are_written(path: str, wrong: str, right: str) -> None:
    text, folder = example(path)
    assert wrong in text
    filled, stopped = fill(text, path, folder)
    assert stopped is None
    assert right in filled
    assert errors(replay(filled, path, folder)) == []


def test_right_claims_keep_their_place_and_spelling() -> None:
    """A claim replay accepts is kept as written (its order too); only the missing ones are added,
    each after the claims written before it in CLAIM_ORDER."""
    log = "king white e1\nking black e8\n\n1. upkeep: summon R a1 SP 0 COST 10\n"
    filled, _ = fill(log)
    # fmt writes keywords in lower case; the order written stays
    assert [format_statement(stmt) for stmt in statements(filled)] == ["summon R a1 sp 0 cost 10 lp 10"]
    log = "king white e1\nking black e8\n\n1. upkeep: summon R a1 lp 10\n"
    assert [format_statement(stmt) for stmt in statements(fill(log)[0])] == ["summon R a1 cost 10 lp 10 sp 0"]


def test_a_claim_of_something_that_did_not_happen_is_taken_away() -> None:
    """core §4.3, R11: a miss captures nothing and deals no damage; §4.4: no King, no King damage."""
    text, folder = example("examples/logs/guide-example-a.sglog")
    wrong = text.replace(
        "roll 3 4 cost 12 threshold 60 hit damage 1 capture gain 5sp lp 3 sp 5",
        "roll 9 9 hit damage 1 capture king-damage 1 gain 5sp",
    )
    filled, stopped = fill(wrong, "a.sglog", folder)
    assert stopped is None
    last = format_statement(statements(filled)[-1])
    assert last == "attack Ra3 Pa5 roll 9 9 cost 12 threshold 60 miss damage 0 gain 0sp lp 3 sp 0"
    assert errors(replay(filled, "a.sglog", folder)) == []


def test_filling_twice_changes_nothing() -> None:
    text, folder = example("examples/logs/full-game.sglog")
    once, _ = fill(strip_claims(text), "f.sglog", folder)
    twice, _ = fill(once, "f.sglog", folder)
    assert twice == once
    result, _ = fill_bytes(once.encode(), "f.sglog", folder=folder)
    assert not result.changed


def test_comments_are_kept() -> None:
    log = (
        "; before\nking white e1 ; the King\nking black e8\n\n"
        "1. upkeep: summon R a1 { a brace comment } ; a line comment\n"
        "   main1: move Ra1 ; inside\n          a3\n"
    )
    filled, stopped = fill(log)
    assert stopped is None
    assert filled == format_log_text(
        "; before\nking white e1 ; the King\nking black e8\n\n"
        "1. upkeep: summon R a1 cost 10 lp 10 sp 0 { a brace comment } ; a line comment\n"
        "   main1: move Ra1 ; inside\n a3 cost 7 lp 3 sp 0\n"
    )
    assert "summon R a1 cost 10 lp 10 sp 0  { a brace comment } ; a line comment\n" in filled
    assert "move Ra1 a3 cost 7 lp 3 sp 0  ; inside\n" in filled


# --- where filling stops -------------------------------------------------------------------------


def test_filling_stops_at_the_first_illegal_action() -> None:
    """core §3, R06: a Rook moves along ranks and files, so ``move Ra1 b2`` is illegal: the summon
    before it is filled, the move and what follows are left as written, and SG-P040 says why."""
    log = "king white e1\nking black e8\n\n1. upkeep: summon R a1\n   main1: move Ra1 b2 cost 99\n1... end: pass\n"
    filled, stopped = fill(log)
    assert filled == format_log_text(
        "king white e1\nking black e8\n\n"
        "1. upkeep: summon R a1 cost 10 lp 10 sp 0\n"
        "   main1: move Ra1 b2 cost 99\n"
        "1... end: pass\n"
    )
    assert stopped is not None and stopped.code == "SG-P040"
    assert stopped.span is not None and (stopped.span.line, stopped.span.column) == (5, 20)
    assert "SG-R103" in stopped.message


@pytest.mark.parametrize(
    ("path", "code"),
    [
        ("examples/logs/broken/illegal-move.sglog", "SG-R103"),
        ("examples/logs/broken/wrong-pass.sglog", "SG-R209"),
        ("examples/logs/broken/turn-out-of-order.sglog", "SG-T101"),
        ("examples/logs/broken/missing-king.sglog", "SG-S104"),
        ("examples/logs/broken/cannot-afford.sglog", "SG-R106"),
        ("examples/modules/spell-chess-missing-reveal.sglog", "SG-T108"),
    ],
)
def test_an_illegal_log_is_filled_up_to_its_first_error(path: str, code: str) -> None:
    text, folder = example(path)
    filled, stopped = fill(text, path, folder)
    assert stopped is not None and code in stopped.message
    first = errors(replay(text, path, folder))[0]
    assert first.code == code
    after = errors(replay(filled, path, folder))
    assert after and after[0].code == code  # the same error, nothing before it
    assert stopped.span is not None and first.span is not None
    # the text from the stop on is the log's own (formatted)
    tail = format_log_text(text, path)
    assert filled.splitlines()[-1] == tail.splitlines()[-1]


def test_a_log_that_does_not_read_is_not_filled() -> None:
    result, stopped = fill_bytes(b"king white e1\nking black e8\n1. upkeep: summon R a1 cost\n", "bad.sglog")
    assert stopped is None
    assert [p.code for p in result.problems] == ["SG-P002"]
    assert result.data == b""


def test_income_notes_and_passes_get_their_totals() -> None:
    """core §6, R14: the income of an Upkeep is 2 × the value of the enemy pieces in the Gem."""
    text, folder = example("examples/logs/relic-game.sglog")
    filled, _ = fill(strip_claims(text), "r.sglog", folder)
    incomes = [s for s in statements(filled) if isinstance(s, IncomeStmt)]
    assert incomes and all(claim_texts(s)[0].startswith("lp ") for s in incomes)
    assert "5.   upkeep: income 2" in text and "upkeep: income 2 lp 5 sp 7\n" in filled


# --- the fix on a wrong-claim finding ------------------------------------------------------------


@pytest.mark.parametrize(
    "path",
    [
        "examples/logs/broken/wrong-cost.sglog",
        "examples/logs/broken/wrong-hit.sglog",
        "examples/logs/broken/wrong-totals.sglog",
        "examples/logs/broken/wrong-income.sglog",
        "examples/logs/broken/cards/capped-threshold.sglog",
    ],
)
def test_each_wrong_claim_finding_carries_the_fix_that_makes_it_right(path: str) -> None:
    """Applying the fixes replay attaches, one finding at a time, makes the log replay clean."""
    text, folder = example(path)
    for _ in range(10):
        found = errors(replay(text, path, folder))
        if not found:
            break
        fix = found[0].fix
        assert fix is not None and fix.safe and fix.span is not None and fix.replacement is not None
        text = apply_edits(text, [Edit(fix.span.offset, fix.span.end_offset, fix.replacement)])
    assert errors(replay(text, path, folder)) == []


def test_a_fix_takes_away_a_claim_of_nothing() -> None:
    """core §4.3, R11: a capture claimed after a miss is taken away."""
    text, folder = example("examples/logs/guide-example-a.sglog")
    log = text.replace("roll 3 4 cost 12 threshold 60 hit damage 1 capture gain 5sp lp 3 sp 5", "roll 9 9 capture")
    (finding,) = errors(replay(log, "a.sglog", folder))
    assert finding.code == "SG-R206" and finding.fix is not None
    assert finding.fix.replacement == "" and finding.fix.span is not None
    assert log[finding.fix.span.offset : finding.fix.span.end_offset] == "capture"


# --- generated games -----------------------------------------------------------------------------


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**32 - 1),
    style=st.sampled_from([Style.RANDOM, Style.AGGRESSIVE]),
    claims=st.sampled_from(list(Claims)),
)
def test_generated_games_fill_clean_and_once(seed: int, style: Style, claims: Claims) -> None:
    """Any legal game (sgcheck.replay.generate), with none, some or all of its claims: filled, it
    replays clean, keeps every claim it had, and filling it again changes nothing."""
    game = generate_game(random.Random(seed), style=style, claims=claims, max_turns=30)
    text = format_log(game.items)
    filled, stopped = fill(text)
    assert stopped is None
    assert errors(replay(filled)) == []
    for before, after in zip(statements(text), statements(filled), strict=True):
        written = iter(claim_texts(after))
        assert all(claim in written for claim in claim_texts(before))
    assert fill(filled)[0] == filled
    assert fill(strip_claims(filled))[0] == fill(strip_claims(text))[0]


def test_a_log_without_a_folder_is_filled(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A log read from standard input has no folder: it is replayed from the current one."""
    monkeypatch.chdir(tmp_path)
    text, _ = example("examples/logs/guide-example-a.sglog")
    filled, stopped = fill(strip_claims(text))
    assert stopped is None and "cost 12 threshold 60 hit" in filled


def test_fill_text_counts_the_statements_it_changed() -> None:
    text, _ = example("examples/logs/guide-example-a.sglog")
    filled = fill_text(SourceText("a.sglog", strip_claims(text)))
    assert filled.statements == 8 and filled.stopped is None
    # each statement but the attack, whose score sheet is complete, lacks its SP total or Pass gain
    assert fill_text(SourceText("a.sglog", format_log_text(text))).statements == 7


# --- any input -----------------------------------------------------------------------------------

_WORDS = ["hit", "miss", "capture", "converts", "king-damage 3", "damage 2", "gain 5sp", "gain 6lp", "lp 3", "sp 9"]
_WORDS += ["cost 1", "threshold 50", "success", "fail", "income 4", "pass", "pay 3sp", "9", "a5", "Ra1", "end:"]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_a_changed_log_is_filled_up_to_its_first_error(data: st.DataObject) -> None:
    """A shipped log with words put in, changed or taken out: filling never fails, and the filled
    log replays clean, or to the very error filling stopped at."""
    path = data.draw(st.sampled_from(CLEAN_EXAMPLES))
    text, folder = example(path)
    for _ in range(data.draw(st.integers(1, 3))):
        words = [(m.start(), m.end()) for m in re.finditer(r"\S+", text)]
        start, end = data.draw(st.sampled_from(words))
        word = data.draw(st.sampled_from(_WORDS))
        text = data.draw(st.sampled_from([text[:start] + word + text[end:], text[:end] + " " + word + text[end:]]))
    result, stopped = fill_bytes(text.encode("utf-8"), path, folder=folder)
    assert result.internal is None
    if result.problems:
        assert stopped is None and result.data == b""  # a log that does not read is not written
        return
    found = errors(replay(result.data.decode("utf-8"), path, folder))
    if stopped is None:
        assert found == []
    else:
        assert found and f"{found[0].code} {found[0].message}" in stopped.message


@settings(max_examples=100, deadline=None)
@given(st.text(max_size=200))
def test_any_text_is_filled_or_reported(text: str) -> None:
    result, stopped = fill_bytes(text.encode("utf-8"), "x.sglog")
    assert result.internal is None
    assert not (result.problems and stopped is not None)
