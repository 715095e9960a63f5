"""quakemap's QuakeML keeps every field QuakeML 1.2 has a place for, as ObsPy (a reader nobody
here wrote) reads them: a real USGS month (../shared; skipped where absent) is listed by
quakemap as CSV and as QuakeML; the QuakeML must be valid against the QuakeML 1.2 schemas
ObsPy ships (XSD and RelaxNG, checked by xmllint, else by lxml, which is the same libxml2),
and ObsPy's origin quality, uncertainties, station counts, agencies and evaluation must be
the CSV's numbers and words (metres where QuakeML counts metres).

ObsPy reads about 300–1,000 QuakeML events a second, so the month is thinned to every k-th
row (about ROWS) unless QUAKEMAP_OBSPY_ALL=1.
"""
import csv
import math
import os
import pathlib
import shutil
import subprocess

import pytest

obspy = pytest.importorskip("obspy", reason="ObsPy is installed by `make test` (Tests/Interop/requirements.txt)")
from obspy import read_events  # noqa: E402
import obspy.io.quakeml.core  # noqa: E402
from lxml import etree  # noqa: E402 (ObsPy's own dependency)

from conftest import SHARED, quakemap  # noqa: E402

FEED = SHARED / "all_month_2022-03.csv"
ROWS = 0 if os.environ.get("QUAKEMAP_OBSPY_ALL") == "1" else 2000
SCHEMAS = pathlib.Path(obspy.io.quakeml.core.__file__).parent / "data"

# The CSV's column, where ObsPy keeps it (below the preferred origin or magnitude), and the
# factor from the CSV's unit to QuakeML's.
NUMBERS = [
    ("nst", "origin", "quality.used_station_count", 1),
    ("gap", "origin", "quality.azimuthal_gap", 1),
    ("dmin", "origin", "quality.minimum_distance", 1),
    ("rms", "origin", "quality.standard_error", 1),
    ("horizontalError", "origin", "origin_uncertainty.horizontal_uncertainty", 1000),
    ("depthError", "origin", "depth_errors.uncertainty", 1000),
    ("magError", "magnitude", "mag_errors.uncertainty", 1),
    ("magNst", "magnitude", "station_count", 1),
]
AGENCIES = [
    ("locationSource", "origin", "creation_info.agency_id"),
    ("magSource", "magnitude", "creation_info.agency_id"),
    ("net", "event", "creation_info.agency_id"),
]


def attribute(thing, path):
    """`thing`'s attribute at a dotted path, None where a step is missing (ObsPy's objects
    are false when their values are, so no `and` chains)."""
    for name in path.split("."):
        if thing is None:
            return None
        thing = getattr(thing, name, None)
    return thing


# quakemap's status words as the origin's evaluation (QuakeMLEncoder.evaluation(of:)).
EVALUATION = {"automatic": ("automatic", None), "reviewed": ("manual", "reviewed"), "deleted": (None, "rejected")}




@pytest.fixture(scope="module")
def listed(tmp_path_factory):
    """The (thinned) month, and quakemap's CSV and QuakeML of it."""
    if not FEED.exists():
        pytest.skip(f"{FEED} is absent: the shared USGS feeds are beside the project in CI")
    folder = tmp_path_factory.mktemp("quakeml-fields")
    feed = FEED
    with FEED.open(newline="", encoding="utf-8") as f:
        header, *rows = list(csv.reader(f))
    if ROWS and len(rows) > ROWS:
        step = math.ceil(len(rows) / ROWS)
        feed = folder / f"thinned-{FEED.name}"
        with feed.open("w", newline="", encoding="utf-8") as f:
            writer = csv.writer(f, lineterminator="\n")
            writer.writerow(header)
            writer.writerows(rows[::step])
    rows = list(csv.DictReader(quakemap("list", feed, "--limit", "0", "--format", "csv").splitlines()))
    quakeml = folder / "quakemap.xml"
    quakeml.write_text(quakemap("list", feed, "--limit", "0", "--format", "quakeml"), encoding="utf-8")
    return rows, quakeml


