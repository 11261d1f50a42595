"""The FFE template: compatibility, D(P), rules 1.a - 3.b, and the iterative method for unrated
players as explicit rounds (SPEC 5).

The iteration of SPEC 5.10 is written out round by round (Jacobi steps, as the engine does):
``iteration`` holds, for every player and round, the estimate, Nj, Sc, the sum of the
opponents, P, D(P), Pj and whether the estimate moved; ``iteration_sides`` each game side's
opponent value and compatibility at that round. No circular reference, nothing to switch on.
"""

from __future__ import annotations

from openpyxl.utils import quote_sheetname

from xl_elo.federations import ffe as rules
from xl_elo.templates import book as b
from xl_elo.templates.book import FIRST, LAST_PLAYER, LAST_SIDE, col
from xl_elo.templates.build import Columns, _skeleton, finish, rating_columns
from xl_elo.templates.period_templates import _lists

I = "(ROW()-1)"


def dp_expr(p: str) -> str:
    """D(P) of a cell holding P, by the method chosen in the settings (SPEC 5.4)."""
    bound = f"{rules.DP_BOUND:g}"
    normal = (f"IF({p}>=1,{bound},IF({p}<=0,-{bound},MAX(-{bound},MIN({bound},"
              f"2000/7*_xlfn.NORM.S.INV({p})))))")
    x = f"MAX(1,MIN(99,{p}*100))"
    lo = f"MIN(98,INT({x}))"
    table = (f"MAX(-{bound},MIN({bound},INDEX(dp_value,{lo})+(INDEX(dp_value,{lo}+1)-INDEX(dp_value,{lo}))"
             f"*({x}-{lo})))")
    return f'IF(dp_method="table",{table},{normal})'


def compat_expr(score: str, opp: str, center: str) -> str:
    """1 when the game is compatible with the window around ``center`` (SPEC 5.2)."""
    return (f"IF({score}=0.5,1,IF({score}=1,IF({opp}>{center}-{rules.WINDOW},1,0),"
            f"IF({opp}<{center}+{rules.WINDOW},1,0)))")


