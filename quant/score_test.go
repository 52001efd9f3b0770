package quant

import (
	"math"
	"math/big"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func randomReadout(rng *rand.Rand, l, n, b int) Readout {
	r := Readout{Classes: l, Neurons: n, Bound: b, Bits: BitsForBound(b), Scale: 1, Weights: make([]int32, l*n), Method: MethodRound}
	for i := range r.Weights {
		r.Weights[i] = int32(rng.IntN(2*b+1) - b)
	}
	return r
}

func randomActivations(rng *rand.Rand, m, n, kappa int) Activations {
	h := Activations{Rows: m, Cols: n, Data: make([]int8, m*n)}
	for i := range h.Data {
		h.Data[i] = int8(rng.IntN(2*kappa+1) - kappa)
	}
	return h
}

// naiveScores is the reference: int64 triple loop over the definition.
func naiveScores(h Activations, r Readout) []int32 {
	y := make([]int32, h.Rows*r.Classes)
	for m := range h.Rows {
		for l := range r.Classes {
			var s int64
			for j := range h.Cols {
				s += int64(r.Weights[l*r.Neurons+j]) * int64(h.Data[m*h.Cols+j])
			}
			y[m*r.Classes+l] = int32(s)
		}
	}
	return y
}

func TestScoresMatchNaive(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	tests := []struct{ m, n, l, kappa, b int }{
		{1, 1, 1, 1, 1},
		{3, 5, 2, 1, 1},     // N not a multiple of 4
		{17, 7, 3, 3, 15},   // odd everything
		{50, 64, 4, 7, 127}, // N a multiple of 4
		{20, 1500, 10, 15, 32767},
		{10, 130, 2, 127, 32767}, // extreme activations
	}
	for _, tc := range tests {
		h := randomActivations(rng, tc.m, tc.n, tc.kappa)
		r := randomReadout(rng, tc.l, tc.n, tc.b)
		got, err := Scores(h, r)
		if err != nil {
			t.Fatalf("%+v: %v", tc, err)
		}
		if diff := cmp.Diff(naiveScores(h, r), got); diff != "" {
			t.Errorf("%+v: Scores mismatch (-naive +got):\n%s", tc, diff)
		}
		// The GA's class-major layout holds the same numbers.
		cols := make([]int32, tc.m*tc.l)
		scoreCols(cols, h.Data, tc.m, tc.n, r.Weights, tc.l)
		for m := range tc.m {
			for l := range tc.l {
				if cols[l*tc.m+m] != got[m*tc.l+l] {
					t.Fatalf("%+v: scoreCols[%d][%d] = %d, Scores = %d", tc, l, m, cols[l*tc.m+m], got[m*tc.l+l])
				}
			}
		}
	}
}

func TestNewActivations(t *testing.T) {
	h, err := NewActivations(2, 3, []int{-3, 0, 3, 127, -128, 1})
	if err != nil {
		t.Fatal(err)
	}
	want := Activations{Rows: 2, Cols: 3, Data: []int8{-3, 0, 3, 127, -128, 1}}
	if diff := cmp.Diff(want, h); diff != "" {
		t.Errorf("NewActivations mismatch (-want +got):\n%s", diff)
	}
	if _, err := NewActivations(2, 3, []int{0, 0, 0, 0, 128, 0}); err == nil || !strings.Contains(err.Error(), "[1][1] = 128") {
		t.Errorf("NewActivations(128) error = %v", err)
	}
	if _, err := NewActivations(2, 3, []int{0}); err == nil {
		t.Error("NewActivations with a short slice: no error")
	}
}

func TestArgmax(t *testing.T) {
	tests := []struct {
		y    []int32
		want int
	}{
		{[]int32{7}, 0},
		{[]int32{3, 3, 1}, 0},
		{[]int32{1, 3, 3}, 1},
		{[]int32{-1, -1}, 0},
		{[]int32{0, 0, 0, 0}, 0},
		{[]int32{-5, -2, -2, -9}, 1},
		{[]int32{math.MinInt32, math.MaxInt32, math.MaxInt32}, 1},
		{[]int32{1, 2, 3, 4}, 3},
	}
	for _, tc := range tests {
		if got := Argmax(tc.y); got != tc.want {
			t.Errorf("Argmax(%v) = %d, want %d", tc.y, got, tc.want)
		}
	}
	mustPanic(t, "Argmax(nil)", func() { Argmax(nil) })
}

func TestPredictAndAccuracy(t *testing.T) {
	// N = 2, L = 3: Q rows (1,0), (0,1), (1,1)·… chosen to create ties.
	r := Readout{Classes: 3, Neurons: 2, Bound: 1, Bits: 2, Scale: 1,
		Weights: []int32{1, 0, 0, 1, 1, -1}, Method: MethodRound}
	h := Activations{Rows: 5, Cols: 2, Data: []int8{
		1, 1, // y = (1, 1, 0): tie 0/1 → 0
		0, 0, // y = (0, 0, 0): all tie → 0
		-1, 2, // y = (−1, 2, −3) → 1
		2, -1, // y = (2, −1, 3) → 2
		1, -1, // y = (1, −1, 2) → 2
	}}
	pred, err := Predict(h, r)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]int{0, 0, 1, 2, 2}, pred); diff != "" {
		t.Errorf("Predict mismatch (-want +got):\n%s", diff)
	}
	acc, err := Accuracy(h, r, []int{0, 1, 1, 2, 0})
	if err != nil {
		t.Fatal(err)
	}
	if acc != 3.0/5 {
		t.Errorf("Accuracy = %v, want 0.6", acc)
	}
}

