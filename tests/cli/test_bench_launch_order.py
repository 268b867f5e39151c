"""`blurapp bench`'s sections that launch BlurApp run before the bench's own process first uses
JAX's device: on a TPU one process at a time may hold the chip, and a launch that found it held
could not start JAX."""

import json

import jax
import pytest

import blurapp.bench as bench
from blurapp.cli import main
from blurapp.core.engines.jax_runtime import describe_device, jax_device


def test_the_launching_sections_are_told_apart_from_those_in_the_bench_process():
    launching, staying = bench.launching_first(
        ["engines", "first-call", "yardsticks", "window", "video", "startup", "memory"]
    )
    assert launching == ["first-call", "window", "startup", "memory"]
    assert staying == ["engines", "yardsticks", "video"]


@pytest.mark.parametrize("sections", [["engines", "first-call", "startup"], ["first-call"]])
def test_the_launches_come_before_the_bench_first_uses_jaxs_device(monkeypatch, capsys, sections):
    events: list[str] = []
    devices = jax.devices

    def watched_devices(*args, **kwargs):
        events.append("device")
        return devices(*args, **kwargs)

    def launch(name):
        def section(*args, **kwargs):
            events.append(name)
            return {"error": f"{name} stood in for"}  # a section's figures when it fails

        return section

    # Every use of the device by BlurApp asks JAX for it first (jax_runtime.jax_device); the
    # sections' launches are stood in for by what they would record.
    monkeypatch.setattr(jax, "devices", watched_devices)
    monkeypatch.setattr(bench, "first_call", launch("first-call"))
    monkeypatch.setattr(bench, "startup", launch("startup"))
    command = ["bench", "--sections", *sections, "--megapixels", "0.01", "--kernel-sizes", "3",
               "--engines", "numpy,jax", "--repeat", "1", "--json"]  # fmt: skip
    assert main(command) == 0
    report = json.loads(capsys.readouterr().out)
    # The device was used (the record names it), and only after every launch.
    assert "device" in events
    first_use = events.index("device")
    launched = [event for event in events if event != "device"]
    assert launched and all(events.index(name) < first_use for name in launched)
    assert report["machine"]["jax_device"] == describe_device(jax_device())
    stood_in = {"error": "first-call stood in for"}
    assert report["first-call"] == {"sample": stood_in, "large": stood_in}
    if "engines" in sections:
        assert report["results"] and report["results"][0]["jax"]["seconds"] > 0
