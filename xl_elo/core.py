"""The common core every federation shares (rules section 1, docs/rules.md).

Result parsing (rules 1.1), the logistic expected score (1.2), the rounding rules as named
functions (1.3), the published tables read by rating difference or by percentage (2.2, 2.4,
4.2, 5.4), the normal distribution (5.4), single-float arithmetic as FESA's program does it
(6.11) and a vectorised performance-rating solver (the zero of ``sum(res - E(x, o))``).

Every function takes plain numbers and answers with plain numbers, in plain Python, so the
one-player rules also run where numpy is missing (LibreOffice's own Python). Given numpy
arrays, the element-wise functions answer with arrays. Nothing here reads files, prints or
knows about Excel.
"""

from __future__ import annotations

import bisect
import math
import struct
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Any, Final

from xl_elo.compat import np

#: Highest rating accepted on input (rules 1.4).
MAX_RATING: Final = 3500

Number = float | int


def is_scalar(*values: Any) -> bool:
    """True when every value is a plain number (not a list or an array)."""
    return all(isinstance(v, (int, float)) or (np is not None and isinstance(v, np.generic)) for v in values)


# --------------------------------------------------------------------------- results


class ResultKind(Enum):
    """What a game row is, from the rating's point of view (rules 1.1)."""

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
    """A parsed game result, from the first player's side (rules 1.1)."""

    kind: ResultKind
    """Played, forfeit, bye or not played."""
    score: float | None
    """1, 0.5 or 0 for a played game; for a forfeit the points the player was given
    (1, 0, or None when the spelling does not say who won); None for a bye."""

    @property
    def rated(self) -> bool:
        """True for a played game, the only kind any federation here rates."""
        return self.kind is ResultKind.PLAYED


WIN: Final = Result(ResultKind.PLAYED, 1.0)
DRAW: Final = Result(ResultKind.PLAYED, 0.5)
LOSS: Final = Result(ResultKind.PLAYED, 0.0)
BYE: Final = Result(ResultKind.BYE, None)
NOT_PLAYED: Final = Result(ResultKind.NOT_PLAYED, None)

#: The words of a result in the federations' languages (rules 1.1): English, French, German. The letters
#: are English's W/D/L and French's G/N/P (gain, nulle, perte); ``remis`` is the German and French draw.
RESULT_WORDS: Final[dict[Result, tuple[str, ...]]] = {
    WIN: ("win", "won", "gain", "gagné", "sieg"),
    DRAW: ("draw", "drawn", "remis", "nulle", "nul"),
    LOSS: ("loss", "lost", "perte", "perdu", "niederlage", "verlust"),
}

#: Every accepted spelling (compared after removing spaces, case-insensitive).
RESULT_SPELLINGS: Final[dict[str, Result]] = {
    **dict.fromkeys(["1", "1.0", "1-0", "1–0", "1:0", "w", "g", *RESULT_WORDS[WIN]], WIN),
    **dict.fromkeys(
        ["0.5", "0,5", ".5", ",5", "½", "=", "½-½", "½:½", "1/2", "1/2-1/2", "1/2:1/2", "0.5-0.5", "0.5:0.5",
         "0,5-0,5", "0,5:0,5", "d", "n", *RESULT_WORDS[DRAW]],
        DRAW,
    ),
    **dict.fromkeys(["0", "0.0", "0-1", "0–1", "0:1", "l", "p", *RESULT_WORDS[LOSS]], LOSS),
    **dict.fromkeys(["+", "+-", "+:-", "1f", "forfeitwin"], Result(ResultKind.FORFEIT, 1.0)),
    **dict.fromkeys(["-", "-+", "-:+", "0f", "forfeitloss"], Result(ResultKind.FORFEIT, 0.0)),
    **dict.fromkeys(["f", "forfeit", "ff", "--"], Result(ResultKind.FORFEIT, None)),
    **dict.fromkeys(["bye", "exempt"], BYE),
    **dict.fromkeys(["notplayed", "unplayed", "np"], NOT_PLAYED),
}

#: What an error message says is accepted.
RESULT_HELP: Final = (
    "a result: 1, 0.5, 0 (or 1-0, ½-½, 0-1, 1:0, =, 1/2, W/D/L, G/N/P, win/draw/loss, remis), a forfeit (+, -, F) "
    "or bye"
)

