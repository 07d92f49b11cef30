/* sgcheck replay report: draws each log's board, sides and plot from its embedded frames.
 * The frame fields are documented in sgcheck/replay/timeline.py. No network, no libraries;
 * every text from the data is set with textContent, never parsed as HTML. */
(function () {
  "use strict";

  var root = document.documentElement;
  window.addEventListener("error", function (event) {
    root.setAttribute("data-script-error", String(event.message));
  });

  var PHASES = ["Upkeep", "Main 1", "Battle", "Main 2", "End"];
  var SIDES = ["White", "Black"];
  var KINDS = ["P", "N", "B", "R", "Q", "K"];
  var NAMES = { P: "Pawn", N: "Knight", B: "Bishop", R: "Rook", Q: "Queen", K: "King" };
  var EMPTY = "................................................................";
  var SQ = 40, LEFT = 20, MAX_POINTS = 1000;
  var NS = null;

  function el(name, attrs, parent, text) {
    var node = document.createElementNS(NS, name);
    for (var key in attrs) {
      if (Object.prototype.hasOwnProperty.call(attrs, key)) node.setAttribute(key, String(attrs[key]));
    }
    if (text !== undefined) node.textContent = String(text);
    if (parent) parent.appendChild(node);
    return node;
  }

  function h(name, className, parent, text) {
    var node = document.createElement(name);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = String(text);
    if (parent) parent.appendChild(node);
    return node;
  }

  function squareName(sq) {
    return "abcdefgh".charAt(sq & 7) + String((sq >> 3) + 1);
  }

  function turnLabel(number, side) {
    return side === 0 ? number + "." : number + "...";
  }

  /* Every frame's whole board, Gems and cards, from the frames' changes. */
  function decode(frames) {
    var boards = new Array(frames.length), gems = new Array(frames.length), cards = new Array(frames.length);
    var board = EMPTY.split(""), gem = "", card = null;
    for (var i = 0; i < frames.length; i++) {
      var f = frames[i], diff = f[5];
      for (var k = 0; k + 2 < diff.length; k += 3) {
        var sq = (diff.charCodeAt(k) - 97) + 8 * (diff.charCodeAt(k + 1) - 49);
        board[sq] = diff.charAt(k + 2);
      }
      boards[i] = board.join("");
      if (f[8] !== 0) gem = f[8];
      gems[i] = gem;
      if (f[9] === null) card = null;
      else if (f[9] !== 0) card = f[9];
      cards[i] = card;
    }
    return { boards: boards, gems: gems, cards: cards };
  }

  function gemText(gems, side) {
    var parts = gems.split("/"), mine = parts[side] || "", broken = mine.indexOf("!") >= 0;
    function listing(owner) {
      var items = [];
      for (var kind = 0; kind < 5; kind++) {
        var count = Number(mine.charAt(owner * 6 + kind));
        if (count) items.push(count + KINDS[kind]);
      }
      return items.length ? items.join(" ") : "none";
    }
    return (broken ? "broken · " : "") + "own " + listing(side) + " · captured " + listing(1 - side);
  }

  function Viewer(section, data) {
    this.section = section;
    this.data = data;
    this.frames = data.frames;
    this.findings = data.findings;
    this.decoded = decode(this.frames);
    this.index = -1;
    this.finding = -1;
    this.moved = null;  // told of each move (the page keeps its address on it)
    this.source = section.querySelector(".source");
    this.logView = new LogView(section, data.lines || [], data.badLines || []);
    this.status = section.querySelector(".status");
    this.box = section.querySelector(".finding-box");
    this.sides = section.querySelector("table.sides");
    this.scrub = section.querySelector("input.scrub");
    this.current = null;
    this.byFrame = {};
    for (var i = 0; i < this.findings.length; i++) {
      var at = this.findings[i].frame;
      (this.byFrame[at] = this.byFrame[at] || []).push(i);
    }
    if (this.frames.length) {
      this.drawBoard(section.querySelector("svg.board"));
      this.drawPlot(section.querySelector("svg.plot"));
      this.scrub.max = String(this.frames.length - 1);
    }
    this.wire();
  }

  Viewer.prototype.drawBoard = function (svg) {
    NS = svg.namespaceURI;
    this.squares = [];
    var board = el("g", { "class": "squares" }, svg);
    for (var sq = 0; sq < 64; sq++) {
      var file = sq & 7, rank = sq >> 3;
      var light = (file + rank) % 2 === 1;
      this.squares.push(el("rect", {
        "class": "sq " + (light ? "l" : "d"), x: LEFT + file * SQ, y: (7 - rank) * SQ, width: SQ, height: SQ,
        "data-sq": squareName(sq)
      }, board));
    }
    var labels = el("g", { "class": "coords" }, svg);
    for (var n = 0; n < 8; n++) {
      el("text", { x: LEFT + n * SQ + SQ / 2, y: 8 * SQ + 14 }, labels, "abcdefgh".charAt(n));
      el("text", { x: LEFT / 2, y: (7 - n) * SQ + SQ / 2 + 4 }, labels, String(n + 1));
    }
    var markers = el("g", { "class": "markers" }, svg);
    (this.data.markers || []).forEach(function (set) {
      set.squares.forEach(function (sq) {
        var cx = LEFT + (sq & 7) * SQ + SQ / 2, cy = (7 - (sq >> 3)) * SQ + SQ / 2;
        el("rect", { "class": "marker", x: cx - 17, y: cy - 17, width: 34, height: 34, rx: 4 }, markers)
          .appendChild(el("title", {}, null, set.name + " " + squareName(sq)));
      });
    });
    this.marks = el("g", { "class": "marks" }, svg);
    this.pieces = el("g", { "class": "pieces" }, svg);
  };

  Viewer.prototype.drawPlot = function (svg) {
    var frames = this.frames, n = frames.length, top = 10, bottom = 132, left = 44, right = 616;
    /* LP and SP on the left scale (up to the most either reaches), King damage (totals 2 and 5)
       on its own right scale of 0 to 20, so it stays readable beside LP in the hundreds. */
    var most = 20, KING_HP = 20;
    for (var i = 0; i < n; i++) for (var k = 0; k < 6; k++) if (k !== 2 && k !== 5) most = Math.max(most, frames[i][7][k]);
    this.plotX = function (index) { return left + (n > 1 ? (right - left) * index / (n - 1) : 0); };
    this.plotY = function (value, total) {
      var scale = total === 2 || total === 5 ? KING_HP : most;
      return bottom - (bottom - top) * Math.min(value, scale) / scale;
    };
    var grid = el("g", { "class": "grid" }, svg);
    el("line", { x1: left, y1: bottom, x2: right, y2: bottom }, grid);
    el("line", { x1: left, y1: top, x2: left, y2: bottom }, grid);
    el("text", { x: left - 6, y: bottom + 4, "class": "tick y" }, grid, "0");
    el("text", { x: left - 6, y: top + 4, "class": "tick y" }, grid, String(most));
    el("line", { x1: right, y1: top, x2: right, y2: bottom }, grid);
    el("text", { x: right + 4, y: top + 4, "class": "tick k" }, grid, String(KING_HP));
    el("text", { x: right + 4, y: bottom + 4, "class": "tick k" }, grid, "0");
    el("text", { x: left, y: bottom + 14, "class": "tick x0" }, grid, "turn " + frames[0][2]);
    el("text", { x: right, y: bottom + 14, "class": "tick x1" }, grid, "turn " + frames[n - 1][2]);
    var step = Math.max(1, Math.ceil(n / MAX_POINTS));
    var series = [[0, "lp w", "White LP"], [3, "lp b", "Black LP"], [1, "sp w", "White SP"], [4, "sp b", "Black SP"],
      [2, "kd w", "White King dmg (right)"], [5, "kd b", "Black King dmg (right)"]];
    var self = this;
    this.dots = [];
    series.forEach(function (s, at) {
      var points = [];
      for (var j = 0; j < n; j += step) points.push(self.plotX(j).toFixed(1) + "," + self.plotY(frames[j][7][s[0]], s[0]).toFixed(1));
      if ((n - 1) % step !== 0) points.push(self.plotX(n - 1).toFixed(1) + "," + self.plotY(frames[n - 1][7][s[0]], s[0]).toFixed(1));
      el("polyline", { "class": "series " + s[1], points: points.join(" ") }, svg).appendChild(el("title", {}, null, s[2]));
      var x = 44 + (at % 3) * 200, y = 164 + Math.floor(at / 3) * 16;
      el("line", { "class": "series " + s[1], x1: x, y1: y - 4, x2: x + 22, y2: y - 4 }, svg);
      el("text", { "class": "legend", x: x + 28, y: y }, svg, s[2]);
    });
    this.now = el("line", { "class": "now", x1: left, y1: top, x2: left, y2: bottom }, svg);
    series.forEach(function (s) { self.dots.push([s[0], el("circle", { "class": "dot " + s[1], r: 3, cx: left, cy: bottom }, svg)]); });
  };

  Viewer.prototype.wire = function () {
    var self = this;
    this.section.addEventListener("click", function (event) {
      var target = event.target;
      if (!(target instanceof Element)) return;
      var button = target.closest("button[data-go]");
      if (button) { self.command(button.getAttribute("data-go")); return; }
      var item = target.closest("li.finding");
      if (item) { self.showFinding(Number(item.getAttribute("data-finding"))); return; }
      var line = target.closest("ol.src > li");
      if (line) self.goLine(Number(line.getAttribute("data-line")));
    });
    this.section.addEventListener("keydown", function (event) {
      var item = event.target instanceof Element ? event.target.closest("li.finding") : null;
      if (item && (event.key === "Enter" || event.key === " ")) {
        event.preventDefault();
        self.showFinding(Number(item.getAttribute("data-finding")));
      }
    });
    if (this.scrub) this.scrub.addEventListener("input", function () { self.go(Number(self.scrub.value), -1); });
  };

  Viewer.prototype.command = function (what) {
    var i = this.index, frames = this.frames, last = frames.length - 1;
    if (what === "finding") { this.nextFinding(1); return; }
    if (what === "prevfinding") { this.nextFinding(-1); return; }
    if (!frames.length) return;
    if (what === "first") i = 0;
    else if (what === "last") i = last;
    else if (what === "back") i = Math.max(0, i - 1);
    else if (what === "next") i = Math.min(last, i + 1);
    else if (what === "turnnext") {
      i = Math.min(last, i + 1);
      while (i < last && frames[i][1] !== 3) i++;
    } else if (what === "turnback") {
      i = Math.max(0, i - 1);
      while (i > 0 && frames[i][1] !== 3) i--;
    }
    this.go(i, -1);
  };

  Viewer.prototype.nextFinding = function (direction) {
    var count = this.findings.length;
    if (!count) return;
    var at = this.finding < 0 ? (direction > 0 ? 0 : count - 1) : (this.finding + direction + count) % count;
    this.showFinding(at);
  };

  Viewer.prototype.showFinding = function (at) {
    var finding = this.findings[at];
    if (!finding) return;
    if (finding.frame >= 0) this.go(finding.frame, at);
    else this.markFinding(at);
  };

  /* The last position at or before a line of the log (frames come in the order of their lines). */
  Viewer.prototype.goLine = function (line) {
    var frames = this.frames, at = 0;
    if (!frames.length) return;
    for (var i = 0; i < frames.length; i++) {
      if (frames[i][0] > line) break;
      if (frames[i][0] > 0) at = i;
    }
    this.go(at, -1);
  };

  Viewer.prototype.markFinding = function (at) {
    this.finding = at;
    this.section.setAttribute("data-finding", at >= 0 ? String(at) : "");
    var items = this.section.querySelectorAll("li.finding");
    for (var i = 0; i < items.length; i++) items[i].classList.toggle("current", i === at);
    var finding = this.findings[at];
    if (finding && finding.line > 0 && finding.source === this.data.source) this.showLine(finding.line, "at");
    this.renderBox();
  };

  Viewer.prototype.showLine = function (line, cls) {
    this.logView.mark(line, cls, !this.section.hidden);
  };

  /* The log beside the board. Only the lines in view (and a margin) are list items: a long log's
     lines are drawn as it scrolls, so the page is ready at once whatever the log's length. Every
     line is LINE pixels high (report.css: no wrapping), so a line's place is known without layout. */
  var LINE = 18, MARGIN = 30;

  function LogView(section, lines, bad) {
    this.lines = lines;
    this.bad = {};
    for (var i = 0; i < bad.length; i++) this.bad[bad[i]] = true;
    this.marked = { cur: 0, at: 0 };
    this.box = section.querySelector(".source");
    this.list = section.querySelector("ol.src");
    this.window = null;
    if (!this.list) return;
    section.querySelector(".src-sizer").style.height = (lines.length * LINE + 8) + "px";
    var self = this, pending = false;
    this.box.addEventListener("scroll", function () {
      if (pending) return;
      pending = true;
      requestAnimationFrame(function () { pending = false; self.draw(false); });
    });
    this.draw(true);
  }

  LogView.prototype.draw = function (force) {
    if (!this.list) return;
    var shown = this.box.clientHeight ? Math.ceil(this.box.clientHeight / LINE) : MARGIN;
    var first = Math.max(0, Math.floor(this.box.scrollTop / LINE) - MARGIN);
    var last = Math.min(this.lines.length, first + shown + 2 * MARGIN);
    var key = first + ":" + last + ":" + this.marked.cur + ":" + this.marked.at;
    if (!force && key === this.window) return;
    this.window = key;
    var items = document.createDocumentFragment();
    for (var n = first + 1; n <= last; n++) {
      var li = document.createElement("li");
      li.setAttribute("data-line", String(n));
      li.textContent = this.lines[n - 1];
      var classes = [];
      if (this.bad[n]) classes.push("bad");
      if (this.marked.cur === n) classes.push("cur");
      if (this.marked.at === n) classes.push("at");
      if (classes.length) li.className = classes.join(" ");
      items.appendChild(li);
    }
    this.list.style.top = (first * LINE + 4) + "px";
    this.list.replaceChildren(items);
  };

  LogView.prototype.mark = function (line, cls, scroll) {
    if (!this.list || line < 1 || line > this.lines.length) return;
    this.marked[cls] = line;
    if (scroll) this.box.scrollTop = Math.max(0, (line - 1) * LINE - this.box.clientHeight / 2);
    this.draw(true);
  };

  Viewer.prototype.go = function (i, finding) {
    var frames = this.frames;
    if (!frames.length) return;
    i = Math.max(0, Math.min(frames.length - 1, i));
    this.index = i;
    var here = this.byFrame[i] || [];
    if (finding === -1) finding = here.length ? here[0] : -1;
    this.section.setAttribute("data-frame", String(i));
    if (this.moved) this.moved(i);
    if (this.scrub) this.scrub.value = String(i);
    this.renderBoard(i, finding);
    this.renderSides(i);
    this.renderStatus(i);
    this.renderPlot(i);
    if (frames[i][0] > 0) this.showLine(frames[i][0], "cur");
    this.markFinding(finding);
  };

  Viewer.prototype.renderStatus = function (i) {
    var f = this.frames[i], text;
    if (f[1] === 0) text = "Start of play · " + SIDES[f[3]] + " to play turn " + turnLabel(f[2], f[3]);
    else if (f[1] === 3) {
      var before = this.frames[i - 1] || f;
      text = "End of turn " + turnLabel(before[2], before[3]) + " (" + SIDES[before[3]] + ")";
      if (this.data.result && i === this.frames.length - 1) text += " · " + this.data.result.detail;
      else text += " · " + SIDES[f[3]] + " to play turn " + turnLabel(f[2], f[3]);
    } else {
      text = "Turn " + turnLabel(f[2], f[3]) + " (" + SIDES[f[3]] + ") · " + (PHASES[f[4]] || "") +
        (f[1] === 1 ? " begins" : "");
    }
    if (f[0] > 0) text += " · line " + f[0];
    text += " · position " + (i + 1) + " of " + this.frames.length;
    this.status.textContent = text;
  };

  Viewer.prototype.renderBoard = function (i, finding) {
    var f = this.frames[i], board = this.decoded.boards[i], self = this;
    while (this.marks.firstChild) this.marks.removeChild(this.marks.firstChild);
    while (this.pieces.firstChild) this.pieces.removeChild(this.pieces.firstChild);
    function mark(sq, cls) {
      if (sq < 0 || sq > 63) return;
      el("rect", { "class": cls, x: LEFT + (sq & 7) * SQ + 1.5, y: (7 - (sq >> 3)) * SQ + 1.5, width: SQ - 3, height: SQ - 3 }, self.marks);
    }
    var bad = this.findings[finding];
    if (bad && bad.frame === i && (bad.from >= 0 || bad.to >= 0)) {
      mark(bad.from, "bad from");
      mark(bad.to, "bad to");
    } else if (f[1] === 2) {
      mark(f[10][0], "hl from");
      mark(f[10][1], "hl to");
    }
    var damage = {};
    for (var d = 0; d + 1 < f[6].length; d += 2) damage[f[6][d]] = f[6][d + 1];
    for (var sq = 0; sq < 64; sq++) {
      var c = board.charAt(sq);
      if (c === ".") continue;
      var white = c === c.toUpperCase(), letter = c.toUpperCase();
      var cx = LEFT + (sq & 7) * SQ + SQ / 2, cy = (7 - (sq >> 3)) * SQ + SQ / 2;
      var g = el("g", { "class": "pc " + (white ? "w" : "b") + (letter === "K" ? " king" : ""), "data-sq": squareName(sq) }, this.pieces);
      el("title", {}, g, SIDES[white ? 0 : 1] + " " + NAMES[letter] + " on " + squareName(sq) + (damage[sq] ? ", " + damage[sq] + " damage this turn" : ""));
      el("circle", { cx: cx, cy: cy, r: 15 }, g);
      el("text", { x: cx, y: cy + 5 }, g, letter);
      if (damage[sq]) {
        var badge = el("g", { "class": "dmg" }, g);
        el("circle", { cx: cx + 12, cy: cy - 12, r: 8 }, badge);
        el("text", { x: cx + 12, y: cy - 8.5 }, badge, String(damage[sq]));
      }
    }
  };

  Viewer.prototype.renderSides = function (i) {
    var f = this.frames[i], totals = f[7], gems = this.decoded.gems[i], cards = this.decoded.cards[i];
    var table = this.sides;
    while (table.firstChild) table.removeChild(table.firstChild);
    var head = h("tr", "", table);
    h("th", "", head, "");
    h("th", "w" + (f[3] === 0 ? " tomove" : ""), head, "White");
    h("th", "b" + (f[3] === 1 ? " tomove" : ""), head, "Black");
    function row(label, white, black, cls) {
      var tr = h("tr", cls || "", table);
      h("th", "", tr, label);
      h("td", "", tr, white);
      h("td", "", tr, black);
    }
    row("LP", totals[0], totals[3], "lp");
    row("SP", totals[1], totals[4], "sp");
    row("King damage", totals[2] + " / 20", totals[5] + " / 20", "kd");
    row("Gem", gemText(gems, 0), gemText(gems, 1), "gem");
    if (cards) {
      row("Relics in play", cards[0].join(", ") || "none", cards[1].join(", ") || "none", "relics");
      row("Spells cast", cards[2].join(", ") || "none", cards[3].join(", ") || "none", "spells");
      row("Cards in hand", cards[4], cards[5], "hand");
    }
  };

  Viewer.prototype.renderPlot = function (i) {
    if (!this.now) return;
    var x = this.plotX(i).toFixed(1), totals = this.frames[i][7], self = this;
    this.now.setAttribute("x1", x);
    this.now.setAttribute("x2", x);
    this.dots.forEach(function (d) {
      d[1].setAttribute("cx", x);
      d[1].setAttribute("cy", self.plotY(totals[d[0]], d[0]).toFixed(1));
    });
  };

  Viewer.prototype.renderBox = function () {
    var box = this.box;
    if (!box) return;
    while (box.firstChild) box.removeChild(box.firstChild);
    var finding = this.findings[this.finding];
    if (!finding || (finding.frame >= 0 && finding.frame !== this.index)) { box.hidden = true; return; }
    box.hidden = false;
    box.className = "finding-box " + finding.severity;
    var title = h("p", "title", box);
    h("span", "code", title, finding.code);
    h("span", "sev", title, " " + finding.severity);
    if (finding.line > 0) h("span", "where", title, " · " + (finding.source === this.data.source ? "line " + finding.line : finding.source + ":" + finding.line));
    h("p", "msg", box, finding.message);
    var facts = h("dl", "facts", box);
    function fact(term, value) {
      if (value === null || value === undefined || value === "") return;
      h("dt", "", facts, term);
      h("dd", "", facts, value);
    }
    fact("Rules", finding.rules.join(", "));
    fact("Expected", finding.expected);
    fact("Claimed", finding.claimed);
    if (finding.from >= 0 || finding.to >= 0) {
      fact("Squares", [finding.from, finding.to].filter(function (s) { return s >= 0; }).map(squareName).join(" → "));
    }
    fact("Hint", finding.hint);
    if (this.findings.length > 1) h("p", "count", box, "finding " + (this.finding + 1) + " of " + this.findings.length + " (n / p)");
  };

  function start() {
    var sections = Array.prototype.slice.call(document.querySelectorAll("section.log"));
    var viewers = [];
    sections.forEach(function (section) {
      var script = section.querySelector("script.sg-data");
      var data = JSON.parse(script.textContent);
      var svg = section.querySelector("svg");
      if (svg) NS = svg.namespaceURI;
      viewers.push(new Viewer(section, data));
    });
    var active = Number(document.body.getAttribute("data-open-log")) || 0;
    function show(which) {
      active = which;
      sections.forEach(function (section, i) { section.hidden = i !== which; });
      var viewer = viewers[which];
      if (viewer && viewer.index >= 0) viewer.go(viewer.index, viewer.finding);
      else if (viewer && viewer.finding >= 0) viewer.markFinding(viewer.finding);
    }
    viewers.forEach(function (viewer) {
      var open = viewer.data.open;
      if (open >= 0) viewer.showFinding(open);
      else if (viewer.frames.length) viewer.go(viewer.frames.length - 1, -1);
      else if (viewer.findings.length) viewer.markFinding(0);
    });
    /* A link to a position: #log-K/N opens log K at position N (#log-K at its first error); the
       address follows each move, so it can be copied into a dispute. */
    var wanted = /^#log-(\d+)(?:\/(\d+))?$/.exec(location.hash);
    if (wanted && Number(wanted[1]) < viewers.length) {
      active = Number(wanted[1]);
      var linked = viewers[active];
      if (wanted[2] !== undefined && Number(wanted[2]) < linked.frames.length) linked.go(Number(wanted[2]), -1);
    }
    var pick = document.querySelector("select.logpick");
    if (sections.length > 1 && pick) {
      pick.value = String(active);
      pick.addEventListener("change", function () { show(Number(pick.value)); });
    }
    show(active);
    viewers.forEach(function (viewer, k) {
      viewer.moved = function (i) {
        if (k !== active) return;
        try { history.replaceState(null, "", "#log-" + k + "/" + i); } catch (error) { /* a page without history */ }
      };
    });
    document.addEventListener("keydown", function (event) {
      var target = event.target;
      if (event.altKey || event.ctrlKey || event.metaKey) return;
      if (target instanceof Element && target.closest("select, input:not(.scrub), textarea")) return;
      var viewer = viewers[active];
      if (!viewer) return;
      var keys = { ArrowLeft: "back", ArrowRight: "next", ArrowUp: "turnback", ArrowDown: "turnnext",
        Home: "first", End: "last", n: "finding", p: "prevfinding" };
      var what = keys[event.key];
      if (!what) return;
      event.preventDefault();
      viewer.command(what);
    });
    root.setAttribute("data-ready", performance.now().toFixed(1));
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
