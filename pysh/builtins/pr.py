"""pr (GNU coreutils 9.1): paginate or columnate files for printing.

The page machine of GNU pr, state for state: 66-line pages with a 5-line
header (date, name, page number) and trailer, ``-COLUMN`` columns down (balanced
on the last page), ``-a`` across, ``-m`` files in parallel, ``-n`` numbers,
``-d``, ``-o``, ``-l``, ``-w``/``-W``, ``-s``/``-S`` separators, ``-J``, ``-t``/
``-T``, ``-e``/``-i`` tab handling, ``-v``/``-c`` for unprintable bytes, form
feeds in the input, ``+FIRST[:LAST]``, ``-N`` and ``-D``. The header date is
the file's modification time (the current time for standard input), in the
script's ``TZ``. Bytes, not characters, as GNU 9.1.
"""

from __future__ import annotations

import datetime
import time

from pysh.builtins._fileutil import tzinfo
from pysh.builtins._textutil import quote, quotef, strerror
from pysh.shellkit.text import encode

HELP = """\
Usage: pr [OPTION]... [FILE]...
Paginate or columnate FILE(s) for printing.

With no FILE, or when FILE is -, read standard input.

Mandatory arguments to long options are mandatory for short options too.
  +FIRST_PAGE[:LAST_PAGE], --pages=FIRST_PAGE[:LAST_PAGE]
                    begin [stop] printing with page FIRST_[LAST_]PAGE
  -COLUMN, --columns=COLUMN
                    output COLUMN columns and print columns down,
                    unless -a is used. Balance number of lines in the
                    columns on each page
  -a, --across      print columns across rather than down, used together
                    with -COLUMN
  -c, --show-control-chars
                    use hat notation (^G) and octal backslash notation
  -d, --double-space
                    double space the output
  -D, --date-format=FORMAT
                    use FORMAT for the header date
  -e[CHAR[WIDTH]], --expand-tabs[=CHAR[WIDTH]]
                    expand input CHARs (TABs) to tab WIDTH (8)
  -F, -f, --form-feed
                    use form feeds instead of newlines to separate pages
                    (by a 3-line page header with -F or a 5-line header
                    and trailer without -F)
  -h, --header=HEADER
                    use a centered HEADER instead of filename in page header,
                    -h "" prints a blank line, don't use -h""
  -i[CHAR[WIDTH]], --output-tabs[=CHAR[WIDTH]]
                    replace spaces with CHARs (TABs) to tab WIDTH (8)
  -J, --join-lines  merge full lines, turns off -W line truncation, no column
                    alignment, --sep-string[=STRING] sets separators
  -l, --length=PAGE_LENGTH
                    set the page length to PAGE_LENGTH (66) lines
                    (default number of lines of text 56, and with -F 63).
                    implies -t if PAGE_LENGTH <= 10
  -m, --merge       print all files in parallel, one in each column,
                    truncate lines, but join lines of full length with -J
  -n[SEP[DIGITS]], --number-lines[=SEP[DIGITS]]
                    number lines, use DIGITS (5) digits, then SEP (TAB),
                    default counting starts with 1st line of input file
  -N, --first-line-number=NUMBER
                    start counting with NUMBER at 1st line of first
                    page printed (see +FIRST_PAGE)
  -o, --indent=MARGIN
                    offset each line with MARGIN (zero) spaces, do not
                    affect -w or -W, MARGIN will be added to PAGE_WIDTH
  -r, --no-file-warnings
                    omit warning when a file cannot be opened
  -s[CHAR], --separator[=CHAR]
                    separate columns by a single character, default for CHAR
                    is the <TAB> character without -w and 'no char' with -w.
                    -s[CHAR] turns off line truncation of all 3 column
                    options (-COLUMN|-a -COLUMN|-m) except -w is set
  -S[STRING], --sep-string[=STRING]
                    separate columns by STRING,
                    without -S: Default separator <TAB> with -J and <space>
                    otherwise (same as -S" "), no effect on column options
  -t, --omit-header  omit page headers and trailers;
                     implied if PAGE_LENGTH <= 10
  -T, --omit-pagination
                    omit page headers and trailers, eliminate any pagination
                    by form feeds set in input files
  -v, --show-nonprinting
                    use octal backslash notation
  -w, --width=PAGE_WIDTH
                    set page width to PAGE_WIDTH (72) characters for
                    multiple text-column output only, -s[char] turns off (72)
  -W, --page-width=PAGE_WIDTH
                    set page width to PAGE_WIDTH (72) characters always,
                    truncate lines, except -J option is set, no interference
                    with -S or -s
      --help        display this help and exit
      --version     output version information and exit
"""

EOF = -1
OPEN, FF_FOUND, ON_HOLD, CLOSED = range(4)
ANYWHERE = 0
INT_MAX = 2 ** 31 - 1
UINTMAX = 2 ** 64 - 1


class Fatal(Exception):
    def __init__(self, message: str, usage: bool = False, status: int = 1):
        super().__init__(message)
        self.message = message
        self.usage = usage
        self.status = status


