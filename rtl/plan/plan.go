package plan

import (
	"encoding/json"
	"fmt"
	"math/bits"
	"strings"

	"github.com/hdlgen/hdlgen/model"
)

// Pipeline rules. A reduction tree gets a pipeline register after every
// LevelsPerStage levels, except after its last level (whatever follows the tree —
// an activation, an accumulator, the output register — is registered anyway), so
// a tree of depth D has Cuts(D, R) = ⌊(D−1)/R⌋ internal register stages (0 for D ≤ 1).
const (
	// DefaultAdderLevelsPerStage bounds the adder levels between registers in the
	// popcount, pre-activation and lane-sum trees of a design with P < WideP:
	// four levels of narrow adders (carry chains of ≤ 6 CARRY4) fit a 10 ns cycle
	// on a -1 Zynq-7020 with margin (estimated Fmax ≥ 122 MHz on every such design
	// of the verification matrix and the median table, docs/timing.md).
	DefaultAdderLevelsPerStage = 4
	// WideAdderLevelsPerStage is the rule for P ≥ WideP. A tree's last segment
	// shares its cycle with what follows it (the intRVFL's K − 2·popcount and
	// clip into the activation register's set/reset pins, the accumulator), and
	// the nets feeding the lanes fan out to P loads; with four levels the median
	// intRVFL at P=32 and the matrix's K=16, N=P=513 design were estimated at 102
	// and 86 MHz (docs/timing.md, "Pipeline rule").
	WideAdderLevelsPerStage = 3
	// WideP is the parallelism from which the default rule is WideAdderLevelsPerStage.
	WideP = 16
	// DefaultArgmaxLevelsPerStage bounds the compare-and-select levels between
	// registers in the argmax tree: each level is an AW-bit comparator feeding a
	// wide multiplexer, about twice an adder level.
	DefaultArgmaxLevelsPerStage = 2
	// MaxAxisScoreW and MaxAxisLevelW are the AXI4-Stream limits (rtl-interface.md §4):
	// scores travel in 32-bit output beats, features in 16-bit input beats.
	MaxAxisScoreW = 32
	MaxAxisLevelW = 16
)

// Options are the structural choices that are not fixed by the model.
type Options struct {
	// Parallel is P, the hidden neurons computed per clock, 1 ≤ P ≤ N (0 means 1).
	Parallel int `json:"p" flag:"parallel" default:"1" help:"P: hidden neurons computed per clock (1…N)"`
	// AdderLevelsPerStage and ArgmaxLevelsPerStage override the pipeline rules
	// (0 means the defaults: DefaultAdderLevels(P), DefaultArgmaxLevelsPerStage).
	AdderLevelsPerStage  int `json:"adder_levels_per_stage,omitempty" flag:"adder-levels" help:"adder levels between pipeline registers in the popcount, pre-activation and lane-sum trees (0: the default rule, docs/timing.md)"`
	ArgmaxLevelsPerStage int `json:"argmax_levels_per_stage,omitempty" flag:"argmax-levels" help:"compare-and-select levels between pipeline registers in the argmax tree (0: the default rule)"`
	// ReloadableReadout makes the readout ROM a two-bank RAM with a write port
	// (docs/system-interface.md): the core and stream top get the ro_* ports.
	ReloadableReadout bool `json:"reloadable_readout,omitempty" flag:"reloadable-readout" help:"with --system: a readout the host can reload at run time"`
	// ROMStyle places the W_in and readout ROMs: ROMStyleAuto ("" too) leaves
	// it to the synthesis tool, ROMStyleBlock asks for block RAM.
	ROMStyle string `json:"rom_style,omitempty" flag:"rom-style" default:"auto" help:"where the W_in and readout ROMs go: auto (the synthesis tool decides) or block (block RAM: fewer LUTs and FFs, same function and latency)"`
	// HoldInput drops the input register: the stream top reads the vector in
	// place from in_data_i, which the sender holds until the transfer, and takes
	// it with its last group (hdlgen_issue_hold, docs/rtl-interface.md §3).
	HoldInput bool `json:"hold_input,omitempty" flag:"hold-input" help:"no input register: the stream top reads the vector in place from in_data_i, which the sender holds until the transfer (fewer FFs, same II; the AXI4-Stream wrapper's II becomes G+K-1); not with --system"`
	// RegisterSums moves the readout's pipeline register from its P·L products
	// to its L lane sums (hdlgen_mac_sums): L·TW instead of P·L·PW flip-flops,
	// the same latency and results; the products and the lane-sum tree's first
	// levels then share a clock cycle (docs/rtl-interface.md §3).
	RegisterSums bool `json:"register_sums,omitempty" flag:"register-sums" help:"register the readout's L lane sums instead of its P·L products (fewer FFs for P > 1 with LUT products, e.g. the intRVFL's; same latency, the products and lane-sum tree share a cycle)"`
}