#: The spellings a spreadsheet makes a time of day of when they are typed (``1:0`` is 01:00), by the minutes of
#: that time: such a cell is read as the result typed (rules 1.1), as the templates read it.
RESULT_TIMES: Final[dict[int, tuple[str, Result]]] = {
    int(k.split(":")[0]) * 60 + int(k.split(":")[1]): (k, r) for k, r in RESULT_SPELLINGS.items()
    if k.count(":") == 1 and all(part.isdigit() for part in k.split(":"))}


class ResultError(ValueError):
    """A value that is not a result (rules 1.1)."""


def result_key(text: str) -> str:
    """How a result spelling is looked up: no spaces (non-breaking ones too), lower case."""
    return "".join(text.split()).replace("\u00a0", "").lower()


def parse_result(value: object, *, has_opponent: bool = True) -> Result:
    """Parse one result cell (rules 1.1).

    ``value`` may be text or a number (Excel passes 1.0, 0.5, 0.0). A blank result is a
    game not played; a blank opponent (``has_opponent=False``) makes the row a bye whatever
    its result says. Raises :class:`ResultError` for anything else.
    """
    if not has_opponent:
        return BYE
    if value is None:
        return NOT_PLAYED
    if isinstance(value, bool) or not isinstance(value, (str, int, float)):
        raise ResultError(f"{_shown(value)} is not {RESULT_HELP}")
    if isinstance(value, (int, float)):
        number = float(value)
        if number == 1.0:
            return WIN
        if number == 0.5:
            return DRAW
        if number == 0.0:
            return LOSS
        raise ResultError(f"{_shown(value)} is not {RESULT_HELP}")
    key = result_key(value)
    if key == "":
        return NOT_PLAYED
    try:
        return RESULT_SPELLINGS[key]
    except KeyError:
        raise ResultError(f"{_shown(value)} is not {RESULT_HELP}") from None


def _shown(value: object, limit: int = 40) -> str:
    """A value as a message quotes it: its repr, cut to ``limit`` characters."""
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 5] + "...'"


# --------------------------------------------------------------------------- expected score


def logistic(rating: float, opponent: float) -> float:
    """Logistic expected score ``1 / (1 + 10 ** ((o - r) / 400))`` of one game (rules 1.2)."""
    x = (opponent - rating) / 400.0
    if x > 300:  # 10 ** x overflows a float: the expected score is 0 to the last digit
        return 0.0
    return 1.0 / (1.0 + 10.0 ** x)


def expected_score(rating: Any, opponent: Any) -> Any:
    """Logistic expected score (rules 1.2), element-wise on numbers or arrays; the two sides sum to 1."""
    if is_scalar(rating, opponent):
        return logistic(float(rating), float(opponent))
    r = np.asarray(rating, dtype=np.float64)
    o = np.asarray(opponent, dtype=np.float64)
    with np.errstate(over="ignore"):  # a huge gap gives 0.0, as it should
        return 1.0 / (1.0 + np.power(10.0, (o - r) / 400.0))


# --------------------------------------------------------------------------- rounding


def round_half_away(x: Any) -> Any:
    """Nearest integer, halves away from zero: 2.5 -> 3, -2.5 -> -3 (rules 1.3, 2.1)."""
    if is_scalar(x):
        v = float(x)
        return math.copysign(math.floor(abs(v) + 0.5), v) + 0.0
    a = np.asarray(x, dtype=np.float64)
    return np.copysign(np.floor(np.abs(a) + 0.5), a) + 0.0


def round_half_even(x: Any) -> Any:
    """Nearest integer, halves to even: 1.5 -> 2, 2.5 -> 2 (FESA's program, rules 6.4)."""
    if is_scalar(x):
        return float(round(float(x)))
    return np.round(np.asarray(x, dtype=np.float64))


def round_to_ten(x: Any) -> Any:
    """Nearest ten, 5 going up: 1234.999 -> 1230, 1235 -> 1240 (FFE, rules 5.9)."""
    if is_scalar(x):
        return math.floor(float(x) / 10.0 + 0.5) * 10.0
    return np.floor(np.asarray(x, dtype=np.float64) / 10.0 + 0.5) * 10.0


