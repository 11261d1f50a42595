"""FESA grades: lookup, fractional grade numbers and handicap effects (rules 6.7, 6.9, 6.11).

The grade table itself is :data:`xl_elo.federations.fesa.tables.FESA_GRADES`. A grade is written as in the
data contract: ``20 kyu`` ... ``1 kyu``, ``1 dan`` ... ``8 dan``; a professional NSR grade as
``pro 1 dan``.

Fractional grade numbers (rules 6.7): linear inside each grade between its LB and the next
grade's LB, 1 kyu counting 14.0 to 15.0, so grade i of the table (0 = 20 kyu) starts at
``i - 5``. Above 8 dan the scale goes on as FESA's program has it: 8 dan up to 3120, then
one band from 3120 to 9999 (:data:`~xl_elo.federations.fesa.tables.FESA_SCALE_TOP`); a rating of 0 or less
is grade number 0.0 (rules 6.7), and below the bottom of the scale a shifted rating is 1.

Grade numbers and the handicap shift are computed as FESA's program computes them, one
single-float operation at a time (rules 6.11): the published figures are those, ties at
.5 included (``shift(1966, bishop)`` is 1774.5 in single floats, published 1774).
"""

from __future__ import annotations

import bisect
import math
import re
from typing import Any, Final

from xl_elo import core, schema
from xl_elo.compat import np
from xl_elo.federations.fesa.tables import FESA_GRADES, FESA_HANDICAPS, FESA_SCALE_TOP, GradeRow

GRADE_NAMES: Final = tuple(g.grade for g in FESA_GRADES)
_GRADE = re.compile(r"^\s*(pro(?:fessional)?\s*)?(\d{1,2})\s*-?\s*(k|kyu|d|dan)\s*$", re.IGNORECASE)
GRADE_HELP: Final = "a FESA grade (20 kyu .. 1 kyu, 1 dan .. 8 dan)"
PRO_HELP: Final = " or a professional grade (pro 1 dan .. pro 9 dan)"


def grade(value: Any, *, allow_pro: bool = False) -> str | None:
    """A grade as the data contract writes it: ``3kyu``, ``3 Kyu``, ``3k`` -> ``3 kyu``; ``1d`` -> ``1 dan``."""
    v = schema.text(value)
    if v is None:
        return None
    m = _GRADE.match(v)
    if m:
        pro, n, unit = m.group(1), int(m.group(2)), m.group(3).lower()
        name = f"{n} {'kyu' if unit.startswith('k') else 'dan'}"
        if pro:
            if allow_pro and name.endswith("dan") and 1 <= n <= 9:
                return f"pro {name}"
        elif name in GRADE_NAMES:
            return name
    raise schema.ValueProblem(f"{schema.shown(v)} is not {GRADE_HELP}{PRO_HELP if allow_pro else ''}")


def handicap(value: Any) -> str | None:
    """A FESA handicap code (rules 6.7): ``S L B R RL 2p 4p 5p 6p`` or the handicap's name."""
    v = schema.text(value)
    if v is None:
        return None
    key = v.lower()
    for code, (name, _) in FESA_HANDICAPS.items():
        if key in (code.lower(), name):
            return code
    raise schema.ValueProblem(f"{schema.shown(v)} is not a handicap (expected one of {', '.join(FESA_HANDICAPS)})")


_GRADE_POSITION: Final = {name: i for i, name in enumerate(GRADE_NAMES)}
_LB: Final = [g.lb for g in FESA_GRADES]
#: Number of 20 kyu's lower bound (1 kyu = 14.0, rules 6.7).
FIRST_NUMBER: Final = 14 - GRADE_NAMES.index("1 kyu")
#: A professional n dan counts 2510 + 30 n as NSR grade (rules 6.5).
PRO_BASE: Final = 2510
PRO_STEP: Final = 30


def normalise_grade(text: str, *, allow_pro: bool = False) -> str:
    """``3kyu``, ``3 Kyu``, ``3k`` -> ``3 kyu``; ``1d`` -> ``1 dan``; ``pro 1 dan`` when allowed
    (ValueError otherwise)."""
    out = grade(text, allow_pro=allow_pro)
    if out is None:
        raise schema.ValueProblem(f"{text!r} is not {GRADE_HELP}")
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


#: The grade-number scale: every grade's LB, then FESA's program's bands above 8 dan (rules 6.11).
SCALE: Final = (*_LB, *FESA_SCALE_TOP)
#: Ratings at or above this are off the scale; FESA's program stops there too (rules 6.12).
SCALE_END: Final = SCALE[-1]


class OffScale(ValueError):
    """A rating beyond the end of the grade scale reached a handicap shift (rules 6.12)."""


def _single(rating: float) -> float:
    r = float(rating)
    if r >= SCALE_END:
        raise OffScale(f"a rating of {r:g} is beyond the end of FESA's grade scale ({SCALE_END})")
    return r


def grade_number(rating: Any) -> Any:
    """Fractional grade number of a rating in single floats (rules 6.7, 6.11): 1560 -> 14.0, 1620 -> 14.5.

    ``FIRST_NUMBER + band + (r - LB) / width``: the fraction is rounded to a single float,
    then the sum. Element-wise.
    """
    if not core.is_scalar(rating):
        return _each(grade_number, rating)
    r = _single(rating)
    if r <= 0:
        return 0.0
    i = bisect.bisect_right(SCALE, r) - 1
    lb, ub = SCALE[i], SCALE[i + 1]
    return core.f32(FIRST_NUMBER + i + core.f32((r - lb) / (ub - lb)))


def rating_of_number(number: Any) -> Any:
    """The rating of a fractional grade number, before rounding (rules 6.7, 6.11); element-wise.

    ``LB + part * width`` in single floats, ``part`` the fraction of the number; below the
    bottom of the scale (grade number under -5.0) the rating is 1.
    """
    if not core.is_scalar(number):
        return _each(rating_of_number, number)
    x = core.f32(float(number))
    whole = math.floor(x)
    i = whole - FIRST_NUMBER
    if i < 0:
        return RATING_BELOW_SCALE
    if i >= len(SCALE) - 1:
        raise OffScale(f"grade number {x:g} is beyond the end of FESA's grade scale ({SCALE_END})")
    lb, ub = SCALE[i], SCALE[i + 1]
    return core.f32(lb + core.f32((x - whole) * (ub - lb)))


#: What a shifted rating below the bottom of the grade scale is, as FESA's program has it (rules 6.11).
RATING_BELOW_SCALE: Final = 1.0


def handicap_value(code: str) -> float:
    """Value in grades of a handicap code (``B`` = bishop 1.5) (rules 6.7)."""
    key = handicap(code)
    if key is None:
        raise schema.ValueProblem(f"{code!r} is not a handicap (expected one of {', '.join(FESA_HANDICAPS)})")
    return FESA_HANDICAPS[key][1]


def shift(rating: Any, grades: Any) -> Any:
    """``rating`` moved down by ``grades`` on the grade scale, rounded halves to even (rules 6.7, 6.11); element-wise.

    Grade number, minus the handicap (its single-float value), back to a rating: each a
    single-float step, as FESA's program computes it.
    """
    if not core.is_scalar(rating, grades):
        r, g = np.broadcast_arrays(np.asarray(rating, dtype=np.float64), np.asarray(grades, dtype=np.float64))
        return np.array([shift(a, b) for a, b in zip(r.ravel().tolist(), g.ravel().tolist(), strict=True)]
                        ).reshape(r.shape)
    number = core.f32(grade_number(rating) - core.f32(float(grades)))
    return float(core.round_half_even(rating_of_number(number)))


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
