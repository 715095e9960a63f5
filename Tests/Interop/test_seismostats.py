"""SeismoStats 1.0.1, the statistical seismology toolbox nobody here wrote, against `quakemap stats`.

1. On every shared USGS feed (../shared/data/usgs; skipped where absent): Mc by maximum curvature
   and b (Aki–Utsu, ± Shi & Bolt) as before, now to 1e-6 relative (the JSON is no longer rounded).
2. On the feeds and on synthetic Gutenberg–Richter catalogues of known b (drawn here with NumPy and
   a fixed seed, written as small USGS-style CSV files): every b-value estimator's b, a and σ
   (Shi & Bolt, or the estimator's own) to 1e-6 relative at quakemap's Mc; bootstrap σ within 10 %;
   Mc by maximum curvature and b-stability to the bin, by KS within a bin, and exactly when SeismoStats
   gets quakemap's simulated distances; b_significant_1D's statistic and p-value to 1e-6.

The magnitudes SeismoStats gets are read from each file here (test_obspy.feed_rows), one per event id
(the last row of an id, as quakemap keeps the latest), in time order (a stable sort, as quakemap's).
Sizes and Monte Carlo counts are small: the file runs in CI within a minute.
"""
import datetime
import json
import math

import pytest

np = pytest.importorskip("numpy", reason="installed with SeismoStats by `make test`")
seismostats = pytest.importorskip("seismostats", reason="SeismoStats is installed by `make test` (Tests/Interop/requirements.txt)")
from seismostats.analysis import (AMorePositiveAValueEstimator, APositiveAValueEstimator,  # noqa: E402
                                  BMorePositiveBValueEstimator, BPositiveBValueEstimator,
                                  ClassicAValueEstimator, ClassicBValueEstimator, UtsuBValueEstimator,
                                  estimate_mc_maxc)
from seismostats.analysis.b_significant import b_significant_1D  # noqa: E402
from seismostats.analysis.bvalue.kijko_smit import estimate_b_kijko_smit  # noqa: E402
from seismostats.analysis.bvalue.utils import bootstrap_std  # noqa: E402
from seismostats.analysis.bvalue.weichert import estimate_b_weichert  # noqa: E402
from seismostats.analysis.estimate_mc import estimate_mc_b_stability, estimate_mc_ks  # noqa: E402
from seismostats.utils import bin_to_precision  # noqa: E402

from conftest import SHARED  # noqa: E402
from test_obspy import FEEDS, feed_rows, quakemap  # noqa: E402

# Mc 2.5 on the M4.5+ feeds leaves the lowest bins empty, which SeismoStats warns about; intended.
pytestmark = [pytest.mark.filterwarnings("ignore:No magnitudes in the lowest magnitude bin"),
              pytest.mark.filterwarnings("ignore::RuntimeWarning"),
              pytest.mark.filterwarnings("ignore::UserWarning")]

MINIMUM_EVENTS = 50  # quakemap's documented floor (GutenbergRichterFit.minimumEvents)
RELATIVE = 1e-6      # the agreement asked of every deterministic figure

# (quakemap options, Δm, how SeismoStats gets Mc)
SETTINGS = [
    ([], 0.1, ("maxc", 0.2)),
    (["--mc-correction", "0"], 0.1, ("maxc", 0.0)),
    (["--mag-bin", "0.2"], 0.2, ("maxc", 0.2)),
    (["--mc", "2.5"], 0.1, ("fixed", 2.5)),
]

B_ESTIMATORS = {"utsu": UtsuBValueEstimator, "classic": ClassicBValueEstimator,
                "positive": BPositiveBValueEstimator, "more-positive": BMorePositiveBValueEstimator}


def catalogue(path):
    """(magnitudes, times in ms) one per id, in time order (stable)."""
    latest = {}
    for row in feed_rows(path):
        latest[row["id"]] = row
    rows = [r for r in latest.values() if r["mag"] is not None]
    rows.sort(key=lambda r: r["ms"])
    return np.array([r["mag"] for r in rows], dtype=float), np.array([r["ms"] for r in rows], dtype=np.int64)


def magnitudes(path):
    return catalogue(path)[0]


def stats(path, *options):
    return json.loads(quakemap("stats", path, "--format", "json", "--quiet", *options))


