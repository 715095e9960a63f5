# Sourced by the benchmark scripts: `realistic_feed ROWS` prints the path of the realistic generator's
# CSV of ROWS events in $WORK (Benchmarks/make_big_catalog.py), made again when the generator changes.
GENERATOR_SUM=$(cksum <Benchmarks/make_big_catalog.py)
realistic_feed() {
    local path=$WORK/realistic-$1.csv
    if [ ! -f "$path" ] || [ "$(cat "$path.sum" 2>/dev/null)" != "$GENERATOR_SUM" ]; then
        python3 Benchmarks/make_big_catalog.py csv "$path" "${1}r" >/dev/null
        echo "$GENERATOR_SUM" >"$path.sum"
    fi
    echo "$path"
}
