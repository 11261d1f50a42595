"""The FQE template: an event with native formulas (rules 4), every column headed by its rule."""

from __future__ import annotations

import xl_elo.federations.fqe as fqe
from xl_elo.tables import FQE_EXPECTED_ROWS
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
    sides_sheet,
    sort_columns,
    work_sheet,
)
from xl_elo.templates.spec import Capacity, Col, ResultCol, Template
from xl_elo.words import _

#: The rooms shipped in workbooks/: a club's event: 40 players, up to ten rounds (one printed page),
#: then a larger event's (its own file, named for its room). Any other: xl-elo workbooks --players N.
ROOMS = (Capacity(40, 200, 0), Capacity(120, 600, 0))
CAPACITY = ROOMS[0]
#: The languages shipped, the first unsuffixed: Quebec's.
LANGUAGES = ('fr',)
#: No season template (rules 14): its results pasted into the next copy carry the list on.
SEASON = None
#: Languages it speaks besides, built on request (xl-elo workbooks --language): none.
SPEAKS: tuple[str, ...] = ()



def spec(cap: Capacity | None = None) -> Template:
    cap = cap or CAPACITY
    sides = sides_sheet(cap)
    work = work_sheet(cap)
    unrated_opp = f"{fqe.UNRATED_OPPONENT:g}"
    adjust = f"{fqe.ADJUST_BELOW:g}"
    halving = f"{fqe.HALVING_ABOVE:g}"
    work.add(*key_columns())
    work.add(
        Col("unrated", "unrated (no rating, or no game)", '=IF(OR([rated]=0,[games]=0),1,0)', "4.10"),
        Col("permanent", "permanent (more than 24 games)",
            f'=IF(AND([unrated]=0,[games]>{fqe.PROVISIONAL_GAMES}),1,0)', "4.4"),
        Col("n", "games rated", f"=COUNTIFS(side_who,{POS},side_counts,1)", "4.9"),
        Col("s", "R", f"=SUMIFS(side_score,side_who,{POS},side_counts,1)", "4.5"),
        Col("wins", "W", f"=COUNTIFS(side_who,{POS},side_counts,1,side_score,1)", "4.3"),
        Col("losses", "L", f"=COUNTIFS(side_who,{POS},side_counts,1,side_score,0)", "4.3"),
    )
    sides.add(
        Col("seen1", "opponent for the unrated",
            f'=IF([counts]=1,IF(INDEX(w_unrated,[opp])=1,{unrated_opp},INDEX(w_rating_of,[opp])),"")', "4.3"),
    )
    work.add(
        Col("rating_of", "rating (0 when blank)", "=N([rating])", "4.1"),
        Col("cm1", "Cm (unrated)", f'=IF([n]=0,"",SUMIFS(side_seen1,side_who,{POS},side_counts,1)/[n])', "4.3",
            fmt="0.00"),
        Col("perf1", "performance (unrated)", '=IF([n]=0,"",[cm1]+400*([wins]-[losses])/[n])', "4.3", fmt="0.00"),
        Col("first", "first rating",
            f'=IF([n]=0,"",SIGN(IF([perf1]<{adjust},[perf1]+({adjust}-[perf1])/2,[perf1]))*INT(ABS(IF([perf1]<{adjust},'
            f'[perf1]+({adjust}-[perf1])/2,[perf1]))+0.5))', "4.3", fmt="0"),
    )
    sides.add(
        Col("seen2", "opponent for the rated",
            '=IF([counts]=1,IF(INDEX(w_unrated,[opp])=1,INDEX(w_first,[opp]),INDEX(w_rating_of,[opp])),"")',
            "4.1"),
        Col("pct", "table x 100",
            '=IF([counts]<>1,"",IF(INDEX(w_permanent,[who])<>1,"",IF(INDEX(w_rating_of,[who])-[seen2]>=0,'
            'LOOKUP(INDEX(w_rating_of,[who])-[seen2],fqe_lower,fqe_pct),100-LOOKUP([seen2]-'
            'INDEX(w_rating_of,[who]),fqe_lower,fqe_pct))))', "4.2"),
    )
    work.add(
        Col("cm2", "Cm (provisional)", f'=IF([n]=0,"",SUMIFS(side_seen2,side_who,{POS},side_counts,1)/[n])', "4.4",
            fmt="0.00"),
        Col("perf2", "performance (provisional)", '=IF([n]=0,"",[cm2]+400*([wins]-[losses])/[n])', "4.4", fmt="0.00"),
        Col("weighted", "weighted average",
            '=IF(OR([n]=0,[unrated]=1),"",([games]*[rating]+[n]*[perf2])/([games]+[n]))', "4.4",
            fmt="0.00"),
        Col("rp", "Rp x 100", f"=SUMIFS(side_pct,side_who,{POS},side_counts,1)", "4.5"),
        Col("raw", "32 (R - Rp) x 100", f"={fqe.K}*(100*[s]-[rp])", "4.5"),
        Col("change", "change, rounded",
            '=IF([permanent]=1,SIGN([raw])*INT((ABS([raw])+50)/100),IF(AND([unrated]=0,[n]>0),'
            'SIGN([weighted]-[rating])*INT(ABS([weighted]-[rating])+0.5),0))', "4.5", fmt="0"),
        Col("threshold", "bonus threshold",
            f'=IF([n]>={fqe.BONUS_MIN_GAMES},{fqe.BONUS_BASE}+{fqe.BONUS_STEP}*([n]-{fqe.BONUS_MIN_GAMES}),"")', "4.6"),
        Col("bonus", "bonus", '=IF(AND([permanent]=1,[threshold]<>""),MAX(0,[change]-[threshold]),0)', "4.6"),
        Col("total", "after the halving",
            f'=IF([unrated]=1,"",IF([rating]>{halving},([change]+[bonus])/2,IF([rating]+[change]+[bonus]>{halving},'
            f'({halving}-[rating])+([rating]+[change]+[bonus]-{halving})/2,[change]+[bonus])))', "4.7", fmt="0.00"),
        Col("capped", "after the match cap",
            f'=IF([unrated]=1,"",IF(match_event,MIN([total],{fqe.MATCH_CAP:g}),[total]))', "4.8"),
        Col("after", "new rating",
            '=IF([key]="","",IF([n]=0,[rating],IF([unrated]=1,[first],SIGN([rating]+[capped])*INT(ABS([rating]+'
            '[capped])+0.5))))', "4.9", fmt="0"),
    )

    def who(unrated: str, provisional: str, permanent: str, none: str | None = None) -> str:
        body = f"IF([unrated]=1,{unrated},IF([permanent]=1,{permanent},{provisional}))"
        if none is not None:
            body = f"IF([n]=0,{none},{body})"
        return f'=IF([key]="","",{body})'

    status = '"unrated"', '"provisional"', '"permanent"'
    after_status = f'IF([games]+[n]>{fqe.PROVISIONAL_GAMES},"permanent","provisional")'
    work.add(
        Col("res_id", "results: id", '=[key]', "8"),
        Col("res_name", "results: name", '=IF([key]="","",[players:name]&"")', "8"),
        Col("res_status", "results: status", who(*status), "4.10"),
        Col("res_rating_before", "results: rating before", '=IF([key]="","",[rating])', "4.1"),
        Col("res_games_rated", "results: games rated", '=IF([key]="","",[n])', "4.9"),
        Col("res_score", "results: score", '=IF([key]="","",[s])', "4.5"),
        Col("res_expected", "results: expected", who('""', '""', "[rp]/100", '""'), "4.5"),
        Col("res_k", "results: K", who('""', '""', str(fqe.K), '""'), "4.5"),
        Col("res_performance", "results: performance", who("[perf1]", "[perf2]", '""', '""'), "4.3"),
        Col("res_change", "results: change", who('""', "[change]", "[change]", '""'), "4.5"),
        Col("res_bonus", "results: bonus", who('""', "[bonus]", "[bonus]", '""'), "4.6"),
        Col("res_rating_after", "results: new rating", '=IF([key]="","",[after])', "4.9"),
        Col("res_games_after", "results: games after", '=IF([key]="","",[games]+[n])', "4.4"),
        Col("res_status_after", "results: status after", who(
            after_status, after_status, after_status,
            'IF([unrated]=1,"unrated",IF([permanent]=1,"permanent","provisional"))'), "4.4"),
        Col("res_wins", "results: W", who("[wins]", "[wins]", "[wins]", '""'), "4.3"),
        Col("res_losses", "results: L", who("[losses]", "[losses]", "[losses]", '""'), "4.3"),
        Col("res_cm", "results: Cm", who("[cm1]", "[cm2]", '""', '""'), "4.3"),
        Col("res_threshold", "results: bonus threshold", who('""', '""', "[threshold]", '""'), "4.6"),
        Col("res_halving", "results: halving", who('""', "[change]+[bonus]-[total]", "[change]+[bonus]-[total]", '""'),
            "4.7"),
        Col("res_match_cap", "results: match cap", who('""', "[total]-[capped]", "[total]-[capped]", '""'), "4.8"),
        *sort_columns(),
    )
    rules_en = [
        _("FQE (xl-elo rules 4): unrated players first (performance Cm + 400 (W - L) / n, unrated opponents at "
          "{unrated_opp}, half the gap added below {adjust}), then provisional players ({provisional_games} games or "
          "fewer: the average of the old rating and the performance weighted by games), then permanent players: {k} "
          "x (R - Rp) with Rp from the FQE table, the bonus above {bonus_base} + {bonus_step} (r - "
          "{bonus_min_games}) from {bonus_min_games} games, the halving above {halving}, at most +{match_cap} in a "
          "match (two players; the setting 'match' can say so).",
          unrated_opp=unrated_opp, adjust=adjust, provisional_games=fqe.PROVISIONAL_GAMES, k=fqe.K,
          bonus_base=fqe.BONUS_BASE, bonus_step=fqe.BONUS_STEP, bonus_min_games=fqe.BONUS_MIN_GAMES, halving=halving,
          match_cap=fqe.MATCH_CAP),
    ]
    template = Template(
        federation="fqe", title="FQE (Quebec) event rating",
        players=player_inputs("id", "name", "rating", "games"),
        games=game_inputs("round", "player", "opponent", "result"), history=None,
        settings=[period_setting(fqe.NEEDS_PERIOD), event_setting(), *option_settings(fqe.SYSTEM)],
        rules=rules_en, sheets=[work, sides],
        results=[
            ResultCol("id", "Id", width=12), ResultCol("name", "Name", width=26),
            ResultCol("status", "Status", width=12),
            ResultCol("rating_before", "Rating before", "0", 10),
            ResultCol("games_rated", "Games", "0", 7), ResultCol("score", "Score", "0.0", 7),
            ResultCol("expected", "Rp", "0.00", 7), ResultCol("performance", "Performance",
                                                                   "0", 11),
            ResultCol("change", "Change", "+0;-0;0", 9), ResultCol("bonus", "Bonus", "0", 7),
            ResultCol("halving", "Halving", "0.0", 8),
            ResultCol("rating_after", "New rating", "0", 10),
            ResultCol("games_after", "Games after", "0", 8),
            ResultCol("status_after", "Status after", width=12),
            ResultCol("k", "K", "0", 5, printed=False), ResultCol("wins", "W", "0", 5, printed=False),
            ResultCol("losses", "L", "0", 5, printed=False), ResultCol("cm", "Cm", "0.00", 8, printed=False),
            ResultCol("threshold", "Threshold", "0", 8, printed=False),
            ResultCol("match_cap", "Match cap", "0.0", 8, printed=False),
        ],
        lists=[("FQE table", ["fqe_lower", "fqe_pct"], [(lo, pct) for lo, _, pct in FQE_EXPECTED_ROWS])],
        player_checks=player_checks(), game_checks=game_checks(), capacity=cap,
        names={"match_event": 'IF(TRIM(opt_match&"")="auto",COUNTIF(w_n,">0")=2,TRIM(opt_match&"")="yes")'},
    )
    return template
