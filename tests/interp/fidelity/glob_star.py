"""globstar (`**` alone in a path component recurses; elsewhere it is `*`), GLOBIGNORE with
bracket classes and `?`, failglob under set -e in commands and loops."""

from tests.interp.cases import case

TREE = {"a/x.md": "", "a/b/y.md": "", "a/b/c/z.md": "", "d/w.md": "", "top.md": "",
        ".h.md": "", "a/.hid.md": "", "a/b/c/e/.keep": ""}

CASES = [
    case("globstar-basic", r"""shopt -s globstar
echo **/*.md
echo **
echo a/**
echo a/**/
""", files=TREE),
    case("globstar-middle-and-repeat", r"""shopt -s globstar
echo **/b/**/*.md
echo a/**/c/**
echo **/**/z.md
echo */**/*.md
""", files=TREE),
    case("globstar-adjacent-is-star", r"""shopt -s globstar
echo x**.md; echo a**; echo **.md; echo a/**y.md; echo a/b**
""", files=TREE),
    case("globstar-dotglob-dirs", r"""shopt -s globstar
echo **/
shopt -s dotglob; echo **/*.md; echo a/**/; shopt -u dotglob
shopt -u globstar; echo **/*.md
""", files=TREE),
    case("globstar-in-array-for-case", r"""shopt -s globstar
arr=(**/*.md); echo "${#arr[@]} ${arr[-1]}"
for f in a/**/*.md; do printf '<%s>' "$f"; done; echo
n=0; for f in **; do [[ -d $f ]] && n=$((n+1)); done; echo "dirs=$n"
case a/b/y.md in **/y.md) echo match ;; esac
""", files=TREE),
    case("globignore-classes", r"""GLOBIGNORE='[[:alpha:]]*.md'; echo *
GLOBIGNORE='[!a]'; echo *
GLOBIGNORE='?'; echo * .*
GLOBIGNORE='*.md:[[:digit:]]*'; echo * .*
unset GLOBIGNORE; echo *
""", files={"top.md": "", "a/x": "", "d/y": "", "1x": "", ".h.md": "", "b c.txt": ""}),
    case("globignore-with-globstar", r"""shopt -s globstar
GLOBIGNORE='*/b*:top*'; echo **/*.md
GLOBIGNORE='**/c/*'; echo **/*.md
""", files=TREE),
    case("failglob-errexit", r"""shopt -s failglob
set -e
echo start
echo *.nomatch
echo "not reached"
""", files={"x.txt": ""}),
    case("failglob-loop-and-status", r"""shopt -s failglob
for f in *.nomatch; do echo "in $f"; done
echo "st=$?"
x=(*.none); echo "st=$? ${#x[@]}"
echo *.txt
set -e
for f in *.nomatch; do echo "in $f"; done
echo "not reached"
""", files={"x.txt": ""}),
    case("failglob-subshell-function", r"""shopt -s failglob
f() { echo *.none; echo "f after"; }
f; echo "st=$?"
(echo *.none; echo "sub after"); echo "st=$?"
echo "$(echo *.none; echo cs)"; echo "st=$?"
""", files={"x.txt": ""}),
]
CASES += [
    case("failglob-errexit-suppressed", r"""shopt -s failglob
echo *.zz; echo "same line $?"
echo "next $?"
set -e
f() { echo *.zz; echo in-f; }
f || echo handled
echo "not reached"
"""),
    case("failglob-errexit-subshell", r"""shopt -s failglob
set -e
(echo *.zz; echo in-sub) || echo "sub failed $?"
x=$(echo *.zz; echo in-cs) || echo "cs failed $?"
echo "[$x]"
echo *.zz
echo "not reached"
"""),
]
