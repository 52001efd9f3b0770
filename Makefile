# hdlgen — developer entry points. `make demo` runs the main job on the embedded
# iris data (train → quantise → emit → verify); `make test` runs every test.

GO      ?= go
UCI121  ?= $(abspath ../shared/uci121)
BIN     := bin/hdlgen
DEMO    ?= build/demo

.PHONY: all build demo test vet fmt-check bench bench-report deps clean

all: build

build:
	$(GO) build -o $(BIN) ./cmd/hdlgen

## deps: install the simulators and Yosys (Debian/Ubuntu).
deps:
	apt-get update && apt-get install -y --no-install-recommends verilator iverilog yosys g++ make

## demo: the main job on the embedded iris data set.
demo: build
	$(BIN) demo --out $(DEMO)

## test: formatting, vet and all tests (the collection tests read $(UCI121)).
test: fmt-check vet
	HDLGEN_UCI121=$(UCI121) $(GO) test -count=1 -timeout 30m ./...

vet:
	$(GO) vet ./...

fmt-check:
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi

## bench: every Go benchmark once, quickly (a smoke run; no numbers kept).
bench:
	$(GO) test -run '^$$' -bench . -benchtime 3x ./...

## bench-report: the benchmarks docs/benchmarks.md reports, 5 runs each, with
## medians, written to results/bench/ (raw.txt, medians.md); ~15 minutes.
bench-report:
	GO=$(GO) scripts/bench.sh

## median: the paper's median network (pendigits digits 0–3) trained from the
## CLI, emitted at P=1 and P=8 (intRVFL and rvfl8, with the AXI4-Stream wrapper),
## verified with Verilator and Icarus, and timed; summary in $(MEDIAN)/median-verify.md
## (committed as results/hardware/median-verify.md). See scripts/median.sh.
MEDIAN ?= build/median
RUNS   ?= 5
.PHONY: median
median:
	UCI121=$(UCI121) OUT=$(MEDIAN) RUNS=$(RUNS) GO=$(GO) BIN=$(BIN) ./scripts/median.sh

clean:
	rm -rf bin build
