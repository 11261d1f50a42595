"""TRF-26 and the reports as pairing programs write them (issues 28 and 29): the new tags and records
read and written back, national ratings for national systems, FIDE's rapid and blitz lists from the
time control, birth and event dates in the programs' forms, fixed-width columns checked, the 1400
floor, FIDE's combined rating lists, results written 1:0, and files that are no report refused
quickly. Every message is asserted as the user reads it."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from conftest import DATA

from xl_elo.federations import get
from xl_elo.formats import ratinglist, trf
from xl_elo.formats.text import decode_text
from xl_elo.frontends.cli import main
from xl_elo.loader import load, read_event
from xl_elo.model import InputError, Results

TRF = DATA / "trf"
LISTS = DATA / "ratinglist"
RAPID = TRF / "xlelo_trf26_rapid_2026.trf"
TEAM = TRF / "xlelo_trf26_team_2026.trf"
REAL_TEAM = TRF / "tiebreakserver_fideteam_nocolor.trf"


def _read(*paths, federation="fide", **kw):
    return load(get(federation), files=[Path(p) for p in paths], **kw)


def _rows(*paths, federation="fide", **kw):
    loaded = _read(*paths, federation=federation, **kw)
    return loaded, {r["id"]: r for r in loaded.rate().rows}


def _refused(fn, *args, **kw):
    with pytest.raises(InputError) as info:
        fn(*args, **kw)
    return info.value


def _write(tmp_path, text, name="bad.trf"):
    path = tmp_path / name
    path.write_bytes(text.encode("utf-8") if isinstance(text, str) else text)
    return path


def p001(rank, rating, birth="", rounds=(), name=None, sex="m", title="", fide_id="0"):
    """A 001 line at TRF's columns; rounds as (opponent, colour, result)."""
    line = (f"001 {rank:>4} {sex}{title:<3} {(name or f'Player {rank}'):<33} {rating:>4} GER {fide_id:>11} "
            f"{birth:<10} {'':>4} {rank:>4}")
    assert len(line) == 89
    return line + "".join(f"  {o:>4} {c} {r}" for o, c, r in rounds)


def report(*lines, end="2026/10/30"):
    return "\n".join(["012 Test", f"052 {end}", *lines]) + "\n"


PAIR = (p001(1, "1500", rounds=[("2", "w", "1")]), p001(2, "1500", rounds=[("1", "b", "0")]))


# --------------------------------------------------------------------------- a TRF-26 rapid report


def test_trf26_rapid_report_hand_computed():
    """xlelo_trf26_rapid_2026.trf: 222 900+10 gives each player 15 + 60 x 10 s = 25 minutes for 60
    moves: FIDE's rapid list (rules 2.9). By hand, FIDE's PD table (section 7):
    Kraft 2700 GM, K 10: Mai 2090 (610 apart, he above 2600) and Quast 1650 not rated, Pohl unrated;
    Lang 2250: 450 counts 400 (no 2650 exemption in rapid) PD .92: +0.8 -> 2701.
    Lang 2250, K 20: Kraft -0.08, Ost +0.08, Quast (600 apart, nobody above 2600: rated) 0.5-.92,
    Mai (160) 0.5-.71: -0.63 x 20 = -12.6 -> 2237.
    Mai 2090, born 170610 (Vega: 2010, junior K 40): Ost 0.5-.92, Ost 1-.92, Lang 0.5-.29:
    -0.13 x 40 = -5.2 -> 2085. Nagel 1405: Ost (-95) 0-.37 = -7.4 -> 1398, below 1400: shown as
    unrated (rules 2.8). Ost 1500: +.37 +.42 -.08 -.08 = 12.6 -> 1513. Pohl unrated: 2250 L, 1650 D,
    2090 L, 2700 L, 1500 W: Ra = (9,190 + 3,600) / 7 = 1970, p = 2.5/7 -> .36, dp -102: 1868.
    Quast 1650 (birth date '19??' unread: as an adult): Lang (-600 -> -400) 0.5-.08: +8.4 -> 1658."""
    loaded, rows = _rows(RAPID)
    assert loaded.options == {"list": "rapid"} and loaded.event.period == "2026-10"
    assert {pid: (r["games_rated"], r["k"], r["change"], r["rating_after"]) for pid, r in rows.items()} == {
        "4100001": (1, 10, 1, 2701), "4100002": (4, 20, -13, 2237), "4100003": (3, 40, -5, 2085),
        "4100004": (1, 20, -7, None), "4100005": (4, 20, 13, 1513), "4100006": (5, None, None, 1868),
        "#7": (1, 20, 8, 1658)}
    assert rows["4100004"]["note"] == "new rating 1398 is below 1400: shown as unrated on the next list (rules 2.8)"
    assert rows["4100001"]["note"] == ("2 game(s) not rated: 600 points or more apart, one above 2600 (rapid list, "
                                       "rules 2.9)")
    assert loaded.warnings[:3] == [
        ("xlelo_trf26_rapid_2026.trf: line 24: the time control (222) '900+10' gives each player 25 minutes for 60 "
         "moves: rated on FIDE's rapid list (rules 2.9; --list chooses another)"),
        ("xlelo_trf26_rapid_2026.trf, line 32, columns 70-79 (birth date): '19??' is not a birth date xl-elo reads "
         "(YYYY/MM/DD, DD.MM.YYYY, YYYY, Vega's DDMMYY ...): the player (Quast, Ida) is rated as of unknown age (as "
         "an adult)"),
        ("xlelo_trf26_rapid_2026.trf: 1 birth date(s) written DDMMYY (as Vega writes them), the century read from "
         "the event's year 2026: line 28: 170610 -> 2010"),
    ]
    born = {p.id: p.birth_year for p in loaded.event.players}
    assert born == {"4100001": 1985, "4100002": 1990, "4100003": 2010, "4100004": 1960, "4100005": 1975,
                    "4100006": 1999, "#7": None}


