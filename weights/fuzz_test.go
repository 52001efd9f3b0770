package weights_test

import (
	"bytes"
	"errors"
	"testing"

	"github.com/hdlgen/hdlgen/weights"
)

// FuzzParse feeds the readout image reader arbitrary bytes, seeded with
// valid images of both networks and damaged ones: it never panics, every
// refusal wraps ErrFormat, and an image it accepts renders back to the same
// bytes (issue 26: a fuzz target for the readout image reader).
//
//	go test -run '^$' -fuzz FuzzParse -fuzztime 5m ./weights/
func FuzzParse(f *testing.F) {
	for i, s := range []struct{ shape, seed int }{{0, 1}, {1, 2}} {
		shape := intShape
		if s.shape == 1 {
			shape = fixShape
		}
		d := design(f, shape, uint64(s.seed))
		img, err := weights.New(d, d.Model)
		if err != nil {
			f.Fatalf("seed image %d: %v", i, err)
		}
		b, err := img.MarshalBinary()
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
		f.Add(b[:len(b)/2])
		damaged := bytes.Clone(b)
		damaged[40] ^= 0x10
		f.Add(damaged)
	}
	f.Add([]byte{})
	f.Add([]byte("HDLGRDO1"))
	f.Fuzz(func(t *testing.T, b []byte) {
		img, err := weights.Parse(b)
		if err != nil {
			if !errors.Is(err, weights.ErrFormat) {
				t.Fatalf("refusal %v does not wrap ErrFormat", err)
			}
			return
		}
		out, err := img.MarshalBinary()
		if err != nil {
			t.Fatalf("an accepted image does not render: %v", err)
		}
		if !bytes.Equal(out, b) {
			t.Fatalf("an accepted image renders to other bytes")
		}
	})
}
