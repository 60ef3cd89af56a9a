"""Prompt decoding (${x@P}, PS4): bash's escapes, then the expansions of a double-quoted
string, with what the escapes inserted (directory, date, $) protected from them."""

from tests.interp.cases import case

CASES = [
    case("octal-escapes", r"""for p in '\101' '\1004' '\555$' '\0455' '[\060]' '\7' '\08' '\303\251' '\12a' '\000x' '\777'; do printf '%s|' "${p@P}"; done | od -An -c"""),
    case("dollar-and-backslashes", r"""for p in '$' '\\$' '\\\\$' '\\\\\\' 'a\' '\\' '\q\x41\z' '\"' '\`'; do printf '<%s>' "${p@P}"; done; echo"""),
    case("expansions-after-decoding", r"""y=val; p='$y ${y^^} $(echo cs) `echo bt` $((6*7)) ${nope:-def} "dq" '\''sq'\'' \"x\"'; echo "${p@P}" """),
    case("directory-is-not-expanded", r"""mkdir -p 'd$y`echo no`"q\'; cd 'd$y`echo no`"q\'; y=X; p='\W|\w'; echo "${p@P}" | sed "s|$(dirname "$PWD")|P|" """),
    case("home-abbreviation", r"""HOME=$PWD; p='[\w][\W]'; echo "${p@P}"; mkdir -p sub/deep; cd sub/deep; echo "${p@P}"; cd /; echo "${p@P}"; HOME=/; echo "${p@P}" """),
    case("promptvars-off", r"""shopt -u promptvars; y=v; p='$y \\$ $(echo x) \\'; echo "${p@P}"; shopt -s promptvars; echo "${p@P}" """),
    case("shell-and-version", r"""p='\s \v \V \l'; echo "${p@P}"; [[ ${p@P} == bash\ ${BASH_VERSINFO[0]}.${BASH_VERSINFO[1]}\ * ]] && echo consistent"""),
    case("strftime-literal-formats", r"""p='[\D{abc}][\D{%%}][\D{x%%y}]'; echo "${p@P}"; p='\D{no-close'; echo "${p@P}"; p='\Dx'; echo "${p@P}" """),
    case("time-formats-shape", r"""for p in '\t' '\T' '\A' '\@' '\d' '\D{}' '\D{%H-%M}'; do v=${p@P}; echo "${v//[0-9]/9}" | sed 's/[A-Z][a-z][a-z]/Www/g'; done"""),
    case("command-number", "p='\\#'\necho \"${p@P}\"\necho \"${p@P}\"; echo \"${p@P}\"\nf() { echo \"f ${p@P}\"; }\nf\n(echo \"sub ${p@P}\")\nx=$(echo \"${p@P}\"); echo \"cs $x\"\neval 'echo \"ev ${p@P}\"'\n"),
    case("command-number-c", r"""bash -c 'p="\#"; echo "${p@P}"; echo "${p@P}"'"""),
    case("history-number", r"""p='\!'; echo "${p@P}"; history -s one; history -s two; echo "${p@P}" """),
    case("control-escapes", r"""p='\a\e\r\n|\[x\]|\]'; printf %s "${p@P}" | od -An -c"""),
    case("arrays-and-positionals", r"""a=('\\$' '\101' '$x'); x=1; printf '<%s>' "${a[@]@P}"; echo; set -- '\060' 'b\\'; printf '<%s>' "${@@P}" "${*@P}"; echo; declare -A m=([k]='\#x'); [[ ${m[k]@P} == [0-9]*x ]] && echo assoc"""),
    case("set-u-and-errors", r"""set -u; p='[$undefined_var]'; ( echo "${p@P}" ); echo "st=$?"; p='$((1/0))'; ( echo "${p@P}" ); echo "st=$?" """),
    case("ps4-escapes", r"""PS4='+[\#]\\$ '; set -x; : one; : "two words"; set +x; PS4='\101> '; set -x; : three; set +x""", ignore_stderr=False),
    case("ps4-expansions", r"""f() { set -x; : in-f; set +x; }; PS4='+${FUNCNAME[0]:-top}:$LINENO: '; f; set -x; : top; set +x""", ignore_stderr=False),
    case("nested-at-P", r"""x='\060'; y='${x@P}\061'; echo "${y@P}"; z='$y'; echo "${z@P}" """),
    case("transform-on-unset-and-empty", r"""unset u; echo "[${u@P}]"; e=; echo "[${e@P}]"; set -u; echo "[${e@P}]" """),
    case("in-local-and-subshell", r"""f() { local p='\\$-\101'; echo "${p@P}"; }; f; (p='\102'; echo "${p@P}"); p='\103' bash -c 'echo "${p@P}"' """),
    case("ifs-split-result", r"""p='a \101 b'; IFS=' '; set -- ${p@P}; echo $#; IFS=A; set -- ${p@P}; echo $# "$1|$2" """),
]
