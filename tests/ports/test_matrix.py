"""Every port's own file handling against every way out (issue 11), in one hostile run.

Each reader (jq, rg, fd, sqlite3, tar, zip, gzip, git, curl, wget, python3, and door A's
cat for comparison) is pointed at each way out: ``..`` past the root, host spellings,
links the host planted (relative, absolute, chained, reached through an in-sandbox link
to a sibling directory whose own relative link only leaves from where it really lies),
links the script made, a FIFO, a socket, and a link another thread keeps swapping to
the outside. Each writer is pointed at the same places, at a hard-linked file and at a
FIFO. (pytest's tmp_path usually lies under /tmp: a host spelling of it is then a
path in the sandbox's own /tmp, which the script may use.) The whole script runs in a child process with a hard kill (tests/ports/net/hostile
.py: it also serves curl and wget): a hang or an escape fails this test, not the suite.

Afterwards: nothing outside the workspace changed, no link the script made points out,
no command printed the secret, a host path or a traceback, and every reader of a way
out failed.
"""

from __future__ import annotations

import errno
import os
import socket
import tempfile

import pytest

from tests.ports.net.hostile import run_hostile
from tests.shellkit.conftest import CANARY, SECRET, build_tree
from tests.shellkit.test_links_special import host_links, points_inside

HARDLINKED = "HARDLINKED-CONTENT\n"

# {p}: the path under attack, {base}: the test server.
READERS = {
    "cat": "cat {p}",
    "source": ". {p}",
    "jq": "jq . {p}",
    "jq-rawfile": "jq -n --rawfile x {p} '$x'",
    "jq-slurpfile": "jq -n --slurpfile x {p} '$x'",
    "jq-from-file": "jq -n -f {p}",
    "rg": "rg -N -uu . {p}",
    "rg-follow": "rg -L -N -uu . {p}",
    "rg-patterns-file": "rg -f {p} file.txt",
    "fd": "fd -L -uu . {p}",
    "sqlite-db": "sqlite3 {p} 'select * from sqlite_master'",
    "sqlite-read": "sqlite3 :memory: '.read {p}'",
    "sqlite-import": "sqlite3 :memory: '.import {p} t' 'select * from t'",
    "sqlite-attach": "sqlite3 :memory: \"attach '{p}' as o\" 'select * from o.sqlite_master'",
    "tar-c": "tar -cf - {p} | tar -xOf -",
    "tar-ch": "tar -chf - {p} | tar -xOf -",
    "tar-T": "echo {p} > /tmp/list; tar -cf - -T /tmp/list | tar -xOf -",
    "tar-x": "tar -xOf {p}",
    "tar-C": "tar -cf - -C {p} . | tar -xOf -",
    "zip-r": "rm -f /tmp/r.zip; zip -qr /tmp/r.zip {p} && unzip -p /tmp/r.zip",
    "zip": "rm -f /tmp/m.zip; zip -q /tmp/m.zip {p} && unzip -p /tmp/m.zip",
    "unzip": "unzip -p {p}",
    "gzip": "gzip -c {p} | gzip -dc",
    "zcat": "zcat {p}",
    "git-add": "git add -f {p} && git cat-file -p :{p}",
    "git-config-file": "git config -f {p} --list",
    "git-C": "git -C {p} status --porcelain --untracked-files=all",
    "git-commit-msg": "git commit -q --allow-empty -F {p} && git log -1 --format=%B",
    "curl-data": "curl -sS --data-binary @{p} {base}/echo",
    "curl-upload": "curl -sS -T {p} {base}/echo",
    "curl-form": "curl -sS -F f=@{p} {base}/echo",
    "curl-headers-file": "curl -sS -H @{p} {base}/echo",
    "curl-write-out": "curl -sS -o /dev/null -w @{p} {base}/text",
    "curl-cookie-file": "curl -sS -b {p} {base}/echo",
    "wget-post-file": "wget -q -O - --post-file={p} {base}/echo",
    "wget-body-file": "wget -q -O - --method=PUT --body-file={p} {base}/echo",
}

WAYS_OUT = {  # label -> path, from /batch (filled with the tree's names)
    "etc": "/etc/passwd",
    "planted-etc": "etc/passwd",
    "dotdot": "../../../../../../../../{outside}/secret.txt",
    "host-spelling": "{outside}/secret.txt",
    "host-dir": "{outside}",
    "proc-root": "/proc/self/root{outside}/secret.txt",
    "planted-rel": "out_rel/secret.txt",
    "planted-abs": "out_abs/secret.txt",
    "planted-file": "out_file",
    "planted-chain": "chain_a/secret.txt",
    "planted-dir": "out_abs",
    "via-sibling": "a/b/c/tosib/esc",
    "via-sibling-dir": "a/b/c/tosib/escd/secret.txt",
    "script-rel": "sm_rel",
    "script-abs": "sm_abs",
    "script-chain": "sm_chain",
    "script-via-link": "sm_via",
    "fifo": "fifo",
    "socket": "sock",
}

