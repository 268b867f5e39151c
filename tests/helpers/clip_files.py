"""Clip files made for a test, in the test's own folder: videos through PyAV (FFV1 for pixel
checks), TIFF stacks, animated GIF, WebP and PNG, AVIF sequences. Tiny, so the tests stay quick."""

import struct
import zlib
from fractions import Fraction

import av
import numpy as np
import pytest
import tifffile
from PIL import Image

_FORMATS = {".mkv": "matroska", ".mp4": "mp4", ".webm": "webm", ".ts": "mpegts", ".avi": "avi"}


def random_levels(frames=8, size=(64, 48), *, colour=False, dtype=np.uint8, seed=0):
    """Frames × height × width (× 3) random levels of `dtype`."""
    width, height = size
    shape = (frames, height, width, 3) if colour else (frames, height, width)
    return np.random.default_rng(seed).integers(0, np.iinfo(dtype).max + 1, shape, dtype=dtype)


def smooth_levels(frames=8, size=(64, 48), *, colour=False):
    """Frames of gentle gradients that move: what a lossy codec keeps well."""
    width, height = size
    y, x = np.mgrid[0:height, 0:width]
    planes = []
    for index in range(frames):
        grey = 128 + 90 * np.sin((x + 3 * index) / 9) * np.cos((y - 2 * index) / 7)
        planes.append(np.stack([grey, 255 - grey, grey / 2], -1) if colour else grey)
    return np.clip(np.rint(planes), 0, 255).astype(np.uint8)


def video_file(
    path,
    levels,
    *,
    codec="ffv1",
    rate=25,
    pixel_format=None,
    audio=False,
    gop=None,
    apart=None,
    options=None,
    rotate=None,
    mirror=False,
):
    """`levels` (uint8 or uint16; frames × height × width, or × 3 for red, green, blue) as a
    video at `path` (its extension chooses the container), `rate` frames a second; with
    `apart` (milliseconds), the frames are that far apart whatever `rate` says, so the
    count worked out from the duration is wrong. `options` go to the encoder. With `rotate`,
    the stream carries a display matrix saying a player turns the stored frames that many
    degrees clockwise to show them, as a phone's portrait video does: FFmpeg's `rotate` tag
    (ffprobe says "rotation of -`rotate` degrees"); with `mirror` too, mirrored left to right
    after the turn."""
    levels = np.asarray(levels)
    colour = levels.ndim == 4
    deep = levels.dtype == np.uint16
    source = ("rgb48le" if deep else "rgb24") if colour else ("gray16le" if deep else "gray")
    if pixel_format is None:
        if codec == "ffv1":
            pixel_format = ("gbrp16le" if deep else "bgr0") if colour else source
        else:
            pixel_format = "yuv420p"
    with av.open(str(path), "w", format=_FORMATS[path.suffix]) as container:
        stream = container.add_stream(codec, rate=Fraction(rate).limit_denominator(1001 * 1000))
        stream.width, stream.height = levels.shape[2], levels.shape[1]
        stream.pix_fmt = pixel_format
        if gop is not None:
            stream.codec_context.gop_size = gop
        if options is not None:
            stream.options = options
        if rotate is not None:
            stream.set_display_rotation(-rotate, hflip=mirror)  # PyAV's angle is anticlockwise
        if apart is not None:
            stream.codec_context.time_base = Fraction(1, 1000)
        sound = container.add_stream("pcm_s16le", rate=8000) if audio else None
        for index, frame in enumerate(levels):
            picture = av.VideoFrame.from_ndarray(frame, format=source)
            if apart is not None:
                picture.pts, picture.time_base = index * apart, Fraction(1, 1000)
            for packet in stream.encode(picture):
                container.mux(packet)
        for packet in stream.encode():
            container.mux(packet)
        if sound is not None:
            samples = av.AudioFrame.from_ndarray(
                np.zeros((1, 8000), np.int16), format="s16", layout="mono"
            )
            samples.sample_rate = 8000
            for packet in [*sound.encode(samples), *sound.encode()]:
                container.mux(packet)
    return path


