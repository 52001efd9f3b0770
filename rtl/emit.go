package rtl

import (
	"context"
	"fmt"
	"slices"
	"strconv"

	"github.com/google/go-cmp/cmp"

	"github.com/hdlgen/hdlgen/board"
	"github.com/hdlgen/hdlgen/constraints"
	"github.com/hdlgen/hdlgen/designdir"
	"github.com/hdlgen/hdlgen/model"
	"github.com/hdlgen/hdlgen/rtl/plan"
	"github.com/hdlgen/hdlgen/rtl/regmap"
	"github.com/hdlgen/hdlgen/rtl/sim"
)

// Defaults of Options.
const (
	DefaultVectors          = 1000
	DefaultReadyProbability = 0.7
	DefaultMaxGap           = 4
	// Part and ClockPeriodNS are the target's (package board).
	Part          = board.Part
	ClockPeriodNS = board.ClockPeriodNS
)

// Options control one emit. The design options (P, the pipeline rules, the
// reloadable readout, ROM style, input register, lane-sum register) are
// plan.Options, embedded: a new design option is a field there.
type Options struct {
	plan.Options
	// Axis also emits the AXI4-Stream wrapper <prefix>_axis and its expected cycles.
	Axis bool
	// Vectors is the number of test vectors (0 means DefaultVectors).
	Vectors int
	// Seed drives the random vectors, gaps and ready pattern.
	Seed uint64
	// ReadyProbability is the chance that out_ready is 1 in a cycle of the ready
	// pattern, in (0, 1] (0 means DefaultReadyProbability; 1 means no back-pressure).
	ReadyProbability float64
	// MaxGap bounds the idle cycles before a vector: half the vectors come back to
	// back, the others after 1…MaxGap idle cycles (0 means DefaultMaxGap, < 0 no gaps).
	MaxGap int
	// Rows are raw data rows (K values each) that half of the random vectors are
	// drawn from; nil means uniform random vectors only.
	Rows [][]float64
	// Force replaces a non-empty DIR that Emit did not write.
	Force bool
	// System also emits a system top: "" for none, SystemZynq for <prefix>_system
	// (docs/system-interface.md), with its testbench and expected outputs; its
	// reloadable readout is plan.Options.ReloadableReadout.
	System string
	// SystemNoScores sends one-beat records (class only) from the system top.
	SystemNoScores bool
	// Board is the target board (board.Names): "" or board.NameZedBoard for
	// the ZedBoard, board.NameIceBreaker for the iCEBreaker's UART top and
	// iCE40 flow (ice40.go).
	Board string
}

// Report describes an emitted design.
type Report struct {
	Dir       string     // the directory written
	Plan      *plan.Plan // the structure, also in DIR/design.json
	Files     []string   // every file written, DIR-relative, sorted
	RTLFiles  []string   // the Verilog files, dependencies first
	MemFiles  []string   // the ROM .mem files
	StreamTop string     // <prefix>_top
	AxisTop   string     // <prefix>_axis, or "" without Options.Axis
	SystemTop string     // <prefix>_system, or "" without Options.System
	Vectors   int        // test vectors written
	// StreamCycles, AxisCycles and SystemCycles are the simulated lengths of the
	// test-vector runs.
	StreamCycles int
	AxisCycles   int
	SystemCycles int
	// SystemII is the system's nominal cycles per vector (TIMING.II) and
	// SystemCyclesPerVector what its simulation measured in the steady state of
	// the free-running batch (0 when that batch is too short).
	SystemII              int
	SystemCyclesPerVector float64
	// Testbench reports whether testbench, Makefile, Vivado and XDC files were
	// written (they come from the testbench and constraints packages).
	Testbench bool
}

func (o *Options) normalize() error {
	if o.Vectors == 0 {
		o.Vectors = DefaultVectors
	}
	if o.Vectors < 1 {
		return fmt.Errorf("rtl: %d test vectors, want ≥ 1", o.Vectors)
	}
	if o.ReadyProbability == 0 {
		o.ReadyProbability = DefaultReadyProbability
	}
	if !(o.ReadyProbability > 0 && o.ReadyProbability <= 1) {
		return fmt.Errorf("rtl: ready probability %v outside (0, 1]", o.ReadyProbability)
	}
	switch {
	case o.MaxGap == 0:
		o.MaxGap = DefaultMaxGap
	case o.MaxGap < 0:
		o.MaxGap = 0
	case o.MaxGap > 0xffff:
		return fmt.Errorf("rtl: max gap %d does not fit the 16-bit tv_gap.mem words", o.MaxGap)
	}
	return nil
}