def test_the_list_given_overrides_the_time_control_with_a_warning():
    """On the standard list Kraft (2650 or more) is not capped and his games far apart are rated:
    Mai (610) PD .98, Lang (450) .94, Quast (1050) 1.00: +0.02 +0.06 +0 = 0.8 -> 2701 in 3 games;
    Quast's loss to Kraft counts (-400: 0 - .08): +6.8 -> 1657."""
    loaded, rows = _rows(RAPID, options={"list": "standard"})
    assert (rows["4100001"]["games_rated"], rows["4100001"]["rating_after"]) == (3, 2701)
    assert rows["#7"]["rating_after"] == 1657
    assert ("xlelo_trf26_rapid_2026.trf: line 24: the time control (222) '900+10' gives each player 25 minutes for "
            "60 moves, rapid; rated on the standard list, as --list says") in loaded.warnings


def test_written_back_byte_for_byte_but_the_ratings(tmp_path):
    """Tags, records, national records and ### comments kept; the new ratings in columns 49-52; Nagel,
    below the floor, written as the report writes an unrated player (0000); Pohl's first rating."""
    out = tmp_path / "next.trf"
    assert main(["rate", str(RAPID), "-o", str(out)], io.StringIO(), io.StringIO()) == 0
    before, after = RAPID.read_text().splitlines(True), out.read_text().splitlines(True)
    changed = {i + 1: (a, b) for i, (a, b) in enumerate(zip(before, after, strict=True)) if a != b}
    assert {n: b[48:52] for n, (_, b) in changed.items()} == {
        26: "2701", 27: "2237", 28: "2085", 29: "0000", 30: "1513", 31: "1868", 32: "1658"}
    assert all(a[:48] == b[:48] and a[52:] == b[52:] for a, b in changed.values())


def test_every_trf26_tag_and_record_is_read_and_kept():
    text = decode_text(RAPID.read_bytes(), RAPID.name)
    tf = trf.parse(text, RAPID.name)
    assert not tf.problems and not tf.unknown_count and tf.comments == 3
    assert {c: tf.tag(c) for c in ("142", "152", "172", "182", "192", "202", "212", "222")} == {
        "142": "5", "152": "W", "172": "GER FIDON", "182": "xl-elo test writer", "192": "FIDE_DUTCH_2026",
        "202": "BH:GP/C1,BH:GP,SB", "212": "PTS,BH:GP/C1,BH:GP,SB", "222": "900+10"}
    assert tf.scoring == {"W": 1.0, "D": 0.5, "L": 0.0, "A": 0.0, "P": 1.0, "X": 0.5}
    assert {c: len(v) for c, v in tf.records.items()} == {"240": 1, "250": 1, "260": 1, "299": 1}
    assert sorted(tf.national["GER"]) == [1, 2, 3, 5, 6]
    assert tf.national["GER"][1].national_id == "C0327-297" and tf.national["GER"][1].rating == 2650


def test_a_team_report_gives_its_players_and_games_and_keeps_its_team_records(tmp_path):
    """xlelo_trf26_team_2026.trf: the games are its players' 001 lines (a forfeited match is two
    forfeits, not rated; each team's bye a pairing-allocated bye). 222 5400+30: 120 minutes, standard.
    Acker 2200 beats Claus 2000 (200: .76): +4.8 -> 2205."""
    loaded, rows = _rows(TEAM)
    tf = trf.parse(decode_text(TEAM.read_bytes(), TEAM.name), TEAM.name)
    assert [(n, name, members) for n, name, members in tf.teams] == [
        (1, "SK Eins", (1, 2)), (2, "SK Zwei", (3, 4)), (3, "SK Drei", (5, 6))]
    assert sorted(tf.records) == ["300", "310", "320", "330", "801", "802"] and not tf.unknown_count
    assert loaded.options == {"list": "standard"}
    assert sum(g.counts for g in loaded.event.games) == 4
    assert sum(g.result.kind.value == "forfeit" for g in loaded.event.games) == 2
    assert rows["4200001"]["rating_after"] == 2205
    out = tmp_path / "next.trf"
    assert main(["rate", str(TEAM), "-o", str(out)], io.StringIO(), io.StringIO()) == 0
    assert [a for a, b in zip(TEAM.read_text().splitlines(), out.read_text().splitlines(), strict=True)
            if a != b and not a.startswith("001")] == []


