// Package diag carries input problems as file:line:col diagnostics, so that
// every problem in the catalog and the stack files is reported at once.
package diag

import (
	"fmt"
	"sort"
	"strings"
)

// Diagnostic is one problem in one input file.
type Diagnostic struct {
	File    string // path relative to the project directory
	Line    int    // 1-based; 0 when the problem concerns the whole file
	Col     int    // 1-based
	Message string // what is wrong
	Fix     string // what to do about it
}

func (d Diagnostic) String() string {
	var b strings.Builder
	b.WriteString(Pos{d.File, d.Line, d.Col}.String())
	b.WriteString(": ")
	b.WriteString(d.Message)
	if d.Fix != "" {
		b.WriteString("; ")
		b.WriteString(d.Fix)
	}
	return b.String()
}

// List collects diagnostics. Its zero value is ready to use.
type List []Diagnostic

// Add appends a diagnostic.
func (l *List) Add(file string, line, col int, fix, format string, args ...any) {
	*l = append(*l, Diagnostic{File: file, Line: line, Col: col, Message: fmt.Sprintf(format, args...), Fix: fix})
}

// Sorted returns the diagnostics ordered by file, line and column, without
// duplicates, so the output is stable whatever order the checks ran in.
func (l List) Sorted() List {
	out := append(List(nil), l...)
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.File != b.File {
			return a.File < b.File
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		return a.Col < b.Col
	})
	dedup := out[:0]
	for i, d := range out {
		if i > 0 && d == out[i-1] {
			continue
		}
		dedup = append(dedup, d)
	}
	return dedup
}

// Err returns nil when the list is empty and an *Error otherwise.
func (l List) Err() error {
	if len(l) == 0 {
		return nil
	}
	return &Error{List: l.Sorted()}
}

// Error is the error form of a non-empty List.
type Error struct{ List List }

func (e *Error) Error() string {
	return fmt.Sprintf("%d problem(s) in the catalog or stack files:\n%s", len(e.List), e.List)
}

// String is the diagnostics, one per line.
func (l List) String() string {
	lines := make([]string, len(l))
	for i, d := range l {
		lines[i] = d.String()
	}
	return strings.Join(lines, "\n")
}

// Pos is a place in an input file.
type Pos struct {
	File      string
	Line, Col int
}

// String is file:line:col, or the file alone without a line.
func (p Pos) String() string {
	if p.Line > 0 {
		return fmt.Sprintf("%s:%d:%d", p.File, p.Line, max(p.Col, 1))
	}
	return p.File
}

// At adds a diagnostic at pos.
func (l *List) At(pos Pos, fix, format string, args ...any) {
	l.Add(pos.File, pos.Line, pos.Col, fix, format, args...)
}
