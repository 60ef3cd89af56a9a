"""Word expansion in bash's order: brace, tilde, parameter, arithmetic, command and
process substitution, word splitting, pathname expansion, quote removal.

Parts expand to *segments*: ``(text, kind)`` with kind LIT (unquoted literal:
glob-active, never split), QUOTED (neither), EXP (an unquoted expansion
result: split on IFS and glob-active); ``BREAK`` forces a field boundary
(``"$@"``, array elements). Fields are then built from segments.
"""

from __future__ import annotations

import re
import time
from functools import lru_cache

from pysh.interpreter import pattern as pat
from pysh.interpreter.errors import ExpansionError, NounsetError, ReadonlyError
from pysh.interpreter.state import (
    ASSOC,
    CAPCASE,
    NAMEREF,
    UPPER,
    attr_letters,
)
from pysh.interpreter.syntax import ast as A
from pysh.interpreter.syntax.lexer import tilde_prefix

LIT, QUOTED, EXP = 0, 1, 2
BREAK = None

DEFAULT_IFS = " \t\n"
_PARTS_PER_POLL = 256  # word parts expanded between two deadline checks


# Plans: what a word's expansion comes down to, worked out once per word (Word.run).
_GENERAL, _LIT, _LIT_GLOB, _PARAM, _DQ_PARAM, _ARITH = range(6)
_SIMPLE_NAME_FIRST = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_")
_SPECIAL_NAMES = frozenset(("?", "#", "$", "!", "-", "0", "_"))


def _simple_param(p) -> str | None:
    """The name of a plain ``$x`` / ``${x}`` (no operator, index, length, indirection)."""
    if type(p) is not A.Param or p.op is not None or p.index is not None or p.length \
            or p.indirect:
        return None
    name = p.name
    if name[:1] in _SIMPLE_NAME_FIRST or name in _SPECIAL_NAMES or name.isdigit():
        return name
    return None


def _plan(word: A.Word) -> tuple:
    parts = word.parts
    if len(parts) != 1:
        return (_GENERAL,)
    p = parts[0]
    t = type(p)
    if t is A.Lit:
        return (_LIT_GLOB, p.text) if pat.has_glob(p.text) else (_LIT, p.text)
    if t is A.Param:
        name = _simple_param(p)
        return (_PARAM, name) if name is not None else (_GENERAL,)
    if t is A.DQ and len(p.parts) == 1:
        name = _simple_param(p.parts[0])
        return (_DQ_PARAM, name) if name is not None else (_GENERAL,)
    if t is A.ArithSub and p.expr.node is not None:
        return (_ARITH, p.expr)
    return (_GENERAL,)


def _needs_split_or_glob(v: str, ifs: str | None) -> bool:
    if ifs is None:
        ifs = DEFAULT_IFS
    for c in ifs:
        if c in v:
            return True
    return "*" in v or "?" in v or "[" in v or "\\" in v or "(" in v  # ( : an extglob


class Field:
    """One resulting word: its value, its pattern form, and whether it may glob."""

    __slots__ = ("value", "pattern", "glob")

    def __init__(self, value: str, pattern: str, glob: bool):
        self.value = value
        self.pattern = pattern
        self.glob = glob


@lru_cache(maxsize=64)
def _ifs_tokens(ifs_ws: str, ifs_other: str, kind: str = "tokens") -> re.Pattern:
    """The tokens of field splitting: a run of non-IFS text (group 1), a run of IFS
    whitespace (2), one other IFS character with the whitespace after it (3).
    ``kind`` "words": just the runs of non-IFS text; "ws": one IFS whitespace."""
    def cls(chars: str) -> str:
        return "".join("\\" + c if c in "\\]^-[" else c for c in chars)

    if kind == "words":
        return re.compile(f"[^{cls(ifs_ws + ifs_other)}]+")
    if kind == "ws":
        return re.compile(f"[{cls(ifs_ws)}]")
    ws = f"([{cls(ifs_ws)}]+)" if ifs_ws else "(?!)()"
    other = f"([{cls(ifs_other)}][{cls(ifs_ws)}]*)" if ifs_ws else f"([{cls(ifs_other)}])"
    return re.compile(f"([^{cls(ifs_ws + ifs_other)}]+)|{ws}|" + (other if ifs_other else "(?!)()"))


def _segs_to_fields(segs: list, ifs: str | None, split: bool, budget=None) -> list[Field]:
    """Assemble fields, splitting EXP segments on IFS (polling ``budget``: a command
    substitution can hand over millions of words)."""
    if ifs is None:
        ifs = DEFAULT_IFS
    ifs_ws = "".join(c for c in ifs if c in " \t\n")
    ifs_other = "".join(c for c in ifs if c not in " \t\n")
    if split and ifs_ws and not ifs_other and len(segs) == 1 and segs[0] is not BREAK \
            and segs[0][1] == EXP:
        # the common case, $(cmd) or $x alone with whitespace IFS: one C-speed scan
        text = segs[0][0]
        words_rx = _ifs_tokens(ifs_ws, "", "words")
        if budget is None:
            return [Field(w, _escape_backslashes(w), True) for w in words_rx.findall(text)]
        # a megabyte at a time (cut at a delimiter), polling the deadline in between
        fields: list[Field] = []
        pos, n = 0, len(text)
        while pos < n:
            cut = None if n - pos <= 1 << 20 else _ifs_tokens(ifs_ws, "", "ws").search(
                text, pos + (1 << 20))
            end = n if cut is None else cut.start()
            fields.extend(Field(w, _escape_backslashes(w), True)
                          for w in words_rx.findall(text, pos, end))
            budget.check()
            budget.check_array(len(fields))
            pos = end
        return fields
    out: list[Field] = []
    val: list[str] = []
    patt: list[str] = []
    globby = False
    exists = False
    after_ws = False  # a whitespace delimiter just ended a field

    def finish():
        nonlocal val, patt, globby, exists
        out.append(Field("".join(val), "".join(patt), globby))
        val, patt, globby, exists = [], [], False, False
        if budget is not None and not len(out) & 4095:
            budget.check()
            budget.check_array(len(out))

    for seg in segs:
        if seg is BREAK:
            if exists:
                finish()
            after_ws = False
            continue
        text, kind = seg
        if kind == QUOTED:
            val.append(text)
            patt.append(pat.escape(text))
            exists = True
            after_ws = False
            continue
        if kind == LIT:
            if text:
                val.append(text)
                patt.append(text)
                globby = True
                exists = True
                after_ws = False
            continue
        # EXP
        if not split or not ifs or not text:
            if text:
                val.append(text)
                patt.append(_escape_backslashes(text))
                globby = True
                exists = True
                after_ws = False
            continue
        for m in _ifs_tokens(ifs_ws, ifs_other).finditer(text):
            chunk = m.group(1)
            if chunk is not None:
                val.append(chunk)
                patt.append(_escape_backslashes(chunk))
                globby = True
                exists = True
                after_ws = False
            elif m.group(2) is not None:  # IFS whitespace
                if exists:
                    finish()
                    after_ws = True
            else:  # another IFS character (and the whitespace after it)
                if not after_ws:
                    finish()
                after_ws = False
    if exists:
        finish()
    return out


