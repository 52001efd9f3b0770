package quant

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestBoundForBits(t *testing.T) {
	tests := []struct{ bits, bound int }{
		{2, 1}, {3, 3}, {4, 7}, {5, 15}, {6, 31}, {8, 127}, {12, 2047}, {16, 32767},
	}
	for _, tc := range tests {
		if got := BoundForBits(tc.bits); got != tc.bound {
			t.Errorf("BoundForBits(%d) = %d, want %d", tc.bits, got, tc.bound)
		}
		if got := BitsForBound(tc.bound); got != tc.bits {
			t.Errorf("BitsForBound(%d) = %d, want %d", tc.bound, got, tc.bits)
		}
	}
}

func TestBitsForBound(t *testing.T) {
	tests := []struct{ bound, bits int }{
		{1, 2}, {2, 3}, {3, 3}, {4, 4}, {6, 4}, {7, 4}, {8, 5}, {10, 5}, {15, 5}, {16, 6},
		{100, 8}, {127, 8}, {128, 9}, {16383, 15}, {16384, 16}, {32767, 16},
	}
	for _, tc := range tests {
		got := BitsForBound(tc.bound)
		if got != tc.bits {
			t.Errorf("BitsForBound(%d) = %d, want %d", tc.bound, got, tc.bits)
		}
		// Definition: the smallest w with 2^(w−1) − 1 ≥ bound.
		if 1<<(got-1)-1 < tc.bound || 1<<(got-2)-1 >= tc.bound {
			t.Errorf("BitsForBound(%d) = %d is not the minimal width", tc.bound, got)
		}
	}
}

func mustPanic(t *testing.T, name string, f func()) {
	t.Helper()
	defer func() {
		r := recover()
		if r == nil {
			t.Errorf("%s did not panic", name)
			return
		}
		if s, ok := r.(string); !ok || !strings.HasPrefix(s, "quant: ") {
			t.Errorf("%s panicked with %v, want a \"quant: \" message", name, r)
		}
	}()
	f()
}

func TestBitsPanics(t *testing.T) {
	mustPanic(t, "BoundForBits(1)", func() { BoundForBits(1) })
	mustPanic(t, "BoundForBits(17)", func() { BoundForBits(17) })
	mustPanic(t, "BitsForBound(0)", func() { BitsForBound(0) })
	mustPanic(t, "BitsForBound(32768)", func() { BitsForBound(32768) })
	mustPanic(t, "AccumulatorBits(-1,1,1)", func() { AccumulatorBits(-1, 1, 1) })
	mustPanic(t, "AccumulatorBits overflow", func() { AccumulatorBits(1<<30, 1<<30, 1<<30) })
}

func TestAccumulatorBits(t *testing.T) {
	tests := []struct {
		n, kappa, bound, want int
	}{
		{0, 3, 15, 1},                 // empty sum: 0 fits in 1 bit
		{1, 1, 1, 2},                  // |y| ≤ 1
		{2, 1, 1, 3},                  // |y| ≤ 2: 2^1−1 = 1 < 2 ≤ 3
		{3, 1, 1, 3},                  // |y| ≤ 3 = 2^2−1, exactly full
		{4, 1, 1, 4},                  // one past: 4 > 3
		{32767, 1, 1, 16},             // 2^15−1 fits 16 bits exactly
		{32768, 1, 1, 17},             // 2^15 does not
		{512, 3, 15, 16},              // median network, 5-bit readout: 23040
		{512, 3, 1, 12},               // 1536
		{1500, 15, 15, 20},            // 337500 < 2^19−1 = 524287
		{1500, 15, 32767, 31},         // 737257500 < 2^30−1
		{1<<31 - 1, 1, 1, 32},         // 2^31−1: int32 exactly
		{1 << 30, 2, 1, 33},           // 2^31: one past int32
		{65535, 32768, 1, 32},         // 2147450880 ≤ 2^31−1
		{65536, 32768, 1, 33},         // 2^31
		{1 << 20, 127, 3, 30},         // 399507456: 2^28 < x < 2^29 − 1
		{1 << 30, 1 << 30, 4, 64},     // 2^62 < 2^63−1
		{1<<31 - 1, 1<<31 - 1, 2, 64}, // 2(2^31−1)^2 < 2^63−1: the largest products fit 64 bits
	}
	for _, tc := range tests {
		got := AccumulatorBits(tc.n, tc.kappa, tc.bound)
		if got != tc.want {
			t.Errorf("AccumulatorBits(%d, %d, %d) = %d, want %d", tc.n, tc.kappa, tc.bound, got, tc.want)
		}
	}
}

