"""Headless Chromium for the HTML report's tests and screenshots: write a page, open it (without
any network), read the DOM its script leaves behind, and drive it with a probe.

A probe is a script added to a copy of the page (the Content-Security-Policy names its hash
beside the page's own): once the page's script is ready it clicks, presses keys, changes the
address, waits, and writes what it saw into ``<html data-probe="…">`` as JSON, which the
dumped DOM carries back. The page's script is the one that ships; only the test adds the probe.
"""

from __future__ import annotations

import base64
import hashlib
import json
import shutil
import subprocess
import tempfile
from collections.abc import Iterator, Sequence
from html.parser import HTMLParser
from pathlib import Path

import pytest

from sgcheck.codes import CATALOGUE
from sgcheck.replay.files import LogInput, replay_input
from sgcheck.replay.interpreter import ReplayOptions
from sgcheck.report import ReportStream

ROOT = Path(__file__).resolve().parents[2]
TIMEOUT = 120  # seconds for one browser run


def find_chromium() -> str | None:
    """The headless browser, or None when there is none (or it cannot start here)."""
    if _address_space_limited():
        return None
    for name in ("chromium", "chromium-browser", "google-chrome"):
        found = shutil.which(name)
        if found:
            return found
    return None


def chromium() -> str:
    if _address_space_limited():
        pytest.skip("headless Chromium cannot start under an address-space limit (ulimit -v): run without one")
    found = find_chromium()
    if found is None:
        pytest.skip("headless Chromium not found: install the distribution's chromium package")
    return found


def _address_space_limited() -> bool:
    """Chromium reserves terabytes of address space at start and dies at once under ``ulimit -v``."""
    try:
        import resource
    except ImportError:  # not a POSIX system: no such limit
        return False
    soft, _hard = resource.getrlimit(resource.RLIMIT_AS)
    return soft != resource.RLIM_INFINITY