def ffe() -> b.Book:
    """FFE period (SPEC 5)."""
    book, inputs, sides, work, results = _skeleton(
        "ffe", "FFE national Elo period",
        ("id", "name", "rating", "games", "category", "archive_perf", "archive_games"),
        ("round", "player", "opponent", "result"),
        ["FFE (SPEC 5): a game counts only if compatible (draws always; a win against an opponent above your Elo "
         "- 350, a loss against one below your Elo + 350); Ea, P = Sc / Nj, D(P) (normal quantile, or the "
         "published table if chosen below), Pj = Ea + D(P) raised to 1000; rules 1.a - 1.c (rated), 2.a - 2.c "
         "(archive), 3.a - 3.b (new); Elo rounded to the nearest ten. Unrated players are estimated by the "
         "iterative method, written out round by round on the 'iteration' sheets (25 rounds at most).",
         "No setting to switch on: no macro, no iterative calculation. 'D(P) method' is normal or table."],
        ["FFE (SPEC 5) : une partie ne compte que si elle est compatible (les nulles toujours ; un gain contre un "
         "adversaire au-dessus de votre Elo - 350, une perte contre un adversaire au-dessous de votre Elo + 350) ; "
         "Ea, P = Sc / Nj, D(P) (loi normale, ou la table publiée si choisie ci-dessous), Pj = Ea + D(P) porté à "
         "1000 ; règles 1.a - 1.c, 2.a - 2.c, 3.a - 3.b ; Elo arrondi à la dizaine. Les non-classés sont estimés "
         "par la méthode itérative, tour par tour dans les feuilles 'iteration' (25 tours au plus).",
         "Aucun réglage à activer : ni macro, ni calcul itératif. 'D(P) method' vaut normal ou table."],
        [("period", "Period / Période", ""), ("event_name", "Event / Événement", ""),
         ("dp_method", "D(P) method (normal or table)", "normal"),
         ("start", "Start of the iteration / Départ de l'itération", rules.START)])
    _lists(book)
    P = inputs.p

    def w(name: str, r: int) -> str:
        return work(name, r)

    rating_columns(inputs, work, "has an Elo", "Ei")
    work.add("junior", "junior", lambda r: f'=IF({P("category", r)}="junior",1,0)')
    work.add("na", "Na", lambda r: f'=IF(AND({w("rated", r)}=0,ISNUMBER({P("archive_games", r)}),ISNUMBER({P("archive_perf", r)})),'
                                   f'IF({P("archive_games", r)}>0,{P("archive_games", r)},0),0)')
    work.add("pa", "Pa", lambda r: f'=IF({w("na", r)}>0,{P("archive_perf", r)},"")')
    work.add("n", "games rated", lambda r: f"=COUNTIFS(side_who,{I},side_rated,1)")
    work.add("todo", "unrated with games", lambda r: f'=IF(AND({P("id", r)}<>"",{w("rated", r)}=0,{w("n", r)}>0),1,0)')
    work.add("score", "score", lambda r: f"=SUMIFS(side_score,side_who,{I},side_rated,1)")

    # ---------------------------------------------------------------- the iteration (SPEC 5.10)
    it = book.sheet("iteration")
    its = book.sheet("iteration_sides")
    b.header(it, ["id"], [14])
    b.header(its, ["side"], [8])
    for r in range(FIRST, LAST_PLAYER + 1):
        it.cell(r, 1, f"={work.ext('id', r)}").fill = b.FORMULA_FILL
    for r in range(FIRST, LAST_SIDE + 1):
        its.cell(r, 1, r - 1).fill = b.FORMULA_FILL
    pc = Columns(book, it, "it_", FIRST, LAST_PLAYER, start=2)
    sc = Columns(book, its, "its_", FIRST, LAST_SIDE, start=2)
    sd = quote_sheetname("sides")

    pc.add("est0", "estimate, start", lambda r: f'=IF({work.ext("todo", r)}=1,start,"")')
    for t in range(0, rules.MAX_ROUNDS + 1):
        est = f"est{t}"
        # the opponent's value and the compatibility of each side whose player is unrated
        sc.add(f"o{t}", f"r{t} opponent", lambda r, est=est: (
            f'=IF({sd}!$G{r}<>1,"",IF(INDEX(w_todo,{sd}!$C{r})<>1,"",IF(INDEX(w_rated,{sd}!$D{r})=1,'
            f'INDEX(player_rating,{sd}!$D{r}),INDEX(it_{est},{sd}!$D{r}))))'))
        if t == 0:
            sc.add("c0", "r0 compatible (no window)", lambda r: f'=IF({sc("o0", r)}="","",1)')
        else:
            sc.add(f"c{t}", f"r{t} compatible", lambda r, t=t, est=est: (
                f'=IF({sc(f"o{t}", r)}="","",{compat_expr(f"{sd}!$F{r}", sc(f"o{t}", r), f"INDEX(it_{est},{sd}!$C{r})")})'))
        todo = lambda r: f'{work.ext("todo", r)}<>1'  # noqa: E731
        pc.add(f"nj{t}", f"r{t} Nj", lambda r, t=t: f'=IF({todo(r)},"",COUNTIFS(side_who,{I},its_c{t},1))')
        pc.add(f"sc{t}", f"r{t} Sc", lambda r, t=t: f'=IF({todo(r)},"",SUMIFS(side_score,side_who,{I},its_c{t},1))')
        pc.add(f"so{t}", f"r{t} sum of opponents", lambda r, t=t: f'=IF({todo(r)},"",SUMIFS(its_o{t},side_who,{I},its_c{t},1))')
        pc.add(f"p{t}", f"r{t} P", lambda r, t=t: f'=IF(N({pc(f"nj{t}", r)})=0,"",{pc(f"sc{t}", r)}/{pc(f"nj{t}", r)})')
        pc.add(f"d{t}", f"r{t} D(P)", lambda r, t=t: f'=IF({pc(f"p{t}", r)}="","",{dp_expr(pc(f"p{t}", r))})')
        pc.add(f"pj{t}", f"r{t} Pj", lambda r, t=t: (
            f'=IF({pc(f"p{t}", r)}="","",MAX({rules.PJ_FLOOR:g},{pc(f"so{t}", r)}/{pc(f"nj{t}", r)}+{pc(f"d{t}", r)}))'))
        if t == 0:
            pc.add("est1", "estimate 1", lambda r: f'={pc("pj0", r)}')
            pc.add("last0", "last move", lambda r: "=0")
        else:
            pc.add(f"mv{t}", f"r{t} moved", lambda r, t=t, est=est: (
                f'=IF(OR({todo(r)},{pc(f"pj{t}", r)}=""),0,IF(ABS({pc(f"pj{t}", r)}-{pc(est, r)})>={rules.SETTLE:g},1,0))'))
            pc.add(f"est{t + 1}", f"estimate {t + 1}", lambda r, t=t, est=est: (
                f'=IF({pc(f"mv{t}", r)}=1,({pc(est, r)}+{pc(f"pj{t}", r)})/2,{pc(est, r)})'))
            pc.add(f"last{t}", f"r{t} last move", lambda r, t=t: f'=IF({pc(f"mv{t}", r)}=1,{t},{pc(f"last{t - 1}", r)})')
    final = f"est{rules.MAX_ROUNDS + 1}"
    last = f"last{rules.MAX_ROUNDS}"
    work.add("est", "final estimate", lambda r: f'=IF({w("todo", r)}=1,{pc.ext(final, r)},"")')
    work.add("rounds", "rounds", lambda r: f'=IF({w("todo", r)}=1,MIN({pc.ext(last, r)}+1,{rules.MAX_ROUNDS}),"")')
    work.add("settled", "settled", lambda r: f'=IF({w("todo", r)}=1,1-{pc.ext(f"mv{rules.MAX_ROUNDS}", r)},1)')
    work.add("seen", "counts as", lambda r: f'=IF({w("rated", r)}=1,{w("rating", r)},{w("est", r)})')

    # ---------------------------------------------------------------- the period (SPEC 5.2 - 5.9)
    sides.add("oval", "opponent counts as", lambda r: f'=IF($G{r}<>1,"",INDEX(w_seen,$D{r}))')
    sides.add("center", "window centre", lambda r: f'=IF($G{r}<>1,"",INDEX(w_seen,$C{r}))')
    sides.add("compat", "compatible", lambda r: (
        f'=IF(OR({sides("oval", r)}="",{sides("center", r)}=""),"",'
        f'{compat_expr(f"$F{r}", sides("oval", r), sides("center", r))})'))
    work.add("nj", "Nj", lambda r: f"=COUNTIFS(side_who,{I},s_compat,1)")
    work.add("sc", "Sc", lambda r: f"=SUMIFS(side_score,side_who,{I},s_compat,1)")
    work.add("ea", "Ea", lambda r: f'=IF({w("nj", r)}=0,"",SUMIFS(s_oval,side_who,{I},s_compat,1)/{w("nj", r)})')
    work.add("p", "P", lambda r: f'=IF({w("nj", r)}=0,"",{w("sc", r)}/{w("nj", r)})')
    work.add("dp", "D(P)", lambda r: f'=IF({w("p", r)}="","",{dp_expr(w("p", r))})')
    work.add("perf", "Ea + D(P), at least 1000", lambda r: f'=IF({w("p", r)}="","",MAX({rules.PJ_FLOOR:g},{w("ea", r)}+{w("dp", r)}))')
    work.add("pj", "Pj", lambda r: f'=IF({w("nj", r)}=0,"",IF({w("rated", r)}=1,{w("perf", r)},{w("est", r)}))')
    ei, nj, pj, na, pa = (lambda r, k=k: w(k, r) for k in ("rating", "nj", "pj", "na", "pa"))
    work.add("rule", "rule", lambda r: (
        f'=IF({P("id", r)}="","",IF({w("rated", r)}=1,'
        f'IF({nj(r)}=0,"none",IF({pj(r)}={ei(r)},"Pj=Ei",IF({pj(r)}<{ei(r)},"1.a",'
        f'IF({nj(r)}>=IF({w("junior", r)}=1,{rules.QUOTA_JUNIOR},{rules.QUOTA_SENIOR}),"1.b","1.c")))),'
        f'IF({na(r)}>0,IF({nj(r)}=0,"none",IF({nj(r)}>={rules.QUOTA_FIRST},"2.a",IF({nj(r)}+{na(r)}<{rules.QUOTA_FIRST},"2.b","2.c"))),'
        f'IF({nj(r)}=0,"none",IF({nj(r)}<{rules.QUOTA_FIRST},"3.a","3.b")))))'))
    rule = lambda r: w("rule", r)  # noqa: E731
    mean = lambda r: f"({pj(r)}*{nj(r)}+{pa(r)}*{na(r)})/({nj(r)}+{na(r)})"  # noqa: E731
    work.add("ej", "Ej", lambda r: (
        f'=IF({rule(r)}="","",IF(OR({rule(r)}="none",{rule(r)}="Pj=Ei"),IF({w("rated", r)}=1,{ei(r)},""),'
        f'IF({rule(r)}="1.a",({rules.WEIGHT}*{ei(r)}+{nj(r)}*{pj(r)})/({rules.WEIGHT}+{nj(r)}),'
        f'IF({rule(r)}="1.c",({pj(r)}*{nj(r)}+({rules.WEIGHT}-{nj(r)})*{ei(r)})/{rules.WEIGHT},'
        f'IF(OR({rule(r)}="1.b",{rule(r)}="2.a",{rule(r)}="3.b"),{pj(r)},IF({rule(r)}="2.c",{mean(r)},""))))))'))
    work.add("elo", "new Elo", lambda r: f'=IF({w("ej", r)}="","",INT({w("ej", r)}/10+0.5)*10)')
    work.add("apf", "new archive Pa", lambda r: (
        f'=IF({rule(r)}="2.b",{mean(r)},IF({rule(r)}="3.a",{pj(r)},IF(AND({rule(r)}="none",{na(r)}>0),{pa(r)},"")))'))
    work.add("agm", "new archive Na", lambda r: (
        f'=IF({rule(r)}="2.b",{nj(r)}+{na(r)},IF({rule(r)}="3.a",{nj(r)},IF(AND({rule(r)}="none",{na(r)}>0),{na(r)},"")))'))

    W = work.ext

    def have(r: int, body: str) -> str:
        return f'=IF({W("id", r)}="","",{body})'

    blank_if_none = lambda r, name: f'IF({W("nj", r)}=0,"",{W(name, r)})'  # noqa: E731
    results.add("id", "id", lambda r: f'={W("id", r)}')
    results.add("name", "name", lambda r: have(r, f'{P("name", r)}&""'))
    results.add("status", "status", lambda r: have(r, f'IF({W("rated", r)}=1,"established","unrated")'))
    results.add("rating_before", "rating_before", lambda r: have(r, W("rating", r)))
    results.add("games_rated", "games_rated", lambda r: have(r, W("n", r)))
    results.add("score", "score", lambda r: have(r, W("score", r)))
    results.add("expected", "expected", lambda r: '=""')
    results.add("k", "k", lambda r: '=""')
    results.add("performance", "performance", lambda r: have(r, W("perf", r)))
    results.add("change", "change", lambda r: have(
        r, f'IF(AND({W("rated", r)}=1,{W("elo", r)}<>""),{W("elo", r)}-INT({W("rating", r)}/10+0.5)*10,"")'))
    results.add("bonus", "bonus", lambda r: '=""')
    results.add("rating_after", "rating_after", lambda r: have(r, W("elo", r)), fill=b.RESULT_FILL)
    results.add("games_after", "games_after", lambda r: have(r, f'{W("games", r)}+{W("n", r)}'))
    results.add("rule", "rule", lambda r: have(r, W("rule", r)))
    results.add("nj", "nj", lambda r: have(r, W("nj", r)))
    results.add("sc", "sc", lambda r: have(r, W("sc", r)))
    for name in ("ea", "p", "dp", "pj"):
        results.add(name, name, lambda r, name=name: have(r, blank_if_none(r, name)))
    results.add("ej", "ej", lambda r: have(r, W("ej", r)))
    results.add("archive_perf", "archive_perf", lambda r: have(r, W("apf", r)))
    results.add("archive_games", "archive_games", lambda r: have(r, W("agm", r)))
    results.add("rounds", "rounds", lambda r: have(r, W("rounds", r)))
    results.add("note", "note", lambda r: have(r, (
        f'IF({W("settled", r)}=0,"estimate still moving after {rules.MAX_ROUNDS} rounds",'
        f'IF(OR({W("rule", r)}="2.b",{W("rule", r)}="3.a"),"archived for the next period",""))')))
    b.validation_list(book.wb["instructions"], '"normal,table"', _cell_of(book, "dp_method"), "D(P)", "normal or table")
    return finish(book, ("results", "work", "sides", "iteration", "iteration_sides"))


def _cell_of(book: b.Book, name: str) -> str:
    for _, coord in book.wb.defined_names[name].destinations:
        return coord.replace("$", "")
    raise KeyError(name)


__all__ = ["compat_expr", "col", "dp_expr", "ffe"]
