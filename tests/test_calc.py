"""``xl-elo calc`` and ELO_CHANGE: one player's change as the federations' calculators give it,
every figure computed by hand from the published tables (rules 2.1 - 2.3, 3, 4, 5, 6.4, 6.7)."""

from __future__ import annotations

import io

import pytest

from xl_elo.frontends.cli import main
from xl_elo.frontends.functions import ArgumentError, elo_change


def calc(*argv: str) -> tuple[int, str, str]:
    """Status, output and messages (argparse's usage errors included: they go to sys.stderr)."""
    import contextlib

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stderr(err):
        try:
            status = main(["calc", *argv], out, err)
        except SystemExit as exc:
            status = int(exc.code or 0)
    return status, out.getvalue(), err.getvalue()


def figure(text: str, label: str) -> str:
    """The value printed after ``label:`` in the summary."""
    for line in text.splitlines():
        if line.startswith(label + ":"):
            return line.split(":", 1)[1].strip()
    raise AssertionError(f"no {label!r} in\n{text}")


def games(spec: str, times: int) -> str:
    return ", ".join([spec] * times)


def test_fide_calculator_example():
    """2150 against 2210 (1), 2050 (½), 1900 (0), K 20: PD 0.42 [-60], 0.64 [100], 0.81 [250]:
    20 (0.58 - 0.14 - 0.81) = -7.4 -> -7, new rating 2143 (rules 2.1, 2.2)."""
    status, out, _ = calc("fide", "--rating", "2150", "--games", "2210 1, 2050 0.5, 1900 0")
    assert status == 0
    assert "   1      2210       2210         -60       1      0.42   11.60" in out
    assert "   3      1900       1900         250       0      0.81  -16.20" in out
    assert (figure(out, "K"), figure(out, "change"), figure(out, "new rating")) == ("20", "-7", "2143")


@pytest.mark.parametrize("opponent, times, change", [
    ("1997 0", 5, "-50"),   # difference 3: the end of 0-3 -> 0.50
    ("1996 0", 5, "-51"),   # difference 4: the start of 4-10 -> 0.51
    ("1609 1", 5, "9"),     # 391: the end of 375-391 -> 0.91, 5 x 20 x 0.09 = 9
    ("1608 1", 5, "8"),     # 392: the start of 392-411 -> 0.92
    ("1600 1", 5, "8"),     # 400 -> 0.92
    ("1599 1", 5, "8"),     # 401 counts as 400 -> 0.92 (rules 2.2)
    ("1587 1", 5, "8"),     # 413 counts as 400 -> 0.92 (without the rule: 0.93 and +7)
])
def test_fide_table_edges_and_the_400_point_rule(opponent, times, change):
    _, out, _ = calc("fide", "--rating", "2000", "--games", games(opponent, times))
    assert figure(out, "change") == change


def test_the_400_point_rule_on_both_sides_of_2650():
    """A player rated 2650 or more counts the whole difference: 2700 v 2200 (500 -> 0.96),
    five wins, K 10: 5 x 0.4 = 2; at 2649 the difference counts 400 (0.92): 5 x 0.8 = 4. His
    opponent, below 2650, counts 400 either way: a loss at 2200 v 2700 is 20 x -0.08 = -1.6 -> -2."""
    _, out, _ = calc("fide", "--rating", "2700", "--games", games("2200 1", 5))
    assert "       500       1      0.96" in out and figure(out, "change") == "2"
    _, out, _ = calc("fide", "--rating", "2650", "--games", games("2150 1", 5))
    assert figure(out, "change") == "2"
    _, out, _ = calc("fide", "--rating", "2649", "--games", games("2149 1", 5))
    assert "       400       1      0.92" in out and figure(out, "change") == "4"
    _, out, _ = calc("fide", "--rating", "2200", "--games", "2700 0")
    assert "      2600        -400       0      0.08" in out and figure(out, "change") == "-2"