@pytest.mark.parametrize("kind, schema", [("schema", "QuakeML-1.2.xsd"), ("relaxng", "QuakeML-1.2.rng")])
def test_the_quakeml_is_valid(listed, kind, schema):
    _, quakeml = listed
    path = SCHEMAS / schema
    assert path.exists(), f"ObsPy ships no {path}"
    xmllint = shutil.which("xmllint")
    if xmllint:
        result = subprocess.run([xmllint, "--noout", "--nonet", f"--{kind}", str(path), str(quakeml)],
                                capture_output=True, timeout=300)
        assert result.returncode == 0, result.stderr.decode(errors="replace")[:2000]
        return
    # Without libxml2-utils: lxml's validators, which are libxml2's too.
    validator = (etree.XMLSchema if kind == "schema" else etree.RelaxNG)(etree.parse(str(path)))
    valid = validator.validate(etree.parse(str(quakeml)))
    assert valid, "; ".join(f"line {e.line}: {e.message[:160]}" for e in list(validator.error_log)[:5])


def same(expected, got):
    if expected is None or got is None:
        return expected is None and got is None
    return math.isclose(expected, got, rel_tol=1e-9, abs_tol=0)


def test_obspy_reads_every_field_as_the_csv_gives_it(listed):
    rows, quakeml = listed
    catalog = read_events(str(quakeml))
    assert catalog.count() == len(rows) > 0
    problems, compared = [], {}
    for row, event in zip(rows, catalog):
        origin = event.preferred_origin()
        magnitude = event.preferred_magnitude()
        assert str(event.resource_id).endswith("eventid=" + row["id"]), (row["id"], str(event.resource_id))

        def check(name, expected, got):
            if expected is not None:
                compared[name] = compared.get(name, 0) + 1
            equal = same(expected, got) if isinstance(expected, float) or isinstance(got, float) else expected == got
            if not equal:
                problems.append(f"{row['id']} {name}: {expected!r} ≠ {got!r}")

        owners = dict(event=event, origin=origin, magnitude=magnitude)
        for column, owner, path, factor in NUMBERS:
            expected = None if row[column] == "" else float(row[column]) * factor
            # What needs an element the event has not: a magnitude's, the depth's uncertainty.
            if (owner == "magnitude" and row["mag"] == "") or (column == "depthError" and row["depth"] == ""):
                expected = None
            got = attribute(owners[owner], path)
            check(column, expected, None if got is None else float(got))
        for column, owner, path in AGENCIES:
            expected = row[column] or None
            if owner == "magnitude" and row["mag"] == "":
                expected = None
            check(column, expected, attribute(owners[owner], path) or None)
        mode, status = EVALUATION.get(row["status"], (None, None))
        check("status", (mode, status), (origin.evaluation_mode, origin.evaluation_status))
    assert not problems, f"{len(problems)} differences, the first: " + "; ".join(problems[:8])
    # Every field was compared on events that have it (not a vacuous pass).
    for column in [number[0] for number in NUMBERS] + [agency[0] for agency in AGENCIES] + ["status"]:
        assert compared.get(column, 0) > 0, f"no event has {column}: {compared}"


# FDSN text's own columns, where ObsPy's reader of the format (EVENTTXT) keeps them.
TEXT_COLUMNS = [
    ("locationSource", "origin", "creation_info.author"),  # Author
    ("net", "origin", "creation_info.agency_id"),  # Contributor
    ("magSource", "magnitude", "creation_info.author"),  # MagAuthor
]


def test_obspy_reads_fdsn_text_columns_from_their_own_fields(tmp_path):
    """quakemap's FDSN text writes each column from its own field: ObsPy's reader finds the
    CSV's locationSource as the origin's author, net as its agency, magSource as the magnitude's."""
    if not FEED.exists():
        pytest.skip(f"{FEED} is not beside the repository")
    rows = {row["id"]: row for row in csv.DictReader(quakemap("list", FEED, "--limit", "0").splitlines())}
    text = tmp_path / "quakemap.txt"
    text.write_text(quakemap("list", FEED, "--limit", "0", "--format", "text"), encoding="utf-8")
    catalog = read_events(str(text), format="EVENTTXT")
    assert catalog.count() == len(rows)
    checked = {column: 0 for column, _, _ in TEXT_COLUMNS}
    for event in catalog:
        row = rows[str(event.resource_id).split("/")[-1]]
        for column, owner, path in TEXT_COLUMNS:
            thing = event.preferred_origin() or event.origins[0] if owner == "origin" else \
                event.preferred_magnitude() or event.magnitudes[0]
            assert (attribute(thing, path) or "") == row[column], (row["id"], column)
            checked[column] += row[column] != ""
    assert all(checked.values()), checked
