"""The checker plays the pack (core §8): the explorer, its combinations, its bounds and its proofs.

Every break found in play comes with a game (``check --explain-break``); these tests write the
proofs of the breaks the checker finds, in the shipped example pack and in every design of the
corpus that it reports, and replay each with the library replay runs: the game must be legal to
the last action, and replay must see the break itself, with the watch's code (SG-R130-SG-R139),
the clamp of a cap (SG-N304), or a hit on the King that deals nothing.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

from sgcheck.config import Config
from sgcheck.contract.analysis import witness
from sgcheck.contract.analysis.explore import BOUNDS, PIECE, explore
from sgcheck.contract.analysis.meeting import combinations, signals, topics
from sgcheck.contract.checker import plan_check
from sgcheck.diagnostics import Diagnostic, Severity
from sgcheck.lang.cards.parser import parse_cards
from sgcheck.replay.files import LogInput, replay_input
from sgcheck.replay.interpreter import ReplayOptions
from tests.contract.test_corpus import design_paths, load_design

ROOT = Path(__file__).resolve().parents[2]
IN_PLAY = ROOT / "examples" / "packs" / "in-play"

#: What replay reports when it plays each kind of break (core/watch.py's codes; a cap is clamped).
SEEN_AS = {
    "exchange": "SG-R130",
    "negative-cost": "SG-R131",
    "negative-cost-stacked": "SG-R131",  # several cards together: the checker warns, replay reports that game
    "caps-stacked": "SG-R132",  # the sweep's reroll sources; to-hit and damage stacks are clamped
    "repair-denied": "SG-R133",
    "free-attempt": "SG-R134",
    "king-damage": "SG-R135",
    "growth": "SG-R136",
    "stacking": "SG-R137",  # copies of one card past a cap on an attack played (SG-C152)
    "king-immune": "SG-R138",  # an attack on a King no boosted hit can damage (SG-C156)
    "priced-out": "SG-R139",  # a kind of action the opponent's cards price past 1,000 (SG-C158)
    "cap": "SG-N304",
}


def cards_of(text: str) -> list[object]:
    parsed = parse_cards(text, "cards.sgcard")
    assert parsed.diagnostics == ()
    return list(parsed.cards)


def proofs(path: Path, folder: Path) -> list[tuple[str, Path]]:
    """Check ``path`` with ``--explain-break``'s library path: the kind of each break and its log."""
    job = plan_check([str(path)], Config())
    job.proof_dir = folder
    for _ in job.results():
        pass
    logs = [Path(line) for line in job.proofs]
    assert all(log.is_file() and log.name == "proof.sglog" for log in logs), job.proofs
    return [(re.sub(r"^.*-\d\d-", "", log.parent.name), log) for log in logs]


def replayed(log: Path) -> list[Diagnostic]:
    options = ReplayOptions(allow_violations=True, keep_going=True)
    result, _ = replay_input(LogInput(str(log)), options, with_summary=False)
    return [d for d in result.diagnostics if d.span is not None and d.span.source == str(log)]


def assert_replays_to(kind: str, log: Path) -> None:
    found = replayed(log)
    errors = [d for d in found if d.severity is Severity.ERROR]
    if kind == "refused":  # a card the core refuses in every game (SG-R123), played as the last action
        last = len(log.read_text().splitlines())
        assert [(d.code, d.span.line if d.span else None) for d in errors] == [("SG-R123", last)], errors
        return
    assert not errors, f"{log}: the proof is not a legal game:\n" + "\n".join(d.message for d in errors)
    if kind.endswith("-projected"):  # reasoned, not shown: only ever a warning (SG-C162)
        assert "Projected past the turns played" in log.read_text()
    elif kind in SEEN_AS and kind != "caps-stacked":
        codes = {d.code for d in found}
        expected = SEEN_AS[kind]
        if kind == "cap" and "SG-R132" in codes:  # a second reroll source is the watch's own break
            expected = "SG-R132"
        assert expected in codes, f"{log}: replay does not show the {kind} break: {sorted(codes)}"
        # where the finding names it: the game's last turn, which the path ends in (the break is its
        # last action, or the end of that turn for what the watch pairs across phases)
        lines = log.read_text().splitlines()
        last_turn = max(i for i, line in enumerate(lines, 1) if re.match(r"\d+\.", line))
        seen = [d.span.line for d in found if d.code == expected and d.span is not None]
        assert any(line >= last_turn for line in seen), (
            f"{log}: the break is replayed at lines {seen}, not in the last turn"
        )
    elif kind == "king-immune":
        assert re.search(r"attack \S+ K\w+ roll .* hit damage 0", log.read_text()), log.read_text()
    elif kind == "king-fogged":  # an attack on the King at the 5 floor of to-hit (R10)
        assert re.search(r"attack \S+ K\w+ roll .* threshold 5 ", log.read_text()), log.read_text()
    elif kind == "paid-attempt":  # two attempts of one kind in one Upkeep, each at the core's price
        twice = r"upkeep: (break|repair) .*cost (20|10) .*\n\s+\1 .*cost \2 "
        assert re.search(twice, log.read_text()), log.read_text()


