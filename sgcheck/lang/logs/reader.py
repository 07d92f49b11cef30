"""The line reader: the one reader of a log's turns, every layout, at regex speed.

Why it exists: the grammar (:mod:`sgcheck.lang.logs.grammar`) is the reference for the syntax
and the one source of syntax error messages, but Lark makes several Python calls per token,
and a replay of a long log would spend most of its time there. This reader matches one regular
expression per *statement* (with its turn header, phase label and claims), so the per-token
work happens inside the regular expression engine, and turns each match straight into the core
action and the ``(kind, value)`` claims it stands for. In the compiled build a scanner
(:func:`_scan_step`) reads the plainest steps first, in one pass over their characters, and
leaves the rest to that expression; a test holds the two to each other at every position.

It accepts every layout the format allows: keywords in any case, any spacing, ``;`` and
``{...}`` comments anywhere between words, a statement continued over several lines, several
statements on a line; and every statement kind (``activate``, ``play`` and ``reveal`` included).
Its terminals are the grammar's (``TERMINALS``; a test compares them with
``grammar/sglog.lark``). It hands the grammar one item, never the file, and only text that does
not read:

- an item it cannot read (a syntax error: a word out of place, a claim that does not fit its
  statement, a payment naming a resource twice, turn 0) is read by the grammar from the start of
  that item in the same text, which gives the exact error, as a reading of the whole file would;
- an item is handed out only once the start of the next item (or the end) has been seen, so
  text after an item that is not the start of another sends that item to the grammar too, and
  the error is reported in the parser state a whole-file reading would be in.

A :class:`PlainTurn` carries what replay plays (its steps, :class:`TurnStep`) and, on request, where
each part is written: a statement's node with its claims and spans, a label's span, the turn's
syntax tree, all worked out from the text the reader matched (equal to the grammar's reading;
tests hold the two to each other). Header tags, setup lines and result lines are read into
their syntax-tree nodes directly (they are few, and replay needs their spans).

The text is read a piece at a time (:attr:`SourceText.pieces`), so a clean log is replayed
without ever joining its text; the first item the grammar reads joins it, and the reader goes
on in the whole text.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import Final

from sgcheck.core.actions import (
    Action,
    Activate,
    Attack,
    Break,
    Convert,
    Move,
    Play,
    Repair,
    Reveal,
    Summon,
    Teleport,
)
from sgcheck.core.caps import MAX_NUMBER_DIGITS
from sgcheck.core.pieces import BLACK, WHITE, Color, Kind, Phase
from sgcheck.core.record import compiled
from sgcheck.core.squares import ALL_SQUARES, Square
from sgcheck.core.state import Payment
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
    PlayStmt,
    RepairStmt,
    ResultLine,
    RevealStmt,
    RollOff,
    SecondRoll,
    SquareRef,
    Statement,
    SummonStmt,
    Tag,
    TeleportStmt,
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

_STRING_TOKEN = TERMINALS["STRING"]
_REF = f"{_KIND}?{_SQ}"

#: Each statement the reader reads, with a group for every part. An attack's second roll is
#: exactly two dice, as in the grammar; a ``reveal`` takes no claims (checked in :func:`_step`).
_STATEMENT_FORMS = (
    rf"{_K('move')}{_S}(?P<mk>{_KIND})?(?P<mf>{_SQ}){_S}(?P<mt>{_SQ})(?:{_S}(?P<mv>{_SQ}))?",
    rf"{_K('attack')}{_S}(?P<ak>{_KIND})?(?P<af>{_SQ}){_S}(?P<tk>{_KIND})?(?P<at>{_SQ}){_S}{_K('roll')}{_S}"
    rf"(?P<ar>{_DICE})(?:{_S}(?P<aw>{_K('reroll')}|{_K('advantage')}){_S}(?P<as>{_INT}{_S}{_INT}))?",
    rf"{_K('summon')}{_S}(?:(?P<sk>{_KIND})(?![\w-]){_S}(?P<st>{_SQ})|(?P<sk2>{_KIND})(?P<st2>{_SQ}))",
    rf"{_K('teleport')}{_S}(?P<pk>{_KIND})?(?P<pf>{_SQ}){_S}(?P<pt>{_SQ})",
    rf"(?P<dw>{_K('break')}|{_K('repair')}){_S}{_K('roll')}{_S}(?P<dr>{_DICE})",
    rf"(?P<nw>{_K('convert')}|{_K('income')}){_S}(?P<n>{_INT})",
    rf"(?P<pw>{_K('pass')})",
    rf"(?P<cw>{_K('activate')}|{_K('play')}){_S}(?P<cn>{_STRING_TOKEN})(?:{_S}{_K('on')}{_S}(?P<ct>{_REF}))?",
    rf"{_K('reveal')}{_S}(?P<rn>{_STRING_TOKEN}){_S}{_K('to')}{_S}(?P<rc>{_K('white')}|{_K('black')})",
)
_UNNAMED = re.compile(r"\(\?P<[a-z0-9]+>")

#: One step of a turn: a turn header, a phase label, a statement with its claims (each optional,
#: at least one present), and the separators after it.
_STEP: Final = re.compile(
    rf"(?:(?P<num>{_DIGITS})\.(?P<black>\.\.)?{_S})?"
    rf"(?:(?P<phase>{_PHASE}){_S})?"
    rf"(?:(?P<stmt>{'|'.join(_UNNAMED.sub('(?:', form) for form in _STATEMENT_FORMS)})"
    rf"(?P<claims>(?:{_S}{_CLAIM})*+){_S})?",
    _ASCII,
)

_BLANK: Final = re.compile(_SEP, _ASCII)
#: The start of an item after a turn or a setup line: a turn header, a setup or result keyword.
_ITEM_START: Final = re.compile(
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
_DRAFT = re.compile(rf"{_K('draft')}{_S}{_COLOR}(?P<names>(?:{_S}{TERMINALS['STRING']})++)", _ASCII)
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


class TurnStep:
    """One step of a turn as the reader read it: a header, a phase label and a statement, each
    possibly absent, with what replay plays (the core action and the ``(kind, value)`` claims).

    Where each part is written comes from :class:`PlainTurn` (:meth:`PlainTurn.label_span`,
    :meth:`PlainTurn.statement`), worked out from the text the reader matched, on request.
    """

    __slots__ = (
        "action", "amount", "claims", "claims_end", "color", "label", "label_at", "label_end", "match", "node",
        "num_end", "number", "phase", "start", "stmt_at", "stmt_end", "stop", "word",
    )  # fmt: skip

    def __init__(
        self,
        number: int | None,
        color: Color | None,
        phase: Phase | None,
        word: str | None,
        action: Action | None,
        claims: tuple[StepClaim, ...],
        amount: int,
        match: re.Match[str] | None = None,
        node: Statement | None = None,
        label: Span | None = None,
        at: tuple[int, int, int, int, int, int, int, int] = (-1, -1, -1, -1, -1, -1, -1, -1),
    ) -> None:
        self.number = number  # a turn header: its number
        self.color = color  # ... and whose turn it is
        self.phase = phase  # a phase label
        self.word = word  # the statement's word ("move", "pass", "income", ...), if there is one
        self.action = action  # the core action it stands for (None for pass and income)
        self.claims = claims  # what the log claims about it (a stated payment is in the action)
        self.amount = amount  # income: the amount written
        self.match = match  # the reader's match of this step in the turn's text (None: built from a tree)
        self.node = node  # the statement's syntax-tree node, once built
        self.label = label  # the phase label's span, once worked out
        # Read by the scanner (:func:`_scan_step`), not matched: where the step starts and ends, the
        # end of its turn number, its label's start and end, its statement's start and end, the
        # end of its claims (-1 for a part that is not there). Plain ints (compiled: no object
        # each), from which :meth:`part` works out a part's place when one is asked for.
        (
            self.start,
            self.stop,
            self.num_end,
            self.label_at,
            self.label_end,
            self.stmt_at,
            self.stmt_end,
            self.claims_end,
        ) = at

    def part(self, group: int) -> tuple[int, int]:
        """Where a part of the step is written, by its group in ``_STEP``: 1 the turn number, 2 the
        dots of Black's turn, 3 the phase label, 4 the statement, 5 its claims; (-1, -1): absent."""
        if self.match is not None:
            return self.match.span(group)
        if group == 1:
            return (self.start, self.num_end) if self.num_end >= 0 else _NO_PART
        if group == 2:  # ``12...``: the two dots after the first
            return (self.num_end + 1, self.num_end + 3) if self.num_end >= 0 and self.color is BLACK else _NO_PART
        if group == 3:
            return self.label_at, self.label_end
        if group == 4:
            return self.stmt_at, self.stmt_end
        return (self.stmt_end, self.claims_end) if self.stmt_at >= 0 else _NO_PART

    def end(self) -> int:
        """Where the step ends, the separators after it included."""
        return self.match.end() if self.match is not None else self.stop


