package synth

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// The files Yosys reads are the ones that define the top and the modules it
// instantiates, directly or indirectly; every other file of rtl/ is left out.
//
// Why: Yosys's result is not independent of modules that hierarchy -top later
// removes. Each file read adds modules (and names) to the design, which
// changes the order in which Yosys derives, flattens and numbers cells; ABC's
// LUT mapping (dch -f; if) is a heuristic that depends on the order of the
// netlist it gets, so the same logic can map to a different number of LUT6
// sites. Measured on the median intRVFL at P = 8: the stream top synthesised
// from its 11 files gives 1241 LUT6 sites (57 MUXF7), and with the four unused
// AXI4-Stream files that `hdlgen emit --axis` adds it gives 1508 (328 MUXF7)
// for the same 2355/2354 ABC LUTs and identical FF and CARRY4 counts. Reading
// only the needed files makes the report (and the cache key) a function of
// the synthesised design alone.

// verilogModule is one module declaration found by scanVerilog.
type verilogModule struct {
	name string
	refs []string // identifiers in its body, in first-use order, without duplicates
}

// scanVerilog lists the modules a Verilog-2005 source defines, each with the
// identifiers used in its body. Comments, string literals, compiler
// directives (`name) and escaped identifiers are skipped. It is a scanner, not
// a parser: an identifier that names a module counts as an instantiation,
// which may include a file too many but never leaves one out.
func scanVerilog(src string) ([]verilogModule, error) {
	var mods []verilogModule
	var cur *verilogModule
	var seen map[string]bool
	expectName := false
	i, n := 0, len(src)
	for i < n {
		c := src[i]
		switch {
		case c == '/' && i+1 < n && src[i+1] == '/':
			j := strings.IndexByte(src[i:], '\n')
			if j < 0 {
				i = n
			} else {
				i += j
			}
		case c == '/' && i+1 < n && src[i+1] == '*':
			j := strings.Index(src[i+2:], "*/")
			if j < 0 {
				return nil, fmt.Errorf("unterminated block comment")
			}
			i += 2 + j + 2
		case c == '"':
			j := i + 1
			for j < n && src[j] != '"' && src[j] != '\n' {
				if src[j] == '\\' {
					j++
				}
				j++
			}
			if j >= n || src[j] != '"' {
				return nil, fmt.Errorf("unterminated string literal")
			}
			i = j + 1
		case c == '`' || c == '\\' || c == '$':
			// Directive, escaped identifier or system task: skip the word.
			j := i + 1
			for j < n && !isSpace(src[j]) && (c == '\\' || isIdentChar(src[j])) {
				j++
			}
			i = j
		case isIdentStart(c):
			j := i + 1
			for j < n && isIdentChar(src[j]) {
				j++
			}
			word := src[i:j]
			i = j
			switch {
			case expectName:
				if cur != nil {
					return nil, fmt.Errorf("module %s inside module %s", word, cur.name)
				}
				mods = append(mods, verilogModule{name: word})
				cur, seen, expectName = &mods[len(mods)-1], map[string]bool{}, false
			case word == "module" || word == "macromodule":
				expectName = true
			case word == "endmodule":
				if cur == nil {
					return nil, fmt.Errorf("endmodule without module")
				}
				cur = nil
			case cur != nil && !seen[word]:
				seen[word] = true
				cur.refs = append(cur.refs, word)
			}
		case c >= '0' && c <= '9':
			// A number, possibly sized or based (8'hff, 'b1010): skip its digits
			// and letters so that "hff" is not taken for an identifier.
			j := i + 1
			for j < n && (isIdentChar(src[j]) || src[j] == '\'') {
				j++
			}
			i = j
		case c == '\'':
			j := i + 1
			for j < n && (isIdentChar(src[j]) || src[j] == '\'') {
				j++
			}
			i = j
		default:
			i++
		}
	}
	if expectName {
		return nil, fmt.Errorf("module keyword without a name")
	}
	if cur != nil {
		return nil, fmt.Errorf("module %s has no endmodule", cur.name)
	}
	return mods, nil
}

func isSpace(c byte) bool      { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' }
func isIdentStart(c byte) bool { return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
func isIdentChar(c byte) bool  { return isIdentStart(c) || c >= '0' && c <= '9' || c == '$' }

// neededFiles returns the files among files (DIR-relative, in their order)
// that define top and every module it instantiates, directly or indirectly,
// and the others.
func neededFiles(dir string, files []string, top string) (needed, unused []string, err error) {
	defined := map[string]string{} // module → file
	refs := map[string][]string{}  // module → identifiers in its body
	for _, f := range files {
		b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(f)))
		if err != nil {
			return nil, nil, fmt.Errorf("synth: %w", err)
		}
		mods, err := scanVerilog(string(b))
		if err != nil {
			return nil, nil, fmt.Errorf("synth: scanning %s: %w", f, err)
		}
		for _, m := range mods {
			if prev, ok := defined[m.name]; ok {
				return nil, nil, fmt.Errorf("synth: module %s is defined in %s and in %s", m.name, prev, f)
			}
			defined[m.name], refs[m.name] = f, m.refs
		}
	}
	if _, ok := defined[top]; !ok {
		return nil, nil, fmt.Errorf("synth: no file of %s defines the top module %s", strings.Join(files, ", "), top)
	}
	use := map[string]bool{} // files
	followed := map[string]bool{top: true}
	queue := []string{top}
	for len(queue) > 0 {
		m := queue[0]
		queue = queue[1:]
		use[defined[m]] = true
		for _, r := range refs[m] {
			if _, ok := defined[r]; ok && !followed[r] {
				followed[r] = true
				queue = append(queue, r)
			}
		}
	}
	for _, f := range files {
		if use[f] {
			needed = append(needed, f)
		} else {
			unused = append(unused, f)
		}
	}
	return needed, unused, nil
}
