"""`make install` into a temporary DESTDIR, checked with tools nobody here wrote: man(1) reads every
page, bash parses the completion, readelf finds no symbol table in the stripped binaries, Pillow
decodes the map the installed binary draws; `make uninstall` leaves nothing behind. The debug build
is installed (CONFIGURATION=debug), so that the test needs no release build; the recipe is the same."""
import os
import pathlib
import re
import subprocess

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]


def make(*arguments, destdir):
    result = subprocess.run(["make", "--no-print-directory", *arguments, f"DESTDIR={destdir}", "PREFIX=/usr",
                             "CONFIGURATION=debug"], cwd=ROOT, capture_output=True, text=True, timeout=900)
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-2000:]
    return result


def test_install_then_uninstall(tmp_path):
    from PIL import Image
    destdir = tmp_path / "stage"
    make("install", destdir=destdir)
    usr = destdir / "usr"
    manifest = usr / "share" / "quakemap" / "installed-files"
    listed = manifest.read_text().split()
    found = sorted("/" + str(path.relative_to(destdir)) for path in destdir.rglob("*") if path.is_file() and path != manifest)
    assert sorted(listed) == found
    for name in ["bin/quakemap", "bin/quakemap-server", "share/man/man1/quakemap.1", "share/man/man1/quakemap.render.1",
                 "share/man/man1/quakemap-server.1", "share/bash-completion/completions/quakemap",
                 "share/zsh/site-functions/_quakemap", "share/fish/vendor_completions.d/quakemap.fish",
                 "lib/systemd/system/quakemap.service", "lib/systemd/system/quakemap.timer",
                 "share/doc/quakemap/LICENSE", "share/doc/quakemap/NOTICE"]:
        assert f"/usr/{name}" in listed, name

    # Every page reads; the render page has the options the command has.
    environment = dict(os.environ, MANWIDTH="120", MANPAGER="cat", PAGER="cat", LC_ALL="C.UTF-8")
    for page in sorted((usr / "share" / "man" / "man1").glob("*.1")):
        shown = subprocess.run(["man", "-l", str(page)], capture_output=True, text=True, env=environment, timeout=60)
        assert shown.returncode == 0 and "NAME" in shown.stdout, (page.name, shown.stderr)
    render_page = subprocess.run(["man", "-l", str(usr / "share/man/man1/quakemap.render.1")], capture_output=True,
                                 text=True, env=environment, timeout=60).stdout
    assert "quakemap render" in render_page and "--basemap" in render_page and "--symbol" in render_page

    # Stripped, and the installed binary draws the sample.
    for program in ["quakemap", "quakemap-server"]:
        sections = subprocess.run(["readelf", "-S", str(usr / "bin" / program)], capture_output=True, text=True).stdout
        assert ".symtab" not in sections, program
    out = tmp_path / "map.png"
    drawn = subprocess.run([str(usr / "bin" / "quakemap"), "render", str(ROOT / "Data" / "synthetic_all_day.csv"), "-o", str(out)],
                           capture_output=True, text=True, timeout=120)
    assert drawn.returncode == 0, drawn.stderr
    assert Image.open(out).size == (2048, 1024)

    # The bash completion parses and knows the subcommands; the units run the installed binary.
    completion = usr / "share/bash-completion/completions/quakemap"
    assert subprocess.run(["bash", "-n", str(completion)]).returncode == 0
    assert "render" in completion.read_text() and "ingest" in completion.read_text()
    service = (usr / "lib/systemd/system/quakemap.service").read_text()
    assert "ExecStart=/usr/bin/quakemap render " in service and "@BINDIR@" not in service

    make("uninstall", destdir=destdir)
    assert [path for path in destdir.rglob("*") if path.is_file()] == []


def test_the_documented_units_are_the_installed_ones():
    """docs/operations.md shows the unit and timer that contrib/systemd holds (for /usr/local)."""
    document = (ROOT / "docs" / "operations.md").read_text()
    for unit in ["quakemap.service", "quakemap.timer"]:
        text = (ROOT / "contrib" / "systemd" / unit).read_text().replace("@BINDIR@", "/usr/local/bin")
        body = "\n".join(line for line in text.splitlines() if not line.startswith("# ") or "75 means" in line)
        assert body.strip() in document, unit
