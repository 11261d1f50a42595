"""The DWZ template: a tournament with native formulas (rules 9), every column headed by its rule.

The sheets follow the engine's order: the stages of the new players (rules 9.7), their start
values and a fixed number of sweeps of the simultaneous iteration, the established players'
performance by the DSB's integer iteration (9.6), the Sonderwertung (9.8) and a second pass of
the new players' iteration with the exceptional players at their performance (the same as the
first when none of them met a new player), then E and the new DWZ (9.3, 9.5). When an iteration
has not settled within its sweeps the results say so and show no rating.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

import xl_elo.federations.dwz as dwz
from xl_elo.templates.common import (
    POS,
    blank,
    digit_count,
    event_setting,
    game_checks,
    game_inputs,
    history_inputs,
    number_check,
    option_settings,
    period_setting,
    player_inputs,
    reason,
    result_key,
    sides_sheet,
    sort_columns,
    text_of,
    work_sheet,
)
from xl_elo.templates.spec import FIRST, Capacity, Col, Input, ResultCol, Sheet, Template
from xl_elo.words import F, _, heading, text_formula

#: The rooms shipped in workbooks/: a club tournament of 40 players, up to ten rounds (one printed page),
#: then a larger event's (its own file, named for its room). Any other: xl-elo workbooks --players N.
ROOMS = (Capacity(40, 200, 80), Capacity(100, 500, 200))
CAPACITY = ROOMS[0]
#: The languages shipped, the first unsuffixed: the German federation's (the DSB's own terms).
LANGUAGES = ('de',)
#: No season template (rules 14): its results pasted into the next copy carry the list on.
SEASON = None
#: Languages it speaks besides, built on request (xl-elo workbooks --language): none.
SPEAKS: tuple[str, ...] = ()
#: Sweeps of each iteration the workbook computes (rules 9.10).
SWEEPS = 30


def with_index_check(column: str, check: str) -> str:
    """``check``, a DWZ written with its index in one cell (``1850-12``) named first, in the reader's words
    (:func:`xl_elo.federations.dwz.with_index`, rules 9.4)."""
    t = text_of("[x]")
    dash = f'IFERROR(FIND("-",{t}),0)'
    left, right = f"TRIM(LEFT({t},MAX({dash}-1,0)))", f"TRIM(MID({t},{dash}+1,99))"
    near = (f'AND(ISTEXT([x]),{dash}>1,LEN({t})-LEN(SUBSTITUTE({t},"-",""))=1,LEN({left})>=3,LEN({left})<=4,'
            f'LEN({right})>=1,LEN({right})<=3,{digit_count(left)}=LEN({left}),{digit_count(right)}=LEN({right}))')
    said = text_formula("{value} is a DWZ with its index, as the DSB writes it: give the DWZ ({rating}) in the rating "
                        "column and the index ({index}) in the index column", value=F(f'"\'"&{t}&"\'"'),
                        rating=F(left), index=F(right))
    words = text_formula("{column}: {reason}; ", column=heading(column), reason=F(said))
    return f"IF(IFERROR({near},FALSE),{words},{check})"


def _p(d: str) -> str:
    """P(D) of a difference (rules 9.2)."""
    return f"_xlfn.NORM.S.DIST(({d})/(200*SQRT(2)),TRUE)"


def _d(p: str) -> str:
    """D(p) rounded, p kept within the engine's bounds (rules 9.6, 9.10)."""
    lo, hi = dwz.P_BOUNDS
    return f"ROUND(_xlfn.NORM.S.INV(MIN(MAX({p},{lo}),{hi}))*200*SQRT(2),0)"


