package simulated

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

const module = "github.com/company/harness-platform/simulated"

// rooms are the simulated services, each its own package beside core.
var rooms = []string{"harness", "aws", "kubernetes", "github"}

// parseDir parses the non-test Go files of the package in dir.
func parseDir(t *testing.T, dir string) (*token.FileSet, []*ast.File) {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	var files []*ast.File
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), ".go") || strings.HasSuffix(e.Name(), "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, filepath.Join(dir, e.Name()), nil, parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	return fset, files
}

// Imports point one way: a room imports core and no other room; core
// imports no room; each has a package doc.
func TestRoomsImportOnlyCore(t *testing.T) {
	for _, pkg := range append([]string{"core"}, rooms...) {
		fset, files := parseDir(t, pkg)
		doc := false
		for _, f := range files {
			doc = doc || f.Doc != nil
			for _, imp := range f.Imports {
				path, _ := strconv.Unquote(imp.Path.Value)
				if !strings.HasPrefix(path, module) {
					continue
				}
				if pkg == "core" || path != module+"/core" {
					t.Errorf("%s: package %s imports %s: rooms import core only, core imports no room", fset.Position(imp.Pos()), pkg, path)
				}
			}
		}
		if !doc {
			t.Errorf("package %s has no package doc (what it stands in for, and what it does not do)", pkg)
		}
	}
}

// Core never asks which service it serves: no provider's name is in its
// code (a room's Behavior carries what differs).
func TestCoreNamesNoService(t *testing.T) {
	fset, files := parseDir(t, "core")
	for _, f := range files {
		ast.Inspect(f, func(n ast.Node) bool {
			lit, ok := n.(*ast.BasicLit)
			if !ok || lit.Kind != token.STRING {
				return true
			}
			s, _ := strconv.Unquote(lit.Value)
			for _, room := range rooms {
				if s == room {
					t.Errorf("%s: core names the service %q; put what differs in its room's Behavior", fset.Position(lit.Pos()), s)
				}
			}
			return true
		})
	}
}
