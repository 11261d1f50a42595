"""FIDE's downloadable rating list (xl_elo.formats.ratinglist): TXT by its header's words, XML streamed,
rating, K, birth year and the 2400 flag taken by FIDE id, ids it does not hold reported."""

from __future__ import annotations

import io
import json

import pytest
from conftest import DATA

from xl_elo.federations import get
from xl_elo.federations.fide import Player
from xl_elo.formats.ratinglist import ListEntry, read_list
from xl_elo.frontends.cli import main
from xl_elo.model import InputError

LISTS = DATA / "ratinglist"
TRF = DATA / "trf"
FORMS = ["standard_oct26.txt", "combined_no_foa.txt", "standard_oct26.xml"]


def _refused(fn, *args):
    """The InputError ``fn(*args)`` raises (it must raise one)."""
    with pytest.raises(InputError) as info:
        fn(*args)
    return info.value


@pytest.mark.parametrize("name", FORMS)
def test_the_three_layouts_read_the_same_players(name):
    entries = read_list(LISTS / name)
    assert sorted(entries) == ["100001", "100002", "100004", "100005", "100006", "100007"]
    got = {k: (e.rating, e.games, e.k, e.birth_year, e.flag) for k, e in entries.items()}
    assert got["100001"] == (2480, 4, 10, 1980, "")
    assert got["100002"] == (2150, 6, 40, 2009, "w")
    assert got["100004"] == (None, 0, None, 1990, "")  # blank rating: unrated
    assert got["100006"] == (2012, 2, 20, 1985, "wi")
    assert entries["100007"].name in ("Hirt, Jan", "Hirt, Jürg")


def test_only_the_players_asked_for_are_kept():
    assert sorted(read_list(LISTS / "standard_oct26.txt", ["100002", "999"])) == ["100002"]


def _player(pid, rating, **kw):
    return Player(pid, pid, rating, kw.pop("games", None), **kw)


def apply(entries, players, module, year, source):
    """FIDE's reading of its list (the system's own ``from_rating_list``)."""
    return module.from_rating_list(players, entries, year, source)


@pytest.mark.parametrize("k, facts, expected", [
    (40, {}, (None, 0, False)),                         # K 40 in the list: new for the period
    (10, {}, (None, None, True)),                       # K 10: the rating has reached 2400
    (20, {"ever_2400": True}, (None, None, False)),     # K 20 below 2400: the list knows better than a title
    (20, {"games": 5}, (None, None, False)),            # few known games, but K 20: not new
])
def test_k_from_the_list_becomes_the_facts_that_give_it(k, facts, expected):
    entries = {"1": ListEntry("1", "x", 2100, 0, k, None, "", 2)}
    (p,), warnings = apply(entries, [_player("1", 2000, **facts)], get("fide"), 2026, "list")
    assert (p.birth_year, p.games, p.ever_2400) == expected and p.rating == 2100
    assert not [w for w in warnings if "rules give" in w]
    assert get("fide").k_factor(p.rating, p.games, None, p.ever_2400) == k


def test_a_junior_keeps_k_40_whatever_the_list_says_with_a_warning():
    entries = {"1": ListEntry("1", "x", 2100, 0, 20, 2012, "", 2)}
    _, warnings = apply(entries, [_player("1", 2100)], get("fide"), 2026, "list")
    assert any("K 20 in the list, but the rules give 40" in w for w in warnings)


