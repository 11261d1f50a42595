"""The season workbook (rules 14.5, issue 33): a leaderboard, the leaders' charts, the lists, the history.

Each season is rated by the command line from small CSV files; the workbook is read back with openpyxl and
checked against the season's own JSON output (its lists and history), the leaderboard worked out here from
those lists, independently of the writer.
"""

from __future__ import annotations

import json
import math
import random
import re
import shutil
import subprocess
import zipfile

import openpyxl
import pytest

from xl_elo.formats.libreoffice import soffice
from xl_elo.formats.seasonbook import LEADERS, PAGE_PLAYERS, TOGETHER, season_workbook, standings
from xl_elo.frontends.cli import main
from xl_elo.model import SEASON_HISTORY_COLUMNS

FIRST = ["Anna", "Bruno", "Carla", "David", "Eva", "Felix", "Gina", "Hugo", "Ida", "Jonas", "Klara", "Lukas"]
LAST = ["Keller", "Roth", "Meier", "Brunner", "Frei", "Baumann", "Huber", "Gerber"]


def club(tmp_path, system: str, players: int, months: int, seed: int = 1, unrated: int = 2):
    """A club's season: ``players`` players (the last ``unrated`` of them unrated), four rounds a month, each
    game's month in a ``period`` column. The paths of its players and games tables."""
    rnd = random.Random(seed)
    strength = [rnd.gauss(1800, 200) for _ in range(players)]
    rows = []
    for i, s in enumerate(strength):
        rating = "" if i >= players - unrated else round(s + rnd.gauss(0, 40))
        name = f"{FIRST[i % len(FIRST)]} {LAST[i // len(FIRST) % len(LAST)]}"
        if system == "glicko2":
            rows.append(f"p{i:03d},{name},{rating},{'' if rating == '' else 80},{'' if rating == '' else 0.06}")
        else:
            rows.append(f"p{i:03d},{name},{rating},{0 if rating == '' else 60},1990,no")
    head = "id,name,rating,rd,volatility" if system == "glicko2" else "id,name,rating,games,birth_year,ever_2400"
    (tmp_path / "players.csv").write_text("\n".join([head, *rows]) + "\n", encoding="utf-8")
    games = ["round,player,opponent,result,period"]
    for m in range(months):
        ids = list(range(players))
        for r in range(1, 5):
            rnd.shuffle(ids)
            for a, b in zip(ids[::2], ids[1::2], strict=False):
                d = strength[a] - strength[b] + rnd.gauss(0, 150)
                games.append(f"{r},p{a:03d},p{b:03d},{'1-0' if d > 60 else '0-1' if d < -60 else '½'},2026-{m + 1:02d}")
    (tmp_path / "games.csv").write_text("\n".join(games) + "\n", encoding="utf-8")
    return tmp_path / "players.csv", tmp_path / "games.csv"


def rate_season(tmp_path, system: str, players: int, months: int, **kw):
    """The season rated by the command line: its workbook and its JSON output (units, history, lists)."""
    p, g = club(tmp_path, system, players, months, **kw)
    book, doc = tmp_path / "season.xlsx", tmp_path / "season.json"
    base = ["rate", "-f", system, "-p", str(p), "-g", str(g)]
    assert main([*base, "--season-output", str(book), "-o", str(tmp_path / "after.csv")]) == 0
    assert main([*base, "--season-output", str(doc), "-o", str(tmp_path / "after2.csv")]) == 0
    return book, json.loads(doc.read_text(encoding="utf-8"))


def expected_board(doc):
    """The leaderboard worked out from the season's lists: each player's rating on the last list and the one
    before (the season's start: the first unit's rating before, else the first list), games summed from the
    history, ranks shared by equal ratings, the unrated last by name."""
    first = doc["units"][0]["unit"]
    before_first = {h["id"]: h["rating_before"] for h in doc["history"] if h["unit"] == first}
    games: dict[str, int] = {}
    for h in doc["history"]:
        games[h["id"]] = games.get(h["id"], 0) + h["games_rated"]
    lines = []
    for entry in doc["lists"]:
        pid, ratings = entry["id"], entry["ratings"]
        start = before_first.get(pid, ratings[0]) if pid in before_first else ratings[0]
        seq = [start, *ratings]
        now, prev = seq[-1], seq[-2]
        lines.append({"id": pid, "name": entry["name"], "rating": now,
                      "change": None if now is None or prev is None else now - prev,
                      "games": games.get(pid, 0), "best": max((x for x in seq if x is not None), default=None)})
    rated = sorted((x for x in lines if x["rating"] is not None), key=lambda x: (-x["rating"], x["name"], x["id"]))
    for i, x in enumerate(rated):
        x["rank"] = rated[i - 1]["rank"] if i and x["rating"] == rated[i - 1]["rating"] else i + 1
    unrated = sorted((x for x in lines if x["rating"] is None), key=lambda x: (x["name"], x["id"]))
    return rated + [dict(x, rank=None) for x in unrated]


