"""A fast path for the common shape of game logs, equivalent to the Lark parser.

Why it exists: Lark's LALR parser is the authority on the log language, but it makes
several Python calls per token, which bounds it to roughly 150-200k tokens/s, and a replay
of a long log spends most of its time there. Logs written by tools and most logs written
by hand use a small, regular subset of the syntax: one line holds an optional turn header,
an optional phase label and statements with their claims, words are separated by spaces,
comments start with ``;``, strings have no escapes. This module reads that subset line by
line, in one loop with no per-token function calls, into the same AST nodes with the same
spans, and *declines* (:class:`Declined`) at the first thing it does not handle: brace
comments, escapes, a statement continued on the next line, odd spacing, any syntax error,
a claim that does not fit its statement. :func:`sgcheck.lang.logs.grammar.iter_log` then
re-parses with Lark, skipping the items already produced, so errors and their messages
always come from the grammar. Tests check that both paths produce identical items.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from sgcheck.core.caps import MAX_NUMBER_DIGITS
from sgcheck.core.pieces import Color, Kind, Phase
from sgcheck.diagnostics import Span
from sgcheck.lang.logs.ast import (
    ActivateStmt,
    AttackStmt,
    BreakStmt,
    CardName,
    Claim,
    ClaimKind,
    ColourChoice,
    ConvertStmt,
    Dice,
    Draft,
    Header,
    IncomeStmt,
    KingPlacement,
    LogItem,
    MoveStmt,
    PassStmt,
    PhaseBlock,
    PieceRef,
    RepairStmt,
    ResultLine,
    RollOff,
    SquareRef,
    Statement,
    SummonStmt,
    Tag,
    TeleportStmt,
    Turn,
)
from sgcheck.lang.logs.quick import Line, QuickTurn, QuickTurnReader, read_quick_line
from sgcheck.lang.logs.vocab import APPLICABLE, FLAG_CLAIMS, KINDS, PHASES, SQUARES, VALUE_CLAIMS
from sgcheck.lang.source import SourceText


class Declined(Exception):
    """The fast path does not handle this input; the Lark parser takes over."""


_WORDS = re.compile(r'"[^"\n]*"|[^\s"]+')
# At most MAX_NUMBER_DIGITS digits: a longer number is declined, and the grammar reports it (SG-P012).
_DIGITS = f"[0-9]{{1,{MAX_NUMBER_DIGITS}}}"
_TURN = re.compile(rf"({_DIGITS})\.(\.\.)?")
_INT = re.compile(_DIGITS)
_AMOUNT = re.compile(rf"({_DIGITS})([sSlL][pP])")
_TAG = re.compile(r'\[([A-Za-z][A-Za-z0-9_]*) +"([^"\n]*)"\]')
_SCORES = frozenset({"1-0", "0-1", "1/2-1/2", "*"})
_REASONS = frozenset({"conversion", "lp1000", "turn-limit"})
_CLAIM_WORDS = frozenset({*VALUE_CLAIMS, *FLAG_CLAIMS, "pay", "gain"})
_PHASE_LABELS: dict[str, Phase] = {f"{word}:": phase for word, phase in PHASES.items()}
_COLORS = {"white": Color.WHITE, "black": Color.BLACK}
_MAX_LINE = 4096
_ITEM_WORDS = frozenset({"king", "rolloff", "choose", "draft", "result"})
_STATEMENTS = frozenset(
    {"summon", "move", "attack", "convert", "teleport", "break", "repair", "activate", "pass", "income"}
)


class _Line:
    """The words of one line with their columns, consumed left to right."""

    __slots__ = ("cols", "i", "name", "number", "offset", "words")

    def __init__(self, name: str, number: int, offset: int, text: str) -> None:
        self.name, self.number, self.offset = name, number, offset
        self.i = 0
        if '"' in text:  # strings may hold spaces
            if text.count('"') % 2:
                raise Declined  # an unclosed string: the grammar reports it
            matches = list(_WORDS.finditer(text))
            self.words = [m.group() for m in matches]
            self.cols = [m.start() for m in matches]
            return
        self.words = words = text.split()
        self.cols = cols = []
        pos = 0
        find = text.find
        for word in words:
            pos = find(word, pos)
            cols.append(pos)
            pos += len(word)

    def more(self) -> bool:
        return self.i < len(self.words)

    def peek(self) -> str:
        return self.words[self.i].lower() if self.i < len(self.words) else ""

    def take(self) -> int:
        """Consume a word; its index (use with :meth:`span` and ``words``)."""
        i = self.i
        if i >= len(self.words):
            raise Declined  # a statement continued on the next line: let the grammar decide
        self.i = i + 1
        return i

    def span(self, first: int, last: int | None = None) -> Span:
        col = self.cols[first]
        end = col + len(self.words[first]) if last is None else self.cols[last] + len(self.words[last])
        n, off = self.number, self.offset
        return Span(self.name, n, col + 1, n, end + 1, off + col, off + end)

    def int_at(self, i: int) -> int:
        word = self.words[i]
        if not _INT.fullmatch(word):
            raise Declined
        return int(word)

    def square(self) -> SquareRef:
        i = self.take()
        sq = SQUARES.get(self.words[i])
        if sq is None:
            raise Declined
        return SquareRef(sq, self.span(i))

    def piece_ref(self) -> PieceRef:
        i = self.take()
        word = self.words[i]
        if len(word) == 3:
            kind, sq = KINDS.get(word[0]), SQUARES.get(word[1:])
            if kind is None or sq is None:
                raise Declined
            return PieceRef(kind, sq, self.span(i))
        sq = SQUARES.get(word)
        if sq is None:
            raise Declined
        return PieceRef(None, sq, self.span(i))

    def dice(self, exactly: int | None = None) -> Dice:
        first = self.i
        while self.i < len(self.words) and _INT.fullmatch(self.words[self.i]):
            self.i += 1
        count = self.i - first
        if count == 0 or (exactly is not None and count != exactly):
            raise Declined
        return Dice(tuple(int(w) for w in self.words[first : self.i]), self.span(first, self.i - 1))

    def string(self) -> tuple[str, Span]:
        i = self.take()
        word = self.words[i]
        if word[0] != '"':
            raise Declined
        return word[1:-1], self.span(i)

    def claims(self, what: str) -> tuple[Claim, ...]:
        allowed = APPLICABLE[what][1]
        out: list[Claim] = []
        words = self.words
        while self.i < len(words) and (word := words[self.i].lower()) in _CLAIM_WORDS:
            kw = self.take()
            if word in FLAG_CLAIMS:
                claim = Claim(FLAG_CLAIMS[word], self.span(kw))
            elif word in VALUE_CLAIMS:
                value = self.int_at(self.take())
                claim = Claim(VALUE_CLAIMS[word], self.span(kw, kw + 1), value)
            elif word == "gain":
                unit, value = self.amount(self.take())
                claim = Claim(ClaimKind.GAIN_SP if unit == "sp" else ClaimKind.GAIN_LP, self.span(kw, kw + 1), value)
            else:
                claim = self.payment(kw)
            if claim.kind not in allowed:
                raise Declined
            out.append(claim)
        return tuple(out)

    def amount(self, i: int) -> tuple[str, int]:
        m = _AMOUNT.fullmatch(self.words[i])
        if m is None:
            raise Declined
        return m.group(2).lower(), int(m.group(1))

    def payment(self, kw: int) -> Claim:
        unit, value = self.amount(self.take())
        paid = {unit: value}
        if self.i < len(self.words) and _AMOUNT.fullmatch(self.words[self.i]):
            unit, value = self.amount(self.take())
            if unit in paid:
                raise Declined
            paid[unit] = value
        return Claim(ClaimKind.PAY, self.span(kw, self.i - 1), sp=paid.get("sp", 0), lp=paid.get("lp", 0))

    def ends(self, kw: int, claims: tuple[Claim, ...], last: Span) -> Span:
        """A statement's span: its keyword through its last claim (or its last part)."""
        end = claims[-1].span if claims else last
        col, off = self.cols[kw], self.offset + self.cols[kw]
        return Span(self.name, self.number, col + 1, end.end_line, end.end_column, off, end.end_offset)


