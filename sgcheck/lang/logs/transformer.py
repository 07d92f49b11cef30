"""The log grammar's transformer: Lark reductions straight into :mod:`~sgcheck.lang.logs.ast` nodes.

Embedded in the parser (``Lark(transformer=...)``), so nodes are built at reduction time and
no parse tree exists. Also here: the checks the grammar cannot express (a claim that does not
fit its statement, a number of more than 9 digits), raised as :class:`SemanticError`.
"""

from __future__ import annotations

import re
import threading
from typing import TYPE_CHECKING, Any, NoReturn

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
    TeleportStmt,
    Turn,
)
from sgcheck.lang.logs.vocab import APPLICABLE, FLAG_CLAIMS, KINDS, PHASES, SQUARES, VALUE_CLAIMS
from sgcheck.lang.logs.writer import format_claim

if TYPE_CHECKING:
    from lark import Token


class SemanticError(Exception):
    """Raised from reduction callbacks for errors the grammar cannot express (e.g. a claim that
    does not fit its statement); turned into :class:`LogSyntaxError` by :func:`iter_log`."""

    def __init__(self, diagnostic: Diagnostic) -> None:
        super().__init__(diagnostic.message)
        self.diagnostic = diagnostic


# --- lookup tables -------------------------------------------------------------------------------

HEADER_TERMINALS = frozenset({"LSQB", "TAG_NAME", "STRING", "RSQB"})
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


def tjoin(n: str, a: Token, b: Token) -> Span:
    k = len(b.value.rstrip())
    end, end_pos = b.column + k, b.start_pos + k  # type: ignore[operator]
    return Span(n, a.line, a.column, b.line, end, a.start_pos, end_pos)  # type: ignore[arg-type]


def _sjoin(a: Token, b: Span) -> Span:
    return Span(b.source, a.line, a.column, b.end_line, b.end_column, a.start_pos, b.end_offset)  # type: ignore[arg-type]


def _semantic(code: str, message: str, span: Span, label: str, hint: str | None = None) -> NoReturn:
    raise SemanticError(codes.diagnostic(code, message, hint=hint).at(span, label))


def _int(t: Token, text: str | None = None) -> int:
    """The value of a decimal token (``text``: its digits, if the token holds more than them).

    Every number token was checked against MAX_NUMBER_DIGITS as it was read (:func:`refuse_long`),
    so the conversion is cheap and cannot fail."""
    return int(t if text is None else text)  # int() ignores the trailing whitespace


#: Terminals that hold a number: its digits, then perhaps "." / "..." (TURN) or "sp" / "lp" (AMOUNT).
NUMBER_TERMINALS = frozenset({"INT", "TURN", "AMOUNT"})


def refuse_long(n: str, t: Token) -> None:
    """SG-P012, placed on the digits, if the number token ``t`` has more than MAX_NUMBER_DIGITS."""
    text = t.value.rstrip()
    digits = len(text) - len(text.lstrip("0123456789"))
    if digits <= MAX_NUMBER_DIGITS:
        return
    line, column, pos = t.line, t.column, t.start_pos
    span = Span(n, line, column, line, column + digits, pos, pos + digits)  # type: ignore[arg-type,operator]
    raise SemanticError(
        codes.diagnostic(
            "SG-P012",
            number_too_long(text[:digits], digits),
            hint=f"no number in a log has more than {MAX_NUMBER_DIGITS} digits; was a space or a line break lost?",
        ).at(span, "number too long")
    )


def unquote(t: str) -> str:
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
    return Dice(tuple([_int(f) for f in faces]), tjoin(n, faces[0], faces[-1]))


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
    where = or_list(owners) if owners else "no statement"
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


def or_list(words: list[str]) -> str:
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + " or " + words[-1]


# --- the embedded transformer --------------------------------------------------------------------


