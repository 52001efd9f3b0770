package tune

import (
	"math/rand/v2"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/hdlgen/hdlgen/linalg"
	"github.com/hdlgen/hdlgen/ridge"
)

// TestCountRoundedIsPredict: counting every readout's correct predictions
// in one product gives, readout by readout, what ridge.Predict and a
// comparison with the labels give — ties included (a readout of zeros
// predicts class 0 everywhere, ridge.Argmax's lowest index).
func TestCountRoundedIsPredict(t *testing.T) {
	for _, tc := range []struct {
		name                   string
		rows, n, classes, nl   int
		kappa, bound, zeroFrom int // zeroFrom: readouts from this index are all zero
	}{
		{"two classes", 50, 7, 2, 3, 1, 15, 3},
		{"26 classes, wide", 130, 64, 26, 5, 7, 15, 5},
		{"ties", 40, 5, 3, 4, 1, 1, 2},
		{"one row", 1, 9, 4, 2, 3, 3, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(uint64(tc.rows), uint64(tc.n)))
			h := make([]float64, tc.rows*tc.n)
			for i := range h {
				h[i] = float64(rng.IntN(2*tc.kappa+1) - tc.kappa)
			}
			y := make([]int, tc.rows)
			for i := range y {
				y[i] = rng.IntN(tc.classes)
			}
			ws := make([][]float64, tc.nl)
			for li := range ws {
				ws[li] = make([]float64, tc.classes*tc.n)
				if li >= tc.zeroFrom {
					continue
				}
				for i := range ws[li] {
					ws[li][i] = float64(rng.IntN(2*tc.bound+1) - tc.bound)
				}
			}
			want := make([]int, tc.nl)
			for li, w := range ws {
				for i, p := range ridge.Predict(h, tc.rows, tc.n, w, tc.classes, 1) {
					if p == y[i] {
						want[li]++
					}
				}
			}
			got := make([]int, tc.nl)
			countRounded(linalg.Engine{Threads: 1}, h, tc.rows, tc.n, ws, tc.classes, func(i int) int { return y[i] }, got)
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("counts (-ridge.Predict +countRounded):\n%s", diff)
			}
		})
	}
}
