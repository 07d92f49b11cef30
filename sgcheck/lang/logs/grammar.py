"""Parser for the game-log language (``.sglog``): text in, :mod:`~sgcheck.lang.logs.ast` nodes out.

Design, in short (details in ``grammar/sglog.lark`` and ``docs/log-format.md``):

- Lark LALR with the contextual lexer. The grammar is compiled once per process.
- No parse tree: :class:`_LogBuilder` is embedded in the parser as its transformer, so AST
  nodes are built at reduction time. The top-level item list keeps only a placeholder on
  the parser stack; finished items are appended to a queue that :func:`iter_log` drains
  token by token. A million-action log is therefore replayed while it is being parsed, in
  memory bounded by the text plus one turn.
- Errors become :class:`LogSyntaxError` with a catalogued diagnostic (SG-P001/P002/P003)
  whose message says, in plain words, what was found and what was expected. Lark's
  ``match_examples`` classifies the parser state against labelled examples of common
  mistakes; a few word-level checks (``i9``, ``upkeep`` without its colon, misspelt
  keywords) sharpen the message.

Lark is imported lazily so that importing this module (e.g. for ``LogSyntaxError``) stays
cheap for the command line.
"""

from __future__ import annotations

import difflib
import re
import threading
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Any, NoReturn, cast

from sgcheck import codes
from sgcheck.core.caps import MAX_NUMBER_DIGITS, number_too_long
from sgcheck.core.pieces import Color
from sgcheck.diagnostics import Diagnostic, Span
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
from sgcheck.lang.logs.vocab import APPLICABLE, FLAG_CLAIMS, KINDS, PHASES, SQUARES, VALUE_CLAIMS
from sgcheck.lang.logs.writer import format_claim
from sgcheck.lang.source import SourceText
from sgcheck.resources import grammar_text

if TYPE_CHECKING:
    from lark import Lark, Token
    from lark.exceptions import UnexpectedInput
    from lark.parsers.lalr_interactive_parser import InteractiveParser


__all__ = ["LogSyntaxError", "grammar_items", "items_from", "iter_log", "parse_log"]

GRAMMAR_FILE = "sglog.lark"


class LogSyntaxError(Exception):
    """The log text does not follow the grammar; ``diagnostic`` says where and why."""

    def __init__(self, diagnostic: Diagnostic) -> None:
        where = f"{diagnostic.span}: " if diagnostic.span else ""
        super().__init__(where + diagnostic.message)
        self.diagnostic = diagnostic


class _SemanticError(Exception):
    """Raised from reduction callbacks for errors the grammar cannot express (e.g. a claim that
    does not fit its statement); turned into :class:`LogSyntaxError` by :func:`iter_log`."""

    def __init__(self, diagnostic: Diagnostic) -> None:
        super().__init__(diagnostic.message)
        self.diagnostic = diagnostic


# --- lookup tables -------------------------------------------------------------------------------

_HEADER_TERMINALS = frozenset({"LSQB", "TAG_NAME", "STRING", "RSQB"})
#: Claim keywords by grammar terminal name (``KING_DAMAGE`` for ``king-damage``).
_CLAIM_KINDS: dict[str, ClaimKind] = {
    word.upper().replace("-", "_"): kind for word, kind in (*VALUE_CLAIMS.items(), *FLAG_CLAIMS.items())
} | {"PAY": ClaimKind.PAY}
_K = ClaimKind


# --- span and value helpers ----------------------------------------------------------------------


# Every token carries the whitespace that follows it (the grammar's _TAIL), and no token has a
# line break before that whitespace: its text is value.rstrip(), on the line where it starts.


def _tspan(n: str, t: Token) -> Span:
    k = len(t.value.rstrip())
    c, p = t.column, t.start_pos
    return Span(n, t.line, c, t.line, c + k, p, p + k)  # type: ignore[arg-type,operator]


def _tjoin(n: str, a: Token, b: Token) -> Span:
    k = len(b.value.rstrip())
    end, end_pos = b.column + k, b.start_pos + k  # type: ignore[operator]
    return Span(n, a.line, a.column, b.line, end, a.start_pos, end_pos)  # type: ignore[arg-type]


def _sjoin(a: Token, b: Span) -> Span:
    return Span(b.source, a.line, a.column, b.end_line, b.end_column, a.start_pos, b.end_offset)  # type: ignore[arg-type]


def _semantic(code: str, message: str, span: Span, label: str, hint: str | None = None) -> NoReturn:
    raise _SemanticError(codes.diagnostic(code, message, hint=hint).at(span, label))


def _int(t: Token, text: str | None = None) -> int:
    """The value of a decimal token (``text``: its digits, if the token holds more than them).

    Every number token was checked against MAX_NUMBER_DIGITS as it was read (:func:`_refuse_long`),
    so the conversion is cheap and cannot fail."""
    return int(t if text is None else text)  # int() ignores the trailing whitespace


#: Terminals that hold a number: its digits, then perhaps "." / "..." (TURN) or "sp" / "lp" (AMOUNT).
_NUMBER_TERMINALS = frozenset({"INT", "TURN", "AMOUNT"})


def _refuse_long(n: str, t: Token) -> None:
    """SG-P012, placed on the digits, if the number token ``t`` has more than MAX_NUMBER_DIGITS."""
    text = t.value.rstrip()
    digits = len(text) - len(text.lstrip("0123456789"))
    if digits <= MAX_NUMBER_DIGITS:
        return
    line, column, pos = t.line, t.column, t.start_pos
    span = Span(n, line, column, line, column + digits, pos, pos + digits)  # type: ignore[arg-type,operator]
    raise _SemanticError(
        codes.diagnostic(
            "SG-P012",
            number_too_long(text[:digits], digits),
            hint=f"no number in a log has more than {MAX_NUMBER_DIGITS} digits; was a space or a line break lost?",
        ).at(span, "number too long")
    )


def _unquote(t: str) -> str:
    body = t[1:-1]
    if "\\" in body:
        body = re.sub(r"\\(.)", r"\1", body)
    return body


