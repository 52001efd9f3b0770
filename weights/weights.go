package weights

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"math"
	"slices"
	"strings"

	"github.com/hdlgen/hdlgen/model"
	"github.com/hdlgen/hdlgen/rtl/plan"
	"github.com/hdlgen/hdlgen/rtl/regmap"
)

// Format constants (doc.go).
const (
	Magic      = "HDLGRDO1"
	Version    = 2
	HeaderSize = 72
	// TrailerSize is the CRC-32 after the weights.
	TrailerSize = 4
	// MaxWeights bounds L·N and G·C in an image a reader accepts (model.json's
	// limits: MaxClasses × MaxHidden would be 2^32).
	MaxWeights = 1 << 26
)

// Hash is the model identification the system's MODEL_HASH registers hold: the
// first 8 bytes of SHA-256 of model.json's bytes.
type Hash [8]byte

// HashOf returns the Hash of model.json bytes.
func HashOf(modelJSON []byte) Hash {
	sum := sha256.Sum256(modelJSON)
	var h Hash
	copy(h[:], sum[:len(h)])
	return h
}

// String is the hash in lower-case hex, 16 digits.
func (h Hash) String() string { return fmt.Sprintf("%x", h[:]) }

// ClassHash returns the hash of a list of class names, in order: the first 8
// bytes of SHA-256 over every name as its length (4 bytes, little-endian)
// followed by its bytes. The host driver compares an image's with the one of
// the design it was built for, so a readout whose classes come in another
// order can never label predictions with the wrong names.
func ClassHash(names []string) Hash {
	h := sha256.New()
	for _, n := range names {
		h.Write(binary.LittleEndian.AppendUint32(nil, uint32(len(n))))
		h.Write([]byte(n))
	}
	var out Hash
	copy(out[:], h.Sum(nil))
	return out
}

// Image is one readout image.
type Image struct {
	Design  Hash // the design it was made for
	Model   Hash // the model its readout comes from
	Classes Hash // ClassHash of the class names, in the readout's row order
	L, N    int
	P       int     // the design's lanes (weights per class in a word)
	Bits    int     // the model's readout width
	Bound   int     // every weight lies in [−Bound, Bound]
	QW      int     // bits per weight in a word
	Q       []int32 // L×N, row-major
}

// Words is G, the readout words of a bank.
func (img *Image) Words() int { return (img.N + img.P - 1) / img.P }

// Chunks is C, the 32-bit RO_DATA writes per word.
func (img *Image) Chunks() int { return (img.P*img.L*img.QW + 31) / 32 }

// shape is the part of a plan the readout window depends on.
func (img *Image) shape() *plan.Plan {
	return &plan.Plan{L: img.L, N: img.N, P: img.P, QW: img.QW, Groups: img.Words()}
}

// Writes returns the RO_DATA writes that load the image (after RO_ADDR = 0).
func (img *Image) Writes() []uint32 { return regmap.ReadoutImage(img.shape(), img.Q) }

// Design is what the image needs of an emitted design: its model, the bytes
// of its model.json (whose hash the hardware reports) and its plan.
type Design struct {
	Model *model.Model
	JSON  []byte
	Plan  *plan.Plan
}

// New returns the image of m's integer readout for design d, or an error
// naming every difference that makes m's readout unusable in d.
func New(d Design, m *model.Model) (*Image, error) {
	if err := Compatible(d.Model, m); err != nil {
		return nil, err
	}
	mj, err := model.Marshal(m)
	if err != nil {
		return nil, fmt.Errorf("weights: %w", err)
	}
	r := m.Readout
	return &Image{Design: HashOf(d.JSON), Model: HashOf(mj), Classes: ClassHash(m.ClassNames), L: m.L(), N: m.Columns(),
		P: d.Plan.P, Bits: r.Bits, Bound: r.Bound, QW: d.Plan.QW, Q: append([]int32(nil), r.Q...)}, nil
}

// MismatchError lists why a model's readout cannot be loaded into a design.
type MismatchError struct {
	Diffs []string // one line each, e.g. "N: design 512, model 256"
}

func (e *MismatchError) Error() string {
	return "weights: the model does not match the design: " + strings.Join(e.Diffs, "; ")
}

