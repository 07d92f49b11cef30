"""The dispute report of ``sgcheck replay --dispute`` (:class:`sgcheck.results.DisputeReport`,
read by attribute) as text: the first error, the position had it not been written, and what each ruling of
the house-rule profile makes of the game (docs/disputes.md). The text format writes it after a
log's summary; the HTML page shows it in a panel."""

from __future__ import annotations

from collections.abc import Sequence

from sgcheck.core.pieces import Color
from sgcheck.replay.dispute import _KIND_WORDS, LISTED, PROFILE
from sgcheck.results import (
    ActionUndone,
    ClaimCorrected,
    DiceCorrected,
    DisputedEnd,
    DisputedFinding,
    DisputeReport,
    FigureDiffers,
    Forfeit,
    GameVoid,
    NotApplying,
    PositionFacts,
    Ruling,
)
from sgcheck.visible import visible

_LETTERS = {"pawn": "P", "knight": "N", "bishop": "B", "rook": "R", "queen": "Q"}


def _position_lines(state: PositionFacts) -> list[str]:
    lines = []
    for rank in range(8, 0, -1):
        cells = [state.board.get(f"{file}{rank}", ".") for file in "abcdefgh"]
        lines.append(f"  {rank} " + " ".join(cells))
    lines.append("    a b c d e f g h")
    for c in Color:
        side = state.side(c.title)
        mine = c.title.lower()
        own = " ".join(f"{n}{_LETTERS[k.split('_')[1]]}" for k, n in side.gem.items() if k.startswith(mine))
        taken = " ".join(f"{n}{_LETTERS[k.split('_')[1]]}" for k, n in side.gem.items() if not k.startswith(mine))
        broken = "broken" if side.gem_broken else "intact"
        lines.append(
            f"  {c.title:<5}  LP {side.lp!s:<4} SP {side.sp!s:<4} King damage {side.king_damage}/20  "
            f"Gem {broken}: own {own or 'none'} · captured {taken or 'none'}"
        )
    return lines


_WHEN = {
    "derived": "the position after it, played with the derived dice",
    "end": "the position at the end of the log (the finding is not on an action of play)",
    "before": "the position before it, as if it had not been written",
    "after": "the position after it, with the core's numbers in place of the log's",
    "stopped": "the position where replay stopped",
}


def _listed(items: Sequence[DisputedFinding | FigureDiffers], indent: str) -> list[str]:
    lines = [f"{indent}line {item.line}: {_shown(item)}" for item in items[:LISTED]]
    if len(items) > LISTED:
        lines.append(f"{indent}and {len(items) - LISTED} more")
    return lines


def _shown(item: DisputedFinding | FigureDiffers) -> str:
    if isinstance(item, DisputedFinding):
        return f"{item.code} {item.message}"
    return f"{item.player} {item.figure} written {item.written}, now {item.game}"


def _ending(end: DisputedEnd) -> str:
    if end.result is not None:
        return f"{end.result.detail} ({end.result.score})"
    return end.headline.removeprefix("legal so far: ").removeprefix("legal game, ")


def _ruling_lines(ruling: Ruling) -> list[str]:
    head = f"  {ruling.ruling:<16}{'*' if ruling.default else ' '} "
    pad = " " * len(head)
    if isinstance(ruling, NotApplying):
        return [f"{head}does not apply: {ruling.why}"]
    if isinstance(ruling, Forfeit):
        why = f"who {ruling.why_lost}" if ruling.why_lost is not None else "on whose turn it was written"
        return [f"{head}{ruling.loser}, {why}, loses: {ruling.winner} wins {ruling.score}"]
    if isinstance(ruling, GameVoid):
        return [f"{head}the game is void: no result, no winner; replay it or agree a result"]
    if isinstance(ruling, ClaimCorrected):
        to = ruling.corrected_to
        said = f"corrected to '{to}'" if to is not None else "removed"
        lines = [f"{head}the claim on line {ruling.line} is {said}; the game goes on from the core's numbers"]
        if ruling.disappear:
            lines.append(f"{pad}later findings that disappear with it: {len(ruling.disappear)}")
            lines.extend(_listed(ruling.disappear, pad + "  "))
        if ruling.later:
            lines.append(f"{pad}later findings with it corrected: {len(ruling.later)}")
            lines.extend(_listed(ruling.later, pad + "  "))
        else:
            lines.append(f"{pad}no later finding: nothing after it changes")
        lines.append(f"{pad}end: {_ending(ruling.end)}")
        return lines
    return _played_lines(ruling, head, pad)


