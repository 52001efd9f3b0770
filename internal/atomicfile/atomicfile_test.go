package atomicfile

import (
	"os"
	"path/filepath"
	"testing"
)

func TestWriteFileReplacesAndLeavesNoTemp(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "out.json")
	for _, content := range []string{"first", "second, longer content"} {
		if err := WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != content {
			t.Fatalf("content = %q, want %q", got, content)
		}
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Fatalf("directory holds %d entries, want only the destination", len(entries))
	}
}

func TestWriteFileMissingDirFailsWithoutOutput(t *testing.T) {
	p := filepath.Join(t.TempDir(), "missing", "out.json")
	if err := WriteFile(p, []byte("x"), 0o644); err == nil {
		t.Fatal("writing into a missing directory succeeded")
	}
	if _, err := os.Stat(p); !os.IsNotExist(err) {
		t.Fatalf("destination exists after a failed write: %v", err)
	}
}

// TestRemoveStray: the temporary files of interrupted writes are removed
// anywhere in the tree, and nothing else is, however close its name.
func TestRemoveStray(t *testing.T) {
	dir := t.TempDir()
	files := map[string]bool{ // name → a stray temporary file
		".model.json.tmp-123456":          true,
		"runs/race/.iris.json.tmp-42":     true,
		"model.json":                      false,
		"runs/race/iris.json":             false,
		".model.json.tmp-":                false, // no digits
		".model.json.tmp-12a":             false,
		"model.json.tmp-123":              false, // not hidden
		".hdlgen.lock":                    false,
		"runs/.notes.tmp-draft":           false,
		"runs/race/.iris.json.tmp-7/keep": false, // a folder of that name is not a file
	}
	for name := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	n, err := RemoveStray(dir)
	if err != nil {
		t.Fatal(err)
	}
	if n != 2 {
		t.Errorf("removed %d files, want 2", n)
	}
	for name, stray := range files {
		_, err := os.Stat(filepath.Join(dir, filepath.FromSlash(name)))
		if exists := err == nil; exists == stray {
			t.Errorf("%s: exists %v after RemoveStray, want %v", name, exists, !stray)
		}
	}
}
