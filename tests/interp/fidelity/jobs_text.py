"""jobs / fg / bg: a job's text as bash prints a command (compound ones laid out as in
declare -f), Exit N, a finished job reported once then forgotten, numbers reused from
1, fg and bg under set -m."""

from tests.interp.cases import case

CASES = [
    case("compound-job-text", "{ sleep 3; } & if true; then sleep 3; fi & for i in 1; do sleep 3; done & case x in x) sleep 3;; esac & (sleep 3) &\njobs\nkill %1 %2 %3 %4 %5\n"),
    case("pipeline-andor-job-text", "sleep 3 | cat & [[ -n x ]] && sleep 3 & f() { sleep 3; }; f > /dev/null & x=1 sleep 3 &\njobs\nkill %1 %2 %3 %4\n"),
    case("finished-job-reported-once", "true & sleep 0.5; jobs | cut -c1-3,6-; echo ---; jobs > j.txt; cut -c1-3,6- j.txt; echo ---; jobs; echo ---; (exit 3) & sleep 3 & sleep 0.5; jobs | cut -c1-3,6-; kill %2\n"),
    case("fg-without-monitor", "fg; echo st=$?; bg; echo st=$?; sleep 0.1 & fg %1; echo st=$?; wait\n"),
    case("fg-bg-with-monitor", "set -m\nfg; echo st=$?\nfg %5; echo st=$?\nbg %7; echo st=$?\nsleep 0.3 & bg; echo st=$?\nfg %sleep; echo st=$?\nfg a b; echo st=$?\n"),
    case("fg-running-job-status", "set -m\n{ sleep 0.3; exit 4; } & fg\necho st=$?\nf() { sleep 0.3; return 6; }; f & fg %f\necho st=$?\n"),
    case("fg-terminated-job", "set -m\nfalse & sleep 0.5; fg; echo st=$?\n"),
    case("procsub-not-a-job", "cat <(echo ps) > /dev/null; sleep 3 & jobs; kill %1; echo done\n"),
]
