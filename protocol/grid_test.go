package protocol

import (
	"math"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestBetter pins the one tie rule: most correct, then the smallest N, then
// the largest λ, then the smallest κ.
func TestBetter(t *testing.T) {
	base := Best{N: 100, Lambda: 1, Kappa: 3, Correct: 7}
	tests := []struct {
		name string
		a    Best
		want bool
	}{
		{"more correct wins over everything", Best{N: 1500, Lambda: 1.0 / 1024, Kappa: 15, Correct: 8}, true},
		{"fewer correct loses", Best{N: 50, Lambda: 32, Kappa: 1, Correct: 6}, false},
		{"tie: smaller N", Best{N: 50, Lambda: 1.0 / 1024, Kappa: 15, Correct: 7}, true},
		{"tie: larger N", Best{N: 150, Lambda: 32, Kappa: 1, Correct: 7}, false},
		{"tie, same N: larger λ", Best{N: 100, Lambda: 2, Kappa: 15, Correct: 7}, true},
		{"tie, same N: smaller λ", Best{N: 100, Lambda: 0.5, Kappa: 1, Correct: 7}, false},
		{"tie, same N and λ: smaller κ", Best{N: 100, Lambda: 1, Kappa: 1, Correct: 7}, true},
		{"tie, same N and λ: larger κ", Best{N: 100, Lambda: 1, Kappa: 7, Correct: 7}, false},
		{"equal is not better", base, false},
	}
	for _, tc := range tests {
		if got := Better(tc.a, base); got != tc.want {
			t.Errorf("%s: Better(%+v, %+v) = %v, want %v", tc.name, tc.a, base, got, tc.want)
		}
	}
}

// TestCoarseGrid: the wide grid's λ and κ, 17 of its N (every one a wide
// grid N), and about a third of its N³ work.
func TestCoarseGrid(t *testing.T) {
	c, w := CoarseGrid(), WideGrid()
	want := []int{50, 100, 150, 200, 250, 300, 350, 400, 450, 500, 600, 700, 800, 900, 1000, 1250, 1500}
	if diff := cmp.Diff(want, c.Ns); diff != "" {
		t.Errorf("N (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(Grid{Lambdas: w.Lambdas, Kappas: w.Kappas}, Grid{Lambdas: c.Lambdas, Kappas: c.Kappas}); diff != "" {
		t.Errorf("λ and κ differ from the wide grid's (-wide +coarse):\n%s", diff)
	}
	cube := func(ns []int) (s float64) {
		for _, n := range ns {
			if !slices.Contains(w.Ns, n) {
				t.Errorf("N=%d is not a wide grid N", n)
			}
			s += float64(n) * float64(n) * float64(n)
		}
		return s
	}
	if r := cube(c.Ns) / cube(w.Ns); r > 0.35 {
		t.Errorf("the coarse grid's ΣN³ is %.2f of the wide grid's, want at most 0.35", r)
	}
}

// TestLargeGrid: the coarse grid's N and κ, and every other λ of the wide
// grid from 2^−9 to its largest, 2^15 (13 of 26: half the factorisations).
func TestLargeGrid(t *testing.T) {
	l, c := LargeGrid(), CoarseGrid()
	if diff := cmp.Diff(Grid{Ns: c.Ns, Kappas: c.Kappas}, Grid{Ns: l.Ns, Kappas: l.Kappas}); diff != "" {
		t.Errorf("N and κ differ from the coarse grid's (-coarse +large):\n%s", diff)
	}
	want := []float64{0x1p-9, 0x1p-7, 0x1p-5, 0x1p-3, 0x1p-1, 2, 8, 32, 128, 512, 2048, 8192, 32768}
	if diff := cmp.Diff(want, l.Lambdas); diff != "" {
		t.Errorf("λ (-want +got):\n%s", diff)
	}
	for _, lambda := range l.Lambdas {
		if !slices.Contains(c.Lambdas, lambda) {
			t.Errorf("λ=%g is not a coarse grid λ", lambda)
		}
	}
	if got, max := l.Lambdas[len(l.Lambdas)-1], math.Ldexp(1, WideGridMaxExp); got != max {
		t.Errorf("the largest λ is %g, want the wide grid's %g", got, max)
	}
}
