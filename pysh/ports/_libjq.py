"""ctypes bindings to the libjq that the PyPI ``jq`` package ships (its extension module).

The ``jq`` package's Python API converts every value to Python and has no
input callback (no ``input``/``inputs``, no ``input_filename``) and no way to
reach jq's own printer. Its extension module exports the whole libjq C API,
so we drive libjq directly, as jq's ``main.c`` does: ``jq_compile_args``,
``jq_start``/``jq_next``, ``jq_util_input`` for the inputs, ``jv_dump_string``
for output, and callbacks for errors, ``debug`` and ``stderr``.
"""

from __future__ import annotations

import ctypes

import jq as _jq_module

_lib = ctypes.CDLL(_jq_module.__file__)


class JV(ctypes.Structure):
    # typedef struct { unsigned char kind_flags; unsigned char pad_; unsigned short offset;
    #                  int size; union { struct jv_refcnt* ptr; double number; } u; } jv;
    # The union is declared as a 64-bit integer: same size and the same (INTEGER) ABI class.
    _fields_ = [("kind_flags", ctypes.c_ubyte), ("pad_", ctypes.c_ubyte),
                ("offset", ctypes.c_ushort), ("size", ctypes.c_int), ("u", ctypes.c_uint64)]


P = ctypes.c_void_p
C_INT = ctypes.c_int
C_STR = ctypes.c_char_p

KIND_INVALID, KIND_NULL, KIND_FALSE, KIND_TRUE, KIND_NUMBER, KIND_STRING, KIND_ARRAY, \
    KIND_OBJECT = range(8)

PRINT_PRETTY = 1
PRINT_ASCII = 2
PRINT_COLOR = 4
PRINT_SORTED = 8
PRINT_TAB = 64


def PRINT_INDENT_FLAGS(n: int) -> int:
    return PRINT_TAB | PRINT_PRETTY if n < 0 or n > 7 else (n << 8) | PRINT_PRETTY


def _fn(name, res, *args):
    f = getattr(_lib, name)
    f.restype = res
    f.argtypes = list(args)
    return f


MSG_CB = ctypes.CFUNCTYPE(None, P, JV)
UTIL_MSG_CB = ctypes.CFUNCTYPE(None, P, C_STR)

jq_init = _fn("jq_init", P)
jq_teardown = _fn("jq_teardown", None, ctypes.POINTER(P))
jq_compile_args = _fn("jq_compile_args", C_INT, P, C_STR, JV)
jq_start = _fn("jq_start", None, P, JV, C_INT)
jq_next = _fn("jq_next", JV, P)
jq_halted = _fn("jq_halted", C_INT, P)
jq_halt = _fn("jq_halt", None, P, JV, JV)
jq_get_exit_code = _fn("jq_get_exit_code", JV, P)
jq_get_error_message = _fn("jq_get_error_message", JV, P)
jq_set_error_cb = _fn("jq_set_error_cb", None, P, MSG_CB, P)
jq_set_debug_cb = _fn("jq_set_debug_cb", None, P, MSG_CB, P)
jq_set_stderr_cb = _fn("jq_set_stderr_cb", None, P, MSG_CB, P)
jq_set_attr = _fn("jq_set_attr", None, P, JV, JV)
jq_set_colors = _fn("jq_set_colors", C_INT, C_STR)
jq_set_input_cb = _fn("jq_set_input_cb", None, P, P, P)

jq_util_input_init = _fn("jq_util_input_init", P, UTIL_MSG_CB, P)
jq_util_input_free = _fn("jq_util_input_free", None, ctypes.POINTER(P))
jq_util_input_set_parser = _fn("jq_util_input_set_parser", None, P, P, C_INT)
jq_util_input_add_input = _fn("jq_util_input_add_input", None, P, C_STR)
jq_util_input_errors = _fn("jq_util_input_errors", C_INT, P)
jq_util_input_next_input = _fn("jq_util_input_next_input", JV, P)
jq_util_input_get_position = _fn("jq_util_input_get_position", JV, P)
NEXT_INPUT_CB = ctypes.cast(_lib.jq_util_input_next_input_cb, P)

jv_parser_new = _fn("jv_parser_new", P, C_INT)
jv_parser_free = _fn("jv_parser_free", None, P)
jv_parser_set_buf = _fn("jv_parser_set_buf", None, P, C_STR, C_INT, C_INT)
jv_parser_next = _fn("jv_parser_next", JV, P)

jv_free = _fn("jv_free", None, JV)
jv_copy = _fn("jv_copy", JV, JV)
jv_null = _fn("jv_null", JV)
jv_invalid = _fn("jv_invalid", JV)
jv_invalid_has_msg = _fn("jv_invalid_has_msg", C_INT, JV)
jv_invalid_get_msg = _fn("jv_invalid_get_msg", JV, JV)
jv_number = _fn("jv_number", JV, ctypes.c_double)
jv_number_value = _fn("jv_number_value", ctypes.c_double, JV)
jv_string_sized = _fn("jv_string_sized", JV, C_STR, C_INT)
jv_string_value = _fn("jv_string_value", P, JV)
jv_string_length_bytes = _fn("jv_string_length_bytes", C_INT, JV)
jv_array = _fn("jv_array", JV)
jv_array_append = _fn("jv_array_append", JV, JV, JV)
jv_object = _fn("jv_object", JV)
jv_object_set = _fn("jv_object_set", JV, JV, JV, JV)
jv_parse_sized = _fn("jv_parse_sized", JV, C_STR, C_INT)
jv_dump_string = _fn("jv_dump_string", JV, JV, C_INT)

# oniguruma (linked into the same module): process-wide backtracking caps
onig_set_retry_limit_in_search = _fn("onig_set_retry_limit_in_search", C_INT, ctypes.c_ulong)


def kind(v: JV) -> int:
    return v.kind_flags & 0x0F


def string_bytes(v: JV) -> bytes:
    """The bytes of jv string ``v`` (not consumed)."""
    n = jv_string_length_bytes(jv_copy(v))
    p = jv_string_value(v)
    return ctypes.string_at(p, n) if n else b""


def dump(v: JV, flags: int = 0) -> bytes:
    """jq's printer; consumes ``v``."""
    s = jv_dump_string(v, flags)
    try:
        return string_bytes(s)
    finally:
        jv_free(s)


def string(b: bytes) -> JV:
    return jv_string_sized(b, len(b))


def parse_all(data: bytes) -> tuple[list[JV], str | None]:
    """Every JSON value of ``data`` (jq's parser), and the parse error message if any."""
    parser = jv_parser_new(0)
    out: list[JV] = []
    try:
        jv_parser_set_buf(parser, data, len(data), 1)
        while True:
            v = jv_parser_next(parser)
            if kind(v) != KIND_INVALID:
                out.append(v)
                continue
            if jv_invalid_has_msg(jv_copy(v)):
                msg = jv_invalid_get_msg(v)
                text = string_bytes(msg).decode("utf-8", "replace")
                jv_free(msg)
                for x in out:
                    jv_free(x)
                return [], text
            jv_free(v)
            return out, None
    finally:
        jv_parser_free(parser)
