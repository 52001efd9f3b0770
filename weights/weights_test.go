package weights_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/hdlgen/hdlgen/internal/randmodel"
	"github.com/hdlgen/hdlgen/model"
	"github.com/hdlgen/hdlgen/rtl/plan"
	"github.com/hdlgen/hdlgen/rtl/regmap"
	"github.com/hdlgen/hdlgen/weights"
)

var (
	intShape = randmodel.Shape{Arch: model.IntRVFL, K: 5, N: 12, L: 3, Kappa: 3, Bits: 5}
	fixShape = randmodel.Shape{Arch: model.RVFL8, K: 4, N: 6, L: 3}
)

// design returns a random model of shape s, its model.json and its plan at
// P = 5 (which divides neither test shape's N).
func design(t testing.TB, s randmodel.Shape, seed uint64) weights.Design {
	t.Helper()
	m := randmodel.Random(s, "design", seed)
	b, err := model.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	pl, err := plan.New(m, plan.Options{Parallel: min(5, s.N)})
	if err != nil {
		t.Fatal(err)
	}
	return weights.Design{Model: m, JSON: b, Plan: pl}
}

// retrained is d's model with another readout: same hidden layer, new codes.
func retrained(t *testing.T, d weights.Design, seed uint64) *model.Model {
	t.Helper()
	b, _ := model.Marshal(d.Model)
	m, err := model.Unmarshal(b)
	if err != nil {
		t.Fatal(err)
	}
	other := randmodel.Random(randmodel.Shape{Arch: d.Model.Arch(), K: d.Model.K(), N: d.Model.N(), L: d.Model.L(),
		Kappa: d.Model.Kappa(), Bits: d.Model.Readout.Bits}, "other", seed)
	m.Name = "retrained"
	m.Readout = other.Readout
	m.Wout = other.Wout
	return m
}

