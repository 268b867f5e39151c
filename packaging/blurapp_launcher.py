"""Entry point of the frozen BlurApp: runs `blurapp.cli:main`.

A frozen program has no Python interpreter to re-run, yet `blurapp bench` starts children as
`sys.executable -m MODULE ...` and `sys.executable -c CODE ...`, where sys.executable is this
program. The two interpreter forms are honoured here, so those children work frozen too; the
`blurapp` command itself has no -m or -c option, so nothing a user types is taken from them.
"""

import runpy
import sys


def _run() -> None:
    arguments = sys.argv[1:]
    if len(arguments) >= 2 and arguments[0] == "-m":
        sys.argv = [arguments[1], *arguments[2:]]
        runpy.run_module(arguments[1], run_name="__main__", alter_sys=True)
        return
    if len(arguments) >= 2 and arguments[0] == "-c":
        sys.argv = ["-c", *arguments[2:]]
        exec(compile(arguments[1], "<string>", "exec"), {"__name__": "__main__"})
        return
    from blurapp.cli import main

    raise SystemExit(main())


if __name__ == "__main__":
    _run()
