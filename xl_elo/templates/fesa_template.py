"""The FESA template: a tournament solved by explicit sweeps, with performance ratings by
Newton steps, handicaps, and promotions (SPEC 6).

How the formulas are laid out:
- ``walk``: every rated game side, sorted by player and round (a rank computed once), so a
  player's games are consecutive rows and his running rating ``pr`` is the row above plus
  its change (SPEC 6.4);
- sweeps 1 .. 16 (SPEC 6.6): each sweep's opponent ratings come from the previous sweep's
  results (Jacobi steps; on FESA's real tournaments they reach the same fixed point as the
  engine's sweeps in list order), each sweep's performance ratings from Newton steps with the
  step capped at 800 (SPEC 6.5); a last sweep shows every intermediate;
- promotions (SPEC 6.10) game by game on the walk, the "bound to get it" simulation per player;
- ``history_after``: the history table for the next tournament.
"""

from __future__ import annotations

from openpyxl.utils import quote_sheetname

from xl_elo.federations import fesa as rules
from xl_elo.federations.fesa import promotion as promo
from xl_elo.tables import FESA_GRADES, FESA_HANDICAPS, FESA_K_BANDS
from xl_elo.templates import book as b
from xl_elo.templates.book import FIRST, LAST_HISTORY, LAST_PLAYER, LAST_SIDE, MAX_GAMES, MAX_PLAYERS
from xl_elo.templates.build import Columns, _skeleton, finish, rating_columns

I = "(ROW()-1)"
SWEEPS = 16
NEWTON = 8
SIM = promo.SIMULATED_GAMES
#: Handicap game sides the template rates (two per handicap game).
MAX_HANDICAP_SIDES = 200
FLOOR = f"{rules.OPPONENT_FLOOR:g}"
LN = "LN(10)/400"


def rhe(x: str) -> str:
    """Round halves to even (SPEC 6.4: the reference program's rounding)."""
    return f"IF({x}-INT({x})=0.5,IF(MOD(INT({x}),2)=0,INT({x}),INT({x})+1),ROUND({x},0))"


def grade_number(r: str) -> str:
    """Fractional grade number of a rating (SPEC 6.7)."""
    return f"IF({r}<=0,0,LOOKUP({r},g_lb,g_num)+({r}-LOOKUP({r},g_lb,g_lb))/LOOKUP({r},g_lb,g_width))"


def rating_of_number(x: str) -> str:
    return f"IF({x}<=-5,0,LOOKUP({x},g_num,g_lb)+({x}-LOOKUP({x},g_num,g_num))*LOOKUP({x},g_num,g_width))"


def shift(r: str, h: str) -> str:
    """``shift(r, h)``: down h grades on the grade scale, rounded halves to even (SPEC 6.7)."""
    inner = rating_of_number(f"({grade_number(r)}-{h})")
    return rhe(f"({inner})")


def minus(a: str, b: str) -> str:
    return f"({a}-{b})"


def expected(o: str, x: str) -> str:
    return f"1/(1+10^(({o}-{x})/400))"


def _lists(book: b.Book) -> None:
    ws = book.wb["lists"]
    b.table_block(book, ws, 5, "FESA K", ["k_lower", "k_value"],
                  sorted((max(lo, -1_000_000), k) for lo, k in FESA_K_BANDS))
    rows = []
    for i, g in enumerate(FESA_GRADES):
        nxt = FESA_GRADES[i + 1].lb if i + 1 < len(FESA_GRADES) else None
        width = (nxt - g.lb) if nxt is not None else (g.lb - FESA_GRADES[i - 1].lb)
        rows.append((g.lb, i - 5, width, g.grade, g.mp, "" if nxt is None else nxt,
                     "" if g.n_lb is None else g.n_lb, "" if g.n_mp is None else g.n_mp, i))
    b.table_block(book, ws, 8, "grades", ["g_lb", "g_num", "g_width", "g_name", "g_mp", "g_ub", "g_nlb", "g_nmp", "g_index"], rows)
    b.table_block(book, ws, 18, "handicaps", ["hc_code", "hc_value"], [(c, v) for c, (_, v) in FESA_HANDICAPS.items()])