// A new design option is one tagged field of Options (json: its key in
// design.json and in records; flag: its command-line flag, internal/planflags)
// plus the code that uses it: the plan's rules here, the template choice in
// rtl, the analytic model in power (power.Design carries Options whole; its
// JSON needs a key for the new field, which power's
// TestDesignCarriesEveryOption asks for).

// P is the parallelism the options ask for: Parallel, or 1 when it is 0.
func (o Options) P() int {
	if o.Parallel == 0 {
		return 1
	}
	return o.Parallel
}

// AdderLevels is the adder levels per pipeline stage of a design with these
// options: AdderLevelsPerStage, or DefaultAdderLevels(P) when it is 0.
func (o Options) AdderLevels() int {
	if o.AdderLevelsPerStage == 0 {
		return DefaultAdderLevels(o.P())
	}
	return o.AdderLevelsPerStage
}

// ArgmaxLevels is the argmax levels per pipeline stage: ArgmaxLevelsPerStage,
// or DefaultArgmaxLevelsPerStage when it is 0.
func (o Options) ArgmaxLevels() int {
	if o.ArgmaxLevelsPerStage == 0 {
		return DefaultArgmaxLevelsPerStage
	}
	return o.ArgmaxLevelsPerStage
}

// BlockROMs reports whether the options ask for the W_in and readout ROMs
// (and the rvfl8's sigmoid tables) in block RAM.
func (o Options) BlockROMs() bool { return o.ROMStyle == ROMStyleBlock }

// Canonical returns o with every choice that equals its default written as
// the zero value (the levels of the default rule, ROMStyleAuto) and P
// explicit: equal designs have equal canonical options.
func (o Options) Canonical() Options {
	c := o
	c.Parallel = o.P()
	if o.AdderLevelsPerStage == DefaultAdderLevels(c.Parallel) {
		c.AdderLevelsPerStage = 0
	}
	if o.ArgmaxLevelsPerStage == DefaultArgmaxLevelsPerStage {
		c.ArgmaxLevelsPerStage = 0
	}
	if o.ROMStyle == ROMStyleAuto {
		c.ROMStyle = ""
	}
	return c
}

// ROM styles (Options.ROMStyle).
const (
	// ROMStyleAuto leaves the placement of each ROM to the synthesis tool:
	// Yosys 0.23 puts a ROM in block RAM when that is cheaper by its cost
	// model, which keeps the shallow, wide ROMs of P ≥ 2 in LUTs.
	ROMStyleAuto = "auto"
	// ROMStyleBlock puts the W_in and readout ROMs in block RAM whatever their
	// size (the rom_style "block" attribute, which Yosys and Vivado read): fewer
	// LUTs and FFs for a few block RAMs, the same function and latency.
	ROMStyleBlock = "block"
)

// ROMStyles are the accepted values of Options.ROMStyle.
var ROMStyles = []string{ROMStyleAuto, ROMStyleBlock}

