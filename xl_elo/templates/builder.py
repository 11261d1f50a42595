"""The one builder of every template workbook, from a federation's declarative template spec.

A spec (``xl_elo/templates/<code>.py``, function ``spec(capacity)``) lists its sheets as columns:
each :class:`Col` has a name, its English and French titles, the rules section it implements
and a formula written over other columns by name (:func:`render`): ``[rated]`` is this
sheet's column ``rated`` in the same row, ``[players:rating]`` the players sheet's column in
the row this sheet links to, ``[pr@prev]`` the row above. Every column is also a workbook
name (``w_rated`` for the work sheet's ``rated``), so formulas on other rows read it with
``INDEX(w_rated, position)``.

The builder adds what every template has: the instructions sheet (settings, the input
problems, English and French text generated from the rules' constants), the input sheets
with a problem column whose formulas check every cell as xl-elo's reader does (rules 8; the
reason in words, the cell shown red), the results sheet (a banner that says whether the
results are valid, the players sorted by new rating, print set-up), the lists of accepted
results and published tables, names, protection and print areas. It writes the same bytes
every time (fixed timestamps), so the committed templates are checked against a fresh build.
"""

from __future__ import annotations

import datetime as dt
import io
import math
import os
import re
import zipfile
from collections.abc import Callable, Sequence
from copy import copy
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from openpyxl import Workbook
from openpyxl.styles import Alignment, Font, PatternFill, Protection, Side
from openpyxl.utils import get_column_letter, quote_sheetname
from openpyxl.workbook.defined_name import DefinedName
from openpyxl.worksheet.worksheet import Worksheet

from xl_elo.templates.spec import FIRST, RESULTS_FIRST, Capacity, Col, Input, ResultCol, Setting, Sheet, Template
from xl_elo.words import _, language

#: A fixed date so that a rebuild writes the same workbook.
BUILD_DATE = dt.datetime(2026, 1, 1)

HEADER_FILL = PatternFill("solid", fgColor="1F4E78")
HEADER_FONT = Font(bold=True, color="FFFFFF")
FORMULA_FILL = PatternFill("solid", fgColor="E7E6E6")
RESULT_FILL = PatternFill("solid", fgColor="DDEBF7")
SETTING_FILL = PatternFill("solid", fgColor="FFF2CC")
BAD_FILL = PatternFill("solid", bgColor="FF7C80")
OK_FILL = PatternFill("solid", bgColor="C6EFCE")
BAND_FILL = PatternFill("solid", bgColor="F2F2F2")
DIFF_FILL = PatternFill("solid", fgColor="F8CBAD")
UNLOCKED = Protection(locked=False)
THIN = Side(style="thin", color="BFBFBF")


#: The words the engines write in a results column (a status, yes or no): a template says them in its language.
VALUE_WORDS = frozenset({"established", "provisional", "unrated", "permanent", "new", "normal", "performance", "yes",
                         "no"})
_VALUE = re.compile(r'"([a-z]+)"')


def col(n: int) -> str:
    """Column letter of the n-th column (1 = A)."""
    return get_column_letter(n)


# --------------------------------------------------------------------------- rendering


_REF = re.compile(r"\[(?:([a-z_][a-z0-9_]*):)?([a-z0-9_]+)(@prev|@first|@top|@\d+)?\]")


