"""export/readonly refuse an array element as a name (`export a[1]=x`: not a valid
identifier, status 1, the other names still done); wait's operands and options."""

from tests.interp.cases import case

CASES = [
    case("export-readonly-element", r"""readonly a[7]=8; echo "st=$? ${a[*]-none}"
export b[1]; echo "st=$? ${b[*]-none}"
c=(1 2); export c[1]=z; echo "st=$? ${c[*]}"
readonly c[0]; echo "st=$?"; c[0]=q; echo "st=$? ${c[*]}"
export d[1]=x e=2; echo "st=$? ${d[*]-none} $e"; printenv e
readonly 'f[2]=y' g=1; echo "st=$? ${f[*]-none} $g"
"""),
    case("export-readonly-element-in-func", r"""f() { export i[1]=s; echo "st=$?"; local j=1; readonly j[0]; echo "st=$? $j"; }
f; echo "[${i[*]-none}]"
declare -x k[2]=y; echo "st=$? ${k[*]}"; declare -p k
"""),
    case("wait-operands", r"""wait -- zzz; echo $?
wait 1x; echo $?
wait %x; echo $?
wait ""; echo $?
wait -5; echo $?
sleep 0 & p=$!; wait "$p" bogus; echo $?
"""),
    case("wait-p-and-n", r"""sleep 0 & p=$!; wait -p v "$p"; echo "$? $((v == p))"
(exit 3) & p=$!; sleep 0.1; wait -n -p w; echo "$? $((w == p))"
wait -n; echo "none $?"
"""),
]
