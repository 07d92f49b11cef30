"""A log with more rolls than the dice protocol derives (docs/dice.md): each player's hash chain
holds 4096 keys, one a roll, so roll 4096 and the rolls after it cannot be checked (SG-D105).

A log that long is no example case (``sgcheck/replay/cases/``): this test writes it."""

from __future__ import annotations

import hashlib
from pathlib import Path

from sgcheck.core import dice
from sgcheck.core.rolls import BREAK_ROLL
from sgcheck.replay.files import discover_logs, replay_input
from sgcheck.replay.options import ReplayOptions

WHITE = hashlib.sha256(b"chain end white").digest()
BLACK = hashlib.sha256(b"chain end black").digest()
GAME = "chain-end"
HEADER_LINES = 9  # the header, a blank line, the Kings and the turn's header


def _log(rolls: int) -> str:
    """A log of ``rolls`` Break statements on one Upkeep, each with the dice the protocol derives
    for it while the chains last (roll 4096 on, dice of its own)."""
    commits = dice.commitment(WHITE), dice.commitment(BLACK)
    keys = dice.chain(WHITE), dice.chain(BLACK)
    lines = [
        f'[DiceProtocol "{dice.PROTOCOL}"]',
        f'[GameId "{GAME}"]',
        f'[WhiteCommit "{commits[0].hex()}"]',
        f'[BlackCommit "{commits[1].hex()}"]',
        f'[WhiteSecret "{WHITE.hex()}"]',
        f'[BlackSecret "{BLACK.hex()}"]',
        "",
        "king white e1",
        "king black e8",
        "1.   upkeep:",
    ]
    for index in range(rolls):
        faces: tuple[int, ...] = (1, 1, 1)
        if index < dice.CHAIN_LENGTH:
            faces = dice.roll_for(
                keys[0][index], keys[1][index], *commits, GAME, index, BREAK_ROLL.sides, BREAK_ROLL.count
            )
        lines.append("  break roll " + " ".join(map(str, faces)))
    return "\n".join(lines) + "\n"


def _dice_findings(tmp_path: Path, rolls: int) -> list[tuple[str, int, int, str]]:
    path = tmp_path / "long.sglog"
    path.write_text(_log(rolls), encoding="utf-8")
    (log,) = discover_logs([str(path)])
    result, _texts = replay_input(log, ReplayOptions())
    return [
        (d.code, d.span.line, d.span.column, d.message)
        for d in result.diagnostics
        if d.code.startswith("SG-D") and d.span is not None
    ]


def test_sg_d105_the_roll_past_the_chains_end_is_reported_once_where_it_is(tmp_path: Path) -> None:
    """The 4097th roll (roll 4096) is past the last key: SG-D105 at its dice, once for all the rolls
    after it; the 4096 rolls before it are each the derived dice, so no SG-D103."""
    found = _dice_findings(tmp_path, dice.CHAIN_LENGTH + 3)
    assert [(code, line, column) for code, line, column, _ in found] == [
        ("SG-D105", HEADER_LINES + dice.CHAIN_LENGTH + 2, 14)
    ]
    assert "roll 4096 is past the last roll the protocol derives (4096 rolls a game)" in found[0][3]


def test_a_log_of_exactly_the_chains_length_is_checked_whole(tmp_path: Path) -> None:
    assert _dice_findings(tmp_path, dice.CHAIN_LENGTH) == []
