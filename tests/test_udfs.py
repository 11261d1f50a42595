"""The Excel functions (udfs/xl_elo_udfs.py): called as Python with the shapes Excel passes,
and through xlwings' own Office.js machinery (custom_functions_meta / custom_functions_call)."""

from __future__ import annotations

import asyncio
import csv
import importlib.util
import io

import pytest

xw = pytest.importorskip("xlwings")

from conftest import ROOT  # noqa: E402

from xl_elo.frontends.cli import main  # noqa: E402

spec = importlib.util.spec_from_file_location("xl_elo_udfs", ROOT / "udfs" / "xl_elo_udfs.py")
udfs = importlib.util.module_from_spec(spec)
spec.loader.exec_module(udfs)

FUNCTIONS = {
    "ELO_EXPECTED", "FIDE_EXPECTED", "FQE_EXPECTED", "FQE_TABLE", "ELO_K", "ELO_CHANGE", "ELO_PERFORMANCE",
    "FFE_DP", "FFE_ROUND", "ELO_CONVERT", "SHOGI_GRADE", "SHOGI_GRADE_BOUNDS", "SHOGI_HANDICAP", "ELO_RATE",
    "CFC_EXPECTED", "CFC_BONUS", "GLICKO2_UPDATE", "GLICKO2_EXPECTED",
    "USCF_EFFECTIVE_GAMES", "USCF_K", "USCF_FLOOR", "DWZ_EXPECTED", "DWZ_E",
    "FIDE_NORM_PERFORMANCE", "FIDE_NORM_SCORE", "ELO_HISTORY",
}


def call(name, *args):
    """A call as Excel (Office.js) makes it: every argument a 2-D list."""
    from xlwings import server

    payload = {"func_name": name, "args": list(args), "version": xw.__version__, "client": "Office.js",
               "runtime": "1.4", "caller_address": "[t.xlsx]Sheet1!A1", "culture_info_name": "en-US",
               "date_format": "yyyy-mm-dd"}
    return asyncio.run(server.custom_functions_call(payload, udfs))


def test_meta_lists_every_function_with_its_docs():
    from xlwings import server

    meta = server.custom_functions_meta(udfs)["functions"]
    by_id = {f["id"]: f for f in meta}
    assert set(by_id) == FUNCTIONS
    for f in meta:
        assert f["description"] and not f["description"].startswith("Python function")
        for p in f["parameters"]:
            assert p["description"] and not p["description"].startswith("Positional argument"), (f["id"], p["name"])
    assert [p["name"] for p in by_id["ELO_K"]["parameters"]] == ["federation", "rating", "games", "age", "ever_2400"]


# --------------------------------------------------------------------------- plain Python, Excel shapes


def test_expected_single_cell_column_row_and_blanks():
    assert udfs.elo_expected(1500.0, 1400.0) == pytest.approx(0.6400649998)
    assert udfs.elo_expected([[1500.0]], [[1400.0]]) == [[pytest.approx(0.6400649998)]]
    col = udfs.elo_expected([[1500.0], [None], [""], [0.0], [1400.0]], [[1400.0]])
    assert [r[0] for r in col][1:4] == [None, None, None] and col[4][0] == 0.5
    row = udfs.elo_expected([[1500.0, 1600.0]], [[1400.0, 1600.0]])
    assert len(row) == 1 and row[0][1] == 0.5


def test_fide_and_fqe_tables():
    assert udfs.fide_expected([[2000.0], [2700.0]], [[1500.0], [2200.0]]) == [[0.92], [0.96]]  # 400-point rule
    assert udfs.fqe_expected(1876.0, 2024.0) == 0.3
    assert udfs.fqe_table(148.0) == 0.7 and udfs.fqe_table(-148.0) == 0.3
    assert udfs.fqe_table([[0.0, 735.0, -800.0]]) == [[0.5, 1.0, 0.0]]


def test_k_factors():
    assert udfs.elo_k("FIDE", [[2100.0], [2450.0]]) == [[20.0], [10.0]]
    assert udfs.elo_k("fide", 1600.0, 10.0) == 40
    assert udfs.elo_k("fide", 2350.0, None, None, True) == 10
    assert udfs.elo_k("fide", 2250.0, 100.0, 15.0) == 40
    assert udfs.elo_k("swiss", [[2250.0, 1500.0]], 100.0) == [[16.0, 24.0]]
    assert udfs.elo_k("fesa", [[700.0], [1700.0], [2300.0]]) == [[40.0], [24.0], [16.0]]


