"""FFE (SPEC 5): every update rule with its numbers written out, the window, D(P), the
iterative method for unrated players, rounding and conversions."""

from __future__ import annotations

from statistics import NormalDist

import pytest
from conftest import event

from xl_elo import rate
from xl_elo.federations import ffe
from xl_elo.frontends.cli import main


@pytest.mark.parametrize(
    "args, rule, elo, archive",
    [
        # 1.a: (16 * 1600 + 4 * 1500) / 20 = 1580
        (dict(nj=4, pj=1500, ei=1600), "1.a", 1580, (None, None)),
        # 1.b: senior with 16 compatible games, junior with 8: Ej = Pj = 1703 -> 1700
        (dict(nj=16, pj=1703, ei=1600), "1.b", 1700, (None, None)),
        (dict(nj=8, pj=1703, ei=1600, junior=True), "1.b", 1700, (None, None)),
        # 1.c: senior with 8: (1700 * 8 + 8 * 1600) / 16 = 1650
        (dict(nj=8, pj=1700, ei=1600), "1.c", 1650, (None, None)),
        # 1.c: junior with 7: (1700 * 7 + 9 * 1600) / 16 = 1643.75 -> 1640
        (dict(nj=7, pj=1700, ei=1600, junior=True), "1.c", 1640, (None, None)),
        # 2.a: archive (1500, 5), 8 games at 1604 -> 1600
        (dict(nj=8, pj=1604, archive_perf=1500, archive_games=5), "2.a", 1600, (None, None)),
        # 2.b: archive (1500, 3), 4 games at 1600 -> new archive (6400 + 4500) / 7 = 1557.142857, 7
        (dict(nj=4, pj=1600, archive_perf=1500, archive_games=3), "2.b", None, (10900 / 7, 7)),
        # 2.c: archive (1500, 5), 4 games at 1600 -> (6400 + 7500) / 9 = 1544.44 -> 1540
        (dict(nj=4, pj=1600, archive_perf=1500, archive_games=5), "2.c", 1540, (None, None)),
        # 3.a: 5 games at 1432.5 -> archive (1432.5, 5), decimals kept
        (dict(nj=5, pj=1432.5), "3.a", None, (1432.5, 5)),
        # 3.b: 9 games at 1435 -> 1440 (5 goes up)
        (dict(nj=9, pj=1435), "3.b", 1440, (None, None)),
    ],
)
def test_update_rules(args, rule, elo, archive):
    u = ffe.update(**args)
    assert (u.rule, u.elo) == (rule, elo)
    assert u.archive_perf == (pytest.approx(archive[0]) if archive[0] else None)
    assert u.archive_games == archive[1]


def test_rated_player_in_a_period():
    """A (1600, senior) W W D L against four 1600s: Sc 2.5, Nj 4, P 0.625,
    D = (2000/7) * 0.3186394 = 91.0398, Pj = 1691.04, 1.c: (4 * 1691.04 + 12 * 1600) / 16
    = 1622.76 -> 1620. B lost his only game: D(0) = -470, Pj = 1130, 1.a:
    (16 * 1600 + 1130) / 17 = 1572.35 -> 1570."""
    players = [dict(id=x, rating=1600, games=50) for x in "ABCDE"]
    res = rate("ffe", event(players, [(1, "A", "B", 1), (2, "A", "C", 1), (3, "A", "D", 0.5),
                                      (4, "A", "E", 0)])).by_id()
    a = res["A"]
    assert (a["nj"], a["sc"], a["ea"], a["p"]) == (4, 2.5, 1600, 0.625)
    assert a["dp"] == pytest.approx(91.0398, abs=1e-3)
    assert a["pj"] == pytest.approx(1691.0398, abs=1e-3)
    assert (a["rule"], a["rating_after"], a["change"]) == ("1.c", 1620, 20)
    assert (res["B"]["rule"], res["B"]["pj"], res["B"]["rating_after"]) == ("1.a", 1130, 1570)


