"""Golden cases: sqlite3 (the sqlite3 3.40.1 shell on this machine)."""

SETUP = ("create table t(a, b); insert into t values (1, 'x'), (2, NULL), (3.5, 'h\u00e9, \"q\"');"
         " create table u(id integer primary key, name text unique);"
         " insert into u(name) values ('ann'), ('bob');")
FILES = {
    "data.csv": "name,age\nann,31\nbob,42\n\"c, d\",7\n",
    "rows.txt": "1|one\n2|two\n",
    "script.sql": "create table s(v);\ninsert into s values (10), (20);\nselect sum(v) from s;\n",
}


def sq(name, *args, stdin=None, files=None, setup=True):
    """A case run against a fresh db.sqlite (created by the SETUP statements via -cmd)."""
    pre = ["-cmd", SETUP] if setup else []
    case = dict(name=name, argv=["sqlite3", *pre, *args], files=files if files is not None else FILES)
    if stdin is not None:
        case["stdin"] = stdin
    return case


Q = "select * from t"
MANY = 'create table table_number_1(a unique, b); create table table_number_2(a unique, b); create table table_number_3(a unique, b); create table table_number_4(a unique, b); create table table_number_5(a unique, b); create table table_number_6(a unique, b); create table table_number_7(a unique, b); create table table_number_8(a unique, b); create table table_number_9(a unique, b); create table table_number_10(a unique, b); create table table_number_11(a unique, b); create table table_number_12(a unique, b); create table table_number_13(a unique, b); create table table_number_14(a unique, b); create table table_number_15(a unique, b); create table table_number_16(a unique, b); create table table_number_17(a unique, b); create table table_number_18(a unique, b); create table table_number_19(a unique, b); create table table_number_20(a unique, b); create table table_number_21(a unique, b); create table table_number_22(a unique, b); create table table_number_23(a unique, b); '
CASES = [
    sq("list", "db.sqlite", Q),
    sq("list_header", "-header", "db.sqlite", Q),
    sq("csv", "-csv", "db.sqlite", Q),
    sq("csv_header", "-csv", "-header", "db.sqlite", Q),
    sq("options_after_db", "db.sqlite", "-csv", "-header", Q),
    sq("options_after_sql", "db.sqlite", Q, "-header"),
    sq("option_dash_alone", "db.sqlite", Q, "-"),
    sq("option_double_dash", "db.sqlite", "--", Q),
    sq("csv_quoting", "-csv", ":memory:", "select ' a', 'x y', '', NULL, 'a,b', 'plain', 12, 1.5"),
    sq("json", "-json", "db.sqlite", Q),
    sq("json_types", "-json", ":memory:", "select 1 as i, 1.5 as r, 'a\"b\\c' as s, NULL as n, 1e100 as big, 1.0/3 as third"),
    sq("line", "-line", "db.sqlite", Q),
    sq("line_wide", "-line", ":memory:", "select 1 as longcolumnname, 2 as b"),
    sq("column", "-column", "db.sqlite", Q),
    sq("column_header", "-column", "-header", "db.sqlite", Q),
    sq("box", "-box", "db.sqlite", Q),
    sq("markdown", "-markdown", "db.sqlite", Q),
    sq("table", "-table", "db.sqlite", Q),
    sq("quote", "-quote", "db.sqlite", Q),
    sq("tabs", "-tabs", "db.sqlite", Q),
    sq("separator", "-separator", ";", "db.sqlite", Q),
    sq("nullvalue", "-nullvalue", "NULL", "db.sqlite", Q),
    sq("noheader", "-header", "-noheader", "db.sqlite", Q),
    sq("two_statements", "db.sqlite", "select 1; select 2 as two;"),
    sq("two_args", "db.sqlite", "select 1", "select 2"),
    sq("reals", ":memory:", "select 3.0, 0.1, 1.0/3, 1e100, 2.5e-7, -0.0, 100.0"),
    sq("ints", ":memory:", "select 9223372036854775807, -5, 1 + 1"),
    sq("stdin", "db.sqlite", stdin="select count(*) from t;\nselect name from u order by id;\n"),
    sq("stdin_multiline", "db.sqlite", stdin="select\n  a\nfrom t\nwhere a > 1;\n"),
    sq("stdin_dot", "db.sqlite", stdin=".headers on\n.mode csv\nselect * from u;\n"),
    sq("mode_column_dot", "db.sqlite", ".mode column", Q),
    sq("mode_box_dot", "db.sqlite", ".mode box", "select * from u"),
    sq("mode_bad", "db.sqlite", ".mode nope"),
    sq("mode_csv_dot", "db.sqlite", ".mode csv", Q),
    sq("headers_dot", "db.sqlite", ".headers on", Q),
    sq("separator_dot", "db.sqlite", ".separator ,", Q),
    sq("tables", "db.sqlite", ".tables"),
    sq("tables_pattern", "db.sqlite", ".tables u%"),
    sq("schema", "db.sqlite", ".schema"),
    sq("schema_one", "db.sqlite", ".schema u"),
    sq("dump", "db.sqlite", ".dump"),
    sq("dump_table", "db.sqlite", ".dump u"),
    sq("indexes", "db.sqlite", ".indexes"),
    sq("import_csv", ":memory:", ".import --csv data.csv people", "select * from people"),
    sq("import_csv_mode", ":memory:", ".mode csv", ".import data.csv p", ".mode list",
       "select name, age + 1 from p"),
    sq("import_list", ":memory:", "create table r(n, w)", ".import rows.txt r", "select w from r"),
    sq("import_missing", ":memory:", ".import nofile.csv x"),
    sq("read", ":memory:", ".read script.sql"),
    sq("output", ":memory:", ".output out.txt", "select 42", ".output", "select 'after'"),
    sq("error_prepare", "db.sqlite", "select * from nope"),
    sq("error_syntax_arg", "db.sqlite", "selec 1"),
    sq("error_stdin", "db.sqlite", stdin="select 1;\nselec 2;\nselect 3;\n"),
    sq("error_stdin_prepare", "db.sqlite", stdin="select 1;\nselect * from nope;\nselect 3;\n"),
    sq("error_bail", "-bail", "db.sqlite", stdin="select 1;\nselect * from nope;\nselect 3;\n"),
    sq("error_runtime_arg", "db.sqlite", "insert into u(name) values ('ann')"),
    sq("error_runtime_stdin", "db.sqlite", stdin="insert into u(name) values ('ann');\nselect 9;\n"),
    sq("error_columns", "db.sqlite", "insert into t values (1)"),
    sq("unknown_dot", "db.sqlite", ".bogus"),
    sq("unknown_option", "-bogus", setup=False),
    sq("memory_default", setup=False, stdin="select 1 + 1;\n"),
    sq("readonly_write", "-readonly", "db.sqlite", "insert into t values (9, 9)",
       setup=False, files=None),
    sq("cmd_then_sql", "-cmd", ".mode csv", "db.sqlite", "select * from u"),
    sq("quit", "db.sqlite", stdin="select 1;\n.quit\nselect 2;\n"),
    sq("print", ":memory:", ".print hello world"),
    sq("create_then_select", "new.db", "create table z(v); insert into z values (7); select v * 6 from z",
       setup=False),
    sq("empty_result", "db.sqlite", "select * from t where 0"),
    sq("empty_result_header", "-header", "db.sqlite", "select * from t where 0"),
    sq("blob", ":memory:", "select x'41', hex(x'00ff'), typeof(x'00')"),
    sq("functions", ":memory:", "select upper('abc'), length('h\u00e9'), abs(-3), round(2.567, 2), substr('hello', 2, 3)"),
    sq("json_funcs", ":memory:", "select json_object('a', 1, 'b', json_array(1, 2))"),
    sq("group_order", "db.sqlite", "select count(*), max(a), min(b) from t"),
    sq("vacuum", "db.sqlite", "vacuum", "select count(*) from u"),
    # -- option order: -column leaves the header setting alone (issue 13) ----------------------
    sq("header_column", "-header", "-column", "db.sqlite", Q),
    sq("column_noheader", "-column", "-noheader", "db.sqlite", Q),
    sq("noheader_box", "-noheader", "-box", "db.sqlite", "select * from u"),
    sq("noheader_markdown", "-noheader", "-markdown", "db.sqlite", "select * from u"),
    sq("header_table", "-header", "-table", "db.sqlite", "select * from u"),
    sq("header_csv", "-header", "-csv", "db.sqlite", "select * from u"),
    sq("header_line", "-header", "-line", "db.sqlite", "select * from u"),
    sq("noheader_mode_column", "-noheader", "db.sqlite", ".mode column", "select * from u"),
    sq("headers_off_mode_column", "db.sqlite", ".headers off", ".mode column", "select * from u"),
    sq("column_flag_mode_list", "-header", "-column", "db.sqlite", ".mode list", "select * from u"),
    # -- .tables / .indexes: sqlite 3.40's column layout --------------------------------------
    sq("tables_columns", "db.sqlite", MANY + "create view vv as select 1", ".tables"),
    sq("tables_columns_pattern", "db.sqlite", MANY, ".tables table_number_1%"),
    sq("tables_no_match", "db.sqlite", ".tables nomatch"),
    sq("tables_temp", "db.sqlite", "create temp table tmp1(x)", ".tables"),
    sq("indexes_columns", "db.sqlite", MANY + "create index idx_zz on t(b)", ".indexes"),
    sq("indexes_table", "db.sqlite", "create index ib on t(b)", ".indexes t"),
    sq("indexes_no_match", "db.sqlite", ".indexes nomatch"),
]
