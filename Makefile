# hdlgen — developer entry points. `make demo` runs the main job on the embedded
# iris data (train → quantise → emit → verify); `make test` runs the standard
# tier (CI's, within 10 minutes on a fresh clone); `make test-full` every test
# at full size; `make check` is the everyday loop (the quick tier,
# docs/testing.md).

GO      ?= go
UCI121  ?= $(abspath ../shared/uci121)
BIN     := bin/hdlgen
DEMO    ?= build/demo

.PHONY: all build demo test test-full check check-go vet staticcheck fmt-check bench bench-report deps baselines-deps baselines clean

all: build

build:
	$(GO) build -o $(BIN) ./cmd/hdlgen

## deps: install what is missing (simulators, Yosys, C++ and ARM compilers,
## qemu-arm, tclsh, python3) with apt-get; demo and test run it first.
deps:
	@bash scripts/deps.sh

## baselines-deps: Debian's scikit-learn, for scripts/baselines.py only (no
## test needs it).
baselines-deps:
	@bash scripts/deps.sh --baselines

## baselines: the same-protocol baselines (random forest, logistic regression,
## MLP, RBF SVM) over the collection into results/baselines, resumable; then
## their summary beside hdlgen (results/baselines/README.md).
baselines: baselines-deps
	nice -n 19 scripts/baselines.py --data $(UCI121) --out results/baselines
	$(GO) run scripts/baselines-summary.go -data $(UCI121) -out results/baselines/summary.md

## demo: the main job on the embedded iris data set.
demo: deps build
	$(BIN) demo --out $(DEMO)

## test: formatting, vet and the standard tier of the tests (the collection
## tests read $(UCI121)): every test but the exhaustive checks internal/hwtest
## leaves to the full tier (hwtest.Full: the matrices' rows beyond one per
## option value and corner, the proofs' further mutants, the median designs at
## gate level and in the Fmax check; docs/testing.md lists them).
## The packages run two at a time, longest first, each with its own timeout
## (go test -timeout bounds one package's test binary): about three times the
## package's time on the 2-core development machine when idle, so that a
## loaded machine does not reach it while a hung test still ends. Verilator
## builds share one compile of its run-time library (scripts/objcache), and
## the tests compile each design's own C++ unoptimised (VERILATOR_TEST_OPT,
## passed to Verilator's generated makefile through MAKEFLAGS): g++'s -Os on
## a fully parallel design's model was most of a Verilator step (K=16,
## N=513, P=N: 63 s of CPU at -Os, 46 s at -O0, docs/testing.md), while the
## tests simulate at most a few thousand vectors. They also compile the
## model's C++ as one file (VM_PARALLEL_BUILDS=0, Verilator's __ALL.cpp): each
## of the ten or so files of a split build parses Verilator's headers again,
## which at -O0 was most of a small design's compile (tiny_intrvfl: 17.7 s of
## CPU split, 6.3 s as one file; K=16, N=1500, P=32: 30.0 s and 10.7 s;
## docs/testing.md). `make verify` in an emitted design and `hdlgen verify`
## keep Verilator's defaults (-Os, files compiled in parallel).
## The make that hdlgen itself starts (verify, the activity flow) does not
## see MAKEFLAGS (internal/proc keeps a parent make's flags and jobserver out):
## HDLGEN_VERILATOR_CXX_OPT gives it the same -O0 (testbench.CXXOptEnv; until
## 2026-11-28 every verify in the tests compiled at Verilator's -Os).
VERILATOR_TEST_OPT ?= OPT_FAST=-O0 OPT_SLOW=-O0 VM_PARALLEL_BUILDS=0
# go test runs a subset of vet's analyzers on each package it builds; test
# and check have already run `go vet ./...` (every analyzer, test files
# included), so their go test runs leave it out: 46 → 26 s of CPU to build
# every test binary after a cold vet (docs/testing.md).
TEST_VET := -vet=off
TEST_ENV := HDLGEN_UCI121=$(UCI121) OBJCACHE=$(CURDIR)/scripts/objcache OBJCACHE_DIR=$(CURDIR)/build/objcache MAKEFLAGS='$(VERILATOR_TEST_OPT)' HDLGEN_VERILATOR_CXX_OPT=-O0
# package,timeout: longest first; every other package gets TEST_TIMEOUT.
# Timeouts from results/tests/after.md (make test, 2026-11-27): three times the
# package's wall time there, at least TEST_TIMEOUT (e2e 395 s, formal 113 s,
# internal/cli 100 s, power 54 s, verify 52 s, the others ≤ 32 s); e2e and
# internal/cli raised after the cold run of results/tests/cold.md (e2e 1,239 s,
# internal/cli 456 s wall on a fresh clone).
# The order is the standard tier's, longest first (cold make test at 56bab96,
# 2026-11-28: internal/cli 190 s, e2e 157 s, hostdrv 108 s, rtl 86 s, formal
# 74 s, the others below 55 s); the timeouts also hold the full tier's (make
# test-full).
SLOW_TESTS   := internal/cli,20m e2e,45m hostdrv,10m rtl,10m formal,20m power/activity,10m testbench,10m verify,10m synth,10m power,10m campaign,10m
TEST_TIMEOUT ?= 10m
comma        := ,
SLOW_PKGS    := $(foreach t,$(SLOW_TESTS),./$(firstword $(subst $(comma), ,$(t))))

