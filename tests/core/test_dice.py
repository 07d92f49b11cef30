"""Verifiable dice, sg-dice-v1 and sg-dice-v2 (docs/dice.md): the derivation against its published vectors,
rejection sampling, uniformity, and the chi-square test the statistics use."""

from __future__ import annotations

import hashlib
import hmac
import math
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sgcheck.core import dice
from sgcheck.core.chisquare import chi_square_sf, gamma_q, uniform_test

DOC = Path(__file__).resolve().parents[2] / "docs" / "dice.md"
WHITE = bytes(range(32))
BLACK = bytes(range(32, 64))
GAME = "test-game-1"
SQUARES_PAIRS = [("a3", "a5"), ("e2", "e7"), ("h1", "b8"), ("c4", "c5")]


def _doc_vectors() -> dict[str, str]:
    text = DOC.read_text(encoding="utf-8")
    block = text.split("<!-- dice-vectors -->", 1)[1].split("```", 2)[1]
    return {m.group(1): m.group(2) for m in re.finditer(r"^(\S+(?: \S+)*?)\s{2,}(\S+)$", block, re.M)}


def _doc_rolls() -> list[str]:
    text = DOC.read_text(encoding="utf-8")
    return re.findall(r"^roll \d+: .*$", text, re.M)


def _shown(faces: tuple[int, ...]) -> str:
    return " ".join(map(str, faces))


def test_the_published_vectors_are_the_implementations() -> None:
    """docs/dice.md publishes these so other tools can reproduce them."""
    doc = _doc_vectors()
    wc, bc = dice.commitment(WHITE), dice.commitment(BLACK)
    assert doc["white secret"] == WHITE.hex() and doc["black secret"] == BLACK.hex()
    assert doc["game id"] == GAME
    assert doc["white commit"] == wc.hex()
    assert doc["black commit"] == bc.hex()
    assert doc["first player"] == ("white" if dice.white_first(wc, bc) else "black")
    assert doc["white key 0"] == dice.roll_key(WHITE, 0).hex()
    assert doc["block 0 of 0"] == dice.block(dice.roll_key(BLACK, 0), dice.roll_key(WHITE, 0), GAME, 0, 0).hex()
    rolls = []
    for n in range(4):
        w, b = dice.roll_key(WHITE, n), dice.roll_key(BLACK, n)
        rw, rb = dice.rolloff_for(w, b, wc, bc, GAME, n)
        rolls.append(
            f"roll {n}: attack {_shown(dice.roll_for(w, b, wc, bc, GAME, n, 10, 2))} · break/repair "
            f"{_shown(dice.roll_for(w, b, wc, bc, GAME, n, 6, 3))} · rolloff white {_shown(rw)} black {_shown(rb)}"
        )
    assert _doc_rolls() == rolls


def test_the_derivation_is_the_documented_bytes() -> None:
    """Recomputed from hashlib/hmac alone, as another tool would from docs/dice.md."""
    commit = WHITE
    for _ in range(4096):
        commit = hashlib.sha256(commit).digest()
    assert dice.commitment(WHITE) == commit
    key0 = WHITE
    for _ in range(4095):
        key0 = hashlib.sha256(key0).digest()
    assert hashlib.sha256(key0).digest() == commit and dice.roll_key(WHITE, 0) == key0
    msg = b"sg-dice-v1\x00test-game-1\x00" + (7).to_bytes(4, "big") + (2).to_bytes(4, "big")
    assert dice.message(GAME, 7, 2) == msg
    assert dice.block(b"a" * 32, b"b" * 32, GAME, 7, 2) == hmac.new(b"a" * 32 + b"b" * 32, msg, hashlib.sha256).digest()


def test_the_v2_derivation_names_the_purpose_in_the_documented_bytes() -> None:
    """sg-dice-v2 (docs/dice.md): the message names the roll's purpose between the game id and the
    roll number; the published vector is the implementation's, recomputed with hmac alone."""
    msg = b"sg-dice-v2\x00test-game-1\x00attack a3 a5\x00" + (1).to_bytes(4, "big") + (0).to_bytes(4, "big")
    assert dice.message(GAME, 1, 0, "attack a3 a5") == msg
    first, second = dice.roll_key(BLACK, 1), dice.roll_key(WHITE, 1)  # Black's commitment sorts first
    block = hmac.new(first + second, msg, hashlib.sha256).digest()
    assert _doc_vectors()["v2 block 0 of 1 for attack a3 a5"] == block.hex()
    assert dice.block(first, second, GAME, 1, 0, "attack a3 a5") == block
    assert dice.message(GAME, 1, 0) != dice.message(GAME, 1, 0, "attack a3 a5")  # v1 is unchanged