// Generate builds every file of the design in memory, as DIR-relative path →
// content, without touching the file system. Emit writes them. It stops with
// ctx's error when ctx is cancelled.
func Generate(ctx context.Context, m *model.Model, opts Options) (map[string][]byte, *Report, error) {
	if err := opts.normalize(); err != nil {
		return nil, nil, err
	}
	pl, err := plan.New(m, opts.Options)
	if err != nil {
		return nil, nil, fmt.Errorf("rtl: %w", err)
	}
	if err := checkSystem(pl, &opts); err != nil {
		return nil, nil, err
	}
	if err := checkBoard(pl, &opts); err != nil {
		return nil, nil, err
	}
	modelJSON, err := model.Marshal(m)
	if err != nil {
		return nil, nil, fmt.Errorf("rtl: %w", err)
	}
	var sys *sysSpec
	if opts.System != "" {
		shape := newSystemShape(pl, &opts)
		id, err := regmap.NewIdentity(pl, modelJSON, shape.Latency, shape.II, opts.ReloadableReadout, shape.Scores)
		if err != nil {
			return nil, nil, fmt.Errorf("rtl: %w", err)
		}
		sys = &sysSpec{shape: shape, id: id}
	}
	if opts.Axis && !pl.AxisOK {
		return nil, nil, fmt.Errorf("rtl: the AXI4-Stream wrapper needs AW ≤ %d and LW ≤ %d, this design has AW=%d, LW=%d",
			plan.MaxAxisScoreW, plan.MaxAxisLevelW, pl.AW, pl.LW)
	}
	core, err := sim.New(m, pl)
	if err != nil {
		return nil, nil, fmt.Errorf("rtl: %w", err)
	}
	st, err := vectorSet(m, pl, &opts)
	if err != nil {
		return nil, nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, nil, fmt.Errorf("rtl: %w", err)
	}
	stream, err := core.RunStream(ctx, st)
	if err != nil {
		return nil, nil, fmt.Errorf("rtl: simulate the stream top: %w", err)
	}
	var axis *sim.Run
	if opts.Axis {
		if axis, err = core.RunAxis(ctx, st); err != nil {
			return nil, nil, fmt.Errorf("rtl: simulate the AXI4-Stream wrapper: %w", err)
		}
		junk := 0
		for _, j := range st.AxisJunk {
			if j != 0 {
				junk++
			}
		}
		if axis.Dropped != junk {
			return nil, nil, fmt.Errorf("rtl: internal error: the AXI4-Stream wrapper dropped %d frames, %d were malformed", axis.Dropped, junk)
		}
	}
	if err := crossCheck(ctx, m, st, stream, axis); err != nil {
		return nil, nil, err
	}
	var sysVecs map[string][]byte
	var sysParams []param
	if sys != nil {
		if sysVecs, sysParams, sys.cyclesPerVector, err = simulateSystem(ctx, m, pl, core, sys, st, &opts); err != nil {
			return nil, nil, err
		}
	}

	files := map[string][]byte{}
	rtlNames, vfiles, err := verilogFiles(m, pl, opts.Axis, sys)
	if err != nil {
		return nil, nil, err
	}
	for name, b := range vfiles {
		files[name] = b
	}
	var memNames []string
	for name, b := range pl.ROMFiles(m) {
		files[name] = b
		memNames = append(memNames, name)
	}
	slices.Sort(memNames)
	for name, b := range vectorFiles(m, pl, st, stream, axis, sysParams) {
		files[name] = b
	}
	for name, b := range sysVecs {
		files[name] = b
	}
	if files["design.json"], err = pl.JSON(); err != nil {
		return nil, nil, err
	}
	files["model.json"] = modelJSON
	rep := &Report{Plan: pl, RTLFiles: rtlNames, MemFiles: memNames, StreamTop: pl.Prefix + "_top",
		Vectors: len(st.Inputs), StreamCycles: stream.Cycles}
	if opts.Axis {
		rep.AxisTop = pl.Prefix + "_axis"
		rep.AxisCycles = axis.Cycles
	}
	if sys != nil {
		rep.SystemTop = pl.Prefix + "_system"
		rep.SystemCycles = sys.cycles
		rep.SystemII = sys.shape.II
		rep.SystemCyclesPerVector = sys.cyclesPerVector
	}
	d := tbDesign{Prefix: pl.Prefix, StreamTop: rep.StreamTop, AxisTop: rep.AxisTop, SystemTop: rep.SystemTop, RTLFiles: rtlNames, StreamRTLFiles: streamTopFiles(pl, rtlNames),
		MemFiles: memNames, Part: Part, ClockPeriodNS: ClockPeriodNS}
	if tbFiles != nil {
		tb, err := tbFiles(d)
		if err != nil {
			return nil, nil, fmt.Errorf("rtl: testbench files: %w", err)
		}
		for name, b := range tb {
			if _, dup := files[name]; dup {
				return nil, nil, fmt.Errorf("rtl: testbench file %s collides with a generated file", name)
			}
			files[name] = b
		}
		rep.Testbench = true
	}
	if boardXDC != nil {
		files[constraints.XDCPath] = boardXDC(d)
	}
	if sys != nil && systemExtraFiles != nil {
		if err := systemExtraFiles(files, m, pl, sys.id, rep.SystemTop, rtlNames, memNames); err != nil {
			return nil, nil, err
		}
	}
	if opts.Board == board.NameIceBreaker && rep.Testbench {
		if err := addICE40Files(files, m, pl, d.StreamRTLFiles, memNames); err != nil {
			return nil, nil, err
		}
	}
	files[designdir.MarkerFile] = []byte("This directory was written by `hdlgen emit`; the next emit into it replaces it as a whole.\n")
	for name := range files {
		rep.Files = append(rep.Files, name)
	}
	slices.Sort(rep.Files)
	return files, rep, nil
}

