package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/hdlgen/hdlgen/buildflow"
	"github.com/hdlgen/hdlgen/dataset"
	"github.com/hdlgen/hdlgen/model"
	"github.com/hdlgen/hdlgen/power"
	"github.com/hdlgen/hdlgen/quant"
	"github.com/hdlgen/hdlgen/tune"
)

type buildOptions struct {
	o         buildflow.Options
	latencyUS float64
	budget    string
	budgetOn  string
}

func newBuildCmd(app *App) *cobra.Command {
	b := &buildOptions{}
	cmd := &cobra.Command{
		Use:   "build --data FILE.csv -o DIR [--label-column NAME|INDEX] [--name NAME] [--optimize energy|latency|area | --parallel P] [--latency-us X] [--max-luts N] [--budget E] [--n N --lambda X --kappa K]",
		Short: "From a CSV file to a verified, synthesised design with a report of its trade-offs, in one resumable command",
		Long: `Build runs the whole flow on a labelled CSV file and writes DIR/REPORT.md
(and REPORT.html): every choice is made on the training rows, the held-out rows
only measure the result.

  split     a stratified --holdout share (0.25) of each class is held out:
            DIR/data/train/NAME.csv and DIR/data/holdout/NAME.csv;
  search    for each network of the family (--family: intrvfl,conj,intconj,
            intrvfl2 below 10,000 training rows, the intrvfl from there),
            hdlgen search --arch A --bits B (the conj and intconj: their own
            8 bits) on the
            training rows (4-fold, identity
            penalty, the wide grid; from 10,000 training rows the one for
            large data, 17 of its 30 N and every other λ) chooses N, λ and κ by the rounded
            readout's validation accuracy; it extends N beyond the grid while
            the best N is the largest (the intrvfl's; up to --extend-n and the LUT budget)
            and, unless --extend-n is given, its validation accuracy is more
            than one standard error above every smaller N's,
            keeps its finished parts in DIR/search-parts (an interrupted
            build resumes them) and shows its progress with the time left.
            With --n, --lambda and --kappa: no search, hdlgen eval validates
            them;
  baseline  a multinomial logistic regression on the normalised features,
            its penalty chosen on the same folds, for comparison;
  design    the network, N and P together: among the network and N whose
            validation accuracy is within --tolerance (default one standard
            error) of the best of any network, the design --optimize picks
            over every P, every resource counted;
  validate  hdlgen eval of the chosen N, λ, κ on the same folds; with
            --readout auto (the default) it also validates the GA-refined
            readout there;
  train     on the training rows only (the model is not refitted on all rows,
            so the held-out accuracy is that of the design you get);
  quantize  the B-bit integer readout: rounded, or GA-refined when that
            validated better (--readout auto), or as --readout says;
  score     hdlgen predict --score: float and integer readout, training and
            held-out rows, with the confusion matrix;
  sizes     every P = 1, 2, 4, …, N by the analytic model (LUT, FF, DSP,
            BRAM, latency, throughput, energy, Fmax): P is --parallel, or the
            best by --optimize (energy, the default: the fewest
            LUT-equivalents within 10 % of the least dynamic energy per
            classification, or --budget-on total) among those that meet
            --latency-us, --max-luts and --budget, fit the device and 100 MHz;
  emit      the design to DIR/hw (stream and AXI4-Stream tops, named after
            --name), and again with fewer vectors for Icarus;
  verify    lint, and against the Go simulator Verilator on all --vectors
            and Icarus on a corner-complete prefix (--icarus-vectors), both
            tops; synth  Yosys resources and the Fmax estimate (at once with
            verify);  power  latency and energy (estimated).

Every step is an ordinary hdlgen command, run in-process, or says which one it
stands for; the report lists each, so any step can be repeated by hand. A rerun
skips the steps whose command and inputs are unchanged and whose outputs are
still as they were written (DIR/.build holds their records). DIR must be empty,
absent or an earlier build (else --force); a build locks it. Progress goes to
stderr, each step's own output to DIR/logs/.`,
		Example: `  hdlgen build --data examples/sensors.csv --label-column condition -o build/sensors
  hdlgen build --data mine.csv -o build/mine --optimize area
  hdlgen build --data mine.csv -o build/mine --latency-us 1 --budget 50nJ
  hdlgen build --data mine.csv -o build/mine --n 400 --lambda 256 --kappa 3 --parallel 8`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return b.run(cmd, app) },
	}
	f := cmd.Flags()
	o := &b.o
	f.StringVar(&o.Data, "data", "", "the labelled CSV file")
	f.StringVar(&o.LabelColumn, "label-column", "", "the class label column, a header name or a 1-based number (default: the last column)")
	f.StringVarP(&o.Dir, "out", "o", "", "output directory (absent, empty or an earlier build)")
	f.StringVar(&o.Name, "name", "", "the design's name: its modules are NAME_top, NAME_axis, … (default: the name of --data without its extension)")
	f.BoolVar(&o.Force, "force", false, "build into a non-empty folder that is not an earlier build (its files may be replaced)")
	f.IntVar(&o.Bits, "bits", 5, fmt.Sprintf("readout bits (%d…%d)", quant.MinBits, quant.MaxBits))
	f.IntVar(&o.Parallel, "parallel", 0, "P: hidden neurons computed per clock (0: chosen by --optimize)")
	f.StringVar(&o.Objective, "optimize", buildflow.OptimizeEnergy, "what chooses N and P among the designs meeting the constraints and the --tolerance: energy (the fewest LUT-equivalents within 10 % of the least energy per classification), latency or area (the fewest LUT-equivalents)")
	f.Float64Var(&o.Tolerance, "tolerance", 0, "validation accuracy, in points, a smaller or cheaper N may lose against the best N (0: one standard error of the best's validation accuracy)")
	f.StringVar(&b.budgetOn, "budget-on", string(power.BudgetDynamic), "the energy --budget and --optimize energy mean: dynamic or total (dynamic + PL static)")
	floatAtLeast(f, &b.latencyUS, "latency-us", 0, 0, "constraint on P: latency at most this many µs (0: none)")
	intIn(f, &o.MaxLUTs, "max-luts", 0, 0, math.MaxInt32, "constraint on P: at most this many LUTs (analytic estimate; 0: none); also bounds the search's extension of N")
	f.StringVar(&b.budget, "budget", "", "constraint on P: energy per classification at most this (e.g. 50nJ, 3.2uJ)")
	f.Float64Var(&o.Holdout, "holdout", DefaultHoldout, "share of each class's rows held out (0 < share < 1)")
	f.Uint64Var(&o.SplitSeed, "split-seed", defaultSeed, "seed of the held-out split")
	f.Uint64Var(&o.Seed, "seed", defaultSeed, "seed of the network")
	f.StringVar(&o.Win, "win", "stored", winHelp)
	f.IntVar(&o.Select, "select", model.ConjSelect, fmt.Sprintf("the conj of the family chooses its units on the training rows, the most class-dependent of M candidates each (2…%d; 0: drawn from --seed; docs/semantics.md §3c.2)", model.MaxSelect))
	f.StringVar(&o.Family, "family", "", "the networks the build chooses among with N and P, a comma list from "+buildflow.FamilyList("")+" (default: all below 10,000 training rows, the intRVFL from there; a costlier network is chosen only when no cheaper design validates within the --tolerance of it)")
	f.StringVar(&o.Grid, "grid", "", "search grid: wide (the paper's with λ up to 2^15, what the rounded readout needs), coarse (wide with 17 of its 30 N, a third of the work), large (coarse with 13 of its 26 λ: 2^-9, 2^-7, …, 2^15), paper or small (quick) (default: wide, large from 10,000 training rows)")
	intIn(f, &o.Folds, "folds", tune.DefaultFolds, 2, maxFolds, "k of the stratified k-fold on the training rows (search, readout choice, baseline)")
	intIn(f, &o.N, "n", 0, 0, model.MaxHidden, "skip the search: hidden neurons N (with --lambda and --kappa)")
	f.Float64Var(&o.Lambda, "lambda", 0, "skip the search: ridge regularisation λ (with --n and --kappa)")
	intIn(f, &o.Kappa, "kappa", 0, 0, model.MaxKappa, "skip the search: clip threshold κ (with --n and --lambda)")
	intIn(f, &o.ExtendN, "extend-n", buildflow.DefaultExtendN, 0, model.MaxHidden, "the search scores N beyond the grid, while the best N is the largest, up to this (and the LUT budget; 0: the grid only, as for search)")
	f.StringVar(&o.Readout, "readout", buildflow.ReadoutAuto, "integer readout: auto (rounded or GA-refined, whichever validates better on the folds), rounded or ga")
	f.Uint64Var(&o.GASeed, "ga-seed", defaultSeed, "seed of the GA (quantize --seed)")
	intIn(f, &o.Vectors, "vectors", buildflow.DefaultVectors, 1, maxVectors, "test vectors of the design, all checked by Verilator")
	intIn(f, &o.IcarusVectors, "icarus-vectors", 0, 0, maxVectors, "test vectors Icarus checks (0: every corner vector, 16 random ones and at least 600 cycles)")
	f.StringVar(&o.VerifySteps, "verify-steps", "", "verify only these steps (model, lint, verilator, icarus; default all)")
	intIn(f, &o.Workers, "workers", buildflow.DefaultWorkers, 1, maxThreads, "CPU workers of the search and the readout choice")
	_ = cmd.MarkFlagRequired("data")
	_ = cmd.MarkFlagRequired("out")
	markInputs(cmd, "data")
	markOutput(cmd, "out", outputDir)
	return cmd
}

