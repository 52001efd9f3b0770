package hwstudy

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/hdlgen/hdlgen/dataset"
	"github.com/hdlgen/hdlgen/model"
	"github.com/hdlgen/hdlgen/power"
	"github.com/hdlgen/hdlgen/power/activity"
	"github.com/hdlgen/hdlgen/rtl"
	"github.com/hdlgen/hdlgen/rtl/plan"
	"github.com/hdlgen/hdlgen/synth"
	"github.com/hdlgen/hdlgen/timing"
)

// The paper's median-network figures (Kleyko et al. 2020, section V, footnote
// of the energy-budget experiment): for K=16, N=512, L=4 the intRVFL with a
// 5-bit readout uses about 11× less energy per classification and is 2.5×
// faster than the 8-bit fixed-point RVFL.
const (
	PaperEnergyRatio = 11.0
	PaperSpeedRatio  = 2.5
)

// Median-network hyperparameters (the paper's median shape; κ and the readout
// width as in its energy-budget experiment).
const (
	MedianDataset = "pendigits"
	MedianN       = power.MedianN
	MedianKappa   = power.MedianKappa
	MedianBits    = power.MedianBits
	MedianClasses = power.MedianL // digits 0–3 of pendigits: K = 16, L = 4
	MedianSeed    = 1
)

// Default parallelisms of the median table: the intRVFL goes one step further
// so that its largest design matches the largest rvfl8's LUT count.
var (
	DefaultMedianIntPs   = []int{1, 2, 4, 8, 16, 32, 64}
	DefaultMedianRVFL8Ps = []int{1, 2, 4, 8, 16, 32}
)

// MedianOptions control MedianTable.
type MedianOptions struct {
	DataDir string // the UCI-121 collection (HDLGEN_UCI121)
	Work
	// Runs are the designs to build: variants (MedianVariants), networks and
	// parallelisms; nil means DefaultMedianRuns.
	Runs []MedianRun
	// Regularizer is the ridge penalty of both networks, in the λ search and
	// the final fit ("" means model.RegIdentity, the penalty docs/semantics.md
	// §6 recommends for an integer readout; model.Train's own default is
	// model.RegVariance).
	Regularizer model.Regularizer
	Params      power.Params
	Command     string // recorded in the output
	// Activity adds the activity-based energy of every design (power.
	// activity.Estimate: a gate-level Verilator simulation per design, slow
	// for the large ones); ActivityVectors vectors per run (0 means
	// MedianActivityVectors), drawn from the test file's rows.
	Activity        bool
	ActivityVectors int
}

// MedianActivityVectors is the default number of vectors per activity run.
const MedianActivityVectors = 16

// NetInfo describes one trained network.
type NetInfo struct {
	Arch        model.Arch `json:"arch"`
	Lambda      float64    `json:"lambda"`
	EffBits     int        `json:"eff_bits"`      // effective width of the readout codes (power.EffectiveReadoutBits)
	ValAccuracy float64    `json:"val_accuracy"`  // on the search split's validation rows
	TestAcc     float64    `json:"test_accuracy"` // trained on the train file, tested on the test file
}

// MedianRow is one synthesised design of the table.
type MedianRow struct {
	Net model.Arch `json:"net"`
	P   int        `json:"p"`
	// Options are the design's emit options (its variant's, MedianVariants;
	// P is the field above).
	plan.Options
	Analytic power.Resources `json:"analytic"`
	Estimate power.Estimate  `json:"estimate"` // with the Yosys resources
	Fits     bool            `json:"fits"`
	Over     string          `json:"over,omitempty"`
	Depth    int             `json:"logic_depth"`
	Seconds  float64         `json:"yosys_seconds"`
	// LUTCells counts the LUT1…LUT6 cells of the netlist; the Estimate's
	// Resources.LUTs is Yosys's estimate of occupied LUT6 sites (LC).
	LUTCells int `json:"lut_cells"`
	// Timing is the static timing estimate of the netlist (package timing).
	Timing *timing.Report `json:"timing,omitempty"`
	// Activity is the activity-based power and energy (MedianOptions.Activity).
	Activity *MedianActivity `json:"activity,omitempty"`
}

// MedianActivity is the activity-based estimate of one design: one
// classification at a time (energy over the latency) and a saturated stream
// (energy over II), with the vectorless stream energy for comparison.
type MedianActivity struct {
	Vectors           int                    `json:"vectors"`
	Single            activity.ActivityPower `json:"single"`
	Stream            activity.ActivityPower `json:"stream"`
	VectorlessStreamJ float64                `json:"vectorless_stream_j"`
}