class Source:
    """A file's bytes read with getc/ungetc (columns of one file share one)."""

    __slots__ = ("data", "pos", "name", "mtime")

    def __init__(self, data: bytes, name: str, mtime):
        self.data = data
        self.pos = 0
        self.name = name
        self.mtime = mtime

    def getc(self) -> int:
        if self.pos < len(self.data):
            c = self.data[self.pos]
            self.pos += 1
            return c
        self.pos = len(self.data) + 1
        return EOF

    def ungetc(self, c: int) -> None:
        if c != EOF:
            self.pos -= 1


class Column:
    __slots__ = ("fp", "status", "name", "lines_stored", "lines_to_print", "current_line",
                 "start_position", "numbered", "full_page_printed", "storing")

    def __init__(self):
        self.fp: Source | None = None
        self.status = CLOSED
        self.name = ""
        self.lines_stored = 0
        self.lines_to_print = 0
        self.current_line = 0
        self.start_position = 0
        self.numbered = False
        self.full_page_printed = False
        self.storing = False  # char_func == store_char (print_func == print_stored)


def _isprint(c: int) -> bool:
    return 0x20 <= c < 0x7F


class PR:
    def __init__(self, shell):
        self.shell = shell
        self.out = bytearray()
        self.columns = 1
        self.first_page_number = 0
        self.last_page_number = UINTMAX
        self.explicit_columns = False
        self.extremities = True
        self.keep_FF = False
        self.print_a_FF = False
        self.print_a_header = False
        self.use_form_feed = False
        self.print_across_flag = False
        self.storing_columns = True
        self.balance_columns = False
        self.lines_per_page = 66
        self.lines_per_header = 5
        self.lines_per_footer = 5
        self.lines_per_body = 0
        self.chars_per_line = 72
        self.truncate_lines = False
        self.join_lines = False
        self.chars_per_column = 0
        self.untabify_input = False
        self.input_tab_char = 9
        self.chars_per_input_tab = 8
        self.tabify_output = False
        self.output_tab_char = 9
        self.chars_per_output_tab = 8
        self.spaces_not_printed = 0
        self.chars_per_margin = 0
        self.output_position = 0
        self.input_position = 0
        self.failed_opens = False
        self.files_ready_to_read = 0
        self.page_number = 0
        self.line_number = 0
        self.numbered_lines = False
        self.number_separator = 9
        self.line_count = 1
        self.skip_count = True
        self.start_line_num = 1
        self.chars_per_number = 5
        self.number_width = 0
        self.use_esc_sequence = False
        self.use_cntrl_prefix = False
        self.double_space = False
        self.total_files = 0
        self.ignore_failed_opens = False
        self.use_col_separator = False
        self.col_sep_string = b""
        self.separators_not_printed = 0
        self.padding_not_printed = 0
        self.pad_vertically = False
        self.custom_header: bytes | None = None
        self.date_format = "%Y-%m-%d %H:%M"
        self.date_text = b""
        self.file_text = b""
        self.header_width_available = 0
        self.last_line = False
        self.parallel_files = False
        self.align_empty_cols = False
        self.empty_line = False
        self.FF_only = False
        self.column_vector: list[Column] = []
        self.buff = bytearray()
        self.line_vector: list[int] = []
        self.end_vector: list[int] = []
        self.now = None
        self.errors: list[str] = []
        self.poll = 0

    # ------------------------------------------------------------ output primitives
    def putchar(self, c: int) -> None:
        self.out.append(c)

    def char_func(self, p: Column, c: int) -> None:
        if p.storing:
            self.buff.append(c)
        else:
            self.print_char(c)

    # ------------------------------------------------------------ set-up
    @property
    def col_sep_length(self) -> int:
        return len(self.col_sep_string)

    def init_parameters(self, number_of_files: int) -> None:
        chars_used_by_number = 0
        self.lines_per_body = self.lines_per_page - self.lines_per_header - \
            self.lines_per_footer
        if self.lines_per_body <= 0:
            self.extremities = False
            self.keep_FF = True
        if not self.extremities:
            self.lines_per_body = self.lines_per_page
        if self.double_space:
            self.lines_per_body //= 2
        if number_of_files == 0:
            self.parallel_files = False
        if self.parallel_files:
            self.columns = number_of_files
        if self.storing_columns:
            self.balance_columns = True
        if self.columns > 1:
            if not self.use_col_separator:
                self.col_sep_string = b"\t" if self.join_lines else b" "
                self.use_col_separator = True
            elif not self.join_lines and self.col_sep_string == b"\t":
                self.col_sep_string = b" "
            self.truncate_lines = True
            if self.col_sep_string != b"\t":
                self.untabify_input = True
            self.tabify_output = True
        else:
            self.storing_columns = False
        if self.join_lines:
            self.truncate_lines = False
        if self.numbered_lines:
            self.line_count = self.start_line_num
            if self.number_separator == 9:
                self.number_width = self.chars_per_number + \
                    (8 - self.chars_per_number % 8)
            else:
                self.number_width = self.chars_per_number + 1
            if self.parallel_files:
                chars_used_by_number = self.number_width
        sep_chars = (self.columns - 1) * self.col_sep_length
        useful = self.chars_per_line - chars_used_by_number - sep_chars
        self.chars_per_column = max(0, useful) // self.columns
        if self.chars_per_column < 1:
            raise Fatal("page width too narrow")

    def open_file(self, name: str, p: Column) -> bool:
        if name == "-":
            p.name = "standard input"
            p.fp = self.stdin_source()
        else:
            p.name = name
            try:
                st = self.shell.fs.stat(name)
                data = self.shell.fs.read_bytes(name)
                self.shell.budget.check_string(len(data))
                p.fp = Source(data, name, st.st_mtime_ns)
            except OSError as e:
                self.failed_opens = True
                if not self.ignore_failed_opens:
                    self.errors.append(f"{quotef(name)}: {strerror(e)}")
                return False
        p.status = OPEN
        p.full_page_printed = False
        self.total_files += 1
        return True

    def stdin_source(self) -> Source:
        return self.stdin

    def close_file(self, p: Column) -> None:
        if p.status == CLOSED:
            return
        if not self.parallel_files:
            for q in self.column_vector:
                q.status = CLOSED
                if q.lines_stored == 0:
                    q.lines_to_print = 0
        else:
            p.status = CLOSED
            p.lines_to_print = 0
        self.files_ready_to_read -= 1

    def hold_file(self, p: Column) -> None:
        if not self.parallel_files:
            for q in self.column_vector:
                q.status = FF_FOUND if self.storing_columns else ON_HOLD
        else:
            p.status = ON_HOLD
        p.lines_to_print = 0
        self.files_ready_to_read -= 1

    def reset_status(self) -> None:
        for p in self.column_vector:
            if p.status == ON_HOLD:
                p.status = OPEN
                self.files_ready_to_read += 1
        if self.storing_columns:
            self.files_ready_to_read = 0 if self.column_vector[0].status == CLOSED else 1

    def init_fps(self, names: list[str]) -> bool:
        self.total_files = 0
        self.column_vector = [Column() for _ in range(self.columns)]
        if self.parallel_files:
            kept = []
            for name in names:
                p = Column()
                if self.open_file(name, p):
                    kept.append(p)
            self.column_vector = kept
            self.columns = len(kept)
            if not kept:
                return False
            self.init_header("", None)
        else:
            p = self.column_vector[0]
            if names:
                if not self.open_file(names[0], p):
                    return False
                self.init_header(names[0], p.fp)
            else:
                p.name = "standard input"
                p.fp = self.stdin_source()
                p.status = OPEN
                p.full_page_printed = False
                self.total_files += 1
                self.init_header("", None)
            p.lines_stored = 0
            for q in self.column_vector[1:]:
                q.name = p.name
                q.fp = p.fp
                q.status = OPEN
                q.full_page_printed = False
                q.lines_stored = 0
        self.files_ready_to_read = self.total_files
        return True

    def init_funcs(self) -> None:
        h = self.chars_per_margin
        if not self.truncate_lines:
            h_next = ANYWHERE
        elif self.parallel_files and self.numbered_lines:
            h_next = h + self.chars_per_column + self.number_width
        else:
            h_next = h + self.chars_per_column
        h = h + self.col_sep_length
        cols = self.column_vector
        for i, p in enumerate(cols[:-1], start=1):
            p.storing = self.storing_columns
            p.numbered = self.numbered_lines and (not self.parallel_files or i == 1)
            p.start_position = h
            if not self.truncate_lines:
                h = ANYWHERE
                h_next = ANYWHERE
            else:
                h = h_next + self.col_sep_length
                h_next = h + self.chars_per_column
        p = cols[-1]
        p.storing = self.storing_columns and self.balance_columns
        p.numbered = self.numbered_lines and (not self.parallel_files or len(cols) == 1)
        p.start_position = h

    def init_header(self, filename: str, fp: Source | None) -> None:
        tz = tzinfo(self.shell)
        if filename == "-" or fp is None:
            if self.now is None:
                self.now = time.time_ns()
            ns = self.now
        else:
            ns = fp.mtime
        dt = datetime.datetime.fromtimestamp(ns // 1_000_000_000, tz)
        try:
            text = dt.strftime(self.date_format.replace("%N", f"{ns % 1_000_000_000:09d}"))
        except ValueError:
            text = self.date_format
        self.date_text = encode(text)
        if self.custom_header is not None:
            self.file_text = self.custom_header
        elif fp is None or filename == "-":
            self.file_text = b""
        else:
            self.file_text = encode(filename)
        self.header_width_available = self.chars_per_line - len(self.date_text) - \
            len(self.file_text)

    def init_page(self) -> None:
        cols = self.column_vector
        if self.storing_columns:
            self.store_columns()
            for p in cols[:-1]:
                p.lines_to_print = p.lines_stored
            p = cols[-1]
            if self.balance_columns:
                p.lines_to_print = p.lines_stored
            elif p.status == OPEN:
                p.lines_to_print = self.lines_per_body
            else:
                p.lines_to_print = 0
        else:
            for p in cols:
                p.lines_to_print = self.lines_per_body if p.status == OPEN else 0

    def cols_ready_to_print(self) -> int:
        n = 0
        for q in self.column_vector:
            if q.status in (OPEN, FF_FOUND) or (self.storing_columns and q.lines_stored > 0
                                                and q.lines_to_print > 0):
                n += 1
        return n

    def align_column(self, p: Column) -> None:
        self.padding_not_printed = p.start_position
        if self.col_sep_length < self.padding_not_printed:
            self.pad_across_to(self.padding_not_printed - self.col_sep_length)
            self.padding_not_printed = ANYWHERE
        if self.use_col_separator:
            self.print_sep_string()
        if p.numbered:
            self.add_line_number(p)

    # ------------------------------------------------------------ pages
    def print_page(self) -> bool:
        self.init_page()
        if self.cols_ready_to_print() == 0:
            return False
        if self.extremities:
            self.print_a_header = True
        self.pad_vertically = False
        pv = False
        lines_left = self.lines_per_body
        if self.double_space:
            lines_left *= 2
        cols = self.column_vector
        while lines_left > 0 and self.cols_ready_to_print() > 0:
            self.poll += 1
            if self.poll & 255 == 0:
                self.shell.budget.check()
            self.output_position = 0
            self.spaces_not_printed = 0
            self.separators_not_printed = 0
            self.pad_vertically = False
            self.align_empty_cols = False
            self.empty_line = True
            for p in cols:
                self.input_position = 0
                if p.lines_to_print > 0 or p.status == FF_FOUND:
                    self.FF_only = False
                    self.padding_not_printed = p.start_position
                    ok = self.print_stored(p) if p.storing else self.read_line(p)
                    if not ok:
                        self.read_rest_of_line(p)
                    pv |= self.pad_vertically
                    p.lines_to_print -= 1
                    if p.lines_to_print <= 0 and self.cols_ready_to_print() == 0:
                        break
                    if self.parallel_files and p.status != OPEN:
                        if self.empty_line:
                            self.align_empty_cols = True
                        elif p.status == CLOSED or (p.status == ON_HOLD and self.FF_only):
                            self.align_column(p)
                elif self.parallel_files:
                    if self.empty_line:
                        self.align_empty_cols = True
                    else:
                        self.align_column(p)
                if self.use_col_separator:
                    self.separators_not_printed += 1
            if self.pad_vertically:
                self.putchar(10)
                lines_left -= 1
            if self.cols_ready_to_print() == 0 and not self.extremities:
                break
            if self.double_space and pv:
                self.putchar(10)
                lines_left -= 1
        if lines_left == 0:
            for p in cols:
                if p.status == OPEN:
                    p.full_page_printed = True
        self.pad_vertically = pv
        if self.pad_vertically and self.extremities:
            self.pad_down(lines_left + self.lines_per_footer)
        elif self.keep_FF and self.print_a_FF:
            self.putchar(12)
            self.print_a_FF = False
        self.page_number += 1
        if self.last_page_number < self.page_number:
            return False
        self.reset_status()
        return True

    def store_columns(self) -> None:
        line = 0
        self.buff = bytearray()
        buff_start = 0
        last_col = self.columns if self.balance_columns else self.columns - 1
        cols = self.column_vector
        for p in cols[:last_col]:
            p.lines_stored = 0
        self.line_vector = [0] * (self.lines_per_body * self.columns + 1)
        self.end_vector = [0] * (self.lines_per_body * self.columns)
        for p in cols[:last_col]:
            if not self.files_ready_to_read:
                break
            p.current_line = line
            j = self.lines_per_body
            while j and self.files_ready_to_read:
                if p.status == OPEN:
                    self.input_position = 0
                    if not self.read_line(p):
                        self.read_rest_of_line(p)
                    if p.status == OPEN or buff_start != len(self.buff):
                        p.lines_stored += 1
                        self.line_vector[line] = buff_start
                        self.end_vector[line] = self.input_position
                        line += 1
                        buff_start = len(self.buff)
                j -= 1
        self.line_vector[line] = buff_start
        if self.balance_columns:
            self.balance(line)

    def balance(self, total_stored: int) -> None:
        first_line = 0
        for i, p in enumerate(self.column_vector, start=1):
            lines = total_stored // self.columns
            if i <= total_stored % self.columns:
                lines += 1
            p.lines_stored = lines
            p.current_line = first_line
            first_line += lines

    def add_line_number(self, p: Column) -> None:
        s = f"{self.line_number:{self.chars_per_number}d}"[-self.chars_per_number:]
        self.line_number += 1
        for ch in encode(s):
            self.char_func(p, ch)
        if self.columns > 1:
            if self.number_separator == 9:
                for _ in range(self.number_width - self.chars_per_number):
                    self.char_func(p, 32)
            else:
                self.char_func(p, self.number_separator)
        else:
            self.char_func(p, self.number_separator)
            if self.number_separator == 9:
                t = self.chars_per_output_tab
                self.output_position += t - self.output_position % t
        if self.truncate_lines and not self.parallel_files:
            self.input_position += self.number_width

    def pad_across_to(self, position: int) -> None:
        if self.tabify_output:
            self.spaces_not_printed = position - self.output_position
        else:
            h = self.output_position
            while h + 1 <= position:
                h += 1
                self.putchar(32)
            self.output_position = position

    def pad_down(self, lines: int) -> None:
        if self.use_form_feed:
            self.putchar(12)
        else:
            self.out += b"\n" * max(0, lines)

    def read_rest_of_line(self, p: Column) -> None:
        f = p.fp
        while True:
            c = f.getc()
            if c == 10:
                return
            if c == 12:
                c = f.getc()
                if c != 10:
                    f.ungetc(c)
                if self.keep_FF:
                    self.print_a_FF = True
                self.hold_file(p)
                return
            if c == EOF:
                self.close_file(p)
                return

    def skip_read(self, p: Column, column_number: int) -> None:
        f = p.fp
        single_ff = False
        c = f.getc()
        if c == 12 and p.full_page_printed:
            c = f.getc()
            if c == 10:
                c = f.getc()
        p.full_page_printed = False
        if c == 12:
            single_ff = True
        if self.last_line:
            p.full_page_printed = True
        while c != 10:
            if c == 12:
                if self.last_line:
                    if not self.parallel_files:
                        for q in self.column_vector:
                            q.full_page_printed = False
                    else:
                        p.full_page_printed = False
                c = f.getc()
                if c != 10:
                    f.ungetc(c)
                self.hold_file(p)
                break
            if c == EOF:
                self.close_file(p)
                break
            c = f.getc()
        if self.skip_count and (not self.parallel_files or column_number == 1) and \
                not single_ff:
            self.line_count += 1

    def print_white_space(self) -> None:
        h_old = self.output_position
        goal = h_old + self.spaces_not_printed
        t = self.chars_per_output_tab
        while goal - h_old > 1:
            h_new = h_old + t - h_old % t
            if h_new > goal:
                break
            self.putchar(self.output_tab_char)
            h_old = h_new
        while h_old + 1 <= goal:
            h_old += 1
            self.putchar(32)
        self.output_position = goal
        self.spaces_not_printed = 0

    def print_sep_string(self) -> None:
        if self.separators_not_printed <= 0:
            if self.spaces_not_printed > 0:
                self.print_white_space()
            return
        first = True  # GNU's loop spends the string once, however many separators are due
        while self.separators_not_printed > 0:
            if first:
                for ch in self.col_sep_string:
                    if ch == 32:
                        self.spaces_not_printed += 1
                    else:
                        if self.spaces_not_printed > 0:
                            self.print_white_space()
                        self.putchar(ch)
                        self.output_position += 1
                first = False
            if self.spaces_not_printed > 0:
                self.print_white_space()
            self.separators_not_printed -= 1

    def print_char(self, c: int) -> None:
        if self.tabify_output:
            if c == 32:
                self.spaces_not_printed += 1
                return
            if self.spaces_not_printed > 0:
                self.print_white_space()
            if not _isprint(c):
                if c == 8:
                    self.output_position -= 1
            else:
                self.output_position += 1
        self.putchar(c)

    def skip_to_page(self, page: int) -> bool:
        n = 1
        while n < page:
            for _ in range(1, self.lines_per_body):
                for j, p in enumerate(self.column_vector, start=1):
                    if p.status == OPEN:
                        self.skip_read(p, j)
            self.last_line = True
            for j, p in enumerate(self.column_vector, start=1):
                if p.status == OPEN:
                    self.skip_read(p, j)
            if self.storing_columns:
                for p in self.column_vector:
                    if p.status != CLOSED:
                        p.status = ON_HOLD
            self.reset_status()
            self.last_line = False
            if self.files_ready_to_read < 1:
                self.errors.append(f"starting page number {page} exceeds page count {n}")
                break
            n += 1
            self.shell.budget.check()
        return self.files_ready_to_read > 0

    def print_header(self) -> None:
        self.output_position = 0
        self.pad_across_to(self.chars_per_margin)
        self.print_white_space()
        page_text = encode(f"Page {self.page_number}")
        available = max(0, self.header_width_available - len(page_text))
        lhs = available >> 1
        rhs = available - lhs
        self.out += b"\n\n" + b" " * self.chars_per_margin + self.date_text + \
            b" " * max(1, lhs) + self.file_text + b" " * max(1, rhs) + page_text + b"\n\n\n"
        self.print_a_header = False
        self.output_position = 0

    def read_line(self, p: Column) -> bool:
        f = p.fp
        c = f.getc()
        last_input_position = self.input_position
        if c == 12 and p.full_page_printed:
            c = f.getc()
            if c == 10:
                c = f.getc()
        p.full_page_printed = False
        chars = None
        if c == 12:
            c2 = f.getc()
            if c2 != 10:
                f.ungetc(c2)
            self.FF_only = True
            if self.print_a_header and not self.storing_columns:
                self.pad_vertically = True
                self.print_header()
            elif self.keep_FF:
                self.print_a_FF = True
            self.hold_file(p)
            return True
        if c == EOF:
            self.close_file(p)
            return True
        if c != 10:
            chars = self.char_to_clump(c)
        if self.truncate_lines and self.input_position > self.chars_per_column:
            self.input_position = last_input_position
            return False
        if not p.storing:
            self.pad_vertically = True
            if self.print_a_header and not self.storing_columns:
                self.print_header()
            if self.parallel_files and self.align_empty_cols:
                k = self.separators_not_printed
                self.separators_not_printed = 0
                for q in self.column_vector[:k]:
                    self.align_column(q)
                    self.separators_not_printed += 1
                self.padding_not_printed = p.start_position
                self.spaces_not_printed = self.chars_per_column if self.truncate_lines else 0
                self.align_empty_cols = False
            if self.col_sep_length < self.padding_not_printed:
                self.pad_across_to(self.padding_not_printed - self.col_sep_length)
                self.padding_not_printed = ANYWHERE
            if self.use_col_separator:
                self.print_sep_string()
        if p.numbered:
            self.add_line_number(p)
        self.empty_line = False
        if c == 10:
            return True
        for ch in chars:
            self.char_func(p, ch)
        while True:
            c = f.getc()
            if c == 10:
                return True
            if c == 12:
                c2 = f.getc()
                if c2 != 10:
                    f.ungetc(c2)
                if self.keep_FF:
                    self.print_a_FF = True
                self.hold_file(p)
                return True
            if c == EOF:
                self.close_file(p)
                return True
            last_input_position = self.input_position
            chars = self.char_to_clump(c)
            if self.truncate_lines and self.input_position > self.chars_per_column:
                self.input_position = last_input_position
                return False
            for ch in chars:
                self.char_func(p, ch)

    def print_stored(self, p: Column) -> bool:
        line = p.current_line
        p.current_line += 1
        first = self.line_vector[line]
        last = self.line_vector[line + 1]
        self.pad_vertically = True
        if self.print_a_header:
            self.print_header()
        if p.status == FF_FOUND:
            for q in self.column_vector:
                q.status = ON_HOLD
            if self.column_vector[0].lines_to_print <= 0:
                if not self.extremities:
                    self.pad_vertically = False
                return True
        if self.col_sep_length < self.padding_not_printed:
            self.pad_across_to(self.padding_not_printed - self.col_sep_length)
            self.padding_not_printed = ANYWHERE
        if self.use_col_separator:
            self.print_sep_string()
        for ch in self.buff[first:last]:
            self.print_char(ch)
        if self.spaces_not_printed == 0:
            self.output_position = p.start_position + self.end_vector[line]
            if p.start_position - self.col_sep_length == self.chars_per_margin:
                self.output_position -= self.col_sep_length
        return True

    def char_to_clump(self, c: int) -> bytes:
        chars_per_c = 8
        if c == self.input_tab_char:
            chars_per_c = self.chars_per_input_tab
        if c == self.input_tab_char or c == 9:
            width = chars_per_c - self.input_position % chars_per_c
            clump = b" " * width if self.untabify_input else bytes([c])
        elif not _isprint(c):
            if self.use_esc_sequence:
                width = 4
                clump = encode(f"\\{c:03o}")
            elif self.use_cntrl_prefix:
                if c < 0o200:
                    width = 2
                    clump = bytes([94, c ^ 0o100])
                else:
                    width = 4
                    clump = encode(f"\\{c:03o}")
            elif c == 8:
                width = -1
                clump = bytes([c])
            else:
                width = 0
                clump = bytes([c])
        else:
            width = 1
            clump = bytes([c])
        if width < 0 and self.input_position == 0:
            clump = b""
            self.input_position = 0
        elif width < 0 and self.input_position <= -width:
            self.input_position = 0
        else:
            self.input_position += width
        return clump

    def print_files(self, names: list[str]) -> None:
        self.init_parameters(len(names))
        if not self.init_fps(names):
            return
        if self.first_page_number > 1:
            if not self.skip_to_page(self.first_page_number):
                return
            self.page_number = self.first_page_number
        else:
            self.page_number = 1
        self.init_funcs()
        self.line_number = self.line_count
        while self.print_page():
            pass


def _getoptarg(arg: str, switch: str) -> tuple[int | None, int | None]:
    """-e/-i/-n arguments: an optional non-digit CHAR, then an optional WIDTH."""
    char = None
    if arg and not arg[0].isdigit():
        char = encode(arg[0])[0]
        arg = arg[1:]
    number = None
    if arg:
        try:
            number = int(arg)
            if number <= 0 or number > INT_MAX:
                raise ValueError
        except ValueError:
            raise Fatal(f"'-{switch}' extra characters or invalid number in the argument: "
                        f"{quote(arg)}", usage=True) from None
    return char, number


def _getoptnum(text: str, minimum: int, err: str) -> int:
    t = text.strip()
    try:
        v = int(t)
    except ValueError:
        raise Fatal(f"{err}: {quote(text)}") from None
    if v < minimum or v > INT_MAX:
        raise Fatal(f"{err}: {quote(text)}: Numerical result out of range")
    return v


_LONG = {
    "pages": ("pages", True), "columns": ("columns", True), "across": ("a", False),
    "show-control-chars": ("c", False), "double-space": ("d", False),
    "date-format": ("D", True), "expand-tabs": ("e", None), "form-feed": ("f", False),
    "header": ("h", True), "output-tabs": ("i", None), "join-lines": ("J", False),
    "length": ("l", True), "merge": ("m", False), "number-lines": ("n", None),
    "first-line-number": ("N", True), "indent": ("o", True),
    "no-file-warnings": ("r", False), "separator": ("s", None), "sep-string": ("S", None),
    "omit-header": ("t", False), "omit-pagination": ("T", False),
    "show-nonprinting": ("v", False), "width": ("w", True), "page-width": ("W", True),
    "help": ("help", False), "version": ("version", False),
}
_REQUIRED = set("DNWhlow")
_OPTIONAL = set("Seins")


def _parse_args(argv: list[str]):
    """GNU getopt in return-in-order mode: options and file names in their order."""
    items = []
    i = 0
    n = len(argv)
    while i < n:
        a = argv[i]
        i += 1
        if a == "--":
            items += [("file", x) for x in argv[i:]]
            break
        if a.startswith("--"):
            name, eq, val = a[2:].partition("=")
            matches = [k for k in _LONG if k.startswith(name)]
            if name in _LONG:
                matches = [name]
            if not matches:
                raise Fatal(f"unrecognized option '{a}'", usage=True)
            if len(matches) > 1:
                raise Fatal(f"option '{a}' is ambiguous", usage=True)
            key, takes = _LONG[matches[0]]
            if takes is True and not eq:
                if i >= n:
                    raise Fatal(f"option '--{matches[0]}' requires an argument", usage=True)
                val = argv[i]
                i += 1
            elif takes is False and eq:
                raise Fatal(f"option '--{matches[0]}' doesn't allow an argument", usage=True)
            items.append((key, val if (eq or takes is True) else None))
            continue
        if a.startswith("-") and len(a) > 1:
            j = 1
            while j < len(a):
                ch = a[j]
                j += 1
                if ch.isdigit():
                    items.append(("digit", ch))
                elif ch in _REQUIRED:
                    if j < len(a):
                        val = a[j:]
                    elif i < n:
                        val = argv[i]
                        i += 1
                    else:
                        raise Fatal(f"option requires an argument -- '{ch}'", usage=True)
                    items.append((ch, val))
                    break
                elif ch in _OPTIONAL:
                    items.append((ch, a[j:] if j < len(a) else None))
                    break
                elif ch in "FJTabcdfmrtv":
                    items.append((ch, None))
                else:
                    raise Fatal(f"invalid option -- '{ch}'", usage=True)
            continue
        items.append(("file", a))
    return items


async def main(shell, argv: list[str]) -> int:
    prog = "pr"
    pr = PR(shell)
    try:
        items = _parse_args(argv[1:])
        files: list[str] = []
        digits = ""
        old_options = old_w = old_s = False
        for k, v in items:
            if k == "digit":
                digits += v
                continue
            if k == "help":
                await shell.stdout.write(encode(HELP))
                return 0
            if k == "version":
                await shell.stdout.write(b"pr (pysh text utilities) 9.1\n")
                return 0
            if k == "file":
                if pr.first_page_number == 0 and v.startswith("+") and \
                        _first_last(pr, v[1:]):
                    continue
                files.append(v)
                continue
            digits_now, digits = digits, ""
            if digits_now and k != "columns":
                pr.columns = _getoptnum(digits_now, 1, "invalid number of columns")
                pr.explicit_columns = True
            if k == "pages":
                if not _first_last(pr, v):
                    raise Fatal(f"invalid page range {quote(v)}")
            elif k == "columns":
                pr.columns = _getoptnum(v, 1, "invalid number of columns")
                pr.explicit_columns = True
            elif k == "a":
                pr.print_across_flag = True
                pr.storing_columns = False
            elif k == "b":
                pr.balance_columns = True
            elif k == "c":
                pr.use_cntrl_prefix = True
            elif k == "d":
                pr.double_space = True
            elif k == "D":
                pr.date_format = v
            elif k == "e":
                if v:
                    ch, num = _getoptarg(v, "e")
                    if ch is not None:
                        pr.input_tab_char = ch
                    if num is not None:
                        pr.chars_per_input_tab = num
                pr.untabify_input = True
            elif k in ("f", "F"):
                pr.use_form_feed = True
            elif k == "h":
                pr.custom_header = encode(v)
            elif k == "i":
                if v:
                    ch, num = _getoptarg(v, "i")
                    if ch is not None:
                        pr.output_tab_char = ch
                    if num is not None:
                        pr.chars_per_output_tab = num
                pr.tabify_output = True
            elif k == "J":
                pr.join_lines = True
            elif k == "l":
                pr.lines_per_page = _getoptnum(v, 1, "'-l PAGE_LENGTH' invalid number of lines")
            elif k == "m":
                pr.parallel_files = True
                pr.storing_columns = False
            elif k == "n":
                pr.numbered_lines = True
                if v:
                    ch, num = _getoptarg(v, "n")
                    if ch is not None:
                        pr.number_separator = ch
                    if num is not None:
                        pr.chars_per_number = num
            elif k == "N":
                pr.skip_count = False
                pr.start_line_num = _getoptnum(v, -INT_MAX - 1,
                                               "'-N NUMBER' invalid starting line number")
            elif k == "o":
                pr.chars_per_margin = _getoptnum(v, 0, "'-o MARGIN' invalid line offset")
            elif k == "r":
                pr.ignore_failed_opens = True
            elif k == "s":
                old_options = old_s = True
                if not pr.use_col_separator and v:
                    pr.col_sep_string = encode(v)
            elif k == "S":
                old_s = False
                pr.col_sep_string = b""
                pr.use_col_separator = True
                if v:
                    pr.col_sep_string = encode(v)
            elif k == "t":
                pr.extremities = False
                pr.keep_FF = True
            elif k == "T":
                pr.extremities = False
                pr.keep_FF = False
            elif k == "v":
                pr.use_esc_sequence = True
            elif k == "w":
                old_options = old_w = True
                width = _getoptnum(v, 1, "'-w PAGE_WIDTH' invalid number of characters")
                if not pr.truncate_lines:
                    pr.chars_per_line = width
            elif k == "W":
                old_w = False
                pr.truncate_lines = True
                pr.chars_per_line = _getoptnum(v, 1,
                                               "'-W PAGE_WIDTH' invalid number of characters")
        if digits:
            pr.columns = _getoptnum(digits, 1, "invalid number of columns")
            pr.explicit_columns = True
        if pr.first_page_number == 0:
            pr.first_page_number = 1
        if pr.parallel_files and pr.explicit_columns:
            raise Fatal("cannot specify number of columns when printing in parallel")
        if pr.parallel_files and pr.print_across_flag:
            raise Fatal("cannot specify both printing across and printing in parallel")
        if old_options:
            if old_w:
                if pr.parallel_files or pr.explicit_columns:
                    pr.truncate_lines = True
                    if old_s:
                        pr.use_col_separator = True
                else:
                    pr.join_lines = True
            elif not pr.use_col_separator:
                if old_s and (pr.parallel_files or pr.explicit_columns):
                    if not pr.truncate_lines:
                        pr.join_lines = True
                        if pr.col_sep_string:
                            pr.use_col_separator = True
                    else:
                        pr.use_col_separator = True
        pr.stdin = None
        if not files or "-" in files:
            data = await _read_stdin(shell)
            pr.stdin = Source(data, "-", None)
        if not files:
            pr.print_files([])
        elif pr.parallel_files:
            pr.print_files(files)
        else:
            for name in files:
                _reset_for_file(pr)
                pr.print_files([name])
    except Fatal as e:
        await _flush(shell, pr)
        await shell.error(prog, e.message)
        if e.usage:
            await shell.stderr.write(b"Try 'pr --help' for more information.\n")
        return e.status
    await _flush(shell, pr)
    return 1 if pr.failed_opens else 0


def _reset_for_file(pr: PR) -> None:
    """print_files runs once per file: GNU keeps its option state, not the page state."""
    pr.print_a_FF = False


def _first_last(pr: PR, pages: str) -> bool:
    head, colon, tail = pages.partition(":")
    num = ""
    for ch in head:
        if ch.isdigit():
            num += ch
        else:
            return False
    if not num or int(num) == 0:
        return False
    first = int(num)
    last = UINTMAX
    if colon:
        if not tail.isdigit():
            return False
        last = int(tail)
        if last < first:
            return False
    pr.first_page_number = first
    pr.last_page_number = last
    return True


async def _read_stdin(shell) -> bytes:
    parts = []
    while True:
        chunk = await shell.stdin.read(1 << 20)
        if not chunk:
            break
        parts.append(chunk)
        shell.budget.check()
    return b"".join(parts)


async def _flush(shell, pr: PR) -> None:
    if pr.out:
        data = bytes(pr.out)
        pr.out.clear()
        await shell.stdout.write(data)
    for e in pr.errors:
        await shell.error("pr", e)
    pr.errors.clear()
