package model

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// mulIntsNaive is Σ_i W[j][i]·x[i], one sign at a time.
func mulIntsNaive(s *SignMatrix, dst, x []int) {
	for j := range dst {
		sum := 0
		for i, v := range x {
			sum += s.Weight(j, i) * v
		}
		dst[j] = sum
	}
}

// TestMulIntsMatchesNaive: the bit-plane product equals the sign-by-sign
// sum for widths around the word size and value ranges from a constant to
// wide, negative and positive.
func TestMulIntsMatchesNaive(t *testing.T) {
	for _, tc := range []struct {
		rows, cols int
		lo, hi     int // x drawn in [lo, hi]
	}{
		{1, 1, -3, 3},
		{5, 63, -1, 1},
		{7, 64, 0, 0},
		{9, 65, -15, 15},
		{4, 128, 5, 5},
		{12, 200, -7, 40},
		{3, 333, -1000, 1000},
		{2, 17, 3, 9},
	} {
		t.Run(fmt.Sprintf("%dx%d[%d,%d]", tc.rows, tc.cols, tc.lo, tc.hi), func(t *testing.T) {
			r := rand.New(rand.NewPCG(uint64(tc.rows), uint64(tc.cols)))
			s := NewSignMatrix(tc.rows, tc.cols)
			for j := 0; j < tc.rows; j++ {
				for i := 0; i < tc.cols; i++ {
					s.SetNegative(j, i, r.IntN(2) == 1)
				}
			}
			x := make([]int, tc.cols)
			for i := range x {
				x[i] = tc.lo + r.IntN(tc.hi-tc.lo+1)
			}
			got, want := make([]int, tc.rows), make([]int, tc.rows)
			s.MulInts(got, x)
			mulIntsNaive(s, want, x)
			if d := cmp.Diff(want, got); d != "" {
				t.Errorf("MulInts (-naive +got):\n%s", d)
			}
		})
	}
}
