# ruff: noqa: UP031 - C printf formatting is the point here
"""The awk runtime: the record and its fields, input, output, getline, builtins.

The compiled program is a Python module whose globals are the awk globals
(``V_name`` scalars, ``A_name`` arrays) plus the helpers this module binds
into it. Fields are split lazily; $0 is rebuilt lazily after a field or NF
changes. Output is buffered per destination and written at checkpoints.
"""

from __future__ import annotations

import codecs
import math
import re

from pysh.builtins.awk.awkre import AwkRegex, RegexError
from pysh.builtins.awk.errors import AwkFatal, NextFile
from pysh.builtins.awk.format import FormatCtx, num_to_str, sprintf
from pysh.builtins.awk.gawk import GawkMixin, IcaseRegex
from pysh.builtins.awk.lexer import unescape_string
from pysh.builtins.awk.rand import Random
from pysh.builtins.awk.values import UNINIT, StrNum, looks_numeric, to_num
from pysh.shellkit import BytesInput, CaptureOutput, FileOutput, FileSystemError, WriteError
from pysh.shellkit.text import encode

CHUNK = 64 * 1024
FLUSH_ITEMS = 1024
MAX_OPEN_FILES = 200  # output files open at once; older ones are closed and reopened to append

# whitespace other than blank/tab/newline: default field splitting must not split on it
_WEIRD_WS = re.compile("[\r\v\f\x1c-\x1f\x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]")
_BLANKS = re.compile(r"[ \t\n]+")
_WEIRD_ASCII = "\r\v\f\x1c\x1d\x1e\x1f"


def has_weird_ws(text: str) -> bool:
    """Does text hold whitespace that str.split() splits on but awk's default FS does not?"""
    if text.isascii():
        if text.isprintable():
            return False
        for c in _WEIRD_ASCII:
            if c in text:
                return True
        return False
    return _WEIRD_WS.search(text) is not None


def _space_split_weird(rec: str) -> list[str]:
    r = rec.strip(" \t\n")
    return _BLANKS.split(r) if r else []


_ASSIGN_OPERAND = re.compile(r"[A-Za-z_][A-Za-z0-9_]*=", re.DOTALL)



class AwkArray(dict):
    """An awk array: referencing a missing element creates it (uninitialized)."""

    __slots__ = ()

    def __missing__(self, key):
        self[key] = UNINIT
        return UNINIT


def _strerror(e: FileSystemError) -> str:
    return e.strerror or "error"


class RecordReader:
    """Splits one input stream into records by RS, reading in big chunks."""

    __slots__ = ("stream", "name", "rt", "dec", "buf", "pos", "eof", "weird", "para_start",
                 "closed", "own", "pending", "pending_len")

    def __init__(self, rt: Runtime, stream, name: str, own: bool = True):
        self.rt = rt
        self.stream = stream
        self.name = name
        self.dec = codecs.getincrementaldecoder("utf-8")("surrogateescape")
        self.buf = ""
        self.pos = 0
        self.eof = False
        self.weird = False
        self.para_start = True
        self.closed = False
        self.own = own
        self.pending: list[str] = []
        self.pending_len = 0

    async def fill(self) -> bool:
        """Read one more chunk into the buffer; False at end of input.

        Chunks holding no one-character RS wait in a list (a record longer than a
        chunk is joined once, not copied chunk by chunk)."""
        if self.eof:
            return False
        self.rt.budget.check()
        data = await self.stream.read(CHUNK)
        if not data:
            text = self.dec.decode(b"", final=True)
            self.eof = True
        else:
            text = self.dec.decode(data)
            if not self.weird:
                self.weird = has_weird_ws(text)
            rs = self.rt.g["V_RS"]
            if len(rs) == 1 and rs not in text:
                self.pending.append(text)
                self.pending_len += len(text)
                if self.pending_len > 16 * 1024 * 1024:
                    self.rt.budget.check_string(self.pending_len + len(self.buf))
                return True
        if self.pos:
            self.buf = self.buf[self.pos:]
            self.pos = 0
        if self.pending:
            self.pending.append(text)
            text = "".join(self.pending)
            self.pending.clear()
            self.pending_len = 0
        self.buf += text
        if len(self.buf) > 64 * 1024 * 1024:
            self.rt.budget.check_string(len(self.buf))
        return True

    def take_batch(self) -> list[str] | None:
        """All complete records in the buffer ([] if none yet, None at the very end)."""
        rs = self.rt.g["V_RS"]
        buf = self.buf
        if self.pos:
            buf = buf[self.pos:]
            self.pos = 0
        if rs == "\n" or (len(rs) == 1):
            sep = rs
            if self.eof:
                self.buf = ""
                if not buf:
                    return None
                recs = buf.split(sep)
                if recs[-1] == "":
                    recs.pop()
                return recs
            k = buf.rfind(sep)
            if k < 0:
                self.buf = buf
                return []
            self.buf = buf[k + 1:]
            return buf[:k].split(sep)
        out = []
        self.buf = buf
        while True:
            r = self.next_record()
            if r is None:
                break
            out.append(r)
        if not out and self.eof and not self.buf:
            return None
        return out

    def next_record(self) -> str | None:
        """One complete record from the buffer, or None when more input is needed (or at end)."""
        rs = self.rt.g["V_RS"]
        buf = self.buf
        pos = self.pos
        if rs == "":
            return self._next_paragraph()
        if len(rs) == 1:
            k = buf.find(rs, pos)
            if k >= 0:
                self.pos = k + 1
                return buf[pos:k]
            if self.eof and pos < len(buf):
                self.buf = ""
                self.pos = 0
                return buf[pos:]
            return None
        rx = self.rt.regex(rs)
        while True:
            m = rx.extent(buf, pos)
            if m is not None and m.end() == m.start():
                # an empty match separates nothing: look further
                m2 = None
                p = m.end() + 1
                while p <= len(buf):
                    m2 = rx.extent(buf, p)
                    if m2 is None or m2.end() > m2.start():
                        break
                    p = m2.end() + 1
                    m2 = None
                m = m2
            if m is not None and (m.end() < len(buf) or self.eof):
                self.pos = m.end()
                return buf[pos:m.start()]
            if self.eof:
                if pos < len(buf):
                    self.buf = ""
                    self.pos = 0
                    return buf[pos:]
                return None
            return None

    def _next_paragraph(self) -> str | None:
        buf = self.buf
        pos = self.pos
        if self.para_start:
            while pos < len(buf) and buf[pos] == "\n":
                pos += 1
            self.pos = pos
            if pos >= len(buf):
                return None
            self.para_start = False
        k = buf.find("\n\n", pos)
        if k >= 0:
            e = k + 2
            while e < len(buf) and buf[e] == "\n":
                e += 1
            if e < len(buf) or self.eof:
                self.pos = e
                return buf[pos:k]
            return None
        if self.eof and pos < len(buf):
            rec = buf[pos:].rstrip("\n")
            self.buf = ""
            self.pos = 0
            return rec if rec else None
        return None

    async def read_record(self) -> str | None:
        while True:
            r = self.next_record()
            if r is not None:
                return r
            if not await self.fill():
                r = self.next_record()
                return r

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            if self.own:
                try:
                    self.stream.close()
                except Exception:  # noqa: BLE001 - closing never fails the program
                    pass