def seismostats_fit(mags, delta_m, how):
    binned = bin_to_precision(mags, delta_m)
    if how[0] == "maxc":
        mc, _ = estimate_mc_maxc(binned, fmd_bin=delta_m, correction_factor=how[1])
    else:
        mc = how[1]
    mc = float(bin_to_precision(np.array([mc]), delta_m)[0])
    estimator = UtsuBValueEstimator()
    b = estimator.calculate(binned, mc=mc, delta_m=delta_m)
    return mc, estimator.n, b, (estimator.std if estimator.n > 1 else math.nan)


def rel(a, b):
    return abs(a - b) / max(abs(b), 1e-300)


def feed_path(name):
    path = SHARED / name
    if not path.exists():
        pytest.skip(f"{path} is absent (../shared/data/usgs is beside the checkout in CI)")
    return path


# --- 1. Mc by maximum curvature and Aki–Utsu, on the feeds -------------------------------------

@pytest.mark.parametrize("name", FEEDS)
@pytest.mark.parametrize("options,delta_m,how", SETTINGS, ids=["maxc+0.2", "maxc", "bin0.2", "mc2.5"])
def test_mc_and_b_agree_with_seismostats(name, options, delta_m, how):
    path = feed_path(name)
    mc, n, b, sigma = seismostats_fit(magnitudes(path), delta_m, how)

    fit = stats(path, *options)["gutenbergRichter"]
    assert fit["mc"] == pytest.approx(mc, abs=1e-9), f"{name}: Mc"
    assert fit["eventsAboveMc"] == n, f"{name}: events at or above Mc"
    assert fit["minimumEvents"] == MINIMUM_EVENTS
    if n < MINIMUM_EVENTS:
        assert "b" not in fit and f"{n} at or above Mc" in fit["problem"], fit
        return
    assert fit["binWidth"] == delta_m
    assert rel(fit["b"], b) < RELATIVE, f"{name}: b {fit['b']} against SeismoStats's {b}"
    assert rel(fit["bUncertainty"], sigma) < RELATIVE, f"{name}: σ(b)"
    # The a-value puts the line through the Mc bin's cumulative count.
    assert rel(fit["a"], math.log10(n) + b * mc) < RELATIVE


def test_the_text_report_says_the_same():
    path = feed_path("all_month_2020-06.csv")
    mc, n, b, sigma = seismostats_fit(magnitudes(path), 0.1, ("maxc", 0.2))
    text = quakemap("stats", path, "--quiet")
    assert f"Mc         {mc:.1f} (maximum curvature + 0.2, bins of 0.1)" in text
    assert f"b          {b:.3f} ± {sigma:.3f} (Aki–Utsu, Shi & Bolt; {n} events ≥ Mc)" in text
    assert f"b utsu     {b:.3f} ± {sigma:.3f} (Aki–Utsu, σ by shi-bolt; n {n})" in text


# --- 2. every estimator --------------------------------------------------------------------------

def seismostats_b(method, binned, mc, delta_m):
    """b, σ (Shi & Bolt; None for more-positive, whose σ is a bootstrap) and n."""
    estimator = B_ESTIMATORS[method]()
    estimator.calculate(binned, mc=mc, delta_m=delta_m)   # in time order: times=None
    std = None if method == "more-positive" else estimator.std
    return estimator.b_value, std, estimator.n


def seismostats_a(method, binned, times, mc, delta_m, b, m_ref=None, scaling=None):
    if method == "classic":
        return ClassicAValueEstimator().calculate(binned, mc=mc, delta_m=delta_m, m_ref=m_ref, b_value=b,
                                                  scaling_factor=scaling)
    if method == "positive":
        return APositiveAValueEstimator().calculate(binned, mc=mc, delta_m=delta_m, times=times, m_ref=m_ref,
                                                    b_value=b, scaling_factor=scaling)
    return AMorePositiveAValueEstimator().calculate(binned, mc=mc, delta_m=delta_m, times=times, b_value=b,
                                                    m_ref=m_ref, scaling_factor=scaling)


A_PAIRED = {"utsu": "classic", "classic": "classic", "positive": "positive", "more-positive": "more-positive"}


