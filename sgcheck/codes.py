"""The catalogue of every diagnostic code sgcheck reports that no contract rule module judges.

Each code is one entry of data: its code, its name, its severity, the rules it cites, its
:class:`Family` (what it is about) and its :class:`Trait` s (what the code's consumers need to
know about it: a falsified roll, a want of funds, an input that was not checked at all...), and
the ``explanation`` that ``sgcheck explain CODE`` prints. Consumers test the family and the
traits (:func:`family_of`, :func:`has`); none reads a code's meaning back from its letters.
Codes never change meaning once released; retired codes are not reused.

A contract rule, one that judges a pack (``SG-C0xx``, ``SG-C1xx``), is described by its own
module under ``sgcheck/contract/rules/`` (its ``META`` and docstring beside its ``check``);
``contract.code_catalogue()`` turns those into entries of the same shape, with their family.
The codes reported while reading card files (``SG-P020``-``SG-P029``) and about packs,
configuration and suppressions (``SG-C2xx``) belong to the contract checker's catalogue too
(:attr:`Trait.CONTRACT`) but judge nothing of their own, so they are written here.

Families (the docs group codes by them, in this order):

- ``SG-P00x``: a game log cannot be read or parsed (encoding, syntax, header values).
- ``SG-P01x``: an input is over one of the limits in docs/limits.md.
- ``SG-P013``-``SG-P015``, ``SG-P02x``-``SG-P04x``: cards, packs, scenarios, modules, formatting.
- ``SG-S1xx``: setup is wrong (roll-off, King placement, draft; core §1, R01).
- ``SG-T1xx``: turn structure is wrong (turn order, phase windows, per-turn limits; core §2, R03).
- ``SG-R1xx``: an action is illegal under the locked core.
- ``SG-R2xx``: an action is legal but what the log claims about it is wrong.
- ``SG-N3xx``: notes and warnings from replay (clamps, unsimulated cards).
- ``SG-D1xx``: verifiable dice (sg-dice-v1): the header's commitments and reveals, each roll.
- ``SG-C0xx``, ``SG-C1xx``, ``SG-C2xx``: the contract checker (docs/contract-rules.md).
- ``SG-X0xx``: sgcheck itself failed on an input (a bug); exit status 2.

To add a code: one entry below, with its family and any traits that hold for it (a new trait is
a member of :class:`Trait`, tested where it is read). ``docs/diagnostics.md`` is generated from
the catalogue (``tests/test_docs.py``), and ``tests/test_codes.py`` holds the entries' shape.
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum, StrEnum

from sgcheck.diagnostics import Diagnostic, Fix, Scalar, Severity, did_you_mean
from sgcheck.letters import ascii_upper


class Family(Enum):
    """What a code is about. Its value is the title of its section in docs/diagnostics.md, and
    the order of the members is the order of those sections."""

    LOG_INPUT = "Input and syntax of game logs"
    LIMIT = "Input limits"
    INPUT = "Input and syntax of cards and packs"
    SETUP = "Setup (core §1)"
    TURN = "Turn structure (core §2)"
    ACTION = "Illegal actions"
    CLAIM = "Wrong claims"
    NOTE = "Replay notes"
    DICE = "Verifiable dice"
    CARD_RULE = "Contract: per card"
    PACK_RULE = "Contract: per pack"
    PACKAGING = "Contract: packs, configuration, suppressions"
    INTERNAL = "Internal errors"

    @property
    def title(self) -> str:
        return self.value

    @property
    def reads_input(self) -> bool:
        """A finding about the input as a whole (it cannot be read, or a header, pack, scenario or
        card file it needs cannot be used), not about one action of a game."""
        return self in (Family.LOG_INPUT, Family.LIMIT, Family.INPUT)


class Trait(StrEnum):
    """A property some codes have that a consumer acts on."""

    #: The input was not checked at all (it could not be read, sgcheck failed on it, or the
    #: configuration cannot be used): the run exits 2 and JUnit counts the file as broken.
    NOT_CHECKED = "not-checked"
    #: A suppression comment cannot silence it.
    UNSUPPRESSIBLE = "unsuppressible"
    #: A code of the contract checker's catalogue (``check``'s configuration names it).
    CONTRACT = "contract"
    #: A roll written in the log is not the one the dice protocol derives (DR4).
    FALSIFIED_ROLL = "falsified-roll"
    #: A player has not opened their dice commitment (DR1).
    WITHHELD = "withheld"
    #: The result the log writes is not the game's (core §7).
    RESULT_CLAIM = "result-claim"
    #: A total the log writes (LP, SP, income) is not the game's.
    TOTAL_CLAIM = "total-claim"
    #: An action refused for want of LP or SP (a cost, a payment, SP to convert).
    SHORT_OF_FUNDS = "short-of-funds"
    #: An action refused because a card in play denies it (R23).
    CARD_DENIAL = "card-denial"
    #: The pack's module cannot be played, even with --allow-violations.
    MODULE_NOT_PLAYED = "module-not-played"


@dataclass(frozen=True, slots=True)
class CodeInfo:
    code: str
    name: str
    severity: Severity
    rules: tuple[str, ...]
    explanation: str
    family: Family
    traits: frozenset[Trait] = frozenset()
    #: For a code of the contract checker: what it enforces (docs/contract-rules.md).
    enforces: str = ""


def clean_docstring(text: str) -> str:
    """A docstring as paragraphs of single lines (what ``sgcheck explain`` prints)."""
    paragraphs = inspect.cleandoc(text).split("\n\n")
    return "\n\n".join(" ".join(p.split()).replace("``", "`") for p in paragraphs if p.strip())


def _c(
    code: str,
    name: str,
    severity: Severity,
    rules: tuple[str, ...],
    family: Family,
    explanation: str,
    *,
    traits: frozenset[Trait] | set[Trait] = frozenset(),
) -> CodeInfo:
    return CodeInfo(code, name, severity, rules, " ".join(explanation.split()), family, frozenset(traits))


def _doc(
    code: str,
    name: str,
    severity: Severity,
    rules: tuple[str, ...],
    family: Family,
    explanation: str,
    *,
    enforces: str,
    traits: frozenset[Trait] | set[Trait] = frozenset(),
) -> CodeInfo:
    """An entry whose explanation has paragraphs (written as a docstring is), with what it enforces."""
    return CodeInfo(code, name, severity, rules, clean_docstring(explanation), family, frozenset(traits), enforces)


E, W, N = Severity.ERROR, Severity.WARNING, Severity.NOTE

_CODES: tuple[CodeInfo, ...] = (
    # --- input and syntax -------------------------------------------------------------------
    _c(
        "SG-P001",
        "syntax-error",
        E,
        (),
        Family.LOG_INPUT,
        """The log does not follow the game-log grammar at this point.
        The message names what was found and what could come next. Fix the text at the caret;
        see docs/log-format.md for the full grammar.""",
    ),
    _c(
        "SG-P002",
        "unexpected-end",
        E,
        (),
        Family.LOG_INPUT,
        """The log ends in the middle of a statement (for example an
        attack without its two dice, or an unclosed brace comment). The file may have been truncated.""",
    ),
    _c(
        "SG-P003",
        "unexpected-character",
        E,
        (),
        Family.LOG_INPUT,
        """A character that cannot start any token of the
        game-log language. Squares are written a1..h8, pieces K Q R B N P, comments start with ';'
        or are enclosed in braces. Keywords are ASCII letters: a look-alike such as 'ſ' (U+017F) or
        a Cyrillic 'а' is named with its code point and the letter it imitates (SG-P001 when it is
        inside a word).""",
    ),
    _c(
        "SG-P004",
        "not-utf8",
        E,
        (),
        Family.LOG_INPUT,
        """The file is not valid UTF-8 text. Logs and card files must be
        UTF-8 (a byte-order mark is accepted and ignored). Re-save the file as UTF-8.""",
    ),
    _c(
        "SG-P005",
        "binary-file",
        E,
        (),
        Family.LOG_INPUT,
        """The file contains NUL bytes, so it is almost certainly not a
        text file (an image, archive or compiled file was passed by mistake).""",
    ),
    _c(
        "SG-P006",
        "empty-input",
        E,
        (),
        Family.LOG_INPUT,
        """The file is empty or contains only comments, so there is no
        game to check. A log needs at least a setup (King placements).""",
    ),
    _c(
        "SG-P007",
        "bad-header",
        E,
        (),
        Family.LOG_INPUT,
        """A header tag has a value sgcheck cannot use: an unknown
        ruleset profile or setting, a turn limit that is not a positive number, a tag given twice,
        or a Result that is not 1-0, 0-1, 1/2-1/2 or *.""",
    ),
    _c(
        "SG-P008",
        "unreadable-file",
        E,
        (),
        Family.LOG_INPUT,
        """The file could not be read (missing, a directory,
        permission denied).""",
        traits={Trait.NOT_CHECKED},
    ),
    _c(
        "SG-P009",
        "file-not-rewritten",
        E,
        (),
        Family.LOG_INPUT,
        """sgcheck fmt or check --fix left a file as it was instead of rewriting it. Either the file
        is read-only: this user may not write it, or its mode has no write permission at all (0444,
        refused even for root; make it writable to format it); or it changed after sgcheck read it
        (its size, modification time or bytes differ: another program wrote it meanwhile, so its
        formatting would lose that change; run the command again); or it could not be opened or
        there was no room for the new text. The command exits with status 2.""",
    ),
    # --- input limits (docs/limits.md) ---------------------------------------------------------
    _c(
        "SG-P010",
        "input-too-large",
        E,
        (),
        Family.LIMIT,
        """The input is larger than sgcheck reads for its kind: 64,000,000 bytes for a game log,
        1,000,000 bytes for a .sgcard file, a pack manifest, a scenario file or a configuration file
        (a YAML card file over 4,000,000 bytes is SG-P029). Text holding characters that Python stores in 2 or
        4 bytes each counts that much per character. Reading stops at the limit (docs/limits.md),
        so an endless or huge input costs neither time nor memory. Split the input, or check
        that the right file was passed.""",
    ),
    _c(
        "SG-P011",
        "line-too-long",
        E,
        (),
        Family.LIMIT,
        """A line of a game log or .sgcard file is longer than 10,000 characters, the most
        sgcheck reads (docs/limits.md). No statement of the game-log or card language comes near
        it, so the file is almost certainly not a log or card file, or its line ends were lost.
        Reading stops at that line.""",
    ),
    _c(
        "SG-P012",
        "number-too-long",
        E,
        (),
        Family.LIMIT,
        """A number in a game log has more digits than any Soul Gems quantity needs: a number
        is written with at most 9 digits (docs/limits.md). sgcheck refuses it at its line and column
        instead of computing with it; the message shows the number's first digits and its length.
        Usually a space or a line break between two numbers was lost. (Card files report such a
        number as SG-P023.)""",
    ),
    # --- internal errors --------------------------------------------------------------------------
    _c(
        "SG-P013",
        "pack-not-found",
        E,
        (),
        Family.INPUT,
        """The pack a log names (its [Pack] tag, or --pack) cannot be read: no pack folder
        (with sgpack.yaml) or card file is there. A [Pack] tag is read relative to the log's folder.""",
    ),
    _c(
        "SG-P014",
        "pack-outside-log",
        E,
        (),
        Family.INPUT,
        """A log's [Pack] tag names a path outside the log's folder. A log found in a
        downloaded corpus must not make sgcheck read files elsewhere on the machine; give such a
        pack on the command line with --pack instead.""",
    ),
    _c(
        "SG-P015",
        "pack-breaks-contract",
        E,
        ("core §8",),
        Family.INPUT,
        """The game's pack breaks the immutable contract (core §8): its error findings
        are listed first and the log is not replayed. --allow-violations replays it anyway, for
        playtesting a prototype (SG-N305): the pack's errors are then reported as warnings, so a
        game that never plays an offending card passes; the caps of R20 are still enforced while
        it plays.""",
    ),
    # --- scenarios (R24, docs/scenarios.md) -----------------------------------------------------
    _c(
        "SG-P030",
        "scenario-not-found",
        E,
        (),
        Family.INPUT,
        """The scenario a log names (its [Scenario] tag, or --scenario) cannot be read: no
        scenario file (*.scenario.yaml), and no pack manifest with a scenario section, is there. A
        [Scenario] tag is read relative to the log's folder; a name without a suffix stands for
        NAME.scenario.yaml.""",
    ),
    _c(
        "SG-P031",
        "scenario-outside-log",
        E,
        (),
        Family.INPUT,
        """A log's [Scenario] tag names a path outside the log's folder (through '..', an
        absolute path or a symbolic link). A log found in a downloaded corpus must not make sgcheck
        read files elsewhere on the machine; give such a scenario on the command line with --scenario
        instead.""",
    ),
    _c(
        "SG-P032",
        "scenario-schema",
        E,
        (),
        Family.INPUT,
        """The scenario does not match the scenario schema (schemas/scenario.schema.json;
        'sgcheck schema scenario' prints it): an unknown key, a missing name, a value of the wrong
        type or out of range, a win condition that is not exactly one of break_and_capture,
        hold_markers and captured_value. The same code covers a file with no scenario in it, a
        number of more than 9 digits, and a key of the rules: section that is not a core number or
        belongs elsewhere (a starting LP is written per side). Each is reported at its YAML line:col;
        the scenario is not played.""",
    ),
    _c(
        "SG-P033",
        "scenario-square",
        E,
        ("R24",),
        Family.INPUT,
        """A square of the scenario cannot be used: it is off the board (files a-h, ranks
        1-8), a second piece is placed on it, a side's King is placed twice, or a marker set lists it
        twice.""",
    ),
    _c(
        "SG-P034",
        "scenario-army",
        E,
        ("R24",),
        Family.INPUT,
        """A side would have more pieces of a kind than its set holds (8 Pawns, 2 Knights,
        2 Bishops, 2 Rooks, 1 Queen), counting its pieces on the board, its own pieces in its Gem and
        its pieces held in the enemy's Gem. A scenario chooses where the pieces start; it cannot
        create pieces (core §1).""",
    ),
    _c(
        "SG-P035",
        "scenario-unknown-markers",
        E,
        ("R24", "R26"),
        Family.INPUT,
        """A hold_markers win condition names a marker set the scenario does not define
        under markers:.""",
    ),
    _c(
        "SG-P036",
        "scenario-impossible-condition",
        W,
        ("R24",),
        Family.INPUT,
        """A win condition can never be met, is met by the starting position, or the game
        can never end. Pieces are never created or lost, so a side cannot capture more value than
        the enemy's pieces are worth, capture anything from an enemy with no piece but its King, or
        hold more markers than it has pieces. A side whose Gem starts with the captured value a
        condition asks for has won before the first turn (replay ends the game there); one whose
        pieces start on the markers it is to hold wins at the end of the first turn unless they move.
        A game whose scenario turns the core's win conditions off needs a win condition or a turn
        limit.""",
    ),
    _c(
        "SG-P037",
        "scenario-refused",
        E,
        ("core §8", "R24"),
        Family.INPUT,
        """The log's scenario has errors, listed first (a scenario that does not load, or one
        that changes a number of the core, core §8): the game is not replayed under it. Fix the
        scenario and replay again.""",
    ),
    # --- modules (R26, docs/modules.md) ---------------------------------------------------------
    _c(
        "SG-P038",
        "module-section",
        E,
        ("R26",),
        Family.INPUT,
        """The module section of a pack manifest cannot be used: it does not match the module
        schema (schemas/module.schema.json; 'sgcheck schema module' prints it), or its market deck
        names a card the pack does not hold, or a card that is not a passive Relic (a card placed
        before a player acts as that player's card in play, R22). Each is reported at its YAML
        line:col; the pack is not played.""",
        traits={Trait.MODULE_NOT_PLAYED},
    ),
    # --- formatting (docs/fmt.md) ---------------------------------------------------------------
    _c(
        "SG-P039",
        "fmt-comment-not-kept",
        W,
        (),
        Family.INPUT,
        """'sgcheck fmt' leaves this YAML card file as it is: rewriting it would lose the comment
        reported, because the YAML library keeps comments in block mappings and lists but not
        inside a flow collection ({...} or [...]) broken over lines. The file is valid and is
        checked as before. To have it formatted, move the comment after the collection's last
        line, or write the collection as a block.""",
    ),
    _c(
        "SG-P040",
        "fill-stopped",
        E,
        (),
        Family.INPUT,
        """'sgcheck fmt --fill-claims' filled the claims of the log up to here and no further: replay
        stops here (an illegal action, a turn out of sequence, a result the game does not have...),
        so what the actions from here on did is not known. The message gives replay's finding. The
        statements before it have their claims filled and the file is written; this statement and
        the ones after it are left as written. Correct the log here ('sgcheck replay' shows the
        finding with its rules), then fill it again.""",
    ),
    _c(
        "SG-X001",
        "internal-error",
        E,
        (),
        Family.INTERNAL,
        """sgcheck itself failed while checking this file: a bug, not a problem with the
        file. The other files are still checked and reported, and the run exits with status 2.
        Please report it with the file that caused it.""",
        traits={Trait.NOT_CHECKED},
    ),
    # --- the contract checker's reading of card files, packs, configuration, suppressions -----
    _doc(
        "SG-P020",
        "card-syntax-error",
        E,
        (),
        Family.INPUT,
        """The card text does not follow the card language at this point.

        The message names what was found and what could come next; for common mistakes it
        says what is wrong in plain words (a name without quotes, a trigger without its colon,
        a modifier without a number). Only the card holding the error is skipped: every other
        card of the file is still checked. The grammar is ``grammar/sgcard.lark`` and the
        language reference is docs/cards.md.

        Fails: ``relic Soul Ward { cost 3 SP }``. Passes: ``relic "Soul Ward" { cost 3 SP }``.""",
        enforces="the .sgcard grammar (docs/cards.md)",
        traits={Trait.CONTRACT},
    ),
    _doc(
        "SG-P021",
        "card-unexpected-end",
        E,
        (),
        Family.INPUT,
        """A card stops before it is complete.

        Usually the closing ``}`` is missing, or an effect stops half-way (``effect to_hit``). The
        position is where the card ends; the hint lists what could have come next. The file may
        also have been cut off.

        Fails: ``spell "Soul Drain" { cost 3 SP``. Passes: the same card closed with ``}``.""",
        enforces="the .sgcard grammar (docs/cards.md)",
        traits={Trait.CONTRACT},
    ),
    _doc(
        "SG-P022",
        "card-unexpected-character",
        E,
        (),
        Family.INPUT,
        """A character that cannot start any word of the card language.

        Outside quoted text a card uses letters, digits, ``_ . -``, the operators
        ``< <= > >= = != + * /``, braces and a colon; comments start with ``#``. Accented letters
        and other symbols belong inside quotes (names and ``text``). Keywords, piece names and SP/LP are
        ASCII letters: a look-alike such as ``ſ`` (U+017F) or a Cyrillic ``а`` is named with its code
        point and the ASCII letter it imitates.

        Fails: ``effect to_hit +10 €``, ``effect gain 2 ſP``. Passes: ``text "costs 10 €"``.""",
        enforces="the .sgcard grammar (docs/cards.md)",
        traits={Trait.CONTRACT},
    ),
    _doc(
        "SG-P023",
        "card-structure",
        E,
        (),
        Family.INPUT,
        """The syntax is fine but the card is not: a clause given twice (two ``cost`` clauses), a
        spell declared passive or a relic declared instant, an unknown core parameter in a
        ``set`` effect, a number with more than 9 digits, a division by 0, a duration or use
        limit of 0, or an effect with two triggers. Both card formats report these the same way.

        Fails: ``spell "X" passive { cost 1 SP }``. Passes: ``relic "X" passive { cost 1 SP }``.""",
        enforces="the card model (docs/cards.md)",
        traits={Trait.CONTRACT},
    ),
    _doc(
        "SG-P024",
        "yaml-syntax-error",
        E,
        (),
        Family.INPUT,
        """The YAML file cannot be read: a syntax error, a key given twice in one mapping, a
        second document, a collection used as a key, or a tag that would construct a Python
        object (``!!python/...``); sgcheck only ever loads plain data. The position is where the
        YAML parser stopped.

        Fails: ``cards: [ {name: X``. Passes: ``cards: []``.""",
        enforces="YAML 1.2, loaded safely",
        traits={Trait.CONTRACT},
    ),
    _doc(
        "SG-P025",
        "yaml-alias-limit",
        E,
        (),
        Family.INPUT,
        """The YAML file uses too many aliases, an alias that contains itself, or aliases that
        would expand to too many nodes. An "alias bomb" (anchors of lists of aliases of
        anchors...) turns a few hundred bytes into billions of values; sgcheck counts aliases
        (at most 100) and the expanded size (at most 200,000 nodes, each alias counting every
        node it stands for) while reading and stops before expanding anything. The node count
        also bounds a plain file without aliases: split one that large into several card files.

        Fails: nine levels of ``&a [*b, *b, ...]``. Passes: a few ``<<: *defaults`` merges.""",
        enforces="bounded YAML aliases (no alias bomb)",
        traits={Trait.CONTRACT},
    ),
    _doc(
        "SG-P026",
        "yaml-too-deep",
        E,
        (),
        Family.INPUT,
        """The YAML file nests collections more than 64 levels deep. Cards need five or six
        levels; very deep nesting only comes from generated or hostile files and could exhaust
        the stack of tools that walk it, so sgcheck refuses it while reading.

        Fails: ``[[[[...]]]]`` 10,000 levels deep. Passes: any card file.""",
        enforces="bounded YAML nesting",
        traits={Trait.CONTRACT},
    ),
    _doc(
        "SG-P027",
        "card-schema-error",
        E,
        (),
        Family.INPUT,
        """A YAML card does not match the card schema (``sgcheck schema`` prints it): an unknown
        key, a missing required key, a value of the wrong type or outside its list, an effect
        with no action or two actions, a condition with more than one key. The position is the
        YAML line:col of the offending value (or key); only that card is skipped.

        Fails: ``- {name: X, kind: spel}``. Passes: ``- {name: X, kind: spell, cost: 1}``.""",
        enforces="schemas/card.schema.json (JSON Schema Draft 2020-12)",
        traits={Trait.CONTRACT},
    ),
    _doc(
        "SG-P028",
        "no-cards",
        W,
        (),
        Family.INPUT,
        """The file holds no cards: it is empty, only comments, or ``cards: []``. Nothing is
        checked, which in CI usually means a wrong path or an unsaved file.

        Fails: an empty ``.sgcard`` file. Passes: a file with one card.""",
        enforces="a card file contains cards",
        traits={Trait.CONTRACT},
    ),
    _doc(
        "SG-P029",
        "yaml-too-large",
        E,
        (),
        Family.INPUT,
        """The YAML card file is larger than 4,000,000 bytes. YAML cards are meant for
        hand-written data files; the YAML reader is pure Python and would take minutes on a file
        of tens of megabytes, so sgcheck refuses it before reading. Large packs belong in the
        ``.sgcard`` language, which reads 10,000 cards in about a second.

        Fails: a 5 MB YAML file. Passes: any hand-written card file.""",
        enforces="bounded YAML input size",
        traits={Trait.CONTRACT},
    ),
    _doc(
        "SG-C201",
        "invalid-manifest",
        E,
        (),
        Family.PACKAGING,
        """The pack manifest (``sgpack.yaml``) does not match the pack schema: a missing name,
        version or card list, a key sgcheck does not know, a value of the wrong type. Without a
        valid manifest the pack's cards cannot be located, so nothing else of the pack is
        checked.

        Fails: a manifest without ``cards``. Passes: ``{name: demo, version: 1.0.0, cards: [cards.sgcard]}``.""",
        enforces="schemas/pack.schema.json",
        traits={Trait.CONTRACT},
    ),
    _doc(
        "SG-C202",
        "path-escapes-pack",
        E,
        (),
        Family.PACKAGING,
        """A card path in the manifest points outside the pack folder: an absolute path, a path
        climbing out with ``..`` (``../../etc/passwd``), or a symbolic link whose target lies
        outside the pack; or an entry that does not name a card file (``.sgcard``, ``.sgcard.yaml``,
        ``.yaml``), such as ``.npmrc`` or ``.git/credentials``, which is never read. A pack must be
        self-contained so that checking it never reads unrelated files; the entry is skipped.

        Fails: ``cards: [../../etc/passwd]``, ``cards: [.npmrc]``. Passes: ``cards: [cards/relics.sgcard]``.""",
        enforces="a pack only reads files inside its own folder",
        traits={Trait.CONTRACT},
    ),
    _doc(
        "SG-C203",
        "missing-card-file",
        E,
        (),
        Family.PACKAGING,
        """The manifest lists a card file that does not exist (or is a folder). Check the
        spelling and the path relative to the manifest.

        Fails: ``cards: [missing.sgcard]``. Passes: a path to an existing file.""",
        enforces="every card file listed by a manifest exists",
        traits={Trait.CONTRACT},
    ),
    _doc(
        "SG-C204",
        "unlisted-card-file",
        W,
        (),
        Family.PACKAGING,
        """A card file (``*.sgcard``, ``*.sgcard.yaml``) sits in the pack folder but the manifest
        does not list it, so its cards are not part of the pack and are not checked with it.
        List it, or move it out of the pack.

        Fails: ``extra.sgcard`` next to a manifest that lists only ``cards.sgcard``. Passes: both listed.""",
        enforces="every card file of a pack is listed in its manifest",
        traits={Trait.CONTRACT},
    ),
    _doc(
        "SG-C205",
        "bad-ruleset",
        E,
        ("core §8", "R09", "R14"),
        Family.PACKAGING,
        """The manifest's ``ruleset`` is not a profile sgcheck understands. A profile is ``core``
        optionally followed by table choices: ``core; king_value=3; income=all`` (R09, R14).

        Fails: ``ruleset: chess960``. Passes: ``ruleset: core``.""",
        enforces="a pack names a ruleset profile sgcheck knows",
        traits={Trait.CONTRACT},
    ),
    _doc(
        "SG-C206",
        "house-rule",
        W,
        ("core §8", "R09", "R14"),
        Family.PACKAGING,
        """The pack's ruleset switches on a table choice (a house rule). Games with it are no
        longer core-compatible; the finding names the core §8 item it breaks: a King value
        (R09) changes piece values, counting every piece for Gem income (R14) gives unbounded
        early SP.

        Fails: ``ruleset: core; king_value=3``. Passes: ``ruleset: core``.""",
        enforces="core §8: a pack's ruleset stays core-compatible",
        traits={Trait.CONTRACT},
    ),
    _doc(
        "SG-C207",
        "draft-conflict",
        E,
        ("R19",),
        Family.PACKAGING,
        """The manifest's draft settings keep more cards than a hand may hold. R19: draw 5, keep
        3, hold at most 3. The guide's Double Draft (keep 4) is allowed only when the pack
        raises ``hand_limit`` explicitly. A hand holds the fewer of the cards drawn and kept: a
        keep larger than the draw puts no more than the draw in a hand, and is SG-C209 (a warning)
        unless the draw itself passes the limit.

        Fails: ``draft: {draw: 8, keep: 4}``. Passes: ``draft: {draw: 8, keep: 4, hand_limit: 4}``.""",
        enforces="R19: draft keep count within the hand limit",
        traits={Trait.CONTRACT},
    ),
    _doc(
        "SG-C208",
        "empty-pack",
        W,
        (),
        Family.PACKAGING,
        """The pack lists no card files, or every listed file holds no cards. There is nothing
        to check.

        Fails: ``cards: []``. Passes: a manifest listing a file with cards.""",
        enforces="a pack holds cards",
        traits={Trait.CONTRACT},
    ),
    _doc(
        "SG-C209",
        "draft-unplayable",
        W,
        ("R19",),
        Family.PACKAGING,
        """The manifest's draft keeps more cards than it draws. A player can keep only what was
        drawn, so a hand holds at most the draw and never passes the hand limit that way (R19);
        the draft as written cannot be played, which is a broken setting rather than a break of the
        contract: whether it breaks R19 is a judgment call, reported as a warning. A draft whose
        hand, the fewer of draw and keep, holds more than the hand limit is SG-C207.

        Fails: ``draft: {draw: 2, keep: 3}``. Passes: ``draft: {draw: 5, keep: 3}``.""",
        enforces="R19: a draft keeps no more cards than it draws",
        traits={Trait.CONTRACT},
    ),
    _doc(
        "SG-C210",
        "bad-config",
        E,
        (),
        Family.PACKAGING,
        """The ``[tool.sgcheck]`` table of ``pyproject.toml`` (or the file given with ``--config``)
        cannot be used: the TOML is invalid, a key is unknown, a code does not exist or cannot
        be disabled (card syntax errors are always reported), or a severity is not one of
        error, warning, note. A near miss gets a suggestion (did you mean 'exclude'?). The rest of
        the configuration still applies to the run, which then exits 2 (as ruff does with an invalid
        configuration), whatever --exit-zero says; fmt reports it and formats nothing.

        Fails: ``disable = ["SG-C999"]``. Passes: ``disable = ["SG-C120"]``.""",
        enforces="a valid [tool.sgcheck] configuration",
        traits={Trait.CONTRACT, Trait.NOT_CHECKED, Trait.UNSUPPRESSIBLE},
    ),
    _doc(
        "SG-C220",
        "suppression-without-reason",
        W,
        (),
        Family.PACKAGING,
        """A suppression comment gives no reason. Write it as
        ``# sgcheck: ignore SG-C092 -- why this card may be free``: the text after ``--`` is the
        reason reviewers read. A suppression without a reason is not applied.

        Fails: ``# sgcheck: ignore SG-C092``. Passes: ``# sgcheck: ignore SG-C092 -- starter card``.""",
        enforces="every suppression explains itself",
        traits={Trait.CONTRACT, Trait.UNSUPPRESSIBLE},
    ),
    _doc(
        "SG-C221",
        "unused-suppression",
        W,
        (),
        Family.PACKAGING,
        """A suppression comment silences nothing: its code is not reported for the card (or
        file) it covers. The finding was fixed or never happened; delete the comment so it
        cannot hide a future finding.

        Fails: ``# sgcheck: ignore SG-C010 -- ...`` above a card within the caps. Passes: a
        suppression whose finding is reported.""",
        enforces="suppressions are removed when their finding is gone",
        traits={Trait.CONTRACT, Trait.UNSUPPRESSIBLE},
    ),
    _doc(
        "SG-C222",
        "malformed-suppression",
        W,
        (),
        Family.PACKAGING,
        """A comment starting with ``sgcheck:`` cannot be understood: it is neither
        ``ignore CODE[, CODE] -- reason`` nor ``ignore-file CODE -- reason``, names no code, or
        names a code that does not exist or cannot be suppressed (syntax errors and the
        suppression findings themselves).

        Fails: ``# sgcheck: ignore SG-C999 -- typo``. Passes: ``# sgcheck: ignore SG-C120 -- ...``.""",
        enforces="suppressions name codes that exist",
        traits={Trait.CONTRACT, Trait.UNSUPPRESSIBLE},
    ),
    # --- setup (core §1, R01, R19) --------------------------------------------------------------
    _c(
        "SG-S101",
        "setup-order",
        E,
        ("core §1", "R01", "R24"),
        Family.SETUP,
        """Setup happens in a fixed order: Relic draft
        (if used), then the 3d6 roll-off (ties rerolled), then both Kings are placed, and only then
        does White take the first turn. A setup statement appeared out of that order or was given
        twice, or placed a King that the game's scenario already places.""",
    ),
    _c(
        "SG-S102",
        "roll-off",
        E,
        ("core §1", "R01"),
        Family.SETUP,
        """The roll-off is 3d6 per player; the higher
        total chooses a colour and ties are rerolled, so the last roll-off line must not be a tie.
        Each player's dice are written under the colour that player ended up with, so a
        'choose' line must name the colour of the higher total. (Dice showing impossible faces
        are reported as SG-R114.)""",
    ),
    _c(
        "SG-S103",
        "king-placement",
        E,
        ("core §1", "R01", "R02", "R24"),
        Family.SETUP,
        """Each King starts anywhere in its
        own camp: ranks 1-4 for White, 5-8 for Black. The board is otherwise empty (R02); every other
        piece starts in its owner's Soul Gem. A scenario may place pieces on the board (R24): a King
        it places starts in its camp too, and a King the log places may not stand on a square the
        scenario's pieces take.""",
    ),
    _c(
        "SG-S104",
        "missing-setup",
        E,
        ("core §1", "R01"),
        Family.SETUP,
        """The log starts playing before both Kings
        are placed. A game cannot begin without both Kings on the board.""",
    ),
    _c(
        "SG-S105",
        "draft-hand-limit",
        E,
        ("R19",),
        Family.SETUP,
        """A player keeps 3 of the 5 Relic Spell cards
        drawn, and may never hold more than 3. A draft line keeping more than 3 cards breaks the
        hand limit (the guide's Double Draft variant needs a module that raises the limit).""",
    ),
    _c(
        "SG-S106",
        "draft-unknown-card",
        E,
        ("R19", "R22"),
        Family.SETUP,
        """A draft line keeps a card that is not in the game's pack (the log's [Pack]
        tag or --pack). The message lists the pack's cards closest to the name written.""",
    ),
    _c(
        "SG-S107",
        "draft-settings",
        E,
        ("R19",),
        Family.SETUP,
        """A draft line keeps more cards than the pack's draft settings allow (draw and keep,
        hand limit; the guide's Double Draft keeps 4 and must raise the hand limit), or keeps one card twice.""",
    ),
    # --- turn structure (core §2, R03, R12, R13, R15, R17) ------------------------------------
    _c(
        "SG-T101",
        "turn-order",
        E,
        ("core §2", "R01"),
        Family.TURN,
        """Turns alternate, White first: 1. is White's
        first turn, 1... Black's, 2. White's second, and so on. The log has a turn out of sequence or
        a turn header that does not match whose turn it is.""",
    ),
    _c(
        "SG-T102",
        "phase-order",
        E,
        ("core §2", "R03"),
        Family.TURN,
        """Each turn runs Upkeep, Main 1, Battle,
        Main 2, End, strictly in that order. Phases may be skipped but never revisited.""",
    ),
    _c(
        "SG-T103",
        "wrong-phase",
        E,
        ("core §2", "core §5", "core §6", "R03", "R14"),
        Family.TURN,
        """Every action has a window:
        Summon, Break and Repair in Upkeep; Move in Main 1 or Main 2; Attack in Battle; SP->LP
        conversion in Main 2; Teleport in End (R03). SP income is gained at Upkeep (R14). The action
        was taken outside its window.""",
    ),
    _c(
        "SG-T104",
        "once-per-turn",
        E,
        ("core §5", "R12", "R13", "R15"),
        Family.TURN,
        """Some actions are limited per
        turn: one Summon per Upkeep, one Break and one Repair attempt per Upkeep (both before the
        Summon), one Teleport per End phase. A card in play may grant more (``extra summon``); once
        they are taken too, the message names the card whose extra actions are used up.""",
    ),
    _c(
        "SG-T105",
        "activations-this-turn",
        E,
        ("core §0", "R17", "R22"),
        Family.TURN,
        """A player may activate at most 2 Relic
        or Spell abilities per turn, across all phases. Passive effects do not count.""",
    ),
    _c(
        "SG-T106",
        "game-over",
        E,
        ("core §4.4", "core §7", "R11", "R18", "R24"),
        Family.TURN,
        """The game already ended (a King was
        converted, a player reached 1000 LP, the turn limit was reached, or a side met a win condition
        of the game's scenario) but the log continues.""",
    ),
    _c(
        "SG-T107",
        "action-outside-phase",
        E,
        ("core §2", "R03"),
        Family.TURN,
        """An action appears before any
        phase label in a turn. Write the phase (upkeep:, main1:, battle:, main2:, end:) first.""",
    ),
    # --- illegal actions ------------------------------------------------------------------------
    _c(
        "SG-T108",
        "missing-reveal",
        E,
        ("R26",),
        Family.TURN,
        """The game is played with a market module (Spell Chess): each capture reveals the top
        card of the deck, and the log records it right after the capture, in the capturer's turn,
        as 'reveal "Card" to white' (or black). This capture has no reveal, or the turn ends first.
        Once the deck is exhausted a capture reveals nothing.""",
    ),
    _c(
        "SG-T109",
        "unexpected-reveal",
        E,
        ("R26",),
        Family.TURN,
        """A reveal that no capture calls for: the game has no market module, the statement
        before it captured nothing, the capture already had its reveal, or the deck is exhausted.""",
    ),
    _c(
        "SG-R101",
        "no-such-piece",
        E,
        ("core §3", "core §4.1", "core §5", "R08", "R13"),
        Family.ACTION,
        """The action names a square that does not hold
        the stated piece, or holds no piece at all: a Move, an attack (its attacker and its target,
        R08) and a Teleport (R13) each need the piece to be on the board.""",
    ),
    _c(
        "SG-R102",
        "not-your-piece",
        E,
        ("core §3", "core §4.1", "core §5", "R08", "R13"),
        Family.ACTION,
        """A player may only move, teleport (R13) and attack
        with their own pieces, and may only attack enemy pieces (R08).""",
    ),
    _c(
        "SG-R103",
        "move-geometry",
        E,
        ("core §3", "R06", "R07", "R09"),
        Family.ACTION,
        """The piece cannot travel that
        way. Movement follows chess geometry (R06); knights make 1 or 2 jumps per Move (R07); the King
        moves one square (R09); pawns move 1 forward, or 2 from their second rank, and never
        diagonally when moving.""",
    ),
    _c(
        "SG-R104",
        "path-blocked",
        E,
        ("core §3", "R06", "R07"),
        Family.ACTION,
        """Sliding pieces need every square
        between start and destination empty; for a two-jump knight move the square between jumps must
        be on the board and empty.""",
    ),
    _c(
        "SG-R105",
        "square-occupied",
        E,
        ("core §3", "core §5", "R06", "R12", "R13"),
        Family.ACTION,
        """Moving never captures, so the
        destination must be empty (R06). Summons and teleports also need a free square (R12, R13).""",
    ),
    _c(
        "SG-R106",
        "cannot-afford",
        E,
        ("core §0", "R05"),
        Family.ACTION,
        """A cost larger than LP + SP cannot be paid.
        Any cost may be paid from any mix of LP and SP.""",
        traits={Trait.SHORT_OF_FUNDS},
    ),
    _c(
        "SG-R107",
        "out-of-reach",
        E,
        ("core §3", "core §4.1", "R07", "R08"),
        Family.ACTION,
        """A piece can attack an enemy it could reach
        with one Move action along a clear path (the target square holding the enemy). Pawns attack one
        square diagonally forward. Distance is measured along that path (R08); a Knight reaches what
        one or two jumps reach, over an empty middle square (R07).""",
    ),
    _c(
        "SG-R108",
        "king-restricted",
        E,
        ("core §4.4", "core §5", "R09", "R12", "R13"),
        Family.ACTION,
        """Under the core the King has no piece
        value: it moves one square at cost 1, cannot attack, and is never summoned or teleported. A
        ruleset profile may set king_value (a house rule) to let it attack.""",
    ),
    _c(
        "SG-R109",
        "not-in-gem",
        E,
        ("core §5", "R12"),
        Family.ACTION,
        """Only your own pieces that are in your Soul Gem
        can be summoned. Captured enemy pieces stay in the Gem as income.""",
    ),
    _c(
        "SG-R110",
        "outside-camp",
        E,
        ("core §5", "R12", "R13"),
        Family.ACTION,
        """Summons and teleports land in your own
        camp (ranks 1-4 for White, 5-8 for Black).""",
    ),
    _c(
        "SG-R111",
        "gem-broken",
        E,
        ("core §6", "R12", "R14"),
        Family.ACTION,
        """While your Soul Gem is broken you gain no
        SP income and cannot Summon, until a Repair succeeds.""",
    ),
    _c(
        "SG-R112",
        "break-repair",
        E,
        ("core §6", "R15"),
        Family.ACTION,
        """Break targets an unbroken enemy Gem; Repair is
        only possible while your own Gem is broken.""",
    ),
    _c(
        "SG-R113",
        "conversion",
        E,
        ("core §2", "R16"),
        Family.ACTION,
        """SP converts to LP in Main 2 only, at 2 SP for
        1 LP (so an even amount), and at most 20 SP per turn in total.""",
        traits={Trait.SHORT_OF_FUNDS},
    ),
    _c(
        "SG-R114",
        "bad-dice",
        E,
        ("core §1", "core §4.2", "core §6", "R01", "R10", "R15"),
        Family.ACTION,
        """Dice must be what was rolled:
        an accuracy roll is two d10 showing 0-9 each (tens, ones; 0 0 is 100; R10), Break and Repair
        (R15) and the roll-off (R01) are three d6 showing 1-6.""",
    ),
    _c(
        "SG-R115",
        "bad-payment",
        E,
        ("core §0", "R05"),
        Family.ACTION,
        """A stated payment must add up to the cost and
        cannot use more LP or SP than the player has.""",
        traits={Trait.SHORT_OF_FUNDS},
    ),
    _c(
        "SG-R120",
        "card-not-in-hand",
        E,
        ("R19", "R22"),
        Family.ACTION,
        """A card is played from hand that the player does not hold: it was not kept in
        the draft, it was kept by the opponent, or it was already played (a card is played from hand
        only once).""",
    ),
    _c(
        "SG-R121",
        "card-phase",
        E,
        ("core §2", "R22"),
        Family.ACTION,
        """A card is played or used outside its phase. A Spell is cast in the phase it names;
        a Relic is put into play in a Main phase unless it names another.""",
    ),
    _c(
        "SG-R122",
        "card-not-in-play",
        E,
        ("R17", "R22"),
        Family.ACTION,
        """``activate`` uses an activated Relic that this player has in play. The card is
        not in play, is a Spell (cast it with ``play``), or is passive (its effects apply by
        themselves and are never activated).""",
    ),
    _c(
        "SG-R123",
        "card-forbidden-effect",
        E,
        ("core §8", "R19", "R23"),
        Family.ACTION,
        """A card is played whose effect the contract forbids in every game: an extra
        phase or a rewritten turn, a rewritten core number, direct damage, capture or conversion of
        a King. The card does not resolve; the message names the contract code (SG-C0xx) that
        `sgcheck check` reports for it. This holds under --allow-violations too.""",
    ),
    _c(
        "SG-R124",
        "card-target",
        E,
        ("R22", "R23"),
        Family.ACTION,
        """A card that acts on a piece needs a target written with ``on`` (``play "Bolt" on
        Rb7``), and the piece there must be one the card allows; a card that needs no target takes none.""",
    ),
    _c(
        "SG-R125",
        "reroll-source",
        E,
        ("core §4.5", "R20", "R23"),
        Family.ACTION,
        """A rerolled accuracy roll (``reroll`` or ``advantage`` after the dice) needs a card
        that grants it to this attack, and one roll has at most one reroll source (R20).""",
    ),
    _c(
        "SG-R126",
        "card-use-limit",
        E,
        ("R22", "R23"),
        Family.ACTION,
        """A card is used more often than its ``limit`` allows (once per turn, twice per game).""",
    ),
    _c(
        "SG-R127",
        "repair-denied",
        E,
        ("core §6", "R23"),
        Family.ACTION,
        """A Repair is attempted while a card of the opponent denies repair this turn.""",
        traits={Trait.CARD_DENIAL},
    ),
    _c(
        "SG-R128",
        "reveal-not-the-deck",
        E,
        ("R26",),
        Family.ACTION,
        """The card revealed is not the one the market's deck holds there: with a committed
        order (R26: the deck's order is fixed before play) each reveal is the deck's next card; with
        an unordered deck it is a card of the deck with a copy not yet revealed.""",
    ),
    # --- the contract watched in play (core §8; sgcheck/core/watch.py) --------------------------------
    _c(
        "SG-R130",
        "exchange-in-replay",
        E,
        ("core §2", "core §8", "R05", "R16"),
        Family.ACTION,
        """What the cards (and the conversion) did in this game turned SP into LP better than
        the core's 2 SP for 1 LP, or past 20 SP in one turn. Each action is accounted by source:
        the payment for the action, the core's own gains (income, capture reward, Pass) and what
        the cards moved. An action that brings LP while SP is given up (its SP payment included:
        R05 lets any cost be paid in SP) is an exchange; SP the cards take in one window waits
        until the end of the player's next Upkeep for LP they give in another, and SP a card
        takes waits for LP the same card gives for the rest of the game. Both players are
        watched in every action: the opponent's cards firing in this player's turn make an
        exchange of the opponent's. The message names the cards and the numbers. Reported
        whatever `sgcheck check` said about the pack; a warning instead of an error with
        `--allow-violations` (playtesting a pack).""",
    ),
    _c(
        "SG-R131",
        "negative-cost-in-replay",
        E,
        ("core §8", "R23"),
        Family.ACTION,
        """The card modifiers on this action add up to a cost below 0. Play charges 0 (R23),
        but a cost that falls below zero turns an action into income, which core §8 does not
        allow a card to do. The message gives the cost as the cards made it. A warning instead of
        an error with `--allow-violations`.""",
    ),
    _c(
        "SG-R132",
        "reroll-sources-in-replay",
        E,
        ("core §4.5", "core §8", "R20"),
        Family.ACTION,
        """More than one card grants a reroll or advantage to this attack's accuracy roll. Core
        §4.5 allows one source per roll; replay uses only the first (R23), and names the others.
        A warning instead of an error with `--allow-violations`.""",
    ),
    _c(
        "SG-R133",
        "repair-denied-in-replay",
        E,
        ("core §6", "core §8"),
        Family.ACTION,
        """A player with a broken Gem could not attempt a Repair in this Upkeep nor in the
        Upkeep of their previous turn, because of the opponent's effects, by any route: a
        denial, a Repair priced past what the player holds while the core's own 10 was payable,
        or SP and LP the opponent's cards took since the End of the player's turn without which
        the 10 was payable. Core §8 forbids
        denying repair on consecutive turns with one player's effects. Reported at the header of
        the turn whose Upkeep it is. A warning instead of an error with `--allow-violations`.""",
    ),
    _c(
        "SG-R134",
        "free-attempts-in-replay",
        E,
        ("core §6", "core §8"),
        Family.ACTION,
        """A second Break attempt, or a second Repair attempt, in one Upkeep priced below the
        core's 20 or 10 (one attempt of each is what R15 allows; extra attempts at the core's price
        are extra actions a card may grant). Cheap attempts repeated make the 12+ and 10+ on 3d6 a
        matter of rolling again, which rewrites the thresholds core §8 locks. A warning instead of
        an error with `--allow-violations`.""",
    ),
    _c(
        "SG-R135",
        "king-damage-in-replay",
        E,
        ("core §4.4", "core §8", "R19"),
        Family.ACTION,
        """A King's damage changed through something other than an attack. Only attacks, within
        the caps, may damage a King (R19). A warning instead of an error with `--allow-violations`.""",
    ),
    _c(
        "SG-R136",
        "growth-in-replay",
        E,
        ("core §8",),
        Family.ACTION,
        """Within one turn the player came back to the same position (board, phase, the turn's
        counters and the cards in play) with more LP or SP and no less of either: the actions in
        between can be repeated without end, which core §8 forbids (unbounded SP/LP). How often
        an effect has fired counts only for an effect with a `limit`, which bounds the cycle.
        Across turns (ruling CR3, docs/contract-rules.md): a pool grew by a gain read from the
        player's own pool, which the player's gains feed back again and again (SP from SP; LP
        from SP and SP from LP; a trigger or an activated Relic's use, no `limit` per game), with
        nothing of the player's own taking from it again and again: it compounds turn after turn.
        A warning instead of an error with `--allow-violations`.""",
    ),
    _c(
        "SG-R137",
        "stacking-in-replay",
        E,
        ("core §4.5", "core §8", "R20"),
        Family.ACTION,
        """Copies of one card (a trigger that fired again, an effect started twice, the same card
        before each player) add up on this attack past a cap of core §4.5: more than +25 to-hit or
        more than +2 damage per hit from that one card. Play counts the cap (R20, SG-N304), but a
        card that passes a cap on its own breaks the contract. The message gives each copy's share
        and the total. A warning instead of an error with `--allow-violations`.""",
    ),
    _c(
        "SG-R138",
        "king-immune-in-replay",
        E,
        ("core §4.4", "core §8", "R19"),
        Family.ACTION,
        """An attack on a King with damage reductions in play that would leave even a hit boosted to
        the +2 cap (1 + 2 damage) at 0, the attack's own damage maluses counted: no attack can ever
        convert that King, which changes its 20 hit points in all but name (shields guarding the
        King break the contract, R26). Nothing clamps reductions, so it is reported whether one
        card or several make them. Reported at the attack, hit or miss. A warning instead of an
        error with `--allow-violations`.""",
    ),
    _c(
        "SG-R139",
        "priced-out-in-replay",
        E,
        ("core §2", "core §6", "core §7", "core §8"),
        Family.ACTION,
        """At the start of a player's turn, the opponent's cards make every attack, every move,
        every Summon, every Teleport, every Break or every Repair the position offers dearer by
        1,000 or more: no player can pay that (a player holding 1,000 LP has won, core §7), so the
        phase, or the Gem attempt, is gone in all but name, which changes the turn structure or the
        Gem's rules that core §8 locks. Each candidate is priced by the engine with and without the
        opponent's surcharges. Reported at the header of the turn. A warning instead of an error
        with `--allow-violations`.""",
    ),
    # --- wrong claims ----------------------------------------------------------------------------
    _c(
        "SG-R201",
        "wrong-cost",
        E,
        (
            "core §0",
            "core §3",
            "core §4.1",
            "core §5",
            "core §6",
            "R05",
            "R06",
            "R07",
            "R08",
            "R09",
            "R12",
            "R13",
            "R15",
            "R17",
        ),
        Family.CLAIM,
        """The cost written in
        the log is not what the action costs. Move = value + distance (R06; knights 3 per jump, R07;
        the King 1, R09); Attack = 2 x value + distance along the path (R08); Summon and Teleport =
        value + 5 + extra placement distance (R12, R13); Break 20, Repair 10 (R15); a card
        activation costs what its payment states (R05, R17). Each finding cites the rules of the
        action's own cost.""",
    ),
    _c(
        "SG-R202",
        "wrong-threshold",
        E,
        ("core §4.2", "core §4.4", "R09", "R10"),
        Family.CLAIM,
        """The hit threshold written
        in the log is wrong. Against a piece: 20 + 10 x (attacker value - defender value); against the
        King: 10 x attacker value; then clamped to 5..95.""",
    ),
    _c(
        "SG-R203",
        "wrong-totals",
        E,
        ("core §0", "core §2", "core §4.3", "core §6", "R04", "R05", "R11", "R14", "R16"),
        Family.CLAIM,
        """The LP or SP total written after an action does
        not match the replayed state. Costs are paid SP first unless the log states the split (R05);
        a Pass adds 6 LP (R04), a capture 5 x value SP (R11), a conversion 1 LP per 2 SP (R16),
        Upkeep income 2 x the enemy value in the Gem (R14).""",
        traits={Trait.TOTAL_CLAIM},
    ),
    _c(
        "SG-R204",
        "wrong-hit",
        E,
        ("core §4.2", "core §4.4", "R10"),
        Family.CLAIM,
        """The log says an attack hit (or
        missed) but the dice say otherwise: the d100 (tens die, ones die, 0 0 = 100) hits only if it is
        at most the threshold.""",
    ),
    _c(
        "SG-R205",
        "wrong-damage",
        E,
        ("core §4.3", "core §4.4", "R11"),
        Family.CLAIM,
        """The damage written for a hit, or
        the King's damage total written after an attack on it (hit or miss), does not match: each hit
        deals 1 damage (plus capped card bonuses), and damage on the King never clears (R11). A King
        damage total after an attack on another piece is wrong too.""",
    ),
    _c(
        "SG-R206",
        "wrong-capture",
        E,
        ("core §4.3", "core §4.4", "R11"),
        Family.CLAIM,
        """The log claims a capture that did not
        happen (damage dealt this turn is still below the piece value), or a conversion of the King
        before it reached 20 damage.""",
    ),
    _c(
        "SG-R207",
        "wrong-roll-result",
        E,
        ("core §6", "R15"),
        Family.CLAIM,
        """The log says a Break or Repair succeeded
        (or failed) but the 3d6 total says otherwise: Break needs 12+, Repair 10+.""",
    ),
    _c(
        "SG-R208",
        "wrong-income",
        E,
        ("core §6", "R14"),
        Family.CLAIM,
        """The SP income written at Upkeep is wrong: 2 x the
        values of the enemy pieces in your Gem, none on your first turn and none while your Gem is
        broken.""",
        traits={Trait.TOTAL_CLAIM},
    ),
    _c(
        "SG-R209",
        "wrong-pass",
        E,
        ("core §2", "R04"),
        Family.CLAIM,
        """Pass (+6 LP at End) only applies when the player
        took no action at all this turn.""",
    ),
    _c(
        "SG-R210",
        "wrong-result",
        E,
        ("core §7", "R18", "R24"),
        Family.CLAIM,
        """The result written in the log does not match
        how the game actually ended (or the log claims a result for a game that has not ended). A game
        won by a win condition of its scenario ends with the reason 'scenario'.""",
        traits={Trait.RESULT_CLAIM},
    ),
    _c(
        "SG-R211",
        "wrong-gain",
        E,
        ("core §2", "core §4.3", "core §6", "R04", "R11", "R15", "R16"),
        Family.CLAIM,
        """The SP or LP gained,
        as written in the log, is wrong (capture reward = 5 x value SP, none while the capturer's Gem
        is broken, R11, R15; conversion gives 1 LP per 2 SP, R16; a Pass gives 6 LP, R04).""",
    ),
    # --- notes ----------------------------------------------------------------------------------
    _c(
        "SG-N301",
        "card-not-simulated",
        W,
        ("R17", "R19"),
        Family.NOTE,
        """A card is played or activated in a game that
        names no pack (no [Pack] tag, no --pack, R22), so sgcheck does not know the card: the
        activation is counted (2 per turn, R17) and the payment the log states is applied, but the
        card's effect is not played. Said once per log, at the first such card. Totals written
        after it may legitimately differ from sgcheck's. Name the pack the game was played with
        and its cards are played (and checked) as every other action is.""",
    ),
    _c(
        "SG-N302",
        "unknown-card",
        W,
        ("R19",),
        Family.NOTE,
        """The card played was not among the cards the player
        kept in the draft.""",
    ),
    _c(
        "SG-N303",
        "house-rule-played",
        N,
        ("core §8", "R09", "R14"),
        Family.NOTE,
        """The game was replayed with a house rule (a table
        choice) switched on. Games under it are no longer core-compatible; the note names the core §8
        item it breaks.""",
    ),
    _c(
        "SG-N304",
        "card-cap",
        N,
        ("core §4.5", "R20"),
        Family.NOTE,
        """Card bonuses on one attack went past a cap of R20 (to-hit +25 in all, damage +2 per
        hit) and were clamped. The explanation lists each card's share and the clamp.""",
    ),
    _c(
        "SG-N305",
        "pack-violations-allowed",
        W,
        ("core §8", "R20"),
        Family.NOTE,
        """The game's pack breaks the contract, and --allow-violations replays it anyway
        (a prototype at the table). The violations are listed first, downgraded to warnings (same
        codes), so a legal game that never plays an offending card passes; a forbidden effect is
        still refused, as an error, when it is played, and the caps still bind.""",
    ),
    _c(
        "SG-N306",
        "knock-on-findings",
        N,
        ("core §2", "R04"),
        Family.NOTE,
        """With --keep-going, replay skips a refused action as if it had not been written (so it is
        no action for the Pass rule, R04) and goes on. Later lines written as if the action had
        happened may then disagree with the game. Each error opens a counterfactual: the game with
        the refused action taken as the log wrote it (applied by the engine with what refused it
        granted, else as its closest legal reading), or with a wrong LP, SP or income total as the
        log claimed it; every later step is replayed there too. A later finding that disappears
        there follows from the error and is not reported; this note, on the error, counts them,
        and its hint names their lines. Every other finding is reported. See docs/log-format.md,
        "Replaying with --keep-going".""",
    ),
    # --- verifiable dice (sg-dice-v1, docs/dice.md) ------------------------------------------
    _c(
        "SG-D101",
        "bad-dice-header",
        E,
        (),
        Family.DICE,
        """A header tag of verifiable dice cannot be used, so the log's rolls are not checked: a
        dice tag without [DiceProtocol], a protocol this sgcheck does not know (it verifies
        sg-dice-v1 and sg-dice-v2), a missing or empty [GameId], a missing [WhiteCommit] or [BlackCommit], a
        commitment that is not 64 hexadecimal digits, or two identical commitments.
        Example: [WhiteCommit "abc"] is reported at the tag. See docs/dice.md.""",
    ),
    _c(
        "SG-D102",
        "secret-mismatch",
        E,
        ("DR1", "DR2"),
        Family.DICE,
        """A secret revealed after the game ([WhiteSecret] or [BlackSecret]) is not the one its
        player committed to before play: SHA-256 applied 4096 times to it does not give the
        [WhiteCommit] or [BlackCommit] of the header; or a revealed key ([WhiteKey],
        [BlackKey], DR2) is no key of the committed chain; or what is revealed is not 64
        hexadecimal digits at all. The dice cannot be trusted and are not checked, and the
        player's commitment counts as not opened (DR1): in a dispute the player forfeits. The
        message shows both hashes. See docs/dice.md.""",
        traits={Trait.WITHHELD},
    ),
    _c(
        "SG-D103",
        "wrong-dice",
        E,
        ("DR4",),
        Family.DICE,
        """A roll written in the log is not the roll the dice protocol derives from the two revealed
        secrets (or keys), the game id and the roll's number (rolls are numbered from 0 in log
        order: each roll-off line, attack, second roll, Break and Repair is one roll); with
        sg-dice-v2 also the roll's purpose, the action it decides, so dice written for another
        action than the one they were derived for are wrong too. The message names the dice
        expected and those written; the later rolls are still checked. By DR4 the action is what
        the derived dice decide (the dispute report's dice-corrected). Example: 'attack Ra3 a5 roll
        9 1' where sg-dice-v1 gives 7 2. See docs/dice.md.""",
        traits={Trait.FALSIFIED_ROLL},
    ),
    _c(
        "SG-D104",
        "dice-unverified",
        W,
        (),
        Family.DICE,
        """The log commits to its dice ([DiceProtocol], [GameId], [WhiteCommit], [BlackCommit]) but
        does not reveal both secrets (or keys that reach its last roll), so its rolls cannot be
        checked yet: a game still in play. A game that is over without them is an error,
        SG-D106. See docs/dice.md.""",
    ),
    _c(
        "SG-D105",
        "too-many-rolls",
        E,
        (),
        Family.DICE,
        """The log has more rolls than the dice protocol derives (4096 a game, the length of each
        player's hash chain); the rolls past the last are not checked. See docs/dice.md.""",
    ),
    _c(
        "SG-D106",
        "dice-withheld",
        E,
        ("DR1", "DR2"),
        Family.DICE,
        """The game is over (it ended, or the log writes its result) and a player has not opened
        their commitment: the header reveals neither their secret ([WhiteSecret], [BlackSecret])
        nor the last key they told ([WhiteKey], [BlackKey], DR2), or the key revealed stops
        before the game's last roll. The rolls cannot be checked, and a player who could hide a
        falsified roll by keeping quiet would gain by it: by DR1 the withholder loses (the
        dispute report's forfeit). The finding names the player. Example: a finished game with
        [WhiteSecret] and no [BlackSecret] is reported at [BlackCommit]. A game still in play
        gets SG-D104 instead. See docs/dice.md.""",
        traits={Trait.WITHHELD},
    ),
    _c(
        "SG-D107",
        "dice-secret-reused",
        E,
        ("DR3",),
        Family.DICE,
        """Two games of one run (replay or dice stats over several logs or a folder) share a
        secret: the same commitment, or a commitment that lies on the other game's hash chain (a
        key of one chain used as the secret of the next). Whoever saw the reused secret revealed
        knows every roll of the second game in advance, and can try secrets of their own until
        the roll-off and the first attacks suit them. By DR3 a secret serves one game; the
        finding is on each of the two games and names the other. See docs/dice.md.""",
    ),
)