// Compatible reports nil when m's integer readout can replace design's: the
// same architecture, shape, class names in the same order, normalisation and
// hidden layer, and a readout bound no larger than the design's. Otherwise it
// returns a *MismatchError naming each difference (the first differing element
// of each array).
func Compatible(design, m *model.Model) error {
	var diffs []string
	add := func(format string, args ...any) { diffs = append(diffs, fmt.Sprintf(format, args...)) }
	if design.Readout == nil {
		add("the design has no integer readout")
	}
	if m.Readout == nil {
		add("the model has no integer readout (quantize it first, e.g. hdlgen quantize --bits %d)", max(2, bitsOf(design)))
	}
	if design.Arch() != m.Arch() {
		add("architecture: design %s, model %s", design.Arch(), m.Arch())
		return &MismatchError{diffs}
	}
	same := true
	for _, d := range []struct {
		what      string
		want, got int
	}{{"K (features)", design.K(), m.K()}, {"N (hidden neurons)", design.N(), m.N()},
		{"L (classes)", design.L(), m.L()}, {"readout columns", design.Columns(), m.Columns()}} {
		if d.want != d.got {
			add("%s: design %d, model %d", d.what, d.want, d.got)
			same = false
		}
	}
	if !same {
		return &MismatchError{diffs}
	}
	diffs = append(diffs, classDiffs(design.ClassNames, m.ClassNames)...)
	if i, lo := firstDiff(design.Norm.Min, m.Norm.Min); i >= 0 {
		add("normalization.min[%d]: design %v, model %v", i, lo[0], lo[1])
	}
	if i, hi := firstDiff(design.Norm.Max, m.Norm.Max); i >= 0 {
		add("normalization.max[%d]: design %v, model %v", i, hi[0], hi[1])
	}
	diffs = append(diffs, hiddenDiffs(design, m)...)
	if design.Readout != nil && m.Readout != nil && m.Readout.Bound > design.Readout.Bound {
		add("readout bound: the model's ±%d (%d bits) exceeds the design's ±%d (%d bits)",
			m.Readout.Bound, m.Readout.Bits, design.Readout.Bound, design.Readout.Bits)
	}
	if len(diffs) > 0 {
		return &MismatchError{diffs}
	}
	return nil
}

// classDiffs compares the class names of two models with L classes each:
// readout row l scores class l, so the names must be the same, in the same
// order (the driver labels predictions with the design's names).
func classDiffs(design, m []string) []string {
	same := true
	for i := range design {
		same = same && design[i] == m[i]
	}
	if same {
		return nil
	}
	sorted := func(s []string) []string { return slices.Sorted(slices.Values(s)) }
	if slices.Equal(sorted(design), sorted(m)) {
		return []string{fmt.Sprintf("class order: design %q, model %q (readout row l scores class l: retrain with the design's class order)", design, m)}
	}
	for i := range design {
		if design[i] != m[i] {
			return []string{fmt.Sprintf("class names: design %q, model %q (class %d: design %q, model %q)", design, m, i, design[i], m[i])}
		}
	}
	return nil
}

func bitsOf(m *model.Model) int {
	if m.Readout == nil {
		return 0
	}
	return m.Readout.Bits
}

// firstDiff returns the first index where a and b differ bit for bit (NaNs
// never occur: model.json values are finite), and the two values.
func firstDiff(a, b []float64) (int, [2]float64) {
	for i := range a {
		if math.Float64bits(a[i]) != math.Float64bits(b[i]) {
			return i, [2]float64{a[i], b[i]}
		}
	}
	return -1, [2]float64{}
}

// hiddenDiffs compares the hidden layers of two models of the same
// architecture and shape.
func hiddenDiffs(design, m *model.Model) []string {
	if _, err := design.Integer(); err != nil {
		return []string{fmt.Sprintf("architecture %s has no integer datapath", design.Arch())}
	}
	seeds := ""
	if design.Seed != m.Seed {
		seeds = fmt.Sprintf(" (seeds: design %d, model %d)", design.Seed, m.Seed)
	}
	return model.HiddenDiffs(design.Net, m.Net, [2]string{"design", "model"}, seeds)
}

// MarshalBinary renders the image in the format of doc.go.
func (img *Image) MarshalBinary() ([]byte, error) {
	if err := img.check(); err != nil {
		return nil, err
	}
	writes := img.Writes()
	var b bytes.Buffer
	b.Grow(HeaderSize + 4*len(writes) + TrailerSize)
	b.WriteString(Magic)
	le := binary.LittleEndian
	b.Write(le.AppendUint32(nil, Version))
	b.Write(le.AppendUint32(nil, HeaderSize))
	b.Write(img.Design[:])
	b.Write(img.Model[:])
	for _, v := range []int{img.L, img.N, img.P, img.Bits, img.Bound, img.QW, img.Words(), img.Chunks()} {
		b.Write(le.AppendUint32(nil, uint32(v)))
	}
	b.Write(img.Classes[:])
	for _, w := range writes {
		b.Write(le.AppendUint32(nil, w))
	}
	b.Write(le.AppendUint32(nil, crc32.ChecksumIEEE(b.Bytes())))
	return b.Bytes(), nil
}

