"""The kernel floor: Linux Landlock, through its three raw system calls.

A sandbox's work runs on a thread of its own (:mod:`pysh.shellkit.worker`);
at its start that thread restricts itself with :func:`restrict_thread`. From
then on the kernel refuses that thread, and every thread it starts, any file
access outside the rules it was given: the sandbox's mount host roots (read-only
mounts read-only), the Python installation (read-only, for lazy imports and the
shared libraries of extension modules), the few device files pysh emulates and
the system data files commands read (the time zone database). Landlock is
per thread and irreversible, so the caller's own threads stay as they were.

Rights the running kernel does not know are left out, ABI by ABI: REFER
(ABI 2), TRUNCATE (ABI 3), TCP bind/connect (ABI 4), IOCTL_DEV (ABI 5) and the
abstract-socket/signal scopes (ABI 6). ABI 1 is treated as missing: it denies
every rename or link across directories (``mv a d/``) with EXDEV.

Where Landlock is missing, :func:`abi` is 0 and pysh runs on its cooperative
core only; :func:`describe` says so (``pysh --version``, ``Sandbox.info()``).
"""

from __future__ import annotations

import errno
import os
import sys
import threading
from collections.abc import Iterable

# System call numbers: the same on every architecture (the unified table, Linux 5.13).
_SYS_CREATE_RULESET, _SYS_ADD_RULE, _SYS_RESTRICT_SELF = 444, 445, 446
_CREATE_RULESET_VERSION = 1 << 0
_RULE_PATH_BENEATH = 1
_RULE_NET_PORT = 2  # ABI 4
_PR_SET_NO_NEW_PRIVS = 38

# Filesystem access rights (include/uapi/linux/landlock.h).
EXECUTE = 1 << 0
WRITE_FILE = 1 << 1
READ_FILE = 1 << 2
READ_DIR = 1 << 3
REMOVE_DIR = 1 << 4
REMOVE_FILE = 1 << 5
MAKE_CHAR = 1 << 6
MAKE_DIR = 1 << 7
MAKE_REG = 1 << 8
MAKE_SOCK = 1 << 9
MAKE_FIFO = 1 << 10
MAKE_BLOCK = 1 << 11
MAKE_SYM = 1 << 12
REFER = 1 << 13  # ABI 2
TRUNCATE = 1 << 14  # ABI 3
IOCTL_DEV = 1 << 15  # ABI 5
_NET_BIND_TCP, _NET_CONNECT_TCP = 1 << 0, 1 << 1  # ABI 4
_SCOPE_ABSTRACT_UNIX_SOCKET, _SCOPE_SIGNAL = 1 << 0, 1 << 1  # ABI 6

_FS_BY_ABI = {1: (1 << 13) - 1, 2: REFER, 3: TRUNCATE, 5: IOCTL_DEV}
_FILE_RIGHTS = EXECUTE | WRITE_FILE | READ_FILE | TRUNCATE | IOCTL_DEV  # what a rule on a non-directory may hold
MIN_ABI = 2

# What a rule grants, by purpose. Nothing grants EXECUTE (no program is ever started),
# MAKE_CHAR/MAKE_BLOCK/MAKE_SOCK (no device or socket node is made) or IOCTL_DEV.
READ = READ_FILE | READ_DIR
WRITE = (READ | WRITE_FILE | REMOVE_DIR | REMOVE_FILE | MAKE_DIR | MAKE_REG | MAKE_FIFO
         | MAKE_SYM | REFER | TRUNCATE)
DEVICE = READ_FILE | WRITE_FILE | TRUNCATE  # /dev/null and friends: `> /dev/null` truncates


class LandlockError(OSError):
    """Restricting the thread failed (the thread is then NOT restricted, unless said)."""


_state_lock = threading.Lock()
_abi: int | None = None
_why_not = ""
_syscall = None


def _libc_syscall():
    global _syscall
    if _syscall is None:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        fn = libc.syscall
        fn.restype = ctypes.c_long
        _syscall = (ctypes, libc, fn)
    return _syscall


def abi() -> int:
    """The Landlock ABI this kernel offers (0: none, or too old to use)."""
    global _abi, _why_not
    if _abi is not None:
        return _abi
    with _state_lock:
        if _abi is None:
            _abi, _why_not = _probe()
    return _abi


def _probe() -> tuple[int, str]:
    if not sys.platform.startswith("linux"):
        return 0, "not Linux"
    try:
        ctypes, _libc, syscall = _libc_syscall()
    except (OSError, AttributeError):
        return 0, "no C library"
    n = syscall(_SYS_CREATE_RULESET, None, ctypes.c_size_t(0), ctypes.c_uint32(_CREATE_RULESET_VERSION))
    if n < 0:
        code = ctypes.get_errno()
        if code == errno.EOPNOTSUPP:
            return 0, "disabled at boot"
        return 0, "not in this kernel"
    if n < MIN_ABI:
        return 0, f"ABI {n} is too old"
    return int(n), ""


