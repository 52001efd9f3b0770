//go:build ignore

// Cmdbench times hdlgen commands the way a user meets them: each command line
// is a whole process (start-up, loading, computing, writing), run with the
// hdlgen of the working tree (A, "new") and the hdlgen of a base commit (B),
// alternately A B A B …, and reports per command the median wall time and the
// median CPU time (user + system, the operating system's accounting of the
// finished process and the processes it waited for) of each, and the speed-up
// B/A of the medians. Both are built from source here: the base commit from
// `git archive`, so the working tree and its git state are not touched.
//
//	go run scripts/cmdbench.go [flags] [CASE ...]
//	go run scripts/cmdbench.go -runs 3 -out results/cmdbench/eval.md eval-large eval-all
//	go run scripts/cmdbench.go -base 523670d -runs 1 -out results/cmdbench/pinv.md pinv-search
//
// The cases (default: eval-large eval-all search predict build):
//
//	eval-large   hdlgen eval at the published hyperparameters
//	             (study/testdata/intrvfl-published-hyperparameters.tsv) of every
//	             collection dataset of ≥ 4,000 rows (train and test file) whose
//	             published N is ≥ 1000, --regularizer variance, 5 seeds, once per
//	             -workers value; the summary is the geometric mean of the
//	             per-dataset speed-ups
//	eval-all     the same command over the whole collection (every dataset of the
//	             TSV whose data files are present), one process per dataset; a run
//	             is the whole pass, its wall and CPU time the sums
//	search       hdlgen search (the paper grid, intRVFL) on -search-dataset
//	pinv-search  hdlgen search --solver pinv-cutoff (intRVFL) on each of
//	             -pinv-datasets; the summary is the total over them (the base must
//	             have --solver: a commit from 2026-11-25 on)
//	predict      hdlgen predict on -predict-rows rows of a synthetic 16-feature
//	             CSV, with a 5-bit intRVFL (N = 512) that each binary trains first
//	build        hdlgen build on -csv into a fresh folder (only timed for A when
//	             the base has no build command)
//	size         hdlgen size of an intRVFL shape (K = 16, L = 4, κ = 3, 5-bit) for a
//	             3.2 µJ budget: each process builds the sizer's table of the shape
//	             (N up to 4096, every candidate P) from nothing
//
// Every command's standard output is kept, and A's is compared with B's
// (for JSON, every field both report, apart from timings; a search that
// has --shard prints its whole grid of counts with --shard 0/1): the report
// says whether the results are identical. The pinv-cutoff searches are also
// compared with the committed study (results/uci121-pinv-intrvfl). The report (markdown, -out) records
// the date, the machine, both commits, the load average before and after
// every case and every run's figures (-out's .tsv). The machine may be
// shared: only ratios measured in the same run, alternately, mean anything.
package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"
)

var (
	flagBase     = flag.String("base", "fe2c06fe6847", "B: the commit to compare against")
	flagNew      = flag.String("new", "", "A: a commit to build instead of the working tree")
	flagData     = flag.String("data", envOr("HDLGEN_UCI121", "../shared/uci121"), "the UCI-121 collection (default $HDLGEN_UCI121, else ../shared/uci121)")
	flagRuns     = flag.Int("runs", 3, "runs of each command per binary (A B A B …)")
	flagWarmup   = flag.Int("warmup", 1, "untimed runs of each command per binary first (single-dataset eval, search and predict only)")
	flagWorkers  = flag.String("workers", "1,2", "eval cases: the --workers values, comma-separated")
	flagHyper    = flag.String("hyper", "study/testdata/intrvfl-published-hyperparameters.tsv", "eval cases: the published hyperparameters")
	flagLarge    = flag.String("large", "", "eval-large: these datasets instead of the rule (comma-separated)")
	flagAll      = flag.String("all", "", "eval-all: these datasets instead of the whole collection (comma-separated; a quick check, not the whole-collection figure)")
	flagSearchDS = flag.String("search-dataset", "wine-quality-red", "search: the dataset")
	flagPinvDS   = flag.String("pinv-datasets", "balloons,trains,hayes-roth,iris,zoo,seeds,glass,heart-switzerland,wine,pittsburg-bridges-T-OR-D", "pinv-search: the datasets")
	flagCSV      = flag.String("csv", "examples/breast-cancer-wisc.csv", "build: the CSV")
	flagRows     = flag.Int("predict-rows", 1000000, "predict: rows to classify")
	flagOut      = flag.String("out", "", "write the report here (markdown) and every run to the same name with .tsv")
	flagKeep     = flag.Bool("keep", false, "keep the temporary folder (binaries, outputs)")
)

