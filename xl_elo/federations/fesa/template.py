"""The FESA template: a tournament solved by explicit sweeps, with performance ratings by Newton
steps, handicaps and promotions (rules 6), every column headed by its rule.

How the formulas are laid out:
- ``walk``: every rated game side, sorted by player and round (a rank computed once), so a
  player's games are consecutive rows and his running rating ``pr`` is the row above plus its
  change (rules 6.4);
- ``sweeps``: one row per player and sweep, sweep after sweep (rules 6.6): a row reads each
  opponent's latest value from the rows above it (Gauss-Seidel in list order, as FESA's program),
  shifts the handicap games on the grade scale in single floats as FESA's program does (rules 6.7,
  6.11), then walks the player's games (rules 6.4) or takes his performance by Newton steps capped
  at 800 from the list's first game (rules 6.5). Its formulas are most of the workbook, so a row
  holds a game slot per round of the room (:func:`game_slots`), what every Newton step reads is
  worked out once per row, and each single float's power of two is a column of its own: what
  LibreOffice parses on opening and writes on saving is what a treasurer waits for (issue 35);
- promotions (rules 6.10) game by game on the walk, the "bound to get it" simulation per player;
- ``history_after``: the history table for the next tournament.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from typing import Any

import xl_elo.federations.fesa as fesa
from xl_elo import core, schema
from xl_elo.federations.fesa import grades
from xl_elo.federations.fesa.tables import FESA_GRADES, FESA_HANDICAPS, FESA_K_BANDS
from xl_elo.templates.common import (
    POS,
    blank,
    event_setting,
    game_checks,
    game_inputs,
    guard,
    history_inputs,
    key_columns,
    number_check,
    option_settings,
    period_setting,
    player_checks,
    player_inputs,
    reason,
    result_key,
    sides_sheet,
    sort_columns,
    text_of,
    work_sheet,
    yes_no_input,
    yes_value,
)
from xl_elo.templates.spec import FIRST, Capacity, Col, Input, ResultCol, Sheet, Template
from xl_elo.words import F, _, text_formula

#: The rooms shipped in workbooks/: a FESA tournament of 16 players over up to eight rounds (FESA's published
#: tournaments mostly hold 8 to 16 players: 8 of the 9 of tests/data/fesa; this room opens, recalculates and saves
#: within 3 times LibreOffice's floor, one of 20 or more does not), then larger events' (their own files, named for
#: their rooms: a company league of 71 players takes the 80). Any other: xl-elo workbooks --players N.
ROOMS = (Capacity(16, 64, 80), Capacity(40, 160, 200), Capacity(80, 320, 400))
CAPACITY = ROOMS[0]
#: The languages shipped, the first unsuffixed: FESA's working language.
LANGUAGES = ('en',)
#: No season template (rules 14): its results pasted into the next copy carry the list on.
SEASON = None
#: Languages it speaks besides, built on request (xl-elo workbooks --language): none.
SPEAKS: tuple[str, ...] = ()
#: Gauss-Seidel sweeps in list order, as FESA's program (rules 6.6): its tournaments settle in
#: fewer (the last must change nothing, or the results say they are not valid).
SWEEPS = 12
#: Newton steps of a performance, from the list's first game as FESA's program (rules 6.5, 6.11).
NEWTON = 12
#: Newton has settled when its last step is smaller than this (rating points).
SETTLED_STEP = 0.01
#: A performance this close to a half point is decided by the program's single floats (rules 6.11):
#: the template leaves it to the engine.
TIE_WINDOW = 0.001
#: The most rated games per player a room lays out (FESA advises at most 16 rounds, rules 6.1).
SLOTS = 16


def game_slots(cap: Capacity) -> int:
    """A player's rated games the room has room for: its rounds (every player in every round, its games
    two sides each), at most :data:`SLOTS`. Each slot is some twenty formulas on every row of the sweeps."""
    return max(1, min(SLOTS, -(-2 * cap.games // cap.players)))
#: A player's handicap games the template has room for.
HANDICAP_SLOTS = 3


def grade_check(column: str, *, allow_pro: bool) -> str:
    """A grade cell's check (rules 6.9): a FESA grade as the reader spells it."""
    bad = reason(column, grades.GRADE_HELP + (grades.PRO_HELP if allow_pro else ""))
    table = "nsr_key" if allow_pro else "grade_key"
    key = f'LOWER(SUBSTITUTE(SUBSTITUTE({text_of("[x]")}," ",""),"-",""))'
    return guard(column, f'IF(ISNA(MATCH({key},{table},0)),{bad},"")')


def handicap_check() -> str:
    """A handicap cell's check (rules 6.7): one of FESA's codes or names."""
    bad = reason("handicap", "S, L, B, R, RL, 2p, 4p, 5p or 6p")
    return guard("handicap", f'IF(ISNA(MATCH(LOWER({text_of("[x]")}),hc_key,0)),{bad},"")')


#: The games sheet's column of FESA's own fact of a game: the handicap its first player gives (rules 6.7).
def handicap_input() -> Input:
    """FESA's own column of the games sheet: the handicap the first player gives (rules 6.7)."""
    return Input("handicap", "Handicap given by the first player", 10, handicap_check(), ("list", "hc_code"))


def handicap_sides(halves: list[tuple[int, int]], g_last: int) -> list[Col]:
    """A side's handicap: its code, and whether this side gives it (the first player does, rules 6.7)."""
    return [
        Col("handicap", "handicap code",
            '=IF([kind]<>"played","",IF(ISERROR(MATCH(LOWER(' + text_of("[games:handicap]")
            + '),hc_key,0)),"",INDEX(hc_of_key,MATCH(LOWER(' + text_of("[games:handicap]") + '),hc_key,0))))',
            "6.7"),
        Col("giver", "gives the handicap (1/0)", lambda r: "=1" if r <= g_last else "=0", "6.7", blocks=halves),
    ]