# Links the script tries to make: none may point out once it is done.
SCRIPT_LINKS = """mkdir -p s/t && ln -s ../.. s/t/up
ln -s ../outside-{canary}/secret.txt sm_rel
ln -s {outside}/secret.txt sm_abs
ln -s s/t/up/../outside-{canary}/secret.txt sm_chain
ln -s a/b/c/tosib/esc sm_via
cp -a out_abs sm_copied; cp -P chain_b sm_copied2; ln out_rel sm_hard; mv out_file sm_moved
rsync -a dir/ sm_rsync/; cp -a dir sm_cpdir; mkdir sm_tar; tar -cf /tmp/d.tar dir; tar -xf /tmp/d.tar -C sm_tar
"""

# {t}: a file under attack, {d}: a directory under attack.
WRITERS = {
    "redirect": "echo x > {t}",
    "cp": "cp file.txt {t}",
    "sqlite-db": "sqlite3 {t} 'create table t(a)'",
    "sqlite-output": "sqlite3 :memory: '.output {t}' 'select 1'",
    "sqlite-once": "sqlite3 :memory: '.once {t}' 'select 1'",
    "sqlite-attach": "sqlite3 :memory: \"attach '{t}' as o\" 'create table o.t(a)'",
    "tar-c": "tar -cf {t} file.txt",
    "tar-x": "tar -xf one.tar -C {d}",
    "zip": "zip -q {t} file.txt",
    "unzip": "unzip -o -q one.zip -d {d}",
    "gzip": "gzip -c file.txt > {t}",
    "git-init": "git init -q {d}/repo",
    "curl-o": "curl -sS -o {t} {base}/text",
    "curl-output-dir": "curl -sS --output-dir {d} -O {base}/files/new.txt",
    "curl-dump-header": "curl -sS -D {t} -o /dev/null {base}/text",
    "curl-cookie-jar": "curl -sS -c {t} -o /dev/null {base}/headers",
    "curl-stderr": "curl -sS --stderr {t} {base}/status/404 -f",
    "wget-O": "wget -q -O {t} {base}/text",
    "wget-P": "wget -q -P {d} {base}/files/new.txt",
}

WRITE_FILES = {"dotdot": "../../../../../../../../{outside}/new.txt",
               "host-spelling": "{outside}/new.txt", "planted-rel": "out_rel/new.txt",
               "planted-abs": "out_abs/new.txt", "planted-chain": "chain_a/new.txt",
               "dangling": "dangling_out", "via-sibling": "a/b/c/tosib/escd/new.txt",
               "hard-linked": "hl", "fifo": "fifo", "race": "sw/new.bin"}
WRITE_DIRS = {"dotdot": "../../../../../../../../{outside}", "host-spelling": "{outside}",
              "planted-rel": "out_rel", "planted-abs": "out_abs", "planted-chain": "chain_a",
              "via-sibling": "a/b/c/tosib/escd", "proc-root": "/proc/self/root{outside}"}

PYTHON = """python3 - <<'EOF'
import errno
import os
ways = {ways!r}
for label, p in ways.items():
    for what, fn in (("read", lambda: open(p, "rb").read()), ("list", lambda: os.listdir(p)),
                     ("write", lambda: open(p + "/new.txt" if label != "hl" else p, "ab"))):
        try:
            got = fn()
            print("@@ python3-" + what, label, "OK", repr(got)[:200])
        except OSError as e:
            print("@@ python3-" + what, label, type(e).__name__)
EOF
"""