func envOr(k, def string) string {
	if v := os.Getenv(k); v != "" {
		return v
	}
	return def
}

// binary is one built hdlgen.
type binary struct {
	label string // "A" or "B"
	path  string
	desc  string // commit (and whether the working tree differs)
	help  map[string]string
}

// has reports whether the binary's `hdlgen CMD --help` mentions flag.
func (b *binary) has(cmd, flag string) bool {
	h, ok := b.help[cmd]
	if !ok {
		out, err := exec.Command(b.path, cmd, "--help").CombinedOutput()
		if err != nil || bytes.HasPrefix(out, []byte("Error")) || !bytes.Contains(out, []byte("Usage:\n  hdlgen "+cmd)) {
			out = nil
		}
		h = string(out)
		b.help[cmd] = h
	}
	if flag == "" {
		return h != ""
	}
	return strings.Contains(h, "--"+flag+" ")
}

// workersFlag is the spelling of the linear algebra's worker count.
func (b *binary) workersFlag(cmd string) string {
	if b.has(cmd, "workers") {
		return "--workers"
	}
	return "--threads"
}

// run is one timed process (or pass of processes).
type run struct {
	wall, cpu float64
	out       []byte // standard output (a pass: concatenated)
}

// job is one command line (or pass) measured on both binaries.
type job struct {
	name    string
	group   string                     // jobs summarised together (geometric mean, totals)
	args    func(b *binary) [][]string // the processes of one run
	warm    bool                       // warm-up runs apply
	compare func(a, b []byte) string   // "" when equal, else what differs
	aOnly   string                     // not run on B, and why
	// committed, when set, checks A's output against committed results
	// ("" when equal, else what differs).
	committed func(out []byte) string
	runs      map[string][]run
}

// result summarises a job.
func (j *job) median(label string, f func(run) float64) float64 {
	var v []float64
	for _, r := range j.runs[label] {
		v = append(v, f(r))
	}
	return median(v)
}

func median(v []float64) float64 {
	if len(v) == 0 {
		return math.NaN()
	}
	s := slices.Clone(v)
	sort.Float64s(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

func wall(r run) float64 { return r.wall }
func cpu(r run) float64  { return r.cpu }

// exec1 runs one process, its output to out, and returns its wall and CPU
// seconds.
func exec1(args []string, dir string, out io.Writer) (float64, float64, error) {
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Dir = dir
	cmd.Stdout = out
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	t0 := time.Now()
	err := cmd.Run()
	w := time.Since(t0).Seconds()
	if err != nil {
		return 0, 0, fmt.Errorf("%s: %w\n%s", strings.Join(args, " "), err, lastLines(stderr.String(), 5))
	}
	st := cmd.ProcessState
	return w, st.UserTime().Seconds() + st.SystemTime().Seconds(), nil
}

func lastLines(s string, n int) string {
	l := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(l) > n {
		l = l[len(l)-n:]
	}
	return strings.Join(l, "\n")
}

// measure runs the processes of one run of j on b.
func measure(j *job, b *binary, dir string) (run, error) {
	var r run
	var out bytes.Buffer
	for _, args := range j.args(b) {
		w, c, err := exec1(args, dir, &out)
		if err != nil {
			return r, fmt.Errorf("%s on %s: %w", j.name, b.label, err)
		}
		r.wall += w
		r.cpu += c
	}
	r.out = out.Bytes()
	return r, nil
}

func loadavg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	return strings.Join(strings.Fields(string(b))[:3], " ")
}

func main() {
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: go run scripts/cmdbench.go [flags] [eval-large|eval-all|search|pinv-search|predict|build ...]")
		flag.PrintDefaults()
	}
	flag.Parse()
	if err := mainErr(); err != nil {
		fmt.Fprintln(os.Stderr, "cmdbench:", err)
		os.Exit(1)
	}
}

