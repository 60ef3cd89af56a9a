"""The POSIX regex layer: translation table, GNU error wording, bytes, longest match, deadlines."""

from __future__ import annotations

import threading
import time

import pytest

from pysh.shellkit import regex as rx
from pysh.shellkit.limits import Budget, Interrupted, LimitExceeded
from pysh.shellkit.regex import RegexError, compile_fixed, compile_perl, compile_posix, translate


# -- translation table ---------------------------------------------------------
@pytest.mark.parametrize("pattern,kw,python", [
    ("a*b", {}, "a*b"),
    ("*b", {}, "\\*b"),  # BRE: a leading * is literal
    ("\\(*a\\)", {}, "(\\*a)"),  # ... also after \(
    ("x\\|*a", {}, "x|\\*a"),  # ... and after \|
    ("^*a", {}, "^\\*a"),  # ... and after the ^ anchor
    ("a\\{2,3\\}", {}, "a{2,3}"),
    ("a\\{,3\\}", {}, "a{0,3}"),
    ("a\\{2,\\}", {}, "a{2,}"),
    ("a\\+b\\?", {}, "a+b?"),
    ("a+b?", {}, "a\\+b\\?"),  # BRE: + and ? are literal
    ("a+b?", {"extended": True}, "a+b?"),
    ("a\\+", {"extended": True}, "a\\+"),  # ERE: \+ is a literal +
    ("a{1}{2}", {"extended": True}, "a{2}"),  # stacked repeats fold
    ("a+?", {"extended": True}, "a*"),  # (a+)? is greedy a*, never lazy
    ("a**", {"extended": True}, "a*"),
    ("a^b$c", {}, "a\\^b\\$c"),  # BRE: ^ $ in the middle are literal
    ("\\(^a$\\)", {}, "(^a\\Z)"),  # ... but anchors after \( and before \)
    ("x\\|^a$\\|y", {}, "x|^a\\Z|y"),
    ("^a$", {"multiline": True}, "^a$"),
    ("\\`a\\'", {"multiline": True}, "\\Aa\\Z"),
    ("\\<w\\>", {}, "\\b(?=\\w)w\\b(?<=\\w)"),
    ("\\bw\\B", {}, "\\bw\\B"),
    ("[]a]", {}, "[\\]a]"),
    ("[^]a]", {}, "[^\\]a\udc80-\udcff]"),
    ("[a-]", {}, "[a\\-]"),
    ("[\\]", {}, "[\\\\]"),  # a backslash is literal in a POSIX bracket
    ("[[:digit:]x]", {}, "[0-9x]"),
    ("[[:alpha:]]", {}, "[[:alpha:]]"),
    ("[[:alpha:]]", {"bytes_mode": True}, "[A-Za-z]"),
    ("[[:upper:]]", {"icase": True}, "[[:alpha:]]"),
    ("[[.-.]a]", {}, "[\\-a]"),
    ("[[=e=]]", {}, "[e]"),
    ("x.y", {}, "x[^\udc80-\udcff]y"),
    ("x.y", {"multiline": True}, "x[^\\n\udc80-\udcff]y"),
    ("x.y", {"bytes_mode": True}, "x(?s:.)y"),
    ("x.y", {"multiline": True, "eol": "\0"}, "x[^\\x00\udc80-\udcff]y"),
    ("\\s", {"multiline": True}, "[^\\S\\n]"),
    ("\\(a\\)\\1", {}, "(a)(?:\\1)"),
    ("a\\{1", {"dialect": "grep"}, None),  # not valid BRE in grep either
    ("a\\{1", {"extended": True, "dialect": "grep"}, "a\\{1"),  # ERE: \\{ is a literal {
    ("a{1", {"extended": True, "dialect": "grep"}, "a\\{1"),  # grep -E: literal
    ("a{1,x}", {"extended": True, "dialect": "grep"}, "a\\{1,x\\}"),
    ("a)", {"extended": True, "dialect": "grep"}, "a\\)"),
    ("*a", {"extended": True, "dialect": "grep"}, "a"),  # skipped, with a warning
    ("{1}a", {"extended": True, "dialect": "grep"}, "1\\}a"),
    ("\\{1\\}a", {"dialect": "grep"}, "\\{1\\}a"),
    ("a**", {"dialect": "grep"}, "a*"),
    ("*a", {"extended": True, "dialect": "awk"}, "\\*a"),
    ("[\\]x]", {"extended": True, "dialect": "awk"}, "[\\]x]"),
    ("a\\/b\\y\\t", {"extended": True, "dialect": "awk"}, "a/b\\b\t"),
    ("\\1", {"extended": True, "dialect": "awk"}, "\x01"),
])
def test_translation(pattern, kw, python):
    if python is None:
        with pytest.raises(RegexError):
            translate(pattern, **kw)
        return
    assert translate(pattern, **kw).python == python