def plant(tmp: str):
    tree = build_tree(tmp)
    ws, out = tree.ws, tree.outside
    with open(os.path.join(out, f"listme-{CANARY}.txt"), "wb") as f:
        f.write(SECRET)
    with open(os.path.join(out, "hlsrc.txt"), "w") as f:
        f.write(HARDLINKED)
    os.link(os.path.join(out, "hlsrc.txt"), os.path.join(ws, "hl"))
    # a sibling dir whose links leave from where they lie, not from where they are reached:
    # a/b/c/tosib/esc read as a string from a/b/c/tosib stays inside; from sib it is out
    os.makedirs(os.path.join(ws, "sib"))
    os.makedirs(os.path.join(ws, "a", "b", "c"))
    os.symlink(f"../../outside-{CANARY}/secret.txt", os.path.join(ws, "sib", "esc"))
    os.symlink(f"../../outside-{CANARY}", os.path.join(ws, "sib", "escd"))
    os.symlink("../../../sib", os.path.join(ws, "a", "b", "c", "tosib"))
    os.makedirs(os.path.join(ws, "twin"))
    with open(os.path.join(ws, "twin", "secret.txt"), "w") as f:
        f.write("twin\n")
    os.symlink("twin", os.path.join(ws, "sw"))
    os.mkfifo(os.path.join(ws, "fifo"))
    short = tempfile.mkdtemp(prefix="s")  # sockaddr_un holds ~108 bytes: bind short, then move
    sock = socket.socket(socket.AF_UNIX)
    sock.bind(os.path.join(short, "s"))
    os.rename(os.path.join(short, "s"), os.path.join(ws, "sock"))
    os.rmdir(short)
    return tree, sock


def outside_state(tree) -> list:
    """Every name under the fixture's base outside the workspace, with its content."""
    got = []
    for dirpath, dirs, files in os.walk(os.path.dirname(tree.base)):
        if dirpath.startswith(tree.ws):
            continue
        for n in sorted(dirs + files):
            p = os.path.join(dirpath, n)
            if p == tree.ws:
                continue
            data = None
            if os.path.isfile(p) and not os.path.islink(p):
                with open(p, "rb") as f:
                    data = f.read()
            got.append((p, os.path.islink(p), data))
    return sorted(got)


def build_script(tree) -> tuple[str, dict[str, str]]:
    """The hostile script, and for each cell the operand it typed (a host spelling typed
    by the script may be echoed back as typed)."""
    names = {"outside": tree.outside, "canary": CANARY}
    lines = ["set -o pipefail",
             "git init -q . && git config user.name t && git config user.email t@t",
             "tar -cf one.tar file.txt; zip -q one.zip file.txt",
             SCRIPT_LINKS.format(**names)]
    typed: dict[str, str] = {}

    def cell(label: str, cmd: str, operand: str) -> None:
        typed[label] = operand
        lines.append(f"echo '@@ {label}'; {{ {cmd} ; }} 2>&1 </dev/null; printf '\\n@@ status %s\\n' $?")

    for rname, tmpl in READERS.items():
        for wname, path in WAYS_OUT.items():
            p = path.format(**names)
            cell(f"read {rname} {wname}", tmpl.replace("{p}", p), p)
        for i in range(4):  # the racing link: another thread swaps sw between twin and out
            cell(f"race {rname} {i}", tmpl.replace("{p}", "sw/secret.txt"), "sw/secret.txt")
    for rname, tmpl in WRITERS.items():
        if "{d}" in tmpl:
            for wname, d in WRITE_DIRS.items():
                d = d.format(**names)
                cell(f"write {rname} {wname}", tmpl.replace("{d}", d), d)
            cell(f"write {rname} race", tmpl.replace("{d}", "sw"), "sw")  # swapped meanwhile
        else:
            for wname, t in WRITE_FILES.items():
                t = t.format(**names)
                cell(f"write {rname} {wname}", tmpl.replace("{t}", t), t)
    ways = {k: v.format(**names) for k, v in WAYS_OUT.items()} | {"hl": "hl", "race": "sw"}
    lines.append(PYTHON.format(ways=ways))
    for w, path in ways.items():  # the guest's repr of a file object shows the name it opened
        typed.update({f"{what} {w}": path for what in ("read", "list", "write")})
    return "\n".join(lines) + "\n", typed


def cells(stdout: str) -> dict[str, tuple[str, int]]:
    out: dict[str, tuple[str, int]] = {}
    label, buf = None, []
    for line in stdout.split("\n"):
        if line.startswith("@@ status "):
            out[label] = ("\n".join(buf), int(line.split()[-1]))
            label, buf = None, []
        elif line.startswith("@@ python3-"):
            _, what, name, verdict = line.split(" ", 3)
            out[f"{what.split('-', 1)[1]} {name}"] = (verdict, 0)
        elif line.startswith("@@ "):
            label, buf = line[3:], []
        else:
            buf.append(line)
    return out


@pytest.fixture
def planted(tmp_path):
    tree, sock = plant(str(tmp_path))
    yield tree
    sock.close()