// Comparison is rvfl8 against intRVFL for one pair of designs.
type Comparison struct {
	IntP               int     `json:"int_p"`
	RVFL8P             int     `json:"rvfl8_p"`
	RVFL8ROMStyle      string  `json:"rvfl8_rom_style,omitempty"` // the rvfl8 row's ROMStyle
	IntLUT             int     `json:"int_lut"`
	RVFL8LUT           int     `json:"rvfl8_lut"`
	EnergyRatioDynamic float64 `json:"energy_ratio_dynamic"` // rvfl8 / intrvfl
	EnergyRatioTotal   float64 `json:"energy_ratio_total"`   // dynamic + PL static
	EnergyRatioDevice  float64 `json:"energy_ratio_device"`  // dynamic + whole-device static
	SpeedRatio         float64 `json:"speed_ratio"`          // rvfl8 cycles / intrvfl cycles
	PowerRatioDynamic  float64 `json:"power_ratio_dynamic"`
	BothFit            bool    `json:"both_fit"`
	// Activity-based dynamic energy ratios (0 without activity): one
	// classification at the latency, and a saturated stream; the vectorless
	// stream ratio for comparison.
	ActivityRatioLatency  float64 `json:"activity_ratio_latency,omitempty"`
	ActivityRatioStream   float64 `json:"activity_ratio_stream,omitempty"`
	VectorlessRatioStream float64 `json:"vectorless_ratio_stream,omitempty"`
}

// MedianResult is the median-network table.
type MedianResult struct {
	Date     string  `json:"date"`
	Command  string  `json:"command"`
	Yosys    string  `json:"yosys"`
	ClockHz  float64 `json:"clock_hz"`
	Toggle   float64 `json:"toggle"`
	Data     string  `json:"data"`
	Rows     int     `json:"train_rows"`
	TestRows int     `json:"test_rows"`
	// Regularizer is the ridge penalty both networks were trained with.
	Regularizer model.Regularizer `json:"regularizer"`
	Int         NetInfo           `json:"intrvfl"`
	RVFL8       NetInfo           `json:"rvfl8"`
	Designs     []MedianRow       `json:"designs"`
	SameP       []Comparison      `json:"same_p"`
	EqualLUT    []Comparison      `json:"equal_lut"`
	Paper       struct {
		EnergyRatio float64 `json:"energy_ratio"`
		SpeedRatio  float64 `json:"speed_ratio"`
	} `json:"paper"`
}

// LoadMedianData loads pendigits from the collection and keeps digits 0–3:
// the training file, the test file, and the search split restricted to them.
func LoadMedianData(dir string) (train, test *dataset.Dataset, search dataset.Split, err error) {
	u, err := dataset.LoadUCI(dir, MedianDataset)
	if err != nil {
		return nil, nil, search, fmt.Errorf("hwstudy: %w", err)
	}
	if u.Data.K() != 16 || u.Data.L() < MedianClasses || u.TestData == nil {
		return nil, nil, search, fmt.Errorf("hwstudy: %s has K=%d, L=%d, test file %v; want K=16, L ≥ %d and a test file",
			MedianDataset, u.Data.K(), u.Data.L(), u.TestData != nil, MedianClasses)
	}
	keep := func(d *dataset.Dataset) (*dataset.Dataset, map[int]int) {
		var idx []int
		pos := map[int]int{}
		for r, y := range d.Y {
			if y < MedianClasses {
				pos[r] = len(idx)
				idx = append(idx, r)
			}
		}
		out := d.Subset(idx)
		out.ClassNames = slices.Clone(d.ClassNames[:MedianClasses])
		out.Name = MedianDataset + "-0123"
		return out, pos
	}
	train, pos := keep(u.Data)
	test, _ = keep(u.TestData)
	for _, r := range u.Search.Train {
		if p, ok := pos[r]; ok {
			search.Train = append(search.Train, p)
		}
	}
	for _, r := range u.Search.Test {
		if p, ok := pos[r]; ok {
			search.Test = append(search.Test, p)
		}
	}
	return train, test, search, nil
}

func toModelData(d *dataset.Dataset) model.Data {
	return model.Data{Name: d.Name, X: d.X, Y: d.Y, ClassNames: d.ClassNames, FeatureNames: d.FeatureNames, LabelName: d.LabelName}
}

// medianRegularizer resolves MedianOptions.Regularizer: "" is model.RegIdentity.
func medianRegularizer(r model.Regularizer) (model.Regularizer, error) {
	if r == "" {
		return model.RegIdentity, nil
	}
	if _, err := model.ParseRegularizer(string(r)); err != nil {
		return "", fmt.Errorf("hwstudy: median table: %w", err)
	}
	return r, nil
}

// MedianLambdas is the λ grid of the median table's search, {2⁻¹⁰, …, 2⁵}
// (the paper's grid, study.PaperGrid).
func MedianLambdas() []float64 {
	var ls []float64
	for e := -10; e <= 5; e++ {
		ls = append(ls, math.Ldexp(1, e))
	}
	return ls
}

// trainMedianNets trains the two median networks with ridge penalty reg
// (trainMedian for each).
func trainMedianNets(ctx context.Context, train, test *dataset.Dataset, search dataset.Split, reg model.Regularizer) (intM, r8M *model.Model, intInfo, r8Info NetInfo, err error) {
	intM, intInfo, err = trainMedian(ctx, train, test, search, model.Config{Arch: model.IntRVFL, N: MedianN, Kappa: MedianKappa,
		ReadoutBits: MedianBits, Regularizer: reg, Seed: MedianSeed, Threads: 2})
	if err != nil {
		return nil, nil, intInfo, r8Info, err
	}
	r8M, r8Info, err = trainMedian(ctx, train, test, search, model.Config{Arch: model.RVFL8, N: MedianN, Regularizer: reg,
		Seed: MedianSeed, Threads: 2})
	if err != nil {
		return nil, nil, intInfo, r8Info, err
	}
	return intM, r8M, intInfo, r8Info, nil
}