def _piece_ref(n: str, t: Token) -> PieceRef:
    v: str = t.value
    kind = KINDS.get(v[0])
    if kind is not None:
        return PieceRef(kind, SQUARES[v[1:3]], _tspan(n, t))
    return PieceRef(None, SQUARES[v[:2]], _tspan(n, t))


def _square_ref(n: str, t: Token) -> SquareRef:
    return SquareRef(SQUARES[t.value[:2]], _tspan(n, t))


def _dice(n: str, faces: list[Token]) -> Dice:
    return Dice(tuple([_int(f) for f in faces]), _tjoin(n, faces[0], faces[-1]))


def _claims_for(what: str, claims: list[Claim]) -> tuple[Claim, ...]:
    """The claims as a tuple, after checking that each one makes sense after ``what``."""
    article, allowed = APPLICABLE[what]
    for claim in claims:
        if claim.kind not in allowed:
            _reject_claim(what, article, claim)
    return tuple(claims)


def _reject_claim(what: str, article: str, claim: Claim) -> NoReturn:
    text = format_claim(claim)
    word = text.split()[0] if claim.kind not in (_K.GAIN_SP, _K.GAIN_LP) else text
    owners = [a for w, (a, allowed) in APPLICABLE.items() if claim.kind in allowed and w != what]
    where = _or_list(owners) if owners else "no statement"
    fitting = sorted({_claim_word(k) for k in APPLICABLE[what][1]})
    _semantic(
        "SG-P001",
        f"claim '{word}' does not apply to {article}; it can follow {where}",
        claim.span,
        f"not a claim about {article}",
        hint=f"claims that can follow {article}: {', '.join(fitting)}",
    )


def _claim_word(kind: ClaimKind) -> str:
    if kind is _K.GAIN_SP:
        return "gain <n>sp"
    if kind is _K.GAIN_LP:
        return "gain <n>lp"
    return str(kind.value)


def _or_list(words: list[str]) -> str:
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + " or " + words[-1]


# --- the embedded transformer --------------------------------------------------------------------


