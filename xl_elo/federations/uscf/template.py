"""The US Chess template: the five steps of rules 10.4 with native formulas, the special formula's
iteration written out step by step (rules 10.5), every column headed by its rule.

Each of Steps 3, 4 and 5 has its own sheet (``step3``, ``step4``, ``step5``), one row per player,
with the special formula's start, then for each of its steps M, f(M), the direction, the
breakpoint z, f(z) and the next M, then the flat-stretch rule and the cap, exactly as the engine
(:func:`xl_elo.federations.uscf.special_rating`) does. f and the breakpoints are sums and extremes
over the player's games on the ``sides`` sheet (SUMPRODUCT, so Excel 2016 and LibreOffice
compute them alike). A case needing more steps than laid out blocks the results, and the banner
says so. No circular reference, nothing to switch on.
"""

from __future__ import annotations

from typing import Final

import xl_elo.federations.uscf as uscf
from xl_elo.core import MAX_RATING
from xl_elo.templates.common import (
    POS,
    blank,
    event_setting,
    game_checks,
    game_inputs,
    guard,
    key_columns,
    number_check,
    option_settings,
    period_setting,
    player_checks,
    player_inputs,
    reason,
    sides_sheet,
    sort_columns,
    text_of,
    work_sheet,
    yes_no_input,
    yes_value,
)
from xl_elo.templates.spec import FIRST, Capacity, Col, Input, ResultCol, Sheet, Template
from xl_elo.words import F, _, heading, text_formula, translate

#: The rooms shipped in workbooks/: a club's event or weekend Swiss section of 40 players (one printed page),
#: then a larger event's (its own file, named for its room). Any other: xl-elo workbooks --players N.
ROOMS = (Capacity(40, 200, 0), Capacity(120, 600, 0))
CAPACITY = ROOMS[0]
#: The languages shipped, the first unsuffixed: US Chess's.
LANGUAGES = ('en',)
#: No season template (rules 14): its results pasted into the next copy carry the list on.
SEASON = None
#: Languages it speaks besides, built on request (xl-elo workbooks --language): none.
SPEAKS: tuple[str, ...] = ()
#: The special formula's steps laid out on each step's sheet (rules 10.5); more blocks the results.
STEPS: Final = 10
#: Stands for "no breakpoint on that side" in the breakpoint searches (far beyond any rating).
BIG: Final = 1_000_000

def uscf_rating_check(column: str) -> str:
    """A US Chess rating as the reader takes it (rules 10.9, :func:`xl_elo.federations.uscf.read_rating`): decimals
    allowed, 0 or blank unrated, else from the absolute floor; every refusal in the reader's words."""
    below = text_formula("{column}: {value} {why}; ", column=heading(column), value=F("[x]"),
                         why=translate(uscf.BELOW_FLOOR))
    return number_check(column, 0, MAX_RATING, what=uscf.RATING_WORDS, whole=False, rating=True,
                        also=(f"AND([x]<>0,[x]<{uscf.ABSOLUTE_FLOOR})", below))


def rating_input() -> Input:
    """The rating column: US Chess keeps decimals."""
    return Input("rating", "Rating before (blank: unrated; decimals as US Chess keeps them)", 10,
                 uscf_rating_check("rating"), ("decimal", 0, MAX_RATING))


def own_inputs() -> tuple[Input, ...]:
    """The system's own columns of the players sheet, in the language of the work."""
    return (
        Input("highest", "Highest established rating before (floor)", 12,
              uscf_rating_check("highest"), ("decimal", 0, MAX_RATING)),
        Input("record", "Earlier games: all wins, all losses or blank",
              14, guard("record", f'IF(ISNA(MATCH(LOWER({text_of("[x]")}),rec_key,0)),'
                                  f'{reason("record", "all wins, all losses or blank")},'
                                  '"")'), ("list", '"all wins,all losses"')),
        yes_no_input("life_master", "Original Life Master: yes or no", 10),
    )


