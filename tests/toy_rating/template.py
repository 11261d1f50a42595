"""The toy system's template: its event with native formulas (rules 99), as a new system's spec reads."""

from __future__ import annotations

import toy_rating as toy
from xl_elo.templates.common import (
    POS,
    blank,
    event_setting,
    game_checks,
    game_inputs,
    number_check,
    option_settings,
    period_setting,
    player_inputs,
    results_layout,
    sides_sheet,
    sort_columns,
    text_of,
    work_sheet,
)
from xl_elo.templates.spec import Capacity, Col, Input, ResultCol, Template
from xl_elo.words import _

CAPACITY = Capacity(players=20, games=40, history=0)
#: The rooms and languages it is built in by xl-elo workbooks (a toy: one each).
ROOMS = (CAPACITY,)
LANGUAGES = ("en",)


def spec(cap: Capacity | None = None) -> Template:
    cap = cap or CAPACITY
    sides = sides_sheet(cap, own=lambda halves, g_last: [
        Col("weight", "the game's weight", "=IF(ISNUMBER([games:weight]),[games:weight],1)", "99.2")])
    work = work_sheet(cap)
    work.add(
        Col("key", "id", f'=IF({blank("[players:id]")},"",{text_of("[players:id]")})', "8"),
        Col("rated", "has a rating", '=IF(AND([key]<>"",ISNUMBER([players:rating])),IF([players:rating]<>0,1,0),0)',
            "8"),
        Col("rating", "rating before", '=IF([rated]=1,[players:rating],"")', "1.4", fmt="0"),
        Col("level", "level", "=N([players:level])", "99.1"),
        Col("n", "games rated", f"=COUNTIFS(side_who,{POS},side_counts,1)", "99.1"),
        Col("s", "score", f"=SUMIFS(side_score,side_who,{POS},side_counts,1)", "99.1"),
        Col("w", "wins, weighted", f"=SUMIFS(side_weight,side_who,{POS},side_counts,1,side_score,1)", "99.2"),
        Col("l", "losses, weighted", f"=SUMIFS(side_weight,side_who,{POS},side_counts,1,side_score,0)", "99.2"),
        Col("change", "change", f"=({toy.STEP}+[level])*([w]-[l])", "99.1"),
    )

    def rated(yes: str, no: str = '""') -> str:
        return f'=IF([key]="","",IF([rated]=1,{yes},{no}))'

    work.add(
        Col("res_id", "results: id", "=[key]", "8"),
        Col("res_name", "results: name", '=IF([key]="","",[players:name]&"")', "8"),
        Col("res_status", "results: status", rated('"rated"', '"unrated"'), "99.1"),
        Col("res_rating_before", "results: rating before", rated("[rating]"), "99.1"),
        Col("res_games_rated", "results: games rated", '=IF([key]="","",[n])', "99.1"),
        Col("res_score", "results: score", '=IF([key]="","",[s])', "99.1"),
        Col("res_expected", "results: expected", '=""', "99.1"),
        Col("res_k", "results: K", '=""', "99.1"),
        Col("res_performance", "results: performance", '=""', "99.1"),
        Col("res_change", "results: change", rated("[change]"), "99.1"),
        Col("res_bonus", "results: bonus", '=""', "99.1"),
        Col("res_rating_after", "results: new rating", rated("[rating]+[change]"), "99.1"),
        Col("res_games_after", "results: games after", '=IF([key]="","",[n])', "99.1"),
        Col("res_level", "results: level", '=IF([key]="","",[level])', "99.1"),
        *sort_columns(),
    )
    level = Input("level", "Level (0 to 10)", 8, number_check("level", 0, toy.MAX_LEVEL), ("whole", 0, toy.MAX_LEVEL))
    weight = Input("weight", "Weight (1 to 3; blank: 1)", 8, number_check("weight", 1, toy.MAX_WEIGHT),
                   ("whole", 1, toy.MAX_WEIGHT))
    return Template(
        federation="toy", title="Toy event",
        players=player_inputs("id", "name", "rating", own=[level]),
        games=[*game_inputs("round", "player", "opponent", "result"), weight], history=None,
        settings=[period_setting(toy.NEEDS_PERIOD), event_setting(), *option_settings(toy.SYSTEM)],
        rules=[_("Toy (xl-elo rules 99): a win brings {step} points plus the winner's level.", step=toy.STEP)],
        sheets=[sides, work], results=results_layout(ResultCol("level", "Level", "0", 7)),
        player_checks=[], game_checks=game_checks(), capacity=cap,
    )
