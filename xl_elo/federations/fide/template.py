"""The FIDE template: a rating month with native formulas (rules 2), every column headed by its rule.

Its formulas of a player's period (K, the change, the performance, a first rating, the notes) are functions here,
shared with the season template (:func:`season_spec`, twelve months one after another: rules 14, at the end of this
module), which it declares (:data:`SEASON`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any, Final

import xl_elo.federations.fide as fide
from xl_elo.model import MAX_GAMES_PER_PLAYER
from xl_elo.tables import FIDE_DP_TABLE, FIDE_PD_ROWS
from xl_elo.templates.common import (
    POS,
    blank,
    event_setting,
    game_checks,
    game_inputs,
    key_columns,
    option_settings,
    period_check,
    period_key,
    period_setting,
    player_checks,
    player_inputs,
    reason,
    results_layout,
    sides_sheet,
    sort_columns,
    text_of,
    work_sheet,
    yes_no_input,
    yes_value,
)
from xl_elo.templates.spec import FIRST, Capacity, Col, Input, ResultCol, Setting, Sheet, Template
from xl_elo.words import F, _, text_formula

#: The rooms shipped in workbooks/: a club's rating month: its tournaments and league games, 40 players (one printed
#: page),
#: then a larger event's (its own file, named for its room). Any other: xl-elo workbooks --players N.
ROOMS = (Capacity(40, 300, 0), Capacity(120, 1200, 0))
CAPACITY = ROOMS[0]
#: The languages shipped, the first unsuffixed: FIDE's own language; xl-elo workbooks --language builds it in any
#: catalogue's, every phrase in those of SPEAKS (FIDE's terms as its handbook's translations use them).
LANGUAGES = ('en',)
SPEAKS: tuple[str, ...] = ('fr', 'de', 'it')

FILE = "fide_period.xlsx"

#: The setting ``list`` is the standard list (rules 2.9).
STANDARD = 'LOWER(TRIM(opt_list&""))="standard"'


def far(rw: str, ro: str) -> str:
    """Two rated players' game that is not rated: rapid or blitz, far apart, one above (rules 2.9)."""
    return (f'IF({STANDARD},FALSE,AND(ABS({rw}-{ro})>={fide.NOT_RATED_GAP},MAX({rw},{ro})>'
            f'{fide.NOT_RATED_ABOVE}))')


def capped(rw: str, ro: str) -> str:
    """The rating difference as it counts: more than {cap} counts {cap}, but for a player rated from
    NO_CAP_FROM on the standard list (rules 2.2)."""
    return (f'IF(AND({STANDARD},{rw}>={fide.NO_CAP_FROM}),{rw}-{ro},MAX(-{fide.DIFFERENCE_CAP},'
            f'MIN({fide.DIFFERENCE_CAP},{rw}-{ro})))')


def pd(rw: str, ro: str, difference: str) -> str:
    """PD x 100 from FIDE's table over the difference as it counts (the course's formula: 100 E; rules 2.2)."""
    return (f'IF(TRIM(opt_expected_method&"")="logistic",100/(1+10^(({ro}-{rw})/400)),'
            f'IF({difference}>=0,LOOKUP({difference},fide_lower,fide_pct),100-LOOKUP(-{difference},fide_lower,'
            'fide_pct)))')


def k_columns() -> list[Col]:
    """A rated player's K and change from his period's sums ``n`` (rated games), ``s`` (their score) and ``pd``
    (their PD x 100) and his ``games``, ``age``, ``rating`` and ``ever`` (2400 reached) before it (rules 2.1, 2.3)."""
    return [
        Col("kbase", _("K before the {most} rule", most=fide.K_TIMES_GAMES_MAX),
            f'=IF(OR([games]<{fide.NEW_PLAYER_GAMES},AND(ISNUMBER([age]),N([age])<={fide.JUNIOR_AGE},'
            f'N([rating])<{fide.JUNIOR_RATING_LIMIT})),{fide.K_NEW},IF(OR([ever]=1,N([rating])>={fide.K10_RATING}),'
            f'{fide.K_2400},{fide.K_STANDARD}))', "2.3"),
        Col("k", "K", f'=IF([n]>0,MIN([kbase],INT({fide.K_TIMES_GAMES_MAX}/[n])),[kbase])', "2.3"),
        Col("change", "change, halves away from zero",
            '=IF(TRIM(opt_expected_method&"")="logistic",SIGN([k]*([s]-[pd]/100))*INT(ABS([k]*([s]-[pd]/100))+0.5),'
            'SIGN([k]*(100*[s]-[pd]))*INT((ABS([k]*(100*[s]-[pd]))+50)/100))', "2.1", fmt="0"),
    ]