class Output:
    """One output destination: stdout, stderr, a file, or a command (run at close)."""

    __slots__ = ("name", "kind", "buf", "stream", "rt", "base", "mark")

    def __init__(self, rt: Runtime, name: str, kind: str, stream=None):
        self.rt = rt
        self.name = name
        self.kind = kind  # stdout stderr file pipe
        self.buf: list[str] = []
        self.stream = stream
        self.base = 0  # items written out so far (stdout: where a pipe's output goes)
        self.mark = 0  # a pipe: stdout items printed before it was opened

    def write(self, s: str) -> None:
        buf = self.buf
        buf.append(s)
        if len(buf) > FLUSH_ITEMS and self.kind != "pipe":
            self.rt.dirty = True

    async def flush(self, upto: int | None = None) -> None:
        if self.kind == "pipe" or not self.buf:
            return
        if upto is None or upto >= len(self.buf):
            items = self.buf[:]
            self.buf.clear()
        else:
            items = self.buf[:upto]
            del self.buf[:upto]
        self.base += len(items)
        data = encode("".join(items))
        stream = self.stream
        if stream is None:
            return
        if self.kind != "file":
            await stream.write(data)
            return
        try:
            await stream.write(data)
            await stream.flush()
        except WriteError as e:
            raise AwkFatal(f'flush to "{self.name}" failed: {e}') from None


