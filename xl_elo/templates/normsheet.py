"""The norm sheet: the title norm certificate's table of opponents, with native formulas (rules 13).

One sheet a tournament director fills by hand, or that ``xl-elo norms REPORT.trf --sheet ID -o norm.xlsx`` fills
for one player: the player, the event, and one row per round (IT1's fields: opponent, title, federation, FIDE id,
rating, result; a mark for a game set aside, and a note). Native formulas, no macro, no Python, give for each of
the four titles the figures and the verdict of rules 13 for the games listed: the games counted, Ra with the
floor and unrated opponents, p, dp, Rp, the score needed and the games the norm counts, the opponents' titles
and federations against the minimums, and the first rule that fails in the command line's words. Every figure
comes from the system's declared norms (:class:`xl_elo.federations.contract.TitleNorms`): the titles' figures, the
shares and the dp table are written from the engine's constants, never typed. It prints on one A4 page.
"""

from __future__ import annotations

import os
import textwrap
from collections.abc import Sequence
from fractions import Fraction
from pathlib import Path
from typing import Any

from openpyxl.styles import Alignment, Border, Font, PatternFill, Side
from openpyxl.worksheet.datavalidation import DataValidation

from xl_elo import words
from xl_elo.federations.contract import TitleNorms
from xl_elo.templates.builder import (
    FORMULA_FILL,
    HEADER_FILL,
    HEADER_FONT,
    SETTING_FILL,
    Book,
    check_formula,
    col,
    save,
)

SHEET = "norm"
LISTS = "lists"
#: The table of opponents: one row per round, the Annex's longest tournament.
FIRST = 13
ROUNDS = 19
LAST = FIRST + ROUNDS - 1
#: The input cells: what a director types above the table.
CELLS = {
    "player": "C4", "fide_id": "H4", "federation": "C5", "player_title": "H5", "event": "C6", "rounds": "C7",
    "players": "H7", "system": "C8", "kind": "H8", "exemption": "C9", "host": "H9",
}
#: Each input's label (English: said in the language of the work, :mod:`xl_elo.words`) and the cells it spans.
INPUT_LABELS = {
    "player": ("Player", "C4:E4"), "fide_id": ("FIDE id", "H4:I4"),
    "federation": ("Federation", "C5:E5"), "player_title": ("Title held", "H5:I5"),
    "event": ("Event", "C6:I6"), "rounds": ("Rounds", "C7:E7"), "players": ("Players", "H7:I7"),
    "system": ("Pairing system", "C8:E8"), "kind": ("Kind of event", "H8:I8"),
    "exemption": ("Exemption (1.4.3)", "C9:E9"), "host": ("Host federation", "H9:I9"),
}
#: The table's columns, printed: round, opponent, title, federation, FIDE id, rating, result, set aside, note.
TABLE = ("A", "B", "C", "D", "E", "F", "G", "H", "I")
#: The summary: one column per title, from C; its rows, shown, then the working rows below (hidden).
SUMMARY_TOP = LAST + 2
TITLE_COLUMNS = ("C", "D", "E", "F")
SHOWN = ("games", "score", "lowest", "floor", "ra", "p", "dp", "rp", "rp_needed", "ra_needed", "score_needed",
         "norm_games", "holders", "titled", "others", "own", "one", "verdict", "reason")
WORK = ("n", "pts", "low", "sum", "pidx", "least", "byes", "games_ok", "counts", "exempt", "h", "h_need", "t",
        "t_need", "o", "own_n", "own_max", "one_n", "one_code", "one_max", "drr_ok", "pmin", "s_perf", "s_min",
        "need", "norm", "extra", "problems")
#: The working columns beside the table (hidden, never printed): name -> letter.
HELPERS = {name: col(12 + i) for i, name in enumerate(
    ("code", "counted", "pts", "rating", "holder", "t0", "t1", "t2", "t3", "fed", "other", "own", "count",
     "d0", "d1", "d2", "d3", "problem"))}

