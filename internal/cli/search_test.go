package cli

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/hdlgen/hdlgen/tune"

	"github.com/hdlgen/hdlgen/internal/hwtest"
)

// TestSearchShardsMergeToOneSearch: the shards of a search over the grid's N
// values, merged, give the whole search's result (every network; counts,
// best configuration), apart from timings.
func TestSearchShardsMergeToOneSearch(t *testing.T) {
	data := synthCollection(t, studySets[1:2])
	dir := t.TempDir()
	decode := func(s string) map[string]any {
		t.Helper()
		var m map[string]any
		if err := json.Unmarshal([]byte(s), &m); err != nil {
			t.Fatalf("%v: %q", err, s)
		}
		return m
	}
	for _, arch := range []string{"intrvfl", "rvfl", "rvfl-qin", "rvfl-direct", "rvfl8"} {
		base := []string{"search", "--data", data, "--dataset", "beta", "--arch", arch, "--grid", "small"}
		code, whole, errs := run(t, append(base, "--json")...)
		if code != 0 {
			t.Fatalf("%s: whole search: exit %d: %s", arch, code, errs)
		}
		var files []string
		for i := 0; i < 3; i++ {
			code, part, errs := run(t, append(base, "--shard", fmt.Sprintf("%d/3", i))...)
			if code != 0 {
				t.Fatalf("%s shard %d: exit %d: %s", arch, i, code, errs)
			}
			f := filepath.Join(dir, fmt.Sprintf("%s-%d.json", arch, i))
			if err := os.WriteFile(f, []byte(part), 0o644); err != nil {
				t.Fatal(err)
			}
			files = append(files, f)
		}
		code, merged, errs := run(t, append([]string{"search", "merge", "--json"}, files...)...)
		if code != 0 {
			t.Fatalf("%s merge: exit %d: %s", arch, code, errs)
		}
		ignore := cmpopts.IgnoreMapEntries(func(k string, _ any) bool { return strings.HasSuffix(k, "seconds") })
		if d := cmp.Diff(decode(whole), decode(merged), ignore); d != "" {
			t.Errorf("%s: merged shards differ from the whole search (-whole +merged):\n%s", arch, d)
		}
		if code, _, errs := run(t, "search", "merge", files[0], files[0], files[1]); code == 0 || !strings.Contains(errs, "shard 0/3 is given twice") {
			t.Errorf("%s: merging a shard twice: exit %d, %q", arch, code, errs)
		}
		if arch == "intrvfl" {
			checkMergeRefusals(t, dir, base, files)
		}
	}
	for _, bad := range []string{"3/3", "x", "3/4", "0/4294967296", "-1/3", "0/-3"} { // the small grid has 3 values of N
		code, _, errs := run(t, "search", "--data", data, "--dataset", "beta", "--grid", "small", "--shard", bad)
		if code != exitUsage {
			t.Errorf("--shard %s: exit %d (%s), want %d", bad, code, errs, exitUsage)
		}
	}
}

// checkMergeRefusals: search merge takes exactly the shards of one search
// (issue 26, items 5 and 6): all of them, of one seed, penalty and data, each
// well formed; anything else exits 1 with a message and never a Go panic.
func checkMergeRefusals(t *testing.T, dir string, base, files []string) {
	t.Helper()
	shard := func(name string, extra ...string) string {
		code, part, errs := run(t, append(append(append([]string(nil), base...), "--shard", "2/3"), extra...)...)
		if code != 0 {
			t.Fatalf("shard with %v: exit %d: %s", extra, code, errs)
		}
		f := filepath.Join(dir, name)
		if err := os.WriteFile(f, []byte(part), 0o644); err != nil {
			t.Fatal(err)
		}
		return f
	}
	edited := func(name, from, to string) string {
		b, err := os.ReadFile(files[0])
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(b), from) {
			t.Fatalf("%s has no %q", files[0], from)
		}
		f := filepath.Join(dir, name)
		if err := os.WriteFile(f, []byte(strings.Replace(string(b), from, to, 1)), 0o644); err != nil {
			t.Fatal(err)
		}
		return f
	}
	tests := []struct {
		name  string
		parts []string
		want  string
	}{
		{"two of three shards", files[:2], "shards [2] of 3 are missing"},
		{"a shard of another seed", []string{files[0], files[1], shard("seed.json", "--seed", "7")}, "was searched with --seed 7, part 1 with 0"},
		{"a shard of another penalty", []string{files[0], files[1], shard("reg.json", "--regularizer", "identity")}, "was searched with --regularizer identity"},
		{"a count array without a κ row", []string{edited("rows.json", `"correct":[[`, `"correct":[[[0]],[`), files[1], files[2]}, "counts for"},
		{"a negative count", []string{edited("neg.json", `"correct":[[[`, `"correct":[[[-1,`), files[1], files[2]}, "of"},
		{"an unknown field", []string{edited("unknown.json", `{"dataset"`, `{"shards":3,"dataset"`), files[1], files[2]}, `unknown field "shards"`},
		{"a whole search, no shard", []string{edited("whole.json", `,"shard":{`, `,"_x":{`), files[1], files[2]}, "not a shard"},
	}
	for _, tc := range tests {
		code, _, errs := run(t, append([]string{"search", "merge"}, tc.parts...)...)
		if code != exitError || !strings.Contains(errs, tc.want) || strings.Contains(errs, "panic") {
			t.Errorf("%s: exit %d, %q; want exit %d mentioning %q", tc.name, code, errs, exitError, tc.want)
		}
	}
}