// Plan is everything structural about one emitted design, derived from a model and
// Options by New. Field names follow docs/rtl-interface.md; all widths are in bits.
type Plan struct {
	Name   string     `json:"name"`   // model name
	Prefix string     `json:"prefix"` // SanitizePrefix(Name)
	Arch   model.Arch `json:"arch"`   // intrvfl or rvfl8

	K     int `json:"k"`               // features
	N     int `json:"n"`               // hidden neurons
	L     int `json:"l"`               // classes
	Kappa int `json:"kappa,omitempty"` // κ (intrvfl)
	// ClipBound is κ' = min(κ, K): |s_j| ≤ K, so clipping at κ ≥ K never acts and the
	// activation needs only the width of ±κ'.
	ClipBound    int `json:"clip_bound,omitempty"`
	ReadoutBits  int `json:"readout_bits"`  // the model's readout word width b
	ReadoutBound int `json:"readout_bound"` // B: readout weights lie in [−B, B]

	P         int `json:"p"`          // hidden neurons per clock (lanes)
	Groups    int `json:"groups"`     // G = ⌈N/P⌉: clocks per vector in the hidden layer
	IdleLanes int `json:"idle_lanes"` // G·P − N lanes of the last group that carry zero weights
	GroupW    int `json:"group_w"`    // ROM address width max(1, clog2(G))

	LW int `json:"lw"` // width of one input element
	IW int `json:"iw"` // input vector width K·LW
	AW int `json:"aw"` // score (accumulator) width
	CW int `json:"cw"` // class index width max(1, clog2(L))
	OW int `json:"ow"` // output word width L·AW + CW

	DW  int `json:"dw,omitempty"`  // intrvfl: signed width of a level minus the group base, LW+1
	PcW int `json:"pcw,omitempty"` // intrvfl: popcount width clog2(K+1)
	SW  int `json:"sw,omitempty"`  // intrvfl: width of s = K − 2·popcount, PcW+1
	ZW  int `json:"zw,omitempty"`  // rvfl8: pre-activation width (holds K·255·128 + 128·2^5)
	HW  int `json:"hw"`            // hidden activation as a signed MAC operand
	QW  int `json:"qw"`            // ROM width of one readout weight, clog2(B+1)+1
	PW  int `json:"pw"`            // MAC product width QW + HW
	TW  int `json:"tw"`            // lane-sum width PW + clog2(P)

	ScoreBound int64 `json:"score_bound"` // the AW rule's bound: N·κ·B (intrvfl), N·255·127 (rvfl8)

	AdderLevelsPerStage  int `json:"adder_levels_per_stage"`
	ArgmaxLevelsPerStage int `json:"argmax_levels_per_stage"`
	// Trees: the depth (levels) and internal register stages of each reduction tree.
	HiddenTree Tree `json:"hidden_tree"` // popcount over K (intrvfl) / pre-activation sum over K+1 (rvfl8)
	LaneTree   Tree `json:"lane_tree"`   // sum of the P products of one class
	ArgmaxTree Tree `json:"argmax_tree"` // compare-and-select over L scores

	// FlightStages is the number of register stages a group passes between the
	// issue stage and the accumulator (stage A, the hidden stages, the product
	// register, the lane-tree stages).
	FlightStages int `json:"flight_stages"`
	// Latency is the exact number of cycles from the first cycle a vector is
	// offered (in_valid_i) to an idle pipeline to the first cycle of out_valid_o,
	// for a vector that finds the pipeline's output free (the first vector after
	// reset or an idle period, and every vector when G ≥ 2 and the output is
	// always ready): G + FlightStages + ArgmaxTree.Stages + 2 (the input register,
	// G groups issued back to back, the flight stages, the accumulator, the
	// argmax registers, the output register). An idle pipeline takes a vector at
	// once, so this is also the count from the input transfer (in_valid_i &&
	// in_ready_o) — except with HoldInput, which has no input register (+1
	// becomes +0 … +1: G + F + T_argmax + 1) and transfers the vector with its
	// last group, G − 1 cycles after the offer: see AcceptLatency.
	Latency        int    `json:"latency"`
	LatencyFormula string `json:"latency_formula"`
	// AxisLatency is the count from the transfer of the last input beat to the
	// first output beat of the AXI4-Stream wrapper: AcceptLatency (the last beat
	// goes straight into the stream top).
	AxisLatency int `json:"axis_latency"`
	// II is the stream top's steady-state initiation interval with an always-ready
	// output: max(G, 2) cycles per vector (a result leaves the output register at
	// most every second cycle, see hdlgen_outreg). AxisII is the wrapper's:
	// max(G, K, L+2) (K input beats; L+1 output beats plus one cycle to reload),
	// or with HoldInput max(G+K−1, L+2, 2): the wrapper's deserialiser then holds
	// the last beat until the last group, so beats and groups no longer overlap.
	II     int `json:"ii"`
	AxisII int `json:"axis_ii"`
	// AxisOK reports whether the AXI4-Stream wrapper can be emitted (AW ≤ 32, LW ≤ 16).
	AxisOK bool `json:"axis_ok"`

	// ReloadableReadout: the readout memory is a two-bank RAM with a write port
	// (Options.ReloadableReadout); its ROM entry then describes both banks.
	ReloadableReadout bool `json:"reloadable_readout,omitempty"`
	// ROMStyle is ROMStyleBlock when the W_in and readout ROMs are asked to be
	// block RAM (Options.ROMStyle); empty when the synthesis tool decides.
	ROMStyle string `json:"rom_style,omitempty"`
	// HoldInput: no input register; the vector is read in place from in_data_i
	// and transferred with its last group (Options.HoldInput).
	HoldInput bool `json:"hold_input,omitempty"`
	// RegisterSums: the readout registers its lane sums, not its products
	// (Options.RegisterSums).
	RegisterSums bool `json:"register_sums,omitempty"`

	// WinGenerator is set when the intRVFL's W_in signs come from the on-chip
	// PRBS31 generator (hdlgen_win_lfsr, docs/semantics.md §3a) instead of a
	// W_in ROM: the design then has no "win" ROM. The generator holds the
	// window x_{g·P} … x_{g·P+WinWindow−1} of the sequence for the group at
	// stage A; WinSeedWindow is x_0 … x_{WinWindow−1} in hex (bit m is x_m),
	// what it loads for group 0, and WinPRBSSeed the model's x_0 … x_30.
	WinGenerator  model.WinGen `json:"w_in_generator,omitempty"`
	WinPRBSSeed   uint32       `json:"w_in_prbs_seed,omitempty"`
	WinWindow     int          `json:"w_in_window,omitempty"` // M = max(31, K+P−1) bits
	WinSeedWindow string       `json:"w_in_seed_window,omitempty"`

	// Int2 is the two-layer intRVFL's second layer (rtl/plan/intrvfl2.go),
	// nil for the other network types.
	Int2 *Int2Plan `json:"intrvfl2,omitempty"`
	// IntConj is the mixed network's layout (rtl/plan/intconj.go), nil for
	// the other network types.
	IntConj *IntConjPlan `json:"intconj,omitempty"`

	ROMs   []ROM   `json:"roms"`
	Stages []Stage `json:"stages"`
	// Resources counts the structural elements of the design (before synthesis).
	Resources Resources `json:"resources"`
}