func TestQuantize(t *testing.T) {
	tests := []struct {
		name      string
		w         []float64
		l, n, b   int
		wantQ     []int32
		wantScale float64
	}{
		{
			name: "half away from zero at ±0.5 steps (s = 1)",
			w:    []float64{0.5, 1.5, 2.5, -0.5, -1.5, -2.5, 0.49, -0.49, 4},
			l:    1, n: 9, b: 4,
			wantQ:     []int32{1, 2, 3, -1, -2, -3, 0, 0, 4},
			wantScale: 1,
		},
		{
			name: "half steps with s = 0.5",
			w:    []float64{1, 0.25, -0.25, 0.75, -0.75, 0},
			l:    2, n: 3, b: 2,
			wantQ:     []int32{2, 1, -1, 2, -2, 0},
			wantScale: 0.5,
		},
		{
			name: "all zero",
			w:    []float64{0, 0, 0, 0, 0, 0},
			l:    2, n: 3, b: 15,
			wantQ:     []int32{0, 0, 0, 0, 0, 0},
			wantScale: 1,
		},
		{
			name: "negative zero is zero",
			w:    []float64{math.Copysign(0, -1), 0},
			l:    1, n: 2, b: 3,
			wantQ:     []int32{0, 0},
			wantScale: 1,
		},
		{
			name: "single positive element",
			w:    []float64{0.3},
			l:    1, n: 1, b: 7,
			wantQ:     []int32{7},
			wantScale: 0.3 / 7,
		},
		{
			name: "single negative element",
			w:    []float64{-2},
			l:    1, n: 1, b: 1,
			wantQ:     []int32{-1},
			wantScale: 2,
		},
		{
			name: "negative max maps to −B",
			w:    []float64{-3, 1, 1.5, -0.4, 2.9, -1.5},
			l:    2, n: 3, b: 3,
			// s = 1: −3, 1, 1.5→2, −0.4→0, 2.9→3, −1.5→−2
			wantQ:     []int32{-3, 1, 2, 0, 3, -2},
			wantScale: 1,
		},
		{
			name: "B = 1 ternary",
			w:    []float64{0.1, -0.1, 0.5, -0.5, 0.49, 1, -1, 0.51},
			l:    2, n: 4, b: 1,
			wantQ:     []int32{0, 0, 1, -1, 0, 1, -1, 1},
			wantScale: 1,
		},
		{
			name: "huge and tiny magnitudes",
			w:    []float64{1e300, -1e300, 1e-300, 4e299},
			l:    1, n: 4, b: 5,
			wantQ:     []int32{5, -5, 0, 2},
			wantScale: 2e299,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r, err := Quantize(tc.w, tc.l, tc.n, tc.b)
			if err != nil {
				t.Fatal(err)
			}
			want := Readout{
				Classes: tc.l, Neurons: tc.n, Bound: tc.b, Bits: BitsForBound(tc.b),
				Scale: tc.wantScale, Weights: tc.wantQ, Method: MethodRound,
			}
			if diff := cmp.Diff(want, r); diff != "" {
				t.Errorf("Quantize mismatch (-want +got):\n%s", diff)
			}
			if err := r.Validate(); err != nil {
				t.Errorf("Validate: %v", err)
			}
		})
	}
}

// TestQuantizeProperties checks on random matrices and every bound 1…40 and
// every bit width that Q is within ±B (the clamp), that the largest |w| maps
// exactly to ±B, and that Q equals round(w/s) computed independently.
func TestQuantizeProperties(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	bounds := []int{}
	for b := 1; b <= 40; b++ {
		bounds = append(bounds, b)
	}
	for b := MinBits; b <= MaxBits; b++ {
		bounds = append(bounds, BoundForBits(b))
	}
	for _, B := range bounds {
		for trial := range 20 {
			l, n := 1+rng.IntN(4), 1+rng.IntN(30)
			w := make([]float64, l*n)
			scale := math.Pow(10, float64(rng.IntN(20)-10))
			for i := range w {
				w[i] = rng.NormFloat64() * scale
			}
			if trial%3 == 0 {
				// Exact multiples of a step, half-steps and the max itself.
				step := 0.1 * scale
				for i := range w {
					w[i] = step * float64(rng.IntN(2*B+1)-B) / 2
				}
			}
			r, err := Quantize(w, l, n, B)
			if err != nil {
				t.Fatal(err)
			}
			if err := r.Validate(); err != nil {
				t.Fatalf("B=%d: %v", B, err)
			}
			maxAbs, arg := 0.0, 0
			for i, v := range w {
				if math.Abs(v) > maxAbs {
					maxAbs, arg = math.Abs(v), i
				}
			}
			if maxAbs == 0 {
				continue
			}
			if got, want := r.Weights[arg], int32(math.Copysign(float64(B), w[arg])); got != want {
				t.Errorf("B=%d: max|w| = w[%d] = %g quantised to %d, want %d", B, arg, w[arg], got, want)
			}
			s := maxAbs / float64(B)
			for i, v := range w {
				want := math.Round(v / s)
				if float64(r.Weights[i]) != want {
					t.Errorf("B=%d: w[%d] = %g → %d, want round(%g) = %g", B, i, v, r.Weights[i], v/s, want)
				}
			}
		}
	}
}

