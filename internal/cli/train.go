package cli

import (
	"context"
	"fmt"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/hdlgen/hdlgen/model"
	"github.com/hdlgen/hdlgen/quant"
)

type trainOptions struct {
	data, dataset string
	arch          string
	n             int
	lambda        float64
	kappa         int
	seed          uint64
	regularizer   string
	bits          int
	directLinks   bool
	quantInputs   bool
	win           string
	selectUnits   int
	threads       int
	classes       string
	out           string
	held          heldOutOptions
	solver        solverFlags
}

func newTrainCmd(app *App) *cobra.Command {
	o := &trainOptions{}
	cmd := &cobra.Command{
		Use:   "train --data PATH [--dataset NAME] --arch " + archUsage(model.Archs()) + " --n N --lambda X [--kappa K] [--seed S] -o model.json",
		Short: "Train a network on labelled data and write model.json",
		Long: `Train fits min-max normalisation on the data, draws the random hidden layer
from --seed, solves the ridge-regression readout and writes model.json (atomically).
With --bits B an intRVFL also gets a rounded B-bit integer readout, ready for
"hdlgen emit"; an rvfl8 always has its 8-bit readout.

Held-out accuracy: by default a stratified share of each class's rows
(--holdout 0.25, drawn from --split-seed) is held out; the model is fitted on
the other rows only, and the training and held-out accuracy of the float and
of the integer readout are printed. The model written is the one validated —
it is not refitted on all rows, so the held-out number describes exactly the
model.json (and the hardware) you get. --test FILE validates on a separate file
instead; --holdout 0 fits on all rows and reports training accuracy only. When
rounding loses more than 5 points of held-out accuracy, train warns.

The ridge penalty defaults to the identity (λ·I): it rounds to few-bit integer
readouts far better than the authors' variance penalty (docs/semantics.md §6);
"hdlgen reproduce" keeps the paper's.

` + dataHelp,
		Example: `  hdlgen train --data example:iris --arch intrvfl --n 50 --lambda 4 --kappa 3 --bits 5 -o iris.json
  hdlgen train --data examples/sensors.csv --label-column condition --n 100 --bits 5 -o sensors.json
  hdlgen train --data ../shared/uci121 --dataset abalone --arch rvfl --n 500 --lambda 0.25 -o abalone.json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return o.run(cmd.Context(), app, cmd.Flags()) },
	}
	f := cmd.Flags()
	f.StringVar(&o.data, "data", "", "CSV file, collection folder (with --dataset) or example:NAME")
	f.StringVar(&o.dataset, "dataset", "", "dataset name inside a UCI-121 collection folder")
	f.StringVar(&o.arch, "arch", "intrvfl", archHelp(model.Archs()))
	f.IntVar(&o.n, "n", 0, fmt.Sprintf("hidden neurons N (1…%d)", model.MaxHidden))
	f.Float64Var(&o.lambda, "lambda", 1, "ridge regularisation λ")
	f.IntVar(&o.kappa, "kappa", 3, fmt.Sprintf("intRVFL clip threshold κ (1…%d)", model.MaxKappa))
	f.Uint64Var(&o.seed, "seed", defaultSeed, "random seed of the hidden layer")
	f.StringVar(&o.regularizer, "regularizer", string(model.RegIdentity), "ridge penalty: identity (λ·I, rounds well to integer readouts) or variance (λ·diag(var H), the authors' form)")
	f.IntVar(&o.bits, "bits", 0, "intRVFL: also store a rounded integer readout of this many bits (2…16)")
	f.BoolVar(&o.directLinks, "direct-links", false, "rvfl: add input→output links")
	f.BoolVar(&o.quantInputs, "quantized-inputs", false, "rvfl: quantise inputs to N levels like the density encoding")
	bindWin(f, &o.win)
	bindSelect(f, &o.selectUnits)
	intIn(f, &o.threads, "workers", 2, 1, maxThreads, "CPU workers (goroutines) of the linear algebra")
	hiddenAlias(f, "threads", "workers")
	f.StringVar(&o.classes, "classes", "", "keep only these comma-separated classes, relabelled in this order")
	f.StringVarP(&o.out, "out", "o", "", "model.json to write")
	hiddenAlias(f, "output", "out")
	o.held.bind(f)
	o.solver.add(f)
	_ = cmd.MarkFlagRequired("data")
	markInputs(cmd, "data", "test")
	markOutput(cmd, "out", outputFile)
	return cmd
}

func (o *trainOptions) config() (model.Config, error) {
	arch, err := model.ParseArch(o.arch)
	if err != nil {
		return model.Config{}, usagef("--arch: %v", err)
	}
	reg, err := model.ParseRegularizer(o.regularizer)
	if err != nil {
		return model.Config{}, usagef("--regularizer: %v", err)
	}
	if err := inRange("--n", o.n, 1, model.MaxHidden); err != nil {
		return model.Config{}, err
	}
	if err := inRange("--kappa", o.kappa, 1, model.MaxKappa); err != nil {
		return model.Config{}, err
	}
	if err := positive("--lambda", o.lambda); err != nil {
		return model.Config{}, err
	}
	if o.bits != 0 {
		if err := inRange("--bits", o.bits, quant.MinBits, quant.MaxBits); err != nil {
			return model.Config{}, err
		}
		if t, _ := model.TraitsOf(arch); !t.ReadoutBits() {
			return model.Config{}, usagef("--bits applies to --arch %s, not %s (%s)", model.Alternatives(model.ArchsWith(model.Traits.ReadoutBits)), arch, t.Readout)
		}
	}
	if t, _ := model.TraitsOf(arch); !t.InputOptions && (o.directLinks || o.quantInputs) {
		return model.Config{}, usagef("--direct-links and --quantized-inputs apply to --arch %s",
			model.Alternatives(model.ArchsWith(func(t model.Traits) bool { return t.InputOptions })))
	}
	win, err := parseWin(o.win, arch)
	if err != nil {
		return model.Config{}, err
	}
	if err := checkSelect(o.selectUnits, arch); err != nil {
		return model.Config{}, err
	}
	if err := inRange("--workers", o.threads, 1, maxThreads); err != nil {
		return model.Config{}, err
	}
	sv, err := o.solver.solver()
	if err != nil {
		return model.Config{}, err
	}
	return model.Config{Arch: arch, N: o.n, Kappa: o.kappa, Lambda: o.lambda, Regularizer: reg, Solver: sv, Seed: o.seed,
		DirectLinks: o.directLinks, QuantizedInputs: o.quantInputs, ReadoutBits: o.bits, Threads: o.threads, Win: win, Select: o.selectUnits}, nil
}

// bindSelect adds --select to a command that creates networks.
func bindSelect(f *pflag.FlagSet, sel *int) {
	f.IntVar(sel, "select", 0, fmt.Sprintf("conj: choose the units on the training rows, keeping the most class-dependent of M candidates per unit (2…%d; 0: drawn from --seed alone; docs/semantics.md §3c.2)", model.MaxSelect))
}

// checkSelect checks --select for a network of architecture arch: 0, or
// 2…model.MaxSelect for a type that can choose its units (model.Traits.Selects).
func checkSelect(sel int, arch model.Arch) error {
	if sel == 0 {
		return nil
	}
	if err := inRange("--select", sel, 2, model.MaxSelect); err != nil {
		return err
	}
	if t, _ := model.TraitsOf(arch); !t.Selects {
		return usagef("--select applies to --arch %s, not %s",
			model.Alternatives(model.ArchsWith(func(t model.Traits) bool { return t.Selects })), arch)
	}
	return nil
}

// winHelp is the help text of --win.
const winHelp = "intRVFL W_in source: stored (drawn from --seed, a ROM in the RTL) or lfsr (PRBS31 windows, generated on chip, no W_in ROM; docs/semantics.md §3a)"

// bindWin adds --win to a command that creates intRVFLs.
func bindWin(f *pflag.FlagSet, win *string) { f.StringVar(win, "win", "stored", winHelp) }

// parseWin reads --win for a network of architecture arch: only the intRVFL
// takes a generated W_in.
func parseWin(s string, arch model.Arch) (model.WinGen, error) {
	win, err := model.ParseWinGen(s)
	if err != nil {
		return "", usagef("--win: %v", err)
	}
	if t, _ := model.TraitsOf(arch); win != model.WinStored && !t.GeneratedWin {
		return "", usagef("--win %s: a generated W_in is an option of the %s only (not %s)", s,
			model.Alternatives(model.ArchsWith(func(t model.Traits) bool { return t.GeneratedWin })), arch)
	}
	return win, nil
}

// maxThreads bounds --workers (goroutines of the linear algebra, parts of a
// search, jobs of reproduce, Yosys runs of power).
const maxThreads = 256

// maxFolds bounds --folds (k of a stratified k-fold); a k the smallest class
// cannot fill is refused once the data is read.
const maxFolds = 1000

func (o *trainOptions) run(ctx context.Context, app *App, fl *pflag.FlagSet) error {
	if !fl.Changed("n") {
		return usagef("required flag --n (hidden neurons, 1…%d) not set; to have hdlgen choose N, κ and λ "+
			"for your data, run \"hdlgen search --data FILE --arch intrvfl --bits 5\" and train with the configuration "+
			"it prints, or \"hdlgen build --data FILE -o DIR\" for the whole chain", model.MaxHidden)
	}
	if o.out == "" {
		return usagef("required flag -o/--out (the model.json to write) not set")
	}
	cfg, err := o.config()
	if err != nil {
		return err
	}
	var keep []string
	if o.classes != "" {
		keep = strings.Split(o.classes, ",")
	}
	s, err := o.held.load(app, fl, o.data, o.dataset, keep)
	if err != nil {
		return err
	}
	d := s.Fit
	if err := checkShape(app, d.M(), d.K(), d.L(), cfg); err != nil {
		return err
	}
	m, err := interruptible(ctx, func() (*model.Model, error) {
		return model.Train(ctx, model.Data{Name: d.Name, X: d.X, Y: d.Y, ClassNames: d.ClassNames,
			FeatureNames: d.FeatureNames, LabelName: d.LabelName}, cfg)
	})
	if err != nil {
		return err
	}
	if err := app.writeModel(ctx, "-o", o.out, m); err != nil {
		return err
	}
	held := "no rows held out"
	if s.Held != nil {
		held = "validated on " + s.What
	}
	fmt.Fprintf(app.Err, "trained %s on %d rows of %s, %s:\n", m, d.M(), d.Name, held)
	writeAccuracies(app, accuracies(m, s))
	fmt.Fprintf(app.Out, "%s\n", o.out)
	return nil
}

// checkShape refuses, before training, data that model.json cannot hold and
// training work larger than the machine's memory (the rule in limits.go):
// the M×c activations and a scaled copy, the min(M, c)² ridge system and its
// factor, and c×(K+L+2) for W_in, W_out and per-column vectors, in float64,
// with c the readout's columns (N, plus K with direct links).
func checkShape(app *App, m, k, l int, cfg model.Config) error {
	if k > model.MaxFeatures || l > model.MaxClasses {
		return fmt.Errorf("the data has %d features and %d classes; model.json holds at most %d and %d", k, l, model.MaxFeatures, model.MaxClasses)
	}
	c := cfg.N
	if cfg.DirectLinks {
		c += k
	}
	p := float64(min(m, c))
	need := 8 * (2*float64(m)*float64(c) + 2*p*p + float64(c)*float64(k+l+2))
	return app.checkMemory(fmt.Sprintf("training N=%d on %d rows of %d features", cfg.N, m, k), need)
}