def board_rows(ws):
    """The leaderboard's first row under its header (the row whose first cell is ``rank``) and its rows."""
    rows = list(ws.iter_rows(values_only=True))
    head = next(i for i, r in enumerate(rows) if r[0] == "rank")
    assert rows[head] == ("rank", "player", "id", "rating", "change", "games", "best")
    return head + 2, [r for r in rows[head + 1:] if any(v is not None for v in r)]


@pytest.mark.parametrize("system, decimals", [("fide", 0), ("glicko2", 1)])
def test_the_workbook_holds_the_season_as_its_json_gives_it(tmp_path, system, decimals):
    book, doc = rate_season(tmp_path, system, 14, 4)
    wb = openpyxl.load_workbook(book)
    assert wb.sheetnames == ["leaderboard", "charts", "lists", "history"]
    keys = [u["unit"] for u in doc["units"]]
    assert keys == ["2026-01", "2026-02", "2026-03", "2026-04"]

    # the leaderboard: the title names the system and the season's first and last unit
    board = wb["leaderboard"]
    title = " ".join(str(c.value) for c in board["A"][:3] if c.value)
    assert ("FIDE" if system == "fide" else "Glicko-2") in title and "2026-01 to 2026-04" in title
    first, rows = board_rows(board)
    want = expected_board(doc)
    assert [r[2] for r in rows] == [x["id"] for x in want]
    for r, x in zip(rows, want, strict=True):
        assert r[0] == x["rank"] and r[1] == x["name"] and r[5] == x["games"]
        if x["rating"] is None:
            assert r[3] == "unrated" and r[4] is None
        else:
            assert r[3] == pytest.approx(x["rating"]) and r[4] == pytest.approx(x["change"])
        assert r[6] == (None if x["best"] is None else pytest.approx(x["best"]))
    unrated = sum(x["rating"] is None for x in want)  # a ladder rates a newcomer from his first period
    assert sum(r[3] == "unrated" for r in rows) == unrated == (2 if system == "fide" else 0)
    shown = "0.0" if decimals else "0"
    assert board.cell(first, 4).number_format == shown and board.cell(first, 7).number_format == shown
    assert board.cell(first, 5).number_format == f"+{shown};-{shown};{shown}"

    # the lists: player by unit, in the leaderboard's order, the start then the rating after each unit
    lists = wb["lists"]
    head = [c.value for c in lists[1]]
    assert head == ["id", "name", "start", *keys]
    by_id = {e["id"]: e["ratings"] for e in doc["lists"]}
    got = list(lists.iter_rows(min_row=2, values_only=True))
    assert [r[0] for r in got] == [x["id"] for x in want]
    for r in got:
        assert [None if v is None else pytest.approx(v) for v in by_id[r[0]]] == list(r[3:])
    assert lists.cell(2, 4).number_format == shown
    assert lists.freeze_panes == "C2"

    # the history: every row, as the JSON gives it, a filter on the header
    hist = wb["history"]
    rows_h = list(hist.iter_rows(values_only=True))
    assert rows_h[0] == SEASON_HISTORY_COLUMNS and len(rows_h) == 1 + len(doc["history"])
    for got_row, h in zip(rows_h[1:], doc["history"], strict=True):
        for c, v in zip(SEASON_HISTORY_COLUMNS, got_row, strict=True):
            assert v == (pytest.approx(h[c]) if isinstance(h[c], float) else h[c]), (c, h)
    assert hist.auto_filter.ref == f"A1:M{len(rows_h)}"


@pytest.fixture(scope="module")
def club_46(tmp_path_factory):
    """A club of 46 players (3 unrated) over three months: two pages of leaderboard, the charts' every page."""
    return rate_season(tmp_path_factory.mktemp("club46"), "fide", 46, 3, unrated=3)


