"""How fast a picture's bytes cross between the host and JAX's device in each layout, both
ways: the 2-D array as the engines moved it before blurapp.core.engines.host_link, the flat
bytes whole, the flat bytes in 4, 8, 16 and 32 pieces (every piece's copy started before any is
waited for), the same bytes seen as 2-D uint32, and host_link itself (its pieces joined and
shaped on the device going, flattened and cut there coming back) at each count and at its own.
Pictures as the engines move them: rows of 8-bit values (a 24 MP grey photo, a 24 MP colour
one, a 4K colour frame in a batch of one) and a 2 MP grey photo, where a piece's call costs
most. Medians of 7, in ms and GB/s; each copy back is of an array made afresh on the device
(JAX keeps what it fetched once, and would hand it back again at no cost).

    python docs/performance/host_link.py           # writes $OUT/host_link.json (or /tmp)
    python docs/performance/host_link.py --small   # small pictures: a quick check on any machine

It prints the piece count that was quickest each way over the three large pictures, from which
host_link.LINK_PIECES is set.
"""

import argparse
import itertools
import json
import os
import statistics
import time
from collections.abc import Callable
from pathlib import Path

import jax
import numpy as np

from blurapp.core.engines import host_link

PICTURES = {
    "grey24": (4000, 6000),
    "colour24": (4000, 6000 * 3),
    "frame4k": (1, 2160, 3840 * 3),
    "grey2": (1080, 1920),
}
SMALL_PICTURES = {
    "grey24": (40, 60),
    "colour24": (40, 60 * 3),
    "frame4k": (1, 22, 38 * 3),
    "grey2": (11, 19),
}
# The pictures whose sum picks the quickest piece count: the large ones.
CHOOSING = ("grey24", "colour24", "frame4k")
PIECE_COUNTS = (4, 8, 16, 32)
TIMES = 7


def milliseconds(step: Callable[[object], object], setup: Callable[[], object]) -> float:
    """The median of TIMES runs of `step(setup())`, `setup` untimed, in milliseconds."""
    seconds = []
    for _ in range(TIMES):
        made = setup()
        start = time.perf_counter()
        step(made)
        seconds.append(time.perf_counter() - start)
    return statistics.median(seconds) * 1000


def pieces_of(flat: np.ndarray, count: int) -> list[np.ndarray]:
    edges = host_link.piece_edges(flat.size, flat.itemsize, count)
    return [flat[start:end] for start, end in itertools.pairwise(edges)]


def put_all(parts: list[np.ndarray], device) -> list:
    """Every part's copy started, then all waited for."""
    return jax.block_until_ready([jax.device_put(part, device) for part in parts])


def gather(parts_on_device: list, size: int, dtype) -> np.ndarray:
    """Every part's copy back started, then each gathered into one host array."""
    for part in parts_on_device:
        part.copy_to_host_async()
    host = np.empty(size, dtype)
    start = 0
    for part in parts_on_device:
        values = np.asarray(part)
        host[start : start + values.size] = values
        start += values.size
    return host


def ways(host: np.ndarray, device) -> dict[str, tuple[Callable, Callable, Callable, Callable]]:
    """Each way of crossing: (to the device, what it is given, back to the host, what it is
    given: a fresh array on the device)."""
    flat = host.reshape(-1)

    def fresh(values):
        return lambda: jax.block_until_ready(jax.device_put(values, device))

    def none():
        return None

    found = {
        "2-D as the engines did": (
            lambda _: jax.block_until_ready(jax.device_put(host, device)),
            none,
            lambda on_device: np.asarray(jax.device_get(on_device)),
            fresh(host),
        ),
        "1-D whole": (
            lambda _: jax.block_until_ready(jax.device_put(flat, device)),
            none,
            lambda on_device: np.asarray(jax.device_get(on_device)),
            fresh(flat),
        ),
    }
    for count in PIECE_COUNTS:
        parts = pieces_of(flat, count)
        found[f"1-D in {count} pieces"] = (
            lambda _, parts=parts: put_all(parts, device),
            none,
            lambda on_device: gather(on_device, flat.size, flat.dtype),
            lambda parts=parts: put_all(parts, device),
        )
    if host.shape[-1] % 4 == 0 and host.dtype == np.uint8:
        as_words = host.view(np.uint32)
        found["2-D as uint32"] = (
            lambda _: jax.block_until_ready(jax.device_put(as_words, device)),
            none,
            lambda on_device: np.asarray(jax.device_get(on_device)),
            fresh(as_words),
        )
    for count in (1, *PIECE_COUNTS, None):
        name = "host_link" if count is None else f"host_link in {count}"
        host_link.prepare_send(jax, host.shape, host.dtype, device, pieces=count)
        host_link.prepare_fetch(jax, host.shape, host.dtype, device, pieces=count)
        found[name] = (
            lambda _, count=count: jax.block_until_ready(
                host_link.send(jax, host, device, pieces=count)
            ),
            none,
            lambda on_device, count=count: host_link.fetch(jax, on_device, pieces=count),
            fresh(host),
        )
    return found


