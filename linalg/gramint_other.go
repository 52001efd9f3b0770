//go:build !amd64

package linalg

// int8Kernel returns nil: no integer kernel on this architecture (GramInt8
// falls back on the float Gram, which gives the same exact result).
func int8Kernel() func(kg int, u, a []byte, c []int32) { return nil }
