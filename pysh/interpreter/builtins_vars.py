"""Builtins about variables and options: declare/typeset/local/export/readonly,
unset, set, shopt, read, mapfile/readarray, getopts.
"""

from __future__ import annotations

import re

from pysh.interpreter.builtins_core import builtin, format_function
from pysh.interpreter.errors import AbortLine, ExpansionError, ReadonlyError, ShellError
from pysh.interpreter.state import (
    ARRAY,
    ASSOC,
    ATTR_LETTERS,
    CAPCASE,
    CASE_ATTRS,
    EXPORT,
    INTEGER,
    LOCALIZED,
    LOWER,
    NAMEREF,
    PROPAGATE,
    READONLY,
    SET_OPTIONS,
    SHOPT_OPTIONS,
    SHORT_TO_LONG,
    TEMPVAR,
    TRACE,
    UPPER,
    Var,
    attr_letters,
    sorted_items,
    valid_ref_name,
)
from pysh.shellkit import InputStream, LimitExceeded, decode
from pysh.shellkit.worker import ensure_loop

_FLAG_BITS = {"a": ARRAY, "A": ASSOC, "i": INTEGER, "l": LOWER, "u": UPPER, "c": CAPCASE,
              "n": NAMEREF, "r": READONLY, "t": TRACE, "x": EXPORT}


def _dq(s: str) -> str:
    out = []
    for c in s:
        if c in '"$`\\':
            out.append("\\" + c)
        else:
            out.append(c)
    return '"' + "".join(out) + '"'


def _value_text(s: str) -> str:
    from pysh.interpreter.printf import ansi_c_quote, needs_ansi_c

    return ansi_c_quote(s) if needs_ansi_c(s) else _dq(s)


def declare_line(name: str, var: Var, assignment_only: bool = False) -> str:
    flags = attr_letters(var) or "-"
    val = var.value
    if isinstance(val, dict):
        if var.attrs & ASSOC:
            body = "".join(f"[{_assoc_key(k)}]={_value_text(v)} " for k, v in sorted_items(val))
            rhs = f"({body})"
        else:
            body = " ".join(f"[{k}]={_value_text(v)}" for k, v in sorted_items(val))
            rhs = f"({body})"
        text = f"{name}={rhs}"
    elif val is None:
        text = name
    else:
        text = f"{name}={_value_text(val)}"
    if assignment_only and flags == "-":
        return text
    return f"declare -{flags.lstrip('-')} {text}" if flags != "-" else f"declare -- {text}"


def declaration_flags(var: Var) -> str:
    """The letters of declare's flags for this variable ('' for none)."""
    return attr_letters(var)


def declare_key(k: str) -> str:
    return _assoc_key(k)


def declare_value(v: str) -> str:
    return _value_text(v)


def _assoc_key(k: str) -> str:
    """bash's assoc_to_assign: $'...' for the unprintable, "..." where a shell
    metacharacter is (or for a lone @ or *), the key as it is otherwise."""
    from pysh.interpreter.syntax.bashprint import ansic_quote, has_shell_metas, needs_ansic

    if needs_ansic(k):
        return ansic_quote(k)
    if has_shell_metas(k) or k in ("@", "*", ""):
        return _dq(k)
    return k


