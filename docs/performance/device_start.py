"""How long a window's thread is kept from running while another thread starts JAX on its
device, as the window's warm-up does (docs/performance.md, "The window, the commands and the
host"). The main thread ticks every millisecond while the other imports JAX, opens the default
device and makes one jitted call; the longest gaps between ticks are how long the main thread
could not run: a window's event loop stalls as long.

    python docs/performance/device_start.py   # on the machine with the accelerator
"""

import threading
import time

steps = {}


def start_jax():
    began = time.perf_counter()
    import jax

    steps["import jax"] = time.perf_counter() - began
    began = time.perf_counter()
    jax.devices()
    steps["open the device"] = time.perf_counter() - began
    began = time.perf_counter()
    jax.jit(lambda x: x + 1)(1.0).block_until_ready()
    steps["first jitted call"] = time.perf_counter() - began


starting = threading.Thread(target=start_jax)
last, gaps = time.perf_counter(), []
starting.start()
while starting.is_alive():
    time.sleep(0.001)
    now = time.perf_counter()
    gaps.append(now - last)
    last = now
print("the starting thread (ms):", {step: round(s * 1000) for step, s in steps.items()})
print("the main thread's longest gaps (ms):", [round(g * 1000) for g in sorted(gaps)[-5:][::-1]])
