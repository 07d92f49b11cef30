"""The dispute report of ``sgcheck replay --dispute`` (:func:`sgcheck.replay.dispute.dispute_report`'s
data) as text: the first error, the position had it not been written, and what each ruling of
the house-rule profile makes of the game (docs/disputes.md). The text format writes it after a
log's summary; the HTML page shows it in a panel."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from sgcheck.core.pieces import Color
from sgcheck.replay.dispute import (
    _KIND_WORDS,
    CLAIM_CORRECTED,
    DICE_CORRECTED,
    FORFEIT,
    GAME_VOID,
    LISTED,
    PROFILE,
)
from sgcheck.visible import visible

_LETTERS = {"pawn": "P", "knight": "N", "bishop": "B", "rook": "R", "queen": "Q"}


def _position_lines(state: Mapping[str, object]) -> list[str]:
    board = state["board"]
    assert isinstance(board, Mapping)
    lines = []
    for rank in range(8, 0, -1):
        cells = [str(board.get(f"{file}{rank}", ".")) for file in "abcdefgh"]
        lines.append(f"  {rank} " + " ".join(cells))
    lines.append("    a b c d e f g h")
    for c in Color:
        side = state[c.title.lower()]
        assert isinstance(side, Mapping)
        gem = side["gem"]
        assert isinstance(gem, Mapping)
        own = " ".join(f"{n}{_LETTERS[k.split('_')[1]]}" for k, n in gem.items() if k.startswith(c.title.lower()))
        taken = " ".join(f"{n}{_LETTERS[k.split('_')[1]]}" for k, n in gem.items() if not k.startswith(c.title.lower()))
        broken = "broken" if side["gem_broken"] else "intact"
        lines.append(
            f"  {c.title:<5}  LP {side['lp']!s:<4} SP {side['sp']!s:<4} King damage {side['king_damage']}/20  "
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


def _listed(items: Sequence[Mapping[str, object]], shown: str, indent: str) -> list[str]:
    lines = [f"{indent}line {item['line']}: {shown.format(**item)}" for item in items[:LISTED]]
    if len(items) > LISTED:
        lines.append(f"{indent}and {len(items) - LISTED} more")
    return lines


def _ending(ruling: Mapping[str, object]) -> str:
    result = ruling["result"]
    if isinstance(result, Mapping):
        return f"{result['detail']} ({result['score']})"
    return str(ruling["headline"]).removeprefix("legal so far: ").removeprefix("legal game, ")


def _ruling_lines(ruling: Mapping[str, object], first: Mapping[str, object]) -> list[str]:
    name = str(ruling["ruling"])
    head = f"  {name:<16}{'*' if ruling['default'] else ' '} "
    pad = " " * len(head)
    if not ruling["applies"]:
        return [f"{head}does not apply: {ruling['why']}"]
    if name == FORFEIT:
        loser, winner, score = ruling["loser"], ruling["winner"], ruling["score"]
        why = f"who {ruling['why_lost']}" if "why_lost" in ruling else "on whose turn it was written"
        return [f"{head}{loser}, {why}, loses: {winner} wins {score}"]
    if name == GAME_VOID:
        return [f"{head}the game is void: no result, no winner; replay it or agree a result"]
    if name == CLAIM_CORRECTED:
        to = ruling["corrected_to"]
        said = f"corrected to '{to}'" if to is not None else "removed"
        lines = [f"{head}the claim on line {ruling['line']} is {said}; the game goes on from the core's numbers"]
        later = ruling["later"]
        gone = ruling["disappear"]
        assert isinstance(later, list) and isinstance(gone, list)
        if gone:
            lines.append(f"{pad}later findings that disappear with it: {len(gone)}")
            lines.extend(_listed(gone, "{code} {message}", pad + "  "))
        if later:
            lines.append(f"{pad}later findings with it corrected: {len(later)}")
            lines.extend(_listed(later, "{code} {message}", pad + "  "))
        else:
            lines.append(f"{pad}no later finding: nothing after it changes")
        lines.append(f"{pad}end: {_ending(ruling)}")
        return lines
    if name == DICE_CORRECTED:
        said = f"the {ruling['removed']} on line {ruling['line']} is played with the derived dice"
        lines = [f"{head}{said} {ruling['dice']}, not {ruling['written_dice']}; play goes on from there"]
        if ruling["decided"] is not None:
            lines.append(f"{pad}with them the {ruling['removed']} is {ruling['decided']}")
    else:
        removed = f"the {ruling['removed']} on line {ruling['line']} is removed"
        lines = [f"{head}{removed}; play goes on from the position before it"]
    illegal = ruling["later_illegal"]
    assert isinstance(illegal, list)
    if illegal:
        lines.append(f"{pad}later actions now illegal: {len(illegal)}")
        lines.extend(_listed(illegal, "{code} {message}", pad + "  "))
    else:
        lines.append(f"{pad}later actions now illegal: none")
    differ = ruling["figures_differ"]
    assert isinstance(differ, list)
    lines.append(f"{pad}later figures the log wrote that no longer hold: {len(differ)} of {ruling['figures_checked']}")
    lines.extend(_listed(differ, "{player} {figure} written {written}, now {game}", pad + "  "))
    totals = ruling["totals"]
    assert isinstance(totals, list)
    shown = []
    for c in Color:
        parts = []
        for total in (t for t in totals if t["player"] == c.title):
            log = "" if total["written"] is None or total["written"] == total["game"] else f" (log {total['written']})"
            parts.append(f"{total['figure']} {total['game']}{log}")
        shown.append(f"{c.title} " + " ".join(parts))
    if shown:
        lines.append(f"{pad}totals at the end: " + " · ".join(shown))
    lines.append(f"{pad}end: {_ending(ruling)}")
    results = ruling["result_written"]
    assert isinstance(results, list)
    for written in results:
        lines.append(f"{pad}the result written on line {written['line']} ({written['written']}) no longer holds")
    return lines


def dispute_text(report: Mapping[str, object]) -> str:
    """The dispute report (:func:`~sgcheck.replay.dispute.dispute_report`'s data) as text, ending with a newline."""
    lines = [f"dispute report (house-rule profile {PROFILE}, docs/disputes.md; not a core rule)"]
    first = report["first"]
    if not isinstance(first, Mapping):
        end = report["end"]
        assert isinstance(end, Mapping)
        lines.append(f"  the game is legal: nothing to dispute ({end['headline']})")
        return visible("\n".join(lines)) + "\n"
    where = f"{first['source']}:{first['line']}:{first['column']}"
    turn = [f"turn {first['turn']}"] if first["turn"] is not None else []
    at = " · ".join([*turn, *(str(first[k]) for k in ("player", "phase") if first[k] is not None)])
    kind = _KIND_WORDS[str(first["kind"])]
    lines.append(f"first {kind}: {where}" + (f" · {at}" if at else ""))
    rules = first["rules"]
    assert isinstance(rules, list)
    cited = f" ({', '.join(rules)})" if rules else ""
    lines.append(f"  {first['code']} {first['message']}{cited}")
    if first["statement"] is not None:
        lines.append(f"  written: {first['statement']}")
    if first["expected"] is not None or first["claimed"] is not None:
        lines.append(f"  expected {first['expected']}, claimed {first['claimed']}")
    position = report["position"]
    if isinstance(position, Mapping):
        lines.append(f"had it not been written: {_WHEN[str(position['when'])]}")
        state = position["state"]
        assert isinstance(state, Mapping)
        lines.extend(_position_lines(state))
    lines.append("rulings (* the profile's ruling for this kind of error):")
    rulings = report["rulings"]
    assert isinstance(rulings, list)
    for ruling in rulings:
        lines.extend(_ruling_lines(ruling, first))
    return visible("\n".join(lines)) + "\n"
