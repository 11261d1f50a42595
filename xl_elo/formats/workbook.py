"""Filled template workbooks: write an event into a template, read one back, compare.

A template records its federation in the defined name ``XL_ELO_FEDERATION``. Reading takes
the input sheets (``players``, ``games``, ``history``) through the same cell parsers as the
CSV files (:mod:`xl_elo.schema`; every problem named by sheet, row, column and value; a
number typed as text is refused, as the workbook's own formulas refuse it), and the values
the workbook's own formulas computed on its ``results`` sheet, to compare with the engine.

A workbook is checked before it is parsed: a zip bomb, a sheet of millions of cells or a
huge shared-strings part is refused in seconds (:mod:`xl_elo.limits`).
"""

from __future__ import annotations

import math
import os
import re
import struct
import zipfile
import zlib
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any

from xl_elo import limits, schema, words
from xl_elo.formats import files
from xl_elo.formats.reader import (
    GAME_COLUMNS,
    HISTORY_COLUMNS,
    Headings,
    Sources,
    Table,
    Tables,
    columns_read,
    read,
    system_headings,
)
from xl_elo.model import Event, Game, InputError, Problem, Results, facts

if TYPE_CHECKING:
    from xl_elo.federations.contract import RatingSystem

#: Results compared to this relative tolerance where the column is not exact (rules 8).
TOLERANCE = 1e-6


class WorkbookError(InputError):
    """A workbook that is not an xl-elo template or cannot be read."""


#: Limits on what a workbook may hold before anything is read (a zip bomb fails here, fast).
MAX_MEMBERS = 2000
MAX_RATIO = 1000
MAX_ROWS = 200_000
MAX_COLUMNS = 60
INPUT_SHEETS = ("players", "games", "history")
#: The heading of the column where a template's formulas flag a row's problem (never read).
PROBLEM_HEADING = "problem / problème"
#: The headings of the hidden helper columns a template keeps after its problem column, for an input column
#: (what its cell holds, what a number typed as text is): never read.
HELPER_HEADINGS = ("{}: problem", "{}: as text")


def helper_headings(names: Iterable[str]) -> list[str]:
    """Every helper heading a template may hold for the input columns ``names``."""
    return [h.format(n) for n in names for h in HELPER_HEADINGS]


#: The first bytes of an old Excel (.xls) file, or of a workbook saved with a password (both OLE2 files).
_OLE_MAGIC = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
#: A cell holds at most 32,767 characters in Excel and LibreOffice: written out in XML, at most six bytes
#: each (``&quot;``); a longer run of text between two tags is no cell's.
MAX_TEXT_BYTES = 6 * 32_767 + 1024
#: A sheet xl-elo does not read (a template's working sheets) may hold this many times the cell limit.
WORKING_SHEET_FACTOR = 4
#: At most this many XML elements per cell of the limit (a cell, its value, its formula, its inline text).
ELEMENTS_PER_CELL = 4
_CHUNK = 1 << 20
_CELL_TAG = re.compile(rb"<(?:[A-Za-z_][\w.-]{0,31}:)?c[\s/>]")
_ROW_TAG = re.compile(rb"<(?:[A-Za-z_][\w.-]{0,31}:)?row[\s/>]")
_CARRY = 40
#: The same for an OpenDocument spreadsheet's content.xml (the .ods files LibreOffice opens).
_ODS_CELL_TAG = re.compile(rb"<table:(?:covered-)?table-cell[\s/>]")
_ODS_ROW_TAG = re.compile(rb"<table:table-row[\s/>]")


def _damaged(name: str, why: str) -> WorkbookError:
    return WorkbookError([Problem(name, None, None, f"is a damaged workbook ({why}): open it in a spreadsheet and "
                                                    "save it again")])


def check_archive(path: Path, name: str, kind: str = ".xlsx workbook", *, verify: bool = True) -> None:
    """Refuse, before any spreadsheet code parses it, a file that is not a zip package, is damaged
    (every XML part's checksum is verified), encrypted, or would unpack too big (a zip bomb).

    Used for .xlsx workbooks (:func:`check_package`, which reads the parts itself: ``verify=False``)
    and for the .ods files LibreOffice opens.
    """
    files.input_path(path, name)
    try:
        with open(path, "rb") as f:
            head = f.read(8)
    except OSError as exc:
        raise WorkbookError([Problem(name, None, None, f"cannot be read ({exc.strerror})")]) from None
    if head.startswith(_OLE_MAGIC):
        raise WorkbookError([Problem(name, None, None, "is an old Excel (.xls) workbook or one saved with a "
                                                       "password: save it as 'Excel Workbook (.xlsx)' without a "
                                                       "password")])
    if not zipfile.is_zipfile(path):
        if head.startswith(b"PK"):
            raise _damaged(name, "its zip package is cut short or broken")
        raise WorkbookError([Problem(name, None, None, f"is not an {kind} (save it as 'Excel Workbook "
                                                       "(.xlsx)' or, in LibreOffice, as .ods or .xlsx)")])
    try:
        with zipfile.ZipFile(path) as z:
            infos = z.infolist()
            if len(infos) > MAX_MEMBERS:
                raise WorkbookError([Problem(name, None, None, f"holds {len(infos):,} parts (at most {MAX_MEMBERS:,} "
                                                               "expected)")])
            total = sum(i.file_size for i in infos)
            if total > limits.XLSX_UNPACKED.value:
                raise WorkbookError([Problem(name, None, None,
                                             limits.XLSX_UNPACKED.message(f"would unpack to {total:,} bytes"))])
            for i in infos:
                if i.flag_bits & 0x1:
                    raise WorkbookError([Problem(name, None, None, "is encrypted (saved with a password): save it "
                                                                   "without a password")])
                if i.compress_size and i.file_size > 10 * 2**20 and i.file_size / i.compress_size > MAX_RATIO:
                    raise WorkbookError([Problem(name, None, None, f"part {i.filename} is compressed "
                                                                   f"{i.file_size // i.compress_size:,} times (a zip "
                                                                   "bomb?): refused")])
            for i in infos if verify else ():  # every XML part read once: its checksum verified
                if i.filename.lower().endswith((".xml", ".rels")) and not i.is_dir():
                    _read_through(z, i)
    except WorkbookError:
        raise
    except (zipfile.BadZipFile, zlib.error, EOFError, struct.error, ValueError) as exc:
        raise _damaged(name, str(exc) or exc.__class__.__name__) from None
    except NotImplementedError as exc:
        raise WorkbookError([Problem(name, None, None, f"cannot be read: {exc} (save it again in a spreadsheet)")]
                            ) from None
    except (RuntimeError, OSError) as exc:  # an encrypted part, a read error
        raise WorkbookError([Problem(name, None, None, f"cannot be read ({exc})")]) from None