def _escape_backslashes(text: str) -> str:
    # bash 5.2: a backslash an unquoted expansion yields quotes the next character
    # when the field is matched as a pattern (the field itself keeps it if nothing
    # matches), just as one typed in the word does.
    return text


def brace_expand(parts: list, limit: int) -> list[list]:
    """Brace expansion over a word's parts (``{a,b}``, ``{1..5}``), left to right."""
    for i, p in enumerate(parts):
        t = type(p)
        if t is A.Brace:
            alts = []
            for alt in p.alts:
                alts.extend(brace_expand(alt, limit))
            prefix, rest = parts[:i], brace_expand(parts[i + 1:], limit)
            if len(alts) * len(rest) > limit:
                raise ExpansionError("brace expansion: limit exceeded "
                                     f"({limit} words)", status=126, limit=True)
            return [prefix + a + r for a in alts for r in rest]
        if t is A.BraceRange:
            items = _brace_range(p, limit)
            if items is None:
                continue
            prefix, rest = parts[:i], brace_expand(parts[i + 1:], limit)
            if len(items) * len(rest) > limit:
                raise ExpansionError("brace expansion: limit exceeded "
                                     f"({limit} words)", status=126, limit=True)
            return [prefix + _range_item(x, r) for x in items for r in rest]
    return [parts]


def _range_item(x: str, rest: list) -> list:
    """One item of a range and what follows it. bash expands braces on the source text
    and scans the result again, so a backslash or a backquote a character range
    produces (``{Z..a}``) is syntax: it escapes the next character, or opens a
    command substitution."""
    if x == "\\":
        if rest and type(rest[0]) is A.Lit and rest[0].text:
            return [A.Esc(rest[0].text[0]), A.Lit(rest[0].text[1:])] + rest[1:]
        return [A.SQ("")] + rest  # a quoted nothing: still a word
    if x == "`":
        tail = []
        for p in rest:
            if type(p) is not A.Lit:
                break
            tail.append(p.text)
        tail = "".join(tail)
        if tail and "`" not in tail:
            raise ExpansionError(f'bad substitution: no closing "`" in `{tail}', action="line")
    return [A.Lit(x)] + rest


def _brace_range(p: A.BraceRange, limit: int) -> list[str] | None:
    start, end, step_s = p.start, p.end, p.step
    try:
        step = int(step_s) if step_s is not None else None
    except ValueError:
        return None

    def is_int(s: str) -> bool:
        return s.lstrip("-+").isdigit()

    if is_int(start) and is_int(end):
        a, b = int(start), int(end)
        st = abs(step) if step else 1
        count = abs(b - a) // st + 1
        if count > limit:
            raise ExpansionError(f"brace expansion: limit exceeded ({limit} words)",
                                 status=126, limit=True)
        width = 0
        for s in (start, end):
            digits = s.lstrip("-+")
            if len(digits) > 1 and digits.startswith("0"):
                width = max(width, len(s))
        rng = range(a, b + 1, st) if a <= b else range(a, b - 1, -st)
        if width:
            return [f"{v:0{width}d}" if v >= 0 else "-" + f"{-v:0{width - 1}d}" for v in rng]
        return [str(v) for v in rng]
    if len(start) == 1 and len(end) == 1 and not is_int(start) and not is_int(end):
        a, b = ord(start), ord(end)
        st = abs(step) if step else 1
        rng = range(a, b + 1, st) if a <= b else range(a, b - 1, -st)
        return [chr(v) for v in rng]
    return None


