package linalg

import (
	"fmt"
	"sync"

	"github.com/hdlgen/hdlgen/internal/parallel"
)

// Tile and blocking of the int8 Gram kernel: an 8×48 tile of C, rows of A
// in groups of 4 (one VPDPBUSD lane), 1024 groups (4096 rows) per depth
// block, so that an int32 lane never holds more than 4096·254·127 < 2³¹
// (a block adds into C once per tile: fewer blocks, fewer passes over C).
const (
	i8mr      = 8
	i8nr      = 48
	i8group   = 4
	i8kgroups = 1024
	// i8chunkBytes bounds the packed A panels a pass over the U panels
	// reads (half the 1 MB L2 cache of a Zen 5 core).
	i8chunkBytes = 512 << 10
)

// GramInt8 computes the full symmetric n×n matrix C = AᵀA (as float64) of
// the m×n row-major int8 matrix A (leading dimension lda), exactly: every
// product and sum is an integer, so C equals what Gram computes on the same
// values as float64 (whose partial sums stay below 2⁵³), bit for bit.
//
// On CPUs with AVX-512 VNNI it multiplies 8-bit integers (VPDPBUSD, 64
// multiply-adds per instruction against 8 for a float64 FMA): with
// U = A + o (o = max|a|, so 0 ≤ U ≤ 254) the kernel computes UᵀA in int32
// lanes per 4096-row block, and C = UᵀA − o·1·(1ᵀA). On CPUs with AVX2 and
// values of magnitude up to 90 (an intRVFL's activations: |a| ≤ κ) the same
// tile runs on 256-bit registers (VPMADDUBSW and VPMADDWD: 32 multiply-adds
// per three instructions; about 3 times the float Gram's speed,
// BenchmarkGramInt8_10000x1500). Elsewhere it converts A to float64 and
// calls Gram. A value of −128 is a programmer error.
func (e Engine) GramInt8(m, n int, a []int8, lda int, c []float64, ldc int) {
	e.gramInt8(int8KernelFor, m, n, a, lda, c, ldc)
}

// gramInt8 is GramInt8 with the tile kernel pick returns for the values'
// offset (pick nil, or a nil kernel: the float fallback).
func (e Engine) gramInt8(pick func(off int) func(kg int, u, a []byte, c []int32), m, n int, a []int8, lda int, c []float64, ldc int) {
	if m < 0 || n < 0 || lda < max(n, 1) || (m > 0 && n > 0 && len(a) < (m-1)*lda+n) {
		panic(fmt.Sprintf("linalg: GramInt8: A %d×%d, lda %d, len %d", m, n, lda, len(a)))
	}
	checkMat("C", n, n, c, ldc)
	// The largest magnitude, from the smallest and largest value (no
	// data-dependent branch: random signs would mispredict one per value).
	var lo, hi int8
	for r := 0; r < m; r++ {
		for _, v := range a[r*lda : r*lda+n] {
			lo, hi = min(lo, v), max(hi, v)
		}
	}
	if lo == -128 {
		panic("linalg: GramInt8: value −128 outside [−127, 127]")
	}
	off := max(-int(lo), int(hi))
	var kern func(kg int, u, a []byte, c []int32)
	if pick != nil {
		kern = pick(off)
	}
	if kern == nil || m == 0 || n == 0 {
		f := make([]float64, m*n)
		for r := 0; r < m; r++ {
			for j, v := range a[r*lda : r*lda+n] {
				f[r*n+j] = float64(v)
			}
		}
		e.Gram(m, n, f, n, c, ldc)
		return
	}
	colsum := make([]int64, n)
	for r := 0; r < m; r++ {
		for j, v := range a[r*lda : r*lda+n] {
			colsum[j] += int64(v)
		}
	}
	e.gramInt8Tiles(kern, m, n, a, lda, off, colsum, c, ldc)
}

