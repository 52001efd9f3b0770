package linalg

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestGramInt8: the integer Gram equals the float Gram of the same values
// bit for bit, for every shape edge of the 8×48 tile and 4096-row block,
// both signs and bounds up to 127.
func TestGramInt8(t *testing.T) {
	tests := []struct{ m, n, bound int }{
		{1, 1, 1}, {3, 5, 1}, {4, 8, 3}, {5, 9, 3}, {17, 47, 7}, {64, 48, 15},
		{100, 49, 15}, {1023, 97, 3}, {1024, 96, 1}, {1025, 100, 127}, {2500, 130, 15}, {300, 1, 2},
		{4095, 50, 127}, {4096, 17, 3}, {4097, 64, 127},
		{513, 96, 90}, {4097, 50, 90}, {200, 48, 91}, // the AVX2 tile's largest offset, and one above (the float Gram there)
		{0, 4, 1},
	}
	for ti, tt := range tests {
		t.Run(fmt.Sprintf("%dx%d/±%d", tt.m, tt.n, tt.bound), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(17, uint64(ti)))
			lda := tt.n + ti%3
			a := make([]int8, max(tt.m*lda, 1))
			f := make([]float64, tt.m*tt.n)
			for r := 0; r < tt.m; r++ {
				for j := 0; j < tt.n; j++ {
					v := int8(rng.IntN(2*tt.bound+1) - tt.bound)
					a[r*lda+j] = v
					f[r*tt.n+j] = float64(v)
				}
			}
			for _, th := range []int{0, 1, 2} { // 0: the float fallback
				want := make([]float64, tt.n*tt.n)
				Engine{}.Gram(tt.m, tt.n, f, tt.n, want, tt.n)
				got := make([]float64, tt.n*tt.n)
				for i := range got {
					got[i] = 12345 // GramInt8 must overwrite every element
				}
				if th == 0 {
					Engine{}.gramInt8(nil, tt.m, tt.n, a, lda, got, tt.n)
				} else {
					Engine{Threads: th}.GramInt8(tt.m, tt.n, a, lda, got, tt.n)
				}
				if diff := cmp.Diff(want, got); diff != "" {
					t.Fatalf("threads=%d (integer tile: %v): GramInt8 differs from Gram:\n%s", th, int8KernelFor(tt.bound) != nil, diff)
				}
			}
		})
	}
}

// TestGramInt8Known: with a bound at or above the largest magnitude and the
// column sums, GramInt8Known equals GramInt8 bit for bit.
func TestGramInt8Known(t *testing.T) {
	for ti, tt := range []struct{ m, n, max, bound int }{
		{1, 1, 1, 1}, {5, 9, 3, 3}, {100, 49, 3, 15}, {1025, 100, 7, 127}, {2500, 130, 15, 15}, {0, 4, 1, 1},
	} {
		rng := rand.New(rand.NewPCG(23, uint64(ti)))
		lda := tt.n + ti%2
		a := make([]int8, max(tt.m*lda, 1))
		sums := make([]int64, tt.n)
		for r := 0; r < tt.m; r++ {
			for j := 0; j < tt.n; j++ {
				v := int8(rng.IntN(2*tt.max+1) - tt.max)
				a[r*lda+j] = v
				sums[j] += int64(v)
			}
		}
		want := make([]float64, tt.n*tt.n)
		Engine{}.GramInt8(tt.m, tt.n, a, lda, want, tt.n)
		got := make([]float64, tt.n*tt.n)
		Engine{Threads: 2}.GramInt8Known(tt.m, tt.n, a, lda, tt.bound, sums, got, tt.n)
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%d×%d, |a| ≤ %d, bound %d: GramInt8Known differs from GramInt8:\n%s", tt.m, tt.n, tt.max, tt.bound, diff)
		}
	}
}
