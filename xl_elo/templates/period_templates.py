"""The FIDE, FSE and FQE templates: one pass over the games, no iteration.

Each formula mirrors a step of the engine (``xl_elo.federations.fide``, ``fse``, ``fqe``) and
cites the same SPEC section; the LibreOffice tests check that both give the same numbers.
"""

from __future__ import annotations

from xl_elo.federations import fide as fide_rules
from xl_elo.federations import fqe as fqe_rules
from xl_elo.federations import fse as fse_rules
from xl_elo.templates import book as b
from xl_elo.templates.build import Columns, Inputs, _skeleton, finish, rating_columns
from xl_elo.tables import FFE_DP_TABLE, FIDE_DP_TABLE, FIDE_PD_ROWS, FQE_EXPECTED_ROWS

I = "(ROW()-1)"  # the player's position on the players sheet


def _yes(x: str) -> str:
    return f'IF(OR({x}="yes",{x}="y",{x}="oui",{x}="o",{x}="true",{x}="x",{x}=1),1,0)'


def _common_work(inputs: Inputs, work: Columns, *, age: bool) -> None:
    rating_columns(inputs, work)
    if age:
        work.add("age", "age", lambda r: f'=IF(AND(ISNUMBER({inputs.p("birth_year", r)}),ISNUMBER(period_year)),'
                                         f'period_year-{inputs.p("birth_year", r)},"")')


def _period_sums(work: Columns) -> None:
    """Games and points of rated players against rated players, and of unrated ones against them."""
    work.add("n", "games rated", lambda r: f"=COUNTIFS(side_who,{I},s_both,1)")
    work.add("s", "score", lambda r: f"=SUMIFS(side_score,side_who,{I},s_both,1)")
    work.add("nn", "games vs rated (unrated)", lambda r: f"=COUNTIFS(side_who,{I},s_new,1)")
    work.add("sn", "score vs rated (unrated)", lambda r: f"=SUMIFS(side_score,side_who,{I},s_new,1)")


def _rated_sides(sides: Columns) -> None:
    sides.add("wr", "who rated", lambda r: f"=IF($G{r}=1,INDEX(w_rated,$C{r}),0)")
    sides.add("or", "opponent rated", lambda r: f"=IF($G{r}=1,INDEX(w_rated,$D{r}),0)")
    sides.add("both", "both rated", lambda r: f'={sides("wr", r)}*{sides("or", r)}')
    sides.add("new", "unrated vs rated", lambda r: f'=(1-{sides("wr", r)})*{sides("or", r)}')
    sides.add("rw", "who's rating", lambda r: f'=IF({sides("wr", r)}=1,INDEX(player_rating,$C{r}),"")')
    sides.add("ro", "opponent's rating", lambda r: f'=IF({sides("or", r)}=1,INDEX(player_rating,$D{r}),"")')


def _lists(book: b.Book) -> None:
    ws = book.wb["lists"]
    b.table_block(book, ws, 5, "FIDE PD", ["fide_lower", "fide_pct"], [(lo, pct) for lo, _, pct in FIDE_PD_ROWS])
    b.table_block(book, ws, 8, "FQE", ["fqe_lower", "fqe_pct"], [(lo, pct) for lo, _, pct in FQE_EXPECTED_ROWS])
    b.table_block(book, ws, 11, "D(P)", ["dp_pct", "dp_value"], [(p, FFE_DP_TABLE[p]) for p in range(1, 100)])


def _settings() -> list[tuple[str, str, str]]:
    return [("period", "Period (YYYY-MM) / Période", ""), ("event_name", "Event / Événement", "")]


def _period_year(book: b.Book) -> None:
    book.define("period_year", "IF(ISNUMBER(period),YEAR(period),IFERROR(VALUE(LEFT(period,4)),\"\"))")


# --------------------------------------------------------------------------- FIDE


