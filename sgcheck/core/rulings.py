"""The product's default rulings R01-R26: where the rulebook and guide are silent or disagree.

IDs are stable. ``table_choice`` rulings have a house-rule setting in the ruleset
profile (off by default). Each ruling is enforced somewhere in :mod:`sgcheck.core`
and named in the diagnostics that depend on it.
"""

from __future__ import annotations

from dataclasses import dataclass

from sgcheck.core.record import pickle_by_fields


@dataclass(frozen=True, slots=True)
class Ruling:
    id: str
    topic: str
    text: str
    sources: tuple[str, ...]
    setting: str | None = None  # the ruleset setting of a table choice


def _r(rid: str, topic: str, text: str, sources: tuple[str, ...], setting: str | None = None) -> Ruling:
    return Ruling(rid, topic, " ".join(text.split()), sources, setting)


RULINGS: tuple[Ruling, ...] = (
    _r(
        "R01",
        "Setup order",
        """If Relics are used they are drafted first. Then each player rolls 3d6; ties roll
        again and the higher total picks a colour. Both Kings are then placed (chosen in secret, shown together)
        in their owners' camps, and White plays the first turn. Each side starts on 20 LP and 0 SP with its 15
        other pieces in its own Gem.""",
        ("core §1", "guide draft rules"),
    ),
    _r(
        "R02",
        "Empty board",
        """Only the two Kings stand on the board when play begins. The guide's Relic example
        that lays out a standard chess position and has a Movement Phase contradicts core §1-§2 and is not
        followed.""",
        ("core §1", "core §2"),
    ),
    _r(
        "R03",
        "Phase windows",
        """Summon, Break and Repair belong to Upkeep; Move to Main 1 or Main 2; Attack to
        Battle; SP-to-LP conversion to Main 2; Teleport to End; a card activation to the phase its card names.
        Phases come strictly in order and a passed phase cannot be re-entered.""",
        ("core §2", "core §5"),
    ),
    _r(
        "R04",
        "What counts as an action",
        """Summon, Break, Repair, Move, Attack, Convert, Teleport and card
        activations are actions; SP income and end-of-turn clean-up are not. The +6 LP Pass bonus is paid at End
        only to a player who took no action that turn.""",
        ("core §2",),
    ),
    _r(
        "R05",
        "Paying costs",
        """A cost may be paid with any mix of LP and SP. If the log does not say how, SP is
        spent first and LP covers the rest (one SP pays one point of cost, while converting pays only one LP for
        two SP). A cost above LP + SP cannot be paid. LP may fall to 0 without losing the game.""",
        ("core §0",),
    ),
    _r(
        "R06",
        "Move geometry",
        """Pieces move as in chess. Bishops, Rooks and Queens need a clear path, and the
        destination must be empty because moving never captures. Distance is the number of squares travelled.
        Pawns step one square forward, or two from their own second rank across two empty squares; there is no
        en passant, castling or promotion.""",
        ("core §3",),
    ),
    _r(
        "R07",
        "Knights",
        """A Knight's Move is one or two knight jumps, costing 3 per jump (3 or 6) instead of
        value + distance. Between two jumps the Knight lands on a square that must be on the board and empty.""",
        ("core §3", "guide"),
    ),
    _r(
        "R08",
        "Attack reach and distance",
        """A piece may attack an enemy piece that it could reach with a single
        Move along a clear path, the target square being the enemy's. Pawns instead attack one square diagonally
        forward. The distance in the attack cost is measured along that path (jumps for Knights). Your own pieces
        are never targets.""",
        ("core §0", "core §3", "core §4.1"),
    ),
    _r(
        "R09",
        "The King's value",
        """The core gives the King hit points but no piece value. It moves one square in
        any direction for a cost of 1, cannot attack, is never in a Gem (so never summoned) and cannot be
        teleported. Table choice: a king_value setting lets the King move and attack as a piece of that value.""",
        ("core §3", "core §4.4"),
        setting="king_value",
    ),
    _r(
        "R10",
        "Accuracy",
        """Two d10 make the d100 (tens, then ones; 0 0 reads 100). The threshold is 20 + 10 x
        (attacker value - defender value) against a piece and 10 x attacker value against the King. Card to-hit
        bonuses (at most +25 in total) are added before clamping the result to 5-95. The attack hits when the
        d100 is at most the threshold.""",
        ("core §4.2", "core §4.4", "core §4.5"),
    ),
    _r(
        "R11",
        "Damage and capture",
        """A hit deals 1 damage plus any card bonus (at most +2 per hit) minus
        reductions, never below 0. A piece is captured as soon as the damage dealt to it this turn reaches its
        value: it goes to the attacker's Gem and the attacker gains 5 x value SP. Partial damage on pieces is
        cleared at the End of the attacker's turn; damage on a King stays, and 20 converts the King and ends the
        game at once.""",
        ("core §4.3", "core §4.4", "core §2"),
    ),
    _r(
        "R12",
        "Summon",
        """At most one Summon per Upkeep, never while your own Gem is broken. You summon only your
        own pieces from your Gem (captured enemy pieces stay there and pay income). The base cost is value + 5 on
        a free starting square of that piece type; any other free square of your camp costs extra: the smallest
        |dx| + |dy| from a starting square of that type.""",
        ("core §5", "guide"),
    ),
    _r(
        "R13",
        "Teleport",
        """At most one Teleport per End phase, moving one of your own non-King pieces already on
        the board; cost and destination follow the Summon rules.""",
        ("core §5",),
    ),
    _r(
        "R14",
        "SP income",
        """At Upkeep a player gains 2 x the value of the enemy pieces in their Gem, except on
        their own first turn and while their Gem is broken. Table choice: count every piece in the Gem, as the
        core's wording literally says; that gives 78 SP a turn from turn 2 and matches none of the guide's
        figures.""",
        ("core §6", "guide walkthrough"),
        setting="income",
    ),
    _r(
        "R15",
        "Break and Repair",
        """In one Upkeep a player may try one Break and one Repair, after income and
        before any Summon. Break costs 20 and succeeds on 12+ with 3d6, only against an unbroken enemy Gem; it
        breaks that Gem and returns every piece of yours held in it to your own Gem. Repair is allowed only when
        your own Gem is broken, costs 10 and succeeds on 10+. The cost is paid either way, and a broken Gem
        still takes in captured pieces.""",
        ("core §6",),
    ),
    _r(
        "R16",
        "Conversion",
        """Converting happens in Main 2 only, 2 SP for 1 LP at a time, with no more than 20 SP
        converted in a turn.""",
        ("core §2",),
    ),
    _r(
        "R17",
        "Activations",
        """No more than 2 card activations per turn over all phases. Passive, always-on
        effects are not activations.""",
        ("core §0", "core §2"),
    ),
    _r(
        "R18",
        "Victory",
        """A converted King (20 damage) loses at once; reaching 1000 LP wins at once. With a
        scenario turn limit, the player who dealt more King damage wins; if that is tied, the higher score wins
        (captured value x 3 + value on the board x 2 + LP + SP, Kings counting 0); if that is tied too, the game
        is drawn.""",
        ("core §7",),
    ),
    _r(
        "R19",
        "Relic Spells in play",
        """Before Kings are placed each player draws 5 cards and keeps 3; no one
        holds more than 3 cards at any time. No card may damage, capture or convert a King directly; cards may
        only change attacks on the King within the caps. The guide's Double Draft (keep 4) breaks the hand limit,
        so a module using it must raise the limit explicitly or the checker reports the conflict.""",
        ("guide draft rules",),
    ),
    _r(
        "R20",
        "Caps that bind every effect",
        """For each attack: to-hit bonus at most +25 in total, damage bonus at
        most +2 per hit, at most one reroll or advantage source. Replay clamps at run time and notes it; the
        contract checker flags any card that can exceed a cap by itself.""",
        ("core §4.5", "core §8"),
    ),
    _r(
        "R21",
        "Guide examples",
        """Worked examples A, B and C are right (costs 12, 21, 12; thresholds 60, 60, 50).
        The guided walkthrough is not: on White's turn 3 the Rook attacks a Pawn although Black has no Pawn on
        the board, and Black's turn-3 income counts a Pawn White captured. Replaying that walkthrough stops
        there with a clear message.""",
        ("guide",),
    ),
    _r(
        "R22",
        "Playing a card",
        """Playing a card from hand (casting a Spell, or putting a Relic into play) is one
        activation (R17) and one action (R04), and its printed cost is paid then (R05). A Spell is played in
        the phase it names and is then discarded; a Relic is played in a Main phase unless it names another. A
        passive Relic's effects act from then to the end of the game without further activations; each later
        use of an activated Relic is one more activation. Only the player who kept a card in the draft plays
        it, and only once from hand.""",
        ("core §0", "core §2", 'guide "Playing Relic Spells"'),
    ),
    _r(
        "R23",
        "Effects in play",
        """Effects act in the order their cards entered play, the active player's first. A
        trigger fires after the event that caused it has resolved, and each card's trigger at most once per
        event, so a chain of triggers always ends. Card bonuses on an attack are summed, then capped (R20),
        then the threshold is clamped to 5-95 (R10); extra damage dealt on hit to the attacked piece counts
        toward the +2 per hit. Damage reduction applies after the bonuses, and damage never goes below 0. An
        effect that takes a resource takes what there is, down to 0; a card's own cost must be payable in full
        when it is played.""",
        ("core §4.5", "core §8"),
    ),
    _r(
        "R24",
        "Scenarios",
        """A scenario may set each side's starting LP and SP, what its Gem holds and which of its
        pieces already stand on the board, which side takes the first turn, a turn limit (decided as R18
        says) and win conditions that add to the core's or replace them. It may not change combat math,
        costs, caps, rates, thresholds or the order of the turn: a scenario that tries breaks the contract,
        as a card would. Pieces are never created, so each side has at most the pieces of one set, counting
        the board and both Gems, and a King the scenario places starts in its own camp.""",
        ("core §7", "core §8"),
    ),
    _r(
        "R25",
        "Gem Siege",
        """The guide's scenario. Both sides start on 20 LP and 10 SP with their Kings placed as in
        core §1, and each Gem holds its owner's other pieces plus one enemy Rook already captured (each
        side's second Rook starts in the enemy's Gem), so each player's income is 10 SP from their second
        turn. The first side that has, at any moment, both broken the enemy Gem with a successful Break and
        captured an enemy piece wins at once; the two may happen in either order and on different turns.
        Table choice: the reduced-army reading, where each side's Gem holds one of its own Rooks and
        nothing else.""",
        ('guide "Scenario: Gem Siege"',),
        setting="scenario gem-siege-reduced",
    ),
    _r(
        "R26",
        "Modules from related games",
        """Spell Chess's reveal-on-capture is a market variant that core §8 allows: after each
        capture the capturer reveals the top card of a shared deck whose order is fixed before play and
        places it before either player, each player holding at most one such card (a new one replaces the
        old), and the log records every reveal. Soul Master's shield dice guarding the King give the King
        more hit points, which changes combat math: a module that imports them as they are breaks the
        contract and is reported, while shields on other pieces written as bounded damage reduction are
        allowed. SoulStead's Wellsprings are a scenario win condition that core §8 allows: marker squares
        in each camp, and a side loses when enemy pieces stand on all of its Wellsprings at the end of a
        turn.""",
        ("core §8", "Spell Chess", "Soul Master", "SoulStead"),
    ),
)

BY_ID: dict[str, Ruling] = {r.id: r for r in RULINGS}


pickle_by_fields(globals())