func mainErr() error {
	cases := flag.Args()
	if len(cases) == 0 {
		cases = []string{"eval-large", "eval-all", "search", "predict", "build"}
	}
	if *flagRuns < 1 {
		return fmt.Errorf("-runs %d: want at least 1", *flagRuns)
	}
	root, err := gitOut(".", "rev-parse", "--show-toplevel")
	if err != nil {
		return fmt.Errorf("not in the repository: %w", err)
	}
	if err := os.Chdir(root); err != nil {
		return err
	}
	data, err := filepath.Abs(*flagData)
	if err != nil {
		return err
	}
	tmp, err := os.MkdirTemp("", "cmdbench-")
	if err != nil {
		return err
	}
	if *flagKeep {
		fmt.Fprintln(os.Stderr, "temporary folder:", tmp)
	} else {
		defer os.RemoveAll(tmp)
	}
	rep := &report{tmp: tmp, data: data, start: time.Now().UTC(), loadBefore: loadavg()}
	a, err := buildAt(*flagNew, tmp, "A")
	if err != nil {
		return err
	}
	b, err := buildAt(*flagBase, tmp, "B")
	if err != nil {
		return err
	}
	rep.a, rep.b = a, b
	var workers []int
	for _, s := range strings.Split(*flagWorkers, ",") {
		w, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil || w < 1 {
			return fmt.Errorf("-workers %q: want positive integers", *flagWorkers)
		}
		workers = append(workers, w)
	}
	for _, c := range cases {
		var jobs []*job
		var err error
		switch c {
		case "eval-large":
			jobs, err = evalLarge(data, workers)
		case "eval-all":
			jobs, err = evalAll(data, workers)
		case "search":
			jobs = []*job{searchJob("search "+*flagSearchDS, data, *flagSearchDS, false)}
		case "pinv-search":
			if !b.has("search", "solver") {
				return fmt.Errorf("pinv-search: the base %s has no search --solver (give -base a later commit, e.g. 523670d)", b.desc)
			}
			for _, ds := range strings.Split(*flagPinvDS, ",") {
				j := searchJob("pinv search "+ds, data, ds, true)
				j.committed = committedSearch(ds)
				jobs = append(jobs, j)
			}
		case "predict":
			jobs, err = predictJobs(tmp, a, b)
		case "build":
			jobs, err = buildJobs(tmp, a, b)
		case "size":
			jobs = []*job{{name: "size K=16 L=4 κ=3 5-bit, 3.2 µJ", warm: true, compare: compareBytes,
				args: func(b *binary) [][]string {
					return [][]string{{b.path, "size", "--budget", "3.2uJ", "--features", "16", "--num-classes", "4",
						"--arch", "intrvfl", "--kappa", "3", "--bits", "5"}}
				}}}
		default:
			return fmt.Errorf("unknown case %q", c)
		}
		if err != nil {
			return fmt.Errorf("%s: %w", c, err)
		}
		cs := &caseResult{name: c, loadBefore: loadavg(), jobs: jobs}
		for _, j := range jobs {
			if err := runJob(j, a, b, tmp); err != nil {
				return err
			}
		}
		cs.loadAfter = loadavg()
		rep.cases = append(rep.cases, cs)
		if err := rep.write(); err != nil { // what is done so far, should a later case fail
			return err
		}
	}
	if err := rep.write(); err != nil {
		return err
	}
	fmt.Print(rep.markdown())
	return nil
}

