// Package golden holds the one `-update` flag and the comparison helpers of
// hdlgen's golden-file tests: a test compares what it generated with a file
// under testdata/ byte for byte, and `go test ./pkg -update` rewrites the file
// instead. It is imported by tests only.
package golden