// Tree describes one reduction tree.
type Tree struct {
	Leaves int `json:"leaves"`
	Depth  int `json:"depth"`  // clog2(Leaves) levels
	Stages int `json:"stages"` // Cuts(Depth, levels per stage) internal registers
	Copies int `json:"copies"` // instances in the design
}

// ROM is one $readmemh-initialised ROM.
type ROM struct {
	Name      string `json:"name"`            // role: win, wout, lut
	File      string `json:"file"`            // path relative to DIR, e.g. mem/iris_win.mem
	Depth     int    `json:"depth"`           // words
	Width     int    `json:"width"`           // bits per word
	AddrW     int    `json:"addr_w"`          // address width
	Instances int    `json:"instances"`       // copies in the design (the sigmoid LUT has one per lane)
	Block     bool   `json:"block,omitempty"` // asked to be block RAM (rom_style "block", Options.ROMStyle)
	Purpose   string `json:"purpose"`
}

// Stage is one register stage (or group of stages) of the pipeline, in order.
type Stage struct {
	Name      string `json:"name"`
	Registers int    `json:"registers"` // register stages it contributes to the latency
	What      string `json:"what"`
}

// Resources counts structural elements; the power model and the sizer read them.
type Resources struct {
	RegisterBits   int `json:"register_bits"`   // flip-flops declared by the RTL
	ROMBits        int `json:"rom_bits"`        // Σ depth·width·instances
	HiddenMults    int `json:"hidden_mults"`    // rvfl8: P·K 9×8-bit products
	MACMults       int `json:"mac_mults"`       // P·L readout products of QW×HW bits
	PopcountInputs int `json:"popcount_inputs"` // intrvfl: P·K XOR bits into popcount trees
	Comparators    int `json:"comparators"`     // intrvfl: K equalities q_i == g (P a power of two) or P·K thermometer comparisons of DW bits
	Accumulators   int `json:"accumulators"`    // L adders of AW bits
	// GeneratorXORs (W_in generator only): the P two-input XORs of the
	// recurrence that make the next window's new bits (chained when P > 28).
	GeneratorXORs int `json:"generator_xors,omitempty"`
	// Layer2Inputs (intrvfl2 only): the P·N1 sign-flipped first-layer
	// activations into the second layer's adder trees.
	Layer2Inputs int `json:"layer2_inputs,omitempty"`
}