def performance_columns() -> list[Col]:
    """A rated player's performance from ``n``, ``s`` and ``so``, the sum of his rated opponents (rules 2.6)."""
    return [
        Col("ppct", "p x 100", '=IF([n]>0,INT((400*[s]+2*[n])/(4*[n])),"")', "2.6"),
        Col("dp", "dp", '=IF([n]=0,"",INDEX(fide_dp,[ppct]+1))', "2.6"),
        Col("perf", "performance", '=IF([dp]="","",[so]/[n]+[dp])', "2.6", fmt="0.00"),
    ]


def first_rating_columns() -> list[Col]:
    """An unrated player's first rating from ``nn`` (his games against rated players), ``sn`` (their score) and
    ``son`` (the sum of their ratings; rules 2.4)."""
    return [
        Col("ra", "Ra", f'=([son]+2*{fide.HYPOTHETICAL_OPPONENT})/([nn]+2)', "2.4", fmt="0.00"),
        Col("npct", "p x 100 (two draws)", '=INT((400*[sn]+400+2*[nn]+4)/(4*[nn]+8))', "2.4"),
        Col("ndp", "dp (first rating)", "=INDEX(fide_dp,[npct]+1)", "2.4"),
        Col("enough", "enough for a first rating",
            f'=IF(AND([nn]>={fide.FIRST_RATING_MIN_GAMES},[sn]>={fide.FIRST_RATING_MIN_SCORE}),1,0)', "2.4"),
        Col("ru", "Ru", f'=MIN({fide.FIRST_RATING_CAP},INT([ra]+[ndp]+0.5))', "2.4"),
    ]


def notes(c: str = "") -> tuple[str, str]:
    """The note of a rated player (a new rating below the floor, games not rated) and of an unrated one (his first
    rating, or why none), over the columns above (their names prefixed with ``c``; rules 2.4, 2.8, 2.9), in the
    engine's words, each a phrase of the catalogues: xl-elo reads the engine's English back into them
    (xl_elo.words.translate), so a report says what the template says."""
    below = f"[{c}rating]+[{c}change]<{fide.RATING_FLOOR}"
    # the engine's notes (rules 2.4, 2.8, 2.9): its own phrases, their figures as placeholders
    floor_text = text_formula(fide.FLOOR_NOTE, rating=F(f"INT([{c}rating]+[{c}change])"), floor=fide.RATING_FLOOR)
    gap_text = text_formula(fide.GAP_NOTE, n=F(f"[{c}nfar]"), gap=fide.NOT_RATED_GAP, above=fide.NOT_RATED_ABOVE,
                            list=F('LOWER(TRIM(opt_list&""))'))
    rated_note = f'IF({below},{floor_text}&IF([{c}nfar]>0,"; "&{gap_text},""),IF([{c}nfar]>0,{gap_text},""))'
    nn, sn = f"[{c}nn]", f"[{c}sn]"
    few: dict[str, Any] = {"n": F(nn), "min": fide.FIRST_RATING_MIN_GAMES, "points": F(sn),
                           "min_points": fide.FIRST_RATING_MIN_SCORE}
    few_games, few_points = f"{nn}<{fide.FIRST_RATING_MIN_GAMES}", f"{sn}<{fide.FIRST_RATING_MIN_SCORE}"
    said = [text_formula(phrase, **few) for phrase in fide.FEW]
    why = (f'IF(AND({few_games},{few_points}),IF({nn}=1,{said[3]},{said[2]}),'
           f'IF({few_games},IF({nn}=1,{said[1]},{said[0]}),{said[4]}))')
    below_floor = text_formula(fide.BELOW_FLOOR_NOTE, rating=F(f"FIXED([{c}ra]+[{c}ndp],0,TRUE)"),
                               floor=fide.RATING_FLOOR)
    first_note = (f'IF([{c}enough]=0,{text_formula(fide.NO_FIRST_NOTE, why=F(why))},'
                  f'IF([{c}ru]<{fide.RATING_FLOOR},{below_floor},'
                  + text_formula(fide.FIRST_NOTE, ra=F(f"FIXED([{c}ra],2,TRUE)"), p=F(f"FIXED([{c}npct]/100,2,TRUE)"),
                                 dp=F(f"[{c}ndp]")) + '))')
    return rated_note, first_note