def grade_lists() -> list[tuple[str, list[str], list[Any]]]:
    """Grade and handicap spellings the reader accepts, for the template's checks (rules 6.7, 6.9)."""
    grade_rows, nsr_rows = [], []
    for name in grades.GRADE_NAMES:
        n, unit = name.split()
        for number in {n, n.zfill(2)}:
            for u in (("kyu", "k") if unit == "kyu" else ("dan", "d")):
                grade_rows.append((f"{number}{u}", name))
                nsr_rows.append((f"{number}{u}", name))
    for level in range(1, 10):
        for number in {str(level), str(level).zfill(2)}:
            for p in ("pro", "professional"):
                for u in ("dan", "d"):
                    nsr_rows.append((f"{p}{number}{u}", f"pro {level} dan"))
    grade_rows.sort()
    nsr_rows.sort()
    hc = sorted({(code.lower(), code) for code in FESA_HANDICAPS} | {(v[0], c) for c, v in FESA_HANDICAPS.items()})
    return [
        ("grade spellings", ["grade_key", "grade_of_key"], grade_rows),
        ("NSR grade spellings", ["nsr_key", "nsr_of_key"], nsr_rows),
        ("handicap spellings", ["hc_key", "hc_of_key"], hc),
    ]


def rhe(x: str) -> str:
    """Round halves to even (rules 6.4: the reference program's rounding)."""
    return f"IF({x}-INT({x})=0.5,INT({x})+MOD(INT({x}),2),ROUND({x},0))"


def single(name: str, title: str, exact: str, guard: str) -> list[Col]:
    """One single-float step of FESA's program as three columns (rules 6.11): the value in double
    precision, the power of two of its 24th significant bit, then the value rounded to 24 significant
    bits, halves to even (the spreadsheet's doubles hold every single float exactly)."""
    x, e = f"[{name}_x]", f"[{name}_e]"
    return [
        Col(f"{name}_x", _('{title}, exact', title=title), f'=IF({guard},"",{exact})', "6.11"),
        Col(f"{name}_e", _('{title}: the power of two of its 24th bit', title=title),
            f'=IF({guard},"",IF({x}=0,0,INT(LOG(ABS({x}),2))-23))', "6.11"),
        Col(name, _('{title}, single float', title=title), f'=IF({guard},"",IF({x}=0,0,{rhe(f"{x}/2^{e}")}*2^{e}))',
            "6.11"),
    ]


def k_of(x: str) -> str:
    """K by band of a rating (rules 6.2), as one sum that also works on a range inside SUMPRODUCT."""
    bands = sorted(FESA_K_BANDS)
    steps = "".join(f"{'+' if k - prev_k >= 0 else '-'}{abs(k - prev_k)}*({x}>={low})"
                    for (_, prev_k), (low, k) in itertools.pairwise(bands))
    return f"({bands[0][1]}{steps})"


def expected(o: str, x: str) -> str:
    return f"1/(1+10^(({o}-{x})/400))"


