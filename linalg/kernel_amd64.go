//go:build amd64

package linalg

// cpuid executes CPUID with the given EAX and ECX.
func cpuid(eaxArg, ecxArg uint32) (eax, ebx, ecx, edx uint32)

// xgetbv reads XCR0 (the OS-enabled extended register state).
func xgetbv() (eax, edx uint32)

//go:noescape
func kernAVX2x6x8(kc int, a, b, c *float64, ldc int, accum int)

//go:noescape
func kernAVX512x8x24(kc int, a, b, c *float64, ldc int, accum int)

// cpuFeatures reports AVX2+FMA and AVX-512F support, each only if the OS
// saves the corresponding register state (XCR0 via XGETBV).
func cpuFeatures() (avx2fma, avx512 bool) {
	maxLeaf, _, _, _ := cpuid(0, 0)
	if maxLeaf < 7 {
		return false, false
	}
	_, _, ecx1, _ := cpuid(1, 0)
	const (
		fmaBit     = 1 << 12
		osxsaveBit = 1 << 27
		avxBit     = 1 << 28
	)
	if ecx1&osxsaveBit == 0 || ecx1&avxBit == 0 || ecx1&fmaBit == 0 {
		return false, false
	}
	xcr0, _ := xgetbv()
	const (
		ymmState  = 0x6  // SSE + AVX state
		zmmState  = 0xe6 // + opmask, ZMM_Hi256, Hi16_ZMM
		avx2Bit   = 1 << 5
		avx512Bit = 1 << 16
	)
	if xcr0&ymmState != ymmState {
		return false, false
	}
	_, ebx7, _, _ := cpuid(7, 0)
	avx2fma = ebx7&avx2Bit != 0
	avx512 = avx2fma && ebx7&avx512Bit != 0 && xcr0&zmmState == zmmState
	return avx2fma, avx512
}

var avx2Kernel = microKernel{
	name: "avx2-6x8",
	mr:   6, nr: 8,
	kc: 256, mc: 144, nc: 3072,
	fn: func(kc int, a, b, c []float64, ldc int, accum bool) {
		_ = a[6*kc-1]
		_ = b[8*kc-1]
		_ = c[5*ldc+7]
		kernAVX2x6x8(kc, &a[0], &b[0], &c[0], ldc, boolInt(accum))
	},
}

var avx512Kernel = microKernel{
	name: "avx512-8x24",
	mr:   8, nr: 24,
	kc: 256, mc: 128, nc: 3072,
	fn: func(kc int, a, b, c []float64, ldc int, accum bool) {
		_ = a[8*kc-1]
		_ = b[24*kc-1]
		_ = c[7*ldc+23]
		kernAVX512x8x24(kc, &a[0], &b[0], &c[0], ldc, boolInt(accum))
	},
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// hasAVX2FMA and hasAVX512 are fixed at start-up from CPUID.
var hasAVX2FMA, hasAVX512 = cpuFeatures()

// bestKernel is the fastest micro-kernel available on this machine.
var bestKernel = func() *microKernel {
	switch {
	case hasAVX512:
		return &avx512Kernel
	case hasAVX2FMA:
		return &avx2Kernel
	}
	return &genericKernel
}()

// availableKernels lists every micro-kernel this CPU can run.
func availableKernels() []*microKernel {
	ks := []*microKernel{&genericKernel}
	if hasAVX2FMA {
		ks = append(ks, &avx2Kernel)
	}
	if hasAVX512 {
		ks = append(ks, &avx512Kernel)
	}
	return ks
}