// trainMedian picks λ from MedianLambdas on the search split with cfg's ridge
// penalty, then trains on the whole training file and tests on the test file.
// The split and the grid are the benchmark's (study.Search), the criterion is
// not quite: it scores the network as deployed (the integer readout) rather
// than the float readout, and ties go to the smaller λ rather than the larger.
func trainMedian(ctx context.Context, train, test *dataset.Dataset, search dataset.Split, cfg model.Config) (*model.Model, NetInfo, error) {
	info := NetInfo{Arch: cfg.Arch}
	tr, va := train.Subset(search.Train), train.Subset(search.Test)
	best := -1.0
	for _, lambda := range MedianLambdas() {
		c := cfg
		c.Lambda = lambda
		m, err := model.Train(ctx, toModelData(tr), c)
		if err != nil {
			return nil, info, fmt.Errorf("hwstudy: train %s λ=%g (%s penalty): %w", cfg.Arch, c.Lambda, cfg.Regularizer, err)
		}
		if acc := m.Accuracy(va.X, va.M(), va.Y); acc > best {
			best, info.Lambda = acc, c.Lambda
		}
	}
	info.ValAccuracy = best
	c := cfg
	c.Lambda = info.Lambda
	m, err := model.Train(ctx, toModelData(train), c)
	if err != nil {
		return nil, info, fmt.Errorf("hwstudy: train %s λ=%g (%s penalty) on the training file: %w", cfg.Arch, c.Lambda, cfg.Regularizer, err)
	}
	info.TestAcc = m.Accuracy(test.X, test.M(), test.Y)
	info.EffBits = power.EffectiveReadoutBits(m.Readout.Q, m.Readout.Bits)
	return m, info, nil
}

// MedianTable trains the two median networks, synthesises them for several P
// and builds the comparison.
func MedianTable(ctx context.Context, o MedianOptions) (*MedianResult, error) {
	if o.DataDir == "" {
		return nil, fmt.Errorf("hwstudy: median table: need the data directory")
	}
	if err := o.defaults("median table"); err != nil {
		return nil, err
	}
	reg, err := medianRegularizer(o.Regularizer)
	if err != nil {
		return nil, err
	}
	params, err := normParams(o.Params)
	if err != nil {
		return nil, err
	}
	train, test, search, err := LoadMedianData(o.DataDir)
	if err != nil {
		return nil, err
	}
	res := &MedianResult{Date: time.Now().UTC().Format("2006-01-02"), Command: o.Command, ClockHz: params.ClockHz,
		Toggle: params.Toggle, Data: train.Name, Rows: train.M(), TestRows: test.M(), Regularizer: reg}
	res.Paper.EnergyRatio, res.Paper.SpeedRatio = PaperEnergyRatio, PaperSpeedRatio
	fmt.Fprintf(o.Log, "hwstudy: %s: %d training rows, %d test rows, K=%d, L=%d, ridge penalty %s\n",
		train.Name, train.M(), test.M(), train.K(), train.L(), reg)
	intM, r8M, intInfo, r8Info, err := trainMedianNets(ctx, train, test, search, reg)
	if err != nil {
		return nil, err
	}
	res.Int, res.RVFL8 = intInfo, r8Info
	intM.Name, r8M.Name = "median_intrvfl", "median_rvfl8"
	fmt.Fprintf(o.Log, "hwstudy: intrvfl λ=%g test accuracy %.4f, readout %d effective bits; rvfl8 λ=%g test accuracy %.4f, readout %d effective bits\n",
		intInfo.Lambda, intInfo.TestAcc, intInfo.EffBits, r8Info.Lambda, r8Info.TestAcc, r8Info.EffBits)

	runs := o.Runs
	if runs == nil {
		runs = DefaultMedianRuns()
	}
	models := map[model.Arch]*model.Model{model.IntRVFL: intM, model.RVFL8: r8M}
	var jobs []job
	for _, r := range runs {
		v, ok := variantNamed(r.Variant)
		if !ok {
			return nil, fmt.Errorf("hwstudy: no median-table variant %q (have %s)", r.Variant, VariantNames())
		}
		for _, net := range []model.Arch{model.IntRVFL, model.RVFL8} {
			if _, ok := v.Flags[net]; !ok || (r.Net != "" && r.Net != net) {
				continue
			}
			for _, p := range r.Ps {
				opts, err := v.options(net, p)
				if err != nil {
					return nil, fmt.Errorf("hwstudy: variant %s: %w", v.Name, err)
				}
				jobs = append(jobs, job{m: models[net], opts: opts,
					dir: filepath.Join(o.WorkDir, fmt.Sprintf("median_%s_p%d%s", net, p, v.Suffix))})
			}
		}
	}
	syn, err := runJobs(ctx, jobs, o.Workers, o.Synth, o.Log)
	if err != nil {
		return nil, err
	}
	for _, s := range syn {
		r := activity.YosysResources(s.Yosys)
		e, err := power.EvaluatePlan(s.Design, r, s.Plan.Latency, s.Plan.II, params)
		if err != nil {
			return nil, err
		}
		a, err := power.Analytic(s.Design)
		if err != nil {
			return nil, err
		}
		fits, over := synth.XC7Z020.Fits(r.LUTs+r.LUTRAM, r.FFs, r.DSP48E1, r.BRAM36)
		t, err := timing.ForDir(s.Dir, s.Yosys, &timing.Zynq7Minus1)
		if err != nil {
			return nil, err
		}
		res.Yosys = s.Yosys.Yosys
		res.Designs = append(res.Designs, MedianRow{Net: s.Design.Arch, P: s.Design.P(), Options: s.Options, Analytic: a, Estimate: e,
			Fits: fits, Over: over, Depth: s.Yosys.LogicDepth, Seconds: s.Yosys.Seconds, LUTCells: s.Yosys.LUTs, Timing: t})
	}
	if o.Activity {
		if err := medianActivity(ctx, res, o, intM, r8M, test, params); err != nil {
			return nil, err
		}
	}
	res.compare()
	return res, nil
}

