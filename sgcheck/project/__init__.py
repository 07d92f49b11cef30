"""The project model: what a run of sgcheck works on, shared by the commands and the language server.

* :mod:`sgcheck.project.kinds`: the one table of file kinds (what a file's name says it holds);
* :mod:`sgcheck.project.stamps`: the one stamp of a file (what decides that it changed);
* :mod:`sgcheck.project.definition`: the :class:`~sgcheck.project.definition.Project` record: its root, its
  configuration and where that came from (:mod:`sgcheck.config` reads it), and what a walk of its
  folders leaves out (:mod:`sgcheck.discovery` walks them).

The package imports nothing here, so that the languages' readers can read the table of kinds
without loading the configuration's reader.
"""
