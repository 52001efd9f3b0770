#!/usr/bin/env bash
# third-network.sh [WORK] counts what a third network type costs, over every
# command (docs/architecture.md, "Where a network type lives"). In a throwaway
# git worktree of HEAD (or the clean checkout TREE names) it adds the introm —
# the intRVFL with a stored W_in only: a network type with κ and a readout of
# any width, other than the intRVFL, so every decision that asks model.Traits
# rather than the intRVFL's name is exercised; it reuses the intRVFL's core
# template and primitives — as four new files, lists what changed (4 new
# files and no edited one, or it stops), builds hdlgen and runs every command
# on the introm in WORK (default: a temporary folder): train, quantize (and its
# GA), emit (stream, AXI4-Stream, Zynq system, reloadable readout, lean
# options), verify, sim, predict, synth, power (design, activity, model.json),
# size, weights, the host driver (make sim, native, arm; info, classify,
# load-readout from Python, self-test), search and eval on a CSV and on a
# collection dataset (with --bits and --ga, and κ in their outputs),
# reproduce, campaign (the introm designs among the first 16) and power
# calibrate (until its introm designs are synthesised: the calibration runs
# the network types in name order, and "introm" sorts before "intrvfl", so
# its designs come first). It prints one line per command and the count.
#
# Needs the tools of `hdlgen verify` and `hdlgen synth` (Verilator, Icarus,
# Yosys), make, cc, arm-linux-gnueabihf-gcc, python3, and the UCI-121
# collection in $HDLGEN_UCI121 (default ../shared/uci121). About 25 minutes
# on two cores.
set -euo pipefail

cd "$(dirname "$0")/.."
repo=$PWD
if [ -n "${1:-}" ]; then
	mkdir -p "$1"
	WORK=$(cd "$1" && pwd)
else
	WORK=$(mktemp -d)
fi
UCI=$(cd "${HDLGEN_UCI121:-../shared/uci121}" && pwd)
if [ -z "${TREE:-}" ]; then
	TREE=$WORK/tree
	git worktree add --detach --quiet "$TREE" HEAD
	trap 'git -C "$repo" worktree remove --force "$TREE"' EXIT
else
	TREE=$(cd "$TREE" && pwd)
	trap 'rm -f "$TREE/model/introm.go" "$TREE/rtl/plan/introm.go" "$TREE/rtl/sim/introm.go" "$TREE/power/introm.go"' EXIT
fi
if [ -n "$(git -C "$TREE" status --porcelain)" ]; then
	echo "third-network: $TREE is not clean" >&2
	exit 1
fi

cat >"$TREE/model/introm.go" <<'INTROM_EOF'
package model

import "fmt"

// IntROM is the intRVFL with a stored W_in only: the same κ-clipped
// density-encoded hidden layer, without the on-chip W_in generator.
const IntROM Arch = "introm"

// ROMNet is the hidden layer of the introm: an IntNet with a stored W_in.
type ROMNet struct{ *IntNet }

// Arch is IntROM.
func (n ROMNet) Arch() Arch { return IntROM }

func (n ROMNet) describe() string { return fmt.Sprintf(" κ=%d", n.Kappa) }

// wireROMNet is the "introm" section of model.json.
type wireROMNet struct {
	Kappa    int      `json:"kappa"`
	WinSigns []string `json:"w_in_signs"`
}

func (n ROMNet) section() any {
	rows := make([]string, n.N)
	for j := range rows {
		rows[j] = n.Signs.HexRow(j)
	}
	return wireROMNet{Kappa: n.Kappa, WinSigns: rows}
}

func init() { register(intromType) }

