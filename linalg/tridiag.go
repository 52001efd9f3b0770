package linalg

import "math"

// separateSymv makes the panel run its loops as before its vector kernels:
// dotVec and axpyVec per row of the symmetric matrix-vector product (which
// dotAxpyVec fuses into one pass over the row) and the Go loop of the
// corrections c1, c2 (panelTransMatvec). The bits are the same; tests and
// BenchmarkSymFilterApplyFused compare the two.
var separateSymv = false

// tridiagBlock is the panel width of the blocked tridiagonalisation and of
// the blocked back-transformation.
const tridiagBlock = 32

// reflectorBlock is one panel of Householder reflectors H_t = I − τ_t·v_t·v_tᵀ
// (t = 0…nb−1) of the tridiagonalisation: v_t is column t of V, a rows×nb
// row-major matrix whose row r is global row first+r; v_t is zero above its
// row first+t and 1 there.
type reflectorBlock struct {
	first, rows, nb int
	v               []float64
	tau             []float64
	t               []float64 // triangularFactor, when computed ahead (nil: on use)
}

// tridiagonalize reduces the symmetric n×n matrix A (lower triangle in a,
// destroyed) to tridiagonal form T = Qᵀ·A·Q by Householder reflectors
// from the left (LAPACK's dsytrd with uplo = 'L', blocked as dlatrd):
// d gets the diagonal of T, off its subdiagonal, and the returned blocks
// hold Q = H_0·H_1·…·H_{n−2} (in order).
func (e Engine) tridiagonalize(n int, a []float64, lda int, d, off []float64) []reflectorBlock {
	var blocks []reflectorBlock
	j0 := 0
	for ; n-j0 > 2*tridiagBlock; j0 += tridiagBlock {
		pb := e.panel(n, j0, tridiagBlock, a, lda, d, off)
		// Trailing update A22 −= V·Wᵀ + W·Vᵀ (lower triangle) on rows and
		// columns s = j0+nb…; they are rows s−first… of the panel.
		s := j0 + tridiagBlock
		m, nb := n-s, pb.nb
		o := (s - pb.first) * nb
		e.gemm(false, true, m, m, nb, -1, pb.v[o:], nb, pb.w[o:], nb, 1, a[s*lda+s:], lda, true)
		e.gemm(false, true, m, m, nb, -1, pb.w[o:], nb, pb.v[o:], nb, 1, a[s*lda+s:], lda, true)
		blocks = append(blocks, pb.reflectorBlock)
	}
	// The rest in one panel: every remaining column but the last has a
	// reflector; the last diagonal element gets the panel's update here.
	rest := n - j0
	if rest == 1 {
		d[j0] = a[j0*lda+j0]
		return blocks
	}
	pb := e.panel(n, j0, rest-1, a, lda, d, off)
	d[n-1] = a[(n-1)*lda+n-1] - 2*pb.lastCorrection(n)
	return append(blocks, pb.reflectorBlock)
}

// panelBlock is a reflectorBlock with the W of the panel kept until the
// trailing update.
type panelBlock struct {
	reflectorBlock
	w []float64
}

// lastCorrection returns (V·Wᵀ)[n−1][n−1] of a panel that ends at the last
// column but one: the update of the last diagonal element, which the panel
// loop never visits (the last column has no reflector).
func (b panelBlock) lastCorrection(n int) float64 {
	r := n - 1 - b.first
	return dotVec(b.v[r*b.nb:r*b.nb+b.nb], b.w[r*b.nb:r*b.nb+b.nb])
}

