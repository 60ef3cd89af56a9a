"""Builtins' edges: printf overflow, printf -v, getopts, command -v, eval, shift, history, help."""

from tests.interp.cases import case

CASES = [
    case("printf-int-overflow", r"""printf '%d\n' 99999999999999999999; echo "st=$?"; printf '%d\n' -99999999999999999999; printf '%i|%o\n' 9223372036854775808 99999999999999999999999; echo "st=$?" """),
    case("printf-unsigned-wrap", r"""printf '%u %x %X %o\n' -1 -1 -255 -8; printf '%x\n' 18446744073709551616; echo "st=$?"; printf '%u\n' 18446744073709551615"""),
    case("printf-bad-numbers", r"""printf '%d\n' abc; echo "st=$?"; printf '%d\n' 12abc; echo "st=$?"; printf '%d %d\n' "'A" '"b'; printf '%d\n' 0x1F 010 ' 42'; printf '%.2f\n' 1,5; echo "st=$?" """),
    case("printf-v-names", r"""printf -v 'bad name' x; echo "st=$?"; printf -v 1x y; echo "st=$?"; printf -v 'a[1]' z; echo "st=$? ${a[1]}"; printf -v; echo "st=$?"; printf -v v; echo "st=$?" """),
    case("printf-v-special", r"""printf -v REPLY '%s-%s' a b; echo "$REPLY"; readonly ro=1; printf -v ro x; echo "st=$?"; declare -A m; printf -v 'm[k]' '%03d' 7; echo "${m[k]}"; printf -v n '%s' a b c; echo "$n" """),
    case("getopts-unknown-glued", r"""set -- -c; getopts ab opt; echo "$? $opt [${OPTARG-unset}]"; OPTIND=1; set -- -bfoo; getopts a: opt; echo "$? $opt [${OPTARG-unset}]"; OPTIND=1; set -- -xyz; getopts :ab opt; echo "$? $opt [$OPTARG] $OPTIND" """),
    case("getopts-clusters", r"""set -- -abc -d arg -efoo rest; while getopts abcd:e: o; do echo "$o ${OPTARG-} $OPTIND"; done; echo "end $OPTIND"; shift $((OPTIND-1)); echo "$@" """),
    case("getopts-missing-arg", r"""set -- -a; getopts a: o; echo "$? $o [${OPTARG-unset}]"; OPTIND=1; getopts :a: o; echo "$? $o [$OPTARG]"; OPTIND=1; OPTERR=0; getopts a: o; echo "$? $o" """),
    case("getopts-args-and-dashdash", r"""getopts ab o -a -- -b; echo "$? $o $OPTIND"; getopts ab o -a -- -b; echo "$? $o $OPTIND"; OPTIND=1; getopts ab o x -a; echo "$? $o $OPTIND" """),
    case("getopts-bad-usage", r"""getopts; echo "st=$?"; getopts ab; echo "st=$?"; getopts ab 'bad name' -a; echo "st=$?" """),
    case("command-v-several", r"""f() { :; }; alias ll='ls -l'; command -v echo ls nosuch f cd if; echo "st=$?"; command -v nosuch1 nosuch2; echo "st=$?" """),
    case("command-V-several", r"""f() { :; }; command -V echo nosuch ls; echo "st=$?"; command -V if f 2>&1 | head -2; command -V nosuch; echo "st=$?" """),
    case("type-several", r"""type echo nosuch cd; echo "st=$?"; type -t echo ls if nosuch; echo "st=$?"; type -P ls nosuch; echo "st=$?"; type -a ls | head -3"""),
    case("eval-syntax-errors", r"""eval 'if'; echo "st=$?"; eval 'echo $((1+))'; echo "st=$?"; eval 'fi'; echo "st=$?"; eval '(' ; echo "st=$?"; eval 'echo ok'; echo "st=$?" """),
    case("eval-status-and-empty", r"""eval; echo "st=$?"; false; eval ''; echo "st=$?"; eval 'false'; echo "st=$?"; eval 'exit 3' ; echo unreachable"""),
    case("shift-counts", r"""set -- a b; shift 3; echo "st=$? $#"; shift -1; echo "st=$?"; shift x; echo "st=$?"; shift 2; echo "st=$? $#"; shift; echo "st=$?"; shift 0; echo "st=$?" """),
    case("shift-verbose-and-function", r"""shopt -s shift_verbose; set -- a; shift 2; echo "st=$?"; f() { shift 5; echo "f st=$? $#"; }; f x y; set -- p q r; shift 1 2; echo "st=$?" """),
    case("history-noninteractive", r"""history; echo "st=$?"; history -c; echo "st=$?"; history 5; echo "st=$?"; history -d 1; echo "st=$?"; history -x; echo "st=$?"; history a b; echo "st=$?" """),
    case("history-more", r"""history -s foo; echo "st=$?"; history | wc -l; history -p '!!' ; echo "st=$?"; history -d; echo "st=$?"; history -w /dev/null; echo "st=$?"; fc -l 2>&1 | head -1; echo "st=$?" """),
    case("help-builtin", r"""help -s echo; help -s cd pwd; help nosuch; echo "st=$?"; help -d true; help -s 'ec*'"""),
    case("help-long", r"""help true | head -2; echo "st=$?"; help : | head -2; help -m pwd | head -4"""),
    case("dashdash-help", r"""echo --help; cd --help 2>&1 | head -2; echo "st=${PIPESTATUS[0]}"; pwd --help | head -1; true --help; echo "st=$?" """),
    case("shell-help-and-version", r"""bash --help | head -3; bash --help >/dev/null; echo "st=$?"; bash --version | head -1; bash --nosuch 2>&1 | head -2; bash --nosuch 2>/dev/null; echo "st=$?" """),
    case("exit-and-return-edges", r"""f() { return 300; }; f; echo "st=$?"; g() { return -1; }; g; echo "st=$?"; (exit 256); echo "st=$?"; (exit abc); echo "st=$?"; return 2>&1; echo "st=$?" """),
    case("builtin-builtin-and-enable", r"""builtin echo hi; builtin nosuch; echo "st=$?"; enable -n echo; echo still; type -t echo; enable echo; type -t echo"""),
    case("read-only-builtins-misc", r"""declare -r x=1; x=2; echo "st=$?"; echo after; (x=3; echo sub) ; echo "st=$?" """),
    case("printf-format-edges", r"""printf '%s %s\n' a; printf '%q\n' 'a b' "it's" ''; printf '%5s|%-5s|\n' ab cd; printf '%b\n' 'x\ty' '\0101'; printf '%c%c\n' hello; printf 'no newline'; echo"""),
]
CASES += [
    case("history-list-and-expand", r"""history -s "echo one"; history -s two; history; fc -l; fc -l -n; fc -lr; history -p "!!" "!1" "!-2" "!ec" "x!!y"; history -p "!nosuch"; echo "st=$?"; history -d -1; history; history 1"""),
    case("history-files", r"""history -s "echo one"; history -w h.txt; cat h.txt; history -c; history; history -r h.txt; history; HISTTIMEFORMAT="%Y " history | head -1"""),
    case("enable-n", r"""enable -n echo test; enable -n; type -t echo; echo "via file"; enable echo; enable -n | wc -l; enable nosuch; echo "st=$?"; enable -a | grep -c 'enable -n'"""),
]
