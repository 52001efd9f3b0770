package model

import (
	"math"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestNormalizer(t *testing.T) {
	x := []float64{
		1, 5, -2,
		3, 5, 0,
		2, 5, 2,
	}
	nz := FitNormalizer(x, 3, 3)
	if diff := cmp.Diff(Normalizer{Min: []float64{1, 5, -2}, Max: []float64{3, 5, 2}}, nz); diff != "" {
		t.Fatalf("fit (-want +got):\n%s", diff)
	}
	tests := []struct {
		raw, want []float64
	}{
		{[]float64{2, 5, 0}, []float64{0.5, 0, 0.5}},
		{[]float64{0, 100, 9}, []float64{0, 0, 1}},             // clamped; constant feature → 0
		{[]float64{math.NaN(), 5, -9}, []float64{0, 0, 0}},     // NaN maps to 0
		{[]float64{3, math.Inf(1), 2}, []float64{1, 0, 1}},     // max maps to 1
		{[]float64{math.Inf(-1), 5, 1}, []float64{0, 0, 0.75}}, // −Inf clamps to 0
	}
	for _, tc := range tests {
		got := make([]float64, 3)
		nz.ApplyTo(got, tc.raw)
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("ApplyTo(%v) (-want +got):\n%s", tc.raw, diff)
		}
	}
}
