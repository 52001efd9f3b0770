package study

import (
	"os"
	"testing"
)

// collection returns the UCI-121 folder, skipping the test when it is not set.
func collection(t testing.TB) string {
	dir := os.Getenv("HDLGEN_UCI121")
	if dir == "" {
		t.Skip("HDLGEN_UCI121 not set: the UCI-121 collection is not available")
	}
	return dir
}
