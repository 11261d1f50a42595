"""CFC (rules 11): the CFC Handbook's published table and worked sample, exactly, through ``xl-elo calc
cfc --format json``; a hand-computed event for every step of 417; the rules' invariants.

Source of the figures: CFC Handbook (to 2014), Section 4 "CFC Rating System & FIDE Rated Events",
https://www.chess.ca/en/cfc/rules/cfc-handbook-2014/ (the CFC's site; its text in the CFC's own
repository chess-ca/cfc-www-2020, content/cfc/rules/cfc-handbook-2014/index.en.md): article 414b's
table "Expected Result of Game", article 425's sample calculation.
"""

from __future__ import annotations

import contextlib
import io
import json
import math

import pytest
from conftest import event
from hypothesis import given, settings
from hypothesis import strategies as st

from xl_elo import rate
from xl_elo.federations import cfc
from xl_elo.federations.contract import OpponentGame
from xl_elo.frontends.cli import main

#: Article 414b's table as the handbook prints it: "Rating Difference", "Expected score for higher
#: rated player", "Expected score for lower rated player" (typed from the handbook, not from the code).
HANDBOOK_TABLE = """
0-3 .50 .50 | 4-10 .51 .49 | 11-17 .52 .48 | 18-25 .53 .47 | 26-32 .54 .46 | 33-39 .55 .45 | 40-46 .56 .44
47-53 .57 .43 | 54-61 .58 .42 | 62-68 .59 .41 | 69-76 .60 .40 | 77-83 .61 .39 | 84-91 .62 .38 | 92-98 .63 .37
99-106 .64 .36 | 107-113 .65 .35 | 114-121 .66 .34 | 122-129 .67 .33 | 130-137 .68 .32 | 138-145 .69 .31
146-153 .70 .30 | 154-162 .71 .29 | 163-170 .72 .28 | 171-179 .73 .27 | 180-188 .74 .26 | 189-197 .75 .25
198-206 .76 .24 | 207-215 .77 .23 | 216-225 .78 .22 | 226-235 .79 .21 | 236-245 .80 .20 | 246-256 .81 .19
257-267 .82 .18 | 268-278 .83 .17 | 279-290 .84 .16 | 291-302 .85 .15 | 303-315 .86 .14 | 316-328 .87 .13
329-344 .88 .12 | 345-357 .89 .11 | 358-374 .90 .10 | 375-391 .91 .09 | 392-411 .92 .08 | 412-432 .93 .07
433-456 .94 .06 | 457-484 .95 .05 | 485-517 .96 .04 | 518-559 .97 .03 | 560-619 .98 .02 | 620-734 .99 .01
735-and-over 1.00 .00
"""


def _handbook_rows() -> list[tuple[int, int | None, float, float]]:
    rows = []
    for cell in HANDBOOK_TABLE.replace("\n", " | ").split("|"):
        if not cell.strip():
            continue
        span, higher, lower = cell.split()
        lo, _, hi = span.partition("-")
        rows.append((int(lo), None if hi == "and-over" else int(hi), float(higher), float(lower)))
    return rows


