"""An adversary the contract checker does not share: random packs played long, to find §8 breaks.

The contract checker decides with its own search (``sgcheck/contract/analysis``). This module is
its oracle and shares none of it: it writes random packs of its own (:func:`random_pack`, effects
chosen to push each quantity core §8 bounds: bonuses and costs that accumulate, SP and LP moved
in either player's turn and pools, repair denials, rerolls), deals every card to both players,
and plays :data:`TURNS` turns a side (:func:`play`) from a position of its own, both sides choosing
their actions and dice at random with a bias for what moves a bound (cards first, then attacks,
Summons and Gem attempts; hits and misses, successes and failures). Every step goes through the
core's engine and the run-time watch replay keeps (:func:`sgcheck.core.watch.observe`), and every
attack's card bonuses are read before the caps clamp them: what it reports is what a game shows.

A break is *the contract's* when core §8 forbids it for one player's cards whatever the others
do: the watch's breaches (an exchange past 2:1 or the 20 a turn, a cost below 0 from one card,
repair denied on consecutive Upkeeps, a free repeated attempt, a King damaged by a card, growth
within a turn) and a cap passed by one card's copies alone. What several cards only do together
is the R20 warning (play clamps it), and not counted.

A miss is a pack that ``sgcheck check`` passes (no error) and the adversary breaks.
``python -m tests.contract.adversary --packs 100000 --seed 1`` runs a long campaign and prints its
figures (docs/contract-rules.md, "An oracle it does not share"); the test suite runs a fixed budget
(tests/contract/test_adversary.py).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field

from sgcheck.config import Config
from sgcheck.contract import check_paths
from sgcheck.core import caps, engine
from sgcheck.core.actions import Action, Attack, Break, Convert, EndTurn, EnterPhase, Repair
from sgcheck.core.cards.model import Card
from sgcheck.core.cards.table import CardsByName, new_cards
from sgcheck.core.legal import attacks, card_plays, moves_from, summons, teleports
from sgcheck.core.outcome import Applied
from sgcheck.core.pieces import BISHOP, BLACK, KING, KNIGHT, PAWN, QUEEN, ROOK, WHITE, Kind, Phase
from sgcheck.core.play.victory import scenario_start
from sgcheck.core.ruleset import CORE
from sgcheck.core.scenario import Scenario, SideSetup
from sgcheck.core.squares import Square, parse_square
from sgcheck.core.state import GameState, initial_state
from sgcheck.core.watch import START, Watch, observe
from sgcheck.diagnostics import Severity
from sgcheck.lang.cards.parser import parse_cards

#: Turns a side each game plays (the issue asks for 40 or more).
TURNS = 40
#: Actions a turn at most (a third of them in each phase), the phases' way forward aside.
ACTIONS = 12

# --- packs ------------------------------------------------------------------------------------------

_PHASES = ("upkeep", "main1", "battle", "main2", "end")
_EVENTS = ("capture", "captured", "hit", "miss", "attacked", "summon", "move")
_COSTS = ("move", "attack", "summon", "teleport", "repair", "break")
_DURATIONS = ("", " this turn", " for 2 turns", " next turn", " permanently", " permanently", " permanently")
_LIMITS = ("", "", "", " limit once per turn", " limit 2 per game", " limit 12 per game")


def _action(rng: random.Random) -> tuple[str, bool]:
    """One effect's action, and whether it lasts (a duration means something for it)."""
    pick = rng.randrange(11)
    if pick == 0:
        return f"to_hit +{rng.choice((2, 5, 10, 15, 26))}", True
    if pick == 1:
        return f"damage +{rng.choice((1, 1, 2, 3))}", True
    if pick == 2:
        return f"cost {rng.choice(_COSTS)} -{rng.choice((1, 1, 2, 4))}", True
    if pick == 3:
        return f"opponent cost {rng.choice(_COSTS)} +{rng.choice((2, 5, 40))}", True
    if pick == 4:
        return f"gain {rng.choice((1, 2, 4, 10))} {rng.choice(('SP', 'LP', 'LP'))}", False
    if pick == 5:
        return f"lose {rng.choice((2, 4, 10, 12))} SP", False
    if pick == 6:
        return f"opponent loses {rng.choice((2, 5, 10))} {rng.choice(('SP', 'LP'))}", False
    if pick == 7:
        return f"steal {rng.choice((2, 5))} SP", False
    if pick == 8:
        return "deny repair", True
    if pick == 9:
        return "reroll accuracy", True
    return f"extra {rng.choice(('repair', 'break', 'summon'))} in upkeep", True