class Book:
    """A workbook being built: its sheets, their columns' letters, the names, shared formulas."""

    def __init__(self, federation: str) -> None:
        self.wb = Workbook()
        self.wb.properties.creator = "xl-elo"
        self.wb.properties.created = BUILD_DATE
        self.wb.properties.modified = BUILD_DATE
        self.wb.properties.lastModifiedBy = "xl-elo"
        # no cached values are stored: have Excel and LibreOffice calculate everything on opening
        self.wb.calculation.fullCalcOnLoad = True
        self.federation = federation
        self.shared: dict[str, list[Shared]] = {}
        self.letters: dict[str, dict[str, str]] = {}
        """Sheet -> column name -> letter."""
        self.specs: dict[str, Sheet] = {}
        self._first = True
        self.lists_next = 1
        """The lists sheet's first free column."""
        self.computed: list[tuple[str, str]] = []
        """Names whose formula is computed once, in a cell of the lists sheet (:meth:`define_computed`)."""
        self.define("XL_ELO_FEDERATION", f'"{federation}"')
        self.define("XL_ELO_LANGUAGE", f'"{language()}"')

    def sheet(self, title: str) -> Worksheet:
        if self._first:
            ws = self.wb.active
            ws.title = title
            self._first = False
        else:
            ws = self.wb.create_sheet(title)
        self.letters.setdefault(title, {})
        return ws

    def define(self, name: str, ref: str) -> None:
        """A workbook-wide name (``w_rated`` -> ``work!$C$2:$C$301``)."""
        self.wb.defined_names[name] = DefinedName(name, attr_text=ref)

    def define_computed(self, name: str, formula: str) -> None:
        """A name for a value computed once, in a cell (``problem_count``, ``inputs_ok``).

        A name defined as a formula is computed again in every cell that uses it (300 results
        rows reading ``inputs_ok`` would count the problems 300 times); a name of a cell is read.
        """
        self.computed.append((name, formula))

    def name_range(self, name: str, ws: Worksheet, column: int, first: int, last: int) -> None:
        c = col(column)
        self.define(name, f"{quote_sheetname(ws.title)}!${c}${first}:${c}${last}")

    def name_cell(self, name: str, ws: Worksheet, coordinate: str) -> None:
        letters = "".join(ch for ch in coordinate if ch.isalpha())
        self.define(name, f"{quote_sheetname(ws.title)}!${letters}${coordinate[len(letters):]}")

    def render(self, template: str, r: int, sheet: str, shared: bool | None = None) -> str:
        """A formula template at row r of ``sheet``: ``[name]``, ``[other:name]``, ``[name@prev]`` (the row
        above), ``[name@first]`` (the sheet's first data row, fixed), ``[name@top]`` (its header row,
        fixed: ``[v@top]:[v@prev]`` is every row above this one) -> cells. ``shared``: whether the column is
        written as one formula repeated down (default: as its sheet, :attr:`Sheet.shared`)."""
        spec = self.specs.get(sheet)
        if shared is None:
            shared = spec is None or spec.shared

        def ref(m: re.Match[str]) -> str:
            other, name, prev = m.groups()
            target = other or sheet
            letters = self.letters.get(target)
            if letters is None or name not in letters:
                raise KeyError(f"{sheet}: no column {target}:{name} (in {template[:80]}...)")
            if prev in ("@first", "@top") or (prev or "@x")[1:].isdigit():
                first = (self.specs[target].first if target in self.specs else FIRST) if prev == "@first" else \
                    1 if prev == "@top" else int(prev[1:])
                cell = f"${letters[name]}${first}"
                return cell if target == sheet else f"{quote_sheetname(target)}!{cell}"
            row = r - 1 if prev else r
            if other and spec is not None and other in spec.links:
                row = spec.links[other](r)
            # a sheet written cell by cell names its rows absolutely: no two rows' formulas alike, so no
            # spreadsheet regroups them (see Sheet.shared)
            fixed = "" if shared else "$"
            cell = f"${letters[name]}{fixed}{row}"
            return cell if target == sheet else f"{quote_sheetname(target)}!{cell}"

        return _REF.sub(ref, template)


def check_formula(formula: str, where: str) -> None:
    """Balanced parentheses outside string literals: a typo fails the build, not the user."""
    depth = 0
    quoted = False
    for ch in formula:
        if ch == '"':
            quoted = not quoted
        elif not quoted and ch == "(":
            depth += 1
        elif not quoted and ch == ")":
            depth -= 1
            if depth < 0:
                raise ValueError(f"unbalanced parentheses in {where}: {formula}")
    if depth or quoted:
        raise ValueError(f"unbalanced parentheses or quotes in {where}: {formula}")


@dataclass(frozen=True)
class Shared:
    """A column's shared formula: its first cell holds the formula, the rows below repeat it."""

    column: int
    first: int
    last: int
    si: int


_A1 = re.compile(r"(?<![A-Za-z0-9_.$])(\$?[A-Z]{1,3})(\$?)(\d+)(?![\d(A-Za-z_])")


def moved_down(formula: str, rows: int) -> str:
    """A formula copied ``rows`` rows down: relative row references move, ``$`` ones and text stay."""
    parts = formula.split('"')
    for i in range(0, len(parts), 2):  # outside string literals
        parts[i] = _A1.sub(lambda m: m.group(0) if m.group(2) else f"{m.group(1)}{int(m.group(3)) + rows}", parts[i])
    return '"'.join(parts)


class Stamp:
    """One style for many cells at the cost of one: the first cell is styled through openpyxl (which looks the
    style up in the workbook's tables), each later one gets a copy of its style ids."""

    def __init__(self, **attributes: Any) -> None:
        self.attributes = {k: v for k, v in attributes.items() if v is not None}
        self.proto: Any = None

    def __call__(self, cell: Any) -> Any:
        """Style ``cell`` (a fresh one: its own style, if any, is replaced)."""
        if self.proto is None:
            for key, value in self.attributes.items():
                setattr(cell, key, value)
            self.proto = cell
        else:
            cell._style = copy(self.proto._style)
        return cell


