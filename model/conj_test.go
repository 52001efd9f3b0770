package model

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestConjDraw checks the drawn terms: features in [0, K), thresholds in
// 1 … 255, both polarities, the last unit constant (thresholds 0, no
// negation), and the same draw for the same seed.
func TestConjDraw(t *testing.T) {
	for _, c := range []struct{ k, n, depth int }{{1, 1, 1}, {3, 2, 15}, {7, 50, 2}, {300, 400, 4}} {
		net := NewConjNet(c.k, c.n, c.depth, 11)
		negated := 0
		for i, f := range net.Feature {
			j := i / c.depth
			if f < 0 || f >= c.k {
				t.Fatalf("%+v: unit %d term %d feature %d outside [0, %d)", c, j, i%c.depth, f, c.k)
			}
			if j == c.n-1 {
				if net.Threshold[i] != 0 || net.Negate[i] {
					t.Fatalf("%+v: the constant unit's term %d is t=%d negate=%v", c, i%c.depth, net.Threshold[i], net.Negate[i])
				}
				continue
			}
			if net.Threshold[i] < 1 {
				t.Fatalf("%+v: unit %d term %d threshold 0", c, j, i%c.depth)
			}
			if net.Negate[i] {
				negated++
			}
		}
		if terms := (c.n - 1) * c.depth; terms >= 20 && (negated < terms/4 || negated > 3*terms/4) {
			t.Errorf("%+v: %d of %d terms negated", c, negated, terms)
		}
		again := NewConjNet(c.k, c.n, c.depth, 11)
		if diff := cmp.Diff(net, again); diff != "" {
			t.Errorf("%+v: a second draw of seed 11 differs:\n%s", c, diff)
		}
	}
	a, b := NewConjNet(5, 30, 2, 1), NewConjNet(5, 30, 2, 2)
	if diffs := HiddenDiffs(a, b, [2]string{"a", "b"}, ""); len(diffs) == 0 {
		t.Errorf("two seeds draw the same conjunctions")
	}
}

// TestConjUnitsAreTheirDefinition: h_j = 1 when every term (a_f ≥ t) XOR
// negate holds, the constant unit is 1, and HiddenMatrix holds the units of
// the rows' input codes (InputCode).
func TestConjUnitsAreTheirDefinition(t *testing.T) {
	net := &ConjNet{K: 3, N: 4, Depth: 2,
		Feature:   []int{0, 2, 1, 1, 2, 0, 0, 0},
		Threshold: []int{128, 10, 50, 200, 255, 1, 0, 0},
		Negate:    []bool{false, true, false, true, false, false, false, false}}
	for _, tc := range []struct {
		codes []int
		want  []int
	}{
		// unit 0: a0 ≥ 128 and a2 < 10; unit 1: 50 ≤ a1 < 200; unit 2: a2 = 255 and a0 ≥ 1.
		{[]int{128, 50, 9}, []int{1, 1, 0, 1}},
		{[]int{127, 199, 10}, []int{0, 1, 0, 1}},
		{[]int{1, 200, 255}, []int{0, 0, 1, 1}},
		{[]int{0, 49, 255}, []int{0, 0, 0, 1}},
	} {
		got := make([]int, net.N)
		net.HiddenIntsTo(got, tc.codes)
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("codes %v (-want +got):\n%s", tc.codes, diff)
		}
	}
	drawn := NewConjNet(4, 25, 3, 5)
	x := []float64{0, 0.3, 0.7, 1, 0.5, 0.51, 0.49, 0.999}
	h := drawn.HiddenMatrix(x, 2)
	for r := 0; r < 2; r++ {
		codes := make([]int, 4)
		for i := range codes {
			codes[i] = int(InputCode(x[r*4+i]))
		}
		for j := 0; j < drawn.N; j++ {
			want := 1.0
			for d := 0; d < drawn.Depth; d++ {
				i := j*drawn.Depth + d
				if (codes[drawn.Feature[i]] >= drawn.Threshold[i]) == drawn.Negate[i] {
					want = 0
				}
			}
			if h[r*drawn.N+j] != want {
				t.Fatalf("row %d unit %d: %v, want %v", r, j, h[r*drawn.N+j], want)
			}
		}
		if h[r*drawn.N+drawn.N-1] != 1 {
			t.Errorf("row %d: the constant unit is 0", r)
		}
	}
}

func TestConjTrainsAndRoundTrips(t *testing.T) {
	d := blobs(120, 5, 3, 1)
	m, err := Train(context.Background(), d, Config{Arch: Conj, N: 60, Kappa: 2, Lambda: 1, Seed: 2})
	if err != nil {
		t.Fatal(err)
	}
	if m.Readout == nil || m.Readout.Bits != ConjReadoutBits || m.Kappa() != 2 {
		t.Fatalf("readout %+v, κ (D) %d: want the %d-bit readout and D = 2", m.Readout, m.Kappa(), ConjReadoutBits)
	}
	if acc := m.Accuracy(d.X, len(d.Y), d.Y); acc < 0.8 {
		t.Errorf("training accuracy %.3f on separable blobs", acc)
	}
	if _, err := Train(context.Background(), d, Config{Arch: Conj, N: 60, Kappa: 2, Lambda: 1, ReadoutBits: 5}); err == nil {
		t.Errorf("a conj with --bits 5 trained; its readout width is fixed")
	}
	if _, err := Train(context.Background(), d, Config{Arch: Conj, N: 60, Kappa: ConjMaxDepth + 1, Lambda: 1}); err == nil {
		t.Errorf("a conj of depth %d trained", ConjMaxDepth+1)
	}
	b := checkRoundTrip(t, m)

	text := string(b)
	net := m.Net.(*ConjNet)
	firstRow := func(name string, v func(i int) int) string {
		return `"` + name + `": [` + "\n      [" + itoa(v(0)) + ", " + itoa(v(1)) + "]"
	}
	neg := func(i int) int {
		if net.Negate[i] {
			return 1
		}
		return 0
	}
	features := firstRow("features", func(i int) int { return net.Feature[i] })
	thresholds := firstRow("thresholds", func(i int) int { return net.Threshold[i] })
	negate := firstRow("negate", neg)
	checkFieldErrors(t, text, []fieldEdit{
		{"depth zero", `"depth": 2`, `"depth": 0`, "field conj.depth: 0 outside [1, 15]"},
		{"depth large", `"depth": 2`, `"depth": 16`, "field conj.depth: 16 outside [1, 15]"},
		{"feature", features, `"features": [` + "\n      [5, 0]", "field conj.features[0][0]: 5 outside [0, 4]"},
		{"threshold", thresholds, `"thresholds": [` + "\n      [256, 1]", "field conj.thresholds[0][0]: 256 outside [0, 255]"},
		{"negate", negate, `"negate": [` + "\n      [2, 0]", "field conj.negate[0][0]: 2 outside [0, 1]"},
		{"terms", features, `"features": [` + "\n      [0]", "field conj.features[0]: 1 values, want 2"},
		{"units", features, `"features": [` + "\n      [0, 0], [0, 0]", "field conj.features: 61 rows, want 60 (one per unit)"},
		{"unknown", `"depth": 2`, `"depth": 2, "x": 1`, "unknown field"},
	})
}
