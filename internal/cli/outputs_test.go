package cli

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// unguardedPaths are the path flags that are deliberately neither an input
// nor an output of the guard, with the reason.
var unguardedPaths = map[string]string{
	// The shard folders' job records are copied into --out, which may be
	// one of them (docs/cluster.md: --merge OUT): the job store only adds
	// records, it never replaces one with different content.
	"reproduce --merge": "job stores, merged into --out",
}

// pathLike reports whether a flag names a file or folder.
var pathLike = regexp.MustCompile(`(?i)\b(file|folder|directory|dir|path)\b|\.json\b|\.csv\b|\.tsv\b`)

// walk calls fn for every command of the tree.
func walk(c *cobra.Command, fn func(*cobra.Command)) {
	fn(c)
	for _, sub := range c.Commands() {
		walk(sub, fn)
	}
}

// TestEveryPathFlagIsDeclared walks the command tree: every flag that names
// a file or folder is declared as an input or an output of the command's
// guard (outputs.go), or listed in unguardedPaths with its reason; every
// command that writes something declares where.
func TestEveryPathFlagIsDeclared(t *testing.T) {
	root := NewRootCmd(&App{Out: &bytes.Buffer{}, Err: &bytes.Buffer{}})
	walk(root, func(c *cobra.Command) {
		if c.Name() == "help" || c.Name() == "completion" || c.Hidden {
			return
		}
		all := pflag.NewFlagSet(c.Name(), pflag.ContinueOnError)
		all.AddFlagSet(c.Flags())
		all.AddFlagSet(c.InheritedFlags())
		all.AddFlagSet(c.PersistentFlags())
		all.VisitAll(func(f *pflag.Flag) {
			if _, alias := f.Value.(aliasValue); alias {
				return
			}
			key := strings.TrimPrefix(c.CommandPath(), "hdlgen ") + " --" + f.Name
			declared := len(f.Annotations[annInput]) > 0 || len(f.Annotations[annOutput]) > 0
			if _, ok := unguardedPaths[key]; ok {
				if declared {
					t.Errorf("%s is declared and listed in unguardedPaths", key)
				}
				return
			}
			if f.Value.Type() == "string" && pathLike.MatchString(f.Usage) && !declared && !notAPath[key] {
				t.Errorf("%s (%q) looks like a path and is neither an input nor an output of the guard", key, f.Usage)
			}
		})
	})
}

// notAPath are flags whose help mentions a file or folder but whose value is
// no path (a name, a count, a choice).
var notAPath = map[string]bool{
	"train --dataset": true, "eval --dataset": true, "search --dataset": true, "quantize --dataset": true,
	"emit --dataset": true, "eval --test-norm": true, "reproduce --test-norm": true, "search --test-norm": true,
}

// TestNoCommandWritesAroundTheGuard reads the package's source: no command
// writes a file but through the guard (App.writeFile in outputs.go).
func TestNoCommandWritesAroundTheGuard(t *testing.T) {
	forbidden := map[string]bool{
		"os.WriteFile": true, "os.Create": true, "os.OpenFile": true, "atomicfile.WriteFile": true,
		"model.WriteFile": true, "ioutil.WriteFile": true,
	}
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") || name == "outputs.go" {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			sel, ok := n.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			if x, ok := sel.X.(*ast.Ident); ok && forbidden[x.Name+"."+sel.Sel.Name] {
				t.Errorf("%s: %s.%s writes around the guard: use app.writeFile", fset.Position(sel.Pos()), x.Name, sel.Sel.Name)
			}
			if sel.Sel.Name == "WriteFile" && !isAppWrite(sel) {
				t.Errorf("%s: a WriteFile method writes around the guard: use app.writeFile", fset.Position(sel.Pos()))
			}
			return true
		})
	}
}

func isAppWrite(sel *ast.SelectorExpr) bool {
	x, ok := sel.X.(*ast.SelectorExpr)
	return ok && x.Sel.Name == "guard"
}

// guardCase is one command run whose output would destroy one of its inputs.
type guardCase struct {
	name string
	args []string
	// keep are the workspace files that must come out unchanged.
	keep []string
}