@builtin("declare", "typeset", "local", "export", "readonly")
async def b_declare(interp, argv):
    cmd = argv[0]
    assign_args = getattr(interp, "_assign_args", None) or {}
    interp._assign_args = None
    set_bits = 0
    clear_bits = 0
    print_mode = False
    funcs = False
    func_names = False
    force_global = False
    words = argv[1:]
    operands: list[tuple[int, str]] = []
    i = 0
    while i < len(words):
        w = words[i]
        if (i + 1) in assign_args:
            operands.append((i + 1, w))
            i += 1
            continue
        if w == "--":
            operands.extend((j + 1, x) for j, x in enumerate(words[i + 1:], i + 1))
            break
        if len(w) > 1 and w[0] in "-+" and not operands:
            on = w[0] == "-"
            for c in w[1:]:
                # (bash's ATTROPTS: export and readonly take only -aAfnp)
                known = cmd not in ("export", "readonly") or c in "aAfnp"
                if not known:
                    pass
                elif cmd == "export" and c in "nf":
                    if c == "n":
                        clear_bits |= EXPORT
                    else:
                        funcs = True
                    continue
                elif c == "p":
                    print_mode = True
                elif c == "f":
                    funcs = funcs or on  # (+f: bash is left making variables)
                elif c == "F":
                    func_names = func_names or on
                elif c == "g":
                    force_global = True
                elif c in _FLAG_BITS:
                    if on:
                        set_bits |= _FLAG_BITS[c]
                    else:
                        clear_bits |= _FLAG_BITS[c]
                elif c == "n" and cmd == "export":
                    clear_bits |= EXPORT
                elif c == "I":
                    pass
                else:
                    known = False
                if not known:
                    if cmd == "local" and interp.vars.call_frame() is None:
                        break  # (said below: local outside a function)
                    await interp.diag(f"{cmd}: {w[0]}{c}: invalid option")
                    usage = {"export": "export [-fn] [name[=value] ...] or export -p",
                             "readonly": "readonly [-aAf] [name[=value] ...] or readonly -p",
                             "local": "local [option] name[=value] ...",
                             "typeset": "typeset [-aAfFgiIlnrtux] name[=value] ... or typeset -p "
                                        "[-aAfFilnrtux] [name ...]"}.get(
                        cmd, f"{cmd} [-aAfFgiIlnrtux] [name[=value] ...] or {cmd} -p [-aAfFilnrtux] [name ...]")
                    await interp.err(f"{cmd}: usage: {usage}\n")
                    return 2
            i += 1
            continue
        operands.append((i + 1, w))
        i += 1
    if cmd == "export" and not (clear_bits & EXPORT or "-n" in argv[1:2]):
        set_bits |= EXPORT
    if cmd == "readonly":
        set_bits |= READONLY
    in_function = bool(interp.vars.frames) and interp.vars.call_frame() is not None
    if cmd == "local" and not in_function:
        await interp.diag("local: can only be used in a function")
        return 1

    if funcs or func_names:
        return await _declare_functions(interp, cmd, [n for _, n in operands], func_names,
                                        set_bits, clear_bits, print_mode)

    if not operands:
        if cmd == "local" and print_mode:  # (bash 5.2: as declare -p prints them)
            frame = interp.vars.call_frame()
            for name in sorted(frame.locals):
                v = frame.locals[name]
                if v.attrs & (TEMPVAR | LOCALIZED) != TEMPVAR:
                    await interp.out(declare_line(name, v) + "\n")
            return 0
        if cmd == "local":
            # name=value, the set ones: what the shared suite expects of bash (assign-
            # extended.test.sh#4); bash 5.2.15 prints them as declare -p does
            frame = interp.vars.call_frame()
            for name in sorted(frame.locals) if frame is not None else ():
                v = frame.locals[name]
                if v.value is not None:
                    await interp.out(_set_line(name, v) + "\n")
            return 0
        if print_mode or cmd in ("export", "readonly") or set_bits or clear_bits:
            for name, v in interp.listed_vars() if cmd not in ("export", "readonly") \
                    else interp.vars.visible():
                if set_bits and not (_effective_attrs(v) & set_bits):
                    continue
                await interp.out(declare_line(name, v) + "\n")
            return 0
        for name, v in interp.listed_vars():
            if v.value is None:
                continue
            await interp.out(_set_line(name, v) + "\n")
        return 0

    if print_mode:
        status = 0
        for _, name in operands:
            if cmd == "local":  # this function's own locals only (not its prefix bindings)
                v = interp.vars.call_frame().locals.get(name)
                v = None if v is None or v.attrs & (TEMPVAR | LOCALIZED) == TEMPVAR else v
            else:
                v = interp.vars.lookup(name) or interp.dynamic_as_var(name)
            if v is None:
                await interp.diag(f"{cmd}: {name}: not found")
                status = 1
                continue
            await interp.out(declare_line(name, v) + "\n")
        return status

    local = cmd in ("local", "declare", "typeset") and in_function and not force_global
    status = 0
    for idx, word in operands:
        entry = assign_args.get(idx)
        if word == "-" and cmd == "local" and entry is None:
            frame = interp.vars.call_frame()  # local -: the options, restored at return
            if frame.saved_opts is None:
                frame.saved_opts = set(interp.opts)
            continue
        try:
            if set_bits & NAMEREF:
                problem = _nameref_problem(interp, word, entry, local)
                if problem:
                    await interp.diag(f"{cmd}: {problem}")
                    status = 1
                    continue
            if entry is not None:
                a = entry[0]
                if a.index is not None and cmd in ("export", "readonly"):
                    # bash: an element is no name these two take (declare -x a[1]=v is)
                    await interp.diag(f"{cmd}: `{a.name}[{a.index.text}]': not a valid identifier")
                    status = 1
                    continue
                await _declare_assign(interp, a, entry[1], set_bits, clear_bits, local)
                continue
            name, eq, value = word.partition("=")
            append = name.endswith("+")
            if append:
                name = name[:-1]
            index = None
            if "[" in name and name.endswith("]"):
                name, _, index = name[:-1].partition("[")
            if not _valid(name) or index is not None and cmd in ("export", "readonly"):
                shown = word if index is None else f"{name}[{index}]"
                await interp.diag(f"{cmd}: `{shown}': not a valid identifier")
                status = 1
                continue
            shown = name
            if index is None:
                name = _through_ref(interp, name, local, set_bits, clear_bits)
            bits = set_bits
            if cmd == "readonly" and not eq:
                bits &= ~(ARRAY | ASSOC)  # bash: `readonly -a x` (no value) marks x readonly only
            var = _get_or_create(interp, name, local, bits)
            here = local and var is not _temp_binding(interp, name)  # (else: assign it there)
            if var.attrs & READONLY and (eq or set_bits & ~READONLY or clear_bits & READONLY):
                if eq or clear_bits:
                    # (bash names the builtin for declare/typeset/local only)
                    await interp.diag(f"{cmd}: {shown}: readonly variable"
                                      if cmd not in ("export", "readonly") else
                                      f"{shown}: readonly variable")
                    status = 1
                    continue
            _apply_attrs(interp, name, var, bits & ~READONLY, clear_bits)
            if var.attrs & TEMPVAR:
                _mark_propagate(var, set_bits)
            if eq and (set_bits & NAMEREF or (var.attrs & NAMEREF and not clear_bits & NAMEREF)
                       and cmd != "export"):
                # declare -n ref=target: the reference itself changes, not what it names
                var.value = value
                if set_bits & READONLY:
                    var.attrs |= READONLY
                continue
            if eq:
                if cmd in ("export", "readonly") and "xtrace" in interp.opts:
                    await _trace_assignment(interp, shown, value)
                if index is not None:
                    interp.assign_key(name, index, value, append=append, local=here)
                elif (var.attrs & (ARRAY | ASSOC) or isinstance(var.value, dict)) and \
                        value.startswith("(") and value.endswith(")"):
                    # `declare -a x='(a b)'`: the quoted compound form bash still honours
                    await interp.eval_string(f"{name}={value}")
                else:
                    interp.assign(name, value, append=append, local=here)
            if set_bits & READONLY:
                var.attrs |= READONLY
        except ShellError as e:
            plain = e.message.startswith(cmd) or (
                isinstance(e, ReadonlyError) and cmd in ("export", "readonly"))
            await interp.diag(e.message if plain else f"{cmd}: {e.message}")
            if isinstance(e, ExpansionError) and e.action in ("line", "discard"):
                raise AbortLine(e.status, discard=e.action == "discard") from None
            status = 1
    return status


def _func_letters(bits: int) -> str:
    """The attribute letters a function may have (bash keeps any but -a -A -i -n)."""
    return "".join(c for c, bit in ATTR_LETTERS if bits & bit and c in "rtxclu")