func TestCompatible(t *testing.T) {
	di, df := design(t, intShape, 1), design(t, fixShape, 1)
	cases := []struct {
		name   string
		d      weights.Design
		change func(m *model.Model) *model.Model
		want   []string // substrings of the error, in order; nil: compatible
	}{
		{"same hidden layer, new readout", di, func(m *model.Model) *model.Model { return m }, nil},
		{"rvfl8 new readout", df, func(m *model.Model) *model.Model { return m }, nil},
		{"smaller bound", di, func(m *model.Model) *model.Model {
			for i := range m.Readout.Q {
				m.Readout.Q[i] = min(max(m.Readout.Q[i], -3), 3)
			}
			m.Readout.Bits, m.Readout.Bound = 3, 3
			return m
		}, nil},
		{"larger bound", di, func(m *model.Model) *model.Model {
			m.Readout.Bits, m.Readout.Bound = 6, 31
			return m
		}, []string{"readout bound: the model's ±31 (6 bits) exceeds the design's ±15 (5 bits)"}},
		{"arch", di, func(*model.Model) *model.Model { return randmodel.Random(fixShape, "x", 1) },
			[]string{"architecture: design intrvfl, model rvfl8"}},
		{"N", di, func(*model.Model) *model.Model {
			s := intShape
			s.N = 13
			return randmodel.Random(s, "x", 1)
		}, []string{"N (hidden neurons): design 12, model 13"}},
		{"K and L", di, func(*model.Model) *model.Model {
			s := intShape
			s.K, s.L = 6, 4
			return randmodel.Random(s, "x", 1)
		}, []string{"K (features): design 5, model 6", "L (classes): design 3, model 4"}},
		{"seed", di, func(*model.Model) *model.Model { return randmodel.Random(intShape, "x", 2) },
			[]string{"W_in[", "(seeds: design 1, model 2)"}},
		{"kappa", di, func(m *model.Model) *model.Model {
			m.Net.(*model.IntNet).Kappa = 7
			return m
		}, []string{"κ: design 3, model 7"}},
		{"one sign", di, func(m *model.Model) *model.Model {
			s := m.Net.(*model.IntNet).Signs
			s.SetNegative(4, 2, !s.Negative(4, 2))
			return m
		}, []string{"W_in[4][2]: design"}},
		{"normalization", di, func(m *model.Model) *model.Model {
			m.Norm.Min[3] = -0.5
			m.Norm.Max[1] = 2
			return m
		}, []string{"normalization.min[3]: design 0, model -0.5", "normalization.max[1]: design 1, model 2"}},
		{"no readout", di, func(m *model.Model) *model.Model {
			m.Readout = nil
			return m
		}, []string{"the model has no integer readout (quantize it first, e.g. hdlgen quantize --bits 5)"}},
		{"rvfl8 bias", df, func(m *model.Model) *model.Model {
			m.Net.(*model.FixedNet).Bias[5]++
			return m
		}, []string{"bias[5]: design"}},
		// Issue 26.4: the same classes in another order (a readout retrained on
		// data whose classes came in another order) would label every
		// prediction with the wrong name on the board.
		{"class order", di, func(m *model.Model) *model.Model {
			m.ClassNames[0], m.ClassNames[2] = m.ClassNames[2], m.ClassNames[0]
			n := m.N()
			for j := 0; j < n; j++ {
				m.Readout.Q[j], m.Readout.Q[2*n+j] = m.Readout.Q[2*n+j], m.Readout.Q[j]
			}
			return m
		}, []string{`class order: design ["c0" "c1" "c2"], model ["c2" "c1" "c0"]`}},
		{"class renamed", di, func(m *model.Model) *model.Model {
			m.ClassNames[1] = "other"
			return m
		}, []string{`class 1: design "c1", model "other"`}},
		{"rvfl8 weight and LUT", df, func(m *model.Model) *model.Model {
			n := m.Net.(*model.FixedNet)
			n.Win[2*4+1]++
			n.LUT[200]--
			return m
		}, []string{"W_in[2][1]: design", "sigmoid LUT[200]"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m := c.change(retrained(t, c.d, 9))
			err := weights.Compatible(c.d.Model, m)
			if c.want == nil {
				if err != nil {
					t.Fatalf("Compatible: %v", err)
				}
				img, err := weights.New(c.d, m)
				if err != nil {
					t.Fatalf("New: %v", err)
				}
				if diff := cmp.Diff(m.Readout.Q, img.Q); diff != "" {
					t.Errorf("weights (-model +image):\n%s", diff)
				}
				if diff := cmp.Diff(regmap.ReadoutImage(c.d.Plan, m.Readout.Q), img.Writes()); diff != "" {
					t.Errorf("RO_DATA writes (-regmap +image):\n%s", diff)
				}
				if img.Design != weights.HashOf(c.d.JSON) {
					t.Errorf("design hash %s, want %s", img.Design, weights.HashOf(c.d.JSON))
				}
				if img.Classes != weights.ClassHash(c.d.Model.ClassNames) {
					t.Errorf("class hash %s, want the design's %s", img.Classes, weights.ClassHash(c.d.Model.ClassNames))
				}
				return
			}
			var me *weights.MismatchError
			if !errors.As(err, &me) {
				t.Fatalf("Compatible: %v, want a MismatchError", err)
			}
			msg := err.Error()
			at := 0
			for _, w := range c.want {
				i := strings.Index(msg[at:], w)
				if i < 0 {
					t.Fatalf("error %q lacks %q (after offset %d)", msg, w, at)
				}
				at += i + len(w)
			}
			if _, err := weights.New(c.d, m); err == nil {
				t.Error("New accepted a mismatching model")
			}
		})
	}
}

