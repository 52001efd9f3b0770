package cli

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/hdlgen/hdlgen/board"
	"github.com/hdlgen/hdlgen/internal/planflags"
	"github.com/hdlgen/hdlgen/model"
	"github.com/hdlgen/hdlgen/rtl"
	"github.com/hdlgen/hdlgen/rtl/plan"
)

type emitOptions struct {
	out           string
	design        plan.Options // the design options, one flag each (internal/planflags)
	axis          bool
	vectors       int
	seed          uint64
	ready         float64
	data, dataset string
	labelCol      string
	force         bool
	system        string
	noScores      bool
	board         string
}

// defaultVectorSeed seeds the test vectors of "hdlgen emit" and of the demo, so
// that the README's one-by-one commands write the same files as "hdlgen demo".
// It is the default of every seed flag (defaultSeed).
const defaultVectorSeed = defaultSeed

func newEmitCmd(app *App) *cobra.Command {
	o := &emitOptions{}
	cmd := &cobra.Command{
		Use:   "emit model.json -o DIR [--parallel P] [--axis] [--system zynq [--reloadable-readout]]",
		Short: "Write synthesizable Verilog, ROM files, test vectors and flows for a model",
		Long: `Emit turns an intRVFL with an integer readout (train --bits, or quantize) or an
rvfl8 into a design directory for the Zynq-7020:

  DIR/rtl/         Verilog-2005: <prefix>_top (valid/ready stream), <prefix>_core,
                   hdlgen_* primitives, <prefix>_axis (AXI4-Stream) with --axis,
                   and <prefix>_system (Zynq: AXI4-Stream in and out with batches
                   and robust framing, AXI4-Lite registers) with --system zynq
  DIR/mem/         W_in bit ROM, readout ROM (and the rvfl8 sigmoid LUT), $readmemh files
  DIR/vectors/     test vectors and the Go simulator's expected outputs and cycles
  DIR/tb/          Verilator (C++) and Icarus (Verilog) testbenches
  DIR/constraints/ ZedBoard XDC;  DIR/vivado/ non-project Tcl flow
  DIR/Makefile     lint, sim, verify, trace, synth (Yosys), vivado
  DIR/design.json  widths, pipeline, exact latency;  DIR/model.json  the model

With --reloadable-readout the system's readout can be replaced at run time
through its registers (two banks, swapped between vectors); the system's
interface is docs/system-interface.md.

P hidden neurons are computed per clock (1 ≤ P ≤ N; P need not divide N). The
output is byte-identical for the same model and options. DIR is built next to its
final place and renamed into it, so a failed emit leaves nothing behind.
Then run "hdlgen verify DIR".`,
		Example: `  hdlgen emit iris.json -o build/iris --parallel 4 --axis
  hdlgen emit iris.json -o build/iris-zynq --parallel 4 --system zynq --reloadable-readout
  hdlgen verify build/iris`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error { return o.run(cmd.Context(), app, args[0]) },
	}
	f := cmd.Flags()
	f.StringVarP(&o.out, "out", "o", "", "design directory to write")
	hiddenAlias(f, "output", "out")
	planflags.Bind(f, &o.design)
	f.BoolVar(&o.axis, "axis", false, "also emit the AXI4-Stream wrapper")
	f.StringVar(&o.system, "system", "", "also emit a system top: zynq (AXI DMA streams and AXI4-Lite registers)")
	f.BoolVar(&o.noScores, "no-scores", false, "with --system: records carry the class only, not the L scores")
	f.StringVar(&o.board, "board", board.NameZedBoard, "target board: "+strings.Join(board.Names, ", ")+" (icebreaker: the iCE40 UART top, pins and flow, docs/ice40.md)")
	f.IntVar(&o.vectors, "vectors", rtl.DefaultVectors, fmt.Sprintf("number of test vectors (1…%d)", maxVectors))
	f.Uint64Var(&o.seed, "seed", defaultVectorSeed, "seed of the random vectors, gaps and back-pressure")
	f.Float64Var(&o.ready, "ready", rtl.DefaultReadyProbability, "probability that out_ready is 1 in a cycle, in (0, 1] (1: no back-pressure)")
	f.StringVar(&o.data, "data", "", "draw half of the random vectors from these rows (CSV, collection folder with --dataset, or example:NAME)")
	f.StringVar(&o.dataset, "dataset", "", "dataset name inside a collection folder")
	f.StringVar(&o.labelCol, "label-column", "", "--data CSV: the class label column, a header name or a 1-based number (default: the last column)")
	f.BoolVar(&o.force, "force", false, "replace a non-empty DIR that hdlgen did not write")
	_ = cmd.MarkFlagRequired("out")
	argsAreInputs(cmd, "model.json")
	markInputs(cmd, "data")
	markOutput(cmd, "out", outputDesign)
	return cmd
}

// Test-vector limits. The testbenches hold every vector in memory and count
// cycles in 32-bit signed integers (TV_MAX_CYCLES = 2·cycles + 1000); emitting
// 10^5 iris vectors takes about 3 s and 50 MB, so 10^6 stays within a minute.
const (
	maxVectors   = 1_000_000
	maxTBCycles  = math.MaxInt32
	tbCycleSlack = 1000
)

