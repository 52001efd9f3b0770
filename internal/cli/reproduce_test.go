package cli

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/hdlgen/hdlgen/internal/jobs"

	"github.com/hdlgen/hdlgen/internal/hwtest"
)

// synthDataset is one dataset of a synthetic collection in the UCI-121 layout.
type synthDataset struct {
	name       string
	k, l, rows int
	testRows   int  // > 0: a separate test file
	noData     bool // the metadata names a data file that is absent (like miniboone)
	corrupt    bool // the data file has a field that is not a number: it fails to load
}

// synthCollection writes a small collection in the layout of the UCI-121
// folder (dataset/doc.go) with seeded random, roughly separable data, so that
// the study tests run without the real collection.
func synthCollection(t *testing.T, sets []synthDataset) string {
	t.Helper()
	dir := t.TempDir()
	for si, d := range sets {
		folder := filepath.Join(dir, d.name)
		if err := os.MkdirAll(folder, 0o755); err != nil {
			t.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(uint64(si), 7))
		files := map[string]string{}
		meta := fmt.Sprintf("n_entradas= %d\nn_clases= %d\n", d.k, d.l)
		train := d.name + "_R.dat"
		if d.testRows > 0 {
			train = d.name + "_train_R.dat"
			meta += fmt.Sprintf("n_arquivos= 2\nfich1= %s\nn_patrons1= %d\nfich2= %s_test_R.dat\nn_patrons2= %d\n", train, d.rows, d.name, d.testRows)
			files[d.name+"_test_R.dat"] = synthRows(rng, d.k, d.l, d.testRows)
		} else {
			meta += fmt.Sprintf("n_arquivos= 1\nfich1= %s\nn_patrons1= %d\n", train, d.rows)
		}
		half := d.rows / 2
		meta += fmt.Sprintf("n_patrons_entrena= %d\nn_patrons_valida= %d\nn_conxuntos= 1\n", half, d.rows-half)
		files[d.name+".txt"] = meta
		if !d.noData {
			files[train] = synthRows(rng, d.k, d.l, d.rows)
		}
		if d.corrupt {
			files[train] = strings.Replace(files[train], "\n1\t", "\n1\tnot-a-number\t", 1)
		}
		perm := rng.Perm(d.rows)
		files["conxuntos.dat"] = indexLine(perm[:half]) + indexLine(perm[half:])
		var kfold strings.Builder
		for f := 0; f < 4; f++ {
			var tr, te []int
			for i, r := range perm {
				if i%4 == f {
					te = append(te, r)
				} else {
					tr = append(tr, r)
				}
			}
			kfold.WriteString(indexLine(tr) + indexLine(te))
		}
		files["conxuntos_kfold.dat"] = kfold.String()
		for name, text := range files {
			if err := os.WriteFile(filepath.Join(folder, name), []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	return dir
}

// synthRows is a data file: a header, then rows "index features… class" with
// every class present and each feature near its class's centre.
func synthRows(rng *rand.Rand, k, l, rows int) string {
	var b strings.Builder
	for i := 1; i <= k; i++ {
		fmt.Fprintf(&b, "\tf%d", i)
	}
	b.WriteString("\tclase\n")
	for r := 0; r < rows; r++ {
		c := r % l
		fmt.Fprintf(&b, "%d", r+1)
		for i := 0; i < k; i++ {
			fmt.Fprintf(&b, "\t%.6f", float64((c*(i+1))%l)+rng.NormFloat64()*0.6)
		}
		fmt.Fprintf(&b, "\t%d\n", c)
	}
	return b.String()
}

func indexLine(v []int) string {
	var b strings.Builder
	for _, x := range v {
		fmt.Fprintf(&b, "%d ", x)
	}
	return b.String() + "\n"
}

// studySets is the synthetic collection of the reproduce tests.
var studySets = []synthDataset{
	{name: "alpha", k: 3, l: 2, rows: 48},
	{name: "beta", k: 4, l: 3, rows: 60},
	{name: "delta", k: 3, l: 2, rows: 40, testRows: 20},
	{name: "gamma", k: 2, l: 2, rows: 40},
	{name: "missing", k: 3, l: 2, rows: 40, noData: true},
	{name: "corrupt", k: 2, l: 2, rows: 40, corrupt: true},
}

// TestReproduceRejectsBadCollection: an unreadable collection, unknown or
// empty --datasets are usage errors (exit 2) that write nothing, and a run in
// which every dataset is skipped fails (exit 1).
func TestReproduceRejectsBadCollection(t *testing.T) {
	data := synthCollection(t, studySets)
	tests := []struct {
		name     string
		args     []string
		exit     int
		want     string
		noOutput bool
	}{
		{"no such folder", []string{"--data", filepath.Join(data, "nonexistent")}, exitUsage, "not a readable UCI-121 collection", true},
		{"folder without datasets", []string{"--data", t.TempDir()}, exitUsage, "no dataset in this folder", true},
		{"unknown dataset", []string{"--data", data, "--datasets", "alpha,nosuch"}, exitUsage, "--datasets: nosuch not in the collection", true},
		{"empty list", []string{"--data", data, "--datasets", ","}, exitUsage, `--datasets "," names no dataset`, true},
		{"every dataset skipped", []string{"--data", data, "--datasets", "missing"}, exitError, "every dataset was skipped", false},
	}
	for _, tc := range tests {
		out := filepath.Join(t.TempDir(), "out")
		args := append([]string{"reproduce", "--out", out, "--grid", "small", "--seeds", "1", "--stages", "accuracy"}, tc.args...)
		code, stdout, errs := run(t, args...)
		if code != tc.exit || !strings.Contains(errs, tc.want) {
			t.Errorf("%s: exit %d, stderr %q; want exit %d mentioning %q", tc.name, code, errs, tc.exit, tc.want)
		}
		if strings.Contains(stdout, "mean accuracy") {
			t.Errorf("%s: reported a mean accuracy: %q", tc.name, stdout)
		}
		if _, err := os.Stat(filepath.Join(out, "summary.json")); err == nil {
			t.Errorf("%s: wrote a summary", tc.name)
		}
		if _, err := os.Stat(out); tc.noOutput && err == nil {
			t.Errorf("%s: created the output folder", tc.name)
		}
	}
}

// TestReproduceRecomputesChangedData: a rerun into a finished folder reuses
// the stored jobs, but after the dataset's labels change it computes them
// again (issue 10, item 6).
func TestReproduceRecomputesChangedData(t *testing.T) {
	data := synthCollection(t, studySets[:1])
	out := filepath.Join(t.TempDir(), "out")
	args := []string{"reproduce", "--data", data, "--out", out, "--grid", "small", "--seeds", "1", "--stages", "accuracy", "--networks", "intrvfl"}
	if code, _, errs := run(t, args...); code != 0 {
		t.Fatalf("first run: exit %d: %s", code, errs)
	}
	if code, _, errs := run(t, args...); code != 0 || !strings.Contains(errs, "0 jobs to run, 1 reused") {
		t.Fatalf("rerun: exit %d, want the job reused: %s", code, errs)
	}
	// Scramble the labels: every class shifts by one.
	p := filepath.Join(data, "alpha", "alpha_R.dat")
	old, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	scrambled := regexp.MustCompile(`(?m)\t([01])$`).ReplaceAllFunc(old, func(m []byte) []byte {
		return []byte{'\t', '0' + (m[1]-'0'+1)%2}
	})
	if bytes.Equal(old, scrambled) {
		t.Fatal("labels not changed")
	}
	if err := os.WriteFile(p, scrambled, 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, errs := run(t, args...); code != 0 || !strings.Contains(errs, "1 jobs to run, 0 reused") {
		t.Errorf("after the data changed: exit %d, want the job run again: %s", code, errs)
	}
}

// TestReproduceRefusesALockedFolder: a second run into an --out that another
// run holds fails at once and says who holds it (issue 10, item 14).
func TestReproduceRefusesALockedFolder(t *testing.T) {
	data := synthCollection(t, studySets[:1])
	out := filepath.Join(t.TempDir(), "out")
	lock, err := jobs.LockDir(out, jobs.Shard{}, "hdlgen reproduce --out busy")
	if err != nil {
		t.Fatal(err)
	}
	defer lock.Unlock()
	code, _, errs := run(t, "reproduce", "--data", data, "--out", out, "--grid", "small", "--seeds", "1", "--stages", "accuracy")
	host, _ := os.Hostname()
	for _, want := range []string{"in use by another run", fmt.Sprintf("pid %d on host %s since ", os.Getpid(), host), "hdlgen reproduce --out busy"} {
		if code != exitError || !strings.Contains(errs, want) {
			t.Errorf("exit %d, stderr %q; want exit %d mentioning %q", code, errs, exitError, want)
		}
	}
	if _, err := os.Stat(filepath.Join(out, "runs")); err == nil {
		t.Error("the refused run stored jobs")
	}
}

// TestReproduceShardsMergeToOneRun runs a study as one process, and as three
// shard processes plus a merge, with the built binary: first the accuracy and
// budget stages with each shard in its own folder (gathered by the merge),
// then the readout and retune stages with the three shards sharing the merged
// folder at once. The collection has a dataset whose data file is missing
// (skipped before any job) and one that fails to load (skipped by its jobs). Every report must equal the single run's byte for byte,
// apart from the record of the invocation and timings (issue 15, part 3).
func TestReproduceShardsMergeToOneRun(t *testing.T) {
	hwtest.Require(t, hwtest.Slow("runs 11 hdlgen processes, several at once"))
	tmp := t.TempDir()
	data := synthCollection(t, studySets)
	common := []string{"reproduce", "--data", data, "--out", "out", "--grid", "small", "--seeds", "2"}
	phase1 := append(append([]string(nil), common...), "--stages", "accuracy,budget")
	phase2 := append(append([]string(nil), common...), "--stages", "readout,retune", "--readout-ga=false")
	with := func(args []string, more ...string) []string { return append(append([]string(nil), args...), more...) }
	exe := func(dir string, args []string) *exec.Cmd {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		c := exec.Command(os.Args[0], args...) // the test binary acts as hdlgen (signal_test.go)
		c.Env = append(os.Environ(), asHdlgenEnv+"=1")
		c.Dir = dir
		return c
	}
	runAll := func(cmds ...*exec.Cmd) {
		t.Helper()
		outs := make([]*bytes.Buffer, len(cmds))
		for i, c := range cmds {
			outs[i] = new(bytes.Buffer)
			c.Stdout, c.Stderr = outs[i], outs[i]
			if err := c.Start(); err != nil {
				t.Fatal(err)
			}
		}
		for i, c := range cmds {
			if err := c.Wait(); err != nil {
				t.Fatalf("%v in %s: %v\n%s", c.Args[1:], c.Dir, err, outs[i])
			}
		}
	}
	single, merged := filepath.Join(tmp, "single"), filepath.Join(tmp, "merged")
	runAll(exe(single, phase1))
	runAll(exe(single, phase2))
	// Phase 1: three shards, each in its own folder, at once; then the merge.
	var shards []*exec.Cmd
	var folders []string
	for i := 0; i < 3; i++ {
		dir := filepath.Join(tmp, fmt.Sprintf("shard%d", i))
		shards = append(shards, exe(dir, with(phase1, "--shard", fmt.Sprintf("%d/3", i))))
		folders = append(folders, filepath.Join(dir, "out"))
	}
	runAll(shards...)
	for _, f := range folders {
		if _, err := os.Stat(filepath.Join(f, "summary.json")); err == nil {
			t.Errorf("shard folder %s has a report", f)
		}
	}
	runAll(exe(merged, with(phase1, "--merge", strings.Join(folders, ","))))
	// Phase 2: three shards sharing the merged folder at once; then the merge.
	shards = nil
	for i := 0; i < 3; i++ {
		shards = append(shards, exe(merged, with(phase2, "--shard", fmt.Sprintf("%d/3", i))))
	}
	runAll(shards...)
	runAll(exe(merged, with(phase2, "--merge", "out")))

	files := []string{"summary.json", "summary.md", "accuracy.tsv", "fig5-rvfl-vs-intrvfl.svg",
		"readout-summary.json", "readout-summary.md", "readout.tsv", "fig6-readout.svg",
		"retune-summary.json", "retune-summary.md", "retune.tsv",
		"budget/summary.json", "budget/summary.md", "budget/accuracy.tsv", "budget/fig7-3.2uJ.svg", "budget/fig7-median.svg"}
	for _, f := range files {
		want, err := os.ReadFile(filepath.Join(single, "out", f))
		if err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(filepath.Join(merged, "out", f))
		if err != nil {
			t.Fatal(err)
		}
		if g, w := withoutTimings(f, got), withoutTimings(f, want); !bytes.Equal(g, w) {
			t.Errorf("merged %s differs from the single run's:\n%s", f, firstDiff(g, w))
		}
	}
	sum, err := os.ReadFile(filepath.Join(merged, "out", "summary.json"))
	if err != nil {
		t.Fatal(err)
	}
	for _, ds := range []string{`"dataset": "missing"`, `"dataset": "corrupt"`} {
		if !strings.Contains(string(sum), ds) {
			t.Errorf("merged summary does not list %s as skipped", ds)
		}
	}
	// The shards ran every job once: nothing was computed twice or left out.
	log, err := os.ReadFile(filepath.Join(merged, "out", "run-log.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(log), "readout shard 2/3\t") {
		t.Errorf("run log lacks the shards' lines:\n%s", log)
	}
}

var (
	timingJSON = regexp.MustCompile(`(?m)^(\s*"[a-z_]*seconds)": .*?(,?)$`)
	timingMD   = regexp.MustCompile(`\b\d+ s\b`)
)

// withoutTimings is withoutInvocation with the timings blanked too: JSON keys
// ending in "seconds", TSV columns named *_s or seconds, and "N s" in tables.
func withoutTimings(name string, data []byte) []byte {
	data = withoutInvocation(name, data)
	switch filepath.Ext(name) {
	case ".json":
		return timingJSON.ReplaceAll(data, []byte(`$1": …$2`))
	case ".md":
		return timingMD.ReplaceAll(data, []byte("… s"))
	case ".tsv":
		lines := strings.Split(string(data), "\n")
		head := strings.Split(lines[0], "\t")
		for i, l := range lines {
			f := strings.Split(l, "\t")
			for c := range f {
				if c < len(head) && (strings.HasSuffix(head[c], "_s") || head[c] == "seconds") && i > 0 {
					f[c] = "…"
				}
			}
			lines[i] = strings.Join(f, "\t")
		}
		return []byte(strings.Join(lines, "\n"))
	}
	return data
}
