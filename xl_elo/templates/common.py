"""What every template's spec shares: the input columns and their checks, the sides sheet, the
work columns every federation starts from.

The checks are formulas over ``[x]`` (the cell checked) that give "" or the reason the cell is
refused, as ``column: English / français; ``. They refuse what xl-elo's reader refuses
(:mod:`xl_elo.schema`, rules 8), so a workbook and ``xl-elo rate`` give the same verdict on
every input: a number must be a number (not text), within its range and whole where the rules
say so; an id must be on the players sheet spelled exactly the same; a result must be one of
the accepted spellings (spaces and case aside); a pair meets once in a round.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from xl_elo import schema
from xl_elo.core import MAX_RATING
from xl_elo.model import MAX_GAMES_PER_PLAYER
from xl_elo.templates.spec import FIRST, Capacity, Col, Input, ResultCol, Setting, Sheet
from xl_elo.words import F, Translated, _, heading, text_formula, translate


def problem_heading() -> str:
    """The heading of an input sheet's problem column, in the language of the work."""
    return _("problem")

if TYPE_CHECKING:
    from xl_elo.federations.contract import RatingSystem

POS = "(ROW()-1)"
"""A work row's player position (the players sheet's row - 1)."""

NBSP = "_xlfn.UNICHAR(160)"
#: The period's year (typed in the settings), or the validation's last year when no period is given: never
#: TODAY(), which a spreadsheet recalculates after every typed cell.
PERIOD_YEAR_OR_LAST = "IF(ISNUMBER(period_year),period_year,2200)"


def blank(x: str) -> str:
    """A cell that holds nothing but spaces (non-breaking ones too) is blank, as the reader strips them."""
    return f'LEN(TRIM(SUBSTITUTE({x}&"",{NBSP}," ")))=0'


def text_of(x: str) -> str:
    """A cell as the reader's text: spaces around it removed."""
    return f'TRIM(SUBSTITUTE({x}&"",{NBSP}," "))'


def reason(column: str, words: str) -> str:
    """The words of a refusal as the problem cell shows them: the column's heading, the reason (English, said in the
    language of the work; an English text the command line writes is read back into its phrase)."""
    said = words if isinstance(words, Translated) else _translated(words)
    return text_formula("{column}: {reason}; ", column=heading(column), reason=said)


def _translated(words: str) -> str:
    """A template's phrase, or the command line's English read back into its phrase (:func:`xl_elo.words.translate`)."""
    return translate(words) if "{" not in words and translate(words) != words else _(words)


def guard(column: str, body: str, *, formula_ok: bool = False) -> str:
    """Errors, formulas typed into an input cell and blank cells first; then ``body``."""
    err = reason(column, "a spreadsheet error")
    typed = reason(column, "a formula: type the value itself")
    inner = f'IF({blank("[x]")},"",{body})'
    if not formula_ok:
        inner = f"IF(_xlfn.ISFORMULA([x]),{typed},{inner})"
    return f"IF(ISERROR([x]),{err},{inner})"


#: The marks a check writes for "this cell's text, diagnosed" (see :func:`text_diagnosis`): the builder gives
#: each input that uses one a hidden helper column computing it once per row.
TEXT_MARKS: dict[str, bool] = {"[x_text]": False, "[x_wholetext]": True}


def digit_count(s: str) -> str:
    """How many of a text's characters are digits."""
    return f'SUMPRODUCT(LEN({s})-LEN(SUBSTITUTE({s},{{"0","1","2","3","4","5","6","7","8","9"}},"")))'


