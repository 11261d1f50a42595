"""Filled template workbooks: write an event into a template, read one back, compare.

A template records its federation in the defined name ``XL_ELO_FEDERATION``. Reading takes
the input sheets (``players``, ``games``, ``history``) through the same cell parsers as the
CSV files (every problem named by sheet, row, column and value), and the values the
workbook's own formulas computed on its ``results`` sheet, to compare with the engine.
"""

from __future__ import annotations

import math
import os
import re
import shutil
import tempfile
import zipfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from xl_elo.csvio import parse_games_rows, parse_history_rows, parse_players_rows
from xl_elo.model import Event, InputError, Problem, Results, check_event

#: Columns compared exactly (ratings, counts); the others to 1e-6; ``note`` is not compared.
EXACT = {"rating_before", "rating_after", "games_rated", "games_after", "change", "k", "bonus_count",
         "lb_run", "mp_run", "nj", "archive_games", "rounds", "wins", "losses", "threshold"}
SKIP = {"note"}
TOLERANCE = 1e-6


class WorkbookError(InputError):
    """A workbook that is not an xl-elo template or cannot be read."""


#: Limits on what a workbook may hold before anything is read (a zip bomb fails here, fast).
MAX_UNCOMPRESSED = 400 * 1024 * 1024
MAX_MEMBERS = 2000
MAX_RATIO = 1000
MAX_ROWS = 200_000
MAX_COLUMNS = 60
EXCEL_ERRORS = {"#N/A", "#VALUE!", "#REF!", "#DIV/0!", "#NUM!", "#NAME?", "#NULL!", "#SPILL!", "#CALC!", "#GETTING_DATA"}
INPUT_SHEETS = ("players", "games", "history")


def check_package(path: Path) -> None:
    """Refuse, before parsing anything, a file that is not an xlsx package or would unpack too big."""
    name = path.name
    if not path.exists():
        raise WorkbookError([Problem(name, None, None, "the file does not exist")])
    if not zipfile.is_zipfile(path):
        raise WorkbookError([Problem(name, None, None, "is not an .xlsx workbook (it is not a zip package; "
                                                       "save it as 'Excel Workbook (.xlsx)')")])
    with zipfile.ZipFile(path) as z:
        infos = z.infolist()
        if len(infos) > MAX_MEMBERS:
            raise WorkbookError([Problem(name, None, None, f"holds {len(infos)} parts (at most {MAX_MEMBERS} expected)")])
        total = sum(i.file_size for i in infos)
        if total > MAX_UNCOMPRESSED:
            raise WorkbookError([Problem(name, None, None, f"would unpack to {total // 2**20} MB (at most "
                                                           f"{MAX_UNCOMPRESSED // 2**20} MB expected): refused")])
        for i in infos:
            if i.compress_size and i.file_size > 10 * 2**20 and i.file_size / i.compress_size > MAX_RATIO:
                raise WorkbookError([Problem(name, None, None, f"part {i.filename} is compressed {i.file_size // i.compress_size}"
                                                               " times (a zip bomb?): refused")])


def _load(path: Path, **kwargs: Any):  # type: ignore[no-untyped-def]
    import openpyxl

    check_package(path)
    try:
        return openpyxl.load_workbook(path, keep_links=False, **kwargs)
    except FileNotFoundError:
        raise WorkbookError([Problem(path.name, None, None, "the file does not exist")]) from None
    except Exception as exc:  # zip, xml or openpyxl errors: not a readable workbook
        raise WorkbookError([Problem(path.name, None, None, f"is not a readable .xlsx workbook ({exc.__class__.__name__})")]) from None


def federation_of(wb: Any, name: str) -> str:
    """The federation a template records, or a WorkbookError."""
    dn = wb.defined_names.get("XL_ELO_FEDERATION")
    if dn is None:
        raise WorkbookError([Problem(name, None, None,
                                     "is not an xl-elo template (no XL_ELO_FEDERATION name); use one from "
                                     "'xl-elo workbooks' or give --federation with CSV files")])
    return str(dn.attr_text).strip('"').lower()


def _rows(ws: Any, source: str = "") -> tuple[list[Any], list[list[Any]]]:
    """Header and rows of a sheet, at most MAX_ROWS rows and MAX_COLUMNS columns read."""
    rows = []
    for n, r in enumerate(ws.iter_rows(max_col=MAX_COLUMNS), start=1):
        if n > MAX_ROWS:
            raise WorkbookError([Problem(source or ws.title, None, None,
                                         f"has more than {MAX_ROWS} rows (formatted blank rows count): delete the "
                                         "rows below the data")])
        rows.append([Formula(c.value) if getattr(c, "data_type", None) == "f" else getattr(c, "value", None) for c in r])
    if not rows:
        return [], []
    while rows and all(v is None or (isinstance(v, str) and not v.strip()) for v in rows[-1]):
        rows.pop()
    return rows[0], rows[1:]