// write writes the report and the runs' table to -out (nothing without it).
func (r *report) write() error {
	r.loadAfter = loadavg()
	r.end = time.Now().UTC()
	if *flagOut == "" {
		return nil
	}
	if err := os.MkdirAll(filepath.Dir(*flagOut), 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(*flagOut, []byte(r.markdown()), 0o644); err != nil {
		return err
	}
	return os.WriteFile(strings.TrimSuffix(*flagOut, ".md")+".tsv", []byte(r.tsv()), 0o644)
}

// runJob measures j: warm-up runs, then A B A B …, printing progress.
func runJob(j *job, a, b *binary, tmp string) error {
	j.runs = map[string][]run{}
	bins := []*binary{a, b}
	if j.aOnly != "" {
		bins = bins[:1]
	}
	if j.warm {
		for i := 0; i < *flagWarmup; i++ {
			for _, bin := range bins {
				if _, err := measure(j, bin, tmp); err != nil {
					return err
				}
			}
		}
	}
	for i := 0; i < *flagRuns; i++ {
		for _, bin := range bins {
			r, err := measure(j, bin, tmp)
			if err != nil {
				return err
			}
			j.runs[bin.label] = append(j.runs[bin.label], r)
			fmt.Fprintf(os.Stderr, "%s %s run %d: %.2f s wall, %.2f s CPU (load %s)\n", j.name, bin.label, i+1, r.wall, r.cpu, loadavg())
		}
	}
	return nil
}

// gitOut runs git in dir and returns its trimmed output.
func gitOut(dir string, args ...string) (string, error) {
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("git %s: %w", strings.Join(args, " "), err)
	}
	return strings.TrimSpace(string(out)), nil
}

// buildAt builds hdlgen at rev (the working tree when rev is "") into tmp.
func buildAt(rev, tmp, label string) (*binary, error) {
	bin := filepath.Join(tmp, "hdlgen-"+label)
	src := "."
	var desc string
	if rev == "" {
		head, err := gitOut(".", "rev-parse", "--short=12", "HEAD")
		if err != nil {
			return nil, err
		}
		desc = head + " and the working tree's changes"
		if st, _ := gitOut(".", "status", "--porcelain", "--untracked-files=no"); st == "" {
			desc = head
		}
	} else {
		full, err := gitOut(".", "rev-parse", "--short=12", rev+"^{commit}")
		if err != nil {
			return nil, err
		}
		desc = full
		src = filepath.Join(tmp, "src-"+label)
		if err := os.MkdirAll(src, 0o755); err != nil {
			return nil, err
		}
		archive := exec.Command("sh", "-c", "git archive --format=tar "+full+" | tar -x -C "+src)
		if out, err := archive.CombinedOutput(); err != nil {
			return nil, fmt.Errorf("git archive %s: %w\n%s", full, err, out)
		}
	}
	fmt.Fprintf(os.Stderr, "building %s (%s)\n", label, desc)
	cmd := exec.Command("go", "build", "-o", bin, "./cmd/hdlgen")
	cmd.Dir = src
	if out, err := cmd.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("building %s: %w\n%s", desc, err, out)
	}
	return &binary{label: label, path: bin, desc: desc, help: map[string]string{}}, nil
}

// published is one row of the published hyperparameters.
type published struct {
	name, n, lambda, kappa string
}

func readHyper(data string) ([]published, error) {
	raw, err := os.ReadFile(*flagHyper)
	if err != nil {
		return nil, err
	}
	var out []published
	for _, line := range strings.Split(string(raw), "\n") {
		f := strings.Split(line, "\t")
		if len(f) != 4 || strings.HasPrefix(line, "#") || f[0] == "dataset" {
			continue
		}
		if !present(data, f[0]) {
			fmt.Fprintf(os.Stderr, "skipping %s: its data files are not in %s\n", f[0], data)
			continue
		}
		out = append(out, published{f[0], f[1], f[2], f[3]})
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s: no dataset of %s", *flagHyper, data)
	}
	return out, nil
}

// meta reads the key= value lines of a dataset's description file.
func meta(data, name string) map[string]string {
	raw, err := os.ReadFile(filepath.Join(data, name, name+".txt"))
	if err != nil {
		return nil
	}
	m := map[string]string{}
	for _, line := range strings.Split(string(raw), "\n") {
		if k, v, ok := strings.Cut(line, "="); ok {
			m[strings.TrimSpace(k)] = strings.TrimSpace(v)
		}
	}
	return m
}

