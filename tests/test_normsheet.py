"""The norm sheet (rules 13): native formulas that give the command line's verdict, Ra and Rp for the games they
list; filled from a TRF report by ``xl-elo norms --sheet`` and recalculated in LibreOffice (one run for every
case, as tests/test_workbooks.py recalculates the templates)."""

from __future__ import annotations

import json
import os
import re

import openpyxl
import pytest
from test_norms import MIX9, opponents, solo
from trfnorms import Event, P, round_robin

from xl_elo.federations import get
from xl_elo.formats.libreoffice import recalculate_many, soffice
from xl_elo.frontends.cli import main
from xl_elo.templates import build_template, file_name, sheet_names
from xl_elo.templates import normsheet as ns

NEED_LO = os.environ.get("XL_ELO_REQUIRE_LIBREOFFICE") == "1"
lo = pytest.mark.skipif(soffice() is None and not NEED_LO,
                        reason="LibreOffice (soffice) is not installed: the norm sheet is not recalculated")
TITLES = ("GM", "IM", "WGM", "WIM")


def _drr():
    players = [P(1, "Candidate, Anna", 2450, "IM", "FRA", "w")] + \
        [P(k, f"Opponent, {k}", 2600, "GM", ["ITA", "NED", "ENG", "USA", "IND"][k - 2]) for k in range(2, 6)]
    single = round_robin(players, {(1, k): "1" for k in range(2, 6)})
    half = single.declared
    ev = Event(list(single.players.values()), 2 * half)
    for p in single.players.values():
        for r, (opp, colour, code) in list(p.rounds.items()):
            p.rounds[r + half] = (opp, {"w": "b", "b": "w"}.get(colour, colour), code)
    return ev


#: name -> (event, flags, the title the sheet is filled for); every title whose games are the filled title's is compared
CASES = {
    "floor": (solo(opponents([2500] * 8 + [1900]), ["1"] * 6 + ["=", "0", "0"]), (), "GM"),
    "threshold": (solo(opponents([2475] * 8 + [2470]), ["1"] * 6 + ["0"] * 3), (), "GM"),
    "unrated": (solo(opponents([2500] * 7 + [0, 1300]), ["1"] * 6 + ["=", "0", "0"]), (), "GM"),
    "eight_and_bye": (solo(opponents([2500] * 8), ["1"] * 6 + ["0"] * 2, tail=["U"]), (), "GM"),
    "forfeit_loss": (solo(opponents([2500] * 8), ["1"] * 8, tail=[("-", 2500, "GM", "CZE")]), (), "GM"),
    "team": (solo(opponents([2500] * 8, MIX9[:8]), ["1"] * 4 + ["=", "0", "0", "0"]), ("--event", "team"), "IM"),
    "own_federation": (solo(opponents([2500] * 9, [("GM", "FRA")] * 6 + [("GM", "GER"), ("IM", "ESP"),
                                                                        ("IM", "ITA")]), ["1"] * 7 + ["0"] * 2),
                       (), "GM"),
    "thirty_five": (solo(opponents([2600] * 13, [*MIX9, ("GM", "CZE"), ("GM", "POL"), ("IM", "HUN"),
                                                 ("GM", "SRB")]), ["0"] * 4 + ["="] * 9), (), "IM"),
    "national": (solo(opponents([2500] * 9, [("GM", "FRA")] * 5 + [("IM", "FRA")] * 4), ["1"] * 7 + ["0"] * 2),
                 ("--exemption", "national-championship", "--host", "FRA"), "GM"),
    "fifteen": (solo(opponents([2500] * 15, [*MIX9, ("GM", "CZE"), ("GM", "POL"), ("IM", "HUN"), ("GM", "SRB"),
                                             ("IM", "CRO"), ("GM", "ESP")]), ["1"] * 12 + ["0"] * 3), (), "GM"),
    "weak_set_aside": (solo([(1450, "", "ESP"), (1500, "", "ITA"), *opponents([2560] * 9)],
                            ["1", "1"] + ["1"] * 5 + ["0"] * 4), (), "GM"),
    "last_round_forfeit": (solo(opponents([2500] * 8), ["1"] * 6 + ["0"] * 2, tail=["U", ("+", 2500, "GM", "CZE")]),
                           (), "GM"),
    "double_round_robin": (_drr(), ("--event", "team"), "GM"),
}


