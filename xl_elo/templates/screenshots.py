"""Pictures of the templates as LibreOffice prints them, for the README and the print check.

``python -m xl_elo.templates.screenshots OUT_DIR`` fills each committed-size template with its
federation's worked example, recalculates and prints the whole workbook to PDF with
LibreOffice (A4; a template prints its results sheet only), and turns the pages a user looks at
into PNGs: ``<code>_results.png`` (the results sheet; ``fide_season_results.png`` the FIDE season template
filled with the club's year below) and ``fide_instructions.png`` (the
instructions printed as a selection); ``fqe_problem.png`` shows a players sheet with a rating
typed as text, flagged on its row; ``fide_norms.png`` the norm sheet filled from FIDE's example
report for its first norm (``fide_norms_<language>.png`` in each other language it speaks);
``season_leaderboard.png`` and ``season_charts.png`` a club's season workbook (:func:`season_workbook`), its
leaderboard and its first page of charts (``season_<language>_leaderboard.png`` in each catalogue's language). A
template is pictured in each language it speaks (:func:`xl_elo.templates.spoken`). It prints the number of
pages of each PDF. Needs LibreOffice and poppler-utils (``pdftoppm``, ``pdftotext``); the
package never needs them.
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
from dataclasses import replace
from pathlib import Path
from typing import Any

from xl_elo.formats.libreoffice import recalculate_many, to_pdf
from xl_elo.formats.workbook import fill_template, write_cells
from xl_elo.loader import example_event, examples
from xl_elo.model import facts
from xl_elo.templates import SEASON, build_template, default_capacity, template_names

RESOLUTION = 80


def _pages(pdf: Path) -> list[str]:
    """The text of each page of a PDF."""
    text = subprocess.run(["pdftotext", "-layout", str(pdf), "-"], check=True, capture_output=True,
                          text=True).stdout
    return text.split("\f")[:-1] if text.endswith("\f") else text.split("\f")


def _png(pdf: Path, page: int, target: Path) -> Path:
    """One page (1-based) of a PDF as a PNG."""
    stem = target.with_suffix("")
    subprocess.run(["pdftoppm", "-png", "-r", str(RESOLUTION), "-f", str(page), "-l", str(page), "-singlefile",
                    str(pdf), str(stem)], check=True)
    return target


def _first_page_with(pages: list[str], words: str) -> int:
    for i, text in enumerate(pages, start=1):
        if words in text:
            return i
    raise LookupError(f"no page shows {words!r}")


def _problem_tables(code: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """The example as typed, one rating typed with a space as thousands separator."""
    from xl_elo.formats.workbook import _cell, game_cells

    ev = example_event(code)
    columns = ["id", "name", "rating", *(f.name for f in facts(type(ev.players[0])))]
    players = [[_cell(getattr(p, c)) for c in columns] for p in ev.players]
    players[1][2] = f"{int(players[1][2]) // 1000} {int(players[1][2]) % 1000:03d}"
    tables = {"players": (columns, players), "games": game_cells(ev.games)}
    return tables, {"period": ev.period}


def _print_areas(path: Path, areas: dict[str, str]) -> None:
    """Give sheets a print area in a copy (the templates print the results only): ``{sheet: "A1:D9"}``."""
    import re
    import zipfile

    with zipfile.ZipFile(path) as z:
        parts = {i.filename: z.read(i.filename) for i in z.infolist()}
    text = parts["xl/workbook.xml"].decode("utf-8")
    for sheet, ref in areas.items():
        absolute = re.sub(r"([A-Z]+)(\d+)", r"$\1$\2", ref)
        text, n = re.subn(rf"(<definedName[^>]*_xlnm.Print_Area[^>]*>)'?{sheet}'?!\$[A-Z]+\$\d+(?::\$[A-Z]+\$\d+)?",
                          lambda m: f"{m.group(1)}{sheet}!{absolute}", text)  # noqa: B023 (used at once)
        if n != 1:
            raise LookupError(f"no print area of sheet {sheet} in {path.name}")
    parts["xl/workbook.xml"] = text.encode("utf-8")
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in parts.items():
            z.writestr(name, data)


def _problem_column(path: Path) -> str:
    """The letter of the players sheet's problem column."""
    from openpyxl import load_workbook
    from openpyxl.utils import get_column_letter

    wb = load_workbook(path, read_only=True)
    try:
        head = next(wb["players"].iter_rows(max_row=1, values_only=True))
        from xl_elo.formats.workbook import problem_headings

        known = set(problem_headings())
        return get_column_letter(1 + next(j for j, v in enumerate(head) if str(v) in known))
    finally:
        wb.close()


