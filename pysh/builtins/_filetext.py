"""file(1)'s text rules for source files, modelled on file 5.44's magic (Magdir/python, c-lang,
javascript, make, diff, commands, is_csv.c).

``text_rule(text)`` returns (description, mime) for the first 8 KiB of a text file, or None.
A description ending in " text" or " text executable" takes the encoding in file's way:
"Python script text executable" + ASCII -> "Python script, ASCII text executable".
Rules are tried strongest first, as libmagic orders them by strength.
"""

from __future__ import annotations

import re

SCAN = 8192  # search/8192 and the regex scan window of libmagic

_M = re.M
PY = ("Python script text executable", "text/x-script.python")
JS = ("JavaScript source", "application/javascript")
C = ("C source text", "text/x-c")
CPP = ("C++ source text", "text/x-c++")
JAVA = ("Java source text", "text/x-java")

_PY_FROM = re.compile(r"^from[ \t]+([A-Za-z0-9_]|\.)+[ \t]+import.*$", _M)
_PY_IMPORT_AS = re.compile(r"^import [_A-Za-z]+ as [A-Za-z]\s*$", _M)
_PY_EXCEPT = re.compile(r"^\s*except.*:$", _M)
_PY_CLASS = re.compile(r"^class [_A-Za-z]+(\(.*\))?( )*:([ \t]+pass)?$", _M)
_PY_DEF = re.compile(r"^\s{0,50}def {1,50}[_a-zA-Z]{1,100}", _M)
_PY_DEF_ARGS = re.compile(r"\(([A-Za-z*_, ]){0,255}\):$", _M)

_JS = [re.compile(p, _M) for p in (
    r"\"use strict\"|'use strict'", r"^module\.exports", r"^(const|var|let).*=.*require\(",
    r"^export\s+\w", r"^import .* from ")]

_CPP = [re.compile(p, _M) for p in (
    r"^namespace\s+[_A-Za-z]{1,20}\s*\{", r"^using\s+(namespace )?std(::)?[A-Za-z]*\s*;",
    r"^\s*template\s*<.*>\s*$", r"^\s*virtual\s+.*[};]\s*$", r"^\s*(public|private|protected):")]
_CPP_CLASS = re.compile(r"^\s*class\s+[0-9A-Za-z:_]+\s*\{", _M)
_CPP_CLASS_END = re.compile(r"\}(;)?$", _M)
_OBJC = re.compile(r"^#import\s+[\"<]", _M)
_C = [re.compile(p, _M) for p in (
    r"^#include", r"^#\s*pragma", r"^\s*(char|double|float)( \*|\*)(.+)(=.*)?;\s*$",
    r"^\s*extern\s+", r"^struct\s+", r"^union\s+")]
_C_IFDEF = re.compile(r"^#\s*(if|ifn)def", _M)
_C_ENDIF = re.compile(r"^#\s*endif$", _M)
_C_MAIN_BODY = re.compile(r"\)\s*\{")
_JAVA_IMPORT = re.compile(r"^import [^\n]*;", _M)

_PERL_MODULE = re.compile(r"^package[ \t]+[0-9A-Za-z_:]+ *;", _M)
_MAKE = re.compile(r"^(CFLAGS|VPATH|LDFLAGS|all:|\.PRECIOUS)", _M)
_BSD_MAKE = re.compile(r"^\.(BEGIN|include)", _M)


def _python(t: str) -> bool:
    if "import" in t and (_PY_FROM.search(t) or _PY_IMPORT_AS.search(t)):
        return True
    i = t.find("def __init__")
    if i >= 0 and "self" in t[i + 12:i + 12 + 64]:
        return True
    i = t.find("if __name__")
    if i >= 0 and ("'__main__'" in t[i + 11:i + 11 + 64] or '"__main__"' in t[i + 11:i + 75]):
        return True
    i = t.find("try:")
    if i >= 0 and (_PY_EXCEPT.search(t, i + 4) or "finally:" in t[i + 4:i + 4 + 4096]):
        return True
    if "class" in t and _PY_CLASS.search(t):
        return True
    if "def " in t:
        m = _PY_DEF.search(t)
        if m and _PY_DEF_ARGS.search(t, m.end()):
            return True
    return False


