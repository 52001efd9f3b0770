//go:build !amd64

package linalg

// int8Kernel returns nil: no integer kernel on this architecture (GramInt8
// falls back on the float Gram, which gives the same exact result).
func int8Kernel() func(kg int, u, a []byte, c []int32) { return nil }

// int8KernelFor returns nil: no integer kernel on this architecture.
func int8KernelFor(off int) func(kg int, u, a []byte, c []int32) { return nil }

// addTileInt32 adds the 8×48 int32 tile t (row-major) into the 8 rows of 48
// values of c (leading dimension ldc).
func addTileInt32(c []float64, ldc int, t []int32) {
	for i := 0; i < i8mr; i++ {
		for j, v := range t[i*i8nr : (i+1)*i8nr] {
			c[i*ldc+j] += float64(v)
		}
	}
}

// packPanelOK: no assembly packPanel on this architecture.
const packPanelOK = false

func packPanel(src []int8, lda, groups, off int, dst []byte, w int) {
	panic("linalg: packPanel without assembly")
}
