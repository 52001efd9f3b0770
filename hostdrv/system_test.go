package hostdrv_test

import (
	"bufio"
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"hash/crc32"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hdlgen/hdlgen/hostdrv"
	"github.com/hdlgen/hdlgen/internal/hwtest"
	"github.com/hdlgen/hdlgen/internal/randmodel"
	"github.com/hdlgen/hdlgen/model"
	"github.com/hdlgen/hdlgen/rtl"
	"github.com/hdlgen/hdlgen/rtl/plan"
	"github.com/hdlgen/hdlgen/rtl/regmap"
	"github.com/hdlgen/hdlgen/weights"
)

// simShape is the CI design of the driver test: odd K, P not dividing N.
var simShape = randmodel.Shape{Arch: model.IntRVFL, K: 11, N: 64, L: 4, Kappa: 3, Bits: 5}

const simParallel = 6

// simDesign is an emitted system design with its driver built for the
// simulation backend (one Verilator build, shared by the tests below).
type simDesign struct {
	dir, driver string
	m1, m2      *model.Model // the design's model and a retrained readout of it
	data        model.Data
	readout     string // m2's readout image
}

var simOnce struct {
	d   *simDesign
	err error
	ran bool
}

// buildSimDesign emits the CI design, writes the second model's readout
// image and builds libhdlgen_sim.so (make sim).
func buildSimDesign(t *testing.T) *simDesign {
	t.Helper()
	hwtest.Require(t, hwtest.Verilator, hwtest.CC)
	if !simOnce.ran {
		simOnce.ran = true
		simOnce.d, simOnce.err = newSimDesign()
	}
	if simOnce.err != nil {
		t.Fatal(simOnce.err)
	}
	return simOnce.d
}

func newSimDesign() (*simDesign, error) {
	m1, data := randmodel.Trained(simShape, "drv ci", 1)
	// Named features and label, so that hdlgen-run matches a CSV file's
	// columns by name (TestRunClassifyCSV).
	for i := range simShape.K {
		m1.FeatureNames = append(m1.FeatureNames, fmt.Sprintf("f%02d", i+1))
	}
	m1.Training.LabelName = "class"
	// The same data, seed, N and κ with another λ: the same normalisation and
	// hidden layer, another readout.
	m2, err := model.Train(context.Background(), data, model.Config{Arch: simShape.Arch, N: simShape.N,
		Kappa: simShape.Kappa, Lambda: 0.01, Seed: 1, ReadoutBits: simShape.Bits})
	if err != nil {
		return nil, err
	}
	m2.Name = "drv ci retrained"
	if slices.Equal(m1.Readout.Q, m2.Readout.Q) {
		return nil, fmt.Errorf("the retrained readout equals the original: the reload test would prove nothing")
	}
	root, err := os.MkdirTemp("", "hdlgen-driver-")
	if err != nil {
		return nil, err
	}
	dir := filepath.Join(root, "design")
	drv, err := emitSim(m1, simParallel, dir)
	if err != nil {
		return nil, err
	}
	dd, err := weights.ReadDesign(dir)
	if err != nil {
		return nil, err
	}
	img, err := weights.New(dd.Design, m2)
	if err != nil {
		return nil, err
	}
	b, err := img.MarshalBinary()
	if err != nil {
		return nil, err
	}
	readout := filepath.Join(root, "readout.bin")
	if err := os.WriteFile(readout, b, 0o644); err != nil {
		return nil, err
	}
	return &simDesign{dir: dir, driver: drv, m1: m1, m2: m2, data: data, readout: readout}, nil
}

// emitSim emits m as a system design with a reloadable readout at P = p into
// dir and builds its driver for the simulation backend (make sim), returning
// the driver directory.
func emitSim(m *model.Model, p int, dir string) (string, error) {
	return emitSimWith(m, rtl.Options{Options: plan.Options{Parallel: p, ReloadableReadout: true}, System: rtl.SystemZynq, Vectors: 20}, dir)
}