def test_every_break_of_the_example_pack_replays_to_itself(tmp_path: Path) -> None:
    """examples/packs/in-play: each SG-C15x and SG-C16x finding's game replays, and replay sees the break
    (core §8)."""
    written = proofs(IN_PLAY, tmp_path)
    kinds = {kind for kind, _ in written}
    # the pack's SG-C153 is a cost two cards take below zero together (a negative cost); caps two
    # players' cards pass together on one attack are SG-C120's, read from the cards (R20)
    assert {"exchange", "negative-cost", "cap", "repair-denied", "free-attempt", "growth"} <= kinds
    assert {"king-immune", "king-fogged", "paid-attempt", "priced-out"} <= kinds
    for kind, log in written:
        assert_replays_to(kind, log)
        text = log.read_text()
        assert text.startswith("; Proof of a break of core §8")
        assert '[Pack "pack"]' in text and '[Scenario "probe.scenario.yaml"]' in text


CORPUS_BREAKS = [p for p in design_paths() if load_design(p).verdict != "clean"]


@pytest.mark.parametrize("path", CORPUS_BREAKS, ids=[p.name for p in CORPUS_BREAKS])
def test_every_proof_of_the_corpus_replays(path: Path, tmp_path: Path) -> None:
    """Every break or warning the checker finds in play in the design corpus comes with a game that replays to it."""
    for kind, log in proofs(path, tmp_path):
        assert_replays_to(kind, log)


def test_findings_name_the_situation_and_the_bounds(tmp_path: Path) -> None:
    job = plan_check([str(IN_PLAY)], Config())
    found = [d for result, _ in job.results() for d in result.diagnostics if d.code.startswith(("SG-C15", "SG-C16"))]
    assert found
    for diagnostic in found:
        context = dict(diagnostic.context)
        assert context["search"] == BOUNDS.describe()
        assert context["situation"] and context["cards"]
        assert "from the probe" in context["game"]


def test_a_discount_narrowed_by_distance_is_not_refused() -> None:
    """core §3, §8: `cost move -3 when distance >= 6` only prices sliding moves of 9 or more."""
    cards = cards_of('relic "Far Stride" passive { cost 2 SP effect cost move -3 when distance >= 6 }\n')
    assert explore(cards).findings == []


def test_a_price_paid_is_not_a_loss() -> None:
    """R23: a trigger's price never fires `on lose SP:`, so this rebate pays nothing back in play."""
    cards = cards_of(
        'relic "Toll" passive { cost 2 SP effect on move pay 1 SP: gain 1 SP }\n'
        'relic "Rebate" passive { cost 2 SP effect on lose SP: gain 1 LP }\n'
    )
    assert [f for f in explore(cards).findings if f.kind in ("exchange", "growth")] == []


def test_an_exchange_across_two_windows_is_found() -> None:
    """core §8, R16: SP taken at Battle and LP given at Main 2 of one turn is an exchange at 1:1."""
    cards = cards_of(
        'relic "Ash" passive { cost 3 SP effect at battle: lose 6 SP }\n'
        'relic "Dawn" passive { cost 3 SP effect at main2: gain 6 LP }\n'
    )
    (found,) = [f for f in explore(cards).findings if f.kind == "exchange"]
    assert set(found.cards) == {"Ash", "Dawn"}


def test_an_exchange_across_turns_is_found() -> None:
    """core §8, R16: SP taken at End and LP given at the next Upkeep pair up too."""
    cards = cards_of(
        'relic "Dusk" passive { cost 3 SP effect at end: lose 6 SP }\n'
        'relic "Morning" passive { cost 3 SP effect at upkeep: gain 6 LP }\n'
    )
    assert any(f.kind == "exchange" and set(f.cards) == {"Dusk", "Morning"} for f in explore(cards).findings)


def test_a_bonus_that_accumulates_is_found_at_the_use_past_the_cap() -> None:
    """core §4.5, R20: each use of `damage +1 permanently` adds a copy; the third passes +2."""
    cards = cards_of('relic "Forge" activated { cost 2 SP phase main1 effect damage +1 permanently }\n')
    found = [f for f in explore(cards).findings if f.kind == "cap"]
    assert found and found[0].what == "damage"


