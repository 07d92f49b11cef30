"""The line reader: every layout of a game log, read into compact statements at regex speed.

Why it exists: the grammar (:mod:`sgcheck.lang.logs.grammar`) is the reference for the syntax
and the one source of syntax error messages, but Lark makes several Python calls per token,
and a replay of a long log would spend most of its time there. Nearly every turn of nearly
every log is well formed, and replay never looks at the syntax tree of a turn that is legal.
This reader matches one regular expression per *statement* (with its turn header, phase label
and claims), so the per-token work happens inside the regular expression engine, and turns each
match straight into the core action and the ``(kind, value)`` claims it stands for.

It accepts every layout the format allows: keywords in any case, any spacing, ``;`` and
``{...}`` comments anywhere between words, a statement continued over several lines, several
statements on a line. Its terminals are the grammar's (``TERMINALS``; a test compares them
with ``grammar/sglog.lark``). It hands the grammar one item, never the file:

- a turn it cannot read (a syntax error, an ``activate``, a ``play`` or a ``reveal``, anything it does not
  know) is read by the grammar from the start of that turn in the same text, which gives the
  exact syntax tree or the exact error, as a reading of the whole file would;
- an item is handed out only once the start of the next item (or the end) has been seen, so
  text after an item that is not the start of another sends that item to the grammar too, and
  the error is reported in the parser state a whole-file reading would be in.

A :class:`PlainTurn` carries what replay needs (the steps) and, on request, its syntax tree
(:meth:`PlainTurn.tree`), read by the grammar from the turn's start. Header tags, setup lines
and result lines are read into their syntax-tree nodes directly (they are few, and replay
needs their spans).

The text is read a piece at a time (:attr:`SourceText.pieces`), so a clean log is replayed
without ever joining its text; the first item the grammar reads (or the first tree replay asks
for) joins it, and the reader goes on in the whole text.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import replace
from typing import NamedTuple

from sgcheck.core.actions import Action, Attack, Break, Convert, Move, Repair, Summon, Teleport
from sgcheck.core.caps import MAX_NUMBER_DIGITS
from sgcheck.core.pieces import BLACK, WHITE, Color, Kind, Phase
from sgcheck.core.squares import Square
from sgcheck.core.state import Payment
from sgcheck.diagnostics import Span
from sgcheck.lang.logs.ast import (
    CardName,
    ClaimKind,
    ColourChoice,
    Dice,
    Draft,
    Header,
    KingPlacement,
    LogItem,
    ResultLine,
    RollOff,
    SquareRef,
    Tag,
    Turn,
)
from sgcheck.lang.logs.grammar import Resume, items_from
from sgcheck.lang.logs.vocab import APPLICABLE, FLAG_CLAIMS, KINDS, PHASES, SQUARES, VALUE_CLAIMS
from sgcheck.lang.source import SourceText
from sgcheck.letters import ascii_lower

# --- the terminals, as the grammar writes them ------------------------------------------------------

_DIGITS = f"[0-9]{{1,{MAX_NUMBER_DIGITS}}}"  # a longer number is the grammar's to report (SG-P012)


#: Every pattern is compiled with re.ASCII, as the grammar's are: a keyword is ASCII letters in any
#: case ('ſ' is no 's', the Kelvin sign no 'k'), ``\w`` is ASCII, and only the whitespace between
#: words is Unicode whitespace (``(?u:\s)``, as the grammar's ``_TAIL`` and ``WS``).
_ASCII = re.ASCII


def _keyword(word: str) -> str:
    return f"(?i:{re.escape(word)})(?![\\w-])"


#: The grammar's terminals that the reader uses, without the whitespace each token swallows
#: (``_TAIL``). Numbers are limited to MAX_NUMBER_DIGITS digits here; everything else is the
#: grammar's pattern character for character (tests/lang/test_log_reader.py compares them).
TERMINALS: dict[str, str] = {
    "TURN": r"[0-9]+\.(?:\.\.)?",
    "PHASE": r"(?:upkeep|main1|battle|main2|end)[ \t]*:",  # case-insensitive
    "REF": r"[KQRBNP]?[a-h][1-8](?![\w-])",
    "SQUARE": r"[a-h][1-8](?![\w-])",
    "PIECE_LETTER": r"[KQRBNP](?![\w-])",
    "INT": r"[0-9]+(?![\w.-])",
    "AMOUNT": r"[0-9]+(?:sp|lp)(?![\w-])",  # case-insensitive
    "SCORE": r"(?:1-0|0-1|1\/2-1\/2|\*)(?![\w\/*-])",
    "REASON": r"(?:conversion|lp1000|turn-limit|scenario)(?![\w-])",  # case-insensitive
    "STRING": r'"(?:[^"\\\n\r]++|\\["\\])*+"',
    "TAG_NAME": r"[A-Za-z][A-Za-z0-9_]*",
    "COMMENT": r";[^\n]*",
    "BRACE_COMMENT": r"\{[^}]*\}",
}
#: Keywords: each the grammar's ``/word(?![\w-])/i``.
KEYWORDS: tuple[str, ...] = (
    "draft", "rolloff", "choose", "king", "white", "black", "result",
    "summon", "move", "attack", "roll", "reroll", "advantage", "convert", "teleport", "break", "repair", "activate",
    "play", "on", "reveal", "to", "pass", "income",
    "cost", "pay", "lp", "sp", "threshold", "hit", "miss", "damage", "king-damage", "capture", "converts",
    "success", "fail", "gain",
)  # fmt: skip

_K = _keyword


def _possessive(pattern: str) -> str:
    """``pattern`` with its ``*`` runs possessive: the same words, matched without backtracking."""
    return pattern.replace("]*", "]*+")


#: Whitespace and comments between two words (the grammar's ignored terminals), never backtracking.
_SEP = rf"(?:(?u:\s)++|{_possessive(TERMINALS['COMMENT'])}|{_possessive(TERMINALS['BRACE_COMMENT'])})*+"
_S = _SEP
_SQ = TERMINALS["SQUARE"]
_KIND = TERMINALS["PIECE_LETTER"].removesuffix(r"(?![\w-])")
_INT = TERMINALS["INT"].replace("[0-9]+", _DIGITS, 1)
_AMOUNT = "(?i:" + TERMINALS["AMOUNT"].replace("[0-9]+", _DIGITS, 1) + ")"
_DICE = f"{_INT}(?:{_S}{_INT})*+"
_PHASE = f"(?i:{TERMINALS['PHASE']})"
_VALUE_CLAIM = f"(?:{'|'.join(_K(w) for w in sorted(VALUE_CLAIMS, key=len, reverse=True))}){_S}{_INT}"
_FLAG_CLAIM = "|".join(_K(w) for w in FLAG_CLAIMS)
_CLAIM = f"(?:{_VALUE_CLAIM}|{_FLAG_CLAIM}|{_K('pay')}{_S}{_AMOUNT}(?:{_S}{_AMOUNT})?|{_K('gain')}{_S}{_AMOUNT})"

#: Each statement the reader reads, with a group for every part (``activate``, ``play`` and
#: ``reveal`` are left to the grammar). An attack's second roll is exactly two dice, as in the grammar.
_STATEMENT_FORMS = (
    rf"{_K('move')}{_S}(?P<mk>{_KIND})?(?P<mf>{_SQ}){_S}(?P<mt>{_SQ})(?:{_S}(?P<mv>{_SQ}))?",
    rf"{_K('attack')}{_S}(?P<ak>{_KIND})?(?P<af>{_SQ}){_S}(?P<tk>{_KIND})?(?P<at>{_SQ}){_S}{_K('roll')}{_S}"
    rf"(?P<ar>{_DICE})(?:{_S}(?P<aw>{_K('reroll')}|{_K('advantage')}){_S}(?P<as>{_INT}{_S}{_INT}))?",
    rf"{_K('summon')}{_S}(?:(?P<sk>{_KIND})(?![\w-]){_S}(?P<st>{_SQ})|(?P<sk2>{_KIND})(?P<st2>{_SQ}))",
    rf"{_K('teleport')}{_S}(?P<pk>{_KIND})?(?P<pf>{_SQ}){_S}(?P<pt>{_SQ})",
    rf"(?P<dw>{_K('break')}|{_K('repair')}){_S}{_K('roll')}{_S}(?P<dr>{_DICE})",
    rf"(?P<nw>{_K('convert')}|{_K('income')}){_S}(?P<n>{_INT})",
    rf"(?P<pw>{_K('pass')})",
)
_UNNAMED = re.compile(r"\(\?P<[a-z0-9]+>")

#: One step of a turn: a turn header, a phase label, a statement with its claims (each optional,
#: at least one present), and the separators after it.
_STEP = re.compile(
    rf"(?:(?P<num>{_DIGITS})\.(?P<black>\.\.)?{_S})?"
    rf"(?:(?P<phase>{_PHASE}){_S})?"
    rf"(?:(?P<stmt>{'|'.join(_UNNAMED.sub('(?:', form) for form in _STATEMENT_FORMS)})"
    rf"(?P<claims>(?:{_S}{_CLAIM})*+){_S})?",
    _ASCII,
)
_BLANK = re.compile(_SEP, _ASCII)
#: The start of an item after a turn or a setup line: a turn header, a setup or result keyword.
_ITEM_START = re.compile(
    rf"{_DIGITS}\.|(?:{'|'.join(_K(w) for w in ('draft', 'rolloff', 'choose', 'king', 'result'))})", _ASCII
)
_COLOR = f"(?P<color>{_K('white')}|{_K('black')})"
_TAG = re.compile(rf"\[{_S}(?P<name>{TERMINALS['TAG_NAME']}){_S}(?P<value>{TERMINALS['STRING']}){_S}\]", _ASCII)
_KING = re.compile(rf"{_K('king')}{_S}{_COLOR}{_S}(?P<sq>{_SQ})", _ASCII)
_CHOOSE = re.compile(rf"{_K('choose')}{_S}{_COLOR}", _ASCII)
_ROLLOFF = re.compile(
    rf"{_K('rolloff')}{_S}{_K('white')}{_S}(?P<w1>{_INT}){_S}(?P<w2>{_INT}){_S}(?P<w3>{_INT}){_S}"
    rf"{_K('black')}{_S}(?P<b1>{_INT}){_S}(?P<b2>{_INT}){_S}(?P<b3>{_INT})",
    _ASCII,
)
_DRAFT = re.compile(
    rf"{_K('draft')}{_S}{_COLOR}(?P<names>(?:{_S}{TERMINALS['STRING']})++)", _ASCII
)
_STRING = re.compile(TERMINALS["STRING"], _ASCII)
_SETUP: dict[str, re.Pattern[str]] = {}  # filled below: the first two letters of the keyword
_RESULT = re.compile(
    rf"{_K('result')}{_S}(?P<score>{TERMINALS['SCORE']})(?:{_S}(?P<reason>(?i:{TERMINALS['REASON']})))?", _ASCII
)
_ESCAPE = re.compile(r"\\(.)")
_SETUP.update(ki=_KING, ch=_CHOOSE, ro=_ROLLOFF, dr=_DRAFT, re=_RESULT)

# --- what the reader produces ------------------------------------------------------------------------

#: One claim as replay checks it: its kind and its number (None for a word such as ``hit``).
StepClaim = tuple[ClaimKind, int | None]


class Step(NamedTuple):
    """One step of a turn: a header, a phase label and a statement, each possibly absent."""

    number: int | None  # a turn header: its number
    color: Color | None  # ... and whose turn it is
    phase: Phase | None  # a phase label
    word: str | None  # the statement's word ("move", "pass", "income", ...), if there is one
    action: Action | None  # the core action it stands for (None for pass and income)
    claims: tuple[StepClaim, ...]  # what the log claims about it (a stated payment is in the action)
    amount: int  # income: the amount written


class PlainTurn:
    """A turn the reader read: whose turn, its steps, and its syntax tree on request."""

    __slots__ = ("color", "number", "offset", "source", "steps")

    def __init__(self, number: int, color: Color, steps: list[Step], source: SourceText, offset: int) -> None:
        self.number, self.color, self.steps, self.source, self.offset = number, color, steps, source, offset

    def tree(self) -> Turn:
        """The syntax tree of this turn, read by the grammar from its first character."""
        line, column = self.source.position(self.offset)
        item, _next = next(items_from(self.source, self.offset, line, column, header=False))
        assert isinstance(item, Turn)
        return item


# --- reading a statement -----------------------------------------------------------------------------


_COMMENTS = re.compile(rf"{TERMINALS['COMMENT']}|{TERMINALS['BRACE_COMMENT']}", _ASCII)


def _ref(word: str) -> tuple[Kind | None, Square]:
    """A piece reference the step pattern matched: ``Ra1`` or ``a1``."""
    return (KINDS[word[0]], SQUARES[word[1:]]) if len(word) == 3 else (None, SQUARES[word])


def _statement(text: str) -> tuple[str, Action | None, int]:
    """A statement without its claims: its word, the core action (without a stated payment),
    and the amount of an income statement.

    The step pattern has matched the statement, so its words are known to be well formed and
    in their places; they are read by position (comments between them dropped first)."""
    if ";" in text or "{" in text:
        text = _COMMENTS.sub(" ", text)
    words = text.split()
    word = words[0].lower()
    if word == "move":
        kind, frm = _ref(words[1])
        if len(words) == 4:  # by way of a middle square: move Ng1 f3 d4
            return word, Move(frm, SQUARES[words[3]], SQUARES[words[2]], kind), 0
        return word, Move(frm, SQUARES[words[2]], None, kind), 0
    if word == "attack":
        kind, frm = _ref(words[1])
        target_kind, target = _ref(words[2])
        second = words[-3].lower()
        if second != "reroll" and second != "advantage":
            return word, Attack(frm, target, tuple(map(int, words[4:])), kind, target_kind), 0
        roll, faces = tuple(map(int, words[4:-3])), (int(words[-2]), int(words[-1]))
        return word, Attack(frm, target, roll, kind, target_kind, None, faces, second == "advantage"), 0
    if word == "summon":
        where = words[2] if len(words) == 3 else words[1][1:]
        return word, Summon(KINDS[words[1][0]], SQUARES[where]), 0
    if word == "teleport":
        kind, frm = _ref(words[1])
        return word, Teleport(frm, SQUARES[words[2]], kind), 0
    if word in ("break", "repair"):
        return word, (Break if word == "break" else Repair)(tuple(map(int, words[2:]))), 0
    if word == "convert":
        return word, Convert(int(words[1])), 0
    if word == "income":
        return word, None, int(words[1])
    return word, None, 0  # pass


#: A claim's word -> (its kind; or None for pay and gain, whose kind depends on the amount).
_CLAIM_WORDS: dict[str, ClaimKind | None] = {**VALUE_CLAIMS, **FLAG_CLAIMS, "pay": None, "gain": None}
#: Each claim kind as one bit, so that a run of claims records its kinds in one small int.
_BIT: dict[ClaimKind, int] = {kind: 1 << index for index, kind in enumerate(ClaimKind)}
#: The kinds of claim a statement may carry, by the statement's word: the bits it may not.
_NOT_ALLOWED: dict[str, int] = {
    word: sum(bit for kind, bit in _BIT.items() if kind not in allowed) for word, (_a, allowed) in APPLICABLE.items()
}
#: A reading of a run of claims: the claims, the stated payment, and the bits of every kind in it.
_Claims = tuple[tuple[StepClaim, ...], Payment | None, int]


def _claims(text: str) -> _Claims | None:
    """The claims of a run the step pattern matched (so well formed); None if it names a
    resource twice in one payment (the grammar reports that)."""
    if ";" in text or "{" in text:
        text = _COMMENTS.sub(" ", text)
    words = text.split()
    out: list[StepClaim] = []
    kinds = 0
    pay: Payment | None = None
    i, size = 0, len(words)
    while i < size:
        name = words[i].lower()
        kind = _CLAIM_WORDS[name]
        if kind is None:
            amount = words[i + 1]
            value, unit = int(amount[:-2]), amount[-2:].lower()
            i += 2
            if name == "gain":
                kind = ClaimKind.GAIN_SP if unit == "sp" else ClaimKind.GAIN_LP
                out.append((kind, value))
            else:
                kind = ClaimKind.PAY
                paid = {unit: value}
                if i < size and words[i][:1].isdigit():  # a second amount
                    second = words[i]
                    if second[-2:].lower() == unit:
                        return None
                    paid[second[-2:].lower()] = int(second[:-2])
                    i += 1
                if pay is None:
                    pay = Payment(paid.get("sp", 0), paid.get("lp", 0))
        elif name in VALUE_CLAIMS:
            out.append((kind, int(words[i + 1])))
            i += 2
        else:
            out.append((kind, None))
            i += 1
        kinds |= _BIT[kind]
    return tuple(out), pay, kinds


# Bounded caches (emptied when full): the same statements, claim texts and phase labels recur
# all through a game, and what they map to is immutable.
_CACHE_SIZE = 32768
_statements: dict[str, tuple[str, Action | None, int]] = {}
_claim_runs: dict[str, _Claims | None] = {}
_PHASE_WORDS: dict[str, Phase] = {}


def _phase(label: str) -> Phase:
    if len(_PHASE_WORDS) >= _CACHE_SIZE:  # a label may be spelt in many cases and spacings
        _PHASE_WORDS.clear()
    phase = _PHASE_WORDS[label] = PHASES[label[: label.index(":")].rstrip(" \t").lower()]
    return phase


_new = tuple.__new__


def _step(m: re.Match[str]) -> Step | None:
    """The step a match of ``_STEP`` stands for; None where the grammar has to decide."""
    num, black, label, text, claims_text = m.groups()
    number: int | None = None
    color: Color | None = None
    if num is not None:
        number = int(num)
        if number == 0:
            return None  # turn 0: the grammar reports it
        color = BLACK if black else WHITE
    phase = None if label is None else _PHASE_WORDS[label] if label in _PHASE_WORDS else _phase(label)
    if text is None:
        return _new(Step, (number, color, phase, None, None, (), 0))
    statement = _statements.get(text)
    if statement is None:
        if len(_statements) >= _CACHE_SIZE:
            _statements.clear()
        statement = _statements[text] = _statement(text)
    word, action, amount = statement
    claims: tuple[StepClaim, ...] = ()
    if claims_text:
        if claims_text in _claim_runs:
            read = _claim_runs[claims_text]
        else:
            if len(_claim_runs) >= _CACHE_SIZE:
                _claim_runs.clear()
            read = _claim_runs[claims_text] = _claims(claims_text)
        if read is None:
            return None
        claims, pay, kinds = read
        if kinds & _NOT_ALLOWED[word]:
            return None  # a claim that does not fit the statement: the grammar reports it
        if pay is not None and action is not None:
            action = replace(action, pay=pay)  # type: ignore[arg-type]  # only paying actions take pay claims
    return _new(Step, (number, color, phase, word, action, claims, amount))


# --- the reader --------------------------------------------------------------------------------------


class _GrammarNeeded(Exception):
    """The reader cannot read the item that starts here; the grammar reads it."""


class _Window:
    """The text being read: whole lines of the log from file offset ``base`` on.

    The log's pieces are appended as reading goes on and what has been read is dropped, so a
    clean log is read in memory proportional to a piece, not to the file. Once the grammar has
    read an item (and so joined the text), the window is the whole text.
    """

    __slots__ = (
        "base", "final", "first_line_start", "held", "line", "line_pos", "line_start", "pieces", "progress", "text"
    )  # fmt: skip

    def __init__(self, source: SourceText, progress: Callable[[int], None] | None = None) -> None:
        self.progress = progress
        self.pieces: Iterator[str] = iter(source.pieces)
        self.held: str | None = None  # text read from the pieces but not yet in the window
        self.text = ""
        self.base = 0  # file offset of text[0]
        self.final = False  # text runs to the end of the log
        self.line = 1  # the line number at text[line_pos] ...
        self.line_pos = 0
        self.line_start = 0  # ... and the file offset where that line starts
        self.first_line_start = 0  # the file offset where the line of text[0] starts
        self.more()

    def more(self, keep_from: int | None = None) -> None:
        """Drop the text before ``keep_from`` (default: all of it) and read on to the next whole lines."""
        self._more(keep_from)
        if self.progress is not None:
            self.progress(self.base + len(self.text))

    def _more(self, keep_from: int | None) -> None:
        text = self.text
        start = len(text) if keep_from is None else keep_from
        self.line_at(start)
        rest = text[start:]
        self.base += start
        self.line_pos -= start
        self.first_line_start = self.line_start
        carried = len(rest)  # the window must grow past what it carries over, or nothing moves
        while True:
            piece = self._next_piece()
            if piece is None:
                self.final = True
                self.text = rest
                return
            rest += piece
            self.held = self._next_piece()  # is there more? (kept for the next window)
            if self.held is None:
                self.final = True
                self.text = rest
                return
            cut = _safe_cut(rest)
            if cut > carried:
                self.text = rest[:cut]
                if cut < len(rest):
                    self.held = rest[cut:] + self.held
                return

    def _next_piece(self) -> str | None:
        held, self.held = self.held, None
        return held if held is not None else next(self.pieces, None)

    def whole(self, text: str, offset: int, line: int, column: int) -> int:
        """Become the whole text, positioned at ``offset`` (line and column given); returns it."""
        self.text, self.base, self.final, self.pieces, self.held = text, 0, True, iter(()), None
        self.line, self.line_pos, self.line_start = line, offset, offset - column + 1
        self.first_line_start = 0
        return offset

    def line_at(self, pos: int) -> int:
        """The line number at ``pos``, counted on from the last position asked about."""
        text, last = self.text, self.line_pos
        if pos >= last:
            newlines = text.count("\n", last, pos)
            if newlines:
                self.line += newlines
                self.line_start = self.base + text.rindex("\n", last, pos) + 1
        else:
            newlines = text.count("\n", pos, last)
            if newlines:
                self.line -= newlines
                before = text.rfind("\n", 0, pos)
                self.line_start = self.base + before + 1 if before >= 0 else self.first_line_start
        self.line_pos = pos
        return self.line

    def where(self, pos: int) -> tuple[int, int, int]:
        """(line, column, file offset) of ``pos``."""
        line = self.line_at(pos)
        offset = self.base + pos
        return line, offset - self.line_start + 1, offset


def _safe_cut(text: str) -> int:
    """Where to end a window: after the last line break outside any brace comment (0: nowhere yet)."""
    cut = text.rfind("\n") + 1
    while cut > 0:
        opened = text.rfind("{", 0, cut)
        if opened < 0 or text.rfind("}", 0, cut) > opened:
            return cut
        cut = text.rfind("\n", 0, opened) + 1  # the comment opened on that line may run past the cut
    return 0


class _Reader:
    """Reads a log's items in order; see :func:`read_log`."""

    def __init__(self, source: SourceText, progress: Callable[[int], None] | None = None) -> None:
        self.source = source
        self.name = source.name
        self.window = _Window(source, progress)
        self.failed: Iterator[tuple[LogItem, Resume]] | None = None  # the grammar's reading, about to raise
        self.ahead: tuple[int, re.Match[str]] | None = None  # the next turn's header, matched already

    def span(self, start: int, end: int) -> Span:
        line, column, offset = self.window.where(start)
        end_line, end_column, end_offset = self.window.where(end)
        return Span(self.name, line, column, end_line, end_column, offset, end_offset)

    def items(self) -> Iterator[LogItem | PlainTurn]:
        window = self.window
        header: LogItem
        try:
            header, pos = self.header()
        except _GrammarNeeded:
            header, pos = self.grammar(1, 1, 0, header=True)
        yield header
        if self.failed is not None:  # the grammar's items up to its syntax error, then the error
            yield from (pending for pending, _resume in self.failed)
        retried = -1  # the file offset of an item read again with a longer window
        while True:
            ahead = self.ahead
            if ahead is None or ahead[0] != pos or ahead[1].string is not window.text:  # else a header is here
                pos = _BLANK.match(window.text, pos).end()  # type: ignore[union-attr]
            if pos == len(window.text):
                if window.final:
                    return
                window.more()
                pos = 0
                continue
            try:
                item, pos = self.item(pos)
            except _GrammarNeeded:
                if not window.final and retried != window.base + pos:
                    # perhaps an item cut by the window's end: read it again with more text first
                    retried = window.base + pos
                    window.more(keep_from=pos)
                    pos = 0
                    continue
                item, pos = self.grammar(*window.where(pos), header=False)
            if item is None:  # the window ends inside this item: read on
                window.more(keep_from=pos)
                pos = 0
                continue
            yield item
            if self.failed is not None:  # the grammar's items up to its syntax error, then the error
                yield from (pending for pending, _resume in self.failed)

    def grammar(self, line: int, column: int, offset: int, *, header: bool) -> tuple[LogItem, int]:
        """The item at ``offset`` as the grammar reads it, and where the reader goes on."""
        reading = items_from(self.source, offset, line, column, header=header)
        item, resume = next(reading)
        if resume is None:  # a syntax error follows the item: raised when the reader goes on
            self.failed = reading
            return item, self.window.whole(self.source.text, len(self.source.text), 1, 1)
        return item, self.window.whole(self.source.text, *resume)

    def header(self) -> tuple[Header, int]:
        """The header tags at the start of the log, and where the first item starts."""
        text = self.window.text
        pos = _BLANK.match(text, 0).end()  # type: ignore[union-attr]
        tags: list[Tag] = []
        while pos < len(text) and text[pos] == "[":
            m = _TAG.match(text, pos)
            if m is None:
                raise _GrammarNeeded
            tags.append(Tag(m.group("name"), _unquote(m.group("value")), self.span(pos, m.end())))
            pos = _BLANK.match(text, m.end()).end()  # type: ignore[union-attr]
        if pos < len(text) and _ITEM_START.match(text, pos) is None:
            raise _GrammarNeeded
        if pos == len(text) and not self.window.final:
            raise _GrammarNeeded  # a header longer than a window: not worth reading here
        if not tags:
            return Header((), Span.point(self.name)), pos
        first, last = tags[0].span, tags[-1].span
        span = first._replace(end_line=last.end_line, end_column=last.end_column, end_offset=last.end_offset)
        return Header(tuple(tags), span), pos

    def item(self, pos: int) -> tuple[LogItem | PlainTurn | None, int]:
        """The item starting at ``pos`` and where the next one starts; (None, where to read on from)
        if the window ends before that is known. Raises _GrammarNeeded for anything else."""
        text = self.window.text
        char = text[pos]
        if "0" <= char <= "9":
            return self.turn(pos)
        item: LogItem
        lower = ascii_lower(text[pos : pos + 2])
        pattern = _SETUP.get(lower)
        m = pattern.match(text, pos) if pattern is not None else None
        if m is None:
            raise _GrammarNeeded
        span = self.span(*m.span())
        if pattern is _KING:
            item = KingPlacement(_color(m), SquareRef(SQUARES[m.group("sq")], self.span(*m.span("sq"))), span)
        elif pattern is _CHOOSE:
            item = ColourChoice(_color(m), span)
        elif pattern is _ROLLOFF:
            white = Dice(tuple(int(m.group(g)) for g in ("w1", "w2", "w3")), self.span(m.start("w1"), m.end("w3")))
            black = Dice(tuple(int(m.group(g)) for g in ("b1", "b2", "b3")), self.span(m.start("b1"), m.end("b3")))
            item = RollOff(white, black, span)
        elif pattern is _DRAFT:
            if ";" in m.group("names") or "{" in m.group("names"):
                raise _GrammarNeeded  # a quote inside a comment is no name
            strings = _STRING.finditer(text, m.start("names"), m.end("names"))
            item = Draft(_color(m), tuple(CardName(_unquote(s.group()), self.span(*s.span())) for s in strings), span)
        else:
            reason = m.group("reason")
            item = ResultLine(m.group("score"), reason.lower() if reason else None, span)
        return self.after(item, m.end())

    def after(self, item: LogItem | PlainTurn, end: int) -> tuple[LogItem | PlainTurn | None, int]:
        """``item`` ends at ``end``: hand it out if the next item (or the end of the log) follows."""
        text = self.window.text
        nxt = _BLANK.match(text, end).end()  # type: ignore[union-attr]
        if nxt == len(text):
            if not self.window.final:
                return None, (item.offset if isinstance(item, PlainTurn) else item.span.offset) - self.window.base
            return item, nxt
        if _ITEM_START.match(text, nxt) is None:
            raise _GrammarNeeded
        return item, nxt

    def turn(self, start: int) -> tuple[LogItem | PlainTurn | None, int]:
        text = self.window.text
        match = _STEP.match
        ahead = self.ahead
        m = ahead[1] if ahead is not None and ahead[0] == start and ahead[1].string is text else match(text, start)
        self.ahead = None
        head = _step(m) if m is not None and m.group("num") is not None else None
        if head is None or m is None:
            raise _GrammarNeeded
        steps = [head]
        pos = m.end()
        size = len(text)
        while pos < size:
            m = match(text, pos)
            if m is None or m.end() == pos or m.group("num") is not None:
                break
            step = _step(m)
            if step is None:
                raise _GrammarNeeded
            steps.append(step)
            pos = m.end()
        if pos == size and not self.window.final:
            return None, start
        turn = PlainTurn(head.number, head.color, steps, self.source, self.window.base + start)  # type: ignore[arg-type]
        if pos < size and m is not None and m.end() > pos:
            self.ahead = (pos, m)  # the next turn starts here, its header already matched
            return turn, pos
        return self.after(turn, pos)