def calc_json(*argv: str) -> dict:
    """``xl-elo calc cfc ... --format json``, in this process."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stderr(err):
        status = main(["calc", "cfc", *argv, "--format", "json"], out, err)
    assert status == 0, err.getvalue()
    return json.loads(out.getvalue())


# --------------------------------------------------------------------------- the published table


def test_the_whole_published_table_through_calc():
    """Every row of 414b's table, at both ends of its range and from both sides: the higher-rated
    player's expected score is the first column, the lower-rated player's the second (CFC Handbook 414b).
    One calc of an established player rated 1800 against opponents below and above him."""
    rows = _handbook_rows()
    assert len(rows) == 51 and rows[0][:2] == (0, 3) and rows[-1][:2] == (735, None)
    differences, want = [], []
    for lo, hi, higher, lower in rows:
        for d in ([lo, hi] if hi is not None else [lo, lo + 200]):
            differences += [d, -d]
            want += [higher, lower]
    games = ", ".join(f"{1800 - d} 0.5" for d in differences)
    doc = calc_json("--rating", "1800", "--rated-games", "100", "--games", games)
    got = [g["expected"] for g in doc["games"]]
    assert got == want
    assert [g["difference"] for g in doc["games"]] == differences
    assert doc["expected"] == pytest.approx(sum(want), abs=1e-9)


def test_the_table_as_transcribed_and_as_shown():
    """The package's one transcription is the handbook's table row by row, and the ranges are the FQE's
    (the FQE prints the same table, rules 4.2); ``xl-elo tables cfc-expected`` shows all 51 rows."""
    from xl_elo.tables import CFC_EXPECTED_ROWS, FQE_EXPECTED_ROWS

    assert [(lo, hi, pct / 100) for lo, hi, pct in CFC_EXPECTED_ROWS] == [r[:3] for r in _handbook_rows()]
    assert CFC_EXPECTED_ROWS == FQE_EXPECTED_ROWS
    out = io.StringIO()
    assert main(["tables", "cfc-expected"], out) == 0
    text = out.getvalue()
    assert "article 414b" in text and "   620  734      0.99" in text and text.count("\n") >= 51 + 3


# --------------------------------------------------------------------------- the worked sample

SAMPLE = "1237 1, 1511 1, 1214 1, 1441 1, 1579 0, 2133 0"


def test_the_handbook_sample_through_calc_json():
    """CFC Handbook 425: 1450, 4 out of 6 against 1237, 1511, 1214, 1441, 1579, 2133: ".77 + .42 + .80 + .51
    + .33 + .01 = 2.84", "1450 + 32 (4 - 2.84) = 1487", bonus 9, "New rating 1487 + 9 = 1496". The bonus of
    9 is the handbook's old rule (1487 - 1450 - 28); 2012-S gives 1.75 (1487 - 1450 - 13 sqrt 6) = 9.02 -> 9
    as well when 1487 is not the player's all-time high (derived, rules 11.6)."""
    doc = calc_json("--rating", "1450", "--games", SAMPLE)
    assert [g["expected"] for g in doc["games"]] == [0.77, 0.42, 0.80, 0.51, 0.33, 0.01]
    assert doc["expected"] == 2.84 and doc["k"] == 32 and doc["score"] == 4
    assert doc["rn"] == pytest.approx(1487.12, abs=1e-9)
    assert doc["rating_before_bonus"] == 1487
    assert doc["rating_after"] - doc["bonus"] == 1487
    assert (doc["bonus"], doc["rating_after"], doc["change"]) == (9, 1496, 46)
    assert doc["threshold"] == pytest.approx(13 * math.sqrt(6))
    assert doc["bonus_change"] == pytest.approx(1.75 * (1487 - 1450 - 13 * math.sqrt(6)))
    assert any("highest" in n for n in doc["notes"])  # the all-time high is not given: said, not guessed
    # which games were won the handbook does not say: Rn is the same whichever they were (414b)
    other = calc_json("--rating", "1450", "--rated-games", "80", "--highest", "1600",
                      "--games", "1237 0, 1511 1, 1214 0.5, 1441 1, 1579 0.5, 2133 1")
    assert (other["rating_before_bonus"], other["bonus"], other["rating_after"]) == (1487, 9, 1496)


def test_the_sample_at_an_all_time_high():
    """Derived (rules 11.6): the same event when 1487 is a new high for the player gets BONUS1 = 20 more."""
    doc = calc_json("--rating", "1450", "--highest", "1450", "--games", SAMPLE)
    assert (doc["bonus_high"], doc["bonus"], doc["rating_after"]) == (20, 29, 1516)


