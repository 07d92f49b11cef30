"""Hypothesis strategies for well-formed cards in the card language (docs/cards.md).

:func:`card_sources` draws the source text of one card: a Relic (passive or activated) or a
Spell, with a cost, sometimes a phase, and one to three effects drawn from the whole effect
vocabulary of the grammar (``grammar/sgcard.lark``): modifiers, resources, extra actions,
direct effects, triggers with and without a price, conditions, durations and use limits.
Now and then an effect the contract forbids in every game is drawn (an extra, skipped or
swapped phase, ``set`` of a core number, an effect on a King, an unlimited amount, extra
activations), so some cards check clean and some do not. Numbers stay small and realistic
(to-hit -20..+30, damage -1..+3, costs 0..8), close to the caps of core §4.5.

Every wording the grammar accepts is reachable, so the same cards can test both front-ends
(tests/lang/test_card_parity.py): piece classes in any case, singular or plural; ``sp`` as
well as ``SP``; ``opponent`` for ``enemy``; ``gains``/``loses``; ``extra attacks`` without a
count; ``set`` with and without ``to``; quoted text with escapes; and the newer wordings (``cost
summon distance -1``, ``opponent cost move +1``, ``double damage``, ``halve cost summon``,
``convert 2 SP to 1 LP``, ``extra turn``, ``next turn``, ``until your next turn``).

Every effect is written on a line of its own, so a finding can be matched to its effect by
line. Every source parses without a syntax or structure error (tests/contract/test_one_semantics.py).
"""

from __future__ import annotations

from hypothesis import strategies as st

from sgcheck.core.parameters import PARAMETERS

PHASES = ("upkeep", "main1", "main", "battle", "main2", "end")
PIECE_WORDS = ("King", "Queen", "Rook", "Bishop", "Knight", "Pawn")
#: Target words that never include the King (``pieces`` does: R19).
NON_KING = ("Queen", "Queens", "Rook", "Rooks", "Bishop", "Bishops", "Knight", "Knights", "Pawn", "Pawns")
SIDES = ("own", "enemy", "opponent")
EVENTS = ("capture", "captured", "hit", "miss", "attacked", "summon", "teleport", "move")
COST_KINDS = ("move", "attack", "summon", "teleport", "distance", "break", "repair")
EXTRA_KINDS = ("move", "attack", "summon", "teleport", "break", "repair")
CMPS = ("<", "<=", ">", ">=", "=", "==", "!=")
#: What a ``per`` amount counts, in every wording of the grammar.
COUNTABLES = (
    *(f"piece in {side} gem" for side in SIDES),
    *(f"{side} {pieces} on board" for side in SIDES for pieces in ("piece", "pieces")),
)


@st.composite
def _spelt(draw: st.DrawFn, word: str) -> str:
    """A piece word as written (the grammar takes any case): ``Rook``, ``rook``, ``ROOK``."""
    return draw(st.sampled_from((word, word, word.lower(), word.upper())))


def _signed(value: int, *, bare: bool = False) -> str:
    """``+10``, ``-5``; a positive number may go without its sign (``10``)."""
    return str(value) if bare and value >= 0 else f"{value:+d}"


@st.composite
def _number(draw: st.DrawFn, low: int, high: int) -> str:
    value = draw(st.integers(low, high))
    return _signed(value, bare=draw(st.booleans()))


@st.composite
def _resource(draw: st.DrawFn) -> str:
    return draw(st.sampled_from(("SP", "LP", "SP", "LP", "sp", "lp", "Sp")))


@st.composite
def _cost_items(draw: st.DrawFn, high: int = 8) -> str:
    """``3 SP``, ``2 SP + 1 LP``, ``4`` (any mix, R05)."""
    items = []
    for _ in range(draw(st.integers(1, 2))):
        amount = draw(st.integers(0, high))
        resource = draw(st.sampled_from(("", " SP", " LP", " sp")))
        items.append(f"{amount}{resource}")
    return " + ".join(items)


@st.composite
def _sp(draw: st.DrawFn) -> str:
    return draw(st.sampled_from(("SP", "SP", "sp")))


@st.composite
def _cost_kinds(draw: st.DrawFn) -> str:
    """``move``, or a distance discount on one action: ``summon distance`` (not the conversion's cost)."""
    if draw(st.integers(0, 3)) == 0:
        return f"{draw(st.sampled_from(('move', 'attack', 'summon', 'teleport')))} distance"
    return draw(st.sampled_from(COST_KINDS))


