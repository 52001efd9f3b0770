package ridge

import (
	"fmt"

	"github.com/hdlgen/hdlgen/linalg"
)

// DiagInt8 is Diag for an m×n matrix of small integers given row by row:
// row(i) returns row i (n values, read before the next call, so the slice
// may be reused). It runs Diag's own code (one generic function) on the
// values converted to float64, rows 0…m−1 in order, so its result equals
// Diag of the same matrix as float64 bit for bit, without that matrix
// being built: the intRVFL's activations fit int8, and a subset of rows
// can be read in place. Only the column sums of the mean are integers:
// sums, when not nil, holds them (a caller may have them already), else
// DiagInt8 adds them up. Diag's float64 sums of integers are exact too
// (every partial sum is an integer below 2⁵³), so they are the same numbers.
func (r Regularizer) DiagInt8(m, n int, sums []int64, row func(i int) []int8) []float64 {
	return r.diagInt8(m, n, 1, sums, row)
}

// DiagInt8 is Regularizer.DiagInt8 with the zero-variance rule of s's
// method: R_jj = 0 for PinvCutoff, as NewNormal computes it.
func (s Solver) DiagInt8(m, n int, sums []int64, row func(i int) []int8) []float64 {
	if s.Method == PinvCutoff {
		return s.Reg.diagInt8(m, n, 0, sums, row)
	}
	return s.Reg.DiagInt8(m, n, sums, row)
}

// diagInt8 is DiagInt8 with zeroVar as R_jj of a zero-variance column.
func (r Regularizer) diagInt8(m, n int, zeroVar float64, sums []int64, row func(i int) []int8) []float64 {
	if r != Variance || m < 2 {
		return diagRows(r, m, n, zeroVar, nil, row)
	}
	if sums == nil {
		sums = make([]int64, n)
		for i := 0; i < m; i++ {
			for j, v := range row(i)[:n] {
				sums[j] += int64(v)
			}
		}
	}
	if len(sums) != n {
		panic(fmt.Sprintf("ridge: DiagInt8: %d column sums for %d columns", len(sums), n))
	}
	// diagRows's steps with its row loop on linalg's vector kernel (the
	// same operations on each element, so the same bits).
	mean := make([]float64, n)
	for j, s := range sums {
		mean[j] = float64(s) / float64(m)
	}
	d := make([]float64, n)
	for i := 0; i < m; i++ {
		linalg.AddSquaredDeviationsInt8(d, mean, row(i)[:n])
	}
	return finishVariance(d, m, zeroVar)
}

// diagRows computes the diagonal of R for the m×n matrix whose row i is
// row(i), with zeroVar as R_jj of a zero-variance column. sums, when not
// nil, holds the column sums (then only the squared deviations are summed
// here; sums is overwritten by the means).
func diagRows[T int8 | float64](r Regularizer, m, n int, zeroVar float64, sums []float64, row func(i int) []T) []float64 {
	d := make([]float64, n)
	switch r {
	case Identity:
		for j := range d {
			d[j] = 1
		}
		return d
	case Variance:
	default:
		panic(fmt.Sprintf("ridge: invalid regulariser %d", int(r)))
	}
	if m < 2 {
		for j := range d {
			d[j] = 1
		}
		return d
	}
	// Two passes (mean, then squared deviations) for accuracy, row by row
	// so that memory is read contiguously.
	mean := sums
	if mean == nil {
		mean = make([]float64, n)
		for i := 0; i < m; i++ {
			for j, v := range row(i)[:n] {
				mean[j] += float64(v)
			}
		}
	}
	for j := range mean {
		mean[j] /= float64(m)
	}
	for i := 0; i < m; i++ {
		for j, v := range row(i)[:n] {
			dv := float64(v) - mean[j]
			d[j] += float64(dv * dv) // rounded, never fused (DiagInt8's kernel relies on it)
		}
	}
	return finishVariance(d, m, zeroVar)
}

// finishVariance turns the sums of squared deviations d of m rows into
// variances (denominator m−1), with zeroVar for a zero variance.
func finishVariance(d []float64, m int, zeroVar float64) []float64 {
	for j := range d {
		d[j] /= float64(m - 1)
		if d[j] == 0 {
			d[j] = zeroVar
		}
	}
	return d
}
