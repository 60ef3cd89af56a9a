"""Brace expansion with variables (braces first), tilde in defaults, assignments and =~."""

from tests.interp.cases import case

CASES = [
    case("vars-in-braces", r"""a=A b=B; echo {$a,$b}_{c,d}; echo x{$a,y}z; echo {$a$b,q}; echo "{$a,$b}"; echo {"$a",'$b'}"""),
    case("var-holding-braces", r"""v='{1,2}'; echo $v; echo x$v; r='{1..3}'; echo $r; eval echo $r; c=,; echo {a${c}b}"""),
    case("range-with-vars-not", r"""n=3; echo {1..$n}; echo {$n..1}; s=2; echo {1..5..$s}; echo {a..c}{$n,x}"""),
    case("nested-and-empty", r"""echo {a,{b,c}d,}e; echo {,x}y; echo {a,}; echo a{,,}b; echo {a}; echo {}; echo x{}y; echo {,}"""),
    case("brace-with-param-ops", r"""x=file.txt; echo {${x%.txt},${x#file}}.bak; arr=(p q); echo {${arr[0]},${arr[1]}}; echo {"${arr[@]}",z}"""),
    case("brace-quoted-commas", r"""echo {a\,b,c}; echo {a',b',c}; echo {"a,b",c}; echo {a,b\}}; echo \{a,b}; echo {a,b"}"}"""),
    case("brace-and-globs", r"""echo {*.txt,none}; echo *.{txt,log}; echo {a,b}.txt""", files={"a.txt": "", "b.txt": "", "c.log": ""}),
    case("brace-sequences", r"""echo {1..10..3} {10..1..3} {-2..2} {a..e..2} {05..10} {z..w} {1..1} {x..x}; echo {1..3}{a..b}"""),
    case("brace-invalid-ranges", r"""echo {1..} {..3} {1..a} {a..1} {1.5..3} {a..zz} {1..3..0} {1...3}"""),
    case("brace-in-assignment", r"""x={a,b}; echo "$x"; arr=({a,b}c); echo "${arr[@]}"; declare y={1..3}; echo "$y"; export z={p,q}; echo "$z" """),
    case("brace-off", r"""set +B; echo {a,b} {1..3}; set -B; echo {a,b}; set +o braceexpand; echo x{y,z}"""),
    case("brace-in-for-and-case", r"""for i in {1..3}{a,b}; do printf '%s ' $i; done; echo; case ab in {a,b}b) echo brace-literal;; ab) echo plain;; esac"""),
    case("tilde-in-defaults", r"""HOME=/home/u; unset x; echo ${x-~}; echo ${x:-~/sub}; echo "${x-~}"; echo ${x-~:~}; echo ${x-a:~}; echo ${x=~/set}; echo "$x" """),
    case("tilde-in-assignments", r"""HOME=/home/u; a=~:~/b; echo "$a"; b=x:~; echo "$b"; c=~nosuchuser/x; echo "$c"; d="~"; echo "$d"; e=a~; echo "$e"; f=~/a:~/b:~; echo "$f" """),
    case("tilde-in-array-and-declare", r"""HOME=/home/u; arr=(~ ~/x a:~); echo "${arr[@]}"; declare p=~/d q=x:~; echo "$p $q"; export r=~; echo "$r"; local_t() { local t=~:~; echo "$t"; }; local_t"""),
    case("tilde-in-words", r"""HOME=/home/u; echo ~ ~/ ~x ~+ a~ x=~ --opt=~ a:~ "~"; echo ~/"q r"; echo \~; set -- ~; echo "$1" """),
    case("tilde-regex", r"""HOME=/home/u; [[ /home/u/x =~ ~/x ]] && echo re-tilde; [[ ~ =~ ^/home ]] && echo lhs; p=~; [[ $p == ~ ]] && echo eq; [[ "~" == ~ ]] || echo quoted-no"""),
    case("tilde-unset-home", r"""unset HOME; echo ~ | grep -c /; x=~; echo "${x:0:1}"; HOME=; echo "[~]" [~]"""),
    case("tilde-plus-minus", r"""cd /tmp; cd /; echo ~+ ~-; OLDPWD=/x; echo ~-/y; unset OLDPWD; echo ~-"""),
    case("tilde-in-here-and-redirect", r"""HOME=$PWD; echo hi > ~/out.txt; cat ~/out.txt; cat <<< ~; cat <<EOF
~ literal
EOF"""),
    case("brace-then-tilde", r"""HOME=/home/u; echo ~{a,b}; echo {~,~/x}; echo a{~,b}"""),
    case("brace-count-and-ifs", r"""IFS=,; x=a,b; echo {$x,c}; set -- {1..3}; echo $#; IFS=' '; y='p q'; for w in {$y,r}; do echo "<$w>"; done"""),
    case("brace-with-command-subst", r"""echo {$(echo a),b}; echo $(echo {x,y}); echo "$(echo {x,y})"; echo {`echo m`,n}"""),
    case("brace-in-param-word", r"""unset u; echo ${u:-{a,b}}; echo ${u:-x{a,b}y}; echo "${u:-{a,b}}"; v=1; echo ${v:+{p,q}}"""),
    case("brace-errors-and-limits", r"""echo {a,b,c}{1,2}{x,y} | wc -w; echo {1..20} | wc -w; echo {0001..3}; echo {-05..-03}"""),
    case("brace-char-ranges-special", r"""echo {Y..b}; echo {'a'..c}; echo {a..'c'}; echo {!..%}"""),
    case("arith-and-brace", r"""i=2; echo {1..3}$((i+1)); echo $((1+{2})) 2>&1 | head -1; echo {$((1+1)),3}"""),
]
CASES += [
    case("tilde-colon-words", r"""HOME=/h; echo ~:x ~/a:~ x=~:~ --o=~:~ ~nosuchuser:y; echo ${x-~/a:~}; a=(~:~); echo "${a[@]}" """),
    case("declare-brace-args", r"""declare -a d=({a,b}); echo "${d[@]}"; local_f() { local v={x,y}z; echo "$v"; }; local_f; readonly r={1,2}; echo "$r"; set +B; declare s={p,q}; echo "$s" """),
]
