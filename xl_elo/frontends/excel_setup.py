"""``xl-elo excel-setup``: write what each xlwings runtime needs to give Excel xl-elo's functions.

One folder per runtime (udfs/README.md walks through each):

- ``classic/``: classic xlwings (Windows, Python installed): ``xlwings.conf``, the settings of
  a workbook saved in that folder (the module ``xl_elo_udfs``, this Python as the interpreter);
- ``lite/``: xlwings Lite (no Python installed): ``main.py`` and ``requirements.txt``, whose
  last line is the HTTPS address of xl-elo's wheel;
- ``server/``: xlwings Server: ``xl_elo_functions.py`` for the server's ``custom_functions``
  folder, and ``app.py``, a minimal server answering the same two calls as xlwings Server
  (the functions' list and a function call) on 127.0.0.1, to try the functions without Excel.

Every xlwings runtime uses the one module ``xl_elo_udfs`` (installed with xl-elo), which
hands the functions of :data:`xl_elo.frontends.functions.FUNCTIONS` to xlwings. xlwings picks its
Office.js decorators (Lite, Server) only when ``XLWINGS_ON_SERVER=true`` is set before it is
imported: xlwings Lite and xlwings Server set it themselves, and ``app.py`` sets it first thing.
"""

from __future__ import annotations

import sys
from pathlib import Path

from xl_elo import __version__

RUNTIMES = ("classic", "lite", "server")

#: The wheel ``python -m pip wheel . --no-deps -w dist`` builds from a clone.
WHEEL = f"xl_elo-{__version__}-py3-none-any.whl"
#: What requirements.txt names until ``--wheel-url`` gives the real address.
PLACEHOLDER_URL = f"https://REPLACE-WITH-YOUR-HTTPS-HOST/{WHEEL}"


class SetupError(ValueError):
    """A bad option (an address that is not HTTPS, an unknown runtime)."""


def check_wheel_url(url: str) -> str:
    """The wheel's address as xlwings Lite needs it: HTTPS, ending with the wheel's file name."""
    url = url.strip()
    if not url.lower().startswith("https://"):
        raise SetupError(f"--wheel-url {url!r}: xlwings Lite installs packages from HTTPS addresses only")
    name = url.rsplit("/", 1)[-1].split("?", 1)[0]
    if not (name.startswith("xl_elo-") and name.endswith(".whl")):
        raise SetupError(f"--wheel-url {url!r}: the address must end with the wheel's file name ({WHEEL})")
    return url


# --------------------------------------------------------------------------- classic xlwings


def classic_files(interpreter: str | None = None) -> dict[str, str]:
    """``xlwings.conf`` (the directory settings of the workbooks beside it) and its README."""
    python = interpreter if interpreter is not None else (sys.executable if sys.platform == "win32" else None)
    conf = ['"UDF MODULES","xl_elo_udfs"']
    if python:
        # pythonw.exe: no console window opens with every calculation
        conf.append(f'"INTERPRETER_WIN","{_pythonw(python)}"')
    readme = f"""xl-elo's functions in Excel with classic xlwings (Windows, Python installed)

This folder's xlwings.conf gives every workbook saved in this folder its xlwings settings:
  UDF Modules   xl_elo_udfs   (installed with xl-elo: no PYTHONPATH needed)
  Interpreter   {_pythonw(python) if python
                 else "(not set: xl-elo excel-setup was not run on Windows; set it in the xlwings tab)"}
The same values can instead go into the xlwings tab of the ribbon (for every workbook) or
into a sheet named xlwings.conf in the workbook (column A the name, column B the value).

Once, on this computer:
  1. In a terminal, with the Python that has xl-elo:  xlwings addin install
  2. Excel: File > Options > Trust Center > Trust Center Settings > Macro Settings:
     tick "Trust access to the VBA project object model" (Import Functions writes VBA).
For each workbook:
  3. Save it in THIS folder as an Excel Macro-Enabled Workbook (.xlsm): the functions are
     VBA wrappers, which an .xlsx cannot keep.
  4. VBA editor (Alt+F11) > Tools > References: tick xlwings.
  5. xlwings tab > Import Functions.
  6. Type =fqe_table(148): the cell shows 0.7. Classic xlwings shows the names in lower
     case (=elo_expected(A2; B2)); a refused argument shows its message as the cell's text.
Steps 1 to 6 need Excel on Windows; they were not tried where xl-elo is tested.
"""
    return {"xlwings.conf": "\n".join(conf) + "\n", "README.txt": readme}