func (b *buildOptions) run(cmd *cobra.Command, app *App) error {
	ctx := cmd.Context()
	o := b.o
	if o.ExtendN == 0 {
		o.ExtendN = -1 // --extend-n 0 is no extension, as for search (buildflow's 0 is its default)
	}
	o.ExtendAll = cmd.Flags().Changed("extend-n") // a given --extend-n extends while the best N is the largest
	o.LatencyS = b.latencyUS * 1e-6
	on, err := power.ParseBudgeted(b.budgetOn)
	if err != nil {
		return usagef("--budget-on: %v", err)
	}
	o.BudgetOn = on
	if b.budget != "" {
		e, err := power.ParseEnergy(b.budget)
		if err != nil || e <= 0 {
			return usagef("--budget %q: want a positive energy such as 50nJ or 3.2uJ", b.budget)
		}
		o.BudgetJ = e
	}
	fl := cmd.Flags()
	if fl.Changed("parallel") && (o.LatencyS > 0 || o.MaxLUTs > 0 || o.BudgetJ > 0 || fl.Changed("optimize")) {
		return usagef("--parallel fixes P; --optimize, --latency-us, --max-luts and --budget choose it: give one or the other")
	}
	if err := inRange("--bits", o.Bits, quant.MinBits, quant.MaxBits); err != nil {
		return err
	}
	// --win is the intRVFL's option: the only member of the family with a generated W_in (buildflow.FamilyMembers).
	if _, err := parseWin(o.Win, model.IntRVFL); err != nil {
		return err
	}
	if fl.Changed("parallel") && o.Parallel < 1 {
		return usagef("--parallel %d: want ≥ 1", o.Parallel)
	}
	if !(o.Holdout > 0 && o.Holdout < 1) {
		return usagef("--holdout %v: want a share strictly between 0 and 1", o.Holdout)
	}
	if o.Grid != "" {
		if _, err := parseGrid(o.Grid); err != nil {
			return err
		}
	}
	if (o.N != 0 || o.Lambda != 0 || o.Kappa != 0) && (fl.Changed("grid") || fl.Changed("extend-n")) {
		return usagef("--n, --lambda and --kappa skip the search: --grid and --extend-n do not apply")
	}
	if o.Name == "" {
		o.Name = buildflow.DefaultName(o.Data)
	}
	// Checked before the data is read: a path make cannot work in fails now,
	// not after the search.
	if err := o.Check(); err != nil {
		return asUsage(err)
	}
	// Read the data once, here (a pipe gives its rows once): for its errors'
	// hints and the label warnings, and as the build's source.
	src, d, err := readLabelledCSV(o.Data, o.LabelColumn)
	if err != nil {
		return err
	}
	o.Source = src
	for _, w := range dataset.LabelWarnings(d) {
		fmt.Fprintf(app.Err, "hdlgen: warning: --data %s: %s\n", o.Data, w)
	}
	if few := (tune.Validation{Holdout: o.Holdout, Seed: o.SplitSeed}).TrainingOnly(d); len(few) > 0 {
		fmt.Fprintf(app.Err, "hdlgen: warning: --data %s: --holdout %g holds out no row of %s: the class goes to training only, and the held-out accuracy does not measure it\n",
			o.Data, o.Holdout, strings.Join(few, ", "))
	}
	o.Progress = app.Err
	o.Command = "hdlgen build " + strings.Join(givenFlags(cmd), " ")
	o.Run = func(ctx context.Context, args []string, stdout, stderr io.Writer) error {
		sub := &App{In: app.In, Out: stdout, Err: stderr, Getenv: app.Getenv, MemTotal: app.MemTotal, ctx: app.ctx}
		root := NewRootCmd(sub)
		root.SetArgs(args)
		return root.ExecuteContext(ctx)
	}
	t0 := time.Now()
	res, err := buildflow.Run(ctx, o)
	if err != nil {
		return asUsage(err)
	}
	f := res.Facts
	float := fmt.Sprintf("; float %.4f", f.FloatHeld.Accuracy)
	if !f.FloatReadout() {
		float = ""
	}
	fmt.Fprintf(app.Err, "built in %.1fs: held-out accuracy %.4f (%d-bit integer readout%s; logistic-regression baseline %s) on %d rows; %s; verification: %s\n",
		time.Since(t0).Seconds(), f.IntHeld.Accuracy, f.ReadoutBits(), float, baselineText(f), f.IntHeld.Total, f.Power.Design, verdictWord(f))
	fmt.Fprintln(app.Out, res.Report)
	return nil
}

// asUsage makes buildflow's option errors usage errors (exit 2).
func asUsage(err error) error {
	var oe *buildflow.OptionError
	if errors.As(err, &oe) {
		return usageError{err}
	}
	return err
}

func baselineText(f buildflow.Facts) string {
	return fmt.Sprintf("%.4f", f.Baseline.Held)
}

func verdictWord(f buildflow.Facts) string {
	switch v := f.Verify; {
	case v.Passed:
		return "PASS"
	case v.Partial:
		return "PARTIAL (see --verify-steps)"
	}
	return "FAIL"
}

// givenFlags are the flags cmd was given, for the lock's holder.
func givenFlags(cmd *cobra.Command) []string {
	var args []string
	cmd.Flags().Visit(func(f *pflag.Flag) { args = append(args, "--"+f.Name+"="+f.Value.String()) })
	return args
}