class _LogBuilder:
    """Lark calls these methods by rule name at reduction time (``Lark(transformer=...)``).

    Each receives the rule's children exactly as the grammar lists them (every terminal is
    named and no rule is inlined, so lark adds no filtering) and returns an AST node, a
    Python list (for the explicit list rules) or ``None`` (for rules whose result is handed
    to :func:`iter_log` through the queue instead of staying on the parser stack).

    One instance serves the whole process; what differs per parse (the source name for
    spans and the output queue) lives in a thread-local slot that :func:`iter_log` re-binds
    each time it resumes, so interleaved generators and threads stay independent.
    """

    def __init__(self) -> None:
        self._local = threading.local()

    def bind(self, name: str, out: list[LogItem]) -> None:
        self._local.name = name
        self._local.out = out

    # --- lists: O(1) appends to one Python list ---------------------------------------------------

    def items(self, c: list[Any]) -> None:
        if c:
            self._local.out.append(c[1])

    def stmts(self, c: list[Any]) -> list[Any]:
        if c:
            lst: list[Any] = c[0]
            lst.append(c[1])
            return lst
        return []

    phases = stmts
    claims = stmts

    def ints(self, c: list[Any]) -> list[Any]:
        if len(c) == 1:
            return c
        lst: list[Any] = c[0]
        lst.append(c[1])
        return lst

    strings = ints

    # --- header: built by iter_log from the tokens, so it is complete before any error --------

    def start(self, c: list[Any]) -> None:
        return None

    def header(self, c: list[Any]) -> None:
        return None

    def tag(self, c: list[Any]) -> None:
        return None

    # --- setup and result ------------------------------------------------------------------------

    def draft(self, c: list[Any]) -> Draft:
        n: str = self._local.name
        strings: list[Token] = c[2]
        cards = tuple([CardName(_unquote(s.value.rstrip()), _tspan(n, s)) for s in strings])
        color = Color.WHITE if c[1].type == "WHITE" else Color.BLACK
        return Draft(color, cards, _tjoin(n, c[0], strings[-1]))

    def rolloff(self, c: list[Any]) -> RollOff:
        n: str = self._local.name
        return RollOff(_dice(n, c[2:5]), _dice(n, c[6:9]), _tjoin(n, c[0], c[8]))

    def choose(self, c: list[Any]) -> ColourChoice:
        n: str = self._local.name
        color = Color.WHITE if c[1].type == "WHITE" else Color.BLACK
        return ColourChoice(color, _tjoin(n, c[0], c[1]))

    def king(self, c: list[Any]) -> KingPlacement:
        n: str = self._local.name
        color = Color.WHITE if c[1].type == "WHITE" else Color.BLACK
        return KingPlacement(color, _square_ref(n, c[2]), _tjoin(n, c[0], c[2]))

    def result(self, c: list[Any]) -> ResultLine:
        n: str = self._local.name
        reason = c[2].value.rstrip().lower() if len(c) == 3 else None
        return ResultLine(c[1].value.rstrip(), reason, _tjoin(n, c[0], c[-1]))

    # --- turns -----------------------------------------------------------------------------------

    def turn(self, c: list[Any]) -> Turn:
        n: str = self._local.name
        tok: Token = c[0]
        loose: list[Statement] = c[1]
        phases: list[PhaseBlock] = c[2]
        text: str = tok.value.rstrip()
        number = _int(tok, text.rstrip("."))
        if number == 0:
            _semantic(
                "SG-P001",
                "syntax error: turn numbers start at 1 ('1.' is White's first turn, '1...' Black's)",
                _tspan(n, tok),
                "turn 0",
            )
        color = Color.BLACK if text.endswith("...") else Color.WHITE
        head = _tspan(n, tok)
        last = phases[-1].span if phases else loose[-1].span if loose else None
        span = _sjoin(tok, last) if last is not None else head
        return Turn(number, color, head, tuple(loose), tuple(phases), span)

    def phase(self, c: list[Any]) -> PhaseBlock:
        n: str = self._local.name
        tok: Token = c[0]
        stmts: list[Statement] = c[1]
        label = _tspan(n, tok)
        phase = PHASES[tok[: tok.index(":")].rstrip(" \t").lower()]
        span = _sjoin(tok, stmts[-1].span) if stmts else label
        return PhaseBlock(phase, label, tuple(stmts), span)

    # --- statements ------------------------------------------------------------------------------

    def summon_stmt(self, c: list[Any]) -> SummonStmt:
        n: str = self._local.name
        kw: Token = c[0]
        claims: list[Claim] = c[-1]
        if len(c) == 4:
            letter: Token = c[1]
            last: Token = c[2]
            kind, kind_span, to = KINDS[letter.value[0]], _tspan(n, letter), _square_ref(n, last)
        else:
            last = c[1]
            if last.value[0] not in KINDS:
                where = last.value[:2]
                _semantic(
                    "SG-P001",
                    f"syntax error: a summon names the piece: expected a piece letter before '{where}'",
                    _tspan(n, last),
                    "piece letter missing",
                    hint=f"write the letter of the piece to summon, e.g. 'summon Q {where}' (K Q R B N P)",
                )
            line, col, pos = last.line, last.column, last.start_pos
            kind = KINDS[last.value[0]]
            kind_span = Span(n, line, col, line, col + 1, pos, pos + 1)  # type: ignore[arg-type,operator]
            to_span = Span(n, line, col + 1, line, col + 3, pos + 1, pos + 3)  # type: ignore[arg-type,operator]
            to = SquareRef(SQUARES[last.value[1:3]], to_span)
        span = _sjoin(kw, claims[-1].span) if claims else _tjoin(n, kw, last)
        return SummonStmt(kind, kind_span, to, _claims_for("summon", claims), span)

    def move_stmt(self, c: list[Any]) -> MoveStmt:
        n: str = self._local.name
        kw: Token = c[0]
        claims: list[Claim] = c[-1]
        if len(c) == 5:
            via: SquareRef | None = _square_ref(n, c[2])
            last: Token = c[3]
        else:
            via = None
            last = c[2]
        span = _sjoin(kw, claims[-1].span) if claims else _tjoin(n, kw, last)
        return MoveStmt(_piece_ref(n, c[1]), _square_ref(n, last), via, _claims_for("move", claims), span)

    def attack_stmt(self, c: list[Any]) -> AttackStmt:
        n: str = self._local.name
        kw: Token = c[0]
        faces: list[Token] = c[4]
        claims: list[Claim] = c[5]
        span = _sjoin(kw, claims[-1].span) if claims else _tjoin(n, kw, faces[-1])
        return AttackStmt(
            _piece_ref(n, c[1]), _piece_ref(n, c[2]), _dice(n, faces), _claims_for("attack", claims), span
        )

    def convert_stmt(self, c: list[Any]) -> ConvertStmt:
        n: str = self._local.name
        kw: Token = c[0]
        amount: Token = c[1]
        claims: list[Claim] = c[2]
        span = _sjoin(kw, claims[-1].span) if claims else _tjoin(n, kw, amount)
        return ConvertStmt(_int(amount), _tspan(n, amount), _claims_for("convert", claims), span)

    def teleport_stmt(self, c: list[Any]) -> TeleportStmt:
        n: str = self._local.name
        kw: Token = c[0]
        claims: list[Claim] = c[3]
        span = _sjoin(kw, claims[-1].span) if claims else _tjoin(n, kw, c[2])
        return TeleportStmt(_piece_ref(n, c[1]), _square_ref(n, c[2]), _claims_for("teleport", claims), span)

    def break_stmt(self, c: list[Any]) -> BreakStmt:
        n: str = self._local.name
        faces: list[Token] = c[2]
        claims: list[Claim] = c[3]
        span = _sjoin(c[0], claims[-1].span) if claims else _tjoin(n, c[0], faces[-1])
        return BreakStmt(_dice(n, faces), _claims_for("break", claims), span)

    def repair_stmt(self, c: list[Any]) -> RepairStmt:
        n: str = self._local.name
        faces: list[Token] = c[2]
        claims: list[Claim] = c[3]
        span = _sjoin(c[0], claims[-1].span) if claims else _tjoin(n, c[0], faces[-1])
        return RepairStmt(_dice(n, faces), _claims_for("repair", claims), span)

    def activate_stmt(self, c: list[Any]) -> ActivateStmt:
        n: str = self._local.name
        card: Token = c[1]
        claims: list[Claim] = c[2]
        span = _sjoin(c[0], claims[-1].span) if claims else _tjoin(n, c[0], card)
        name = CardName(_unquote(card.value.rstrip()), _tspan(n, card))
        return ActivateStmt(name, _claims_for("activate", claims), span)

    def pass_stmt(self, c: list[Any]) -> PassStmt:
        n: str = self._local.name
        claims: list[Claim] = c[1]
        span = _sjoin(c[0], claims[-1].span) if claims else _tspan(n, c[0])
        return PassStmt(_claims_for("pass", claims), span)

    def income_stmt(self, c: list[Any]) -> IncomeStmt:
        n: str = self._local.name
        amount: Token = c[1]
        claims: list[Claim] = c[2]
        span = _sjoin(c[0], claims[-1].span) if claims else _tjoin(n, c[0], amount)
        return IncomeStmt(_int(amount), _tspan(n, amount), _claims_for("income", claims), span)

    # --- claims ----------------------------------------------------------------------------------

    def claim(self, c: list[Any]) -> Claim:
        n: str = self._local.name
        kw: Token = c[0]
        if len(c) == 1:
            return Claim(_CLAIM_KINDS[kw.type], _tspan(n, kw))
        last: Token = c[-1]
        span = _tjoin(n, kw, last)
        kind = kw.type
        if kind == "PAY":
            sp = lp = 0
            seen: set[str] = set()
            for amount in c[1:]:
                text: str = amount.value.rstrip()
                unit = text[-2:].lower()
                if unit in seen:
                    _semantic(
                        "SG-P001",
                        f"syntax error: 'pay' names {unit.upper()} twice",
                        _tspan(n, amount),
                        f"second {unit.upper()} amount",
                        hint="write each resource once, e.g. 'pay 5sp 7lp'",
                    )
                seen.add(unit)
                value = _int(amount, text[:-2])
                if unit == "sp":
                    sp = value
                else:
                    lp = value
            return Claim(ClaimKind.PAY, span, sp=sp, lp=lp)
        if kind == "GAIN":
            text = last.value.rstrip()
            gain_kind = ClaimKind.GAIN_SP if text[-2:].lower() == "sp" else ClaimKind.GAIN_LP
            return Claim(gain_kind, span, value=_int(last, text[:-2]))
        return Claim(_CLAIM_KINDS[kind], span, value=_int(last))


