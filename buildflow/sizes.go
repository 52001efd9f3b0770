package buildflow

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/hdlgen/hdlgen/board"
	"github.com/hdlgen/hdlgen/model"
	"github.com/hdlgen/hdlgen/power"
	"github.com/hdlgen/hdlgen/rtl"
	"github.com/hdlgen/hdlgen/rtl/plan"
	"github.com/hdlgen/hdlgen/synth"
	"github.com/hdlgen/hdlgen/tune"
)

// Device limits the sizes are checked against.
var (
	deviceLUTs = board.XC7Z020.LUTs
	clockMHz   = board.ClockHz / 1e6
)

// The search grids' largest N and κ (protocol.PaperGrid and WideGrid).
const (
	gridMaxN     = 1500
	maxGridKappa = 15
)

// NextN is the N the search's extension scores after n (tune.NextN).
func NextN(n int) int { return tune.NextN(n) }

// Candidate is one P of the design: the analytic estimate (hdlgen power
// model.json --parallel P) and whether it meets the constraints.
type Candidate struct {
	P        int            `json:"p"`
	Estimate power.Estimate `json:"estimate"`
	FmaxMHz  float64        `json:"fmax_mhz"`       // analytic estimate (power.AnalyticFmaxMHz)
	Fits     bool           `json:"fits"`           // fits the device
	Over     string         `json:"over,omitempty"` // the resources over the device's capacity
	Feasible bool           `json:"feasible"`       // fits, meets the clock and every constraint
	Why      string         `json:"why,omitempty"`
}

// sizes is DIR/sizes.json: the candidates and the chosen one.
type sizes struct {
	Objective  string      `json:"objective"`
	BudgetOn   string      `json:"budget_on"`
	Candidates []Candidate `json:"candidates"`
	Chosen     int         `json:"chosen"` // index into Candidates
}

// candidatePs are the P the sizes step estimates: powers of two below N,
// N, and the P asked for — up to the largest P the intRVFL's estimate was
// measured at against Yosys (power.MeasuredPMax, the calibration's range
// sections), so that every estimate the report shows has a measured error
// band; the P asked for is estimated even above it.
func candidatePs(n, asked int) []int {
	return candidatePsUpTo(n, asked, power.MeasuredPMax(model.IntRVFL))
}

// candidatePsUpTo is candidatePs with the largest P pmax (0: no limit) but
// for the P asked for.
func candidatePsUpTo(n, asked, pmax int) []int {
	if pmax <= 0 {
		pmax = n
	}
	var ps []int
	for par := 1; par < n && par <= pmax; par *= 2 {
		ps = append(ps, par)
	}
	if n <= pmax {
		ps = append(ps, n)
	}
	if asked > 0 && asked <= n && !slices.Contains(ps, asked) {
		ps = append(ps, asked)
		slices.Sort(ps)
	}
	return ps
}

// estimate is the analytic estimate of m at parallelism par, as `hdlgen
// power model.json --parallel P` computes it, with the Fmax estimate.
func estimate(m *model.Model, par int, params power.Params) (Candidate, error) {
	pl, err := plan.New(m, plan.Options{Parallel: par})
	if err != nil {
		return Candidate{}, err
	}
	des := power.DesignOfModel(pl, m)
	r, err := power.Analytic(des)
	if err != nil {
		return Candidate{}, err
	}
	e, err := power.EvaluatePlan(des, r, pl.Latency, pl.II, params)
	if err != nil {
		return Candidate{}, err
	}
	return candidateOf(par, e, power.AnalyticFmaxMHz(des)), nil
}

// candidateOf is the candidate of estimate e, with whether it fits the
// device and, if not, the resources over its capacity.
func candidateOf(par int, e power.Estimate, fmaxMHz float64) Candidate {
	r := e.Resources
	ok, over := synth.XC7Z020.Fits(r.LUTs+r.LUTRAM, r.FFs, r.DSP48E1, r.BRAM36)
	return Candidate{P: par, Estimate: e, FmaxMHz: fmaxMHz, Fits: ok, Over: over}
}

// LUT-equivalents weigh each resource by its share of the device: a
// DSP48E1 counts as the LUTs of the same share of the xc7z020 (53,200 / 220
// ≈ 242 LUTs), a BRAM36 as 53,200 / 140 = 380 LUTs, a FF as half a LUT (two
// per LUT site). The area objective and the trade-off curve count them, so
// that a design using a third of the DSPs is not "small".
func LUTEq(r power.Resources) float64 {
	dev := board.XC7Z020
	return float64(r.LUTs+r.LUTRAM) + float64(r.FFs)*float64(dev.LUTs)/float64(dev.FFs) +
		float64(r.DSP48E1)*float64(dev.LUTs)/float64(dev.DSPs) + r.BRAM36*float64(dev.LUTs)/float64(dev.BRAM36)
}

