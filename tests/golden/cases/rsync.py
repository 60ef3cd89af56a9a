"""rsync 3.2.7, local copies: file lists, itemized changes, filters, deletion, and the tree left.

The "sent/received bytes" figures describe rsync's wire protocol and the speed
is timing: the scripts mask digits on those lines (pysh prints its own).
"""

FILES = {
    "src/a": "a\n", "src/sub/b": "bb\n", "src/sub/deep/c": "c\n", "src/x.log": "log\n",
    "src/link": {"symlink": "a"}, "src/aa/z": "z\n", "src/zz": "y\n",
    "src/crlf.txt": "one\r\ntwo\r\n", "src/bin": b"\xff\xfe\x00\x01", "src/empty": "",
    "src/nonl": "no newline",
    "pre/extra": "e\n", "pre/xd/in/q": "q\n",
}
MASK = " | sed -E '/^(sent|total size|Total bytes|File list gen)/s/[0-9][0-9.,]*/N/g'"
TREE = ('; s=$?; find . -mindepth 1 -path ./src -prune -o -path ./pre -prune -o -print | sort '
        '| while read f; do if [ -L "$f" ]; then echo "$f -> $(readlink "$f")"; '
        'elif [ -d "$f" ]; then echo "$f/"; else echo "$f $(cat "$f" | md5sum | cut -c1-8)"; '
        'fi; done; exit $s')


def s(name, cmd, mask=True):
    return dict(name=name, script=cmd + (MASK if mask else "") + TREE, files=FILES)



CASES = [
    s("archive_contents", "rsync -av src/ dst/"),
    s("archive_dir_itself", "rsync -av src dst"),
    s("up_to_date", "rsync -a src/ dst/; rsync -av src/ dst/"),
    s("changed_file", "rsync -a src/ dst/; echo new > src/a; rsync -av src/ dst/"),
    s("dry_run", "rsync -avn src/ dst/"),
    s("dry_run_delete", "cp -r pre dst; rsync -avn --delete src/ dst/"),
    s("itemize_new", "rsync -ai src/ dst/"),
    s("itemize_again", "rsync -a src/ dst/; rsync -ai src/ dst/"),
    s("itemize_changes", "rsync -a src/ dst/; echo changed > dst/a; chmod 600 dst/x.log; "
                         "rsync -ai src/ dst/", mask=False),
    s("itemize_delete", "rsync -a src/ dst/; echo x > dst/extra; mkdir dst/xd; "
                        "rsync -ai --delete src/ dst/", mask=False),
    s("delete_verbose", "cp -r pre dst; rsync -av --delete src/ dst/"),
    s("delete_everything_else", "rsync -a src/ dst/; rsync -ain --delete pre/ dst/"),
    s("delete_after", "rsync -a src/ dst/; echo e > dst/e; mkdir dst/aa/q; "
                      "rsync -av --delete-after src/ dst/"),
    s("delete_excluded_kept", "rsync -a src/ dst/; echo z > dst/keep.log; "
                              "rsync -av --delete --exclude='*.log' src/ dst/"),
    s("delete_excluded", "rsync -a src/ dst/; echo z > dst/keep.log; "
                         "rsync -av --delete --delete-excluded --exclude='*.log' src/ dst/"),
    s("exclude_glob", "rsync -av --exclude='*.log' src/ dst/"),
    s("exclude_dir_name", "rsync -av --exclude=sub src/ dst/"),
    s("exclude_anchored", "rsync -av --exclude='/sub/deep' src/ dst/"),
    s("exclude_dir_only", "rsync -av --exclude='deep/' src/ dst/"),
    s("exclude_path", "rsync -av --exclude='sub/b' src dst/"),
    s("exclude_anchored_dir_itself", "rsync -av --exclude='/src/x.log' src dst/"),
    s("exclude_double_star", "rsync -av --exclude='sub/**' src/ dst/"),
    s("exclude_triple_star", "rsync -av --exclude='sub/***' src/ dst/"),
    s("include_only_logs", "rsync -av --include='*/' --include='*.log' --exclude='*' src/ dst/"),
    s("prune_empty", "rsync -avm --include='*/' --include='c' --exclude='*' src/ dst/"),
    s("exclude_from", "printf '*.log\\n# comment\\nzz\\n' > ex.txt; "
                      "rsync -av --exclude-from=ex.txt src/ dst/"),
    s("filter_rules", "rsync -av -f '- *.txt' -f '+ sub/' src/ dst/"),
    s("recursive_no_links", "rsync -r src/ dst/"),
    s("recursive_no_times_again", "rsync -r src/ dst/ 2>/dev/null; rsync -ri src/ dst/",
      mask=False),
    s("copy_links", "rsync -avL src/ dst/"),
    s("relative", "rsync -av -R src/sub/b dst/"),
    s("update_newer_kept", "rsync -a src/ dst/; echo older > dst/a; touch -d 2000-01-01 dst/a; "
                           "echo newer > dst/x.log; touch -d 2030-01-01 dst/x.log; "
                           "rsync -avu src/ dst/"),
    s("ignore_existing", "rsync -a src/ dst/; echo mine > dst/a; echo n > src/zz; "
                         "rsync -av --ignore-existing src/ dst/"),
    s("existing_only", "mkdir dst; echo old > dst/a; rsync -av --existing src/ dst/"),
    s("checksum", "rsync -a src/ dst/; echo X > dst/a; touch -r src/a dst/a; "
                  "rsync -ai src/ dst/; rsync -aci src/ dst/", mask=False),
    s("size_only", "rsync -a src/ dst/; touch -d 2001-01-01 dst/x.log; "
                   "rsync -ai --size-only src/ dst/", mask=False),
    s("single_file_rename", "rsync -av src/a newfile"),
    s("files_into_new_dir", "rsync -av src/a src/x.log newdir"),
    s("file_into_dir_slash", "rsync -a src/a dst/"),
    s("no_recursion_skips_dir", "rsync src dst", mask=False),
    s("missing_source", "rsync -av nofile dst/"),
    s("missing_parent", "rsync -a src/ nodir/deep/dst/", mask=False),
    s("mkpath", "rsync -a --mkpath src/ nodir/deep/dst/", mask=False),
    s("remove_source_files", "cp -r src moved; rsync -a --remove-source-files moved/ dst/; "
                             "find moved | sort", mask=False),
    s("quiet", "rsync -avq src/ dst/", mask=False),
    s("stats", "rsync -a --stats src/ dst/"),
    s("stats_dry", "rsync -an --stats src/ dst/"),
    s("max_size", "rsync -av --max-size=2 src/ dst/"),
    s("cvs_exclude", "mkdir -p src/.git; echo g > src/.git/HEAD; echo o > src/m.o; "
                     "rsync -avC src/ dst/"),
    s("list_only_dir_contents", "rsync src/ | cut -c1-10,46-", mask=False),
]
