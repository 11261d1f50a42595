"""FESA's published tables, transcribed once (rules 6, 7): the k(pr) bands, the grades, the handicaps."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from xl_elo.tables import Source

# --------------------------------------------------------------------------- 1. FESA K table

FESA_K_SOURCE: Final = Source("FESA, Elo System (the rating rules, English original)", "section 1, the k(pr) table")
#: (lowest rating of the band, K), highest band first (rules 6.2).
FESA_K_BANDS: Final[tuple[tuple[int, int], ...]] = (
    (2240, 16),
    (1920, 20),
    (1560, 24),
    (1280, 28),
    (1040, 32),
    (720, 36),
    (-10**9, 40),
)

# --------------------------------------------------------------------------- 2. FESA grades

FESA_GRADE_SOURCE: Final = Source(
    "FESA, Elo System, section 7, and its French translation, section 3",
    "the grade table, as settled in xl-elo rules 6.9",
)


@dataclass(frozen=True, slots=True)
class GradeRow:
    """One row of the FESA grade table (rules 6.9)."""

    grade: str
    """Grade name as in the data contract: ``20 kyu`` ... ``1 kyu``, ``1 dan`` ... ``8 dan``."""
    lb: int
    """Lower bound (LB)."""
    mp: int
    """Midpoint (MP)."""
    n_lb: int | None
    """#LB: games at or above LB (with MP reached) that promote; None when no such path."""
    n_mp: int | None
    """#MP: games at or above MP that promote; None when no such path."""


def _kyu_counts(n: int) -> tuple[int, int]:
    if n >= 12:
        return 6, 3
    if n >= 8:
        return 8, 4
    if n >= 5:
        return 10, 5
    if n >= 2:
        return 12, 6
    return 14, 7


_KYU_LB = (0, 80, 160, 240, 320, 400, 480, 560, 640, 720, 800, 880, 960, 1040, 1120, 1200,
           1280, 1360, 1460, 1560)
_KYU_MP = (40, 120, 200, 280, 360, 440, 520, 600, 680, 760, 840, 920, 1000, 1080, 1160, 1240,
           1320, 1410, 1510, 1620)
_DAN = (
    # grade, LB, MP, #LB, #MP
    ("1 dan", 1680, 1740, 14, 7),
    ("2 dan", 1800, 1860, 14, 7),
    ("3 dan", 1920, 2000, 16, 8),
    ("4 dan", 2080, 2160, 16, 8),
    ("5 dan", 2240, 2340, None, 10),
    ("6 dan", 2440, 2540, None, None),
    ("7 dan", 2640, 2760, None, None),
    ("8 dan", 2880, 3000, None, None),
)

#: The grade table from 20 kyu (lowest) to 8 dan (highest) (rules 6.9).
FESA_GRADES: Final[tuple[GradeRow, ...]] = tuple(
    GradeRow(f"{20 - i} kyu", lb, mp, *_kyu_counts(20 - i))
    for i, (lb, mp) in enumerate(zip(_KYU_LB, _KYU_MP, strict=True))
) + tuple(GradeRow(*row) for row in _DAN)

FESA_PROGRAM_SOURCE: Final = Source(
    "FESA's rating program (kota/elo_rating, turnering.lisp)", "the dan bounds *dan-lb* and the handicap shift",
)
#: Where FESA's program carries its grade-number scale past 8 dan's LB (rules 6.11): 8 dan up to
#: 3120, then one last band from 3120 to 9999, the end of the scale (the program stops beyond it).
FESA_SCALE_TOP: Final[tuple[int, int]] = (3120, 9999)

#: The upper bounds FESA prints in its Elo System, section 7 (20 kyu .. 5 dan), for comparison.
FESA_PUBLISHED_UB: Final[dict[str, int]] = {
    "5 dan": 2440, "4 dan": 2240, "3 dan": 2080, "2 dan": 1920, "1 dan": 1800,
    "1 kyu": 1680, "2 kyu": 1560, "3 kyu": 1460, "4 kyu": 1360, "5 kyu": 1280,
    "6 kyu": 1200, "7 kyu": 1120, "8 kyu": 1040, "9 kyu": 960, "10 kyu": 880,
    "11 kyu": 800, "12 kyu": 720, "13 kyu": 640, "14 kyu": 560, "15 kyu": 480,
    "16 kyu": 400, "17 kyu": 320, "18 kyu": 240, "19 kyu": 160, "20 kyu": 80,
}
#: FESA's English text prints 20 kyu's LB as 1; rules 6.9 keeps 0 (the table in force).
FESA_PUBLISHED_LB_DIFFERENCES: Final[dict[str, int]] = {"20 kyu": 1}


# --------------------------------------------------------------------------- 6. FESA handicaps

FESA_HANDICAP_SOURCE: Final = Source("FESA, Elo System", "section 8, handicap")
#: Handicap code of the data contract -> (name, value in grades) (rules 6.7).
FESA_HANDICAPS: Final[dict[str, tuple[str, float]]] = {
    "S": ("sente", 0.2),
    "L": ("lance", 0.6),
    "B": ("bishop", 1.5),
    "R": ("rook", 2.1),
    "RL": ("rook and lance", 2.7),
    "2p": ("2 pieces", 3.6),
    "4p": ("4 pieces", 5.0),
    "5p": ("5 pieces", 6.5),
    "6p": ("6 pieces", 8.0),
}
