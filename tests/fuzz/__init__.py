"""The fuzz harness: crafted, mutated and random inputs against the promises every run keeps.

Whatever the input, ``sgcheck replay`` and ``sgcheck check`` exit with 0, 1 or 2, never print a
traceback or an internal error, write JSON and SARIF documents that are complete and valid
against their schemas, and finish within bounded time and memory. ``corpus/`` keeps crafted and
mutated inputs as regression files; inputs too big to keep are generated at test time. When a
fuzz test finds a failing input, add it to ``corpus/`` with its expectation in
``test_corpus.py``.
"""
