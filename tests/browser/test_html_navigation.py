"""Finding one's way in the HTML report, in headless Chromium: a click or a key on a log line
lands on its action, addresses (``#log-L/P``) open exactly the position they name and say so
when they name none, the plot is labelled and clickable, the header names the game, a finished
game has no side to play, long lines wrap, and the board and the plot are described in words.
A probe (tests/browser/harness.py) drives the page and reports what it saw."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

from tests.browser.harness import ROOT, chromium, page_data, page_text, probe

FULL_GAME = ROOT / "examples" / "logs" / "full-game.sglog"
WRONG_HIT = ROOT / "examples" / "logs" / "broken" / "wrong-hit.sglog"
SQUARES = [f + r for r in "12345678" for f in "abcdefgh"]


@pytest.fixture(scope="module")
def full_game() -> tuple[str, dict[str, object]]:
    chromium()
    text = page_text([FULL_GAME])
    [data] = page_data(text)
    return text, data


def frames_of(data: dict[str, object]) -> list[list[object]]:
    frames = data["frames"]
    assert isinstance(frames, list)
    return frames


def one_line_attack(data: dict[str, object]) -> tuple[int, int]:
    """A line that opens a turn, attacks and ends it: its phase label, its statement and the end
    of the turn are three positions of one line. The line and its statement's position."""
    frames, lines = frames_of(data), data["lines"]
    assert isinstance(lines, list)
    for index, frame in enumerate(frames):
        line = frame[0]
        assert isinstance(line, int)
        kinds = [f[1] for f in frames if f[0] == line]
        if frame[1] == 2 and kinds == [1, 2, 3] and " attack " in lines[line - 1]:
            return line, index
    raise AssertionError("no one-line attack turn in the log")


def test_a_click_on_a_log_line_lands_on_its_action(tmp_path: Path, full_game: tuple[str, dict[str, object]]) -> None:
    text, data = full_game
    line, statement = one_line_attack(data)
    frames = frames_of(data)
    assert frames[statement + 1][1] == 3 and frames[statement + 1][0] == line  # the end of the turn follows
    body = f"""
        var li = await reveal(0, {line});
        li.click();
        await pause();
        results.frame = frame(0);
        results.marks = all(section(0), "svg.board .marks rect.hl").map(function (m) {{
          return m.getAttribute("class") + " " + m.getAttribute("data-sq");
        }});
        results.current = all(section(0), "ol.src > li.cur").map(function (l) {{ return l.dataset.line; }});
        results.status = section(0).querySelector(".status").textContent;
        results.label = section(0).querySelector("svg.board").getAttribute("aria-label");
        results.address = location.hash;
    """
    _dom, seen = probe(tmp_path / "click.html", text, body)
    assert seen["frame"] == statement  # the attack, not the end of the turn on the same line
    frm, to = frames[statement][10]  # type: ignore[misc]
    assert isinstance(frm, int) and isinstance(to, int) and frm >= 0 and to >= 0
    assert seen["marks"] == [f"hl from {SQUARES[frm]}", f"hl to {SQUARES[to]}"]
    assert seen["current"] == [str(line)]
    assert f"line {line} " in str(seen["status"]) and "Battle" in str(seen["status"])
    assert f"Squares marked: {SQUARES[frm]} to {SQUARES[to]}" in str(seen["label"])
    assert seen["address"] == f"#log-0/{statement}"


