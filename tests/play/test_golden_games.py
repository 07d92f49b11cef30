"""The seeds' games do not move: the generator, the simulator and the contract's proofs, drivers
over sgcheck/play/, play from a fixed seed the very game they played before it existed.

Each file of tests/play/golden/ was written by the drivers as they were before playing a game had
one home (tests/play/games.py says how each game is played); ``SGCHECK_UPDATE_GOLDEN=1`` rewrites
them, for an intended change only. Replay, which shares none of the code that played them, must
accept every one (core §1, R01, R19, R24)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from sgcheck.replay.interpreter import ReplayOptions, replay_text
from tests.play.games import GAMES, GOLDEN, ROOT, proved

#: The pack and scenario each golden game is replayed with (its tags name them relative to its folder).
WITH = {
    "generated-aggressive-cards-dice-v2.sglog": ReplayOptions(pack=str(ROOT / "examples/packs/starter")),
    "generated-aggressive-scenario.sglog": ReplayOptions(
        scenario=str(ROOT / "examples/scenarios/gem-siege.scenario.yaml")
    ),
    "generated-pack-dice-v2.sglog": ReplayOptions(pack=str(ROOT / "examples/packs/starter")),
    "generated-endless-pack.sglog": ReplayOptions(pack=str(ROOT / "examples/logs/relic-pack")),
    "generated-random.sglog": ReplayOptions(),
    "simulated-greedy.sglog": ReplayOptions(pack=str(ROOT / "examples/packs/starter")),
    "simulated-lookahead-scenario.sglog": ReplayOptions(
        pack=str(ROOT / "examples/packs/starter"),
        scenario=str(ROOT / "examples/scenarios/wellsprings.scenario.yaml"),
    ),
    "simulated-search.sglog": ReplayOptions(pack=str(ROOT / "examples/packs/starter")),
    "simulated-random.sglog": ReplayOptions(pack=str(ROOT / "examples/logs/relic-pack")),
}


def _check(name: str, text: str) -> None:
    path = GOLDEN / name
    if os.environ.get("SGCHECK_UPDATE_GOLDEN") == "1":
        path.write_text(text, encoding="utf-8", newline="\n")
    assert text == path.read_text(encoding="utf-8"), f"{name}: the seeded game moved"


@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_seeded_game_is_the_game_it_was(name: str) -> None:
    _check(name, GAMES[name]())


def test_the_proofs_of_a_pack_are_the_games_they_were(tmp_path: Path) -> None:
    """``check --explain-break``'s games (contract proofs) of examples/packs/in-play, each break's."""
    _check("proofs-in-play.txt", proved(tmp_path))


def test_the_golden_list_is_whole() -> None:
    kept = {path.name for path in GOLDEN.iterdir()}
    assert kept == {*GAMES, "proofs-in-play.txt"} and set(WITH) == set(GAMES)


@pytest.mark.parametrize("name", sorted(GAMES))
def test_replay_accepts_each_golden_game(name: str) -> None:
    """The oracle that shares nothing with the players: replay reads each game back clean."""
    text = (GOLDEN / name).read_text(encoding="utf-8")
    result = replay_text(text, name, WITH[name])
    assert [f"{d.code} {d.message}" for d in result.diagnostics if d.is_error] == []
