"""The one reader: both tokenizers of a CSV file read it alike, the arrays and the records rate alike,
and the one CSV writer writes what the csv module writes.

A plain CSV file is split with numpy (:mod:`xl_elo.formats.fastcsv`), any other cell by cell with
the csv module (:func:`xl_elo.formats.csvfiles.read_csv`); either way one validator reads the
cells (:mod:`xl_elo.formats.reader`). The tests force the cell-by-cell tokenizer on files the
numpy one reads, and check that every answer is the same: the same problems, word for word, or
the same results, byte for byte.
"""

from __future__ import annotations

import csv
import io
import math
from pathlib import Path

import numpy as np
import pytest
from gen import random_event
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from xl_elo import rate
from xl_elo.federations import get
from xl_elo.formats import csvfiles, fastcsv, writers
from xl_elo.formats.reader import Table
from xl_elo.formats.writers import format_cell, results_csv
from xl_elo.frontends.cli import main
from xl_elo.loader import load, read_event
from xl_elo.model import InputError, facts

SPELLINGS = {1.0: ["1", "1-0", "1.0", "W"], 0.5: ["0.5", "½", "=", "0,5", "1/2"], 0.0: ["0", "0-1", "L"]}


def _cell(value) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def write_event(ev, folder: Path, seed: int = 0, delimiter: str = ",", crlf: bool = False, bom: bool = False):
    """Players and games CSV of an event (its system's columns), results in assorted spellings (rules 1.1)."""
    rng = np.random.default_rng(seed)
    terminator = "\r\n" if crlf else "\n"
    players, games = folder / "players.csv", folder / "games.csv"
    columns = ["id", "name", "rating", *(f.name for f in facts(type(ev.players[0])))]
    buf = io.StringIO()
    w = csv.writer(buf, delimiter=delimiter, lineterminator=terminator)
    w.writerow(columns)
    for p in ev.players:
        row = []
        for c in columns:
            value = getattr(p, c)
            if isinstance(value, bool) and rng.random() < 0.3:
                row.append("Yes" if value else "")
            else:
                row.append(_cell(value))
        w.writerow(row)
    players.write_text(("\ufeff" if bom else "") + buf.getvalue(), encoding="utf-8")
    buf = io.StringIO()
    w = csv.writer(buf, delimiter=delimiter, lineterminator=terminator)
    w.writerow(["round", "player", "opponent", "result"])
    for g in ev.games:
        s = g.result.score
        if not g.result.rated or s is None:
            text = "+" if g.opponent else ""
        else:
            choices = [c for c in SPELLINGS[s] if not (delimiter == "," and "," in c)]
            text = choices[int(rng.integers(len(choices)))]
        w.writerow([g.round or "", g.player, g.opponent or "", text])
    games.write_text(buf.getvalue(), encoding="utf-8")
    return players, games


def careful(path: Path) -> Table:
    """A CSV file read by the cell-by-cell tokenizer, whatever it holds."""
    return csvfiles.careful_table(path)


def reference_csv(results) -> bytes:
    """The results table as the csv module writes each row (the writer's reference)."""
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(results.columns)
    for row in results.rows:
        w.writerow([format_cell(row.get(c), csv_safe=True) for c in results.columns])
    return out.getvalue().encode("utf-8")


def verdict(federation: str, players, games, **options):
    """What a reading of the tables gives: its problems, or the results written, both as text."""
    try:
        loaded = load(federation, players=players, games=games, period="2026-10")
        return results_csv(loaded.rate(get(federation).Options(**options) if options else None))
    except InputError as exc:
        return str(exc)


@pytest.mark.parametrize("federation", ["fide", "fse", "fqe", "ffe"])
@pytest.mark.parametrize("seed,players,rounds,unrated", [(1, 40, 7, 0.15), (2, 300, 9, 0.05), (3, 1201, 11, 0.3)])
def test_both_tokenizers_and_both_lanes_give_the_same_bytes(tmp_path, federation, seed, players, rounds, unrated):
    ev = random_event(seed, players, rounds, unrated=unrated, federation=federation)
    p, g = write_event(ev, tmp_path, seed)
    loaded = load(federation, players=p, games=g, period="2026-10")
    assert isinstance(loaded.tables.players.ids, np.ndarray)
    arrays = results_csv(loaded.rate())
    records = get(federation).rate(loaded.event)
    assert arrays == results_csv(records) == reference_csv(records)
    assert verdict(federation, careful(p), careful(g)) == arrays
    assert arrays.count(b"\n") == players + 1