class Runtime(GawkMixin):
    """State of one awk run; the compiled program's helpers are its bound methods."""

    def __init__(self, shell, g: dict, srcname: str):
        self.shell = shell
        self.budget = shell.budget
        self.g = g
        self.srcname = srcname
        self.rec: str | None = ""
        self.flds: list | None = []
        self.rb_ofs = " "
        self.rx_cache: dict[str, AwkRegex] = {}
        self._sp_fast = str.split
        self._sp_weird = _space_split_weird
        self.splitter = str.split
        self.stdout = Output(self, "/dev/stdout", "stdout", shell.stdout)
        self.stderr = Output(self, "/dev/stderr", "stderr", shell.stderr)
        self.outputs: dict[str, Output] = {}
        self.parked: set[str] = set()
        self.open_files = 0
        self.inputs: dict[str, RecordReader] = {}
        self.dirty = False
        self.cur: RecordReader | None = None
        self.argi = 1
        self.used_file = False
        self.input_done = False
        self.random = Random()
        self.glval = ""
        self.max_str = self.budget.limits.max_string_length
        self.fmt_ctx = FormatCtx(self.tonum, self.tostr, self.isnum_for_c)
        self.ranges: dict[int, bool] = {}
        self.warned: set[str] = set()

    # -- conversions ----------------------------------------------------------
    def tonum(self, v) -> float:
        return to_num(v)

    def tostr(self, v) -> str:
        if v.__class__ is float:
            if v.is_integer():
                return "%d" % v
            return num_to_str(v, self.g["V_CONVFMT"])
        return v

    def ostr(self, v) -> str:
        if v.__class__ is float:
            if v.is_integer():
                return "%d" % v
            return num_to_str(v, self.g["V_OFMT"])
        return v

    def isnum_for_c(self, v) -> bool:
        if v.__class__ is float:
            return True
        if isinstance(v, StrNum) and v is not UNINIT:
            return looks_numeric(v) is not None
        return False

    def regex(self, src: str) -> AwkRegex:
        rx = self.rx_cache.get(src)
        if rx is None:
            try:
                rx = AwkRegex(src, self.budget)
            except RegexError as e:
                msg = str(e)
                if msg.startswith("Unmatched ["):
                    msg = "Invalid regular expression"  # gawk's wording for this one
                raise AwkFatal(f"invalid regexp: {msg}: /{src}/") from None
            if self.icase_mode:
                rx = IcaseRegex(self, rx, src)
            if len(self.rx_cache) > 500:
                self.rx_cache.clear()
            self.rx_cache[src] = rx
        return rx

    def dyn_regex(self, v) -> AwkRegex:
        if isinstance(v, (AwkRegex, IcaseRegex)):
            return v
        return self.regex(self.tostr(v))

    def check_str(self, s: str) -> str:
        if len(s) > self.max_str:
            self.budget.check_string(len(s))
        return s

    # -- the record -------------------------------------------------------------
    def set_record(self, s: str) -> None:
        self.rec = s
        self.flds = None
        if self.splitter is not self._sp_weird and has_weird_ws(s):
            self.splitter = self._sp_weird

    def set_weird(self, weird: bool) -> None:
        self.splitter = self._sp_weird if weird else self._sp_fast

    def _prep_fs(self) -> None:
        """Choose the field splitter for the current FS (and RS: paragraph mode)."""
        fs = self.g["V_FS"]
        para = self.g["V_RS"] == ""
        weird = self.splitter is self._sp_weird
        if fs == " ":
            self._sp_fast = str.split
            self._sp_weird = _space_split_weird
        elif fs == "":
            self._sp_fast = self._sp_weird = list
        elif len(fs) == 1 and fs != "\\" and not para:
            sep = fs
            self._sp_fast = self._sp_weird = lambda r: r.split(sep)
        else:
            if len(fs) == 1:
                src = "[" + ("\\\\" if fs == "\\" else fs if fs not in "^]" else "\\" + fs) + "]"
            else:
                src = fs
            if para and len(fs) == 1:
                # paragraph mode: newline separates fields too (for a one-character FS)
                src = "(" + src + ")|\n"
            rx = self.regex(src)
            re_split = self._re_split
            self._sp_fast = self._sp_weird = lambda r: re_split(r, rx)
        self.splitter = self._sp_weird if weird else self._sp_fast

    def split(self) -> list:
        rec = self.rec
        if rec is None:
            rec = self.rebuild()
        f = self.splitter(rec) if rec else []
        self.flds = f
        return f

    def _re_split(self, s: str, rx: AwkRegex) -> list[str]:
        out = []
        pos = 0
        n = len(s)
        search = rx.extent
        p = 0
        while p <= n:
            m = search(s, p)
            if m is None:
                break
            st, en = m.start(), m.end()
            if en == st:
                p = st + 1
                continue
            out.append(s[pos:st])
            pos = p = en
        out.append(s[pos:])
        return out

    def ensure_split(self) -> None:
        if self.flds is None:
            self.split()

    def rebuild(self) -> str:
        f = self.flds or []
        try:
            s = self.rb_ofs.join(f)
        except TypeError:  # a field holds a number
            tostr = self.tostr
            s = self.rb_ofs.join([x if isinstance(x, str) else tostr(x) for x in f])
        self.rec = s
        return s

    def get0(self) -> str:
        r = self.rec
        return r if r is not None else self.rebuild()

    def fstr(self, i: int) -> str:
        f = self.flds
        if f is None:
            f = self.split()
        if i <= len(f):
            v = f[i - 1]
            return v if v.__class__ is str else self.tostr(v)
        return ""

    def fnum(self, i: int) -> float:
        f = self.flds
        if f is None:
            rec = self.rec
            if rec is None:
                rec = self.rebuild()
            f = self.flds = self.splitter(rec) if rec else []
        if i <= len(f):
            v = f[i - 1]
            if v.__class__ is str:
                if not v or v[0] > "9":
                    return 0.0
                try:
                    x = float(v)
                except ValueError:
                    return to_num(v)
                if x - x == 0.0 and v.isascii() and "_" not in v:
                    return x
            return to_num(v)
        return 0.0

    def fval(self, i: int):
        f = self.flds
        if f is None:
            f = self.split()
        if i <= len(f):
            v = f[i - 1]
            return StrNum(v) if v.__class__ is str else v
        return ""

    def _findex(self, x) -> int:
        v = to_num(x)
        if v != v:
            raise AwkFatal("attempt to access field -1")
        i = int(v)
        if i < 0:
            raise AwkFatal(f"attempt to access field {i}")
        return i

    def dstr(self, x) -> str:
        i = self._findex(x)
        if i == 0:
            return self.get0()
        return self.fstr(i)

    def dnum(self, x) -> float:
        i = self._findex(x)
        if i == 0:
            return to_num(self.get0())
        return self.fnum(i)

    def dval(self, x):
        i = self._findex(x)
        if i == 0:
            return StrNum(self.get0())
        return self.fval(i)

    def setfield(self, x, v):
        i = self._findex(x) if x.__class__ is not int else x
        if i == 0:
            self.set_record(self.tostr(v))
            return v
        if i > 10_000_000:
            self.budget.check_array(i)
        f = self.flds
        if f is None:
            f = self.split()
        if i > len(f):
            f.extend([""] * (i - len(f)))
        f[i - 1] = v
        self.rec = None
        self.rb_ofs = self.g["V_OFS"]
        return v

    def get_nf(self) -> float:
        f = self.flds
        if f is None:
            f = self.split()
        return float(len(f))

    def set_nf(self, v) -> float:
        n = int(to_num(v))
        if n < 0:
            raise AwkFatal("NF set to negative value")
        if n > 10_000_000:
            self.budget.check_array(n)
        f = self.flds
        if f is None:
            f = self.split()
        if n < len(f):
            del f[n:]
        else:
            f.extend([""] * (n - len(f)))
        self.rec = None
        self.rb_ofs = self.g["V_OFS"]
        return float(n)

    def set_fs(self, v) -> str:
        """FS changes apply to the next record: split the current one first."""
        if self.flds is None and self.rec is not None:
            self.split()
        s = self.tostr(v)
        self.g["V_FS"] = s
        self._prep_fs()
        return s

    def set_rs(self, v) -> str:
        s = self.tostr(v)
        was_para = self.g["V_RS"] == ""
        self.g["V_RS"] = s
        if (s == "") != was_para:
            if self.flds is None and self.rec is not None:
                self.split()
            self._prep_fs()
        return s

    # -- special-variable assignment (from -v, operands, getline var, sub) -------
    def assign_var(self, name: str, value) -> None:
        g = self.g
        if name == "NF":
            self.set_nf(value)
        elif name in ("NR", "FNR", "RSTART", "RLENGTH"):
            g["V_" + name] = to_num(value)
        elif name == "FS":
            self.set_fs(value)
        elif name == "RS":
            self.set_rs(value)
        elif name in ("OFS", "ORS", "RS", "SUBSEP", "CONVFMT", "OFMT", "FILENAME"):
            g["V_" + name] = self.tostr(value)
        else:
            g["V_" + name] = value

    # -- main input ----------------------------------------------------------------
    inplace = None  # an InPlace editor (-i inplace): it starts before BEGINFILE, as gawk's

    async def open_next(self) -> bool:
        """Open the next input operand from ARGV (handling var=value operands)."""
        g = self.g
        argv = g["A_ARGV"]
        while True:
            argc = int(to_num(g["V_ARGC"]))
            if self.argi >= argc:
                break
            key = str(self.argi)
            self.argi += 1
            arg = argv.get(key)
            if arg is None:
                continue
            arg = self.tostr(arg)
            if arg == "":
                continue
            if _ASSIGN_OPERAND.match(arg):
                name, _, val = arg.partition("=")
                if name not in self.program_names_forbidden:
                    self.assign_operand(name, val)
                    continue
            self.used_file = True
            g["V_FNR"] = 0.0
            if self.beginfile is None:
                self.cur = self.open_main_file(arg)
                g["V_FILENAME"] = arg
                if self.inplace is not None:
                    await self.inplace.begin(self, arg)
                return True
            g["V_FILENAME"] = arg
            try:
                self.cur = self.open_main_file(arg)
                if self.inplace is not None:
                    await self.inplace.begin(self, arg)
                g["V_ERRNO"] = ""
            except AwkFatal as e:
                # BEGINFILE sees the error in ERRNO and may skip the file with nextfile
                g["V_ERRNO"] = e.msg.rsplit(": ", 1)[-1]
                if not await self._run_beginfile():
                    continue
                raise AwkFatal(e.msg, line=self.beginfile_line) from None
            if not await self._run_beginfile():
                self.cur.close()
                self.cur = None
                self.end_pending = True
                await self._run_endfile()
                continue
            return True
        if not self.used_file:
            self.used_file = True
            self.cur = RecordReader(self, self.shell.stdin, "-", own=False)
            g["V_FNR"] = 0.0
            g["V_FILENAME"] = self.stdin_filename
            if self.inplace is not None:
                await self.inplace.begin(self, "-")
            if self.beginfile is not None and not await self._run_beginfile():
                self.cur = None
                self.end_pending = True
                await self._run_endfile()
            return True
        self.input_done = True
        return False

    # BEGINFILE / ENDFILE: the compiled rules, when the program has them
    beginfile = endfile = None
    beginfile_line = 1
    end_pending = False

    async def _run_beginfile(self) -> bool:
        """Run BEGINFILE; False when it said nextfile."""
        try:
            await self.beginfile()
        except NextFile:
            return False
        return True

    async def _run_endfile(self) -> None:
        if self.end_pending and self.endfile is not None:
            self.end_pending = False
            await self.endfile()
        self.end_pending = False

    program_names_forbidden: frozenset = frozenset()
    stdin_filename = "-"

    def assign_operand(self, name: str, val: str) -> None:
        v = StrNum(unescape_string(val, self.warn))
        if ("F_" + name) in self.g:
            raise AwkFatal(f"cannot use function `{name}' as variable name")
        if isinstance(self.g.get("A_" + name), dict):
            raise AwkFatal(f"cannot assign to array `{name}'")
        self.assign_var(name, v)

    def open_main_file(self, name: str) -> RecordReader:
        if name == "-" or name == "/dev/stdin":
            return RecordReader(self, self.shell.stdin, name, own=False)
        try:
            stream = self.shell.open_input(name)
        except FileSystemError as e:
            raise AwkFatal(f"cannot open file `{name}' for reading: {_strerror(e)}",
                           line=self._last_line()) from None
        if self._is_dir(name):
            stream.close()
            raise AwkFatal(f"cannot open file `{name}' for reading: Is a directory",
                           line=self._last_line())
        return RecordReader(self, stream, name)

    last_rule_line = -1

    def _last_line(self) -> int:
        """The program line gawk would name: the last rule run, if any record was."""
        nr = self.g.get("V_NR", 0.0)
        return self.last_rule_line if nr.__class__ is float and nr > 0 else -1

    def _is_dir(self, name: str) -> bool:
        try:
            return self.shell.fs.is_dir(name)
        except (FileSystemError, OSError):
            return False

    async def next_batch(self) -> list[str] | None:
        """The next list of records of the main input (batch mode), None at the end."""
        while True:
            rd = self.cur
            if rd is None:
                if self.input_done or not await self.open_next():
                    return None
                rd = self.cur
            b = rd.take_batch()
            if b:
                self.splitter = self._sp_weird if rd.weird else self._sp_fast
                return b
            if b is None or rd.eof:
                rd.close()
                self.cur = None
                continue
            if not await rd.fill():
                continue

    def next_main_record_sync(self) -> str | None:
        rd = self.cur
        if rd is None:
            return None
        r = rd.next_record()
        if r is not None and rd.weird:
            self.splitter = self._sp_weird
        return r

    async def next_main_record(self) -> str | None:
        while True:
            rd = self.cur
            if rd is None:
                if self.end_pending:
                    await self._run_endfile()
                if self.input_done or not await self.open_next():
                    return None
                rd = self.cur
                if rd is None:
                    continue
            r = rd.next_record()
            if r is not None:
                if rd.weird:
                    self.splitter = self._sp_weird
                return r
            if not await rd.fill():
                r = rd.next_record()
                if r is not None:
                    if rd.weird:
                        self.splitter = self._sp_weird
                    return r
                rd.close()
                self.cur = None
                self.end_pending = self.beginfile is not None

    def skip_file(self) -> None:
        if self.cur is not None:
            self.cur.close()
            self.cur = None
            self.end_pending = self.beginfile is not None

    # -- getline ---------------------------------------------------------------------
    async def getline_main(self) -> float:
        """Plain getline: the next main-input record into $0; NR, FNR, NF updated."""
        rec = await self.next_main_record()
        if rec is None:
            return 0.0
        g = self.g
        g["V_NR"] = to_num(g["V_NR"]) + 1.0
        g["V_FNR"] = to_num(g["V_FNR"]) + 1.0
        self.rec = rec
        self.flds = None
        return 1.0

    def getline_main_sync(self, to_var: bool) -> float | None:
        """Plain getline from what is already buffered; None when input must be read."""
        rd = self.cur
        if rd is None:
            return None
        rec = rd.next_record()
        if rec is None:
            return None
        g = self.g
        nr = g["V_NR"]
        g["V_NR"] = (nr if nr.__class__ is float else to_num(nr)) + 1.0
        fnr = g["V_FNR"]
        g["V_FNR"] = (fnr if fnr.__class__ is float else to_num(fnr)) + 1.0
        if to_var:
            self.glval = StrNum(rec)
        else:
            self.rec = rec
            self.flds = None
            if rd.weird:
                self.splitter = self._sp_weird
        return 1.0

    async def getline_main_var(self) -> float:
        rec = await self.next_main_record()
        if rec is None:
            return 0.0
        g = self.g
        g["V_NR"] = to_num(g["V_NR"]) + 1.0
        g["V_FNR"] = to_num(g["V_FNR"]) + 1.0
        self.glval = StrNum(rec)
        return 1.0

    async def _file_reader(self, name: str) -> RecordReader | None:
        rd = self.inputs.get(name)
        if rd is not None:
            return rd
        if name in self.outputs:
            await self.outputs[name].flush()
        if name == "-" or name == "/dev/stdin":
            rd = RecordReader(self, self.shell.stdin, name, own=False)
        else:
            try:
                stream = self.shell.open_input(name)
            except FileSystemError:
                return None
            rd = RecordReader(self, stream, name)
        self.inputs[name] = rd
        return rd

    async def getline_file(self, name_v, to_var: bool) -> float:
        name = self.tostr(name_v)
        rd = await self._file_reader(name)
        if rd is None:
            return -1.0
        try:
            rec = await rd.read_record()
        except FileSystemError:
            return -1.0
        except OSError:
            return -1.0
        if rec is None:
            return 0.0
        if to_var:
            self.glval = StrNum(rec)
        else:
            self.set_record(rec)
        return 1.0

    async def getline_cmd(self, cmd_v, to_var: bool) -> float:
        cmd = self.tostr(cmd_v)
        rd = self.inputs.get(cmd)
        if rd is None:
            await self.flush_all()
            cap = CaptureOutput(limit=self.max_str)
            status = await self.run_command(cmd, stdout=cap)
            rd = RecordReader(self, BytesInput(cap.getvalue()), cmd)
            rd.own = False
            self.cmd_status[cmd] = status
            self.inputs[cmd] = rd
        rec = await rd.read_record()
        if rec is None:
            return 0.0
        g = self.g
        g["V_NR"] = to_num(g["V_NR"]) + 1.0
        if to_var:
            self.glval = StrNum(rec)
        else:
            self.set_record(rec)  # cmd | getline sets $0, NF and NR (not FNR)
        return 1.0

    cmd_status: dict

    async def run_command(self, cmd: str, stdin=None, stdout=None) -> int:
        shell = self.shell
        if shell.executor is None:
            await shell.error("awk", f"cannot run `{cmd}': no shell to run commands")
            return 127
        kw = {}
        if stdin is not None:
            kw["stdin"] = stdin
        if stdout is not None:
            kw["stdout"] = stdout
        try:
            return await shell.run_script(cmd, **kw)
        except NotImplementedError:
            await shell.error("awk", f"cannot run `{cmd}': running commands needs the interpreter")
            return 127

    # -- output ------------------------------------------------------------------------
    def redirect(self, kind: str, name_v) -> Output:
        name = self.tostr(name_v)
        o = self.outputs.get(name)
        if o is not None:
            return o
        if name in ("/dev/stdout", "-"):
            return self.stdout
        if name == "/dev/stderr":
            return self.stderr
        if kind == "|":
            o = Output(self, name, "pipe")
            # gawk flushes its output when it starts a command; here the command runs at
            # close(), after what was printed before it opened, before what came later
            o.mark = self.stdout.base + len(self.stdout.buf)
        else:
            if self.open_files >= MAX_OPEN_FILES:
                self._park_one()
            # a file parked to free its descriptor is still open for awk: append to it
            append = kind == ">>" or name in self.parked
            try:
                stream = self.shell.open_output(name, append=append)
            except FileSystemError as e:
                raise AwkFatal(f"cannot redirect to `{name}': {_strerror(e)}") from None
            self.parked.discard(name)
            o = Output(self, name, "file", stream)
            self.open_files += 1
        self.outputs[name] = o
        return o

    def _park_one(self) -> None:
        """Too many files open: write out and close the oldest plain file (gawk does too)."""
        for name, o in self.outputs.items():
            if o.kind == "file" and isinstance(o.stream, FileOutput):
                if o.buf:
                    o.stream.file.write(encode("".join(o.buf)))
                    o.buf.clear()
                o.stream.close()
                del self.outputs[name]
                self.parked.add(name)
                self.open_files -= 1
                return

    async def flush_all(self) -> None:
        self.dirty = False
        await self.stdout.flush()
        for o in list(self.outputs.values()):
            await o.flush()
        await self.stderr.flush()

    async def checkpoint(self) -> None:
        """Flush what has piled up (called between records and in loops)."""
        self.dirty = False
        if len(self.stdout.buf) > FLUSH_ITEMS:
            await self.stdout.flush()
        for o in self.outputs.values():
            if len(o.buf) > FLUSH_ITEMS:
                await o.flush()
        if len(self.stderr.buf) > 0:
            await self.stderr.flush()

    async def close(self, name_v, how=None) -> float:
        name = self.tostr(name_v)
        result = -1.0
        o = self.outputs.pop(name, None)
        if o is not None:
            result = await self._close_output(o)
        elif name in self.parked:
            self.parked.discard(name)
            result = 0.0
        rd = self.inputs.pop(name, None)
        if rd is not None:
            rd.close()
            st = self.cmd_status.pop(name, None)
            result = float(st) if st is not None else 0.0
        return result

    async def _close_output(self, o: Output) -> float:
        if o.kind == "file":
            self.open_files -= 1
        if o.kind == "pipe":
            data = encode("".join(o.buf))
            o.buf.clear()
            before = o.mark - self.stdout.base
            if before > 0:
                await self.stdout.flush(before)
            for other in self.outputs.values():
                if other.kind == "file":
                    await other.flush()
            status = await self.run_command(o.name, stdin=BytesInput(data))
            return float(status)
        await o.flush()
        if o.stream is not None:
            o.stream.close()
        return 0.0

    cur_line = -1

    async def fflush(self, name_v=None, line: int = -1) -> float:
        self.cur_line = line
        if name_v is None:
            await self.flush_all()
            return 0.0
        name = self.tostr(name_v)
        if name in ("/dev/stdout", "-"):
            await self.stdout.flush()
            return 0.0
        if name == "/dev/stderr":
            await self.stderr.flush()
            return 0.0
        o = self.outputs.get(name)
        if o is None:
            self.warn_at(self.cur_line, f"fflush: `{name}' is not an open file, pipe or co-process")
            return -1.0
        await o.flush()
        return 0.0

    async def system(self, cmd_v) -> float:
        await self.flush_all()
        cmd = self.tostr(cmd_v)
        status = await self.run_command(cmd)
        return float(status)

    async def close_all(self) -> None:
        """At exit: close every redirection (files, then commands run), then stdout."""
        for name in list(self.outputs):
            o = self.outputs.pop(name)
            await self._close_output(o)
        for rd in self.inputs.values():
            rd.close()
        self.inputs.clear()
        await self.stdout.flush()
        await self.stderr.flush()

    def warn(self, msg: str) -> None:
        self.stderr.write(f"awk: warning: {msg}\n")

    def prefix(self, line: int | None) -> str:
        """gawk's message prefix: where in the program, and in the input."""
        out = "awk: "
        if line is not None and line > 0:
            name, ln = self.where(line)
            out += f"{name}:{ln}: "
        fnr = self.g.get("V_FNR", 0.0)
        if fnr.__class__ is float and fnr > 0:
            fn = self.tostr(self.g.get("V_FILENAME", ""))
            out += f"(FILENAME={fn} FNR={int(fnr)}) "
        return out

    def warn_at(self, line: int, msg: str) -> None:
        self.stderr.write(f"{self.prefix(line)}warning: {msg}\n")

    def log(self, x: float, line: int) -> float:
        if x < 0:
            self.warn_at(line, f"log: received negative argument {num_to_str(x, '%g')}")
        return c_log(x)

    def sqrt(self, x: float, line: int) -> float:
        if x < 0:
            self.warn_at(line, f"sqrt: received negative argument {num_to_str(x, '%g')}")
        return c_sqrt(x)

    def exp(self, x: float, line: int) -> float:
        try:
            return math.exp(x)
        except OverflowError:
            self.warn_at(line, f"exp: argument {num_to_str(x, '%g')} is out of range")
            return math.inf

    def where(self, line: int):
        return "cmd. line", line

    # -- builtins ------------------------------------------------------------------------
    def length(self, v) -> float:
        if isinstance(v, dict):
            return float(len(v))
        return float(len(self.tostr(v)))

    def substr(self, s, m, n=None) -> str:
        s = self.tostr(s)
        mv = to_num(m)
        ln = len(s)
        if mv != mv:
            return ""
        start = _trunc_int(mv)
        if start < 1:
            start = 1
        if n is None:
            return s[start - 1:]
        nv = to_num(n)
        if nv != nv:
            return ""
        if nv == math.inf:
            return s[start - 1:]
        cnt = _trunc_int(nv)
        if cnt <= 0 or start > ln:
            return ""
        return s[start - 1:start - 1 + cnt]

    def awk_split(self, s, arr: dict, sep=None, seps=None) -> float:
        s = self.tostr(s)
        arr.clear()
        rx = fs = None
        if sep is None:
            fs = self.g["V_FS"]
            parts = self._split_with(s, fs, regex=None)
        elif isinstance(sep, (AwkRegex, IcaseRegex)):
            rx = sep
            parts = self._re_split(s, sep) if s else []
        else:
            fs = self.tostr(sep)
            parts = self._split_with(s, fs, regex=None)
        if len(parts) > 1_000_000:
            self.budget.check_array(len(parts))
        for i, p in enumerate(parts, 1):
            arr[str(i)] = StrNum(p)
        if seps is not None:
            if rx is None and fs is not None and fs != " " and fs != "" and (
                    len(fs) > 1 or fs == "\\"):
                rx = self.regex(fs)
            self.split_seps(s, parts, rx, fs, seps)
        return float(len(parts))

    def _split_with(self, s: str, fs: str, regex) -> list[str]:
        if not s:
            return []
        if fs == " ":
            r = s.strip(" \t\n")
            if not r:
                return []
            if _WEIRD_WS.search(r):
                return _BLANKS.split(r)
            return r.split()
        if fs == "":
            return list(s)
        if len(fs) == 1 and fs != "\\":
            return s.split(fs)
        return self._re_split(s, self.regex(fs))

    def sub(self, rx, repl, target, global_: bool):
        """Returns (count, new string)."""
        rx = self.dyn_regex(rx)
        target = self.tostr(target)
        repl = self.tostr(repl)
        fast = rx.fast_sub
        if fast is not None and len(target) <= rx.fast_lim:
            # the pattern never matches empty: Python's substitution is awk's
            res, count = fast(_py_template(repl), target, 0 if global_ else 1)
            if not count:
                return 0.0, None
            self.check_str(res)
            return float(count), res
        parts = _parse_repl(repl)
        out = []
        pos = 0
        count = 0
        for m in awk_matches(rx, target, self.budget):
            st, en = m.start(), m.end()
            out.append(target[pos:st])
            matched = target[st:en]
            for piece in parts:
                out.append(matched if piece is None else piece)
            count += 1
            pos = en
            if not global_:
                break
        if count == 0:
            return 0.0, None
        out.append(target[pos:])
        res = "".join(out)
        self.check_str(res)
        return float(count), res

    def sprintf(self, fmt, *args) -> str:
        return sprintf(self.tostr(fmt), list(args), self.fmt_ctx, self.budget.check_string)

    def srand(self, seed=None) -> float:
        if seed is None:
            import time

            seed = float(int(time.time()))
        else:
            seed = to_num(seed)
        return self.random.srand(seed)

    def rand(self) -> float:
        return self.random.rand()