def text_diagnosis(whole: bool) -> str:
    """What a number typed as text is, as xl-elo's reader says it (:func:`xl_elo.schema.number`): ``T:1810``
    (a thousands separator: ``1 810``), ``C:1810.5`` (a decimal comma: ``1810,5``), ``X`` (other text); "" for
    a cell that is not text. One formula over ``[x]``, computed once per row in a hidden column."""
    t = text_of("[x]")
    d = f'SUBSTITUTE(SUBSTITUTE(SUBSTITUTE(SUBSTITUTE({t}," ",""),".",""),",",""),"\'","")'
    groups = f"INT((LEN({d})-1)/3)"
    thousands = (f'AND(LEN({d})>3,{digit_count(d)}=LEN({d}),LEN({t})-LEN({d})={groups},LEFT({t},1)<>"0",'
                 f'ISNUMBER(FIND(MID({t},LEN({t})-3,1)," .,\'")))')
    if not whole:  # 1.850 or 1,850 is a number with decimals there (the reader's rule)
        thousands = (f'AND({thousands},NOT(AND(LEN({t})-LEN({d})=1,OR(ISNUMBER(FIND(".",{t})),'
                     f'ISNUMBER(FIND(",",{t}))))))')
    comma = (f'AND(LEN({t})-LEN(SUBSTITUTE({t},",",""))=1,{digit_count(t)}=LEN({t})-1,LEFT({t},1)<>",",'
             f'RIGHT({t},1)<>",")')
    return f'=IF(ISTEXT([x]),IF({thousands},"T:"&{d},IF({comma},"C:"&SUBSTITUTE({t},",","."),"X")),"")'


def two_ways(column: str, low: Any, high: Any, w: str, *, whole: bool, rating: bool) -> tuple[str, str]:
    """A text cell that reads two ways (``1,850``: a point or a comma before exactly three digits, rules 1.4) and
    the reader's words for it (:func:`xl_elo.schema.two_readings`), in the language of the work: (the condition,
    the words). Refused where the reading with a thousands separator is a value of the column."""
    t = text_of("[x]")
    sep = f"MID({t},LEN({t})-3,1)"
    d = f'SUBSTITUTE(SUBSTITUTE({t},".",""),",","")'
    shape = (f'AND(LEN({t})>=5,LEN({t})<=7,OR({sep}=".",{sep}=","),LEN({d})=LEN({t})-1,{digit_count(d)}=LEN({d}),'
             f'LEFT({t},1)<>"0")')
    grouped = f"VALUE({d})"
    whole_part, frac = f"LEFT({t},LEN({t})-4)", f"RIGHT({t},3)"
    other = f"(VALUE({whole_part})+VALUE({frac})/1000)"
    shown = (f'{whole_part}&IF({frac}="000","","."&IF(RIGHT({frac},2)="00",LEFT({frac},1),IF(RIGHT({frac},1)="0",'
             f'LEFT({frac},2),{frac})))')
    conditions = [f"{other}>={low}", f"{other}<={high}"]
    if whole:
        conditions.append(f'{frac}="000"')
    if rating:
        conditions.append(f'NOT(AND({other}<{schema.RATING_FRACTION_BELOW},{frac}<>"000"))')
    other_ok = f"AND({','.join(conditions)})"
    when = f"IFERROR(AND(ISTEXT([x]),{shape},{grouped}>={low},{grouped}<={high}),FALSE)"
    write = f'IF({other_ok},{text_formula("{grouped} or {other}", grouped=F(d), other=F(shown))},{d})'
    separator = f'IF({sep}=",",{text_formula("comma")},{text_formula("point")})'
    said = text_formula("{value} reads two ways, {grouped} with a thousands separator or {other} with a decimal "
                        "{separator} (expected {what}: write {write})", value=F(f'"\'"&{t}&"\'"'), grouped=F(d),
                        other=F(shown), separator=F(separator), what=w, write=F(write))
    return when, f'{_head(column)}&{said}&"; "'


def lost_thousands(column: str, w: str) -> tuple[str, str]:
    """A rating below 10 with decimals (rules 1.4): the condition and the reader's words
    (:func:`xl_elo.schema.lost_thousands`), in the language of the work."""
    below = schema.RATING_FRACTION_BELOW
    when = f"AND([x]>0,[x]<{below},[x]<>INT([x]))"
    thousand = "ROUND([x]*1000,6)"
    write = f'IF({thousand}=INT({thousand}),{text_formula(": write {n}", n=F("ROUND([x]*1000,0)"))},"")'
    said = text_formula("{value} is no rating (none is below {below} with decimals): a thousands separator read as "
                        "a decimal one? 1,850 typed where the comma is the decimal separator makes 1.85 (expected "
                        "{what}{write})", value=F("[x]"), below=below, what=w, write=F(write))
    return when, f'{_head(column)}&{said}&"; "'


