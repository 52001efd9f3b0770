package templates

import (
	"strings"
	"testing"
)

// TestBlockROM: the embedded hdlgen_rom.v has the one storage declaration that
// BlockROM marks, the marked file differs only there, and a primitive without
// it is refused rather than emitted unmarked.
func TestBlockROM(t *testing.T) {
	src, err := FS.ReadFile("hdlgen_rom.v")
	if err != nil {
		t.Fatal(err)
	}
	got, err := BlockROM(src)
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(got), `(* rom_style = "block" *)`); n != 1 {
		t.Errorf("%d rom_style attributes, want 1", n)
	}
	a, b := strings.Split(string(src), "\n"), strings.Split(string(got), "\n")
	if len(b) != len(a)+1 {
		t.Errorf("%d lines, want %d + 1", len(b), len(a))
	}
	changed := 0
	for i, j := 0, 0; i < len(a) && j < len(b); i, j = i+1, j+1 {
		if a[i] != b[j] {
			changed++
			if strings.Contains(b[j+1], "rom_style") {
				j++ // the comment line changed and the attribute line was added
			}
		}
	}
	if changed != 1 {
		t.Errorf("%d lines changed, want 1 (the comment above the storage)", changed)
	}
	if _, err := BlockROM([]byte("module m; endmodule\n")); err == nil {
		t.Error("a primitive without the storage declaration was accepted")
	}
}