class PlainTurn:
    """A turn as the line reader read it: whose turn, its steps, and where each part is written.

    Spans are worked out from the text the reader matched when they are asked for (a clean turn
    never asks): :meth:`header_span`, :meth:`label_span`, :meth:`statement` (a statement's
    node, claims and spans included) and :meth:`tree` (the turn's syntax tree, equal to the
    grammar's reading of the same text). A turn made from a syntax tree (:meth:`from_tree`, for
    the turns the grammar read before a syntax error) carries its nodes from the start.
    """

    __slots__ = ("base", "color", "line", "line_start", "name", "number", "offset", "start", "steps", "text", "turn")

    def __init__(
        self,
        number: int,
        color: Color,
        steps: list[TurnStep],
        name: str,
        text: str,
        start: int,
        base: int,
        line: int,
        line_start: int,
    ) -> None:
        self.number, self.color, self.steps, self.name = number, color, steps, name
        self.text = text  # the text read (a window of the log) ...
        self.start = start  # ... the turn's first character in it
        self.base = base  # the file offset of text[0]
        self.offset = base + start  # the file offset of the turn
        self.line = line  # the line of the turn's first character ...
        self.line_start = line_start  # ... and the file offset where that line starts
        self.turn: Turn | None = None  # the syntax tree, once built

    @classmethod
    def from_tree(cls, tree: Turn, steps: list[TurnStep]) -> PlainTurn:
        """A turn the grammar read, as the turn loop plays it: ``steps`` carry their nodes."""
        head = tree.header_span
        line_start = head.offset - head.column + 1
        turn = cls(tree.number, tree.color, steps, head.source, "", 0, head.offset, head.line, line_start)
        turn.turn = tree
        return turn

    # --- where things are written -------------------------------------------------------------------

    def _at(self, pos: int) -> tuple[int, int]:
        """(line, column) of ``pos`` in the text."""
        text, start = self.text, self.start
        newlines = text.count("\n", start, pos)
        if not newlines:
            return self.line, self.base + pos - self.line_start + 1
        return self.line + newlines, pos - text.rfind("\n", start, pos)

    def span_between(self, start: int, end: int) -> Span:
        """The span of the text from ``start`` to ``end`` (``end`` on the line of the last token)."""
        line, column = self._at(start)
        end_line, end_column = self._at(end)
        return Span(self.name, line, column, end_line, end_column, self.base + start, self.base + end)

    def token_span(self, token: tuple[int, int]) -> Span:
        """The span of one token (never more than a line)."""
        start, end = token
        line, column = self._at(start)
        return Span(self.name, line, column, line, column + end - start, self.base + start, self.base + end)

    def header_span(self) -> Span:
        """The span of the turn's header (``12...``)."""
        if self.turn is not None:
            return self.turn.header_span
        head = self.steps[0]
        (start, end), black = head.part(1), head.part(2)
        return self.token_span((start, black[1] if black[0] >= 0 else end + 1))

    def label_span(self, step: TurnStep) -> Span:
        """The span of ``step``'s phase label."""
        if step.label is None:
            step.label = self.token_span(step.part(3))
        return step.label

    def statement(self, step: TurnStep) -> Statement:
        """``step``'s statement as its syntax-tree node, with its claims and every span."""
        if step.node is None:
            assert step.word is not None
            text = self.text
            claims = _tokens(text, *step.part(5))
            step.node = _build(self, step.word, _tokens(text, *step.part(4)), claims)
        return step.node

    def tree(self) -> Turn:
        """The syntax tree of this turn (what the grammar reads there, spans included)."""
        if self.turn is None:
            loose: list[Statement] = []
            blocks: list[tuple[Phase, Span, list[Statement]]] = []
            for step in self.steps:
                if step.phase is not None:
                    blocks.append((step.phase, self.label_span(step), []))
                if step.word is not None:
                    (blocks[-1][2] if blocks else loose).append(self.statement(step))
            phases = tuple(
                PhaseBlock(phase, label, tuple(stmts), _join(label, stmts[-1].span) if stmts else label)
                for phase, label, stmts in blocks
            )
            head = self.header_span()
            last = phases[-1].span if phases else loose[-1].span if loose else None
            span = _join(head, last) if last is not None else head
            self.turn = Turn(self.number, self.color, head, tuple(loose), phases, span)
        return self.turn


