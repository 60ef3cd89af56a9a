"""Options: SHELLOPTS/BASHOPTS exported to child shells, interactive defaults, shopt names."""

from tests.interp.cases import case

CASES = [
    case("defaults", r"""echo "$SHELLOPTS"; echo "$BASHOPTS"; echo "$-"; env | grep -c -E '^(SHELLOPTS|BASHOPTS)='"""),
    case("not-inherited-unexported", r"""set -x; bash -c 'echo child; echo "$-"'; set +x; set -e; bash -c 'echo "$-"; false; echo survived'"""),
    case("exported-shellopts-xtrace", r"""export SHELLOPTS; set -x; bash -c 'echo child'; set +x; env | grep '^SHELLOPTS='"""),
    case("exported-shellopts-errexit", r"""set -o errexit -o nounset; export SHELLOPTS; bash -c 'echo "$-"; set -o | grep -E "errexit|nounset"'; bash -c 'echo $nosuch; echo not-reached'; echo "st=$?" """),
    case("exported-bashopts", r"""shopt -s extglob nullglob; export BASHOPTS; bash -c 'shopt extglob nullglob dotglob'; bash -c 'echo none*'"""),
    case("export-before-set", r"""export SHELLOPTS; set -o pipefail; bash -c 'false | true; echo "st=$?"'; set +o pipefail; bash -c 'false | true; echo "st=$?"' """),
    case("readonly-option-vars", r"""SHELLOPTS=x; echo unreached"""),
    case("readonly-option-vars-2", r"""echo before; BASHOPTS=y
echo "st=$?"; declare -p SHELLOPTS BASHOPTS | cut -c1-40; unset SHELLOPTS; echo "st=$?" """),
    case("shopt-invalid-names", r"""shopt -s compat_array; echo "st=$?"; shopt compat31; shopt -s nosuch; echo "st=$?"; shopt -u nosuch extglob; echo "st=$?"; shopt -q nosuch; echo "st=$?" """),
    case("shopt-o", r"""shopt -o errexit; shopt -po nounset; shopt -so nounset; echo "$-"; shopt -o nosuch; echo "st=$?"; shopt -qo xtrace; echo "st=$?" """),
    case("set-o-listing", r"""set -o | head -5; set +o | head -3; set -o | wc -l"""),
    case("set-invalid", r"""set -o nosuch; echo "st=$?"; set -Z; echo "st=$?"; set +o nosuch; echo "st=$?" """),
    case("interactive-defaults", r"""bash -ic 'echo "$SHELLOPTS"; set -o | grep -E "emacs|histexpand|history"; shopt expand_aliases' 2>/dev/null"""),
    case("interactive-dollar-dash", r"""bash -ic 'echo "$-"' 2>/dev/null; bash -c 'echo "$-"'; bash -ec 'echo "$-"'; bash -xc 'echo "$-"' 2>/dev/null; bash -o pipefail -c 'echo "$SHELLOPTS"'"""),
    case("dollar-dash-after-set", r"""echo "$-"; set -u -f -C; echo "$-"; set +u; set -o noglob; echo "$-"; set -h; set +h; echo "$-"; set -B; set +B; echo "$-" """),
    case("shellopts-tracks-set", r"""set -o allexport; echo "$SHELLOPTS"; set +a; set -o vi; echo "$SHELLOPTS"; set -o emacs; echo "$SHELLOPTS"; set +o emacs; echo "$SHELLOPTS" """),
    case("bashopts-tracks-shopt", r"""shopt -s dotglob failglob; echo "$BASHOPTS"; shopt -u globasciiranges; echo "$BASHOPTS" | tr ':' '\n' | grep -c glob"""),
    case("posix-mode", r"""set -o posix; echo "$SHELLOPTS"; shopt -p | grep -E 'posix|inherit' ; set +o posix; echo "$POSIXLY_CORRECT" """),
    case("options-in-subshell-and-function", r"""f() { set -u; }; f; echo "$-"; (set +u; echo "in $-"); echo "out $-"; g() { local -; set -x; :; }; g; echo "after $-" """, ignore_stderr=True),
    case("bash-O-and-o", r"""bash -O extglob -c 'shopt extglob'; bash +O extglob -c 'shopt extglob'; bash -O nosuch -c 'echo x' 2>/dev/null; echo "st=$?"; bash -o nosuch -c 'echo y' 2>/dev/null; echo "st=$?" """),
    case("bash-dash-options-combined", r"""bash -eu -c 'echo "$-"'; bash -euo pipefail -c 'echo "$SHELLOPTS"'; bash -c -e 'echo "$-"' 2>&1"""),
    case("env-i-child", r"""export SHELLOPTS; set -x; env -i bash -c 'echo "[$SHELLOPTS]"'; set +x"""),
    case("shopt-p-format", r"""shopt -p extglob nullglob; shopt -s extglob; shopt -p extglob; shopt -p | wc -l; shopt | head -3"""),
    case("set-dash-dash", r"""set -- -x -e; echo "$# $1 $-"; set - ; echo "$# $-"; set -x -- a; echo "$1" 2>&1; set +x"""),
    case("errexit-inherited-comsub", r"""set -e; shopt -s inherit_errexit; x=$(false; echo no); echo "[$x]"; shopt -u inherit_errexit; y=$(false; echo yes); echo "[$y]" """),
]
CASES += [
    case("c-mode-expansion-error-status", r"""bash -uc 'echo $nosuch; echo no' 2>/dev/null; echo "st=$?"; bash -euc 'echo $nosuch' 2>/dev/null; echo "st=$?"; bash -c 'set -e; echo ${x?m}' 2>/dev/null; echo "st=$?" """),
    case("local-dash", r"""f() { local -; set -u; shopt -s extglob; echo "in $-"; }; f; echo "out $-"; shopt extglob; g() { local - x=1; set -o pipefail; }; g; echo "$SHELLOPTS" """),
]