async def _declare_functions(interp, cmd: str, operands: list[str], func_names: bool,
                             set_bits: int, clear_bits: int, print_mode: bool = False) -> int:
    """declare -f/-F, export -f, readonly -f: functions, their text, their attributes."""
    bad = set_bits & (NAMEREF | INTEGER | ASSOC | ARRAY)
    if bad:
        letter = "n" if bad & NAMEREF else "i" if bad & INTEGER else "A" if bad & ASSOC else "a"
        await interp.diag(f"{cmd}: -{letter}: invalid option")
        return 1
    on = _func_letters(set_bits)
    off = _func_letters(clear_bits)
    attrs = interp.func_attrs
    status = 0
    if any("=" in n for n in operands):
        await interp.diag(f"{cmd}: cannot use `-f' to make functions")
        return 1
    if operands and print_mode:  # declare -pf NAME: the text, then the attributes, always
        for n in operands:
            fn = interp.funcs.get(n)
            if fn is None:
                await interp.diag(f"{cmd}: {n}: not found")
                status = 1
                continue
            if not func_names:
                await interp.out(format_function(fn) + "\n")
            await interp.out(f"declare -f{attrs.get(n, '')} {n}\n")
        return status
    if operands and (on or off):
        for n in operands:
            if n not in interp.funcs:
                if cmd in ("export", "readonly"):  # (declare fails without a word)
                    await interp.diag(f"{cmd}: {n}: not a function")
                status = 1
                continue
            have = attrs.get(n, "")
            now = "".join(c for c, _ in ATTR_LETTERS if (c in have or c in on) and c not in off)
            if now:
                attrs[n] = now
            else:
                attrs.pop(n, None)
            interp.vars.env_version += 1  # exported functions travel in the environment
        return status
    for n in operands or sorted(interp.funcs):
        fn = interp.funcs.get(n)
        if fn is None:
            status = 1
            continue
        have = attrs.get(n, "")
        if not operands and any(c not in have for c in on):
            continue  # declare -fx: the exported ones
        if func_names and operands and "extdebug" in interp.shopts:
            # the line and file it was defined in
            where = interp.func_files.get(n, "main")
            await interp.out(f"{n} {fn.line} {where}\n")
        elif func_names:
            await interp.out(f"{n}\n" if operands else f"declare -f{have} {n}\n")
        else:
            await interp.out(format_function(fn) + "\n")
            if have and not operands:
                await interp.out(f"declare -f{have} {n}\n")
    return status


def _nameref_problem(interp, word: str, entry, local: bool) -> str | None:
    """Why ``declare -n WORD`` may not be made (bash checks the name and the target)."""
    if entry is not None:
        a, prepared = entry
        name, index = a.name, a.index
        value = prepared[1] if prepared[0] == "scalar" else None
        if a.append:
            return None
    else:
        name, eq, value = word.partition("=")
        if not eq:
            value = None
        name, _, index = name.partition("[")
        if name.endswith("+"):
            return None
    if index:
        return f"{word.partition('=')[0]}: reference variable cannot be an array"
    if local:
        frame = interp.vars.call_frame()
        var = frame.locals.get(name) if frame is not None else interp.vars.globals.get(name)
    else:
        var = interp.vars.lookup(name)
    if var is not None and (isinstance(var.value, dict) or var.attrs & (ARRAY | ASSOC)):
        return f"{name}: reference variable cannot be an array"
    if value is None and var is not None and not var.attrs & NAMEREF:
        value = var.value  # an existing value becomes the reference: it is checked too
    if value is None or value == "":
        return None
    if value == name:
        return f"{name}: nameref variable self references not allowed"
    if not valid_ref_name(value):
        return f"`{value}': invalid variable name for name reference"
    return None


def _effective_attrs(v: Var) -> int:
    a = v.attrs
    if isinstance(v.value, dict) and not a & ASSOC:
        a |= ARRAY
    return a


def _valid(name: str) -> bool:
    return bool(name) and (name[0].isalpha() or name[0] == "_") and all(
        c.isalnum() or c == "_" for c in name)


def _temp_binding(interp, name: str) -> Var | None:
    """``name``'s prefix binding in the innermost scope (``v=1 eval ...``), if any."""
    frames = interp.vars.frames
    return frames[-1].locals.get(name) if frames and frames[-1].temp else None


def _get_or_create(interp, name: str, local: bool, set_bits: int) -> Var:
    if local:
        frames = interp.vars.frames
        top = frames[-1] if frames else None
        if top is not None and top.temp and name in top.locals:
            # `v=1 eval 'local v'`: the innermost scope's prefix binding becomes the local
            # (as bash's make_local_variable: value and attributes kept; gone with the scope)
            v = top.locals[name]
            v.attrs |= LOCALIZED
            return v
        frame = interp.vars.call_frame()
        v = frame.locals.get(name)
        if v is not None and v.attrs & TEMPVAR:
            v.attrs |= LOCALIZED  # `v=1 f` where f says `local v`: the same (export still
            # sends it on outward, as bash's att_tempvar does)
        if v is None:
            outer = interp.vars.lookup(name)
            if outer is not None and outer.attrs & READONLY:
                raise ReadonlyError(name)
            if outer is not None and outer.attrs & TEMPVAR and isinstance(outer.value, str):
                # ... but a prefix binding's value it does (`v=1 g` where g calls f, and f
                # says `local v`), and its export
                v = Var(outer.value, outer.attrs & EXPORT)
            else:  # a new local starts unset, and inherits nothing but the export attribute
                v = Var(None, outer.attrs & EXPORT if outer is not None else 0)
            frame.locals[name] = v
        return v
    v = interp.vars.lookup(name) if not local else None
    if v is None:
        v = Var(None, 0)
        interp.vars.globals[name] = v
    return v


def _apply_attrs(interp, name: str, var: Var, set_bits: int, clear_bits: int) -> None:
    if set_bits & ASSOC and isinstance(var.value, dict) and not var.attrs & ASSOC and var.value:
        raise ShellError(f"{name}: cannot convert indexed to associative array")
    if set_bits & ARRAY and var.attrs & ASSOC:
        raise ShellError(f"{name}: cannot convert associative to indexed array")
    for bit in (LOWER, UPPER, CAPCASE):
        if set_bits & bit:  # bash: each of -l -u -c turns the other two off (-l -u: neither)
            clear_bits |= CASE_ATTRS & ~bit
    # (the value is left as it is: the attribute maps what is assigned from now on)
    var.attrs = (var.attrs | set_bits) & ~clear_bits
    if set_bits & (ARRAY | ASSOC) and isinstance(var.value, str):
        var.value = {0: var.value} if not set_bits & ASSOC else {"0": var.value}
    if set_bits & EXPORT or clear_bits & EXPORT:
        interp.vars.env_version += 1