def test_change_for_each_federation():
    opps = [[2024.0], [2161.0], [1547.0], [1785.0], [1979.0], [2176.0], [2181.0], [2048.0]]
    res = [[1.0], [0.0], ["½"], [1.0], [1.0], [0.0], [1.0], [1.0]]
    assert udfs.elo_change("FQE", 1876.0, opps, res) == 136  # 84 + bonus 52 (seed 004)
    assert udfs.elo_change("FIDE", 2000.0, [[1500.0]], [[1.0]]) == 2  # 400-point rule: 1.6 -> 2
    assert udfs.elo_change("FSE", 1800.0, [[1800.0]], [["1-0"]]) == 12
    assert udfs.elo_change("FESA", 1500.0, [[1700.0]], [[1.0]], 100.0) == 35  # upset gain


def test_fide_corrections_reach_the_functions():
    """SPEC 2.1, 2.3, 2.6 as corrected: halves away from zero, K 40 in the year of the 18th
    birthday, dp(1.00) = +800."""
    assert udfs.elo_change("FIDE", 2813.0, [[2623.0]], [[0.5]], 100.0, None) == -3  # -2.50 -> -3
    assert udfs.elo_k("FIDE", 2250.0, 100.0, 18.0) == 40 and udfs.elo_k("FIDE", 2250.0, 100.0, 19.0) == 20
    assert udfs.elo_performance("fide", [[1800.0], [2000.0]], [[1.0], [1.0]]) == 2700
    assert udfs.elo_performance("fide", [[1800.0], [2000.0]], [[0.0], [0.0]]) == 1100


def test_performance_methods():
    assert udfs.elo_performance("fesa", [[1740.0], [1740.0], [1740.0]], [[1.0], [0.0], [1.0]]) == 1860
    assert udfs.elo_performance("fqe", [[1500.0], [1600.0], [1700.0], [1800.0]], [[1.0], [0.5], [0.0], [1.0]]) == 1750
    assert udfs.elo_performance("fide", [[1600.0], [1700.0], [1800.0], [1900.0], [2000.0]],
                                [[1.0], [0.5], [0.5], [0.0], [1.0]]) == 1872  # Ra 1800 + dp(0.60) = 72
    ffe_perf = udfs.elo_performance("ffe", [[1440.0], [1460.0], [2160.0], [2500.0]], [[1.0], [1.0], [0.0], [0.5]],
                                    1800.0)
    assert ffe_perf == pytest.approx(2172.71, abs=0.01)


def test_dp_round_convert():
    assert udfs.ffe_dp([[0.75]], "table") == [[193.0]]
    assert udfs.ffe_dp(1.0) == 470
    assert udfs.ffe_round([[1234.999, 1235.0, 1244.9]]) == [[1230.0, 1240.0, 1240.0]]
    assert udfs.elo_convert(180.0, "bcr", "elo") == 2040
    assert udfs.elo_convert([[2040.0], [None]], "elo", "bcr") == [[180.0], [None]]


def test_shogi_helpers():
    assert udfs.shogi_grade(1198.0) == "6 kyu"
    assert udfs.shogi_grade([[1680.0, None]]) == [["1 dan", None]]
    assert udfs.shogi_grade_bounds("3 kyu") == [[1360, 1410, 1460, 12, 6]]
    assert udfs.shogi_handicap(1680.0, "B") == 170
    from xl_elo.federations.fesa import grades

    assert udfs.shogi_handicap([[1680.0], [1560.0]], "S") == [[pytest.approx(1680 - grades.shift(1680, 0.2))], [20]]


@pytest.mark.parametrize("fn, args, words", [
    ("elo_expected", ("abc", 1400.0), "argument rating: 'abc' is not a number"),
    ("elo_expected", ([[1.0], [2.0]], [[1.0], [2.0], [3.0]]), "do not match"),
    ("elo_k", ("nowhere", 1500.0), "argument federation: unknown federation"),
    ("elo_change", ("fide", 1500.0, [[1500.0], [1600.0]], [[1.0]]), "2 opponents but 1 results"),
    ("elo_change", ("fide", 1500.0, [[1500.0]], [["win?"]]), "argument results"),
    ("elo_performance", ("nowhere", [[1500.0]], [[1.0]]), "argument method"),
    ("ffe_dp", (1.5,), "between 0 and 1"),
    ("shogi_grade_bounds", ("11 dan",), "argument grade"),
    ("shogi_handicap", (1500.0, "queen"), "argument handicap"),
])
def test_bad_arguments_name_the_argument(fn, args, words):
    with pytest.raises(udfs.ArgumentError, match=words):
        getattr(udfs, fn)(*args)