CATALOGUE: dict[str, CodeInfo] = {info.code: info for info in _CODES}

#: The codes replay and parsing report: the catalogue without the contract checker's own.
REPLAY_CODES: dict[str, CodeInfo] = {
    code: info for code, info in CATALOGUE.items() if Trait.CONTRACT not in info.traits
}


def family_of(code: str) -> Family | None:
    """The family of a catalogued code; None for a contract rule's code (its module describes it)."""
    info = CATALOGUE.get(code)
    return info.family if info is not None else None


def has(code: str, trait: Trait) -> bool:
    """Whether the catalogued ``code`` has ``trait`` (a contract rule's code has none)."""
    info = CATALOGUE.get(code)
    return info is not None and trait in info.traits


def reads_input(code: str) -> bool:
    """Whether ``code`` is about the input as a whole (:attr:`Family.reads_input`)."""
    family = family_of(code)
    return family is not None and family.reads_input


_SPELLED_CODE = re.compile(r"(?:SG-?)?([A-Z])([0-9]{1,3})")


def select_codes(spelling: str, catalogue: Mapping[str, CodeInfo]) -> frozenset[str]:
    """The codes of ``catalogue`` a user means by ``spelling``, spelled alike everywhere (the command
    line, ``[tool.sgcheck]``, suppression comments, ``sgcheck explain``): a code in any case with or
    without its ``SG-`` (``SG-C050``, ``C050``, ``c050``), a rule's name (``extra-turn-structure``,
    also with underscores), a prefix naming a family (``C05``, ``SG-R2``, ``C``) or ``ALL``.
    An empty set: nothing of that spelling."""
    wanted = ascii_upper(spelling.strip()).replace("_", "-")
    if wanted == "ALL":
        return frozenset(catalogue)
    match = _SPELLED_CODE.fullmatch(wanted)
    if match is not None:
        prefix = f"SG-{match.group(1)}{match.group(2)}"
        return frozenset(code for code in catalogue if code.startswith(prefix))
    if wanted in ("SG", "SG-"):
        return frozenset(catalogue)
    family = re.fullmatch(r"(?:SG-?)?([A-Z])", wanted)
    if family is not None:
        return frozenset(code for code in catalogue if code.startswith(f"SG-{family.group(1)}"))
    return frozenset(code for code, info in catalogue.items() if info.name.upper() == wanted)


