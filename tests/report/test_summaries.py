"""A file's summary block is a typed record that replay and the contract checker compute and the
report layer alone spells (docs/architecture.md, "report"): every format that writes a summary
writes the same words, a run keeps them as text to its end, and the record crosses to a worker
process and back unchanged."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sgcheck.replay.files import LogInput, replay_all, replay_input
from sgcheck.replay.options import ReplayOptions
from sgcheck.replay.summary import ReplaySummary, headline
from sgcheck.report import PartRenderer, ReportStream, render
from sgcheck.report.summaries import pack_summary, summary_text
from sgcheck.results import FileResult, ManifestFacts, Run, SummaryRecord

ROOT = Path(__file__).resolve().parents[2]
#: A finished game (core §7), a game with a pack's cards, a scenario's game (R24), an illegal one.
LOGS = [
    "examples/logs/full-game.sglog",
    "examples/logs/relic-game.sglog",
    "examples/scenarios/drill-1-last-hit.sglog",
    "examples/logs/broken/illegal-move.sglog",
]


def _replayed(log: str) -> FileResult:
    result, _ = replay_input(LogInput(str(ROOT / log)), ReplayOptions(), with_facts=True)
    return result


@pytest.mark.parametrize("log", LOGS)
def test_replay_gives_its_summary_as_a_record_that_every_format_spells_alike(log: str) -> None:
    result = _replayed(log)
    assert isinstance(result.summary, ReplaySummary)
    spelled = summary_text(result.summary)
    assert spelled is not None and spelled.startswith(headline(result.summary) + "\n")
    run = Run("replay", (result,))
    assert spelled.rstrip("\n") in render(run, "text")
    assert json.loads(render(run, "json"))["files"][0]["summary"] == spelled
    assert spelled.rstrip("\n") in render(run, "junit").replace("&lt;", "<").replace("&gt;", ">")
    # the position it ended in is the core's, as the facts' JSON says it
    facts = result.facts.as_json() if result.facts is not None else {}
    final = facts["final"]
    assert isinstance(final, dict) and f"LP {final['white']['lp']:<4}" in spelled


@pytest.mark.parametrize("fmt", ["text", "json"])
def test_a_worker_hands_back_each_summary_spelled_never_the_position(fmt: str) -> None:
    """``replay --jobs``: each worker spells its file's part and hands back the file as the report's
    end keeps it, the summary as text; a position (the game with its cards among them) never
    crosses between processes."""
    logs = [LogInput(str(ROOT / log)) for log in LOGS]
    back = list(replay_all(logs, ReplayOptions(), PartRenderer(fmt), jobs=2))
    assert [result.path for result, _ in back] == [log.path for log in logs]
    for (result, part), log in zip(back, LOGS, strict=True):
        here, sources = replay_input(LogInput(str(ROOT / log)), ReplayOptions())
        assert result.summary == summary_text(here.summary) and isinstance(result.summary, str)
        assert part == PartRenderer(fmt)(here, sources)  # the part as this process spells it


@pytest.mark.parametrize("fmt", ["text", "json", "junit", "sarif", "github", "html"])
def test_a_run_keeps_each_summary_as_its_text_not_the_position(fmt: str) -> None:
    """What a run holds to its end is the block's words: the record (a whole GameState) goes."""
    result = _replayed(LOGS[0])
    stream = ReportStream(fmt, command="replay", rules={}, tool_version="test")
    stream.add(result, {})
    kept = stream.files[0].summary
    assert isinstance(kept, str) and kept == summary_text(result.summary)


def test_a_packs_summary_is_spelled_from_its_manifest_facts() -> None:
    facts = ManifestFacts(cards=12, files=2, pack="Starter", version="1.0", module="Spell Chess")
    assert pack_summary(facts) == "pack Starter 1.0 (core): 2 card files and 1 manifest · 12 cards · module Spell Chess"
    assert pack_summary(ManifestFacts(cards=1, files=1)) is None  # a manifest that names no pack
    run = Run("check", (FileResult("p/sgpack.yaml", (), summary=facts, facts=facts),))
    assert json.loads(render(run, "json"))["files"][0]["summary"] == pack_summary(facts)


def test_text_already_spelled_is_written_as_it_is_and_an_unknown_record_is_refused() -> None:
    assert summary_text("board A\n") == "board A\n" and summary_text(None) is None

    class Stray(SummaryRecord):
        __slots__ = ()

    with pytest.raises(TypeError, match="no summary is spelled for a Stray"):
        summary_text(Stray())
