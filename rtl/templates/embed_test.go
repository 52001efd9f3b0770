package templates

import (
	"io/fs"
	"slices"
	"strings"
	"testing"
)

// blockEdits are the lines in which a block-RAM variant differs from the
// primitive it replaces: the storage's comment, its rom_style attribute and,
// for the sigmoid table, the name sigmoid_lut, which the synthesis script's
// `setattr -set rom_style "logic" m:lut` (synth/script) does not select.
var blockEdits = map[string][][2]string{
	ROMBlock: {{"  // Storage, loaded once at elaboration.\n  reg [Width-1:0] mem [0:Depth-1];\n",
		"  // Storage, loaded once at elaboration; in block RAM (hdlgen emit --rom-style block).\n" +
			"  (* rom_style = \"block\" *)\n  reg [Width-1:0] mem [0:Depth-1];\n"}},
	"hdlgen_rvfl8_hidden_block.v": {
		{"  reg [CODE_W-1:0] lut [0:LUT_DEPTH-1];\n",
			"  // In block RAM (hdlgen emit --rom-style block).\n  (* rom_style = \"block\" *)\n  reg [CODE_W-1:0] sigmoid_lut [0:LUT_DEPTH-1];\n"},
		{"$readmemh(LutFile, lut);", "$readmemh(LutFile, sigmoid_lut);"},
		{"lut[k] = {CODE_W{1'b0}};", "sigmoid_lut[k] = {CODE_W{1'b0}};"},
		{"<= lut[addr[r*CODE_W +: CODE_W]];", "<= sigmoid_lut[addr[r*CODE_W +: CODE_W]];"},
	},
}

// TestBlockVariants: every *_block.v variant is the primitive it replaces
// with exactly its block-RAM edits (each edited line found once), so the two
// cannot drift apart.
func TestBlockVariants(t *testing.T) {
	variants, err := fs.Glob(FS, "*_block.v")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for n := range blockEdits {
		names = append(names, n)
	}
	slices.Sort(names)
	if !slices.Equal(variants, names) {
		t.Fatalf("block variants %v, edits known for %v", variants, names)
	}
	for _, v := range variants {
		base := strings.TrimSuffix(v, "_block.v") + ".v"
		src, err := FS.ReadFile(base)
		if err != nil {
			t.Fatalf("%s: no primitive %s: %v", v, base, err)
		}
		want := string(src)
		for _, e := range blockEdits[v] {
			if n := strings.Count(want, e[0]); n != 1 {
				t.Fatalf("%s: %q occurs %d times, want once", base, e[0], n)
			}
			want = strings.Replace(want, e[0], e[1], 1)
		}
		got, err := FS.ReadFile(v)
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != want {
			t.Errorf("%s is not %s with its block-RAM edits", v, base)
		}
		if n := strings.Count(string(got), `(* rom_style = "block" *)`); n != 1 {
			t.Errorf("%s: %d rom_style attributes, want 1", v, n)
		}
	}
}
