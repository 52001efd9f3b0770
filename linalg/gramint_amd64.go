//go:build amd64

package linalg

import "fmt"

//go:noescape
func gramVNNI8x48(kg int, u, a *byte, c *int32)

// hasVNNI reports AVX-512 VNNI (VPDPBUSD on 512-bit registers).
var hasVNNI = func() bool {
	if !hasAVX512 {
		return false
	}
	_, _, ecx7, _ := cpuid(7, 0)
	const vnniBit = 1 << 11
	return ecx7&vnniBit != 0
}()

// int8Kernel runs the 8×48 VNNI tile when the CPU has it.
func int8Kernel() func(kg int, u, a []byte, c []int32) {
	if !hasVNNI {
		return nil
	}
	return func(kg int, u, a []byte, c []int32) {
		up, ap := tileOperands(kg, u, a, c)
		gramVNNI8x48(kg, up, ap, &c[0])
	}
}

// tileOperands checks that u, a and c hold an 8×48 tile's kg groups (the
// assembly reads them unchecked) and returns the operands' first bytes (nil
// when kg is 0).
func tileOperands(kg int, u, a []byte, c []int32) (up, ap *byte) {
	_ = c[8*48-1]
	if kg == 0 {
		return nil, nil
	}
	_ = u[32*kg-1]
	_ = a[192*kg-1]
	return &u[0], &a[0]
}

//go:noescape
func gramAVX2x8x48(kg int, u, a *byte, c *int32, ones *int16)

// avx2MaxOff is the largest offset (and magnitude) the AVX2 tile is exact
// for: VPMADDUBSW adds two products u·a with u ≤ 2·off and |a| ≤ off into
// an int16, so 4·off² must not exceed 32767.
const avx2MaxOff = 90

// int16Ones is VPMADDWD's multiplier in gramAVX2x8x48.
var int16Ones = [16]int16{1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1}

// avx2Int8Kernel is the 8×48 tile on AVX2 (for offsets up to avx2MaxOff).
func avx2Int8Kernel(kg int, u, a []byte, c []int32) {
	up, ap := tileOperands(kg, u, a, c)
	gramAVX2x8x48(kg, up, ap, &c[0], &int16Ones[0])
}

// int8KernelFor is the tile kernel for the offset off (max|a| ≤ off): the
// VNNI one, else the AVX2 one while off ≤ avx2MaxOff, else nil (the float
// Gram).
func int8KernelFor(off int) func(kg int, u, a []byte, c []int32) {
	if k := int8Kernel(); k != nil {
		return k
	}
	if hasAVX2FMA && off <= avx2MaxOff {
		return avx2Int8Kernel
	}
	return nil
}

//go:noescape
func addTile8x48(c *float64, ldc int, t *int32)

// addTileInt32 adds the 8×48 int32 tile t (row-major) into the 8 rows of 48
// values of c (leading dimension ldc): exact, the sums being integers below
// 2⁵³. The assembly needs AVX-512 (the VNNI tile's machines); elsewhere
// (the AVX2 tile) a loop.
func addTileInt32(c []float64, ldc int, t []int32) {
	_ = c[(i8mr-1)*ldc+i8nr-1]
	_ = t[i8mr*i8nr-1]
	if hasAVX512 {
		addTile8x48(&c[0], ldc, &t[0])
		return
	}
	for i := 0; i < i8mr; i++ {
		row := c[i*ldc : i*ldc+i8nr]
		for j, v := range t[i*i8nr : (i+1)*i8nr] {
			row[j] += float64(v)
		}
	}
}

//go:noescape
func packPanelAsm(src *int8, lda, groups, off int, dst *byte, w8 int)

// packPanelOK: packPanel has an assembly version (SSE2, every amd64).
const packPanelOK = true

// packPanel writes groups whole groups of 4 rows of one panel of w columns
// (w a multiple of 8) of A, starting at src (row 0, the panel's first
// column; leading dimension lda), into dst in packInt8's layout: group g,
// column j holds the 4 bytes a[4g+q][j]+off (mod 256), q = 0…3.
func packPanel(src []int8, lda, groups, off int, dst []byte, w int) {
	if w%8 != 0 || groups < 1 {
		panic(fmt.Sprintf("linalg: packPanel of width %d, %d groups", w, groups))
	}
	_ = src[(i8group*groups-1)*lda+w-1]
	_ = dst[groups*w*i8group-1]
	packPanelAsm(&src[0], lda, groups, off, &dst[0], w/8)
}
