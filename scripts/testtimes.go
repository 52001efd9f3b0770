//go:build ignore

// Testtimes measures a run of the test suite as the Makefile runs it: the
// wall time of every package and test (from `go test -json`), the CPU time
// of every package's test binary with everything it started (Verilator, g++,
// Icarus, Yosys …; the rusage of the reaped process tree), and the run's own
// wall and CPU time. It writes the raw events and a markdown report, and can
// put the report into a marked section of a document:
//
//	go run scripts/testtimes.go -target test -label after -doc docs/testing.md
//	go run scripts/testtimes.go -target check -label check -doc docs/testing.md
//
// -target is a Makefile target that runs `go test` with $(GOTESTFLAGS) (test: the
// README's command, two packages at a time; check: the -short tier; test-all
// alone runs one package at a time, which is not what users wait for). The
// script passes GOTESTFLAGS="-json -exec=SELF" and SELF, started by go test
// in a package's folder with the test binary as its argument, runs the binary
// and appends the package's times to a log.
//
// Output: results/tests/LABEL.json (events) and results/tests/LABEL.md (the
// report); with -doc, the report also replaces the lines between
// "<!-- testtimes:LABEL -->" and "<!-- /testtimes:LABEL -->" in that file.
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"syscall"
	"time"
)

const logEnv = "TESTTIMES_EXEC_LOG"

// execRecord is what the exec wrapper logs for one test binary.
type execRecord struct {
	Dir     string  `json:"dir"`
	WallS   float64 `json:"wall_s"`
	UserS   float64 `json:"user_s"`
	SysS    float64 `json:"sys_s"`
	MaxRSSK int64   `json:"max_rss_kib"`
}

func main() {
	if log := os.Getenv(logEnv); log != "" && len(os.Args) > 1 && strings.HasSuffix(os.Args[1], ".test") {
		os.Exit(wrap(log, os.Args[1], os.Args[2:]))
	}
	target := flag.String("target", "test-all", "Makefile target to run (it must pass $(GOTESTFLAGS) to go test)")
	label := flag.String("label", "run", "name of this measurement (file names and the document's section)")
	doc := flag.String("doc", "", "document whose <!-- testtimes:LABEL --> section receives the report")
	outDir := flag.String("out", "results/tests", "folder for LABEL.json and LABEL.md")
	top := flag.Int("top", 20, "number of slowest tests to list")
	report := flag.String("report", "", "only rewrite the report from an existing LABEL.json (no run)")
	flag.Parse()
	if err := run(*target, *label, *doc, *outDir, *top, *report); err != nil {
		fmt.Fprintln(os.Stderr, "testtimes:", err)
		os.Exit(1)
	}
}

// wrap runs one test binary, forwarding signals, and logs its times.
func wrap(log, bin string, args []string) int {
	cmd := exec.Command(bin, args...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
	start := time.Now()
	if err := cmd.Start(); err != nil {
		fmt.Fprintln(os.Stderr, "testtimes:", err)
		return 1
	}
	go func() {
		for s := range sig {
			_ = cmd.Process.Signal(s)
		}
	}()
	err := cmd.Wait()
	wall := time.Since(start)
	code := 0
	if err != nil {
		code = 1
		if ee, ok := err.(*exec.ExitError); ok && ee.ExitCode() > 0 {
			code = ee.ExitCode()
		}
	}
	dir, _ := os.Getwd()
	rec := execRecord{Dir: dir, WallS: wall.Seconds()}
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		rec.UserS = tv(ru.Utime)
		rec.SysS = tv(ru.Stime)
		rec.MaxRSSK = ru.Maxrss
	}
	b, _ := json.Marshal(rec)
	if f, err := os.OpenFile(log, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644); err == nil {
		_, _ = f.Write(append(b, '\n'))
		_ = f.Close()
	}
	return code
}

func tv(t syscall.Timeval) float64 { return float64(t.Sec) + float64(t.Usec)/1e6 }

// event is one line of go test -json.
type event struct {
	Time    time.Time
	Action  string
	Package string
	Test    string
	Elapsed float64
}

