package study

import (
	"testing"

	"github.com/hdlgen/hdlgen/internal/hwtest"
)

// collection returns the UCI-121 folder, skipping the test when it is not set.
func collection(t testing.TB) string {
	dir := hwtest.CollectionDir(t)
	return dir
}