def number_check(column: str, low: Any, high: Any, en: str = "", *, whole: bool = True,
                 what: str | None = None, what_formula: str | None = None, rating: bool = False,
                 also: tuple[str, str] | None = None) -> str:
    """A number from ``low`` to ``high`` (whole when ``whole``), typed as a number, not as text; each refusal in
    the words of xl-elo's reader (:func:`xl_elo.schema.number`), in the language of the work: ``what`` is what the
    reader expects (``a rating: a whole number from 0 to 3500 ...``; by default ``a whole number from low to high``,
    or ``en``), or ``what_formula`` a formula giving it (a year that depends on the period). ``rating``: a rating,
    never below 10 with decimals (rules 1.4). ``also``: a system's own refusal of a number in range, (condition,
    words: a text formula)."""
    w: str
    if what_formula is not None:
        w = F(what_formula)
    elif what is not None:
        w = translate(what) if not isinstance(what, Translated) else what
    elif whole:
        w = _("a whole number from {low} to {high}", low=low, high=high)
    else:
        w = _(en)
    t = text_of("[x]")
    h = "[x_wholetext]" if whole else "[x_text]"
    k = f'FIND(LEFT({h},1),"TCX")'
    value = F(f'"\'"&{t}&"\'"')
    plain = F(f"MID({h},3,99)")
    said = [text_formula("{value} has a thousands separator (expected {what}: write {plain})", value=value, what=w,
                         plain=plain),
            text_formula("{value} has a decimal comma, so it is text (expected {what}: write {plain})", value=value,
                         what=w, plain=plain),
            text_formula("{value} is text, not a number (expected {what}: type the number itself, or format the cell "
                         "as a number)", value=value, what=w)]
    text = f'{_head(column)}&CHOOSE({k},{",".join(said)})&"; "'
    low_, high_ = schema.DATE_NUMBERS
    is_date = f"AND([x]>={low_},[x]<={high_},[x]=INT([x]))"
    date = F('YEAR([x])&"-"&TEXT(MONTH([x]),"00")&"-"&TEXT(DAY([x]),"00")')
    a_date = text_formula("{date} is a date, not a number (expected {what})", date=date, what=w)
    out_of_range = text_formula("{value} is out of range (expected {what})", value=F("[x]"), what=w)
    out = f'{_head(column)}&IF({is_date},{a_date},{out_of_range})&"; "'
    fraction = (f'{_head(column)}&'
                f'{text_formula("{value} is not a whole number (expected {what})", value=F("[x]"), what=w)}&"; "')
    not_number = f'{_head(column)}&{text_formula("not {what}", what=w)}&"; "'
    two, two_words = two_ways(column, low, high, w, whole=whole, rating=rating)
    rest = f'IF([x]<>INT([x]),{fraction},"")' if whole else '""'
    if also:
        rest = f"IF({also[0]},{also[1]},{rest})"
    if rating:
        lost, lost_words = lost_thousands(column, w)
        rest = f"IF({lost},{lost_words},{rest})"
    body = (f'IF(ISTEXT([x]),IF({two},{two_words},{text}),IF(NOT(ISNUMBER([x])),{not_number},'
            f'IF(OR([x]<{low},[x]>{high}),{out},{rest})))')
    return guard(column, body)


def _head(column: str) -> str:
    """The start of a problem's words: its column's heading."""
    return text_formula("{column}: ", column=heading(column))


def rating_check(column: str = "rating", what: str = schema.RATING_HELP) -> str:
    return number_check(column, 0, MAX_RATING, what=what, rating=True)


def yes_no_check(column: str) -> str:
    bad = reason(column, "yes or no")
    key = f"LOWER({text_of('[x]')})"
    body = (f'IF(ISLOGICAL([x]),"",IF(ISNUMBER([x]),IF(OR([x]=0,[x]=1),"",{bad}),'
            f'IF(ISNA(MATCH({key},yes_no_key,0)),{bad},"")))')
    return guard(column, body)


def yes_value(x: str) -> str:
    """A yes/no cell as 1 or 0 (blank: 0), by the reader's spellings (rules 8)."""
    return (f'IF(ISLOGICAL({x}),--{x},IF(ISNUMBER({x}),{x},IFERROR(INDEX(yes_no_value,MATCH(LOWER({text_of(x)}),'
            f'yes_no_key,0)),0)))')


def wildcard(x: str) -> str:
    return f'OR(ISNUMBER(FIND("*",{x}&"")),ISNUMBER(FIND("?",{x}&"")),ISNUMBER(FIND("~",{x}&"")))'