def test_the_ffe_table_method_and_its_warnings(tmp_path, capsys):
    ev = random_event(9, 400, 9, unrated=0.4, federation="ffe")
    p, g = write_event(ev, tmp_path, 9)
    out = tmp_path / "out.csv"
    assert main(["rate", "-f", "ffe", "-p", str(p), "-g", str(g), "-o", str(out), "--dp", "table"]) == 0
    err = capsys.readouterr().err
    records = rate("ffe", read_event("ffe", p, g), dp_method="table")
    assert out.read_bytes() == reference_csv(records)
    assert err == "".join(f"xl-elo: warning: {w}\n" for w in records.warnings)
    assert b"archived for the next period" in out.read_bytes()


@pytest.mark.parametrize("layout", [{"delimiter": ";"}, {"delimiter": "\t"}, {"crlf": True}, {"bom": True}])
def test_excel_layouts_are_split_with_numpy(tmp_path, layout):
    """Semicolons (a French Excel), tabs, CRLF line ends and a byte-order mark: plain files all."""
    ev = random_event(4, 60, 7, federation="fide")
    p, g = write_event(ev, tmp_path, 4, **layout)
    fastcsv.read_columns(p), fastcsv.read_columns(g)  # no Irregular: the numpy tokenizer takes them
    assert verdict("fide", p, g) == verdict("fide", careful(p), careful(g))


def test_logistic_through_the_cli(tmp_path):
    ev = random_event(5, 120, 9, federation="fide")
    p, g = write_event(ev, tmp_path, 5)
    out = tmp_path / "out.csv"
    assert main(["rate", "-f", "fide", "-p", str(p), "-g", str(g), "--period", "2026-10", "-o", str(out),
                 "--expected", "logistic"]) == 0
    assert out.read_bytes() == reference_csv(rate("fide", read_event("fide", p, g, period="2026-10"),
                                                  expected_method="logistic"))


def test_unusual_files_go_to_the_cell_by_cell_tokenizer_and_read_alike(tmp_path):
    """Quotes and ragged rows need the csv module; spaces, decimals, duplicates and formulas are the
    validator's, whichever tokenizer split the file: each file reads the same both ways."""
    ev = random_event(6, 30, 5, federation="fide")
    p, g = write_event(ev, tmp_path, 6)
    text = p.read_text(encoding="utf-8").splitlines()
    cases = {
        "quoted": (text[:2] + ['"' + text[2].replace(",", '",', 1)] + text[3:], True),
        "ragged": (text + ["p999,x"], True),
        "space": (text[:2] + [text[2].replace(",", ", ", 1)] + text[3:], False),
        "decimals": (text[:2] + [text[2].split(",")[0] + ",x,1850.5" + ",1" * 3] + text[3:], False),
        "duplicate": (text + [text[1]], False),
        "formula": (text[:2] + ["=cmd" + text[2]] + text[3:], False),
    }
    for name, (lines, irregular) in cases.items():
        q = tmp_path / f"{name}.csv"
        q.write_text("\n".join(lines) + "\n", encoding="utf-8")
        if irregular:
            with pytest.raises(fastcsv.Irregular):
                fastcsv.read_columns(q)
        assert verdict("fide", q, g) == verdict("fide", careful(q), careful(g)), name


def test_the_cli_reports_an_unknown_id(tmp_path, capsys):
    ev = random_event(7, 30, 5, federation="fide")
    p, g = write_event(ev, tmp_path, 7)
    g.write_text(g.read_text(encoding="utf-8") + "9,p000,nobody,1\n", encoding="utf-8")
    assert main(["rate", "-f", "fide", "-p", str(p), "-g", str(g)]) == 1
    assert "unknown player id 'nobody'" in capsys.readouterr().err