@st.composite
def _target(draw: st.DrawFn, *, king: bool = False) -> str:
    """``enemy Rook``, ``own Pawns``; with ``king`` the King may be named (or ``pieces``)."""
    side = draw(st.sampled_from(SIDES))
    words = (*NON_KING, "King", "Kings", "pieces", "piece") if king else NON_KING
    return f"{side} {draw(_spelt(draw(st.sampled_from(words))))}"


@st.composite
def _scope(draw: st.DrawFn) -> str:
    """Whose attacks a modifier changes: the holder's (default) or the enemy's on the holder's pieces."""
    return draw(st.sampled_from(("", "", "", " on own attacks", " on enemy attacks", " on opponent attacks")))


@st.composite
def _quantity(draw: st.DrawFn, *, unlimited: bool) -> str:
    kind = draw(st.sampled_from(("fixed", "fixed", "fixed", "per", "scaled") + (("unlimited",) if unlimited else ())))
    resource = draw(_resource())
    if kind == "fixed":
        return f"{draw(st.integers(0, 6))} {resource}"
    if kind == "per":
        return f"{draw(st.integers(1, 2))} {resource} per {draw(st.sampled_from(COUNTABLES))}"
    if kind == "scaled":
        factor = draw(st.sampled_from(("", " / 2", " x 2", " * 3")))
        return f"{resource} equal to {draw(st.sampled_from(SIDES))} {draw(_resource())}{factor}"
    return f"unlimited {resource}"


# --- actions --------------------------------------------------------------------------------------


@st.composite
def _attack_action(draw: st.DrawFn) -> str:
    """What changes an attack: to-hit, damage, reductions, rerolls (core §4.5)."""
    choice = draw(st.sampled_from(("to_hit", "to_hit", "to_hit", "damage", "damage", "reduce", "reroll")))
    if choice == "to_hit":
        word = draw(st.sampled_from(("to_hit", "to-hit")))
        return f"{word} {draw(_number(-20, 30))}{draw(_scope())}"
    if choice == "damage":
        return f"damage {draw(_number(-1, 3))}{draw(_scope())}"
    if choice == "reduce":
        by = draw(st.sampled_from(("by ", "")))
        on = draw(st.sampled_from(("on", "to")))
        return f"reduce damage {by}{draw(st.integers(0, 3))} {on} {draw(_target(king=draw(st.booleans())))}"
    word = draw(st.sampled_from(("reroll", "reroll accuracy", "advantage", "advantage accuracy")))
    times = draw(st.sampled_from(("", "", "", " 1 times", " 2 times")))
    return f"{word}{times}{draw(_scope())}"


@st.composite
def _other_action(draw: st.DrawFn) -> str:
    """Everything else the contract allows: costs, resources, extra actions, direct effects."""
    choice = draw(
        st.sampled_from(
            ("cost", "cost", "gain", "gain", "steal", "extra", "deny", "deal", "deal", "capture", "scale", "exchange")
        )
    )
    if choice == "cost":
        resource = draw(st.sampled_from(("", "", " SP", " LP")))
        who = draw(st.sampled_from(("", "", "", "opponent ")))
        return f"{who}cost {draw(_cost_kinds())} {draw(_number(-3, 2))}{resource}"
    if choice == "scale":
        verb = draw(st.sampled_from(("double", "halve")))
        if draw(st.booleans()):
            return f"{verb} damage{draw(_scope())}"
        return f"{draw(st.sampled_from(('', '', 'opponent ')))}{verb} cost {draw(_cost_kinds())}"
    if choice == "exchange":
        # SP into LP at the core's rate (2 SP for 1 LP, R16), or LP into SP at any rate
        if draw(st.booleans()):
            lp = draw(st.integers(1, 3))
            return f"convert {2 * lp} {draw(_sp())} to {lp} LP"
        return f"convert {draw(st.integers(1, 4))} LP to {draw(st.integers(1, 4))} {draw(_sp())}"
    if choice == "gain":
        verb = draw(
            st.sampled_from(("gain", "lose", "opponent loses", "opponent gains", "gains", "loses", "opponent lose"))
        )
        return f"{verb} {draw(_quantity(unlimited=False))}"
    if choice == "steal":
        return f"steal {draw(_quantity(unlimited=False))}"
    if choice == "extra":
        count = draw(st.sampled_from(("", "", "1 ", "2 ", "unlimited ")))
        kind = draw(st.sampled_from(EXTRA_KINDS))
        plural = "s" if count in ("2 ", "unlimited ") else draw(st.sampled_from(("", "", "s")))
        phase = draw(st.sampled_from(("", *(f" in {p}" for p in PHASES))))
        return f"extra {count}{kind}{plural}{phase}"
    if choice == "deny":
        return "deny repair"
    if choice == "deal":
        return f"deal {draw(st.integers(1, 3))} damage to {draw(_target())}"
    verb = draw(st.sampled_from(("capture", "convert")))
    return f"{verb} {draw(_target())}"


