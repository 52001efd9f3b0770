#!/usr/bin/env bash
# third-network.sh [WORK] counts what a third network type costs, over every
# command (docs/architecture.md, "Where a network type lives"). In a throwaway
# git worktree of HEAD (or the clean checkout TREE names) it adds the intnc —
# the intRVFL without its clip, h = s, which is the intRVFL with κ = K; it
# reuses the intRVFL's core template and primitives — as four new files,
# lists what changed (4 new files and no edited one, or it stops), builds
# hdlgen and runs every command on the intnc in WORK (default: a temporary
# folder): train, quantize (and its GA), emit (stream, AXI4-Stream, Zynq
# system, reloadable readout, lean options), verify, sim, predict, synth,
# power (design, activity, model.json), size, weights, the host driver (make
# sim, native, arm; info, classify, load-readout from Python, self-test),
# search and eval on a CSV and on a collection dataset, reproduce, campaign
# (the intnc designs among the first 16) and power calibrate (until its intnc
# designs are synthesised). It prints one line per command and the count.
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
	trap 'rm -f "$TREE/model/intnc.go" "$TREE/rtl/plan/intnc.go" "$TREE/rtl/sim/intnc.go" "$TREE/power/intnc.go"' EXIT
fi
if [ -n "$(git -C "$TREE" status --porcelain)" ]; then
	echo "third-network: $TREE is not clean" >&2
	exit 1
fi

cat >"$TREE/model/intnc.go" <<'INTNC_EOF'
package model

// IntNC is the intRVFL without its clip: h_j = s_j = K − 2·popcount, the
// intRVFL with κ = K (|s_j| ≤ K, so that clip never acts).
const IntNC Arch = "intnc"

// NCNet is the hidden layer of the intnc: an IntNet whose κ is K.
type NCNet struct{ *IntNet }

// Arch is IntNC.
func (n NCNet) Arch() Arch { return IntNC }

func (n NCNet) describe() string { return "" }

// wireNCNet is the "intnc" section of model.json.
type wireNCNet struct {
	WinSigns []string `json:"w_in_signs"`
}

func (n NCNet) section() any {
	rows := make([]string, n.N)
	for j := range rows {
		rows[j] = n.Signs.HexRow(j)
	}
	return wireNCNet{WinSigns: rows}
}

func init() { register(intncType) }

