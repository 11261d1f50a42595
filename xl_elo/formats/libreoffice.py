"""Recalculate, convert or print workbooks with LibreOffice, headless (notes/excel-and-libreoffice.md).

``soffice --convert-to xlsx`` alone keeps the cached values, so each run uses a fresh profile
whose settings force a full recalculation when a file is loaded. One run converts many files
(LibreOffice starts once). Used by the tests, the screenshots and ``xl-elo rate --recalculate``
(and to read an ``.ods``); the rating engine never needs it.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
import zipfile
from collections.abc import Sequence
from pathlib import Path

_PROFILE = """<?xml version="1.0" encoding="UTF-8"?>
<oor:items xmlns:oor="http://openoffice.org/2001/registry" xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
<item oor:path="/org.openoffice.Office.Calc/Formula/Load">\
<prop oor:name="OOXMLRecalcMode" oor:op="fuse"><value>0</value></prop></item>
<item oor:path="/org.openoffice.Office.Calc/Formula/Load">\
<prop oor:name="ODFRecalcMode" oor:op="fuse"><value>0</value></prop></item>
</oor:items>
"""


class LibreOfficeError(RuntimeError):
    """LibreOffice is missing or failed."""


def soffice() -> str | None:
    """Path of LibreOffice's ``soffice``, or None."""
    return shutil.which("soffice") or shutil.which("libreoffice")


def _run(sources: Sequence[Path], outdir: Path, target: str, timeout: float | None, what: str) -> None:
    """One LibreOffice run converting ``sources`` into ``outdir`` (``target``: a --convert-to filter)."""
    from xl_elo import limits

    exe = soffice()
    if exe is None:
        raise LibreOfficeError("LibreOffice (soffice) is not installed: install it (Debian: apt install "
                               "libreoffice-calc-nogui), or open the workbook in a spreadsheet, save it, and rate "
                               "it without --recalculate")
    seconds = limits.LIBREOFFICE_SECONDS.value if timeout is None else timeout
    with tempfile.TemporaryDirectory(prefix="xl-elo-lo-") as tmp:
        profile = Path(tmp) / "profile"
        (profile / "user").mkdir(parents=True)
        (profile / "user" / "registrymodifications.xcu").write_text(_PROFILE, encoding="utf-8")
        cmd = [exe, "--headless", "--norestore", "--nologo", "--nolockcheck",
               f"-env:UserInstallation={profile.as_uri()}", "--convert-to", target, "--outdir", str(outdir),
               *map(str, sources)]
        try:
            proc = subprocess.run(cmd, capture_output=True, text=True, timeout=seconds, errors="replace",
                                  stdin=subprocess.DEVNULL)
        except subprocess.TimeoutExpired:
            raise LibreOfficeError(limits.LIBREOFFICE_SECONDS.message(
                f"LibreOffice did not finish {what} in {seconds:g} seconds")) from None
        except OSError as exc:
            raise LibreOfficeError(f"LibreOffice could not be started ({exc.strerror or exc})") from None
        if proc.returncode != 0:
            said = (proc.stderr.strip() or proc.stdout.strip())[:300]
            raise LibreOfficeError(f"LibreOffice failed {what}" + (f": {said}" if said else ""))


def recalculate_many(sources: Sequence[str | os.PathLike[str]], outdir: str | os.PathLike[str],
                     timeout: float | None = None) -> list[Path]:
    """Open every file in one LibreOffice run, recalculate every formula, save each as xlsx in ``outdir``.

    The outputs keep the sources' stems (``a.ods`` -> ``outdir/a.xlsx``); sources must have distinct
    stems. For files xl-elo wrote itself (the tests, the screenshots); a user's file goes through
    :func:`recalculate`, which checks it first.
    """
    srcs = [Path(s).resolve() for s in sources]
    out = Path(outdir).resolve()
    out.mkdir(parents=True, exist_ok=True)
    if len({s.stem for s in srcs}) != len(srcs):
        raise ValueError("recalculate_many needs files with distinct names")
    _run(srcs, out, "xlsx:Calc MS Excel 2007 XML", timeout, f"recalculating {len(srcs)} workbooks")
    produced = [out / f"{s.stem}.xlsx" for s in srcs]
    missing = [p.name for p in produced if not p.exists()]
    if missing:
        raise LibreOfficeError(f"LibreOffice could not open or recalculate: {', '.join(missing)}")
    return produced


def recalculate(source: str | os.PathLike[str], target: str | os.PathLike[str], timeout: float | None = None) -> Path:
    """Open ``source`` (xlsx, xlsm or ods) in LibreOffice, recalculate every formula, save as xlsx to ``target``.

    The source is checked first as any workbook is (a zip bomb or a damaged package never reaches
    LibreOffice), it is never written (LibreOffice works on a copy), and LibreOffice gets
    :data:`xl_elo.limits.LIBREOFFICE_SECONDS` at most.
    """
    from xl_elo.formats.workbook import check_ods, check_package

    src = Path(source).resolve()
    dst = Path(target).resolve()
    ods = _is_ods(src) if src.is_file() else src.suffix.lower() == ".ods"  # what LibreOffice would open
    (check_ods if ods else check_package)(src, Path(source).name)
    with tempfile.TemporaryDirectory(prefix="xl-elo-lo-") as tmp:
        work = Path(tmp) / f"in{src.suffix.lower()}"
        shutil.copyfile(src, work)
        out = Path(tmp) / "out"
        out.mkdir()
        _run([work], out, "xlsx:Calc MS Excel 2007 XML", timeout, f"recalculating {Path(source).name}")
        produced = out / "in.xlsx"
        if not produced.exists():
            raise LibreOfficeError(f"LibreOffice could not recalculate {Path(source).name} (is it a spreadsheet?)")
        dst.parent.mkdir(parents=True, exist_ok=True)
        shutil.move(str(produced), dst)
    return dst


def _is_ods(path: Path) -> bool:
    """An OpenDocument package (whatever its name), or a file named .ods that is no package at all."""
    try:
        with zipfile.ZipFile(path) as z:
            return "content.xml" in z.namelist()
    except (OSError, zipfile.BadZipFile, ValueError, EOFError):
        return path.suffix.lower() == ".ods"


def to_pdf(source: str | os.PathLike[str], outdir: str | os.PathLike[str], timeout: float | None = None) -> Path:
    """Print a workbook to PDF with LibreOffice (every sheet's print area): the screenshots, the print check."""
    return to_pdf_many([source], outdir, timeout)[0]


def to_pdf_many(sources: Sequence[str | os.PathLike[str]], outdir: str | os.PathLike[str],
                timeout: float | None = None) -> list[Path]:
    """Print workbooks (distinct names) to PDF in one LibreOffice run, as File > Export as PDF does."""
    srcs = [Path(s).resolve() for s in sources]
    _run(srcs, Path(outdir).resolve(), "pdf", timeout, f"printing {len(srcs)} workbooks")
    out = [Path(outdir) / (s.stem + ".pdf") for s in srcs]
    missing = [p.name for p in out if not p.exists()]
    if missing:
        raise LibreOfficeError(f"LibreOffice could not print {', '.join(missing)} to PDF")
    return out
