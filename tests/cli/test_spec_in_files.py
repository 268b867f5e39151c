"""The request's words as the command line writes them into its files."""

from helpers.command_line import blurapp_in_process
from PIL import Image


def test_blur_and_compare_write_the_engine_name_into_their_files(tmp_path):
    out = tmp_path / "out.png"
    run = blurapp_in_process("blur", "--engine", "jax", "--kernel-size", "5", "-o", out)
    assert run.returncode == 0, run.stderr
    with Image.open(out) as picture:
        assert picture.text["engine"] == "jax" and picture.text["kernel size"] == "5"
    run = blurapp_in_process(
        "compare", "--engines", "numpy,jax", "--repeat", "1", "--out-dir", tmp_path
    )
    assert run.returncode == 0, run.stderr
    for engine in ("numpy", "jax"):
        with Image.open(tmp_path / f"{engine}.png") as picture:
            assert picture.text["engine"] == engine