def check_estimators(path, delta_m=0.1, extra=()):
    """Runs every mc-based estimator through quakemap and SeismoStats; returns the worst relative gaps."""
    mags, ms = catalogue(path)
    binned = bin_to_precision(mags, delta_m)
    times = ms.astype(float)
    worst = {}
    for method in B_ESTIMATORS:
        # more-positive's σ is a bootstrap (500 by default): a few resamples keep the run short;
        # its agreement is checked in test_more_positive_sigma_is_seismostats_bootstrap.
        quick = ["--bootstrap", "20"] if method == "more-positive" else []
        out = stats(path, "--mag-bin", str(delta_m), "--b-method", method, *quick, *extra)
        if "estimate" not in out:
            pytest.skip(f"{path.name}: {out['gutenbergRichter'].get('problem')}")
        estimate = out["estimate"]
        if "problem" in estimate:
            continue
        mc = estimate["mc"]
        b, std, n = seismostats_b(method, binned, mc, delta_m)
        assert estimate["n"] == n, f"{path.name} {method}: n"
        gaps = [rel(estimate["b"], b)]
        if std is not None:
            assert estimate["stdMethod"] == "shi-bolt"
            gaps.append(rel(estimate["std"], std))
        else:
            assert estimate["stdMethod"] == "bootstrap"
        a = seismostats_a(A_PAIRED[method], binned, times, mc, delta_m, estimate["b"])
        assert estimate["aMethod"] == A_PAIRED[method]
        gaps.append(rel(estimate["a"], a))
        worst[method] = max(gaps)
        assert max(gaps) < RELATIVE, f"{path.name} {method}: b {estimate['b']} vs {b}, σ {estimate['std']} vs {std}, " \
                                     f"a {estimate['a']} vs {a}"
    return worst


@pytest.mark.parametrize("name", FEEDS)
def test_every_estimator_agrees_on_the_feeds(name):
    check_estimators(feed_path(name))


def write_csv(path, mags, ms, mag_types=("ml",)):
    """A small USGS-style CSV of `mags` at times `ms` (epoch ms)."""
    lines = ["time,latitude,longitude,depth,mag,magType,nst,gap,dmin,rms,net,id,updated,place,type"]
    for index, (m, t) in enumerate(zip(mags, ms)):
        when = datetime.datetime.fromtimestamp(int(t) / 1000, tz=datetime.timezone.utc)
        stamp = when.strftime("%Y-%m-%dT%H:%M:%S.") + f"{int(t) % 1000:03d}Z"
        kind = mag_types[index % len(mag_types)]
        lines.append(f"{stamp},{35 + index % 7 * 0.01:.4f},{-117 - index % 5 * 0.01:.4f},8.0,{m:.3f},{kind},,,,,"
                     f"ci,ci{index:07d},{stamp},\"synthetic\",earthquake")
    path.write_text("\n".join(lines) + "\n")
    return path


def synthetic(tmp_path, name, b, mc, size, delta_m, seed, incomplete=True):
    """A Gutenberg–Richter catalogue of `size` events above `mc` (continuous magnitudes to 3
    decimals), with an incomplete part below it (detection falling off over a magnitude unit),
    over 2010–2020 in random order of times."""
    rng = np.random.default_rng(seed)
    beta = b * math.log(10)
    mags = mc - delta_m / 2 + rng.exponential(1 / beta, size)
    if incomplete:
        low = mc - 1.0 - delta_m / 2 + rng.exponential(1 / beta, size * 3)
        low = low[low < mc - delta_m / 2]
        keep = rng.random(len(low)) < (low - (mc - 1.0)) / 1.0
        mags = np.concatenate([mags, low[keep]])
    rng.shuffle(mags)
    start = datetime.datetime(2010, 1, 1, tzinfo=datetime.timezone.utc).timestamp() * 1000
    ms = np.sort(rng.integers(int(start), int(start + 10 * 365.25 * 86400e3), len(mags)))
    return write_csv(tmp_path / f"{name}.csv", np.round(mags, 3), ms)


SYNTHETIC = [  # (b, Mc, size, Δm, seed)
    (1.0, 1.5, 3000, 0.1, 1),
    (0.8, 2.0, 2000, 0.1, 2),
    (1.3, 1.0, 2500, 0.1, 3),
    (1.0, 2.5, 2000, 0.2, 4),
    (1.1, 0.5, 2000, 0.05, 5),
]