async def _trace_assignment(interp, name: str, value: str) -> None:
    """bash traces the assignments export and readonly make (not declare's)."""
    from pysh.interpreter.syntax.bashprint import xtrace_word

    await interp.err(await interp.ps4() + f"{name}={xtrace_word(value) if value else ''}\n")


def _mark_propagate(var: Var, set_bits: int) -> None:
    # bash: `X=1 f` where f says `export X` (or readonly): X=1 outlives the call
    if var.attrs & TEMPVAR and set_bits & (EXPORT | READONLY):
        var.attrs |= PROPAGATE


def _through_ref(interp, name: str, local: bool, set_bits: int, clear_bits: int) -> str:
    """Without -n/+n, declare/export/readonly work on what a nameref names."""
    if (set_bits | clear_bits) & NAMEREF:
        return name
    if local:
        frame = interp.vars.call_frame()
        v = frame.locals.get(name) if frame is not None else None
    else:
        v = interp.vars.lookup(name)
    if v is None or not v.attrs & NAMEREF or not isinstance(v.value, str) or not v.value:
        return name
    target = interp._resolve_nameref(name)
    return target if _valid(target) else name


async def _declare_assign(interp, a, prepared, set_bits, clear_bits, local) -> None:
    if set_bits & (EXPORT | READONLY) and "xtrace" in interp.opts and prepared[0] == "scalar":
        await _trace_assignment(interp, a.name, prepared[1])
    name = _through_ref(interp, a.name, local, set_bits, clear_bits)
    var = _get_or_create(interp, name, local, set_bits)
    if local and var is _temp_binding(interp, name):
        local = False  # (the innermost scope's prefix binding, which `local` took)
    if var.attrs & READONLY:
        raise ReadonlyError(a.name)
    _apply_attrs(interp, name, var, set_bits & ~READONLY, clear_bits)
    if var.attrs & TEMPVAR:
        _mark_propagate(var, set_bits)
    if set_bits & NAMEREF and prepared[0] == "scalar" and a.index is None:
        # declare -n ref=target: the reference itself changes, not what it names
        var.value = prepared[1]
    else:
        await interp.apply_assign(a, prepared, local=local, declared=True)
    if set_bits & READONLY:
        var = interp.vars.lookup(name)
        if var is not None:
            var.attrs |= READONLY


def _set_line(name: str, v: Var) -> str:
    val = v.value
    if isinstance(val, dict):
        if v.attrs & ASSOC:
            body = "".join(f"[{_assoc_key(k)}]={_value_text(x)} " for k, x in sorted_items(val))
        else:
            body = " ".join(f"[{k}]={_value_text(x)}" for k, x in sorted_items(val))
        return f"{name}=({body})"
    from pysh.interpreter.expand import shell_quote

    if val and all(c.isalnum() or c in "_/.:,-+@%=" for c in val):
        return f"{name}={val}"
    return f"{name}={shell_quote(val)}"


@builtin("unset")
async def b_unset(interp, argv):
    opt_f = opt_v = opt_n = False
    args = argv[1:]
    while args and args[0].startswith("-") and len(args[0]) > 1:
        if args[0] == "--":
            args = args[1:]
            break
        for c in args[0][1:]:
            if c == "f":
                opt_f = True
            elif c == "v":
                opt_v = True
            elif c == "n":
                opt_n = True
            else:
                await interp.diag(f"unset: -{c}: invalid option")
                await interp.err("unset: usage: unset [-f] [-v] [-n] [name ...]\n")
                return 2
        args = args[1:]
    if opt_f and opt_v:
        await interp.diag("unset: cannot simultaneously unset a function and a variable")
        return 1
    status = 0
    for name in args:
        valid = _valid(name)
        element = not opt_f and not opt_n and not valid and valid_ref_name(name)
        if opt_f or (not opt_v and not valid and not element and name in interp.funcs):
            # with -f, or a name no variable can have that a function has: the function
            if name in interp.funcs and not await _unset_function(interp, name):
                status = 1
            continue
        # (bash 5.2 also takes any other such name for a function's and says nothing; the
        # shared conformance suite expects bash's older error and status 1, kept here)
        if not valid and not element:
            await interp.diag(f"unset: `{name}': not a valid identifier")
            status = 1
            continue
        if element:
            if not await _unset_element(interp, name):
                status = 1
            continue
        v = interp.vars.lookup(name)
        if opt_n:  # the nameref itself, and nothing if it is not one
            if v is not None and v.attrs & NAMEREF and not await _unset_var(interp, name, v):
                status = 1
            continue
        if v is None:
            if name in _LOSE_SPECIAL:
                interp.lost_specials.add(name)
            elif not opt_v and name in interp.funcs and not await _unset_function(interp, name):
                status = 1
            continue
        if v.attrs & NAMEREF:
            target = interp._resolve_nameref(name)
            if target != name:
                if "[" in target:
                    if not await _unset_element(interp, target):
                        status = 1
                    continue
                tv = interp.vars.lookup(target)
                if tv is not None and not await _unset_var(interp, target, tv):
                    status = 1
                continue
        if not await _unset_var(interp, name, v):
            status = 1
    return status


# bash: unset, these lose their special meaning for good
_LOSE_SPECIAL = {"RANDOM", "SRANDOM", "SECONDS", "LINENO", "BASHPID", "EPOCHSECONDS",
                 "EPOCHREALTIME", "BASH_SUBSHELL", "FUNCNAME", "BASH_COMMAND", "GROUPS",
                 "BASH_ARGV0", "HISTCMD", "COMP_WORDBREAKS", "BASH_ALIASES", "BASH_CMDS"}


def _own_scope(interp, scope: dict) -> bool:
    """Is ``scope`` this function's own: its frame, or a prefix-binding frame made inside it
    (``v=1 eval 'local v; unset v'``)?"""
    frames = interp.vars.frames
    for f in reversed(frames):
        if f.locals is scope:
            return True
        if not f.temp:
            return False
    return False