# --------------------------------------------------------------------------- through xlwings


def test_office_js_calls():
    assert call("elo_expected", [[1500.0]], [[1400.0]]) == [[pytest.approx(0.6400649998)]]
    assert call("fqe_table", [[148.0]]) == [[0.7]]
    assert call("elo_expected", [[1500.0, 1600.0, ""]], [[1400.0]])[0][2] in ("", None)
    assert call("elo_k", [["fide"]], [[2100.0]], [[""]], [[""]], [[""]]) == [[20]]
    assert call("shogi_grade", [[1198.0, 1700.0]]) == [["6 kyu", "1 dan"]]
    assert call("shogi_grade_bounds", [["5 dan"]]) == [[2240, 2340, 2440, "", 10]]
    # a title norm (rules 13.6 - 13.8): nine 2475s, 6 of 9 -> p .67, dp 125 -> Rp 2600; 6 is the score needed
    assert call("fide_norm_performance", [[2475.0]] * 9, [[1.0]] * 6 + [[0.0]] * 3, [["GM"]]) == [[2600]]
    assert call("fide_norm_score", [[2475.0]] * 9 + [[""]], [[""]]) == [[6]]


def test_office_js_error_is_a_message_not_a_traceback():
    with pytest.raises(udfs.ArgumentError) as exc:
        call("elo_expected", [["abc"]], [[1400.0]])
    assert str(exc.value).startswith("argument rating: 'abc' is not a number (expected a rating")


def _csv_rows(path):
    with open(path, newline="", encoding="utf-8") as f:
        rows = list(csv.reader(f))
    return [[_excel(v) for v in row] for row in rows]


def _excel(v):
    """A CSV cell as Excel passes it: numbers as floats, blanks as ''."""
    try:
        return float(v)
    except ValueError:
        return v


EVENTS = [("fide", "fide"), ("fse", "fse"), ("fqe", "fqe"), ("ffe", "ffe"), ("fesa", "fesa")]


@pytest.mark.parametrize("federation, folder", EVENTS)
def test_elo_rate_equals_the_command_line(federation, folder, capsys, tmp_path):
    from importlib import resources

    base = resources.files(f"xl_elo.federations.{folder}") / "example"
    with resources.as_file(base) as d:
        period = {"fide": "2026-10", "fse": "2025-10"}.get(federation)
        args = ["rate", "-f", federation, "-p", str(d / "players.csv"), "-g", str(d / "games.csv"), "--format", "csv"]
        args += ["--period", period] if period else []
        history = d / "history.csv"
        if history.exists():
            args += ["--history", str(history)]
        assert main(args) == 0
        cli = list(csv.reader(io.StringIO(capsys.readouterr().out)))
        hist_range = _csv_rows(history) if history.exists() else [[""]]
        got = call("elo_rate", [[federation]], _csv_rows(d / "players.csv"), _csv_rows(d / "games.csv"), hist_range,
                   [[period or ""]])
    assert got[0] == cli[0]
    assert len(got) == len(cli)
    for row_udf, row_cli in zip(got[1:], cli[1:], strict=True):
        for a, b in zip(row_udf, row_cli, strict=True):
            if isinstance(a, float | int) and not isinstance(a, bool) and b not in ("", "yes", "no"):
                assert float(b) == pytest.approx(a, abs=1e-6)
            else:
                assert str(a) == b


def test_elo_rate_bad_input_names_the_range_row_and_value():
    with pytest.raises(udfs.ArgumentError, match=r"argument players, row 3, column 'rating': 'x' is not a number"):
        udfs.elo_rate("fqe", [["id", "rating"], ["a", 1500.0], ["b", "x"]],
                      [["player", "opponent", "result"], ["a", "b", 1.0]])


# --------------------------------------------------------------------------- ELO_RATE and the command line