def _read_through(z: zipfile.ZipFile, info: zipfile.ZipInfo) -> None:
    """Read a part to its end: a damaged one raises BadZipFile (its checksum) here, not in a parser."""
    with z.open(info) as f:
        while f.read(_CHUNK):
            pass


def check_package(path: Path, shown: str | None = None) -> None:
    """Refuse, before parsing anything, a file that is not an xlsx package, is damaged, or would be
    too big once read: unpacked size, cells and rows actually in each sheet (never only the size a
    sheet declares), the longest text, shared strings and every other part (:mod:`xl_elo.limits`)."""
    name = shown or path.name
    try:  # a workbook is loaded twice (its inputs, then its computed values): checked once
        st = os.stat(path)
        key: tuple[Any, ...] | None = (os.path.realpath(path), st.st_ino, st.st_size, st.st_mtime_ns)
    except OSError:
        key = None
    if key is not None and key in _CHECKED:
        return
    check_archive(path, name, verify=False)
    _check_parts(path, name)
    if key is not None:
        _CHECKED[key] = None
        while len(_CHECKED) > 8:
            _CHECKED.pop(next(iter(_CHECKED)))


#: Workbooks already found sound, by real path, inode, size and modification time.
_CHECKED: dict[tuple[Any, ...], None] = {}


def _check_parts(path: Path, name: str) -> None:
    try:
        with zipfile.ZipFile(path) as z:
            names = set(z.namelist())
            if "xl/workbook.xml" not in names:
                if "content.xml" in names:
                    raise WorkbookError([Problem(name, None, None, "is an OpenDocument (.ods) spreadsheet named "
                                                                   f"{path.suffix}: rename it .ods")])
                raise WorkbookError([Problem(name, None, None, "is not a readable .xlsx workbook (a part is "
                                                               "missing: xl/workbook.xml)")])
            sheets = _sheet_paths(z)
            worksheets = {m for m in sheets.values() if m in names}
            worksheets |= {n for n in names if n.startswith("xl/worksheets/") and n.endswith(".xml")}
            where = {m: f"{name}, sheet {s}" for s, m in sheets.items()}
            read_sheets = {m: s in (*INPUT_SHEETS, "results", "instructions") for s, m in sheets.items()}
            for i in z.infolist():
                lower = i.filename.lower()
                if i.filename in worksheets:
                    _check_dimension(z, i.filename, where.get(i.filename, f"{name}, part {i.filename}"))
                    # a sheet xl-elo reads gets the limit; a template's working sheets (never parsed here,
                    # only by LibreOffice on --recalculate) get room for the formulas they hold
                    read = read_sheets.get(i.filename, False)
                    _scan_sheet(z, i, where.get(i.filename, f"{name}, part {i.filename}"),
                                cells_factor=1 if read else WORKING_SHEET_FACTOR)
                elif lower.endswith("sharedstrings.xml"):
                    if i.file_size > limits.SHARED_STRINGS.value:
                        raise WorkbookError([Problem(name, None, None, limits.SHARED_STRINGS.message(
                            f"its shared strings are {i.file_size:,} bytes"))])
                    _scan_sheet(z, i, f"{name}, shared strings")
                elif lower.endswith((".xml", ".rels")):
                    if i.file_size > limits.XLSX_PART.value:
                        raise WorkbookError([Problem(name, None, None, limits.XLSX_PART.message(
                            f"part {i.filename} is {i.file_size:,} bytes"))])
                    _read_through(z, i)
    except WorkbookError:
        raise
    except (zipfile.BadZipFile, zlib.error, EOFError, struct.error) as exc:
        raise _damaged(name, str(exc) or exc.__class__.__name__) from None
    except (KeyError, UnicodeDecodeError):
        raise WorkbookError([Problem(name, None, None,
                                     "is not a readable .xlsx workbook (a part is missing)")]) from None
    except (RuntimeError, OSError, NotImplementedError) as exc:  # an encrypted part, a read error
        raise WorkbookError([Problem(name, None, None, f"cannot be read ({exc})")]) from None


def _scan_sheet(z: zipfile.ZipFile, info: zipfile.ZipInfo, where: str, *, cell_tag: re.Pattern[bytes] = _CELL_TAG,
                row_tag: re.Pattern[bytes] = _ROW_TAG, cells_factor: int = 1) -> None:
    """Count what a sheet (or the shared strings) really holds, in one pass over its XML: cells, rows,
    elements, and the longest run of text; refused beyond the limits before any parser builds them."""
    import numpy as np

    cells = rows = elements = 0
    longest = 0
    last_tag = 0  # position of the last '<' seen
    offset = 0  # position of data[0] in the part
    carry = b""
    max_cells = limits.XLSX_CELLS.value * cells_factor
    max_rows = limits.XLSX_ROWS.value * cells_factor
    with z.open(info) as f:
        while True:
            chunk = f.read(_CHUNK)
            data = carry + chunk
            cut = len(data) if not chunk else max(len(data) - _CARRY, 0)
            region = data[:cut]
            cells += len(cell_tag.findall(data)) - len(cell_tag.findall(data, cut))
            rows += len(row_tag.findall(data)) - len(row_tag.findall(data, cut))
            elements += region.count(b"<") - region.count(b"</")
            tags = np.flatnonzero(np.frombuffer(region, np.uint8) == 0x3C)
            if len(tags):
                gaps = np.diff(tags)
                longest = max(longest, offset + int(tags[0]) - last_tag, int(gaps.max()) if len(gaps) else 0)
                last_tag = offset + int(tags[-1])
            if cells > max_cells or elements > ELEMENTS_PER_CELL * max_cells + 10_000:
                found = f"{cells:,} cells" if cells > max_cells else f"{elements:,} XML elements"
                advice = ("delete the rows and columns below and beside the data" if cells_factor == 1 else
                          f"a template's working sheet, or all the sheets of an .ods file together, may hold "
                          f"{cells_factor} times the limit below")
                raise WorkbookError([Problem(where, None, None, limits.XLSX_CELLS.message(
                    f"holds more than {found}, formatted blank cells counted: {advice}"))])
            if rows > max_rows:
                raise WorkbookError([Problem(where, None, None, limits.XLSX_ROWS.message(
                    f"holds more than {rows:,} rows; delete the formatted rows below the data"))])
            if longest > MAX_TEXT_BYTES:
                raise WorkbookError([Problem(where, None, None, f"holds a text of at least {longest:,} bytes, "
                                                                "longer than any spreadsheet cell holds (32,767 "
                                                                "characters at most): refused")])
            if not chunk:
                return
            offset += cut
            carry = data[cut:]


