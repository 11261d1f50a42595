"""The Glicko-2 ladder template: a season of rating periods in native formulas (rules 12).

- ``ladder``: the season's periods in time order (each game's ``period`` column, rules 12.7);
- ``sides``: every game from both players, with its period's place in the season, and for each
  period the game's E, ``g^2 E (1 - E)`` and ``g (s - E)`` from the opponents' values before it;
- ``period1`` ... ``periodP``: one row per player and period, every step of the paper: the
  values before, v and Delta (Steps 3, 4), the bracket of Step 5 (``f(a - k tau)`` for k = 1 ..
  K) and the Illinois iteration laid out step by step in columns (C, f(C), A, f(A); B is the
  step's C), the new volatility, RD and rating (Steps 6 - 8), and the season's running totals;
- ``work``: each player's start (a new player's 1500 / 350 / 0.06) and his state after the
  last period, the results.

A period sheet reads only the one before it and the sides' columns of its own period, which
read only its values before: no circular reference. A case that needs more bracket or
iteration steps than laid out, or more periods, stops the results with the banner's words
(``xl-elo rate`` rates it).
"""

from __future__ import annotations

from typing import Final

import xl_elo.federations.glicko2 as g2
from xl_elo.core import MAX_RATING
from xl_elo.model import MAX_GAMES_PER_PLAYER
from xl_elo.templates.common import (
    POS,
    blank,
    event_setting,
    game_inputs,
    number_check,
    period_check,
    period_key,
    period_setting,
    player_inputs,
    reason,
    sides_sheet,
    sort_columns,
    text_of,
    work_sheet,
)
from xl_elo.templates.spec import FIRST, Capacity, Col, Input, ResultCol, Setting, Sheet, Template
from xl_elo.words import _, text_formula

#: Bracket steps ``f(a - k tau)`` laid out (the paper: k is "almost always 1, and very rarely 2 or more").
BRACKET_STEPS: Final = 6
#: Illinois steps laid out per player and period (the paper: median 5, at most 19 in 10,000 periods).
ITERATION_STEPS: Final = 12

#: The rooms shipped in workbooks/: a club ladder's season: a year of monthly periods, 40 players (one printed page),
#: then a larger event's (its own file, named for its room). Any other: xl-elo workbooks --players N.
ROOMS = (Capacity(players=40, games=300, history=0, periods=12),
         Capacity(players=80, games=600, history=0, periods=12))
CAPACITY = ROOMS[0]
#: The languages shipped, the first unsuffixed: Glickman's paper's; any other with --language.
LANGUAGES = ('en',)
#: No season template (rules 14): its results pasted into the next copy carry the list on.
SEASON = None
#: Languages it speaks besides, built on request (xl-elo workbooks --language): none.
SPEAKS: tuple[str, ...] = ()


def _f(x: str) -> str:
    """Step 5's f(x) over this row's Delta, phi^2 + v and a (rules 12.4)."""
    ex = f"EXP({x})"
    return f"({ex}*([delta]^2-[p2v]-{ex})/(2*([p2v]+{ex})^2)-({x}-[a])/opt_tau^2)"


def _tau_setting(g2: object) -> Setting:
    low, high = g2.TAU_LOW, g2.TAU_HIGH  # type: ignore[attr-defined]
    bad = text_formula("tau: a number from {low} to {high}", low=low, high=high)
    check = f'IF(ISERROR([x]),{bad},IF(NOT(ISNUMBER([x])),{bad},IF(OR([x]<{low},[x]>{high}),{bad},"")))'
    return Setting("opt_tau", _("tau, the system constant ({low} to {high}; rules 12.9)", low=low, high=high),
                   g2.TAU_DEFAULT, check=check,  # type: ignore[attr-defined]
                   help="Smaller keeps the volatility steadier after improbable results (Glickman: 0.3 to 1.2)")


