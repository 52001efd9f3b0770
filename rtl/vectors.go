package rtl

import (
	"fmt"
	"math/rand/v2"
	"strings"

	"github.com/hdlgen/hdlgen/model"
	"github.com/hdlgen/hdlgen/rtl/plan"
	"github.com/hdlgen/hdlgen/rtl/sim"
)

// Test-vector constants.
const (
	// ReadyPatternLength is R, the length of tv_ready.mem: a prime, so the pattern
	// never lines up with a power-of-two group count.
	ReadyPatternLength = 257
	// MaxCornerOneHot bounds the one-hot corner vectors (rtl-interface.md §5).
	MaxCornerOneHot = 64
	// JunkEvery is the spacing of malformed frames in the AXI4-Stream run: one
	// per JunkEvery vectors (at least two).
	JunkEvery = 50
	// vectorStream is the PCG stream of the test-vector generator ("hdlgen" + 0002).
	vectorStream = 0x68646c67656e0002
)

// rng draws from PCG Uint64 only, deriving everything else itself, so the vectors
// do not depend on a library method's algorithm (docs/semantics.md §2).
type rng struct{ pcg *rand.PCG }

func newRNG(seed uint64) rng { return newRNGStream(seed, vectorStream) }

// newRNGStream is newRNG on another PCG stream.
func newRNGStream(seed, stream uint64) rng { return rng{rand.NewPCG(seed, stream)} }

// intn returns a uniform int in [0, n) (modulo reduction; the bias is below 2^-50).
func (r rng) intn(n int) int { return int(r.pcg.Uint64() % uint64(n)) }

// unit returns a uniform float64 in [0, 1).
func (r rng) unit() float64 { return float64(r.pcg.Uint64()>>11) * (1.0 / (1 << 53)) }

// vectorSet builds the stimulus of rtl-interface.md §5: corner cases first, then
// random vectors (uniform, alternating with real rows when rows are given), random
// gaps and a random ready pattern.
func vectorSet(m *model.Model, pl *plan.Plan, o *Options) (sim.Stimulus, error) {
	r := newRNG(o.Seed)
	k := pl.K
	maxIn := pl.Layer().MaxInput(pl)
	fill := func(f func(i int) int) []int {
		v := make([]int, k)
		for i := range v {
			v[i] = f(i)
		}
		return v
	}
	var in [][]int
	in = append(in,
		fill(func(int) int { return 0 }),
		fill(func(int) int { return maxIn }),
		fill(func(i int) int { return i % 2 * maxIn }),
		fill(func(i int) int { return (i + 1) % 2 * maxIn }),
	)
	for f := 0; f < min(k, MaxCornerOneHot); f++ {
		in = append(in, fill(func(i int) int {
			if i == f {
				return maxIn
			}
			return 0
		}))
	}
	var rows [][]int
	for ri, raw := range o.Rows {
		if len(raw) != k {
			return sim.Stimulus{}, fmt.Errorf("rtl: data row %d has %d values, the model has K=%d features", ri, len(raw), k)
		}
		rows = append(rows, m.Inputs(raw))
	}
	for len(in) < o.Vectors {
		if len(rows) > 0 && len(in)%2 == 0 {
			in = append(in, rows[r.intn(len(rows))])
			continue
		}
		in = append(in, fill(func(int) int { return r.intn(maxIn + 1) }))
	}
	in = in[:o.Vectors]

	st := sim.Stimulus{Inputs: in, Gaps: make([]int, len(in)), Ready: make([]bool, ReadyPatternLength)}
	for v := range st.Gaps {
		// Half back to back, half uniform in [1, MaxGap].
		if o.MaxGap > 0 && r.intn(2) == 1 {
			st.Gaps[v] = 1 + r.intn(o.MaxGap)
		}
	}
	any := false
	for c := range st.Ready {
		st.Ready[c] = r.unit() < o.ReadyProbability
		any = any || st.Ready[c]
	}
	if !any {
		st.Ready[0] = true
	}
	st.AxisJunk = axisJunk(r, len(in), k)
	return st, nil
}

// axisJunk draws the malformed frames of the AXI4-Stream run (rtl-interface.md
// §5): max(2, V/JunkEvery) of them before vectors 1…V−1, alternately short (1…K−1
// beats, TLAST early) and long (K+1…2K beats, TLAST late); only long ones when
// K = 1. Drawn after everything else, so the other vector files do not change.
func axisJunk(r rng, nv, k int) []int {
	junk := make([]int, nv)
	if nv < 2 {
		return junk
	}
	for n := 0; n < max(2, nv/JunkEvery) && n < nv-1; n++ {
		v := 1 + r.intn(nv-1)
		for junk[v] != 0 {
			v = 1 + (v % (nv - 1)) // the next free vector, cyclically over 1…V−1
		}
		if n%2 == 0 && k > 1 {
			junk[v] = 1 + r.intn(k-1)
		} else {
			junk[v] = k + 1 + r.intn(k)
		}
	}
	return junk
}

