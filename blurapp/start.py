"""The `blurapp` program's first step, before anything heavy is imported: on Linux, start again
once with glibc asked to back large blocks of memory with huge pages; then the command line.

XLA allocates every result afresh, and Linux (where it leaves huge pages to programs that ask,
as Debian and Ubuntu do) hands that memory over in 4 KiB pages that each fault in on first
write: on a large photo, more than a 9-tap blur itself. `GLIBC_TUNABLES` is read when a
process starts, so it is set here and the same command started again at once (NumPy already
asks for huge pages for its own arrays). BLURAPP_HUGE_PAGES=0 turns it off.
"""

from __future__ import annotations

import contextlib
import os
import sys

HUGE_PAGES = "glibc.malloc.hugetlb=1"
# The first glibc that knows the tunable (older ones ignore it: no restart for nothing).
HUGE_PAGES_GLIBC = (2, 35)


def main() -> int:
    restart_with_huge_pages()
    # after the restart: nothing heavy is imported before execv replaces this process
    from blurapp.cli import main as command_line

    return command_line()


def restart_with_huge_pages() -> None:
    """Start this same command again with HUGE_PAGES set, when that can help and is safe:
    nothing when it is set already, off Linux, on a glibc without it, in a frozen build, with
    BLURAPP_HUGE_PAGES=0, for --help or --version, or when Python was started any other way
    than `blurapp …` or `python -m blurapp …` (code from `-c` or stdin would run twice, or be
    gone)."""
    tunables = os.environ.get("GLIBC_TUNABLES", "")
    arguments = sys.argv[1:]
    if (
        not sys.platform.startswith("linux")
        or "glibc.malloc.hugetlb" in tunables
        or os.environ.get("BLURAPP_HUGE_PAGES") == "0"
        or getattr(sys, "frozen", False)
        or not _glibc_knows_huge_pages()
        or any(word in {"-h", "--help", "--version"} for word in arguments)
        or not _started_as_a_command(sys.orig_argv)
    ):
        return
    os.environ["GLIBC_TUNABLES"] = f"{tunables}:{HUGE_PAGES}" if tunables else HUGE_PAGES
    sys.stdout.flush()
    sys.stderr.flush()
    with contextlib.suppress(OSError):  # then without: slower on large photos, nothing else
        os.execv(sys.executable, sys.orig_argv)


def _glibc_knows_huge_pages() -> bool:
    try:
        # None: the system does not say (then not glibc either).
        name, version = (os.confstr("CS_GNU_LIBC_VERSION") or "").split()
        major, minor = (int(part) for part in version.split(".")[:2])
    except (AttributeError, OSError, ValueError, TypeError):
        return False  # not glibc (musl, say)
    return name == "glibc" and (major, minor) >= HUGE_PAGES_GLIBC


def _started_as_a_command(orig_argv: list[str]) -> bool:
    """`python -m blurapp …`, or the `blurapp` script (`python /path/to/blurapp …`)."""
    if orig_argv[1:3] == ["-m", "blurapp"]:
        return True
    return len(orig_argv) > 1 and not orig_argv[1].startswith("-") and os.path.isfile(orig_argv[1])
