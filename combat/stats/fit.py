"""How fair a d20 looks: Pearson's chi-square goodness-of-fit against a fair die.

scipy is not a dependency, and the tail of the chi-square distribution for an integer number
of degrees of freedom has a closed form (Abramowitz & Stegun 26.4.4 and 26.4.5: a finite sum
of Poisson terms for even df, the normal tail plus a finite series for odd df), exact to floating
point, so it is computed here in a few lines rather than with a library.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

__all__ = ["chi_square", "chi_square_tail", "MIN_EXPECTED"]

# Pearson's test is trusted when every face is expected at least 5 times (100 rolls of a d20).
MIN_EXPECTED = 5


def chi_square(counts: Sequence[int]) -> tuple[float, int]:
    """The statistic against equal chances for every face, and its degrees of freedom."""
    n = sum(counts)
    expected = n / len(counts)
    if n == 0:
        return 0.0, len(counts) - 1
    return sum((c - expected) ** 2 / expected for c in counts), len(counts) - 1


def chi_square_tail(x: float, df: int) -> float:
    """P(X >= x) for X chi-square distributed with `df` (a positive integer) degrees of freedom."""
    if df < 1:
        raise ValueError("degrees of freedom must be a positive integer")
    if x <= 0:
        return 1.0
    half = x / 2
    if df % 2 == 0:  # A&S 26.4.5: e^{-x/2} sum_{i < df/2} (x/2)^i / i!
        term = total = 1.0
        for i in range(1, df // 2):
            term *= half / i
            total += term
        return min(1.0, math.exp(-half) * total)
    # A&S 26.4.4: 2 Q(chi) + 2 Z(chi) sum_{r=1}^{(df-1)/2} chi^(2r-1) / (1*3*...*(2r-1))
    chi = math.sqrt(x)
    tail = math.erfc(chi / math.sqrt(2))
    if df == 1:
        return tail
    z = math.exp(-half) / math.sqrt(2 * math.pi)
    term = chi
    total = term
    for r in range(2, (df - 1) // 2 + 1):
        term *= x / (2 * r - 1)
        total += term
    return min(1.0, tail + 2 * z * total)