def _pythonw(python: str) -> str:
    """pythonw.exe beside python.exe: no console window with every call, and xlwings' VBA leaves a
    path holding "pythonw" alone (it rewrites "python" to "pythonw" anywhere else in the path)."""
    if python.lower().endswith("python.exe"):
        return python[: -len("python.exe")] + "pythonw.exe"
    return python


# --------------------------------------------------------------------------- xlwings Lite


LITE_MAIN = '''"""xl-elo's spreadsheet functions in xlwings Lite: ELO_EXPECTED, FQE_TABLE, ELO_CHANGE ...

The functions, with their help, come from the module xl_elo_udfs of the xl-elo wheel named
in requirements.txt. Keep your own functions below, if any.
"""

from xl_elo_udfs import *  # noqa: F401,F403
'''


def lite_files(wheel_url: str | None = None) -> dict[str, str]:
    """``main.py``, ``requirements.txt`` (the wheel's HTTPS address last) and a README."""
    url = check_wheel_url(wheel_url) if wheel_url else None
    # one requirement a line, nothing else: the pane installs each line it reads
    requirements = f"{url or PLACEHOLDER_URL}\n"
    readme = f"""xl-elo's functions in Excel with xlwings Lite (Excel 365 or 2021+, Windows, macOS, web; no Python)

1. Build the wheel once, in a clone of xl-elo:  python -m pip wheel . --no-deps -w dist
   It is dist/{WHEEL}.
2. Put it at an HTTPS address that a browser may fetch from another site (CORS), e.g. a
   GitHub Pages site of yours, and run
     xl-elo excel-setup --wheel-url https://.../{WHEEL}
   so that requirements.txt below names it.{"" if url else " (Not done: requirements.txt has a placeholder.)"}
3. Excel: Home > Add-ins, search "xlwings", Add xlwings Lite; open its pane.
4. In the pane's requirements.txt tab: add the line of requirements.txt below the xlwings
   line that is there (numpy comes with Pyodide; openpyxl and defusedxml are installed
   with the wheel). The pane's output shows the packages being installed.
5. In the main.py tab: replace the sample code with main.py (or add its import line).
6. Type =FQE_TABLE(148): the cell shows 0.7. Names are upper case; a range gives a spilled
   range; a refused argument shows #VALUE! with its message when you hover the cell.
Steps 2 to 6 need Excel and an HTTPS host; they were not tried where xl-elo is tested.
"""
    return {"main.py": LITE_MAIN, "requirements.txt": requirements, "README.txt": readme}


# --------------------------------------------------------------------------- xlwings Server


SERVER_MODULE = '''"""xl-elo's spreadsheet functions for xlwings Server.

Copy this file into the server's custom_functions folder and add to that folder's
__init__.py the line:   from .xl_elo_functions import *
xl-elo must be installed in the server's Python environment.
"""

from xl_elo_udfs import *  # noqa: F401,F403
'''

SERVER_APP = '''"""A minimal xlwings Server for xl-elo's functions, on this computer only (127.0.0.1).

It answers the two calls that xlwings Server answers for custom functions, with the same
xlwings code:
  GET  /xlwings/custom-functions-meta   the functions, their descriptions and argument help
  POST /xlwings/custom-functions-call   one call, the JSON body Excel's xlwings add-in sends
It uses only Python's standard library besides xl-elo and xlwings. It does not serve the
Office.js add-in itself (manifest, HTTPS, the functions' JavaScript): for Excel, use
xlwings Server with xl_elo_functions.py (README.txt).

    XLWINGS_LICENSE_KEY=noncommercial python app.py [--port 8000]

xlwings' server code is xlwings PRO: free for noncommercial use (PolyForm Noncommercial
1.0.0) with the key "noncommercial", otherwise with a paid key.
"""

import os

# xlwings picks its Office.js decorators only when this is set before it is imported
os.environ["XLWINGS_ON_SERVER"] = "true"

import argparse  # noqa: E402
import asyncio  # noqa: E402
import json  # noqa: E402
import sys  # noqa: E402
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer  # noqa: E402

if not os.environ.get("XLWINGS_LICENSE_KEY"):
    sys.exit("app.py: set XLWINGS_LICENSE_KEY first: \\"noncommercial\\" if your use is noncommercial "
             "(PolyForm Noncommercial 1.0.0), otherwise your xlwings license key")

import xlwings  # noqa: E402
import xlwings.server  # noqa: E402
import xl_elo_udfs  # noqa: E402


class Handler(BaseHTTPRequestHandler):
    def _send(self, status, body):
        data = json.dumps(body).encode("utf-8")
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self):
        if self.path == "/xlwings/custom-functions-meta":
            self._send(200, xlwings.server.custom_functions_meta(xl_elo_udfs))
        elif self.path == "/":
            self._send(200, {"status": "ok", "xlwings": xlwings.__version__})
        else:
            self._send(404, {"error": "not found"})

    def do_POST(self):
        if self.path != "/xlwings/custom-functions-call":
            self._send(404, {"error": "not found"})
            return
        try:
            data = json.loads(self.rfile.read(int(self.headers.get("Content-Length") or 0)))
            data.setdefault("client", "Office.js")  # the add-in's body does not say it
            result = asyncio.run(xlwings.server.custom_functions_call(data, xl_elo_udfs))
        except Exception as exc:  # as xlwings Server: the message goes back to Excel
            self._send(500, {"error": f"{type(exc).__name__}: {exc}"})
            return
        self._send(200, {"result": result})

    def log_message(self, format, *args):  # noqa: A002
        sys.stderr.write("app.py: " + format % args + "\\n")


def main():
    p = argparse.ArgumentParser(description="xl-elo's functions behind xlwings' server calls, on 127.0.0.1")
    p.add_argument("--port", type=int, default=8000, help="port (default 8000; 0: any free port)")
    args = p.parse_args()
    server = ThreadingHTTPServer(("127.0.0.1", args.port), Handler)
    print(f"xl-elo functions on http://127.0.0.1:{server.server_address[1]}/xlwings/custom-functions-meta",
          flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()
'''


