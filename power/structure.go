package power

import (
	"encoding/json"
	"fmt"
	"math/bits"
	"strings"

	"github.com/hdlgen/hdlgen/model"
	"github.com/hdlgen/hdlgen/quant"
	"github.com/hdlgen/hdlgen/rtl/plan"
)

// Shape is a network shape without its hidden-layer size: what the sizer gets.
type Shape struct {
	Arch  model.Arch `json:"arch"`
	K     int        `json:"k"`               // features
	L     int        `json:"l"`               // classes
	Kappa int        `json:"kappa,omitempty"` // intrvfl clip threshold κ
	Bits  int        `json:"bits,omitempty"`  // intrvfl readout bits b (rvfl8: always 8)
	// EffBits, when > 0, is the effective width of the readout codes: 99 % of
	// them lie in ±(2^(EffBits−1) − 1) (EffectiveReadoutBits). Trained readouts
	// quantised by max-scaling use few levels (the median intRVFL's 5-bit codes
	// are 97 % in {−1, 0, 1}), and Yosys merges the readout ROM's duplicate bit
	// columns and shrinks the LUT multipliers accordingly. 0 means the declared
	// width: the upper bound that the calibration (random codes) measures.
	EffBits int `json:"eff_bits,omitempty"`
	// Win is the intRVFL's W_in source: empty for the W_in ROM, "prbs31" for
	// the on-chip generator (no W_in ROM; a window register and P XORs).
	Win model.WinGen `json:"w_in_generator,omitempty"`
}

// Design is a shape with N hidden neurons and the emitter's options
// (plan.Options: P neurons per clock, the pipeline levels, the ROM style and
// the lean options), the ones hdlgen emit takes. Its JSON keeps the keys the
// power model has always written (MarshalJSON).
type Design struct {
	Shape
	N int
	plan.Options
}

// designJSON is Design's JSON form: the shape, n, p and the options other
// than P under the power model's keys, each omitted at its default. A new
// plan option needs a key here (TestDesignCarriesEveryOption fails until it
// has one).
type designJSON struct {
	Shape
	N            int `json:"n"`
	P            int `json:"p"`
	AdderLevels  int `json:"adder_levels,omitempty"`
	ArgmaxLevels int `json:"argmax_levels,omitempty"`
	// BlockROMs is plan.ROMStyleBlock.
	BlockROMs         bool `json:"block_roms,omitempty"`
	HoldInput         bool `json:"hold_input,omitempty"`
	RegisterSums      bool `json:"register_sums,omitempty"`
	ReloadableReadout bool `json:"reloadable_readout,omitempty"`
}

// MarshalJSON writes d under the power model's keys (designJSON).
func (d Design) MarshalJSON() ([]byte, error) {
	return json.Marshal(designJSON{
		Shape: d.Shape, N: d.N, P: d.Parallel,
		AdderLevels: d.AdderLevelsPerStage, ArgmaxLevels: d.ArgmaxLevelsPerStage,
		BlockROMs: d.BlockROMs(), HoldInput: d.HoldInput, RegisterSums: d.RegisterSums,
		ReloadableReadout: d.ReloadableReadout,
	})
}

// UnmarshalJSON reads what MarshalJSON writes.
func (d *Design) UnmarshalJSON(b []byte) error {
	var j designJSON
	if err := json.Unmarshal(b, &j); err != nil {
		return err
	}
	*d = Design{Shape: j.Shape, N: j.N, Options: plan.Options{
		Parallel: j.P, AdderLevelsPerStage: j.AdderLevels, ArgmaxLevelsPerStage: j.ArgmaxLevels,
		HoldInput: j.HoldInput, RegisterSums: j.RegisterSums, ReloadableReadout: j.ReloadableReadout,
	}}
	if j.BlockROMs {
		d.ROMStyle = plan.ROMStyleBlock
	}
	return nil
}

// DesignOf is the power model's view of a plan: its shape, N and the options
// it was derived with (canonical: defaults as zero values).
func DesignOf(pl *plan.Plan) Design {
	s := Shape{Arch: pl.Arch, K: pl.K, L: pl.L, Win: pl.WinGenerator}
	t := traitsOf(pl.Arch)
	if t.Kappa {
		s.Kappa = pl.Kappa
	}
	if netOf(pl.Arch) != nil && t.Readout.Bits == 0 {
		s.Bits = pl.ReadoutBits
	}
	return Design{Shape: s, N: pl.N, Options: pl.Options().Canonical()}
}

