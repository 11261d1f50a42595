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
from collections.abc import Callable, Iterator, Sequence
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


def _said_values(template: str) -> str:
    """A results column's formula with the words the engine writes (a status, yes, no) in the language of the work."""
    return _VALUE.sub(lambda m: '"' + _(m.group(1), context="value") + '"' if m.group(1) in VALUE_WORDS
                      else m.group(0), template)


def _as_is(template: str) -> str:
    return template


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
        self.deferred: dict[str, list[Deferred]] = {}
        """Sheet -> the cells written straight into its XML when it is saved (:func:`save`): the rows below
        a column's first cell, which openpyxl holds alone (a cell object per cell would cost gigabytes at
        the largest rooms)."""
        self._compiled: dict[tuple[str, str, bool | None], Callable[[int], str]] = {}
        self._patterns: dict[tuple[str, str, bool | None], tuple[str, ...] | None] = {}
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

    def compiled(self, template: str, sheet: str, shared: bool | None = None) -> Callable[[int], str]:
        """:meth:`render` of ``template`` as a function of the row, the template parsed once: the same text
        as :meth:`render` gives at every row, at a fraction of its cost (a column written cell by cell)."""
        key = (template, sheet, shared)
        done = self._compiled.get(key)
        if done is not None:
            return done
        spec = self.specs.get(sheet)
        if shared is None:
            shared = spec is None or spec.shared
        fixed = "" if shared else "$"
        plan: list[tuple[str, int, Callable[[int], int] | None]] = []
        """Text, then the row of a reference: r plus an offset, or a link's function of r."""
        text, at = "", 0
        for m in _REF.finditer(template):
            other, name, prev = m.groups()
            target = other or sheet
            letters = self.letters.get(target)
            if letters is None or name not in letters:
                raise KeyError(f"{sheet}: no column {target}:{name} (in {template[:80]}...)")
            text += template[at:m.start()]
            at = m.end()
            if prev in ("@first", "@top") or (prev or "@x")[1:].isdigit():  # a fixed row
                text += self.render(m.group(0), 0, sheet, shared)
                continue
            where = "" if target == sheet else f"{quote_sheetname(target)}!"
            link = spec.links.get(other) if other and spec is not None else None
            plan.append((f"{text}{where}${letters[name]}{fixed}", -1 if prev and link is None else 0, link))
            text = ""
        tail = text + template[at:]

        def fn(r: int) -> str:
            return "".join([f"{text}{r + offset if link is None else link(r)}" for text, offset, link in plan]) + tail

        self._compiled[key] = fn
        self._patterns[key] = (None if any(offset or link is not None for _, offset, link in plan) else
                               (*(text for text, _, _ in plan), tail))
        return fn

    def row_pattern(self, template: str, sheet: str, shared: bool | None = None) -> tuple[str, ...] | None:
        """The rendered formula's text around its row numbers when every reference names the row itself (the
        formula at row r is ``str(r).join(pattern)``), else None."""
        self.compiled(template, sheet, shared)
        return self._patterns[(template, sheet, shared)]


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
class Deferred:
    """The cells of a column below its first one, written into the sheet's XML when it is saved: a shared
    formula's (``si``), each row's own value (``value``: a formula ``=...`` or a number) or, with neither,
    an empty cell in the first cell's style (an input cell)."""

    column: int
    first: int
    """The column's first row (the cell openpyxl writes, whose style the others take)."""
    last: int
    si: int | None = None
    value: Callable[[int], Any] | None = None
    pattern: tuple[str, ...] | None = None
    """``value``'s formula at row r is ``str(r).join(pattern)`` (:meth:`Book.row_pattern`): written without a call."""


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
                 fill: PatternFill | None = FORMULA_FILL, fmt: str | None = None, share: bool = True,
                 alignment: Alignment | None = None, pattern: tuple[str, ...] | None = None) -> None:
    """Write ``fn(row)`` into rows first .. last of a column, as one shared formula when it can be.

    When every row's formula is the first row's moved down (relative references only), the
    column is written as one Excel shared formula: its first cell here, the others straight
    into the sheet's XML when it is saved. The workbook stays small, builds fast, and Excel
    and LibreOffice read it as the same formula in every row. Otherwise each row's value is
    written into the XML too (:class:`Deferred`): no cell object per row.
    """
    master = fn(first)
    shareable = share and isinstance(master, str) and master.startswith("=") and last > first
    if shareable:
        for r in sorted({first + 1, (first + last) // 2, last}):
            if moved_down(master, r - first) != fn(r):
                shareable = False
                break

    Stamp(fill=fill, number_format=fmt or None, alignment=alignment)(ws.cell(first, column, master))
    if last <= first:
        return
    entries = book.deferred.setdefault(ws.title, [])
    if shareable:
        entries.append(Deferred(column, first, last, si=sum(e.si is not None for e in entries)))
    elif isinstance(master, (str, int, float)) and not isinstance(master, bool):
        entries.append(Deferred(column, first, last, value=fn, pattern=pattern))
    else:
        for r in range(first + 1, last + 1):
            ws.cell(r, column, fn(r))._style = copy(ws.cell(first, column)._style)


def style_column(book: Book, ws: Worksheet, column: int, first: int, last: int, **style: Any) -> None:
    """Empty cells of one style in rows first .. last of a column (input cells, unlocked): the first through
    openpyxl, the others into the sheet's XML when it is saved."""
    Stamp(**style)(ws.cell(first, column))
    if last > first:
        book.deferred.setdefault(ws.title, []).append(Deferred(column, first, last))


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
        write_column(book, ws, j, spec.first, spec.last, value, FORMULA_FILL, share=False)
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

    said = _said_values if c.name.startswith("res_") else _as_is
    fn: Callable[[int], str]
    if callable(c.formula):  # a template of its own in each row: rendered row by row
        formula = c.formula

        def each(r: int) -> str:
            return book.render(said(formula(r)), r, spec.name, shared)

        fn = each
    else:
        fn = book.compiled(said(c.formula), spec.name, shared)

    check_formula(fn(spec.first), f"{spec.name}!{c.name}")
    pattern = None if callable(c.formula) else book.row_pattern(c.formula, spec.name, shared)
    for lo, hi in c.blocks or [(spec.first, spec.last)]:
        write_column(book, ws, j, lo, hi, fn, FORMULA_FILL, c.fmt, shared, pattern=pattern)
    book.name_range(spec.prefix + c.name, ws, j, spec.first, spec.last)


def _index(letter: str) -> int:
    from openpyxl.utils import column_index_from_string

    return column_index_from_string(letter)


# --------------------------------------------------------------------------- saving


#: Formulas written out in full (not shared) above which a workbook is compressed fast (:func:`save`).
FAST_COMPRESSION = 1_000_000


def save(book: Book, path: str | os.PathLike[str]) -> Path:
    """Save with fixed timestamps inside the zip, so a rebuild writes the same bytes, through a temporary
    file of its own beside ``path`` (several builds into one folder never share one)."""
    from xl_elo.formats.files import move_into_place, temporary_beside

    buffer = io.BytesIO()
    book.wb.save(buffer)
    buffer.seek(0)
    target = Path(path)
    tmp = temporary_beside(target)
    sheet_files = {f"xl/worksheets/sheet{i}.xml": name for i, name in enumerate(book.wb.sheetnames, start=1)}
    # a workbook of over a million formulas written out in full (not shared) is compressed fast (zlib's level 1:
    # about a third of the default's time, a third bigger), the others as zlib compresses by default
    cells = sum(e.last - e.first for entries in book.deferred.values() for e in entries if e.value is not None)
    level = 1 if cells > FAST_COMPRESSION else None
    try:
        with zipfile.ZipFile(buffer) as src, zipfile.ZipFile(tmp, "w", zipfile.ZIP_DEFLATED) as dst:
            for item in sorted(src.infolist(), key=lambda i: i.filename):
                info = zipfile.ZipInfo(item.filename, date_time=(2026, 1, 1, 0, 0, 0))
                info.compress_type = zipfile.ZIP_DEFLATED
                if level is not None:
                    setattr(info, "compress_level" if hasattr(info, "compress_level") else "_compresslevel", level)
                data = src.read(item.filename)
                title = sheet_files.get(item.filename)
                if title in book.deferred:
                    with dst.open(info, "w") as out:
                        for chunk in _sheet_xml(data, book.deferred[title]):
                            out.write(chunk)
                    continue
                if item.filename == "docProps/core.xml":  # openpyxl stamps the save time
                    data = re.sub(rb"<dcterms:modified([^>]*)>[^<]*<", rb"<dcterms:modified\1>2026-01-01T00:00:00Z<",
                                  data)
                dst.writestr(info, data)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    return move_into_place(tmp, target)


_CELL = re.compile(r'<c r="([A-Z]+)(\d+)"([^>]*?)(?:/>|>.*?</c>)', re.S)
_ROW = re.compile(r'<row r="(\d+)"([^>]*?)(?:/>|>(.*?)</row>)', re.S)
_STYLE = re.compile(r' s="(\d+)"')


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _value_cell(ref: str, style: str, value: Any) -> str:
    """One cell's XML as openpyxl writes it: a formula, a number, text or (None) an empty styled cell."""
    if value is None or value == "":
        return f'<c r="{ref}"{style} t="n" />'
    if isinstance(value, str):
        if value.startswith("="):
            return f'<c r="{ref}"{style}><f>{_escape(value[1:])}</f><v /></c>'
        space = ' xml:space="preserve"' if value != value.strip() else ""
        return f'<c r="{ref}"{style} t="inlineStr"><is><t{space}>{_escape(value)}</t></is></c>'
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError(f"{ref}: cannot write {value!r}")
    return f'<c r="{ref}"{style} t="n"><v>{value}</v></c>'


def _sheet_xml(data: bytes, entries: list[Deferred]) -> Iterator[bytes]:
    """The sheet's XML with its deferred cells, in chunks of rows: each shared formula's first cell marked
    (``<f t="shared" ref=... si=...>``), the cells below each column's first written in its style."""
    text = data.decode("utf-8")
    head, rest = text.split("<sheetData>", 1)
    body, tail = rest.split("</sheetData>", 1)
    own: dict[int, tuple[str, dict[int, str]]] = {}
    for m in _ROW.finditer(body):
        own[int(m.group(1))] = (m.group(2), {column_index(c.group(1)): c.group(0)
                                             for c in _CELL.finditer(m.group(3) or "")})
    # each entry's first cell: the shared formula marked, its style for the cells below; each entry's cell at row
    # r is str(r).join(parts), or make(r, str(r)) when its text cannot be laid out so
    makers: list[tuple[Deferred, list[str] | None, Callable[[int, str], str] | None]] = []
    for e in entries:
        letter = col(e.column)
        row = own.get(e.first)
        master = None if row is None else row[1].get(e.column)
        if row is None or master is None:
            raise ValueError(f"the first cell {letter}{e.first} of a column is not written")
        style = _STYLE.search(master[:master.index(">")])
        s_attr = f' s="{style.group(1)}"' if style else ""
        if e.si is not None:
            if "<f>" not in master:
                raise ValueError(f"shared formula master {letter}{e.first} not found")
            row[1][e.column] = master.replace("<f>", f'<f t="shared" ref="{letter}{e.first}:{letter}{e.last}" '
                                                     f'si="{e.si}">', 1)
            makers.append((e, [f'<c r="{letter}', f'"{s_attr}><f t="shared" si="{e.si}"/></c>'], None))
        elif e.value is None:
            makers.append((e, [f'<c r="{letter}', f'"{s_attr} t="n" />'], None))
        elif e.pattern is not None and e.pattern[0].startswith("="):
            texts = [_escape(t) for t in e.pattern]
            texts[0], texts[-1] = f'"{s_attr}><f>{texts[0][1:]}', f"{texts[-1]}</f><v /></c>"
            if len(e.pattern) == 1:  # no row in it: one text
                texts = [f'"{s_attr}><f>{_escape(e.pattern[0][1:])}</f><v /></c>']
            makers.append((e, [f'<c r="{letter}', *texts], None))
        else:
            def made(r: int, rs: str, letter: str = letter, s_attr: str = s_attr,
                     value: Callable[[int], Any] = e.value) -> str:
                return _value_cell(f"{letter}{rs}", s_attr, value(r))

            makers.append((e, None, made))
    # the rows in segments over which the same entries write, each entry's cells in column order
    bounds = sorted({e.first + 1 for e in entries} | {e.last + 1 for e in entries})
    last_row = max([*own, *(e.last for e in entries)], default=1)
    last_col = max([*(j for _, cells in own.values() for j in cells), *(e.column for e in entries)], default=1)
    head = re.sub(r'<dimension ref="[^"]*" ?/>', f'<dimension ref="A1:{col(last_col)}{last_row}" />', head, count=1)
    yield (head + "<sheetData>").encode("utf-8")

    def own_row(r: int) -> str:
        attrs, cells = own[r]
        return f'<row r="{r}"{attrs}>' + "".join(c for _, c in sorted(cells.items())) + "</row>" if cells else \
            f'<row r="{r}"{attrs}/>'

    chunk: list[str] = []
    edges = [*bounds, last_row + 1]
    for lo, hi in zip([1, *edges], edges, strict=False):
        active = sorted((m for m in makers if m[0].first < lo <= m[0].last), key=lambda m: m[0].column)
        if not active:
            chunk += [own_row(r) for r in range(lo, hi) if r in own]
            continue
        # a row of this segment: runs of laid-out cells (one join each) and the cells made by a call
        runs: list[list[str] | Callable[[int, str], str]] = []
        for _slot, parts, make in active:
            if parts is None:
                if make is not None:
                    runs.append(make)
            elif runs and isinstance(runs[-1], list):
                runs[-1][-1] += parts[0]
                runs[-1].extend(parts[1:])
            else:
                runs.append(list(parts))
        one = runs[0] if len(runs) == 1 and isinstance(runs[0], list) else None
        for r in range(lo, hi):
            rs = str(r)
            if r in own:
                attrs, cells = own[r]
                merged = dict(cells)
                for e, parts, make in active:
                    cell = rs.join(parts) if parts is not None else make(r, rs) if make is not None else ""
                    there = merged.get(e.column)
                    if there is None:
                        merged[e.column] = cell
                    elif cell.endswith(' t="n" />'):  # nothing to write: the cell there stays
                        continue
                    elif not there.endswith("/>"):
                        raise ValueError(f"row {r}: column {col(e.column)} holds a value and a formula")
                    elif e.si is not None:  # a cell styled after the formula was written: its style, the formula
                        merged[e.column] = there[:-2] + cell[cell.index("><f "):]
                    else:
                        merged[e.column] = _restyled(there, cell)
                chunk.append(f'<row r="{r}"{attrs}>' + "".join(c for _, c in sorted(merged.items())) + "</row>")
            elif one is not None:
                chunk.append(f'<row r="{rs}">' + rs.join(one) + "</row>")
            else:
                chunk.append(f'<row r="{rs}">' + "".join([rs.join(run) if isinstance(run, list) else run(r, rs)
                                                          for run in runs]) + "</row>")
            if len(chunk) >= 1000:
                yield "".join(chunk).encode("utf-8")
                chunk = []
    yield ("".join(chunk) + "</sheetData>" + tail).encode("utf-8")


def _restyled(there: str, cell: str) -> str:
    """An empty cell styled after its column was written (``<c r=.. s=.. t="n" />``) given the deferred cell's
    content in its own style."""
    attrs = there[:-2].rstrip()
    if attrs.endswith(' t="n"'):
        attrs = attrs[:-len(' t="n"')]
    return attrs + cell[cell.index(">"):]


def column_index(letters: str) -> int:
    """``A`` -> 1, ``AB`` -> 28."""
    n = 0
    for ch in letters:
        n = n * 26 + ord(ch) - 64
    return n


__all__ = ["FIRST", "RESULTS_FIRST", "Book", "Capacity", "Col", "Input", "ResultCol", "Setting", "Sheet", "Template",
           "col", "math", "save"]
