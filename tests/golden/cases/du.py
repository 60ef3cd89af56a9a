"""du (GNU coreutils 9.1): sizes come from the same host file system for both tools."""

from tests.builtins.files.fixtures import SMALL, TREE


def c(name, *args, files=TREE, **kw):
    return dict(name=name, argv=["du", *args], files=files, **kw)


CASES = [
    c("plain"),
    c("all", "-a"),
    c("summarize", "-s"),
    c("summarize_human", "-sh", "."),
    c("human", "-h", "src"),
    c("all_human", "-ah", "src"),
    c("depth1", "-d", "1"),
    c("max_depth0", "--max-depth=0", "src"),
    c("total", "-c", "src", "docs"),
    c("summarize_total", "-sc", "src", "docs"),
    c("kibibytes", "-k", "src"),
    c("megabytes", "-m", "src"),
    c("bytes", "-b", "src"),
    c("apparent", "--apparent-size", "src"),
    c("apparent_all", "--apparent-size", "-a", "src"),
    c("file_operand", "big.bin"),
    c("file_operand_all", "-a", "big.bin", "src/main.py"),
    c("missing", "nope"),
    c("missing_and_present", "nope", "docs"),
    c("bad_depth", "-d", "x"),
    c("small", files=SMALL),
    c("small_all", "-a", files=SMALL),
    c("null", "-0", "-s", "src"),
    c("separate_dirs", "-S", "src"),
    c("exclude", "-a", "--exclude=*.py", "src"),
    c("dereference", "-L", "-s", "link_dir"),
    c("link_operand", "link_dir"),
    c("hard_links_once", "-a", files={"a": "x" * 5000, "d/": None}),
    c("bad_option", "-W"),
]
