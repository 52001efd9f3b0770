package regmap

import (
	"crypto/sha256"
	"fmt"

	"github.com/hdlgen/hdlgen/rtl/plan"
)

// Identity is what the identification registers of one design read.
type Identity struct {
	ModelHash [8]byte // the first 8 bytes of SHA-256(model.json as emitted)
	Arch      int     // SHAPE3.ARCH: the network type's code, plan.Layer.ArchCode (1 intrvfl, 2 rvfl8)
	K, N, L   int
	P         int
	Kappa     int // κ, 0 for rvfl8
	Bits      int // the model's readout bits
	LW        int // bits of one input element
	Latency   int // last input beat to the result's first beat, nothing stalled
	II        int // cycles per vector
	Beats     int // B, input beats per vector
	PerBeat   int // FPB, input elements per beat
	Words     int // G, readout words per bank
	Chunks    int // C, RO_DATA writes per word
	QW        int // bits of one weight in a readout word
	// Reloadable: RO_ADDR/RO_DATA and the bank swap exist; Scores: records
	// carry the L scores.
	Reloadable, Scores bool
}

// HashModel returns the first 8 bytes of SHA-256(modelJSON).
func HashModel(modelJSON []byte) [8]byte {
	var h [8]byte
	s := sha256.Sum256(modelJSON)
	copy(h[:], s[:8])
	return h
}

// Chunks is C, the RO_DATA writes per readout word of pl: ⌈P·L·QW / 32⌉.
func Chunks(pl *plan.Plan) int { return (pl.P*pl.L*pl.QW + 31) / 32 }

// NewIdentity returns the identification of the system design of pl, whose
// model.json (as emitted) is modelJSON; latency and ii are the system's.
func NewIdentity(pl *plan.Plan, modelJSON []byte, latency, ii int, reloadable, scores bool) (Identity, error) {
	id := Identity{ModelHash: HashModel(modelJSON), K: pl.K, N: pl.N, L: pl.L, P: pl.P, Kappa: pl.Kappa,
		Bits: pl.ReadoutBits, LW: pl.LW, Latency: latency, II: ii, Words: pl.Groups, Chunks: Chunks(pl), QW: pl.QW,
		Reloadable: reloadable, Scores: scores}
	l := pl.Layer()
	if l == nil {
		return Identity{}, fmt.Errorf("regmap: architecture %q has no code", pl.Arch)
	}
	id.Arch = l.ArchCode()
	var ok bool
	if id.PerBeat, id.Beats, ok = Framing(pl.K, pl.LW); !ok {
		return Identity{}, fmt.Errorf("regmap: %d-bit input elements do not fit the %d-bit beat payload", pl.LW, BeatPayload)
	}
	if _, err := id.Values(); err != nil {
		return Identity{}, err
	}
	return id, nil
}

// Value is one identification register's content.
type Value struct {
	Name  string
	Value uint32
}

// Values returns the content of every identification register (Const), in
// address order. It fails when a number does not fit its field.
func (id Identity) Values() ([]Value, error) {
	kappa := min(id.Kappa, 255)
	put := map[string]map[string]int{
		"SHAPE0":  {"K": id.K, "L": id.L},
		"SHAPE2":  {"P": id.P, "KAPPA": kappa, "BITS": id.Bits},
		"SHAPE3":  {"ARCH": id.Arch, "LW": id.LW, "RELOADABLE": b2i(id.Reloadable), "SCORES": b2i(id.Scores)},
		"TIMING":  {"LATENCY": id.Latency, "II": id.II},
		"FRAMING": {"BEATS": id.Beats, "PER_BEAT": id.PerBeat},
		"READOUT": {"WORDS": id.Words, "CHUNKS": id.Chunks, "QW": id.QW},
	}
	whole := map[string]uint32{
		"ID": IDValue, "VERSION": Version, "SHAPE1": uint32(id.N),
		"MODEL_HASH_LO": be32(id.ModelHash[0:4]), "MODEL_HASH_HI": be32(id.ModelHash[4:8]),
	}
	var out []Value
	for _, r := range Registers {
		if !r.Const {
			continue
		}
		if v, ok := whole[r.Name]; ok {
			out = append(out, Value{r.Name, v})
			continue
		}
		fields, ok := put[r.Name]
		if !ok {
			panic("regmap: no value for identification register " + r.Name)
		}
		var v uint32
		for _, f := range r.Fields {
			x, ok := fields[f.Name]
			if !ok {
				panic(fmt.Sprintf("regmap: no value for %s.%s", r.Name, f.Name))
			}
			if x < 0 || uint64(x) >= uint64(1)<<f.Width {
				return nil, fmt.Errorf("regmap: %s.%s = %d does not fit %d bits", r.Name, f.Name, x, f.Width)
			}
			v |= uint32(x) << f.LSB
		}
		out = append(out, Value{r.Name, v})
	}
	return out, nil
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

func be32(b []byte) uint32 {
	return uint32(b[0])<<24 | uint32(b[1])<<16 | uint32(b[2])<<8 | uint32(b[3])
}

// ReadoutImage returns the RO_DATA writes that load readout q (L×N, row-major:
// weight l·N + j) into a bank of the design of pl: for every word g = 0…G−1,
// its C chunks, least significant first. Word g holds Q[l][g·P+p] in bits
// (l·P + p)·QW +: QW (two's complement; lanes beyond N−1 hold 0), exactly as
// the readout .mem file; chunk c is bits [32c +: 32] (zero above the word).
// It panics when q does not have L·N weights (a programmer error); weights
// outside ±(2^(QW−1)−1) are truncated to QW bits, so callers check the bound.
func ReadoutImage(pl *plan.Plan, q []int32) []uint32 {
	if len(q) != pl.L*pl.N {
		panic(fmt.Sprintf("regmap: readout of %d weights, want L·N = %d", len(q), pl.L*pl.N))
	}
	c := Chunks(pl)
	out := make([]uint32, 0, pl.Groups*c)
	word := make([]uint32, c)
	mask := uint64(1)<<pl.QW - 1
	for g := 0; g < pl.Groups; g++ {
		clear(word)
		for l := 0; l < pl.L; l++ {
			for p := 0; p < pl.P; p++ {
				j := g*pl.P + p
				if j >= pl.N {
					break
				}
				v := uint64(uint32(q[l*pl.N+j])) & mask
				off := (l*pl.P + p) * pl.QW
				for b := 0; b < pl.QW; b++ {
					if v>>b&1 != 0 {
						word[(off+b)/32] |= 1 << ((off + b) % 32)
					}
				}
			}
		}
		out = append(out, word...)
	}
	return out
}