@st.composite
def _forbidden_action(draw: st.DrawFn) -> str:
    """What the contract forbids in every game (core §8, R17, R19): replay refuses it when played."""
    choice = draw(
        st.sampled_from(("phase", "skip", "swap", "set", "king", "unlimited", "activation", "turn", "conversion"))
    )
    if choice == "turn":
        return "extra turn"
    if choice == "conversion":
        # the conversion of core §2 at another rate than 2 SP for 1 LP (R16), or a modifier on it
        if draw(st.booleans()):
            return f"cost convert {draw(_number(-2, 2))}"
        lp = draw(st.integers(1, 3))
        return f"convert {draw(st.sampled_from((2 * lp + 1, lp, 4 * lp)))} SP to {lp} LP"
    if choice == "phase":
        name = draw(st.sampled_from(("movement", "battle", "main1", "Reckoning", "Main2", "night-watch", "after")))
        after = draw(st.sampled_from(("", *(f" after {p}" for p in PHASES))))
        return f"extra phase {name}{after}"
    if choice == "skip":
        return f"skip {draw(st.sampled_from(PHASES))}"
    if choice == "swap":
        return f"swap {draw(st.sampled_from(PHASES))} with {draw(st.sampled_from(PHASES))}"
    if choice == "set":
        to = draw(st.sampled_from(("to ", "to ", "")))
        return f"set {draw(st.sampled_from(sorted(PARAMETERS)))} {to}{draw(st.integers(0, 30))}"
    if choice == "king":
        verb = draw(st.sampled_from(("deal 2 damage to", "capture", "convert")))
        word = draw(_spelt(draw(st.sampled_from(("King", "Kings", "pieces", "piece")))))
        return f"{verb} {draw(st.sampled_from(SIDES))} {word}"
    if choice == "unlimited":
        verb = draw(st.sampled_from(("gain", "opponent loses", "steal")))
        return f"{verb} unlimited {draw(_resource())}"
    count = draw(st.sampled_from(("", "2 ", "unlimited ")))
    return f"extra {count}activation{'s' if count else ''}"


# --- suffixes and triggers ------------------------------------------------------------------------


@st.composite
def _trigger(draw: st.DrawFn) -> str:
    """``on hit:``, ``on capture pay 1 SP:``, ``at upkeep:``, ``on gain SP:``."""
    pay = draw(st.sampled_from(("", "", "", f" pay {draw(_cost_items(high=3))}")))
    kind = draw(st.sampled_from(("event", "event", "event", "phase", "resource")))
    if kind == "event":
        return f"on {draw(st.sampled_from(EVENTS))}{pay}: "
    if kind == "phase":
        return f"at {draw(st.sampled_from(PHASES))}{pay}: "
    verb = draw(st.sampled_from(("gain", "lose", "gains", "loses")))
    return f"on {verb} {draw(_resource())}{pay}: "


