"""The FFE template: compatibility, D(P), rules 1.a - 3.b and the iterative method for unrated
players written out round by round (rules 5), every column headed by its rule.

The iteration of rules 5.10 is explicit (Jacobi steps, as the engine does): ``iteration``
holds, for every player and round, the estimate, Nj, Sc, the sum of the opponents, P, D(P),
Pj and whether the estimate moved; ``iteration_sides`` each game side's opponent value and
compatibility at that round. No circular reference, nothing to switch on.
"""

from __future__ import annotations

import xl_elo.federations.ffe as ffe
from xl_elo import schema
from xl_elo.core import MAX_RATING
from xl_elo.tables import FFE_DP_TABLE
from xl_elo.templates.common import (
    POS,
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
)
from xl_elo.templates.spec import FIRST, Capacity, Col, Input, ResultCol, Sheet, Template
from xl_elo.words import _, text_formula


def dp_expr(p: str) -> str:
    """D(P) of a cell holding P, by the method chosen in the settings (rules 5.4)."""
    bound = f"{ffe.DP_BOUND:g}"
    normal = f"IF({p}>=1,{bound},IF({p}<=0,-{bound},MAX(-{bound},MIN({bound},2000/7*_xlfn.NORM.S.INV({p})))))"
    x = f"MAX(1,MIN(99,{p}*100))"
    lo = f"MIN(98,INT({x}))"
    table = (f"MAX(-{bound},MIN({bound},INDEX(dp_value,{lo})+(INDEX(dp_value,{lo}+1)-INDEX(dp_value,{lo}))"
             f"*({x}-{lo})))")
    return f'IF(TRIM(opt_dp_method&"")="table",{table},{normal})'


def compat_expr(score: str, opp: str, center: str) -> str:
    """1 when the game is compatible with the window around ``center`` (rules 5.2)."""
    w = ffe.WINDOW
    return f"IF({score}=0.5,1,IF({score}=1,IF({opp}>{center}-{w},1,0),IF({opp}<{center}+{w},1,0)))"


#: The rooms shipped in workbooks/: a club's rating month: its tournaments and interclub games, 40 players (one
#: printed page),
#: then a larger event's (its own file, named for its room). Any other: xl-elo workbooks --players N.
ROOMS = (Capacity(40, 300, 300), Capacity(120, 600, 600))
CAPACITY = ROOMS[0]
#: The languages shipped, the first unsuffixed: the French federation's.
LANGUAGES = ('fr',)
#: No season template (rules 14): its results pasted into the next copy carry the list on.
SEASON = None
#: Languages it speaks besides, built on request (xl-elo workbooks --language): none.
SPEAKS: tuple[str, ...] = ()


#: The FFE's own columns of the players sheet (rules 5.6, 5.7).


def own_inputs() -> tuple[Input, ...]:
    """The system's own columns of the players sheet, in the language of the work."""
    return (
        Input("category", "junior or senior", 10,
              guard("category", f'IF(OR(LOWER({text_of("[x]")})="junior",LOWER({text_of("[x]")})='
                                '"senior"),"",'
                                f'{reason("category", "junior or senior")})'),
              ("list", '"junior,senior"')),
        Input("archive_perf", "Archived performance Pa", 12,
              number_check("archive_perf", 1000, MAX_RATING, f"a performance from 1000 to {MAX_RATING}", whole=False,
                           what=f"the archived performance, from 1000 to {MAX_RATING}")),
        Input("archive_games", "Archived games Na", 10,
              number_check("archive_games", 0, schema.MAX_GAMES, "a whole number of games"),
              ("whole", 0, schema.MAX_GAMES)),
    )