// emitSimWith emits m with opts into dir and builds its driver for the
// simulation backend.
func emitSimWith(m *model.Model, opts rtl.Options, dir string) (string, error) {
	if _, err := rtl.Emit(context.Background(), m, opts, dir); err != nil {
		return "", err
	}
	drv := filepath.Join(dir, hostdrv.Dir)
	if _, err := os.Stat(filepath.Join(drv, "Makefile")); err != nil {
		return "", fmt.Errorf("emit --system zynq wrote no driver: %w", err)
	}
	cmd := exec.Command("nice", "-n", "10", "make", "-s", "sim")
	cmd.Dir = drv
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("make sim: %v\n%s", err, out)
	}
	return drv, nil
}

// simRows draws n raw rows: training rows with noise, uniform values around
// each feature's range, and edge values (NaN, infinities, the ends).
func simRows(m *model.Model, data model.Data, n int, seed uint64) [][]float64 {
	rng := rand.New(rand.NewPCG(seed, 5))
	k := m.K()
	rows := make([][]float64, n)
	for r := range rows {
		row := make([]float64, k)
		src := data.X[(r%len(data.Y))*k:]
		for i := range row {
			lo, hi := m.Norm.Min[i], m.Norm.Max[i]
			switch rng.IntN(10) {
			case 0:
				row[i] = lo + (rng.Float64()*1.4-0.2)*(hi-lo)
			case 1:
				row[i] = specials[rng.IntN(len(specials))]
			default:
				row[i] = src[i] + rng.NormFloat64()*0.3
			}
		}
		rows[r] = row
	}
	return rows
}