LABELS = {
    "games": ("Games counted", "1.4.1"), "score": ("Score", ""), "lowest": ("Lowest rating as counted", "1.4.6d"),
    "floor": ("Its floor", "1.4.6b"), "ra": ("Ra, rounded", "1.4.7"), "p": ("p", "1.4.9"), "dp": ("dp", "1.4.9"),
    "rp": ("Rp = Ra + dp", "1.4.8"), "rp_needed": ("Rp needed", "1.4.8"), "ra_needed": ("Ra needed", "1.4.8a"),
    "score_needed": ("Score needed", "1.4.8"), "norm_games": ("Games for the title", "1.4.1, 1.7"),
    "holders": ("Title-holders / needed", "1.4.5a"), "titled": ("This title or higher / needed", "1.4.5b-f"),
    "others": ("Other federations / needed", "1.4.3"), "own": ("Own federation / at most", "1.4.4"),
    "one": ("One federation / at most", "1.4.4"), "verdict": ("Norm", "1.4"), "reason": ("Why", ""),
}
#: The table's headings, printed, and their columns' widths (characters); the note's column at least.
HEADINGS = ("Rd", "Opponent", "Title", "Fed", "FIDE id", "Rating", "Result", "Set aside", "Note")
WIDTHS = (4, 26, 6, 6, 10, 7, 7, 7, 27)
NOTE_WIDTH = 18
#: The sheet's other words (the catalogues' context ``norms``; the reasons are the engine's words, no context, so
#: that ``xl-elo norms`` says them alike: :func:`xl_elo.words.translate`).
HEAD = "FIDE title norm: table of opponents"
INTRO = ("FIDE Title Regulations B.01 (applied from 1 January 2024), section 1.4; xl-elo rules {rules}. Type the "
         "yellow cells and the table; the grey ones compute.")
ONE_OF = "one of {options}"
FOR_EACH = "For each title (B.01 1.4)"
NORM = "norm"
PROBLEMS = ("not a result", "not a rating", "check the table: {count} cell(s) not read (column {column})")
LEGEND = ("Results: 1, ½ (0.5), 0; + or - a forfeit, bye (pairing-allocated), h a half-point bye, z absent: those "
          "rounds never count (1.4.2c). Set aside: x for a game not counted (a beaten opponent, 1.4.1f; a later "
          "round, 1.4.1e). Unrated opponents count {unrated}; the lowest opponent below the floor counts at it "
          "(1.4.6). {games} games and a bye or forfeit win in a {rounds}-round event count as {counts} (1.4.1c).")
#: The legend's line (characters of its small italics beside the summary) and its lines at most.
LEGEND_WIDTH = 50
LEGEND_LINES = len(SHOWN) - 1
#: The rounds of a filled sheet without a game.
STILL_TO_PLAY = "still to play"
NOT_PAIRED = "not paired"
#: The columns xl-elo norms' table shows (every column is in CSV and JSON), each heading said in the language asked
#: (context ``norms``), and the forecast's when a round is left.
TABLE_COLUMNS = ("start_rank", "name", "title", "eligible", "norm", "games", "score", "ra", "rp", "norm_games",
                 "reason")
#: What the forecast says (rules 13.9), as the engine says it: its figures as placeholders.
FORECAST = ("{m} rounds left: {points}", "{m} round left: {points}",
            "needs {points} from {m} against {rating}-rated opponents for Rp {performance}",
            "out of reach: even {m} from {m} gives no {title} performance against {rating} opposition",
            "the mix can still hold", "the mix can still hold with {short}", "the mix cannot hold: {short}",
            "{k} more title-holders", "{k} more title-holder", "{k} more {titles}", "{k} more federations",
            "{k} more federation", "too many opponents of one federation already (1.4.4)",
            "only {n} games at most (1.4.1)")
#: Why a round is set aside, as the engine says it (the note of a filled sheet's row).
ASIDE = ("forfeit win (1.4.2c)", "forfeit loss (1.4.2c)",
         "less than one move played: not decided over the board (1.4.2c)", "pairing-allocated bye",
         "full-point bye, read as pairing-allocated (rules 13.12)", "half-point bye", "absent (zero-point bye)",
         "no opponent named", "a later round, ignored (1.4.1e)", "win against {name} set aside (1.4.1f)",
         "against {name}, unrated, who scored nothing against rated opponents in a round-robin (1.4.2b)",
         "forfeit win counted as a loss (1.4.2c)")


def reasons(engine: Any) -> tuple[str, ...]:
    """Every phrase a norm check's engine gives as a reason, its figures as placeholders (rules 13)."""
    return (*engine.FAIL_GAMES, *engine.FAIL_KINDS, engine.FAIL_NO_FEDERATION, engine.FAIL_OTHERS,
            engine.FAIL_CROWDED, engine.FAIL_HOLDERS, engine.FAIL_DRR, *engine.FAIL_TITLED, engine.FAIL_RA,
            engine.FAIL_SHARE, engine.FAIL_RP, engine.FAIL_NONE, *engine.NORM_SAID)