def rules() -> list[str]:
    """What FIDE's rules say, in words generated from their constants (rules 2)."""
    return [
        _("FIDE (xl-elo rules 2): the expected score PD from FIDE's table, a difference over {difference_cap} "
          "counting {difference_cap} below {no_cap_from}; K {k_new} for the first {new_player_games} games and, "
          "below {junior_rating_limit}, until the end of the year of the {junior_age}th birthday; {k_2400} once "
          "{k10_rating} was reached; {k_standard} otherwise; K x games at most {k_times_games_max}; the sum K x "
          "(score - PD) rounded, halves away from zero. Unrated players: a first rating from at least "
          "{first_rating_min_games} games against rated players with two draws against {hypothetical_opponent}, at "
          "most {first_rating_cap}, not published below {rating_floor}. A game against an unrated player is not "
          "rated for the rated one. A rated player whose new rating is below {rating_floor} is shown as unrated on "
          "the next list (no new rating). The setting list: standard, rapid or blitz; on the rapid and blitz lists "
          "the {difference_cap}-point rule holds for every player and a game between players {not_rated_gap} or more "
          "apart, one above {not_rated_above}, is not rated; a player without a rapid or blitz rating plays with his "
          "standard rating (type it as his rating).",
          difference_cap=fide.DIFFERENCE_CAP, no_cap_from=fide.NO_CAP_FROM, k_new=fide.K_NEW,
          new_player_games=fide.NEW_PLAYER_GAMES, junior_rating_limit=fide.JUNIOR_RATING_LIMIT,
          junior_age=fide.JUNIOR_AGE, k_2400=fide.K_2400, k10_rating=fide.K10_RATING, k_standard=fide.K_STANDARD,
          k_times_games_max=fide.K_TIMES_GAMES_MAX, first_rating_min_games=fide.FIRST_RATING_MIN_GAMES,
          hypothetical_opponent=fide.HYPOTHETICAL_OPPONENT, first_rating_cap=fide.FIRST_RATING_CAP,
          rating_floor=fide.RATING_FLOOR, not_rated_gap=fide.NOT_RATED_GAP, not_rated_above=fide.NOT_RATED_ABOVE),
    ]


def players() -> list[Input]:
    """The players sheet: the list before the period (rules 8)."""
    return player_inputs("id", "name", "rating", "games", "birth_year", own=[
        yes_no_input("ever_2400", _("Rating has reached {rating}: yes/no", rating=fide.K10_RATING), 10)])


def lists() -> list[tuple[str, list[str], Sequence[Sequence[Any]]]]:
    """FIDE's tables on the lists sheet, from the package's one transcription (rules 2.2, 2.6)."""
    return [("FIDE PD", ["fide_lower", "fide_pct"], [(lo, pct) for lo, _hi, pct in FIDE_PD_ROWS]),
            ("FIDE D(P)", ["fide_p", "fide_dp"], [(p, FIDE_DP_TABLE[p]) for p in range(101)])]


class Season:
    """The FIDE season template (rules 14): a club's internal list over a year, twelve monthly periods one after
    another, each rated from the list the month before left (:func:`season_spec`, below)."""

    FILE = "fide_season.xlsx"
    #: The rooms shipped: a club's year, 40 members (one printed page) and 300 games (each member's 15 rated games
    #: of a year on average: a monthly tournament of three rounds on ten boards, less the summer); the months laid
    #: out: twelve. Its formulas grow with the games (each game's side carries its rating and PD for every month):
    #: 300 games open, recalculate and save within 3 times LibreOffice's floor, 500 took 4 times (README). Then a
    #: larger club's (its own file, named for its room), over that target.
    ROOMS = (Capacity(40, 300, 0, 12), Capacity(80, 800, 0, 12))
    CAPACITY = ROOMS[0]
    LANGUAGES = ("en",)
    #: Languages it speaks besides: none yet (its own phrases are in English only).
    SPEAKS: tuple[str, ...] = ()
    SEASON = None

    @staticmethod
    def spec(cap: Capacity | None = None) -> Template:
        return season_spec(cap or Season.CAPACITY)


#: The system's season template (``xl-elo workbooks --only fide-season``: rules 14).
SEASON = Season