def test_every_port_against_every_way_out(planted):
    tree = planted
    before = outside_state(tree)
    script, typed = build_script(tree)
    r = run_hostile(script, ws=tree.ws, keep=None, race=["sw", "twin", tree.outside],
                    kill_after=300)
    assert outside_state(tree) == before
    with open(os.path.join(tree.outside, "hlsrc.txt")) as f:
        assert f.read() == HARDLINKED
    made = {rel for rel in host_links(tree.ws) if rel.startswith(("s/", "sm_"))}
    # the others were refused; copies of dir/ keep its link in (up) and lose the one out
    assert made == {"s/t/up", "sm_chain", "sm_via", "sm_rsync/up", "sm_cpdir/up",
                    "sm_tar/dir/up"}
    assert [rel for rel in made if not points_inside(tree.ws, rel)] == []
    assert "Traceback" not in r["stderr"] and "internal error" not in r["stderr"]
    got = cells(r["stdout"])
    ports = {f"read {rn} {wn}" for rn in READERS for wn in WAYS_OUT}
    ports |= {f"write {wn} {t}" for wn, tm in WRITERS.items()
              for t in [*(WRITE_DIRS if "{d}" in tm else WRITE_FILES), *(["race"] if "{d}" in tm
                                                                          else [])]}
    python = {f"{what} {w}" for what in ("read", "list", "write") for w in [*WAYS_OUT, "hl", "race"]}
    assert ports | python <= set(got), sorted((ports | python) - set(got))[:5]

    host = os.path.dirname(tree.base)
    leaks = []
    for label, (text, _) in got.items():
        shown = text.replace(typed[label], "") if label in typed else text
        if any(bad in text for bad in (SECRET.decode(), "listme", "root:x:0:", f"ws-{CANARY}",
                                       "Traceback", "internal error")) or host in shown:
            leaks.append((label, text[:300]))
    assert leaks == []

    # Every reader handed a way out fails, but where the tool itself goes on without the
    # file (curl reads -H/-w/-b/-d @ files best effort, as the real one does; pysh's
    # git config -f takes an unreadable file as empty) or archives a link as the link.
    soft = {"curl-data", "curl-headers-file", "curl-write-out", "curl-cookie-file",
            "git-config-file"}
    plain = ("script-rel", "script-abs")  # refused as links: later cells made plain files there
    link_kept = {(tool, way) for tool in ("tar-c", "tar-T", "git-add")
                 for way in ("script-chain", "script-via-link")}
    ok = [c for c in ports if c.startswith("read ") and got[c][1] == 0]
    assert [c for c in ok if c.split()[1] not in soft and c.split()[2] not in plain
            and tuple(c.split()[1:]) not in link_kept] == []
    # Every writer handed a way out fails, but where the tool replaces the name (zip
    # renames its new archive over it) or only warns (curl -D / -c). /tmp-based host
    # spellings name the sandbox's own /tmp: they may succeed there.
    writes_ok = {c for c in ports if c.startswith("write ") and got[c][1] == 0}
    free = ("dotdot", "host-spelling", "race")
    assert [c for c in writes_ok if c.split()[2] not in free
            and c.split()[1] not in ("curl-dump-header", "curl-cookie-jar")
            and not (c.split()[1] == "zip" and c.split()[2] in ("dangling", "hard-linked", "fifo"))
            ] == []
    py_ok = {c for c in python if got[c][0].startswith("OK")}
    assert py_ok - {"read hl", "read race", "list race", "write race", "list host-dir",
                    "write host-dir", *(f"read {w}" for w in plain)} == set()


def test_both_doors_refuse_each_way_out_alike(planted):
    """Door A (FileSystem) and door B (resolve) give the same errno for every way out of
    the matrix (the FIFO is left to the child run above: a regression there would hang)."""
    from pysh.interpreter import ExecCommand
    from pysh.shellkit import FileSystemError

    def errno_of(fn, *args, **kw) -> int:
        try:
            fn(*args, **kw)
        except FileSystemError as e:
            return e.errno
        return 0

    tree = planted
    names = {"outside": tree.outside, "canary": CANARY}
    with ExecCommand(tree.ws) as ex:
        fs, shell = ex.shell.fs, ex.shell
        for label, path in WAYS_OUT.items():
            if label.startswith(("script-", "fifo")):
                continue
            p = path.format(**names)
            a, b = errno_of(fs.read_bytes, p), errno_of(shell.resolve, p)
            assert a != 0 and (a == b or (a, b) == (errno.EISDIR, 0)), (label, a, b)
            w = p + "/new.txt" if label in ("host-dir", "planted-dir") else p
            a, b = errno_of(fs.write_bytes, w, b"x"), errno_of(shell.resolve, w, write=True)
            assert a != 0 and a == b, (label, a, b)
        for label, path in WRITE_FILES.items():
            if label in ("fifo", "race"):
                continue
            p = path.format(**names)
            a, b = errno_of(fs.write_bytes, p, b"x"), errno_of(shell.resolve, p, write=True)
            assert a != 0 and a == b, (label, a, b)
