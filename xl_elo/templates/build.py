"""Build the template workbooks (one per federation) and the published-tables workbook."""

from __future__ import annotations

import io
import os
import re
import zipfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from openpyxl.styles import Alignment, Font
from openpyxl.utils import quote_sheetname
from openpyxl.worksheet.worksheet import Worksheet

from xl_elo.templates import book as b
from xl_elo.templates.book import FIRST, LAST_GAME, LAST_HISTORY, LAST_PLAYER, LAST_SIDE, MAX_PLAYERS, Book, col

# --------------------------------------------------------------------------- column helpers


class Columns:
    """Computed columns of one sheet, each named ``prefix + name`` over its data rows."""

    def __init__(self, book: Book, ws: Worksheet, prefix: str, first: int, last: int, start: int = 1):
        self.book, self.ws, self.prefix = book, ws, prefix
        self.first, self.last = first, last
        self.next = start
        self.columns: dict[str, int] = {}

    def reserve(self, *names: str) -> None:
        """Give columns their place now, for formulas that refer to a column written later."""
        for name in names:
            self.columns[name] = self.next
            self.next += 1

    def add(self, name: str, title: str, fn: Callable[[int], str], fill=b.FORMULA_FILL,  # type: ignore[no-untyped-def]
            blocks: list[tuple[int, int]] | None = None) -> None:
        if name in self.columns:
            j = self.columns[name]
        else:
            j = self.next
            self.next += 1
            self.columns[name] = j
        c = self.ws.cell(1, j, title)
        c.fill = b.HEADER_FILL
        c.font = b.HEADER_FONT
        c.alignment = Alignment(horizontal="center", wrap_text=True)
        self.ws.column_dimensions[col(j)].width = max(9, min(22, len(title) + 2))
        check_formula(fn(self.first), f"{self.ws.title}!{title}")
        for lo, hi in blocks or [(self.first, self.last)]:
            b.write_column(self.book, self.ws, j, lo, hi, fn, fill)
        self.book.name_range(self.prefix + name, self.ws, j, self.first, self.last)

    def __call__(self, name: str, r: int) -> str:
        """Same-sheet reference to column ``name`` in row r."""
        return f"${col(self.columns[name])}{r}"

    def ext(self, name: str, r: int) -> str:
        """Reference from another sheet."""
        return f"{quote_sheetname(self.ws.title)}!${col(self.columns[name])}{r}"


def check_formula(formula: str, where: str) -> None:
    """Balanced parentheses outside string literals: a typo fails the build, not the user."""
    depth = 0
    quoted = False
    for ch in formula:
        if ch == '"':
            quoted = not quoted
        elif not quoted and ch == "(":
            depth += 1
        elif not quoted and ch == ")":
            depth -= 1
            if depth < 0:
                raise ValueError(f"unbalanced parentheses in {where}: {formula}")
    if depth or quoted:
        raise ValueError(f"unbalanced parentheses or quotes in {where}: {formula}")


@dataclass(frozen=True)
class Inputs:
    """Where the input columns are."""

    players: dict[str, str]
    """SPEC 8 column -> column letter on the players sheet."""
    games: dict[str, str]

    def p(self, name: str, r: int) -> str:
        return f"players!${self.players[name]}{r}"

    def g(self, name: str, r: int) -> str:
        return f"games!${self.games[name]}{r}"


# --------------------------------------------------------------------------- instructions


INSTRUCTIONS = {
    "en": [
        "1. Type the players on the 'players' sheet, one per row (up to {players}): the id is required and unique.",
        "2. Type the games on the 'games' sheet, one row per game (up to {games}), each game once, the result from "
        "the first player's side: 1, 0.5, 0, 1-0, ½-½, 0-1, =, W/D/L (G/N/P in French). Forfeits (+, -, F) and "
        "byes (blank opponent) are kept and never rated.",
        "3. Read the new ratings on the 'results' sheet. Grey cells are formulas: they are locked (Review > "
        "Unprotect sheet, no password, if you really must change one). The 'work' and 'sides' sheets show every "
        "intermediate.",
        "4. For a second opinion, run:  xl-elo rate this-file.xlsx --output rated.xlsx  (never written over this "
        "file); it reports every row where these formulas and the xl-elo engine disagree.",
    ],
    "fr": [
        "1. Saisissez les joueurs dans la feuille 'players', un par ligne (jusqu'à {players}) : l'identifiant (id) "
        "est obligatoire et unique.",
        "2. Saisissez les parties dans la feuille 'games', une ligne par partie (jusqu'à {games}), chaque partie une "
        "seule fois, le résultat vu du premier joueur : 1, 0,5, 0, 1-0, ½-½, 0-1, =, G/N/P (W/D/L en anglais). Les "
        "forfaits (+, -, F) et les exempts (adversaire vide) sont conservés et jamais comptés.",
        "3. Lisez les nouveaux classements dans la feuille 'results'. Les cellules grises sont des formules "
        "verrouillées (Révision > Ôter la protection, sans mot de passe, si vous devez vraiment en modifier une). Les "
        "feuilles 'work' et 'sides' montrent chaque étape du calcul.",
        "4. Pour un deuxième avis : xl-elo rate ce-fichier.xlsx --output classe.xlsx (ce fichier n'est jamais "
        "écrasé) ; la commande signale chaque ligne où ces formules et le moteur xl-elo divergent.",
    ],
}


