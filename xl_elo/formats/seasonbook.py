"""A season workbook (rules 14.5): a leaderboard, each player's rating over time, the list after each unit, the history.

Written with openpyxl from plain data (the season's units, lists and history), values only (no formula), in this
order of sheets:

- ``leaderboard``: the list after the last unit in its order (highest first, the unrated last): rank, player, id,
  rating, the change since the list before, the games of the season, the best rating of the season's lists; a
  page of A4 (portrait) for each :data:`PAGE_PLAYERS` players, the header row on every page;
- ``charts``: native line charts (openpyxl's, drawn by Excel and LibreOffice alike, never a picture) of the
  ratings over time: the first :data:`TOGETHER` players together, then one small chart for each of the first
  :data:`LEADERS` players, eight to an A4 page;
- ``lists``: a player by unit table, the rating before the season (``start``) and after each unit, in the
  leaderboard's order (the charts read it); landscape, the id and name columns on every page;
- ``history``: every row of the season's history (:data:`xl_elo.model.SEASON_HISTORY_COLUMNS`), with a filter.

Ratings show whole, or to one decimal where the system's ratings carry decimals (Glicko-2). The two big sheets
(a club's twenty years: 2,000 players, 240 units, some 100,000 history rows) are written as XML directly into the
package openpyxl saved, so the workbook takes seconds, not minutes.
"""

from __future__ import annotations

import io
import math
import os
import re
import textwrap
import zipfile
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import repeat
from typing import TYPE_CHECKING, Any, Final

from xl_elo import words
from xl_elo.formats import files
from xl_elo.model import SEASON_HISTORY_COLUMNS

if TYPE_CHECKING:
    from xl_elo.federations.contract import RatingSystem

#: Players on one printed page of the leaderboard (A4 portrait): a page break after each this many.
PAGE_PLAYERS: Final = 40
#: Players charted one by one: the leaderboard's first page. A chart is a part of its own in the package, which
#: Excel and LibreOffice draw one by one when the file opens: forty (five A4 pages) keeps a club's twenty years
#: opening in seconds; every player's ratings stay on the lists sheet, ready for a chart of one's own.
LEADERS: Final = PAGE_PLAYERS
#: Players drawn together on the first chart: more lines than this cannot be told apart.
TOGETHER: Final = 10

FONT_NAME: Final = "Arial"
FONT_SIZE: Final = 10
HEADER_COLOR: Final = "1F4E78"
BAND_COLOR: Final = "F2F2F2"
#: The sheet the charts read.
LISTS: Final = "lists"

#: The printed page: A4, margins in inches (Excel's unit), the body's height in points.
_MARGINS: Final = {"left": 0.5, "right": 0.5, "top": 0.7, "bottom": 0.7, "header": 0.3, "footer": 0.3}
#: Rows of the leaderboard (points): PAGE_PLAYERS of them, the header and the title fit one A4 page.
_ROW_HEIGHT: Final = 15.5
#: The charts sheet: a chart cell's height (points), the small charts' size (cm), their rows per page.
_CHART_ROW: Final = 15.0
_CHART_ROWS: Final = 11  # rows of one small chart's band: 11 x 15 pt = 5.82 cm
_SMALL: Final = (8.6, 5.6)
_WIDE: Final = (17.4, 11.4)
#: The charts sheet's two columns (characters: some 8.8 cm each), a small chart in each.
_CHART_COLUMN: Final = 47.0
_BANDS_PER_PAGE: Final = 4
#: The longest unit's name a small chart shows under its axis (a month, a day); longer ones (events) only the
#: first chart shows.
_SHORT: Final = 10


#: The workbook's words, in English (each said in the language of the work, :func:`xl_elo.words.use`; the
#: catalogues' context ``season``, the sheets' names ``sheet``, the history's headings ``history``).
SHEETS: Final = ("leaderboard", "charts", LISTS, "history")
SPAN: Final = "{start} to {end}"
NO_UNIT: Final = "{system}: a season without a unit"
TITLE: Final = ("{system}: the season {span} (1 list)", "{system}: the season {span} ({count} lists)")
LIST_AFTER: Final = ("The list after {unit} (the season {span}, 1 list)",
                     "The list after {unit} (the season {span}, {count} lists)")
LEGEND: Final = ("{change}: since {before}; {games}: rated in the season; {best}: the highest rating on the season's "
                 "lists, its start included. Unrated players last.")
BEFORE: Final = ("the list after {unit}", "the season's start")
UNRATED: Final = "unrated"
NEW: Final = "new"
CHARTS_TITLE: Final = "Ratings over time"
CHARTS_NOTE: Final = ("The first {count} of the leaderboard, each on his own scale; every player's ratings are on the "
                      "sheet {sheet}.")
