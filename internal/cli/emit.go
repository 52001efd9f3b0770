package cli

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/hdlgen/hdlgen/model"
	"github.com/hdlgen/hdlgen/rtl"
)

type emitOptions struct {
	out           string
	parallel      int
	axis          bool
	vectors       int
	seed          uint64
	ready         float64
	data, dataset string
	force         bool
}

// defaultVectorSeed seeds the test vectors of "hdlgen emit" and of the demo, so
// that the README's one-by-one commands write the same files as "hdlgen demo".
const defaultVectorSeed = 1

func newEmitCmd(app *App) *cobra.Command {
	o := &emitOptions{}
	cmd := &cobra.Command{
		Use:   "emit model.json -o DIR [--parallel P] [--axis]",
		Short: "Write synthesizable Verilog, ROM files, test vectors and flows for a model",
		Long: `Emit turns an intRVFL with an integer readout (train --bits, or quantize) or an
rvfl8 into a design directory for the Zynq-7020:

  DIR/rtl/         Verilog-2005: <prefix>_top (valid/ready stream), <prefix>_core,
                   hdlgen_* primitives, and <prefix>_axis (AXI4-Stream) with --axis
  DIR/mem/         W_in bit ROM, readout ROM (and the rvfl8 sigmoid LUT), $readmemh files
  DIR/vectors/     test vectors and the Go simulator's expected outputs and cycles
  DIR/tb/          Verilator (C++) and Icarus (Verilog) testbenches
  DIR/constraints/ ZedBoard XDC;  DIR/vivado/ non-project Tcl flow
  DIR/Makefile     lint, sim, verify, trace, synth (Yosys), vivado
  DIR/design.json  widths, pipeline, exact latency;  DIR/model.json  the model

P hidden neurons are computed per clock (1 ≤ P ≤ N; P need not divide N). The
output is byte-identical for the same model and options. DIR is built next to its
final place and renamed into it, so a failed emit leaves nothing behind.
Then run "hdlgen verify DIR".`,
		Example: `  hdlgen emit iris.json -o build/iris --parallel 4 --axis
  hdlgen verify build/iris`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error { return o.run(app, args[0]) },
	}
	f := cmd.Flags()
	f.StringVarP(&o.out, "output", "o", "", "design directory to write")
	f.IntVar(&o.parallel, "parallel", 1, "P: hidden neurons computed per clock")
	f.BoolVar(&o.axis, "axis", false, "also emit the AXI4-Stream wrapper")
	f.IntVar(&o.vectors, "vectors", rtl.DefaultVectors, "number of test vectors")
	f.Uint64Var(&o.seed, "seed", defaultVectorSeed, "seed of the random vectors, gaps and back-pressure")
	f.Float64Var(&o.ready, "ready", rtl.DefaultReadyProbability, "probability that out_ready is 1 in a cycle (1: no back-pressure)")
	f.StringVar(&o.data, "data", "", "draw half of the random vectors from these rows (CSV, collection folder with --dataset, or example:NAME)")
	f.StringVar(&o.dataset, "dataset", "", "dataset name inside a collection folder")
	f.BoolVar(&o.force, "force", false, "replace a non-empty DIR that hdlgen did not write")
	_ = cmd.MarkFlagRequired("output")
	return cmd
}

func (o *emitOptions) run(app *App, modelPath string) error {
	m, err := model.ReadFile(modelPath)
	if err != nil {
		return err
	}
	opt := rtl.Options{Parallel: o.parallel, Axis: o.axis, Vectors: o.vectors, Seed: o.seed,
		ReadyProbability: o.ready, Force: o.force}
	if o.data != "" {
		d, err := loadLabelled(o.data, o.dataset)
		if err != nil {
			return err
		}
		if d.K() != m.K() {
			return fmt.Errorf("--data has %d features, the model %d", d.K(), m.K())
		}
		for r := 0; r < d.M(); r++ {
			opt.Rows = append(opt.Rows, d.Row(r))
		}
	}
	rep, err := rtl.Emit(context.Background(), m, opt, o.out)
	if err != nil {
		return err
	}
	pl := rep.Plan
	fmt.Fprintf(app.Err, "emitted %s to %s: %s, P=%d, latency %d cycles (%.2f µs at 100 MHz), %d test vectors\n",
		rep.StreamTop, rep.Dir, m, pl.P, pl.Latency, float64(pl.Latency)/100, rep.Vectors)
	fmt.Fprintln(app.Out, rep.Dir)
	return nil
}