def code_spellings(catalogue: Mapping[str, CodeInfo]) -> dict[str, str]:
    """Every spelling of every code of ``catalogue`` (``SG-R204``, ``R204``, ``wrong-hit``), each to
    what to suggest for it (the code, or the rule's name): what an unknown spelling is compared
    with (:func:`unknown_code`)."""
    spelled: dict[str, str] = {}
    for code, info in catalogue.items():
        spelled[code] = spelled[code.removeprefix("SG-")] = code
        spelled[info.name] = info.name
    return spelled


def unknown_code(spelling: str, catalogue: Mapping[str, CodeInfo]) -> str:
    """``"; did you mean 'SG-R204'?"`` for a spelling that names no code, or ``""``."""
    return did_you_mean(spelling, code_spellings(catalogue))


def spell_code(spelling: str, catalogue: Mapping[str, CodeInfo]) -> str | None:
    """The one code ``spelling`` names (a code in any of its spellings, or a rule's name), or None."""
    wanted = ascii_upper(spelling.strip()).replace("_", "-")
    match = _SPELLED_CODE.fullmatch(wanted)
    if match is not None:
        code = f"SG-{match.group(1)}{match.group(2)}"
        return code if len(match.group(2)) == 3 and code in catalogue else None
    return next((code for code, info in catalogue.items() if info.name.upper() == wanted), None)


