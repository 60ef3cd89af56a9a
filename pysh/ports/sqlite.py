"""sqlite3: the sqlite3 shell's interface (3.40) over the stdlib ``sqlite3`` module.

Confinement:

* The database file and the paths of ``.import``, ``.read``, ``.output``,
  ``.once`` and ``.open`` go through door B (``shell.resolve()``; writes with
  ``write=True``). Files we open ourselves use the verified open of
  ``_common``.
* SQLite opens the database path *string* itself, and later its ``-journal``
  and ``-wal`` siblings. Right after connecting we check, through
  ``/proc/self/fd``, that the file SQLite opened is the one the core
  resolved (else: Permission denied, before any page is read). The sibling
  files are still opened by name later: a concurrent symlink swap of the
  database's directory could redirect *those*; only an OS layer underneath
  (Landlock) closes that window. Temporary files are kept in memory
  (``PRAGMA temp_store=MEMORY``) so that SQLite never writes the host's /tmp.
* An authorizer denies ``ATTACH`` (hence ``VACUUM INTO``; a plain ``VACUUM``
  still works), ``DETACH``, ``load_extension()`` and the path-taking pragmas;
  extension loading is disabled; ``SQLITE_LIMIT_LENGTH`` caps every value at
  the run's string limit; a progress handler enforces the run's deadline and
  interrupts. ``.shell``, ``.system``, ``.load``, ``.cd`` and friends are refused.
* Nothing of the host shows: ``.databases`` prints virtual paths, error
  texts are SQLite's (which name no paths) folded through ``display()``.
"""

from __future__ import annotations

import errno
import math
import os
import re
import sqlite3
import urllib.parse

from pysh.ports import _common
from pysh.ports._common import Out
from pysh.shellkit import FileSystemError, Shell, decode, encode, landlock

VERSION = "3.40.1 2022-12-28 14:03:47 (pysh port over the sqlite3 module, SQLite " \
    + sqlite3.sqlite_version + ")"

MODES = ("ascii", "box", "column", "csv", "html", "insert", "json", "line", "list", "markdown",
         "qbox", "quote", "table", "tabs", "tcl")

HELP_TEXT = """Usage: sqlite3 [OPTIONS] FILENAME [SQL]
FILENAME is the name of an SQLite database. A new database is created
if the file does not previously exist.
OPTIONS include:
   -ascii               set output mode to 'ascii'
   -bail                stop after hitting an error
   -batch               force batch I/O
   -box                 set output mode to 'box'
   -column              set output mode to 'column'
   -cmd COMMAND         run "COMMAND" before reading stdin
   -csv                 set output mode to 'csv'
   -echo                print inputs before execution
   -header              turn headers on
   -help                show this message
   -html                set output mode to HTML
   -json                set output mode to 'json'
   -line                set output mode to 'line'
   -list                set output mode to 'list'
   -markdown            set output mode to 'markdown'
   -newline SEP         set output row separator. Default: '\\n'
   -noheader            turn headers off
   -nullvalue TEXT      set text string for NULL values. Default ''
   -quote               set output mode to 'quote'
   -readonly            open the database read-only
   -separator SEP       set output column separator. Default: '|'
   -table               set output mode to 'table'
   -tabs                set output mode to 'tabs'
   -version             show SQLite version
"""

DOT_HELP = """.bail on|off             Stop after hitting an error.  Default OFF
.databases               List names and files of attached databases
.dump ?OBJECTS?          Render database content as SQL
.echo on|off             Turn command echo on or off
.exit ?CODE?             Exit this program with return-code CODE
.headers on|off          Turn display of headers on or off
.help                    Show this message
.import FILE TABLE       Import data from FILE into TABLE
.indexes ?TABLE?         Show names of indexes
.mode MODE ?TABLE?       Set output mode
.nullvalue STRING        Use STRING in place of NULL values
.once FILE               Output for the next SQL command only to FILE
.open FILE               Close existing database and reopen FILE
.output ?FILE?           Send output to FILE or stdout if FILE is omitted
.print STRING...         Print literal STRING
.quit                    Exit this program
.read FILE               Read input from FILE
.schema ?PATTERN?        Show the CREATE statements matching PATTERN
.separator COL ?ROW?     Change the column and row separators
.show                    Show the current values for various settings
.tables ?TABLE?          List names of tables matching LIKE pattern TABLE
.width NUM1 NUM2 ...     Set minimum column widths for columnar output
"""

REFUSED = {"shell", "system", "load", "cd", "backup", "save", "restore", "clone", "log",
           "excel", "trace", "iotrace", "archive", "ar", "sha3sum", "edit", "filectrl",
           "recover", "vfsinfo", "vfslist", "vfsname", "dbconfig", "testctrl", "selftest",
           "imposter", "eqp", "expert"}

# SQLITE_ERROR, CORRUPT, CANTOPEN, AUTH, NOTADB: errors the CLI reports "in prepare"
_PREPARE_CODES = (1, 11, 14, 23, 26)
SQLITE_DENY = 1
SQLITE_OK = 0
_PATH_PRAGMAS = {"temp_store_directory", "data_store_directory"}

# Characters that make the CLI quote a CSV field (shell.c's needCsvQuote[]).
_CSV_QUOTE = set(range(0, 33)) | {34, 39} | set(range(127, 256))


