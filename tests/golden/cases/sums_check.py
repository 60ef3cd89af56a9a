"""sha*sum / b2sum / md5sum -c (GNU coreutils 9.1): check files in every form agents meet."""

import hashlib

H1, H2 = b"hello\n", b"world"


def _line(alg, data, name, **kw):
    return f"{hashlib.new(alg, data).hexdigest()}  {name}\n"


S256 = _line("sha256", H1, "h1") + _line("sha256", H2, "h2")
B2 = f"{hashlib.blake2b(H1).hexdigest()}  h1\n{hashlib.blake2b(H2).hexdigest()}  h2\n"
B2_128 = f"{hashlib.blake2b(H1, digest_size=16).hexdigest()}  h1\n"
B2_TAG = f"BLAKE2b-64 (h1) = {hashlib.blake2b(H1, digest_size=8).hexdigest()}\n"
MIXED = S256.splitlines()[0] + "\ngarbage line\n" + "0" * 64 + "  nofile\n"
FILES = {
    "h1": H1, "h2": H2, "s256": S256, "b2": B2, "b128": B2_128, "btag": B2_TAG,
    "s1": _line("sha1", H1, "h1"), "s512": _line("sha512", H1, "h1"),
    "tagged": f"MD5 (h1) = {hashlib.md5(H1).hexdigest()}\n",
    "crlf": S256.replace("\n", "\r\n"), "mixed": MIXED,
    "bad": "0" + S256[1:], "empty": "",
    "nonl": S256.rstrip("\n"), "allmissing": "0" * 64 + "  gone\n",
    "m5": _line("md5", H1, "h1") + "0" * 32 + "  h2\n" + "junk\n",
    "b2bad": B2.replace(B2[:4], "0000", 1) + "zz  h1\n",
    "s1miss": _line("sha1", H1, "h1") + _line("sha1", H2, "gone"),
    "tag256": f"SHA256 (h1) = {hashlib.sha256(H1).hexdigest()}\n"
              f"SHA256 (h2) = {'0' * 64}\n",
    "esc": "\\" + _line("sha256", H1, "a\\\\b"),  # the name a\b, escaped as sha256sum writes it
    "a\\b": H1, "\udcff\udcfe": H2,  # a file name that is not UTF-8
    "badutf8": f"{hashlib.sha256(H2).hexdigest()}  ".encode() + b"\xff\xfe\n",
    "nl": "\\" + _line("sha256", H1, "n\\\\l\\nm"),  # the name n\l<newline>m
    "n\\l\nm": H1,
    "star": f"{hashlib.sha256(H1).hexdigest()} *h1\n",
}


def c(name, *argv, **kw):
    kw.setdefault("files", FILES)
    return dict(name=name, argv=list(argv), **kw)


CASES = [
    c("sha256_ok", "sha256sum", "-c", "s256"),
    c("sha1_ok", "sha1sum", "-c", "s1"),
    c("sha512_ok", "sha512sum", "-c", "s512"),
    c("b2_ok", "b2sum", "-c", "b2"),
    c("b2_length_from_line", "b2sum", "-c", "b128"),
    c("b2_length_given_other", "b2sum", "-l", "256", "-c", "b128"),
    c("b2_tagged_length", "b2sum", "-c", "btag"),
    c("md5_tagged", "md5sum", "-c", "tagged"),
    c("crlf_list", "sha256sum", "-c", "crlf"),
    c("mixed", "sha256sum", "-c", "mixed"),
    c("mixed_quiet", "sha256sum", "-c", "--quiet", "mixed"),
    c("mixed_status", "sha256sum", "-c", "--status", "mixed"),
    c("mixed_strict", "sha256sum", "-c", "--strict", "mixed"),
    c("mixed_ignore_missing", "sha256sum", "-c", "--ignore-missing", "mixed"),
    c("mixed_warn", "sha256sum", "-c", "-w", "mixed"),
    c("mixed_warn_strict", "sha256sum", "--check", "--warn", "--strict", "mixed"),
    c("mismatch", "sha256sum", "-c", "bad"),
    c("mismatch_quiet", "sha256sum", "-c", "--quiet", "bad"),
    c("wrong_algorithm", "sha512sum", "-c", "s256"),
    c("md5_on_sha256_list", "md5sum", "-c", "s256"),
    c("stdin_list", "sha256sum", "-c", "-", stdin=S256),
    c("missing_list", "sha256sum", "-c", "nofile"),
    c("empty_list", "sha256sum", "-c", "empty"),
    c("tag_with_check", "sha256sum", "-c", "--tag", "s256"),
    c("zero_with_check", "sha256sum", "-c", "-z", "s256"),
    c("two_lists", "sha256sum", "-c", "s256", "bad"),
    c("no_final_newline", "sha256sum", "-c", "nonl"),
    c("all_missing_ignored", "sha256sum", "-c", "--ignore-missing", "allmissing"),
    c("md5_mixed", "md5sum", "-c", "m5"),
    c("md5_mixed_status", "md5sum", "-c", "--status", "m5"),
    c("md5_mixed_strict_quiet", "md5sum", "-c", "--strict", "--quiet", "m5"),
    c("b2_mixed_warn", "b2sum", "-c", "-w", "b2bad"),
    c("b2_mixed_quiet", "b2sum", "-c", "--quiet", "b2bad"),
    c("sha1_missing", "sha1sum", "-c", "s1miss"),
    c("sha1_ignore_missing_quiet", "sha1sum", "-c", "--ignore-missing", "--quiet", "s1miss"),
    c("sha1_status_missing", "sha1sum", "-c", "--status", "s1miss"),
    c("bsd_tag_lines", "sha256sum", "-c", "tag256"),
    c("escaped_name", "sha256sum", "-c", "esc"),
    c("invalid_utf8_name", "sha256sum", "-c", "badutf8"),
    c("newline_name", "sha256sum", "-c", "nl"),
    c("binary_star", "sha256sum", "-c", "star"),
    dict(name="round_trip", script="sha512sum h1 h2 > l; sha512sum -c l", files=FILES),
    c("status_only_with_quiet", "sha256sum", "--status", "s256"),
    c("warn_without_check", "sha256sum", "-w", "h1"),
]