def test_compatibility_window():
    """1800 beats 1440 (not above 1800 - 350: ignored) and 1460 (kept), loses to 2160 (not below
    2150: ignored), draws 2500 (draws always count): Nj 2, Ea 1980, P 0.75, D 192.71, Pj 2172.71,
    1.c: (2 * 2172.71 + 14 * 1800) / 16 = 1846.59 -> 1850."""
    assert ffe.compatible(1800, [1440, 1450, 1460], [1, 1, 1]).tolist() == [False, False, True]
    assert ffe.compatible(1800, [2160, 2150, 2140], [0, 0, 0]).tolist() == [False, False, True]
    players = [dict(id="p", rating=1800, games=50)] + [dict(id=f"o{r}", rating=r, games=50)
                                                       for r in (1440, 1460, 2160, 2500)]
    games = [(1, "p", "o1440", 1), (2, "p", "o1460", 1), (3, "p", "o2160", 0), (4, "p", "o2500", 0.5)]
    row = rate("ffe", event(players, games)).by_id()["p"]
    assert (row["nj"], row["sc"], row["ea"]) == (2, 1.5, 1980)
    assert row["pj"] == pytest.approx(2172.71, abs=0.01)
    assert (row["rule"], row["rating_after"]) == ("1.c", 1850)


def test_pj_floor_1000():
    players = [dict(id="p", rating=1100, games=50), dict(id="q", rating=1200, games=50)]
    row = rate("ffe", event(players, [(1, "p", "q", 0)])).by_id()["p"]
    assert row["pj"] == 1000  # 1200 - 470 = 730 raised to 1000


def test_dp_method_option_changes_d():
    players = [dict(id=x, rating=1600, games=50) for x in "ABC"]
    ev = event(players, [(1, "A", "B", 1), (2, "A", "C", 0.5)])  # P = 0.75
    normal = rate("ffe", ev).by_id()["A"]["dp"]
    table = rate("ffe", ev, dp_method="table").by_id()["A"]["dp"]
    assert table == 193 and normal == pytest.approx(192.711, abs=1e-3)


def _reference_perf(est, opponents, scores):
    """Pj of SPEC 5.3 - 5.5 written out with the standard library's normal quantile."""
    keep = [(o, s) for o, s in zip(opponents, scores, strict=True)
            if s == 0.5 or (s == 1 and o > est - 350) or (s == 0 and o < est + 350)]
    if not keep:
        return None
    ea = sum(o for o, _ in keep) / len(keep)
    p = sum(s for _, s in keep) / len(keep)
    d = 470.0 if p >= 1 else -470.0 if p <= 0 else max(-470.0, min(470.0, 2000 / 7 * NormalDist().inv_cdf(p)))
    return max(1000.0, ea + d)


def _round_robin():
    """Ten players, all-play-all: seven rated, three unrated who meet each other."""
    ratings = [2010, 1880, 1760, 1690, 1610, 1540, 1450]
    players = [dict(id=f"r{i}", rating=r, games=80) for i, r in enumerate(ratings)]
    players += [dict(id="u1"), dict(id="u2", archive_perf=1500, archive_games=4), dict(id="u3", category="junior")]
    results = [0.5, 1, 1, 1, 1, 1, 1, 0.5, 1, 1, 1, 1, 1, 1, 0.5, 1, 1, 1, 1, 1, 1, 0.5, 1, 1, 1, 1, 1, 0, 0.5,
               1, 1, 0, 0.5, 1, 0.5, 0, 0, 0.5, 0, 0, 0.5, 0.5, 1, 1, 1]
    ids = [p["id"] for p in players]
    pairs = [(a, b) for i, a in enumerate(ids) for b in ids[i + 1:]]
    return players, [(None, a, b, r) for (a, b), r in zip(pairs, results, strict=True)]


UNRATED_EVENT = _round_robin()


def test_iteration_settles_and_each_estimate_is_its_own_performance():
    """SPEC 5.10: every unrated player's final estimate is within 20 of his performance
    computed (independently here) with the window centred on it and opponents at their
    final estimates."""
    ev = event(*UNRATED_EVENT)
    res = rate("ffe", ev).by_id()
    seen = {pid: (row["rating_before"] if row["rating_before"] is not None else row["pj"]) for pid, row in res.items()}
    for pid in ("u1", "u2", "u3"):
        row = res[pid]
        assert "still moving" not in row["note"] and 1 <= row["rounds"] <= 25
        opps = [(g.opponent if g.player == pid else g.player, g.result.score if g.player == pid else 1 - g.result.score)
                for g in ev.games if pid in (g.player, g.opponent)]
        perf = _reference_perf(row["pj"], [seen[o] for o, _ in opps], [s for _, s in opps])
        assert abs(perf - row["pj"]) < 20, pid
        assert row["performance"] == pytest.approx(perf)  # shown beside the estimate
    assert res["u1"]["rule"] == "3.a" and res["u3"]["rule"] == "3.a"
    # u2 has an archive (1500, 4) and 8 or more compatible games: 2.a, Ej = Pj, to the ten
    assert res["u2"]["nj"] >= 8 and res["u2"]["rule"] == "2.a"
    assert res["u2"]["rating_after"] == 10 * int(res["u2"]["pj"] / 10 + 0.5)


