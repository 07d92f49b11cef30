"""The statistics of ``sgcheck dice stats`` (:class:`~sgcheck.replay.dice_stats.DiceStats`) as
aligned text and as JSON (docs/dice.md): the logs counted and verified, the shared secrets, and
each player's dice of each kind with Pearson's chi-square test; and the rolls of ``sgcheck dice
next`` (:mod:`sgcheck.replay.dice_next`), one line a roll or one JSON document."""

from __future__ import annotations

import json

from sgcheck.diagnostics import listing
from sgcheck.replay.dice_next import NextRolls, PurposeRolls
from sgcheck.replay.dice_stats import FLAG_BELOW, MIN_PER_FACE, DiceStats


def _p_text(p: float) -> str:
    return f"{p:.3g}" if p >= 1e-4 else f"{p:.2e}"


def stats_text(stats: DiceStats) -> str:
    """The statistics as aligned text: one row per player and kind, the counts of a flagged one."""
    lines = [f"dice of {stats.logs} log{'s' if stats.logs != 1 else ''}"]
    if stats.committed:
        lines[0] += (
            f" ({stats.committed} with committed dice: {len(stats.verified)} verified, "
            f"{len(stats.not_verified)} not verified)"
        )
    if stats.unreadable:
        lines[0] += f"; {stats.unreadable} log{'s' if stats.unreadable != 1 else ''} not read"
    for log, why in stats.unread:
        lines.append(f"  {log}: {why}")
    for log, why in stats.not_verified:
        lines.append(f"  {log}: dice not verified: {why}")
    for log, found in stats.reused:
        for d in found:
            lines.append(f"  {log}: {d.code} {d.message} ({', '.join(d.rules)})")
    results = stats.players
    if not results:
        lines.append("no dice")
        return "\n".join(lines) + "\n"
    tested = [r for r in results if r.chi_square is not None and r.p_value is not None]
    if tested:
        width = max(len("player"), *(len(r.player) for r in tested))
        lines.append(f"{'player':<{width}}  kind  dice   chi-square  df  p-value")
    for r in tested:
        assert r.chi_square is not None and r.p_value is not None
        tail = f"{r.chi_square:>10.2f}  {r.df:>2}  {_p_text(r.p_value)}"
        if r.flagged:
            tail += f"  implausible (p < {FLAG_BELOW})"
        lines.append(f"{r.player:<{width}}  {r.kind:<4}  {r.dice:>5}  {tail}")
        if r.flagged:
            lines.append(f"{'':<{width}}  counts: " + "  ".join(f"{face}: {count}" for face, count in r.counts))
    few = [r for r in results if r.chi_square is None or r.p_value is None]
    if few:  # one line for them all, however many players a league has
        named = listing((f"{r.player} {r.kind} ({r.dice})" for r in few), quote=str)
        lines.append(f"not tested, too few dice (at least {MIN_PER_FACE} a face): {named}")
    flagged = sum(1 for r in results if r.flagged)
    lines.append(f"{flagged} implausible" if flagged else "nothing implausible")
    if stats.reused:
        lines.append(f"{len(stats.reused)} logs share a secret with another (SG-D107, DR3)")
    return "\n".join(lines) + "\n"


def stats_json(stats: DiceStats) -> str:
    """The statistics as one JSON document (docs/dice.md), ending with a newline."""
    document = {
        "logs": stats.logs,
        "committed": stats.committed,
        "verified": list(stats.verified),
        "not_verified": [{"log": log, "why": why} for log, why in stats.not_verified],
        "unread": [{"log": log, "why": why} for log, why in stats.unread],
        "unreadable": stats.unreadable,
        "reused": [
            {"log": log, "code": d.code, "message": d.message, "line": d.span.line if d.span else None}
            for log, found in stats.reused
            for d in found
        ],
        "flag_below": FLAG_BELOW,
        "players": [r.as_json() for r in stats.players],
    }
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"


def _faces(faces: tuple[int, ...]) -> str:
    return " ".join(map(str, faces))


def next_text(rolls: NextRolls | PurposeRolls) -> str:
    """``dice next``: one line a roll, in every reading (``sg-dice-v1``) or as the purpose's dice."""
    lines = []
    if isinstance(rolls, NextRolls):
        for r in rolls.rolls:
            lines.append(
                f"roll {r.roll}: attack {_faces(r.d10)} · break/repair {_faces(r.d6)} · "
                f"rolloff white {_faces(r.rolloff_white)} black {_faces(r.rolloff_black)}"
            )
    else:
        for p in rolls.rolls:
            if p.rolloff is not None:
                shown = f"white {_faces(p.rolloff[0])} black {_faces(p.rolloff[1])}"
            else:
                shown = _faces(p.dice or ())
            lines.append(f"roll {p.roll} ({rolls.purpose}): {shown}")
    return "".join(line + "\n" for line in lines)


def next_json(rolls: NextRolls | PurposeRolls) -> str:
    """``dice next --format json``: the protocol, the game's id (and the purpose) and each roll
    (docs/dice.md), ending with a newline."""
    document: dict[str, object]
    if isinstance(rolls, NextRolls):
        document = {
            "protocol": rolls.protocol,
            "game_id": rolls.game_id,
            "rolls": [
                {
                    "roll": r.roll,
                    "d10": list(r.d10),
                    "d6": list(r.d6),
                    "rolloff": {"white": list(r.rolloff_white), "black": list(r.rolloff_black)},
                }
                for r in rolls.rolls
            ],
        }
    else:
        document = {
            "protocol": rolls.protocol,
            "game_id": rolls.game_id,
            "purpose": rolls.purpose,
            "rolls": [
                {
                    "roll": p.roll,
                    "dice": list(p.dice or ())
                    if p.rolloff is None
                    else {"white": list(p.rolloff[0]), "black": list(p.rolloff[1])},
                }
                for p in rolls.rolls
            ],
        }
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"
