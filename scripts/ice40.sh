#!/usr/bin/env bash
# ice40.sh — the iCEBreaker target's figures (docs/ice40.md): the iris demo
# model and the paper's median intRVFL (K=16, N=512, L=4, κ=3, 5-bit readout,
# the lean core: --rom-style block --hold-input, P=1), each emitted with
# --board icebreaker, made into a bitstream (Yosys, nextpnr-ice40 at 12 MHz,
# icepack), and its routed netlist simulated through the UART (make
# routed-ice40: ROUTED_IRIS vectors, default 16, and ROUTED_MEDIAN, default 16). Copies Yosys's cell counts, nextpnr's report
# and the routed simulation's log of each design to RESULTS/<design>/.
#
# Environment: UCI121 (the collection, default ../shared/uci121), OUT (default
# build/ice40), RESULTS (default results/ice40), BIN (default bin/hdlgen,
# built here), ROUTED_IRIS, ROUTED_MEDIAN; DSP=1 also makes each bitstream with
# synth_ice40 -dsp (the multipliers in SB_MAC16) into OUT/<design>-dsp.
set -euo pipefail

cd "$(dirname "$0")/.."
BIN=${BIN:-bin/hdlgen}
UCI121=${UCI121:-../shared/uci121}
OUT=${OUT:-build/ice40}
RESULTS=${RESULTS:-results/ice40}
ROUTED_IRIS=${ROUTED_IRIS:-16}
ROUTED_MEDIAN=${ROUTED_MEDIAN:-16}
mkdir -p "$OUT" "$RESULTS"
go build -o "$BIN" ./cmd/hdlgen

"$BIN" train --data example:iris --n 50 --kappa 3 --lambda 4 --regularizer identity -o "$OUT/iris.json"
"$BIN" quantize "$OUT/iris.json" --bits 5 --data example:iris -o "$OUT/iris-5bit.json"
"$BIN" train --data "$UCI121" --dataset pendigits --classes 0,1,2,3 --arch intrvfl --n 512 --kappa 3 \
  --lambda 0.015625 --regularizer identity --bits 5 --seed 1 --holdout 0 -o "$OUT/median.json"

design() { # name model routed-vectors emit-options...
  local name=$1 model=$2 routed=$3
  shift 3
  "$BIN" emit "$model" --board icebreaker --force -o "$OUT/$name" "$@"
  make -C "$OUT/$name" --no-print-directory bitstream routed-ice40 ROUTED_VECTORS="$routed" | tee "$OUT/$name.log"
  mkdir -p "$RESULTS/$name"
  cp "$OUT/$name/build/ice40/synth_stat.txt" "$OUT/$name/build/ice40/report.json" "$RESULTS/$name/"
  grep -E '^(PASS|FAIL|MISMATCH|tx_o)' "$OUT/$name.log" > "$RESULTS/$name/routed.txt"
  grep 'Max frequency' "$OUT/$name/build/ice40/nextpnr.log" | tail -1 >> "$RESULTS/$name/routed.txt"
  if [ "${DSP:-0}" = 1 ]; then
    "$BIN" emit "$model" --board icebreaker --force -o "$OUT/$name-dsp" "$@"
    make -C "$OUT/$name-dsp" --no-print-directory bitstream ICE40_DSP=1
    mkdir -p "$RESULTS/$name-dsp"
    cp "$OUT/$name-dsp/build/ice40/synth_stat.txt" "$OUT/$name-dsp/build/ice40/report.json" "$RESULTS/$name-dsp/"
  fi
}
design iris "$OUT/iris-5bit.json" "$ROUTED_IRIS" --parallel 1 --rom-style block --data example:iris
design median "$OUT/median.json" "$ROUTED_MEDIAN" --parallel 1 --rom-style block --hold-input --vectors 200