def _c(t: str) -> bool:
    if any(r.search(t) for r in _C):
        return True
    m = _C_IFDEF.search(t)
    if m and _C_ENDIF.search(t, m.end()):
        return True
    i = t.find("main(")
    return i >= 0 and _C_MAIN_BODY.search(t, i + 5) is not None


def _diff(t: str):
    if t.startswith(("diff ", "--- ")) and "\n+++ " in t[:1024] and "\n@@" in t:
        return "unified diff output text"
    if t.startswith(("diff ", "Only in ", "Common subdirectories: ")):
        return "diff output text"
    if t.startswith("*** "):
        return "context diff output text"
    if t.startswith("Index:"):
        return "RCS/CVS diff output text"
    return None


def text_rule(text: str):
    """(description, mime) of the first match among the source-file rules, or None."""
    t = text[:SCAN]
    if t.startswith("%!PS-Adobe-"):
        level = t[11:14] if t[11:14].replace(".", "").isdigit() else ""
        return (f"PostScript document text conforming DSC level {level}".rstrip(),
                "application/postscript")
    if t.startswith("-----BEGIN CERTIFICATE-----"):
        return "PEM certificate", "text/plain"
    if t.startswith('"""'):
        return "Python script text executable", "text/plain"
    if any(r.search(t) for r in _JS):
        return JS
    if "#import" in t and _OBJC.search(t):
        return "Objective-C source text", "text/x-objective-c"
    if _python(t):
        return PY
    if any(r.search(t) for r in _CPP):
        return CPP
    m = _CPP_CLASS.search(t) if "class" in t else None
    if m and _CPP_CLASS_END.search(t, m.end()):
        return CPP
    i = t.find("main(")
    if i >= 0 and "String" in t[i + 5:i + 5 + 64]:
        return JAVA
    if _c(t):
        return C
    if "import" in t and _JAVA_IMPORT.search(t):
        return JAVA
    if "package" in t[:1024] and _PERL_MODULE.search(t[:1024 + 64]):
        return "Perl5 module source text", "text/plain"
    if "<?php" in t:
        return "PHP script text", "text/x-php"
    d = _diff(t)
    if d is not None:
        return d, "text/x-diff"
    head = "\n".join(t.split("\n", 100)[:100])
    if _MAKE.search(head):
        return "makefile script text", "text/x-makefile"
    if _BSD_MAKE.search(head):
        return "BSD makefile script text", "text/x-makefile"
    return None


def with_encoding(desc: str, enc: str) -> str:
    """Put the encoding into a text rule's description, as file prints it."""
    if desc.startswith(("PostScript", "PEM")):
        return desc  # their magic names no encoding
    i = desc.find(" text")
    if i < 0:
        return f"{desc}, {enc} text"
    return f"{desc[:i]}, {enc}{desc[i:]}"


def is_csv(data: bytes) -> bool:
    """file 5.44's is_csv.c: lines (up to 10) with the same number (> 0) of commas."""
    nf = tf = nl = 0
    i, n = 0, len(data)
    while i < n:
        c = data[i]
        i += 1
        if c == 0x22:  # a quoted field: up to the closing quote ("" is a quote inside)
            while i < n:
                if data[i] == 0x22:
                    if i + 1 < n and data[i + 1] == 0x22:
                        i += 2
                        continue
                    i += 1
                    break
                i += 1
        elif c == 0x2C:
            nf += 1
        elif c == 0x0A:
            nl += 1
            if nl == 10:
                return tf != 0 and tf == nf
            if tf == 0:
                if nf == 0:
                    return False
                tf = nf
            elif tf != nf:
                return False
            nf = 0
    return tf != 0 and nl > 2
