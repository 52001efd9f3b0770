package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
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
		if code, _, errs := run(t, "search", "merge", files[0], files[0]); code == 0 || !strings.Contains(errs, "in two parts") {
			t.Errorf("%s: merging a shard twice: exit %d, %q", arch, code, errs)
		}
	}
	for _, bad := range []string{"3/3", "x", "3/4"} { // the small grid has 3 values of N
		code, _, errs := run(t, "search", "--data", data, "--dataset", "beta", "--grid", "small", "--shard", bad)
		if code != exitUsage {
			t.Errorf("--shard %s: exit %d (%s), want %d", bad, code, errs, exitUsage)
		}
	}
}