def test_a_real_trf26_team_file():
    """TieBreakServer's (FIDE's reference checker) team fixture: no 012, no dates (--period), 310
    records, team byes "0000 - U"; 112 played blocks, 56 games (counted from the file apart)."""
    loaded, rows = _rows(REAL_TEAM, period="2026-01")
    assert len(loaded.event.players) == 18 and sum(g.counts for g in loaded.event.games) == 56
    assert rows["#1"]["rating_before"] == 2266 and rows["#1"]["games_rated"] == 7


# --------------------------------------------------------------------------- national ratings


@pytest.fixture
def toy(monkeypatch):
    """The toy system of tests/toy_rating/ (NATIONAL_RATINGS = "GER")."""
    from xl_elo import federations

    monkeypatch.syspath_prepend(str(Path(__file__).parent))
    monkeypatch.setattr(federations, "MODULES", [*federations.MODULES, "toy_rating"])
    yield federations.get("toy")


def test_a_national_system_rates_from_its_records(toy, tmp_path):
    """The toy system declares NATIONAL_RATINGS = "GER": its ratings are the GER records' (never the
    001 lines' FIDE ratings), its ids the national ids where given; Nagel and Quast have no record:
    unrated there. A toy win brings 10: Kraft 4 wins -> 2650 + 40."""
    loaded, rows = _rows(RAPID, federation="toy")
    assert {pid: (r["rating_before"], r["rating_after"]) for pid, r in rows.items()} == {
        "C0327-297": (2650, 2690), "C0327-115": (2200, 2210), "4100003": (1980, 1990), "4100004": (None, None),
        "C0327-301": (1620, 1600), "C0327-412": (1750, 1730), "#7": (None, None)}
    assert loaded.warnings == [  # said once (it was said twice), naming the report and the lines; no birth dates
        "xlelo_trf26_rapid_2026.trf: 2 player(s) without a GER national-rating record count as unrated for TOY: a "
        "report's own ratings are FIDE's, never taken as TOY's: line 29 (Nagel, Uwe), line 32 (Quast, Ida)"]
    out = tmp_path / "next.trf"
    assert main(["rate", "-f", "toy", str(RAPID), "-o", str(out)], io.StringIO(), io.StringIO()) == 0
    changed = [(a, b) for a, b in zip(RAPID.read_text().splitlines(), out.read_text().splitlines(), strict=True)
               if a != b]
    gap = " " * 40
    assert [b for _, b in changed] == [
        f"GER    1{gap}2690       C0327-297", f"GER    2{gap}2210       C0327-115 12.05.1990",
        f"GER    3{gap}1990                 17.06.2010", f"GER    5{gap}1600       C0327-301",
        f"GER    6{gap}1730       C0327-412"]


def test_a_report_without_national_records_is_refused_for_a_national_system(toy):
    assert str(_refused(_read, TEAM, federation="toy")) == (
        "xlelo_trf26_team_2026.trf: holds no GER national-rating record (TRF-26: a line opened by GER, the start "
        "rank in columns 5-8, the rating in columns 49-52), and TOY rates from GER's list: the ratings of the 001 "
        "lines are FIDE's, never taken for a national one; export the report with the national ratings")


def test_a_national_record_for_a_start_rank_no_player_has_is_a_problem(tmp_path):
    """A user's report with ``GER   33`` where player 3's record was meant: it was kept as a line xl-elo
    does not know and player 3 rated as unrated, silently for him."""
    lines = [*PAIR, "GER    1" + " " * 40 + "1600", "GER   33" + " " * 40 + "1500"]
    path = _write(tmp_path, report(*lines))
    assert str(_refused(_read, path)) == (
        "bad.trf, line 6, columns 5-8 (start rank): a GER national-rating record for start rank 33, but no player "
        "line (001) has that start rank (the report's are 1, 2): is it mistyped?")


def test_a_system_needing_what_no_report_gives_refuses_a_report_before_reading_it(tmp_path):
    """Glicko-2 needs each rated player's RD and volatility (rated_needs), which it neither reads from
    a report nor counts as anything when one does not say: a report was read with its FIDE ratings
    taken for Glicko ratings, then refused as 'players, row 13, column 'rd''. Decided from the
    declarations: a file that is not even there is refused the same way, before it is read."""
    message = ("xlelo_club_2026.trf: a TRF report does not give the players' rating deviation RD and volatility "
               "sigma, which GLICKO2 needs for every rated player (the report's ratings are FIDE's): rate the "
               "Glicko-2 rating period from CSV tables or from its template workbook")
    assert str(_refused(_read, TRF / "xlelo_club_2026.trf", federation="glicko2")) == message
    assert str(_refused(trf.read_trf_files, [tmp_path / "xlelo_club_2026.trf"], get("glicko2"))) == message
    assert trf.not_reported(get("dwz")) == ""  # its index: a report that does not give it counts as over 5
    err = io.StringIO()
    assert main(["rate", "-f", "glicko2", str(TRF / "xlelo_club_2026.trf")], io.StringIO(), err) == 1
    assert err.getvalue() == f"xl-elo: {message}\n"


