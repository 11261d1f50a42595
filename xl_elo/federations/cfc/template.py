"""The CFC template: an event with native formulas in the order of 417 (rules 11), every column
headed by its rule.

The five steps of 417 are laid out as columns, each step's opponents counted on the sides
sheet (``seen2`` .. ``seen5``) and summed on the work sheet: the preliminary rating of the
unrated players, their temporary rating, the provisional players' new rating, the unrated
players' first rating, then the established players by the CFC's table, the 2012-S bonus, a
match's limit and the low-rating rules. Nothing iterates: every case fits the laid-out steps.
"""

from __future__ import annotations

import xl_elo.federations.cfc as cfc
from xl_elo.tables import CFC_EXPECTED_ROWS
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
    rating_check,
    sides_sheet,
    sort_columns,
    work_sheet,
)
from xl_elo.templates.spec import Capacity, Col, Input, ResultCol, Template
from xl_elo.words import _, text_formula


def _round(x: str) -> str:
    """Halves away from zero (rules 1.3)."""
    return f"SIGN({x})*INT(ABS({x})+0.5)"

#: The rooms shipped in workbooks/: a club's event of 40 players, up to ten rounds (one printed page),
#: then a larger event's (its own file, named for its room). Any other: xl-elo workbooks --players N.
ROOMS = (Capacity(40, 200, 0), Capacity(120, 600, 0))
CAPACITY = ROOMS[0]
#: The languages shipped, the first unsuffixed: Canada's two: English, and French as a file of its own.
LANGUAGES = ('en', 'fr')
#: No season template (rules 14): its results pasted into the next copy carry the list on.
SEASON = None
#: Languages it speaks besides, built on request (xl-elo workbooks --language): none.
SPEAKS: tuple[str, ...] = ()