def test_the_range_736_and_above_is_one():
    """2700 v 1965 (735 -> 0.99) five wins K 10: +0.5 -> +1 (halves away from zero); v 1964
    (736 -> 1.00): 0."""
    assert figure(calc("fide", "--rating", "2700", "--games", games("1965 1", 5))[1], "change") == "1"
    assert figure(calc("fide", "--rating", "2700", "--games", games("1964 1", 5))[1], "change") == "0"


def test_halves_away_from_zero_both_ways():
    """K 10, 2000 v 2190 (-190 -> 0.25), a loss: -2.5 -> -3; v 1810 (190 -> 0.75), a win: +2.5 -> +3."""
    assert figure(calc("fide", "--rating", "2000", "--k", "10", "--games", "2190 0")[1], "change") == "-3"
    assert figure(calc("fide", "--rating", "2000", "--k", "10", "--games", "1810 1")[1], "change") == "3"


def test_k_from_the_facts_and_a_known_k():
    """Rules 2.3: 30 games make a player not new; 40 through the year of the 18th birthday below
    2300; 10 once 2400 was reached; K x n <= 700 (18 games: K 38). A K given is used as given."""
    def k(*argv):
        return figure(calc("fide", *argv)[1], "K")

    assert k("--rating", "2200", "--rated-games", "29", "--games", "2200 1") == "40"
    assert k("--rating", "2200", "--rated-games", "30", "--games", "2200 1") == "20"
    assert k("--rating", "2200", "--birth-year", "2008", "--period", "2026-10", "--games", "2200 1") == "40"
    assert k("--rating", "2200", "--birth-year", "2007", "--period", "2026-10", "--games", "2200 1") == "20"
    assert k("--rating", "2300", "--birth-year", "2008", "--period", "2026-10", "--games", "2300 1") == "20"
    assert k("--rating", "2300", "--ever-2400", "--games", "2300 1") == "10"
    assert k("--rating", "1500", "--rated-games", "10", "--games", games("1500 1", 18)) == "38"
    _, out, _ = calc("fide", "--rating", "1500", "--rated-games", "10", "--games", games("1500 1", 18))
    assert figure(out, "new rating") == "1842"  # 38 x 18 x 0.5 = 342
    _, out, _ = calc("fide", "--rating", "2200", "--k", "15", "--games", "2200 1")
    assert (figure(out, "K"), figure(out, "change")) == ("15", "8")  # 7.5 -> 8


def test_an_unrated_players_first_rating():
    """Rules 2.4: Ra = (1800 + 1900 + 2000 + 1700 + 1600 + 2 x 1800) / 7 = 1800, p = 4/7 -> 0.57,
    dp 50: 1850. A K given is not used, and says so."""
    _, out, _ = calc("fide", "--rating", "unrated", "--k", "20",
                     "--games", "1800 1, 1900 0.5, 2000 0, 1700 1, 1600 0.5")
    assert (figure(out, "Ra"), figure(out, "dp"), figure(out, "new rating")) == ("1800", "50", "1850")
    assert "K 20 is not used: an unrated player's first rating uses no K" in out


def test_fqe_seed_004_daniel():
    """Seed 004's worked example: 1876, eight games, 5.5 points, Rp 2.88: 32 (5.5 - 2.88) = 83.84
    -> 84, bonus threshold 24 + 2 (8 - 4) = 32, bonus 52, new rating 2012 (rules 4.5, 4.6)."""
    _, out, _ = calc("fqe", "--rating", "1876",
                     "--games", "2024 1, 2161 0, 1547 0.5, 1785 1, 1979 1, 2176 0, 2181 1, 2048 1")
    assert (figure(out, "expected"), figure(out, "32 (R - Rp), rounded"), figure(out, "bonus threshold"),
            figure(out, "bonus"), figure(out, "new rating")) == ("2.88", "84", "32", "52", "2012")


def test_fqe_halving_above_2300():
    """2290, four wins v 2200 (0.62 each): 32 x 1.52 = 48.64 -> 49, threshold 24, bonus 25: 74;
    2290 -> 2364 crosses 2300: 10 + 64 / 2 = 42 -> 2332 (rules 4.7)."""
    _, out, _ = calc("fqe", "--rating", "2290", "--games", games("2200 1", 4))
    assert (figure(out, "bonus"), figure(out, "new rating")) == ("25", "2332")


