"""printenv (GNU coreutils 9.1), over variables both environments define alike."""

CASES = [
    dict(name="one", argv=["printenv", "USER"]),
    dict(name="home", argv=["printenv", "HOME"]),
    dict(name="path", argv=["printenv", "PATH"]),
    dict(name="several", argv=["printenv", "USER", "LOGNAME"]),
    dict(name="missing", argv=["printenv", "NOSUCHVAR"]),
    dict(name="mixed", argv=["printenv", "USER", "NOSUCHVAR", "LOGNAME"]),
    dict(name="null", argv=["printenv", "-0", "USER"]),
    dict(name="null_long", argv=["printenv", "--null", "USER", "LOGNAME"]),
    dict(name="with_eq", argv=["printenv", "USER=user"]),
    dict(name="extra_var", argv=["printenv", "MYVAR"], env={"MYVAR": "x y"}),
    dict(name="bad_option", argv=["printenv", "-x"]),
]
