"""Pearson's chi-square goodness-of-fit test against a uniform die, with its p-value.

The p-value is the chi-square distribution's survival function, ``Q(df / 2, x / 2)``, the
regularized upper incomplete gamma function, computed by its power series below ``a + 1`` and by
its continued fraction (modified Lentz) above, as in Numerical Recipes §6.2. Pure functions; the
tests hold them to published values.
"""

from __future__ import annotations

import math

_EPS = 1e-15
_TINY = 1e-300
_ITERATIONS = 10_000


def _series_p(a: float, x: float) -> float:
    """The regularized lower gamma P(a, x) by its series (converges fast for x < a + 1)."""
    term = total = 1.0 / a
    n = a
    for _ in range(_ITERATIONS):
        n += 1.0
        term *= x / n
        total += term
        if abs(term) < abs(total) * _EPS:
            break
    return total * math.exp(-x + a * math.log(x) - math.lgamma(a))


def _fraction_q(a: float, x: float) -> float:
    """The regularized upper gamma Q(a, x) by its continued fraction (for x >= a + 1)."""
    b = x + 1.0 - a
    c = 1.0 / _TINY
    d = 1.0 / b
    h = d
    for i in range(1, _ITERATIONS):
        an = -i * (i - a)
        b += 2.0
        d = an * d + b
        if abs(d) < _TINY:
            d = _TINY
        c = b + an / c
        if abs(c) < _TINY:
            c = _TINY
        d = 1.0 / d
        delta = d * c
        h *= delta
        if abs(delta - 1.0) < _EPS:
            break
    return math.exp(-x + a * math.log(x) - math.lgamma(a)) * h


def gamma_q(a: float, x: float) -> float:
    """The regularized upper incomplete gamma function Q(a, x) = Γ(a, x) / Γ(a), for a > 0, x >= 0."""
    if a <= 0.0:
        raise ValueError("a must be positive")
    if x < 0.0:
        raise ValueError("x must not be negative")
    if x == 0.0:
        return 1.0
    if x < a + 1.0:
        return max(0.0, 1.0 - _series_p(a, x))
    return min(1.0, _fraction_q(a, x))


def chi_square_sf(statistic: float, df: int) -> float:
    """P(X >= statistic) for X chi-square distributed with ``df`` degrees of freedom."""
    if df <= 0:
        raise ValueError("df must be positive")
    if statistic <= 0.0:
        return 1.0
    return gamma_q(df / 2.0, statistic / 2.0)


def uniform_statistic(counts: list[int]) -> float:
    """Pearson's statistic of ``counts`` (one per face) against equally likely faces."""
    total = sum(counts)
    if total == 0:
        return 0.0
    expected = total / len(counts)
    return sum((c - expected) ** 2 for c in counts) / expected


def uniform_test(counts: list[int]) -> tuple[float, int, float]:
    """The statistic, degrees of freedom (faces - 1) and p-value of ``counts`` against a fair die."""
    statistic = uniform_statistic(counts)
    df = len(counts) - 1
    return statistic, df, chi_square_sf(statistic, df)
