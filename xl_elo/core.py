"""The common core shared by every federation (SPEC section 1).

Result parsing (SPEC 1.1), the logistic expected score (SPEC 1.2), the rounding rules as
named functions (SPEC 1.3), rating validation (SPEC 1.4), the inverse of the normal
distribution (used by the FFE D(P), SPEC 5.4) and a vectorised performance-rating solver
(the zero of ``sum(res - E(x, o))``, used by FESA, SPEC 6.5).

Nothing here reads files, prints or knows about Excel.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from enum import Enum
from typing import Final

import numpy as np
import numpy.typing as npt

FloatArray = npt.NDArray[np.float64]

#: Highest rating accepted on input (SPEC 1.4).
MAX_RATING: Final = 3500.0


# --------------------------------------------------------------------------- results


class ResultKind(Enum):
    """What a game row is, from the rating's point of view (SPEC 1.1)."""

    PLAYED = "played"
    """A played game: counts for the rating."""
    FORFEIT = "forfeit"
    """Won or lost by forfeit: never rated, reported as not rated."""
    BYE = "bye"
    """A bye (or a blank opponent): never rated."""
    NOT_PLAYED = "not played"
    """A scheduled game that was not played (blank result): never rated."""


@dataclass(frozen=True, slots=True)
class Result:
    """A parsed game result, from the first player's side (SPEC 1.1)."""

    kind: ResultKind
    """Played, forfeit, bye or not played."""
    score: float | None
    """1, 0.5 or 0 for a played game; for a forfeit the points the player was given
    (1, 0, or None when the spelling does not say who won); None for a bye."""

    @property
    def rated(self) -> bool:
        """True for a played game, the only kind any federation here rates."""
        return self.kind is ResultKind.PLAYED


_WIN = Result(ResultKind.PLAYED, 1.0)
_DRAW = Result(ResultKind.PLAYED, 0.5)
_LOSS = Result(ResultKind.PLAYED, 0.0)

#: Every accepted spelling (compared after stripping spaces, case-insensitive).
RESULT_SPELLINGS: Final[dict[str, Result]] = {
    **dict.fromkeys(["1", "1.0", "1-0", "1–0", "w", "g", "win"], _WIN),
    **dict.fromkeys(
        ["0.5", "0,5", ".5", ",5", "½", "=", "½-½", "1/2", "1/2-1/2", "0.5-0.5", "0,5-0,5", "d", "n", "draw"],
        _DRAW,
    ),
    **dict.fromkeys(["0", "0.0", "0-1", "0–1", "l", "p", "loss"], _LOSS),
    **dict.fromkeys(["+", "+-", "+:-", "1f", "forfeit win"], Result(ResultKind.FORFEIT, 1.0)),
    **dict.fromkeys(["-", "-+", "-:+", "0f", "forfeit loss"], Result(ResultKind.FORFEIT, 0.0)),
    **dict.fromkeys(["f", "forfeit", "ff", "--"], Result(ResultKind.FORFEIT, None)),
    **dict.fromkeys(["bye", "exempt"], Result(ResultKind.BYE, None)),
    **dict.fromkeys(["not played", "unplayed", "np"], Result(ResultKind.NOT_PLAYED, None)),
}

#: What an error message says is accepted.
RESULT_HELP: Final = (
    "a result: 1, 0.5, 0 (or 1-0, ½-½, 0-1, =, 1/2, W/D/L, G/N/P), a forfeit (+, -, F) or bye"
)


class ResultError(ValueError):
    """A value that is not a result (SPEC 1.1)."""


def parse_result(value: object, *, has_opponent: bool = True) -> Result:
    """Parse one result cell (SPEC 1.1).

    ``value`` may be text or a number (Excel passes 1.0, 0.5, 0.0). A blank result is a
    game not played; a blank opponent (``has_opponent=False``) makes the row a bye whatever
    its result says. Raises :class:`ResultError` for anything else.
    """
    if not has_opponent:
        return Result(ResultKind.BYE, None)
    if value is None:
        return Result(ResultKind.NOT_PLAYED, None)
    if isinstance(value, bool):
        raise ResultError(f"{value!r} is not {RESULT_HELP}")
    if isinstance(value, (int, float)):
        number = float(value)
        if number == 1.0:
            return _WIN
        if number == 0.5:
            return _DRAW
        if number == 0.0:
            return _LOSS
        raise ResultError(f"{value!r} is not {RESULT_HELP}")
    text = str(value).replace("\u00a0", " ").strip().lower().replace(" ", "")
    if text == "":
        return Result(ResultKind.NOT_PLAYED, None)
    key = text if text in RESULT_SPELLINGS else str(value).strip().lower()
    try:
        return RESULT_SPELLINGS[key]
    except KeyError:
        raise ResultError(f"{str(value)!r} is not {RESULT_HELP}") from None