def test_grep_warnings():
    assert translate("*a", extended=True, dialect="grep").warnings == ["* at start of expression"]
    assert translate("a|+b", extended=True, dialect="grep").warnings == ["+ at start of expression"]
    assert translate("{1}a", extended=True, dialect="grep").warnings == [
        "{...} at start of expression"]
    assert translate("*a", dialect="grep").warnings == []


def test_multiple_patterns_renumber_backrefs():
    r = compile_posix(["\\(a\\)\\1", "\\(b\\)\\1"])
    assert r.groups == 2
    assert r.search("xbb").group(0) == "bb"
    assert r.search("xaa").group(0) == "aa"
    assert r.search("ab") is None


# -- errors in GNU's words (as grep 3.8 / sed 4.9 print them) ------------------------
@pytest.mark.parametrize("pattern,kw,message", [
    ("\\(a", {}, "Unmatched ( or \\("),
    ("(a", {"extended": True}, "Unmatched ( or \\("),
    ("a\\)", {}, "Unmatched ) or \\)"),
    ("a)", {"extended": True}, "Unmatched ) or \\)"),  # sed -E (grep -E takes it literally)
    ("[a", {}, "Unmatched [, [^, [:, [., or [="),
    ("[[:alpha:]", {}, "Unmatched [, [^, [:, [., or [="),
    ("[[:alpha", {}, "Unmatched [, [^, [:, [., or [="),
    ("a\\", {}, "Trailing backslash"),
    ("a\\{1", {}, "Unmatched \\{"),
    ("a{1", {"extended": True}, "Unmatched \\{"),
    ("a\\{2,1\\}", {}, "Invalid content of \\{\\}"),
    ("a\\{x\\}", {}, "Invalid content of \\{\\}"),
    ("a{}", {"extended": True}, "Invalid content of \\{\\}"),
    ("a{1,2,3}", {"extended": True, "dialect": "grep"}, "Invalid content of \\{\\}"),
    ("a\\{32768\\}", {}, "Regular expression too big"),
    ("\\(a\\)\\2", {}, "Invalid back reference"),
    ("\\(a\\1\\)", {}, "Invalid back reference"),
    ("[[:foo:]]", {}, "Invalid character class name"),
    ("[[.ab.]]", {}, "Invalid collation character"),
    ("[[=ab=]]", {}, "Invalid collation character"),
    ("[z-a]", {}, "Invalid range end"),
    ("[a-c-e]", {}, "Invalid range end"),
    ("a**", {}, "Invalid preceding regular expression"),  # sed BRE
    ("a\\{1\\}*", {}, "Invalid preceding regular expression"),
    ("\\{1\\}a", {}, "Invalid preceding regular expression"),
    ("*a", {"extended": True}, "Invalid preceding regular expression"),  # sed -E
    ("a|*b", {"extended": True}, "Invalid preceding regular expression"),
    ("{1}a", {"extended": True}, "Invalid preceding regular expression"),
])
def test_error_messages(pattern, kw, message):
    with pytest.raises(RegexError) as ei:
        compile_posix(pattern, **kw)
    assert str(ei.value) == message
    assert not ei.value.plain