def _mask() -> str:
    """The player's rated games among the sides (a SUMPRODUCT factor)."""
    return f"(side_who={POS})*(side_counts=1)"


def _pwe_sum(x: str, o: str) -> str:
    """The sum of PWe(x, Ri) over the player's games, Ri in the sides column ``o`` (rules 10.5)."""
    a = f"(0.5+({x}-{o})/{2 * uscf.PWE_SPAN})"
    return f"SUMPRODUCT({_mask()}*(({a}>=1)+({a}>0)*({a}<1)*{a}))"


def _pwe(x: str, r: str) -> str:
    span = uscf.PWE_SPAN
    return f"MAX(0,MIN(1,0.5+({x}-{r})/{2 * span}))"


def _f(x: str, o: str) -> str:
    """f(x) = N' PWe(x, R0') + sum PWe(x, Ri) - S' (rules 10.5)."""
    return f"[neff]*{_pwe(x, '[r0a]')}+{_pwe_sum(x, o)}-[target]"


def _below(x: str, o: str) -> str:
    """The largest breakpoint below x (R0' +- 400, Ri +- 400), or -BIG when there is none."""
    span = uscf.PWE_SPAN
    hi, lo = f"({o}+{span})", f"({o}-{span})"
    # each term is 0 or 1 times a value, so the breakpoint found is the very number the engine has
    value = f"({hi}<{x})*{hi}+({hi}>={x})*({lo}<{x})*{lo}+({lo}>={x})*(-{BIG})"
    opp = f"SUMPRODUCT(MAX({_mask()}*({value})+(1-{_mask()})*(-{BIG})))"
    own = f"IF([r0a]+{span}<{x},[r0a]+{span},IF([r0a]-{span}<{x},[r0a]-{span},-{BIG}))"
    return f"MAX({opp},{own})"


def _above(x: str, o: str) -> str:
    """The smallest breakpoint above x, or BIG when there is none."""
    span = uscf.PWE_SPAN
    hi, lo = f"({o}+{span})", f"({o}-{span})"
    value = f"({lo}>{x})*{lo}+({lo}<={x})*({hi}>{x})*{hi}+({hi}<={x})*{BIG}"
    opp = f"SUMPRODUCT(MIN({_mask()}*({value})+(1-{_mask()})*{BIG}))"
    own = f"IF([r0a]-{span}>{x},[r0a]-{span},IF([r0a]+{span}>{x},[r0a]+{span},{BIG}))"
    return f"MIN({opp},{own})"


