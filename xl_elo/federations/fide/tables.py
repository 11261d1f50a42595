"""FIDE's table as the Swiss arbiters' course prints it, transcribed once (rules 2.5, 7)."""

from __future__ import annotations

from typing import Final

#: (difference me - you, expected, win, draw, loss) for FIDE with K = 20 (rules 2.5).
FIDE_K20_APPROX: Final[tuple[tuple[int, float, int, int, int], ...]] = (
    (800, 1.00, 0, -10, -20), (500, 0.95, 1, -9, -19), (350, 0.90, 2, -8, -18),
    (300, 0.85, 3, -7, -17), (250, 0.80, 4, -6, -16), (200, 0.75, 5, -5, -15),
    (150, 0.70, 6, -4, -14), (100, 0.65, 7, -3, -13), (75, 0.60, 8, -2, -12),
    (35, 0.55, 9, -1, -11), (0, 0.50, 10, 0, -10),
)