CELLS = st.sampled_from(["", " ", "1", "0", "0.5", "½", "x", "1850", "1850.5", "-3", "yes", "no", "p001", "p002",
                         "junior", "+", "=", "1-0", "2026", "3600", "Ö", "a;b", "\u00a0 1", " p001", "P001",
                         "1 850", "#N/A", "p0*1"])


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_random_cells_read_alike_by_both_tokenizers(tmp_path, data):
    """Random cells in a small period: the same problems, word for word, or the same bytes."""
    federation = data.draw(st.sampled_from(["fide", "fse", "ffe", "fqe"]))
    ev = random_event(8, 8, 3, unrated=0.4, federation=federation)
    p, g = write_event(ev, tmp_path, 8)
    target = data.draw(st.sampled_from([p, g]))
    lines = target.read_text(encoding="utf-8").splitlines()
    for _ in range(data.draw(st.integers(1, 3))):
        r = data.draw(st.integers(1, len(lines) - 1))
        cells = lines[r].split(",")
        c = data.draw(st.integers(0, len(cells) - 1))
        cells[c] = data.draw(CELLS)
        lines[r] = ",".join(cells)
    target.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert verdict(federation, p, g) == verdict(federation, careful(p), careful(g))


@settings(max_examples=200, deadline=None)
@given(st.lists(st.text(alphabet="abcxyz019_-Ké", min_size=1, max_size=20).filter(lambda t: t == t.strip()),
                min_size=1, max_size=60, unique=True),
       st.lists(st.text(alphabet="abcxyz019_-Ké", min_size=1, max_size=24), max_size=30))
def test_id_index_finds_every_id(ids, others):
    index = fastcsv.IdIndex(np.array([i.encode() for i in ids]))
    assert not index.duplicated
    queries = ids + others
    got = index.find(np.array([q.encode() for q in queries]))
    expected = [ids.index(q) if q in ids else -1 for q in queries]
    assert got.tolist() == expected


def test_id_index_says_an_id_is_given_twice():
    index = fastcsv.IdIndex(np.array([b"a1", b"b2", b"a1"]))
    assert index.duplicated
    assert index.find(np.array([b"b2"])).tolist() == [1]


@given(st.lists(st.one_of(st.floats(-1e7, 1e7), st.integers(-10**7, 10**7).map(float),
                          st.integers(-10**9, 10**9).map(lambda i: i / 1e6),
                          st.integers(-10**7, 10**7).map(lambda i: i / 8),
                          st.just(math.nan)), max_size=50))
def test_number_cells_are_format_cell(values):
    got = [t.decode() for t in writers.cell_text(writers.number_cells(np.array(values, dtype=float)))]
    assert got == [format_cell(None if math.isnan(v) else v) for v in values]


@given(st.lists(st.one_of(st.integers(-10**9, 10**9).map(float), st.just(math.nan)), max_size=50))
def test_whole_cells_are_str_int(values):
    got = [t.decode() for t in writers.cell_text(writers.whole_cells(np.array(values, dtype=float)))]
    assert got == ["" if math.isnan(v) else str(int(v)) for v in values]


@given(st.binary(min_size=1, max_size=200).filter(lambda b: b"\x00" not in b), st.data())
def test_cells_read_eight_bytes_at_a_time_are_the_cells(text, data):
    raw = text + bytes(8)  # the reader leaves 8 zero bytes after the text
    buf = np.frombuffer(raw, np.uint8)
    starts = np.array(data.draw(st.lists(st.integers(0, len(text)), min_size=1, max_size=20)))
    ends = np.array([data.draw(st.integers(int(s), len(text))) for s in starts])
    got = fastcsv._spans(buf, starts, ends)
    assert [bytes(g) for g in got] == [text[s:e].rstrip(b"\x00") for s, e in zip(starts, ends, strict=True)]


def test_text_cells_that_need_quoting_are_quoted():
    """Ids and names as the reader keeps them (bytes) are written as the csv module writes them."""
    from xl_elo.model import COMMON_COLUMNS, Results

    ids = np.array([b"a,b", b'say "hi"', b"=cmd", b"plain", b"-1"])
    values = {"id": ids, "name": ["x", None, "y,z", "", "w"]}
    results = Results("toy", COMMON_COLUMNS[:2], values)
    assert results_csv(results) == reference_csv(results)


