"""test / [ / [[: file tests -k -u -g -O -G -N -ef -nt -ot -r -w -x, and their edges."""

from tests.interp.cases import case

F = {"plain": "x\n", "exe": {"content": "#!/bin/sh\n", "mode": 0o755},
     "sticky/": None, "suid": {"content": "", "mode": 0o4755}, "sgid": {"content": "", "mode": 0o2755},
     "old": {"content": "o", "mtime": 1000000000}, "new": {"content": "n", "mtime": 1700000000},
     "empty": ""}

CASES = [
    case("mode-bits", r"""chmod +t sticky; for f in plain exe sticky suid sgid; do printf '%s:' $f; [ -k $f ] && printf k; [ -u $f ] && printf u; [ -g $f ] && printf g; [ -x $f ] && printf x; echo; done""", files=F),
    case("mode-bits-dbracket", r"""chmod 1777 sticky; [[ -k sticky && -u suid && -g sgid && ! -u plain && ! -k plain ]] && echo all; [[ -g suid ]] || echo not-g""", files=F),
    case("owner-group", r"""[ -O plain ] && echo O; [ -G plain ] && echo G; [ -O nosuch ] || echo no-O; [[ -G nosuch ]] || echo no-G; [ -O . ] && echo dir-O""", files=F),
    case("newer-older", r"""[ new -nt old ] && echo nt; [ old -ot new ] && echo ot; [ old -nt new ] || echo not-nt; [ new -nt nosuch ] && echo nt-missing; [ nosuch -ot new ] && echo ot-missing; [ nosuch -nt nosuch2 ] || echo both-missing""", files=F),
    case("newer-equal-mtime", r"""touch -d @1500000000 a b; [ a -nt b ] || echo not-nt; [ a -ot b ] || echo not-ot; [[ a -nt b || b -nt a ]] || echo equal""", files=F),
    case("same-file", r"""ln plain hard; ln -s plain soft; [ plain -ef hard ] && echo hard; [ plain -ef soft ] && echo soft; [ plain -ef exe ] || echo diff; [ plain -ef nosuch ] || echo missing; [[ . -ef ./ ]] && echo dot""", files=F),
    case("modified-since-read", r"""[ -N plain ] || echo not-N; echo more >> plain; [ -N plain ] && echo N-after-write; [ -N nosuch ] || echo missing""", files=F),
    case("access-bits", r"""[ -r plain ] && echo r; [ -w plain ] && echo w; [ -x plain ] || echo not-x; [ -x exe ] && echo x; [ -x . ] && echo dir-x; [ -r nosuch ] || echo no-r""", files=F),
    case("size-and-types", r"""[ -s plain ] && echo s; [ -s empty ] || echo not-s; [ -f sticky ] || echo not-f; [ -d sticky ] && echo d; [ -e empty ] && echo e; [ -a empty ] && echo a; ln -s nosuch dangling; [ -e dangling ] || echo dangle-e; [ -L dangling ] && echo L; [ -h dangling ] && echo h""", files=F),
    case("special-types", r"""[ -p plain ] || echo not-p; [ -S plain ] || echo not-S; [ -b plain ] || echo not-b; [ -c /dev/null ] && echo c-null; [ -t 0 ] || echo not-tty; [ -t ] && echo t-alone""", files=F),
    case("string-tests", r"""[ -z "" ] && echo z; [ -n "" ] || echo not-n; [ "" ] || echo empty-false; [ x ] && echo one-arg; [ -n ] && echo dash-n-alone; [ = ] && echo eq-alone; [ ! ] && echo bang-alone"""),
    case("string-compare", r"""[ abc = abc ] && echo eq; [ abc == abc ] && echo eqeq; [ a != b ] && echo ne; [ a \< b ] && echo lt; [ b \> a ] && echo gt; [[ a < b ]] && echo dlt; [ "" = "" ] && echo empties"""),
    case("int-compare-errors", r"""[ 1 -eq 01 ] && echo eq; [ -1 -lt 0 ] && echo lt; [ a -eq 1 ]; echo "st=$?"; [ 1 -eq ]; echo "st=$?"; [ 1.5 -gt 1 ]; echo "st=$?"; [ ' 3 ' -eq 3 ] && echo spaces; [ 99999999999999999999 -gt 1 ]; echo "st=$?" """),
    case("logic-and-parens", r"""[ -f plain -a -d sticky ] && echo and; [ -f nosuch -o -d sticky ] && echo or; [ ! -f nosuch ] && echo not; [ \( -f plain \) ] && echo paren; [ \( -f plain -o -f x \) -a -d sticky ] && echo nested""", files=F),
    case("arg-count-edges", r"""[ ] || echo zero; [ -f ] && echo f-alone; [ ! -f nosuch ] && echo three; [ a = b -o c = c ] && echo four; [ ! a = b ] && echo neg-three; [ a b c ]; echo "st=$?" """),
    case("errors-and-status", r"""[ 1 -eq 1; echo "st=$?"; [ a -zz b ]; echo "st=$?"; test -q x; echo "st=$?"; [ \( a ]; echo "st=$?"; test a = b = c; echo "st=$?" """),
    case("dbracket-file-tests", r"""[[ -e plain && -f plain && -r plain && -s plain ]] && echo yes; f=nosuch; [[ -a $f ]] || echo no; [[ -d sticky/ ]] && echo slash; [[ -e "" ]] || echo empty-no""", files=F),
    case("dbracket-nt-ef", r"""[[ new -nt old ]] && echo nt; [[ old -ot new ]] && echo ot; ln plain hl; [[ plain -ef hl ]] && echo ef; [[ plain -ef plain ]] && echo self""", files=F),
    case("test-v-and-R", r"""x=1; [ -v x ] && echo v; [ -v nosuch ] || echo not-v; a=(1); [ -v 'a[0]' ] && echo elem; [ -v 'a[3]' ] || echo no-elem; declare -n r=x; [ -R r ] && echo R; [ -R x ] || echo not-R; [[ -v a ]] && echo arr"""),
    case("test-o-options", r"""set -u; [ -o nounset ] && echo on; [ -o errexit ] || echo off; [ -o nosuchopt ]; echo "st=$?"; [[ -o pipefail ]] || echo pf-off; set -o pipefail; [[ -o pipefail ]] && echo pf-on"""),
    case("paths-through-dirs", r"""mkdir -p p/q; touch p/q/r; [ -f p/q/r ] && echo deep; [ -d p//q/ ] && echo slashes; [ -e p/q/../q/r ] && echo dotdot; d=$PWD; cd p; [ -f q/r ] && echo rel; [ -f "$d/p/q/r" ] && echo abs"""),
    case("dev-files", r"""[ -e /dev/null ] && echo null-e; [ -f /dev/null ] || echo null-not-f; [ -w /dev/null ] && echo null-w; [ -r /dev/stdin ] && echo stdin-r; [ -d /dev ] && echo dev-d; [ -e /dev/fd/0 ] && echo fd0"""),
    case("test-with-set-u-and-empty", r"""set -u; e=; [ -z "$e" ] && echo z; [ -n "${u:-}" ] || echo unset-ok; ( [ -n $nosuch ] ) 2>&1 | sed 's/^.*: //'; test "$e" || echo empty"""),
    case("numeric-file-modes-after-chmod", r"""chmod 640 plain; [ -x plain ] || echo no-x; chmod u+x plain; [ -x plain ] && echo x; chmod u-s suid; [ -u suid ] || echo no-u; chmod g-s sgid; [ -g sgid ] || echo no-g; chmod -t sticky; [ -k sticky ] || echo no-k""", files=F),
    case("builtin-vs-external-test", r"""/usr/bin/test -f plain && echo ext-f; /usr/bin/[ -d sticky ] && echo ext-d; command test 1 -lt 2 && echo cmd; builtin [ a = a ] && echo blt""", files=F),
]
CASES += [
    case("programs-by-path", r"""/usr/bin/bash -c 'echo "$0 hi"'; /bin/sh -c 'echo "$0"'; env bash -c 'echo "$0"'; /usr/bin/[ 1 = 1 ] && echo ok; env test -n x && echo ok2; type -a test | head -2"""),
]