// check validates an image's fields against each other.
func (img *Image) check() error {
	switch {
	case img.L < 1 || img.N < 1 || img.L*img.N > MaxWeights:
		return fmt.Errorf("weights: image shape L=%d N=%d outside [1, %d] weights", img.L, img.N, MaxWeights)
	case img.P < 1 || img.P > img.N:
		return fmt.Errorf("weights: image lanes P=%d outside [1, N=%d]", img.P, img.N)
	case len(img.Q) != img.L*img.N:
		return fmt.Errorf("weights: image has %d weights, want L·N = %d", len(img.Q), img.L*img.N)
	case img.Bits < 2 || img.Bits > 32:
		return fmt.Errorf("weights: image readout width %d bits outside [2, 32]", img.Bits)
	case img.Bound < 1 || int64(img.Bound) > 1<<(img.Bits-1)-1:
		return fmt.Errorf("weights: image bound %d does not fit %d bits", img.Bound, img.Bits)
	case img.QW < 2 || img.QW > 32 || int64(img.Bound) > 1<<(img.QW-1)-1:
		return fmt.Errorf("weights: image bound %d does not fit its %d-bit readout words", img.Bound, img.QW)
	case img.Words()*img.Chunks() > MaxWeights:
		return fmt.Errorf("weights: image of %d×%d chunks is too large", img.Words(), img.Chunks())
	}
	for i, q := range img.Q {
		if q < int32(-img.Bound) || q > int32(img.Bound) {
			return fmt.Errorf("weights: weight %d (class %d, column %d) = %d outside ±%d", i, i/img.N, i%img.N, q, img.Bound)
		}
	}
	return nil
}

// ErrFormat is wrapped by every error Parse returns for bytes that are not a
// valid image.
var ErrFormat = errors.New("not a readout image")

// Parse reads an image written by MarshalBinary, checking its magic,
// version, sizes, CRC, padding bits and weight range.
func Parse(b []byte) (*Image, error) {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("weights: %w: %s", ErrFormat, fmt.Sprintf(format, args...))
	}
	if len(b) < HeaderSize+TrailerSize {
		return nil, bad("%d bytes, shorter than a header", len(b))
	}
	if string(b[:8]) != Magic {
		return nil, bad("magic %q, want %q", b[:8], Magic)
	}
	le := binary.LittleEndian
	if v := le.Uint32(b[8:]); v != Version {
		return nil, bad("format version %d, want %d", v, Version)
	}
	if h := le.Uint32(b[12:]); h != HeaderSize {
		return nil, bad("header size %d, want %d", h, HeaderSize)
	}
	img := &Image{}
	copy(img.Design[:], b[16:24])
	copy(img.Model[:], b[24:32])
	copy(img.Classes[:], b[64:72])
	var f [8]uint32
	for i := range f {
		f[i] = le.Uint32(b[32+4*i:])
	}
	l, n, p, bits, bound, qw, g, c := f[0], f[1], f[2], f[3], f[4], f[5], f[6], f[7]
	if l == 0 || n == 0 || uint64(l)*uint64(n) > MaxWeights || p == 0 || p > n || bits > 32 || qw > 32 || bound > 1<<31-1 {
		return nil, bad("shape L=%d N=%d P=%d, %d bits (±%d), QW=%d", l, n, p, bits, bound, qw)
	}
	img.L, img.N, img.P, img.Bits, img.Bound, img.QW = int(l), int(n), int(p), int(bits), int(bound), int(qw)
	if g != uint32(img.Words()) || c != uint32(img.Chunks()) {
		return nil, bad("%d words of %d chunks, want %d of %d for L=%d N=%d P=%d QW=%d", g, c, img.Words(), img.Chunks(),
			l, n, p, qw)
	}
	writes := img.Words() * img.Chunks()
	if want := HeaderSize + 4*writes + TrailerSize; len(b) != want {
		return nil, bad("%d bytes, want %d for %d words of %d chunks", len(b), want, g, c)
	}
	body := len(b) - TrailerSize
	if got, want := le.Uint32(b[body:]), crc32.ChecksumIEEE(b[:body]); got != want {
		return nil, bad("CRC-32 %08x, the contents give %08x (the file is damaged)", got, want)
	}
	chunks := make([]uint32, writes)
	for i := range chunks {
		chunks[i] = le.Uint32(b[HeaderSize+4*i:])
	}
	if img.QW < 2 {
		return nil, bad("QW=%d", img.QW)
	}
	img.Q = unpack(img, chunks)
	if err := img.check(); err != nil {
		return nil, fmt.Errorf("%w (%w)", err, ErrFormat)
	}
	for i, w := range img.Writes() {
		if w != chunks[i] {
			return nil, bad("chunk %d (word %d) has bits set outside its weights", i, i/img.Chunks())
		}
	}
	return img, nil
}

// unpack is the inverse of regmap.ReadoutImage: the L×N weights in chunks.
func unpack(img *Image, chunks []uint32) []int32 {
	q := make([]int32, img.L*img.N)
	c := img.Chunks()
	for g := 0; g < img.Words(); g++ {
		word := chunks[g*c : (g+1)*c]
		for l := 0; l < img.L; l++ {
			for p := 0; p < img.P; p++ {
				j := g*img.P + p
				if j >= img.N {
					break
				}
				off := (l*img.P + p) * img.QW
				var v uint64
				for b := 0; b < img.QW; b++ {
					v |= uint64(word[(off+b)/32]>>((off+b)%32)&1) << b
				}
				if v>>(img.QW-1)&1 == 1 {
					v |= ^uint64(0) << img.QW
				}
				q[l*img.N+j] = int32(int64(v))
			}
		}
	}
	return q
}