def instructions_sheet(book: Book, title: str, rules_en: list[str], rules_fr: list[str],
                       settings: list[tuple[str, str, str]]) -> Worksheet:
    """The first sheet: what the template does, in English and French, and the event settings."""
    ws = book.sheet("instructions")
    ws.column_dimensions["A"].width = 28
    ws.column_dimensions["B"].width = 110
    ws["A1"] = title
    ws["A1"].font = Font(bold=True, size=14)
    ws["A2"] = f"xl-elo template for {book.federation.upper()}; federation recorded in the name XL_ELO_FEDERATION."
    r = 4
    for key, label in (("en", "How to use it"), ("fr", "Mode d'emploi")):
        ws.cell(r, 1, label).font = Font(bold=True)
        r += 1
        for line in INSTRUCTIONS[key] + (rules_en if key == "en" else rules_fr):
            ws.cell(r, 2, line.format(players=b.MAX_PLAYERS, games=b.MAX_GAMES)).alignment = Alignment(wrap_text=True)
            r += 1
        r += 1
    ws.cell(r, 1, "Settings / Réglages").font = Font(bold=True)
    r += 1
    for name, label, default in settings:
        ws.cell(r, 1, label)
        c = ws.cell(r, 2, default)
        c.protection = b.UNLOCKED
        c.fill = b.INPUT_FILL
        book.name_cell(name, ws, f"B{r}")
        r += 1
    ws.cell(r, 1, "Input problems / Erreurs de saisie")
    c = ws.cell(r, 2, '=COUNTIF(side_problem,"?*")')
    c.fill = b.FORMULA_FILL
    book.name_cell("problem_count", ws, f"B{r}")
    return ws


# --------------------------------------------------------------------------- input sheets


def players_sheet(book: Book, columns: tuple[str, ...]) -> dict[str, str]:
    ws = book.sheet("players")
    b.header(ws, columns, [14 if c in ("id", "name") else 11 for c in columns])
    b.input_area(ws, len(columns), FIRST, LAST_PLAYER)
    letters = {c: col(j) for j, c in enumerate(columns, start=1)}
    for c, letter in letters.items():
        book.define(f"player_{c}", f"players!${letter}${FIRST}:${letter}${LAST_PLAYER}")
    a = letters["id"]
    b.validation_custom(ws, f"COUNTIF(${a}${FIRST}:${a}${LAST_PLAYER},{a}{FIRST})=1", f"{a}{FIRST}:{a}{LAST_PLAYER}",
                        "id", "Each player needs a unique id / Chaque joueur a un id unique.")
    if "rating" in letters:
        L = letters["rating"]
        b.validation_number(ws, f"{L}{FIRST}:{L}{LAST_PLAYER}", 0, 3500, "rating",
                            "A rating from 0 to 3500, or blank for unrated / Un classement de 0 à 3500, ou vide.")
    for name in ("games", "archive_games", "bonus_count", "lb_run", "mp_run", "birth_year"):
        if name in letters:
            L = letters[name]
            high = 100 if name == "bonus_count" else 2200 if name == "birth_year" else 100000
            low = 1900 if name == "birth_year" else 0
            b.validation_number(ws, f"{L}{FIRST}:{L}{LAST_PLAYER}", low, high, name, "A whole number / Un nombre entier.",
                                whole=True)
    for name in ("ever_2400", "mp_reached"):
        if name in letters:
            L = letters[name]
            b.validation_list(ws, '"yes,no"', f"{L}{FIRST}:{L}{LAST_PLAYER}", name, "yes or no / oui (yes) ou non (no)")
    if "category" in letters:
        L = letters["category"]
        b.validation_list(ws, '"junior,senior"', f"{L}{FIRST}:{L}{LAST_PLAYER}", "category", "junior or senior")
    return letters


