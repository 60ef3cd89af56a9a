"""${!a[*]} / ${!a[@]} / ${!prefix*} under unusual IFS values, alone and joined."""

from tests.interp.cases import case

CASES = [
    case("empty-ifs-keys", r"""a=(x y z); declare -A m=([k]=1); IFS=''; printf '<%s>' ${!a[*]} "${!a[*]}" ${!a[@]} ${a[*]} ${!m[*]}; echo"""),
    case("dash-ifs-keys", r"""a=(x y z); IFS=-; printf '<%s>' ${!a[*]} "${!a[*]}" ${!a[@]} "${!a[@]}"; echo; x=${!a[*]}; y="${!a[@]}"; echo "$x|$y" """),
    case("empty-ifs-sparse-and-empty", r"""IFS=''; b=(1 '' 3); b[7]=7; printf '<%s>' ${b[*]} ${!b[*]} "${!b[@]}"; echo; e=(); printf '<%s>' x ${!e[*]} "${!e[*]}"; echo"""),
    case("prefix-names-ifs", r"""pre_1=1 pre_2=2; IFS=''; printf '<%s>' ${!pre_*} ${!pre_@} "${!pre_*}"; echo; IFS=:; printf '<%s>' ${!pre_*} "${!pre_*}"; echo"""),
    case("keys-in-assignment-and-loop", r"""a=(p q r); IFS=''; k=${!a[*]}; echo "[$k]"; for i in ${!a[*]}; do echo "i=$i"; done; unset IFS; for i in ${!a[*]}; do echo "j=$i"; done"""),
]
CASES += [
    case("assignment-join-matrix", r"""a=(x y z)
for ifs in unset - ''; do
  if [ "$ifs" = unset ]; then unset IFS; else IFS=$ifs; fi
  v1="${!a[@]}"; v2=${!a[@]}; v3="${!a[*]}"; v4=${!a[*]}; w1="${a[@]}"; w2=${a[@]}; w3="${a[*]}"; w4=${a[*]}
  echo "[$ifs] keys: $v1|$v2|$v3|$v4  vals: $w1|$w2|$w3|$w4"
done"""),
    case("keys-in-cond-and-herestring", r"""a=(x y z); IFS=-; [[ ${!a[@]} == '0 1 2' ]] && echo cond-space; [[ "${!a[*]}" == 0-1-2 ]] && echo cond-star; cat <<< ${!a[*]}; cat <<< "${!a[@]}" """),
]
