"""`blurapp bench`'s figures as text: the engines table and the other sections, line by line.

The command line prints these lines; `--json` prints the figures themselves instead.
"""

from __future__ import annotations


def _ms(seconds: float | None) -> str:
    return "—" if seconds is None else f"{seconds * 1000:,.1f} ms"


def _mb(size: int | None) -> str:
    return "— (failed)" if size is None else f"{size / 1e6:,.0f} MB"


def section_lines(name: str, figures: dict) -> list[str]:
    """A section of `blurapp bench` (other than the engines table) as lines of text."""
    lines = [""]
    if name == "yardsticks":
        mp, k = figures["megapixels"], figures["kernel_size"]
        lines.append(f"yardsticks ({mp:.0f} MP, {k}×{k}, 2d):")
        lines.append(f"  NumPy engine          {_ms(figures['numpy_seconds'])}")
        lines.append(f"  JAX engine, steady    {_ms(figures['jax_seconds'])}")
        if figures["opencv_seconds"] is None:
            lines.append("  OpenCV filter2D       — (opencv-python-headless is not installed)")
        else:
            note = f"OpenCV {figures['opencv']}, BORDER_REPLICATE"
            if figures["jax_seconds"] is not None:
                ratio = figures["jax_seconds"] / figures["opencv_seconds"]
                note += f"; JAX is {ratio:.1f}× its time"
            lines.append(f"  OpenCV filter2D       {_ms(figures['opencv_seconds'])} ({note})")
        lines.append(f"  plain copy of image   {_ms(figures['copy_seconds'])}")
    elif name == "first-call":
        lines.append("first call across launches (JAX's persistent compilation cache):")
        for label, launch in (
            ("bundled photo", figures["sample"]),
            ("large photo", figures["large"]),
        ):
            if "error" in launch:
                lines.append(f"  {label:<14} — (JAX unavailable: {launch['error']})")
                continue
            lines.append(
                f"  {label:<14} first launch {_ms(launch['first_launch_seconds'])} "
                f"({launch['first_launch']}), second {_ms(launch['second_launch_seconds'])} "
                f"({launch['second_launch']}): {launch['ratio']:.0%}"
            )
    elif name == "startup":
        if "error" in figures:
            lines.append(f"start-up: {figures['error']}")
            return lines
        lines.append(f"start-up (median of {figures['runs']} launches):")
        lines.append(
            f"  window shown          {_ms(figures['window_shown_seconds'])} after launch "
            f"(jax imported before: {'yes' if figures['jax_imported_before_shown'] else 'no'})"
        )
        lines.append(f"  blurapp --version     {_ms(figures['version_seconds'])}")
    elif name == "window":
        if "error" in figures:
            lines.append(f"window: the probe failed: {figures['error']}")
            return lines
        repaint = figures["repaint_both_panes_seconds"]
        lines.append(f"window ({figures['megapixels']:.0f} MP photo, offscreen, 10 ms timer):")
        lines.append(
            f"  longest stall during a comparison   {_ms(figures['longest_stall_seconds'])}"
        )
        lines.append(
            "  longest stall while starting        "
            f"{_ms(figures['longest_stall_while_starting_seconds'])} (photo load, JAX import)"
        )
        lines.append(
            "  worker result → both panes painted  "
            f"{_ms(figures['result_to_both_panes_painted_seconds'])}"
        )
        lines.append(
            f"  repaint both panes                  fit {_ms(repaint['fit'])}, "
            f"100% {_ms(repaint['100%'])}, after a pan {_ms(repaint['panned'])}"
        )
    elif name == "memory":
        lines.append("memory (peak resident set):")
        lines.append(f"  blurapp compare on the large photo  {_mb(figures['compare_peak_bytes'])}")
        lines.append(
            f"  a {figures['big_megapixels']:g} MP comparison (core)      "
            f"{_mb(figures['big_peak_bytes'])}"
        )
    return lines


_BENCH_COLUMNS = (
    ("size", 11),
    ("MP", 5),
    ("kernel", 7),
    ("algorithm", 9),
    ("NumPy ms", 10),
    ("eager ms", 10),
    ("JAX 1st ms", 11),
    ("JAX ms", 9),
    ("speedup", 8),
    ("max abs diff", 12),
)


def header_lines(machine: dict) -> list[str]:
    return [f"machine: {machine['description']}", f"JAX device: {machine['jax_device']}"]


def column_lines() -> list[str]:
    return [
        "  ".join(f"{name:>{width}}" for name, width in _BENCH_COLUMNS),
        "  (eager: JAX without jit, one steady call; JAX: JAX-jit; speedup: NumPy ÷ JAX-jit)",
    ]


def row_line(row: dict) -> str:
    """One row of the engines table."""

    def ms(engine: str, figure: str = "seconds") -> str:
        seconds = row.get(engine, {}).get(figure)
        return "—" if seconds is None else f"{seconds * 1000:,.1f}"

    speedup = row["speedup"]
    diff = row["max_abs_diff"]
    kernel = row["kernel"]["size"]
    cells = (
        f"{row['width']}×{row['height']}",
        f"{row['megapixels']:.1f}",
        f"{kernel}×{kernel}",
        row["kernel"]["algorithm"],
        ms("numpy"),
        ms("jax_eager"),
        ms("jax", "first_call_seconds"),
        ms("jax"),
        "—" if speedup is None else f"{speedup:.1f}×",
        "—" if diff is None else f"{diff:.1e}",
    )
    return "  ".join(
        f"{cell:>{width}}" for cell, (_, width) in zip(cells, _BENCH_COLUMNS, strict=True)
    )