// param is one `define of tv_params.vh (a constexpr of tv_params.h).
type param struct {
	name  string
	value int
}

// vectorFiles renders the stimulus and the simulator's expectations as the
// vectors/ files of rtl-interface.md §5; sys holds the system top's parameters
// (system-interface.md), nil without one.
func vectorFiles(m *model.Model, pl *plan.Plan, st sim.Stimulus, stream, axis *sim.Run, sys []param) map[string][]byte {
	files := map[string][]byte{}
	nv := len(st.Inputs)
	lines := func(f func(v int) string) []byte {
		out := make([]string, nv)
		for v := range out {
			out[v] = f(v)
		}
		return memFile(out)
	}
	files["vectors/tv_in.mem"] = lines(func(v int) string {
		b := newBitvec(pl.IW)
		for i, x := range st.Inputs[v] {
			b.set(i*pl.LW, pl.LW, int64(x))
		}
		return b.hex()
	})
	files["vectors/tv_gap.mem"] = lines(func(v int) string { return hexWord(16, int64(st.Gaps[v])) })
	ready := make([]string, len(st.Ready))
	for c, r := range st.Ready {
		ready[c] = "0"
		if r {
			ready[c] = "1"
		}
	}
	files["vectors/tv_ready.mem"] = memFile(ready)
	files["vectors/tv_exp.mem"] = lines(func(v int) string {
		o := stream.Outputs[v]
		b := newBitvec(pl.OW)
		b.set(0, pl.CW, int64(o.Class))
		for l, s := range o.Scores {
			b.set(pl.CW+l*pl.AW, pl.AW, s)
		}
		return b.hex()
	})
	cycles := func(run *sim.Run) []byte {
		return lines(func(v int) string {
			o := run.Outputs[v]
			b := newBitvec(96)
			b.set(64, 32, int64(o.Accept))
			b.set(32, 32, int64(o.FirstValid))
			b.set(0, 32, int64(o.Transfer))
			return b.hex()
		})
	}
	files["vectors/tv_cycles.mem"] = cycles(stream)
	maxCycles := stream.Cycles
	drops := 0
	if axis != nil {
		files["vectors/tv_axis_cycles.mem"] = cycles(axis)
		files["vectors/tv_axis_junk.mem"] = lines(func(v int) string { return hexWord(16, int64(st.AxisJunk[v])) })
		maxCycles = max(maxCycles, axis.Cycles)
		drops = axis.Dropped
	}
	// The testbenches give up well after the simulator finished.
	maxCycles = 2*maxCycles + 1000

	params := []param{
		{"TV_VECTORS", nv}, {"TV_READY_LEN", len(st.Ready)}, {"TV_IN_W", pl.IW}, {"TV_LW", pl.LW},
		{"TV_K", pl.K}, {"TV_L", pl.L}, {"TV_AW", pl.AW}, {"TV_CW", pl.CW}, {"TV_EXP_W", pl.OW},
		{"TV_LATENCY", pl.AcceptLatency()}, {"TV_AXIS_LATENCY", pl.AxisLatency}, {"TV_MAX_CYCLES", maxCycles},
		{"TV_AXIS_DROPS", drops},
	}
	if pl.ReloadableReadout {
		// The stream testbench ties the readout write port of <prefix>_top off.
		params = append(params, param{"TV_RO_PORTS", 1}, param{"TV_RO_ADDR_W", pl.GroupW},
			param{"TV_RO_DATA_W", pl.ROM(plan.ROMWout).Width})
	}
	params = append(params, sys...)
	head := fmt.Sprintf("Code generated by hdlgen from model %s. DO NOT EDIT.", quote(m.Name))
	var vh, h strings.Builder
	fmt.Fprintf(&vh, "// %s\n// Test-vector parameters (docs/rtl-interface.md section 5).\n`ifndef TV_PARAMS_VH\n`define TV_PARAMS_VH\n", head)
	fmt.Fprintf(&h, "// %s\n// Test-vector parameters (docs/rtl-interface.md section 5).\n#pragma once\n", head)
	for _, p := range params {
		fmt.Fprintf(&vh, "`define %s %d\n", p.name, p.value)
		fmt.Fprintf(&h, "constexpr int %s = %d;\n", p.name, p.value)
	}
	fmt.Fprintf(&vh, "`define TV_DUT %s_top\n`define TV_AXIS_DUT %s_axis\n", pl.Prefix, pl.Prefix)
	fmt.Fprintf(&h, "constexpr const char TV_DUT[] = \"%s_top\";\nconstexpr const char TV_AXIS_DUT[] = \"%s_axis\";\n", pl.Prefix, pl.Prefix)
	if sys != nil {
		fmt.Fprintf(&vh, "`define TV_SYS_DUT %s_system\n", pl.Prefix)
		fmt.Fprintf(&h, "constexpr const char TV_SYS_DUT[] = \"%s_system\";\n", pl.Prefix)
	}
	vh.WriteString("`endif\n")
	files["vectors/tv_params.vh"] = []byte(vh.String())
	files["vectors/tv_params.h"] = []byte(h.String())
	return files
}