def fide() -> b.Book:
    """FIDE monthly period (SPEC 2)."""
    book, inputs, sides, work, results = _skeleton(
        "fide", "FIDE rating period",
        ("id", "name", "rating", "games", "birth_year", "ever_2400"), ("round", "player", "opponent", "result"),
        ["FIDE (SPEC 2): expected score from FIDE's table with the 400-point rule (not from 2650); K 40 for the "
         "first 30 games and, below 2300, until the end of the year of the 18th birthday, 10 once 2400 was reached, 20 otherwise, lowered so that "
         "K x games <= 700; the sum rounded, halves away from zero. Unrated players: first rating from at least 5 games against "
         "rated players with two hypothetical draws against 1800, capped at 2200, not published below 1400.",
         "Set the period (YYYY-MM) below: ages are counted in its year. No setting to switch on."],
        ["FIDE (SPEC 2) : espérance lue dans la table FIDE avec la règle des 400 points (sauf dès 2650) ; K 40 pour "
         "les 30 premières parties et, sous 2300, jusqu'à la fin de l'année des 18 ans, 10 une fois 2400 atteint, 20 sinon, abaissé "
         "pour que K x parties <= 700 ; somme arrondie, les demis en s'éloignant de zéro. Non classés : premier classement sur au "
         "moins 5 parties contre des classés, avec deux nulles fictives contre 1800, plafonné à 2200, non publié "
         "sous 1400.",
         "Indiquez la période (AAAA-MM) ci-dessous : l'âge est compté dans son année. Aucun réglage à activer."],
        _settings())
    _period_year(book)
    _lists(book)
    _common_work(inputs, work, age=True)
    work.add("ever", "ever 2400", lambda r: "=" + _yes(inputs.p("ever_2400", r)))
    _rated_sides(sides)
    sides.add("capped", "difference (400 rule)", lambda r: (
        f'=IF({sides("both", r)}=1,IF({sides("rw", r)}>={fide_rules.NO_CAP_FROM},{sides("rw", r)}-{sides("ro", r)},'
        f'MAX(-{fide_rules.DIFFERENCE_CAP},MIN({fide_rules.DIFFERENCE_CAP},{sides("rw", r)}-{sides("ro", r)}))),"")'))
    sides.add("pd", "PD x 100", lambda r: (
        f'=IF({sides("both", r)}=1,IF({sides("capped", r)}>=0,LOOKUP({sides("capped", r)},fide_lower,fide_pct),'
        f'100-LOOKUP(-{sides("capped", r)},fide_lower,fide_pct)),"")'))

    def w(name: str, r: int) -> str:
        return work(name, r)

    _period_sums(work)
    work.add("pd", "sum PD x 100", lambda r: f"=SUMIFS(s_pd,side_who,{I},s_both,1)")
    work.add("so", "sum of opponents", lambda r: f"=SUMIFS(s_ro,side_who,{I},s_both,1)")
    work.add("kbase", "K before the 700 rule", lambda r: (
        f'=IF(OR({w("games", r)}<{fide_rules.NEW_PLAYER_GAMES},AND(ISNUMBER({w("age", r)}),{w("age", r)}<={fide_rules.JUNIOR_AGE},'
        f'N({w("rating", r)})<{fide_rules.JUNIOR_RATING_LIMIT})),{fide_rules.K_NEW},IF(OR({w("ever", r)}=1,'
        f'N({w("rating", r)})>={fide_rules.K10_RATING}),{fide_rules.K_2400},{fide_rules.K_STANDARD}))'))
    work.add("k", "K", lambda r: f'=IF({w("n", r)}>0,MIN({w("kbase", r)},INT({fide_rules.K_TIMES_GAMES_MAX}/{w("n", r)})),{w("kbase", r)})')
    work.add("change", "change", lambda r: (
        f'=SIGN({w("k", r)}*(100*{w("s", r)}-{w("pd", r)}))*INT((ABS({w("k", r)}*(100*{w("s", r)}-{w("pd", r)}))+50)/100)'))
    work.add("ppct", "p x 100", lambda r: f'=IF({w("n", r)}>0,INT((400*{w("s", r)}+2*{w("n", r)})/(4*{w("n", r)})),"")')
    work.add("dp", "dp", lambda r: (
        f'=IF({w("n", r)}=0,"",IF({w("ppct", r)}>=100,{FIDE_DP_TABLE[100]},IF({w("ppct", r)}<=0,{FIDE_DP_TABLE[0]},'
        f'INDEX(dp_value,{w("ppct", r)}))))'))
    work.add("perf", "performance", lambda r: f'=IF({w("dp", r)}="","",{w("so", r)}/{w("n", r)}+{w("dp", r)})')
    work.add("son", "sum of rated opponents", lambda r: f"=SUMIFS(s_ro,side_who,{I},s_new,1)")
    work.add("ra", "Ra", lambda r: f'=({w("son", r)}+2*{fide_rules.HYPOTHETICAL_OPPONENT})/({w("nn", r)}+2)')
    work.add("npct", "p x 100 (two draws)", lambda r: f'=INT((400*{w("sn", r)}+400+2*{w("nn", r)}+4)/(4*{w("nn", r)}+8))')
    work.add("ndp", "dp (first rating)", lambda r: f'=INDEX(dp_value,{w("npct", r)})')
    work.add("enough", "enough for a first rating", lambda r: (
        f'=IF(AND({w("nn", r)}>={fide_rules.FIRST_RATING_MIN_GAMES},{w("sn", r)}>={fide_rules.FIRST_RATING_MIN_SCORE}),1,0)'))
    work.add("ru", "Ru", lambda r: f'=MIN({fide_rules.FIRST_RATING_CAP},INT({w("ra", r)}+{w("ndp", r)}+0.5))')

    def rated(r: int, yes: str, no: str) -> str:
        return f'=IF({work.ext("id", r)}="","",IF({work.ext("rated", r)}=1,{yes},{no}))'

    W = work.ext
    results.add("id", "id", lambda r: f'={W("id", r)}')
    results.add("name", "name", lambda r: f'=IF({W("id", r)}="","",{inputs.p("name", r)}&"")')
    results.add("status", "status", lambda r: rated(r, '"established"', '"unrated"'))
    results.add("rating_before", "rating_before", lambda r: rated(r, W("rating", r), '""'))
    results.add("games_rated", "games_rated", lambda r: rated(r, W("n", r), W("nn", r)))
    results.add("score", "score", lambda r: rated(r, W("s", r), W("sn", r)))
    results.add("expected", "expected", lambda r: rated(r, f'{W("pd", r)}/100', '""'))
    results.add("k", "k", lambda r: rated(r, W("k", r), '""'))
    results.add("performance", "performance", lambda r: rated(
        r, W("perf", r), f'IF({W("enough", r)}=1,{W("ra", r)}+{W("ndp", r)},"")'))
    results.add("change", "change", lambda r: rated(r, W("change", r), '""'))
    results.add("bonus", "bonus", lambda r: '=""')
    results.add("rating_after", "rating_after", lambda r: rated(
        r, f'{W("rating", r)}+{W("change", r)}',
        f'IF(AND({W("enough", r)}=1,{W("ru", r)}>={fide_rules.RATING_FLOOR}),{W("ru", r)},"")'), fill=b.RESULT_FILL)
    results.add("games_after", "games_after", lambda r: rated(
        r, f'{W("games", r)}+{W("n", r)}', f'{W("games", r)}+{W("nn", r)}'))
    results.add("ever_2400", "ever_2400", lambda r: rated(
        r, f'IF(OR({W("ever", r)}=1,{W("rating", r)}+{W("change", r)}>={fide_rules.K10_RATING}),"yes","no")',
        f'IF({W("ever", r)}=1,"yes","no")'))
    results.add("note", "note", lambda r: rated(r, '""', (
        f'IF({W("enough", r)}=0,"unrated: needs {fide_rules.FIRST_RATING_MIN_GAMES} games against rated opponents and '
        f'{fide_rules.FIRST_RATING_MIN_SCORE} points",IF({W("ru", r)}<{fide_rules.RATING_FLOOR},"below floor: not published",'
        f'"first rating: Ra "&FIXED({W("ra", r)},2,TRUE)&", p "&FIXED({W("npct", r)}/100,2,TRUE)&", dp "&{W("ndp", r)}))')))
    return finish(book)