// header is the first line of LABEL.json: the run's own measurements.
type header struct {
	Target    string    `json:"target"`
	Commit    string    `json:"commit"`
	Date      time.Time `json:"date"`
	CPUs      int       `json:"cpus"`
	LoadStart string    `json:"load_before"`
	LoadEnd   string    `json:"load_after"`
	WallS     float64   `json:"wall_s"`
	UserS     float64   `json:"user_s"`
	SysS      float64   `json:"sys_s"`
	ExitCode  int       `json:"exit_code"`
	Root      string    `json:"root,omitempty"` // the checkout the packages' folders are in
}

func run(target, label, doc, outDir string, top int, reportOnly string) error {
	if err := os.MkdirAll(outDir, 0o755); err != nil {
		return err
	}
	jsonPath := filepath.Join(outDir, label+".json")
	if reportOnly != "" {
		jsonPath = reportOnly
	} else if err := measure(target, jsonPath); err != nil {
		return err
	}
	h, events, execs, err := readRun(jsonPath)
	if err != nil {
		return err
	}
	md := render(label, h, events, execs, top)
	if err := os.WriteFile(filepath.Join(outDir, label+".md"), []byte(md), 0o644); err != nil {
		return err
	}
	if doc != "" {
		return replaceSection(doc, label, md)
	}
	fmt.Print(md)
	return nil
}

// measure runs make TARGET and writes the header, the exec records and the
// events to path.
func measure(target, path string) error {
	self, err := os.Executable()
	if err != nil {
		return err
	}
	log, err := os.CreateTemp("", "testtimes-exec-*.log")
	if err != nil {
		return err
	}
	log.Close()
	defer os.Remove(log.Name())
	commit, _ := exec.Command("git", "rev-parse", "--short=12", "HEAD").Output()
	root, _ := os.Getwd()
	// Folders are recorded relative to the checkout (Root "."), so that the
	// committed events name no folder of the machine they ran on.
	h := header{Target: target, Commit: strings.TrimSpace(string(commit)), Date: time.Now().UTC(),
		CPUs: runtime.NumCPU(), LoadStart: loadavg(), Root: "."}
	var events bytes.Buffer
	cmd := exec.Command("make", "-k", "--no-print-directory", target, "GOTESTFLAGS=-json -exec="+self)
	cmd.Env = append(os.Environ(), logEnv+"="+log.Name())
	cmd.Stdout = &events
	cmd.Stderr = os.Stderr
	start := time.Now()
	fmt.Fprintf(os.Stderr, "testtimes: make %s (events to %s)\n", target, path)
	runErr := cmd.Run()
	h.WallS = time.Since(start).Seconds()
	h.LoadEnd = loadavg()
	if cmd.ProcessState == nil {
		return runErr
	}
	h.ExitCode = cmd.ProcessState.ExitCode()
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		h.UserS, h.SysS = tv(ru.Utime), tv(ru.Stime)
	}
	var out bytes.Buffer
	hb, _ := json.Marshal(h)
	out.Write(append(hb, '\n'))
	execLog, err := os.ReadFile(log.Name())
	if err != nil {
		return err
	}
	for _, line := range strings.Split(strings.TrimSpace(string(execLog)), "\n") {
		if line == "" {
			continue
		}
		var r execRecord
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			return fmt.Errorf("exec log: %w", err)
		}
		if rel, err := filepath.Rel(root, r.Dir); err == nil {
			r.Dir = rel
		}
		b, _ := json.Marshal(r)
		out.WriteString(`{"exec":` + string(b) + "}\n")
	}
	// Keep the JSON events that end a test or a package (make may print
	// other text; the tests' output lines are not needed for the report).
	sc := bufio.NewScanner(&events)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		line := sc.Bytes()
		if len(line) > 0 && line[0] == '{' && !bytes.Contains(line, []byte(`"Action":"output"`)) &&
			!bytes.Contains(line, []byte(`"Action":"run"`)) && !bytes.Contains(line, []byte(`"Action":"pause"`)) &&
			!bytes.Contains(line, []byte(`"Action":"cont"`)) && !bytes.Contains(line, []byte(`"Action":"start"`)) {
			out.Write(line)
			out.WriteByte('\n')
		}
	}
	if err := os.WriteFile(path, out.Bytes(), 0o644); err != nil {
		return err
	}
	if runErr != nil {
		fmt.Fprintf(os.Stderr, "testtimes: make %s failed (%v); the report still lists what ran\n", target, runErr)
	}
	return nil
}

