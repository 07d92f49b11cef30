"""The pack a game is played with (R22): found from the log's [Pack] tag or --pack, refused when
a tag leads out of the log's folder, checked exactly as `sgcheck check` checks it, and loaded
once per process however many logs name it."""

from __future__ import annotations

import json
import os
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from sgcheck.cli import main
from sgcheck.contract import checker
from sgcheck.contract.checker import check_paths
from sgcheck.diagnostics import Diagnostic, Span
from sgcheck.play.pack import GamePack, load_game_pack
from sgcheck.replay import files
from sgcheck.replay.files import LogInput, replay_input
from sgcheck.replay.interpreter import ReplayOptions, ReplayResult

ROOT = Path(__file__).resolve().parents[2]
STARTER = ROOT / "examples" / "packs" / "starter"
GUIDE_CARDS = ROOT / "examples" / "cards" / "guide-relics.sgcard"
EXAMPLE_A = ROOT / "examples" / "logs" / "guide-example-a.sglog"

CARD = """spell "Steady Hand" {
    cost 2 SP + 1 LP
    phase battle
    effect reroll accuracy this attack
}
"""


def loaded(path: str | Path, *, log_folder: str | Path | None = None, from_tag: bool = False) -> GamePack:
    folder = None if log_folder is None else str(log_folder)
    pack = load_game_pack(str(path), log_folder=folder, from_tag=from_tag)
    assert isinstance(pack, GamePack), pack
    return pack


def refused(path: str, log_folder: Path | None, *, from_tag: bool = True, span: Span | None = None) -> Diagnostic:
    folder = None if log_folder is None else str(log_folder)
    problem = load_game_pack(path, log_folder=folder, from_tag=from_tag, span=span)
    assert isinstance(problem, Diagnostic), problem
    return problem


def write_pack(folder: Path, manifest: str = "") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "sgpack.yaml").write_text(
        f"name: table\nversion: 1.0.0\ncards:\n  - steady.sgcard\n{manifest}", encoding="utf-8"
    )
    (folder / "steady.sgcard").write_text(CARD, encoding="utf-8")
    return folder


# --- loading -----------------------------------------------------------------------------------


def test_r22_a_pack_folder_loads_every_card_in_pack_order() -> None:
    pack = loaded(STARTER)
    files_in_order = [Path(card.span.source).name for card in pack.cards]
    assert files_in_order == ["relics.sgcard.yaml"] * 3 + ["spells.sgcard"] * 3  # as the manifest lists them
    assert pack.findings == () and not pack.breaks_contract
    assert (pack.draw, pack.keep, pack.hand_limit) == (5, 3, 3)
    assert pack.shown == str(STARTER).replace(os.sep, "/")


def test_r22_a_single_card_file_is_a_pack_with_r19s_draft() -> None:
    pack = loaded(STARTER / "spells.sgcard")
    assert len(pack.cards) == 3 and not pack.breaks_contract
    assert (pack.draw, pack.keep, pack.hand_limit) == (5, 3, 3)


def test_r22_the_guide_cards_break_the_contract_and_the_findings_quote_the_card_file() -> None:
    """Temporal Rift adds a whole phase to the turn (SG-C050): a game cannot be played with it."""
    pack = loaded(GUIDE_CARDS)
    assert pack.breaks_contract
    rift = [f for f in pack.findings if f.code == "SG-C050"]
    assert len(rift) == 1 and "Temporal Rift" in rift[0].message
    assert rift[0].span is not None and rift[0].span.source == pack.shown
    assert "Temporal Rift" in pack.sources[pack.shown]
    assert len(pack.cards) == 6  # every card that loaded, the one that breaks the contract too


def test_r22_the_findings_are_those_of_sgcheck_check() -> None:
    """The same checker, the same configuration: nothing more, nothing less, in the same order."""
    broken = ROOT / "examples" / "packs" / "broken"
    pack = loaded(broken)
    run = check_paths([str(broken)])
    assert pack.findings == tuple(d for result in run.files for d in result.diagnostics)
    assert set(pack.sources) == {f.span.source for f in pack.findings if f.span is not None}
    assert all(pack.sources[name] == run.sources[name] for name in pack.sources)