def _cap_setting(g2: object) -> Setting:
    low, high = g2.NEW_RD, g2.RD_CAP_HIGH  # type: ignore[attr-defined]
    bad = text_formula("rd_cap: a number from {low} to {high}", low=low, high=high)
    check = f'IF(ISERROR([x]),{bad},IF(NOT(ISNUMBER([x])),{bad},IF(OR([x]<{low},[x]>{high}),{bad},"")))'
    return Setting("opt_rd_cap", "rd_cap, the largest RD stored (rules 12.10)", g2.RD_CAP,  # type: ignore[attr-defined]
                   check=check, help=_("No RD above it is stored; {high}: next to the paper's uncapped system",
                                       high=high))


def spec(cap: Capacity | None = None) -> Template:
    cap = cap or CAPACITY
    periods = max(1, cap.periods)
    scale, base = f"{g2.SCALE}", f"{g2.BASE:g}"
    eps = f"{g2.EPSILON:g}"
    sides = sides_sheet(cap)
    work = work_sheet(cap)
    last_player = FIRST + cap.players - 1

    # ---------------------------------------------------------------- the periods of the season (rules 12.7)
    sides.add(
        Col("pkey", "period (sort key)", f'=IF([kind]="","",{period_key("[games:period]")})', "12.7"),
        Col("pidx", "period of the season", '=IF(OR([pkey]="",[pkey]<0),"",IFERROR(MATCH([pkey],lad_key,0),""))',
            "12.7"),
        Col("ppair", "period|round|pair (first side only)",
            lambda r: '=IF(OR([pair]="",[pkey]=""),"",[pkey]&"|"&[pair])' if r <= FIRST + cap.games - 1 else '=""',
            "8", blocks=[(FIRST, FIRST + cap.games - 1),
                                                 (FIRST + cap.games, FIRST + cap.sides - 1)]),
    )
    ladder = Sheet("ladder", "lad_", FIRST, FIRST + periods - 1, leading=[("period", lambda r: r - FIRST + 1)])
    # the next period: the next key a game names, or the month after a monthly period when the next is a later
    # month (a month without a game between two monthly periods is a period too, rules 12.7)
    after = "INT([key@prev]/100)"
    month_after = f"IF(MOD({after},100)=12,(INT({after}/100)+1)*10000+100,{after}*100+100)"
    ladder.add(
        Col("next", "next period named by a game",
            lambda r: ('=IF(COUNT(side_pkey)=0,"",SMALL(side_pkey,1))' if r == FIRST else
                       '=IF([key@prev]="","",IF(COUNTIF(side_pkey,">"&[key@prev])=0,"",'
                       'SMALL(side_pkey,COUNTIF(side_pkey,"<="&[key@prev])+1)))'), "12.7"),
        Col("key", "sort key",
            lambda r: ('=[next]' if r == FIRST else
                       f'=IF([next]="","",IF(AND([key@prev]>0,MOD([key@prev],100)=0,MOD([next],100)=0,'
                       f'{month_after}<[next]),{month_after},[next]))'), "12.7"),
        Col("name", "the period",
            '=IF(OR([key]="",[key]<=0),"",LEFT([key],4)&"-"&MID([key],5,2)&IF(MOD([key],100)=0,"","-"&RIGHT([key],2)))',
            "12.7", width=12),
        Col("games", "games rated", '=IF([key]="","",COUNTIFS(side_pkey,[key],side_counts,1)/2)', "12.7"),
        Col("note", "note",
            '=IF([key]="","",IF([key]<>[next],'
            + text_formula("a month without a game: every rated player's RD grows (rules 12.7)") + ',""))', "12.7",
            width=40),
    )

    # ---------------------------------------------------------------- each player's start (rules 12.2)
    work.add(
        Col("key", "id", f'=IF({blank("[players:id]")},"",{text_of("[players:id]")})', "8"),
        Col("rated", "has a rating (0 is a new player)",
            '=IF(AND([key]<>"",ISNUMBER([players:rating])),IF([players:rating]<>0,1,0),0)', "12.2"),
        Col("rating", "rating before", '=IF([rated]=1,[players:rating],"")', "12.2", fmt="0.00"),
        Col("new0", "new player", '=IF([key]="","",1-[rated])', "12.2"),
        Col("mu0", "mu before", f'=IF([key]="","",IF([rated]=1,([players:rating]-{base})/{scale},0))', "12.1"),
        Col("phi0", "phi before",
            f'=IF([key]="","",IF([rated]=1,N([players:rd]),{g2.NEW_RD:g})/{scale})', "12.1"),
        Col("sig0", "volatility before",
            f'=IF([key]="","",IF([rated]=1,N([players:volatility]),{g2.NEW_VOLATILITY:g}))', "12.2"),
    )

    # ---------------------------------------------------------------- one sheet per period (rules 12.3 - 12.7)
    period_sheets = []
    for t in range(1, periods + 1):
        sheet = f"period{t}"
        p = f"p{t}_"
        prev = f"period{t - 1}"

        def before(name: str, start: str, t: int = t, prev: str = prev) -> str:
            return f"[work:{start}]" if t == 1 else f"[{prev}:{name}]"

        def total(name: str, t: int = t, prev: str = prev) -> str:
            return "0" if t == 1 else f"[{prev}:{name}]"

        def last(name: str, t: int = t, prev: str = prev) -> str:
            return '""' if t == 1 else f"[{prev}:{name}]"

        ps = Sheet(sheet, p, FIRST, last_player, leading=[("player", lambda r: r - FIRST + 1)])
        ps.add(
            Col("key", "id", '=[work:key]', "8"),
            Col("on", "period in the season", f'=IF(INDEX(lad_key,{t})="",0,1)', "12.7"),
            Col("new", "new player", f'=IF([key]="","",{before("new_a", "new0")})', "12.2"),
            Col("mu", "mu before", f'=IF([key]="","",{before("mu_a", "mu0")})', "12.1"),
            Col("phi", "phi before", f'=IF([key]="","",{before("phi_a", "phi0")})', "12.1"),
            Col("sig", "volatility before", f'=IF([key]="","",{before("sig_a", "sig0")})', "12.4"),
            Col("g", "g(phi), as an opponent", '=IF([key]="","",1/SQRT(1+3*[phi]^2/PI()^2))', "12.3"),
            Col("n", "games", f"=IF([key]=\"\",0,COUNTIFS(side_who,{POS},side_counts,1,side_pidx,{t}))", "12.3"),
            Col("s", "score", f'=IF([n]=0,0,SUMIFS(side_score,side_who,{POS},side_counts,1,side_pidx,{t}))', "12.3"),
            Col("ex", "sum of E", f'=IF([n]=0,0,SUMIFS(side_e{t},side_who,{POS}))', "12.3"),
            Col("sv", "sum g^2 E (1 - E)", f'=IF([n]=0,"",SUMIFS(side_v{t},side_who,{POS}))', "12.3"),
            Col("sd", "sum g (s - E)", f'=IF([n]=0,"",SUMIFS(side_d{t},side_who,{POS}))', "12.3"),
            Col("v", "v", '=IF([n]=0,"",1/[sv])', "12.3"),
            Col("delta", "Delta", '=IF([n]=0,"",[v]*[sd])', "12.3"),
            Col("p2v", "phi^2 + v", '=IF([n]=0,"",[phi]^2+[v])', "12.4"),
            Col("a", "a = ln(sigma^2) = A", '=IF([n]=0,"",LN([sig]^2))', "12.4"),
            Col("big", "Delta^2 > phi^2 + v", '=IF([n]=0,"",IF([delta]^2>[p2v],1,0))', "12.4"),
        )
        for k in range(1, BRACKET_STEPS + 1):
            ps.add(Col(f"fk{k}", _('f(a - {k} tau)', k=k), f'=IF(OR([n]=0,[big]<>0),"",{_f(f"([a]-{k}*opt_tau)")})',
                       "12.4"))
        first_k = "".join(f"IF([fk{k}]>=0,{k}," for k in range(1, BRACKET_STEPS + 1)) + '""' + ")" * BRACKET_STEPS
        ps.add(
            Col("k", "k", f'=IF(OR([n]=0,[big]<>0),"",{first_k})', "12.4"),
            Col("b0", "B",
                f'=IF([n]=0,"",IF([big]=1,LN([delta]^2-[p2v]),[a]-IF([k]="",{BRACKET_STEPS},[k])*opt_tau))', "12.4"),
            Col("fa0", "f(A)", f'=IF([n]=0,"",{_f("[a]")})', "12.4"),
            Col("fb0", "f(B)", f'=IF([n]=0,"",{_f("[b0]")})', "12.4"),
        )
        for i in range(1, ITERATION_STEPS + 1):
            a, fa = ("[a]", "[fa0]") if i == 1 else (f"[a{i - 1}]", f"[fa{i - 1}]")
            b, fb = ("[b0]", "[fb0]") if i == 1 else (f"[c{i - 1}]", f"[fc{i - 1}]")
            go = f"ABS({b}-{a})>{eps}"
            ps.add(
                Col(f"c{i}", _('step {i}: C (the new B)', i=i),
                    f'=IF([n]=0,"",IF({go},{a}+({a}-{b})*{fa}/({fb}-{fa}),{b}))',
                    "12.4"),
                Col(f"fc{i}", _('step {i}: f(C)', i=i), f'=IF([n]=0,"",IF({go},{_f(f"[c{i}]")},{fb}))', "12.4"),
                Col(f"a{i}", _('step {i}: A', i=i), f'=IF([n]=0,"",IF({go},IF([fc{i}]*{fb}<=0,{b},{a}),{a}))', "12.4"),
                Col(f"fa{i}", _('step {i}: f(A)', i=i), f'=IF([n]=0,"",IF({go},IF([fc{i}]*{fb}<=0,{fb},{fa}/2),{fa}))',
                    "12.4"),
            )
        s_last = ITERATION_STEPS
        played = "AND([on]=1,[n]>0)"
        ps.add(
            Col("settled", "settled within the steps laid out",
                f'=IF([n]=0,"",IF(AND(OR([big]=1,[k]<>""),ABS([c{s_last}]-[a{s_last}])<={eps}),1,0))', "12.4"),
            Col("steps", "steps used", '=IF([n]=0,"",' + "+".join(
                f"IF(ABS({'[b0]' if i == 1 else f'[c{i - 1}]'}-{'[a]' if i == 1 else f'[a{i - 1}]'})>{eps},1,0)"
                for i in range(1, s_last + 1)) + ")", "12.4"),
            Col("sig_new", "new volatility", f'=IF([n]=0,"",EXP([a{s_last}]/2))', "12.4",
                fmt="0.000000"),
            Col("phistar", "phi*", '=IF([n]=0,"",SQRT([phi]^2+[sig_new]^2))', "12.5"),
            Col("phi_new", "phi'", '=IF([n]=0,"",1/SQRT(1/[phistar]^2+1/[v]))', "12.5"),
            Col("mu_new", "mu'", '=IF([n]=0,"",[mu]+[phi_new]^2*[sd])', "12.5"),
            Col("new_a", "new player after", f'=IF([key]="","",IF({played},0,[new]))', "12.2"),
            Col("mu_a", "mu after", f'=IF([key]="","",IF({played},[mu_new],[mu]))', "12.5"),
            Col("phi_a", "phi after (capped)",
                f'=IF([key]="","",MIN(opt_rd_cap/{scale},IF({played},[phi_new],IF(OR([on]=0,[new]=1),[phi],'
                f'SQRT([phi]^2+[sig]^2)))))', "12.6"),
            Col("sig_a", "volatility after", f'=IF([key]="","",IF({played},[sig_new],[sig]))', "12.4"),
            Col("rating_a", "rating after", f'=IF(OR([key]="",[new_a]=1),"",{scale}*[mu_a]+{base})', "12.5",
                fmt="0.00"),
            Col("rd_a", "RD after", f'=IF(OR([key]="",[new_a]=1),"",{scale}*[phi_a])', "12.5",
                fmt="0.00"),
            Col("tg", "games so far", f'=IF([key]="","",{total("tg")}+[n])', "12.7"),
            Col("ts", "score so far", f'=IF([key]="","",{total("ts")}+[s])', "12.7"),
            Col("te", "sum of E so far", f'=IF([key]="","",{total("te")}+[ex])', "12.7"),
            Col("tp", "periods played", f'=IF([key]="","",{total("tp")}+IF([n]>0,1,0))', "12.7"),
            Col("lname", "last period played", f'=IF([key]="","",IF([n]>0,INDEX(lad_name,{t}),{last("lname")}))',
                "12.7"),
            Col("lv", "v of the last period played", f'=IF([key]="","",IF([n]>0,[v],{last("lv")}))', "12.7"),
            Col("ld", "Delta of the last period played", f'=IF([key]="","",IF([n]>0,[delta],{last("ld")}))', "12.7"),
        )
        period_sheets.append(ps)
        # the games of this period, from the opponents' values before it (rules 12.3)
        sides.add(
            Col(f"e{t}", _('period {t}: E', t=t),
                f'=IF(OR([counts]<>1,[pidx]<>{t}),"",1/(1+EXP(MIN(700,-INDEX({p}g,[opp])*(INDEX({p}mu,[who])-'
                f'INDEX({p}mu,[opp]))))))', "12.3"),
            Col(f"v{t}", _('period {t}: g^2 E (1 - E)', t=t),
                f'=IF([e{t}]="","",INDEX({p}g,[opp])^2*[e{t}]*(1-[e{t}]))',
                "12.3"),
            Col(f"d{t}", _('period {t}: g (s - E)', t=t), f'=IF([e{t}]="","",INDEX({p}g,[opp])*([score]-[e{t}]))',
                "12.3"),
        )

    # ---------------------------------------------------------------- the results (rules 12.7, 8)
    end = f"period{periods}"
    done = f"[{end}:new_a]=1"

    def have(body: str) -> str:
        return f'=IF([key]="","",{body})'

    work.add(
        Col("nmax", "most rated games in one period",
            "=MAX(" + ",".join(f"[period{t}:n]" for t in range(1, periods + 1)) + ")", "8"),
        Col("res_id", "results: id", "=[key]", "8"),
        Col("res_name", "results: name", have('[players:name]&""'), "8"),
        Col("res_status", "results: status", have('IF([rated]=1,"rated","new")'), "12.2"),
        Col("res_rating_before", "results: rating before", have('IF([rated]=1,[rating],"")'), "12.2"),
        Col("res_games_rated", "results: games rated", have(f"[{end}:tg]"), "12.7"),
        Col("res_score", "results: score", have(f"[{end}:ts]"), "12.7"),
        Col("res_expected", "results: expected", have(f'IF([{end}:tg]=0,"",[{end}:te])'), "12.3"),
        Col("res_k", "results: K", '=""', "12.10"),
        Col("res_performance", "results: performance", '=""', "12.10"),
        Col("res_change", "results: change",
            have(f'IF(OR([rated]=0,{done}),"",{scale}*[{end}:mu_a]+{base}-[rating])'), "12.5"),
        Col("res_bonus", "results: bonus", '=""', "12.10"),
        Col("res_rating_after", "results: rating after", have(f'IF({done},"",{scale}*[{end}:mu_a]+{base})'), "12.5"),
        Col("res_games_after", "results: games after", '=""', "12.10"),
        Col("res_rd_before", "results: RD before", have('IF([rated]=1,[players:rd],"")'), "12.2"),
        Col("res_volatility_before", "results: volatility before", have('IF([rated]=1,[players:volatility],"")'),
            "12.2"),
        Col("res_rd_after", "results: RD after", have(f'IF({done},"",{scale}*[{end}:phi_a])'), "12.5"),
        Col("res_volatility_after", "results: volatility after", have(f'IF({done},"",[{end}:sig_a])'), "12.4"),
        Col("res_v", "results: v", have(f"[{end}:lv]"), "12.3"),
        Col("res_delta", "results: Delta", have(f"[{end}:ld]"), "12.3"),
        Col("res_periods_played", "results: periods played", have(f"[{end}:tp]"), "12.7"),
        Col("res_last_period", "results: last period", have(f"[{end}:lname]"), "12.7"),
        *sort_columns(),
    )

    # ---------------------------------------------------------------- inputs and their checks (rules 8, 12.1, 12.2)
    rating = Input("rating", "Rating before (blank: a new player)", 10,
                   number_check("rating", 0, MAX_RATING, f"a number from 0 to {MAX_RATING}", whole=False, rating=True,
                                what=g2.RATING_WORDS), ("decimal", 0, MAX_RATING))
    rd = Input("rd", "RD (blank for a new player)", 9,
               number_check("rd", g2.RD_LOW, g2.RD_HIGH, f"an RD from {g2.RD_LOW:g} to {g2.RD_HIGH:g}", whole=False),
               ("decimal", g2.RD_LOW, g2.RD_HIGH))
    vol = Input("volatility", "Volatility (blank for a new player)", 10,
                number_check("volatility", g2.VOLATILITY_LOW, g2.VOLATILITY_HIGH,
                             f"a volatility from {g2.VOLATILITY_LOW:g} to {g2.VOLATILITY_HIGH:g}", whole=False),
                ("decimal", g2.VOLATILITY_LOW, g2.VOLATILITY_HIGH))
    period = Input("period", "Rating period: YYYY-MM or YYYY-MM-DD, as text (blank: one period)", 11, period_check(),
                   fmt="@")
    rated = "AND(ISNUMBER([players:rating]),N([players:rating])<>0)"
    new = f"AND(NOT({blank('[players:rating]')}),NOT({rated}))"
    unrated = f"OR({blank('[players:rating]')},{new})"
    too_many = reason("id", _("more than {count} rated games in a period (a column pasted twice?)",
                              count=MAX_GAMES_PER_PLAYER))
    player_checks = [
        f'IF([work:nmax]>{MAX_GAMES_PER_PLAYER},{too_many},"")',
        f'IF(AND({rated},{blank("[players:rd]")}),'
        f'{reason("rd", "blank for a rated player: give his RD")},"")',
        f'IF(AND({rated},{blank("[players:volatility]")}),'
        f'{reason("volatility", "blank for a rated player: give his volatility")},"")',
        *(f'IF(AND({unrated},NOT({blank(f"[players:{name}]")})),'
          + reason(name, _('given for a player without a rating (a new player starts at {start})', start=start))
          + ',"")' for name, start in (("rd", g2.NEW_RD), ("volatility", g2.NEW_VOLATILITY))),
        f'IF(AND({rated},ISNUMBER([players:rd])),IF([players:rd]>N(opt_rd_cap),'
        f'{reason("rd", "above the RD cap (instructions: rd_cap)")},""),"")',
    ]
    twice = reason("player", "this pair meets twice in this round of this period (a game typed twice?)")
    inside = reason("period", "a day of a month that is another period of this ladder: a game is in one period "
                              "(give it the month, or give every game of that month its date)")
    mixed = reason("period", "the game's period is blank while other games have one (give every game its period, "
                             "or none)")
    game_checks = [
        f'IF([sides:ppair]="","",IF(COUNTIF(side_ppair,[sides:ppair])>1,{twice},""))',
        f'IF(AND(NOT({blank("[games:player]")}),{blank("[games:period]")},g2_periods_given>0),{mixed},"")',
        f'IF(N([sides:pkey])<=0,"",IF(MOD([sides:pkey],100)=0,"",IF(ISNUMBER(MATCH(INT([sides:pkey]/100)*100,'
        f'lad_key,0)),{inside},"")))',
    ]
    unsettled = "+".join(f'COUNTIF(p{t}_settled,0)' for t in range(1, periods + 1))
    blockers = [
        (f'AND(INDEX(lad_key,{periods})<>"",COUNTIF(side_pkey,">"&INDEX(lad_key,{periods}))>0)',
         f"more than {periods} rating periods (the season laid out here): rate it with xl-elo rate"),
        (f"({unsettled})>0",
         f"a volatility needs more than the {BRACKET_STEPS} bracket or {ITERATION_STEPS} iteration steps laid out "
         "(rules 12.4): rate it with xl-elo rate"),
    ]
    rules_en = [
        _("Glicko-2 (xl-elo rules 12; Glickman's 'Example of the Glicko-2 system'): each player has a rating, an RD "
          "and a volatility; a new player (rating blank, RD and volatility blank too) starts at {base} / {new_rd} / "
          "{new_volatility} when he first plays. Type each game's rating period in the games' 'period' column as "
          "text (YYYY-MM, or a date YYYY-MM-DD for shorter periods; blank for a one-period file): the periods are "
          "rated in time order, up to {periods} here, everyone's period from the values before it. A player who does "
          "not play in a period keeps his rating and volatility and his RD grows (Step 6); a month without a game "
          "between two monthly periods is a period too, in which nobody played (the ladder sheet lists it). No RD "
          "above the cap ({rd_cap} unless set) is stored. The results give each player's rating, RD and volatility "
          "after the last period: the next season's players sheet.",
          base=g2.BASE, new_rd=g2.NEW_RD, new_volatility=g2.NEW_VOLATILITY, periods=periods, rd_cap=g2.RD_CAP),
        _("The sheets period1 ... show every step of the paper for every player: v and Delta (Steps 3, 4), the "
          "bracket f(a - k tau) for k = 1 to {bracket_steps} and the Illinois iteration of Step 5, {iteration_steps} "
          "steps laid out (C, f(C), A, f(A)), then phi*, phi' and mu' (Steps 6 - 8).",
          bracket_steps=BRACKET_STEPS, iteration_steps=ITERATION_STEPS),
    ]
    return Template(
        federation="glicko2", title="Glicko-2 ladder season",
        players=[*player_inputs("id", "name"), rating, rd, vol],
        games=[period, *game_inputs("round", "player", "opponent", "result")], history=None,
        settings=[period_setting(False), event_setting(), _tau_setting(g2), _cap_setting(g2)],
        rules=rules_en, sheets=[sides, ladder, work, *period_sheets],
        results=[
            ResultCol("id", "Id", width=12), ResultCol("name", "Name", width=24),
            ResultCol("status", "Status", width=8),
            ResultCol("rating_before", "Rating before", "0.00", 9),
            ResultCol("rd_before", "RD before", "0.00", 8),
            ResultCol("volatility_before", "Volatility before", "0.000000", 10),
            ResultCol("games_rated", "Games", "0", 7),
            ResultCol("score", "Score", "0.0", 7),
            ResultCol("expected", "Expected", "0.00", 8),
            ResultCol("change", "Change", "+0.00;-0.00;0.00", 9),
            ResultCol("rating_after", "New rating", "0.00", 9),
            ResultCol("rd_after", "New RD", "0.00", 8),
            ResultCol("volatility_after", "New volatility", "0.000000", 10),
            ResultCol("periods_played", "Periods", "0", 7),
            ResultCol("last_period", "Last period", width=10),
            ResultCol("v", "v", "0.0000", printed=False),
            ResultCol("delta", "Delta", "0.0000", printed=False),
            ResultCol("k", "k", printed=False), ResultCol("performance", "performance",
                                                                printed=False),
            ResultCol("bonus", "bonus", printed=False),
            ResultCol("games_after", "games after", printed=False),
        ],
        player_checks=player_checks, game_checks=game_checks, capacity=cap, blockers=blockers, periods=True,
        names={"g2_periods_given": 'SUMPRODUCT(--(LEN(TRIM(SUBSTITUTE(game_period&"",_xlfn.UNICHAR(160)," ")))>0))'},
    )