class Expander:
    """Word expansion, mixed into the interpreter (it uses ``self`` for state)."""

    assign_tildes = False  # expanding an assignment's value (see expand_assign_value)

    def c_ctype(self) -> bool:
        """The C locale's character classes (LC_ALL, LC_CTYPE or LANG set to one that is
        not UTF-8): case conversion leaves non-ASCII alone. Unset, pysh is UTF-8."""
        for name in ("LC_ALL", "LC_CTYPE", "LANG"):
            v = self.get_scalar(name)
            if v:
                low = v.lower()
                return "utf-8" not in low and "utf8" not in low
        return False

    # -- entry points -------------------------------------------------------
    async def expand_words(self, words: list) -> list[str]:
        """Full expansion of command words to fields (with globbing)."""
        out: list[str] = []
        limit = self.budget.limits.max_brace_expansion
        decl = None
        for w in words:
            if type(w) is A.Assign:
                # an assignment argument of a declaration builtin: expanded once, here
                # (braces first: `declare x={1..3}` is three assignments, as in bash)
                v = w.value
                for a in _brace_assigns(w, limit) if v is not None and "{" in (v.text or "") \
                        and "braceexpand" in self.opts else (w,):
                    # (declare -A m=(...): the values are an associative array's)
                    prepared = await self.prepare_assign(a, assoc=any(
                        o[:1] == "-" and "A" in o for o in out[1:]))
                    if decl is None:
                        decl = {}
                    decl[len(out)] = (a, prepared)
                    out.append(await self.assign_word_text(a, prepared))
                continue
            plan = w.run
            if plan is None:
                plan = w.run = _plan(w)
            kind = plan[0]
            if kind == _LIT:
                out.append(plan[1])
                continue
            if kind == _DQ_PARAM:
                v = self.get_param_value(plan[1], False)
                if v is not None:
                    out.append(v)
                    continue
            elif kind == _PARAM:
                v = self.get_param_value(plan[1], False)
                if v is not None and v and not _needs_split_or_glob(v, self.ifs()):
                    out.append(v)
                    continue
            elif kind == _ARITH:
                out.append(str(await self.eval_arith_expr(plan[1])))
                continue
            parts = w.parts
            braces = _has_brace(parts) and "braceexpand" in self.opts
            for bparts in brace_expand(parts, limit) if braces else (parts,):
                if bparts is not parts:
                    bparts = _after_braces(bparts)
                segs = await self.expand_parts(bparts, False)
                for f in _segs_to_fields(segs, self.ifs(), True, self.budget):
                    out.extend(self.glob_field(f))
        self.decl_assigns = decl or {}
        return out

    async def expand_word(self, word: A.Word) -> str:
        """Expansion to one string, no splitting or globbing (assignments, here-strings)."""
        plan = word.run
        if plan is None:
            plan = word.run = _plan(word)
        kind = plan[0]
        if kind == _LIT or kind == _LIT_GLOB:
            return plan[1]
        if kind == _PARAM or kind == _DQ_PARAM:
            v = self.get_param_value(plan[1], False)
            if v is not None:
                return v
        elif kind == _ARITH:
            return str(await self.eval_arith_expr(plan[1]))
        parts = word.parts
        segs = await self.expand_parts(parts, False, assign=True)
        return "".join(" " if s is BREAK else s[0] for s in segs)

    async def expand_assign_value(self, word: A.Word) -> str:
        """An assignment's value (or a here-string): the word of ${x-w} / ${x+w} in it gets
        tilde expansion after each ':' as well, as the value itself does."""
        outer, self.assign_tildes = self.assign_tildes, True
        try:
            return await self.expand_word(word)
        finally:
            self.assign_tildes = outer

    async def expand_key(self, word: A.Word) -> str:
        """An associative array key. The parser keeps subscripts as arithmetic text,
        so quotes may still sit inside literal parts: remove them here."""
        segs = await self.expand_parts(word.parts, False, assign=True)
        out = []
        for s in segs:
            if s is BREAK:
                out.append(" ")
            elif s[1] == LIT:
                out.append(_dequote(s[0]))
            else:
                out.append(s[0])
        return "".join(out)

    async def expand_pattern(self, word: A.Word | None) -> str:
        """A pattern string: quoted characters escaped, the rest live."""
        if word is None:
            return ""
        parts = word.parts
        if len(parts) == 1 and type(parts[0]) is A.Lit:
            return parts[0].text
        segs = await self.expand_parts(parts, False, assign=True)
        out = []
        for s in segs:
            if s is BREAK:
                out.append(" ")
                continue
            text, kind = s
            out.append(pat.escape(text) if kind == QUOTED else text)
        return "".join(out)

    async def expand_redirect_target(self, word: A.Word) -> str | None:
        """One word for a redirection target; None when ambiguous."""
        fields = []
        parts = word.parts
        braces = _has_brace(parts) and "braceexpand" in self.opts
        for bparts in brace_expand(parts, self.budget.limits.max_brace_expansion) if braces else (parts,):
            if bparts is not parts:
                bparts = _after_braces(bparts)
            segs = await self.expand_parts(bparts, False)
            for f in _segs_to_fields(segs, self.ifs(), True, self.budget):
                fields.extend(self.glob_field(f))
        if len(fields) != 1:
            return None
        return fields[0]

    def glob_field(self, f: Field) -> list[str]:
        sh = self.shopts
        ext = "extglob" in sh  # (bash matches by the option as it is now, not at parse time)
        if not f.glob or "noglob" in self.opts or not pat.has_glob(f.pattern, ext):
            return [f.value]
        ignore = self.get_scalar("GLOBIGNORE")
        nocase = "nocaseglob" in sh
        # (a GLOBIGNORE with patterns has turned dotglob on: Interpreter.globignore_changed)
        matches = self.glob(f.pattern, "dotglob" in sh, nocase, "globstar" in sh, ext)
        if ignore and matches:
            matches = [m for m in matches if not _glob_ignored(m, ignore, nocase)]
        if matches:
            return matches
        if "failglob" in sh:
            # the line is given up; under errexit bash leaves the shell, even where a
            # failure would not count (`f || ...`, `if`)
            raise ExpansionError(f"no match: {f.value}", status=1,
                                 action="exit" if "errexit" in self.opts else "line")
        if "nullglob" in sh:
            return []
        return [f.value]

    # -- parts --------------------------------------------------------------
    async def expand_parts(self, parts: list, quoted: bool, assign: bool = False) -> list:
        if len(parts) > _PARTS_PER_POLL:
            # a word of a million parts (a here-doc of $x$x...): the deadline is polled
            # and the event loop given its turn between runs of parts
            out: list = []
            budget = self.budget
            for k in range(0, len(parts), _PARTS_PER_POLL):
                budget.check()
                if time.monotonic() >= budget.yield_at:
                    await budget.pause()
                out.extend(await self.expand_parts(parts[k:k + _PARTS_PER_POLL], quoted, assign))
            return out
        segs: list = []
        q = QUOTED if quoted else None
        for p in parts:
            t = type(p)
            if t is A.Lit:
                segs.append((p.text, q if q is not None else LIT))
            elif t is A.SQ or t is A.Esc or t is A.AnsiC:
                segs.append((p.text, QUOTED))
            elif t is A.DQ:
                inner = await self.expand_parts(p.parts, True, assign)
                if not inner and not _dq_only_at(p.parts):
                    segs.append(("", QUOTED))
                else:
                    segs.extend(inner)
            elif t is A.Param:
                segs.extend(await self.expand_param(p, quoted, assign))
            elif t is A.CommandSub:
                text = await self.command_substitution(p)
                segs.append((text, QUOTED if quoted else EXP))
            elif t is A.ArithSub:
                segs.append((str(await self.eval_arith_expr(p.expr)), QUOTED if quoted else EXP))
            elif t is A.Tilde:
                segs.append((self.tilde(p.user), QUOTED))
            elif t is A.ProcSub:
                segs.append((await self.process_substitution(p), QUOTED))
            elif t is A.ExtGlob:
                segs.append((p.op + "(", LIT))
                segs.extend(await self.expand_parts(p.parts, quoted, assign))
                segs.append((")", LIT))
            elif t is A.Brace:
                # a brace left unexpanded (in an assignment): its source text
                segs.append((_brace_text(p), q if q is not None else LIT))
            elif t is A.BraceRange:
                segs.append((p.text or f"{{{p.start}..{p.end}}}", q if q is not None else LIT))
            elif t is A.BadSubst:
                raise ExpansionError(f"{p.text}: bad substitution", status=1, action="line")
            else:
                raise ExpansionError(f"unsupported word part {t.__name__}", status=1)
        return segs

    def tilde(self, user: str) -> str:
        if user == "":
            home = self.get_scalar("HOME")
            return home if home is not None else self.session.home
        if user == "+":
            return self.get_scalar("PWD") or self.cwd
        if user == "-":
            old = self.get_scalar("OLDPWD")
            return old if old is not None else "~-"
        if user == self.session.user:
            return self.session.home
        if user == "root":  # the one other account the sandbox's passwd would list
            return "/root"
        digits = user[1:] if user[:1] in "+-" else user
        if digits.isdigit() and digits.isascii():
            return self.dirs_entry(user)
        return "~" + user

    # -- parameters -----------------------------------------------------------
    async def expand_param(self, p: A.Param, quoted: bool, assign: bool = False) -> list:
        name = p.name
        op = p.op
        # ${!prefix*} / ${!prefix@}
        if op in ("!*", "!@"):
            names = sorted(n for n in self.vars.all_names() if n.startswith(name)
                           and self.vars.lookup(n) is not None and self.vars.lookup(n).value is not None)
            if op == "!*" and not quoted and self.ifs() == "":
                return [("".join(names), EXP)] if names else []
            return self._multi(names, quoted, star=(op == "!*"), assign=assign)
        index = p.index
        is_all = index is not None and index.text in ("@", "*")
        shown = None  # how set -u names the parameter, when not by its own name
        forced = None  # the value, when indirection has already found it
        if p.indirect:
            if is_all and op is None:  # ${!a[@]}: the keys
                keys = self.array_keys(name)
                if assign:  # bash joins "${!a[@]}" with IFS's first character (or a
                    # space), ${!a[@]} with a space, the * forms as ever
                    if index.text == "@":
                        ifs = self.ifs()
                        sep = ifs[:1] if quoted and ifs else " "
                        return [(sep.join(keys), QUOTED if quoted else EXP)]
                    return self._multi(keys, quoted, star=True, assign=True)
                if index.text == "*" and not quoted and keys and self.ifs() == "":
                    return [(" ".join(keys), EXP)]  # (bash joins them with a space there)
                return self._multi(keys, quoted, star=(index.text == "*"))
            if is_all:
                # ${!a[@]OP}: indirection through the (joined) values, then OP
                values = self.array_values(name)
                target = " ".join(values) if values else None
                if target is None:
                    if "nounset" in self.opts:
                        raise NounsetError(name)
                    raise ExpansionError(f"{name}: invalid indirect expansion", status=1,
                                         action="line")
                name, index, is_all = self._parse_indirect(target)
            else:
                shown = "!" + self._param_display(name, index)
                v = self.vars.lookup(name) if index is None else None
                if v is not None and v.attrs & NAMEREF and v.value:
                    # bash: ${!ref} of a nameref is the name the last nameref in the
                    # chain refers to
                    if not self._resolve_nameref(name, warn=False):
                        raise ExpansionError(f"{name}: invalid indirect expansion", status=1,
                                             action="line")
                    for _ in range(8):
                        nv = self.vars.lookup(v.value)
                        if nv is None or not nv.attrs & NAMEREF or not nv.value:
                            break
                        v = nv
                    name, forced = "", v.value
                else:
                    target = await self._indirect_target(name, index)
                    if target is None:  # the variable named by the value: unset
                        name, index, is_all = "", None, False
                    else:
                        name, index, is_all = self._parse_indirect(target)
        elif (rv := self.vars.lookup(name)) is not None and rv.attrs & NAMEREF:
            target = self._resolve_nameref(name, warn=False)
            if target.endswith("]") and "[" in target:
                # a nameref to an array element: its subscript is expanded now, in full
                base, sub_index, sub_all = self._parse_indirect(target)
                if p.length:  # (bash measures nothing there)
                    return [("0", QUOTED if quoted else EXP)]
                if index is not None:  # and a subscript of it is nothing
                    return [] if is_all and (quoted or op is None) else \
                        [("", QUOTED if quoted else EXP)]
                if sub_all and op is None:  # $ref with ref=a[@] is "${a[@]}"
                    name, index, is_all = base, sub_index, True
                elif sub_all:  # an operator works on the joined values
                    forced = " ".join(self.array_values(base)) or _UNSET_ELEMENT
                else:
                    forced = await self.get_indexed(base, sub_index)
                    if forced is None:
                        forced = _UNSET_ELEMENT
        if p.length:
            return [(await self._length(name, index, is_all, shown), QUOTED if quoted else EXP)]

        # values: a list (for @ / * forms) or one string / None (unset)
        multi = name in ("@", "*") or is_all
        star = name == "*" or (is_all and index.text == "*")
        if multi:
            values = self.positional_list() if name in ("@", "*") else self.array_values(name)
            is_set = bool(values) if name in ("@", "*") else self.vars.lookup(name) is not None
            value = None
        else:
            value = forced if forced is not None else await self.get_indexed(name, index) \
                if index is not None else self.get_param_value(name)
            if value is _UNSET_ELEMENT:
                value = None
            is_set = value is not None
            values = None

        if op is None:
            if not multi and value is None and "nounset" in self.opts and name not in ("@", "*") \
                    and forced is not _UNSET_ELEMENT:
                # bash names an unbraced positional parameter with its $ ($1), nothing else
                if shown is None:
                    shown = "$" + name if not p.braced and name.isdigit() else \
                        self._param_display(name, index)
                raise NounsetError(shown)
            if multi:
                return self._multi(values, quoted, star, assign)
            return [(value or "", QUOTED if quoted else EXP)]

        if op in (":-", "-", ":=", "=", ":?", "?", ":+", "+"):
            colon = op[0] == ":"
            base = op[-1]
            if multi:
                # bash: "${a[*]}" is null when its IFS-joined value is; otherwise (@, or *
                # unquoted) when there are no elements, or just one empty one
                if star and quoted:
                    ifs = self.ifs()
                    null = (DEFAULT_IFS[0] if ifs is None else ifs[:1]).join(values) == ""
                else:
                    null = not values or (len(values) == 1 and values[0] == "")
                # bash: through ${!ref} with ref=a[@], the colon tests only for elements
                present = bool(values) and not (colon and null and not p.indirect)
            else:
                present = is_set and not (colon and value == "")
            if base == "-":
                if present:
                    return self._multi(values, quoted, star, assign) if multi else [(value, QUOTED if quoted else EXP)]
                return await self._operand(p.arg, quoted, assign)
            if base == "+":
                if present:
                    return await self._operand(p.arg, quoted, assign)
                if multi:  # what is left is the parameter's own expansion ("$@": no word)
                    return self._multi(values, quoted, star, assign)
                return [("", QUOTED)] if quoted else []
            if base == "=":
                if present:
                    return self._multi(values, quoted, star) if multi else [(value, QUOTED if quoted else EXP)]
                if multi or name.isdigit() or name in "@*#?-$!":
                    raise ExpansionError(f"${name}: cannot assign in this way", status=1, action="line")
                new = await self.expand_word(p.arg) if p.arg else ""
                try:
                    if index is not None:
                        await self.assign_index(name, index, new)
                    else:
                        self.assign(name, new)
                except ReadonlyError as e:  # bash gives up the line, status 2 (EX_BADUSAGE)
                    raise ExpansionError(e.message, status=2, action="line") from None
                new = self.get_param_value(name) if index is None else new
                return [(new or "", QUOTED if quoted else EXP)]
            # '?'
            if present:
                return self._multi(values, quoted, star) if multi else [(value, QUOTED if quoted else EXP)]
            msg = await self.expand_word(p.arg) if p.arg else (
                "parameter null or not set" if colon else "parameter not set")
            raise ExpansionError(f"{self._param_display(name, index)}: {msg}", status=1,
                                 fatal=True)

        # every other operator works on the value(s)
        if multi:
            items = list(values)
        else:
            if value is None and "nounset" in self.opts:
                raise NounsetError(shown or self._param_display(name, index))
            items = [value or ""]

        if op in ("#", "##", "%", "%%"):
            pattern = await self.expand_pattern(p.arg)
            ext = "extglob" in self.shopts
            if op[0] == "#":
                items = [pat.strip_prefix(s, pattern, op == "##", False, self.budget, ext)
                         for s in items]
            else:
                items = [pat.strip_suffix(s, pattern, op == "%%", False, self.budget, ext)
                         for s in items]
        elif op in ("/", "//", "/#", "/%"):
            pattern = await self.expand_pattern(p.arg)
            rep = await self._replacement(p.arg2)
            items = [self._substitute(s, pattern, rep, op) for s in items]
        elif op == ":":
            if not items if multi else value is None:
                if name not in ("@", "*"):  # bash evaluates nothing for an unset one
                    return self._multi([], quoted, star) if multi else \
                        [("", QUOTED if quoted else EXP)]
            return await self._slice(p, name, index, multi, star, items, quoted)
        elif op in ("^", "^^", ",", ",,", "~", "~~"):
            pattern = await self.expand_pattern(p.arg) if p.arg is not None else None
            ascii_only = self.c_ctype()
            items = [_case_mod(s, op, pattern, ascii_only) for s in items]
        elif op == "@P":
            items = [await self.expand_prompt_string(s) for s in items]
        elif op.startswith("@"):
            items = self._transform(op[1], name, index, multi, items,
                                    unset=not multi and value is None)
            if items is None:
                return [] if not quoted else [("", QUOTED)]
        else:
            raise ExpansionError(f"${{{name}{op}}}: bad substitution", status=1, action="line")
        if multi:
            return self._multi(items, quoted, star)
        return [(items[0], QUOTED if quoted else EXP)]

    async def _operand(self, word, quoted: bool, assign: bool) -> list:
        """The word of ${x:-word} / ${x:+word}: unquoted, its literal text is split too."""
        parts = word.parts if word else []
        if self.assign_tildes and not quoted and parts:
            parts = tilde_prefix(parts, True)
        segs = await self.expand_parts(parts, quoted, assign)
        if quoted or assign:
            return segs
        return [s if s is BREAK or s[1] != LIT else (s[0], EXP) for s in segs]

    def _param_display(self, name: str, index) -> str:
        if index is None:
            return name
        return f"{name}[{index.text}]"

    def _multi(self, values: list[str], quoted: bool, star: bool, assign: bool = False) -> list:
        if (quoted or assign) and star:
            ifs = self.ifs()
            sep = DEFAULT_IFS[0] if ifs is None else ifs[:1]
            return [(sep.join(values), QUOTED)]
        if assign:
            return [(" ".join(values), QUOTED)]
        if not quoted:
            # bash joins the elements with IFS's first character, then splits the result
            # (so empty elements survive a non-whitespace IFS); with IFS null they stay apart
            ifs = self.ifs()
            sep = DEFAULT_IFS[0] if ifs is None else ifs[:1]
            if sep:
                return [(sep.join(values), EXP)] if values else []
        segs: list = []
        kind = QUOTED if quoted else EXP
        for i, v in enumerate(values):
            if i:
                segs.append(BREAK)
            segs.append((v, kind))
        return segs

    async def _indirect_target(self, name: str, index) -> str | None:
        """The name ${!name} or ${!name[i]} refers to (bash's parameter_brace_expand_indir):
        the value; None when that is unset."""
        v = self.vars.lookup(name)
        if index is None:
            target = self.get_param_value(name)
            missing = v is None and target is None
        else:
            target = await self.get_indexed(name, index)
            missing = target is None and v is None and self.dynamic_array(name) is None
        if missing and _is_name(name):
            raise ExpansionError(f"{self._param_display(name, index)}: invalid indirect expansion",
                                 status=1, action="line")
        return target

    def _parse_indirect(self, target: str):
        if "[" in target and target.endswith("]"):
            base, _, sub = target[:-1].partition("[")
            idx = A.ArithExpr(self.subscript_word(sub), None, sub)
            return base, idx, sub in ("@", "*")
        if not (target.isidentifier() or target.isdigit() or target in ("@", "*", "#", "?", "-", "$", "!", "0")):
            raise ExpansionError(f"{target}: invalid variable name", status=1, action="line")
        return target, None, False

    async def _length(self, name: str, index, is_all: bool, shown: str | None = None) -> str:
        if name in ("@", "*"):
            return str(len(self.positional_list()))
        if index is not None and "nounset" in self.opts:
            # ${#a[@]}, ${#a[i]} of an unset array (with @, of anything but an array): bash
            # says so and gives up the line (a set array's missing element is 0)
            var = self.vars.lookup(self._resolve_nameref(name))
            if (var is None or var.value is None or (is_all and not isinstance(var.value, dict))) \
                    and self.dynamic_array(name) is None:
                raise ExpansionError(f"{name}: unbound variable", status=1, action="line")
        if is_all:
            return str(len(self.array_values(name)))
        if index is not None:
            v = await self.get_indexed(name, index)
        else:
            v = self.get_param_value(name)
            if v is None and "nounset" in self.opts:
                raise NounsetError(shown or name)
        return str(len(v or ""))

    async def _replacement(self, word):
        """The replacement of ${x/p/r}: a list of (text, is_ampersand) honouring patsub_replacement."""
        if word is None:
            return [("", False)]
        segs = await self.expand_parts(word.parts, False, assign=True)
        amp = "patsub_replacement" in self.shopts
        out = []
        for s in segs:
            if s is BREAK:
                out.append((" ", False))
                continue
            text, kind = s
            if kind == QUOTED or not amp:
                out.append((text, False))
                continue
            # unquoted: '&' is the match, '\&' a literal '&', '\\' a backslash
            buf = []
            i = 0
            while i < len(text):
                c = text[i]
                if c == "\\" and i + 1 < len(text) and text[i + 1] in "&\\":
                    buf.append(text[i + 1])
                    i += 2
                    continue
                if c == "&":
                    if buf:
                        out.append(("".join(buf), False))
                        buf = []
                    out.append(("", True))
                    i += 1
                    continue
                buf.append(c)
                i += 1
            if buf:
                out.append(("".join(buf), False))
        return out

    def _substitute(self, s: str, pattern: str, rep: list, op: str) -> str:
        def render(matched: str) -> str:
            return "".join(matched if is_amp else t for t, is_amp in rep)

        ext = "extglob" in self.shopts
        lit = pat.literal_text(pattern, ext) if pattern else None
        if lit:  # a plain string: str's own search (bash's result, without a matcher)
            if op == "/#":
                return render(lit) + s[len(lit):] if s.startswith(lit) else s
            if op == "/%":
                return s[:len(s) - len(lit)] + render(lit) if s.endswith(lit) else s
            return s.replace(lit, render(lit), -1 if op == "//" else 1)
        # bash tries only matches of the length the pattern seems to have
        fixed = pat.match_length(pattern, ext) if pattern else -1
        if op == "/#":
            m = pat.find_match(s, pattern, 0, "#", fixed=fixed, budget=self.budget, extglob=ext)
            return s if m is None else render(s[m[0]:m[1]]) + s[m[1]:]
        if op == "/%":
            m = pat.find_match(s, pattern, 0, "%", fixed=fixed, budget=self.budget, extglob=ext)
            return s if m is None else s[:m[0]] + render(s[m[0]:m[1]])
        if pattern == "":
            return s
        out = []
        i = 0
        n = len(s)
        while i <= n:
            self.budget.check()  # one match per round: a long subject makes many rounds
            m = pat.find_match(s, pattern, i, fixed=fixed, budget=self.budget, extglob=ext)
            if m is None:
                break
            a, b = m
            if b == a:  # an empty match: bash moves on one character
                if a >= n:
                    break
                out.append(s[i:a + 1])
                i = a + 1
                if op == "/":
                    break
                continue
            out.append(s[i:a])
            out.append(render(s[a:b]))
            i = b
            if op == "/":
                break
        out.append(s[i:])
        return "".join(out)

    async def _slice(self, p, name, index, multi, star, items, quoted):
        try:
            off = await self.eval_arith_expr(p.offset) if p.offset is not None else 0
            length = await self.eval_arith_expr(p.length_expr) if p.length_expr is not None \
                else None
        except NounsetError:
            raise
        except ExpansionError as e:
            if e.action != "discard":  # bash names the parameter
                e.message = f"{self._param_display(name, index)}: {e.message}"
            raise
        if multi:
            if name in ("@", "*"):
                items = [self.get_param_value("0") or ""] + items
            elif self.is_assoc(name):
                pass
            else:
                # sparse arrays slice by index, not position
                arr = self.array_items(name)
                if off < 0:  # counted back from the highest index + 1, not the count
                    off = (arr[-1][0] + 1 if arr else 0) + off
                    if off < 0:
                        return [] if not quoted or not star else [("", QUOTED)]
                sel = [v for k, v in arr if k >= off]
                if length is not None:
                    if length < 0:
                        raise ExpansionError(f"{length}: substring expression < 0", status=1, action="line")
                    sel = sel[:length]
                return self._multi(sel, quoted, star)
            n = len(items)
            if off < 0:
                off = n + off
                if off < 0:
                    return self._multi([], quoted, star)
            if length is not None:
                if length < 0:
                    raise ExpansionError(f"{length}: substring expression < 0", status=1, action="line")
                sel = items[off:off + length]
            else:
                sel = items[off:]
            return self._multi(sel, quoted, star)
        s = items[0]
        n = len(s)
        if off < 0:
            off = n + off
            if off < 0:
                return [("", QUOTED if quoted else EXP)]
        if length is None:
            r = s[off:]
        elif length < 0:
            end = n + length
            if end < off:
                raise ExpansionError(f"{length}: substring expression < 0", status=1, action="line")
            r = s[off:end]
        else:
            r = s[off:off + length]
        return [(r, QUOTED if quoted else EXP)]

    def _transform(self, letter: str, name: str, index, multi: bool, items: list[str],
                   unset: bool = False):
        if letter == "a":
            var = self.vars.lookup(name)
            if var is not None and var.attrs & NAMEREF:  # what the reference names
                var = self.vars.lookup(self._resolve_nameref(name))
            return [attr_letters(var) if var is not None else "" for _ in items]
        if letter == "A":
            var = self.vars.lookup(name)
            if var is None:
                return None
            if multi:
                return [self.declare_text(name, var, assignment_only=True)]
            from pysh.interpreter.builtins_vars import declaration_flags

            # one value: name='value' (quoted as @Q), after the flags if any
            flags = declaration_flags(var)
            text = name if unset else f"{name}={shell_quote(items[0])}"
            if flags:
                return [f"declare -{flags} {text}"]
            return None if unset else [text]
        if unset:  # an unset value transforms to nothing
            return None
        if letter == "Q":
            return [shell_quote(s) for s in items]
        if letter == "E":
            from pysh.interpreter.printf import ansi_c_unescape

            return [ansi_c_unescape(s) for s in items]
        ascii_only = self.c_ctype()
        if letter == "U":
            return [case_map(s, True, ascii_only) for s in items]
        if letter == "L":
            return [case_map(s, False, ascii_only) for s in items]
        if letter == "u":
            return [case_map(s[:1], True, ascii_only) + s[1:] for s in items]
        if letter in ("K", "k"):
            var = self.vars.lookup(name)
            if multi and var is not None and isinstance(var.value, dict):
                from pysh.interpreter.builtins_vars import declare_key, declare_value

                assoc = bool(var.attrs & ASSOC)
                entries = var.value.items() if assoc else sorted(var.value.items())
                if letter == "k":
                    return [x for k, v in entries for x in (str(k), v)]
                # one word, values quoted as declare -p does (an assoc's with a trailing blank)
                pairs = [f"{declare_key(k) if assoc else k} {declare_value(v)}" for k, v in entries]
                return [" ".join(pairs) + (" " if assoc and pairs else "")]
            return [shell_quote(s) for s in items]
        raise ExpansionError(f"${{{name}@{letter}}}: bad substitution", status=1)