.PHONY: test-all $(addprefix test-slow/,$(SLOW_TESTS)) test-rest

test: deps fmt-check vet staticcheck
	@$(MAKE) --no-print-directory -j2 test-all

## test-full: the full tier, every test at full size (HDLGEN_TEST_FULL=1; about
## half an hour on the 2-core machine, docs/testing.md): before a release and
## after a change to rtl/, verify/ or formal/.
test-full:
	@HDLGEN_TEST_FULL=1 $(MAKE) --no-print-directory test

# test-rest (the other packages, one after another, about two minutes) starts
# third, so that the short slow packages at the end fill both lanes.
test-all: $(addprefix test-slow/,$(wordlist 1,2,$(SLOW_TESTS))) test-rest $(addprefix test-slow/,$(wordlist 3,$(words $(SLOW_TESTS)),$(SLOW_TESTS)))

$(addprefix test-slow/,$(SLOW_TESTS)): test-slow/%:
	@$(TEST_ENV) $(GO) test $(TEST_VET) $(GOTESTFLAGS) -count=1 -timeout $(lastword $(subst $(comma), ,$*)) ./$(firstword $(subst $(comma), ,$*))

test-rest:
	@$(TEST_ENV) $(GO) test $(TEST_VET) $(GOTESTFLAGS) -count=1 -p 1 -timeout $(TEST_TIMEOUT) $$($(GO) list ./... | sed 's|^github.com/hdlgen/hdlgen|.|' | grep -v -x -F $(addprefix -e ,$(SLOW_PKGS)))

## check: the everyday loop, a few minutes: gofmt, vet, staticcheck and the
## quick tier, `go test -short ./...` (internal/hwtest decides what -short
## skips: Verilator model builds but one, Yosys, qemu, the collection). A
## package whose tests run longer than CHECK_LIMIT seconds fails, and so does
## the tier when it takes longer than that as a whole.
CHECK_LIMIT ?= 300
check: deps fmt-check vet staticcheck
	@$(MAKE) --no-print-directory check-go

check-go:
	@start=$$(date +%s); \
	$(TEST_ENV) $(GO) test $(TEST_VET) $(GOTESTFLAGS) -short -count=1 -timeout $(CHECK_LIMIT)s ./...; rc=$$?; \
	took=$$(( $$(date +%s) - start )); \
	echo "make check: go test -short took $$took s (limit $(CHECK_LIMIT) s)" >&2; \
	if [ $$rc -ne 0 ]; then exit $$rc; fi; \
	if [ $$took -gt $(CHECK_LIMIT) ]; then echo "make check: the quick tier took $$took s, more than $(CHECK_LIMIT) s: make it faster (docs/testing.md)" >&2; exit 1; fi

## vet: the module's packages, then each program of scripts/ on its own (they
## are //go:build ignore mains run by `go run scripts/NAME.go`, which ./...
## skips; named as a file, each is a package of its own and is checked).
SCRIPTS := $(wildcard scripts/*.go)
vet:
	$(GO) vet ./...
	@for f in $(SCRIPTS); do $(GO) vet $$f || exit 1; done

## staticcheck: installed from the Go module proxy when missing (pinned version).
STATICCHECK_VERSION := v0.8.2
staticcheck:
	@command -v staticcheck >/dev/null 2>&1 || $(GO) install honnef.co/go/tools/cmd/staticcheck@$(STATICCHECK_VERSION)
	@PATH="$$PATH:$$($(GO) env GOPATH)/bin" staticcheck ./...
	@for f in $(SCRIPTS); do PATH="$$PATH:$$($(GO) env GOPATH)/bin" staticcheck $$f || exit 1; done

fmt-check:
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi

## bench: every Go benchmark once, quickly (a smoke run; no numbers kept).
bench:
	$(GO) test -run '^$$' -bench . -benchtime 3x ./...

## bench-report: the benchmarks docs/speed.md reports, 5 runs each, with
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
