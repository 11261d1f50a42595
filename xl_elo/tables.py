"""The published tables two systems share, transcribed once (rules section 7), and how a table cites its source.

A table one system prints lives in its folder (``xl_elo/federations/<code>/tables.py``: FESA's K bands,
grades and handicaps, the FFE's conversions, FIDE's and the FSE's approximations). Here stand the tables two
federations print alike, so each is copied once: the D(P) table of the FFE and FIDE (FIDE's with its two end
rows), the 51-range expected-score table of the FQE and the CFC (FIDE's with its own last rows), and the
source the FIDE and FSE approximations share. Every table is data copied from the federations' own
documents, with its source (the document and its section; docs/rules.md links each federation's text); the
engines, the ``xl-elo tables`` command, the functions and the workbook generator read these objects.
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

# --------------------------------------------------------------------------- 5. the approximations' source

APPROX_SOURCE: Final = Source(
    "Swiss Chess Federation, Système de classement ELO, module pour la formation des arbitres",
    "Table de calcul FIDE/FSE (approximation)",
)

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