def test_confusing_brackets_is_plain_error():
    with pytest.raises(RegexError) as ei:
        compile_posix("[:alpha:]")
    assert str(ei.value) == "character class syntax is [[:space:]], not [:space:]"
    assert ei.value.plain
    # not the mistake when it does not end in ':' or holds a real class
    compile_posix("[:al]")
    compile_posix("[:[:alpha:]:]")


def test_deep_nesting_is_an_error_not_a_crash():
    with pytest.raises(RegexError):
        compile_posix("\\(" * 5000 + "a" + "\\)" * 5000)


# -- matching --------------------------------------------------------------------
def _m(pattern, subject, **kw):
    m = compile_posix(pattern, **kw).search(subject)
    return None if m is None else m.group(0)


@pytest.mark.parametrize("pattern,kw,subject,expected", [
    # POSIX leftmost-longest where Python's leftmost-first differs
    ("x\\(y\\|yz\\)\\?", {}, "xyz", "xyz"),
    ("(a|ab)(c|bcd)", {"extended": True}, "abcd", "abcd"),
    ("a?(ab)?", {"extended": True}, "ab", "ab"),
    ("(|a)", {"extended": True}, "ab", "a"),
    # back-references, case folding
    ("\\(a\\)\\1", {"icase": True}, "aA", "aA"),
    ("\\(.\\)\\1", {}, "abccd", "cc"),
    ("É", {"icase": True}, "é", "é"),
    ("[[:upper:]]", {"icase": True}, "a", "a"),
    # UTF-8 characters, undecodable bytes as surrogates
    ("[[:alpha:]]*", {}, "héllo1", "héllo"),
    ("h.l", {}, "hél", "hél"),
    ("a.b", {}, "a\udcffb", None),
    ("a[^x]b", {}, "a\udcffb", None),
    ("a\udcffb", {}, "xa\udcffb", "a\udcffb"),
    ("a\\Wb", {}, "a\udcffb", None),
    # anchors
    ("^b", {}, "a\nb", None),
    ("^b", {"multiline": True}, "a\nb", "b"),
    ("a$", {}, "a\nb", None),
    ("a$", {"multiline": True}, "a\nb", "a"),
    ("a.b", {}, "a\nb", "a\nb"),  # sed pattern space: . matches newline
    ("a.b", {"multiline": True}, "a\nb", None),
    ("a\\sb", {"multiline": True}, "a\nb", None),
    ("\\<a", {}, "ba a", "a"),
    ("b\\>", {}, "ab bc", "b"),
    # empty alternatives and groups
    ("a||b", {"extended": True}, "b", "b"),  # the longest alternative wins
    ("()", {"extended": True}, "x", ""),
])
def test_matching(pattern, kw, subject, expected):
    assert _m(pattern, subject, **kw) == expected


def test_bytes_mode_is_c_locale():
    r = compile_posix(b"a.c", bytes_mode=True)
    assert r.search(b"a\xffc").group(0) == b"a\xffc"
    # one byte is one character: the two bytes of a UTF-8 char need two dots
    assert compile_posix("^..$", bytes_mode=True).search("é".encode()) is not None
    assert compile_posix("^.$", bytes_mode=True).search("é".encode()) is None
    assert compile_posix("^.$").search("é") is not None


def test_eol_nul_for_grep_z():
    r = compile_posix("^b", multiline=True, eol="\0")
    assert r.search("a\0b").start() == 2
    assert r.search("a\nb") is None
    assert compile_posix("a.b", multiline=True, eol="\0").search("a\nb") is not None


