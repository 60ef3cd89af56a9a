"""Golden cases: git 2.39's archive. tar output is compared byte for byte (pax global header
with the commit id, ustar headers, prefix/name splits and pax path records for long names,
symlinks, executable modes, directories written when something under them is); tar.gz by
its decompressed bytes; zip by the listing unzip gives of it."""

from tests.ports.git.golden_helpers import case, commit, git, w

LONG_DIR = "/".join(f"d{i:02d}-abcdefghij" for i in range(9))
SEQ = [git("init", "-q", "-b", "main"), ["mkdir", "-p", "dir/sub", LONG_DIR],
       w("dir/e.sh", "#!/bin/sh\necho e\n"), ["chmod", "+x", "dir/e.sh"],
       ["ln", "-s", "a.txt", "link"], w(LONG_DIR + "/file-with-a-long-name.txt", "deep\n"),
       w("x" * 120, "y\n"), git("add", "."), commit(1, "one"),
       w("a.txt", "changed\n"), commit(2, "two", "-a")]


def c(name, argv, steps=()):
    return case(name, argv, setup=SEQ + list(steps))


CASES = [
    c("tar", git("archive", "HEAD")),
    c("tar_older", git("archive", "HEAD~1")),
    c("tar_prefix", git("archive", "--prefix=p/", "HEAD")),
    c("tar_prefix_noslash", git("archive", "--prefix=pre-", "HEAD", "dir")),
    c("tar_paths", git("archive", "HEAD", "dir/sub", "link")),
    c("tar_format", git("archive", "--format=tar", "main")),
    c("tar_o", ["cat", "out.tar"], [git("archive", "-o", "out.tar", "HEAD", "dir")]),
    c("tgz_o", ["gzip", "-dc", "out.tar.gz"], [git("archive", "-o", "out.tar.gz", "HEAD")]),
    c("tgz_format", ["gzip", "-dc", "out.bin"],
      [git("archive", "--format=tar.gz", "-o", "out.bin", "HEAD")]),
    c("zip_o", ["unzip", "-l", "a.zip"], [git("archive", "-o", "a.zip", "HEAD")]),
    c("zip_content", ["unzip", "-p", "a.zip", "z/dir/e.sh", "z/a.txt"],
      [git("archive", "--format=zip", "--prefix=z/", "-o", "a.zip", "HEAD")]),
    c("list", git("archive", "--list")),
    c("no_match", git("archive", "HEAD", "nosuch")),
    c("bad_rev", git("archive", "nosuch")),
    c("bad_format", git("archive", "--format=rar", "HEAD")),
    c("verbose", git("archive", "-v", "-o", "v.tar", "HEAD", "dir")),
]