async def _unset_var(interp, name: str, v: Var) -> bool:
    if v.attrs & READONLY:
        await interp.diag(f"unset: {name}: cannot unset: readonly variable")
        return False
    if name in _LOSE_SPECIAL:
        interp.lost_specials.add(name)
    scope = interp.vars.scope_of(name)
    if v.attrs & (TEMPVAR | LOCALIZED) != TEMPVAR and scope is not interp.vars.globals and (
            _own_scope(interp, scope) or "localvar_unset" in interp.shopts):
        # a local of this function (or, with localvar_unset, of a caller): it stays,
        # unset, and still hides the variable beneath it
        v.value = None
        if v.attrs & EXPORT:
            interp.vars.env_version += 1
    else:
        interp.vars.unset(name)
    if name == "GLOBIGNORE":
        interp.globignore_changed()
    return True


async def _unset_element(interp, name: str) -> bool:
    """``unset 'a[i]'``: an element; ``a[@]`` empties the array; ``s[0]`` of a scalar is s."""
    base, _, sub = name[:-1].partition("[")
    v = interp.vars.lookup(base)
    if v is not None and v.attrs & NAMEREF:
        base = interp._resolve_nameref(base)
        v = interp.vars.lookup(base)
    if v is None:
        return True
    if v.attrs & READONLY:
        await interp.diag(f"unset: {base}: cannot unset: readonly variable")
        return False
    if not isinstance(v.value, dict):
        key = None
        if sub not in ("@", "*") and v.value is not None:
            try:
                key = await interp.expand_subscript(base, sub)
            except ShellError as e:
                await interp.diag(f"unset: {e.message}")
                return False
        if key in (0, "0"):
            return await _unset_var(interp, base, v)
        if v.value is None and not v.attrs & (ARRAY | ASSOC):
            return True
        if not v.attrs & (ARRAY | ASSOC):
            await interp.diag(f"unset: {base}: not an array variable")
            return False
        return True
    if sub in ("@", "*") and not v.attrs & ASSOC:  # (of an associative array: a key)
        v.value = {}
        return True
    try:
        key = await interp.expand_subscript(base, sub)
    except ShellError as e:
        await interp.diag(f"unset: {e.message}")
        return False
    if not v.attrs & ASSOC and isinstance(key, int) and key < 0:
        await interp.diag(f"unset: [{sub}]: bad array subscript")
        return False
    v.value.pop(key, None)
    if v.attrs & EXPORT:
        interp.vars.env_version += 1
    return True


async def _unset_function(interp, name: str) -> bool:
    attrs = interp.func_attrs.get(name, "")
    if "r" in attrs:
        await interp.diag(f"unset: {name}: cannot unset: readonly function")
        return False
    if interp.funcs.pop(name, None) is not None and attrs:
        interp.func_attrs.pop(name, None)
        interp.vars.env_version += 1
    return True


def _option_line(name: str, on: bool) -> str:
    return f"{name:<15}\t{'on' if on else 'off'}"


@builtin("set")
async def b_set(interp, argv):
    was = "noexec" in interp.opts
    status = await _set(interp, argv)
    if not was and "noexec" in interp.opts and not interp.interactive:
        # set -n: nothing more runs, not even the rest of this line (bash checks at each
        # command); what follows is read for its syntax only
        raise AbortLine(status)
    return status


async def _set(interp, argv):
    args = argv[1:]
    if not args:
        for name, v in interp.listed_vars():
            if v.value is None:
                continue
            await interp.out(_set_line(name, v) + "\n")
        for name in sorted(interp.funcs):
            await interp.out(format_function(interp.funcs[name]) + "\n")
        return 0
    i = 0
    while i < len(args):
        a = args[i]
        if a == "--":
            interp.set_positional(args[i + 1:])
            return 0
        if a == "-":
            interp.opts.discard("xtrace")
            interp.opts.discard("verbose")
            if i + 1 < len(args):
                interp.set_positional(args[i + 1:])
            return 0
        if a == "+":  # a lone + is an ignored flag
            i += 1
            continue
        if a[:1] in ("-", "+") and len(a) > 1:
            # a cluster; each o in it takes the next word as an option name (set -euo pipefail)
            on = a[0] == "-"
            i += 1
            for c in a[1:]:
                if c == "o":
                    if i >= len(args) or args[i].startswith(("-", "+")):
                        await _list_set_options(interp, on)
                        continue
                    name = args[i]
                    i += 1
                    if name not in SET_OPTIONS:
                        await interp.diag(f"set: {name}: invalid option name")
                        return 2
                    long = name
                else:
                    long = SHORT_TO_LONG.get(c)
                    if long is None:
                        await interp.diag(f"set: {a[0]}{c}: invalid option")
                        await interp.err("set: usage: set [-abefhkmnptuvxBCEHPT] [-o option-name] [--] [-] [arg ...]\n")
                        return 2
                interp.set_option(long, on)
            continue
        interp.set_positional(args[i:])
        return 0
    return 0


async def _list_set_options(interp, on: bool) -> None:
    """set -o (a table) and set +o (commands that restore the options)."""
    for name in sorted(SET_OPTIONS):
        if on:
            await interp.out(_option_line(name, name in interp.opts) + "\n")
        else:
            await interp.out(f"set {'-' if name in interp.opts else '+'}o {name}\n")


@builtin("shopt")
async def b_shopt(interp, argv):
    args = argv[1:]
    flags = set()
    while args and args[0].startswith("-") and len(args[0]) > 1:
        for c in args[0][1:]:
            if c not in "pqsuo":
                await interp.diag(f"shopt: -{c}: invalid option")
                await interp.err("shopt: usage: shopt [-pqsu] [-o] [optname ...]\n")
                return 2
            flags.add(c)
        args = args[1:]
    if "o" in flags:
        table, current = sorted(SET_OPTIONS), interp.opts
    else:
        table, current = SHOPT_OPTIONS, interp.shopts
    if "s" in flags or "u" in flags:
        status = 0
        for name in args:
            if name not in table:
                await interp.diag(f"shopt: {name}: invalid {'' if 'o' in flags else 'shell '}option name")
                status = 1
                continue
            if "o" in flags:
                interp.set_option(name, "s" in flags)
            elif name == "login_shell":
                pass  # (what the shell was started as: bash ignores a change, silently)
            elif "s" in flags:
                current.add(name)
            else:
                current.discard(name)
        if not args:
            on = "s" in flags
            for name in table:
                if (name in current) == on:
                    await interp.out(_shopt_line(name, on, "p" in flags, "o" in flags) + "\n")
        return status
    names = args or table
    status = 0
    for name in names:
        if name not in table:
            await interp.diag(f"shopt: {name}: invalid {'' if 'o' in flags else 'shell '}option name")
            status = 1
            continue
        on = name in current
        if not on:
            status = 1 if args else status
        if "q" in flags:
            continue
        await interp.out(_shopt_line(name, on, "p" in flags, "o" in flags) + "\n")
    return status


