package model

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestIntConjDraw checks the split and the conjunctions' draw: unit u has
// 1 + (u mod Dmax) drawn terms (thresholds in 1 … N1) and holds a ≥ 0 in the
// others, the last unit is constant, and the neurons are NewIntNet's.
func TestIntConjDraw(t *testing.T) {
	for _, c := range []struct{ k, n int }{{1, 2}, {3, 7}, {5, 40}, {70, 301}} {
		n1, n2 := IntConjSplit(c.n)
		net := NewIntConjNet(c.k, n1, n2, 3, 9)
		if n1+n2 != c.n || n1 < n2 || n1-n2 > 1 {
			t.Fatalf("N=%d split into %d + %d", c.n, n1, n2)
		}
		if diffs := intDiffs(NewIntNet(c.k, n1, 3, 9), net.L1, [2]string{"NewIntNet", "the intconj"}, ""); len(diffs) != 0 {
			t.Errorf("%+v: the neurons differ: %v", c, diffs)
		}
		u := net.Units
		if u.Depth != IntConjDepth || u.CodeMax != n1 || u.N != n2 {
			t.Fatalf("%+v: units D=%d codes ≤ %d N=%d, want %d, %d, %d", c, u.Depth, u.CodeMax, u.N, IntConjDepth, n1, n2)
		}
		for i, th := range u.Threshold {
			j, d := i/u.Depth, i%u.Depth
			drawn := j < n2-1 && d < 1+j%IntConjDepth
			switch {
			case drawn && (th < 1 || th > n1):
				t.Fatalf("%+v: unit %d term %d threshold %d outside [1, %d]", c, j, d, th, n1)
			case !drawn && (th != 0 || u.Negate[i] || u.Feature[i] != 0):
				t.Fatalf("%+v: unit %d term %d is (f=%d, t=%d, negate=%v), want the term that always holds", c, j, d, u.Feature[i], th, u.Negate[i])
			}
		}
		if diffs := HiddenDiffs(net, NewIntConjNet(c.k, n1, n2, 3, 9), [2]string{"first", "second"}, ""); len(diffs) != 0 {
			t.Errorf("%+v: a second draw of seed 9 differs: %v", c, diffs)
		}
	}
}

// TestIntConjHiddenIsItsParts: the columns are the neurons' clipped values,
// then the units' 0/1, the last unit 1 on every row.
func TestIntConjHiddenIsItsParts(t *testing.T) {
	d := blobs(30, 4, 3, 5)
	n1, n2 := IntConjSplit(25)
	net := NewIntConjNet(4, n1, n2, 2, 3)
	h := net.HiddenMatrix(d.X, len(d.Y))
	lv := make([]int, 4)
	for r := range d.Y {
		net.InputsTo(lv, d.X[r*4:(r+1)*4])
		want := make([]int, n1)
		net.L1.HiddenTo(want, lv)
		for u := 0; u < n2; u++ {
			want = append(want, net.Units.UnitTo(u, lv))
		}
		got := make([]int, n1+n2)
		for j := range got {
			got[j] = int(h[r*(n1+n2)+j])
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Fatalf("row %d (-parts +HiddenMatrix):\n%s", r, diff)
		}
		if got[n1+n2-1] != 1 {
			t.Fatalf("row %d: the constant unit is %d", r, got[n1+n2-1])
		}
	}
}

func TestIntConjTrainsAndRoundTrips(t *testing.T) {
	d := blobs(120, 5, 3, 1)
	m, err := Train(context.Background(), d, Config{Arch: IntConj, N: 60, Kappa: 3, Lambda: 1, Seed: 2})
	if err != nil {
		t.Fatal(err)
	}
	if m.Readout == nil || m.Readout.Bits != ConjReadoutBits || m.Kappa() != 3 {
		t.Fatalf("readout %+v, κ %d: want the %d-bit readout and κ = 3", m.Readout, m.Kappa(), ConjReadoutBits)
	}
	if acc := m.Accuracy(d.X, len(d.Y), d.Y); acc < 0.8 {
		t.Errorf("training accuracy %.3f on separable blobs", acc)
	}
	for _, bad := range []Config{
		{Arch: IntConj, N: 60, Kappa: 3, Lambda: 1, ReadoutBits: 5},
		{Arch: IntConj, N: 1, Kappa: 3, Lambda: 1},
		{Arch: IntConj, N: 60, Kappa: 3, Lambda: 1, Win: WinPRBS31},
	} {
		if _, err := Train(context.Background(), d, bad); err == nil {
			t.Errorf("%+v trained", bad)
		}
	}
	text := string(checkRoundTrip(t, m))
	checkFieldErrors(t, text, []fieldEdit{
		{"n1", `"n1": 30`, `"n1": 60`, "field intconj.n1: 60 outside [1, 59]"},
		{"kappa", `"kappa": 3`, `"kappa": 0`, "field intconj.kappa: 0 outside"},
		{"depth", `"depth": 4`, `"depth": 16`, "field intconj.depth: 16 outside [1, 15]"},
		{"threshold", `"thresholds": [` + "\n      [", `"thresholds": [` + "\n      [31, ", "field intconj.thresholds[0]"},
		{"signs", `"w_in_signs": [`, `"w_in_signs": ["zz", `, "field intconj.w_in_signs"},
		{"unknown", `"depth": 4`, `"depth": 4, "x": 1`, "unknown field"},
	})
}