# --------------------------------------------------------------------------- FSE


def fse() -> b.Book:
    """FSE two-month period (SPEC 3)."""
    book, inputs, sides, work, results = _skeleton(
        "fse", "FSE (Swiss) rating period",
        ("id", "name", "rating", "games", "birth_year"), ("round", "player", "opponent", "result"),
        ["FSE (SPEC 3): logistic expected score 1 / (1 + 10^((opponent - rating) / 400)); K 36 for the first 20 "
         "games and juniors under 20 rated at most 1850, 16 from 2200, 24 otherwise; the sum K x (score - expected) "
         "rounded. Games against unrated players are not rated; unrated players get no rating.",
         "Set the period (YYYY-MM) below: ages are counted in its year. No setting to switch on."],
        ["FSE (SPEC 3) : espérance logistique 1 / (1 + 10^((adversaire - classement) / 400)) ; K 36 pour les 20 "
         "premières parties et les juniors de moins de 20 ans à 1850 au plus, 16 dès 2200, 24 sinon ; la somme "
         "K x (résultat - espérance) arrondie. Les parties contre des non classés ne comptent pas.",
         "Indiquez la période (AAAA-MM) ci-dessous. Aucun réglage à activer."],
        _settings())
    _period_year(book)
    _lists(book)
    _common_work(inputs, work, age=True)
    _rated_sides(sides)
    sides.add("e", "expected", lambda r: f'=IF({sides("both", r)}=1,1/(1+10^(({sides("ro", r)}-{sides("rw", r)})/400)),"")')

    def w(name: str, r: int) -> str:
        return work(name, r)

    _period_sums(work)
    work.add("e", "sum expected", lambda r: f"=SUMIFS(s_e,side_who,{I},s_both,1)")
    work.add("k", "K", lambda r: (
        f'=IF(OR({w("games", r)}<{fse_rules.NEW_PLAYER_GAMES},AND(ISNUMBER({w("age", r)}),{w("age", r)}<{fse_rules.JUNIOR_AGE},'
        f'N({w("rating", r)})<={fse_rules.JUNIOR_RATING_LIMIT})),{fse_rules.K_NEW},IF(N({w("rating", r)})>={fse_rules.MASTER_RATING},'
        f'{fse_rules.K_MASTER},{fse_rules.K_STANDARD}))'))
    work.add("change", "change", lambda r: f'=ROUND({w("k", r)}*({w("s", r)}-{w("e", r)}),0)')

    W = work.ext

    def rated(r: int, yes: str, no: str) -> str:
        return f'=IF({W("id", r)}="","",IF({W("rated", r)}=1,{yes},{no}))'

    results.add("id", "id", lambda r: f'={W("id", r)}')
    results.add("name", "name", lambda r: f'=IF({W("id", r)}="","",{inputs.p("name", r)}&"")')
    results.add("status", "status", lambda r: rated(r, '"established"', '"unrated"'))
    results.add("rating_before", "rating_before", lambda r: rated(r, W("rating", r), '""'))
    results.add("games_rated", "games_rated", lambda r: rated(r, W("n", r), W("nn", r)))
    results.add("score", "score", lambda r: rated(r, W("s", r), W("sn", r)))
    results.add("expected", "expected", lambda r: rated(r, W("e", r), '""'))
    results.add("k", "k", lambda r: rated(r, W("k", r), '""'))
    results.add("performance", "performance", lambda r: '=""')
    results.add("change", "change", lambda r: rated(r, W("change", r), '""'))
    results.add("bonus", "bonus", lambda r: '=""')
    results.add("rating_after", "rating_after", lambda r: rated(r, f'{W("rating", r)}+{W("change", r)}', '""'),
                fill=b.RESULT_FILL)
    results.add("games_after", "games_after", lambda r: rated(
        r, f'{W("games", r)}+{W("n", r)}', f'{W("games", r)}+{W("nn", r)}'))
    results.add("note", "note", lambda r: rated(r, '""', '"no FSE rule gives a first rating"'))
    return finish(book)


