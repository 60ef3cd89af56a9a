"""Programmable completion builtins outside a line editor: compgen (actions in bash's order,
-G -W -F -C, then -X -P -S; -W split at IFS outside quotes then expanded; -F sees COMP_*),
complete (stores and prints specs), compopt (fails outside a completion function)."""

from tests.interp.cases import case

CASES = [
    case("compgen-basics", r"""zz=1; aa=2; ab=3
f2() { :; }; f1() { :; }
alias zal=1 aal=2
echo "-- v a"; compgen -v a
echo "-- W"; compgen -W "zeta alpha apple" a; echo "st=$?"
echo "-- W none"; compgen -W "x y" q; echo "st=$?"
echo "-- A function"; compgen -A function
echo "-- mixed"; compgen -A function -a -W "f0 aa"
echo "-- X"; compgen -W "a.txt b.md c.txt" -X "*.txt"; compgen -W "a.txt b.md c.txt" -X "!*.txt"
echo "-- PS"; compgen -W "x y" -P "<" -S ">"
echo "-- k"; compgen -k | head -5; echo "-- b"; compgen -b | head -3; compgen -A shopt | head -3; compgen -A setopt | head -3
echo "-- e"; export EXP1=1; compgen -e EXP
echo "-- none"; compgen; echo "st=$?"
echo "-- bad"; compgen -Z; echo "st=$?"
"""),
    case("compgen-F-C", r"""g() { echo "args: $# [$1] [$2] [$3] cw=$COMP_CWORD line=[$COMP_LINE] pt=$COMP_POINT words=${#COMP_WORDS[@]}"; COMPREPLY=(r1 "r 2"); }; compgen -F g cur; echo "st=$?"
echo "-- C"; compgen -C "echo c1; echo c2" x; echo "st=$?"
f() { echo foo; echo bar; }; compgen -C f b; echo "st=$?"
h() { COMPREPLY=x; compopt -o nospace; echo "compopt $?"; }; compgen -F h w; echo "st=$?"
compopt -o nospace; echo "st=$?"
"""),
    case("complete-specs", r"""complete -F myf foo; complete -W "a b" -o nospace baz; complete -A function -X "_*" fn
complete -p foo; complete -p baz fn; complete -p nope; echo "st=$?"
complete -r foo; complete -p foo; echo "st=$?"
complete -F f; echo "st=$?"
complete qux; echo "st=$?"; complete -p qux
compopt -o bogus x; echo "st=$?"
complete -D -F dflt; complete -p -D
compopt -o filenames baz; complete -p baz
"""),
    case("compgen-W-expansion", r"""compgen -W "a b" -- -a; echo st=$?; compgen -W "-a -b" -- -a; compgen -W "\$(echo p q)" p; IFS=: compgen -W "x:y z" ; compgen -W "a\ b c" a
IFS=':%'; compgen -W '$(echo "spam:eggs%ham cheese")'; compgen -W 'spam:eggs%ham cheese\:colon'
IFS=$' \t\n'; compgen -W 'foo $(( 1 / 0 )) bar'; echo "st=$?"
compgen -W '' -- foo; echo "st=$?"
compgen -A builtin g; compgen -A helptopic rea
"""),
    case("compgen-files", r"""touch b.txt a.txt c.md .hid; mkdir dd
compgen -f | sort; echo --; compgen -d; compgen -G "*.txt"; compgen -f -X '*.txt' | sort; compgen -f . | sort; compgen -d -S / d
compgen -o plusdirs -W "x" ; compgen -o dirnames -W "x" q; compgen -o default -W "x" a | sort
"""),
]
CASES += [
    case("compgen-action-order", r"""touch xfile; mkdir xdir; xvar=1; xfn() { :; }; alias xal=1; export xexp=1; xarr=(1)
compgen -A directory -A variable -A function -A alias -A export -A arrayvar -A keyword -A setopt -A shopt -A helptopic -A builtin x
compgen -A signal SIGU; compgen -A function -A variable -A file PA; PA_FUNC() { :; }; touch PA_FILE; compgen -A function -A variable -A file PA
"""),
]
