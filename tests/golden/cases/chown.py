"""chown and chgrp (GNU coreutils 9.1) as an unprivileged user who owns every file.

The sandbox's only user is ``user`` (uid 1000). Recorded on a host where uid
1000 is ``cloudsdk``: the oracle runs as that uid with the name swapped in,
and the name is folded back to ``user`` in its output.
"""

FILES = {"f": "x\n", "d/": None, "d/e/": None, "d/e/g": "y\n"}
UID = ["setpriv", "--reuid=1000", "--regid=1000", "--clear-groups"]
HOST_USER = "cloudsdk"


def c(name, *argv, **kw):
    host = [a.replace("user", HOST_USER) for a in argv]
    return dict(name=name, argv=list(argv), oracle=UID + host, files=FILES,
                setup=[["chown", "-R", "1000:1000", "."]], subst=[(HOST_USER, "user")], **kw)


CASES = [
    c("same_user", "chown", "user", "f"),
    c("same_user_v", "chown", "-v", "user", "f"),
    c("same_both_c", "chown", "-c", "user:user", "f"),
    c("numeric_v", "chown", "-v", "1000:1000", "f"),
    c("group_only_v", "chown", "-v", ":user", "f"),
    c("login_group_v", "chown", "-v", "user:", "f"),
    c("dot_separator", "chown", "-v", "user.user", "f"),
    c("empty_spec_v", "chown", "-v", "", "f"),
    c("colon_only_v", "chown", "-v", ":", "f"),
    c("root", "chown", "root", "f"),
    c("root_v", "chown", "-v", "root", "f"),
    c("root_both_v", "chown", "-v", "root:root", "f"),
    c("root_group_v", "chown", "-v", ":root", "f"),
    c("mixed_v", "chown", "-v", "user:root", "f"),
    c("uid0_c", "chown", "-c", "0:0", "f"),
    c("other_uid", "chown", "4242", "f"),
    c("root_quiet", "chown", "-f", "root", "f"),
    c("unknown_user", "chown", "nosuchuser", "f"),
    c("unknown_group", "chown", ":nosuchgroup", "f"),
    c("missing_file", "chown", "user", "nofile"),
    c("recursive_v", "chown", "-Rv", "user", "d"),
    c("recursive_root_c", "chown", "-Rc", "root", "d"),
    c("reference_v", "chown", "-v", "--reference=f", "d"),
    c("reference_missing", "chown", "--reference=nope", "d"),
    c("from_v", "chown", "-v", "--from=root", "user", "f"),
    c("no_deref_v", "chown", "-hv", "user", "f"),
    c("no_operand", "chown"),
    c("no_file", "chown", "user"),
    c("bad_option", "chown", "-x", "f"),
    c("chgrp_v", "chgrp", "-v", "user", "f"),
    c("chgrp_numeric_v", "chgrp", "-v", "1000", "f"),
    c("chgrp_root_v", "chgrp", "-v", "root", "f"),
    c("chgrp_unknown", "chgrp", "nosuchgroup", "f"),
    c("chgrp_recursive_v", "chgrp", "-Rv", "user", "d"),
    c("chgrp_reference_v", "chgrp", "-v", "--reference=f", "d"),
    c("chgrp_no_operand", "chgrp"),
    c("chgrp_missing_file", "chgrp", "user", "nofile"),
]