// medianActivity adds the activity-based energy to every row: each design is
// emitted again with vectors drawn from the test file's rows (rtl puts them
// at the even indices after the 4 + K corner vectors; stride 2 takes only
// those), synthesised (a cache hit: the RTL is the table's) and simulated at
// gate level.
func medianActivity(ctx context.Context, res *MedianResult, o MedianOptions, intM, r8M *model.Model, test *dataset.Dataset, params power.Params) error {
	nv := o.ActivityVectors
	if nv == 0 {
		nv = MedianActivityVectors
	}
	for i := range res.Designs {
		row := &res.Designs[i]
		m := intM
		if row.Net == model.RVFL8 {
			m = r8M
		}
		dir := filepath.Join(o.WorkDir, row.dirName()+"_activity")
		corners := 4 + min(m.K(), 64)
		rows := make([][]float64, test.M())
		for r := range rows {
			rows[r] = test.Row(r)
		}
		// Emit rewrites the directory; the Verilator build of a previous run
		// survives it when it is current (verify's make-like check).
		opts := row.Options
		opts.Parallel = row.P
		eo := rtl.Options{Options: opts, Vectors: corners + 2*nv, Rows: rows, Seed: MedianSeed, Force: true}
		if err := emitKeepingBuild(ctx, m, eo, dir); err != nil {
			return fmt.Errorf("hwstudy: activity of %s P=%d: %w", row.label(), row.P, err)
		}
		fmt.Fprintf(o.Log, "hwstudy: activity of %s P=%d (%d vectors per run, gate level)\n", row.label(), row.P, nv)
		t0 := time.Now()
		a, err := activity.Estimate(ctx, dir, activity.Options{Params: params, Vectors: nv, Stride: 2, KeepBuild: true, Synth: o.Synth})
		if err != nil {
			return fmt.Errorf("hwstudy: activity of %s P=%d: %w", row.label(), row.P, err)
		}
		if a.Vectorless.Resources != row.Estimate.Resources {
			return fmt.Errorf("hwstudy: activity of %s P=%d: the re-emitted design synthesised to other resources (%+v, table %+v)",
				row.Net, row.P, a.Vectorless.Resources, row.Estimate.Resources)
		}
		fmt.Fprintf(o.Log, "hwstudy: activity of %s P=%d: %.0f s\n", row.label(), row.P, time.Since(t0).Seconds())
		row.Activity = &MedianActivity{Vectors: nv, Single: a.Single, Stream: a.Stream, VectorlessStreamJ: a.VectorlessStreamJ}
	}
	return nil
}

func normParams(p power.Params) (power.Params, error) {
	// Evaluate a tiny design to let power normalise and check the parameters.
	e, err := power.Evaluate(power.Design{Shape: power.Shape{Arch: model.RVFL8, K: 1, L: 2}, N: 1, Options: plan.Options{Parallel: 1}}, power.Resources{}, p)
	if err != nil {
		return p, err
	}
	p.ClockHz, p.Toggle, p.BudgetOn = e.ClockHz, e.Toggle, e.BudgetOn
	return p, nil
}