def test_the_charts_read_each_leaders_row_of_the_lists(club_46):
    book, doc = club_46
    wb = openpyxl.load_workbook(book)
    lists = wb["lists"]
    row_of = {lists.cell(r, 1).value: r for r in range(2, lists.max_row + 1)}
    want = [x for x in expected_board(doc) if x["rating"] is not None]
    charts = wb["charts"]._charts
    assert len(charts) == 1 + min(LEADERS, len(want))
    together, singles = charts[0], charts[1:]
    refs = [s.val.numRef.f for s in together.series]
    assert refs == [f"'lists'!$C${row_of[x['id']]}:$F${row_of[x['id']]}" for x in want[:TOGETHER]]
    assert [s.tx.strRef.f for s in together.series] == [f"'lists'!$B${row_of[x['id']]}" for x in want[:TOGETHER]]
    for chart, x in zip(singles, want, strict=False):
        (series,) = chart.series
        assert series.val.numRef.f == f"'lists'!$C${row_of[x['id']]}:$F${row_of[x['id']]}"
        assert series.cat.strRef.f == "'lists'!$C$1:$F$1"
        title = "".join(r.t for p in chart.title.tx.rich.p for r in p.r)
        assert title == f"{x['rank']}. {x['name']}"
        assert chart.y_axis.scaling.min <= min(v for v in _row(lists, row_of[x["id"]]) if v is not None)
        assert chart.y_axis.scaling.max >= max(v for v in _row(lists, row_of[x["id"]]) if v is not None)
    # valid DrawingML for Excel: a line chart with its two axes shown, each series on the lists sheet
    with zipfile.ZipFile(book) as z:
        xml = z.read("xl/charts/chart1.xml").decode()
    assert "<c:lineChart>" in xml or "<lineChart>" in xml
    assert xml.count('<delete val="0"') + xml.count('<c:delete val="0"') == 2


def _row(ws, r):
    return [c.value for c in ws[r][2:]]


def test_the_pages_print_on_a4(club_46):
    book, doc = club_46
    wb = openpyxl.load_workbook(book)
    for ws in wb:
        assert int(ws.page_setup.paperSize) == 9, ws.title  # A4
    board, lists, hist, charts = wb["leaderboard"], wb["lists"], wb["history"], wb["charts"]
    assert board.page_setup.orientation == "portrait" and board.print_title_rows == "$4:$4"
    assert board.page_setup.fitToWidth == 1 and board.sheet_properties.pageSetUpPr.fitToPage
    first, rows = board_rows(board)
    assert [b.id for b in board.row_breaks.brk] == [first - 1 + PAGE_PLAYERS]
    assert board.print_area == f"'leaderboard'!$A$1:$G${first - 1 + len(rows)}" and len(rows) == 46
    assert lists.page_setup.orientation == "landscape" and lists.print_title_cols == "$A:$B"
    assert lists.print_title_rows == "$1:$1"
    assert hist.page_setup.orientation == "landscape" and hist.print_title_rows == "$1:$1"
    assert charts.page_setup.orientation == "portrait"
    # the chart together and two bands on the first page, four bands (eight charts) on each after
    rated = sum(x["rating"] is not None for x in expected_board(doc))
    bands = math.ceil(min(LEADERS, rated) / 2)
    assert rated > LEADERS and len(charts.row_breaks.brk) == len(range(2, bands, 4))


def test_standings_rank_equal_ratings_alike_and_the_unrated_last():
    keys = ["2026-01", "2026-02"]
    lists = {"a": [1500, 1510], "b": [1600, 1510], "c": [None, 1400], "d": [None, None], "e": [1700, 1720],
             "f": [1450, 1450]}
    names = {"a": "Anna", "b": "Bruno", "c": "Carla", "d": "David", "e": "Eva", "f": "Felix"}
    # b played in the first unit from 1580; f did not play at all; c was first rated after the second
    history = [{"unit": "2026-01", "id": "b", "rating_before": 1580, "games_rated": 4},
               {"unit": "2026-02", "id": "b", "rating_before": 1600, "games_rated": 3},
               {"unit": "2026-02", "id": "c", "rating_before": None, "games_rated": 6},
               {"unit": "2026-02", "id": "d", "rating_before": None, "games_rated": 2}]
    board = standings(keys, lists, names, history)
    assert [(s.rank, s.id, s.rating, s.change, s.games, s.best) for s in board] == [
        (1, "e", 1720, 20, 0, 1720), (2, "a", 1510, 10, 0, 1510), (2, "b", 1510, -90, 7, 1600),
        (4, "f", 1450, 0, 0, 1450), (5, "c", 1400, None, 6, 1400), (None, "d", None, None, 2, None)]


