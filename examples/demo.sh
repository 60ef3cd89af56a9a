#!/bin/bash
# pysh's main job on its embedded default: a throwaway workspace at /batch and a
# private /tmp, nothing else of the host. Run with: make demo (or pysh examples/demo.sh)

echo "== where am I"
echo "cwd=$PWD home=$HOME tmp=$TMPDIR user=$(whoami)@$(hostname)"
ls /

echo "== files in the workspace and in /tmp"
mkdir -p notes
for i in 1 2 3; do
  echo "note $i: $(( i * i )) squared" > "notes/n$i.txt"
done
cat notes/*.txt | tee /tmp/all.txt | wc -l
sort -r /tmp/all.txt | head -n 2

echo "== a pipeline that stops early"
yes 'streaming' | head -n 3 | nl

echo "== a function and a loop"
count_words() {
  local file=$1 n
  n=$(wc -w < "$file")
  printf '%-16s %3d words\n' "$file" "$n"
}
for f in notes/*.txt /tmp/all.txt; do count_words "$f"; done

echo "== text tools"
printf 'alpha 3\nbeta 1\ngamma 2\n' > /tmp/scores
awk '{ s += $2 } END { print "total", s }' /tmp/scores
grep -n 'a 3' /tmp/scores
sed -n '2,3p' /tmp/scores | cut -d' ' -f1

echo "== the host stays out of reach"
cat /etc/passwd || echo "(status $?: /etc/passwd does not exist in the sandbox)"
ln -s /etc escape
cat escape/passwd || echo "(status $?: the symlink out is refused)"
cd /tmp/.. && ls