@given(st.binary(min_size=32, max_size=32), st.binary(min_size=32, max_size=32), st.sampled_from(SQUARES_PAIRS))
@settings(max_examples=40, deadline=None)
def test_dice_derived_for_one_attack_are_not_those_of_another(a: bytes, b: bytes, pair: tuple[str, str]) -> None:
    """The purpose enters every block: two attacks at the same roll number read different blocks
    (equal faces then happen only by chance, so the blocks themselves are compared)."""
    one = dice.block(a, b, GAME, 3, 0, dice.purpose("attack", *pair))
    other = dice.block(a, b, GAME, 3, 0, dice.purpose("attack", pair[1], pair[0]))
    assert one != other
    assert dice.block(a, b, GAME, 3, 0, dice.purpose("reroll", *pair)) not in (one, other)


def test_a_written_purpose_is_read_in_its_canonical_form_or_refused() -> None:
    assert dice.parse_purpose(" Attack A3  a5 ") == "attack a3 a5"
    assert dice.parse_purpose("break WHITE") == "break white"
    assert dice.parse_purpose("rolloff") == "rolloff"
    for bad in ("", "attack a3", "attack a3 a9", "break grey", "rolloff a1", "teleport a1 a2", "attack a3 a5 a6"):
        assert dice.parse_purpose(bad) is None, bad


def test_a_key_reaches_the_roll_it_is_the_key_of() -> None:
    commit = dice.commitment(WHITE)
    assert dice.reach(WHITE, commit) == 4095
    assert dice.reach(dice.roll_key(WHITE, 104), commit) == 104
    assert dice.reach(dice.commitment(BLACK), commit) is None
    assert dice.keys_from(dice.roll_key(WHITE, 3), 3) == dice.chain(WHITE)[:4]


def test_the_chain_links_each_key_to_the_one_before_and_to_the_commitment() -> None:
    keys = dice.chain(WHITE)
    commit = dice.commitment(WHITE)
    assert len(keys) == dice.CHAIN_LENGTH and keys[-1] == WHITE
    assert dice.step(keys[0]) == commit
    for n in (1, 2, 100, 4095):
        assert dice.step(keys[n]) == keys[n - 1]
        assert dice.key_matches(keys[n], n, commit)
        assert not dice.key_matches(keys[n], n - 1, commit)
    assert keys[5] == dice.roll_key(WHITE, 5)
    with pytest.raises(ValueError):
        dice.roll_key(WHITE, 4096)


def test_rejection_sampling_skips_the_bytes_at_or_over_the_limit() -> None:
    """252 = 42×6 and 250 = 25×10: a byte at or above them would favour low faces (modulo bias)."""
    assert (dice.limit(6), dice.limit(10)) == (252, 250)
    assert dice.read_faces([bytes([255, 252, 251, 0, 5])], 6, 3) == (6, 1, 6)
    assert dice.read_faces([bytes([250, 255, 249, 10])], 10, 2) == (9, 0)
    assert dice.read_faces([bytes([255] * 32)], 6, 1) is None  # all rejected: the next block is read
    assert dice.read_faces([bytes([255] * 32), bytes([3])], 6, 1) == (4,)


def test_a_real_roll_with_a_rejected_byte_skips_it() -> None:
    """The forced-rejection case end to end: the first roll of the vectors' game whose block 0
    has a byte of 252 or more among its first three gives the dice read past that byte."""
    wc, bc = dice.commitment(WHITE), dice.commitment(BLACK)
    for n in range(200):
        first, second = dice.roll_key(BLACK, n), dice.roll_key(WHITE, n)  # Black is the first player
        data = dice.block(first, second, GAME, n, 0)
        if any(byte >= 252 for byte in data[:3]):
            break
    else:  # pragma: no cover - 200 rolls without one is a 1-in-10^5 event, and the vectors are fixed
        pytest.fail("no roll with a rejected byte")
    taken = [byte % 6 + 1 for byte in data if byte < 252][:3]
    assert dice.roll_for(dice.roll_key(WHITE, n), dice.roll_key(BLACK, n), wc, bc, GAME, n, 6, 3) == tuple(taken)