def test_log_lines_are_focusable_and_driven_by_keys(tmp_path: Path, full_game: tuple[str, dict[str, object]]) -> None:
    text, data = full_game
    line, statement = one_line_attack(data)
    frames = frames_of(data)
    body = f"""
        var li = await reveal(0, {line});
        results.tabStops = section(0).querySelectorAll('ol.src > li[tabindex="0"]').length;
        results.others = section(0).querySelectorAll('ol.src > li[tabindex="-1"]').length;
        li.focus();
        key(li, "Enter");
        await pause();
        results.enter = frame(0);
        key(document.activeElement, "ArrowDown");
        await pause();
        results.focused = document.activeElement.getAttribute("data-line");
        results.down = frame(0);
        key(document.activeElement, "ArrowUp");
        key(document.activeElement, "ArrowUp");
        await pause();
        results.focusedUp = document.activeElement.getAttribute("data-line");
        results.up = frame(0);
        key(document.activeElement, " ");
        await pause();
        results.space = frame(0);
    """
    _dom, seen = probe(tmp_path / "keys.html", text, body)
    assert seen["tabStops"] == 1 and isinstance(seen["others"], int) and seen["others"] > 10  # one stop: roving focus
    assert seen["enter"] == statement
    assert seen["focused"] == str(line + 1)

    def position_of(n: int) -> int:  # what the page shows for line n: its statement, else its last position
        at = [i for i, f in enumerate(frames) if f[0] == n]
        statements = [i for i in at if frames[i][1] == 2]
        return statements[0] if statements else at[-1]

    assert seen["down"] == position_of(line + 1)
    assert seen["focusedUp"] == str(line - 1)
    assert seen["up"] == position_of(line - 1)
    assert seen["space"] == position_of(line - 1)


def test_addresses_open_exactly_their_position_and_follow_hash_changes(
    tmp_path: Path, full_game: tuple[str, dict[str, object]]
) -> None:
    text, data = full_game
    count = len(frames_of(data))
    body = """
        results.opened = frame(0);
        results.status = section(0).querySelector(".status").textContent;
        results.link = section(0).querySelector("a.address").textContent;
        results.scrub = section(0).querySelector("input.scrub").value;
        location.hash = "#log-0/0";
        await pause(80);
        results.changed = frame(0);
        results.start = section(0).querySelector(".status").textContent;
        results.board = section(0).querySelector("svg.board").getAttribute("aria-label");
        location.hash = "#log-0/99999";
        await pause(80);
        results.kept = frame(0);
        results.note = document.querySelector(".address-note").textContent;
        results.noteHidden = document.querySelector(".address-note").hidden;
        results.hash = location.hash;
        location.hash = "#log-0/25";
        await pause(80);
        results.back = frame(0);
        results.noteHiddenAfter = document.querySelector(".address-note").hidden;
    """
    _dom, seen = probe(tmp_path / "address.html", text, body, fragment="log-0/10")
    assert seen["opened"] == 10  # #log-0/10 opens position 10, as the page numbers it
    assert f"position 10 of {count - 1}" in str(seen["status"])
    assert seen["link"] == "#log-0/10" and seen["scrub"] == "10"
    assert seen["changed"] == 0 and "Start of play" in str(seen["start"])
    assert str(seen["board"]).endswith("White: Kc1; Black: Kf5")  # the two Kings, before any summon
    assert seen["kept"] == 0  # an address naming no position moves nothing
    assert seen["noteHidden"] is False
    assert seen["note"] == f"Log 0 has no position 99999 (#log-0/99999): its positions are numbered 0 to {count - 1}."
    assert seen["hash"] == "#log-0/99999"  # left as it was typed
    assert seen["back"] == 25 and seen["noteHiddenAfter"] is True


def test_an_address_out_of_range_says_so_and_opens_the_usual_position(tmp_path: Path) -> None:
    chromium()
    text = page_text([FULL_GAME, WRONG_HIT])
    data = page_data(text)
    body = """
        results.visible = all(document, "section.log").map(function (s) { return !s.hidden; });
        results.frames = [frame(0), frame(1)];
        results.note = document.querySelector(".address-note").textContent;
        results.hidden = document.querySelector(".address-note").hidden;
        location.hash = "#log-0";
        await pause(80);
        results.visibleAfter = all(document, "section.log").map(function (s) { return !s.hidden; });
        results.pick = document.querySelector("select.logpick").value;
        location.hash = "#log-1/x";
        await pause(80);
        results.malformed = document.querySelector(".address-note").textContent;
    """
    _dom, seen = probe(tmp_path / "range.html", text, body, fragment="log-7/3")
    assert seen["hidden"] is False
    assert seen["note"] == "There is no log 7 in this page (#log-7/3): its logs are numbered 0 to 1."
    assert seen["visible"] == [False, True]  # the page opened as without an address: at the log with the error
    wrong = data[1]
    findings = wrong["findings"]
    assert isinstance(findings, list) and isinstance(wrong["open"], int)
    assert seen["frames"] == [len(frames_of(data[0])) - 1, findings[wrong["open"]]["frame"]]
    assert seen["visibleAfter"] == [True, False] and seen["pick"] == "0"
    assert str(seen["malformed"]).startswith("The address #log-1/x is not one of this page's")


