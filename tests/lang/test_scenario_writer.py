"""Writing scenarios (R24): the text ``scenario_text`` writes reads back to an equal model, for the
shipped scenarios, the scenario sections of the shipped manifests, built ones and generated ones;
a model the format cannot express is refused by name."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sgcheck.core.pieces import BLACK, KING, NON_KING_KINDS, SET_COUNTS, WHITE, Color, Kind
from sgcheck.core.scenario import NO_PIECES, Counts, MarkerSet, Scenario, SideSetup, WinCondition, WinKind
from sgcheck.core.squares import Square, parse_square
from sgcheck.lang.scenarios.scenario_loader import load_scenario, load_scenario_node
from sgcheck.lang.scenarios.writer import scenario_text
from sgcheck.lang.yaml.tree import YNode, compose

ROOT = Path(__file__).resolve().parents[2]
#: Every shipped scenario file but the one that makes each mistake on purpose (it has no model).
SHIPPED = sorted(p for p in (ROOT / "examples").rglob("*.scenario.yaml") if "broken" not in p.parts)
MANIFESTS = [p for p in sorted((ROOT / "examples").rglob("sgpack.yaml")) if "\nscenario:" in p.read_text()]


def sq(text: str) -> Square:
    return parse_square(text)


def round_trip(scenario: Scenario) -> Scenario:
    """The scenario written and read again, with nothing reported but warnings."""
    text = scenario_text(scenario)
    loaded = load_scenario(text, "written.scenario.yaml")
    errors = [f"{d.code} {d.message}" for d in loaded.diagnostics if d.is_error]
    assert errors == [], text
    assert loaded.scenario is not None
    return loaded.scenario


def test_there_are_shipped_scenarios_to_write() -> None:
    assert len(SHIPPED) >= 9 and len(MANIFESTS) >= 2


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.name)
def test_every_shipped_scenario_reads_back_equal(path: Path) -> None:
    loaded = load_scenario(path.read_text(encoding="utf-8"), str(path))
    assert loaded.scenario is not None
    assert round_trip(loaded.scenario) == loaded.scenario


@pytest.mark.parametrize("path", MANIFESTS, ids=lambda p: p.parent.name)
def test_every_manifest_scenario_reads_back_equal(path: Path) -> None:
    root = compose(path.read_text(encoding="utf-8"), str(path))
    assert isinstance(root, YNode) and isinstance(root.value, dict)
    loaded = load_scenario_node(root.value["scenario"], str(path), "scenario.")
    assert loaded.scenario is not None
    assert round_trip(loaded.scenario) == loaded.scenario


BUILT = {
    "the core's start": Scenario("Plain"),
    "a probe": Scenario(
        "Probe 7",
        sides=(
            SideSetup(lp=3, sp=41, pieces=((sq("e1"), KING), (sq("a3"), Kind.ROOK), (sq("d4"), Kind.QUEEN))),
            SideSetup(lp=999, sp=0, pieces=((sq("h8"), KING), (sq("a5"), Kind.PAWN))),
        ),
    ),
    "Gems written out": Scenario(
        "Gems",
        first=Color.BLACK,
        turn_limit=7,
        sides=(
            SideSetup(own=NO_PIECES, captured=(0, 0, 0, 1, 0), pieces=((sq("b2"), KING),)),
            SideSetup(own=(8, 2, 2, 1, 1), captured=(2, 0, 1, 0, 0), pieces=((sq("g7"), KING),)),
        ),
    ),
    "markers and every condition": Scenario(
        "Wells (test): 'all' of them, v1.2",
        description='He said "hold" \\ then\nleft\ttabs, a NEL\x85, a BOM\ufeff, an é, a 🜲 and \x07',
        turn_limit=30,
        sides=(SideSetup(pieces=((sq("e1"), KING), (sq("c3"), Kind.KNIGHT))), SideSetup()),
        markers=(
            MarkerSet("wells", (sq("c6"), sq("f6"), sq("c3"), sq("f3")), (BLACK, BLACK, WHITE, WHITE)),
            MarkerSet("yes", (sq("d4"), sq("e5")), (None, None)),
            MarkerSet("Null-2", (sq("a1"),), (None,)),
        ),
        conditions=(
            WinCondition(WinKind.BREAK_AND_CAPTURE),
            WinCondition(WinKind.BREAK_AND_CAPTURE, (Color.BLACK,)),
            WinCondition(WinKind.HOLD_MARKERS, (Color.WHITE,), markers="wells"),
            WinCondition(WinKind.HOLD_MARKERS, markers="yes"),
            WinCondition(WinKind.CAPTURED_VALUE, (Color.BLACK,), value=5),
        ),
        core_victory=False,
    ),
    "the core's win conditions, off, with a turn limit": Scenario("Off", turn_limit=1, core_victory=False),
}


@pytest.mark.parametrize("name", sorted(BUILT))
def test_built_scenarios_read_back_equal(name: str) -> None:
    assert round_trip(BUILT[name]) == BUILT[name]


def test_the_text_is_laid_out_as_the_examples() -> None:
    text = scenario_text(BUILT["Gems written out"])
    assert text == (
        'name: "Gems"\n'
        "first: black\n"
        "turn_limit: 7\n"
        "white:\n"
        "  lp: 20\n"
        "  sp: 0\n"
        "  gem:\n"
        "    own: {}\n"
        "    captured: {R: 1}\n"
        "  pieces: [Kb2]\n"
        "black:\n"
        "  lp: 20\n"
        "  sp: 0\n"
        "  gem:\n"
        "    own: {P: 8, N: 2, B: 2, R: 1, Q: 1}\n"
        "    captured: {P: 2, B: 1}\n"
        "  pieces: [Kg7]\n"
    )
    conditions = scenario_text(BUILT["markers and every condition"]).split("win:\n")[1]
    assert conditions == (
        "  core: false\n"
        "  conditions:\n"
        "    - break_and_capture: {}\n"
        "    - break_and_capture: {side: black}\n"
        "    - hold_markers: {set: wells, side: white}\n"
        '    - hold_markers: {set: "yes"}\n'
        "    - captured_value: {at_least: 5, side: black}\n"
    )


def test_a_modeline_only_when_asked() -> None:
    assert not scenario_text(BUILT["a probe"]).startswith("#")
    text = scenario_text(BUILT["a probe"], schema="../schemas/scenario.schema.json")
    assert text.startswith("# yaml-language-server: $schema=../schemas/scenario.schema.json\n")
    assert round_trip(BUILT["a probe"]) == load_scenario(text, "s.scenario.yaml").scenario


@pytest.mark.parametrize(
    ("scenario", "words"),
    [
        (Scenario("x", markers=(MarkerSet("m", (sq("a1"), sq("a2")), (None, Color.WHITE)),)), "neutral markers"),
        (
            Scenario("x", markers=(MarkerSet("m", (sq("a1"), sq("a8"), sq("a2")), (WHITE, BLACK, WHITE)),)),
            "White's markers apart",
        ),
        (Scenario("x", conditions=(WinCondition(WinKind.BREAK_AND_CAPTURE, ()),)), "not for no side"),
        (Scenario("x", conditions=(WinCondition(WinKind.HOLD_MARKERS),)), "needs marker set"),
        (Scenario("x", conditions=(WinCondition(WinKind.CAPTURED_VALUE, value=None),)), "needs value"),
        (Scenario("x", conditions=(WinCondition(WinKind.BREAK_AND_CAPTURE, value=3),)), "takes no value"),
    ],
)
def test_what_the_format_cannot_say_is_refused(scenario: Scenario, words: str) -> None:
    with pytest.raises(ValueError, match=words):
        scenario_text(scenario)


def test_values_the_schema_refuses_are_written_and_reported() -> None:
    """The writer writes what it is given; the loader says what is wrong with it."""
    loaded = load_scenario(scenario_text(Scenario("bad\nname", sides=(SideSetup(lp=1000), SideSetup()))), "b")
    assert loaded.scenario is None and {d.code for d in loaded.diagnostics} == {"SG-P032"}


# --- generated scenarios ---------------------------------------------------------------------------------

POOL = [kind for kind in NON_KING_KINDS for _ in range(SET_COUNTS[kind])]


@st.composite
def scenarios(draw: st.DrawFn) -> Scenario:
    """Scenarios the loader accepts: Kings in their camps, squares used once, armies within a set."""
    squares = draw(st.permutations(range(64)))
    free = [Square(s) for s in squares]
    boards: list[list[tuple[Square, Kind]]] = []
    for color in Color:
        camp = range(0, 32) if color is Color.WHITE else range(32, 64)
        placed: list[tuple[Square, Kind]] = []
        if draw(st.booleans()):
            king = next(s for s in free if s in camp)
            free.remove(king)
            placed.append((king, KING))
        kinds = draw(st.permutations(POOL))[: draw(st.integers(0, 5))]
        for kind in kinds:
            placed.append((free.pop(), kind))
        boards.append(list(draw(st.permutations(placed))))

    def counts(limit: list[int]) -> Counts:
        a, b, c, d, e = (draw(st.integers(0, max(0, n))) for n in limit)
        return (a, b, c, d, e)

    def on_board(color: Color) -> list[int]:
        return [sum(1 for _, k in boards[color] if k is kind) for kind in NON_KING_KINDS]

    def room(color: Color, held: Counts = NO_PIECES) -> list[int]:
        """How many more pieces of each kind of ``color`` there may be (its set, less the board and ``held``)."""
        return [SET_COUNTS[k] - b - h for k, b, h in zip(NON_KING_KINDS, on_board(color), held, strict=True)]

    captured = [counts(room(color.other)) for color in Color]
    sides = []
    for color in Color:
        own = counts(room(color, captured[color.other])) if draw(st.booleans()) else None
        sides.append(
            SideSetup(
                lp=draw(st.integers(0, 999)),
                sp=draw(st.integers(0, 100_000)),
                own=own,
                captured=captured[color],
                pieces=tuple(boards[color]),
            )
        )
    owners = st.sampled_from([None, Color.WHITE, Color.BLACK])
    marker_sets = []
    for index in range(draw(st.integers(0, 2))):
        chosen = draw(st.lists(st.integers(0, 63), min_size=1, max_size=4, unique=True))
        owner = draw(owners)
        if owner is None:
            marker_sets.append(MarkerSet(f"set{index}", tuple(Square(s) for s in chosen), (None,) * len(chosen)))
        else:
            split = draw(st.integers(0, len(chosen)))
            owned = (owner,) * split + (owner.other,) * (len(chosen) - split)
            marker_sets.append(MarkerSet(f"set{index}", tuple(Square(s) for s in chosen), owned))
    sides_of = st.sampled_from([(Color.WHITE,), (Color.BLACK,), (Color.WHITE, Color.BLACK)])
    kinds = [WinKind.BREAK_AND_CAPTURE, WinKind.CAPTURED_VALUE] + ([WinKind.HOLD_MARKERS] if marker_sets else [])
    conditions = []
    for kind in draw(st.lists(st.sampled_from(kinds), max_size=3)):
        markers = draw(st.sampled_from(marker_sets)).name if kind is WinKind.HOLD_MARKERS else None
        value = draw(st.integers(1, 1000)) if kind is WinKind.CAPTURED_VALUE else None
        conditions.append(WinCondition(kind, draw(sides_of), markers, value))
    return Scenario(
        name=draw(st.from_regex(r"[A-Za-z0-9][A-Za-z0-9 ()'._,:-]{0,20}", fullmatch=True)),
        sides=(sides[0], sides[1]),
        first=draw(st.sampled_from(list(Color))),
        turn_limit=draw(st.none() | st.integers(1, 100_000)),
        markers=tuple(marker_sets),
        conditions=tuple(conditions),
        core_victory=draw(st.booleans()),
        description=draw(st.text(max_size=40)),
    )


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(scenarios())
def test_generated_scenarios_read_back_equal(scenario: Scenario) -> None:
    assert round_trip(scenario) == scenario
