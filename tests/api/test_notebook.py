"""docs/example.ipynb runs top to bottom on a real Jupyter kernel and shows the comparison; the
outputs saved in it, which GitHub and the docs' download show, are what its cells give now."""

import ast
import base64
import io
import os
import re
from pathlib import Path

import pytest
from PIL import Image

# The test extra's Jupyter (CI has it); a machine without it, as the TPU machine, runs the rest.
nbformat = pytest.importorskip("nbformat")
NotebookClient = pytest.importorskip("nbclient").NotebookClient

import blurapp  # noqa: E402  (after the skips: a machine without Jupyter skips the file)
from blurapp.core.report.figures import format_speedup  # noqa: E402

NOTEBOOK = Path(__file__).resolve().parents[2] / "docs" / "example.ipynb"
# What a cell that shows the comparison as its last expression holds.
SHOWS_COMPARISON = "\ncomparison"
PNG_URI = re.compile(r'<img src="data:image/png;base64,([A-Za-z0-9+/=]+)"')
# The saved notebook, pictures and all, stays small enough to read on GitHub and in a diff.
MAX_NOTEBOOK_BYTES = 1_000_000
# The cells whose text holds times (their numbers are masked when compared with a run); every
# other cell's text is compared as it is. A cell showing a Comparison is found by its HTML.
TIMED = ("comparison.speedup, comparison.max_abs_diff",)
# Times and speed-ups differ from run to run and machine to machine; what a reader sees around
# them does not.
NUMBER = re.compile(r"\d[\d,]*(?:\.\d+)?(?:e[-+]?\d+)?")
# A picture's bytes are not compared: a blurred output may differ in the last bit of a pixel
# from one machine to another, and a PNG encoder's bytes from one version to another.
BASE64 = re.compile(r"base64,[A-Za-z0-9+/=]+")


def code_cell(notebook, source_end):
    """The one code cell whose source ends with `source_end`."""
    cells = [
        cell
        for cell in notebook.cells
        if cell.cell_type == "code" and cell.source.rstrip().endswith(source_end)
    ]
    assert len(cells) == 1, f"{len(cells)} cells end with {source_end!r}"
    return cells[0]


def result_of(cell, mime):
    """The `mime` data of the cell's result (its last expression)."""
    results = [output for output in cell.outputs if output.output_type == "execute_result"]
    assert len(results) == 1, cell.outputs
    return results[0].data[mime]


def without_pictures(text: str) -> str:
    """`text` with each embedded picture's bytes left out."""
    return BASE64.sub("base64,…", text)


def masked(text: str) -> str:
    """`text` with each number as # and each embedded picture's bytes left out."""
    return NUMBER.sub("#", without_pictures(text))


def comparison_seen(data) -> dict:
    """What a shown Comparison says whatever the machine: its heading (the photo and the blur),
    its pictures, the keys of its figures' rows in order, and its repr up to the times. Its
    other words depend on the machine (the device JAX ran on, whether the machine was busy, whether
    JAX's program was compiled already), so they are not compared."""
    html = data["text/html"]
    heading = re.search(r"<p><strong>(.*?)</strong></p>", html)
    return {
        "heading": heading and heading.group(1),
        "pictures": re.findall(r'<img [^>]*alt="([^"]*)"', html),
        # The warning row comes and goes with the machine's load.
        "rows": [key for key in re.findall(r'data-key="([^"]+)"', html) if key != "warning"],
        "mime types": sorted(data),
        "text/plain": data.get("text/plain", "").split(": ", 1)[0],
    }


