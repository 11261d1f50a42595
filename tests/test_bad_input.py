"""Bad input and hostile files: every problem explained, nothing lost, nothing run.

tests/data/bad/<case>/ holds a players and a games CSV and expected.txt: the exit status and
a message the command must print. Hostile workbooks (zip bomb, entity bomb, a million blank
rows, macros) are built by the tests themselves, never committed as binaries.
"""

from __future__ import annotations

import contextlib
import io
import os
import re
import shutil
import zipfile
from pathlib import Path

import pytest
from conftest import DATA
from hypothesis import given, settings
from hypothesis import strategies as st

from xl_elo.federations import get
from xl_elo.formats.reader import Table, read_games, read_history, read_players
from xl_elo.formats.writers import write_text_atomic
from xl_elo.frontends.cli import main
from xl_elo.model import InputError

CASES = sorted(p.name for p in (DATA / "bad").iterdir() if p.is_dir())


@pytest.mark.parametrize("case", CASES)
def test_corpus(case, capsys):
    d = DATA / "bad" / case
    status, message = (d / "expected.txt").read_text(encoding="utf-8").split("\n")[:2]
    code = main(["rate", "-f", "fqe", "-p", str(d / "players.csv"), "-g", str(d / "games.csv"), "--format", "csv"])
    err = capsys.readouterr().err
    assert code == int(status), err
    assert message in err
    assert "Traceback" not in err


cells = st.one_of(st.none(), st.text(max_size=8), st.integers(-5000, 5000), st.floats(allow_nan=True),
                  st.sampled_from(["1", "0.5", "½", "bye", "+", "#N/A", "=A1", " ", "\u00a0", "1,5", "yes"]))


@settings(max_examples=150, deadline=None)
@given(st.lists(st.sampled_from(["id", "name", "rating", "games", "round", "player", "opponent", "result",
                                 "opponent_rating", "grade", "mp_reached", "handicap", "x"]), min_size=1, max_size=6),
       st.lists(st.lists(cells, min_size=0, max_size=7), max_size=6))
def test_readers_give_a_result_or_a_clean_error(header, rows):
    from xl_elo.federations import registry

    for typed in (False, True):
        table = Table.from_rows("fuzz", header, rows, typed=typed)
        found = [read_games(table, get("fesa").Game)[1], read_history(table)[1]]
        found += [read_players(table, m.Player, 2026)[1] for m in registry().values()]
        for problems in found:
            assert all(str(p).startswith("fuzz") for p in problems)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.lists(cells, min_size=1, max_size=5), min_size=1, max_size=5))
def test_udf_ranges_give_a_result_or_a_clean_error(rows):
    import importlib.util

    from conftest import ROOT

    spec = importlib.util.spec_from_file_location("xl_elo_udfs_fuzz", ROOT / "udfs" / "xl_elo_udfs.py")
    udfs = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(udfs)
    for fn, args in ((udfs.elo_expected, (rows, 1500.0)),
                     (udfs.elo_rate, ("fqe", [["id", "rating"], *rows], [["player", "opponent", "result"], *rows]))):
        with contextlib.suppress(udfs.ArgumentError):
            fn(*args)


