package jobs

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/hdlgen/hdlgen/dataset"
)

type rec struct {
	Fingerprint string `json:"fingerprint"`
	Data        string `json:"data_sha256"`
	Value       int    `json:"value"`
}

func TestStoreReusesOnlyTheSameFingerprintAndData(t *testing.T) {
	st := Store{Dir: t.TempDir()}
	rel := filepath.Join("runs", "x", "a.result.json")
	if ok, err := st.Load(rel, "f1", "d1", &rec{}); ok || err != nil {
		t.Fatalf("absent job: ok %v, err %v", ok, err)
	}
	if err := st.Save(rel, rec{"f1", "d1", 42}); err != nil {
		t.Fatal(err)
	}
	var got rec
	if ok, err := st.Load(rel, "f1", "d1", &got); !ok || err != nil || got.Value != 42 {
		t.Errorf("same fingerprint: ok %v, err %v, %+v", ok, err, got)
	}
	if ok, err := st.Load(rel, "f2", "d1", &rec{}); ok || err != nil {
		t.Errorf("other fingerprint: ok %v, err %v; want a rerun", ok, err)
	}
	if ok, err := st.Load(rel, "f1", "d2", &rec{}); ok || err != nil {
		t.Errorf("other data: ok %v, err %v; want a rerun", ok, err)
	}
	if ok, err := st.LoadAny(rel, &got); !ok || err != nil {
		t.Errorf("LoadAny: ok %v, err %v", ok, err)
	}
	if err := os.WriteFile(st.Path(rel), []byte("{"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := st.Load(rel, "f1", "d1", &rec{}); err == nil {
		t.Error("corrupt job file: no error")
	}
}

func TestRunReportsEveryJobOnce(t *testing.T) {
	var got []int
	Run(context.Background(), 3, []int{1, 2, 3, 4, 5}, func(j int) (int, error) { return j * j, nil },
		func(j, r int, err error) { got = append(got, r) })
	sum := 0
	for _, v := range got {
		sum += v
	}
	if len(got) != 5 || sum != 55 {
		t.Errorf("reports %v, want the five squares", got)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	n := 0
	Run(ctx, 1, []int{1, 2, 3}, func(j int) (int, error) { return j, nil }, func(int, int, error) { n++ })
	if n > 1 {
		t.Errorf("canceled pool ran %d jobs", n)
	}
}

func TestOutcomes(t *testing.T) {
	var skipped []Skipped
	o := NewOutcomes(&skipped, "study")
	missing := fmt.Errorf("load: %w", dataset.ErrDataFileMissing)
	got := []Outcome{
		o.Add("a", nil),
		o.Add("b", missing),
		o.Add("b", LoadError{errors.New("unreadable")}),
		o.Add("c", context.Canceled),
		o.Add("d", errors.New("boom")),
		o.Add("e", errors.New("later")),
	}
	if d := cmp.Diff([]Outcome{Done, Skip, Skip, Fail, Fail, Fail}, got); d != "" {
		t.Errorf("outcomes (-want +got):\n%s", d)
	}
	if len(skipped) != 1 || skipped[0].Dataset != "b" {
		t.Errorf("skipped %+v, want b once", skipped)
	}
	if o.FirstErr == nil || o.FirstErr.Error() != "study d: boom" {
		t.Errorf("first error %v, want study d: boom", o.FirstErr)
	}
}

func TestLargestFirst(t *testing.T) {
	jobs := []float64{1, 5, 3, 5}
	total := LargestFirst(jobs, func(c float64) float64 { return c })
	if d := cmp.Diff([]float64{5, 5, 3, 1}, jobs); d != "" || total != 14 {
		t.Errorf("order (-want +got):\n%s total %g", d, total)
	}
}

func TestParseShard(t *testing.T) {
	tests := []struct {
		in      string
		want    Shard
		wantErr bool
	}{
		{in: "0/3", want: Shard{0, 3}},
		{in: "2/3", want: Shard{2, 3}},
		{in: " 0 / 1 ", want: Shard{0, 1}},
		{in: "3/3", wantErr: true},
		{in: "-1/3", wantErr: true},
		{in: "0/0", wantErr: true},
		{in: "1", wantErr: true},
		{in: "a/b", wantErr: true},
	}
	for _, tc := range tests {
		got, err := ParseShard(tc.in)
		if (err != nil) != tc.wantErr || got != tc.want {
			t.Errorf("ParseShard(%q) = %v, %v; want %v, error %v", tc.in, got, err, tc.want, tc.wantErr)
		}
	}
}

// TestSelectPartitions: the shards of a study partition its jobs, keep their
// order, and balance the cost within the largest job's.
func TestSelectPartitions(t *testing.T) {
	costs := []float64{3, 100, 7, 7, 1, 50, 20, 2, 2, 60, 5}
	for n := 1; n <= 5; n++ {
		seen := map[int]int{}
		var loads []float64
		for i := 0; i < n; i++ {
			idx := make([]int, len(costs))
			for j := range idx {
				idx[j] = j
			}
			mine := Select(Shard{i, n}, idx, func(j int) float64 { return costs[j] })
			load := 0.0
			for k, j := range mine {
				seen[j]++
				load += costs[j]
				if k > 0 && mine[k-1] >= j {
					t.Errorf("n=%d shard %d: order not kept: %v", n, i, mine)
				}
			}
			loads = append(loads, load)
		}
		if len(seen) != len(costs) {
			t.Errorf("n=%d: %d of %d jobs selected", n, len(seen), len(costs))
		}
		for j, c := range seen {
			if c != 1 {
				t.Errorf("n=%d: job %d in %d shards", n, j, c)
			}
		}
		lo, hi := loads[0], loads[0]
		for _, l := range loads {
			lo, hi = min(lo, l), max(hi, l)
		}
		if hi-lo > 100 {
			t.Errorf("n=%d: loads %v differ by more than the largest job", n, loads)
		}
	}
}

func TestLockDir(t *testing.T) {
	dir := t.TempDir()
	whole, err := LockDir(dir, Shard{}, "first run")
	if err != nil {
		t.Fatal(err)
	}
	var le *LockedError
	if _, err := LockDir(dir, Shard{}, "second run"); !errors.As(err, &le) || !strings.Contains(err.Error(), "first run") ||
		!strings.Contains(err.Error(), fmt.Sprintf("pid %d", os.Getpid())) {
		t.Errorf("second whole run: %v; want a LockedError naming the first", err)
	}
	if _, err := LockDir(dir, Shard{0, 2}, "shard run"); !errors.As(err, &le) {
		t.Errorf("shard run during a whole run: %v; want a LockedError", err)
	}
	whole.Unlock()
	// a killed run's temporary file: a shard's lock leaves it (other shards
	// may be writing), a whole run's lock removes it
	stray := filepath.Join(dir, "runs", ".iris.json.tmp-12345")
	if err := os.MkdirAll(filepath.Dir(stray), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(stray, []byte("{"), 0o644); err != nil {
		t.Fatal(err)
	}
	s0, err := LockDir(dir, Shard{0, 2}, "shard zero")
	if err != nil {
		t.Fatal(err)
	}
	defer s0.Unlock()
	if _, err := os.Stat(stray); err != nil {
		t.Errorf("a shard's lock removed another run's temporary file: %v", err)
	}
	s1, err := LockDir(dir, Shard{1, 2}, "shard one")
	if err != nil {
		t.Fatalf("two shards of one study share a folder: %v", err)
	}
	defer s1.Unlock()
	if _, err := LockDir(dir, Shard{1, 2}, "shard one again"); !errors.As(err, &le) || !strings.Contains(err.Error(), "shard one") {
		t.Errorf("the same shard twice: %v; want a LockedError naming it", err)
	}
	if _, err := LockDir(dir, Shard{}, "whole"); !errors.As(err, &le) || !strings.Contains(err.Error(), "shard zero") ||
		!strings.Contains(err.Error(), "shard one") {
		t.Errorf("whole run during shard runs: %v; want a LockedError naming both shards", err)
	}
	s0.Unlock()
	s1.Unlock()
	again, err := LockDir(dir, Shard{}, "whole again")
	if err != nil {
		t.Fatal(err)
	}
	defer again.Unlock()
	if _, err := os.Stat(stray); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the whole run's lock kept a killed run's temporary file: %v", err)
	}
}

// TestOutputsChanged: the hashes of a job's outputs (a file, and a folder
// minus what skip leaves out) tell a missing or edited output from an
// untouched one, and a skipped file may change freely.
func TestOutputsChanged(t *testing.T) {
	root := t.TempDir()
	write := func(rel, text string) {
		p := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("out.json", "{}")
	write("hw/rtl/top.v", "module top; endmodule")
	write("hw/mem/w.mem", "01")
	write("hw/build/obj", "x")
	outs, err := HashOutputs(root, []string{"out.json", "hw"}, func(rel string) bool { return rel == "hw/build" })
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"hw/mem/w.mem", "hw/rtl/top.v", "out.json"}, slices.Sorted(maps.Keys(outs))); diff != "" {
		t.Errorf("outputs (-want +got):\n%s", diff)
	}
	for _, tc := range []struct {
		name   string
		change func()
		path   string
		why    string
	}{
		{"untouched", func() {}, "", ""},
		{"skipped file", func() { write("hw/build/obj", "y") }, "", ""},
		{"edited", func() { write("hw/rtl/top.v", "module top2; endmodule") }, "hw/rtl/top.v", "changed since it was written"},
		{"deleted", func() { os.Remove(filepath.Join(root, "out.json")) }, "hw/rtl/top.v", "changed since it was written"},
	} {
		tc.change()
		path, why := outs.Changed(root)
		if path != tc.path || why != tc.why {
			t.Errorf("%s: Changed = %q, %q; want %q, %q", tc.name, path, why, tc.path, tc.why)
		}
	}
	write("hw/rtl/top.v", "module top; endmodule")
	if path, why := outs.Changed(root); path != "out.json" || why != "missing" {
		t.Errorf("after restoring top.v: %q %q, want out.json missing", path, why)
	}
	if _, err := HashOutputs(root, []string{"nothing.json"}, nil); err == nil {
		t.Error("a missing output: no error")
	}
}

// TestStoreIndent: Save indents with Store.Indent, one space by default.
func TestStoreIndent(t *testing.T) {
	for _, tc := range []struct{ indent, want string }{{"", "{\n \"value\": 1\n}\n"}, {"  ", "{\n  \"value\": 1\n}\n"}} {
		st := Store{Dir: t.TempDir(), Indent: tc.indent}
		if err := st.Save("a.json", struct {
			Value int `json:"value"`
		}{1}); err != nil {
			t.Fatal(err)
		}
		b, _ := os.ReadFile(st.Path("a.json"))
		if string(b) != tc.want {
			t.Errorf("indent %q: %q, want %q", tc.indent, b, tc.want)
		}
	}
}

// TestSealedStore: a Sealed store takes a job back only while its content
// is the content saved (issue 36, item 7: an edited part of a search was
// trusted, and a changed count changed the chosen N, λ and κ): white space
// may change; a value, a removed sum or an unsealed file run again.
func TestSealedStore(t *testing.T) {
	st := Store{Dir: t.TempDir(), Sealed: true}
	rel := "p.json"
	if err := st.Save(rel, rec{"f1", "d1", 42}); err != nil {
		t.Fatal(err)
	}
	saved, err := os.ReadFile(st.Path(rel))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		edit func(string) string
		ok   bool
	}{
		{"as saved", func(s string) string { return s }, true},
		{"white space", func(s string) string { return strings.ReplaceAll(s, "\n", "\n\n  ") }, true},
		{"a value", func(s string) string { return strings.Replace(s, "42", "43", 1) }, false},
		{"the sum removed", func(s string) string {
			return regexp.MustCompile(`"content_sha256": "[0-9a-f]*",`).ReplaceAllString(s, "")
		}, false},
		{"unsealed", func(string) string { return `{"fingerprint":"f1","data_sha256":"d1","value":43}` }, false},
	} {
		if err := os.WriteFile(st.Path(rel), []byte(tc.edit(string(saved))), 0o644); err != nil {
			t.Fatal(err)
		}
		var got rec
		ok, err := st.Load(rel, "f1", "d1", &got)
		if ok != tc.ok || err != nil || ok && got.Value != 42 {
			t.Errorf("%s: ok %v, err %v, %+v; want ok %v", tc.name, ok, err, got, tc.ok)
		}
	}
}
