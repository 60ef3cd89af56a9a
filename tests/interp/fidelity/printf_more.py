"""printf: conversions of odd numbers, flags, widths and precisions taken from arguments,
%b and \\c (which stops output only in a %b argument), -v into elements, %(...)T."""

from tests.interp.cases import case

CASES = [
    case("printf-1", r"""printf '%d|' 0x10 010 +5 ' 7' -0 "'a" 1e3 2>&1; echo; printf '%d|' 9999999999999999999 -9999999999999999999 2>&1; echo; printf '%u|%o|%x\n' -1 -1 -1"""),
    case("printf-2", r"""printf '%5.2s|%-5s|%05d|%+d|% d|%#o|%#x|%.0f|%#.0f\n' abc ab 42 5 5 8 255 2.5 2.5"""),
    case("printf-3", r"""printf '%s\n' ; printf '%d\n'; printf '%s-%s\n' a; printf 'x\n' extra args; printf '%5%|\n'; printf '%c|%c\n' '' 'é'"""),
    case("printf-4", r"""printf '%b|' '\x41' '\101' '\0101' '\u263a' '\e' '\c' 'after'; echo; printf '%b\n' 'a\c' 'b'; printf 'q\cz\n'; echo"""),
    case("printf-5", r"""printf '%*s|%-*s|%.*s|\n' 4 a 4 b 2 abcd; printf '%*d\n' -4 1; printf '%.*d\n' 3 7; printf '%0*d\n' 5 -3"""),
    case("printf-6", r"""printf '%s %s %s\n' a b c d e; printf '%2$s %1$s\n' a b 2>&1; echo st=$?; printf '%z' 2>&1; echo st=$?; printf '\q\n'; printf '%'; echo st=$?"""),
    case("printf-7", r"""printf -v x '%s-' a b c; echo "$x"; printf -v 'a[1]' %s val; echo "${a[1]}"; declare -A m; printf -v 'm[k k]' '%d' 3; echo "${m[k k]}"; printf -v 1x q 2>&1; echo st=$?"""),
    case("printf-8", r"""printf '%i %d\n' 1.5 2>&1; echo st=$?; printf '%d\n' '' ; printf '%f %e %g %G\n' 1 1 1e-5 1e20; printf '%.3g|%10.4e|%-8.2f|\n' 3.14159 31415.9 2.5"""),
    case("printf-9", r"""printf '%s\n' "$(printf '\x00x' | od -c | head -1)"; printf 'a\0b' | od -c | head -1; printf '%b' 'a\0b' | od -c | head -1"""),
    case("printf-10", r"""printf '%(%Y-%m-%d)T\n' 86400; printf '%(%H:%M)T|%10(%Y)T|\n' 3600 0; TZ=UTC printf '%(%s)T\n' 5; printf '%()T\n' 0 | wc -c"""),
]
