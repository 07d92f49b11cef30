"""The HTML replay report, without a browser: its structure, embedded data, escaping,
determinism, self-containment and size; the timeline replay records for it; the format's wiring."""

from __future__ import annotations

import json
import re
from dataclasses import replace
from html.parser import HTMLParser
from pathlib import Path

import pytest
from click.testing import CliRunner

from sgcheck.cli import main
from sgcheck.codes import CATALOGUE
from sgcheck.diagnostics import Diagnostic, Severity
from sgcheck.lang.source import SourceText
from sgcheck.replay.files import LogInput, replay_file_result, replay_input
from sgcheck.replay.interpreter import ReplayOptions, replay_source, replay_text
from sgcheck.report import CHECK_FORMATS, FORMATS, REPLAY_FORMATS, ReportStream
from sgcheck.report.html import expected_and_claimed, json_for_script
from sgcheck.results import ReplayFacts, TimelineResult

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = sorted(
    [
        *(ROOT / "examples" / "logs").rglob("*.sglog"),
        *(ROOT / "examples" / "scenarios").glob("*.sglog"),
        *(ROOT / "examples" / "modules").glob("*.sglog"),
    ]
)
FULL_GAME = ROOT / "examples" / "logs" / "full-game.sglog"
WRONG_HIT = ROOT / "examples" / "logs" / "broken" / "wrong-hit.sglog"
SYNTAX_ERROR = ROOT / "examples" / "logs" / "broken" / "syntax-error.sglog"


def rel(path: Path) -> str:
    return str(path.relative_to(ROOT))


def html_report(*logs: str, keep_going: bool = False, jobs: int = 1) -> str:
    """The page ``sgcheck replay --format html`` writes for ``logs`` (paths relative to the root)."""
    stream = ReportStream("html", command="replay", rules=CATALOGUE, tool_version="test")
    options = ReplayOptions(keep_going=keep_going, timeline=True)
    parts = []
    for log in logs:
        result, sources = replay_input(LogInput(log), options)
        parts.append(stream.add(result, sources))
    assert parts == [""] * len(logs)  # written whole at the end
    return stream.close()


class Page(HTMLParser):
    """The elements of a page, their attributes, and the data blocks' text."""

    def __init__(self, text: str) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.data_blocks: list[str] = []
        self.scripts: list[str] = []
        self._script: dict[str, str | None] | None = None
        self.feed(text)
        self.close()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attributes = dict(attrs)
        self.tags.append((tag, attributes))
        if tag == "script":
            self._script = attributes

    def handle_endtag(self, tag: str) -> None:
        if tag == "script":
            self._script = None

    def handle_data(self, data: str) -> None:
        if self._script is not None:
            if self._script.get("type") == "application/json":
                self.data_blocks.append(data)
            else:
                self.scripts.append(data)

    def find(self, tag: str, cls: str | None = None) -> list[dict[str, str | None]]:
        return [a for t, a in self.tags if t == tag and (cls is None or cls in (a.get("class") or "").split())]

    def data(self) -> list[dict[str, object]]:
        return [json.loads(block) for block in self.data_blocks]

    @property
    def src_lines(self) -> list[str]:
        """The log's lines, as the page holds them for its script to draw (the first log's)."""
        blocks = self.data()
        lines = blocks[0].get("lines", []) if blocks else []
        assert isinstance(lines, list)
        return [str(line) for line in lines]


def test_formats_per_command() -> None:
    assert "html" in FORMATS and "html" in REPLAY_FORMATS and "html" not in CHECK_FORMATS
    assert set(CHECK_FORMATS) | {"html"} == set(REPLAY_FORMATS)


def test_a_broken_log_opens_at_its_finding() -> None:
    page = Page(html_report(rel(WRONG_HIT)))
    [section] = page.find("section", "log")
    assert section["id"] == "log-0"
    [data] = page.data()
    frames = data["frames"]
    assert isinstance(frames, list) and len(frames) > 5
    [finding] = data["findings"]  # type: ignore[misc]
    assert finding["code"] == "SG-R204" and finding["severity"] == "error"
    assert finding["line"] == 15 and finding["rules"] == ["core §4.2", "R10"]
    assert (finding["expected"], finding["claimed"]) == ("miss", "hit")  # the finding's data, not its prose
    assert data["open"] == 0
    frame = frames[finding["frame"]]
    assert frame[0] == 15  # the attack's line
    assert (finding["from"], finding["to"]) == (16, 32)  # a3 → a5, the squares to mark
    # the log text is on the page, line by line, with the finding's line marked
    assert page.src_lines[14].strip() == "battle: attack Ra3 a5 roll 6 1 hit"
    assert data["badLines"] == [15]
    assert page.find("ol", "src")  # the list the script draws the lines in view into
    [item] = page.find("li", "finding")
    assert item["data-frame"] == str(finding["frame"])
    assert page.find("svg", "board") and page.find("svg", "plot")


