"""FESA's own program's files (xl_elo.federations.fesa.files): the nine tournaments from their original files
give the CSV results and FESA's published lists, byte for byte; bad files are named line by line."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from conftest import DATA

from xl_elo.federations import get
from xl_elo.federations.fesa.files import Char, Struct, Symbol, read_forms, write_form
from xl_elo.frontends.cli import main
from xl_elo.loader import load, read_event
from xl_elo.model import InputError

FESA = DATA / "fesa"
TOURNAMENTS = sorted(p.name for p in FESA.iterdir() if (p / "turnering.txt").exists())



def _refused(fn, *args):
    """The InputError ``fn(*args)`` raises (it must raise one)."""
    with pytest.raises(InputError) as info:
        fn(*args)
    return info.value


def _read(tournament: Path, rating_list: Path | None, *extra: Path, output=None):
    """FESA's files as the command line reads them (through :func:`xl_elo.loader.load`)."""
    return load(get("fesa"), files=[tournament, *extra], rating_list=rating_list, output=output)


def _copy(tmp_path, name):
    d = tmp_path / name
    shutil.copytree(FESA / name, d)
    return d


def test_the_nine_tournaments_are_all_here():
    assert len(TOURNAMENTS) == 9


@pytest.mark.parametrize("name", TOURNAMENTS)
def test_original_files_give_the_csv_results_and_the_published_list(name):
    """Source: FESA's program's files for each tournament (kota/elo_rating, archives/): the list
    written from turnering.txt + ratingliste.pre (+ nye-spillere) is FESA's ratingliste.post,
    byte for byte, and every results row equals the one from the CSV tables."""
    d = FESA / name
    read = _read(d / "turnering.txt", d / "ratingliste.pre")
    fesa = read.module
    from_files = fesa.rate(read.event)
    from_csv = fesa.rate(read_event("fesa", d / "players.csv", d / "games.csv", d / "history.csv"))
    assert from_files.rows == from_csv.rows
    assert sorted((h.id, h.opponent_rating, h.result) for h in from_files.history) == sorted(
        (h.id, h.opponent_rating, h.result) for h in from_csv.history)
    assert read.writers["fesa"](from_files) == (d / "ratingliste.post").read_bytes()
    assert read.event.name == json.loads((d / "event.json").read_text())["name"]


@pytest.mark.parametrize("name", TOURNAMENTS)
def test_a_rating_list_reads_and_prints_back_unchanged(name):
    for which in ("ratingliste.pre", "ratingliste.post"):
        data = (FESA / name / which).read_bytes()
        (players, _), = read_forms(data.decode("latin-1"))
        assert ("(" + "".join(write_form(p) + "\n" for p in players) + "\n)\n").encode("latin-1") == data


def test_command_line_as_fesas_rating_officer_runs_it(tmp_path, capsys):
    """nye-spillere is read from beside turnering.txt, as the program does; --output ratingliste.post
    writes the list in the program's format; a CSV output still gives the results table."""
    d = _copy(tmp_path, "13th_nekomadoken")
    out = tmp_path / "ratingliste.post"
    assert main(["rate", "-f", "fesa", str(d / "turnering.txt"), "--rating-list", str(d / "ratingliste.pre"),
                 "--output", str(out)]) == 0
    assert out.read_bytes() == (d / "ratingliste.post").read_bytes()
    assert main(["rate", str(d / "turnering.txt"), "--rating-list", str(d / "ratingliste.pre"),
                 "-o", str(tmp_path / "results.csv")]) == 0
    assert "N56" in (tmp_path / "results.csv").read_text() and (tmp_path / "results_history.csv").exists()
    assert main(["rate", str(d / "turnering.txt"), "--rating-list", str(d / "ratingliste.pre"),
                 "-o", str(d / "ratingliste.pre")]) == 2  # never over an input
    assert main(["rate", str(d / "turnering.txt"), "--rating-list", str(d / "ratingliste.pre"),
                 "-o", str(d / "nye-spillere")]) == 2
    (d / "nye-spillere").unlink()
    assert main(["rate", str(d / "turnering.txt"), "--rating-list", str(d / "ratingliste.pre")]) == 1
    assert "'N55' is neither in the rating list (ratingliste.pre) nor in the new players" in capsys.readouterr().err