var intromType = &netType{
	arch:   IntROM,
	traits: Traits{Kappa: true, Readout: ReadoutRule{Allowed: true}},
	check:  intrvflType.check,
	build:  func(k int, c Config) Network { return ROMNet{NewIntNet(k, c.N, c.Kappa, c.Seed)} },
	decode: func(d *decoder, sec *node, k, n int) (Network, error) {
		o, err := d.object(sec, string(IntROM), "kappa", "w_in_signs")
		if err != nil {
			return nil, err
		}
		kappa, at, err := field(o, "kappa", d.integer)
		if err != nil {
			return nil, err
		}
		if kappa < 1 || kappa > MaxKappa {
			return nil, at.errf("%d outside [1, %d]", kappa, MaxKappa)
		}
		rows, at, err := field(o, "w_in_signs", d.strings)
		if err != nil {
			return nil, err
		}
		if len(rows) != n {
			return nil, fe(at.path, "%d rows, want %d (one per hidden neuron)", len(rows), n)
		}
		s, err := ParseSignRows(rows, k)
		if err != nil {
			return nil, fe(at.path, "%v", err)
		}
		return ROMNet{&IntNet{K: k, N: n, Kappa: kappa, Signs: s}}, nil
	},
	diff: func(a, b Network, names [2]string, note string) []string {
		return intDiffs(a.(ROMNet).IntNet, b.(ROMNet).IntNet, names, note)
	},
}
INTROM_EOF
cat >"$TREE/rtl/plan/introm.go" <<'INTROM_EOF'
package plan

import "github.com/hdlgen/hdlgen/model"

// intromLayer is the introm's hidden layer: the intRVFL's with a stored W_in.
type intromLayer struct{ intrvflLayer }

func init() { register(intromLayer{}) }

func (intromLayer) Arch() model.Arch { return model.IntROM }

func (intromLayer) ArchCode() int { return 3 }

func (l intromLayer) WinLane(pl *Plan, net model.Network, j, lane int, set func(lsb, width int, v int64)) {
	l.intrvflLayer.WinLane(pl, net.(model.ROMNet).IntNet, j, lane, set)
}

func (l intromLayer) derive(pl *Plan, net model.Network) Tree {
	return l.intrvflLayer.derive(pl, net.(model.ROMNet).IntNet)
}
INTROM_EOF
cat >"$TREE/rtl/sim/introm.go" <<'INTROM_EOF'
package sim

import (
	"github.com/hdlgen/hdlgen/model"
	"github.com/hdlgen/hdlgen/rtl/plan"
)

func init() {
	hiddenLayers.Add(string(model.IntROM), func(m *model.Model, pl *plan.Plan) hiddenLayer {
		return newIntrvfl(&model.Model{Net: m.Net.(model.ROMNet).IntNet}, pl)
	})
}
INTROM_EOF
cat >"$TREE/power/introm.go" <<'INTROM_EOF'
package power

import (
	"fmt"

	"github.com/hdlgen/hdlgen/model"
)

// intromNet is the introm's part of the power model: the intRVFL's.
type intromNet struct{ intrvflNet }

func init() { register(intromNet{}) }

func (intromNet) arch() model.Arch { return model.IntROM }

func (intromNet) name(d Design) string {
	return fmt.Sprintf("introm K=%d N=%d L=%d κ=%d b=%d P=%d", d.K, d.N, d.L, d.Kappa, d.Bits, d.P)
}

func (intromNet) calibration() Calibration {
	return Calibration{Sections: [CalibrationSections][]CalShape{
		CalBase: {{K: 8, N: 128, L: 3, Kappa: 3, Bits: 5, P: 1}, {K: 8, N: 128, L: 3, Kappa: 3, Bits: 5, P: 8}},
		CalOddP: {{K: 8, N: 128, L: 3, Kappa: 3, Bits: 5, P: 6}},
	}}
}
INTROM_EOF

changes=$(git -C "$TREE" status --porcelain --untracked-files=all)
echo "$changes"
new=$(grep -c '^??' <<<"$changes" || true)
edited=$(grep -vc '^??' <<<"$changes" || true)
echo "the introm: $new new files, $edited edited"
if [ "$new" -ne 4 ] || [ "$edited" -ne 0 ]; then
	exit 1
fi
(cd "$TREE" && go build -o "$WORK/hdlgen" ./cmd/hdlgen)

cd "$WORK"
H=$WORK/hdlgen
cp "$repo/examples/iris.csv" .
tail -n +2 iris.csv | cut -d, -f1-4 >rows.csv
ran=0
failed=0
step() { # step NAME COMMAND...: run COMMAND, its output in log.NAME
	local name=$1
	shift
	if "$@" >"log.$name" 2>&1; then
		echo "ran    $name"
		ran=$((ran + 1))
	else
		echo "FAILED $name: $(tail -n 1 "log.$name")"
		failed=$((failed + 1))
	fi
}
rm -rf d-* repro camp cal calwork
step train $H train --data iris.csv --arch introm --n 40 --lambda 4 --bits 5 -o st.json
step train-float $H train --data iris.csv --arch introm --n 40 --lambda 4 -o stf.json
step quantize $H quantize stf.json --bits 4 -o st4.json
step quantize-ga $H quantize stf.json --bits 5 --ga rounded --data iris.csv -o stga.json
step emit $H emit st.json -o d-stream
step emit-axis $H emit st.json --axis --parallel 4 -o d-axis
step emit-system $H emit st.json --system zynq --parallel 3 -o d-sys
step emit-reloadable $H emit st.json --system zynq --reloadable-readout -o d-reload
step emit-lean $H emit st.json --rom-style block --hold-input --register-sums --parallel 8 -o d-lean
for d in stream axis sys reload lean; do
	step "verify-$d" $H verify "d-$d"