def test_elo_change_counts_the_all_time_high_bonus_as_calc_does():
    """Derived from CFC Handbook 425 and Motion 2012-S (rules 11.6): the handbook's sample by a player whose
    highest rating before was 1480 ends at 1487 > 1480, a new high: BONUS1 = 20, so +66, as ``calc --highest
    1480`` says; without ``highest`` the same +46 (no BONUS1). The probe found ELO_CHANGE's ``highest``
    ignored for the CFC (+46 silently)."""
    from xl_elo.frontends.functions import elo_change

    opponents, scores = [[1237], [1511], [1214], [1441], [1579], [2133]], [[1], [1], [1], [1], [0], [0]]
    assert elo_change("CFC", 1450, opponents, scores, 100, None, None, None, 1480) == 66
    assert elo_change("CFC", 1450, opponents, scores, 100, None, None, None, 1500) == 46  # 1487 is no new high
    assert elo_change("CFC", 1450, opponents, scores, 100) == 46
    doc = calc_json("--rating", "1450", "--rated-games", "100", "--highest", "1480", "--games", SAMPLE)
    assert (doc["bonus_high"], doc["change"]) == (20, 66)


def test_the_sample_through_the_demo_example():
    """The shipped example is the handbook's sample (an event of the sample player and his six opponents)."""
    from xl_elo.loader import example

    row = example("cfc").rate().by_id()["sample"]
    assert (row["expected"], row["rating_before_bonus"], row["bonus"], row["rating_after"]) == (2.84, 1487, 9, 1496)


def test_the_rules_chapter_quotes_the_sample():
    from xl_elo.rulesdoc import sections

    text = sections()["11.6"]
    assert "1487 − 1450 − 28 = 9" in text and "1496" in text
    assert "1487.12" in sections()["11.5"]


# --------------------------------------------------------------------------- 417 by hand


def mixed_event(**changes):
    """Six players, a round robin: A 1800 and B 1650 established, C 1500 provisional (10 games), D 1400 with
    20 games (his 25th game falls in this event: 414b), U1 and U2 unrated (2 of 6: step 1b)."""
    players = {"A": dict(id="A", rating=1800, games=100, highest=1810), "B": dict(id="B", rating=1650, games=40),
               "C": dict(id="C", rating=1500, games=10), "D": dict(id="D", rating=1400, games=20),
               "U1": dict(id="U1"), "U2": dict(id="U2")}
    for pid, fields in changes.items():
        players[pid].update(fields)
    games = [(1, "A", "B", 1), (1, "C", "D", 0), (1, "U1", "U2", 0), (2, "A", "C", 1), (2, "B", "U2", 0.5),
             (2, "D", "U1", 1), (3, "A", "D", 0.5), (3, "B", "U1", 1), (3, "C", "U2", 0), (4, "A", "U1", 1),
             (4, "B", "D", 1), (4, "C", "U1", 1), (5, "A", "U2", 0), (5, "B", "C", 0.5), (5, "D", "U2", 0.5)]
    return event(list(players.values()), games, period=None)