def check_ods(path: Path, name: str) -> None:
    """An OpenDocument spreadsheet checked before LibreOffice opens it: the package (:func:`check_archive`),
    then the cells, rows and longest text of its content, counted as for a workbook's sheets."""
    check_archive(path, name, "OpenDocument or .xlsx workbook")
    try:
        with zipfile.ZipFile(path) as z:
            if "content.xml" not in z.namelist():
                raise WorkbookError([Problem(name, None, None, "is not an OpenDocument spreadsheet (no content.xml): "
                                                               "save it again as .ods or .xlsx")])
            _scan_sheet(z, z.getinfo("content.xml"), name, cell_tag=_ODS_CELL_TAG, row_tag=_ODS_ROW_TAG,
                        cells_factor=WORKING_SHEET_FACTOR)  # every sheet in one part, a template's working ones too
    except WorkbookError:
        raise
    except (zipfile.BadZipFile, zlib.error, EOFError, struct.error, OSError, RuntimeError) as exc:
        raise _damaged(name, str(exc) or exc.__class__.__name__) from None


def _check_dimension(z: zipfile.ZipFile, member: str, where: str) -> None:
    """A sheet's declared size (its ``dimension``), read from the first bytes of its XML."""
    try:
        with z.open(member) as f:
            head = f.read(4096).decode("utf-8", "replace")
    except KeyError:
        return
    m = re.search(r'<(?:\w+:)?dimension ref="[A-Z]{1,3}\d{1,7}:([A-Z]{1,3})(\d{1,7})"', head)
    if not m:
        return
    from openpyxl.utils import column_index_from_string

    try:
        cells = column_index_from_string(m.group(1)) * int(m.group(2))
    except ValueError:
        return
    if cells > limits.XLSX_CELLS.value:
        raise WorkbookError([Problem(where, None, None, limits.XLSX_CELLS.message(
            f"declares {cells:,} cells (up to {m.group(1)}{m.group(2)}); delete the formatted rows below the data"))])


def _load(path: Path, shown: str | None = None, **kwargs: Any) -> Any:
    import warnings

    import openpyxl

    check_package(path, shown)
    try:
        with warnings.catch_warnings():  # a template's print area follows its rows: openpyxl cannot show it
            warnings.simplefilter("ignore", UserWarning)
            return openpyxl.load_workbook(path, keep_links=False, **kwargs)
    except FileNotFoundError:
        raise WorkbookError([Problem(shown or path.name, None, None, "the file does not exist")]) from None
    except Exception as exc:  # zip, xml or openpyxl errors: not a readable workbook
        raise WorkbookError([Problem(shown or path.name, None, None,
                                     f"is not a readable .xlsx workbook ({exc.__class__.__name__})")]) from None


def federation_of(wb: Any, name: str, find: Callable[[str], RatingSystem]) -> str:
    """The federation a template records, or a WorkbookError (``find``: the system of a code, the registry's)."""
    dn = wb.defined_names.get("XL_ELO_FEDERATION")
    if dn is None:
        raise WorkbookError([Problem(name, None, None,
                                     "is not an xl-elo template (no XL_ELO_FEDERATION name); use one from "
                                     "'xl-elo workbooks' or give --federation with CSV files")])
    text = str(dn.attr_text).strip('"').strip()
    try:
        return str(find(text).CODE)
    except ValueError:
        raise WorkbookError([Problem(name, None, None,
                                     f"records the federation {schema.shown(text)}, which xl-elo does not know: "
                                     "use a template from 'xl-elo workbooks'")]) from None


def _rows(ws: Any, source: str = "") -> tuple[list[Any], list[list[Any]]]:
    """Header and rows of a sheet, at most MAX_COLUMNS columns read.

    Every row the sheet's XML holds is read, whatever size the sheet declares (a program may write
    a stale ``dimension``: reading only that many rows would drop games without a word). A sheet
    the spreadsheet library cannot read (a cell that is not what its type says) is named.
    """
    where = source or ws.title
    rows = []
    if hasattr(ws, "reset_dimensions"):  # a read-only sheet: never trust the declared size
        ws.reset_dimensions()
    try:
        for n, r in enumerate(ws.iter_rows(max_col=MAX_COLUMNS), start=1):
            if n > limits.XLSX_ROWS.value:
                raise WorkbookError([Problem(where, None, None, limits.XLSX_ROWS.message(
                    f"has more than {n - 1:,} rows; delete the formatted rows below the data"))])
            rows.append([Formula(c.value) if getattr(c, "data_type", None) == "f" else getattr(c, "value", None)
                         for c in r])
    except WorkbookError:
        raise
    except Exception as exc:
        row = len(rows) + 1
        raise WorkbookError([Problem(where, row, None, f"cannot be read ({_why(exc)}): open the workbook in a "
                                                       "spreadsheet, check this row and save it again")]) from None
    if not rows:
        return [], []
    while rows and all(v is None or (isinstance(v, str) and not v.strip()) for v in rows[-1]):
        rows.pop()
    if not rows:
        return [], []
    return rows[0], rows[1:]


