"""Golden cases: tput (ncurses 6.4) for the terminal types scripts name."""

TERMS = ["xterm", "xterm-256color", "screen", "screen-256color", "tmux", "tmux-256color",
         "linux", "vt100", "vt220", "dumb"]
CAPS = [["setaf", "1"], ["setab", "2"], ["setaf", "9"], ["setaf", "100"], ["setab", "12"],
        ["bold"], ["dim"], ["sgr0"], ["clear"], ["colors"], ["cnorm"], ["civis"], ["el"],
        ["el1"], ["ed"], ["smul"], ["rmul"], ["rev"], ["blink"], ["smso"], ["rmso"], ["sitm"],
        ["ritm"], ["home"], ["sc"], ["rc"], ["cuu1"], ["cud1"], ["cuf1"], ["cub1"],
        ["cup", "2", "3"], ["longname"], ["cols"], ["lines"], ["smcup"], ["rmcup"], ["setaf"],
        ["setaf", "x"]]

CASES = [dict(name=f"{term}_{'_'.join(cap)}", argv=["tput", *cap], env={"TERM": term})
         for term in TERMS for cap in CAPS]
CASES += [
    dict(name="no_term", argv=["tput", "bold"], env={"TERM": ""}),
    dict(name="unknown_terminal", argv=["tput", "bold"], env={"TERM": "nosuchterm"}),
    dict(name="unknown_capability", argv=["tput", "bogus"], env={"TERM": "xterm"}),
    dict(name="dash_T", argv=["tput", "-T", "vt100", "bold"], env={"TERM": "xterm"}),
    dict(name="columns_env", argv=["tput", "cols"], env={"TERM": "xterm", "COLUMNS": "120",
                                                         "LINES": "40"}),
    dict(name="from_stdin", argv=["tput", "-S"], env={"TERM": "xterm"},
         stdin=b"bold\nsgr0\nsetaf 2\n"),
    dict(name="no_capability", argv=["tput"], env={"TERM": "xterm"}),
    dict(name="bad_option", argv=["tput", "-q", "bold"], env={"TERM": "xterm"}),
    dict(name="init_without_terminal", argv=["tput", "init"], env={"TERM": "xterm"}),
]
