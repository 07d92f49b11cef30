"""``sgcheck fmt`` on YAML card files: one indentation, the same cards, every comment kept,
idempotent; a file that does not read is left as it is."""

from __future__ import annotations

import io
import random
import re
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sgcheck.cli import main
from sgcheck.lang.cards import writer as W
from sgcheck.lang.cards.format_yaml import format_yaml_text
from sgcheck.lang.cards.parser import parse_cards
from sgcheck.lang.cards.yaml_loader import load_card_yaml
from sgcheck.lang.formatting import shape
from tests.cardgen import cards

ROOT = Path(__file__).resolve().parents[2]
YAML_EXAMPLES = sorted((ROOT / "examples").rglob("*.sgcard.yaml"))
COMMENT = re.compile(r"(?:^|(?<=\s))#[^\n]*", re.MULTILINE)

MESSY = """\
# yaml-language-server: $schema=card.schema.json
cards:
- name: Gift      # a free gift
  kind: spell
  cost:   {SP: 2}
  phase: main1
  effects:
  -     gain: {amount: 1, resource: LP}@@
        limit: once per turn
# between the cards
- name: "Hawk"
  kind: relic
  mode: passive
  effects: [{to_hit: 10}]
""".replace("@@", "   ")  # trailing blanks, dropped


def formatted(text: str) -> str:
    out = format_yaml_text(text, "t.sgcard.yaml")
    assert isinstance(out, str), out
    assert format_yaml_text(out, "t.sgcard.yaml") == out, "not idempotent"
    assert shape(load_card_yaml(out, "t.sgcard.yaml").cards) == shape(load_card_yaml(text, "t.sgcard.yaml").cards)
    assert sorted(COMMENT.findall(out)) == sorted(COMMENT.findall(text))
    return out


def test_the_canonical_layout_of_a_yaml_card_file() -> None:
    out = formatted(MESSY)
    assert out == (
        "# yaml-language-server: $schema=card.schema.json\n"
        "cards:\n"
        "  - name: Gift    # a free gift\n"  # a comment keeps its column
        "    kind: spell\n"
        "    cost: {SP: 2}\n"
        "    phase: main1\n"
        "    effects:\n"
        "      - gain: {amount: 1, resource: LP}\n"
        "        limit: once per turn\n"
        "# between the cards\n"
        '  - name: "Hawk"\n'
        "    kind: relic\n"
        "    mode: passive\n"
        "    effects: [to_hit: 10]\n"  # a one-pair mapping in a flow list, as YAML allows
    )


@pytest.mark.parametrize("path", YAML_EXAMPLES, ids=lambda p: p.name)
def test_shipped_yaml_cards_are_canonical_or_left_alone(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    out = format_yaml_text(text, path.name)
    if "broken" in path.parts:
        assert isinstance(out, list) and out  # does not read: its errors, the file untouched
    else:
        assert out == text  # the shipped examples are written in the canonical layout


def relaid(text: str, rng: random.Random) -> str:
    """YAML as people lay it out: another indentation (each mapping 2 to 4 deeper, dashes at
    0 to 2), and comments at the end of some lines."""
    from ruamel.yaml import YAML

    yaml = YAML(typ="rt", pure=True)
    offset = rng.randint(0, 2)
    yaml.indent(mapping=rng.randint(2, 4), sequence=offset + rng.randint(2, 3), offset=offset)
    out = io.StringIO()
    yaml.dump(yaml.load(text), out)
    lines = out.getvalue().splitlines()
    noted = [
        line + f"   # note {n}" if rng.random() < 0.2 and not line.endswith(("|", ">")) else line
        for n, line in enumerate(lines)
    ]
    return "\n".join(noted) + "\n"


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(cards(), min_size=1, max_size=3), st.integers(0, 1000))
def test_generated_yaml_cards_keep_their_meaning_and_comments(sources: list[str], seed: int) -> None:
    parsed = parse_cards("\n".join(sources), "g.sgcard")
    if any(d.is_error for d in parsed.diagnostics):
        return
    text = relaid(W.dump_yaml(W.yaml_data(parsed.cards)), random.Random(seed))
    if any(d.is_error for d in load_card_yaml(text, "g.sgcard.yaml").diagnostics):
        return  # a comment inside a multi-line text that no longer reads: nothing to format
    out = format_yaml_text(text, "g.sgcard.yaml")
    if isinstance(out, list):  # only a comment the round trip cannot keep leaves a valid file as it is
        assert [d.code for d in out] == ["SG-P039"]
        span = out[0].span
        assert span is not None and text[span.offset] == "#"
        before = text[: span.offset]
        assert before.count("{") > before.count("}") or before.count("[") > before.count("]")  # in a flow collection
        return
    formatted(text)


def test_a_comment_inside_a_flow_collection_leaves_the_file_as_it_is(tmp_path: Path) -> None:
    """ruamel.yaml keeps no comment inside a flow collection broken over lines: SG-P039 at the
    comment, the file untouched, exit 1, and never an internal error."""
    text = (
        "cards:\n"
        "- name: Ember\n"
        "  kind: relic\n"
        "  mode: passive\n"
        "  effects:\n"
        "  - gain: {amount: 1,   # one is enough\n"
        "      resource: SP}\n"
    )
    out = format_yaml_text(text, "e.sgcard.yaml")
    assert isinstance(out, list) and [d.code for d in out] == ["SG-P039"]
    span = out[0].span
    assert span is not None and (span.line, span.column) == (6, 25) and span.end_column == 25 + len("# one is enough")
    path = tmp_path / "e.sgcard.yaml"
    path.write_text(text, encoding="utf-8")
    for args in (["fmt", str(path)], ["fmt", "--check", str(path)]):
        result = CliRunner().invoke(main, args)
        assert result.exit_code == 1, result.output
        assert f"{path}:6:25: SG-P039" in result.stderr and "internal error" not in result.stderr
    assert path.read_text(encoding="utf-8") == text


def test_a_yaml_syntax_error_leaves_the_file_and_exits_1(tmp_path: Path) -> None:
    broken = tmp_path / "b.sgcard.yaml"
    broken.write_text("cards:\n  - name: [unclosed\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["fmt", str(broken)])
    assert result.exit_code == 1 and "SG-P02" in result.stderr
    assert broken.read_text(encoding="utf-8") == "cards:\n  - name: [unclosed\n"


def test_fmt_rewrites_yaml_cards_found_in_a_folder(tmp_path: Path) -> None:
    (tmp_path / "c.sgcard.yaml").write_bytes(MESSY.replace("\n", "\r\n").encode("utf-8"))
    assert CliRunner().invoke(main, ["fmt", "--check", str(tmp_path)]).exit_code == 1
    assert CliRunner().invoke(main, ["fmt", str(tmp_path)]).exit_code == 0
    data = (tmp_path / "c.sgcard.yaml").read_bytes()
    assert data.count(b"\r\n") == data.count(b"\n")  # CRLF kept
    assert data.decode("utf-8").replace("\r\n", "\n") == formatted(MESSY)
    assert CliRunner().invoke(main, ["fmt", "--check", str(tmp_path)]).exit_code == 0