def special_sheet(step: int, cap: Capacity) -> Sheet:
    """One step's special formula, player by player (rules 10.5): its figures, then each of its steps."""
    eps = f"{uscf.EPSILON:g}"
    o = f"side_o{step}"
    sheet = Sheet(f"step{step}", f"s{step}_", FIRST, FIRST + cap.players - 1,
                  leading=[("row", lambda r: r - FIRST + 1)])
    if step == 3:
        act = '=IF(AND([work:key]<>"",[work:unr]=1,[work:m]>0),1,0)'
        neff, rec = f"={uscf.STEP3_GAMES}", '=""'
    else:
        act = '=IF(AND([work:key]<>"",[work:special]=1,[work:m]>0),1,0)'
        neff, rec = "=[work:neff]", "=[work:rec]"
    sheet.add(
        Col("act", "special formula here (1/0)", act, "10.4"),
        Col("neff", "N'", neff, "10.4"),
        Col("rec", "record", rec, "10.5"),
        Col("r0a", "R0' (adjusted prior)",
            f'=IF([act]=0,"",IF([rec]="all wins",[work:prior]-{uscf.PWE_SPAN},IF([rec]="all losses",'
            f'[work:prior]+{uscf.PWE_SPAN},[work:prior])))', "10.5"),
        Col("target", "S' (adjusted score)",
            '=IF([act]=0,"",IF([rec]="all wins",[work:s]+[neff],IF([rec]="all losses",[work:s],[work:s]+[neff]/2)))',
            "10.5"),
        Col("sumo", "sum of the opponents", f'=IF([act]=0,"",SUMPRODUCT({_mask()}*{o}))', "10.5"),
        Col("m0", "M, start",
            f'=IF([act]=0,"",([neff]*[r0a]+[sumo]+{uscf.PWE_SPAN}*(2*[work:s]-[work:m]))/([neff]+[work:m]))',
            "10.5", fmt="0.000"),
        Col("ph0", "phase (1 down, 2 up, 3 done)", '=IF([act]=0,3,1)', "10.5"),
    )
    for t in range(STEPS + 1):
        m, f, ph = f"[m{t}]", f"[f{t}]", f"[ph{t}]"
        sheet.add(Col(f"f{t}", _('step {t_1}: f(M)', t_1=t + 1), f'=IF([act]=0,"",{_f(m, o)})', "10.5"))
        if t == STEPS:
            break
        d, z, fz, sec = f"[d{t}]", f"[z{t}]", f"[fz{t}]", f"[sec{t}]"
        sheet.add(
            Col(f"d{t}", _('step {t_1}: direction (1 down, -1 up)', t_1=t + 1),
                f'=IF({ph}=3,0,IF(AND({ph}=1,{f}>{eps}),1,IF({f}<-{eps},-1,0)))', "10.5"),
            Col(f"z{t}", _('step {t_1}: breakpoint z', t_1=t + 1),
                f'=IF({d}=1,{_below(m, o)},IF({d}=-1,{_above(m, o)},""))', "10.5"),
            Col(f"fz{t}", _('step {t_1}: f(z)', t_1=t + 1),
                f'=IF({d}=0,"",IF(ABS({z})>={BIG},"",{_f(z, o)}))', "10.5"),
            Col(f"sec{t}", _("step {t_1}: the secant's zero", t_1=t + 1),
                f'=IF({fz}="","",IF(ABS({f}-{fz})<{eps},"",IF({d}=1,{m}-{f}*({m}-{z})/({f}-{fz}),'
                f'{m}-{f}*({z}-{m})/({fz}-{f}))))', "10.5"),
            Col(f"mv{t}", _('step {t_1}: moves (1/0)', t_1=t + 1),
                f'=IF({d}=0,0,IF({fz}="",0,IF({sec}="",1,IF({d}=1,IF({sec}<{m},1,0),IF({sec}>{m},1,0)))))', "10.5"),
            Col(f"m{t + 1}", _('M after step {t_1}', t_1=t + 1),
                f'=IF([mv{t}]=0,{m},IF({sec}="",{z},IF({d}=1,IF({sec}<{z},{z},{sec}),IF({sec}>{z},{z},{sec}))))',
                "10.5", fmt="0.000"),
            Col(f"ph{t + 1}", _('phase after step {t_1}', t_1=t + 1),
                f'=IF({d}=0,3,IF([mv{t}]=0,3,IF({d}=1,1,2)))', "10.5"),
        )
    last, flast, phlast = f"[m{STEPS}]", f"[f{STEPS}]", f"[ph{STEPS}]"
    near = (f"SUMPRODUCT({_mask()}*(ABS({last}-{o})<={uscf.PWE_SPAN}))+IF(ABS({last}-[r0a])<={uscf.PWE_SPAN},1,0)")
    prior = "[work:prior]"
    sheet.add(
        Col("open", _('more than {steps} steps needed (1/0)', steps=STEPS),
            f'=IF([act]=0,0,IF({phlast}=3,0,IF(AND({phlast}=1,{flast}>{eps}),1,IF({flast}<-{eps},1,0))))', "10.5"),
        Col("near", "games within 400 points of M (and the prior)",
            f'=IF([act]=0,"",IF(ABS({flast})<={eps},{near},""))', "10.5"),
        Col("lo", "breakpoint below", f'=IF([near]=0,{_below(last, o)},"")', "10.5"),
        Col("hi", "breakpoint above", f'=IF([near]=0,{_above(last, o)},"")', "10.5"),
        Col("res", "special rating before the cap",
            f'=IF([act]=0,"",IF([near]=0,IF({prior}<[lo],[lo],IF({prior}>[hi],[hi],{prior})),{last}))', "10.5",
            fmt="0.000"),
        Col("rating", _('special rating (at most {special_cap})',
                        special_cap=uscf.SPECIAL_CAP), f'=IF([act]=0,"",MIN({uscf.SPECIAL_CAP},[res]))',
            "10.5", fmt="0.000"),
        Col("ex", "sum of PWe at the rating", f'=IF([act]=0,"",{_pwe_sum("[res]", o)})', "10.5"),
        Col("steps", "steps taken", '=IF([act]=0,"",' + "+".join(f"[mv{t}]" for t in range(STEPS)) + ")", "10.5"),
    )
    return sheet


