#!/bin/sh
# Times quakemap's statistics estimators (every b-value estimator without bootstrap, the a-values,
# b-significance, each Mc method) on 1,000,000 synthetic Gutenberg–Richter magnitudes in a release
# build, then SeismoStats 1.0.1 on the same magnitudes, on this machine.
#
# usage: Benchmarks/stats-estimators.sh [RUNS] [--skip-slow]
#   PYTHON: the interpreter with SeismoStats (default: the project's venv, else python3).
#   --skip-slow: leave out SeismoStats's more-positive estimators (a quadratic Python loop).
set -eu
cd "$(dirname "$0")/.."
runs=${1:-3}
skip=${2:-}
magnitudes=${TMPDIR:-/tmp}/quakemap-estimators.bin
# shellcheck disable=SC2046
swift build $(cat scripts/release-flags) --product quakemap-bench >/dev/null 2>&1 || swift build $(cat scripts/release-flags) --product quakemap-bench
bin=$(swift build $(cat scripts/release-flags) --show-bin-path)
echo "== quakemap (release build)"
"$bin/quakemap-bench" estimators "$runs" "$magnitudes"
python=${PYTHON:-}
if [ -z "$python" ]; then
    python=$(ls "$HOME"/.cache/quakemap/venv-*/bin/python 2>/dev/null | head -1)
    [ -n "$python" ] || python=python3
fi
echo "== SeismoStats ($("$python" -c 'import seismostats; print(seismostats.__version__)' 2>/dev/null || echo '?'))"
"$python" Benchmarks/stats_estimators.py "$magnitudes" "$runs" $skip