def _new_record(toy, path, rank, rating=1480):
    """``path`` written back for the toy system (GER), the player of start ``rank`` newly rated ``rating``."""
    loaded = _read(path, federation="toy")
    tf = trf.parse(decode_text(path.read_bytes(), path.name), path.name)
    for p in tf.players.values():
        p.id = {rank: "new"}.get(p.rank, "")
    rows = [{"id": "new", "rating_before": None, "rating_after": rating}]
    return trf.write_back(tf, Results.from_rows("toy", loaded.module.COLUMNS, rows), "GER").decode()


def test_a_player_newly_rated_nationally_gets_a_record_among_the_reports_records(toy):
    """The rapid report keeps its GER records together after the 001 lines: Nagel's new record goes
    among them, between start ranks 3 and 5 (it went between his 001 line and Ost's); every other line
    as it was."""
    old = RAPID.read_text().splitlines(keepends=True)
    assert old[34].startswith("GER    3") and old[35].startswith("GER    5")
    new = _new_record(toy, RAPID, 4)
    assert new == "".join([*old[:35], "GER    4                                        1480\n", *old[35:]])


def test_a_new_national_record_goes_after_its_players_line_where_the_report_keeps_them_so(toy, tmp_path):
    """Records each after its player's 001 line (and after his other federations' records): the new
    one goes after its player's line and records; a last line without a line end gets one."""
    lines = [p001(1, "1500", rounds=[("2", "w", "1")]), "GER    1" + " " * 40 + "1600",
             p001(2, "1500", rounds=[("1", "b", "0")]), "USA    2" + " " * 40 + "1700",
             p001(3, "1500")]
    path = _write(tmp_path, report(*lines).replace("\n", "\r\n"))
    old = path.read_bytes().decode().splitlines(keepends=True)
    assert _new_record(toy, path, 2) == "".join([*old[:6], "GER    2" + " " * 40 + "1480\r\n", *old[6:]])
    path.write_text(report(*lines).rstrip("\n"), newline="")
    old = path.read_bytes().decode().splitlines(keepends=True)
    assert _new_record(toy, path, 3) == "".join([*old[:6], old[6] + "\n", "GER    3" + " " * 40 + "1480"])


# --------------------------------------------------------------------------- columns checked


@pytest.mark.parametrize("edit, message", [
    (lambda ln: ln[:47] + "1900 " + ln[52:],
     "bad.trf, line 3, column 48: '1' where a blank separates the name (columns 15-47) from the rating (columns "
     "49-52): is a field shifted? (columns 43-52 read '     1900 ')"),
    (lambda ln: ln[:48] + " 1900" + ln[53:],
     "bad.trf, line 3, column 53: '0' where a blank separates the rating (columns 49-52) from the federation "
     "(columns 54-56): is a field shifted? (columns 49-56 read ' 1900GER')"),
    (lambda ln: ln[:48] + "190 " + ln[52:],
     "bad.trf, line 3, columns 49-52 (rating): '190 ' is not right-aligned (a rating fills its columns from the "
     "right): is the field shifted?"),
    (lambda ln: ln[:9] + " m" + ln[11:],
     "bad.trf, line 3, columns 10-13 (sex, title): ' m  ': the sex belongs in column 10 and a title is written in "
     "full (GM, IM, WGM, FM, WIM, CM, WFM, WCM) or right-aligned (  m): is the sex shifted one column right?"),
    (lambda ln: ln[:4] + "  1 " + ln[8:],
     "bad.trf, line 3, columns 5-8 (start rank): '  1 ' is not right-aligned (a start rank fills its columns "
     "from the right): is the field shifted?"),
    (lambda ln: ln[:68] + "1" + ln[69:],
     "bad.trf, line 3, column 69: '1' where a blank separates the FIDE id (columns 58-68) from the birth date "
     "(columns 70-79): is a field shifted? (columns 64-74 read '    01     ')"),
    (lambda ln: ln[:70] + "1990/01/01" + ln[80:],
     "bad.trf, line 3, column 80: '1' where a blank separates the birth date (columns 70-79) from the points "
     "(column 81-84): ..."),
])
def test_a_field_one_column_off_is_a_problem_never_another_number(tmp_path, edit, message):
    """Issue 29: 1900 in columns 48-51 was read as 900, in 50-53 as 190; 'm' in column 11 as an IM."""
    line = p001(1, "1500", rounds=[("2", "w", "1")])
    path = _write(tmp_path, report(edit(line), PAIR[1]))
    problems = [str(p) for p in _refused(_read, path).problems]
    if message.endswith("..."):  # the birth date one column right
        message = ("bad.trf, line 3, column 80: '1' where a blank separates the birth date (columns 70-79) from the "
                   "points (columns 81-84): is a field shifted? (columns 75-84 read '/01/01    ')")
    if "start rank" in message:  # the line's player is not read, so his opponent's line names him
        assert problems == [message, "bad.trf, line 4, round 1 (columns 92-99): the opponent 1 is not a start rank of "
                                     "this report"]
    else:
        assert problems == [message]


