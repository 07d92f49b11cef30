"""Statistics of the dice of a corpus of logs (docs/dice.md).

Every die written in a log is counted for the player who rolled it (the player named by the
``[White]``/``[Black]`` tag, else the colour and the log's name), by kind: ``d6`` (the roll-off,
Break and Repair, faces 1-6) and ``d10`` (the accuracy dice of attacks and second rolls, faces
0-9). Each player's dice of each kind get Pearson's chi-square test against a fair die
(:mod:`sgcheck.core.chisquare`); a p-value under :data:`FLAG_BELOW` flags the player.
Logs whose header commits to its dice are counted too, and each is verified as replay verifies
it (:class:`~sgcheck.replay.dice_check.DiceCheck`): every roll the derived one, both
commitments opened. The statistics say which logs were verified and why the others were not;
the logs' commitments are compared (:mod:`sgcheck.replay.dice_reuse`): a secret two logs share
is an error naming both (DR3). Faces out of range (replay's SG-R114) are not counted.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from sgcheck.codes import Trait, has
from sgcheck.core.actions import Attack, Break, Repair
from sgcheck.core.chisquare import uniform_test
from sgcheck.core.pieces import Color
from sgcheck.diagnostics import Diagnostic
from sgcheck.lang.logs.ast import AttackStmt, BreakStmt, Header, LogItem, RepairStmt, ResultLine, RollOff, Turn
from sgcheck.lang.logs.grammar import LogSyntaxError
from sgcheck.lang.logs.reader import PlainTurn
from sgcheck.replay.dice_check import DiceCheck, has_dice_tags
from sgcheck.replay.dice_reuse import Commitment, commitments, reuse_findings
from sgcheck.replay.findings import SCORES

#: A player's dice of a kind are implausible below this p-value.
FLAG_BELOW = 0.001
#: Dice of a kind needed for a test: 5 expected per face, as the chi-square approximation wants.
MIN_PER_FACE = 5
KINDS = {"d6": (1, 2, 3, 4, 5, 6), "d10": (0, 1, 2, 3, 4, 5, 6, 7, 8, 9)}


@dataclass(slots=True)
class Corpus:
    """The dice counted so far: (player, kind) to the count of each face."""

    counts: dict[tuple[str, str], dict[int, int]] = field(default_factory=dict)
    logs: int = 0  # logs whose dice are counted (in part, for a log read in part)
    committed: int = 0  # of them, logs whose header commits to their dice
    verified: list[str] = field(default_factory=list)  # committed logs whose every roll is verified
    not_verified: list[tuple[str, str]] = field(default_factory=list)  # (log, why) committed, not verified
    unread: list[tuple[str, str]] = field(default_factory=list)  # (log, why) read in part or not at all
    unreadable: int = 0  # of ``unread``, logs not read at all (not counted in ``logs``)
    commitments: list[Commitment] = field(default_factory=list)
    reused: dict[str, list[Diagnostic]] = field(default_factory=dict)  # DR3, by log: set by :func:`tests`

    def add(self, player: str, kind: str, faces: Iterable[int]) -> None:
        counts = self.counts.setdefault((player, kind), dict.fromkeys(KINDS[kind], 0))
        for f in faces:
            if f in counts:
                counts[f] += 1


def count_log(corpus: Corpus, name: str, items: Iterable[LogItem | PlainTurn]) -> None:
    """Count the dice of one log's items, and verify them when the header commits to them. The
    items may end in a syntax error (:class:`~sgcheck.lang.logs.grammar.LogSyntaxError`): the
    dice before it are counted, and a committed log is then said to be not verified."""
    players = {Color.WHITE: f"White of {name}", Color.BLACK: f"Black of {name}"}
    corpus.logs += 1
    check: DiceCheck | None = None
    finished = False
    try:
        for item in items:
            if isinstance(item, Header) and has_dice_tags(item):
                corpus.committed += 1
                corpus.commitments.extend(commitments(name, item))
                check = DiceCheck(item)
            elif isinstance(item, ResultLine):
                finished = True
            if isinstance(item, Header):
                result = item.get("Result")
                finished = result is not None and result.value.strip() in SCORES
            elif check is not None and check.verifying:
                check.item(item)
            _count_item(corpus, players, item)
    except LogSyntaxError:
        if check is not None:
            corpus.not_verified.append((name, "read in part: its rolls are not all checked"))
        raise
    if check is not None:
        check.finish(finished)
        _verdict(corpus, name, check)


def _verdict(corpus: Corpus, name: str, check: DiceCheck) -> None:
    """Whether a committed log's dice are verified, and why not."""
    errors = sorted(check.findings, key=lambda d: (not d.is_error, d.code))
    wrong = [d for d in check.findings if has(d.code, Trait.FALSIFIED_ROLL)]
    if wrong:
        corpus.not_verified.append((name, f"{len(wrong)} wrong roll{'s' if len(wrong) != 1 else ''} (SG-D103)"))
    elif errors:
        first = errors[0]
        corpus.not_verified.append((name, f"{first.code}: {first.message}"))
    else:
        corpus.verified.append(name)