def test_the_files_may_also_be_given_in_any_order(tmp_path):
    d = _copy(tmp_path, "14th_nekomadoken")
    read = _read(d / "ratingliste.pre", None, d / "turnering.txt", d / "nye-spillere")
    assert {p.id for p in read.event.players} >= {"N93", "N2"}


def test_the_list_is_one_argument_only(tmp_path, capsys):
    d = FESA / "17th_nekomadoken"
    assert main(["rate", str(d / "turnering.txt")]) == 1
    assert "give FESA's rating list before the tournament once, as --rating-list" in capsys.readouterr().err
    assert main(["rate", "-f", "fide", str(d / "turnering.txt"), "--rating-list", str(d / "ratingliste.pre")]) == 1
    assert "use -f fesa" in capsys.readouterr().err


# --------------------------------------------------------------------------- the tournament file


def _tournament(tmp_path, body, new_players=None):
    d = tmp_path / "t"
    d.mkdir(exist_ok=True)
    (d / "turnering.txt").write_text(body, encoding="latin-1")
    if new_players is not None:
        (d / "nye-spillere").write_text(new_players, encoding="latin-1")
    return d / "turnering.txt"


SAMPLE_LIST = FESA / "sample" / "ratingliste.pre"


def test_handicap_games_give_and_receive(tmp_path):
    """``(+ B)`` receives a bishop, ``(- B)`` gives it; the giver is the game's first player (rules 8)."""
    t = _tournament(tmp_path, "[Handicap]\n[2016-01-07]\n1 [Ishikawa] [Musashi] [2+(- B) 3-]\n"
                              "2 [Ould Ahmed] [Samy] [1- (+ B) 0+]\n3 [Hebert] [Pascal] [0- 1+]\n")
    games = [g for g in _read(t, SAMPLE_LIST).event.games if g.opponent]
    assert [(g.player, g.opponent, g.result.score, g.handicap) for g in games] == [
        ("Ishikawa Musashi", "Ould Ahmed Samy", 1.0, "B"), ("Ishikawa Musashi", "Hebert Pascal", 0.0, None)]


def test_sennichite_draws_comments_and_lines_around_the_table(tmp_path):
    t = _tournament(tmp_path, "; a comment\n[Draws]\n\n[2016-01-07]\nRound robin - results:\n"
                              "1 [Ishikawa] [Musashi] [2= 3+] [4]\n; another\n2 [Ould Ahmed] [Samy] JP 1d [1= 0+]\n"
                              "3 [Hebert] [Pascal] [0- 1-]\nend of the table\n")
    read = _read(t, SAMPLE_LIST)
    assert [(g.player, g.result.score) for g in read.event.games if g.opponent][:1] == [("Ishikawa Musashi", 0.5)]
    assert read.event.name == "Draws" and read.event.period == "2016-01-07"


def test_every_bad_line_of_the_tournament_named_at_once(tmp_path):
    t = _tournament(tmp_path, "[Bad]\n[2016-01-07]\n1 [Ishikawa] [Musashi] [2+ 3-]\n"
                              "2 [Ould Ahmed] [Samy] [1+ 9-]\n3 [Hebert] [Pascal [1- 2+]\n4 [Nobody] [] [0- 3x]\n"
                              "5 [Mazouzi] [Sana] [2+(+ Q)]\n6 [Nobody] [] [0-]\n")
    with pytest.raises(InputError) as exc:
        _read(t, SAMPLE_LIST)
    text = str(exc.value)
    assert "turnering.txt, line 3, round 1 (column 25): the results of players 1 (line 3) and 2 (line 4) in round 1 " \
           "do not add up to one (+ and +)" in text
    assert "line 4, round 2 (column 27): the opponent 9 is not a player number (1 to 6)" in text
    assert "turnering.txt, line 5: '3 [Hebert] [Pascal [1- 2+]' is not a player line" in text
    assert "turnering.txt, line 6, column 19: '3x': the result 'x' is not + (win)" in text
    assert "line 7, column 21: '2+(+ Q)': a handicap is (+ code)" in text
    assert "line 8: 'Nobody' is neither in the rating list" in text
    assert len(exc.value.problems) == 6  # a line that cannot be read is not blamed again through its opponents


def test_pairings_that_do_not_meet_and_players_listed_after_the_tournament(tmp_path):
    t = _tournament(tmp_path, "[X]\n[2013-04-05]\n1 [Ishikawa] [Musashi] [2+]\n2 [Ould Ahmed] [Samy] [3-]\n"
                              "3 [Hebert] [Pascal] [2+]\n")
    text = str(_refused(_read, t, SAMPLE_LIST))
    assert "player 1 meets 2 in round 1, but line 4 (player 2) has opponent 3 there" in text
    assert "'Ishikawa Musashi' played on 2013-04-05, not before this tournament (2013-04-05)" in text


