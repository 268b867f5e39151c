"""What a bench record says of the CPU, from a /proc/cpuinfo text: its model where the kernel
names one, else what it does tell (maker, family and model numbers), never "unknown"."""

import platform

from blurapp import bench
from blurapp.bench import machine
from blurapp.bench.machine import cpu_from_cpuinfo

# The first lines of /proc/cpuinfo on a TPU v5e's host, under KVM: no model name.
UNNAMED_AMD = """\
processor\t: 0
vendor_id\t: AuthenticAMD
cpu family\t: 175
model\t\t: 17
model name\t: unknown
stepping\t: 0
cpu cores\t: 13

processor\t: 1
vendor_id\t: GenuineIntel
cpu family\t: 6
model\t\t: 85
model name\t: unknown
"""

NAMED_AMD = UNNAMED_AMD.replace(
    "model name\t: unknown", "model name\t: AMD EPYC 7763 64-Core Processor", 1
)

# An ARM kernel's: no model name and no vendor_id, an implementer and a part.
ARM = """\
processor\t: 0
BogoMIPS\t: 50.00
CPU implementer\t: 0x41
CPU architecture: 8
CPU part\t: 0xd0c
"""


def test_a_named_cpu_is_its_model_name():
    assert cpu_from_cpuinfo(NAMED_AMD) == "AMD EPYC 7763 64-Core Processor"


def test_an_unnamed_cpu_is_its_maker_and_numbers_from_the_first_processor():
    assert cpu_from_cpuinfo(UNNAMED_AMD) == "AMD CPU, family 175, model 17"
    assert cpu_from_cpuinfo(UNNAMED_AMD.replace("model name\t: unknown\n", "")) == (
        "AMD CPU, family 175, model 17"
    )


def test_an_arm_cpu_is_its_implementer_and_part():
    assert cpu_from_cpuinfo(ARM) == "Arm CPU, part 0xd0c"


def test_a_cpuinfo_that_tells_nothing_of_the_cpu_gives_none():
    assert cpu_from_cpuinfo("") is None
    assert cpu_from_cpuinfo("processor\t: 0\nmodel name\t: unknown\n") is None


def test_the_machine_line_names_the_cpu_once_and_never_unknown(monkeypatch):
    monkeypatch.setattr(machine, "cpu_model", lambda: cpu_from_cpuinfo(UNNAMED_AMD))
    described = bench.describe_machine()["description"]
    assert " cores (AMD CPU, family 175, model 17), " in described
    assert "unknown" not in described
    # A CPU known by its architecture alone: the architecture once, no parenthesis.
    monkeypatch.setattr(machine, "cpu_model", lambda: None)
    monkeypatch.setattr(platform, "processor", lambda: "")
    described = bench.describe_machine()["description"]
    assert described.count(platform.machine()) == 1 and "(" not in described.split("Python")[0]
