"""The awk syntax tree."""

from __future__ import annotations

_seq = [0]


class Node:
    __slots__ = ("line", "seq")
    fields: tuple[str, ...] = ()

    def __repr__(self) -> str:
        inner = ", ".join(f"{f}={getattr(self, f)!r}" for f in self.fields)
        return f"{type(self).__name__}({inner})"


def _node(name: str, *fields: str):
    def __init__(self, *args, line: int = 0):
        for f, a in zip(fields, args, strict=True):
            setattr(self, f, a)
        self.line = line
        _seq[0] += 1
        self.seq = _seq[0]  # creation order: source order, for "which use came first"

    return type(name, (Node,), {"__slots__": fields, "fields": fields, "__init__": __init__})


# -- expressions ---------------------------------------------------------------
Num = _node("Num", "value")
Str = _node("Str", "value")
Regex = _node("Regex", "source")  # a regex literal used as a value: $0 ~ /re/
Var = _node("Var", "name")
Field = _node("Field", "index")
Index = _node("Index", "name", "subs")
Assign = _node("Assign", "op", "target", "expr")  # op: = += -= *= /= %= ^=
Cond = _node("Cond", "test", "a", "b")
And = _node("And", "a", "b")
Or = _node("Or", "a", "b")
Not = _node("Not", "a")
Binary = _node("Binary", "op", "a", "b")  # + - * / % ^
Unary = _node("Unary", "op", "a")  # - +
Compare = _node("Compare", "op", "a", "b")  # < <= > >= == !=
Match = _node("Match", "negate", "a", "regex")
In = _node("In", "subs", "name")
Concat = _node("Concat", "items")
Incr = _node("Incr", "op", "prefix", "target")  # op: ++ --
Call = _node("Call", "name", "args")
Builtin = _node("Builtin", "name", "args")
Getline = _node("Getline", "kind", "target", "src")  # kind: simple file cmd
Group = _node("Group", "expr")  # parenthesized: keeps (a > b) apart from print redirection
GroupList = _node("GroupList", "exprs")  # (a, b) — only before `in` or as print's list

# -- statements ----------------------------------------------------------------
Print = _node("Print", "args", "dest_kind", "dest")  # dest_kind: None > >> |
Printf = _node("Printf", "args", "dest_kind", "dest")
ExprStmt = _node("ExprStmt", "expr")
If = _node("If", "cond", "then", "else_")
While = _node("While", "cond", "body")
DoWhile = _node("DoWhile", "body", "cond")
For = _node("For", "init", "cond", "incr", "body")
ForIn = _node("ForIn", "var", "array", "body")
Block = _node("Block", "stmts")
NextStmt = _node("NextStmt")
NextFileStmt = _node("NextFileStmt")
Exit = _node("Exit", "expr")
Return = _node("Return", "expr")
Break = _node("Break")
Continue = _node("Continue")
Delete = _node("Delete", "name", "subs")  # subs None: the whole array
GetlineStmt = ExprStmt

# -- program -------------------------------------------------------------------
Item = _node("Item", "kind", "pattern", "pattern2", "action")  # kind: BEGIN END main range
Function = _node("Function", "name", "params", "body")
Program = _node("Program", "items", "functions")
