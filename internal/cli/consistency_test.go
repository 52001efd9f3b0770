package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/hdlgen/hdlgen/model"
	"github.com/hdlgen/hdlgen/power"
)

// walkCommands calls fn for c and every command below it.
func walkCommands(c *cobra.Command, fn func(*cobra.Command)) {
	fn(c)
	for _, s := range c.Commands() {
		walkCommands(s, fn)
	}
}

// commandTree is the hdlgen command tree as Main builds it.
func commandTree() *cobra.Command {
	return NewRootCmd(&App{Out: &bytes.Buffer{}, Err: &bytes.Buffer{}})
}

// TestEveryCommandHasExample walks the whole command tree: every runnable
// command and subcommand has an Example in its help.
func TestEveryCommandHasExample(t *testing.T) {
	n := 0
	walkCommands(commandTree(), func(c *cobra.Command) {
		if !c.Runnable() || c.Hidden || !c.HasParent() { // the root runs only to show its help
			return
		}
		n++
		if strings.TrimSpace(c.Example) == "" {
			t.Errorf("%q has no Example", c.CommandPath())
			return
		}
		code, out, errs := run(t, append(strings.Fields(c.CommandPath())[1:], "--help")...)
		if code != 0 || !strings.Contains(out, "Examples:") {
			t.Errorf("%s --help: exit %d, no Examples section: %q %q", c.CommandPath(), code, out, errs)
		}
	})
	if n < 16 {
		t.Errorf("walked %d runnable commands; the tree has at least 16", n)
	}
}

// readmeCommands parses README.md's command table (the first table under
// "## Commands") and returns the commands of its first column.
func readmeCommands(readme string) []string {
	_, rest, ok := strings.Cut(readme, "\n## Commands\n")
	if !ok {
		return nil
	}
	cell := regexp.MustCompile("^\\| `(hdlgen[^`]*)` \\|")
	var cmds []string
	inTable := false
	for _, line := range strings.Split(rest, "\n") {
		if !strings.HasPrefix(line, "|") {
			if inTable {
				break
			}
			continue
		}
		inTable = true
		if m := cell.FindStringSubmatch(line); m != nil {
			cmds = append(cmds, m[1])
		}
	}
	return cmds
}

func TestReadmeCommandsParser(t *testing.T) {
	tests := []struct {
		readme string
		want   []string
	}{
		{"x\n## Commands\n\n| command | what |\n| --- | --- |\n| `hdlgen a` | A |\n| `hdlgen a b` | B |\n\n| `hdlgen c` | after the table |\n", []string{"hdlgen a", "hdlgen a b"}},
		{"no table here\n", nil},
	}
	for _, tc := range tests {
		if diff := cmp.Diff(tc.want, readmeCommands(tc.readme)); diff != "" {
			t.Errorf("readmeCommands(%q) (-want +got):\n%s", tc.readme, diff)
		}
	}
}

// TestReadmeListsEveryCommand fails when README.md's command table misses a
// command or subcommand of the tree, or lists one that does not exist.
func TestReadmeListsEveryCommand(t *testing.T) {
	b, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	listed := readmeCommands(string(b))
	if len(listed) == 0 {
		t.Fatal("README.md has no command table under ## Commands")
	}
	var tree []string
	walkCommands(commandTree(), func(c *cobra.Command) {
		if c.Runnable() && !c.Hidden && c.HasParent() {
			tree = append(tree, c.CommandPath())
		}
	})
	for _, c := range tree {
		if !slices.Contains(listed, c) {
			t.Errorf("README.md's command table misses %q", c)
		}
	}
	for _, c := range listed {
		if !slices.Contains(tree, c) {
			t.Errorf("README.md's command table lists %q, which is not a command", c)
		}
	}
}