def server_files(wheel_url: str | None = None) -> dict[str, str]:
    url = check_wheel_url(wheel_url) if wheel_url else None
    requirements = f"{url or './' + WHEEL}\nxlwings\n"
    readme = f"""xl-elo's functions in Excel with xlwings Server

xlwings Server is a separate product (the xlwings-server package or repository). Its
custom functions are xlwings PRO: free for noncommercial use (license key
"noncommercial", PolyForm Noncommercial 1.0.0), otherwise with a paid key.

With xlwings Server:
1. Install xl-elo into the server's Python environment (the wheel {WHEEL},
   or "pip install ." from a clone).
2. Copy xl_elo_functions.py into the server's custom_functions folder and add to that
   folder's __init__.py:   from .xl_elo_functions import *
3. Start the server and install its add-in in Excel as its documentation says (HTTPS,
   manifest). The functions are =XLWINGS.ELO_EXPECTED(...) ... unless the server's
   XLWINGS_FUNCTIONS_NAMESPACE says otherwise.
Steps 1 to 3 need xlwings Server and Excel; they were not tried where xl-elo is tested.

Without Excel, to see the functions answer as they would to Excel:
    python -m pip install -r requirements.txt      (or xl-elo from a clone, and xlwings)
    XLWINGS_LICENSE_KEY=noncommercial python app.py --port 8000
    curl http://127.0.0.1:8000/xlwings/custom-functions-meta
    curl -d '{{"func_name": "fqe_table", "args": [[[148]]], "caller_address": "[Book1]Sheet1!A1",
              "version": "<xlwings version>", "runtime": "1.4"}}' http://127.0.0.1:8000/xlwings/custom-functions-call
This app.py is tried by xl-elo's tests (tests/test_excel_setup.py).
"""
    return {"xl_elo_functions.py": SERVER_MODULE, "app.py": SERVER_APP, "requirements.txt": requirements,
            "README.txt": readme}


# --------------------------------------------------------------------------- writing


def files(runtimes: tuple[str, ...] = RUNTIMES, wheel_url: str | None = None,
          interpreter: str | None = None) -> dict[str, str]:
    """Every file to write, by path inside the output folder."""
    unknown = [r for r in runtimes if r not in RUNTIMES]
    if unknown:
        raise SetupError(f"no runtime {', '.join(unknown)} (classic, lite, server)")
    out: dict[str, str] = {}
    makers = {"classic": lambda: classic_files(interpreter), "lite": lambda: lite_files(wheel_url),
              "server": lambda: server_files(wheel_url)}
    for runtime in runtimes:
        for name, text in makers[runtime]().items():
            out[f"{runtime}/{name}"] = text
    return out


def write(output_dir: str | Path, runtimes: tuple[str, ...] = RUNTIMES, wheel_url: str | None = None,
          interpreter: str | None = None) -> list[Path]:
    """Write the files into ``output_dir`` (each through a temporary file); the paths written."""
    from xl_elo.formats.files import write_atomic

    out = []
    for name, text in files(runtimes, wheel_url, interpreter).items():
        path = Path(output_dir) / name
        path.parent.mkdir(parents=True, exist_ok=True)
        out.append(write_atomic(path, text))
    return out
