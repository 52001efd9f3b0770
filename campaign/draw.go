package campaign

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"

	"github.com/hdlgen/hdlgen/internal/planflags"
	"github.com/hdlgen/hdlgen/internal/randmodel"
	"github.com/hdlgen/hdlgen/model"
	"github.com/hdlgen/hdlgen/rtl"
	"github.com/hdlgen/hdlgen/rtl/plan"
	"github.com/hdlgen/hdlgen/rtl/regmap"
)

// Bounds of the drawn shapes (doc.go gives the whole distribution). They keep
// one design to seconds of CPU: the Verilator builds grow with the lanes P and
// the hidden layer N·K, the simulations with the groups ⌈N/P⌉.
const (
	MaxK        = 32 // features
	MaxN        = 64 // hidden neurons
	MaxNK       = 512
	MaxP        = 8 // lanes, except P = N for N ≤ MaxPFull
	MaxPFull    = 12
	MaxL        = 12 // classes
	LargeKappa  = model.MaxKappa
	MaxAdderLvl = 5 // pipeline knobs drawn in 1…Max (or 0: the default)
	MaxArgLvl   = 3
)

// Design is one drawn design: a random model (randmodel.Random of Shape and
// ModelSeed) and the emit options. Index and Seed (the campaign's) determine
// every other field.
type Design struct {
	Index     int             `json:"index"`
	Seed      uint64          `json:"campaign_seed"`
	Shape     randmodel.Shape `json:"shape"`
	ModelSeed uint64          `json:"model_seed"`
	// Options are the design options: P, the pipeline rules (0: plan's
	// default), the reloadable readout (needs System), and the lean-core
	// options (HoldInput never with System).
	plan.Options
	Axis   bool   `json:"axis"`
	System string `json:"system,omitempty"`
	// NoScores needs System.
	NoScores   bool    `json:"no_scores,omitempty"`
	Ready      float64 `json:"ready"`
	VectorSeed uint64  `json:"vector_seed"`
}

// leanDraws are the lean-core options a design may draw (as emit flags), by
// the draw's number; the others draw none.
var leanDraws = [][]string{
	{"--hold-input"},
	{"--register-sums"},
	{"--rom-style", plan.ROMStyleBlock},
	{"--hold-input", "--register-sums", "--rom-style", plan.ROMStyleBlock},
}

// tableFlags are the design options Design.String and the tables show in
// columns of their own; every other option of plan.Options (the lean-core
// options, and any option added there) follows as a flag.
var tableFlags = []string{"parallel", "adder-levels", "argmax-levels", "reloadable-readout"}

// extraOptions are the design options not in tableFlags, in plan.Options'
// order.
func extraOptions() []planflags.Option {
	var out []planflags.Option
	for _, o := range planflags.Options() {
		if !slices.Contains(tableFlags, o.Flag) {
			out = append(out, o)
		}
	}
	return out
}

// Name is the design's model name and directory stem: "d0007".
func (d Design) Name() string { return fmt.Sprintf("d%04d", d.Index) }

// OptionString returns the options as one short string for tables.
func (d Design) OptionString() string {
	s := fmt.Sprintf("P=%d ready=%.2f adder=%d argmax=%d", d.Parallel, d.Ready, d.AdderLevelsPerStage, d.ArgmaxLevelsPerStage)
	if d.Axis {
		s += " axis"
	}
	if d.System != "" {
		s += " system=" + d.System
	}
	if d.ReloadableReadout {
		s += " reloadable"
	}
	if d.NoScores {
		s += " no-scores"
	}
	for _, o := range extraOptions() {
		switch v := o.Value(d.Options); {
		case o.IsDefault(d.Options):
		case o.Kind == reflect.Bool:
			s += " " + o.Flag
		default:
			s += " " + o.Flag + "=" + v
		}
	}
	return s
}

// Model returns the design's model.
func (d Design) Model() *model.Model { return randmodel.Random(d.Shape, d.Name(), d.ModelSeed) }

// EmitOptions returns the rtl options of the design with v test vectors.
func (d Design) EmitOptions(v int) rtl.Options {
	return rtl.Options{Options: d.Options, Axis: d.Axis, Vectors: v, Seed: d.VectorSeed, ReadyProbability: d.Ready,
		System: d.System, SystemNoScores: d.NoScores}
}

// Plan returns the design's plan.
func (d Design) Plan() (*plan.Plan, error) {
	return plan.New(d.Model(), d.Options)
}

// drawNetwork draws the network type of design index: every type with RTL
// alike. The first two by architecture code (plan.Layer.ArchCode: the intrvfl
// and the rvfl8) are drawn from r, ½ each, as every campaign recorded before
// a third type existed drew them; each later type k (0-based, by code) then
// takes the design with probability 1/(k+1), decided on a stream of its own.
// So a network type added to the registries changes only the designs it
// takes — a third of them for a third type — and only their records no
// longer match and are run again.
func drawNetwork(r *rand.Rand, seed uint64, index int) model.Arch {
	nets := plan.Archs()
	if len(nets) < 2 {
		panic(fmt.Sprintf("campaign: %d network types with RTL, want at least 2", len(nets)))
	}
	slices.SortFunc(nets, func(a, b model.Arch) int { return plan.LayerOf(a).ArchCode() - plan.LayerOf(b).ArchCode() })
	arch := nets[r.IntN(2)]
	for k := 2; k < len(nets); k++ {
		own := rand.New(rand.NewPCG(seed, 0x6e65740000000000|uint64(k)<<40|uint64(index)))
		if own.IntN(k+1) == 0 {
			arch = nets[k]
		}
	}
	return arch
}