def _sweeps_sheet(cap: Capacity) -> Sheet:
    """FESA's sweeps (rules 6.6), one row per player and sweep, sweep after sweep: a row reads the
    latest value of each opponent from the rows above it (this sweep's for a player above him in the
    list, the previous sweep's for one below), so the sweeps are those of FESA's program, in list
    order, from its starting values. A row computes the player's handicap shifts in single floats
    (rules 6.7, 6.11), his normal-mode walk (rules 6.4) or his performance by Newton's method from
    the list's first game (rules 6.5), and his new value."""
    from xl_elo.federations.fesa import grades, newton

    p = cap.players
    slots = game_slots(cap)
    floor = f"{fesa.OPPONENT_FLOOR:g}"
    top = f"{FIRST - 1}"
    sheet = Sheet("sweeps", "sw_", FIRST, FIRST + SWEEPS * p - 1,
                  leading=[("sweep", lambda r: (r - FIRST) // p + 1), ("player", lambda r: (r - FIRST) % p + 1)],
                  areas={"o": ("o1", f"o{slots}")}, shared=False)

    def w(name: str) -> str:
        return f"INDEX(w_{name},[player])"

    def above(n: str, r: int) -> str:
        """The value ``v`` of data row ``n`` (1-based), always a row above row ``r``: an INDEX over the rows above,
        not OFFSET (recalculated on every edit). Each row names its own last row above (``$X$1:$X$41``): a
        spreadsheet then keeps the rows' formulas apart, where one shared formula would read, to LibreOffice,
        as a column that depends on itself."""
        return f"INDEX([v@top]:[v@{r - 1}],{top}+{n}+1)"

    def latest(j: str, r: int) -> str:
        return (f"IF({j}<[player],{above(f'([sweep]-1)*{p}+{j}-1', r)},"
                f"IF([sweep]=1,INDEX(w_v0,{j}),{above(f'([sweep]-2)*{p}+{j}-1', r)}))")

    def own(r: int) -> str:
        return f"=IF([sweep]=1,{w('v0')},{above(f'([sweep]-2)*{p}+[player]-1', r)})"

    def opponent(k: int) -> Callable[[int], str]:
        return lambda r: f'=IF([n]<{k},0,MAX({floor},{latest(f"INDEX(w_op{k},[player])", r)}))'

    sheet.add(
        Col("key", "player", f'={w("key")}', "6.6"),
        Col("n", "games rated", f'=IF([key]="",0,{w("n")})', "6.8"),
        Col("pm", "performance mode", f'=IF([key]="",0,{w("perf")})', "6.3"),
        Col("own", "his value before this row", own, "6.6"),
        Col("bc", "bonus count", f'={w("bc")}', "6.4"),
    )
    for k in range(1, slots + 1):
        sheet.add(Col(f"b{k}", _("game {k}: opponent's latest value, at least {floor}",
                                 k=k, floor=floor), opponent(k), "6.6"))
    hcs = range(1, HANDICAP_SLOTS + 1)
    bblock = f"[b1]:[b{slots}]"
    for j in hcs:
        sheet.add(Col(f"hk{j}", _('handicap game {j}: game number', j=j), f'=IF([n]=0,0,{w(f"hk{j}")})', "6.7"))
    for j in hcs:
        hk, q, i, fl, jj = f"[hk{j}]", f"[q{j}]", f"[i{j}]", f"[fl{j}]", f"[jj{j}]"
        none = f"{hk}=0"
        tag = f"handicap game {j}"
        sheet.add(
            Col(f"q{j}", _('{tag}: rating shifted (receiver: the giver; giver: his own)', tag=tag),
                f'=IF({none},"",IF({w(f"hr{j}")}=-1,INDEX({bblock},{hk}),IF([pm]=1,[own],N({w("rating")}))))', "6.7"),
            Col(f"i{j}", _('{tag}: its band', tag=tag), f'=IF(OR({none},{q}<=0),"",MATCH({q},s_lb,1))', "6.7"),
            *single(f"fr{j}", f"{tag}: part of the band", f"({q}-INDEX(s_lb,{i}))/INDEX(s_width,{i})", f'{i}=""'),
            *single(f"gn{j}", f"{tag}: grade number", f"IF({q}<=0,0,INDEX(s_num,{i})+[fr{j}])", none),
            *single(f"nr{j}", f"{tag}: minus the handicap", f"[gn{j}]-{w(f'hh{j}')}", none),
            Col(f"fl{j}", _('{tag}: whole grade number', tag=tag), f'=IF({none},"",INT([nr{j}]))', "6.7"),
            Col(f"jj{j}", _('{tag}: its band', tag=tag),
                f'=IF({none},"",IF({fl}<{grades.FIRST_NUMBER},"",MATCH({fl},s_num,1)))', "6.7"),
            *single(f"pt{j}", f"{tag}: part times width", f"([nr{j}]-{fl})*INDEX(s_width,{jj})", f'{jj}=""'),
            *single(f"rv{j}", f"{tag}: rating", f"INDEX(s_lb,{jj})+[pt{j}]", f'{jj}=""'),
            Col(f"sh{j}", _('{tag}: shift', tag=tag),
                f'=IF({none},"",IF({fl}<{grades.FIRST_NUMBER},{grades.RATING_BELOW_SCALE:g},{rhe(f"[rv{j}]")}))',
                "6.7"),
        )
    for j in hcs:
        sheet.add(Col(f"adj{j}", _('handicap game {j}: added to the opponent', j=j),
                      f'=IF([hk{j}]=0,0,IF({w(f"hr{j}")}=-1,[sh{j}]-INDEX({bblock},[hk{j}]),[q{j}]-[sh{j}]))', "6.7"))
    hk_block, adj_block = f"[hk1]:[hk{HANDICAP_SLOTS}]", f"[adj1]:[adj{HANDICAP_SLOTS}]"
    for k in range(1, slots + 1):
        sheet.add(Col(f"o{k}", _('game {k}: opponent counts', k=k),
                      f"=IF([n]<{k},0,[b{k}]+SUMIF({hk_block},{k},{adj_block}))", "6.7"))
    # the other games of a performance (rules 6.5), beside his games: the two NSR games, the added draw
    sheet.add(
        Col("on", "NSR games at (weighed 2)", "=[mpv]", "6.5"),
        Col("oa", "the added draw's opponent (all wins)", '=IF([allw]=1,N([bst]),0)', "6.5"),
    )
    for k in range(1, slots + 1):
        sheet.add(Col(f"s{k}", _('game {k}: result', k=k), f"=IF([n]<{k},0,{w(f'sc{k}')})", "6.4"))

    # normal mode: the walk with a running rating (rules 6.4)
    for k in range(1, slots + 1):
        first = f'=IF(OR([n]=0,[pm]=1),"",N({w("rating")}))'
        sheet.add(Col(f"pr{k}", _('game {k}: running rating', k=k),
                      first if k == 1 else f'=IF([pr{k - 1}]="","",[pr{k - 1}]+[d{k - 1}])', "6.4"))
    for k in range(1, slots + 1):
        pr, o, sc = f"[pr{k}]", f"[o{k}]", f"[s{k}]"
        kk = f"LOOKUP({pr},k_lower,k_value)"
        normal = f"{kk}*({sc}-{expected(o, pr)})"
        upset = f"IF(AND({sc}=1,{o}>{pr}),{kk}*({o}-{pr})/{fesa.UPSET_DIVISOR:g},-1E+300)"
        bonus = (f"IF(AND({pr}<{fesa.BONUS_BELOW:g},[bc]+{k - 1}<{fesa.BONUS_GAMES}),"
                 f"({fesa.BONUS_BELOW:g}-{pr})/{fesa.BONUS_DIVISOR:g},0)")
        sheet.add(Col(f"d{k}", _('game {k}: change', k=k),
                      f'=IF(OR({pr}="",[n]<{k}),0,MAX({normal},{upset})+{bonus})', "6.4"))
    ks = "{" + ",".join(str(k) for k in range(1, slots + 1)) + "}"
    mask = f"({ks}<=[n])"
    prb, ob, sb = f"[pr1]:[pr{slots}]", f"[o1]:[o{slots}]", f"[s1]:[s{slots}]"
    e_arr = f"1/(1+10^(({ob}-{prb})/400))"
    sheet.add(
        Col("dsum", "change before rounding", f"=SUM([d1]:[d{slots}])", "6.4"),
        Col("esum", "expected score", f'=IF([pr1]="","",SUMPRODUCT({mask}/(1+10^(({ob}-{prb})/400))))', "6.4"),
        Col("bsum", "activity bonus",
            f'=IF([pr1]="","",SUMPRODUCT({mask}*({ks}<={fesa.BONUS_GAMES}-[bc])*({prb}<{fesa.BONUS_BELOW:g})*'
            f'({fesa.BONUS_BELOW:g}-{prb})/{fesa.BONUS_DIVISOR:g}))', "6.4"),
        Col("ups", "upset gains used",
            f'=IF([pr1]="","",SUMPRODUCT({mask}*({sb}=1)*({ob}>{prb})*({k_of(prb)}*({ob}-{prb})/{fesa.UPSET_DIVISOR:g}'
            f'>{k_of(prb)}*({sb}-{e_arr}))))', "6.4"),
    )

    # performance mode: Newton's method from the list's first game (rules 6.5, 6.11)
    sheet.add(
        Col("bst", "highest rating of the list", f'=IF([pm]=0,"",MAX({w("hmax")},MAX({ob})))', "6.5"),
        Col("x0", "Newton: start (the list's first game)",
            f'=IF([pm]=0,"",IF({w("allw")}=1,[bst],IF({w("nsr")}=2,{w("mp")},IF({w("hn")}>0,{w("hlast")},[o1]))))',
            "6.11"),
    )
    # what every Newton step of a row reads, once per row (the same numbers, shorter formulas)
    sheet.add(
        Col("nw", "Newton runs (1/0)", f'=IF(OR([pm]=0,[n]=0,{w("alll")}=1),0,1)', "6.5"),
        Col("tot", "Newton: the score to reach", f'=IF([nw]=0,0,{w("hs")}+{w("score")}+{w("nsr")}/2+{w("allw")}*0.5)',
            "6.5"),
        Col("nsr", "NSR games", f'={w("nsr")}', "6.5"),
        Col("allw", "all wins", f'={w("allw")}', "6.5"),
        Col("mpv", "NSR games at", f'=N({w("mp")})', "6.5"),
    )
    total = "[tot]"

    # his games, then the NSR games (weighed [nsr]: 0 or 2) and the added draw (weighed [allw]: 0 or 1)
    zeros = "0," * slots
    games_k = ",".join(str(k) for k in range(1, slots + 1))
    weight = f"(({{{games_k},1E+9,1E+9}}<=[n])+{{{zeros}1,0}}*[nsr]+{{{zeros}0,1}}*[allw])"
    listed = "[o1]:[oa]"

    def g(x: str) -> str:
        hist = f"SUMPRODUCT((hw_who=[player])/(1+10^((hw_o-{x})/400)))"
        games = f"SUMPRODUCT({weight}/(1+10^(({listed}-{x})/400)))"
        return f"({total}-({hist}+{games}))"

    def dg(x: str) -> str:
        hist = f"SUMPRODUCT((hw_who=[player])*10^((hw_o-{x})/400)/(1+10^((hw_o-{x})/400))^2)"
        games = f"SUMPRODUCT({weight}*10^(({listed}-{x})/400)/(1+10^(({listed}-{x})/400))^2)"
        return f"((LN(10)/400)*({hist}+{games}))"

    cap_step = f"{newton.STEP_CAP:g}"
    for j in range(1, NEWTON + 1):
        x = "[x0]" if j == 1 else f"[nx{j - 1}]"
        sheet.add(Col(f"nx{j}", _('Newton {j}', j=j),
                      f'=IF([nw]=0,"",{x}+MAX(-{cap_step},MIN({cap_step},{g(x)}/{dg(x)})))',
                      "6.5"))
    x, before = f"[nx{NEWTON}]", f"[nx{NEWTON - 1}]"
    sheet.add(
        Col("sure", "performance beyond doubt",
            f'=IF({x}="",1,IF(AND(ABS({x}-{before})<{SETTLED_STEP},ABS({x}-INT({x})-0.5)>={TIE_WINDOW}),1,0))', "6.11"),
        Col("v", "his value after this row",
            f'=IF([key]="",0,IF([n]=0,[own],IF([pm]=1,IF({w("alll")}=1,1,MAX(1,ROUND({x},0))),'
            f'MAX(1,N({w("rating")})+{rhe("[dsum]")}))))', "6.6"),
    )
    return sheet


#: FESA's own columns of the players sheet (rules 6.4, 6.5, 6.9, 6.10).


def own_inputs() -> tuple[Input, ...]:
    """The system's own columns of the players sheet, in the language of the work."""
    return (
        Input("bonus_count", "Activity bonuses used (0-100)", 10,
              number_check("bonus_count", 0, schema.MAX_BONUS_COUNT, "a whole number from 0 to 100"),
              ("whole", 0, schema.MAX_BONUS_COUNT)),
        Input("grade", "FESA grade (3 kyu, 1 dan)", 10, grade_check("grade", allow_pro=False),
              ("list", "grade_name")),
        Input("nsr_grade", "NSR grade of a new player", 10,
              grade_check("nsr_grade", allow_pro=True)),
        Input("lb_run", "LB run", 8, number_check("lb_run", 0, schema.MAX_RUN, "a whole number")),
        Input("mp_run", "MP run", 8, number_check("mp_run", 0, schema.MAX_RUN, "a whole number")),
        yes_no_input("mp_reached", "MP reached: yes/no", 9),
    )


def spec(cap: Capacity | None = None) -> Template:
    from xl_elo.federations.fesa import grades, promotion

    cap = cap or CAPACITY
    slots = game_slots(cap)
    floor = f"{fesa.OPPONENT_FLOOR:g}"
    sides = sides_sheet(cap, rated="6.8", round_rules="6.1", own=handicap_sides)
    work = work_sheet(cap)

    # ---------------------------------------------------------------- history, per row (static)
    hw = Sheet("history_work", "hw_", FIRST, FIRST + cap.history - 1, leading=[("row", lambda r: r - FIRST + 1)])
    hw.add(
        Col("who", "player (position)",
            f'=IF({blank("[history:id]")},0,IFERROR(MATCH({text_of("[history:id]")},w_key,0),0))', "6.5"),
        Col("o", "opponent as counted", "=IF(N([who])=0,0,N([history:opponent_rating]))", "6.11"),
        Col("s", "result",
            f'=IF(N([who])=0,0,IF(ISNUMBER([history:result]),[history:result],IFERROR(INDEX(result_score,'
            f'MATCH({result_key("[history:result]")},result_key,0)),0)))', "6.5"),
    )

    # ---------------------------------------------------------------- players: mode (rules 6.3)
    nsr_key = f'LOWER(SUBSTITUTE(SUBSTITUTE({text_of("[players:nsr_grade]")}," ",""),"-",""))'
    nsr_name = f"INDEX(nsr_of_key,MATCH({nsr_key},nsr_key,0))"
    grade_key = f'LOWER(SUBSTITUTE(SUBSTITUTE({text_of("[players:grade]")}," ",""),"-",""))'
    work.add(*key_columns())
    work.add(
        Col("bc", "bonus count", "=N([players:bonus_count])", "6.4"),
        Col("hn", "history games", f"=COUNTIF(hw_who,{POS})", "6.3"),
        Col("hs", "history score", f"=SUMIFS(hw_s,hw_who,{POS})", "6.3"),
        Col("hwins", "history wins", f"=COUNTIFS(hw_who,{POS},hw_s,1)", "6.3"),
        Col("hlast", "last history game's opponent",
            f'=IF([hn]=0,"",INDEX(hw_o,SUMPRODUCT(MAX((hw_who={POS})*(ROW(hw_who)-{FIRST - 1})))))', "6.11"),
        Col("new", "new player", '=IF(AND([key]<>"",[games]=0,[hn]=0),1,0)', "6.3"),
        Col("mp", "NSR games at",
            f'=IF(AND([new]=1,NOT({blank("[players:nsr_grade]")})),IFERROR(MAX({floor},IF(LEFT({nsr_name},3)="pro",'
            f'{grades.PRO_BASE}+{grades.PRO_STEP}*VALUE(MID({nsr_name},5,1)),INDEX(g_mp,MATCH({nsr_name},g_name,0)))),""),"")',
            "6.5"),
        Col("nsr", "NSR games", '=IF([mp]="",0,2)', "6.5"),
        Col("n", "games rated", f"=COUNTIFS(side_who,{POS},side_counts,1)", "6.8"),
        Col("score", "score", f"=SUMIFS(side_score,side_who,{POS},side_counts,1)", "6.4"),
        Col("perf", "performance mode",
            f'=IF([key]="",0,IF([new]=1,1,IF([hn]>0,IF(OR([hs]=0,[hwins]=[hn],[games]+[n]<{fesa.PERFORMANCE_GAMES},[rated]=0),'
            f'1,0),0)))', "6.3"),
        Col("alll", "all losses", '=IF(AND([hs]=0,[score]=0,[nsr]=0),1,0)', "6.5"),
        Col("allw", "all wins",
            f'=IF(AND([hwins]=[hn],COUNTIFS(side_who,{POS},side_counts,1,side_score,1)=[n],[nsr]=0,[hn]+[n]>0),1,0)',
            "6.5"),
        Col("hmax", "highest history opponent", f'=IF([hn]=0,0,SUMPRODUCT(MAX((hw_who={POS})*hw_o)))', "6.5"),
        Col("before", "games of the players above", "=SUM([n@first]:[n])-[n]", "6.4"),
        # FESA's program starts a performance-mode player at 0 (an opponent counts him 400) (rules 6.6)
        Col("v0", "before the sweeps", "=IF([perf]=1,0,N([rating]))", "6.6"),
    )

    # ---------------------------------------------------------------- a player's games in round order
    sides.add(
        Col("h", "handicap grades", '=IF([handicap]="",0,IFERROR(INDEX(hc_value,MATCH([handicap],hc_code,0)),0))',
            "6.7"),
        Col("sortkey", "sort key", '=IF([counts]<>1,"",[who]*10000000+[round]*10000+[game_row])', "6.1"),
        Col("rank", "walk row", '=IF([sortkey]="","",COUNTIF(side_sortkey,"<"&[sortkey])+1)', "6.1"),
        Col("hflag", "handicap side", '=IF(AND([counts]=1,[h]>0),1,0)', "6.7"),
        Col("hgame", "its game number", '=IF([hflag]=1,[rank]-INDEX(w_before,[who]),"")', "6.7"),
        Col("hslot", "handicap game number",
            '=IF([hflag]=1,COUNTIFS(side_who,[who],side_hflag,1,side_rank,"<"&[rank])+1,"")', "6.7"),
        Col("hkey", "player|handicap game", '=IF([hflag]=1,[who]*100+[hslot],"")', "6.7"),
    )
    # a player's k-th game is the side ranked before + k (the walk's order: player, round, row)
    for k in range(1, slots + 1):
        work.add(
            Col(f"sd{k}", _('game {k}: side', k=k), f'=IF([n]<{k},"",MATCH([before]+{k},side_rank,0))', "6.4"),
            Col(f"op{k}", _('game {k}: opponent', k=k), f'=IF([sd{k}]="",0,INDEX(side_opp,[sd{k}]))', "6.4"),
            Col(f"sc{k}", _('game {k}: result', k=k), f'=IF([sd{k}]="",0,INDEX(side_score,[sd{k}]))', "6.4"),
        )
    for j in range(1, HANDICAP_SLOTS + 1):
        hs = f"[hs{j}]"
        work.add(
            Col(f"hs{j}", _('handicap game {j}: side', j=j), f'=IFERROR(MATCH({POS}*100+{j},side_hkey,0),"")', "6.7"),
            Col(f"hk{j}", _('handicap game {j}: game number', j=j), f'=IF({hs}="",0,INDEX(side_hgame,{hs}))', "6.7"),
            Col(f"hh{j}", _('handicap game {j}: grades (single float)',
                            j=j), f'=IF({hs}="",0,INDEX(side_h,{hs}))', "6.11"),
            Col(f"hr{j}", _('handicap game {j}: giver +1, receiver -1', j=j),
                f'=IF({hs}="",0,IF(INDEX(side_giver,{hs})=1,1,-1))', "6.7"),
        )
    walk = Sheet("walk", "wk_", FIRST, FIRST + cap.sides - 1, leading=[("row", lambda r: r - FIRST + 1)])

    def side_of(name: str) -> str:
        return f'INDEX(side_{name},[side])'

    walk.add(
        Col("side", "side", '=IFERROR(MATCH(ROW()-1,side_rank,0),"")', "6.1"),
        Col("who", "player", f'=IF([side]="","",{side_of("who")})', "6.1"),
        Col("s", "result", f'=IF([side]="","",{side_of("score")})', "6.4"),
        Col("first", "first game of the player",
            f'=IF([side]="","",IF(ROW()={FIRST},1,IF([who@prev]=[who],0,1)))', "6.4"),
        Col("pos", "game number", '=IF([side]="","",IF([first]=1,1,N([pos@prev])+1))', "6.4"),
        Col("perf", "performance mode", '=IF([side]="","",INDEX(w_perf,[who]))', "6.3"),
        Col("of", "opponent as counted at the end",
            f'=IF([side]="","",INDEX(sw_o,{(SWEEPS - 1) * cap.players}+[who],[pos]))', "6.5"),
    )

    # ---------------------------------------------------------------- the sweeps (rules 6.4 - 6.7, 6.11)
    sweeps = _sweeps_sheet(cap)

    # ---------------------------------------------------------------- outcome per player
    last = f"{(SWEEPS - 1) * cap.players}+{POS}"
    work.add(
        Col("vf", "value after the last sweep", f"=INDEX(sw_v,{last})", "6.6"),
        Col("settled", "the last sweep changed nothing",
            f"=IF([vf]=INDEX(sw_v,{(SWEEPS - 2) * cap.players}+{POS}),1,0)", "6.6"),
    )
    v = "[vf]"
    work.add(
        Col("wa", "first walk row", '=IF([n]=0,"",[before]+1)', "6.4"),
        Col("wb", "last walk row", '=IF([n]=0,"",[before]+[n])', "6.4"),
        Col("change", "change", f'=IF(OR([n]=0,[perf]=1),"",{rhe(f"INDEX(sw_dsum,{last})")})', "6.4"),
        Col("after", "rating after", f'=IF([key]="","",IF([n]=0,IF([nsr]=2,[mp],[rating]),{v}))', "6.6"),
        Col("gafter", "games after", "=[games]+[n]+[nsr]", "6.5"),
        Col("mode", "mode",
            '=IF([key]="","",IF([n]=0,IF([nsr]=2,"performance",IF([hn]>0,"performance",IF([rated]=1,"normal",'
            '"unrated"))),IF([perf]=1,"performance","normal")))', "6.3"),
    )

    # ---------------------------------------------------------------- promotions (rules 6.10)
    grade_name = f"INDEX(grade_of_key,MATCH({grade_key},grade_key,0))"
    work.add(
        Col("g0", "grade index before",
            f'=IF({blank("[players:grade]")},-1,IFERROR(MATCH({grade_name},g_name,0)-1,-1))', "6.9"),
        Col("h_after", "history after", '=IF([mode]="performance",[hn]+[nsr]+[n],0)', "6.5"),
    )

    def nth(name: str, idx: str) -> str:
        return f"INDEX({name},{idx}+1)"

    def idx0(x: str) -> str:
        return f"(MATCH({x},g_lb,1)-1)"

    top = len(FESA_GRADES) - 1
    first_games, run_games, sim = promotion.FIRST_GRADE_GAMES, promotion.RUN_GAMES, promotion.SIMULATED_GAMES
    walk.add(
        Col("t", "games so far", '=IF([side]="","",INDEX(w_games,[who])+[pos])', "6.10"),
        Col("x", "rating after this game",
            '=IF(OR([side]="",[perf]=1),"",INDEX(w_rating,[who])+[pos]*INDEX(w_change,[who])/INDEX(w_n,[who]))',
            "6.10"),
    )
    initial = {"g": "INDEX(w_g0,[who])", "lb": "N(INDEX(player_lb_run,[who]))", "mp": "N(INDEX(player_mp_run,[who]))",
               "re": f"{yes_value('INDEX(player_mp_reached,[who])')}"}
    for name in ("g", "lb", "mp", "re"):
        walk.add(Col("s" + name, _('before this game: {name}', name=name),
                     f'=IF([x]="","",IF([first]=1,{initial[name]},[p{name}@prev]))', "6.10"))
    walk.add(
        Col("ix", "grade of this rating", f'=IF([x]="","",{idx0("[x]")})', "6.10"),
        Col("gm", "after the UB rules",
            f'=IF([x]="","",IF([t]<{first_games},[sg],IF([t]<{run_games},MAX([sg],MIN([ix]-2,{top - 2})),'
            f'MAX([sg],MIN([ix]-1,{top - 1})))))', "6.10"),
        Col("up", "promoted by UB", '=IF([x]="","",IF([gm]>[sg],1,0))', "6.10"),
        Col("ru", "runs count", f'=IF([x]="","",IF(AND([t]>={run_games},[gm]<{top}),1,0))', "6.10"),
        Col("lb0", "LB of the next grade", '=IF(N([ru])=0,"",INDEX(g_lb,[gm]+2))', "6.10"),
        Col("mp0", "MP of the next grade", '=IF(N([ru])=0,"",INDEX(g_mp,[gm]+2))', "6.10"),
    )

    def keep(name: str) -> str:
        return f"IF([up]=1,0,[s{name}])"

    walk.add(
        Col("lb1", "LB run", f'=IF([x]="","",IF([ru]=1,IF([x]>=[lb0],{keep("lb")}+1,0),{keep("lb")}))', "6.10"),
        Col("mp1", "MP run", f'=IF([x]="","",IF([ru]=1,IF([x]>=[mp0],{keep("mp")}+1,0),{keep("mp")}))', "6.10"),
        Col("re1", "MP reached",
            f'=IF([x]="","",IF([ru]=1,IF([x]>=[mp0],1,IF([x]>=[lb0],{keep("re")},0)),{keep("re")}))', "6.10"),
        Col("pm", "promoted by a run",
            '=IF(N([ru])=0,0,IF(OR(AND(INDEX(g_nmp,[gm]+2)<>"",[mp1]>=N(INDEX(g_nmp,[gm]+2))),'
            'AND(INDEX(g_nlb,[gm]+2)<>"",[re1]=1,[lb1]>=N(INDEX(g_nlb,[gm]+2)))),1,0))', "6.10"),
        Col("pg", "after this game: g", '=IF([x]="","",IF([pm]=1,[gm]+1,[gm]))', "6.10"),
        *[Col("p" + name, _('after this game: {name}', name=name), f'=IF([x]="","",IF([pm]=1,0,[{name}1]))', "6.10")
          for name in ("lb", "mp", "re")],
    )
    # performance mode: all games at the new rating, from empty runs (closed form of the walk)
    work.add(
        Col("q9", "performance: grade after 9-17",
            f'=IF([h_after]<{first_games},[g0],MAX([g0],MIN({idx0("[after]")}-2,{top - 2})))', "6.10"),
        Col("q18", "performance: grade after the UB rule",
            f'=IF([h_after]<{run_games},[q9],MAX([q9],MIN({idx0("[after]")}-1,{top - 1})))', "6.10"),
    )
    c = f"MAX(0,[h_after]-{run_games - 1})"
    nq = "([q18]+1)"
    work.add(Col("qmp", "performance: MP run promotes",
                 f'=IF(OR([h_after]<{run_games},[q18]>={top}),0,IF(AND([after]>={nth("g_mp", nq)},'
                 f'{nth("g_nmp", nq)}<>"",{c}>=N({nth("g_nmp", nq)})),1,0))', "6.10"))
    # bound to get it (normal mode): 20 games each losing K
    for j in range(1, sim + 1):
        src = "[after]" if j == 1 else f"[sim{j - 1}]"
        work.add(Col(f"sim{j}", _('simulated game {j}', j=j),
                     f'=IF(OR([key]="",[after]=""),"",{src}-LOOKUP({src},k_lower,k_value))', "6.10"))
    last_row = "INDEX(wk_{},[wb])"
    fin = {"g": "[g0]", "lb": "N([players:lb_run])", "mp": "N([players:mp_run])",
           "re": yes_value("[players:mp_reached]")}
    for name in ("g", "lb", "mp", "re"):
        work.add(Col("f" + name, _('{name} after the walk', name=name),
                     f'=IF(OR([n]=0,[perf]=1),{fin[name]},{last_row.format("p" + name)})', "6.10"))
    sims = f"[sim1]:[sim{sim}]"
    nf = "([fg]+1)"
    work.add(
        Col("a_mp", "simulated games above MP", f'=IF([fg]>={top},0,COUNTIF({sims},">="&{nth("g_mp", nf)}))', "6.10"),
        Col("a_lb", "simulated games above LB", f'=IF([fg]>={top},0,COUNTIF({sims},">="&{nth("g_lb", nf)}))', "6.10"),
        Col("bound", "bound to get it",
            f'=IF(OR([key]="",[n]=0,[perf]=1,[games]+[n]<{run_games},[fg]>={top}),0,'
            f'IF(OR(AND({nth("g_nmp", nf)}<>"",[a_mp]>0,[fmp]+[a_mp]>=N({nth("g_nmp", nf)})),'
            f'AND({nth("g_nlb", nf)}<>"",[a_lb]>0,OR([fre]=1,[a_mp]>0),[flb]+[a_lb]>=N({nth("g_nlb", nf)}))),1,0))',
            "6.10"),
    )
    perf_state = {
        "g": f"IF([qmp]=1,{nq},[q18])",
        "lb": f'IF(OR([qmp]=1,[h_after]<{run_games},[q18]>={top}),0,IF([after]>={nth("g_lb", nq)},{c},0))',
        "mp": f'IF(OR([qmp]=1,[h_after]<{run_games},[q18]>={top}),0,IF([after]>={nth("g_mp", nq)},{c},0))',
        "re": f'IF(OR([qmp]=1,[h_after]<{run_games},[q18]>={top}),0,IF([after]>={nth("g_mp", nq)},1,0))',
    }
    empty = {"g": "[g0]", "lb": "0", "mp": "0", "re": "0"}
    bound = {"g": nf, "lb": "0", "mp": "0", "re": "0"}
    for name in ("g", "lb", "mp", "re"):
        work.add(Col("z" + name, _('after the tournament: {name}', name=name),
                     f'=IF([key]="","",IF([mode]="performance",IF([after]="",{empty[name]},{perf_state[name]}),'
                     f'IF([bound]=1,{bound[name]},[f{name}])))', "6.10"))

    # ---------------------------------------------------------------- results
    def have(body: str) -> str:
        return f'=IF([key]="","",{body})'

    def normal_only(body: str) -> str:
        return have(f'IF(AND([n]>0,[mode]="normal"),{body},"")')

    work.add(
        Col("res_id", "results: id", "=[key]", "8"),
        Col("res_name", "results: name", have('[players:name]&""'), "8"),
        Col("res_status", "results: status",
            have(f'IF([mode]="performance","performance",IF([mode]="unrated","unrated",IF([gafter]<'
                 f'{fesa.ESTABLISHED_GAMES},"provisional","established")))'), "6.3"),
        Col("res_rating_before", "results: rating before", have("[rating]"), "6.4"),
        Col("res_games_rated", "results: games rated", have("[n]"), "6.8"),
        Col("res_score", "results: score", have("[score]"), "6.4"),
        Col("res_expected", "results: expected", normal_only(f"INDEX(sw_esum,{last})"), "6.4"),
        Col("res_k", "results: K", normal_only(k_of("[rating]")), "6.2"),
        Col("res_performance", "results: performance",
            have('IF(AND([mode]="performance",OR([n]>0,[nsr]=2)),[after],"")'), "6.5"),
        Col("res_change", "results: change",
            have('IF([mode]="normal",IF([n]>0,[change],""),IF(AND([mode]="performance",[n]>0,[rated]=1),'
                 '[after]-[rating],""))'), "6.4"),
        Col("res_bonus", "results: bonus", normal_only(f"INDEX(sw_bsum,{last})"), "6.4"),
        Col("res_rating_after", "results: rating after", have("[after]"), "6.6"),
        Col("res_games_after", "results: games after", have('IF([n]=0,IF([nsr]=2,2,[games]),[gafter])'), "6.8"),
        Col("res_mode", "results: mode", have("[mode]"), "6.3"),
        Col("res_upsets", "results: upsets", normal_only(f"INDEX(sw_ups,{last})"), "6.4"),
        Col("res_bonus_count", "results: bonus count",
            have(f'IF([mode]="normal",MIN({fesa.BONUS_GAMES},[bc]+[n]),0)'), "6.4"),
        Col("res_nsr_grade", "results: NSR grade",
            have(f'IF({blank("[players:nsr_grade]")},"",IFERROR({nsr_name},""))'), "6.5"),
        Col("res_grade_before", "results: grade before", have('IF([g0]<0,"",INDEX(g_name,[g0]+1))'), "6.9"),
        Col("res_grade_after", "results: grade after", have('IF([zg]<0,"",INDEX(g_name,[zg]+1))'), "6.10"),
        Col("res_lb_run", "results: LB run", have("[zlb]"), "6.10"),
        Col("res_mp_run", "results: MP run", have("[zmp]"), "6.10"),
        Col("res_mp_reached", "results: MP reached", have('IF([zre]=1,"yes","no")'), "6.10"),
        Col("res_note", "results: note",
            have('IF(AND([zg]>[g0],[zg]>=0),"promoted to "&INDEX(g_name,[zg]+1)'
                 '&IF([bound]=1,": bound to get it",""),"")'),
            "6.10"),
        *sort_columns(),
    )

    # ---------------------------------------------------------------- history for the next tournament
    h_first, h_last = FIRST, FIRST + cap.history - 1
    n_first, n_last = h_last + 1, h_last + 2 * cap.players
    g_first, g_last = n_last + 1, n_last + 2 * cap.games
    k_h, k_n, k_g = f"(ROW()-{h_first - 1})", f"(INT((ROW()-{n_first})/2)+1)", f"(ROW()-{g_first - 1})"
    blocks = [(h_first, h_last), (n_first, n_last), (g_first, g_last)]

    def keep_if(who: str) -> str:
        return f'INDEX(w_mode,{who})="performance"'

    conds = [f'IF(INDEX(hw_who,{k_h})>0,{keep_if(f"INDEX(hw_who,{k_h})")},FALSE)',
             f'IF(INDEX(w_nsr,{k_n})=2,{keep_if(k_n)},FALSE)',
             f'IF(INDEX(wk_side,{k_g})<>"",INDEX(wk_perf,{k_g})=1,FALSE)']
    cells = [
        (f"INDEX(w_key,INDEX(hw_who,{k_h}))", f"INDEX(hw_o,{k_h})", f"INDEX(hw_s,{k_h})"),
        (f"INDEX(w_key,{k_n})", f"INDEX(w_mp,{k_n})", f"1-MOD(ROW()-{n_first},2)"),
        (f"INDEX(w_key,INDEX(wk_who,{k_g}))", f"INDEX(wk_of,{k_g})", f"INDEX(wk_s,{k_g})"),
    ]

    def pick(j: int) -> Any:
        def formula(r: int) -> str:
            b = 0 if r <= h_last else 1 if r <= n_last else 2
            return f'=IF({conds[b]},{cells[b][j]},"")'
        return formula

    history_after = Sheet("history_after", "ha_", FIRST, g_last)
    history_after.add(*[Col(name, name, pick(j), "6.5", blocks=blocks)
                        for j, name in enumerate(("id", "opponent_rating", "result"))])

    # ---------------------------------------------------------------- lists
    grade_rows = []
    for i, g in enumerate(FESA_GRADES):
        nxt = FESA_GRADES[i + 1].lb if i + 1 < len(FESA_GRADES) else None
        grade_rows.append((g.lb, g.grade, g.mp, "" if nxt is None else nxt,
                           "" if g.n_lb is None else g.n_lb, "" if g.n_mp is None else g.n_mp, i))
    scale_rows = [(lb, i + grades.FIRST_NUMBER, ub - lb) for i, (lb, ub) in
                  enumerate(zip(grades.SCALE, grades.SCALE[1:], strict=False))]
    lists: list[tuple[str, list[str], Sequence[Sequence[Any]]]] = [
        ("FESA K", ["k_lower", "k_value"], sorted((max(lo, -1_000_000), k) for lo, k in FESA_K_BANDS)),
        ("grades", ["g_lb", "g_name", "g_mp", "g_ub", "g_nlb", "g_nmp", "g_index"], grade_rows),
        ("grade scale", ["s_lb", "s_num", "s_width"], scale_rows),
        ("handicaps, single floats", ["hc_code", "hc_value"],
         [(code, core.f32(value)) for code, (_, value) in FESA_HANDICAPS.items()]),
        *grade_lists(),
    ]
    rules_en = [
        _("FESA (xl-elo rules 6): new players and players whose record is still a game-by-game history (the "
          "'history' sheet) are rated by performance: the zero of g(x) over all their games; the others game by game "
          "in round order with K by band, the upset gain and the activity bonus, rounded once (halves to even). "
          "Opponents count at their rating after the tournament, at least {floor}, so the tournament is solved by "
          "sweeps over the players in list order, as FESA's program does ({sweeps} at most: 'Settled' above says "
          "whether they have). Handicap games shift ratings on the grade scale, in single floats as FESA's program "
          "does. Room: {slots} rated games and {handicap_slots} handicap games per player. Promotions follow rules "
          "6.10; 'history_after' is the history table for the next tournament. Where FESA's program decides in "
          "single floats (a performance on a half point), the results say so: rate the file with xl-elo rate.",
          floor=floor, sweeps=SWEEPS, slots=slots, handicap_slots=HANDICAP_SLOTS),
    ]
    return Template(
        federation="fesa", title="FESA shogi tournament rating",
        players=player_inputs("id", "name", "rating", "games", own=own_inputs()),
        games=[*game_inputs("round", "player", "opponent", "result"), handicap_input(), *game_inputs("rated")],
        history=history_inputs(),
        settings=[period_setting(fesa.NEEDS_PERIOD), event_setting(), *option_settings(fesa.SYSTEM)],
        rules=rules_en, sheets=[sides, work, hw, walk, sweeps, history_after], next_history="history_after",
        results=[
            ResultCol("id", "Id", width=10), ResultCol("name", "Name", width=24),
            ResultCol("status", "Status", width=11),
            ResultCol("rating_before", "Rating before", "0", 9),
            ResultCol("games_rated", "Games", "0", 7), ResultCol("score", "Score", "0.0", 7),
            ResultCol("performance", "Performance", "0", 11),
            ResultCol("change", "Change", "+0;-0;0", 9),
            ResultCol("rating_after", "New rating", "0", 9),
            ResultCol("games_after", "Games after", "0", 8),
            ResultCol("grade_before", "Grade before", width=9),
            ResultCol("grade_after", "Grade after", width=9),
            ResultCol("note", "Note", width=28),
            ResultCol("expected", "expected", "0.00", printed=False),
            ResultCol("k", "K", printed=False),
            ResultCol("bonus", "bonus", "0.00", printed=False),
            ResultCol("mode", "mode", printed=False),
            ResultCol("upsets", "upsets", printed=False),
            ResultCol("bonus_count", "bonus count", printed=False),
            ResultCol("nsr_grade", "NSR grade", printed=False),
            ResultCol("lb_run", "LB run", printed=False),
            ResultCol("mp_run", "MP run", printed=False),
            ResultCol("mp_reached", "MP reached", printed=False),
        ],
        lists=lists, player_checks=player_checks() + [history_check()], game_checks=game_checks(), capacity=cap,
        status=[("Settled", f'=IF(SUM(w_settled)={cap.players},{text_formula("yes", context="value")},'
                            f'{text_formula("no", context="value")})')],
        blockers=[(f"SUM(w_settled)<{cap.players}",
                   _("the {sweeps} sweeps have not settled: rate this file with xl-elo rate", sweeps=SWEEPS)),
                  (f"MAX(w_n)>{slots}",
                   F(text_formula("a player has more than {slots} rated games (player {player}): rate this file with "
                                  "xl-elo rate", slots=slots, player=F("INDEX(w_key,MATCH(MAX(w_n),w_n,0))")))),
                  (f'COUNTIF(side_hslot,">{HANDICAP_SLOTS}")>0',
                   _("a player has more than {slots} handicap games: rate this file with xl-elo rate",
                     slots=HANDICAP_SLOTS)),
                  ("COUNTIF(sw_sure,0)>0",
                   F(text_formula("the performance of {player} falls on a half point, where FESA's program decides in "
                                  "single floats (rules 6.11): rate this file with xl-elo rate",
                                  player=F("INDEX(sw_key,MATCH(0,sw_sure,0))")))),
                  ("+".join(f'COUNTIF(sw_q{j},">={grades.SCALE_END}")' for j in range(1, HANDICAP_SLOTS + 1)) + ">0",
                   _("a rating passes {end}, the end of the grade scale (rules 6.12)", end=grades.SCALE_END))],
    )


def history_check() -> str:
    """A performance-mode player's games must equal his history rows (rules 8)."""
    return ('IF(AND(COUNTIF(hw_who,' + POS + ')>0,COUNTIF(hw_who,' + POS + ')<>N([players:games])),'
            + reason("games", "not the number of his history rows") + ',"")')