def test_frames_follow_the_game() -> None:
    result = replay_text(FULL_GAME.read_text(encoding="utf-8"), "full-game.sglog", ReplayOptions(timeline=True))
    assert result.ok and result.timeline is not None
    frames = result.timeline.frames
    start = frames[0]
    assert start.kind == 0 and start.board == "c1Kf5k"  # the Kings where setup placed them
    kinds = {frame.kind for frame in frames}
    assert kinds == {0, 1, 2, 3}
    assert sum(1 for frame in frames if frame.kind == 3) == result.turns  # one end per turn
    lines = [frame.line for frame in frames]
    assert lines == sorted(lines)  # frames come in the order of the log
    board = ["."] * 64
    for frame in frames:  # the board changes rebuild the final position
        diff = frame.board
        for k in range(0, len(diff), 3):
            board[ord(diff[k]) - 97 + 8 * (int(diff[k + 1]) - 1)] = diff[k + 2]
    final = result.state
    assert final is not None
    expected = ["." if p is None else (p.kind.letter if p.color == 0 else p.kind.letter.lower()) for p in final.board]
    assert board == expected
    white, black = final.players
    assert frames[-1].totals == (white.lp, white.sp, white.king_damage, black.lp, black.sp, black.king_damage)
    assert final.result is not None
    assert result.timeline.result == TimelineResult("1-0", final.result.detail)
    # the page's data: the same, as JSON
    data = result.timeline.as_json()
    assert data["result"] == {"score": "1-0", "detail": final.result.detail}
    assert data["frames"] == [frame.as_json() for frame in frames]


@pytest.mark.parametrize("log", EXAMPLES, ids=lambda p: rel(p))
def test_the_timeline_changes_no_finding(log: Path) -> None:
    """Recording replays every turn from its tree: the findings must be the very same."""
    text = log.read_text(encoding="utf-8")
    for keep_going in (False, True):
        plain = replay_source(SourceText(rel(log), text), ReplayOptions(keep_going=keep_going), folder=str(log.parent))
        recorded = replay_source(
            SourceText(rel(log), text), ReplayOptions(keep_going=keep_going, timeline=True), folder=str(log.parent)
        )
        assert plain.timeline is None and recorded.timeline is not None
        assert recorded.diagnostics == plain.diagnostics
        assert (recorded.turns, recorded.statements, recorded.state) == (plain.turns, plain.statements, plain.state)


@pytest.mark.parametrize("log", EXAMPLES, ids=lambda p: rel(p))
def test_every_example_renders(log: Path) -> None:
    text = html_report(rel(log), keep_going=True)
    page = Page(text)
    [data] = page.data()
    result, _ = replay_input(LogInput(rel(log)), ReplayOptions(keep_going=True))
    assert len(data["findings"]) == len(result.diagnostics)  # type: ignore[arg-type]
    frames = data["frames"]
    assert isinstance(frames, list)
    for finding in data["findings"]:  # type: ignore[attr-defined]
        assert -1 <= finding["frame"] < len(frames)
        assert finding["frame"] >= 0 or not frames
    assert len(page.src_lines) == len(log.read_text(encoding="utf-8").splitlines())
    if result.has_errors:
        assert data["open"] == next(i for i, d in enumerate(result.diagnostics) if d.is_error)


def test_a_syntax_error_shows_the_log_and_the_finding_without_a_board() -> None:
    page = Page(html_report(rel(SYNTAX_ERROR)))
    [data] = page.data()
    assert data["frames"] == []
    [finding] = data["findings"]  # type: ignore[misc]
    assert finding["code"] == "SG-P001" and finding["frame"] == -1 and finding["line"] == 6
    assert not page.find("svg", "board") and page.find("div", "noboard")
    assert page.src_lines[5].strip() == "battle: attack Ra1 a5 hit"