def awk_matches(rx, target: str, budget):
    """The matches sub, gsub and gensub replace: leftmost-longest from left to right, where
    an empty match right after the previous match does not count."""
    n = len(target)
    p = 0
    last_end = -1
    count = 0
    search = rx.extent
    while p <= n:
        m = search(target, p)
        if m is None:
            return
        st, en = m.start(), m.end()
        if st == en and st == last_end:
            if st >= n:
                return
            p = st + 1
            continue
        yield m
        last_end = en
        count += 1
        if st == en:
            if st >= n:
                return
            p = st + 1
        else:
            p = en
        if count & 1023 == 0:
            budget.check()


def _trunc_int(v: float) -> int:
    if v >= 9e18:
        return 2 ** 62
    if v <= -9e18:
        return -(2 ** 62)
    return int(v)


_tmpl_cache: dict[str, str] = {}


def _py_template(repl: str) -> str:
    """An awk replacement as a Python re template (& is the match)."""
    t = _tmpl_cache.get(repl)
    if t is None:
        t = "".join("\\g<0>" if p is None else p.replace("\\", "\\\\") for p in _parse_repl(repl))
        if len(_tmpl_cache) > 200:
            _tmpl_cache.clear()
        t = _tmpl_cache[repl] = t
    return t


_repl_cache: dict[str, list] = {}