def spec(cap: Capacity | None = None) -> Template:
    cap = cap or CAPACITY
    sides = sides_sheet(cap)
    work = work_sheet(cap)
    last_player = FIRST + cap.players - 1
    work.add(*key_columns())
    work.add(
        Col("junior", "junior", '=IF(LOWER(TRIM([players:category]&""))="junior",1,0)', "5.6"),
        Col("na", "Na",
            '=IF(AND([rated]=0,ISNUMBER([players:archive_games]),ISNUMBER([players:archive_perf])),'
            'IF([players:archive_games]>0,[players:archive_games],0),0)', "5.7"),
        Col("pa", "Pa", '=IF([na]>0,[players:archive_perf],"")', "5.7"),
        Col("n", "games rated", f"=COUNTIFS(side_who,{POS},side_counts,1)", "5.1"),
        Col("todo", "unrated with games", '=IF(AND([key]<>"",[rated]=0,[n]>0),1,0)', "5.10"),
        Col("score", "score", f"=SUMIFS(side_score,side_who,{POS},side_counts,1)", "5.3"),
    )
    # ---------------------------------------------------------------- the iteration (rules 5.10)
    # only the unrated players' rows compute its sums: left as SUMIFS (a running sum per round would cost more)
    it = Sheet("iteration", "it_", FIRST, last_player, leading=[("row", lambda r: r - FIRST + 1)], grouped=False)
    its = Sheet("iteration_sides", "its_", FIRST, FIRST + cap.sides - 1, leading=[("side", lambda r: r - FIRST + 1)])
    it.add(Col("est0", "estimate, start", '=IF([work:todo]=1,N(opt_start),"")', "5.10"))
    todo = "[work:todo]<>1"
    for t in range(ffe.MAX_ROUNDS + 1):
        est = f"est{t}"
        # one column per round: the opponent's value when the game is compatible, else blank (rules 5.2, 5.10)
        opp = f"IF(INDEX(w_rated,[sides:opp])=1,INDEX(w_rating,[sides:opp]),INDEX(it_{est},[sides:opp]))"
        value = opp if t == 0 else \
            f'IF({compat_expr("[sides:score]", opp, f"INDEX(it_{est},[sides:who])")}=1,{opp},"")'
        its.add(Col(f"m{t}", f"round {t}: opponent counts as (compatible games only)" if t else
                    "round 0: opponent counts as (no window)",
                    f'=IF([sides:counts]<>1,"",IF(INDEX(w_todo,[sides:who])<>1,"",{value}))',
                    "5.10" if t == 0 else "5.2"))
        it.add(
            Col(f"nj{t}", _('round {t}: Nj', t=t), f'=IF({todo},"",COUNTIFS(side_who,{POS},its_m{t},">=0"))', "5.3"),
            Col(f"sc{t}", _('round {t}: Sc', t=t), f'=IF({todo},"",SUMIFS(side_score,side_who,{POS},its_m{t},">=0"))',
                "5.3"),
            Col(f"so{t}", _('round {t}: sum of opponents', t=t), f'=IF({todo},"",SUMIFS(its_m{t},side_who,{POS}))',
                "5.3"),
            Col(f"p{t}", _('round {t}: P', t=t), f'=IF(N([nj{t}])=0,"",[sc{t}]/[nj{t}])', "5.3"),
            Col(f"d{t}", _('round {t}: D(P)', t=t), f'=IF([p{t}]="","",{dp_expr(f"[p{t}]")})', "5.4"),
            Col(f"pj{t}", _('round {t}: Pj', t=t), f'=IF([p{t}]="","",MAX({ffe.PJ_FLOOR:g},[so{t}]/[nj{t}]+[d{t}]))',
                "5.5"),
        )
        if t == 0:
            it.add(Col("est1", "estimate 1", "=[pj0]", "5.10"), Col("last0", "last move", "=0", "5.10"))
        else:
            it.add(
                Col(f"mv{t}", _('round {t}: moved', t=t),
                    f'=IF(OR({todo},[pj{t}]=""),0,IF(ABS([pj{t}]-[{est}])>={ffe.SETTLE:g},1,0))', "5.10"),
                Col(f"est{t + 1}", _('estimate {t_1}', t_1=t + 1), f'=IF([mv{t}]=1,([{est}]+[pj{t}])/2,[{est}])',
                    "5.10"),
                Col(f"last{t}", _('round {t}: last move', t=t), f'=IF([mv{t}]=1,{t},[last{t - 1}])', "5.10"),
            )
    final, last_move = f"est{ffe.MAX_ROUNDS + 1}", f"last{ffe.MAX_ROUNDS}"
    work.add(
        Col("est", "final estimate", f'=IF([todo]=1,[iteration:{final}],"")', "5.10", fmt="0.00"),
        Col("rounds", "rounds", f'=IF([todo]=1,MIN([iteration:{last_move}]+1,{ffe.MAX_ROUNDS}),"")', "5.10"),
        Col("settled", "settled", f'=IF([todo]=1,1-[iteration:mv{ffe.MAX_ROUNDS}],1)', "5.10"),
        Col("seen", "counts as", '=IF([rated]=1,[rating],[est])', "5.10"),
    )
    # ---------------------------------------------------------------- the period (rules 5.2 - 5.9)
    sides.add(
        Col("oval", "opponent counts as", '=IF([counts]<>1,"",INDEX(w_seen,[opp]))', "5.1"),
        Col("center", "window centre", '=IF([counts]<>1,"",INDEX(w_seen,[who]))', "5.2"),
        Col("compat", "compatible",
            f'=IF(OR([oval]="",[center]=""),"",{compat_expr("[score]", "[oval]", "[center]")})', "5.2"),
    )
    w = {k: f"[{k}]" for k in ("rating", "nj", "pj", "na", "pa", "rule", "rated", "junior")}
    mean = "([pj]*[nj]+[pa]*[na])/([nj]+[na])"
    work.add(
        Col("nj", "Nj", f"=COUNTIFS(side_who,{POS},side_compat,1)", "5.3"),
        Col("sc", "Sc", f"=SUMIFS(side_score,side_who,{POS},side_compat,1)", "5.3"),
        Col("ea", "Ea", f'=IF([nj]=0,"",SUMIFS(side_oval,side_who,{POS},side_compat,1)/[nj])', "5.3", fmt="0.00"),
        Col("p", "P", '=IF([nj]=0,"",[sc]/[nj])', "5.3", fmt="0.00"),
        Col("dp", "D(P)", f'=IF([p]="","",{dp_expr("[p]")})', "5.4", fmt="0.00"),
        Col("perf", "Ea + D(P), at least 1000", f'=IF([p]="","",MAX({ffe.PJ_FLOOR:g},[ea]+[dp]))', "5.5", fmt="0.00"),
        Col("pj", "Pj", '=IF([nj]=0,"",IF([rated]=1,[perf],[est]))', "5.10", fmt="0.00"),
        Col("rule", "rule",
            f'=IF([key]="","",IF({w["rated"]}=1,IF([nj]=0,"none",IF([pj]=[rating],"Pj=Ei",IF([pj]<[rating],"1.a",'
            f'IF([nj]>=IF([junior]=1,{ffe.QUOTA_JUNIOR},{ffe.QUOTA_SENIOR}),"1.b","1.c")))),'
            f'IF([na]>0,IF([nj]=0,"none",IF([nj]>={ffe.QUOTA_FIRST},"2.a",IF([nj]+[na]<{ffe.QUOTA_FIRST},"2.b","2.c"))),'
            f'IF([nj]=0,"none",IF([nj]<{ffe.QUOTA_FIRST},"3.a","3.b")))))', "5.6"),
        Col("ej", "Ej",
            f'=IF([rule]="","",IF(OR([rule]="none",[rule]="Pj=Ei"),IF([rated]=1,[rating],""),'
            f'IF([rule]="1.a",({ffe.WEIGHT}*[rating]+[nj]*[pj])/({ffe.WEIGHT}+[nj]),'
            f'IF([rule]="1.c",([pj]*[nj]+({ffe.WEIGHT}-[nj])*[rating])/{ffe.WEIGHT},'
            f'IF(OR([rule]="1.b",[rule]="2.a",[rule]="3.b"),[pj],IF([rule]="2.c",{mean},""))))))', "5.6",
            fmt="0.00"),
        Col("elo", "new Elo, to the nearest ten", '=IF([ej]="","",INT([ej]/10+0.5)*10)', "5.9", fmt="0"),
        Col("apf", "new archive Pa",
            f'=IF([rule]="2.b",{mean},IF([rule]="3.a",[pj],IF(AND([rule]="none",[na]>0),[pa],"")))', "5.7"),
        Col("agm", "new archive Na",
            '=IF([rule]="2.b",[nj]+[na],IF([rule]="3.a",[nj],IF(AND([rule]="none",[na]>0),[na],"")))', "5.7"),
    )

    def have(body: str) -> str:
        return f'=IF([key]="","",{body})'

    note = (f'IF([settled]=0,{text_formula("estimate still moving after {rounds} rounds", rounds=ffe.MAX_ROUNDS)},'
            f'IF(OR([rule]="2.b",[rule]="3.a"),{text_formula("archived for the next period")},""))')
    work.add(
        Col("res_id", "results: id", '=[key]', "8"),
        Col("res_name", "results: name", have('[players:name]&""'), "8"),
        Col("res_status", "results: status", have('IF([rated]=1,"established","unrated")'), "5.6"),
        Col("res_rating_before", "results: rating before", have("[rating]"), "5.1"),
        Col("res_games_rated", "results: games rated", have("[n]"), "5.1"),
        Col("res_score", "results: score", have("[score]"), "5.3"),
        Col("res_expected", "results: expected", '=""', "5.12"),
        Col("res_k", "results: K", '=""', "5.12"),
        Col("res_performance", "results: performance", have("[perf]"), "5.5"),
        Col("res_change", "results: change", have('IF(AND([rated]=1,[elo]<>""),[elo]-INT([rating]/10+0.5)*10,"")'),
            "5.9"),
        Col("res_bonus", "results: bonus", '=""', "8"),
        Col("res_rating_after", "results: new Elo", have("[elo]"), "5.9"),
        Col("res_games_after", "results: games after", have("[games]+[n]"), "5.1"),
        Col("res_rule", "results: rule", have("[rule]"), "5.6"),
        Col("res_nj", "results: Nj", have("[nj]"), "5.3"),
        Col("res_sc", "results: Sc", have("[sc]"), "5.3"),
        *[Col(f"res_{k}", _('results: {k}', k=k), have(f'IF([nj]=0,"",[{k}])'), "5.3") for k in ("ea", "p", "dp",
            "pj")],
        Col("res_ej", "results: Ej", have("[ej]"), "5.6"),
        Col("res_archive_perf", "results: archive Pa", have("[apf]"), "5.7"),
        Col("res_archive_games", "results: archive Na", have("[agm]"), "5.7"),
        Col("res_rounds", "results: rounds", have("[rounds]"), "5.10"),
        Col("res_note", "results: note", have(note), "5.10"),
        Col("res_category", "results: category (the next period's)",
            have('IF(OR(LOWER(TRIM([players:category]&""))="junior",LOWER(TRIM([players:category]&""))="senior"),'
                 'LOWER(TRIM([players:category]&"")),"")'), "14.3"),
        *sort_columns(),
    )
    rules_en = [
        _("FFE (xl-elo rules 5): a game counts only if compatible (draws always; a win against an opponent above "
          "your Elo - {window}, a loss against one below your Elo + {window}); Ea, P = Sc / Nj, D(P) (the normal "
          "quantile, or the published table if chosen above), Pj = Ea + D(P), at least {pj_floor}; rules 1.a - 1.c "
          "(rated), 2.a - 2.c (archive), 3.a - 3.b (new); the Elo rounded to the nearest ten. Unrated players are "
          "estimated by the iterative method, written out round by round on the 'iteration' sheets ({max_rounds} "
          "rounds at most, settled within {settle} points).",
          window=ffe.WINDOW, pj_floor=ffe.PJ_FLOOR, max_rounds=ffe.MAX_ROUNDS, settle=ffe.SETTLE),
    ]
    return Template(
        federation="ffe", title="FFE national Elo period",
        players=player_inputs("id", "name", "rating", "games", own=own_inputs()),
        games=game_inputs("round", "player", "opponent", "result"), history=None,
        settings=[period_setting(ffe.NEEDS_PERIOD), event_setting(), *option_settings(ffe.SYSTEM)],
        rules=rules_en, sheets=[sides, work, it, its],
        results=[
            ResultCol("id", "Id", width=12), ResultCol("name", "Name", width=26),
            ResultCol("status", "Status", width=11),
            ResultCol("rating_before", "Elo before", "0", 9),
            ResultCol("games_rated", "Games", "0", 7), ResultCol("nj", "Nj", "0", 5),
            ResultCol("sc", "Sc", "0.0", 6), ResultCol("ea", "Ea", "0", 7),
            ResultCol("p", "P", "0.00", 6), ResultCol("dp", "D(P)", "0", 6),
            ResultCol("pj", "Pj", "0", 7), ResultCol("rule", "Rule", width=7),
            ResultCol("change", "Change", "+0;-0;0", 9),
            ResultCol("rating_after", "New Elo", "0", 9),
            ResultCol("archive_perf", "Archive Pa", "0.00", 9),
            ResultCol("archive_games", "Archive Na", "0", 8),
            ResultCol("note", "Note", width=30),
            ResultCol("score", "score", "0.0", printed=False),
            ResultCol("expected", "expected", printed=False), ResultCol("k", "k", printed=False),
            ResultCol("performance", "performance", "0.00", printed=False),
            ResultCol("bonus", "bonus", printed=False),
            ResultCol("games_after", "games after", "0", printed=False),
            ResultCol("ej", "Ej", "0.00", printed=False),
            ResultCol("rounds", "rounds", "0", printed=False),
            ResultCol("category", "category", printed=False),
        ],
        lists=[("D(P)", ["dp_pct", "dp_value"], [(p, FFE_DP_TABLE[p]) for p in range(1, 100)])],
        player_checks=player_checks(), game_checks=game_checks(), capacity=cap,
    )