NO_CHART: Final = "No player is rated on the last list."
TOGETHER_TITLE: Final = "The first {count} of the list after {unit}"
START: Final = "start"
#: The lists sheet's first columns: each player's id, name and rating at the season's start.
LIST_HEAD: Final = ("id", "name", START)
FOOTER: Final = "page {page} of {pages}"


def _(msgid: str, **params: Any) -> str:
    """A phrase of the workbook in the language of the work."""
    return words._(msgid, context="season", **params)


#: What a sheet's name cannot hold (Excel's rule), and its longest.
_NOT_IN_NAME: Final = re.compile(r"[\\/?*\[\]:]")
_NAME_LENGTH: Final = 31


def sheet_name(name: str) -> str:
    """A sheet's name in the language of the work, as Excel allows it: 31 characters, none of ``\\ / ? * [ ] :``."""
    said = _NOT_IN_NAME.sub("", words._(name, context="sheet")).strip("' ")[:_NAME_LENGTH]
    return said or name


def phrases() -> None:
    """Ask for every phrase the workbook says (the catalogues list them: :mod:`xl_elo.templates.catalogues`)."""
    from xl_elo.federations import registry

    for system in registry().values():
        _system_name(system)
    for name in SHEETS:
        sheet_name(name)
    for name in (*_BOARD_HEAD, *LIST_HEAD):
        _(name)
    for name in SEASON_HISTORY_COLUMNS:
        words._(name, context="history")
    _(SPAN, start="", end="")
    _(NO_UNIT, system="")
    for phrase in (*TITLE, *LIST_AFTER):
        _(phrase, system="", span="", count="", unit="")
    _(LEGEND, change="", before="", games="", best="")
    _(BEFORE[0], unit="")
    for phrase in (BEFORE[1], UNRATED, NEW, CHARTS_TITLE, NO_CHART):
        _(phrase)
    _(CHARTS_NOTE, count="", sheet="")
    _(TOGETHER_TITLE, count="", unit="")
    _(FOOTER, page="", pages="")


@dataclass(frozen=True)
class Standing:
    """One player's line of the leaderboard (rules 14.5)."""

    rank: int | None
    """His place on the last list (equal ratings share it); None: unrated on it."""
    id: str
    name: str
    rating: float | None
    """His rating on the last list (None: unrated)."""
    change: float | None
    """Since the list before the last (the season's start, where it has one unit); None where he was unrated."""
    games: int
    """Games rated in the season (the history's ``games_rated``)."""
    best: float | None
    """The highest of his lists: the season's start and after each unit."""


def season_start(keys: Sequence[str], lists: Mapping[str, Sequence[float | None]],
                 history: Sequence[Mapping[str, Any]]) -> dict[str, float | None]:
    """Each player's rating before the season: his rating before the first unit where he played in it, else the
    list after it (one who does not play keeps his rating, rules 14.3)."""
    first = keys[0] if keys else None
    before = {str(r["id"]): _rating(r.get("rating_before")) for r in history if r.get("unit") == first}
    return {pid: before[pid] if pid in before else (_rating(ratings[0]) if ratings else None)
            for pid, ratings in lists.items()}


def standings(keys: Sequence[str], lists: Mapping[str, Sequence[float | None]], names: Mapping[str, str],
              history: Sequence[Mapping[str, Any]]) -> list[Standing]:
    """The leaderboard: every player of the list after the last unit, highest first, then the unrated (by name)."""
    start = season_start(keys, lists, history)
    games: dict[str, int] = {}
    for r in history:
        games[str(r["id"])] = games.get(str(r["id"]), 0) + int(r.get("games_rated") or 0)
    lines = []
    for pid, ratings in lists.items():
        seq = [start[pid], *(_rating(x) for x in ratings)]
        now, before = seq[-1], seq[-2]
        change = None if now is None or before is None else now - before
        rated = [x for x in seq if x is not None]
        lines.append((pid, now, change, max(rated) if rated else None))
    lines.sort(key=lambda x: (x[1] is None, -(x[1] or 0.0), names.get(x[0], "").casefold(), x[0]))
    out = []
    rank = 0
    for place, (pid, now, change, best) in enumerate(lines, start=1):
        if now is not None and (place == 1 or now != lines[place - 2][1]):
            rank = place
        out.append(Standing(rank if now is not None else None, pid, names.get(pid, ""), now, change,
                            games.get(pid, 0), best))
    return out


def _rating(value: Any) -> float | None:
    """A rating as a list holds it (None, NaN or 0: unrated)."""
    if value is None:
        return None
    v = float(value)
    return None if v != v or v == 0 else v