def _statement(ln: _Line) -> Statement:
    kw = ln.take()
    word = ln.words[kw].lower()
    if word == "move":
        piece, first = ln.piece_ref(), ln.square()
        via, to = (first, ln.square()) if ln.i < len(ln.words) and ln.words[ln.i] in SQUARES else (None, first)
        claims = ln.claims("move")
        return MoveStmt(piece, to, via, claims, ln.ends(kw, claims, to.span))
    if word == "attack":
        attacker, target = ln.piece_ref(), ln.piece_ref()
        if ln.peek() != "roll":
            raise Declined
        ln.take()
        roll = ln.dice()
        claims = ln.claims("attack")
        return AttackStmt(attacker, target, roll, claims, ln.ends(kw, claims, roll.span))
    if word == "summon":
        i = ln.take()
        text = ln.words[i]
        if len(text) == 1 and text in KINDS:
            kind, kind_span, to = KINDS[text], ln.span(i), ln.square()
        elif len(text) == 3 and text[0] in KINDS and text[1:] in SQUARES:
            kind, whole = KINDS[text[0]], ln.span(i)
            kind_span = Span(
                ln.name, ln.number, whole.column, ln.number, whole.column + 1, whole.offset, whole.offset + 1
            )
            square_span = Span(
                ln.name, ln.number, whole.column + 1, ln.number, whole.end_column, whole.offset + 1, whole.end_offset
            )
            to = SquareRef(SQUARES[text[1:]], square_span)
        else:
            raise Declined
        claims = ln.claims("summon")
        return SummonStmt(kind, kind_span, to, claims, ln.ends(kw, claims, to.span))
    if word == "pass":
        claims = ln.claims("pass")
        return PassStmt(claims, ln.ends(kw, claims, ln.span(kw)))
    if word in ("convert", "income"):
        i = ln.take()
        amount, amount_span = ln.int_at(i), ln.span(i)
        claims = ln.claims(word)
        span = ln.ends(kw, claims, amount_span)
        if word == "convert":
            return ConvertStmt(amount, amount_span, claims, span)
        return IncomeStmt(amount, amount_span, claims, span)
    if word == "teleport":
        piece, to = ln.piece_ref(), ln.square()
        claims = ln.claims("teleport")
        return TeleportStmt(piece, to, claims, ln.ends(kw, claims, to.span))
    if word in ("break", "repair"):
        if ln.peek() != "roll":
            raise Declined
        ln.take()
        roll = ln.dice()
        claims = ln.claims(word)
        span = ln.ends(kw, claims, roll.span)
        return BreakStmt(roll, claims, span) if word == "break" else RepairStmt(roll, claims, span)
    if word == "activate":
        card, card_span = ln.string()
        claims = ln.claims("activate")
        return ActivateStmt(CardName(card, card_span), claims, ln.ends(kw, claims, card_span))
    raise Declined