# --- building the parser -------------------------------------------------------------------------


@cache
def _builder() -> _LogBuilder:
    """The process-wide transformer: :class:`_LogBuilder`'s callbacks on lark's ``Transformer``.

    The lark base class is mixed in here, not in the class statement, so that importing this
    module does not import lark.
    """
    from lark import Transformer

    transformer_class = type("LogTransformer", (_LogBuilder, Transformer), {})
    return cast(_LogBuilder, transformer_class())


@cache
def _lark() -> Lark:
    """The compiled parser, built once per process (compiling takes ~0.1 s)."""
    from lark import Lark

    return Lark(
        grammar_text(GRAMMAR_FILE),
        parser="lalr",
        lexer="contextual",
        transformer=_builder(),
        maybe_placeholders=False,
        propagate_positions=False,
    )


def _end_token(text: str) -> Token:
    """The ``$END`` token, placed at the real end of the text (lark would borrow the last token's)."""
    from lark import Token

    line, column = _end_position(text)
    return Token("$END", "", len(text), line, column, line, column, len(text))


def _make_header(n: str, toks: list[Token]) -> Header:
    if not toks:
        return Header((), Span.point(n))
    tags = tuple(
        Tag(toks[i + 1].value.rstrip(), _unquote(toks[i + 2].value.rstrip()), _tjoin(n, toks[i], toks[i + 3]))
        for i in range(0, len(toks) - 3, 4)
    )
    return Header(tags, _tjoin(n, toks[0], toks[len(tags) * 4 - 1]))


# --- the public API ------------------------------------------------------------------------------


#: Where the reader goes on after an item the grammar read: (file offset, line, column) of the
#: next item's first token, or of the end of the text; None when the syntax error that follows
#: the item is raised by the next step of the same reading.
Resume = tuple[int, int, int] | None


def iter_log(source: SourceText) -> Iterator[LogItem]:
    """Yield the Header first (always, possibly with no tags; an empty header gets a zero-width
    span at 1:1), then every setup item, Turn and ResultLine in file order, *lazily*. Raises
    LogSyntaxError at the first syntax error, after yielding every item that precedes it.

    The line reader (:mod:`sgcheck.lang.logs.reader`) reads the log; each turn it read is read
    again here into its syntax tree, by the grammar, from its first character.
    """
    from sgcheck.lang.logs.reader import PlainTurn, read_log

    for item in read_log(source):
        yield item.tree() if isinstance(item, PlainTurn) else item


def grammar_items(source: SourceText) -> Iterator[LogItem]:
    """The log's items as the grammar alone reads them, from the first character to the last
    (the reference the line reader is tested against)."""
    for item, _resume in items_from(source):
        yield item


def items_from(
    source: SourceText, offset: int = 0, line: int = 1, column: int = 1, *, header: bool = True
) -> Iterator[tuple[LogItem, Resume]]:
    """The grammar's reading of ``source`` from ``offset`` (at ``line`` and ``column``), item by
    item, each with where the next item starts (:data:`Resume`).

    From offset 0 with ``header``, the Header comes first (always, possibly with no tags; an
    empty header gets a zero-width span at 1:1). Otherwise ``offset`` must be the start of an
    item: the parser is then in the state a reading of the whole text would be in there, so
    every error is found, worded and placed exactly as in that reading. Items are yielded as
    soon as they are complete; LogSyntaxError is raised at the first syntax error, after every
    item before it.
    """
    from lark.exceptions import UnexpectedInput

    n, text = source.name, source.text
    builder = _builder()
    out: list[LogItem] = []
    builder.bind(n, out)
    parser = _lark().parse_interactive(text)
    if offset:
        _start_at(parser, text, offset, line, column)
    tokens = parser.iter_parse()
    header_toks: list[Token] = []
    header_sent = not header
    previous: Token | None = None
    try:
        if not header_sent:
            for tok in tokens:  # each token is fed to the parser when the loop asks for the next one
                if tok.type in _HEADER_TERMINALS:
                    header_toks.append(tok)
                    continue
                header_sent = True
                yield _make_header(n, header_toks), _at(tok)
                builder.bind(n, out)
                if len(tok.value) > MAX_NUMBER_DIGITS and tok.type in _NUMBER_TERMINALS:
                    _refuse_long(n, tok)
                previous = tok
                break
        for tok in tokens:
            if len(tok.value) > MAX_NUMBER_DIGITS and tok.type in _NUMBER_TERMINALS:
                _refuse_long(n, tok)  # before the parser sees it: errors come in text order
            if out:  # reduced when ``previous`` came: the next item starts there
                assert previous is not None
                for item in _drain(out):
                    yield item, _at(previous)
                builder.bind(n, out)
            previous = tok
        if out:  # reduced when the last token came
            assert previous is not None
            for item in _drain(out):
                yield item, _at(previous)
            builder.bind(n, out)
        end = _end_token(text)
        parser.feed_token(end)
        if not header_sent:
            header_sent = True
            yield _make_header(n, header_toks), _at(end)
        for item in _drain(out):
            yield item, _at(end)
        return
    except UnexpectedInput as exc:
        diagnostic = _diagnose(exc, parser, source)
    except _SemanticError as exc:
        diagnostic = exc.diagnostic
    except (RecursionError, ValueError, KeyError, IndexError, TypeError, AttributeError) as exc:
        # Never expected; reported as a syntax error so that no input can crash a caller.
        diagnostic = codes.diagnostic(
            "SG-P001", f"syntax error: the log could not be parsed (internal error: {type(exc).__name__})"
        ).at(Span.point(n), "parsing stopped here")
    if not header_sent and len(header_toks) % 4 == 0:
        yield _make_header(n, header_toks), None
    for item in _drain(out):
        yield item, None
    raise LogSyntaxError(diagnostic)