def write_season_workbook(path: str | os.PathLike[str], system: RatingSystem, keys: Sequence[str],
                          units: Sequence[Mapping[str, Any]], lists: Mapping[str, Sequence[float | None]],
                          names: Mapping[str, str], history: Sequence[Mapping[str, Any]], *,
                          inputs: Sequence[str | os.PathLike[str] | None] = ()) -> None:
    """The season workbook at ``path`` (never over an input; rules 14.5): ``keys`` the units' names in time
    order, ``units`` their dicts (unit, period, start, end, events), ``lists`` each player's rating after each
    unit (None: unrated), ``names`` each player's name by id, ``history`` the rows of
    :data:`xl_elo.model.SEASON_HISTORY_COLUMNS`."""
    files.check_output(path, inputs)
    data = season_workbook(system, keys, units, lists, names, history)
    files.write_atomic(path, data, inputs=inputs)


def season_workbook(system: RatingSystem, keys: Sequence[str], units: Sequence[Mapping[str, Any]],
                    lists: Mapping[str, Sequence[float | None]], names: Mapping[str, str],
                    history: Sequence[Mapping[str, Any]]) -> bytes:
    """The season workbook's bytes (:func:`write_season_workbook`)."""
    import openpyxl

    decimals = _decimals(system)
    board = standings(keys, lists, names, history)
    start = season_start(keys, lists, history)
    book = _Book(openpyxl.Workbook(), decimals, _title(system, keys), _system_name(system))
    board_name, charts_name, lists_name, history_name = _sheet_names()
    board_sheet = book.wb.active
    board_sheet.title = board_name
    _leaderboard(book, board_sheet, board, keys)
    chart_sheet = book.wb.create_sheet(charts_name)
    lists_sheet = book.wb.create_sheet(lists_name)
    history_sheet = book.wb.create_sheet(history_name)
    list_rows = _lists(book, lists_sheet, board, keys, lists, start)
    history_rows = _history(book, history_sheet, history)
    _charts(book, chart_sheet, board, keys, lists, start, lists_name)
    buf = io.BytesIO()
    book.wb.save(buf)
    wide = len(SEASON_HISTORY_COLUMNS)
    return _with_rows(buf.getvalue(), {
        lists_sheet.path.lstrip("/"): (list_rows, f"A1:{_col(3 + len(keys))}{1 + len(list_rows)}"),
        history_sheet.path.lstrip("/"): (history_rows, f"A1:{_col(wide)}{1 + len(history_rows)}")})


def _sheet_names() -> tuple[str, ...]:
    """The four sheets' names in the language of the work (the English ones where two would clash)."""
    said = [sheet_name(n) for n in SHEETS]
    if len({n.casefold() for n in said}) < len(said):
        return SHEETS
    return tuple(said)


def _decimals(system: RatingSystem) -> int:
    """The decimals a list shows: one where the system's ratings carry decimals (its ``rating_after`` column
    declares places: Glicko-2), else none."""
    column = next((c for c in system.COLUMNS if c.name == "rating_after"), None)
    return 1 if column is not None and (column.places or column.kind == "float") else 0


def _system_name(system: RatingSystem) -> str:
    """The system's name (its declared ``NAME``) in the language of the work."""
    return str(words._((system.NAME or system.CODE).strip(), context="system"))


def _span(keys: Sequence[str]) -> str:
    """The season's units, first to last."""
    return keys[0] if len(keys) == 1 else _(SPAN, start=keys[0], end=keys[-1])


def _title(system: RatingSystem, keys: Sequence[str]) -> str:
    name = _system_name(system)
    if not keys:
        return _(NO_UNIT, system=name)
    return _(TITLE[len(keys) != 1], system=name, span=_span(keys), count=len(keys))


# --------------------------------------------------------------------------- the look


