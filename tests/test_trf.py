"""TRF-16 reports in and out (xl_elo.formats.trf): real exports, the same event as CSV, every bad line
named, the report written back byte for byte but its ratings."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import DATA

from xl_elo.federations import get
from xl_elo.formats.text import decode_text
from xl_elo.formats.trf import parse, parse_date
from xl_elo.frontends.cli import main
from xl_elo.loader import load, read_event
from xl_elo.model import InputError

TRF = DATA / "trf"
REAL = sorted(p.name for p in TRF.glob("*.trf") if not p.name.startswith("xlelo"))
ALL = sorted(p.name for p in TRF.glob("*.trf"))
CLUB = TRF / "xlelo_club_2026.trf"
CUP = TRF / "xlelo_autumn_cup_2026.trf"



def _refused(fn, *args):
    """The InputError ``fn(*args)`` raises (it must raise one)."""
    with pytest.raises(InputError) as info:
        fn(*args)
    return info.value


def _read(*paths, federation="fide", period=None, rating_list=None, format=None, output=None):
    """The reports as the command line reads them (through :func:`xl_elo.loader.load`)."""
    return load(get(federation), files=[Path(p) for p in paths], period=period, rating_list=rating_list,
                one_report=format == "trf", output=output)


def _rate(*paths, federation="fide", **kw):
    read = _read(*paths, federation=federation, **kw)
    return read, read.module.rate(read.event)


def _problems(tmp_path, text, name="bad.trf", **kw):
    path = tmp_path / name
    path.write_bytes(text if isinstance(text, bytes) else text.encode("utf-8"))
    with pytest.raises(InputError) as exc:
        _read(path, **kw)
    return exc.value.problems


# --------------------------------------------------------------------------- a TRF line


def p001(rank, rating, fide_id, birth, rounds, name=None, title="", sex="m", points=""):
    """A 001 line at TRF-16's columns; rounds as (opponent, colour, result)."""
    line = (f"001 {rank:>4} {sex}{title:<3} {(name or f'Player {rank}'):<33} {rating:>4} SUI {fide_id:>11} "
            f"{birth:<10} {points:>4} {rank:>4}")
    assert len(line) == 89
    return line + "".join(f"  {o:>4} {c} {r}" for o, c, r in rounds)


def report(*lines, end="2026/10/30"):
    return "\n".join(["012 Test", f"052 {end}", *lines]) + "\n"


# --------------------------------------------------------------------------- the reports the tests keep


def test_hand_computed_club_championship():
    """xlelo_club_2026.trf, FIDE, October 2026, no rating list (rules 2.1 - 2.3), by hand:
    Alder GM 2480 K10: +10(1-0.88) [330] -10(0.64) [100] = -5.2 -> 2475;
    Brun 2150, born 2009 (junior, K40): -40(0.12) -40(0.92) [450 -> 400] +40(1-0.79) = -10 -> 2140
    (her forfeit win is not rated); Müller IM 2380: K10 (IM: the rating reached 2400):
    -4.2 +6.4 -7.9 = -5.7 -> 2374; Eck 1700, no FIDE id: +20(0.5-0.08) +20(1-0.08) = 26.8 -> 1727
    (her L under one move and her double forfeit are not rated); Dorn, unrated, 2 games: no rating."""
    read, results = _rate(CLUB)
    rows = results.by_id()
    assert read.event.period == "2026-10"
    assert {pid: (r["k"], r["change"], r["rating_after"]) for pid, r in rows.items()} == {
        "100001": (10, -5, 2475), "100002": (40, -10, 2140), "100003": (10, -6, 2374),
        "#5": (20, 27, 1727), "100004": (None, None, None)}
    assert rows["100004"]["status"] == "unrated" and rows["100004"]["games_rated"] == 2
    assert any("does not say how many rated games" in w for w in read.warnings)


def test_the_same_event_typed_as_csv_gives_the_same_changes():
    """The club championship as players and games CSV (every rated player with 100 games: not
    new, as the report's are taken) gives every player the same change and rating after."""
    _, from_trf = _rate(CLUB)
    event = read_event("fide", TRF / "xlelo_club_2026_players.csv", TRF / "xlelo_club_2026_games.csv", period="2026-10")
    from_csv = get("fide").rate(event)
    keep = ("status", "games_rated", "score", "k", "change", "rating_after", "ever_2400")
    assert {r["id"]: [r[k] for k in keep] for r in from_trf.rows} == {r["id"]: [r[k] for k in keep]
                                                                      for r in from_csv.rows}