// DesignOfModel is DesignOf with the effective readout width of model m's codes.
func DesignOfModel(pl *plan.Plan, m *model.Model) Design {
	d := DesignOf(pl)
	if m != nil && m.Readout != nil {
		d.EffBits = EffectiveReadoutBits(m.Readout.Q, m.Readout.Bits)
	}
	return d
}

// adderLevels is the adder levels per pipeline stage of d (plan.New's rule).
func (d Design) adderLevels() int { return d.AdderLevels() }

// argmaxLevels is the argmax levels per pipeline stage of d.
func (d Design) argmaxLevels() int { return d.ArgmaxLevels() }

func (d Design) String() string {
	if n := netOf(d.Arch); n != nil {
		return n.name(d)
	}
	return fmt.Sprintf("%s K=%d N=%d L=%d P=%d", d.Arch, d.K, d.N, d.L, d.P())
}

// Check validates the design against what the RTL supports.
func (d Design) Check() error {
	n := netOf(d.Arch)
	if n == nil {
		return fmt.Errorf("power: architecture %q has no RTL (want %s)", d.Arch, networks.Alternatives())
	}
	if err := n.check(d); err != nil {
		return err
	}
	declared := d.readoutBits()
	if d.EffBits != 0 && (d.EffBits < quant.MinBits || d.EffBits > declared) {
		return fmt.Errorf("power: effective readout bits %d outside [%d, %d]", d.EffBits, quant.MinBits, declared)
	}
	if d.Win != model.WinStored && (d.Win != model.WinPRBS31 || !traitsOf(d.Arch).GeneratedWin) {
		return fmt.Errorf("power: W_in source %q for %s (a generated W_in is an option of the %s)", d.Win, d.Arch,
			model.Alternatives(model.ArchsWith(func(t model.Traits) bool { return t.GeneratedWin })))
	}
	if d.K < 1 || d.L < 2 || d.N < 1 {
		return fmt.Errorf("power: K=%d, L=%d, N=%d: want K ≥ 1, L ≥ 2, N ≥ 1", d.K, d.L, d.N)
	}
	if d.Parallel < 0 || d.P() > d.N {
		return fmt.Errorf("power: P=%d outside [1, N=%d]", d.Parallel, d.N)
	}
	if d.AdderLevelsPerStage < 0 || d.ArgmaxLevelsPerStage < 0 {
		return fmt.Errorf("power: levels per pipeline stage %d (adders), %d (argmax), want ≥ 0 (0: the default rule)", d.AdderLevelsPerStage, d.ArgmaxLevelsPerStage)
	}
	if d.ROMStyle != "" && d.ROMStyle != plan.ROMStyleAuto && d.ROMStyle != plan.ROMStyleBlock {
		return fmt.Errorf("power: ROM style %q, want one of %s", d.ROMStyle, strings.Join(plan.ROMStyles, ", "))
	}
	return nil
}

// structure holds the widths and pipeline numbers of a design: the hidden
// layer's from rtl/plan's own rule (plan.HiddenWidths), the shared ones by
// the same rules as rtl/plan (a test compares them with plan.New for many
// shapes); it needs no model, so the sizer can evaluate thousands of designs
// quickly.
type structure struct {
	G, GroupW               int // groups ⌈N/P⌉, ROM address width
	LW, IW, AW, CW, OW      int
	DW, PcW, HW, QW, PW, TW int
	QWEff, PWEff, TWEff     int // with the effective readout width (= QW, PW, TW without EffBits)
	ZW                      int // rvfl8 pre-activation width
	Clip, B                 int // intrvfl κ' = min(κ, K); readout bound
	HiddenLeaves            int
	HiddenDepth, HiddenCut  int
	LaneDepth, LaneCut      int
	ArgDepth, ArgCut        int
	Flight, Latency, II     int
	WinW, WoutW             int // ROM word widths
	// HiddenFlight is the flight stages a network's hidden layer adds that
	// depend on the design (the intrvfl2's second layer), set by its hiddenFlight.
	HiddenFlight int
}

func clog2(n int) int { return plan.Clog2(n) }

