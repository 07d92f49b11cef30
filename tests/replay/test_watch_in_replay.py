"""Replay watches core §8 as it plays (sgcheck.core.watch): a second line of defence behind
`sgcheck check`.

A game played with each pack here breaks the contract at one action: replay reports that
action with SG-R130-SG-R139 at its line and column, as an error (exit 1, replay stops) or,
with --allow-violations, as a warning (exit 0). The findings are the same whether a turn is
played from the reader's steps or from its syntax tree.

`sgcheck check` searches a pack by playing it too (SG-C150-SG-C157), so it may catch some of
these packs itself, and replay then stops before the game (SG-P015). The watch is for the packs
it misses: the ``slipped`` fixture plays each pack as one the checker found nothing in. Without
it, a breach is never silent either way (:func:`test_core_s8_a_breach_is_never_silent`).
"""

from __future__ import annotations

import dataclasses
from collections import OrderedDict
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from sgcheck.cli import main
from sgcheck.diagnostics import Diagnostic, Severity
from sgcheck.lang.source import read_source
from sgcheck.play import pack as game_pack
from sgcheck.replay.interpreter import ReplayOptions, ReplayResult, replay_source
from tests.readers import source_by_grammar

SCENARIO = """name: watch
white:
  sp: {white_sp}
  pieces: [Ke1, Ra3]
black:
  sp: {black_sp}
  pieces: [Ke8, Pa5]
"""


HEADER = '[Event "watch"]\n[Pack "pack"]\n[Scenario "setup.scenario.yaml"]\n\n'
HEADER_LINES = HEADER.count("\n")


@dataclass(frozen=True)
class Case:
    """A pack, a game played with it, and where the watch must find the breach."""

    code: str
    cards: str
    log: str
    line: int
    column: int
    message: str
    white_sp: int = 20
    black_sp: int = 0

    @property
    def at(self) -> tuple[str, int, int]:
        """The code, line and column expected in the log file (the body's line after the header)."""
        return self.code, self.line + HEADER_LINES, self.column


CASES = [
    Case(
        "SG-R130",
        'spell "Alchemy" { cost 1 LP phase main2 effect lose 2 SP effect gain 2 LP }',
        """draft white "Alchemy"

1.   main2: play "Alchemy"
""",
        3,
        13,
        "White turned 2 SP into 2 LP here",
    ),
    Case(
        "SG-R131",
        """relic "Boots" passive { cost 1 SP phase main effect cost move -1 }
relic "Wings" passive { cost 1 SP phase main effect cost move -1 }""",
        """draft white "Boots" "Wings"

1.   main1: play "Boots"
            play "Wings"
     main2: move Ke1 e2
""",
        5,
        13,
        "the cards make this action cost -1",
    ),
    Case(
        "SG-R132",
        """spell "Lucky" { cost 1 SP phase battle effect reroll accuracy this attack }
spell "Charm" { cost 1 SP phase battle effect reroll accuracy this attack }""",
        """draft white "Lucky" "Charm"

1.   battle: play "Lucky"
             play "Charm"
             attack Ra3 Pa5 roll 9 9 reroll 0 1 hit
""",
        5,
        14,
        "2 reroll or advantage sources act on this accuracy roll (Lucky, Charm)",
    ),
    Case(
        "SG-R133",
        'relic "Toll" passive { cost 1 SP phase main effect opponent cost repair +20 }',
        """draft white "Toll"

1.   upkeep: break roll 6 6 6 success
     main1: play "Toll"
1... end: pass
2.   end: pass
2... end: pass
""",
        7,
        1,
        "Black cannot attempt a Repair in this Upkeep nor in the last one",
        white_sp=30,
    ),
    Case(
        "SG-R134",
        """relic "Siege Rite" passive { cost 1 SP phase main effect cost break -20 }
relic "Siege Engine" passive { cost 1 SP phase main effect extra break }""",
        """draft white "Siege Rite" "Siege Engine"

1.   main1: play "Siege Rite"
            play "Siege Engine"
1... end: pass
2.   upkeep: break roll 1 1 1 fail
             break roll 1 1 2 fail
""",
        7,
        14,
        "a second Break attempt in one Upkeep",
    ),
    Case(
        "SG-R136",
        """relic "Step" passive { cost 1 SP phase main effect on move: gain 1 SP }
relic "Skip" passive { cost 1 SP phase main effect on move: gain 1 SP }""",
        """draft white "Step" "Skip"

1.   main1: play "Step"
            play "Skip"
            move Ke1 e2
            move Ke2 e1
""",
        6,
        13,
        "White is back at the same position this turn with 0 LP and 2 SP more",
    ),
]