def describe() -> str:
    """``landlock: ABI N`` or ``landlock: unavailable (why)``: what ``pysh --version`` prints."""
    n = abi()
    return f"landlock: ABI {n}" if n else f"landlock: unavailable ({_why_not})"


def handled_fs(n: int) -> int:
    """Every filesystem right ABI ``n`` knows."""
    return sum(bits for level, bits in _FS_BY_ABI.items() if level <= n)


class Rule:
    """Grant ``access`` beneath ``path`` (a directory) or on it (a file). ``fd``: an open
    (``O_PATH`` will do) descriptor of it instead, e.g. a mount table's held root fd."""

    __slots__ = ("path", "fd", "access")

    def __init__(self, path: str | None, access: int, fd: int | None = None) -> None:
        self.path = path
        self.fd = fd
        self.access = access

    def __repr__(self) -> str:
        return f"Rule({self.path!r}, {self.access:#x}, fd={self.fd})"


class PortRule:
    """Allow TCP ``connect`` to ``port`` (ABI 4+; the network policy's ports: which
    addresses is the policy's own check, Landlock only knows ports)."""

    __slots__ = ("port",)
    path = None  # not a path rule (the tripwire's root list skips it)

    def __init__(self, port: int) -> None:
        self.port = int(port)

    def __repr__(self) -> str:
        return f"PortRule({self.port})"