@pytest.mark.parametrize("b,mc,size,delta_m,seed", SYNTHETIC)
def test_every_estimator_agrees_on_synthetic_catalogues(tmp_path, b, mc, size, delta_m, seed):
    path = synthetic(tmp_path, f"gr{seed}", b, mc, size, delta_m, seed)
    worst = check_estimators(path, delta_m)
    # And b is what was drawn (a sanity check of the catalogue, not of the tools): within 4 σ.
    out = stats(path, "--mag-bin", str(delta_m), "--mc", str(mc))["estimate"]
    assert abs(out["b"] - b) < 4 * out["std"], out
    print(f"b={b} Mc={mc} n={size} Δm={delta_m}: worst relative gap {worst}")


def test_reference_magnitude_and_scaling_agree(tmp_path):
    path = synthetic(tmp_path, "scaled", 1.0, 1.5, 2000, 0.1, 11)
    mags, ms = catalogue(path)
    binned = bin_to_precision(mags, 0.1)
    for method in ("utsu", "positive", "more-positive"):
        out = stats(path, "--b-method", method, "--m-ref", "3", "--a-scaling", "10", "--bootstrap", "2")["estimate"]
        a = seismostats_a(A_PAIRED[method], binned, ms.astype(float), out["mc"], 0.1, out["b"], m_ref=3, scaling=10)
        assert rel(out["a"], a) < RELATIVE, (method, out["a"], a)


def test_positive_estimators_take_dmc(tmp_path):
    path = synthetic(tmp_path, "dmc", 1.0, 1.5, 2000, 0.1, 12)
    mags, _ = catalogue(path)
    binned = bin_to_precision(mags, 0.1)
    for method in ("positive", "more-positive"):
        out = stats(path, "--b-method", method, "--dmc", "0.3", "--bootstrap", "2")["estimate"]
        estimator = B_ESTIMATORS[method]()
        b = estimator.calculate(binned, mc=out["mc"], delta_m=0.1, dmc=0.3)
        assert out["dmc"] == 0.3 and out["n"] == estimator.n
        assert rel(out["b"], b) < RELATIVE, (method, out["b"], b)


# --- completeness that changes with time: Weichert, Kijko–Smit ----------------------------------

TABLE = [(1960, 4.0), (1985, 3.0), (2000, 2.0)]


