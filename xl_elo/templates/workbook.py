"""Assemble a template workbook from a federation's spec: every sheet every template has.

- ``instructions``: the settings (the period, the federation's options), the status (input
  problems, whether the results are valid), and what to do, in English then French, laid out
  one A4 page each (printed as a selection: only the results print by default), naming Excel's
  and LibreOffice's own menus where they differ;
- ``players``, ``games`` (and FESA's ``history``): the input cells, unlocked, with a
  ``problem`` column whose formulas check every cell as xl-elo's reader does (rules 8) and
  give the reason in words; a refused cell turns red;
- the federation's computed sheets (``work``, ``sides`` ...: the spec's);
- ``results``: a banner that says whether the results are valid ("3 input problems: these
  results are not valid ..."), the event and period, then one row per player sorted by new
  rating; while any input problem is open the results stay blank;
- ``lists`` (hidden): the accepted spellings and the published tables, from the package's
  one transcription.
"""

from __future__ import annotations

import contextlib
import math
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from openpyxl.comments import Comment
from openpyxl.formatting.rule import FormulaRule
from openpyxl.styles import Alignment, Border, Font
from openpyxl.utils import quote_sheetname
from openpyxl.worksheet.datavalidation import DataValidation
from openpyxl.worksheet.pagebreak import RowBreak
from openpyxl.worksheet.worksheet import Worksheet

from xl_elo.formats.workbook import HELPER_HEADINGS
from xl_elo.templates.builder import (
    BAD_FILL,
    BAND_FILL,
    FIRST,
    FORMULA_FILL,
    OK_FILL,
    RESULT_FILL,
    RESULTS_FIRST,
    SETTING_FILL,
    THIN,
    UNLOCKED,
    Book,
    Col,
    Input,
    Template,
    _computed_sheet,
    _index,
    check_formula,
    col,
    header_cells,
    print_nothing,
    protect,
    register,
    style_column,
    write_column,
)
from xl_elo.templates.common import TEXT_MARKS, problem_heading, text_diagnosis
from xl_elo.templates.grouping import group_by_player
from xl_elo.words import NAMES, F, _, heading, language, text_formula

#: The room (players x game sides) from which per-player sums are grouped by player (grouping.py): beyond every
#: shipped room (120 players of 1,200 games compute their SUMIFS in a blink and load and save faster without the
#: by_player sheet), a federation's month of 300 players and 3,000 games (xl-elo workbooks --players 300) has it.
GROUP_FROM = 1_000_000
_GROUP_FROM = [GROUP_FROM]


@contextlib.contextmanager
def grouped_from(size: int) -> Iterator[None]:
    """Group the per-player sums from rooms of ``size`` inside the block (the catalogues' upkeep says every phrase
    of a grouped room with a small one)."""
    _GROUP_FROM.append(size)
    try:
        yield
    finally:
        _GROUP_FROM.pop()

#: The height of a results row (points).
ROW_HEIGHT = 15.0
#: Players printed on one A4 page of the results sheet (its room prints on room / this pages).
PLAYERS_PER_PAGE = 40

#: How the instructions name each spreadsheet's menus where they differ (English: each catalogue has its own words,
#: the menus as each spreadsheet names them in that language).
MENUS = {
    "unprotect": "Excel: Review > Unprotect Sheet; LibreOffice: Tools > Protect Sheet (untick)",
    "selection": "select its cells, then File > Print > Print Selection (Excel) or File > Print > Selected cells "
                 "(LibreOffice)",
    "recalc": "Excel: Formulas > Calculate Now (F9); LibreOffice: Data > Calculate > Recalculate Hard (Ctrl+Shift+F9)",
    "save": "Excel: File > Save As > Excel Workbook (.xlsx); LibreOffice: File > Save As > Excel 2007-365 (.xlsx) or "
            "ODF Spreadsheet (.ods)",
    "paste": "Excel: Home > Paste > Paste Values; LibreOffice: Edit > Paste Special > Paste Special, Values Only",
}


