"""sgcheck's language server (``sgcheck server``): the library's findings in the editor.

- :mod:`sgcheck.server.analysis`: a document checked by the library, as the command line checks the file;
- :mod:`sgcheck.server.convert`: findings and positions in LSP's terms (0-based, UTF-16);
- :mod:`sgcheck.server.features`: hover, completion, code actions, formatting, symbols, definitions, inlay hints;
- :mod:`sgcheck.server.app`: the pygls server, its documents, debouncing and cancelling.

Only :mod:`~sgcheck.server.app`, :mod:`~sgcheck.server.convert` and :mod:`~sgcheck.server.features`
import pygls and lsprotocol (the ``server`` extra).
"""
