package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/hdlgen/hdlgen/hwstudy"
	"github.com/hdlgen/hdlgen/model"
	"github.com/hdlgen/hdlgen/power"
	"github.com/hdlgen/hdlgen/power/activity"
	"github.com/hdlgen/hdlgen/synth"
	"github.com/hdlgen/hdlgen/timing"
)

type powerOptions struct {
	parallel  int
	json      bool
	runSynth  bool
	clockMHz  float64
	toggle    float64
	budgetOn  string
	median    bool
	calibrate bool
	data      string
	out       string
	work      string
	jobs      int
	yosys     string
	sections  []string           // calibrate --section NAME,…
	variants  []string           // median-table --variant VARIANT[:NETWORK]=P,…
	legacy    map[string]*string // the older one-flag-per-variant spellings (legacyVariantFlags)
	reg       string
	activity  bool
	actVecs   int
	noAct     bool
}

func newPowerCmd(app *App) *cobra.Command {
	o := &powerOptions{}
	cmd := &cobra.Command{
		Use:   "power DIR|model.json [--parallel P] [--json]",
		Short: "Estimate power, latency and energy per classification of a design",
		Long: `Power estimates the resources, latency, power and energy per classification of
an emitted design (DIR, written by "hdlgen emit") or of a model (model.json, with
--parallel P) on the xc7z020 at the given clock (100 MHz by default).

Resources come from the cached Yosys report of DIR (see "hdlgen synth"; --synth
runs Yosys when there is none) or else from the analytic resource model; the
output says which. Latency is the exact cycle count of the design (rtl/plan).
Dynamic power = Σ resources × per-resource coefficient × clock × toggle rate
(12.5 % by default, the Xilinx Power Estimator's default) plus clock power;
static power is reported apart: 0.037 W on the PL rails and 0.114 W for the
whole device (PS included). Energy per classification = power × latency, split
into dynamic, PL-static and total (dynamic + PL static). A budget (hdlgen size)
constrains the dynamic energy unless --budget-on total. docs/energy-model.md
gives every coefficient with its source.

--activity (DIR only) replaces the flat toggle rate by simulated activity: it
synthesises DIR (cached), simulates the Yosys netlist on Verilator with the
design's test vectors (--activity-vectors of them after the corner cases, once
as a saturated stream and once one classification at a time), counts the
toggles of every net, and reports the toggle rates per resource class, the
dynamic power and the energy per classification at the latency and in a
saturated stream (II cycles), next to the vectorless figures
(docs/energy-model.md, "Activity-based energy").

Studies (subcommands; they run Yosys on many designs, results are cached in --work):
  median-table  the paper's median network (K=16, N=512, L=4): intRVFL vs
                8-bit RVFL on pendigits digits 0–3, several P;
  calibrate     the analytic resource model against Yosys over the
                calibration matrix.
(The older spellings --median-table and --calibrate still work.)`,
		Example: `  hdlgen power build/iris
  hdlgen power iris.json --parallel 8 --json
  hdlgen power build/iris --activity
  hdlgen power median-table --data ../shared/uci121 --out results/hardware
  hdlgen power calibrate --out results/hardware`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error { return o.run(cmd, app, args) },
	}
	f := cmd.Flags()
	f.IntVar(&o.parallel, "parallel", 0, "P, hidden neurons per clock (model.json; default 1)")
	f.BoolVar(&o.json, "json", false, "print the estimate as JSON")
	f.BoolVar(&o.runSynth, "synth", false, "run Yosys on DIR when it has no current report")
	f.BoolVar(&o.activity, "activity", false, "DIR: also the energy from simulated activity (toggles counted on the gate-level netlist with Verilator; runs Yosys when needed)")
	o.bindParams(f)
	// The study flags, hidden: the subcommands are their documented spelling.
	f.BoolVar(&o.median, "median-table", false, "build the median-network comparison table (runs Yosys); alias of the median-table subcommand")
	f.BoolVar(&o.calibrate, "calibrate", false, "compare the analytic resource model with Yosys over the calibration matrix; alias of the calibrate subcommand")
	o.bindStudy(f)
	f.VisitAll(func(fl *pflag.Flag) {
		if !slices.Contains([]string{"parallel", "json", "synth", "activity", "activity-vectors", "clock-mhz", "toggle", "budget-on"}, fl.Name) {
			_ = f.MarkHidden(fl.Name)
		}
	})
	cmd.AddCommand(newPowerStudyCmd(app, "median-table"), newPowerStudyCmd(app, "calibrate"))
	argsAreInputs(cmd, "DIR|model.json")
	markStudyPaths(cmd)
	return cmd
}

