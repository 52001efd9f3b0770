package proc

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"
)

// TestEveryCommandIsSetUp: every function of hdlgen's packages that makes a
// process (exec.Command, exec.CommandContext) also calls Setup, so that no
// tool outlives hdlgen or its context. Tests and the development scripts
// (scripts/) are not hdlgen's commands and are not checked.
func TestEveryCommandIsSetUp(t *testing.T) {
	root := filepath.Join("..", "..")
	fset := token.NewFileSet()
	checked := 0
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		if d.IsDir() {
			switch {
			case rel == "scripts", rel == filepath.Join("internal", "proc"), d.Name() == "testdata", strings.HasPrefix(d.Name(), ".") && rel != ".":
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		for _, decl := range f.Decls {
			fn, ok := decl.(*ast.FuncDecl)
			if !ok || fn.Body == nil {
				continue
			}
			var makes []token.Pos
			setUp := false
			ast.Inspect(fn.Body, func(n ast.Node) bool {
				sel, ok := n.(*ast.SelectorExpr)
				if !ok {
					return true
				}
				if x, ok := sel.X.(*ast.Ident); ok {
					switch {
					case x.Name == "exec" && (sel.Sel.Name == "Command" || sel.Sel.Name == "CommandContext"):
						makes = append(makes, sel.Pos())
					case x.Name == "proc" && sel.Sel.Name == "Setup":
						setUp = true
					}
				}
				return true
			})
			if len(makes) > 0 {
				checked++
				if !setUp {
					t.Errorf("%s: %s makes a process without proc.Setup", fset.Position(makes[0]), fn.Name.Name)
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked == 0 {
		t.Fatal("found no function that makes a process: the walk missed the packages")
	}
	t.Logf("%d functions make processes", checked)
}