def games_sheet(book: Book, columns: tuple[str, ...]) -> dict[str, str]:
    ws = book.sheet("games")
    b.header(ws, columns, [8, 14, 14, 10, 10, 8][: len(columns)])
    b.input_area(ws, len(columns), FIRST, LAST_GAME)
    letters = {c: col(j) for j, c in enumerate(columns, start=1)}
    ids = f"players!$A${FIRST}:$A${LAST_PLAYER}"
    for c in ("player", "opponent"):
        L = letters[c]
        b.validation_list(ws, ids, f"{L}{FIRST}:{L}{LAST_GAME}", c, "An id from the players sheet / Un id de la feuille players.")
    L = letters["result"]
    b.validation_list(ws, f"lists!$A$2:$A${len(b.result_rows()) + 1}", f"{L}{FIRST}:{L}{LAST_GAME}", "result",
                      "1, 0.5, 0, 1-0, ½-½, 0-1, +, -, bye ...")
    if "rated" in letters:
        L = letters["rated"]
        b.validation_list(ws, '"yes,no"', f"{L}{FIRST}:{L}{LAST_GAME}", "rated", "yes (default) or no")
    return letters


def history_sheet(book: Book) -> None:
    ws = book.sheet("history")
    b.header(ws, ["id", "opponent_rating", "result"], [14, 16, 10])
    b.input_area(ws, 3, FIRST, LAST_HISTORY)
    for j, name in enumerate(("id", "opponent_rating", "result"), start=1):
        book.define(f"history_{name}", f"history!${col(j)}${FIRST}:${col(j)}${LAST_HISTORY}")


def results_sheet(book: Book, columns: tuple[str, ...]) -> Columns:
    ws = book.sheet("results")
    ws.freeze_panes = "B2"
    return Columns(book, ws, "r_", FIRST, LAST_PLAYER)


def problems_column(sides: Columns, inputs: Inputs) -> None:
    """Per side: what is wrong with the game row, if anything (checked again by xl-elo rate)."""
    def fn(r: int) -> str:
        gr = FIRST + (r - FIRST) % b.MAX_GAMES
        return (f'=IF(OR($A{r}>{b.MAX_GAMES},{inputs.g("player", gr)}=""),"",'
                f'IF(ISNA(MATCH({inputs.g("player", gr)},player_id,0)),"unknown player id",'
                f'IF(AND({inputs.g("opponent", gr)}<>"",ISNA(MATCH({inputs.g("opponent", gr)},player_id,0))),'
                f'"unknown opponent id",IF({inputs.g("player", gr)}={inputs.g("opponent", gr)},"paired with himself",'
                f'IF($E{r}="not a result","not a result","")))))')
    sides.add("problem", "problem", fn, blocks=[(FIRST, FIRST + b.MAX_GAMES - 1), (FIRST + b.MAX_GAMES, LAST_SIDE)])
    sides.book.define("side_problem", sides.book.wb.defined_names["s_problem"].attr_text)


# --------------------------------------------------------------------------- templates


@dataclass(frozen=True)
class Template:
    federation: str
    filename: str
    build: Callable[[], Book]


def _skeleton(federation: str, title: str, player_cols: tuple[str, ...], game_cols: tuple[str, ...],
              rules_en: list[str], rules_fr: list[str], settings: list[tuple[str, str, str]],
              history: bool = False) -> tuple[Book, Inputs, Columns, Columns, Columns]:
    book = Book(federation)
    instructions_sheet(book, title, rules_en, rules_fr, settings)
    pl = players_sheet(book, player_cols)
    gl = games_sheet(book, game_cols)
    if history:
        history_sheet(book)
    results_ws = book.sheet("results")
    work_ws = book.sheet("work")
    sides_ws = b.sides_sheet(book, book.wb["games"], fesa=history)
    b.lists_sheet(book)
    inputs = Inputs(pl, gl)
    sides = Columns(book, sides_ws, "s_", FIRST, LAST_SIDE, start=sides_ws.max_column + 1)
    problems_column(sides, inputs)
    work = Columns(book, work_ws, "w_", FIRST, LAST_PLAYER)
    work_ws.freeze_panes = "B2"
    results = Columns(book, results_ws, "r_", FIRST, LAST_PLAYER)
    results_ws.freeze_panes = "B2"
    work.add("id", "id", lambda r: f'=IF({inputs.p("id", r)}="","",{inputs.p("id", r)})')
    return book, inputs, sides, work, results


