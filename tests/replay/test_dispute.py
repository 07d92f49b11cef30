"""The dispute report (``sgcheck replay --dispute``, docs/disputes.md): the first error, the
position without it, and what each ruling of the house-rule profile makes of the game. Golden
text and JSON on the shipped broken logs (SGCHECK_UPDATE_GOLDEN=1 rewrites them)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

import jsonschema
import pytest
from click.testing import CliRunner

from sgcheck.cli import main
from sgcheck.codes import CATALOGUE
from sgcheck.lang.source import read_source
from sgcheck.replay.dispute import (
    ACTION,
    ACTION_UNDONE,
    CLAIM,
    CLAIM_CORRECTED,
    INPUT,
    RULINGS,
    SETUP,
    dispute_report,
    finding_kind,
)
from sgcheck.replay.interpreter import ReplayOptions, replay_source
from sgcheck.results import (
    ActionUndone,
    ClaimCorrected,
    DisputeReport,
    FigureDiffers,
    Forfeit,
    GameVoid,
    NotApplying,
    Ruling,
)

if TYPE_CHECKING:
    from conftest import Golden

R = TypeVar("R", bound=Ruling)

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = Path(__file__).with_name("golden")
BROKEN = "examples/logs/broken"
CAPTURE = f"{BROKEN}/illegal-capture.sglog"
WRONG_HIT = f"{BROKEN}/wrong-hit.sglog"
SCHEMA = json.loads((ROOT / "schemas" / "report.schema.json").read_text(encoding="utf-8"))


def report_of(log: str) -> DisputeReport:
    path = ROOT / log
    return dispute_report(read_source(path, log), ReplayOptions(), str(path.parent))


def ruling(report: DisputeReport, kind: type[R]) -> R:
    return next(r for r in report.rulings if isinstance(r, kind))


def not_applying(report: DisputeReport, name: str) -> bool:
    return any(isinstance(r, NotApplying) and r.ruling == name for r in report.rulings)


CASES = [("illegal-capture", CAPTURE), ("wrong-hit", WRONG_HIT)]


@pytest.mark.parametrize(("name", "log"), CASES)
@pytest.mark.parametrize("fmt", ["text", "json"])
def test_dispute_output_matches_golden(
    name: str, log: str, fmt: str, monkeypatch: pytest.MonkeyPatch, golden: Golden
) -> None:
    monkeypatch.chdir(ROOT)  # relative paths in the output, as a user would type them
    result = CliRunner().invoke(main, ["replay", "--dispute", "--no-summary", "--format", fmt, log])
    assert result.exit_code == 1, result.output  # the log is still illegal
    golden.check(GOLDEN / f"dispute-{name}.{'txt' if fmt == 'text' else 'json'}", result.output)
    if fmt == "json":
        document = json.loads(result.output)
        jsonschema.Draft202012Validator(SCHEMA).validate(document)
        assert document["files"][0]["dispute"]["profile"] == "disputes-1"
        assert "dispute" not in document["files"][0]["facts"]


def test_an_illegal_capture_undone_changes_every_later_white_total() -> None:
    """The attack through a5 is refused (core §4.1, R08); undone, White's turn 4 has no action and is
    a Pass (+6 LP, R04), no Pawn lies in White's Gem (no income, core §6, R14), and the Rook cannot
    move onto a6, where the Pawn still stands."""
    report = report_of(CAPTURE)
    first = report.first
    assert first is not None
    assert (first.code, first.kind, first.line, first.column) == ("SG-R107", ACTION, 18, 25)
    assert (first.turn, first.player, first.phase) == (4, "White", "Battle")
    position = report.position
    assert position is not None and position.when == "before"
    state = position.state
    assert state.board == {"a1": "R", "e1": "K", "a5": "p", "a6": "p", "e8": "k"}
    assert (state.white.lp, state.black.lp) == (22, 11)
    undone = ruling(report, ActionUndone)
    assert undone.applies and undone.default
    assert [(f.line, f.code) for f in undone.played.later_illegal] == [(21, "SG-R104")]
    differ = undone.played.figures_differ
    white = [f for f in differ if f.player == "White"]
    assert FigureDiffers(line=20, player="White", figure="LP", written=7, game=28) in white  # 22 + 6 (R04)
    assert FigureDiffers(line=20, player="White", figure="income", written=2, game=0) in white
    assert all(f.player == "White" for f in differ)  # Black's figures are untouched
    written_lp = [f for f in white if f.figure == "LP"]
    assert len(written_lp) == 4 and all(f.written != f.game for f in written_lp)  # every later White LP
    assert not_applying(report, CLAIM_CORRECTED)
    forfeit = ruling(report, Forfeit)
    assert (forfeit.loser, forfeit.winner, forfeit.score) == ("White", "Black", "0-1")
    assert ruling(report, GameVoid).as_json()["score"] is None


def test_a_claim_corrected_changes_nothing_later() -> None:
    """wrong-hit: the d100 of 61 misses a threshold of 60 (core §4.2, R10); corrected to a miss,
    the game goes on from the core's numbers, which replay already played."""
    report = report_of(WRONG_HIT)
    first = report.first
    assert first is not None
    assert (first.kind, first.expected, first.claimed) == (CLAIM, "miss", "hit")
    corrected = ruling(report, ClaimCorrected)
    assert corrected.applies and corrected.default
    assert corrected.corrected_to == "miss"
    assert corrected.later == () and corrected.disappear == ()
    position = report.position
    assert position is not None and position.when == "after"
    final, state = corrected.end.final, position.state
    assert final is not None
    # nothing after the claim changes the game: the log ends with that turn
    assert (final.board, final.white, final.black) == (state.board, state.white, state.black)
    assert not_applying(report, ACTION_UNDONE)