func (res *MedianResult) compare() {
	var ints, r8s []MedianRow
	for _, d := range res.Designs {
		switch {
		case !variantOf(d.Net, d.Options).Compare:
			// for reference only (variants int-block, lean, lean-lut)
		case d.Net == model.IntRVFL:
			ints = append(ints, d)
		default:
			r8s = append(r8s, d)
		}
	}
	cmpOf := func(a, b MedianRow) Comparison {
		ea, eb := a.Estimate, b.Estimate
		c := Comparison{IntP: a.P, RVFL8P: b.P, RVFL8ROMStyle: b.ROMStyle, IntLUT: ea.Resources.LUTs, RVFL8LUT: eb.Resources.LUTs,
			EnergyRatioDynamic: eb.DynamicJ / ea.DynamicJ,
			EnergyRatioTotal:   eb.TotalJ / ea.TotalJ,
			EnergyRatioDevice: (eb.DynamicJ + eb.DeviceStaticW*eb.LatencyS) /
				(ea.DynamicJ + ea.DeviceStaticW*ea.LatencyS),
			SpeedRatio:        float64(eb.Cycles) / float64(ea.Cycles),
			PowerRatioDynamic: eb.DynamicW / ea.DynamicW,
			BothFit:           a.Fits && b.Fits}
		if a.Activity != nil && b.Activity != nil {
			c.ActivityRatioLatency = b.Activity.Single.EnergyJ / a.Activity.Single.EnergyJ
			c.ActivityRatioStream = b.Activity.Stream.EnergyJ / a.Activity.Stream.EnergyJ
			c.VectorlessRatioStream = b.Activity.VectorlessStreamJ / a.Activity.VectorlessStreamJ
		}
		return c
	}
	for _, b := range r8s {
		for _, a := range ints {
			if a.P == b.P {
				res.SameP = append(res.SameP, cmpOf(a, b))
			}
		}
		// Equal area: the intRVFL whose LUT count is closest (in ratio) to this rvfl8's.
		best, bestD := -1, math.Inf(1)
		for i, a := range ints {
			d := math.Abs(math.Log(float64(a.Estimate.Resources.LUTs) / float64(b.Estimate.Resources.LUTs)))
			if d < bestD {
				best, bestD = i, d
			}
		}
		if best >= 0 {
			res.EqualLUT = append(res.EqualLUT, cmpOf(ints[best], b))
		}
	}
}

// Write writes median.md and median.json to outDir.
func (res *MedianResult) Write(outDir string) error {
	return writeOutputs(outDir, "median", res.Markdown(), res)
}

