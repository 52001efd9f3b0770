package linalg

import "github.com/hdlgen/hdlgen/internal/parallel"

// scoreLanes is the number of classes a score kernel call covers (one
// AVX-512 vector, two AVX2 vectors), and scoreRows the rows it computes at
// once (independent accumulators hide the latency of the additions).
const (
	scoreLanes = 8
	scoreRows  = 4
)

// RowScores computes the m×l scores S = H·Wᵀ of the m rows of H (m×n,
// leading dimension ldh) against the l rows of W (l×n, leading dimension
// ldw) into s (leading dimension lds), each as the plain loop computes it:
//
//	s := 0.0
//	for j := 0; j < n; j++ { s += float64(w[c][j] * h[r][j]) }
//
// every product rounded, then added in order of j, never fused into a
// multiply-add. So S[r][c] is that loop's result bit for bit (model.MulRows,
// the readout of a float model, is that loop); the kernels only compute
// several classes and rows side by side, each with its own sequence of
// operations. Results do not depend on Threads.
func (e Engine) RowScores(m, n, l int, h []float64, ldh int, w []float64, ldw int, s []float64, lds int) {
	checkMat("H", m, n, h, ldh)
	checkMat("W", l, n, w, ldw)
	checkMat("S", m, l, s, lds)
	e.rowScores(scoreKernel(), m, n, l, h, ldh, w, ldw, s, lds)
}

// scoreKern is a score kernel (scores_amd64.go); nil means the Go loop.
type scoreKern func(n int, h0, h1, h2, h3, w, out *float64)

// rowScores is RowScores on kern, the checks done.
func (e Engine) rowScores(kern scoreKern, m, n, l int, h []float64, ldh int, w []float64, ldw int, s []float64, lds int) {
	if m == 0 || l == 0 {
		return
	}
	if kern == nil || n == 0 {
		rowScoresGeneric(m, n, l, h, ldh, w, ldw, s, lds)
		return
	}
	// W in panels of scoreLanes classes: panel q holds W[q·8+i][j] at
	// [q][j][i], the classes beyond l zero.
	panels := (l + scoreLanes - 1) / scoreLanes
	wp := make([]float64, panels*n*scoreLanes)
	for c := 0; c < l; c++ {
		q, i := c/scoreLanes, c%scoreLanes
		dst := wp[q*n*scoreLanes:]
		for j, v := range w[c*ldw : c*ldw+n] {
			dst[j*scoreLanes+i] = v
		}
	}
	groups := (m + scoreRows - 1) / scoreRows
	parallel.For(e.threads(), groups, func(_, g int) {
		var out [scoreRows * scoreLanes]float64
		var rows [scoreRows]*float64
		r0 := g * scoreRows
		for k := range rows {
			rows[k] = &h[min(r0+k, m-1)*ldh] // a short last group repeats its last row
		}
		for q := 0; q < panels; q++ {
			kern(n, rows[0], rows[1], rows[2], rows[3], &wp[q*n*scoreLanes], &out[0])
			for k := 0; k < scoreRows && r0+k < m; k++ {
				c0 := q * scoreLanes
				copy(s[(r0+k)*lds+c0:(r0+k)*lds+min(c0+scoreLanes, l)], out[k*scoreLanes:])
			}
		}
	})
}

// rowScoresGeneric is RowScores in Go, row by row and class by class.
func rowScoresGeneric(m, n, l int, h []float64, ldh int, w []float64, ldw int, s []float64, lds int) {
	for r := 0; r < m; r++ {
		hr := h[r*ldh : r*ldh+n]
		for c := 0; c < l; c++ {
			var acc float64
			for j, v := range w[c*ldw : c*ldw+n] {
				acc += float64(v * hr[j])
			}
			s[r*lds+c] = acc
		}
	}
}