def test_fixed_strings():
    r = compile_fixed(["a.b", "x*"])
    assert r.search("aXb") is None
    assert r.search("--a.b").group(0) == "a.b"
    assert r.search("x*").group(0) == "x*"
    assert compile_fixed(["ab", "abc"]).search("abcd").group(0) == "abc"  # longest
    assert compile_fixed("AB", icase=True).search("xab").group(0) == "ab"


def test_perl():
    assert compile_perl(r"\d+").search("ab12").group(0) == "12"
    assert compile_perl(r"(?<=a)b").search("ab").group(0) == "b"
    assert compile_perl(r"a\z").search("a\n") is None
    assert compile_perl(r"a\Z").search("a\n") is not None
    assert compile_perl(r"\Qa.b\E").search("axb") is None
    assert compile_perl(r"\x{41}").search("A") is not None
    assert compile_perl(r"foo\Kbar").search("foobar").group(0) == "bar"
    assert compile_perl(r"\d").search("٣") is None  # ASCII digits, as grep 3.8 -P
    with pytest.raises(RegexError) as ei:
        compile_perl("(")
    assert str(ei.value) == "missing closing parenthesis"
    with pytest.raises(RegexError) as ei:
        compile_perl("a)")
    assert str(ei.value) == "unmatched closing parenthesis"


# -- guarding -----------------------------------------------------------------------
def test_risk_estimate():
    assert not compile_posix("abc").risky and compile_posix("abc").unbounded == 0
    assert compile_posix("a.*b").unbounded == 1
    assert compile_posix("\\(a*\\)*b").risky
    assert compile_posix("\\(a\\|aa\\)*c").risky
    assert compile_posix("\\(a\\)\\1").risky
    b = Budget(timeout=60)
    plain = compile_posix("abc", budget=b)
    assert not plain.guard_needed(10 ** 9)
    one = compile_posix("a.*b", budget=b)
    assert not one.guard_needed(100) and one.guard_needed(10 ** 6)
    assert compile_posix("\\(a\\)\\1", budget=b).guard_needed(1)
    assert not compile_posix("\\(a\\)\\1").guard_needed(10 ** 6)  # no budget: nothing to honour


def test_pathological_pattern_honours_short_deadline():
    b = Budget(timeout=0.3)
    r = compile_posix("a.*b.*c.*d", budget=b)
    subject = "abc" * 4000
    t0 = time.monotonic()
    with pytest.raises(LimitExceeded) as ei:
        r.search(subject)
    assert ei.value.status == 124
    assert time.monotonic() - t0 < 10


def test_pathological_backreference_honours_deadline():
    b = Budget(timeout=0.3)
    r = compile_posix("\\(a*\\)*\\(x\\)\\2\\1b", budget=b)
    with pytest.raises(LimitExceeded):
        for _ in range(100000):  # either the match is slow, or the loop meets the deadline
            r.search("a" * 30 + "xx" + "a" * 30)
            b.check()


def test_finditer_guarded_deadline():
    b = Budget(timeout=0.3)
    r = compile_posix("a.*b.*c.*d", budget=b, multiline=True)
    with pytest.raises(LimitExceeded):
        list(r.finditer(("abc" * 4000 + "\n") * 3))


def test_interrupt_lands_without_deadline(monkeypatch):
    monkeypatch.setattr(rx, "_SLICE", 0.05)
    b = Budget()  # no deadline: guarded calls run in slices and poll for an interrupt
    r = compile_posix("a.*b.*c.*d", budget=b)
    threading.Timer(0.2, b.interrupt).start()
    with pytest.raises(Interrupted):
        r.search("abc" * 20000)


def test_finditer_restarts_after_a_slice(monkeypatch):
    monkeypatch.setattr(rx, "_SLICE", 1e-6)  # every slice times out at first
    b = Budget(timeout=30)
    r = compile_posix("a*", budget=b)
    r._limit = 0  # force the guarded path
    got = [(m.start(), m.end()) for m in r.finditer("baab")]
    assert got == [(0, 0), (1, 3), (3, 3), (4, 4)]
