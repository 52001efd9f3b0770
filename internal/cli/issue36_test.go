package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestOutputFoldersCheckedFirst: an output whose folder is missing or cannot
// be written is refused before any work (issue 36, item 3: search -o into a
// missing folder failed after the whole search), naming the flag and the
// folder, and nothing is written.
func TestOutputFoldersCheckedFirst(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "afile")
	if err := os.WriteFile(file, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	missing := filepath.Join(dir, "missing")
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"search", "--data", "example:iris", "--grid", "small", "-o", filepath.Join(missing, "s.json")}, "-o " + missing + "/s.json: the folder " + missing + " does not exist"},
		{[]string{"train", "--data", "example:iris", "--n", "10", "-o", filepath.Join(missing, "m.json")}, "the folder " + missing + " does not exist"},
		{[]string{"train", "--data", "example:iris", "--n", "10", "-o", filepath.Join(file, "m.json")}, "not a directory"},
		{[]string{"build", "--data", "example:iris", "-o", filepath.Join(file, "b")}, file + " is not a folder"},
		{[]string{"train", "--data", "example:iris", "--n", "10", "-o", filepath.Join(dir, "m.json"), "--cpuprofile", filepath.Join(missing, "cpu.prof")}, "--cpuprofile " + missing + "/cpu.prof: the folder"},
	}
	if os.Geteuid() != 0 { // root may write anywhere a mode forbids
		ro := filepath.Join(dir, "ro")
		if err := os.Mkdir(ro, 0o555); err != nil {
			t.Fatal(err)
		}
		tests = append(tests, struct {
			args []string
			want string
		}{[]string{"search", "--data", "example:iris", "--grid", "small", "-o", filepath.Join(ro, "s.json")}, "cannot write into the folder " + ro})
	}
	for _, tc := range tests {
		code, stdout, errs := run(t, tc.args...)
		if code != exitUsage || !strings.Contains(errs, tc.want) || stdout != "" || strings.Contains(errs, "parts") {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit %d at once, mentioning %q", tc.args, code, stdout, errs, exitUsage, tc.want)
		}
	}
	if _, err := os.Stat(missing); err == nil {
		t.Errorf("%s was created by a refused command", missing)
	}
}

// TestProfileIsAnOutput: --cpuprofile is checked and written like every
// output (issue 36, item 6: equal to -o, the profile replaced the model and
// the command exited 0).
func TestProfileIsAnOutput(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "m.json")
	prof := filepath.Join(dir, "cpu.prof")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"train", "--data", "example:iris", "--n", "10", "-o", out, "--cpuprofile", out}, "is also the output"},
		{[]string{"train", "--data", "example:iris", "--n", "10", "-o", out, "--cpuprofile", filepath.Join(dir, ".", "m.json")}, "is also the output"},
		{[]string{"search", "--data", "example:iris", "--grid", "small", "-o", out, "--parts", dir, "--cpuprofile", out}, "is also the output"},
	} {
		code, _, errs := run(t, tc.args...)
		if code != exitUsage || !strings.Contains(errs, tc.want) {
			t.Errorf("%v: exit %d, stderr %q; want exit %d mentioning %q", tc.args, code, errs, exitUsage, tc.want)
		}
		if _, err := os.Stat(out); err == nil {
			t.Fatalf("%v wrote %s", tc.args, out)
		}
	}
	// Distinct paths: both written, the profile whole (gzip, as pprof writes it).
	if code, _, errs := run(t, "train", "--data", "example:iris", "--n", "10", "-o", out, "--cpuprofile", prof); code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	b, err := os.ReadFile(prof)
	if err != nil || !bytes.HasPrefix(b, []byte{0x1f, 0x8b}) {
		t.Errorf("profile %s: %d bytes, err %v; want a gzip file", prof, len(b), err)
	}
	if b, err := os.ReadFile(out); err != nil || !bytes.Contains(b, []byte(`"arch"`)) {
		t.Errorf("model %s: %v", out, err)
	}
}

// TestEditedPartIsScoredAgain: a search's kept part whose counts were edited
// is scored again, so the search chooses what an unedited one does (issue
// 36, item 7: the edited counts were trusted, and an edit that made N=150
// perfect on every split made the search choose it).
func TestEditedPartIsScoredAgain(t *testing.T) {
	dir := t.TempDir()
	parts := filepath.Join(dir, "parts")
	search := []string{"search", "--data", "example:iris", "--grid", "small", "--parts", parts}
	code, want, errs := run(t, search...)
	if code != 0 {
		t.Fatalf("search: exit %d: %s", code, errs)
	}
	files, _ := filepath.Glob(filepath.Join(parts, "intrvfl", "*-n150.json"))
	if len(files) == 0 {
		t.Fatalf("no part of N=150 in %s", parts)
	}
	perfectParts(t, files)
	code, got, errs := run(t, search...)
	if code != 0 {
		t.Fatalf("search again: exit %d: %s", code, errs)
	}
	if got != want {
		t.Errorf("after editing the N=150 parts the search says\n%s\nwant, as before the edit,\n%s", got, want)
	}
	if !strings.Contains(errs, fmt.Sprintf("%d to score", len(files))) {
		t.Errorf("the rerun's progress does not score the %d edited parts again: %s", len(files), errs)
	}
}

// perfectParts edits the kept search parts files as a user could: every
// count made perfect (the validation rows), the file's sum, if any, kept.
func perfectParts(t *testing.T, files []string) {
	t.Helper()
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var doc map[string]any
		if err := json.Unmarshal(b, &doc); err != nil {
			t.Fatal(err)
		}
		rec := doc
		if c, ok := doc["content"].(map[string]any); ok { // a sealed part: edit its content, keep its sum
			rec = c
		}
		res := rec["result"].(map[string]any)
		rows := res["best"].(map[string]any)["val_rows"]
		for _, byKappa := range res["correct"].([]any) {
			for _, byN := range byKappa.([]any) {
				counts := byN.([]any)
				for i := range counts {
					counts[i] = rows // every configuration of N=150 perfect
				}
			}
		}
		if b, err = json.Marshal(doc); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(f, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