def test_interrupted_write_keeps_the_previous_output(tmp_path, monkeypatch):
    out = tmp_path / "results.csv"
    out.write_text("previous results\n", encoding="utf-8")

    def boom(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(os, "replace", boom)
    with pytest.raises(KeyboardInterrupt):
        write_text_atomic(out, "new results\n" * 1000)
    assert out.read_text(encoding="utf-8") == "previous results\n"
    assert [p.name for p in tmp_path.iterdir()] == ["results.csv"]  # no half-written temporary left


# --------------------------------------------------------------------------- hostile workbooks


@pytest.fixture(scope="module")
def fqe_template(tmp_path_factory):
    """The FQE's template with room for a small event (what is checked here does not depend on the room, and a
    full room costs seconds to load and save)."""
    from xl_elo.templates import Capacity, build_template

    return build_template("fqe", tmp_path_factory.mktemp("t"), Capacity(24, 120, 120))


def _rate_workbook(path, capsys):
    code = main(["rate", str(path), "--format", "csv"])
    return code, capsys.readouterr().err


# The hostile workbooks are built by these functions (bench/run.py times the refusals: a test asserts no time)


def zip_bomb(target: Path) -> Path:
    """600 MB of zeros in a sheet, about 0.6 MB on disk."""
    with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("[Content_Types].xml", "<Types/>")
        with z.open("xl/worksheets/sheet1.xml", "w", force_zip64=True) as f:
            chunk = b"\0" * 2**20
            for _ in range(600):
                f.write(chunk)
    return target


def entity_bomb(template: Path, target: Path) -> Path:
    """A template whose players sheet declares a billion laughs."""
    from xl_elo.formats.workbook import _sheet_paths

    doctype = ('<!DOCTYPE lolz [<!ENTITY lol "lol">'
               + "".join(f'<!ENTITY lol{i} "{("&lol" + (str(i - 1) if i > 1 else "") + ";") * 10}">'
                         for i in range(1, 10))
               + "]>")
    with zipfile.ZipFile(template) as zin, zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as zout:
        players = _sheet_paths(zin)["players"]
        for item in zin.infolist():
            data = zin.read(item.filename)
            if item.filename == players:  # a billion laughs in the players sheet
                text = data.decode()
                head, rest = text.split("?>", 1) if text.startswith("<?xml") else ("", text)
                text = (head + "?>" if head else "") + doctype + rest
                text = text.replace('<c r="A2" s=', '<c r="A2" t="inlineStr" s=', 1)
                data = text.encode()
            zout.writestr(item, data)
    return target


def blank_rows(template: Path, target: Path) -> Path:
    """A template whose games sheet holds a million formatted blank rows."""
    from xl_elo.formats.workbook import _sheet_paths

    with zipfile.ZipFile(template) as zin, zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as zout:
        games = _sheet_paths(zin)["games"]
        for item in zin.infolist():
            data = zin.read(item.filename)
            if item.filename == games:
                rows = "".join(f'<row r="{r}"><c r="A{r}" s="1"/></row>' for r in range(3002, 1_003_002))
                data = data.replace(b"</sheetData>", rows.encode() + b"</sheetData>")
                data = re.sub(rb'<dimension ref="[^"]*"', b'<dimension ref="A1:F1003001"', data)
            zout.writestr(item, data)
    return target


def test_zip_bomb_is_refused(tmp_path, capsys):
    bomb = zip_bomb(tmp_path / "bomb.xlsx")
    assert bomb.stat().st_size < 5 * 2**20
    code, err = _rate_workbook(bomb, capsys)
    assert code == 1 and "would unpack to 629,145,608 bytes (at most" in err and "XL_ELO_MAX_XLSX_BYTES" in err


def test_entity_bomb_is_refused(fqe_template, tmp_path, capsys):
    code, err = _rate_workbook(entity_bomb(fqe_template, tmp_path / "entities.xlsx"), capsys)
    assert code == 1 and "not a readable .xlsx workbook" in err


def test_a_million_blank_formatted_rows_are_refused_by_the_declared_size(fqe_template, tmp_path, capsys):
    code, err = _rate_workbook(blank_rows(fqe_template, tmp_path / "blank_rows.xlsx"), capsys)
    assert code == 1 and "sheet games: declares 6,018,006 cells (up to F1003001)" in err


def _edited(template, tmp_path, edit):
    import openpyxl

    wb = openpyxl.load_workbook(template)
    edit(wb)
    path = tmp_path / "edited.xlsx"
    wb.save(path)
    return path


def test_formulas_dates_errors_and_merged_cells_in_inputs(fqe_template, tmp_path, capsys):
    import datetime as dt

    def edit(wb):
        ws = wb["players"]
        for r, (pid, rating) in enumerate([("a", 1500), ("b", "=1400+200"), ("c", dt.datetime(2024, 1, 5)),
                                           ("d", "#N/A")], start=2):
            ws.cell(r, 1, pid)
            ws.cell(r, 3, rating)
            ws.cell(r, 4, 30)
        g = wb["games"]
        g.append([1, "a", "b", 1])
        g.merge_cells("F2:G3")

    path = _edited(fqe_template, tmp_path, edit)
    code, err = _rate_workbook(path, capsys)
    assert code == 1
    assert "sheet players, row 3, column 'rating': a formula (=1400+200) was typed into an input cell" in err
    assert "sheet players, row 4, column 'rating': a date (2024-01-05 00:00:00) was found" in err
    assert "sheet players, row 5, column 'rating': the spreadsheet error #N/A was found" in err
    assert "sheet games, column 'F2:G3': merged cells were found" in err


def test_macros_are_never_run_nor_copied(fqe_template, tmp_path, capsys):
    from xl_elo.formats.workbook import fill_template
    from xl_elo.loader import example_event

    filled = fill_template(fqe_template, example_event("fqe"), tmp_path / "filled.xlsx")
    xlsm = tmp_path / "with_macro.xlsm"
    with zipfile.ZipFile(filled) as zin, zipfile.ZipFile(xlsm, "w", zipfile.ZIP_DEFLATED) as zout:
        for item in zin.infolist():
            zout.writestr(item, zin.read(item.filename))
        zout.writestr("xl/vbaProject.bin",
                      b"Attribute VB_Name = \"Module1\"\nSub Auto_Open()\nShell \"rm -rf /\"\nEnd Sub\n")
    out = tmp_path / "rated.xlsx"
    assert main(["rate", str(xlsm), "--output", str(out)]) == 0
    with zipfile.ZipFile(out) as z:
        assert not [n for n in z.namelist() if "vba" in n.lower()]


def test_text_that_looks_like_a_formula_stays_text_in_xlsx_output(fqe_template, tmp_path, capsys):
    import openpyxl

    from xl_elo.formats.workbook import fill_template
    from xl_elo.loader import read_event

    p = tmp_path / "p.csv"
    g = tmp_path / "g.csv"
    p.write_text('id,name,rating,games\na,"=HYPERLINK(""http://x"")",1500,30\nb,B,1500,30\n', encoding="utf-8")
    g.write_text("round,player,opponent,result\n1,a,b,1\n", encoding="utf-8")
    filled = fill_template(fqe_template, read_event("fqe", p, g), tmp_path / "filled.xlsx")
    assert main(["rate", str(filled), "--output", str(tmp_path / "rated.xlsx")]) == 0
    ws = openpyxl.load_workbook(tmp_path / "rated.xlsx")["xl-elo results"]
    cell = ws.cell(2, 2)
    assert cell.value.startswith("=HYPERLINK") and cell.data_type == "s"


def test_not_a_zip(tmp_path, capsys):
    fake = tmp_path / "fake.xlsx"
    fake.write_text("id,rating\n", encoding="utf-8")
    code, err = _rate_workbook(fake, capsys)
    assert code == 1 and "fake.xlsx: is not an .xlsx workbook (save it as" in err


def test_output_never_over_input_for_workbooks(fqe_template, tmp_path, capsys):
    copy = tmp_path / "copy.xlsx"
    shutil.copyfile(fqe_template, copy)
    before = copy.read_bytes()
    assert main(["rate", str(copy), "--output", str(copy)]) == 2
    assert copy.read_bytes() == before
    assert Path(copy).exists()


def test_extra_sheets_are_reported_not_read(fqe_template, tmp_path, capsys):
    from xl_elo.formats.workbook import fill_template
    from xl_elo.loader import example_event

    filled = fill_template(fqe_template, example_event("fqe"), tmp_path / "filled.xlsx")
    path = _edited(filled, tmp_path, lambda wb: wb.create_sheet("my notes").append(["id", "rating"]))
    code, err = _rate_workbook(path, capsys)
    assert code == 0 and "sheet(s) my notes are not part of the template and were not read" in err


# --------------------------------------------------------------------------- an event built in Python


def test_an_event_built_in_python_is_checked_as_a_file_is():
    """``xl_elo.rate`` on records a caller built: the results read as typed, the values and the
    cross-table rules checked, every problem named with the player's id."""
    from conftest import any_player

    from xl_elo import rate
    from xl_elo.core import ResultError
    from xl_elo.model import Event, Game

    Player = any_player()
    game = Game("a", "b", "1-0", round=1)
    assert (game.result.score, game.counts) == (1.0, True)
    assert Game("a", None, "1-0").counts is False  # a bye whatever its result says
    with pytest.raises(ResultError, match="'1-O' is not a result"):
        Game("a", "b", "1-O")
    assert Player("z", rating=0, games=0).rating is None  # 0 is unrated, as the readers read it

    event = Event([Player("a", rating=1500, games=10), Player("b", rating="15OO", games=40),  # type: ignore[arg-type]
                   Player("c", rating=1500, games=-3), Player("d", rating=1700, games=12)],
                  [Game("a", "d", "1-0", round=1), Game("d", "a", 0.5, round=1), Game("x", "d", "0-1")])
    with pytest.raises(InputError) as caught:
        rate("fqe", event)
    text = str(caught.value)
    assert "player 'b': '15OO' is not a number" in text
    assert "player 'c': -3 is out of range" in text
    assert "the same round" in text or "round 1" in text  # a and d met twice in round 1
    assert "unknown player id 'x'" in text

    # games unknown: FIDE and FSE count the player as not new (as from a TRF report); FQE's provisional
    # status and FESA's performance mode hang on the count, so there it is refused
    unknown = Event([Player("a", rating=1500, games=None), Player("d", rating=1700, games=12)],  # type: ignore[arg-type]
                    [Game("a", "d", "1-0", round=1)], period="2026-10")
    assert {r["id"]: r["k"] for r in rate("fide", unknown)}["a"] == 20
    for code in ("fqe", "fesa"):
        with pytest.raises(InputError, match="player 'a': blank for a rated player"):
            rate(code, unknown)

    fine = Event([Player("a", rating=1500, games=10), Player("d", rating=1700, games=12)],
                 [Game("a", "d", "1-0", round=1)])
    rows = {r["id"]: r for r in rate("fqe", fine)}
    assert rows["a"]["rating_after"] > 1500 and rows["d"]["rating_after"] < 1700


def test_a_players_table_without_a_rating_column_is_refused(tmp_path):
    """A ratings column headed 'Rating FIDE' would otherwise leave every player silently unrated;
    'Elo' and 'cote', the words clubs use, are read as the rating."""
    games = tmp_path / "games.csv"
    games.write_text("round,player,opponent,result\n1,anna,bob,1-0\n")
    for heading, status in (("Rating FIDE", 1), ("Elo", 0), ("cote", 0)):
        players = tmp_path / "players.csv"
        players.write_text(f"id,name,{heading},games\nanna,Anna,2000,30\nbob,Bob,1500,30\n")
        out, err = io.StringIO(), io.StringIO()
        assert main(["rate", "-f", "fqe", "-p", str(players), "-g", str(games), "--format", "csv"],
                    stdout=out, stderr=err) == status, heading
        if status:
            assert "players.csv, row 1: missing required column 'rating' (columns found: id, name, rating_fide" \
                   in err.getvalue()
        else:
            assert out.getvalue().splitlines()[1].startswith("anna,Anna,permanent,2000,"), heading
