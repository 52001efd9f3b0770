package cli

import (
	"context"
	"fmt"
	"io"
	"io/fs"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/hdlgen/hdlgen/dataset"
	"github.com/hdlgen/hdlgen/examples"
	"github.com/hdlgen/hdlgen/flow"
	"github.com/hdlgen/hdlgen/model"
	"github.com/hdlgen/hdlgen/power"
	"github.com/hdlgen/hdlgen/quant"
)

type buildOptions struct {
	o         flow.Options
	latencyUS float64
	budget    string
}

func newBuildCmd(app *App) *cobra.Command {
	b := &buildOptions{}
	cmd := &cobra.Command{
		Use:   "build --data FILE.csv -o DIR [--label-column NAME|INDEX] [--bits 5] [--parallel P | --latency-us X | --max-luts N | --budget E] [--grid paper|wide|small]",
		Short: "From a CSV file to a verified, synthesised design with a report, in one resumable command",
		Long: `Build runs the whole flow on a labelled CSV file and writes DIR/REPORT.md:

  split     a stratified --holdout share (0.25) of each class is held out,
            written to DIR/data/train.csv and DIR/data/holdout.csv;
  search    hdlgen search --bits B on the training rows (k-fold, identity
            penalty) chooses N, λ and κ by the rounded readout's accuracy;
  train     on the training rows only (the model is not refitted on all rows,
            so the held-out accuracy is that of the design you get);
  quantize  the B-bit integer readout;
  score     hdlgen predict --score: float and integer readout, training and
            held-out rows, with the confusion matrix;
  size      with --latency-us, --max-luts or --budget (instead of --parallel):
            hdlgen power --parallel P for P = 1, 2, 4, …, N (analytic
            estimates) and the P with the fewest LUTs that meets them all;
  emit      the Verilog design (P hidden neurons per clock) to DIR/hw;
  verify    lint, Verilator and Icarus against the Go simulator;
  synth     Yosys resources;  power  latency and energy (estimated).

Every step is an ordinary hdlgen command, run in-process; the report lists each
exactly as run, so any step can be repeated by hand. Rerunning build skips the
steps whose command and inputs are unchanged (DIR/.build holds their keys), so
a changed --parallel reruns emit and what follows only. Progress goes to
stderr, each step's own output to DIR/logs/. DIR/REPORT.html is the same report
as a page, with the confusion matrix drawn in DIR/confusion.svg; DIR/hw gets a
README.md.`,
		Example: `  hdlgen build --data examples/sensors.csv --label-column condition -o build/sensors
  hdlgen build --data mine.csv -o build/mine --bits 4 --parallel 8 --grid paper
  hdlgen build --data mine.csv -o build/mine --latency-us 1 --budget 50nJ`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return b.run(cmd, app) },
	}
	f := cmd.Flags()
	o := &b.o
	f.StringVar(&o.Data, "data", "", "the labelled CSV file")
	f.StringVar(&o.LabelColumn, "label-column", "", "the class label column, a header name or a 1-based number (default: the last column)")
	f.StringVarP(&o.Dir, "out", "o", "", "output directory")
	f.IntVar(&o.Bits, "bits", 5, fmt.Sprintf("readout bits (%d…%d)", quant.MinBits, quant.MaxBits))
	f.IntVar(&o.Parallel, "parallel", 1, "P: hidden neurons computed per clock")
	f.Float64Var(&b.latencyUS, "latency-us", 0, "choose P: latency at most this many µs")
	f.IntVar(&o.MaxLUTs, "max-luts", 0, "choose P: at most this many LUTs (analytic estimate)")
	f.StringVar(&b.budget, "budget", "", "choose P: energy per classification at most this (dynamic; e.g. 50nJ, 3.2uJ)")
	f.Float64Var(&o.Holdout, "holdout", DefaultHoldout, "share of each class's rows held out (0 < share < 1)")
	f.Uint64Var(&o.SplitSeed, "split-seed", defaultSeed, "seed of the held-out split")
	f.Uint64Var(&o.Seed, "seed", defaultSeed, "seed of the network")
	f.StringVar(&o.Win, "win", "stored", winHelp)
	f.StringVar(&o.Grid, "grid", "wide", "search grid: wide (the paper's with λ up to 2^15, what the rounded readout needs), paper or small (quick)")
	f.IntVar(&o.Folds, "folds", 4, "search: k of the stratified k-fold on the training rows")
	f.IntVar(&o.Vectors, "vectors", 1000, "test vectors of the design")
	f.StringVar(&o.VerifySteps, "verify-steps", "", "verify only these steps (model, lint, verilator, icarus; default all)")
	_ = cmd.MarkFlagRequired("data")
	_ = cmd.MarkFlagRequired("out")
	markInputs(cmd, "data")
	markOutput(cmd, "out", outputDir)
	return cmd
}

