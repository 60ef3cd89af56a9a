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

echo "== ports: jq, rg, sqlite3, git (in-process, confined like everything else)"
echo '{"tools":[{"name":"jq","stars":5},{"name":"rg","stars":4}]}' > /tmp/tools.json
jq -r '.tools[] | "\(.name): \(.stars)"' /tmp/tools.json
rg -n squared notes | sort
sqlite3 /tmp/t.db "create table t(x); insert into t values (1),(2),(3); select sum(x) from t;"
git init -q repo && cd repo
git config user.name demo && git config user.email demo@example.com
echo hello > README && git add README && git commit -qm "first commit"
echo world >> README && git diff --stat
git log --format='%an: %s'
cd ..

echo "== the host stays out of reach"
cat /etc/passwd || echo "(status $?: /etc/passwd does not exist in the sandbox)"
ln -s /etc escape || echo "(status $?: a symlink out of the sandbox is never made)"
cd /tmp/.. && ls
