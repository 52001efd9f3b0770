package power

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"

	"github.com/hdlgen/hdlgen/model"
	"github.com/hdlgen/hdlgen/rtl/plan"
	"github.com/hdlgen/hdlgen/synth"
	"github.com/hdlgen/hdlgen/timing"
)

// YosysResources converts a synthesis report into the power model's resources.
func YosysResources(r *synth.Report) Resources {
	return Resources{LUTs: r.EstimatedLCs, FFs: r.FFs, CARRY4: r.CARRY4, MUXF: r.MUXF7 + r.MUXF8,
		DSP48E1: r.DSP48E1, BRAM36: r.BRAM36(), LUTRAM: r.LUTRAM + r.SRL, Source: "yosys"}
}

// DirOptions control EstimateDir.
type DirOptions struct {
	Params Params
	// RunSynth runs Yosys when DIR has no current report; otherwise a missing
	// or stale report means the analytic model.
	RunSynth bool
	Synth    synth.Options
}

// EstimateDir estimates an emitted design directory (written by rtl.Emit):
// with the resources of its current Yosys report when there is one (or
// RunSynth makes one), else with the analytic model; the latency is the
// plan's exact one. note says where the resources came from.
func EstimateDir(ctx context.Context, dir string, o DirOptions) (e Estimate, note string, err error) {
	d, err := synth.LoadDesign(dir)
	if err != nil {
		return Estimate{}, "", err
	}
	des := DesignOfModel(d.Plan, d.Model) // the readout codes' effective width
	var rep *synth.Report
	if o.RunSynth {
		rep, err = synth.Run(ctx, dir, o.Synth)
	} else {
		rep, err = synth.Cached(ctx, dir, o.Synth)
	}
	var r Resources
	switch {
	case err != nil && errors.Is(err, synth.ErrNoYosys) && !o.RunSynth:
		note = "resources: analytic model (yosys is not installed, so a cached report cannot be checked)"
	case err != nil:
		return Estimate{}, "", err
	case rep != nil:
		r = YosysResources(rep)
		note = "resources: Yosys report " + filepath.Join(dir, synth.ReportFile)
	default:
		note = "resources: analytic model (no current Yosys report; run hdlgen synth DIR or pass --synth)"
	}
	if rep == nil {
		if r, err = Analytic(des); err != nil {
			return Estimate{}, "", err
		}
	}
	if err := CheckFits(r, synth.XC7Z020); err != nil {
		return Estimate{}, "", fmt.Errorf("power: %s: %w", dir, err)
	}
	e, err = EvaluatePlan(des, r, d.Plan.Latency, d.Plan.II, o.Params)
	note += "; latency: exact, from design.json"
	if rep != nil {
		t, terr := timing.ForDir(dir, rep, &timing.Zynq7Minus1)
		if terr != nil {
			note += "\ntiming: " + terr.Error()
		} else {
			note += fmt.Sprintf("\nFmax %s, estimated by hdlgen's static timing model (docs/timing.md); worst path %s",
				t.Headline(o.Params.ClockHz/1e6), t.PathShort())
		}
	}
	return e, note, err
}

// Utilisation is resources r as percentages of device dev: "LUT 1.2 %, FF
// 0.5 %, DSP48E1 0.0 %, BRAM36 0.7 %". LUTs count LUT6 sites with the
// LUTRAM/SRL ones.
func Utilisation(r Resources, dev synth.Device) string {
	pct := func(v float64, of int) float64 { return 100 * v / float64(of) }
	return fmt.Sprintf("LUT %.1f %%, FF %.1f %%, DSP48E1 %.1f %%, BRAM36 %.1f %%",
		pct(float64(r.LUTs+r.LUTRAM), dev.LUTs), pct(float64(r.FFs), dev.FFs),
		pct(float64(r.DSP48E1), dev.DSPs), pct(r.BRAM36, dev.BRAM36))
}

// CheckFits returns an error naming the resources over capacity, with the
// utilisation of every class, when r does not fit dev: an energy figure of a
// design that cannot be built means nothing.
func CheckFits(r Resources, dev synth.Device) error {
	if ok, over := dev.Fits(r.LUTs+r.LUTRAM, r.FFs, r.DSP48E1, r.BRAM36); !ok {
		return fmt.Errorf("the design does not fit the %s (%s; utilisation %s, %s resources)", dev.Part, over, Utilisation(r, dev), r.Source)
	}
	return nil
}

// EstimateModel estimates model m planned at parallelism p (rtl/plan) with
// the analytic resource model and the readout codes' effective width.
func EstimateModel(m *model.Model, p int, params Params) (e Estimate, note string, err error) {
	pl, err := plan.New(m, plan.Options{Parallel: p})
	if err != nil {
		return Estimate{}, "", err
	}
	des := DesignOfModel(pl, m)
	r, err := Analytic(des)
	if err != nil {
		return Estimate{}, "", err
	}
	if err := CheckFits(r, synth.XC7Z020); err != nil {
		return Estimate{}, "", fmt.Errorf("power: P = %d: %w", p, err)
	}
	e, err = EvaluatePlan(des, r, pl.Latency, pl.II, params)
	return e, fmt.Sprintf("resources: analytic model with the readout codes' effective width %d bits (emit and synthesise the design for Yosys counts); latency: exact, from rtl/plan", des.EffBits), err
}
