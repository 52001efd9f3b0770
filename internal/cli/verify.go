package cli

import (
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/hdlgen/hdlgen/synth"
	"github.com/hdlgen/hdlgen/verify"
)

type verifyOptions struct {
	steps     string
	targets   string
	trace     bool
	keep      bool
	clean     bool
	gateLevel bool
	verbose   bool
	yosys     string
	cacheDir  string
	cxxOpt    string
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
the field and both values, and the command exits non-zero.

With --gate-level the same two testbenches run against the synthesised netlist of
the stream top instead (steps gate-verilator and gate-icarus): Yosys's netlist (the
script of "hdlgen synth", run first and cached) with Yosys's Xilinx cell models and
hdlgen's block-RAM models. Icarus is slow on netlists (the median intRVFL at
P = 1 simulates at about 175 cycles per CPU second: 24 vectors take 70 s);
--steps gate-verilator runs Verilator alone (its cost is the build, about 25 s
of CPU for a median design).

Each step's result is printed as soon as it finishes; progress goes to stderr
when it is a terminal (or with --verbose).
The Verilator and Icarus builds stay in DIR/build (make rebuilds only what
changed; --clean removes them afterwards).`,
		Example: `  hdlgen verify build/iris
  hdlgen verify build/iris --steps lint,verilator --trace
  hdlgen verify build/iris --gate-level`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error { return o.run(cmd, app, args[0]) },
	}
	f := cmd.Flags()
	f.StringVar(&o.steps, "steps", "", "comma-separated steps: model, lint, verilator, icarus, gate-verilator, gate-icarus, routed (default: model,lint,verilator,icarus, and routed for an --board icebreaker design)")
	f.BoolVar(&o.gateLevel, "gate-level", false, "run the testbenches against the synthesised netlist (gate-verilator, gate-icarus)")
	f.StringVar(&o.targets, "targets", "", "comma-separated tops: stream, axis (default: all emitted)")
	f.BoolVar(&o.trace, "trace", false, "write a VCD trace of the Verilator run")
	f.BoolVar(&o.keep, "keep-build", true, "keep the simulator builds in DIR/build (the default; --clean removes them)")
	f.BoolVar(&o.clean, "clean", false, "remove the simulator builds this run created when it is done")
	f.BoolVarP(&o.verbose, "verbose", "v", false, "print every command and its output to stderr")
	f.StringVar(&o.yosys, "yosys", "yosys", "the yosys command (gate level)")
	f.StringVar(&o.cacheDir, "synth-cache", "", "also cache synthesis reports and netlists in this directory (gate level)")
	f.StringVar(&o.cxxOpt, "cxx-opt", "", "g++ optimisation of the Verilator models: -O0 (the fastest build, a slower simulation: for few vectors), -O1, -O2, -O3 or -Os (default: $HDLGEN_VERILATOR_CXX_OPT when set, else Verilator's, -Os)")
	argsAreInputs(cmd, "DIR")
	markOutput(cmd, "synth-cache", outputDir)
	return cmd
}

func (o *verifyOptions) run(cmd *cobra.Command, app *App, dir string) error {
	if o.clean && cmd.Flags().Changed("keep-build") && o.keep {
		return usagef("--keep-build and --clean contradict each other")
	}
	if o.cxxOpt == "" && cmd.Flags().Changed("cxx-opt") || !slices.Contains(verify.CXXOpts, o.cxxOpt) {
		return usagef("--cxx-opt %q: want one of %s", o.cxxOpt, strings.Join(verify.CXXOpts[1:], ", "))
	}
	opt := verify.Options{Trace: o.trace, KeepBuild: o.keep && !o.clean, GateLevel: o.gateLevel, CXXOpt: o.cxxOpt,
		Synth: synth.Options{Yosys: o.yosys, CacheDir: o.cacheDir}}
	if o.verbose {
		opt.Log = app.Err
	}
	for _, s := range splitList(o.steps) {
		opt.Steps = append(opt.Steps, verify.Step(s))
	}
	if o.gateLevel && len(opt.Steps) > 0 {
		return usagef("--gate-level selects the gate-level steps; with --steps name them (gate-verilator, gate-icarus)")
	}
	opt.Targets = splitList(o.targets)
	// Stream the results: each step's line on stdout when it finishes;
	// progress on stderr when it is a terminal (or with --verbose), so that
	// scripts see only errors there.
	progress := o.verbose || isTerminal(app.Err)
	header := false
	opt.Progress = func(done, total int, next string, res *verify.Result) {
		if res != nil {
			if !header {
				fmt.Fprintf(app.Out, "verify %s\n", dir)
				header = true
			}
			fmt.Fprint(app.Out, res.Line())
			return
		}
		switch {
		case !progress:
		case done < 0:
			fmt.Fprintf(app.Err, "verify: %s …\n", next)
		default:
			fmt.Fprintf(app.Err, "verify: [%d/%d] %s …\n", done+1, total, next)
		}
	}
	rep, err := verify.Run(cmd.Context(), dir, opt)
	if err != nil {
		return err
	}
	if !header {
		fmt.Fprintf(app.Out, "verify %s\n", rep.Dir)
	}
	if err := rep.WriteFooter(app.Out); err != nil {
		return err
	}
	return rep.Err()
}

// isTerminal reports whether w is a character device (a terminal).
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
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