def test_every_result_kind_is_kept_forfeits_byes_and_short_games_never_rated():
    read = _read(CLUB)
    games = {(g.round, g.player, g.opponent): g for g in read.event.games}
    assert games[(2, "100002", "100004")].result.kind.value == "forfeit"
    assert games[(2, "100002", "100004")].result.score == 1.0
    assert games[(5, "100002", "#5")].result.score is None  # double forfeit
    assert not games[(4, "100001", "#5")].rated and games[(4, "100001", "#5")].result.score == 1.0  # W/L
    byes = sorted((g.round, g.player) for g in read.event.games if g.opponent is None)
    assert byes == [(1, "100004"), (2, "#5"), (3, "100003"), (4, "100004"), (5, "100001")]
    assert sum(g.counts for g in read.event.games) == 7


def test_two_reports_one_period_players_matched_by_fide_id():
    """Dorn (unrated) plays 2 games in the club and 3 in the cup: 5 against rated players,
    3 points: Ra = (2480 + 2380 + 2480 + 1950 + 2010 + 2 x 1800) / 7 = 2128.57, p = 4/7 -> 0.57,
    dp 50: first rating 2179 (rules 2.4). Alder: -5.2 in the club, +0.8 and -4.2 in the cup -> -9."""
    read, results = _rate(CLUB, CUP)
    rows = results.by_id()
    assert len(read.event.players) == 7
    assert rows["100004"]["rating_after"] == 2179 and rows["100004"]["games_rated"] == 5
    assert rows["100001"]["change"] == -9 and rows["100001"]["games_rated"] == 4
    assert (rows["100005"]["rating_after"], rows["100006"]["rating_after"]) == (1960, 2007)
    assert "xlelo_club_2026.trf#5" in rows  # no FIDE id: one player per report


def test_a_report_given_twice_is_refused(capsys):
    assert main(["rate", str(CLUB), str(TRF / ".." / "trf" / CLUB.name)]) == 1
    assert "is given twice" in capsys.readouterr().err


def test_reports_ending_in_different_months_are_a_season(tmp_path):
    """Rules 14: reports of two months are two FIDE periods rated in order; --period makes them one."""
    other = tmp_path / "november.trf"
    other.write_text(CUP.read_text().replace("052 26/10/2026", "052 02/11/2026"))
    season = _read(CLUB, other)
    assert [u.key for u in season.units] == ["2026-10", "2026-11"]
    steps = season.season().steps
    oct_after = steps[0].results.by_id()["100001"]["rating_after"]
    assert steps[1].results.by_id()["100001"]["rating_before"] == oct_after  # the list October's period left
    one = _read(CLUB, other, period="2026-11")
    assert one.event.period == "2026-11" and [u.key for u in one.units] == ["2026-11"]


def test_juniors_ages_count_in_the_period_given():
    """Brun, born 2009, is 18 in 2027 (still K40, rules 2.3) and 19 in 2028 (K20)."""
    assert _rate(CLUB, period="2027-01")[1].by_id()["100002"]["k"] == 40
    assert _rate(CLUB, period="2028-01")[1].by_id()["100002"]["k"] == 20


@pytest.mark.parametrize("name", ALL)
def test_written_back_unchanged_is_the_same_bytes(name):
    data = (TRF / name).read_bytes()
    text = decode_text(data, name)
    assert text.encode() == data
    report_ = parse(text, name)
    assert not report_.problems


@pytest.mark.parametrize("name", ALL)
def test_written_back_with_new_ratings_changes_only_columns_49_to_52(name):
    read, results = _rate(TRF / name, period="2024-08")
    data = (TRF / name).read_bytes()
    out = read.writers["trf"](results)
    before, after = data.decode("utf-8").splitlines(True), out.decode("utf-8").splitlines(True)
    assert len(before) == len(after) and len(out) == len(data)
    changed = 0
    for a, b in zip(before, after, strict=True):
        if a != b:
            changed += 1
            assert a[:48] == b[:48] and a[52:] == b[52:]
    rated = [r for r in results.rows if r["rating_after"] is not None and r["rating_after"] != r["rating_before"]]
    dropped = [r for r in results.rows if r["rating_after"] is None and r["rating_before"] is not None]  # rules 2.8
    assert changed == len(rated) + len(dropped)