def fesa() -> b.Book:
    """FESA tournament (SPEC 6)."""
    book, inputs, sides, work, results = _skeleton(
        "fesa", "FESA shogi tournament rating",
        ("id", "name", "rating", "games", "bonus_count", "grade", "nsr_grade", "lb_run", "mp_run", "mp_reached"),
        ("round", "player", "opponent", "result", "handicap", "rated"),
        ["FESA (SPEC 6): new players and players whose record is still a game-by-game history (the 'history' "
         "sheet) are rated by performance: the zero of g(x) over all their games; the others game by game in round "
         "order with K by band, the upset gain and the activity bonus, rounded once (halves to even). Opponents "
         "count at their rating after the tournament, at least 400, so the tournament is solved by "
         f"{SWEEPS} sweeps (check 'settled' below). Handicap games shift ratings on the grade scale. Promotions "
         "follow SPEC 6.10; 'history_after' is the history table for the next tournament.",
         "No setting to switch on: no macro, no iterative calculation. If 'settled' says no, rate the file with "
         "xl-elo rate."],
        ["FESA (SPEC 6) : les nouveaux joueurs et ceux dont le dossier est encore une liste de parties (feuille "
         "'history') sont classés par performance (zéro de g(x) sur toutes leurs parties) ; les autres partie par "
         "partie dans l'ordre des rondes avec K par tranche, le gain d'exploit et le bonus d'activité, arrondis une "
         "fois (demi au pair). Les adversaires comptent à leur classement après le tournoi, au moins 400 : le "
         f"tournoi est résolu en {SWEEPS} passes (voir 'settled'). Parties à handicap : décalage sur l'échelle des "
         "grades. Promotions selon SPEC 6.10 ; 'history_after' est l'historique pour le tournoi suivant.",
         "Aucun réglage à activer : ni macro, ni calcul itératif. Si 'settled' dit no, utilisez xl-elo rate."],
        [("event_name", "Tournament / Tournoi", ""), ("period", "Date", "")], history=True)
    _lists(book)
    P = inputs.p
    sd = quote_sheetname("sides")
    letter = inputs.players["grade"]
    b.validation_list(book.wb["players"], "g_name", f"{letter}{FIRST}:{letter}{LAST_PLAYER}", "grade",
                      "A FESA grade: 20 kyu .. 1 kyu, 1 dan .. 8 dan")
    letter = inputs.games["handicap"]
    b.validation_list(book.wb["games"], "hc_code", f"{letter}{FIRST}:{letter}{b.LAST_GAME}", "handicap",
                      "S, L, B, R, RL, 2p, 4p, 5p, 6p (the first player gives it)")

    def w(name: str, r: int) -> str:
        return work(name, r)

    # ---------------------------------------------------------------- history, per row (static)
    hw_ws = book.sheet("history_work")
    b.header(hw_ws, ["row"], [8])
    hw = Columns(book, hw_ws, "hw_", FIRST, LAST_HISTORY, start=2)
    hw.add("who", "player", lambda r: f'=IF(history!$A{r}="",0,IFERROR(MATCH(history!$A{r},player_id,0),0))')
    hw.add("o", "opponent, at least 400", lambda r: f'=IF(N({hw("who", r)})=0,0,MAX({FLOOR},N(history!$B{r})))')
    hw.add("s", "result", lambda r: (f'=IF(N({hw("who", r)})=0,0,IFERROR(INDEX(result_score,MATCH(history!$C{r},'
                                     f'result_text,0)),0))'))
    for r in range(FIRST, LAST_HISTORY + 1):
        hw_ws.cell(r, 1, r - 1)

    # ---------------------------------------------------------------- players: mode (SPEC 6.3)
    rating_columns(inputs, work, "has a rating", "rating before")
    work.add("bc", "bonus count", lambda r: f'=N({P("bonus_count", r)})')
    work.add("hn", "history games", lambda r: f"=COUNTIF(hw_who,{I})")
    work.add("hs", "history score", lambda r: f"=SUMIFS(hw_s,hw_who,{I})")
    work.add("hwins", "history wins", lambda r: f"=COUNTIFS(hw_who,{I},hw_s,1)")
    work.add("new", "new player", lambda r: f'=IF(AND({P("id", r)}<>"",{w("games", r)}=0,{w("hn", r)}=0),1,0)')
    work.add("mp", "NSR games at", lambda r: (
        f'=IF(AND({w("new", r)}=1,{P("nsr_grade", r)}<>""),IF(LEFT(LOWER({P("nsr_grade", r)}),3)="pro",'
        f'{promo_base()}+{promo_step()}*VALUE(MID({P("nsr_grade", r)},5,2)),'
        f'INDEX(g_mp,MATCH(LOWER({P("nsr_grade", r)}),g_name,0))),"")'))
    work.add("nsr", "NSR games", lambda r: f'=IF({w("mp", r)}="",0,2)')
    work.add("n", "games rated", lambda r: f"=COUNTIFS(side_who,{I},side_rated,1)")
    work.add("score", "score", lambda r: f"=SUMIFS(side_score,side_who,{I},side_rated,1)")
    work.add("perf", "performance mode", lambda r: (
        f'=IF({P("id", r)}="",0,IF({w("new", r)}=1,1,IF({w("hn", r)}>0,IF(OR({w("hs", r)}=0,'
        f'{w("hwins", r)}={w("hn", r)},{w("games", r)}+{w("n", r)}<{rules.PERFORMANCE_GAMES}),1,0),0)))'))
    work.add("alll", "all losses", lambda r: f'=IF(AND({w("hs", r)}=0,{w("score", r)}=0,{w("nsr", r)}=0),1,0)')
    work.add("allw", "all wins", lambda r: (
        f'=IF(AND({w("hwins", r)}={w("hn", r)},COUNTIFS(side_who,{I},side_rated,1,side_score,1)={w("n", r)},'
        f'{w("nsr", r)}=0,{w("hn", r)}+{w("n", r)}>0),1,0)'))
    work.add("v0", "sweep 0", lambda r: f'=IF({w("perf", r)}=1,{FLOOR},N({w("rating", r)}))')

    # ---------------------------------------------------------------- walk: sides sorted by player, round
    sides.add("h", "handicap grades", lambda r: f'=IF($K{r}="",0,IFERROR(INDEX(hc_value,MATCH($K{r},hc_code,0)),0))')
    sides.add("key", "sort key", lambda r: f'=IF($G{r}<>1,"",$C{r}*10000000+$H{r}*10000+$B{r})')
    sides.add("rank", "walk row", lambda r: f'=IF({sides("key", r)}="","",COUNTIF(s_key,"<"&{sides("key", r)})+1)')
    sides.add("hflag", "handicap side", lambda r: f'=IF(AND($G{r}=1,{sides("h", r)}>0),1,0)')
    sides.add("hrank", "handicap row", lambda r: (
        f'=IF({sides("hflag", r)}=1,SUM({sides("hflag", FIRST)}:{sides("hflag", r)}),"")'))
    walk_ws = book.sheet("walk")
    b.header(walk_ws, ["row"], [8])
    for r in range(FIRST, LAST_SIDE + 1):
        walk_ws.cell(r, 1, r - 1)
    wk = Columns(book, walk_ws, "wk_", FIRST, LAST_SIDE, start=2)
    wk.add("side", "side", lambda r: '=IFERROR(MATCH(ROW()-1,s_rank,0),"")')
    S = lambda col, r: f"INDEX({sd}!${col}${FIRST}:${col}${LAST_SIDE},{wk('side', r)})"  # noqa: E731
    wk.add("who", "player", lambda r: f'=IF({wk("side", r)}="","",{S("C", r)})')
    wk.add("opp", "opponent", lambda r: f'=IF({wk("side", r)}="","",{S("D", r)})')
    wk.add("s", "result", lambda r: f'=IF({wk("side", r)}="","",{S("F", r)})')
    wk.add("h", "handicap grades", lambda r: f'=IF({wk("side", r)}="","",INDEX(s_h,{wk("side", r)}))')
    wk.add("role", "giver +1, receiver -1", lambda r: (
        f'=IF({wk("side", r)}="","",IF({wk("h", r)}=0,0,IF({S("L", r)}=1,1,-1)))'))
    wk.add("first", "first game of the player", lambda r: (
        f'=IF({wk("side", r)}="","",IF(ROW()={FIRST},1,IF({wk("who", r - 1)}={wk("who", r)},0,1)))'))
    wk.add("pos", "game number", lambda r: (
        f'=IF({wk("side", r)}="","",IF({wk("first", r)}=1,1,N({wk("pos", r - 1)})+1))'))
    wk.add("perf", "performance mode", lambda r: f'=IF({wk("side", r)}="","",INDEX(w_perf,{wk("who", r)}))')
    wk.add("counter", "activity counter", lambda r: (
        f'=IF({wk("side", r)}="","",INDEX(w_bc,{wk("who", r)})+{wk("pos", r)}-1)'))
    wk.add("hq", "handicap row", lambda r: f'=IF(N({wk("role", r)})=0,"",INDEX(s_hrank,{wk("side", r)}))')
    hc_ws = book.sheet("handicap")
    b.header(hc_ws, ["row"], [8])
    for r in range(FIRST, FIRST + MAX_HANDICAP_SIDES):
        hc_ws.cell(r, 1, r - 1)
    hc = Columns(book, hc_ws, "hc_", FIRST, FIRST + MAX_HANDICAP_SIDES - 1, start=2)
    hc.add("side", "side", lambda r: '=IFERROR(MATCH(ROW()-1,s_hrank,0),"")')
    hc.add("who", "player", lambda r: f'=IF({hc("side", r)}="","",INDEX(side_who,{hc("side", r)}))')
    hc.add("opp", "opponent", lambda r: f'=IF({hc("side", r)}="","",INDEX(side_opp,{hc("side", r)}))')
    hc.add("h", "grades", lambda r: f'=IF({hc("side", r)}="","",INDEX(s_h,{hc("side", r)}))')
    hc.add("role", "giver +1, receiver -1", lambda r: (
        f'=IF({hc("side", r)}="","",IF(INDEX(side_giver,{hc("side", r)})=1,1,-1))'))
    book.define("hc_capacity_used", f'COUNT(s_hrank)>{MAX_HANDICAP_SIDES}')

    def handicap_sweep(s: int, tag: str) -> None:
        """SPEC 6.7 for every handicap side: the rating shifted and the effect, from sweep s - 1."""
        prev = f"w_v{s - 1}"
        hc.add(f"b{s}", f"{tag}: opponent", lambda r: (
            f'=IF({hc("side", r)}="","",MAX({FLOOR},INDEX({prev},{hc("opp", r)})))'))
        hc.add(f"own{s}", f"{tag}: own rating", lambda r: (
            f'=IF({hc("side", r)}="","",IF(INDEX(w_perf,{hc("who", r)})=1,INDEX({prev},{hc("who", r)}),'
            f'INDEX(w_rating,{hc("who", r)})))'))
        hc.add(f"q{s}", f"{tag}: rating shifted", lambda r: (
            f'=IF({hc("side", r)}="","",IF({hc("role", r)}=-1,{hc(f"b{s}", r)},{hc(f"own{s}", r)}))'))
        hc.add(f"gn{s}", f"{tag}: grade number", lambda r: f'=IF({hc("side", r)}="","",{grade_number(hc(f"q{s}", r))})')
        hc.add(f"rn{s}", f"{tag}: minus the handicap", lambda r: (
            f'=IF({hc("side", r)}="","",{rating_of_number(minus(hc(f"gn{s}", r), hc("h", r)))})'))
        hc.add(f"sh{s}", f"{tag}: shift", lambda r: f'=IF({hc("side", r)}="","",{rhe(hc(f"rn{s}", r))})')
        hc.add(f"adj{s}", f"{tag}: added to the opponent", lambda r: (
            f'=IF({hc("side", r)}="",0,IF({hc("role", r)}=-1,{hc(f"sh{s}", r)}-{hc(f"b{s}", r)},'
            f'{hc(f"own{s}", r)}-{hc(f"sh{s}", r)}))'))

    work.add("wa", "first walk row", lambda r: f'=IF({w("n", r)}=0,"",MATCH({I},wk_who,0))')
    work.add("wb", "last walk row", lambda r: f'=IF({w("n", r)}=0,"",{w("wa", r)}+{w("n", r)}-1)')

    def block(name: str, r: int) -> str:
        """The player's consecutive rows of a walk column."""
        return f"INDEX(wk_{name},{w('wa', r)}):INDEX(wk_{name},{w('wb', r)})"

    # ---------------------------------------------------------------- sweeps (SPEC 6.4 - 6.7)
    for s in range(1, SWEEPS + 2):
        prev = f"w_v{s - 1}"
        last = s == SWEEPS + 1
        tag = "final" if last else f"s{s}"
        handicap_sweep(s, tag)
        wk.add(f"o{s}", f"{tag}: opponent counts", lambda r, prev=prev, s=s: (
            f'=IF({wk("side", r)}="","",MAX({FLOOR},INDEX({prev},{wk("opp", r)}))+IF({wk("role", r)}=0,0,'
            f'INDEX(hc_adj{s},{wk("hq", r)})))'))
        wk.reserve(f"pr{s}", f"d{s}")
        wk.add(f"pr{s}", f"{tag}: running rating", lambda r, s=s: (
            f'=IF(OR({wk("side", r)}="",{wk("perf", r)}=1),"",IF({wk("first", r)}=1,INDEX(w_rating,{wk("who", r)}),'
            f'{wk(f"pr{s}", r - 1)}+{wk(f"d{s}", r - 1)}))'))
        pr = lambda r, s=s: wk(f"pr{s}", r)  # noqa: E731
        o = lambda r, s=s: wk(f"o{s}", r)  # noqa: E731
        k = lambda r, pr=pr: f"LOOKUP({pr(r)},k_lower,k_value)"  # noqa: E731
        normal = lambda r, pr=pr, o=o, k=k: f'{k(r)}*({wk("s", r)}-{expected(o(r), pr(r))})'  # noqa: E731
        upset = lambda r, pr=pr, o=o, k=k: f'IF(AND({wk("s", r)}=1,{o(r)}>{pr(r)}),{k(r)}*({o(r)}-{pr(r)})/{rules.UPSET_DIVISOR:g},-1E+300)'  # noqa: E731
        bonus = lambda r, pr=pr: (  # noqa: E731
            f'IF(AND({pr(r)}<{rules.BONUS_BELOW:g},{wk("counter", r)}<{rules.BONUS_GAMES}),({rules.BONUS_BELOW:g}-{pr(r)})/{rules.BONUS_DIVISOR:g},0)')
        if last:
            wk.add("k", "final: K", lambda r, k=k, pr=pr: f'=IF({pr(r)}="","",{k(r)})')
            wk.add("e", "final: expected", lambda r, pr=pr, o=o: f'=IF({pr(r)}="","",{expected(o(r), pr(r))})')
            wk.add("bonus", "final: activity bonus", lambda r, pr=pr, bonus=bonus: f'=IF({pr(r)}="","",{bonus(r)})')
            wk.add("upset", "final: upset gain used", lambda r, pr=pr, normal=normal, upset=upset: (
                f'=IF({pr(r)}="","",IF({upset(r)}>{normal(r)},1,0))'))
        wk.add(f"d{s}", f"{tag}: change", lambda r, pr=pr, normal=normal, upset=upset, bonus=bonus: (
            f'=IF({pr(r)}="","",MAX({normal(r)},{upset(r)})+{bonus(r)})'))
        # performance: Newton steps from the previous sweep's value (SPEC 6.5)
        hist_e = lambda r, x: f"SUMPRODUCT((hw_who={I})/(1+10^((hw_o-{x})/400)))"  # noqa: E731
        hist_d = lambda r, x: f"SUMPRODUCT((hw_who={I})*10^((hw_o-{x})/400)/(1+10^((hw_o-{x})/400))^2)"  # noqa: E731

        def walk_e(r: int, x: str, s: int = s) -> str:
            o_block = block(f"o{s}", r).replace("INDEX(wk_", "INDEX(wk_")
            return f'IF({w("n", r)}=0,0,SUMPRODUCT(1/(1+10^((({o_block}>{FLOOR})*{o_block}+({o_block}<={FLOOR})*{FLOOR}-{x})/400))))'

        def walk_d(r: int, x: str, s: int = s) -> str:
            o_block = block(f"o{s}", r)
            ob = f"(({o_block}>{FLOOR})*{o_block}+({o_block}<={FLOOR})*{FLOOR})"
            return f'IF({w("n", r)}=0,0,SUMPRODUCT(10^(({ob}-{x})/400)/(1+10^(({ob}-{x})/400))^2))'

        work.add(f"max{s}", f"{tag}: highest opponent", lambda r, s=s: (
            f'=IF(AND({w("perf", r)}=1,{w("allw", r)}=1),MAX(SUMPRODUCT(MAX((hw_who={I})*hw_o)),'
            f'IF({w("n", r)}=0,0,MAX({block(f"o{s}", r)}))),0)'))
        total = lambda r: f'({w("hs", r)}+{w("score", r)}+{w("nsr", r)}/2+{w("allw", r)}*0.5)'  # noqa: E731

        def g_expr(r: int, x: str, s: int = s) -> str:
            extra = (f'+{w("nsr", r)}*{expected(f"N({w(chr(109) + chr(112), r)})", x)}+{w("allw", r)}*{expected(w(f"max{s}", r), x)}')
            return f"({total(r)}-({hist_e(r, x)}+{walk_e(r, x)}{extra}))"

        def d_expr(r: int, x: str, s: int = s) -> str:
            e_mp = expected(f"N({w('mp', r)})", x)
            e_max = expected(w(f"max{s}", r), x)
            extra = f'+{w("nsr", r)}*{e_mp}*(1-{e_mp})+{w("allw", r)}*{e_max}*(1-{e_max})'
            return f"(({LN})*({hist_d(r, x)}+{walk_d(r, x)}{extra}))"

        start = (lambda r: f'IF({w("n", r)}+{w("hn", r)}=0,{w("mp", r)},(SUMIFS(hw_o,hw_who,{I})+IF({w("n", r)}=0,0,'
                           f'SUMPRODUCT(({block("o1", r)}>{FLOOR})*{block("o1", r)}+({block("o1", r)}<={FLOOR})*{FLOOR}))'
                           f'+{w("nsr", r)}*N({w("mp", r)}))/({w("hn", r)}+{w("n", r)}+{w("nsr", r)}))') if s == 1 else (
            lambda r, s=s: w(f"x{s - 1}", r))
        for j in range(1, NEWTON + 1):
            xin = (lambda r, start=start: start(r)) if j == 1 else (lambda r, s=s, j=j: w(f"n{s}_{j - 1}", r))
            work.add(f"n{s}_{j}", f"{tag}: Newton {j}", lambda r, xin=xin: (
                f'=IF(OR({w("perf", r)}=0,{w("alll", r)}=1,{w("n", r)}+{w("nsr", r)}=0),"",{xin(r)}+MAX(-800,MIN(800,'
                f'{g_expr(r, xin(r))}/{d_expr(r, xin(r))})))'))
        work.add(f"x{s}", f"{tag}: zero of g", lambda r, s=s: f"={w(f'n{s}_{NEWTON}', r)}")
        work.add(f"v{s}", f"{tag}: result", lambda r, s=s: (
            f'=IF({P("id", r)}="",0,IF({w("n", r)}=0,{w("v0", r)},IF({w("perf", r)}=1,IF({w("alll", r)}=1,1,'
            f'MAX(1,{rhe(w(f"x{s}", r))})),MAX(1,{w("rating", r)}+{rhe(f"SUMIFS(wk_d{s},wk_who,{I})")}))))'))
    final = SWEEPS + 1
    work.add("settled", "settled", lambda r: f'=IF({w(f"v{final}", r)}={w(f"v{SWEEPS}", r)},1,0)')
    book.define("settled_all", f'IF(SUM(w_settled)={MAX_PLAYERS},"yes","no")')
    # the instructions sheet shows it
    ins = book.wb["instructions"]
    row = ins.max_row + 1
    ins.cell(row, 1, "Settled / Convergé")
    ins.cell(row, 2, "=settled_all").fill = b.FORMULA_FILL

    # ---------------------------------------------------------------- outcome per player
    V = f"v{final}"
    work.add("change", "change", lambda r: (
        f'=IF(OR({w("n", r)}=0,{w("perf", r)}=1),"",{rhe(f"SUMIFS(wk_d{final},wk_who,{I})")})'))
    work.add("after", "rating after", lambda r: (
        f'=IF({P("id", r)}="","",IF({w("n", r)}=0,IF({w("nsr", r)}=2,{w("mp", r)},{w("rating", r)}),{w(V, r)}))'))
    work.add("gafter", "games after", lambda r: f'={w("games", r)}+{w("n", r)}+{w("nsr", r)}')
    work.add("mode", "mode", lambda r: (
        f'=IF({P("id", r)}="","",IF({w("n", r)}=0,IF({w("nsr", r)}=2,"performance",IF({w("hn", r)}>0,"performance",'
        f'IF({w("rated", r)}=1,"normal","unrated"))),IF({w("perf", r)}=1,"performance","normal")))'))

    # ---------------------------------------------------------------- promotions (SPEC 6.10)
    gi = lambda x: f'IF({x}="",-1,MATCH(LOWER({x}),g_name,0)-1)'  # noqa: E731 grade index, -1 = none
    work.add("g0", "grade index before", lambda r: f'={gi(P("grade", r))}')
    work.add("h_after", "history after", lambda r: (
        f'=IF({w("mode", r)}="performance",{w("hn", r)}+{w("nsr", r)}+{w("n", r)},0)'))
    nth = lambda name, idx: f"INDEX({name},{idx}+1)"  # noqa: E731 table value of grade index idx
    idx0 = lambda x: f"(MATCH({x},g_lb,1)-1)"  # noqa: E731

    # normal mode: the tournament's games, change spread equally (walk rows)
    wk.add("t", "games so far", lambda r: f'=IF({wk("side", r)}="","",INDEX(w_games,{wk("who", r)})+{wk("pos", r)})')
    wk.add("x", "rating after this game", lambda r: (
        f'=IF(OR({wk("side", r)}="",{wk("perf", r)}=1),"",INDEX(w_rating,{wk("who", r)})+{wk("pos", r)}'
        f'*INDEX(w_change,{wk("who", r)})/INDEX(w_n,{wk("who", r)}))'))
    initial = {
        "g": "INDEX(w_g0,{w})",
        "lb": "N(INDEX(player_lb_run,{w}))",
        "mp": "N(INDEX(player_mp_run,{w}))",
        "re": 'IF(INDEX(player_mp_reached,{w})="yes",1,0)',
    }

    def prev(name: str, r: int) -> str:
        """The state before this game: the player's record, or the row above."""
        above = wk("p" + name, r - 1)
        return f'IF({wk("first", r)}=1,{initial[name].format(w=wk("who", r))},{above})'

    wk.reserve("pg", "plb", "pmp", "pre")
    for name in ("g", "lb", "mp", "re"):
        wk.add("s" + name, f"before this game: {name}", lambda r, name=name: f'=IF({wk("x", r)}="","",{prev(name, r)})')
    X, T = (lambda r: wk("x", r)), (lambda r: wk("t", r))  # noqa: E731
    wk.add("ix", "grade of this rating", lambda r: f'=IF({X(r)}="","",{idx0(X(r))})')
    wk.add("gm", "after the UB rules", lambda r: (
        f'=IF({X(r)}="","",IF({T(r)}<{promo.FIRST_GRADE_GAMES},{wk("sg", r)},IF({T(r)}<{promo.RUN_GAMES},'
        f'MAX({wk("sg", r)},MIN({wk("ix", r)}-2,25)),MAX({wk("sg", r)},MIN({wk("ix", r)}-1,26)))))'))
    wk.add("up", "promoted by UB", lambda r: f'=IF({X(r)}="","",IF({wk("gm", r)}>{wk("sg", r)},1,0))')
    wk.add("ru", "runs count", lambda r: f'=IF({X(r)}="","",IF(AND({T(r)}>={promo.RUN_GAMES},{wk("gm", r)}<27),1,0))')
    wk.add("lb0", "LB of the next grade", lambda r: f'=IF(N({wk("ru", r)})=0,"",INDEX(g_lb,{wk("gm", r)}+2))')
    wk.add("mp0", "MP of the next grade", lambda r: f'=IF(N({wk("ru", r)})=0,"",INDEX(g_mp,{wk("gm", r)}+2))')
    keep = lambda r, name: f'IF({wk("up", r)}=1,0,{wk("s" + name, r)})'  # noqa: E731
    wk.add("lb1", "LB run", lambda r: (
        f'=IF({X(r)}="","",IF({wk("ru", r)}=1,IF({X(r)}>={wk("lb0", r)},{keep(r, "lb")}+1,0),{keep(r, "lb")}))'))
    wk.add("mp1", "MP run", lambda r: (
        f'=IF({X(r)}="","",IF({wk("ru", r)}=1,IF({X(r)}>={wk("mp0", r)},{keep(r, "mp")}+1,0),{keep(r, "mp")}))'))
    wk.add("re1", "MP reached", lambda r: (
        f'=IF({X(r)}="","",IF({wk("ru", r)}=1,IF({X(r)}>={wk("mp0", r)},1,IF({X(r)}>={wk("lb0", r)},{keep(r, "re")},0)),'
        f'{keep(r, "re")}))'))
    wk.add("pm", "promoted by a run", lambda r: (
        f'=IF(N({wk("ru", r)})=0,0,IF(OR(AND(INDEX(g_nmp,{wk("gm", r)}+2)<>"",{wk("mp1", r)}>=N(INDEX(g_nmp,{wk("gm", r)}+2))),'
        f'AND(INDEX(g_nlb,{wk("gm", r)}+2)<>"",{wk("re1", r)}=1,{wk("lb1", r)}>=N(INDEX(g_nlb,{wk("gm", r)}+2)))),1,0))'))
    wk.add("pg", "after this game: g", lambda r: f'=IF({X(r)}="","",IF({wk("pm", r)}=1,{wk("gm", r)}+1,{wk("gm", r)}))')
    for name in ("lb", "mp", "re"):
        wk.add("p" + name, f"after this game: {name}", lambda r, name=name: (
            f'=IF({X(r)}="","",IF({wk("pm", r)}=1,0,{wk(name + "1", r)}))'))
    # performance mode: all games at the new rating, from empty runs (closed form of the walk)
    x_after = lambda r: w("after", r)  # noqa: E731
    H = lambda r: w("h_after", r)  # noqa: E731
    work.add("q9", "performance: grade after 9-17", lambda r: (
        f'=IF({H(r)}<{promo.FIRST_GRADE_GAMES},{w("g0", r)},MAX({w("g0", r)},MIN({idx0(x_after(r))}-2,25)))'))
    work.add("q18", "performance: grade after the UB rule", lambda r: (
        f'=IF({H(r)}<{promo.RUN_GAMES},{w("q9", r)},MAX({w("q9", r)},MIN({idx0(x_after(r))}-1,26)))'))
    c = lambda r: f'MAX(0,{H(r)}-{promo.RUN_GAMES - 1})'  # noqa: E731 games walked from game 18 on
    nq = lambda r: f'({w("q18", r)}+1)'  # noqa: E731
    work.add("qmp", "performance: MP run promotes", lambda r: (
        f'=IF(OR({H(r)}<{promo.RUN_GAMES},{w("q18", r)}>=27),0,IF(AND({x_after(r)}>={nth("g_mp", nq(r))},'
        f'{nth("g_nmp", nq(r))}<>"",{c(r)}>=N({nth("g_nmp", nq(r))})),1,0))'))
    # bound to get it (normal mode): 20 games each losing K
    for j in range(1, SIM + 1):
        src = (lambda r: w("after", r)) if j == 1 else (lambda r, j=j: w(f"sim{j - 1}", r))
        work.add(f"sim{j}", f"simulated game {j}", lambda r, src=src: (
            f'=IF(OR({P("id", r)}="",{w("after", r)}=""),"",{src(r)}-LOOKUP({src(r)},k_lower,k_value))'))
    last_row = lambda r: f'INDEX(wk_{{}},{w("wb", r)})'  # noqa: E731
    fin = lambda name, r: (  # noqa: E731 state after the tournament walk (normal mode)
        f'IF(OR({w("n", r)}=0,{w("perf", r)}=1),' + {
            "g": f'{w("g0", r)}', "lb": f'N({P("lb_run", r)})', "mp": f'N({P("mp_run", r)})',
            "re": f'IF({P("mp_reached", r)}="yes",1,0)'}[name] + f',{last_row(r).format("p" + name)})')
    work.add("fg", "grade index after the walk", lambda r: f'={fin("g", r)}')
    work.add("flb", "LB run after the walk", lambda r: f'={fin("lb", r)}')
    work.add("fmp", "MP run after the walk", lambda r: f'={fin("mp", r)}')
    work.add("fre", "MP reached after the walk", lambda r: f'={fin("re", r)}')
    sims = lambda r: f'{w("sim1", r)}:{w(f"sim{SIM}", r)}'  # noqa: E731
    nf = lambda r: f'({w("fg", r)}+1)'  # noqa: E731

    def lead(r: int, limit: str) -> str:
        """How many simulated games stay at or above ``limit`` (they only go down: the first ones)."""
        return f'COUNTIF({sims(r)},">="&{limit})'

    work.add("a_mp", "simulated games above MP", lambda r: f'=IF({w("fg", r)}>=27,0,{lead(r, nth("g_mp", nf(r)))})')
    work.add("a_lb", "simulated games above LB", lambda r: f'=IF({w("fg", r)}>=27,0,{lead(r, nth("g_lb", nf(r)))})')
    work.add("bound", "bound to get it", lambda r: (
        f'=IF(OR({P("id", r)}="",{w("n", r)}=0,{w("perf", r)}=1,{w("games", r)}+{w("n", r)}<{promo.RUN_GAMES},{w("fg", r)}>=27),0,'
        f'IF(OR(AND({nth("g_nmp", nf(r))}<>"",{w("a_mp", r)}>0,{w("fmp", r)}+{w("a_mp", r)}>=N({nth("g_nmp", nf(r))})),'
        f'AND({nth("g_nlb", nf(r))}<>"",{w("a_lb", r)}>0,OR({w("fre", r)}=1,{w("a_mp", r)}>0),'
        f'{w("flb", r)}+{w("a_lb", r)}>=N({nth("g_nlb", nf(r))}))),1,0))'))
    perf_state = lambda r, name: {  # noqa: E731 performance mode, closed form of the constant walk
        "g": f'IF({w("qmp", r)}=1,{nq(r)},{w("q18", r)})',
        "lb": f'IF(OR({w("qmp", r)}=1,{H(r)}<{promo.RUN_GAMES},{w("q18", r)}>=27),0,IF({x_after(r)}>={nth("g_lb", nq(r))},{c(r)},0))',
        "mp": f'IF(OR({w("qmp", r)}=1,{H(r)}<{promo.RUN_GAMES},{w("q18", r)}>=27),0,IF({x_after(r)}>={nth("g_mp", nq(r))},{c(r)},0))',
        "re": f'IF(OR({w("qmp", r)}=1,{H(r)}<{promo.RUN_GAMES},{w("q18", r)}>=27),0,IF({x_after(r)}>={nth("g_mp", nq(r))},1,0))',
    }[name]
    for name in ("g", "lb", "mp", "re"):
        work.add("z" + name, f"after the tournament: {name}", lambda r, name=name: (
            f'=IF({P("id", r)}="","",IF({w("mode", r)}="performance",IF({w("after", r)}="",'
            f'{ {"g": w("g0", r), "lb": "0", "mp": "0", "re": "0"}[name]},{perf_state(r, name)}),'
            f'IF({w("bound", r)}=1,{ {"g": nf(r), "lb": "0", "mp": "0", "re": "0"}[name]},{w("f" + name, r)})))'))

    # ---------------------------------------------------------------- results
    W = work.ext

    def have(r: int, body: str) -> str:
        return f'=IF({W("id", r)}="","",{body})'

    mode = lambda r: W("mode", r)  # noqa: E731
    wb_ = lambda r, col: f"SUMIFS(wk_{col},wk_who,{I})"  # noqa: E731
    results.add("id", "id", lambda r: f'={W("id", r)}')
    results.add("name", "name", lambda r: have(r, f'{P("name", r)}&""'))
    results.add("status", "status", lambda r: have(r, (
        f'IF({mode(r)}="performance","performance",IF({mode(r)}="unrated","unrated",'
        f'IF({W("gafter", r)}<18,"provisional","established")))')))
    results.add("rating_before", "rating_before", lambda r: have(r, W("rating", r)))
    results.add("games_rated", "games_rated", lambda r: have(r, W("n", r)))
    results.add("score", "score", lambda r: have(r, W("score", r)))
    normal_only = lambda r, body: have(r, f'IF(AND({W("n", r)}>0,{mode(r)}="normal"),{body},"")')  # noqa: E731
    results.add("expected", "expected", lambda r: normal_only(r, wb_(r, "e")))
    results.add("k", "k", lambda r: normal_only(r, f'INDEX(wk_k,{W("wa", r)})'))
    results.add("performance", "performance", lambda r: have(
        r, f'IF(AND({mode(r)}="performance",OR({W("n", r)}>0,{W("nsr", r)}=2)),{W("after", r)},"")'))
    results.add("change", "change", lambda r: have(r, (
        f'IF({mode(r)}="normal",IF({W("n", r)}>0,{W("change", r)},""),IF(AND({mode(r)}="performance",{W("n", r)}>0,'
        f'{W("rated", r)}=1),{W("after", r)}-{W("rating", r)},""))')))
    results.add("bonus", "bonus", lambda r: normal_only(r, wb_(r, "bonus")))
    results.add("rating_after", "rating_after", lambda r: have(r, W("after", r)), fill=b.RESULT_FILL)
    results.add("games_after", "games_after", lambda r: have(r, f'IF({W("n", r)}=0,IF({W("nsr", r)}=2,2,{W("games", r)}),{W("gafter", r)})'))
    results.add("mode", "mode", lambda r: have(r, mode(r)))
    results.add("upsets", "upsets", lambda r: normal_only(r, wb_(r, "upset")))
    results.add("bonus_count", "bonus_count", lambda r: have(r, (
        f'IF({mode(r)}="normal",MIN({rules.BONUS_GAMES},{W("bc", r)}+{W("n", r)}),0)')))
    results.add("nsr_grade", "nsr_grade", lambda r: have(r, f'IF({P("nsr_grade", r)}="","",{P("nsr_grade", r)}&"")'))
    results.add("grade_before", "grade_before", lambda r: have(r, f'IF({P("grade", r)}="","",LOWER({P("grade", r)}))'))
    results.add("grade_after", "grade_after", lambda r: have(r, f'IF({W("zg", r)}<0,"",INDEX(g_name,{W("zg", r)}+1))'),
                fill=b.RESULT_FILL)
    results.add("lb_run", "lb_run", lambda r: have(r, W("zlb", r)))
    results.add("mp_run", "mp_run", lambda r: have(r, W("zmp", r)))
    results.add("mp_reached", "mp_reached", lambda r: have(r, f'IF({W("zre", r)}=1,"yes","no")'))
    results.add("note", "note", lambda r: have(r, (
        f'IF(AND({W("zg", r)}>{W("g0", r)},{W("zg", r)}>=0),"promoted to "&INDEX(g_name,{W("zg", r)}+1)'
        f'&IF({W("bound", r)}=1,": bound to get it",""),"")')))

    # ---------------------------------------------------------------- history for the next tournament
    ha = book.sheet("history_after")
    b.header(ha, ["id", "opponent_rating", "result"], [14, 16, 10])
    keep = lambda who: f'INDEX(w_mode,{who})="performance"'  # noqa: E731
    h_first, h_last = FIRST, FIRST + b.MAX_HISTORY - 1
    n_first, n_last = h_last + 1, h_last + 2 * MAX_PLAYERS
    g_first, g_last = n_last + 1, n_last + 2 * MAX_GAMES
    k_h = f"(ROW()-{h_first - 1})"
    k_n = f"(INT((ROW()-{n_first})/2)+1)"
    k_g = f"(ROW()-{g_first - 1})"
    blocks = [
        (h_first, h_last, f'IF(INDEX(hw_who,{k_h})>0,{keep(f"INDEX(hw_who,{k_h})")},FALSE)',
         (lambda r: f"history!$A{r}", lambda r: f"history!$B{r}", lambda r: f"INDEX(hw_s,{k_h})")),
        (n_first, n_last, f'IF(INDEX(w_nsr,{k_n})=2,{keep(k_n)},FALSE)',
         (lambda r: f"INDEX(player_id,{k_n})", lambda r: f"INDEX(w_mp,{k_n})",
          lambda r: f"1-MOD(ROW()-{n_first},2)")),
        (g_first, g_last, f'IF(INDEX(wk_side,{k_g})<>"",INDEX(wk_perf,{k_g})=1,FALSE)',
         (lambda r: f"INDEX(player_id,INDEX(wk_who,{k_g}))", lambda r: f"INDEX(wk_o{final},{k_g})",
          lambda r: f"INDEX(wk_s,{k_g})")),
    ]
    for lo, hi, cond, cells in blocks:
        for j, cell in enumerate(cells, start=1):
            b.write_column(book, ha, j, lo, hi, lambda r, cond=cond, cell=cell: f'=IF({cond},{cell(r)},"")')
    return finish(book, ("results", "work", "sides", "walk", "history_work", "history_after", "handicap"))


def promo_base() -> int:
    from xl_elo.federations.fesa_grades import PRO_BASE

    return PRO_BASE


def promo_step() -> int:
    from xl_elo.federations.fesa_grades import PRO_STEP

    return PRO_STEP


__all__ = ["fesa"]
