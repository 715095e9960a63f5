# Sourced by scripts that need a running quakemap-server (debug build):
# `start_server FEED LOG` starts it on a free port, sets SERVER (its pid) and
# PORT, and stops it when the script exits.
start_server() {
    local feed=$1 log=$2
    swift build --product quakemap-server >/dev/null
    # Emptied first: the background start may not have truncated it when the port is read.
    : >"$log"
    "$(swift build --show-bin-path)/quakemap-server" "$feed" --port 0 2>"$log" &
    SERVER=$!
    trap 'kill $SERVER 2>/dev/null || true' EXIT
    PORT=
    for _ in $(seq 100); do
        PORT=$(sed -n 's|.*on http://127.0.0.1:\([0-9]*\)/.*|\1|p' "$log")
        [ -n "$PORT" ] && return 0
        sleep 0.1
    done
    cat "$log" >&2
    echo "the server did not start" >&2
    exit 1
}
