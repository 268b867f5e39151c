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
    `platform` knows (an architecture at least)."""
    return cpu_model() or platform.processor() or platform.machine()


def cpu_model() -> str | None:
    """The CPU's model as its maker names it ("AMD EPYC 7763 64-Core Processor"), or None."""
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
            for line in cpuinfo:
                if line.startswith("model name"):  # x86; most ARM kernels name no model
                    return line.split(":", 1)[1].strip() or None
    except OSError:
        pass
    return None


def memory_bytes() -> int | None:
    """The machine's physical memory in bytes, or None where the system does not tell."""
    import psutil

    try:
        return int(psutil.virtual_memory().total)
    except (OSError, RuntimeError, psutil.Error):
        return None