// ctxVectors is the number of vectors checked between two checks of the context.
const ctxVectors = 256

// Emit generates the design of m and writes it to dir: rtl/*.v, mem/*.mem,
// vectors/*, design.json, model.json and, from the testbench and constraints
// packages, tb/, Makefile, vivado/ and constraints/. The files are built in a
// temporary sibling directory that replaces dir only when complete, so a failed
// emit leaves dir as it was. A non-empty dir not written by Emit is refused unless
// opts.Force. It stops with ctx's error, writing nothing, when ctx is cancelled.
func Emit(ctx context.Context, m *model.Model, opts Options, dir string) (*Report, error) {
	files, rep, err := Generate(ctx, m, opts)
	if err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("rtl: %w", err)
	}
	abs, err := designdir.Install(dir, files, opts.Force)
	if err != nil {
		return nil, fmt.Errorf("rtl: %w", err)
	}
	rep.Dir = abs
	rep.Files = append(rep.Files, designdir.ManifestFile)
	slices.Sort(rep.Files)
	return rep, nil
}

// checkRel rejects paths that would leave DIR (designdir.CheckRel).
func checkRel(name string) error { return designdir.CheckRel(name) }

// crossCheck compares the simulator's scores with the model package's own
// arithmetic: a disagreement is a bug in hdlgen, never in the input.
func crossCheck(ctx context.Context, m *model.Model, st sim.Stimulus, runs ...*sim.Run) error {
	net, err := m.Integer()
	if err != nil {
		return fmt.Errorf("rtl: %w", err)
	}
	h := make([]int, m.N())
	for v, in := range st.Inputs {
		if v%ctxVectors == 0 && ctx.Err() != nil {
			return fmt.Errorf("rtl: %w", ctx.Err())
		}
		net.HiddenIntsTo(h, in)
		want := m.Readout.Scores(h, m.L())
		for _, run := range runs {
			if run == nil {
				continue
			}
			o := run.Outputs[v]
			if !cmp.Equal(want, o.Scores) || o.Class != model.ArgmaxInt(want) {
				return fmt.Errorf("rtl: internal error: vector %d: simulator gives class %d scores %v, the model %d %v",
					v, o.Class, o.Scores, model.ArgmaxInt(want), want)
			}
		}
	}
	return nil
}

func quote(s string) string { return strconv.QuoteToASCII(s) }
