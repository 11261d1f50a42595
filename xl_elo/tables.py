"""The federations' published tables, transcribed once (rules section 7).

Every table here is data copied from the federations' own documents, with its source (the
document and its section; docs/rules.md links each federation's text). The engines, the ``xl-elo tables`` command, the
Excel functions and the workbook generator all read these objects; no table is copied
anywhere else.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final


@dataclass(frozen=True, slots=True)
class Source:
    """Where a published table comes from."""

    document: str
    """The federation's document."""
    section: str
    """Section or page of that document."""

    def __str__(self) -> str:
        return f"{self.document}, {self.section}"


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

# --------------------------------------------------------------------------- 3. FFE D(P)

FFE_DP_SOURCE: Final = Source("FFE, Le classement national Élo", "section 2.4, the D(P) table")
#: D(P) at every hundredth, keyed by P in hundredths (1 .. 99); the document leaves 0.00 and
#: 1.00 blank (rules 5.4).
FFE_DP_TABLE: Final[dict[int, int]] = {
    99: 677, 98: 589, 97: 538, 96: 501, 95: 470, 94: 444, 93: 422, 92: 401, 91: 383, 90: 366,
    89: 351, 88: 336, 87: 322, 86: 309, 85: 296, 84: 284, 83: 273, 82: 262, 81: 251, 80: 240,
    79: 230, 78: 220, 77: 211, 76: 202, 75: 193, 74: 184, 73: 175, 72: 166, 71: 158, 70: 149,
    69: 141, 68: 133, 67: 125, 66: 117, 65: 110, 64: 102, 63: 95, 62: 87, 61: 80, 60: 72,
    59: 65, 58: 57, 57: 50, 56: 43, 55: 36, 54: 29, 53: 21, 52: 14, 51: 7, 50: 0,
    49: -7, 48: -14, 47: -21, 46: -29, 45: -36, 44: -43, 43: -50, 42: -57, 41: -65, 40: -72,
    39: -80, 38: -87, 37: -95, 36: -102, 35: -110, 34: -117, 33: -125, 32: -133, 31: -141,
    30: -149, 29: -158, 28: -166, 27: -175, 26: -184, 25: -193, 24: -202, 23: -211, 22: -220,
    21: -230, 20: -240, 19: -251, 18: -262, 17: -273, 16: -284, 15: -296, 14: -309, 13: -322,
    12: -336, 11: -351, 10: -366, 9: -383, 8: -401, 7: -422, 6: -444, 5: -470, 4: -501,
    3: -538, 2: -589, 1: -677,
}

FIDE_DP_SOURCE: Final = Source(
    "FIDE Rating Regulations (effective 2024), table 8.1.1",
    "the FFE's D(P) values with the two end rows p = 1.00 -> +800 and p = 0.00 -> -800 (xl-elo rules 2.6)",
)
#: FIDE's D(P) table (8.1.1), keyed by p in hundredths (0 .. 100): the same values as the FFE
#: table at 0.01 .. 0.99 (rules 2.4), and the end rows that give a 100% or 0% event a
#: performance (rules 2.6).
FIDE_DP_TABLE: Final[dict[int, int]] = {**FFE_DP_TABLE, 100: 800, 0: -800}

# --------------------------------------------------------------------------- 4. FQE / FIDE expected

FQE_EXPECTED_SOURCE: Final = Source("FQE, Le calcul de la cote", "the table of probable results")
#: (lowest difference, highest difference or None, expected score of the higher-rated player
#: in hundredths) (rules 4.2).
FQE_EXPECTED_ROWS: Final[tuple[tuple[int, int | None, int], ...]] = (
    (0, 3, 50), (4, 10, 51), (11, 17, 52), (18, 25, 53), (26, 32, 54), (33, 39, 55),
    (40, 46, 56), (47, 53, 57), (54, 61, 58), (62, 68, 59), (69, 76, 60), (77, 83, 61),
    (84, 91, 62), (92, 98, 63), (99, 106, 64), (107, 113, 65), (114, 121, 66), (122, 129, 67),
    (130, 137, 68), (138, 145, 69), (146, 153, 70), (154, 162, 71), (163, 170, 72),
    (171, 179, 73), (180, 188, 74), (189, 197, 75), (198, 206, 76), (207, 215, 77),
    (216, 225, 78), (226, 235, 79), (236, 245, 80), (246, 256, 81), (257, 267, 82),
    (268, 278, 83), (279, 290, 84), (291, 302, 85), (303, 315, 86), (316, 328, 87),
    (329, 344, 88), (345, 357, 89), (358, 374, 90), (375, 391, 91), (392, 411, 92),
    (412, 432, 93), (433, 456, 94), (457, 484, 95), (485, 517, 96), (518, 559, 97),
    (560, 619, 98), (620, 734, 99), (735, None, 100),
)

