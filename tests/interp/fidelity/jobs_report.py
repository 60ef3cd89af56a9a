"""Jobs as bash shows them: `jobs` prints a compound job on one line (`( sleep 1; echo x )`),
and `wait` reports a job a signal ended (not INT, PIPE or TERM) with its pid and the
signal's description."""

from tests.interp.cases import case

P = r"""sed -E 's/: +[0-9]+ /: PID /' e"""

CASES = [
    case("jobs-one-line", r"""(sleep 1; echo x) &
jobs
{ sleep 1; echo y; } &
jobs
sleep 1 | cat &
if true; then sleep 1; fi &
for i in 1; do sleep 1; done &
jobs
kill %1 %2 %3 %4 %5; wait
"""),
    case("wait-reports-signal", r"""sleep 1 & kill -HUP $!; wait $! 2>e; echo "st=$?"; """ + P + r"""
sleep 1 & kill -TERM $!; wait $! 2>e; echo "st=$?"; """ + P + r"""
sleep 1 & kill -KILL $!; wait $! 2>e; echo "st=$?"; """ + P + r"""
(sleep 1; echo x) & kill -USR1 $!; wait $! 2>e; echo "st=$?"; """ + P + r"""
sleep 1 & kill -PIPE $!; wait $! 2>e; echo "st=$?"; """ + P + r"""
"""),
    case("wait-report-in-function", r"""f() { sleep 1 & kill -ABRT $!; wait "$!"; echo "f st=$?"; }
f 2>e; """ + P + r"""
"""),
]