def round_hundredths_away(hundredths: int) -> int:
    """A whole number of hundredths to the nearest unit, halves away from zero, exactly (rules 1.3)."""
    h = int(hundredths)
    return (1 if h >= 0 else -1) * ((abs(h) + 50) // 100)


# --------------------------------------------------------------------------- single floats (FESA)


_F32 = struct.Struct("<f")


def f32(x: float) -> float:
    """``x`` rounded to the nearest single float (24-bit significand), as a Python float.

    One operation on single floats computed in double precision and then rounded this way
    gives the single-float result exactly (double has more than twice the bits), so FESA's
    program's single-float arithmetic is reproduced step by step (rules 6.11).
    """
    return float(_F32.unpack(_F32.pack(x))[0])


# --------------------------------------------------------------------------- published tables


def range_table(rows: Sequence[tuple[int, int | None, int]]) -> tuple[list[int], list[int]]:
    """A table printed by ranges ``(from, to, value)`` as (lower ends, values) for :func:`range_value`."""
    return [r[0] for r in rows], [r[2] for r in rows]


def range_value(table: tuple[list[int], list[int]], difference: float) -> int:
    """The value of the range holding ``difference`` (>= 0) in a table by ranges (rules 2.2, 4.2)."""
    lower, values = table
    return values[bisect.bisect_right(lower, difference) - 1]


def signed_hundredths(table: tuple[list[int], list[int]], difference: float) -> int:
    """The higher-rated side's value for ``|difference|``, 100 minus it for the lower-rated side."""
    higher = range_value(table, abs(difference))
    return higher if difference >= 0 else 100 - higher


def table_hundredths(table: tuple[list[int], list[int]], difference: Any) -> Any:
    """A published expected-score table by ranges (:func:`range_table`) in hundredths for ``difference``
    = own - opponent's rating: the higher-rated side's value, 100 minus it for the lower; element-wise
    (FIDE 2.2, FQE 4.2, CFC 11.3)."""
    if is_scalar(difference):
        return signed_hundredths(table, float(difference))
    return signed_hundredths_array(table, difference)


def table_expected(table: tuple[list[int], list[int]], rating: Any, opponent: Any) -> Any:
    """The expected score a table by ranges gives ``rating`` against ``opponent``; element-wise."""
    if is_scalar(rating, opponent):
        return table_hundredths(table, float(rating) - float(opponent)) / 100
    return table_hundredths(table, np.asarray(rating, np.float64) - np.asarray(opponent, np.float64)) / 100.0


#: Largest rating difference the array look-ups cover (ratings run from 0 to 3500, rules 1.4).
MAX_DIFFERENCE: Final = MAX_RATING


def signed_hundredths_array(table: tuple[list[int], list[int]], difference: Any) -> Any:
    """:func:`signed_hundredths` element-wise on an array: whole differences are one array look-up."""
    lower = np.asarray(table[0], dtype=np.float64)
    values = np.asarray(table[1], dtype=np.int64)
    a = np.abs(np.asarray(difference, dtype=np.float64))
    higher = values[np.searchsorted(lower, a, side="right") - 1]
    return np.where(np.asarray(difference) >= 0, higher, 100 - higher)


def by_hundredth(table: Mapping[int, int]) -> list[float]:
    """A table keyed by p in hundredths as a list indexed 0 .. 100 (NaN where the table is silent)."""
    return [float(table[p]) if p in table else math.nan for p in range(101)]


def hundredths_half_up(numerator: float, denominator: float) -> int:
    """``100 * numerator / denominator`` to the nearest whole number, halves up, exactly.

    Both are whole numbers of halves (points, games); the quotient is taken as
    ``floor((200 n + d) / (2 d))`` in integers, so a half is never a binary near-miss.
    """
    n = round(2 * numerator)
    d = max(round(2 * denominator), 1)
    return (200 * n + d) // (2 * d)


# --------------------------------------------------------------------------- normal distribution

# Acklam's rational approximation of the normal quantile, finished by one Halley step: the
# engine then agrees with a spreadsheet's NORM.S.INV to the last digits (rules 5.4).
_A = (-3.969683028665376e01, 2.209460984245205e02, -2.759285104469687e02,
      1.383577518672690e02, -3.066479806614716e01, 2.506628277459239e00)
_B = (-5.447609879822406e01, 1.615858368580409e02, -1.556989798598866e02,
      6.680131188771972e01, -1.328068155288572e01)
_C = (-7.784894002430293e-03, -3.223964580411365e-01, -2.400758277161838e00,
      -2.549732539343734e00, 4.374664141464968e00, 2.938163982698783e00)
_D = (7.784695709041462e-03, 3.224671290700398e-01, 2.445134137142996e00,
      3.754408661907416e00)
_LOW = 0.02425
#: Largest argument of exp() that stays a finite float (709.78), with room.
_EXP_MAX = 700.0


def _quantile(p: float) -> float:
    if p <= 0.0:
        return -math.inf
    if p >= 1.0:
        return math.inf
    if p < _LOW or p > 1.0 - _LOW:
        q = math.sqrt(-2.0 * math.log(p if p < _LOW else 1.0 - p))
        x = (((((_C[0] * q + _C[1]) * q + _C[2]) * q + _C[3]) * q + _C[4]) * q + _C[5]) / (
            (((_D[0] * q + _D[1]) * q + _D[2]) * q + _D[3]) * q + 1.0)
        x = x if p < _LOW else -x
    else:
        qc = p - 0.5
        r = qc * qc
        x = ((((((_A[0] * r + _A[1]) * r + _A[2]) * r + _A[3]) * r + _A[4]) * r + _A[5]) * qc) / (
            ((((_B[0] * r + _B[1]) * r + _B[2]) * r + _B[3]) * r + _B[4]) * r + 1.0)
    if x * x / 2.0 > _EXP_MAX:  # p below 1e-300 or so: the refinement's exp() would overflow, x is already exact
        return x
    e = 0.5 * math.erfc(-x / math.sqrt(2.0)) - p
    u = e * math.sqrt(2.0 * math.pi) * math.exp(x * x / 2.0)
    return x - u / (1.0 + x * u / 2.0)


def normal_quantile(p: Any) -> Any:
    """Inverse of the standard normal distribution, Phi^-1(p), element-wise (rules 5.4).

    p = 0 gives -inf and p = 1 gives +inf. Every element goes through the same scalar
    computation, so one player's D(P) and a whole period's agree to the last digit.
    """
    if is_scalar(p):
        return _quantile(float(p))
    a = np.asarray(p, dtype=np.float64)
    flat = a.ravel()
    # a period has few distinct scores: each distinct p is computed once
    values, inverse = np.unique(flat, return_inverse=True)
    out = np.array([_quantile(v) for v in values.tolist()], dtype=np.float64)
    return out[inverse].reshape(a.shape)


def normal_cdf(x: Any) -> Any:
    """Standard normal distribution function Phi(x), element-wise."""
    if is_scalar(x):
        return 0.5 * (1.0 + math.erf(float(x) / math.sqrt(2.0)))
    a = np.asarray(x, dtype=np.float64)
    return np.array([0.5 * (1.0 + math.erf(v / math.sqrt(2.0))) for v in a.ravel().tolist()]).reshape(a.shape)


# --------------------------------------------------------------------------- performance


def performance_zero(groups: Any, opponents: Any, scores: Any, n_groups: int, start: Any = None,
                     *, tolerance: float = 1e-9) -> Any:
    """The rating x of each group where ``sum_i (score_i - E(x, opponent_i)) = 0`` (numpy).

    A vectorised Newton iteration with a bisection safeguard, for every group at once:
    ``groups[i]`` says whose game i is. A group's score must be strictly between 0 and
    its number of games (all wins or all losses have no zero; the callers apply their
    federation's rule first). Groups with no game give NaN.
    """
    g = np.asarray(groups, dtype=np.int64)
    o = np.asarray(opponents, dtype=np.float64)
    s = np.asarray(scores, dtype=np.float64)
    counts = np.bincount(g, minlength=n_groups)
    total = np.bincount(g, weights=s, minlength=n_groups)
    has = counts > 0
    # a bracket that holds the zero: E(x, o) lies in (0, 1), the zero lies within
    # 400 * log10(n) + a margin of the extreme opponents
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
