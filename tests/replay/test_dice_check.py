"""Replay verifies committed dice (docs/dice.md, sg-dice-v1): every roll against the derived one,
reveals against commitments, unverified and malformed headers; and the generator's dice source."""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from sgcheck.cli import main
from sgcheck.core import dice
from sgcheck.lang.logs.writer import format_log
from sgcheck.play.dice_source import DerivedDice
from sgcheck.replay.generate import Style, generate_game
from sgcheck.replay.interpreter import ReplayOptions, replay_text

ROOT = Path(__file__).resolve().parents[2]
WHITE = hashlib.sha256(b"test white").digest()
BLACK = hashlib.sha256(b"test black").digest()


def _game(seed: int = 5, game_id: str = "test-replay", *, reveal: bool = True) -> tuple[str, DerivedDice]:
    source = DerivedDice(WHITE, BLACK, game_id, reveal=reveal)
    game = generate_game(seed, dice=source, style=Style.AGGRESSIVE, max_turns=30)
    return format_log(game.items), source


def _codes(text: str, options: ReplayOptions | None = None) -> list[str]:
    return [d.code for d in replay_text(text, "game.sglog", options or ReplayOptions()).diagnostics]


def test_a_game_played_with_derived_dice_replays_clean() -> None:
    text, source = _game()
    assert source.index > 5  # roll-off and attacks
    result = replay_text(text, "game.sglog")
    assert result.ok and result.diagnostics == ()


def test_the_shipped_fair_dice_example_replays_clean_and_has_every_kind_of_roll() -> None:
    text = (ROOT / "examples/logs/fair-dice.sglog").read_text(encoding="utf-8")
    assert all(word in text for word in ("rolloff", "attack", "break roll", "repair roll", "[WhiteSecret"))
    assert replay_text(text, "fair-dice.sglog").diagnostics == ()


def _rolls(text: str) -> list[re.Match[str]]:
    return list(re.finditer(r"(?:roll|reroll|advantage) ((?:\d )*\d)(?= |$)", text, re.M))


def test_every_wrong_roll_is_an_error_naming_the_expected_dice_and_later_rolls_are_still_checked() -> None:
    text, _ = _game()
    rolls = _rolls(text)
    second, fifth = rolls[1], rolls[4]
    tampered = text
    for m in (fifth, second):  # from the end, so offsets stay valid
        written = m.group(1)
        wrong = " ".join("9" if f != "9" else "1" for f in written.split()) if " " in written else written
        tampered = tampered[: m.start(1)] + wrong + tampered[m.end(1) :]
    result = replay_text(tampered, "game.sglog", ReplayOptions())
    found = [d for d in result.diagnostics if d.code == "SG-D103"]
    assert len(found) == 2  # the second is found though the first is an error (replay stops at the first)
    first = found[0]
    assert first.expected == second.group(1) and first.claimed != first.expected
    assert f"is {second.group(1)} by sg-dice-v1" in first.message
    assert first.span is not None and first.span.offset == second.start(1)
    assert ("roll", str(text.count("rolloff") + 1)) in first.context  # numbered from 0, the roll-off first
    assert not result.ok


def test_the_roll_off_is_checked_for_each_colour() -> None:
    text, _ = _game()
    m = re.search(r"rolloff white (\d \d \d) black (\d \d \d)", text)
    assert m is not None
    swapped = text[: m.start()] + f"rolloff white {m.group(2)} black {m.group(1)}" + text[m.end() :]
    assert m.group(1) != m.group(2)  # the seed's last roll-off is not a tie
    found = [d for d in replay_text(swapped, "g.sglog").diagnostics if d.code == "SG-D103"]
    assert {d.expected for d in found} == {m.group(1), m.group(2)}
    assert all("(the roll-off)" in d.message for d in found)


