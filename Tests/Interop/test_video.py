"""ffprobe and ffmpeg, which nobody here wrote, read `quakemap animate`'s videos.

For each codec (.mp4: H.264, .webm: VP9), on an even and an odd frame size: ffprobe must see
the codec, yuv420p, the size (an odd one padded to even), the rate, the frame count (the
animation's frames and the hold's) and the duration; and every decoded frame, cropped to the
map's size, must be the PNG frame `animate --frames` draws of the same moment within 35 dB PSNR
(the hold's frames: the last one). The padding must be black.
"""
import json
import shutil
import subprocess

import pytest

np = pytest.importorskip("numpy", reason="numpy is installed by `make test` (Tests/Interop/requirements.txt)")
Image = pytest.importorskip("PIL.Image", reason="Pillow is installed by `make test` (Tests/Interop/requirements.txt)")

from conftest import BIN, SAMPLE  # noqa: E402

FPS, DURATION, HOLD = 10, 1, 0.5
FRAMES, HELD = FPS * DURATION, round(HOLD * FPS)
CODECS = {"mp4": "h264", "webm": "vp9"}

if shutil.which("ffmpeg") is None or shutil.which("ffprobe") is None:
    pytest.skip("ffmpeg and ffprobe are installed by `make test` (Debian's ffmpeg)", allow_module_level=True)


def animate(*arguments):
    result = subprocess.run([str(BIN / "quakemap"), "animate", str(SAMPLE), "--duration", str(DURATION),
                             "--fps", str(FPS), "--hold", str(HOLD), "--quiet", *map(str, arguments)],
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    return result


@pytest.fixture(scope="module", params=[(640, 320), (641, 321)], ids=["640x320", "641x321"])
def frames(request, tmp_path_factory):
    """The size and `--frames`' PNGs, as RGB arrays, of the animation every video here encodes."""
    width, height = request.param
    folder = tmp_path_factory.mktemp("frames") / "frames"
    animate("--width", width, "--height", height, "--frames", folder)
    files = sorted(folder.glob("frame-*.png"))
    assert len(files) == FRAMES
    return width, height, [np.asarray(Image.open(file).convert("RGB"), dtype=np.float64) for file in files]


def psnr(expected, actual):
    mse = np.mean((expected - actual) ** 2)
    return float("inf") if mse == 0 else 10 * np.log10(255 ** 2 / mse)


@pytest.mark.parametrize("extension", CODECS)
def test_ffmpeg_decodes_each_frame_of_the_video(frames, extension, tmp_path):
    width, height, pngs = frames
    video = tmp_path / f"animation.{extension}"
    animate("--width", width, "--height", height, "-o", video)

    probe = subprocess.run(["ffprobe", "-v", "error", "-show_streams", "-count_frames", "-of", "json", str(video)],
                           capture_output=True, text=True, check=True, timeout=60)
    streams = json.loads(probe.stdout)["streams"]
    assert len(streams) == 1
    stream = streams[0]
    padded_width, padded_height = width + width % 2, height + height % 2
    assert stream["codec_name"] == CODECS[extension]
    assert stream["pix_fmt"] == "yuv420p"
    assert (stream["width"], stream["height"]) == (padded_width, padded_height)
    assert stream["r_frame_rate"] == f"{FPS}/1"
    assert int(stream["nb_read_frames"]) == FRAMES + HELD
    if extension == "mp4":
        assert float(stream["duration"]) == pytest.approx((FRAMES + HELD) / FPS, abs=1e-3)
    else:
        # WebM keeps the duration in the container, to the millisecond.
        container = json.loads(subprocess.run(["ffprobe", "-v", "error", "-show_format", "-of", "json", str(video)],
                                              capture_output=True, text=True, check=True).stdout)["format"]
        assert float(container["duration"]) == pytest.approx((FRAMES + HELD) / FPS, abs=1e-3)

    decoded = subprocess.run(["ffmpeg", "-v", "error", "-i", str(video), "-f", "rawvideo", "-pix_fmt", "rgb24", "-"],
                             capture_output=True, check=True, timeout=60).stdout
    size = padded_width * padded_height * 3
    assert len(decoded) == size * (FRAMES + HELD)
    scores = []
    for index in range(FRAMES + HELD):
        frame = np.frombuffer(decoded[index * size:(index + 1) * size], dtype=np.uint8)
        frame = frame.reshape(padded_height, padded_width, 3).astype(np.float64)
        expected = pngs[min(index, FRAMES - 1)]
        scores.append(psnr(expected, frame[:height, :width]))
        # Padding is black (its chroma is shared with the map's edge: within a few levels).
        if padded_width > width:
            assert frame[:, width:].mean() < 20, f"frame {index + 1}: padding column not black"
        if padded_height > height:
            assert frame[height:, :].mean() < 20, f"frame {index + 1}: padding row not black"
    assert min(scores) >= 35, f"{extension} {width}x{height}: PSNR per frame {[round(s, 1) for s in scores]}"
    # The frames differ from one another (events appear): the comparison can fail.
    assert psnr(pngs[0], pngs[-1]) < 35