def id_check() -> str:
    """A players row's id: present, unique (case aside: a spreadsheet's look-ups ignore it), no wildcard."""
    twice = reason("id", "twice, or differs from another only by case")
    stars = reason("id", "holds * ? or ~ (spreadsheet wildcards)")
    missing = reason("id", "missing")
    body = (f'IF({wildcard("[x]")},{stars},IF(SUMPRODUCT(--(w_key={text_of("[x]")}))>1,{twice},""))')
    return ("IF(ISERROR([x])," + reason("id", "a spreadsheet error") +
            f',IF({blank("[x]")},{missing},{body}))')


def player_ref_check(column: str, *, optional: bool) -> str:
    """A games row's player or opponent: an id of the players sheet, spelled exactly as there."""
    t = text_of("[x]")
    found = f"MATCH({t},w_key,0)"
    unknown = reason(column, "unknown id (not on the players sheet)")
    stars = reason(column, "holds * ? or ~")
    spelled = text_formula("spelled {id} on the players sheet (case counts)", id=F(f"INDEX(w_key,{found})"))
    case = f'{_head(column)}&{spelled}&"; "'
    missing = '""' if optional else reason(column, "missing")
    body = f'IF({wildcard("[x]")},{stars},IF(ISNA({found}),{unknown},IF(EXACT(INDEX(w_key,{found}),{t}),"",{case})))'
    return ("IF(ISERROR([x])," + reason(column, "a spreadsheet error") +
            f",IF({blank('[x]')},{missing},{body}))")


def result_key(x: str) -> str:
    """A result's spelling as the reader looks it up: no spaces (non-breaking, tabs), lower case (rules 1.1)."""
    return f'LOWER(SUBSTITUTE(SUBSTITUTE(SUBSTITUTE({x}&""," ",""),{NBSP},""),CHAR(9),""))'


def as_time(x: str) -> str:
    """A number cell read as a time of day, in whole minutes: what a spreadsheet makes of ``1:0`` typed."""
    return f"MATCH(ROUND({x}*1440,6),result_time,0)"


def is_date(x: str) -> str:
    """A number cell that holds a date from 2000 to 2099 (what a spreadsheet makes of 1/2 or 2026-10 typed)."""
    low, high = schema.DATE_NUMBERS
    return f"AND({x}>={low},{x}<={high},{x}=INT({x}))"


def iso_date(x: str) -> str:
    """A date cell as the reader writes it: YYYY-MM-DD."""
    return f'YEAR({x})&"-"&TEXT(MONTH({x}),"00")&"-"&TEXT(DAY({x}),"00")'


def result_check() -> str:
    bad = reason("result", "not a result (1, 0.5, 0, 1-0, =, W/D/L, +, -, F, bye ...)")
    a_date = text_formula("{date} {why}", date=F(iso_date("[x]")), why=translate(schema.DATE_RESULT))
    date = f'{_head("result")}&{a_date}&"; "'
    body = (f'IF(ISNUMBER([x]),IF(OR([x]=1,[x]=0.5,[x]=0),"",IF(ISNA({as_time("[x]")}),IF({is_date("[x]")},{date},'
            f'{bad}),"")),'
            f'IF(ISLOGICAL([x]),{bad},'
            f'IF({wildcard("[x]")},{bad},IF(ISNA(MATCH({result_key("[x]")},result_key,0)),{bad},""))))')
    # with a blank opponent the row is a bye whatever its result says (rules 1.1): not checked
    return f'IF({blank("[opponent]")},"",{guard("result", body)})'


def period_key(x: str) -> str:
    """A game's period's sort key from its text (``2026-11`` -> 20261100, ``2026-11-05`` -> 20261105, blank -> 0;
    anything else -1): the order of its name, as the engine sorts them (rules 12.7, 14.2)."""
    t = text_of(x)
    rest = f"MID({t},6,99)"
    dash = f'FIND("-",{rest}&"-")'
    month = f"--LEFT({rest},{dash}-1)"
    day = f'IF(LEN({rest})>={dash},--MID({rest},{dash}+1,99),0)'
    return f'IF({blank(x)},0,IFERROR(--LEFT({t},4)*10000+{month}*100+{day},-1))'


