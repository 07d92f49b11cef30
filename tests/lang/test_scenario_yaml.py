"""Reading scenario files (R24): the model they load into, and every mistake reported at its
YAML line:col; hostile and odd inputs never raise."""

from __future__ import annotations

import pytest

from sgcheck.core.pieces import Color, Kind
from sgcheck.core.scenario import WinKind
from sgcheck.core.squares import parse_square
from sgcheck.lang.scenarios.scenario_loader import load_scenario
from sgcheck.lang.source import SCENARIO_LIMIT, decode
from sgcheck.lang.yaml.tree import MAX_DEPTH
from sgcheck.project.kinds import is_scenario_file

GOOD = """\
# yaml-language-server: $schema=../../schemas/scenario.schema.json
name: Good
first: black
turn_limit: 12
white:
  lp: 25
  sp: 10
  gem: {own: {P: 8, N: 2}, captured: {R: 1}}
  pieces: [Ke1, Ra3]
black:
  pieces: [Pd5]
markers:
  wells: {white: [c3, f3], black: [c6, f6]}
  centre: [d4, e4]
win:
  core: false
  conditions:
    - break_and_capture: {side: white}
    - hold_markers: {set: wells}
    - captured_value: {at_least: 5, side: black}
"""


def test_a_scenario_loads_into_the_cores_model() -> None:
    loaded = load_scenario(GOOD, "good.scenario.yaml")
    assert loaded.diagnostics == () and loaded.scenario is not None
    s = loaded.scenario
    assert (s.name, s.first, s.turn_limit, s.core_victory) == ("Good", Color.BLACK, 12, False)
    white = s.side(Color.WHITE)
    assert (white.lp, white.sp, white.own, white.captured) == (25, 10, (8, 2, 0, 0, 0), (0, 0, 0, 1, 0))
    assert white.king == parse_square("e1") and (parse_square("a3"), Kind.ROOK) in white.pieces
    assert s.side(Color.BLACK).king is None  # the log places it
    wells = s.marker_set("wells")
    assert wells is not None and wells.to_hold(Color.WHITE) == (parse_square("c6"), parse_square("f6"))
    kinds = [(c.kind, c.sides) for c in s.conditions]
    assert kinds == [
        (WinKind.BREAK_AND_CAPTURE, (Color.WHITE,)),
        (WinKind.HOLD_MARKERS, (Color.WHITE, Color.BLACK)),
        (WinKind.CAPTURED_VALUE, (Color.BLACK,)),
    ]
    assert s.source == "good.scenario.yaml"


def test_an_empty_scenario_with_a_name_is_the_cores_setup() -> None:
    loaded = load_scenario("name: Plain\n", "p.scenario.yaml")
    assert loaded.scenario is not None and loaded.scenario.core_victory and loaded.scenario.conditions == ()


def test_scenario_files_are_named_so() -> None:
    assert is_scenario_file("x/Gem-Siege.Scenario.YAML") and is_scenario_file("a.scenario.yml")
    assert not is_scenario_file("a.sgcard.yaml") and not is_scenario_file("scenario.yaml")