def _join(first: Span, last: Span) -> Span:
    """From the start of ``first`` to the end of ``last``."""
    return Span(first.source, first.line, first.column, last.end_line, last.end_column, first.offset, last.end_offset)


# --- a statement's node, spans included ---------------------------------------------------------------

#: One token of a statement: a quoted name or a word (never a separator), ended by a separator,
#: a comment or a quote. Unicode whitespace ends a word, as in the grammar.
_TOKEN = re.compile(rf"{_SEP}(\"(?:[^\"\\\n\r]++|\\[\"\\])*+\"|[^\s;{{\"]++)")


def _tokens(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """Where each token of ``text[start:end]`` is (the reader matched it: it is well formed)."""
    out: list[tuple[int, int]] = []
    pos = start
    match = _TOKEN.match
    while pos < end:
        m = match(text, pos, end)
        if m is None:
            break
        out.append(m.span(1))
        pos = m.end()
    return out


def _build(turn: PlainTurn, word: str, toks: list[tuple[int, int]], claim_toks: list[tuple[int, int]]) -> Statement:
    """The node of a statement the step pattern matched (its word, its tokens, its claims' tokens)."""
    text = turn.text
    span = turn.token_span

    def value(token: tuple[int, int]) -> str:
        return text[token[0] : token[1]]

    def piece(token: tuple[int, int]) -> PieceRef:
        kind, square = _ref(value(token))
        return PieceRef(kind, square, span(token))

    def square(token: tuple[int, int]) -> SquareRef:
        return SquareRef(SQUARES[value(token)], span(token))

    def dice(tokens: list[tuple[int, int]]) -> Dice:
        return Dice(tuple(int(value(t)) for t in tokens), turn.span_between(tokens[0][0], tokens[-1][1]))

    claims = _claim_nodes(turn, claim_toks)
    last = claim_toks[-1] if claim_toks else toks[-1]
    whole = turn.span_between(toks[0][0], last[1])
    if word == "move":
        via = square(toks[2]) if len(toks) == 4 else None
        return MoveStmt(piece(toks[1]), square(toks[-1]), via, claims, whole)
    if word == "attack":
        second: SecondRoll | None = None
        faces = toks[4:]
        if ascii_lower(value(toks[-3])) in ("reroll", "advantage"):
            faces = toks[4:-3]
            advantage = ascii_lower(value(toks[-3])) == "advantage"
            second = SecondRoll(advantage, dice(toks[-2:]), turn.span_between(toks[-3][0], toks[-1][1]))
        return AttackStmt(piece(toks[1]), piece(toks[2]), dice(faces), claims, whole, second)
    if word == "summon":
        if len(toks) == 3:
            return SummonStmt(KINDS[value(toks[1])], span(toks[1]), square(toks[2]), claims, whole)
        (start, end) = toks[1]
        return SummonStmt(KINDS[text[start]], span((start, start + 1)), square((start + 1, end)), claims, whole)
    if word == "teleport":
        return TeleportStmt(piece(toks[1]), square(toks[2]), claims, whole)
    if word == "break":
        return BreakStmt(dice(toks[2:]), claims, whole)
    if word == "repair":
        return RepairStmt(dice(toks[2:]), claims, whole)
    if word == "convert":
        return ConvertStmt(int(value(toks[1])), span(toks[1]), claims, whole)
    if word == "income":
        return IncomeStmt(int(value(toks[1])), span(toks[1]), claims, whole)
    if word == "pass":
        return PassStmt(claims, whole)
    card = CardName(_unquote(value(toks[1])), span(toks[1]))
    if word == "reveal":
        color = WHITE if ascii_lower(value(toks[3])) == "white" else BLACK
        return RevealStmt(card, color, span(toks[3]), whole)
    target = piece(toks[3]) if len(toks) == 4 else None
    if word == "activate":
        return ActivateStmt(card, claims, whole, target)
    return PlayStmt(card, target, claims, whole)


def _claim_nodes(turn: PlainTurn, toks: list[tuple[int, int]]) -> tuple[Claim, ...]:
    """The claims of a run the step pattern matched, with their spans."""
    text = turn.text
    out: list[Claim] = []
    i, size = 0, len(toks)
    while i < size:
        first = toks[i]
        name = ascii_lower(text[first[0] : first[1]])
        if name in FLAG_CLAIMS:
            out.append(Claim(FLAG_CLAIMS[name], turn.token_span(first)))
            i += 1
            continue
        if name in VALUE_CLAIMS:
            last = toks[i + 1]
            value = int(text[last[0] : last[1]])
            out.append(Claim(VALUE_CLAIMS[name], turn.span_between(first[0], last[1]), value=value))
            i += 2
            continue
        amounts = [toks[i + 1]]
        i += 2
        if name == "pay" and i < size and text[toks[i][0]].isdigit():
            amounts.append(toks[i])
            i += 1
        paid = {ascii_lower(text[e - 2 : e]): int(text[s : e - 2]) for s, e in amounts}
        where = turn.span_between(first[0], amounts[-1][1])
        if name == "gain":
            ((unit, gained),) = paid.items()
            out.append(Claim(ClaimKind.GAIN_SP if unit == "sp" else ClaimKind.GAIN_LP, where, value=gained))
        else:
            out.append(Claim(ClaimKind.PAY, where, sp=paid.get("sp", 0), lp=paid.get("lp", 0)))
    return tuple(out)


# --- reading a step ----------------------------------------------------------------------------------


_COMMENTS = re.compile(rf"{TERMINALS['COMMENT']}|{TERMINALS['BRACE_COMMENT']}", _ASCII)


def _ref(word: str) -> tuple[Kind | None, Square]:
    """A piece reference the step pattern matched: ``Ra1`` or ``a1``."""
    return (KINDS[word[0]], SQUARES[word[1:]]) if len(word) == 3 else (None, SQUARES[word])


#: The first letters of the statements that name a card: ``activate``, ``play``, ``reveal``.
_CARD_WORDS: Final = frozenset({"act", "pla", "rev"})


def _statement(text: str) -> tuple[str, Action | None, int]:
    """A statement without its claims: its word, the core action (without a stated payment),
    and the amount of an income statement.

    The step pattern has matched the statement, so its words are known to be well formed and
    in their places; they are read by position (comments between them dropped first). A card's
    statement, whose quoted name may hold anything, is read token by token."""
    if ascii_lower(text[:3]) in _CARD_WORDS:
        return _card_statement(text)
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


def _card_statement(text: str) -> tuple[str, Action | None, int]:
    """``activate``, ``play`` and ``reveal``: the card's name, and its target or the player."""
    words = [text[start:end] for start, end in _tokens(text, 0, len(text))]
    word = ascii_lower(words[0])
    card = _unquote(words[1])
    if word == "reveal":
        return word, Reveal(card, WHITE if ascii_lower(words[3]) == "white" else BLACK), 0
    kind, target = _ref(words[3]) if len(words) == 4 else (None, None)
    if word == "activate":
        return word, Activate(card, None, target, kind), 0
    return word, Play(card, target, kind), 0


#: A claim's word -> (its kind; or None for pay and gain, whose kind depends on the amount).
_CLAIM_WORDS: Final[dict[str, ClaimKind | None]] = {**VALUE_CLAIMS, **FLAG_CLAIMS, "pay": None, "gain": None}
#: Each claim kind as one bit, so that a run of claims records its kinds in one small int.
_BIT: Final[dict[ClaimKind, int]] = {kind: 1 << index for index, kind in enumerate(ClaimKind)}
#: The kinds of claim a statement may carry, by the statement's word: the bits it may not
#: (a ``reveal`` takes no claims).
_NOT_ALLOWED: Final[dict[str, int]] = {
    word: sum(bit for kind, bit in _BIT.items() if kind not in allowed) for word, (_a, allowed) in APPLICABLE.items()
} | {"reveal": sum(_BIT.values())}
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


# Bounded caches (emptied when full): the same statements and runs of claims recur all through a
# game and from one game to the next, and what they read into is immutable. They serve the step
# pattern's readings: the pure build's, and the steps the compiled build's scanner leaves to it.
# 8,192 entries each: most of what 32,768 saved in time, for about 15 MB less at the peak of a long
# replay (docs/benchmarks.md).
_CACHE_SIZE = 8192
_statements: dict[str, tuple[str, Action | None, int]] = {}
_claim_runs: dict[str, _Claims | None] = {}


def _statement_of(text: str) -> tuple[str, Action | None, int]:
    """:func:`_statement`, remembered."""
    statement = _statements.get(text)
    if statement is None:
        if len(_statements) >= _CACHE_SIZE:
            _statements.clear()
        statement = _statements[text] = _statement(text)
    return statement


def _claims_of(text: str) -> _Claims | None:
    """:func:`_claims`, remembered."""
    if text in _claim_runs:
        return _claim_runs[text]
    if len(_claim_runs) >= _CACHE_SIZE:
        _claim_runs.clear()
    read = _claim_runs[text] = _claims(text)
    return read


#: Each phase by its label as it is most often written (``main1:``); others are read by :func:`_phase`.
_LABELS: Final[dict[str, Phase]] = {f"{word}:": phase for word, phase in PHASES.items()}


def _phase(label: str) -> Phase:
    """The phase a label names (``main1:``, ``Main1 :``); a label written another way is
    remembered (up to 64 ways: a log's capitals and spacing repeat)."""
    phase = _LABELS.get(label)
    if phase is None:
        phase = PHASES[label[: label.index(":")].rstrip(" \t").lower()]
        if len(_LABELS) < 64:
            _LABELS[label] = phase
    return phase


def _step(m: re.Match[str]) -> TurnStep | None:
    """The step a match of ``_STEP`` stands for; None where the grammar has to decide."""
    num, black, label, text, claims_text = m.groups()
    number: int | None = None
    color: Color | None = None
    if num is not None:
        number = int(num)
        if number == 0:
            return None  # turn 0: the grammar reports it
        color = BLACK if black else WHITE
    phase = None if label is None else _phase(label)
    if text is None:
        return TurnStep(number, color, phase, None, None, (), 0, m)
    word, action, amount = _statement_of(text)
    claims: tuple[StepClaim, ...] = ()
    if claims_text:
        read = _claims_of(claims_text)
        if read is None:
            return None
        claims, pay, kinds = read
        if kinds & _NOT_ALLOWED[word]:
            return None  # a claim that does not fit the statement: the grammar reports it
        if pay is not None and action is not None:
            action = action.replace(pay=pay)  # only paying actions take pay claims
    return TurnStep(number, color, phase, word, action, claims, amount, m)


# --- the scanner: the plainest steps in one pass over their characters -------------------------------


#: Read steps with :func:`_scan_step` first (the step pattern reads what it leaves): in the
#: compiled build, where a loop over characters is C; the pure build keeps the step pattern,
#: whose loop over characters is the regular expression engine's (a long replay: pure 8.5 s
#: with the scanner, 6.3 s without; docs/benchmarks.md).
SCAN: bool = compiled()

#: The statements the scanner reads (a card's statement, whose name is quoted, is left to the pattern).
_SCANNED: Final = frozenset({"move", "attack", "summon", "teleport", "break", "repair", "convert", "income", "pass"})
#: The words a claim starts with, in any case (the scanner leaves a claim it does not read to the pattern).
_CLAIM_START: Final = frozenset(_CLAIM_WORDS)
#: The claims the scanner reads, in lower case: each word's kind, and whether a number follows it.
_SCANNED_CLAIMS: Final[dict[str, tuple[ClaimKind, bool]]] = {
    name: (kind, name in VALUE_CLAIMS) for name, kind in _CLAIM_WORDS.items() if kind is not None
}
#: The vocabulary's tables, named here so that the compiled scanner reads them without a look-up by name.
_KINDS: Final = KINDS
_PHASES: Final = PHASES
_NO_PART: Final = (-1, -1)


def _step_at(text: str, pos: int) -> TurnStep | re.Match[str]:
    """The step at ``pos`` as the scanner reads it, or else as the step pattern matches it."""
    if SCAN:
        step = _scan_step(text, pos)
        if step is not None:
            return step
    found = _STEP.match(text, pos)
    assert found is not None  # every part of the pattern is optional
    return found


def _skip(text: str, pos: int, size: int) -> int:
    """After the separators at ``pos``: spaces, tabs, line breaks, ``;`` comments (to the end of
    their line) and ``{...}`` comments, as the pattern's ``_SEP`` reads them; -1 if other
    whitespace or a ``{`` that is never closed follows them (the scanner leaves those to the pattern)."""
    while pos < size:
        code = ord(text[pos])  # compiled: the character's code read in place, no string made
        if code == 32 or code == 10 or code == 9:  # a space, a line break, a tab
            pos += 1
        elif code == 59:  # ``;``: a comment to the end of the line (the line break is a separator)
            end = text.find("\n", pos)
            pos = size if end < 0 else end
        elif code == 123:  # ``{``: a comment to the next ``}``
            end = text.find("}", pos)
            if end < 0:
                return -1
            pos = end + 1
        elif text[pos].isspace():  # other whitespace
            return -1
        else:
            return pos
    return pos


def _word_end(text: str, pos: int, size: int) -> int:
    """The end of the run of ASCII letters, digits, ``_`` and ``-`` at ``pos`` (a keyword's extent)."""
    while pos < size:
        code = ord(text[pos])
        if 97 <= code <= 122 or 48 <= code <= 57 or 65 <= code <= 90 or code == 45 or code == 95:
            pos += 1
        else:
            break
    return pos


def _ends_token(text: str, pos: int, size: int) -> bool:
    """A token ends at ``pos`` with a space, a tab, a line break or the end of the text."""
    if pos >= size:
        return True
    code = ord(text[pos])
    return code == 32 or code == 10 or code == 9


def _square_at(text: str, pos: int, size: int) -> int:
    """The square written at ``pos`` (``e4``) and ended there as a token; -1 if none."""
    if pos + 1 >= size:
        return -1
    file, rank = ord(text[pos]) - 97, ord(text[pos + 1]) - 49
    if 0 <= file < 8 and 0 <= rank < 8 and _ends_token(text, pos + 2, size):
        return file + 8 * rank
    return -1


def _colon(text: str, pos: int, size: int) -> int:
    """Where the ``:`` of a phase label is, after the spaces and tabs at ``pos`` (``end :``); -1 if none."""
    while pos < size:
        code = ord(text[pos])
        if code == 58:  # ``:``
            return pos
        if code != 32 and code != 9:
            return -1
        pos += 1
    return -1


def _kind_at(text: str, pos: int, size: int) -> Kind | None:
    """The piece letter at ``pos`` (``K``, ``Q``, ``R``, ``B``, ``N``, ``P``), if one is there."""
    return _KINDS.get(text[pos]) if pos < size else None


def _number_end(text: str, pos: int, size: int) -> int:
    """The end of a number at ``pos`` of at most MAX_NUMBER_DIGITS digits, ended as a token; -1
    if there is none; -2 if digits are there but are no such number (the pattern decides)."""
    end = pos
    while end < size and 48 <= ord(text[end]) <= 57:  # 0-9
        end += 1
    if end == pos:
        return -1
    if end - pos > MAX_NUMBER_DIGITS or not _ends_token(text, end, size):
        return -2
    return end


def _number(text: str, start: int, end: int) -> int:
    value = 0
    for i in range(start, end):
        value = value * 10 + ord(text[i]) - 48
    return value


class _Scan:
    """Where the scanner is in a statement: ``pos`` after the last token read, ``ok`` False once
    it has met something it leaves to the pattern."""

    __slots__ = ("ok", "pos", "size", "text")

    def __init__(self, text: str, pos: int, size: int) -> None:
        self.text, self.pos, self.size, self.ok = text, pos, size, True

    def next(self) -> int:
        """The start of the next token (after the separators), or -1 (the pattern decides)."""
        at = _skip(self.text, self.pos, self.size)
        if at < 0:
            self.ok = False
        return at

    def square(self) -> int:
        """A square as the next token (``e4``); -1 and not ok if there is none."""
        at = self.next()
        square = _square_at(self.text, at, self.size) if at >= 0 else -1
        if square < 0:
            self.ok = False
            return -1
        self.pos = at + 2
        return square

    def ref(self) -> tuple[Kind | None, int]:
        """A piece reference as the next token (``Nb1``, ``b1``); (None, -1) and not ok if there is none."""
        at = self.next()
        if at < 0:
            return None, -1
        kind = _kind_at(self.text, at, self.size)
        start = at + 1 if kind is not None else at
        square = _square_at(self.text, start, self.size)
        if square < 0:
            self.ok = False
            return None, -1
        self.pos = start + 2
        return kind, square

    def keyword(self, word: str) -> None:
        """``word`` (in lower case) as the next token, in any case; not ok otherwise."""
        at = self.next()
        if at < 0:
            self.ok = False
            return
        end = at + len(word)
        text = self.text
        if not text.startswith(word, at) and text[at:end].lower() != word:
            self.ok = False
            return
        if _word_end(text, at, self.size) != end or not _ends_token(text, end, self.size):
            self.ok = False
            return
        self.pos = end

    def number(self) -> int:
        """A number as the next token; -1 and not ok if there is none."""
        at = self.next()
        end = _number_end(self.text, at, self.size) if at >= 0 else -1
        if end < 0:
            self.ok = False
            return -1
        self.pos = end
        return _number(self.text, at, end)

    def dice(self) -> tuple[int, ...]:
        """One number or more (the faces of a roll); () and not ok if there is none."""
        first = self.number()
        if not self.ok:
            return ()
        faces = [first]
        text, size = self.text, self.size
        while True:
            at = self.next()
            if at < 0:
                return ()
            end = at
            while end < size and 48 <= ord(text[end]) <= 57:  # 0-9
                end += 1
            if end == at or end - at > MAX_NUMBER_DIGITS:
                return tuple(faces)  # no number here, or one too long to be a face: the roll ends
            if not _ends_token(text, end, size):
                if _WORD_OR_DOT.match(text, end) is not None:
                    return tuple(faces)  # ``12.``, ``3x``: no number the pattern reads, the roll ends
                self.ok = False  # ``3;``: a face for the pattern, with a comment after it
                return ()
            faces.append(_number(text, at, end))
            self.pos = end


#: What ends no number: the pattern's ``(?![\w.-])`` after its digits.
_WORD_OR_DOT: Final = re.compile(r"[\w.-]", _ASCII)


def _scan_statement(scan: _Scan, word: str) -> tuple[Action | None, int]:
    """The statement after its word ``word``: the core action (None for pass and income) and an
    income's amount; ``scan.ok`` False if it is not written in the plainest way."""
    if word == "move":
        kind, frm = scan.ref()
        second = scan.square()
        if not scan.ok:
            return None, 0
        at = scan.next()
        third = _square_at(scan.text, at, scan.size) if at >= 0 else -1
        if (
            third < 0
            and at >= 0
            and at + 1 < scan.size
            and "a" <= scan.text[at] <= "h"
            and "1" <= scan.text[at + 1] <= "8"
        ):
            scan.ok = False  # ``c2.``: a square for the pattern (no letter, digit or ``-`` after it)
            return None, 0
        if third >= 0:  # by way of a middle square: move Ng1 f3 d4 (the middle first)
            scan.pos = at + 2
            return Move(_SQUARE[frm], _SQUARE[third], _SQUARE[second], kind), 0
        return Move(_SQUARE[frm], _SQUARE[second], None, kind), 0
    if word == "attack":
        kind, frm = scan.ref()
        target_kind, target = scan.ref()
        scan.keyword("roll")
        roll = scan.dice() if scan.ok else ()
        if not scan.ok:
            return None, 0
        at = scan.next()
        again = ascii_lower(scan.text[at : _word_end(scan.text, at, scan.size)]) if at >= 0 else ""
        if again == "reroll" or again == "advantage":
            advantage = again == "advantage"
            scan.keyword(again)
            first = scan.number()
            second = scan.number()
            if not scan.ok:
                return None, 0
            return Attack(_SQUARE[frm], _SQUARE[target], roll, kind, target_kind, None, (first, second), advantage), 0
        return Attack(_SQUARE[frm], _SQUARE[target], roll, kind, target_kind), 0
    if word == "summon":
        at = scan.next()
        kind = _kind_at(scan.text, at, scan.size) if at >= 0 else None
        if kind is None:
            scan.ok = False
            return None, 0
        if _ends_token(scan.text, at + 1, scan.size):
            scan.pos = at + 1
            to = scan.square()
        else:
            to = _square_at(scan.text, at + 1, scan.size)
            scan.pos = at + 3
            scan.ok = to >= 0
        return (Summon(kind, _SQUARE[to]), 0) if scan.ok else (None, 0)
    if word == "teleport":
        kind, frm = scan.ref()
        to = scan.square()
        return (Teleport(_SQUARE[frm], _SQUARE[to], kind), 0) if scan.ok else (None, 0)
    if word == "break" or word == "repair":
        scan.keyword("roll")
        roll = scan.dice() if scan.ok else ()
        if not scan.ok:
            return None, 0
        return (Break(roll) if word == "break" else Repair(roll)), 0
    if word == "convert" or word == "income":
        amount = scan.number()
        if not scan.ok:
            return None, 0
        return (Convert(amount), 0) if word == "convert" else (None, amount)
    return None, 0  # pass


def _scan_claims(scan: _Scan, word: str) -> tuple[StepClaim, ...] | None:
    """The claims after a statement, each a value claim (``cost 3``) or a word (``hit``) in lower
    case, that fit the statement; None for anything else the pattern might read as a claim."""
    claims: list[StepClaim] = []
    kinds = 0
    text, size = scan.text, scan.size
    while True:
        at = scan.next()
        if at < 0:
            return None
        end = _word_end(text, at, size)
        if end == at:
            break
        name = text[at:end]
        known = _SCANNED_CLAIMS.get(name)
        if known is None:
            name = name.lower()  # the word is ASCII letters, digits, ``_`` and ``-``
            known = _SCANNED_CLAIMS.get(name)
            if known is None:
                if name in _CLAIM_START:
                    return None  # pay or gain: the pattern's
                break
        if not _ends_token(text, end, size):
            return None
        kind, valued = known
        scan.pos = end
        if valued:
            value = scan.number()
            if not scan.ok:
                return None
            claims.append((kind, value))
        else:
            claims.append((kind, None))
        kinds |= _BIT[kind]
    if kinds & _NOT_ALLOWED[word]:
        return None
    return tuple(claims)


#: Each square by its number (``Square`` is the number itself).
_SQUARE: Final = ALL_SQUARES


def _scan_step(text: str, start: int) -> TurnStep | None:
    """The step at ``start`` read in one pass over its characters, when it is written in the
    plainest way: a turn header, a phase label in lower case and a statement with claims in
    lower case (not a card's), words apart by spaces, tabs and line breaks. None for anything
    else (comments, capitals, other whitespace, a card, pay and gain, turn 0, a word out of
    place): the step pattern reads it, and decides. What it reads is what the pattern reads,
    to the position (tests/lang/test_log_scanner.py holds the two to each other)."""
    size = len(text)
    pos = start
    number: int | None = None
    color: Color | None = None
    num_end = label_at = label_end = -1
    phase: Phase | None = None
    if pos < size and 49 <= ord(text[pos]) <= 57:  # a turn header: 12. or 12...
        end = pos
        while end < size and 48 <= ord(text[end]) <= 57:
            end += 1
        if end - pos > MAX_NUMBER_DIGITS or end >= size or ord(text[end]) != 46:  # ``.``
            return None
        number, num_end = _number(text, pos, end), end
        end += 1
        color = WHITE
        if end < size and ord(text[end]) == 46:
            if not text.startswith("..", end):
                return None
            color, end = BLACK, end + 2
        if not _ends_token(text, end, size):
            return None
        pos = _skip(text, end, size)
        if pos < 0:
            return None
    word_end = _word_end(text, pos, size)
    name = text[pos:word_end]
    colon = _colon(text, word_end, size)
    label: Phase | None = None
    if colon >= 0:  # ``word:``, ``Word :``
        label = _PHASES.get(name)
        if label is None:
            label = _PHASES.get(name.lower())
    if label is not None:
        phase, label_at, label_end = label, pos, colon + 1
        if not _ends_token(text, colon + 1, size):
            return None
        pos = _skip(text, colon + 1, size)
        if pos < 0:
            return None
        word_end = _word_end(text, pos, size)
        name = text[pos:word_end]
    if word_end == pos or 48 <= ord(text[pos]) <= 57:  # no statement: the end, or the next turn
        if number is None and phase is None:
            return None
        at = (start, pos, num_end, label_at, label_end, -1, -1, -1)
        return TurnStep(number, color, phase, None, None, (), 0, None, None, None, at)
    if name not in _SCANNED:
        name = name.lower()  # ``Move``, ``MOVE``: the word is ASCII
        if name not in _SCANNED:
            return None
    if not _ends_token(text, word_end, size):
        return None
    scan = _Scan(text, word_end, size)
    action, amount = _scan_statement(scan, name)
    if not scan.ok:
        return None
    stmt_end = scan.pos
    claims = _scan_claims(scan, name)
    if claims is None:
        return None
    claims_end = scan.pos
    end = _skip(text, claims_end, size)
    if end < 0:
        return None
    at = (start, end, num_end, label_at, label_end, pos, stmt_end, claims_end)
    return TurnStep(number, color, phase, name, action, claims, amount, None, None, None, at)


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

    def __init__(
        self,
        source: SourceText,
        progress: Callable[[int], None] | None = None,
        start: tuple[int, int, int] | None = None,
    ) -> None:
        self.progress = progress
        # ``start``: (file offset, its line, the offset where that line starts): read from there on
        offset, line, line_start = start if start is not None else (0, 1, 0)
        self.pieces: Iterator[str] = iter(source.pieces) if start is None else iter((source.text[offset:],))
        self.held: str | None = None  # text read from the pieces but not yet in the window
        self.text = ""
        self.base = offset  # file offset of text[0]
        self.final = False  # text runs to the end of the log
        self.line = line  # the line number at text[line_pos] ...
        self.line_pos = 0
        self.line_start = line_start  # ... and the file offset where that line starts
        self.first_line_start = line_start  # the file offset where the line of text[0] starts
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

    def __init__(
        self,
        source: SourceText,
        progress: Callable[[int], None] | None = None,
        start: tuple[int, int, int] | None = None,
    ) -> None:
        self.source = source
        self.name = source.name
        self.window = _Window(source, progress, start)
        self.failed: Iterator[tuple[LogItem, Resume]] | None = None  # the grammar's reading, about to raise
        #: the next turn's header, read already: where, in which text, and its step or match
        self.ahead: tuple[int, str, TurnStep | re.Match[str]] | None = None

    def span(self, start: int, end: int) -> Span:
        line, column, offset = self.window.where(start)
        end_line, end_column, end_offset = self.window.where(end)
        return Span(self.name, line, column, end_line, end_column, offset, end_offset)

    def items(self) -> Iterator[LogItem | PlainTurn]:
        header: LogItem
        try:
            header, pos = self.header()
        except _GrammarNeeded:
            header, pos = self.grammar(1, 1, 0, header=True)
        yield header
        if self.failed is not None:  # the grammar's items up to its syntax error, then the error
            yield from (pending for pending, _resume in self.failed)
        yield from self.rest(pos)

    def rest(self, pos: int) -> Iterator[LogItem | PlainTurn]:
        """The items from ``pos`` of the window on (the start of an item, or blank text before one)."""
        window = self.window
        retried = -1  # the file offset of an item read again with a longer window
        while True:
            ahead = self.ahead
            if ahead is None or ahead[0] != pos or ahead[1] is not window.text:  # else a header is here
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
        ahead = self.ahead
        self.ahead = None
        found = ahead[2] if ahead is not None and ahead[0] == start and ahead[1] is text else _step_at(text, start)
        if isinstance(found, TurnStep):
            head: TurnStep | None = found
        else:
            head = _step(found) if found.group("num") is not None else None
        if head is None or head.number is None:
            raise _GrammarNeeded
        steps: list[TurnStep] = [head]
        pos = found.end()
        size = len(text)
        match = _STEP.match
        scan = SCAN
        last: TurnStep | re.Match[str] | None = found  # the last step read, perhaps the next turn's header
        while pos < size:
            scanned = _scan_step(text, pos) if scan else None
            if scanned is not None:
                last = scanned
                if scanned.number is not None:
                    break
                steps.append(scanned)
                pos = scanned.end()
                continue
            m = last = match(text, pos)
            if m is None or m.end() == pos or m.group("num") is not None:
                break
            step = _step(m)
            if step is None:
                raise _GrammarNeeded
            steps.append(step)
            pos = m.end()
        if pos == size and not self.window.final:
            return None, start
        line, column, offset = self.window.where(start)
        number, color = head.number, head.color
        assert color is not None
        turn = PlainTurn(number, color, steps, self.name, text, start, self.window.base, line, offset - column + 1)
        if pos < size and last is not None and last.end() > pos:
            self.ahead = (pos, text, last)  # the next turn starts here, its header already read
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


def read_log_from(source: SourceText, offset: int, line: int, line_start: int) -> Iterator[LogItem | PlainTurn]:
    """The log's items from file ``offset`` on, which is the start of an item after the header
    (``line``: its line; ``line_start``: the offset where that line starts): the items
    :func:`read_log` hands out from there, with the same spans. What comes before ``offset`` is
    not read, so a replay resumed at a turn (:mod:`sgcheck.replay.resume`) reads only the rest."""
    return _Reader(source, None, (offset, line, line_start)).rest(0)


def iter_log(source: SourceText) -> Iterator[LogItem]:
    """Yield the Header first (always, possibly with no tags; an empty header gets a zero-width
    span at 1:1), then every setup item, Turn and ResultLine in file order, *lazily*. Raises
    LogSyntaxError at the first syntax error, after yielding every item that precedes it.

    Every turn comes as its syntax tree, built by the line reader from what it read
    (:meth:`PlainTurn.tree`); the grammar reads only text that is not well formed.
    """
    for item in read_log(source):
        yield item.tree() if isinstance(item, PlainTurn) else item


def parse_log(source: SourceText) -> list[LogItem]:
    """Every item of the log (convenience for small logs and tests): ``list(iter_log(source))``."""
    return list(iter_log(source))