// DefaultAdderLevels is the default adder levels per pipeline stage of a
// design with p lanes: DefaultAdderLevelsPerStage below WideP lanes,
// WideAdderLevelsPerStage from WideP on.
func DefaultAdderLevels(p int) int {
	if p >= WideP {
		return WideAdderLevelsPerStage
	}
	return DefaultAdderLevelsPerStage
}

// Cuts is the number of internal pipeline registers of a tree of the given depth
// with a register after every r levels (none after the last level).
func Cuts(depth, r int) int {
	if depth <= 1 {
		return 0
	}
	return (depth - 1) / r
}

// Clog2 is ⌈log2 n⌉ for n ≥ 1 (0 for n = 1).
func Clog2(n int) int {
	if n < 1 {
		panic(fmt.Sprintf("plan: Clog2(%d)", n))
	}
	return bits.Len(uint(n - 1))
}

// New derives the plan of m with options o. It fails for models the RTL cannot
// implement (the float rvfl, an intrvfl without an integer readout) and bad options.
func New(m *model.Model, o Options) (*Plan, error) {
	if m == nil {
		return nil, fmt.Errorf("plan: nil model")
	}
	if err := m.Validate(); err != nil {
		return nil, fmt.Errorf("plan: %w", err)
	}
	layer := LayerOf(m.Arch())
	if layer == nil {
		return nil, fmt.Errorf("plan: architecture %q has no RTL (want %s)", m.Arch(), layers.Alternatives())
	}
	if m.Readout == nil {
		return nil, fmt.Errorf("plan: %s model %q has no integer readout (train it with readout bits, e.g. --bits 5)", m.Arch(), m.Name)
	}
	k, n, l := m.K(), m.N(), m.L()
	if l < 2 {
		return nil, fmt.Errorf("plan: %d classes, want ≥ 2", l)
	}
	p := o.P()
	if p < 1 || p > n {
		return nil, fmt.Errorf("plan: parallelism P=%d outside [1, N=%d]", p, n)
	}
	ra, rm := o.AdderLevels(), o.ArgmaxLevels()
	if ra < 1 || rm < 1 {
		return nil, fmt.Errorf("plan: levels per pipeline stage %d (adders), %d (argmax), want ≥ 1", ra, rm)
	}
	romStyle := ""
	switch o.ROMStyle {
	case "", ROMStyleAuto:
	case ROMStyleBlock:
		romStyle = ROMStyleBlock
	default:
		return nil, fmt.Errorf("plan: ROM style %q, want one of %s", o.ROMStyle, strings.Join(ROMStyles, ", "))
	}
	pl := &Plan{
		Name: m.Name, Prefix: SanitizePrefix(m.Name), Arch: m.Arch(),
		K: k, N: n, L: l,
		ReadoutBits: m.Readout.Bits, ReadoutBound: m.Readout.Bound,
		P: p, Groups: (n + p - 1) / p,
		AdderLevelsPerStage: ra, ArgmaxLevelsPerStage: rm, ReloadableReadout: o.ReloadableReadout,
		ROMStyle: romStyle, HoldInput: o.HoldInput, RegisterSums: o.RegisterSums,
	}
	pl.IdleLanes = pl.Groups*p - n
	pl.GroupW = max(1, Clog2(pl.Groups))
	pl.CW = max(1, Clog2(l))
	pl.QW = bits.Len(uint(pl.ReadoutBound)) + 1
	hidden := layer.derive(pl, m.Net)
	hidden.Stages = Cuts(hidden.Depth, ra)
	pl.HiddenTree = hidden
	pl.IW = k * pl.LW
	pl.AW = model.AccWidth(pl.ScoreBound)
	pl.OW = l*pl.AW + pl.CW
	pl.PW = pl.QW + pl.HW
	pl.TW = pl.PW + Clog2(p)
	pl.LaneTree = Tree{Leaves: p, Depth: Clog2(p), Copies: l}
	pl.LaneTree.Stages = Cuts(pl.LaneTree.Depth, ra)
	pl.ArgmaxTree = Tree{Leaves: l, Depth: Clog2(l), Copies: 1}
	pl.ArgmaxTree.Stages = Cuts(pl.ArgmaxTree.Depth, rm)
	pl.AxisOK = pl.AW <= MaxAxisScoreW && pl.LW <= MaxAxisLevelW

	pl.buildStages()
	pl.FlightStages = 0
	for _, s := range pl.Stages {
		if s.Name == stageAccumulate {
			break
		}
		if s.Name != stageInput {
			pl.FlightStages += s.Registers
		}
	}
	input := pl.inputRegisters()
	pl.Latency = pl.Groups + pl.FlightStages + pl.ArgmaxTree.Stages + 1 + input
	pl.LatencyFormula = fmt.Sprintf("G + F + T_argmax + %d = %d + %d + %d + %d = %d (F = %d flight stages: %s)",
		1+input, pl.Groups, pl.FlightStages, pl.ArgmaxTree.Stages, 1+input, pl.Latency, pl.FlightStages, pl.flightText())
	pl.AxisLatency = pl.AcceptLatency()
	pl.II = max(pl.Groups, 2)
	pl.AxisII = max(pl.Groups, k, l+2)
	if pl.HoldInput {
		// The wrapper's last beat waits for the last group, so the next vector's
		// K beats follow the G groups instead of overlapping them.
		pl.AxisII = max(pl.Groups+k-1, l+2, 2)
	}
	pl.buildROMs()
	pl.Resources = pl.countResources()
	return pl, nil
}