def build_book(t: Template) -> Book:
    """The whole workbook of a template spec."""
    # a room up to GROUP_FROM sums each player's sides with SUMIFS as written (cheap to compute, nothing more to
    # load); a larger one by the player's rows (grouping.py), where a scan of every side per player would be slow
    t = group_by_player(t) if t.capacity.players * t.capacity.sides >= _GROUP_FROM[-1] else t
    book = Book(t.federation)
    ins = book.sheet("instructions")
    inputs_ = [(name, inputs) for name, inputs in (("players", t.players), ("games", t.games), ("history", t.history))
               if inputs is not None]
    for name, inputs in inputs_:
        _input_sheet(book, name, inputs, t)
    lists = book.sheet("lists")
    _lists(book, lists, t)
    for name, formula in t.names.items():
        book.define_computed(name, formula)
    if t.next_history is not None:  # each kept row's number, for the next history table's block (rules 14.3)
        spec = next(s for s in t.sheets if s.name == t.next_history)
        spec.add(Col("kept", "rows of the next history table so far", '=N([kept@prev])+IF([id]="",0,1)', "14.3"))
    for spec in t.sheets:
        register(book, spec)
    for spec in t.sheets:
        _computed_sheet(book, spec)
    for name, inputs in inputs_:  # the checks read the computed sheets (ids' look-up keys, pairs)
        _input_problems(book, name, inputs, t)
    _checks(book, t)
    results = book.sheet("results")
    _results(book, results, t)
    _instructions(book, ins, t)
    # sheet order: what a user reads first, then the inputs, the results, the working sheets
    order = ["instructions", "players", "games"] + (["history"] if t.history is not None else []) + ["results"]
    rest = [ws.title for ws in book.wb.worksheets if ws.title not in order]
    book.wb._sheets.sort(key=lambda ws: (order + rest).index(ws.title))
    for ws in book.wb.worksheets:
        if ws.title not in ("players", "games", "history", "instructions"):
            protect(ws)
    _computed_names(book, lists)
    book.define("XL_ELO_SHEETS", '"' + ",".join(ws.title for ws in book.wb.worksheets) + '"')
    lists.sheet_state = "hidden"
    book.wb.active = 0
    return book


def formula_cells(t: Template) -> int:
    """The cells of formulas the workbook of ``t`` holds: its computed sheets, the inputs' checks and the results
    (what decides how long a spreadsheet takes to open and recalculate it), counted from the spec."""
    t = group_by_player(t)
    n = sum((len(s.columns) + len(s.leading)) * (s.last - s.first + 1) for s in t.sheets)
    rooms = {"players": t.capacity.players, "games": t.capacity.games, "history": t.capacity.history}
    for name, inputs in (("players", t.players), ("games", t.games), ("history", t.history)):
        if inputs is not None:
            helpers = sum(1 + sum(mark in i.check for mark in TEXT_MARKS) for i in inputs if i.check)
            n += (helpers + 1) * rooms[name]
    return n + (len(t.results) + 1) * t.capacity.players


# --------------------------------------------------------------------------- inputs


def _input_sheet(book: Book, name: str, inputs: Sequence[Input], t: Template) -> Worksheet:
    ws = book.sheet(name)
    cap = {"players": t.capacity.players, "games": t.capacity.games, "history": t.capacity.history}[name]
    last = FIRST + cap - 1
    letters = book.letters[name]
    titles = []
    for j, inp in enumerate(inputs, start=1):
        letters[inp.name] = col(j)
        titles.append(heading(inp.name))
    problem_j = len(inputs) + 1
    letters["problem"] = col(problem_j)
    header_cells(ws, 1, [*titles, problem_heading()], [i.width for i in inputs] + [140])
    for j, inp in enumerate(inputs, start=1):
        c = ws.cell(1, j)
        c.comment = Comment(_(inp.title) + (f"\n{_(inp.prompt)}" if inp.prompt else ""), "xl-elo")
    for j, inp in enumerate(inputs, start=1):
        style_column(book, ws, j, FIRST, last, protection=UNLOCKED, number_format=inp.fmt)
    prefix = {"players": "player_", "games": "game_", "history": "history_"}[name]
    for j, inp in enumerate(inputs, start=1):
        book.name_range(prefix + inp.name, ws, j, FIRST, last)
        if inp.validation:
            _validation(ws, inp, f"{col(j)}{FIRST}:{col(j)}{last}")
    book.name_range(prefix + "problem", ws, problem_j, FIRST, last)
    # hidden helpers after the problem column (and the empty one that is its print area): what a number
    # typed as text is, computed once a row for the problem cell's words (common.text_diagnosis)
    j = problem_j + 2
    for inp in inputs:
        if inp.check:
            letters[f"{inp.name}__check"] = col(j)
            header_cells(ws, 1, [HELPER_HEADINGS[0].format(inp.name)], [20], start=j)
            ws.column_dimensions[col(j)].hidden = True
            j += 1
        for mark, whole in TEXT_MARKS.items():
            if inp.check and mark in inp.check:
                key = _helper(inp.name, mark)
                letters[key] = col(j)
                header_cells(ws, 1, [HELPER_HEADINGS[1].format(inp.name)], [12], start=j)
                ws.column_dimensions[col(j)].hidden = True
                formula = text_diagnosis(whole).replace("[x]", f"[{inp.name}]")
                write_column(book, ws, j, FIRST, last, _rendered(book, formula, name), FORMULA_FILL)
                j += 1
    ws.freeze_panes = "B2"
    ws.row_dimensions[1].height = 30
    # printing the workbook prints the results only: an input sheet prints nothing by default
    # (select its rows and print the selection), the column after the problem column staying empty
    print_nothing(book, ws, problem_j + 1)
    ws.print_title_rows = "1:1"
    ws.page_setup.orientation = "landscape"
    ws.page_setup.paperSize = ws.PAPERSIZE_A4
    ws.page_setup.fitToWidth = 1
    ws.page_setup.fitToHeight = 0
    ws.sheet_properties.pageSetUpPr.fitToPage = True
    protect(ws)
    return ws


