"""return, break and exit where a subshell runs them ((...), $(...), a pipeline's elements,
lastpipe's last one in the shell itself); set -u on arrays' lengths; [[ ]] terms."""

from tests.interp.cases import case

CASES = [
    case("return-in-subshells", r"""g() { (return 4); echo "sub $?"; }; g; echo after; f() { x=$(echo a; return 5; echo b); echo "$? $x"; }; f
h() { return 3 | cat; echo "p $?"; }; h; k() { { return 2; } | cat; echo "after $?"; }; k; m() { echo x | return 7; echo "last $?"; }; m"""),
    case("lastpipe-control", r"""shopt -s lastpipe; for i in 1 2; do echo x | break; echo no; done; echo end; for i in 1 2; do echo x | continue; echo no; done
f() { echo x | return 7; echo "last $?"; }; f; echo "f=$?"; echo x | exit 3; echo no"""),
    case("nounset-array-length", "set -u\na=(); echo ${#a[0]} ${#a[@]}; b=(1); echo ${#b[5]}\ndeclare -A m=([a]=1); echo ${#m[@]} ${#m[a]} ${#m[zz]}\n"
         "echo ${#u[@]}; echo same\necho next $?\ndeclare -a d; echo ${#d[0]}; echo same\necho next $?\n"
         "s=str; echo ${#s[@]}; echo same\necho next $?\nf() { local -a l; echo ${#l[@]}; }; f; echo same\necho next $?\n"
         "declare -a e; echo \"${e[@]}\" ${e[@]:-d} ${e[@]-d} ok\necho ${#v}\necho never\n"),
    case("break-continue-args", r"""for i in 1 2 3; do for j in a b; do [ $j = b ] && continue 2; [ $i = 3 ] && break 2; echo $i$j; done; done; echo end
break; echo st=$?; continue 5; echo st=$?; for i in 1; do break 0; echo st=$?; done; for i in 1; do break -1; echo st=$?; done; echo end"""),
]

CASES += [
    case("set-n-stops-at-once", "echo a; set -n; echo b\necho c\nset +n\necho d\n"),
    case("set-n-in-function", "f() { set -n; echo in; }; f; echo out\necho later\n"),
]
