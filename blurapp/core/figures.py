"""The figures of a comparison in words, the same in the command line and the window."""

from __future__ import annotations

from blurapp.core.comparison import TOLERANCE, ComparisonResult
from blurapp.core.jax_engine import Compilation
from blurapp.core.kernel import Algorithm

FIRST_CALL_NOTES = {
    Compilation.COMPILED: "includes compilation",
    Compilation.FROM_CACHE: "program loaded from the compilation cache",
    Compilation.REUSED: "already compiled",
}


def describe_kernel(size: int, sigma: float, algorithm: Algorithm) -> str:
    """'9 × 9, sigma 2.5' for the 2-D algorithm; separable adds how it is applied."""
    text = f"{size} × {size}, sigma {sigma:g}"
    return text if algorithm == "2d" else f"{text}, separable ({size} + {size} taps)"


def format_ms(seconds: float) -> str:
    """Seconds as milliseconds with about three significant digits: '1,532 ms', '4.21 ms'."""
    ms = seconds * 1000
    if ms >= 100:
        return f"{ms:,.0f} ms"
    if ms >= 10:
        return f"{ms:.1f} ms"
    if ms >= 1:
        return f"{ms:.2f} ms"
    return f"{ms:.3f} ms"


def format_speedup(speedup: float | None) -> str:
    if speedup is None:
        return "—"
    return f"{speedup:,.0f}×" if speedup >= 100 else f"{speedup:.1f}×"


def format_difference(result: ComparisonResult) -> str:
    """'2.4e-07 (0.00006 levels of 255), within 1e-5'."""
    diff = result.max_abs_diff
    if diff is None:
        return "—"
    verdict = "within" if diff <= TOLERANCE else "NOT within"
    return f"{diff:.2g} ({diff * 255:.2g} of 255 levels), {verdict} {TOLERANCE:g}"


def format_megapixels(width: int, height: int) -> str:
    return f"{width} × {height} ({width * height / 1e6:.2f} MP)"


def comparison_lines(
    result: ComparisonResult, image_label: str, width: int, height: int
) -> list[tuple[str, str]]:
    """(name, value) rows describing a comparison, in the order a reader wants them."""
    rows = [
        ("image", f"{image_label}, {format_megapixels(width, height)}"),
        ("kernel", describe_kernel(result.kernel_size, result.sigma, result.algorithm)),
    ]
    if result.numpy is not None:
        rows.append(("NumPy", format_ms(result.numpy.seconds)))
    if result.jax is not None:
        jax = result.jax
        first = FIRST_CALL_NOTES[jax.compilation]
        rows += [
            ("JAX first call", f"{format_ms(jax.first_call_seconds)} ({first})"),
            ("JAX steady", f"{format_ms(jax.seconds)} (median of {len(jax.repeat_seconds)})"),
            ("speedup", f"{format_speedup(result.speedup)} (NumPy ÷ JAX steady)"),
            (
                "transfers",
                f"to device {format_ms(jax.to_device_seconds)}, "
                f"from device {format_ms(jax.from_device_seconds)}",
            ),
            ("max abs diff", format_difference(result)),
            ("device", jax.device),
        ]
    elif result.jax_error is not None:
        rows.append(("JAX", f"unavailable: {result.jax_error}"))
    return rows