def _input_problems(book: Book, name: str, inputs: Sequence[Input], t: Template) -> None:
    """The problem column: every check of every cell of a row, the reasons in words (rules 8)."""
    ws = book.wb[name]
    cap = {"players": t.capacity.players, "games": t.capacity.games, "history": t.capacity.history}[name]
    last = FIRST + cap - 1
    problem_j = len(inputs) + 1
    span = f"$A{{r}}:${col(len(inputs))}{{r}}"
    # a row holds something: a cell that is neither empty nor empty text (what Excel's paste of a formula's blank
    # leaves, which COUNTA counts and the reader reads as blank, as COUNTBLANK does in both spreadsheets)
    filled = f"COUNTBLANK({span})<{len(inputs)}"
    extra = {"players": t.player_checks, "games": t.game_checks}.get(name, [])

    # each input's check in a hidden column of its own (a formula stays far below Excel's 8,192 characters),
    # the problem cell joins them
    letters = book.letters[name]
    for inp in inputs:
        if inp.check:
            check = f'=IF({filled},{_own(inp.check, inp.name)},"")'
            check_formula(check, f"{name}!{inp.name} check")
            write_column(book, ws, _index(letters[f"{inp.name}__check"]), FIRST, last, _rendered(book, check, name),
                         FORMULA_FILL)

    def problem(r: int) -> str:
        parts = [f"[{inp.name}__check]" for inp in inputs if inp.check] + list(extra)
        body = "&".join(parts) if parts else '""'
        return book.render(f'=IF({filled.format(r=r)},{body},"")', r, name)

    check_formula(problem(FIRST), f"{name}!problem")
    # the reader's words are long: a problem reads to its end
    write_column(book, ws, problem_j, FIRST, last, problem, FORMULA_FILL,
                 alignment=Alignment(wrap_text=True, vertical="top"))
    # a refused cell turns red: its column's name opens a reason in the problem cell
    p = f"${col(problem_j)}{FIRST}"
    for j, inp in enumerate(inputs, start=1):
        ws.conditional_formatting.add(
            f"{col(j)}{FIRST}:{col(j)}{last}",
            FormulaRule(formula=[f'ISNUMBER(SEARCH("{inp.name}:",{p}))'], fill=BAD_FILL, stopIfTrue=False))
    ws.conditional_formatting.add(f"{col(problem_j)}{FIRST}:{col(problem_j)}{last}",
                                  FormulaRule(formula=[f'LEN({p})>0'], fill=BAD_FILL))


def _rendered(book: Book, template: str, sheet: str) -> Callable[[int], str]:
    """A formula template of ``sheet`` (``{r}``: the row) rendered at each row."""
    return lambda r: book.render(template.replace("{r}", str(r)), r, sheet)


def _helper(name: str, mark: str) -> str:
    """The hidden helper column of an input that a check's mark reads (``rating__wholetext``)."""
    return f"{name}__{mark.strip('[]').removeprefix('x_')}"


def _own(check: str, name: str) -> str:
    """An input's check over its own cell and helpers."""
    for mark in TEXT_MARKS:
        check = check.replace(mark, f"[{_helper(name, mark)}]")
    return check.replace("[x]", f"[{name}]")


def _validation(ws: Worksheet, inp: Input, ref: str) -> None:
    kind = inp.validation[0] if inp.validation else ""
    message = _(inp.title)
    if kind == "list":
        dv = DataValidation(type="list", formula1=inp.validation[1], allow_blank=True,  # type: ignore[index]
                            showErrorMessage=True,
                            errorStyle="warning", errorTitle=heading(inp.name)[:32], error=message,
                            showInputMessage=True, promptTitle=heading(inp.name)[:32], prompt=message[:250])
    else:
        dv = DataValidation(type=kind, operator="between", formula1=str(inp.validation[1]),  # type: ignore[index]
                            formula2=str(inp.validation[2]), allow_blank=True, showErrorMessage=True,  # type: ignore[index]
                            errorStyle="stop", errorTitle=heading(inp.name)[:32], error=message[:250])
    dv.add(ref)
    ws.add_data_validation(dv)


# --------------------------------------------------------------------------- lists


def _lists(book: Book, ws: Worksheet, t: Template) -> None:
    """Accepted spellings and published tables, each column a workbook name."""
    from xl_elo.core import RESULT_SPELLINGS, RESULT_TIMES, ResultKind
    from xl_elo.schema import NO, YES

    column = 1

    def block(title: str, names: Sequence[str], rows: Sequence[Sequence[Any]]) -> None:
        nonlocal column
        for j, name in enumerate(names):
            c = ws.cell(1, column + j, f"{title}: {name}" if j == 0 else name)
            c.fill = FORMULA_FILL
            c.font = Font(bold=True)
            ws.column_dimensions[col(column + j)].width = 14
        for r, row in enumerate(rows, start=2):
            for j, v in enumerate(row):
                ws.cell(r, column + j, v)
        for j, name in enumerate(names):
            book.name_range(name, ws, column + j, 2, max(2, len(rows) + 1))
        column += len(names) + 1
        book.lists_next = column

    results = [(key, "" if r.score is None else r.score, r.kind.value) for key, r in RESULT_SPELLINGS.items()]
    block("results", ["result_key", "result_score", "result_kind"], results)
    # spellings a spreadsheet reads as a time of day when typed (1:0 is 01:00), by their minutes (the reader's)
    times = [(minutes, "" if r.score is None else r.score, r.kind.value) for minutes, (_, r) in RESULT_TIMES.items()]
    block("results typed as times", ["result_time", "result_time_score", "result_time_kind"], times)
    block("yes/no", ["yes_no_key", "yes_no_value"],
          [(k, 1) for k in sorted(YES)] + [(k, 0) for k in sorted(NO)])
    for title, names, rows in t.lists:
        block(title, names, rows)
    assert ResultKind.PLAYED  # the kinds' words are the engine's (rules 1.1)