def test_the_order_of_calculation_by_hand():
    """Rules 11.7, computed by hand:
    1. Ro - 400 (W - L) / N: A 1800 - 160 = 1640, B 1650 - 80 = 1570, C 1500 + 160 = 1660, D 1400 - 80 = 1320;
       mean 1547.5, preliminary 1347.5.
    2. U1 and U2 both met A, B, C, D and the other at 1347.5: Rc 7697.5 / 5 = 1539.5; U1 0/5: 1139.5; U2 4/5
       (3 W, 0 L): 1779.5.
    3. C (1.5/5, 1 W 3 L): Rc (1800 + 1650 + 1400 + 1139.5 + 1779.5) / 5 = 1553.8, Rp 1393.8;
       (10 x 1500 + 5 x 1393.8) / 15 = 1464.6 -> 1465.
    4. U1: (1800 + 1650 + 1465 + 1400 + 1779.5) / 5 - 400 = 1218.9 -> 1219; U2: (1800 + 1650 + 1465 + 1400 +
       1139.5) / 5 + 240 = 1730.9 -> 1731.
    5. A: .70 + .88 + .92 + .98 + .60 = 4.08, 1800 + 32 (3.5 - 4.08) = 1781.44 -> 1781 (1781 is not above
       1810: no bonus); B: .30 + .74 + .81 + .93 + .39 = 3.17, 1650 - 5.44 -> 1645; D (414b, his 25th game):
       .08 + .19 + .41 + .74 + .12 = 1.54, 1400 + 46.72 -> 1447, bonus 1.75 (47 - 13 sqrt 5) = 31.38 -> 31,
       1478."""
    res = rate("cfc", mixed_event())
    rows = res.by_id()
    assert any("1347.50" in w for w in res.warnings)
    assert rows["U1"]["rating_after"] == 1219 and rows["U1"]["performance"] == pytest.approx(1218.9)
    assert rows["U2"]["rating_after"] == 1731
    assert rows["C"]["rating_after"] == 1465 and rows["C"]["performance"] == pytest.approx(1393.8)
    assert (rows["A"]["expected"], rows["A"]["rating_after"], rows["A"]["bonus"]) == (4.08, 1781, 0)
    assert (rows["B"]["expected"], rows["B"]["rating_after"]) == (3.17, 1645)
    d = rows["D"]
    assert (d["status"], d["formula"], d["expected"], d["rating_before_bonus"], d["bonus"], d["rating_after"]) == (
        "provisional", "414b", 1.54, 1447, 31, 1478)
    assert d["bonus_change"] == pytest.approx(1.75 * (47 - 13 * math.sqrt(5)))
    assert d["provisional"] is False and rows["C"]["provisional"] is True and d["games_after"] == 25
    assert any("highest" in w for w in res.warnings)
    # D at a new high: BONUS1 20 more (rules 11.6)
    assert rate("cfc", mixed_event(D=dict(highest=1420))).by_id()["D"]["rating_after"] == 1498


def test_more_than_half_unrated_needs_the_operators_rating(tmp_path, capsys):
    """417.1a: with 4 unrated players of 6 the preliminary rating is the operator's: refused without it,
    rated with it (every unrated opponent then counts 1200 in step 2)."""
    ev = mixed_event(B=dict(rating=None, games=0), C=dict(rating=None, games=0))
    with pytest.raises(Exception, match=r"417\.1a"):
        rate("cfc", ev)
    res = rate("cfc", ev, preliminary=1200)
    assert any("1200.00, the operator's" in w for w in res.warnings)


def test_no_rated_player_is_refused():
    """419: an event is rated when at least one player has a rating."""
    ev = event([dict(id="x"), dict(id="y")], [(1, "x", "y", 1)], period=None)
    with pytest.raises(Exception, match="419"):
        rate("cfc", ev, preliminary=1500)


# --------------------------------------------------------------------------- 414b's 2199 rules, the bonus, 416, 413


@pytest.mark.parametrize("rating, scores, after", [
    (2190, "1", 2246),   # 2190 + 64 = 2254 -> 2199 + 55 / 2 = 2226.5 -> 2227; bonus 1.75 (37 - 26) = 19.25 -> 19
    (2210, "0", 2156),   # K 16: 2210 - 32 = 2178 -> 2200 - 2 x 22 = 2156
    (2199, "1", 2248),   # "2199 or over": K 16, 2231, no halving; Ke 1/2: 1.75 (32 - 13) / 2 = 16.625 -> 17
])
def test_the_2199_rules(rating, scores, after):
    """414b: "In applying this equation to players of 2199 or over, change 32 to 16", the gains across 2199
    halved, the losses across 2200 doubled; 414d's Ke = K / 32 (rules 11.5, 11.6). Four games against
    opponents rated as the player (.50 each)."""
    doc = calc_json("--rating", str(rating), "--games", ", ".join(f"{rating} {scores}" for _ in range(4)))
    assert doc["rating_after"] == after


