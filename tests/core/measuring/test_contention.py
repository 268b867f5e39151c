"""Whether the figures can be trusted: BlurApp notices another program using the CPU while it
times, and says so beside the speed-up (compare's text and JSON, the window's figures)."""

import json
import subprocess
import sys
import time

import numpy as np
import psutil
import pytest

from blurapp import cli
from blurapp.core import Call, FirstCall, compare_engines, sample_photo_path
from blurapp.core.engines import Engine, Floors
from blurapp.core.engines.gemm import TimedGemm
from blurapp.core.measuring import contention
from blurapp.core.measuring.contention import (
    OTHERS_SHARE,
    WALL_OVER_CPU,
    Conditions,
    MachineUse,
    cores,
    judge,
)
from blurapp.core.report.figures import comparison_figures

# What is under test here is the timing itself: each engine timed as long as BlurApp times it.
pytestmark = pytest.mark.real_timing


@pytest.fixture
def photo_path():
    return sample_photo_path()


def quiet_machine(others: float = 1.09, load: float | None = 2.4) -> MachineUse:
    return MachineUse(seconds=2.0, others_cores=others, load=load, cores=2)


def test_the_figures_measured_on_a_quiet_machine_are_trusted():
    # The largest of each sign measured here without a competing program (contention.py's
    # table): another session already kept about one of the two cores busy.
    conditions = Conditions(
        machine=quiet_machine(),
        wall_over_cpu={"numpy": 1.12, "jax": 1.07},
        spread={"numpy": 0.28, "jax": 0.32},
    )
    verdict = judge(conditions)
    assert not verdict.noisy and verdict.reason() is None


@pytest.mark.parametrize(
    ("conditions", "words"),
    [
        (
            Conditions(quiet_machine(), wall_over_cpu={"numpy": 1.47}),
            "another program was using the CPU: numpy's calls took 1.5× their CPU time; "
            "load 2.4 on 2 cores",
        ),
        (
            Conditions(quiet_machine(others=1.32, load=None)),
            "another program was using the CPU: other programs kept 1.3 of the 2 cores busy",
        ),
        (
            Conditions(quiet_machine(), spread={"jax": 1.31, "numpy": 0.6}),
            "the times of the calls varied widely: the middle half of jax's calls spans 131% of "
            "their median; load 2.4 on 2 cores",
        ),
        (
            Conditions(quiet_machine(), products_machine=quiet_machine(others=0.98, load=None)),
            "another program was using the CPU: other programs kept 1.0 of the 2 cores busy "
            "while the matrix product was timed; load 2.4 on 2 cores",
        ),
        (
            Conditions(quiet_machine(), traced=True),
            "the profiler recorded a trace while the calls were timed, which slows them: "
            "time them again without it",
        ),
        (
            Conditions(quiet_machine(), wall_over_cpu={"numpy": 1.47}, traced=True),
            "timed while the profiler recorded, and another program was using the CPU: numpy's "
            "calls took 1.5× their CPU time; load 2.4 on 2 cores",
        ),
        (
            Conditions(quiet_machine(), spread={"jax": 1.31}, traced=True),
            "timed while the profiler recorded: the middle half of jax's calls spans 131% of "
            "their median; load 2.4 on 2 cores",
        ),
    ],
    ids=[
        "calls waited for a core",
        "others kept the cores busy",
        "others took a core from the matrix product",
        "calls far apart",
        "a profiler trace recorded",
        "a trace and a busy core",
        "a trace and calls far apart",
    ],
)
def test_each_sign_of_a_busy_machine_alone_makes_the_figures_untrusted(conditions, words):
    verdict = judge(conditions)
    assert verdict.noisy
    assert verdict.reason() == words


def test_the_thresholds_lie_between_the_quiet_and_the_busy_figures_measured_here():
    assert 1.12 < WALL_OVER_CPU < 1.47
    assert 1.09 < OTHERS_SHARE * 2 < 1.32


@pytest.mark.parametrize(
    ("others", "seconds", "noisy"),
    [(0.3, 2.0, False), (0.98, 2.0, True), (0.98, 0.01, False)],
    ids=["a quiet product", "a core taken from it", "too short to tell"],
)
def test_the_matrix_products_are_judged_by_the_others_use_while_they_ran(others, seconds, noisy):
    # One other program on one core of two: below the engines' share (0.6 of the cores), but a
    # product whose threads wait for each other is ruined by it.
    products = MachineUse(seconds=seconds, others_cores=others, load=None, cores=2)
    assert others < OTHERS_SHARE * 2
    assert judge(Conditions(quiet_machine(0.2), products_machine=products)).noisy is noisy


def test_on_a_large_machine_the_matrix_products_bear_some_background_use():
    # A core's worth of other programs on 16 cores is any desktop's background; a quarter of
    # them is not.
    def verdict(others):
        products = MachineUse(seconds=1.0, others_cores=others, load=None, cores=16)
        return judge(Conditions(quiet_machine(0.2), products_machine=products))

    assert not verdict(1.0).noisy
    assert verdict(4.5).noisy


