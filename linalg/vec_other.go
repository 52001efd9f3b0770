//go:build !amd64

package linalg

// dotVec returns Σ x[i]·y[i] over len(x) (len(y) ≥ len(x)).
func dotVec(x, y []float64) float64 { return dot(x, y) }

// axpyVec computes y += a·x over len(y) (len(x) ≥ len(y)).
func axpyVec(y []float64, a float64, x []float64) { axpyGeneric(y, a, x) }

// AddSquaredDeviationsInt8 adds (x[j] − mean[j])² into d[j] for j < len(d)
// (len(mean), len(x) ≥ len(d)): the difference rounded, then the square,
// then the sum, never fused.
func AddSquaredDeviationsInt8(d, mean []float64, x []int8) {
	n := len(d)
	sqDevGeneric(d, mean[:n], x[:n])
}

// AddInt8To32 adds x[j] into acc[j] for j < len(acc) (len(x) ≥ len(acc)).
// The caller keeps the sums within int32.
func AddInt8To32(acc []int32, x []int8) {
	for j := range acc {
		acc[j] += int32(x[j])
	}
}

// ClipInt16ToInt8 writes min(max(src[j], −c), c) into dst[j] for j <
// len(dst) (len(src) ≥ len(dst)). c must lie in [0, 127].
func ClipInt16ToInt8(dst []int8, src []int16, c int) {
	if c < 0 || c > 127 {
		panic("linalg: ClipInt16ToInt8: clip outside [0, 127]")
	}
	clipGeneric(dst, src[:len(dst)], int16(c))
}

// dotAxpyVec returns dotVec(x, v) and does axpyVec(y, a, x) over len(x).
func dotAxpyVec(x, v, y []float64, a float64) float64 {
	d := dotVec(x, v)
	axpyVec(y[:len(x)], a, x)
	return d
}

// panelTransMatvec is panelTransMatvecGeneric off amd64.
func panelTransMatvec(w, v, x, c1, c2 []float64) { panelTransMatvecGeneric(w, v, x, c1, c2) }

// dot2Rows writes out[r] = dotVec(v[r·ld:][:t], x1) + dotVec(w[r·ld:][:t], x2).
func dot2Rows(v, w []float64, ld int, x1, x2 []float64, t int, out []float64) {
	for r := range out {
		out[r] = dotVec(v[r*ld:r*ld+t], x1[:t]) + dotVec(w[r*ld:r*ld+t], x2[:t])
	}
}
