"""ECMA-262 patterns (no flags) read with Python's `re`: draft-07 patterns and the spec's own
expressions are ECMAScript, and Python's `re` differs in `\\b`, `\\d`, `\\s`, `\\S`, `\\w`, `.`
and `$` (`$` matches before a final newline). Standard library only.
"""

# ECMA-262 WhiteSpace and LineTerminator (Python's `\s` also matches U+001C to U+001F).
_JS_SPACE = "\\t\\n\\v\\f\\r \\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff"

_JS_BOUNDARY = "(?:(?<=[A-Za-z0-9_])(?![A-Za-z0-9_])|(?<![A-Za-z0-9_])(?=[A-Za-z0-9_]))"


def ecma_pattern(source):
    """An ECMA-262 pattern (no flags) as a Python pattern with the same meaning."""
    out = []
    i, in_class = 0, False
    while i < len(source):
        c = source[i]
        if c == "\\" and i + 1 < len(source):
            e = source[i + 1]
            if e == "d":
                out.append("0-9" if in_class else "[0-9]")
            elif e == "D":
                out.append("\\D" if in_class else "[^0-9]")
            elif e == "s":
                out.append(_JS_SPACE if in_class else "[" + _JS_SPACE + "]")
            elif e == "S" and not in_class:
                out.append("[^" + _JS_SPACE + "]")
            elif e == "b" and not in_class:
                out.append(_JS_BOUNDARY)
            elif e == "w":
                out.append("A-Za-z0-9_" if in_class else "[A-Za-z0-9_]")
            elif e == "W":
                out.append("\\W" if in_class else "[^A-Za-z0-9_]")
            else:
                out.append(c + e)
            i += 2
            continue
        if in_class:
            if c == "]":
                in_class = False
            out.append(c)
        elif c == "[":
            in_class = True
            out.append(c)
            if source[i + 1 : i + 2] == "^":
                out.append("^")
                i += 1
            if source[i + 1 : i + 2] == "]":  # `[]` / `[^]` in ECMA-262: empty / any
                out.append("\\]")
                i += 1
        elif c == ".":
            out.append("[^\\n\\r\\u2028\\u2029]")
        elif c == "$":
            out.append("\\Z")
        else:
            out.append(c)
        i += 1
    return "".join(out)
