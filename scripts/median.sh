#!/usr/bin/env bash
# median.sh — the paper's median network (K=16, N=512, L=4) from the command
# line: train the intRVFL (κ=3, 5-bit readout) and the 8-bit fixed-point RVFL
# on pendigits restricted to digits 0–3, emit both at P=1 and P=8 with the
# AXI4-Stream wrapper, verify every design with Verilator and Icarus (stream and
# AXI4-Stream tops), then measure the simulation speeds: the Verilator runs'
# simulated cycles per second (median of RUNS re-runs of the built models) and
# the Go simulator's benchmarks (median of RUNS runs). Writes everything under
# OUT and the summary to OUT/median-verify.md (committed as
# results/hardware/median-verify.md). `make median` runs it.
#
# Environment: UCI121 (the collection, default ../shared/uci121), OUT (default
# build/median), RUNS (default 5), BIN (default bin/hdlgen, built here), GO;
# SUMMARY_ONLY=1 rewrites OUT/median-verify.md from the outputs of a previous
# full run without running anything.
#
# Ridge penalty and λ: the ones of hwstudy's median table
# (results/hardware/median.md, `hdlgen power --median-table`): the identity
# penalty λ·I for both networks (docs/semantics.md §6), λ chosen on the
# collection's search split: intRVFL 2⁻⁶, rvfl8 2⁻⁷. With seed 1 the models are
# the ones of that table (same model.json apart from the name). TEST_ACC_* are
# that table's test accuracies, quoted in the summary. TestMedianScriptMatchesTable
# (hwstudy) checks all five against results/hardware/median.json.
set -euo pipefail

cd "$(dirname "$0")/.."
GO=${GO:-go}
BIN=${BIN:-bin/hdlgen}
UCI121=${UCI121:-../shared/uci121}
OUT=${OUT:-build/median}
RUNS=${RUNS:-5}
REGULARIZER=identity
LAMBDA_INT=0.015625
LAMBDA_RVFL8=0.0078125
TEST_ACC_INT=0.9495
TEST_ACC_RVFL8=0.9804
PS="1 8"

die() { echo "median.sh: $*" >&2; exit 1; }
[ -d "$UCI121/pendigits" ] || die "no pendigits in UCI121=$UCI121 (the UCI-121 collection)"
case "$RUNS" in '' | *[!0-9]* | 0) die "RUNS=$RUNS: want a positive integer" ;; esac
for t in verilator iverilog vvp make g++; do
	command -v "$t" > /dev/null || die "$t not found (apt-get install verilator iverilog g++ make)"
done

