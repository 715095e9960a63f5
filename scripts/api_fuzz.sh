#!/usr/bin/env bash
# `make api-fuzz`: schemathesis (PyPI) generates requests from the server's own
# OpenAPI document (/api) and checks every answer: no 5xx, only documented
# status codes and content types, problem bodies as described, links that work.
# The "schema-valid request rejected" check is left out: the server refuses
# values no schema can describe (a box whose south is not below its north, a
# date that does not exist), and says so with a 400.
set -euo pipefail
cd "$(dirname "$0")/.."
WORK=${WORK:-.build/api-fuzz}
EXAMPLES=${EXAMPLES:-200}
FEED=${FEED:-Data/synthetic_all_day.csv}
mkdir -p "$WORK"
command -v schemathesis >/dev/null || python3 -m pip install -q schemathesis
source scripts/lib/server.sh
start_server "$FEED" "$WORK/server.log"
schemathesis run "http://127.0.0.1:$PORT/api" --max-examples "$EXAMPLES" --checks all \
    --exclude-checks positive_data_acceptance
echo "status codes the server answered:"
awk '{for (i = 1; i <= NF; i++) if ($i ~ /^[1-5][0-9][0-9]$/ && $(i + 2) == "B") { print $i; break }}' "$WORK/server.log" | sort | uniq -c
kill -0 $SERVER || { echo "api-fuzz: the server died" >&2; exit 1; }