def test_keep_going_lists_every_finding() -> None:
    text = "\n".join(
        [
            "king white e1",
            "king black e8",
            "1. upkeep: summon R a1 cost 11 lp 10",  # wrong cost
            "1... upkeep: summon P a7 cost 6 lp 15",  # wrong LP
            "2. main1: move Ra1 b3",  # illegal move
            "2... end: pass",
            "",
        ]
    )
    result = replay_text(text, "several.sglog", ReplayOptions(keep_going=True, timeline=True))
    codes = [d.code for d in result.diagnostics]
    assert codes == ["SG-R201", "SG-R203", "SG-R103"]
    stream = ReportStream("html", command="replay", rules=CATALOGUE, tool_version="test")
    stream.add(replay_file_result("several.sglog", result), {"several.sglog": text})
    page = Page(stream.close())
    [data] = page.data()
    findings = data["findings"]
    assert [f["code"] for f in findings] == codes  # type: ignore[attr-defined]
    assert [f["line"] for f in findings] == [3, 4, 5]  # type: ignore[attr-defined]
    frames = data["frames"]
    assert [frames[f["frame"]][0] for f in findings] == [3, 4, 5]  # type: ignore[attr-defined, index]
    assert findings[2]["from"] == 0 and findings[2]["to"] == 17  # type: ignore[index]  # a1 → b3
    assert len(page.find("li", "finding")) == 3


HOSTILE = "</script><script>alert(1)</script> <!-- & \"quoted\" 'single' <b>bold</b> \u2028"


def test_everything_from_the_input_is_escaped() -> None:
    text = "\n".join(
        [
            f'[Event "{HOSTILE.replace(chr(34), "")}"]',
            f"; {HOSTILE}",
            "king white e1",
            "king black e8",
            f"1. upkeep: summon R a1 cost 10 lp 10 {{ {HOSTILE.replace('}', '')} }}",
            '1... main1: play "</script><img src=x>" cost 1',
            "",
        ]
    )
    name = 'evil </script>&"<b>.sglog'
    result = replay_text(text, name, ReplayOptions(timeline=True))
    assert result.diagnostics  # the card cannot be played: its name is in a finding
    stream = ReportStream("html", command="replay", rules=CATALOGUE, tool_version="test")
    stream.add(replay_file_result(name, result), {name: text})
    page_text = stream.close()
    assert page_text.count("</script>") == len(re.findall(r"<script[ >]", page_text)) == 2  # data + the script
    assert "<script>alert" not in page_text and "<b>bold" not in page_text and "<img" not in page_text
    page = Page(page_text)
    # shown as written, the line separator as a marker (a browser would break the line there)
    assert page.src_lines[1] == f"; {HOSTILE}".replace("\u2028", "<U+2028>")
    [data] = page.data()
    assert data["path"] == name
    assert any("</script><img src=x>" in f["message"] for f in data["findings"])  # type: ignore[attr-defined]
    assert [t for t, _ in page.tags].count("script") == 2
    assert [t for t, _ in page.tags].count("b") == 0


def test_json_for_script_is_inert_and_exact() -> None:
    value = {"x": "</script><!-- & \u2028 \u2029 >", "n": [1, None]}
    text = json_for_script(value)
    assert not set("<>&") & set(text) and "\u2028" not in text
    assert json.loads(text) == value


def test_the_page_is_self_contained() -> None:
    text = html_report(rel(WRONG_HIT), rel(FULL_GAME))
    assert "http://" not in text and "https://" not in text
    assert not re.search(r"\bsrc\s*=", text, re.IGNORECASE)
    assert not re.search(r"<(link|iframe|object|embed|img|base)\b", text, re.IGNORECASE)
    assert "@import" not in text and "url(" not in text
    page = Page(text)
    [csp] = [a["content"] for t, a in page.tags if t == "meta" and a.get("http-equiv") == "Content-Security-Policy"]
    assert csp is not None and csp.startswith("default-src 'none';")
    assert "unsafe-inline" not in csp and "connect-src 'none'" in csp
    [script] = page.scripts
    import base64
    import hashlib

    digest = base64.b64encode(hashlib.sha256(script.encode()).digest()).decode()
    assert f"script-src 'sha256-{digest}'" in csp  # the one script that may run is the page's own


def test_the_page_is_deterministic() -> None:
    logs = (rel(WRONG_HIT), rel(FULL_GAME), rel(SYNTAX_ERROR))
    first = html_report(*logs, keep_going=True)
    assert html_report(*logs, keep_going=True) == first
    assert "log-2" in first


def test_several_logs_make_one_page_with_a_selector() -> None:
    page = Page(html_report(rel(FULL_GAME), rel(WRONG_HIT)))
    assert [s["id"] for s in page.find("section", "log")] == ["log-0", "log-1"]
    assert len(page.find("option")) == 2
    [body] = page.find("body")
    assert body["data-open-log"] == "1"  # the first log with an error


