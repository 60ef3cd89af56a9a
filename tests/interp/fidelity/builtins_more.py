"""More builtins' edges: umask (symbolic modes, octal range, -S -p), kill (signal numbers and
names up to SIGRTMAX, -l, -s/-n, usage), fg/bg/suspend without job control, disown, alias
names and listings, printf %q's escapes, [[ -eq ]] on a bad number, a
readonly variable in ${x:=}."""

from tests.interp.cases import case

CASES = [
    case("umask-symbolic", r"""umask 022; umask u=rwx,g=rx,o=; umask; umask a=; umask; umask 022; umask u-w; umask; umask 022
umask g+w,o-r; umask -S; umask 022; umask ug=rw,o=u; echo st=$?; umask u=rwxX; echo st=$?; umask x=r; echo st=$?
umask u=rw=x; echo st=$?; umask =; umask; umask 022; umask +x; umask; umask u=r,; umask"""),
    case("umask-octal", r"""umask 8; echo st=$?; umask 0999; echo st=$?; umask 1234567; echo st=$?; umask 1234; umask; umask 07777; umask
umask 022; umask -p; umask -S -p; umask -S 027; umask; umask -x; echo st=$?; umask ''; echo st=$?; touch f; ls -l f | cut -c1-10"""),
    case("kill-signals", r"""kill -l 9 15 137 999; echo st=$?; kill -l SIGTERM hup 0 EXIT; echo st=$?; kill -l 32 33 34 50 64 RTMIN+3 rtmax-2; echo st=$?
kill -9999 $$; echo st=$?; kill -s 99 $$; echo st=$?; kill -n 65 $$; echo st=$?; kill -SIGFOO $$; echo st=$?; kill -l FOO; echo st=$?"""),
    case("kill-usage", r"""kill; echo st=$?; kill -0; echo st=$?; kill -s; echo st=$?; kill -sTERM; echo st=$?; kill -0 $$; echo st=$?; kill -s 0 $$; echo st=$?
kill -l | tail -3; trap -l | head -2; kill -l | wc -l"""),
    case("kill-rt-trap", r"""trap 'echo got' RTMIN; kill -RTMIN $$; trap -p RTMIN; trap 'echo two' 35; kill -s RTMIN+1 $$; trap -p 35"""),
    case("no-job-control", r"""fg; echo st=$?; bg; echo st=$?; fg %1; echo st=$?; suspend; echo st=$?; type fg bg suspend"""),
    case("disown", r"""disown; echo st=$?; disown %2; echo st=$?; disown -a; echo st=$?; disown -x; echo st=$?; disown 12345; echo st=$?
sleep 0.2 & disown; echo st=$?; jobs; wait; echo w=$?; sleep 0.1 & disown -h; jobs | wc -l; wait
sleep 0.3 & p=$!; disown; kill $p; echo st=$?; wait $p; echo st=$?"""),
    case("alias-names", r"""alias "a b=x"; echo st=$?; alias a/b=x; echo st=$?; alias -- -x=y; echo st=$?; alias; alias =x; echo st=$?
alias "a\$b=x"; echo st=$?; alias a=; alias a; alias -x; echo st=$?; alias "a=b=c"; alias a; alias "a-b=x" "a.b=y" "a%b=z" "a{b=w" é=1; alias"""),
    case("alias-listing", r"""alias -p x=1 y; echo st=$?; alias z=2; alias -p x=1 y; echo st=$?; set -o posix; alias q=1; alias; alias q; alias -p"""),
    case("printf-q-escapes", r"""printf '%q\n' '{a,b}' '=' 'a=' '=a' ',' 'a,b' '{' '}' '^' '%' '@' '+' ':' 'a:b' '&' ';' '(' ')' 'a:~' 'a=~' '~' 'x~' '#' 'a#' 'a b' '\' 'é' '!x' 'a-b' '.'"""),
    case("cond-arith-errors", r"""[[ 1x -eq 1 ]]; echo st=$?; [[ 1+ -eq 1 ]]; echo st=$?; [[ 08 -eq 8 ]]; echo st=$?; [[ 1/0 -eq 1 ]]; echo st=$?
x=1x; [[ $x -gt 0 ]]; echo st=$?; [[ 2#3 -eq 1 ]]; echo st=$?; [[ 1x -eq 1 || 1 -eq 1 ]]; echo st=$?; [[ ! 1x -eq 1 ]]; echo st=$?"""),
    case("readonly-in-default", "readonly r\necho ${r:=x}; echo same\necho next $?\nx=${r:=2} ; echo same\necho next $?\n"
         "for i in ${r:=2}; do echo in; done; echo same\necho next $?\n[[ -n ${r:=x} ]]; echo st=$?\necho next $?\n"),
]
