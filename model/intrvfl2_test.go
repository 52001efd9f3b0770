package model

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestInt2HiddenIsItsDefinition checks the intrvfl2's activations against
// docs/semantics.md §3b written out: h1 the intRVFL's (the paper's float
// form), W2 row j the PRBS31 window x_j … x_{j+N1−1} of W2Seed, and
// h2_j = clip(Σ_i W2[j][i]·h1_i, ±κ2).
func TestInt2HiddenIsItsDefinition(t *testing.T) {
	for _, c := range []struct{ k, n1, n2, kappa, kappa2 int }{
		{5, 11, 10, 3, 4}, {1, 1, 1, 1, 1}, {13, 70, 65, 2, 9}, {3, 40, 7, 1000, 1000},
	} {
		net := NewInt2Net(c.k, c.n1, c.n2, c.kappa, c.kappa2, 7)
		x := PRBSBits(net.W2Seed, c.n2+c.n1)
		for j := 0; j < c.n2; j++ {
			for i := 0; i < c.n1; i++ {
				if got, want := net.W2.Negative(j, i), PRBSWindow(x, j+i, 1) == 1; got != want {
					t.Fatalf("%+v: W2[%d][%d] negative %v, want x_%d = %v", c, j, i, got, j+i, want)
				}
			}
		}
		levels := make([]int, c.k)
		h := make([]int, c.n1+c.n2)
		h1 := make([]float64, c.n1)
		for r := 0; r < 20; r++ {
			for i := range levels {
				levels[i] = (r*7 + i*5) % (c.n1 + 1)
			}
			net.HiddenIntsTo(h, levels)
			net.L1.HiddenFloatTo(h1, levels)
			want := make([]int, 0, c.n1+c.n2)
			for _, v := range h1 {
				want = append(want, int(v))
			}
			for j := 0; j < c.n2; j++ {
				s := 0.0
				for i, v := range h1 {
					s += float64(net.W2.Weight(j, i)) * v
				}
				want = append(want, int(max(-float64(c.kappa2), min(float64(c.kappa2), s))))
			}
			if diff := cmp.Diff(want, h); diff != "" {
				t.Fatalf("%+v levels %v (-definition +HiddenIntsTo):\n%s", c, levels, diff)
			}
		}
	}
}

func TestInt2TrainsAndRoundTrips(t *testing.T) {
	d := blobs(120, 5, 3, 1)
	m, err := Train(context.Background(), d, Config{Arch: IntRVFL2, N: 41, Kappa: 3, Lambda: 4, Seed: 2, ReadoutBits: 5})
	if err != nil {
		t.Fatal(err)
	}
	net := m.Net.(*Int2Net)
	if net.N1() != 21 || net.N2 != 20 || net.Kappa2 != Int2Kappa2(3, 21) || m.Columns() != 41 {
		t.Errorf("N1 %d N2 %d κ2 %d columns %d, want 21, 20, %d, 41", net.N1(), net.N2, net.Kappa2, Int2Kappa2(3, 21), m.Columns())
	}
	if acc := m.Accuracy(d.X, len(d.Y), d.Y); acc < 0.8 {
		t.Errorf("training accuracy %.3f on separable blobs", acc)
	}
	b := checkRoundTrip(t, m)
	other, _ := Train(context.Background(), d, Config{Arch: IntRVFL2, N: 41, Kappa: 3, Lambda: 4, Seed: 3, ReadoutBits: 5})
	if diffs := HiddenDiffs(m.Net, other.Net, [2]string{"a", "b"}, ""); len(diffs) == 0 {
		t.Errorf("HiddenDiffs of two seeds: none")
	}

	text := string(b)
	checkFieldErrors(t, text, []fieldEdit{
		{"n1 too large", `"n1": 21`, `"n1": 41`, "field intrvfl2.n1: 41 outside [1, 40]"},
		{"n1 zero", `"n1": 21`, `"n1": 0`, "field intrvfl2.n1"},
		{"kappa2", `"kappa2": `, `"kappa2": 0, "x": `, "unknown field"},
		{"kappa2 zero", `"kappa2": ` + itoa(net.Kappa2), `"kappa2": 0`, "field intrvfl2.kappa2: 0 outside"},
		{"seed zero", `"w2_prbs_seed": ` + itoa(int(net.W2Seed)), `"w2_prbs_seed": 0`, "field intrvfl2.w2_prbs_seed: 0, want a nonzero 31-bit value"},
		{"rows", `"w_in_signs": [`, `"w_in_signs": ["00", `, "intrvfl2.w_in_signs: 22 rows, want 21"},
		{"missing", `"kappa": 3,`, ``, "intrvfl2.kappa"},
	})
}

func itoa(v int) string { return strconv.Itoa(v) }

// checkRoundTrip writes m's model.json, reads it back and writes it again:
// the bytes must not change and the hidden layers must not differ. It
// returns the bytes.
func checkRoundTrip(t *testing.T, m *Model) []byte {
	t.Helper()
	b, err := Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	back, err := Unmarshal(b)
	if err != nil {
		t.Fatal(err)
	}
	b2, err := Marshal(back)
	if err != nil {
		t.Fatal(err)
	}
	if string(b) != string(b2) {
		t.Errorf("model.json changes on a round trip")
	}
	if diffs := HiddenDiffs(m.Net, back.Net, [2]string{"a", "b"}, ""); diffs != nil {
		t.Errorf("HiddenDiffs after a round trip: %v", diffs)
	}
	return b
}

// fieldEdit replaces old by new in a model.json and expects a field error
// containing want.
type fieldEdit struct{ name, old, new, want string }

// checkFieldErrors applies each edit to text alone and checks that the
// strict reader refuses the result with a FieldError containing its want.
func checkFieldErrors(t *testing.T, text string, edits []fieldEdit) {
	t.Helper()
	for _, tc := range edits {
		t.Run(tc.name, func(t *testing.T) {
			if !strings.Contains(text, tc.old) {
				t.Fatalf("fixture does not contain %q", tc.old)
			}
			_, err := Unmarshal([]byte(strings.Replace(text, tc.old, tc.new, 1)))
			var fe *FieldError
			if err == nil || !strings.Contains(err.Error(), tc.want) || !errors.As(err, &fe) {
				t.Errorf("error %v, want a field error containing %q", err, tc.want)
			}
		})
	}
}