// Markdown renders the table.
func (res *MedianResult) Markdown() []byte {
	var b bytes.Buffer
	fj := power.FormatEnergy
	fw := power.FormatPower
	fmt.Fprintf(&b, "# Median network: intRVFL vs 8-bit fixed-point RVFL (K=16, N=512, L=4)\n\n")
	fmt.Fprintf(&b, "Made by `%s` on %s with %s. Clock %.0f MHz, toggle rate %.1f %%, coefficients of power.DefaultCoefficients (docs/energy-model.md).\n\n",
		res.Command, res.Date, res.Yosys, res.ClockHz/1e6, 100*res.Toggle)
	fmt.Fprintf(&b, "Data: %s (pendigits, digits 0–3: K=16, L=4), %d training rows, %d test rows. Ridge penalty of both networks: %s. λ ∈ {2⁻¹⁰, …, 2⁵} chosen on the collection's search split with that penalty (docs/semantics.md §6, \"Which ridge penalty to use with an integer readout\"): the best validation accuracy of the network as deployed (integer readout), ties to the smaller λ.\n\n",
		res.Data, res.Rows, res.TestRows, penaltyText(res.Regularizer))
	fmt.Fprintf(&b, "| network | N | λ | validation acc. | test acc. | effective readout bits |\n|---|---|---|---|---|---|\n")
	fmt.Fprintf(&b, "| intRVFL κ=%d, %d-bit readout | %d | %g | %.4f | %.4f | %d |\n", MedianKappa, MedianBits, MedianN, res.Int.Lambda, res.Int.ValAccuracy, res.Int.TestAcc, res.Int.EffBits)
	fmt.Fprintf(&b, "| rvfl8 | %d | %g | %.4f | %.4f | %d |\n\n", MedianN, res.RVFL8.Lambda, res.RVFL8.ValAccuracy, res.RVFL8.TestAcc, res.RVFL8.EffBits)
	fmt.Fprintf(&b, "The analytic columns use each model's effective readout width (99 %% of the codes within ±(2^(b−1)−1)); error = (analytic − Yosys)/Yosys.\n\n")
	fmt.Fprintf(&b, "## Designs (resources from Yosys)\n\n")
	fmt.Fprintf(&b, "LUT cells counts the LUT1…LUT6 cells of the netlist; LC is Yosys's estimate of occupied LUT6 sites (two small LUTs share a site), the figure the energy model and the fit check use. Fmax is estimated by hdlgen's static timing model of the xc7z020 −1 (docs/timing.md): not a sign-off. II is the number of cycles between classifications of a saturated stream. Energy here is vectorless (toggle rate above); the activity-based figures follow in their own section.\n\n")
	fmt.Fprintf(&b, "| network | P | LUT cells | LC | FF | CARRY4 | DSP48E1 | BRAM36 | fits xc7z020 | est. Fmax | cycles | II | latency | dynamic power | dynamic energy | PL-static energy | total energy | logic depth | LC / FF / CARRY4 analytic |\n")
	fmt.Fprintf(&b, "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n")
	for _, d := range res.Designs {
		e := d.Estimate
		fit := "yes"
		if !d.Fits {
			fit = "no: " + d.Over
		}
		fmax := "?"
		if d.Timing != nil && d.Timing.FmaxMHz > 0 {
			fmax = fmt.Sprintf("%.0f MHz", d.Timing.FmaxMHz)
		}
		fmt.Fprintf(&b, "| %s | %d | %d | %d | %d | %d | %d | %.1f | %s | %s | %d | %d | %.2f µs | %s | %s | %s | %s | %d | %d (%+.0f %%) / %d (%+.0f %%) / %d (%+.0f %%) |\n",
			d.label(), d.P, d.LUTCells, e.Resources.LUTs, e.Resources.FFs, e.Resources.CARRY4, e.Resources.DSP48E1, e.Resources.BRAM36, fit,
			fmax, e.Cycles, e.II, e.LatencyS*1e6, fw(e.DynamicW), fj(e.DynamicJ), fj(e.PLStaticJ), fj(e.TotalJ), d.Depth,
			d.Analytic.LUTs, relErrPct(float64(d.Analytic.LUTs), float64(e.Resources.LUTs)),
			d.Analytic.FFs, relErrPct(float64(d.Analytic.FFs), float64(e.Resources.FFs)),
			d.Analytic.CARRY4, relErrPct(float64(d.Analytic.CARRY4), float64(e.Resources.CARRY4)))
	}
	var miss []string
	for _, d := range res.Designs {
		if d.Timing != nil && !d.Timing.Meets(res.ClockHz/1e6) {
			miss = append(miss, fmt.Sprintf("%s P=%d (%.0f MHz)", d.label(), d.P, d.Timing.FmaxMHz))
		}
	}
	if len(miss) > 0 {
		fmt.Fprintf(&b, "\nEstimated to miss the %.0f MHz clock: %s. Their latency and energy above assume the clock is met; deeper pipelining of the hidden stage (the path below) is the remedy.\n",
			res.ClockHz/1e6, strings.Join(miss, ", "))
	}
	fmt.Fprintf(&b, "\n## Estimated critical paths\n\n")
	fmt.Fprintf(&b, "The worst register-to-register path of each netlist (hdlgen synth DIR prints it cell by cell): its period, logic levels, and the named nets it passes.\n\n")
	fmt.Fprintf(&b, "| network | P | period | levels | path |\n|---|---|---|---|---|\n")
	for _, d := range res.Designs {
		if d.Timing == nil || d.Timing.PeriodNS == 0 {
			continue
		}
		fmt.Fprintf(&b, "| %s | %d | %.2f ns | %d | %s |\n", d.label(), d.P, d.Timing.PeriodNS, d.Timing.Levels, strings.ReplaceAll(d.Timing.PathShort(), "|", "\\|"))
	}
	res.activityMarkdown(&b)
	table := func(title string, cs []Comparison) {
		fmt.Fprintf(&b, "\n## %s\n\n", title)
		fmt.Fprintf(&b, "Ratios are rvfl8 / intRVFL (energy per classification; speed = rvfl8 cycles / intRVFL cycles). Paper: energy %.0f×, speed %.1f×.\n\n", PaperEnergyRatio, PaperSpeedRatio)
		fmt.Fprintf(&b, "| intRVFL P | rvfl8 P | LC int / rvfl8 | energy ratio (dynamic) | energy ratio (dynamic + PL static) | energy ratio (dynamic + device static) | speed ratio | dynamic power ratio | both fit | paper energy | paper speed |\n")
		fmt.Fprintf(&b, "|---|---|---|---|---|---|---|---|---|---|---|\n")
		for _, c := range cs {
			fmt.Fprintf(&b, "| %d | %s | %d / %d | %.1f× | %.2f× | %.2f× | %.2f× | %.1f× | %v | %.0f× | %.1f× |\n",
				c.IntP, c.rvfl8Label(), c.IntLUT, c.RVFL8LUT, c.EnergyRatioDynamic, c.EnergyRatioTotal, c.EnergyRatioDevice,
				c.SpeedRatio, c.PowerRatioDynamic, c.BothFit, PaperEnergyRatio, PaperSpeedRatio)
		}
		if !slices.ContainsFunc(cs, func(c Comparison) bool { return c.ActivityRatioLatency > 0 }) {
			return
		}
		fmt.Fprintf(&b, "\nDynamic energy ratios, vectorless against activity-based (section \"Activity-based energy\"):\n\n")
		fmt.Fprintf(&b, "| intRVFL P | rvfl8 P | vectorless, latency | activity, latency | vectorless, stream | activity, stream |\n|---|---|---|---|---|---|\n")
		for _, c := range cs {
			if c.ActivityRatioLatency == 0 {
				continue
			}
			fmt.Fprintf(&b, "| %d | %s | %.1f× | %.1f× | %.1f× | %.1f× |\n", c.IntP, c.rvfl8Label(), c.EnergyRatioDynamic, c.ActivityRatioLatency,
				c.VectorlessRatioStream, c.ActivityRatioStream)
		}
	}
	table("(a) Same P", res.SameP)
	table("(b) Equal LUT area (for each rvfl8 design, the intRVFL design with the closest LUT count)", res.EqualLUT)
	res.leanMarkdown(&b)
	b.WriteString(medianDiscussion)
	return b.Bytes()
}