func loadavg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "?"
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return "?"
	}
	return strings.Join(f[:3], " ")
}

func readRun(path string) (header, []event, map[string]execRecord, error) {
	var h header
	b, err := os.ReadFile(path)
	if err != nil {
		return h, nil, nil, err
	}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	if len(lines) == 0 {
		return h, nil, nil, fmt.Errorf("%s: empty", path)
	}
	if err := json.Unmarshal([]byte(lines[0]), &h); err != nil {
		return h, nil, nil, fmt.Errorf("%s:1: %w", path, err)
	}
	execs := map[string]execRecord{}
	var events []event
	for i, line := range lines[1:] {
		if strings.HasPrefix(line, `{"exec":`) {
			var w struct{ Exec execRecord }
			if err := json.Unmarshal([]byte(line), &w); err != nil {
				return h, nil, nil, fmt.Errorf("%s:%d: %w", path, i+2, err)
			}
			r := execs[w.Exec.Dir]
			r.Dir = w.Exec.Dir
			r.WallS += w.Exec.WallS
			r.UserS += w.Exec.UserS
			r.SysS += w.Exec.SysS
			r.MaxRSSK = max(r.MaxRSSK, w.Exec.MaxRSSK)
			execs[w.Exec.Dir] = r
			continue
		}
		var e event
		if err := json.Unmarshal([]byte(line), &e); err != nil {
			continue // a line of another tool's output
		}
		events = append(events, e)
	}
	return h, events, execs, nil
}

const module = "github.com/hdlgen/hdlgen"

func short(pkg string) string {
	if pkg == module {
		return "."
	}
	return strings.TrimPrefix(pkg, module+"/")
}