def test_one_unit_changes_since_the_start_and_text_stays_text(tmp_path):
    from xl_elo.federations import get

    lists = {"=cmd": [1510.0], "b\x01": [1490.0]}
    names = {"=cmd": "=HYPERLINK(\"x\")", "b\x01": "_x0041_ B"}
    history = [{"unit": "Open", "id": "=cmd", "rating_before": 1500, "games_rated": 1, "rating_after": 1510},
               {"unit": "Open", "id": "b\x01", "rating_before": 1500, "games_rated": 1, "rating_after": 1490}]
    path = tmp_path / "one.xlsx"
    path.write_bytes(season_workbook(get("fqe"), ["Open"], [{"unit": "Open"}], lists, names, history))
    wb = openpyxl.load_workbook(path)
    _, rows = board_rows(wb["leaderboard"])
    assert rows[0][:5] == (1, "=HYPERLINK(\"x\")", "=cmd", 1510, 10) and rows[1][4] == -10
    assert wb["leaderboard"].cell(5, 2).data_type == "s"
    assert [c.value for c in wb["lists"][2]] == ["=cmd", "=HYPERLINK(\"x\")", 1500, 1510]
    # a character XML cannot hold, and text that reads as its escape, written as Excel writes them (openpyxl
    # reads them back as written; Excel and LibreOffice show them as typed)
    assert [c.value for c in wb["lists"][3]][:2] == ["b_x0001_", "_x005F_x0041_ B"]
    assert wb["leaderboard"].cell(6, 3).value == "b_x0001_"
    assert "change: since the season's start" in wb["leaderboard"]["A3"].value


@pytest.mark.skipif(soffice() is None or shutil.which("pdftotext") is None,
                    reason="LibreOffice (soffice) and pdftotext are needed to print the workbook")
def test_libreoffice_prints_the_leaderboard_forty_to_a_page_and_draws_the_charts(club_46, tmp_path):
    from xl_elo.formats.libreoffice import to_pdf

    book, doc = club_46
    pdf = to_pdf(book, tmp_path / "pdf")
    text = subprocess.run(["pdftotext", "-layout", str(pdf), "-"], capture_output=True, text=True, check=True).stdout
    pages = text.split("\f")[:-1] if text.endswith("\f") else text.split("\f")
    n = len(re.findall(rb"/Type\s*/Page(?![s\w])", pdf.read_bytes()))
    assert n == len(pages)
    sheet = [p.splitlines()[0].split()[-1] if p.strip() else "" for p in pages]  # the page header: the sheet
    want = expected_board(doc)
    assert sheet.count("leaderboard") == math.ceil(len(want) / PAGE_PLAYERS) == 2
    bands = math.ceil(min(LEADERS, sum(x["rank"] is not None for x in want)) / 2)
    assert sheet.count("charts") == 1 + math.ceil((bands - 2) / 4)
    assert sheet[: 2] == ["leaderboard", "leaderboard"] and "lists" in sheet and "history" in sheet
    assert sheet.index("lists") < sheet.index("history") and n == len(sheet)
    # the leaderboard reads in its order, forty to the first page; every page of it repeats the header
    first = pages[0]
    at = [first.find(f" {x['name']} ") for x in want[:PAGE_PLAYERS]]
    assert all(a >= 0 for a in at), [x["name"] for x, a in zip(want, at, strict=False) if a < 0]
    lines = [ln for ln in first.splitlines() if re.match(r"\s*\d+\s+\S", ln)]
    assert [int(ln.split()[0]) for ln in lines] == [x["rank"] for x in want[:PAGE_PLAYERS] if x["rank"]][:len(lines)]
    assert all("rank" in p and "player" in p for p in pages[:2])
    # the charts: drawn (their titles are text on the page), each leader's
    drawn = "\n".join(p for p, s in zip(pages, sheet, strict=True) if s == "charts")
    for x in [x for x in want if x["rank"]][:LEADERS]:
        assert f"{x['rank']}. {x['name']}" in drawn


