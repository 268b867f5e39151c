"""The `blurapp` program's first step, before anything heavy is imported: on Linux, start again
once with glibc's memory settings for large blocks; then the command line.

XLA allocates every result afresh, and Linux (where it leaves huge pages to programs that ask,
as Debian and Ubuntu do) hands that memory over in 4 KiB pages that each fault in on first
write: on a large photo, more than a 9-tap blur itself. So glibc is asked to back large blocks
with huge pages. Where JAX will open a TPU, glibc is also asked to keep freed blocks for reuse
rather than hand them back: the blur runs on the chip, and the host's part of a large photo's
end to end, its copies into memory, is quicker in memory touched before (on a TPU's host, a
24 MP colour photo's end to end speed-up more than doubled; docs/performance.md, "Glibc keeping
freed memory, in colour"). On a CPU the same request made JAX-jit's colour blur slower
(docs/performance.md, "Huge pages"), so there only blocks of a clip's frame's size are kept.
`GLIBC_TUNABLES` is read when a process starts, so it is set here and the same command started
again at once (NumPy already asks for huge pages for its own arrays).
BLURAPP_HUGE_PAGES=0 turns the restart off.
"""

from __future__ import annotations

import contextlib
import os
import sys

from blurapp.core.platforms import platform_jax_opens

HUGE_PAGES = "glibc.malloc.hugetlb=1"
# The heap handed back to the system only once 4 GB of it is free: the blocks kept below reuse it.
HEAP_KEPT = "glibc.malloc.trim_threshold=4294967296"
# Blocks up to 2 GB come from glibc's heap rather than their own mapping, the heap kept
# (HEAP_KEPT): a 24 MP colour photo's buffers (72 to 288 MB) are reused.
# Those thresholds govern the main heap; another thread's arena gives a block over 64 MB a
# mapping of its own whatever they say. One arena for every thread puts the window's jobs,
# which run on a thread of their own, under them too: its Run then times NumPy as `compare`
# does (docs/performance.md, "The window's figures and compare's").
FREED_MEMORY_KEPT = (
    "glibc.malloc.mmap_threshold=2147483648",
    HEAP_KEPT,
    "glibc.malloc.arena_max=1",
)
# Elsewhere (JAX on the host's CPU) blocks up to 32 MB, where glibc's own moving threshold
# stops, come from its heap from the start, the heap kept (HEAP_KEPT): a clip's frames (a 1080p
# frame's floats are 8 MB), each blurred into buffers of its own, reuse those of the frames
# before, where glibc handed them back and each frame faulted them in again (JAX-jit's pane
# showed about a fifth more of a 1080p clip's frames on a machine of two cores;
# docs/performance.md, "A clip playing on two cores"). A photo's larger blocks keep mappings of
# their own: reused, they made JAX-jit's colour blur slower there ("Huge pages").
MEDIUM_BLOCKS_KEPT = (
    "glibc.malloc.mmap_threshold=33554432",
    HEAP_KEPT,
)
# The same settings as glibc's older variables: one a user has set is theirs, not replaced.
_OLDER_NAMES = {
    "glibc.malloc.mmap_threshold": "MALLOC_MMAP_THRESHOLD_",
    "glibc.malloc.trim_threshold": "MALLOC_TRIM_THRESHOLD_",
    "glibc.malloc.arena_max": "MALLOC_ARENA_MAX",
}
# The first glibc that knows the tunable (older ones ignore it: no restart for nothing).
HUGE_PAGES_GLIBC = (2, 35)
# The GLIBC_TUNABLES a restart asked for, handed to the restarted command: where glibc drops
# them before it starts (a set-user-ID Python, whose environment glibc cleans), the command
# would otherwise start itself again and again.
RESTARTED_WITH = "BLURAPP_RESTARTED_WITH"


def main() -> int:
    restart_with_memory_settings()
    # after the restart: nothing heavy is imported before execv replaces this process
    from blurapp.cli import main as command_line

    return command_line()


def memory_settings() -> tuple[str, ...]:
    """The glibc tunables BlurApp starts with here: huge pages, and where JAX will open a TPU,
    freed blocks kept for reuse, by every thread; elsewhere freed blocks of a frame's size."""
    opened = platform_jax_opens()
    keeps_freed = opened is not None and opened.keeps_freed_memory
    return (HUGE_PAGES, *(FREED_MEMORY_KEPT if keeps_freed else MEDIUM_BLOCKS_KEPT))


def restart_with_memory_settings() -> None:
    """Start this same command again with memory_settings() added to GLIBC_TUNABLES, when that
    can help and is safe: nothing when each is set already (by the user, their own value
    kept, or by the restart before) or was asked for by the restart before and dropped by
    glibc (RESTARTED_WITH), off Linux, on a glibc without huge pages, in a frozen
    build, with BLURAPP_HUGE_PAGES=0, for --help or --version, or when Python was started any
    other way than `blurapp …` or `python -m blurapp …` (code from `-c` or stdin would run
    twice, or be gone)."""
    if (
        not sys.platform.startswith("linux")
        or os.environ.get("BLURAPP_HUGE_PAGES") == "0"
        or getattr(sys, "frozen", False)
        or not _glibc_knows_huge_pages()
        or any(word in {"-h", "--help", "--version"} for word in sys.argv[1:])
        or not _started_as_a_command(sys.orig_argv)
    ):
        return
    tunables = os.environ.get("GLIBC_TUNABLES", "").strip(":")
    named = {item.partition("=")[0] for item in tunables.split(":") if item}
    missing = [
        setting
        for setting in memory_settings()
        if (name := setting.partition("=")[0]) not in named
        and not (name in _OLDER_NAMES and _OLDER_NAMES[name] in os.environ)
    ]
    wanted = ":".join(filter(None, (tunables, *missing)))
    if not missing or os.environ.get(RESTARTED_WITH) == wanted:
        return  # set; or asked for once already, and glibc dropped them: run without
    os.environ["GLIBC_TUNABLES"] = os.environ[RESTARTED_WITH] = wanted
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
