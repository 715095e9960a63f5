# Fuzzing QuakeKit's parsers with libFuzzer (see Fuzz/README.md).
# Included from the main Makefile with `-include Fuzz/fuzz.mk`.
#   make fuzz               every fuzzer for 60 s, two at a time
#   make fuzz SECONDS=600   ten minutes each
SECONDS ?= 60

.PHONY: fuzz
fuzz:
	Fuzz/run.sh $(SECONDS)