def test_the_roll_off_gives_the_first_player_the_first_three_dice() -> None:
    wc, bc = dice.commitment(WHITE), dice.commitment(BLACK)
    w, b = dice.roll_key(WHITE, 0), dice.roll_key(BLACK, 0)
    six = dice.roll_for(w, b, wc, bc, GAME, 0, 6, 6)
    assert not dice.white_first(wc, bc)  # Black's commitment sorts first
    assert dice.rolloff_for(w, b, wc, bc, GAME, 0) == (six[3:], six[:3])
    # the key's order follows the commitments, not the colours: swapped colours, same dice
    assert dice.roll_for(b, w, bc, wc, GAME, 0, 6, 6) == six


@settings(max_examples=60, deadline=None)
@given(
    st.binary(min_size=32, max_size=32),
    st.binary(min_size=32, max_size=32),
    st.text(min_size=1, max_size=20).filter(lambda s: "\x00" not in s),
    st.integers(0, 4095),
    st.sampled_from([(6, 3), (6, 6), (10, 2)]),
)
def test_derived_dice_are_faces_of_their_die(a: bytes, b: bytes, game: str, n: int, kind: tuple[int, int]) -> None:
    sides, count = kind
    faces = dice.roll_faces(a, b, game, n, sides, count)
    assert len(faces) == count
    assert all((1 <= f <= 6) if sides == 6 else (0 <= f <= 9) for f in faces)


@settings(max_examples=5, deadline=None)
@given(st.binary(min_size=64, max_size=64), st.text(min_size=1, max_size=12).filter(lambda s: "\x00" not in s))
def test_over_many_rolls_every_face_is_equally_likely(keys: bytes, game: str) -> None:
    """2,000 rolls of a game's keys: a chi-square test of each die's faces passes (p > 1e-6,
    far below any real bias's p-value)."""
    d6 = [0] * 6
    d10 = [0] * 10
    for n in range(2000):
        for f in dice.roll_faces(keys[:32], keys[32:], game, n, 6, 3):
            d6[f - 1] += 1
        for f in dice.roll_faces(keys[:32], keys[32:], game, n, 10, 2):
            d10[f] += 1
    assert uniform_test(d6)[2] > 1e-6
    assert uniform_test(d10)[2] > 1e-6


@pytest.mark.parametrize(
    ("statistic", "df", "p"),
    [
        (3.841458820694124, 1, 0.05),
        (6.634896601021214, 1, 0.01),
        (11.070497693516351, 5, 0.05),
        (20.515005652432873, 5, 0.001),
        (16.918977604620448, 9, 0.05),
        (27.877164871256568, 9, 0.001),
        (0.5, 1, 0.4795001221869535),
        (9.0, 9, 0.43727418891201),
    ],
)
def test_chi_square_survival_matches_published_values(statistic: float, df: int, p: float) -> None:
    assert chi_square_sf(statistic, df) == pytest.approx(p, rel=1e-8)


@pytest.mark.parametrize("x", [0.01, 0.5, 1.0, 3.0, 10.0, 40.0, 200.0])
def test_chi_square_survival_matches_closed_forms(x: float) -> None:
    """df 2: e^(-x/2); df 1: erfc(sqrt(x/2)); df 4: e^(-x/2)(1 + x/2)."""
    assert chi_square_sf(x, 2) == pytest.approx(math.exp(-x / 2), rel=1e-9, abs=1e-300)
    assert chi_square_sf(x, 1) == pytest.approx(math.erfc(math.sqrt(x / 2)), rel=1e-8, abs=1e-300)
    assert chi_square_sf(x, 4) == pytest.approx(math.exp(-x / 2) * (1 + x / 2), rel=1e-9, abs=1e-300)


def test_gamma_q_edges() -> None:
    assert gamma_q(3.0, 0.0) == 1.0
    assert chi_square_sf(0.0, 5) == 1.0
    with pytest.raises(ValueError):
        gamma_q(0.0, 1.0)
    with pytest.raises(ValueError):
        chi_square_sf(1.0, 0)


def test_uniform_test_of_a_fair_and_a_loaded_die() -> None:
    assert uniform_test([10] * 6) == (0.0, 5, 1.0)
    statistic, df, p = uniform_test([40, 10, 10, 10, 10, 10])
    assert (statistic, df) == (50.0, 5) and p < 1e-6