#: (case, YAML, code, line, column, words in the message)
BAD = [
    ("empty", "", "SG-P032", 1, 1, "holds no scenario"),
    ("comments only", "# nothing\n", "SG-P032", 1, 1, "holds no scenario"),
    ("a list", "- name: x\n", "SG-P032", 1, 1, "but this is a list"),
    ("a value", "just text\n", "SG-P032", 1, 1, "a single value"),
    ("no name", "white: {lp: 3}\n", "SG-P032", 1, 1, "'name' is missing"),
    ("unknown key", "name: x\nfirts: black\n", "SG-P032", 2, 1, "unknown key 'firts'; did you mean 'first'?"),
    ("bad first", "name: x\nfirst: red\n", "SG-P032", 2, 8, "'red' is not one of"),
    ("zero limit", "name: x\nturn_limit: 0\n", "SG-P032", 2, 13, "less than the minimum of 1"),
    ("lp 1000", "name: x\nwhite: {lp: 1000}\n", "SG-P032", 2, 13, "greater than the maximum of 999"),
    ("too many", "name: x\nwhite: {gem: {own: {Q: 2}}}\n", "SG-P032", 2, 24, "greater than the maximum of 1"),
    ("bad piece", "name: x\nwhite: {pieces: [Xa1]}\n", "SG-P032", 2, 18, "a piece letter (K Q R B N P)"),
    ("long number", "name: x\nwhite: {sp: 1234567890123}\n", "SG-P032", 2, 13, "has 13 digits; at most 9"),
    (
        "two conditions in one",
        "name: x\nwin: {conditions: [{break_and_capture: {}, captured_value: {at_least: 1}}]}\n",
        "SG-P032",
        2,
        20,
        "exactly one key",
    ),
    ("no condition", "name: x\nwin: {conditions: [{}]}\n", "SG-P032", 2, 20, "exactly one key"),
    ("hold without set", "name: x\nwin: {conditions: [{hold_markers: {}}]}\n", "SG-P032", 2, 35, "'set' is missing"),
    ("tag", "name: !!python/object:os.system x\n", "SG-P024", 1, 7, "not allowed"),
    ("yaml syntax", "name: [x\n", "SG-P024", 2, 1, "YAML syntax error"),
    ("duplicate key", "name: x\nname: y\n", "SG-P024", 2, 1, "appears twice"),
    ("off the board", "name: x\nwhite: {pieces: [Ke1, Ri9]}\n", "SG-P033", 2, 23, "i9 is off the board"),
    (
        "rank 0",
        "name: x\nmarkers: {m: [a0]}\nwin: {conditions: [{hold_markers: {set: m}}]}\n",
        "SG-P033",
        2,
        15,
        "a0 is off the board",
    ),
    (
        "two pieces",
        "name: x\nwhite: {pieces: [Ra3]}\nblack: {pieces: [Pa3]}\n",
        "SG-P033",
        3,
        18,
        "two pieces on a3: the Black Pawn, and the White Rook already stands there",
    ),
    ("two kings", "name: x\nwhite: {pieces: [Ke1, Kd1]}\n", "SG-P033", 2, 23, "White King is placed twice"),
    ("marker twice", "name: x\nmarkers: {m: [d4, d4]}\n", "SG-P033", 2, 19, "d4 is listed twice"),
    ("king outside camp", "name: x\nblack: {pieces: [Ke4]}\n", "SG-S103", 2, 18, "must start in Black's camp"),
    (
        "army",
        "name: x\nwhite: {pieces: [Qd1]}\nblack: {gem: {captured: {Q: 1}}}\n",
        "SG-P034",
        2,
        1,
        "White would have 2 Queens (1 on the board, 0 in its own Gem, 1 in Black's Gem); a side owns 1",
    ),
    ("army own", "name: x\nblack: {gem: {own: {P: 8}}, pieces: [Pa7]}\n", "SG-P034", 2, 1, "Black would have 9 Pawns"),
    (
        "unknown set",
        "name: x\nmarkers: {wells: [c3]}\nwin: {conditions: [{hold_markers: {set: well}}]}\n",
        "SG-P035",
        3,
        41,
        "'well', which the scenario does not define (its sets: 'wells')",
    ),
    ("no sets", "name: x\nwin: {conditions: [{hold_markers: {set: well}}]}\n", "SG-P035", 2, 41, "(its sets: none)"),
    (
        "too much value",
        "name: x\nwin: {conditions: [{captured_value: {at_least: 40}}]}\n",
        "SG-P036",
        2,
        20,
        "all of Black's pieces are worth 39, less than 40",
    ),
    (
        "nothing to capture",
        "name: x\nblack: {gem: {own: {}}}\nwin: {conditions: [{break_and_capture: {side: white}}]}\n",
        "SG-P036",
        3,
        20,
        "Black has no piece but its King",
    ),
    (
        "too many markers",
        "name: x\nwhite: {gem: {own: {}}}\nmarkers: {m: [a1, a2, a3]}\n"
        "win: {conditions: [{hold_markers: {set: m, side: white}}]}\n",
        "SG-P036",
        4,
        20,
        "with only 1 piece",
    ),
    ("never ends", "name: x\nwin: {core: false}\n", "SG-P036", 2, 13, "the game can never end"),
    (
        "won at the start",
        "name: x\nblack: {gem: {captured: {N: 1}}}\nwin: {conditions: [{captured_value: {at_least: 2}}]}\n",
        "SG-P036",
        3,
        20,
        "Black already wins by reaching captured value 2: Black's Gem starts with captured value 3",
    ),
    (
        "markers held at the start",
        "name: x\nwhite: {pieces: [Nc6]}\nmarkers: {w: {black: [c6]}}\n"
        "win: {conditions: [{hold_markers: {set: w, side: white}}]}\n",
        "SG-P036",
        4,
        20,
        "White's pieces start on every marker of 'w'",
    ),
]