def test_the_sheet_is_built_by_xl_elo_workbooks(tmp_path):
    assert sheet_names() == ["fide-norms"] and file_name("fide-norms") == get("fide").NORMS.sheet
    path = build_template("fide-norms", tmp_path)
    wb = openpyxl.load_workbook(path)
    ws = wb[ns.SHEET]
    assert ws.print_area and ws.page_setup.fitToHeight == 1
    assert int(ws.page_setup.paperSize) == int(ws.PAPERSIZE_A4)
    assert wb[ns.LISTS].sheet_state == "hidden"
    # the dp table is the project's one transcription (8.1.1 = 1.4.9), written, never typed
    from xl_elo.tables import FIDE_DP_TABLE

    assert [wb[ns.LISTS].cell(2 + p, 4).value for p in range(101)] == [FIDE_DP_TABLE[p] for p in range(101)]
    text = "".join(str(c.value) for row in ws.iter_rows() for c in row if isinstance(c.value, str))
    for word in ("XLOOKUP(", "LET(", "IFS(", "MAXIFS(", "TEXTJOIN(", "OFFSET(", "INDIRECT(", "TODAY(", "CEILING("):
        assert not re.search(r"(?<![A-Z.])" + re.escape(word), text), word


def test_sheet_needs_an_xlsx_output(tmp_path, capsys):
    path = tmp_path / "e.trf"
    path.write_text(CASES["floor"][0].text(), encoding="utf-8")
    assert main(["norms", str(path), "--sheet", "1"]) == 2
    assert "--sheet writes a workbook: give --output FILE.xlsx" in capsys.readouterr().err
    assert main(["norms", str(path), "--sheet", "99", "-o", str(tmp_path / "n.xlsx")]) == 2
    assert "--sheet 99: no such player" in capsys.readouterr().err


@lo
def test_the_recalculated_sheet_gives_the_command_lines_verdict(tmp_path):
    filled, expected = [], {}
    for name, (ev, flags, title) in CASES.items():
        trf = tmp_path / f"{name}.trf"
        trf.write_text(ev.text() if isinstance(ev, Event) else ev, encoding="utf-8")
        out = tmp_path / f"{name}.json"
        assert main(["norms", str(trf), "--format", "json", "-o", str(out), *flags]) == 0
        rows = {r["title"]: r for r in json.loads(out.read_text(encoding="utf-8"))["results"] if r["start_rank"] == 1}
        sheet = tmp_path / "filled" / f"{name}.xlsx"
        sheet.parent.mkdir(exist_ok=True)
        assert main(["norms", str(trf), "--sheet", "1", "--title", title, "-o", str(sheet), *flags]) == 0
        filled.append(sheet)
        expected[name] = (rows, [t for t in TITLES if rows[t]["counted"] == rows[title]["counted"]])
    done = recalculate_many(filled, tmp_path / "done")
    problems = []
    for path in done:
        rows, compared = expected[path.stem]
        ws = openpyxl.load_workbook(path, data_only=True)[ns.SHEET]
        for i, title in enumerate(TITLES):
            if title not in compared:
                continue
            row = rows[title]
            got = {k: ws[ns.cell(k, i)].value for k in ("verdict", "ra", "rp", "norm_games", "reason", "games")}
            want = {"verdict": "yes" if row["norm"] else "no", "ra": row["ra"], "rp": row["rp"],
                    "norm_games": row["norm_games"], "games": row["games"],
                    "reason": "norm" if row["norm"] else row["reason"].split("; ")[0]}
            if got != want:
                problems.append(f"{path.stem} {title}: sheet {got} != command line {want}")
    assert not problems, "\n".join(problems)