def restrict_thread(rules: Iterable[Rule | PortRule]) -> int:
    """Restrict the calling thread (and the threads it will start) to ``rules``.

    Returns the ABI applied. A rule whose path does not exist is skipped. Raises
    :class:`LandlockError` when Landlock is unavailable or a call fails; the thread
    is then left as it was (``landlock_restrict_self`` is the last step).
    """
    n = abi()
    if not n:
        raise LandlockError(errno.ENOSYS, describe())
    ctypes, libc, syscall = _libc_syscall()
    fs = handled_fs(n)

    class RulesetAttr(ctypes.Structure):
        _fields_ = [("handled_access_fs", ctypes.c_uint64), ("handled_access_net", ctypes.c_uint64),
                    ("scoped", ctypes.c_uint64)]

    class PathBeneath(ctypes.Structure):
        _pack_ = 1
        _fields_ = [("allowed_access", ctypes.c_uint64), ("parent_fd", ctypes.c_int32)]

    class NetPort(ctypes.Structure):
        _pack_ = 1
        _fields_ = [("allowed_access", ctypes.c_uint64), ("port", ctypes.c_uint64)]

    attr = RulesetAttr(fs, _NET_BIND_TCP | _NET_CONNECT_TCP if n >= 4 else 0,
                       _SCOPE_ABSTRACT_UNIX_SOCKET | _SCOPE_SIGNAL if n >= 6 else 0)
    size = 8 if n < 4 else 16 if n < 6 else 24  # the struct as this ABI knows it
    ruleset = syscall(_SYS_CREATE_RULESET, ctypes.byref(attr), ctypes.c_size_t(size), ctypes.c_uint32(0))
    if ruleset < 0:
        raise LandlockError(ctypes.get_errno(), "landlock_create_ruleset")
    try:
        for rule in rules:
            if isinstance(rule, PortRule):
                if n >= 4:
                    np = NetPort(_NET_CONNECT_TCP, rule.port)
                    if syscall(_SYS_ADD_RULE, ctypes.c_int(ruleset), ctypes.c_int(_RULE_NET_PORT),
                               ctypes.byref(np), ctypes.c_uint32(0)) < 0:
                        raise LandlockError(ctypes.get_errno(), f"landlock_add_rule {rule!r}")
                continue
            own = rule.fd is None
            try:
                fd = os.open(rule.path, os.O_PATH | os.O_CLOEXEC) if own else rule.fd
            except OSError:
                continue  # absent on this system: nothing to grant
            try:
                access = rule.access & fs
                if not _is_dir(fd):
                    access &= _FILE_RIGHTS
                if not access:
                    continue
                pb = PathBeneath(access, fd)
                if syscall(_SYS_ADD_RULE, ctypes.c_int(ruleset), ctypes.c_int(_RULE_PATH_BENEATH),
                           ctypes.byref(pb), ctypes.c_uint32(0)) < 0:
                    raise LandlockError(ctypes.get_errno(), f"landlock_add_rule {rule!r}")
            finally:
                if own:
                    os.close(fd)
        if libc.prctl(_PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0:
            raise LandlockError(ctypes.get_errno(), "prctl(PR_SET_NO_NEW_PRIVS)")
        if syscall(_SYS_RESTRICT_SELF, ctypes.c_int(ruleset), ctypes.c_uint32(0)) < 0:
            raise LandlockError(ctypes.get_errno(), "landlock_restrict_self")
    finally:
        os.close(ruleset)
    _restricted.flag = True
    return n


def _is_dir(fd: int) -> bool:
    import stat

    try:
        return stat.S_ISDIR(os.fstat(fd).st_mode)
    except OSError:
        return False


_restricted = threading.local()


def thread_is_restricted() -> bool:
    """True on a thread that :func:`restrict_thread` restricted (threads it started are
    restricted by the kernel too, but not marked here)."""
    return getattr(_restricted, "flag", False)


# -- the rules every sandbox thread gets besides its mounts --------------------------------
# pysh emulates these under /dev (pysh.shellkit.confine.DEVICES) with the host's own.
DEVICE_FILES = ("/dev/null", "/dev/zero", "/dev/full", "/dev/urandom")
# System data commands read: the time zone database (date, printf %(...)T, git's dates;
# Python's zoneinfo falls back to the tzdata package, which is under site-packages).
SYSTEM_DATA = ("/usr/share/zoneinfo", "/etc/localtime")

_base_rules: list[Rule] | None = None
_module_dirs: dict[str, tuple[str, ...]] = {}


def base_rules() -> list[Rule]:
    """Read-only: the Python installation and the shared libraries the process loads from;
    read-write: the emulated devices; read-only: the system data files. Computed once."""
    global _base_rules
    if _base_rules is None:
        rules = [Rule(p, READ) for p in python_dirs()]
        rules += [Rule(p, READ_FILE) for p in library_paths()]
        rules += [Rule(p, DEVICE) for p in DEVICE_FILES]
        rules += [Rule(p, READ) for p in SYSTEM_DATA]
        _base_rules = rules
    return list(_base_rules)


_python_dirs: list[str] | None = None


def python_dirs() -> list[str]:
    """Where this Python imports from: the standard library, lib-dynload and the
    site-packages of this environment and its base (a venv's and the system's), and
    the directory of the pysh package itself (an editable install lives elsewhere).
    Computed once."""
    global _python_dirs
    if _python_dirs is None:
        _python_dirs = _find_python_dirs()
    return list(_python_dirs)


def _find_python_dirs() -> list[str]:
    import sysconfig

    dirs: set[str] = set()
    for scheme_vars in (None, {"base": sys.base_prefix, "platbase": sys.base_exec_prefix}):
        paths = sysconfig.get_paths(vars=scheme_vars) if scheme_vars else sysconfig.get_paths()
        for key in ("stdlib", "platstdlib", "purelib", "platlib"):
            if key in paths:
                dirs.add(paths[key])
    prefixes = {os.path.realpath(p) for p in (sys.prefix, sys.base_prefix, sys.exec_prefix,
                                               sys.base_exec_prefix)}
    for entry in sys.path:
        # site-packages, dist-packages, lib-dynload, the zipped stdlib: entries inside an
        # installation prefix; the current directory and the embedder's own are not.
        if entry and os.path.isabs(entry):
            real = os.path.realpath(entry)
            if any(real != p and real.startswith(p.rstrip("/") + "/") for p in prefixes):
                dirs.add(entry)
    pysh_pkg = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    dirs.add(pysh_pkg)
    return sorted({os.path.realpath(d) for d in dirs if os.path.exists(d)})


def library_paths() -> list[str]:
    """The directories of the shared libraries mapped into this process, and the dynamic
    loader's cache: an extension module imported later (``_sqlite3``, ``_bz2``) loads its
    own libraries from the same system directories."""
    out = {"/etc/ld.so.cache"}
    try:
        with open("/proc/self/maps", "rb") as f:
            for line in f:
                parts = line.split(None, 5)
                if len(parts) == 6:
                    path = parts[5].strip().decode("utf-8", "surrogateescape")
                    if path.startswith("/") and ".so" in os.path.basename(path):
                        out.add(os.path.dirname(path))
    except OSError:
        pass
    return sorted(out)


def module_dirs(module_names: Iterable[str]) -> list[str]:
    """Where the top-level packages of ``module_names`` live (for commands registered as
    ``"module:function"`` strings outside the Python installation, e.g. an embedder's
    package), imported now. A package gives its directory; a single-file module, its file."""
    out: list[str] = []
    for name in {m.partition(".")[0] for m in module_names}:
        found = _module_dirs.get(name)
        if found is None:
            found = _locate(name)
            _module_dirs[name] = found
        out.extend(found)
    return out


def _locate(top: str) -> tuple[str, ...]:
    """Imports ``top`` now (on an unrestricted thread): on the worker its submodules are
    found through its ``__path__``, never by walking the embedder's ``sys.path``."""
    import importlib

    try:
        mod = importlib.import_module(top)
    except Exception:  # noqa: BLE001 - the command fails to load later, with its own message
        return ()
    paths = list(getattr(mod, "__path__", ()) or ())
    origin = getattr(mod, "__file__", None)
    if paths:
        return tuple(os.path.realpath(p) for p in paths if os.path.isdir(p))
    if origin and os.path.isfile(origin):
        return (os.path.realpath(origin),)
    return ()