def product_engine(seconds: float) -> Engine:
    """A CPU engine whose blur is instant and whose matrix product waits (sleeps) `seconds`:
    the other programs' use the timing sees while the products run is theirs alone."""
    image = np.zeros((4, 4), np.float32)

    def product() -> Call:
        start = time.perf_counter()
        time.sleep(seconds)
        return Call(time.perf_counter() - start)

    def first_call(image_in, kernel, *, platform, progress, cancelled) -> FirstCall:
        return FirstCall(output=image, again=lambda: Call(1e-6), seconds=1e-6)

    def gemm_call(platform) -> TimedGemm:
        return TimedGemm(FirstCall(output=image, again=product, seconds=seconds), 64)

    return Engine("product", "Product", first_call, floors=Floors(gemm=gemm_call))


def test_a_program_busy_while_the_matrix_products_ran_makes_the_figures_untrusted():
    # The compute floor's products, timed after the engines, are watched too: a floor measured
    # while another program had a core read 13 GFLOP/s on a machine that does 270, and nothing
    # said the figures could not be trusted.
    loops = busy_loops(1)
    try:
        time.sleep(0.5)  # the loop running before the timing starts
        counted = counters_count_a_busy_loop()
        result = compare_engines(
            np.zeros((4, 4), np.float32), engines=[product_engine(0.03)], repeats=3
        )
    finally:
        loops[0].kill()
        loops[0].wait(timeout=10)
    assert result.compute_floors, "the made-up engine's product was timed"
    if counted:
        assert result.conditions.products_machine.others_cores >= 0.5
        assert result.noisy
        assert "busy while the matrix product was timed" in result.noisy_reason
    else:
        # Counters that count no program (gVisor's sandbox gives zeros): the others' use is
        # not known there, rather than none.
        assert result.conditions.products_machine.others_cores is None
        assert result.conditions.machine.others_cores is None


def counters_count_a_busy_loop(seconds: float = 0.3) -> bool:
    """Whether the machine's CPU counters (psutil's, which BlurApp reads) count the busy loop
    running now: their time in user code grows by half of `seconds` or more over `seconds`."""
    before = psutil.cpu_times().user
    time.sleep(seconds)
    return psutil.cpu_times().user - before >= seconds / 2


@pytest.mark.parametrize(
    ("busy", "others"),
    [(0.0, None), (1e6, 0.0)],
    ids=["counters that count nothing", "counters that count this process"],
)
def test_counters_that_miss_this_process_tell_no_figure_for_other_programs(
    monkeypatch, busy, others
):
    # gVisor's sandbox gives zeros for every core's CPU time, a busy program or not: 0 other
    # programs read from them would say the machine was quiet when nothing could tell.
    monkeypatch.setattr(contention, "_busy_seconds", lambda: busy)
    assert contention.watch_machine()().others_cores == others


def waiting_engine(seconds: float) -> Engine:
    """A CPU engine whose calls wait (sleep) instead of computing: its wall time runs ahead of
    its CPU time, as an engine's does when another program has the cores."""
    image = np.zeros((4, 4), np.float32)

    def again() -> Call:
        start = time.perf_counter()
        time.sleep(seconds)
        return Call(time.perf_counter() - start)

    def first_call(image_in, kernel, *, platform, progress, cancelled) -> FirstCall:
        return FirstCall(output=image, again=again, seconds=seconds, in_calling_thread=True)

    return Engine("waiting", "Waiting", first_call)


def test_the_timing_measures_how_long_the_calls_waited_for_the_cpu():
    # Calls of 30 ms: the process's other threads (the machine's sampler, a library's pool)
    # may use a few ms of CPU meanwhile on a busy machine, which must not reach a fifth of it.
    result = compare_engines(
        np.zeros((4, 4), np.float32), engines=["numpy", waiting_engine(0.03)], repeats=8
    )
    if result.runs["waiting"].calls_cpu_seconds == 0:
        # A thread's CPU clock counted in ticks of 10 ms (gVisor's sandbox) saw none of the
        # calls' few microseconds on the CPU: no figure, rather than an infinite one.
        assert not thread_clock_counts_a_sleep()
        assert "waiting" not in result.conditions.wall_over_cpu
    else:
        assert result.conditions.wall_over_cpu["waiting"] > 5
        assert result.noisy
        assert "Waiting's calls took" in result.noisy_reason


def thread_clock_counts_a_sleep() -> bool:
    """Whether this thread's CPU clock counts the microseconds a 30 ms sleep takes of the CPU,
    as Linux's does to the nanosecond."""
    start = time.thread_time()
    time.sleep(0.03)
    return time.thread_time() > start


def busy_loops(count: int) -> list[subprocess.Popen]:
    code = "import time\nend = time.monotonic() + 120\nwhile time.monotonic() < end: pass"
    return [subprocess.Popen([sys.executable, "-c", code]) for _ in range(count)]