FIDE_PD_SOURCE: Final = Source(
    "FIDE Rating Regulations (effective 2024), table 8.1.2 (xl-elo rules 2.2)",
    "the FQE ranges except the last rows: 620-735 -> 0.99, above 735 -> 1.00",
)
#: FIDE's table of rating difference to expected score: FQE's ranges with FIDE's last rows.
FIDE_PD_ROWS: Final[tuple[tuple[int, int | None, int], ...]] = FQE_EXPECTED_ROWS[:-2] + (
    (620, 735, 99),
    (736, None, 100),
)

# --------------------------------------------------------------------------- 5. approximations

APPROX_SOURCE: Final = Source(
    "Swiss Chess Federation, Système de classement ELO, module pour la formation des arbitres",
    "Table de calcul FIDE/FSE (approximation)",
)
#: (difference me - you, expected, win, draw, loss) for FIDE with K = 20 (rules 2.5).
FIDE_K20_APPROX: Final[tuple[tuple[int, float, int, int, int], ...]] = (
    (800, 1.00, 0, -10, -20), (500, 0.95, 1, -9, -19), (350, 0.90, 2, -8, -18),
    (300, 0.85, 3, -7, -17), (250, 0.80, 4, -6, -16), (200, 0.75, 5, -5, -15),
    (150, 0.70, 6, -4, -14), (100, 0.65, 7, -3, -13), (75, 0.60, 8, -2, -12),
    (35, 0.55, 9, -1, -11), (0, 0.50, 10, 0, -10),
)
#: (difference me - you, expected, win, draw, loss) for FSE with K = 24 (rules 3.3).
FSE_K24_APPROX: Final[tuple[tuple[int, float, int, int, int], ...]] = (
    (1000, 1.00, 0, -12, -24), (400, 0.92, 2, -10, -22), (300, 0.86, 4, -8, -20),
    (250, 0.81, 5, -7, -19), (200, 0.76, 6, -6, -18), (160, 0.71, 7, -5, -17),
    (120, 0.66, 8, -4, -16), (90, 0.63, 9, -3, -15), (60, 0.58, 10, -2, -14),
    (30, 0.54, 11, -1, -13), (0, 0.50, 12, 0, -12),
)

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

# --------------------------------------------------------------------------- 7. FFE conversions

FFE_CONVERSION_SOURCE: Final = Source("FFE, Le classement national Élo", "section 5, conversions")
#: System -> (a, b, description) with ``Elo = a * value + b`` (rules 5.11).
FFE_CONVERSIONS: Final[dict[str, tuple[int, int, str]]] = {
    "ingo": (-8, 2842, "INGO, the German rating"),
    "bridier": (3, 150, "BRIDIER"),
    "bcr": (8, 600, "BCR, the British Chess Rating"),
    "cs": (2, 1000, "CS, the Swiss rating (classement suisse)"),
}

# --------------------------------------------------------------------------- 8. CFC expected

CFC_EXPECTED_SOURCE: Final = Source(
    "CFC Handbook (to 2014), Section 4, CFC Rating System",
    "article 414b, the table 'Expected Result of Game'",
)
#: (lowest difference, highest difference or None, expected score of the higher-rated player in
#: hundredths) (rules 11.3), as the CFC prints it: 51 ranges, 0-3 to "735 and over", the very
#: ranges and values of the FQE's table above, so held once (tests/test_cfc.py checks every row
#: against its own copy typed from the CFC's text).
CFC_EXPECTED_ROWS: Final[tuple[tuple[int, int | None, int], ...]] = FQE_EXPECTED_ROWS
