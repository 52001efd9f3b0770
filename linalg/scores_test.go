package linalg

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// TestRowScores: every score kernel, on any thread count, gives the plain
// loop's scores bit for bit (each product rounded, then added in order,
// never fused), for shapes around the kernels' 4 rows and 8 classes, with
// integer activations (the intRVFL's) and general values.
func TestRowScores(t *testing.T) {
	tests := []struct {
		m, n, l int
		ints    bool // H of small integers, as an intRVFL's activations
	}{
		{1, 1, 1, true}, {3, 7, 2, false}, {4, 8, 8, true}, {5, 100, 26, true}, {9, 64, 100, false},
		{17, 1500, 3, true}, {8, 33, 9, false}, {2, 5, 0, false}, {0, 5, 3, true}, {3, 0, 2, false},
	}
	fusedSomewhere := false
	for ti, tt := range tests {
		t.Run(fmt.Sprintf("%dx%d·%d", tt.m, tt.n, tt.l), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(29, uint64(ti)))
			ldh, ldw, lds := tt.n+ti%3, tt.n+ti%2, tt.l+1
			h := make([]float64, max(tt.m*ldh, 1))
			w := make([]float64, max(tt.l*ldw, 1))
			for i := range h {
				if tt.ints {
					h[i] = float64(rng.IntN(7) - 3)
				} else {
					h[i] = rng.NormFloat64()
				}
			}
			for i := range w {
				w[i] = rng.NormFloat64() * math.Exp2(float64(rng.IntN(20)-10))
			}
			want := make([]float64, max(tt.m*lds, 1))
			for r := 0; r < tt.m; r++ {
				for c := 0; c < tt.l; c++ {
					var s, f float64
					for j := 0; j < tt.n; j++ {
						s += float64(w[c*ldw+j] * h[r*ldh+j])
						f = math.FMA(w[c*ldw+j], h[r*ldh+j], f)
					}
					want[r*lds+c] = s
					fusedSomewhere = fusedSomewhere || f != s
				}
			}
			for ki, kern := range scoreKernels() {
				for _, th := range []int{1, 2} {
					got := make([]float64, len(want))
					for i := range got {
						got[i] = 12345
					}
					Engine{Threads: th}.rowScores(kern, tt.m, tt.n, tt.l, h, ldh, w, ldw, got, lds)
					for r := 0; r < tt.m; r++ {
						for c := 0; c < lds; c++ {
							i := r*lds + c
							if c >= tt.l {
								if got[i] != 12345 {
									t.Fatalf("kernel %d threads %d: S[%d][%d] outside the %d classes written", ki, th, r, c, tt.l)
								}
								continue
							}
							if math.Float64bits(got[i]) != math.Float64bits(want[i]) {
								t.Fatalf("kernel %d threads %d: S[%d][%d] = %v, the loop gives %v", ki, th, r, c, got[i], want[i])
							}
						}
					}
				}
			}
		})
	}
	if !fusedSomewhere {
		t.Fatal("no case where a fused multiply-add would differ: the test could not see one")
	}
}

// TestAddSquaredDeviationsInt8: the vector kernel gives the loop's sums bit
// for bit (difference, square and sum each rounded), for lengths around its
// eight lanes, accumulating over several rows.
func TestAddSquaredDeviationsInt8(t *testing.T) {
	for _, n := range []int{0, 1, 7, 8, 9, 16, 33, 1500} {
		rng := rand.New(rand.NewPCG(31, uint64(n)))
		mean := make([]float64, n)
		for j := range mean {
			mean[j] = rng.NormFloat64() * 3
		}
		got, want := make([]float64, n), make([]float64, n)
		fusedSomewhere := false
		for r := 0; r < 5; r++ {
			x := make([]int8, n)
			for j := range x {
				x[j] = int8(rng.IntN(255) - 127)
			}
			AddSquaredDeviationsInt8(got, mean, x)
			for j := range want {
				dv := float64(x[j]) - mean[j]
				fusedSomewhere = fusedSomewhere || math.FMA(dv, dv, want[j]) != want[j]+float64(dv*dv)
				want[j] += float64(dv * dv)
			}
		}
		for j := range want {
			if math.Float64bits(got[j]) != math.Float64bits(want[j]) {
				t.Fatalf("n=%d: d[%d] = %v, the loop gives %v", n, j, got[j], want[j])
			}
		}
		if n >= 33 && !fusedSomewhere {
			t.Fatalf("n=%d: no element where a fused multiply-add would differ", n)
		}
	}
}

// TestAddInt8To32 against the plain loop, around the kernel's 16 lanes.
func TestAddInt8To32(t *testing.T) {
	for _, n := range []int{0, 1, 15, 16, 17, 48, 1500} {
		rng := rand.New(rand.NewPCG(37, uint64(n)))
		got, want := make([]int32, n), make([]int32, n)
		for r := 0; r < 3; r++ {
			x := make([]int8, n)
			for j := range x {
				x[j] = int8(rng.IntN(256) - 128)
				want[j] += int32(x[j])
			}
			AddInt8To32(got, x)
		}
		for j := range want {
			if got[j] != want[j] {
				t.Fatalf("n=%d: acc[%d] = %d, want %d", n, j, got[j], want[j])
			}
		}
	}
}