// newPowerStudyCmd is `hdlgen power median-table` or `hdlgen power calibrate`.
func newPowerStudyCmd(app *App, name string) *cobra.Command {
	o := &powerOptions{median: name == "median-table", calibrate: name == "calibrate"}
	cmd := &cobra.Command{Use: name, Args: cobra.NoArgs}
	if o.median {
		cmd.Short = "Compare intRVFL and 8-bit RVFL at the paper's median network with Yosys"
		cmd.Long = `median-table trains the paper's median network (K=16, N=512, L=4): intRVFL (κ=3,
5-bit readout) vs 8-bit RVFL on pendigits digits 0–3 from --data (default
$HDLGEN_UCI121) with the ridge penalty --regularizer (identity by default, the
penalty for integer readouts: docs/semantics.md §6), emits and synthesises both
at several P, and writes median.md and median.json to --out. Every design also
gets its activity-based energy (a gate-level Verilator simulation of
--activity-vectors test rows per mode; --no-activity leaves it out).`
		cmd.Example = `  hdlgen power median-table --data ../shared/uci121 --out results/hardware`
	} else {
		cmd.Short = "Compare the analytic resource model with Yosys over the calibration matrix"
		cmd.Long = `calibrate synthesises the calibration matrix (hwstudy.CalibrationMatrix) with
Yosys, compares the analytic resource model with it and writes calibration.md
and calibration.json to --out.`
		cmd.Example = `  hdlgen power calibrate --out results/hardware`
	}
	f := cmd.Flags()
	o.bindParams(f)
	o.bindStudy(f)
	cmd.RunE = func(cmd *cobra.Command, _ []string) error {
		p, reg, err := o.studyParams(cmd)
		if err != nil {
			return err
		}
		return o.study(cmd, app, p, reg)
	}
	markStudyPaths(cmd)
	return cmd
}

// fmaxNote is the estimated Fmax of the synthesised design in dir (package
// timing) for power DIR's note.
func fmaxNote(ctx context.Context, dir string, so synth.Options, clockMHz float64) string {
	rep, err := synth.Cached(ctx, dir, so)
	if err != nil || rep == nil {
		return fmt.Sprintf("timing: no current synthesis report (%v)", err)
	}
	t, err := timing.ForDir(dir, rep, &timing.Zynq7Minus1)
	if err != nil {
		return "timing: " + err.Error()
	}
	return fmt.Sprintf("Fmax %s, estimated by hdlgen's static timing model (docs/timing.md); worst path %s",
		t.Headline(clockMHz), t.PathShort())
}

// maxActivityVectors bounds --activity-vectors: each vector is simulated at
// gate level twice (a saturated stream and one at a time), and 10,000 of them
// take minutes on the median designs.
const maxActivityVectors = 10_000

// markStudyPaths declares the paths of the study flags (bindStudy).
func markStudyPaths(cmd *cobra.Command) {
	markInputs(cmd, "data")
	markOutput(cmd, "out", outputDir)
	markOutput(cmd, "work", outputDir)
}

func (o *powerOptions) bindParams(f *pflag.FlagSet) {
	f.Float64Var(&o.clockMHz, "clock-mhz", power.DefaultClockHz/1e6, "PL clock in MHz")
	f.Float64Var(&o.toggle, "toggle", power.DefaultToggle, "average toggle rate of data signals, in (0, 1]")
	f.StringVar(&o.budgetOn, "budget-on", string(power.BudgetDynamic), "energy a budget constrains: dynamic or total (dynamic + PL static)")
}