def test_fse_and_ffe():
    """FSE K 24, a junior under 20 at most 1850 K 36: a win v an equal rating is +12 or +18.
    FFE's performance of a win and a loss v 1600 and 1400 is Ea + D(0.5) = 1500."""
    assert figure(calc("fse", "--rating", "1800", "--games", "1800 1")[1], "change") == "12"
    _, out, _ = calc("fse", "--rating", "1800", "--birth-year", "2010", "--period", "2026-10", "--games", "1800 1")
    assert figure(out, "change") == "18"
    assert calc("ffe", "--rating", "1500", "--games", "1600 1, 1400 0", "--performance")[1] == "performance: 1500\n"


def test_fesa_normal_mode_with_a_handicap():
    """1500 gives a bishop to a 1600 and wins: the receiver counts 1600 + (1500 - shift(1500, 1.5))
    = 1600 + (1500 - 1352) = 1748 (1500 is grade 13.4; 11.9 is 1352, rules 6.7); upset gain
    28 x 248 / 160 = 43.4 beats 28 (1 - 0.193), bonus 1.5: 44.9. Then a loss to a 1400 at a
    running 1544.9: 28 (0 - 0.697) + 1.28 = -18.25. 26.65 -> 27: 1527 (rules 6.4)."""
    _, out, _ = calc("fesa", "--rating", "1500", "--rated-games", "3", "--games", "1600 1 B gives, 1400 0")
    assert "   1      1600       1748        -248       1      0.19   44.90  upset gain" in out
    assert "   2      1400       1400       144.9       0      0.70  -18.25" in out
    assert (figure(out, "change"), figure(out, "new rating")) == ("27", "1527")


@pytest.mark.parametrize("argv, words", [
    (["fide", "--games", "1800 1"], "--rating: the rating is missing"),
    (["fide", "--rating", "3600", "--games", "1000 1"], "'3600' is out of range"),
    (["fide", "--rating", "2000", "--games", ""], "no game given"),
    (["fide", "--rating", "2000", "--games", "2200 x, 2a00 1, 1"], "3 problems in the input"),
    (["fide", "--rating", "2000", "--games", "2200 +"], "forfeits and byes never count"),
    (["fide", "--rating", "2000", "--games", "2200 1 B gives"], "handicaps are FESA's"),
    (["fide", "--rating", "2000", "--k", "0", "--games", "2200 1"], "--k: '0' is out of range (expected a K-factor"),
    (["fide", "--rating", "2000", "--rated-games", "-5", "--games", "2200 1"], "--rated-games: '-5' is out of range"),
    (["ffe", "--rating", "2000", "--k", "20", "--games", "2200 1"], "--k: is for FIDE, FSE, FQE, FESA, CFC only"),
    (["fqe", "--rating", "2000", "--ever-2400", "--games", "2200 1"], "--ever-2400: is for FIDE only"),
    (["fesa", "--rating", "1500", "--games", "unrated 1", "--performance"], "FESA counts every opponent"),
    (["fide", "--rating", "1500", "--games", "unrated 1", "--performance"], "FIDE gives no performance rating"),
    (["fide", "--rating", "2000", "--birth-year", "2030", "--period", "2026-10", "--games", "2200 1"],
     "--birth-year: 2030 is out of range"),
])
def test_what_the_calculator_refuses(argv, words):
    """A value an option's type refuses is a usage error (status 2, as argparse); the rest status 1."""
    status, _, err = calc(*argv)
    usage = words.startswith(("--k:", "--rated-games:")) and "out of range" in words
    assert status == (2 if usage else 1), err
    assert words in err and "Traceback" not in err