func TestRoundTrip(t *testing.T) {
	for _, s := range []randmodel.Shape{intShape, fixShape} {
		d := design(t, s, 1)
		img, err := weights.New(d, retrained(t, d, 3))
		if err != nil {
			t.Fatal(err)
		}
		b, err := img.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		g, c := d.Plan.Groups, regmap.Chunks(d.Plan)
		if want := weights.HeaderSize + 4*g*c + 4; len(b) != want {
			t.Errorf("%d bytes, want %d", len(b), want)
		}
		b2, _ := img.MarshalBinary()
		if !bytes.Equal(b, b2) {
			t.Error("two renders differ")
		}
		got, err := weights.Parse(b)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(img, got); diff != "" {
			t.Errorf("(-written +read):\n%s", diff)
		}
		// The layout of doc.go, field by field.
		le := binary.LittleEndian
		want := []uint32{uint32(s.L), uint32(s.N), uint32(d.Plan.P), uint32(d.Model.Readout.Bits),
			uint32(d.Model.Readout.Bound), uint32(d.Plan.QW), uint32(g), uint32(c)}
		var head []uint32
		for i := range want {
			head = append(head, le.Uint32(b[32+4*i:]))
		}
		if string(b[:8]) != "HDLGRDO1" || le.Uint32(b[8:]) != 2 || le.Uint32(b[12:]) != 72 ||
			!bytes.Equal(b[16:24], img.Design[:]) || !cmp.Equal(head, want) || !bytes.Equal(b[64:72], img.Classes[:]) ||
			le.Uint32(b[72+4*c:]) != img.Writes()[c] {
			t.Errorf("layout differs from doc.go: % x", b[:80])
		}
	}
}

func TestParseErrors(t *testing.T) {
	d := design(t, intShape, 1)
	img, err := weights.New(d, retrained(t, d, 3))
	if err != nil {
		t.Fatal(err)
	}
	good, _ := img.MarshalBinary()
	reCRC := func(b []byte) []byte {
		n := len(b) - 4
		binary.LittleEndian.PutUint32(b[n:], crc32.ChecksumIEEE(b[:n]))
		return b
	}
	cases := []struct {
		name string
		edit func(b []byte) []byte
		want string
	}{
		{"empty", func([]byte) []byte { return nil }, "0 bytes, shorter than a header"},
		{"magic", func(b []byte) []byte { b[0] = 'X'; return b }, `magic "XDLGRDO1"`},
		{"version 1", func(b []byte) []byte { b[8] = 1; return b }, "format version 1, want 2"},
		{"truncated", func(b []byte) []byte { return b[:len(b)-8] }, "104 bytes, want 112 for 3 words of 3 chunks"},
		{"crc", func(b []byte) []byte { b[70] ^= 1; return b }, "(the file is damaged)"},
		{"zero L", func(b []byte) []byte { b[32] = 0; return reCRC(b) }, "shape L=0 N=12 P=5"},
		{"chunks", func(b []byte) []byte { b[60] = 2; return reCRC(b) }, "3 words of 2 chunks, want 3 of 3"},
		{"weight out of range", func(b []byte) []byte {
			binary.LittleEndian.PutUint32(b[72:], 0b01111) // weight 0 of class 0: +15 …
			b[48] = 7                                      // … with a bound of 7
			return reCRC(b)
		}, "weight 0 (class 0, column 0) = 15 outside ±7"},
		{"padding", func(b []byte) []byte { b[72+4*8+3] |= 0x80; return reCRC(b) }, "chunk 8 (word 2) has bits set outside its weights"},
		{"bound beyond bits", func(b []byte) []byte { b[48] = 16; return reCRC(b) }, "bound 16 does not fit 5 bits"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b := c.edit(append([]byte(nil), good...))
			_, err := weights.Parse(b)
			if err == nil || !strings.Contains(err.Error(), c.want) || !errors.Is(err, weights.ErrFormat) {
				t.Errorf("Parse: %v, want ErrFormat with %q", err, c.want)
			}
		})
	}
}

// TestClassHash pins the class hash's definition (doc.go): SHA-256 over each
// name's 4-byte little-endian length and bytes, first 8 bytes; the order and
// the split into names matter.
func TestClassHash(t *testing.T) {
	// printf '\x01\x00\x00\x00a\x02\x00\x00\x00bc' | sha256sum
	if got := weights.ClassHash([]string{"a", "bc"}).String(); got != "47ea6f805c5b663e" {
		t.Errorf("ClassHash(a, bc) = %s", got)
	}
	for _, other := range [][]string{{"bc", "a"}, {"ab", "c"}, {"a", "b", "c"}} {
		if weights.ClassHash(other) == weights.ClassHash([]string{"a", "bc"}) {
			t.Errorf("ClassHash(%q) equals ClassHash(a, bc)", other)
		}
	}
}