// TestHiddenAliases: every older spelling sets the flag it stands for (which
// then counts as given) and is hidden from --help, where the new spelling shows.
func TestHiddenAliases(t *testing.T) {
	tests := []struct {
		cmd        []string // command path below hdlgen
		old, name  string
		value      string
		wantInHelp string
	}{
		{[]string{"train"}, "output", "out", "m.json", "-o, --out"},
		{[]string{"quantize"}, "output", "out", "m.json", "-o, --out"},
		{[]string{"emit"}, "output", "out", "hw", "-o, --out"},
		{[]string{"weights"}, "output", "out", "r.bin", "-o, --out"},
		{[]string{"sim"}, "input", "data", "x.csv", "--data"},
		{[]string{"size"}, "classes", "num-classes", "4", "--num-classes"},
		{[]string{"train"}, "threads", "workers", "3", "--workers"},
		{[]string{"eval"}, "threads", "workers", "3", "--workers"},
	}
	for _, tc := range tests {
		c, _, err := commandTree().Find(tc.cmd)
		if err != nil {
			t.Fatal(err)
		}
		if err := c.ParseFlags([]string{"--" + tc.old, tc.value}); err != nil {
			t.Errorf("%v --%s %s: %v", tc.cmd, tc.old, tc.value, err)
			continue
		}
		f := c.Flags().Lookup(tc.name)
		if f.Value.String() != tc.value || !f.Changed {
			t.Errorf("%v --%s %s: --%s = %q (changed %v), want %q", tc.cmd, tc.old, tc.value, tc.name, f.Value.String(), f.Changed, tc.value)
		}
		if !c.Flags().Lookup(tc.old).Hidden {
			t.Errorf("%v: --%s is not hidden", tc.cmd, tc.old)
		}
		_, help, _ := run(t, append(tc.cmd, "--help")...)
		if strings.Contains(help, "--"+tc.old+" ") || !strings.Contains(help, tc.wantInHelp) {
			t.Errorf("%v --help: want %q shown and --%s hidden:\n%s", tc.cmd, tc.wantInHelp, tc.old, help)
		}
	}
}

// TestOneSpellingPerConcept walks every flag of the tree: seeds have one
// default, CPU workers are --workers, --classes is train's class list only,
// output files -o/--out.
func TestOneSpellingPerConcept(t *testing.T) {
	walkCommands(commandTree(), func(c *cobra.Command) {
		c.Flags().VisitAll(func(f *pflag.Flag) {
			where := c.CommandPath() + " --" + f.Name
			if f.Hidden {
				return
			}
			switch f.Name {
			case "seed", "split-seed":
				if f.DefValue != "0" {
					t.Errorf("%s defaults to %s, want the one default seed 0", where, f.DefValue)
				}
			case "threads", "jobs", "input", "output", "num-threads":
				t.Errorf("%s is visible: the spelling is --workers (CPU workers), --data (input rows) or -o/--out", where)
			case "classes":
				if c.CommandPath() != "hdlgen train" {
					t.Errorf("%s: --classes is train's list of classes to keep; a number of classes is --num-classes", where)
				}
			case "out":
				if f.Shorthand != "o" {
					t.Errorf("%s has no -o shorthand", where)
				}
			}
		})
	})
}

// labelFirst writes examples/iris.csv with its label moved to the first
// column and returns the path.
func labelFirst(t *testing.T, dir string) string {
	t.Helper()
	b, err := os.ReadFile("../../examples/iris.csv")
	if err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		f := strings.Split(strings.TrimSpace(line), ",")
		out.WriteString(strings.Join(append([]string{f[len(f)-1]}, f[:len(f)-1]...), ",") + "\n")
	}
	p := filepath.Join(dir, "iris-label-first.csv")
	if err := os.WriteFile(p, []byte(out.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// withoutData drops the file description (name, SHA-256) of a search or
// eval JSON document, which differs between two spellings of one data set.
func withoutData(t *testing.T, doc string) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(doc), &m); err != nil {
		t.Fatalf("%v: %s", err, doc)
	}
	delete(m, "data")
	return m
}