// Draw returns design index of the campaign with seed seed. Design i depends
// on (seed, i) only, so a campaign of 300 designs starts with the 3 of a
// campaign of 3, and one design can be drawn again alone.
func Draw(seed uint64, index int) Design {
	r := rand.New(rand.NewPCG(seed, 0x63616d7000000000|uint64(index)))
	d := Design{Index: index, Seed: seed, ModelSeed: r.Uint64(), VectorSeed: r.Uint64()}
	s := &d.Shape
	s.Arch = drawNetwork(r, seed, index)
	traits, err := model.TraitsOf(s.Arch)
	if err != nil {
		panic(fmt.Sprintf("campaign: network %s: %v", s.Arch, err))
	}
	// K: a third tiny (1…3), the rest 1…MaxK, then odd with probability 3/4.
	if r.IntN(3) == 0 {
		s.K = 1 + r.IntN(3)
	} else {
		s.K = 1 + r.IntN(MaxK)
	}
	if s.K%2 == 0 && r.IntN(2) == 0 {
		s.K--
	}
	// N: a quarter tiny (1…4), the rest 5…min(MaxN, MaxNK/K).
	hi := min(MaxN, MaxNK/s.K)
	if r.IntN(4) == 0 || hi < 5 {
		s.N = 1 + r.IntN(min(4, hi))
	} else {
		s.N = 5 + r.IntN(hi-4)
	}
	s.N = max(s.N, traits.MinHidden) // a network type's smallest N (the intrvfl2's two layers)
	// L: a quarter 2, the rest 2…MaxL.
	s.L = 2
	if r.IntN(4) != 0 {
		s.L = 2 + r.IntN(MaxL-1)
	}
	if traits.Kappa {
		switch r.IntN(4) {
		case 0:
			s.Kappa = 1
		case 1:
			s.Kappa = LargeKappa
		default:
			s.Kappa = 1 + r.IntN(s.K+2)
		}
		// A type with a smaller largest κ (the conj's depth D ≤ 15) takes
		// its largest for LargeKappa.
		s.Kappa = min(s.Kappa, traits.LargestKappa())
	}
	if traits.ReadoutBits() {
		switch r.IntN(5) {
		case 0:
			s.Bits = 2
		case 1:
			s.Bits = 16
		default:
			s.Bits = 3 + r.IntN(13)
		}
	}
	// P: a quarter 1, a quarter N (when N ≤ MaxPFull), else 2…min(N, MaxP),
	// preferring a P that does not divide N.
	pmax := min(s.N, MaxP)
	switch k := r.IntN(4); {
	case k == 0 || s.N == 1:
		d.Parallel = 1
	case k == 1 && s.N <= MaxPFull:
		d.Parallel = s.N
	default:
		d.Parallel = 1 + r.IntN(pmax)
		if s.N%d.Parallel == 0 && pmax > 2 {
			d.Parallel = 1 + r.IntN(pmax)
		}
	}
	switch r.IntN(4) {
	case 0:
		d.Ready = 1
	case 1:
		d.Ready = rtl.DefaultReadyProbability
	default:
		d.Ready = float64(5+r.IntN(15)) / 20 // 0.25…0.95
	}
	if r.IntN(3) != 0 {
		d.AdderLevelsPerStage = 1 + r.IntN(MaxAdderLvl)
	}
	if r.IntN(3) != 0 {
		d.ArgmaxLevelsPerStage = 1 + r.IntN(MaxArgLvl)
	}
	axis, system, reload, noScores := r.IntN(2) == 0, r.IntN(3) == 0, r.IntN(2) == 0, r.IntN(3) == 0
	// A third of the intRVFL designs generate W_in on chip (--win lfsr). Drawn
	// last, so that the draws above are those of the campaigns recorded before
	// the generator existed.
	if lfsr := r.IntN(3) == 0; lfsr && traits.GeneratedWin {
		s.Win = model.WinPRBS31
	}
	// A third of the designs get a lean-core option (--hold-input,
	// --register-sums, --rom-style block) or all three. Drawn after the
	// generator, for the same reason.
	lean := r.IntN(12)
	// Options the design cannot have are dropped (the draws above are made
	// anyway, so that every design uses the same number of random values).
	pl, err := d.Plan()
	if err != nil {
		panic(fmt.Sprintf("campaign: drew an illegal design %+v: %v", d, err))
	}
	d.Axis = axis && pl.AxisOK
	if system && systemOK(pl) {
		d.System = rtl.SystemZynq
		d.NoScores = noScores
		if reload {
			d.ReloadableReadout = true
			if pl2, err := d.Plan(); err != nil || regmap.Chunks(pl2) > rtl.MaxReloadChunks {
				d.ReloadableReadout = false
			}
		}
	}
	if lean < len(leanDraws) {
		if d.Options, err = planflags.Parse(d.Options, leanDraws[lean]); err != nil {
			panic(fmt.Sprintf("campaign: lean options %v: %v", leanDraws[lean], err))
		}
	}
	d.HoldInput = d.HoldInput && d.System == "" // the system top keeps its input register
	return d
}

// maxRecordClasses is the system records' 12-bit class field (rtl/system.go).
const maxRecordClasses = 1 << 12

// systemOK mirrors rtl's check of the system top (AW, L, LW).
func systemOK(pl *plan.Plan) bool {
	return pl.AW <= plan.MaxAxisScoreW && pl.L <= maxRecordClasses && pl.LW <= regmap.BeatPayload
}

// DrawAll returns designs 0…n−1 of the campaign with seed seed.
func DrawAll(seed uint64, n int) []Design {
	ds := make([]Design, n)
	for i := range ds {
		ds[i] = Draw(seed, i)
	}
	return ds
}
