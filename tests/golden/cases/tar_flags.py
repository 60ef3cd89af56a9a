"""Golden cases: GNU tar 1.34's flags agents type: --exclude (unanchored, wildcards),
--exclude-vcs, --exclude-from/-X, --wildcards for members, --transform/--xform,
--owner/--group/--mtime on create, -a (compression by suffix), -T/--files-from name lists."""

FILES = {
    "proj/src/a.py": "a\n", "proj/src/a.o": "o\n", "proj/.git/HEAD": "g\n",
    "proj/.git/objects/": None, "proj/build/x": "b\n", "proj/sub/build/y": "c\n",
    "proj/.gitignore": "i\n", "proj/README": "t\n", "ex.txt": "*.o\nbuild\n",
    "names.txt": "proj/README\n\nproj/src/a.py\n",
}


def s(name, script):
    return dict(name=name, script=script, files=FILES)


L = " && tar -tf t.tar | sort"
CASES = [
    s("exclude_glob", "tar -cf t.tar --exclude='*.o' proj" + L),
    s("exclude_dir_anywhere", "tar -cf t.tar --exclude=build proj" + L),
    s("exclude_path", "tar -cf t.tar --exclude=proj/build proj" + L),
    s("exclude_several", "tar -cf t.tar --exclude='*.o' --exclude '*.py' proj" + L),
    s("exclude_vcs", "tar -cf t.tar --exclude-vcs proj" + L),
    s("exclude_from", "tar -cf t.tar -X ex.txt proj" + L + "; tar -cf u.tar --exclude-from=ex.txt proj"
      " && tar -tf u.tar | sort"),
    s("exclude_on_list", "tar -cf t.tar proj && tar -tf t.tar --exclude='*/src/*' | sort"),
    s("exclude_on_extract", "tar -cf t.tar proj && mkdir out && tar -xf t.tar -C out --exclude=build"
      " && find out | sort"),
    s("wildcards_list", "tar -cf t.tar proj && tar -tf t.tar --wildcards '*.py' 'proj/sub/*' | sort"),
    s("wildcards_extract", "tar -cf t.tar proj && tar -xf t.tar -O --wildcards 'proj/src/*.py'"),
    s("transform", "tar -cf t.tar --transform='s,^proj,app,' proj/src" + L),
    s("xform_flags", "tar -cf t.tar --xform='s/a/A/g' proj/src" + L),
    s("transform_extended", "tar -cf t.tar --transform='s/(src)/\\1-code/x' proj/src" + L),
    s("transform_extract", "tar -cf t.tar proj/src && mkdir o && "
      "tar -xf t.tar -C o --transform='s,proj/,,' && find o | sort"),
    s("owner_group_mtime", "tar -cf t.tar --owner=root --group=wheel --mtime=@0 proj/README && "
      "tar -tvf t.tar"),
    s("owner_ids", "tar -cf t.tar --owner=alice:42 --group=staff:7 --mtime='2024-01-02 03:04:05' "
      "proj/README && tar -tvf t.tar && tar --numeric-owner -tvf t.tar"),
    s("auto_compress", "tar -caf t.tar.gz proj/README && tar -tzf t.tar.gz && "
      "od -An -tx1 -N2 t.tar.gz"),
    # -T lists stand where they stand among the operands; '-' is stdin; --null splits on NUL
    s("files_from_order", "tar -cf t.tar proj/.gitignore -T names.txt ex.txt && tar -tf t.tar"),
    s("files_from_stdin", "find proj/src -type f | sort | tar -cf t.tar -T - && tar -tf t.tar"),
    s("files_from_null", "printf 'ex.txt\\0proj/README\\0' > n0 && tar -cf t.tar --null -T n0 "
      "&& tar -tf t.tar"),
    s("files_from_long", "tar -cf t.tar --files-from names.txt && tar -tf t.tar && "
      "tar -cf u.tar --files-from=names.txt proj/build && tar -tf u.tar"),
    s("files_from_cluster", "tar -cvT names.txt -f t.tar && tar -tf t.tar"),
    s("files_from_extract", "tar -cf t.tar proj/src proj/README && mkdir o && tar -xvf t.tar -C o -T names.txt "
      "&& find o | sort"),
    s("files_from_missing", "tar -cf t.tar -T nope.txt; echo status $?"),
    s("files_from_bad_name", "tar -cf t.tar -T ex.txt; echo status $?"),
]