class _Book:
    """The workbook being written, with its styles: one font, the ratings' number formats."""

    def __init__(self, wb: Any, decimals: int, title: str, system_name: str) -> None:
        from openpyxl.styles import Alignment, Font, PatternFill

        self.wb = wb
        _normal_font(wb, Font(name=FONT_NAME, size=FONT_SIZE, family=2))
        self.title = title
        self.system_name = system_name
        self.decimals = decimals
        self._styles: dict[tuple[str, bool], int] = {}
        places = "." + "0" * decimals if decimals else ""
        self.rating_format = f"0{places}"
        self.change_format = f"+0{places};-0{places};0{places}"
        self.bold = Font(name=FONT_NAME, size=FONT_SIZE, bold=True)
        self.title_font = Font(name=FONT_NAME, size=13, bold=True)
        self.note_font = Font(name=FONT_NAME, size=9, italic=True, color="404040")
        self.head_font = Font(name=FONT_NAME, size=FONT_SIZE, bold=True, color="FFFFFF")
        self.head_fill = PatternFill("solid", fgColor=HEADER_COLOR)
        self.band = PatternFill("solid", fgColor=BAND_COLOR)
        self.wrap = Alignment(wrap_text=True, vertical="center")
        self.centre = Alignment(horizontal="center")
        self.right = Alignment(horizontal="right")

    def header(self, ws: Any, row: int, labels: Sequence[str], align: str = "") -> None:
        """A header row: white on dark blue, each label aligned as ``align`` says (``l``, ``c``, ``r``; centred)."""
        from openpyxl.styles import Alignment

        sides = {"l": "left", "c": "center", "r": "right"}
        for j, label in enumerate(labels, start=1):
            c = ws.cell(row, j, _excel_text(label))
            c.font, c.fill, c.data_type = self.head_font, self.head_fill, "s"
            side = sides[align[j - 1]] if j <= len(align) else "center"
            c.alignment = Alignment(wrap_text=True, vertical="center", horizontal=side)

    def style_id(self, number_format: str = "General", band: bool = False) -> int:
        """The index of a cell style (the ``s`` of a cell written as XML): a cell of a scratch sheet styled (the
        workbook keeps its styles when the sheet goes)."""
        known = self._styles.get((number_format, band))
        if known is not None:
            return known
        scratch = self.wb.create_sheet("scratch")
        c = scratch.cell(1, 1)
        c.number_format = number_format
        if band:
            c.fill = self.band
        sid = self._styles[number_format, band] = int(c.style_id)
        self.wb.remove(scratch)
        return sid

    def page(self, ws: Any, *, landscape: bool, wide: int = 1, title_rows: str | None = None,
             title_cols: str | None = None, fit: bool = True, centred: bool = False) -> None:
        """A4, the orientation, ``wide`` pages across (any number down), the title rows/columns on every page, a
        header with the season's title and a footer with the page number; ``centred`` across the page."""
        from openpyxl.worksheet.page import PageMargins

        ws.print_options.horizontalCentered = centred
        ws.page_setup.paperSize = ws.PAPERSIZE_A4
        ws.page_setup.orientation = "landscape" if landscape else "portrait"
        if fit:
            ws.page_setup.fitToWidth = wide
            ws.page_setup.fitToHeight = 0
            ws.sheet_properties.pageSetUpPr.fitToPage = True
        ws.page_margins = PageMargins(**_MARGINS)
        if title_rows:
            ws.print_title_rows = title_rows
        if title_cols:
            ws.print_title_cols = title_cols
        for part, text in ((ws.oddHeader.left, _header_text(self.title)), (ws.oddHeader.right, "&A"),
                           (ws.oddFooter.right, _(FOOTER, page="&P", pages="&N"))):
            part.text, part.size, part.font = text, 8, f"{FONT_NAME},Regular"


def _normal_font(wb: Any, font: Any) -> None:
    """Make ``font`` the workbook's Normal style's, before any cell is styled: the font of every cell not given
    one, and the one Excel and LibreOffice measure column widths in (Calibri, openpyxl's, is missing where
    LibreOffice runs without Microsoft's fonts, and its stand-in makes every column wider than asked). openpyxl
    offers no call for it: the font list and the Normal style are set as openpyxl builds them itself."""
    from openpyxl.utils.indexed_list import IndexedList

    wb._fonts = IndexedList([font])
    wb._named_styles["Normal"].font = font


def _header_text(text: str) -> str:
    """Text for a page header: its ampersands doubled (a header's codes start with one)."""
    return text.replace("&", "&&")


def _width(texts: Iterable[Any], low: int = 4, high: int = 40) -> float:
    """A column's width (characters) to hold its longest text, from ``low`` to ``high``."""
    longest = max((len(str(t)) for t in texts if t is not None), default=0)
    return float(min(max(longest + 2, low), high))


# --------------------------------------------------------------------------- the sheets


_BOARD_HEAD: Final = ("rank", "player", "id", "rating", "change", "games", "best")


