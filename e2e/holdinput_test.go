package e2e

import (
	"path/filepath"
	"testing"

	"github.com/hdlgen/hdlgen/model"
	"github.com/hdlgen/hdlgen/rtl"
	"github.com/hdlgen/hdlgen/rtl/plan"
)

// holdInputMatrix are designs emitted with --hold-input: both networks, P not
// dividing N, odd K, P = 1 (G = 16, a power of two), one group per vector (G = 1, where
// the transfer comes with the only group), and block-RAM ROMs, the lean
// combination of the median table.
var holdInputMatrix = []struct {
	shape
	romStyle  string
	gateLevel bool // also verify the synthesised netlist
}{
	{shape{arch: model.IntRVFL, k: 5, n: 37, l: 3, kappa: 3, bits: 5, p: 4}, "", true},
	{shape{arch: model.RVFL8, k: 3, n: 16, l: 3, p: 1}, "", false}, // G = 16: the counter wraps by itself
	{shape{arch: model.IntRVFL, k: 2, n: 3, l: 2, kappa: 1, bits: 2, p: 3}, "", false},
	{shape{arch: model.RVFL8, k: 7, n: 20, l: 4, p: 20}, "", false},
	{shape{arch: model.RVFL8, k: 5, n: 9, l: 3, p: 2}, plan.ROMStyleBlock, true},
}

// TestHoldInput: a design without the input register is verified on both
// simulators and both tops, two of them at gate level on both simulators too
// (the lean combination with block-RAM ROMs among them); the first one's
// netlist has at least IW fewer flip-flops than the same design with the
// register, and its latency from the offer is one cycle shorter.
func TestHoldInput(t *testing.T) {
	needGateLevel(t)
	root := t.TempDir()
	for i, s := range holdInputMatrix {
		name := s.String()
		if s.romStyle != "" {
			name += "_" + s.romStyle
		}
		t.Run(name, func(t *testing.T) {
			m := trainShape(t, s.shape)
			dir := filepath.Join(root, name)
			opt := rtl.Options{Parallel: s.p, Axis: true, Vectors: 150, Seed: 5, ROMStyle: s.romStyle, HoldInput: true}
			rep := emitVerified(t, m, opt, dir, s.gateLevel)
			if i != 0 {
				return
			}
			// The same design with the input register: more flip-flops, one more cycle.
			opt.HoldInput = false
			held, reg, regRep := synthVariant(t, dir, m, opt, filepath.Join(root, name+"_register"))
			if saved := reg.FFs - held.FFs; saved < rep.Plan.IW {
				t.Errorf("FFs %d with the input register, %d without: %d saved, want ≥ IW = %d", reg.FFs, held.FFs, saved, rep.Plan.IW)
			}
			if rep.Plan.Latency != regRep.Plan.Latency-1 || rep.Plan.II != regRep.Plan.II {
				t.Errorf("latency %d, II %d without the input register; %d, %d with it", rep.Plan.Latency, rep.Plan.II, regRep.Plan.Latency, regRep.Plan.II)
			}
		})
	}
}