def test_a_national_systems_own_headings_and_never_another_systems_rating(tmp_path, capsys):
    """German rosters carry the DWZ and FIDE's Elo side by side: under -f dwz the column headed DWZ is the
    rating and the one headed Elo is not read (it is FIDE's); US Chess's and the CFC's words for their
    ratings and member ids are read too, each said in a warning (rules 8, Headings)."""
    p, g = tmp_path / "players.csv", tmp_path / "games.csv"
    p.write_text("id,Name,DWZ,Index,Elo\na,A,1850,12,2010\nb,B,1720,5,1805\n", encoding="utf-8")
    g.write_text("round,player,opponent,result\n1,a,b,1:0\n", encoding="utf-8")
    by_id = load("dwz", players=p, games=g, period="2026-10").rate().by_id()
    assert (by_id["a"]["rating_before"], by_id["b"]["rating_before"]) == (1850, 1720)
    assert main(["rate", "-f", "dwz", "-p", str(p), "-g", str(g), "--period", "2026-10", "--format", "csv"]) == 0
    err = capsys.readouterr().err
    assert "the heading 'DWZ' (column 3) is read as the column 'rating'" in err
    assert "the heading 'Elo' (column 5) is not a column of DWZ's players table and is not read" in err
    p.write_text("USCF ID,Name,USCF Rating,Games\n123,A,1500,50\n124,B,1600,50\n", encoding="utf-8")
    g.write_text("round,player,opponent,result\n1,123,124,1\n", encoding="utf-8")
    assert load("uscf", players=p, games=g, period="2026-10").rate().by_id()["123"]["rating_before"] == 1500
    p.write_text("CFC ID,Name,CFC Rating,games\n123,A,1500,50\n124,B,1600,50\n", encoding="utf-8")
    assert load("cfc", players=p, games=g).rate().by_id()["124"]["rating_before"] == 1600


def test_a_ladders_dated_games_are_its_periods(tmp_path, capsys):
    """A ladder's games headed Date are its rating periods, each date one (rules 12.7), said in a warning."""
    p, g = tmp_path / "players.csv", tmp_path / "games.csv"
    p.write_text("id,rating,rd,volatility\na,1500,200,0.06\nb,1400,30,0.06\n", encoding="utf-8")
    g.write_text("Date,Player,Opponent,Result\n2026-01-07,a,b,1\n2026-01-14,a,b,1\n", encoding="utf-8")
    chained = load("glicko2", players=p, games=g).rate().by_id()["a"]["rating_after"]
    g.write_text("player,opponent,result\na,b,1\n", encoding="utf-8")
    once = load("glicko2", players=p, games=g).rate().by_id()["a"]["rating_after"]
    assert chained > once  # two periods of one win each, not one period
    g.write_text("Date,Player,Opponent,Result\n2026-01-07,a,b,1\n", encoding="utf-8")
    assert main(["rate", "-f", "glicko2", "-p", str(p), "-g", str(g), "--format", "csv"]) == 0
    assert "the heading 'Date' (column 1) is read as the column 'period'" in capsys.readouterr().err


def test_warnings_are_shown_beside_the_problems(tmp_path, capsys):
    """A heading not read is said even when the input is refused: it may be the column a problem misses
    (a ladder's volatility headed Vol)."""
    p, g = tmp_path / "players.csv", tmp_path / "games.csv"
    p.write_text("id,rating,RD,Vol\na,1500,200,0.06\nb,1400,30,0.06\n", encoding="utf-8")
    g.write_text("player,opponent,result\na,b,1\n", encoding="utf-8")
    assert main(["rate", "-f", "glicko2", "-p", str(p), "-g", str(g)]) == 1
    err = capsys.readouterr().err
    assert "players.csv, row 2, column 'volatility': blank for a rated player" in err
    assert "warning: players.csv: the heading 'Vol' (column 4) is not a column of GLICKO2's players table" in err


@pytest.mark.parametrize("born", ["2010-05-12", "2010/05/12", "12.05.2010", "12/05/2010", "05/12/2010", " 2010 "])
def test_a_date_of_birth_in_a_csv_file_gives_its_year(tmp_path, born):
    """A club database's export with full dates of birth in the birth_year column: the year is taken (FIDE's
    K reads the year only, rules 2.5); either order of day and month gives the same year."""
    players = tmp_path / "players.csv"
    players.write_text(f"id,name,rating,games,birth_year\na,A,1500,30,{born}\nb,B,1600,40,1990\n", encoding="utf-8")
    games = tmp_path / "games.csv"
    games.write_text("round,player,opponent,result\n1,a,b,1\n", encoding="utf-8")
    res = rate("fide", read_event("fide", players, games, period="2026-10"))
    assert res.rows[0]["k"] == 40  # 16 in 2026: a junior


@pytest.mark.parametrize("born, words", [("31.02.2010", "'31.02.2010' is not a date"),
                                         ("2010-13-45", "'2010-13-45' is not a date"),
                                         ("12.05.10", "is not a number")])