def test_a_second_roll_is_a_roll_of_its_own() -> None:
    """core §4.5, R20: 'reroll' after the first dice is the next roll; checked though the rules
    refuse the reroll (no card grants it): every roll written counts."""
    commits = dice.commitment(WHITE), dice.commitment(BLACK)
    game = "second-roll"
    keys = dice.chain(WHITE), dice.chain(BLACK)

    def roll(n: int, sides: int, count: int) -> str:
        faces = dice.roll_for(keys[0][n], keys[1][n], *commits, game, n, sides, count)
        return " ".join(map(str, faces))

    white, black = dice.rolloff_for(keys[0][0], keys[1][0], *commits, game, 0)
    header = (
        f'[DiceProtocol "sg-dice-v1"]\n[GameId "{game}"]\n[WhiteCommit "{commits[0].hex()}"]\n'
        f'[BlackCommit "{commits[1].hex()}"]\n[WhiteSecret "{WHITE.hex()}"]\n[BlackSecret "{BLACK.hex()}"]\n'
    )
    body = (
        f"rolloff white {' '.join(map(str, white))} black {' '.join(map(str, black))}\n"
        "king white e1\nking black e8\n1. battle: attack Ke1 e8 roll {a} reroll {b}\n"
    )
    honest = header + body.format(a=roll(1, 10, 2), b=roll(2, 10, 2))
    assert "SG-D103" not in _codes(honest, ReplayOptions(keep_going=True))
    wrong = header + body.format(a=roll(1, 10, 2), b="0 0" if roll(2, 10, 2) != "0 0" else "1 1")
    found = [d for d in replay_text(wrong, "g.sglog").diagnostics if d.code == "SG-D103"]
    assert len(found) == 1 and "roll 2 (second roll)" in found[0].message


def test_a_reveal_that_does_not_match_its_commitment_is_an_error_at_the_tag() -> None:
    text, _ = _game()
    other = hashlib.sha256(b"another").hexdigest()
    tampered = text.replace(BLACK.hex(), other)
    result = replay_text(tampered, "game.sglog")
    [found] = [d for d in result.diagnostics if d.code.startswith("SG-D")]
    assert found.code == "SG-D102" and "Black's revealed secret" in found.message
    assert found.span is not None and tampered[found.span.offset : found.span.end_offset].startswith("[BlackSecret")


def test_commitments_without_reveals_say_once_the_rolls_are_unverified() -> None:
    text, _ = _game(reveal=False)
    result = replay_text(text, "game.sglog")
    assert [d.code for d in result.diagnostics] == ["SG-D104"]
    assert result.ok  # a warning
    assert "[WhiteSecret] and [BlackSecret]" in result.diagnostics[0].message


@pytest.mark.parametrize(
    ("change", "fragment"),
    [
        (("sg-dice-v1", "sg-dice-v9"), "unknown dice protocol 'sg-dice-v9'"),
        (("[GameId", "[Gameid_x"), "needs a non-empty [GameId]"),
        (('[WhiteCommit "', '[WhiteCommit "zz'), "must be 64 hexadecimal digits"),
        (('[DiceProtocol "sg-dice-v1"]', ""), "without [DiceProtocol]"),
    ],
)
def test_malformed_dice_tags_are_a_clear_diagnostic(change: tuple[str, str], fragment: str) -> None:
    text, _ = _game()
    result = replay_text(text.replace(*change), "game.sglog")
    [found] = [d for d in result.diagnostics if d.code.startswith("SG-D")]
    assert found.code == "SG-D101" and fragment in found.message
    assert found.span is not None


def test_a_malformed_secret_does_not_open_the_commitment() -> None:
    """DR1: a reveal that is not 64 hex digits opens nothing; it is the player's, as a wrong one."""
    text, _ = _game()
    result = replay_text(text.replace('[WhiteSecret "', '[WhiteSecret "0'), "game.sglog")
    [found] = [d for d in result.diagnostics if d.code.startswith("SG-D")]
    assert found.code == "SG-D102" and "is not 64 hexadecimal digits (32 bytes)" in found.message
    assert ("player", "White") in found.context
    assert found.span is not None


def test_identical_commitments_are_refused() -> None:
    text, source = _game()
    same = text.replace(source.black_commit.hex(), source.white_commit.hex())
    codes = _codes(same)
    assert codes == ["SG-D101"]


def test_a_log_without_dice_tags_is_untouched() -> None:
    text = (ROOT / "examples/logs/full-game.sglog").read_text(encoding="utf-8")
    assert replay_text(text, "full-game.sglog").ok


def test_the_cli_next_refuses_keys_that_do_not_match_and_prints_what_both_reach() -> None:
    wc, bc = dice.commitment(WHITE).hex(), dice.commitment(BLACK).hex()
    base = ["dice", "next", "--game-id", "g", "--white-commit", wc, "--black-commit", bc]
    wk, bk = dice.roll_key(WHITE, 3).hex(), dice.roll_key(BLACK, 5).hex()
    ok = CliRunner().invoke(main, [*base, "--white", wk, "--black", bk, "--format", "json"])
    assert ok.exit_code == 0, ok.output
    [roll] = json.loads(ok.output)["rolls"]
    expected = dice.roll_for(
        dice.roll_key(WHITE, 3), dice.roll_key(BLACK, 3), *map(bytes.fromhex, (wc, bc)), "g", 3, 10, 2
    )
    assert roll["roll"] == 3 and tuple(roll["d10"]) == expected  # the last roll both keys reach
    later = CliRunner().invoke(main, [*base, "--white", wk, "--black", bk, "--from", "4"])
    assert later.exit_code == 2 and "needs both players' keys" in later.output
    wrong = CliRunner().invoke(main, [*base, "--white", bk, "--black", bk])
    assert wrong.exit_code == 2 and "White's key is not a key of the chain" in wrong.output
    missing = CliRunner().invoke(main, ["dice", "next", "--game-id", "g", "--white", wk, "--black", bk])
    assert missing.exit_code == 2 and "--white-commit" in missing.output  # never a roll without both commitments


