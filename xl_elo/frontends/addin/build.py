"""Build the LibreOffice Calc extension (``xl-elo extension``): ``xl-elo.oxt`` from package data alone.

Everything in the extension comes from :data:`xl_elo.frontends.functions.FUNCTIONS`:

- ``XlElo.rdb``, the type library of the interface ``org.xlelo.XXlElo`` (one method per
  function, see :func:`idl_text` for the types). Compiling IDL needs LibreOffice's SDK
  (``unoidl-write``), which a user's machine has not, so the IDL and the compiled library are
  shipped in the package (``XlElo.idl``, ``XlElo.rdb``) and checked against the function list
  when the extension is built; ``python -m xl_elo.frontends.addin.build --regenerate`` rewrites them.
- ``CalcAddIns.xcu``, the names Calc shows (``ELO_EXPECTED``) with the function wizard's help,
  in English and French;
- ``xl_elo_calc.py``, the UNO component, with the method names written in;
- ``pythonpath/xl_elo``, the package itself (without the template builders): its spreadsheet
  functions run in LibreOffice's own Python.
"""

from __future__ import annotations

import argparse
import io
import shutil
import subprocess
import sys
import tempfile
import zipfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any
from xml.sax.saxutils import escape, quoteattr

from xl_elo.frontends.addin.calls import method_name, parameter_name

HERE = Path(__file__).resolve().parent
PACKAGE = HERE.parent.parent
IDL = HERE / "XlElo.idl"
RDB = HERE / "XlElo.rdb"
COMPONENT = HERE / "xl_elo_calc.py"

IDENTIFIER = "org.xlelo.calc-addin"
MODULE = "org::xlelo"
INTERFACE = "XXlElo"
SERVICE_NAME = "org.xlelo.XlEloAddIn"
#: Calc's add-in functions all go to its "Add-In" category of the function wizard.
CATEGORY = "Add-In"
#: Folders of the package left out of the extension (they need openpyxl, or build the extension).
LEFT_OUT = ("templates", "__pycache__")
#: A fixed time for every file of the extension, so one build of one version is the same bytes.
ZIP_TIME = (2026, 1, 1, 0, 0, 0)

LIBREOFFICE = Path("/usr/lib/libreoffice")


class ExtensionError(RuntimeError):
    """The extension cannot be built (a shipped file out of date, a tool missing)."""


# --------------------------------------------------------------------------- generated texts


def _functions() -> list[Any]:
    from xl_elo.frontends.functions import FUNCTIONS

    return list(FUNCTIONS)


#: The IDL type of a required argument and of every result: Calc's "mixed array".
MATRIX = "sequence< sequence< any > >"


def idl_text(functions: Sequence[Any] | None = None) -> str:
    """The IDL of the interface: one method per function.

    Types, as Calc handles them (sc/source/core/tool/interpr4.cxx, addincol.cxx): a required
    argument is a mixed array (one cell comes as a 1 x 1 array; Calc marks it required in the
    function wizard); an optional one is ``any`` (the only type Calc lets a formula leave out;
    missing, it comes as None). The result is a mixed array too: an ``any`` result cannot carry
    a range back from Python (pyuno sends a tuple of tuples as ``[]any``, which Calc refuses), so
    one value goes back as a 1 x 1 array, which Calc shows as that value."""
    lines = [
        "// Generated from xl_elo.frontends.functions.FUNCTIONS by xl_elo.frontends.addin.build: do not edit.",
        "#include <com/sun/star/uno/XInterface.idl>",
        "",
        "module org { module xlelo {",
        "",
        f"interface {INTERFACE} : com::sun::star::uno::XInterface",
        "{",
    ]
    for f in functions if functions is not None else _functions():
        params = ", ".join(f"[in] {'any' if a.optional else MATRIX} {parameter_name(a.name)}" for a in f.args)
        lines.append(f"    {MATRIX} {method_name(f.name)}( {params} );")
    lines += ["};", "", "}; };", ""]
    return "\n".join(lines)


def _localized(prop: str, texts: dict[str, str]) -> str:
    values = "".join(f"<value xml:lang={quoteattr(lang)}>{escape(text)}</value>" for lang, text in texts.items())
    return f'<prop oor:name="{prop}" oor:type="xs:string">{values}</prop>'