# every turn, every side, every route (core §8): the opponent's cards judged in this player's
# turn, one card's exchange split past the next Upkeep, a Repair drained out of reach, copies of
# one card past a cap (R20)
CASES += [
    Case(
        "SG-R130",
        'relic "Bargain" passive { cost 1 SP phase main effect on attacked: lose 2 SP effect on attacked: gain 2 LP }',
        """draft black "Bargain"

1.   end: pass
1... main1: play "Bargain"
2.   battle: attack Ra3 Pa5 roll 0 0 miss
""",
        5,
        14,
        "Black turned 2 SP into 2 LP here",
        black_sp=10,
    ),
    Case(
        "SG-R130",
        'relic "Slow Alchemy" passive { cost 1 SP phase main effect at end: lose 4 SP effect at main1: gain 3 LP }',
        """draft white "Slow Alchemy"

1.   main1: play "Slow Alchemy"
1... end: pass
2.   main1: move Ke1 e2
""",
        5,
        6,
        "White turned 4 SP into 3 LP here",
    ),
    Case(
        "SG-R137",
        'relic "Fury" passive { cost 1 SP phase main effect on miss: to_hit +15 this turn }',
        """draft white "Fury"

1.   main1: play "Fury"
     battle: attack Ra3 Pa5 roll 0 0 miss
             attack Ra3 Pa5 roll 0 0 miss
             attack Ra3 Pa5 roll 0 0 miss
""",
        6,
        14,
        "2 copies of 'Fury' add +15 + +15 = +30 to-hit",
        white_sp=60,
    ),
    Case(
        "SG-R138",
        'relic "Iron Crown" passive { cost 1 SP phase main effect reduce damage by 3 on own King }',
        """draft black "Iron Crown"

1.   main1: move Ra3 e3
1... main1: play "Iron Crown"
2.   battle: attack Re3 Ke8 roll 0 1
""",
        5,
        14,
        "no hit on Black's King can deal damage: a hit boosted to the +2 cap (3) still deals 0 (Iron Crown -3)",
        white_sp=40,
        black_sp=10,
    ),
    Case(
        "SG-R139",
        'relic "Gates Shut" passive { cost 1 SP phase main effect opponent cost move +999999 }',
        """draft white "Gates Shut"

1.   main1: play "Gates Shut"
1... end: pass
""",
        4,
        1,
        "the opponent's cards add 999999 to every move Black could take this turn",
    ),
]

IDS = [f"{case.code}-{i}" for i, case in enumerate(CASES)]
GROWTH = next(case for case in CASES if case.code == "SG-R136")


def write_game(folder: Path, case: Case) -> Path:
    """The pack (``pack/``), the scenario that sets the board and SP, and the log, in ``folder``."""
    pack = folder / "pack"
    pack.mkdir(parents=True, exist_ok=True)
    (pack / "sgpack.yaml").write_text("name: watch\nversion: 1.0.0\ncards:\n  - cards.sgcard\n", encoding="utf-8")
    (pack / "cards.sgcard").write_text(case.cards + "\n", encoding="utf-8")
    (folder / "setup.scenario.yaml").write_text(
        SCENARIO.format(white_sp=case.white_sp, black_sp=case.black_sp), encoding="utf-8"
    )
    log = folder / "game.sglog"
    log.write_text(HEADER + case.log, encoding="utf-8")
    return log


