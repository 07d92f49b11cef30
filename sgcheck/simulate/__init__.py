"""Balance, not just legality: many games played with and without a pack (``sgcheck simulate``).

- ``policies.py``: how a side plays: greedy, one-turn lookahead, random; the draft (R19).
- ``games.py``: one game as a picklable task in and a small record out (``play_task``).
- ``run.py``: the tasks of a run, played where ``distribute.map_ordered`` says (here, processes, a cluster).
- ``stats.py``: the report as typed records (``results.SimulationReport``): win rates with Wilson
  intervals, length, endings, cards, economy; ``impact.py`` and ``gauntlet.py`` the ablations and a gauntlet.
- the report layer spells it (``report/simulation.py``, ``report/simulation_page.py``): text, JSON, HTML.
"""