def phrases() -> None:
    """Ask for every phrase the sheet says, the engine's reasons and forecasts, and the headings of ``xl-elo norms``'
    table (the catalogues list them: :mod:`xl_elo.templates.catalogues`)."""
    _ = words._
    for label, _span in INPUT_LABELS.values():
        _(label, context="norms")
    for text in (*HEADINGS, HEAD, FOR_EACH, NORM, *PROBLEMS[:2], STILL_TO_PLAY, NOT_PAIRED):
        _(text, context="norms")
    for label, _rule in LABELS.values():
        _(label, context="norms")
    _(INTRO, context="norms", rules="")
    _(ONE_OF, context="norms", options="")
    _(PROBLEMS[2], context="norms", count="", column="")
    _(LEGEND, context="norms", unrated="", games="", rounds="", counts="")
    _("{label} ({title})", context="norms", label="", title="")
    for value in ("yes", "no"):
        _(value, context="value")
    from xl_elo.federations import registry

    for system in registry().values():  # the reasons each system's norm check gives (its engine's words)
        if system.NORMS is not None:
            for phrase in reasons(system.NORMS.engine):
                _(phrase)
    for phrase in ASIDE:
        _(phrase)
    for name in (*TABLE_COLUMNS, "forecast"):  # xl-elo norms' table
        _(name, context="norms")
    for phrase in FORECAST:
        _(phrase)


def said(text: str) -> str:
    """The engine's words of a check (a reason, a forecast, a round set aside: ``rule: why; rule: why``) in the
    language of the work, each part read back into its phrase (:func:`xl_elo.words.translate`), the rules' sections
    as they are."""
    if words.language() == words.SOURCE or not text:
        return text
    if "; " in text:
        return "; ".join(said(part) for part in text.split("; "))
    rule, colon, why = text.partition(": ")
    if colon and rule and not any(c.isspace() for c in rule) and any(c.isdigit() for c in rule):
        return f"{rule}: {said(why)}"
    return words.translate(text)


#: The results a director types, as the sheet reads them (lower case): a score, or a code of a round without a game.
RESULTS = {"1": 1, "1-0": 1, "0": 0, "0-1": 0, "½": 0.5, "0.5": 0.5, "0,5": 0.5, "1/2": 0.5, "½-½": 0.5, "=": 0.5,
           "+": "+", "-": "-", "bye": "bye", "u": "bye", "f": "bye", "h": "h", "½ bye": "h", "z": "z",
           "absent": "z"}

THIN = Side(style="thin", color="808080")
BOX = Border(left=THIN, right=THIN, top=THIN, bottom=THIN)
NORM_FILL = PatternFill("solid", fgColor="C6EFCE")
NO_FILL = PatternFill("solid", fgColor="FCE4D6")


#: The titles' reasons, one line each under the summary, from column C to the table's last.
REASONS = len(TITLE_COLUMNS)


def row_of(name: str) -> int:
    """The row of a summary line (shown or working); the reasons' first line for ``reason``."""
    if name in SHOWN:
        return SUMMARY_TOP + 1 + SHOWN.index(name)
    return SUMMARY_TOP + 2 + len(SHOWN) + REASONS + WORK.index(name)


def cell(name: str, title_index: int) -> str:
    """A summary cell: the line ``name`` in the column of the ``title_index``-th title (0: GM); a title's reason
    is on a line of its own."""
    if name == "reason":
        return f"{TITLE_COLUMNS[0]}{row_of(name) + title_index}"
    return f"{TITLE_COLUMNS[title_index]}{row_of(name)}"


def _q(text: str) -> str:
    return '"' + text.replace('"', '""') + '"'


def _any_of(ref: str, values: Sequence[str]) -> str:
    return "OR(" + ",".join(f"{ref}={_q(v)}" for v in values) + ")"


def _frac(x: Fraction, n: str, up: bool) -> str:
    """``x`` of ``n`` rounded up or down, exactly: whole numbers only in the formula."""
    return f"{'ROUNDUP' if up else 'ROUNDDOWN'}({x.numerator}*{n}/{x.denominator},0)"


def build(norms: TitleNorms) -> Book:
    """The norm sheet of a system's declared norms, not yet saved (rules 13)."""
    engine = norms.engine
    book = Book(f"{norms.rules}-norms")
    ws = book.sheet(SHEET)
    lists = book.sheet(LISTS)
    _lists(lists, engine)
    _head(ws, engine, norms)
    _table(book, ws, engine)
    _summary(ws, engine)
    ws.sheet_state = "visible"
    lists.sheet_state = "hidden"
    book.wb.active = 0
    return book


def _lists(ws: Any, engine: Any) -> None:
    ws["A1"], ws["B1"], ws["C1"], ws["D1"] = "result", "reads as", "p", "dp"
    for i, (k, v) in enumerate(RESULTS.items(), start=2):
        ws.cell(i, 1, k)
        ws.cell(i, 2, v)
    for p in range(101):  # table 1.4.9 = 8.1.1, from the project's one transcription
        ws.cell(2 + p, 3, p / 100)
        ws.cell(2 + p, 4, engine.dp(p))