def test_a_date_of_birth_that_is_no_date_is_refused(tmp_path, born, words):
    players = tmp_path / "players.csv"
    players.write_text(f"id,name,rating,games,birth_year\na,A,1500,30,{born}\nb,B,1600,40,1990\n", encoding="utf-8")
    games = tmp_path / "games.csv"
    games.write_text("round,player,opponent,result\n1,a,b,1\n", encoding="utf-8")
    with pytest.raises(Exception, match=words) as info:
        read_event("fide", players, games, period="2026-10")
    assert "players.csv, row 2, column 'birth_year'" in str(info.value)


def test_a_date_typed_as_text_in_a_spreadsheet_stays_refused():
    """In a workbook the template's own check reads a number only: the reader says the same (rules 8)."""
    from xl_elo import schema

    with pytest.raises(schema.ValueProblem):
        schema.birth_year("2010-05-12", 2026, typed=True)
    assert schema.birth_year("2010-05-12", 2026) == 2010


def test_a_cell_beyond_the_header_is_never_dropped(tmp_path, capsys):
    """A row with more cells than headings (``a,A,,1500,30`` under ``id,name,rating,games``: a delimiter too
    many) would rate an unrated player with 1,500 games: the row is refused, naming its cells beyond the header;
    empty cells after the last heading (a spreadsheet's trailing delimiters) hold nothing and are passed over."""
    p, g = tmp_path / "players.csv", tmp_path / "games.csv"
    g.write_text("player,opponent,result\na,b,1\n", encoding="utf-8")
    p.write_text("id,name,rating,games\na,A,,1500,30\nb,B,1600,40\n", encoding="utf-8")
    with pytest.raises(InputError) as refused:
        load("fide", players=p, games=g, period="2026-10")
    (problem,) = refused.value.problems
    assert (problem.source, problem.row) == ("players.csv", 2)
    assert "the row has 5 cells under 4 headings: '30' (column 5) would have no heading" in problem.message
    assert main(["rate", "-f", "fide", "-p", str(p), "-g", str(g), "--period", "2026-10"]) == 1
    assert "players.csv, row 2: the row has 5 cells" in capsys.readouterr().err
    p.write_text("id;name;rating;games\na;A;1500;30;;\nb;B;1600;40\n", encoding="utf-8")
    assert load("fide", players=p, games=g, period="2026-10").rate().by_id()["a"]["rating_before"] == 1500


def test_results_a_spreadsheet_made_times_or_dates_of():
    """Rules 1.1: 1:0 typed in a spreadsheet is the time 01:00, 0:1 the time 00:01; a workbook gives it as a
    time, a duration, a date-time on day 0 or a fraction of a day, each read as typed; 1/2 becomes a date,
    refused saying so. The federations' words count (remis, nulle, Sieg ...)."""
    import datetime as dt

    from xl_elo import schema
    from xl_elo.core import DRAW, LOSS, WIN

    for cell, result in ((dt.time(1, 0), WIN), (dt.timedelta(hours=1), WIN), (dt.datetime(1899, 12, 30, 1, 0), WIN),
                         (1 / 24, WIN), (dt.time(0, 1), LOSS), (1 / 1440, LOSS), ("remis", DRAW), ("Remis", DRAW),
                         ("nulle", DRAW), ("gain", WIN), ("perte", LOSS), ("Sieg", WIN), ("Niederlage", LOSS)):
        assert schema.result(cell) == result, cell
    for cell in (dt.date(2026, 1, 2), dt.datetime(2026, 1, 2), 46024):
        with pytest.raises(schema.ValueProblem, match=r"^2026-01-02 is a date, not a result: a spreadsheet makes a "
                                                      r"date of 1/2 typed"):
            schema.result(cell)
    with pytest.raises(schema.ValueProblem, match="13:00:00 is a time of day, not a result"):
        schema.result(dt.time(13, 0))
    players = Table.from_rows("book, sheet players", ["id", "rating", "games"], [["a", 1500, 40], ["b", 1500, 40]],
                              typed=True)
    games = Table.from_rows("book, sheet games", ["player", "opponent", "result"],
                            [["a", "b", dt.timedelta(hours=1)]], typed=True)
    assert load("fide", players=players, games=games, period="2026-10").rate().by_id()["a"]["score"] == 1
