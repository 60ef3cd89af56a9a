"""Golden cases: fd (``fdfind`` 8.6 on this machine).

fd walks in parallel and prints in no fixed order; pysh's fd prints sorted, so
the oracle is ``fdfind ... | sort`` (byte order) wherever there is output to order.
"""

import shlex

FILES = {
    "a.txt": "alpha\n",
    "b.py": "print(1)\n",
    "empty.txt": "",
    "emptydir/": None,
    "src/main.py": "x\n",
    "src/lib.rs": "y\n",
    "src/deep/more/x.py": "z\n",
    "src/Upper.TXT": "u\n",
    "bin/run.sh": {"content": "#!/bin/sh\n", "mode": 0o755},
    ".hidden/h.txt": "h\n",
    ".dot.py": "d\n",
    "ignored.log": "l\n",
    ".ignore": "*.log\n",
    ".fdignore": "secret/\n",
    "secret/s.txt": "s\n",
    "link.txt": {"symlink": "a.txt"},
    "linkdir": {"symlink": "src/deep"},
    "dangling": {"symlink": "nowhere"},
    "a.b/c.txt": "dot dir\n",
}


def fd(name, *args, sort=True, files=None):
    cmd = "fdfind " + " ".join(shlex.quote(a) for a in args)
    oracle = ["sh", "-c", cmd + " | sort"] if sort else ["fdfind", *args]
    return dict(name=name, argv=["fd", *args], oracle=oracle,
                files=files if files is not None else FILES)


CASES = [
    fd("all"),
    fd("pattern", "py"),
    fd("regex", "^ma.n"),
    fd("regex_anchor_end", "rs$"),
    fd("smart_case_upper", "TXT"),
    fd("smart_case_lower", "upper"),
    fd("case_sensitive", "-s", "upper"),
    fd("ignore_case", "-i", "UPPER"),
    fd("fixed", "-F", "a.b"),
    fd("glob", "-g", "*.py"),
    fd("glob_exact", "-g", "main.py"),
    fd("glob_full_path", "-g", "-p", "**/deep/**"),
    fd("full_path", "-p", "src/d"),
    fd("type_f", "-t", "f"),
    fd("type_d", "-t", "d"),
    fd("type_l", "-t", "l"),
    fd("type_x", "-t", "x"),
    fd("type_e", "-t", "e"),
    fd("type_fd", "-t", "f", "-t", "d", "src"),
    fd("ext", "-e", "py"),
    fd("ext_two", "-e", "rs", "-e", "txt"),
    fd("ext_case", "-e", "TXT"),
    fd("hidden", "-H"),
    fd("no_ignore", "-I"),
    fd("unrestricted", "-u"),
    fd("hidden_pattern", "-H", "dot"),
    fd("max_depth", "-d", "1"),
    fd("max_depth2", "--max-depth", "2", "py"),
    fd("min_depth", "--min-depth", "3"),
    fd("exact_depth", "--exact-depth", "2"),
    fd("exclude", "-E", "*.txt"),
    fd("exclude_dir", "-E", "src"),
    fd("exclude_two", "-E", "*.py", "-E", "bin"),
    fd("absolute", "-a", "main"),
    fd("path_arg", ".", "src"),
    fd("path_arg_slash", "py", "src/"),
    fd("path_dot_slash", "py", "./src"),
    fd("two_paths", "x", "src", "bin"),
    fd("follow", "-L", "x.py"),
    fd("print0", "-0", "py", sort=False, files={"only/one.py": "1\n"}),
    fd("exec", "-e", "py", "-x", "echo"),
    fd("exec_cat", "-e", "rs", "-x", "cat"),
    fd("exec_placeholders", "main", "-x", "echo", "{}", "{/}", "{//}", "{.}", "{/.}", ";"),
    fd("exec_batch", "-e", "rs", "-X", "cat"),
    fd("exec_batch_count", "-e", "py", "-X", "wc", "-l"),
    fd("no_match", "zzzz", sort=False),
    fd("bad_regex", "(", sort=False),
    fd("bad_path", "x", "nodir", sort=False),
    dict(fd("unknown_flag", "--bogus", sort=False), subst=[("fdfind", "fd")]),
    fd("gitignore_no_repo", sort=True, files={"x.txt": "1\n", "y.txt": "2\n", ".gitignore": "x.txt\n"}),
    fd("gitignore_repo", sort=True, files={"x.txt": "1\n", "y.txt": "2\n", ".gitignore": "x.txt\n",
                                           ".git/HEAD": "ref: refs/heads/main\n"}),
    fd("max_results", "--max-results", "1", "main"),
]
