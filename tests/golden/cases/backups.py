"""Golden cases: backups of overwritten destinations in cp, mv and ln (GNU coreutils 9.1):
-b, --backup=CONTROL (none/off, simple/never, existing/nil, numbered/t, abbreviations),
-S/--suffix, VERSION_CONTROL and SIMPLE_BACKUP_SUFFIX, what -v says, and the conflicts."""

FILES = {"a": "one\n", "b": "two\n", "c": "three\n", "d/b": "in d\n", "e/": None}
LS = "; echo status $?; for f in $(ls -A | sort); do printf '%s:' \"$f\"; cat \"$f\" 2>/dev/null || echo; done"


def s(name, script):
    return dict(name=name, script=script + LS, files=FILES)


CASES = [
    s("cp_b_verbose", "cp -vb a b"),
    s("cp_numbered_twice", "cp -v --backup=numbered a b && cp -v --backup=t c b"),
    s("cp_existing_after_numbered", "cp --backup=numbered a b && cp -b c b"),
    s("cp_existing_plain", "cp --backup=existing a b && cp --backup=nil c b"),
    s("cp_simple_suffix", "cp -S .bak a b && cp --suffix=.orig -v c b"),
    s("cp_never_is_simple", "cp --backup=never a b && cp --backup=never c b"),
    s("cp_none", "cp --backup=none a b && cp --backup=off -v c b"),
    s("cp_abbrev", "cp --backup=num -v a b"),
    s("cp_ambiguous", "cp --backup=n a b"),
    s("cp_invalid", "cp --backup=foo a b"),
    s("cp_version_control_env", "VERSION_CONTROL=numbered cp -b a b"),
    s("cp_simple_suffix_env", "SIMPLE_BACKUP_SUFFIX=.old cp -b --backup=simple a b"),
    s("cp_missing_dest_no_backup", "cp -vb a new"),
    s("cp_no_clobber_conflict", "cp -n -b a b"),
    s("cp_recursive_into", "cp -rvb d e && cp -rvb --backup=numbered d e && cp -rb d e; "
      "ls e e/d | cat"),
    s("mv_b_verbose", "mv -vb a b"),
    s("mv_numbered", "mv --backup=numbered a b && mv -v --backup=numbered c b"),
    s("mv_suffix", "mv -S '~old' -v a b"),
    s("mv_dir_onto_dir", "mkdir x y && touch x/in && mv -vb x y; ls y | cat"),
    s("mv_no_clobber_conflict", "mv -n --backup a b"),
    s("ln_sb_verbose", "ln -svb a b && readlink b"),
    s("ln_b_without_force", "ln -b a b"),
    s("ln_numbered", "ln -s --backup=numbered a b && ln -sv --backup=numbered c b && "
      "readlink b"),
    s("ln_hard_backup", "ln -vb c b"),
]
