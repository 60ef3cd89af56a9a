export GIT_AUTHOR_NAME='A U Thor' GIT_AUTHOR_EMAIL=author@example.com
export GIT_COMMITTER_NAME='C O Mitter' GIT_COMMITTER_EMAIL=committer@example.com
export GIT_CONFIG_NOSYSTEM=1
n=0
t() { n=$((n + 1)); export GIT_AUTHOR_DATE="@$((1700000000 + n * 60)) +0000" GIT_COMMITTER_DATE="@$((1700000000 + n * 60)) +0000"; }
step() { "$@" 2>/dev/null; echo "[$?] $*"; }
mkdir repo && cd repo
step git init -q -b main
printf 'line1\nline2\nline3\nline4\nline5\n' > app.txt
printf '# readme\n' > README.md
mkdir -p src
printf 'def f():\n    return 1\n' > src/mod.py
step git add .
t; step git commit -q -m 'initial commit'
step git branch feature
printf 'line1\nline2 main\nline3\nline4\nline5\n' > app.txt
t; step git commit -q -am 'main: edit line2'
step git checkout -q feature
printf 'def f():\n    return 2\n' > src/mod.py
t; step git commit -q -am 'feature: f returns 2'
echo 'more' >> README.md
t; step git commit -q -am 'feature: readme'
t; step git rebase -q main
step git checkout -q main
t; step git cherry-pick feature~1
t; step git revert --no-edit HEAD
echo wip >> app.txt
t; step git stash -q
step git checkout -q -b topic
printf 'line1\nline2 main\nline3 topic\nline4\nline5\n' > app.txt
t; step git commit -q -am 'topic: line3'
step git checkout -q main
t; step git stash pop -q
printf 'line1\nline2 main\nline3 main\nline4\nline5\nwip\n' > app.txt
t; step git commit -q -am 'main: line3 and wip'
t; step git merge topic
step git status --short
cat app.txt
printf 'line1\nline2 main\nline3 merged\nline4\nline5\nwip\n' > app.txt
step git add app.txt
t; step git commit -q -m 'merge topic'
t; step git tag -a v1.0 -m 'release 1.0'
step git tag light HEAD~1
step git checkout -q -b applied v1.0
step git format-patch -o patches main..feature
t; step git am patches/0001-feature-f-returns-2.patch patches/0002-feature-readme.patch
step git branch -d topic
t; step git commit --allow-empty -q -m 'empty commit'
echo '== log'
git log --all --format='%H %T %P|%an <%ae> %ad|%cn <%ce> %cd|%s' --date=raw
echo '== refs'
git show-ref
echo '== status'
git status --porcelain
git stash list
cat .git/HEAD