def spec(cap: Capacity | None = None) -> Template:
    cap = cap or CAPACITY
    sides = sides_sheet(cap)
    work = work_sheet(cap)
    work.add(*key_columns())
    age_rating = (f"IF([age]=\"\",{uscf.ADULT_RATING},IF([age]>{uscf.AGE_TO},{uscf.ADULT_RATING},"
                  f"IF([age]<{uscf.AGE_FROM},{uscf.AGE_YOUNG_RATING},{uscf.AGE_POINTS}*[age])))")
    work.add(
        Col("n0", "N (0 when unrated)", '=IF([rated]=1,[games],0)', "10.3"),
        Col("unr", "no game before (1/0)", '=IF([n0]=0,1,0)', "10.9"),
        Col("age", "age (period's year - year of birth)",
            '=IF(AND([rated]=0,ISNUMBER([players:birth_year]),ISNUMBER(period_year)),period_year-'
            '[players:birth_year],"")', "10.2"),
        Col("prior", "R0: rating before, or Step 1's", f'=IF([key]="","",IF([rated]=1,[rating],{age_rating}))', "10.2"),
        Col("nstar", "N*",
            f'=IF([key]="","",IF([prior]>{uscf.NSTAR_FROM},{uscf.NSTAR_MAX},{uscf.NSTAR_MAX}/SQRT({uscf.NSTAR_A}+'
            f'{uscf.NSTAR_B:.8f}*({uscf.NSTAR_C}-[prior])^2)))', "10.3"),
        Col("neff", "N' = min(N, N*)", '=IF([key]="","",MIN([n0],[nstar]))', "10.3"),
        Col("rec", "record (all wins, all losses)",
            f'=IF([n0]=0,"",IFERROR(INDEX(rec_value,MATCH(LOWER({text_of("[players:record]")}),rec_key,0)),""))',
            "10.5"),
        Col("special", "special formula (1/0)", f'=IF(OR([n0]<={uscf.SPECIAL_GAMES},[rec]<>""),1,0)', "10.5"),
        Col("m", "games rated, m", f"=COUNTIFS(side_who,{POS},side_counts,1)", "10.1"),
        Col("s", "score, S", f"=SUMIFS(side_score,side_who,{POS},side_counts,1)", "10.5"),
        Col("meet", "most games against one opponent",
            f"=SUMPRODUCT(MAX({_mask()}*side_meets))", "10.7"),
        Col("dual", "dual-rated K factor",
            f'=IF([key]="","",IF(TRIM(opt_dual_rated&"")="yes",IF([prior]<={uscf.DUAL_FROM},1,IF([prior]>='
            f'{uscf.DUAL_TO},{uscf.DUAL_LAST},{uscf.DUAL_A}-{uscf.DUAL_B}*[prior])),1))', "10.6"),
    )
    sides.add(
        Col("meets", "games against this opponent",
            '=IF([counts]=1,COUNTIFS(side_who,[who],side_opp,[opp],side_counts,1),0)', "10.7"),
        Col("o3", "Step 3: opponent counts as", '=IF([counts]=1,INDEX(w_prior,[opp]),0)', "10.4"),
    )
    steps = {k: special_sheet(k, cap) for k in (3, 4, 5)}
    work.add(Col("r3", "Step 3: first estimate", '=IF([unr]=1,IF([m]>0,[step3:rating],[prior]),"")', "10.4"))
    sides.add(Col("o4", "Step 4: opponent counts as",
                  '=IF([counts]=1,IF(INDEX(w_unr,[opp])=1,INDEX(w_r3,[opp]),INDEX(w_prior,[opp])),0)', "10.4"))

    def standard(step: int) -> list[Col]:
        e = f"SUMPRODUCT({_mask()}/(1+10^((side_o{step}-[prior])/400)))"
        return [
            Col(f"e{step}", _('Step {step}: E', step=step), f'=IF(OR([m]=0,[special]=1),"",{e})', "10.6"),
            Col(f"k{step}", _('Step {step}: K', step=step),
                f'=IF([e{step}]="","",{uscf.K_NUMERATOR}/([neff]+[m])*[dual])', "10.6"),
            Col(f"ch{step}", _('Step {step}: K (S - E)', step=step), f'=IF([e{step}]="","",[k{step}]*([s]-[e{step}]))',
                "10.6"),
            Col(f"bo{step}", _('Step {step}: bonus', step=step),
                f'=IF([e{step}]="","",IF(AND([m]>={uscf.BONUS_MIN_GAMES},[meet]<={uscf.BONUS_MAX_MEETINGS}),'
                f'MAX(0,[ch{step}]-N(uscf_b)*SQRT(MAX([m],{uscf.BONUS_MIN_M}))),0))', "10.7"),
            Col(f"r{step}", _('Step {step}: rating', step=step),
                f'=IF([key]="","",IF([m]=0,[prior],IF([special]=1,[step{step}:rating],[prior]+[ch{step}]+[bo{step}])))',
                "10.4", fmt="0.000"),
        ]

    work.add(*standard(4))
    sides.add(Col("o5", "Step 5: opponent counts as", '=IF([counts]=1,INDEX(w_r4,[opp]),0)', "10.4"))
    work.add(*standard(5))
    peak = "MAX([rating],N([players:highest]))"
    work.add(
        Col("floor", "floor",
            f'=IF([key]="","",MAX({uscf.ABSOLUTE_FLOOR},IF([n0]>{uscf.PROVISIONAL_GAMES},IF({peak}>='
            f'{uscf.FLOOR_FROM},MIN({uscf.FLOOR_CAP},INT(({peak}-{uscf.FLOOR_BELOW})/100)*100),0),0),'
            f'IF({yes_value("[players:life_master]")}=1,{uscf.ORIGINAL_LIFE_MASTER_FLOOR},0)))', "10.8"),
        Col("exact", "new rating, exact", '=IF(OR([key]="",[m]=0),"",MAX([r5],[floor]))', "10.8", fmt="0.000"),
        Col("after", "new rating", '=IF([exact]="","",INT([exact]+0.5))', "10.9", fmt="0"),
        Col("peak", "highest established rating with this event's (0: none)",
            f'=IF([key]="","",MAX(N([players:highest]),IF([n0]>{uscf.PROVISIONAL_GAMES},[rating],0),'
            f'IF(AND([m]>0,[n0]+[m]>{uscf.PROVISIONAL_GAMES}),[after],0)))', "10.8"),
    )

    def have(body: str) -> str:
        return f'=IF([key]="","",{body})'

    def played(body: str) -> str:
        return f'=IF(OR([key]="",[m]=0),"",{body})'

    work.add(
        Col("res_id", "results: id", "=[key]", "8"),
        Col("res_name", "results: name", have('[players:name]&""'), "8"),
        Col("res_status", "results: status",
            have(f'IF([unr]=1,"unrated",IF([n0]>{uscf.PROVISIONAL_GAMES},"established","provisional"))'), "10.9"),
        Col("res_rating_before", "results: rating before", have('IF([unr]=1,"",[rating])'), "10.9"),
        Col("res_games_rated", "results: games rated", have("[m]"), "10.1"),
        Col("res_score", "results: score", have("[s]"), "10.5"),
        Col("res_expected", "results: expected", played("IF([special]=1,[step5:ex],[e5])"), "10.6"),
        Col("res_k", "results: K", played('IF([special]=1,"",[k5])'), "10.6"),
        Col("res_performance", "results: performance", '=""', "10.5"),
        Col("res_change", "results: change", have('IF([unr]=1,"",IF([m]=0,0,[after]-INT([rating]+0.5)))'), "10.9"),
        Col("res_bonus", "results: bonus", played('IF([special]=1,"",[bo5])'), "10.7"),
        Col("res_rating_after", "results: new rating", have('IF([m]=0,IF([unr]=1,"",[rating]),[after])'), "10.9"),
        Col("res_games_after", "results: games after", have("[n0]+[m]"), "10.9"),
        Col("res_effective_games", "results: N'", have("[neff]"), "10.3"),
        Col("res_formula", "results: formula", played('IF([special]=1,"special","standard")'), "10.5"),
        Col("res_intermediate", "results: Step 4 rating", played("[r4]"), "10.4"),
        Col("res_floor", "results: floor", have('IF(AND([m]=0,[unr]=1),"",[floor])'), "10.8"),
        Col("res_provisional", "results: provisional after",
            have(f'IF(AND([m]=0,[unr]=1),"",IF([n0]+[m]<={uscf.PROVISIONAL_GAMES},"yes","no"))'), "10.9"),
        Col("res_rating_exact", "results: new rating, exact", played("[exact]"), "10.9"),
        Col("res_iterations", "results: special formula's steps", played('IF([special]=1,[step5:steps],"")'), "10.5"),
        Col("res_highest_after", "results: highest established rating after", have('IF([peak]=0,"",[peak])'),
            "10.8"),
        Col("res_record_after", "results: record after",
            have('IF([m]=0,[rec],IF(AND([s]=[m],OR([n0]=0,[rec]="all wins")),"all wins",IF(AND([s]=0,OR([n0]=0,'
                 '[rec]="all losses")),"all losses","")))'), "10.5"),
        Col("res_birth_year", "results: year of birth", have('IF(ISNUMBER([players:birth_year]),[players:birth_year],'
                                                             '"")'), "10.2"),
        Col("res_life_master", "results: Original Life Master",
            have(f'IF({yes_value("[players:life_master]")}=1,"yes","no")'), "10.8"),
        *sort_columns(),
    )
    no_period = reason("birth_year", "an unrated player's initial rating counts his age in the period's year: "
                                      "give the period")
    games_unrated = reason("games", "rated games but no rating: give his rating (or 0 games for a player never "
                                    "rated)")
    record_alone = reason("record", "a record with no game before")
    unrated = "OR(NOT(ISNUMBER([players:rating])),N([players:rating])=0)"
    checks = [
        *player_checks(),
        f'IF(AND({unrated},N([players:games])>0),{games_unrated},"")',
        f'IF(AND(NOT({blank("[players:record]")}),OR({unrated},N([players:games])=0)),{record_alone},"")',
        f'IF(AND({unrated},ISNUMBER([players:birth_year]),NOT(ISNUMBER(period_year))),{no_period},"")',
    ]
    b_auto = (f'IF(TRIM(period&"")="",{uscf.BONUS_THRESHOLD},' +
              "".join(f"IF(period_date>=DATE({d.year},{d.month},{d.day}),{b}," for d, b, _ in uscf.BONUS_HISTORY)
              + '""' + ")" * len(uscf.BONUS_HISTORY) + ")")
    period_date = ('IF(ISNUMBER(period),period,IFERROR(DATE(--LEFT(period,4),--MID(period,6,2),'
                   'IF(LEN(TRIM(period))>=10,--MID(period,9,2),1)),""))')
    rules_en = [
        _("US Chess (xl-elo rules 10): Step 1 gives an unrated player {age_points} x his age (2 to 26; "
          "{adult_rating} for adults); Step 2 N' = min(N, N*); Step 3 a first estimate for players with no game "
          "before; Step 4 intermediate ratings; Step 5 the final ones, opponents at their Step 4 ratings. Players "
          "with {special_games} games or fewer, or whose earlier games were all wins or all losses, are rated by the "
          "special formula, solved step by step on the 'step3', 'step4' and 'step5' sheets ({steps} steps laid out); "
          "the others by R0 + K (S - E) with K = 800 / (N' + m) and the bonus above B sqrt(max(m, 4)) (B by the "
          "period's date, or the setting). Floors: the highest established rating minus 200 down to the hundred (at "
          "most {floor_cap}), {original_life_master_floor} for an Original Life Master, {absolute_floor} for all.",
          age_points=uscf.AGE_POINTS, adult_rating=uscf.ADULT_RATING, special_games=uscf.SPECIAL_GAMES, steps=STEPS,
          floor_cap=uscf.FLOOR_CAP, original_life_master_floor=uscf.ORIGINAL_LIFE_MASTER_FLOOR,
          absolute_floor=uscf.ABSOLUTE_FLOOR),
    ]
    unsettled = "+".join(f"SUM(s{k}_open)" for k in (3, 4, 5))
    return Template(
        federation="uscf", title="US Chess (USCF) regular event rating",
        players=[*player_inputs("id", "name"), rating_input(), *player_inputs("games", "birth_year"), *own_inputs()],
        games=game_inputs("round", "player", "opponent", "result"), history=None,
        settings=[period_setting(uscf.NEEDS_PERIOD, "the event's end: it sets the bonus threshold B and an unrated "
                                                    "player's age; shown on the results"), event_setting(),
            *option_settings(uscf.SYSTEM)],
        rules=rules_en, sheets=[sides, work, steps[3], steps[4], steps[5]],
        results=[
            ResultCol("id", "Id", width=11), ResultCol("name", "Name", width=22),
            ResultCol("status", "Status", width=11),
            ResultCol("rating_before", "Rating before", "0", 9),
            ResultCol("games_rated", "Games", "0", 6), ResultCol("score", "Score", "0.0", 6),
            ResultCol("formula", "Formula", width=9),
            ResultCol("effective_games", "N'", "0.00", 6),
            ResultCol("expected", "Expected", "0.00", 8), ResultCol("k", "K", "0.00", 6),
            ResultCol("bonus", "Bonus", "0.00", 7), ResultCol("floor", "Floor", "0", 7),
            ResultCol("change", "Change", "+0;-0;0", 8),
            ResultCol("rating_after", "New rating", "0", 9),
            ResultCol("games_after", "Games after", "0", 7),
            ResultCol("provisional", "Provisional", width=9),
            ResultCol("performance", "performance", printed=False),
            ResultCol("intermediate", "Step 4", "0.00", printed=False),
            ResultCol("rating_exact", "exact", "0.000", printed=False),
            ResultCol("iterations", "steps", "0", printed=False),
            ResultCol("highest_after", "Highest after", "0", 8, printed=False),
            ResultCol("record_after", "Record after", width=10, printed=False),
            ResultCol("birth_year", "Born", "0", 6, printed=False),
            ResultCol("life_master", "Life Master", width=8, printed=False),
        ],
        lists=[("record spellings", ["rec_key", "rec_value"],
                sorted([(k, v) for k, v in uscf.RECORDS.items()] + [("mixed", ""), ("-", ""), ("", "")]))],
        player_checks=checks, game_checks=game_checks(), capacity=cap,
        names={"period_date": period_date,
               "uscf_b": f'IF(TRIM(opt_bonus_threshold&"")="auto",{b_auto},--TRIM(opt_bonus_threshold&""))'},
        blockers=[('uscf_b=""', "the bonus threshold before May 2017 is not pinned: choose 10, 12 or 14 in the "
                                "settings"),
                  (f"{unsettled}>0", _("a special rating needs more than the {steps} steps laid out: rate this "
                                                       "event with xl-elo rate", steps=STEPS))],
    )
