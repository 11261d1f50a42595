"""The template workbooks: built by the package, recalculated in LibreOffice, compared cell by
cell with the engine (ratings exactly, intermediates to 1e-6)."""

from __future__ import annotations

import os
import zipfile

import pytest

from conftest import DATA, ROOT, event
from gen import random_event
from xl_elo import rate
from xl_elo.cli import main
from xl_elo.csvio import read_event
from xl_elo.demo import example_event
from xl_elo.libreoffice import recalculate, soffice
from xl_elo.templates import build_all
from xl_elo.xlsxio import compare, fill_template, read_workbook

NEED_LO = os.environ.get("XL_ELO_REQUIRE_LIBREOFFICE") == "1"
lo = pytest.mark.skipif(soffice() is None and not NEED_LO,
                        reason="LibreOffice (soffice) is not installed: the workbook recalculation tests are skipped")


@pytest.fixture(scope="session")
def templates(tmp_path_factory):
    out = tmp_path_factory.mktemp("templates")
    build_all(out)
    return out


def _members(path):
    with zipfile.ZipFile(path) as z:
        return {name: z.read(name) for name in z.namelist()}


def test_committed_workbooks_are_a_fresh_build(templates):
    """workbooks/ holds exactly what `xl-elo workbooks` builds (rebuild and commit when this fails)."""
    committed = ROOT / "workbooks"
    names = sorted(p.name for p in templates.glob("*.xlsx"))
    assert names == sorted(p.name for p in committed.glob("*.xlsx"))
    for name in names:
        assert _members(templates / name) == _members(committed / name), f"{name} differs from a fresh build"


def _check(template, ev, federation, tmp_path, **options):
    filled = fill_template(template, ev, tmp_path / "filled.xlsx")
    recalculated = recalculate(filled, tmp_path / "recalculated.xlsx")
    wb = read_workbook(recalculated)
    assert wb.federation == federation and wb.calculated
    results = rate(federation, wb.event, **{**wb.options, **options})
    differences = compare(wb, results)
    assert not differences, "\n".join(map(str, differences[:20]))
    assert len(wb.computed) == len(ev.players)
    return wb, results


@lo
@pytest.mark.parametrize("case", ["example", "random"])
def test_fide_template(templates, tmp_path, case):
    ev = example_event("fide_period", "2026-10") if case == "example" else random_event(11, 60, 9, federation="fide")
    _check(templates / "fide_period.xlsx", ev, "fide", tmp_path)


@lo
@pytest.mark.parametrize("case", ["example", "random"])
def test_fse_template(templates, tmp_path, case):
    ev = example_event("fse_period", "2025-10") if case == "example" else random_event(12, 50, 7, federation="fse")
    _check(templates / "fse_period.xlsx", ev, "fse", tmp_path)


@lo
@pytest.mark.parametrize("case", ["daniel", "random", "match"])
def test_fqe_template(templates, tmp_path, case):
    if case == "daniel":
        ev = example_event("fqe_coq")
    elif case == "random":
        ev = random_event(13, 40, 6, unrated=0.25, federation="fqe")
    else:
        ev = event([dict(id="a", rating=2280, games=100), dict(id="b", rating=2290, games=100)],
                   [(i + 1, "a", "b", 1) for i in range(6)])
    wb, results = _check(templates / "fqe_event.xlsx", ev, "fqe", tmp_path)
    if case == "daniel":
        assert wb.computed["daniel"]["rating_after"] == 2012  # seed 004


@lo
@pytest.mark.parametrize("case", ["example", "round_robin", "random_table"])
def test_ffe_template(templates, tmp_path, case):
    from test_ffe import UNRATED_EVENT

    if case == "example":
        ev = example_event("ffe_period", "2026-01")
    elif case == "round_robin":
        ev = event(*UNRATED_EVENT)
    else:
        ev = random_event(14, 40, 9, unrated=0.3, federation="ffe")
    path = templates / "ffe_period.xlsx"
    if case == "random_table":
        import openpyxl

        wb = openpyxl.load_workbook(path)
        for sheet, coord in wb.defined_names["dp_method"].destinations:
            wb[sheet][coord.replace("$", "")] = "table"
        path = tmp_path / "ffe_table.xlsx"
        wb.save(path)
    wb, _ = _check(path, ev, "ffe", tmp_path)
    if case == "random_table":
        assert wb.options == {"dp_method": "table"}


FESA_CASES = ["sample", "13th_nekomadoken", "3rd_company_league_day1", "5th_nekomadoken", "handicap"]


