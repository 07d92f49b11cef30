"""Balance, not just legality: many games played with and without a pack (``sgcheck simulate``).

- ``policies.py``: how a side plays: greedy, one-turn lookahead, random; the draft (R19).
- ``games.py``: one game as a picklable task in and a small record out (``play_task``).
- ``run.py``: the tasks of a run, played where ``distribute.map_ordered`` says (here, processes, a cluster).
- ``stats.py``: the report: win rates with Wilson intervals, length, endings, cards, economy.
- ``tables.py`` and ``page.py``: the report as text and JSON, and as an HTML page with SVG plots.
"""
