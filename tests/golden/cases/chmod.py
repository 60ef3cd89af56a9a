"""chmod (GNU coreutils 9.1): -v/-c reports, errors and exit status."""

from tests.builtins.files.fixtures import SMALL

MODES = {"f": {"content": "x", "mode": 0o644}, "e": {"content": "x", "mode": 0o755},
         "d/": None, "d/g": {"content": "", "mode": 0o600}, "d/s/": None,
         "d/s/h": {"content": "", "mode": 0o640}}


def c(name, *args, files=MODES, **kw):
    return dict(name=name, argv=["chmod", *args], files=files, **kw)


CASES = [
    c("octal_v", "-v", "755", "f"),
    c("octal_retained", "-v", "644", "f"),
    c("changes_only", "-c", "644", "f", "e"),
    c("symbolic_u_plus_x", "-v", "u+x", "f"),
    c("symbolic_go_minus_w", "-v", "go-w", "f", "e"),
    c("symbolic_list", "-v", "u+x,go-w", "f"),
    c("symbolic_a_eq_r", "-v", "a=r", "f"),
    c("symbolic_eq_empty", "-v", "o=", "e"),
    c("symbolic_copy_g_eq_u", "-v", "g=u", "e"),
    c("symbolic_X", "-v", "+X", "f", "d"),
    c("symbolic_X_exec", "-v", "a+X", "e"),
    c("symbolic_minus_x_arg", "-v", "-x", "e"),
    c("symbolic_minus_w_arg", "-v", "-w", "f"),
    c("symbolic_no_who", "-v", "+x", "f"),
    c("symbolic_equal_no_who", "-v", "=r", "f"),
    c("sticky", "-v", "+t", "d"),
    c("sticky_octal", "-v", "1777", "d"),
    c("recursive_v", "-Rv", "u+w,g-r", "d"),
    c("recursive_c", "-Rc", "700", "d"),
    c("recursive_links", "-Rv", "u+r", "dir", files=SMALL),
    c("reference", "-v", "--reference=e", "f"),
    c("reference_missing", "--reference=nope", "f"),
    c("missing_file", "644", "nope"),
    c("missing_file_quiet", "-f", "644", "nope"),
    c("invalid_mode", "bad", "f"),
    c("invalid_octal", "9", "f"),
    c("missing_operand"),
    c("missing_operand_after", "644"),
    c("bad_option", "-W", "f"),
    c("dangling", "644", "dangling", files=dict(MODES, dangling={"symlink": "nowhere"})),
    c("dangling_v", "-v", "644", "dangling", files=dict(MODES, dangling={"symlink": "nowhere"})),
    c("recursive_link_operand", "-Rv", "u+r", "ld", files=dict(MODES, ld={"symlink": "d/s"})),
]
