//go:build !unix

package output

// canWrite leaves the answer to the write itself where access(2) is missing.
func canWrite(string) error { return nil }