class Formula(str):
    """A cell that holds a formula (told apart from text that merely starts with '=')."""


def _scan_inputs(head: list[Any], rows: list[list[Any]], source: str) -> list[Problem]:
    """Formulas, dates and Excel error values typed into input cells (blanked after reporting)."""
    import datetime as dt

    problems = []
    for r, row in enumerate(rows, start=2):
        for j, v in enumerate(row):
            column = str(head[j]) if j < len(head) and head[j] is not None else f"column {j + 1}"
            if isinstance(v, Formula):
                problems.append(Problem(source, r, column, f"a formula ({v[:40]}) was typed into an input cell "
                                                           "(expected the value itself)"))
                row[j] = None
            elif isinstance(v, str) and v.strip() in EXCEL_ERRORS:
                problems.append(Problem(source, r, column, f"the Excel error value {v.strip()} was found "
                                                           "(expected a value)"))
                row[j] = None
            elif isinstance(v, (dt.datetime, dt.date, dt.time)):
                problems.append(Problem(source, r, column, f"a date ({v}) was found (expected a number or text; "
                                                           "format the column as text or number)"))
                row[j] = None
    return problems


def _merged(path: Path, sheets: dict[str, str]) -> list[Problem]:
    """Merged cells in the input sheets (read from the package: read-only sheets do not list them)."""
    problems = []
    with zipfile.ZipFile(path) as z:
        for sheet, member in sheets.items():
            if sheet not in INPUT_SHEETS:
                continue
            try:
                text = z.read(member).decode("utf-8", "replace")
            except KeyError:
                continue
            for ref in re.findall(r'<mergeCell ref="([^"]+)"', text):
                problems.append(Problem(f"{path.name}, sheet {sheet}", None, ref,
                                        "merged cells were found (expected one value per cell: unmerge them)"))
    return problems


def _setting(wb: Any, name: str) -> Any:
    """The value of a one-cell defined name (works on read-only workbooks)."""
    from openpyxl.utils.cell import coordinate_from_string, column_index_from_string

    dn = wb.defined_names.get(name)
    if dn is None:
        return None
    for sheet, coord in dn.destinations:
        letters, row = coordinate_from_string(coord.replace("$", ""))
        c = column_index_from_string(letters)
        for (value,) in wb[sheet].iter_rows(min_row=row, max_row=row, min_col=c, max_col=c, values_only=True):
            return value
    return None


@dataclass
class FilledWorkbook:
    """What a filled template holds."""

    federation: str
    event: Event
    computed: dict[str, dict[str, Any]] = field(default_factory=dict)
    """The workbook's own results rows, keyed by id (empty when never calculated)."""
    calculated: bool = False
    options: dict[str, Any] = field(default_factory=dict)
    """Engine options the workbook's settings choose (FFE: ``dp_method``)."""
    warnings: list[str] = field(default_factory=list)
    """Things worth knowing that do not stop the rating (sheets the template does not have)."""


def read_workbook(path: str | os.PathLike[str]) -> FilledWorkbook:
    """Read a filled template: its federation, its event and the values its formulas computed."""
    p = Path(path)
    wb = _load(p, read_only=True)
    federation = federation_of(wb, p.name)
    with zipfile.ZipFile(p) as z:
        problems: list[Problem] = _merged(p, _sheet_paths(z))
    parts: dict[str, list[Any]] = {}
    for sheet, parser in (("players", parse_players_rows), ("games", parse_games_rows), ("history", parse_history_rows)):
        if sheet not in wb.sheetnames:
            parts[sheet] = []
            continue
        source = f"{p.name}, sheet {sheet}"
        head, rows = _rows(wb[sheet], source)
        problems += _scan_inputs(head, rows, source)
        try:
            parts[sheet] = parser(head, rows, source=source)
        except InputError as exc:
            problems += exc.problems
    if problems:
        raise InputError(problems)
    period = _setting(wb, "period")
    if period is not None and not isinstance(period, str):
        period = period.strftime("%Y-%m") if hasattr(period, "strftime") else str(period)
    event = Event(tuple(parts["players"]), tuple(parts["games"]), tuple(parts["history"]),
                  period or None, str(_setting(wb, "event_name") or ""))
    check_event(event, players_source=f"{p.name}, sheet players", games_source=f"{p.name}, sheet games",
                history_source=f"{p.name}, sheet history")
    options: dict[str, Any] = {}
    warnings = []
    expected = {  # the sheets the templates have
                "instructions", "players", "games", "history", "results", "work", "sides", "lists", "iteration",
                "iteration_sides", "history_work", "walk", "handicap", "history_after", "xl-elo results",
                "xl-elo differences"}
    extra = [name for name in wb.sheetnames if name not in expected]
    if extra:
        warnings.append(f"{p.name}: sheet(s) {', '.join(extra)} are not part of the template and were not read")
    method = _setting(wb, "dp_method")
    if federation == "ffe":
        method = str(method or "normal").strip().lower()
        if method not in ("normal", "table"):
            raise InputError([Problem(f"{p.name}, sheet instructions", None, "D(P) method",
                                      f"{method!r} is not normal or table")])
        options["dp_method"] = method
    wb.close()
    values = _load(p, data_only=True, read_only=True)
    computed: dict[str, dict[str, Any]] = {}
    calculated = False
    if "results" in values.sheetnames:
        head, rows = _rows(values["results"], f"{p.name}, sheet results")
        for row in rows:
            rec = dict(zip(head, row, strict=False))
            if rec.get("id") not in (None, ""):
                computed[str(rec["id"])] = rec
                calculated = True
    values.close()
    return FilledWorkbook(federation, event, computed, calculated, options, warnings)


