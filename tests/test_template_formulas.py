"""Each template's formulas, column by column, against a committed snapshot (as XlsxWriter checks its output
file by file): a change to a formula is seen here, in a second, before LibreOffice recalculates anything.

A template built with a small room (3 players, 4 games, 2 history rows, 2 periods) holds every formula of its
full room: each column's formula is written down its rows. The snapshot keeps, for each sheet and column,
the formula of its first row and of the first row of its second block (a side's opponent half). When a
template changes on purpose, rewrite the snapshot: ``XL_ELO_UPDATE_SNAPSHOTS=1 python -m pytest
tests/test_template_formulas.py``, and read its diff before committing it.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from xl_elo.templates import build_book, template_names
from xl_elo.templates.builder import save
from xl_elo.templates.spec import Capacity

SNAPSHOTS = Path(__file__).parent / "data" / "formulas"
SMALL = Capacity(players=3, games=4, history=2, periods=2)
NAMES = [n for n in template_names() if n != "tables"]


def _formulas(name: str, tmp_path: Path) -> dict[str, dict[str, str]]:
    """Sheet -> column letter -> the formulas of its rows, as the workbook's XML holds them (one column's
    distinct formulas, each once, in row order: the first row's and each block's)."""
    import openpyxl

    wb = openpyxl.load_workbook(save(build_book(name, SMALL), tmp_path / f"{name}.xlsx"))
    out: dict[str, dict[str, str]] = {}
    for ws in wb.worksheets:
        columns: dict[str, list[str]] = {}
        for row in ws.iter_rows():
            for cell in row:
                if cell.data_type == "f" and isinstance(cell.value, str):
                    seen = columns.setdefault(cell.column_letter, [])
                    text = _shape(cell.value, cell.row)
                    if text not in seen:
                        seen.append(text)
        if columns:
            out[ws.title] = {k: " | ".join(v) for k, v in sorted(columns.items(), key=lambda kv: (len(kv[0]), kv[0]))}
    return out


def _shape(formula: str, row: int) -> str:
    """A formula with its own row number written ``#``, so the rows of one column read alike."""
    import re

    return re.sub(rf"(?<![0-9A-Za-z_])(\$?[A-Z]{{1,3}}\$?){row}(?![0-9])", r"\1#", formula)


@pytest.mark.parametrize("name", NAMES)
def test_a_templates_formulas_are_its_snapshots(name, tmp_path):
    got = _formulas(name, tmp_path)
    path = SNAPSHOTS / f"{name}.json"
    if os.environ.get("XL_ELO_UPDATE_SNAPSHOTS"):
        SNAPSHOTS.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(got, indent=1, ensure_ascii=False, sort_keys=True) + "\n", encoding="utf-8")
    want = json.loads(path.read_text(encoding="utf-8"))
    changed = [f"{sheet}!{col}" for sheet in sorted(set(want) | set(got))
               for col in sorted(set(want.get(sheet, {})) | set(got.get(sheet, {})))
               if want.get(sheet, {}).get(col) != got.get(sheet, {}).get(col)]
    assert not changed, (f"{name}: {len(changed)} columns' formulas differ from tests/data/formulas/{name}.json "
                         f"(first: {', '.join(changed[:8])}); if on purpose, rewrite the snapshot (see the docstring)")