def _computed_names(book: Book, ws: Worksheet) -> None:
    """Each name of a value computed once, as a cell of the lists sheet (:meth:`Book.define_computed`)."""
    column = book.lists_next
    head = ws.cell(1, column, "computed once: name")
    head.fill, head.font = FORMULA_FILL, Font(bold=True)
    ws.cell(1, column + 1, "value").font = Font(bold=True)
    ws.column_dimensions[col(column)].width = 16
    for r, (name, formula) in enumerate(book.computed, start=2):
        ws.cell(r, column, name)
        text = formula if formula.startswith("=") else f"={formula}"
        check_formula(text, f"lists!{name}")
        ws.cell(r, column + 1, text)
        book.name_cell(name, ws, f"{col(column + 1)}{r}")


# --------------------------------------------------------------------------- checks and status


def _checks(book: Book, t: Template) -> None:
    """The names every results formula and the banner read: the problem count and where the first are."""
    sheets = ["players", "games"] + (["history"] if t.history is not None else [])
    prefix = {"players": "player_", "games": "game_", "history": "history_"}
    caps = {"players": t.capacity.players, "games": t.capacity.games, "history": t.capacity.history}
    parts = [f'COUNTIF({prefix[s]}problem,"?*")' for s in sheets]
    # rows typed below the template's room are counted too (they would be silently ignored)
    for s in sheets:
        last = FIRST + caps[s] - 1
        width = len(book.letters[s]) - 1
        below = f"{quote_sheetname(s)}!$A${last + 1}:${col(width)}${last + 5000}"
        book.define_computed(f"{s}_overflow", f"{5000 * width}-COUNTBLANK({below})")
        parts.append(f"IF({s}_overflow>0,1,0)")
    parts.append('COUNTIF(setting_problem,"?*")')
    book.define_computed("problem_count", "+".join(parts))
    blocked = "+".join(f"IF({cond},1,0)" for cond, _ in t.blockers) or "0"
    book.define_computed("blocked", blocked)
    book.define_computed("inputs_ok", "AND(problem_count=0,blocked=0)")


def _first_rows(sheets: Sequence[str]) -> str:
    """', players row 7, games row 12' (the first problem row of each sheet), in the language of the work."""
    prefix = {"players": "player_", "games": "game_", "history": "history_"}
    bits = []
    for s in sheets:
        row = text_formula("{sheet} row {row}", sheet=s, row=F(f'MATCH("?*",{prefix[s]}problem,0)+{FIRST - 1}'))
        below = text_formula("{sheet}: rows below row {row}", sheet=s, row=F(f"ROWS({prefix[s]}problem)+{FIRST - 1}"))
        bits.append(f'IF(COUNTIF({prefix[s]}problem,"?*")>0,", "&{row},"")')
        bits.append(f'IF({s}_overflow>0,", "&{below},"")')
    bits.append(f'IF(COUNTIF(setting_problem,"?*")>0,", "&{text_formula("settings")},"")')
    return "&".join(bits)


def banner_formula(t: Template) -> str:
    """The results sheet's banner: valid, or why not and where to look."""
    sheets = ["players", "games"] + (["history"] if t.history is not None else [])
    where = f"MID({_first_rows(sheets)},3,300)"
    def invalid(why: str) -> str:
        return text_formula("{why}: these results are not valid", why=why if isinstance(why, F) else _(why))

    blocked = "".join(f"IF({cond},{invalid(why)}," for cond, why in t.blockers)
    ok = text_formula("Results valid: every input checked")
    one = text_formula("1 input problem: these results are not valid; see {where}", where=F(where))
    many = text_formula("{count} input problems: these results are not valid; see {where}", count=F("problem_count"),
                        where=F(where))
    return f'=IF(problem_count=0,{blocked}{ok}{")" * len(t.blockers)},IF(problem_count=1,{one},{many}))'


# --------------------------------------------------------------------------- results