// noisyCSV writes a CSV of m rows to dir/name: feature x1 is the class (0
// for "no", 1 for "yes") plus Gaussian noise, x2…xk are uniform noise, and
// a share flip of the labels is flipped, all drawn from seed.
func noisyCSV(t *testing.T, dir, name string, m, k int, flip float64, seed uint64) string {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 1))
	header := []string{"label"}
	for i := k; i >= 1; i-- {
		header = append([]string{fmt.Sprintf("x%d", i)}, header...)
	}
	records := [][]string{header}
	for r := 0; r < m; r++ {
		class := rng.IntN(2)
		rec := []string{strconv.FormatFloat(float64(class)+0.35*rng.NormFloat64(), 'f', 4, 64)}
		for len(rec) < k {
			rec = append(rec, strconv.FormatFloat(rng.Float64(), 'f', 4, 64))
		}
		if rng.Float64() < flip {
			class ^= 1
		}
		records = append(records, append(rec, map[int]string{0: "no", 1: "yes"}[class]))
	}
	var b bytes.Buffer
	w := csv.NewWriter(&b)
	if err := w.WriteAll(records); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestSearchAndEvalOnCSV: on a noisy CSV whose 4-fold training parts have
// 150 rows, the search over the small grid chooses its strongest penalty
// (λ = 4); the same command gives the same bytes twice, -o writes what
// --json prints; the test accuracy search reports equals eval's for the
// chosen configuration, and eval's validation accuracy at that
// configuration equals the search's (the same splits and seeds).
func TestSearchAndEvalOnCSV(t *testing.T) {
	dir := t.TempDir()
	train := noisyCSV(t, dir, "train.csv", 200, 10, 0.1, 1)
	test := noisyCSV(t, dir, "test.csv", 120, 10, 0.1, 2)
	out := filepath.Join(dir, "tuned.json")
	args := []string{"search", "--data", train, "--test", test, "--grid", "small", "--bits", "5", "--seeds", "2", "--json"}
	code, first, errs := run(t, args...)
	if code != 0 {
		t.Fatalf("search: exit %d: %s", code, errs)
	}
	code, second, errs := run(t, append(args, "-o", out)...)
	if code != 0 {
		t.Fatalf("search -o: exit %d: %s", code, errs)
	}
	if first != second {
		t.Errorf("two runs of the same search differ:\n%s\n%s", first, second)
	}
	if written, err := os.ReadFile(out); err != nil || string(written) != first {
		t.Errorf("-o wrote %q (%v), --json printed %q", written, err, first)
	}
	var s tune.Result
	if err := json.Unmarshal([]byte(first), &s); err != nil {
		t.Fatal(err)
	}
	c := s.Config
	if c.Lambda != 4 || c.Regularizer != "identity" || c.Bits != 5 || s.Tested == nil || s.Validation.Method != "4-fold" {
		t.Errorf("search result %+v: want λ = 4, the identity penalty, 5 bits, a test accuracy, 4 folds", s)
	}
	code, evalOut, errs := run(t, "eval", "--data", train, "--test", test, "--n", fmt.Sprint(c.N), "--lambda", fmt.Sprint(c.Lambda),
		"--kappa", fmt.Sprint(c.Kappa), "--bits", "5", "--seeds", "2", "--json")
	if code != 0 {
		t.Fatalf("eval: exit %d: %s", code, errs)
	}
	var e tune.Result
	if err := json.Unmarshal([]byte(evalOut), &e); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(s.Tested, e.Tested); diff != "" {
		t.Errorf("test accuracy: search and eval differ (-search +eval):\n%s", diff)
	}
	if d := e.Validated.Mean - s.Validated.Mean; d > 1e-9 || d < -1e-9 {
		t.Errorf("validation accuracy: search %.6f, eval %.6f", s.Validated.Mean, e.Validated.Mean)
	}
	// eval --seed S --seeds 1 is seed S of eval --seeds S+1.
	one := func(args ...string) tune.Result {
		t.Helper()
		code, out, errs := run(t, append([]string{"eval", "--data", train, "--n", "40", "--lambda", "4", "--kappa", "3", "--bits", "5", "--json"}, args...)...)
		if code != 0 {
			t.Fatalf("eval %v: %s", args, errs)
		}
		var r tune.Result
		if err := json.Unmarshal([]byte(out), &r); err != nil {
			t.Fatal(err)
		}
		return r
	}
	if s1, both := one("--seed", "1", "--seeds", "1"), one("--seeds", "2"); !cmp.Equal(s1.Validated.PerSeed[0], both.Validated.PerSeed[1]) {
		t.Errorf("eval --seed 1: %v; seed 1 of --seeds 2: %v", s1.Validated.PerSeed, both.Validated.PerSeed)
	}
	code, line, _ := run(t, "eval", "--data", train, "--n", "50", "--lambda", "4", "--kappa", "3", "--holdout", "0.25")
	if code != 0 || !strings.Contains(line, "validation accuracy") || !strings.Contains(line, "holdout 0.25, 5 seeds") {
		t.Errorf("eval summary line: exit %d, %q", code, line)
	}
}

