"""What a new bash sets at startup: SHELL when the environment has none (not exported),
login_shell with -l / --login, and the like, seen from child shells."""

from tests.interp.cases import case

CASES = [
    case("shell-default-when-unset", r"""unset SHELL; bash -c 'declare -p SHELL'; env -u SHELL bash -c 'echo "[$SHELL]"; env | grep -c ^SHELL='"""),
    case("shell-unexported-vs-exported", r"""unset SHELL; SHELL=/custom; bash -c 'declare -p SHELL'; export SHELL=/exp; bash -c 'declare -p SHELL'; env -i bash -c 'declare -p SHELL'"""),
    case("shell-in-subshell-and-function", r"""unset SHELL; (bash -c 'echo "sub $SHELL"'); f() { local SHELL=/loc; bash -c 'echo "f $SHELL"'; }; f; echo "parent [${SHELL-unset}]" """),
    case("login-shell-flag", r"""bash -lc 'shopt login_shell'; bash --login -c 'shopt -p login_shell'; bash -c 'shopt -p login_shell'; bash -l -c 'shopt -q login_shell && echo yes'; shopt -p login_shell"""),
    case("login-shell-is-readonly-option", r"""bash -c 'shopt -s login_shell; echo "st=$?"; shopt -p login_shell'; bash -lc 'shopt -u login_shell; echo "st=$?"; shopt -p login_shell'"""),
    case("dash-flags-of-children", r"""bash -c 'echo "$-"'; bash -e -c 'echo "$-"'; bash -xc 'echo "$-"' 2>/dev/null; echo 'echo "$-"' | bash; bash -c 'set -u; echo "$-"'"""),
]