func (o *emitOptions) run(ctx context.Context, app *App, modelPath string) error {
	switch {
	case o.system != "" && !slices.Contains(rtl.Systems, o.system):
		return usagef("--system %q: want %s", o.system, strings.Join(rtl.Systems, ", "))
	case o.system == "" && o.design.ReloadableReadout:
		return usagef("--reloadable-readout needs --system %s", rtl.SystemZynq)
	case o.system == "" && o.noScores:
		return usagef("--no-scores needs --system %s", rtl.SystemZynq)
	case !slices.Contains(board.Names, o.board):
		return usagef("--board %q: want %s", o.board, strings.Join(board.Names, ", "))
	case o.system != "" && o.board != board.NameZedBoard:
		return usagef("--system %s is the ZedBoard's; --board %s has its UART top", o.system, o.board)
	case o.system != "" && o.design.HoldInput:
		return usagef("--hold-input is for the stream and AXI4-Stream tops; --system %s keeps the input register", o.system)
	}
	if err := inRange("--vectors", o.vectors, 1, maxVectors); err != nil {
		return err
	}
	if !(o.ready > 0 && o.ready <= 1) {
		return usagef("--ready %v outside (0, 1]", o.ready)
	}
	if !slices.Contains(plan.ROMStyles, o.design.ROMStyle) {
		return usagef("--rom-style %q: want %s", o.design.ROMStyle, strings.Join(plan.ROMStyles, ", "))
	}
	if o.design.AdderLevelsPerStage < 0 || o.design.ArgmaxLevelsPerStage < 0 {
		return usagef("--adder-levels %d, --argmax-levels %d: want ≥ 0 (0: the default rule)", o.design.AdderLevelsPerStage, o.design.ArgmaxLevelsPerStage)
	}
	m, err := model.ReadFile(modelPath)
	if err != nil {
		return err
	}
	if err := inRange("--parallel", o.design.Parallel, 1, m.N()); err != nil {
		return err
	}
	pipe := o.design
	pipe.ReloadableReadout = false // the vector cycles are the stream top's
	if err := checkVectorCycles(app, m, pipe, o.vectors, o.ready, o.axis); err != nil {
		return err
	}
	opt := rtl.Options{Options: o.design, Axis: o.axis, Vectors: o.vectors, Seed: o.seed, ReadyProbability: o.ready,
		Force: o.force, System: o.system, SystemNoScores: o.noScores, Board: o.board}
	if o.data != "" {
		d, err := loadLabelledColumn(o.data, o.dataset, o.labelCol)
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
	if err := ctx.Err(); err != nil {
		return err
	}
	rep, err := rtl.Emit(ctx, m, opt, o.out)
	if err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("%w (after %s was written)", err, rep.Dir)
	}
	pl := rep.Plan
	fmt.Fprintf(app.Err, "emitted %s to %s: %s, P=%d, latency %d cycles (%.2f µs at 100 MHz), %d test vectors\n",
		rep.StreamTop, rep.Dir, m, pl.P, pl.Latency, float64(pl.Latency)/100, rep.Vectors)
	if rep.SystemTop != "" {
		fmt.Fprintf(app.Err, "system top %s: one vector every %d cycles", rep.SystemTop, rep.SystemII)
		if cpv := rep.SystemCyclesPerVector; cpv > 0 {
			fmt.Fprintf(app.Err, "; simulated steady state %.2f cycles per vector = %.0f classifications/s at %g MHz (%.1f %% of the core's one per %d)",
				cpv, board.ClockHz/cpv, board.ClockHz/1e6, 100*float64(pl.II)/cpv, pl.II)
		}
		fmt.Fprintln(app.Err)
	}
	fmt.Fprintln(app.Out, rep.Dir)
	return nil
}

// checkVectorCycles refuses, before any simulation, a vector count whose run
// would overflow the testbenches' 32-bit cycle counters, or whose vectors
// would not fit the machine's memory (limits.go). The cycle estimate per
// vector is the initiation interval, the largest gap and the mean wait for
// out_ready (1/ready); for the memory, each vector holds its K inputs and L
// scores (8 bytes each) and twice its hex lines (IW and OW bits, 96-bit cycle
// words, 16-bit gaps).
func checkVectorCycles(app *App, m *model.Model, pipe plan.Options, vectors int, ready float64, axis bool) error {
	pl, err := plan.New(m, pipe)
	if err != nil {
		return err
	}
	ii := pl.II
	if axis {
		ii = max(ii, pl.AxisII)
	}
	perVector := float64(ii+rtl.DefaultMaxGap) + math.Ceil(1/ready)
	cycles := float64(vectors)*perVector + float64(pl.Latency)
	if 2*cycles+tbCycleSlack > maxTBCycles {
		most := int((float64(maxTBCycles-tbCycleSlack)/2 - float64(pl.Latency)) / perVector)
		return usagef("--vectors %d: about %.3g cycles at one vector per %.0f cycles, more than the testbenches' 32-bit cycle counters allow; use at most %d vectors (or a larger --parallel)",
			vectors, cycles, perVector, max(most, 0))
	}
	bytesPerVector := 8*float64(pl.K+pl.L) + 2*(math.Ceil(float64(pl.IW)/4)+math.Ceil(float64(pl.OW)/4)+2*24+4+4)
	return app.checkMemory(fmt.Sprintf("emitting %d test vectors (K=%d, %d-bit inputs)", vectors, pl.K, pl.IW), float64(vectors)*bytesPerVector)
}
