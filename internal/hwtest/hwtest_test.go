package hwtest

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// moduleRoot is the repository's root, two folders up from this package.
const moduleRoot = "../.."

// testFiles returns the module's _test.go files (outside this package) with
// their contents.
func testFiles(t *testing.T) map[string]string {
	t.Helper()
	files := map[string]string{}
	err := filepath.WalkDir(moduleRoot, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "testdata" || d.Name() == "build" || strings.HasPrefix(d.Name(), ".")) && path != moduleRoot {
			return filepath.SkipDir
		}
		rel := filepath.ToSlash(strings.TrimPrefix(path, moduleRoot+"/"))
		if d.IsDir() || !strings.HasSuffix(path, "_test.go") || strings.HasPrefix(rel, "internal/hwtest/") {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		files[rel] = string(b)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 50 {
		t.Fatalf("found %d test files under %s: not the module", len(files), moduleRoot)
	}
	return files
}

// privateGate matches a test deciding by itself whether a tool, the
// collection, the quick tier or the full tier is there.
var privateGate = regexp.MustCompile(`exec\.LookPath\(|testing\.Short\(\)|Getenv\("HDLGEN_(UCI121|TEST_FULL)"\)`)

// TestNoPrivateToolGates: every test that needs a tool, the collection or
// the full tier says so through Require; none checks by itself.
func TestNoPrivateToolGates(t *testing.T) {
	for name, src := range testFiles(t) {
		for i, line := range strings.Split(src, "\n") {
			if privateGate.MatchString(line) {
				t.Errorf("%s:%d: %s — use hwtest.Require", name, i+1, strings.TrimSpace(line))
			}
		}
	}
}

// TestOneQuickVerilatorBuild: exactly one test file of the suite uses
// QuickVerilator, the quick tier's one Verilator model build.
func TestOneQuickVerilatorBuild(t *testing.T) {
	var users []string
	for name, src := range testFiles(t) {
		if strings.Count(src, "hwtest.QuickVerilator") > 0 {
			users = append(users, name)
			if n := strings.Count(src, "hwtest.QuickVerilator"); n != 1 {
				t.Errorf("%s uses QuickVerilator %d times, want once", name, n)
			}
		}
	}
	if len(users) != 1 {
		t.Errorf("QuickVerilator used in %v, want exactly one test", users)
	}
}

// TestMissing checks the rules of Missing: a tool that is not on PATH, an
// unset or missing collection, and heavy needs in -short mode.
func TestMissing(t *testing.T) {
	t.Setenv(CollectionEnv, "")
	if got := Missing(Need{name: "x", tools: []string{"hdlgen-no-such-tool"}}); !strings.Contains(got, "hdlgen-no-such-tool not installed") {
		t.Errorf("missing tool: %q", got)
	}
	if got := Missing(Collection); got == "" {
		t.Errorf("collection with %s unset: not reported missing", CollectionEnv)
	}
	t.Setenv(CollectionEnv, filepath.Join(t.TempDir(), "none"))
	if got := Missing(Collection); got == "" {
		t.Errorf("collection at a missing folder: not reported missing")
	}
	if got := Missing(Need{name: "nothing"}); got != "" {
		t.Errorf("a need without tools: %q", got)
	}
	heavy := Slow("minutes of work")
	if got := Missing(heavy); testing.Short() != (got != "") {
		t.Errorf("heavy need in short=%v mode: %q", testing.Short(), got)
	}
}

// TestFullTier checks the full tier's gate: Full is missing unless
// FullTierEnv is 1 (and always under -short), and its reason names the
// variable that runs it.
func TestFullTier(t *testing.T) {
	for _, tc := range []struct {
		env  string
		want bool // Full runs
	}{
		{"", false}, {"0", false}, {"yes", false}, {"1", !testing.Short()},
	} {
		t.Setenv(FullTierEnv, tc.env)
		got := Missing(Full)
		if (got == "") != tc.want {
			t.Errorf("%s=%q: Missing(Full) = %q, want runs=%v", FullTierEnv, tc.env, got, tc.want)
		}
		if !testing.Short() && !tc.want && !strings.Contains(got, FullTierEnv+"=1") {
			t.Errorf("%s=%q: the reason %q does not say how to run it", FullTierEnv, tc.env, got)
		}
	}
}