def _head(ws: Any, engine: Any, norms: TitleNorms) -> None:
    ws["A1"] = words._(HEAD, context="norms")
    ws["A1"].font = Font(bold=True, size=13)
    ws["A2"] = words._(INTRO, context="norms", rules=norms.rules)
    ws["A2"].font = Font(italic=True, size=8)
    defaults = {"rounds": 9, "system": "swiss", "kind": "individual", "exemption": "none", "players": 10}
    for name, (label, span) in INPUT_LABELS.items():
        ref = CELLS[name]
        row = int(ref[1:])
        at = "A" if ref[0] == "C" else "F"
        ws[f"{at}{row}"] = words._(label, context="norms")
        ws[f"{at}{row}"].font = Font(bold=True, size=9)
        ws.merge_cells(f"{at}{row}:{'B' if at == 'A' else 'G'}{row}")
        first, last = span.split(":")
        for j in range(ord(first[0]) - 64, ord(last[0]) - 63):
            c = ws.cell(row, j)
            c.fill = SETTING_FILL
            c.border = BOX
        ws.merge_cells(span)
        ws[ref].alignment = Alignment(horizontal="left")
        if name in defaults:
            ws[ref] = defaults[name]
    exemptions = ",".join(("none", *engine.EXEMPTIONS))
    for ref, options in ((CELLS["system"], ",".join(engine.SYSTEMS)), (CELLS["kind"], ",".join(engine.EVENTS)),
                         (CELLS["exemption"], exemptions)):
        dv = DataValidation(type="list", formula1=_q(options), allow_blank=False)
        dv.error = words._(ONE_OF, context="norms", options=options)
        ws.add_data_validation(dv)
        dv.add(ref)


def _table(book: Book, ws: Any, engine: Any) -> None:
    titles = [words._(t, context="norms") for t in HEADINGS]
    # each heading's longest word whole on its line (a language's longer words): the note's column gives way (the
    # opponent's holds the summary's labels below)
    widths = [max(w, 1 + max(len(word) for word in t.split())) for w, t in zip(WIDTHS, titles, strict=True)]
    widths[-1] = max(NOTE_WIDTH, widths[-1] - (sum(widths) - sum(WIDTHS)))
    for j, (t, w) in enumerate(zip(titles, widths, strict=True), start=1):
        c = ws.cell(FIRST - 1, j, t)
        c.fill, c.font, c.border = HEADER_FILL, HEADER_FONT, BOX
        c.alignment = Alignment(horizontal="center", vertical="center", wrap_text=True)
        ws.column_dimensions[col(j)].width = w
    ws.row_dimensions[FIRST - 1].height = 26
    ws.column_dimensions["J"].width = 2
    h = HELPERS
    own = f"UPPER(TRIM(${CELLS['federation'][0]}${CELLS['federation'][1:]}&\"\"))"
    holders = sorted(engine.TITLE_HOLDERS)
    for r in range(FIRST, LAST + 1):
        ws.cell(r, 1, r - FIRST + 1)
        for j in range(1, 10):
            ws.cell(r, j).border = BOX
        for j in (1, 3, 4, 7, 8):
            ws.cell(r, j).alignment = Alignment(horizontal="center")
        g, f_, c_, d_, hh, b_ = f"G{r}", f"F{r}", f"C{r}", f"D{r}", f"H{r}", f"B{r}"
        title_text = f'UPPER(TRIM({c_}&""))'
        formulas = {
            "code": f'IF(TRIM({g}&"")="","",IF(ISNUMBER({g}),IF(OR({g}=1,{g}=0.5,{g}=0),{g},"?"),'
                    f'IFERROR(VLOOKUP(LOWER(TRIM({g})),{LISTS}!$A$2:$B${1 + len(RESULTS)},2,FALSE),"?")))',
            "counted": f'IF(AND(ISNUMBER({h["code"]}{r}),TRIM({hh}&"")=""),1,0)',
            "pts": f'IF({h["counted"]}{r}=1,{h["code"]}{r},0)',
            "rating": f'IF({h["counted"]}{r}=1,IF(ISNUMBER({f_}),IF({f_}=0,{engine.UNRATED},{f_}),'
                      f'IF(TRIM({f_}&"")="",{engine.UNRATED},"?")),"")',
            "holder": f'IF(AND({h["counted"]}{r}=1,{_any_of(title_text, holders)}),1,0)',
            "fed": f'UPPER(TRIM({d_}&""))',
            "other": f'IF(AND({h["counted"]}{r}=1,{h["fed"]}{r}<>"",{h["fed"]}{r}<>"{engine.NO_FEDERATION}",'
                     f'{h["fed"]}{r}<>{own},COUNTIFS({h["fed"]}${FIRST}:{h["fed"]}{r},{h["fed"]}{r},'
                     f'{h["counted"]}${FIRST}:{h["counted"]}{r},1)=1),1,0)',
            "own": f'IF(AND({h["counted"]}{r}=1,{h["fed"]}{r}<>"",{h["fed"]}{r}<>"{engine.NO_FEDERATION}",'
                   f'{h["fed"]}{r}={own}),1,0)',
            "count": f'IF(AND({h["counted"]}{r}=1,{h["fed"]}{r}<>"",{h["fed"]}{r}<>"{engine.NO_FEDERATION}",'
                     f'{h["fed"]}{r}<>{own}),COUNTIFS({h["fed"]}${FIRST}:{h["fed"]}${LAST},{h["fed"]}{r},'
                     f'{h["counted"]}${FIRST}:{h["counted"]}${LAST},1),0)',
            "problem": f'IF({h["code"]}{r}="?",{words.text_formula(PROBLEMS[0], context="norms")},'
                       f'IF({h["rating"]}{r}="?",{words.text_formula(PROBLEMS[1], context="norms")},""))',
        }
        for i, t in enumerate(engine.TITLES):
            formulas[f"t{i}"] = f'IF(AND({h["counted"]}{r}=1,{_any_of(title_text, sorted(t.holders))}),1,0)'
            formulas[f"d{i}"] = (f'IF(AND({h[f"t{i}"]}{r}=1,COUNTIFS(B${FIRST}:{b_},{b_},'
                                 f'{h[f"t{i}"]}${FIRST}:{h[f"t{i}"]}{r},1)=1),1,0)')
        for name, formula in formulas.items():
            check_formula(formula, f"{SHEET}!{h[name]}{r}")
            ws[f"{h[name]}{r}"] = "=" + formula
        for name in ("code", "fed"):
            ws[f"{h[name]}{r}"].number_format = "@"
    for letter in h.values():
        ws.column_dimensions[letter].hidden = True
    ws[f"{h['problem']}{FIRST - 1}"] = words._("problem")