def xcu_text(functions: Sequence[Any] | None = None) -> str:
    """CalcAddIns.xcu: each function's name, description and argument help, English and French."""
    from xl_elo.frontends.addin.french import function_help

    out = ['<?xml version="1.0" encoding="UTF-8"?>',
           ('<oor:component-data xmlns:oor="http://openoffice.org/2001/registry" '
           'xmlns:xs="http://www.w3.org/2001/XMLSchema" oor:name="CalcAddIns" oor:package="org.openoffice.Office">'),
           ' <node oor:name="AddInInfo">',
           f'  <node oor:name="{SERVICE_NAME}" oor:op="replace">',
           '   <node oor:name="AddInFunctions">']
    for f in functions if functions is not None else _functions():
        fr_description, fr_args = function_help(f)
        out += [f'    <node oor:name="{method_name(f.name)}" oor:op="replace">',
                "     " + _localized("DisplayName", {"en-US": f.name}),
                "     " + _localized("Description", {"en-US": f.description, "fr": fr_description}),
                f'     <prop oor:name="Category" oor:type="xs:string"><value>{CATEGORY}</value></prop>',
                "     " + _localized("CompatibilityName", {"en-US": f.name}),
                '     <node oor:name="Parameters">']
        for a in f.args:
            optional = " (optional)" if a.optional else ""
            fr_optional = " (facultatif)" if a.optional else ""
            out += [f'      <node oor:name="{parameter_name(a.name)}" oor:op="replace">',
                    "       " + _localized("DisplayName", {"en-US": a.name}),
                    "       " + _localized("Description", {"en-US": a.doc + optional,
                                                           "fr": fr_args[a.name] + fr_optional}),
                    "      </node>"]
        out += ["     </node>", "    </node>"]
    out += ["   </node>", "  </node>", " </node>", "</oor:component-data>", ""]
    return "\n".join(out)


def description_xml(version: str) -> str:
    return f"""<?xml version="1.0" encoding="UTF-8"?>
<description xmlns="http://openoffice.org/extensions/description/2006"
             xmlns:d="http://openoffice.org/extensions/description/2006"
             xmlns:xlink="http://www.w3.org/1999/xlink">
  <identifier value="{IDENTIFIER}"/>
  <version value="{escape(version)}"/>
  <display-name>
    <name lang="en">xl-elo: chess and shogi rating functions</name>
    <name lang="fr">xl-elo : fonctions de classement Elo (échecs, shogi)</name>
  </display-name>
  <dependencies>
    <d:OpenOffice.org-minimal-version value="4.1" d:name="OpenOffice.org 4.1"/>
  </dependencies>
</description>
"""


MANIFEST = """<?xml version="1.0" encoding="UTF-8"?>
<manifest:manifest xmlns:manifest="http://openoffice.org/2001/manifest">
  <manifest:file-entry manifest:full-path="XlElo.rdb"
                       manifest:media-type="application/vnd.sun.star.uno-typelibrary;type=RDB"/>
  <manifest:file-entry manifest:full-path="xl_elo_calc.py"
                       manifest:media-type="application/vnd.sun.star.uno-component;type=Python"/>
  <manifest:file-entry manifest:full-path="CalcAddIns.xcu"
                       manifest:media-type="application/vnd.sun.star.configuration-data"/>
</manifest:manifest>
"""


def component_source(functions: Sequence[Any] | None = None) -> str:
    """The component with the IDL method names written into ``METHODS``."""
    names = tuple(method_name(f.name) for f in (functions if functions is not None else _functions()))
    text = COMPONENT.read_text(encoding="utf-8")
    marker = "METHODS = ()  # type: tuple[str, ...]\n"
    if text.count(marker) != 1:
        raise ExtensionError(f"{COMPONENT.name}: no line {marker.strip()!r} to fill in")
    return text.replace(marker, f"METHODS = {names!r}  # type: tuple[str, ...]\n")


def bundled_files() -> list[tuple[str, Path]]:
    """The package's files that go into the extension's ``pythonpath/``: (path inside, file)."""
    out = []
    for path in sorted(PACKAGE.rglob("*")):
        rel = path.relative_to(PACKAGE)
        if not path.is_file() or any(part in LEFT_OUT for part in rel.parts):
            continue
        if path.suffix not in (".py", ".typed") or path == COMPONENT:
            continue
        out.append((f"pythonpath/xl_elo/{rel.as_posix()}", path))
    return out