@pytest.mark.parametrize("body, words", [
    ("", "the file is empty"),
    ("just words\n", "expected the tournament's name and date first"),
    ("[A]\n[2016-01-07]\nno results here\n", "holds no player line"),
    ("[A]\n[2016-13-07]\n1 [Ishikawa] [Musashi] [0-]\n", "'2016-13-07' is not a month"),
    ("[A]\n[2016-01-07]\n1 [Ishikawa] [Musashi] [0-]\n\n2 [Hebert] [Pascal] [0-]\nx\n3 [Mazouzi] [Sana] [0+]\n",
     "a player line after the table had ended"),
    ("[A]\n[2016-01-07]\n1 [Ishikawa] [Musashi] [&]\n", "a simultaneous display (&) is not rated"),
])
def test_tournament_files_that_cannot_be_read(tmp_path, body, words):
    t = _tournament(tmp_path, body)
    assert words in str(_refused(_read, t, SAMPLE_LIST))


def test_junk_bytes_and_a_huge_line_are_input_errors(tmp_path):
    t = tmp_path / "turnering.txt"
    t.write_bytes(b"[A]\n[2016-01-07]\n1 [Ishikawa] [Musashi] [" + b"2+ " * 40_000 + b"]\n")
    assert "characters long" in str(_refused(_read, t, SAMPLE_LIST))
    t.write_bytes(b"[A]\n[2016-01-07]\n1 [Ishikawa] [Mu\x00sashi] [0-]\n")
    assert "zero bytes" in str(_refused(_read, t, SAMPLE_LIST))


# --------------------------------------------------------------------------- the rating list


@pytest.mark.parametrize("text, words", [
    ("(#S(PLAYER :LAST-NAME \"A\"",
     "line 1: is not a rating list of FESA's program: a '(' opened here is never closed"),
    ("(#S(PLAYER :LAST-NAME \"A)\n)\n", "a string opened here is never closed"),
    ("(#S(PLAYER :LAST-NAME))\n", "has a slot name without a value"),
    ("(#S(PLAYER :LAST-NAME \"Ishikawa\" :FIRST-NAME \"Musashi\" :ELO-NUMBER 17x :GAMES 5))",
     ":ELO-NUMBER: Ishikawa Musashi: '17X' is not a number"),
    ("(#S(PLAYER :LAST-NAME \"Ishikawa\" :FIRST-NAME \"Musashi\" :ELO-NUMBER 1700 :GAMES ((1500 1 1) (1500 2 1))))",
     "Ishikawa Musashi: 2 is not a result"),
    ("(#S(PLAYER :LAST-NAME \"Ishikawa\" :FIRST-NAME \"Musashi\" :ELO-NUMBER 1700 :GAMES ((1500 1 2))))",
     "has the weight 2; xl-elo rates weight 1 only"),
    (("(#S(PLAYER :LAST-NAME \"Ishikawa\" :FIRST-NAME \"Musashi\" :GRADE-LEVEL 3 :GRADE-NAME \"Kyo\" :GAMES 9 "
      ":ELO-NUMBER 1500))"), "'3 Kyo' is not a FESA grade"),
    ("(#S(PLAYER)) (more)", "a rating list is one list"),
    ("#.(run-program \"rm\")", "is not data the rating program writes"),
])
def test_bad_rating_lists_are_named(tmp_path, text, words):
    t = _tournament(tmp_path, "[A]\n[2016-01-07]\n1 [Ishikawa] [Musashi] [0-]\n")
    bad = tmp_path / "ratingliste.pre"
    bad.write_text(text, encoding="latin-1")
    assert words in str(_refused(_read, t, bad))