def _leaderboard(book: _Book, ws: Any, board: Sequence[Standing], keys: Sequence[str]) -> None:
    """The list after the last unit in its order, a page of A4 for each PAGE_PLAYERS players."""
    from openpyxl.worksheet.pagebreak import Break

    last = keys[-1] if keys else ""
    before = _(BEFORE[0], unit=keys[-2]) if len(keys) > 1 else _(BEFORE[1])
    head_words = [_(h) for h in _BOARD_HEAD]
    said = dict(zip(_BOARD_HEAD, head_words, strict=True))
    lines = [(book.system_name, book.title_font, 20),
             (_(LIST_AFTER[len(keys) != 1], unit=last, span=_span(keys), count=len(keys)) if keys else book.title,
              book.bold, 16),
             (_(LEGEND, change=said["change"], before=before, games=said["games"], best=said["best"]),
              book.note_font, 26)]
    for r, (text, font, height) in enumerate(lines, start=1):
        c = ws.cell(r, 1, _excel_text(text))
        c.font, c.alignment, c.data_type = font, book.wrap, "s"
        ws.merge_cells(start_row=r, start_column=1, end_row=r, end_column=len(_BOARD_HEAD))
        ws.row_dimensions[r].height = height
    head = len(lines) + 1
    book.header(ws, head, head_words, align="cllrrrr")
    ws.row_dimensions[head].height = 20
    band = book.band
    unrated, new = _(UNRATED), _(NEW)
    for i, s in enumerate(board):
        r = head + 1 + i
        values = [s.rank, _excel_text(s.name), _excel_text(s.id), s.rating if s.rating is not None else unrated,
                  s.change if s.change is not None else (new if s.rating is not None else None), s.games, s.best]
        for j, v in enumerate(values, start=1):
            c = ws.cell(r, j)
            c.value = v
            if isinstance(v, str):
                c.data_type = "s"  # text stays text (a name starting with = is no formula)
            if j == 2 and s.rank is not None and s.rank <= 3:
                c.font = book.bold
            if j in (4, 7):
                c.number_format = book.rating_format
            elif j == 5:
                c.number_format = book.change_format
            if j in (4, 5) and isinstance(v, str):
                c.alignment = book.right
            elif j == 1:
                c.alignment = book.centre
            if i % 2:
                c.fill = band
        ws.row_dimensions[r].height = _ROW_HEIGHT
        if i and i % PAGE_PLAYERS == 0:
            ws.row_breaks.append(Break(id=r - 1))
    widths = [max(w, len(h) + 2) for w, h in zip(
        (7, _width([s.name for s in board], 24, 36), _width([s.id for s in board], 10, 24), 12, 12, 9, 11),
        head_words, strict=True)]
    for j, w in enumerate(widths, start=1):
        ws.column_dimensions[_col(j)].width = w
    ws.freeze_panes = f"A{head + 1}"
    end = head + max(len(board), 1)
    ws.print_area = f"A1:G{end}"
    book.page(ws, landscape=False, title_rows=f"{head}:{head}", centred=True)


def _lists(book: _Book, ws: Any, board: Sequence[Standing], keys: Sequence[str],
           lists: Mapping[str, Sequence[float | None]], start: Mapping[str, float | None]) -> list[str]:
    """The head of the lists sheet (its rows are written as XML): the rows, in the leaderboard's order."""
    heads = [_(h) for h in LIST_HEAD]
    book.header(ws, 1, [*heads, *keys])
    ws.column_dimensions["A"].width = _width([s.id for s in board] + [heads[0]], 6, 24)
    ws.column_dimensions["B"].width = _width([s.name for s in board] + [heads[1]], 10, 32)
    number = 6 + book.decimals
    lines = 2
    for j, key in enumerate([heads[2], *keys], start=3):
        width = max(number, min(len(key), 14) + 1)
        ws.column_dimensions[_col(j)].width = width
        lines = max(lines, len(textwrap.wrap(key, width - 1, break_long_words=True)))
    ws.row_dimensions[1].height = 13.0 * min(lines, 5) + 2  # an event's name wrapped whole, up to five lines
    ws.freeze_panes = "C2"
    last = _col(3 + len(keys))
    ws.print_area = f"A1:{last}{1 + max(len(board), 1)}"
    # fit to width where the units fit a landscape page, else as many pages across as they need, the id and
    # name on each
    across = max(1, math.ceil((1 + len(keys)) / 16))
    book.page(ws, landscape=True, wide=across, title_rows="1:1", title_cols="A:B")
    styles = [[book.style_id(fmt, band) for fmt in ["General"] * 2 + [book.rating_format] * (1 + len(keys))]
              for band in (False, True)]
    return _rows_xml([[s.id for s in board], [s.name for s in board], [start.get(s.id) for s in board],
                      *([_rating(lists[s.id][u]) for s in board] for u in range(len(keys)))], styles)


_HISTORY_FORMATS: Final = {"rating_before": "rating", "rating_after": "rating", "change": "change",
                           "expected": "0.00"}


