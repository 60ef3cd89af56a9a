"""Golden cases: a pipe named as a file -- process substitution's /dev/fd/N and /dev/stdin --
opens like a file for every command that opens files (builtins through the FileSystem door,
ports through resolve()), as in bash 5.2 with the real tools."""

FILES = {"f1": "l1\nl2\n", "words": "alpha\nbeta\ngamma\n", "pats": "beta\n"}


def s(name, script, **kw):
    kw.setdefault("files", FILES)
    return dict(name=name, script=script, **kw)


CASES = [
    s("source", 'source <(echo "X=5; f() { echo in f; }"); echo "X=$X"; f; . /dev/stdin <<< "Y=6"; '
      'echo "Y=$Y"'),
    s("grep_patterns", "grep -f <(echo beta) words; grep -c -f <(printf 'alpha\\ngamma\\n') words"),
    s("grep_input", "grep -c a <(cat words words); grep -n l <(printf 'l\\nx\\nl\\n') f1"),
    s("grep_stdin_patterns", "echo gamma | grep -f /dev/stdin words"),
    s("sed_awk", "sed -n 2p <(cat words); awk '{ print NR, $0 }' <(cat f1); sed -f <(echo s/a/A/g) words"),
    s("wc_head_sort", "wc -l <(cat words); head -c 3 <(echo abcdef); echo; sort -r <(cat words)"),
    s("md5_cut_paste", "md5sum <(echo m) | cut -c1-32; paste <(cat f1) <(cat words)"),
    s("diff_cmp", "diff <(echo a) <(echo b); cmp <(echo a) <(echo a) && echo same"),
    s("tar_list", "tar -czf a.tgz f1 words; tar -tzf <(cat a.tgz); tar -xzf <(cat a.tgz) -O f1"),
    s("jq_rg", "jq -c .a <(echo '{\"a\": [1, 2]}'); rg -c a <(cat words); rg -n --no-filename l <(cat f1)"),
    s("sqlite_read", "sqlite3 :memory: '.read /dev/stdin' <<< 'select 6 * 7;'; "
      "sqlite3 :memory: \".read $(echo <(echo 'select 1;'))\" 2>&1 | head -1"),
    s("cp_cat", "cp <(echo copied) out.txt; cat out.txt; cat <(echo a) - <<< b"),
    s("file_size", "wc -c < <(printf 12345); stat -c %s f1"),
]
