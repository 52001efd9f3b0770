package cli

import (
	"bufio"
	"context"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/hdlgen/hdlgen/model"
	"github.com/hdlgen/hdlgen/rtl/plan"
	"github.com/hdlgen/hdlgen/rtl/sim"
)

type simOptions struct {
	input      string
	parallel   int
	levels     bool
	byPosition bool
}

func newSimCmd(app *App) *cobra.Command {
	o := &simOptions{}
	cmd := &cobra.Command{
		Use:   "sim model.json --input FILE.csv [--parallel P]",
		Short: "Run the cycle-accurate Go simulator of the emitted hardware on input rows",
		Long: `Sim runs rtl/sim, the golden cycle-accurate model of the design "hdlgen emit"
writes, on each row of FILE.csv and prints the class name, the integer scores and
the latency in cycles: exactly what the Verilog computes. The rows hold raw
features (normalised and converted to levels, or 8-bit codes for an rvfl8, as the
host would do), or with --levels the hardware inputs themselves. Columns are
matched to the model's feature names as in "hdlgen predict" (or read in file order
with --by-position).`,
		Example: `  hdlgen sim iris-5bit.json --input examples/iris.csv --parallel 4`,
		Args:    cobra.ExactArgs(1),
		RunE:    func(cmd *cobra.Command, args []string) error { return o.run(cmd.Context(), app, args[0]) },
	}
	f := cmd.Flags()
	f.StringVar(&o.input, "input", "", "CSV file with the rows (a label column in last place is ignored)")
	f.IntVar(&o.parallel, "parallel", 1, "P: hidden neurons computed per clock (1…N)")
	f.BoolVar(&o.levels, "levels", false, "the rows are hardware inputs (levels 0…N, or 8-bit codes), not raw features")
	f.BoolVar(&o.byPosition, "by-position", false, byPositionHelp)
	_ = cmd.MarkFlagRequired("input")
	return cmd
}

func (o *simOptions) run(ctx context.Context, app *App, modelPath string) error {
	m, err := model.ReadFile(modelPath)
	if err != nil {
		return err
	}
	if err := inRange("--parallel", o.parallel, 1, m.N()); err != nil {
		return err
	}
	core, err := sim.NewFromModel(m, plan.Options{Parallel: o.parallel})
	if err != nil {
		return err
	}
	d, err := loadFeatures(m, o.input, o.byPosition)
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
			return fmt.Errorf("%s row %d: %w", o.input, r+1, err)
		}
		class, scores, latency, err := core.Classify(in)
		if err != nil {
			return fmt.Errorf("%s row %d: %w", o.input, r+1, err)
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
