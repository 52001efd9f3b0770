package cli

import (
	"strings"

	"github.com/spf13/cobra"

	"github.com/hdlgen/hdlgen/verify"
)

type verifyOptions struct {
	steps   string
	targets string
	trace   bool
	keep    bool
	verbose bool
}

func newVerifyCmd(app *App) *cobra.Command {
	o := &verifyOptions{}
	cmd := &cobra.Command{
		Use:   "verify DIR",
		Short: "Lint the emitted design and check it bit-exact against the Go simulator with Verilator and Icarus",
		Long: `Verify runs, in a directory written by "hdlgen emit":
  0. model: DIR/model.json must be the model the design and the vectors were
     emitted from (design.json derived again, expected outputs recomputed);
  1. lint: verilator --lint-only -Wall --language 1364-2005 on every top (any warning fails);
  2. verilator: the C++ testbench on the stream top (and the AXI4-Stream wrapper when emitted);
  3. icarus: the independent Verilog testbench on the same tops.
Both testbenches drive the vectors written by emit with the same gaps and random
back-pressure, and compare every output bit and the accept/first-valid/transfer cycle
of every vector with the Go cycle-accurate simulator's. A mismatch prints the vector,
the field and both values, and the command exits non-zero.`,
		Example: `  hdlgen verify build/iris
  hdlgen verify build/iris --steps lint,verilator --trace`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opt := verify.Options{Trace: o.trace, KeepBuild: o.keep}
			if o.verbose {
				opt.Log = app.Err
			}
			for _, s := range splitList(o.steps) {
				opt.Steps = append(opt.Steps, verify.Step(s))
			}
			opt.Targets = splitList(o.targets)
			rep, err := verify.Run(cmd.Context(), args[0], opt)
			if err != nil {
				return err
			}
			if err := rep.WriteText(app.Out); err != nil {
				return err
			}
			return rep.Err()
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.steps, "steps", "", "comma-separated steps: model, lint, verilator, icarus (default: all)")
	f.StringVar(&o.targets, "targets", "", "comma-separated tops: stream, axis (default: all emitted)")
	f.BoolVar(&o.trace, "trace", false, "write a VCD trace of the Verilator run")
	f.BoolVar(&o.keep, "keep-build", false, "keep DIR/build after the run")
	f.BoolVarP(&o.verbose, "verbose", "v", false, "print every command and its output to stderr")
	return cmd
}

func splitList(s string) []string {
	var out []string
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, f)
		}
	}
	return out
}