def _why(exc: BaseException) -> str:
    """An exception as a few words for a message (its class, and its text cut short)."""
    text = str(exc).strip()
    return exc.__class__.__name__ + (f": {schema.shown(text, 80)[1:-1]}" if text else "")


class Formula(str):
    """A cell that holds a formula (told apart from text that merely starts with '=')."""


def _scan_inputs(head: list[Any], rows: list[list[Any]], source: str, spec: Headings) -> list[Problem]:
    """Formulas, dates and Excel error values typed into input cells (blanked after reporting); the
    input cells are those under a heading the reader reads (:func:`xl_elo.formats.reader.columns_read`)."""
    import datetime as dt

    problems = []
    inputs = columns_read(head, spec)
    for r, row in enumerate(rows, start=2):
        for j, v in enumerate(row):
            if j not in inputs:  # the template's problem column, a user's own notes: not read
                row[j] = None
                continue
            column = str(head[j])
            if isinstance(v, Formula):
                problems.append(Problem(source, r, column, f"a formula ({v[:40]}) was typed into an input cell "
                                                           "(expected the value itself)"))
                row[j] = None
            elif isinstance(v, (dt.datetime, dt.date, dt.time)):
                problems.append(Problem(source, r, column, f"a date ({v}) was found (expected a number or text; "
                                                           "format the column as text or number)"))
                row[j] = None
    return problems


def _merged(path: Path, sheets: dict[str, str], name: str) -> list[Problem]:
    """Merged cells in the input sheets (read from the package: read-only sheets do not list them)."""
    problems = []
    try:
        with zipfile.ZipFile(path) as z:
            for sheet, member in sheets.items():
                if sheet not in INPUT_SHEETS:
                    continue
                try:
                    text = z.read(member).decode("utf-8", "replace")
                except KeyError:
                    continue
                for ref in re.findall(r'<(?:\w+:)?mergeCell ref="([^"]+)"', text):
                    problems.append(Problem(f"{name}, sheet {sheet}", None, ref,
                                            "merged cells were found (expected one value per cell: unmerge them)"))
    except (zipfile.BadZipFile, zlib.error, EOFError, OSError) as exc:
        raise _damaged(name, str(exc) or exc.__class__.__name__) from None
    return problems


def _setting(wb: Any, name: str) -> Any:
    """The value of a one-cell defined name (works on read-only workbooks); None when it points nowhere.

    A setting that cannot be read is reported as a :class:`WorkbookError` naming the setting.
    """
    from openpyxl.utils.cell import column_index_from_string, coordinate_from_string

    dn = wb.defined_names.get(name)
    if dn is None:
        return None
    try:
        destinations = list(dn.destinations)
    except (ValueError, TypeError, KeyError, AttributeError):
        return None
    for sheet, coord in destinations:
        if sheet not in wb.sheetnames:
            return None
        try:
            letters, row = coordinate_from_string(coord.replace("$", "").split(":")[0])
            c = column_index_from_string(letters)
        except (ValueError, TypeError, KeyError, AttributeError):
            return None
        try:
            for (value,) in wb[sheet].iter_rows(min_row=row, max_row=row, min_col=c, max_col=c, values_only=True):
                return value
        except Exception as exc:
            raise WorkbookError([Problem(f"sheet {sheet}", row, name,
                                         f"the setting {name} cannot be read ({_why(exc)})")]) from None
        return None
    return None


@dataclass
class FilledWorkbook:
    """What a filled template holds."""

    federation: str
    tables: Tables
    """The event as read and checked."""
    computed: dict[str, dict[str, Any]] = field(default_factory=dict)
    """The workbook's own results rows, keyed by id (empty when never calculated)."""
    computed_rows: dict[str, int] = field(default_factory=dict)
    """The results sheet's row of each id (its first, when it shows one twice)."""
    shown: list[tuple[str, int]] = field(default_factory=list)
    """Every id the results sheet shows, with its row, in its order (one shown twice is there twice)."""
    calculated: bool = False
    options: dict[str, Any] = field(default_factory=dict)
    """Engine options the workbook's settings choose (FFE: ``dp_method``), as text from the cells."""
    warnings: list[str] = field(default_factory=list)
    """Things worth knowing that do not stop the rating (sheets the template does not have)."""
    source: str = ""
    """The workbook's name, as messages show it."""
    banner: str | None = None
    """What the results sheet's banner says, as the workbook last computed it (None: never computed)."""
    language: str = "en"
    """The language of the template's words (its name ``XL_ELO_LANGUAGE``; English in older ones)."""

    @cached_property
    def event(self) -> Event:
        """The event's records."""
        return self.tables.event()


#: The sheets the templates have (any other is reported, not read).
TEMPLATE_SHEETS = frozenset({
    "instructions", "players", "games", "history", "results", "work", "sides", "lists", "iteration",
    "iteration_sides", "history_work", "walk", "handicap", "history_after", "promotion", "step3", "step4", "step5",
    "xl-elo results", "xl-elo differences", "ladder"})
#: ... and the sheets of a template that lays out several rating periods, one each (``period1`` ...).
PERIOD_SHEET = re.compile(r"^period\d{1,3}$")


def template_sheets(wb: Any) -> frozenset[str]:
    """The sheets a template says it was built with (its name ``XL_ELO_SHEETS``; none in older ones)."""
    dn = wb.defined_names.get("XL_ELO_SHEETS")
    return frozenset(str(dn.attr_text).strip('"').split(",")) if dn is not None else frozenset()


