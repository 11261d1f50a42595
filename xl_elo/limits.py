"""How big an input may be before anything is read (rules 8: bad input gets a clear error).

Every limit is far above any real event or period (a FIDE month has about 10^5 games; the
benchmark rates 10^6), so reaching one means a file that is not what it says, or a mistake.
Each is checked before the work it guards, and refused in seconds with a message that names
the limit and the environment variable that raises it, for the rare real event that needs it.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Final


@dataclass(frozen=True)
class Limit:
    """One limit: its environment variable, its default and what it counts."""

    env: str
    default: int
    unit: str

    @property
    def value(self) -> int:
        text = os.environ.get(self.env, "").strip().replace("_", "")
        if text.isdigit() and int(text) > 0:
            return int(text)
        return self.default

    def message(self, found: str) -> str:
        """``found``, then the limit and how to raise it."""
        return (f"{found} (at most {self.value:,} {self.unit}; for a real event this big, set the environment "
                f"variable {self.env} to a larger number)")


FILE_BYTES: Final = Limit("XL_ELO_MAX_FILE_BYTES", 1 << 30, "bytes in an input file")
ROWS: Final = Limit("XL_ELO_MAX_ROWS", 5_000_000, "rows in a table")
LINE_CHARS: Final = Limit("XL_ELO_MAX_LINE_CHARS", 100_000, "characters on one line")
XLSX_UNPACKED: Final = Limit("XL_ELO_MAX_XLSX_BYTES", 400 << 20, "bytes unpacked from a workbook")
XLSX_CELLS: Final = Limit("XL_ELO_MAX_XLSX_CELLS", 2_000_000, "cells in a worksheet")
SHARED_STRINGS: Final = Limit("XL_ELO_MAX_SHARED_STRINGS", 32 << 20, "bytes of text shared by a workbook's cells")
FAST_READER_BYTES: Final = Limit("XL_ELO_MAX_READER_BYTES", 2 << 30, "bytes of memory the fast reader may plan")