def _results(book: Book, ws: Worksheet, t: Template) -> None:
    first, last = RESULTS_FIRST, RESULTS_FIRST + t.capacity.players - 1
    # the columns a rating officer reads first (they print), the intermediates after (never printed)
    cols = [c for c in t.results if c.printed] + [c for c in t.results if not c.printed]
    n = len(cols)
    pos_j = n + 1
    letters = book.letters["results"]
    for j, c in enumerate(cols, start=1):
        letters[c.name] = col(j)
    letters["pos"] = col(pos_j)
    printed = [c for c in cols if c.printed]
    last_printed = max(j for j, c in enumerate(cols, start=1) if c.printed)
    # row 1: the banner; row 2: the event; row 3: the header
    ws.merge_cells(start_row=1, start_column=1, end_row=1, end_column=last_printed)
    banner = ws.cell(1, 1, banner_formula(t))
    banner.font = Font(bold=True, size=12)
    banner.alignment = Alignment(horizontal="left", vertical="center", wrap_text=True)
    ws.row_dimensions[1].height = 36
    book.name_cell("results_banner", ws, "A1")
    ws.conditional_formatting.add("A1", FormulaRule(formula=["NOT(inputs_ok)"], fill=BAD_FILL))
    ws.conditional_formatting.add("A1", FormulaRule(formula=["inputs_ok"], fill=OK_FILL))
    ws.merge_cells(start_row=2, start_column=1, end_row=2, end_column=last_printed)
    sorted_ = text_formula(" (sorted by new rating)")
    room = text_formula("room for {players} players", players=t.capacity.players)
    title = ws.cell(2, 1, f'={text_formula(t.title)}&IF(event_name="",""," - "&event_name)&'
                          f'IF(period="",""," - "&IF(ISNUMBER(period),TEXT(period,"yyyy-mm"),period))&{sorted_}'
                          f'&" - "&{room}')
    title.font = Font(bold=True, size=11)
    titles = [_(c.title) for c in cols]
    # every word on one line, the row as tall as the tallest title once wrapped (bold header font)
    widths = [max(c.width, 1.15 * max(len(w) for w in title.split()) + 1.5)
              for c, title in zip(cols, titles, strict=True)]
    lines = [sum(math.ceil(1.15 * len(part) / (w - 1)) for part in title.split("\n"))
             for title, w in zip(titles, widths, strict=True)]
    header_cells(ws, 3, titles + ["pos"], widths + [5], height=13.5 * max(lines) + 4)
    for j, c in enumerate(cols, start=1):
        if c.heading is not None:  # computed from the settings (a season's months)
            check_formula("=" + c.heading, f"results!{c.name} heading")
            ws.cell(3, j).value = "=" + c.heading
    source = t.results_source
    prefix = {"work": "w_"}.get(source, source + "_")
    pos = f"${col(pos_j)}{{r}}"
    # the player shown on results row r: the one ranked r - 3 by new rating (work column rank);
    # nothing while an input problem is open
    write_column(book, ws, pos_j, first, last,
                 lambda r: f'=IF(NOT(inputs_ok),"",IFERROR(MATCH(ROW()-{first - 1},{prefix}rank,0),""))', None)
    def shown(name: str) -> Callable[[int], str]:
        """Results row r's cell of column ``name``: the ranked player's value."""
        return lambda r: f'=IF({pos.format(r=r)}="","",INDEX({prefix}res_{name},{pos.format(r=r)}))'

    for j, c in enumerate(cols, start=1):
        write_column(book, ws, j, first, last, shown(c.name), None, c.fmt)
        book.name_range(f"r_{c.name}", ws, j, first, last)
    centred = [j for j, c in enumerate(cols, start=1) if c.fmt == "General" and c.name not in ("id", "name", "note")]
    notes = [j for j, c in enumerate(cols, start=1) if c.name == "note"]
    for r in range(first, last + 1):
        ws.cell(r, 2).alignment = Alignment(horizontal="left")
        for j in centred:  # short words beside right-aligned numbers
            ws.cell(r, j).alignment = Alignment(horizontal="center")
        for j in notes:  # apart from the number before it, whole on one line: a longer note is written smaller
            # (a wrapped note would need a taller row, which neither spreadsheet sizes for a formula's text: the
            # lines would run over the next row's)
            ws.cell(r, j).alignment = Alignment(horizontal="left", vertical="top", shrink_to_fit=True, indent=1)
    ws.column_dimensions[col(pos_j)].hidden = True
    for j, c in enumerate(cols, start=1):
        if not c.printed:  # intermediates: on screen beside the results, never on paper
            ws.column_dimensions[col(j)].outlineLevel = 1
    rng = f"A{first}:{col(n)}{last}"
    # the new ratings stand out on a player's row only (a fill over the whole room would print as an empty bar
    # below the last player); this rule first, so that it wins over the bands
    for j, c in enumerate(cols, start=1):
        if c.name in ("rating_after", "grade_after"):
            ws.conditional_formatting.add(f"{col(j)}{first}:{col(j)}{last}",
                                          FormulaRule(formula=[f'$A{first}<>""'], fill=RESULT_FILL, stopIfTrue=True))
    ws.conditional_formatting.add(rng, FormulaRule(formula=[f'AND($A{first}<>"",MOD(ROW(),2)=0)'], fill=BAND_FILL))
    thin = Border(bottom=THIN)
    for j in range(1, n + 1):
        ws.cell(3, j).border = thin
    ws.freeze_panes = f"C{first}"
    # printing: landscape A4, one page wide, the banner, event and header on every page; the print area is
    # the printed columns over the whole room, a plain range (LibreOffice ignores a print area that is a
    # formula); a workbook xl-elo fills gets the event's rows only (xl_elo.formats.workbook.write_cells)
    ws.page_setup.orientation = "landscape"
    ws.page_setup.paperSize = ws.PAPERSIZE_A4
    ws.print_options.horizontalCentered = True
    ws.page_margins.left = ws.page_margins.right = 0.4
    ws.page_margins.top = ws.page_margins.bottom = 0.5
    for r in range(first, last + 1):  # the same height in Excel and LibreOffice (their defaults differ)
        ws.row_dimensions[r].height = ROW_HEIGHT
    # one page wide, PLAYERS_PER_PAGE players a page at least: the room of one page prints on one, whatever each
    # spreadsheet's fonts (a scale in percent would depend on them; a fit to pages overrides page breaks)
    ws.page_setup.fitToWidth = 1
    ws.page_setup.fitToHeight = -(-t.capacity.players // PLAYERS_PER_PAGE)
    ws.sheet_properties.pageSetUpPr.fitToPage = True
    ws.print_title_rows = "1:3"
    ws.print_area = f"A1:{col(last_printed)}{last}"
    del printed
    _next_tables(book, ws, t, pos_j + 2)


#: The first row of an input sheet a block of the results sheet is pasted at (``A2``), and the results sheet's row
#: of its first player: a block's row r holds the input row r - NEXT_SHIFT.
NEXT_SHIFT = RESULTS_FIRST - FIRST


def _next_tables(book: Book, ws: Worksheet, t: Template, start: int) -> None:
    """The next players table (and history table) beside the results (rules 14.3): the players sheet's columns in
    its order, each from the results column the next period reads it from (``t.carry``) or, not carried, as typed;
    one row per players row, so that its values pasted into a fresh copy's players sheet at A2 are the list after
    these results. Blank while any input problem is open. Never printed (it is beside the print area)."""
    if not t.carry:
        return
    source = t.results_source
    work = book.letters[source]
    missing = [c for c in t.carry.values() if f"res_{c}" not in work]
    if missing:
        raise ValueError(f"{t.federation}: the next players table reads results columns the template lacks: "
                         f"{', '.join(missing)}")
    first, last = RESULTS_FIRST, RESULTS_FIRST + t.capacity.players - 1
    src = quote_sheetname(source)
    key = f"{src}!${work['res_id']}{{w}}"
    columns: list[tuple[str, str, Callable[[int], str], float]] = []
    for inp in t.players:
        if inp.name in t.carry:
            cell = f"{src}!${work['res_' + t.carry[inp.name]]}{{w}}"
            value = cell
        else:
            cell = f"players!${book.letters['players'][inp.name]}{{w}}"
            value = f'IF(ISBLANK({cell}),"",{cell})'
        columns.append((inp.name, heading(inp.name), _block_cell(key, value), inp.width))
    _block(book, ws, start, first, last, "next_players", columns, _(
        "Next players table (rules 14.3), the list after these results: copy rows {first} to {last} (the name "
        "next_players) and paste only their values into the 'players' sheet of a fresh copy at A2 (instructions, "
        "step 8)", first=first, last=last))
    if t.next_history is None or t.history is None:
        return
    spec = next(s for s in t.sheets if s.name == t.next_history)
    h_last = RESULTS_FIRST + t.capacity.history - 1
    at = f"${col(start + len(columns) + 1)}{{r}}"
    prefix = spec.prefix
    def row_at(r: int) -> str:
        return f'=IF(NOT(inputs_ok),"",IFERROR(MATCH(ROW()-{RESULTS_FIRST - 1},{prefix}kept,0),""))'

    hist: list[tuple[str, str, Callable[[int], str], float]] = [("at", _("row"), row_at, 6)]
    def picked(name: str) -> Callable[[int], str]:
        return lambda r: f'=IF({at.format(r=r)}="","",INDEX({prefix}{name},{at.format(r=r)}))'

    for inp in t.history:
        hist.append((inp.name, heading(inp.name), picked(inp.name), inp.width))
    words = "=" + text_formula("Next history table (rules 14.3): {count} rows, room for {room}; paste only their "
                               "values into the 'history' sheet of the fresh copy at A2 (the name next_history)",
                               count=F(f"MAX({prefix}kept)"), room=t.capacity.history)
    _block(book, ws, start + len(columns) + 1, first, h_last, "next_history", hist, words, skip=1)


def _block_cell(key: str, value: str) -> Callable[[int], str]:
    """A next table's cell at results row r: ``value`` for the players row it stands for, blank for an empty row
    and while an input problem is open."""
    def cell(r: int) -> str:
        w = r - NEXT_SHIFT
        return f'=IF(inputs_ok,IF({key.format(w=w)}="","",{value.format(w=w)}),"")'
    return cell


def _block(book: Book, ws: Worksheet, start: int, first: int, last: int, name: str,
           columns: Sequence[tuple[str, str, Callable[[int], str], float]], title: str, skip: int = 0) -> None:
    """A table to paste beside the results: its title above (words, or a formula of them; wrapped over its columns,
    which widen to hold it in two lines), its headings in row 3, its rows from ``first`` to ``last``; named ``name``
    (the columns after the first ``skip``, which are working columns)."""
    letters = book.letters["results"]
    for j, (key, _title, formula, _width) in enumerate(columns, start=start):
        letters[f"{name}_{key}"] = col(j)
        write_column(book, ws, j, first, last, formula, None)
    # each heading's longest word on one line (the players sheet's widths are for the values typed)
    widths = [max(w, 1.2 * max(len(word) for word in (t or " ").split()) + 2) for _, t, _, w in columns]
    header_cells(ws, 3, [t for _, t, _, _ in columns], widths, start=start)
    end = start + len(columns) - 1
    room = sum(widths[skip:])
    need = 1.1 * len(title) / 3 + 4  # three lines: the banner's row and the title's
    if need > room:  # two lines over the block's columns: its widest column takes what is missing
        widest = max(range(skip, len(columns)), key=lambda k: widths[k])
        ws.column_dimensions[col(start + widest)].width = widths[widest] + need - room
    ws.merge_cells(start_row=1, start_column=start + skip, end_row=2, end_column=end)
    head = ws.cell(1, start + skip, title)
    head.alignment = Alignment(wrap_text=True, vertical="top")
    head.font = Font(bold=True)
    book.define(name, f"{quote_sheetname(ws.title)}!${col(start + skip)}${first}:${col(end)}${last}")


# --------------------------------------------------------------------------- instructions


def _instructions(book: Book, ws: Worksheet, t: Template) -> None:
    ws.column_dimensions["A"].width = 30
    ws.column_dimensions["B"].width = 22
    ws.column_dimensions["C"].width = 72
    ws["A1"] = _("{title} - room for {players} players", title=_(t.title), players=t.capacity.players)
    ws["A1"].font = Font(bold=True, size=14)
    ws["A2"] = _("xl-elo template ({code}), rules: docs/rules.md; language: {language}", code=t.federation.upper(),
                 language=NAMES.get(language(), language()))
    ws["A2"].font = Font(italic=True)
    r = 4
    ws.cell(r, 1, _("Settings")).font = Font(bold=True, size=12)
    r += 1
    problems_first = None
    for s in t.settings:
        ws.cell(r, 1, _(s.label)).alignment = Alignment(wrap_text=True, vertical="top")
        c = ws.cell(r, 2, s.default)
        c.protection = UNLOCKED
        c.fill = SETTING_FILL
        c.number_format = "@"
        c.alignment = Alignment(vertical="top")
        c.border = Border(left=THIN, right=THIN, top=THIN, bottom=THIN)
        book.name_cell(s.name, ws, f"B{r}")
        book.letters["instructions"][s.name] = "B"
        help_ = _(s.help) if s.help else ""
        h = ws.cell(r, 3, help_)
        h.alignment = Alignment(wrap_text=True, vertical="top")
        ws.row_dimensions[r].height = 15 * max(1, -(-len(help_) // 80))
        if s.choices:
            dv = DataValidation(type="list", formula1='"' + ",".join(s.choices) + '"', allow_blank=False,
                                showErrorMessage=True, errorStyle="stop", errorTitle=s.name[:32],
                                error=", ".join(s.choices))
            dv.add(f"B{r}")
            ws.add_data_validation(dv)
        r += 1
    # the settings' problems: one cell each, in column D (not printed), named setting_problem
    first_setting = 5
    last_setting = r - 1
    ws.column_dimensions["D"].width = 40
    for rr, s in zip(range(first_setting, last_setting + 1), t.settings, strict=True):
        formula = f'={s.check.replace("[x]", f"$B${rr}")}' if s.check else '=""'
        check_formula(formula, f"instructions!{s.name}")
        c = ws.cell(rr, 4, formula)
        c.fill = FORMULA_FILL
        c.font = Font(color="C00000")
        problems_first = problems_first or rr
    book.define("setting_problem", f"instructions!$D${first_setting}:$D${max(first_setting, last_setting)}")
    # the period's year for ages and birth years (rules 2.3, 3.2): from text YYYY-MM or a date cell
    book.define_computed("period_year", 'IF(ISNUMBER(period),YEAR(period),IFERROR(--LEFT(period,4),""))')
    ws.conditional_formatting.add(f"B{first_setting}:B{last_setting}",
                                  FormulaRule(formula=[f'LEN($D{first_setting})>0'], fill=BAD_FILL))
    r += 1
    ws.cell(r, 1, _("Status")).font = Font(bold=True, size=12)
    r += 1
    pages = -(-t.capacity.players // PLAYERS_PER_PAGE)
    status = [("Input problems", "=problem_count"), ("Results", "=results_banner"), *t.status]
    if pages > 1:  # a larger room prints its whole room: the pages to print
        status.append(("Pages to print", "=" + text_formula("1 to {last} (of {pages}): File > Print > Pages",
                                                            last=F(f"MAX(1,ROUNDUP(COUNTA(player_id)/"
                                                                   f"{PLAYERS_PER_PAGE},0))"), pages=pages)))
    for label, formula in status:
        ws.cell(r, 1, _(label)).alignment = Alignment(vertical="top", wrap_text=True)
        ws.merge_cells(start_row=r, start_column=2, end_row=r, end_column=3)
        c = ws.cell(r, 2, formula)
        c.fill = FORMULA_FILL
        c.alignment = Alignment(wrap_text=True, vertical="top", horizontal="left")
        ws.row_dimensions[r].height = 30
        r += 1
    ws.conditional_formatting.add(f"B{r - len(status)}:C{r - len(status) + 1}",
                                  FormulaRule(formula=["problem_count>0"], fill=BAD_FILL))
    r += 1
    ws.cell(r, 1, _("How to use it")).font = Font(bold=True, size=12)
    r += 1
    for line in _steps(t) + [_(x) for x in t.rules]:
        ws.merge_cells(start_row=r, start_column=1, end_row=r, end_column=3)
        c = ws.cell(r, 1, line)
        c.alignment = Alignment(wrap_text=True, vertical="top")
        ws.row_dimensions[r].height = 15 * max(1, -(-len(line) // 110) + line.count("\n"))
        r += 1
    print_nothing(book, ws, 8)  # column H stays empty; laid out for A4 portrait when printed as a selection
    ws.page_setup.orientation = "portrait"
    ws.page_setup.paperSize = ws.PAPERSIZE_A4
    ws.page_setup.fitToWidth = 1
    ws.page_setup.fitToHeight = 0
    ws.sheet_properties.pageSetUpPr.fitToPage = True
    ws.freeze_panes = None
    protect(ws)


def _steps(t: Template) -> list[str]:
    """What to do, step by step, in the language of the work."""
    cap = t.capacity
    m = {k: _(v) for k, v in MENUS.items()}
    pages = -(-cap.players // PLAYERS_PER_PAGE)
    printing = _("File > Print, in Excel and LibreOffice alike: the results sheet prints on one A4 page, landscape, "
                 "the columns to read and never the working ones") if pages == 1 else \
        _("File > Print, in Excel and LibreOffice alike: the results sheet prints on A4 landscape, {players} players "
          "a page at least, the banner and the header on every page; it prints its whole room ({pages} pages), the "
          "filled rows first: print the pages the status above names", players=PLAYERS_PER_PAGE, pages=pages)
    return [
        _("1. Set the settings above (yellow cells). Type the players on the 'players' sheet, one per row (room for "
          "{players}; a bigger event has a template of its own, named for its room): the id is required, unique, "
          "and spelled exactly the same in the games.", players=cap.players),
        _("2. Type the games on the 'games' sheet, one row per game (room for {games}), each game once, the result "
          "from the first player's side: 1, 0.5, 0, 1-0, ½-½, 0-1, =, W/D/L. Forfeits (+, -, F) and byes (blank "
          "opponent) are kept and never rated. A pair that meets twice needs round numbers.", games=cap.games),
        _("3. Every cell is checked as you type: a refused cell turns red and its row's 'problem' cell says why. "
          "While any problem is open the 'results' sheet shows a red banner and no rating: a workbook never shows a "
          "wrong rating."),
        _("4. Read the new ratings on the 'results' sheet, sorted by new rating (unrated players last). Grey cells "
          "are locked formulas; to change one anyway: {unprotect}. The other sheets show every intermediate, each "
          "column headed by the rule it applies (docs/rules.md).", unprotect=m["unprotect"]),
        _("5. To print: {printing}. Only the results sheet prints; to print another sheet (these instructions, the "
          "players, the games), {selection}.", printing=printing, selection=m["selection"]),
        _("6. If a value does not update: {recalc}. To keep your work: {save}.", recalc=m["recalc"], save=m["save"]),
        _("7. For a second opinion: xl-elo rate this-file.xlsx (it never writes over this file); it says whether "
          "these formulas and the xl-elo engine agree, and names the input cells behind any difference."),
    ] + ([_("8. To carry the list on: on the 'results' sheet, right of the working columns, the next players table "
            "is the list after these results, headed and ordered as the 'players' sheet (each rating and fact as the "
            "next one reads it, rules 14.3). Select its rows {first} to {last} (or type next_players in the Name "
            "Box), copy them, and paste only their values into the 'players' sheet of a fresh copy of this template "
            "at A2 ({paste}).", first=RESULTS_FIRST, last=RESULTS_FIRST + cap.players - 1, paste=m["paste"])
          + ("" if t.next_history is None else " " + _(
              "The next history table beside it goes the same way into the fresh copy's 'history' sheet at A2 (its "
              "name: next_history)."))] if t.carry else [])


__all__ = ["MENUS", "PLAYERS_PER_PAGE", "RowBreak", "banner_formula", "build_book", "formula_cells", "print_nothing"]