def read_workbook(path: str | os.PathLike[str], shown_as: str | None = None,
                  find: Callable[[str], RatingSystem] | None = None) -> FilledWorkbook:
    """Read a filled template: its federation, its event and the values its formulas computed.

    ``shown_as`` is the name messages give the file (the user's file when ``path`` is a
    recalculated copy of it); ``find``: the system of the code the template records (the command line
    passes the registry's; by default it is looked up there).
    """
    if find is None:
        from xl_elo.federations import get

        find = get
    p = Path(path)
    name = shown_as or p.name
    wb = _load(p, name, read_only=True)
    federation = federation_of(wb, name, find)
    module = find(federation)
    with zipfile.ZipFile(p) as z:
        problems: list[Problem] = _merged(p, _sheet_paths(z), name)
    needed = ("players", "games") + (("history",) if "history" in wb.sheetnames else ())
    missing = [s for s in ("players", "games") if s not in wb.sheetnames]
    if missing:
        raise WorkbookError([Problem(name, None, None, f"has no sheet '{s}' (renamed or deleted?): the template's "
                                                       "input sheets must keep their names") for s in missing])
    period_cell = _setting(wb, "period")
    period: str | None = None
    try:
        period = schema.period(period_cell, required=bool(module.NEEDS_PERIOD),
                               what="the period (instructions sheet, Period)")
    except schema.ValueProblem as exc:
        problems.append(Problem(f"{name}, sheet instructions", None, "Period", str(exc)))
    found: dict[str, Table] = {}
    early: dict[str, list[Problem]] = {}
    inputs = {n for h in system_headings(module).values() for n in h.names}
    lang = language_of(wb)
    spec = system_headings(module, known=[PROBLEM_HEADING, *problem_headings(), *helper_headings(sorted(inputs))])
    for sheet in needed:
        source = f"{name}, sheet {sheet}"
        head, rows = _rows(wb[sheet], source)
        head = named_headings(head, lang)
        early[sheet] = _scan_inputs(head, rows, source, spec[sheet])
        last = _capacity(wb, sheet)
        if last is not None and len(rows) + 1 > last:
            beyond = [r for r, row in enumerate(rows, start=2) if r > last and any(
                v is not None and not (isinstance(v, str) and not v.strip()) for v in row)]
            if beyond:
                early[sheet].append(Problem(source, beyond[0], None,
                                            f"data below row {last}: the template has room for {last - 1} rows "
                                            f"(rows 2 to {last}); rate a bigger event from CSV files with xl-elo rate"))
                rows = rows[: last - 1]
        found[sheet] = Table.from_rows(source, head, rows, typed=True)
    between: list[Problem] = []
    try:  # issue #19: a bad event name is named like any setting, never a traceback
        event_name = schema.text(_setting(wb, "event_name")) or ""
    except schema.ValueProblem as exc:
        between.append(Problem(f"{name}, sheet instructions", None, "event_name", str(exc)))
        event_name = ""
    tables: Tables | None = None
    try:
        tables = read(module.Player, found["players"], found["games"], found.get("history"), period=period,
                      name=event_name, game=module.Game, periods=bool(module.PERIODS),
                      sources=Sources(f"{name}, sheet players", f"{name}, sheet games", f"{name}, sheet history"),
                      problems=problems, before=early, between=between, headings=spec)
    except InputError as exc:
        problems = list(exc.problems)
    else:
        problems = []
    options: dict[str, Any] = {}
    from dataclasses import fields

    for f in fields(module.Options):
        value = _setting(wb, f"opt_{f.name}")
        if value is None or (isinstance(value, str) and not value.strip()):
            problems.append(Problem(f"{name}, sheet instructions", None, f.name,
                                    f"the setting {f.name} is blank (expected {f.default!r}, the default)"))
            continue
        choices = f.metadata.get("choices") or ()
        text = str(value).strip().lower()
        if choices and text not in choices:
            problems.append(Problem(f"{name}, sheet instructions", None, f.name,
                                    f"{schema.shown(value)} is not one of {', '.join(map(str, choices))}"))
            continue
        options[f.name] = text if choices else value
    if problems or tables is None:
        raise InputError(problems)
    extra_sheets = [s for s in wb.sheetnames
                    if s not in TEMPLATE_SHEETS | template_sheets(wb) and not PERIOD_SHEET.match(s)]
    warnings = [f"{name}: sheet(s) {', '.join(extra_sheets)} are not part of the template and were not read"] \
        if extra_sheets else []
    warnings += tables.warnings
    wb.close()
    values = _load(p, name, data_only=True, read_only=True)
    computed, computed_rows, shown = _computed_results(values, [c.name for c in module.COLUMNS], name)
    calculated = bool(computed)
    banner = _named_value(values, "results_banner")
    values.close()
    return FilledWorkbook(federation, tables, computed, computed_rows, shown, calculated, options, warnings, name,
                          banner if isinstance(banner, str) and banner.strip() else None, lang)


def language_of(wb: Any) -> str:
    """The language a template is in (its name ``XL_ELO_LANGUAGE``; English when it has none or an unknown one)."""
    dn = wb.defined_names.get("XL_ELO_LANGUAGE")
    code = str(dn.attr_text).strip('"') if dn is not None else words.SOURCE
    return code if code in words.available() else words.SOURCE


def named_headings(head: Sequence[Any], lang: str) -> list[Any]:
    """An input sheet's headings as the columns' names: a template in another language heads them in its words."""
    if lang == words.SOURCE:
        return list(head)
    names = {v: k[1] for k, v in words.catalogue(lang).entries.items() if k[0] == "column"}
    return [names.get(h, h) if isinstance(h, str) else h for h in head]


def problem_headings() -> list[str]:
    """The problem column's heading in every language (a template's own words; never read)."""
    out = []
    for lang in words.available():
        with words.use(lang):
            out.append(str(words._("problem")))
    return out


def _named_value(wb: Any, name: str) -> Any:
    """The value a workbook holds in the cell a name points to (None when it has no such name)."""
    dn = wb.defined_names.get(name)
    for sheet, ref in dn.destinations if dn is not None else ():
        if sheet in wb.sheetnames:
            return wb[sheet][ref.replace("$", "")].value
    return None