# --------------------------------------------------------------------------- expected score


def expected_score(rating: npt.ArrayLike, opponent: npt.ArrayLike) -> FloatArray:
    """Logistic expected score ``1 / (1 + 10 ** ((o - r) / 400))`` (SPEC 1.2).

    Works element-wise on numbers or arrays; the two sides of a game sum to 1.
    """
    r = np.asarray(rating, dtype=np.float64)
    o = np.asarray(opponent, dtype=np.float64)
    with np.errstate(over="ignore"):  # a huge gap gives 0.0, as it should
        return 1.0 / (1.0 + np.power(10.0, (o - r) / 400.0))


# --------------------------------------------------------------------------- rounding


def round_half_away(x: npt.ArrayLike) -> FloatArray:
    """Nearest integer, halves away from zero: 2.5 -> 3, -2.5 -> -3 (SPEC 1.3)."""
    a = np.asarray(x, dtype=np.float64)
    return np.copysign(np.floor(np.abs(a) + 0.5), a)


def round_half_even(x: npt.ArrayLike) -> FloatArray:
    """Nearest integer, halves to even: 1.5 -> 2, 2.5 -> 2 (FESA's program, SPEC 6.4)."""
    return np.round(np.asarray(x, dtype=np.float64))


def round_to_ten(x: npt.ArrayLike) -> FloatArray:
    """Nearest ten, 5 going up: 1234.999 -> 1230, 1235 -> 1240 (FFE, SPEC 5.9)."""
    return np.floor(np.asarray(x, dtype=np.float64) / 10.0 + 0.5) * 10.0


# --------------------------------------------------------------------------- ratings


class RatingError(ValueError):
    """A rating that is not a number, is negative, above 3500 or NaN (SPEC 1.4)."""


def validate_rating(value: object) -> float | None:
    """Check one rating cell (SPEC 1.4): blank -> None (unrated), else a float in [0, 3500].

    Accepts numbers and text with a decimal point or comma; raises :class:`RatingError`
    with a sentence that says what was found and what is expected.
    """
    if value is None:
        return None
    if isinstance(value, bool):
        raise RatingError(f"{value!r} is not a rating (expected a number from 0 to 3500, or blank)")
    if isinstance(value, (int, float)):
        number = float(value)
    else:
        text = str(value).replace("\u00a0", " ").strip()
        if text == "":
            return None
        try:
            number = float(text.replace(",", "."))
        except ValueError:
            raise RatingError(
                f"{str(value)!r} is not a number (expected a rating from 0 to 3500, or blank)"
            ) from None
    if math.isnan(number) or math.isinf(number):
        raise RatingError(f"{value!r} is not a rating (expected a number from 0 to 3500, or blank)")
    if number < 0 or number > MAX_RATING:
        raise RatingError(f"{value!r} is out of range (expected a rating from 0 to 3500, or blank)")
    return number


# --------------------------------------------------------------------------- normal quantile

# Acklam's rational approximation of the normal quantile (relative error < 1.2e-9,
# far below the three decimals SPEC 5.4 keeps once multiplied by 2000/7).
_A = (-3.969683028665376e01, 2.209460984245205e02, -2.759285104469687e02,
      1.383577518672690e02, -3.066479806614716e01, 2.506628277459239e00)
_B = (-5.447609879822406e01, 1.615858368580409e02, -1.556989798598866e02,
      6.680131188771972e01, -1.328068155288572e01)
_C = (-7.784894002430293e-03, -3.223964580411365e-01, -2.400758277161838e00,
      -2.549732539343734e00, 4.374664141464968e00, 2.938163982698783e00)
_D = (7.784695709041462e-03, 3.224671290700398e-01, 2.445134137142996e00,
      3.754408661907416e00)


def normal_quantile(p: npt.ArrayLike) -> FloatArray:
    """Inverse of the standard normal distribution, Phi^-1(p), element-wise.

    p = 0 gives -inf and p = 1 gives +inf. Used for the FFE D(P) (SPEC 5.4).
    """
    p_in = np.asarray(p, dtype=np.float64)
    p = np.atleast_1d(p_in)
    out = np.empty_like(p)
    low, high = 0.02425, 1 - 0.02425
    with np.errstate(divide="ignore", invalid="ignore"):
        q = np.sqrt(-2 * np.log(np.where(p < low, p, 1 - p)))
        tail = (((((_C[0] * q + _C[1]) * q + _C[2]) * q + _C[3]) * q + _C[4]) * q + _C[5]) / (
            (((_D[0] * q + _D[1]) * q + _D[2]) * q + _D[3]) * q + 1
        )
        r = (p - 0.5) ** 2
        qc = p - 0.5
        central = (
            (((((_A[0] * r + _A[1]) * r + _A[2]) * r + _A[3]) * r + _A[4]) * r + _A[5]) * qc
        ) / (((((_B[0] * r + _B[1]) * r + _B[2]) * r + _B[3]) * r + _B[4]) * r + 1)
    out[:] = central
    out[p < low] = tail[p < low]
    out[p > high] = -tail[p > high]
    # one Halley step on Phi(x) - p brings Acklam's 1e-9 to machine precision, so the
    # engine agrees with a spreadsheet's NORM.S.INV to the last digits
    inner = (p > 0) & (p < 1)
    x = out[inner]
    e = 0.5 * _erfc(-x / math.sqrt(2.0)) - p[inner]
    u = e * math.sqrt(2.0 * math.pi) * np.exp(x * x / 2.0)
    out[inner] = x - u / (1.0 + x * u / 2.0)
    out[p <= 0] = -np.inf
    out[p >= 1] = np.inf
    return out.reshape(p_in.shape)


