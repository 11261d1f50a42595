"""numpy when it is installed, None when it is not.

The one-player rules (expected scores, K, performances, first ratings, one player's change,
grades and handicaps) are plain Python, so the spreadsheet functions also run in
LibreOffice's own Python, which has no numpy on Windows and macOS (udfs/README.md). Whole
events and periods are rated as arrays and need numpy: :func:`need_numpy` says so clearly.
"""

from __future__ import annotations

from typing import Any

np: Any
try:
    import numpy

    np = numpy
except ImportError:  # pragma: no cover - exercised by the no-numpy test in a subprocess
    np = None


def need_numpy(what: str) -> None:
    """Raise a clear error when numpy is missing for ``what`` (a whole event, a range)."""
    if np is None:
        raise RuntimeError(f"{what} needs numpy, which this Python does not have "
                           "(install it, or use the template workbooks or the xl-elo command)")
