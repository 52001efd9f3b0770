//go:build !amd64

package linalg

// dotVec returns Σ x[i]·y[i] over len(x) (len(y) ≥ len(x)).
func dotVec(x, y []float64) float64 { return dot(x, y) }

// axpyVec computes y += a·x over len(y) (len(x) ≥ len(y)).
func axpyVec(y []float64, a float64, x []float64) { axpyGeneric(y, a, x) }