class Quit(Exception):
    def __init__(self, code: int):
        self.code = code


class CliError(Exception):
    pass


def _authorizer(action, arg1, arg2, dbname, source):
    if action == sqlite3.SQLITE_ATTACH:
        # plain VACUUM attaches a temporary database named ''; VACUUM INTO and ATTACH name a file
        return SQLITE_OK if arg1 == "" else SQLITE_DENY
    if action == sqlite3.SQLITE_DETACH:
        return SQLITE_DENY
    if action == sqlite3.SQLITE_PRAGMA and arg1 and arg1.lower() in _PATH_PRAGMAS:
        return SQLITE_DENY
    if action == sqlite3.SQLITE_FUNCTION and arg2 and arg2.lower() == "load_extension":
        return SQLITE_DENY
    return SQLITE_OK


def _fds() -> dict[int, str]:
    out = {}
    for name in os.listdir("/proc/self/fd"):
        try:
            out[int(name)] = os.readlink(f"/proc/self/fd/{name}")
        except OSError:
            pass
    return out


def fmt_real(x: float) -> str:
    """SQLite's text rendering of a REAL ("%!.15g")."""
    if math.isinf(x):
        return "Inf" if x > 0 else "-Inf"
    if x == 0:
        return "0.0"
    s = f"{x:.15g}"
    if "e" in s:
        mant, exp = s.split("e")
        if "." not in mant:
            mant += ".0"
        return mant + "e" + exp
    if "." not in s and "n" not in s:
        s += ".0"
    return s


class State:
    def __init__(self, shell: Shell):
        self.shell = shell
        self.mode = "list"
        self.headers = False
        self.headers_set = False  # .headers or -[no]header given: .mode column keeps it
        self.colsep = "|"
        self.rowsep = "\n"
        self.nullvalue = ""
        self.bail = False
        self.echo = False
        self.readonly = False
        self.insert_table = "table"
        self.widths: list[int] = []
        self.conn: sqlite3.Connection | None = None
        self.db_vpath: str | None = None
        self.db_arg = ":memory:"
        self.out = Out(shell.stdout, shell.budget)
        self.redirect: tuple[int, str] | None = None  # fd, vpath of .output/.once
        self.once = False
        self.err = shell.stderr
        self.json_cache: dict[float, str] = {}
        self.errors = 0
        self.last_code = 1

    # ------------------------------------------------------------- output
    async def write(self, text: str | bytes) -> None:
        data = encode(text) if isinstance(text, str) else text
        if self.redirect is not None:
            _common.write_all(self.redirect[0], data, self.shell.budget)
            return
        await self.out.write(data)

    async def error(self, msg: str) -> None:
        await self.out.flush()
        await self.err.write(encode(self.shell.display(msg) + "\n"))

    def close_redirect(self) -> None:
        if self.redirect is not None:
            os.close(self.redirect[0])
            self.redirect = None

    # ----------------------------------------------------------- database
    def connect(self) -> sqlite3.Connection:
        if self.conn is not None:
            return self.conn
        shell = self.shell
        name = self.db_arg
        if name in ("", ":memory:"):
            conn = sqlite3.connect(":memory:" if name else "", isolation_level=None,
                                   check_same_thread=False)
            self.db_vpath = None
        else:
            vpath = name
            host = _common.host_of(shell, vpath, write=not self.readonly)
            if not self.readonly and not _common.vexists(shell, vpath):
                # Create the file ourselves (verified, O_EXCL), so that SQLite never creates
                # one: it is opened with mode=rw, and a swapped directory cannot make it
                # create a file somewhere else.
                try:
                    os.close(_common.open_write(shell, vpath, exclusive=True, mode=0o644))
                except FileSystemError as e:
                    if e.errno != errno.EEXIST:
                        raise
            # Which files SQLite opened, seen in /proc/self/fd. Under the kernel floor the
            # kernel itself refuses files outside the roots (and /proc/self/fd is not
            # listable there): this check is then the floor's job.
            watch = not landlock.thread_is_restricted()
            before = _fds() if watch else {}
            mode = "ro" if self.readonly else "rw"
            uri = "file:" + urllib.parse.quote(str(host), safe="/") + "?mode=" + mode
            try:
                conn = sqlite3.connect(uri, uri=True, isolation_level=None,
                                       check_same_thread=False)
            except sqlite3.Error:
                raise CliError(f'Error: unable to open database "{vpath}": unable to open '
                               "database file") from None
            after = _fds() if watch else {}
            new = [t for fd, t in after.items() if before.get(fd) != t]
            bad = [t for t in new if t.startswith("/") and not t.startswith(("/dev/", "/proc/"))
                   and t != str(host) and not self._under_mount(t)]
            if bad or (new and str(host) not in new and os.path.exists(str(host))):
                conn.close()
                raise FileSystemError(errno.EACCES, vpath)
            self.db_vpath = shell.abspath(vpath)
        self._harden(conn)
        self.conn = conn
        return conn

    def _under_mount(self, host: str) -> bool:
        try:
            self.shell.to_virtual(host)
            return True
        except ValueError:
            return False

    def _harden(self, conn: sqlite3.Connection) -> None:
        conn.text_factory = decode  # TEXT that is not UTF-8 comes back byte for byte
        try:
            conn.enable_load_extension(False)
        except AttributeError:
            pass
        cap = self.shell.budget.limits.max_string_length
        conn.setlimit(sqlite3.SQLITE_LIMIT_LENGTH, min(cap, 1_000_000_000))
        file_cap = self.shell.budget.limits.max_file_size
        if file_cap is None:
            conn.set_authorizer(_authorizer)
        else:  # the file limit, as pages sqlite may use; the script cannot raise it
            page = conn.execute("PRAGMA page_size").fetchone()[0]
            conn.execute(f"PRAGMA max_page_count = {max(1, file_cap // page)}")

            def capped(action, arg1, arg2, dbname, source):
                if action == sqlite3.SQLITE_PRAGMA and arg2 is not None and arg1 \
                        and arg1.lower() in ("max_page_count", "page_size"):
                    return SQLITE_DENY
                return _authorizer(action, arg1, arg2, dbname, source)
            conn.set_authorizer(capped)
        budget = self.shell.budget

        def progress() -> int:
            return 1 if (budget.expired() or budget.interrupted) else 0
        conn.set_progress_handler(progress, 10000)
        try:
            conn.execute("PRAGMA temp_store=MEMORY")
        except sqlite3.Error:
            pass

    # ------------------------------------------------------------ values
    def text(self, v) -> str:
        if v is None:
            return self.nullvalue
        if isinstance(v, float):
            return fmt_real(v)
        if isinstance(v, bytes):
            return decode(v)
        return str(v)

    def json_real(self, x: float) -> str:
        s = self.json_cache.get(x)
        if s is None:
            conn = self.conn
            try:
                s = conn.execute("SELECT printf('%!.20g', ?)", (x,)).fetchone()[0]
            except Exception:
                s = repr(x)
            if math.isinf(x):
                s = "1e999" if x > 0 else "-1e999"
            self.json_cache[x] = s
        return s


