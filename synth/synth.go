package synth

import (
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/hdlgen/hdlgen/designdir"
	"github.com/hdlgen/hdlgen/internal/atomicfile"
	"github.com/hdlgen/hdlgen/internal/proc"
	"github.com/hdlgen/hdlgen/model"

	"github.com/hdlgen/hdlgen/rtl/plan"
	"github.com/hdlgen/hdlgen/synth/script"
)

// Paths inside an emitted design directory.
const (
	// ReportFile is the cached report, DIR-relative.
	ReportFile = "build/synth/report.json"
	// NetlistFile is the mapped netlist of the current report (write_json,
	// the top module only), DIR-relative; NetlistSimFile is the same netlist
	// as Verilog for gate-level simulation (script.NetlistSim).
	NetlistFile    = script.NetlistJSON
	NetlistSimFile = script.NetlistSim
	// netlistKeyFile holds the key of the report the netlist files belong to.
	netlistKeyFile = script.WorkDir + "/netlist.key"
	workDir        = script.WorkDir
	statFile       = script.StatFile
	netFile        = script.NetlistJSON
	logFile        = script.LogFile
	// DebianPackage names the package that provides yosys.
	DebianPackage = "yosys"
	// schema versions the cache key: bump it when the script or the report changes.
	schema = "hdlgen-synth-v2"
)

// Runner starts a program: argv[0] with arguments argv[1:], in directory dir,
// and returns its combined output. Tests inject a fake; nil means ExecRunner.
type Runner interface {
	Run(ctx context.Context, dir string, argv []string) ([]byte, error)
}

// ExecRunner runs programs with os/exec.
type ExecRunner struct{}

// Run implements Runner.
func (ExecRunner) Run(ctx context.Context, dir string, argv []string) ([]byte, error) {
	if len(argv) == 0 {
		panic("synth: empty command")
	}
	if _, err := exec.LookPath(argv[0]); err != nil {
		return nil, fmt.Errorf("%w: %s not found in PATH (install the Debian/Ubuntu package %q: apt-get install %s)",
			ErrNoYosys, argv[0], DebianPackage, DebianPackage)
	}
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Dir = dir
	proc.Setup(cmd) // Yosys ends with hdlgen, however hdlgen ends
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	return out.Bytes(), err
}

// ErrNoYosys is returned (wrapped) when the yosys program cannot be found.
var ErrNoYosys = errors.New("synth: yosys is not installed")

// Options control Run.
type Options struct {
	// Yosys is the yosys command ("" means "yosys").
	Yosys string
	// CacheDir is an optional second cache (e.g. ~/.cache/hdlgen/synth) that
	// survives deleting DIR/build; "" means only DIR/build/synth.
	CacheDir string
	// Force ignores cached reports and runs Yosys again.
	Force bool
	// Runner starts programs; nil means ExecRunner.
	Runner Runner
	// Log receives progress lines; nil means none.
	Log io.Writer
}

func (o *Options) norm() {
	if o.Yosys == "" {
		o.Yosys = "yosys"
	}
	if o.Runner == nil {
		o.Runner = ExecRunner{}
	}
	if o.Log == nil {
		o.Log = io.Discard
	}
}

// Design is what Run needs to know about an emitted directory.
type Design struct {
	Dir   string       // absolute
	Top   string       // <prefix>_top
	Plan  *plan.Plan   // design.json
	Model *model.Model // model.json
	// RTLFiles are the files of DIR/rtl that define Top and the modules it
	// instantiates (DIR-relative, sorted): what Yosys reads and the cache key
	// covers. Unused are the other .v files of DIR/rtl (e.g. the AXI4-Stream
	// wrapper's), which would change Yosys's LUT mapping (deps.go).
	RTLFiles []string
	Unused   []string
	MemFiles []string // DIR-relative, sorted
}

// LoadDesign opens the design directory DIR (designdir.Open: model.json and
// design.json read and checked) and lists the RTL files the stream top needs
// and the ROM files.
func LoadDesign(dir string) (*Design, error) {
	dd, err := designdir.Open(dir)
	if err != nil {
		return nil, fmt.Errorf("synth: %w", err)
	}
	abs, pl := dd.Path, dd.Plan
	d := &Design{Dir: abs, Top: pl.Prefix + "_top", Plan: pl, Model: dd.Model}
	all, err := listFiles(abs, "rtl", ".v")
	if err != nil {
		return nil, err
	}
	if len(all) == 0 {
		return nil, fmt.Errorf("synth: no Verilog files in %s/rtl", dir)
	}
	if d.RTLFiles, d.Unused, err = neededFiles(abs, all, d.Top); err != nil {
		return nil, fmt.Errorf("%w (in %s)", err, dir)
	}
	if d.MemFiles, err = listFiles(abs, "mem", ".mem"); err != nil {
		return nil, err
	}
	return d, nil
}