// present reports whether every data file of the dataset exists.
func present(data, name string) bool {
	m := meta(data, name)
	if m == nil {
		return false
	}
	for i := 1; ; i++ {
		f, ok := m[fmt.Sprintf("fich%d", i)]
		if !ok {
			return i > 1
		}
		if _, err := os.Stat(filepath.Join(data, name, f)); err != nil {
			return false
		}
	}
}

// rows returns the rows of the dataset's data files together.
func rows(data, name string) int {
	m := meta(data, name)
	t := 0
	for i := 1; ; i++ {
		v, ok := m[fmt.Sprintf("n_patrons%d", i)]
		if !ok {
			return t
		}
		n, _ := strconv.Atoi(v)
		t += n
	}
}

func evalArgs(b *binary, data string, p published, w int) []string {
	return []string{b.path, "eval", "--data", data, "--dataset", p.name, "--arch", "intrvfl", "--n", p.n,
		"--lambda", p.lambda, "--kappa", p.kappa, "--regularizer", "variance", "--seeds", "5",
		b.workersFlag("eval"), strconv.Itoa(w), "--json"}
}

func evalLarge(data string, workers []int) ([]*job, error) {
	hyper, err := readHyper(data)
	if err != nil {
		return nil, err
	}
	var pick []published
	for _, p := range hyper {
		n, _ := strconv.Atoi(p.n)
		if *flagLarge != "" {
			if slices.Contains(strings.Split(*flagLarge, ","), p.name) {
				pick = append(pick, p)
			}
		} else if rows(data, p.name) >= 4000 && n >= 1000 {
			pick = append(pick, p)
		}
	}
	var jobs []*job
	for _, w := range workers {
		for _, p := range pick {
			jobs = append(jobs, &job{name: fmt.Sprintf("eval %s N=%s, %d worker(s)", p.name, p.n, w), group: fmt.Sprintf("%d worker(s)", w), warm: true, compare: compareJSON,
				args: func(b *binary) [][]string { return [][]string{evalArgs(b, data, p, w)} }})
		}
	}
	return jobs, nil
}

func evalAll(data string, workers []int) ([]*job, error) {
	hyper, err := readHyper(data)
	if err != nil {
		return nil, err
	}
	if *flagAll != "" {
		keep := strings.Split(*flagAll, ",")
		hyper = slices.DeleteFunc(hyper, func(p published) bool { return !slices.Contains(keep, p.name) })
	}
	var jobs []*job
	for _, w := range workers {
		jobs = append(jobs, &job{name: fmt.Sprintf("eval over %d datasets, %d worker(s)", len(hyper), w), group: fmt.Sprint(w), compare: compareJSONLines,
			args: func(b *binary) [][]string {
				var all [][]string
				for _, p := range hyper {
					all = append(all, evalArgs(b, data, p, w))
				}
				return all
			}})
	}
	return jobs, nil
}

func searchJob(name, data, ds string, pinv bool) *job {
	return &job{name: name, warm: !pinv, compare: compareJSON, args: func(b *binary) [][]string {
		args := []string{b.path, "search", "--data", data, "--dataset", ds, "--arch", "intrvfl", "--json"}
		if b.has("search", "shard") { // one shard of one: the whole grid, with its counts in the JSON
			args = append(args, "--shard", "0/1")
		}
		if pinv {
			args = append(args, "--solver", "pinv-cutoff")
		}
		return [][]string{args}
	}}
}