def test_legal_designs_pass() -> None:
    """What a careless checker refuses and core §8 allows: LP for nothing, the core's own rate, a
    one-turn denial, a bounded trigger."""
    cards = cards_of(
        'relic "Dew" passive { cost 4 SP effect at upkeep: gain 1 LP }\n'
        'spell "Fair" { cost 1 LP phase main2 effect convert 4 SP to 2 LP }\n'
        'spell "Seal" { cost 4 SP phase upkeep effect deny repair for 1 turn }\n'
        'relic "Courier" passive { cost 3 SP effect on move: gain 1 SP limit once per turn }\n'
    )
    assert explore(cards).findings == []


def test_a_second_attempt_at_full_price_is_only_a_warning() -> None:
    """core §6, core §8: an extra Break at the core's 20 is no free attempt (no error), but a second
    roll against the 12+ each Upkeep, bought with SP, is a judgment call the checker warns of."""
    cards = cards_of('relic "Hammer" passive { cost 8 SP effect extra break in upkeep }\n')
    (found,) = explore(cards).findings
    assert (found.kind, found.severity, found.cards) == ("paid-attempt", Severity.WARNING, ("Hammer",))
    assert dict(found.numbers) == {"attempts": 2, "price": 20}


def test_copies_for_a_while_that_add_up_are_projected_then_shown() -> None:
    """R20, R23: each enemy attack starts a +1 lasting to the holder's next turn, so the copies of one
    card add up past the +2 cap in a turn with three attacks on its holder, beyond what was played:
    projected, then shown by the witness search's game (an error with its path)."""
    cards = cards_of('relic "Ledger" passive { cost 4 SP effect on attacked: damage +1 next turn }\n')
    (found,) = [f for f in explore(cards).findings if f.kind == "cap"]
    assert found.what == "damage" and found.severity is Severity.ERROR and not found.projected
    assert dict(found.numbers)["total"] > 2
    # a copy that ends with the attack cannot add up: no projection, no finding
    cards = cards_of('relic "Spark" passive { cost 4 SP effect on hit: damage +1 this attack }\n')
    assert [f for f in explore(cards).findings if f.kind == "cap"] == []


def test_a_bound_crossed_late_is_decided_and_shown_in_a_game() -> None:
    """core §8, R23: a -1 on attacks for good at each End, up to 20 a game, takes a Pawn's attack (3)
    below 0 at the fourth copy, past the three turns the search plays: the whole game decides it, and
    the game played on shows it (an error, with its path)."""
    cards = cards_of(
        'relic "Lean Years" passive { cost 2 SP effect at end: cost attack -1 permanently limit 20 per game }\n'
    )
    (found,) = [f for f in explore(cards).findings if f.kind == "negative-cost"]
    assert found.severity is Severity.ERROR and not found.projected
    assert found.turns > BOUNDS.plies // 2 + 1  # shown past the turns the search plays
    # the limit decides too: 3 copies a game leave the Pawn's attack at 0
    cards = cards_of(
        'relic "Lean Years" passive { cost 2 SP effect at end: cost attack -1 permanently limit 3 per game }\n'
    )
    assert [f for f in explore(cards).findings if f.kind.startswith("negative-cost")] == []


def test_a_slow_accumulator_crosses_its_bound_in_the_game_played_on(tmp_path: Path) -> None:
    """core §8: a +2 to the opponent's moves at each Upkeep, for good, passes the 20 LP a side starts
    with on the eleventh copy: the game played on reaches it, and its proof replays."""
    path = tmp_path / "rising.sgcard"
    path.write_text(
        'relic "Rising Price" passive {\n    cost 2 SP\n    effect at upkeep: opponent cost move +2 permanently\n}\n'
    )
    (found,) = [f for f in explore(cards_of(path.read_text())).findings if f.kind == "steep-price"]
    assert not found.projected and found.turns > 10


def test_a_break_no_game_reaches_is_a_warning_with_its_reasoning(monkeypatch: pytest.MonkeyPatch) -> None:
    """core §8, item 3 of the contract's method: three captures of the holder's pieces give +30 for
    good; the checker decides it, and with the witness search cut to two plies no game it plays
    captures three, so it warns (SG-C162) with the copies needed and the witness's bounds, and never
    errs without a game (tests/contract/test_witness.py shows the game the full search finds)."""
    monkeypatch.setattr(witness, "PLIES", 2)
    cards = cards_of('relic "Vengeful Ghosts" passive { cost 4 SP effect on captured: to_hit +10 permanently }\n')
    findings = explore(cards).findings
    assert findings and all(f.severity is Severity.WARNING for f in findings)
    (found,) = findings
    assert found.projected and "2 more of each cross the bound" in found.projected
    assert "witness game directed at the events (captured) for up to 1 turns" in found.projected