def _sql_quote(v) -> str:
    if v is None:
        return "NULL"
    if isinstance(v, bool):
        return str(int(v))
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        s = fmt_real(v)
        return s
    if isinstance(v, bytes):
        return "X'" + v.hex().upper() + "'"
    return "'" + v.replace("'", "''") + "'"


def _json_str(s: str) -> str:
    out = ['"']
    for ch in s:
        o = ord(ch)
        if ch == '"':
            out.append('\\"')
        elif ch == "\\":
            out.append("\\\\")
        elif o < 0x20 or o == 0x7F:
            out.append({"\n": "\\n", "\r": "\\r", "\t": "\\t", "\b": "\\b", "\f": "\\f"}.get(
                ch, f"\\u{o:04x}"))
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


def _csv(st: State, v) -> str:
    if v is None:
        return st.nullvalue
    s = st.text(v)
    if isinstance(v, int | float) and not isinstance(v, bool):
        return s
    b = encode(s)
    if not b or any(c in _CSV_QUOTE for c in b) or st.colsep in s:
        return '"' + s.replace('"', '""') + '"'
    return s


def _width(s: str) -> int:
    return len(s)


async def render(st: State, names: list[str], rows: list[tuple]) -> None:
    """Print one statement's result in the current mode."""
    mode = st.mode
    if mode in ("list", "csv", "tabs", "ascii", "quote", "tcl", "html", "insert"):
        sep, rsep = st.colsep, st.rowsep
        buf = []
        if st.headers and rows and mode != "insert":
            if mode == "csv":
                buf.append(sep.join(_csv(st, n) for n in names) + rsep)
            elif mode == "quote":
                buf.append(",".join(_sql_quote(n) for n in names) + rsep)
            elif mode == "html":
                buf.append("<TR>" + "".join(f"<TH>{_html(n)}</TH>\n" for n in names)
                           + "</TR>\n")
            elif mode == "tcl":
                buf.append(sep.join(_tcl(n) for n in names) + rsep)
            else:
                buf.append(sep.join(names) + rsep)
        for i, row in enumerate(rows):
            if i & 1023 == 0:
                st.shell.budget.check()
            if mode == "csv":
                buf.append(sep.join(_csv(st, v) for v in row) + rsep)
            elif mode == "quote":
                buf.append(",".join(_sql_quote(v) for v in row) + rsep)
            elif mode == "insert":
                cols = ""
                if st.headers:
                    cols = "(" + ",".join(_ident(n) for n in names) + ")"
                buf.append(f"INSERT INTO {_ident(st.insert_table)}{cols} VALUES("
                           + ",".join(_sql_quote(v) for v in row) + ");\n")
            elif mode == "html":
                buf.append("<TR>" + "".join(f"<TD>{_html(st.text(v))}</TD>\n" for v in row)
                           + "</TR>\n")
            elif mode == "tcl":
                buf.append(sep.join(_tcl(st.text(v)) for v in row) + rsep)
            else:
                buf.append(sep.join(st.text(v) for v in row) + rsep)
            if len(buf) > 4096:
                await st.write("".join(buf))
                buf.clear()
        await st.write("".join(buf))
        return
    if mode == "line":
        w = max([5] + [_width(n) for n in names])
        buf = []
        for i, row in enumerate(rows):
            if i > 0:
                buf.append("\n")
            for n, v in zip(names, row, strict=False):
                buf.append(f"{n:>{w}} = {st.text(v)}" + st.rowsep)
        await st.write("".join(buf))
        return
    if mode == "json":
        if not rows:
            return
        parts = []
        for row in rows:
            fields = []
            for n, v in zip(names, row, strict=False):
                if v is None:
                    val = "null"
                elif isinstance(v, float):
                    val = st.json_real(v)
                elif isinstance(v, int):
                    val = str(v)
                else:
                    val = _json_str(st.text(v))
                fields.append(_json_str(n) + ":" + val)
            parts.append("{" + ",".join(fields) + "}")
        await st.write("[" + ",\n".join(parts) + "]\n")
        return
    # columnar modes
    if not rows and mode == "column":
        return
    texts = [[st.text(v) for v in row] for row in rows]
    ncol = len(names)
    widths = [_width(n) for n in names]
    for r in texts:
        for j, t in enumerate(r):
            widths[j] = max(widths[j], _width(t))
    for j, w in enumerate(st.widths[:ncol]):
        if w:
            widths[j] = max(widths[j], abs(w)) if w > 0 else abs(w)
    nums = [[isinstance(v, int | float) and not isinstance(v, bool) for v in row] for row in rows]
    buf = []
    if mode == "column":
        if st.headers:
            buf.append("  ".join(_pad(n, widths[j]) for j, n in enumerate(names)) + "\n")
            buf.append("  ".join("-" * widths[j] for j in range(ncol)) + "\n")
        for r in texts:
            buf.append("  ".join(_pad(t, widths[j]) for j, t in enumerate(r)) + "\n")
    elif mode in ("box", "qbox"):
        top = "┌" + "┬".join("─" * (w + 2) for w in widths) + "┐\n"
        mid = "├" + "┼".join("─" * (w + 2) for w in widths) + "┤\n"
        bot = "└" + "┴".join("─" * (w + 2) for w in widths) + "┘\n"
        buf.append(top)
        buf.append("│" + "│".join(" " + _center(n, widths[j]) + " "
                                  for j, n in enumerate(names)) + "│\n")
        buf.append(mid)
        for r in texts:
            buf.append("│" + "│".join(" " + _pad(t, widths[j]) + " "
                                      for j, t in enumerate(r)) + "│\n")
        buf.append(bot)
    elif mode == "table":
        line = "+" + "+".join("-" * (w + 2) for w in widths) + "+\n"
        buf.append(line)
        buf.append("|" + "|".join(" " + _center(n, widths[j]) + " "
                                  for j, n in enumerate(names)) + "|\n")
        buf.append(line)
        for r in texts:
            buf.append("|" + "|".join(" " + _pad(t, widths[j]) + " "
                                      for j, t in enumerate(r)) + "|\n")
        buf.append(line)
    elif mode == "markdown":
        buf.append("|" + "|".join(" " + _center(n, widths[j]) + " "
                                  for j, n in enumerate(names)) + "|\n")
        buf.append("|" + "|".join("-" * (w + 2) for w in widths) + "|\n")
        for r in texts:
            buf.append("|" + "|".join(" " + _pad(t, widths[j]) + " "
                                      for j, t in enumerate(r)) + "|\n")
    del nums
    await st.write("".join(buf))


