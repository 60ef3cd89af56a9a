"""Golden cases: git 2.39's config error paths (missing and unreadable files, bad keys and
values, wrong argument counts) and their exit statuses."""

from tests.ports.git.golden_helpers import FILES, case, git

F = dict(FILES, bad="[broken\n", **{"d/x": "x\n"}, good="[a]\n\tb = c\n[user]\n\tname = N\n")


def c(name, *args, **kw):
    return case(f"config_{name}", git("config", *args), files=F, **kw)


CASES = [
    c("f_missing_list", "-f", "missing", "--list"),
    c("f_missing_get", "-f", "missing", "user.name"),
    c("f_missing_get2", "-f", "missing", "--get", "user.name"),
    c("f_missing_regexp", "-f", "missing", "--get-regexp", "user"),
    c("f_missing_getall", "-f", "missing", "--get-all", "user.name"),
    c("f_missing_set", "-f", "missing", "a.b", "c"),
    c("f_dir_list", "-f", "d", "--list"),
    c("f_bad_list", "-f", "bad", "--list"),
    c("f_bad_get", "-f", "bad", "a.b"),
    c("f_good_list", "-f", "good", "--list"),
    c("f_good_regexp", "-f", "good", "--get-regexp", "a"),
    c("no_section", "nosection"),
    c("no_section_set", "nosection", "val"),
    c("bad_key", "a.1b"),
    c("bad_key2", "1a.b"),
    c("no_name", "a.b."),
    c("unset_missing", "--unset", "nosuch.key"),
    c("unset_all_missing", "--unset-all", "nosuch.x"),
    c("get_missing", "--get", "nosuch.key"),
    c("bool", "--bool", "core.bare"),
    c("int_bad", "--int", "core.bare"),
    c("bool_set_bad", "--bool", "user.x", "maybe"),
    c("int_set_bad", "--int", "a.b", "xx"),
    c("int_set", "--int", "a.b", "10k"),
    c("type_bad", "--type=foo", "a.b"),
    c("global_list_missing", "--global", "--list"),
    c("global_get_missing", "--global", "a.b"),
    c("remove_section_missing", "--remove-section", "nosuch"),
    c("rename_section_missing", "--rename-section", "a", "b"),
    c("too_many", "a.b", "c", "d", "e"),
    c("getall_noarg", "--get-all"),
    c("add_noarg", "--add", "a.b"),
    c("local_outside", "--local", "a.b", setup=[]),
    c("list_outside", "--list", setup=[]),
]