def _color(m: re.Match[str]) -> Color:
    return WHITE if m.group("color").lower() == "white" else BLACK


def _unquote(token: str) -> str:
    body = token[1:-1]
    return _ESCAPE.sub(r"\1", body) if "\\" in body else body


def read_log(source: SourceText, *, progress: Callable[[int], None] | None = None) -> Iterator[LogItem | PlainTurn]:
    """The log's items in order: the :class:`Header` first, then setup items, turns and result
    lines. A turn the reader read comes as a :class:`PlainTurn`; everything else, and every
    turn it handed to the grammar, as its syntax-tree node. Raises
    :class:`~sgcheck.lang.logs.grammar.LogSyntaxError` at the first syntax error, after every
    item before it. ``progress`` is told how many characters have been read, whenever the reader
    takes in the next piece of the text."""
    return _Reader(source, progress).items()


def iter_log(source: SourceText) -> Iterator[LogItem]:
    """Yield the Header first (always, possibly with no tags; an empty header gets a zero-width
    span at 1:1), then every setup item, Turn and ResultLine in file order, *lazily*. Raises
    LogSyntaxError at the first syntax error, after yielding every item that precedes it.

    The line reader (:mod:`sgcheck.lang.logs.reader`) reads the log; each turn it read is read
    again into its syntax tree, by the grammar, from its first character (for tools and tests; replay
    asks for a tree only where it has something to report).
    """
    for item in read_log(source):
        yield item.tree() if isinstance(item, PlainTurn) else item


def parse_log(source: SourceText) -> list[LogItem]:
    """Every item of the log (convenience for small logs and tests): ``list(iter_log(source))``."""
    return list(iter_log(source))