def run_browser(page: Path, *extra: str, fragment: str = "", browser: str | None = None) -> str:
    """Open ``page`` (at ``#fragment``) in headless Chromium, without any network, and return its
    standard output."""
    with tempfile.TemporaryDirectory() as profile:
        command = [
            browser or chromium(),
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--no-first-run",
            f"--user-data-dir={profile}",
            "--virtual-time-budget=5000",
            *extra,
            page.as_uri() + (f"#{fragment}" if fragment else ""),
        ]
        done = subprocess.run(command, capture_output=True, text=True, timeout=TIMEOUT, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


def page_text(logs: Sequence[Path], *, keep_going: bool = False) -> str:
    """The report ``sgcheck replay --format html`` writes for ``logs``."""
    stream = ReportStream("html", command="replay", rules=CATALOGUE, tool_version="test")
    for log in logs:
        shown = str(log.relative_to(ROOT)) if log.is_relative_to(ROOT) else str(log)
        result, sources = replay_input(LogInput(shown), ReplayOptions(keep_going, timeline=True))
        stream.add(result, sources)
    return stream.close()


def page_data(text: str) -> list[dict[str, object]]:
    """The data of each log's section of a page."""
    blocks = text.split('<script type="application/json" class="sg-data">')[1:]
    return [json.loads(block.split("</script>")[0]) for block in blocks]


def write_page(path: Path, logs: list[Path], *, keep_going: bool = False) -> list[dict[str, object]]:
    """The report of ``logs`` written to ``path``; the data of each log's section."""
    text = page_text(logs, keep_going=keep_going)
    path.write_text(text, encoding="utf-8")
    return page_data(text)


PROBE = """(function () {
  "use strict";
  var results = {};
  function pause(ms) { return new Promise(function (done) { setTimeout(done, ms === undefined ? 40 : ms); }); }
  function section(k) { return document.getElementById("log-" + k); }
  function frame(k) { return Number(section(k).getAttribute("data-frame")); }
  function line(k, n) { return section(k).querySelector('ol.src > li[data-line="' + n + '"]'); }
  function key(target, name) {
    target.dispatchEvent(new KeyboardEvent("keydown", { key: name, bubbles: true, cancelable: true }));
  }
  async function reveal(k, n) {  /* scroll the log pane until line n is drawn */
    var box = section(k).querySelector(".source");
    for (var top = 0; !line(k, n) && top <= box.scrollHeight; top += box.clientHeight / 2) {
      box.scrollTop = top;
      box.dispatchEvent(new Event("scroll"));  /* headless, the browser paints no frame to send it in */
      await pause(10);
    }
    return line(k, n);
  }
  function all(root, selector) { return Array.prototype.slice.call(root.querySelectorAll(selector)); }
  function texts(root, selector) { return all(root, selector).map(function (node) { return node.textContent; }); }
  function textOf(root, selector) { var node = root.querySelector(selector); return node ? node.textContent : null; }
  function plotPoint(k, index, y) {  /* where position ``index`` is on the plot, in the window */
    var svg = section(k).querySelector("svg.plot");
    var n = JSON.parse(section(k).querySelector("script.sg-data").textContent).frames.length;
    var point = svg.createSVGPoint();
    var hit = svg.querySelector("rect.hit");  /* 4 units wider than the plot on each side */
    var left = Number(hit.getAttribute("x")) + 4, width = Number(hit.getAttribute("width")) - 8;
    point.x = left + width * index / (n - 1);
    point.y = y === undefined ? 70 : y;
    return point.matrixTransform(svg.getScreenCTM());
  }
  function mouse(target, type, at) {
    target.dispatchEvent(new MouseEvent(type, { bubbles: true, cancelable: true, clientX: at.x, clientY: at.y }));
  }
  async function run() {
    while (!document.documentElement.hasAttribute("data-ready")) await pause(10);
    await pause(40);
    try {
      await (async function () {
BODY
      })();
    } catch (error) {
      results.error = String(error && error.stack || error);
    }
    document.documentElement.setAttribute("data-probe", JSON.stringify(results));
  }
  run();
})();
"""


def with_probe(text: str, body: str) -> str:
    """The page with a probe (the JavaScript ``body``, which fills ``results``) run after its script."""
    probe = PROBE.replace("BODY", body)
    digest = "'sha256-" + base64.b64encode(hashlib.sha256(probe.encode("utf-8")).digest()).decode("ascii") + "'"
    assert text.count("script-src ") == 1 and text.count("</body>") == 1
    text = text.replace("script-src ", f"script-src {digest} ", 1)
    return text.replace("</body>", f"<script>{probe}</script>\n</body>", 1)


def probe(
    path: Path, text: str, body: str, *, fragment: str = "", size: str = "1280,900"
) -> tuple[Dom, dict[str, object]]:
    """Run the probe ``body`` on the page ``text`` (written to ``path``); the DOM after it and its results."""
    path.write_text(with_probe(text, body), encoding="utf-8")
    dom = Dom(run_browser(path, "--dump-dom", f"--window-size={size}", fragment=fragment))
    [html] = dom.root.all("html")
    assert "data-script-error" not in html.attrs, html.attrs["data-script-error"]
    results = json.loads(html.attrs.get("data-probe") or "null")
    assert isinstance(results, dict), "the probe did not finish"
    assert "error" not in results, results["error"]
    return dom, results


class Node:
    def __init__(self, tag: str, attrs: dict[str, str | None], parent: Node | None) -> None:
        self.tag, self.attrs, self.parent = tag, attrs, parent
        self.children: list[Node] = []
        self.texts: list[str] = []

    @property
    def classes(self) -> list[str]:
        return (self.attrs.get("class") or "").split()

    @property
    def text(self) -> str:
        """The text of the node and its descendants, in order."""
        return "".join(self._text())

    def _text(self) -> Iterator[str]:
        yield from self.texts[:1]
        for index, child in enumerate(self.children):
            yield from child._text()
            yield from self.texts[index + 1 : index + 2]

    def walk(self) -> Iterator[Node]:
        yield self
        for child in self.children:
            yield from child.walk()

    def all(self, tag: str, cls: str | None = None) -> list[Node]:
        return [n for n in self.walk() if n.tag == tag and (cls is None or cls in n.classes)]


VOID = {"meta", "input", "br", "img", "link", "hr", "rect", "circle", "line", "polyline"}


class Dom(HTMLParser):
    """The dumped DOM as a small tree (SVG elements included), with the text of each element."""

    def __init__(self, text: str) -> None:
        super().__init__(convert_charrefs=True)
        self.root = Node("#root", {}, None)
        self.at = self.root
        self.root.texts.append("")
        self.feed(text)
        self.close()

    def _add(self, node: Node) -> None:
        self.at.children.append(node)
        self.at.texts.extend([""] * (len(self.at.children) + 1 - len(self.at.texts)))
        node.texts.append("")

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        node = Node(tag, dict(attrs), self.at)
        self._add(node)
        if tag not in VOID:
            self.at = node

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self._add(Node(tag, dict(attrs), self.at))

    def handle_endtag(self, tag: str) -> None:
        node = self.at
        while node.parent is not None and node.tag != tag:
            node = node.parent
        if node.parent is not None:
            self.at = node.parent

    def handle_data(self, data: str) -> None:
        at = self.at
        at.texts.extend([""] * (len(at.children) + 1 - len(at.texts)))
        at.texts[len(at.children)] += data

    def section(self, index: int) -> Node:
        return next(s for s in self.root.all("section", "log") if s.attrs.get("id") == f"log-{index}")