def period_check() -> str:
    """A game's period: a month YYYY-MM or a date YYYY-MM-DD typed as text (as the reader reads it, in its words:
    :func:`xl_elo.schema.period`; rules 14.1)."""
    t = text_of("[x]")
    bad = (_head("period") + "&" + text_formula(
        "{value} is not a month (expected {what} as YYYY-MM, e.g. 2026-10)", value=F(f'"\'"&{t}&"\'"'),
        what=_("the game's period")) + '&"; "')
    date = reason("period", "a date cell: type the period as text (YYYY-MM)")
    key = period_key("[x]")
    y, m, d = f"INT({key}/10000)", f"MOD(INT({key}/100),100)", f"MOD({key},100)"
    real = (f"AND(LEFT({text_of('[x]')},5)={y}&\"-\",{y}>=1900,{y}<=2200,{m}>=1,{m}<=12,"
            f"OR({d}=0,DAY(DATE({y},{m},MAX(1,{d})))={d}))")
    return guard("period", f'IF(ISNUMBER([x]),{date},IF({key}<0,{bad},IF(IFERROR({real},FALSE),"",{bad})))')


# --------------------------------------------------------------------------- the input columns


def player_inputs(*names: str, own: Sequence[Input] = ()) -> list[Input]:
    """The players sheet's columns (rules 8) every system shares, each with its check and validation,
    then the system's own (``own``: its template spec declares them)."""
    defs: dict[str, Input] = {
        "id": Input("id", "Id: unique, required", 14, id_check()),
        "name": Input("name", "Name", 28, None),
        "rating": Input("rating", "Rating before (blank: unrated)", 10,
                        rating_check(), ("whole", 0, MAX_RATING)),
        "games": Input("games", "Rated games before", 9,
                       number_check("games", 0, schema.MAX_GAMES), ("whole", 0, schema.MAX_GAMES)),
        "birth_year": Input("birth_year", "Year of birth", 10,
                            number_check("birth_year", schema.FIRST_BIRTH_YEAR, PERIOD_YEAR_OR_LAST,
                                         what_formula=text_formula(
                                             "a year of birth from {first} to {last}", first=schema.FIRST_BIRTH_YEAR,
                                             last=F('IF(ISNUMBER(period_year),' + text_formula(
                                                 "{year} (the period's year)", year=F("period_year")) + ',"2200")'))),
                            ("whole", schema.FIRST_BIRTH_YEAR, 2200)),
    }
    return [defs[n] for n in names] + list(own)


def yes_no_input(name: str, title: str, width: float) -> Input:
    """A yes/no column of the players sheet (a system's own fact)."""
    return Input(name, title, width, yes_no_check(name), ("list", '"yes,no"'))


def game_inputs(*names: str) -> list[Input]:
    """The games sheet's columns (rules 8) every system shares, each with its check (a system's own facts of a
    game are its template spec's inputs, placed among these)."""
    defs: dict[str, Input] = {
        "round": Input("round", "Round", 7,
                       number_check("round", 1, schema.MAX_ROUND, f"a whole number from 1 to {schema.MAX_ROUND}",
                                    what=f"the round number, from 1 to {schema.MAX_ROUND}"),
                       ("whole", 1, schema.MAX_ROUND)),
        "player": Input("player", "Player (id)", 14, player_ref_check("player", optional=False),
                        ("list", "player_id")),
        "opponent": Input("opponent", "Opponent (id; blank: bye)", 14,
                          player_ref_check("opponent", optional=True)
                          + '&IF(AND(NOT(' + blank("[opponent]") + '),' + text_of("[opponent]") + '=' +
                          text_of("[player]") + '),' + reason("opponent", "the player himself")
                          + ',"")', ("list", "player_id")),
        "result": Input("result", "Result, first player's side", 9, result_check()),
        "rated": Input("rated", "Rated: yes (default) or no", 8,
                       yes_no_check("rated"), ("list", '"yes,no"')),
    }
    return [defs[n] for n in names]


def history_inputs() -> list[Input]:
    return [
        Input("id", "Player (id)", 14, player_ref_check("id", optional=False)),
        Input("opponent_rating", "Opponent's rating as used", 14,
              rating_check("opponent_rating", schema.COUNTED_RATING_HELP) + "&IF(" + blank("[opponent_rating]") + "," +
              reason("opponent_rating", "missing") + ',"")'),
        Input("result", "Result (1, 0.5, 0)", 10,
              guard("result", 'IF(ISNUMBER([x]),IF(OR([x]=1,[x]=0.5,[x]=0),"",{b}),IF(ISNA(MATCH({k},result_key,0)),'
                               '{b},IF(INDEX(result_kind,MATCH({k},result_key,0))<>"played",{b},"")))'.format(
                                   b=reason("result", "a played game's result: 1, 0.5 or 0"),
                                   k=result_key("[x]")))
              + "&IF(" + blank("[result]") + "," + reason("result", "missing") + ',"")'),
    ]