func listFiles(dir, sub, ext string) ([]string, error) {
	entries, err := os.ReadDir(filepath.Join(dir, sub))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("synth: %w", err)
	}
	var out []string
	for _, e := range entries {
		if !e.IsDir() && strings.HasSuffix(e.Name(), ext) {
			out = append(out, sub+"/"+e.Name())
		}
	}
	slices.Sort(out)
	return out, nil
}

// Script is the Yosys script Run executes in DIR for the given top and files
// (script.Script: the emitted Makefile's `make synth` runs the same).
func Script(top string, rtlFiles []string) string { return script.Script(top, rtlFiles) }

// Command is the full command line Run starts in DIR (script.Command).
func Command(yosys, top string, rtlFiles []string) []string {
	return script.Command(yosys, top, rtlFiles)
}

var versions sync.Map // yosys command → version string

// Version returns `yosys -V` (memoised per process and command).
func Version(ctx context.Context, o Options) (string, error) {
	o.norm()
	if v, ok := versions.Load(o.Yosys); ok {
		return v.(string), nil
	}
	out, err := o.Runner.Run(ctx, "", []string{o.Yosys, "-V"})
	if err != nil {
		if errors.Is(err, ErrNoYosys) {
			return "", err
		}
		return "", fmt.Errorf("synth: %s -V: %w\n%s", o.Yosys, err, out)
	}
	v := strings.TrimSpace(string(out))
	if !strings.HasPrefix(v, "Yosys ") {
		return "", fmt.Errorf("synth: %s -V printed %q, not a Yosys version", o.Yosys, v)
	}
	versions.Store(o.Yosys, v)
	return v, nil
}