def _glob_ignored(path: str, ignore: str, nocase: bool) -> bool:
    """GLOBIGNORE: ``.`` and ``..`` always, and what one of its patterns matches: a wildcard
    does not match a slash, but a ``*`` that ends the pattern matches the rest of the path
    (``*/b*`` ignores ``a/b/c/z``, ``*.md`` does not ignore ``a/x.md``), as bash 5.2 does."""
    last = path.rstrip("/").rpartition("/")[2]
    if last in (".", ".."):
        return True
    comps = path.split("/")
    for p in _split_ignore(ignore):
        if not p:
            continue
        pcomps = p.split("/")
        n = len(pcomps)
        if len(comps) > n and p.endswith("*") and not p.endswith("\\*"):
            comps_here = comps[:n]  # the trailing star takes the rest
        elif len(comps) == n:
            comps_here = comps
        else:
            continue
        if all(pat.match(pc, c, nocase=nocase) for pc, c in zip(pcomps, comps_here, strict=True)):
            return True
    return False


def _split_ignore(spec: str) -> list[str]:
    """GLOBIGNORE's patterns: split on colons outside bracket expressions (``[[:alpha:]]``)."""
    out, cur, i, n = [], [], 0, len(spec)
    while i < n:
        c = spec[i]
        if c == "\\" and i + 1 < n:
            cur.append(spec[i:i + 2])
            i += 2
            continue
        if c == "[":
            end = pat.bracket_end(spec, i)
            if end > 0:
                cur.append(spec[i:end])
                i = end
                continue
        if c == ":":
            out.append("".join(cur))
            cur = []
        else:
            cur.append(c)
        i += 1
    out.append("".join(cur))
    return out