func (o *powerOptions) bindStudy(f *pflag.FlagSet) {
	f.StringVar(&o.data, "data", "", "UCI-121 collection folder for median-table (default $HDLGEN_UCI121)")
	f.StringVarP(&o.out, "out", "o", "", "output directory (e.g. results/hardware)")
	f.StringVar(&o.work, "work", "", "work directory for emitted designs and the synth cache (default: user cache dir/hdlgen/hwstudy)")
	intIn(f, &o.jobs, "workers", 2, 1, maxThreads, "concurrent Yosys runs and simulations")
	hiddenAlias(f, "jobs", "workers")
	f.StringVar(&o.yosys, "yosys", "yosys", "the yosys command")
	f.StringVar(&o.reg, "regularizer", string(model.RegIdentity), "ridge penalty of both median-table networks: identity (λ·I, recommended for integer readouts) or variance (λ·diag(var H), the authors' form)")
	o.legacy = map[string]*string{}
	for _, l := range legacyVariantFlags {
		o.legacy[l.flag] = f.String(l.flag, "", "the older spelling of --variant "+l.run+"=…")
		_ = f.MarkHidden(l.flag)
	}
	f.StringSliceVar(&o.sections, "section", nil, "calibrate: synthesise only these sections of the matrix ("+strings.Join(power.CalSectionNames[:], ", ")+"), keeping the other rows of --out's calibration.json")
	f.StringArrayVar(&o.variants, "variant", nil, "median-table: build VARIANT[:NETWORK]=P,P,… (repeatable; variants: "+hwstudy.VariantNames()+"; default: default=1…64 for the intrvfl and 1…32 for the rvfl8, powers of two, and rvfl8-block at the rvfl8's P above 1)")
	f.IntVar(&o.actVecs, "activity-vectors", activity.DefaultVectors, fmt.Sprintf("vectors per activity simulation run, for --activity and median-table (1…%d)", maxActivityVectors))
	f.BoolVar(&o.noAct, "no-activity", false, "median-table: leave out the activity-based energy (a gate-level simulation of every design)")
}

// studyParams checks the flags of a study run.
func (o *powerOptions) studyParams(cmd *cobra.Command) (power.Params, model.Regularizer, error) {
	p, err := o.params()
	if err != nil {
		return p, "", err
	}
	if cmd.Flags().Changed("regularizer") && !o.median {
		return p, "", usagef("--regularizer applies to median-table only")
	}
	reg, err := model.ParseRegularizer(o.reg)
	if err != nil {
		return p, "", usagef("--regularizer: %v", err)
	}
	return p, reg, nil
}

func (o *powerOptions) params() (power.Params, error) {
	if !(o.clockMHz > 0) {
		return power.Params{}, usagef("--clock-mhz %v: want > 0", o.clockMHz)
	}
	if !(o.toggle > 0 && o.toggle <= 1) {
		return power.Params{}, usagef("--toggle %v: want a rate in (0, 1]", o.toggle)
	}
	b, err := power.ParseBudgeted(o.budgetOn)
	if err != nil {
		return power.Params{}, usagef("--budget-on: %v", err)
	}
	return power.Params{ClockHz: o.clockMHz * 1e6, Toggle: o.toggle, BudgetOn: b}, nil
}