def test_a_name_one_letter_too_long_moves_no_number(tmp_path):
    """A letter in column 48 is a name one letter too long (kept with it); a digit there is a shift."""
    line = p001(1, "1500", rounds=[("2", "w", "1")], name="A" * 33)
    path = _write(tmp_path, report(line[:47] + "Z" + line[48:], PAIR[1]))
    (player, _) = _read(path).event.players
    assert (player.name, player.rating) == ("A" * 33 + "Z", 1500)


def test_every_real_report_passes_the_column_checks():
    for path in sorted(TRF.glob("*.trf")):
        tf = trf.parse(decode_text(path.read_bytes(), path.name), path.name)
        assert not tf.problems, (path.name, [str(p) for p in tf.problems[:3]])


def test_titles_as_the_programs_write_them(tmp_path):
    lines = [p001(1, "2500", title="GM"), p001(2, "2400", title="  m"), p001(3, "2300", title=" wf"),
             p001(4, "2200", title="XY")]
    path = _write(tmp_path, report(*lines))
    tf = trf.parse(decode_text(path.read_bytes(), "t.trf"), "t.trf")
    assert [tf.players[r].title for r in (1, 2, 3, 4)] == ["GM", "IM", "WFM", ""]
    assert tf.warnings == ["t.trf: 1 title(s) that are none of TRF's (GM, IM, WGM, FM, WIM, CM, WFM, WCM, or "
                           "TRF-06's g m f c wg wm wf wc right-aligned), read as no title: line 6 ('XY ')"]


# --------------------------------------------------------------------------- dates


@pytest.mark.parametrize("text, year", [
    ("1990/05/17", 1990), ("1990-05-17", 1990), ("1990.05.17", 1990), ("17.05.1990", 1990), ("17/05/1990", 1990),
    ("05/17/1990", 1990), ("1990", 1990), ("1990/00/00", 1990), ("19900517", 1990), ("17051990", 1990),
    ("120242", 1942), ("170610", 2010), ("010126", 2026), ("0000/00/00", None), ("", None),
])
def test_birth_dates_as_the_programs_write_them(text, year):
    """Vega's DDMMYY takes its century from the event's year (2026): 42 is 1942, 10 is 2010."""
    assert trf.birth_year_of(text, 2026)[0] == year


@pytest.mark.parametrize("text", ["1990/13/01", "31.13.1990", "19??", "12 May 90", "120242x", "999999"])
def test_birth_dates_xl_elo_cannot_read(text):
    assert trf.birth_year_of(text, 2026) == (None, "unread")


def test_capo_dorso_vega_birth_dates_no_longer_refuse_the_file(tmp_path):
    """Issue 28: eleven players born 120242 made the whole report exit 1."""
    lines = [p001(i, "1800", "120242", [(str(i + 1 if i % 2 else i - 1), "w" if i % 2 else "b",
                                         "1" if i % 2 else "0")]) for i in range(1, 13)]
    path = _write(tmp_path, report(*lines), "capo_dorso.trf")
    loaded = _read(path)
    assert {p.birth_year for p in loaded.event.players} == {1942}
    assert loaded.warnings[0] == ("capo_dorso.trf: 12 birth date(s) written DDMMYY (as Vega writes them), the century "
                                  "read from the event's year 2026: line 3: 120242 -> 1942, line 4: 120242 -> 1942, "
                                  "line 5: 120242 -> 1942, line 6: 120242 -> 1942, line 7: 120242 -> 1942 ...")


def test_a_birth_year_after_the_period_is_a_warning(tmp_path):
    path = _write(tmp_path, report(p001(1, "1500", "2030/01/01", [("2", "w", "1")]), PAIR[1]))
    assert _read(path).warnings[0] == (
        "bad.trf, line 3, columns 70-79 (birth date): '2030/01/01' is read as the year 2030, after the period's year "
        "(2026): the player (Player 1) is rated as of unknown age (as an adult)")


@pytest.mark.parametrize("start, end, message", [
    ("2026/01/02", "2026/O1/04",
     "bad.trf: no month for the period: the end date '2026/O1/04' (052, line 2) is not a date xl-elo reads: write it "
     "YYYY/MM/DD; give --period YYYY-MM (FIDE counts ages in its year)"),
    ("", "26/01/04",
     "bad.trf: no month for the period: the end date '26/01/04' (052, line 2) is not a date xl-elo reads (a two-digit "
     "year the report's other dates do not settle): write it YYYY/MM/DD; give --period YYYY-MM (FIDE counts ages in "
     "its year)"),
])
def test_an_end_date_that_cannot_be_read_is_a_problem_never_the_start_dates_month(tmp_path, start, end, message):
    """Issue 29: the start date's month was taken silently (a junior's K moved from 20 to 40)."""
    head = ["012 Test", f"052 {end}"] + ([f"042 {start}"] if start else [])
    path = _write(tmp_path, "\n".join([*head, *PAIR]) + "\n")
    assert str(_refused(_read, path)) == message
    assert _read(path, period="2026-01").event.period == "2026-01"