#: Characters of an internal error's own message kept in its diagnostic.
_INTERNAL_MESSAGE_CHARS = 200


def internal_error(error: BaseException) -> Diagnostic:
    """SG-X001 for a failure of sgcheck itself on one input; the caller places it on the file.

    The exception's message is cut short: it may echo a piece of the input.
    """
    detail = str(error)
    if len(detail) > _INTERNAL_MESSAGE_CHARS:
        detail = detail[:_INTERNAL_MESSAGE_CHARS] + "…"
    text = f"{type(error).__name__}: {detail}" if detail else type(error).__name__
    return diagnostic("SG-X001", f"sgcheck failed on this file ({text}); the other files were still checked")


def diagnostic(
    code: str,
    message: str,
    *,
    rules: tuple[str, ...] | None = None,
    hint: str | None = None,
    fix: Fix | None = None,
    severity: Severity | None = None,
    expected: Scalar = None,
    claimed: Scalar = None,
) -> Diagnostic:
    """Build a span-less diagnostic for a catalogued code.

    ``rules`` defaults to the code's own references; layers that know the source
    location attach it later with :meth:`Diagnostic.at`. ``expected`` and ``claimed``: what
    the rules give and what the input wrote, for a finding that contrasts the two.
    """
    info = CATALOGUE[code]
    return Diagnostic(
        code=code,
        severity=severity or info.severity,
        message=message,
        rules=rules if rules is not None else info.rules,
        hint=hint,
        fix=fix,
        expected=expected,
        claimed=claimed,
    )