func newStructure(d Design) structure {
	var s structure
	s.G = (d.N + d.P() - 1) / d.P()
	s.GroupW = max(1, clog2(s.G))
	s.CW = max(1, clog2(d.L))
	bitsR := d.readoutBits()
	s.B = quant.BoundForBits(bitsR)
	s.QW = bits.Len(uint(s.B)) + 1
	// The hidden layer's widths: rtl/plan's rule for the dimensions.
	w, err := plan.HiddenWidths(d.Arch, plan.Dims{K: d.K, N: d.N, P: d.P(), Kappa: d.Kappa, ReadoutBound: s.B})
	if err != nil {
		panic("power: " + err.Error()) // Check admits only network types with RTL
	}
	s.Clip, s.LW, s.DW, s.PcW, s.HW, s.ZW = w.ClipBound, w.LW, w.DW, w.PcW, w.HW, w.ZW
	s.HiddenLeaves, s.WinW = w.Leaves, w.WinW
	bound := w.ScoreBound
	if f, ok := d.net().(interface{ hiddenFlight(Design) int }); ok {
		s.HiddenFlight = f.hiddenFlight(d)
	}
	s.WoutW = d.P() * d.L * s.QW
	s.QWEff = s.QW
	if d.EffBits > 0 && d.EffBits < bitsR {
		s.QWEff = bits.Len(uint(quant.BoundForBits(d.EffBits))) + 1
	}
	s.IW = d.K * s.LW
	s.AW = model.AccWidth(bound)
	s.OW = d.L*s.AW + s.CW
	s.PW = s.QW + s.HW
	s.TW = s.PW + clog2(d.P())
	s.PWEff = s.QWEff + s.HW
	s.TWEff = s.PWEff + clog2(d.P())
	ra, rm := d.adderLevels(), d.argmaxLevels()
	s.HiddenDepth = clog2(s.HiddenLeaves)
	s.HiddenCut = plan.Cuts(s.HiddenDepth, ra)
	s.LaneDepth = clog2(d.P())
	s.LaneCut = plan.Cuts(s.LaneDepth, ra)
	s.ArgDepth = clog2(d.L)
	s.ArgCut = plan.Cuts(s.ArgDepth, rm)
	// Flight stages: stage A, hidden-tree cuts, the hidden register, the MAC
	// product register, lane-tree cuts, and the network's own (rvfl8: the
	// product register).
	s.Flight = 1 + s.HiddenCut + 1 + 1 + s.LaneCut + d.net().extraFlight() + s.HiddenFlight
	s.Latency = s.G + s.Flight + s.ArgCut + 2
	if d.HoldInput {
		s.Latency-- // no input register
	}
	s.II = max(s.G, 2)
	return s
}

// EffectiveReadoutBits is the smallest width b ∈ [2, bits] whose bound
// 2^(b−1) − 1 holds at least 99 % of the readout codes q (see Shape.EffBits).
func EffectiveReadoutBits(q []int32, bits int) int {
	if len(q) == 0 {
		return quant.MinBits
	}
	for b := quant.MinBits; b < bits; b++ {
		bound := int32(quant.BoundForBits(b))
		in := 0
		for _, v := range q {
			if v >= -bound && v <= bound {
				in++
			}
		}
		if float64(in) >= 0.99*float64(len(q)) {
			return b
		}
	}
	return bits
}

// Latency is the exact number of cycles from a vector's offer to an idle
// pipeline to the first cycle of out_valid_o (rtl/plan's Latency), and II the
// initiation interval.
func Latency(d Design) (latency, ii int, err error) {
	if err := d.Check(); err != nil {
		return 0, 0, err
	}
	s := newStructure(d)
	return s.Latency, s.II, nil
}

// treeRegBits counts the register bits of one adder tree's internal cuts (the
// rule of rtl/plan: a register after every levels-per-stage levels, none after
// the last level).
func treeRegBits(leaves, w, depth, ra int) int {
	n := 0
	for lv := 1; lv < depth; lv++ {
		if lv%ra == 0 {
			n += ((leaves + 1<<lv - 1) >> lv) * w
		}
	}
	return n
}

// readoutBits is the declared readout width: the network's fixed one or Bits.
func (d Design) readoutBits() int {
	if b := traitsOf(d.Arch).Readout.Bits; b != 0 {
		return b
	}
	return d.Bits
}
