"""`blurapp bench --sections scale`'s blur by blocks, measured with each engine (here on a small
image: the real one is a gigapixel and minutes)."""

import pytest

from blurapp.bench import scale
from blurapp.bench.report import section_lines


@pytest.mark.extra("scale")
@pytest.mark.slow
def test_the_blur_by_blocks_is_measured_with_each_engine_and_says_its_rate(tmp_path, monkeypatch):
    kept = {}
    real_measure = scale.measure_gigapixel

    def measure_small(folder, *, engine, **_):
        figures = real_measure(folder, side=600, engine=engine, block=256)
        kept[engine] = figures
        return figures

    monkeypatch.setattr(scale, "measure_gigapixel", measure_small)
    monkeypatch.setattr(scale, "SCALE_PHOTOS", 2)
    figures = scale.scale(tmp_path)

    assert [giga["engine"] for giga in figures["gigapixel"]] == list(scale.SCALE_ENGINES)
    for giga in figures["gigapixel"]:
        assert giga["pixels"] == 600 * 600 and giga["seconds"] > 0 and giga["blocks"] == 9
        assert giga["peak_rss_bytes"] > 0
    lines = section_lines("scale", figures)
    for engine in scale.SCALE_ENGINES:
        giga = kept[engine]
        rate = giga["pixels"] / 1e6 / giga["seconds"]
        [line] = [line for line in lines if line.startswith("gigapixel") and f", {engine}," in line]
        assert f"{rate:,.0f} MP/s" in line and "blocks of 256" in line, line
