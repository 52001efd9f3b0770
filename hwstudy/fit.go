package hwstudy

import (
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/optimize/convex/lp"

	"github.com/hdlgen/hdlgen/model"
	"github.com/hdlgen/hdlgen/power"
)

// LUTFitPull is the weight μ of the pull of every LUT factor towards 1 (the
// structural count itself) in FitLUTFactors.
const LUTFitPull = 0.01

// FitLUTFactors fits the analytic model's per-block LUT factors
// (power.LUTFactors) to the Yosys LUT counts of a calibration's rows, for each
// architecture separately: the factors f ≥ 0 that minimise
//
//	max_rows |Σ_blocks f_b·raw_b / LUT_yosys − 1| + μ·Σ_blocks |f_b − 1|
//
// with raw_b the block's structural LUT count (power.Breakdown) and μ =
// LUTFitPull: the largest relative error, which is what a tolerance claims,
// plus a weak pull towards 1 that settles the blocks the rows cannot tell
// apart (a block with no raw count in any row keeps 1). It is a linear
// program (lp.Simplex). Only the seed-1 row of each shape is used: the other
// seeds measure Yosys's own spread. FF, CARRY4, DSP48E1 and block RAM are
// structural counts and have no factors.
func FitLUTFactors(rows []CalibrationRow, mu float64) (map[model.Arch]map[string]float64, error) {
	out := map[model.Arch]map[string]float64{}
	for _, arch := range power.Networks() {
		var names []string
		for name := range power.LUTFactors(arch) {
			names = append(names, name)
		}
		slices.Sort(names)
		var x [][]float64 // per row: raw LUT count per block over the Yosys count
		for _, r := range rows {
			if r.Design.Arch != arch || r.Seed != 1 {
				continue
			}
			if r.Yosys.LUTs <= 0 {
				return nil, fmt.Errorf("hwstudy: fit: %s has no Yosys LUT count", r.Name)
			}
			comps, err := power.Breakdown(r.Design)
			if err != nil {
				return nil, fmt.Errorf("hwstudy: fit: %s: %w", r.Name, err)
			}
			raw := map[string]float64{}
			for _, c := range comps {
				raw[c.Name] = c.RawLUT
			}
			row := make([]float64, len(names))
			for j, name := range names {
				row[j] = raw[name] / float64(r.Yosys.LUTs)
			}
			x = append(x, row)
		}
		if len(x) == 0 {
			continue
		}
		f, err := fitMinimax(x, mu)
		if err != nil {
			return nil, fmt.Errorf("hwstudy: fit %s LUT factors: %w", arch, err)
		}
		out[arch] = map[string]float64{}
		for j, name := range names {
			out[arch][name] = f[j]
		}
	}
	return out, nil
}

// fitMinimax minimises max_i |x_i·f − 1| + μ·Σ_j |f_j − 1| over f ≥ 0 as the
// standard-form linear program over (f, d⁺, d⁻, t, s¹, s²) ≥ 0:
//
//	minimise t + μ·Σ (d⁺_j + d⁻_j)
//	x_i·f − t + s¹_i = 1,  x_i·f + t − s²_i = 1   (|x_i·f − 1| ≤ t)
//	f_j − d⁺_j + d⁻_j = 1                          (|f_j − 1| ≤ d⁺_j + d⁻_j)
func fitMinimax(x [][]float64, mu float64) ([]float64, error) {
	n, m := len(x[0]), len(x)
	t := 3 * n
	a := mat.NewDense(2*m+n, t+1+2*m, nil)
	b := make([]float64, 2*m+n)
	for i, row := range x {
		for j, v := range row {
			a.Set(2*i, j, v)
			a.Set(2*i+1, j, v)
		}
		a.Set(2*i, t, -1)
		a.Set(2*i+1, t, 1)
		a.Set(2*i, t+1+2*i, 1)
		a.Set(2*i+1, t+2+2*i, -1)
		b[2*i], b[2*i+1] = 1, 1
	}
	c := make([]float64, t+1+2*m)
	c[t] = 1
	for j := 0; j < n; j++ {
		a.Set(2*m+j, j, 1)
		a.Set(2*m+j, n+j, -1)
		a.Set(2*m+j, 2*n+j, 1)
		b[2*m+j] = 1
		c[n+j], c[2*n+j] = mu, mu
	}
	_, sol, err := lp.Simplex(c, a, b, 1e-10, nil)
	if err != nil {
		return nil, fmt.Errorf("linear program of %d factors over %d designs: %w", n, m, err)
	}
	return sol[:n], nil
}

// LUTFitError is the relative error of the LUT count (per cent) that factors f
// give for row r.
func LUTFitError(r CalibrationRow, f map[string]float64) (float64, error) {
	comps, err := power.Breakdown(r.Design)
	if err != nil {
		return 0, err
	}
	lut := 0.0
	for _, c := range comps {
		lut += c.RawLUT * f[c.Name]
	}
	return relErrPct(math.Round(lut), float64(r.Yosys.LUTs)), nil
}