// activityMarkdown renders the activity-based section (nothing without activity).
func (res *MedianResult) activityMarkdown(b *bytes.Buffer) {
	if !slices.ContainsFunc(res.Designs, func(d MedianRow) bool { return d.Activity != nil }) {
		return
	}
	fj, fw := power.FormatEnergy, power.FormatPower
	fmt.Fprintf(b, "\n## Activity-based energy\n\n")
	fmt.Fprintf(b, "Estimated by `hdlgen power --activity` (activity.Estimate; docs/energy-model.md, \"Activity-based energy\"): the Yosys netlist simulated on Verilator with test rows of the data (the same number of vectors per run for every design, below), toggles counted per net, each net charged by the class of its driver with a capacitance by fanout; the class totals scale the vectorless coefficients, so a uniform 12.5 %% would give the vectorless figures. *single*: one classification at a time, energy = power × latency; *stream*: a vector offered every cycle, energy = power × II. Rates are the capacitance-weighted toggle rates (toggles per net per cycle) of the class's nets in the single run (median.json has every class of both runs); a saturated stream keeps more of the pipeline busy, hence its higher power.\n\n")
	fmt.Fprintf(b, "| network | P | vectors | LUT | FF | CARRY4 | MUXF | DSP48E1 | BRAM duty | power single / stream | vectorless power | energy single (vectorless) | energy stream (vectorless) |\n")
	fmt.Fprintf(b, "|---|---|---|---|---|---|---|---|---|---|---|---|---|\n")
	for _, d := range res.Designs {
		a := d.Activity
		if a == nil {
			continue
		}
		rate := func(k string) string {
			c := a.Single.Class(k)
			if c.Nets == 0 {
				return "–"
			}
			return fmt.Sprintf("%.1f %%", 100*c.WeightedRate)
		}
		duty := "–"
		if d.Estimate.Resources.BRAM36 > 0 {
			duty = fmt.Sprintf("%.2f", a.Single.BRAMDuty)
		}
		fmt.Fprintf(b, "| %s | %d | %d | %s | %s | %s | %s | %s | %s | %s / %s | %s | %s (%s) | %s (%s) |\n",
			d.label(), d.P, a.Vectors, rate(activity.ClassLUT), rate(activity.ClassFF), rate(activity.ClassCARRY4), rate(activity.ClassMUXF), rate(activity.ClassDSP), duty,
			fw(a.Single.DynamicW), fw(a.Stream.DynamicW), fw(d.Estimate.DynamicW),
			fj(a.Single.EnergyJ), fj(d.Estimate.DynamicJ), fj(a.Stream.EnergyJ), fj(a.VectorlessStreamJ))
	}
}

// label names the row's design in tables: the network, and its variant's
// label (MedianVariants).
func (d MedianRow) label() string {
	if v := variantOf(d.Net, d.Options); v.Label != "" {
		return string(d.Net) + ", " + v.Label
	}
	return string(d.Net)
}

// dirName is the row's design directory under the work directory.
func (d MedianRow) dirName() string {
	return fmt.Sprintf("median_%s_p%d%s", d.Net, d.P, variantOf(d.Net, d.Options).Suffix)
}

// rvfl8Label is the rvfl8 column of a comparison: P, and where its ROMs are
// when they are in block RAM.
func (c Comparison) rvfl8Label() string {
	if c.RVFL8ROMStyle == plan.ROMStyleBlock {
		return fmt.Sprintf("%d, ROMs in block RAM", c.RVFL8P)
	}
	return fmt.Sprint(c.RVFL8P)
}

// emitKeepingBuild emits m into dir, keeping dir/build across the emit.
func emitKeepingBuild(ctx context.Context, m *model.Model, o rtl.Options, dir string) error {
	build := filepath.Join(dir, "build")
	tmp := dir + ".build"
	os.RemoveAll(tmp)
	kept := os.Rename(build, tmp) == nil
	_, err := rtl.Emit(ctx, m, o, dir)
	if kept {
		if err == nil {
			os.RemoveAll(build)
			err = os.Rename(tmp, build)
		} else {
			os.RemoveAll(tmp)
		}
	}
	return err
}

// penaltyText names a ridge penalty with its formula (docs/semantics.md §5).
func penaltyText(r model.Regularizer) string {
	switch r {
	case model.RegIdentity:
		return "identity, λ·I (`--regularizer identity`)"
	case model.RegVariance:
		return "variance, λ·diag(var H) (`--regularizer variance`)"
	}
	return string(r)
}

const medianDiscussion = `
## Which comparison the paper's setting resembles

At the same P both designs take G = ⌈N/P⌉ cycles plus a few pipeline stages, so
they are equally fast (speed ratio ≈ 1) and the energy ratio is the dynamic-power
ratio: it measures what one hidden neuron costs in each network (an XOR/popcount
lane against K+L DSP48E1 multiply-adds plus a sigmoid ROM). The paper reports
2.5× speed, which a same-P comparison cannot produce; a 2.5× speed-up at 11×
less energy means the intRVFL ran with more hidden neurons per clock in an
area (or power) similar to the baseline's, i.e. the equal-area comparison (b):
the intRVFL's cheap lanes let it compute several times more neurons per clock
in the LUTs one rvfl8 lane needs, which shortens the latency, while each of its
lanes still costs much less dynamic power. Its energy ratio then combines the
power ratio with the speed ratio. The paper's figure is an estimate from the
Xilinx Power Estimator for its own (unpublished) RTL, so only the direction and
order of magnitude can be compared; static power (PL static in the middle
column, whole-device static in the next) compresses the ratio towards the speed
ratio, which is why the paper's 11× at 2.5× implies a mostly dynamic figure.
`