// Key is the cache key of a design: SHA-256 over the schema, the Yosys version,
// the command and the names and contents of every RTL file Yosys reads and
// every ROM file (files of rtl/ that the top does not use are not part of it).
func Key(d *Design, version string, argv []string) (string, error) {
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%s\x00%s\x00", schema, version, strings.Join(argv[1:], "\x01"))
	for _, name := range append(slices.Clone(d.RTLFiles), d.MemFiles...) {
		b, err := os.ReadFile(filepath.Join(d.Dir, filepath.FromSlash(name)))
		if err != nil {
			return "", fmt.Errorf("synth: %w", err)
		}
		fmt.Fprintf(h, "%s\x00%d\x00", name, len(b))
		h.Write(b)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// Run synthesises the design in dir with Yosys, or returns the cached report
// when the RTL, ROMs, Yosys version and command are unchanged. It writes
// DIR/build/synth/report.json (atomically).
func Run(ctx context.Context, dir string, o Options) (*Report, error) {
	o.norm()
	d, version, argv, key, err := designKey(ctx, dir, o)
	if err != nil {
		return nil, err
	}
	reportPath := filepath.Join(d.Dir, filepath.FromSlash(ReportFile))
	if !o.Force {
		if r := loadCached(reportPath, key); r != nil && ensureNetlist(d.Dir, key, o.CacheDir) {
			r.Cached = true
			fmt.Fprintf(o.Log, "synth: %s: cached report (key %.12s)\n", d.Top, key)
			return r, nil
		}
		if o.CacheDir != "" {
			if r := loadCached(filepath.Join(o.CacheDir, key+".json"), key); r != nil && ensureNetlist(d.Dir, key, o.CacheDir) {
				if err := writeReport(reportPath, r); err != nil {
					return nil, err
				}
				r.Cached = true
				fmt.Fprintf(o.Log, "synth: %s: report from the cache %s\n", d.Top, o.CacheDir)
				return r, nil
			}
		}
	}
	if err := os.MkdirAll(filepath.Join(d.Dir, filepath.FromSlash(workDir)), 0o755); err != nil {
		return nil, fmt.Errorf("synth: %w", err)
	}
	for _, f := range []string{statFile, netFile, NetlistSimFile, netlistKeyFile} {
		os.Remove(filepath.Join(d.Dir, filepath.FromSlash(f)))
	}
	fmt.Fprintf(o.Log, "synth: running Yosys on %s (%d Verilog files%s) …\n", d.Top, len(d.RTLFiles), unusedNote(d.Unused))
	start := time.Now()
	out, err := o.Runner.Run(ctx, d.Dir, argv)
	elapsed := time.Since(start)
	if err != nil {
		if errors.Is(err, ErrNoYosys) || ctx.Err() != nil {
			return nil, errors.Join(err, ctx.Err())
		}
		return nil, fmt.Errorf("synth: yosys failed on %s: %w\n%s(full log: %s)", d.Top, err, tail(out, 20),
			filepath.Join(d.Dir, filepath.FromSlash(logFile)))
	}
	if err := compactNetlist(d); err != nil {
		return nil, err
	}
	r, err := buildReport(d, version, argv, key, elapsed)
	if err != nil {
		return nil, err
	}
	if err := writeReport(reportPath, r); err != nil {
		return nil, err
	}
	if err := atomicfile.WriteFile(filepath.Join(d.Dir, filepath.FromSlash(netlistKeyFile)), []byte(key+"\n"), 0o644); err != nil {
		return nil, fmt.Errorf("synth: %w", err)
	}
	if o.CacheDir != "" {
		if err := os.MkdirAll(o.CacheDir, 0o755); err != nil {
			return nil, fmt.Errorf("synth: cache: %w", err)
		}
		if err := writeReport(filepath.Join(o.CacheDir, key+".json"), r); err != nil {
			return nil, err
		}
		if err := storeNetlist(d.Dir, key, o.CacheDir); err != nil {
			return nil, err
		}
	}
	fmt.Fprintf(o.Log, "synth: %s done in %.1f s\n", d.Top, elapsed.Seconds())
	return r, nil
}

// compactNetlist rewrites DIR's netlist JSON with the top module only.
func compactNetlist(d *Design) error {
	p := filepath.Join(d.Dir, filepath.FromSlash(netFile))
	b, err := os.ReadFile(p)
	if err != nil {
		return fmt.Errorf("synth: yosys wrote no netlist: %w", err)
	}
	c, err := CompactNetlist(b, d.Top)
	if err != nil {
		return err
	}
	if err := atomicfile.WriteFile(p, c, 0o644); err != nil {
		return fmt.Errorf("synth: %w", err)
	}
	return nil
}

// The netlist files and their names in the user cache (gzip-compressed).
var netlistFiles = []struct{ inDir, cacheSuffix string }{
	{NetlistFile, ".netlist.json.gz"},
	{NetlistSimFile, ".netlist_sim.v.gz"},
}

// netlistCurrent reports whether DIR holds the netlist files of key.
func netlistCurrent(dir, key string) bool {
	b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(netlistKeyFile)))
	if err != nil || strings.TrimSpace(string(b)) != key {
		return false
	}
	for _, f := range netlistFiles {
		if !exists(filepath.Join(dir, filepath.FromSlash(f.inDir))) {
			return false
		}
	}
	return true
}

// ensureNetlist makes DIR hold the netlist files of key, restoring them from
// cacheDir when needed; it reports whether they are there.
func ensureNetlist(dir, key, cacheDir string) bool {
	if netlistCurrent(dir, key) {
		return true
	}
	if cacheDir == "" {
		return false
	}
	for _, f := range netlistFiles {
		b, err := readGzip(filepath.Join(cacheDir, key+f.cacheSuffix))
		if err != nil {
			return false
		}
		p := filepath.Join(dir, filepath.FromSlash(f.inDir))
		if os.MkdirAll(filepath.Dir(p), 0o755) != nil || atomicfile.WriteFile(p, b, 0o644) != nil {
			return false
		}
	}
	return atomicfile.WriteFile(filepath.Join(dir, filepath.FromSlash(netlistKeyFile)), []byte(key+"\n"), 0o644) == nil
}

// storeNetlist copies DIR's netlist files into cacheDir, compressed.
func storeNetlist(dir, key, cacheDir string) error {
	for _, f := range netlistFiles {
		b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(f.inDir)))
		if err != nil {
			return fmt.Errorf("synth: %w", err)
		}
		var z bytes.Buffer
		zw := gzip.NewWriter(&z)
		if _, err := zw.Write(b); err != nil {
			return fmt.Errorf("synth: cache: %w", err)
		}
		if err := zw.Close(); err != nil {
			return fmt.Errorf("synth: cache: %w", err)
		}
		if err := atomicfile.WriteFile(filepath.Join(cacheDir, key+f.cacheSuffix), z.Bytes(), 0o644); err != nil {
			return fmt.Errorf("synth: cache: %w", err)
		}
	}
	return nil
}

