package ridge

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestDiagInt8MatchesDiag: DiagInt8, given int8 rows one at a time through a
// reused buffer (and the column sums, or not), returns Diag's values for the
// same matrix as float64, bit for bit, for both regularisers, a constant
// column and fewer than two rows.
func TestDiagInt8MatchesDiag(t *testing.T) {
	for _, tc := range []struct{ m, n, bound int }{{0, 3, 1}, {1, 4, 3}, {2, 1, 1}, {7, 5, 3}, {300, 33, 15}, {2000, 17, 127}, {500, 1500, 3}} {
		for _, reg := range []Regularizer{Variance, Identity} {
			t.Run(fmt.Sprintf("%dx%d/±%d/%s", tc.m, tc.n, tc.bound, reg), func(t *testing.T) {
				rng := rand.New(rand.NewPCG(uint64(tc.m), uint64(tc.n)))
				a := make([]int8, tc.m*tc.n)
				h := make([]float64, tc.m*tc.n)
				for i := range a {
					if i%tc.n != 0 { // column 0 stays constant
						a[i] = int8(rng.IntN(2*tc.bound+1) - tc.bound)
						h[i] = float64(a[i])
					}
				}
				buf := make([]int8, tc.n)
				row := func(i int) []int8 {
					copy(buf, a[i*tc.n:])
					return buf
				}
				sums := make([]int64, tc.n)
				for i, v := range a {
					sums[i%tc.n] += int64(v)
				}
				want := reg.Diag(h, tc.m, tc.n)
				if diff := cmp.Diff(want, reg.DiagInt8(tc.m, tc.n, nil, row)); diff != "" {
					t.Errorf("DiagInt8 differs from Diag (-Diag +DiagInt8):\n%s", diff)
				}
				if diff := cmp.Diff(want, reg.DiagInt8(tc.m, tc.n, sums, row)); diff != "" {
					t.Errorf("DiagInt8 with the column sums differs from Diag (-Diag +DiagInt8):\n%s", diff)
				}
			})
		}
	}
}