def test_iteration_does_not_depend_on_the_start_beyond_the_tolerance():
    """SPEC 5.10 accepts an estimate within 20 of its performance, so a run started low stops
    below the performance and one started high above it: the two may lie up to 2 x 20 apart,
    and no further. Both are within 20 of their own performance (test above)."""
    ev = event(*UNRATED_EVENT)
    low = rate("ffe", ev, start=1000).by_id()
    high = rate("ffe", ev, start=2000).by_id()
    for pid in ("u1", "u2", "u3"):
        assert abs(low[pid]["pj"] - high[pid]["pj"]) < 2 * ffe.SETTLE, pid
    assert abs(low["u2"]["rating_after"] - high["u2"]["rating_after"]) <= 2 * ffe.SETTLE


def test_rated_opponents_see_the_unrated_estimate():
    ev = event(*UNRATED_EVENT)
    res = rate("ffe", ev).by_id()
    # r0 (2010) drew r1 and u2 and beat everybody else. A win is compatible only against an
    # opponent above 2010 - 350 = 1660: r4, r5, r6 and u3 (about 1360) drop out, u1 (about
    # 1825, his estimate) stays.
    r0 = res["r0"]
    assert res["u3"]["pj"] < 1660 < res["u1"]["pj"]
    opponents = [1880, 1760, 1690, res["u1"]["pj"], res["u2"]["pj"]]  # the compatible ones
    assert r0["nj"] == len(opponents)
    assert r0["ea"] == pytest.approx(sum(opponents) / len(opponents))


def test_convert_command(capsys):
    assert main(["convert", "180", "--from", "bcr", "--to", "elo"]) == 0
    assert capsys.readouterr().out.strip() == "180 BCR = 2040 ELO"
    assert main(["convert", "2040", "--from", "elo", "--to", "bcr"]) == 0
    assert capsys.readouterr().out.strip() == "2040 ELO = 180 BCR"
    assert main(["convert", "1", "--from", "uscf"]) == 2


#: The FFE's arbiters' bulletin (Bulletin des Arbitres Fédéraux n° 103, "IV - Le classement Elo FFE", a manual
#: calculation that leaves the unrated opponents out): each player's rated, compatible opponents and results.
#: IENTILE and GRAND are seniors, LUCOTTE an unrated junior; 2261 and 2209 are FIDE ratings, as the FFE's list
#: carries a FIDE-rated player's (rules 5.9). GRAND's two losses to 1700 and 1650 (beyond 1270 + 350) are the
#: incompatible games the bulletin leaves out.
BULLETIN = {
    "ientile": (1970, "senior", [(1780, 1), (2261, 0), (1920, 1), (2180, 1), (2210, 0.5), (2160, 0.5), (2130, 1)]),
    "lucotte": (None, "junior", [(1910, 1), (1970, 1), (2209, 0), (1920, 1), (1750, 0.5), (1710, 0), (1920, 0),
                                 (1690, 0)]),
    "grand": (1270, "senior", [(1560, 0), (1530, 0), (1320, 0), (1280, 0), (1260, 1), (1520, 0), (1700, 0),
                               (1650, 0)]),
}


def _bulletin_files(folder, who):
    rating, category, games = BULLETIN[who]
    players = [f"{who},{'' if rating is None else rating},{50 if rating else 0},{category}"]
    players += [f"o{k},{r},50,senior" for k, (r, _) in enumerate(games)]
    (folder / "players.csv").write_text("id,rating,games,category\n" + "\n".join(players) + "\n", encoding="utf-8")
    (folder / "games.csv").write_text("round,player,opponent,result\n" + "".join(
        f"{k + 1},{who},o{k},{s}\n" for k, (_, s) in enumerate(games)), encoding="utf-8")
    return ["-p", str(folder / "players.csv"), "-g", str(folder / "games.csv")]