def _pad(s: str, w: int) -> str:
    return s + " " * max(0, w - _width(s))


def _center(s: str, w: int) -> str:
    extra = max(0, w - _width(s))
    left = extra // 2
    return " " * left + s + " " * (extra - left)


def _html(s: str) -> str:
    return (s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
            .replace('"', "&quot;").replace("'", "&#39;"))


def _tcl(s: str) -> str:
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


_PLAIN_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
_KEYWORDS = {"select", "from", "where", "table", "index", "order", "group", "values", "insert",
             "create", "drop", "default", "check", "key", "primary", "unique", "references"}


def _ident(name: str) -> str:
    if _PLAIN_IDENT.match(name) and name.lower() not in _KEYWORDS:
        return name
    return '"' + name.replace('"', '""') + '"'


# ---------------------------------------------------------------- SQL text
def split_statements(sql: str) -> list[str]:
    """Complete statements (with their ';') in ``sql``, in order; trailing text is dropped."""
    out = []
    start = 0
    i = 0
    n = len(sql)
    while i < n:
        j = sql.find(";", i)
        if j < 0:
            break
        chunk = sql[start:j + 1]
        if sqlite3.complete_statement(chunk):
            out.append(chunk)
            start = j + 1
        i = j + 1
    rest = sql[start:]
    if rest.strip() and _has_sql(rest):
        out.append(rest)
    return out


def _has_sql(text: str) -> bool:
    t = re.sub(r"--[^\n]*|/\*.*?(\*/|\Z)", "", text, flags=re.S)
    return bool(t.strip().strip(";").strip())


def split_dot_args(line: str) -> list[str]:
    args = []
    i, n = 0, len(line)
    while i < n:
        while i < n and line[i].isspace():
            i += 1
        if i >= n:
            break
        c = line[i]
        if c in "'\"":
            j = i + 1
            buf = []
            while j < n and line[j] != c:
                if c == '"' and line[j] == "\\" and j + 1 < n:
                    esc = line[j + 1]
                    buf.append({"n": "\n", "t": "\t", "r": "\r", "\\": "\\", '"': '"'}.get(
                        esc, "\\" + esc))
                    j += 2
                    continue
                buf.append(line[j])
                j += 1
            args.append("".join(buf))
            i = j + 1
        else:
            j = i
            while j < n and not line[j].isspace():
                j += 1
            args.append(line[i:j])
            i = j
    return args


