"""Reads the docstrings of the typing stub (__init__.pyi), their one source, for the compiled
module, which gives them to help() and __doc__. Keys: 'Class', 'Class.member', 'function'."""

from __future__ import annotations

import ast
import os


def _doc_of(node: ast.AST) -> str | None:
    return ast.get_docstring(node, clean=True)  # type: ignore[arg-type]


def load() -> dict[str, str]:
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "__init__.pyi")
    try:
        with open(path, encoding="utf-8") as f:
            tree = ast.parse(f.read(), filename=path)
    except OSError:
        return {}
    docs: dict[str, str] = {}

    def put(key: str, doc: str | None) -> None:
        if doc and key not in docs:  # the first of several overloads that has one
            docs[key] = doc

    for node in tree.body:
        if isinstance(node, ast.ClassDef):
            put(node.name, _doc_of(node))
            body = node.body
            for i, item in enumerate(body):
                if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    put(f"{node.name}.{item.name}", _doc_of(item))
                elif isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name):
                    # An attribute's docstring: the string expression right after it.
                    nxt = body[i + 1] if i + 1 < len(body) else None
                    if (isinstance(nxt, ast.Expr) and isinstance(nxt.value, ast.Constant)
                            and isinstance(nxt.value.value, str)):
                        put(f"{node.name}.{item.target.id}", ast.get_docstring(
                            ast.Module(body=[nxt], type_ignores=[]), clean=True))
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            put(node.name, _doc_of(node))
    return docs
