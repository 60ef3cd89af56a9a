"""Scripts that were "internal error" (a Python exception) in pysh, found by hand (issue 12)
or by the fuzzer (tests/fuzz): each must now do what bash 5.2 does."""

from tests.interp.cases import case

CASES = [
    # full paths to registered commands, the shells among them
    case("path-to-shell", r"""/bin/sh -c 'echo hi $0'; /usr/bin/bash -c 'echo $0 $1' a b
/usr/bin/env bash -c 'echo env $0'; /usr/bin/env /bin/sh -c 'echo x'; /bin/../bin/sh -c 'echo dots'
//bin/sh -c 'echo dbl'; (cd /bin && ./sh -c 'echo rel'); exec /bin/sh -c 'echo ex'"""),
    case("path-to-command", r"""/bin/ls -d /bin; /usr/bin/env /bin/echo hi; /bin/true; echo $?"""),
    case("path-to-test", r"""/bin/../bin/[ 1 = 1 ] && echo a; (cd /usr/bin && ./test -n x && echo b)
//usr/bin/test 2 -gt 1 && echo c; /usr/bin/env /usr/bin/[ x = y ]; echo $?"""),
    # nameref cycles: a warning, an empty value; an assignment gives up the line
    case("nameref-cycle-read", r"""declare -n a=b b=a; echo "[$a]"; echo st=$?
declare -n c=d d=e e=c; echo "[$c]"; declare -p a b"""),
    case("nameref-cycle-assign", r"""declare -n a=b b=a; read a <<< x; echo st=$?
printf -v a x; echo st=$?"""),
    case("nameref-cycle-assign-line", r"""declare -n a=b b=a; a=5; echo never"""),
    # arithmetic that does not parse where a number is wanted
    case("cond-arith-error", r"""[[ -i -eq . ]]; echo $?; [[ 1 -eq . ]]; echo $?; [[ a -eq 1+ ]]; echo $?
x=.; [[ $x -lt 2 ]]; echo $?; [[ 1 -eq 1/0 ]]; echo $?; [ 1 -eq . ]; echo $?"""),
    case("subscript-arith-error", r"""i=-t:; : "${x[i+1]:-w}"; echo st=$?
i=-t:; echo "${x[i+1]}"; echo st=$?"""),
    case("subscript-arith-error-2", r"""i="1+"; x[i]=3; echo st=$?"""),
    case("subscript-arith-error-3", r"""i=a.b; echo ${x[i]:-d}; echo after"""),
    # set with an empty first argument; return out of a pipeline or subshell in a function
    case("set-empty-arg", r"""set ""; echo $#; set "" a; echo $#; set "$(:)"; echo $# "[$1]" """),
    case("return-in-pipe", r""": | x=1 return; echo st=$?
f() { : | return 4; echo in $?; }; f; echo st=$?
g() { ( return 3 ); echo in $?; }; g; echo st=$?
h() { x=1 return 6; echo no; }; h; echo st=$?
k() { { return 2; } | cat; echo in $?; }; k
shopt -s lastpipe; m() { : | return 4; echo in $?; }; m; echo st=$?"""),
    case("lastpipe-exit", r"""shopt -s lastpipe; for i in 1 2; do : | break; echo no; done; echo st=$?
: | exit 3; echo no"""),
    # mapfile's numbers, [[ -nt ]] on a pipe, umask's symbolic modes
    case("mapfile-bad-numbers", r"""mapfile -n -a; echo st=$?; mapfile -n x a; echo st=$?
readarray -c z -C x a </dev/null; echo st=$?; mapfile -s -1 a </dev/null; echo st=$?
mapfile -O x a </dev/null; echo st=$?; mapfile -u x a </dev/null; echo st=$?
mapfile -c 0 a </dev/null; echo st=$?; printf 'a\nb\nc\n' | { mapfile -n ' 2' -s1 a; echo ${a[@]}; }"""),
    case("nt-on-a-pipe", r"""[[ <(echo a) -nt "" ]]; echo $?; [[ "" -ot <(echo a) ]]; echo $?
[[ <(echo a) -nt /nonexistent ]]; echo $?"""),
    case("umask-symbolic", r"""umask ""; echo st=$?; umask 8; echo st=$?; umask 1777; echo $?; umask
umask 022; umask u=rwx,g=x; umask; umask a+q; echo $?; umask g-w; umask; umask o=; umask -S
umask u+; umask; umask ,; umask; umask =rx; umask; umask a; echo $?"""),
    # name[...] in a command's place is one word through its brackets (the fuzzer's
    # if[[ #]]); as an argument it splits at the blank
    case("subscript-word", r"""if[[ #]]; echo x; a[1 + 2]x y; echo $?; a[1 #]]
x=1 b[1 (2)] z; a[1]=2 b[3 + 1]=4; declare -p a b; echo a[1 2]
declare c[1 + 1]=3; echo $?; declare d[1+1]=3; declare -p d; f() { x[1 2]; }; declare -f f
touch a1; a[1 2]; rm a1"""),
    # a write that fails (ENOSPC on /dev/full): the builtins' and the tools' own messages
    case("write-error-builtins", r"""echo x > /dev/full; echo $?; printf x > /dev/full; echo $?
pwd > /dev/full; echo $?; { echo a; echo b; } > /dev/full; echo $?; exec 3>/dev/full
f() { echo in; }; f >&3; echo $?; echo x 2>/dev/full >/dev/full; echo $?; declare -p PWD >&3"""),
    case("write-error-tools", r"""echo a > f; for c in "cat f" "seq 3" "ls f" "sort f" "sed p f" \
  "grep -c a f" "wc f" "md5sum f" "sha256sum f" "du f" "expr 1 + 1" "printenv HOME" \
  "diff f f -s" "find f" "head -c 5 /dev/zero" "tr a b <f" "cut -c1 f" "base64 f" "env" \
  "awk 1 f" "awk '{print > \"/dev/full\"}' f" "tee <f" "getopt a a" "jq -n 1"; do
  eval "$c" > /dev/full; echo "$c: $?"; done
echo x | tee f /dev/full; echo $?; cat f; dd if=f of=/dev/full status=noxfer; echo $?"""),
    # commands' arguments
    case("column-bad-limit", r"""column -l -a </dev/null; echo st=$?; column -l x </dev/null; echo st=$?"""),
    # (gawk quotes the character's first byte and exits 1 on this error; pysh's awk its own)
    case("awk-non-ascii-digit", r"""echo | awk '₀' 2>/dev/null || echo failed
awk 'BEGIN { print 1e3+.5, 12 }'"""),
]
