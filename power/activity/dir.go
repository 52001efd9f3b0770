package activity

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"

	"github.com/hdlgen/hdlgen/power"
	"github.com/hdlgen/hdlgen/synth"
)

// YosysResources converts a synthesis report into the power model's resources.
func YosysResources(r *synth.Report) power.Resources {
	return power.Resources{LUTs: r.EstimatedLCs, FFs: r.FFs, CARRY4: r.CARRY4, MUXF: r.MUXF7 + r.MUXF8,
		DSP48E1: r.DSP48E1, BRAM36: r.BRAM36(), LUTRAM: r.LUTRAM + r.SRL, Source: "yosys"}
}

// DirOptions control EstimateDir.
type DirOptions struct {
	Params power.Params
	// RunSynth runs Yosys when DIR has no current report; otherwise a missing
	// or stale report means the analytic model.
	RunSynth bool
	Synth    synth.Options
}

// EstimateDir estimates an emitted design directory (written by rtl.Emit):
// with the resources of its current Yosys report when there is one (or
// RunSynth makes one), else with the analytic model; the latency is the
// plan's exact one. note says where the resources came from.
func EstimateDir(ctx context.Context, dir string, o DirOptions) (e power.Estimate, note string, err error) {
	d, err := synth.LoadDesign(dir)
	if err != nil {
		return power.Estimate{}, "", err
	}
	des := power.DesignOfModel(d.Plan, d.Model) // the readout codes' effective width
	var rep *synth.Report
	if o.RunSynth {
		rep, err = synth.Run(ctx, dir, o.Synth)
	} else {
		rep, err = synth.Cached(ctx, dir, o.Synth)
	}
	var r power.Resources
	switch {
	case err != nil && errors.Is(err, synth.ErrNoYosys) && !o.RunSynth:
		note = "resources: analytic model (yosys is not installed, so a cached report cannot be checked)"
	case err != nil:
		return power.Estimate{}, "", err
	case rep != nil:
		r = YosysResources(rep)
		note = "resources: Yosys report " + filepath.Join(dir, synth.ReportFile)
	default:
		note = "resources: analytic model (no current Yosys report; run hdlgen synth DIR or pass --synth)"
	}
	if rep == nil {
		if r, err = power.Analytic(des); err != nil {
			return power.Estimate{}, "", err
		}
	}
	if err := power.CheckFits(r, synth.XC7Z020); err != nil {
		return power.Estimate{}, "", fmt.Errorf("power: %s: %w", dir, err)
	}
	e, err = power.EvaluatePlan(des, r, d.Plan.Latency, d.Plan.II, o.Params)
	note += "; latency: exact, from design.json"
	return e, note, err
}
