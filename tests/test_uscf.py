"""US Chess regular ratings (rules 10): the federation's published figures first, then the rules'
properties (hypothesis).

Sources of the published figures:
- "Approximating Formulas for the US Chess Rating System" (Glickman, June 2015 / April 2017;
  glicko.net/ratings/approx.pdf), its worked example: rated 1500 on 6 games, beats a 1400, loses
  to a 1550, draws a 1650: "The final result has been rounded from 1511.111";
- "The USCF Rating System" (Glickman, 2004-09-22, math.bu.edu/people/mg/ratings/rs/node5.html),
  the table of K by N' and m (the full-K column; K = 800 / (N' + m) is unchanged since);
- "The US Chess Rating System" (Glickman and Doan, 2 September 2020), §1: 1643.759 and 1431.034
  are published as 1644 and 1431;
- US Chess staff on the floors (uschess.discourse.group threads 8761 and 19258; the rulebook ADM
  on Chapter 8, section 5, thread 20678): a highest of 1620 or 1653 gives 1400, of 1400 to 1499
  gives 1200, floors stop at 2100, an Original Life Master has 2200;
- the bonus threshold's dates: US Chess news (2017: 12 to 14 from 1 May; October 2023: 14 to 12
  from 1 February 2023) and the US Chess forum (2025: 12 to 10 for every event of 2025).

No crosstable with published ratings before and after could be read here (MSA is not reachable):
the example event (``xl_elo/federations/uscf/example``) is checked by the figures computed by hand from
rules 10.3, 10.6 and 10.8 (each player's N', each standard-formula K, each floor, Carla held by hers);
its special-formula ratings and bonuses, which hang on every opponent's Step 4 rating, are checked by
the formulas' own published examples above and the properties below, not figure by figure.
"""

from __future__ import annotations

import json
import math
import re

import pytest
from conftest import event
from hypothesis import given, settings
from hypothesis import strategies as st

from xl_elo import rate
from xl_elo.federations import uscf
from xl_elo.federations.contract import OpponentGame
from xl_elo.frontends.cli import main
from xl_elo.loader import example_event

APPROX = ([1400, 1550, 1650], [1, 0, 0.5])


def _player(rating=None, games=None, **facts):
    return uscf.Player("p", rating=rating, games=games, **facts)


def _games(opponents, scores):
    return [OpponentGame(o, s) for o, s in zip(opponents, scores, strict=True)]


# --------------------------------------------------------------------------- the published figures


def test_the_approximating_formulas_example_is_exact_here():
    """approx.pdf: 1500 on 6 games, +1400 -1550 =1650 -> 1511.111, published 1511 (every opponent within
    400 points: the special formula's f is one line, the iteration starts on its zero)."""
    sp = uscf.special_rating(1500, 6, *APPROX)
    assert sp.rating == pytest.approx(1511.111111, abs=1e-6) and sp.steps == () and sp.tie == ""
    calc = uscf.calculate(_player(1500, 6), _games(*APPROX), "2026-10")
    assert (calc.rating_after, calc.change, calc.status) == (1511, 11, "provisional")
    assert dict(calc.own)["rating_exact"] == pytest.approx(1511.111111, abs=1e-6)
    assert dict(calc.own)["formula"] == "special" and dict(calc.own)["effective_games"] == 6