def test_the_cli_makes_a_secret_its_commitment_and_a_key(tmp_path: Path) -> None:
    made = CliRunner().invoke(main, ["dice", "secret"])
    secret, commit = (line.split()[1] for line in made.output.splitlines())
    assert dice.commitment(bytes.fromhex(secret)).hex() == commit
    assert CliRunner().invoke(main, ["dice", "commit", secret]).output.strip() == commit
    path = tmp_path / "mine.secret"
    written = CliRunner().invoke(main, ["dice", "secret", "-o", str(path)])
    kept = path.read_text().strip()
    assert written.output.strip() == f"commitment  {dice.commitment(bytes.fromhex(kept)).hex()}"
    assert path.stat().st_mode & 0o077 == 0
    again = CliRunner().invoke(main, ["dice", "secret", "-o", str(path)])
    assert again.exit_code == 2 and path.read_text().strip() == kept
    key = CliRunner().invoke(main, ["dice", "key", f"@{path}", "--roll", "7"])
    assert key.output.strip() == dice.roll_key(bytes.fromhex(kept), 7).hex()
    bad = CliRunner().invoke(main, ["dice", "commit", "xyz"])
    assert bad.exit_code == 2 and "64 hexadecimal digits" in bad.output


def test_dice_stats_flags_a_player_with_loaded_dice(tmp_path: Path) -> None:
    """A player who always rolls 6 on the roll-off is flagged (p < 0.001) with the counts."""
    lines = ['[White "Loaded"]', '[Black "Fair"]', ""]
    fair = [1, 2, 3, 4, 5, 6]
    for i in range(12):
        black = [fair[(i + j) % 6] for j in range(3)]
        lines.append(f"rolloff white 6 6 6 black {' '.join(map(str, black))}")
    (tmp_path / "a.sglog").write_text("\n".join(lines) + "\n", encoding="utf-8")
    (tmp_path / "committed.sglog").write_text('[DiceProtocol "sg-dice-v1"]\n', encoding="utf-8")
    result = CliRunner().invoke(main, ["dice", "stats", str(tmp_path)])
    assert result.exit_code == 1, result.output
    assert "1 with committed dice: 0 verified, 1 not verified" in result.output  # counted, said unverified
    assert re.search(r"Loaded\s+d6\s+36\s+180\.00\s+5\s+\S+\s+implausible", result.output)
    assert "counts: 1: 0  2: 0  3: 0  4: 0  5: 0  6: 36" in result.output
    data = json.loads(CliRunner().invoke(main, ["dice", "stats", "--format", "json", str(tmp_path)]).output)
    by_player = {p["player"]: p for p in data["players"]}
    assert by_player["Loaded"]["flagged"] and by_player["Loaded"]["p_value"] < 0.001
    assert not by_player["Fair"]["flagged"] and by_player["Fair"]["p_value"] == 1.0


def test_dice_stats_says_in_one_line_which_players_had_too_few_dice(tmp_path: Path) -> None:
    """A league of 60 players with a roll-off each: no row per player that cannot be tested, one
    line that names the first few and counts the rest; the JSON keeps every player."""
    for i in range(30):
        log = [f'[White "W{i:02d}"]', f'[Black "B{i:02d}"]', "", "rolloff white 1 2 3 black 4 5 6"]
        (tmp_path / f"g{i:02d}.sglog").write_text("\n".join(log) + "\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["dice", "stats", str(tmp_path)])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert len(lines) <= 4, result.output
    [few] = [line for line in lines if line.startswith("not tested, too few dice")]
    assert few.endswith("and 55 more") and "B00 d6 (3)" in few
    data = json.loads(CliRunner().invoke(main, ["dice", "stats", "--format", "json", str(tmp_path)]).output)
    assert len(data["players"]) == 60 and all(p["p_value"] is None for p in data["players"])
