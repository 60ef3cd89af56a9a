"""Case conversion ${x^^} ${x,,} ${x~} and declare -u/-l on special characters."""

from tests.interp.cases import case

CASES = [
    case("ascii-basics", r"""x='hello World 42_x'; echo "${x^}" "${x^^}" "${x,}" "${x,,}" "${x~}" "${x~~}" """),
    case("german-sharp-s", r"""x='straße ß'; echo "${x^^}" "${x^}"; y='STRASSE ẞ'; echo "${y,,}"; declare -u u='groß'; echo "$u"; declare -l l='GROẞ'; echo "$l" """),
    case("ligatures-and-titlecase", r"""x='ﬁne ǆ ǅ Ǆ'; echo "${x^^}"; echo "${x,,}"; echo "${x~~}"; y='ǳa'; echo "${y^}" """),
    case("turkish-dotted", r"""x='İstanbul ı i'; echo "${x,,}"; echo "${x^^}"; echo "${x~~}" """),
    case("greek", r"""x='ΣΊΣΥΦΟΣ σς ΐ'; echo "${x,,}"; echo "${x^^}"; y='όσος'; echo "${y^}" """),
    case("accents-and-length", r"""x='éàü ÉÀÜ ñ'; echo "${x^^}" "${x,,}" "${x~~}"; y=${x^^}; echo "${#x} ${#y}" """),
    case("patterns", r"""x='hello world'; echo "${x^^[lo]}" "${x^[h]}" "${x^[x]}" "${x,,[LO]}"; y='ÉCOLE école'; echo "${y,,[É]}" "${y^^[é]}" """),
    case("arrays", r"""a=(abc 'déf' ß); echo "${a[@]^}" "${a[@]^^}"; declare -A m=([k]=ÿes); echo "${m[@]^^}"; echo "${a[*]~}" """),
    case("positional", r"""set -- one ẞtwo three; echo "${@^}" "${*^^}"; echo "${1~~}" "${2,,}" """),
    case("declare-attrs", r"""declare -u U; U='mixed ß ǆ'; echo "$U"; declare -l L; L='MIXED ẞ İ'; echo "$L"; declare -c C 2>/dev/null; U+=' more'; echo "$U" """),
    case("declare-attrs-arrays", r"""declare -ua ua=(x 'yß'); echo "${ua[@]}"; ua+=(z); echo "${ua[@]}"; declare -lA la=([K]=VAL); echo "${la[K]}"; la[N]=ÉTÉ; echo "${la[N]}" """),
    case("attr-switch", r"""declare -u v=abc; echo "$v"; declare -l v; v=XYZ; echo "$v"; declare +l v; v=MiX; echo "$v"; declare -p v"""),
    case("non-utf8-bytes", r"""x=$'a\xffb\xe9c'; y=${x^^}; printf '%s' "$y" | od -An -tx1; z=${x,,}; printf '%s' "$z" | od -An -tx1"""),
    case("c-locale", r"""LC_ALL=C; x='éa'; echo "${x^^}"; LC_ALL=C.UTF-8; echo "${x^^}" """),
    case("empty-and-unset", r"""e=; echo "[${e^^}]" "[${u^}]"; set -u; echo "[${e,,}]"; (echo "${nope^^}"); echo "st=$?" """),
    case("special-chars-untouched", r"""x='a-b_c.d/e 1!@#$%^&*()'; echo "${x^^}"; echo "${x~~}" """),
    case("transform-ops", r"""x='mIx ß'; echo "${x@U}" "${x@L}" "${x@u}"; a=(ab cd); echo "${a[@]@u}" """),
    case("in-case-and-test", r"""x=ÉTÉ; case ${x,,} in été) echo lower-match;; esac; [[ ${x,,} == été ]] && echo cond; y=ﬀ; [[ ${y^^} == ﬀ ]] && echo lig-same"""),
    case("toggle-mixed", r"""x='aBc ÀéÎ'; echo "${x~}" "${x~~}"; y='ǅx'; echo "${y~}" "${y~~}" """),
    case("first-char-multibyte", r"""x='ébc'; echo "${x^}"; y='ßa'; echo "${y^}"; z='ǆa'; echo "${z^}"; w='ﬁx'; echo "${w^}" """),
    case("number-and-symbol-pattern", r"""x='a1b2'; echo "${x^^[0-9]}" "${x^^[a-z]}" "${x^^?}" "${x^^*}" """),
    case("sigma-final", r"""x='ΟΔΟΣ'; echo "${x,,}"; y='ΌΣΟΣ ΣΑ'; echo "${y,,}" """),
    case("cherokee-and-misc", r"""x='ꭰ Ꭰ ǰ ŉ'; echo "${x^^}"; echo "${x,,}" """),
    case("upper-attr-on-read", r"""declare -u r; read r <<< 'from ßtdin'; echo "$r"; declare -l s; s=$(echo ÀÉ); echo "$s" """),
    case("integer-and-case", r"""declare -iu n=10; echo "$n"; declare -u h=0x1f; echo "$h"; declare -l z=ABC; z+=DEF; echo "$z" """),
]
