"""link, unlink and sync (GNU coreutils 9.1)."""

FILES = {"a": "alpha\n", "d/": None, "d/x": "x\n"}


def c(name, *argv, **kw):
    kw.setdefault("files", FILES)
    return dict(name=name, argv=list(argv), **kw)


CASES = [
    c("link_ok", "link", "a", "b"),
    c("link_exists", "link", "a", "d/x"),
    c("link_missing_src", "link", "nope", "b"),
    c("link_dir", "link", "d", "e"),
    c("link_no_operand", "link"),
    c("link_one_operand", "link", "a"),
    c("link_extra", "link", "a", "b", "c"),
    c("link_bad_option", "link", "-s", "a", "b"),
    c("link_dashdash", "link", "--", "a", "b"),
    dict(name="link_effect", script="link a b && cat b && stat -c %h a",
         files=FILES),
    c("unlink_ok", "unlink", "a"),
    c("unlink_missing", "unlink", "nope"),
    c("unlink_dir", "unlink", "d"),
    c("unlink_no_operand", "unlink"),
    c("unlink_extra", "unlink", "a", "d/x"),
    dict(name="unlink_effect", script="unlink d/x; ls d; unlink a; ls", files=FILES),
    c("sync_plain", "sync"),
    c("sync_file", "sync", "a"),
    c("sync_missing", "sync", "a", "nope"),
    c("sync_fs", "sync", "-f", "a"),
    c("sync_data_needs_arg", "sync", "-d"),
    c("sync_both", "sync", "-d", "-f", "a"),
    c("sync_bad_option", "sync", "-x"),
]