func writeRows(t *testing.T, path string, rows [][]float64) {
	t.Helper()
	var b []byte
	for _, row := range rows {
		for _, v := range row {
			b = binary.LittleEndian.AppendUint64(b, math.Float64bits(v))
		}
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// finiteRows returns rows with the non-finite values of simRows replaced by
// the largest finite ones (a CSV file holds finite numbers only).
func finiteRows(rows [][]float64) [][]float64 {
	out := make([][]float64, len(rows))
	for r, row := range rows {
		out[r] = slices.Clone(row)
		for i, v := range row {
			switch {
			case math.IsNaN(v):
				out[r][i] = 0
			case math.IsInf(v, 0):
				out[r][i] = math.Copysign(math.MaxFloat64, v)
			}
		}
	}
	return out
}

// featureHeader returns the CSV header of m's features: its feature names, or
// x1, x2, ... when it has none.
func featureHeader(m *model.Model) []string {
	if len(m.FeatureNames) == m.K() {
		return m.FeatureNames
	}
	h := make([]string, m.K())
	for i := range h {
		h[i] = fmt.Sprintf("x%d", i+1)
	}
	return h
}

// writeCSV writes rows as a CSV file under a header (the values as Go
// formats them).
func writeCSV(t *testing.T, path string, header []string, rows [][]float64) {
	t.Helper()
	var csv strings.Builder
	csv.WriteString(strings.Join(header, ",") + "\n")
	for _, row := range rows {
		for i, v := range row {
			if i > 0 {
				csv.WriteByte(',')
			}
			csv.WriteString(strconv.FormatFloat(v, 'g', -1, 64))
		}
		csv.WriteByte('\n')
	}
	if err := os.WriteFile(path, []byte(csv.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

// compileCheck builds testdata/sim_check.c against the simulation library.
func compileCheck(t *testing.T, sd *simDesign) string {
	t.Helper()
	src, err := filepath.Abs("testdata/sim_check.c")
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(t.TempDir(), "sim_check")
	lib := filepath.Join(sd.driver, "build", "sim")
	run(t, sd.driver, "cc", append(cflags, "-I.", "-o", bin, src, "-L"+lib, "-lhdlgen_sim", "-Wl,-rpath,"+lib)...)
	return bin
}

// TestDriverOnVerilatorSystem is issue 13's CI test: the C driver's
// simulation backend against the Verilator model of the system top — 10,000
// vectors in batches with random back-pressure on both streams, one malformed
// vector (dropped and counted, every later vector still correct), one
// readout reload between batches (results then match the second model),
// counters read back; 0 mismatches.
func TestDriverOnVerilatorSystem(t *testing.T) {
	sd := buildSimDesign(t)
	const total, reloadAt, badFirst, badCount, badIndex = 10_000, 6_000, 4_000, 50, 17
	rows := simRows(sd.m1, sd.data, total, 9)
	work := t.TempDir()
	rowsPath, planPath, outPath := filepath.Join(work, "rows.bin"), filepath.Join(work, "plan.txt"), filepath.Join(work, "out.txt")
	writeRows(t, rowsPath, rows)

	// The plan: batches of random sizes (1 to 700 vectors), the malformed
	// batch, the reload.
	rng := rand.New(rand.NewPCG(4, 4))
	var plan strings.Builder
	plan.WriteString("clear\n")
	batches := 0
	addBatches := func(from, to int) {
		for r := from; r < to; {
			n := min(to-r, 1+rng.IntN(700))
			if batches == 1 {
				n = 1 // a batch of one vector
			}
			fmt.Fprintf(&plan, "batch %d %d\n", r, n)
			r += n
			batches++
		}
	}
	addBatches(0, badFirst)
	fmt.Fprintf(&plan, "malformed %d %d %d\n", badFirst, badCount, badIndex)
	batches++
	addBatches(badFirst+badCount, reloadAt)
	plan.WriteString("reload\n")
	addBatches(reloadAt, total)
	if err := os.WriteFile(planPath, []byte(plan.String()), 0o644); err != nil {
		t.Fatal(err)
	}

	bin := compileCheck(t, sd)
	run(t, work, bin, "sim:seed=7,valid=0.6,ready=0.5", rowsPath, planPath, sd.readout, outPath)

	f, err := os.Open(outPath)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	seen := make([]bool, total)
	mismatches := 0
	report := func(format string, args ...any) {
		mismatches++
		if mismatches <= 10 {
			t.Errorf(format, args...)
		}
	}
	var counters []uint32
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		nums := make([]int64, len(fields)-1)
		for i, s := range fields[1:] {
			if nums[i], err = strconv.ParseInt(s, 10, 64); err != nil {
				t.Fatalf("out.txt: %q", sc.Text())
			}
		}
		if fields[0] == "counters" {
			for _, v := range nums {
				counters = append(counters, uint32(v))
			}
			continue
		}
		row, flags, class, scores := int(nums[0]), uint32(nums[2]), int(nums[3]), nums[4:]
		if row < 0 || row >= total || seen[row] {
			t.Fatalf("record for row %d (twice or out of range)", row)
		}
		seen[row] = true
		if row == badFirst+badIndex {
			if flags&regmap.FlagDropped == 0 || class != -1 {
				report("the malformed vector (row %d): flags %#x class %d, want dropped", row, flags, class)
			}
			continue
		}
		m, bank := sd.m1, uint32(0)
		if row >= reloadAt {
			m, bank = sd.m2, regmap.FlagBank
		}
		want := m.IntScores(rows[row])
		if class != model.ArgmaxInt(want) || flags != bank {
			report("row %d: class %d flags %#x, want class %d flags %#x", row, class, flags, model.ArgmaxInt(want), bank)
		}
		for l, s := range scores {
			if s != want[l] {
				report("row %d: score[%d] %d, want %d", row, l, s, want[l])
				break
			}
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	for r, ok := range seen {
		if !ok {
			report("no record for row %d", r)
		}
	}
	// Counters since the clear: every vector but the malformed one
	// classified, one dropped, no stray beat, one finished batch per transfer.
	want := []uint32{total - 1, 1, 0, uint32(batches)}
	if len(counters) != 5 || !slices.Equal(counters[:4], want) {
		t.Errorf("counters (classified, dropped, stray, batches) %v, want %v", counters, want)
	}
	if mismatches != 0 {
		t.Errorf("%d mismatches", mismatches)
	}
	t.Logf("%d vectors in %d batches: %d mismatches; counters %v (STATUS %#x)", total, batches, mismatches, counters[:4], counters[4])
}

// TestPythonWrapper runs the ctypes wrapper on the simulation backend, with
// every distinct python3 found (the one on PATH and Debian's, which may have
// NumPy).
func TestPythonWrapper(t *testing.T) {
	hwtest.Require(t, hwtest.Python)
	sd := buildSimDesign(t)
	// The python3 on PATH (hwtest checked it is there) as the interpreter
	// itself reports it, and Debian's if it is another.
	out, err := exec.Command("python3", "-c", "import os, sys; print(os.path.realpath(sys.executable))").Output()
	if err != nil {
		t.Fatalf("python3: %v", err)
	}
	seen := map[string]bool{}
	for _, path := range []string{strings.TrimSpace(string(out)), "/usr/bin/python3"} {
		if _, err := os.Stat(path); err != nil {
			continue
		}
		if real, err := filepath.EvalSymlinks(path); err == nil && !seen[real] {
			seen[real] = true
			t.Run(strings.ReplaceAll(path, "/", "_"), func(t *testing.T) { checkPython(t, sd, path) })
		}
	}
}

func checkPython(t *testing.T, sd *simDesign, python string) {
	rows := finiteRows(simRows(sd.m1, sd.data, 300, 21))
	work := t.TempDir()
	csvPath := filepath.Join(work, "rows.csv")
	writeCSV(t, csvPath, featureHeader(sd.m1), rows)
	script, _ := filepath.Abs("testdata/py_check.py")
	lib := filepath.Join(sd.driver, "build", "sim", "libhdlgen_sim.so")
	out := run(t, work, python, script, sd.driver, lib, "sim:seed=3,valid=0.7,ready=0.7", csvPath, sd.readout)
	var got struct {
		Info       map[string]any `json:"info"`
		Features   int            `json:"features"`
		ClassNames []string       `json:"class_names"`
		Classes    []int          `json:"classes"`
		Scores     [][]int64      `json:"scores"`
		Encoded    [][]int        `json:"encoded"`
		Numpy      []int          `json:"numpy_classes"`
		Counters   map[string]int `json:"counters"`
		ShortRow   string         `json:"short_row"`
		Bank       int            `json:"bank"`
		Classes2   []int          `json:"classes2"`
		Flags2     []uint32       `json:"flags2"`
		BadImage   []any          `json:"bad_image"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("py_check output: %v\n%s", err, out)
	}
	if got.Features != simShape.K || !slices.Equal(got.ClassNames, sd.m1.ClassNames) {
		t.Errorf("features %d, classes %v; want %d, %v", got.Features, got.ClassNames, simShape.K, sd.m1.ClassNames)
	}
	for _, c := range []struct {
		key  string
		want any
	}{{"arch", "intrvfl"}, {"k", float64(simShape.K)}, {"n", float64(simShape.N)}, {"l", float64(simShape.L)},
		{"p", float64(simParallel)}, {"reloadable", float64(1)}} {
		if got.Info[c.key] != c.want {
			t.Errorf("info[%s] = %v, want %v", c.key, got.Info[c.key], c.want)
		}
	}
	bad := 0
	for r, row := range rows {
		want := sd.m1.IntScores(row)
		if r >= len(got.Classes) || got.Classes[r] != model.ArgmaxInt(want) || !slices.Equal(got.Scores[r], want) {
			bad++
		}
		if got.Numpy != nil && got.Numpy[r] != model.ArgmaxInt(want) {
			bad++
		}
		if r >= len(got.Classes2) || got.Classes2[r] != sd.m2.Predict(row) || got.Flags2[r] != regmap.FlagBank {
			bad++
		}
		if r < len(got.Encoded) && !slices.Equal(got.Encoded[r], sd.m1.Inputs(row)) {
			bad++
		}
	}
	if bad != 0 || len(got.Encoded) != 20 {
		t.Errorf("%d mismatches between the Python wrapper and the Go models (%d encoded rows)", bad, len(got.Encoded))
	}
	if got.Counters["classified"] != len(rows)*(1+btoi(got.Numpy != nil)) || got.Bank != 1 {
		t.Errorf("counters %v, bank %d after the reload", got.Counters, got.Bank)
	}
	if !strings.Contains(got.ShortRow, "row 0 has 10 values, want 11") {
		t.Errorf("a short row: %q", got.ShortRow)
	}
	if len(got.BadImage) != 2 || got.BadImage[0] != float64(-5) || !strings.Contains(fmt.Sprint(got.BadImage[1]), "not a readout image") {
		t.Errorf("a CSV as readout image: %v", got.BadImage)
	}
	t.Logf("%s: NumPy arrays tested: %t", python, got.Numpy != nil)
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// TestDriverRefuses: a driver built for another design refuses the device
// (naming the register that differs), and a readout image made for another
// design, or damaged, is refused before anything is written.
func TestDriverRefuses(t *testing.T) {
	sd := buildSimDesign(t)
	// A copy of the driver whose expected model hash differs, linked with the
	// same Verilator model (only the C files recompile).
	other := sd.driver + "_other"
	os.RemoveAll(other)
	t.Cleanup(func() { os.RemoveAll(other) })
	run(t, sd.dir, "cp", "-a", sd.driver, other)
	dc := filepath.Join(other, "hdlgen_design.c")
	b, err := os.ReadFile(dc)
	if err != nil {
		t.Fatal(err)
	}
	id, err := rtl.SystemIdentity(sd.m1, mustPlan(t, sd), rtl.Options{Options: plan.Options{Parallel: simParallel, ReloadableReadout: true}, System: rtl.SystemZynq})
	if err != nil {
		t.Fatal(err)
	}
	lo := fmt.Sprintf("0x%02X%02X%02X%02Xu", id.ModelHash[0], id.ModelHash[1], id.ModelHash[2], id.ModelHash[3])
	if !strings.Contains(string(b), lo) {
		t.Fatalf("hdlgen_design.c does not expect MODEL_HASH_LO = %s", lo)
	}
	if err := os.WriteFile(dc, []byte(strings.Replace(string(b), lo, "0x12345678u", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	run(t, other, "make", "-s", "sim")
	cmd := exec.Command(filepath.Join(other, "build/sim/hdlgen-run-sim"), "info")
	out, err := cmd.CombinedOutput()
	if err == nil || !strings.Contains(string(out), "MODEL_HASH_LO reads "+strings.TrimSuffix(lo, "u")+", want 0x12345678") {
		t.Errorf("a driver for another model.json: %v\n%s", err, out)
	}

	// Readout images: for another P, damaged, not an image.
	runSim := filepath.Join(sd.driver, "build/sim/hdlgen-run-sim")
	m := sd.m2
	pl2 := mustPlan(t, sd)
	pl2.P, pl2.Groups = 4, (pl2.N+3)/4
	js, _ := model.Marshal(sd.m1)
	img, err := weights.New(weights.Design{Model: sd.m1, JSON: js, Plan: pl2}, m)
	if err != nil {
		t.Fatal(err)
	}
	otherP, _ := img.MarshalBinary()
	good, err := os.ReadFile(sd.readout)
	if err != nil {
		t.Fatal(err)
	}
	damaged := slices.Clone(good)
	damaged[weights.HeaderSize+3] ^= 0x10
	// Issue 26.4: an image whose class names differ from the design's (made by
	// a tool that did not compare them): its CRC is right, its class hash not.
	otherClasses := slices.Clone(good)
	otherClasses[64] ^= 0xff
	n := len(otherClasses) - weights.TrailerSize
	binary.LittleEndian.PutUint32(otherClasses[n:], crc32.ChecksumIEEE(otherClasses[:n]))
	for _, c := range []struct {
		name string
		b    []byte
		want string
	}{
		{"other P", otherP, "P=4"},
		{"damaged", damaged, "CRC-32 mismatch"},
		{"not an image", []byte("hello"), "not a readout image"},
		{"other class names", otherClasses, "class names"},
	} {
		p := filepath.Join(t.TempDir(), "img.bin")
		if err := os.WriteFile(p, c.b, 0o644); err != nil {
			t.Fatal(err)
		}
		out, err := exec.Command(runSim, "load-readout", p).CombinedOutput()
		if err == nil || !strings.Contains(string(out), c.want) {
			t.Errorf("%s: %v\n%s", c.name, err, out)
		}
	}
}

func mustPlan(t *testing.T, sd *simDesign) *plan.Plan {
	t.Helper()
	d, err := weights.ReadDesign(sd.dir)
	if err != nil {
		t.Fatal(err)
	}
	return d.Plan
}

func TestMain(m *testing.M) {
	code := m.Run()
	if simOnce.d != nil {
		os.RemoveAll(filepath.Dir(simOnce.d.dir))
	}
	os.Exit(code)
}

// TestRunSimThroughput: hdlgen-run-sim classify on a CSV prints the Go
// model's classes, and without back-pressure the simulated system classifies
// at ≥ 95 % of the core's rate (one vector every II cycles), counting every
// cycle of the DMA transfer (pipeline fill included), from the backend's
// stats=1 report. Designs: the CI design and the paper's median network
// (K=16, N=512, L=4, κ=3, 5 bits) at P=8 and P=1 (two more Verilator builds,
// the full tier's only).
// `go test ./hostdrv -run TestRunSimThroughput -v` prints the numbers.
func TestRunSimThroughput(t *testing.T) {
	sd := buildSimDesign(t)
	median := randmodel.Shape{Arch: model.IntRVFL, K: 16, N: 512, L: 4, Kappa: 3, Bits: 5}
	for _, tc := range []struct {
		name  string
		shape randmodel.Shape
		p     int
	}{{"ci", simShape, simParallel}, {"median P=8", median, 8}, {"median P=1", median, 1}} {
		t.Run(strings.ReplaceAll(tc.name, " ", "_"), func(t *testing.T) {
			m, data, drv := sd.m1, sd.data, sd.driver
			if tc.name != "ci" {
				hwtest.Require(t, hwtest.Full) // two Verilator builds of the median system
				m, data = randmodel.Trained(tc.shape, "median", 1)
				var err error
				if drv, err = emitSim(m, tc.p, filepath.Join(t.TempDir(), "design")); err != nil {
					t.Fatal(err)
				}
			}
			checkRunSim(t, m, data, drv)
		})
	}
}

// checkRunSim classifies 3,000 rows with drv's hdlgen-run-sim and checks the
// classes and the throughput.
func checkRunSim(t *testing.T, m *model.Model, data model.Data, drv string) {
	const n = 3000
	rows := finiteRows(simRows(m, data, n, 33))
	work := t.TempDir()
	csvPath := filepath.Join(work, "rows.csv")
	writeCSV(t, csvPath, featureHeader(m), rows)
	runSim := filepath.Join(drv, "build/sim/hdlgen-run-sim")

	var ii int
	info := run(t, work, runSim, "info")
	if i := strings.Index(info, ", II "); i < 0 {
		t.Fatalf("info has no II:\n%s", info)
	} else if _, err := fmt.Sscanf(info[i:], ", II %d cycles", &ii); err != nil || ii <= 0 {
		t.Fatalf("info: II %d (%v):\n%s", ii, err, info)
	}

	cmd := exec.Command(runSim, "-d", "sim:stats=1", "classify", csvPath)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("hdlgen-run-sim classify: %v\n%s", err, stderr.String())
	}
	got := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
	want := make([]string, n)
	for r, row := range rows {
		want[r] = m.ClassNames[m.Predict(row)]
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("hdlgen-run-sim classify, classes (-Go model +driver on the RTL):\n%s", diff)
	}

	var transfers, in, outWords, cycles int
	if _, err := fmt.Sscanf(stderr.String(), "sim: %d transfers, %d words in, %d words out, %d cycles",
		&transfers, &in, &outWords, &cycles); err != nil {
		t.Fatalf("no stats line: %v\n%s", err, stderr.String())
	}
	cpv := float64(cycles) / n
	rate := float64(ii) / cpv
	t.Logf("%d vectors in %d transfers (%d words in, %d out): %d cycles, %.3f cycles per vector, II %d: %.1f %% of the core's rate, %.0f classifications/s at 100 MHz",
		n, transfers, in, outWords, cycles, cpv, ii, 100*rate, 100e6/cpv)
	if transfers == 0 || rate < 0.95 || rate > 1 {
		t.Errorf("%.3f cycles per vector with II %d: %.1f %% of the core's rate, want 95 %% to 100 %%", cpv, ii, 100*rate)
	}
}