_erfc = np.vectorize(math.erfc, otypes=[np.float64])


def normal_cdf(x: npt.ArrayLike) -> FloatArray:
    """Standard normal distribution function Phi(x), element-wise."""
    a = np.asarray(x, dtype=np.float64)
    erf = np.vectorize(math.erf, otypes=[np.float64])
    return 0.5 * (1.0 + erf(a / math.sqrt(2.0)))


# --------------------------------------------------------------------------- performance


def performance_zero(
    groups: npt.ArrayLike,
    opponents: npt.ArrayLike,
    scores: npt.ArrayLike,
    n_groups: int,
    start: npt.ArrayLike | None = None,
    *,
    tolerance: float = 1e-9,
) -> FloatArray:
    """The rating x of each group where ``sum_i (score_i - E(x, opponent_i)) = 0``.

    A vectorised Newton iteration with a bisection safeguard, for every group at once:
    ``groups[i]`` says whose game i is. A group's score must be strictly between 0 and
    its number of games (all wins or all losses have no zero; the callers apply their
    federation's rule first, e.g. SPEC 6.5). Groups with no game give NaN.
    """
    g = np.asarray(groups, dtype=np.int64)
    o = np.asarray(opponents, dtype=np.float64)
    s = np.asarray(scores, dtype=np.float64)
    counts = np.bincount(g, minlength=n_groups)
    total = np.bincount(g, weights=s, minlength=n_groups)
    has = counts > 0
    # A bracket that holds the zero: E(x, o) lies in (0, 1), the zero lies within
    # 400 * log10(n) + a margin of the extreme opponents.
    omin = np.full(n_groups, np.inf)
    omax = np.full(n_groups, -np.inf)
    np.minimum.at(omin, g, o)
    np.maximum.at(omax, g, o)
    span = 400.0 * np.log10(np.maximum(counts, 1) * 4.0 + 4.0) + 400.0
    lo = np.where(has, omin - span, 0.0)
    hi = np.where(has, omax + span, 0.0)
    if start is None:
        # the logistic estimate mean(o) + 400 log10(S / (n - S)) is close: a few steps finish it
        with np.errstate(divide="ignore", invalid="ignore"):
            mean_o = np.bincount(g, weights=o, minlength=n_groups) / np.maximum(counts, 1)
            x = mean_o + 400.0 * np.log10(total / (counts - total))
        x = np.where(np.isfinite(x), x, (lo + hi) / 2.0)
        x = np.clip(x, lo, hi)
    else:
        x = np.clip(np.asarray(start, dtype=np.float64), lo, hi)
    ln10 = math.log(10.0) / 400.0
    active = has.copy()
    gi, oi, idx = g, o, np.arange(n_groups)
    for _ in range(200):
        # only the games of groups still moving are revisited
        e = expected_score(x[gi], oi)
        f = total[idx] - np.bincount(gi, weights=e, minlength=n_groups)[idx]  # decreasing in x
        df = -np.bincount(gi, weights=e * (1.0 - e) * ln10, minlength=n_groups)[idx]
        xa, la, ha = x[idx], lo[idx], hi[idx]
        la = np.where(f > 0, xa, la)
        ha = np.where(f < 0, xa, ha)
        with np.errstate(divide="ignore", invalid="ignore"):
            newton = xa - f / df
        # a Newton step may land on the bracket's end: once converged, x is that end
        bad = ~np.isfinite(newton) | (newton < la) | (newton > ha)
        new_x = np.where(bad, (la + ha) / 2.0, newton)
        moved = np.abs(new_x - xa)
        x[idx], lo[idx], hi[idx] = new_x, la, ha
        still = moved > tolerance
        active[idx[~still]] = False
        if not still.any():
            break
        idx = idx[still]
        keep = active[g]
        gi, oi = g[keep], o[keep]
    x[~has] = np.nan
    return x
