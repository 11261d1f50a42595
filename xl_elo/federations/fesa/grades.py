"""FESA grades: lookup, fractional grade numbers and handicap effects (rules 6.7, 6.9, 6.11).

The grade table itself is :data:`xl_elo.tables.FESA_GRADES`. A grade is written as in the
data contract: ``20 kyu`` ... ``1 kyu``, ``1 dan`` ... ``8 dan``; a professional NSR grade as
``pro 1 dan``.

Fractional grade numbers (rules 6.7): linear inside each grade between its LB and the next
grade's LB, 1 kyu counting 14.0 to 15.0, so grade i of the table (0 = 20 kyu) starts at
``i - 5``. Decisions where the rules are silent: above 8 dan the last band's width (240) is
carried on; a rating of 0 or less is grade number 0.0 as rules 6.7 says.

The handicap shift is computed as FESA's program computes it, in single floats (rules 6.11):
the published figures are those, ties at .5 included.
"""

from __future__ import annotations

import bisect
from typing import Any, Final

from xl_elo import core, schema
from xl_elo.compat import np
from xl_elo.tables import FESA_GRADES, FESA_HANDICAPS, GradeRow

GRADE_NAMES: Final = schema.GRADE_NAMES
_GRADE_POSITION: Final = {name: i for i, name in enumerate(GRADE_NAMES)}
_LB: Final = [g.lb for g in FESA_GRADES]
#: Number of 20 kyu's lower bound (1 kyu = 14.0, rules 6.7).
FIRST_NUMBER: Final = 14 - GRADE_NAMES.index("1 kyu")
_TOP_WIDTH: Final = _LB[-1] - _LB[-2]
#: A professional n dan counts 2510 + 30 n as NSR grade (rules 6.5).
PRO_BASE: Final = 2510
PRO_STEP: Final = 30


def normalise_grade(text: str, *, allow_pro: bool = False) -> str:
    """``3kyu``, ``3 Kyu``, ``3k`` -> ``3 kyu``; ``1d`` -> ``1 dan``; ``pro 1 dan`` when allowed (ValueError otherwise)."""
    out = schema.grade(text, allow_pro=allow_pro)
    if out is None:
        raise schema.ValueProblem(f"{text!r} is not {schema.GRADE_HELP}")
    return out


def grade_row(grade: str) -> GradeRow:
    """The table row of a grade (rules 6.9)."""
    return FESA_GRADES[_GRADE_POSITION[normalise_grade(grade)]]


def grade_index(grade: str | None) -> int:
    """Position of a grade in the table (0 = 20 kyu); -1 for no grade."""
    return -1 if grade is None else _GRADE_POSITION[normalise_grade(grade)]


def upper_bound(grade: str) -> int | None:
    """UB of a grade: the next grade's LB (None for 8 dan) (rules 6.9)."""
    i = grade_index(grade)
    return FESA_GRADES[i + 1].lb if i + 1 < len(FESA_GRADES) else None


def bounds(grade: str) -> tuple[int, int, int | None, int | None, int | None]:
    """LB, MP, UB, #LB, #MP of a grade (rules 6.9)."""
    row = grade_row(grade)
    return row.lb, row.mp, upper_bound(grade), row.n_lb, row.n_mp


def grade_of(rating: float) -> str:
    """The grade whose [LB, UB) holds the rating (a lookup; promotions follow rules 6.10)."""
    i = bisect.bisect_right(_LB, max(float(rating), 0.0)) - 1
    return GRADE_NAMES[max(i, 0)]


def nsr_midpoint(nsr_grade: str) -> int:
    """Rating of the two prior-grade games of a new player (rules 6.5).

    The MP of the grade, or ``2510 + 30 n`` for a professional n dan.
    """
    g = normalise_grade(nsr_grade, allow_pro=True)
    if g.startswith("pro "):
        return PRO_BASE + PRO_STEP * int(g.split()[1])
    return grade_row(g).mp


def _band(rating: float) -> tuple[int, float, float]:
    """The band holding ``rating``: its table position, lower bound and width."""
    i = min(max(bisect.bisect_right(_LB, rating) - 1, 0), len(_LB) - 1)
    width = _LB[i + 1] - _LB[i] if i + 1 < len(_LB) else _TOP_WIDTH
    return i, float(_LB[i]), float(width)


def grade_number(rating: Any) -> Any:
    """Fractional grade number of a rating (rules 6.7): 1560 -> 14.0, 1620 -> 14.5; element-wise."""
    if not core.is_scalar(rating):
        return _each(grade_number, rating)
    r = float(rating)
    if r <= 0:
        return 0.0
    i, lb, width = _band(r)
    return FIRST_NUMBER + i + (r - lb) / width


def rating_of_number(number: Any) -> Any:
    """The rating of a fractional grade number, inverse of :func:`grade_number` (unrounded); element-wise."""
    if not core.is_scalar(number):
        return _each(rating_of_number, number)
    x = float(number) - FIRST_NUMBER
    if x <= 0:
        return 0.0
    i = min(int(x // 1), len(_LB) - 1)
    width = _LB[i + 1] - _LB[i] if i + 1 < len(_LB) else _TOP_WIDTH
    return _LB[i] + (x - i) * width


def handicap_value(code: str) -> float:
    """Value in grades of a handicap code (``B`` = bishop 1.5) (rules 6.7)."""
    key = schema.handicap(code)
    if key is None:
        raise schema.ValueProblem(f"{code!r} is not a handicap (expected one of {', '.join(FESA_HANDICAPS)})")
    return FESA_HANDICAPS[key][1]


def shift(rating: Any, grades: Any) -> Any:
    """``rating`` moved down by ``grades`` on the grade scale, rounded halves to even (rules 6.7, 6.11); element-wise."""
    if not core.is_scalar(rating, grades):
        r, g = np.broadcast_arrays(np.asarray(rating, dtype=np.float64), np.asarray(grades, dtype=np.float64))
        return np.array([shift(a, b) for a, b in zip(r.ravel().tolist(), g.ravel().tolist(), strict=True)]
                        ).reshape(r.shape)
    return float(round(rating_of_number(grade_number(rating) - float(grades))))


def handicap_effect(rating: Any, code: str) -> Any:
    """Rating points a handicap is worth for a giver of this rating: ``r - shift(r, h)`` (rules 6.7); element-wise."""
    h = handicap_value(code)
    if core.is_scalar(rating):
        return float(rating) - shift(rating, h)
    r = np.asarray(rating, dtype=np.float64)
    return r - shift(r, h)


def _each(fn: Any, values: Any) -> Any:
    a = np.asarray(values, dtype=np.float64)
    return np.array([fn(v) for v in a.ravel().tolist()], dtype=np.float64).reshape(a.shape)
