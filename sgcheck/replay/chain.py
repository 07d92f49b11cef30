"""A chain of values each addition extends without changing what came before: :class:`Link`.

A replay's position and findings are values (:mod:`sgcheck.replay.position`,
:mod:`sgcheck.replay.sink`); what grows with the log (its findings, the errors ``--keep-going``
follows and what follows from them, its result lines) is kept as such a chain, so a step adds to
it in constant time and a checkpoint keeps it by keeping its newest link, however long the log.
"""

from __future__ import annotations

from typing import Final, Generic, TypeVar, final

T = TypeVar("T")


@final
class Link(Generic[T]):
    """``value``, after the ``earlier`` ones; ``count`` of them in all. Never changed once made;
    compared by identity, so that no comparison walks a long chain."""

    __slots__ = ("count", "earlier", "value")

    # set once, in __init__ (mypy allows no Final that names a type variable)
    value: T
    earlier: Link[T] | None
    count: Final[int]

    def __init__(self, value: T, earlier: Link[T] | None) -> None:
        self.value = value
        self.earlier = earlier
        self.count = earlier.count + 1 if earlier is not None else 1

    def __repr__(self) -> str:
        return f"Link({self.count} values, the last {self.value!r})"


def in_order(link: Link[T] | None, since: int = 0) -> list[T]:
    """The values of the chain ending at ``link``, oldest first, from number ``since`` on."""
    out: list[T] = []
    while link is not None and link.count > since:
        out.append(link.value)
        link = link.earlier
    out.reverse()
    return out