// TestEveryOutputIsGuarded runs, for every command that reads and writes
// paths, invocations whose output is one of the inputs (the same file, a link
// to it, a file inside an input folder, a folder holding an input): each must
// exit 2 with a message naming both, and leave the inputs as they were.
// A command with declared inputs and outputs but no case here fails the test.
func TestEveryOutputIsGuarded(t *testing.T) {
	w := newGuardWorkspace(t)
	cases := []guardCase{
		{"train", []string{"train", "--data", "iris.csv", "--n", "10", "-o", "iris.csv"}, []string{"iris.csv"}},
		{"train", []string{"train", "--data", "iris.csv", "--test", "test.csv", "--n", "10", "-o", "test.csv"}, []string{"test.csv"}},
		{"train", []string{"train", "--data", "link.csv", "--n", "10", "-o", "iris.csv"}, []string{"iris.csv"}},
		{"quantize", []string{"quantize", "m.json", "--bits", "4", "-o", "m.json"}, []string{"m.json"}},
		{"quantize", []string{"quantize", "m.json", "--bits", "4", "-o", "mlink.json"}, []string{"m.json"}},
		{"eval", []string{"eval", "--data", "iris.csv", "--n", "10", "-o", "iris.csv"}, []string{"iris.csv"}},
		{"eval", []string{"eval", "--data", "iris.csv", "--test", "test.csv", "--n", "10", "-o", "test.csv"}, []string{"test.csv"}},
		{"search", []string{"search", "--data", "iris.csv", "--grid", "small", "-o", "iris.csv"}, []string{"iris.csv"}},
		{"search", []string{"search", "--data", "iris.csv", "--test", "test.csv", "--grid", "small", "-o", "test.csv"}, []string{"test.csv"}},
		{"emit", []string{"emit", "m.json", "-o", "."}, []string{"m.json"}},
		{"emit", []string{"emit", "m.json", "--data", "sub/iris.csv", "-o", "sub"}, []string{"sub/iris.csv"}},
		{"weights", []string{"weights", "r.json", "--design", "sys", "-o", "r.json"}, []string{"r.json"}},
		{"weights", []string{"weights", "r.json", "--design", "sys", "-o", "rlink.json"}, []string{"r.json"}},
		{"weights", []string{"weights", "r.json", "--design", "sys", "-o", "sys/model.json"}, []string{"sys/model.json"}},
		{"build", []string{"build", "--data", "sub/iris.csv", "-o", "sub"}, []string{"sub/iris.csv"}},
		{"reproduce", []string{"reproduce", "--data", "coll", "--datasets", "toy", "-o", "coll/out"}, []string{"coll/toy/toy_R.dat"}},
		{"reproduce", []string{"reproduce", "--data", "coll", "--hyperparameters", "h.tsv", "-o", "."}, []string{"h.tsv"}},
		{"verify", []string{"verify", "sys", "--synth-cache", "sys/cache"}, []string{"sys/model.json"}},
		{"synth", []string{"synth", "sys", "--cache", "sys"}, []string{"sys/model.json"}},
		{"power median-table", []string{"power", "median-table", "--data", "coll", "-o", "coll"}, []string{"coll/toy/toy_R.dat"}},
		{"power median-table", []string{"power", "median-table", "--data", "coll", "-o", "out", "--work", "coll/work"}, []string{"coll/toy/toy_R.dat"}},
		{"power calibrate", []string{"power", "calibrate", "--data", "coll", "-o", "coll/out"}, []string{"coll/toy/toy_R.dat"}},
		{"predict", []string{"predict", "m.json", "--data", "iris.csv", "--cpuprofile", "iris.csv"}, []string{"iris.csv"}},
		{"sim", []string{"sim", "m.json", "--data", "iris.csv", "--cpuprofile", "m.json"}, []string{"m.json"}},
		{"size", []string{"size", "--budget", "1uJ", "--model", "m.json", "--cpuprofile", "m.json"}, []string{"m.json"}},
		{"search merge", []string{"search", "merge", "m.json", "--cpuprofile", "m.json"}, []string{"m.json"}},
		{"power", []string{"power", "m.json", "--cpuprofile", "m.json"}, []string{"m.json"}},
	}
	covered := map[string]bool{}
	for _, tc := range cases {
		covered[tc.name] = true
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			before := w.hashes(tc.keep)
			code, _, errs := w.run(tc.args...)
			if code != exitUsage || !regexp.MustCompile(`is the same file as|lies inside the input folder|holds the input`).MatchString(errs) {
				t.Errorf("exit %d, stderr %q; want exit %d and the guard's refusal", code, errs, exitUsage)
			}
			if after := w.hashes(tc.keep); !slices.Equal(before, after) {
				t.Errorf("an input changed: %v", tc.keep)
			}
		})
	}
	// Every command with declared inputs (arguments or flags) and outputs
	// (its own or the global --cpuprofile) has a case.
	root := NewRootCmd(&App{Out: &bytes.Buffer{}, Err: &bytes.Buffer{}})
	walk(root, func(c *cobra.Command) {
		if c == root || c.Name() == "help" || c.Name() == "completion" || c.RunE == nil {
			return
		}
		inputs := c.Annotations[annArgs] != ""
		c.Flags().VisitAll(func(f *pflag.Flag) { inputs = inputs || len(f.Annotations[annInput]) > 0 })
		name := strings.TrimPrefix(c.CommandPath(), "hdlgen ")
		if inputs && !covered[name] {
			t.Errorf("%s reads paths, and no case of TestEveryOutputIsGuarded points one of its outputs at them", name)
		}
	})
}