func (o *powerOptions) run(cmd *cobra.Command, app *App, args []string) error {
	if o.median && o.calibrate {
		return usagef("--median-table and --calibrate are separate runs")
	}
	if o.median || o.calibrate {
		if len(args) > 0 {
			return usagef("--median-table/--calibrate take no DIR argument")
		}
		p, reg, err := o.studyParams(cmd)
		if err != nil {
			return err
		}
		return o.study(cmd, app, p, reg)
	}
	p, err := o.params()
	if err != nil {
		return err
	}
	if cmd.Flags().Changed("regularizer") {
		return usagef("--regularizer applies to median-table only")
	}
	if len(args) != 1 {
		return usagef("power needs DIR or model.json (or a subcommand: median-table, calibrate)")
	}
	fi, err := os.Stat(args[0])
	if err != nil {
		return fmt.Errorf("power: %w", err)
	}
	if cmd.Flags().Changed("parallel") && o.parallel < 1 {
		return usagef("--parallel %d: want 1 ≤ P ≤ N", o.parallel)
	}
	if o.activity || cmd.Flags().Changed("activity-vectors") {
		if !fi.IsDir() || o.parallel != 0 {
			return usagef("--activity needs an emitted design DIR")
		}
		if err := inRange("--activity-vectors", o.actVecs, 1, maxActivityVectors); err != nil {
			return err
		}
		return o.runActivity(cmd, app, args[0], p)
	}
	var e power.Estimate
	var note string
	if fi.IsDir() {
		if o.parallel != 0 {
			return usagef("--parallel applies to model.json; DIR's P is fixed by its emit")
		}
		so := synth.Options{Yosys: o.yosys, Log: app.Err}
		e, note, err = activity.EstimateDir(cmd.Context(), args[0], activity.DirOptions{Params: p, RunSynth: o.runSynth, Synth: so})
		if err == nil && e.Resources.Source == "yosys" {
			note += "\n" + fmaxNote(cmd.Context(), args[0], so, p.ClockHz/1e6)
		}
		if err == nil && synth.HasICE40(args[0]) {
			var n string
			if n, err = ice40PowerNote(cmd.Context(), app, args[0]); err == nil {
				note += "\n" + n
			}
		}
	} else {
		e, note, err = o.fromModel(args[0], p)
	}
	if err != nil {
		return err
	}
	if o.json {
		return printJSON(app.Out, "power", struct {
			power.Estimate
			Note string `json:"note"`
		}{e, note})
	}
	return writeEstimate(app.Out, e, note)
}

// runActivity is `hdlgen power DIR --activity`.
func (o *powerOptions) runActivity(cmd *cobra.Command, app *App, dir string, p power.Params) error {
	rep, err := activity.Estimate(cmd.Context(), dir, activity.Options{Params: p, Vectors: o.actVecs,
		Synth: synth.Options{Yosys: o.yosys, Log: app.Err}})
	if err != nil {
		return err
	}
	if o.json {
		return printJSON(app.Out, "power", rep)
	}
	return rep.WriteText(app.Out)
}

func (o *powerOptions) fromModel(path string, p power.Params) (power.Estimate, string, error) {
	m, err := model.ReadFile(path)
	if err != nil {
		return power.Estimate{}, "", err
	}
	par := o.parallel
	if par == 0 {
		par = 1
	}
	if par < 1 || par > m.N() {
		return power.Estimate{}, "", usagef("--parallel %d: want 1 ≤ P ≤ N = %d", par, m.N())
	}
	return power.EstimateModel(m, par, p)
}

func writeEstimate(w io.Writer, e power.Estimate, note string) error {
	r := e.Resources
	fj, fw := power.FormatEnergy, power.FormatPower
	lines := []string{
		"design:   " + e.Design.String(),
		fmt.Sprintf("resources (%s): LC (LUT6 sites) %d, FF %d, CARRY4 %d, MUXF %d, DSP48E1 %d, BRAM36 %.1f, LUTRAM/SRL %d",
			r.Source, r.LUTs, r.FFs, r.CARRY4, r.MUXF, r.DSP48E1, r.BRAM36, r.LUTRAM),
		fmt.Sprintf("latency:  %d cycles = %.3g µs at %.4g MHz (a new vector every %d cycles)", e.Cycles, e.LatencyS*1e6, e.ClockHz/1e6, e.II),
		fmt.Sprintf("power:    dynamic %s (logic %s, clock %s) at %.3g %% toggle; static: PL %s, device %s",
			fw(e.DynamicW), fw(e.LogicW), fw(e.ClockW), 100*e.Toggle, fw(e.PLStaticW), fw(e.DeviceStaticW)),
		fmt.Sprintf("energy per classification: dynamic %s, PL static %s, total %s (a budget constrains the %s energy: %s)",
			fj(e.DynamicJ), fj(e.PLStaticJ), fj(e.TotalJ), e.BudgetOn, fj(e.BudgetedJ)),
		note,
	}
	_, err := fmt.Fprintln(w, strings.Join(lines, "\n"))
	return err
}