def _drain(out: list[LogItem]) -> list[LogItem]:
    items = list(out)
    out.clear()
    return items


def _at(tok: Token) -> tuple[int, int, int]:
    return tok.start_pos, tok.line, tok.column  # type: ignore[return-value]


def _start_at(parser: InteractiveParser, text: str, offset: int, line: int, column: int) -> None:
    """Make the parser's lexer start at ``offset``, which is on ``line`` at ``column``.

    Lark can lex a slice of a text (``TextSlice``), but counts its lines by reading everything
    before it; the reader already knows where the item is, so the line counter is set directly.
    """
    from lark.lexer import LexerState, LineCounter
    from lark.utils import TextSlice

    counter = LineCounter("\n")  # type: ignore[no-untyped-call]
    counter.char_pos, counter.line, counter.column = offset, line, column
    counter.line_start_pos = offset - column + 1
    parser.lexer_thread.state = LexerState(TextSlice(text, offset, len(text)), counter)


def parse_log(source: SourceText) -> list[LogItem]:
    """Every item of the log (convenience for small logs and tests): ``list(iter_log(source))``."""
    return list(iter_log(source))


# --- friendly syntax errors ----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Expect:
    """What a parser state was waiting for, in words a player understands.

    ``expected`` and ``hint`` may use ``{prev}``: the word just before the error.
    """

    expected: str
    label: str
    hint: str | None = None


def _stmt_examples(*bodies: str) -> tuple[str, ...]:
    """Statement-level mistakes, placed in a phase block. (A loose statement reaches the same
    LALR states, and matching ignores stack depth, so one placement covers both.)"""
    return tuple(f"1. main1: {b}" for b in bodies)


_ATTACK_ROLL = _Expect(
    "'roll' and the two accuracy dice after the target (e.g. 'roll 6 1')",
    "expected 'roll' here",
    "an attack is written 'attack <attacker> <target> roll <tens> <ones>', e.g. 'attack Ra3 a5 roll 6 1'",
)
_ATTACK_DICE = _Expect(
    "the dice after 'roll' (two d10 faces, e.g. 'roll 6 1')",
    "expected two dice here",
    "accuracy is two d10 read as tens and ones; '0 0' counts as 100 (core §4.2)",
)
_GEM_ROLL = _Expect(
    "'roll' and the three d6 after '{prev}' (e.g. '{prev} roll 4 5 6')",
    "expected 'roll' here",
)
_GEM_DICE = _Expect(
    "the dice after 'roll' (three d6 faces, e.g. 'roll 4 5 6')",
    "expected three dice here",
    "Break and Repair roll 3d6 (core §6)",
)
_CLAIM_NUMBER = _Expect(
    "a number after '{prev}'",
    "expected a number here",
    "write the value the claim states, e.g. '{prev} 7'",
)
_CLAIM_AMOUNT = _Expect(
    "an amount with its resource after '{prev}', such as '{prev} 5sp' or '{prev} 7lp'",
    "expected an amount like 5sp or 7lp",
    "write the resource right after the number, with no space: '5sp', '7lp'",
)
_STMT_NUMBER = _Expect("a number after '{prev}' (e.g. '{prev} 10')", "expected a number here")
_PIECE = _Expect(
    "the piece, written as its square with an optional piece letter (e.g. 'Ra1' or 'a1')",
    "expected a piece here",
    "squares run from a1 to h8; piece letters are K Q R B N P in capitals",
)
_DESTINATION = _Expect(
    "the destination square (a1 to h8)",
    "expected a square here",
    "the destination is a bare square such as 'a3'; a knight's two-jump move lists its middle square first",
)
_TARGET = _Expect(
    "the target, written as its square with an optional piece letter (e.g. 'Pa5' or 'a5')",
    "expected the target here",
)
_SUMMON_PIECE = _Expect(
    "the piece letter and the square to summon on (e.g. 'summon Q d1')",
    "expected a piece letter here",
    "piece letters are K Q R B N P in capitals",
)
_SUMMON_SQUARE = _Expect("the square to summon on (a1 to h8)", "expected a square here")
_CARD = _Expect(
    "the card name in double quotes (e.g. 'activate \"Soul Drain\"')",
    "expected a quoted card name",
)
_COLOUR = _Expect("the colour, 'white' or 'black', after '{prev}'", "expected white or black")
_DRAFT_CARDS = _Expect(
    'the kept cards as quoted names (e.g. \'draft white "Soul Ward" "Soul Drain"\')',
    "expected a quoted card name",
)
_ROLLOFF_WHITE = _Expect(
    "'white' and White's three d6 (the roll-off is written 'rolloff white 6 5 3 black 2 2 1')",
    "expected 'white' here",
)
_ROLLOFF_DICE = _Expect(
    "three d6 faces per player (the roll-off is written 'rolloff white 6 5 3 black 2 2 1')",
    "expected a die here",
    "the roll-off is 3d6 per player, White's dice first (core §1, R01)",
)
_ROLLOFF_BLACK = _Expect(
    "'black' after White's three dice (the roll-off is written 'rolloff white 6 5 3 black 2 2 1')",
    "expected 'black' here",
    "the roll-off is 3d6 per player, White's dice first (core §1, R01)",
)
_KING_SQUARE = _Expect("the King's square (a1 to h8)", "expected a square here")
_SCORE = _Expect("the score after 'result': 1-0, 0-1, 1/2-1/2 or *", "expected a score here")
_TAG_NAME = _Expect("the tag name after '[' (e.g. '[Event \"Friday league\"]')", "expected a tag name")
_TAG_VALUE = _Expect("the tag value in double quotes (e.g. '[Event \"Friday league\"]')", "expected a quoted value")
_TAG_CLOSE = _Expect("']' to close the tag", "expected ']' here")