def game_checks(pair: str = "pair") -> list[str]:
    """A games row's problems beyond its own cells: the same pair twice in one round (rules 8), flagged on the
    later row, which names the first, in the reader's words (one problem, as ``xl-elo rate`` counts it). ``pair``:
    the sides' column that keys a pair (``ppair``: in a round of a period, a season's games naming theirs, 14.1)."""
    first = f"MATCH([sides:{pair}],side_{pair},0)"
    when = (f'IF(ISNUMBER([games:round]),{text_formula("round {round}", round=F("[games:round]"))},'
            f'{text_formula("the same round (no round number: give one)")})')
    if pair != "pair":  # a round is a round of its period (rules 14.1)
        period = text_of("[games:period]")
        when = (f'{when}&IF(LEN({period})=0,"",{text_formula(" of the period {period}", period=F(period))})')
    twice = (_head("player") + "&" + text_formula(
        "{player} and {opponent} meet twice in {when} (also at row {row}); enter each game once",
        player=F('"\'"&[sides:me]&"\'"'), opponent=F('"\'"&[sides:other]&"\'"'), when=F(when),
        row=F(f"{first}+{FIRST - 1}")) + '&"; "')
    return [f'IF([sides:{pair}]="","",IF({first}<ROW()-{FIRST - 1},{twice},""))']


def player_checks() -> list[str]:
    """A players row's problems beyond its own cells (rules 8): too many games for one event, a rated
    player's games left blank (never guessed: K and the provisional status hang on it)."""
    many = reason("id", _("more than {count} rated games in one event (a column pasted twice?)",
                          count=MAX_GAMES_PER_PLAYER))
    no_games = reason("games", "blank for a rated player: give his rated games before this event (0 only for a "
                               "player never rated)")
    return [f'IF(COUNTIFS(side_who,{POS},side_counts,1)>{MAX_GAMES_PER_PLAYER},{many},"")',
            f'IF(AND(ISNUMBER([players:rating]),{blank("[players:games]")}),IF([players:rating]<>0,{no_games},""),"")']


# --------------------------------------------------------------------------- settings


def period_setting(required: bool, uses: str | None = None) -> Setting:
    """The period YYYY-MM (FIDE, FSE: required, ages count in its year; rules 2.3, 3.2); ``uses``: what an
    optional one sets beside the results' heading."""
    x = "[x]"
    good_month = (f'AND(LEN({x})>=6,LEN({x})<=7,MID({x},5,1)="-",ISNUMBER(--LEFT({x},4)),ISNUMBER(--MID({x},6,2)),'
                  f'IFERROR(AND(--LEFT({x},4)>=1900,--LEFT({x},4)<=2200,--MID({x},6,2)>=1,--MID({x},6,2)<=12,'
                  f'INT(--MID({x},6,2))=--MID({x},6,2),INT(--LEFT({x},4))=--LEFT({x},4)),FALSE))')
    good_date = (f'AND(LEN({x})=10,MID({x},5,1)="-",MID({x},8,1)="-",IFERROR(AND(YEAR(DATE(LEFT({x},4),MID({x},6,2),'
                 f'RIGHT({x},2)))=--LEFT({x},4),MONTH(DATE(LEFT({x},4),MID({x},6,2),RIGHT({x},2)))=--MID({x},6,2),'
                 f'DAY(DATE(LEFT({x},4),MID({x},6,2),RIGHT({x},2)))=--RIGHT({x},2)),FALSE))')
    bad = text_formula("period: not a month YYYY-MM (e.g. 2026-10)")
    empty = text_formula("period: blank, required (YYYY-MM: ages count in its year)") if required else '""'
    check = (f'IF(ISERROR({x}),{bad},IF({blank(x)},{empty},IF(ISNUMBER({x}),IF(AND(YEAR({x})>=1900,YEAR({x})<=2200),'
             f'"",{bad}),IF(OR({good_month},{good_date}),"",{bad}))))')
    help_ = _("Required: the month rated, as YYYY-MM (ages count in its year; a birth year after it is refused)") \
        if required else _("The month or date ({uses})", uses=_(uses or "shown on the results"))
    return Setting("period", "Period (YYYY-MM)", "", check=check, help=help_)