def _bulletin_row(tmp_path, capsys, who, *options):
    import json

    assert main(["rate", "-f", "ffe", *_bulletin_files(tmp_path, who), "--format", "json", *options]) == 0
    return next(r for r in json.loads(capsys.readouterr().out)["results"] if r["id"] == who)


def test_the_arbiters_bulletin_ientile(tmp_path, capsys):
    """BAF 103: IENTILE (1970) scores 5/7 = 71.4 % against 2092 (2091.57: 1780, 2261 ...); D read in the table by
    interpolation, 158 + 0.4 x (166 - 158) = 161; Pj = 2253; a senior below 16 games is braked (1.c):
    (2253 x 7 + 1970 x 9) / 16 = 2093.81, rounded to 2090. The FIDE rating 2261 is read as it is (rules 5.9)."""
    row = _bulletin_row(tmp_path, capsys, "ientile", "--dp-method", "table")
    assert (row["rule"], row["nj"], row["sc"]) == ("1.c", 7, 5)
    assert round(row["ea"]) == 2092 and row["ea"] == pytest.approx(14641 / 7)
    assert round(row["dp"]) == 161 and round(row["pj"]) == 2253
    assert round(row["ej"], 2) == 2093.81 and row["rating_after"] == 2090
    assert _bulletin_row(tmp_path, capsys, "ientile")["rating_after"] == 2090  # D(P) by the normal law too


def test_the_arbiters_bulletin_lucotte(tmp_path, capsys):
    """BAF 103: LUCOTTE, an unrated junior, scores 3.5 of 8 against 1884.875: 43.75 %, a malus of -43 (-44.75 by
    interpolation), a first performance of 1840; the window reaches 1840 + 350 = 2190, so his loss to the 2209
    (a FIDE rating) is left out: 3.5 of 7 against 1838.5 (1838.57), and 7 games miss the quota of 8: archives
    are made (3.a), no Elo."""
    row = _bulletin_row(tmp_path, capsys, "lucotte", "--dp-method", "table")
    assert (row["rule"], row["nj"], row["sc"], row["p"]) == ("3.a", 7, 3.5, 0.5)
    assert int(row["ea"] * 10) / 10 == 1838.5 and row["ea"] == pytest.approx(12870 / 7)
    assert row["rating_after"] is None and row["archive_games"] == 7
    assert round(row["archive_perf"]) == 1840 and row["archive_perf"] == pytest.approx(15079 / 8 - 44.75)


def test_the_arbiters_bulletin_grand(tmp_path, capsys):
    """BAF 103: GRAND (1270) counts only his compatible games, his losses to players of 1620 and more left out:
    6 games against (1560 + 1530 + 1320 + 1280 + 1260 + 1520) / 6 = 1411.67, 1 point (16.67 %); the bulletin
    reads -284 at the row .16 where xl-elo interpolates (-276.67): braked (1.a), (16 x 1270 + 6 x 1128) / 22 =
    1231 there, 1233.18 here; both round to 1230."""
    row = _bulletin_row(tmp_path, capsys, "grand", "--dp-method", "table")
    assert (row["rule"], row["nj"], row["sc"]) == ("1.a", 6, 1)
    assert round(row["ea"], 2) == 1411.67
    assert row["rating_after"] == 1230
    assert _bulletin_row(tmp_path, capsys, "grand")["rating_after"] == 1230


def test_any_whole_elo_is_read(tmp_path, capsys):
    """A FIDE-rated player carries his FIDE rating in the FFE's list (rules 5.9): 2042 is read as it is, in a CSV
    file, in calc and in the functions; the new Elo is the FFE's, rounded to ten."""
    from xl_elo.frontends.functions import elo_change

    (tmp_path / "players.csv").write_text("id,rating,games\na,2042,50\nb,1800,50\n", encoding="utf-8")
    (tmp_path / "games.csv").write_text("player,opponent,result\na,b,1\n", encoding="utf-8")
    assert main(["rate", "-f", "ffe", "-p", str(tmp_path / "players.csv"), "-g", str(tmp_path / "games.csv"),
                 "--format", "csv"]) == 0
    out = capsys.readouterr().out
    assert "a,,established,2042," in out or ",2042," in out
    assert main(["calc", "ffe", "--rating", "2261", "--games", "2209 1"]) == 0
    assert "rating before 2261" in capsys.readouterr().out
    assert elo_change("FFE", 2261, [[2209]], [[1]]) is not None