#: Labelled examples of common mistakes. Each example must fail exactly at the state it labels
#: (tests/lang/test_log_parser.py checks this). Matching is by parser state, ignoring stack depth.
_EXAMPLES: tuple[tuple[_Expect, tuple[str, ...]], ...] = (
    (_ATTACK_ROLL, _stmt_examples("attack Ra1 a2 hit", "attack Ra1 a2 6 1")),
    (_ATTACK_DICE, _stmt_examples("attack Ra1 a2 roll hit")),
    (_GEM_ROLL, _stmt_examples("break 4 5 6", "repair 4 5 6")),
    (_GEM_DICE, _stmt_examples("break roll success", "repair roll fail")),
    (
        _CLAIM_NUMBER,
        _stmt_examples(
            "pass cost x", "pass lp x", "pass sp x", "pass threshold x", "pass damage x", "pass king-damage x"
        ),
    ),
    (_CLAIM_AMOUNT, _stmt_examples("pass pay 5", "pass pay 5sp 5", "pass gain 5")),
    (_STMT_NUMBER, _stmt_examples("convert x", "income x")),
    (_PIECE, _stmt_examples("move x", "teleport x", "attack x")),
    (_DESTINATION, _stmt_examples("move Ra1 x", "teleport Ra1 x")),
    (_TARGET, _stmt_examples("attack Ra1 x")),
    (_SUMMON_PIECE, _stmt_examples("summon x")),
    (_SUMMON_SQUARE, _stmt_examples("summon Q x")),
    (_CARD, _stmt_examples("activate x")),
    (_COLOUR, ("draft x", "king x")),
    (_DRAFT_CARDS, ("draft white x",)),
    (_ROLLOFF_WHITE, ("rolloff x",)),
    (
        _ROLLOFF_DICE,
        (
            "rolloff white x",
            "rolloff white 1 x",
            "rolloff white 1 2 x",
            "rolloff white 1 2 3 black x",
            "rolloff white 1 2 3 black 1 x",
            "rolloff white 1 2 3 black 1 2 x",
        ),
    ),
    (_ROLLOFF_BLACK, ("rolloff white 1 2 3 x",)),
    (_KING_SQUARE, ("king white x",)),
    (_SCORE, ("result x",)),
    (_TAG_NAME, ("[1",)),
    (_TAG_VALUE, ("[Event x",)),
    (_TAG_CLOSE, ('[Event "x" x',)),
)

#: Plain-word descriptions of terminals, for the generic "expected ..." message.
_SINGLE_WORDS: dict[str, str] = {
    "TURN": "a turn number ('3.' for White, '3...' for Black)",
    "PHASE": "a phase label (upkeep:, main1:, battle:, main2:, end:)",
    "RESULT": "a result line",
    "LSQB": "a header tag",
    "REF": "a square with an optional piece letter (e.g. 'Ra1')",
    "SQUARE": "a square (a1 to h8)",
    "PIECE_LETTER": "a piece letter (K Q R B N P)",
    "INT": "a number",
    "AMOUNT": "an amount such as '5sp' or '7lp'",
    "STRING": 'a name in double quotes (e.g. "Soul Drain")',
    "TAG_NAME": "a tag name",
    "RSQB": "']'",
    "WHITE": "'white'",
    "BLACK": "'black'",
    "ROLL": "'roll'",
    "SCORE": "a score (1-0, 0-1, 1/2-1/2 or *)",
    "REASON": "a result reason (conversion, lp1000, turn-limit)",
    "$END": "the end of the log",
}
_STATEMENT_TERMINALS = (
    "SUMMON", "MOVE", "ATTACK", "CONVERT", "TELEPORT", "BREAK", "REPAIR", "ACTIVATE", "PASS", "INCOME",
)  # fmt: skip
_CLAIM_TERMINALS = (
    "COST", "PAY", "LP", "SP", "THRESHOLD", "HIT", "MISS", "DAMAGE", "KING_DAMAGE", "CAPTURE", "CONVERTS",
    "SUCCESS", "FAIL", "GAIN",
)  # fmt: skip
_SETUP_TERMINALS = ("DRAFT", "ROLLOFF", "KING")
_GROUPS: tuple[tuple[tuple[str, ...], str], ...] = (
    (_CLAIM_TERMINALS, "a claim"),
    (_STATEMENT_TERMINALS, "a statement"),
    (("PHASE",), _SINGLE_WORDS["PHASE"]),
    (("TURN",), _SINGLE_WORDS["TURN"]),
    (_SETUP_TERMINALS, "a setup line"),
    (("RESULT",), "a result line"),
)
_ORDER = ("LSQB", "TAG_NAME", "STRING", "RSQB", "WHITE", "BLACK", "ROLL", "PIECE_LETTER", "REF", "SQUARE",
          "INT", "AMOUNT", "SCORE", "REASON")  # fmt: skip
_PHASE_WORDS = ("upkeep:", "main1:", "battle:", "main2:", "end:")


def _keyword_of(terminal: str) -> str:
    return terminal.lower().replace("_", "-")


def _expected_words(accepts: Iterable[str]) -> str:
    """A readable 'expected' phrase for a set of acceptable terminals."""
    acc = set(accepts)
    groups = [(group, phrase) for group, phrase in _GROUPS if acc.intersection(group)]
    brief = len(groups) > 3  # many choices: name the kinds only, or the sentence gets unreadable
    parts: list[str] = []
    for group, phrase in groups:
        present = [t for t in group if t in acc]
        acc.difference_update(group)
        if brief:
            parts.append(phrase.split(" (")[0])
        elif len(group) > 1 and len(present) < len(group) and len(present) <= 4:
            parts.append(f"{phrase} ({', '.join(_keyword_of(t) for t in present)})")
        elif len(group) > 1 and phrase != "a claim":
            parts.append(f"{phrase} ({', '.join(_keyword_of(t) for t in group)})")
        else:
            parts.append(phrase)
    for terminal in _ORDER:
        if terminal in acc:
            acc.discard(terminal)
            parts.append(_SINGLE_WORDS[terminal])
    ends = "$END" in acc
    acc.discard("$END")
    parts.extend(sorted(_keyword_of(t) for t in acc))
    if ends:
        parts.append(_SINGLE_WORDS["$END"])
    return _or_list(parts) if parts else "something else"