// Stage names.
const (
	stageInput      = "input"
	stageA          = "stage_a"
	stageProducts   = "hidden_products"
	stageHiddenTree = "hidden_tree"
	stageHidden     = "hidden"
	stageMACProduct = "mac_products"
	stageMACSums    = "mac_sums"
	stageLaneTree   = "lane_tree"
	stageAccumulate = "accumulate"
	stageArgmax     = "argmax_tree"
	stageOutput     = "output"
)

// inputRegisters is the register stages before stage A: the input register,
// or none with HoldInput.
func (pl *Plan) inputRegisters() int {
	if pl.HoldInput {
		return 0
	}
	return 1
}

// AcceptLatency is the exact number of cycles from the input transfer
// (in_valid_i && in_ready_o) to the first cycle of out_valid_o for a vector that
// finds the pipeline's output free: Latency, or with HoldInput, where the
// transfer comes with the last group, Latency − (G − 1) = F + T_argmax + 2. The
// testbenches check it.
func (pl *Plan) AcceptLatency() int {
	if pl.HoldInput {
		return pl.Latency - (pl.Groups - 1)
	}
	return pl.Latency
}

func (pl *Plan) buildStages() {
	s := []Stage{
		{stageInput, 1, "input register: the accepted vector, held while its G groups issue (one per clock)"},
	}
	if pl.HoldInput {
		s[0] = Stage{stageInput, 0, "no input register: the vector is read in place from in_data_i, held by the sender until its transfer with the last group"}
	}
	s = append(s, pl.Layer().stages(pl)...)
	tree := Stage{stageLaneTree, pl.LaneTree.Stages, fmt.Sprintf("lane-sum tree registers (depth %d, a register every %d levels)", pl.LaneTree.Depth, pl.AdderLevelsPerStage)}
	if pl.RegisterSums {
		s = append(s, tree, Stage{stageMACSums, 1, "L readout lane sums of the P products q_lj·h_j, registered after the lane-sum tree (--register-sums)"})
	} else {
		s = append(s, Stage{stageMACProduct, 1, "P·L readout products q_lj·h_j"}, tree)
	}
	s = append(s,
		Stage{stageAccumulate, 1, "L accumulators: acc = (first ? 0 : acc) + lane sum; they hold the scores after the last group"},
		Stage{stageArgmax, pl.ArgmaxTree.Stages, fmt.Sprintf("argmax tree registers (depth %d, a register every %d levels), scores carried along", pl.ArgmaxTree.Depth, pl.ArgmaxLevelsPerStage)},
		Stage{stageOutput, 1, "output register {scores, class}, held until out_ready_i"},
	)
	pl.Stages = s
}