// panel reduces columns j0…j0+nb−1 (nb ≤ n−j0−1) as LAPACK's dlatrd: the
// columns are updated with the panel's earlier reflectors on the fly, and
// W (A·v corrections) is returned with the reflectors; the trailing matrix
// (rows and columns ≥ j0+nb) is left for the caller's rank-2nb update.
func (e Engine) panel(n, j0, nb int, a []float64, lda int, d, off []float64) panelBlock {
	first := j0 + 1
	rows := n - first
	blk := panelBlock{reflectorBlock: reflectorBlock{first: first, rows: rows, nb: nb,
		v: make([]float64, rows*nb), tau: make([]float64, nb)}, w: make([]float64, rows*nb)}
	v, w := blk.v, blk.w
	col := make([]float64, n)
	c1 := make([]float64, nb)
	c2 := make([]float64, nb)
	y := make([]float64, rows)
	corrBuf := make([]float64, rows)
	for t := 0; t < nb; t++ {
		i := j0 + t
		// Column i, rows i…n−1, updated with the panel's reflectors 0…t−1.
		for r := i; r < n; r++ {
			col[r] = a[r*lda+i]
		}
		if t > 0 {
			ri := i - first // row i in panel coordinates (≥ 0 when t > 0)
			vi, wi := v[ri*nb:ri*nb+t], w[ri*nb:ri*nb+t]
			if separateSymv {
				for r := i; r < n; r++ {
					p := r - first
					col[r] -= dotVec(v[p*nb:p*nb+t], wi) + dotVec(w[p*nb:p*nb+t], vi)
				}
			} else {
				corr := y[:n-i]
				dot2Rows(v[ri*nb:], w[ri*nb:], nb, wi, vi, t, corr)
				for r := i; r < n; r++ {
					col[r] -= corr[r-i]
				}
			}
		}
		d[i] = col[i]
		// Householder reflector for x = col[i+1:n].
		x := col[i+1 : n]
		beta, tau := householder(x)
		off[i] = beta
		blk.tau[t] = tau
		base := i + 1 - first // = t
		for k, xv := range x {
			v[(base+k)*nb+t] = xv
		}
		if tau == 0 {
			continue // H = I: w = 0
		}
		// y = A22·v with A22 = a[i+1:, i+1:] (lower triangle, not yet
		// updated by this panel), then the panel's corrections.
		m := n - i - 1
		vv := x // v restricted to rows i+1… (x holds v: x[0] = 1)
		yy := y[:m]
		clear(yy)
		for r := 0; r < m; r++ {
			row := a[(i+1+r)*lda+i+1 : (i+1+r)*lda+i+1+r+1]
			if separateSymv {
				yy[r] += dotVec(row[:r], vv[:r]) + row[r]*vv[r]
				axpyVec(yy[:r], vv[r], row[:r])
				continue
			}
			yy[r] += dotAxpyVec(row[:r], vv[:r], yy[:r], vv[r]) + row[r]*vv[r]
		}
		if t > 0 {
			// c1 = W[rows, :t]ᵀ·v, c2 = V[rows, :t]ᵀ·v, each sum in row order
			// with the products rounded (unfused).
			if nb == panelLanes && !separateSymv {
				panelTransMatvec(w[base*nb:(base+m)*nb], v[base*nb:(base+m)*nb], vv[:m], c1, c2)
			} else {
				clear(c1[:t])
				clear(c2[:t])
				for r := 0; r < m; r++ {
					p := base + r
					vr := vv[r]
					wr, vrow := w[p*nb:p*nb+t], v[p*nb:p*nb+t]
					for s := 0; s < t; s++ {
						c1[s] += float64(wr[s] * vr)
						c2[s] += float64(vrow[s] * vr)
					}
				}
			}
			if separateSymv {
				for r := 0; r < m; r++ {
					p := base + r
					yy[r] -= dotVec(v[p*nb:p*nb+t], c1[:t]) + dotVec(w[p*nb:p*nb+t], c2[:t])
				}
			} else {
				corr := corrBuf[:m]
				dot2Rows(v[base*nb:], w[base*nb:], nb, c1, c2, t, corr)
				for r := 0; r < m; r++ {
					yy[r] -= corr[r]
				}
			}
		}
		// w = τ·y − ½·τ²·(yᵀv)·v
		alpha := -0.5 * tau * tau * dotVec(yy, vv)
		for r := 0; r < m; r++ {
			w[(base+r)*nb+t] = tau*yy[r] + alpha*vv[r]
		}
	}
	return blk
}

// householder computes the reflector H = I − τ·v·vᵀ with Hx = β·e₁ (LAPACK's
// dlarfg): it overwrites x with v (x[0] = 1) and returns β and τ (τ = 0 and
// β = x[0] when x[1:] is zero).
func householder(x []float64) (beta, tau float64) {
	alpha := x[0]
	if len(x) == 1 {
		x[0] = 1
		return alpha, 0
	}
	xnorm := norm2(x[1:])
	if xnorm == 0 {
		x[0] = 1
		return alpha, 0
	}
	beta = -math.Copysign(math.Hypot(alpha, xnorm), alpha)
	tau = (beta - alpha) / beta
	scale := 1 / (alpha - beta)
	for k := 1; k < len(x); k++ {
		x[k] *= scale
	}
	x[0] = 1
	return beta, tau
}

// norm2 returns the Euclidean norm of x without overflow.
func norm2(x []float64) float64 {
	var scale, ssq float64 = 0, 1
	for _, v := range x {
		if v == 0 {
			continue
		}
		a := math.Abs(v)
		if scale < a {
			ssq = 1 + ssq*(scale/a)*(scale/a)
			scale = a
		} else {
			ssq += (a / scale) * (a / scale)
		}
	}
	return scale * math.Sqrt(ssq)
}

