"""install (GNU coreutils 9.1): copies, directories, modes, backups, and what it leaves.

Modes are shown after each run (GNU runs with umask 0: the defaults are exact).
Owner cases run the real install as uid 1000 (``cloudsdk`` on the recording
host, folded to ``user``) in a tree that uid owns, as the sandbox's user.
"""

FILES = {"a": "hi\n", "b": "yo\n", "c": "x", "d/": None, "crlf": "a\r\nb\r\n",
         "bin": b"\xff\xfe\x00\x01", "empty": ""}
SHOW = ('; s=$?; find . -mindepth 1 | sort | while read f; do if [ -d "$f" ]; then '
        'stat -c "%n %a dir" "$f"; else stat -c "%n %a %s" "$f"; fi; done; exit $s')
UID = ["setpriv", "--reuid=1000", "--regid=1000", "--clear-groups"]


def s(name, cmd):
    return dict(name=name, script=cmd + SHOW, files=FILES)


def c(name, *args):
    return dict(name=name, argv=["install", *args], files=FILES)


def as_user(name, *args):
    host = [x.replace("user", "cloudsdk") for x in args]
    return dict(name=name, argv=["install", *args], oracle=UID + ["install", *host],
                files=FILES, setup=[["chown", "-R", "1000:1000", "."]],
                subst=[("cloudsdk", "user")])


CASES = [
    s("file", "install a x"),
    s("verbose_replace", "install -v a x && install -v b x"),
    s("into_dir", "install -v a b d"),
    s("dir_parents", "install -d -v p/q/r"),
    s("dir_mode", "install -d -m 700 -v s"),
    s("dir_existing_mode", "install -d -m 750 d"),
    s("dir_dotdot", "install -d -v d/new/../x"),
    s("dir_over_file", "install -dv newdir a"),
    s("dir_under_file", "install -d a/b"),
    s("dir_empty_name", "install -d ''"),
    s("leading_dirs", "install -D -v a t/u/v"),
    s("leading_dirs_mode", "install -D -m 600 a dd/ee"),
    s("leading_dirs_again", "install -vD a d/x/y; install -vD a d/x/y"),
    s("target_dir_created", "install -Dv a -t w/x"),
    s("target_dir_created_two", "install -D -t nd/e -v a b"),
    s("target_dir", "install -v -t d a crlf bin"),
    s("mode_octal", "install -m 644 -v a m1"),
    s("mode_symbolic", "install -m u+x,go= a m3"),
    s("mode_invalid", "install -m xyz a m4"),
    s("compare_twice", "install -C -v a c1; install -C -v a c1"),
    s("compare_mode", "install -C -m 644 a c; install -C -v -m 644 a c; install -C -v a c"),
    s("backup_simple", "install -v a b; install -v -b a b"),
    s("backup_suffix", "install -S .bak -v a b"),
    s("backup_numbered", "install --backup=numbered -v a b; install --backup=numbered -v a b"),
    s("backup_existing", "install --backup=numbered a b; install --backup=existing -v a b"),
    s("backup_invalid", "install --backup=foo a b"),
    s("preserve_times", "touch -d 2020-01-01 a; install -p -v a p1; stat -c %y p1"),
    s("same_file", "install -v a a"),
    s("source_dir", "install d z"),
    s("source_missing", "install nofile y"),
    s("source_empty_name", "install '' x"),
    s("no_target_onto_dir", "install -T a d"),
    s("no_target", "install -vT a newf"),
    s("trailing_slash_dir", "install -v a d/"),
    s("dev_null", "install -v /dev/null n"),
    s("invalid_utf8_and_empty", "install bin empty d"),
    s("selinux_ignored", "install -Z a zz; install -c a cc"),
    c("missing_dest", "a"),
    c("missing_operand"),
    c("dir_missing_operand", "-d"),
    c("no_target_extra", "-T", "a", "tt", "b"),
    c("target_and_no_target", "-t", "d", "-T", "a"),
    c("dir_with_target", "-d", "-t", "d", "a"),
    c("target_not_dir", "a", "b", "nodir"),
    c("target_file", "a", "b", "c"),
    c("t_missing", "-t", "nodir", "a"),
    c("t_file", "-t", "a", "b"),
    c("unknown_user", "-o", "nosuchu", "a", "o1"),
    c("unknown_group", "-g", "nosuchg", "a", "o2"),
    c("compare_preserve", "-Cp", "a", "p2"),
    c("strip_program_alone", "--strip-program=foo", "a", "sp"),
    c("bad_option", "-x", "a"),
    as_user("owner_self", "-v", "-o", "user", "-g", "user", "a", "o3"),
    as_user("owner_uid", "-o", "1000", "-g", "1000", "a", "o4"),
    as_user("owner_root", "-o", "root", "a", "r1"),
    as_user("group_root", "-g", "root", "a", "r2"),
    as_user("dir_owner_root", "-d", "-o", "root", "dr"),
    as_user("leading_owner_root", "-D", "-o", "root", "a", "z/r4"),
]