@pytest.mark.parametrize("rating, games, after", [
    (850, 100, 799),    # 416a: established, from above 799, below 800 -> 799
    (780, 100, 780),    # 416b: from 799 or below -> the higher of the old and new ratings
    (300, 10, 200),     # 416c: provisional, (10 x 300 + 4 x -100) / 14 = 185.7 -> 186 -> 200
])
def test_the_low_rating_rules(rating, games, after):
    """Rules 11.9 (416): four losses against opponents rated as the player."""
    doc = calc_json("--rating", str(rating), "--rated-games", str(games),
                    "--games", ", ".join(f"{rating} 0" for _ in range(4)))
    assert doc["rating_after"] == after


def test_a_match_moves_a_rating_50_points_at_most():
    """413a (rules 11.8): 1500 beats 1500 six times: +96 and a bonus of 1.75 (96 - 13 sqrt 6) = 112 become +50;
    the loser's -96 becomes -50."""
    rows = rate("cfc", event([dict(id="a", rating=1500, games=50), dict(id="b", rating=1500, games=50)],
                             [(i, "a", "b", 1) for i in range(1, 7)], period=None)).by_id()
    assert (rows["a"]["rating_after"], rows["a"]["match_cap"]) == (1550, 208 - 50)
    assert rows["b"]["rating_after"] == 1450


def test_calc_and_elo_change_want_an_unrated_opponents_rating(capsys):
    """Rules 11.7: one player's calculation counts each opponent at the rating 417 gives him."""
    from xl_elo.frontends.functions import ArgumentError, elo_change

    assert main(["calc", "cfc", "--rating", "1450", "--games", "unrated 1"]) == 1
    assert "417" in capsys.readouterr().err
    with pytest.raises(ArgumentError, match="417"):
        elo_change("CFC", 1450.0, [[0.0]], [[1.0]])
    assert elo_change("CFC", 1450.0, [[1237.0], [1511.0], [1214.0], [1441.0], [1579.0], [2133.0]],
                      [[1], [1], [1], [1], [0], [0]]) == 46


def test_calc_shows_each_figure_once(capsys):
    """Rules 11.4: a provisional player's calc shows his performance among the steps of 414a, then the change;
    the probe found the performance printed twice."""
    assert main(["calc", "cfc", "--rating", "1450", "--rated-games", "10", "--games", SAMPLE]) == 0
    out = capsys.readouterr().out
    assert out.count("performance:") == 1 and out.count("new rating:") == 1
    assert "performance:            1652.5\n" in out  # 1519.17 + 400 (4 - 2) / 6, rules 11.4


def test_a_first_rating():
    """414a: 3 games against 1500, 1600, 1700 scoring 2/3 (2 W, 1 L): 1600 + 400 / 3 = 1733.33 -> 1733."""
    doc = calc_json("--rating", "unrated", "--games", "1500 1, 1600 1, 1700 0")
    assert doc["rating_after"] == 1733 and doc["performance"] == pytest.approx(1600 + 400 / 3)