// guardWorkspace is a folder with the inputs the guard cases need.
type guardWorkspace struct {
	t   *testing.T
	dir string
}

func newGuardWorkspace(t *testing.T) guardWorkspace {
	t.Helper()
	iris, err := os.ReadFile("../../examples/iris.csv")
	if err != nil {
		t.Fatal(err)
	}
	w := guardWorkspace{t: t, dir: t.TempDir()}
	t.Chdir(w.dir)
	w.write("iris.csv", iris)
	w.write("test.csv", iris)
	w.write("sub/iris.csv", iris)
	w.write("h.tsv", []byte("dataset\tn\tlambda\tkappa\ntoy\t10\t1\t3\n"))
	w.write("coll/toy/toy_R.dat", []byte("\tf1\tf2\tclase\n1\t0.1\t0.2\t0\n2\t0.3\t0.1\t1\n"))
	for _, l := range [][2]string{{"iris.csv", "link.csv"}, {"m.json", "mlink.json"}, {"r.json", "rlink.json"}} {
		if err := os.Symlink(l[0], filepath.Join(w.dir, l[1])); err != nil {
			t.Fatal(err)
		}
	}
	w.mustRun("train", "--data", "iris.csv", "--n", "12", "--bits", "5", "-o", "m.json")
	w.mustRun("emit", "m.json", "--system", "zynq", "--reloadable-readout", "--vectors", "4", "-o", "sys")
	w.mustRun("quantize", "m.json", "--bits", "4", "-o", "r.json")
	return w
}

func (w guardWorkspace) write(name string, b []byte) {
	p := filepath.Join(w.dir, name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		w.t.Fatal(err)
	}
	if err := os.WriteFile(p, b, 0o644); err != nil {
		w.t.Fatal(err)
	}
}

// run runs hdlgen (the test has changed into the workspace folder).
func (w guardWorkspace) run(args ...string) (int, string, string) {
	w.t.Helper()
	return run(w.t, args...)
}

func (w guardWorkspace) mustRun(args ...string) {
	w.t.Helper()
	if code, _, errs := w.run(args...); code != 0 {
		w.t.Fatalf("%v: exit %d: %s", args, code, errs)
	}
}

// hashes returns the SHA-256 of each file.
func (w guardWorkspace) hashes(names []string) []string {
	out := make([]string, len(names))
	for i, n := range names {
		b, err := os.ReadFile(filepath.Join(w.dir, n))
		if err != nil {
			out[i] = "missing: " + err.Error()
			continue
		}
		out[i] = fmt.Sprintf("%x", sha256.Sum256(b))
	}
	return out
}