def test_a_two_digit_year_read_where_the_other_dates_settle_it(tmp_path):
    path = _write(tmp_path, "\n".join(["012 Test", "042 2026/01/02", "052 26/01/04", *PAIR]) + "\n")
    loaded = _read(path)
    assert loaded.event.period == "2026-01"
    assert ("bad.trf: line 3: '26/01/04' read as 2026-01-04 (YY/MM/DD, by the report's other dates) for the period "
            "2026-01; give --period if that is wrong") in loaded.warnings


# --------------------------------------------------------------------------- the time control


@pytest.mark.parametrize("text, seconds, kind", [
    ("5400+30", 7200, "standard"), ("40/6000+30:900+30", 8700, "standard"), ("900+10", 1500, "rapid"),
    ("180+2", 300, "blitz"), ("600", 600, "blitz"), ("601", 601, "rapid"), ("3600", 3600, "standard"),
    ("W300-B300", 300, "blitz"),
])
def test_time_controls_give_the_list(text, seconds, kind):
    """TRF-26 222: the time plus 60 times the increment (rapid and blitz regulations 1.1): blitz up to
    10 minutes, rapid below 60 (the research's worked values: 5400+30 is 120 minutes)."""
    assert trf.seconds_for_60(text.split("-B")[0].lstrip("W")) == seconds
    assert trf.list_of_time_control(text)[0] == kind


@pytest.mark.parametrize("text, why", [
    ("W300-B240", "'W300-B240' gives the players different times, and FIDE rates no such game (rapid and blitz "
                  "regulations 1.2)"),
    ("60+1", "'60+1' gives each player 2 minutes for 60 moves: no FIDE list rates it (more than 3 needed)"),
    ("90 minutes", "'90 minutes' is not a TRF-26 time control (e.g. 5400+30, 40/6000+30:900+30)"),
])
def test_time_controls_no_list_rates(tmp_path, text, why):
    assert trf.list_of_time_control(text) == (None, why)
    path = _write(tmp_path, report("222 " + text, *PAIR))
    assert str(_refused(_read, path)) == (f"bad.trf, line 3, 222 (time control): {why}: give --list standard, rapid "
                                          "or blitz")
    assert _read(path, options={"list": "blitz"}).options == {"list": "blitz"}


def test_reports_of_different_lists_are_refused_together(tmp_path):
    a = _write(tmp_path, report("222 180+2", *PAIR), "a.trf")
    b = _write(tmp_path, report("222 900+10", *PAIR), "b.trf")
    assert str(_refused(_read, a, b)) == (
        "a.trf, b.trf: the reports' time controls are of different lists (blitz: a.trf; rapid: b.trf): one period is "
        "one list; rate them apart, or give --list")


def test_a_blitz_name_without_a_time_control_is_said(tmp_path):
    path = _write(tmp_path, report(*PAIR).replace("012 Test", "012 Juni Blitzschach 5 Plus 0"))
    assert _read(path).warnings[0] == (
        "bad.trf: line 1: its name (012) says blitz, but it has no time control (TRF-26 222): rated on FIDE's standard "
        "list; give --list blitz if it is a blitz event")


# --------------------------------------------------------------------------- lines kept, files refused


def test_unknown_lines_kept_and_named_once(tmp_path):
    text = report("999 something new", "QQQ is no record", *PAIR, "         1         2")
    path = _write(tmp_path, text)
    loaded = _read(path)
    assert loaded.warnings[0] == (
        "bad.trf: 3 line(s) that are no TRF record xl-elo knows, kept as they are: line 3 ('999 something new'), "
        "line 4 ('QQQ is no record'), line 7 ('         1         2')")
    results = loaded.rate()
    assert loaded.writers["trf"](results).decode().splitlines()[2:4] == ["999 something new", "QQQ is no record"]


def test_a_vega_tdf_file_is_named(tmp_path):
    path = _write(tmp_path, report("001 1 | m | f | GROMOVS Sergejs | 2291 | ITA | 811394 | 2291"))
    assert str(_refused(_read, path).problems[0]) == (
        "bad.trf, line 3: the player line holds '|': it is Vega's tournament description file (.tdf), not a TRF "
        "report (export the FIDE report, TRF, from Vega)")


def test_a_file_of_junk_player_lines_stops_at_the_cap(tmp_path):
    """Issue 29: 87 MB of junk 001 lines kept every problem of every line (2.6 GB) before refusing."""
    junk = "".join(f"001 {i % 97:x}zz{'q' * 80}  7 x 9\n" for i in range(20_000))
    path = _write(tmp_path, "012 Junk\n052 2026/10/30\n" + junk)
    problems = _refused(_read, path).problems
    assert len(problems) == trf.MAX_PROBLEMS + 1
    assert str(problems[0]).startswith("bad.trf: reading stopped at line ")
    assert str(problems[0]).endswith(" after 200 problems: is it a TRF report (001 lines at FIDE's columns)?")