# -------------------------------------------------------------- executing
async def run_sql(st: State, sql: str, lineno: int | None) -> bool:
    """Run every statement of ``sql``; False when a statement failed."""
    try:
        conn = st.connect()
    except FileSystemError as e:
        raise CliError(f'Error: unable to open database "{e.vpath}": unable to open database '
                       "file") from None
    ok = True
    line = lineno
    offset_lines = 0
    for stmt in split_statements(sql):
        st.shell.budget.check()
        if st.echo:
            await st.write(stmt.strip() + "\n")
        start_line = None if line is None else line + offset_lines + _leading_newlines(stmt)
        offset_lines += stmt.count("\n")
        if not _has_sql(stmt):
            continue
        if _has_surrogates(stmt):  # SQL text must be UTF-8 for the module: replace the bad bytes
            stmt = encode(stmt).decode("utf-8", "replace")
        try:
            cur = conn.execute(stmt)
            names = [d[0] for d in cur.description] if cur.description else []
            rows = cur.fetchall() if cur.description else []
        except sqlite3.Error as e:
            if st.shell.budget.expired() or st.shell.budget.interrupted:
                st.shell.budget.check()
            ok = False
            st.errors += 1
            code = (getattr(e, "sqlite_errorcode", 1) or 1) & 0xFF
            msg = str(e)
            # Python runs prepare and the first step in one call: tell them apart by code
            runtime = code not in _PREPARE_CODES
            suffix = f" ({code})" if code != 1 else ""
            st.last_code = code
            if start_line is None:
                if runtime:
                    await st.error(f"Error: stepping, {msg}{suffix}")
                else:
                    await st.error(f"Error: in prepare, {msg}{suffix}" + _error_context(stmt, msg))
            elif runtime:
                await st.error(f"Runtime error near line {start_line}: {msg}{suffix}")
            else:
                text = f"Parse error near line {start_line}: {msg}{suffix}"
                await st.error(text + _error_context(stmt, msg))
            if st.bail:
                return False
            continue
        except (OverflowError, ValueError) as e:
            ok = False
            st.errors += 1
            await st.error(f"Error: {type(e).__name__.lower()}")
            continue
        if names:
            await render(st, names, rows)
        if st.once:
            st.once = False
            st.close_redirect()
    return ok


def _has_surrogates(s: str) -> bool:
    try:
        s.encode("utf-8")
        return False
    except UnicodeEncodeError:
        return True


def _leading_newlines(stmt: str) -> int:
    return stmt[:len(stmt) - len(stmt.lstrip())].count("\n")


def _error_context(stmt: str, msg: str) -> str:
    m = re.match(r'near "(.*)": syntax error', msg)
    body = stmt.strip()
    if not m or "\n" in body:
        return ""
    tok = m.group(1)
    pos = body.find(tok)
    if pos < 0:
        return ""
    return f"\n  {body}\n  {' ' * pos}^--- error here"


# ------------------------------------------------------------ dot-commands
async def dot_command(st: State, line: str) -> bool:
    """Run one dot-command; False when it failed."""
    try:
        return await _dot_command(st, line)
    except sqlite3.Error as e:
        if st.shell.budget.expired() or st.shell.budget.interrupted:
            st.shell.budget.check()
        await st.error(f"Error: {e}")
        return False