def write_column(book: Book, ws: Worksheet, column: int, first: int, last: int, fn: Callable[[int], Any],
                 fill: PatternFill | None = FORMULA_FILL, fmt: str | None = None, share: bool = True) -> None:
    """Write ``fn(row)`` into rows first .. last of a column, as one shared formula when it can be.

    When every row's formula is the first row's moved down (relative references only), the
    column is written as one Excel shared formula: its first cell here, the others straight
    into the sheet's XML when it is saved. The workbook stays small, builds fast, and Excel
    and LibreOffice read it as the same formula in every row.
    """
    master = fn(first)
    shareable = share and isinstance(master, str) and master.startswith("=") and last > first
    if shareable:
        for r in sorted({first + 1, (first + last) // 2, last}):
            if moved_down(master, r - first) != fn(r):
                shareable = False
                break

    style = Stamp(fill=fill, number_format=fmt or None)
    if not shareable:
        for r in range(first, last + 1):
            style(ws.cell(r, column, fn(r)))
        return
    entries = book.shared.setdefault(ws.title, [])
    entries.append(Shared(column, first, last, len(entries)))
    style(ws.cell(first, column, master))


def header_cells(ws: Worksheet, row: int, titles: Sequence[str], widths: Sequence[float | None],
                 start: int = 1, height: float | None = None) -> None:
    for j, (title, width) in enumerate(zip(titles, widths, strict=True), start=start):
        c = ws.cell(row, j, title)
        c.fill = HEADER_FILL
        c.font = HEADER_FONT
        c.alignment = Alignment(horizontal="center", vertical="center", wrap_text=True)
        if width:
            ws.column_dimensions[col(j)].width = width
    if height:
        ws.row_dimensions[row].height = height


def protect(ws: Worksheet) -> None:
    """Lock a sheet's formulas (no password: the point is to prevent accidents)."""
    ws.protection.sheet = True
    ws.protection.formatCells = False
    ws.protection.formatColumns = False
    ws.protection.formatRows = False
    ws.protection.sort = False
    ws.protection.autoFilter = False


def print_nothing(book: Book, ws: Worksheet, column: int) -> None:
    """A working sheet prints nothing by default: its print area is one cell that stays empty."""
    ws.print_area = f"{col(column)}1:{col(column)}1"


# --------------------------------------------------------------------------- sheets


def register(book: Book, spec: Sheet) -> None:
    """Give a computed sheet its place and its columns their letters (before any formula is written,
    so a sheet may read a column of a sheet written after it)."""
    book.sheet(spec.name)
    book.specs[spec.name] = spec
    letters = book.letters[spec.name]
    j = 1
    for title, _value in spec.leading:
        letters[title] = col(j)
        j += 1
    for c in spec.columns:
        if c.name in letters:
            raise ValueError(f"{spec.name}: column {c.name} twice")
        letters[c.name] = col(j)
        j += 1
    for name, (first, last) in spec.areas.items():
        book.define(spec.prefix + name, f"{quote_sheetname(spec.name)}!${letters[first]}${spec.first}:"
                                        f"${letters[last]}${spec.last}")


def _computed_sheet(book: Book, spec: Sheet) -> Worksheet:
    """Write a registered computed sheet (work, sides, iteration ...): leading columns, then each Col."""
    ws = book.wb[spec.name]
    for j, (title, value) in enumerate(spec.leading, start=1):
        header_cells(ws, 1, [_(title)], [8], start=j)
        style = Stamp(fill=FORMULA_FILL)
        for r in range(spec.first, spec.last + 1):
            style(ws.cell(r, j, value(r)))
    for c in spec.columns:
        _write_col(book, ws, spec, c)
    ws.freeze_panes = "B2"
    ws.row_dimensions[1].height = 48
    print_nothing(book, ws, len(spec.leading) + len(spec.columns) + 2)
    return ws


def _write_col(book: Book, ws: Worksheet, spec: Sheet, c: Col) -> None:
    j = _index(book.letters[spec.name][c.name])
    title = _(c.title)
    titles = [title] + ([_("rules {section}", section=c.rule)] if c.rule else [])
    header_cells(ws, 1, ["\n".join(titles)], [c.width or max(9.0, min(22.0, len(title) + 2.0))], start=j)

    shared = spec.shared if c.shared is None else c.shared

    def fn(r: int) -> str:
        template = c.formula(r) if callable(c.formula) else c.formula
        if c.name.startswith("res_"):  # a results value the engine writes as a word: the word in the language
            template = _VALUE.sub(lambda m: '"' + _(m.group(1), context="value") + '"' if m.group(1) in VALUE_WORDS
                                  else m.group(0), template)
        return book.render(template, r, spec.name, shared)

    check_formula(fn(spec.first), f"{spec.name}!{c.name}")
    for lo, hi in c.blocks or [(spec.first, spec.last)]:
        write_column(book, ws, j, lo, hi, fn, FORMULA_FILL, c.fmt, shared)
    book.name_range(spec.prefix + c.name, ws, j, spec.first, spec.last)


def _index(letter: str) -> int:
    from openpyxl.utils import column_index_from_string

    return column_index_from_string(letter)


# --------------------------------------------------------------------------- saving


def save(book: Book, path: str | os.PathLike[str]) -> Path:
    """Save with fixed timestamps inside the zip, so a rebuild writes the same bytes."""
    buffer = io.BytesIO()
    book.wb.save(buffer)
    buffer.seek(0)
    target = Path(path)
    tmp = target.with_name(f".{target.name}.tmp")
    sheet_files = {f"xl/worksheets/sheet{i}.xml": name for i, name in enumerate(book.wb.sheetnames, start=1)}
    with zipfile.ZipFile(buffer) as src, zipfile.ZipFile(tmp, "w", zipfile.ZIP_DEFLATED) as dst:
        for item in sorted(src.infolist(), key=lambda i: i.filename):
            info = zipfile.ZipInfo(item.filename, date_time=(2026, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            data = src.read(item.filename)
            title = sheet_files.get(item.filename)
            if title in book.shared:
                data = _share(data, book.shared[title])
            if item.filename == "docProps/core.xml":  # openpyxl stamps the save time
                data = re.sub(rb"<dcterms:modified([^>]*)>[^<]*<", rb"<dcterms:modified\1>2026-01-01T00:00:00Z<", data)
            dst.writestr(info, data)
    os.replace(tmp, target)
    return target


_CELL = re.compile(r'<c r="([A-Z]+)(\d+)"([^>]*?)(?:/>|>.*?</c>)', re.S)
_ROW = re.compile(r'<row r="(\d+)"([^>]*?)(?:/>|>(.*?)</row>)', re.S)


def _share(data: bytes, entries: list[Shared]) -> bytes:
    """Mark each shared formula's first cell, and write the cells below it (``<f t="shared" si=.../>``)."""
    text = data.decode("utf-8")
    extra: dict[int, list[tuple[int, str]]] = {}
    for e in entries:
        letter = col(e.column)
        master = f"{letter}{e.first}"
        found = re.search(r'<c r="' + master + r'"([^>]*)><f>', text)
        if found is None:
            raise ValueError(f"shared formula master {master} not found")
        style = re.search(r' s="(\d+)"', found.group(1))
        s_attr = f' s="{style.group(1)}"' if style else ""
        text = text[:found.end() - 3] + f'<f t="shared" ref="{master}:{letter}{e.last}" si="{e.si}">' + \
            text[found.end():]
        for r in range(e.first + 1, e.last + 1):
            extra.setdefault(r, []).append((e.column, f'<c r="{letter}{r}"{s_attr}><f t="shared" si="{e.si}"/></c>'))
    head, rest = text.split("<sheetData>", 1)
    body, tail = rest.split("</sheetData>", 1)
    rows: dict[int, tuple[str, list[tuple[int, str]]]] = {}
    for m in _ROW.finditer(body):
        cells = [(column_index(c.group(1)), c.group(0)) for c in _CELL.finditer(m.group(3) or "")]
        rows[int(m.group(1))] = (m.group(2), cells)
    for r, cells in extra.items():
        attrs, own = rows.get(r, ("", []))
        taken = dict(own)
        for j, cell in cells:
            there = taken.get(j)
            if there is None:
                taken[j] = cell
            elif there.endswith("/>"):  # a cell styled after the formula was written: its style, the formula
                taken[j] = there[:-2] + cell[cell.index("><f ") :]
            else:
                raise ValueError(f"row {r}: column {col(j)} holds a value and a shared formula")
        rows[r] = (attrs, sorted(taken.items()))
    out = "".join(f'<row r="{r}"{attrs}>' + "".join(c for _, c in cells) + "</row>" if cells else
                  f'<row r="{r}"{attrs}/>' for r, (attrs, cells) in sorted(rows.items()))
    last_row = max(rows, default=1)
    last_col = max((j for _, cells in rows.values() for j, _ in cells), default=1)
    head = re.sub(r'<dimension ref="[^"]*"/>', f'<dimension ref="A1:{col(last_col)}{last_row}"/>', head, count=1)
    return (head + "<sheetData>" + out + "</sheetData>" + tail).encode("utf-8")


def column_index(letters: str) -> int:
    """``A`` -> 1, ``AB`` -> 28."""
    n = 0
    for ch in letters:
        n = n * 26 + ord(ch) - 64
    return n


__all__ = ["FIRST", "RESULTS_FIRST", "Book", "Capacity", "Col", "Input", "ResultCol", "Setting", "Sheet", "Template",
           "col", "math", "save"]