def _summary(ws: Any, engine: Any) -> None:
    top = SUMMARY_TOP
    ws.cell(top, 1, words._(FOR_EACH, context="norms")).font = Font(bold=True)
    for i, t in enumerate(engine.TITLES):
        c = ws[f"{TITLE_COLUMNS[i]}{top}"]
        c.value = t.code
        c.fill, c.font, c.border = HEADER_FILL, HEADER_FONT, BOX
        c.alignment = Alignment(horizontal="center")
    for name in SHOWN:
        label, rule = LABELS[name]
        label = words._(label, context="norms")
        r = row_of(name)
        if name == "reason":
            for i, t in enumerate(engine.TITLES):
                ws.cell(r + i, 1, words._("{label} ({title})", context="norms", label=label, title=t.code)
                        ).font = Font(size=9)
                ws.merge_cells(f"A{r + i}:B{r + i}")
                for j in range(3, len(TABLE) + 1):
                    ws.cell(r + i, j).border = BOX
                    ws.cell(r + i, j).fill = FORMULA_FILL
                ws.merge_cells(f"C{r + i}:{TABLE[-1]}{r + i}")
            continue
        ws.cell(r, 1, f"{label}" + (f" ({rule})" if rule else "")).font = Font(size=9)
        ws.merge_cells(f"A{r}:B{r}")
    h = HELPERS
    cells = CELLS
    kind, rounds, system, exemption, host, players = (f"${cells[k][0]}${cells[k][1:]}" for k in
                                                      ("kind", "rounds", "system", "exemption", "host", "players"))
    own = f"UPPER(TRIM(${cells['federation'][0]}${cells['federation'][1:]}&\"\"))"

    def rng(name: str) -> str:
        return f"${h[name]}${FIRST}:${h[name]}${LAST}"

    least = (f'IF({kind}="team",{engine.TEAM_GAMES},IF({kind}="world-cup",{engine.WORLD_CUP_GAMES},'
             f'{engine.MIN_GAMES}))')
    host_only = [e for e in engine.EXEMPTIONS if e in engine.HOST_ONLY]
    everyone = [e for e in engine.EXEMPTIONS if e not in engine.HOST_ONLY]
    exempt = (f'IF(OR({_any_of(exemption, everyone)},AND({_any_of(exemption, host_only)},'
              f'{own}=UPPER(TRIM({host}&"")))),1,0)')
    share = engine.MIN_SCORE
    yes, no = (words.text_formula(v, context="value") for v in ("yes", "no"))
    for i, t in enumerate(engine.TITLES):
        c = TITLE_COLUMNS[i]

        def at(name: str, col_: str = c, i: int = i) -> str:
            return cell("reason", i) if name == "reason" else f"{col_}{row_of(name)}"

        held = "/".join(sorted(t.holders, key=engine.RANK.__getitem__))
        work = {
            "n": f"SUM({rng('counted')})",
            "pts": f"SUM({rng('pts')})",
            "low": f'IF({at("n")}>0,MIN({rng("rating")}),"")',
            "sum": f'IF({at("n")}>0,SUM({rng("rating")})-{at("low")}+MAX({at("low")},{t.floor}),0)',
            "pidx": f'IF({at("n")}>0,ROUND(100*{at("pts")}/{at("n")},0),"")',
            "least": least,
            "byes": f'COUNTIF({rng("code")},"bye")+COUNTIF({rng("code")},"+")',
            "games_ok": (f'IF({at("n")}>={at("least")},1,IF(AND({at("n")}={engine.BYE_EVENT_GAMES},'
                         f'{rounds}={engine.BYE_EVENT_ROUNDS},{at("byes")}=1),1,0))'),
            "counts": (f'IF(AND({kind}="world-cup",{at("n")}>={engine.WORLD_CUP_GAMES}),MAX({at("n")},'
                       f'{engine.MIN_GAMES}),IF(AND({at("n")}<{at("least")},{at("games_ok")}=1),'
                       f'{engine.BYE_NORM_GAMES},{at("n")}))'),
            "exempt": exempt,
            "h": f"SUM({rng('holder')})",
            "h_need": _frac(engine.HOLDERS_SHARE, at("n"), True),
            "t": f'IF({system}="double-round-robin",SUM({rng(f"d{i}")}),SUM({rng(f"t{i}")}))',
            "t_need": (f'IF({system}="double-round-robin",ROUNDUP(MAX({engine.MIN_TITLED},'
                       f'{_frac(engine.TITLED_SHARE, at("n"), True)})/2,0),MAX({engine.MIN_TITLED},'
                       f'{_frac(engine.TITLED_SHARE, at("n"), True)}))'),
            "o": f"SUM({rng('other')})",
            "own_n": f"SUM({rng('own')})",
            "own_max": _frac(engine.OWN_SHARE, at("n"), False),
            "one_n": f"MAX({rng('count')})",
            "one_code": (f'IF({at("one_n")}>0,INDEX({rng("fed")},MATCH({at("one_n")},{rng("count")},0)),"")'),
            "one_max": _frac(engine.ONE_SHARE, at("n"), False),
            "drr_ok": (f'IF(AND({system}="double-round-robin",{players}<{engine.DOUBLE_ROUND_ROBIN_PLAYERS}),0,1)'),
            "pmin": f'IF({at("n")}>0,COUNTIF({LISTS}!$D$2:$D$102,"<"&({t.minimum}-{at("ra")})),"")',
            "s_perf": (f'IF({at("n")}=0,"",IF({at("pmin")}>100,"",MAX(0,ROUNDUP(2*({at("pmin")}-0.5)*{at("n")}/100,'
                       '0)/2)))'),
            "s_min": f"ROUNDUP(2*{share.numerator}*{at('n')}/{share.denominator},0)/2",
            "need": (f'IF({at("s_perf")}="","",IF(MAX({at("s_perf")},{at("s_min")})>{at("n")},"",'
                     f'MAX({at("s_perf")},{at("s_min")})))'),
            "problems": f'COUNTIF({rng("problem")},"?*")',
        }
        tf = words.text_formula
        F = words.F
        n_games = F(at("n"))
        kinds = (f'IF({kind}="team",{tf(engine.FAIL_KINDS[0])},'
                 f'IF({kind}="world-cup",{tf(engine.FAIL_KINDS[1])},""))')
        games_words = [tf(engine.FAIL_GAMES[2 + plural], n=n_games, need=F(at("least")), kind=F(kinds))
                       for plural in (0, 1)]
        crowded = engine.FAIL_CROWDED
        fail = [
            (f'{at("problems")}>0', tf(PROBLEMS[2], context="norms", count=F(at("problems")), column=h["problem"])),
            (f'{at("games_ok")}=0', f'"1.4.1: "&IF({at("n")}=1,{games_words[1]},{games_words[0]})'),
            (f'AND({at("exempt")}=0,{own}="")', '"1.4.3: "&' + tf(engine.FAIL_NO_FEDERATION)),
            (f'AND({at("exempt")}=0,{at("o")}<{engine.OTHER_FEDERATIONS})',
             '"1.4.3: "&' + tf(engine.FAIL_OTHERS, count=F(at("o")), own=F(own),
                               needed=engine.OTHER_FEDERATIONS)),
            (f'AND({at("exempt")}=0,{at("own_n")}>{at("own_max")})',
             '"1.4.4: "&' + tf(crowded, count=F(at("own_n")), federation=F(own), most=F(at("own_max")),
                               share=engine.OWN_SHARE, n=n_games)),
            (f'AND({at("exempt")}=0,{at("one_n")}>{at("one_max")})',
             '"1.4.4: "&' + tf(crowded, count=F(at("one_n")), federation=F(at("one_code")), most=F(at("one_max")),
                               share=engine.ONE_SHARE, n=n_games)),
            (f'{at("h")}<{at("h_need")}',
             '"1.4.5a: "&' + tf(engine.FAIL_HOLDERS, count=F(at("h")), n=n_games, needed=F(at("h_need")))),
            (f'{at("drr_ok")}=0',
             '"1.4.5f: "&' + tf(engine.FAIL_DRR, players=F(players), needed=engine.DOUBLE_ROUND_ROBIN_PLAYERS)),
            (f'{at("t")}<{at("t_need")}',
             f'"1.4.5b-e: "&IF({system}="double-round-robin",'
             + tf(engine.FAIL_TITLED[1], count=F(at("t")), titles=held, needed=F(at("t_need"))) + ","
             + tf(engine.FAIL_TITLED[0], count=F(at("t")), titles=held, needed=F(at("t_need"))) + ")"),
            (f'{at("ra")}<{t.average}', '"1.4.8a: "&' + tf(engine.FAIL_RA, ra=F(at("ra")), average=t.average)),
            (f'20*{at("pts")}<{share * 20}*{at("n")}' if share * 20 == int(share * 20) else "FALSE",
             '"1.4.8b: "&' + tf(engine.FAIL_SHARE, score=F(at("pts")), n=n_games, percent=int(share * 100))),
            (f'{at("rp")}<{t.minimum}',
             '"1.4.8: "&' + tf(engine.FAIL_RP, rp=F(at("rp")), performance=t.performance)),
        ]
        norm_word = tf(NORM, context="norms")
        reason = norm_word
        for test, why in reversed(fail):
            reason = f"IF({test},{why},{reason})"
        work["norm"] = f'IF({at("reason")}={norm_word},1,0)'
        work["extra"] = f'IF({at("norm")}=1,INT({at("pts")}-{at("need")}),0)'
        shown = {
            "games": at("n"), "score": at("pts"), "lowest": at("low"), "floor": str(t.floor),
            "ra": f'IF({at("n")}>0,ROUND({at("sum")}/{at("n")},0),"")',
            "p": f'IF({at("n")}>0,{at("pidx")}/100,"")',
            "dp": f'IF({at("n")}>0,INDEX({LISTS}!$D$2:$D$102,{at("pidx")}+1),"")',
            "rp": f'IF({at("n")}>0,{at("ra")}+{at("dp")},"")',
            "rp_needed": str(t.performance), "ra_needed": str(t.average), "score_needed": at("need"),
            "norm_games": (f'IF({at("norm")}=1,IF({rounds}>{engine.MAX_NORM_GAMES},MIN({engine.MAX_NORM_GAMES},'
                           f'{at("counts")}+{at("extra")}),{at("counts")}+{at("extra")}),0)'),
            "holders": f'{at("h")}&" / "&{at("h_need")}',
            "titled": f'{at("t")}&" / "&{at("t_need")}',
            "others": f'{at("o")}&" / "&IF({at("exempt")}=1,0,{engine.OTHER_FEDERATIONS})',
            "own": f'{at("own_n")}&" / "&{at("own_max")}',
            "one": f'{at("one_n")}&" / "&{at("one_max")}',
            "verdict": f'IF({at("norm")}=1,{yes},{no})',
            "reason": reason,
        }
        for name, formula in {**work, **shown}.items():
            check_formula(formula, f"{SHEET}!{at(name)}")
            target = ws[at(name)]
            target.value = "=" + formula if not formula.isdigit() else int(formula)
            target.border = BOX
            target.alignment = Alignment(horizontal="left" if name == "reason" else "center", vertical="top")
            if name in WORK:
                continue
            target.fill = FORMULA_FILL
        ws[at("p")].number_format = "0.00"
        ws[at("reason")].font = Font(size=9)
    for name in WORK:
        ws.row_dimensions[row_of(name)].hidden = True
    verdict = row_of("verdict")
    from openpyxl.formatting.rule import FormulaRule

    ws.conditional_formatting.add(f"C{verdict}:F{verdict}", FormulaRule(formula=[f'C{verdict}={yes}'],
                                                                         fill=NORM_FILL))
    ws.conditional_formatting.add(f"C{verdict}:F{verdict}", FormulaRule(formula=[f'C{verdict}={no}'], fill=NO_FILL))
    ws.print_area = f"A1:I{row_of('reason') + REASONS - 1}"
    ws.page_setup.orientation = "portrait"
    ws.page_setup.paperSize = ws.PAPERSIZE_A4
    ws.page_setup.fitToWidth = 1
    ws.page_setup.fitToHeight = 1
    ws.sheet_properties.pageSetUpPr.fitToPage = True
    ws.print_options.horizontalCentered = True
    ws.page_margins.left = ws.page_margins.right = 0.5
    ws.freeze_panes = f"A{FIRST}"
    top_row = row_of("games")
    for k, text in enumerate(legend(engine)[:LEGEND_LINES]):
        c = ws.cell(top_row + k, 7, text)
        c.font = Font(size=8, italic=True)


