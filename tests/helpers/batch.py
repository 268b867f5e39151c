"""The folder of photos the batch tests blur, good and bad, and what they blur it with."""

from pathlib import Path

import numpy as np
from PIL import Image

from blurapp.core.spec import BlurSpec

SPEC = BlurSpec(algorithm="2d", kernel_size=5, sigma=1.5)
KERNEL = SPEC.kernel

GOOD = ["a.png", "sub/b.jpg", "sub/deeper/c16.png", "sub/deeper/d.tif"]
BAD = ["broken/truncated.png", "broken/text.png", "broken/empty.jpg"]


def write_photos(folder: Path) -> None:
    rng = np.random.default_rng(7)
    (folder / "sub/deeper").mkdir(parents=True)
    (folder / "broken").mkdir()
    Image.fromarray(rng.integers(0, 256, (40, 50), dtype=np.uint8)).save(folder / "a.png")
    Image.fromarray(rng.integers(0, 256, (36, 30, 3), dtype=np.uint8)).save(folder / "sub/b.jpg")
    wide = rng.integers(0, 65536, (33, 41), dtype=np.uint16)
    Image.fromarray(wide).save(folder / "sub/deeper/c16.png")
    Image.fromarray(rng.integers(0, 256, (20, 25), dtype=np.uint8)).save(
        folder / "sub/deeper/d.tif"
    )
    whole = (folder / "a.png").read_bytes()
    (folder / "broken/truncated.png").write_bytes(whole[: len(whole) // 2])
    (folder / "broken/text.png").write_text("not a picture at all\n")
    (folder / "broken/empty.jpg").write_bytes(b"")
    (folder / "notes.txt").write_text("a photo folder's notes, not a photo\n")
    (folder / "sub/thumbs.db").write_bytes(b"\0" * 10)