@pytest.fixture
def slipped(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Each pack loads as one that slipped past `sgcheck check`: its findings are dropped, as if
    the checker had found nothing, so the watch is the only defence left."""
    real = game_pack._load

    def load(given: str, shown: str) -> tuple[game_pack._Stamp, game_pack.GamePack]:
        stamp, loaded = real(given, shown)
        return stamp, dataclasses.replace(loaded, findings=(), sources={})

    monkeypatch.setattr(game_pack, "_load", load)
    monkeypatch.setattr(game_pack, "_LOADED", OrderedDict())
    yield
    game_pack._LOADED.clear()


def replay(log: Path, options: ReplayOptions | None = None, *, grammar: bool = False) -> ReplayResult:
    """The replay of ``log``; with ``grammar``, of the log read by the grammar alone."""
    source = read_source(str(log), str(log))
    assert not isinstance(source, Diagnostic), source
    if grammar:
        return source_by_grammar(source, options, folder=str(log.parent))
    return replay_source(source, options or ReplayOptions(), folder=str(log.parent))


def invoke(*args: str) -> Result:
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def located(diag: Diagnostic) -> tuple[str, int, int]:
    assert diag.span is not None
    return diag.code, diag.span.line, diag.span.column


# --- each breach, at its action ----------------------------------------------------------------------------


@pytest.mark.usefixtures("slipped")
@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_core_s8_each_breach_is_an_error_at_its_action(tmp_path: Path, case: Case) -> None:
    """core §8: the action that breaks the contract is reported where the log writes it, with the
    turn, player and phase every finding has, and replay stops there."""
    result = replay(write_game(tmp_path, case))
    errors = [d for d in result.diagnostics if d.is_error]
    assert [located(d) for d in errors] == [case.at], result.diagnostics
    found = errors[0]
    assert case.message in found.message
    assert "core §8" in found.rules
    keys = [key for key, _ in found.context]
    assert keys[:2] == ["turn", "player"] and "state before" in keys
    # on an action the core applied, the totals after it too (a phase label changes none)
    assert ("state after" in keys) == (keys[-1] == "state after")
    assert found.hint is not None and "--allow-violations" in found.hint
    assert result.stopped


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_core_s8_a_breach_is_never_silent(tmp_path: Path, case: Case) -> None:
    """Whatever `sgcheck check` finds in the pack: either it refuses the pack (SG-P015, replay
    stops before the game) or the watch reports the breach at its action; with
    --allow-violations the game is played and the watch's finding is always there."""
    log = write_game(tmp_path, case)
    codes = [d.code for d in replay(log).diagnostics if d.is_error]
    assert codes[-1:] in (["SG-P015"], [case.code]), codes
    played = replay(log, ReplayOptions(allow_violations=True))
    assert [located(d) for d in played.diagnostics if d.code == case.code] == [case.at]


@pytest.mark.usefixtures("slipped")
@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_core_s8_the_same_findings_read_by_the_line_reader_or_the_grammar(tmp_path: Path, case: Case) -> None:
    """A breach is placed from what the line reader read: where the grammar's tree places it."""
    log = write_game(tmp_path, case)
    for keep_going in (False, True):
        plain = replay(log, ReplayOptions(keep_going=keep_going))
        tree = replay(log, ReplayOptions(keep_going=keep_going), grammar=True)
        assert plain.diagnostics == tree.diagnostics
        assert plain.state == tree.state
        assert (plain.statements, plain.turns, plain.stopped) == (tree.statements, tree.turns, tree.stopped)


@pytest.mark.usefixtures("slipped")
@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_core_s8_a_breach_exits_1_from_the_command_line(tmp_path: Path, case: Case) -> None:
    log = write_game(tmp_path, case)
    result = invoke("replay", "--no-summary", str(log))
    assert result.exit_code == 1, result.output
    code, line, column = case.at
    assert f"game.sglog:{line}:{column}: {code} " in result.output


@pytest.mark.usefixtures("slipped")
@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_allow_violations_reports_each_breach_as_a_warning_and_exits_0(tmp_path: Path, case: Case) -> None:
    """--allow-violations (playtesting a pack that breaks the contract): the breach is a warning,
    says so, and the game is replayed to its end."""
    log = write_game(tmp_path, case)
    result = replay(log, ReplayOptions(allow_violations=True))
    found = [d for d in result.diagnostics if d.code == case.code]
    assert [located(d) for d in found] == [case.at]
    assert found[0].severity is Severity.WARNING and "--allow-violations" in found[0].message
    assert result.ok and not result.stopped
    cli = invoke("replay", "--no-summary", "--allow-violations", str(log))
    assert cli.exit_code == 0, cli.output
    assert f"{case.code} warning:" in cli.output


@pytest.mark.usefixtures("slipped")
def test_select_and_ignore_treat_the_watch_codes_as_replay_errors(tmp_path: Path) -> None:
    """The codes go through replay's selection like its other errors (docs/ci.md): naming one to
    ignore, in any spelling, is refused; a family or a --select that leaves one out keeps it on."""
    log = write_game(tmp_path, CASES[2])
    for spelling in ("SG-R132", "R132", "r132", "reroll-sources-in-replay"):
        refused = invoke("replay", "--no-summary", "--ignore", spelling, str(log))
        assert refused.exit_code == 2 and "SG-R132, an error: replay always reports" in refused.output
    for options in (("--ignore", "SG-R13"), ("--select", "SG-R131"), ("--select", "N")):
        kept = invoke("replay", "--no-summary", *options, str(log))
        assert kept.exit_code == 1 and "SG-R132 " in kept.output, options
    selected = invoke("replay", "--no-summary", "--select", "SG-R132", str(log))
    assert selected.exit_code == 1 and "SG-R132 " in selected.output


def test_two_reroll_spells_on_one_roll_no_longer_pass_silently(tmp_path: Path) -> None:
    """The issue: two reroll Spells on one roll "pass silently". `sgcheck check` warned at most
    (SG-C120) and replay counted one second roll without a word. Now the attack is SG-R132,
    naming both Spells, whether or not the checker stops the pack first."""
    case = CASES[2]
    log = write_game(tmp_path, case)
    result = replay(log)
    codes = [d.code for d in result.diagnostics if d.is_error]
    assert codes in (["SG-R132"], [*codes[:-1], "SG-P015"]), codes
    played = replay(log, ReplayOptions(allow_violations=True))
    found = [d for d in played.diagnostics if d.code == "SG-R132"]
    assert len(found) == 1 and "(Lucky, Charm); the cap is one" in found[0].message


@pytest.mark.usefixtures("slipped")
def test_two_reroll_spells_in_a_pack_the_checker_passes_stop_the_replay_at_the_attack(tmp_path: Path) -> None:
    result = replay(write_game(tmp_path, CASES[2]))
    assert [located(d) for d in result.diagnostics] == [CASES[2].at]
    assert result.stopped and not result.ok


@pytest.mark.usefixtures("slipped")
def test_one_reroll_spell_on_a_roll_is_no_finding(tmp_path: Path) -> None:
    case = Case(
        "",
        'spell "Lucky" { cost 1 SP phase battle effect reroll accuracy this attack }',
        """draft white "Lucky"

1.   battle: play "Lucky"
             attack Ra3 Pa5 roll 9 9 reroll 0 1 hit
""",
        0,
        0,
        "",
    )
    result = replay(write_game(tmp_path, case))
    assert result.diagnostics == () and result.ok


# --- the hand-over: the End of one turn and the next Upkeep ------------------------------------------------------

HANDOVER = Case(
    "SG-R130",
    """relic "Tithe" passive { cost 1 SP phase main effect at end: lose 4 SP }
relic "Almsgiver" passive { cost 1 SP phase main effect at upkeep: gain 3 LP }""",
    """draft white "Tithe" "Almsgiver"

1.   main1: play "Tithe"
            play "Almsgiver"
1... end: pass
2.   main1: move Ke1 e2
""",
    6,
    1,
    "White turned 4 SP into 3 LP here",
)


@pytest.mark.usefixtures("slipped")
def test_core_s8_what_the_hand_over_breaks_is_reported_at_the_next_turns_header(tmp_path: Path) -> None:
    """Tithe takes 4 SP at White's End, Almsgiver gives 3 LP at her next Upkeep: the exchange is
    found as that Upkeep begins, and reported at the header of the turn it begins (``2.``), with
    that turn's context."""
    result = replay(write_game(tmp_path, HANDOVER))
    assert [located(d) for d in result.diagnostics] == [HANDOVER.at]
    found = result.diagnostics[0]
    assert "White turned 4 SP into 3 LP here" in found.message
    assert found.context[:3] == (("turn", "2"), ("player", "White"), ("phase", "Upkeep"))


@pytest.mark.usefixtures("slipped")
def test_core_s8_a_hand_over_at_the_end_of_the_log_is_reported_where_the_last_turn_ends(tmp_path: Path) -> None:
    """Without a next turn in the log, the finding is placed at the end of the last one: its pass."""
    case = Case(HANDOVER.code, HANDOVER.cards, HANDOVER.log.rsplit("2.", 1)[0], 0, 0, "")
    for grammar in (False, True):
        result = replay(write_game(tmp_path, case), grammar=grammar)
        assert [located(d) for d in result.diagnostics] == [("SG-R130", 5 + HEADER_LINES, 11)]


@pytest.mark.usefixtures("slipped")
def test_core_s8_hand_over_findings_are_the_same_read_by_the_line_reader_or_the_grammar(tmp_path: Path) -> None:
    log = write_game(tmp_path, HANDOVER)
    for allow in (False, True):
        plain = replay(log, ReplayOptions(allow_violations=allow))
        tree = replay(log, ReplayOptions(allow_violations=allow), grammar=True)
        assert plain.diagnostics == tree.diagnostics and plain.state == tree.state


@pytest.mark.usefixtures("slipped")
def test_keep_going_reports_each_breach_and_plays_on(tmp_path: Path) -> None:
    """With --keep-going a breach is reported and the action stays played (it was legal)."""
    case = Case(
        "SG-R136",
        GROWTH.cards,
        GROWTH.log + "            move Ke1 e2\n            move Ke2 e1\n",
        0,
        0,
        "",
    )
    result = replay(write_game(tmp_path, case), ReplayOptions(keep_going=True))
    lines = [6, 7, 8]  # each move after the first comes back to a position with less SP
    assert [located(d) for d in result.diagnostics] == [("SG-R136", n + HEADER_LINES, 13) for n in lines]
    assert result.state is not None and result.state.players[0].sp == 20 - 2 + 4