@dataclass(frozen=True)
class Difference:
    """A results cell where the workbook's formulas and the engine disagree."""

    id: str
    row: int
    column: str
    workbook: Any
    engine: Any

    def __str__(self) -> str:
        return f"results row {self.row} ({self.id}), column '{self.column}': workbook {self.workbook!r}, engine {self.engine!r}"


def _blank(v: Any) -> bool:
    return v is None or v == "" or (isinstance(v, float) and math.isnan(v))


def same(column: str, workbook: Any, engine: Any) -> bool:
    """Is a workbook value the engine's (exactly for ratings and counts, to 1e-6 otherwise)?"""
    if _blank(workbook) and _blank(engine):
        return True
    if isinstance(engine, bool):
        engine = "yes" if engine else "no"
    if isinstance(engine, (int, float)) and isinstance(workbook, (int, float)) and not isinstance(workbook, bool):
        if column in EXACT:
            return float(workbook) == float(engine)
        return abs(float(workbook) - float(engine)) <= TOLERANCE * max(1.0, abs(float(engine)))
    return str(workbook) == str(engine)


def compare(filled: FilledWorkbook, results: Results) -> list[Difference]:
    """Every results cell where the workbook's own formulas disagree with the engine."""
    out = []
    for n, row in enumerate(results.rows, start=2):
        mine = filled.computed.get(str(row["id"]), {})
        for column in results.columns:
            if column in SKIP:
                continue
            if not same(column, mine.get(column), row.get(column)):
                out.append(Difference(str(row["id"]), n, column, mine.get(column), row.get(column)))
    return out


# --------------------------------------------------------------------------- writing


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


def fill_template(template: str | os.PathLike[str], event: Event, target: str | os.PathLike[str]) -> Path:
    """Write an event into a copy of a template (the template itself is not changed).

    The input cells are written straight into the sheets' XML, so the template's formulas,
    styles, validations and protection are kept byte for byte and a large template fills
    in a moment.
    """
    import openpyxl

    src = Path(template)
    wb = openpyxl.load_workbook(src, read_only=True)
    heads = {}
    for sheet in ("players", "games", "history"):
        if sheet in wb.sheetnames:
            heads[sheet] = [c for c in next(wb[sheet].iter_rows(min_row=1, max_row=1, values_only=True))]
    settings = {}
    for name, value in (("period", event.period), ("event_name", event.name)):
        dn = wb.defined_names.get(name)
        if dn is not None and value:
            for sheet, coord in dn.destinations:
                settings.setdefault(sheet, {})[coord.replace("$", "")] = value
    wb.close()
    from openpyxl.utils import get_column_letter

    cells: dict[str, dict[str, Any]] = {}
    if "players" in heads:
        head = heads["players"]
        for r, p in enumerate(event.players, start=2):
            for j, name in enumerate(head, start=1):
                if name and hasattr(p, name):
                    cells.setdefault("players", {})[f"{get_column_letter(j)}{r}"] = _cell(getattr(p, name))
    if "games" in heads:
        head = heads["games"]
        for r, g in enumerate(event.games, start=2):
            values = {"round": g.round, "player": g.player, "opponent": g.opponent, "result": _result_text(g),
                      "handicap": g.handicap, "rated": None if g.rated else "no"}
            for j, name in enumerate(head, start=1):
                if name in values:
                    cells.setdefault("games", {})[f"{get_column_letter(j)}{r}"] = values[name]
    if "history" in heads:
        for r, h in enumerate(event.history, start=2):
            for j, value in enumerate((h.id, h.opponent_rating, h.result)):
                cells.setdefault("history", {})[f"{'ABC'[j]}{r}"] = value
    for sheet, values in settings.items():
        cells.setdefault(sheet, {}).update(values)
    dst = Path(target)
    dst.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{dst.name}.", suffix=".tmp", dir=dst.parent)
    os.close(fd)
    try:
        with zipfile.ZipFile(src) as zin, zipfile.ZipFile(tmp, "w", zipfile.ZIP_DEFLATED) as zout:
            paths = _sheet_paths(zin)
            for item in zin.infolist():
                data = zin.read(item.filename)
                for sheet, values in cells.items():
                    if paths.get(sheet) == item.filename and values:
                        data = _put_cells(data, values)
                zout.writestr(item, data)
        os.replace(tmp, dst)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return dst


