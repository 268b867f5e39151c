"""Sizes the bench cannot make are usage errors naming the limit, not tracebacks."""

import pytest

from blurapp.cli import main


@pytest.mark.parametrize(
    "flag, value",
    [
        ("--megapixels", "100000"),
        ("--megapixels", "1e300"),
        ("--probe-megapixels", "1e300"),
        ("--big-megapixels", "1e300"),
    ],
)
def test_a_size_too_large_for_memory_is_a_usage_error_naming_the_limit(capsys, flag, value):
    with pytest.raises(SystemExit) as exited:
        main(["bench", flag, value])
    assert exited.value.code == 2
    error = capsys.readouterr().err
    assert f"argument {flag}: {float(value):g} MP would not fit in the memory available" in error
    assert "MP here" in error and "Traceback" not in error


def test_every_json_document_is_strict_json():
    import json

    from blurapp.cli.output import json_text

    def refuse(constant):
        raise ValueError(constant)

    text = json_text({"speedup": float("inf"), "rows": [float("nan"), 1.5], "ok": "NaN"})
    assert json.loads(text, parse_constant=refuse) == {
        "speedup": None,
        "rows": [None, 1.5],
        "ok": "NaN",
    }


def test_colour_sizes_are_checked_for_three_channels(capsys, monkeypatch):
    from blurapp.core import photo_checks

    monkeypatch.setattr(photo_checks, "available_memory", lambda: 4_000_000_000)  # 100 MP grey
    assert main(["bench", "--color", "--megapixels", "50", "--sections", "engines"]) == 2
    error = capsys.readouterr().err
    assert (
        "argument --megapixels: 50 MP in colour would not fit" in error and "at most 33 MP" in error
    )