def test_r19_draft_settings_come_from_the_manifest(tmp_path: Path) -> None:
    """A Double Draft keeps 4 and raises the hand limit to match (R19), so the pack is clean."""
    folder = write_pack(tmp_path / "double", "draft: {draw: 5, keep: 4, hand_limit: 4}\n")
    pack = loaded(folder)
    assert (pack.draw, pack.keep, pack.hand_limit) == (5, 4, 4)
    assert not pack.breaks_contract, pack.findings
    assert [card.name for card in pack.cards] == ["Steady Hand"]


def test_r19_the_guides_open_double_draft_is_a_clean_manifest(tmp_path: Path) -> None:
    """The guide's Open Draft (``open: true``) with its Double Draft (draw 8, keep 4, a hand of 4)
    is a clean pack; an open draft changes no check (R19)."""
    folder = write_pack(tmp_path / "open", "draft: {draw: 8, keep: 4, hand_limit: 4, open: true}\n")
    pack = loaded(folder)
    assert (pack.draw, pack.keep, pack.hand_limit) == (8, 4, 4)
    assert pack.findings == ()
    bad = loaded(write_pack(tmp_path / "typo", "draft: {draw: 8, keep: 4, hand_limit: 4, open: yes please}\n"))
    assert [f.code for f in bad.findings if f.is_error] == ["SG-C201"]


def test_r19_a_manifest_without_draft_settings_keeps_the_defaults(tmp_path: Path) -> None:
    pack = loaded(write_pack(tmp_path / "plain"))
    assert (pack.draw, pack.keep, pack.hand_limit) == (5, 3, 3)


def test_r22_a_tag_is_read_relative_to_the_log_folder(tmp_path: Path) -> None:
    write_pack(tmp_path / "league" / "packs" / "table")
    pack = loaded("packs/table", log_folder=tmp_path / "league", from_tag=True)
    assert pack.shown == (tmp_path / "league" / "packs" / "table").as_posix()
    assert [card.name for card in pack.cards] == ["Steady Hand"]


# --- not found, not allowed ----------------------------------------------------------------------


def test_r22_nothing_at_the_path_is_sg_p013(tmp_path: Path) -> None:
    tag = Span("game.sglog", 3, 1, 3, 20, 40, 59)
    problem = refused("missing", tmp_path, span=tag)
    assert problem.code == "SG-P013" and problem.span == tag
    assert "missing" in problem.message


def test_r22_a_missing_pack_option_is_sg_p013_on_the_path(tmp_path: Path) -> None:
    given = str(tmp_path / "missing")
    problem = refused(given, None, from_tag=False)
    assert problem.code == "SG-P013"
    assert problem.span == Span.point(given.replace(os.sep, "/"))


def test_r22_a_folder_without_a_manifest_or_a_file_that_is_no_card_is_sg_p013(tmp_path: Path) -> None:
    (tmp_path / "loose").mkdir()
    (tmp_path / "notes.txt").write_text("not cards", encoding="utf-8")
    assert refused("loose", tmp_path).code == "SG-P013"
    assert refused("notes.txt", tmp_path).code == "SG-P013"
    assert refused("", tmp_path).code == "SG-P013"


def test_r22_a_tag_leading_up_and_out_is_sg_p014_unread(tmp_path: Path) -> None:
    write_pack(tmp_path / "elsewhere")
    (tmp_path / "logs").mkdir()
    problem = refused("../elsewhere", tmp_path / "logs")
    assert problem.code == "SG-P014" and "--pack" in (problem.hint or "")
    assert refused("sub/../../elsewhere", tmp_path / "logs").code == "SG-P014"


def test_r22_an_absolute_tag_is_sg_p014_even_inside_the_folder(tmp_path: Path) -> None:
    write_pack(tmp_path / "table")
    assert refused(str(tmp_path / "table"), tmp_path).code == "SG-P014"
    assert refused("/etc", tmp_path).code == "SG-P014"


def test_r22_a_tag_through_a_link_leaving_the_folder_is_sg_p014(tmp_path: Path) -> None:
    write_pack(tmp_path / "elsewhere")
    logs = tmp_path / "logs"
    logs.mkdir()
    try:
        (logs / "table").symlink_to(tmp_path / "elsewhere", target_is_directory=True)
        (logs / "steady.sgcard").symlink_to(tmp_path / "elsewhere" / "steady.sgcard")
    except (OSError, NotImplementedError):
        pytest.skip("symbolic links cannot be made here (Windows without developer mode)")
    assert refused("table", logs).code == "SG-P014"
    assert refused("steady.sgcard", logs).code == "SG-P014"
    assert loaded(logs / "table").cards  # --pack may follow the same link: the user chose it