func TestScoreErrors(t *testing.T) {
	r := Readout{Classes: 2, Neurons: 3, Bound: 1, Bits: 2, Scale: 1, Weights: make([]int32, 6)}
	h := Activations{Rows: 2, Cols: 3, Data: make([]int8, 6)}
	big := Readout{Classes: 1, Neurons: 1000, Bound: MaxBound, Bits: 16, Scale: 1, Weights: make([]int32, 1000)}
	bigH := Activations{Rows: 1, Cols: 1000, Data: make([]int8, 1000)}
	bigH.Data[0] = -128 // 1000·128·32767 > 2^31 − 1
	tests := []struct {
		name string
		f    func() error
		want string
	}{
		{"columns", func() error {
			_, err := Scores(Activations{Rows: 1, Cols: 2, Data: make([]int8, 2)}, r)
			return err
		}, "2 columns, readout has 3 neurons"},
		{"data length", func() error {
			_, err := Scores(Activations{Rows: 3, Cols: 3, Data: make([]int8, 6)}, r)
			return err
		}, "has 6 entries"},
		{"overflow", func() error { _, err := Scores(bigH, big); return err }, "33-bit accumulator"},
		{"labels length", func() error { _, err := Accuracy(h, r, []int{0}); return err }, "1 labels for 2 rows"},
		{"label range", func() error { _, err := Accuracy(h, r, []int{0, 2}); return err }, "label of row 1 is 2"},
		{"cost one class", func() error {
			_, err := Cost(Activations{Rows: 1, Cols: 1, Data: []int8{1}},
				Readout{Classes: 1, Neurons: 1, Bound: 1, Bits: 2, Scale: 1, Weights: []int32{1}}, []int{0}, 4)
			return err
		}, "at least 2 classes"},
		{"cost beta", func() error { _, err := Cost(h, r, []int{0, 1}, 0); return err }, "beta 0"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.f()
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error = %v, want one containing %q", err, tc.want)
			}
		})
	}
}