def _used_rows(path: Path, sheet: str) -> int:
    from openpyxl import load_workbook

    wb = load_workbook(path, read_only=True)
    try:
        ws = wb[sheet]
        return max((r for r, row in enumerate(ws.iter_rows(max_col=3, values_only=True), start=1)
                    if any(v not in (None, "") for v in row)), default=1)
    finally:
        wb.close()


def _said(language: str, english: str) -> str:
    from xl_elo import words

    with words.use(language):
        return str(words._(english)).strip()


def main(out_dir: str) -> None:
    """Every template in each of its shipped languages, filled with its example and printed: ``<code>_results.png``
    (its first language) and ``<code>_<language>_results.png`` (the others); the instructions of a template in each
    language of ``INSTRUCTIONS``; a players sheet with a mistake flagged (``<code>_problem.png``)."""
    from xl_elo import words
    from xl_elo.formats import seasonbook
    from xl_elo.templates import spoken

    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    codes = [n for n in template_names() if n != "tables"]
    with tempfile.TemporaryDirectory() as tmp:
        t = Path(tmp)
        filled: list[tuple[str, str, Path]] = []
        for code in codes:
            for lang in spoken(code):
                stem = code.replace("-", "_")  # a season template: fide_season_results.png
                name = f"{stem}_results" if lang == spoken(code)[0] else f"{stem}_{lang}_results"
                event = club_season(t / "club") if code.endswith(SEASON) else example_event(code)
                room = default_capacity(code)  # the club's year in the season template's room, its games all in
                room = replace(room, games=max(room.games, len(event.games)))
                template = build_template(code, t / "templates" / name, room, language=lang)
                filled.append((code, lang, fill_template(template, event, t / "filled" / f"{name}.xlsx")))
        shown = next(ex.federation for ex in examples() if ex.workbook)  # the demo's filled template
        tables, settings = _problem_tables(shown)
        template = build_template(shown, t / "templates" / shown)
        problem = write_cells(template, t / "filled" / f"{shown}_problem.xlsx", tables, settings)
        done_all = recalculate_many([f for *_, f in filled] + [problem], t / "done")
        for (code, lang, _), done in zip(filled, done_all, strict=False):
            pdf = to_pdf(done, t / "pdf")
            pages = _pages(pdf)
            print(f"{done.stem}: {len(pages)} pages")
            _png(pdf, _first_page_with(pages, _said(lang, " (sorted by new rating)")), out / f"{done.stem}.png")
            if (code, lang) in INSTRUCTIONS:  # the instructions, printed as a selection
                _print_areas(done, {"instructions": f"A1:C{_used_rows(done, 'instructions')}"})
                pdf = to_pdf(done, t / "pdf")
                _png(pdf, _first_page_with(_pages(pdf), _said(lang, "How to use it")),
                     out / f"{code}_{lang}_instructions.png")
        done = done_all[-1]  # the players sheet, its problem column included
        _print_areas(done, {"players": f"A1:{_problem_column(done)}{len(tables['players'][1]) + 1}"})
        pdf = to_pdf(done, t / "pdf")
        _png(pdf, 1, out / f"{shown}_problem.png")
        # the norm sheet as the certificate's table prints it, in each language its system speaks
        sheets = [path for lang in words.available() for path in norm_sheets(t / "norms" / lang, lang)]
        for done in recalculate_many(sheets, t / "done_norms"):
            pdf = to_pdf(done, t / "pdf")
            print(f"{done.stem}: {len(_pages(pdf))} pages")
            _png(pdf, 1, out / f"{done.stem}.png")
        for lang in words.available():  # a club's season, its leaderboard and its charts, in each language
            with words.use(lang):
                season = season_workbook(t / "season" / lang)
                rank, charts = seasonbook._("rank"), seasonbook._(seasonbook.CHARTS_TITLE)
            pdf = to_pdf(season, t / "pdf")
            pages = _pages(pdf)
            print(f"{season.stem} ({lang}): {len(pages)} pages")
            stem = "season" if lang == words.SOURCE else f"season_{lang}"
            _png(pdf, _first_page_with(pages, rank), out / f"{stem}_leaderboard.png")
            _png(pdf, _first_page_with(pages, charts), out / f"{stem}_charts.png")
    for p in sorted(out.glob("*.png")):
        print(p)


#: The templates whose instructions are pictured, one per language.
INSTRUCTIONS = {("fide", "en"), ("dwz", "de"), ("fse", "fr"), ("fse", "it")}


#: The demo club's members (the season workbook's pictures).
_CLUB = ("Anna Keller", "Felix Roth", "Lena Brunner", "Jonas Frei", "Mia Baumann", "Paul Huber", "Sofia Gerber",
         "Lukas Meier", "Emma Widmer", "Noah Steiner", "Clara Kunz", "Elias Moser", "Marie Graf", "Leon Wyss",
         "Ida Zimmermann", "Finn Suter", "Hanna Bucher", "Ben Kaufmann", "Lea Fischer", "Max Schmid",
         "Nora Weber", "Tim Marti", "Julia Egli", "David Bieri", "Sara Hofer", "Luca Berger", "Eva Lang",
         "Jan Koch", "Rosa Amrein", "Nico Vogel", "Alma Frey", "Tom Eberle")


