"""Glob details: bracket expressions, collation order per locale, GLOBIGNORE, nocaseglob,
dotglob, failglob, nullglob."""

from tests.interp.cases import case

F = {n: "" for n in ["a_b", "a-b", "a.b", "aB", "ab", "Ab", "A_b", "_x", ".hid", ".h2", "Z", "z",
                     "1", "10", "2", "a b", "é", "e", "f", "É", "~t", "#h", "a1", "a10", "a2",
                     "B", "b", "a]b", "a^b", "a!b", "-dash", "$d", "sub/"]}

CASES = [
    case("order-c", r"""LC_ALL=C; echo *""", files=F),
    case("order-c-utf8", r"""LC_ALL=C.UTF-8; echo *""", files=F),
    case("order-en-us", r"""LC_ALL=en_US.UTF-8; echo *""", files=F),
    case("order-lc-collate-only", r"""unset LC_ALL; LANG=C; LC_COLLATE=en_US.UTF-8; echo [a-b]*; LC_COLLATE=C; echo [a-b]*""", files=F),
    case("order-in-for-and-array", r"""LC_ALL=en_US.UTF-8; for f in a*; do printf '%s|' "$f"; done; echo; arr=(*b); echo "${arr[@]}"; LC_ALL=C; arr=(*b); echo "${arr[@]}" """, files=F),
    case("bracket-escapes", r"""echo a[\]]b; echo a[]]b; echo a[\-]b; echo a[-_]b; echo a[_-]b; echo a[\^]b; echo a[!-]b""", files=F),
    case("bracket-negation", r"""echo a[!_.-]b; echo a[^_.-]b; echo [!a-z]; echo [^0-9]*; echo a[!]]b""", files=F),
    case("bracket-classes", r"""echo [[:digit:]]*; echo [[:upper:]]; echo [[:punct:]]*; echo a[[:space:]]b; echo [[:alpha:]][[:digit:]]""", files=F),
    case("bracket-ranges-ascii", r"""LC_ALL=en_US.UTF-8; echo [a-c]; echo [A-C]; echo [0-9]; shopt -s nocaseglob; echo [a-b]""", files=F),
    case("bracket-literal-edge", r"""echo [; echo a[b; echo [ab; echo 'a['*; echo a[[]b 2>&1""", files=F),
    case("globignore-basic", r"""GLOBIGNORE='a*'; echo [ab]*; GLOBIGNORE='*.b:*_b'; echo a*; unset GLOBIGNORE; echo a*""", files=F),
    case("globignore-enables-dotglob", r"""GLOBIGNORE=x; echo .h*; echo .*; GLOBIGNORE=; echo .*""", files=F),
    case("globignore-paths", r"""GLOBIGNORE='sub/*'; touch sub/one sub/two; echo sub/*; echo s*/o*; GLOBIGNORE='*/one'; echo sub/*""", files=F),
    case("nocaseglob", r"""shopt -s nocaseglob; echo a?; echo A_*; echo [z]; echo É; shopt -u nocaseglob; echo A?""", files=F),
    case("dotglob", r"""shopt -s dotglob; echo .h*; echo *hid; echo [.]*; shopt -u dotglob; echo *hid; echo .[h]*""", files=F),
    case("failglob", r"""shopt -s failglob; echo none*; echo "st=$?"; echo a_*; x=(no*); echo "st=$?"; for f in zz*; do echo "$f"; done; echo "st=$?" """, files=F),
    case("failglob-in-other-places", r"""shopt -s failglob; cat < nomatch* ; echo "st=$?"; case x in no*) ;; esac; echo "st=$?"; [[ x == no* ]]; echo "st=$?" """, files=F),
    case("nullglob-and-quoting", r"""shopt -s nullglob; set -- none*; echo "$#"; echo "none*" 'no*' no\*; x=none*; echo "$x"; echo $x; echo "[$(echo none*)]" """, files=F),
    case("glob-in-var-and-ifs", r"""p='a*b'; echo $p; echo "$p"; IFS=_; p='a_*'; echo $p; unset IFS; q='[z]'; echo $q""", files=F),
    case("glob-escapes", r"""echo a\*; echo a\?; echo \[ab]; x='a\_b'; echo $x; echo a\_b""", files=F),
    case("glob-dirs-and-slashes", r"""mkdir -p d1/x d2/x; echo d*/; echo */x; echo d?/x/; echo ./a_*; echo d1/../a_*""", files=F),
    case("glob-dot-dotdot", r"""shopt -s dotglob; echo .*; shopt -u dotglob; echo .*; shopt -u globskipdots; echo .?""", files=F),
    case("extglob", r"""shopt -s extglob; echo @(a_b|ab); echo !(*[a-z]*); echo +([0-9]); echo a?([_-])b; echo *(é|e)""", files=F),
    case("globstar", r"""mkdir -p g/h/i; touch g/1 g/h/2 g/h/i/3; shopt -s globstar; echo g/**; echo g/**/; echo **/3""", files=F),
    case("sorted-numbers-and-case-c", r"""LC_ALL=C; printf '%s\n' [0-9]* ; printf '%s\n' [Aa]*""", files=F),
    case("collation-bracket-ranges-non-ascii", r"""LC_ALL=C.UTF-8; echo [e-f]; echo [é]; echo [[:alpha:]] """, files=F),
    case("noglob", r"""set -f; echo *; echo a?; set +f; echo z*""", files=F),
]
CASES += [
    case("failglob-redirect-builtin-vs-program", "shopt -s failglob\ncat < nomatch*; echo \"st=$?\"\necho y > nomatch*; echo \"not reached\"\necho next\n", files=F),
    case("extglob-needs-shopt-at-parse", "echo @(a_b) 2>&1\necho \"st=$?\"\nshopt -s extglob\necho @(a_b|ab)\n[[ ab == @(a|b)b ]] && echo cond-always\n", files=F),
    case("collation-in-dbracket", r"""LC_ALL=en_US.UTF-8; [[ a < B ]] && echo en-lt; [[ _x < a ]] || echo punct-ignored; LC_ALL=C; [[ a < B ]] || echo c-not-lt; [ a \< B ] || echo test-strcmp""", files=F),
]
