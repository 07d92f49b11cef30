"""Replay never raises: mutated logs, random text and random claims always end in diagnostics."""

from __future__ import annotations

from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sgcheck.diagnostics import Diagnostic
from sgcheck.replay.interpreter import ReplayOptions, replay_text

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "logs"
BASES = [
    (EXAMPLES / name).read_text(encoding="utf-8")
    for name in ("guide-example-a.sglog", "guide-example-b.sglog", "guide-walkthrough.sglog")
]
WORDS = [
    "1.",
    "2...",
    "upkeep:",
    "main1:",
    "battle:",
    "main2:",
    "end:",
    "summon Q d1",
    "move Ra1 a8",
    "attack Ra3 a5 roll 0 0",
    "convert 22",
    "teleport Ke1 e2",
    "break roll 6 6 6",
    "repair roll 1 1 1",
    "pass",
    "income 99",
    "cost 0",
    "lp -1",
    "hit",
    "capture",
    "result 1-0",
    "king white e8",
    "\n",
    " ",
]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), keep_going=st.booleans())
def test_mutated_logs_replay_without_raising(data: st.DataObject, keep_going: bool) -> None:
    text = data.draw(st.sampled_from(BASES))
    for _ in range(data.draw(st.integers(1, 5))):
        at = data.draw(st.integers(0, len(text)))
        piece = data.draw(st.sampled_from(WORDS))
        cut = data.draw(st.integers(0, 12))
        text = text[:at] + " " + piece + " " + text[at + cut :]
    result = replay_text(text, "m.sglog", ReplayOptions(keep_going=keep_going))
    assert all(isinstance(d, Diagnostic) for d in result.diagnostics)
    if not keep_going:
        assert sum(d.is_error for d in result.diagnostics) <= 1  # stops at the first error


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=300))
def test_random_text_replays_without_raising(text: str) -> None:
    result = replay_text(text, "r.sglog")
    assert result.diagnostics or result.state is not None  # a finding, or a game to summarise