def _fesa_handicap_event():
    players = [dict(id="A", rating=1680, games=40, bonus_count=100, grade="1 dan"),
               dict(id="B", rating=1400, games=40, bonus_count=20, grade="3 kyu", lb_run=5, mp_reached=True),
               dict(id="C", rating=1210, games=12, bonus_count=12), dict(id="D", nsr_grade="2 kyu"),
               dict(id="E", rating=1900, games=30, bonus_count=100, grade="1 dan", mp_run=5, lb_run=5, mp_reached=True),
               dict(id="F"), dict(id="G", rating=500, games=20, bonus_count=20)]
    games = [(1, "A", "B", 0, {"handicap": "B"}), (1, "C", "D", 1), (1, "E", "F", 1), (2, "A", "C", 1),
             (2, "B", "D", 0.5, {"handicap": "S"}), (2, "E", "G", 1, {"handicap": "6p"}), (3, "D", "A", 0),
             (3, "F", "G", 0), (3, "B", "E", 0), (4, "C", "E", 0, {"handicap": "R"}), (4, "G", None, "bye")]
    return event(players, games)


@lo
@pytest.mark.parametrize("case", FESA_CASES)
def test_fesa_template(templates, tmp_path, case):
    """Real FESA tournaments (and handicap games): the workbook's sweeps, performance ratings,
    promotions and next history agree with the engine, which agrees with FESA."""
    from collections import Counter

    import openpyxl

    if case == "handicap":
        ev = _fesa_handicap_event()
    else:
        d = DATA / "fesa" / case
        ev = read_event(d / "players.csv", d / "games.csv", d / "history.csv")
    wb, results = _check(templates / "fesa_tournament.xlsx", ev, "fesa", tmp_path)
    book = openpyxl.load_workbook(tmp_path / "recalculated.xlsx", read_only=True, data_only=True)
    got = Counter((r[0], float(r[1]), float(r[2])) for r in book["history_after"].iter_rows(min_row=2, values_only=True)
                  if r[0] not in (None, ""))
    assert got == Counter((h.id, float(h.opponent_rating), float(h.result)) for h in results.history)


@lo
def test_rate_a_filled_workbook_on_the_command_line(templates, tmp_path, capsys):
    ev = example_event("fqe_coq")
    filled = fill_template(templates / "fqe_event.xlsx", ev, tmp_path / "filled.xlsx")
    before = filled.read_bytes()
    assert main(["rate", str(filled), "--recalculate", "--output", str(tmp_path / "rated.xlsx")]) == 0
    err = capsys.readouterr().err
    assert "agree with the engine on every results cell" in err
    assert filled.read_bytes() == before  # the input is never written
    import openpyxl

    rated = openpyxl.load_workbook(tmp_path / "rated.xlsx", read_only=True)
    assert "xl-elo results" in rated.sheetnames and "xl-elo differences" in rated.sheetnames
    assert main(["rate", str(filled), "--output", str(filled)]) == 2


@lo
def test_a_disagreement_is_reported(templates, tmp_path, capsys):
    """Change a computed cell behind the formulas' back: the comparison must say where."""
    import openpyxl

    ev = example_event("fqe_coq")
    filled = fill_template(templates / "fqe_event.xlsx", ev, tmp_path / "filled.xlsx")
    recalculated = recalculate(filled, tmp_path / "recalculated.xlsx")
    wb = openpyxl.load_workbook(recalculated, data_only=True)  # keeps the computed values
    ws = wb["results"]
    col = [c.value for c in ws[1]].index("rating_after") + 1
    ws.cell(2, col).value = 2013  # a value, as if a user typed over the formula
    wb.save(tmp_path / "tampered.xlsx")
    assert main(["rate", str(tmp_path / "tampered.xlsx"), "--format", "csv"]) == 0
    err = capsys.readouterr().err
    assert "results row 2 (daniel), column 'rating_after': workbook 2013, engine 2012" in err


def test_uncalculated_workbook_is_not_compared(templates, tmp_path, capsys):
    ev = example_event("fqe_coq")
    filled = fill_template(templates / "fqe_event.xlsx", ev, tmp_path / "filled.xlsx")
    assert main(["rate", str(filled), "--format", "csv"]) == 0
    captured = capsys.readouterr()
    assert "have not been calculated" in captured.err and "daniel" in captured.out


def test_not_a_template(tmp_path, capsys):
    import openpyxl

    openpyxl.Workbook().save(tmp_path / "plain.xlsx")
    assert main(["rate", str(tmp_path / "plain.xlsx")]) == 1
    assert "is not an xl-elo template" in capsys.readouterr().err


def test_templates_use_only_portable_functions(templates):
    """No function LibreOffice 7.4 or Excel 2016 lacks (notes/excel-and-libreoffice.md)."""
    banned = ("XLOOKUP", "XMATCH", "LET(", "LAMBDA", "FILTER(", "UNIQUE(", "SORT(", "SEQUENCE(", "IFS(",
              "MAXIFS", "MINIFS", "SWITCH(", "TEXTJOIN", "CONCAT(")
    for path in templates.glob("*.xlsx"):
        for name, data in _members(path).items():
            if name.startswith("xl/worksheets/"):
                text = data.decode("utf-8")
                for word in banned:
                    assert f"<f>{word}" not in text and f"({word}" not in text and f",{word}" not in text, (path.name, word)
                assert "vbaProject" not in name