func (b *buildOptions) run(cmd *cobra.Command, app *App) error {
	ctx := cmd.Context()
	o := b.o
	if b.latencyUS < 0 || o.MaxLUTs < 0 {
		return usagef("--latency-us and --max-luts: want positive values")
	}
	o.LatencyS = b.latencyUS * 1e-6
	if b.budget != "" {
		e, err := power.ParseEnergy(b.budget)
		if err != nil || e <= 0 {
			return usagef("--budget %q: want a positive energy such as 50nJ or 3.2uJ", b.budget)
		}
		o.BudgetJ = e
	}
	if cmd.Flags().Changed("parallel") && (o.LatencyS > 0 || o.MaxLUTs > 0 || o.BudgetJ > 0) {
		return usagef("--parallel fixes P; --latency-us, --max-luts and --budget choose it: give one or the other")
	}
	if err := inRange("--bits", o.Bits, quant.MinBits, quant.MaxBits); err != nil {
		return err
	}
	if _, err := parseWin(o.Win, model.IntRVFL); err != nil {
		return err
	}
	if o.Parallel < 1 {
		return usagef("--parallel %d: want ≥ 1", o.Parallel)
	}
	if !(o.Holdout > 0 && o.Holdout < 1) {
		return usagef("--holdout %v: want a share strictly between 0 and 1", o.Holdout)
	}
	if _, err := parseGrid(o.Grid); err != nil {
		return err
	}
	if o.Dir == "" {
		return usagef("-o: empty path")
	}
	// Read the data once here for its errors' hints and the label warnings.
	d, err := loadLabelledColumn(o.Data, "", o.LabelColumn)
	if err != nil {
		return err
	}
	for _, w := range dataset.LabelWarnings(d) {
		fmt.Fprintf(app.Err, "hdlgen: warning: --data %s: %s\n", o.Data, w)
	}
	if ex, ok := strings.CutPrefix(o.Data, examplePrefix); ok {
		if o.Source, err = fs.ReadFile(examples.FS, ex+".csv"); err != nil {
			return fmt.Errorf("--data %s: %w", o.Data, err)
		}
	}
	o.Progress = app.Err
	o.Run = func(ctx context.Context, args []string, stdout, stderr io.Writer) error {
		sub := &App{In: app.In, Out: stdout, Err: stderr, Getenv: app.Getenv, MemTotal: app.MemTotal, ctx: app.ctx}
		root := NewRootCmd(sub)
		root.SetArgs(args)
		return root.ExecuteContext(ctx)
	}
	t0 := time.Now()
	res, err := flow.Run(ctx, o)
	if err != nil {
		return err
	}
	f := res.Facts
	fmt.Fprintf(app.Err, "built in %.1fs: held-out accuracy %.4f (%d-bit integer readout; float %.4f) on %d rows; %s\n",
		time.Since(t0).Seconds(), f.IntHeld.Accuracy, o.Bits, f.FloatHeld.Accuracy, f.IntHeld.Total, f.Power.Design)
	fmt.Fprintln(app.Out, res.Report)
	return nil
}
