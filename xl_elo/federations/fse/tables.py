"""The FSE's table as its arbiters' course prints it, transcribed once (rules 3.3, 7)."""

from __future__ import annotations

from typing import Final

#: (difference me - you, expected, win, draw, loss) for FSE with K = 24 (rules 3.3).
FSE_K24_APPROX: Final[tuple[tuple[int, float, int, int, int], ...]] = (
    (1000, 1.00, 0, -12, -24), (400, 0.92, 2, -10, -22), (300, 0.86, 4, -8, -20),
    (250, 0.81, 5, -7, -19), (200, 0.76, 6, -6, -18), (160, 0.71, 7, -5, -17),
    (120, 0.66, 8, -4, -16), (90, 0.63, 9, -3, -15), (60, 0.58, 10, -2, -14),
    (30, 0.54, 11, -1, -13), (0, 0.50, 12, 0, -12),
)
