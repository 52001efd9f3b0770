package model

import (
	"fmt"
	"math"
)

// Normalizer maps raw features to [0, 1] with per-feature min/max taken from the
// training rows (docs/semantics.md §1).
type Normalizer struct {
	Min []float64 `json:"min"`
	Max []float64 `json:"max"`
}

// FitNormalizer returns the min/max of each of the k columns of the row-major m×k
// matrix x. It panics on an empty matrix.
func FitNormalizer(x []float64, m, k int) Normalizer {
	if m <= 0 || k <= 0 || len(x) < m*k {
		panic(fmt.Sprintf("model: FitNormalizer on %d×%d matrix with %d values", m, k, len(x)))
	}
	nz := Normalizer{Min: make([]float64, k), Max: make([]float64, k)}
	copy(nz.Min, x[:k])
	copy(nz.Max, x[:k])
	for r := 1; r < m; r++ {
		row := x[r*k : (r+1)*k]
		for i, v := range row {
			if v < nz.Min[i] {
				nz.Min[i] = v
			}
			if v > nz.Max[i] {
				nz.Max[i] = v
			}
		}
	}
	return nz
}

// Features is the number of features the normalizer was fitted on.
func (nz Normalizer) Features() int { return len(nz.Min) }

// ApplyTo writes the normalised, clamped features of one raw row into dst.
func (nz Normalizer) ApplyTo(dst, row []float64) {
	if len(dst) != len(nz.Min) || len(row) != len(nz.Min) {
		panic(fmt.Sprintf("model: normalizing a row of %d features into %d with a %d-feature normalizer", len(row), len(dst), len(nz.Min)))
	}
	for i, v := range row {
		lo, hi := nz.Min[i], nz.Max[i]
		if !(hi > lo) {
			dst[i] = 0
			continue
		}
		x := (v - lo) / (hi - lo)
		if math.IsInf(hi-lo, 1) {
			// The range is wider than the largest float64: halve every term
			// (exact for these magnitudes) so that the width is finite.
			x = (v/2 - lo/2) / (hi/2 - lo/2)
		}
		switch {
		case x < 0 || x != x: // NaN maps to 0 like a value below the range
			x = 0
		case x > 1:
			x = 1
		}
		dst[i] = x
	}
}

// Apply normalises all rows of the row-major m×k matrix x into a new matrix.
func (nz Normalizer) Apply(x []float64, m int) []float64 {
	k := len(nz.Min)
	out := make([]float64, m*k)
	for r := 0; r < m; r++ {
		nz.ApplyTo(out[r*k:(r+1)*k], x[r*k:(r+1)*k])
	}
	return out
}
