package docrefs

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

const root = "../.."

// docs returns the hand-written Markdown files, relative to the root.
func docs(t *testing.T) []string {
	t.Helper()
	out := []string{"README.md", "CONTRIBUTING.md", "examples/README.md", "results/README.md"}
	for _, pattern := range []string{"docs/*.md", "results/*/README.md"} {
		m, err := filepath.Glob(filepath.Join(root, pattern))
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range m {
			rel, _ := filepath.Rel(root, p)
			out = append(out, filepath.ToSlash(rel))
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// code is the Go side of the tree: the packages by name, their exported
// names and members, and the test functions.
type code struct {
	// names[pkg][Name]: a top-level declaration of a package named pkg.
	names map[string]map[string]bool
	// members[pkg][Type][Member]: a method or field; embeds[pkg][Type]: the
	// type embeds another (a member may be promoted from it).
	members map[string]map[string]map[string]bool
	embeds  map[string]map[string]bool
	// methods[pkg][Name]: a method of some type of pkg (model.QuantizeReadout
	// names Model's).
	methods map[string]map[string]bool
	tests   map[string]bool
	// made are the files scripts/third-network.sh writes into its
	// throwaway worktree (model/intst.go, …): named by the docs, never
	// committed.
	made map[string]bool
}

func loadCode(t *testing.T) *code {
	t.Helper()
	c := &code{names: map[string]map[string]bool{}, members: map[string]map[string]map[string]bool{},
		embeds: map[string]map[string]bool{}, methods: map[string]map[string]bool{}, tests: map[string]bool{}}
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if path != root && (name == "testdata" || name == "results" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(name, ".go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		c.add(f, strings.HasSuffix(name, "_test.go"))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	script, err := os.ReadFile(filepath.Join(root, "scripts", "third-network.sh"))
	if err != nil {
		t.Fatal(err)
	}
	c.made = map[string]bool{}
	for _, m := range madeFile.FindAllStringSubmatch(string(script), -1) {
		c.made[m[1]] = true
	}
	return c
}

// madeFile is a file third-network.sh writes: cat >"$TREE/model/intst.go".
var madeFile = regexp.MustCompile(`cat >"\$TREE/([^"]+)"`)

func (c *code) add(f *ast.File, test bool) {
	pkg := strings.TrimSuffix(f.Name.Name, "_test")
	if c.names[pkg] == nil {
		c.names[pkg], c.members[pkg], c.embeds[pkg], c.methods[pkg] = map[string]bool{}, map[string]map[string]bool{}, map[string]bool{}, map[string]bool{}
	}
	member := func(typ, m string) {
		if c.members[pkg][typ] == nil {
			c.members[pkg][typ] = map[string]bool{}
		}
		c.members[pkg][typ][m] = true
	}
	for _, decl := range f.Decls {
		switch d := decl.(type) {
		case *ast.FuncDecl:
			if d.Recv == nil {
				c.names[pkg][d.Name.Name] = true
				if test {
					c.tests[d.Name.Name] = true
				}
				continue
			}
			typ := d.Recv.List[0].Type
			for {
				switch x := typ.(type) {
				case *ast.StarExpr:
					typ = x.X
					continue
				case *ast.IndexExpr:
					typ = x.X
					continue
				case *ast.IndexListExpr:
					typ = x.X
					continue
				}
				break
			}
			if id, ok := typ.(*ast.Ident); ok {
				member(id.Name, d.Name.Name)
			}
			c.methods[pkg][d.Name.Name] = true
		case *ast.GenDecl:
			for _, s := range d.Specs {
				switch s := s.(type) {
				case *ast.TypeSpec:
					c.names[pkg][s.Name.Name] = true
					st, ok := s.Type.(*ast.StructType)
					if !ok {
						if _, iface := s.Type.(*ast.InterfaceType); iface {
							for _, m := range s.Type.(*ast.InterfaceType).Methods.List {
								for _, n := range m.Names {
									member(s.Name.Name, n.Name)
								}
							}
						}
						continue
					}
					for _, fl := range st.Fields.List {
						if len(fl.Names) == 0 {
							c.embeds[pkg][s.Name.Name] = true
						}
						for _, n := range fl.Names {
							member(s.Name.Name, n.Name)
						}
					}
				case *ast.ValueSpec:
					for _, n := range s.Names {
						c.names[pkg][n.Name] = true
					}
				}
			}
		}
	}
}

// hasTest reports whether a test function is named name or begins with it
// (go test -run TestBlockROMs, TestBatchPredictor*).
func (c *code) hasTest(name string) bool {
	if c.tests[name] {
		return true
	}
	for t := range c.tests {
		if strings.HasPrefix(t, name) {
			return true
		}
	}
	return false
}

// section markers of recorded runs, not read (doc.go).
var history = regexp.MustCompile(`(?s)<!-- testtimes:([a-z0-9-]+) -->.*?<!-- /testtimes:([a-z0-9-]+) -->`)

var (
	fence    = regexp.MustCompile("(?ms)^\\s*```[^\\n]*\\n(.*?)^\\s*```")
	inline   = regexp.MustCompile("`([^`\\n]+)`")
	link     = regexp.MustCompile(`\]\(([^)\s]+)\)`)
	ident    = regexp.MustCompile(`(?:^|[^A-Za-z0-9_./])([a-z][a-z0-9]*)\.([A-Z][A-Za-z0-9_]*)(?:\.([A-Z][A-Za-z0-9_]*))?`)
	testName = regexp.MustCompile(`\b((?:Test|Benchmark|Fuzz)[A-Z0-9_][A-Za-z0-9_]*)`)
	capsSeg  = regexp.MustCompile(`^[A-Z][A-Z0-9_]*$`)
)

// refs returns the stale references of one document's text: "line: what".
func refs(c *code, top map[string]bool, doc, text string) []string {
	text = history.ReplaceAllStringFunc(text, blank)
	var bad []string
	report := func(at int, format string, args ...any) {
		line := strings.Count(text[:at], "\n") + 1
		bad = append(bad, fmt.Sprintf("%s:%d: %s", doc, line, fmt.Sprintf(format, args...)))
	}
	exists := func(rel string) bool {
		_, err := os.Stat(filepath.Join(root, filepath.FromSlash(rel)))
		return err == nil
	}
	// Links, from the document's folder.
	for _, m := range link.FindAllStringSubmatchIndex(text, -1) {
		target := text[m[2]:m[3]]
		if strings.Contains(target, "://") || strings.HasPrefix(target, "#") || strings.HasPrefix(target, "mailto:") {
			continue
		}
		target, _, _ = strings.Cut(target, "#")
		rel := filepath.ToSlash(filepath.Join(filepath.Dir(doc), target))
		if !exists(rel) {
			report(m[0], "link to %s: no such file", target)
		}
	}
	checkCode := func(at int, span string) {
		cursor := 0
		for _, tok := range strings.FieldsFunc(span, func(r rune) bool {
			return r == ' ' || r == '\t' || r == '\n' || strings.ContainsRune(",;()[]\"'=|`", r)
		}) {
			i := strings.Index(span[cursor:], tok)
			tokAt := at + cursor + i
			cursor += i + len(tok)
			p := strings.TrimPrefix(strings.TrimRight(tok, ".:"), "./")
			if i := strings.IndexAny(p, "#@"); i >= 0 {
				p = p[:i]
			}
			if i := strings.Index(p, ".go:"); i >= 0 { // file.go:LINE
				p = p[:i+3]
			}
			first, _, hasSlash := strings.Cut(p, "/")
			if !top[first] || (!hasSlash && !strings.Contains(p, ".")) || strings.Contains(p, "://") ||
				strings.ContainsAny(p, "*<>…{}$%~") {
				continue
			}
			if slices.ContainsFunc(strings.Split(p, "/"), placeholder) && !exists(p) {
				continue // a placeholder: results/DIR, scripts/NAME.go
			}
			if dir, name, ok := cutIdent(p); ok && exists(dir) {
				_ = name // rtl/plan.Options: the identifier check below reads it
				continue
			}
			if designFile(p) || c.made[p] {
				continue
			}
			if !exists(strings.TrimSuffix(p, "/")) {
				report(tokAt, "%s: no such file or folder", tok)
			}
		}
		for _, m := range ident.FindAllStringSubmatch(span, -1) {
			pkg, name, mem := m[1], m[2], m[3]
			names, ok := c.names[pkg]
			if !ok || pkg == "main" {
				continue // not a package of the module (json.Marshal, hdlgen.Device)
			}
			if !names[name] && !c.methods[pkg][name] {
				report(at, "%s.%s: package %s has no such name", pkg, name, pkg)
				continue
			}
			if mem != "" && c.members[pkg][name] != nil && !c.members[pkg][name][mem] && !c.embeds[pkg][name] {
				report(at, "%s.%s.%s: %s has no method or field %s", pkg, name, mem, name, mem)
			}
		}
		for _, m := range testName.FindAllStringSubmatchIndex(span, -1) {
			name := span[m[2]:m[3]]
			if !c.hasTest(name) {
				report(at+m[0], "%s: no test function of this name or beginning with it", name)
			}
		}
	}
	fenced := fence.FindAllStringSubmatchIndex(text, -1)
	for _, m := range fenced {
		checkCode(m[2], text[m[2]:m[3]])
	}
	rest := fence.ReplaceAllStringFunc(text, blank)
	for _, m := range inline.FindAllStringSubmatchIndex(rest, -1) {
		checkCode(m[2], rest[m[2]:m[3]])
	}
	return bad
}

// placeholder reports whether a path element is a name in capitals (DIR,
// NAME.go): a placeholder, when no such file exists.
func placeholder(elem string) bool {
	stem, _, _ := strings.Cut(elem, ".")
	return capsSeg.MatchString(stem)
}

// blank replaces every byte of s but its newlines by spaces, keeping
// the offsets and line numbers of the text around it.
func blank(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c != '\n' {
			b[i] = ' '
		}
	}
	return string(b)
}

// cutIdent splits dir/pkg.Name (a package path and an exported name).
func cutIdent(p string) (dir, name string, ok bool) {
	i := strings.LastIndex(p, ".")
	if i < 0 || i+1 >= len(p) || strings.Contains(p[i:], "/") || p[i+1] < 'A' || p[i+1] > 'Z' {
		return "", "", false
	}
	return p[:i], p[i+1:], true
}

// designFolders are the folders of an emitted design (designdir) that share
// a name with a folder of the repository; designExts are the extensions of
// the files the emitter writes there.
var (
	designFolders = []string{"rtl", "vivado", "constraints"}
	designExts    = []string{".v", ".sv", ".tcl", ".xdc", ".pcf", ".mem", ".hex", ".vh"}
)

// designFile reports whether p names a file of an emitted design folder
// (rtl/hdlgen_rom.v, vivado/system.tcl) rather than of the repository.
func designFile(p string) bool {
	first, rest, _ := strings.Cut(p, "/")
	return slices.Contains(designFolders, first) && !strings.Contains(rest, "/") &&
		slices.Contains(designExts, filepath.Ext(p))
}

// topLevel returns the names of the repository's top-level entries.
func topLevel(t *testing.T) map[string]bool {
	t.Helper()
	entries, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	top := map[string]bool{}
	for _, e := range entries {
		// Hidden entries and the git-ignored output folders (bin/, build/)
		// are not the repository's: a path under them names a user's output.
		if !strings.HasPrefix(e.Name(), ".") && e.Name() != "bin" && e.Name() != "build" {
			top[e.Name()] = true
		}
	}
	return top
}

// TestDocsNameWhatExists: every file, package, exported name and test the
// documentation names exists.
func TestDocsNameWhatExists(t *testing.T) {
	c := loadCode(t)
	top := topLevel(t)
	for _, doc := range docs(t) {
		text, err := os.ReadFile(filepath.Join(root, doc))
		if err != nil {
			t.Fatal(err)
		}
		for _, b := range refs(c, top, doc, string(text)) {
			t.Error(b)
		}
	}
}

// TestRefsFindsStale: each kind of reference is read, a stale one reported
// and a live one, a placeholder or a recorded run left alone.
func TestRefsFindsStale(t *testing.T) {
	c := loadCode(t)
	top := topLevel(t)
	for _, tc := range []struct {
		text string
		bad  int
	}{
		{"`model/train.go` and `rtl/plan.Options`", 0},
		{"`model/nosuch.go`", 1},
		{"`designpower/activity.go`", 0}, // not a top-level folder: not read as a path
		{"`study/tune/dual.go`", 1},
		{"`model.Train`, `plan.Options`, `tune.Task.SearchMore`, `model.QuantizeReadout`", 0},
		{"`model.NoSuchName`", 1},
		{"`tune.Task.NoSuchMethod`", 1},
		{"`json.Marshal` and `hdlgen.Device`", 0},
		{"`go test ./e2e -run TestEmittedBytes`", 0},
		{"`TestNoSuchThing`", 1},
		{"[the semantics](semantics.md) and [x](nosuch.md#a)", 1},
		{"```sh\ngo run scripts/testtimes.go\ngo run scripts/nosuch.go\n```", 1},
		{"`rtl/hdlgen_rom.v`, `vivado/system.tcl`, `results/DIR/summary.md`, `rtl/templates/core_<net>.v.tmpl`", 0},
		{"<!-- testtimes:old -->\n| study/tune | `study/tune/x.go` |\n<!-- /testtimes:old -->", 0},
		{"`model/introm.go`", 0}, // written by third-network.sh
		{"`go run scripts/NAME.go`", 0},
	} {
		got := refs(c, top, "docs/x.md", tc.text)
		if len(got) != tc.bad {
			t.Errorf("%q: %d stale references %q, want %d", tc.text, len(got), got, tc.bad)
		}
	}
}