def random_card(rng: random.Random, name: str) -> str:
    """One card's source in the card language, with one or two effects."""
    kind = rng.choice(("relic", "relic", "relic activated", "spell"))
    lines = [f"    cost {rng.randint(0, 5)} SP"]
    if kind == "spell":
        lines.append(f"    phase {rng.choice(('main1', 'battle', 'main2', 'end'))}")
    for _ in range(rng.choice((1, 1, 2))):
        action, lasts = _action(rng)
        trigger = ""
        if kind != "spell" and rng.random() < 0.6:
            trigger = rng.choice((f"at {rng.choice(_PHASES)}: ", f"on {rng.choice(_EVENTS)}: "))
        duration = rng.choice(_DURATIONS) if lasts else ""
        if action == "deny repair" and not duration:
            duration = " for 1 turn"
        limit = rng.choice(_LIMITS) if trigger or kind == "relic activated" else ""
        lines.append(f"    effect {trigger}{action}{duration}{limit}")
    head = {
        "relic": f'relic "{name}" passive',
        "relic activated": f'relic "{name}" activated',
        "spell": f'spell "{name}"',
    }
    return head[kind] + " {\n" + "\n".join(lines) + "\n}\n"


def random_pack(rng: random.Random) -> str:
    """One to three cards, each named after its place in the pack."""
    return "\n".join(random_card(rng, f"Card {chr(65 + i)}") for i in range(rng.choice((1, 1, 2, 3))))


# --- the position -----------------------------------------------------------------------------------


def _side(king: str, squares: Sequence[tuple[str, Kind]]) -> SideSetup:
    pieces = ((parse_square(king), KING), *((parse_square(sq), kind) for sq, kind in squares))
    return SideSetup(lp=40, sp=40, pieces=pieces)


#: Both sides with a few pieces facing each other, Pawns in reach (the adversary's own position).
POSITION = Scenario(
    "adversary",
    sides=(
        _side("e2", (("d4", PAWN), ("e4", PAWN), ("c3", KNIGHT), ("f3", BISHOP), ("a1", ROOK), ("d1", QUEEN))),
        _side("e7", (("d5", PAWN), ("e5", PAWN), ("c6", KNIGHT), ("f6", BISHOP), ("a8", ROOK), ("d8", QUEEN))),
    ),
)


def _start(cards: Sequence[Card]) -> GameState:
    names = tuple(card.name for card in cards)[: caps.HAND_LIMIT]
    white, black = POSITION.side(WHITE).king, POSITION.side(BLACK).king
    assert white is not None and black is not None
    state = initial_state(white, black, CORE, POSITION)
    state = state.replace(cards=new_cards(CardsByName(tuple(cards)), names, names))
    return scenario_start(state).replace(scenario=None)


# --- the play ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Break_:
    """A §8 break a game showed: its kind, the cards, the ply and the action."""

    kind: str
    cards: tuple[str, ...]
    ply: int
    action: str


def _dice(rng: random.Random, action: Action, state: GameState) -> Action:
    if isinstance(action, Attack):
        hit = rng.random() < 0.7
        rolled = action.replace(roll=(0, 1) if hit else (9, 9))
        if not hit and rng.random() < 0.5:
            for advantage in (False, True):
                again = rolled.replace(second=(0, 1), advantage=advantage)
                if engine.is_legal(state, again):
                    return again
        return rolled
    if isinstance(action, Break | Repair):
        return action.replace(roll=(6, 6, 6) if rng.random() < 0.5 else (1, 1, 1))
    return action


def _choices(state: GameState, rng: random.Random) -> list[Action]:
    """Everything worth trying now, most telling first, shuffled within each kind."""
    phase = state.turn.phase
    groups: list[list[Action]] = [list(card_plays(state))]
    if phase is Phase.UPKEEP:
        groups.append([Repair((6, 6, 6)), Break((6, 6, 6))])
        groups.append(list(summons(state))[:6])
    elif phase is Phase.BATTLE:
        groups.append(list(attacks(state)))
    elif phase in (Phase.MAIN1, Phase.MAIN2):
        if state.mover.sp >= caps.CONVERSION_SP_PER_LP and rng.random() < 0.3:
            groups.append([Convert(rng.choice((2, 10, 20)))])
        own = [sq for sq, cell in enumerate(state.board) if cell is not None and cell.color is state.to_move]
        rng.shuffle(own)
        groups.append([m for sq in own[:3] for m in list(moves_from(state, Square(sq)))[:3]])
    elif phase is Phase.END:
        groups.append(list(teleports(state))[:3])
    found: list[Action] = []
    for group in groups:
        rng.shuffle(group)
        found.extend(group)
    return found