def option_settings(module: RatingSystem) -> list[Setting]:
    """One setting per field of the federation's Options, its default and choices (rules: the field's source).

    The workbook names them ``opt_<field>`` (a name like ``match`` would read as a spreadsheet function)."""
    from dataclasses import fields

    out = []
    for f in fields(module.Options):
        choices = tuple(f.metadata.get("choices") or ())
        bad = text_formula("{name}: one of {choices}", name=f.name, choices=", ".join(map(str, choices))) \
            if choices else '""'
        empty = text_formula("{name}: blank (the default is {default})", name=f.name, default=f.default)
        if choices:
            test = " ,".join(f'LOWER(TRIM([x]&""))="{c}"' for c in choices).replace(" ,", ",")
            check = f'IF(ISERROR([x]),{bad},IF({blank("[x]")},{empty},IF(OR({test}),"",{bad})))'
        else:
            check = (f'IF(ISERROR([x]),{empty},IF({blank("[x]")},{empty},IF(ISNUMBER(--[x]),"",'
                     f'{text_formula("{name}: a number", name=f.name)})))')
        help_ = f.metadata.get("help", "")
        out.append(Setting(f"opt_{f.name}", f"{f.name} ({f.metadata.get('source', '')})", f.default, choices, check,
                           Translated(translate(help_)) if help_ else ""))
    return out


def event_setting() -> Setting:
    return Setting("event_name", "Event", "", help="Shown on the results")


# --------------------------------------------------------------------------- the sides sheet


def sides_sheet(cap: Capacity, *, rated: str | None = None, round_rules: str = "8",
                own: Callable[[list[tuple[int, int]], int], list[Col]] | None = None) -> Sheet:
    """Every game seen from both players (rules 1.1): side k is game k from its player's side,
    side G + k the same game from its opponent's side. Per-player sums are SUMIFS over sides.

    ``rated``: the rules section by which the organiser's ``rated`` column says whether a game is rated (the
    template offers that column; FESA 6.8); ``round_rules``: the section that takes games in round order;
    ``own``: the system's own columns of a side (its facts of a game: FESA's handicap), after the common ones,
    given the rows of the two halves (the games from the first player's side, then the opponent's) and the
    last row of the first."""
    _g_first, g_last = FIRST, FIRST + cap.games - 1
    s_last = FIRST + cap.sides - 1
    halves = [(FIRST, g_last), (g_last + 1, s_last)]

    def game_row(r: int) -> int:
        return FIRST + (r - FIRST) % cap.games

    def half(first: str, second: str) -> Any:
        return lambda r: first if r <= g_last else second

    width = cap.players + 1  # a player's position is below it
    sheet = Sheet("sides", "side_", FIRST, s_last, links={"games": game_row},
                  leading=[("side", lambda r: r - FIRST + 1), ("game_row", game_row)])
    me = half("[games:player]", "[games:opponent]")
    other = half("[games:opponent]", "[games:player]")
    sheet.add(
        Col("me", "player's id", lambda r: f'=IF({blank(me(r))},"",{text_of(me(r))})', "8",
            blocks=halves),
        Col("other", "opponent's id", lambda r: f'=IF(OR({blank("[games:player]")},{blank("[games:opponent]")}),"",'
                                                f'{text_of(other(r))})', "8", blocks=halves),
        Col("who", "player (position)", '=IF([me]="","",IFERROR(MATCH([me],w_key,0),0))', "8"),
        Col("opp", "opponent (position)", '=IF([other]="","",IFERROR(MATCH([other],w_key,0),0))', "8"),
        Col("key", "result spelling", f'=IF(ISNUMBER([games:result]),"",{result_key("[games:result]")})', "1.1"),
        Col("kind", "played, forfeit, bye ...",
            f'=IF({blank("[games:player]")},"",IF({blank("[games:opponent]")},"bye",IF(ISERROR([games:result]),'
            f'"not a result",IF({blank("[games:result]")},"not played",IF(ISNUMBER([games:result]),'
            f'IF(OR([games:result]=1,[games:result]=0.5,[games:result]=0),"played",'
            f'IFERROR(INDEX(result_time_kind,{as_time("[games:result]")}),"not a result")),'
            f'IFERROR(INDEX(result_kind,MATCH([key],result_key,0)),"not a result"))))))', "1.1"),
        Col("score", "score of this side",
            lambda r: '=IF([kind]<>"played","",' + ("" if r <= g_last else "1-") +
                      'IF(ISNUMBER([games:result]),IF(OR([games:result]=1,[games:result]=0.5,[games:result]=0),'
                      f'[games:result],INDEX(result_time_score,{as_time("[games:result]")})),'
                      'INDEX(result_score,MATCH([key],result_key,0))))',
            "1.1", blocks=halves),
        *([Col("flag", "the organiser rates it (column rated)",
                f'=IF({blank("[games:rated]")},1,{yes_value("[games:rated]")})', rated)]
          if rated else []),
        Col("counts", "rated (1/0)",
            '=IF(AND([kind]="played",N([who])>0,N([opp])>0' + (",[flag]=1" if rated else "") + '),1,0)',
            rated or "1.1"),
        Col("round", "round", '=IF(ISNUMBER([games:round]),[games:round],0)', round_rules),
        Col("pair", "round and pair as one number (first side only)",
            lambda r: (f'=IF(OR(N([who])<1,N([opp])<1),"",([round]*{width}+MIN([who],[opp]))*{width}+MAX([who],[opp]))'
                       if r <= g_last else '=""'),
            "8", blocks=halves),
    )
    if own is not None:
        sheet.add(*own(halves, g_last))
    return sheet