def test_the_plot_has_labelled_ticks_hover_values_and_clicks(
    tmp_path: Path, full_game: tuple[str, dict[str, object]]
) -> None:
    text, data = full_game
    frames = frames_of(data)
    target = len(frames) // 3
    body = f"""
        var hit = section(0).querySelector("svg.plot rect.hit");
        mouse(hit, "mousemove", plotPoint(0, {target}));
        results.tip = texts(section(0), "svg.plot g.tip text");
        results.tipShown = section(0).querySelector("svg.plot g.tip").getAttribute("visibility");
        results.tipFrame = section(0).querySelector("svg.plot g.tip").getAttribute("data-frame");
        mouse(hit, "click", plotPoint(0, {target}));
        await pause();
        results.frame = frame(0);
        var words = section(0).querySelector(".plot-text");
        results.words = words.textContent;
        results.described = section(0).querySelector("svg.plot").getAttribute("aria-describedby") === words.id;
    """
    dom, seen = probe(tmp_path / "plot.html", text, body)
    [plot] = dom.section(0).all("svg", "plot")
    x_ticks = plot.all("text", "x")
    turns = [int(t.text) for t in x_ticks if "tick" in t.classes]
    assert len(turns) > 2 and turns == sorted(turns)
    last_turn = frames[-1][2]
    assert isinstance(last_turn, int) and turns[-1] <= last_turn and len(turns) <= 20  # thinned: 120 turns, ~12 labels
    steps = {b - a for a, b in itertools.pairwise(turns)}
    assert len(steps) == 1  # evenly spaced, every 1, 2, 5, 10 … turns
    y_ticks = [int(t.text) for t in plot.all("text", "y") if "tick" in t.classes]
    assert len(y_ticks) > 2 and y_ticks[0] == 0
    most = max(max(f[7][k] for k in (0, 1, 3, 4)) for f in frames)  # type: ignore[index]
    assert y_ticks[-1] >= most
    assert [int(t.text) for t in plot.all("text", "k") if "tick" in t.classes] == [0, 5, 10, 15, 20]
    assert seen["tipShown"] == "visible"
    hovered = int(str(seen["tipFrame"]))
    assert abs(hovered - target) <= 2  # the pointer's place is rounded to a whole pixel
    f = frames[hovered]
    totals = f[7]
    assert isinstance(totals, list)
    tip = seen["tip"]
    assert isinstance(tip, list)
    assert tip[0].startswith(f"turn {f[2]}") and tip[0].endswith(f"position {hovered}")
    assert tip[1] == f"White LP {totals[0]} · SP {totals[1]} · King {totals[2]}/20"
    assert tip[2] == f"Black LP {totals[3]} · SP {totals[4]} · King {totals[5]}/20"
    assert seen["frame"] == hovered  # a click goes to the position under the pointer
    assert seen["described"] is True
    assert str(seen["words"]).startswith(f"The plot, over turns 1 to {last_turn} ({len(frames)} positions): White LP ")


def test_a_finished_game_has_no_side_to_play(tmp_path: Path, full_game: tuple[str, dict[str, object]]) -> None:
    text, data = full_game
    frames = frames_of(data)
    ended = data["ended"]
    assert isinstance(ended, int) and 0 < ended < len(frames)
    body = f"""
        function seen() {{
          return {{
            frame: frame(0),
            status: section(0).querySelector(".status").textContent,
            toPlay: section(0).querySelectorAll("table.sides th.tomove").length,
            caption: textOf(section(0), "table.sides caption") || ""
          }};
        }}
        results.last = seen();
        location.hash = "#log-0/{ended}";
        await pause(80);
        results.ended = seen();
        location.hash = "#log-0/{ended - 1}";
        await pause(80);
        results.before = seen();
    """
    _dom, seen = probe(tmp_path / "over.html", text, body)
    result = data["result"]
    assert isinstance(result, dict)
    for at in ("last", "ended"):
        shown = seen[at]
        assert isinstance(shown, dict)
        assert "to play" not in shown["status"] and shown["toPlay"] == 0
        assert f"game over: {result['detail']} (1-0)" in shown["status"]
        assert shown["caption"] == f"Game over: {result['detail']} (1-0)"
    assert seen["last"]["frame"] == len(frames) - 1  # type: ignore[index]
    before = seen["before"]
    assert isinstance(before, dict) and before["toPlay"] == 1 and "game over" not in before["status"]