def test_a_long_file_with_nothing_of_a_report_stops_early(tmp_path):
    path = _write(tmp_path, "hello world\n" * 20_000, "notes.trf")
    assert str(_refused(_read, path)) == ("notes.trf: its first 10,000 lines hold no player line (001) and no tag of a "
                                         "report: is it a TRF report?")


# --------------------------------------------------------------------------- the floor, calc, results 1:0


def test_calc_says_the_floor():
    """Issue 28: 1410 losing six games to 1800s (390 apart: PD .09): 6 x -1.8 = -10.8 -> -11, 1399."""
    out = io.StringIO()
    assert main(["calc", "fide", "--rating", "1410", "--games", "1800 0, 1800 0, 1800 0, 1800 0, 1800 0, 1800 0"],
                out, io.StringIO()) == 0
    text = out.getvalue()
    assert "change:                 -11\nnew rating 1399 is below 1400: shown as unrated on the next list (rules 2.8)" \
        in text and "new rating:" not in text
    out = io.StringIO()
    assert main(["calc", "fide", "--rating", "1410", "--list", "blitz", "--format", "json", "--games", "1800 0"],
                out, io.StringIO()) == 0
    doc = json.loads(out.getvalue())
    assert (doc["change"], doc["rating_after"]) == (-2, 1408)


def test_calc_on_the_rapid_list():
    """2700 beats 2090 (610 apart, he above 2600: not rated in rapid) and 2250 (450 counts 400: +0.8)."""
    out = io.StringIO()
    assert main(["calc", "fide", "--rating", "2700", "--ever-2400", "--list", "rapid", "--games", "2090 1, 2250 1"],
                out, io.StringIO()) == 0
    text = out.getvalue()
    assert ("   1      2090                    610       1                    not rated: 600 points or more apart, "
            "one above 2600 (rapid list, rules 2.9)") in text
    assert "list:                   rapid" in text and "new rating:             2701" in text


def test_elo_change_refuses_a_rating_below_the_floor():
    from xl_elo.frontends import functions

    with pytest.raises(functions.ArgumentError, match="new rating 1399 is below 1400: shown as unrated"):
        functions.by_name()["ELO_CHANGE"].function("FIDE", 1410.0, [[1800.0]] * 6, [[0.0]] * 6)


@pytest.mark.parametrize("spelling, score", [("1:0", 1.0), ("0:1", 0.0), ("½:½", 0.5), ("1/2:1/2", 0.5),
                                             ("0.5:0.5", 0.5), ("1 : 0", 1.0)])
def test_results_written_with_a_colon_everywhere(tmp_path, spelling, score):
    """Issue 28: how German and Swiss clubs write results, in CSV, calc and the functions."""
    from xl_elo.frontends import functions

    players = _write(tmp_path, "id,rating,games\na,2000,100\nb,2000,100\n", "players.csv")
    games = _write(tmp_path, f"player,opponent,result\na,b,{spelling}\n", "games.csv")
    (game,) = read_event("fide", players, games, period="2026-10").games
    assert game.result.score == score and game.counts
    out = io.StringIO()
    typed = spelling.replace(" ", "")  # calc's games are words: a result is one
    assert main(["calc", "fide", "--rating", "2000", "--games", f"2000 {typed}"], out, io.StringIO()) == 0
    assert f"change:                 {round(20 * (score - 0.5)):d}" in out.getvalue()
    assert functions.by_name()["ELO_CHANGE"].function("FIDE", 2000.0, [[2000.0]], [[spelling]]) == 20 * (score - 0.5)


# --------------------------------------------------------------------------- FIDE's rating lists


COMBINED = ["players_list_foa_oct26.txt", "players_list_xml_foa_oct26.xml"]


@pytest.mark.parametrize("name", COMBINED)
def test_the_combined_list_gives_the_rapid_rating_and_the_standard_one_where_none(name):
    """The rapid list of the combined files; Pohl, unrated in rapid, is rated with his standard 1800
    (rapid and blitz regulations 7.2.1), K 40 as new to the rapid list. By hand: Pohl vs Lang 2250
    (-400) 0-.08, vs Quast 1650 (150) 0.5-.70, vs Mai 2090 (-290) 0-.16, vs Kraft (900 apart, Kraft
    above 2600) not rated, vs Ost 1500 (300) 1-.85: -0.29 x 40 = -11.6 -> 1788; his opponents' games
    now count: Lang +0.08 -> -0.55 x 20 = -11 -> 2239; Mai +0.16 -> +0.03 x 40 = 1.2 -> 2091; Ost
    -0.15 -> 0.48 x 20 = 9.6 -> 1510; Quast +0.20 -> 0.62 x 20 = 12.4 -> 1662."""
    loaded, rows = _rows(RAPID, rating_list=LISTS / name)
    assert {pid: r["rating_after"] for pid, r in rows.items()} == {
        "4100001": 2701, "4100002": 2239, "4100003": 2091, "4100004": None, "4100005": 1510, "4100006": 1788,
        "#7": 1662}
    assert rows["4100006"]["k"] == 40
    said = [w for w in loaded.warnings if "4100006" in w]  # once, each number with its list (1800 is his standard)
    assert said == [
        f"1 player(s) without a rapid rating in {name} are rated with their standard rating (rapid and blitz "
        "regulations 7.2.1, rules 2.9), as new to the rapid list: 4100006 (Pohl, Max): unrated in "
        "xlelo_trf26_rapid_2026.trf (line 31), unrated on the rapid list, 1800 on the standard list"]
    assert len(loaded.warnings) == len(set(loaded.warnings)) == 4  # 222, 19??, DDMMYY, Pohl: each said once


