"""realpath, readlink and pwd (GNU coreutils 9.1); host paths are recorded as /batch."""

FILES = {"d/f": "x", "d/sub/": None, "ld": {"symlink": "d"}, "lf": {"symlink": "d/f"},
         "dang": {"symlink": "nope"}, "chain": {"symlink": "lf"}, "f": "y"}


def c(name, *args, **kw):
    return dict(name=name, argv=list(args), files=FILES, **kw)


CASES = [
    c("plain", "realpath", "f", "d/f"),
    c("link", "realpath", "lf", "ld", "chain"),
    c("dot", "realpath", "."),
    c("missing_leaf", "realpath", "nope"),
    c("missing_parent", "realpath", "nope/x"),
    c("missing_quiet", "realpath", "-q", "nope/x", "f"),
    c("existing_e", "realpath", "-e", "nope"),
    c("existing_e_ok", "realpath", "-e", "lf"),
    c("missing_m", "realpath", "-m", "nope/../x/./y"),
    c("strip_s", "realpath", "-s", "ld/../f"),
    c("physical", "realpath", "ld/../f"),
    c("logical_L", "realpath", "-L", "ld/../f"),
    c("relative_to", "realpath", "--relative-to=d/sub", "f", "d/f"),
    c("relative_base", "realpath", "--relative-base=d", "d/f", "f"),
    c("relative_both", "realpath", "--relative-to=d", "--relative-base=.", "d/sub", "f"),
    c("zero", "realpath", "-z", "f", "d"),
    c("dangling", "realpath", "dang"),
    c("file_slash", "realpath", "f/"),
    c("missing_operand", "realpath"),
    c("readlink_plain", "readlink", "lf", "ld"),
    c("readlink_not_link", "readlink", "f"),
    c("readlink_verbose", "readlink", "-v", "f", "nope"),
    c("readlink_f", "readlink", "-f", "chain", "nope", "nope/x"),
    c("readlink_e", "readlink", "-e", "chain", "nope"),
    c("readlink_m", "readlink", "-m", "nope/x/../y"),
    c("readlink_n", "readlink", "-n", "lf"),
    c("readlink_n_multi", "readlink", "-n", "lf", "ld"),
    c("readlink_z", "readlink", "-z", "lf"),
    c("readlink_fv", "readlink", "-fv", "nope/x"),
    c("readlink_missing", "readlink"),
    c("pwd", "pwd"),
    c("pwd_P", "pwd", "-P"),
    c("pwd_extra", "pwd", "x", oracle=["bash", "-c", "exec -a pwd /bin/pwd x"]),
]
