"""Scenario files (``*.scenario.yaml``) and the ``scenario:`` section of a pack manifest (R24)."""