func TestRowCost(t *testing.T) {
	const beta = 4
	tests := []struct {
		yPlus, yMinus int32
		want          float64
	}{
		{0, 0, 0.5},                         // μ = 0 by definition
		{5, 5, 0.5},                         // tie: μ = 0
		{5, -5, 1.0 / 10},                   // μ = −1: ½(1 − 4/5)
		{7, 0, 1.0 / 10},                    // μ = −1 already when y⁻ = 0
		{-5, 5, 9.0 / 10},                   // μ = +1: ½(1 + 4/5)
		{3, 1, 1.0 / 6},                     // μ = −½: ½(1 − 2/3)
		{1, 3, 5.0 / 6},                     // μ = +½
		{-1, -3, 1.0 / 6},                   // negative scores, correct: μ = −½
		{math.MaxInt32, math.MinInt32, 0.1}, // extreme scores: μ = −1
	}
	for _, tc := range tests {
		if got := RowCost(tc.yPlus, tc.yMinus, beta); got != tc.want {
			t.Errorf("RowCost(%d, %d, 4) = %v, want %v", tc.yPlus, tc.yMinus, got, tc.want)
		}
	}
}

// TestRowCostExact: for integer β the row cost is the correctly rounded
// rational ½(1 + βμ/(1+β|μ|)), and it agrees with the softsign formula in
// floating point to a few ulps; f is monotone in μ.
func TestRowCostExact(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 9))
	for _, beta := range []float64{1, 4, 10, 1000} {
		for range 2000 {
			var yp, ym int32
			switch rng.IntN(3) {
			case 0:
				yp, ym = int32(rng.IntN(41)-20), int32(rng.IntN(41)-20)
			default:
				yp, ym = int32(rng.Uint32()), int32(rng.Uint32())
			}
			got := RowCost(yp, ym, beta)
			p := big.NewRat(int64(ym)-int64(yp), 1)
			q := big.NewRat(abs64(int64(ym))+abs64(int64(yp)), 1)
			var want float64
			if q.Sign() == 0 {
				want = 0.5
			} else {
				mu := new(big.Rat).Quo(p, q)
				b := new(big.Rat).SetFloat64(beta)
				bm := new(big.Rat).Mul(b, mu)
				den := new(big.Rat).Add(big.NewRat(1, 1), new(big.Rat).Abs(bm))
				f := new(big.Rat).Add(big.NewRat(1, 1), new(big.Rat).Quo(bm, den))
				f.Mul(f, big.NewRat(1, 2))
				want, _ = f.Float64()
			}
			if got != want {
				t.Fatalf("RowCost(%d, %d, %v) = %v, want the rounded rational %v", yp, ym, beta, got, want)
			}
			if q.Sign() != 0 {
				mu := (float64(ym) - float64(yp)) / (math.Abs(float64(ym)) + math.Abs(float64(yp)))
				soft := 0.5 * (1 + beta*mu/(1+beta*math.Abs(mu)))
				if math.Abs(soft-got) > 1e-15 {
					t.Fatalf("RowCost(%d, %d, %v) = %v, softsign formula %v", yp, ym, beta, got, soft)
				}
			}
		}
	}
	// Monotone in y⁻ for fixed y⁺ (μ grows with y⁻).
	prev := -1.0
	for ym := int32(-50); ym <= 50; ym++ {
		f := RowCost(10, ym, 4)
		if f < prev {
			t.Fatalf("RowCost(10, %d) = %v < RowCost(10, %d) = %v", ym, f, ym-1, prev)
		}
		prev = f
	}
}

func TestCostMatchesDefinition(t *testing.T) {
	rng := rand.New(rand.NewPCG(10, 11))
	h := randomActivations(rng, 40, 9, 3)
	r := randomReadout(rng, 3, 9, 7)
	labels := make([]int, 40)
	for i := range labels {
		labels[i] = rng.IntN(3)
	}
	got, err := Cost(h, r, labels, 4)
	if err != nil {
		t.Fatal(err)
	}
	y := naiveScores(h, r)
	want := 0.0
	for m, c := range labels {
		ym := int32(math.MinInt32)
		for l := range 3 {
			if l != c {
				ym = max(ym, y[m*3+l])
			}
		}
		want += RowCost(y[m*3+c], ym, 4)
	}
	if got != want {
		t.Errorf("Cost = %v, want %v", got, want)
	}
}