func (pl *Plan) flightText() string {
	t := ""
	for _, s := range pl.Stages {
		if s.Name == stageInput {
			continue
		}
		if s.Name == stageAccumulate {
			break
		}
		if t != "" {
			t += " + "
		}
		t += fmt.Sprintf("%s %d", s.Name, s.Registers)
	}
	return t
}

// ROM roles.
const (
	ROMWin  = "win"
	ROMWout = "wout"
	ROMLUT  = "lut"
)

func (pl *Plan) buildROMs() {
	var roms []ROM
	if pl.WinGenerator == model.WinStored {
		win := ROM{Name: ROMWin, File: pl.MemFile(ROMWin), Depth: pl.Groups, AddrW: pl.GroupW, Instances: 1}
		win.Width, win.Purpose = pl.Layer().winROM(pl)
		win.Block = pl.BlockROMs()
		roms = append(roms, win)
	}
	wout := ROM{Name: ROMWout, File: pl.MemFile(ROMWout), Depth: pl.Groups, AddrW: pl.GroupW, Instances: 1,
		Width:   pl.P * pl.L * pl.QW,
		Purpose: fmt.Sprintf("readout weights, class-major: word g, bits (l·P+p)·%d +: %d hold Q[l][g·P+p] (two's complement)", pl.QW, pl.QW)}
	if pl.ReloadableReadout {
		// Two banks of 2^GroupW words, bank = the top address bit, both loaded
		// with the readout (words G…2^GroupW−1 of a bank are zero).
		wout.Depth, wout.AddrW = 2<<pl.GroupW, pl.GroupW+1
		wout.Purpose += fmt.Sprintf("; two banks (RAM, address {bank, g}) of %d words, both holding the model's readout at reset", 1<<pl.GroupW)
	} else {
		wout.Block = pl.BlockROMs()
	}
	pl.ROMs = append(append(roms, wout), pl.Layer().extraROMs(pl)...)
}

// BlockROMs reports whether the W_in and readout ROMs (and the rvfl8's sigmoid
// table) are asked to be block RAM.
func (pl *Plan) BlockROMs() bool { return pl.ROMStyle == ROMStyleBlock }

