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

//go:noescape
func sqDevInt8AVX512(d, mean *float64, x *int8, n int)

// AddSquaredDeviationsInt8 adds (x[j] − mean[j])² into d[j] for j < len(d)
// (len(mean), len(x) ≥ len(d)): the difference rounded, then the square,
// then the sum, never fused, as the loop
//
//	dv := float64(x[j]) - mean[j]
//	d[j] += float64(dv * dv)
//
// computes it — bit for bit, eight columns at a time on AVX-512. It is the
// variance penalty's inner loop over the rows of an intRVFL hidden layer.
func AddSquaredDeviationsInt8(d, mean []float64, x []int8) {
	n := len(d)
	if n == 0 {
		return
	}
	_, _ = mean[n-1], x[n-1]
	j := 0
	if hasAVX512 && n >= 8 {
		j = n &^ 7
		sqDevInt8AVX512(&d[0], &mean[0], &x[0], j)
	}
	sqDevGeneric(d[j:], mean[j:n], x[j:n])
}

//go:noescape
func addInt8AVX512(acc *int32, x *int8, n int)

// AddInt8To32 adds x[j] into acc[j] for j < len(acc) (len(x) ≥ len(acc)),
// sixteen at a time on AVX-512: the class sums of an intRVFL hidden layer.
// The caller keeps the sums within int32.
func AddInt8To32(acc []int32, x []int8) {
	n := len(acc)
	if n == 0 {
		return
	}
	_ = x[n-1]
	j := 0
	if hasAVX512 && n >= 16 {
		j = n &^ 15
		addInt8AVX512(&acc[0], &x[0], j)
	}
	for ; j < n; j++ {
		acc[j] += int32(x[j])
	}
}

//go:noescape
func clipInt16SSE2(dst *int8, src *int16, c int, n int)

// ClipInt16ToInt8 writes min(max(src[j], −c), c) into dst[j] for j <
// len(dst) (len(src) ≥ len(dst)), sixteen at a time: an intRVFL's hidden
// inputs clipped into its activations. c must lie in [0, 127].
func ClipInt16ToInt8(dst []int8, src []int16, c int) {
	if c < 0 || c > 127 {
		panic("linalg: ClipInt16ToInt8: clip outside [0, 127]")
	}
	n := len(dst)
	if n == 0 {
		return
	}
	_ = src[n-1]
	j := n &^ 15
	if j > 0 {
		clipInt16SSE2(&dst[0], &src[0], c, j)
	}
	clipGeneric(dst[j:], src[j:n], int16(c))
}

//go:noescape
func symvRowAVX512(row, v, y *float64, a float64, n int) float64

// dotAxpyVec returns dotVec(x, v) and does axpyVec(y, a, x) over n =
// len(x) (len(v), len(y) ≥ n): one pass over x, the symmetric
// matrix-vector product's two uses of a row of the lower triangle. Both
// results are those of the two calls bit for bit: on AVX-512 the dot keeps
// dotAVX2's sixteen partial sums (two vectors of eight, in the same lanes)
// and its order of reduction, and the update is the same fused multiply-add
// per element.
func dotAxpyVec(x, v, y []float64, a float64) float64 {
	n := len(x)
	if n == 0 {
		return 0
	}
	if !hasAVX512 {
		d := dotVec(x, v)
		axpyVec(y[:n], a, x)
		return d
	}
	_, _ = v[n-1], y[n-1]
	return symvRowAVX512(&x[0], &v[0], &y[0], a, n)
}

//go:noescape
func panelTransMatvecAVX512(w, v, x *float64, rows int, c1, c2 *float64)

// panelTransMatvec writes c1[s] = Σ_r fl(w[r][s]·x[r]) and c2[s] = Σ_r
// fl(v[r][s]·x[r]) for s < 32 (rows of 32 values, r < len(x)), each sum in
// order of r with every product rounded before it is added: the panel's
// corrections of the tridiagonalisation, the plain loop's bits.
func panelTransMatvec(w, v, x, c1, c2 []float64) {
	rows := len(x)
	_, _ = c1[panelLanes-1], c2[panelLanes-1]
	if !hasAVX512 || rows == 0 {
		panelTransMatvecGeneric(w, v, x, c1, c2)
		return
	}
	_, _ = w[rows*panelLanes-1], v[rows*panelLanes-1]
	panelTransMatvecAVX512(&w[0], &v[0], &x[0], rows, &c1[0], &c2[0])
}

//go:noescape
func dot2RowsAVX512(v, w *float64, ld int, x1, x2 *float64, t, rows int, out *float64)

// dot2Rows writes out[r] = dotVec(v[r·ld:][:t], x1) + dotVec(w[r·ld:][:t], x2)
// for r < len(out): the panel's short products of the tridiagonalisation,
// one call for all rows instead of two per row, dotVec's bits.
func dot2Rows(v, w []float64, ld int, x1, x2 []float64, t int, out []float64) {
	rows := len(out)
	if rows == 0 {
		return
	}
	if !hasAVX512 || !hasAVX2FMA || t == 0 {
		for r := range out {
			out[r] = dotVec(v[r*ld:r*ld+t], x1[:t]) + dotVec(w[r*ld:r*ld+t], x2[:t])
		}
		return
	}
	_, _ = v[(rows-1)*ld+t-1], w[(rows-1)*ld+t-1]
	_, _ = x1[t-1], x2[t-1]
	dot2RowsAVX512(&v[0], &w[0], ld, &x1[0], &x2[0], t, rows, &out[0])
}