def _computed_results(wb: Any, columns: Sequence[str], name: str
                      ) -> tuple[dict[str, dict[str, Any]], dict[str, int], list[tuple[str, int]]]:
    """The values the workbook's own formulas computed, by player id (an id shown twice: its first
    row), read through the results sheet's names (``r_rating_after`` ...: its headers are for people,
    not for reading); and every id shown, with its row."""
    from openpyxl.utils.cell import column_index_from_string, coordinate_from_string

    where: dict[str, tuple[str, int, int, int]] = {}
    for c in columns:
        dn = wb.defined_names.get(f"r_{c}")
        if dn is None:
            continue
        for sheet, ref in dn.destinations:
            first, _, last = ref.replace("$", "").partition(":")
            letters, r1 = coordinate_from_string(first)
            _, r2 = coordinate_from_string(last or first)
            where[c] = (sheet, column_index_from_string(letters), r1, r2)
    if "id" not in where or where["id"][0] not in wb.sheetnames:
        return {}, {}, []
    sheet, _, r1, r2 = where["id"]
    width = max(j for _, j, _, _ in where.values())
    computed: dict[str, dict[str, Any]] = {}
    rows: dict[str, int] = {}
    shown: list[tuple[str, int]] = []
    for r, cells in enumerate(wb[sheet].iter_rows(min_row=r1, max_row=r2, max_col=width, values_only=True), start=r1):
        rec = {c: (cells[j - 1] if j - 1 < len(cells) else None) for c, (_, j, _, _) in where.items()}
        pid = _shown_id(rec.get("id"))
        if pid is not None:
            computed.setdefault(pid, rec)
            rows.setdefault(pid, r)
            shown.append((pid, r))
    return computed, rows, shown


def _shown_id(value: Any) -> str | None:
    """An id as the results sheet shows it, read as the players sheet's ids are (a number without '.0')."""
    if isinstance(value, str) and not value.strip():
        return None
    try:
        return schema.identifier(value)
    except schema.ValueProblem:
        return str(value)


def _capacity(wb: Any, sheet: str) -> int | None:
    """The last row the template has room for on an input sheet (its id or player column's name)."""
    from openpyxl.utils.cell import coordinate_from_string

    for name in {"players": ("player_id",), "games": ("game_player",), "history": ("history_id",)}.get(sheet, ()):
        dn = wb.defined_names.get(name)
        if dn is None:
            continue
        for _, ref in dn.destinations:
            return int(coordinate_from_string(ref.replace("$", "").split(":")[-1])[1])
    return None


@dataclass(frozen=True)
class Difference:
    """A results cell where the workbook's formulas and the engine disagree."""

    id: str
    row: int
    column: str
    workbook: Any
    engine: Any
    note: str = ""
    """For a row that should not be there, or is missing: what is wrong with it (its cells are not compared)."""

    def __str__(self) -> str:
        if self.note:
            return f"results row {self.row} ({self.id}): {self.note}" if self.row else f"{self.id}: {self.note}"
        return (f"results row {self.row} ({self.id}), column '{self.column}': workbook {self.workbook!r}, "
                f"engine {self.engine!r}")


def _blank(v: Any) -> bool:
    return v is None or v == "" or (isinstance(v, float) and math.isnan(v))


def same(exact: bool, workbook: Any, engine: Any) -> bool:
    """Is a workbook value the engine's (exactly for ratings and counts, to 1e-6 otherwise)?"""
    if _blank(workbook) and _blank(engine):
        return True
    if isinstance(engine, bool):
        engine = "yes" if engine else "no"
    if isinstance(engine, (int, float)) and isinstance(workbook, (int, float)) and not isinstance(workbook, bool):
        if exact:
            return float(workbook) == float(engine)
        return abs(float(workbook) - float(engine)) <= TOLERANCE * max(1.0, abs(float(engine)))
    return str(workbook) == str(engine)


#: The words of a results row that should not be there, or is missing (the second opinion, both ways).
NOT_IN_ANY_TABLE = "the results sheet shows a player who is in no table of the workbook"
SHOWN_TWICE = "the results sheet shows this player twice (first at row {first})"
NOT_SHOWN = "a player of the players sheet whom the results sheet does not show"


def compare(filled: FilledWorkbook, results: Results) -> list[Difference]:
    """Every results cell where the workbook's own formulas disagree with the engine (notes are not compared),
    and every row the results sheet shows that the engine's results do not have, both ways: a player in
    no table, a player shown twice, a player not shown."""
    out = []
    engine_ids = {str(row["id"]) for row in results.rows}
    first: dict[str, int] = {}
    for pid, r in filled.shown:
        if pid not in engine_ids:
            out.append(Difference(pid, r, "id", pid, None, NOT_IN_ANY_TABLE))
        elif pid in first:
            out.append(Difference(pid, r, "id", pid, pid, SHOWN_TWICE.format(first=first[pid])))
        first.setdefault(pid, r)
    for row in results.rows:
        pid = str(row["id"])
        if pid not in filled.computed:
            out.append(Difference(pid, 0, "id", None, pid, NOT_SHOWN))
            continue
        mine = filled.computed[pid]
        r = filled.computed_rows.get(pid, 0)
        for column in results.spec:
            if column.kind == "note":
                continue
            engine = words.translate_value(row.get(column.name), filled.language)
            if not same(column.exact, mine.get(column.name), engine):
                out.append(Difference(pid, r, column.name, mine.get(column.name), row.get(column.name)))
    return out


def explain(filled: FilledWorkbook, differences: Sequence[Difference]) -> list[str]:
    """The differences grouped by player: the input cells behind each (his players row and games rows) first."""
    by_player: dict[str, list[Difference]] = {}
    for d in differences:
        by_player.setdefault(d.id, []).append(d)
    rows = {p.id: p.row for p in filled.event.players}
    games: dict[str, list[int]] = {}
    for g in filled.event.games:
        for pid in (g.player, g.opponent):
            if pid is not None and g.row is not None:
                games.setdefault(pid, []).append(g.row)
    lines = []
    for pid, diffs in by_player.items():
        game_rows = ", ".join(map(str, games.get(pid, []))) or "none"
        where = f"input players row {rows.get(pid)}, games rows {game_rows}" if pid in rows else "in no input table"
        lines.append(f"- {pid!r}: {where}")
        for d in diffs:
            if d.note:
                lines.append(f"    results row {d.row}: {d.note}" if d.row else f"    {d.note}")
            else:
                lines.append(f"    results row {d.row}, column '{d.column}': workbook {d.workbook!r}, "
                             f"engine {d.engine!r}")
    return lines