def _history(book: _Book, ws: Any, history: Sequence[Mapping[str, Any]]) -> list[str]:
    """The history sheet's head (its rows are written as XML): every row, a filter on the header."""
    columns = list(SEASON_HISTORY_COLUMNS)
    heads = {name: words._(name, context="history") for name in columns}
    book.header(ws, 1, list(heads.values()))
    formats = {"rating": book.rating_format, "change": book.change_format}
    shown = [formats.get(f, f) for f in (_HISTORY_FORMATS.get(name, "General") for name in columns)]
    styles = [[book.style_id(fmt, band) for fmt in shown] for band in (False, True)]
    for j, name in enumerate(columns, start=1):
        if name in ("unit", "id", "name"):
            ws.column_dimensions[_col(j)].width = _width([r.get(name) for r in history] + [heads[name]], 6, 32)
        else:
            ws.column_dimensions[_col(j)].width = max(len(heads[name]) + 2, 8 if name not in ("start", "end") else 11)
    ws.freeze_panes = "A2"
    end = 1 + max(len(history), 1)
    ws.auto_filter.ref = f"A1:{_col(len(columns))}{end}"
    ws.print_area = f"A1:{_col(len(columns))}{end}"
    book.page(ws, landscape=True, title_rows="1:1")
    return _rows_xml([[r.get(c) for r in history] for c in columns], styles)


# --------------------------------------------------------------------------- the charts


def _charts(book: _Book, ws: Any, board: Sequence[Standing], keys: Sequence[str],
            lists: Mapping[str, Sequence[float | None]], start: Mapping[str, float | None], lists_name: str) -> None:
    """The leaders' ratings over time: the first TOGETHER together, then each of the first LEADERS, two to a
    band, four bands to an A4 page; each chart reads the lists sheet (row 2 on: the leaderboard's order)."""
    from openpyxl.worksheet.pagebreak import Break

    charted = [(i, s) for i, s in enumerate(board) if s.rating is not None][:LEADERS]
    ws["A1"] = _(CHARTS_TITLE)
    ws["A1"].font = book.title_font
    shown = len(charted)
    ws["A2"] = _(CHARTS_NOTE, count=shown, sheet=lists_name) if shown else _(NO_CHART)
    ws["A2"].font = book.note_font
    ws.row_dimensions[1].height = 20
    ws.row_dimensions[2].height = 14
    ws.column_dimensions["A"].width = _CHART_COLUMN
    ws.column_dimensions["B"].width = _CHART_COLUMN
    top = 3
    bands = math.ceil(len(charted) / 2)
    together = charted[:TOGETHER]
    band_rows = 2 * _CHART_ROWS if together else 0  # the chart of the leaders together: two bands high
    for r in range(top, top + band_rows + bands * _CHART_ROWS + 1):
        ws.row_dimensions[r].height = _CHART_ROW
    if together:
        chart = _line_chart(book, _(TOGETHER_TITLE, count=len(together), unit=keys[-1]), keys,
                            [_rating_range(i, s, keys, lists, start) for i, s in together], _WIDE, legend=True,
                            lists_name=lists_name)
        _place(ws, chart, 0, top)
    first = top + band_rows
    for k, (i, s) in enumerate(charted):
        band, side = divmod(k, 2)
        label = f"{s.rank}. {s.name or s.id}"
        _place(ws, _line_chart(book, label, keys, [_rating_range(i, s, keys, lists, start)], _SMALL,
                               lists_name=lists_name), side, first + band * _CHART_ROWS)
    # a page break after each four bands (the first page: the title, the chart together, two bands)
    page_bands = _BANDS_PER_PAGE - (2 if together else 0)
    b = page_bands
    while b < bands:
        ws.row_breaks.append(Break(id=first + b * _CHART_ROWS - 1))
        b += _BANDS_PER_PAGE
    ws.print_area = f"A1:B{max(top + band_rows + bands * _CHART_ROWS, 2)}"
    book.page(ws, landscape=False, fit=False, centred=True)


def _place(ws: Any, chart: Any, column: int, row: int) -> None:
    """A chart at a cell (column 0-based, row 1-based), a little inside it: a chart's frame on a page break's
    line would print on the page before."""
    from openpyxl.drawing.spreadsheet_drawing import AnchorMarker, OneCellAnchor
    from openpyxl.drawing.xdr import XDRPositiveSize2D
    from openpyxl.utils.units import cm_to_EMU

    inset = cm_to_EMU(0.1)
    chart.anchor = OneCellAnchor(_from=AnchorMarker(col=column, colOff=inset, row=row - 1, rowOff=inset),
                                 ext=XDRPositiveSize2D(cm_to_EMU(chart.width), cm_to_EMU(chart.height)))
    ws.add_chart(chart)