async def _dot_command(st: State, line: str) -> bool:
    args = split_dot_args(line.strip()[1:])
    if not args:
        return True
    cmd = args[0]
    name = cmd.lower()

    def on_off(v: str) -> bool:
        return v.lower() in ("on", "yes", "1", "true")

    if name in REFUSED:
        await st.error(f"Error: .{cmd} is not available in the sandbox")
        return False
    if name in ("quit", "q") or name == "exit":
        code = int(args[1]) if name == "exit" and len(args) > 1 and args[1].isdigit() else 0
        raise Quit(code)
    if name in ("headers", "header") and len(args) == 2:
        st.headers = on_off(args[1])
        st.headers_set = True
        return True
    if name == "mode":
        if len(args) == 1:
            await st.write(f"current output mode: {st.mode}\n")
            return True
        m = args[1].lower()
        if m not in MODES:
            await st.error("Error: mode should be one of: " + " ".join(MODES))
            return False
        _set_mode(st, m)
        if m == "insert" and len(args) > 2:
            st.insert_table = args[2]
        return True
    if name == "separator" and len(args) >= 2:
        st.colsep = _unescape(args[1])
        if len(args) > 2:
            st.rowsep = _unescape(args[2])
        return True
    if name == "nullvalue" and len(args) == 2:
        st.nullvalue = args[1]
        return True
    if name == "bail" and len(args) == 2:
        st.bail = on_off(args[1])
        return True
    if name == "echo" and len(args) == 2:
        st.echo = on_off(args[1])
        return True
    if name == "width":
        st.widths = [int(a) for a in args[1:] if re.match(r"-?\d+\Z", a)]
        return True
    if name == "print":
        await st.write(" ".join(args[1:]) + "\n")
        return True
    if name == "help":
        await st.write(DOT_HELP)
        return True
    if name == "show":
        await st.write(f"        echo: {'on' if st.echo else 'off'}\n"
                       f"     headers: {'on' if st.headers else 'off'}\n"
                       f"        mode: {st.mode}\n"
                       f"   nullvalue: \"{st.nullvalue}\"\n"
                       f"      output: {st.redirect[1] if st.redirect else 'stdout'}\n"
                       f"colseparator: \"{_escape(st.colsep)}\"\n"
                       f"rowseparator: \"{_escape(st.rowsep)}\"\n"
                       f"    filename: {st.db_vpath or ':memory:'}\n")
        return True
    if name in ("tables", "table", "indexes", "indices", "schema", "databases", "dump"):
        conn = _conn_or_error(st)
        return await _introspect(st, conn, name, args[1:])
    if name in ("output", "once"):
        st.close_redirect()
        st.once = False
        if len(args) == 1 or args[1] in ("stdout", "-"):
            return True
        target = args[1]
        try:
            fd = _common.open_write(st.shell, target)
        except OSError as e:
            await st.error(f'Error: cannot open "{target}"')
            del e
            return False
        await st.out.flush()
        st.redirect = (fd, target)
        st.once = name == "once"
        return True
    if name == "read" and len(args) == 2:
        try:
            data = _common.read_file(st.shell, args[1])
        except OSError:
            await st.error(f'Error: cannot open "{args[1]}"')
            return False
        return await process_text(st, decode(data), lineno_base=0)
    if name == "import":
        return await _import(st, args[1:])
    if name == "open":
        rest = [a for a in args[1:] if not a.startswith("-")]
        if st.conn is not None:
            st.conn.close()
            st.conn = None
        st.db_arg = rest[0] if rest else ":memory:"
        try:
            st.connect()
        except (FileSystemError, CliError):
            await st.error(f"Error: unable to open database \"{st.db_arg}\": unable to open "
                           "database file")
            st.db_arg = ":memory:"
            return False
        return True
    if name in ("timer", "changes", "stats", "scanstats", "prompt", "nonce", "binary", "limit"):
        return True
    await st.error(f'Error: unknown command or invalid arguments:  "{cmd}". Enter ".help" '
                   "for help")
    return False


def _conn_or_error(st: State) -> sqlite3.Connection:
    try:
        return st.connect()
    except FileSystemError as e:
        raise CliError(f'Error: unable to open database "{e.vpath}": unable to open database '
                       "file") from None


def _set_mode(st: State, m: str) -> None:
    st.mode = m
    if m == "csv":
        st.colsep, st.rowsep = ",", "\r\n"
    elif m == "tabs":
        st.mode = "list"
        st.colsep = "\t"
    elif m == "ascii":
        st.colsep, st.rowsep = "\x1f", "\x1e"
    elif m == "list":
        if st.colsep in (",", "\t", "\x1f"):
            st.colsep = "|"
        st.rowsep = "\n"
    elif m in ("column", "box", "table", "markdown", "qbox"):
        if not st.headers_set:
            st.headers = True
        st.rowsep = "\n"
    elif m in ("quote", "json", "line", "insert", "html", "tcl"):
        st.rowsep = "\n"


def _unescape(s: str) -> str:
    return (s.replace("\\t", "\t").replace("\\n", "\n").replace("\\r", "\r")
            .replace("\\\\", "\\"))


def _escape(s: str) -> str:
    return s.replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n").replace("\r", "\\r")