def spec(cap: Capacity | None = None) -> Template:
    cap = cap or CAPACITY
    sides = sides_sheet(cap)
    work = work_sheet(cap)
    # a rating typed recalculates every side: as few columns per side as the rules' steps need
    sides.add(
        Col("rw", "player's rating", '=IF([counts]=1,IF(INDEX(w_rated,[who])=1,INDEX(w_rating,[who]),""),"")', "2.1"),
        Col("ro", "opponent's rating", '=IF([counts]=1,IF(INDEX(w_rated,[opp])=1,INDEX(w_rating,[opp]),""),"")',
            "2.1"),
        Col("far", _('rapid, blitz: {not_rated_gap} apart, one above {not_rated_above}',
                     not_rated_gap=fide.NOT_RATED_GAP, not_rated_above=fide.NOT_RATED_ABOVE),
            f'=IF(AND(ISNUMBER([rw]),ISNUMBER([ro])),IF({far("[rw]", "[ro]")},1,0),0)', "2.9"),
        Col("both", "both rated: a rated game", '=IF(AND(ISNUMBER([rw]),ISNUMBER([ro])),1-[far],0)', "2.1"),
        Col("new", "unrated against rated", '=IF(AND([counts]=1,NOT(ISNUMBER([rw])),ISNUMBER([ro])),1,0)', "2.4"),
        Col("capped", _("difference, {cap}-point rule", cap=fide.DIFFERENCE_CAP),
            f'=IF([both]=1,{capped("[rw]", "[ro]")},"")', "2.2"),
        Col("pd", "PD x 100 (logistic: 100 E)", f'=IF([both]=1,{pd("[rw]", "[ro]", "[capped]")},"")', "2.2"),
    )
    work.add(*key_columns())
    work.add(
        Col("age", "age in the period's year",
            '=IF(AND(ISNUMBER([players:birth_year]),ISNUMBER(period_year)),period_year-[players:birth_year],"")',
            "2.3"),
        Col("ever", _("{rating} reached before", rating=fide.K10_RATING), "=" + yes_value("[players:ever_2400]"),
            "2.3"),
        Col("n", "games rated", f"=COUNTIFS(side_who,{POS},side_both,1)", "2.1"),
        Col("nfar", "games not rated (rapid, blitz: far apart)", f"=COUNTIFS(side_who,{POS},side_far,1)", "2.9"),
        Col("s", "score", f"=SUMIFS(side_score,side_who,{POS},side_both,1)", "2.1"),
        Col("nn", "games vs rated (unrated)", f"=COUNTIFS(side_who,{POS},side_new,1)", "2.4"),
        Col("sn", "score vs rated (unrated)", f"=SUMIFS(side_score,side_who,{POS},side_new,1)", "2.4"),
        Col("pd", "sum PD x 100", f"=SUMIFS(side_pd,side_who,{POS},side_both,1)", "2.2"),
        Col("so", "sum of opponents", f"=SUMIFS(side_ro,side_who,{POS},side_both,1)", "2.6"),
        *k_columns(),
        *performance_columns(),
        Col("son", "sum of rated opponents", f"=SUMIFS(side_ro,side_who,{POS},side_new,1)", "2.4"),
        *first_rating_columns(),
    )

    def rated(yes: str, no: str) -> str:
        return f'=IF([key]="","",IF([rated]=1,{yes},{no}))'

    below = f"[rating]+[change]<{fide.RATING_FLOOR}"
    rated_note, first_note = notes()
    work.add(
        Col("res_id", "results: id", '=[key]', "8"),
        Col("res_name", "results: name", '=IF([key]="","",[players:name]&"")', "8"),
        Col("res_status", "results: status", rated('"established"', '"unrated"'), "2"),
        Col("res_rating_before", "results: rating before", rated("[rating]", '""'), "2.1"),
        Col("res_games_rated", "results: games rated", rated("[n]", "[nn]"), "2.1"),
        Col("res_score", "results: score", rated("[s]", "[sn]"), "2.1"),
        Col("res_expected", "results: expected", rated("[pd]/100", '""'), "2.2"),
        Col("res_k", "results: K", rated("[k]", '""'), "2.3"),
        Col("res_performance", "results: performance", rated("[perf]", 'IF([enough]=1,[ra]+[ndp],"")'), "2.6"),
        Col("res_change", "results: change", rated("[change]", '""'), "2.1"),
        Col("res_bonus", "results: bonus", '=""', "8"),
        Col("res_rating_after", "results: new rating (not below the floor)",
            rated(f'IF({below},"",[rating]+[change])', f'IF(AND([enough]=1,[ru]>={fide.RATING_FLOOR}),[ru],"")'),
            "2.8"),
        Col("res_games_after", "results: games after", rated("[games]+[n]", "[games]+[nn]"), "2.1"),
        Col("res_ever_2400", _("results: {rating} reached", rating=fide.K10_RATING),
            rated(f'IF(OR([ever]=1,[rating]+[change]>={fide.K10_RATING}),"yes","no")', 'IF([ever]=1,"yes","no")'),
            "2.3"),
        Col("res_note", "results: note", rated(rated_note, first_note), "2.4"),
        Col("res_birth_year", "results: year of birth (the next period's)",
            '=IF([key]="","",IF(ISNUMBER([players:birth_year]),[players:birth_year],""))', "14.3"),
        *sort_columns(),
    )
    return Template(
        federation="fide", title="FIDE rating period",
        players=players(),
        games=game_inputs("round", "player", "opponent", "result"), history=None,
        settings=[period_setting(fide.NEEDS_PERIOD), event_setting(), *option_settings(fide.SYSTEM)],
        rules=rules(), sheets=[sides, work],
        results=results_layout(ResultCol("ever_2400", _("{rating} reached", rating=fide.K10_RATING), width=8),
                               ResultCol("note", "Note", width=56),
                               ResultCol("birth_year", "birth year", "0", printed=False)),
        lists=lists(),
        player_checks=player_checks(), game_checks=game_checks(), capacity=cap,
    )