def test_format_trf_on_the_command_line(tmp_path, capsys):
    out = tmp_path / "next.trf"
    assert main(["rate", "-f", "fide", str(CLUB), "-o", str(out)]) == 0  # .trf output: the report back
    text = out.read_text(encoding="utf-8")
    assert "Alder, Bruno                      2475 SUI" in text and "Dorn, Emil                        0000" in text
    assert out.read_bytes().count(b"\r\n") == CLUB.read_bytes().count(b"\r\n")
    assert main(["rate", "-f", "fide", str(CLUB), "--format", "trf"]) == 0
    assert "Müller, Jörg                      2374" in capsys.readouterr().out
    assert main(["rate", str(CLUB), str(CUP), "--format", "trf"]) == 1  # one report only
    assert "writes one report back" in capsys.readouterr().err
    assert main(["rate", str(CLUB), "-o", str(CLUB)]) == 2  # never over the input


def test_latin1_and_cr_only_reports_are_written_back_in_their_own_encoding(tmp_path):
    lines = ["012 Test", "052 2026/10/30", p001(1, "1500", "0", "", [("2", "w", "1")], name="Jérôme, Zoë"),
             p001(2, "1500", "0", "", [("1", "b", "0")])]
    path = tmp_path / "latin.trf"
    path.write_bytes("\r".join(lines).encode("latin-1"))  # CR only, no final line end
    read, results = _rate(path)
    assert read.event.players[0].name == "Jérôme, Zoë"
    lines[2] = lines[2][:48] + "1510" + lines[2][52:]
    lines[3] = lines[3][:48] + "1490" + lines[3][52:]
    assert read.writers["trf"](results) == "\r".join(lines).encode("latin-1")


# --------------------------------------------------------------------------- what the reader accepts


