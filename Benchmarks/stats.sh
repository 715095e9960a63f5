#!/usr/bin/env bash
# `make bench-stats`: statistical seismology against SeismoStats on the same inputs and machine, in one run.
#   estimators: every b-value estimator and Mc method on 1 M magnitudes, in process (quakemap-bench's stage
#               timer), beside SeismoStats's time for the same (Benchmarks/stats-estimators.sh);
#   decluster:  Gardner–Knopoff on 1 M events of the realistic generator with sequences, and SeismoStats's
#               GardnerKnopoffType1 on the largest input it finishes (Benchmarks/stats-decluster.sh);
#   bmap:       a b-value map at 0.1° over California from 1 M events, nearest 200 (Benchmarks/stats-bmap.sh).
# PARTS (default "estimators decluster bmap") chooses; RUNS (default 2) runs of each measured job.
set -euo pipefail
cd "$(dirname "$0")/.."
PARTS=${PARTS:-estimators decluster bmap}
export RUNS=${RUNS:-2}
for part in $PARTS; do
    echo
    echo "## $part"
    if [ "$part" = estimators ]; then Benchmarks/stats-estimators.sh "$RUNS"; else "Benchmarks/stats-$part.sh"; fi
done
