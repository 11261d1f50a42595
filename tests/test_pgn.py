"""A club's PGN database rated as a season (xl_elo.formats.pgn, rules 14): the tags read, figures checked by hand
from FIDE's rules, the same games as CSV tables giving the same results, every mistake named."""

from __future__ import annotations

import csv
import io
import json
import os
import sys
from importlib.util import find_spec
from pathlib import Path

import pytest
from conftest import DATA

from xl_elo.federations import get
from xl_elo.formats import pgn
from xl_elo.frontends.cli import main
from xl_elo.loader import file_formats, load
from xl_elo.model import InputError
from xl_elo.pipeline import written_back

CLUB = DATA / "pgn" / "club.pgn"

#: python-chess is the extra ``pgn``; CI installs it with the test extra (and must have it), a local venv may not.
needs_chess = pytest.mark.skipif(find_spec("chess") is None and os.environ.get("XL_ELO_TEST_INSTALLED") != "1",
                                 reason='python-chess is not installed: pip install -e ".[test]"')


def _cli(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def _json(*argv: str) -> dict:
    code, out, err = _cli(*argv, "--format", "json")
    assert code == 0, err
    return json.loads(out)


def _refused(*paths: Path, federation: str = "fide", **kw) -> str:
    """The problems of reading ``paths``, one per line."""
    with pytest.raises(InputError) as info:
        load(get(federation), files=list(paths), **kw)
    return "\n".join(str(q) for q in info.value.problems)


def _pgn(path: Path, *games: dict[str, str], moves: str = "1. e4 e5") -> Path:
    """A PGN file of ``games``, each its tags (and a few moves ending in its result)."""
    text = ""
    for tags in games:
        text += "".join(f'[{k} "{v}"]\n' for k, v in tags.items())
        text += f"\n{moves} {tags.get('Result', '*')}\n\n"
    path.write_text(text, encoding="utf-8")
    return path


def _game(**tags: str) -> dict[str, str]:
    base = {"Event": "Club", "Date": "2026.03.14", "Round": "1", "White": "A", "Black": "B", "Result": "1-0",
            "WhiteFideId": "11", "BlackFideId": "12", "WhiteElo": "1800", "BlackElo": "1700"}
    base.update(tags)
    return {k: v for k, v in base.items() if v is not None}


# --------------------------------------------------------------------------- a season by hand


@needs_chess
def test_a_club_database_is_rated_month_by_month_as_fides_rules_say(tmp_path):
    """Rules 14 and 2: club.pgn holds the Club Championship (January, three rounds; Anna - Carl in round 3 not
    finished, *) and the February Open (a game dated 2026.02.??, read in February). Each month is a FIDE period,
    each event counted with the Elo its games give (its start ratings, 2.11), the period's new rating the last
    one plus the rounded change (2.1). No game count nor birth year: K 20, Bruno (IM: 2400 reached) K 10 (2.3).
    PD from FIDE's table 8.1.2 (rules 7, ``fide-pd``), a difference over 400 counted as 400 (2.2).

    January, from the Elo of the first event (Anna 2000, Bruno 2405, Carl 1800, Dora 1700, no FIDE id):
      Anna: beats Bruno (405 -> 400: PD 0.08) +0.92, beats Dora (300: 0.85) +0.15 = 1.07 x 20 = 21.4: 2021
      Bruno: loses to Anna (0.92) -0.92, draws Carl (605 -> 400: 0.92) -0.42, beats Dora (0.92) +0.08
             = -1.26 x 10 = -12.6: 2392
      Carl: draws Dora (100: 0.64) -0.14, draws Bruno (0.08) +0.42 = 0.28 x 20 = 5.6: 1806
      Dora: draws Carl (0.36) +0.14, loses to Anna (0.15) -0.15, to Bruno (0.08) -0.08 = -0.09 x 20 = -1.8: 1698
    February, the February Open's Elo (Anna 2010 now), from January's new ratings:
      Anna: beats Dora (310: 0.86) +0.14, draws Carl (210: 0.77) -0.27 = -0.13 x 20 = -2.6: 2021 - 3 = 2018
      Bruno: loses to Carl (0.92) -0.92 x 10 = -9.2: 2392 - 9 = 2383
      Carl: beats Bruno (0.08) +0.92, draws Anna (0.23) +0.27 = 1.19 x 20 = 23.8: 1806 + 24 = 1830
      Dora: loses to Anna (0.14) -0.14 x 20 = -2.8: 1698 - 3 = 1695
    """
    season = tmp_path / "season.json"
    got = _json("rate", "-f", "fide", str(CLUB), "--season-output", str(season))
    after = {r["id"]: (r["rating_before"], r["change"], r["rating_after"]) for r in got["results"]}
    assert after == {"1001": (2021, -3, 2018), "1002": (2392, -9, 2383), "1003": (1806, 24, 1830),
                     "Delta, Dora": (1698, -3, 1695)}
    held = json.loads(season.read_text(encoding="utf-8"))
    assert [(u["unit"], u["events"]) for u in held["units"]] == [("2026-01", ["Club Championship"]),
                                                                 ("2026-02", ["February Open"])]
    january = {h["id"]: (h["rating_before"], h["games_rated"], h["change"], h["rating_after"])
               for h in held["history"] if h["unit"] == "2026-01"}
    assert january == {"1001": (2000, 2, 21, 2021), "1002": (2405, 3, -13, 2392), "1003": (1800, 2, 6, 1806),
                       "Delta, Dora": (1700, 3, -2, 1698)}
    names = {r["id"]: r["name"] for r in got["results"]}
    assert names["1001"] == "Alpha, Anna" and {r["id"]: r["ever_2400"] for r in got["results"]}["1002"] is True


@needs_chess
def test_what_the_reader_says_of_the_database(tmp_path):
    """The warnings name what was read otherwise than a plain game: the * game (kept, not rated), the day ??
    (its month), the player without a FIDE id (by his name), the games and ages a PGN file does not give."""
    code, _, err = _cli("rate", "-f", "fide", str(CLUB), "--format", "csv")
    assert code == 0, err
    assert "result * (not finished, or the result unknown) are kept, not rated: club.pgn, game 5 (line 62)" in err
    assert "dated without their day (??) are read in their month: club.pgn, game 9 (line 120, 2026.02.??)" in err
    assert "without a FIDE id (WhiteFideId, BlackFideId) are told apart by their names" in err
    assert "Delta, Dora (line 18)" in err
    assert "a PGN database does not say how many rated games" in err and "TRF" not in err
    assert "every player is rated as an adult" in err


def _csv(path: Path, rows: list[list[str]]) -> Path:
    with path.open("w", encoding="utf-8", newline="") as f:
        csv.writer(f, lineterminator="\n").writerows(rows)
    return path


@needs_chess
def test_the_same_games_as_csv_tables_give_the_same_season(tmp_path):
    """The PGN database and its games typed as CSV tables (rules 8 and 14: a date, an event, each game's start
    ratings in player_rating and opponent_rating; the players table each player's first Elo, an IM's 2400 flag)
    give the same results and the same season, figure for figure."""
    players = _csv(tmp_path / "players.csv", [
        ["id", "name", "rating", "ever_2400", "games"], ["1001", "Alpha, Anna", "2000", "no", "30"],
        ["1002", "Beta, Bruno", "2405", "yes", "30"], ["1003", "Gamma, Carl", "1800", "no", "30"],
        ["Delta, Dora", "Delta, Dora", "1700", "no", "30"]])
    club, feb = "Club Championship", "February Open"
    games = _csv(tmp_path / "games.csv", [
        ["date", "event", "round", "player", "opponent", "result", "player_rating", "opponent_rating"],
        ["2026-01-10", club, "1", "1001", "1002", "1", "2000", "2405"],
        ["2026-01-10", club, "1", "1003", "Delta, Dora", "0.5", "1800", "1700"],
        ["2026-01-17", club, "2", "Delta, Dora", "1001", "0", "1700", "2000"],
        ["2026-01-17", club, "2", "1002", "1003", "0.5", "2405", "1800"],
        ["2026-01-24", club, "3", "1001", "1003", "", "2000", "1800"],
        ["2026-01-24", club, "3", "1002", "Delta, Dora", "1", "2405", "1700"],
        ["2026-02-07", feb, "1", "1001", "Delta, Dora", "1", "2010", "1700"],
        ["2026-02-07", feb, "1", "1002", "1003", "0", "2405", "1800"],
        ["2026-02", feb, "2", "1003", "1001", "0.5", "1800", "2010"]])
    from_csv = _json("rate", "-f", "fide", "-p", str(players), "-g", str(games), "--season-output",
                     str(tmp_path / "csv.json"))
    from_pgn = _json("rate", "-f", "fide", str(CLUB), "--season-output", str(tmp_path / "pgn.json"))
    # a PGN file does not say how many games each player has played: not new (FIDE's 30 or more, as a TRF
    # report's players count), so the CSV table's 30 gives the same K; its games after are counted from 30
    assert [r.pop("games_after") for r in from_pgn["results"]] == [None] * 4
    assert [r.pop("games_after") for r in from_csv["results"]] == [34, 34, 34, 34]  # 30 + 4 games each
    assert from_pgn["results"] == from_csv["results"]
    assert json.loads((tmp_path / "pgn.json").read_text()) == json.loads((tmp_path / "csv.json").read_text())


@needs_chess
def test_a_database_in_several_files_is_one_season(tmp_path):
    """``xl-elo rate club.pgn more.pgn``: the games of every file, one season (a player is the same player in
    both files by his FIDE id, or his name)."""
    text = CLUB.read_text(encoding="utf-8")
    cut = text.index('[Event "February Open"]')
    january = tmp_path / "january.pgn"
    february = tmp_path / "february.pgn"
    january.write_text(text[:cut], encoding="utf-8")
    february.write_text(text[cut:], encoding="utf-8")
    whole = _json("rate", "-f", "fide", str(CLUB))
    assert _json("rate", "-f", "fide", str(january), str(february)) == whole
    backwards = _json("rate", "-f", "fide", str(february), str(january))  # rated in time order, not the files'
    assert sorted(backwards["results"], key=lambda r: r["id"]) == sorted(whole["results"], key=lambda r: r["id"])


@needs_chess
def test_a_pgn_database_is_rated_by_fide_when_no_system_is_named(tmp_path):
    assert _json("rate", str(CLUB))["federation"] == "fide"


@needs_chess
def test_period_makes_every_game_one_period(tmp_path):
    """``--period``: the games' dates are not read (a date without its month is no problem), every game is in
    the one period, FIDE's events each with their own start ratings (2.11)."""
    path = _pgn(tmp_path / "undated.pgn", _game(Date="????.??.??"), _game(Date="2026.??.??", Round="2",
                                                                        Result="0-1"))
    assert "gives no year" in _refused(path)
    got = _json("rate", "-f", "fide", str(path), "--period", "2026-05", "--season-output",
                str(tmp_path / "s.json"))
    assert got["period"] == "2026-05"
    units = json.loads((tmp_path / "s.json").read_text())["units"]
    assert [u["unit"] for u in units] == ["2026-05"]
    # 1800 v 1700 (100: PD 0.64): a win +0.36 and a loss -0.64 = -0.28 x 20 = -5.6: 1794
    assert {r["id"]: r["rating_after"] for r in got["results"]}["11"] == 1794


@needs_chess
def test_an_events_editions_are_told_apart_by_their_event_date(tmp_path):
    """The Club Championship of 2025 and of 2026 (one name, two EventDates) are two events; a game without
    EventDate joins its name's only edition."""
    path = _pgn(tmp_path / "editions.pgn",
                _game(Event="Club Ch", EventDate="2025.01.04", Date="2025.01.04"),
                _game(Event="Club Ch", EventDate="2026.01.03", Date="2026.01.03"),
                _game(Event="Rapid", Date="2026.01.05"), _game(Event="Rapid", EventDate="2026.01.05",
                                                               Date="2026.01.05", Round="2"))
    loaded = load(get("fide"), files=[path])
    assert [g.event for g in loaded.event.games] == ["Club Ch (2025.01.04)", "Club Ch (2026.01.03)", "Rapid",
                                                     "Rapid"]


@needs_chess
def test_start_ratings_are_each_events_first_elo(tmp_path):
    """FIDE 2.11: an event counts with the ratings at its start, so a player's later different Elo in the same
    event is not read (a warning says so); the players table's rating is his first Elo; - is unrated then and no
    Elo tag is not given (the season's list)."""
    path = _pgn(tmp_path / "elo.pgn", _game(),
                _game(Round="2", Date="2026.03.21", WhiteElo="1810", BlackElo="-"),
                _game(Event="Open", Round="1", Date="2026.03.28", WhiteElo=None, BlackElo="1690"))
    loaded = load(get("fide"), files=[path])
    games = loaded.event.games
    assert [(g.player_rating, g.opponent_rating) for g in games] == [(1800, 1700), (1800, 1700), (None, 1690)]
    assert {p.id: p.rating for p in loaded.event.players} == {"11": 1800, "12": 1700}
    assert any("another Elo than his first game in the same event" in w and "1800 then 1810" in w
               for w in loaded.warnings)


# --------------------------------------------------------------------------- mistakes, each named


@needs_chess
def test_every_mistake_is_named_with_its_file_game_line_and_tag(tmp_path):
    """A bad date, a missing Result, an unknown result, an Elo that is no rating, no player: every problem of
    every game at once, each naming the file, the line of the tag (the game's where it has none) and the game."""
    path = _pgn(tmp_path / "bad.pgn", _game(), _game(Round="2", Date="2026.02.30"), _game(Round="3", Result=None),
                _game(Round="4", Result="½-½"), _game(Round="5", WhiteElo="18OO"),
                _game(Round="6", White=None, WhiteFideId=None), _game(Round="7", Date="14.03.2026"))
    said = _refused(path).splitlines()
    assert said[0] == ("bad.pgn, line 15, Date: game 2: '2026.02.30' is not a real date: each game's day says its "
                       "period and the order of the events; give the game its date, or --period YYYY-MM to rate "
                       "every game in one period")
    assert said[1] == "bad.pgn, line 27: game 3: no Result tag (1-0, 0-1, 1/2-1/2, or * for a game not finished)"
    assert said[2].startswith("bad.pgn, line 44, Result: game 4: '½-½' is not a PGN result (1-0, 0-1, 1/2-1/2")
    assert said[3].startswith("bad.pgn, line 60, WhiteElo: game 5: '18OO' is not")
    assert said[4] == "bad.pgn, line 65, White: game 6: no White player (a White name or a WhiteFideId)"
    assert said[5].startswith("bad.pgn, line 77, Date: game 7: '14.03.2026' is not a date (PGN writes YYYY.MM.DD)")
    assert len(said) == 6


@needs_chess
def test_a_file_that_is_not_pgn_is_refused(tmp_path):
    notes = tmp_path / "notes.pgn"
    notes.write_text("id,name,rating\n1,Anna,1800\n", encoding="utf-8")
    assert _refused(notes) == ("notes.pgn, line 1: is not a PGN database: a PGN file starts with a game's tags "
                               '([Event "..."], [Date "..."] ...)')
    binary = tmp_path / "club.pgn"
    binary.write_bytes(b"PK\x03\x04\x00\x00")
    assert "zero bytes" in _refused(binary)


@needs_chess
def test_two_games_run_together_are_named(tmp_path):
    """A game's moves must end with a blank line: without one, python-chess reads the next game's tags as moves;
    the game lost that way is named, never dropped silently."""
    path = tmp_path / "joined.pgn"
    path.write_text('[Event "Club"]\n[Date "2026.03.14"]\n[White "A"]\n[Black "B"]\n[Result "1-0"]\n\n1. e4 1-0\n'
                    '[Event "Club"]\n[Date "2026.03.14"]\n[White "B"]\n[Black "A"]\n[Result "1-0"]\n\n1. e4 1-0\n',
                    encoding="utf-8")
    said = _refused(path)
    assert "joined.pgn, line 8: a game's tags inside game 1 (line 1)" in said


@needs_chess
def test_one_game_given_twice_is_named(tmp_path):
    path = _pgn(tmp_path / "twice.pgn", _game(), _game(White="B", Black="A", WhiteFideId="12", BlackFideId="11"))
    assert _refused(path) == ("twice.pgn, line 14: game 2: B - A meet in round 1 of 'Club' on 2026-03-14 as in "
                              "game 1, line 1: one game given twice? (each game once; the games of one match in one "
                              "round need their own rounds)")


@needs_chess
def test_time_controls_of_two_lists_need_list(tmp_path):
    """FIDE's list from the games' TimeControl (rules 2.9): games of two lists are refused without --list; with
    it, the games of another list are left out, said in a warning."""
    path = _pgn(tmp_path / "mixed.pgn", _game(TimeControl="5400+30"), _game(Round="2", TimeControl="300+2"))
    assert "the games' time controls are of different lists (standard: 1 game(s)" in _refused(path)
    loaded = load(get("fide"), files=[path], options={"list": "blitz"})
    assert len(loaded.event.games) == 1 and loaded.event.games[0].round == 2
    assert any("1 game(s) whose time control (TimeControl) is not of the blitz list are left out" in w
               for w in loaded.warnings)
    blitz = _pgn(tmp_path / "blitz.pgn", _game(TimeControl="180+2"))
    assert load(get("fide"), files=[blitz]).options == {"list": "blitz"}


@needs_chess
def test_a_national_system_is_refused(tmp_path):
    """A PGN's Elo is FIDE's: never read as a DWZ (as a TRF report's 001 ratings are not)."""
    said = _refused(CLUB, federation="dwz")
    assert said.startswith("club.pgn: a PGN database's ratings (WhiteElo, BlackElo) are FIDE's, never taken for "
                           "GER's national ratings")
    assert "rating deviation" in _refused(CLUB, federation="glicko2")


def test_without_python_chess_the_message_names_the_extra(monkeypatch):
    """The extra not installed: a clear message with the line that installs it, never a traceback."""
    monkeypatch.setitem(sys.modules, "chess", None)
    monkeypatch.setitem(sys.modules, "chess.pgn", None)
    code, _, err = _cli("rate", "-f", "fide", str(CLUB))
    assert code != 0 and "Traceback" not in err
    assert 'club.pgn: reading a PGN database needs python-chess, an optional part of xl-elo: pip install ' \
           '"xl-elo[pgn]"' in err


# --------------------------------------------------------------------------- the format as declared


def test_the_format_is_declared_recognised_and_writes_nothing_back(tmp_path):
    """A .pgn name, or text opened by an [Event "..."] tag, is a PGN database (and never FESA's tournament file,
    whose first line is [name] too); no output format writes a PGN file back."""
    assert pgn in file_formats()
    assert pgn.recognises([CLUB])
    games = tmp_path / "games.txt"
    games.write_text('\n[Event "Club"]\n[Date "2026.03.14"]\n', encoding="utf-8")
    assert pgn.recognises([games])
    fesa = DATA / "fesa" / "sample" / "turnering.txt"
    assert not pgn.recognises([fesa])
    assert [f.__name__ for f in file_formats() if f.recognises([CLUB])] == ["xl_elo.formats.pgn"]
    assert "" not in written_back() and "pgn" not in written_back()


@needs_chess
def test_an_output_named_pgn_is_refused(tmp_path):
    """A PGN database is read, never written: an output named .pgn gets no CSV text, and the input is intact."""
    before = CLUB.read_bytes()
    code, _, err = _cli("rate", str(CLUB), "-o", str(tmp_path / "results.pgn"))
    assert code != 0 and "results.pgn: xl-elo reads a PGN database of games (.pgn) but does not write one" in err
    assert not (tmp_path / "results.pgn").exists() and CLUB.read_bytes() == before


@needs_chess
def test_a_player_with_and_without_his_fide_id_is_said(tmp_path):
    """A name given a FIDE id in one game and none in another is two players (never guessed one): the warning
    names the id the other games give."""
    path = _pgn(tmp_path / "ids.pgn", _game(), _game(Round="2", Black="B", BlackFideId=None))
    loaded = load(get("fide"), files=[path])
    assert sorted(p.id for p in loaded.event.players) == ["11", "12", "B"]
    assert any("B (line 14; FIDE id 12 in other games)" in w for w in loaded.warnings)


@needs_chess
def test_reading_a_file_stops_at_200_problems(tmp_path):
    path = _pgn(tmp_path / "many.pgn", *(_game(Round=str(i), Result="x") for i in range(1, 260)))
    said = _refused(path).splitlines()
    assert len(said) == 201 and said[0] == "many.pgn: reading stopped at game 201 (line 2601), after 200 problems"


@needs_chess
def test_fides_rating_list_fills_what_the_tags_do_not_say(tmp_path):
    """--rating-list (FIDE's list): each listed player's rating, K and year of birth by FIDE id (Carla
    Brun, 2150 on October's list, born 2009: K 40); an id the list does not hold keeps what the tags say, named in
    a warning with his file and line."""
    path = _pgn(tmp_path / "listed.pgn", _game(White="Brun, Carla", WhiteFideId="100002", WhiteElo="2140"))
    loaded = load(get("fide"), files=[path], rating_list=DATA / "ratinglist" / "standard_oct26.txt")
    players = {p.id: p for p in loaded.event.players}
    assert (players["100002"].rating, players["100002"].birth_year) == (2150, 2009)
    assert players["12"].rating == 1700
    assert {r["id"]: r["k"] for r in loaded.rate().rows} == {"100002": 40, "12": 20}
    assert any("1 FIDE id(s) not found in standard_oct26.txt" in w and "12 (B) in listed.pgn (line 1)" in w
               for w in loaded.warnings)
    assert not any("year of birth" in w for w in loaded.warnings)