def rating_columns(inputs: Inputs, work: Columns, rated_title: str = "rated", rating_title: str = "rating") -> None:
    """The work columns every template starts from: has a rating (1/0), the rating, games before."""
    work.add("rated", rated_title, lambda r: f'=IF(AND({inputs.p("id", r)}<>"",ISNUMBER({inputs.p("rating", r)})),1,0)')
    work.add("rating", rating_title, lambda r: f'=IF({work("rated", r)}=1,{inputs.p("rating", r)},"")')
    work.add("games", "games before", lambda r: f'=N({inputs.p("games", r)})')


def finish(book: Book, sheets_to_protect: tuple[str, ...] = ("results", "work", "sides")) -> Book:
    for name in sheets_to_protect:
        b.protect(book.wb[name])
    book.wb.active = 0
    return book


def save(book: Book, path: str | os.PathLike[str]) -> None:
    """Save with fixed timestamps inside the zip, so a rebuild writes the same bytes."""
    buffer = io.BytesIO()
    book.wb.save(buffer)
    buffer.seek(0)
    target = Path(path)
    tmp = target.with_name(f".{target.name}.tmp")
    sheet_files = {f"xl/worksheets/sheet{i}.xml": name for i, name in enumerate(book.wb.sheetnames, start=1)}
    with zipfile.ZipFile(buffer) as src, zipfile.ZipFile(tmp, "w", zipfile.ZIP_DEFLATED) as dst:
        for item in sorted(src.infolist(), key=lambda i: i.filename):
            info = zipfile.ZipInfo(item.filename, date_time=(2026, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            data = src.read(item.filename)
            title = sheet_files.get(item.filename)
            if title in book.shared:
                data = _share(data, book.shared[title])
            if item.filename == "docProps/core.xml":  # openpyxl stamps the save time
                data = re.sub(rb"<dcterms:modified([^>]*)>[^<]*<", rb"<dcterms:modified\1>2026-01-01T00:00:00Z<", data)
            dst.writestr(info, data)
    os.replace(tmp, target)


def _share(data: bytes, entries: list[tuple[str, str, int]]) -> bytes:
    """Turn the placeholders written by ``book.write_column`` into shared formulas."""
    text = data.decode("utf-8")
    for master, ref, si in entries:
        pattern = re.compile(r'(<c r="' + master + r'"[^>]*>)<f>')
        text, n = pattern.subn(lambda m: f'{m.group(1)}<f t="shared" ref="{ref}" si="{si}">', text, count=1)
        if n != 1:
            raise ValueError(f"shared formula master {master} not found")
    text = re.sub(r"<f>XLELOSHARED(\d+)</f>", r'<f t="shared" si="\1"/>', text)
    return text.encode("utf-8")


def _templates() -> dict[str, Template]:
    from xl_elo.templates import fesa_template, ffe_template, period_templates, published_template

    return {
        "fide": Template("fide", "fide_period.xlsx", period_templates.fide),
        "fse": Template("fse", "fse_period.xlsx", period_templates.fse),
        "fqe": Template("fqe", "fqe_event.xlsx", period_templates.fqe),
        "ffe": Template("ffe", "ffe_period.xlsx", ffe_template.ffe),
        "fesa": Template("fesa", "fesa_tournament.xlsx", fesa_template.fesa),
        "tables": Template("tables", "published_tables.xlsx", published_template.tables),
    }


TEMPLATES: dict[str, Template] = {}


def build_template(name: str, directory: str | os.PathLike[str]) -> Path:
    """Build one template into ``directory``; returns its path."""
    if not TEMPLATES:
        TEMPLATES.update(_templates())
    t = TEMPLATES[name]
    Path(directory).mkdir(parents=True, exist_ok=True)
    path = Path(directory) / t.filename
    save(t.build(), path)
    return path


def build_all(directory: str | os.PathLike[str]) -> list[Path]:
    """Build every template into ``directory``."""
    Path(directory).mkdir(parents=True, exist_ok=True)
    if not TEMPLATES:
        TEMPLATES.update(_templates())
    return [build_template(name, directory) for name in TEMPLATES]


__all__ = ["MAX_PLAYERS", "TEMPLATES", "build_all", "build_template", "finish", "save"]
