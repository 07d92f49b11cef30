"""Verifiable dice against a dishonest player (docs/dice.md, rulings DR1-DR4; docs/disputes.md):
each attack is carried out here as its attacker would, and the test says what replay, dice stats
and the dispute report make of it.

The attacker's tools, and the expected dice, come from hashlib and hmac alone, as docs/dice.md
spells the protocol, never from sgcheck.core.dice: an error in the implementation cannot hide in
a test that shares it.
"""

from __future__ import annotations

import functools
import hashlib
import hmac
import json
import re
import shutil
from pathlib import Path
from typing import TypeVar

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from sgcheck.cli import main
from sgcheck.lang.logs.writer import format_log
from sgcheck.lang.source import SourceText
from sgcheck.play.dice_source import DerivedDice
from sgcheck.replay.dispute import DICE, WITHHELD, dispute_report
from sgcheck.replay.generate import Style, generate_game
from sgcheck.replay.interpreter import ReplayOptions, replay_text
from sgcheck.results import DiceCorrected, DisputeReport, Forfeit, Ruling

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples" / "logs"
FAIR = (EXAMPLES / "fair-dice.sglog").read_text(encoding="utf-8")
WITHHELD_LOG = (EXAMPLES / "broken" / "withheld-secret.sglog").read_text(encoding="utf-8")
WRONG_DICE = EXAMPLES / "broken" / "wrong-dice.sglog"
BLACK_SECRET = bytes.fromhex("c41afca7175eadcfe12de04d05527443d9e3c800c580753438225cada3bc4246")  # fair-dice's
ROLL = re.compile(r"(?:\broll|\breroll|\badvantage) (\d(?: \d)+)(?= |$)", re.M)


# --- the protocol from its published bytes (docs/dice.md) -----------------------------------


def sha(data: bytes) -> bytes:
    return hashlib.sha256(data).digest()


def hashed(data: bytes, times: int) -> bytes:
    for _ in range(times):
        data = sha(data)
    return data


def commit_of(secret: bytes) -> bytes:
    return hashed(secret, 4096)


def key_of(secret: bytes, roll: int) -> bytes:
    return hashed(secret, 4095 - roll)


def faces(
    white: bytes, black: bytes, game: str, roll: int, sides: int, count: int, purpose: str | None = None
) -> tuple[int, ...]:
    """The dice of ``roll`` from both secrets, by the documented bytes (v2 with a purpose)."""
    wk, bk = key_of(white, roll), key_of(black, roll)
    first, second = (wk, bk) if commit_of(white) < commit_of(black) else (bk, wk)
    head = b"sg-dice-v1\x00" + game.encode() + b"\x00"
    if purpose is not None:
        head = b"sg-dice-v2\x00" + game.encode() + b"\x00" + purpose.encode() + b"\x00"
    out: list[int] = []
    counter = 0
    while len(out) < count:
        block = hmac.new(first + second, head + roll.to_bytes(4, "big") + counter.to_bytes(4, "big"), "sha256")
        for byte in block.digest():
            if byte < 256 - 256 % sides and len(out) < count:
                out.append(byte % sides + (1 if sides == 6 else 0))
        counter += 1
    return tuple(out)