def legend(engine: Any) -> list[str]:
    """The legend beside the summary in the language of the work, its lines (each sentence on lines of its own)."""
    text = words._(LEGEND, context="norms", unrated=engine.UNRATED, games=engine.BYE_EVENT_GAMES,
                   rounds=engine.BYE_EVENT_ROUNDS, counts=engine.BYE_NORM_GAMES)
    sentences = [part if part.endswith(".") else part + "." for part in text.split(". ")]
    return [line for sentence in sentences for line in textwrap.wrap(sentence, LEGEND_WIDTH)]


# --------------------------------------------------------------------------- filled from a report


def _result_text(code: str, counted_as_loss: bool) -> Any:
    if counted_as_loss:
        return 0
    return {"1": 1, "=": "½", "0": 0, "W": 1, "D": "½", "L": 0, "+": "+", "-": "-", "U": "bye", "F": "bye",
            "H": "h", "Z": "z", " ": ""}[code]


def fill_sheet(module: Any, tournament: Any, checks: Sequence[Any], player: Any, title: str | None,
               output: str | os.PathLike[str], *, options: Any = None, inputs: Sequence[str] = ()) -> str:
    """The norm sheet filled for one player and title (the title given, else the first he has a norm for, else the
    first), with the games the command line counted and the others marked set aside; returns what was written."""
    norms: TitleNorms = module.NORMS
    engine = norms.engine
    mine = [c for c in checks if c.id == player.id]
    chosen = next((c for c in mine if c.title == title), None) if title else \
        next((c for c in mine if c.norm), mine[0] if mine else None)
    if chosen is None:
        raise ValueError(f"no check for {player.id} and {title}")
    f = engine.field_of(tournament, options)
    rounds = {p.round: p for p in tournament.pairings.get(player.id, ())}
    last = max([*rounds, f.rounds])
    if last > ROUNDS:
        raise ValueError(f"the sheet holds {ROUNDS} rounds; the tournament has {last}")
    by_id = {e.id: e for e in tournament.players}
    counted = {int(r) for r in chosen.counted.split()}
    aside = dict(_aside(chosen.set_aside))
    book = build(norms)
    ws = book.wb[SHEET]
    exemption = {v: k for k, v in engine.EXEMPTIONS.items()}.get(chosen.exemption, "none")
    values = {
        "player": player.name, "fide_id": player.fide_id or "", "federation": player.federation,
        "player_title": player.title, "event": tournament.name, "rounds": f.rounds, "system": f.system,
        "kind": f.options.event, "exemption": exemption, "host": f.host, "players": len(tournament.players),
    }
    for name, value in values.items():
        ws[CELLS[name]] = value
    for r in range(1, last + 1):
        row = FIRST + r - 1
        p = rounds.get(r)
        if p is None or (p.code == engine.NO_RESULT and r > f.played):
            ws[f"I{row}"] = words._(STILL_TO_PLAY if r > f.played else NOT_PAIRED, context="norms")
            if r <= f.played:
                ws[f"G{row}"] = "z"
            if p is None or p.opponent is None:
                continue
        o = by_id.get(p.opponent) if p.opponent else None
        loss = r in counted and p.code == engine.FORFEIT_WIN
        if o is not None:
            ws[f"B{row}"], ws[f"C{row}"], ws[f"D{row}"] = o.name, o.title, o.federation
            ws[f"E{row}"] = o.fide_id or ""
            ws[f"F{row}"] = int(o.rating) if o.rating is not None else ""
        ws[f"G{row}"] = _result_text(p.code, loss)
        played = p.code in engine.PLAYED or p.code in engine.SHORT
        if played and r not in counted:
            ws[f"H{row}"] = "x"
        if r in aside:
            ws[f"I{row}"] = said(aside[r])
        elif loss:
            ws[f"I{row}"] = words._(ASIDE[-1])
    target = Path(output)
    from xl_elo.formats.files import check_output

    check_output(target, inputs)
    save(book, target)
    return (f"{target}: the norm sheet of {player.name or player.id} ({chosen.title}: "
            f"{'a norm' if chosen.norm else 'no norm'}, Ra {chosen.ra}, Rp {chosen.rp})")


def _aside(text: str) -> list[tuple[int, str]]:
    out = []
    for part in filter(None, (x.strip() for x in text.split("; round "))):
        part = part.removeprefix("round ")
        number, _, why = part.partition(": ")
        if number.isdigit():
            out.append((int(number), why))
    return out


def build_sheet(norms: TitleNorms, directory: str | os.PathLike[str]) -> Path:
    """The empty norm sheet written to ``directory`` (``xl-elo workbooks``)."""
    assert norms.sheet is not None
    Path(directory).mkdir(parents=True, exist_ok=True)
    return save(build(norms), Path(directory) / norms.sheet)


__all__ = ["CELLS", "FIRST", "LAST", "TITLE_COLUMNS", "build", "build_sheet", "cell", "fill_sheet", "row_of"]
