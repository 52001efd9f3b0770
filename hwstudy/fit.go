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

// LUTFit is one network type's fitted LUT factors per block and the α of
// its few-groups scale (power.LUTGroupScale).
type LUTFit struct {
	Factors map[string]float64
	Alpha   float64
}

// HeldOutSections are the calibration sections the LUT factors are not
// fitted to: their rows only measure the model (in the error bands and
// calibration.md's designs), and, like Uncalibrated's, are not held to
// Claimed: the claims are what the fitted designs show. range-edges and range-wide were synthesised after the fit of
// 2026-11-28 and are kept out of it, so that its rows measure the model out of sample and
// adding them refits nothing (a refit changes the sizer's designs).
// range-conj measures the conj, whose model is not fitted (Uncalibrated).
var HeldOutSections = []int{power.CalRangeEdges, power.CalRangeWide, power.CalRangeConj, power.CalRangeIntConj}

// FitRows are the rows of c the LUT factors are fitted to: all but those of
// HeldOutSections.
func (c *Calibration) FitRows() []CalibrationRow {
	var out []CalibrationRow
	for _, r := range c.Rows {
		if !heldOut(r) {
			out = append(out, r)
		}
	}
	return out
}

// heldOutNames are the row names of HeldOutSections (seed 1).
var heldOutNames = func() map[string]bool {
	held := map[string]bool{}
	for _, sec := range HeldOutSections {
		for _, s := range shapesOf(power.CalibrationSection(sec)) {
			held[s.Name()] = true
		}
	}
	return held
}()

// heldOut reports whether r is a row of HeldOutSections.
func heldOut(r CalibrationRow) bool { return heldOutNames[r.Name] }

// lutAlphaStep and lutAlphaMax are the grid FitLUTFactors searches α over.
const (
	lutAlphaStep = 0.01
	lutAlphaMax  = 1.0
)

// FitLUTFactors fits the analytic model's per-block LUT factors
// (power.LUTFactors) and the few-groups scale's α (power.LUTGroupScale) to
// the Yosys LUT counts of a calibration's rows, for each architecture
// separately: for each α on a grid of step 0.01 over [0, 1], the factors
// f ≥ 0 that minimise
//
//	max_rows |s_α(G)·Σ_blocks f_b·raw_b / LUT_yosys − 1| + μ·Σ_blocks |f_b − 1|
//
// with raw_b the block's structural LUT count (power.Breakdown), s_α the
// few-groups scale and μ = LUTFitPull, and of those the α with the least
// objective (ties: the smaller α): the largest relative error, which is what
// a tolerance claims, plus a weak pull towards 1 that settles the blocks the
// rows cannot tell apart (a block with no raw count in any row keeps 1). Each
// step is a linear program (lp.Simplex). Only the seed-1 row of each shape is
// used: the other seeds measure Yosys's own spread. FF, CARRY4, DSP48E1 and
// block RAM are structural counts and have no factors.
func FitLUTFactors(rows []CalibrationRow, mu float64) (map[model.Arch]LUTFit, error) {
	out := map[model.Arch]LUTFit{}
	for _, arch := range power.Networks() {
		var names []string
		for name := range power.LUTFactors(arch) {
			names = append(names, name)
		}
		slices.Sort(names)
		var x [][]float64 // per row: raw LUT count per block over the Yosys count
		var logG []float64
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
			logG = append(logG, math.Log2(float64((r.Design.N+r.Design.P()-1)/r.Design.P())))
		}
		if len(x) == 0 {
			continue
		}
		best, bestObj := LUTFit{}, math.Inf(1)
		var lastErr error
		for k := 0; float64(k)*lutAlphaStep <= lutAlphaMax+1e-9; k++ {
			alpha := float64(k) * lutAlphaStep
			xs := make([][]float64, len(x))
			for i, row := range x {
				sc := 1 / (1 + alpha*math.Max(0, power.FewGroupsLog2-logG[i]))
				xs[i] = make([]float64, len(row))
				for j, v := range row {
					xs[i][j] = v * sc
				}
			}
			f, err := fitMinimax(xs, mu)
			if err != nil {
				lastErr = fmt.Errorf("hwstudy: fit %s LUT factors (α = %g): %w", arch, alpha, err)
				continue // a degenerate program at this α; the grid goes on
			}
			obj := 0.0
			for _, row := range xs {
				e := -1.0
				for j, v := range row {
					e += v * f[j]
				}
				obj = math.Max(obj, math.Abs(e))
			}
			for _, v := range f {
				obj += mu * math.Abs(v-1)
			}
			if obj < bestObj-1e-9 {
				bestObj = obj
				best = LUTFit{Factors: map[string]float64{}, Alpha: alpha}
				for j, name := range names {
					best.Factors[name] = f[j]
				}
			}
		}
		if best.Factors == nil {
			return nil, lastErr
		}
		out[arch] = best
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

// LUTFitError is the relative error of the LUT count (per cent) that fit f
// gives for row r.
func LUTFitError(r CalibrationRow, f LUTFit) (float64, error) {
	comps, err := power.Breakdown(r.Design)
	if err != nil {
		return 0, err
	}
	lut := 0.0
	for _, c := range comps {
		lut += c.RawLUT * f.Factors[c.Name]
	}
	g := float64((r.Design.N + r.Design.P() - 1) / r.Design.P())
	lut /= 1 + f.Alpha*math.Max(0, power.FewGroupsLog2-math.Log2(g))
	return relErrPct(math.Round(lut), float64(r.Yosys.LUTs)), nil
}