async def _introspect(st: State, conn: sqlite3.Connection, name: str, args: list[str]) -> bool:
    pattern = args[0] if args else None
    if name in ("tables", "table", "indexes", "indices"):
        # sqlite 3.40's shell: one query over every attached schema (names outside main are
        # prefixed), then columns 80 bytes wide, every cell padded to the longest name
        where = ("type IN ('table','view') AND name NOT LIKE 'sqlite_%' AND name LIKE ?1"
                 if name.startswith("t") else "type='index' AND tbl_name LIKE ?1")
        parts = []
        for _, db, *_ in conn.execute("PRAGMA database_list"):
            shown = "name" if db.lower() == "main" else "'" + db.replace("'", "''") + "'||'.'||name"
            parts.append(f"SELECT {shown} FROM {_ident(db)}.sqlite_schema WHERE {where}")
        q = " UNION ALL ".join(parts) + " ORDER BY 1"
        names = [encode(r[0] or "") for r in conn.execute(q, (pattern or "%",))]
        if names:
            w = max(len(n) for n in names)
            nrow = (len(names) + max(1, 80 // (w + 2)) - 1) // max(1, 80 // (w + 2))
            lines = []
            for r in range(nrow):
                cells = [n + b" " * (w - len(n)) for n in names[r::nrow]]
                lines.append(b"  ".join(cells) + b"\n")
            await st.write(decode(b"".join(lines)))
        return True
    if name == "schema":
        q = ("SELECT sql FROM sqlite_schema WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite_%'"
             + (" AND (name LIKE ? OR tbl_name LIKE ?)" if pattern else "")
             + " ORDER BY rowid")
        rows = [r[0] for r in conn.execute(q, (pattern, pattern) if pattern else ())]
        await st.write("".join(r + ";\n" for r in rows))
        return True
    if name == "databases":
        path = st.db_vpath or ""
        await st.write(f"main: {path} {'r/o' if st.readonly else 'r/w'}\n")
        return True
    # .dump
    out = ["PRAGMA foreign_keys=OFF;\n", "BEGIN TRANSACTION;\n"]
    q = ("SELECT name, type, sql FROM sqlite_schema WHERE sql NOT NULL AND type=='table' "
         "AND name!='sqlite_sequence'" + (" AND tbl_name LIKE ?" if pattern else "")
         + " ORDER BY rowid")
    tables = list(conn.execute(q, (pattern,) if pattern else ()))
    for tname, _, sql in tables:
        st.shell.budget.check()
        out.append(sql + ";\n")
        cols = [r[1] for r in conn.execute(f"PRAGMA table_info({_ident(tname)})")]
        sel = ",".join(f"quote({_ident(c)})" for c in cols) or "''"
        for row in conn.execute(f"SELECT {sel} FROM {_ident(tname)}"):
            out.append(f"INSERT INTO {_ident(tname)} VALUES(" + ",".join(
                str(v) for v in row) + ");\n")
            if len(out) > 4096:
                await st.write("".join(out))
                out.clear()
    seq = [r for r in conn.execute("SELECT name FROM sqlite_schema WHERE name='sqlite_sequence'")]
    if seq and not pattern:
        out.append("DELETE FROM sqlite_sequence;\n")
        for n, v in conn.execute("SELECT name, seq FROM sqlite_sequence"):
            out.append(f"INSERT INTO sqlite_sequence VALUES({_sql_quote(n)},{v});\n")
    q = ("SELECT sql FROM sqlite_schema WHERE sql NOT NULL AND type IN ('index','trigger','view')"
         + (" AND tbl_name LIKE ?" if pattern else "") + " ORDER BY rowid")
    for (sql,) in conn.execute(q, (pattern,) if pattern else ()):
        out.append(sql + ";\n")
    out.append("COMMIT;\n")
    await st.write("".join(out))
    return True


async def _import(st: State, args: list[str]) -> bool:
    opts = [a for a in args if a.startswith("--")]
    rest = [a for a in args if not a.startswith("--")]
    skip = 0
    csv_mode = st.mode == "csv" or "--csv" in opts
    if "--skip" in args:
        i = args.index("--skip")
        try:
            skip = int(args[i + 1])
            rest.remove(args[i + 1])
        except (IndexError, ValueError):
            pass
    if len(rest) != 2:
        await st.error("Usage: .import FILE TABLE")
        return False
    fname, table = rest
    try:
        if fname.startswith("|"):
            await st.error("Error: pipes are not available in the sandbox")
            return False
        data = _common.read_file(st.shell, fname)
    except OSError:
        await st.error(f'Error: cannot open "{fname}"')
        return False
    text = decode(data)
    if csv_mode:
        import csv
        import io

        sep = st.colsep if len(st.colsep) == 1 and st.mode == "csv" else ","
        if "--csv" not in opts and st.mode != "csv":
            sep = st.colsep
        rows = list(csv.reader(io.StringIO(text), delimiter=sep[:1] or ","))
    else:
        rsep = st.rowsep if st.rowsep != "\r\n" else "\n"
        lines = text.split(rsep)
        if lines and lines[-1] == "":
            lines.pop()
        rows = [ln.rstrip("\r").split(st.colsep) for ln in lines]
    rows = rows[skip:]
    conn = _conn_or_error(st)
    exists = conn.execute("SELECT 1 FROM sqlite_schema WHERE type='table' AND name=?",
                          (table,)).fetchone()
    if not exists:
        if not rows:
            return True
        header = [encode(c).decode("utf-8", "replace") for c in rows.pop(0)]
        cols = ",".join(f'"{c.replace(chr(34), chr(34) * 2)}" TEXT' for c in header)
        try:
            conn.execute(f'CREATE TABLE {_ident(table)}({cols})')
        except sqlite3.Error as e:
            await st.error(f"Error: {e}")
            return False
        ncol = len(header)
    else:
        ncol = len(conn.execute(f"PRAGMA table_info({_ident(table)})").fetchall())
    ph = ",".join("?" * ncol)
    ok = True
    fixed = []
    for lineno, r in enumerate(rows, start=2 + skip if not exists else 1 + skip):
        if len(r) < ncol:
            await st.error(f"{fname}:{lineno}: expected {ncol} columns but found {len(r)} - "
                           "filling the rest with NULL")
            r = r + [None] * (ncol - len(r))
        elif len(r) > ncol:
            await st.error(f"{fname}:{lineno}: expected {ncol} columns but found {len(r)} - "
                           "extras ignored")
            r = r[:ncol]
        fixed.append([encode(v) if v is not None and _has_surrogates(v) else v for v in r])
    try:
        conn.execute("BEGIN")
        for i in range(0, len(fixed), 5000):
            st.shell.budget.check()
            conn.executemany(f"INSERT INTO {_ident(table)} VALUES({ph})", fixed[i:i + 5000])
        conn.execute("COMMIT")
    except sqlite3.Error as e:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        st.shell.budget.check()
        await st.error(f"Error: {e}")
        ok = False
    return ok


# ------------------------------------------------------------------ input
async def process_text(st: State, text: str, lineno_base: int = 0) -> bool:
    """The CLI's input loop over ``text``: dot-commands at line starts, SQL until complete."""
    ok = True
    pending: list[str] = []
    pending_start = 0
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    for i, line in enumerate(lines, start=1):
        st.shell.budget.check()
        if not pending and line.lstrip().startswith("."):
            if st.echo:
                await st.write(line + "\n")
            try:
                if not await dot_command(st, line):
                    ok = False
                    st.errors += 1
                    if st.bail:
                        return False
            except CliError as e:
                await st.error(str(e))
                return False
            continue
        if not pending:
            if not line.strip():
                continue
            pending_start = i
        pending.append(line)
        chunk = "\n".join(pending) + "\n"
        if sqlite3.complete_statement(chunk):
            pending = []
            if not await run_sql(st, chunk, pending_start + lineno_base):
                ok = False
                if st.bail:
                    return False
    if pending and _has_sql("\n".join(pending)):
        if not await run_sql(st, "\n".join(pending) + ";", pending_start + lineno_base):
            ok = False
    return ok


async def main(shell: Shell, argv: list[str]) -> int:
    st = State(shell)
    args = argv[1:]
    cmds: list[str] = []
    positional: list[str] = []
    i = 0
    while i < len(args):
        a = args[i]
        i += 1
        if not a.startswith("-"):  # options count anywhere on the line, as in sqlite3's shell
            positional.append(a)
            continue
        opt = a.lstrip("-").lower()
        if opt in MODES or opt in ("tabs",):
            # the flag sets the mode only (sqlite 3.40's shell): -column leaves the header
            # setting alone, whichever order -header comes in
            keep = st.headers, st.headers_set
            st.headers_set = True
            _set_mode(st, opt)
            st.headers, st.headers_set = keep
            if opt == "csv":
                st.rowsep = "\n"  # the -csv flag keeps '\n'; '.mode csv' uses '\r\n'
        elif opt == "header" or opt == "headers":
            st.headers = st.headers_set = True
        elif opt == "noheader" or opt == "noheaders":
            st.headers, st.headers_set = False, True
        elif opt in ("separator", "newline", "nullvalue", "cmd", "init", "vfs", "mmap",
                     "pagecache", "lookaside", "heap", "maxsize", "deserialize"):
            if i >= len(args):
                await shell.stderr.write(encode(f"sqlite3: Error: missing argument to {a}\n"))
                return 1
            val = args[i]
            i += 1
            if opt == "separator":
                st.colsep = _unescape(val)
            elif opt == "newline":
                st.rowsep = _unescape(val)
            elif opt == "nullvalue":
                st.nullvalue = val
            elif opt == "cmd":
                cmds.append(val)
            elif opt == "init":
                cmds.insert(0, ".read " + _quote_arg(val))
        elif opt == "bail":
            st.bail = True
        elif opt == "echo":
            st.echo = True
        elif opt == "readonly":
            st.readonly = True
        elif opt in ("batch", "interactive", "safe", "nofollow", "memtrace", "stats", "append",
                     "zip", "unsafe-testing", "no-rowid-in-view"):
            pass
        elif opt == "version":
            await shell.stdout.write(encode(sqlite3.sqlite_version + " " + VERSION.split(" ", 1)[1]
                                            + "\n"))
            return 0
        elif opt == "help":
            await shell.stderr.write(encode(HELP_TEXT))
            return 1 if a.startswith("-") and opt != "help" else 0
        else:
            shown = a[1:] if a.startswith("--") else a
            await shell.stderr.write(encode(f"sqlite3: Error: unknown option: {shown}\n"
                                            "Use -help for a list of options.\n"))
            return 1
    if positional:
        st.db_arg = positional[0]
    sqls = positional[1:]
    status = 0
    try:
        try:
            for c in cmds:
                if c.lstrip().startswith("."):
                    if not await dot_command(st, c):
                        status = 1
                        if st.bail:
                            return 1
                else:
                    if not await run_sql(st, c, None):
                        status = 1
                        if st.bail:
                            return 1
            if sqls:
                for s in sqls:
                    st.last_code = 1
                    if s.lstrip().startswith("."):
                        if not await dot_command(st, s):
                            return 1
                    elif not await run_sql(st, s, None):
                        return st.last_code
            else:
                data = await _read_all(shell)
                if not await process_text(st, decode(data)):
                    status = 1
        except Quit as q:
            status = q.code or status
        except CliError as e:
            await st.error(str(e))
            status = 1
        except FileSystemError as e:
            await st.error(f'Error: unable to open database "{e.vpath}": unable to open '
                           "database file")
            status = 1
        await st.out.flush()
    finally:
        st.close_redirect()
        if st.conn is not None:
            st.conn.close()
    return status


def _quote_arg(s: str) -> str:
    return "'" + s.replace("'", "") + "'"


async def _read_all(shell: Shell) -> bytes:
    buf = bytearray()
    cap = shell.budget.limits.max_string_length
    async for chunk in shell.stdin.chunks():
        buf += chunk
        shell.budget.check()
        if len(buf) > cap:
            from pysh.shellkit import LimitExceeded

            raise LimitExceeded("string", f"{cap} bytes")
    return bytes(buf)