def test_the_header_names_the_game(tmp_path: Path) -> None:
    chromium()
    text = page_text([FULL_GAME, WRONG_HIT])
    dom, _seen = probe(tmp_path / "header.html", text, "")

    def facts(index: int) -> dict[str, str]:
        [game] = dom.section(index).all("dl", "game")
        return {d.all("dt")[0].text: d.all("dd")[0].text for d in game.children}

    assert facts(0) == {
        "White": "Ana Ferreira",
        "Black": "Ben Okafor",
        "Event": "Club night, round 3",
        "Site": "The Gem Room",
        "Date": "2026.11.14",
        "[Result] tag": "1-0",
        "Replayed result": "1-0 · White wins by King conversion on White's turn 120",
    }
    [counts] = dom.section(0).all("p", "counts")
    assert counts.text == "0 errors · 0 warnings · 0 notes"
    broken = facts(1)
    assert broken["White"] == "not given" and broken["[Result] tag"] == "none"
    [counts] = dom.section(1).all("p", "counts")
    assert counts.text.startswith("1 error · ")


LONG_CLAIM = "; " + " ".join(f"claim{n:03d}=lp{n}" for n in range(60))


def test_a_long_line_wraps_and_is_shown_in_full(tmp_path: Path) -> None:
    chromium()
    log = tmp_path / "long-line.sglog"
    source = FULL_GAME.read_text(encoding="utf-8").split("\n")
    source.insert(20, LONG_CLAIM)
    log.write_text("\n".join(source), encoding="utf-8")
    text = page_text([log])
    body = """
        var li = await reveal(0, 21);
        var next = line(0, 22);
        results.text = li.textContent;
        results.fits = li.scrollWidth <= li.clientWidth;
        results.height = li.getBoundingClientRect().height;
        results.gap = next.getBoundingClientRect().top - li.getBoundingClientRect().bottom;
        var box = section(0).querySelector(".source");
        results.rightEdge = li.getBoundingClientRect().right <= box.getBoundingClientRect().right + 0.5;
        results.sideways = box.scrollWidth <= box.clientWidth;
    """
    _dom, seen = probe(tmp_path / "long.html", text, body)
    assert seen["text"] == LONG_CLAIM  # the whole line is in the page, none of it cut off
    assert seen["fits"] is True and seen["rightEdge"] is True and seen["sideways"] is True
    height = seen["height"]
    assert isinstance(height, int | float) and height >= 3 * 18  # wrapped over several rows
    assert seen["gap"] == 0  # the lines below follow it, none drawn over it


def test_the_board_is_described_in_words(tmp_path: Path, full_game: tuple[str, dict[str, object]]) -> None:
    text, data = full_game
    body = """
        results.label = section(0).querySelector("svg.board").getAttribute("aria-label");
        results.role = section(0).querySelector("svg.board").getAttribute("role");
    """
    dom, seen = probe(tmp_path / "words.html", text, body)
    label = str(seen["label"])
    assert seen["role"] == "img"
    assert label.startswith(f"Board at position {len(frames_of(data)) - 1}. White: K")
    [board] = dom.section(0).all("svg", "board")
    pieces = board.all("g", "pc")
    white = sorted(str(p.attrs["data-sq"]) for p in pieces if "w" in p.classes)
    black = sorted(str(p.attrs["data-sq"]) for p in pieces if "b" in p.classes)
    said_white, said_black = label.split(". White: ")[1].split("; Black: ")
    assert sorted(piece[1:] for piece in said_white.split(", ")) == white
    assert sorted(piece[1:] for piece in said_black.split(", ")) == black
