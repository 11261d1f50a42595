"""The FIDE template: a rating month with native formulas (rules 2), every column headed by its rule.

Its formulas of a player's period (K, the change, the performance, a first rating, the notes) are functions here,
shared with the season template (:mod:`.season_template`, twelve months one after another: rules 14), which this
module declares (:data:`SEASON`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import xl_elo.federations.fide as fide
from xl_elo.tables import FIDE_DP_TABLE, FIDE_PD_ROWS
from xl_elo.templates.common import (
    POS,
    event_setting,
    game_checks,
    game_inputs,
    key_columns,
    option_settings,
    period_setting,
    player_checks,
    player_inputs,
    results_layout,
    sides_sheet,
    sort_columns,
    work_sheet,
    yes_no_input,
    yes_value,
)
from xl_elo.templates.spec import Capacity, Col, Input, ResultCol, Template
from xl_elo.words import _

#: The rooms shipped in workbooks/: a club's rating month: its tournaments and league games, 40 players (one printed
#: page),
#: then a larger event's (its own file, named for its room). Any other: xl-elo workbooks --players N.
ROOMS = (Capacity(40, 300, 0), Capacity(120, 1200, 0))
CAPACITY = ROOMS[0]
#: The languages shipped, the first unsuffixed: FIDE's own language; xl-elo workbooks --language builds it in any
#: catalogue's.
LANGUAGES = ('en',)

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
        Col("kbase", "K before the 700 rule",
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
    rating, or why none), over the columns above (their names prefixed with ``c``; rules 2.4, 2.8, 2.9)."""
    below = f"[{c}rating]+[{c}change]<{fide.RATING_FLOOR}"
    floor_text = (f'"new rating "&INT([{c}rating]+[{c}change])&" is below {fide.RATING_FLOOR}: shown as unrated on '
                  'the next list (rules 2.8)"')
    gap_text = (f'[{c}nfar]&" game(s) not rated: {fide.NOT_RATED_GAP} points or more apart, one above '
                f'{fide.NOT_RATED_ABOVE} ("&LOWER(TRIM(opt_list&""))&" list, rules 2.9)"')
    rated_note = f'IF({below},{floor_text}&IF([{c}nfar]>0,"; "&{gap_text},""),IF([{c}nfar]>0,{gap_text},""))'
    nn, sn = f"[{c}nn]", f"[{c}sn]"
    few_games = (f'IF({nn}<{fide.FIRST_RATING_MIN_GAMES},{nn}&" game"&IF({nn}=1,"","s")&" against rated opponents, '
                 f'fewer than {fide.FIRST_RATING_MIN_GAMES}"&IF({sn}<{fide.FIRST_RATING_MIN_SCORE}," and ",""),"")')
    few_points = (f'IF({sn}<{fide.FIRST_RATING_MIN_SCORE},{sn}&" points, fewer than '
                  f'{fide.FIRST_RATING_MIN_SCORE:g}","")')
    first_note = (f'IF([{c}enough]=0,"no first rating: "&{few_games}&{few_points}&" (rules 2.4)",'
                  f'IF([{c}ru]<{fide.RATING_FLOOR},"below floor: Ra + dp = "&'
                  f'FIXED([{c}ra]+[{c}ndp],0,TRUE)&" is below the floor of {fide.RATING_FLOOR}: not published",'
                  f'"first rating: Ra "&FIXED([{c}ra],2,TRUE)&", p "&FIXED([{c}npct]/100,2,TRUE)&", dp "&[{c}ndp]))')
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
        yes_no_input("ever_2400", "Rating has reached 2400: yes/no", 10)])


def lists() -> list[tuple[str, list[str], Sequence[Sequence[Any]]]]:
    """FIDE's tables on the lists sheet, from the package's one transcription (rules 2.2, 2.6)."""
    return [("FIDE PD", ["fide_lower", "fide_pct"], [(lo, pct) for lo, _hi, pct in FIDE_PD_ROWS]),
            ("FIDE D(P)", ["fide_p", "fide_dp"], [(p, FIDE_DP_TABLE[p]) for p in range(101)])]


class Season:
    """The FIDE season template (rules 14): a club's internal list over a year, twelve monthly periods one after
    another, each rated from the list the month before left (:mod:`.season_template`)."""

    FILE = "fide_season.xlsx"
    #: The room shipped: a club's year, 40 members (one printed page) and 500 games (each member's 25 rated games of
    #: a year on average: a monthly tournament of four rounds on ten boards); the months laid out: twelve. Its
    #: formulas grow with the games (each game's side carries its rating and PD for every month): 800 games took
    #: twice LibreOffice's 3x floor target to open, recalculate and save (README).
    ROOMS = (Capacity(40, 500, 0, 12),)
    CAPACITY = ROOMS[0]
    LANGUAGES = ("en",)
    SEASON = None

    @staticmethod
    def spec(cap: Capacity | None = None) -> Template:
        from xl_elo.federations.fide.season_template import spec

        return spec(cap or Season.CAPACITY)


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
        Col("capped", "difference, 400-point rule", f'=IF([both]=1,{capped("[rw]", "[ro]")},"")', "2.2"),
        Col("pd", "PD x 100 (logistic: 100 E)", f'=IF([both]=1,{pd("[rw]", "[ro]", "[capped]")},"")', "2.2"),
    )
    work.add(*key_columns())
    work.add(
        Col("age", "age in the period's year",
            '=IF(AND(ISNUMBER([players:birth_year]),ISNUMBER(period_year)),period_year-[players:birth_year],"")',
            "2.3"),
        Col("ever", "2400 reached before", "=" + yes_value("[players:ever_2400]"), "2.3"),
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
        Col("res_ever_2400", "results: 2400 reached",
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
        results=results_layout(ResultCol("ever_2400", "2400 reached", width=8),
                               ResultCol("note", "Note", width=56),
                               ResultCol("birth_year", "birth year", "0", printed=False)),
        lists=lists(),
        player_checks=player_checks(), game_checks=game_checks(), capacity=cap,
    )
