"""The published-tables workbook: every table of rules 7 beside the values the formulas give."""

from __future__ import annotations

from openpyxl.styles import Font

from xl_elo.published import get_table, table_names
from xl_elo.templates.builder import DIFF_FILL, Book, header_cells


def tables() -> Book:
    """One sheet per published table: the federation's values, the computed ones, differences shaded."""
    book = Book("tables")
    index = book.sheet("index")
    index["A1"] = "Published tables (xl-elo rules 7) beside the values the formulas give"
    index["A1"].font = Font(bold=True, size=14)
    index["A2"] = "Tableaux publiés (xl-elo rules 7) à côté des valeurs données par les formules ; écarts en orange."
    header_cells(index, 4, ["sheet", "table", "source"], [20, 70, 90])
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
        header_cells(ws, 5, [*view.compare_columns, "differs"], [16] * (len(view.compare_columns) + 1))
        for i, (row, differs) in enumerate(zip(view.compare_rows, view.differs, strict=True), start=6):
            for j, value in enumerate(row, start=1):
                c = ws.cell(i, j, value)
                if differs:
                    c.fill = DIFF_FILL
            ws.cell(i, len(row) + 1, "yes" if differs else "")
        ws.freeze_panes = "A6"
        ws.page_setup.orientation = "landscape"
        ws.page_setup.fitToWidth = 1
        ws.page_setup.fitToHeight = 0
        ws.sheet_properties.pageSetUpPr.fitToPage = True
    book.wb.active = 0
    return book