// axpyGeneric computes y += a·x over len(y) in Go.
func axpyGeneric(y []float64, a float64, x []float64) {
	x = x[:len(y)]
	i := 0
	for ; i+4 <= len(y); i += 4 {
		y[i] += a * x[i]
		y[i+1] += a * x[i+1]
		y[i+2] += a * x[i+2]
		y[i+3] += a * x[i+3]
	}
	for ; i < len(y); i++ {
		y[i] += a * x[i]
	}
}

// applyQ overwrites the n×ncols matrix Z with Q·Z, Q = H_0·…·H_{n−2} from
// the blocks of tridiagonalize, by blocks of reflectors in compact WY form
// (I − V·T·Vᵀ, LAPACK's dlarft/dlarfb), the last block first.
func (e Engine) applyQ(n, ncols int, blocks []reflectorBlock, z []float64, ldz int) {
	for b := len(blocks) - 1; b >= 0; b-- {
		e.applyBlock(blocks[b], false, ncols, z, ldz)
	}
}

// factor returns the block's triangular factor: the one computed ahead, or
// a fresh one.
func (blk reflectorBlock) factor() []float64 {
	if blk.t != nil {
		return blk.t
	}
	return blk.triangularFactor()
}

// triangularFactor returns the nb×nb upper triangular T with
// H_0·…·H_{nb−1} = I − V·T·Vᵀ (forward, columnwise: dlarft).
func (blk reflectorBlock) triangularFactor() []float64 {
	nb, rows, v := blk.nb, blk.rows, blk.v
	t := make([]float64, nb*nb)
	c := make([]float64, nb)
	for j := 0; j < nb; j++ {
		tau := blk.tau[j]
		t[j*nb+j] = tau
		if j == 0 || tau == 0 {
			continue
		}
		// c = −τ·V[:, :j]ᵀ·v_j
		clear(c[:j])
		for r := j; r < rows; r++ {
			vr := v[r*nb+j]
			if vr == 0 {
				continue
			}
			row := v[r*nb : r*nb+j]
			for s := range row {
				c[s] += row[s] * vr
			}
		}
		// T[:j, j] = T[:j, :j]·c·(−τ)
		for s := 0; s < j; s++ {
			var acc float64
			for q := s; q < j; q++ {
				acc += t[s*nb+q] * c[q]
			}
			t[s*nb+j] = -tau * acc
		}
	}
	return t
}

// applyBlock multiplies rows blk.first, … of the ncols-column matrix c by
// the block's reflector I − V·T·Vᵀ, or by its transpose I − V·Tᵀ·Vᵀ when
// transT is set.
func (e Engine) applyBlock(blk reflectorBlock, transT bool, ncols int, c []float64, ldc int) {
	nb, rows := blk.nb, blk.rows
	t := blk.factor()
	cb := c[blk.first*ldc:]
	y := make([]float64, nb*ncols)
	e.gemm(true, false, nb, ncols, rows, 1, blk.v, nb, cb, ldc, 0, y, ncols, false)
	ty := make([]float64, nb*ncols)
	e.gemm(transT, false, nb, ncols, nb, 1, t, nb, y, ncols, 0, ty, ncols, false)
	e.gemm(false, false, rows, ncols, nb, -1, blk.v, nb, ty, ncols, 1, cb, ldc, false)
}

// sqDevGeneric is AddSquaredDeviationsInt8 in Go.
func sqDevGeneric(d, mean []float64, x []int8) {
	mean, x = mean[:len(d)], x[:len(d)]
	for j := range d {
		dv := float64(x[j]) - mean[j]
		d[j] += float64(dv * dv)
	}
}

// clipGeneric is ClipInt16ToInt8 in Go.
func clipGeneric(dst []int8, src []int16, c int16) {
	src = src[:len(dst)]
	for j, v := range src {
		dst[j] = int8(min(max(v, -c), c))
	}
}

// panelLanes is the panel width panelTransMatvec handles (tridiagBlock).
const panelLanes = tridiagBlock

// panelTransMatvecGeneric is panelTransMatvec in Go: c1[s] = Σ_r
// fl(w[r][s]·x[r]) and c2[s] = Σ_r fl(v[r][s]·x[r]) for s < panelLanes, in
// order of r, for rows of panelLanes values.
func panelTransMatvecGeneric(w, v, x, c1, c2 []float64) {
	clear(c1[:panelLanes])
	clear(c2[:panelLanes])
	for r, xr := range x {
		wr, vr := w[r*panelLanes:(r+1)*panelLanes], v[r*panelLanes:(r+1)*panelLanes]
		for s := 0; s < panelLanes; s++ {
			c1[s] += float64(wr[s] * xr)
			c2[s] += float64(vr[s] * xr)
		}
	}
}
