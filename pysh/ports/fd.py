"""fd: fd 8's interface (as when stdout is not a terminal) over the shell's safe walker.

* Patterns are regexes (Rust syntax, translated as rg does) or, with ``-g``,
  globs, matched against the file name (``-p``: the full virtual path); smart
  case unless ``-s``/``-i``.
* The tree is walked with ``shell.walk()`` (held directory fds; symlinks are
  entries of type ``l`` and are only descended with ``-L``, each re-checked
  by the core: a link out is treated as a dead link, not followed).
* Ignore files as rg: ``.gitignore`` inside a git repository, ``.ignore``
  and ``.fdignore`` always; nothing from the host's ``~/.config``.
* ``-x``/``-X`` run pysh commands in-process with ``shell.run()``.
* Output is sorted (byte order of the printed paths): fd itself walks in
  parallel and its order varies; ``fd ... | sort`` is the comparable form.
"""

from __future__ import annotations

import os
import posixpath
import re
import stat as _stat

from pysh.ports import _common
from pysh.ports._common import Ignorer, Out, ignored
from pysh.shellkit import FileSystemError, Shell, encode
from pysh.shellkit.regex import Regex, compile_python

HELP = """A program to find entries in your filesystem (pysh port of fd 8.6)

Usage: fd [OPTIONS] [pattern] [path]...

Options:
  -H, --hidden                     Search hidden files and directories
  -I, --no-ignore                  Do not respect .(git|fd)ignore files
  -u, --unrestricted               Alias for '--no-ignore --hidden'
  -s, --case-sensitive             Case-sensitive search (default: smart case)
  -i, --ignore-case                Case-insensitive search (default: smart case)
  -g, --glob                       Glob-based search (default: regular expression)
  -F, --fixed-strings              Treat the pattern as a literal string
  -a, --absolute-path              Show absolute instead of relative paths
  -L, --follow                     Follow symbolic links
  -p, --full-path                  Search full abs. path (default: filename only)
  -d, --max-depth <depth>          Set maximum search depth (default: none)
      --min-depth <depth>          Only show search results starting at the given depth
      --exact-depth <depth>        Only show search results at the exact given depth
  -E, --exclude <pattern>          Exclude entries that match the given glob pattern
  -t, --type <filetype>            Filter by type: file (f), directory (d), symlink (l),
                                   executable (x), empty (e), socket (s), pipe (p)
  -e, --extension <ext>            Filter by file extension
  -x, --exec <cmd>...              Execute a command for each search result
  -X, --exec-batch <cmd>...        Execute a command with all search results at once
  -0, --print0                     Separate search results by the null character
      --max-results <count>        Limit the number of search results
  -1                               Limit search to a single result
  -q, --quiet                      Print nothing, exit code 0 if found, 1 otherwise
      --show-errors                Show filesystem errors
  -c, --color <when>               Only 'never' is supported
  -h, --help                       Print help information
  -V, --version                    Print version information
"""

FLAGS = {"-H": "hidden", "--hidden": "hidden", "-I": "no_ignore", "--no-ignore": "no_ignore",
         "--no-ignore-vcs": "no_vcs", "--no-ignore-parent": "no_parent", "-u": "unrestricted",
         "--unrestricted": "unrestricted", "-s": "case_sensitive", "--case-sensitive":
         "case_sensitive", "-i": "ignore_case", "--ignore-case": "ignore_case", "-g": "glob",
         "--glob": "glob", "--regex": "regex", "-F": "fixed", "--fixed-strings": "fixed",
         "-a": "absolute", "--absolute-path": "absolute", "--relative-path": "relative",
         "-L": "follow", "--follow": "follow", "-p": "full_path", "--full-path": "full_path",
         "-0": "print0", "--print0": "print0", "-1": "one", "-q": "quiet", "--quiet": "quiet",
         "--show-errors": "show_errors", "-h": "help", "--help": "help", "-V": "version",
         "--version": "version", "--no-hidden": "no_hidden", "--ignore": "ignore",
         "--strip-cwd-prefix": "strip", "--prune": "prune", "--no-follow": "no_follow",
         "--no-require-git": "no_require_git"}
VALUED = {"-d": "max_depth", "--max-depth": "max_depth", "--maxdepth": "max_depth",
          "--min-depth": "min_depth", "--exact-depth": "exact_depth", "-E": "exclude",
          "--exclude": "exclude", "-t": "type", "--type": "type", "-e": "extension",
          "--extension": "extension", "-c": "color", "--color": "color", "-j": "threads",
          "--threads": "threads", "--max-results": "max_results", "--and": "and"}
TYPES = {"f": "f", "file": "f", "d": "d", "dir": "d", "directory": "d", "l": "l",
         "symlink": "l", "x": "x", "executable": "x", "e": "e", "empty": "e", "s": "s",
         "socket": "s", "p": "p", "pipe": "p"}