def audio_only_file(path):
    """A Matroska file holding one second of silence and no picture."""
    with av.open(str(path), "w", format="matroska") as container:
        sound = container.add_stream("pcm_s16le", rate=8000)
        samples = av.AudioFrame.from_ndarray(
            np.zeros((1, 8000), np.int16), format="s16", layout="mono"
        )
        samples.sample_rate = 8000
        for packet in [*sound.encode(samples), *sound.encode()]:
            container.mux(packet)
    return path


def tiff_stack(path, levels, **options):
    """`levels` as a multi-page TIFF, one page a frame."""
    with tifffile.TiffWriter(path) as tiff:
        for frame in levels:
            tiff.write(frame, photometric="rgb" if frame.ndim == 3 else "minisblack", **options)
    return path


def animation_file(path, levels, *, milliseconds=40, **options):
    """`levels` (uint8) as an animated GIF, WebP or PNG (by `path`'s extension), every frame
    shown `milliseconds`."""
    pictures = [Image.fromarray(frame) for frame in levels]
    pictures[0].save(
        path, save_all=True, append_images=pictures[1:], duration=milliseconds, loop=0, **options
    )
    return path


def avif_sequence(path, levels, *, milliseconds=100):
    """`levels` (uint8, frames × height × width × 3) as an AVIF sequence written by Pillow, as a
    phone's burst is: the first frame also stored as the file's primary image (a still), every
    frame in its movie track, shown `milliseconds`. Unsubsampled colour at quality 100, so the
    frames stay near these levels. Skips, naming it, where Pillow writes no AVIF."""
    from PIL import features

    if not features.check("avif"):
        pytest.skip("this Pillow has no AVIF support (Pillow 11.3 or later brings it)")
    pictures = [Image.fromarray(frame) for frame in levels]
    pictures[0].save(
        path,
        format="AVIF",
        save_all=True,
        append_images=pictures[1:],
        duration=milliseconds,
        subsampling="4:4:4",
        quality=100,
    )
    return path


def frames_as_pillow_shows_them(path):
    """Each frame of the animation or sequence at `path` as Pillow decodes it, in red, green
    and blue, float64 in [0, 1]: a reader independent of BlurApp's."""
    with Image.open(path) as image:
        frames = []
        for index in range(image.n_frames):
            image.seek(index)
            frames.append(np.asarray(image.convert("RGB"), np.float64) / 255)
    return np.stack(frames)


def _png_chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def apng_file(path, levels, *, colour_type=0, declared=None):
    """`levels` (uint8 or uint16, frames × height × width (× samples)) as an animated PNG
    written chunk by chunk (Pillow writes no 16-bit APNG); `declared` frames in its acTL."""
    levels = np.asarray(levels)
    height, width = levels.shape[1:3]
    depth = 16 if levels.dtype == np.uint16 else 8
    header = struct.pack(">IIBBBBB", width, height, depth, colour_type, 0, 0, 0)
    out = b"\x89PNG\r\n\x1a\n" + _png_chunk(b"IHDR", header)
    out += _png_chunk(b"acTL", struct.pack(">II", declared or len(levels), 0))
    sequence = 0
    for index, frame in enumerate(levels):
        control = struct.pack(">IIIIIHHBB", sequence, width, height, 0, 0, 1, 10, 0, 0)
        out += _png_chunk(b"fcTL", control)
        sequence += 1
        rows = frame.astype(frame.dtype.newbyteorder(">")).reshape(height, -1).view(np.uint8)
        data = zlib.compress(b"".join(b"\0" + row.tobytes() for row in rows))
        if index == 0:
            out += _png_chunk(b"IDAT", data)
        else:
            out += _png_chunk(b"fdAT", struct.pack(">I", sequence) + data)
            sequence += 1
    path.write_bytes(out + _png_chunk(b"IEND", b""))
    return path


# 40 ms apart for frames 0–49, 20 ms for 50–74, 60 ms for 75–99: four seconds for 100 frames,
# so the average rate is the base rate, 25 a second, though most frames are not 40 ms apart.
LATE = [40 * i for i in range(50)] + [2000 + 20 * i for i in range(25)]
LATE += [2500 + 60 * i for i in range(25)]


