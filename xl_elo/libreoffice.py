"""Recalculate a workbook in LibreOffice, headless (notes/excel-and-libreoffice.md).

``soffice --convert-to xlsx`` alone keeps the cached values, so each run uses a fresh profile
whose settings force a full recalculation when a file is loaded. Used by the tests and by
``xl-elo rate --recalculate``; the rating engine never needs it.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
import zipfile
from pathlib import Path

_PROFILE = """<?xml version="1.0" encoding="UTF-8"?>
<oor:items xmlns:oor="http://openoffice.org/2001/registry" xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
<item oor:path="/org.openoffice.Office.Calc/Formula/Load"><prop oor:name="OOXMLRecalcMode" oor:op="fuse"><value>0</value></prop></item>
<item oor:path="/org.openoffice.Office.Calc/Formula/Load"><prop oor:name="ODFRecalcMode" oor:op="fuse"><value>0</value></prop></item>
</oor:items>
"""


class LibreOfficeError(RuntimeError):
    """LibreOffice is missing or failed."""


def soffice() -> str | None:
    """Path of LibreOffice's ``soffice``, or None."""
    return shutil.which("soffice") or shutil.which("libreoffice")


def recalculate(source: str | os.PathLike[str], target: str | os.PathLike[str], timeout: float | None = None) -> Path:
    """Open ``source`` in LibreOffice, recalculate every formula, save as xlsx to ``target``.

    The source is checked first as any workbook is (a zip bomb or a damaged package never reaches
    LibreOffice), it is never written (LibreOffice works on a copy), and LibreOffice gets
    :data:`xl_elo.limits.LIBREOFFICE_SECONDS` at most.
    """
    from xl_elo import limits
    from xl_elo.xlsxio import check_ods, check_package

    exe = soffice()
    if exe is None:
        raise LibreOfficeError("LibreOffice (soffice) is not installed: install it, or open the workbook in a "
                               "spreadsheet, save it, and rate it without --recalculate")
    src = Path(source).resolve()
    dst = Path(target).resolve()
    ods = _is_ods(src) if src.is_file() else src.suffix.lower() == ".ods"  # what LibreOffice would open
    (check_ods if ods else check_package)(src, Path(source).name)
    seconds = limits.LIBREOFFICE_SECONDS.value if timeout is None else timeout
    with tempfile.TemporaryDirectory(prefix="xl-elo-lo-") as tmp:
        profile = Path(tmp) / "profile"
        (profile / "user").mkdir(parents=True)
        (profile / "user" / "registrymodifications.xcu").write_text(_PROFILE, encoding="utf-8")
        out = Path(tmp) / "out"
        out.mkdir()
        work = Path(tmp) / f"in{src.suffix.lower()}"
        shutil.copyfile(src, work)
        cmd = [exe, "--headless", "--norestore", "--nologo", f"-env:UserInstallation={profile.as_uri()}",
               "--convert-to", "xlsx:Calc MS Excel 2007 XML", "--outdir", str(out), str(work)]
        try:
            proc = subprocess.run(cmd, capture_output=True, text=True, timeout=seconds, errors="replace",
                                  stdin=subprocess.DEVNULL)
        except subprocess.TimeoutExpired:
            raise LibreOfficeError(limits.LIBREOFFICE_SECONDS.message(
                f"LibreOffice did not finish recalculating {Path(source).name} in {seconds:g} seconds")) from None
        except OSError as exc:
            raise LibreOfficeError(f"LibreOffice could not be started ({exc.strerror or exc})") from None
        produced = out / "in.xlsx"
        if proc.returncode != 0 or not produced.exists():
            said = (proc.stderr.strip() or proc.stdout.strip())[:300]
            raise LibreOfficeError(f"LibreOffice could not recalculate {Path(source).name}"
                                   + (f": {said}" if said else " (is it a spreadsheet?)"))
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


def to_pdf(source: str | os.PathLike[str], outdir: str | os.PathLike[str], timeout: float = 600) -> Path:
    """Print a workbook to PDF with LibreOffice (for the README's screenshots)."""
    exe = soffice()
    if exe is None:
        raise LibreOfficeError("LibreOffice (soffice) is not installed")
    src = Path(source).resolve()
    with tempfile.TemporaryDirectory(prefix="xl-elo-lo-") as tmp:
        profile = Path(tmp) / "profile"
        (profile / "user").mkdir(parents=True)
        (profile / "user" / "registrymodifications.xcu").write_text(_PROFILE, encoding="utf-8")
        cmd = [exe, "--headless", "--norestore", f"-env:UserInstallation={profile.as_uri()}",
               "--convert-to", "pdf", "--outdir", str(outdir), str(src)]
        subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, check=False)
    return Path(outdir) / (src.stem + ".pdf")