def _result_text(game: Any) -> Any:
    from xl_elo.core import ResultKind

    r = game.result
    if r.kind is ResultKind.PLAYED:
        return r.score
    if r.kind is ResultKind.FORFEIT:
        return {1.0: "+", 0.0: "-"}.get(r.score, "F")  # type: ignore[arg-type]
    if r.kind is ResultKind.BYE:
        return "bye"
    return None


def _cell(value: Any) -> Any:
    if isinstance(value, bool):
        return "yes" if value else "no"
    return value


def game_cells(games: Sequence[Game]) -> tuple[list[str], list[list[Any]]]:
    """The games as a user types them into a template's games sheet: the column names (the common ones with
    the system's own facts of a game before ``rated``, then ``period``) and one row of cells per game."""
    own = [f.name for f in (facts(type(games[0])) if games else ())]
    columns = [*GAME_COLUMNS[:-1], *own, GAME_COLUMNS[-1], "period"]
    return columns, [[g.round, g.player, g.opponent, _result_text(g), *(_cell(getattr(g, c)) for c in own),
                      None if g.rated else "no", g.period] for g in games]


def fill_template(template: str | os.PathLike[str], event: Event, target: str | os.PathLike[str],
                  options: dict[str, Any] | None = None) -> Path:
    """Write an event (and settings: the federation's options by name) into a copy of a template.

    The input cells are written straight into the sheets' XML (:func:`write_cells`), so the
    template's formulas, styles, validations and protection are kept byte for byte and a large
    template fills in a moment. The results sheet's print area is set to the event's rows, so
    it prints on as many pages as the event needs, in Excel and LibreOffice alike.
    """
    columns = ["id", "name", "rating", *(f.name for f in (facts(type(event.players[0])) if event.players else ()))]
    players = [[_cell(getattr(p, c)) for c in columns] for p in event.players]
    game_columns, games = game_cells(event.games)
    history = [[h.id, h.opponent_rating, h.result] for h in event.history]
    settings = {"period": event.period, "event_name": event.name,
                **{f"opt_{k}": v for k, v in (options or {}).items()}}
    return write_cells(template, target, {
        "players": (columns, players), "games": (game_columns, games),
        "history": (list(HISTORY_COLUMNS), history)}, settings, print_rows=len(event.players), within_room=True)


def write_cells(template: str | os.PathLike[str], target: str | os.PathLike[str],
                tables: dict[str, tuple[list[str], list[list[Any]]]], settings: dict[str, Any] | None = None,
                print_rows: int | None = None, within_room: bool = False) -> Path:
    """Type values into a copy of a template, as a user would: for each input sheet, rows of cells
    by column name (columns the sheet lacks are skipped); settings by their names (``period``,
    ``opt_dp_method``); the results' print area sized to ``print_rows`` players when given.
    ``within_room``: refuse rows below the template's room (a user may type them; the reader flags them)."""
    import warnings

    import openpyxl
    from openpyxl.utils import get_column_letter

    src = Path(template)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        wb = openpyxl.load_workbook(src, read_only=True)
    cells: dict[str, dict[str, Any]] = {}
    for sheet, (columns, rows) in tables.items():
        if sheet not in wb.sheetnames:
            continue
        last = _capacity(wb, sheet)
        if within_room and last is not None and len(rows) + 1 > last:
            wb.close()
            raise ValueError(f"{src.name}: {len(rows)} rows for the sheet {sheet}, which has room for {last - 1}: "
                             "rate a bigger event from CSV files with xl-elo rate")
        head = named_headings(next(wb[sheet].iter_rows(min_row=1, max_row=1, values_only=True)), language_of(wb))
        at = {name: j for j, name in enumerate(head, start=1) if isinstance(name, str)}
        for r, row in enumerate(rows, start=2):
            for name, value in zip(columns, row, strict=False):
                if name in at:
                    cells.setdefault(sheet, {})[f"{get_column_letter(at[name])}{r}"] = value
    for name, value in (settings or {}).items():
        dn = wb.defined_names.get(name)
        if dn is not None and value is not None and value != "":
            for sheet, coord in dn.destinations:
                cells.setdefault(sheet, {})[coord.replace("$", "")] = value
    wb.close()
    dst = Path(target)
    dst.parent.mkdir(parents=True, exist_ok=True)
    files.check_output(dst, [src])
    tmp = files.temporary_beside(dst)
    try:
        with zipfile.ZipFile(src) as zin, zipfile.ZipFile(tmp, "w", zipfile.ZIP_DEFLATED) as zout:
            paths = _sheet_paths(zin)
            for item in zin.infolist():
                data = zin.read(item.filename)
                for sheet, values in cells.items():
                    if paths.get(sheet) == item.filename and values:
                        data = _put_cells(data, values)
                if item.filename == "xl/workbook.xml" and print_rows is not None:
                    data = _print_area_for(data, print_rows)
                zout.writestr(item, data)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    return files.move_into_place(tmp, dst)


def _print_area_for(data: bytes, players: int) -> bytes:
    """The results sheet's print area: its banner, title and header rows and one row per player (the
    template's area covers its whole room; older templates' area is a formula)."""
    text = data.decode("utf-8")

    def fix(m: re.Match[str]) -> str:
        body = m.group(2)
        found = re.match(r"'?results'?!\$A\$1:(?:INDEX\(results!)?\$([A-Z]+)\$\d+", body)
        if not found:
            return m.group(0)
        return f"{m.group(1)}'results'!$A$1:${found.group(1)}${3 + max(players, 1)}</definedName>"

    text = re.sub(r'(<definedName name="_xlnm.Print_Area"[^>]*>)(.*?)</definedName>', fix, text)
    return text.encode("utf-8")