def test_a_first_rating_from_30_games_is_provisional(tmp_path, capsys):
    """415 (rules 11.10): a first rating is a performance (414a), "considered provisional", however many games
    it rests on: 30 games in one event (15 wins, 15 losses against 1500 .. 1790: Rc 1645, W = L) give 1645,
    provisional, in calc, rate and ELO_RATE alike; the player's next event, with 30 games before, is rated by
    414b and leaves him established."""
    from xl_elo.frontends.functions import elo_rate

    opponents = [1500 + 10 * i for i in range(30)]
    games = ", ".join(f"{o} {i % 2}" for i, o in enumerate(opponents))
    doc = calc_json("--rating", "unrated", "--games", games)
    assert (doc["rating_after"], doc["provisional"], doc["games_after"]) == (1645, True, 30)
    players = [{"id": "new", "rating": None, "games": 0}] + [{"id": f"o{i}", "rating": o, "games": 50}
                                                             for i, o in enumerate(opponents)]
    ev = event(players, [(i + 1, "new", f"o{i}", i % 2) for i in range(30)])
    row = rate("cfc", ev).by_id()["new"]
    assert (row["rating_after"], row["provisional"], row["games_after"]) == (1645, True, 30)
    table = elo_rate("CFC", [["id", "rating", "games"]] + [[p["id"], p["rating"] or "", p["games"]] for p in players],
                     [["round", "player", "opponent", "result"]] + [[i + 1, "new", f"o{i}", i % 2] for i in range(30)])
    head = table[0]
    new = next(r for r in table[1:] if r[0] == "new")
    assert new[head.index("provisional")] == "yes" and new[head.index("rating_after")] == 1645
    after = calc_json("--rating", "1645", "--rated-games", "30", "--games", "1645 1")
    assert (after["formula"], after["provisional"]) == ("414b", False)
    # a provisional player whose event holds his 25th game is established by it (414b)
    assert calc_json("--rating", "1600", "--rated-games", "24", "--games", "1600 1")["provisional"] is False
    assert calc_json("--rating", "1600", "--rated-games", "23", "--games", "1600 1")["provisional"] is True


# --------------------------------------------------------------------------- TRF: never FIDE's rating


def test_a_trf_report_gives_cfc_ratings_only_from_its_can_records(tmp_path, capsys):
    """Rules 11.11: a TRF report's ratings are FIDE's; ``-f cfc`` takes a CFC rating only from a CAN
    national-rating record, so a report without any is refused, never rated with FIDE's numbers."""
    from conftest import DATA

    from xl_elo.formats.trf import players_of
    from xl_elo.model import Entrant, NationalRating

    path = DATA / "trf" / "xlelo_club_2026.trf"  # FIDE ratings, no national record
    assert main(["rate", "-f", "cfc", str(path), "--format", "json"]) == 1
    err = capsys.readouterr().err
    assert "xlelo_club_2026.trf" in err and "holds no CAN national-rating record" in err
    warnings: list[str] = []
    entrants = [("1", Entrant("One", 2100.0, national=(NationalRating("CAN", 2210.0),)), 1),
                ("2", Entrant("Two", 1900.0), 2)]
    players = players_of(cfc, entrants, warnings)
    assert [p.rating for p in players] == [2210.0, None]
    assert players[0].games is None and any("never taken" in w for w in warnings)  # not known: the engine says so


def test_a_trf_report_leaves_the_games_after_blank(tmp_path, capsys):
    """Rules 11.10: a TRF report does not give the games before; its rated players count as established (414b),
    said once, and their games after are left blank, never the stand-in's 25 + 3 = 28 the probe found. The
    probe's report (test_uscf.PROBE_TRF) with CAN records."""
    from test_uscf import PROBE_TRF

    path = tmp_path / "ca.trf"
    path.write_text(PROBE_TRF.replace("USA    ", "CAN    "), encoding="utf-8")
    assert main(["rate", "-f", "cfc", str(path), "--format", "json"]) == 0
    out = capsys.readouterr()
    rows = {r["name"]: r for r in json.loads(out.out)["results"]}
    assert [rows[n]["games_after"] for n in ("Smith, John", "Lee, Bob", "Ray, Ann")] == [None, None, None]
    assert rows["Smith, John"]["formula"] == "414b" and rows["Young, Tim"]["games_after"] == 3
    assert out.err.count("without their rated games before") == 1


# --------------------------------------------------------------------------- properties


ratings = st.integers(100, 3000)


@given(ratings, ratings)
def test_the_table_is_symmetric_and_monotone(a, b):
    """Rules 11.3: the two sides of a game expect 1 between them; a higher rating never expects less."""
    assert cfc.table_hundredths(a - b) + cfc.table_hundredths(b - a) == 100
    assert cfc.table_hundredths(a + 1 - b) >= cfc.table_hundredths(a - b)


