package cli

import (
	"bufio"
	"context"
	"fmt"
	"os"

	"github.com/spf13/cobra"

	"github.com/hdlgen/hdlgen/dataset"
	"github.com/hdlgen/hdlgen/designdir"
	"github.com/hdlgen/hdlgen/model"
	"github.com/hdlgen/hdlgen/rtl/plan"
	"github.com/hdlgen/hdlgen/rtl/sim"
)

type simOptions struct {
	data       string
	labelCol   string
	parallel   int
	levels     bool
	byPosition bool
}

func newSimCmd(app *App) *cobra.Command {
	o := &simOptions{}
	cmd := &cobra.Command{
		Use:   "sim model.json|DIR --data FILE.csv [--parallel P] [--label-column NAME|INDEX]",
		Short: "Run the cycle-accurate Go simulator of the emitted hardware on input rows",
		Long: `Sim runs rtl/sim, the golden cycle-accurate model of the design "hdlgen emit"
writes, on each row of FILE.csv and prints the class name, the integer scores and
the latency in cycles: exactly what the Verilog computes. The rows hold raw
features (normalised and converted to levels, or 8-bit codes for an rvfl8, as the
host would do), or with --levels the hardware inputs themselves. Columns are
matched to the model's feature names as in "hdlgen predict" (or read in file order
with --by-position). A label column is ignored: the training data's label name
(last column), or the column --label-column names (a header name or a 1-based
number, as in "hdlgen train").

Given a design directory written by "hdlgen emit" instead of a model.json, sim
reads DIR/model.json and the design's P and pipeline rules from DIR/design.json,
so "hdlgen sim DIR --data FILE.csv" gives the numbers of the design itself
(--parallel, when given, must agree with the design's P).`,
		Example: `  hdlgen sim iris-5bit.json --data examples/iris.csv --parallel 4
  hdlgen sim hw --data examples/iris.csv
  hdlgen sim iris-5bit.json --data labelled.csv --label-column species`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return o.run(cmd.Context(), app, args[0], cmd.Flags().Changed("parallel"))
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.data, "data", "", "CSV file with the rows (a label column is ignored)")
	hiddenAlias(f, "input", "data")
	f.StringVar(&o.labelCol, "label-column", "", "the CSV's label column, a header name or a 1-based number (default: the training data's label name, if present)")
	f.IntVar(&o.parallel, "parallel", 1, "P: hidden neurons computed per clock (1…N; default: a design directory's P, else 1)")
	f.BoolVar(&o.levels, "levels", false, "the rows are hardware inputs (levels 0…N, or 8-bit codes), not raw features")
	f.BoolVar(&o.byPosition, "by-position", false, byPositionHelp)
	_ = cmd.MarkFlagRequired("data")
	argsAreInputs(cmd, "model.json|DIR")
	markInputs(cmd, "data")
	return cmd
}

// loadSimTarget reads the model and plan options of arg: a model.json (P from
// --parallel) or a design directory written by "hdlgen emit", opened and
// checked by designdir.Open (its model.json and the P and pipeline rules of
// its design.json; an explicit --parallel must agree).
func (o *simOptions) loadSimTarget(arg string, parallelGiven bool) (*model.Model, plan.Options, error) {
	st, err := os.Stat(arg)
	if err != nil {
		return nil, plan.Options{}, fmt.Errorf("sim: %s is neither a model.json nor a design directory: %w", arg, err)
	}
	if !st.IsDir() {
		m, err := model.ReadFile(arg)
		if err != nil {
			return nil, plan.Options{}, fmt.Errorf("sim: %s is neither a model.json nor a design directory: %w", arg, err)
		}
		return m, plan.Options{Parallel: o.parallel}, nil
	}
	d, err := designdir.Open(arg)
	if err != nil {
		return nil, plan.Options{}, fmt.Errorf("sim: %w", err)
	}
	if parallelGiven && o.parallel != d.Plan.P {
		return nil, plan.Options{}, usagef("--parallel %d disagrees with the design's P = %d (%s); leave --parallel out to simulate the design",
			o.parallel, d.Plan.P, d.File(designdir.PlanFile))
	}
	o.parallel = d.Plan.P
	return d.Model, d.Options, nil
}

// simRows reads the rows of --data in the model's feature order: with
// --label-column through the labelled-CSV reader of train (the label column
// dropped), else as predict does.
func (o *simOptions) simRows(m *model.Model) (*dataset.Dataset, error) {
	if o.labelCol == "" {
		return loadFeatures(m, o.data, o.byPosition)
	}
	d, err := loadLabelledColumn(o.data, "", o.labelCol)
	if err != nil {
		return nil, err
	}
	want := &dataset.Dataset{FeatureNames: m.FeatureNames}
	if o.byPosition || len(m.FeatureNames) != m.K() {
		want.FeatureNames = d.FeatureNames
	}
	if d.K() != m.K() {
		return nil, fmt.Errorf("%s has %d feature columns besides the label, the model expects %d", o.data, d.K(), m.K())
	}
	// The classes need not be the model's: keep the file's, so matchColumns
	// only reorders the features.
	want.ClassNames = d.ClassNames
	if d, err = matchColumns(want, d); err != nil {
		return nil, fmt.Errorf("%s: %w (--by-position reads the columns in file order)", o.data, err)
	}
	return d, nil
}

func (o *simOptions) run(ctx context.Context, app *App, arg string, parallelGiven bool) error {
	m, popt, err := o.loadSimTarget(arg, parallelGiven)
	if err != nil {
		return err
	}
	if err := inRange("--parallel", o.parallel, 1, m.N()); err != nil {
		return err
	}
	core, err := sim.NewFromModel(m, popt)
	if err != nil {
		return err
	}
	d, err := o.simRows(m)
	if err != nil {
		return err
	}
	w := bufio.NewWriter(app.Out)
	defer w.Flush()
	for r := 0; r < d.M(); r++ {
		if err := ctx.Err(); err != nil {
			return err
		}
		in, err := o.hardwareInputs(core, d.Row(r))
		if err != nil {
			return fmt.Errorf("%s row %d: %w", o.data, r+1, err)
		}
		class, scores, latency, err := core.Classify(in)
		if err != nil {
			return fmt.Errorf("%s row %d: %w", o.data, r+1, err)
		}
		fmt.Fprintf(w, "%s", m.ClassNames[class])
		for _, s := range scores {
			fmt.Fprintf(w, " %d", s)
		}
		fmt.Fprintf(w, " latency=%d\n", latency)
	}
	return w.Flush()
}

// hardwareInputs converts one row into what the design receives: the host's
// conversion of raw features, or the row itself with --levels.
func (o *simOptions) hardwareInputs(core *sim.Core, row []float64) ([]int, error) {
	if !o.levels {
		return core.Input(row)
	}
	in := make([]int, len(row))
	for i, v := range row {
		if v != float64(int(v)) {
			return nil, fmt.Errorf("--levels: value %v of feature %d is not an integer", v, i+1)
		}
		in[i] = int(v)
	}
	return in, nil
}