# =========================================================================== the season template (rules 14)
# The FIDE season template (:class:`Season`): a club's internal list over twelve monthly periods, in native
# formulas (rules 2, 14).
#
# Each game names its month (the games' ``period`` column: ``2026-03``, or the day it was played, ``2026-03-14``);
# the season's first month is a setting, its twelve months follow. Each month is rated as FIDE rates a period (rules
# 2), from the list the month before left, exactly as ``xl-elo rate`` chains a season (rules 14.3): the new rating (a
# first rating, or none below the floor) and the games after, 2400 reached, K by the games, the age in the month's
# year and the rating before it. The sheets:
#
# - ``sides``: every game from both players, its month's place in the season, and for each month ``t`` the
#   opponent's rating before it (``ro<t>``, a rated opponent) and PD x 100 (``pd<t>``, a rated game) from the
#   players' values before that month;
# - ``period1`` ... ``period12``: one row per player and month: the list before it, the month's sums, K, the
#   change, a first rating, the list after it and the season's games so far;
# - ``work``: each player's start, his results in the season's last month with a game (what ``xl-elo rate`` gives
#   for the season: the list after it, and that month's figures), his rating after each month.
#
# A month's sheet reads only the one before it and the sides' columns of its own month, which read only its values
# before: no circular reference (as the Glicko-2 ladder lays its periods out, rules 12.7). A game outside the twelve
# months stops the results with the banner's words.


#: The months a season lays out.
MONTHS: Final = 12

#: The season's first month as a month count (year x 12 + month - 1), from the setting ``period``.
FIRST_MONTH = 'IF(ISNUMBER(period),YEAR(period)*12+MONTH(period)-1,IFERROR(--LEFT(period,4)*12+--MID(period,6,2)-1,""))'


def month_name(t: str) -> str:
    """The name of the season's month ``t`` (1 .. 12, a formula), ``YYYY-MM`` (no TEXT(): its format codes are the
    spreadsheet's language's)."""
    at = f"(season_m0+{t}-1)"
    return f'IF(season_m0="","",INT({at}/12)&"-"&IF(MOD({at},12)<9,"0","")&(MOD({at},12)+1))'