def _ranges(ev):
    """An event as Excel passes its two ranges: floats for numbers, None for blank cells."""
    from xl_elo.model import facts

    columns = ["id", "name", "rating", *(f.name for f in facts(type(ev.players[0])))]

    def cell(value):
        if isinstance(value, bool):
            return "yes" if value else None
        if isinstance(value, int):
            return float(value)
        return value

    players = [columns] + [[cell(getattr(p, c)) for c in columns] for p in ev.players]
    games = [["round", "player", "opponent", "result"]]
    for g in ev.games:
        result = g.result.score if g.result.rated else ("+" if g.opponent else None)
        games.append([float(g.round) if g.round else None, g.player, g.opponent, result])
    return players, games


def _written(rows, path):
    def text(v):
        if v is None:
            return ""
        if isinstance(v, float) and v.is_integer():
            return str(int(v))
        return str(v)

    with open(path, "w", newline="", encoding="utf-8") as f:
        csv.writer(f).writerows([[text(v) for v in row] for row in rows])
    return path


def _both_ways(tmp_path, federation, players, games):
    """ELO_RATE on the ranges, and the command line on the same cells written to CSV files."""
    try:
        got = udfs.elo_rate(federation, players, games, None, "2026-10")
    except udfs.ArgumentError:
        got = None
    out, err = io.StringIO(), io.StringIO()
    code = main(["rate", "-f", federation, "-p", str(_written(players, tmp_path / "p.csv")), "-g",
                 str(_written(games, tmp_path / "g.csv")), "--period", "2026-10", "--format", "csv"], out, err)
    cli = list(csv.reader(io.StringIO(out.getvalue()))) if code == 0 else None
    return got, cli


def _same_table(got, cli):
    assert (got is None) == (cli is None)
    if got is None:
        return
    assert len(got) == len(cli)
    for row_udf, row_cli in zip(got, cli, strict=True):
        for a, b in zip(row_udf, row_cli, strict=True):
            if isinstance(a, float | int) and not isinstance(a, bool) and b not in ("", "yes", "no"):
                assert float(b) == pytest.approx(a, abs=1e-6)
            else:  # a CSV file neutralises text a spreadsheet would run ('+); a cell holds it as it is
                assert str(a) == (b[1:] if b[:2] in ("'=", "'+", "'-", "'@") else b)


@pytest.mark.parametrize("federation", ["fide", "fse", "ffe", "fqe"])
@pytest.mark.parametrize("seed", [1, 2])
def test_elo_rate_equals_the_command_line_on_the_same_cells(tmp_path, federation, seed):
    from gen import random_event

    ev = random_event(seed, 150, 9, unrated=0.2, federation=federation, period="2026-10")
    got, cli = _both_ways(tmp_path, federation, *_ranges(ev))
    assert got is not None and len(got) == 151
    assert all(type(v) in (str, int, float) for row in got for v in row)
    _same_table(got, cli)


from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

_CELLS = st.sampled_from([None, "", " ", "p003", "p004", " p003", 1.0, 0.0, 0.5, 1850.0, 1850.5, 3600.0, -3.0,
                          "yes", "no", "x", "junior", "½", "1-0", "+", 2001.0, "1850"])


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_elo_rate_and_the_command_line_agree_on_random_cells(tmp_path, data):
    """The same cells in ranges and in CSV files: both refuse them, or both give the same table."""
    from gen import random_event

    federation = data.draw(st.sampled_from(["fide", "fse", "ffe"]))
    players, games = _ranges(random_event(3, 8, 3, unrated=0.3, federation=federation, period="2026-10"))
    for _ in range(data.draw(st.integers(1, 3))):
        table = data.draw(st.sampled_from([players, games]))
        row = table[data.draw(st.integers(1, len(table) - 1))]
        row[data.draw(st.integers(0, len(row) - 1))] = data.draw(_CELLS)
    _same_table(*_both_ways(tmp_path, federation, players, games))


def test_elo_k_says_what_its_games_argument_is_for_each_system():
    """ELO_K's ``games`` help names each system whose K hangs on the fact given there (the DWZ's index too), and
    the value given there changes that system's K as the help says."""
    from xl_elo.frontends.functions import by_name

    k = by_name()["ELO_K"]
    words = next(a for a in k.args if a.name == "games").words()
    assert "DWZ: the index (blank: over 5)." in words and "FESA" not in words
    # an index of 1 caps E at 5 x 1 = 5 (rules 9.3): the slot is the index for DWZ
    assert k.function("DWZ", 1850, 1, 40) == 5 and k.function("DWZ", 1850, None, 40) > 5