# --------------------------------------------------------------------------- every threshold, at it and beside it


def _ffe_one(rating, category, opponents, results, **options):
    players = [dict(id="me", rating=rating, games=50 if rating else 0, category=category)]
    players += [dict(id=f"o{i}", rating=o, games=50) for i, o in enumerate(opponents)]
    games = [(i + 1, "me", f"o{i}", s) for i, s in enumerate(results)]
    return rate("ffe", event(players, games, period=None), **options).by_id()["me"]


@pytest.mark.parametrize("opponent, result, compatible", [
    # rules 5.2 around Ei = 1800: a win counts against more than 1450, a loss against less than 2150, a draw always
    (1449, 1, False), (1450, 1, False), (1451, 1, True),
    (2151, 0, False), (2150, 0, False), (2149, 0, True), (1000, 0.5, True), (2600, 0.5, True),
])
def test_the_350_window_edges(opponent, result, compatible):
    assert _ffe_one(1800, "senior", [opponent], [result])["nj"] == int(compatible)


@pytest.mark.parametrize("category, n, rule, elo", [
    # rules 5.6: Pj 1700 (draws with 1700s) above Ei 1500: Ej = Pj from 16 compatible games for a senior, 8 for a
    # junior; fewer: (Pj x Nj + (16 - Nj) x Ei) / 16, rounded to ten (5 up)
    ("senior", 15, "1.c", 1690),   # (25500 + 1500) / 16 = 1687.5
    ("senior", 16, "1.b", 1700), ("senior", 17, "1.b", 1700),
    ("junior", 7, "1.c", 1590),    # (11900 + 13500) / 16 = 1587.5
    ("junior", 8, "1.b", 1700), ("junior", 9, "1.b", 1700),
])
def test_the_quota_edges(category, n, rule, elo):
    row = _ffe_one(1500, category, [1700] * n, [0.5] * n)
    assert (row["rule"], row["rating_after"]) == (rule, elo)


@pytest.mark.parametrize("n, rule, elo, archive", [
    # rules 5.8: a new player's first Elo from 8 compatible games; fewer are archived
    (7, "3.a", None, 1700), (8, "3.b", 1700, None), (9, "3.b", 1700, None),
])
def test_the_first_elo_quota_edge(n, rule, elo, archive):
    row = _ffe_one(None, "senior", [1700] * n, [0.5] * n)
    assert (row["rule"], row["rating_after"], row["archive_perf"]) == (rule, elo, archive)


@pytest.mark.parametrize("wins, games, method, dp", [
    # rules 5.4: D bounded to +-470 beyond P 0.95; normal: (2000 / 7) x Phi^-1(0.95) = 285.714 x 1.644854 = 469.96
    (19, 20, "normal", 469.958), (20, 21, "normal", 470.0), (1, 20, "normal", -469.958), (1, 21, "normal", -470.0),
    # the table: 0.95 reads 470, 0.96 reads 501, bounded to 470
    (19, 20, "table", 470.0), (24, 25, "table", 470.0),
])
def test_the_470_bound(wins, games, method, dp):
    row = _ffe_one(1500, "senior", [1500] * games, [1] * wins + [0] * (games - wins), dp_method=method)
    assert row["dp"] == pytest.approx(dp, abs=1e-3)


@pytest.mark.parametrize("opponent, pj", [(1365, 1000.0), (1366, 1000.0), (1367, 1001.0)])
def test_the_1000_floor_of_pj(opponent, pj):
    """Rules 5.5: 1 win in 10 against one rating (P 0.10, the table's -366): Pj = Ea - 366, raised to 1000;
    below Ei 1200 it brakes (1.a): (16 x 1200 + 10 x Pj) / 26 = 1123.1 or 1123.5, 1120."""
    row = _ffe_one(1200, "senior", [opponent] * 10, [1] + [0] * 9, dp_method="table")
    assert (row["pj"], row["rule"], row["rating_after"]) == (pj, "1.a", 1120)