def _sheet_paths(z: zipfile.ZipFile) -> dict[str, str]:
    """Sheet name -> path of its XML inside the package."""
    wbxml = z.read("xl/workbook.xml").decode("utf-8")
    rels = z.read("xl/_rels/workbook.xml.rels").decode("utf-8")
    targets = {m.group(1): m.group(2) for m in re.finditer(r'<Relationship[^>]*Id="([^"]+)"[^>]*Target="([^"]+)"', rels)}
    targets.update({m.group(2): m.group(1) for m in re.finditer(r'<Relationship[^>]*Target="([^"]+)"[^>]*Id="([^"]+)"', rels)})
    out = {}
    for m in re.finditer(r'<sheet [^>]*name="([^"]+)"[^>]*r:id="([^"]+)"', wbxml):
        target = targets.get(m.group(2), "")
        target = target.lstrip("/")
        out[_unescape(m.group(1))] = target if target.startswith("xl/") else f"xl/{target}"
    return out


def _unescape(text: str) -> str:
    return text.replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", '"').replace("&apos;", "'").replace("&amp;", "&")


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
    if missing:
        raise ValueError(f"the template has no input cell {sorted(missing)[0]}: too many rows for it?")
    return text.encode("utf-8")


def save_workbook(wb: Any, target: str | os.PathLike[str], *, inputs: tuple[str | os.PathLike[str], ...] = ()) -> Path:
    """Save through a temporary file moved into place when complete; never over an input."""
    dst = Path(target)
    for other in inputs:
        if dst.exists() and Path(other).exists() and os.path.samefile(dst, other):
            raise ValueError(f"refusing to write the output over the input file {other}")
    dst.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{dst.name}.", suffix=".tmp", dir=dst.parent)
    os.close(fd)
    try:
        wb.save(tmp)
        os.replace(tmp, dst)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return dst


def write_rated(source: str | os.PathLike[str], results: Results, differences: list[Difference],
                target: str | os.PathLike[str], event: Event | None = None) -> Path:
    """A new workbook with the input tables, the engine's results and the differences found."""
    import openpyxl
    from openpyxl.styles import Font, PatternFill

    src = Path(source)
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "xl-elo results"
    ws.append(list(results.columns))
    for cell in ws[1]:
        cell.font = Font(bold=True)
    for row in results.rows:
        ws.append([_cell(row.get(c)) for c in results.columns])
    ws = wb.create_sheet("xl-elo differences")
    ws.append(["id", "results row", "column", "workbook", "engine"])
    for cell in ws[1]:
        cell.font = Font(bold=True)
    shade = PatternFill("solid", fgColor="F8CBAD")
    for d in differences:
        ws.append([d.id, d.row, d.column, _cell(d.workbook), _cell(d.engine)])
        for cell in ws[ws.max_row]:
            cell.fill = shade
    if not differences:
        ws.append(["no difference: the workbook's formulas agree with the engine"])
    if results.history:
        ws = wb.create_sheet("history")
        ws.append(["id", "opponent_rating", "result"])
        for h in results.history:
            ws.append([h.id, h.opponent_rating, h.result])
    for sheet in wb.worksheets:  # text that looks like a formula stays text (never run)
        for row in sheet.iter_rows():
            for cell in row:
                if isinstance(cell.value, str) and cell.value.startswith("="):
                    cell.data_type = "s"
    return save_workbook(wb, target, inputs=(src,))


def copy_file(src: str | os.PathLike[str], dst: str | os.PathLike[str]) -> None:
    shutil.copyfile(src, dst)
