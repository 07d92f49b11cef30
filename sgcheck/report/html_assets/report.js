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

  /* The pieces in words, for a screen reader: "White: Ke1, Ra3; Black: Ke8" (King first). */
  function describeBoard(board) {
    var order = "KQRBNP", sides = [[], []];
    for (var kind = 0; kind < order.length; kind++) {
      for (var sq = 0; sq < 64; sq++) {
        var c = board.charAt(sq);
        if (c === order.charAt(kind)) sides[0].push(c + squareName(sq));
        else if (c === order.charAt(kind).toLowerCase()) sides[1].push(c.toUpperCase() + squareName(sq));
      }
    }
    return "White: " + (sides[0].join(", ") || "no pieces") + "; Black: " + (sides[1].join(", ") || "no pieces");
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
    this.explain = section.querySelector("section.explain");
    this.address = section.querySelector("a.address");
    this.ended = typeof data.ended === "number" ? data.ended : -1;
    this.current = null;
    this.byFrame = {};
    for (var i = 0; i < this.findings.length; i++) {
      var at = this.findings[i].frame;
      (this.byFrame[at] = this.byFrame[at] || []).push(i);
    }
    if (this.frames.length) {
      this.board = section.querySelector("svg.board");
      this.drawBoard(this.board);
      this.drawPlot(section.querySelector("svg.plot"), section.querySelector(".plot-text"));
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

  /* A step of 1, 2 or 5 times a power of ten, the smallest at least ``raw``. */
  function niceStep(raw) {
    var power = Math.pow(10, Math.floor(Math.log(Math.max(raw, 1e-9)) / Math.LN10));
    var steps = [1, 2, 5, 10];
    for (var i = 0; i < steps.length; i++) if (steps[i] * power >= raw) return steps[i] * power;
    return 10 * power;
  }

  var PLOT = { top: 22, bottom: 136, left: 44, right: 600, KING_HP: 20 };

  /* The first position of each turn number: the plot's ticks along the game. */
  function turnStarts(frames) {
    var starts = [], previous = null;
    for (var i = 0; i < frames.length; i++) {
      if (frames[i][2] !== previous) { starts.push([frames[i][2], i]); previous = frames[i][2]; }
    }
    return starts;
  }

  Viewer.prototype.drawPlot = function (svg, text) {
    var frames = this.frames, n = frames.length, P = PLOT, top = P.top, bottom = P.bottom, left = P.left, right = P.right;
    /* LP and SP on the left scale (up to the most either reaches, rounded up to a tick), King
       damage (totals 2 and 5) on its own right scale of 0 to 20, so it stays readable beside LP
       in the hundreds. */
    var most = 20, KING_HP = P.KING_HP;
    for (var i = 0; i < n; i++) for (var k = 0; k < 6; k++) if (k !== 2 && k !== 5) most = Math.max(most, frames[i][7][k]);
    var yStep = niceStep(most / 5);
    most = Math.ceil(most / yStep) * yStep;
    this.plotX = function (index) { return left + (n > 1 ? (right - left) * index / (n - 1) : 0); };
    this.plotY = function (value, total) {
      var scale = total === 2 || total === 5 ? KING_HP : most;
      return bottom - (bottom - top) * Math.min(value, scale) / scale;
    };
    var self = this, grid = el("g", { "class": "grid" }, svg);
    for (var v = 0; v <= most; v += yStep) {
      var y = this.plotY(v, 0);
      if (v > 0) el("line", { "class": "rule", x1: left, y1: y, x2: right, y2: y }, grid);
      el("text", { x: left - 6, y: y + 4.5, "class": "tick y" }, grid, String(v));
    }
    for (var kd = 0; kd <= KING_HP; kd += 5) {
      var ky = this.plotY(kd, 2);
      el("line", { x1: right, y1: ky, x2: right + 4, y2: ky }, grid);
      el("text", { x: right + 7, y: ky + 4.5, "class": "tick k" }, grid, String(kd));
    }
    el("text", { x: left - 6, y: top - 9, "class": "axis y" }, grid, "LP, SP");
    el("text", { x: right + 36, y: top - 9, "class": "axis k" }, grid, "King dmg");
    el("line", { x1: left, y1: bottom, x2: right, y2: bottom }, grid);
    el("line", { x1: left, y1: top, x2: left, y2: bottom }, grid);
    el("line", { x1: right, y1: top, x2: right, y2: bottom }, grid);
    /* A tick at each turn, labelled every 1, 2, 5, 10 … turns so the labels stay apart (and a
       label too close to the one before, where turns of few positions crowd, is left out). */
    var starts = turnStarts(frames), width = right - left, GAP = 30;
    var span = Math.max(1, starts.length ? starts[starts.length - 1][0] - starts[0][0] + 1 : 1);
    var every = niceStep(34 * span / width), minor = width / span >= 4, labelledAt = -Infinity;
    var ticks = el("g", { "class": "ticks" }, svg);
    starts.forEach(function (start, at) {
      var x = self.plotX(start[1]);
      var labelled = (start[0] % every === 0 || (at === 0 && every === 1)) && x - labelledAt >= GAP;
      if (labelled) labelledAt = x;
      if (!labelled && !minor) return;
      el("line", { "class": labelled ? "major" : "minor", x1: x, y1: bottom, x2: x, y2: bottom + (labelled ? 5 : 3) }, ticks);
      if (labelled) el("text", { x: x, y: bottom + 17, "class": "tick x", "data-turn": start[0], "data-frame": start[1] }, ticks, String(start[0]));
    });
    el("text", { x: right + 36, y: bottom + 31, "class": "axis x" }, ticks, "turn");
    var step = Math.max(1, Math.ceil(n / MAX_POINTS));
    var series = [[0, "lp w", "White LP"], [3, "lp b", "Black LP"], [1, "sp w", "White SP"], [4, "sp b", "Black SP"],
      [2, "kd w", "White King dmg (right)"], [5, "kd b", "Black King dmg (right)"]];
    this.dots = [];
    series.forEach(function (s, at) {
      var points = [];
      for (var j = 0; j < n; j += step) points.push(self.plotX(j).toFixed(1) + "," + self.plotY(frames[j][7][s[0]], s[0]).toFixed(1));
      if ((n - 1) % step !== 0) points.push(self.plotX(n - 1).toFixed(1) + "," + self.plotY(frames[n - 1][7][s[0]], s[0]).toFixed(1));
      el("polyline", { "class": "series " + s[1], points: points.join(" ") }, svg).appendChild(el("title", {}, null, s[2]));
      var x = 44 + (at % 3) * 200, y = 176 + Math.floor(at / 3) * 18;
      el("line", { "class": "series " + s[1], x1: x, y1: y - 4, x2: x + 22, y2: y - 4 }, svg);
      el("text", { "class": "legend", x: x + 28, y: y }, svg, s[2]);
    });
    this.now = el("line", { "class": "now", x1: left, y1: top, x2: left, y2: bottom }, svg);
    series.forEach(function (s) { self.dots.push([s[0], el("circle", { "class": "dot " + s[1], r: 3, cx: left, cy: bottom }, svg)]); });
    /* Hovering shows the values at a position; a click goes there. */
    var hover = el("line", { "class": "hover", x1: left, y1: top, x2: left, y2: bottom, visibility: "hidden" }, svg);
    var hit = el("rect", { "class": "hit", x: left - 4, y: top, width: width + 8, height: bottom - top + 18, fill: "transparent" }, svg);
    var tip = el("g", { "class": "tip", visibility: "hidden" }, svg);
    var TIP = 262, tipBox = el("rect", { x: 0, y: 0, width: TIP, height: 58, rx: 4 }, tip);
    var tipLines = [el("text", { x: 0, y: 0 }, tip), el("text", { x: 0, y: 0 }, tip), el("text", { x: 0, y: 0 }, tip)];
    this.tip = tip;
    function at(event) {
      var matrix = svg.getScreenCTM();
      if (!matrix || n === 0) return -1;
      var point = svg.createSVGPoint();
      point.x = event.clientX;
      point.y = event.clientY;
      var x = point.matrixTransform(matrix.inverse()).x;
      return n > 1 ? Math.max(0, Math.min(n - 1, Math.round((x - left) / width * (n - 1)))) : 0;
    }
    hit.addEventListener("mousemove", function (event) {
      var i = at(event);
      if (i < 0) return;
      var f = frames[i], t = f[7], x = self.plotX(i);
      hover.setAttribute("x1", x.toFixed(1));
      hover.setAttribute("x2", x.toFixed(1));
      hover.setAttribute("visibility", "visible");
      var texts = [
        "turn " + turnLabel(f[2], f[3]) + " · position " + i,
        "White LP " + t[0] + " · SP " + t[1] + " · King " + t[2] + "/20",
        "Black LP " + t[3] + " · SP " + t[4] + " · King " + t[5] + "/20"
      ];
      var boxX = x + 8 + TIP > right ? x - 8 - TIP : x + 8;
      tipBox.setAttribute("x", boxX);
      tipBox.setAttribute("y", top + 2);
      tipLines.forEach(function (line, k) {
        line.textContent = texts[k];
        line.setAttribute("x", boxX + 7);
        line.setAttribute("y", top + 18 + 17 * k);
      });
      tip.setAttribute("visibility", "visible");
      tip.setAttribute("data-frame", String(i));
    });
    hit.addEventListener("mouseleave", function () {
      hover.setAttribute("visibility", "hidden");
      tip.setAttribute("visibility", "hidden");
    });
    hit.addEventListener("click", function (event) {
      var i = at(event);
      if (i >= 0) self.go(i, -1);
    });
    this.describePlot(text, starts);
  };

  /* The plot in words, for whoever cannot see it: each series' first, last, lowest and highest value. */
  Viewer.prototype.describePlot = function (text, starts) {
    if (!text) return;
    var frames = this.frames, n = frames.length;
    function series(k, name, unit) {
      var low = Infinity, high = -Infinity, lowAt = 0, highAt = 0;
      for (var i = 0; i < n; i++) {
        var v = frames[i][7][k];
        if (v < low) { low = v; lowAt = i; }
        if (v > high) { high = v; highAt = i; }
      }
      return name + " " + frames[0][7][k] + unit + " at the start, " + frames[n - 1][7][k] + unit + " at the end, " +
        "lowest " + low + " (turn " + frames[lowAt][2] + "), highest " + high + " (turn " + frames[highAt][2] + ")";
    }
    var first = starts.length ? starts[0][0] : 0, last = starts.length ? starts[starts.length - 1][0] : 0;
    text.textContent = "The plot, over turns " + first + " to " + last + " (" + n + " positions): " + [
      series(0, "White LP", ""), series(1, "White SP", ""), series(2, "White King damage", "/20"),
      series(3, "Black LP", ""), series(4, "Black SP", ""), series(5, "Black King damage", "/20")
    ].join("; ") + ". The values at the current position are in the table of both sides.";
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
      if (line) {
        var number = Number(line.getAttribute("data-line"));
        self.goLine(number);
        self.logView.focus(number, false);
      }
    });
    this.section.addEventListener("keydown", function (event) {
      var target = event.target instanceof Element ? event.target : null;
      if (!target || event.altKey || event.ctrlKey || event.metaKey) return;
      var item = target.closest("li.finding");
      if (item && (event.key === "Enter" || event.key === " ")) {
        event.preventDefault();
        self.showFinding(Number(item.getAttribute("data-finding")));
        return;
      }
      /* On a line of the log: Enter or Space goes to its action, the arrows step line by line
         (the board following; ← and → still step positions), Home and End go to the first and the last line. */
      var line = target.closest("ol.src > li");
      if (!line) return;
      var number = Number(line.getAttribute("data-line")), count = self.logView.lines.length, to = 0;
      if (event.key === "Enter" || event.key === " ") to = number;
      else if (event.key === "ArrowDown") to = Math.min(count, number + 1);
      else if (event.key === "ArrowUp") to = Math.max(1, number - 1);
      else if (event.key === "Home") to = 1;
      else if (event.key === "End") to = count;
      else return;
      event.preventDefault();
      event.stopPropagation();
      self.goLine(to);
      self.logView.focus(to, true);
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

  /* The position of a line of the log: its statement's (the first on the line, or the next one
     on it when one is shown already), else the last position the line produced (a label, the
     end of a turn it passes), else the last position before it (a comment, a blank line). */
  Viewer.prototype.goLine = function (line) {
    var frames = this.frames, before = 0, statements = [], last = -1;
    if (!frames.length) return;
    for (var i = 0; i < frames.length; i++) {
      var at = frames[i][0];
      if (at > line) break;
      if (at <= 0) continue;
      if (at === line) {
        last = i;
        if (frames[i][1] === 2) statements.push(i);
      } else before = i;
    }
    var to = last >= 0 ? last : before;
    if (statements.length) {
      var shown = statements.indexOf(this.index);
      to = statements[shown >= 0 ? (shown + 1) % statements.length : 0];
    }
    this.go(to, -1);
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
     lines are drawn as it scrolls, so the page is ready at once whatever the log's length. Lines
     wrap (report.css), so none is cut off; each takes as many rows of LINE pixels as its length
     needs at the pane's width in characters (the font is monospaced), so a line's place is known
     without laying out the lines above it. The rows of the lines drawn are then checked against
     the browser's layout (a wide character takes two columns), and corrected where they differ. */
  var LINE = 18, MARGIN = 30, TAB = 8;

  function LogView(section, lines, bad) {
    this.lines = lines;
    this.bad = {};
    for (var i = 0; i < bad.length; i++) this.bad[bad[i]] = true;
    this.marked = { cur: 0, at: 0 };
    this.focused = 0;  // the line that takes the Tab key's focus (0: the current one)
    this.box = section.querySelector(".source");
    this.list = section.querySelector("ol.src");
    this.sizer = section.querySelector(".src-sizer");
    this.window = null;
    this.width = -1;
    this.rows = null;  // each line's rows, where the browser laid it out otherwise than counted
    this.tops = null;  // tops[n]: the rows above line n + 1
    if (!this.list) return;
    var self = this;
    /* a browser sends at most one scroll event a frame, and draw does nothing while the lines in
       view stay the same */
    this.box.addEventListener("scroll", function () { self.draw(false); });
    window.addEventListener("resize", function () { self.draw(false); });
    this.draw(true);
  }

  function columns(text) {
    var width = 0;
    for (var i = 0; i < text.length; i++) width = text.charCodeAt(i) === 9 ? width + TAB - width % TAB : width + 1;
    return width;
  }

  /* How many characters a row holds at the pane's width, and where each line starts. */
  LogView.prototype.layout = function () {
    var probe = document.createElement("li");
    probe.className = "probe";
    probe.textContent = "0000000000";
    this.list.appendChild(probe);
    var style = getComputedStyle(probe), text = document.createElement("span");
    text.textContent = "0000000000";
    probe.textContent = "";
    probe.appendChild(text);
    var glyph = text.getBoundingClientRect().width / 10 || 7.5;
    var room = probe.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
    this.list.removeChild(probe);
    this.perRow = Math.max(8, Math.floor((room + 0.5) / glyph));
    this.width = this.box.clientWidth;
    this.rows = {};
    this.count();
  };

  LogView.prototype.count = function () {
    var n = this.lines.length, tops = new Float64Array(n + 1), perRow = this.perRow;
    for (var i = 0; i < n; i++) {
      var rows = this.rows[i + 1] || Math.max(1, Math.ceil(columns(this.lines[i]) / perRow));
      tops[i + 1] = tops[i] + rows;
    }
    this.tops = tops;
    this.sizer.style.height = (tops[n] * LINE + 8) + "px";
  };

  /* The first line whose rows reach below ``row``. */
  LogView.prototype.lineAt = function (row) {
    var low = 0, high = this.lines.length;
    while (low < high) {
      var mid = (low + high) >> 1;
      if (this.tops[mid + 1] <= row) low = mid + 1;
      else high = mid;
    }
    return low;
  };

  LogView.prototype.draw = function (force) {
    if (!this.list) return;
    if (this.box.clientWidth && this.box.clientWidth !== this.width) { this.layout(); force = true; }
    if (!this.tops) { this.rows = {}; this.perRow = 80; this.count(); }
    var shown = this.box.clientHeight ? Math.ceil(this.box.clientHeight / LINE) : MARGIN;
    var first = Math.max(0, this.lineAt(Math.floor(this.box.scrollTop / LINE)) - MARGIN);
    var last = Math.min(this.lines.length, this.lineAt(Math.floor(this.box.scrollTop / LINE) + shown) + MARGIN);
    var tabbed = this.focused || this.marked.cur;
    if (tabbed <= first || tabbed > last) tabbed = first + 1;
    var key = first + ":" + last + ":" + this.marked.cur + ":" + this.marked.at + ":" + tabbed;
    if (!force && key === this.window) return;
    this.window = key;
    var active = document.activeElement, had = active && this.list.contains(active) ? Number(active.getAttribute("data-line")) : 0;
    var items = document.createDocumentFragment(), byLine = {};
    for (var n = first + 1; n <= last; n++) {
      var li = document.createElement("li");
      li.setAttribute("data-line", String(n));
      li.setAttribute("tabindex", n === tabbed ? "0" : "-1");
      li.textContent = this.lines[n - 1];
      var classes = [];
      if (this.bad[n]) classes.push("bad");
      if (this.marked.cur === n) { classes.push("cur"); li.setAttribute("aria-current", "step"); }
      if (this.marked.at === n) classes.push("at");
      if (classes.length) li.className = classes.join(" ");
      items.appendChild(li);
      byLine[n] = li;
    }
    this.list.style.top = (this.tops[first] * LINE + 4) + "px";
    this.list.replaceChildren(items);
    if (had && byLine[had]) byLine[had].focus({ preventScroll: true });
    if (this.box.clientWidth) this.check(first, last, byLine);
  };

  /* The rows the browser gave the lines drawn, where they differ from those counted. */
  LogView.prototype.check = function (first, last, byLine) {
    var changed = false;
    for (var n = first + 1; n <= last; n++) {
      var rows = Math.max(1, Math.round(byLine[n].offsetHeight / LINE));
      if (rows !== this.tops[n] - this.tops[n - 1]) { this.rows[n] = rows; changed = true; }
    }
    if (!changed) return;
    this.count();
    this.list.style.top = (this.tops[first] * LINE + 4) + "px";
  };

  LogView.prototype.scrollTo = function (line, center) {
    var top = this.tops[line - 1] * LINE, bottom = this.tops[line] * LINE, height = this.box.clientHeight;
    if (center) this.box.scrollTop = Math.max(0, (top + bottom) / 2 - height / 2);
    else if (top < this.box.scrollTop) this.box.scrollTop = top;
    else if (bottom + 8 > this.box.scrollTop + height) this.box.scrollTop = bottom + 8 - height;
  };

  LogView.prototype.mark = function (line, cls, scroll) {
    if (!this.list || line < 1 || line > this.lines.length) return;
    this.marked[cls] = line;
    if (scroll) {
      this.draw(false);
      this.scrollTo(line, true);
    }
    this.draw(true);
  };

  /* Give a line the keyboard's focus (and keep it in view). */
  LogView.prototype.focus = function (line, scroll) {
    if (!this.list || line < 1 || line > this.lines.length) return;
    this.focused = line;
    if (scroll) this.scrollTo(line, false);
    this.draw(true);
    var item = this.list.querySelector('li[data-line="' + line + '"]');
    if (item) item.focus({ preventScroll: true });
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
    if (this.address) {
      this.address.setAttribute("href", "#" + this.section.id + "/" + i);
      this.address.textContent = "#" + this.section.id + "/" + i;
      this.address.parentNode.hidden = false;
    }
    if (this.scrub) this.scrub.value = String(i);
    this.renderBoard(i, finding);
    this.renderSides(i);
    this.renderStatus(i);
    this.renderPlot(i);
    this.renderExplain(i);
    if (frames[i][0] > 0) this.showLine(frames[i][0], "cur");
    this.markFinding(finding);
  };

  /* Whether the game is over at position i (then no side is to play). */
  Viewer.prototype.over = function (i) {
    return this.ended >= 0 && i >= this.ended;
  };

  Viewer.prototype.renderStatus = function (i) {
    var f = this.frames[i], text, over = this.over(i), result = this.data.result;
    var next = over ? "" : " · " + SIDES[f[3]] + " to play turn " + turnLabel(f[2], f[3]);
    if (f[1] === 0) text = "Start of play" + next;
    else if (f[1] === 3) {
      var before = this.frames[i - 1] || f;
      text = "End of turn " + turnLabel(before[2], before[3]) + " (" + SIDES[before[3]] + ")" + next;
    } else {
      text = "Turn " + turnLabel(f[2], f[3]) + " (" + SIDES[f[3]] + ") · " + (PHASES[f[4]] || "") +
        (f[1] === 1 ? " begins" : "");
    }
    if (over && result) text += " · game over: " + result.detail + " (" + result.score + ")";
    if (f[0] > 0) text += " · line " + f[0];
    text += " · position " + i + " of " + (this.frames.length - 1);
    this.status.textContent = text;
    this.status.classList.toggle("over", over);
  };

  Viewer.prototype.renderBoard = function (i, finding) {
    var f = this.frames[i], board = this.decoded.boards[i], self = this;
    while (this.marks.firstChild) this.marks.removeChild(this.marks.firstChild);
    while (this.pieces.firstChild) this.pieces.removeChild(this.pieces.firstChild);
    var marked = [];
    function mark(sq, cls) {
      if (sq < 0 || sq > 63) return;
      marked.push(squareName(sq));
      el("rect", { "class": cls, x: LEFT + (sq & 7) * SQ + 1.5, y: (7 - (sq >> 3)) * SQ + 1.5, width: SQ - 3, height: SQ - 3,
        "data-sq": squareName(sq) }, self.marks);
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
    this.board.setAttribute("aria-label", "Board at position " + i + ". " + describeBoard(board) +
      (marked.length ? ". Squares marked: " + marked.join(" to ") : ""));
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
    var over = this.over(i), result = this.data.result;
    if (over && result) h("caption", "over", table, "Game over: " + result.detail + " (" + result.score + ")");
    var head = h("tr", "", table);
    h("th", "", head, "");
    h("th", "w" + (f[3] === 0 && !over ? " tomove" : ""), head, "White");
    h("th", "b" + (f[3] === 1 && !over ? " tomove" : ""), head, "Black");
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

  var PHASE_NAMES = { upkeep: "Upkeep", main1: "Main 1", battle: "Battle", main2: "Main 2", end: "End" };

  function list(value) {
    return Object.prototype.toString.call(value) === "[object Array]" ? value : [];
  }

  function shownValue(value) {
    return typeof value === "string" ? value : JSON.stringify(value);
  }

  var PHASE_KEYS = ["upkeep", "main1", "battle", "main2", "end"], SIDE_KEYS = ["white", "black"];

  /* The last n characters of the log's line (numbered from 1). */
  function lineEnd(lines, line, n) {
    var text = (lines || [])[line - 1] || "";
    return text.slice(Math.max(0, text.length - n));
  }

  /* The explanation of position i as replay wrote it (sgcheck/replay/explain.py), from the page's
     compact form (sgcheck/report/compact.py): field 11 is [statement, facts, legal, differs],
     indices into the log's tables (a statement -n: the last n characters of the frame's line); line, turn, side, phase and the totals after come from the
     frame (an end of turn's turn and side from the frame before it) unless differs says
     otherwise. null: no explanation. */
  Viewer.prototype.explanation = function (i) {
    var f = this.frames[i], x = f.length > 11 ? f[11] : null, t = this.data.explained;
    if (!x || !t || Object.prototype.toString.call(x) !== "[object Array]") return null;
    var turnEnd = f[1] === 3, told = turnEnd && i > 0 ? this.frames[i - 1] : f;
    var differs = x.length > 3 && x[3] && typeof x[3] === "object" ? x[3] : {};
    function own(name, derived) {
      return Object.prototype.hasOwnProperty.call(differs, name) ? differs[name] : derived;
    }
    var totals = f[7], after = {
      white: { lp: totals[0], sp: totals[1], king_damage: totals[2] },
      black: { lp: totals[3], sp: totals[4], king_damage: totals[5] }
    };
    return {
      line: own("line", f[0]),
      turn: own("turn", told[2]),
      side: own("side", SIDE_KEYS[told[3]]),
      phase: own("phase", turnEnd ? "end" : PHASE_KEYS[f[4]]),
      statement: x[0] < 0 ? lineEnd(this.data.lines, f[0], -x[0]) : t.strings[x[0]],
      legal: x.length > 2 ? x[2] !== 0 : true,
      facts: list(x[1]).map(function (n) {
        var fact = t.facts[n], kind = t.kinds[fact[0]], flat = list(fact[3]), parts = [];
        for (var k = 0; k + 1 < flat.length; k += 2) parts.push({ label: t.strings[flat[k]], value: flat[k + 1] });
        return { key: kind[0], label: kind[1], text: t.strings[fact[1]], rules: t.rules[fact[2]], parts: parts };
      }),
      after: own("after", after)
    };
  };

  /* What the action at this position did, as replay explains it (the statement, each fact with
     the rules it comes from and its parts, the totals after); no explanation: none. */
  Viewer.prototype.renderExplain = function (i) {
    var box = this.explain;
    if (!box) return;
    while (box.firstChild) box.removeChild(box.firstChild);
    var x = this.explanation(i);
    h("h3", "", box, "The action");
    if (!x) {
      box.className = "explain empty";
      h("p", "none", box, "No action at this position.");
      return;
    }
    box.className = "explain " + (x.legal === false ? "illegal" : "legal");
    var side = x.side === "black" ? 1 : 0;
    h("p", "where", box, "line " + x.line + " · turn " + turnLabel(x.turn, side) + " (" + SIDES[side] + ") · " +
      (PHASE_NAMES[x.phase] || String(x.phase)));
    var said = h("p", "statement", box);
    h("code", "", said, x.statement);
    h("span", "verdict " + (x.legal === false ? "bad" : "good"), said, x.legal === false ? " illegal" : " legal");
    var facts = list(x.facts);
    if (facts.length) {
      var ul = h("ul", "facts", box);
      facts.forEach(function (fact) {
        var li = h("li", "fact", ul);
        li.setAttribute("data-key", String(fact.key));
        h("span", "label", li, fact.label);
        li.appendChild(document.createTextNode(": "));
        h("span", "text", li, fact.text !== undefined && fact.text !== null ? fact.text : shownValue(fact.value));
        var rules = list(fact.rules);
        if (rules.length) h("span", "rules", li, " (" + rules.join(", ") + ")");
        var parts = list(fact.parts);
        if (parts.length) {
          var sub = h("ul", "parts", li);
          parts.forEach(function (part) { h("li", "part", sub, part.label + ": " + shownValue(part.value)); });
        }
      });
    }
    var after = x.after;
    if (after && typeof after === "object") {
      var table = h("table", "after", box);
      h("caption", "", table, "After the action");
      var head = h("tr", "", table);
      ["", "LP", "SP", "King damage"].forEach(function (name) { h("th", "", head, name); });
      [["white", "White"], ["black", "Black"]].forEach(function (pair) {
        var totals = after[pair[0]];
        if (!totals || typeof totals !== "object") return;
        var tr = h("tr", pair[0], table);
        h("th", "", tr, pair[1]);
        h("td", "lp", tr, totals.lp);
        h("td", "sp", tr, totals.sp);
        h("td", "kd", tr, totals.king_damage + " / 20");
      });
    }
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

  /* An address of the page: "#log-L" (log L, numbered from 0 in the page's order) or
     "#log-L/P" (its position P, numbered from 0, the start of play, as the status line numbers
     them). {log, position} (position -1: none given), {error}, or null for any other fragment. */
  function parseAddress(hash, viewers) {
    if (!/^#log-/.test(hash)) return null;
    var shown = hash.length > 40 ? hash.slice(0, 40) + "…" : hash;
    var parts = /^#log-(\d{1,9})(?:\/(\d{1,9}))?$/.exec(hash);
    if (!parts) return { error: "The address " + shown + " is not one of this page's: #log-L opens log L, #log-L/P its position P." };
    var log = Number(parts[1]);
    if (log >= viewers.length) {
      return { error: "There is no log " + log + " in this page (" + shown + "): its logs are numbered 0 to " + (viewers.length - 1) + "." };
    }
    if (parts[2] === undefined) return { log: log, position: -1 };
    var position = Number(parts[2]), count = viewers[log].frames.length;
    if (position >= count) {
      return {
        log: log, position: -1,
        error: "Log " + log + " has no position " + position + " (" + shown + "): " +
          (count ? "its positions are numbered 0 to " + (count - 1) + "." : "it has no positions.")
      };
    }
    return { log: log, position: position };
  }

  function start() {
    var sections = Array.prototype.slice.call(document.querySelectorAll("section.log"));
    var viewers = [];
    sections.forEach(function (section, k) {
      var script = section.querySelector("script.sg-data");
      var data = JSON.parse(script.textContent);
      var svg = section.querySelector("svg");
      if (svg) NS = svg.namespaceURI;
      var plot = section.querySelector("svg.plot"), words = section.querySelector(".plot-text");
      if (plot && words) {
        words.id = "plot-text-" + k;
        plot.setAttribute("aria-describedby", words.id);
      }
      viewers.push(new Viewer(section, data));
    });
    var active = Number(document.body.getAttribute("data-open-log")) || 0;
    var note = document.querySelector(".address-note");
    var pick = document.querySelector("select.logpick");
    function show(which) {
      active = which;
      if (pick) pick.value = String(which);
      sections.forEach(function (section, i) { section.hidden = i !== which; });
      var viewer = viewers[which];
      if (viewer && viewer.index >= 0) viewer.go(viewer.index, viewer.finding);
      else if (viewer && viewer.finding >= 0) viewer.markFinding(viewer.finding);
    }
    function opening(viewer) {
      var open = viewer.data.open;
      if (open >= 0) viewer.showFinding(open);
      else if (viewer.frames.length) viewer.go(viewer.frames.length - 1, -1);
      else if (viewer.findings.length) viewer.markFinding(0);
    }
    viewers.forEach(opening);
    /* A link to a position: the address follows each move, so it can be copied into a dispute;
       one that names no log or position of the page says so and moves nothing. */
    var holding = false;  // an address that names nothing stays as it was typed
    function navigate(hash, first) {
      var wanted = parseAddress(hash, viewers), found = Boolean(wanted && wanted.log !== undefined);
      holding = Boolean(wanted && wanted.error);
      if (found) {
        var viewer = viewers[wanted.log];
        if (wanted.position >= 0) viewer.go(wanted.position, -1);
        else if (!first && !wanted.error) opening(viewer);
        show(wanted.log);
      }
      holding = false;
      if (note) {
        note.hidden = !(wanted && wanted.error);
        note.textContent = wanted && wanted.error ? wanted.error : "";
      }
      return found;
    }
    if (!navigate(location.hash, true)) show(active);
    if (sections.length > 1 && pick) {
      pick.addEventListener("change", function () { show(Number(pick.value)); });
    }
    viewers.forEach(function (viewer, k) {
      viewer.moved = function (i) {
        if (k !== active || holding) return;
        if (note) note.hidden = true;
        try { history.replaceState(null, "", "#log-" + k + "/" + i); } catch (error) { /* a page without history */ }
      };
    });
    window.addEventListener("hashchange", function () { navigate(location.hash, false); });
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
