"""Variables bash sets (only interactively, or always), BASH_VERSION's format, $- flags."""

from tests.interp.cases import case

CASES = [
    case("interactive-only-unset", r"""echo "[${HISTFILE-unset}] [${HISTSIZE-unset}] [${HISTFILESIZE-unset}] [${PS1-unset}] [${PS2-unset}] [${PS3-unset}] [${MAILCHECK-unset}]" """),
    case("always-set", r"""echo "[$PS4] [$OPTIND] [$OPTERR] [$HISTCMD] [${BASH_ARGV0}]" | sed 's#/batch/[^]]*#SCRIPT#'; printf '%q\n' "$IFS"; echo "${#COMP_WORDBREAKS}" """),
    case("bash-version-format", r"""[[ $BASH_VERSION =~ ^5\.2\.[0-9]+\(1\)-release$ ]] && echo format-ok; echo "${BASH_VERSINFO[0]}.${BASH_VERSINFO[1]} ${BASH_VERSINFO[3]} ${BASH_VERSINFO[4]} ${#BASH_VERSINFO[@]}"; echo "$MACHTYPE $HOSTTYPE $OSTYPE" """),
    case("bash-versinfo-readonly", r"""BASH_VERSINFO[0]=6; echo "st=$?"; declare -p BASH_VERSINFO | cut -c1-16; BASH_VERSION=x; echo "$BASH_VERSION" | cut -c1-3"""),
    case("bash-path", r"""echo "$BASH"; [ -x "$BASH" ] && echo executable; echo "$SHELL" """),
    case("interactive-histfile", r"""bash -ic 'echo "[${HISTFILE#$HOME}]"; echo "[${HISTSIZE-u}] [$PS2] [${MAILCHECK-u}]"' 2>/dev/null"""),
    case("dollar-dash-modes", r"""echo "$-"; bash -c 'echo "$-"'; echo 'echo "$-"' | bash; bash -s <<< 'echo "$-"'; bash -ic 'echo "$-"' 2>/dev/null"""),
    case("dollar-dash-set-flags", r"""set -a; echo "$-"; set +a -b; echo "$-"; set -k -t 2>/dev/null; set +k; echo "$-"; set -P -T -E; echo "$-"; set +PTE +b"""),
    case("dollar-dash-in-subshells", r"""set -e; echo "$-"; (echo "sub $-"); echo "cmd $(echo "$-")"; f() { echo "fn $-"; }; f; set +e"""),
    case("histcmd-and-history-vars", r"""echo "[$HISTCMD]"; HISTSIZE=10; echo "$HISTSIZE"; unset HISTFILE; echo "[${HISTFILE-gone}]"; HISTFILE=/tmp/h; echo "$HISTFILE" """),
    case("shlvl-and-ppid", r"""echo "$SHLVL"; bash -c 'echo "$SHLVL"'; [[ $PPID =~ ^[0-9]+$ ]] && echo ppid-num; (( PPID > 0 )) && echo ppid-pos; PPID=1; echo "st=$?" """),
    case("uid-euid-groups", r"""[[ $UID =~ ^[0-9]+$ && $EUID =~ ^[0-9]+$ ]] && echo ids; UID=5; echo "st=$?"; [[ ${GROUPS[0]} =~ ^[0-9]+$ ]] && echo groups; declare -p UID | cut -c1-12"""),
    case("random-seconds-lineno", r"""RANDOM=42; a=$RANDOM; RANDOM=42; b=$RANDOM; [ "$a" = "$b" ] && echo seeded; echo "$LINENO"; SECONDS=5; (( SECONDS >= 5 )) && echo secs; echo $((LINENO+0))"""),
    case("bashpid-and-subshell", r"""[ "$BASHPID" = "$$" ] && echo same; (  [ "$BASHPID" != "$$" ] && echo differs ); echo "$BASH_SUBSHELL $(echo $BASH_SUBSHELL) $( (echo $BASH_SUBSHELL) )" """),
    case("epoch-vars", r"""[[ $EPOCHSECONDS =~ ^[0-9]+$ ]] && echo es; [[ $EPOCHREALTIME =~ ^[0-9]+\.[0-9]{6}$ ]] && echo ert; (( ${EPOCHREALTIME%.*} >= EPOCHSECONDS - 1 )) && echo close"""),
    case("funcname-source-lineno-arrays", r"""f() { echo "${FUNCNAME[*]} ${#BASH_SOURCE[@]} ${BASH_LINENO[0]}"; g; }; g() { echo "${FUNCNAME[@]}"; caller 0 | sed 's#/batch/##'; }; f"""),
    case("bash-argv-argc", r"""shopt -s extdebug; f() { echo "${BASH_ARGC[0]} ${BASH_ARGV[*]}"; }; f a b c; shopt -u extdebug"""),
    case("pipestatus-and-underscore-initial", r"""echo "${#PIPESTATUS[@]}"; echo "$_" """),
    case("options-vars-types", r"""declare -p SHELLOPTS BASHOPTS | sed 's/=.*//'; declare -p BASH_VERSINFO | cut -c1-15; declare -p PPID | cut -c1-12"""),
    case("hostname-and-term", r"""[ -n "$HOSTNAME" ] && echo host; echo "${TERM-unset}"; declare -p TERM 2>&1 | cut -c1-14"""),
    case("ifs-default-and-unset", r"""printf '%q\n' "$IFS"; unset IFS; x='a b'; set -- $x; echo "$#"; echo "[${IFS-unset}]" """),
    case("dirstack-and-oldpwd", r"""echo "[${OLDPWD-unset}]"; d=$PWD; cd /tmp; [ "$OLDPWD" = "$d" ] && echo oldpwd-set; echo "${#DIRSTACK[@]}"; pushd / >/dev/null; echo "${DIRSTACK[0]} ${#DIRSTACK[@]}" """),
    case("bash-command", r"""trap 'echo "cmd: $BASH_COMMAND"' DEBUG; echo one >/dev/null; trap - DEBUG"""),
    case("comp-and-loadables", r"""echo "${COMP_WORDBREAKS}"; [ -n "${BASH_LOADABLES_PATH-}" ] && echo loadables; echo "[${BASH_COMPAT-unset}]" """),
    case("bash-execution-string", r"""echo "[${BASH_EXECUTION_STRING-unset}]"; bash -c 'echo "[$BASH_EXECUTION_STRING]"' """),
]
