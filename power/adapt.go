package power

import (
	"fmt"

	"github.com/hdlgen/hdlgen/board"
	"github.com/hdlgen/hdlgen/model"
	"github.com/hdlgen/hdlgen/rtl/plan"
)

// Utilisation is resources r as percentages of device dev: "LUT 1.2 %, FF
// 0.5 %, DSP48E1 0.0 %, BRAM36 0.7 %". LUTs count LUT6 sites with the
// LUTRAM/SRL ones.
func Utilisation(r Resources, dev board.Device) string {
	pct := func(v float64, of int) float64 { return 100 * v / float64(of) }
	return fmt.Sprintf("LUT %.1f %%, FF %.1f %%, DSP48E1 %.1f %%, BRAM36 %.1f %%",
		pct(float64(r.LUTs+r.LUTRAM), dev.LUTs), pct(float64(r.FFs), dev.FFs),
		pct(float64(r.DSP48E1), dev.DSPs), pct(r.BRAM36, dev.BRAM36))
}

// CheckFits returns an error naming the resources over capacity, with the
// utilisation of every class, when r does not fit dev: an energy figure of a
// design that cannot be built means nothing.
func CheckFits(r Resources, dev board.Device) error {
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
	if err := CheckFits(r, board.XC7Z020); err != nil {
		return Estimate{}, "", fmt.Errorf("power: P = %d: %w", p, err)
	}
	e, err = EvaluatePlan(des, r, pl.Latency, pl.II, params)
	return e, fmt.Sprintf("resources: analytic model with the readout codes' effective width %d bits (emit and synthesise the design for Yosys counts); latency: exact, from rtl/plan", des.EffBits), err
}
