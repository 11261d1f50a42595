"""The command line and the CSV data contract: formats, exit statuses, bad input."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from xl_elo.frontends.cli import main
from xl_elo.loader import read_event
from xl_elo.model import RESULT_COLUMNS


def _write(path, text):
    path.write_text(text, encoding="utf-8")
    return path


@pytest.fixture
def period(tmp_path):
    players = _write(tmp_path / "players.csv", "id,name,rating,games,birth_year,ever_2400\n"
                     "a,Anna,2000,100,1990,no\nb,Bruno,1500,100,1990,no\nc,Carla,1800,10,2012,no\n")
    games = _write(tmp_path / "games.csv", "round,player,opponent,result\n1,a,b,1-0\n2,b,c,½\n3,c,a,0\n4,a,,bye\n")
    return players, games


def test_rate_json_has_exactly_the_spec_8_columns(period, capsys):
    players, games = period
    assert main(["rate", "-f", "fide", "-p", str(players), "-g", str(games), "--period", "2026-10",
                 "--format", "json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["federation"] == "fide" and doc["period"] == "2026-10"
    first = doc["results"][0]
    assert list(first)[: len(RESULT_COLUMNS)] == list(RESULT_COLUMNS)
    # a beat b (2000 vs 1500: 400-point rule, 20 * 0.08 = 1.6) and c (1800, PD 0.76: 20 * 0.24
    # = 4.8): 6.4 -> 6
    assert first["change"] == 6 and first["rating_after"] == 2006


def test_rate_csv_and_table_formats(period, capsys):
    players, games = period
    fse = ["rate", "-f", "fse", "-p", str(players), "-g", str(games), "--period", "2026-10"]
    assert main([*fse, "--format", "csv"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith(",".join(RESULT_COLUMNS))
    assert main([*fse, "--format", "table", "--wide"]) == 0  # every column, one line a player
    out = capsys.readouterr().out
    assert out.splitlines()[1].startswith("--") and out.splitlines()[0].split()[:4] == list(RESULT_COLUMNS[:4])


def test_a_table_fits_an_80_column_terminal_and_is_wider_on_request(tmp_path, capsys):
    """Issue 34: the table a rating officer reads in a terminal fits its width (80 in a pipe or a file): the key
    columns first (ratings before and after, games, score, change), the others as they fit, a long name cut,
    the notes below, the columns left out named; --wide gives every column, --columns the ones named."""
    from xl_elo.frontends.demo import example_inputs
    from xl_elo.loader import examples

    ex = next(e for e in examples() if e.federation == "ffe")
    files = example_inputs(ex, tmp_path)
    ffe = ["rate", "-f", "ffe", "-p", str(files["players"]), "-g", str(files["games"]), "--period", str(ex.period)]
    assert main([*ffe, "--format", "table"]) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert max(map(len, lines)) <= 80
    assert lines[0].split()[:2] == ["rating", "games"] and lines[1].split()[:5] == ["id", "name", "status", "before",
                                                                                  "rated"]
    assert "archived for the next period" in out.split("notes:")[1]  # the FFE's note for an archived player
    assert "more columns:" in out and "--wide" in out and "archive_perf" in out.split("more columns:")[1]
    assert main([*ffe, "--format", "table", "--wide"]) == 0
    wide = capsys.readouterr().out.splitlines()
    assert max(map(len, wide)) > 80 and "archive_perf" in wide[0]
    assert main([*ffe, "--format", "table", "--columns", "id,rating_after, dp"]) == 0
    assert capsys.readouterr().out.splitlines()[0].split() == ["id", "rating_after", "dp"]
    assert main([*ffe, "--format", "table", "--columns", "id,rd"]) == 2
    assert "'rd' is not a results column of FFE" in capsys.readouterr().err
    assert main([*ffe, "--format", "csv", "--columns", "id"]) == 2
    assert main([*ffe, "--format", "report"]) == 0
    assert max(map(len, capsys.readouterr().out.splitlines())) <= 80


def test_output_file_and_never_over_an_input(period, tmp_path, capsys):
    players, games = period
    out = tmp_path / "results.json"
    fide = ["rate", "-f", "fide", "-p", str(players), "-g", str(games), "--period", "2026-10"]
    assert main([*fide, "-o", str(out)]) == 0
    assert json.loads(out.read_text())["federation"] == "fide"
    before = players.read_text()
    assert main([*fide, "-o", str(players)]) == 2
    assert "refusing to write the output over the input file" in capsys.readouterr().err
    assert players.read_text() == before


def test_unknown_federation_is_a_usage_error(period, capsys):
    players, games = period
    assert main(["rate", "-f", "nowhere", "-p", str(players), "-g", str(games)]) == 2
    assert "unknown federation 'nowhere'" in capsys.readouterr().err


def test_aliases(period, capsys):
    players, games = period
    assert main(["rate", "-f", "SSB", "-p", str(players), "-g", str(games), "--period", "2026-10",
                 "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["federation"] == "fse"


def test_every_subcommand_has_help(capsys):
    for args in (["--help"], ["rate", "--help"], ["calc", "--help"], ["tables", "--help"], ["convert", "--help"],
                 ["demo", "--help"], ["workbooks", "--help"]):
        assert main(args) == 0
        assert "usage: xl-elo" in capsys.readouterr().out


def test_missing_required_option_is_usage(capsys):
    assert main(["rate", "-f", "fide"]) == 2


def test_demo_runs_and_writes_results(tmp_path, capsys):
    assert main(["demo", "--output-dir", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "daniel" in out and "2012" in out  # seed 004's worked example
    assert (tmp_path / "fqe_coq_results.csv").exists()
    assert (tmp_path / "fesa_13th_nekomadoken_results_history.csv").exists()
    from xl_elo.formats.workbook import read_workbook

    filled = read_workbook(tmp_path / "fqe_event_daniel.xlsx")  # the filled template workbook
    assert filled.federation == "fqe" and next(p.id for p in filled.event.players) == "daniel"
    filled = read_workbook(tmp_path / "dwz_tournament_barthel.xlsx")  # DWZ's too, his remaining game with it
    assert filled.federation == "dwz" and [h.opponent_rating for h in filled.event.history] == [1177]


def test_the_demo_of_one_system(tmp_path, capsys):
    """``xl-elo demo --only dwz``: that system's example alone (its files, its filled workbook); a name that is
    no system is a usage error naming the systems."""
    assert main(["demo", "--only", "DSB", "--output-dir", str(tmp_path)]) == 0
    assert sorted(p.name for p in tmp_path.glob("*.csv")) == ["dwz_barthel_2014_results.csv"]
    assert (tmp_path / "dwz_tournament_barthel.xlsx").exists()
    assert main(["demo", "--only", "chess", "--output-dir", str(tmp_path)]) == 2
    assert "unknown system in --only chess; expected one of fide" in capsys.readouterr().err


def test_workbooks_with_a_room_of_ones_own_and_never_over_a_filled_one(tmp_path, capsys):
    """``xl-elo workbooks --players 30 --games 150``: a template with that room, named for it (what it says in its
    instructions and its names); a second build into the same folder is refused (the first may have been filled
    there) unless --replace; a room out of range is a usage error."""
    import openpyxl

    folder = tmp_path / "mine"
    assert main(["workbooks", "-o", str(folder), "--only", "fqe", "--players", "30", "--games", "150"]) == 0
    wb = openpyxl.load_workbook(folder / "fqe_event_30.xlsx", read_only=True)
    assert "$A$31" in wb.defined_names["player_id"].attr_text  # rows 2 to 31
    assert "$151" in wb.defined_names["game_player"].attr_text
    wb.close()
    capsys.readouterr()
    before = (folder / "fqe_event_30.xlsx").read_bytes()
    assert main(["workbooks", "-o", str(folder), "--only", "fqe", "--players", "30", "--games", "150"]) == 2
    assert "exists (a template you may have filled)" in capsys.readouterr().err
    assert (folder / "fqe_event_30.xlsx").read_bytes() == before
    assert main(["workbooks", "-o", str(folder), "--only", "fqe", "--players", "30", "--games", "150",
                 "--replace"]) == 0
    assert main(["workbooks", "-o", str(folder), "--only", "fqe", "--players", "30", "--language", "en"]) == 0
    assert (folder / "fqe_event_en_30.xlsx").exists()  # the FQE's is French: another language says so in its name
    assert main(["workbooks", "-o", str(folder), "--only", "fqe", "--language", "xx"]) == 2
    assert "no catalogue for the language 'xx'" in capsys.readouterr().err
    assert main(["workbooks", "-o", str(tmp_path / "other"), "--only", "fqe", "--players", "0"]) == 2
    assert "--players 0 is out of range (expected 1 to 2,000" in capsys.readouterr().err


def test_workbooks_say_which_room_a_template_has_and_refuse_one_too_big(tmp_path, capsys):
    """Issue 34: --history 0 for a template with a history sheet is a usage error, not an internal one; a room a
    template does not have is refused when it is the only one built, said when others take it; a room whose
    workbook would hold more formulas than a spreadsheet opens in reasonable time is refused, naming one that fits
    (and that room is built)."""
    from xl_elo.templates import MAX_FORMULAS, formulas

    out = tmp_path / "t"
    for code in ("dwz", "fesa"):
        assert main(["workbooks", "-o", str(out), "--only", code, "--history", "0"]) == 2
        assert f"the {code} template has a history sheet: --history needs room for 1 row" in capsys.readouterr().err
    assert main(["workbooks", "-o", str(out), "--only", "fide", "--history", "10"]) == 2
    assert "--history: the fide workbook has no history sheet (--history is for fesa, dwz)" in capsys.readouterr().err
    assert main(["workbooks", "-o", str(out), "--only", "uscf", "--periods", "3"]) == 2
    assert main(["workbooks", "-o", str(out), "--only", "uscf", "--only", "dwz", "--history", "5", "--players", "4",
                 "--games", "6"]) == 0
    captured = capsys.readouterr()
    assert "warning: --history is for the templates with a history sheet (dwz); uscf has none" in captured.err
    assert (out / "uscf_event_4.xlsx").exists() and (out / "dwz_tournament_4.xlsx").exists()  # named for its room
    assert main(["workbooks", "-o", str(out), "--only", "glicko2", "--players", "2000", "--games", "20000",
                 "--periods", "52"]) == 2
    err = capsys.readouterr().err
    from dataclasses import replace

    from xl_elo.templates import default_capacity

    asked = formulas("glicko2", replace(default_capacity("glicko2"), players=2000, games=20000, periods=52))
    assert asked > 10 * MAX_FORMULAS  # 52 period sheets of 2,000 players, 40,000 sides in each period's columns
    assert f"would hold {asked:,} formulas" in err and f"at most {MAX_FORMULAS:,}" in err
    fit = [int(x) for x in err.split("e.g. --players ")[1].split(" with")[0].split(" --games ")]

    assert formulas("glicko2", replace(default_capacity("glicko2"), players=fit[0], games=fit[1], periods=52)) \
        <= MAX_FORMULAS < formulas("glicko2", replace(default_capacity("glicko2"), players=fit[0] + 10,
                                                      games=fit[1] + 100, periods=52))
    assert not (out / "glicko2_ladder.xlsx").exists()


def test_builds_into_one_folder_write_through_temporary_files_of_their_own(tmp_path):
    """Issue 34: eight builds into one folder collided on one temporary name (.uscf_event.xlsx.tmp): a file of
    that name, another build's, is left alone."""
    from xl_elo.templates import Capacity, build_template

    other = tmp_path / ".uscf_event.xlsx.tmp"
    other.write_bytes(b"another build's")
    path = build_template("uscf", tmp_path, Capacity(4, 6, 0))
    assert other.read_bytes() == b"another build's" and path.stat().st_size > 10_000
    assert [p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp")] == [other.name]


def test_console_script_is_installed():
    """The installed `xl-elo` entry point answers (attrs' habit: test what users run)."""
    exe = os.path.join(os.path.dirname(sys.executable), "xl-elo")
    if not os.path.exists(exe):
        pytest.skip("no xl-elo script next to this Python")
    out = subprocess.run([exe, "tables"], capture_output=True, text=True)
    assert out.returncode == 0 and "ffe-dp" in out.stdout


# --------------------------------------------------------------------------- bad input


def _bad(tmp_path, players, games, capsys, federation="fide"):
    p = _write(tmp_path / "players.csv", players)
    g = _write(tmp_path / "games.csv", games)
    code = main(["rate", "-f", federation, "-p", str(p), "-g", str(g), "--period", "2026-10"])
    return code, capsys.readouterr().err


PLAYERS = "id,rating,games\na,1500,10\nb,1600,10\n"


@pytest.mark.parametrize(
    "players, games, words",
    [
        (PLAYERS, "round,player,opponent,result\n1,a,zed,1\n",
         "games.csv, row 2, column 'opponent': unknown player id 'zed'"),
        (PLAYERS, "round,player,opponent,result\n1,a,b,1\n2,x,b,0\n",
         "games.csv, row 3, column 'player': unknown player id 'x'"),
        ("id,rating\na,1500\nb,1600\na,1700\n", "player,opponent,result\na,b,1\n",
         "players.csv, row 4, column 'id': duplicate id 'a' (first at row 2)"),
        (PLAYERS, "round,player,opponent,result\n1,a,a,1\n",
         "games.csv, row 2, column 'opponent': player 'a' is paired with himself"),
        (PLAYERS, "round,player,opponent,result\n1,a,b,2-0\n",
         "games.csv, row 2, column 'result': '2-0' is not a result"),
        ("id,rating\na,15OO\nb,1600\n", "player,opponent,result\na,b,1\n",
         "players.csv, row 2, column 'rating': '15OO' is not a number"),
        ("id,rating\na,-5\nb,1600\n", "player,opponent,result\na,b,1\n",
         "players.csv, row 2, column 'rating': '-5' is out of range"),
        ("id,rating\na,3600\nb,1600\n", "player,opponent,result\na,b,1\n",
         "'3600' is out of range (expected a rating: a whole number from 0 to 3500"),
        ("name,rating\nA,1500\n", "player,opponent,result\na,b,1\n",
         "players.csv, row 1: missing required column 'id'"),
        (PLAYERS, "player,opponent\na,b\n", "games.csv, row 1: missing required column 'result'"),
        (PLAYERS, "round,player,opponent,result\n1,a,b,1\n1,b,a,0\n", "meet twice in round 1"),
    ],
)
def test_bad_input_names_file_row_column_and_value(tmp_path, capsys, players, games, words):
    code, err = _bad(tmp_path, players, games, capsys)
    assert code == 1
    assert words in err
    assert "Traceback" not in err


def test_all_problems_reported_together(tmp_path, capsys):
    code, err = _bad(tmp_path, "id,rating\na,abc\nb,-1\n", "player,opponent,result\na,b,x\n", capsys)
    assert code == 1
    assert "3 problems" in err and "row 2" in err and "row 3" in err and "'x' is not a result" in err


def test_missing_file_is_an_input_error(tmp_path, capsys):
    code = main(["rate", "-f", "fide", "-p", str(tmp_path / "nope.csv"), "-g", str(tmp_path / "nope2.csv")])
    assert code == 1
    assert "nope.csv: the file does not exist" in capsys.readouterr().err


def test_forfeits_are_kept_and_reported_not_dropped(tmp_path, capsys):
    p = _write(tmp_path / "p.csv", PLAYERS)
    g = _write(tmp_path / "g.csv", "round,player,opponent,result\n1,a,b,+\n2,a,b,1\n")
    ev = read_event("fqe", p, g)
    assert len(ev.games) == 2 and not ev.games[0].counts and ev.games[0].result.kind.value == "forfeit"
    assert main(["rate", "-f", "fqe", "-p", str(p), "-g", str(g), "--format", "report"]) == 0
    assert "(+)" in capsys.readouterr().out  # shown, marked not rated


def test_results_table_reads_back_as_next_periods_players(period, tmp_path):
    players, games = period
    out = tmp_path / "after.csv"
    assert main(["rate", "-f", "fide", "-p", str(players), "-g", str(games), "--period", "2026-10",
                 "-o", str(out)]) == 0
    again = {p.id: p for p in read_event("fide", out, games, period="2026-10").players}
    assert again["a"].rating == 2006 and again["a"].games == 102


def test_csv_output_neutralises_formulas(tmp_path):
    p = _write(tmp_path / "p.csv", "id,name,rating,games\na,=HYPERLINK(\"x\"),1500,50\nb,@b,1500,50\n")
    g = _write(tmp_path / "g.csv", "player,opponent,result\na,b,1\n")
    out = tmp_path / "r.csv"
    assert main(["rate", "-f", "fse", "-p", str(p), "-g", str(g), "--period", "2026-10", "-o", str(out)]) == 0
    text = out.read_text()
    assert "'=HYPERLINK" in text and "'@b" in text


def test_decimal_commas_semicolons_and_spaces(tmp_path, capsys):
    p = _write(tmp_path / "p.csv", "id;rating;games\n a ;1500,0;50\nb\u00a0;1600;50\n")
    g = _write(tmp_path / "g.csv", "player;opponent;result\na;b;0,5\n")
    ev = read_event("fqe", p, g)
    assert [pl.id for pl in ev.players] == ["a", "b"] and ev.games[0].result.score == 0.5


@pytest.mark.parametrize("period, words", [
    (None, "the period (ages are counted in its year) is blank"),
    ("banana", "'banana' is not a month"),
    ("26-10", "'26-10' is not a month"),
    ("2026-13", "'2026-13' is not a month"),
])
def test_fide_and_fse_need_a_real_month(period, words, tmp_path, capsys):
    """Rules 2.3, 3.2: the period decides the juniors' K; no silent default (issue #14, #19)."""
    p = _write(tmp_path / "p.csv", "id,rating,games,birth_year\na,1500,50,2010\nb,1600,50,1980\n")
    g = _write(tmp_path / "g.csv", "player,opponent,result\na,b,1\n")
    for federation in ("fide", "fse"):
        args = ["rate", "-f", federation, "-p", str(p), "-g", str(g)] + (["--period", period] if period else [])
        assert main(args) == 1
        assert words in capsys.readouterr().err


def test_a_birth_year_after_the_period_is_an_error(tmp_path, capsys):
    p = _write(tmp_path / "p.csv", "id,rating,games,birth_year\na,1500,50,2030\nb,1600,50,1980\n")
    g = _write(tmp_path / "g.csv", "player,opponent,result\na,b,1\n")
    assert main(["rate", "-f", "fide", "-p", str(p), "-g", str(g), "--period", "2026-10"]) == 1
    assert "p.csv, row 2, column 'birth_year': 2030 is out of range (expected a year of birth from 1900 to 2026" \
        in capsys.readouterr().err.replace("'2030'", "2030")


def test_an_option_of_another_federation_is_a_usage_error(period, capsys):
    players, games = period
    assert main(["rate", "-f", "fide", "-p", str(players), "-g", str(games), "--period", "2026-10",
                 "--dp", "table"]) == 2
    assert "--dp-method is not an option of FIDE" in capsys.readouterr().err


def test_the_readmes_python_example_runs_in_a_fresh_interpreter(tmp_path):
    """The README's Python section, run as a user runs it (a new interpreter, the README's own CSV
    files): ``from xl_elo import load`` gives the function, whatever was imported before."""
    import re
    from pathlib import Path

    readme = (Path(__file__).parent.parent / "README.md").read_text(encoding="utf-8")
    for name in ("players.csv", "games.csv"):
        block = re.search(rf"`{name}`[^\n]*\n```\n(.*?)```", readme, re.S)
        assert block, name
        (tmp_path / name).write_text(block.group(1), encoding="utf-8")
    code = re.search(r"## Python\n\n```python\n(.*?)```", readme, re.S)
    assert code
    for first in ("", "import xl_elo; xl_elo.rate\n", "from xl_elo import read_event\n"):
        proc = subprocess.run([sys.executable, "-c", first + code.group(1)], cwd=tmp_path, capture_output=True,
                              text=True, timeout=120, check=False)
        assert proc.returncode == 0, proc.stderr
        assert proc.stdout.splitlines()[0].split()[0] == "anna", proc.stdout


def test_json_numbers_are_the_csvs_without_float_noise():
    """Issue 34: JSON wrote 11.600000000000001 where the CSV writes 11.6: every number of a column that is not
    precise is the value to 6 decimals, its shortest text; a precise one (a value the next period starts from:
    Glicko-2's rating, RD and volatility) keeps every digit of its double."""
    from xl_elo.formats.writers import results_json
    from xl_elo.loader import example, examples

    for ex in examples():
        results = example(ex.federation).rate()
        doc = json.loads(results_json(results))
        spec = {c.name: c for c in results.spec}
        for row, got in zip(results.rows, doc["results"], strict=True):
            for name, value in got.items():
                if not isinstance(value, float):
                    continue
                if spec[name].precise:
                    assert value == row[name], (ex.federation, name)
                else:
                    assert value == round(row[name], 6) and len(repr(value).split(".")[1]) <= 6, (ex.federation,
                                                                                                   name, value)
    noisy = json.loads(results_json(example("glicko2").rate()))["results"][0]
    assert noisy["rating_after"] == 1464.0506705393013  # Glickman's example to the last digit (rules 12.5)
    assert noisy["expected"] == round(noisy["expected"], 6)
