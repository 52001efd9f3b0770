package testbench_test

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hdlgen/hdlgen/internal/hwtest"
	"github.com/hdlgen/hdlgen/internal/parallel"
)

// TestObjcacheCompilesOnceSideBySide: scripts/objcache, the compiler wrapper
// make test gives Verilator's builds, compiles a run-time source once when
// several builds miss it at the same time, and the others copy that object.
// The "compiler" is a script that counts its calls and takes a while, so the
// builds overlap.
func TestObjcacheCompilesOnceSideBySide(t *testing.T) {
	hwtest.Require(t, hwtest.VerilatorLint)
	wrapper, err := filepath.Abs(filepath.Join("..", "scripts", "objcache"))
	if err != nil {
		t.Fatal(err)
	}
	root, err := exec.Command("verilator", "--getenv", "VERILATOR_ROOT").Output()
	if err != nil {
		t.Fatalf("verilator --getenv VERILATOR_ROOT: %v", err)
	}
	src := filepath.Join(strings.TrimSpace(string(root)), "include", "verilated.cpp")
	if _, err := os.Stat(src); err != nil {
		t.Skipf("no run-time source to cache: %v", err)
	}

	dir := t.TempDir()
	calls := filepath.Join(dir, "calls")
	cc := filepath.Join(dir, "fakecc")
	// Called as: fakecc -c -o OUT SRC (also `fakecc --version` for the key).
	script := fmt.Sprintf(`#!/bin/sh
if [ "$1" = --version ]; then echo "fakecc 1"; exit 0; fi
echo x >>%q
sleep 1
out=""; prev=""
for a in "$@"; do [ "$prev" = -o ] && out="$a"; prev="$a"; done
echo object >"$out"
printf '%%s: dep\n' "$out" >"${out%%.o}.d"
`, calls)
	if err := os.WriteFile(cc, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	const builds = 4
	cache := filepath.Join(dir, "cache")
	errs := make([]error, builds)
	parallel.For(builds, builds, func(_, i int) {
		out := filepath.Join(dir, fmt.Sprintf("build%d", i), "verilated.o")
		if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
			errs[i] = err
			return
		}
		cmd := exec.Command(wrapper, cc, "-c", "-o", out, src)
		cmd.Env = append(os.Environ(), "OBJCACHE_DIR="+cache)
		if b, err := cmd.CombinedOutput(); err != nil {
			errs[i] = fmt.Errorf("build %d: %v: %s", i, err, b)
			return
		}
		if b, err := os.ReadFile(out); err != nil || !bytes.Equal(b, []byte("object\n")) {
			errs[i] = fmt.Errorf("build %d: object %q, %v", i, b, err)
		}
	})
	for _, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	b, err := os.ReadFile(calls)
	if err != nil {
		t.Fatal(err)
	}
	if n := bytes.Count(b, []byte("x")); n != 1 {
		t.Errorf("%d builds side by side compiled the run-time source %d times, want once", builds, n)
	}
}