def test_r22_the_pack_option_may_point_anywhere(tmp_path: Path) -> None:
    write_pack(tmp_path / "elsewhere")
    (tmp_path / "logs").mkdir()
    pack = load_game_pack(str(tmp_path / "elsewhere"), log_folder=str(tmp_path / "logs"), from_tag=False)
    assert isinstance(pack, GamePack) and len(pack.cards) == 1


# --- once per process ----------------------------------------------------------------------------


def test_r22_a_pack_named_by_many_logs_is_checked_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A corpus shares its pack: the checker runs once, and again only when a file changes."""
    folder = write_pack(tmp_path / "league" / "table")
    calls: list[str] = []
    real = checker.check_plan

    def counted(plan: checker.PackPlan, *args: Any, **kwargs: Any) -> checker.CheckedPlan:
        calls.append(plan.name)
        return real(plan, *args, **kwargs)

    monkeypatch.setattr(checker, "check_plan", counted)
    first = loaded("table", log_folder=tmp_path / "league", from_tag=True)
    for _ in range(50):
        assert loaded("table", log_folder=tmp_path / "league", from_tag=True) is first
    assert len(calls) == 1
    card = folder / "steady.sgcard"
    card.write_text(CARD.replace("Steady Hand", "Steady Hands"), encoding="utf-8")
    stat = card.stat()
    os.utime(card, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000_000))  # coarse clocks
    again = loaded("table", log_folder=tmp_path / "league", from_tag=True)
    assert len(calls) == 2 and [c.name for c in again.cards] == ["Steady Hands"]


# --- replay_input and the command line -----------------------------------------------------------


def test_r22_replay_input_passes_the_log_folder_and_keeps_the_pack_texts(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The [Pack] tag is read from the log's folder; a pack finding is quoted from its card file."""
    log = tmp_path / "game.sglog"
    log.write_text(EXAMPLE_A.read_text(encoding="utf-8"), encoding="utf-8")
    pack = loaded(GUIDE_CARDS)
    seen: list[str | None] = []
    real = files.replay_source

    def with_pack(*args: Any, folder: str | None = None, **kwargs: Any) -> ReplayResult:
        seen.append(folder)
        result = real(*args, folder=folder, **kwargs)
        return replace(result, pack=pack, diagnostics=(*pack.findings, *result.diagnostics))

    monkeypatch.setattr(files, "replay_source", with_pack)
    result, sources = replay_input(LogInput(str(log)), ReplayOptions())
    assert seen == [str(tmp_path)]
    assert sources[pack.shown] == pack.sources[pack.shown]
    assert "Guide worked example A" in sources[str(log)]
    assert {f.code for f in result.diagnostics} >= {"SG-C050"}


def test_r22_pack_options_reach_the_replay_and_change_nothing_without_a_pack_tag(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    captured: list[ReplayOptions] = []
    real = files.replay_all

    def spy(logs: Any, options: ReplayOptions, *args: Any, **kwargs: Any) -> Any:
        captured.append(options)
        return real(logs, options, *args, **kwargs)

    monkeypatch.setattr(files, "replay_all", spy)
    plain = CliRunner().invoke(main, ["replay", "--format", "json", str(EXAMPLE_A)])
    played = CliRunner().invoke(
        main, ["replay", "--format", "json", "--pack", str(STARTER), "--allow-violations", str(EXAMPLE_A)]
    )
    assert played.exit_code == plain.exit_code == 0, played.output
    assert captured[0].pack is None and not captured[0].allow_violations
    assert captured[1].pack == str(STARTER) and captured[1].allow_violations

    def findings(output: str) -> list[object]:
        return [f["diagnostics"] for f in json.loads(output)["files"]]

    assert findings(played.output) == findings(plain.output)


def test_r22_a_pack_option_naming_nothing_is_a_usage_error(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["replay", "--pack", str(tmp_path / "missing"), str(EXAMPLE_A)])
    assert result.exit_code == 2
    assert "--pack" in result.output
