"""Worker counts as the frameworks document their defaults: small expressions over the
host's CPU count, such as "2 * cpus", "max(4, cpus)" or "8 * max(2, cpus)". Pure."""

from __future__ import annotations

import ast

CPUS = "cpus"
_FUNCTIONS = {"max": max, "min": min}


class WorkerCountError(ValueError):
    """An expression that is not a worker count: the message says why."""


def worker_count(expression: str, cpus: int) -> int:
    """The count the expression gives on a host with `cpus` CPUs (at least 1)."""
    try:
        tree = ast.parse(expression.strip(), mode="eval")
    except SyntaxError as error:
        raise WorkerCountError(f"{expression!r} is not an expression") from error
    value = _evaluate(tree.body, cpus, expression)
    if value < 1:
        raise WorkerCountError(f"{expression!r} gives {value} workers on {cpus} CPUs")
    return value


def _evaluate(node: ast.AST, cpus: int, expression: str) -> int:
    if isinstance(node, ast.Constant) and isinstance(node.value, int):
        return node.value
    if isinstance(node, ast.Name) and node.id == CPUS:
        return cpus
    if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Mult, ast.Add)):
        left, right = (_evaluate(side, cpus, expression) for side in (node.left, node.right))
        return left * right if isinstance(node.op, ast.Mult) else left + right
    if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
            and node.func.id in _FUNCTIONS and node.args and not node.keywords):
        return _FUNCTIONS[node.func.id](_evaluate(arg, cpus, expression) for arg in node.args)
    raise WorkerCountError(f"{expression!r}: only whole numbers, {CPUS}, +, * and "
                           f"max()/min() are allowed")