def _is_name(s: str) -> bool:
    return s.isidentifier() and s.isascii()


def _dequote(text: str) -> str:
    """Quote removal on raw text ('...', "...", backslashes)."""
    if not any(c in text for c in "'\"\\"):
        return text
    out = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c == "$" and text.startswith("$'", i):  # $'...' as ANSI-C quoting
            j = i + 2
            while j < n and text[j] != "'":
                j += 2 if text[j] == "\\" else 1
            from pysh.interpreter.printf import ansi_c_unescape

            out.append(ansi_c_unescape(text[i + 2:j]))
            i = j + 1
            continue
        if c == "'":
            j = text.find("'", i + 1)
            if j < 0:
                out.append(text[i + 1:])
                break
            out.append(text[i + 1:j])
            i = j + 1
        elif c == '"':
            i += 1
            while i < n and text[i] != '"':
                if text[i] == "\\" and i + 1 < n and text[i + 1] in '"\\$`':
                    i += 1
                out.append(text[i])
                i += 1
            i += 1
        elif c == "\\" and i + 1 < n:
            out.append(text[i + 1])
            i += 2
        else:
            out.append(c)
            i += 1
    return "".join(out)


def _case_mod(s: str, op: str, pattern: str | None, ascii_only: bool = False) -> str:
    """${x^} ${x^^} ${x,} ${x,,} ${x~} ${x~~}: one character at a time, as bash (towupper,
    towlower: a character never becomes two); ``ascii_only`` in the C locale."""
    conv = {"^": upper1, ",": lower1, "~": toggle1}[op[0]]

    def ok(c: str) -> bool:
        return (pattern is None or pattern == "" or pat.match(pattern, c)) and (
            not ascii_only or c.isascii())

    if len(op) == 2:
        return "".join(conv(c) if ok(c) else c for c in s)
    if not s:
        return s
    c = s[0]
    return (conv(c) if ok(c) else c) + s[1:]