func (o *powerOptions) study(cmd *cobra.Command, app *App, p power.Params, reg model.Regularizer) error {
	if o.out == "" {
		return usagef("--out DIR is required with --median-table/--calibrate")
	}
	if len(o.sections) > 0 && !o.calibrate {
		return usagef("--section applies to calibrate only")
	}
	if err := inRange("--activity-vectors", o.actVecs, 1, maxActivityVectors); err != nil {
		return err
	}
	work := o.work
	if work == "" {
		c, err := os.UserCacheDir()
		if err != nil {
			return usagef("--work: no user cache directory (%v); pass --work DIR", err)
		}
		work = filepath.Join(c, "hdlgen", "hwstudy")
	}
	so := synth.Options{Yosys: o.yosys, Log: io.Discard}
	// The command as typed, normalised: every flag that was set, in order.
	rec := cmd.CommandPath()
	cmd.Flags().Visit(func(f *pflag.Flag) {
		switch {
		case f.Value.Type() == "bool":
			rec += " --" + f.Name
		case f.Value.Type() == "stringSlice":
			rec += fmt.Sprintf(" --%s %s", f.Name, strings.Trim(f.Value.String(), "[]"))
		default:
			rec += fmt.Sprintf(" --%s %s", f.Name, f.Value.String())
		}
	})
	if o.calibrate {
		co := hwstudy.CalibrateOptions{Work: hwstudy.Work{WorkDir: work, Workers: o.jobs, Synth: so, Log: app.Err}, Command: rec}
		if len(o.sections) > 0 {
			for _, name := range o.sections {
				i := slices.Index(power.CalSectionNames[:], name)
				if i < 0 {
					return usagef("--section %q: want one of %s", name, strings.Join(power.CalSectionNames[:], ", "))
				}
				co.Sections = append(co.Sections, i)
			}
			prev := filepath.Join(o.out, "calibration.json")
			b, err := os.ReadFile(prev)
			if err != nil {
				return fmt.Errorf("--section keeps the other sections' rows of %s: %w", prev, err)
			}
			co.Keep = &hwstudy.Calibration{}
			if err := json.Unmarshal(b, co.Keep); err != nil {
				return fmt.Errorf("%s: %w", prev, err)
			}
		}
		c, err := hwstudy.Calibrate(cmd.Context(), co)
		if err != nil {
			return err
		}
		if err := c.Write(o.out); err != nil {
			return err
		}
		for _, t := range c.Tolerances {
			fmt.Fprintf(app.Out, "%-8s max |error| %5.1f %% (claim %s, all within: %v), bias %+.1f %%\n", t.Resource, t.MaxAbsPct, t.Claim, t.Satisfied, t.MeanPct)
		}
		fmt.Fprintf(app.Out, "%s\n", filepath.Join(o.out, "calibration.md"))
		return nil
	}
	data := o.data
	if data == "" {
		data = app.Getenv("HDLGEN_UCI121")
	}
	if data == "" {
		return usagef("--median-table needs --data DIR or $HDLGEN_UCI121 (the UCI-121 collection)")
	}
	runs, err := o.medianRuns()
	if err != nil {
		return err
	}
	res, err := hwstudy.MedianTable(cmd.Context(), hwstudy.MedianOptions{DataDir: data, Runs: runs,
		Work:        hwstudy.Work{WorkDir: work, Workers: o.jobs, Synth: so, Log: app.Err},
		Regularizer: reg, Params: p, Command: rec,
		Activity: !o.noAct, ActivityVectors: o.actVecs})
	if err != nil {
		return err
	}
	if err := res.Write(o.out); err != nil {
		return err
	}
	for _, c := range res.SameP {
		fmt.Fprintf(app.Out, "same P=%-3d       energy ×%.1f (dynamic), ×%.2f (total); speed ×%.2f  [paper: ×%.0f, ×%.1f]\n",
			c.IntP, c.EnergyRatioDynamic, c.EnergyRatioTotal, c.SpeedRatio, hwstudy.PaperEnergyRatio, hwstudy.PaperSpeedRatio)
	}
	for _, c := range res.EqualLUT {
		where := ""
		if c.RVFL8ROMStyle != "" {
			where = ", ROMs in block RAM"
		}
		fmt.Fprintf(app.Out, "equal LUT %d vs %d: energy ×%.1f (dynamic), ×%.2f (total); speed ×%.2f (int P=%d, rvfl8 P=%d%s)\n",
			c.IntLUT, c.RVFL8LUT, c.EnergyRatioDynamic, c.EnergyRatioTotal, c.SpeedRatio, c.IntP, c.RVFL8P, where)
	}
	fmt.Fprintf(app.Out, "%s\n", filepath.Join(o.out, "median.md"))
	return nil
}

