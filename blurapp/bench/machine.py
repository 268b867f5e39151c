"""What a bench record says of the machine it ran on: the CPU's model and the memory.

psutil tells the memory on every system. No library tells the CPU's model well: psutil has no
such call, `platform.processor()` is empty on Linux and gives a family number on Windows, and
py-cpuinfo starts a subprocess to probe the CPU. Each system keeps the name in one place, read
here: /proc/cpuinfo on Linux, sysctl on macOS, the registry on Windows.
"""

from __future__ import annotations

import platform
import subprocess
import sys


def cpu_name() -> str:
    """The CPU as a bench record names it: its model where the system tells it, else what
    the system tells of it (its maker, family and model numbers), else its architecture."""
    return cpu_model() or platform.processor() or platform.machine()


def cpu_model() -> str | None:
    """The CPU's model as its maker names it ("AMD EPYC 7763 64-Core Processor"); on Linux
    where the kernel has no name for it (a virtual machine's "unknown"), its maker, family and
    model numbers; None where the system tells nothing."""
    if sys.platform == "darwin":
        try:
            run = subprocess.run(
                ["sysctl", "-n", "machdep.cpu.brand_string"],
                capture_output=True,
                text=True,
                timeout=10,
            )
        except (OSError, subprocess.SubprocessError):
            return None
        return run.stdout.strip() or None
    if sys.platform == "win32":
        import winreg

        try:
            with winreg.OpenKey(
                winreg.HKEY_LOCAL_MACHINE, r"HARDWARE\DESCRIPTION\System\CentralProcessor\0"
            ) as key:
                return str(winreg.QueryValueEx(key, "ProcessorNameString")[0]).strip() or None
        except OSError:
            return None
    try:
        with open("/proc/cpuinfo", encoding="utf-8", errors="replace") as cpuinfo:
            return cpu_from_cpuinfo(cpuinfo.read())
    except OSError:
        return None


# The makers as /proc/cpuinfo's vendor_id (x86) or "CPU implementer" (ARM) names them.
_MAKERS = {
    "AuthenticAMD": "AMD",
    "GenuineIntel": "Intel",
    "HygonGenuine": "Hygon",
    "CentaurHauls": "Centaur",
    "0x41": "Arm",
    "0x51": "Qualcomm",
    "0x61": "Apple",
    "0xc0": "Ampere",
}


def cpu_from_cpuinfo(text: str) -> str | None:
    """The first CPU of a /proc/cpuinfo text: its model name ("AMD EPYC 7763 64-Core
    Processor"); where the kernel gives none, or "unknown" (under some hypervisors), what it
    does give: "AMD CPU, family 175, model 17"; an ARM's "Arm CPU, part 0xd0c". None where it
    tells nothing of the CPU."""
    fields: dict[str, str] = {}
    for line in text.splitlines():
        if not line.strip():
            if fields:
                break  # the first processor's block is enough
            continue
        key, _, value = line.partition(":")
        fields.setdefault(key.strip().lower(), value.strip())
    name = fields.get("model name", "")
    if name and name.lower() not in {"unknown", "-"}:
        return name
    vendor = fields.get("vendor_id") or fields.get("cpu implementer")
    numbers = [
        f"{label} {fields[key]}"
        for key, label in (("cpu family", "family"), ("model", "model"), ("cpu part", "part"))
        if fields.get(key)
    ]
    if not vendor and not numbers:
        return None
    maker = f"{_MAKERS.get(vendor, vendor)} CPU" if vendor else "CPU"
    return ", ".join([maker, *numbers])


def memory_bytes() -> int | None:
    """The machine's physical memory in bytes, or None where the system does not tell."""
    import psutil

    try:
        return int(psutil.virtual_memory().total)
    except (OSError, RuntimeError, psutil.Error):
        return None