@pytest.mark.parametrize(("case", "text", "code", "line", "column", "words"), BAD, ids=[c[0] for c in BAD])
def test_a_bad_scenario_is_reported_where_it_is_wrong(
    case: str, text: str, code: str, line: int, column: int, words: str
) -> None:
    loaded = load_scenario(text, "bad.scenario.yaml")
    found = [d for d in loaded.diagnostics if d.code == code]
    assert found, [(d.code, d.message) for d in loaded.diagnostics]
    first = found[0]
    assert first.span is not None and (first.span.line, first.span.column) == (line, column), (
        first.message,
        first.span,
    )
    assert words in first.message, first.message
    if first.is_error:
        assert loaded.scenario is None  # a scenario with an error is never played
    else:
        assert loaded.scenario is not None  # a warning leaves it playable


def test_the_rules_section_is_handed_to_the_contract_untouched() -> None:
    loaded = load_scenario("name: x\nrules: {cost.move: 3}\nset: {king.hp: 30}\n", "r.scenario.yaml")
    assert [key for key, _ in loaded.rules] == ["rules", "set"]
    assert loaded.diagnostics == ()  # the loader reports nothing; the contract checker does


# --- inputs that must never raise -------------------------------------------------------------------


def read(data: bytes) -> object:
    source = decode(data, "x.scenario.yaml", limit=SCENARIO_LIMIT)
    if not hasattr(source, "text"):
        return source  # a diagnostic: binary, not UTF-8, too large
    return load_scenario(source.text, "x.scenario.yaml")  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("data", "code"),
    [
        (b"\x00\x01name: x", "SG-P005"),
        (b"name: \xff\xfe\xfd", "SG-P004"),
        (b"name: x\n" + b"#" * 1_100_000, "SG-P010"),
        (b"[" * 10_000 + b"]" * 10_000, "SG-P026"),
        (
            b"a: &a [1, 1]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\n"
            + b"".join(
                f"c{i}: &c{i} [{', '.join(['*b' if i == 0 else f'*c{i - 1}'] * 10)}]\n".encode() for i in range(6)
            ),
            "SG-P025",
        ),
    ],
    ids=["binary", "not utf-8", "huge", "deeply nested", "alias bomb"],
)
def test_hostile_inputs_are_reported_not_raised(data: bytes, code: str) -> None:
    result = read(data)
    codes = [result.code] if hasattr(result, "code") else [d.code for d in result.diagnostics]  # type: ignore[attr-defined]
    assert code in codes


def test_crlf_and_a_bom_read_as_plain_text() -> None:
    data = ("\ufeff" + GOOD).replace("\n", "\r\n").encode("utf-8")
    result = read(data)
    assert getattr(result, "scenario", None) is not None


def test_nesting_just_under_the_limit_is_a_schema_error_not_a_crash() -> None:
    text = "name: x\nwhite: " + "[" * (MAX_DEPTH - 2) + "]" * (MAX_DEPTH - 2) + "\n"
    loaded = load_scenario(text, "n.scenario.yaml")
    assert [d.code for d in loaded.diagnostics] == ["SG-P032"]