def _sheet_paths(z: zipfile.ZipFile) -> dict[str, str]:
    """Sheet name -> path of its XML inside the package."""
    wbxml = z.read("xl/workbook.xml").decode("utf-8")
    rels = z.read("xl/_rels/workbook.xml.rels").decode("utf-8")
    targets = {m.group(1): m.group(2)
               for m in re.finditer(r'<Relationship[^>]*Id="([^"]+)"[^>]*Target="([^"]+)"', rels)}
    targets.update({m.group(2): m.group(1)
                    for m in re.finditer(r'<Relationship[^>]*Target="([^"]+)"[^>]*Id="([^"]+)"', rels)})
    out = {}
    for m in re.finditer(r'<sheet [^>]*name="([^"]+)"[^>]*r:id="([^"]+)"', wbxml):
        target = targets.get(m.group(2), "")
        target = target.lstrip("/")
        out[_unescape(m.group(1))] = target if target.startswith("xl/") else f"xl/{target}"
    return out


def _unescape(text: str) -> str:
    return (text.replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", '"').replace("&apos;", "'")
            .replace("&amp;", "&"))


def _xml_cell(coord: str, attrs: str, value: Any) -> str:
    from xml.sax.saxutils import escape

    attrs = re.sub(r'\st="[^"]*"', "", attrs)
    if value is None or value == "":
        return f'<c r="{coord}"{attrs}/>'
    if isinstance(value, bool):
        value = "yes" if value else "no"
    if isinstance(value, (int, float)):
        number = repr(float(value)) if isinstance(value, float) and not float(value).is_integer() else str(int(value))
        return f'<c r="{coord}"{attrs}><v>{number}</v></c>'
    return f'<c r="{coord}"{attrs} t="inlineStr"><is><t xml:space="preserve">{escape(str(value))}</t></is></c>'


def _put_cells(data: bytes, values: dict[str, Any]) -> bytes:
    """Replace the given cells of a sheet's XML (the cells exist: templates write every input cell)."""
    text = data.decode("utf-8")
    missing = dict(values)

    def repl(m: re.Match[str]) -> str:
        coord = m.group(1)
        if coord not in missing:
            return m.group(0)
        return _xml_cell(coord, m.group(2), missing.pop(coord))

    text = re.sub(r'<c r="([A-Z]+[0-9]+)"([^>]*?)(?:/>|>.*?</c>)', repl, text, flags=re.S)
    if missing:  # below the template's rows (a paste longer than its room): new rows at the end
        from openpyxl.utils.cell import column_index_from_string, coordinate_from_string

        last = max((int(r) for r in re.findall(r'<row r="(\d+)"', text)), default=0)
        rows: dict[int, list[tuple[int, str]]] = {}
        for coord, value in missing.items():
            letters, r = coordinate_from_string(coord)
            if r <= last:
                raise ValueError(f"the template has no input cell {coord}")
            rows.setdefault(r, []).append((column_index_from_string(letters), _xml_cell(coord, "", value)))
        extra = "".join(f'<row r="{r}">' + "".join(c for _, c in sorted(cs)) + "</row>"
                        for r, cs in sorted(rows.items()))
        text = text.replace("</sheetData>", extra + "</sheetData>", 1)
    return text.encode("utf-8")


def save_workbook(wb: Any, target: str | os.PathLike[str], *,
                  inputs: Sequence[str | os.PathLike[str] | None] = ()) -> Path:
    """Save through a temporary file moved into place when complete; never over an input."""
    dst = files.check_output(target, inputs)
    tmp = files.temporary_beside(dst)
    try:
        wb.save(tmp)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    return files.move_into_place(tmp, dst)


def _results_sheet(ws: Any, results: Results) -> None:
    from openpyxl.styles import Font

    ws.append(list(results.columns))
    for cell in ws[1]:
        cell.font = Font(bold=True)
    for row in results.rows:
        ws.append([_cell(row.get(c)) for c in results.columns])


def _text_stays_text(wb: Any) -> None:
    for sheet in wb.worksheets:  # text that looks like a formula stays text (never run)
        for row in sheet.iter_rows():
            for cell in row:
                if isinstance(cell.value, str) and cell.value.startswith("="):
                    cell.data_type = "s"


def write_results_workbook(results: Results, target: str | os.PathLike[str], *,
                           inputs: Sequence[str | os.PathLike[str] | None] = ()) -> Path:
    """The results table (and FESA's next history) as a new workbook."""
    import openpyxl

    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "xl-elo results"
    _results_sheet(ws, results)
    if results.history:
        ws = wb.create_sheet("history")
        ws.append(["id", "opponent_rating", "result"])
        for h in results.history:
            ws.append([h.id, h.opponent_rating, h.result])
    _text_stays_text(wb)
    return save_workbook(wb, target, inputs=inputs)


def write_rated(results: Results, differences: list[Difference], target: str | os.PathLike[str], *,
                inputs: Sequence[str | os.PathLike[str] | None] = ()) -> Path:
    """A new workbook with the engine's results and the differences found (never over the input)."""
    import openpyxl
    from openpyxl.styles import Font, PatternFill

    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "xl-elo results"
    _results_sheet(ws, results)
    ws = wb.create_sheet("xl-elo differences")
    ws.append(["id", "results row", "column", "workbook", "engine", "note"])
    for cell in ws[1]:
        cell.font = Font(bold=True)
    shade = PatternFill("solid", fgColor="F8CBAD")
    for d in differences:
        ws.append([d.id, d.row or None, d.column, _cell(d.workbook), _cell(d.engine), d.note or None])
        for cell in ws[ws.max_row]:
            cell.fill = shade
    if not differences:
        ws.append(["no difference: the workbook's formulas agree with the engine"])
    if results.history:
        ws = wb.create_sheet("history")
        ws.append(["id", "opponent_rating", "result"])
        for h in results.history:
            ws.append([h.id, h.opponent_rating, h.result])
    _text_stays_text(wb)
    return save_workbook(wb, target, inputs=inputs)
