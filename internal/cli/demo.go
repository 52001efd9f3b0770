package cli

import (
	"fmt"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/hdlgen/hdlgen/dataset"
	"github.com/hdlgen/hdlgen/examples"
	"github.com/hdlgen/hdlgen/model"
	"github.com/hdlgen/hdlgen/quant"
	"github.com/hdlgen/hdlgen/rtl"
	"github.com/hdlgen/hdlgen/rtl/plan"
	"github.com/hdlgen/hdlgen/tune"
	"github.com/hdlgen/hdlgen/verify"
)

type demoOptions struct {
	out      string
	n        int
	kappa    int
	lambda   float64
	bits     int
	parallel int
	noVerify bool
}

func newDemoCmd(app *App) *cobra.Command {
	o := &demoOptions{}
	cmd := &cobra.Command{
		Use:   "demo [-o DIR]",
		Short: "The whole flow on the embedded iris data: train → quantise → emit → verify",
		Long: `Demo runs hdlgen's main job on the iris data embedded in the binary:
  1. train an intRVFL (N=50, κ=3, λ=4, identity ridge penalty λ·I, which rounds
     to integers with little loss (docs/semantics.md §6), seed 0) on 75 % of the
     rows, holding out a stratified 25 % (split seed 0) as "hdlgen train" does by
     default, and write DIR/iris.json;
  2. quantise its readout to 5-bit integers and write DIR/iris-5bit.json;
  3. emit the Verilog (P=4, stream and AXI4-Stream tops, 1,000 test vectors) to DIR/hw;
  4. verify it: Verilator lint, then the Verilator and Icarus testbenches against the
     Go simulator's expected outputs and cycles.
The same commands, one by one, are in the README.`,
		Example: `  hdlgen demo
  hdlgen demo -o build/demo --parallel 8 --no-verify`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			ctx := cmd.Context()
			if err := o.check(); err != nil {
				return err
			}
			d, err := dataset.LoadCSVFS(examples.FS, examples.Iris, dataset.CSVOptions{})
			if err != nil {
				return err
			}
			ss, err := tune.Validation{Holdout: DefaultHoldout}.Splits(d)
			if err != nil {
				return err
			}
			s := split{Fit: d.Subset(ss[0].Train), Held: d.Subset(ss[0].Test)}
			fit := s.Fit
			data := model.Data{Name: d.Name, X: fit.X, Y: fit.Y, ClassNames: d.ClassNames, FeatureNames: d.FeatureNames, LabelName: d.LabelName}
			m, err := interruptible(ctx, func() (*model.Model, error) {
				// The demo is the paper's network, the intRVFL, by name.
				return model.Train(ctx, data, model.Config{Arch: model.IntRVFL, N: o.n, Kappa: o.kappa, Lambda: o.lambda, Regularizer: model.RegIdentity})
			})
			if err != nil {
				return err
			}
			floatPath := filepath.Join(o.out, "iris.json")
			if err := ensureDir(o.out); err != nil {
				return err
			}
			if err := app.writeModel(ctx, "-o", floatPath, m); err != nil {
				return err
			}
			acc := accuracies(m, s)[0]
			fmt.Fprintf(app.Out, "1. trained  %s on %d rows: accuracy (float readout) %.4f training, %.4f on %d held-out rows → %s\n", m, fit.M(), acc.Fit, acc.Held, s.Held.M(), floatPath)
			if err := m.QuantizeReadout(quant.BoundForBits(o.bits)); err != nil {
				return err
			}
			intPath := filepath.Join(o.out, "iris-5bit.json")
			if err := app.writeModel(ctx, "-o", intPath, m); err != nil {
				return err
			}
			acc = accuracies(m, s)[1]
			fmt.Fprintf(app.Out, "2. quantised readout to %d bits: accuracy (integer readout) %.4f training, %.4f held-out → %s\n", o.bits, acc.Fit, acc.Held, intPath)
			rows := make([][]float64, d.M())
			for r := range rows {
				rows[r] = d.Row(r)
			}
			hw := filepath.Join(o.out, "hw")
			if err := ctx.Err(); err != nil {
				return err
			}
			rep, err := rtl.Emit(ctx, m, rtl.Options{Options: plan.Options{Parallel: o.parallel}, Axis: true, Rows: rows, Seed: defaultVectorSeed, Force: true}, hw)
			if err != nil {
				return err
			}
			fmt.Fprintf(app.Out, "3. emitted  %s (P=%d): latency %d cycles = %.2f µs at 100 MHz, one vector every %d cycles; %d test vectors → %s\n",
				rep.StreamTop, rep.Plan.P, rep.Plan.Latency, float64(rep.Plan.Latency)/100, rep.Plan.II, rep.Vectors, hw)
			if o.noVerify {
				return nil
			}
			fmt.Fprintf(app.Out, "4. verifying (Verilator lint, Verilator and Icarus testbenches) …\n")
			vr, err := verify.Run(ctx, hw, verify.Options{})
			if err != nil {
				return err
			}
			if err := vr.WriteText(app.Out); err != nil {
				return err
			}
			return vr.Err()
		},
	}
	f := cmd.Flags()
	f.StringVarP(&o.out, "out", "o", "build/demo", "output directory")
	f.IntVar(&o.n, "n", 50, fmt.Sprintf("hidden neurons N (1…%d)", maxDemoN))
	f.IntVar(&o.kappa, "kappa", 3, fmt.Sprintf("clip threshold κ (1…%d)", model.MaxKappa))
	f.Float64Var(&o.lambda, "lambda", 4, "ridge regularisation λ (> 0)")
	f.IntVar(&o.bits, "bits", 5, fmt.Sprintf("readout bits (%d…%d)", quant.MinBits, quant.MaxBits))
	f.IntVar(&o.parallel, "parallel", 4, "P: hidden neurons per clock (1…N)")
	f.BoolVar(&o.noVerify, "no-verify", false, "stop after emitting (no simulators needed)")
	markOutput(cmd, "out", outputDir)
	return cmd
}

// maxDemoN bounds the demo's N: the design is verified with Verilator and
// Icarus, which a network of 4096 neurons on iris already keeps busy for
// minutes.
const maxDemoN = 4096

// check returns a usage error for a flag outside its range.
func (o *demoOptions) check() error {
	if err := inRange("--n", o.n, 1, maxDemoN); err != nil {
		return err
	}
	if err := inRange("--kappa", o.kappa, 1, model.MaxKappa); err != nil {
		return err
	}
	if err := positive("--lambda", o.lambda); err != nil {
		return err
	}
	if err := inRange("--bits", o.bits, quant.MinBits, quant.MaxBits); err != nil {
		return err
	}
	if err := inRange("--parallel", o.parallel, 1, o.n); err != nil {
		return err
	}
	if o.out == "" {
		return usagef("--out: empty path")
	}
	return nil
}
