"""The one cache of the JAX engines' compiled programs (blurapp.core.engines.programs): each
program compiled once under the key its engine builds, whatever threads ask for it."""

import threading

from blurapp.core.engines.programs import CompiledPrograms
from blurapp.core.engines.runs import Compilation


def counting_compiler(started=None, go=None):
    compiled = []

    def compile_program():
        if started is not None:
            started.set()
            assert go.wait(60)
        program = lambda image, weights: image  # noqa: E731
        compiled.append(program)
        return program, Compilation.COMPILED, None

    return compiled, compile_program


def test_a_program_is_compiled_once_and_reused_under_its_key():
    programs = CompiledPrograms()
    compiled, compile_program = counting_compiler()
    first = programs.get(("jax-jit", (4, 5)), compile_program)
    again = programs.get(("jax-jit", (4, 5)), compile_program)
    other = programs.get(("jax-jit", (4, 6)), compile_program)
    assert first == (compiled[0], Compilation.COMPILED, None)
    assert again == (compiled[0], Compilation.REUSED, None)
    assert other[1] is Compilation.COMPILED and len(compiled) == 2


def test_threads_asking_for_one_program_at_once_wait_for_one_compilation():
    programs = CompiledPrograms()
    started, go = threading.Event(), threading.Event()
    compiled, compile_program = counting_compiler(started, go)
    answers = []
    first = threading.Thread(target=lambda: answers.append(programs.get(("k",), compile_program)))
    first.start()
    assert started.wait(60)
    second = threading.Thread(target=lambda: answers.append(programs.get(("k",), compile_program)))
    second.start()
    go.set()
    first.join(60)
    second.join(60)
    assert len(compiled) == 1
    assert sorted(how for _, how, _ in answers) == sorted(
        [Compilation.COMPILED, Compilation.REUSED]
    )
    assert all(program is compiled[0] for program, _, _ in answers)


def test_another_program_compiles_while_one_is_compiling():
    programs = CompiledPrograms()
    started, go = threading.Event(), threading.Event()
    _, slow = counting_compiler(started, go)
    waiting = threading.Thread(target=lambda: programs.get(("slow",), slow))
    waiting.start()
    assert started.wait(60)
    try:
        _, quick = counting_compiler()
        assert programs.get(("quick",), quick)[1] is Compilation.COMPILED
        assert waiting.is_alive()  # the slow one still compiling: neither waited on the other
    finally:
        go.set()
        waiting.join(60)
    assert programs.keys("slow") == [("slow",)]


def test_clearing_a_family_forgets_its_programs_alone():
    programs = CompiledPrograms()
    _, compile_program = counting_compiler()
    for key in (("pallas", 1), ("jax-jit", 1), ("jax-jit", 2)):
        programs.get(key, compile_program)
    programs.clear("jax-jit")
    assert programs.keys("jax-jit") == [] and programs.keys("pallas") == [("pallas", 1)]
    assert programs.holds(lambda key: key == ("pallas", 1))
    assert not programs.holds(lambda key: key[0] == "jax-jit")
    assert programs.get(("jax-jit", 1), compile_program)[1] is Compilation.COMPILED
    programs.clear()
    assert programs.keys("pallas") == []


def test_a_program_compiled_while_another_family_is_cleared_is_kept():
    programs = CompiledPrograms()
    compiled, compile_program = counting_compiler()

    def compiled_as_pallas_is_cleared():
        programs.clear("pallas")  # another thread's, while this one compiles
        return compile_program()

    assert programs.get(("jax-jit", 1), compiled_as_pallas_is_cleared)[1] is Compilation.COMPILED
    assert programs.get(("jax-jit", 1), compile_program) == (
        compiled[0],
        Compilation.REUSED,
        None,
    )
    assert programs.keys("jax-jit") == [("jax-jit", 1)]


def test_a_program_compiled_while_its_family_is_cleared_is_not_kept():
    programs = CompiledPrograms()
    _, compile_program = counting_compiler()

    def compiled_as_all_are_cleared():
        programs.clear("jax-jit")
        return compile_program()

    assert programs.get(("jax-jit", 1), compiled_as_all_are_cleared)[1] is Compilation.COMPILED
    assert programs.keys("jax-jit") == []