def periods_catalogue(tmp_path, seed, b=1.0, delta_m=0.1):
    """Events from 1960 to 2020, complete above 4.0, 3.0, 2.0 from 1960, 1985, 2000, with a few
    incomplete ones below each period's Mc."""
    rng = np.random.default_rng(seed)
    beta = b * math.log(10)
    mags, years = [], []
    ends = [p[0] for p in TABLE[1:]] + [2021]
    for (start, mc), end in zip(TABLE, ends):
        count = int(30 * 10 ** (b * (4.0 - mc)) * (end - start) / 10)
        mags.append(mc - delta_m / 2 + rng.exponential(1 / beta, count))
        years.append(rng.uniform(start, end, count))
        below = mc - 0.5 + rng.random(count // 10) * 0.45
        mags.append(below)
        years.append(rng.uniform(start, end, len(below)))
    mags, years = np.concatenate(mags), np.concatenate(years)
    epoch = np.array([datetime.datetime(int(y), 1, 1, tzinfo=datetime.timezone.utc).timestamp() * 1000
                      + (y % 1) * 365 * 86400e3 for y in years])
    order = np.argsort(epoch, kind="stable")
    return write_csv(tmp_path / f"periods{seed}.csv", np.round(mags[order], 2), epoch[order].astype(np.int64))


@pytest.mark.parametrize("seed", [21, 22])
def test_weichert_and_kijko_smit_agree(tmp_path, seed):
    delta_m = 0.1
    path = periods_catalogue(tmp_path, seed)
    mags, ms = catalogue(path)
    binned = bin_to_precision(mags, delta_m)
    times = ms.astype("datetime64[ms]")
    table = np.array([[mc - delta_m / 2, year] for year, mc in sorted(TABLE, key=lambda p: p[1])])
    option = ",".join(f"{year}:{mc}" for year, mc in TABLE)

    out = stats(path, "--b-method", "weichert", "--completeness", option)["estimate"]
    b, std, _, _, a = estimate_b_weichert(binned, times, table, mag_max=float(binned.max()) + delta_m, delta_m=delta_m)
    assert out["stdMethod"] == "weichert"
    for ours, theirs in ((out["b"], b), (out["std"], std), (out["a"], a)):
        assert rel(ours, theirs) < RELATIVE, (out, b, std, a)

    out = stats(path, "--b-method", "kijko-smit", "--completeness", option)["estimate"]
    b, std, _, a = estimate_b_kijko_smit(binned, times, table, delta_m=delta_m)
    assert out["stdMethod"] == "kijko-smit"
    for ours, theirs in ((out["b"], b), (out["std"], std), (out["a"], a)):
        assert rel(ours, theirs) < RELATIVE, (out, b, std, a)


# --- bootstrap ------------------------------------------------------------------------------------

def test_bootstrap_sigma_within_ten_percent(tmp_path):
    path = synthetic(tmp_path, "boot", 1.0, 1.5, 2000, 0.1, 31, incomplete=False)
    mags, _ = catalogue(path)
    binned = bin_to_precision(mags, 0.1)
    out = stats(path, "--mc", "1.5", "--bootstrap", "1000", "--seed", "7")["estimate"]
    kept = binned[binned >= 1.5 - 0.05]
    theirs = bootstrap_std(kept, lambda sample: UtsuBValueEstimator().calculate(sample, mc=1.5, delta_m=0.1),
                           n=1000, random_state=7)
    assert out["bootstrap"] == 1000
    assert abs(out["bootstrapStd"] - theirs) < 0.1 * theirs, (out["bootstrapStd"], theirs)
    # The same seed gives the same σ; the Shi–Bolt σ is close to the bootstrap's for Aki–Utsu.
    again = stats(path, "--mc", "1.5", "--bootstrap", "1000", "--seed", "7")["estimate"]
    assert again["bootstrapStd"] == out["bootstrapStd"]
    assert abs(out["std"] - theirs) < 0.1 * theirs


def test_more_positive_sigma_is_seismostats_bootstrap(tmp_path):
    path = synthetic(tmp_path, "moreboot", 1.0, 1.5, 600, 0.1, 32, incomplete=False)
    mags, _ = catalogue(path)
    binned = bin_to_precision(mags, 0.1)
    out = stats(path, "--mc", "1.5", "--b-method", "more-positive", "--bootstrap", "1000")["estimate"]
    estimator = BMorePositiveBValueEstimator()
    estimator.calculate(binned, mc=1.5, delta_m=0.1)
    theirs = estimator._std_bootstrap(n=1000, random_state=3)
    assert out["stdMethod"] == "bootstrap"
    assert abs(out["std"] - theirs) < 0.1 * theirs, (out["std"], theirs)


# --- completeness methods -----------------------------------------------------------------------------

@pytest.mark.parametrize("b,mc,size,delta_m,seed", SYNTHETIC[:3])
def test_b_stability_mc_agrees(tmp_path, b, mc, size, delta_m, seed, capsys):
    path = synthetic(tmp_path, f"stab{seed}", b, mc, size, delta_m, seed)
    binned = bin_to_precision(catalogue(path)[0], delta_m)
    theirs, info = estimate_mc_b_stability(binned, delta_m=delta_m)
    fit = stats(path, "--mag-bin", str(delta_m), "--mc-method", "b-stability")["gutenbergRichter"]
    assert fit["mc"] == pytest.approx(theirs, abs=1e-9), (fit, info)
    search = fit["mcSearch"]
    assert search["tested"] == pytest.approx(info["mcs_tested"][:len(search["tested"])], abs=1e-9)
    for ours, reference in zip(search["statistics"], info["diff_bs"]):
        assert rel(ours, reference) < RELATIVE


@pytest.mark.parametrize("b,mc,size,delta_m,seed", SYNTHETIC[:3])
def test_ks_mc_agrees(tmp_path, b, mc, size, delta_m, seed):
    path = synthetic(tmp_path, f"ks{seed}", b, mc, size, delta_m, seed)
    binned = bin_to_precision(catalogue(path)[0], delta_m)
    distances = tmp_path / "distances.json"
    fit = stats(path, "--mag-bin", str(delta_m), "--mc-method", "ks", "--ks-simulations", "200",
                "--ks-distances-out", distances)["gutenbergRichter"]
    simulated = json.loads(distances.read_text())
    # Exact: SeismoStats's test on quakemap's synthetic distances.
    exact, info = estimate_mc_ks(binned, delta_m=delta_m, n=200, ks_ds_list=simulated["distances"])
    assert fit["mc"] == pytest.approx(exact, abs=1e-9)
    # A synthetic sample with the observed one's count where the distance peaks has the same
    # distance in exact arithmetic; which side of it the computed one falls is decided by the
    # last bit of exp() (NumPy's SIMD exp and glibc's differ there in about 5 % of arguments),
    # so such a tie may count on one side only: p-values agree to 2 samples in 200.
    assert len(fit["mcSearch"]["statistics"]) == len(info["p_values"])
    for ours, reference in zip(fit["mcSearch"]["statistics"], info["p_values"]):
        assert abs(ours - reference) <= 2 / 200 + 1e-12, (fit["mcSearch"]["statistics"], info["p_values"])
    for ours, reference in zip(fit["mcSearch"]["distances"], info["ks_ds"]):
        assert rel(ours, reference) < RELATIVE
    for ours, reference in zip(fit["mcSearch"]["bValues"], info["b_values_tested"]):
        assert rel(ours, reference) < RELATIVE
    # Independent: SeismoStats's own simulation lands within a bin.
    np.random.seed(seed)
    own, _ = estimate_mc_ks(binned, delta_m=delta_m, n=200)
    assert own is not None and abs(fit["mc"] - own) <= delta_m + 1e-9, (fit["mc"], own)


# --- b-significance ---------------------------------------------------------------------------------

@pytest.mark.parametrize("method,estimator", [("utsu", UtsuBValueEstimator), ("classic", ClassicBValueEstimator),
                                              ("positive", BPositiveBValueEstimator)])
@pytest.mark.parametrize("window", [50, 120])
def test_b_significance_agrees(tmp_path, method, estimator, window):
    path = synthetic(tmp_path, "significance", 1.0, 1.5, 3000, 0.1, 41)
    mags, ms = catalogue(path)
    binned = bin_to_precision(mags, 0.1)
    out = stats(path, "--b-method", method, "--b-significance", str(window))["estimate"]
    test = out["bSignificance"]
    p, mac, mu, std = b_significant_1D(binned, out["mc"], 0.1, ms.astype(float), window, method=estimator)
    for ours, theirs in ((test["pValue"], p), (test["mac"], mac), (test["expectedMAC"], mu), (test["stdMAC"], std)):
        assert rel(ours, theirs) < RELATIVE, (test, p, mac, mu, std)


@pytest.mark.parametrize("name", ["all_month_2020-06.csv", "all_month_2022-03.csv"])
def test_b_significance_agrees_on_feeds(name):
    path = feed_path(name)
    mags, ms = catalogue(path)
    binned = bin_to_precision(mags, 0.1)
    out = stats(path, "--b-significance", "100")["estimate"]
    p, mac, _, _ = b_significant_1D(binned, out["mc"], 0.1, ms.astype(float), 100, method=UtsuBValueEstimator)
    assert rel(out["bSignificance"]["pValue"], p) < RELATIVE and rel(out["bSignificance"]["mac"], mac) < RELATIVE


# --- magnitude types ----------------------------------------------------------------------------------

def test_mixed_magnitude_types_are_warned_about(tmp_path):
    import subprocess
    from conftest import BIN
    rng = np.random.default_rng(51)
    mags = np.round(1.0 + rng.exponential(1 / math.log(10), 300), 2)
    path = write_csv(tmp_path / "mixed.csv", mags, np.arange(300) * 60_000 + 1_600_000_000_000, ("ml", "ml", "mb"))
    result = subprocess.run([str(BIN / "quakemap"), "stats", str(path)], capture_output=True, timeout=60)
    assert result.returncode == 0
    stderr = result.stderr.decode()
    assert "mixes magnitude types ml (200), mb (100)" in stderr and "--where \"magType = 'ml'\"" in stderr, stderr
    out = stats(path)
    assert out["magnitudeTypes"] == {"ml": 200, "mb": 100}
