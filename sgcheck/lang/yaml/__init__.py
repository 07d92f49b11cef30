"""The YAML layer shared by card files, pack manifests, scenarios and modules.

- :mod:`~sgcheck.lang.yaml.tree`: YAML read safely into positioned plain values (:class:`YNode`),
  bounded in aliases, nesting and size;
- :mod:`~sgcheck.lang.yaml.schema`: JSON Schema validation with each error placed on the YAML text;
- :mod:`~sgcheck.lang.yaml.round_trip`: the canonical layout of a YAML file by ruamel.yaml's round
  trip, comments kept (and the comment it would lose, SG-P039).

Each language keeps its own part: what its documents mean (``lang/cards/yaml_loader.py``,
``lang/scenarios/scenario_loader.py``, ``lang/modules/module_loader.py``, the manifest in
``contract/packs.py``) and what formatting must read back (``lang/cards/format_yaml.py``).
"""
