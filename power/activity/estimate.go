package activity

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/hdlgen/hdlgen/power"
	"github.com/hdlgen/hdlgen/synth"
)

// Options control Estimate.
type Options struct {
	Params  power.Params
	Vectors int // per simulation run (0 means DefaultVectors)
	Stride  int // MeasureOptions.Stride
	// KeepBuild keeps DIR/build/activity, the Verilator model, so that the
	// next run on an unchanged netlist skips its build.
	KeepBuild bool
	Synth     synth.Options
	Log       io.Writer
}

// Report is the activity-based estimate of an emitted design next to its
// vectorless one (both with Yosys's resources).
type Report struct {
	Vectorless power.Estimate `json:"vectorless"`
	// VectorlessStreamJ is the vectorless dynamic energy per classification
	// of a saturated stream: DynamicW × II / f.
	VectorlessStreamJ float64 `json:"vectorless_stream_j"`
	// Single is one classification at a time (energy charged over the
	// latency), Stream a saturated stream (charged over II cycles).
	Single ActivityPower `json:"single"`
	Stream ActivityPower `json:"stream"`
	Note   string        `json:"note"`
}

// Estimate synthesises dir (cached), counts the toggles of its netlist over
// the test vectors in both modes (Measure) and returns the activity-based
// power and energy (ActivityFromNets) with the vectorless ones.
func Estimate(ctx context.Context, dir string, o Options) (*Report, error) {
	p, err := o.Params.Normalized()
	if err != nil {
		return nil, err
	}
	e, note, err := EstimateDir(ctx, dir, DirOptions{Params: p, RunSynth: true, Synth: o.Synth})
	if err != nil {
		return nil, err
	}
	if e.Resources.Source != "yosys" {
		return nil, fmt.Errorf("power: %s: activity needs the Yosys netlist (%s)", dir, note)
	}
	act, err := Measure(ctx, dir, MeasureOptions{Vectors: o.Vectors, Stride: o.Stride, KeepBuild: o.KeepBuild, Synth: o.Synth, Log: o.Log})
	if err != nil {
		return nil, err
	}
	nets := ClassifyNets(act.Netlist)
	rep := &Report{Vectorless: e, VectorlessStreamJ: e.DynamicW * float64(e.II) / p.ClockHz, Note: note}
	for _, mode := range []string{ModeSingle, ModeStream} {
		run := act.Run(mode)
		if run == nil {
			return nil, fmt.Errorf("power: %s: no %s run", dir, mode)
		}
		ap, err := ActivityFromNets(act.Netlist, nets, e.Resources, toggleRun{run}, p)
		if err != nil {
			return nil, err
		}
		ap.Mode, ap.Vectors, ap.Cycles = mode, run.Vectors, run.Cycles
		if mode == ModeSingle {
			ap.Charge(e.Cycles, p.ClockHz)
			rep.Single = ap
		} else {
			ap.Charge(e.II, p.ClockHz)
			rep.Stream = ap
		}
	}
	return rep, nil
}

// toggleRun adapts a ToggleRun to power.NetActivity.
type toggleRun struct{ r *ToggleRun }

func (t toggleRun) Rate(b synth.Bit) float64     { return t.r.Rate(b) }
func (t toggleRun) HighFrac(b synth.Bit) float64 { return t.r.High[b] }

// WriteText writes the report as text: the vectorless figure, then per mode
// the measured toggle rates per class, power and energy.
func (a *Report) WriteText(w io.Writer) error {
	e := a.Vectorless
	var b strings.Builder
	fj, fw := power.FormatEnergy, power.FormatPower
	fmt.Fprintf(&b, "design:   %s\n", e.Design.String())
	r := e.Resources
	fmt.Fprintf(&b, "resources (%s): LC (LUT6 sites) %d, FF %d, CARRY4 %d, MUXF %d, DSP48E1 %d, BRAM36 %.1f, LUTRAM/SRL %d\n",
		r.Source, r.LUTs, r.FFs, r.CARRY4, r.MUXF, r.DSP48E1, r.BRAM36, r.LUTRAM)
	fmt.Fprintf(&b, "latency:  %d cycles, II %d cycles, at %.4g MHz\n", e.Cycles, e.II, e.ClockHz/1e6)
	fmt.Fprintf(&b, "vectorless (%.3g %% toggle): dynamic %s (logic %s, clock %s); energy per classification %s at the latency, %s in a saturated stream\n",
		100*e.Toggle, fw(e.DynamicW), fw(e.LogicW), fw(e.ClockW), fj(e.DynamicJ), fj(a.VectorlessStreamJ))
	for _, ap := range []ActivityPower{a.Single, a.Stream} {
		what := "one classification at a time, charged over the latency"
		if ap.Mode == ModeStream {
			what = "saturated stream, charged over II"
		}
		fmt.Fprintf(&b, "activity, %s (%s; %d vectors, %d cycles simulated at gate level):\n", ap.Mode, what, ap.Vectors, ap.Cycles)
		fmt.Fprintf(&b, "  %-8s %6s %7s %8s %9s %10s %10s\n", "class", "nets", "loads", "rate", "weighted", "vectorless", "activity")
		for _, c := range ap.Classes {
			if c.Nets == 0 && c.Count == 0 {
				continue
			}
			vl, aw := "", ""
			if c.Count > 0 {
				vl, aw = fw(c.VectorlessW), fw(c.W)
			}
			fmt.Fprintf(&b, "  %-8s %6d %7d %7.2f%% %8.2f%% %10s %10s\n", c.Class, c.Nets, c.Loads, 100*c.Rate, 100*c.WeightedRate, vl, aw)
		}
		fmt.Fprintf(&b, "  block RAM reads: duty %.2f, %s\n", ap.BRAMDuty, fw(ap.BRAMW))
		fmt.Fprintf(&b, "  dynamic %s (logic %s, clock %s); energy per classification %s (%d cycles)\n",
			fw(ap.DynamicW), fw(ap.LogicW), fw(ap.ClockW), fj(ap.EnergyJ), ap.ChargedCycles)
	}
	b.WriteString(a.Note + "\n")
	_, err := io.WriteString(w, b.String())
	return err
}