def upper1(c: str) -> str:
    """towupper: the simple mapping (ß stays ß; a titlecase form where that is all)."""
    u = c.upper()
    if len(u) == 1:
        return u
    t = c.title()
    return t if len(t) == 1 else c


def lower1(c: str) -> str:
    if c == "\u0130":  # İ: the one character whose full lowercase is two
        return "i"
    low = c.lower()
    return low if len(low) == 1 else c


def toggle1(c: str) -> str:
    low = lower1(c)
    return low if low != c else upper1(c)


def case_map(s: str, upper: bool, ascii_only: bool = False) -> str:
    """A whole string up or down, a character at a time (declare -u/-l, ${x@U})."""
    if s.isascii():
        return s.upper() if upper else s.lower()
    f = upper1 if upper else lower1
    return "".join(f(c) if not ascii_only or c.isascii() else c for c in s)


def case_attr_map(s: str, attrs: int, ascii_only: bool = False) -> str:
    """A value assigned to a variable with declare -u, -l or -c (the first character up,
    the rest down)."""
    if attrs & CAPCASE:
        return case_map(s[:1], True, ascii_only) + case_map(s[1:], False, ascii_only)
    return case_map(s, bool(attrs & UPPER), ascii_only)


def _after_braces(parts: list) -> list:
    """A word brace expansion made: bash expands braces on the text, so ``$a`` that an
    alternative ends with takes in the name characters after the brace (``{$a,b}_c`` is
    ``$a_c``), and a word that now begins with ``~`` has a tilde prefix."""
    for i in range(len(parts) - 1):
        p = parts[i]
        if type(p) is A.Param and not p.braced and p.op is None and p.index is None \
                and p.name[:1] in _SIMPLE_NAME_FIRST:
            nxt = parts[i + 1]
            if type(nxt) is A.Lit and nxt.text[:1] in _NAME_CHARS:
                j = 0
                while j < len(nxt.text) and nxt.text[j] in _NAME_CHARS:
                    j += 1
                joined = A.Param(p.name + nxt.text[:j])
                rest = [A.Lit(nxt.text[j:])] if j < len(nxt.text) else []
                return _after_braces(parts[:i] + [joined] + rest + parts[i + 2:])
    return _retilde(parts)