def spec(cap: Capacity | None = None) -> Template:
    cap = cap or CAPACITY
    sides = sides_sheet(cap)
    work = work_sheet(cap)
    est_games = cfc.ESTABLISHED_GAMES
    work.add(*key_columns())
    work.add(
        Col("rating_of", "rating (0 when blank)", "=N([rating])", "11.7"),
        Col("highest", "highest before",
            '=IF(ISNUMBER([players:highest]),IF([players:highest]<>0,[players:highest],""),"")', "11.6", fmt="0"),
        Col("n", "games rated", f"=COUNTIFS(side_who,{POS},side_counts,1)", "11.1"),
        Col("s", "S", f"=SUMIFS(side_score,side_who,{POS},side_counts,1)", "11.5"),
        Col("wins", "W", f"=COUNTIFS(side_who,{POS},side_counts,1,side_score,1)", "11.4"),
        Col("losses", "L", f"=COUNTIFS(side_who,{POS},side_counts,1,side_score,0)", "11.4"),
        Col("unrated", "unrated", '=IF(AND([key]<>"",[rated]=0),1,0)', "11.2"),
        Col("est", _('414b this event ({est_games} games reached)', est_games=est_games),
            f'=IF(AND([rated]=1,[games]+[n]>={est_games}),1,0)', "11.4"),
        Col("prov", "provisional (414a)", '=IF(AND([rated]=1,[est]=0),1,0)', "11.4"),
        Col("margin", "400 (W - L) / N", '=IF([n]=0,"",400*([wins]-[losses])/[n])', "11.4",
            fmt="0.00"),
        Col("of_opp", "step 1: Ro - 400 (W - L) / N", '=IF(AND([rated]=1,[n]>0),[rating]-[margin],"")',
                                                      "11.7", fmt="0.00"),
    )
    # step 2: the unrated players' temporary rating, unrated opponents at the preliminary rating
    sides.add(Col("seen2", "step 2: opponent counts as",
                  '=IF([counts]=1,IF(INDEX(w_unrated,[opp])=1,prelim,INDEX(w_rating_of,[opp])),"")', "11.7"))
    work.add(Col("temp", "step 2: temporary rating",
                 f'=IF(AND([unrated]=1,[n]>0),SUMIFS(side_seen2,side_who,{POS},side_counts,1)/[n]+[margin],"")',
                 "11.7", fmt="0.00"))
    # step 3: provisional players
    sides.add(Col("seen3", "step 3: opponent counts as",
                  '=IF([counts]=1,IF(INDEX(w_unrated,[opp])=1,INDEX(w_temp,[opp]),INDEX(w_rating_of,[opp])),"")',
                  "11.7"))
    work.add(
        Col("rc3", "step 3: Rc", f'=IF(AND([prov]=1,[n]>0),SUMIFS(side_seen3,side_who,{POS},side_counts,1)/[n],"")',
            "11.4", fmt="0.00"),
        Col("perf3", "step 3: performance", '=IF([rc3]="","",[rc3]+[margin])', "11.4",
            fmt="0.00"),
        Col("post3", "step 3: new rating, rounded",
            f'=IF([rc3]="",[rating_of],{_round("([games]*[rating]+[n]*[perf3])/([games]+[n])")})', "11.4", fmt="0"),
    )
    # step 4: the unrated players' first rating
    sides.add(Col("seen4", "step 4: opponent counts as",
                  '=IF([counts]=1,IF(INDEX(w_unrated,[opp])=1,INDEX(w_temp,[opp]),INDEX(w_post3,[opp])),"")',
                  "11.7"))
    work.add(
        Col("rc4", "step 4: Rc",
            f'=IF(AND([unrated]=1,[n]>0),SUMIFS(side_seen4,side_who,{POS},side_counts,1)/[n],"")', "11.4", fmt="0.00"),
        Col("perf4", "step 4: performance", '=IF([rc4]="","",[rc4]+[margin])', "11.4",
            fmt="0.00"),
        Col("first", "step 4: first rating, rounded", f'=IF([rc4]="","",{_round("[perf4]")})', "11.4", fmt="0"),
    )
    # step 5: established players by the table (414b)
    sides.add(
        Col("seen5", "step 5: opponent counts as",
            '=IF([counts]=1,IF(INDEX(w_unrated,[opp])=1,INDEX(w_first,[opp]),INDEX(w_post3,[opp])),"")', "11.7"),
        Col("pct", "table x 100",
            '=IF([counts]<>1,"",IF(INDEX(w_est,[who])<>1,"",IF(INDEX(w_rating_of,[who])-[seen5]>=0,'
            'LOOKUP(INDEX(w_rating_of,[who])-[seen5],cfc_lower,cfc_pct),100-LOOKUP([seen5]-'
            'INDEX(w_rating_of,[who]),cfc_lower,cfc_pct))))', "11.3"),
    )
    pivot, down = cfc.GAIN_PIVOT, cfc.LOSS_PIVOT
    ke = f"([k]/{cfc.K})"
    work.add(
        Col("rc5", "step 5: Rc", f'=IF(AND([est]=1,[n]>0),SUMIFS(side_seen5,side_who,{POS},side_counts,1)/[n],"")',
            "11.4", fmt="0.00"),
        Col("sx", "Sx x 100", f"=SUMIFS(side_pct,side_who,{POS},side_counts,1)", "11.3"),
        Col("k", "K", f"=IF([rating_of]>={cfc.K_HIGH_FROM},{cfc.K_HIGH},{cfc.K})", "11.5"),
        Col("raw", "Ro + K (S - Sx)", "=(100*[rating_of]+[k]*(ROUND(100*[s],0)-[sx]))/100", "11.5", fmt="0.00"),
        Col("rn", "Rn (2199 rules)",
            f"=IF(AND([rating_of]<{pivot},[raw]>{pivot}),{pivot}+([raw]-{pivot})/2,IF(AND([rating_of]>{pivot},"
            f"[raw]<{down}),{down}-2*({down}-[raw]),[raw]))", "11.5", fmt="0.00"),
        Col("new", "Rn, rounded", f"={_round('[rn]')}", "11.5", fmt="0"),
        Col("thr", "bonus threshold",
            f'=IF([n]>={cfc.BONUS_MIN_GAMES},{cfc.BONUS_THRESHOLD}*{ke}*SQRT([n]),"")', "11.6",
            fmt="0.00"),
        Col("b_high", "BONUS1 (all-time high)",
            f'=IF(AND([est]=1,[thr]<>""),IF(ISNUMBER([highest]),IF([new]>MAX([highest],[rating_of]),'
            f'{cfc.BONUS_MAX}*{ke},0),0),0)', "11.6", fmt="0.00"),
        Col("b_change", "BONUS2",
            f'=IF(AND([est]=1,[thr]<>""),IF([new]>[rating_of]+[thr],{cfc.BONUS_CHANGE}*([new]-[rating_of]-[thr])*'
            f'{ke},0),0)', "11.6", fmt="0.00"),
        Col("points", "bonus, rounded", f"={_round('[b_high]+[b_change]')}", "11.6", fmt="0"),
        Col("before_bonus", "new rating before the bonus",
            '=IF([n]=0,"",IF([unrated]=1,[first],IF([est]=1,[new],[post3])))', "11.6",
            fmt="0"),
        Col("total", "change with the bonus",
            '=IF(OR([n]=0,[unrated]=1),0,[before_bonus]+IF([est]=1,[points],0)-[rating_of])', "11.6"),
        Col("capped", "after a match's limit",
            f"=IF(match_event,MAX(-{cfc.MATCH_CAP},MIN({cfc.MATCH_CAP},[total])),[total])", "11.8"),
        Col("unadj", "before the low-rating rules", '=IF([unrated]=1,[first],[rating_of]+[capped])', "11.9"),
        Col("adj", "after the low-rating rules",
            f'=IF([n]=0,"",MAX({cfc.BOTTOM},IF(AND([rated]=1,[games]>={est_games},[unadj]<{cfc.LOW_LINE}),'
            f'IF([rating_of]>{cfc.LOW_FLOOR},{cfc.LOW_FLOOR},MAX([rating_of],[unadj])),[unadj])))', "11.9", fmt="0"),
        Col("after", "new rating", '=IF([key]="","",IF([n]=0,[rating],[adj]))', "11.9", fmt="0"),
    )

    def row(body: str) -> str:
        return f'=IF([key]="","",{body})'

    def played(body: str) -> str:
        return f'=IF([key]="","",IF([n]=0,"",{body}))'

    def est(body: str) -> str:
        return f'=IF([key]="","",IF(AND([n]>0,[est]=1),{body},""))'

    def rated_played(body: str) -> str:
        return f'=IF([key]="","",IF(AND([n]>0,[rated]=1),{body},""))'

    published = cfc.PUBLISHED_FROM
    note = (f'IF([n]=0,"",IF([games]+[n]<{published},'
            + text_formula("published from {count} rated games (434)", count=published) + ","
            'IF(AND([est]=1,[thr]<>"",NOT(ISNUMBER([highest])),[new]>[rating_of]),'
            + text_formula("highest not given: no all-time-high bonus") + ',"")))')
    work.add(
        Col("res_id", "results: id", "=[key]", "8"),
        Col("res_name", "results: name", row('[players:name]&""'), "8"),
        Col("res_status", "results: status",
            row(f'IF([rated]=0,"unrated",IF([games]>={est_games},"established","provisional"))'), "11.2"),
        Col("res_rating_before", "results: rating before", row("[rating]"), "11.2"),
        Col("res_games_rated", "results: games rated", row("[n]"), "11.1"),
        Col("res_score", "results: score", row("IF([n]=0,0,[s])"), "11.5"),
        Col("res_expected", "results: Sx", est("[sx]/100"), "11.3"),
        Col("res_k", "results: K", est("[k]"), "11.5"),
        Col("res_performance", "results: performance",
            played("IF([unrated]=1,[perf4],IF([est]=1,[rc5]+[margin],[perf3]))"), "11.4"),
        Col("res_change", "results: change", rated_played("[after]-[rating]"), "11.5"),
        Col("res_bonus", "results: bonus", rated_played("IF([est]=1,[points],0)"), "11.6"),
        Col("res_rating_after", "results: new rating", row("[after]"), "11.9"),
        Col("res_games_after", "results: games after", row('IF(AND([rated]=0,[n]=0),"",[games]+[n])'), "11.2"),
        Col("res_provisional", "results: provisional after",
            row(f'IF(AND([rated]=0,[n]=0),"",IF(OR([rated]=0,[games]+[n]<{est_games}),"yes","no"))'), "11.10"),
        Col("res_formula", "results: formula", played('IF([est]=1,"414b","414a")'), "11.4"),
        Col("res_wins", "results: W", played("[wins]"), "11.4"),
        Col("res_losses", "results: L", played("[losses]"), "11.4"),
        Col("res_rc", "results: Rc", played("IF([unrated]=1,[rc4],IF([est]=1,[rc5],[rc3]))"), "11.4"),
        Col("res_rn", "results: Rn", est("[rn]"), "11.5"),
        Col("res_rating_before_bonus", "results: before the bonus", played("[before_bonus]"), "11.6"),
        Col("res_threshold", "results: bonus threshold", est("[thr]"), "11.6"),
        Col("res_bonus_high", "results: BONUS1", est("[b_high]"), "11.6"),
        Col("res_bonus_change", "results: BONUS2", est("[b_change]"), "11.6"),
        Col("res_match_cap", "results: match cap", rated_played("[total]-[capped]"), "11.8"),
        Col("res_floor", "results: low-rating rules", played("[adj]-[unadj]"), "11.9"),
        Col("res_note", "results: note", row(note), "11.2"),
        Col("res_highest_after", "results: highest with this event's (the next event's)",
            row('IF(ISNUMBER([highest]),MAX([highest],N([res_rating_after])),"")'), "14.3"),
        *sort_columns(),
    )
    highest = Input("highest", "Highest rating before (blank: not known)", 11,
                    rating_check("highest"), ("whole", 0, 3500))
    rules_en = [
        _("CFC (xl-elo rules 11; CFC Handbook, Section 4), in the order of 417, each step in its own columns (no "
          "case needs more steps): the unrated players' preliminary rating (the average of Ro - 400 (W - L) / N - "
          "{preliminary_offset} over the rated players, or the setting 'preliminary' when more than half are "
          "unrated), their temporary rating, then provisional players (fewer than {est_games} games: Rc + 400 (W - "
          "L) / N, averaged with the old rating by games), the unrated players' first rating, then established "
          "players: Rn = Ro + {k} (S - Sx) with Sx from the CFC table (K {k_high} from {k_high_from}, the 2199 "
          "rules), rounded; the bonus of Motion 2012-S from {bonus_min_games} games ({bonus_max} Ke at an all-time "
          "high: give the column 'highest'; {bonus_change} Ke per point above {bonus_threshold} Ke sqrt(n)); at most "
          "{match_cap} either way in a match; below {low_line} an established player stays at {low_floor} or his old "
          "rating, nobody below {bottom}.",
          preliminary_offset=cfc.PRELIMINARY_OFFSET, est_games=est_games, k=cfc.K, k_high=cfc.K_HIGH,
          k_high_from=cfc.K_HIGH_FROM, bonus_min_games=cfc.BONUS_MIN_GAMES, bonus_max=cfc.BONUS_MAX,
          bonus_change=cfc.BONUS_CHANGE, bonus_threshold=cfc.BONUS_THRESHOLD, match_cap=cfc.MATCH_CAP,
          low_line=cfc.LOW_LINE, low_floor=cfc.LOW_FLOOR, bottom=cfc.BOTTOM),
    ]
    new_count = "COUNTIFS(w_unrated,1,w_n,\">0\")"
    played_count = "COUNTIF(w_n,\">0\")"
    return Template(
        federation="cfc", title="CFC (Canada) event rating",
        players=player_inputs("id", "name", "rating", "games", own=[highest]),
        games=game_inputs("round", "player", "opponent", "result"), history=None,
        settings=[period_setting(cfc.NEEDS_PERIOD), event_setting(), *option_settings(cfc.SYSTEM)],
        rules=rules_en, sheets=[work, sides],
        results=[
            ResultCol("id", "Id", width=12), ResultCol("name", "Name", width=24),
            ResultCol("status", "Status", width=11),
            ResultCol("rating_before", "Rating before", "0", 9),
            ResultCol("games_rated", "Games", "0", 7), ResultCol("score", "Score", "0.0", 6),
            ResultCol("expected", "Sx", "0.00", 6),
            ResultCol("performance", "Performance", "0", 11),
            ResultCol("rating_before_bonus", "Before bonus", "0", 9),
            ResultCol("bonus", "Bonus", "0", 6),
            ResultCol("change", "Change", "+0;-0;0", 9),
            ResultCol("rating_after", "New rating", "0", 10),
            ResultCol("games_after", "Games after", "0", 8),
            ResultCol("highest_after", "highest after", "0", printed=False),
            ResultCol("provisional", "Provisional", width=10),
            ResultCol("k", "K", "0", 5, printed=False), ResultCol("formula", "Formula", printed=False),
            ResultCol("wins", "W", "0", 5, printed=False), ResultCol("losses", "L", "0", 5, printed=False),
            ResultCol("rc", "Rc", "0.00", 8, printed=False),
            ResultCol("rn", "Rn", "0.00", 8, printed=False),
            ResultCol("threshold", "Threshold", "0.00", 8, printed=False),
            ResultCol("bonus_high", "BONUS1", "0.00", 8, printed=False),
            ResultCol("bonus_change", "BONUS2", "0.00", 8, printed=False),
            ResultCol("match_cap", "Match cap", "0", 8, printed=False),
            ResultCol("floor", "Low-rating rules", "0", 8, printed=False),
            ResultCol("note", "Note", width=40),
        ],
        lists=[("CFC table", ["cfc_lower", "cfc_pct"], [(lo, pct) for lo, _, pct in CFC_EXPECTED_ROWS])],
        player_checks=player_checks(), game_checks=game_checks(), capacity=cap,
        names={
            "match_event": f'IF(TRIM(opt_match&"")="auto",{played_count}=2,TRIM(opt_match&"")="yes")',
            "prelim": f"IF({new_count}=0,0,IF({new_count}/{played_count}>{cfc.UNRATED_SHARE},N(opt_preliminary),"
                      f"AVERAGE(w_of_opp)-{cfc.PRELIMINARY_OFFSET}))",
        },
        blockers=[
            (f"AND({new_count}>0,COUNTIFS(w_rated,1,w_n,\">0\")=0)",
             "no player who played has a CFC rating (419)"),
            (f"AND({new_count}>0,{new_count}/MAX(1,{played_count})>{cfc.UNRATED_SHARE},N(opt_preliminary)<=0)",
             "more than half the players are unrated: give their preliminary rating (setting preliminary, 417)"),
        ],
    )
