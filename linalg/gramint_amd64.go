//go:build amd64

package linalg

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
		if kg > 0 {
			_ = u[32*kg-1]
			_ = a[192*kg-1]
		}
		_ = c[8*48-1]
		var up, ap *byte
		if kg > 0 {
			up, ap = &u[0], &a[0]
		}
		gramVNNI8x48(kg, up, ap, &c[0])
	}
}
