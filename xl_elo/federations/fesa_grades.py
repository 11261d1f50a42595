"""FESA grades: lookup, fractional grade numbers and handicap effects (SPEC 6.7, 6.9).

The grade table itself is :data:`xl_elo.tables.FESA_GRADES`. A grade is written as in the
data contract: ``20 kyu`` ... ``1 kyu``, ``1 dan`` ... ``8 dan``; a professional NSR grade as
``pro 1 dan``.

Fractional grade numbers (SPEC 6.7): linear inside each grade between its LB and the next
grade's LB, 1 kyu counting 14.0 to 15.0, so grade i of the table (0 = 20 kyu) starts at
``i - 5``. Decisions where SPEC 6.7 is silent: above 8 dan the last band's width (240) is
carried on; a rating of 0 or less is grade number 0.0 as SPEC 6.7 says, and a number at or
below 20 kyu's (-5.0) converts back to rating 0.
"""

from __future__ import annotations

import functools
import re
from typing import Final

import numpy as np
import numpy.typing as npt

from xl_elo.core import round_half_even
from xl_elo.tables import FESA_GRADES, FESA_HANDICAPS, GradeRow

GRADE_NAMES: Final = tuple(g.grade for g in FESA_GRADES)
_GRADE_POSITION: Final = {name: i for i, name in enumerate(GRADE_NAMES)}
_LB = np.array([g.lb for g in FESA_GRADES], dtype=np.float64)
#: Number of 20 kyu's lower bound (1 kyu = 14.0, SPEC 6.7).
_FIRST_NUMBER: Final = 14.0 - GRADE_NAMES.index("1 kyu")
_TOP_WIDTH: Final = float(_LB[-1] - _LB[-2])
#: A professional n dan counts 2510 + 30 n as NSR grade (SPEC 6.5).
PRO_BASE: Final = 2510
PRO_STEP: Final = 30

_GRADE_RE = re.compile(r"^\s*(pro(?:fessional)?\s*)?(\d{1,2})\s*-?\s*(k|kyu|d|dan)\s*$", re.IGNORECASE)


def normalise_grade(text: str, *, allow_pro: bool = False) -> str:
    """``3kyu``, ``3 Kyu``, ``3k`` -> ``3 kyu``; ``1d`` -> ``1 dan``; ``pro 1 dan`` when allowed.

    Raises ValueError naming what is accepted.
    """
    return _normalise(str(text), allow_pro)


@functools.lru_cache(maxsize=1024)
def _normalise(text: str, allow_pro: bool) -> str:
    """:func:`normalise_grade`, once per distinct spelling (a season names the same few grades)."""
    m = _GRADE_RE.match(text)
    if m:
        pro, number, unit = m.group(1), int(m.group(2)), m.group(3).lower()
        name = f"{number} {'kyu' if unit.startswith('k') else 'dan'}"
        if pro:
            if allow_pro and name.endswith("dan") and 1 <= number <= 9:
                return f"pro {name}"
        elif name in GRADE_NAMES:
            return name
    what = "a FESA grade (20 kyu .. 1 kyu, 1 dan .. 8 dan)"
    if allow_pro:
        what += " or a professional grade (pro 1 dan .. pro 9 dan)"
    raise ValueError(f"{text!r} is not {what}")


def grade_row(grade: str) -> GradeRow:
    """The table row of a grade (SPEC 6.9)."""
    return FESA_GRADES[GRADE_NAMES.index(normalise_grade(grade))]


def grade_index(grade: str | None) -> int:
    """Position of a grade in the table (0 = 20 kyu); -1 for no grade."""
    return -1 if grade is None else _GRADE_POSITION[normalise_grade(grade)]


def upper_bound(grade: str) -> int | None:
    """UB of a grade: the next grade's LB (None for 8 dan) (SPEC 6.9)."""
    i = grade_index(grade)
    return FESA_GRADES[i + 1].lb if i + 1 < len(FESA_GRADES) else None


def bounds(grade: str) -> tuple[int, int, int | None, int | None, int | None]:
    """LB, MP, UB, #LB, #MP of a grade (SPEC 6.9)."""
    row = grade_row(grade)
    return row.lb, row.mp, upper_bound(grade), row.n_lb, row.n_mp


def grade_of(rating: float) -> str:
    """The grade whose [LB, UB) holds the rating (a lookup; promotions follow SPEC 6.10)."""
    i = int(np.searchsorted(_LB, max(float(rating), 0.0), side="right")) - 1
    return GRADE_NAMES[max(i, 0)]


def nsr_midpoint(nsr_grade: str) -> int:
    """Rating of the two prior-grade games of a new player (SPEC 6.5).

    The MP of the grade, or ``2510 + 30 n`` for a professional n dan.
    """
    g = normalise_grade(nsr_grade, allow_pro=True)
    if g.startswith("pro "):
        return PRO_BASE + PRO_STEP * int(g.split()[1])
    return grade_row(g).mp


def grade_number(rating: npt.ArrayLike) -> npt.NDArray[np.float64]:
    """Fractional grade number of a rating (SPEC 6.7): 1560 -> 14.0, 1620 -> 14.5."""
    r = np.asarray(rating, dtype=np.float64)
    i = np.clip(np.searchsorted(_LB, r, side="right") - 1, 0, len(_LB) - 1)
    width = np.where(i + 1 < len(_LB), _LB[np.minimum(i + 1, len(_LB) - 1)] - _LB[i], _TOP_WIDTH)
    number = _FIRST_NUMBER + i + (r - _LB[i]) / width
    return np.where(r <= 0, 0.0, number)


def rating_of_number(number: npt.ArrayLike) -> npt.NDArray[np.float64]:
    """The rating of a fractional grade number, inverse of :func:`grade_number` (unrounded)."""
    x = np.asarray(number, dtype=np.float64) - _FIRST_NUMBER
    i = np.clip(np.floor(x).astype(np.int64), 0, len(_LB) - 1)
    width = np.where(i + 1 < len(_LB), _LB[np.minimum(i + 1, len(_LB) - 1)] - _LB[i], _TOP_WIDTH)
    return np.where(x <= 0, 0.0, _LB[i] + (x - i) * width)


def handicap_value(code: str) -> float:
    """Value in grades of a handicap code (``B`` = bishop 1.5) (SPEC 6.7)."""
    for key, (name, value) in FESA_HANDICAPS.items():
        if str(code).strip().lower() in (key.lower(), name):
            return value
    raise ValueError(f"{code!r} is not a handicap (expected one of {', '.join(FESA_HANDICAPS)})")


def shift(rating: npt.ArrayLike, grades: npt.ArrayLike) -> npt.NDArray[np.float64]:
    """``rating`` moved down by ``grades`` on the grade scale, rounded halves to even (SPEC 6.7)."""
    return round_half_even(rating_of_number(grade_number(rating) - np.asarray(grades, dtype=np.float64)))


def handicap_effect(rating: npt.ArrayLike, code: str) -> npt.NDArray[np.float64]:
    """Rating points a handicap is worth for a giver of this rating: ``r - shift(r, h)`` (SPEC 6.7)."""
    r = np.asarray(rating, dtype=np.float64)
    return r - shift(r, handicap_value(code))
