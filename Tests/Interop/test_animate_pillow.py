"""Pillow, an image library nobody here wrote, reads `quakemap animate`'s animated PNG.

On shared USGS feeds (../shared/data/usgs; skipped where absent): Pillow must see an
animation of duration × fps frames, each shown 1/fps s and the last the hold more, and
its first and last frames must be the pixels of quakemap's own still render of the same
moment (`animate --at first` / `--at last`, drawn by the ordinary render path) within
the golden-image tolerance: mean absolute difference at most 0.5/255, and at least
99.9 % of pixels within 8/255 on every channel.
"""
import subprocess

import pytest

Image = pytest.importorskip("PIL.Image", reason="Pillow is installed by `make test` (Tests/Interop/requirements.txt)")

from conftest import BIN, ROOT, SHARED  # noqa: E402

FEEDS = ["all_month_2020-06.csv", "significant_month_2024-05.csv", "4.5_week_2020-10.geojson"]
DURATION, FPS, HOLD = 3, 10, 1.5
COMMON = ["--width", "512", "--duration", str(DURATION), "--fps", str(FPS), "--hold", str(HOLD), "--quiet"]


@pytest.fixture(params=FEEDS)
def feed(request):
    path = SHARED / request.param
    if not path.exists():
        pytest.skip(f"{path} is absent: the shared USGS feeds are beside the project in CI")
    return path


def animate(*arguments):
    result = subprocess.run([str(BIN / "quakemap"), "animate", *arguments], capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stderr
    return result


def pixels(image):
    return list(image.convert("RGBA").get_flattened_data())


def difference(expected, actual):
    """Mean absolute channel difference and share of pixels within 8 on every channel."""
    assert expected.size == actual.size
    a, b = pixels(expected), pixels(actual)
    total = 0
    close = 0
    for p, q in zip(a, b):
        deltas = [abs(x - y) for x, y in zip(p, q)]
        total += sum(deltas)
        close += max(deltas) <= 8
    return total / (len(a) * 4), close / len(a)


def test_pillow_reads_the_animation_and_its_end_frames_are_the_stills(feed, tmp_path):
    animation = tmp_path / "animation.png"
    animate(str(feed), *COMMON, "-o", str(animation))
    first_still, last_still = tmp_path / "first.png", tmp_path / "last.png"
    animate(str(feed), *COMMON, "--at", "first", "-o", str(first_still))
    animate(str(feed), *COMMON, "--at", "last", "-o", str(last_still))

    with Image.open(animation) as image:
        assert image.format == "PNG"
        assert image.is_animated
        assert image.n_frames == DURATION * FPS
        assert image.info.get("loop") == 0
        durations = []
        frames = {}
        for index in range(image.n_frames):
            image.seek(index)
            durations.append(image.info["duration"])
            if index in (0, image.n_frames - 1):
                frames[index] = image.convert("RGBA")
        assert durations[:-1] == [1000 / FPS] * (DURATION * FPS - 1)
        assert durations[-1] == pytest.approx(1000 / FPS + HOLD * 1000)

    for index, still in ((0, first_still), (DURATION * FPS - 1, last_still)):
        with Image.open(still) as expected:
            assert not getattr(expected, "is_animated", False)
            mean, within = difference(expected, frames[index])
            assert mean <= 0.5, f"frame {index}: mean difference {mean}"
            assert within >= 0.999, f"frame {index}: {within:.4%} of pixels within 8/255"
    # The first and last moments differ (events appear): the comparison can fail.
    with Image.open(last_still) as last:
        _, within = difference(last, frames[0])
        assert within < 0.999


@pytest.mark.parametrize("source", ["sample", "week"])
def test_each_frame_pillow_composes_is_the_full_frame(tmp_path, source):
    """Frames after the first store only the region that changed, unchanged pixels transparent and
    blended over: Pillow, compositing them as the APNG specification says, must get every full frame
    (the ones `--frames` writes) pixel for pixel, and the file must be a fraction of the frames' bytes."""
    path = SHARED / "4.5_week_2020-10.geojson" if source == "week" else ROOT / "Data" / "synthetic_all_day.csv"
    if not path.exists():
        pytest.skip(f"{path} is absent: the shared USGS feeds are beside the project in CI")
    common = ["--width", "640", "--duration", "3", "--fps", "10", "--limit", "0", "--quiet"]
    animation, folder = tmp_path / "animation.png", tmp_path / "frames"
    animate(str(path), *common, "-o", str(animation))
    animate(str(path), *common, "--frames", str(folder))
    files = sorted(folder.glob("frame-*.png"))
    assert len(files) == 30
    with Image.open(animation) as image:
        assert image.n_frames == len(files)
        for index, file in enumerate(files):
            image.seek(index)
            with Image.open(file) as full:
                composed, expected = image.convert("RGBA"), full.convert("RGBA")
                assert composed.tobytes() == expected.tobytes(), f"frame {index + 1} differs from {file.name}"
    whole = sum(file.stat().st_size for file in files)
    assert animation.stat().st_size * 4 < whole, (animation.stat().st_size, whole)
