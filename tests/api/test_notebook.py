"""docs/example.ipynb runs top to bottom on a real Jupyter kernel and shows the comparison."""

import ast
import base64
import io
import os
import re
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient
from PIL import Image

import blurapp
from blurapp.core.report.figures import format_speedup

NOTEBOOK = Path(__file__).resolve().parents[2] / "docs" / "example.ipynb"
# What a cell that shows the comparison as its last expression holds.
SHOWS_COMPARISON = "\ncomparison"
PNG_URI = re.compile(r'<img src="data:image/png;base64,([A-Za-z0-9+/=]+)"')


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


def test_the_committed_notebook_holds_no_outputs():
    notebook = nbformat.read(NOTEBOOK, as_version=4)
    nbformat.validate(notebook)
    code = [cell for cell in notebook.cells if cell.cell_type == "code"]
    assert code
    assert all(cell.outputs == [] and cell.execution_count is None for cell in code)


@pytest.mark.slow
def test_the_example_notebook_runs_on_a_kernel_and_shows_both_outputs(tmp_path, monkeypatch):
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