def _setup_or_result(ln: _Line) -> LogItem:
    kw = ln.take()
    word = ln.words[kw].lower()
    if word == "king":
        color = _COLORS.get(ln.words[ln.take()].lower())
        if color is None:
            raise Declined
        sq = ln.square()
        return KingPlacement(color, sq, ln.ends(kw, (), sq.span))
    if word == "choose":
        i = ln.take()
        color = _COLORS.get(ln.words[i].lower())
        if color is None:
            raise Declined
        return ColourChoice(color, ln.span(kw, i))
    if word == "rolloff":
        if ln.words[ln.take()].lower() != "white":
            raise Declined
        white = ln.dice(3)
        if ln.words[ln.take()].lower() != "black":
            raise Declined
        black = ln.dice(3)
        return RollOff(white, black, ln.ends(kw, (), black.span))
    if word == "draft":
        color = _COLORS.get(ln.words[ln.take()].lower())
        if color is None:
            raise Declined
        cards = [ln.string()]
        while ln.i < len(ln.words) and ln.words[ln.i][0] == '"':
            cards.append(ln.string())
        names = tuple(CardName(name, span) for name, span in cards)
        return Draft(color, names, ln.ends(kw, (), cards[-1][1]))
    if word == "result":
        score = ln.take()
        if ln.words[score] not in _SCORES:
            raise Declined
        last, reason = score, None
        if ln.peek() in _REASONS:
            last = ln.take()
            reason = ln.words[last].lower()
        return ResultLine(ln.words[score], reason, ln.span(kw, last))
    raise Declined