func readGzip(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		return nil, err
	}
	return io.ReadAll(zr)
}

func exists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

// Cached returns the cached report of dir if it is present and current
// (computing the key asks `yosys -V` once), or nil.
func Cached(ctx context.Context, dir string, o Options) (*Report, error) {
	o.norm()
	d, _, _, key, err := designKey(ctx, dir, o)
	if err != nil {
		return nil, err
	}
	if r := loadCached(filepath.Join(d.Dir, filepath.FromSlash(ReportFile)), key); r != nil {
		ensureNetlist(d.Dir, key, o.CacheDir) // best effort: timing needs it
		r.Cached = true
		return r, nil
	}
	if o.CacheDir != "" {
		if r := loadCached(filepath.Join(o.CacheDir, key+".json"), key); r != nil {
			ensureNetlist(d.Dir, key, o.CacheDir)
			r.Cached = true
			return r, nil
		}
	}
	return nil, nil
}

// designKey loads the design in dir and returns it with the Yosys version,
// the Yosys command line and the cache key they give.
func designKey(ctx context.Context, dir string, o Options) (d *Design, version string, argv []string, key string, err error) {
	if d, err = LoadDesign(dir); err != nil {
		return nil, "", nil, "", err
	}
	if version, err = Version(ctx, o); err != nil {
		return nil, "", nil, "", err
	}
	argv = Command(o.Yosys, d.Top, d.RTLFiles)
	if key, err = Key(d, version, argv); err != nil {
		return nil, "", nil, "", err
	}
	return d, version, argv, key, nil
}

func loadCached(path, key string) *Report {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	var r Report
	if json.Unmarshal(b, &r) != nil || r.Key != key {
		return nil
	}
	return &r
}

func writeReport(path string, r *Report) error {
	b, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return fmt.Errorf("synth: encode report: %w", err)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("synth: %w", err)
	}
	if err := atomicfile.WriteFile(path, append(b, '\n'), 0o644); err != nil {
		return fmt.Errorf("synth: %w", err)
	}
	return nil
}

func tail(b []byte, n int) string {
	lines := strings.Split(strings.TrimRight(string(b), "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	s := strings.Join(lines, "\n")
	if s != "" {
		s += "\n"
	}
	return s
}

func buildReport(d *Design, version string, argv []string, key string, elapsed time.Duration) (*Report, error) {
	statB, err := os.ReadFile(filepath.Join(d.Dir, filepath.FromSlash(statFile)))
	if err != nil {
		return nil, fmt.Errorf("synth: yosys wrote no statistics: %w", err)
	}
	r, err := ParseStat(statB)
	if err != nil {
		return nil, err
	}
	r.Top, r.Yosys, r.Key = d.Top, version, key
	r.Command = shellJoin(argv)
	r.Seconds = elapsed.Seconds()
	if logB, err := os.ReadFile(filepath.Join(d.Dir, filepath.FromSlash(logFile))); err == nil {
		r.ROMs = ParseMemoryLog(logB, d.Plan)
	}
	nf, err := os.Open(filepath.Join(d.Dir, filepath.FromSlash(netFile)))
	if err != nil {
		r.DepthNote = "no netlist JSON: " + err.Error()
	} else {
		defer nf.Close()
		nl, err := ParseNetlist(nf, d.Top)
		if err != nil {
			r.DepthNote = err.Error()
		} else {
			r.LogicDepth, r.DepthNote = nl.Depth, nl.Note
			for i := range r.ROMs {
				r.ROMs[i].BRAMCells = nl.BRAMCells[r.ROMs[i].Role]
			}
		}
	}
	return r, nil
}

// unusedNote names the files of rtl/ that Yosys does not read.
func unusedNote(unused []string) string {
	if len(unused) == 0 {
		return ""
	}
	return "; not read, unused by the top: " + strings.Join(unused, " ")
}

func shellJoin(argv []string) string {
	var parts []string
	for _, a := range argv {
		if a == "" || strings.ContainsAny(a, " ;'\"$\\*?") {
			a = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
		}
		parts = append(parts, a)
	}
	return strings.Join(parts, " ")
}
