"""What the contract checker knows about cards and packs, by subject; the rules read it here.

Rules read these facts and never import one another (tests/contract/test_rule_independence.py).

* :mod:`~sgcheck.contract.facts.matchups`: attack matchups (attacker kind x defender kind) as bit masks;
* :mod:`~sgcheck.contract.facts.conditions`: when an effect's condition can hold;
* :mod:`~sgcheck.contract.facts.bonuses`: attack bonuses per matchup, and the per-attack caps;
* :mod:`~sgcheck.contract.facts.repeats`: how many copies of a lasting bonus act at once;
* :mod:`~sgcheck.contract.facts.kings`: how much an effect shields a King;
* :mod:`~sgcheck.contract.facts.repairs`: repair denials;
* :mod:`~sgcheck.contract.facts.timing`: when an effect acts in the turn, where its extra actions go;
* :mod:`~sgcheck.contract.facts.income`: income under another name, the effects of an exchange;
* :mod:`~sgcheck.contract.facts.pack_facts`: the facts of one card and of a pack, each computed once.

The rule facts these apply (phase windows, piece reach, caps, core numbers) are the core's.
"""
