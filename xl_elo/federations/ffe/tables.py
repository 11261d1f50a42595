"""The FFE's published conversions, transcribed once (rules 5.11, 7)."""

from __future__ import annotations

from typing import Final

from xl_elo.tables import Source

# --------------------------------------------------------------------------- 7. FFE conversions

FFE_CONVERSION_SOURCE: Final = Source("FFE, Le classement national Élo", "section 5, conversions")
#: System -> (a, b, description) with ``Elo = a * value + b`` (rules 5.11).
FFE_CONVERSIONS: Final[dict[str, tuple[int, int, str]]] = {
    "ingo": (-8, 2842, "INGO, the German rating"),
    "bridier": (3, 150, "BRIDIER"),
    "bcr": (8, 600, "BCR, the British Chess Rating"),
    "cs": (2, 1000, "CS, the Swiss rating (classement suisse)"),
}
