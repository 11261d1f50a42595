"""The CFC template: an event with native formulas in the order of 417 (rules 11), every column
headed by its rule.

The five steps of 417 are laid out as columns, each step's opponents counted on the sides
sheet (``seen2`` .. ``seen5``) and summed on the work sheet: the preliminary rating of the
unrated players, their temporary rating, the provisional players' new rating, the unrated
players' first rating, then the established players by the CFC's table, the 2012-S bonus, a
match's limit and the low-rating rules. Nothing iterates: every case fits the laid-out steps.
"""

from __future__ import annotations

from xl_elo.federations import get
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


def _round(x: str) -> str:
    """Halves away from zero (rules 1.3)."""
    return f"SIGN({x})*INT(ABS({x})+0.5)"

#: The rooms shipped in workbooks/: a club's event of 40 players, up to ten rounds (one printed page), then a larger event's (three pages;
#: its own file, named for its room). Any other: xl-elo workbooks --players N.
ROOMS = (Capacity(40, 200, 0), Capacity(120, 600, 0))
CAPACITY = ROOMS[0]


def spec(cap: Capacity | None = None) -> Template:
    cfc = get("cfc")
    cap = cap or CAPACITY
    sides = sides_sheet(cap)
    work = work_sheet(cap)
    est_games = cfc.ESTABLISHED_GAMES
    work.add(*key_columns())
    work.add(
        Col("rating_of", "rating (0 when blank)", "=N([rating])", "11.7", "cote (0 si vide)"),
        Col("highest", "highest before",
            '=IF(ISNUMBER([players:highest]),IF([players:highest]<>0,[players:highest],""),"")', "11.6",
            "record avant", fmt="0"),
        Col("n", "games rated", f"=COUNTIFS(side_who,{POS},side_counts,1)", "11.1", "parties classées"),
        Col("s", "S", f"=SUMIFS(side_score,side_who,{POS},side_counts,1)", "11.5", "S"),
        Col("wins", "W", f"=COUNTIFS(side_who,{POS},side_counts,1,side_score,1)", "11.4", "V"),
        Col("losses", "L", f"=COUNTIFS(side_who,{POS},side_counts,1,side_score,0)", "11.4", "D"),
        Col("unrated", "unrated", '=IF(AND([key]<>"",[rated]=0),1,0)', "11.2", "sans cote"),
        Col("est", f"414b this event ({est_games} games reached)",
            f'=IF(AND([rated]=1,[games]+[n]>={est_games}),1,0)', "11.4", "414b dans ce tournoi"),
        Col("prov", "provisional (414a)", '=IF(AND([rated]=1,[est]=0),1,0)', "11.4", "provisoire (414a)"),
        Col("margin", "400 (W - L) / N", '=IF([n]=0,"",400*([wins]-[losses])/[n])', "11.4", "400 (V - D) / N",
            fmt="0.00"),
        Col("of_opp", "step 1: Ro - 400 (W - L) / N", '=IF(AND([rated]=1,[n]>0),[rating]-[margin],"")', "11.7",
            "étape 1", fmt="0.00"),
    )
    # step 2: the unrated players' temporary rating, unrated opponents at the preliminary rating
    sides.add(Col("seen2", "step 2: opponent counts as",
                  '=IF([counts]=1,IF(INDEX(w_unrated,[opp])=1,prelim,INDEX(w_rating_of,[opp])),"")', "11.7",
                  "étape 2 : l'adversaire compte pour"))
    work.add(Col("temp", "step 2: temporary rating",
                 f'=IF(AND([unrated]=1,[n]>0),SUMIFS(side_seen2,side_who,{POS},side_counts,1)/[n]+[margin],"")',
                 "11.7", "étape 2 : cote temporaire", fmt="0.00"))
    # step 3: provisional players
    sides.add(Col("seen3", "step 3: opponent counts as",
                  '=IF([counts]=1,IF(INDEX(w_unrated,[opp])=1,INDEX(w_temp,[opp]),INDEX(w_rating_of,[opp])),"")',
                  "11.7", "étape 3 : l'adversaire compte pour"))
    work.add(
        Col("rc3", "step 3: Rc", f'=IF(AND([prov]=1,[n]>0),SUMIFS(side_seen3,side_who,{POS},side_counts,1)/[n],"")',
            "11.4", "étape 3 : Rc", fmt="0.00"),
        Col("perf3", "step 3: performance", '=IF([rc3]="","",[rc3]+[margin])', "11.4", "étape 3 : performance",
            fmt="0.00"),
        Col("post3", "step 3: new rating, rounded",
            f'=IF([rc3]="",[rating_of],{_round("([games]*[rating]+[n]*[perf3])/([games]+[n])")})', "11.4",
            "étape 3 : nouvelle cote", fmt="0"),
    )
    # step 4: the unrated players' first rating
    sides.add(Col("seen4", "step 4: opponent counts as",
                  '=IF([counts]=1,IF(INDEX(w_unrated,[opp])=1,INDEX(w_temp,[opp]),INDEX(w_post3,[opp])),"")',
                  "11.7", "étape 4 : l'adversaire compte pour"))
    work.add(
        Col("rc4", "step 4: Rc",
            f'=IF(AND([unrated]=1,[n]>0),SUMIFS(side_seen4,side_who,{POS},side_counts,1)/[n],"")', "11.4",
            "étape 4 : Rc", fmt="0.00"),
        Col("perf4", "step 4: performance", '=IF([rc4]="","",[rc4]+[margin])', "11.4", "étape 4 : performance",
            fmt="0.00"),
        Col("first", "step 4: first rating, rounded", f'=IF([rc4]="","",{_round("[perf4]")})', "11.4",
            "étape 4 : première cote", fmt="0"),
    )
    # step 5: established players by the table (414b)
    sides.add(
        Col("seen5", "step 5: opponent counts as",
            '=IF([counts]=1,IF(INDEX(w_unrated,[opp])=1,INDEX(w_first,[opp]),INDEX(w_post3,[opp])),"")', "11.7",
            "étape 5 : l'adversaire compte pour"),
        Col("pct", "table x 100",
            '=IF([counts]<>1,"",IF(INDEX(w_est,[who])<>1,"",IF(INDEX(w_rating_of,[who])-[seen5]>=0,'
            'LOOKUP(INDEX(w_rating_of,[who])-[seen5],cfc_lower,cfc_pct),100-LOOKUP([seen5]-'
            'INDEX(w_rating_of,[who]),cfc_lower,cfc_pct))))', "11.3", "table x 100"),
    )
    pivot, down = cfc.GAIN_PIVOT, cfc.LOSS_PIVOT
    ke = f"([k]/{cfc.K})"
    work.add(
        Col("rc5", "step 5: Rc", f'=IF(AND([est]=1,[n]>0),SUMIFS(side_seen5,side_who,{POS},side_counts,1)/[n],"")',
            "11.4", "étape 5 : Rc", fmt="0.00"),
        Col("sx", "Sx x 100", f"=SUMIFS(side_pct,side_who,{POS},side_counts,1)", "11.3", "Sx x 100"),
        Col("k", "K", f"=IF([rating_of]>={cfc.K_HIGH_FROM},{cfc.K_HIGH},{cfc.K})", "11.5", "K"),
        Col("raw", "Ro + K (S - Sx)", "=(100*[rating_of]+[k]*(ROUND(100*[s],0)-[sx]))/100", "11.5",
            "Ro + K (S - Sx)", fmt="0.00"),
        Col("rn", "Rn (2199 rules)",
            f"=IF(AND([rating_of]<{pivot},[raw]>{pivot}),{pivot}+([raw]-{pivot})/2,IF(AND([rating_of]>{pivot},"
            f"[raw]<{down}),{down}-2*({down}-[raw]),[raw]))", "11.5", "Rn (règles de 2199)", fmt="0.00"),
        Col("new", "Rn, rounded", f"={_round('[rn]')}", "11.5", "Rn arrondi", fmt="0"),
        Col("thr", "bonus threshold",
            f'=IF([n]>={cfc.BONUS_MIN_GAMES},{cfc.BONUS_THRESHOLD}*{ke}*SQRT([n]),"")', "11.6", "seuil du boni",
            fmt="0.00"),
        Col("b_high", "BONUS1 (all-time high)",
            f'=IF(AND([est]=1,[thr]<>""),IF(ISNUMBER([highest]),IF([new]>MAX([highest],[rating_of]),'
            f'{cfc.BONUS_MAX}*{ke},0),0),0)', "11.6", "BONUS1 (record)", fmt="0.00"),
        Col("b_change", "BONUS2",
            f'=IF(AND([est]=1,[thr]<>""),IF([new]>[rating_of]+[thr],{cfc.BONUS_CHANGE}*([new]-[rating_of]-[thr])*'
            f'{ke},0),0)', "11.6", "BONUS2", fmt="0.00"),
        Col("points", "bonus, rounded", f"={_round('[b_high]+[b_change]')}", "11.6", "boni arrondi", fmt="0"),
        Col("before_bonus", "new rating before the bonus",
            '=IF([n]=0,"",IF([unrated]=1,[first],IF([est]=1,[new],[post3])))', "11.6", "nouvelle cote avant boni",
            fmt="0"),
        Col("total", "change with the bonus",
            '=IF(OR([n]=0,[unrated]=1),0,[before_bonus]+IF([est]=1,[points],0)-[rating_of])', "11.6",
            "variation avec le boni"),
        Col("capped", "after a match's limit",
            f"=IF(match_event,MAX(-{cfc.MATCH_CAP},MIN({cfc.MATCH_CAP},[total])),[total])", "11.8",
            "après la limite d'un match"),
        Col("unadj", "before the low-rating rules", '=IF([unrated]=1,[first],[rating_of]+[capped])', "11.9",
            "avant les règles des cotes basses"),
        Col("adj", "after the low-rating rules",
            f'=IF([n]=0,"",MAX({cfc.BOTTOM},IF(AND([rated]=1,[games]>={est_games},[unadj]<{cfc.LOW_LINE}),'
            f'IF([rating_of]>{cfc.LOW_FLOOR},{cfc.LOW_FLOOR},MAX([rating_of],[unadj])),[unadj])))', "11.9",
            "après les règles des cotes basses", fmt="0"),
        Col("after", "new rating", '=IF([key]="","",IF([n]=0,[rating],[adj]))', "11.9", "nouvelle cote", fmt="0"),
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
    note = (f'IF([n]=0,"",IF([games]+[n]<{published},"published from {published} rated games (434)",'
            f'IF(AND([est]=1,[thr]<>"",NOT(ISNUMBER([highest])),[new]>[rating_of]),'
            '"highest not given: no all-time-high bonus","")))')
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
            row(f'IF(AND([rated]=0,[n]=0),"",IF([games]+[n]<{est_games},"yes","no"))'), "11.2"),
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
        *sort_columns(),
    )
    highest = Input("highest", "Highest rating before (blank: not known)", "Cote record avant (vide : inconnue)", 11,
                    rating_check("highest"), ("whole", 0, 3500))
    rules_en = [
        f"CFC (xl-elo rules 11; CFC Handbook, Section 4), in the order of 417, each step in its own columns (no "
        f"case needs more steps): the unrated players' preliminary rating (the average of Ro - 400 (W - L) / N - "
        f"{cfc.PRELIMINARY_OFFSET} over the rated players, or the setting 'preliminary' when more than half are "
        f"unrated), their temporary rating, then provisional players (fewer than {est_games} games: Rc + 400 (W - "
        f"L) / N, averaged with the old rating by games), the unrated players' first rating, then established "
        f"players: Rn = Ro + {cfc.K} (S - Sx) with Sx from the CFC table (K {cfc.K_HIGH} from {cfc.K_HIGH_FROM}, "
        f"the 2199 rules), rounded; the bonus of Motion 2012-S from {cfc.BONUS_MIN_GAMES} games ({cfc.BONUS_MAX} Ke "
        f"at an all-time high: give the column 'highest'; {cfc.BONUS_CHANGE} Ke per point above {cfc.BONUS_THRESHOLD}"
        f" Ke sqrt(n)); at most {cfc.MATCH_CAP} either way in a match; below {cfc.LOW_LINE} an established player "
        f"stays at {cfc.LOW_FLOOR} or his old rating, nobody below {cfc.BOTTOM}.",
    ]
    rules_fr = [
        f"FCE / CFC (xl-elo rules 11 ; manuel de la CFC, section 4), dans l'ordre de 417, chaque étape dans ses "
        f"colonnes (aucun cas n'en demande plus) : cote préliminaire des sans cote (moyenne de Ro - 400 (V - D) / N "
        f"- {cfc.PRELIMINARY_OFFSET} sur les joueurs cotés, ou le réglage 'preliminary' s'ils sont plus de la "
        f"moitié), leur cote temporaire, puis les cotes provisoires (moins de {est_games} parties), la première cote "
        f"des sans cote, puis les cotes établies : Rn = Ro + {cfc.K} (S - Sx), Sx lu dans la table de la CFC (K "
        f"{cfc.K_HIGH} dès {cfc.K_HIGH_FROM}), arrondi ; le boni de la motion 2012-S dès {cfc.BONUS_MIN_GAMES} "
        f"parties ; {cfc.MATCH_CAP} points au plus dans un match ; jamais sous {cfc.BOTTOM}.",
    ]
    new_count = "COUNTIFS(w_unrated,1,w_n,\">0\")"
    played_count = "COUNTIF(w_n,\">0\")"
    return Template(
        federation="cfc", title="CFC (Canada) event rating", title_fr="Cote CFC (Canada) d'un tournoi",
        players=player_inputs("id", "name", "rating", "games", own=[highest]),
        games=game_inputs("round", "player", "opponent", "result"), history=None,
        settings=[period_setting(cfc.NEEDS_PERIOD), event_setting(), *option_settings(cfc)],
        rules_en=rules_en, rules_fr=rules_fr, sheets=[work, sides],
        results=[
            ResultCol("id", "Id", "Id", width=12), ResultCol("name", "Name", "Nom", width=24),
            ResultCol("status", "Status", "Statut", width=11),
            ResultCol("rating_before", "Rating before", "Cote avant", "0", 9),
            ResultCol("games_rated", "Games", "Parties", "0", 7), ResultCol("score", "Score", "Points", "0.0", 6),
            ResultCol("expected", "Sx", "Sx", "0.00", 6),
            ResultCol("performance", "Performance", "Performance", "0", 11),
            ResultCol("rating_before_bonus", "Before bonus", "Avant boni", "0", 9),
            ResultCol("bonus", "Bonus", "Boni", "0", 6),
            ResultCol("change", "Change", "Variation", "+0;-0;0", 9),
            ResultCol("rating_after", "New rating", "Nouvelle cote", "0", 10),
            ResultCol("games_after", "Games after", "Parties après", "0", 8),
            ResultCol("provisional", "Provisional", "Provisoire", width=10),
            ResultCol("k", "K", "K", "0", 5, printed=False), ResultCol("formula", "Formula", "Formule", printed=False),
            ResultCol("wins", "W", "V", "0", 5, printed=False), ResultCol("losses", "L", "D", "0", 5, printed=False),
            ResultCol("rc", "Rc", "Rc", "0.00", 8, printed=False),
            ResultCol("rn", "Rn", "Rn", "0.00", 8, printed=False),
            ResultCol("threshold", "Threshold", "Seuil", "0.00", 8, printed=False),
            ResultCol("bonus_high", "BONUS1", "BONUS1", "0.00", 8, printed=False),
            ResultCol("bonus_change", "BONUS2", "BONUS2", "0.00", 8, printed=False),
            ResultCol("match_cap", "Match cap", "Limite de match", "0", 8, printed=False),
            ResultCol("floor", "Low-rating rules", "Cotes basses", "0", 8, printed=False),
            ResultCol("note", "Note", "Note", width=40),
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
             "no player who played has a CFC rating (419) / aucun joueur coté n'a joué"),
            (f"AND({new_count}>0,{new_count}/MAX(1,{played_count})>{cfc.UNRATED_SHARE},N(opt_preliminary)<=0)",
             "more than half the players are unrated: give their preliminary rating (setting preliminary, 417) / "
             "plus de la moitié sans cote : donnez leur cote préliminaire"),
        ],
    )
