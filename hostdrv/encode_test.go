package hostdrv_test

import (
	"debug/elf"
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hdlgen/hdlgen/hostdrv"
	"github.com/hdlgen/hdlgen/internal/hwtest"
	"github.com/hdlgen/hdlgen/internal/randmodel"
	"github.com/hdlgen/hdlgen/model"
	"github.com/hdlgen/hdlgen/rtl/regmap"
)

// edgeRanges are per-feature [min, max] pairs that exercise every branch of
// the normalisation: ordinary, constant, widths that overflow to +Inf,
// subnormal and one-ulp ranges, huge and tiny magnitudes.
var edgeRanges = [][2]float64{
	{0, 1}, {-1, 1}, {5, 5}, {-1e308, 1e308}, {-math.MaxFloat64, math.MaxFloat64},
	{0, 5e-324}, {1e-310, 3e-310}, {-3.7, 1e15}, {1, math.Nextafter(1, 2)}, {math.Copysign(0, -1), 0},
	{1e300, math.MaxFloat64}, {-1e-5, 1e-5}, {0, 1e308}, {-1e308, 0}, {100, 200}, {-273.15, 5504},
	{0.1, 0.7}, {-math.MaxFloat64, -1e308}, {math.SmallestNonzeroFloat64, 1}, {3, 3.0000000000000004},
}

// edgeNorm returns a normaliser of k features: edgeRanges, then random ranges.
func edgeNorm(k int, seed uint64) *model.Normalizer {
	rng := rand.New(rand.NewPCG(seed, 7))
	nz := &model.Normalizer{Min: make([]float64, k), Max: make([]float64, k)}
	for i := 0; i < k; i++ {
		var lo, hi float64
		if i < len(edgeRanges) {
			lo, hi = edgeRanges[i][0], edgeRanges[i][1]
		} else {
			lo = (rng.Float64() - 0.5) * math.Pow(10, float64(rng.IntN(40)-20))
			hi = lo + rng.Float64()*math.Pow(10, float64(rng.IntN(40)-20))
		}
		nz.Min[i], nz.Max[i] = lo, hi
	}
	return nz
}

// specials are values every feature sees.
var specials = []float64{0, math.Copysign(0, -1), math.Inf(1), math.Inf(-1), math.NaN(),
	math.Float64frombits(0x7ff8_0000_dead_beef), math.Float64frombits(0xfff0_0000_0000_0001), // a quiet and a signalling NaN
	math.MaxFloat64, -math.MaxFloat64, math.SmallestNonzeroFloat64, -math.SmallestNonzeroFloat64, 1, -1, 0.5, 1e308, -1e308}

// rawValue draws one raw value for a feature with range [lo, hi] and the
// model's input scale (N levels or 256 codes): random bit patterns, uniform
// values in and around the range, the ends and their neighbours, and values
// next to the rounding ties x'·scale = k + 0.5.
func rawValue(rng *rand.Rand, r int, lo, hi, scale float64) float64 {
	ulps := func(v float64, n int) float64 {
		for ; n > 0; n-- {
			v = math.Nextafter(v, math.Inf(1))
		}
		for ; n < 0; n++ {
			v = math.Nextafter(v, math.Inf(-1))
		}
		return v
	}
	w := hi - lo
	if math.IsInf(w, 0) {
		w = math.MaxFloat64
	}
	switch r % 8 {
	case 0:
		return math.Float64frombits(rng.Uint64())
	case 1:
		return specials[rng.IntN(len(specials))]
	case 2:
		return lo + (rng.Float64()*1.5-0.25)*w
	case 3: // the ends and their neighbours
		end := lo
		if rng.IntN(2) == 1 {
			end = hi
		}
		return ulps(end, rng.IntN(7)-3)
	case 4, 5: // next to a rounding tie
		k := float64(rng.IntN(int(scale) + 1))
		x := (k + 0.5) / scale
		v := lo + x*(hi-lo)
		if math.IsInf(hi-lo, 0) {
			v = 2 * (lo/2 + x*(hi/2-lo/2))
		}
		return ulps(v, rng.IntN(5)-2)
	case 6:
		return (rng.Float64() - 0.5) * math.Pow(10, float64(rng.IntN(616)-308))
	default:
		return lo + rng.Float64()*w
	}
}