func render(label string, h header, events []event, execs map[string]execRecord, top int) string {
	type pkgRow struct {
		name         string
		wall, cpu    float64
		rss          int64
		result       string
		tests, skips int
	}
	pkgs := map[string]*pkgRow{}
	type testRow struct {
		name    string
		elapsed float64
		result  string
	}
	var tests, subtests []testRow
	for _, e := range events {
		if e.Package == "" {
			continue
		}
		p := pkgs[e.Package]
		if p == nil {
			p = &pkgRow{name: short(e.Package)}
			pkgs[e.Package] = p
		}
		switch e.Action {
		case "pass", "fail", "skip":
		default:
			continue
		}
		if e.Test == "" {
			p.wall = e.Elapsed
			p.result = e.Action
			continue
		}
		if e.Action == "skip" {
			p.skips++
		} else if !strings.Contains(e.Test, "/") {
			p.tests++
		}
		r := testRow{name: short(e.Package) + "." + e.Test, elapsed: e.Elapsed, result: e.Action}
		if strings.Contains(e.Test, "/") {
			subtests = append(subtests, r)
		} else if e.Action != "skip" {
			tests = append(tests, r)
		}
	}
	// CPU per package: the exec record of the package's folder, relative to
	// the checkout (recorded, or the folders' common prefix in older runs).
	root := h.Root
	if root == "" {
		for dir := range execs {
			if root == "" || !strings.HasPrefix(dir, root+"/") {
				root = commonDir(root, dir)
			}
		}
	}
	for _, p := range pkgs {
		for dir, r := range execs {
			rel := strings.TrimPrefix(strings.TrimPrefix(dir, root), "/")
			if rel == "" {
				rel = "."
			}
			if rel == p.name {
				p.cpu = r.UserS + r.SysS
				p.rss = r.MaxRSSK
			}
		}
	}
	var rows []*pkgRow
	var sumCPU float64
	for _, p := range pkgs {
		if p.result == "" {
			p.result = "did not finish"
		}
		rows = append(rows, p)
		sumCPU += p.cpu
	}
	sort.Slice(rows, func(i, j int) bool {
		if rows[i].cpu != rows[j].cpu {
			return rows[i].cpu > rows[j].cpu
		}
		return rows[i].name < rows[j].name
	})
	byElapsed := func(r []testRow) {
		sort.Slice(r, func(i, j int) bool {
			if r[i].elapsed != r[j].elapsed {
				return r[i].elapsed > r[j].elapsed
			}
			return r[i].name < r[j].name
		})
	}
	byElapsed(tests)
	byElapsed(subtests)

	var b strings.Builder
	fmt.Fprintf(&b, "<!-- testtimes:%s -->\n", label)
	fmt.Fprintf(&b, "Measured by `go run scripts/testtimes.go -target %s -label %s` at commit %s on %s, %d CPUs; load average %s before, %s after.\n\n",
		h.Target, label, h.Commit, h.Date.Format("2006-01-02 15:04 UTC"), h.CPUs, h.LoadStart, h.LoadEnd)
	status := "passed"
	if h.ExitCode != 0 {
		status = fmt.Sprintf("failed (exit %d)", h.ExitCode)
	}
	fmt.Fprintf(&b, "`make %s` %s: **%s wall, %.0f s CPU** (user + sys of everything it ran, builds included); the test binaries' CPU: %.0f s.\n\n",
		h.Target, status, clock(h.WallS), h.UserS+h.SysS, sumCPU)
	fmt.Fprintf(&b, "| package | result | wall | CPU (test binary and its tools) | max RSS | tests run | skipped |\n| --- | --- | ---: | ---: | ---: | ---: | ---: |\n")
	for _, p := range rows {
		fmt.Fprintf(&b, "| %s | %s | %.1f s | %.1f s | %d MiB | %d | %d |\n", p.name, p.result, p.wall, p.cpu, p.rss/1024, p.tests, p.skips)
	}
	fmt.Fprintf(&b, "\nThe %d slowest top-level tests (wall, parallel subtests included):\n\n| test | result | wall |\n| --- | --- | ---: |\n", top)
	for i, r := range tests {
		if i == top {
			break
		}
		fmt.Fprintf(&b, "| %s | %s | %.1f s |\n", r.name, r.result, r.elapsed)
	}
	fmt.Fprintf(&b, "\nThe %d slowest subtests:\n\n| subtest | result | wall |\n| --- | --- | ---: |\n", top)
	for i, r := range subtests {
		if i == top {
			break
		}
		fmt.Fprintf(&b, "| %s | %s | %.1f s |\n", r.name, r.result, r.elapsed)
	}
	fmt.Fprintf(&b, "<!-- /testtimes:%s -->\n", label)
	return b.String()
}

// commonDir is the longest common folder of a and b ("" when a is "").
func commonDir(a, b string) string {
	if a == "" {
		return filepath.Dir(b)
	}
	for !strings.HasPrefix(b+"/", a+"/") && a != "/" && a != "." {
		a = filepath.Dir(a)
	}
	return a
}

func clock(s float64) string {
	d := time.Duration(s * float64(time.Second)).Round(time.Second)
	return fmt.Sprintf("%d min %02d s", int(d.Minutes()), int(d.Seconds())%60)
}

// replaceSection replaces the section of doc marked for label with md, or
// appends md when the document has no such section.
func replaceSection(doc, label, md string) error {
	b, err := os.ReadFile(doc)
	if err != nil {
		return err
	}
	open, end := fmt.Sprintf("<!-- testtimes:%s -->", label), fmt.Sprintf("<!-- /testtimes:%s -->", label)
	s := string(b)
	i := strings.Index(s, open)
	j := strings.Index(s, end)
	if i < 0 || j < i {
		s = strings.TrimRight(s, "\n") + "\n\n" + md
	} else {
		s = s[:i] + md + strings.TrimPrefix(s[j+len(end):], "\n")
	}
	return os.WriteFile(doc, []byte(s), 0o644)
}
