package protocol

import "testing"

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
