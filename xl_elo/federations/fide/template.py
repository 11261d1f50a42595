"""The FIDE template: a rating month with native formulas (rules 2), every column headed by its rule."""

from __future__ import annotations

from xl_elo.federations import get
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
from xl_elo.templates.spec import Capacity, Col, ResultCol, Template

#: The rooms shipped in workbooks/: a club's rating month: its tournaments and league games, 40 players (one printed page), then a larger event's (three pages;
#: its own file, named for its room). Any other: xl-elo workbooks --players N.
ROOMS = (Capacity(40, 300, 0), Capacity(120, 1200, 0))
CAPACITY = ROOMS[0]

FILE = "fide_period.xlsx"


def spec(cap: Capacity | None = None) -> Template:
    fide = get("fide")
    cap = cap or CAPACITY
    sides = sides_sheet(cap)
    work = work_sheet(cap)
    standard = 'LOWER(TRIM(opt_list&""))="standard"'
    # a rating typed recalculates every side: as few columns per side as the rules' steps need
    sides.add(
        Col("rw", "player's rating", '=IF([counts]=1,IF(INDEX(w_rated,[who])=1,INDEX(w_rating,[who]),""),"")', "2.1",
            "cote du joueur"),
        Col("ro", "opponent's rating", '=IF([counts]=1,IF(INDEX(w_rated,[opp])=1,INDEX(w_rating,[opp]),""),"")',
            "2.1", "cote de l'adversaire"),
        Col("far", f"rapid, blitz: {fide.NOT_RATED_GAP} apart, one above {fide.NOT_RATED_ABOVE}",
            f'=IF(AND(ISNUMBER([rw]),ISNUMBER([ro])),IF({standard},0,IF(AND(ABS([rw]-[ro])>={fide.NOT_RATED_GAP},'
            f'MAX([rw],[ro])>{fide.NOT_RATED_ABOVE}),1,0)),0)', "2.9",
            f"rapide, blitz : {fide.NOT_RATED_GAP} d'écart, l'un au-dessus de {fide.NOT_RATED_ABOVE}"),
        Col("both", "both rated: a rated game", '=IF(AND(ISNUMBER([rw]),ISNUMBER([ro])),1-[far],0)', "2.1",
            "les deux classés"),
        Col("new", "unrated against rated", '=IF(AND([counts]=1,NOT(ISNUMBER([rw])),ISNUMBER([ro])),1,0)', "2.4",
            "non classé contre classé"),
        Col("capped", "difference, 400-point rule",
            f'=IF([both]=1,IF(AND({standard},[rw]>={fide.NO_CAP_FROM}),[rw]-[ro],MAX(-{fide.DIFFERENCE_CAP},'
            f'MIN({fide.DIFFERENCE_CAP},[rw]-[ro]))),"")', "2.2", "écart, règle des 400 points"),
        Col("pd", "PD x 100 (logistic: 100 E)",
            '=IF([both]=1,IF(TRIM(opt_expected_method&"")="logistic",100/(1+10^(([ro]-[rw])/400)),'
            'IF([capped]>=0,LOOKUP([capped],fide_lower,fide_pct),100-LOOKUP(-[capped],fide_lower,fide_pct))),"")',
            "2.2", "PD x 100"),
    )
    work.add(*key_columns())
    work.add(
        Col("age", "age in the period's year",
            '=IF(AND(ISNUMBER([players:birth_year]),ISNUMBER(period_year)),period_year-[players:birth_year],"")',
            "2.3", "âge dans l'année de la période"),
        Col("ever", "2400 reached before", "=" + yes_value("[players:ever_2400]"), "2.3", "2400 déjà atteint"),
        Col("n", "games rated", f"=COUNTIFS(side_who,{POS},side_both,1)", "2.1", "parties classées"),
        Col("nfar", "games not rated (rapid, blitz: far apart)", f"=COUNTIFS(side_who,{POS},side_far,1)", "2.9",
            "parties non classées (rapide, blitz : trop d'écart)"),
        Col("s", "score", f"=SUMIFS(side_score,side_who,{POS},side_both,1)", "2.1", "points"),
        Col("nn", "games vs rated (unrated)", f"=COUNTIFS(side_who,{POS},side_new,1)", "2.4",
            "parties contre classés (non classé)"),
        Col("sn", "score vs rated (unrated)", f"=SUMIFS(side_score,side_who,{POS},side_new,1)", "2.4",
            "points contre classés"),
        Col("pd", "sum PD x 100", f"=SUMIFS(side_pd,side_who,{POS},side_both,1)", "2.2", "somme PD x 100"),
        Col("so", "sum of opponents", f"=SUMIFS(side_ro,side_who,{POS},side_both,1)", "2.6", "somme des adversaires"),
        Col("kbase", "K before the 700 rule",
            f'=IF(OR([games]<{fide.NEW_PLAYER_GAMES},AND(ISNUMBER([age]),N([age])<={fide.JUNIOR_AGE},'
            f'N([rating])<{fide.JUNIOR_RATING_LIMIT})),{fide.K_NEW},IF(OR([ever]=1,N([rating])>={fide.K10_RATING}),'
            f'{fide.K_2400},{fide.K_STANDARD}))', "2.3", "K avant la règle des 700"),
        Col("k", "K", f'=IF([n]>0,MIN([kbase],INT({fide.K_TIMES_GAMES_MAX}/[n])),[kbase])', "2.3", "K"),
        Col("change", "change, halves away from zero",
            '=IF(TRIM(opt_expected_method&"")="logistic",SIGN([k]*([s]-[pd]/100))*INT(ABS([k]*([s]-[pd]/100))+0.5),'
            'SIGN([k]*(100*[s]-[pd]))*INT((ABS([k]*(100*[s]-[pd]))+50)/100))', "2.1",
            "variation, demis loin de zéro", fmt="0"),
        Col("ppct", "p x 100", '=IF([n]>0,INT((400*[s]+2*[n])/(4*[n])),"")', "2.6", "p x 100"),
        Col("dp", "dp", '=IF([n]=0,"",INDEX(fide_dp,[ppct]+1))', "2.6", "dp"),
        Col("perf", "performance", '=IF([dp]="","",[so]/[n]+[dp])', "2.6", "performance", fmt="0.00"),
        Col("son", "sum of rated opponents", f"=SUMIFS(side_ro,side_who,{POS},side_new,1)", "2.4",
            "somme des adversaires classés"),
        Col("ra", "Ra", f'=([son]+2*{fide.HYPOTHETICAL_OPPONENT})/([nn]+2)', "2.4", "Ra", fmt="0.00"),
        Col("npct", "p x 100 (two draws)", '=INT((400*[sn]+400+2*[nn]+4)/(4*[nn]+8))', "2.4", "p x 100 (deux nulles)"),
        Col("ndp", "dp (first rating)", "=INDEX(fide_dp,[npct]+1)", "2.4", "dp (premier classement)"),
        Col("enough", "enough for a first rating",
            f'=IF(AND([nn]>={fide.FIRST_RATING_MIN_GAMES},[sn]>={fide.FIRST_RATING_MIN_SCORE}),1,0)', "2.4",
            "assez pour un premier classement"),
        Col("ru", "Ru", f'=MIN({fide.FIRST_RATING_CAP},INT([ra]+[ndp]+0.5))', "2.4", "Ru"),
    )

    def rated(yes: str, no: str) -> str:
        return f'=IF([key]="","",IF([rated]=1,{yes},{no}))'

    below = f"[rating]+[change]<{fide.RATING_FLOOR}"
    floor_text = (f'"new rating "&INT([rating]+[change])&" is below {fide.RATING_FLOOR}: shown as unrated on the '
                  'next list (rules 2.8)"')
    gap_text = (f'[nfar]&" game(s) not rated: {fide.NOT_RATED_GAP} points or more apart, one above '
                f'{fide.NOT_RATED_ABOVE} ("&LOWER(TRIM(opt_list&""))&" list, rules 2.9)"')
    rated_note = (f'IF({below},{floor_text}&IF([nfar]>0,"; "&{gap_text},""),IF([nfar]>0,{gap_text},""))')

    first_note = (f'IF([enough]=0,"unrated: needs {fide.FIRST_RATING_MIN_GAMES} games against rated opponents and '
                  f'{fide.FIRST_RATING_MIN_SCORE:g} points",IF([ru]<{fide.RATING_FLOOR},"below floor: Ra + dp = "&'
                  f'FIXED([ra]+[ndp],0,TRUE)&" is below the floor of {fide.RATING_FLOOR}: not published",'
                  f'"first rating: Ra "&FIXED([ra],2,TRUE)&", p "&FIXED([npct]/100,2,TRUE)&", dp "&[ndp]))')
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
        *sort_columns(),
    )
    rules_en = [
        f"FIDE (xl-elo rules 2): the expected score PD from FIDE's table, a difference over {fide.DIFFERENCE_CAP} "
        f"counting {fide.DIFFERENCE_CAP} below {fide.NO_CAP_FROM}; K {fide.K_NEW} for the first "
        f"{fide.NEW_PLAYER_GAMES} games and, below {fide.JUNIOR_RATING_LIMIT}, until the end of the year of the "
        f"{fide.JUNIOR_AGE}th birthday; {fide.K_2400} once {fide.K10_RATING} was reached; {fide.K_STANDARD} "
        f"otherwise; K x games at most {fide.K_TIMES_GAMES_MAX}; the sum K x (score - PD) rounded, halves away from "
        f"zero. Unrated players: a first rating from at least {fide.FIRST_RATING_MIN_GAMES} games against rated "
        f"players with two draws against {fide.HYPOTHETICAL_OPPONENT}, at most {fide.FIRST_RATING_CAP}, not "
        f"published below {fide.RATING_FLOOR}. A game against an unrated player is not rated for the rated one. "
        f"A rated player whose new rating is below {fide.RATING_FLOOR} is shown as unrated on the next list (no new "
        f"rating). The setting list: standard, rapid or blitz; on the rapid and blitz lists the {fide.DIFFERENCE_CAP}-"
        f"point rule holds for every player and a game between players {fide.NOT_RATED_GAP} or more apart, one above "
        f"{fide.NOT_RATED_ABOVE}, is not rated; a player without a rapid or blitz rating plays with his standard "
        "rating (type it as his rating).",
    ]
    rules_fr = [
        f"FIDE (xl-elo rules 2) : l'espérance PD lue dans la table FIDE, un écart de plus de {fide.DIFFERENCE_CAP} "
        f"comptant {fide.DIFFERENCE_CAP} sous {fide.NO_CAP_FROM} ; K {fide.K_NEW} pour les "
        f"{fide.NEW_PLAYER_GAMES} premières parties et, sous {fide.JUNIOR_RATING_LIMIT}, jusqu'à la fin de l'année "
        f"des {fide.JUNIOR_AGE} ans ; {fide.K_2400} une fois {fide.K10_RATING} atteint ; {fide.K_STANDARD} sinon ; "
        f"K x parties au plus {fide.K_TIMES_GAMES_MAX} ; la somme K x (résultat - PD) arrondie, les demis en "
        f"s'éloignant de zéro. Non classés : premier classement sur au moins {fide.FIRST_RATING_MIN_GAMES} parties "
        f"contre des classés, avec deux nulles contre {fide.HYPOTHETICAL_OPPONENT}, au plus "
        f"{fide.FIRST_RATING_CAP}, non publié sous {fide.RATING_FLOOR}. Un joueur classé dont le nouveau classement "
        f"est sous {fide.RATING_FLOOR} figure comme non classé sur la liste suivante (pas de nouveau classement). Le "
        f"réglage list : standard, rapid ou blitz ; en rapide et en blitz la règle des {fide.DIFFERENCE_CAP} points "
        f"vaut pour tous et une partie entre joueurs à {fide.NOT_RATED_GAP} points ou plus l'un de l'autre, l'un "
        f"au-dessus de {fide.NOT_RATED_ABOVE}, n'est pas classée ; un joueur sans classement rapide ou blitz joue avec "
        "son classement standard (le saisir comme son classement).",
    ]
    return Template(
        federation="fide", title="FIDE rating period", title_fr="Période de classement FIDE",
        players=player_inputs("id", "name", "rating", "games", "birth_year", own=[
            yes_no_input("ever_2400", "Rating has reached 2400: yes/no", "A atteint 2400 : oui/non", 10)]),
        games=game_inputs("round", "player", "opponent", "result"), history=None,
        settings=[period_setting(fide.NEEDS_PERIOD), event_setting(), *option_settings(fide)],
        rules_en=rules_en, rules_fr=rules_fr, sheets=[sides, work],
        results=results_layout(ResultCol("ever_2400", "2400 reached", "2400 atteint", width=8),
                               ResultCol("note", "Note", "Note", width=56)),
        lists=[("FIDE PD", ["fide_lower", "fide_pct"], [(lo, pct) for lo, _, pct in FIDE_PD_ROWS]),
               ("FIDE D(P)", ["fide_p", "fide_dp"], [(p, FIDE_DP_TABLE[p]) for p in range(101)])],
        player_checks=player_checks(), game_checks=game_checks(), capacity=cap,
    )