def test_the_list_warnings_name_the_report_line_and_the_list_of_each_number(tmp_path):
    """Nagel unrated in the report, 1405 on the combined list's rapid list; Pohl 1868 in the report,
    unrated on the rapid list, rated with his standard 1800: each number said with where it comes
    from (Pohl's 1800 was called his rating on the rapid list), each player's line named."""
    gap = " " * 24
    text = RAPID.read_text().replace(f"Nagel, Uwe{gap}1405", f"Nagel, Uwe{gap}0000")
    path = _write(tmp_path, text.replace(f"Pohl, Max {gap}0000", f"Pohl, Max {gap}1868"), "rapid.trf")
    loaded = _read(path, rating_list=LISTS / "players_list_foa_oct26.txt")
    assert [w for w in loaded.warnings if "players_list" in w] == [
        "1 player(s) unrated in rapid.trf are rated in players_list_foa_oct26.txt (rapid list), whose ratings are "
        "used: 4100004 (Nagel, Uwe): unrated in rapid.trf (line 29), 1405 on the rapid list",
        "1 player(s) without a rapid rating in players_list_foa_oct26.txt are rated with their standard rating (rapid "
        "and blitz regulations 7.2.1, rules 2.9), as new to the rapid list: 4100006 (Pohl, Max): 1868 in rapid.trf "
        "(line 31), unrated on the rapid list, 1800 on the standard list"]


def test_each_list_of_the_combined_file():
    entry = ratinglist.read_list(LISTS / "players_list_foa_oct26.txt", ["4100003"])["4100003"]
    assert [entry.on(k) for k in ("standard", "rapid", "blitz")] == [(2100, 4, 40), (2090, 5, 40), (None, None, None)]
    xml = ratinglist.read_list(LISTS / "players_list_xml_foa_oct26.xml", ["4100003"])["4100003"]
    assert xml.lists == entry.lists and entry.birth_year == 2010


def test_a_single_list_named_for_another_list_is_refused():
    assert ratinglist.list_of_name("rapid_rating_list_oct26.txt") == "rapid"
    assert ratinglist.list_of_name("standard_jan26frl.txt") == "standard"
    assert ratinglist.list_of_name("players.txt") is None
    assert str(_refused(_read, RAPID, rating_list=LISTS / "rapid_rating_list_oct26.txt",
                        options={"list": "standard"})) == (
        "rapid_rating_list_oct26.txt: is FIDE's rapid list (by its name), but the period is rated on the standard "
        "list: give the standard list or the combined one, or --list rapid")
    loaded, rows = _rows(RAPID, rating_list=LISTS / "rapid_rating_list_oct26.txt")
    assert rows["4100002"]["rating_after"] == 2237
    assert ("1 FIDE id(s) not found in rapid_rating_list_oct26.txt (their own values are used): 4100006 (Pohl, Max) "
            "in xlelo_trf26_rapid_2026.trf (line 31)") in loaded.warnings


@pytest.mark.parametrize("name", ["players_list_foa_oct26.txt", "players_list_xml_foa_oct26.xml"])
def test_a_fide_id_listed_twice_names_both_lines(tmp_path, name):
    """Issue 29: two monthly lists pasted together silently took the first."""
    text = (LISTS / name).read_text()
    if name.endswith(".txt"):
        lines = text.splitlines()
        path = _write(tmp_path, "\r\n".join([*lines, lines[2]]) + "\r\n", "list.txt")
        line, first = 9, 3
    else:
        lines = text.splitlines()
        path = _write(tmp_path, "\n".join([*lines[:-1], lines[3], lines[-1]]) + "\n", "list.xml")
        line, first = 10, 4
    assert str(_refused(ratinglist.read_list, path, ["4100002"])) == (
        f"{path.name}, line {line}: FIDE id 4100002 is also on line {first}: one line per player (two lists pasted "
        "together?)")


def test_an_xml_name_past_the_limit_is_refused(tmp_path, monkeypatch):
    """Issue 29: a name of a million &amp; ran past 45 s (text built by repeated concatenation)."""
    monkeypatch.setenv("XL_ELO_MAX_LINE_CHARS", "1000")
    path = _write(tmp_path, "<playerslist><player><fideid>1</fideid><name>" + "&amp;" * 5000
                  + "</name></player></playerslist>", "list.xml")
    assert str(_refused(ratinglist.read_list, path, ["1"])) == (
        "list.xml: line 1: the text of <name> is more than 1,000 characters long (at most 1,000 characters on one "
        "line; for a real event this big, set the environment variable XL_ELO_MAX_LINE_CHARS to a larger number)")