def test_elo_change_takes_ever_2400_and_a_known_k():
    """The spreadsheet function: 2300 with the 2400 flag has K 10 (+5 for a win v 2300), without
    it K 20 (+10); a known K 15 gives 7.5 -> 8; a junior (age 16) K 40."""
    assert elo_change("fide", 2300, [2300], [1], ever_2400=True) == 5
    assert elo_change("fide", 2300, [2300], [1], ever_2400="no") == 10
    assert elo_change("fide", 2200, [2200], [1], k=15) == 8
    assert elo_change("fide", 2200, [[2200], [2210]], [[1], [0.5]], age=16) == 20  # 40 x (0.5 + 0.01)
    assert elo_change("fide", 1500, [1500] * 18, [1] * 18, games=10) == 342
    with pytest.raises(ArgumentError, match="K-factor from 1 to 100"):
        elo_change("fide", 2200, [2200], [1], k=0)


def test_games_given_twice_all_count():
    """``--games`` given twice: both lists count (the second does not replace the first)."""
    status, out, _ = calc("fide", "--rating", "2150", "--games", "2210 1, 2050 0.5", "--games", "1900 0")
    assert status == 0
    assert (figure(out, "games rated"), figure(out, "change"), figure(out, "new rating")) == ("3", "-7", "2143")


def test_json_gives_every_figure_at_full_precision():
    """The FIDE example as JSON: 20 (1.5 - 1.87) = -7.4 -> -7, each game's expected and change (rules 2.1, 2.2)."""
    import json

    status, out, _ = calc("fide", "--rating", "2150", "--games", "2210 1, 2050 0.5, 1900 0", "--format", "json")
    assert status == 0
    data = json.loads(out)
    figures = (data["system"], data["k"], data["score"], data["change"], data["rating_after"])
    assert figures == ("fide", 20, 1.5, -7, 2143)
    assert data["expected"] == pytest.approx(1.87)
    assert [g["expected"] for g in data["games"]] == [0.42, 0.64, 0.81]
    assert sum(g["change"] for g in data["games"]) == pytest.approx(-7.4)


def test_a_decimal_comma_in_the_games_is_pointed_out():
    """Commas separate the games: a German or French user's 0,5 is two games, and the message says how to write it."""
    status, _, err = calc("fide", "--rating", "1850", "--games", "1900 1, 1720 0,5")
    assert status == 1
    assert "--games: game 3 ('5'): expected the opponent's rating and the result: a decimal comma? commas separate " \
           "the games, so write '0.5'" in err


def test_what_calc_is_not_given_it_says():
    """Issue 34: calc names what it was not given rather than show a stand-in. US Chess: no --rated-games is an
    established player, and N says so (not 'N: 1000'); a count typed is shown as typed. FESA: a rated player is
    rated in normal mode; with fewer than 9 games (rules 6.3) the note says performance mode needs his history.
    FIDE: an unrated player with too few games gets no first rating and the reason (rules 2.4)."""
    status, out, _ = calc("uscf", "--rating", "1500", "--games", "1400 1, 1600 0")
    assert status == 0 and figure(out, "N").startswith("not given: counted as established (more than 25 games")
    assert figure(calc("uscf", "--rating", "1500", "--rated-games", "1000", "--games", "1400 1")[1], "N") == "1000"
    assert figure(calc("uscf", "--rating", "1500", "--rated-games", "12", "--games", "1400 1")[1], "N") == "12"
    _, out, _ = calc("fesa", "--rating", "1500", "--rated-games", "3", "--games", "1400 1, 1600 0")
    assert "3 games before and 2 here, fewer than 9: FESA rates such a player in performance mode" in \
        " ".join(out.split())
    assert "performance mode" not in calc("fesa", "--rating", "1500", "--rated-games", "30", "--games", "1400 1")[1]
    _, out, _ = calc("fide", "--rating", "unrated", "--games", "1400 1, 1600 0")
    assert "no first rating: 2 games against rated opponents, fewer than 5 (rules 2.4)" in " ".join(out.split())
    _, out, _ = calc("fide", "--rating", "unrated", "--games", games("1800 0", 5))
    assert "no first rating: 0 points, fewer than 0.5 (rules 2.4)" in " ".join(out.split())
    assert max(map(len, out.splitlines())) <= 80
