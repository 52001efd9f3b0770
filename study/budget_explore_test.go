package study

import (
	"fmt"
	"testing"

	"github.com/hdlgen/hdlgen/model"
	"github.com/hdlgen/hdlgen/power"
	"github.com/hdlgen/hdlgen/synth"
)

func TestExploreBudget(t *testing.T) {
	s := power.Shape{Arch: model.IntRVFL, K: 16, L: 4, Kappa: 3, Bits: 5}
	best := 1.0
	bp := 0
	for _, p := range power.DefaultPs {
		if p > 512 { break }
		e, err := power.EstimateAnalytic(power.Design{Shape: s, N: 512, P: p}, power.Params{})
		if err != nil { t.Fatal(err) }
		r := e.Resources
		ok, _ := synth.XC7Z020.Fits(r.LUTs+r.LUTRAM, r.FFs, r.DSP48E1, r.BRAM36)
		fmt.Println(p, e.BudgetedJ, ok)
		if ok && e.BudgetedJ < best { best, bp = e.BudgetedJ, p }
	}
	fmt.Println("median", best, bp)
	for _, b := range []float64{3.2e-6, best} {
		for _, sh := range []power.Shape{
			{Arch: model.IntRVFL, K: 16, L: 4, Kappa: 1, Bits: 5}, s,
			{Arch: model.IntRVFL, K: 16, L: 4, Kappa: 15, Bits: 5},
			{Arch: model.RVFL8, K: 16, L: 4},
			{Arch: model.IntRVFL, K: 262, L: 26, Kappa: 15, Bits: 5},
			{Arch: model.RVFL8, K: 262, L: 26},
			{Arch: model.RVFL8, K: 3, L: 2},
		} {
			z, err := power.Size(b, sh, power.SizeOptions{})
			fmt.Println(b, sh, z.N, z.P, err)
			z, err = power.Size(b, sh, power.SizeOptions{MaxN: 1500})
			fmt.Println("   cap", z.N, z.P, z.Estimate.BudgetedJ, err)
		}
	}
}