done
step sim-model $H sim st.json --data iris.csv --parallel 4
step sim-dir $H sim d-sys --data iris.csv
step predict $H predict st.json --data iris.csv --score
step synth $H synth d-axis
step power-dir $H power d-axis
step power-activity $H power d-stream --activity
step power-model $H power st.json --parallel 8
step size-model $H size --budget 3.2uJ --model st.json
step size-shape $H size --budget 3.2uJ --features 4 --num-classes 3 --arch introm --bits 5
step weights $H weights st4.json --design d-reload -o ro.bin
for t in sim native arm; do
	step "driver-$t" make -C d-reload/driver "$t"
done
step driver-info bash -c 'cd d-reload/driver && ./build/sim/hdlgen-run-sim info | tee /dev/stderr | grep -q "^arch introm "'
step driver-classify bash -c "cd d-reload/driver && ./build/sim/hdlgen-run-sim classify ../../rows.csv >../../classes-driver.txt &&
	$H predict ../../st.json --data ../../iris.csv >../../classes-go.txt && cmp ../../classes-driver.txt ../../classes-go.txt"
step driver-python bash -c "cd d-reload/driver && python3 -c \"
import csv, hdlgen
with hdlgen.Device('sim', lib='build/sim/libhdlgen_sim.so') as d:
    d.load_readout('../../ro.bin')
    print(d.info(), d.classify([[float(x) for x in r] for r in csv.reader(open('../../rows.csv'))])[:10])
\""
step driver-selftest bash -c 'cd d-reload/driver && ./build/sim/hdlgen-run-sim selftest'
step search-csv $H search --data iris.csv --arch introm --grid small --folds 2
step search-csv-bits-ga bash -c "$H search --data iris.csv --arch introm --grid small --folds 2 --bits 5 --ga rounded --json |
	python3 -c 'import json, sys; c = json.load(sys.stdin)[\"config\"]; assert c[\"kappa\"] > 0 and c[\"bits\"] == 5, c'"
step eval-csv $H eval --data iris.csv --arch introm --n 50 --lambda 4 --bits 5 --seeds 2
step eval-csv-ga bash -c "$H eval --data iris.csv --arch introm --n 50 --kappa 3 --lambda 4 --bits 5 --seeds 1 --ga rounded | tee /dev/stderr | grep -q 'κ=3'"
step search-uci $H search --data "$UCI" --dataset iris --arch introm --grid small
step search-uci-bits bash -c "$H search --data '$UCI' --dataset iris --arch introm --grid small --bits 5 | tee /dev/stderr | grep -q 'κ='"
step eval-uci $H eval --data "$UCI" --dataset iris --arch introm --n 50 --lambda 4 --seeds 2
step eval-uci-kappa bash -c "$H eval --data '$UCI' --dataset iris --arch introm --n 50 --kappa 3 --lambda 4 --seeds 1 | tee /dev/stderr | grep -q 'κ=3'"
step reproduce $H reproduce --data "$UCI" --datasets iris --grid small --networks introm --stages accuracy --seeds 2 --out repro
only=$($H campaign --designs 16 --seed 1 --out camp --list | awk '$2 ~ /^introm_/ { printf "%s%d", sep, substr($1, 2); sep = "," }')
step campaign $H campaign --designs 16 --vectors 50 --seed 1 --out camp --only "${only:?no introm design among the first 16}"
step calibrate bash -c "timeout 600 $H power calibrate --out cal --work calwork --workers 1 || true
	ls calwork/cal_introm_*/build/synth/report.json"
echo "the introm: $new new files, $edited edited; $ran commands ran, $failed failed (logs in $WORK)"
[ "$failed" -eq 0 ]