@dataclass(frozen=True)
class _Range:
    row: int
    """The player's row on the lists sheet."""
    name: str
    low: float | None
    high: float | None


def _rating_range(i: int, s: Standing, keys: Sequence[str], lists: Mapping[str, Sequence[float | None]],
                  start: Mapping[str, float | None]) -> _Range:
    values = [v for v in (start.get(s.id), *(_rating(x) for x in lists[s.id])) if v is not None]
    return _Range(2 + i, s.name or s.id, min(values, default=None), max(values, default=None))


def _line_chart(book: _Book, title: str, keys: Sequence[str], players: Sequence[_Range], size: tuple[float, float],
                legend: bool = False, lists_name: str = LISTS) -> Any:
    """A line chart of players' ratings (a series each, from the lists sheet's start column to its last unit),
    the units as categories; the rating axis bounded round the ratings drawn."""
    from openpyxl.chart import LineChart, Series
    from openpyxl.chart.data_source import AxDataSource, StrRef
    from openpyxl.chart.series import SeriesLabel

    chart = LineChart()
    chart.title = _rich_title(_CONTROL.sub("\ufffd", title), 1100 if legend else 900)  # a chart's text: no escape
    chart.width, chart.height = size
    chart.style = 2
    chart.visible_cells_only = False  # a hidden row or column of the lists sheet still draws
    chart.display_blanks = "gap"  # unrated: no point
    last = _col(3 + len(keys))
    for p in players:
        sheet = lists_name.replace("'", "''")
        series = Series(f"'{sheet}'!$C${p.row}:${last}${p.row}")
        series.tx = SeriesLabel(strRef=StrRef(f"'{sheet}'!$B${p.row}"))
        series.cat = AxDataSource(strRef=StrRef(f"'{sheet}'!$C$1:${last}$1"))
        series.smooth = False
        if len(keys) <= 24:
            series.marker.symbol = "circle"
            series.marker.size = 4 if legend else 3
        else:
            series.marker.symbol = "none"
        series.graphicalProperties.line.width = 22225 if legend else 19050  # EMU: 1.75 and 1.5 pt
        chart.series.append(series)
    lows = [p.low for p in players if p.low is not None]
    highs = [p.high for p in players if p.high is not None]
    if lows and highs:
        step = _step(max(highs) - min(lows))
        chart.y_axis.scaling.min = math.floor((min(lows) - step / 4) / step) * step
        chart.y_axis.scaling.max = math.ceil((max(highs) + step / 4) / step) * step
        chart.y_axis.majorUnit = step
    chart.y_axis.number_format = "0"
    chart.y_axis.title = None
    chart.x_axis.title = None
    chart.y_axis.delete = False
    chart.x_axis.delete = False
    skip = max(1, math.ceil((1 + len(keys)) / (12 if legend else 6)))
    if not legend and max(map(len, keys), default=0) > _SHORT:
        chart.x_axis.delete = True  # events' long names would leave no room to draw: the first chart has them
    chart.x_axis.tickLblSkip = skip
    chart.x_axis.tickMarkSkip = skip
    chart.x_axis.noMultiLvlLbl = True
    _axis_font(chart.x_axis, 800 if legend else 700, turned=True)
    _axis_font(chart.y_axis, 800 if legend else 700)
    if legend:
        chart.legend.position = "r"
    else:
        chart.legend = None
    return chart


def _step(span: float) -> float:
    """A round step for a rating axis of this span: 5 to 8 gridlines."""
    for step in (10, 20, 25, 50, 100, 200, 250, 500):
        if span / step <= 6:
            return float(step)
    return 1000.0


def _rich_title(text: str, size: int) -> Any:
    from openpyxl.chart.text import RichText, Text
    from openpyxl.chart.title import Title
    from openpyxl.drawing.text import CharacterProperties, Paragraph, ParagraphProperties, RegularTextRun

    props = CharacterProperties(sz=size, b=True, latin=None)
    para = Paragraph(pPr=ParagraphProperties(defRPr=props), r=[RegularTextRun(rPr=props, t=text)])
    return Title(tx=Text(rich=RichText(p=[para])), overlay=False)


def _axis_font(axis: Any, size: int, turned: bool = False) -> None:
    """An axis's labels in ``size`` (hundredths of a point), ``turned`` 45 degrees (the units' names: LibreOffice
    shows every one it has room for, whatever the skip asked)."""
    from openpyxl.chart.text import RichText
    from openpyxl.drawing.text import CharacterProperties, Paragraph, ParagraphProperties, RichTextProperties

    props = CharacterProperties(sz=size)
    body = RichTextProperties(rot=-2700000, vert="horz") if turned else RichTextProperties()
    axis.txPr = RichText(bodyPr=body, p=[Paragraph(pPr=ParagraphProperties(defRPr=props), r=[], endParaRPr=props)])