def _shopt_line(name: str, on: bool, p: bool, o: bool) -> str:
    if p:
        if o:
            return f"set {'-' if on else '+'}o {name}"
        return f"shopt {'-s' if on else '-u'} {name}"
    return _option_line(name, on)


# -- read -------------------------------------------------------------------------------
@builtin("read")
async def b_read(interp, argv):
    args = argv[1:]
    raw = False
    array = None
    delim = "\n"
    nchars = None
    exact = False
    prompt = None
    timeout = None
    fd = 0
    fd_given = False
    i = 0
    while i < len(args):
        a = args[i]
        if a == "--":
            i += 1
            break
        if not a.startswith("-") or a == "-":
            break
        j = 1
        while j < len(a):
            c = a[j]
            if c in "rse":
                if c == "r":
                    raw = True
                j += 1
                continue
            if c in "adinNptu":
                val = a[j + 1:]
                if not val:
                    i += 1
                    if i >= len(args):
                        await interp.diag(f"read: -{c}: option requires an argument")
                        await interp.err("read: usage: read [-ers] [-a array] [-d delim] [-i text] [-n nchars] [-N nchars] [-p prompt] [-t timeout] [-u fd] [name ...]\n")
                        return 2
                    val = args[i]
                if c == "a":
                    array = val
                elif c == "d":
                    delim = val[:1] if val else "\0"
                elif c in "nN":
                    if not val.isdigit():
                        await interp.diag(f"read: {val}: invalid number")
                        return 1
                    nchars = int(val)
                    exact = c == "N"
                elif c == "p":
                    prompt = val
                elif c == "t":
                    try:
                        timeout = float(val)
                        if timeout < 0 or val.strip() != val:
                            raise ValueError(val)
                    except ValueError:
                        await interp.diag(f"read: {val}: invalid timeout specification")
                        return 1
                elif c == "u":
                    if not val.isdigit():
                        await interp.diag(f"read: {val}: invalid file descriptor specification")
                        return 1
                    fd = int(val)
                    fd_given = True
                break
            await interp.diag(f"read: -{c}: invalid option")
            await interp.err("read: usage: read [-ers] [-a array] [-d delim] [-i text] [-n nchars] [-N nchars] [-p prompt] [-t timeout] [-u fd] [name ...]\n")
            return 2
        i += 1
    names = args[i:]
    if timeout == 0:
        return 0
    if names and not _valid(names[0]) and not valid_ref_name(names[0]):
        # bash checks the first name before reading; the others as it assigns them
        await interp.diag(f"read: `{names[0]}': not a valid identifier")
        return 1
    stream = interp.fds.get(fd)
    if not isinstance(stream, InputStream):
        await interp.diag(f"read: {fd}: invalid file descriptor: Bad file descriptor" if fd_given
                          else f"read: read error: {fd}: Bad file descriptor")
        return 1
    if prompt is not None and stream.isatty():
        await interp.err(prompt)
    timed_out = False
    if timeout is None:  # the run's own deadline cancels a blocked read from outside
        data, eof = await _read_record(stream, delim, nchars, exact, raw)
    else:
        budget = interp.budget
        limit = budget.remaining()
        limit = timeout if limit is None else min(limit, timeout)
        data = b""
        import anyio

        await ensure_loop()
        with anyio.move_on_after(limit) as scope:
            data, eof = await _read_record(stream, delim, nchars, exact, raw)
        if scope.cancelled_caught:
            budget.check()
            timed_out = True
            eof = True
    text = decode(data)
    if timed_out:
        status = 142
    else:
        status = 1 if eof else 0
    problem = _assign_read(interp, text, names, array, raw, nchars is not None and exact)
    if problem:
        await interp.diag(problem)
        return 1
    return status


async def _read_record(stream: InputStream, delim: str, nchars, exact: bool, raw: bool):
    """Read one record; returns (bytes without the delimiter, hit_eof_before_delimiter)."""
    d = delim.encode("utf-8", "surrogateescape") if delim != "\0" else b"\0"
    if nchars is not None:
        out = bytearray()
        count = 0
        # a run of plain bytes (ASCII, none of NUL, the delimiter, a backslash to process)
        # is taken whole; the rest goes a character at a time
        special = rb"\x00\x80-\xff" + (b"" if exact else re.escape(d)) + (b"" if raw else rb"\\")
        plain = re.compile(b"[^" + special + b"]*")
        while count < nchars:
            if len(out) > stream.cap:  # read -N 1000000000 < /dev/urandom
                raise LimitExceeded("string", f"{stream.cap} bytes")
            head = await stream.peek(nchars - count)
            n = plain.match(head).end()
            if n:
                out += await stream.read_exactly(n)
                count += n
                continue
            if head[:1] == b"\0" and d != b"\0":  # bash drops NUL bytes: a run at once
                await stream.read_exactly(len(head) - len(head.lstrip(b"\0")))
                continue
            b = await stream.read_exactly(1)
            if not b:
                return bytes(out), True
            if b == b"\0" and d != b"\0":
                continue  # bash drops NUL bytes
            if not exact and b == d:
                return bytes(out), False
            if not raw and b == b"\\":
                # an escaped character counts as one (the pair stays for the splitting)
                nb = await stream.read_exactly(1)
                if nb == b"\n" or not nb:
                    continue
                out += b + nb
                count += 1
                continue
            out += b
            # complete a UTF-8 sequence: -n counts characters
            lead = b[0]
            extra = 3 if lead >= 0xF0 else 2 if lead >= 0xE0 else 1 if lead >= 0xC0 else 0
            if extra:
                out += await stream.read_exactly(extra)
            count += 1
        return bytes(out), False
    out = bytearray()
    escapes = not raw and d != b"\\"
    while True:
        chunk = await stream.read_until(d)
        if d != b"\0" and b"\0" in chunk:
            chunk = chunk.replace(b"\0", b"")  # bash drops NUL bytes
            if not chunk:
                continue
        if not chunk:
            return _join_lines(out, escapes), True
        if chunk.endswith(d):
            body = chunk[: -len(d)]
            if escapes and _odd_trailing_backslashes(body):
                # an escaped delimiter does not end the record: a backslash-newline
                # goes, any other stays escaped (the splitting unescapes it)
                out += body[:-1] if d == b"\n" else chunk
                continue
            out += body
            return _join_lines(out, escapes), False
        out += chunk
        return _join_lines(out, escapes), True