def test_the_part_is_rendered_while_the_source_is_at_hand() -> None:
    """A file's part is rendered by add (its source may be dropped then) and its timeline is not kept."""
    stream = ReportStream("html", command="replay", rules=CATALOGUE, tool_version="test")
    result, sources = replay_input(LogInput(rel(WRONG_HIT)), ReplayOptions(timeline=True))
    assert isinstance(result.facts, ReplayFacts) and result.facts.timeline is not None
    stream.add(result, dict(sources))
    kept = stream.files[0].facts
    assert isinstance(kept, ReplayFacts) and kept.timeline is None
    assert "attack Ra3 a5 roll 6 1 hit" in stream.held[0]


def test_the_shipped_long_game_is_well_under_a_megabyte() -> None:
    text = html_report(rel(FULL_GAME))
    size = len(text.encode("utf-8"))
    assert size < 150_000, size  # 120 turns, every statement explained (0.08 MB without); the budget is 1 MB
    [data] = Page(text).data()
    assert len(data["frames"]) > 600  # type: ignore[arg-type]


def test_a_ten_thousand_turn_log_stays_under_ten_megabytes() -> None:
    from sgcheck.core.state import GameState
    from sgcheck.lang.logs.writer import format_item
    from sgcheck.replay.generate import Claims, Style, iter_game

    items = [item for item in iter_game(5, style=Style.ENDLESS, claims=Claims.SOME, max_turns=5000)]
    log = "".join(format_item(item) + "\n" for item in items if not isinstance(item, GameState))  # type: ignore[arg-type]
    result = replay_text(log, "long.sglog", ReplayOptions(timeline=True))
    assert result.ok and result.turns == 10_000
    stream = ReportStream("html", command="replay", rules=CATALOGUE, tool_version="test")
    stream.add(replay_file_result("long.sglog", result), {"long.sglog": log})
    size = len(stream.close().encode("utf-8"))
    assert size < 10_000_000, size  # 44,627 positions and 31,191 explanations


def test_expected_and_claimed_are_the_findings_data_never_its_message() -> None:
    def finding(message: str, expected: int | str | bool | None, claimed: int | str | bool | None) -> Diagnostic:
        return Diagnostic("SG-R201", Severity.ERROR, message, label="claimed 6", expected=expected, claimed=claimed)

    assert expected_and_claimed(finding("wrong cost: the move costs 7 (Rook 5 + distance 2), not 6", 7, 6)) == (
        "7",
        "6",
    )
    # a message that words other numbers does not matter: only the data is read
    assert expected_and_claimed(finding("the move costs 7, not 6", 12, 10)) == ("12", "10")
    assert expected_and_claimed(finding("wrong claim: d100 roll 61 misses", "miss", "hit")) == ("miss", "hit")
    assert expected_and_claimed(finding("the target is not a King", None, 3)) == (None, "3")
    assert expected_and_claimed(finding("wrong cost: the move costs 7, not 6", None, None)) == (None, None)


def test_check_refuses_html_and_replay_writes_it(tmp_path: Path) -> None:
    runner = CliRunner()
    refused = runner.invoke(main, ["check", "--format", "html", str(ROOT / "examples" / "cards")])
    assert refused.exit_code == 2 and "html" in refused.output
    written = runner.invoke(main, ["replay", "--format", "html", "--no-summary", str(WRONG_HIT)])
    assert written.exit_code == 1  # the log has an error
    page = Page(written.output)
    assert len(page.data()) == 1 and page.data()[0]["frames"]
    fine = runner.invoke(main, ["replay", "--format", "html", str(FULL_GAME)])
    assert fine.exit_code == 0 and fine.output.startswith("<!DOCTYPE html>")


def test_jobs_give_the_same_page() -> None:
    logs = [str(p) for p in EXAMPLES[:6]]
    runner = CliRunner()
    one = runner.invoke(main, ["replay", "--format", "html", "-j", "1", *logs])
    two = runner.invoke(main, ["replay", "--format", "html", "-j", "2", *logs])
    assert one.exit_code == two.exit_code and one.output == two.output
    assert len(Page(one.output).find("section", "log")) == 6


def test_an_unreadable_log_is_reported_without_a_board(tmp_path: Path) -> None:
    binary = tmp_path / "binary.sglog"
    binary.write_bytes(b"\x00\x01\x02king white e1\n")
    stream = ReportStream("html", command="replay", rules=CATALOGUE, tool_version="test")
    result, sources = replay_input(LogInput(str(binary)), ReplayOptions(timeline=True))
    stream.add(replace(result), sources)
    page = Page(stream.close())
    [data] = page.data()
    assert data["frames"] == [] and data["findings"]
    assert page.find("p", "nosource") or page.src_lines == []


