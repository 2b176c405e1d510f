# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Kernel families: one MLIR source with its tunable constants marked.

A field is ``${NAME}`` or ``${expression}`` over names, integers and
strings with ``+ - * // %`` and parentheses (``+`` also joins strings, and
a string with an integer's digits), one comparison (``== != < <= > >=``),
``and``, ``or``, ``not`` and ``X if C else Y`` (``${BM - 1}``,
``${BM * BN // 128}``). A field ``${?EXPRESSION}`` that begins a line is
that line's condition: the line is kept (the field rendering as nothing)
when the expression is true, and left empty, its other fields not
evaluated, when it is false. MLIR itself never uses ``$``, so a field
cannot be mistaken for kernel text. Rendering replaces each field by its
value; a field's value holds no newline, so a diagnostic's line in the
rendered text is the line in the template.

    family = ws.Template(ws.kernel_source("matmul.mlir"), defaults={"DTYPE": "f16"})
    module = family.compile({"BM": 128, "BN": 256, "BK": 64}, chip="sm_90a")
"""

import ast
import dataclasses
import os
import re
from typing import Dict, Optional

from .compiler import CompileError, _read_source, cached as _cached, compile as _compile, \
    unknown_option

_FIELD = re.compile(r"\$\{([^{}\n]*)\}")
_OPS = {ast.Add: lambda a, b: a + b, ast.Sub: lambda a, b: a - b,
        ast.Mult: lambda a, b: a * b, ast.FloorDiv: lambda a, b: a // b,
        ast.Mod: lambda a, b: a % b}


def kernel_source(name: str) -> str:
    """The path of a kernel family the package ships (ws/kernels): the
    matmul (matmul.mlir) and attention (attention.mlir) families that
    torch.ops.ws runs."""
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "kernels", name)
    if not os.path.exists(path):
        raise FileNotFoundError("ws ships no kernel family %r (it has %s)" % (
            name, ", ".join(sorted(os.listdir(os.path.dirname(path))))))
    return path


_COMPARE = {ast.Eq: lambda a, b: a == b, ast.NotEq: lambda a, b: a != b,
            ast.Lt: lambda a, b: a < b, ast.LtE: lambda a, b: a <= b,
            ast.Gt: lambda a, b: a > b, ast.GtE: lambda a, b: a >= b}


class TemplateError(ValueError):
    """A field of a template that cannot be rendered: the message is
    ``file:line:column: why``."""


def _names(node) -> set:
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}


def _evaluate(node, values: Dict[str, object]):
    """The value of a field's expression; raises ValueError saying what is
    not allowed (a name without a value, an operator other than the
    five, a call...)."""
    if isinstance(node, ast.Expression):
        return _evaluate(node.body, values)
    if isinstance(node, ast.Constant) and isinstance(node.value, (int, str)) \
            and not isinstance(node.value, bool):
        return node.value
    if isinstance(node, ast.Name):
        if node.id not in values:
            raise ValueError("%s has no value (give it in the config or the "
                             "template's defaults)" % node.id)
        return values[node.id]
    if isinstance(node, ast.IfExp):
        return _evaluate(node.body if _evaluate(node.test, values) else node.orelse, values)
    if isinstance(node, ast.Compare) and len(node.ops) == 1 and type(node.ops[0]) in _COMPARE:
        return _COMPARE[type(node.ops[0])](_evaluate(node.left, values),
                                           _evaluate(node.comparators[0], values))
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        return -_evaluate(node.operand, values)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        return int(not _evaluate(node.operand, values))
    if isinstance(node, ast.BoolOp):  # and, or: as Python's, on values
        value = _evaluate(node.values[0], values)
        for operand in node.values[1:]:
            if bool(value) == isinstance(node.op, ast.Or):
                break
            value = _evaluate(operand, values)
        return value
    if isinstance(node, ast.BinOp) and type(node.op) in _OPS:
        left, right = _evaluate(node.left, values), _evaluate(node.right, values)
        if isinstance(node.op, ast.Add) and str in (type(left), type(right)):
            if not all(isinstance(x, (int, str)) for x in (left, right)):
                raise ValueError("+ joins strings and integers (got %r and %r)" % (left, right))
            return "%s%s" % (left, right)  # an integer joins as its digits
        if not (isinstance(left, int) and isinstance(right, int)):
            raise ValueError("arithmetic takes integers, + also strings and integers "
                             "(got %r and %r)" % (left, right))
        if isinstance(node.op, (ast.FloorDiv, ast.Mod)) and right == 0:
            raise ValueError("division by zero")
        return _OPS[type(node.op)](left, right)
    raise ValueError("only names, integers, strings, + - * // %, one comparison, "
                     "and, or, not, 'X if C else Y' and parentheses may appear in a field")


class Template:
    """A kernel family: MLIR text with ``${...}`` fields. ``fields`` names
    every field's free names; ``render(config)`` gives the kernel text of
    one member; ``compile(config, **options)`` compiles it (ws.compile)."""

    def __init__(self, source, *, filename: Optional[str] = None,
                 defaults: Optional[Dict[str, object]] = None):
        self.text, self.filename = _read_source(source, filename)
        self.defaults = dict(defaults or {})
        # (match, parsed expression or None, line, column, a line's condition?)
        self._fields = []
        for match in _FIELD.finditer(self.text):
            line = self.text.count("\n", 0, match.start()) + 1
            line_start = self.text.rfind("\n", 0, match.start()) + 1
            column = match.start() - line_start + 1
            expression = match.group(1).strip()
            condition = expression.startswith("?")
            try:
                parsed = ast.parse(expression[1:] if condition else expression, mode="eval")
            except SyntaxError:
                parsed = None
            if condition and self.text[line_start:match.start()].strip():
                parsed = None  # a line's condition comes first on its line
            self._fields.append((match, parsed, line, column, condition))
        self.fields = frozenset(n for _, p, _, _, _ in self._fields if p for n in _names(p))

    def _error(self, line: int, column: int, why: str) -> TemplateError:
        return TemplateError("%s:%d:%d: %s" % (self.filename, line, column, why))

    def render(self, config: Optional[Dict[str, object]] = None, *,
               unused: Optional[Dict[str, object]] = None) -> str:
        """The kernel text with every field replaced by its value, from
        `config` over the template's defaults. Config keys that are not
        fields are left for the caller (ws.autotune passes them to the
        pipeline as options); given as `unused`, a field with no value
        names them (a misspelt field, mostly)."""
        return self._render(config, unused)[0]

    def _render(self, config, unused):
        """(the kernel text, each field's span: (line, its column in the
        template, its end there, its column in the text, its end there,
        the field, its value))."""
        values = dict(self.defaults, **(config or {}))
        out, last, spans, shift, shift_line = [], 0, [], 0, 0
        dropped = -1  # the end of a line whose condition is false
        for match, parsed, line, column, condition in self._fields:
            if match.start() < dropped:
                continue
            if parsed is None:
                raise self._error(line, column, "field ${%s} is not an expression%s"
                                  % (match.group(1), " that begins its line" if condition
                                     else ""))
            try:
                value = _evaluate(parsed, values)
            except (ValueError, TypeError) as e:  # TypeError: a value of the wrong type
                why = str(e)
                others = sorted(k for k in (unused or {}) if k != "kernel")
                if others and "has no value" in why:
                    why += ("; the config's %s, not a field of the template (its fields: %s), "
                            "would go to the pipeline as an option" % (
                                ", ".join(repr(k) for k in others), ", ".join(sorted(self.fields))))
                raise self._error(line, column, "field ${%s}: %s" % (match.group(1), why))
            if condition and not value:  # the line stays, empty: lines keep their numbers
                out.append(self.text[last:match.start() - column + 1])
                end = self.text.find("\n", match.end())
                last = dropped = len(self.text) if end < 0 else end
                continue
            text = "" if condition else str(value)
            if "\n" in text or "${" in text:
                raise self._error(line, column, "field ${%s}: its value %r holds a newline "
                                  "or a field" % (match.group(1), text))
            out.append(self.text[last:match.start()])
            out.append(text)
            last = match.end()
            if line != shift_line:  # values hold no newline: only columns move
                shift, shift_line = 0, line
            width = match.end() - match.start()
            spans.append((line, column, column + width, column + shift,
                          column + shift + len(text), match.group(0), text))
            shift += len(text) - width
        out.append(self.text[last:])
        return "".join(out), spans

    def _in_template(self, d, spans):
        """Diagnostic `d` of a rendered member, at its place in the
        template: columns after a field move back by what the field's value
        changed, and one inside a value points at its field and names it."""
        if d.file != self.filename or not d.line:
            return d
        column, message = d.column, d.message
        for line, start, end, r_start, r_end, field, value in spans:
            if line != d.line or d.column < r_start:
                continue
            if d.column < r_end:
                column, message = start, "%s (in %s, rendered as %r)" % (message, field, value)
                break
            column = d.column - (r_end - end)
        return dataclasses.replace(d, column=column, message=message)

    def split(self, config: Dict[str, object]):
        """(the template's part of `config`, the rest): the rest are
        ws-pipeline options such as num_stages and overlap."""
        fields = {k: v for k, v in config.items() if k in self.fields}
        return fields, {k: v for k, v in config.items() if k not in self.fields}

    def cached(self, config: Optional[Dict[str, object]] = None, **options) -> bool:
        """Whether compile(config, **options) would come from the disk cache,
        compiling nothing (ws.compiler.cached)."""
        fields, rest = self.split(config or {})
        return _cached(self.render(fields, unused=rest), filename=self.filename,
                       **dict(rest, **options))

    def compile(self, config: Optional[Dict[str, object]] = None, **options):
        """Compiles one member: the config's fields rendered, its other keys
        and `options` passed to ws.compile (pipeline options, chip...)."""
        fields, rest = self.split(config or {})
        text, spans = self._render(fields, rest)
        for key in rest:
            unknown = unknown_option(key, others=self.fields)
            if unknown:
                raise TemplateError("%s: config key %r is neither a field of the template (%s) "
                                    "nor a ws-pipeline option%s"
                                    % (self.filename, key,
                                       ", ".join(sorted(self.fields)) or "it has none", unknown))
        try:
            module = _compile(text, filename=self.filename, **dict(rest, **options))
        except CompileError as e:
            raise CompileError([self._in_template(d, spans) for d in e.diagnostics]) from None
        module.diagnostics = [self._in_template(d, spans) for d in module.diagnostics]
        return module

    def __repr__(self):
        return "<ws.Template %s: %s>" % (os.path.basename(self.filename),
                                         ", ".join(sorted(self.fields)) or "no fields")
