"""A small interpreter of TextMate grammars, for the tests of editors/textmate/.

It runs the subset of TextMate grammar features the grammars of editors/textmate/ use, as
vscode-textmate runs them: ``match`` rules with ``name`` and ``captures``; ``begin``/``end`` rules
with ``name``, ``contentName``, ``beginCaptures``, ``endCaptures``, ``captures`` and ``patterns``;
``include`` of a repository entry (``#name``), and repository entries that only group
``patterns``. Each line is scanned with its line break, like vscode-textmate does: at each
position every rule in scope is searched, the match that starts first wins, and among matches
that start at the same place the end of the enclosing ``begin`` rule comes first, then the rules
in the order they are listed.

Regular expressions are Oniguruma's in editors, Python's ``re`` here. The two agree on a plain
subset, and :func:`check_portable` refuses every construct outside it, so a grammar that uses
one fails its test instead of being interpreted differently: only the escapes of
``PORTABLE_ESCAPES``, the groups ``(``, ``(?:``, ``(?=``, ``(?!``, ``(?<=``, ``(?<!`` and
``(?i:``, no possessive quantifiers, no nested classes (``[[:alpha:]]``), no back-references.
Any other key of a rule, an ``include`` of anything but ``#name``, captures with patterns or a
rule that matches the empty string (except an ``end``) is refused too (:class:`GrammarError`).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

Scopes = tuple[str, ...]

PORTABLE_ESCAPES = frozenset('\\.[](){}*+?|^$/-"sSwWnt')
GROUP_OPENINGS = ("(?<=", "(?<!", "(?:", "(?=", "(?!", "(?i:")
RULE_KEYS = frozenset(
    {"name", "match", "captures", "begin", "end", "beginCaptures", "endCaptures", "contentName", "patterns", "include"}
)
GRAMMAR_KEYS = frozenset({"$schema", "name", "scopeName", "fileTypes", "comment", "patterns", "repository"})


class GrammarError(Exception):
    """The grammar uses something this interpreter does not interpret the way an editor does."""


def check_portable(pattern: str) -> re.Pattern[str]:
    """``pattern`` compiled, if it keeps to the subset Oniguruma and Python read alike."""
    i = 0
    after_quantifier = False
    while i < len(pattern):
        char = pattern[i]
        if char == "\\":
            escape = pattern[i + 1 : i + 2]
            if escape not in PORTABLE_ESCAPES:
                raise GrammarError(f"escape '\\{escape}' in {pattern!r} is not in the portable subset")
            i += 2
            after_quantifier = False
            continue
        if char == "[":
            i += 1
            if pattern[i : i + 1] == "^":
                i += 1
            if pattern[i : i + 1] == "]":
                i += 1
            while i < len(pattern) and pattern[i] != "]":
                if pattern[i] == "[":
                    raise GrammarError(f"a nested class in {pattern!r} is not in the portable subset")
                if pattern[i] == "\\":
                    if pattern[i + 1 : i + 2] not in PORTABLE_ESCAPES:
                        raise GrammarError(f"escape '\\{pattern[i + 1]}' in {pattern!r} is not in the portable subset")
                    i += 1
                i += 1
            i += 1
            after_quantifier = False
            continue
        if char == "(":
            if pattern.startswith("(?", i):
                opening = next((o for o in GROUP_OPENINGS if pattern.startswith(o, i)), None)
                if opening is None:
                    raise GrammarError(f"group '{pattern[i : i + 4]}…' in {pattern!r} is not in the portable subset")
                i += len(opening)
            else:
                i += 1
            after_quantifier = False
            continue
        if char in "*+?":
            if after_quantifier and char == "+":
                raise GrammarError(f"a possessive quantifier in {pattern!r} is not in the portable subset")
            after_quantifier = char != "?" or not after_quantifier
            i += 1
            continue
        if char == "{":
            close = pattern.find("}", i)
            if close == -1 or not re.fullmatch(r"[0-9]+(,[0-9]*)?", pattern[i + 1 : close]):
                raise GrammarError(f"a literal '{{' in {pattern!r} must be escaped")
            i = close + 1
            after_quantifier = True
            continue
        i += 1
        after_quantifier = False
    try:
        return re.compile(pattern)
    except re.error as error:
        raise GrammarError(f"{pattern!r} does not compile: {error}") from None


def _names(name: str | None) -> Scopes:
    return tuple(name.split()) if name else ()


def _captures(raw: Any, where: str) -> dict[int, Scopes]:
    if raw is None:
        return {}
    found: dict[int, Scopes] = {}
    for key, value in raw.items():
        if set(value) - {"name"}:
            raise GrammarError(f"{where}: captures with {sorted(set(value) - {'name'})} are not interpreted")
        found[int(key)] = _names(value.get("name"))
    return found


@dataclass
class Rule:
    where: str
    name: Scopes = ()
    match: re.Pattern[str] | None = None
    begin: re.Pattern[str] | None = None
    end: re.Pattern[str] | None = None
    content: Scopes = ()
    captures: dict[int, Scopes] = field(default_factory=dict)
    begin_captures: dict[int, Scopes] = field(default_factory=dict)
    end_captures: dict[int, Scopes] = field(default_factory=dict)
    patterns: list[Rule | str] = field(default_factory=list)  # a str: an include, expanded when scanned


class Grammar:
    """A grammar read from its JSON, every rule checked and compiled."""

    def __init__(self, raw: dict[str, Any]) -> None:
        unknown = set(raw) - GRAMMAR_KEYS
        if unknown:
            raise GrammarError(f"grammar keys {sorted(unknown)} are not interpreted")
        self.scope_name: str = raw["scopeName"]
        self._repository: dict[str, list[Rule | str]] = {
            name: self._item(entry, f"repository.{name}") for name, entry in raw.get("repository", {}).items()
        }
        self._patterns = self._items(raw["patterns"], "patterns")
        for items in self._repository.values():  # every include names an entry
            self.expand(items)
        self.patterns = self.expand(self._patterns)

    @classmethod
    def load(cls, path: Path) -> Grammar:
        return cls(json.loads(path.read_text(encoding="utf-8")))

    def expand(self, items: list[Rule | str], seen: frozenset[str] = frozenset()) -> list[Rule]:
        """The rules of ``items``, each include replaced by its entry's rules (where the scan needs them)."""
        rules: list[Rule] = []
        for item in items:
            if isinstance(item, Rule):
                rules.append(item)
            elif item in seen:
                raise GrammarError(f"#{item} includes itself without a rule in between")
            elif item not in self._repository:
                raise GrammarError(f"#{item} is not in the repository")
            else:
                rules.extend(self.expand(self._repository[item], seen | {item}))
        return rules

    def _items(self, raw: list[Any], where: str) -> list[Rule | str]:
        items: list[Rule | str] = []
        for index, entry in enumerate(raw):
            items.extend(self._item(entry, f"{where}[{index}]"))
        return items

    def _item(self, raw: dict[str, Any], where: str) -> list[Rule | str]:
        keys = set(raw) - {"comment"}
        if keys - RULE_KEYS:
            raise GrammarError(f"{where}: keys {sorted(keys - RULE_KEYS)} are not interpreted")
        if "include" in raw:
            if keys != {"include"} or not raw["include"].startswith("#"):
                raise GrammarError(f"{where}: only includes of '#name' alone are interpreted")
            return [raw["include"][1:]]
        if keys <= {"patterns"}:  # a group of rules
            return self._items(raw.get("patterns", []), where)
        rule = Rule(where, name=_names(raw.get("name")), captures=_captures(raw.get("captures"), where))
        if "match" in raw:
            if keys & {"begin", "end", "patterns", "contentName", "beginCaptures", "endCaptures"}:
                raise GrammarError(f"{where}: a match rule with begin/end keys")
            rule.match = check_portable(raw["match"])
        elif "begin" in raw and "end" in raw:
            rule.begin = check_portable(raw["begin"])
            if re.search(r"\\[0-9]", raw["end"]):
                raise GrammarError(f"{where}: back-references in 'end' are not interpreted")
            rule.end = check_portable(raw["end"])
            rule.content = _names(raw.get("contentName"))
            rule.begin_captures = _captures(raw.get("beginCaptures"), where) or rule.captures
            rule.end_captures = _captures(raw.get("endCaptures"), where) or rule.captures
            rule.patterns = self._items(raw.get("patterns", []), f"{where}.patterns")
        else:
            raise GrammarError(f"{where}: a rule needs 'match', or 'begin' and 'end'")
        return [rule]


