"""How long a window's thread is kept from running while another thread starts JAX on its
device, as the window's warm-up does where JAX opens no TPU (docs/performance.md, "The window,
the commands and the host there"), and which step of the start keeps it: the main thread ticks
every millisecond while the other imports JAX, opens the default device and makes one jitted
call; the longest gaps between ticks are how long the main thread could not run (a window's
event loop stalls as long), each with the step the other thread was in when it ended. A step
whose gaps are long holds Python's lock: the window does it before it is shown.

    python docs/performance/device_start.py   # on the machine with the accelerator

Prints the steps' times and the longest gaps, and writes them to "$OUT/device_start.json"
(/tmp when OUT is unset).
"""

import json
import os
import threading
import time
from pathlib import Path

steps: dict[str, float] = {}
step = ["starting the thread"]  # the step the starting thread is in now


def start_jax() -> None:
    def timed(name, work):
        step[0] = name
        began = time.perf_counter()
        work()
        steps[name] = time.perf_counter() - began

    jax = {}
    timed("import jax", lambda: jax.setdefault("jax", __import__("jax")))
    timed("open the device", lambda: jax["jax"].devices())
    call = jax["jax"].jit(lambda x: x + 1)
    timed("first jitted call", lambda: call(1.0).block_until_ready())
    step[0] = "done"


starting = threading.Thread(target=start_jax)
last, gaps = time.perf_counter(), []
starting.start()
while starting.is_alive():
    time.sleep(0.001)
    now = time.perf_counter()
    gaps.append((now - last, step[0]))
    last = now
longest = sorted(gaps, reverse=True)[:5]
report = {
    "steps_ms": {name: round(seconds * 1000) for name, seconds in steps.items()},
    "longest_gaps_ms": [{"ms": round(gap * 1000), "step": name} for gap, name in longest],
    "longest_gap_ms_by_step": {
        name: round(max(gap for gap, in_step in gaps if in_step == name) * 1000)
        for name in dict.fromkeys(name for _, name in gaps)
    },
}
print("the starting thread (ms):", report["steps_ms"])
print("the main thread's longest gaps (ms, the step they ended in):")
for gap in report["longest_gaps_ms"]:
    print(f"  {gap['ms']:>6}  {gap['step']}")
print("the longest gap in each step (ms):", report["longest_gap_ms_by_step"])
out = Path(os.environ.get("OUT") or "/tmp") / "device_start.json"
out.write_text(json.dumps(report, indent=2) + "\n")
print(f"wrote {out}")