def test_a_corrected_claim_leaves_the_game_as_replay_plays_it() -> None:
    """The corrected game ends where replay --keep-going ends the log as written: replay computes
    from the core, whatever the claims say."""
    report = report_of(f"{BROKEN}/every-kind-of-line.sglog")
    corrected = ruling(report, ClaimCorrected)
    as_written = replay_source(read_source(ROOT / BROKEN / "every-kind-of-line.sglog"), ReplayOptions(keep_going=True))
    assert as_written.state is not None
    final = corrected.end.final
    assert final is not None
    assert final.turn == as_written.state.turn_number
    assert corrected.later  # its later lines were written as if Black had had the Pass (R04)


def test_a_legal_game_has_nothing_to_dispute(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    result = CliRunner().invoke(main, ["replay", "--dispute", "--quiet", "examples/logs/guide-example-a.sglog"])
    assert result.exit_code == 0, result.output
    assert "the game is legal: nothing to dispute" in result.output
    report = report_of("examples/logs/guide-example-a.sglog")
    assert report.legal is True and report.first is None and report.rulings == ()
    assert report.end is not None and report.end.headline.startswith("legal so far")  # the example stops mid-game


@pytest.mark.parametrize(
    ("log", "kind", "applying"),
    [
        ("syntax-error.sglog", INPUT, set()),
        ("missing-king.sglog", SETUP, {"game-void"}),
        ("turn-out-of-order.sglog", ACTION, {"game-void"}),  # a turn header names no player's action
        ("path-blocked.sglog", ACTION, {"action-undone", "forfeit", "game-void"}),
        ("wrong-cost.sglog", CLAIM, {"claim-corrected", "forfeit", "game-void"}),
    ],
)
def test_which_rulings_apply_to_which_error(log: str, kind: str, applying: set[str]) -> None:
    report = report_of(f"{BROKEN}/{log}")
    first = report.first
    assert first is not None and first.kind == kind
    rulings = report.rulings
    assert [r.ruling for r in rulings] == list(RULINGS)
    assert {r.ruling for r in rulings if r.applies} == applying
    assert all(r.why for r in rulings if isinstance(r, NotApplying))
    assert all(isinstance(r, NotApplying) != r.applies for r in rulings)


def test_every_code_has_a_kind() -> None:
    """Claims are SG-R2xx (the action was legal), illegal actions SG-R1xx and SG-T1xx (sgcheck.codes)."""
    kinds = {code: finding_kind(code) for code in CATALOGUE}
    assert all(kind == CLAIM for code, kind in kinds.items() if code.startswith("SG-R2"))
    assert all(kind == ACTION for code, kind in kinds.items() if code.startswith(("SG-R1", "SG-T1")))
    assert kinds["SG-S104"] == SETUP and kinds["SG-P001"] == INPUT


def test_the_html_report_has_a_dispute_section_only_when_asked(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    page = tmp_path / "r.html"
    plain = tmp_path / "plain.html"
    for out, extra in ((page, ["--dispute"]), (plain, [])):
        result = CliRunner().invoke(main, ["replay", *extra, "--format", "html", "-o", str(out), CAPTURE])
        assert result.exit_code == 1, result.output
    text = page.read_text(encoding="utf-8")
    assert '<details class="dispute illegal" open>' in text
    assert "action-undone   * the attack on line 18 is removed" in text
    assert "dispute" not in plain.read_text(encoding="utf-8").split("<style")[0].split("</style>")[-1]
    assert '<details class="dispute' not in plain.read_text(encoding="utf-8")


@pytest.mark.parametrize("fmt", ["sarif", "github", "junit"])
def test_dispute_is_for_the_formats_that_carry_it(fmt: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    result = CliRunner().invoke(main, ["replay", "--dispute", "--format", fmt, WRONG_HIT])
    assert result.exit_code == 2
    assert "--dispute" in result.output