// predictJobs writes a synthetic training CSV and a CSV of -predict-rows rows
// (16 features, 4 classes, fixed seed), trains a 5-bit intRVFL with each
// binary, and returns the predict job.
func predictJobs(tmp string, a, b *binary) ([]*job, error) {
	const k, classes = 16, 4
	rng := rand.New(rand.NewPCG(29, 2026))
	var centre [classes][k]float64
	for c := range centre {
		for i := range centre[c] {
			centre[c][i] = rng.NormFloat64()
		}
	}
	write := func(path string, rows int, label bool) error {
		var buf bytes.Buffer
		for i := 0; i < k; i++ {
			if i > 0 {
				buf.WriteByte(',')
			}
			fmt.Fprintf(&buf, "f%d", i+1)
		}
		if label {
			buf.WriteString(",class")
		}
		buf.WriteByte('\n')
		for r := 0; r < rows; r++ {
			c := rng.IntN(classes)
			for i := 0; i < k; i++ {
				if i > 0 {
					buf.WriteByte(',')
				}
				buf.WriteString(strconv.FormatFloat(centre[c][i]+1.5*rng.NormFloat64(), 'f', 4, 64))
			}
			if label {
				fmt.Fprintf(&buf, ",c%d", c)
			}
			buf.WriteByte('\n')
		}
		return os.WriteFile(path, buf.Bytes(), 0o644)
	}
	train := filepath.Join(tmp, "predict-train.csv")
	big := filepath.Join(tmp, "predict-rows.csv")
	if err := write(train, 20000, true); err != nil {
		return nil, err
	}
	if err := write(big, *flagRows, false); err != nil {
		return nil, err
	}
	models := map[string]string{}
	for _, bin := range []*binary{a, b} {
		models[bin.label] = filepath.Join(tmp, "predict-model-"+bin.label+".json")
		args := []string{bin.path, "train", "--data", train, "--n", "512", "--kappa", "3", "--lambda", "4",
			"--regularizer", "identity", "--bits", "5", "-o", models[bin.label]}
		if bin.has("train", "holdout") { // train on every row, as the older train did
			args = append(args, "--holdout", "0")
		}
		if _, _, err := exec1(args, tmp, io.Discard); err != nil {
			return nil, err
		}
	}
	return []*job{{name: fmt.Sprintf("predict %d rows (K=16, N=512, 5-bit)", *flagRows), warm: true, compare: compareBytes,
		args: func(b *binary) [][]string {
			return [][]string{{b.path, "predict", models[b.label], "--data", big}}
		}}}, nil
}

// buildJobs returns the build job: a fresh output folder for every run.
func buildJobs(tmp string, a, b *binary) ([]*job, error) {
	csv, err := filepath.Abs(*flagCSV)
	if err != nil {
		return nil, err
	}
	count := 0
	j := &job{name: "build " + filepath.Base(*flagCSV), args: func(bin *binary) [][]string {
		count++
		return [][]string{{bin.path, "build", "--data", csv, "-o", filepath.Join(tmp, fmt.Sprintf("build-%s-%d", bin.label, count))}}
	}}
	if !b.has("build", "") {
		j.aOnly = "the base has no build command"
	}
	return []*job{j}, nil
}

// committedSearch returns the check of a pinv-cutoff search's output
// against the committed study's search job of the dataset
// (results/uci121-pinv-intrvfl), or nil when there is none.
func committedSearch(ds string) func([]byte) string {
	path := filepath.Join("results", "uci121-pinv-intrvfl", "runs", "intrvfl", ds+".search.json")
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	var job struct {
		Search json.RawMessage `json:"search"`
	}
	if err := json.Unmarshal(raw, &job); err != nil {
		return func([]byte) string { return path + ": " + err.Error() }
	}
	return func(out []byte) string {
		var x, y map[string]any
		if err := json.Unmarshal(out, &x); err != nil {
			return "output is not JSON"
		}
		if err := json.Unmarshal(job.Search, &y); err != nil {
			return path + ": " + err.Error()
		}
		for _, k := range []string{"correct", "best"} {
			if !reflect.DeepEqual(x[k], y[k]) {
				return k + " differs from " + path
			}
		}
		return ""
	}
}

// compareBytes compares two outputs byte for byte.
func compareBytes(a, b []byte) string {
	if bytes.Equal(a, b) {
		return ""
	}
	return "outputs differ"
}