def _parse_repl(repl: str) -> list:
    """sub/gsub replacement, POSIX rules: & is the match, \\& a literal &, \\\\ a backslash."""
    r = _repl_cache.get(repl)
    if r is not None:
        return r
    parts: list = []
    cur: list[str] = []
    i = 0
    n = len(repl)
    while i < n:
        c = repl[i]
        if c == "\\" and i + 1 < n and repl[i + 1] in "&\\":
            cur.append(repl[i + 1])
            i += 2
            continue
        if c == "&":
            if cur:
                parts.append("".join(cur))
                cur = []
            parts.append(None)
            i += 1
            continue
        cur.append(c)
        i += 1
    if cur:
        parts.append("".join(cur))
    if len(_repl_cache) > 200:
        _repl_cache.clear()
    _repl_cache[repl] = parts
    return parts


# -- math with C semantics ------------------------------------------------------------
def c_log(x: float) -> float:
    if x > 0:
        return math.log(x) if x != math.inf else math.inf
    if x == 0:
        return -math.inf
    if x != x:
        return x
    return -math.nan


def c_sqrt(x: float) -> float:
    if x >= 0:
        return math.sqrt(x)
    if x != x:
        return x
    return -math.nan


def c_exp(x: float) -> float:
    try:
        return math.exp(x)
    except OverflowError:
        return math.inf


def c_sin(x: float) -> float:
    if x - x != 0.0:
        return -math.nan if x == x else x
    return math.sin(x)


def c_cos(x: float) -> float:
    if x - x != 0.0:
        return -math.nan if x == x else x
    return math.cos(x)


def c_pow(a: float, b: float) -> float:
    try:
        r = a ** b
    except ZeroDivisionError:
        return math.inf if not (b.is_integer() and int(b) % 2 == 1 and math.copysign(1, a) < 0) \
            else -math.inf
    except OverflowError:
        if a < 0 and b.is_integer() and int(b) % 2 == 1:
            return -math.inf
        return math.inf
    if r.__class__ is complex:
        return -math.nan
    return r


def c_fmod(a: float, b: float) -> float:
    if b == 0:
        raise AwkFatal("division by zero attempted in `%'")
    if a - a != 0.0:
        return -math.nan
    if b - b != 0.0:
        return a if b == b else b
    return math.fmod(a, b)


def c_int(x: float) -> float:
    if x - x != 0.0:
        return x
    return float(int(x))


def divzero():
    raise AwkFatal("division by zero attempted")
