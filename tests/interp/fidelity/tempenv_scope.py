"""Prefix bindings (`v=1 f`, `v=1 eval ...`) as a scope: `local` takes the innermost scope's
binding over (value and export kept), `unset` of it then leaves an unset local; `local -p`."""

from tests.interp.cases import case

CASES = [
    case("local-inherits-prefix", r"""v=global
f() { local v; echo "[${v-unset}]"; declare -p v; v=changed; }
v=temp f; echo "after [$v]"
g() { local w=own; declare -p w; sh -c 'echo "child w=$w"'; }
w=t g; echo "[${w-unset}]"
"""),
    case("unset-after-local", r"""v=global
f() { local v=loc; unset v; echo "f [${v-unset}]"; v=again; echo "f2 [$v]"; }
v=temp f; echo "g [$v]"
h() { unset v; echo "h [${v-unset}]"; unset v; echo "h2 [${v-unset}]"; }
v=temp h; echo "g2 [${v-unset}]"
"""),
    case("eval-prefix-local", r"""f() {
  local v=loc
  v=te eval 'echo "e1 $v"; local v=inner; echo "e2 $v"; declare -p v'
  echo "after [$v]"
  v=te2 eval 'local v; echo "e3 [$v]"; v=z; echo "e4 [$v]"'
  echo "after2 [$v]"
}
f
g() { v=x eval 'local v; v=y'; echo "g [${v-unset}]"; }
v=global; g
"""),
    case("nested-prefix-scopes", r"""show() { echo "$1 [${v-unset}]"; }
f() { show f1; local v=l1; show f2; v=t2 g; show f3; }
g() { show g1; local v=l2; show g2; unset v; show g3; }
v=global
v=t1 f
show top
"""),
    case("local-p-forms", r"""f() {
  local a=1 b; local -a arr=(x y); local -p; echo --
  local -p a arr; local -p nosuch; echo "st=$?"
  local -p v; echo "st=$?"
}
v=t f
typeset -p nosuch2; echo "st=$?"
declare -p nosuch3 2>&1 | sed 's/line [0-9]*/line N/'
"""),
    case("prefix-on-builtin-in-func-set-u", r"""set -u
f() {
  IFS=: read -r a b <<< 'p:q'
  echo "[$a][$b][${IFS@Q}]"
  x=1 eval 'local y=$x; echo "y=$y"'
  echo "[${y-unset}]"
}
f
"""),
    case("prefix-export-propagate", r"""f() { export v; v=inner; }
v=temp f; echo "[${v-unset}]"; declare -p v
g() { local v; export v=x; }
v=t2 g; echo "[${v-unset}]"
"""),
]
CASES += [
    case("local-inherits-caller-prefix", r"""f1() { local v; declare -p v; echo "[${v-unset}]"; }
f2() { f1; }
v=t f2
f3() { v=t2 eval "f1"; }; f3
g() { local w; declare -p w; }; h() { local w=own; w=tw g; }; h
k() { local m; declare -p m; }; m=x k
v=global; (export v=xg; f2)
"""),
    case("unset-in-eval-scope", r"""unlocal() { unset -v "$1"; }
f() {
  local v=l1
  v=t2 eval '
    local v=l2
    (unset v; echo "unset [${v-unset}]")
    (unlocal v; echo "unlocal [${v-unset}]")
    unset v; echo "here [${v-unset}]"
  '
  echo "after [${v-unset}]"
}
v=global; v=t1 f
"""),
]