def test_trf_with_the_list_hand_computed():
    """The club and the cup of October 2026 with standard_oct26.txt: Fuchs (K 40 in the list,
    new) +40(0.5-0.41) [-62] +40(0.5-0.08) = 20.4 -> 1970; Gerber rated 2012 by the list (2010 in
    the cup's report: a warning) -20(0.09) -20(0.08) = -3.4 -> 2009; Müller is not in the list."""
    read_args = ["rate", "-f", "fide", str(TRF / "xlelo_club_2026.trf"), str(TRF / "xlelo_autumn_cup_2026.trf")]
    for name in FORMS:
        out, err = io.StringIO(), io.StringIO()
        assert main([*read_args, "--rating-list", str(LISTS / name), "--format", "json"], out, err) == 0
        rows = {r["id"]: r for r in json.loads(out.getvalue())["results"]}
        assert (rows["100005"]["k"], rows["100005"]["rating_after"]) == (40, 1970)
        assert (rows["100006"]["rating_before"], rows["100006"]["rating_after"]) == (2012, 2009)
        assert rows["100002"]["k"] == 40 and rows["100001"]["change"] == -9
        assert (f"1 rating(s) differ from {name}, whose ratings are used: 100006 (Gerber, Ida): 2010 in "
                "xlelo_autumn_cup_2026.trf (line 7), 2012 on the standard list\n") in err.getvalue()
        assert (f"1 FIDE id(s) not found in {name} (their own values are used): 100003 (Müller, Jörg) in "
                "xlelo_club_2026.trf (line 15)\n") in err.getvalue()
        assert len(err.getvalue().splitlines()) == len(set(err.getvalue().splitlines())) == 2  # each said once


def test_csv_players_with_fide_ids_and_the_list(tmp_path, capsys):
    players = tmp_path / "players.csv"
    players.write_text("id,name,rating,games\n100005,Fuchs,1950,100\n100006,Gerber,2010,100\n42,Nobody,1500,100\n")
    games = tmp_path / "games.csv"
    games.write_text("player,opponent,result\n100005,100006,0.5\n100005,42,1\n")
    assert main(["rate", "-f", "fide", "-p", str(players), "-g", str(games), "--period", "2026-10",
                 "--rating-list", str(LISTS / "standard_oct26.xml"), "--format", "csv"]) == 0
    captured = capsys.readouterr()
    rows = {line.split(",")[0]: line.split(",") for line in captured.out.splitlines()[1:]}
    assert rows["100005"][7] == "40" and rows["100006"][3] == "2012"
    assert captured.err.splitlines() == [
        "xl-elo: warning: 1 rating(s) differ from standard_oct26.xml, whose ratings are used: 100006 (Gerber): 2010 in "
        "the players table (row 3), 2012 on the standard list",
        "xl-elo: warning: 1 FIDE id(s) not found in standard_oct26.xml (their own values are used): 42 (Nobody) in the "
        "players table (row 4)"]
    assert main(["rate", "-f", "fse", "-p", str(players), "-g", str(games), "--period", "2026-10",
                 "--rating-list", str(LISTS / "standard_oct26.xml")]) == 1
    assert "use it with -f fide" in capsys.readouterr().err


@pytest.mark.parametrize("data, words", [
    (b"", "the file is empty"),
    (b"Name Rating\nAlder 2480\n", "is not FIDE's rating list: its first line is not the header"),
    (b"ID Number      Something else\n1 x\n", "the header has no name or rating column"),
    (b"PK\x03\x04\x00\x00", "zero bytes"),
    (b"<?xml version='1.0'?><!DOCTYPE x [<!ENTITY a 'aaaa'>]><playerslist/>", "DOCTYPE"),
    (b"<playerslist><player><fideid>1</fideid>", "is not a readable XML rating list"),
    (b"<html><body>404</body></html>", "its root is <html>"),
    (b"<?xml version='1.0' encoding='utf-u'?><playerslist/>", "is not a readable XML rating list"),
])
def test_files_that_are_no_list(tmp_path, data, words):
    path = tmp_path / "list.txt"
    path.write_bytes(data)
    assert words in str(_refused(read_list, path, ["1"]))


def test_bad_values_of_the_players_asked_for_are_named_by_line_and_column(tmp_path):
    text = (LISTS / "standard_oct26.txt").read_text()
    bad = text.replace("2150  6   40 2009", "21x0  6   40 2009").replace("1950  0   40 1960", "1950  0   4x 1960")
    path = tmp_path / "list.txt"
    path.write_text(bad)
    problems = _refused(read_list, path, ["100002", "100005", "100007"]).problems
    assert [str(p) for p in problems] == [
        ("list.txt, line 3, columns 114-119 (rating): '21x0' is not a number (expected a rating: a whole number "
         "from 0 to 3500, 0 or blank for unrated)"),
        "list.txt, line 5, columns 124-126 (k): '4x' is not a number (expected a K-factor from 1 to 100)"]
    assert read_list(path, ["100007"])["100007"].k == 20  # the other lines are not checked