def work_sheet(cap: Capacity) -> Sheet:
    """The per-player sheet: one row per player, in the players sheet's order."""
    return Sheet("work", "w_", FIRST, FIRST + cap.players - 1)


def key_columns() -> list[Col]:
    """The player's id as the look-ups read it (spaces around removed) and whether he has a rating."""
    return [
        Col("key", "id", f'=IF({blank("[players:id]")},"",{text_of("[players:id]")})', "8"),
        Col("rated", "has a rating (0 is unrated)",
            '=IF(AND([key]<>"",ISNUMBER([players:rating])),IF([players:rating]<>0,1,0),0)',
            "8"),
        Col("rating", "rating before", '=IF([rated]=1,[players:rating],"")', "1.4", fmt="0"),
        Col("games", "games before", '=IF(ISNUMBER([players:games]),[players:games],0)', "8", fmt="0"),
    ]


def rank_column(after: str = "res_rating_after") -> Col:
    """Rank by new rating for the results sheet (unrated last, ties in the players sheet's order)."""
    return Col("rank", "rank on the results sheet",
               '=IF([key]="","",COUNTIF(w_sortkey,">"&[sortkey])+COUNTIFS(w_sortkey,[sortkey],w_pos,"<"&[pos])+1)',
               "8")


def sort_columns(after: str = "res_rating_after") -> list[Col]:
    return [
        Col("pos", "position", f"={POS}", "8"),
        # rounded to 9 decimals: COUNTIF compares with the text of its criterion, 15 digits, so two ratings apart in
        # their 16th digit would take one rank and one player would be dropped from the results
        Col("sortkey", "sort key (new rating, to 9 decimals)",
            f'=IF([key]="","",IF(ISNUMBER([{after}]),ROUND([{after}],9),-1))', "8"),
        rank_column(after),
    ]


def results_layout(*extra: ResultCol) -> list[ResultCol]:
    """The results sheet's columns: what a club prints, then the intermediates (rules 8)."""
    return [
        ResultCol("id", "Id", width=12),
        ResultCol("name", "Name", width=26),
        ResultCol("status", "Status", width=12),
        ResultCol("rating_before", "Rating before", "0", 10),
        ResultCol("games_rated", "Games", "0", 7),
        ResultCol("score", "Score", "0.0", 7),
        ResultCol("expected", "Expected", "0.00", 9),
        ResultCol("k", "K", "0", 5),
        ResultCol("performance", "Performance", "0", 11),
        ResultCol("change", "Change", "+0;-0;0", 9),
        ResultCol("rating_after", "New rating", "0", 10),
        ResultCol("games_after", "Games after", "0", 8),
        *extra,
        ResultCol("bonus", "bonus", printed=False),
    ]