@pytest.mark.slow
def test_a_competing_program_on_every_core_is_told_in_the_json_and_the_text(photo_path, capsys):
    # JAX-jit's program compiled before the loops start: they burn every core while they run.
    assert cli.main(["compare", str(photo_path), "--engines", "numpy,jax"]) == 0
    capsys.readouterr()
    loops = busy_loops(2 * cores())  # twice the cores: BlurApp gets at most a third of one
    try:
        time.sleep(0.5)  # the loops running before the timing starts
        assert cli.main(["compare", str(photo_path), "--engines", "numpy", "--json"]) == 0
        data = json.loads(capsys.readouterr().out)
        assert cli.main(["compare", str(photo_path), "--engines", "numpy,jax"]) == 0
        text = capsys.readouterr().out
    finally:
        for loop in loops:
            loop.kill()
        for loop in loops:
            loop.wait(timeout=10)
    assert data["noisy"] is True
    assert data["noisy_reason"].startswith("another program was using the CPU: ")
    rows = [line for line in text.splitlines() if line.strip()]
    names = [line.split()[0] for line in rows]
    # Right under the speed-up, where the eye goes.
    assert names[names.index("speedup") + 1] == "warning"
    assert "these times cannot be trusted (another program was using the CPU" in text


@pytest.mark.parametrize(("ratio", "noisy"), [(1.25, False), (1.35, True)])
def test_a_comparison_says_noisy_exactly_when_its_conditions_cross_the_threshold(
    photo_path, capsys, monkeypatch, ratio, noisy
):
    # The conditions a comparison measured, replaced by ones made here on either side of the
    # wall-over-CPU threshold (1.3: the wall clock 25 % or 35 % over the CPU clock), the
    # other signs quiet: the JSON, the result and its figures tell the verdict of those.
    from blurapp.core.measuring import comparison

    measured = []

    def made_here(runs, machine, traced=False, products_machine=None):
        measured.append(comparison_conditions(runs, machine, traced, products_machine))
        return Conditions(quiet_machine(), wall_over_cpu={"numpy": ratio}, spread={"numpy": 0.1})

    comparison_conditions = comparison.conditions_of
    monkeypatch.setattr(comparison, "conditions_of", made_here)
    assert cli.main(["compare", str(photo_path), "--engines", "numpy", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["noisy"] is noisy
    if noisy:
        assert data["noisy_reason"] == (
            f"another program was using the CPU: NumPy's calls took {ratio:.1f}× their CPU "
            "time; load 2.4 on 2 cores"
        )
    else:
        assert data["noisy_reason"] is None
    result = compare_engines(np.zeros((200, 300), np.float32), engines=["numpy"])
    assert result.noisy is noisy
    rows = {row.key: row for row in comparison_figures(result, "photo", 300, 200)}
    assert ("warning" in rows) is noisy
    assert all(row.alarming for key, row in rows.items() if key == "warning")
    # What the comparisons measured, before it was replaced: this machine's cores, and a CPU
    # engine's two clocks.
    assert len(measured) == 2
    for conditions in measured:
        assert conditions.machine.cores == cores()
        assert conditions.wall_over_cpu["numpy"] > 0.5


def test_a_comparison_of_outputs_only_times_nothing_and_judges_nothing():
    result = compare_engines(np.zeros((8, 8), np.float32), engines=["numpy"], repeats=0)
    assert result.conditions is None and not result.noisy and result.noisy_reason is None


@pytest.mark.parametrize(
    ("spread", "samples", "noisy"),
    [(1.3, 5, True), (0.61, 5, False), (0.6, 8, True), (3.0, 2, False)],
    ids=["few calls far apart", "few calls as a quiet machine gives them", "many calls",
         "too few to judge"],
)  # fmt: skip
def test_an_engine_timed_only_a_few_times_is_judged_by_a_wider_spread(spread, samples, noisy):
    from blurapp.core.engines.runs import EngineRun
    from blurapp.core.measuring.contention import conditions_of

    median = 0.120
    half = spread * median / 2
    # Samples whose middle half is `spread` of their median (quartiles median ± half).
    seconds = np.quantile([median - 2 * half, median + 2 * half], np.linspace(0, 1, samples))
    run = EngineRun(output=np.zeros((2, 2), np.float32), repeat_seconds=tuple(seconds))
    conditions = conditions_of({"jax": run}, quiet_machine(others=0.05))
    assert judge(conditions).noisy is noisy, (run.spread, conditions)


def test_the_machine_is_watched_over_the_first_calls_too():
    """A competing program during the first calls (JAX-jit's compiling, say) counts: a small
    photo's steady calls alone last too little for the kernel's counters."""

    def slow_first_call(image, kernel, **_):
        time.sleep(0.4)
        return FirstCall(output=np.array(image), again=lambda: Call(1e-4), seconds=0.4)

    slow = Engine("slow-start", "Slow start", slow_first_call)
    result = compare_engines(np.zeros((8, 8), np.float32), engines=["numpy", slow], repeats=2)
    assert result.conditions.machine.seconds >= 0.4