# --------------------------------------------------------------------------- build


def check_shipped() -> None:
    """The shipped IDL and type library describe the current function list."""
    if not RDB.is_file() or not IDL.is_file():
        raise ExtensionError(f"{RDB.name} or {IDL.name} is missing from the package (a broken install?)")
    if IDL.read_text(encoding="utf-8") != idl_text():
        raise ExtensionError(f"{RDB.name} is out of date with xl_elo.frontends.functions: run "
                             "python -m xl_elo.frontends.addin.build --regenerate (needs LibreOffice's SDK)")


def oxt_bytes() -> bytes:
    """The extension as the bytes of an .oxt file (a zip)."""
    from xl_elo import __version__

    check_shipped()
    members: list[tuple[str, bytes]] = [
        ("META-INF/manifest.xml", MANIFEST.encode()),
        ("description.xml", description_xml(__version__).encode()),
        ("XlElo.rdb", RDB.read_bytes()),
        ("CalcAddIns.xcu", xcu_text().encode()),
        ("xl_elo_calc.py", component_source().encode()),
    ]
    members += [(name, path.read_bytes()) for name, path in bundled_files()]
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in members:
            info = zipfile.ZipInfo(name, ZIP_TIME)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            z.writestr(info, data)
    return buffer.getvalue()


def build(target: str | Path) -> Path:
    """Write the extension to ``target`` (through a temporary file)."""
    from xl_elo.formats.files import write_atomic

    return write_atomic(target, oxt_bytes())


# --------------------------------------------------------------------------- the type library


def unoidl_write() -> tuple[Path, list[Path]] | None:
    """LibreOffice's IDL compiler and the base type libraries, or None when the SDK is missing."""
    tool = shutil.which("unoidl-write")
    candidates = [Path(tool)] if tool else []
    candidates.append(LIBREOFFICE / "sdk" / "bin" / "unoidl-write")
    for exe in candidates:
        if exe.is_file():
            program = exe.resolve().parent.parent.parent / "program" if "sdk" in exe.resolve().parts \
                else LIBREOFFICE / "program"
            bases = [program / "types.rdb", program / "types" / "offapi.rdb"]
            if all(b.is_file() for b in bases):
                return exe, bases
    return None


def compile_idl(idl: str, target: Path) -> None:
    """Compile IDL text to a type library with unoidl-write."""
    found = unoidl_write()
    if found is None:
        raise ExtensionError("unoidl-write was not found: install LibreOffice's SDK (Debian: libreoffice-dev)")
    exe, bases = found
    with tempfile.TemporaryDirectory(prefix="xl-elo-idl-") as tmp:
        source = Path(tmp) / IDL.name  # unoidl-write reads a file as IDL by its .idl suffix
        source.write_text(idl, encoding="utf-8")
        out = Path(tmp) / RDB.name
        proc = subprocess.run([str(exe), *map(str, bases), str(source), str(out)],
                              capture_output=True, text=True, timeout=120, check=False)
        if proc.returncode != 0 or not out.is_file():
            raise ExtensionError(f"unoidl-write failed: {(proc.stderr or proc.stdout).strip()}")
        shutil.copyfile(out, target)


def regenerate() -> None:
    """Rewrite the shipped XlElo.idl and XlElo.rdb from the function list."""
    text = idl_text()
    compile_idl(text, RDB)
    IDL.write_text(text, encoding="utf-8")


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m xl_elo.frontends.addin.build", description=__doc__.split("\n\n")[0])
    p.add_argument("--regenerate", action="store_true", help="rewrite XlElo.idl and XlElo.rdb (needs unoidl-write)")
    p.add_argument("--output", "-o", default="xl-elo.oxt", help="the extension to write (default xl-elo.oxt)")
    args = p.parse_args(argv)
    try:
        if args.regenerate:
            regenerate()
            print(f"wrote {IDL} and {RDB}")
            return 0
        print(f"wrote {build(args.output)}")
    except ExtensionError as exc:
        print(f"xl-elo: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