// writeSizes estimates every candidate P of the model and chooses one.
func (b *build) writeSizes() error {
	m, err := model.ReadFile(b.p(intModel))
	if err != nil {
		return err
	}
	if b.o.Parallel > m.N() {
		return optionErrorf("--parallel %d: the network has N=%d neurons, so P is at most %d", b.o.Parallel, m.N(), m.N())
	}
	var cands []Candidate
	for _, par := range candidatePs(m.N(), b.o.Parallel) {
		c, err := estimate(m, par, power.Params{BudgetOn: b.o.BudgetOn})
		if err != nil {
			return fmt.Errorf("buildflow: P=%d: %w", par, err)
		}
		cands = append(cands, c)
	}
	best, err := Choose(cands, *b.o)
	if err != nil {
		return err
	}
	return writeJSON(b.p(sizesJSON), sizes{Objective: b.o.Objective, BudgetOn: string(b.o.BudgetOn), Candidates: cands, Chosen: best})
}

// Choose marks the candidates that fit the device, meet the clock (analytic
// Fmax) and every constraint of o, and returns the index of the one o asks
// for: the P given (which must be feasible but for the constraints, which
// do not apply then), else the best by o's objective — the least budgeted
// energy, the shortest latency or the fewest LUTs (ties: fewer LUTs, then
// the smaller P). With none feasible the error lists what the candidates
// reach.
func Choose(cands []Candidate, o Options) (int, error) {
	markFeasible(cands, o)
	if o.Parallel > 0 {
		for i, c := range cands {
			if c.P == o.Parallel {
				if !c.Fits {
					return -1, fmt.Errorf("buildflow: --parallel %d: %s (%d LUTs by the analytic model)", c.P, c.Why, c.Estimate.Resources.LUTs)
				}
				return i, nil
			}
		}
		return -1, fmt.Errorf("buildflow: --parallel %d is not a candidate", o.Parallel)
	}
	if best := pick(cands, o.Objective); best >= 0 {
		return best, nil
	}
	var lines []string
	for _, c := range cands {
		e := c.Estimate
		lines = append(lines, fmt.Sprintf("P=%d: latency %.3g µs, %d LUTs, Fmax %.0f MHz, %s %s (%s)", c.P, e.LatencyS*1e6, e.Resources.LUTs, c.FmaxMHz,
			e.BudgetOn, power.FormatEnergy(e.BudgetedJ), c.Why))
	}
	return -1, fmt.Errorf("buildflow: no P meets %s (estimated by hdlgen power's analytic model):\n  %s", o.constraintText(), strings.Join(lines, "\n  "))
}

// EnergySlack is how much more energy than the least the energy objective
// accepts for a smaller design: among the feasible designs within this
// share of the least budgeted energy, it takes the fewest LUT-equivalents
// (a design twice the size for 6 % less energy is not what anyone asks for).
const EnergySlack = 0.10

// pick is the index of the feasible candidate the objective chooses (-1 for
// none): energy — the fewest LUT-equivalents within EnergySlack of the least
// budgeted energy; latency — the shortest latency; area — the fewest
// LUT-equivalents. Ties go to fewer LUT-equivalents, less energy, then the
// earlier candidate.
func pick(cands []Candidate, objective string) int {
	minJ := math.Inf(1)
	for _, c := range cands {
		if c.Feasible {
			minJ = math.Min(minJ, c.Estimate.BudgetedJ)
		}
	}
	best := -1
	for i, c := range cands {
		if !c.Feasible || objective == OptimizeEnergy && c.Estimate.BudgetedJ > minJ*(1+EnergySlack) {
			continue
		}
		if best < 0 || better(c, cands[best], objective) {
			best = i
		}
	}
	return best
}

// better reports whether a comes before b by the objective (after the
// energy objective's slack): the key, then fewer LUT-equivalents, then less
// energy.
func better(a, b Candidate, objective string) bool {
	ea, eb := a.Estimate, b.Estimate
	if objective == OptimizeLatency && ea.LatencyS != eb.LatencyS {
		return ea.LatencyS < eb.LatencyS
	}
	if la, lb := LUTEq(ea.Resources), LUTEq(eb.Resources); la != lb {
		return la < lb
	}
	return ea.BudgetedJ < eb.BudgetedJ
}