var intncType = &netType{
	arch:   IntNC,
	traits: Traits{Readout: ReadoutRule{Allowed: true}},
	check:  func(*Config) error { return nil },
	build:  func(k int, c Config) Network { return NCNet{NewIntNet(k, c.N, k, c.Seed)} },
	decode: func(d *decoder, sec *node, k, n int) (Network, error) {
		o, err := d.object(sec, string(IntNC), "w_in_signs")
		if err != nil {
			return nil, err
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
		return NCNet{&IntNet{K: k, N: n, Kappa: k, Signs: s}}, nil
	},
	diff: func(a, b Network, names [2]string, note string) []string {
		return intDiffs(a.(NCNet).IntNet, b.(NCNet).IntNet, names, note)
	},
}
INTNC_EOF
cat >"$TREE/rtl/plan/intnc.go" <<'INTNC_EOF'
package plan

import "github.com/hdlgen/hdlgen/model"

// intncLayer is the intnc's hidden layer: the intRVFL's with κ = K.
type intncLayer struct{ intrvflLayer }

func init() { register(intncLayer{}) }

func (intncLayer) Arch() model.Arch { return model.IntNC }

func (intncLayer) ArchCode() int { return 3 }

func (l intncLayer) WinLane(pl *Plan, net model.Network, j, lane int, set func(lsb, width int, v int64)) {
	l.intrvflLayer.WinLane(pl, net.(model.NCNet).IntNet, j, lane, set)
}

func (l intncLayer) derive(pl *Plan, net model.Network) Tree {
	return l.intrvflLayer.derive(pl, net.(model.NCNet).IntNet)
}
INTNC_EOF
cat >"$TREE/rtl/sim/intnc.go" <<'INTNC_EOF'
package sim

import (
	"github.com/hdlgen/hdlgen/model"
	"github.com/hdlgen/hdlgen/rtl/plan"
)

func init() {
	hiddenLayers.Add(string(model.IntNC), func(m *model.Model, pl *plan.Plan) hiddenLayer {
		return newIntrvfl(&model.Model{Net: m.Net.(model.NCNet).IntNet}, pl)
	})
}
INTNC_EOF
cat >"$TREE/power/intnc.go" <<'INTNC_EOF'
package power

import (
	"fmt"

	"github.com/hdlgen/hdlgen/model"
	"github.com/hdlgen/hdlgen/quant"
)

// intncNet is the intnc's part of the power model: the intRVFL's with κ = K.
type intncNet struct{ intrvflNet }

func init() { register(intncNet{}) }

func (intncNet) arch() model.Arch { return model.IntNC }

func (intncNet) check(d Design) error {
	if d.Bits < quant.MinBits || d.Bits > quant.MaxBits {
		return fmt.Errorf("power: readout bits %d outside [%d, %d]", d.Bits, quant.MinBits, quant.MaxBits)
	}
	return nil
}

func (intncNet) name(d Design) string {
	return fmt.Sprintf("intnc K=%d N=%d L=%d b=%d P=%d", d.K, d.N, d.L, d.Bits, d.P)
}

func (n intncNet) hidden(d Design, s *structure) int64 {
	d.Kappa = d.K
	return n.intrvflNet.hidden(d, s)
}

func (n intncNet) blocks(d Design, st structure, tag int, hw *hardCounts) hiddenBlocks {
	d.Kappa = d.K
	return n.intrvflNet.blocks(d, st, tag, hw)
}

func (intncNet) calibration() Calibration {
	return Calibration{Sections: [CalibrationSections][]CalShape{
		CalBase: {{K: 8, N: 128, L: 3, Bits: 5, P: 1}, {K: 8, N: 128, L: 3, Bits: 5, P: 8}},
		CalOddP: {{K: 8, N: 128, L: 3, Bits: 5, P: 6}},
	}}
}
INTNC_EOF

changes=$(git -C "$TREE" status --porcelain --untracked-files=all)
echo "$changes"
new=$(grep -c '^??' <<<"$changes" || true)
edited=$(grep -vc '^??' <<<"$changes" || true)
echo "the intnc: $new new files, $edited edited"
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
step train $H train --data iris.csv --arch intnc --n 40 --lambda 4 --bits 5 -o nc.json
step train-float $H train --data iris.csv --arch intnc --n 40 --lambda 4 -o ncf.json
step quantize $H quantize ncf.json --bits 4 -o nc4.json
step quantize-ga $H quantize ncf.json --bits 5 --ga rounded --data iris.csv -o ncga.json
step emit $H emit nc.json -o d-stream
step emit-axis $H emit nc.json --axis --parallel 4 -o d-axis
step emit-system $H emit nc.json --system zynq --parallel 3 -o d-sys
step emit-reloadable $H emit nc.json --system zynq --reloadable-readout -o d-reload
step emit-lean $H emit nc.json --rom-style block --hold-input --register-sums --parallel 8 -o d-lean
for d in stream axis sys reload lean; do
	step "verify-$d" $H verify "d-$d"
done
step sim-model $H sim nc.json --data iris.csv --parallel 4
step sim-dir $H sim d-sys --data iris.csv
step predict $H predict nc.json --data iris.csv --score
step synth $H synth d-axis
step power-dir $H power d-axis
step power-activity $H power d-stream --activity
step power-model $H power nc.json --parallel 8
step size-model $H size --budget 3.2uJ --model nc.json
step size-shape $H size --budget 3.2uJ --features 4 --num-classes 3 --arch intnc --bits 5
step weights $H weights nc4.json --design d-reload -o ro.bin
for t in sim native arm; do
	step "driver-$t" make -C d-reload/driver "$t"
done
step driver-info bash -c 'cd d-reload/driver && ./build/sim/hdlgen-run-sim info | tee /dev/stderr | grep -q "^arch intnc "'
step driver-classify bash -c "cd d-reload/driver && ./build/sim/hdlgen-run-sim classify ../../rows.csv >../../classes-driver.txt &&
	$H predict ../../nc.json --data ../../iris.csv >../../classes-go.txt && cmp ../../classes-driver.txt ../../classes-go.txt"
step driver-python bash -c "cd d-reload/driver && python3 -c \"
import csv, hdlgen
with hdlgen.Device('sim', lib='build/sim/libhdlgen_sim.so') as d:
    d.load_readout('../../ro.bin')
    print(d.info(), d.classify([[float(x) for x in r] for r in csv.reader(open('../../rows.csv'))])[:10])
\""
step driver-selftest bash -c 'cd d-reload/driver && ./build/sim/hdlgen-run-sim selftest'
step search-csv $H search --data iris.csv --arch intnc --grid small --folds 2
step eval-csv $H eval --data iris.csv --arch intnc --n 50 --lambda 4 --bits 5 --seeds 2
step search-uci $H search --data "$UCI" --dataset iris --arch intnc --grid small
step eval-uci $H eval --data "$UCI" --dataset iris --arch intnc --n 50 --lambda 4 --seeds 2
step reproduce $H reproduce --data "$UCI" --datasets iris --grid small --networks intnc --stages accuracy --seeds 2 --out repro
only=$($H campaign --designs 16 --seed 1 --out camp --list | awk '$2 ~ /^intnc_/ { printf "%s%d", sep, substr($1, 2); sep = "," }')
step campaign $H campaign --designs 16 --vectors 50 --seed 1 --out camp --only "${only:?no intnc design among the first 16}"
step calibrate bash -c "timeout 600 $H power calibrate --out cal --work calwork --workers 1 || true
	ls calwork/cal_intnc_*/build/synth/report.json"
echo "the intnc: $new new files, $edited edited; $ran commands ran, $failed failed (logs in $WORK)"
[ "$failed" -eq 0 ]