def _caps(applied: Applied) -> list[tuple[str, tuple[str, ...]]]:
    """The caps one card's copies pass on their own on this attack (R20: several together are the warning)."""
    fx = applied.effects
    found: list[tuple[str, tuple[str, ...]]] = []
    if fx.cards is None:
        return found
    for what, shares, cap in (
        ("to-hit", fx.cards.to_hit, caps.TO_HIT_BONUS_CAP),
        ("damage", fx.cards.damage, caps.DAMAGE_BONUS_CAP),
    ):
        per_card: dict[str, int] = {}
        for share in shares:
            per_card[share.card] = per_card.get(share.card, 0) + share.amount
        found.extend((f"cap-{what}", (card,)) for card, total in per_card.items() if total > cap)
    return found


def _taken(state: GameState, watch: Watch, action: Action, applied: Applied, ply: int, out: list[Break_]) -> Watch:
    """The watch after ``action``; the §8 breaks it showed are added to ``out``."""
    watch, breaches = observe(watch, state, action, applied)
    for breach in breaches:
        if breach.diagnostic.severity is Severity.ERROR and breach.what != "together":
            out.append(Break_(breach.kind, breach.cards, ply, repr(action)))
    out.extend(Break_(kind, who, ply, repr(action)) for kind, who in _caps(applied))
    return watch


def _act(state: GameState, rng: random.Random) -> tuple[Action, Applied] | None:
    """The first of the phase's choices the engine takes, with its dice."""
    for action in _choices(state, rng):
        action = _dice(rng, action, state)
        step = engine.apply(state, action)
        if isinstance(step, Applied):
            return action, step
    return None