def _count_item(corpus: Corpus, players: dict[Color, str], item: LogItem | PlainTurn) -> None:
    if isinstance(item, Header):
        for color in Color:
            tag = item.get(color.title)
            if tag is not None and tag.value.strip() and tag.value.strip() != "?":
                players[color] = tag.value.strip()
    elif isinstance(item, RollOff):
        corpus.add(players[Color.WHITE], "d6", item.white.faces)
        corpus.add(players[Color.BLACK], "d6", item.black.faces)
    elif isinstance(item, PlainTurn):
        who = players[item.color]
        for step in item.steps:
            _count_action(corpus, who, step.action)
    elif isinstance(item, Turn):
        who = players[item.color]
        for stmt in (*item.loose, *(s for block in item.phases for s in block.statements)):
            if isinstance(stmt, AttackStmt):
                corpus.add(who, "d10", stmt.roll.faces)
                if stmt.second is not None:
                    corpus.add(who, "d10", stmt.second.dice.faces)
            elif isinstance(stmt, BreakStmt | RepairStmt):
                corpus.add(who, "d6", stmt.roll.faces)


def _count_action(corpus: Corpus, who: str, action: object) -> None:
    if isinstance(action, Attack):
        corpus.add(who, "d10", action.roll)
        corpus.add(who, "d10", action.second)
    elif isinstance(action, Break | Repair):
        corpus.add(who, "d6", action.roll)


@dataclass(frozen=True, slots=True)
class PlayerDice:
    """One player's dice of one kind and the test of them."""

    player: str
    kind: str
    counts: tuple[tuple[int, int], ...]  # (face, count)
    dice: int
    chi_square: float | None  # None: too few dice for the test
    df: int
    p_value: float | None

    @property
    def flagged(self) -> bool:
        return self.p_value is not None and self.p_value < FLAG_BELOW

    def as_json(self) -> dict[str, object]:
        return {
            "player": self.player,
            "kind": self.kind,
            "dice": self.dice,
            "counts": {str(face): count for face, count in self.counts},
            "chi_square": None if self.chi_square is None else round(self.chi_square, 6),
            "df": self.df,
            "p_value": self.p_value,
            "flagged": self.flagged,
        }


def compare_commitments(corpus: Corpus) -> None:
    """A secret two logs of the corpus share (DR3, SG-D107), on each of them."""
    corpus.reused = reuse_findings(corpus.commitments)


def tests(corpus: Corpus) -> list[PlayerDice]:
    """Each player's dice of each kind with its chi-square test, by player then kind."""
    out: list[PlayerDice] = []
    for (player, kind), counts in sorted(corpus.counts.items()):
        faces = KINDS[kind]
        values = [counts[f] for f in faces]
        total = sum(values)
        if total == 0:
            continue
        pairs = tuple(zip(faces, values, strict=True))
        if total < MIN_PER_FACE * len(faces):
            out.append(PlayerDice(player, kind, pairs, total, None, len(faces) - 1, None))
            continue
        statistic, df, p = uniform_test(values)
        out.append(PlayerDice(player, kind, pairs, total, statistic, df, p))
    return out


@dataclass(frozen=True, slots=True)
class DiceStats:
    """What ``sgcheck dice stats`` reports of a corpus, as data (the report layer spells it,
    ``sgcheck/report/dice_report.py``): the logs counted, those with committed dice and which of
    them were verified (or why not), the logs read in part or not at all (``unreadable`` of them
    not at all), the secrets two logs share (DR3) by log, and each player's dice of each kind
    with its test (:func:`tests`)."""

    logs: int
    committed: int
    verified: tuple[str, ...]
    not_verified: tuple[tuple[str, str], ...]  # (log, why)
    unread: tuple[tuple[str, str], ...]  # (log, why)
    unreadable: int
    reused: tuple[tuple[str, tuple[Diagnostic, ...]], ...]  # (log, its SG-D107 findings), by log
    players: tuple[PlayerDice, ...]

    @property
    def implausible(self) -> bool:
        """A player's dice flagged, or a secret shared: the statistics' findings (exit 1)."""
        return any(r.flagged for r in self.players) or bool(self.reused)


def dice_stats(corpus: Corpus) -> DiceStats:
    """The statistics of a corpus counted to its end: its logs' commitments compared, each
    player's dice tested."""
    compare_commitments(corpus)
    return DiceStats(
        logs=corpus.logs,
        committed=corpus.committed,
        verified=tuple(corpus.verified),
        not_verified=tuple(corpus.not_verified),
        unread=tuple(corpus.unread),
        unreadable=corpus.unreadable,
        reused=tuple((log, tuple(found)) for log, found in sorted(corpus.reused.items())),
        players=tuple(tests(corpus)),
    )
