package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// committedReports are the report files of each stage of a study folder, in
// the order the stages run, with the summary that records the stage's command.
var committedReports = []struct {
	summary string
	files   []string
}{
	{"summary.json", []string{"summary.json", "summary.md", "accuracy.tsv", "fig5-rvfl-vs-intrvfl.svg"}},
	{"readout-summary.json", []string{"readout-summary.json", "readout-summary.md", "readout.tsv", "fig6-readout.svg"}},
	{"retune-summary.json", []string{"retune-summary.json", "retune-summary.md", "retune.tsv"}},
	{"budget/summary.json", []string{"budget/summary.json", "budget/summary.md", "budget/accuracy.tsv",
		"budget/fig7-3.2uJ.svg", "budget/fig7-median.svg"}},
}

// TestCommittedResultsRegenerate reruns, for every committed study folder
// results/uci121*, the command each of its reports records, in a sandbox that
// holds a copy of the folder (its stored jobs) at the same relative path and
// the collection at ../shared/uci121. Every job is stored, so nothing is
// computed: the reports are rewritten from the stored jobs, and each must equal
// the committed file byte for byte, apart from the record of the invocation
// (date, machine, wall time, reused count, the run-log section of the .md).
func TestCommittedResultsRegenerate(t *testing.T) {
	uci := os.Getenv("HDLGEN_UCI121")
	if uci == "" {
		t.Skip("HDLGEN_UCI121 not set: the UCI-121 collection is not available")
	}
	if testing.Short() {
		t.Skip("reads every committed study result (-short)")
	}
	uci, err := filepath.Abs(uci)
	if err != nil {
		t.Fatal(err)
	}
	repo, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	dirs, err := filepath.Glob(filepath.Join(repo, "results", "uci121*"))
	if err != nil || len(dirs) == 0 {
		t.Fatalf("no committed study folders: %v", err)
	}
	// The sandbox: tmp/shared/uci121 is the collection, tmp/wt the working folder.
	tmp := t.TempDir()
	if err := os.MkdirAll(filepath.Join(tmp, "shared"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(uci, filepath.Join(tmp, "shared", "uci121")); err != nil {
		t.Fatal(err)
	}
	wt := filepath.Join(tmp, "wt")
	if err := copyTree(filepath.Join(repo, "study", "testdata"), filepath.Join(wt, "study", "testdata")); err != nil {
		t.Fatal(err)
	}
	for _, d := range dirs {
		if err := copyTree(d, filepath.Join(wt, "results", filepath.Base(d))); err != nil {
			t.Fatal(err)
		}
	}
	t.Chdir(wt)
	checked := 0
	for _, d := range dirs {
		name := filepath.Base(d)
		for _, st := range committedReports {
			data, err := os.ReadFile(filepath.Join(d, st.summary))
			if os.IsNotExist(err) {
				continue
			}
			if err != nil {
				t.Fatal(err)
			}
			var head struct{ Command string }
			if err := json.Unmarshal(data, &head); err != nil {
				t.Fatalf("%s/%s: %v", name, st.summary, err)
			}
			args := commandArgs(t, head.Command)
			code, _, errs := run(t, args...)
			if code != 0 {
				t.Fatalf("%s: %q: exit %d: %s", name, head.Command, code, errs)
			}
			if strings.Contains(errs, "] ") {
				t.Errorf("%s: %q computed jobs instead of reusing them:\n%s", name, head.Command, errs)
			}
			for _, f := range st.files {
				want, err := os.ReadFile(filepath.Join(d, f))
				if os.IsNotExist(err) {
					continue
				}
				if err != nil {
					t.Fatal(err)
				}
				got, err := os.ReadFile(filepath.Join(wt, "results", name, f))
				if err != nil {
					t.Fatal(err)
				}
				if g, w := withoutInvocation(f, got), withoutInvocation(f, want); !bytes.Equal(g, w) {
					t.Errorf("%s/%s differs from the committed file after regeneration:\n%s", name, f, firstDiff(g, w))
				}
				checked++
			}
		}
	}
	if checked == 0 {
		t.Fatal("no report compared")
	}
	t.Logf("%d committed report files regenerated identically", checked)
}

// commandArgs turns a recorded command ("hdlgen reproduce --flag value …",
// quoteArgs's form) into arguments, each flag as --flag=value.
func commandArgs(t *testing.T, command string) []string {
	f := strings.Fields(command)
	if len(f) < 2 || f[0] != "hdlgen" || len(f)%2 != 0 {
		t.Fatalf("recorded command %q is not hdlgen CMD followed by flag/value pairs", command)
	}
	args := []string{f[1]}
	for i := 2; i < len(f); i += 2 {
		args = append(args, f[i]+"="+f[i+1])
	}
	return args
}

var (
	invocationJSON = regexp.MustCompile(`(?m)^  "(date|machine|wall_seconds|reused_jobs|reused_datasets)": .*$`)
	invocationMD   = regexp.MustCompile(`(?m)^- (date|machine|wall time of this invocation): .*$`)
)

// withoutInvocation blanks the record of the invocation that wrote a report:
// the date, machine, wall time and reused count, and the run log of the .md.
func withoutInvocation(name string, data []byte) []byte {
	switch filepath.Ext(name) {
	case ".json":
		return invocationJSON.ReplaceAll(data, []byte(`  "$1": …`))
	case ".md":
		if i := bytes.Index(data, []byte("\n## Invocations (run-log.tsv)")); i >= 0 {
			data = data[:i]
		}
		return invocationMD.ReplaceAll(data, []byte("- $1: …"))
	}
	return data
}

// firstDiff shows the first differing line of two texts.
func firstDiff(got, want []byte) string {
	g, w := strings.Split(string(got), "\n"), strings.Split(string(want), "\n")
	for i := 0; i < max(len(g), len(w)); i++ {
		var a, b string
		if i < len(g) {
			a = g[i]
		}
		if i < len(w) {
			b = w[i]
		}
		if a != b {
			return fmt.Sprintf("line %d:\n  got:  %s\n  want: %s", i+1, trunc(a), trunc(b))
		}
	}
	return "(same lines, different bytes)"
}

func trunc(s string) string {
	if len(s) > 300 {
		return s[:300] + "…"
	}
	return s
}

// copyTree copies the regular files under src to dst.
func copyTree(src, dst string) error {
	return filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, p)
		if err != nil {
			return err
		}
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(target, data, 0o644)
	})
}