def _join_lines(rec: bytearray, escapes: bool) -> bytes:
    """Without -r, an unescaped backslash-newline is removed whatever the delimiter."""
    if not escapes or b"\\\n" not in rec:
        return bytes(rec)
    out = bytearray()
    i, n = 0, len(rec)
    while i < n:
        b = rec[i]
        if b == 0x5C and i + 1 < n:
            if rec[i + 1] != 0x0A:
                out += rec[i:i + 2]
            i += 2
            continue
        out.append(b)
        i += 1
    return bytes(out)


def _odd_trailing_backslashes(b: bytes) -> bool:
    n = len(b) - len(b.rstrip(b"\\"))
    return n % 2 == 1


def _assign_read(interp, text: str, names, array, raw: bool, exact: bool) -> str | None:
    """Split and assign what read read; a message when a name cannot take its value."""
    # backslash processing: remember which characters were escaped
    chars: list[tuple[str, bool]] = []
    if raw:
        chars = [(c, False) for c in text]
    else:
        i = 0
        while i < len(text):
            c = text[i]
            if c == "\\" and i + 1 < len(text):
                chars.append((text[i + 1], True))
                i += 2
                continue
            if c == "\\":
                i += 1
                continue
            chars.append((c, False))
            i += 1
    if exact:  # -N: the characters as read, no splitting
        return _read_bind(interp, names[0] if names else "REPLY", "".join(c for c, _ in chars))
    ifs = interp.ifs()
    if ifs is None:
        ifs = " \t\n"
    if not names and array is None:
        interp.assign("REPLY", "".join(c for c, _ in chars))
        return None
    ws = "".join(c for c in ifs if c in " \t\n")
    fields = _split_fields(chars, ifs, ws, len(names) if array is None else 0)
    if array is not None:
        if not _valid(array):
            return f"read: `{array}': not a valid identifier"
        v = interp.vars.lookup(array)
        if v is not None and v.attrs & READONLY:
            return f"{array}: readonly variable"
        if v is not None and v.attrs & ASSOC:
            return f"read: {array}: not an indexed array"
        if v is not None:
            interp.vars.unset(array)
        interp.assign_array(array, [(None, f, False) for f in fields])
        return None
    for k, name in enumerate(names):
        problem = _read_bind(interp, name, fields[k] if k < len(fields) else "")
        if problem:
            return problem
    return None


def _read_bind(interp, name: str, value: str) -> str | None:
    if _valid(name):
        interp.assign(name, value)
        return None
    if not valid_ref_name(name):
        return f"read: `{name}': not a valid identifier"
    base, _, sub = name[:-1].partition("[")  # read 'a[1]': an element
    interp.assign_key(base, interp.expand_subscript_sync(base, sub), value)
    return None


def _split_fields(chars, ifs: str, ws: str, nnames: int) -> list[str]:
    """read's splitting: the last name takes the rest of the line (trailing IFS whitespace cut)."""
    n = len(chars)
    i = 0
    while i < n and chars[i][0] in ws and not chars[i][1]:
        i += 1
    fields: list[str] = []
    while i < n:
        if nnames and len(fields) == nnames - 1:
            # bash: if one more word is all that is left (its delimiters after it
            # included), that word; else the rest, less its trailing IFS whitespace
            rest = chars[i:]
            j = 0
            while j < len(rest) and not (rest[j][0] in ifs and not rest[j][1]):
                j += 1
            k = _skip_delimiter(rest, j, ifs, ws)
            if k >= len(rest):
                fields.append("".join(c for c, _ in rest[:j]))
                return fields
            end = len(rest)
            while end > 1 and rest[end - 1][0] in ws:
                end -= 1
            fields.append("".join(c for c, _ in rest[:end]))
            return fields
        buf = []
        while i < n and not (chars[i][0] in ifs and not chars[i][1]):
            buf.append(chars[i][0])
            i += 1
        fields.append("".join(buf))
        i = _skip_delimiter(chars, i, ifs, ws)
    return fields


def _skip_delimiter(chars, i: int, ifs: str, ws: str) -> int:
    """Past the delimiter at ``i`` (bash's get_word_from_string): the character, IFS
    whitespace after it, and after whitespace one non-whitespace IFS character and
    the whitespace after that."""
    n = len(chars)
    if i >= n:
        return i
    white = chars[i][0] in ws
    i += 1
    while i < n and chars[i][0] in ws and not chars[i][1]:
        i += 1
    if i < n and white and chars[i][0] in ifs and chars[i][0] not in ws and not chars[i][1]:
        i += 1
        while i < n and chars[i][0] in ws and not chars[i][1]:
            i += 1
    return i