def _keywords_of(accepts: Iterable[str]) -> list[str]:
    """The literal words the parser would accept, for 'did you mean' suggestions."""
    words: list[str] = []
    for terminal in accepts:
        if terminal == "PHASE":
            words.extend(w[:-1] for w in _PHASE_WORDS)
        elif terminal in _STATEMENT_TERMINALS or terminal in _CLAIM_TERMINALS or terminal in _SETUP_TERMINALS:
            words.append(_keyword_of(terminal))
        elif terminal in ("WHITE", "BLACK", "ROLL", "RESULT"):
            words.append(terminal.lower())
    return words


def _shown(text: str, limit: int = 24) -> str:
    """Found text as shown in a message: quoted, shortened, control characters escaped."""
    if len(text) > limit:
        text = text[:limit] + "…"
    return "'" + "".join(c if c.isprintable() else f"\\u{ord(c):04x}" for c in text) + "'"


class _StateKey:
    """Compares parser states by LALR state only.

    ``match_examples`` normally also compares stack depth, but the depth of a statement's
    state depends on what precedes it (a loose statement, a phase block), which the examples
    cannot enumerate; the LALR state alone already says what was expected.
    """

    __slots__ = ("position",)

    def __init__(self, position: object) -> None:
        self.position = position

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _StateKey) and other.position == self.position

    def __hash__(self) -> int:
        return hash(self.position)


def _classify(exc: UnexpectedInput) -> _Expect | None:
    """Which labelled example (if any) failed in the same parser state as ``exc``."""
    from lark.exceptions import UnexpectedInput

    lark = _lark()
    scratch: list[LogItem] = []

    def parse_example(text: str) -> None:
        _builder().bind("<example>", scratch)
        try:
            lark.parse(text)
        except UnexpectedInput as ex:
            ex.state = _StateKey(ex.state.position)
            raise
        except _SemanticError:
            return

    state = exc.state
    exc.state = _StateKey(state.position)
    try:
        return exc.match_examples(
            cast(Any, parse_example), _EXAMPLES, token_type_match_fallback=True, use_accepts=False
        )
    finally:
        exc.state = state


_DOTS = re.compile(r"\.*")
_WORD_RE = re.compile(r"[^\s;{}\[\]\"]+")
_SQUARE_LIKE = re.compile(r"([A-Za-z]?)([A-Za-z])([0-9]+)")


def _diagnose(exc: UnexpectedInput, parser: InteractiveParser, source: SourceText) -> Diagnostic:
    """Turn lark's exception into a diagnostic a chess player can act on."""
    from lark.exceptions import UnexpectedToken

    n, text = source.name, source.text
    try:
        accepts: set[str] = set(parser.accepts())  # type: ignore[no-untyped-call]
    except Exception:  # pragma: no cover - accepts() only replays the parse table
        accepts = set()
    stack = parser.parser_state.value_stack
    prev = str(stack[-1]).rstrip() if stack and hasattr(stack[-1], "type") else ""
    expect = _classify(exc) if exc.state is not None else None

    expected = expect.expected.replace("{prev}", prev) if expect else _expected_words(accepts)
    label = expect.label if expect else "unexpected here"
    label_hint = expect.hint.replace("{prev}", prev) if expect and expect.hint else None

    if isinstance(exc, UnexpectedToken) and exc.token.type == "$END":
        line, column = _end_position(text)
        return codes.diagnostic(
            "SG-P002",
            f"unexpected end of the log: expected {expected}",
            hint=label_hint or "the file may have been cut off, or the last statement is unfinished",
        ).at(Span.point(n, line, column, len(text)), "the log ends here")

    if isinstance(exc, UnexpectedToken):
        tok = exc.token
        pos, line, column = int(tok.start_pos or 0), int(tok.line or 1), int(tok.column or 1)
        word_token = tok.type == "TAG_NAME"  # the catch-all for words that are no keyword
    else:
        pos, line, column = int(exc.pos_in_stream or 0), int(exc.line), int(exc.column)
        word_token = False

    def at(length: int, shift: int = 0) -> Span:
        """``length`` characters starting ``shift`` characters after the error (same line)."""
        return Span(n, line, column + shift, line, column + shift + length, pos + shift, pos + shift + length)

    if isinstance(exc, UnexpectedToken) and not word_token:
        found = str(exc.token).rstrip()
        hint = _token_hint(exc.token.type, found, accepts) or label_hint
        return codes.diagnostic("SG-P001", f"syntax error: expected {expected}, found {_shown(found)}", hint=hint).at(
            at(len(found)), label
        )

    char = text[pos] if pos < len(text) else ""
    if char == "{":
        return codes.diagnostic(
            "SG-P002",
            "unexpected end of the log: the '{' comment is never closed with '}'",
            hint="close the comment with '}' (brace comments do not nest)",
        ).at(at(1), "comment opened here")
    if char == '"':
        return _string_error(text, pos, at)
    if char == "}":
        return codes.diagnostic(
            "SG-P003",
            "unexpected character '}': no brace comment is open here",
            hint="brace comments are written '{ like this }' and do not nest",
        ).at(at(1), "unexpected '}'")
    if char == "." and re.search(r"[0-9]\.+$", text[max(0, pos - 40) : pos]):
        start = pos
        while start > max(0, pos - 40) and text[start - 1] in ".0123456789":
            start -= 1
        end = min(_DOTS.match(text, pos).end(), pos + 40)  # type: ignore[union-attr]
        return codes.diagnostic(
            "SG-P001",
            "syntax error: expected a turn number written '12.' for White or '12...' for Black, "
            f"found {_shown(text[start:end])}",
            hint="use one dot for White's turn and three dots for Black's",
        ).at(at(end - start, start - pos), "one or three dots")
    if not (char.isascii() and (char.isalnum() or char in "_*")):
        return codes.diagnostic(
            "SG-P003",
            f"unexpected character {_shown(char)}: expected {expected}",
            hint="squares are a1..h8, pieces K Q R B N P; comments start with ';' or go in '{ }'",
        ).at(at(1), "unexpected character")

    match = _WORD_RE.match(text, pos)
    word = match.group()[:200] if match else char
    return _word_error(word, expected, accepts, at, label if expect else "unknown word", label_hint)


