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
    assert f"argument {flag}: {value} MP would not fit in the memory available" in error
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