def test_the_timeline_keeps_the_header_tags_and_where_the_game_ended() -> None:
    result, _sources = replay_input(LogInput(rel(FULL_GAME)), ReplayOptions(timeline=True))
    assert isinstance(result.facts, ReplayFacts)
    timeline = result.facts.timeline
    assert timeline is not None
    assert timeline.header == (
        ("Event", "Club night, round 3"),
        ("Site", "The Gem Room"),
        ("Date", "2026.11.14"),
        ("White", "Ana Ferreira"),
        ("Black", "Ben Okafor"),
        ("Ruleset", "core"),
        ("Result", "1-0"),
    )
    frames, ended = timeline.frames, timeline.ended
    assert ended is not None
    assert frames[ended].kind == 2  # the statement that converted the King
    assert frames[ended].totals[5] == 20 and frames[ended - 1].totals[5] < 20  # Black's King damage reaches 20 there
    unfinished = replay_text("king white e1\nking black e8\n1. end: pass\n", "u.sglog", ReplayOptions(timeline=True))
    assert unfinished.timeline is not None
    assert unfinished.timeline.ended is None and unfinished.timeline.header == ()


def game_facts(page: str, index: int = 0) -> dict[str, tuple[str, str]]:
    """Each log's header facts as the page shows them: term → (its class, its text)."""
    block = page.split('<dl class="game">')[index + 1].split("</dl>")[0]
    found = re.findall(r'<div class="([^"]*)"><dt>([^<]*)</dt><dd[^>]*>([^<]*)</dd></div>', block)
    return {term: (cls, value) for cls, term, value in found}


def test_the_header_names_the_players_the_event_and_both_results() -> None:
    page = html_report(rel(FULL_GAME), rel(WRONG_HIT))
    assert game_facts(page, 0) == {
        "White": ("player white", "Ana Ferreira"),
        "Black": ("player black", "Ben Okafor"),
        "Event": ("event", "Club night, round 3"),
        "Site": ("site", "The Gem Room"),
        "Date": ("date", "2026.11.14"),
        "[Result] tag": ("result-tag", "1-0"),
        "Replayed result": ("result-replayed", "1-0 · White wins by King conversion on White&#x27;s turn 120"),
    }
    assert game_facts(page, 1)["White"] == ("player white", "not given")  # no Site row without the tag
    assert "Site" not in game_facts(page, 1)
    counts = re.findall(r'<span class="count (\w+)" data-count="(\d+)">', page)
    assert counts == [("error", "0"), ("warning", "0"), ("note", "0"), ("error", "1"), ("warning", "0"), ("note", "0")]
    assert page.count('<p class="address" hidden>') == 2  # filled in by the script, for a log with positions


def test_a_result_tag_the_game_contradicts_is_marked() -> None:
    text = '[White "A"]\n[Result "1-0"]\nking white e1\nking black e8\n1. end: pass\n1... end: pass\n'
    result = replay_text(text, "r.sglog", ReplayOptions(keep_going=True, timeline=True))
    assert any(d.code == "SG-R210" for d in result.diagnostics)
    stream = ReportStream("html", command="replay", rules=CATALOGUE, tool_version="test")
    stream.add(replay_file_result("r.sglog", result), {"r.sglog": text})
    facts = game_facts(stream.close())
    assert facts["[Result] tag"] == ("result-tag", "1-0")
    assert facts["Replayed result"] == ("result-replayed differs", "* · the game has not ended")


def test_header_tags_are_escaped_and_made_visible() -> None:
    text = (
        '[White "</dd><b>Eve</b> \u202eevil"]\n[Black "Bo & <i>"]\n[Event "<script>x</script>"]\n'
        "king white e1\nking black e8\n1. end: pass\n"
    )
    result = replay_text(text, "h.sglog", ReplayOptions(timeline=True))
    stream = ReportStream("html", command="replay", rules=CATALOGUE, tool_version="test")
    stream.add(replay_file_result("h.sglog", result), {"h.sglog": text})
    page = stream.close()
    assert "<b>Eve" not in page and "<i>" not in page and "<script>x" not in page and "\u202e" not in page
    facts = game_facts(page)
    assert facts["White"][1] == "&lt;/dd&gt;&lt;b&gt;Eve&lt;/b&gt; &lt;U+202E&gt;evil"
    assert facts["Black"][1] == "Bo &amp; &lt;i&gt;"
    [data] = Page(page).data()
    assert data["frames"]  # the tags themselves stay out of the page's data: the header shows them
