"""Relic & Spell cards as the core sees them: the card model, cards in a game, and what effects mean.

The model (``model``, ``parts``, ``effects``) is what both card front-ends build; the rules of
play consult it as data (``semantics``), so replay and the contract checker share one meaning.
"""