def spec(cap: Capacity | None = None) -> Template:
    cap = cap or CAPACITY
    sides = sides_sheet(cap)
    work = work_sheet(cap)
    hw = Sheet("history_work", "hw_", FIRST, FIRST + cap.history - 1, leading=[("row", lambda r: r - FIRST + 1)])
    n_min = dwz.MIN_GAMES

    work.add(
        Col("key", "id", f'=IF({blank("[players:id]")},"",{text_of("[players:id]")})', "8"),
        Col("rated", "has a DWZ", '=IF(AND([key]<>"",ISNUMBER([players:rating])),IF([players:rating]<>0,1,0),0)',
            "9.1"),
        Col("rating", "DWZ before", '=IF([rated]=1,[players:rating],"")', "9.5", fmt="0"),
        Col("r0", "DWZ before (0: none)", "=IF([rated]=1,[rating],0)", "9.5"),
        Col("idx", "index", '=IF(AND([rated]=1,ISNUMBER([players:index])),[players:index],"")', "9.4"),
        Col("age", "age in the tournament's year",
            '=IF(AND(ISNUMBER([players:birth_year]),ISNUMBER(period_year)),period_year-[players:birth_year],"")',
            "9.3"),
        Col("j", "J", f'=IF([age]="",{dwz.J_ADULT},IF([age]<={dwz.YOUTH_AGE},{dwz.J_YOUTH},IF([age]<='
                      f'{dwz.JUNIOR_AGE},{dwz.J_JUNIOR},{dwz.J_ADULT})))', "9.3"),
    )
    hw.add(
        Col("who", "player (position; 0: not one without a DWZ)",
            f'=IF({blank("[history:id]")},0,IFERROR(IF(INDEX(w_rated,MATCH({text_of("[history:id]")},w_key,0))=0,'
            f'MATCH({text_of("[history:id]")},w_key,0),0),0))', "9.7"),
        Col("o", "opponent's rating as it counted", "=IF([who]=0,0,N([history:opponent_rating]))", "9.7"),
        Col("s", "score",
            f'=IF([who]=0,0,IF(ISNUMBER([history:result]),[history:result],IFERROR(INDEX(result_score,'
            f'MATCH({result_key("[history:result]")},result_key,0)),0)))', "9.7"),
    )
    work.add(
        Col("hn", "remaining games", f"=COUNTIF(hw_who,{POS})", "9.7"),
        Col("hs", "their score", f"=SUMIFS(hw_s,hw_who,{POS})", "9.7"),
        Col("ho", "their opponents' sum", f"=SUMIFS(hw_o,hw_who,{POS})", "9.7"),
    )
    # the stages (rules 9.7)
    sides.add(Col("ohas", "opponent has a DWZ", "=IF([counts]=1,INDEX(w_rated,[opp]),0)", "9.7"))
    work.add(
        Col("n1", "games against players with a DWZ",
            f"=COUNTIFS(side_who,{POS},side_counts,1,side_ohas,1)+[hn]", "9.7"),
        Col("w1", "their points", f"=SUMIFS(side_score,side_who,{POS},side_counts,1,side_ohas,1)+[hs]", "9.7"),
        Col("stage1", "first stage", f'=IF(AND([key]<>"",[rated]=0,[n1]>={n_min},[w1]>0,[w1]<[n1]),1,0)', "9.7"),
        Col("a1", "in Auswahl I", "=IF(OR([rated]=1,[stage1]=1),1,0)", "9.7"),
    )
    sides.add(Col("oa1", "opponent in Auswahl I", "=IF([counts]=1,INDEX(w_a1,[opp]),0)", "9.7"))
    work.add(
        Col("n2", "games against Auswahl I", f"=COUNTIFS(side_who,{POS},side_counts,1,side_oa1,1)+[hn]", "9.7"),
        Col("w2", "their points", f"=SUMIFS(side_score,side_who,{POS},side_counts,1,side_oa1,1)+[hs]", "9.7"),
        Col("stage", "stage (0: none)",
            f'=IF([stage1]=1,1,IF(AND([key]<>"",[rated]=0,[n2]>={n_min},[w2]>0,[w2]<[n2]),2,0))', "9.7"),
        Col("new", "gets a first DWZ", "=IF([stage]>0,1,0)", "9.7"),
        Col("pool", "in Auswahl II", "=IF(OR([rated]=1,[new]=1),1,0)", "9.7"),
    )
    sides.add(Col("opool", "opponent in Auswahl II", "=IF([counts]=1,INDEX(w_pool,[opp]),0)", "9.1"))
    work.add(
        Col("n", "games counted", f"=COUNTIFS(side_who,{POS},side_counts,1,side_opool,1)+IF([rated]=0,[hn],0)",
            "9.5"),
        Col("s", "W", f"=SUMIFS(side_score,side_who,{POS},side_counts,1,side_opool,1)+IF([rated]=0,[hs],0)", "9.5"),
    )

    def passes(tag: str, seen: str) -> None:
        """Start values and the sweeps of the new players' iteration, players with a DWZ at ``seen``."""
        sides.add(Col(f"ov1{tag}", _('opponent with a DWZ, pass {tag}', tag=tag),
                      f'=IF(AND([counts]=1,[ohas]=1),INDEX(w_{seen},[opp]),"")', "9.7"))
        work.add(
            Col(f"rp1{tag}", _('Rp, first stage, pass {tag}', tag=tag),
                f'=IF([stage1]=1,ROUND((SUMIFS(side_ov1{tag},side_who,{POS},side_counts,1,side_ohas,1)+[ho])/[n1],0)'
                f'+{_d("[w1]/[n1]")},"")', "9.7"))
        sides.add(Col(f"ov2{tag}", _('opponent in Auswahl I, pass {tag}', tag=tag),
                      f'=IF(AND([counts]=1,[oa1]=1),IF(INDEX(w_rated,[opp])=1,INDEX(w_{seen},[opp]),'
                      f'INDEX(w_rp1{tag},[opp])),"")', "9.7"))
        work.add(
            Col(f"rp{tag}", _('Rp = Rc + D(W / n), pass {tag}', tag=tag),
                f'=IF([stage]=1,[rp1{tag}],IF([stage]=2,ROUND((SUMIFS(side_ov2{tag},side_who,{POS},side_counts,1,'
                f'side_oa1,1)+[ho])/[n2],0)+{_d("[w2]/[n2]")},""))', "9.7"),
            Col(f"it{tag}_0", _('iteration {tag}, start', tag=tag), f"=[rp{tag}]", "9.7"))
        for k in range(1, SWEEPS + 1):
            before = f"it{tag}_{k - 1}"
            sides.add(Col(f"p{tag}_{k}", _('P(D), pass {tag}, sweep {k}', tag=tag, k=k),
                          '=IF(AND([counts]=1,[opool]=1),IF(INDEX(w_new,[who])=1,'
                          + _p(f"INDEX(w_{before},[who])-IF(INDEX(w_rated,[opp])=1,INDEX(w_{seen},[opp]),"
                               f"INDEX(w_{before},[opp]))") + ',""),"")', "9.7"))
            hw.add(Col(f"p{tag}_{k}", _('P(D), pass {tag}, sweep {k}', tag=tag, k=k),
                       f'=IF([who]=0,"",IF(INDEX(w_new,[who])=1,{_p(f"INDEX(w_{before},[who])-[o]")},""))', "9.7"))
            we = (f"(SUMIFS(side_p{tag}_{k},side_who,{POS},side_counts,1,side_opool,1)"
                  f"+SUMIFS(hw_p{tag}_{k},hw_who,{POS}))")
            work.add(Col(f"it{tag}_{k}", _('iteration {tag}, sweep {k}', tag=tag, k=k),
                         f'=IF([new]=1,[{before}]+{_d(f"([s]-{we})/[n]+0.5")},"")', "9.7"))
        last = f"it{tag}_{SWEEPS}"
        work.add(
            Col(f"moved{tag}", _('moved in the last sweep, pass {tag}', tag=tag),
                f'=IF([new]=1,IF([{last}]<>[it{tag}_{SWEEPS - 1}],1,0),0)', "9.10"),
            Col(f"first{tag}", _('first DWZ, pass {tag}', tag=tag),
                f'=IF([new]=1,IF([{last}]>={dwz.LOW_FIRST},[{last}],ROUND({dwz.LOW_BASE}+[{last}]/{dwz.LOW_DIVISOR},0)),'
                f'"")', "9.7"))

    passes("1", "r0")
    # the established players' performance, opponents at their DWZ or first DWZ (rules 9.6)
    sides.add(Col("lo", "opponent for the performance",
                  '=IF(AND([counts]=1,[opool]=1),IF(INDEX(w_rated,[who])=1,IF(INDEX(w_rated,[opp])=1,'
                  'INDEX(w_r0,[opp]),INDEX(w_first1,[opp])),""),"")', "9.6"))
    work.add(
        Col("lrc", "Rc for the performance",
            f'=IF(AND([rated]=1,[n]>={n_min}),ROUND(SUMIFS(side_lo,side_who,{POS},side_counts,1,side_opool,1)/[n],0),'
            '"")', "9.6"),
        Col("lext", "all won or all lost", '=IF([lrc]="",0,IF(OR([s]<=0,[s]>=[n]),1,0))', "9.6"),
        Col("lt_0", "performance, start",
            f'=IF([lrc]="","",IF([lext]=1,[lrc]+IF([s]>0,{dwz.EXTREME},-{dwz.EXTREME}),[lrc]+{_d("[s]/[n]")}))',
            "9.6"),
    )
    for k in range(1, SWEEPS + 1):
        sides.add(Col(f"lp_{k}", _('P(D) for the performance, step {k}', k=k),
                      f'=IF([lo]="","",IF(INDEX(w_lrc,[who])="","",IF(INDEX(w_lext,[who])=1,"",'
                      f'{_p(f"INDEX(w_lt_{k - 1},[who])-[lo]")})))', "9.6"))
        we = f"SUMIFS(side_lp_{k},side_who,{POS},side_counts,1,side_opool,1)"
        work.add(Col(f"lt_{k}", _('performance, step {k}', k=k),
                     f'=IF([lt_{k - 1}]="","",IF([lext]=1,[lt_{k - 1}],[lt_{k - 1}]+{_d(f"([s]-{we})/[n]+0.5")}))',
                     "9.6"))
    work.add(
        Col("lmoved", "performance moved in the last step",
            f'=IF([lt_{SWEEPS}]="",0,IF([lt_{SWEEPS}]<>[lt_{SWEEPS - 1}],1,0))', "9.10"),
        Col("special", _("Sonderwertung: performance more than {margin} above", margin=dwz.SPECIAL_MARGIN),
            f'=IF(AND([rated]=1,dwz_special,[lt_{SWEEPS}]<>""),IF([lt_{SWEEPS}]-[r0]>{dwz.SPECIAL_MARGIN},1,0),0)',
            "9.8"),
        Col("seen", "counts for his opponents as", "=IF([special]=1,[lt_" + str(SWEEPS) + "],[r0])", "9.8"),
    )
    passes("2", "seen")
    # the established players' new DWZ (rules 9.2, 9.3, 9.5)
    sides.add(
        Col("of", "opponent as he counts",
            '=IF(AND([counts]=1,[opool]=1),IF(INDEX(w_rated,[opp])=1,INDEX(w_seen,[opp]),IF(INDEX(w_rated,[who])=1,'
            f'INDEX(w_first2,[opp]),INDEX(w_it2_{SWEEPS},[opp]))),"")', "9.2"),
        Col("pe", "P(D), three decimals before August 2013",
            '=IF([of]="","",IF(INDEX(w_rated,[who])=0,"",IF(dwz_elobase,ROUND(' + _p("INDEX(w_r0,[who])-[of]")
            + ",3)," + _p("INDEX(w_r0,[who])-[of]") + ")))", "9.2"),
    )
    work.add(
        Col("we", "We", f'=IF(AND([rated]=1,[n]>0),SUMIFS(side_pe,side_who,{POS},side_counts,1,side_opool,1),"")',
            "9.2", fmt="0.000"),
        Col("rc", "mean of the opponents as they count",
            f'=IF([n]=0,"",IF([pool]=1,(SUMIFS(side_of,side_who,{POS},side_counts,1,side_opool,1)'
            '+IF([rated]=0,[ho],0))/[n],""))', "9.2", fmt="0.00"),
        Col("above", "W reached We", '=IF([we]="",0,IF([s]>=[we],1,0))', "9.3"),
        Col("e0", "E0", '=IF([we]="","",([r0]/1000)^4+[j])', "9.3", fmt="0.000"),
        Col("fb", "fB", f'=IF([we]="","",IF(AND([j]={dwz.J_YOUTH},[above]=1),MIN({dwz.FB_MAX:g},MAX({dwz.FB_MIN:g},'
                        f'[r0]/{dwz.FB_DIVISOR})),1))', "9.3", fmt="0.000"),
        Col("sbr", "SBr", f'=IF([we]="","",IF(AND([r0]<{dwz.BRAKE_BELOW},[above]=0),EXP(({dwz.BRAKE_BELOW}-[r0])/'
                          f'{dwz.BRAKE_SCALE})-1,0))', "9.3", fmt="0.000"),
        Col("cap", "E at most", f'=IF([we]="","",IF([sbr]>0,{dwz.E_MAX_BRAKE},IF(AND([idx]<>"",N([idx])<='
                                f'{dwz.E_INDEX_UP_TO}),{dwz.E_PER_INDEX}*MAX(N([idx]),1),{dwz.E_MAX})))', "9.3"),
        Col("e", "E", f'=IF([we]="","",MIN([cap],MAX({dwz.E_MIN},ROUND([e0]*[fb]+[sbr],0))))', "9.3"),
        Col("rn", "new DWZ", f'=IF([we]="","",ROUND([r0]+{dwz.FACTOR}*([s]-[we])/([e]+[n]),0))', "9.5", fmt="0"),
    )

    def who(established: str, new: str, other: str) -> str:
        return f'=IF([key]="","",IF([rated]=1,{established},IF([new]=1,{new},{other})))'

    def played(value: str) -> str:
        return f'IF([n]>0,{value},"")'

    low = (f'IF([it2_{SWEEPS}]<{dwz.LOW_FIRST},'
           + text_formula(", below {low_first}: {low_base} + Ri / {low_divisor}", low_first=dwz.LOW_FIRST,
                          low_base=dwz.LOW_BASE, low_divisor=dwz.LOW_DIVISOR) + ',"")')
    note_new = text_formula("first DWZ: stage {stage}, Rp {rp}, Ri {ri}{low}", stage=F("[stage]"), rp=F("[rp2]"),
                            ri=F(f"[it2_{SWEEPS}]"), low=F(low))
    why = (f'IF([n2]<{n_min},'
           + text_formula("{n} game(s) against players with a DWZ, {needed} needed", n=F("[n2]"), needed=n_min)
           + ",IF([w2]>=[n2]," + text_formula("all {n} games won", n=F("[n2]")) + ","
           + text_formula("all {n} games lost", n=F("[n2]")) + "))")
    note_none = (f'IF([n2]=0,{text_formula("no first DWZ: no game against a player with a DWZ")},'
                 + text_formula("no first DWZ: {why}; carries these {n} games as remaining games", why=F(why),
                                n=F("[n2]")) + ")")
    work.add(
        Col("res_id", "results: id", "=[key]", "8"),
        Col("res_name", "results: name", '=IF([key]="","",[players:name]&"")', "8"),
        Col("res_status", "results: status", who('"established"', '"unrated"', '"unrated"'), "9.1"),
        Col("res_rating_before", "results: DWZ before", who("[rating]", '""', '""'), "9.5"),
        Col("res_games_rated", "results: games", who("[n]", "[n]", "[n2]"), "9.5"),
        Col("res_score", "results: W", who("[s]", "[s]", "[w2]"), "9.5"),
        Col("res_expected", "results: We", who(played("[we]"), '""', '""'), "9.2"),
        Col("res_k", "results: K", '=""', "8"),
        Col("res_performance", "results: performance",
            who(f'IF([lt_{SWEEPS}]="","",[lt_{SWEEPS}])', f"[it2_{SWEEPS}]", '""'), "9.6"),
        Col("res_change", "results: change", who(played("[rn]-[r0]"), '""', '""'), "9.5"),
        Col("res_bonus", "results: bonus", '=""', "8"),
        Col("res_rating_after", "results: new DWZ", who("IF([n]>0,[rn],[rating])", "[first2]", '""'), "9.5"),
        Col("res_games_after", "results: games after", '=""', "8"),
        Col("res_index", "results: index", who("[idx]", '""', '""'), "9.4"),
        Col("res_index_after", "results: index after", who('IF([idx]="","",IF([n]>0,[idx]+1,[idx]))', "1", '""'),
            "9.4"),
        Col("res_j", "results: J", who(played("[j]"), '""', '""'), "9.3"),
        Col("res_e0", "results: E0", who(played("[e0]"), '""', '""'), "9.3"),
        Col("res_fb", "results: fB", who(played("[fb]"), '""', '""'), "9.3"),
        Col("res_sbr", "results: SBr", who(played("[sbr]"), '""', '""'), "9.3"),
        Col("res_e", "results: E", who(played("[e]"), '""', '""'), "9.3"),
        Col("res_rc", "results: mean of the opponents", who(played("[rc]"), "[rc]", '""'), "9.2"),
        Col("res_stage", "results: stage", who('""', "[stage]", '""'), "9.7"),
        Col("res_rp", "results: Rp", who('""', "[rp2]", '""'), "9.7"),
        Col("res_ri", "results: Ri", who('""', f"[it2_{SWEEPS}]", '""'), "9.7"),
        Col("res_special", "results: Sonderwertung", who('IF([special]=1,"yes","no")', '"no"', '"no"'), "9.8"),
        Col("res_note", "results: note", who('""', note_new, note_none), "9.7"),
        Col("res_birth_year", "results: year of birth",
            '=IF([key]="","",IF(ISNUMBER([players:birth_year]),[players:birth_year],""))', "9.3"),
        *sort_columns(),
    )
    # ---------------------------------------------------------------- the remaining games carried on (rules 9.7)
    # a player without a DWZ who gets none carries his games against Auswahl I (its players with a DWZ at it, its
    # new ones at their first DWZ) and his remaining games: the next tournament's history table (rules 14.3)
    h_last = FIRST + cap.history - 1
    s_first, s_last = h_last + 1, h_last + cap.sides
    k_h, k_s = f"(ROW()-{FIRST - 1})", f"(ROW()-{h_last})"
    carries = 'AND(INDEX(w_key,{who})<>"",INDEX(w_rated,{who})=0,INDEX(w_new,{who})=0)'
    conds = [f'IF(INDEX(hw_who,{k_h})>0,{carries.format(who=f"INDEX(hw_who,{k_h})")},FALSE)',
             f'IF(AND(INDEX(side_counts,{k_s})=1,INDEX(side_oa1,{k_s})=1),'
             f'{carries.format(who=f"INDEX(side_who,{k_s})")},FALSE)']
    opponent = f"INDEX(side_opp,{k_s})"
    cells = [(f"INDEX(w_key,INDEX(hw_who,{k_h}))", f"INDEX(hw_o,{k_h})", f"INDEX(hw_s,{k_h})"),
             (f"INDEX(w_key,INDEX(side_who,{k_s}))",
              f"IF(INDEX(w_rated,{opponent})=1,INDEX(w_r0,{opponent}),INDEX(w_first2,{opponent}))",
              f"INDEX(side_score,{k_s})")]

    def pick(j: int) -> Callable[[int], str]:
        def formula(r: int) -> str:
            b = 0 if r <= h_last else 1
            return f'=IF({conds[b]},{cells[b][j]},"")'
        return formula

    history_after = Sheet("history_after", "ha_", FIRST, s_last)
    history_after.add(*[Col(name, name, pick(j), "9.7", blocks=[(FIRST, h_last), (s_first, s_last)])
                        for j, name in enumerate(("id", "opponent_rating", "result"))])

    index = Input("index", "Index (1850-12: 12; required with a DWZ)", 9,
                  with_index_check("index", number_check("index", 0, dwz.MAX_INDEX,
                                                         f"a whole number from 0 to {dwz.MAX_INDEX}")),
                  ("whole", 0, dwz.MAX_INDEX))
    no_index = reason("index", dwz.INDEX_NEEDED)
    rules_en = [
        _("DWZ (xl-elo rules 9): P(D) the normal distribution of the difference, standard deviation 200 sqrt 2 "
          "(before August 2013 each P(D) to three decimals, as the DSB's program took it); We their sum; E = "
          "((R0/1000)^4 + J) x fB + SBr, J {j_youth}/{j_junior}/{j_adult} to {youth_age}, to {junior_age}, above, fB "
          "for a youth at or above We, SBr below {brake_below} under We, rounded, {e_min} to {e_max} ({e_per_index} "
          "x index up to index {e_index_up_to}; {e_max_brake} with SBr); new DWZ R0 + {factor} (W - We) / (E + n), "
          "rounded. Without a DWZ: a first DWZ from {n_min} games against players with one (remaining games on the "
          "'history' sheet count), not all won nor all lost, by the DSB's iteration ({sweeps} sweeps here), "
          "{low_base} + Ri / {low_divisor} below {low_first}. Forfeits and byes count nowhere; a game against a "
          "player who gets no DWZ counts for neither.",
          j_youth=dwz.J_YOUTH, j_junior=dwz.J_JUNIOR, j_adult=dwz.J_ADULT, youth_age=dwz.YOUTH_AGE,
          junior_age=dwz.JUNIOR_AGE, brake_below=dwz.BRAKE_BELOW, e_min=dwz.E_MIN, e_max=dwz.E_MAX,
          e_per_index=dwz.E_PER_INDEX, e_index_up_to=dwz.E_INDEX_UP_TO, e_max_brake=dwz.E_MAX_BRAKE, factor=dwz.FACTOR,
          n_min=n_min, sweeps=SWEEPS, low_base=dwz.LOW_BASE, low_divisor=dwz.LOW_DIVISOR, low_first=dwz.LOW_FIRST),
    ]
    not_settled = _("an iteration has not settled in {sweeps} sweeps: rate this tournament with xl-elo (rules 9.10)",
                    sweeps=SWEEPS)
    return Template(
        federation="dwz", title="DWZ tournament",
        players=[replace(i, check=with_index_check("rating", i.check or '""')) if i.name == "rating" else i
                 for i in player_inputs("id", "name", "rating", own=[index, *player_inputs("birth_year")])],
        games=game_inputs("round", "player", "opponent", "result"), history=history_inputs(),
        settings=[period_setting(dwz.NEEDS_PERIOD), event_setting(), *option_settings(dwz.SYSTEM)],
        rules=rules_en, sheets=[sides, work, hw, history_after], next_history="history_after",
        results=[
            ResultCol("id", "Id", width=12), ResultCol("name", "Name", width=24),
            ResultCol("status", "Status", width=11),
            ResultCol("rating_before", "DWZ before", "0", 8),
            ResultCol("index", "Index", "0", 6),
            ResultCol("games_rated", "Games", "0", 6), ResultCol("score", "W", "0.0", 5),
            ResultCol("expected", "We", "0.000", 7), ResultCol("e", "E", "0", 5),
            ResultCol("performance", "Perf.", "0", 7),
            ResultCol("change", "Change", "+0;-0;0", 8),
            ResultCol("rating_after", "New DWZ", "0", 8),
            ResultCol("index_after", "Index after", "0", 7),
            ResultCol("k", "K", printed=False), ResultCol("bonus", "bonus", printed=False),
            ResultCol("games_after", "games after", printed=False),
            ResultCol("j", "J", "0", 5, printed=False), ResultCol("e0", "E0", "0.000", 7, printed=False),
            ResultCol("fb", "fB", "0.000", 6, printed=False),
            ResultCol("sbr", "SBr", "0.000", 6, printed=False),
            ResultCol("rc", "Mean opp.", "0.00", 8, printed=False),
            ResultCol("stage", "Stage", "0", 5, printed=False),
            ResultCol("rp", "Rp", "0", 6, printed=False), ResultCol("ri", "Ri", "0", 6, printed=False),
            ResultCol("special", "Sonderwertung", width=8, printed=False),
            ResultCol("note", "Note", width=56),
            ResultCol("birth_year", "Born", "0", 6, printed=False),
        ],
        player_checks=[f'IF(AND([work:rated]=1,{blank("[players:index]")}),{no_index},"")'],
        game_checks=game_checks(), capacity=cap,
        names={
            "dwz_ym": 'IF(ISNUMBER(period),YEAR(period)*100+MONTH(period),IFERROR(--LEFT(period,4)*100+'
                      '--MID(period,6,2),0))',
            "dwz_elobase": f'IF(TRIM(opt_probability&"")="elobase",TRUE,IF(TRIM(opt_probability&"")="formula",FALSE,'
                           f'dwz_ym<{dwz.FORMULA_FROM.replace("-", "")}))',
            "dwz_special": f'IF(TRIM(opt_sonderwertung&"")="yes",TRUE,IF(TRIM(opt_sonderwertung&"")="no",FALSE,'
                           f'dwz_ym>={dwz.SPECIAL_FROM.replace("-", "")}))',
        },
        blockers=[("SUM(w_moved1)+SUM(w_moved2)+SUM(w_lmoved)>0", not_settled)],
    )