// encodeCase is one generated design whose encoder is compared with Go.
type encodeCase struct {
	name  string
	shape randmodel.Shape
	rows  int
}

func encodeCases(short bool) []encodeCase {
	rows := 30_000
	if short {
		rows = 5_000
	}
	return []encodeCase{
		{"intrvfl_n1", randmodel.Shape{Arch: model.IntRVFL, K: 64, N: 1, L: 2, Kappa: 1, Bits: 3}, rows / 5},
		{"intrvfl_n3", randmodel.Shape{Arch: model.IntRVFL, K: 64, N: 3, L: 2, Kappa: 1, Bits: 3}, rows / 5},
		{"intrvfl_n100", randmodel.Shape{Arch: model.IntRVFL, K: 64, N: 100, L: 3, Kappa: 3, Bits: 5}, rows},
		{"intrvfl_n512", randmodel.Shape{Arch: model.IntRVFL, K: 64, N: 512, L: 4, Kappa: 3, Bits: 5}, rows},
		{"intrvfl_n1500", randmodel.Shape{Arch: model.IntRVFL, K: 64, N: 1500, L: 4, Kappa: 7, Bits: 5}, rows},
		{"rvfl8", randmodel.Shape{Arch: model.RVFL8, K: 64, N: 8, L: 3}, rows},
	}
}

// encodeInput writes rows of raw values for d's model and returns them.
func encodeInput(t *testing.T, d hostdrv.Design, rows int, path string, seed uint64) [][]float64 {
	t.Helper()
	m := d.Model
	scale := float64(m.N())
	if m.Arch() == model.RVFL8 {
		scale = 256
	}
	rng := rand.New(rand.NewPCG(seed, 11))
	k := m.K()
	buf := make([]byte, 0, rows*k*8)
	out := make([][]float64, rows)
	for r := range out {
		row := make([]float64, k)
		for i := range row {
			row[i] = rawValue(rng, r+i, m.Norm.Min[i], m.Norm.Max[i], scale)
			buf = binary.LittleEndian.AppendUint64(buf, math.Float64bits(row[i]))
		}
		out[r] = row
	}
	if err := os.WriteFile(path, buf, 0o644); err != nil {
		t.Fatal(err)
	}
	return out
}

// pack is the input framing of docs/system-interface.md, in Go.
func pack(id regmap.Identity, in []int) []uint32 {
	beats := make([]uint32, id.Beats)
	for i, v := range in {
		beats[i/id.PerBeat] |= uint32(v) << (uint(i%id.PerBeat) * uint(id.LW))
	}
	beats[0] |= regmap.BeatSOV
	beats[id.Beats-1] |= regmap.BeatEOV
	return beats
}

// compareEncoding checks OUT of encode_check against the Go model; it
// returns the number of mismatching elements and reports the first few.
func compareEncoding(t *testing.T, d hostdrv.Design, raw [][]float64, outPath string, report bool) int {
	t.Helper()
	b, err := os.ReadFile(outPath)
	if err != nil {
		t.Fatal(err)
	}
	k := d.Model.K()
	per := 4 * (k + d.Identity.Beats)
	if len(b) != per*len(raw) {
		t.Fatalf("encode_check wrote %d bytes, want %d for %d rows", len(b), per*len(raw), len(raw))
	}
	bad := 0
	for r, row := range raw {
		want := d.Model.Inputs(row)
		rec := b[r*per:]
		for i := 0; i < k; i++ {
			got := int(binary.LittleEndian.Uint32(rec[4*i:]))
			if got != want[i] {
				bad++
				if report && bad <= 5 {
					t.Errorf("row %d feature %d: raw %v (0x%016x), range [%v, %v]: C %d, Go %d", r, i, row[i],
						math.Float64bits(row[i]), d.Model.Norm.Min[i], d.Model.Norm.Max[i], got, want[i])
				}
			}
		}
		for j, w := range pack(d.Identity, want) {
			if got := binary.LittleEndian.Uint32(rec[4*(k+j):]); got != w && report {
				bad++
				if bad <= 5 {
					t.Errorf("row %d beat %d: C 0x%08x, Go 0x%08x", r, j, got, w)
				}
			}
		}
	}
	return bad
}

