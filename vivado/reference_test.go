package vivado_test

import (
	"bufio"
	"fmt"
	"math"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// refEntry is one line of testdata/ip_reference.tsv: a parameter of an IP
// (or of the project, or of the processing_system7 automation) and the values
// Xilinx's documentation or public exports allow.
type refEntry struct {
	ip, param, domain, source string
}

// loadReference reads testdata/ip_reference.tsv: ip → parameter → entries
// (a parameter may have several, e.g. the board part's two vendors).
func loadReference(t *testing.T) map[string]map[string][]refEntry {
	t.Helper()
	f, err := os.Open("testdata/ip_reference.tsv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	ref := map[string]map[string][]refEntry{}
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		cols := strings.Split(line, "\t")
		if len(cols) != 4 || cols[3] == "" {
			t.Fatalf("ip_reference.tsv:%d: want ip, parameter, domain, source: %q", n, line)
		}
		e := refEntry{cols[0], cols[1], cols[2], cols[3]}
		if _, err := inDomain(e.domain, ""); err != nil {
			t.Fatalf("ip_reference.tsv:%d: %v", n, err)
		}
		if ref[e.ip] == nil {
			ref[e.ip] = map[string][]refEntry{}
		}
		ref[e.ip][e.param] = append(ref[e.ip][e.param], e)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return ref
}

// inDomain reports whether v lies in a domain of ip_reference.tsv; an error
// means the domain itself is malformed.
func inDomain(domain, v string) (bool, error) {
	kind, arg, ok := strings.Cut(domain, ":")
	if kind == "file" {
		return v == "None" || strings.HasSuffix(v, ".xml"), nil
	}
	if !ok {
		return false, fmt.Errorf("domain %q: want kind:argument", domain)
	}
	switch kind {
	case "enum":
		for _, x := range strings.Split(arg, "|") {
			if v == x {
				return true, nil
			}
		}
		return false, nil
	case "glob":
		m, err := path.Match(arg, v)
		return m, err
	case "int", "pow2", "mhz":
		lo, hi, ok := strings.Cut(arg, "..")
		l, err1 := strconv.ParseFloat(lo, 64)
		h, err2 := strconv.ParseFloat(hi, 64)
		if !ok || err1 != nil || err2 != nil || l > h {
			return false, fmt.Errorf("domain %q: want lo..hi", domain)
		}
		x, err := strconv.ParseFloat(v, 64)
		if err != nil || x < l || x > h {
			return false, nil
		}
		switch kind {
		case "int":
			return x == math.Trunc(x), nil
		case "pow2":
			return x == math.Trunc(x) && int64(x)&(int64(x)-1) == 0, nil
		}
		return true, nil
	}
	return false, fmt.Errorf("domain %q: unknown kind %q", domain, kind)
}

// checkReference returns every setting of bd that the reference list does
// not allow: an IP parameter it does not list (a misspelt or invented name)
// or a value outside its domain; the board part; the processing_system7
// automation's rule and options.
func checkReference(ref map[string]map[string][]refEntry, bd *blockDesign) []string {
	var probs []string
	allowed := func(ip, param, v string) string {
		entries := ref[ip][param]
		if len(entries) == 0 {
			return fmt.Sprintf("%s %s = %q: no such parameter in the reference list", ip, param, v)
		}
		var domains []string
		for _, e := range entries {
			if ok, _ := inDomain(e.domain, v); ok {
				return ""
			}
			domains = append(domains, e.domain+" ("+e.source+")")
		}
		return fmt.Sprintf("%s %s = %q: outside %s", ip, param, v, strings.Join(domains, " or "))
	}
	for cell, vlnv := range bd.cells {
		parts := strings.Split(vlnv, ":")
		if len(parts) != 4 || parts[1] != "ip" {
			continue // the module reference has no IP parameters
		}
		for k, v := range bd.config[cell] {
			if p := allowed(parts[2], k, v); p != "" {
				probs = append(probs, cell+": "+p)
			}
		}
	}
	if p := allowed("project", "board_part", bd.board); p != "" {
		probs = append(probs, p)
	}
	found := false
	for _, c := range bd.cmds {
		if c[0] != "apply_bd_automation" {
			continue
		}
		found = true
		for i := 1; i+1 < len(c); i += 2 {
			switch c[i] {
			case "-rule":
				if p := allowed("automation", "rule", c[i+1]); p != "" {
					probs = append(probs, p)
				}
			case "-config":
				opts, err := tclPairs(c[i+1])
				if err != nil {
					probs = append(probs, fmt.Sprintf("apply_bd_automation -config %q: %v", c[i+1], err))
				}
				for _, kv := range opts {
					if p := allowed("automation", kv[0], kv[1]); p != "" {
						probs = append(probs, p)
					}
				}
			}
		}
	}
	if !found {
		probs = append(probs, "no apply_bd_automation: the board preset is never applied")
	}
	return probs
}

// tclPairs splits a Tcl list of key value pairs whose values may be quoted
// ("FIXED_IO, DDR").
func tclPairs(s string) ([][2]string, error) {
	var words []string
	for s = strings.TrimSpace(s); s != ""; s = strings.TrimSpace(s) {
		if s[0] == '"' {
			end := strings.IndexByte(s[1:], '"')
			if end < 0 {
				return nil, fmt.Errorf("unterminated quote")
			}
			words = append(words, s[1:1+end])
			s = s[end+2:]
			continue
		}
		end := strings.IndexAny(s, " \t")
		if end < 0 {
			end = len(s)
		}
		words = append(words, s[:end])
		s = s[end:]
	}
	if len(words)%2 != 0 {
		return nil, fmt.Errorf("%d words: not key value pairs", len(words))
	}
	var out [][2]string
	for i := 0; i < len(words); i += 2 {
		out = append(out, [2]string{words[i], words[i+1]})
	}
	return out, nil
}

// TestSettingsAgainstReference (issue 30, item 6): every parameter the
// script sets on the PS7, the DMA, the SmartConnects and the interrupt
// concat, the board part and the preset automation are checked against a
// reference list taken from Xilinx's documentation and public write_bd_tcl
// exports and board files (testdata/ip_reference.tsv names the source of
// each entry), not against the script's own constants.
func TestSettingsAgainstReference(t *testing.T) {
	ref := loadReference(t)
	fx := newFixture(t)
	bd, out, err := record(t, fx)
	if err != nil || bd.err != "" {
		t.Fatalf("system.tcl failed under the recorder: %v\n%s", err, out)
	}
	for _, p := range checkReference(ref, bd) {
		t.Error(p)
	}
}

// TestReferenceCatchesMistakes is the reference check's control: settings a
// script could get wrong — among them the PCW_IMPORT_BOARD_PRESET {ZedBoard}
// of the script before issue 30 — each fail it.
func TestReferenceCatchesMistakes(t *testing.T) {
	ref := loadReference(t)
	cases := []struct{ name, from, to, want string }{
		{"preset as a board name (issue 30)", "# ... then this design's settings on top of it.",
			"set_property -dict [list CONFIG.PCW_IMPORT_BOARD_PRESET {ZedBoard}] $ps7", "PCW_IMPORT_BOARD_PRESET"},
		{"length register too wide", "CONFIG.c_sg_length_width {26}", "CONFIG.c_sg_length_width {27}", "c_sg_length_width"},
		{"HP0 width", "CONFIG.PCW_S_AXI_HP0_DATA_WIDTH {64}", "CONFIG.PCW_S_AXI_HP0_DATA_WIDTH {48}", "PCW_S_AXI_HP0_DATA_WIDTH"},
		{"misspelt parameter", "CONFIG.c_include_sg {0}", "CONFIG.c_include_sg {0} CONFIG.c_incude_s2mm {1}", "c_incude_s2mm"},
		{"burst not a power of two", "CONFIG.c_mm2s_burst_size {16}", "CONFIG.c_mm2s_burst_size {24}", "c_mm2s_burst_size"},
		{"no board preset", `apply_board_preset "1"`, `apply_board_preset "2"`, "apply_board_preset"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			fx := newFixture(t)
			p := filepath.Join(fx.dir, "vivado/system.tcl")
			b, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(string(b), c.from) {
				t.Fatalf("system.tcl no longer contains %q", c.from)
			}
			if err := os.WriteFile(p, []byte(strings.Replace(string(b), c.from, c.to+"\n"+c.from, 1)), 0o644); err != nil {
				t.Fatal(err)
			}
			if strings.HasPrefix(c.from, "CONFIG.") || strings.HasPrefix(c.from, "apply") {
				// Replace instead of adding a line before.
				if err := os.WriteFile(p, []byte(strings.Replace(string(b), c.from, c.to, 1)), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			bd, out, err := record(t, fx)
			if err != nil && bd.err == "" {
				t.Fatalf("recorder: %v\n%s", err, out)
			}
			probs := checkReference(ref, bd)
			if !strings.Contains(strings.Join(probs, "\n"), c.want) {
				t.Errorf("the reference check missed it (recorder error %q); it found: %q", bd.err, probs)
			}
		})
	}
}