# --------------------------------------------------------------------------- FQE


def fqe() -> b.Book:
    """FQE event (SPEC 4)."""
    book, inputs, sides, work, results = _skeleton(
        "fqe", "FQE (Quebec) event rating",
        ("id", "name", "rating", "games"), ("round", "player", "opponent", "result"),
        ["FQE (SPEC 4): unrated players first (performance Cm + 400 (W - L) / n, unrated opponents at 1100, half "
         "the gap added below 1200), then provisional players (24 games or fewer: weighted average of the old "
         "rating and the performance), then permanent players: 32 x (R - Rp) with Rp from the FQE table, the bonus "
         "above 24 + 2 (r - 4) from 4 games, the halving above 2300, at most +50 in a two-player match.",
         "No setting to switch on."],
        ["FQE (SPEC 4) : d'abord les joueurs sans cote (performance Cm + 400 (V - D) / n, adversaires sans cote à "
         "1100, moitié de l'écart ajoutée sous 1200), puis les cotes provisoires (24 parties ou moins : moyenne "
         "pondérée), puis les cotes permanentes : 32 x (R - Rp) avec Rp lu dans la table FQE, le boni au-delà de "
         "24 + 2 (r - 4) dès 4 parties, la division par deux au-dessus de 2300, +50 au plus dans un match.",
         "Aucun réglage à activer."],
        [("event_name", "Event / Événement", "")])
    _lists(book)
    P = inputs.p

    def w(name: str, r: int) -> str:
        return work(name, r)

    rating_columns(inputs, work, "has a rating")
    work.add("unrated", "unrated", lambda r: f'=IF(OR({w("rated", r)}=0,{w("games", r)}=0),1,0)')
    work.add("permanent", "permanent", lambda r: f'=IF(AND({w("unrated", r)}=0,{w("games", r)}>{fqe_rules.PROVISIONAL_GAMES}),1,0)')
    sides.add("seen1", "opponent for the unrated (4.3)", lambda r: (
        f'=IF($G{r}=1,IF(INDEX(w_unrated,$D{r})=1,{fqe_rules.UNRATED_OPPONENT:g},INDEX(player_rating,$D{r})),"")'))
    work.add("n", "games rated", lambda r: f"=COUNTIFS(side_who,{I},side_rated,1)")
    work.add("s", "R", lambda r: f"=SUMIFS(side_score,side_who,{I},side_rated,1)")
    work.add("wins", "W", lambda r: f"=COUNTIFS(side_who,{I},side_rated,1,side_score,1)")
    work.add("losses", "L", lambda r: f"=COUNTIFS(side_who,{I},side_rated,1,side_score,0)")
    work.add("cm1", "Cm (unrated)", lambda r: f'=IF({w("n", r)}=0,"",SUMIFS(s_seen1,side_who,{I},side_rated,1)/{w("n", r)})')
    work.add("perf1", "performance (unrated)", lambda r: f'=IF({w("n", r)}=0,"",{w("cm1", r)}+400*({w("wins", r)}-{w("losses", r)})/{w("n", r)})')
    work.add("first", "first rating", lambda r: (
        f'=IF({w("n", r)}=0,"",ROUND(IF({w("perf1", r)}<{fqe_rules.ADJUST_BELOW:g},{w("perf1", r)}+({fqe_rules.ADJUST_BELOW:g}-{w("perf1", r)})/2,'
        f'{w("perf1", r)}),0))'))
    sides.add("seen2", "opponent for the rated (4.1)", lambda r: (
        f'=IF($G{r}=1,IF(INDEX(w_unrated,$D{r})=1,INDEX(w_first,$D{r}),INDEX(player_rating,$D{r})),"")'))
    sides.add("pct", "table x 100 (4.2)", lambda r: (
        f'=IF(AND($G{r}=1,INDEX(w_permanent,$C{r})=1),IF(INDEX(player_rating,$C{r})-{sides("seen2", r)}>=0,'
        f'LOOKUP(INDEX(player_rating,$C{r})-{sides("seen2", r)},fqe_lower,fqe_pct),'
        f'100-LOOKUP({sides("seen2", r)}-INDEX(player_rating,$C{r}),fqe_lower,fqe_pct)),"")'))
    work.add("cm2", "Cm (provisional)", lambda r: f'=IF({w("n", r)}=0,"",SUMIFS(s_seen2,side_who,{I},side_rated,1)/{w("n", r)})')
    work.add("perf2", "performance (provisional)", lambda r: f'=IF({w("n", r)}=0,"",{w("cm2", r)}+400*({w("wins", r)}-{w("losses", r)})/{w("n", r)})')
    work.add("weighted", "weighted average", lambda r: (
        f'=IF(OR({w("n", r)}=0,{w("unrated", r)}=1),"",({w("games", r)}*{w("rating", r)}+{w("n", r)}*{w("perf2", r)})/({w("games", r)}+{w("n", r)}))'))
    work.add("rp", "Rp x 100", lambda r: f"=SUMIFS(s_pct,side_who,{I},side_rated,1)")
    work.add("raw", "32 (R - Rp) x 100", lambda r: f'={fqe_rules.K}*(100*{w("s", r)}-{w("rp", r)})')
    work.add("change", "change", lambda r: (
        f'=IF({w("permanent", r)}=1,SIGN({w("raw", r)})*INT((ABS({w("raw", r)})+50)/100),'
        f'IF(AND({w("unrated", r)}=0,{w("n", r)}>0),ROUND({w("weighted", r)}-{w("rating", r)},0),0))'))
    work.add("threshold", "bonus threshold", lambda r: (
        f'=IF({w("n", r)}>={fqe_rules.BONUS_MIN_GAMES},{fqe_rules.BONUS_BASE}+{fqe_rules.BONUS_STEP}*({w("n", r)}-{fqe_rules.BONUS_MIN_GAMES}),"")'))
    work.add("bonus", "bonus", lambda r: f'=IF(AND({w("permanent", r)}=1,{w("threshold", r)}<>""),MAX(0,{w("change", r)}-{w("threshold", r)}),0)')
    work.add("total", "after halving", lambda r: (
        f'=IF({w("unrated", r)}=1,"",IF({w("rating", r)}>{fqe_rules.HALVING_ABOVE:g},({w("change", r)}+{w("bonus", r)})/2,'
        f'IF({w("rating", r)}+{w("change", r)}+{w("bonus", r)}>{fqe_rules.HALVING_ABOVE:g},({fqe_rules.HALVING_ABOVE:g}-{w("rating", r)})+'
        f'({w("rating", r)}+{w("change", r)}+{w("bonus", r)}-{fqe_rules.HALVING_ABOVE:g})/2,{w("change", r)}+{w("bonus", r)})))'))
    book.define("match_event", 'COUNTIF(w_n,">0")=2')
    work.add("capped", "after the match cap", lambda r: (
        f'=IF({w("unrated", r)}=1,"",IF(match_event,MIN({w("total", r)},{fqe_rules.MATCH_CAP:g}),{w("total", r)}))'))

    W = work.ext

    def who(r: int, unrated: str, provisional: str, permanent: str, none: str | None = None) -> str:
        body = (f'IF({W("unrated", r)}=1,{unrated},IF({W("permanent", r)}=1,{permanent},{provisional}))')
        if none is not None:
            body = f'IF({W("n", r)}=0,{none},{body})'
        return f'=IF({W("id", r)}="","",{body})'

    status = '"unrated"', '"provisional"', '"permanent"'
    results.add("id", "id", lambda r: f'={W("id", r)}')
    results.add("name", "name", lambda r: f'=IF({W("id", r)}="","",{P("name", r)}&"")')
    results.add("status", "status", lambda r: who(r, *status))
    results.add("rating_before", "rating_before", lambda r: f'=IF({W("id", r)}="","",{W("rating", r)})')
    results.add("games_rated", "games_rated", lambda r: f'=IF({W("id", r)}="","",{W("n", r)})')
    results.add("score", "score", lambda r: f'=IF({W("id", r)}="","",{W("s", r)})')
    results.add("expected", "expected", lambda r: who(r, '""', '""', f'{W("rp", r)}/100', '""'))
    results.add("k", "k", lambda r: who(r, '""', '""', str(fqe_rules.K), '""'))
    results.add("performance", "performance", lambda r: who(r, W("perf1", r), W("perf2", r), '""', '""'))
    results.add("change", "change", lambda r: who(r, '""', W("change", r), W("change", r), '""'))
    results.add("bonus", "bonus", lambda r: who(r, '""', W("bonus", r), W("bonus", r), '""'))
    results.add("rating_after", "rating_after", lambda r: who(
        r, W("first", r), f'ROUND({W("rating", r)}+{W("capped", r)},0)', f'ROUND({W("rating", r)}+{W("capped", r)},0)',
        W("rating", r)), fill=b.RESULT_FILL)
    results.add("games_after", "games_after", lambda r: f'=IF({W("id", r)}="","",{W("games", r)}+{W("n", r)})')
    results.add("status_after", "status_after", lambda r: who(
        r, *[f'IF({W("games", r)}+{W("n", r)}>{fqe_rules.PROVISIONAL_GAMES},"permanent","provisional")'] * 3,
        none=f'IF({W("unrated", r)}=1,"unrated",IF({W("permanent", r)}=1,"permanent","provisional"))'))
    results.add("wins", "wins", lambda r: who(r, W("wins", r), W("wins", r), W("wins", r), '""'))
    results.add("losses", "losses", lambda r: who(r, W("losses", r), W("losses", r), W("losses", r), '""'))
    results.add("cm", "cm", lambda r: who(r, W("cm1", r), W("cm2", r), '""', '""'))
    results.add("threshold", "threshold", lambda r: who(r, '""', '""', W("threshold", r), '""'))
    results.add("halving", "halving", lambda r: who(
        r, '""', f'{W("change", r)}+{W("bonus", r)}-{W("total", r)}', f'{W("change", r)}+{W("bonus", r)}-{W("total", r)}', '""'))
    results.add("match_cap", "match_cap", lambda r: who(
        r, '""', f'{W("total", r)}-{W("capped", r)}', f'{W("total", r)}-{W("capped", r)}', '""'))
    return finish(book)