// encodeTarget is where the encoder comparison builds and runs the driver.
type encodeTarget struct {
	make, cc string   // the driver Makefile's target, the compiler of encode_check
	ccFlags  []string // extra flags of encode_check
	lib      string   // the library the target builds
	runner   []string // what runs encode_check (qemu-arm), or nothing
}

var (
	nativeTarget = encodeTarget{make: "native", cc: "cc", lib: "build/native/libhdlgen.a"}
	armTarget    = encodeTarget{make: "arm", cc: "arm-linux-gnueabihf-gcc", ccFlags: []string{"-static"},
		lib: "build/arm/libhdlgen.a", runner: []string{"qemu-arm"}}
)

// encodeRun writes d's driver, lets edit change it, builds it for tg, runs
// the encoder on rows generated rows and returns how many elements differ
// from the Go model (reporting the first few when report), and the driver
// directory.
func encodeRun(t *testing.T, d hostdrv.Design, rows int, tg encodeTarget, edit func(dir string), report bool) (int, string) {
	t.Helper()
	dir := writeDriver(t, d)
	if edit != nil {
		edit(dir)
	}
	copyFile(t, filepath.Join("testdata", "encode_check.c"), filepath.Join(dir, "encode_check.c"))
	run(t, dir, "make", "-s", tg.make)
	args := append(append(append([]string{}, cflags...), tg.ccFlags...), "-o", "encode_check", "encode_check.c", tg.lib, "-lm")
	run(t, dir, tg.cc, args...)
	in, out := filepath.Join(dir, "in.bin"), filepath.Join(dir, "out.bin")
	raw := encodeInput(t, d, rows, in, 17)
	cmd := append(append([]string{}, tg.runner...), "./encode_check", in, out)
	run(t, dir, cmd[0], cmd[1:]...)
	return compareEncoding(t, d, raw, out, report), dir
}

// TestEncoderMatchesGo compares the C encoder (built by the driver's
// Makefile) with the Go model on millions of random and edge-case values.
func TestEncoderMatchesGo(t *testing.T) {
	hwtest.Require(t, hwtest.Make, hwtest.CC)
	total := 0
	for _, c := range encodeCases(quick()) {
		t.Run(c.name, func(t *testing.T) {
			d := design(t, c.shape, edgeNorm(c.shape.K, 5), 1)
			if bad, _ := encodeRun(t, d, c.rows, nativeTarget, nil, true); bad != 0 {
				t.Errorf("%d of %d elements differ", bad, c.rows*c.shape.K)
			}
			total += c.rows * c.shape.K
		})
	}
	t.Logf("%d values compared", total)
}

// TestEncoderARM cross-compiles the driver for the ZedBoard (-Wall -Werror)
// and runs the encoder comparison under qemu-arm.
func TestEncoderARM(t *testing.T) {
	hwtest.Require(t, hwtest.Make, hwtest.Qemu)
	total := 0
	for _, c := range []encodeCase{encodeCases(quick())[3], encodeCases(quick())[5]} {
		t.Run(c.name, func(t *testing.T) {
			d := design(t, c.shape, edgeNorm(c.shape.K, 5), 1)
			bad, dir := encodeRun(t, d, c.rows/2, armTarget, nil, true)
			if bad != 0 {
				t.Errorf("%d of %d elements differ under qemu-arm", bad, c.rows/2*c.shape.K)
			}
			for _, f := range []string{"libhdlgen.so", "hdlgen-run"} {
				if err := isARM32(filepath.Join(dir, "build/arm", f)); err != nil {
					t.Errorf("build/arm/%s: %v", f, err)
				}
			}
			total += c.rows / 2 * c.shape.K
		})
	}
	t.Logf("%d values compared under qemu-arm", total)
}