def _played_lines(ruling: ActionUndone | DiceCorrected, head: str, pad: str) -> list[str]:
    if isinstance(ruling, DiceCorrected):
        said = f"the {ruling.removed} on line {ruling.line} is played with the derived dice"
        lines = [f"{head}{said} {ruling.dice}, not {ruling.written_dice}; play goes on from there"]
        if ruling.decided is not None:
            lines.append(f"{pad}with them the {ruling.removed} is {ruling.decided}")
    else:
        removed = f"the {ruling.removed} on line {ruling.line} is removed"
        lines = [f"{head}{removed}; play goes on from the position before it"]
    played = ruling.played
    if played.later_illegal:
        lines.append(f"{pad}later actions now illegal: {len(played.later_illegal)}")
        lines.extend(_listed(played.later_illegal, pad + "  "))
    else:
        lines.append(f"{pad}later actions now illegal: none")
    differ = played.figures_differ
    lines.append(f"{pad}later figures the log wrote that no longer hold: {len(differ)} of {played.figures_checked}")
    lines.extend(_listed(differ, pad + "  "))
    shown = []
    for c in Color:
        parts = []
        for total in (t for t in played.totals if t.player == c.title):
            log = "" if total.written is None or total.written == total.game else f" (log {total.written})"
            parts.append(f"{total.figure} {total.game}{log}")
        shown.append(f"{c.title} " + " ".join(parts))
    if shown:
        lines.append(f"{pad}totals at the end: " + " · ".join(shown))
    lines.append(f"{pad}end: {_ending(played.end)}")
    for written in played.result_written:
        lines.append(f"{pad}the result written on line {written.line} ({written.written}) no longer holds")
    return lines


def dispute_text(report: DisputeReport) -> str:
    """The dispute report (:func:`~sgcheck.replay.dispute.dispute_report`'s records) as text, ending with a newline."""
    lines = [f"dispute report (house-rule profile {PROFILE}, docs/disputes.md; not a core rule)"]
    first = report.first
    if first is None:
        headline = report.end.headline if report.end is not None else ""
        lines.append(f"  the game is legal: nothing to dispute ({headline})")
        return visible("\n".join(lines)) + "\n"
    where = f"{first.source}:{first.line}:{first.column}"
    turn = [f"turn {first.turn}"] if first.turn is not None else []
    at = " · ".join([*turn, *(v for v in (first.player, first.phase) if v is not None)])
    kind = _KIND_WORDS[first.kind]
    lines.append(f"first {kind}: {where}" + (f" · {at}" if at else ""))
    cited = f" ({', '.join(first.rules)})" if first.rules else ""
    lines.append(f"  {first.code} {first.message}{cited}")
    if first.statement is not None:
        lines.append(f"  written: {first.statement}")
    if first.expected is not None or first.claimed is not None:
        lines.append(f"  expected {first.expected}, claimed {first.claimed}")
    position = report.position
    if position is not None:
        lines.append(f"had it not been written: {_WHEN[position.when]}")
        lines.extend(_position_lines(position.state))
    lines.append("rulings (* the profile's ruling for this kind of error):")
    for ruling in report.rulings:
        lines.extend(_ruling_lines(ruling))
    return visible("\n".join(lines)) + "\n"
