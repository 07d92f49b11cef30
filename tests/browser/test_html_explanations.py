"""The explanation panel beside the board, in headless Chromium: for the current position, the
statement replay explained (frame field 11), each fact as ``label: text`` with its rules and its
parts, and the totals after; "No action at this position." where a frame has none. The
explanations here are written by hand: the page is tested on the shape of the data, whatever
replay puts in it."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from sgcheck.replay.files import LogInput, replay_input
from sgcheck.replay.interpreter import ReplayOptions
from sgcheck.report.html import render_html_file, render_html_page
from sgcheck.results import ExplainedFact, Explanation, FactPart, ReplayFacts, SideTotals, Totals
from tests.browser.harness import ROOT, chromium, probe

FULL_GAME = ROOT / "examples" / "logs" / "full-game.sglog"
HOSTILE = "</script><b>bold</b> \u202e & done"


def explanation(line: int, statement: str) -> Explanation:
    return Explanation(
        line=line,
        turn=17,
        side="white",
        phase="battle",
        statement=statement,
        legal=True,
        kind="statement",
        facts=(
            ExplainedFact(
                "cost",
                "Cost",
                8,
                "8 SP (Knight 5 + distance 3)",
                ("core §4", "R05"),
                (FactPart("Knight", 5), FactPart("distance", 3)),
            ),
            ExplainedFact("roll", "Roll", 12, "8 + 4 = 12", ("core §5",)),
            ExplainedFact("hit", "Hit", False, f"no: 12 < 30 {HOSTILE}"),
        ),
        after=Totals(SideTotals(0, 0, 0), SideTotals(7, 3, 4)),
    )


def test_the_panel_shows_the_explanation_of_the_position(tmp_path: Path) -> None:
    chromium()
    result, sources = replay_input(LogInput(str(FULL_GAME.relative_to(ROOT))), ReplayOptions(timeline=True))
    assert isinstance(result.facts, ReplayFacts)
    timeline = result.facts.timeline
    assert timeline is not None
    frames = list(timeline.frames)
    statement = next(i for i, f in enumerate(frames) if f.kind == 2 and i > 20)
    line = frames[statement].line
    frames[statement] = replace(frames[statement], explained=explanation(line, f"attack Ne2 Kf5 roll 8 4 {HOSTILE}"))
    frames[statement + 1] = replace(frames[statement + 1], explained=None)  # null: no action
    written = replace(result, facts=replace(result.facts, timeline=replace(timeline, frames=tuple(frames))))
    page = render_html_page([render_html_file(written, sources)], [written], "test")
    assert "<b>bold" not in page and "\u202e" not in page
    body = f"""
        function panel() {{
          var box = section(0).querySelector("section.explain");
          return {{
            cls: box.className,
            heading: box.querySelector("h3").textContent,
            where: textOf(box, ".where"),
            statement: textOf(box, ".statement code"),
            verdict: textOf(box, ".statement .verdict"),
            facts: all(box, "li.fact").map(function (li) {{
              return {{
                key: li.getAttribute("data-key"),
                label: li.querySelector(".label").textContent,
                text: li.querySelector(".text").textContent,
                rules: textOf(li, ".rules"),
                parts: texts(li, "ul.parts > li"),
                markup: li.querySelectorAll("b").length
              }};
            }}),
            after: texts(box, "table.after tr"),
            none: textOf(box, "p.none"),
            elements: box.querySelectorAll("b, script").length
          }};
        }}
        location.hash = "#log-0/{statement}";
        await pause(80);
        results.at = panel();
        location.hash = "#log-0/{statement + 1}";
        await pause(80);
        results.nulled = panel();
    """
    _dom, seen = probe(tmp_path / "explain.html", page, body)
    at = seen["at"]
    assert isinstance(at, dict)
    assert at["cls"] == "explain legal" and at["heading"] == "The action"
    assert at["where"] == f"line {line} · turn 17. (White) · Battle"
    shown = HOSTILE.replace("\u202e", "<U+202E>")  # the override shown, never obeyed
    assert at["statement"] == f"attack Ne2 Kf5 roll 8 4 {shown}" and at["verdict"] == " legal"
    assert at["facts"] == [
        {
            "key": "cost",
            "label": "Cost",
            "text": "8 SP (Knight 5 + distance 3)",
            "rules": " (core §4, R05)",
            "parts": ["Knight: 5", "distance: 3"],
            "markup": 0,
        },
        {"key": "roll", "label": "Roll", "text": "8 + 4 = 12", "rules": " (core §5)", "parts": [], "markup": 0},
        {"key": "hit", "label": "Hit", "text": f"no: 12 < 30 {shown}", "rules": None, "parts": [], "markup": 0},
    ]
    assert at["after"] == ["LPSPKing damage", "White000 / 20", "Black734 / 20"]
    assert at["none"] is None
    for empty in ("nulled",):
        panel = seen[empty]
        assert isinstance(panel, dict)
        assert panel["none"] == "No action at this position." and panel["facts"] == [] and panel["statement"] is None
        assert panel["cls"] == "explain empty"
    assert at["elements"] == 0  # the hostile text stayed text: no element made of it


def test_the_panel_explains_a_replayed_attack_with_the_numbers_of_the_rules(tmp_path: Path) -> None:
    """Guide example A, replayed for real: at the Rook's attack the panel shows the cost
    (2×Rook 5 + distance 2 = 12, core §4.1), the threshold (60, core §4.2), the hit, the damage
    and the capture, and the totals after (White LP 3, SP 5)."""
    chromium()
    example = ROOT / "examples" / "logs" / "guide-example-a.sglog"
    result, sources = replay_input(LogInput(str(example.relative_to(ROOT))), ReplayOptions(timeline=True))
    assert isinstance(result.facts, ReplayFacts)
    timeline = result.facts.timeline
    assert timeline is not None
    frames = timeline.frames
    attack = next(i for i, f in enumerate(frames) if f.explained is not None and "attack" in f.explained.statement)
    page = render_html_page([render_html_file(result, sources)], [result], "test")
    body = f"""
        location.hash = "#log-0/{attack}";
        await pause(80);
        var box = section(0).querySelector("section.explain");
        results.statement = textOf(box, ".statement code");
        results.facts = all(box, "li.fact").map(function (li) {{
          return [li.getAttribute("data-key"), li.querySelector(".text").textContent, textOf(li, ".rules")];
        }});
        results.after = texts(box, "table.after tr");
    """
    _dom, seen = probe(tmp_path / "attack.html", page, body)
    statement = seen["statement"]
    assert isinstance(statement, str) and statement.startswith("attack Ra3 Pa5")
    facts = seen["facts"]
    assert isinstance(facts, list)
    by_key = {key: (text, rules) for key, text, rules in facts}
    assert {"cost", "threshold", "roll", "hit", "damage", "capture"} <= set(by_key)
    assert "12" in by_key["cost"][0] and "core §4.1" in (by_key["cost"][1] or "")
    assert "60" in by_key["threshold"][0] and "core §4.2" in (by_key["threshold"][1] or "")
    after = seen["after"]
    assert isinstance(after, list) and after[1].startswith("White35")