// TestClipInt16ToInt8 against the plain loop, around the kernel's 16 lanes,
// for clips from 0 to 127 and inputs beyond them both ways.
func TestClipInt16ToInt8(t *testing.T) {
	for _, n := range []int{0, 1, 15, 16, 17, 48, 1500} {
		for _, c := range []int{0, 1, 3, 15, 127} {
			rng := rand.New(rand.NewPCG(41, uint64(n*131+c)))
			src := make([]int16, n)
			for j := range src {
				src[j] = int16(rng.IntN(1001) - 500)
			}
			got := make([]int8, n)
			ClipInt16ToInt8(got, src, c)
			for j, v := range src {
				if want := int8(min(max(int(v), -c), c)); got[j] != want {
					t.Fatalf("n=%d c=%d: dst[%d] = %d for %d, want %d", n, c, j, got[j], v, want)
				}
			}
		}
	}
}

// TestDotAxpyVec: the fused pass gives dotVec's sum and axpyVec's update
// bit for bit, for lengths around the 16-element step.
func TestDotAxpyVec(t *testing.T) {
	for n := 0; n <= 70; n++ {
		rng := rand.New(rand.NewPCG(43, uint64(n)))
		x, v, y := make([]float64, n), make([]float64, n), make([]float64, n)
		for i := range x {
			x[i], v[i], y[i] = rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()*100
		}
		a := rng.NormFloat64()
		want := append([]float64(nil), y...)
		wd := dotVec(x, v)
		axpyVec(want, a, x)
		got := append([]float64(nil), y...)
		gd := dotAxpyVec(x, v, got, a)
		if math.Float64bits(gd) != math.Float64bits(wd) {
			t.Fatalf("n=%d: dot %v, dotVec %v", n, gd, wd)
		}
		for i := range want {
			if math.Float64bits(got[i]) != math.Float64bits(want[i]) {
				t.Fatalf("n=%d: y[%d] = %v, axpyVec gives %v", n, i, got[i], want[i])
			}
		}
	}
}

// TestPanelTransMatvec: the vector kernel of the panel's corrections gives
// the plain loop's sums bit for bit (products rounded, rows in order).
func TestPanelTransMatvec(t *testing.T) {
	for _, rows := range []int{1, 2, 31, 500} {
		rng := rand.New(rand.NewPCG(53, uint64(rows)))
		w, v, x := make([]float64, rows*panelLanes), make([]float64, rows*panelLanes), make([]float64, rows)
		for i := range w {
			w[i], v[i] = rng.NormFloat64(), rng.NormFloat64()
		}
		for i := range x {
			x[i] = rng.NormFloat64()
		}
		want1, want2 := make([]float64, panelLanes), make([]float64, panelLanes)
		panelTransMatvecGeneric(w, v, x, want1, want2)
		got1, got2 := make([]float64, panelLanes), make([]float64, panelLanes)
		for i := range got1 {
			got1[i], got2[i] = 7, 7 // overwritten, not added to
		}
		panelTransMatvec(w, v, x, got1, got2)
		for s := 0; s < panelLanes; s++ {
			if math.Float64bits(got1[s]) != math.Float64bits(want1[s]) || math.Float64bits(got2[s]) != math.Float64bits(want2[s]) {
				t.Fatalf("rows=%d lane %d: (%v, %v), the loop gives (%v, %v)", rows, s, got1[s], got2[s], want1[s], want2[s])
			}
		}
	}
}

// TestDot2Rows: the row-pair products equal dotVec's, per row, bit for bit,
// for lengths around the 16-element step.
func TestDot2Rows(t *testing.T) {
	const ld, rows = 64, 9
	for n := 0; n <= ld; n++ {
		rng := rand.New(rand.NewPCG(59, uint64(n)))
		v, w := make([]float64, rows*ld), make([]float64, rows*ld)
		x1, x2 := make([]float64, ld), make([]float64, ld)
		for i := range v {
			v[i], w[i] = rng.NormFloat64(), rng.NormFloat64()
		}
		for i := range x1 {
			x1[i], x2[i] = rng.NormFloat64(), rng.NormFloat64()
		}
		got := make([]float64, rows)
		dot2Rows(v, w, ld, x1, x2, n, got)
		for r := range got {
			want := dotVec(v[r*ld:r*ld+n], x1[:n]) + dotVec(w[r*ld:r*ld+n], x2[:n])
			if math.Float64bits(got[r]) != math.Float64bits(want) {
				t.Fatalf("t=%d row %d: %v, dotVec gives %v", n, r, got[r], want)
			}
		}
	}
}