// gramInt8Tiles is gramInt8 on the tile kernel kern with the offset off
// (max|a| ≤ off ≤ 127) and the column sums of A.
func (e Engine) gramInt8Tiles(kern func(kg int, u, a []byte, c []int32), m, n int, a []int8, lda, off int, colsum []int64, c []float64, ldc int) {
	for i := 0; i < n; i++ {
		clear(c[i*ldc : i*ldc+i+1])
	}
	npi := (n + i8mr - 1) / i8mr // panels of U (rows of C)
	npj := (n + i8nr - 1) / i8nr // panels of A (columns of C)
	// The packed panels of one block of rows, reused by the next and by the
	// next call.
	kgMax := (min(m, i8group*i8kgroups) + i8group - 1) / i8group
	upBuf, apBuf := getBytes(npi*kgMax*i8group*i8mr), getBytes(npj*kgMax*i8group*i8nr)
	defer putBytes(upBuf)
	defer putBytes(apBuf)
	for r0 := 0; r0 < m; r0 += i8group * i8kgroups {
		rows := min(i8group*i8kgroups, m-r0)
		kg := (rows + i8group - 1) / i8group
		up := packInt8(*upBuf, a[r0*lda:], lda, rows, n, kg, i8mr, npi, off)
		ap := packInt8(*apBuf, a[r0*lda:], lda, rows, n, kg, i8nr, npj, 0)
		// A's panels in chunks that stay in the (shared) L2 cache while
		// every U panel passes by; each tile's sum is exact, so the order
		// of the tiles does not matter.
		chunk := max(1, i8chunkBytes/(kg*i8group*i8nr))
		for pj0 := 0; pj0 < npj; pj0 += chunk {
			pj1 := min(pj0+chunk, npj)
			first := pj0 * i8nr / i8mr // the first U panel with rows at or below the chunk's diagonal
			parallel.For(e.threads(), npi-first, func(_, t int) {
				pi := first + t
				tile := make([]int32, i8mr*i8nr)
				i0 := pi * i8mr
				ub := up[pi*kg*i8group*i8mr:]
				for pj := pj0; pj < pj1 && pj*i8nr <= i0+i8mr-1; pj++ {
					j0 := pj * i8nr
					ab := ap[pj*kg*i8group*i8nr:]
					kern(kg, ub[:kg*i8group*i8mr], ab[:kg*i8group*i8nr], tile)
					if i0+i8mr <= n && j0+i8nr <= n {
						// A whole tile: add all of it, also the elements
						// above the diagonal (MirrorLower overwrites them).
						addTileInt32(c[i0*ldc+j0:], ldc, tile)
						continue
					}
					for i := i0; i < min(i0+i8mr, n); i++ {
						row := c[i*ldc:]
						t := tile[(i-i0)*i8nr:]
						for j := j0; j < min(j0+i8nr, i+1); j++ {
							row[j] += float64(t[j-j0])
						}
					}
				}
			})
		}
	}
	o := float64(off)
	for i := 0; i < n; i++ {
		row := c[i*ldc : i*ldc+i+1]
		for j := range row {
			row[j] -= o * float64(colsum[j])
		}
	}
	MirrorLower(n, c, ldc)
}

// bytePool recycles the packed panels of gramInt8Tiles (a streamed search
// calls it for every block of rows: fresh buffers were most of its garbage).
var bytePool sync.Pool

func getBytes(n int) *[]byte {
	if p, ok := bytePool.Get().(*[]byte); ok && cap(*p) >= n {
		*p = (*p)[:n]
		return p
	}
	b := make([]byte, n)
	return &b
}

func putBytes(p *[]byte) { bytePool.Put(p) }

// packInt8 packs rows×n of A into panels of w columns as bytes: the
// values a + off, read by the kernel as unsigned (off > 0, 0…254) or as
// two's-complement signed bytes (off = 0). Panel p, group g holds, for each
// of its w columns, the 4 values of rows 4g…4g+3; beyond the last row and
// column the bytes are 0 (also when off > 0), so padding adds nothing. It
// writes into buf (cleared first), which must hold the panels.
func packInt8(buf []byte, a []int8, lda, rows, n, kg, w, panels, off int) []byte {
	out := buf[:panels*kg*i8group*w]
	clear(out)
	stride := w * i8group  // bytes per group of a panel
	full := rows / i8group // groups of 4 rows
	for p := 0; p < panels; p++ {
		j0 := p * w
		g := 0
		if packPanelOK && j0+w <= n && full > 0 {
			// Whole groups of a whole panel, 8 columns at a time.
			packPanel(a[j0:], lda, full, off, out[p*kg*stride:], w)
			g = full
		}
		for ; g < kg; g++ {
			dst := out[(p*kg+g)*stride : (p*kg+g+1)*stride]
			for jj := 0; jj < w && j0+jj < n; jj++ {
				for q := 0; q < i8group; q++ {
					if r := g*i8group + q; r < rows {
						dst[jj*i8group+q] = byte(int(a[r*lda+j0+jj]) + off)
					}
				}
			}
		}
	}
	return out
}
