"""Write the editors' TextMate grammars from their one source.

``editors/textmate/*.tmLanguage.json`` is the source of each grammar. What the card catalogue
(``sgcheck/core/cards/catalog.py``) describes is not written there by hand: the ``.sgcard``
grammar's action keywords are the words that open an effect, put in by this script. The VS Code
extension's grammars (``editors/vscode/syntaxes/``) are copies of the results. So a new effect
keyword touches no editor file by hand: run this script (or the tests with
``SGCHECK_UPDATE_GOLDEN=1``), and ``tests/editors/test_generated_grammars.py`` fails while a
grammar on disk differs from what it writes.

Run from the repository's root with sgcheck importable: ``python editors/generate.py``;
``--check`` writes nothing and exits 1 when a grammar is out of date.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
SOURCES = ROOT / "editors" / "textmate"
COPIES = ROOT / "editors" / "vscode" / "syntaxes"
GRAMMARS = ("sglog.tmLanguage.json", "sgcard.tmLanguage.json")

#: The scope of the rule that highlights the words opening an effect.
ACTION_SCOPE = "keyword.other.action.sgcard"
#: The clause keyword ``cost`` also opens an effect (a cost modifier); it keeps the clause's colour.
CLAUSE_WORDS = frozenset({"cost"})


def keyword_pattern(words: set[str] | frozenset[str]) -> str:
    """A TextMate pattern matching any of ``words`` as a whole word, longest first."""
    alternatives = "|".join(sorted(words, key=lambda word: (-len(word), word)))
    return rf"(?<![\w-])(?:{alternatives})(?![\w-])"


def action_words() -> frozenset[str]:
    """The words that open an effect in the card language, from the card catalogue."""
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    from sgcheck.core.cards import catalog

    return frozenset(word for kind in catalog.EFFECTS for word in kind.words) - CLAUSE_WORDS


def built(name: str, source: str) -> str:
    """The grammar ``name`` as the source ``source`` gives it, with what the catalogue describes."""
    grammar: dict[str, Any] = json.loads(source)
    if name == "sgcard.tmLanguage.json":
        rules = [rule for rule in grammar["repository"]["keywords"]["patterns"] if rule.get("name") == ACTION_SCOPE]
        if len(rules) != 1:
            raise ValueError(f"{name}: expected one rule named {ACTION_SCOPE}, found {len(rules)}")
        rules[0]["match"] = keyword_pattern(action_words())
    return json.dumps(grammar, indent=2, ensure_ascii=False) + "\n"


def outputs() -> dict[Path, str]:
    """Every grammar file of editors/ with the text it must have."""
    written: dict[Path, str] = {}
    for name in GRAMMARS:
        text = built(name, (SOURCES / name).read_text(encoding="utf-8"))
        written[SOURCES / name] = written[COPIES / name] = text
    return written


def main(argv: list[str]) -> int:
    check = "--check" in argv
    stale = []
    for path, text in outputs().items():
        if path.read_text(encoding="utf-8") == text:
            continue
        stale.append(path.relative_to(ROOT).as_posix())
        if not check:
            path.write_text(text, encoding="utf-8", newline="\n")
    for shown in stale:
        print(f"{'out of date' if check else 'written'}: {shown}")
    return 1 if check and stale else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