def rolloff(white: bytes, black: bytes, game: str, roll: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """White's three d6 and Black's in a roll-off round (the first player's three come first)."""
    six = faces(white, black, game, roll, 6, 6)
    return (six[:3], six[3:]) if commit_of(white) < commit_of(black) else (six[3:], six[:3])


# --- helpers ---------------------------------------------------------------------------------


def codes(text: str) -> list[str]:
    return [d.code for d in replay_text(text, "game.sglog").diagnostics]


def without(text: str, *tags: str) -> str:
    return "".join(line for line in text.splitlines(keepends=True) if not line.startswith(tuple(f"[{t}" for t in tags)))


def with_tag(text: str, after: str, tag: str, value: str) -> str:
    lines = text.splitlines(keepends=True)
    at = next(i for i, line in enumerate(lines) if line.startswith(f"[{after}"))
    return "".join([*lines[: at + 1], f'[{tag} "{value}"]\n', *lines[at + 1 :]])


R = TypeVar("R", bound=Ruling)


def report(text: str, name: str = "game.sglog") -> DisputeReport:
    return dispute_report(SourceText(name, text), ReplayOptions(), str(EXAMPLES))


def named(data: DisputeReport, name: str) -> Ruling:
    return next(r for r in data.rulings if r.ruling == name)


def ruling(data: DisputeReport, kind: type[R]) -> R:
    found = next(r for r in data.rulings if isinstance(r, kind))
    return found


def last_roll(text: str) -> int:
    """The number of the log's last roll, counted from the text: each roll-off line and each
    roll, reroll or advantage is one roll (docs/dice.md)."""
    return len(re.findall(r"^rolloff ", text, re.M)) + len(ROLL.findall(text)) - 1


def cut_before_the_end(text: str) -> str:
    """The log as it stood some turns before the end: the game still in play."""
    lines = text.splitlines(keepends=True)
    return "".join(lines[: len(lines) - 30])


# --- DR1: withholding a reveal after losing ------------------------------------------------


def test_the_loser_who_withholds_their_secret_is_named_and_forfeits() -> None:
    """The attack: Black lost, and keeps their secret back so that nothing can be checked."""
    result = replay_text(WITHHELD_LOG, "game.sglog")
    found = [d for d in result.diagnostics if d.is_error]
    assert [d.code for d in found] == ["SG-D106"]  # no longer a warning and exit 0
    assert "Black" in found[0].message and ("player", "Black") in found[0].context
    assert "DR1" in found[0].rules
    assert not result.ok
    data = report(WITHHELD_LOG)
    first = data.first
    assert first is not None and first.kind == WITHHELD
    forfeit = ruling(data, Forfeit)
    assert forfeit.default and (forfeit.loser, forfeit.winner, forfeit.score) == ("Black", "White", "1-0")


def test_a_player_who_falsified_the_conversion_and_withholds_their_secret_loses() -> None:
    """The attack of the issue: White writes a hit for the last attack (a King converted) and
    reveals nothing, so that the false roll cannot be seen."""
    last = list(ROLL.finditer(FAIR))[-1]
    falsified = FAIR[: last.start(1)] + "0 1" + FAIR[last.end(1) :]  # d100 1: a hit whatever the threshold
    hidden = without(falsified, "WhiteSecret")
    assert codes(hidden).count("SG-D106") == 1 and "SG-D103" not in codes(hidden)
    forfeit = ruling(report(hidden), Forfeit)
    assert (forfeit.loser, forfeit.score, forfeit.default) == ("White", "0-1", True)
    # revealed, the false roll is seen at once
    assert "SG-D103" in codes(falsified)


@pytest.mark.parametrize("reveal", ["zz", "0" * 64, "not a secret at all"])
def test_a_garbled_reveal_forfeits_as_a_withheld_one(reveal: str) -> None:
    """The withholder writes something in place of the secret, hoping for a broken header (and a
    void game) rather than a forfeit."""
    garbled = with_tag(WITHHELD_LOG, "BlackCommit", "BlackSecret", reveal)
    found = [d for d in replay_text(garbled, "game.sglog").diagnostics if d.is_error]
    assert [d.code for d in found] == ["SG-D102"] and ("player", "Black") in found[0].context
    forfeit = ruling(report(garbled), Forfeit)
    assert (forfeit.loser, forfeit.default) == ("Black", True)


def test_when_one_garbles_and_the_other_withholds_the_game_is_void() -> None:
    both = with_tag(without(FAIR, "WhiteSecret", "BlackSecret"), "BlackCommit", "BlackSecret", "zz")
    assert sorted(codes(both)) == ["SG-D102", "SG-D106"]
    data = report(both)
    assert not named(data, "forfeit").applies and named(data, "game-void").default


def test_when_neither_player_opens_their_commitment_the_game_is_void() -> None:
    hidden = without(FAIR, "WhiteSecret", "BlackSecret")
    assert codes(hidden) == ["SG-D106", "SG-D106"]
    data = report(hidden)
    assert not named(data, "forfeit").applies
    assert named(data, "game-void").default


def test_a_game_still_in_play_only_warns_that_its_rolls_are_unverified() -> None:
    """DR1 is for a game that is over: mid-game, the secrets cannot be revealed yet."""
    playing = cut_before_the_end(without(FAIR, "WhiteSecret", "BlackSecret"))
    result = replay_text(playing, "game.sglog")
    assert [d.code for d in result.diagnostics] == ["SG-D104"]
    assert result.ok


def test_a_result_tag_makes_a_game_over_even_if_the_log_stops_early() -> None:
    """A withholder cannot escape DR1 by cutting the log short and keeping the [Result] tag."""
    playing = cut_before_the_end(without(FAIR, "BlackSecret"))
    assert "SG-D106" in codes(with_tag(playing, "Black ", "Result", "1-0"))


# --- DR2: the last key told opens the commitment -------------------------------------------


def test_the_last_key_black_told_verifies_every_roll_in_place_of_the_secret() -> None:
    last = last_roll(WITHHELD_LOG)
    assert last == 104
    opened = with_tag(WITHHELD_LOG, "BlackCommit", "BlackKey", key_of(BLACK_SECRET, last).hex())
    result = replay_text(opened, "game.sglog")
    assert result.diagnostics == () and result.ok


def test_with_the_last_key_a_falsified_roll_is_still_seen() -> None:
    opened = with_tag(WITHHELD_LOG, "BlackCommit", "BlackKey", key_of(BLACK_SECRET, 104).hex())
    third = list(ROLL.finditer(opened))[2]
    written = third.group(1)
    other = " ".join("1" if f != "1" else "2" for f in written.split())
    falsified = opened[: third.start(1)] + other + opened[third.end(1) :]
    found = [d for d in replay_text(falsified, "game.sglog").diagnostics if d.code == "SG-D103"]
    assert len(found) == 1 and found[0].expected == written


def test_a_key_short_of_the_last_roll_leaves_the_rest_unopened() -> None:
    early = with_tag(WITHHELD_LOG, "BlackCommit", "BlackKey", key_of(BLACK_SECRET, 100).hex())
    found = [d for d in replay_text(early, "game.sglog").diagnostics if d.is_error]
    assert [d.code for d in found] == ["SG-D106"]
    assert "rolls 101 to 104 are not opened" in found[0].message


def test_a_made_up_key_does_not_open_the_commitment() -> None:
    """The withholder's opponent cannot write a key of their choosing either."""
    forged = with_tag(WITHHELD_LOG, "BlackCommit", "BlackKey", sha(b"forged").hex())
    found = [d for d in replay_text(forged, "game.sglog").diagnostics if d.is_error]
    assert found[0].code == "SG-D102" and ("player", "Black") in found[0].context


# --- DR3: a secret reused across games -----------------------------------------------------

VICTIM = sha(b"a secret used twice")


def _game(white: bytes, black: bytes, game_id: str, seed: int = 7) -> str:
    source = DerivedDice(white, black, game_id)
    return format_log(generate_game(seed, dice=source, style=Style.AGGRESSIVE, max_turns=12).items)


def _grind(victim: bytes, game_id: str) -> bytes:
    """The attacker, who saw the victim's secret revealed in an earlier game, tries secrets of
    their own until they win the roll-off (playing Black) and the first roll after it is a d100
    of 30 or less."""
    for attempt in range(2000):
        mine = sha(b"attacker" + attempt.to_bytes(4, "big"))
        white, black = rolloff(victim, mine, game_id, 0)
        tens, ones = faces(victim, mine, game_id, 1, 10, 2)
        if sum(black) > sum(white) and (10 * tens + ones or 100) <= 30:
            return mine
    raise AssertionError("the grind found no secret")


def test_a_reused_secret_lets_the_opponent_grind_and_a_run_over_both_games_names_them(tmp_path: Path) -> None:
    first = _game(VICTIM, sha(b"someone"), "league-round-1")
    assert f'[WhiteSecret "{VICTIM.hex()}"]' in first  # revealed after round 1
    ground = _grind(VICTIM, "league-round-2")
    second = _game(VICTIM, ground, "league-round-2")
    white, black = rolloff(VICTIM, ground, "league-round-2", 0)
    assert sum(black) > sum(white) and f"rolloff white {' '.join(map(str, white))}" in second
    assert codes(second) == []  # one log alone: the grind cannot be seen
    (tmp_path / "round-1.sglog").write_text(first, encoding="utf-8")
    (tmp_path / "round-2.sglog").write_text(second, encoding="utf-8")
    result = CliRunner().invoke(main, ["replay", "--quiet", "--format", "json", str(tmp_path)])
    assert result.exit_code == 1
    files = {Path(f["path"]).name: f for f in json.loads(result.output)["files"]}
    for this, other in (("round-1.sglog", "round-2.sglog"), ("round-2.sglog", "round-1.sglog")):
        found = [d for d in files[this]["diagnostics"] if d["code"] == "SG-D107"]
        assert len(found) == 1 and other in found[0]["message"] and "same commitment" in found[0]["message"]
    stats = CliRunner().invoke(main, ["dice", "stats", str(tmp_path)])
    assert stats.exit_code == 1 and "SG-D107" in stats.output and "round-2.sglog" in stats.output


def test_a_key_of_an_old_chain_used_as_a_new_secret_is_a_reuse(tmp_path: Path) -> None:
    """Not the same secret, but a key of its chain: the old game's reveal gives the new keys."""
    shifted = hashed(VICTIM, 95)
    (tmp_path / "a.sglog").write_text(_game(VICTIM, sha(b"x"), "g-1"), encoding="utf-8")
    (tmp_path / "b.sglog").write_text(_game(shifted, sha(b"y"), "g-2"), encoding="utf-8")
    result = CliRunner().invoke(main, ["replay", "--quiet", str(tmp_path)])
    assert result.exit_code == 1
    assert result.output.count("SG-D107") == 2 and "95 steps down the other's hash chain" in result.output


def test_fresh_secrets_in_every_game_are_no_reuse(tmp_path: Path) -> None:
    for n in range(3):
        text = _game(sha(b"w%d" % n), sha(b"b%d" % n), f"g-{n}", seed=n)
        (tmp_path / f"{n}.sglog").write_text(text, encoding="utf-8")
    result = CliRunner().invoke(main, ["replay", "--quiet", str(tmp_path)])
    assert "SG-D107" not in result.output


# --- dice moved from one action to another (sg-dice-v2) ------------------------------------

ATTACK = re.compile(r"attack ([KQRBNP]?)([a-h][1-8]) ([KQRBNP]?)([a-h][1-8]) roll (\d \d)")


@functools.cache
def _v2_game() -> str:
    source = DerivedDice(sha(b"v2 white"), sha(b"v2 black"), "v2-game", version=2)
    return format_log(generate_game(11, dice=source, style=Style.AGGRESSIVE, max_turns=30).items)


@given(st.data())
@settings(max_examples=15, deadline=None)
def test_any_one_falsified_v2_roll_is_the_one_error_at_its_dice(data: st.DataObject) -> None:
    """Whichever roll is written differently, and however, replay reports it and nothing else:
    one SG-D103 at those dice, expecting what was there."""
    text = _v2_game()
    rolls = list(ROLL.finditer(text))
    m = data.draw(st.sampled_from(rolls))
    written = m.group(1).split()
    low = 1 if len(written) == 3 else 0
    other = data.draw(
        st.lists(st.integers(low, low + (5 if low else 9)), min_size=len(written), max_size=len(written)).filter(
            lambda faces: faces != [int(f) for f in written]
        )
    )
    falsified = text[: m.start(1)] + " ".join(map(str, other)) + text[m.end(1) :]
    found = [d for d in replay_text(falsified, "g.sglog").diagnostics if d.code.startswith("SG-D")]
    assert len(found) == 1 and found[0].code == "SG-D103"
    assert found[0].expected == m.group(1) and found[0].span is not None and found[0].span.offset == m.start(1)


def test_a_v2_roll_is_the_one_its_purpose_derives() -> None:
    text = _v2_game()
    assert '[DiceProtocol "sg-dice-v2"]' in text and codes(text) == []
    m = ATTACK.search(text)
    assert m is not None
    index = text[: m.start()].count("rolloff ") + len(ROLL.findall(text[: m.start()]))
    expected = faces(sha(b"v2 white"), sha(b"v2 black"), "v2-game", index, 10, 2, f"attack {m.group(2)} {m.group(4)}")
    assert " ".join(map(str, expected)) == m.group(5)


def _moved(text: str) -> tuple[str, str]:
    """The dice of the first attack written for an attack on another square."""
    m = ATTACK.search(text)
    assert m is not None
    target = "h8" if m.group(4) != "h8" else "h7"
    return text[: m.start(4)] + target + text[m.end(4) :], f"attack {m.group(2)} {target}"


def test_dice_moved_to_another_attack_fail_in_v2() -> None:
    moved, purpose = _moved(_v2_game())
    found = [d for d in replay_text(moved, "g.sglog").diagnostics if d.code == "SG-D103"]
    assert len(found) == 1 and f"for '{purpose}'" in found[0].message


def test_v1_logs_are_verified_as_before_where_dice_belong_to_a_roll_number() -> None:
    """sg-dice-v1 is unchanged: the same move still verifies, which is why v2 exists."""
    source = DerivedDice(sha(b"v2 white"), sha(b"v2 black"), "v1-game")
    text = format_log(generate_game(11, dice=source, style=Style.AGGRESSIVE, max_turns=30).items)
    moved, _ = _moved(text)
    assert "SG-D103" not in codes(moved)


def test_two_v2_attacks_that_swap_their_dice_both_fail() -> None:
    text = _v2_game()
    attacks = [m for m in ATTACK.finditer(text) if (m.group(2), m.group(4))]
    pair = next(
        (a, b)
        for a in attacks
        for b in attacks
        if a.start() < b.start() and a.group(5) != b.group(5) and (a.group(2), a.group(4)) != (b.group(2), b.group(4))
    )
    a, b = pair
    swapped = text[: a.start(5)] + b.group(5) + text[a.end(5) : b.start(5)] + a.group(5) + text[b.end(5) :]
    assert codes(swapped).count("SG-D103") >= 2


# --- dice stats: every log's dice, verified or not, past an unreadable log --------------------


def test_dice_stats_counts_unrevealed_dice_says_what_was_verified_and_goes_on(tmp_path: Path) -> None:
    unrevealed = format_log(
        generate_game(
            5, dice=DerivedDice(sha(b"u w"), sha(b"u b"), "u", reveal=False), style=Style.AGGRESSIVE, max_turns=30
        ).items
    )
    (tmp_path / "a-unrevealed.sglog").write_text(unrevealed, encoding="utf-8")
    shutil.copy(EXAMPLES / "fair-dice.sglog", tmp_path / "b-fair.sglog")
    (tmp_path / "c-unreadable.sglog").write_bytes(b"\xff\xfe\x00\x00 not a log")
    result = CliRunner().invoke(main, ["dice", "stats", "--format", "json", str(tmp_path)])
    assert result.exit_code == 2, result.output  # the unreadable log, after the rest is analysed
    data = json.loads(result.output)
    assert data["logs"] == 2 and data["committed"] == 2 and data["unreadable"] == 1
    assert [Path(p).name for p in data["verified"]] == ["b-fair.sglog"]
    assert [Path(e["log"]).name for e in data["not_verified"]] == ["a-unrevealed.sglog"]
    assert any(Path(e["log"]).name == "c-unreadable.sglog" for e in data["unread"])
    d10 = sum(p["dice"] for p in data["players"] if p["kind"] == "d10")
    written = [m.group(1) for text in (unrevealed, FAIR) for m in ROLL.finditer(text)]
    assert d10 == sum(len(w.split()) for w in written if len(w.split()) == 2)  # every accuracy die


# --- an audit the sender cannot silence ------------------------------------------------------


def _sent(tmp_path: Path) -> Path:
    """A folder as a dishonest sender ships it: an unrevealed log, and a configuration that
    hides the warning about it."""
    sent = tmp_path / "sent"
    sent.mkdir()
    (sent / "game.sglog").write_text(cut_before_the_end(without(FAIR, "BlackSecret")), encoding="utf-8")
    (sent / "pyproject.toml").write_text('[tool.sgcheck.replay]\nignore = ["SG-D104"]\n', encoding="utf-8")
    return sent


def test_a_configuration_sent_with_the_log_is_not_read_by_an_audit(tmp_path: Path) -> None:
    sent = _sent(tmp_path)
    log = str(sent / "game.sglog")
    plain = CliRunner().invoke(main, ["replay", "--quiet", "--fail-on", "warning", log])
    assert plain.exit_code == 0  # the configuration hides the warning...
    assert "pyproject.toml: 1 finding hidden (SG-D104)" in plain.output  # ...but never unsaid
    for flags in (["--audit"], ["--dispute"]):
        audit = CliRunner().invoke(main, ["replay", "--quiet", "--fail-on", "warning", *flags, log])
        assert audit.exit_code == 1, (flags, audit.output)
        assert "SG-D104" in audit.output and "configuration: none read; no finding hidden" in audit.output
    asked = CliRunner().invoke(main, ["replay", "--quiet", "--audit", "--config", str(sent / "pyproject.toml"), log])
    assert "1 finding hidden (SG-D104)" in asked.output  # read when the auditor names it


def test_the_json_report_says_what_the_configuration_hid(tmp_path: Path) -> None:
    sent = _sent(tmp_path)
    result = CliRunner().invoke(main, ["replay", "--quiet", "--format", "json", str(sent / "game.sglog")])
    configuration = json.loads(result.output)["configuration"]
    assert configuration["hidden"] == 1 and configuration["codes"] == {"SG-D104": 1}
    assert configuration["source"].endswith("pyproject.toml")


def test_the_html_report_of_an_audit_says_what_the_configuration_hid(tmp_path: Path) -> None:
    sent = _sent(tmp_path)
    page = tmp_path / "report.html"
    log = str(sent / "game.sglog")
    CliRunner().invoke(main, ["replay", "--format", "html", "-o", str(page), log])
    assert "pyproject.toml: 1 finding hidden (SG-D104)" in page.read_text(encoding="utf-8")
    CliRunner().invoke(main, ["replay", "--audit", "--format", "html", "-o", str(page), log])
    assert "configuration: none read; no finding hidden" in page.read_text(encoding="utf-8")


def test_a_gitignore_sent_with_the_logs_hides_none_from_an_audit(tmp_path: Path) -> None:
    sent = _sent(tmp_path)
    (sent / "pyproject.toml").unlink()
    (sent / ".gitignore").write_text("game.sglog\n", encoding="utf-8")
    (sent / ".git").mkdir()  # the folder is a repository: its .gitignore applies to a plain search
    plain = CliRunner().invoke(main, ["replay", "--quiet", str(sent)])
    assert plain.exit_code == 2 and "no game logs" in plain.output  # hidden from a plain search
    audit = CliRunner().invoke(main, ["replay", "--quiet", "--audit", str(sent)])
    assert "1 file checked" in audit.output and "SG-D104" in audit.output


# --- DR4: --dispute plays a falsified roll by the rules --------------------------------------


def test_dispute_plays_the_falsified_roll_with_the_derived_dice() -> None:
    """wrong-dice.sglog writes 3 4 (a hit and a capture); the derived dice are 8 4: d100 84
    against a threshold of 20 + 10×(Rook 5 − Pawn 1) = 60, a miss by core §4.2."""
    data = dispute_report(
        SourceText("wrong-dice.sglog", WRONG_DICE.read_text(encoding="utf-8")), ReplayOptions(), str(WRONG_DICE.parent)
    )
    first = data.first
    assert first is not None and first.kind == DICE and first.expected == "8 4"
    assert 10 * 8 + 4 > 20 + 10 * (5 - 1)
    corrected = ruling(data, DiceCorrected)
    assert corrected.default and corrected.dice == "8 4" and corrected.written_dice == "3 4"
    assert corrected.decided == "a miss: d100 84 against threshold 60 (core §4.2)"
    position = data.position
    assert position is not None and position.when == "derived"
    board = position.state.board
    assert board["a5"] == "p" and board["a3"] == "R"  # the Pawn was not captured
    differ = corrected.played.figures_differ
    assert {(f.line, f.figure, f.written, f.game) for f in differ} == {(26, "SP", 5, 0)}
    assert not named(data, "claim-corrected").applies and not named(data, "action-undone").applies


@pytest.mark.parametrize("fmt", ["text", "json"])
def test_the_dispute_of_a_withheld_reveal_on_the_command_line(fmt: str) -> None:
    log = str(EXAMPLES / "broken" / "withheld-secret.sglog")
    result = CliRunner().invoke(main, ["replay", "--dispute", "--quiet", "--format", fmt, log])
    assert result.exit_code == 1
    if fmt == "text":
        assert (
            "forfeit         * Black, who did not open their commitment (DR1), loses: White wins 1-0" in result.output
        )
    else:
        dispute = json.loads(result.output)["files"][0]["dispute"]
        assert dispute["first"]["kind"] == WITHHELD
