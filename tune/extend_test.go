package tune

import (
	"math"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestEdgeWithinSE is the extension's stop rule: it extends (false) when
// the largest N is clearly the best, and stops (true) when a smaller N's
// validation accuracy is within one standard error of the largest's.
func TestEdgeWithinSE(t *testing.T) {
	curve := func(acc ...float64) []CurvePoint {
		var c []CurvePoint
		for i, a := range acc {
			c = append(c, CurvePoint{N: 500 * (i + 1), Accuracy: a})
		}
		return c
	}
	type out struct {
		N      int
		Within bool
	}
	for _, tc := range []struct {
		name  string
		curve []CurvePoint
		se    float64
		want  out
	}{
		{"edge clearly best", curve(0.80, 0.85, 0.90), 0.01, out{1000, false}},
		{"edge just beyond one SE", curve(0.80, 0.879, 0.90), 0.02, out{1000, false}},
		{"smaller N within one SE", curve(0.80, 0.895, 0.90), 0.01, out{1000, true}},
		{"exactly one SE", curve(0.80, 0.89, 0.90), 0.01, out{1000, true}},
		{"best smaller N is not the next", curve(0.895, 0.85, 0.90), 0.01, out{500, true}},
		{"no spread: only ties stop", curve(0.80, 0.90, 0.90), 0, out{1000, true}},
		{"no spread, edge better", curve(0.80, 0.89, 0.90), 0, out{1000, false}},
		{"one point", curve(0.90), 0.01, out{0, false}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			n, within := EdgeWithinSE(tc.curve, tc.se)
			if diff := cmp.Diff(tc.want, out{n, within}); diff != "" {
				t.Errorf("EdgeWithinSE (-want +got):\n%s", diff)
			}
		})
	}
}

// TestStdErr is the standard error both the stop rule and the build's
// default tolerance use: the standard deviation over all values / √count.
func TestStdErr(t *testing.T) {
	type out struct {
		SE float64
		N  int
		OK bool
	}
	for _, tc := range []struct {
		name string
		a    Accuracy
		want out
	}{
		{"two seeds of two splits", Accuracy{Std: 0.02, PerSeed: [][]float64{{0.9, 0.92}, {0.88, 0.9}}}, out{0.01, 4, true}},
		{"one value", Accuracy{Std: 0, PerSeed: [][]float64{{0.9}}}, out{0, 1, false}},
		{"none", Accuracy{}, out{0, 0, false}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			se, n, ok := tc.a.StdErr()
			if diff := cmp.Diff(tc.want, out{se, n, ok}, cmp.Comparer(func(x, y float64) bool { return math.Abs(x-y) < 1e-12 })); diff != "" {
				t.Errorf("StdErr (-want +got):\n%s", diff)
			}
		})
	}
}