class FdError(Exception):
    pass


def _parse(args: list[str]):
    o: dict = {"flags": set(), "exclude": [], "type": set(), "extension": [], "and": [],
               "exec": None, "exec_batch": None, "positional": []}
    i = 0
    n = len(args)
    only_pos = False
    while i < n:
        a = args[i]
        i += 1
        if only_pos or not a.startswith("-") or a == "-":
            o["positional"].append(a)
            continue
        if a == "--":
            only_pos = True
            continue
        if a in ("-x", "--exec", "-X", "--exec-batch"):
            cmd = []
            while i < n and args[i] != ";":
                cmd.append(args[i])
                i += 1
            i += 1  # the ';'
            if not cmd:
                raise FdError(f"error: The argument '{a} <cmd>...' requires a value but none "
                              "was supplied")
            o["exec" if a in ("-x", "--exec") else "exec_batch"] = cmd
            continue
        name, eq, val = a.partition("=") if a.startswith("--") else (a, "", "")
        if name in FLAGS and not eq:
            o["flags"].add(FLAGS[name])
            continue
        if name in VALUED:
            if not eq:
                if i >= n:
                    raise FdError(f"error: The argument '{name}' requires a value but none "
                                  "was supplied")
                val = args[i]
                i += 1
            key = VALUED[name]
            if key in ("exclude", "extension", "and"):
                o[key].append(val)
            elif key == "type":
                if val not in TYPES:
                    raise FdError(f"error: \"{val}\" isn't a valid value for '--type <filetype>'")
                o["type"].add(TYPES[val])
            else:
                o[key] = val
            continue
        # combined short flags (-HI) and attached values (-d2, -tf)
        if not a.startswith("--") and len(a) > 2:
            j = 1
            ok = True
            while j < len(a):
                f = "-" + a[j]
                if f in FLAGS:
                    o["flags"].add(FLAGS[f])
                    j += 1
                    continue
                if f in VALUED:
                    rest = a[j + 1:]
                    if not rest:
                        if i >= n:
                            raise FdError(f"error: The argument '{f}' requires a value but "
                                          "none was supplied")
                        rest = args[i]
                        i += 1
                    key = VALUED[f]
                    if key in ("exclude", "extension", "and"):
                        o[key].append(rest)
                    elif key == "type":
                        if rest not in TYPES:
                            raise FdError(f"error: \"{rest}\" isn't a valid value for "
                                          "'--type <filetype>'")
                        o["type"].add(TYPES[rest])
                    else:
                        o[key] = rest
                    break
                ok = False
                break
            if ok:
                continue
        raise FdError(f"error: Found argument '{a}' which wasn't expected, or isn't valid in "
                      f"this context\n\n  If you tried to supply '{a}' as a value rather than a "
                      f"flag, use '-- {a}'\n\nUsage: fd [OPTIONS] [pattern] [path]...")
    return o


def _int(o: dict, key: str, what: str) -> int | None:
    v = o.get(key)
    if v is None:
        return None
    try:
        num = int(v)
        if num < 0:
            raise ValueError
        return num
    except ValueError:
        raise FdError(f"error: Invalid value \"{v}\" for '{what}': invalid digit found in "
                      "string") from None


async def main(shell: Shell, argv: list[str]) -> int:
    try:
        o = _parse(argv[1:])
        if "help" in o["flags"]:
            await shell.stdout.write(encode(HELP))
            return 0
        if "version" in o["flags"]:
            await shell.stdout.write(b"fd 8.6.0 (pysh port)\n")
            return 0
        finder = Finder(shell, o)
        return await finder.run()
    except FdError as e:
        msg = str(e)
        if msg.startswith("error:"):
            await shell.stderr.write(encode(msg + "\n\nFor more information try '--help'\n"))
            return 2
        await shell.stderr.write(encode(f"[fd error]: {msg}\n"))
        return 1


