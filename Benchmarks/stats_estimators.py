"""SeismoStats 1.0.1's time for the estimators quakemap-bench's `estimators` mode times, on the
same magnitudes (the bench writes them: little-endian float64 pairs, magnitude and seconds since
1970). Prints one row per estimator: the median of RUNS runs, in ms.

usage: python stats_estimators.py MAGNITUDES.bin [RUNS] [--skip-slow]
--skip-slow leaves out b-more-positive and a-more-positive, whose find_next_larger is a Python
double loop (tens of seconds on a million events).
"""
import sys
import time
import warnings

import numpy as np

warnings.simplefilter("ignore")
from seismostats.analysis import (AMorePositiveAValueEstimator, APositiveAValueEstimator,  # noqa: E402
                                  BMorePositiveBValueEstimator, BPositiveBValueEstimator,
                                  ClassicAValueEstimator, ClassicBValueEstimator, UtsuBValueEstimator,
                                  estimate_mc_maxc)
from seismostats.analysis.b_significant import b_significant_1D  # noqa: E402
from seismostats.analysis.bvalue.kijko_smit import estimate_b_kijko_smit  # noqa: E402
from seismostats.analysis.bvalue.weichert import estimate_b_weichert  # noqa: E402
from seismostats.analysis.estimate_mc import estimate_mc_b_stability, estimate_mc_ks  # noqa: E402
from seismostats.utils import bin_to_precision  # noqa: E402

path = sys.argv[1]
runs = int(sys.argv[2]) if len(sys.argv) > 2 and sys.argv[2].isdigit() else 3
skip_slow = "--skip-slow" in sys.argv
pairs = np.fromfile(path, dtype="<f8").reshape(-1, 2)
mags, seconds = pairs[:, 0], pairs[:, 1]
times = (seconds * 1000).astype("datetime64[ms]")
delta_m, mc = 0.1, 1.5
binned = bin_to_precision(mags, delta_m)
table = np.array([[1.5 - 0.05, 2021], [2.0 - 0.05, 2016]])


def timed(label, body, slow=False, once=False):
    """The median of `runs` runs of `body` (one run when `once` or `slow`; none for `slow` with --skip-slow)."""
    if slow and skip_slow:
        print(f"{label:40s} {'skipped':>9s}")
        return
    elapsed = []
    result = None
    for _ in range(1 if slow or once else runs):
        start = time.perf_counter()
        result = body()
        elapsed.append(time.perf_counter() - start)
    print(f"{label:40s} {sorted(elapsed)[len(elapsed) // 2] * 1000:9.1f} ms  {result}", flush=True)


def b(estimator, **kw):
    e = estimator()
    e.calculate(binned, mc=mc, delta_m=delta_m, **kw)
    return f"b {e.b_value:.4f}, n {e.n}"


def quiet(body):
    """SeismoStats's b-stability and Weichert print their working; keep the table readable."""
    import contextlib
    import io
    with contextlib.redirect_stdout(io.StringIO()):
        return body()


print(f"SeismoStats on {len(mags)} magnitudes from {path}; median of {runs} runs")
timed("bin to 0.1", lambda: len(bin_to_precision(mags, delta_m)))
timed("b utsu", lambda: b(UtsuBValueEstimator))
timed("b classic", lambda: b(ClassicBValueEstimator))
timed("b positive", lambda: b(BPositiveBValueEstimator))
timed("b more-positive (no bootstrap)", lambda: b(BMorePositiveBValueEstimator), slow=True)
timed("b weichert", lambda: "b %.4f" % quiet(lambda: estimate_b_weichert(
    binned, times, table, mag_max=float(binned.max()) + 0.1, delta_m=delta_m))[0])
timed("b kijko-smit", lambda: "b %.4f" % estimate_b_kijko_smit(binned, times, table, delta_m=delta_m)[0])
timed("a classic", lambda: "a %.4f" % ClassicAValueEstimator().calculate(binned, mc=mc, delta_m=delta_m))
timed("a positive", lambda: "a %.4f" % APositiveAValueEstimator().calculate(binned, mc=mc, delta_m=delta_m,
                                                                             times=seconds))
timed("a more-positive", lambda: "a %.4f" % AMorePositiveAValueEstimator().calculate(
    binned, mc=mc, delta_m=delta_m, times=seconds, b_value=1.0), slow=True)
timed("b-significance utsu, windows of 1000", lambda: "p %.3g" % b_significant_1D(
    binned[binned >= mc - 0.05], mc, delta_m, seconds[binned >= mc - 0.05], 1000, method=UtsuBValueEstimator)[0], once=True)
timed("Mc maxc", lambda: "Mc %.2f" % estimate_mc_maxc(binned, fmd_bin=delta_m)[0])
timed("Mc b-stability", lambda: "Mc %.2f" % quiet(lambda: estimate_mc_b_stability(binned, delta_m=delta_m))[0])
timed("Mc ks (20 simulations)", lambda: "Mc %.2f" % estimate_mc_ks(binned, delta_m=delta_m, n=20)[0], once=True)