// TestLabelColumnEverywhere: search, eval, emit and sim read a CSV with the
// label in another column through --label-column, with the results of the
// same data with the label last.
func TestLabelColumnEverywhere(t *testing.T) {
	f := newFixture(t)
	first := labelFirst(t, f.dir)
	last := "../../examples/iris.csv"
	for _, col := range []string{"class", "1"} {
		pairs := []struct {
			name        string
			plain, with []string
			json        bool
		}{
			{"search", []string{"search", "--data", last, "--grid", "small", "--json"},
				[]string{"search", "--data", first, "--label-column", col, "--grid", "small", "--json"}, true},
			{"eval", []string{"eval", "--data", last, "--n", "20", "--lambda", "1", "--seeds", "2", "--json"},
				[]string{"eval", "--data", first, "--label-column", col, "--n", "20", "--lambda", "1", "--seeds", "2", "--json"}, true},
			{"sim", []string{"sim", f.quant, "--data", last},
				[]string{"sim", f.quant, "--data", first, "--label-column", col}, false},
		}
		for _, p := range pairs {
			c1, o1, e1 := run(t, p.plain...)
			c2, o2, e2 := run(t, p.with...)
			if c1 != 0 || c2 != 0 {
				t.Errorf("%s: exit %d %q / exit %d %q", p.name, c1, e1, c2, e2)
				continue
			}
			if p.json {
				if diff := cmp.Diff(withoutData(t, o1), withoutData(t, o2)); diff != "" {
					t.Errorf("%s --label-column %s differs (-label last +label first):\n%s", p.name, col, diff)
				}
			} else if o1 != o2 || o1 == "" {
				t.Errorf("%s --label-column %s: output differs or is empty", p.name, col)
			}
		}
	}
	// emit: the vectors drawn from the rows are the same.
	a, b := filepath.Join(f.dir, "hw-last"), filepath.Join(f.dir, "hw-first")
	for _, args := range [][]string{
		{"emit", f.quant, "--data", last, "--vectors", "30", "-o", a},
		{"emit", f.quant, "--data", first, "--label-column", "class", "--vectors", "30", "-o", b},
	} {
		if code, _, errs := run(t, args...); code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, errs)
		}
	}
	for _, name := range []string{"vectors/tv_in.mem", "vectors/tv_exp.mem"} {
		x, err1 := os.ReadFile(filepath.Join(a, name))
		y, err2 := os.ReadFile(filepath.Join(b, name))
		if err1 != nil || err2 != nil || !bytes.Equal(x, y) {
			t.Errorf("emit --label-column: %s differs (%v, %v)", name, err1, err2)
		}
	}
	// A collection has no label column to choose.
	code, _, errs := run(t, "search", "--data", f.dir, "--dataset", "x", "--label-column", "1")
	if code != exitUsage || !strings.Contains(errs, "--label-column") {
		t.Errorf("search --dataset --label-column: exit %d %q", code, errs)
	}
}

// TestSimDesignDirectory: "sim DIR" reproduces "sim DIR/model.json
// --parallel P" with the design's P; a disagreeing --parallel and a path
// that is neither a model nor a design are errors naming it.
func TestSimDesignDirectory(t *testing.T) {
	f := newFixture(t)
	hw := filepath.Join(f.dir, "hw5")
	if code, _, errs := run(t, "emit", f.quant, "--parallel", "5", "--vectors", "10", "--output", hw); code != 0 {
		t.Fatalf("emit --output: exit %d: %s", code, errs)
	}
	iris := "../../examples/iris.csv"
	code, fromDir, errs := run(t, "sim", hw, "--data", iris)
	if code != 0 {
		t.Fatalf("sim DIR: exit %d: %s", code, errs)
	}
	_, fromModel, _ := run(t, "sim", f.quant, "--data", iris, "--parallel", "5")
	_, p1, _ := run(t, "sim", f.quant, "--data", iris)
	if diff := cmp.Diff(fromModel, fromDir); diff != "" || fromDir == "" {
		t.Errorf("sim DIR differs from sim model.json --parallel 5 (-model +dir):\n%s", diff)
	}
	if fromDir == p1 {
		t.Errorf("sim DIR equals sim at P=1: the design's P was not used")
	}
	if code, same, _ := run(t, "sim", hw, "--data", iris, "--parallel", "5"); code != 0 || same != fromDir {
		t.Errorf("sim DIR --parallel 5 (the design's P): exit %d or other output", code)
	}
	empty := t.TempDir()
	tests := []struct {
		args []string
		code int
		want string
	}{
		{[]string{"sim", hw, "--data", iris, "--parallel", "2"}, exitUsage, "--parallel 2 disagrees with the design's P = 5"},
		{[]string{"sim", empty, "--data", iris}, exitError, empty + ": not a design directory written by hdlgen emit"},
		{[]string{"sim", filepath.Join(f.dir, "nosuch"), "--data", iris}, exitError, filepath.Join(f.dir, "nosuch") + " is neither a model.json nor a design directory"},
		{[]string{"sim", f.csv, "--data", iris}, exitError, f.csv + " is neither a model.json nor a design directory"},
	}
	for _, tc := range tests {
		code, _, errs := run(t, tc.args...)
		if code != tc.code || !strings.Contains(errs, tc.want) {
			t.Errorf("%v: exit %d %q; want exit %d mentioning %q", tc.args, code, errs, tc.code, tc.want)
		}
	}
}