def late_video(path, *, options=None):
    """100 grey frames shown at LATE, each of level 20 + 2 × its index: lossless H.264 (of red,
    green and blue) with a keyframe every 12 frames and frames stored out of order."""
    options = {"qp": "0", "g": "12", "bf": "2", **(options or {})}
    with av.open(str(path), "w") as container:
        stream = container.add_stream("libx264rgb", rate=25)
        stream.width = stream.height = 16
        stream.pix_fmt = "rgb24"
        stream.codec_context.time_base = Fraction(1, 1000)
        stream.options = options
        for index, stamp in enumerate(LATE):
            picture = av.VideoFrame.from_ndarray(
                np.full((16, 16, 3), 20 + 2 * index, np.uint8), "rgb24"
            )
            picture.pts, picture.time_base = stamp, Fraction(1, 1000)
            for packet in stream.encode(picture):
                container.mux(packet)
        for packet in stream.encode():
            container.mux(packet)
    return path


def frame_number(frame):
    """Which of late_video's frames `frame` is, from its level."""
    return round((float(frame.mean()) * 255 - 20) / 2)


def _numbered_frame(index, size=16):
    """A grey frame that frame_number reads back as `index`, as red, green and blue."""
    return av.VideoFrame.from_ndarray(np.full((size, size, 3), 20 + 2 * index, np.uint8), "rgb24")


def joined_recordings(path, *, frames=12, parts=2):
    """`parts` MPEG-TS recordings of `frames` frames each, joined end to end as `cat` joins
    them: each starts its timestamps over. Lossless H.264 with B-frames and a keyframe every 4
    frames; frame_number reads frame i of the whole as i."""
    recordings = []
    for part in range(parts):
        recording = path.with_name(f"{path.stem}-part{part}.ts")
        with av.open(str(recording), "w", format="mpegts") as container:
            stream = container.add_stream("libx264rgb", rate=25)
            stream.width = stream.height = 16
            stream.pix_fmt = "rgb24"
            stream.options = {"qp": "0", "g": "4", "bf": "2"}
            for index in range(frames):
                picture = _numbered_frame(part * frames + index)
                picture.pts = index
                for packet in stream.encode(picture):
                    container.mux(packet)
            for packet in stream.encode():
                container.mux(packet)
        recordings.append(recording.read_bytes())
        recording.unlink()
    path.write_bytes(b"".join(recordings))
    return path


def restarted_matroska(path, stamps=(1000, 1040, 1080, 0, 40, 80, 120, 160, 200, 240)):
    """An FFV1 Matroska file whose frames are stamped `stamps` (milliseconds): timestamps that
    start over inside one file, as an edit or a capture whose clock was reset leaves them.
    Each cluster of three frames is written at times 1000 + 40·i, then its timestamp set to
    what `stamps` says (FFmpeg's muxer writes no timestamp lower than one before it).
    frame_number reads the file's frame i as i."""
    stamps = list(stamps)
    with av.open(str(path), "w", format="matroska",
                 options={"cluster_time_limit": "100", "write_crc32": "0"}) as container:  # fmt: skip
        stream = container.add_stream("ffv1", rate=25)
        stream.width = stream.height = 16
        stream.pix_fmt = "bgr0"  # lossless: the levels come back exactly
        stream.codec_context.time_base = Fraction(1, 1000)
        for index in range(len(stamps)):
            picture = _numbered_frame(index)
            picture.pts, picture.time_base = 1000 + 40 * index, Fraction(1, 1000)
            for packet in stream.encode(picture):
                container.mux(packet)
        for packet in stream.encode():
            container.mux(packet)
    data = bytearray(path.read_bytes())
    cluster, at = 0, 0
    while (at := data.find(b"\x1f\x43\xb6\x75", at)) >= 0:  # a Cluster's ID
        size_width = 9 - data[at + 4].bit_length()  # the EBML size's own length
        element = at + 4 + size_width
        assert data[element] == 0xE7, "a cluster's timestamp comes first"  # Timestamp's ID
        width = data[element + 1] & 0x7F
        value = slice(element + 2, element + 2 + width)
        written = int.from_bytes(data[value], "big")
        assert written == 1000 + 120 * cluster
        data[value] = stamps[3 * cluster].to_bytes(width, "big")
        cluster, at = cluster + 1, element
    assert cluster == -(-len(stamps) // 3)
    path.write_bytes(bytes(data))
    return path
