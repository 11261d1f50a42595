"""The building blocks every template shares: sheets, styles, names, lists, side rows.

A "side" is one game seen from one of its two players: side k (1 .. 3000) is game k from its
``player``'s side, side 3000 + k the same game from its ``opponent``'s side. Every per-player
sum of a template is a SUMIFS or COUNTIFS over the sides, keyed by the player's position.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence

from openpyxl import Workbook
from openpyxl.styles import Alignment, Font, PatternFill, Protection
from openpyxl.utils import get_column_letter, quote_sheetname
from openpyxl.workbook.defined_name import DefinedName
from openpyxl.worksheet.datavalidation import DataValidation
from openpyxl.worksheet.worksheet import Worksheet

from xl_elo.core import RESULT_SPELLINGS, ResultKind

#: Capacity of every template (issue: at least 300 players and 3,000 games).
MAX_PLAYERS = 300
MAX_GAMES = 3000
MAX_HISTORY = 3000
MAX_SIDES = 2 * MAX_GAMES
FIRST = 2  # first data row (row 1 is the header)
LAST_PLAYER = FIRST + MAX_PLAYERS - 1
LAST_GAME = FIRST + MAX_GAMES - 1
LAST_SIDE = FIRST + MAX_SIDES - 1
LAST_HISTORY = FIRST + MAX_HISTORY - 1

#: A fixed date so that a rebuild writes the same workbook.
BUILD_DATE = dt.datetime(2026, 1, 1)

HEADER_FILL = PatternFill("solid", fgColor="1F4E78")
HEADER_FONT = Font(bold=True, color="FFFFFF")
INPUT_FILL = PatternFill("solid", fgColor="FFFFFF")
FORMULA_FILL = PatternFill("solid", fgColor="E7E6E6")
RESULT_FILL = PatternFill("solid", fgColor="DDEBF7")
DIFF_FILL = PatternFill("solid", fgColor="F8CBAD")
UNLOCKED = Protection(locked=False)


def col(n: int) -> str:
    """Column letter of the n-th column (1 = A)."""
    return get_column_letter(n)


class Book:
    """A workbook being built, with helpers for names and styled cells."""

    def __init__(self, federation: str) -> None:
        self.shared: dict[str, list[tuple[str, str, int]]] = {}
        """sheet -> [(master cell, range, shared index)] for :func:`xl_elo.templates.build.save`."""
        self.wb = Workbook()
        self.wb.properties.creator = "xl-elo"
        self.wb.properties.created = BUILD_DATE
        self.wb.properties.modified = BUILD_DATE
        self.wb.properties.lastModifiedBy = "xl-elo"
        # no cached values are stored: have Excel and LibreOffice calculate everything on opening
        self.wb.calculation.fullCalcOnLoad = True
        self.federation = federation
        self._first = True
        self.define("XL_ELO_FEDERATION", f'"{federation}"')

    def sheet(self, title: str) -> Worksheet:
        if self._first:
            ws = self.wb.active
            ws.title = title
            self._first = False
        else:
            ws = self.wb.create_sheet(title)
        return ws

    def define(self, name: str, ref: str) -> None:
        """A workbook-wide name (``side_who`` -> ``sides!$C$2:$C$6001``)."""
        self.wb.defined_names[name] = DefinedName(name, attr_text=ref)

    def name_range(self, name: str, ws: Worksheet, column: int, first: int, last: int) -> None:
        c = col(column)
        self.define(name, f"{quote_sheetname(ws.title)}!${c}${first}:${c}${last}")

    def name_cell(self, name: str, ws: Worksheet, coordinate: str) -> None:
        column = "".join(ch for ch in coordinate if ch.isalpha())
        row = coordinate[len(column):]
        self.define(name, f"{quote_sheetname(ws.title)}!${column}${row}")


def header(ws: Worksheet, names: Sequence[str], widths: Sequence[float] | None = None, row: int = 1) -> None:
    for j, name in enumerate(names, start=1):
        c = ws.cell(row, j, name)
        c.fill = HEADER_FILL
        c.font = HEADER_FONT
        c.alignment = Alignment(horizontal="center", wrap_text=True)
        ws.column_dimensions[col(j)].width = (widths[j - 1] if widths else max(10, len(name) + 2))
    ws.freeze_panes = ws.cell(row + 1, 1)


def input_area(ws: Worksheet, n_columns: int, first: int, last: int) -> None:
    """Unlock the input cells (the sheet itself stays unprotected: users may add notes)."""
    for r in range(first, last + 1):
        for j in range(1, n_columns + 1):
            ws.cell(r, j).protection = UNLOCKED


def formula_rows(ws: Worksheet, column: int, first: int, last: int, template: str, fill: PatternFill = FORMULA_FILL) -> None:
    """Write ``template.format(r=row)`` into a column, locked and shaded."""
    for r in range(first, last + 1):
        c = ws.cell(r, column, template.format(r=r))
        c.fill = fill


def write_column(book: Book, ws: Worksheet, column: int, first: int, last: int, fn, fill: PatternFill = FORMULA_FILL) -> None:  # type: ignore[no-untyped-def]
    """Write ``fn(row)`` into rows first .. last of a column.

    When every row's formula is the first row's, moved down (relative references only), the
    column is written as one Excel shared formula: the workbook stays small and Excel and
    LibreOffice read it as the same formula in every row.
    """
    from openpyxl.formula.translate import Translator

    letter = col(column)
    master = fn(first)
    shareable = isinstance(master, str) and master.startswith("=") and last > first
    if shareable:
        probes = sorted({first + 1, (first + last) // 2, last})
        for r in probes:
            moved = Translator(master, origin=f"{letter}{first}").translate_formula(f"{letter}{r}")
            if moved != fn(r):
                shareable = False
                break
    if not shareable:
        for r in range(first, last + 1):
            ws.cell(r, column, fn(r)).fill = fill
        return
    entries = book.shared.setdefault(ws.title, [])
    si = len(entries)
    entries.append((f"{letter}{first}", f"{letter}{first}:{letter}{last}", si))
    ws.cell(first, column, master).fill = fill
    placeholder = f"=XLELOSHARED{si}"
    for r in range(first + 1, last + 1):
        ws.cell(r, column, placeholder).fill = fill


def protect(ws: Worksheet) -> None:
    """Lock a computed sheet (no password: the point is to prevent accidents)."""
    ws.protection.sheet = True
    ws.protection.formatCells = False
    ws.protection.formatColumns = False
    ws.protection.formatRows = False
    ws.protection.sort = False
    ws.protection.autoFilter = False


def validation_list(ws: Worksheet, source: str, ref: str, title: str, prompt: str) -> None:
    dv = DataValidation(type="list", formula1=source, allow_blank=True, showErrorMessage=True,
                        errorStyle="stop", errorTitle=title, error=prompt, showInputMessage=True,
                        promptTitle=title, prompt=prompt)
    dv.add(ref)
    ws.add_data_validation(dv)


def validation_custom(ws: Worksheet, formula: str, ref: str, title: str, prompt: str) -> None:
    dv = DataValidation(type="custom", formula1=formula, allow_blank=True, showErrorMessage=True,
                        errorStyle="stop", errorTitle=title, error=prompt)
    dv.add(ref)
    ws.add_data_validation(dv)


def validation_number(ws: Worksheet, ref: str, low: float, high: float, title: str, prompt: str,
                      whole: bool = False) -> None:
    dv = DataValidation(type="whole" if whole else "decimal", operator="between", formula1=str(low),
                        formula2=str(high), allow_blank=True, showErrorMessage=True, errorStyle="stop",
                        errorTitle=title, error=prompt)
    dv.add(ref)
    ws.add_data_validation(dv)


# --------------------------------------------------------------------------- lists sheet


def result_rows() -> list[tuple[object, object, str]]:
    """(spelling, score or '', kind) for every accepted result spelling (SPEC 1.1)."""
    rows: list[tuple[object, object, str]] = [(1, 1, "played"), (0.5, 0.5, "played"), (0, 0, "played")]
    for text, result in RESULT_SPELLINGS.items():
        score: object = result.score if result.kind is ResultKind.PLAYED else ""
        rows.append((text, score, result.kind.value))
    return rows


def lists_sheet(book: Book) -> Worksheet:
    """The hidden ``lists`` sheet: accepted results and yes/no values."""
    ws = book.sheet("lists")
    header(ws, ["result", "score", "kind"], [14, 8, 12])
    rows = result_rows()
    for r, (text, score, kind) in enumerate(rows, start=2):
        ws.cell(r, 1, text)
        ws.cell(r, 2, score)
        ws.cell(r, 3, kind)
    book.name_range("result_text", ws, 1, 2, len(rows) + 1)
    book.name_range("result_score", ws, 2, 2, len(rows) + 1)
    book.name_range("result_kind", ws, 3, 2, len(rows) + 1)
    ws.sheet_state = "hidden"
    return ws


def table_block(book: Book, ws: Worksheet, column: int, title: str, names: Sequence[str],
                rows: Sequence[Sequence[object]]) -> None:
    """A published table on the lists sheet, its columns named ``names``."""
    for j, name in enumerate(names):
        c = ws.cell(1, column + j, f"{title}: {name}" if j == 0 else name)
        c.fill = HEADER_FILL
        c.font = HEADER_FONT
        ws.column_dimensions[col(column + j)].width = 14
    for r, row in enumerate(rows, start=2):
        for j, v in enumerate(row):
            ws.cell(r, column + j, v)
    for j, name in enumerate(names):
        book.name_range(name, ws, column + j, 2, len(rows) + 1)


# --------------------------------------------------------------------------- sides sheet


def sides_sheet(book: Book, games_ws: Worksheet, fesa: bool = False) -> Worksheet:
    """Every game from both sides: who, against whom, score, whether it counts (SPEC 1.1, 6.8)."""
    ws = book.sheet("sides")
    cols = ["side", "game row", "who", "opponent", "result", "score", "rated", "round", "who id", "opponent id"]
    if fesa:
        cols += ["handicap", "giver"]
    header(ws, cols)
    g = quote_sheetname(games_ws.title)
    for k in range(1, MAX_SIDES + 1):
        r = FIRST + k - 1
        ws.cell(r, 1, k).fill = FORMULA_FILL
        ws.cell(r, 2, FIRST + (k - 1) % MAX_GAMES).fill = FORMULA_FILL
        if fesa:
            ws.cell(r, 12, 1 if k <= MAX_GAMES else 0).fill = FORMULA_FILL

    def formulas(r: int) -> dict[int, str]:
        first_side = r - FIRST < MAX_GAMES
        gr = FIRST + (r - FIRST) % MAX_GAMES
        me, other = ("B", "C") if first_side else ("C", "B")
        score = f"INDEX(result_score,MATCH({g}!$D{gr},result_text,0))"
        rated_flag = f',{g}!$F{gr}<>"no"' if fesa else ""
        out = {
            3: f'=IF({g}!${me}{gr}="","",IFERROR(MATCH({g}!${me}{gr},player_id,0),0))',
            4: f'=IF(OR({g}!$B{gr}="",{g}!$C{gr}=""),"",IFERROR(MATCH({g}!${other}{gr},player_id,0),0))',
            5: (f'=IF({g}!$B{gr}="","",IF({g}!$C{gr}="","bye",IF({g}!$D{gr}="","not played",'
                f'IFERROR(INDEX(result_kind,MATCH({g}!$D{gr},result_text,0)),"not a result"))))'),
            6: f'=IF($E{r}="played",{score if first_side else "1-" + score},"")',
            7: f'=IF(AND($E{r}="played",N($C{r})>0,N($D{r})>0{rated_flag}),1,0)',
            8: f'=IF({g}!$A{gr}="",0,{g}!$A{gr})',
            9: f'=IF($C{r}="","",{g}!${me}{gr})',
            10: f'=IF($D{r}="","",{g}!${other}{gr})',
        }
        if fesa:
            out[11] = f'=IF({g}!$E{gr}="","",{g}!$E{gr})'
        return out

    for j in formulas(FIRST):
        for lo, hi in ((FIRST, FIRST + MAX_GAMES - 1), (FIRST + MAX_GAMES, LAST_SIDE)):
            write_column(book, ws, j, lo, hi, lambda r, j=j: formulas(r)[j])
    for name, j in (("side_who", 3), ("side_opp", 4), ("side_kind", 5), ("side_score", 6), ("side_rated", 7),
                    ("side_round", 8)):
        book.name_range(name, ws, j, FIRST, LAST_SIDE)
    if fesa:
        book.name_range("side_handicap", ws, 11, FIRST, LAST_SIDE)
        book.name_range("side_giver", ws, 12, FIRST, LAST_SIDE)
    return ws


def add_side_column(book: Book, ws: Worksheet, column: int, title: str, template: str, name: str | None = None) -> None:
    """Another per-side column: ``template.format(r=row)``."""
    c = ws.cell(1, column, title)
    c.fill = HEADER_FILL
    c.font = HEADER_FONT
    ws.column_dimensions[col(column)].width = max(10, len(title) + 2)
    write_column(book, ws, column, FIRST, LAST_SIDE, lambda r: template.format(r=r))
    if name:
        book.name_range(name, ws, column, FIRST, LAST_SIDE)
