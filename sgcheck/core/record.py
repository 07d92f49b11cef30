"""The base of the core's immutable records: compared, hashed, shown and pickled by their fields.

A record (the game state, what an action produced, an action) is a plain ``@final`` class whose
fields are ``Final`` attributes set once in ``__init__``. Each names its fields once, in order, in
``__match_args__`` (which is also its ``__slots__``), and this base reads that tuple to compare,
hash, show and pickle it the way a frozen dataclass would:

- equality compares the type and then every field (a ``Break`` never equals a ``Repair`` with
  the same dice; a state equals another with equal fields);
- a record hashes by its type's name and fields, so equal records hash alike;
- ``repr`` is ``Name(field=value, ...)``.

Compiled with mypyc, such a class is a native class: each field is a member of a C struct, read
directly by compiled code, and a ``Final`` attribute gets no setter, so assigning one raises
``AttributeError`` at run time. In the pure build ``__slots__`` keeps records small, and mypy
(strict) rejects any assignment to a ``Final`` attribute outside ``__init__``. Change a record by
building a new one: its ``with_*`` methods name the usual changes, and ``replace(field=value)``
(see :func:`replace` below) is the general one.
"""

from __future__ import annotations

import copyreg
import dataclasses
from collections.abc import Mapping
from types import FunctionType
from typing import Any, ClassVar, TypeVar

R = TypeVar("R", bound="Record")


class Record:
    """Equality, hashing, ``repr`` and pickling by field, for the records of the core."""

    __slots__ = ()
    __match_args__: ClassVar[tuple[str, ...]] = ()  # the fields, in the order ``__init__`` takes them

    def _values(self) -> tuple[object, ...]:
        return tuple([getattr(self, name) for name in self.__match_args__])

    def __eq__(self, other: object) -> bool:
        if self is other:
            return True
        if not isinstance(other, Record) or type(other) is not type(self):
            return False
        return self._values() == other._values()

    def __hash__(self) -> int:
        return hash((type(self).__name__, self._values()))

    def __repr__(self) -> str:
        fields = ", ".join(f"{name}={getattr(self, name)!r}" for name in self.__match_args__)
        return f"{type(self).__name__}({fields})"

    def __reduce__(self) -> tuple[type[Record], tuple[object, ...]]:
        return type(self), self._values()

    def replace(self: R, **changes: Any) -> R:
        """A copy with some fields changed, as ``NamedTuple._replace`` and ``dataclasses.replace``.

        Rules that run on nearly every action use the record's ``with_*`` methods, which call the
        constructor directly."""
        values = {name: getattr(self, name) for name in self.__match_args__}
        unknown = changes.keys() - values.keys()
        if unknown:
            raise TypeError(f"{type(self).__name__} has no field {', '.join(sorted(unknown))}")
        values.update(changes)
        return type(self)(**values)


def pickle_by_fields(namespace: Mapping[str, object]) -> None:
    """Let every frozen dataclass a core module defines (the cards' model, rulesets,
    scenarios...) pickle by its fields, rebuilt with its constructor, in both builds.

    Compiled with mypyc, a frozen dataclass is a native class, and the ``__setstate__`` the
    dataclass machinery gives it sets each field through the frozen ``__setattr__``, which raises:
    pickle, and with it ``--jobs`` and ``--cluster``, would fail on a card or an action. The
    constructor takes every field (none of these dataclasses has a field outside ``__init__``), so
    a reducer registered with :mod:`copyreg` rebuilds any of them. Each module that defines such
    dataclasses calls this once, at its end, with ``globals()``; a test pickles one of each kind in
    the build it runs (CI runs it on the compiled one).
    """
    module = namespace.get("__name__")
    for value in namespace.values():
        if isinstance(value, type) and dataclasses.is_dataclass(value) and value.__module__ == module:
            copyreg.pickle(value, _by_fields)


def _by_fields(obj: Any) -> tuple[type, tuple[object, ...]]:
    return type(obj), tuple([getattr(obj, field.name) for field in dataclasses.fields(obj)])


def compiled() -> bool:
    """sgcheck's hot modules run compiled (mypyc makes their functions built-in ones), not from
    their ``.py`` sources; the compile list builds them together, so this module tells for all.
    Where one way of working is cheaper compiled and another pure, the code reads this once."""
    return not isinstance(compiled, FunctionType)
