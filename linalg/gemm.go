package linalg

import (
	"fmt"
	"sync"

	"github.com/hdlgen/hdlgen/internal/parallel"
)

// microKernel describes one register-blocked micro-kernel and the cache
// blocking that goes with it.
type microKernel struct {
	name   string
	mr, nr int // register tile: mr rows × nr columns of C
	kc     int // depth of one packed block (the only blocking that affects rounding)
	mc, nc int // rows of C per packed A block, columns of C per packed B panel
	// fn computes acc[i][j] = Σ_{p<kc} a[p*mr+i]·b[p*nr+j] (in order of p)
	// and stores C[i*ldc+j] = acc (accum false) or C[i*ldc+j] += acc.
	fn func(kc int, a, b, c []float64, ldc int, accum bool)
}

// checkMat panics unless a can hold a rows×cols matrix with leading
// dimension ld.
func checkMat(name string, rows, cols int, a []float64, ld int) {
	if rows < 0 || cols < 0 {
		panic(fmt.Sprintf("linalg: %s has negative dimension %d×%d", name, rows, cols))
	}
	if ld < max(cols, 1) {
		panic(fmt.Sprintf("linalg: %s leading dimension %d < %d columns", name, ld, cols))
	}
	if rows > 0 && cols > 0 && len(a) < (rows-1)*ld+cols {
		panic(fmt.Sprintf("linalg: %s slice of length %d too short for %d×%d with leading dimension %d",
			name, len(a), rows, cols, ld))
	}
}

// Gemm computes C = alpha·op(A)·op(B) + beta·C, where op(X) is X or Xᵀ as
// transA/transB say; op(A) is m×k, op(B) is k×n and C is m×n. All matrices
// are row-major with the given leading dimensions (so A is stored m×k, or
// k×m when transA). When beta is 0, C need not be initialised (NaNs in C
// are overwritten).
func (e Engine) Gemm(transA, transB bool, m, n, k int, alpha float64, a []float64, lda int,
	b []float64, ldb int, beta float64, c []float64, ldc int) {
	if transA {
		checkMat("A", k, m, a, lda)
	} else {
		checkMat("A", m, k, a, lda)
	}
	if transB {
		checkMat("B", n, k, b, ldb)
	} else {
		checkMat("B", k, n, b, ldb)
	}
	checkMat("C", m, n, c, ldc)
	e.gemm(transA, transB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc, false)
}

// Syrk computes the lower triangle of C = alpha·A·Aᵀ + beta·C (trans
// false, A is n×k) or C = alpha·Aᵀ·A + beta·C (trans true, A is k×n).
// C is n×n; its strict upper triangle is neither read nor written.
func (e Engine) Syrk(trans bool, n, k int, alpha float64, a []float64, lda int, beta float64, c []float64, ldc int) {
	if trans {
		checkMat("A", k, n, a, lda)
	} else {
		checkMat("A", n, k, a, lda)
	}
	checkMat("C", n, n, c, ldc)
	e.gemm(trans, !trans, n, n, k, alpha, a, lda, a, lda, beta, c, ldc, true)
}

// Gram computes the full symmetric n×n matrix C = AᵀA of the m×n matrix A
// (rows are samples, columns are features). The lower triangle is computed
// and mirrored into the upper one, so C is exactly symmetric.
func (e Engine) Gram(m, n int, a []float64, lda int, c []float64, ldc int) {
	e.Syrk(true, n, m, 1, a, lda, 0, c, ldc)
	MirrorLower(n, c, ldc)
}

// OuterGram computes the full symmetric m×m matrix C = A·Aᵀ of the m×k
// matrix A (exactly symmetric, as Gram).
func (e Engine) OuterGram(m, k int, a []float64, lda int, c []float64, ldc int) {
	e.Syrk(false, m, k, 1, a, lda, 0, c, ldc)
	MirrorLower(m, c, ldc)
}

// MirrorLower copies the strict lower triangle of the n×n matrix C into its
// strict upper triangle.
func MirrorLower(n int, c []float64, ldc int) {
	checkMat("C", n, n, c, ldc)
	for i := 1; i < n; i++ {
		row := c[i*ldc : i*ldc+i]
		for j, v := range row {
			c[j*ldc+i] = v
		}
	}
}

// bufPool recycles packing buffers.
var bufPool sync.Pool

func getBuf(n int) *[]float64 {
	if p, ok := bufPool.Get().(*[]float64); ok && cap(*p) >= n {
		*p = (*p)[:n]
		return p
	}
	s := make([]float64, n)
	return &s
}