def play(cards: Sequence[Card], seed: int, turns: int = TURNS) -> list[Break_]:
    """Play ``turns`` turns a side with every card in both hands; every §8 break the game shows.

    In each phase a player takes a few actions (stopping at random), then moves on."""
    rng = random.Random(seed)
    state, watch = _start(cards), START
    breaks: list[Break_] = []
    for ply in range(2 * turns):
        while state.result is None:
            for _ in range(ACTIONS // 3):
                taken = _act(state, rng)
                if taken is None or rng.random() < 0.15:
                    break
                action, applied = taken
                watch = _taken(state, watch, action, applied, ply, breaks)
                state = applied.state
                if state.result is not None:
                    return breaks
            forward = _forward(state)
            step = engine.apply(state, forward)
            assert isinstance(step, Applied), (forward, step)
            watch = _taken(state, watch, forward, step, ply, breaks)
            state = step.state
            if isinstance(forward, EndTurn):
                break
        if state.result is not None:
            break
    return breaks


def _forward(state: GameState) -> Action:
    phase = state.turn.phase
    return EndTurn() if phase is Phase.END else EnterPhase(Phase(phase + 1))


# --- the campaign -----------------------------------------------------------------------------------


@dataclass
class Tally:
    """What a campaign found."""

    packs: int = 0
    refused: int = 0  # packs check reports an error on
    broken: int = 0  # packs the adversary broke
    caught: int = 0  # broken and refused
    misses: list[str] = field(default_factory=list)  # broken and passed: the pack's text
    #: the misses by the kind of the first break, each as (warned, silent): warned when check
    #: reasoned the break out and only warned of it (a code of :data:`WARNED`), silent otherwise
    kinds: dict[str, tuple[int, int]] = field(default_factory=dict)
    check_seconds: float = 0.0  # CPU time of the checks, summed over the processes
    play_seconds: float = 0.0  # CPU time of the adversary's games


#: The warnings that say a break was reasoned out and no game the checker played shows it: a miss
#: with one of them is the checker's witness search falling short, not its reasoning.
WARNED = frozenset({"SG-C162"})


def checked_errors(text: str, folder: str) -> list[str]:
    """The codes of the errors ``sgcheck check`` reports on ``text`` as one card file."""
    return checked(text, folder)[0]


def checked(text: str, folder: str) -> tuple[list[str], list[str]]:
    """The codes of the errors and of the warnings ``sgcheck check`` reports on ``text`` as one card
    file; a rule error with no game that shows it is a warning whose message says ``possibly``."""
    import pathlib

    path = pathlib.Path(folder) / "pack.sgcard"
    path.write_text(text, encoding="utf-8")
    run = check_paths([str(path)], Config())
    errors = [d.code for d in run.diagnostics if d.severity is Severity.ERROR]
    warnings = [
        d.code
        for d in run.diagnostics
        if d.severity is not Severity.ERROR and (d.code in WARNED or d.message.startswith("possibly"))
    ]
    return errors, warnings


def one(seed: int, folder: str, turns: int = TURNS) -> tuple[str, list[Break_], list[str]]:
    """The pack of ``seed``, what the adversary broke with it and what check reports as errors."""
    played = _timed_one(seed, folder, turns)
    return played.text, played.breaks, played.errors


@dataclass(frozen=True)
class Played:
    """One pack of a campaign: its text, the breaks its game showed, what check reported on it
    (errors, and the warnings of :func:`checked`) and the CPU seconds of the check and the play."""

    text: str
    breaks: list[Break_]
    errors: list[str]
    warnings: list[str]
    seconds: tuple[float, float]


def _timed_one(seed: int, folder: str, turns: int) -> Played:
    """:func:`one`, with check's warnings and the CPU seconds the check and the adversary's play each took."""
    rng = random.Random(seed)
    text = random_pack(rng)
    parsed = parse_cards(text, "pack.sgcard")
    if parsed.diagnostics or not parsed.cards:
        return Played(text, [], ["unreadable"], [], (0.0, 0.0))
    started = time.process_time()
    errors, warnings = checked(text, folder)
    done = time.process_time()
    breaks = play(parsed.cards, seed, turns)
    return Played(text, breaks, errors, warnings, (done - started, time.process_time() - done))


@dataclass(frozen=True)
class _Pack:
    """One pack of a campaign, as a task a worker process takes (picklable)."""

    seed: int
    turns: int

    def __call__(self) -> Played:
        import tempfile

        with tempfile.TemporaryDirectory() as folder:
            return _timed_one(self.seed, folder, self.turns)


def _run(task: _Pack) -> Played:
    return task()


def campaign(packs: int, seed: int, folder: str, turns: int = TURNS, jobs: int = 1) -> Tally:
    """``packs`` packs from ``seed``, checked and played; in ``jobs`` processes (each pack its own
    task and folder), the tally the same for any ``jobs``."""
    tally = Tally()
    if jobs > 1:
        from sgcheck.distribute import map_ordered

        tasks = (_Pack(seed * 1_000_003 + index, turns) for index in range(packs))
        results = map_ordered(_run, tasks, jobs=jobs)
    else:
        results = (_timed_one(seed * 1_000_003 + index, folder, turns) for index in range(packs))
    for played in results:
        if played.errors == ["unreadable"]:
            continue
        tally.check_seconds += played.seconds[0]
        tally.play_seconds += played.seconds[1]
        tally.packs += 1
        tally.refused += bool(played.errors)
        if played.breaks:
            tally.broken += 1
            if played.errors:
                tally.caught += 1
            else:
                first = played.breaks[0]
                said = f"check warned: {', '.join(sorted(set(played.warnings)))}" if played.warnings else "check silent"
                tally.misses.append(
                    f"{played.text}; broken: {first.kind} by {first.cards} at ply {first.ply}: {first.action}; {said}"
                )
                warned, silent = tally.kinds.get(first.kind, (0, 0))
                tally.kinds[first.kind] = (warned + 1, silent) if played.warnings else (warned, silent + 1)
    return tally


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--packs", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--turns", type=int, default=TURNS)
    parser.add_argument("--jobs", type=int, default=1, help="processes (each pack a task of its own)")
    parser.add_argument(
        "--silent-only", action="store_true", help="print only the misses check neither refused nor warned of"
    )
    args = parser.parse_args(argv)
    import tempfile

    started = time.perf_counter()
    with tempfile.TemporaryDirectory() as folder:
        tally = campaign(args.packs, args.seed, folder, args.turns, max(1, args.jobs))
    took = time.perf_counter() - started
    per_pack = (tally.check_seconds + tally.play_seconds) / max(1, tally.packs)
    print(
        f"packs {tally.packs}, refused by check {tally.refused}, broken in play {tally.broken}, "
        f"caught {tally.caught}, missed {len(tally.misses)}, {took:.0f} s "
        f"(CPU per pack {per_pack:.2f} s: check {tally.check_seconds:.0f} s, play {tally.play_seconds:.0f} s in all)"
    )
    if tally.kinds:
        by_kind = sorted(tally.kinds.items(), key=lambda item: (-sum(item[1]), item[0]))
        print("misses by kind (warned/silent): " + ", ".join(f"{kind} {w}/{s}" for kind, (w, s) in by_kind))
    for miss in tally.misses:
        if not (args.silent_only and not miss.endswith("; check silent")):
            print("--- missed:\n" + miss)
    return 1 if tally.misses else 0


if __name__ == "__main__":
    sys.exit(main())