// compareJSON compares two JSON documents on the fields present in both,
// timings (keys ending in "seconds") apart.
func compareJSON(a, b []byte) string {
	var x, y any
	if err := json.Unmarshal(a, &x); err != nil {
		return "A's output is not JSON: " + err.Error()
	}
	if err := json.Unmarshal(b, &y); err != nil {
		return "B's output is not JSON: " + err.Error()
	}
	return diffCommon("", x, y)
}

// compareJSONLines compares two streams of JSON documents (one per dataset).
func compareJSONLines(a, b []byte) string {
	da, db := json.NewDecoder(bytes.NewReader(a)), json.NewDecoder(bytes.NewReader(b))
	for i := 1; ; i++ {
		var x, y any
		ea, eb := da.Decode(&x), db.Decode(&y)
		if errors.Is(ea, io.EOF) && errors.Is(eb, io.EOF) {
			return ""
		}
		if ea != nil || eb != nil {
			return fmt.Sprintf("document %d: %v / %v", i, ea, eb)
		}
		if d := diffCommon("", x, y); d != "" {
			return fmt.Sprintf("document %d: %s", i, d)
		}
	}
}

func diffCommon(path string, x, y any) string {
	mx, okx := x.(map[string]any)
	my, oky := y.(map[string]any)
	if okx && oky {
		keys := make([]string, 0, len(mx))
		for k := range mx {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			vy, ok := my[k]
			if !ok || mx[k] == nil || vy == nil || strings.HasSuffix(k, "seconds") {
				continue // only what both report
			}
			if d := diffCommon(path+"."+k, mx[k], vy); d != "" {
				return d
			}
		}
		return ""
	}
	if !reflect.DeepEqual(x, y) {
		return fmt.Sprintf("%s: %v / %v", path, short(x), short(y))
	}
	return ""
}

func short(v any) string {
	s := fmt.Sprint(v)
	if len(s) > 80 {
		s = s[:80] + "…"
	}
	return s
}

type caseResult struct {
	name                  string
	loadBefore, loadAfter string
	jobs                  []*job
}

type report struct {
	tmp, data             string // shown as $TMP and as -data was given
	start, end            time.Time
	loadBefore, loadAfter string
	a, b                  *binary
	cases                 []*caseResult
}

// show writes a command line without this machine's paths: the binaries as
// hdlgen, the collection as -data was given, the temporary folder as $TMP.
func (r *report) show(args []string) string {
	out := make([]string, len(args))
	for i, a := range args {
		switch {
		case a == r.a.path || a == r.b.path:
			a = "hdlgen"
		case a == r.data:
			a = *flagData
		case strings.HasPrefix(a, r.tmp):
			a = "$TMP" + strings.TrimPrefix(a, r.tmp)
		}
		if wd, err := os.Getwd(); err == nil && strings.HasPrefix(a, wd+"/") {
			a = strings.TrimPrefix(a, wd+"/")
		}
		out[i] = a
	}
	return strings.Join(out, " ")
}

func cpuModel() string {
	raw, _ := os.ReadFile("/proc/cpuinfo")
	for _, line := range strings.Split(string(raw), "\n") {
		if k, v, ok := strings.Cut(line, ":"); ok && strings.TrimSpace(k) == "model name" {
			return strings.TrimSpace(v)
		}
	}
	return "unknown CPU"
}

