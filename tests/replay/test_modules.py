"""Modules from related games (R26, docs/modules.md): the market's reveals in the log language and
in replay, the module section of a manifest, and what the contract checker says about shields."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING

import jsonschema
import pytest
from click.testing import CliRunner

from sgcheck.cli import main
from sgcheck.codes import CATALOGUE
from sgcheck.contract.checker import check_paths
from sgcheck.core.actions import Reveal
from sgcheck.core.pieces import Color
from sgcheck.lang.logs.ast import RevealStmt, Turn
from sgcheck.lang.logs.grammar import LogSyntaxError, grammar_items
from sgcheck.lang.logs.reader import PlainTurn, parse_log, read_log
from sgcheck.lang.logs.writer import format_log
from sgcheck.lang.source import SourceText
from sgcheck.replay.interpreter import ReplayOptions, ReplayResult, replay_source

if TYPE_CHECKING:
    from conftest import Golden

ROOT = Path(__file__).resolve().parents[2]
MODULES = ROOT / "examples" / "modules"
GOLDEN = Path(__file__).with_name("golden")

CARDS = """\
relic "Sharp Eyes" { cost 3 SP effect to_hit +10 }
relic "Clumsy" { cost 3 SP effect to_hit -10 }
relic "Haste" { cost 3 SP effect cost move -1 }
spell "Bolt" { cost 2 SP phase battle effect deal 1 damage to enemy Pawn }
"""
SCENARIO = """\
scenario:
  name: skirmish
  white: {sp: 40, pieces: [Ke1, Rd2, Pc3]}
  black: {sp: 40, pieces: [Ke8, Pd4, Pd6, Pb4]}