def test_new_players_special_promotions_and_forms_xl_elo_does_not_run(tmp_path):
    new = ('(\n("Neu" "Otto" (#S(HOME :list #\\E :nationality "DE" :residens "DE")) 2 "Dan" 0 0 nil)\n)\n'
           '(special-promotion "Hebert" "Pascal" 1 "Dan")\n')
    t = _tournament(tmp_path, "[A]\n[2016-01-07]\n1 [Neu] [Otto] [2+]\n2 [Hebert] [Pascal] [1-]\n", new)
    read = _read(t, SAMPLE_LIST)
    results = read.module.rate(read.event)
    text = read.writers["fesa"](results).decode("latin-1")
    assert ':LAST-NAME "Neu" :FIRST-NAME "Otto" :NATIONALITY-LIST (#S(HOME :LIST #\\E :NATIONALITY "DE" ' \
           ':RESIDENS "DE" :LAST "2016-01-07"))' in text
    assert ':LAST-NAME "Hebert" :FIRST-NAME "Pascal"' in text and ':NSR-GRADE-LEVEL 1 :NSR-GRADE-NAME "Dan"' in text
    (t.parent / "nye-spillere").write_text(new + '(setq *rating* nil)\n')
    assert "xl-elo reads only (special-promotion" in str(_refused(_read, t, SAMPLE_LIST))


def test_a_new_player_without_grade_or_rated_game_stays_new_in_the_list(tmp_path):
    """SPEC 6.8: unrated (FESA's program would list him at 1); he stays a new player: 0, no games."""
    new = '(\n("Neu" "Otto" (#S(HOME :list #\\E :nationality "DE" :residens "DE")) 0 "" 0 0 nil)\n)\n'
    t = _tournament(tmp_path, "[A]\n[2016-01-07]\n1 [Neu] [Otto] [0-]\n", new)
    read = _read(t, SAMPLE_LIST)
    text = read.writers["fesa"](read.module.rate(read.event)).decode("latin-1")
    assert ':LAST-NAME "Neu" :FIRST-NAME "Otto"' in text and ":ELO-NUMBER 0 :GAMES 0 " in text


def test_lisp_printing_of_what_lists_hold():
    assert write_form([Symbol(":LB"), 3, True]) == "(:LB 3 T)"
    assert write_form([]) == "NIL" and write_form(None) == "NIL"
    assert write_form('a "quoted" \\ name') == '"a \\"quoted\\" \\\\ name"'
    assert write_form(Char("E")) == "#\\E"
    (form, _), = read_forms('(1/2 -3 "x\\"y" #\\A nil t :key sym ; comment\n 2.5)')
    assert form[0] * 2 == 1 and form[1:4] == [-3, 'x"y', Char("A")] and form[4:6] == [None, True]
    assert write_form(Struct("HOME", {"LIST": Char("A"), "NATIONALITY": "US"})) == \
        '#S(HOME :LIST #\\A :NATIONALITY "US" :RESIDENS NIL :LAST NIL)'


def test_players_are_numbered_by_their_lines_as_the_program_numbers_them(tmp_path):
    """FESA's program checks only that the first line is number 1; opponents are the lines' order."""
    t = _tournament(tmp_path, "[A]\n[2016-01-07]\n1 [Ishikawa] [Musashi] [2+]\n5 [Hebert] [Pascal] [1-]\n")
    read = _read(t, SAMPLE_LIST)
    assert [(g.player, g.opponent) for g in read.event.games] == [("Ishikawa Musashi", "Hebert Pascal")]
    assert any("line 4: numbered 5, read as player 2" in w for w in read.warnings)


def _program_cases():
    import gzip
    import json

    return json.loads(gzip.decompress((DATA / "fesa_program" / "random_tournaments.json.gz").read_bytes()))


def test_300_random_tournaments_as_fesas_program_rates_them(tmp_path):
    """Every player of 300 random tournaments (handicaps, performance mode, byes) exactly as FESA's program,
    read from its own files; a player with no rated game aside (rules 6.8)."""
    fesa = get("fesa")
    cases = _program_cases()
    assert len(cases) == 300 and sum("(+" in c["turnering.txt"] for c in cases) > 150
    differ = []
    for c in cases:
        folder = tmp_path / c["case"]
        folder.mkdir()
        for name in ("turnering.txt", "ratingliste.pre"):
            (folder / name).write_text(c[name], encoding="latin-1")
        read = _read(folder / "turnering.txt", folder / "ratingliste.pre")
        rows = fesa.rate(read.event).by_id()
        for p, value in zip(read.event.players, c["values"], strict=True):
            row = rows[p.id]
            if row["games_rated"] == 0:
                continue
            mine = row["rating_after"] if row["mode"] == "performance" else row["change"]
            if mine != value:
                differ.append((c["case"], p.id, value, mine))
    assert not differ, differ[:10]
