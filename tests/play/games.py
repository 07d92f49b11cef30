"""The games whose logs tests/play/golden/ keeps: the generator's, the simulator's and a contract
proof's, each from a fixed seed. They were written before playing a game had one home
(sgcheck/play/), so the golden test holds the drivers over it to the games they played then."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = Path(__file__).resolve().parent / "golden"


def _pack(path: str) -> object:
    try:
        from sgcheck.play.pack import load_game_pack
    except ImportError:  # the layout the goldens were first written with
        from sgcheck.replay.pack import load_game_pack  # type: ignore[no-redef]
    return load_game_pack(str(ROOT / path), log_folder=None, from_tag=False)


def _scenario(path: str) -> object:
    try:
        from sgcheck.play.game_scenario import load_game_scenario
    except ImportError:
        from sgcheck.replay.game_scenario import load_game_scenario  # type: ignore[no-redef]
    return load_game_scenario(str(ROOT / path), log_folder=None, from_tag=False).scenario  # type: ignore[union-attr]


def _dice(version: int) -> object:
    try:
        from sgcheck.play.dice_source import DerivedDice
    except ImportError:
        from sgcheck.replay.dice_source import DerivedDice  # type: ignore[no-redef]
    return DerivedDice(bytes(range(32)), bytes(range(32, 64)), "golden-game", version=version)


def generated(seed: int, **options: object) -> str:
    from sgcheck.lang.logs.writer import format_log
    from sgcheck.replay.generate import generate_game

    return format_log(generate_game(seed, **options).items)  # type: ignore[arg-type]


def simulated(seed: int, policy: str, pack: str, scenario: str | None = None, turns: int = 30) -> str:
    from sgcheck.core.pieces import Color
    from sgcheck.core.ruleset import CORE
    from sgcheck.simulate.games import GameTask, Side, play_task

    try:
        from sgcheck.play.policies import Policy
    except ImportError:
        from sgcheck.simulate.policies import Policy  # type: ignore[no-redef]
    loaded = _pack(pack)
    side = Side(pack, loaded.cards, loaded.draw, loaded.keep)  # type: ignore[attr-defined]
    task = GameTask(
        index=seed,
        seed=seed * 7919 + 1,
        pack=side,
        against=Side("core"),
        pack_color=Color.BLACK if seed % 2 else Color.WHITE,
        policy=Policy(policy),
        ruleset=replace(CORE, turn_limit=turns),
        scenario=_scenario(scenario) if scenario is not None else None,  # type: ignore[arg-type]
        scenario_label=scenario,
        sample=True,
    )
    log = play_task(task).log
    assert log is not None
    return log


def proved(folder: Path) -> str:
    """The proof log of a break the contract checker finds by playing ``examples/packs/in-play``."""
    from sgcheck.contract.checker import check_plan, plan_check, write_proofs
    from sgcheck.core.ruleset import CORE

    plan = plan_check([str(ROOT / "examples" / "packs" / "in-play")]).plans[0]
    checked = check_plan(plan)
    written = list(write_proofs(folder, "in-play", checked, CORE))
    logs = [Path(found) for found in written if found.endswith(".sglog")]
    assert logs, written
    texts = [log.read_text(encoding="utf-8") for log in logs]
    # the comments name where the proof was written: keep the games only
    return "".join(
        f"== {log.parent.name}\n" + "".join(line + "\n" for line in text.splitlines() if not line.startswith(";"))
        for log, text in zip(logs, texts, strict=True)
    )


#: Each golden file and how its game is played.
GAMES: dict[str, Callable[[], str]] = {
    "generated-random.sglog": lambda: generated(11, max_turns=25),
    "generated-aggressive-scenario.sglog": lambda: generated(
        4, style=_style("AGGRESSIVE"), scenario=_scenario("examples/scenarios/gem-siege.scenario.yaml"),
        scenario_tag="gem-siege.scenario.yaml", max_turns=40,
    ),
    "generated-pack-dice-v2.sglog": lambda: generated(
        5, pack=_pack("examples/packs/starter"), pack_tag="starter", dice=_dice(2), max_turns=20
    ),
    "generated-aggressive-cards-dice-v2.sglog": lambda: generated(  # cards played, a second roll
        13, style=_style("AGGRESSIVE"), pack=_pack("examples/packs/starter"), pack_tag="starter", dice=_dice(2),
        max_turns=60,
    ),
    "generated-endless-pack.sglog": lambda: generated(
        9, style=_style("ENDLESS"), pack=_pack("examples/logs/relic-pack"), pack_tag="relic-pack",
        max_turns=10, max_actions=120,
    ),
    "simulated-greedy.sglog": lambda: simulated(2, "greedy", "examples/packs/starter"),
    "simulated-lookahead-scenario.sglog": lambda: simulated(
        3, "lookahead", "examples/packs/starter", "examples/scenarios/wellsprings.scenario.yaml", turns=12
    ),
    "simulated-search.sglog": lambda: simulated(1, "search", "examples/packs/starter", turns=8),
    "simulated-random.sglog": lambda: simulated(6, "random", "examples/logs/relic-pack", turns=20),
}  # fmt: skip


def _style(name: str) -> object:
    from sgcheck.replay.generate import Style

    return Style[name]


def write_all(folder: Path, proofs: Path) -> None:
    for name, play in GAMES.items():
        (folder / name).write_text(play(), encoding="utf-8", newline="\n")
    (folder / "proofs-in-play.txt").write_text(proved(proofs), encoding="utf-8", newline="\n")


if __name__ == "__main__":
    import sys
    import tempfile

    with tempfile.TemporaryDirectory() as proofs:
        write_all(Path(sys.argv[1]), Path(proofs))
