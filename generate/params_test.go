package generate

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// maxParams is the most parameters a function of package generate may
// take: one asset's state travels as a job (job.go), not piece by piece.
const maxParams = 6

// TestNoLongParameterLists parses the package's product files and fails
// on any function, method or function literal taking more than maxParams
// parameters (the receiver not counted).
func TestNoLongParameterLists(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	checked := 0
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		f, err := parser.ParseFile(fset, name, src, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, bad := range longParameterLists(f) {
			t.Errorf("%s: %s takes %d parameters, more than %d", fset.Position(bad.pos), bad.name, bad.n, maxParams)
		}
		checked++
	}
	if checked == 0 {
		t.Fatal("no product file of package generate found")
	}
}

// longParameterList is a function whose parameters exceed maxParams.
type longParameterList struct {
	name string
	pos  token.Pos
	n    int
}

// longParameterLists returns the functions of f, declared or literal,
// that take more than maxParams parameters.
func longParameterLists(f *ast.File) []longParameterList {
	var out []longParameterList
	ast.Inspect(f, func(n ast.Node) bool {
		var ft *ast.FuncType
		name := "a function literal"
		switch fn := n.(type) {
		case *ast.FuncDecl:
			ft, name = fn.Type, fn.Name.Name
		case *ast.FuncLit:
			ft = fn.Type
		default:
			return true
		}
		count := 0
		for _, field := range ft.Params.List {
			count += max(1, len(field.Names)) // an unnamed parameter is one
		}
		if count > maxParams {
			out = append(out, longParameterList{name, ft.Pos(), count})
		}
		return true
	})
	return out
}

// TestLongParameterListsFound checks the check: it finds a declared
// function and a literal over the limit, counting grouped and unnamed
// parameters, and passes one at the limit.
func TestLongParameterListsFound(t *testing.T) {
	src := `package p
func ok(a, b, c int, d string, e, f bool) {}
func long(a, b, c int, d string, e, f bool, g float64) {}
var lit = func(int, int, int, int, int, int, int) {}
type T struct{}
func (T) method(a, b, c, d, e, f int) {}
`
	f, err := parser.ParseFile(token.NewFileSet(), "p.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	got := longParameterLists(f)
	if len(got) != 2 || got[0].name != "long" || got[0].n != 7 || got[1].name != "a function literal" || got[1].n != 7 {
		t.Errorf("found %+v, want long (7) and a function literal (7)", got)
	}
}