// markFeasible marks the candidates that fit the device, meet the clock
// (analytic Fmax) and, unless P is given, every constraint of o, with why
// the others do not.
func markFeasible(cands []Candidate, o Options) {
	for i := range cands {
		c := &cands[i]
		e := c.Estimate
		var why []string
		if !c.Fits {
			why = append(why, "does not fit the device: "+c.Over)
		}
		if c.FmaxMHz > 0 && c.FmaxMHz < clockMHz {
			why = append(why, fmt.Sprintf("Fmax %.0f MHz < %g MHz", c.FmaxMHz, clockMHz))
		}
		if o.Parallel == 0 {
			if o.LatencyS > 0 && e.LatencyS > o.LatencyS {
				why = append(why, fmt.Sprintf("latency > %.3g µs", o.LatencyS*1e6))
			}
			if o.MaxLUTs > 0 && e.Resources.LUTs > o.MaxLUTs {
				why = append(why, fmt.Sprintf("> %d LUTs", o.MaxLUTs))
			}
			if o.BudgetJ > 0 && e.BudgetedJ > o.BudgetJ {
				why = append(why, fmt.Sprintf("%s energy > %s", e.BudgetOn, power.FormatEnergy(o.BudgetJ)))
			}
		}
		c.Feasible, c.Why = len(why) == 0, strings.Join(why, ", ")
	}
}

// practical reports whether c can be built: it fits the device and its
// analytic Fmax meets the clock (whatever the user's constraints).
func (c Candidate) practical() bool { return c.Fits && !(c.FmaxMHz > 0 && c.FmaxMHz < clockMHz) }

// bestBy is the index of the practical candidate with the least value of
// key (-1 for none; ties to the first, the smaller P).
func bestBy(cands []Candidate, key func(power.Estimate) float64) int {
	best := -1
	for i, c := range cands {
		if c.practical() && (best < 0 || key(c.Estimate) < key(cands[best].Estimate)) {
			best = i
		}
	}
	return best
}

// constraintText names the constraints set.
func (o Options) constraintText() string {
	var c []string
	if o.LatencyS > 0 {
		c = append(c, fmt.Sprintf("latency ≤ %.3g µs", o.LatencyS*1e6))
	}
	if o.MaxLUTs > 0 {
		c = append(c, fmt.Sprintf("≤ %d LUTs", o.MaxLUTs))
	}
	if o.BudgetJ > 0 {
		c = append(c, fmt.Sprintf("%s energy ≤ %s", o.BudgetOn, power.FormatEnergy(o.BudgetJ)))
	}
	c = append(c, "fits the "+board.XC7Z020.Part, fmt.Sprintf("analytic Fmax ≥ %g MHz", clockMHz))
	return strings.Join(c, ", ")
}

// sizingText says how P is chosen, as the command list and the sizing
// step's stamp give it.
func (b *build) sizingText() string {
	return b.o.choiceText(" per classification", "")
}

// choiceText says how P is chosen: given, or by the objective among the
// sizes that meet the constraints. energyNote follows "the least … energy",
// tieNote the objective's flag.
func (o Options) choiceText(energyNote, tieNote string) string {
	if o.Parallel > 0 {
		return fmt.Sprintf("P = %d given (--parallel)", o.Parallel)
	}
	obj := map[string]string{OptimizeEnergy: fmt.Sprintf("the fewest LUT-equivalents within %.0f %% of the least %s energy%s", 100*EnergySlack, o.BudgetOn, energyNote),
		OptimizeLatency: "the shortest latency", OptimizeArea: "the fewest LUT-equivalents"}[o.Objective]
	return fmt.Sprintf("P with %s (--optimize %s%s) among those meeting: %s", obj, o.Objective, tieNote, o.constraintText())
}

// Icarus's share of the test vectors. Icarus, the second and independent
// simulator, interprets the design's always blocks and is up to a few
// hundred times slower per cycle than Verilator (1,220 s for 1,000 vectors
// of an N=850 design on both tops), and what it is for — a second reading
// of the Verilog's semantics — shows on any vector. So it runs a second
// copy of the design emitted from the same model with fewer vectors: every
// corner vector (all levels 0, all maximal, the two alternating patterns,
// each one-hot feature up to rtl.MaxCornerOneHot), icarusRandom random ones
// (half of them rows of the held-out file), and more when needed for
// icarusMinCycles cycles, so that the 257-cycle back-pressure pattern runs
// at least twice. Verilator checks all the vectors.
const (
	icarusRandom    = 16
	icarusMinCycles = 600
)

// IcarusVectors is the number of vectors Icarus checks for a design with k
// features and one classification every ii cycles, at most vectors.
func IcarusVectors(k, ii, vectors int) int {
	n := 4 + min(k, rtl.MaxCornerOneHot) + icarusRandom
	n = max(n, int(math.Ceil(float64(icarusMinCycles)/float64(max(ii, 1)))))
	return min(n, vectors)
}

func (b *build) icarusVectors(e power.Estimate) int {
	if b.o.IcarusVectors > 0 {
		return b.o.IcarusVectors
	}
	return IcarusVectors(b.d.K(), e.II, b.o.Vectors)
}
