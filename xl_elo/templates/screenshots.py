"""Pictures of each template's results sheet, filled with its worked example, for the README.

``python -m xl_elo.templates.screenshots workbooks/screenshots`` fills every template with the
shipped example of its federation, recalculates it in LibreOffice, copies the results sheet's
values into a one-sheet workbook, prints that to PDF with LibreOffice and turns the first page
into a PNG with pdftoppm. Needs LibreOffice and poppler-utils; the package never needs them.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from xl_elo.demo import example_event
from xl_elo.libreoffice import recalculate, to_pdf
from xl_elo.templates import build_template
from xl_elo.xlsxio import fill_template

CASES = {
    "fqe": ("fqe_coq", None), "fide": ("fide_period", "2026-10"), "fse": ("fse_period", "2025-10"),
    "ffe": ("ffe_period", "2026-01"), "fesa": ("fesa_13th_nekomadoken", "2017-04-15"),
}


def results_only(source: Path, target: Path, title: str) -> None:
    import openpyxl
    from openpyxl.styles import Font, PatternFill

    values = openpyxl.load_workbook(source, data_only=True, read_only=True)["results"]
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "results"
    ws.page_setup.orientation = "landscape"
    ws.page_setup.fitToWidth = 1
    ws.sheet_properties.pageSetUpPr.fitToPage = True
    ws.append([title])
    ws["A1"].font = Font(bold=True, size=12)
    head = None
    for row in values.iter_rows(values_only=True):
        if head is None:
            head = row
            ws.append(list(row))
            for c in ws[ws.max_row]:
                c.font = Font(bold=True, color="FFFFFF")
                c.fill = PatternFill("solid", fgColor="1F4E78")
            continue
        if row[0] in (None, ""):
            continue
        ws.append([round(v, 3) if isinstance(v, float) else v for v in row])
        for c, name in zip(ws[ws.max_row], head, strict=False):
            if name in ("rating_after", "grade_after"):
                c.fill = PatternFill("solid", fgColor="DDEBF7")
    for j in range(1, ws.max_column + 1):
        ws.column_dimensions[openpyxl.utils.get_column_letter(j)].width = 13
    ws.column_dimensions["A"].width = 11
    wb.save(target)


def main(out_dir: str) -> None:
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        t = Path(tmp)
        for federation, (folder, period) in CASES.items():
            template = build_template(federation, t / "templates")
            filled = fill_template(template, example_event(folder, period), t / f"{federation}_filled.xlsx")
            done = recalculate(filled, t / f"{federation}_done.xlsx")
            small = t / f"{federation}_results.xlsx"
            results_only(done, small, f"{template.name}: results sheet ({folder})")
            pdf = to_pdf(small, t)
            rows = 3 + len(example_event(folder, period).players)
            height = min(900, 90 + 22 * rows)
            subprocess.run(["pdftoppm", "-png", "-r", "110", "-f", "1", "-l", "1", "-x", "40", "-y", "60",
                            "-W", "1150", "-H", str(height), str(pdf), str(t / federation)], check=True)
            page = next(t.glob(f"{federation}-*.png"))
            shutil.move(str(page), out / f"{federation}_results.png")
            print(out / f"{federation}_results.png")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "workbooks/screenshots")