_NAME_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_0123456789")


def _retilde(parts: list) -> list:
    """After brace expansion a word may begin with ``~`` (``~{/src,root}``): a tilde prefix."""
    if not parts or type(parts[0]) is not A.Lit or not parts[0].text.startswith("~"):
        return parts
    k = 0
    while k < len(parts) and type(parts[k]) is A.Lit:
        k += 1
    parts = [A.Lit("".join(p.text for p in parts[:k]))] + list(parts[k:])
    text = parts[0].text
    j = 1
    while j < len(text) and text[j] not in "/:":
        j += 1
    if j == len(text) and len(parts) > 1 and type(parts[1]) is not A.Lit:
        return parts
    new = [A.Tilde(text[1:j])]
    if j < len(text):
        new.append(A.Lit(text[j:]))
    return new + list(parts[1:])


def _brace_assigns(a: A.Assign, limit: int):
    """A declaration builtin's ``x={1..3}``: bash brace-expands its argument words."""
    if a.value is None or a.array is not None or "{" not in (a.value.text or "") or not any(
            type(p) is A.Lit and "{" in p.text for p in a.value.parts):
        return (a,)
    from pysh.interpreter.syntax.lexer import brace_expand_parts

    parts = brace_expand_parts(a.value.parts)
    if not _has_brace(parts):
        return (a,)
    return [A.Assign(a.name, a.index, a.append, A.Word(_after_braces(bp), a.value.text), None)
            for bp in brace_expand(parts, limit)]