// TestSizeFromModel: size --model gives what size gives with the model's
// K, L, κ, bits, network and effective readout width as flags; a flag that
// disagrees with the model is an error naming both values.
func TestSizeFromModel(t *testing.T) {
	f := newFixture(t)
	fromModel := func(args ...string) (int, string, string) {
		return run(t, append([]string{"size", "--budget", "3.2uJ", "--json", "--model", f.quant}, args...)...)
	}
	code, want, errs := fromModel()
	if code != 0 {
		t.Fatalf("size --model: exit %d: %s", code, errs)
	}
	q, err := model.ReadFile(f.quant)
	if err != nil {
		t.Fatal(err)
	}
	eff := strconv.Itoa(power.EffectiveReadoutBits(q.Readout.Q, q.Readout.Bits))
	code, got, errs := run(t, "size", "--budget", "3.2uJ", "--json", "--features", "4", "--num-classes", "3",
		"--arch", "intrvfl", "--kappa", "3", "--bits", "5", "--eff-bits", eff)
	if code != 0 {
		t.Fatalf("size with flags: exit %d: %s", code, errs)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("size --model differs from size with the model's flags (-model +flags):\n%s", diff)
	}
	if code, same, _ := fromModel("--features", "4", "--kappa", "3", "--classes", "3"); code != 0 || same != want {
		t.Errorf("size --model with agreeing flags: exit %d or other output", code)
	}
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"--features", "5"}, "--features 5 disagrees with --model " + f.quant + ": its K is 4"},
		{[]string{"--num-classes", "4"}, "--num-classes 4 disagrees with --model " + f.quant + ": its L is 3"},
		{[]string{"--classes", "2"}, "--num-classes 2 disagrees with --model " + f.quant + ": its L is 3"},
		{[]string{"--kappa", "2"}, "--kappa 2 disagrees with --model " + f.quant + ": its κ is 3"},
		{[]string{"--bits", "4"}, "--bits 4 disagrees with --model " + f.quant + ": its readout bits is 5"},
		{[]string{"--arch", "rvfl8"}, "--arch rvfl8 disagrees with --model " + f.quant + ": it is an intrvfl"},
	}
	for _, tc := range tests {
		code, _, errs := fromModel(tc.args...)
		if code != exitUsage || !strings.Contains(errs, tc.want) {
			t.Errorf("size --model %v: exit %d %q; want exit %d mentioning %q", tc.args, code, errs, exitUsage, tc.want)
		}
	}
	if code, _, errs := run(t, "size", "--budget", "3.2uJ", "--model", f.float); code != exitUsage || !strings.Contains(errs, "float readout") {
		t.Errorf("size --model float.json: exit %d %q", code, errs)
	}
	if code, _, errs := run(t, "size", "--budget", "3.2uJ", "--features", "4"); code != exitUsage || !strings.Contains(errs, "--num-classes") {
		t.Errorf("size without --num-classes: exit %d %q", code, errs)
	}
}
