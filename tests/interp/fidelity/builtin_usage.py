"""Builtins' argument edges: a PATH file that is not executable (type/command -v/hash find it,
running it says Permission denied, 126), unalias and trap usage errors and option forms."""

from tests.interp.cases import case

CASES = [
    case("path-nonexecutable", r"""mkdir b1 b2; : > b1/ne; printf '#!/bin/sh\necho ran ex\n' > b2/ne; chmod +x b2/ne; : > b1/only
PATH="$PWD/b1:$PWD/b2:$PATH"
ne; type -a ne | sed "s#$PWD#P#"
type -t only; echo "st=$?"; command -v only | sed "s#$PWD#P#"; type -P only | sed "s#$PWD#P#"
only; echo "st=$?"
hash | sed "s#$PWD#P#" | sort
type only | sed "s#$PWD#P#"
"""),
    case("path-nonexecutable-in-func-subshell", r"""mkdir b; : > b/tool; PATH="$PWD/b:$PATH"
f() { tool arg; echo "f st=$?"; }
f; (tool; echo "sub st=$?"); x=$(tool 2>&1); echo "[${x##*/}]"
chmod +x b/tool; hash -r; tool; echo "now st=$?"
"""),
    case("unalias-usage", r"""alias a=1 b=2; unalias -- a; echo $?; unalias -a b; echo $?; alias
alias x=1; unalias -ax; echo $?; alias
unalias -; echo $?; unalias --; echo $?; unalias; echo $?
"""),
    case("trap-options", r"""trap -lp | head -1; echo $?
trap 'echo x' INT; trap -pp INT; trap -x; echo $?
bash -c 'trap "echo trap-exit" EXIT; trap -1 EXIT; echo bad'; echo "st=$?"
bash -c 'trap "echo np" EXIT; trap 07 EXIT; trap -p EXIT; echo ok07'
trap -- 'echo y' USR1; trap -p USR1; trap - USR1; trap -p USR1; echo done
"""),
]
