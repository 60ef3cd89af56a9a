"""Here-documents as bash reads them: bodies found in one search (the lexer's fast path)
must read as the line-by-line path does, and a body ended by end of file gives bash's
warning with its line numbers, from a script, source, eval and before a syntax error."""

from tests.interp.cases import case

BODIES = {
    "empty-delim.sh": 'cat <<""\na\n\necho after\n',
    "strip-empty-delim.sh": 'cat <<-""\n\ta\n\t\t\necho after\n',
    "join.sh": "cat <<EOF\na\\\nEOF\nb\nEOF\necho after\n",
    "quoted-join.sh": "cat <<'EOF'\na\\\nEOF\necho after\n",
    "two.sh": 'cat <<EOF; cat <<-E2\none $((1+1))\nEOF\n\ttwo\n\tE2\necho after\n',
    "lookalike.sh": "cat <<EOF\nEOFx\n EOF\nxEOF\nEOF\n",
    "tabs.sh": "cat <<-EOF\n\ta\tb\n\t\tEOF\n\techo end\n",
    "backslashes.sh": "cat <<EOF\na\\\\\nEOF\necho after\n",
    "spaced.sh": 'cat << "E F"\nx\nE F\necho after\n',
    "no-newline.sh": "cat <<EOF\nnonl\nEOF",
    "no-end.sh": "cat <<EOF\nx\n\n",
    "no-body.sh": "echo\ncat <<EOF\n",
    "second-no-end.sh": "cat <<EOF; cat <<E2\na\nEOF\n",
    "no-end-syntax.sh": "cat <<EOF &&\necho\nx",
    "in-sub.sh": 'x=$(cat <<EOF\nin sub $((2*3))\nEOF\n); echo "$x"\n',
}

CASES = [
    case("bodies-sourced", "for f in *.sh; do echo \"== $f\"; source \"./$f\"; done", files=BODIES),
    case("bodies-eval", "for f in *.sh; do echo \"== $f\"; eval \"$(< \"$f\")\"; done",
         files=BODIES),
    case("bodies-as-scripts", "for f in *.sh; do echo \"== $f\"; bash \"$f\"; done", files=BODIES),
    case("bodies-on-stdin", "for f in [j-z]*.sh; do echo \"== $f\"; bash < \"$f\"; done",
         files=BODIES),
    case("no-end-in-script", "echo a\ncat <<EOF\nbody $((1+2))"),
]