// TestCSVUsageErrorsExitTwo: flags that do not fit a CSV file, or a
// collection dataset, or each other, are usage errors.
func TestCSVUsageErrorsExitTwo(t *testing.T) {
	dir := t.TempDir()
	data := noisyCSV(t, dir, "d.csv", 40, 3, 0, 3)
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"search", "--data", data, "--folds", "1"}, "--folds 1 outside [2, 1000]"},
		{[]string{"search", "--data", data, "--holdout", "1.5"}, "holdout share 1.5"},
		{[]string{"search", "--data", data, "--folds", "3", "--holdout", "0.2"}, "give one"},
		{[]string{"search", "--data", data, "--folds", "41"}, "want both non-empty"},
		{[]string{"search", "--data", data, "--seeds", "0"}, "--seeds 0"},
		{[]string{"search", "--data", data, "--shard", "0/2"}, "--shard does not apply with a CSV file"},
		{[]string{"search", "--data", data, "--regularizer", "ridge"}, "--regularizer"},
		{[]string{"search", "--data", dir}, "--dataset"},
		{[]string{"search", "--data", dir, "--dataset", "x", "--test", data}, "--test does not apply with a collection dataset"},
		{[]string{"search", "--data", dir, "--dataset", "x", "--seeds", "3"}, "--seeds does not apply"},
		{[]string{"eval", "--data", data, "--n", "10", "--test-norm", "train"}, "--test-norm does not apply with a CSV file"},
		{[]string{"eval", "--data", data, "--n", "10", "--holdout", "-0.5"}, "holdout share -0.5"},
		{[]string{"eval", "--data", dir, "--dataset", "x", "--n", "10", "--folds", "3"}, "--folds does not apply"},
		{[]string{"eval", "--data", data, "--n", "10", "--seeds", "0"}, "--seeds 0"},
		{[]string{"search", "--data", data, "--ga", "rounded"}, "the GA refines an integer readout"},
		{[]string{"search", "--data", data, "--bits", "5", "--ga", "random"}, `--ga "random"`},
		{[]string{"search", "--data", data, "--arch", "rvfl", "--extend-n", "3000"}, "extending N is for --arch intrvfl"},
		{[]string{"search", "--data", data, "--grid", "small", "--extend-n", "100"}, "want at least the grid's largest N, 150"},
		{[]string{"search", "--data", data, "--workers", "0"}, "--workers 0"},
		{[]string{"search", "--data", data, "--arch", "linear", "--bits", "5"}, "does not apply to --arch linear"},
		{[]string{"search", "--data", dir, "--dataset", "x", "--arch", "linear"}, "the linear baseline is for a CSV file"},
		{[]string{"search", "--data", dir, "--dataset", "x", "--parts", dir}, "--parts does not apply"},
		{[]string{"eval", "--data", data, "--n", "10", "--ga", "rounded"}, "the GA refines an integer readout"},
		{[]string{"eval", "--data", dir, "--dataset", "x", "--n", "10", "--seed", "3"}, "--seed does not apply"},
	}
	for _, tc := range tests {
		code, _, errs := run(t, tc.args...)
		if code != exitUsage || !strings.Contains(errs, tc.want) {
			t.Errorf("%v: exit %d, stderr %q; want exit %d mentioning %q", tc.args, code, errs, exitUsage, tc.want)
		}
	}
}

// TestSearchGridDefault: a CSV search scored by the rounded readout (--bits)
// uses the wide grid unless --grid is given; without --bits the paper's grid.
func TestSearchGridDefault(t *testing.T) {
	hwtest.Require(t, hwtest.Slow("scores the wide grid on a small file"))
	dir := t.TempDir()
	data := noisyCSV(t, dir, "d.csv", 40, 3, 0.1, 3)
	cases := []struct {
		name  string
		extra []string
		want  string
	}{
		{"bits", []string{"--bits", "5"}, "wide"},
		{"bits and grid", []string{"--bits", "5", "--grid", "small"}, "small"},
		{"float readout", nil, "paper"},
	}
	for _, c := range cases {
		args := append([]string{"search", "--data", data, "--folds", "2", "--json"}, c.extra...)
		code, out, errs := run(t, args...)
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", c.name, code, errs)
		}
		var s tune.Result
		if err := json.Unmarshal([]byte(out), &s); err != nil {
			t.Fatal(err)
		}
		if s.Search.Grid != c.want {
			t.Errorf("%s: grid %q, want %q", c.name, s.Search.Grid, c.want)
		}
	}
}
