"""Playing a game: one home for everything that plays the core rather than checks a log.

- ``start.py``: the set-up of a game (its ruleset with a scenario's turn limit, the header, the
  draft lines, the roll-off, the Kings placed in the core's camps, the first state);
- ``loop.py``: the loop that applies chosen actions with :func:`sgcheck.core.engine.apply` and
  writes each applied action as the log's turns;
- ``roller.py``: dice from a seeded random source, as :mod:`sgcheck.core.rolls` says each roll throws;
- ``styles.py``: the generator's policies (random, aggressive, endless); ``policies.py`` and
  ``search.py``: the simulator's (random, greedy, lookahead, search) and its draft;
- ``pack.py``, ``game_scenario.py``, ``tag_path.py``: the pack and the scenario a game is played
  with, loaded and checked once; ``dice_source.py``: dice from the verifiable-dice protocol.

The replay generator (:mod:`sgcheck.replay.generate`), the simulator
(:mod:`sgcheck.simulate.games`) and the contract's proofs (:mod:`sgcheck.contract.proof`) are
drivers over these modules. Nothing here imports replay or the simulator.
"""