class LogBuilder:
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
        cards = tuple([CardName(unquote(s.value.rstrip()), _tspan(n, s)) for s in strings])
        color = Color.WHITE if c[1].type == "WHITE" else Color.BLACK
        return Draft(color, cards, tjoin(n, c[0], strings[-1]))

    def rolloff(self, c: list[Any]) -> RollOff:
        n: str = self._local.name
        return RollOff(_dice(n, c[2:5]), _dice(n, c[6:9]), tjoin(n, c[0], c[8]))

    def choose(self, c: list[Any]) -> ColourChoice:
        n: str = self._local.name
        color = Color.WHITE if c[1].type == "WHITE" else Color.BLACK
        return ColourChoice(color, tjoin(n, c[0], c[1]))

    def king(self, c: list[Any]) -> KingPlacement:
        n: str = self._local.name
        color = Color.WHITE if c[1].type == "WHITE" else Color.BLACK
        return KingPlacement(color, _square_ref(n, c[2]), tjoin(n, c[0], c[2]))

    def result(self, c: list[Any]) -> ResultLine:
        n: str = self._local.name
        reason = c[2].value.rstrip().lower() if len(c) == 3 else None
        return ResultLine(c[1].value.rstrip(), reason, tjoin(n, c[0], c[-1]))

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
        span = _sjoin(kw, claims[-1].span) if claims else tjoin(n, kw, last)
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
        span = _sjoin(kw, claims[-1].span) if claims else tjoin(n, kw, last)
        return MoveStmt(_piece_ref(n, c[1]), _square_ref(n, last), via, _claims_for("move", claims), span)

    def attack_stmt(self, c: list[Any]) -> AttackStmt:
        n: str = self._local.name
        kw: Token = c[0]
        faces: list[Token] = c[4]
        claims: list[Claim] = c[-1]
        second: SecondRoll | None = c[5] if len(c) == 7 else None
        if claims:
            span = _sjoin(kw, claims[-1].span)
        elif second is not None:
            span = _sjoin(kw, second.span)
        else:
            span = tjoin(n, kw, faces[-1])
        return AttackStmt(
            _piece_ref(n, c[1]), _piece_ref(n, c[2]), _dice(n, faces), _claims_for("attack", claims), span, second
        )

    def second_roll(self, c: list[Any]) -> SecondRoll:
        n: str = self._local.name
        return SecondRoll(c[0].type == "ADVANTAGE", _dice(n, c[1:3]), tjoin(n, c[0], c[2]))

    def convert_stmt(self, c: list[Any]) -> ConvertStmt:
        n: str = self._local.name
        kw: Token = c[0]
        amount: Token = c[1]
        claims: list[Claim] = c[2]
        span = _sjoin(kw, claims[-1].span) if claims else tjoin(n, kw, amount)
        return ConvertStmt(_int(amount), _tspan(n, amount), _claims_for("convert", claims), span)

    def teleport_stmt(self, c: list[Any]) -> TeleportStmt:
        n: str = self._local.name
        kw: Token = c[0]
        claims: list[Claim] = c[3]
        span = _sjoin(kw, claims[-1].span) if claims else tjoin(n, kw, c[2])
        return TeleportStmt(_piece_ref(n, c[1]), _square_ref(n, c[2]), _claims_for("teleport", claims), span)

    def break_stmt(self, c: list[Any]) -> BreakStmt:
        n: str = self._local.name
        faces: list[Token] = c[2]
        claims: list[Claim] = c[3]
        span = _sjoin(c[0], claims[-1].span) if claims else tjoin(n, c[0], faces[-1])
        return BreakStmt(_dice(n, faces), _claims_for("break", claims), span)

    def repair_stmt(self, c: list[Any]) -> RepairStmt:
        n: str = self._local.name
        faces: list[Token] = c[2]
        claims: list[Claim] = c[3]
        span = _sjoin(c[0], claims[-1].span) if claims else tjoin(n, c[0], faces[-1])
        return RepairStmt(_dice(n, faces), _claims_for("repair", claims), span)

    def activate_stmt(self, c: list[Any]) -> ActivateStmt:
        card, target, claims, span = self._card_statement(c)
        return ActivateStmt(card, _claims_for("activate", claims), span, target)

    def play_stmt(self, c: list[Any]) -> PlayStmt:
        card, target, claims, span = self._card_statement(c)
        return PlayStmt(card, target, _claims_for("play", claims), span)

    def _card_statement(self, c: list[Any]) -> tuple[CardName, PieceRef | None, list[Claim], Span]:
        """The parts shared by ``activate`` and ``play``: ``KEYWORD STRING [ON REF] claims``."""
        n: str = self._local.name
        card: Token = c[1]
        claims: list[Claim] = c[-1]
        last: Token = c[3] if len(c) == 5 else card
        span = _sjoin(c[0], claims[-1].span) if claims else tjoin(n, c[0], last)
        target = _piece_ref(n, last) if len(c) == 5 else None
        return CardName(unquote(card.value.rstrip()), _tspan(n, card)), target, claims, span

    def reveal_stmt(self, c: list[Any]) -> RevealStmt:
        n: str = self._local.name
        card: Token = c[1]
        color = Color.WHITE if c[3].type == "WHITE" else Color.BLACK
        name = CardName(unquote(card.value.rstrip()), _tspan(n, card))
        return RevealStmt(name, color, _tspan(n, c[3]), tjoin(n, c[0], c[3]))

    def pass_stmt(self, c: list[Any]) -> PassStmt:
        n: str = self._local.name
        claims: list[Claim] = c[1]
        span = _sjoin(c[0], claims[-1].span) if claims else _tspan(n, c[0])
        return PassStmt(_claims_for("pass", claims), span)

    def income_stmt(self, c: list[Any]) -> IncomeStmt:
        n: str = self._local.name
        amount: Token = c[1]
        claims: list[Claim] = c[2]
        span = _sjoin(c[0], claims[-1].span) if claims else tjoin(n, c[0], amount)
        return IncomeStmt(_int(amount), _tspan(n, amount), _claims_for("income", claims), span)

    # --- claims ----------------------------------------------------------------------------------

    def claim(self, c: list[Any]) -> Claim:
        n: str = self._local.name
        kw: Token = c[0]
        if len(c) == 1:
            return Claim(_CLAIM_KINDS[kw.type], _tspan(n, kw))
        last: Token = c[-1]
        span = tjoin(n, kw, last)
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