class Finder:
    def __init__(self, shell: Shell, o: dict):
        self.shell = shell
        self.o = o
        f = o["flags"]
        self.hidden = ("hidden" in f or "unrestricted" in f) and "no_hidden" not in f
        self.no_ignore = ("no_ignore" in f or "unrestricted" in f) and "ignore" not in f
        self.follow = "follow" in f and "no_follow" not in f
        self.max_depth = _int(o, "max_depth", "--max-depth <depth>")
        self.min_depth = _int(o, "min_depth", "--min-depth <depth>")
        exact = _int(o, "exact_depth", "--exact-depth <depth>")
        if exact is not None:
            self.max_depth = self.min_depth = exact
        self.max_results = _int(o, "max_results", "--max-results <count>")
        if "one" in f:
            self.max_results = 1
        pos = o["positional"]
        self.pattern = pos[0] if pos else None
        self.paths = pos[1:]
        self.matchers = [self._compile(p) for p in ([self.pattern] if self.pattern else [])
                         + o["and"]]
        self.excludes = None
        if o["exclude"]:
            import pathspec

            self.excludes = _common.guard_spec(pathspec.GitIgnoreSpec.from_lines(o["exclude"]),
                                               shell.budget)
        self.exts = [e.lower().lstrip(".") for e in o["extension"]]

    def _compile(self, pattern: str) -> Regex:
        f = self.o["flags"]
        if "case_sensitive" in f:
            icase = False
        elif "ignore_case" in f:
            icase = True
        else:
            icase = not any(c.isupper() for c in pattern)
        budget = self.shell.budget
        if "glob" in f and "regex" not in f:
            return _common.glob_regex(pattern, case_insensitive=icase, budget=budget)
        if "fixed" in f:
            return compile_python(re.escape(pattern), icase=icase, budget=budget)
        from pysh.ports.rg import RgError, _regex_error, translate

        try:
            text = translate(pattern)
            re.compile(text, re.I if icase else 0)  # for Python's error messages
            # on the regex engine with the run's deadline: fd's own engine is linear
            return compile_python(text, icase=icase, budget=budget)
        except (re.error, RgError) as e:
            text = _regex_error([pattern], e) if isinstance(e, re.error) else str(e)
            raise FdError(f"{text}\n\nNote: You "
                          "can use the '--fixed-strings' option to search for a literal string "
                          "instead of a regular expression. Alternatively, you can also use the "
                          "'--glob' option to match on a glob pattern.") from None

    async def run(self) -> int:
        shell = self.shell
        f = self.o["flags"]
        roots = self.paths or ["."]
        implicit = not self.paths
        for p in roots:
            if not _common.vis_dir(shell, p):
                if len(roots) == 1:
                    raise FdError(f"Search path '{p}' is not a directory.\n"
                                  "[fd error]: No valid search paths given.")
                await shell.stderr.write(encode(f"[fd error]: Search path '{p}' is not a "
                                                "directory.\n"))
        roots = [p for p in roots if _common.vis_dir(shell, p)]
        if not roots:
            raise FdError("No valid search paths given.")
        results: list[tuple[str, str, bool]] = []  # (shown path, exec path, is_dir)
        for root in roots:
            results.extend(self._walk(root, implicit))
            if self.max_results is not None and len(results) >= self.max_results:
                break
        results.sort(key=lambda r: encode(r[0]) + (b"/" if r[2] else b""))
        if self.max_results is not None:
            results = results[:self.max_results]
        if "quiet" in f:
            return 0 if results else 1
        if self.o["exec"] is not None:
            return await self._exec_each(results)
        if self.o["exec_batch"] is not None:
            return await self._exec_batch(results)
        out = Out(shell.stdout, shell.budget)
        sep = b"\0" if "print0" in f else b"\n"
        for shown, _, is_dir in results:
            await out.write(encode(shown) + (b"/" if is_dir else b"") + sep)
        await out.flush()
        return 0

    def _walk(self, root: str, implicit: bool) -> list[tuple[str, str, bool]]:
        shell = self.shell
        f = self.o["flags"]
        top_v = posixpath.normpath(shell.abspath(root))
        ign = None if self.no_ignore else Ignorer(
            shell, (".fdignore",), git="no_vcs" not in f, require_git="no_require_git" not in f)
        repo = ign.in_repo(top_v) if ign else False
        base_levels = ign.parents_levels(top_v) if (ign and "no_parent" not in f) else []
        levels_of: dict[str, list] = {}
        absolute = "absolute" in f and "relative" not in f
        if absolute:
            prefix = top_v.rstrip("/") + "/"
        elif implicit:
            prefix = ""
        else:
            prefix = root if root.endswith("/") else root + "/"
        exec_prefix = "./" if implicit and not absolute else prefix
        if "print0" in f:
            prefix = exec_prefix
        out: list[tuple[str, str, bool]] = []
        walk_top = None
        errors: list = []
        for wd in shell.walk(top_v, follow_symlinks=self.follow, onerror=errors.append):
            shell.budget.check()
            if walk_top is None:
                walk_top = wd.path.rstrip("/") or "/"
                rel_dir = ""
            else:
                rel_dir = wd.path[len(walk_top) + 1:] if walk_top != "/" else wd.path[1:]
            parent_rel = rel_dir.rsplit("/", 1)[0] if "/" in rel_dir else ""
            levels = list(levels_of.get(parent_rel, base_levels)) if rel_dir else list(base_levels)
            if ign is not None:
                names = {e.name for e in wd.files} | {e.name for e in wd.dirs}
                specs = ign.level_specs(wd.path, repo, names)
                if specs:
                    levels.append((rel_dir, specs))
            levels_of[rel_dir] = levels
            depth = rel_dir.count("/") + 1 if rel_dir else 0
            keep = []
            entries = [(e, True) for e in wd.dirs] + [(e, False) for e in wd.files]
            for e, is_dir in entries:
                rel = f"{rel_dir}/{e.name}" if rel_dir else e.name
                d = depth + 1
                if not self.hidden and e.name.startswith("."):
                    continue
                if ign is not None and ignored(levels, rel, is_dir):
                    continue
                if self.excludes is not None and self.excludes.match_file(
                        rel + "/" if is_dir else rel):
                    continue
                if self.max_depth is not None and d > self.max_depth:
                    continue
                if is_dir:
                    keep.append(e)
                if self.min_depth is not None and d < self.min_depth:
                    continue
                if self._matches(e, rel, is_dir, top_v):
                    shown_dir = is_dir and not (e.type == "l" and not self.follow)
                    out.append((prefix + rel, exec_prefix + rel, shown_dir))
            wd.dirs[:] = keep
        return out

    def _matches(self, e, rel: str, is_dir: bool, top_v: str) -> bool:
        f = self.o["flags"]
        name = e.name
        if self.matchers:
            target = (top_v.rstrip("/") + "/" + rel) if "full_path" in f else name
            for rx in self.matchers:
                if "glob" in f and "regex" not in f:
                    if not rx.match(target):
                        return False
                elif not rx.search(target):
                    return False
        if self.exts:
            low = name.lower()
            if not any(low.endswith("." + x) and len(low) > len(x) + 1 for x in self.exts):
                return False
            if is_dir:
                return False
        types = self.o["type"]
        if types:
            return self._type_ok(e, is_dir, types)
        return True

    def _type_ok(self, e, is_dir: bool, types: set[str]) -> bool:
        try:
            st = e.stat(follow=True) if self.follow else e.stat()
        except (FileSystemError, OSError):
            return "l" in types and e.type == "l"
        mode = st.st_mode
        if "l" in types and e.type == "l" and not (self.follow and e.link_stat is not None):
            return True
        if e.type == "l" and not self.follow:
            return False
        if "d" in types and _stat.S_ISDIR(mode):
            return True
        if "f" in types and _stat.S_ISREG(mode):
            return True
        if "x" in types and _stat.S_ISREG(mode) and mode & 0o111:
            return True
        if "s" in types and _stat.S_ISSOCK(mode):
            return True
        if "p" in types and _stat.S_ISFIFO(mode):
            return True
        if "e" in types:
            if _stat.S_ISREG(mode) and st.st_size == 0:
                return True
            if _stat.S_ISDIR(mode):
                try:
                    return not _common.vlistdir(self.shell, self._vpath_of(e))
                except OSError:
                    return False
        return False

    @staticmethod
    def _vpath_of(e) -> str:
        return e.path

    # --------------------------------------------------------------- exec
    async def _exec_each(self, results) -> int:
        cmd = self.o["exec"]
        status = 0
        for _, path, _ in results:
            self.shell.budget.check()
            argv = _substitute(cmd, path)
            rc = await self.shell.run(argv)
            if rc != 0:
                status = 1
        return status

    async def _exec_batch(self, results) -> int:
        if not results:
            return 0
        cmd = self.o["exec_batch"]
        paths = [p for _, p, _ in results]
        argv: list[str] = []
        placed = False
        for a in cmd:
            if a == "{}":
                argv.extend(paths)
                placed = True
            elif any(t in a for t in ("{/}", "{//}", "{.}", "{/.}")):
                for p in paths:
                    argv.append(_placeholders(a, p))
                placed = True
            else:
                argv.append(a)
        if not placed:
            argv.extend(paths)
        rc = await self.shell.run(argv)
        return 0 if rc == 0 else 1


def _placeholders(arg: str, path: str) -> str:
    base = posixpath.basename(path)
    parent = posixpath.dirname(path) or "."
    noext = path[2:] if path.startswith("./") else path
    noext = os.path.splitext(noext)[0] if "." in posixpath.basename(noext)[1:] else noext
    base_noext = os.path.splitext(base)[0] if "." in base[1:] else base
    out = []
    i = 0
    while i < len(arg):
        for tok, val in (("{/.}", base_noext), ("{//}", parent), ("{/}", base), ("{.}", noext),
                         ("{}", path)):
            if arg.startswith(tok, i):
                out.append(val)
                i += len(tok)
                break
        else:
            out.append(arg[i])
            i += 1
    return "".join(out)


def _substitute(cmd: list[str], path: str) -> list[str]:
    if any(t in a for a in cmd for t in ("{}", "{/}", "{//}", "{.}", "{/.}")):
        return [_placeholders(a, path) for a in cmd]
    return [*cmd, path]