# --------------------------------------------------------------------------- the rows as XML


def _col(n: int) -> str:
    from openpyxl.utils import get_column_letter

    return get_column_letter(n)


#: What XML cannot hold (Excel writes it ``_x0001_``), and text that reads as such an escape (``_x0041_``: its
#: underscore is written ``_x005F_``, as Excel does, so the text reads back as typed).
_CONTROL: Final = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")
_ESCAPED: Final = re.compile(f"{_CONTROL.pattern}|_(?=x[0-9A-Fa-f]{{4}}_)")


def _excel_text(value: str) -> str:
    """Text as Excel writes it in a workbook's XML (before the XML's own escapes): :data:`_ESCAPED`."""
    return _ESCAPED.sub(lambda m: f"_x{ord(m.group()):04X}_", value) if _ESCAPED.search(value) else value


def _text(value: str) -> str:
    """Text as a cell's XML holds it: :func:`_excel_text`, then XML's escapes."""
    return _excel_text(value).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _tail(value: Any) -> str:
    """A cell's XML after its reference and style: a number as a number, text as inline text (never a formula);
    '' for a blank (None, NaN)."""
    if isinstance(value, str):
        space = ' xml:space="preserve"' if value != value.strip() else ""
        return f' t="inlineStr"><is><t{space}>{_text(value)}</t></is></c>'
    x = float(value)
    if x != x or x in (math.inf, -math.inf):
        return ""
    return f"><v>{int(x) if x.is_integer() and abs(x) < 1e15 else repr(x)}</v></c>"


def _tails(values: Sequence[Any]) -> list[str]:
    """Each value's :func:`_tail`, each distinct value worked out once (a column repeats its ids, names, units
    and ratings); a blank ''."""
    known = {v: _tail(v) for v in set(values) if v is not None}
    return list(map(known.get, values, repeat("")))


def _rows_xml(columns: Sequence[Sequence[Any]], styles: Sequence[Sequence[int]], first: int = 2) -> list[str]:
    """A sheet's rows as XML from its columns of values, the first at row ``first``; ``styles`` the columns'
    style indexes for the rows in turn: the first for plain rows (a blank cell left out), the others for banded
    ones (a blank cell written, its fill with it)."""
    tails = [_tails(c) for c in columns]
    heads = [f'<c r="{_col(j + 1)}' for j in range(len(tails))]
    out = []
    for i in range(len(tails[0]) if tails else 0):
        r = first + i
        turn = i % len(styles)
        style = styles[turn]
        if turn:
            cells = "".join([f'{heads[j]}{r}" s="{style[j]}"{t[i] or "/>"}' for j, t in enumerate(tails)])
        else:
            cells = "".join([f'{heads[j]}{r}" s="{style[j]}"{t[i]}' for j, t in enumerate(tails) if t[i]])
        out.append(f'<row r="{r}">{cells}</row>')
    return out


_SHEET_DATA_END: Final = b"</sheetData>"
_DIMENSION: Final = re.compile(rb'<dimension ref="[^"]*"/>')
#: A sheet's print titles as openpyxl writes them, rows then columns: written columns first, as Excel writes them.
_TITLES: Final = re.compile(rb'(<definedName name="_xlnm.Print_Titles"[^>]*>)([^,<]+!\$\d+:\$\d+),'
                            rb'([^,<]+!\$[A-Z]+:\$[A-Z]+)(</definedName>)')


def _with_rows(package: bytes, rows: Mapping[str, tuple[Sequence[str], str]]) -> bytes:
    """The package openpyxl saved, with each named sheet's rows after its header row (``{part: ([row XML],
    the sheet's dimension)}``), and the print titles in Excel's order (:data:`_TITLES`)."""
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(package)) as src, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as dst:
        for info in src.infolist():
            data = src.read(info.filename)
            if info.filename in rows:
                added, ref = rows[info.filename]
                at = data.index(_SHEET_DATA_END)
                data = b"".join((data[:at], "".join(added).encode("utf-8"), data[at:]))
                data = _DIMENSION.sub(f'<dimension ref="{ref}"/>'.encode(), data, count=1)
                dst.writestr(info.filename, data, compresslevel=1)
            else:
                if info.filename == "xl/workbook.xml":
                    data = _TITLES.sub(rb"\1\3,\2\4", data)
                dst.writestr(info, data)
    return out.getvalue()


__all__ = ["LEADERS", "PAGE_PLAYERS", "TOGETHER", "Standing", "season_start", "season_workbook", "standings",
           "write_season_workbook"]