def test_costs_below_zero_only_together_are_the_r20_warning() -> None:
    """R23: each -1 alone leaves a King step at 0; together they ask for -1, which play charges as 0.
    One card that goes below 0 alone is the error."""
    cards = cards_of(
        'relic "Left Boot" passive { cost 3 SP effect cost move -1 }\n'
        'relic "Right Boot" passive { cost 3 SP effect cost move -1 }\n'
    )
    kinds = {(f.kind, f.severity) for f in explore(cards).findings}
    assert kinds == {("negative-cost-stacked", Severity.WARNING)}
    cards = cards_of('relic "Stilts" passive { cost 3 SP effect cost move -2 }\n')
    assert {(f.kind, f.severity) for f in explore(cards).findings} == {("negative-cost", Severity.ERROR)}


def test_a_king_held_at_the_floor_is_a_warning_and_an_immune_one_an_error() -> None:
    """core §4.4, R10: a -90 against the King holds every unboosted attack on it at 5 (a warning);
    reductions of 3 from two cards leave every hit at 0 (an error, as from one card: nothing clamps)."""
    fog = cards_of('relic "Fog" passive { cost 6 SP effect to_hit -90 on enemy attacks when target is King }\n')
    (found,) = explore(fog).findings
    assert (found.kind, found.severity) == ("king-fogged", Severity.WARNING)
    assert "a Queen attacking the King" in found.message
    mist = cards_of('relic "Mist" passive { cost 6 SP effect to_hit -40 on enemy attacks when target is King }\n')
    assert explore(mist).findings == []
    twins = cards_of(
        'relic "Dawn" passive { cost 5 SP effect reduce damage by 2 on own King }\n'
        'relic "Dusk" passive { cost 5 SP effect damage -1 on enemy attacks when target is King }\n'
    )
    immune = [f for f in explore(twins).findings if f.kind == "king-immune"]
    assert immune and all(f.severity is Severity.ERROR for f in immune)


def test_cards_that_do_not_meet_are_never_played_together() -> None:
    """The work grows with the cards: cards that share no signal are each played alone."""
    text = "".join(
        f'relic "Lens {i}" passive {{ cost 2 SP effect to_hit +{i % 9 + 1} when attacker is Knight }}\n'
        for i in range(40)
    )
    cards = cards_of(text)
    assert not any(signals(c).sends & signals(o).hears for c in cards for o in cards if c is not o)
    hands = combinations(cards)
    assert all(len(white) + len(black) == 1 for white, black in hands)
    assert len(hands) == 9  # one card of each shape: the bonus is all that differs


def test_partners_are_bounded() -> None:
    """Each card meets at most BOUNDS.partners others: pairs stay linear in the cards."""
    text = "".join(
        f'relic "Bell {i}" passive {{ cost 2 SP effect on gain SP: gain {i % 5 + 1} SP }}\n' for i in range(30)
    )
    cards = cards_of(text)
    pairs = [h for h in combinations(cards, partners=BOUNDS.partners) if len(h[0]) + len(h[1]) == 2]
    assert len(pairs) <= len(cards) * BOUNDS.partners * 2
    assert len(combinations(cards, partners=BOUNDS.partners)) < len(combinations(cards, partners=4))


def test_topics_name_the_actions_a_card_is_about() -> None:
    (card,) = cards_of('relic "Boots" passive { cost 2 SP effect cost move -1 when attacker is Rook }\n')
    assert {t.value for t in topics(card)} >= {"move", "attack"}


def test_the_findings_do_not_depend_on_the_number_of_processes(capfd: pytest.CaptureFixture[str]) -> None:
    """The play is searched in pieces of combinations, each on its own, so spreading the pieces over
    processes (``check --jobs``) finds the same breaks, with the same games, as one process."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from bench_explore import dense_text

    cards = cards_of(dense_text(40))
    alone = explore(cards)
    spread = explore(cards, jobs=2)
    assert alone.combinations > PIECE  # several pieces: the processes were used
    assert (alone.findings, alone.combinations, alone.states) == (spread.findings, spread.combinations, spread.states)
    assert "Traceback" not in capfd.readouterr().err  # the pieces travelled to the workers and back
