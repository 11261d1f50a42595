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
from collections.abc import Sequence
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


def _run(sources: Sequence[Path], outdir: Path, target: str, timeout: float) -> None:
    exe = soffice()
    if exe is None:
        raise LibreOfficeError("LibreOffice (soffice) is not installed: install it (Debian: apt install "
                               "libreoffice-calc-nogui) or open and save the file in a spreadsheet yourself")
    with tempfile.TemporaryDirectory(prefix="xl-elo-lo-") as tmp:
        profile = Path(tmp) / "profile"
        (profile / "user").mkdir(parents=True)
        (profile / "user" / "registrymodifications.xcu").write_text(_PROFILE, encoding="utf-8")
        cmd = [exe, "--headless", "--norestore", "--nologo", "--nolockcheck",
               f"-env:UserInstallation={profile.as_uri()}", "--convert-to", target, "--outdir", str(outdir),
               *map(str, sources)]
        try:
            proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
        except subprocess.TimeoutExpired:
            raise LibreOfficeError(f"LibreOffice took more than {timeout:g} s and was stopped") from None
        if proc.returncode != 0:
            raise LibreOfficeError(f"LibreOffice failed: {proc.stderr.strip() or proc.stdout.strip()}")


def recalculate_many(sources: Sequence[str | os.PathLike[str]], outdir: str | os.PathLike[str],
                     timeout: float = 900) -> list[Path]:
    """Open every file in one LibreOffice run, recalculate every formula, save each as xlsx in ``outdir``.

    The outputs keep the sources' stems (``a.ods`` -> ``outdir/a.xlsx``); sources must have distinct stems.
    """
    srcs = [Path(s).resolve() for s in sources]
    out = Path(outdir).resolve()
    out.mkdir(parents=True, exist_ok=True)
    if len({s.stem for s in srcs}) != len(srcs):
        raise ValueError("recalculate_many needs files with distinct names")
    _run(srcs, out, "xlsx:Calc MS Excel 2007 XML", timeout)
    produced = [out / f"{s.stem}.xlsx" for s in srcs]
    missing = [p.name for p in produced if not p.exists()]
    if missing:
        raise LibreOfficeError(f"LibreOffice could not open or recalculate: {', '.join(missing)}")
    return produced


def recalculate(source: str | os.PathLike[str], target: str | os.PathLike[str], timeout: float = 600) -> Path:
    """Open ``source`` (xlsx, xlsm or ods) in LibreOffice, recalculate every formula, save as xlsx to ``target``."""
    src = Path(source).resolve()
    dst = Path(target).resolve()
    with tempfile.TemporaryDirectory(prefix="xl-elo-lo-") as tmp:
        work = Path(tmp) / f"in{src.suffix.lower()}"
        shutil.copyfile(src, work)
        produced = recalculate_many([work], Path(tmp) / "out", timeout)[0]
        dst.parent.mkdir(parents=True, exist_ok=True)
        shutil.move(str(produced), dst)
    return dst


def to_pdf(source: str | os.PathLike[str], outdir: str | os.PathLike[str], timeout: float = 600) -> Path:
    """Print a workbook to PDF with LibreOffice (every sheet's print area): the screenshots, the print check."""
    src = Path(source).resolve()
    _run([src], Path(outdir).resolve(), "pdf", timeout)
    out = Path(outdir) / (src.stem + ".pdf")
    if not out.exists():
        raise LibreOfficeError(f"LibreOffice could not print {src.name} to PDF")
    return out
