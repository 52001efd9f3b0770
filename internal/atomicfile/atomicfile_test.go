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
