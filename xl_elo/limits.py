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
    def given(self) -> str | None:
        """The environment variable's text when it is set but not a whole number above 0 (ignored)."""
        raw = os.environ.get(self.env)
        if raw is None or not raw.strip() or self._parse(raw) is not None:
            return None
        return raw

    @staticmethod
    def _parse(raw: str) -> int | None:
        text = raw.strip()
        for mark in ("_", ",", "'", " "):
            text = text.replace(mark, "")
        return int(text) if text.isascii() and text.isdigit() and int(text) > 0 else None

    @property
    def value(self) -> int:
        return self._parse(os.environ.get(self.env, "")) or self.default

    def message(self, found: str) -> str:
        """``found``, then the limit and how to raise it."""
        ignored = (f"; {self.env} is set to {self.given!r}, which is not a whole number, so it was ignored"
                   if self.given is not None else "")
        return (f"{found} (at most {self.value:,} {self.unit}; for a real event this big, set the environment "
                f"variable {self.env} to a larger number{ignored})")


FILE_BYTES: Final = Limit("XL_ELO_MAX_FILE_BYTES", 1 << 30, "bytes in an input file")
ROWS: Final = Limit("XL_ELO_MAX_ROWS", 5_000_000, "rows in a table")
LINE_CHARS: Final = Limit("XL_ELO_MAX_LINE_CHARS", 100_000, "characters on one line")
#: Cells of a CSV file (rows x columns): a real period of 5,000,000 rows of six columns fits.
CELLS: Final = Limit("XL_ELO_MAX_CELLS", 30_000_000, "cells in a file")
#: Columns of a table: the data contract has 15 at most, a spreadsheet export a few dozen.
COLUMNS: Final = Limit("XL_ELO_MAX_COLUMNS", 1000, "columns in a table")
XLSX_UNPACKED: Final = Limit("XL_ELO_MAX_XLSX_BYTES", 400 << 20, "bytes unpacked from a workbook")
XLSX_CELLS: Final = Limit("XL_ELO_MAX_XLSX_CELLS", 2_000_000, "cells in a worksheet")
XLSX_ROWS: Final = Limit("XL_ELO_MAX_XLSX_ROWS", 200_000, "rows in a worksheet (formatted blank rows count)")
#: Any other XML part a spreadsheet reader parses (styles, the workbook itself ...).
XLSX_PART: Final = Limit("XL_ELO_MAX_XLSX_PART_BYTES", 32 << 20, "bytes in one part of a workbook other than a sheet")
SHARED_STRINGS: Final = Limit("XL_ELO_MAX_SHARED_STRINGS", 32 << 20, "bytes of text shared by a workbook's cells")
FAST_READER_BYTES: Final = Limit("XL_ELO_MAX_READER_BYTES", 2 << 30, "bytes of memory the fast reader may plan")
#: One of FESA's files (its tournament file, its rating list, its new players): FESA's whole rating list
#: of every player ever rated is well under a megabyte.
FESA_BYTES: Final = Limit("XL_ELO_MAX_FESA_BYTES", 16 << 20, "bytes in one of FESA's files")
#: How long LibreOffice may take to recalculate a workbook (``--recalculate``, an .ods file).
LIBREOFFICE_SECONDS: Final = Limit("XL_ELO_LIBREOFFICE_SECONDS", 300, "seconds for LibreOffice to recalculate")