class _TurnBuilder:
    """The turn being read: its header, loose statements and phase blocks so far."""

    def __init__(self, ln: _Line, i: int, number: int, color: Color) -> None:
        self.number, self.color, self.head = number, color, ln.span(i)
        self.loose: list[Statement] = []
        self.blocks: list[tuple[Phase, Span, list[Statement]]] = []

    def add(self, stmt: Statement) -> None:
        (self.blocks[-1][2] if self.blocks else self.loose).append(stmt)

    def build(self) -> Turn:
        phases = tuple(
            PhaseBlock(phase, label, tuple(stmts), _join(label, stmts[-1].span) if stmts else label)
            for phase, label, stmts in self.blocks
        )
        last = phases[-1].span if phases else self.loose[-1].span if self.loose else None
        span = _join(self.head, last) if last is not None else self.head
        return Turn(self.number, self.color, self.head, tuple(self.loose), phases, span)


def _join(first: Span, last: Span) -> Span:
    return Span(first.source, first.line, first.column, last.end_line, last.end_column, first.offset, last.end_offset)


def _lines(text: str) -> Iterator[Line]:
    """(number, offset, text without its comment) for each line, lazily."""
    start, number, size = 0, 1, len(text)
    while start <= size:
        end = text.find("\n", start)
        if end < 0:
            end = size
        if end - start > _MAX_LINE:
            raise Declined  # not a line a person or a tool writes; the grammar reports on it
        line = text[start:end]
        cut = line.find(";")
        if cut >= 0:
            if '"' in line:
                raise Declined  # a ';' might sit inside a string
            line = line[:cut]
        yield number, start, line
        start, number = end + 1, number + 1


class _Reader:
    """The word-level reading of lines into items.

    ``turn`` is the turn being read. ``held`` is a finished setup item or result line, given
    out only once the next word shows it is complete: the grammar lets a line continue on the
    next (``draft white "A"`` then ``"B"`` on its own line), and the fast path must not hand out
    an item that the grammar would read longer.
    """

    def __init__(self, name: str) -> None:
        self.name = name
        self.turn: _TurnBuilder | None = None
        self.held: LogItem | None = None

    def line(self, number: int, offset: int, text: str) -> Iterator[LogItem]:
        ln = _Line(self.name, number, offset, text)
        while ln.more():
            word = ln.peek()
            phase = _PHASE_LABELS.get(word)
            header = _TURN.fullmatch(ln.words[ln.i]) if "0" <= word[0] <= "9" else None
            if header is not None and int(header.group(1)) == 0:
                raise Declined
            if not (word in _STATEMENTS or phase is not None or header is not None or word in _ITEM_WORDS):
                raise Declined  # e.g. a claim continued on the next line: the grammar decides
            if self.held is not None:
                yield self.held
                self.held = None
            if word in _STATEMENTS:
                if self.turn is None:
                    raise Declined
                self.turn.add(_statement(ln))
            elif phase is not None:
                if self.turn is None:
                    raise Declined
                i = ln.take()
                self.turn.blocks.append((phase, ln.span(i), []))
            elif header is not None:
                i = ln.take()
                if self.turn is not None:
                    yield self.turn.build()
                number, color = int(header.group(1)), Color.BLACK if header.group(2) else Color.WHITE
                self.turn = _TurnBuilder(ln, i, number, color)
            else:
                if self.turn is not None:
                    yield self.turn.build()
                    self.turn = None
                self.held = _setup_or_result(ln)

    def finish(self) -> Iterator[LogItem]:
        """What is still open at a new quick turn or at the end of the text."""
        if self.held is not None:
            yield self.held
            self.held = None
        if self.turn is not None:
            yield self.turn.build()
            self.turn = None