def test_the_readme_says_what_the_workbook_does():
    """The README's season section: the workbook's figures as the writer's constants, its pictures there."""
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    readme = (root / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Seasons: ratings over time", 1)[1].split("\n## ", 1)[0]
    flat = " ".join(section.split())
    assert f"{PAGE_PLAYERS} players to a portrait page" in flat
    assert f"the first {TOGETHER} of the list together, then one for each of the first {LEADERS}" in flat
    assert "`" + " ".join(SEASON_HISTORY_COLUMNS) + "`" in flat
    for picture in re.findall(r"\]\((workbooks/screenshots/[^)]+\.png)\)", section):
        assert (root / picture).is_file(), picture
    assert "season_leaderboard.png" in section and "season_charts.png" in section


def test_events_long_names_wrap_in_the_lists_and_stay_off_the_small_charts(tmp_path):
    """A season of events (FQE's cadence): their names head the lists' columns, wrapped whole; the small charts
    leave them out (no room to draw under them), the chart of the leaders together shows them."""
    from xl_elo.federations import get

    keys = ["Club championship 2026 spring", "Rapid cup", "Summer open (Basel)"]
    lists = {"a": [1510.0, 1520.0, 1530.0], "b": [1490.0, 1480.0, 1470.0]}
    history = [{"unit": k, "id": p, "rating_before": 1500, "games_rated": 1} for k in keys for p in lists]
    path = tmp_path / "events.xlsx"
    path.write_bytes(season_workbook(get("fqe"), keys, [{"unit": k} for k in keys], lists, {"a": "Anna", "b": "Bo"},
                                     history))
    wb = openpyxl.load_workbook(path)
    assert [c.value for c in wb["lists"][1]] == ["id", "name", "start", *keys]
    assert wb["lists"].row_dimensions[1].height >= 3 * 13  # "Club championship 2026 spring" on three lines
    together, *small = wb["charts"]._charts
    assert not together.x_axis.delete and len(small) == 2 and all(c.x_axis.delete for c in small)


def test_the_workbook_in_german_holds_the_same_season_in_the_dsbs_words(tmp_path):
    """``--language de``: every sheet's name, heading, title and word in German (the catalogue's), the charts
    reading the German lists sheet; every number as in the English workbook of the same season."""
    p, g = club(tmp_path, "fide", 12, 3)
    english, german = tmp_path / "en.xlsx", tmp_path / "de.xlsx"
    base = ["rate", "-f", "fide", "-p", str(p), "-g", str(g)]
    assert main([*base, "--season-output", str(english), "-o", str(tmp_path / "a.csv")]) == 0
    assert main([*base, "--season-output", str(german), "-o", str(tmp_path / "b.csv"), "--language", "de"]) == 0
    en, de = openpyxl.load_workbook(english), openpyxl.load_workbook(german)
    assert de.sheetnames == ["Rangliste", "Diagramme", "Listen", "Verlauf"]
    for a, b in zip(en, de, strict=True):
        cells_a = [c.value for row in a.iter_rows() for c in row]
        cells_b = [c.value for row in b.iter_rows() for c in row]
        numbers = [v for v in cells_a if isinstance(v, (int, float))]
        assert numbers == [v for v in cells_b if isinstance(v, (int, float))]
    board = de["Rangliste"]
    rows = list(board.iter_rows(values_only=True))
    head = next(i for i, r in enumerate(rows) if r[0] == "Rang")
    assert rows[head] == ("Rang", "Spieler", "ID", "Wertung", "Änderung", "Partien", "beste")
    assert rows[1][0] == "Die Liste nach 2026-03 (die Saison 2026-01 bis 2026-03, 3 Listen)"
    assert rows[2][0].startswith("Änderung: seit der Liste nach 2026-02; Partien: in der Saison gewertet; beste: ")
    assert board.oddHeader.left.text == "FIDE (Weltschachbund): die Saison 2026-01 bis 2026-03 (3 Listen)"
    assert [r[3] for r in rows[head + 1:] if isinstance(r[3], str)] == ["ohne Wertung"] * 2
    assert [c.value for c in de["Listen"][1]][:3] == ["ID", "Name", "Anfang"]
    assert [c.value for c in de["Verlauf"][1]][:7] == ["Abschnitt", "Zeitraum", "Beginn", "Ende", "ID", "Name",
                                                        "Wertung vorher"]
    charts = de["Diagramme"]
    assert charts["A1"].value == "Die Wertungen im Zeitverlauf" and "im Blatt Listen" in charts["A2"].value
    assert all(s.val.numRef.f.startswith("'Listen'!") for chart in charts._charts for s in chart.series)
    assert de["Rangliste"].oddFooter.right.text == "Seite &P von &N"


def test_a_players_season_page_in_italian(tmp_path, capsys):
    """``--player ID --language it``: the calculation page in the FSI's words, its figures those of the English page."""
    p, g = club(tmp_path, "fide", 8, 2)
    base = ["rate", "-f", "fide", "-p", str(p), "-g", str(g), "--player", "p001"]
    assert main(base) == 0
    english = capsys.readouterr().out
    assert main([*base, "--language", "it"]) == 0
    italian = capsys.readouterr().out
    assert "il calcolo della stagione" in italian.splitlines()[0] and "the season's calculation" in english
    assert "avversario" in italian and "somma delle variazioni" in italian and "Elo dopo" in italian
    assert re.findall(r"-?\d+(?:\.\d+)?", english) == re.findall(r"-?\d+(?:\.\d+)?", italian)
    for word in ("opponent", "rating before", "rating after", "score", "expected"):
        assert word not in italian