def _has_brace(parts: list) -> bool:
    for p in parts:
        t = type(p)
        if t is A.Brace or t is A.BraceRange:
            return True
    return False


def _dq_only_at(parts: list) -> bool:
    """True for "$@" / "${a[@]}" alone in quotes: they may vanish entirely."""
    if not parts:
        return False
    for p in parts:
        if type(p) is not A.Param:
            return False
        if not (p.name == "@" or (p.index is not None and p.index.text == "@") or p.op == "!@"):
            return False
    return True


def _brace_text(p) -> str:
    out = []
    for alt in p.alts:
        out.append("".join(getattr(x, "text", "") for x in alt))
    return "{" + ",".join(out) + "}"


_SAFE = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_@%+=:,./-")


_UNSET_ELEMENT = "\0unset element"  # (an object no expansion makes: NUL is never in a value)


def shell_quote(s: str) -> str:
    """Quote like bash's ${x@Q} / printf %q style used for `set -x` and declare -p."""
    if s == "":
        return "''"
    if all(c in _SAFE for c in s):
        return "'" + s + "'"
    from pysh.interpreter.printf import ansi_c_quote, needs_ansi_c

    if needs_ansi_c(s):
        return ansi_c_quote(s)
    return "'" + s.replace("'", "'\\''") + "'"