// LeanReference is a hand-written reference core of issue 14's synthesis
// review (Yosys 0.23, same flags): the figures a lean core must not exceed.
type LeanReference struct {
	Net      model.Arch
	P        int
	LUTCells int // the reference's LUT cells: the target
	FF       int // the reference's flip-flops
	FFTarget int // the flip-flop target (0: none)
}

// LeanReferences are the review's reference cores with the targets:
// LUT cells at most the reference's; flip-flops at most 300 and 600 for the
// intRVFL (the rvfl8 has no flip-flop target).
var LeanReferences = []LeanReference{
	{model.IntRVFL, 1, 524, 288, 300},
	{model.IntRVFL, 8, 1682, 591, 600},
	{model.RVFL8, 1, 348, 56, 0},
	{model.RVFL8, 8, 3681, 1603, 0},
}

// leanMarkdown renders the lean cores against the references and, where
// both networks have a lean core at the same P, their energy ratio.
func (res *MedianResult) leanMarkdown(b *bytes.Buffer) {
	var lean []MedianRow
	for _, d := range res.Designs {
		if variantOf(d.Net, d.Options).Lean {
			lean = append(lean, d)
		}
	}
	if len(lean) == 0 {
		return
	}
	fmt.Fprintf(b, "\n## Lean cores against hand-written references\n\n")
	fmt.Fprintf(b, "The lean cores are both networks emitted with `--rom-style block --hold-input`: the W_in and readout ROMs in block RAM and no input register (the stream top reads the vector in place; the sender holds it until the transfer, as the stream protocol requires). The intRVFL also gets `--register-sums`: its readout registers the L lane sums instead of the P·L products (the rvfl8's products are DSP48E1s with their register inside, where the option would add flip-flops). *lean, ROMs by Yosys* is the intRVFL with `--hold-input --register-sums` alone: its shallow ROMs stay in LUTs at P > 1. Same II as the default designs, one cycle less latency (docs/rtl-interface.md). The references are issue 14's hand-written cores of the same function (Yosys 0.23, same flags); the targets are LUT cells ≤ the reference's and, for the intRVFL, FF ≤ 300 (P = 1) and ≤ 600 (P = 8).\n\n")
	fmt.Fprintf(b, "| network | P | LUT cells | FF | BRAM36 | est. Fmax | cycles | II | reference LUT cells / FF | target LUT cells / FF | met |\n|---|---|---|---|---|---|---|---|---|---|---|\n")
	for _, d := range lean {
		e := d.Estimate
		fmax := "?"
		if d.Timing != nil && d.Timing.FmaxMHz > 0 {
			fmax = fmt.Sprintf("%.0f MHz", d.Timing.FmaxMHz)
		}
		ref, target, met := "–", "–", "–"
		if i := slices.IndexFunc(LeanReferences, func(r LeanReference) bool { return r.Net == d.Net && r.P == d.P }); i >= 0 {
			r := LeanReferences[i]
			ref = fmt.Sprintf("%d / %d", r.LUTCells, r.FF)
			ok := d.LUTCells <= r.LUTCells
			target = fmt.Sprintf("≤ %d / –", r.LUTCells)
			if r.FFTarget > 0 {
				target = fmt.Sprintf("≤ %d / ≤ %d", r.LUTCells, r.FFTarget)
				ok = ok && e.Resources.FFs <= r.FFTarget
			}
			met = map[bool]string{true: "yes", false: "no"}[ok]
		}
		fmt.Fprintf(b, "| %s | %d | %d | %d | %.1f | %s | %d | %d | %s | %s | %s |\n",
			d.label(), d.P, d.LUTCells, e.Resources.FFs, e.Resources.BRAM36, fmax, e.Cycles, e.II, ref, target, met)
	}
	var pairs []string
	for _, b8 := range lean {
		if b8.Net != model.RVFL8 {
			continue
		}
		for _, a := range lean {
			if a.Net != model.IntRVFL || a.P != b8.P {
				continue
			}
			act := "–"
			if a.Activity != nil && b8.Activity != nil {
				act = fmt.Sprintf("%.1f×", b8.Activity.Single.EnergyJ/a.Activity.Single.EnergyJ)
			}
			pairs = append(pairs, fmt.Sprintf("| %s | %s | %d | %.1f× | %s | %.2f× |", a.label(), b8.label(), a.P,
				b8.Estimate.DynamicJ/a.Estimate.DynamicJ, act, float64(b8.Estimate.Cycles)/float64(a.Estimate.Cycles)))
		}
	}
	if len(pairs) > 0 {
		fmt.Fprintf(b, "\nLean against lean at the same P (ratios rvfl8 / intRVFL, estimated by hdlgen's models):\n\n")
		fmt.Fprintf(b, "| intRVFL | rvfl8 | P | dynamic energy, vectorless | dynamic energy, activity-based | speed |\n|---|---|---|---|---|---|\n")
		fmt.Fprintf(b, "%s\n", strings.Join(pairs, "\n"))
	}
}