func putBuf(p *[]float64) { bufPool.Put(p) }

// scaleC applies C = beta·C (lower triangle only if lower); beta == 0 zeroes.
func scaleC(m, n int, beta float64, c []float64, ldc int, lower bool) {
	for i := 0; i < m; i++ {
		w := n
		if lower {
			w = min(n, i+1)
		}
		row := c[i*ldc : i*ldc+w]
		if beta == 0 {
			clear(row)
		} else {
			for j := range row {
				row[j] *= beta
			}
		}
	}
}

// kcBlocks returns the depth of the packed blocks for a product of depth
// k: ceil(k/nb) with nb = ceil(k/kn.kc) blocks. It depends on k and the
// kernel only, never on the number of threads, which keeps results
// bit-identical across thread counts.
func kcBlocks(k, kc int) int {
	nb := (k + kc - 1) / kc
	return (k + nb - 1) / nb
}

// parallelMinWork is the number of multiply-adds below which a product
// runs on one goroutine.
const parallelMinWork = 1 << 18

// gemm is the blocked driver behind Gemm and Syrk. With lower set (m == n)
// only the lower triangle of C is read and written.
func (e Engine) gemm(tA, tB bool, m, n, k int, alpha float64, a []float64, lda int,
	b []float64, ldb int, beta float64, c []float64, ldc int, lower bool) {
	if m == 0 || n == 0 {
		return
	}
	if k == 0 || alpha == 0 {
		if beta != 1 {
			scaleC(m, n, beta, c, ldc, lower)
		}
		return
	}
	if beta != 0 && beta != 1 {
		scaleC(m, n, beta, c, ldc, lower)
	}
	kn := e.kernel()
	mr, nr := kn.mr, kn.nr
	kcStep := kcBlocks(k, kn.kc)
	w := e.threads()
	if float64(m)*float64(n)*float64(k) < parallelMinWork {
		w = 1
	}
	mc := kn.mc
	if w > 1 {
		// At least 3 row blocks per worker for load balance; the row
		// blocking does not affect the arithmetic.
		want := (m + 3*w - 1) / (3 * w)
		want = (want + mr - 1) / mr * mr
		mc = max(mr, min(mc, want))
	}
	nc := min(kn.nc, (n+nr-1)/nr*nr)
	bpBuf := getBuf(kcStep * nc)
	defer putBuf(bpBuf)
	bp := *bpBuf
	apBufs := make([]*[]float64, w)
	for i := range apBufs {
		apBufs[i] = getBuf(kcStep*mc + mr*nr)
	}
	defer func() {
		for _, p := range apBufs {
			putBuf(p)
		}
	}()

	for jc := 0; jc < n; jc += nc {
		ncb := min(nc, n-jc)
		npan := (ncb + nr - 1) / nr
		// Rows above jc hold no lower-triangle element of this column block.
		i0 := 0
		if lower {
			i0 = jc / mr * mr
		}
		nrb := (m - i0 + mc - 1) / mc
		for pc := 0; pc < k; pc += kcStep {
			kcb := min(kcStep, k-pc)
			accum := pc > 0 || beta != 0
			const panelsPerTask = 8
			parallel.For(w, (npan+panelsPerTask-1)/panelsPerTask, func(_, t int) {
				for q := t * panelsPerTask; q < min(npan, (t+1)*panelsPerTask); q++ {
					j0 := q * nr
					packB(tB, b, ldb, pc, kcb, jc+j0, min(nr, ncb-j0), nr, bp[q*nr*kcb:(q+1)*nr*kcb])
				}
			})
			parallel.For(w, nrb, func(worker, t int) {
				if lower {
					t = nrb - 1 - t // heaviest blocks first
				}
				ic := i0 + t*mc
				mcb := min(mc, m-ic)
				buf := *apBufs[worker]
				ap := buf[:kcb*((mcb+mr-1)/mr*mr)]
				tmp := buf[len(buf)-mr*nr:]
				packA(tA, a, lda, ic, mcb, pc, kcb, mr, alpha, ap)
				macroKernel(kn, ap, bp, kcb, ic, mcb, jc, ncb, c, ldc, accum, lower, tmp)
			})
		}
	}
}