func (r *report) markdown() string {
	var s strings.Builder
	fmt.Fprintf(&s, "# Whole-command benchmarks\n\n")
	fmt.Fprintf(&s, "Made by `go run scripts/cmdbench.go %s`.\n\n", strings.Join(os.Args[1:], " "))
	fmt.Fprintf(&s, "- A (new): %s; B (base): %s\n", r.a.desc, r.b.desc)
	fmt.Fprintf(&s, "- %s – %s UTC; %d runs per command and binary, alternately A B A B …\n",
		r.start.Format("2006-01-02 15:04"), r.end.Format("15:04"), *flagRuns)
	fmt.Fprintf(&s, "- machine: %d CPUs (%s), %s\n", runtime.NumCPU(), cpuModel(), runtime.Version())
	fmt.Fprintf(&s, "- load average (1, 5, 15 min) before: %s; after: %s\n", r.loadBefore, r.loadAfter)
	fmt.Fprintf(&s, "\nWall and CPU (user + system) seconds are medians over the runs; speed-up is B's median over A's.\n")
	for _, c := range r.cases {
		fmt.Fprintf(&s, "\n## %s\n\nload average before: %s; after: %s\n\n", c.name, c.loadBefore, c.loadAfter)
		s.WriteString("| command | A wall | B wall | speed-up (wall) | A CPU | B CPU | speed-up (CPU) | results |\n")
		s.WriteString("|---|---:|---:|---:|---:|---:|---:|---|\n")
		type sums struct {
			logW, logC             []float64
			sumA, sumB, cpuA, cpuB float64
		}
		groups := map[string]*sums{}
		var order []string
		for _, j := range c.jobs {
			aw, ac := j.median("A", wall), j.median("A", cpu)
			if j.aOnly != "" {
				fmt.Fprintf(&s, "| %s | %.2f s | – | – | %.2f s | – | – | %s |\n", j.name, aw, ac, j.aOnly)
				continue
			}
			bw, bc := j.median("B", wall), j.median("B", cpu)
			same := "identical"
			if j.compare == nil {
				same = "not compared"
			}
			for i := range j.runs["A"] {
				if j.compare == nil {
					break
				}
				for k := range j.runs["B"] {
					if d := j.compare(j.runs["A"][i].out, j.runs["B"][k].out); d != "" {
						same = "DIFFER: " + d
					}
				}
			}
			if j.committed != nil {
				cm := "; equal to the committed counts"
				for _, r := range j.runs["A"] {
					if d := j.committed(r.out); d != "" {
						cm = "; DIFFER: " + d
					}
				}
				same += cm
			}
			fmt.Fprintf(&s, "| %s | %.2f s | %.2f s | %.2f× | %.2f s | %.2f s | %.2f× | %s |\n", j.name, aw, bw, bw/aw, ac, bc, bc/ac, same)
			g := groups[j.group]
			if g == nil {
				g = &sums{}
				groups[j.group] = g
				order = append(order, j.group)
			}
			g.logW = append(g.logW, math.Log(bw/aw))
			g.logC = append(g.logC, math.Log(bc/ac))
			g.sumA, g.sumB, g.cpuA, g.cpuB = g.sumA+aw, g.sumB+bw, g.cpuA+ac, g.cpuB+bc
		}
		for _, name := range order {
			g := groups[name]
			if len(g.logW) < 2 {
				continue
			}
			label := ""
			if name != "" {
				label = ", " + name
			}
			fmt.Fprintf(&s, "| **geometric mean of the %d speed-ups%s** | | | **%.2f×** | | | **%.2f×** | |\n", len(g.logW), label, geo(g.logW), geo(g.logC))
			fmt.Fprintf(&s, "| **total of the medians%s** | %.1f s | %.1f s | %.2f× | %.1f s | %.1f s | %.2f× | |\n", label, g.sumA, g.sumB, g.sumB/g.sumA, g.cpuA, g.cpuB, g.cpuB/g.cpuA)
		}
		if len(c.jobs) > 0 {
			fmt.Fprintf(&s, "\nThe first command line (B spells --workers as --threads where it has no --workers):\n\n    %s\n", r.show(c.jobs[0].args(r.a)[0]))
		}
	}
	return s.String()
}

func geo(logs []float64) float64 {
	t := 0.0
	for _, v := range logs {
		t += v
	}
	return math.Exp(t / float64(len(logs)))
}

func (r *report) tsv() string {
	var s strings.Builder
	s.WriteString("case\tcommand\tbinary\tcommit\trun\twall_s\tcpu_s\n")
	for _, c := range r.cases {
		for _, j := range c.jobs {
			for _, bin := range []*binary{r.a, r.b} {
				for i, x := range j.runs[bin.label] {
					fmt.Fprintf(&s, "%s\t%s\t%s\t%s\t%d\t%.3f\t%.3f\n", c.name, j.name, bin.label, bin.desc, i+1, x.wall, x.cpu)
				}
			}
		}
	}
	return s.String()
}
