"""An interactive shell (bash -i, input not a terminal) keeps a history: each command as
read, before it runs (`history` lists itself), multi-line commands joined as cmdhist does,
none while `set +o history`; HISTCMD counts them; -c, -d, -s and offsets on that list."""

from tests.interp.cases import case

CASES = [
    case("records-commands", r"""HISTFILE=/dev/null bash --norc -i <<'EOF' 2>/dev/null
echo 'foo' > /dev/null
echo 'bar' > /dev/null
history
history -c
history | wc -l
for i in 1 2; do
  echo $i
done
history
echo $HISTCMD
set +o history
echo hidden
set -o history
history
EOF
echo "st=$?"
"""),
    case("multiline-joins", r"""HISTFILE=/dev/null bash --norc -i <<'EOF' 2>/dev/null
if true
then
  echo a
fi
f() {
  echo in-f
}
echo one |
  cat
while false; do :; done
history
EOF
"""),
    case("delete-and-offsets", r"""HISTFILE=/dev/null bash --norc -i <<'EOF' 2>/dev/null
echo 42
echo 43
echo 44
history -d 1; echo "st=$?"
history -d -1; echo "st=$?"
history -d 99; echo "st=$?"
history 3
history -s added by -s
history 2
EOF
"""),
    case("script-keeps-none", r"""echo one; history; echo "[$HISTCMD]"; set -o history; echo two; history | wc -l
bash -c 'history; echo "c st=$?"'
"""),
]
CASES += [
    case("fc-lists-around-itself", r"""printf 'echo %s\n' 1 2 3 > h.txt
HISTFILE=h.txt bash --norc -i <<'EOF' 2>/dev/null
history -c
history -r
fc -l
fc -ln -2
fc -lr
fc -l 2 3
fc -lr 3 2
fc -l -3 -2
EOF
"""),
    case("fc-script", r"""fc -l; echo "st=$?"
history -s a; history -s b; history -s c
fc -l 1 2; fc -lr 2 1; fc -lr 1 2; fc -l 5; echo "st=$?"; fc -l x; echo "st=$?"
"""),
    case("wait-n-ids", r"""echo x & wait -n $!; echo st=$?
wait -n $! bad 2>&1 | sed 's/[0-9][0-9]*: no such/N: no such/'; wait -n bad; echo st=$?
sleep 0.2 & wait -n bad $!; echo st=$?
(exit 4) & p=$!; sleep 1 & q=$!; wait -n $q $p; echo st=$?; kill $q
"""),
]
CASES += [
    case("fc-ranges", r"""history -s a; history -s b; history -s c
fc -l 2 9; fc -l 0; echo st=$?; fc -l -9; echo st=$?; fc -l b; fc -l a b; fc -l zz; echo "st=$?"
"""),
]