"""
CAPTURE = "1.   battle: attack Rd2 Pd4 roll 4 1 hit capture\n"


def pack(tmp_path: Path, market: str, cards: str = CARDS) -> None:
    (tmp_path / "pack").mkdir(exist_ok=True)
    (tmp_path / "pack" / "c.sgcard").write_text(cards, encoding="utf-8")
    manifest = f"name: m\nversion: 1.0.0\ncards: [c.sgcard]\nmodule:\n  name: market\n  market:\n{market}{SCENARIO}"
    (tmp_path / "pack" / "sgpack.yaml").write_text(manifest, encoding="utf-8")


def replay(tmp_path: Path, body: str, *, keep_going: bool = False) -> ReplayResult:
    text = '[Pack "pack"]\n' + body
    (tmp_path / "g.sglog").write_text(text, encoding="utf-8")
    options = ReplayOptions(keep_going=keep_going)
    return replay_source(SourceText(str(tmp_path / "g.sglog"), text), options, folder=str(tmp_path))


def codes_of(result: ReplayResult) -> list[str]:
    return [d.code for d in result.diagnostics]


ORDERED = "    deck: [Sharp Eyes, Clumsy, Haste]\n"
UNORDERED = "    order: unordered\n    deck: [Clumsy, Haste]\n"


# --- the log language ---------------------------------------------------------------------------


def test_reveal_is_read_by_the_line_reader_and_written_back() -> None:
    """R26: a reveal is read like any statement, its node and spans worked out from that reading."""
    text = 'king white e1\nking black e8\n1. battle: REVEAL  "Sharp Eyes"\n  TO Black\n'
    plain = list(read_log(SourceText("r.sglog", text)))[-1]
    assert isinstance(plain, PlainTurn)
    assert [step.action for step in plain.steps] == [Reveal("Sharp Eyes", Color.BLACK)]
    items = parse_log(SourceText("r.sglog", text))
    assert items == list(grammar_items(SourceText("r.sglog", text)))
    turn = items[-1]
    assert isinstance(turn, Turn)
    stmt = turn.phases[0].statements[0]
    assert isinstance(stmt, RevealStmt)
    assert (stmt.card.name, stmt.to.title, stmt.to_span.line, stmt.to_span.column) == ("Sharp Eyes", "Black", 4, 6)
    assert 'reveal "Sharp Eyes" to black' in format_log(items)


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("reveal Haste to white", "in double quotes"),
        ('reveal "Haste" white', "'to'"),
        ('reveal "Haste" to e4', "'white' or 'black'"),
        ('reveal "Haste" to white cost 3', "found 'cost'"),
    ],
)
def test_reveal_syntax_errors_are_worded(text: str, words: str) -> None:
    source = SourceText("r.sglog", f"king white e1\nking black e8\n1. battle: {text}\n")
    with pytest.raises(LogSyntaxError) as caught:
        list(read_log(source))
    assert caught.value.diagnostic.code == "SG-P001"
    assert words in caught.value.diagnostic.message


# --- replay -------------------------------------------------------------------------------------


def test_a_capture_reveals_the_next_card_and_it_acts_for_the_player_it_is_before(tmp_path: Path) -> None:
    pack(tmp_path, ORDERED)
    body = CAPTURE + '  reveal "Sharp Eyes" to white\n2... end: pass\n'
    body = body.replace("2...", "1...")
    second = '2. battle: attack Rd2 Pd6 roll 6 9 threshold 70 hit capture\n  reveal "Clumsy" to black\n'
    result = replay(tmp_path, body + second)  # 69 hits at 70: Sharp Eyes adds +10 for White
    assert result.ok, result.diagnostics
    assert result.state is not None and result.state.cards is not None
    market = result.state.cards.market
    assert market is not None and not market.due
    assert (market.card_before(Color.WHITE), market.card_before(Color.BLACK)) == ("Sharp Eyes", "Clumsy")


def test_a_new_card_discards_the_old_and_its_effects(tmp_path: Path) -> None:
    pack(tmp_path, ORDERED)
    body = (
        CAPTURE + '  reveal "Sharp Eyes" to white\n'
        '1... battle: attack Pb4 Pc3 roll 0 1 hit capture\n  reveal "Clumsy" to white\n'
        '2. battle: attack Rd2 Pd6 roll 0 1 threshold 50 hit capture\n  reveal "Haste" to black\n'
    )
    result = replay(tmp_path, body)
    assert result.ok, result.diagnostics
    assert result.state is not None and result.state.cards is not None
    market = result.state.cards.market
    assert market is not None
    assert market.discarded == ("Sharp Eyes",)
    assert (market.card_before(result.state.to_move.other), market.card_before(result.state.to_move)) == (
        "Clumsy",
        "Haste",
    )
    assert {e.card for e in result.state.cards.lasting} == {"Clumsy", "Haste"}


def test_a_capture_without_its_reveal_is_sg_t108_at_the_capture(tmp_path: Path) -> None:
    pack(tmp_path, ORDERED)
    result = replay(tmp_path, CAPTURE + "  main2: move Rd2 d3\n")
    assert codes_of(result) == ["SG-T108"]
    span = result.diagnostics[0].span
    assert span is not None and (span.line, span.column) == (2, 14)
    result = replay(tmp_path, CAPTURE)  # the turn ends first
    assert codes_of(result) == ["SG-T108"]


def test_a_reveal_no_capture_calls_for_is_sg_t109(tmp_path: Path) -> None:
    pack(tmp_path, ORDERED)
    assert codes_of(replay(tmp_path, '1. battle: reveal "Sharp Eyes" to white\n')) == ["SG-T109"]
    twice = CAPTURE + '  reveal "Sharp Eyes" to white\n  reveal "Clumsy" to black\n'
    assert codes_of(replay(tmp_path, twice)) == ["SG-T109"]
    (tmp_path / "plain.sglog").write_text('king white e1\nking black e8\n1. battle: reveal "X" to white\n')
    text = (tmp_path / "plain.sglog").read_text()
    plain = replay_source(SourceText("plain.sglog", text), ReplayOptions(), folder=str(tmp_path))
    assert codes_of(plain) == ["SG-T109"]  # a game without a market


def test_the_committed_order_is_checked_sg_r128(tmp_path: Path) -> None:
    pack(tmp_path, ORDERED)
    result = replay(tmp_path, CAPTURE + '  reveal "Haste" to white\n', keep_going=True)
    assert codes_of(result) == ["SG-R128"]  # reported once: the capture did have a reveal
    assert "'Sharp Eyes'" in result.diagnostics[0].message


def test_an_unordered_deck_takes_any_card_with_a_copy_left(tmp_path: Path) -> None:
    pack(tmp_path, UNORDERED)
    assert replay(tmp_path, CAPTURE + '  reveal "Haste" to black\n').ok
    assert codes_of(replay(tmp_path, CAPTURE + '  reveal "Sharp Eyes" to black\n')) == ["SG-R128"]
    body = (
        CAPTURE + '  reveal "Haste" to black\n'
        '1... battle: attack Pb4 Pc3 roll 0 1 hit capture\n  reveal "Haste" to black\n'
    )
    assert codes_of(replay(tmp_path, body)) == ["SG-R128"]  # one copy only


def test_an_exhausted_deck_reveals_nothing(tmp_path: Path) -> None:
    pack(tmp_path, "    deck: [Haste]\n")
    body = CAPTURE + '  reveal "Haste" to white\n1... battle: attack Pb4 Pc3 roll 0 1 hit capture\n'
    assert replay(tmp_path, body).ok
    assert codes_of(replay(tmp_path, body + '  reveal "Haste" to black\n')) == ["SG-T109"]


# --- the module section -------------------------------------------------------------------------


def check(tmp_path: Path) -> list[tuple[str, int, int]]:
    run = check_paths([str(tmp_path / "pack")])
    return [(d.code, d.span.line, d.span.column) for f in run.files for d in f.diagnostics if d.span is not None]


def test_the_deck_names_passive_relics_of_the_pack_sg_p038(tmp_path: Path) -> None:
    pack(tmp_path, "    deck: [Haste, Nope, Bolt]\n")
    assert check(tmp_path) == [("SG-P038", 7, 19), ("SG-P038", 7, 25)]
    result = replay(tmp_path, CAPTURE)
    assert "SG-P015" in codes_of(result)  # the pack is refused: never played


@pytest.mark.parametrize(
    ("module", "where"),
    [
        ("  name: x\n  market: {deck: []}\n", (6, 18)),
        ("  name: x\n  market: {deck: [Haste], order: shuffled}\n", (6, 34)),
        ("  name: x\n  shields: {guard: Dragon, reduce: 1}\n", (6, 20)),
        ("  name: x\n  shields: {guard: Rook, reduce: 3}\n", (6, 34)),
        ("  name: x\n  bazaar: {}\n", (6, 3)),
        ("  name: x\n", (5, 3)),
    ],
)
def test_the_module_schema_sg_p038(tmp_path: Path, module: str, where: tuple[int, int]) -> None:
    (tmp_path / "pack").mkdir()
    (tmp_path / "pack" / "c.sgcard").write_text(CARDS, encoding="utf-8")
    (tmp_path / "pack" / "sgpack.yaml").write_text(f"name: m\nversion: 1.0.0\ncards: [c.sgcard]\nmodule:\n{module}")
    assert check(tmp_path) == [("SG-P038", *where)]


def test_soul_masters_shields_break_the_contract_where_they_say_so() -> None:
    run = check_paths([str(MODULES / "soul-master")])
    found = [(d.code, d.span.line, d.span.column) for f in run.files for d in f.diagnostics if d.span is not None]
    assert found == [("SG-C004", 13, 5), ("SG-C004", 14, 5), ("SG-C050", 15, 3)]
    messages = " ".join(d.message for f in run.files for d in f.diagnostics)
    assert "32 damage" in messages and "combat math" in messages and "battle" in messages


def test_shields_on_other_pieces_are_a_bounded_reduction_that_replays() -> None:
    run = check_paths([str(MODULES / "bastion")])
    assert not [d for f in run.files for d in f.diagnostics]
    text = (MODULES / "bastion.sglog").read_text(encoding="utf-8")
    result = replay_source(SourceText("bastion.sglog", text), ReplayOptions(), folder=str(MODULES))
    assert result.ok, result.diagnostics
    assert result.pack is not None and result.pack.module is not None


def test_dice_on_pieces_other_than_the_king_still_change_combat_math(tmp_path: Path) -> None:
    (tmp_path / "pack").mkdir()
    (tmp_path / "pack" / "c.sgcard").write_text(CARDS, encoding="utf-8")
    module = "  name: x\n  shields: {guard: Rook, dice: [2]}\n"
    (tmp_path / "pack" / "sgpack.yaml").write_text(f"name: m\nversion: 1.0.0\ncards: [c.sgcard]\nmodule:\n{module}")
    assert [code for code, *_ in check(tmp_path)] == ["SG-C004"]


def test_the_module_codes_name_r26() -> None:
    for code in ("SG-P038", "SG-T108", "SG-T109", "SG-R128"):
        assert "R26" in CATALOGUE[code].rules


# --- the shipped examples -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "name", "exit_code"),
    [
        (["replay", "examples/modules/spell-chess.sglog"], "module-spell-chess.txt", 0),
        (["replay", "examples/modules/spell-chess-missing-reveal.sglog"], "module-spell-chess-missing-reveal.txt", 1),
        (["replay", "examples/modules/bastion.sglog"], "module-bastion.txt", 0),
        (["check", "examples/modules/soul-master"], "module-soul-master-check.txt", 1),
        (["replay", "--format", "json", "examples/modules/spell-chess.sglog"], "module-spell-chess.json", 0),
    ],
)
def test_shipped_module_output_matches_golden(
    args: list[str], name: str, exit_code: int, monkeypatch: pytest.MonkeyPatch, golden: Golden
) -> None:
    monkeypatch.chdir(ROOT)
    result = CliRunner().invoke(main, args)
    assert result.exit_code == exit_code, result.output
    golden.check(GOLDEN / name, result.output)
    if name.endswith(".json"):
        report = json.loads(result.output)
        schema = json.loads((ROOT / "schemas" / "report.schema.json").read_text(encoding="utf-8"))
        jsonschema.Draft202012Validator(schema).validate(report)
        market = report["files"][0]["facts"]["module"]["market"]
        assert market["before"] == {"White": "Haste", "Black": None}
        assert market["discarded"] == ["Sharp Eyes", "Clumsy"]


def test_the_module_schema_is_printed() -> None:
    result = CliRunner().invoke(main, ["schema", "module"])
    assert result.exit_code == 0 and '"market"' in result.output