def what_a_reader_sees(cell) -> list:
    """The cell's outputs as compared between a run and the saved notebook: each output's kind,
    its stream or mime types and its text, the numbers masked in a TIMED cell's (a Comparison
    as `comparison_seen`)."""
    seen_text = masked if cell.source.rstrip().endswith(TIMED) else without_pictures
    seen = []
    for output in cell.outputs:
        if output.output_type == "stream":
            seen.append(("stream", output.name, seen_text(output.text)))
        elif output.output_type == "error":
            seen.append(("error", output.ename, output.evalue))
        elif 'class="blurapp-comparison"' in output.data.get("text/html", ""):
            seen.append((output.output_type, comparison_seen(output.data)))
        else:
            texts = {
                mime: "<picture>" if mime.startswith("image/") else seen_text(value)
                for mime, value in output.data.items()
            }
            seen.append((output.output_type, texts))
    return seen


def test_the_committed_notebook_holds_its_outputs_and_is_small():
    notebook = nbformat.read(NOTEBOOK, as_version=4)
    nbformat.validate(notebook)
    code = [cell for cell in notebook.cells if cell.cell_type == "code"]
    assert code
    # Run top to bottom once, every cell showing what it gives: not some cells run by hand.
    assert [cell.execution_count for cell in code] == list(range(1, len(code) + 1))
    assert all(cell.outputs for cell in code)
    assert not [o for cell in code for o in cell.outputs if o.output_type == "error"]
    assert NOTEBOOK.stat().st_size < MAX_NOTEBOOK_BYTES


@pytest.mark.slow
def test_the_example_notebook_runs_on_a_kernel_and_shows_both_outputs(tmp_path, monkeypatch):
    saved = nbformat.read(NOTEBOOK, as_version=4)
    notebook = nbformat.read(NOTEBOOK, as_version=4)
    # The kernel imports the blurapp under test (a checkout's or an installed one's), and
    # inherits the test run's own cache, state and XDG folders (tests/conftest.py).
    tested = Path(blurapp.__file__).resolve().parent
    paths = [str(tested.parent), *filter(None, [os.environ.get("PYTHONPATH")])]
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(paths))
    notebook.cells.append(nbformat.v4.new_code_cell("blurapp.__file__"))
    client = NotebookClient(
        notebook,
        kernel_name="python3",
        timeout=600,
        resources={"metadata": {"path": str(tmp_path)}},
    )
    client.execute()  # raises CellExecutionError, with the traceback, if a cell fails

    kernel_blurapp = ast.literal_eval(result_of(notebook.cells[-1], "text/plain"))
    assert Path(kernel_blurapp).resolve().parent == tested

    # The outputs saved in the file are those of its cells as they are now.
    stale = [
        f"cell {index}: {cell.source.partition(chr(10))[0]!r}"
        for index, (cell, ran) in enumerate(zip(saved.cells, notebook.cells, strict=False))
        if cell.cell_type == "code" and what_a_reader_sees(cell) != what_a_reader_sees(ran)
    ]
    assert stale == [], (
        "docs/example.ipynb's saved outputs are not what these cells give now; run it and save "
        f"it again (docs/contributing.md): {stale}"
    )

    html = result_of(code_cell(notebook, SHOWS_COMPARISON), "text/html")
    pictures = PNG_URI.findall(html)
    assert len(pictures) == 2  # NumPy's output and JAX-jit's
    for picture in pictures:
        with Image.open(io.BytesIO(base64.b64decode(picture))) as image:
            assert image.format == "PNG"
            assert image.size == (420, 280)  # the 600 × 400 sample photo, shrunk

    speedup, max_abs_diff = ast.literal_eval(
        result_of(code_cell(notebook, "comparison.speedup, comparison.max_abs_diff"), "text/plain")
    )
    assert speedup > 0
    assert 0 <= max_abs_diff <= 1e-5
    shown = re.search(r"<th[^>]*>speedup</th><td[^>]*>([^<]*)</td>", html)
    assert shown is not None, html
    assert shown.group(1).startswith(format_speedup(speedup) + " ")

    blurred = result_of(code_cell(notebook, "blurred.shape, str(blurred.dtype)"), "text/plain")
    assert ast.literal_eval(blurred) == ((400, 600), "float32")
