//go:build amd64

package linalg

//go:noescape
func dotAVX2(x, y *float64, n int) float64

//go:noescape
func axpyAVX2(y *float64, a float64, x *float64, n int)

// dotVec returns Σ x[i]·y[i] over len(x) (len(y) ≥ len(x)).
func dotVec(x, y []float64) float64 {
	if len(x) == 0 {
		return 0
	}
	if !hasAVX2FMA {
		return dot(x, y)
	}
	_ = y[len(x)-1]
	return dotAVX2(&x[0], &y[0], len(x))
}

// axpyVec computes y += a·x over len(y) (len(x) ≥ len(y)).
func axpyVec(y []float64, a float64, x []float64) {
	if len(y) == 0 {
		return
	}
	if !hasAVX2FMA {
		axpyGeneric(y, a, x)
		return
	}
	_ = x[len(y)-1]
	axpyAVX2(&y[0], a, &x[0], len(y))
}