@builtin("mapfile", "readarray")
async def b_mapfile(interp, argv):
    args = argv[1:]
    delim = "\n"
    count = 0
    origin = 0
    skip = 0
    trim = False
    fd = 0
    callback = None
    quantum = 5000
    i = 0
    while i < len(args):
        a = args[i]
        if not a.startswith("-") or a == "-":
            break
        c = a[1:2]
        val = a[2:]
        if c == "t":
            trim = True
            i += 1
            continue
        if c in "dnOsuCc":
            if not val:
                i += 1
                val = args[i] if i < len(args) else ""
            if c in "nOsuc":
                # bash's legal_number: a decimal, blanks around; each its own complaint
                what = {"n": "invalid line count", "O": "invalid array origin",
                        "s": "invalid line count", "u": "invalid file descriptor specification",
                        "c": "invalid callback quantum"}[c]
                num = val.strip(" \t\n")
                n = int(num) if num[1:].isdigit() and num[:1] in "+-" or num.isdigit() else None
                if n is None or n < 0 or (c == "c" and n == 0):
                    await interp.diag(f"{argv[0]}: {val}: {what}")
                    return 1
                if c == "n":
                    count = n
                elif c == "O":
                    origin = n
                elif c == "s":
                    skip = n
                elif c == "u":
                    fd = n
                else:
                    quantum = n
            elif c == "d":
                delim = val[:1] if val else "\0"
            elif c == "C":
                callback = val
            i += 1
            continue
        await interp.diag(f"{argv[0]}: -{c}: invalid option")
        return 2
    name = args[i] if i < len(args) else "MAPFILE"
    stream = interp.fds.get(fd)
    if not isinstance(stream, InputStream):
        await interp.diag(f"{argv[0]}: {fd}: invalid file descriptor: Bad file descriptor")
        return 1
    d = b"\0" if delim == "\0" else delim.encode()
    v = interp.vars.lookup(name)
    if v is None or origin == 0:  # bash clears the array unless -O names an origin
        interp.assign_array(name, [])
    if not count and callback is None:
        records = await _all_records(interp, stream, d, trim)
        for k, rec in enumerate(records[skip:]):
            interp.assign_key(name, origin + k, decode(_c_string(rec)))
        return 0
    from pysh.interpreter.printf import printf_q

    n = stored = 0
    while not (count and stored >= count):
        rec = await stream.read_until(d)
        if not rec:
            break
        n += 1
        if n <= skip:
            continue
        if trim and rec.endswith(d):
            rec = rec[: -len(d)]
        line = decode(_c_string(rec))
        if callback is not None and (stored + 1) % quantum == 0:
            # evaluated after the line is read, before its element is assigned
            await interp.eval_string(f"{callback} {origin + stored} {printf_q(line)}")
        interp.assign_key(name, origin + stored, line)
        stored += 1
        interp.budget.check()
    return 0


def _c_string(rec: bytes) -> bytes:
    """A bash string ends at its first NUL (the -d '' delimiter too)."""
    nul = rec.find(b"\0")
    return rec if nul < 0 else rec[:nul]


async def _all_records(interp, stream, d: bytes, trim: bool) -> list[bytes]:
    """Every record left on the stream (read in big chunks, bounded by the array limit and,
    all together, by the string limit)."""
    budget = interp.budget
    chunks = []
    lines = size = 0
    while True:
        chunk = await stream.read(1 << 20)
        if not chunk:
            break
        chunks.append(chunk)
        lines += chunk.count(d)
        size += len(chunk)
        budget.check_array(lines)
        budget.check_string(size)
        budget.check()
    records = b"".join(chunks).split(d)
    tail = records.pop()  # what follows the last delimiter
    if not trim:
        records = [r + d for r in records]
    if tail:
        records.append(tail)
    return records


@builtin("getopts")
async def b_getopts(interp, argv):
    if len(argv) < 3:
        await interp.err("getopts: usage: getopts optstring name [arg ...]\n")
        return 2
    optstring, name = argv[1], argv[2]
    bad = []

    def bind(value: str) -> None:
        # bash binds the name last, after OPTIND and OPTARG (getopts_bind_variable)
        if _valid(name):
            interp.assign(name, value)
        else:
            bad.append(name)

    status = await _getopts(interp, argv, optstring, bind)
    if bad:
        await interp.diag(f"getopts: `{name}': not a valid identifier")
        return 1
    return status


async def _getopts(interp, argv, optstring, bind) -> int:
    args = argv[3:] if len(argv) > 3 else list(interp.positional_list())
    silent = optstring.startswith(":")
    if silent:
        optstring = optstring[1:]
    quiet = silent or interp.get_scalar("OPTERR") == "0"  # OPTERR=0: no messages either
    try:
        optind = int(interp.get_scalar("OPTIND") or "1")
    except ValueError:
        optind = 1
    pos = getattr(interp, "_getopts_pos", 0)
    if getattr(interp, "_getopts_ind", None) != optind:
        pos = 0
    if optind < 1:
        optind = 1
    if optind > len(args):
        optind = len(args) + 1  # sh_getopt: OPTIND past the end is the end
        bind("?")
        interp.assign("OPTIND", str(optind))
        interp._getopts_ind = optind
        return 1
    cur = args[optind - 1]
    if pos == 0:
        if cur == "--":
            interp.assign("OPTIND", str(optind + 1))
            bind("?")
            interp._getopts_ind = optind + 1
            return 1
        if not cur.startswith("-") or cur == "-":
            bind("?")
            interp._getopts_ind = optind
            return 1
        pos = 1
    c = cur[pos]
    pos += 1
    at_end = pos >= len(cur)
    idx = optstring.find(c) if c != ":" else -1
    if idx < 0:
        if silent:
            interp.assign("OPTARG", c)
        else:
            if not quiet:
                await interp.err(f"{interp.argv0}: illegal option -- {c}\n")
            interp.vars.unset("OPTARG")
        bind("?")
    elif idx + 1 < len(optstring) and optstring[idx + 1] == ":":
        if not at_end:
            interp.assign("OPTARG", cur[pos:])
            at_end = True
        elif optind < len(args):
            interp.assign("OPTARG", args[optind])
            optind += 1
        else:
            if silent:
                bind(":")
                interp.assign("OPTARG", c)
            else:
                if not quiet:
                    await interp.err(f"{interp.argv0}: option requires an argument -- {c}\n")
                bind("?")
                interp.vars.unset("OPTARG")
            optind += 1
            interp.assign("OPTIND", str(optind))
            interp._getopts_ind = optind
            interp._getopts_pos = 0
            return 0
        bind(c)
    else:
        bind(c)
        interp.vars.unset("OPTARG")
    if at_end:
        optind += 1
        pos = 0
    interp.assign("OPTIND", str(optind))
    interp._getopts_ind = optind
    interp._getopts_pos = pos
    return 0