def test_the_approximating_formulas_example_through_calc_json(capsys):
    assert main(["calc", "uscf", "--rating", "1500", "--rated-games", "6", "--games", "1400 1, 1550 0, 1650 0.5",
                 "--format", "json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert (doc["rating_after"], doc["change"], doc["formula"]) == (1511, 11, "special")
    assert doc["rating_exact"] == pytest.approx(1511.111111, abs=1e-6)


@pytest.mark.parametrize(("n_eff", "m", "k"), [(6, 4, 80), (6, 6, 66.67), (6, 10, 50), (20, 4, 33.33),
                                               (20, 6, 30.77), (20, 10, 26.67), (50, 4, 14.81), (50, 6, 14.29),
                                               (50, 10, 13.33)])
def test_the_k_table(n_eff, m, k):
    """The 2004 edition's table of K by N' and m (full K), two decimals: N' = 6 from 6 games (N* is at
    least 7.1 at any rating), 20 from 20 games at 1700 (N* 20.01), 50 above 2355."""
    rating = {6: 1500, 20: 1700, 50: 2400}[n_eff]
    assert uscf.effective_games(rating, n_eff) == n_eff
    assert round(uscf.k_value(rating, n_eff, m), 2) == k


def test_the_k_table_through_the_spreadsheet_function():
    from xl_elo.frontends.functions import by_name

    k = by_name()["USCF_K"].function
    assert round(k([[1700.0]], [[20.0]], [[4.0]])[0][0], 2) == 33.33
    assert k(1500.0, 6.0, 4.0) == 80


def test_the_stored_rating_and_the_published_one():
    """§1: "Ratings are stored as floating point values, such as 1643.759 and 1431.034. Official ratings are
    expressed as rounded to the nearest whole number (1644 and 1431 ...)"."""
    from xl_elo.core import round_half_away

    assert (round_half_away(1643.759), round_half_away(1431.034)) == (1644, 1431)


@pytest.mark.parametrize(("highest", "floor"), [(1620, 1400), (1653, 1400), (1400, 1200), (1499, 1200),
                                                (1399, 100), (2300, 2100), (2700, 2100)])
def test_the_floors_staff_examples(highest, floor):
    """US Chess staff: a highest of 1620 gives 1400, 1653 gives 1400, 1400-1499 gives 1200, below 1400 only the
    absolute floor; no floor above 2100."""
    assert uscf.floor_of(highest, 30) == floor
    assert uscf.floor_of(1000, 30, highest) == floor


def test_the_floors_of_the_others():
    assert uscf.floor_of(1800, 25) == 100  # a provisional rating has no floor from its highest
    assert uscf.floor_of(1800, 25, life_master=True) == 2200 == uscf.floor_of(2450, 300, 2500, True)
    assert uscf.floor_of(None, 0) == 100


def test_the_bonus_threshold_by_date():
    """US Chess news and forum: 14 from 1 May 2017, 12 from 1 February 2023, 10 for the events of 2025."""
    b = uscf.bonus_threshold
    assert (b(None, "2017-05"), b(None, "2023-01-31"), b(None, "2023-02"), b(None, "2024-12-31"),
            b(None, "2025-01"), b(None, "2026-11")) == (14, 14, 12, 12, 10, 10)
    assert b(None, None) == uscf.BONUS_THRESHOLD == 10
    assert b(uscf.Options(bonus_threshold="14"), "2026-11") == 14
    with pytest.raises(ValueError, match="before 2017-05-01"):
        b(None, "2016-12")


# --------------------------------------------------------------------------- the formulas, by hand


def test_the_standard_formula_with_a_bonus():
    """1700 on 30 games, +1600 -1800 +1750 +2000 in 2026 (B 10): N* 20.012, K 33.317, E 1.5795,
    K (S - E) 47.33, bonus 47.33 - 10 x 2 = 27.33, 1774.65 -> 1775 (computed by hand from 10.3, 10.6, 10.7)."""
    calc = uscf.calculate(_player(1700, 30), _games([1600, 1800, 1750, 2000], [1, 0, 1, 1]), "2026-10")
    assert calc.k == pytest.approx(800 / (50 / math.sqrt(0.662 + 0.00000739 * 869**2) + 4))
    assert calc.expected == pytest.approx(1.5795, abs=1e-4)
    assert calc.bonus == pytest.approx(27.33, abs=0.01)
    assert (calc.rating_after, calc.change) == (1775, 75)
    # in 2024 (B 12) the bonus is 4 points less; three games: no bonus below m = 3 ... with m = 3, m' = 4
    calc24 = uscf.calculate(_player(1700, 30), _games([1600, 1800, 1750, 2000], [1, 0, 1, 1]), "2024-10")
    assert calc24.bonus == pytest.approx(calc.bonus - 4)
    two = uscf.calculate(_player(1700, 30), _games([1750, 2000], [1, 1]), "2026-10")
    assert two.bonus == 0


def test_wins_far_below_do_not_lower_a_provisional_rating():
    """1500 on 4 games beats an 800: the approximation gives 1440, the special formula 1500 (f is flat where the
    win counts fully; the prior's line crosses zero at 1500)."""
    sp = uscf.special_rating(1500, 4, [800], [1])
    assert sp.rating == 1500 and len(sp.steps) == 1


def test_an_unrated_adult_wins_everything():
    """Unrated, no year of birth (1300, N' = 0), three wins against 1500, 1600, 1700: f is zero from 2100 on,
    where the iteration stops; four wins against 800s: zero from 1200, where it starts."""
    assert uscf.special_rating(1300, 0, [1500, 1600, 1700], [1, 1, 1]).rating == 2100
    assert uscf.special_rating(1300, 0, [800] * 4, [1] * 4).rating == 1200


def test_all_losses_before_moves_the_prior():
    """A player whose 10 earlier games were all lost: R0' = R0 + 400, S' = S; special though N > 8."""
    assert uscf.is_special(10, "all losses") and not uscf.is_special(10, None) and uscf.is_special(8, None)
    sp = uscf.special_rating(900, 10, [1000, 1100], [0.5, 0], "all losses")
    assert sp.prior == 1300 and sp.target == 0.5
    assert uscf.special_equation(900, 10, [1000, 1100], [0.5, 0], "all losses", sp.solved) == pytest.approx(0, abs=1e-7)


def test_the_special_rating_is_capped():
    assert uscf.special_rating(2600, 0, [2500, 2600], [1, 1]).rating == uscf.SPECIAL_CAP


def test_initial_ratings_by_age():
    assert [uscf.initial_rating(a) for a in (None, 1, 2, 10, 26, 27, 60)] == [1300, 100, 100, 500, 1300, 1300, 1300]


def test_dual_rated_k():
    assert uscf.dual_factor(2200) == 1 and uscf.dual_factor(2300) == pytest.approx(0.75)
    assert uscf.dual_factor(2500) == 0.25 == uscf.dual_factor(2700)
    assert uscf.k_value(2300, 100, 4, dual=True) == pytest.approx(0.75 * uscf.k_value(2300, 100, 4))


def test_calc_refuses_an_unrated_opponent(capsys):
    assert main(["calc", "uscf", "--rating", "1500", "--rated-games", "30", "--games", "unrated 1"]) == 1
    assert "Step 3" in capsys.readouterr().err


def test_calc_shows_the_iteration(capsys):
    assert main(["calc", "uscf", "--rating", "1500", "--rated-games", "4", "--games", "800 1"]) == 0
    out = capsys.readouterr().out
    assert "formula:                special" in out and "step 1: M:              1440.000 -> 1500.000\n" in out
    assert "1500.000:1500" not in out  # the probe's "1600.000:1600": a label run into its value


def test_elo_change_takes_the_floor_and_the_record():
    from xl_elo.frontends.functions import by_name

    change = by_name()["ELO_CHANGE"].function
    # an established 1450 (N* 15.88, K 40.24) who loses four games to 1400s (E 2.287) falls by 92.04 to 1357.96,
    # above his own floor (1250 down to 1200); a highest of 1620 holds him at 1400
    assert change("USCF", 1450.0, [[1400.0]] * 4, [[0.0]] * 4, 40, None, None, None, 1620.0) == -50
    assert change("USCF", 1450.0, [[1400.0]] * 4, [[0.0]] * 4, 40) == -92
    special = uscf.special_rating(900, uscf.effective_games(900, 10), [1000, 1100], [0.5, 0], "all losses")
    assert change("USCF", 900.0, [[1000.0], [1100.0]], [[0.5], [0.0]], 10, None, None, None, None,
                  "all losses") == round(special.rating) - 900


# --------------------------------------------------------------------------- a whole event


def _section():
    players = [dict(id="est", rating=1700, games=60), dict(id="low", rating=1450, games=40, highest=1620),
               dict(id="prov", rating=1200, games=5), dict(id="kid", birth_year=2016),
               dict(id="adult"), dict(id="mid", rating=1500, games=12)]
    games = [(1, "est", "low", 1), (1, "prov", "kid", 1), (1, "adult", "mid", 0.5),
             (2, "est", "prov", 1), (2, "low", "adult", 0), (2, "kid", "mid", 0),
             (3, "est", "adult", 0.5), (3, "low", "kid", 1), (3, "prov", "mid", 0)]
    return event(players, games, period="2026-10")


def test_the_five_steps_by_hand():
    """Steps 3 to 5 written out for one small section (rules 10.4): the kid (age 10, 500) and the adult (1300)
    have N = 0, so Step 3 estimates them with N' = 1; Step 4 counts them so; Step 5 counts everyone at Step 4."""
    ev = _section()
    res = rate("uscf", ev).by_id()
    # Step 3, the kid: prior 500, N' = 1, against prov 1200 (L), mid 1500 (L), low 1450 (L), all at R0
    kid3 = uscf.special_rating(500, 1, [1200, 1500, 1450], [0, 0, 0]).rating
    adult3 = uscf.special_rating(1300, 1, [1500, 1450, 1700], [0.5, 1, 0.5]).rating
    # Step 4, est: standard against low 1450, prov 1200, adult at his Step 3 estimate
    est4 = uscf.rate_one(1700, 60, uscf.effective_games(1700, 60), [1450, 1200, adult3], [1, 1, 0.5], None, 10)
    low4 = uscf.rate_one(1450, 40, uscf.effective_games(1450, 40), [1700, 1300 if False else adult3, kid3],
                         [0, 0, 1], None, 10)
    prov4 = uscf.rate_one(1200, 5, 5, [kid3, 1700, 1500], [1, 0, 0], None, 10)
    adult4 = uscf.rate_one(1300, 0, 0, [1500, 1450, 1700], [0.5, 1, 0.5], None, 10)
    assert res["est"]["intermediate"] == pytest.approx(est4.rating)
    # Step 5, est: against low, prov and adult at their Step 4 ratings; the bonus from B = 10 (2026)
    est5 = uscf.rate_one(1700, 60, uscf.effective_games(1700, 60), [low4.rating, prov4.rating, adult4.rating],
                         [1, 1, 0.5], None, 10)
    assert res["est"]["rating_exact"] == pytest.approx(est5.rating)
    assert res["est"]["rating_after"] == round(est5.rating)
    # low loses to est and adult: his floor (highest 1620 -> 1400) holds him
    assert res["low"]["floor"] == 1400 and res["low"]["rating_exact"] >= 1400
    assert res["kid"]["status"] == "unrated" and res["kid"]["formula"] == "special"
    assert res["kid"]["rating_before"] is None and res["kid"]["games_after"] == 3
    assert res["mid"]["formula"] == "standard" and res["prov"]["formula"] == "special"
    assert res["mid"]["provisional"] is True and res["est"]["provisional"] is False


def test_rate_refuses_what_it_cannot_rate():
    from xl_elo.model import InputError

    ev = event([dict(id="a", birth_year=2015), dict(id="b", rating=1500, games=30)], [(1, "a", "b", 1)], period=None)
    with pytest.raises(InputError, match="give the period"):
        rate("uscf", ev)
    ev = event([dict(id="a", rating=1500, games=30), dict(id="b", rating=1500, games=30)], [(1, "a", "b", 1)],
               period="2016-05")
    with pytest.raises(InputError, match="before 2017-05-01"):
        rate("uscf", ev)
    assert rate("uscf", ev, bonus_threshold="12").by_id()["a"]["rating_after"] > 1500


def test_the_example_rates():
    res = rate("uscf", example_event("uscf")).by_id()
    assert all(r["rating_exact"] is None or r["rating_exact"] >= r["floor"] for r in res.values())


def test_the_example_events_figures_computed_by_hand():
    """The club Swiss of ``xl_elo/federations/uscf/example``, by hand from docs/rules.md 10.3, 10.6 and 10.8:

    - N* = 50 / sqrt(0.662 + 0.00000739 (2569 - R0)^2), N' = min(N, N*) (10.3): Alice 1843 on 120 games:
      726^2 = 527,076, x 0.00000739 = 3.895, + 0.662 = 4.557, sqrt 2.1347, N* = 23.422; Ben 1652 on 48:
      917^2 = 840,889 -> 6.876 -> N* = 19.068; Carla 1420 on 35: 1149^2 = 1,320,201 -> 10.418 -> 15.491;
      Eve 1388 on 14: 1181^2 -> N* = 15.097 > 14, N' = 14; Dan 1511 on 6: N* = 16.73, N' = 6; Hugo 620 on 9:
      1949^2 -> N* = 9.328, N' = 9; Farid and Gina, unrated: 0.
    - K = 800 / (N' + m), m = 4 games here (10.6): Alice 800 / 27.422 = 29.174, Ben 800 / 23.068 = 34.681,
      Carla 800 / 19.491 = 41.045, Eve 800 / 18 = 44.444; Dan and Hugo (8 games or fewer) and the unrated take
      the special formula, no K.
    - Floors (10.8): an established player (over 25 games) has his highest minus 200, down to the hundred:
      Alice's highest 1910 gives 1700, Ben's (his rating, 1652) 1400, Carla's 1638 gives 1400; Dan, Eve and
      Hugo (25 games or fewer) have the absolute floor of 100. Carla loses all four games: her formula takes
      her below 1400 (1420 - 41.045 E with E above 0.49), and the floor holds her at 1400.
    """
    res = rate("uscf", example_event("uscf")).by_id()
    effective = {"alice": 23.422, "ben": 19.068, "carla": 15.491, "eve": 14, "dan": 6, "hugo": 9, "farid": 0,
                 "gina": 0}
    for pid, n in effective.items():
        assert res[pid]["effective_games"] == pytest.approx(n, abs=5e-4), pid
    for pid, k in {"alice": 29.174, "ben": 34.681, "carla": 41.045, "eve": 44.444}.items():
        assert (res[pid]["formula"], res[pid]["k"]) == ("standard", pytest.approx(k, abs=5e-4)), pid
    assert {pid for pid, r in res.items() if r["formula"] == "special"} == {"dan", "hugo", "farid", "gina"}
    floors = {"alice": 1700, "ben": 1400, "carla": 1400, "dan": 100, "eve": 100, "hugo": 100}
    assert {pid: res[pid]["floor"] for pid in floors} == floors
    assert (res["carla"]["score"], res["carla"]["rating_after"], res["carla"]["change"]) == (0, 1400, -20)


def test_a_trf_report_never_gives_fide_ratings_as_us_chess_ones(capsys):
    """A TRF-16 report's ratings are FIDE's: rated by US Chess, it is refused (no USA national-rating record),
    never rated with them (rules 10.1)."""
    from conftest import DATA

    status = main(["rate", "-f", "uscf", str(DATA / "trf" / "xlelo_club_2026.trf"), "--format", "json"])
    out = capsys.readouterr()
    assert status == 1 and "USA" in out.err and out.out == ""


def test_elo_k_names_only_the_systems_with_a_k_factor():
    """Rules 10.6: US Chess's K needs the event's games (USCF_K), so ELO_K refuses USCF; its help names none of
    USCF's facts (the probe found its games, age and ever_2400 help describing USCF's arguments)."""
    from xl_elo.frontends.functions import ArgumentError, _said, by_name

    elo_k = by_name()["ELO_K"]
    for arg in elo_k.args[2:]:
        assert "USCF" not in arg.doc and "USCF" not in _said(arg.french), arg.name
    with pytest.raises(ArgumentError):
        elo_k.function("USCF", 1500)


def test_the_template_says_what_the_period_sets():
    """Rules 10.2, 10.7: the period (the event's end) sets the bonus threshold B and an unrated player's age;
    the template's words say so (the probe found only "shown on the results"), in English and in French."""
    from xl_elo import words
    from xl_elo.federations.uscf.template import spec

    period = next(s for s in spec().settings if s.name == "period")
    assert "bonus threshold B" in period.help and "age" in period.help
    with words.use("fr"):
        french = next(s for s in spec().settings if s.name == "period")
    assert "seuil de bonus B" in french.help


# --------------------------------------------------------------------------- results read back as the next players

#: The probe of 2026-11-25 (/tmp/probe-users/uscf): a club section of six, three rounds; Bob Lee, established on
#: 30 games at 1420 with a highest of 1650, has the floor 1400 (rules 10.8: 1650 - 200 down to the hundred).
PROBE_PLAYERS = """ID,Name,Rating,Games,Birth Year,Highest
12345678,John Smith,1843,120,1980,1900
23456789,Mary Jones,1652,40,1995,1700
34567890,Bob Lee,1420,30,2000,1650
45678901,Tim Young,,0,2014,
56789012,Sue Park,1511,6,2011,
67890123,Ann Ray,620,9,2016,
"""
PROBE_GAMES = """Round,Player,Opponent,Result
1,12345678,56789012,1-0
1,23456789,67890123,1-0
1,34567890,45678901,0-1
2,56789012,23456789,1/2
2,45678901,12345678,0-1
2,67890123,34567890,1-0
3,12345678,23456789,½-½
3,45678901,67890123,1
3,34567890,56789012,0
"""


def test_results_read_back_as_the_next_events_players_keep_the_floor(tmp_path, capsys):
    """Rules 10.8 (a highest of 1650 gives the floor 1400, US Chess staff's examples above): Bob Lee loses his three
    games and his floor holds him at 1400; his results, read back as the next event's players, still carry
    that highest (``highest_after``, read as ``highest``), so losing three more games leaves him at 1400, not at
    the 1200 his 1400 alone would give. The probe found the floor lost (1200) silently. The year of birth, the
    record and the Life Master carry on too."""
    (tmp_path / "p.csv").write_text(PROBE_PLAYERS, encoding="utf-8")
    (tmp_path / "g.csv").write_text(PROBE_GAMES, encoding="utf-8")
    r1 = tmp_path / "r1.csv"
    assert main(["rate", "-f", "uscf", "-p", str(tmp_path / "p.csv"), "-g", str(tmp_path / "g.csv"),
                 "--period", "2026-10", "-o", str(r1)]) == 0
    first = {row["id"]: row for row in _csv_rows(r1)}
    bob = first["34567890"]
    assert (bob["rating_after"], bob["floor"], bob["highest_after"]) == ("1400", "1400", "1650")
    assert first["12345678"]["highest_after"] == "1900" and first["45678901"]["birth_year"] == "2014"
    assert first["56789012"]["highest_after"] == ""  # provisional: no established rating yet
    capsys.readouterr()
    assert main(["rate", "-f", "uscf", "-p", str(r1), "-g", str(tmp_path / "g.csv"), "--period", "2026-11",
                 "--format", "json"]) == 0
    second = {row["id"]: row for row in json.loads(capsys.readouterr().out)["results"]}
    bob = second["34567890"]
    assert (bob["rating_before"], bob["floor"], bob["rating_after"]) == (1400, 1400, 1400)
    assert bob["games_after"] == 36
    assert second["45678901"]["status"] == "provisional"  # 3 games read back: no longer Step 1's unrated


def _csv_rows(path):
    import csv

    with open(path, encoding="utf-8", newline="") as f:
        return list(csv.DictReader(f))


def test_the_record_after_and_the_highest_after():
    """Rules 10.5: the special formula's all-wins prior holds while every game is won; one draw ends it. A
    player with no game before who wins all has all wins after. Rules 10.8: the highest established rating
    counts the rating before (established, more than 25 games) and the new one once established."""
    assert uscf.record_after("all wins", 3, [1.0, 1.0]) == "all wins"
    assert uscf.record_after("all wins", 3, [1.0, 0.5]) is None
    assert uscf.record_after("all losses", 3, [0.0]) == "all losses"
    assert uscf.record_after(None, 0, [1.0, 1.0]) == "all wins"
    assert uscf.record_after(None, 5, [1.0, 1.0]) is None  # a mixed record stays mixed
    assert uscf.record_after("all wins", 3, []) == "all wins"
    assert uscf.highest_after(None, 1700, 40, 1710, 4) == 1710
    assert uscf.highest_after(1900, 1700, 40, 1650, 4) == 1900
    assert uscf.highest_after(None, 1500, 20, 1560, 4) is None  # 24 games: still provisional
    assert uscf.highest_after(None, 1500, 22, 1560, 4) == 1560  # his 26th game: established
    ev = event([dict(id="w", rating=1200, games=3, record="all wins"), dict(id="x", rating=1300, games=40)],
               [(1, "w", "x", 1), (2, "w", "x", 1)], period="2026-10")
    rows = rate("uscf", ev).by_id()
    assert rows["w"]["record_after"] == "all wins" and rows["x"]["record_after"] is None
    assert rows["x"]["highest_after"] == 1300  # his new rating is lower


def test_a_rating_with_its_decimals():
    """Rules 10.9: "Ratings are stored as floating point values, such as 1643.759" (§1): a rating is read with
    its decimals in CSV, calc and ELO_CHANGE; the change is the published rating minus the published one
    before (1843.759 was published as 1844). Below the absolute floor of 100 no rating exists; 1.850 reads two
    ways and is refused naming both, in the words of every system (rules 1.4)."""
    from xl_elo.frontends.functions import elo_change

    calc = uscf.calculate(_player(1643.759, 40), _games([1643.759], [0.5]), "2026-10")
    assert (calc.rating_before, calc.rating_after, calc.change) == (1643.759, 1644, 0)
    assert elo_change("USCF", 1643.759, [[1643.759]], [[0.5]], 40) == 0
    assert uscf.Player.RATING("1847.22") == 1847.22 and uscf.Player.RATING("0") is None
    with pytest.raises(Exception, match=r"reads two ways, 1850 with a thousands separator or 1\.85 with a decimal"):
        uscf.Player.RATING("1.850")
    with pytest.raises(Exception, match="below every US Chess rating"):
        uscf.Player.RATING("99.5")
    assert main(["calc", "uscf", "--rating", "1847.2", "--rated-games", "123", "--games", "1652 1"]) == 0


#: The probe's TRF-26 report (/tmp/probe-users/trf/us.trf): six players, five with a USA national-rating record.
PROBE_TRF = """012 Test Open 2026
022 Springfield
032 USA
042 2026/10/01
052 2026/10/03
062 6
072 6
082 0
092 Individual: Swiss-System
102 Arbiter, A
122 90 min + 30 s
142 3
222 5400+30
001    1 m FM Smith, John                       2210 USA     2000001 1980/01/01  2.5    1     6 w 1     3 b 1     2 w =
001    2 w    Jones, Mary                       1850 USA     2000002 1995/05/05  2.5    2     5 b 1     4 w 1     1 b =
001    3 m    Lee, Bob                             0 USA             2000/02/02  1.0    3     4 w 0     1 w 0     6 b 1
001    4 m    Young, Tim                           0 USA             2014/03/03  1.0    4     3 b 1     2 b 0     5 w 0
001    5 w    Park, Sue                         1600 USA     2000005 2011/04/04  2.0    5     2 w 0     6 w 1     4 b 1
001    6 w    Ray, Ann                          1450 USA     2000006 1970/06/06  0.0    6     1 b 0     5 b 0     3 w 0
USA    1                                        2250        12345678 1980/01/01
USA    2                                        1900        23456789 1995/05/05
USA    3                                        1500        34567890 2000/02/02
USA    5                                        1580        56789012 2011/04/04
USA    6                                        1400        67890123 1970/06/06
"""


def test_a_trf_report_leaves_the_games_after_blank(tmp_path, capsys):
    """Rules 10.10: a TRF report does not give the rated games before; its rated players count as established
    (N' = N*), said once, and their games after are not known: left blank, never the stand-in's 1003 (the
    probe found 1003, which read back as the next event's games would have become a fact). Tim Young, unrated,
    played 3 games: 3 after."""
    path = tmp_path / "us.trf"
    path.write_text(PROBE_TRF, encoding="utf-8")
    assert main(["rate", "-f", "uscf", str(path), "--format", "json"]) == 0
    out = capsys.readouterr()
    rows = {r["name"]: r for r in json.loads(out.out)["results"]}
    assert [rows[n]["games_after"] for n in ("Smith, John", "Lee, Bob", "Ray, Ann")] == [None, None, None]
    assert rows["Smith, John"]["status"] == "established" and rows["Young, Tim"]["games_after"] == 3
    assert out.err.count("without their rated games before") == 1
    assert "1003" not in out.out


# --------------------------------------------------------------------------- the rules' properties

ratings = st.integers(100, 2800)
scores = st.sampled_from([0.0, 0.5, 1.0])


@st.composite
def special_cases(draw):
    m = draw(st.integers(1, 9))
    return (draw(ratings), draw(st.sampled_from([0, 1, 3, 6, 8])), draw(st.lists(ratings, min_size=m, max_size=m)),
            draw(st.lists(scores, min_size=m, max_size=m)), draw(st.sampled_from([None, "all wins", "all losses"])))


@settings(max_examples=300, deadline=None)
@given(special_cases())
def test_the_special_formula_solves_its_own_equation(case):
    prior, n, opps, res, record = case
    record = record if n > 0 else None
    n_eff = uscf.effective_games(prior, n)
    sp = uscf.special_rating(prior, n_eff, opps, res, record, cap=None)
    assert abs(uscf.special_equation(prior, n_eff, opps, res, record, sp.solved)) <= uscf.EPSILON
    # the answer is a zero of f too: M itself, or (a flat stretch) the prior brought within it
    assert abs(uscf.special_equation(prior, n_eff, opps, res, record, sp.rating)) <= uscf.EPSILON
    assert len(sp.steps) <= 2 * (len(opps) + 1) + 1


@settings(max_examples=200, deadline=None)
@given(special_cases(), st.integers(0, 8))
def test_more_points_never_lower_the_rating(case, which):
    """A loss made a draw, a draw made a win: the new rating never falls (special and standard formulas)."""
    prior, n, opps, res, record = case
    i = which % len(opps)
    if res[i] == 1.0:
        return
    better = list(res)
    better[i] += 0.5
    for games in (n, 40):
        p = _player(prior, games, record=record if games <= 8 and n > 0 else None)
        a = uscf.calculate(p, _games(opps, res), "2026-10")
        b = uscf.calculate(p, _games(opps, better), "2026-10")
        assert dict(b.own)["rating_exact"] >= dict(a.own)["rating_exact"] - 1e-9


@st.composite
def sections(draw):
    n = draw(st.integers(2, 7))
    players = []
    for i in range(n):
        kind = draw(st.sampled_from(["established", "provisional", "unrated", "junior"]))
        if kind == "established":
            players.append(dict(id=f"p{i}", rating=draw(ratings), games=draw(st.integers(26, 400)),
                                highest=draw(st.one_of(st.none(), ratings)), life_master=draw(st.booleans())))
        elif kind == "provisional":
            players.append(dict(id=f"p{i}", rating=draw(ratings), games=draw(st.integers(1, 25))))
        else:
            players.append(dict(id=f"p{i}", birth_year=draw(st.integers(2000, 2024)) if kind == "junior" else None))
    rounds = draw(st.integers(1, 5))
    games = []
    for r in range(rounds):
        order = draw(st.permutations(range(n)))
        for a, b in zip(order[::2], order[1::2], strict=False):
            games.append((r + 1, f"p{a}", f"p{b}", draw(scores)))
    return event(players, games, period="2026-10")


@settings(max_examples=120, deadline=None)
@given(sections())
def test_floors_are_never_crossed(ev):
    for row in rate("uscf", ev):
        if row["rating_exact"] is not None:
            assert row["rating_exact"] >= row["floor"] >= uscf.ABSOLUTE_FLOOR
            assert row["rating_after"] >= row["floor"]


def test_rated_games_without_a_rating_are_refused_everywhere(tmp_path, capsys):
    """Rules 10.10: a player with rated games and no rating is refused by rate, and so by calc and ELO_CHANGE
    (the same words), never rated silently as a new player; '1e-400' is not 0 (no rating), it is refused."""
    from xl_elo.frontends.functions import ArgumentError, elo_change

    words = "30 rated games but no rating: give his rating (or 0 games for a player never rated)"
    assert main(["calc", "uscf", "--rating", "0", "--rated-games", "30", "--games", "1500 1"]) == 1
    assert f"--rated-games: {words}" in capsys.readouterr().err
    with pytest.raises(ArgumentError, match=re.escape(f"argument games: {words}")):
        elo_change("USCF", 0, [[1500]], [[1]], 30)
    (tmp_path / "p.csv").write_text("id,rating,games\na,0,30\nb,1600,40\n", encoding="utf-8")
    (tmp_path / "g.csv").write_text("player,opponent,result\na,b,1\n", encoding="utf-8")
    assert main(["rate", "-f", "uscf", "-p", str(tmp_path / "p.csv"), "-g", str(tmp_path / "g.csv")]) == 1
    assert f"row 2, column 'games': player 'a': {words}" in capsys.readouterr().err
    assert main(["calc", "uscf", "--rating", "unrated", "--rated-games", "0", "--games", "1500 1"]) == 0
    capsys.readouterr()
    for tiny in ("1e-400", "0.0000001"):
        assert main(["calc", "uscf", "--rating", tiny, "--games", "1500 1"]) == 1
        err = capsys.readouterr().err
        assert "--rating: " in err and tiny in err and "unrated" not in err.split("(expected")[0]


def test_the_us_chess_functions_take_a_rating_with_its_decimals():
    """Rules 10.9: US Chess keeps a rating's decimals, and so do its own functions. By hand: R = 1500.5,
    N* = 50 / sqrt(0.662 + 0.00000739 x (2569 - 1500.5)^2) = 50 / sqrt(9.0992) = 16.5757, N' = min(30, N*),
    K = 800 / (N' + 4) = 38.881; the floor of 1653.5 is 1453.5 down to the hundred, 1400. A rating written
    1,500 reads two ways and is refused."""
    from xl_elo.frontends.functions import ArgumentError, by_name

    f = by_name()
    assert f["USCF_EFFECTIVE_GAMES"].function(1500.5, 30) == pytest.approx(16.5757, abs=1e-4)
    assert f["USCF_K"].function(1500.5, 30, 4) == pytest.approx(38.881, abs=1e-3)
    assert f["USCF_FLOOR"].function(1653.5) == 1400 and f["USCF_FLOOR"].function(1700) == 1500
    with pytest.raises(ArgumentError, match="reads two ways"):
        f["USCF_K"].function("1,500", 30, 4)


# --------------------------------------------------------------------------- every threshold, at it and beside it


@pytest.mark.parametrize("age, rating", [
    # rules 10.2: 50 x age from 2 to 26, 100 below 2, 1300 above 26
    (1, 100), (2, 100), (3, 150), (25, 1250), (26, 1300), (27, 1300), (None, 1300),
])
def test_the_initial_rating_edges(age, rating):
    assert uscf.initial_rating(age) == rating


@pytest.mark.parametrize("rating, games, highest, life_master, floor", [
    # rules 10.8: established (more than 25 games): the highest minus 200 down to the hundred, from a highest of
    # 1400, at most 2100; an Original Life Master 2200; everyone 100
    (1653, 26, None, False, 1400), (1653, 25, None, False, 100), (1653, 27, None, False, 1400),
    (1399, 100, None, False, 100), (1400, 100, None, False, 1200), (1401, 100, None, False, 1200),
    (1499, 100, None, False, 1200), (1500, 100, None, False, 1300),
    (2299, 100, None, False, 2000), (2300, 100, None, False, 2100), (2400, 100, None, False, 2100),
    (1500, 100, 1800, False, 1600), (1500, 10, 1800, True, 2200), (None, 0, None, False, 100),
])
def test_the_floor_edges(rating, games, highest, life_master, floor):
    assert uscf.floor_of(rating, games, highest, life_master) == floor


@pytest.mark.parametrize("rating, n_star", [
    # rules 10.3: N* = 50 / sqrt(0.662 + 0.00000739 (2569 - R0)^2) up to 2355, 50 above: at 2355,
    # 50 / sqrt(0.662 + 0.00000739 x 214^2) = 50 / sqrt(0.99043) = 50.2414; at 2356, 50
    (2354, 50 / math.sqrt(0.662 + 0.00000739 * 215 ** 2)), (2355, 50 / math.sqrt(0.662 + 0.00000739 * 214 ** 2)),
    (2356, 50.0), (1700, 20.012),
])
def test_the_n_star_edge(rating, n_star):
    assert uscf.n_star(rating) == pytest.approx(n_star, abs=1e-3)


@pytest.mark.parametrize("rating, factor", [
    # rules 10.6: a dual-rated event's K: 1 up to 2200, 6.5 - 0.0025 R0 between, 0.25 from 2500
    (2199, 1.0), (2200, 1.0), (2201, 6.5 - 0.0025 * 2201), (2499, 6.5 - 0.0025 * 2499), (2500, 0.25), (2501, 0.25),
])
def test_the_dual_rated_edges(rating, factor):
    assert uscf.dual_factor(rating) == pytest.approx(factor)


@pytest.mark.parametrize("games, formula, status", [
    # rules 10.5, 10.9: the special formula for 8 games or fewer; established from 26 games
    (8, "special", "provisional"), (9, "standard", "provisional"), (25, "standard", "provisional"),
    (26, "standard", "established"),
])
def test_the_games_edges(games, formula, status):
    calc = uscf.calculate(_player(1500, games), _games([1500], [1]), "2026-10")
    assert (dict(calc.own)["formula"], calc.status) == (formula, status)


@pytest.mark.parametrize("m, bonus", [
    # rules 10.7: from 3 games, max(0, K (S - E) - B sqrt(max(m, 4))); with B = 14 and a change of 60:
    # m = 2: none; m = 3 and 4: 60 - 14 x 2 = 32; m = 9: 60 - 14 x 3 = 18
    (2, 0.0), (3, 32.0), (4, 32.0), (9, 18.0),
])
def test_the_bonus_edges(m, bonus):
    assert uscf.bonus_points(60.0, m, 14) == pytest.approx(bonus)


@pytest.mark.parametrize("meetings, bonus", [(1, 32.0), (2, 32.0), (3, 0.0)])
def test_the_bonus_meetings_edge(meetings, bonus):
    """Rules 10.7: no bonus when an opponent is met more than twice (4 games, a change of 60, B 14)."""
    assert uscf.bonus_points(60.0, 4, 14, meetings) == pytest.approx(bonus)