def _end_position(text: str) -> tuple[int, int]:
    """Line and column just after the last character."""
    return text.count("\n") + 1, len(text) - (text.rfind("\n") + 1) + 1


def _word_error(
    word: str, expected: str, accepts: set[str], at: Callable[..., Span], label: str, hint: str | None
) -> Diagnostic:
    """A word that is no token here: a phase label without its colon, a bad square, a typo."""
    lower = word.lower()
    span = at(len(word))
    base = lower.rstrip(":")
    if "PHASE" in accepts and base in ("upkeep", "main1", "battle", "main2", "end", "main"):
        if base == "main":
            message = f"syntax error: expected the phase label 'main1:' or 'main2:' (no space), found {_shown(word)}"
        else:
            message = f"syntax error: a phase label ends with ':': expected '{base}:', found {_shown(word)}"
        return codes.diagnostic("SG-P001", message, hint="phase labels are upkeep:, main1:, battle:, main2:, end:").at(
            span, "phase label needs ':'"
        )

    square = _SQUARE_LIKE.fullmatch(word)
    if square and accepts & {"REF", "SQUARE", "PIECE_LETTER"}:
        letter, file, rank = square.group(1), square.group(2), square.group(3)
        return codes.diagnostic(
            "SG-P001",
            f"syntax error: expected {expected}, found {_shown(word)}, which is not a square",
            hint=_square_hint(letter, file, rank, letter_ok=bool(accepts & {"REF", "PIECE_LETTER"})),
        ).at(span, "not a square")

    close = difflib.get_close_matches(lower, _keywords_of(accepts), n=1, cutoff=0.7)
    if close:
        hint = f"did you mean '{close[0]}'?"
    elif hint is None and lower in _ALL_KEYWORDS:
        hint = f"'{lower}' cannot appear here"
    message = f"syntax error: expected {expected}, found {_shown(word)}"
    return codes.diagnostic("SG-P001", message, hint=hint).at(span, label)


_ALL_KEYWORDS = frozenset(
    _keyword_of(t) for t in (*_STATEMENT_TERMINALS, *_CLAIM_TERMINALS, *_SETUP_TERMINALS, "RESULT", "ROLL")
)


def _square_hint(letter: str, file: str, rank: str, letter_ok: bool) -> str:
    if letter and letter not in "KQRBNP":
        if letter.upper() in "KQRBNP":
            return f"piece letters are capitals: write '{letter.upper()}{file.lower()}{rank}'"
        return f"'{letter}' is not a piece letter; pieces are K Q R B N P"
    if letter and not letter_ok:
        return f"write the bare square here, without the piece letter: '{file.lower()}{rank}'"
    if file.isupper():
        return f"file letters are lowercase: write '{letter}{file.lower()}{rank}'"
    if file not in "abcdefgh":
        return "files run from a to h"
    return "ranks run from 1 to 8"


def _token_hint(found_type: str, found: str, accepts: set[str]) -> str | None:
    """A hint for a well-formed word in the wrong place."""
    if found_type == "LSQB" and not accepts & {"TAG_NAME", "STRING", "RSQB"}:
        return 'header tags like [Event "..."] must come before everything else in the log'
    starts_statement = found_type in _STATEMENT_TERMINALS or found_type == "PHASE"
    if starts_statement and "TURN" in accepts and not accepts & set(_STATEMENT_TERMINALS):
        return "statements and phase labels belong to a turn: start one with its number, e.g. '1.'"
    if found_type == "REF" and "SQUARE" in accepts and len(found) == 3:
        return f"write the bare square here, without the piece letter: '{found[1:]}'"
    if found_type == "SQUARE" and "REF" not in accepts and "SQUARE" not in accepts:
        return None
    if found_type == "INT" and accepts & set(_CLAIM_TERMINALS):
        return "a number must follow the claim it belongs to, e.g. 'cost 7' or 'lp 12'"
    if found_type in ("STRING",) and "STRING" not in accepts:
        return "quoted names only follow 'draft', 'activate' and header tag names"
    return None


_STRING_BODY = re.compile(r'(?:[^"\\\n\r]++|\\["\\])*+')


def _string_error(text: str, pos: int, at: Callable[..., Span]) -> Diagnostic:
    """Why a quoted name starting at ``pos`` did not lex: a bad escape or no closing quote."""
    stop = _STRING_BODY.match(text, pos + 1)
    end = stop.end() if stop else pos + 1
    if end < len(text) and text[end] == "\\":
        return codes.diagnostic(
            "SG-P001",
            'syntax error: a quoted name may only use the escapes \\" and \\\\',
            hint='write a backslash as \\\\ and a double quote as \\"',
        ).at(at(2, end - pos), "bad escape")
    if end >= len(text):
        return codes.diagnostic(
            "SG-P002",
            "unexpected end of the log: a quoted name is never closed with '\"'",
            hint="the file may have been cut off; close the name with '\"'",
        ).at(at(1), "name starts here")
    return codes.diagnostic(
        "SG-P001",
        "syntax error: this quoted name is not closed with '\"' on its line",
        hint='names are written in double quotes on one line, e.g. "Soul Drain"',
    ).at(at(1), "name starts here")
