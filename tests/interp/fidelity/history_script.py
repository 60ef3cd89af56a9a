"""set -o history in a script: each command read is saved (cmdhist joins a multi-line
command with "; " or " "), history -c / -d / -s on that list, \\! in ${x@P}."""

from tests.interp.cases import case

CASES = [
    case("records-commands", "set -o history\necho a\nif true; then\n  echo b\nfi\nhistory\nhistory -c\necho c; echo d\nhistory\n"),
    case("multi-line-joins", "set -o history\nfor i in 1\ndo\n  echo $i\ndone\ncase x in\n  x) echo x;;\nesac\necho a |\n  cat\n{\n  echo g\n}\nf() {\n  echo f\n}\necho \"multi\nline\"\ncat <<E\nhd\nE\nhistory\n"),
    case("off-by-default", "echo a\nhistory\necho \"n=$(history | wc -l)\"\nset -o history\nset +o history\necho b\nhistory\n"),
    case("prompt-history-number", "set -o history\nPS1='foo \\! bar'\nhistory -c\necho \"${PS1@P}\"\necho \"_${PS1@P}\"\np='\\!'; echo \"${p@P}\"\n"),
    case("delete-and-add", "set -o history\necho one\necho two\nhistory -d 1\nhistory -s added entry\nhistory\nhistory 2\n"),
    case("history-in-function-and-subshell", "set -o history\nf() {\n  history | tail -1\n}\nf\n( history | wc -l )\necho \"$(history | tail -1)\"\n"),
]