games_st = st.lists(st.tuples(st.integers(300, 2900), st.sampled_from([0.0, 0.5, 1.0])), min_size=1, max_size=12)


@settings(max_examples=150, deadline=None)
@given(st.integers(300, 2900), games_st, st.one_of(st.none(), st.integers(300, 3000)))
def test_established_invariants(rating, games, highest):
    """Rules 11.5, 11.6, 11.9: the rating before the bonus moves with S - Sx and never across 2199 more than
    the rules allow; the bonus is never negative and nothing below 4 games; the floors hold; the order of the
    games does not matter."""
    player = cfc.Player("p", rating=float(rating), games=100, highest=None if highest is None else float(highest))
    calc = cfc.calculate(player, [OpponentGame(float(o), s) for o, s in games])
    own = dict(calc.own)
    s_minus_sx = calc.score - calc.expected
    moved = own["rating_before_bonus"] - rating
    assert moved == 0 or (moved > 0) == (s_minus_sx > 0)
    assert abs(own["rn"] - rating) <= 32 * abs(s_minus_sx) + 1e-9
    assert calc.bonus >= 0 and (len(games) >= 4 or calc.bonus == 0)
    assert calc.rating_after >= cfc.BOTTOM
    if rating > cfc.LOW_FLOOR:
        assert calc.rating_after >= cfc.LOW_FLOOR
    else:
        assert calc.rating_after >= rating
    reverse = cfc.calculate(player, [OpponentGame(float(o), s) for o, s in reversed(games)])
    assert reverse.rating_after == calc.rating_after


@settings(max_examples=100, deadline=None)
@given(st.integers(300, 2900), st.integers(0, 24), games_st)
def test_a_provisional_rating_lies_between_the_old_one_and_the_performance(rating, before, games):
    """Rules 11.4 (415): the cumulative 414a is the average of the old rating and the performance weighted
    by their games."""
    if before + len(games) >= cfc.ESTABLISHED_GAMES:
        return
    calc = cfc.calculate(cfc.Player("p", rating=float(rating), games=before),
                         [OpponentGame(float(o), s) for o, s in games])
    low, high = sorted((float(rating), calc.performance))
    assert math.floor(low) - 0.5 <= dict(calc.own)["rating_before_bonus"] <= math.ceil(high) + 0.5


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10_000))
def test_an_event_rates_each_player_as_his_own_calculation(seed):
    """Rules 11.7: every player of a whole event gets what his one-player calculation gives against his
    opponents at the ratings 417 counts them with (step 5's for established players, the event's results
    for the others), for random events with unrated and provisional players."""
    from gen import random_event

    ev = random_event(seed, 12, 5, unrated=0.25, federation="cfc", period=None)
    try:
        res = rate("cfc", ev)
    except Exception as exc:  # more than half unrated, or nobody rated: refused, as 417.1a and 419 say
        assert "417.1a" in str(exc) or "419" in str(exc)
        return
    rows = res.by_id()
    players = {p.id: p for p in ev.players}
    seen = {pid: (r["rating_after"] - r["floor"] if r["formula"] == "414a" else r["rating_before"])
            for pid, r in rows.items()}
    for pid, row in rows.items():
        p = players[pid]
        if row["formula"] != "414b":
            continue
        games = []
        for g in ev.games:
            if not g.counts or pid not in (g.player, g.opponent):
                continue
            other = g.opponent if g.player == pid else g.player
            score = g.result.score if g.player == pid else 1 - g.result.score
            games.append(OpponentGame(seen[other], score))
        calc = cfc.calculate(p, games)
        assert (calc.expected, calc.rating_after) == (row["expected"], row["rating_after"]), pid


# --------------------------------------------------------------------------- every threshold, at it and beside it


