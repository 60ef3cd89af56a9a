"""Assignment errors by mode: a readonly variable assigned alone gives up the line (POSIX
mode: exits), before a command (POSIX mode: the command does not run; before a special
builtin the shell exits), as a `for` variable; a script whose first line holds a NUL."""

from tests.interp.cases import case

CASES = [
    case("readonly-line-vs-posix", r"""bash -c 'readonly x=1; x=2; echo same; echo "st $?"'; echo "rc=$?"
bash -c 'readonly x=1
x=2
echo "next $?"'; echo "rc=$?"
bash -o posix -c 'readonly x=1
x=2
echo never'; echo "rc=$?"
"""),
    case("readonly-prefix-posix", r"""bash -c 'readonly x=1
x=2 echo hi; echo "st $?"
set -o posix
x=2 echo hi2; echo "st $?"
echo "after $?"
x=3 :; echo never'; echo "rc=$?"
"""),
    case("readonly-for-var", r"""bash -c 'readonly x=1
for x in 1; do echo in; done; echo "for $?"
echo next'; echo "rc=$?"
bash -o posix -c 'readonly x=1
for x in 1; do echo in; done; echo never'; echo "rc=$?"
"""),
    case("readonly-posix-subshell-script", r"""printf '%s\n' 'readonly x=1' '(x=2; echo sub-never); echo "sub $?"' 'x=3' 'echo never' > s.sh
bash -o posix s.sh; echo "rc=$?"; bash s.sh; echo "rc=$?"
"""),
    case("nul-in-script", r"""printf 'echo one \0 echo two\n' > n1.sh; printf 'echo a\necho b \0 c\n' > n2.sh
bash n1.sh; echo "rc=$?"; bash n2.sh; echo "rc=$?"; sh n1.sh; echo "rc=$?"
""", ignore_stderr=False),
]