// legacyVariantFlags are the older spellings of the median table's variants,
// one flag each, kept (hidden) so that the commands recorded with earlier
// tables run again.
var legacyVariantFlags = []struct{ flag, run string }{
	{"median-p", "default"}, // both networks
	{"median-rvfl8-p", "default:rvfl8"},
	{"median-rvfl8-block-p", "rvfl8-block"}, // none: no such designs; unset: the rvfl8's P above 1
	{"median-int-block-p", "int-block"},
	{"median-lean-p", "lean"},
	{"median-lean-lut-p", "lean-lut"},
}

// medianRuns returns the designs of median-table: those of --variant, or of
// the older flags, or the defaults.
func (o *powerOptions) medianRuns() ([]hwstudy.MedianRun, error) {
	given := func(flag string) string {
		if p := o.legacy[flag]; p != nil {
			return *p
		}
		return ""
	}
	var legacy []string
	for _, l := range legacyVariantFlags {
		if given(l.flag) != "" {
			legacy = append(legacy, l.flag)
		}
	}
	parse := func(flag, spec string) (hwstudy.MedianRun, error) {
		r, err := hwstudy.ParseMedianRun(spec)
		if err != nil {
			return r, usagef("%s: %v", flag, err)
		}
		for _, p := range r.Ps {
			if p > hwstudy.MedianN {
				return r, usagef("%s %s: P=%d beyond N=%d", flag, spec, p, hwstudy.MedianN)
			}
		}
		return r, nil
	}
	if len(o.variants) > 0 {
		if len(legacy) > 0 {
			return nil, usagef("--variant and --%s are two spellings: give one", legacy[0])
		}
		var runs []hwstudy.MedianRun
		for _, v := range o.variants {
			r, err := parse("--variant", v)
			if err != nil {
				return nil, err
			}
			runs = append(runs, r)
		}
		return runs, nil
	}
	// The older flags: start from the defaults and replace what they name;
	// the rvfl8 with block-RAM ROMs follows the rvfl8's P above 1 unless set.
	runs := hwstudy.DefaultMedianRuns()
	r8 := &runs[1]
	blockSet := false
	for _, l := range legacyVariantFlags {
		v := given(l.flag)
		if v == "" {
			continue
		}
		r, err := parse("--"+l.flag, l.run+"="+v)
		if err != nil {
			return nil, err
		}
		switch l.flag {
		case "median-p":
			runs[0].Ps, r8.Ps = r.Ps, r.Ps
		case "median-rvfl8-p":
			r8.Ps = r.Ps
		case "median-rvfl8-block-p":
			runs[2].Ps, blockSet = r.Ps, true
		default:
			runs = append(runs, r)
		}
	}
	if !blockSet {
		runs[2].Ps = nil
		for _, p := range r8.Ps {
			if p > 1 {
				runs[2].Ps = append(runs[2].Ps, p)
			}
		}
	}
	return runs, nil
}

// ice40PowerNote is what power adds for an --board icebreaker design: the
// routed comparison when there is a routed result, and that the energy
// stays the Zynq-7020 model's estimate (no iCE40 power tool).
func ice40PowerNote(ctx context.Context, app *App, dir string) (string, error) {
	r, note, err := routedICE40(ctx, app, dir, false)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	if r != nil {
		if err := r.WriteText(&b); err != nil {
			return "", err
		}
	} else {
		b.WriteString(note + "\n")
	}
	b.WriteString("Energy on the iCE40 UP5K is not measured and not estimated for it: the power and energy above are\n" +
		"the Zynq-7020 model's (docs/energy-model.md); there is no iCE40 power tool here.")
	return strings.TrimPrefix(b.String(), "\n"), nil
}