mkdir -p "$OUT"
LOG="$OUT/commands.log"
# quote ARG...: the arguments as a shell would need them typed.
quote() {
	local a out=()
	for a in "$@"; do
		if [[ $a =~ ^[A-Za-z0-9_./,=:+-]+$ ]]; then out+=("$a"); else out+=("'${a//\'/\'\\\'\'}'"); fi
	done
	echo "${out[*]}"
}
# run CMD...: print the command, append it with its wall time to $LOG, run it.
run() {
	local cmd t0 t1
	cmd=$(quote "$@")
	echo "+ $cmd" >&2
	t0=$(date +%s.%N)
	"$@"
	t1=$(date +%s.%N)
	printf '%s\t%.1f s\n' "$cmd" "$(echo "$t1 - $t0" | bc)" >> "$LOG"
}
# median: the median of the numbers on stdin, one per line.
median() {
	sort -g | awk '{v[NR] = $1} END {
		if (NR == 0) { print "nan"; exit }
		if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

if [ "${SUMMARY_ONLY:-}" = 1 ]; then
	[ -s "$LOG" ] || die "SUMMARY_ONLY=1: no $LOG from a previous run"
else
: > "$LOG"
run "$GO" build -o "$BIN" ./cmd/hdlgen

# 1. Train.
data=(--data "$UCI121" --dataset pendigits --classes 0,1,2,3)
run "$BIN" train "${data[@]}" --arch intrvfl --n 512 --kappa 3 --lambda "$LAMBDA_INT" --regularizer "$REGULARIZER" --bits 5 --seed 1 --holdout 0 \
	-o "$OUT/intrvfl.json" 2>&1 | tee "$OUT/train_intrvfl.txt"
run "$BIN" train "${data[@]}" --arch rvfl8 --n 512 --lambda "$LAMBDA_RVFL8" --regularizer "$REGULARIZER" --seed 1 --holdout 0 \
	-o "$OUT/rvfl8.json" 2>&1 | tee "$OUT/train_rvfl8.txt"

# 2. Emit (half of the 1000 test vectors are pendigits rows) and verify.
for net in intrvfl rvfl8; do
	for p in $PS; do
		d="$OUT/${net}_p$p"
		run "$BIN" emit "$OUT/$net.json" -o "$d" --parallel "$p" --axis \
			--data "$UCI121" --dataset pendigits 2>&1 | tee "$OUT/emit_${net}_p$p.txt"
		run "$BIN" verify "$d" --keep-build | tee "$OUT/verify_${net}_p$p.txt"
	done
done

# 3. Verilator speed: re-run the built models (no rebuild), RUNS times each.
for net in intrvfl rvfl8; do
	for p in $PS; do
		d="$OUT/${net}_p$p"
		: > "$OUT/rate_${net}_p$p.txt"
		for r in $(seq "$RUNS"); do
			run "$BIN" verify "$d" --steps verilator --keep-build >> "$OUT/rate_${net}_p$p.txt"
		done
	done
done

# 4. Go simulator speed (random weights of the median intRVFL shape).
run "$GO" test -run '^$' -bench 'Classify|Stream' -count "$RUNS" ./rtl/sim/ | tee "$OUT/bench_sim.txt"
fi

# 5. Summary.
md="$OUT/median-verify.md"
{
	echo "# Median network: emitted, verified, timed"
	echo
	echo "Made by \`make median\` (scripts/median.sh) on $(date -u +%Y-%m-%d) with $("$BIN" version | sed -n 1p),"
	echo "$(verilator --version | sed -n 1p), $(iverilog -V 2>&1 | sed -n 1p), $("$GO" version | sed -n 1p)."
	echo "Host: $(nproc) cores (shared), RUNS=$RUNS repetitions per speed measurement (medians reported)."
	echo
	echo "## Commands"
	echo
	echo '```'
	sed "s#$UCI121#\$UCI121#g" "$LOG" | awk -F'\t' '{printf "%-150s # %s\n", $1, $2}'
	echo '```'
	echo
	echo "## Models"
	echo
	echo '```'
	grep -h '^trained' "$OUT/train_intrvfl.txt" "$OUT/train_rvfl8.txt"
	echo '```'
	echo
	echo "Ridge penalty $REGULARIZER for both networks; λ = $LAMBDA_INT (intRVFL) and $LAMBDA_RVFL8 (rvfl8) are the values the"
	echo "median table chose with it on the collection's search split (results/hardware/median.md, which also gives"
	echo "the test accuracies: $TEST_ACC_INT and $TEST_ACC_RVFL8). With seed 1 these are the same models as that table's:"
	echo "their model.json equals the one \`hdlgen power --median-table --median-p 8\` writes to its --work folder"
	echo "apart from the name."
	echo
	echo "## Verification"
	echo
	echo 'Stimulus of every design (`hdlgen emit` defaults, rtl/vectors.go): 1000 vectors, the first 20 corner'
	echo "cases (all zero, all maximum, two alternating patterns, 16 one-hot), then alternately a pendigits row"
	echo "(any of the ten digits) and a uniform random input; half the vectors offered back to back, half after"
	echo "a random gap; out_ready high with probability 0.7 (a 257-cycle pattern). Every output's class, scores and"
	echo "accept, first-valid and transfer cycles are compared with the Go simulator's. Step wall time: make, the"
	echo "simulator build and the run, on the shared machine."
	echo
	echo "| network | P | top | simulator | result | vectors | mismatches | cycles simulated | latency (cycles) | step wall time |"
	echo "|---|---|---|---|---|---|---|---|---|---|"
	for net in intrvfl rvfl8; do
		for p in $PS; do
			awk -v net="$net" -v p="$p" '
				$1 ~ /^(verilator|icarus)\// {
					split($1, a, "/"); res = ($2 == "pass") ? "pass" : "FAIL"
					v = c = l = "-"
					for (i = 3; i <= NF; i++) {
						if ($i ~ /^vectors=/) v = substr($i, 9)
						if ($i ~ /^cycles=/) c = substr($i, 8)
						if ($i ~ /^latency=/) l = substr($i, 9)
					}
					mm = (res == "pass") ? 0 : "see log"
					printf "| %s | %d | %s | %s | %s | %s | %s | %s | %s | %s |\n", net, p, a[2], a[1], res, v, mm, c, l, $3
				}
				$1 ~ /^lint\// { printf "| %s | %d | %s | verilator --lint-only -Wall | %s | | | | | %s |\n", net, p, substr($1, 6), ($2 == "pass") ? "pass" : "FAIL", $3 }
			' "$OUT/verify_${net}_p$p.txt"
		done
	done
	echo
	echo "Latency = cycles from the input transfer (the last input beat for the AXI4-Stream top) to the first"
	echo "cycle of the output's valid, measured on vector 0 (empty pipeline); the testbenches check that it"
	echo "equals the exact figure of design.json and that no later vector's is shorter."
	echo
	echo "## Simulation speed"
	echo
	echo "Verilator: the testbench's SIMRATE line (host time of the simulation loop only: no build, start-up"
	echo "or file reading), \`hdlgen verify DIR --steps verilator --keep-build\` run $RUNS times per design; the"
	echo "stimulus is the verification run above (1000 vectors with gaps and back-pressure)."
	echo
	echo "| network | P | top | cycles per run | median sim wall time | median simulated cycles/s | median classifications/s |"
	echo "|---|---|---|---|---|---|---|"
	for net in intrvfl rvfl8; do
		for p in $PS; do
			f="$OUT/rate_${net}_p$p.txt"
			for top in stream axis; do
				cyc=$(awk -v t="verilator/$top" '$1 == t { for (i = 3; i <= NF; i++) if ($i ~ /^cycles=/) print substr($i, 8) }' "$f" | sed -n 1p)
				vec=$(awk -v t="verilator/$top" '$1 == t { for (i = 3; i <= NF; i++) if ($i ~ /^vectors=/) print substr($i, 9) }' "$f" | sed -n 1p)
				secs=$(awk -v t="verilator/$top" '$1 == t { for (i = 3; i <= NF; i++) if ($i ~ /^sim=/) { s = substr($i, 5); sub(/s$/, "", s); print s } }' "$f")
				[ -n "$secs" ] || die "$f: no sim= field for $top (testbench without SIMRATE?)"
				ms=$(echo "$secs" | median)
				printf '| %s | %s | %s | %s | %.3f s | %.3g | %.3g |\n' "$net" "$p" "$top" "$cyc" "$ms" \
					"$(echo "$cyc / $ms" | bc -l)" "$(echo "$vec / $ms" | bc -l)"
			done
		done
	done
	echo
	echo "Go simulator (rtl/sim, \`go test -run '^\$' -bench 'Classify|Stream' -count $RUNS ./rtl/sim/\`): the median"
	echo "intRVFL shape (K=16, N=512, L=4, κ=3, 5-bit) with random weights. Classify: one vector through a fresh"
	echo "stream top (as \`hdlgen sim\` does it), latency + 1 cycles; Stream: 64 back-to-back vectors, output always"
	echo "ready. x_model = time per classification / the model package's untimed integer path, same run."
	echo "Cycles per classification: Classify latency + 1; Stream II = ⌈N/P⌉ (512 at P=1, 64 at P=8)."
	echo
	echo "| benchmark | median classifications/s | median simulated cycles/s | median x_model |"
	echo "|---|---|---|---|"
	for b in $(awk '$1 ~ /^Benchmark/ { sub(/-[0-9]+$/, "", $1); print $1 }' "$OUT/bench_sim.txt" | sort -u); do
		col() { awk -v b="$b" -v u="$1" '{ n = $1; sub(/-[0-9]+$/, "", n) } n == b { for (i = 2; i <= NF; i++) if ($i == u) print $(i - 1) }' "$OUT/bench_sim.txt" | median; }
		printf '| %s | %.4g | %.4g | %.3g |\n' "$b" "$(col classifications/s)" "$(col cycles/s)" "$(col x_model)"
	done
	echo
	echo "Reading the two tables together: both count simulated clock cycles of the same micro-architecture, but"
	echo "the Verilator figure includes the C++ testbench's work every cycle (driving the ports, checking) and the"
	echo "evaluation of every net, while the Go simulator computes a group's contribution once, when it is issued,"
	echo "and then only moves valid bits through the pipeline (rtl/sim/doc.go). The Go benchmarks use random"
	echo "weights of the median intRVFL's shape (the simulator's work does not depend on the weights); the"
	echo "Verilator runs use the trained models above."
} > "$md"
echo "median.sh: wrote $md" >&2