// isARM32 checks that path is a 32-bit little-endian ARM ELF executable or
// shared library for the hard-float ABI (EF_ARM_ABI_FLOAT_HARD in e_flags),
// as the ZedBoard's Linux runs.
func isARM32(path string) error {
	f, err := elf.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	if f.Machine != elf.EM_ARM || f.Class != elf.ELFCLASS32 || f.Data != elf.ELFDATA2LSB {
		return fmt.Errorf("not a 32-bit little-endian ARM ELF file: %v, %v, %v", f.Machine, f.Class, f.Data)
	}
	if f.Type != elf.ET_EXEC && f.Type != elf.ET_DYN {
		return fmt.Errorf("ELF type %v, want an executable or a shared library", f.Type)
	}
	// e_flags is the 32-bit word at offset 36 of an ELF32 header.
	raw, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	const eFlagsOff, efARMABIFloatHard = 36, 0x400
	if len(raw) < eFlagsOff+4 {
		return fmt.Errorf("ELF header truncated")
	}
	if flags := binary.LittleEndian.Uint32(raw[eFlagsOff:]); flags&efARMABIFloatHard == 0 {
		return fmt.Errorf("e_flags %#x: not the hard-float ABI", flags)
	}
	return nil
}

// TestEncoderComparisonCatchesMutants is the comparison's control: encoders
// with a plausible bug each (rounding ties to even, as torchhd does; no
// halving for a range wider than the largest double; clamping NaN to 1)
// must disagree with Go somewhere in the generated values.
//
// (Fused multiply-adds are not among them: floor(x·N + 0.5) gives the same
// level whether x·N is rounded before the addition or not — adding 0.5 to a
// double near a half-integer is exact within its binade — so the build's
// -ffp-contract=off is insurance, not a difference the data can show.)
func TestEncoderComparisonCatchesMutants(t *testing.T) {
	hwtest.Require(t, hwtest.Make, hwtest.CC)
	mutants := []struct{ name, from, to string }{
		{"ties to even", "floor(t + 0.5)", "nearbyint(t)"},
		{"no halving", "if (isinf(hi - lo)) {", "if (0) {"},
		{"NaN to 1", "if (x < 0 || x != x) return 0.0;", "if (x != x) return 1.0;\n  if (x < 0) return 0.0;"},
	}
	c := encodeCases(true)[3]
	for _, mu := range mutants {
		t.Run(mu.name, func(t *testing.T) {
			d := design(t, c.shape, edgeNorm(c.shape.K, 5), 1)
			mutate := func(dir string) {
				src := filepath.Join(dir, "hdlgen_encode.c")
				b, err := os.ReadFile(src)
				if err != nil {
					t.Fatal(err)
				}
				if !strings.Contains(string(b), mu.from) {
					t.Fatalf("hdlgen_encode.c no longer contains %q", mu.from)
				}
				if err := os.WriteFile(src, []byte(strings.Replace(string(b), mu.from, mu.to, 1)), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			bad, _ := encodeRun(t, d, c.rows, nativeTarget, mutate, false)
			if bad == 0 {
				t.Errorf("the mutant matched Go on all %d elements: the generated values miss this case", c.rows*c.shape.K)
			}
			t.Logf("%d of %d elements differ", bad, c.rows*c.shape.K)
		})
	}
}

func copyFile(t testing.TB, from, to string) {
	t.Helper()
	b, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, b, 0o644); err != nil {
		t.Fatal(err)
	}
}