@dataclass
class _Frame:
    rule: Rule
    outer: Scopes  # the scopes around the begin match

    @property
    def inner(self) -> Scopes:
        return self.outer + self.rule.name + self.rule.content


def _paint(line: list[Scopes], match: re.Match[str], base: Scopes, captures: dict[int, Scopes]) -> None:
    for index in range(match.start(), match.end()):
        scopes = base
        for group in sorted(captures):
            start, end = match.span(group)
            if start <= index < end:
                scopes += captures[group]
        line[index] = scopes


def tokenize(grammar: Grammar, text: str) -> list[list[Scopes]]:
    """The scopes of every character of ``text``, line by line (line breaks left out)."""
    root: Scopes = (grammar.scope_name,)
    stack: list[_Frame] = []
    result: list[list[Scopes]] = []
    for raw_line in text.split("\n"):
        line = raw_line + "\n"
        scopes: list[Scopes] = [root] * len(line)
        position = 0
        while position < len(line):
            frame = stack[-1] if stack else None
            inner = frame.inner if frame else root
            patterns = grammar.expand(frame.rule.patterns) if frame else grammar.patterns
            best: tuple[int, int, Rule | None, re.Match[str]] | None = None
            if frame is not None:
                assert frame.rule.end is not None
                found = frame.rule.end.search(line, position)
                if found:
                    best = (found.start(), -1, None, found)
            for order, rule in enumerate(patterns):
                regex = rule.match or rule.begin
                assert regex is not None
                found = regex.search(line, position)
                if found and (best is None or (found.start(), order) < best[:2]):
                    best = (found.start(), order, rule, found)
            if best is None:
                scopes[position:] = [inner] * (len(line) - position)
                break
            start, _, rule, found = best
            scopes[position:start] = [inner] * (start - position)
            if rule is None:  # the end of the enclosing begin rule
                assert frame is not None
                _paint(scopes, found, frame.outer + frame.rule.name, frame.rule.end_captures)
                stack.pop()
            elif found.end() == found.start():
                raise GrammarError(f"{rule.where} matched the empty string at {raw_line!r}:{start}")
            elif rule.match is not None:
                _paint(scopes, found, inner + rule.name, rule.captures)
            else:
                _paint(scopes, found, inner + rule.name, rule.begin_captures)
                stack.append(_Frame(rule, inner))
            position = found.end()
        result.append(scopes[: len(raw_line)])
    return result