def picture_figures(shape: tuple[int, ...], device, rng) -> dict:
    host = rng.integers(0, 256, shape, dtype=np.uint8)
    # host_link's own pieces, both ways, give the picture back as it was.
    there = jax.block_until_ready(host_link.send(jax, host, device))
    assert np.array_equal(host_link.fetch(jax, there), host), "host_link changed the picture"
    figures = {
        "shape": list(shape),
        "bytes": host.nbytes,
        "host_link_pieces": host_link.pieces_for(host.nbytes, device),
    }
    for name, (to, to_setup, back, back_setup) in ways(host, device).items():
        to_ms, back_ms = milliseconds(to, to_setup), milliseconds(back, back_setup)
        figures[name] = {
            "to_ms": round(to_ms, 3),
            "to_gb_s": round(host.nbytes / to_ms / 1e6, 2),
            "back_ms": round(back_ms, 3),
            "back_gb_s": round(host.nbytes / back_ms / 1e6, 2),
        }
    return figures


def quickest_counts(found: dict) -> dict[str, int]:
    """The piece count host_link was quickest at each way, its times summed over CHOOSING."""
    quickest = {}
    for way in ("to_ms", "back_ms"):
        totals = {
            count: sum(found[label][f"host_link in {count}"][way] for label in CHOOSING)
            for count in (1, *PIECE_COUNTS)
        }
        quickest[way.removesuffix("_ms")] = min(totals, key=totals.__getitem__)
    return quickest


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--small", action="store_true", help="small pictures, a quick check")
    arguments = parser.parse_args()
    device = jax.devices()[0]
    print("jax", jax.__version__, "device", device.platform, device.device_kind, flush=True)
    rng = np.random.default_rng(0)
    pictures = SMALL_PICTURES if arguments.small else PICTURES
    found: dict = {
        "jax": jax.__version__,
        "device": f"{device.platform}: {device.device_kind}",
        "small": arguments.small,
        "times": TIMES,
        "link_pieces": host_link.LINK_PIECES,
        "min_piece_bytes": host_link.MIN_PIECE_BYTES,
    }
    for label, shape in pictures.items():
        found[label] = picture_figures(shape, device, rng)
        print(f"\n{label} {shape} uint8, {found[label]['bytes'] / 1e6:.1f} MB")
        print(f"  {'':26} {'to ms':>8} {'GB/s':>6} {'back ms':>8} {'GB/s':>6}")
        for name, figures in found[label].items():
            if isinstance(figures, dict):
                print(
                    f"  {name:26} {figures['to_ms']:8.3f} {figures['to_gb_s']:6.2f}"
                    f" {figures['back_ms']:8.3f} {figures['back_gb_s']:6.2f}",
                    flush=True,
                )
    found["quickest_pieces"] = quickest_counts(found)
    print(
        f"\nhost_link quickest (pieces, summed over {', '.join(CHOOSING)}): "
        f"to the device {found['quickest_pieces']['to']}, back {found['quickest_pieces']['back']}; "
        f"LINK_PIECES is {host_link.LINK_PIECES}"
    )
    out = Path(os.environ.get("OUT", "/tmp")) / "host_link.json"
    out.write_text(json.dumps(found, indent=1), encoding="utf-8")
    print("written", out)


if __name__ == "__main__":
    main()