// HasROM reports whether the design has a ROM with the given role (a design
// with a W_in generator has no "win" ROM).
func (pl *Plan) HasROM(role string) bool {
	for _, r := range pl.ROMs {
		if r.Name == role {
			return true
		}
	}
	return false
}

// MemFile is the DIR-relative path of a ROM's .mem file.
func (pl *Plan) MemFile(role string) string { return "mem/" + pl.Prefix + "_" + role + ".mem" }

// ROM returns the ROM with the given role.
func (pl *Plan) ROM(role string) ROM {
	for _, r := range pl.ROMs {
		if r.Name == role {
			return r
		}
	}
	panic("plan: no ROM " + role)
}

func (pl *Plan) countResources() Resources {
	r := Resources{MACMults: pl.P * pl.L, Accumulators: pl.L}
	for _, rom := range pl.ROMs {
		r.ROMBits += rom.Depth * rom.Width * rom.Instances
	}
	// Declared registers, stage by stage (docs in rtl/doc.go).
	tag := 2 + pl.GroupW // first, last, group
	regs := 0
	if pl.HoldInput {
		regs += pl.GroupW // group counter
	} else {
		regs += pl.IW + 1 + pl.GroupW // input register, busy, group counter
	}
	regs += pl.Layer().registers(pl, tag, &r)
	regs += pl.ROM(ROMWout).Width            // readout ROM read register
	regs += pl.P * pl.Layer().hiddenRegW(pl) // h registers
	regs += 1 + 2                            // tag at H: valid, first, last
	if pl.RegisterSums {
		regs += pl.L * pl.TW // MAC lane-sum register
	} else {
		regs += pl.P * pl.L * pl.PW // MAC product register
	}
	regs += (1 + pl.LaneTree.Stages) * (1 + 2) // tags alongside
	regs += pl.L * pl.treeRegBits(pl.P, pl.TW, pl.LaneTree.Depth)
	regs += pl.L*pl.AW + 1     // accumulators, done flag
	regs += pl.argmaxRegBits() // argmax cut registers
	regs += pl.OW + 1          // output register and valid
	r.RegisterBits = regs
	return r
}

// treeRegBits counts the register bits of one adder tree's internal cuts: level lv
// has ⌈leaves/2^lv⌉ nodes of width w.
func (pl *Plan) treeRegBits(leaves, w, depth int) int {
	n := 0
	for lv := 1; lv < depth; lv++ {
		if lv%pl.AdderLevelsPerStage == 0 {
			n += ((leaves + 1<<lv - 1) >> lv) * w
		}
	}
	return n
}

func (pl *Plan) argmaxRegBits() int {
	n := 0
	for lv := 1; lv < pl.ArgmaxTree.Depth; lv++ {
		if lv%pl.ArgmaxLevelsPerStage == 0 {
			nodes := (pl.L + 1<<lv - 1) >> lv
			n += nodes*(pl.AW+pl.CW) + pl.L*pl.AW + 1
		}
	}
	return n
}

// JSON renders the plan as indented JSON (DIR/design.json), deterministic.
func (pl *Plan) JSON() ([]byte, error) {
	b, err := json.MarshalIndent(pl, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("plan: encode design.json: %w", err)
	}
	return append(b, '\n'), nil
}

// RecordedOptions returns the Options that the plan in design (the bytes of
// a design.json, Plan.JSON) was derived with: New(m, RecordedOptions(…))
// gives that plan again for the same model. design.json records them under
// the keys of Options' json tags.
func RecordedOptions(design []byte) (Options, error) {
	var o Options
	if err := json.Unmarshal(design, &o); err != nil {
		return Options{}, fmt.Errorf("plan: design.json: %w", err)
	}
	return o, nil
}

// Options returns the options the plan was derived with (RecordedOptions of
// its JSON).
func (p *Plan) Options() Options {
	b, err := p.JSON()
	if err != nil {
		panic(fmt.Sprintf("plan: encode design.json: %v", err))
	}
	o, err := RecordedOptions(b)
	if err != nil {
		panic(fmt.Sprintf("plan: read back design.json: %v", err))
	}
	return o
}