// packA packs rows ic..ic+mcb of op(A), depth pc..pc+kcb, scaled by alpha,
// into mr-row panels: ap[panel][p][r].
func packA(tA bool, a []float64, lda, ic, mcb, pc, kcb, mr int, alpha float64, ap []float64) {
	for ir := 0; ir < mcb; ir += mr {
		mrb := min(mr, mcb-ir)
		dst := ap[ir*kcb : (ir+mr)*kcb]
		if !tA {
			if mrb == 8 && mr == 8 {
				// The common case: read 8 rows in step, write contiguously.
				base := (ic+ir)*lda + pc
				r0 := a[base : base+kcb]
				r1 := a[base+lda : base+lda+kcb]
				r2 := a[base+2*lda : base+2*lda+kcb]
				r3 := a[base+3*lda : base+3*lda+kcb]
				r4 := a[base+4*lda : base+4*lda+kcb]
				r5 := a[base+5*lda : base+5*lda+kcb]
				r6 := a[base+6*lda : base+6*lda+kcb]
				r7 := a[base+7*lda : base+7*lda+kcb]
				for p := range r0 {
					d := dst[p*8 : p*8+8 : p*8+8]
					d[0], d[1], d[2], d[3] = alpha*r0[p], alpha*r1[p], alpha*r2[p], alpha*r3[p]
					d[4], d[5], d[6], d[7] = alpha*r4[p], alpha*r5[p], alpha*r6[p], alpha*r7[p]
				}
				continue
			}
			for r := 0; r < mrb; r++ {
				row := a[(ic+ir+r)*lda+pc : (ic+ir+r)*lda+pc+kcb]
				for p, v := range row {
					dst[p*mr+r] = alpha * v
				}
			}
			for r := mrb; r < mr; r++ {
				for p := 0; p < kcb; p++ {
					dst[p*mr+r] = 0
				}
			}
			continue
		}
		for p := 0; p < kcb; p++ {
			src := a[(pc+p)*lda+ic+ir : (pc+p)*lda+ic+ir+mrb]
			d := dst[p*mr : p*mr+mr]
			for r, v := range src {
				d[r] = alpha * v
			}
			clear(d[mrb:])
		}
	}
}

// packB packs columns j0..j0+nrb of op(B), depth pc..pc+kcb, into one
// nr-column panel bp[p][q], zero-padded to nr columns.
func packB(tB bool, b []float64, ldb, pc, kcb, j0, nrb, nr int, bp []float64) {
	if !tB {
		for p := 0; p < kcb; p++ {
			d := bp[p*nr : p*nr+nr]
			copy(d, b[(pc+p)*ldb+j0:(pc+p)*ldb+j0+nrb])
			clear(d[nrb:])
		}
		return
	}
	for q := 0; q < nrb; q++ {
		row := b[(j0+q)*ldb+pc : (j0+q)*ldb+pc+kcb]
		for p, v := range row {
			bp[p*nr+q] = v
		}
	}
	if nrb < nr {
		for p := 0; p < kcb; p++ {
			clear(bp[p*nr+nrb : p*nr+nr])
		}
	}
}

// macroKernel multiplies the packed block ap (rows ic..ic+mcb) by the
// packed panel bp (columns jc..jc+ncb) into C.
func macroKernel(kn *microKernel, ap, bp []float64, kcb, ic, mcb, jc, ncb int,
	c []float64, ldc int, accum, lower bool, tmp []float64) {
	mr, nr := kn.mr, kn.nr
	for jr := 0; jr < ncb; jr += nr {
		j0 := jc + jr
		if lower && j0 > ic+mcb-1 {
			break
		}
		nrb := min(nr, ncb-jr)
		bpan := bp[jr*kcb : (jr+nr)*kcb]
		for ir := 0; ir < mcb; ir += mr {
			i0 := ic + ir
			mrb := min(mr, mcb-ir)
			if lower && j0 > i0+mrb-1 {
				continue // tile entirely above the diagonal
			}
			apan := ap[ir*kcb : (ir+mr)*kcb]
			straddle := lower && j0+nrb-1 > i0
			if mrb == mr && nrb == nr && !straddle {
				kn.fn(kcb, apan, bpan, c[i0*ldc+j0:], ldc, accum)
				continue
			}
			kn.fn(kcb, apan, bpan, tmp, nr, false)
			for r := 0; r < mrb; r++ {
				crow := c[(i0+r)*ldc+j0 : (i0+r)*ldc+j0+nrb]
				trow := tmp[r*nr : r*nr+nrb]
				if lower {
					lim := i0 + r - j0 + 1 // columns j0+q with q < lim are on or below the diagonal
					if lim < nrb {
						crow = crow[:max(lim, 0)]
					}
				}
				if accum {
					for q := range crow {
						crow[q] += trow[q]
					}
				} else {
					copy(crow, trow)
				}
			}
		}
	}
}
