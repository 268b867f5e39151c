"""How many loops a traced JAX program holds: where a program goes strip by strip or frame by
frame (lax.map, a scan) and where in one pass, the values are the same, and its loops are what
tells them apart."""

from typing import Any


def loops_in(function: Any, *arguments: Any, **static: Any) -> int:
    """The loops (scans and while loops, at any depth) of `function` traced for `arguments`,
    its keyword arguments static."""
    import jax

    closed = jax.make_jaxpr(lambda *values: function(*values, **static))(*arguments)
    return _count(closed.jaxpr)


def _count(jaxpr: Any) -> int:
    loops = 0
    for equation in jaxpr.eqns:
        if equation.primitive.name in {"scan", "while"}:
            loops += 1
        for value in equation.params.values():
            for inner in value if isinstance(value, (list, tuple)) else [value]:
                inner = getattr(inner, "jaxpr", inner)  # a ClosedJaxpr's own
                if hasattr(inner, "eqns"):
                    loops += _count(inner)
    return loops