def test_real_exports_build_each_game_once_from_both_sides():
    """A TRF holds each game twice; the reader keeps one Game per pairing, checked against the
    blocks read independently here (round and the two start ranks)."""
    for name in REAL:
        lines = (TRF / name).read_text(encoding="utf-8").splitlines()
        pairs = set()
        rank_at = {}
        for number, ln in enumerate(lines, start=1):
            if not ln.startswith("001"):
                continue
            me = int(ln[4:8])
            rank_at[number] = me
            for r in range(len(ln[91:]) // 10 + 1):
                block = ln[91 + 10 * r: 99 + 10 * r]
                if len(block) == 8 and block[:4].strip() and int(block[:4]) > 0:
                    pairs.add((r + 1, frozenset((me, int(block[:4])))))
        read = _read(TRF / name, period="2024-08")
        rank = {p.id: rank_at[p.row] for p in read.event.players}
        built = [(g.round, frozenset((rank[g.player], rank[g.opponent])))
                 for g in read.event.games if g.opponent is not None]
        assert len(built) == len(set(built)) and set(built) == pairs, name


def test_gros_2010_titles_unrated_zero_and_round_five_filled_ahead():
    read = _read(TRF / "trfkt_gros2010_round5.trf")
    players = {p.id: p for p in read.event.players}
    assert read.event.period == "2010-10"  # 052 02/10/2010, day first (042 24/09/2010 says so)
    assert players["13400304"].ever_2400  # TRF-06 title 'g'
    assert sum(p.rating is None for p in read.event.players) == 11
    assert {g.round for g in read.event.games} == {1, 2, 3, 4, 5}
    assert all(g.opponent is None for g in read.event.games if g.round == 5)
    assert any("results up to round 4 of 9 (XXR 9, line 13)" in w for w in read.warnings)


@pytest.mark.parametrize("text, expected", [
    ("2026/10/05", "2026-10-05"), ("2026-10-05", "2026-10-05"), ("05.10.2026", "2026-10-05"),
    ("28. 07. 2005", "2005-07-28"), ("May 29, 2020", "2020-05-29"), ("29 May 2020", "2020-05-29"),
    ("13/10/2026", "2026-10-13"), ("10/13/2026", "2026-10-13"), ("1. Dezember 2020", "2020-12-01"),
])
def test_header_dates_as_the_programs_write_them(text, expected):
    assert str(parse_date(text)[0]) == expected


def test_an_ambiguous_date_is_read_day_first_with_a_warning(tmp_path):
    path = tmp_path / "a.trf"
    path.write_text(report(p001(1, "1500", "0", "", []), end="03/04/2026"))
    read = _read(path)
    assert read.event.period == "2026-04" and any("read as day 3, month 4" in w for w in read.warnings)


def test_period_from_the_start_date_and_missing_dates(tmp_path):
    """No end date: the start date's month, said in a warning; an end date that cannot be read is a
    problem, never the start date's month instead (issue 29: `052 2026/O1/04` moved the period)."""
    path = tmp_path / "a.trf"
    path.write_text("012 T\n042 2026/09/30\n" + p001(1, "1500", "0", "", []) + "\n")
    read = _read(path)
    assert read.event.period == "2026-09"
    assert any("the report has no end date (052): its start date's month for the period 2026-09" in w
               for w in read.warnings)
    path.write_text("012 T\n042 2026/09/30\n052 sometime\n" + p001(1, "1500", "0", "", []) + "\n")
    assert str(_refused(_read, path)) == (
        "a.trf: no month for the period: the end date 'sometime' (052, line 3) is not a date xl-elo reads: write it "
        "YYYY/MM/DD; give --period YYYY-MM (FIDE counts ages in its year)")
    path.write_text("012 T\n" + p001(1, "1500", "0", "", []) + "\n")
    with pytest.raises(InputError) as exc:
        _read(path)
    assert "give --period" in str(exc.value)
    line = p001(1, "1500", "0", "", [])
    path.write_text("012 T\n" + line + "\n" + "FRA" + line[3:79] + "\n")
    assert _read(path, federation="ffe").event.period is None  # FFE needs no month


def test_a_pairing_exported_before_its_result_is_kept_not_rated(tmp_path):
    path = tmp_path / "a.trf"
    path.write_text(report(p001(1, "1500", "0", "", [("2", "w", "1"), ("3", "b", " ")]),
                           p001(2, "1500", "0", "", [("1", "b", "0"), ("0000", "-", "U")]),
                           p001(3, "1500", "0", "", [("0000", "-", "U"), ("1", "w", " ")])))
    read, results = _rate(path)
    (game,) = [g for g in read.event.games if g.round == 2 and g.opponent]
    assert game.result.kind.value == "not played" and not game.counts
    assert any("1 pairing(s) without a result (round 2: 1 - 3)" in w for w in read.warnings)
    assert results.by_id()["#1"]["games_rated"] == 1


def test_points_that_do_not_add_up_are_a_warning_not_an_error(tmp_path):
    path = tmp_path / "a.trf"
    path.write_text(report(p001(1, "1500", "0", "", [("2", "w", "1")], points="3.0"),
                           p001(2, "1500", "0", "", [("1", "b", "0")], points="0.0")))
    assert any("do not add up" in w and "line 3" in w for w in _read(path).warnings)


def test_lichess_and_bbp_spellings_of_byes(tmp_path):
    """lichess writes an absence as a blank opponent with '-', bbpPairings accepts '=' without
    an opponent, TieBreakServer writes '     0 - H': all byes; a blank block is no round."""
    lines = [p001(1, "1500", "0", "", [("", " ", "-"), ("2", "w", "1"), ("   0", "-", "H")]),
             p001(2, "1500", "0", "", [("0000", "-", "="), ("1", "b", "0"), ("", " ", " ")])]
    path = tmp_path / "x.trf"
    path.write_text(report(*lines))
    read = _read(path)
    assert sorted((g.round, g.player) for g in read.event.games if g.opponent is None) == [
        (1, "#1"), (1, "#2"), (3, "#1")]


# --------------------------------------------------------------------------- what it refuses


def test_every_bad_line_reported_at_once_with_line_column_and_value(tmp_path):
    lines = [
        p001(1, "21x0", "0", "", [("2", "w", "1")]),                   # line 3: rating
        p001(2, "1500", "12AB", "", [("1", "b", "0")]),                # line 4: FIDE id
        p001(3, "1500", "0", "1990/13", [("4", "w", "Q")]),            # line 5: result code (the date: a warning)
        p001(4, "1500", "0", "", [("3", "x", "1")]),                   # line 6: colour
        "001  abc m    Nobody",                                        # line 7: start rank
    ]
    problems = _problems(tmp_path, report(*lines))
    text = "\n".join(str(p) for p in problems)
    assert "bad.trf, line 3, columns 49-52 (rating): '21x0' is not a number" in text
    assert "bad.trf, line 4, columns 58-68 (FIDE id): '12AB' is not a FIDE id" in text
    assert "birth date" not in text
    assert "line 5, round 1 (columns 92-99): the result 'Q' is not a TRF result code" in text
    assert "line 6, round 1 (columns 92-99): the colour 'x'" in text
    assert "line 7, columns 5-8 (start rank): 'abc'" in text
    assert [p.row for p in problems] == sorted(p.row for p in problems)


@pytest.mark.parametrize("left, right, words", [
    (("2", "w", "1"), ("1", "b", "1"), "the results of start ranks 1 (line 3) and 2 (line 4) in round 1 do not agree"),
    (("2", "w", "1"), ("1", "w", "0"), "the colours of start ranks 1 (line 3) and 2 (line 4) in round 1 do not agree"),
    (("2", "w", "1"), ("0000", "-", "H"), "start rank 1 meets 2 in round 1, but line 4 (start rank 2) has no opponent"),
    (("2", "w", "+"), ("1", "b", "="), "do not agree: '+' and '='"),
])
def test_two_sides_of_a_game_that_disagree_name_both_lines(tmp_path, left, right, words):
    problems = _problems(tmp_path, report(p001(1, "1500", "0", "", [left]), p001(2, "1500", "0", "", [right])))
    assert any(words in str(p) for p in problems), [str(p) for p in problems]


def test_unknown_opponent_duplicate_rank_and_duplicate_fide_id(tmp_path):
    lines = [p001(1, "1500", "7", "", [("9", "w", "1")]), p001(1, "1500", "8", "", []),
             p001(2, "1500", "7", "", [])]
    text = "\n".join(str(p) for p in _problems(tmp_path, report(*lines)))
    assert "the opponent 9 is not a start rank" in text
    assert "start rank 1 is already on line 3" in text
    assert "the FIDE id 7 is also on line 3" in text


def test_a_player_rated_differently_in_two_reports(tmp_path):
    """FIDE rates each event from the list in force at its start (rules 2.11): two reports may rate a player
    differently, each event's games count with its own report's ratings."""
    other = tmp_path / "cup.trf"
    other.write_text(CUP.read_text().replace("Alder, Bruno                      2480",
                                             "Alder, Bruno                      2490"))
    read = _read(CLUB, other)
    assert any("rated differently in the reports" in w and "100001 (2490, from cup.trf)" in w for w in read.warnings)
    bruno = next(p for p in read.event.players if p.id == "100001")
    assert bruno.rating == 2490  # the cup started later (042 25/10/2026, the club 2026/10/02): the period's
    club = [g for g in read.event.games if "100001" in (g.player, g.opponent) and g.opponent is not None
            and g.round is not None and g.round <= 5]
    assert club and all((g.player_rating if g.player == "100001" else g.opponent_rating) == 2480 for g in club)


@pytest.mark.parametrize("data, words", [
    (b"", "the file is empty"),
    (b"\n \n\t\n", "the file is empty"),
    (b"PK\x03\x04\x00\x00junk", "zero bytes: it is not a text file"),
    (bytes(range(1, 256)) * 20, "holds no player line"),
    (b"012 Only a header\n052 2026/10/30\n", "holds no player line"),
])
def test_files_that_are_no_report(tmp_path, data, words):
    assert any(words in str(p) for p in _problems(tmp_path, data))


def test_truncated_lines_long_lines_and_junk_never_raise_anything_but_input_error(tmp_path):
    good = CLUB.read_text(encoding="utf-8").splitlines()
    cut = "\n".join(ln[: 7 * i % (len(ln) + 1)] for i, ln in enumerate(good))
    _problems(tmp_path, cut, name="cut.trf")
    long_line = p001(6, "1500", "0", "", []) + "  0000 - Z" * 9990
    assert len(long_line) > 99_000
    assert any("9,990 round blocks (at most 999)" in str(p)
               for p in _problems(tmp_path, CLUB.read_text(encoding="utf-8") + long_line + "\n"))
    assert any("characters long" in str(p) for p in _problems(tmp_path, report(p001(1, "1500", "0", "", [])
                                                                              + "x" * 100_001)))


def test_command_line_reports_problems_without_a_traceback(tmp_path, capsys):
    bad = tmp_path / "bad.trf"
    bad.write_text(report(p001(1, "15o0", "0", "", [("2", "w", "1")]), p001(2, "1500", "0", "", [("1", "w", "0")])))
    assert main(["rate", str(bad)]) == 1
    err = capsys.readouterr().err
    assert "bad.trf, line 3, columns 49-52 (rating): '15o0'" in err and "Traceback" not in err
    assert main(["rate", str(tmp_path / "missing.trf")]) == 1
    assert "does not exist" in capsys.readouterr().err
    assert main(["rate", "-f", "fesa", str(CLUB)]) == 1
    assert "FESA tournaments are rated from FESA's own files" in capsys.readouterr().err


def test_national_federations_never_read_fide_ratings_as_theirs(tmp_path):
    """A pairing program's report gives FIDE's ratings on its 001 lines (rules 3.1, 4.1, 5.1): the FFE and the
    FSE read their own from the report's FRA and SUI national-rating records, and refuse a report without any,
    as DWZ, US Chess and the CFC do; no report carries the FQE's, so the FQE refuses every one. Each said by
    what the system declares (NATIONAL_RATINGS, NO_REPORT_RATINGS), never by its name."""
    from xl_elo.federations import get

    for code, fed in (("ffe", "FRA"), ("fse", "SUI")):
        assert fed == get(code).NATIONAL_RATINGS
        with pytest.raises(InputError, match=f"holds no {fed} national-rating record"):
            _rate(CLUB, federation=code)
    with pytest.raises(InputError, match="a TRF report carries no FQE rating"):
        _rate(CLUB, federation="fqe")
    lines = CLUB.read_text(encoding="utf-8").splitlines()
    first = next(line for line in lines if line.startswith("001"))
    national = first[:48] + "1905" + first[52:79]  # his Elo on the FFE's list, beside his FIDE rating
    (tmp_path / "fra.trf").write_text("\n".join([*lines, "FRA" + national[3:]]) + "\n", encoding="utf-8")
    read, results = _rate(tmp_path / "fra.trf", federation="ffe", period="2026-10")
    rank = first[4:8].strip()
    rated = {r["id"]: r["rating_before"] for r in results.rows}
    assert 1905 in rated.values() and sum(v is not None for v in rated.values()) == 1, rated
    assert any("no FRA national-rating record" in w or "unrated" in w for w in read.warnings), rank


def test_mutated_reports_lists_and_fesa_files_only_ever_give_input_errors(tmp_path):
    """Bytes flipped, cut, inserted and repeated in real files: the command line answers with a
    message (exit 1 or 2) or a result, never an exception (a deterministic sample)."""
    import io
    import random

    rng = random.Random(17)

    def mutate(data: bytes) -> bytes:
        b = bytearray(data)
        for _ in range(rng.randint(1, 6)):
            i, op = rng.randrange(len(b) + 1), rng.random()
            if op < 0.3 and b:
                b[min(i, len(b) - 1)] = rng.randrange(256)
            elif op < 0.55:
                del b[i:i + rng.randint(1, 40)]
            elif op < 0.8:
                b[i:i] = bytes(rng.randrange(32, 127) for _ in range(rng.randint(1, 10)))
            else:
                b = b[:i]
        return bytes(b)

    fesa = DATA / "fesa" / "13th_nekomadoken"
    for n in range(60):
        kind = n % 3
        if kind == 0:
            path = tmp_path / "m.trf"
            path.write_bytes(mutate(rng.choice([TRF / a for a in ALL]).read_bytes()))
            argv = ["rate", str(path), "--period", "2026-10"]
        elif kind == 1:
            (tmp_path / "turnering.txt").write_bytes(mutate((fesa / "turnering.txt").read_bytes()))
            (tmp_path / "ratingliste.pre").write_bytes(mutate((fesa / "ratingliste.pre").read_bytes()))
            (tmp_path / "nye-spillere").write_bytes((fesa / "nye-spillere").read_bytes())
            argv = ["rate", str(tmp_path / "turnering.txt"), "--rating-list", str(tmp_path / "ratingliste.pre"),
                    "--format", "fesa"]
        else:
            source = DATA / "ratinglist" / rng.choice(["standard_oct26.txt", "standard_oct26.xml"])
            path = tmp_path / ("l" + source.suffix)
            path.write_bytes(mutate(source.read_bytes()))
            argv = ["rate", str(CLUB), "--rating-list", str(path)]
        assert main(argv, io.StringIO(), io.StringIO()) in (0, 1, 2)