def season_spec(cap: Capacity | None = None) -> Template:
    """The season template's spec (:class:`Season`; rules 2, 14)."""
    cap = cap or Season.CAPACITY
    months = MONTHS
    sides = sides_sheet(cap)
    work = work_sheet(cap)
    g_last = FIRST + cap.games - 1

    # ---------------------------------------------------------------- each game's month (rules 14.1, 14.2)
    sides.add(
        Col("pkey", "period as given (sort key)", f'=IF([kind]="","",{period_key("[games:period]")})', "14.1"),
        Col("pidx", "month of the season (0: outside it)",
            '=IF(OR([pkey]="",N([pkey])<0,season_m0=""),"",IF([pkey]=0,1,'
            'IF(AND(INT([pkey]/10000)*12+MOD(INT([pkey]/100),100)-1-season_m0>=0,'
            f'INT([pkey]/10000)*12+MOD(INT([pkey]/100),100)-1-season_m0<{months}),'
            'INT([pkey]/10000)*12+MOD(INT([pkey]/100),100)-season_m0,0)))', "14.2"),
        Col("ppair", "period|round|pair (first side only)",
            lambda r: '=IF(OR([pair]="",[pkey]=""),"",[pkey]&"|"&[pair])' if r <= g_last else '=""', "14.1",
            blocks=[(FIRST, g_last), (g_last + 1, FIRST + cap.sides - 1)]),
    )

    # ---------------------------------------------------------------- each player's start (rules 8)
    work.add(*key_columns())
    work.add(Col("ever", _("{rating} reached before the season", rating=fide.K10_RATING),
                 "=" + yes_value("[players:ever_2400]"), "2.3"))

    # ---------------------------------------------------------------- one sheet per month (rules 2, 14.3)
    month_sheets = []
    for t in range(1, months + 1):
        prev = f"period{t - 1}"
        p = f"p{t}_"

        def before(name: str, start: str, t: int = t, prev: str = prev) -> str:
            return f"[work:{start}]" if t == 1 else f"[{prev}:{name}]"

        ps = Sheet(f"period{t}", p, FIRST, FIRST + cap.players - 1, leading=[("player", lambda r: r - FIRST + 1)])
        ps.add(
            Col("key", "id", "=[work:key]", "8"),
            Col("rated", "rated before the month", f'=IF([key]="",0,{before("rated_a", "rated")})', "14.3"),
            Col("rating", "rating before the month", f'=IF([rated]=1,{before("rating_a", "rating")},"")', "14.3",
                fmt="0"),
            Col("games", "rated games before the month", f'=IF([key]="",0,{before("games_a", "games")})', "14.3"),
            Col("ever", _("{rating} reached before the month", rating=fide.K10_RATING),
                f'=IF([key]="",0,{before("ever_a", "ever")})', "2.3"),
            Col("age", "age in the month's year",
                f'=IF(AND(ISNUMBER([players:birth_year]),ISNUMBER(season_m0)),INT((season_m0+{t - 1})/12)'
                '-[players:birth_year],"")', "2.3"),
            Col("played", "games counted in the month", f"=COUNTIFS(side_who,{POS},side_counts,1,side_pidx,{t})",
                "8"),
            Col("n", "games rated", f'=COUNTIFS(side_who,{POS},side_pd{t},">=0")', "2.1"),
            Col("s", "score", f'=SUMIFS(side_score,side_who,{POS},side_pd{t},">=0")', "2.1"),
            Col("pd", "sum PD x 100", f"=SUMIFS(side_pd{t},side_who,{POS})", "2.2"),
            Col("nn", "games against rated opponents", f'=COUNTIFS(side_who,{POS},side_ro{t},">=0")', "2.4"),
            Col("sn", "their score", f'=SUMIFS(side_score,side_who,{POS},side_ro{t},">=0")', "2.4"),
            Col("son", "sum of rated opponents", f"=SUMIFS(side_ro{t},side_who,{POS})", "2.4"),
            *k_columns(),
            *first_rating_columns(),
            Col("rated_a", "rated after the month",
                f'=IF([key]="",0,IF([rated]=1,IF([rating]+[change]<{fide.RATING_FLOOR},0,1),'
                f'IF(AND([enough]=1,[ru]>={fide.RATING_FLOOR}),1,0)))', "2.8"),
            Col("rating_a", "rating after the month",
                '=IF([rated_a]=0,"",IF([rated]=1,[rating]+[change],[ru]))', "2.1", fmt="0"),
            Col("games_a", "rated games after the month", '=IF([key]="",0,[games]+IF([rated]=1,[n],[nn]))', "2.1"),
            Col("ever_a", _("{rating} reached after the month", rating=fide.K10_RATING),
                f'=IF([key]="",0,IF([rated]=1,IF([rating]+[change]>={fide.K10_RATING},1,[ever]),[ever]))', "2.3"),
            Col("tg", "rated games in the season so far",
                f'=IF([key]="","",{"0" if t == 1 else f"[{prev}:tg]"}+IF([rated]=1,[n],[nn]))', "14.5"),
        )
        month_sheets.append(ps)
        # the month's games, from the players' values before it (rules 2.1, 2.2, 2.9)
        rw = f"INDEX({p}rating,[who])"
        sides.add(
            Col(f"ro{t}", _("month {t}: a rated opponent's rating", t=t),
                f'=IF(OR([counts]<>1,[pidx]<>{t}),"",IF(INDEX({p}rated,[opp])=1,INDEX({p}rating,[opp]),""))', "2.1"),
            Col(f"pd{t}", _("month {t}: PD x 100 of a rated game", t=t),
                f'=IF([ro{t}]="","",IF(INDEX({p}rated,[who])<>1,"",IF({far(rw, f"[ro{t}]")},"",'
                f'{pd(rw, f"[ro{t}]", capped(rw, f"[ro{t}]"))})))', "2.2"),
        )

    # ---------------------------------------------------------------- the results: the season's last month (14.5)
    def last(name: str) -> str:
        return "CHOOSE(season_last," + ",".join(f"[period{t}:{name}]" for t in range(1, months + 1)) + ")"

    work.add(
        Col("nmax", "most games counted in one month", "=MAX(" + ",".join(
            f"[period{t}:played]" for t in range(1, months + 1)) + ")", "8"),
        *[Col(f"l_{name}", _("last month: {name}", name=name), f"={last(name)}", "14.5") for name in (
            "rated", "rating", "games", "ever", "n", "s", "pd", "k", "change", "nn", "sn", "ra", "npct", "ndp",
            "enough", "ru", "rated_a", "rating_a", "games_a", "ever_a")],
        Col("l_so", "last month: sum of opponents", "=CHOOSE(season_last," + ",".join(
            f'SUMIFS(side_ro{t},side_who,{POS},side_pd{t},">=0")' for t in range(1, months + 1)) + ")", "2.6"),
        Col("l_nfar", "last month: games not rated (rapid, blitz: far apart)", "=[l_nn]-[l_n]", "2.9"),
    )
    perf = {c.name: c for c in performance_columns()}
    for name in ("ppct", "dp", "perf"):  # over the last month's n, s and so
        c = perf[name]
        assert isinstance(c.formula, str)
        work.add(replace(c, name=f"l_{name}", formula=c.formula.replace("[n]", "[l_n]").replace("[s]", "[l_s]")
                         .replace("[so]", "[l_so]").replace("[ppct]", "[l_ppct]").replace("[dp]", "[l_dp]")))

    def rated(yes: str, no: str) -> str:
        return f'=IF([key]="","",IF([l_rated]=1,{yes},{no}))'

    rated_note, first_note = notes("l_")
    work.add(
        Col("res_id", "results: id", "=[key]", "8"),
        Col("res_name", "results: name", '=IF([key]="","",[players:name]&"")', "8"),
        Col("res_status", "results: status (in the last month)", rated('"established"', '"unrated"'), "2"),
        Col("res_rating_before", "results: rating before the last month", rated("[l_rating]", '""'), "2.1"),
        Col("res_games_rated", "results: games rated in the last month", rated("[l_n]", "[l_nn]"), "2.1"),
        Col("res_score", "results: score in the last month", rated("[l_s]", "[l_sn]"), "2.1"),
        Col("res_expected", "results: expected in the last month", rated("[l_pd]/100", '""'), "2.2"),
        Col("res_k", "results: K in the last month", rated("[l_k]", '""'), "2.3"),
        Col("res_performance", "results: performance in the last month",
            rated("[l_perf]", 'IF([l_enough]=1,[l_ra]+[l_ndp],"")'), "2.6"),
        Col("res_change", "results: change in the last month", rated("[l_change]", '""'), "2.1"),
        Col("res_bonus", "results: bonus", '=""', "8"),
        Col("res_rating_after", "results: rating after the season", '=IF([key]="","",[l_rating_a])', "2.8"),
        Col("res_games_after", "results: rated games after the season", '=IF([key]="","",[l_games_a])', "2.1"),
        Col("res_ever_2400", _("results: {rating} reached", rating=fide.K10_RATING),
            '=IF([key]="","",IF([l_ever_a]=1,"yes","no"))', "2.3"),
        Col("res_note", "results: note on the last month", rated(rated_note, first_note), "2.4"),
        Col("res_birth_year", "results: year of birth (the next season's)",
            '=IF([key]="","",IF(ISNUMBER([players:birth_year]),[players:birth_year],""))', "14.3"),
        Col("res_start", "results: rating at the season's start", '=IF([key]="","",[rating])', "14.5"),
        *[Col(f"res_after_{t}", _("results: rating after month {t}", t=t),
              f'=IF(OR([key]="",season_last<{t}),"",[period{t}:rating_a])', "14.5") for t in range(1, months + 1)],
        Col("res_season_games", "results: rated games in the season", f'=IF([key]="","",[period{months}:tg])',
            "14.5"),
        Col("res_season_change", "results: change over the season",
            '=IF(AND([rated]=1,ISNUMBER([res_rating_after])),[res_rating_after]-[rating],"")', "14.5"),
        *sort_columns(),
    )

    # ---------------------------------------------------------------- inputs, checks and settings (rules 8, 14.1)
    period = Input("period", "Month: YYYY-MM, or the day played YYYY-MM-DD, as text (blank: the first month)", 11,
                   period_check(), fmt="@")
    too_many = reason("id", _("more than {count} rated games in a period (a column pasted twice?)",
                              count=MAX_GAMES_PER_PLAYER))
    mixed = reason("period", "the game's period is blank while other games have one (give every game its period, "
                             "or none)")
    first_name, last_name = month_name("1"), month_name(str(months))
    outside = F(text_formula(
        "a game's month is outside the season's twelve, {first} to {last} (games row {row}; the first month is a "
        "setting)", first=F(first_name), last=F(last_name),
        row=F(f"MOD(MATCH(0,side_pidx,0)-1,{cap.games})+{FIRST}")))
    season = first_month_setting()
    return Template(
        federation="fide", title="FIDE season of twelve months",
        players=players(),
        games=[period, *game_inputs("round", "player", "opponent", "result")], history=None,
        settings=[season, event_setting(), *option_settings(fide.SYSTEM)],
        rules=[*rules(), _(
            "The season (xl-elo rules 14): type each game's month in the games' 'period' column as text (YYYY-MM, or "
            "the day it was played, YYYY-MM-DD; blank in every row: all in the first month). Each of the {months} "
            "months from the first (a setting) is rated as a FIDE period from the list the month before left: the "
            "new rating, the games, {rating} reached; K counts the games and the age in that month's year. A month "
            "without a game changes nobody. The results give the list after the last month with a game, that "
            "month's figures, and each player's rating after every month up to it; beside them, the next players "
            "table is the next season's list.", months=months, rating=fide.K10_RATING)],
        sheets=[sides, work, *month_sheets],
        results=[
            ResultCol("id", "Id", width=10), ResultCol("name", "Name", width=20),
            ResultCol("start", "Start", "0", 6),
            *[ResultCol(f"after_{t}", f"month {t}", "0", 7.5, heading=month_name(str(t)))
              for t in range(1, months + 1)],
            ResultCol("rating_after", "New rating", "0", 7),
            ResultCol("season_change", "Change", "+0;-0;0", 7),
            ResultCol("season_games", "Games", "0", 6),
            ResultCol("games_after", "Games after", "0", 7),
            ResultCol("ever_2400", _("{rating} reached", rating=fide.K10_RATING), width=7),
            ResultCol("status", "Last month: status", width=11, printed=False),
            ResultCol("rating_before", "Last month: rating before", "0", 9, printed=False),
            ResultCol("games_rated", "Last month: games", "0", 7, printed=False),
            ResultCol("score", "Last month: score", "0.0", 7, printed=False),
            ResultCol("expected", "Last month: expected", "0.00", 9, printed=False),
            ResultCol("k", "Last month: K", "0", 5, printed=False),
            ResultCol("performance", "Last month: performance", "0", 11, printed=False),
            ResultCol("change", "Last month: change", "+0;-0;0", 9, printed=False),
            ResultCol("note", "Last month: note", width=56, printed=False),
            ResultCol("birth_year", "birth year", "0", printed=False),
            ResultCol("bonus", "bonus", printed=False),
        ],
        lists=lists(),
        player_checks=[f'IF([work:nmax]>{MAX_GAMES_PER_PLAYER},{too_many},"")', player_checks()[1]],
        game_checks=[*game_checks("ppair"),
                     f'IF(AND(NOT({blank("[games:player]")}),{blank("[games:period]")},season_given>0),{mixed},"")'],
        status=[("Season", "=" + text_formula(
            "{first} to {last}; the list after {latest}, the last month with a game", first=F(first_name),
            last=F(last_name), latest=F(month_name("season_last"))))],
        capacity=cap,
        names={"season_m0": FIRST_MONTH,
               "season_last": "MAX(1,MAX(side_pidx))",
               "season_given": f'SUMPRODUCT(--(LEN({text_of("game_period")})>0))'},
        blockers=[("COUNTIF(side_pidx,0)>0", outside)],
    )


def first_month_setting() -> Setting:
    """The season's first month: the setting ``period``, which the reader reads as the month of games that name
    none (rules 14.1), required as FIDE's period is (rules 2.3: a birth year after its year is refused)."""
    return replace(period_setting(fide.NEEDS_PERIOD), label="Season: its first month (YYYY-MM)",
                   help=_("Required: the season's first month, YYYY-MM; its twelve months follow, each game in the "
                          "month its period names (ages count in each month's year)"))