def fast_iter_log(source: SourceText, *, quick_turns: bool = False) -> Iterator[LogItem | QuickTurn]:
    """The log's items, as :func:`sgcheck.lang.logs.grammar.iter_log` would yield them.

    With ``quick_turns``, a turn whose every line has the plainest form (see
    :mod:`sgcheck.lang.logs.quick`) comes as a :class:`QuickTurn` instead: its actions and claims,
    with the :class:`Turn` built only if asked for. Raises :class:`Declined` (possibly after
    yielding some items) where the fast path stops.
    """
    text, name = source.text, source.name
    if "{" in text or "\\" in text:
        raise Declined
    tags: list[Tag] = []
    header_sent = False
    reader = _Reader(name)
    pending: QuickTurnReader | None = None  # a quick turn being read
    index = 0  # items yielded so far
    for number, offset, line in _lines(text):
        if not line or line.isspace():
            continue
        if not header_sent:
            m = _TAG.fullmatch(line.strip())
            if m is not None:
                start = offset + line.index("[")
                col = start - offset + 1
                end = col + len(m.group())
                tags.append(
                    Tag(m.group(1), m.group(2), Span(name, number, col, number, end, start, start + len(m.group())))
                )
                continue
            if line.lstrip().startswith("["):
                raise Declined
            header_sent = True
            yield Header(tuple(tags), _join(tags[0].span, tags[-1].span) if tags else Span.point(name))
            index += 1
        if quick_turns:
            step = read_quick_line(line)
            if step is not None:
                if step.number is not None:  # a new turn starts on this line
                    if pending is not None:
                        yield pending.finish(source, index)
                        index += 1
                    if reader.held is not None or reader.turn is not None:
                        for item in reader.finish():
                            yield item
                            index += 1
                    pending = QuickTurnReader(step, (number, offset, line))
                    continue
                if pending is not None and pending.add(step, (number, offset, line)):
                    continue
            if pending is not None:  # not the plainest form: read this turn word by word after all
                for item in _read_lines(reader, pending.lines):
                    yield item
                    index += 1
                pending = None
        for item in reader.line(number, offset, line):
            yield item
            index += 1
    if not header_sent:
        yield Header(tuple(tags), _join(tags[0].span, tags[-1].span) if tags else Span.point(name))
        index += 1
    if pending is not None:
        yield pending.finish(source, index)
    yield from reader.finish()


def _read_lines(reader: _Reader, lines: list[Line]) -> Iterator[LogItem]:
    for number, offset, text in lines:
        yield from reader.line(number, offset, text)


def build_turn(name: str, lines: list[Line]) -> Turn:
    """The :class:`Turn` that the word-level reading of ``lines`` (one whole turn) gives."""
    reader = _Reader(name)
    for _item in _read_lines(reader, lines):
        raise Declined  # one turn's lines yield nothing until the turn is complete
    if reader.turn is None:
        raise Declined
    return reader.turn.build()


__all__ = ["Declined", "Kind", "build_turn", "fast_iter_log"]