@st.composite
def _predicate(draw: st.DrawFn) -> str:
    choice = draw(st.sampled_from(("piece", "piece", "piece", "distance", "distance", "camp", "gem", "resource")))
    if choice == "piece":
        role = draw(st.sampled_from(("attacker", "target")))
        negated = draw(st.sampled_from(("", "", "not ")))
        words = (*PIECE_WORDS, *(f"{word}s" for word in PIECE_WORDS), "pieces", "piece")
        kinds = draw(st.lists(st.sampled_from(words), min_size=1, max_size=2))
        return f"{role} is {negated}{' or '.join(draw(_spelt(kind)) for kind in kinds)}"
    if choice == "distance":
        return f"distance {draw(st.sampled_from(CMPS))} {draw(st.integers(1, 7))}"
    if choice == "camp":
        role = draw(st.sampled_from(("attacker", "target")))
        negated = draw(st.sampled_from(("", "not ")))
        return f"{role} {negated}in {draw(st.sampled_from(SIDES))} camp"
    if choice == "gem":
        verb = draw(st.sampled_from(("is ", "")))
        return f"{draw(st.sampled_from(SIDES))} gem {verb}{draw(st.sampled_from(('broken', 'intact')))}"
    side = draw(st.sampled_from(SIDES))
    return f"{side} {draw(_resource())} {draw(st.sampled_from(CMPS))} {draw(st.integers(0, 20))}"


@st.composite
def _suffixes(draw: st.DrawFn) -> str:
    """A condition, a duration and a use limit, each at most once, in any order."""
    found: list[str] = []
    if draw(st.integers(0, 2)) == 0:
        predicates = draw(st.lists(_predicate(), min_size=1, max_size=3))
        found.append(f"{draw(st.sampled_from(('when', 'if')))} {' and '.join(predicates)}")
    if draw(st.integers(0, 2)) == 0:
        found.append(
            draw(
                st.sampled_from(
                    (
                        "this attack",
                        "this turn",
                        "for 1 turn",
                        "for 2 turns",
                        "for 1 turns",
                        "next turn",
                        "until your next turn",
                        "permanent",
                        "permanently",
                    )
                )
            )
        )
    if draw(st.integers(0, 4)) == 0:
        times = draw(st.sampled_from(("once", "1", "2")))
        found.append(f"limit {times} per {draw(st.sampled_from(('turn', 'game')))}")
    return "".join(f" {s}" for s in draw(st.permutations(found)))


@st.composite
def effect_sources(draw: st.DrawFn) -> str:
    """One ``effect`` clause: an optional trigger, an action, optional suffixes."""
    kind = draw(st.integers(0, 19))
    if kind < 9:
        action = draw(_attack_action())
    elif kind < 13:
        # on-hit damage, mostly to the attacked piece: part of the hit, counted toward +2 per hit (R23)
        side = draw(st.sampled_from(("enemy", "enemy", "opponent", "own")))
        action = f"deal {draw(st.integers(1, 3))} damage to {side} {draw(_spelt(draw(st.sampled_from(NON_KING))))}"
        return f"effect on hit{draw(st.sampled_from(('', ' pay 1 SP')))}: {action}{draw(_suffixes())}"
    elif kind < 18:
        action = draw(_other_action())
    else:
        action = draw(_forbidden_action())
    trigger = draw(_trigger()) if draw(st.integers(0, 3)) == 0 else ""
    return f"effect {trigger}{action}{draw(_suffixes())}"


@st.composite
def card_sources(draw: st.DrawFn) -> str:
    """The card-language source of one card, each clause on its own line (docs/cards.md)."""
    kind = draw(st.sampled_from(("relic", "relic", "spell")))
    mode = draw(st.sampled_from(("", " passive", " activated") if kind == "relic" else ("", " instant")))
    name = draw(st.sampled_from(("Ember", "Hawk Sight", "Iron Ward", "Soul Knot", "Vigil", "Quartz")))
    lines = [f'{kind} "{name}"{mode} {{']
    clauses: list[str] = []
    priced = draw(st.integers(0, 19))
    if priced > 0:  # now and then no cost at all (SG-C092)
        cost = "free" if priced < 3 else draw(_cost_items())
        clauses.append(f"cost {cost}")
    if draw(st.booleans()):
        clauses.append(f"phase {draw(st.sampled_from(PHASES))}")
    if draw(st.integers(0, 3)) == 0:
        text = draw(st.sampled_from(("Generated for a property test.", r"Says \"more\" with a \\ backslash.", "")))
        clauses.append(f'text "{text}"')
    clauses.extend(draw(st.lists(effect_sources(), min_size=1, max_size=3)))
    head = [c for c in clauses if not c.startswith("effect")]
    effects = [c for c in clauses if c.startswith("effect")]
    lines += [f"    {c}" for c in (*draw(st.permutations(head)), *effects)]
    lines.append("}")
    return "\n".join(lines) + "\n"


#: The name the test suite imports: ``from tests.cardgen import cards``.
cards = card_sources
