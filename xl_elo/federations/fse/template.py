"""The FSE template: a two-month period with native formulas (rules 3), every column headed by its rule."""

from __future__ import annotations

import xl_elo.federations.fse as fse
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
)
from xl_elo.templates.spec import Capacity, Col, ResultCol, Template
from xl_elo.words import _, text_formula

#: The rooms shipped in workbooks/: a club's two-month period: its tournaments and league games, 40 players (one
#: printed page),
#: then a larger event's (its own file, named for its room). Any other: xl-elo workbooks --players N.
ROOMS = (Capacity(40, 300, 0), Capacity(120, 1200, 0))
CAPACITY = ROOMS[0]
#: The languages shipped, the first unsuffixed: the Swiss federation's members: German, French and Italian, each a
#: file of its own.
LANGUAGES = ('de', 'fr', 'it')
#: No season template (rules 14): its results pasted into the next copy carry the list on.
SEASON = None
#: Languages it speaks besides, built on request (xl-elo workbooks --language): none.
SPEAKS: tuple[str, ...] = ()



def spec(cap: Capacity | None = None) -> Template:
    cap = cap or CAPACITY
    sides = sides_sheet(cap)
    work = work_sheet(cap)
    # a rating typed recalculates every side: as few columns per side as the rules' steps need
    sides.add(
        Col("both", "both rated: a rated game", '=IF([counts]=1,INDEX(w_rated,[who])*INDEX(w_rated,[opp]),0)', "3.1"),
        Col("new", "unrated against rated", '=IF([counts]=1,(1-INDEX(w_rated,[who]))*INDEX(w_rated,[opp]),0)', "3.3"),
        Col("ro", "opponent's rating", '=IF([both]=1,INDEX(w_rating,[opp]),"")', "3.1"),
        Col("e", "expected (logistic)", '=IF([both]=1,1/(1+10^(([ro]-INDEX(w_rating,[who]))/400)),"")', "1.2"),
    )
    work.add(*key_columns())
    work.add(
        Col("age", "age in the period's year",
            '=IF(AND(ISNUMBER([players:birth_year]),ISNUMBER(period_year)),period_year-[players:birth_year],"")',
            "3.2"),
        Col("n", "games rated", f"=COUNTIFS(side_who,{POS},side_both,1)", "3.1"),
        Col("s", "score", f"=SUMIFS(side_score,side_who,{POS},side_both,1)", "3.1"),
        Col("nn", "games vs rated (unrated)", f"=COUNTIFS(side_who,{POS},side_new,1)", "3.3"),
        Col("sn", "score vs rated (unrated)", f"=SUMIFS(side_score,side_who,{POS},side_new,1)", "3.3"),
        Col("e", "sum expected", f"=SUMIFS(side_e,side_who,{POS},side_both,1)", "3.1", fmt="0.00"),
        Col("k", "K",
            f'=IF(OR([games]<{fse.NEW_PLAYER_GAMES},AND(ISNUMBER([age]),N([age])<{fse.JUNIOR_AGE},'
            f'N([rating])<={fse.JUNIOR_RATING_LIMIT})),{fse.K_NEW},IF(N([rating])>={fse.MASTER_RATING},'
            f'{fse.K_MASTER},{fse.K_STANDARD}))', "3.2"),
        Col("change", "change, halves away from zero", '=SIGN([k]*([s]-[e]))*INT(ABS([k]*([s]-[e]))+0.5)',
                                                       "3.1", fmt="0"),
    )

    def rated(yes: str, no: str) -> str:
        return f'=IF([key]="","",IF([rated]=1,{yes},{no}))'

    work.add(
        Col("res_id", "results: id", '=[key]', "8"),
        Col("res_name", "results: name", '=IF([key]="","",[players:name]&"")', "8"),
        Col("res_status", "results: status", rated('"established"', '"unrated"'), "3"),
        Col("res_rating_before", "results: rating before", rated("[rating]", '""'), "3.1"),
        Col("res_games_rated", "results: games rated", rated("[n]", "[nn]"), "3.1"),
        Col("res_score", "results: score", rated("[s]", "[sn]"), "3.1"),
        Col("res_expected", "results: expected", rated("[e]", '""'), "3.1"),
        Col("res_k", "results: K", rated("[k]", '""'), "3.2"),
        Col("res_performance", "results: performance", '=""', "3.3"),
        Col("res_change", "results: change", rated("[change]", '""'), "3.1"),
        Col("res_bonus", "results: bonus", '=""', "8"),
        Col("res_rating_after", "results: new rating", rated("[rating]+[change]", '""'), "3.1"),
        Col("res_games_after", "results: games after", rated("[games]+[n]", "[games]+[nn]"), "3.1"),
        Col("res_note", "results: note", rated('""', text_formula(fse.NO_FIRST_RATING)), "3.3"),
        Col("res_birth_year", "results: year of birth (the next period's)",
            '=IF([key]="","",IF(ISNUMBER([players:birth_year]),[players:birth_year],""))', "14.3"),
        *sort_columns(),
    )
    rules_en = [
        _('FSE (xl-elo rules 3): the logistic expected score 1 / (1 + 10^((opponent - rating) / 400)); K {k_new} for '
          'the first {new_player_games} games and for juniors under {junior_age} rated at most '
          '{junior_rating_limit}, {k_master} from {master_rating}, {k_standard} otherwise; the sum K x (score - '
          'expected) rounded, halves away from zero. Games against unrated players are not rated; an unrated player '
          'gets no rating (the FSE gives no rule for a first rating).',
          k_new=fse.K_NEW, new_player_games=fse.NEW_PLAYER_GAMES, junior_age=fse.JUNIOR_AGE,
          junior_rating_limit=fse.JUNIOR_RATING_LIMIT, k_master=fse.K_MASTER, master_rating=fse.MASTER_RATING,
          k_standard=fse.K_STANDARD),
    ]
    return Template(
        federation="fse", title="FSE (Swiss) rating period",
        players=player_inputs("id", "name", "rating", "games", "birth_year"),
        games=game_inputs("round", "player", "opponent", "result"), history=None,
        settings=[period_setting(fse.NEEDS_PERIOD), event_setting(), *option_settings(fse.SYSTEM)],
        rules=rules_en, sheets=[sides, work],
        results=results_layout(ResultCol("note", "Note", width=34),
                               ResultCol("birth_year", "birth year", "0", printed=False)),
        player_checks=player_checks(), game_checks=game_checks(), capacity=cap,
    )
