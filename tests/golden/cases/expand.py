"""expand and unexpand (GNU coreutils 9.1): tab stops, -i/-a, lists, odd input."""

TABS = "a\tb\tc\n\tx  y\t\tz\n  \t  w\nab\bc\td\n        eight\n    four    x\n"
FILES = {
    "t": TABS,
    "crlf": "a\tb\r\n\tc\r\n",
    "nonl": "x\ty",
    "bin": b"\xff\t\xfe\n\xc3\xa9\tz\n",
    "empty": "",
    "spaces": "        a       b\n    c   d       e\n  \t  f\n a  b   c    d\n",
    "d/": None,
}


def e(name, *args, **kw):
    kw.setdefault("files", FILES)
    return dict(name=name, argv=["expand", *args], **kw)


def u(name, *args, **kw):
    kw.setdefault("files", FILES)
    return dict(name="un_" + name, argv=["unexpand", *args], **kw)


CASES = [
    e("default", "t"),
    e("t4", "-t4", "t"),
    e("list", "-t", "2,5,9", "t"),
    e("list_blank", "-t", "2 6", "t"),
    e("extend", "-t", "2,/5", "t"),
    e("increment", "-t", "3,+5", "t"),
    e("initial", "-i", "t"),
    e("obsolete", "-4", "t"),
    e("obsolete_list", "-3,7", "t"),
    e("stdin", stdin=TABS),
    e("crlf", "crlf"),
    e("nonl", "nonl"),
    e("invalid_utf8", "bin"),
    e("empty", "empty"),
    e("concat", "nonl", "t"),
    e("zero", "-t", "0", "t"),
    e("descending", "-t", "5,3", "t"),
    e("bad_char", "-t", "x", "t"),
    e("two_extends", "-t", "/2,/3", "t"),
    e("slash_after", "-t", "3/", "t"),
    e("extend_and_increment", "-t", "/2,+3", "t"),
    e("missing", "nofile", "t"),
    e("dir", "d"),
    e("bad_option", "-x"),
    u("default", "spaces"),
    u("all", "-a", "spaces"),
    u("t4", "-t4", "spaces"),
    u("list", "-t", "2,5,9", "spaces"),
    u("first_only", "--first-only", "-t4", "spaces"),
    u("extend", "-t", "3,/4", "spaces"),
    u("tabs_in", "-a", "t"),
    u("crlf", "-a", "crlf"),
    u("nonl", "-a", "nonl"),
    u("invalid_utf8", "-a", "bin"),
    u("empty", "empty"),
    u("roundtrip", stdin="a       b       c\n        d\n"),
    u("single_blank", "-a", stdin="a b\nabcdefg h\nabcdef  i\n"),
    u("missing", "nofile"),
    u("zero", "-t", "0", "spaces"),
]