def season_workbook(folder: Path) -> Path:
    """A club's season for the pictures (:func:`club_csvs`); the season workbook ``season.xlsx`` as ``xl-elo rate
    --season-output`` writes it (the same loader and pipeline)."""
    import io

    from xl_elo.loader import load
    from xl_elo.pipeline import Destination, deliver_season, plan

    club_csvs(folder)
    target = folder / "season.xlsx"
    loaded = load("fide", players=folder / "players.csv", games=folder / "games.csv")
    inputs = [folder / "players.csv", folder / "games.csv"]
    deliver_season(plan(loaded.module, Destination(season_output=str(target)), inputs, tty=False), loaded.season(),
                   io.StringIO())
    return target


def club_season(folder: Path) -> Any:
    """The club's season (:func:`club_csvs`) as the FIDE season template takes it: its first month the setting."""
    from xl_elo.loader import load

    club_csvs(folder)
    event = load("fide", players=folder / "players.csv", games=folder / "games.csv").event
    return replace(event, period=min(g.period for g in event.games if g.period))


def club_csvs(folder: Path) -> None:
    """A club's season: the members above, FIDE's rules, twelve monthly periods of four rounds (each member plays a
    month in five, three in four), results drawn from fixed strengths (a seeded random draw: the same season each
    time): ``players.csv`` and ``games.csv`` in ``folder``."""
    import random

    rnd = random.Random(2026)
    folder.mkdir(parents=True, exist_ok=True)
    strength = {f"m{i + 1:02d}": 1500 + 700 * rnd.random() for i in range(len(_CLUB))}
    drift = {pid: rnd.gauss(0, 12) for pid in strength}  # some improve over the year, some decline
    players = ["id,name,rating,games,birth_year,ever_2400"]
    for (pid, s), name in zip(strength.items(), _CLUB, strict=True):
        rating = "" if name in _CLUB[-2:] else round(s + rnd.gauss(0, 50))
        players.append(f"{pid},{name},{rating},{0 if rating == '' else rnd.randint(40, 300)},"
                       f"{rnd.randint(1960, 2010)},no")
    games = ["round,player,opponent,result,period"]
    for month in range(1, 13):
        here = [pid for pid in strength if rnd.random() < 0.8]
        for rnd_no in range(1, 5):
            rnd.shuffle(here)
            for a, b in zip(here[::2], here[1::2], strict=False):
                d = strength[a] + drift[a] * month - strength[b] - drift[b] * month + rnd.gauss(0, 160)
                games.append(f"{rnd_no},{a},{b},{'1-0' if d > 60 else '0-1' if d < -60 else '½'},2026-{month:02d}")
    (folder / "players.csv").write_text("\n".join(players) + "\n", encoding="utf-8")
    (folder / "games.csv").write_text("\n".join(games) + "\n", encoding="utf-8")


def norm_sheets(folder: Path, language: str | None = None) -> list[Path]:
    """Each norm sheet filled from its system's example report for the first player whose result is a norm for
    a title he needs (rules 13): ``<code>_norms.xlsx``, or in another ``language`` it speaks
    ``<code>_norms_<language>.xlsx`` (none where its system does not speak it)."""
    from importlib import resources

    from xl_elo import words
    from xl_elo.federations import registry
    from xl_elo.formats.normfiles import from_trf
    from xl_elo.templates import NORM_SHEET, spoken
    from xl_elo.templates.normsheet import fill_sheet

    out = []
    for code, system in registry().items():
        norms = system.NORMS
        if norms is None or not norms.sheet or not norms.example:
            continue
        lang = language or words.SOURCE
        if lang not in spoken(code + NORM_SHEET):
            continue
        with resources.as_file(resources.files(system.PACKAGE) / "example" / norms.example) as report:
            tournament, _ = from_trf(report, norms)
        checks, _ = norms.engine.checked(tournament)
        first = next(c for c in checks if c.norm and c.eligible)
        player = next(e for e in tournament.players if e.id == first.id)
        folder.mkdir(parents=True, exist_ok=True)
        first_language = spoken(code + NORM_SHEET)[0]
        target = folder / (f"{code}_norms.xlsx" if lang == first_language else f"{code}_norms_{lang}.xlsx")
        with words.use(lang):
            fill_sheet(system, tournament, [c for c in checks if c.title == first.title], player, first.title,
                       target)
        out.append(target)
    return out


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "workbooks/screenshots")
