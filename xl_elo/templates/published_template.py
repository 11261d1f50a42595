"""The published-tables workbook: every table of SPEC 7 beside the values the formulas give."""

from __future__ import annotations

from openpyxl.styles import Font

from xl_elo.published import get_table, table_names
from xl_elo.templates import book as b


def tables() -> b.Book:
    """One sheet per published table: the federation's values, the computed ones, differences shaded."""
    book = b.Book("tables")
    index = book.sheet("index")
    index["A1"] = "Published tables (SPEC 7) beside the values the formulas give"
    index["A1"].font = Font(bold=True, size=14)
    index["A2"] = "Tableaux publiés (SPEC 7) à côté des valeurs données par les formules ; les écarts sont en orange."
    index.column_dimensions["A"].width = 20
    index.column_dimensions["B"].width = 70
    index.column_dimensions["C"].width = 90
    b.header(index, ["sheet", "table", "source"], [20, 70, 90], row=4)
    for r, name in enumerate(table_names(), start=5):
        view = get_table(name)
        index.cell(r, 1, name)
        index.cell(r, 2, view.title)
        index.cell(r, 3, str(view.source))
        ws = book.sheet(name[:31])
        ws["A1"] = view.title
        ws["A1"].font = Font(bold=True, size=12)
        ws["A2"] = f"Source: {view.source}"
        ws["A3"] = view.note
        b.header(ws, [*view.compare_columns, "differs"], [16] * (len(view.compare_columns) + 1), row=5)
        for i, (row, differs) in enumerate(zip(view.compare_rows, view.differs, strict=True), start=6):
            for j, value in enumerate(row, start=1):
                c = ws.cell(i, j, value)
                if differs:
                    c.fill = b.DIFF_FILL
            ws.cell(i, len(row) + 1, "yes" if differs else "")
        ws.freeze_panes = "A6"
    return book
