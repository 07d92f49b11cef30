"""The witness search (core §8, item 3 of the contract's method): when the reasoning says a break
is possible through events the explorer's games do not make often enough, a game directed at those
events is played with the core engine, and the break found there is an error with a proof that
replay plays to the break. Replay, not the explorer, is the judge of every proof here."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sgcheck.contract.analysis import reachable, witness
from sgcheck.contract.analysis.explore import BOUNDS, _Search, card_goals, explore
from sgcheck.contract.analysis.probes import PROBES, start
from sgcheck.core.actions import Action, Attack, EnterPhase, Play
from sgcheck.core.cards import model as A
from sgcheck.core.cards.parts import Resource
from sgcheck.core.engine import apply
from sgcheck.core.geometry import attack_targets
from sgcheck.core.outcome import Applied
from sgcheck.core.pieces import Color, Kind, Phase, Piece, piece
from sgcheck.core.record import compiled
from sgcheck.core.ruleset import CORE
from sgcheck.core.squares import Square
from sgcheck.core.state import GameState
from sgcheck.diagnostics import Severity
from sgcheck.lang.cards.parser import parse_cards
from tests.contract.test_explore import assert_replays_to, cards_of, proofs, replayed
from tests.contract.test_proven import _check_text

GHOSTS = 'relic "Vengeful Ghosts" passive {\n    cost 4 SP\n    effect on captured: to_hit +10 permanently\n}\n'
LEDGER = 'relic "Grudge Ledger" passive {\n    cost 4 SP\n    effect on attacked: damage +1 next turn\n}\n'

#: Tests that replace one of the explorer's functions or methods to count its calls: the compiled
#: build binds those calls when it is built, so they run where the explorer is interpreted.
INTERPRETED = pytest.mark.skipif(
    compiled(), reason="replaces the explorer's internals, bound at build time when compiled"
)


def _written(tmp_path: Path, text: str) -> list[tuple[str, Path]]:
    path = tmp_path / "card.sgcard"
    path.write_text(text)
    return proofs(path, tmp_path / "proofs")


def test_captures_of_the_holders_pieces_are_brought_about_and_replayed(tmp_path: Path) -> None:
    """core §4.5, core §8, R20: three captures of the holder's pieces give +30 for good, past the +25
    cap. The witness game feeds the holder's pieces to the opponent; replay, playing the proof,
    sees three captures of White's pieces before the attack that carries the +30 (SG-R137), and the
    finding is an error."""
    cards = cards_of(GHOSTS)
    (found,) = explore(cards).findings
    assert found.severity is Severity.ERROR and not found.projected
    # the game, played again with the engine alone: Black's attacks take three of White's pieces
    state = start(found.probe, tuple(cards), found.hands)  # type: ignore[arg-type]
    lost = 0
    for action in found.path:
        step = apply(state, action)
        assert isinstance(step, Applied), action
        if (
            isinstance(action, Attack)
            and state.to_move is Color.BLACK
            and step.state.board[action.to] != state.board[action.to]
        ):
            lost += 1
        state = step.state
    assert lost >= 3
    ((kind, log),) = _written(tmp_path, GHOSTS)
    assert kind == "cap"
    assert_replays_to(kind, log)
    codes = {d.code for d in replayed(log)}
    assert "SG-R137" in codes  # copies of one card past the cap, seen by replay's own watch


def test_attacks_in_one_turn_are_lined_up_for_copies_that_last_a_while(tmp_path: Path) -> None:
    """core §4.5, R20, R23: each attack on the holder's pieces starts a +1 damage for the holder's next
    turn; the witness game has the opponent attack three times or more in one turn, so the holder's
    reply carries +3 or more per hit, which replay clamps (SG-N304) and names (SG-R137)."""
    ((kind, log),) = _written(tmp_path, LEDGER)
    assert kind == "cap"
    assert_replays_to(kind, log)
    assert "SG-R137" in {d.code for d in replayed(log)}


def test_a_witness_never_errs_where_the_events_cannot_come(tmp_path: Path) -> None:
    """core §8, R23: with a `limit 2 per game`, two captures give +20, inside the cap: the whole game
    decides it clean, and no witness game is needed or reported."""
    limited = GHOSTS.replace("permanently", "permanently limit 2 per game")
    assert [f for f in explore(cards_of(limited)).findings if f.kind == "cap"] == []


def test_the_choice_is_always_an_action_the_core_takes() -> None:
    """R22, core §2: every action the witness search chooses, in every position of its own game, is
    one the engine applies; the way forward is too. A game directed at captures of White's pieces
    has Black capture, never White attack (the prey's side never takes what attacks it)."""
    cards = tuple(cards_of(GHOSTS))
    state = start(PROBES[0], cards, (("Vengeful Ghosts",), ()))  # type: ignore[arg-type]
    first = next(item for item in cards[0].effects)  # type: ignore[attr-defined]
    effect = A.Effect(first.action, first.span, None, None, first.duration, None)
    goal = witness.Goal(
        frozenset({("Vengeful Ghosts", Color.WHITE, effect)}), frozenset({A.Event.CAPTURED}), Color.WHITE
    )
    assert goal.aggressor is Color.BLACK
    for action in (EnterPhase(Phase.MAIN1), Play("Vengeful Ghosts")):  # the holder plays the relic
        step = apply(state, action)
        assert isinstance(step, Applied)
        state = step.state
    white_attacks = black_hits = 0
    for _ in range(200):
        action = witness.choose(state, goal) or witness.forward(state)
        step = apply(state, action)
        assert isinstance(step, Applied), action
        if isinstance(action, Attack):
            if state.to_move is Color.WHITE:
                white_attacks += 1
            else:
                black_hits += action.roll == witness.HIT
        state = step.state
        if state.result is not None:
            break
    assert white_attacks == 0 and black_hits > 0
    assert goal.progress(state) >= 1  # captures of White's pieces started copies


GRIT = 'relic "Grit" passive {\n    cost 5 SP\n    effect on miss: damage +1 this turn\n}\n'


def test_a_rule_error_no_game_of_the_explorer_shows_is_proven_by_a_witness_game(tmp_path: Path) -> None:
    """core §4.5, core §8, R23: each miss adds +1 damage for the turn (SG-C011 reads it from the
    words). The explorer's games do not miss three times in a turn; the witness game does, then hits,
    so the rule's finding is an error whose proof replay clamps at the cap (SG-N304)."""
    (error,) = [d for d in _check_text(GRIT, tmp_path) if d.code == "SG-C011"]
    assert error.severity is Severity.ERROR
    assert "SG-N304" in dict(error.context)["proof"]


def test_a_rule_error_no_witness_shows_stays_a_warning_with_the_witness_bounds(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """core §8: with the witness search allowed no ply, no game shows the break: the finding is the
    warning that no game was found, and it says how far the witness game was allowed to go."""
    monkeypatch.setattr(witness, "PLIES", 0)
    (warning,) = [d for d in _check_text(GRIT, tmp_path) if d.code == "SG-C011"]
    assert warning.severity is Severity.WARNING and "no game found" in warning.message
    assert "a witness game directed at the events (miss) for up to 0 turns" in dict(warning.context)["no game found"]


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    event=st.sampled_from(sorted(witness.SUFFERED | witness.MADE)),
    owner=st.sampled_from(list(Color)),
    probe=st.sampled_from(PROBES),
)
def test_every_choice_is_taken_by_the_engine_and_moves_toward_the_goal(
    event: A.Event, owner: Color, probe: object
) -> None:
    """R22, core §2: whatever the goal and the probe, each action the witness search chooses is one the
    engine applies, it scores above the position it is chosen in (the search never goes back), and
    it leaves its taker a Repair's price (core §6)."""
    state = start(probe, (), ((), ()))  # type: ignore[arg-type]
    goal = witness.Goal(frozenset(), frozenset({event}), owner)
    for _ in range(30):
        chosen = witness.choose(state, goal)
        action = chosen if chosen is not None else witness.forward(state)
        step = apply(state, action)
        assert isinstance(step, Applied), action
        if chosen is not None:
            assert witness.score(step.state, goal) > witness.score(state, goal)
            taker = step.state.players[state.to_move]
            assert taker.lp + taker.sp >= witness.RESERVE
        state = step.state
        if state.result is not None:
            break


def _attacks_afresh(board: tuple[Piece | None, ...], aggressor: Color) -> int:
    """The oracle: every attack of the aggressor's pieces on pieces other than the King (R08), the
    core's geometry asked square by square."""
    return sum(
        1
        for sq, cell in enumerate(board)
        if cell is not None and cell.color is aggressor
        for to, _ in attack_targets(board, Square(sq), cell)
        if (target := board[to]) is not None and target.kind is not Kind.KING
    )


@settings(max_examples=300, deadline=None)
@given(
    cells=st.dictionaries(st.integers(0, 63), st.tuples(st.sampled_from(Color), st.sampled_from(Kind)), max_size=32),
    to_at=st.integers(0, 63),
    frm_at=st.integers(0, 63),
    move=st.booleans(),
    summoned=st.tuples(st.sampled_from(Color), st.sampled_from(Kind)),
)
def test_the_reach_after_a_move_or_a_summon_is_the_reach_counted_afresh(
    cells: dict[int, tuple[Color, Kind]], to_at: int, frm_at: int, move: bool, summoned: tuple[Color, Kind]
) -> None:
    """R08: a move or a summon changes one or two squares; the witness search counts the attacks on
    the board it leaves from the pieces whose lines, jumps or steps those squares lie on, and that
    count is the count made afresh over the whole board, for either side."""
    board = tuple(piece(*cells[sq]) if sq in cells else None for sq in range(64))
    empty = [sq for sq in range(64) if board[sq] is None]
    if not empty:
        return
    to = Square(empty[to_at % len(empty)])
    after = list(board)
    changed: tuple[Square, ...] = (to,)
    if cells and move:
        frm = Square(sorted(cells)[frm_at % len(cells)])
        after[to], after[frm] = after[frm], None
        changed = (frm, to)
    else:
        after[to] = piece(*summoned)
    for aggressor in Color:
        assert witness._reach_after(board, tuple(after), changed, aggressor) == _attacks_afresh(tuple(after), aggressor)


def _choose_by_playing_all(state: GameState, goal: witness.Goal) -> Action | None:
    """The oracle: every candidate played with the engine and scored, the first best taken, as the
    witness search is specified (no candidate judged before it is played; a price paid from LP
    first when the goal's condition wants the mover's LP lower, R05)."""
    base = witness.score(state, goal)
    in_lp = (state.to_move, Resource.LP) in reachable.lowers(goal.condition, goal.owner)
    best: tuple[tuple[int, ...], Action] | None = None
    for action in witness.options(state, goal):
        step = apply(state, action)
        if not isinstance(step, Applied):
            continue
        if in_lp:
            action, step = witness._paid_in_lp(state, action, step)
        taker = step.state.players[state.to_move]
        if taker.lp + taker.sp < witness.RESERVE:
            continue
        value = witness.score(step.state, goal)
        if value > base and (best is None or value > best[0]):
            best = (value, action)
    return None if best is None else best[1]


def _relic(name: str, effect: str) -> str:
    return f'relic "{name}" passive {{\n    cost 3 SP\n    effect {effect}\n}}\n'


#: Cards whose triggers wait for each kind of event a witness game is directed at, and one on moves
#: and summons (so that those are not quiet).
WAITING = {
    A.Event.CAPTURED: GHOSTS,
    A.Event.ATTACKED: LEDGER,
    A.Event.MISS: GRIT,
    A.Event.HIT: _relic("Keen", "on hit: to_hit +2 permanently"),
    A.Event.CAPTURE: _relic("Trophy", "on capture: damage +1 permanently"),
    A.Event.MOVE: 'relic "Road" passive {\n    cost 2 SP\n    effect on move: gain 1 LP\n}\n',
    A.Event.SUMMON: 'relic "Muster" passive {\n    cost 2 SP\n    effect on summon: to_hit +1 permanently\n}\n',
    A.Event.GAIN_SP: 'relic "Echo" passive {\n    cost 2 SP\n    effect on gain SP: gain 1 SP\n}\n',
}

#: Cards whose effects fire under a condition, one for each way a condition steers a witness game
#: (:attr:`witness.Goal.condition`): a resource to pay down or raise (the gap a price moves, so no
#: Move nor Summon is judged before it is played), a Gem, the attack's pieces, distance and camps
#: (the reach counted as the condition holds), and a condition on events that are not attacks.
CONDITIONED = (
    _relic("Low Ghosts", "on captured: to_hit +10 permanently when own LP < 5"),
    _relic("Rich Keen", "on hit: to_hit +2 permanently when own SP >= 30"),
    _relic("Broken Trophy", "on capture: damage +1 permanently when enemy gem is broken"),
    _relic("Gem Ledger", "on attacked: damage +1 next turn when own gem is broken"),
    _relic("Far Keen", "on hit: to_hit +2 permanently when distance >= 3"),
    _relic("Knight Trophy", "on capture: damage +1 permanently when target is Knight"),
    _relic("Camp Grit", "on miss: damage +1 this turn when attacker in enemy camp"),
    _relic("Poor Echo", "on gain SP: gain 1 SP when enemy LP < 20"),
    _relic("Broken Echo", "on gain SP: gain 1 SP when own gem is broken"),
    _relic("Long Road", "on move: to_hit +1 permanently when distance >= 2"),
)


def _assert_choices_as_playing_all(text: str, owner: Color, probe: object, beside: str = "") -> None:
    """At every step of a witness game for ``text``'s card held by ``owner`` from ``probe`` (with
    ``beside``'s cards in the same hand, played as they can be), the choice equals
    :func:`_choose_by_playing_all`'s."""
    card, *others = cards_of(text + beside)
    names = tuple(c.name for c in (card, *others))  # type: ignore[attr-defined]
    hands = (names, ()) if owner is Color.WHITE else ((), names)
    state = start(probe, (card, *others), hands)  # type: ignore[arg-type]
    (goal,) = card_goals(card, owner)  # type: ignore[arg-type]
    for _ in range(60):
        chosen = witness.choose(state, goal)
        assert chosen == _choose_by_playing_all(state, goal)
        held = state.cards.hand(owner) if state.cards else ()
        for name in names if chosen is None and state.to_move is owner else ():
            if name in held and isinstance(apply(state, Play(name)), Applied):
                chosen = Play(name)
                break
        step = apply(state, chosen if chosen is not None else witness.forward(state))
        assert isinstance(step, Applied)
        state = step.state
        if state.result is not None:
            break


@settings(max_examples=16, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(event=st.sampled_from(sorted(WAITING)), owner=st.sampled_from(list(Color)), probe=st.sampled_from(PROBES))
def test_the_choice_is_the_one_playing_every_candidate_makes(event: A.Event, owner: Color, probe: object) -> None:
    """core §3, core §5, R23: a Move or a Summon that no card waits for is judged from the board it
    leaves before it is played, and one that cannot score above the best so far is not played; the
    choice is exactly the one made by playing every candidate with the engine, at every step of a
    witness game, whatever the event, the holder and the probe (cards waiting for moves and
    summons included, whose moves and summons are played)."""
    _assert_choices_as_playing_all(WAITING[event], owner, probe)


@settings(max_examples=16, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=st.sampled_from(CONDITIONED), owner=st.sampled_from(list(Color)), probe=st.sampled_from(PROBES))
def test_the_choice_under_a_condition_is_the_one_playing_every_candidate_makes(
    text: str, owner: Color, probe: object
) -> None:
    """core §4.5, core §8, R05: under an effect's condition the score weighs the gap to its level and
    the attacks it holds on; a price moves LP and SP, so a Move or a Summon is judged before it is
    played only when the condition reads neither and names no attack, and the choice is still
    exactly the one made by playing every candidate, whatever the condition, holder and probe."""
    _assert_choices_as_playing_all(text, owner, probe)


#: Cards beside the goal's card that read what a Move or a Summon does without waiting for it: a
#: discount on its price, a trigger on the SP or LP a price takes, a trigger at each phase.
BESIDE = (
    _relic("Thrift", "cost move -1"),
    _relic("Tithe", "on lose SP: gain 1 LP"),
    _relic("Toll", "on lose LP: gain 1 SP"),
    _relic("Dawn", "at upkeep: gain 2 SP"),
)


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    text=st.sampled_from((GHOSTS, GRIT, *CONDITIONED[:4])),
    beside=st.sampled_from(BESIDE),
    owner=st.sampled_from(list(Color)),
    probe=st.sampled_from(PROBES),
)
def test_the_choice_beside_other_cards_is_the_one_playing_every_candidate_makes(
    text: str, beside: str, owner: Color, probe: object
) -> None:
    """core §3, core §8, R05, R23: with other cards in play that change what a Move costs or hear
    the SP and LP a price takes, the choice is still exactly the one made by playing every
    candidate."""
    _assert_choices_as_playing_all(text, owner, probe, beside)


def test_a_quiet_move_is_judged_unplayed_only_when_its_price_cannot_move_the_gap() -> None:
    """core §8, R05: what a Move or a Summon costs moves its taker's LP or SP, so a goal whose
    condition reads them scores such an action only after playing it; a Gem, or no condition, the
    action leaves as it is, and a condition naming the attack counts what the board alone does not."""
    goals = {
        text.split('"')[1]: card_goals(cards_of(text)[0], Color.WHITE)[0]  # type: ignore[arg-type]
        for text in CONDITIONED
    }
    assert not witness._bounded(goals["Low Ghosts"])
    assert not witness._bounded(goals["Rich Keen"])
    assert not witness._bounded(goals["Poor Echo"])
    assert not witness._bounded(goals["Far Keen"])
    assert not witness._bounded(goals["Knight Trophy"])
    assert witness._bounded(goals["Broken Trophy"])
    assert witness._bounded(goals["Broken Echo"])
    assert witness._bounded(card_goals(cards_of(GHOSTS)[0], Color.WHITE)[0])  # type: ignore[arg-type]


def _games_played(card_text: str, paced: bool) -> tuple[tuple[Action, ...], bool]:
    """The actions of the witness game of :func:`card_goals`'s first goal for the card, from the open
    field, played at the goal's pace or one event a turn, and whether it chose an action after
    the first event of some turn."""
    (card,) = cards_of(card_text)
    name = card.name  # type: ignore[attr-defined]
    search = _Search(PROBES[0], (card,), ((name,), ()), CORE, BOUNDS, {}, set())  # type: ignore[arg-type]
    node = search.opening(name)
    assert node is not None
    played: list[Action] = []
    step = search._step

    def recorded(at: object, action: Action) -> object:
        played.append(action)
        return step(at, action)  # type: ignore[arg-type]

    search._step = recorded  # type: ignore[method-assign]
    goal = card_goals(card, Color.WHITE)[0]  # type: ignore[arg-type]
    search._directed(node, goal.paced() if paced else goal, lambda: False)
    return tuple(played), search.paced_apart


@INTERPRETED
@pytest.mark.parametrize("event", [A.Event.GAIN_SP, A.Event.CAPTURED, A.Event.MOVE])
def test_a_paced_game_is_played_only_when_it_is_another_game(event: A.Event) -> None:
    """core §8: the game one event a turn ends each turn at its first event and takes the way forward
    from there. When the game at full pace never chose an action after a turn's first event, the
    paced game is that game, move for move, and is not played again; when it did (a move that
    pays, repeated in one turn), the paced game is another game, and is played."""
    full, apart = _games_played(WAITING[event], paced=False)
    paced, _ = _games_played(WAITING[event], paced=True)
    assert apart == (full != paced)
    if event is A.Event.MOVE:
        assert apart  # moves chosen after the first of a turn: the paced game is played
    else:
        assert not apart  # the events come at the start of a phase or in the opponent's turn


@INTERPRETED
def test_a_card_written_in_several_files_plays_its_witness_games_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """core §8: a witness game depends on what the card does and its name, not on where it is written,
    so a card checked in several files (a pack and its variants, mutants of one file) has its games
    played once, found or not, and gets the same answer; a card of another name is played afresh."""
    import sgcheck.contract.analysis.explore as explore_module

    played: list[str] = []
    game = explore_module._witness_game

    def counted(card: A.Card, *args: object) -> object:
        played.append(card.name)
        return game(card, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(explore_module, "_witness_game", counted)
    echo = WAITING[A.Event.GAIN_SP]
    first = parse_cards(echo, "first.sgcard").cards[0]
    moved = parse_cards("\n\n" + echo, "elsewhere/second.sgcard").cards[0]
    renamed = parse_cards(echo.replace('"Echo"', '"Echo Again"'), "third.sgcard").cards[0]
    assert first != moved  # written elsewhere: other spans
    kinds = frozenset({"growth"})
    answer = explore_module.witness_for(first, kinds)
    games = len(played)
    assert games >= 1
    assert explore_module.witness_for(moved, kinds) == answer
    assert len(played) == games  # no game played again
    explore_module.witness_for(renamed, kinds)
    assert len(played) > games and played[-1] == "Echo Again"