@pytest.mark.parametrize("rating, k, after", [
    # 414b: K 16 from 2199; a win over an equal player; from below 2199 the part above 2199 is halved:
    # 2198 + 16 = 2214 -> 2199 + 15 / 2 = 2206.5 -> 2207; 2199 + 8 = 2207; 2200 + 8 = 2208
    (2198, 32, 2207), (2199, 16, 2207), (2200, 16, 2208),
])
def test_the_k_edge(rating, k, after):
    doc = calc_json("--rating", str(rating), "--games", f"{rating} 1")
    assert (doc["k"], doc["rating_after"]) == (k, after)
    assert cfc.k_factor(rating) == k


@pytest.mark.parametrize("rating, after", [
    # 414b: a player above 2199 who ends below 2200 loses twice the part below 2200; a loss to an equal player
    # (K 16, -8): 2199 -> 2191 (not above 2199); 2200 -> 2192 -> 2200 - 2 x 8 = 2184; 2201 -> 2200 - 2 x 7 = 2186
    (2199, 2191), (2200, 2184), (2201, 2186),
])
def test_the_loss_pivot_edge(rating, after):
    assert calc_json("--rating", str(rating), "--games", f"{rating} 0")["rating_after"] == after


@pytest.mark.parametrize("games, formula, after", [
    # 415: 414a over the first 24 games, 414b from the event of the 25th: a win over an equal 1500 (performance
    # 1900): (23 x 1500 + 1900) / 24 = 1516.7 -> 1517; with 24 before, 414b: 1500 + 16
    (23, "414a", 1517), (24, "414b", 1516), (25, "414b", 1516),
])
def test_the_25th_game_edge(games, formula, after):
    doc = calc_json("--rating", "1500", "--rated-games", str(games), "--games", "1500 1")
    assert (doc["formula"], doc["rating_after"]) == (formula, after)


@pytest.mark.parametrize("n, bonus", [
    # 414d: no bonus below 4 games; n wins over equal players: 16 n; threshold 13 sqrt(n); 1.75 (64 - 26) = 66.5
    (3, 0), (4, 67),
])
def test_the_4_games_bonus_edge(n, bonus):
    doc = calc_json("--rating", "1500", "--games", ", ".join(["1500 1"] * n))
    assert (doc["bonus"], doc["rating_after"]) == (bonus, 1500 + 16 * n + bonus)


@pytest.mark.parametrize("n, published", [(2, False), (3, True), (4, True)])
def test_the_3_games_publication_edge(n, published):
    """434: a rating is published from 3 rated games."""
    doc = calc_json("--rating", "unrated", "--games", ", ".join(["1500 1"] * n))
    assert any("published from 3" in note for note in doc.get("notes", [])) != published


@pytest.mark.parametrize("gap, rated", [(399, True), (400, True), (401, False)])
def test_the_400_points_match_edge(gap, rated):
    """413c: a match between players more than 400 points apart is not rated by the CFC: a warning says so."""
    res = rate("cfc", event([dict(id="a", rating=1500 + gap, games=50), dict(id="b", rating=1500, games=50)],
                            [(1, "a", "b", 1), (2, "a", "b", 1)], period=None))
    assert any("400" in w and "not rated" in w for w in res.warnings) != rated


@pytest.mark.parametrize("unrated, refused", [(1, False), (2, False), (3, True)])
def test_the_half_unrated_edge(unrated, refused):
    """417.1: when more than 50 % of the players are unrated the operator gives their preliminary rating; at
    50 % it is computed. Two rated players and 1, 2 or 3 unrated ones, a round robin."""
    from xl_elo.model import InputError

    players = [dict(id="a", rating=1600, games=50), dict(id="b", rating=1500, games=50)]
    players += [dict(id=f"u{i}") for i in range(unrated)]
    ids = [p["id"] for p in players]
    games = [(1, x, y, 0.5) for i, x in enumerate(ids) for y in ids[i + 1:]]
    ev = event(players, games, period=None)
    if refused:
        with pytest.raises(InputError, match="417"):
            rate("cfc", ev)
    else:
        assert rate("cfc", ev).by_id()["u0"]["rating_after"] is not None