func TestQuantizeBits(t *testing.T) {
	r, err := QuantizeBits([]float64{1, -0.5, 0.25, 0}, 2, 2, 5)
	if err != nil {
		t.Fatal(err)
	}
	want := Readout{Classes: 2, Neurons: 2, Bound: 15, Bits: 5, Scale: 1.0 / 15,
		Weights: []int32{15, -8, 4, 0}, Method: MethodRound}
	if diff := cmp.Diff(want, r); diff != "" {
		t.Errorf("QuantizeBits mismatch (-want +got):\n%s", diff)
	}
	if _, err := QuantizeBits([]float64{1}, 1, 1, 17); err == nil {
		t.Error("QuantizeBits with 17 bits: no error")
	}
}

func TestQuantizeErrors(t *testing.T) {
	tests := []struct {
		name    string
		w       []float64
		l, n, b int
		want    string
	}{
		{"shape", []float64{1, 2, 3}, 2, 2, 3, "got 3 weights"},
		{"empty", nil, 0, 2, 3, "empty shape"},
		{"bound 0", []float64{1}, 1, 1, 0, "bound 0"},
		{"bound too large", []float64{1}, 1, 1, MaxBound + 1, "bound 32768"},
		{"NaN", []float64{1, math.NaN()}, 1, 2, 3, "weight [0][1] is NaN"},
		{"Inf", []float64{1, 2, math.Inf(-1), 0}, 2, 2, 3, "weight [1][0] is -Inf"},
		{"scale underflows", []float64{5e-324, 0}, 1, 2, 15, "unusable scale"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Quantize(tc.w, tc.l, tc.n, tc.b)
			if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), "quant: ") {
				t.Errorf("Quantize error = %v, want one containing %q", err, tc.want)
			}
		})
	}
}

func TestValidate(t *testing.T) {
	good := Readout{Classes: 2, Neurons: 2, Bound: 3, Bits: 3, Scale: 0.5, Weights: []int32{3, -3, 0, 1}, Method: MethodRound}
	if err := good.Validate(); err != nil {
		t.Fatalf("valid readout: %v", err)
	}
	tests := []struct {
		name   string
		modify func(r *Readout)
		want   string
	}{
		{"weight above bound", func(r *Readout) { r.Weights[1] = 4 }, "weight [0][1] = 4 outside ±3"},
		{"weight below bound", func(r *Readout) { r.Weights[2] = -4 }, "weight [1][0] = -4 outside ±3"},
		{"too few weights", func(r *Readout) { r.Weights = r.Weights[:3] }, "has 3 weights"},
		{"bits mismatch", func(r *Readout) { r.Bits = 4 }, "bits 4, bound 3 needs 3"},
		{"zero scale", func(r *Readout) { r.Scale = 0 }, "scale 0"},
		{"NaN scale", func(r *Readout) { r.Scale = math.NaN() }, "scale NaN"},
		{"bound 0", func(r *Readout) { r.Bound = 0 }, "bound 0"},
		{"no classes", func(r *Readout) { r.Classes = 0 }, "empty shape"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := good.Clone()
			tc.modify(&r)
			err := r.Validate()
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Validate = %v, want an error containing %q", err, tc.want)
			}
		})
	}
}

func TestFloatAndClone(t *testing.T) {
	r := Readout{Classes: 1, Neurons: 3, Bound: 3, Bits: 3, Scale: 0.25, Weights: []int32{3, -1, 0}}
	if diff := cmp.Diff([]float64{0.75, -0.25, 0}, r.Float()); diff != "" {
		t.Errorf("Float mismatch (-want +got):\n%s", diff)
	}
	c := r.Clone()
	c.Weights[0] = 0
	if r.Weights[0] != 3 {
		t.Error("Clone shares Weights with the original")
	}
}
