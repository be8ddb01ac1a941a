// Package example gives the tests the example the project ships with,
// whatever organisation's values bootstrap wrote into its files: Back
// and ReadFile turn a file's values back into the example's
// (answers.Example), for a test that compares what it reads with the
// example's values; L turns a fixture written with the example's values
// into the files' own (answers.File), for a test of what the program
// makes of the files as they are. On the example itself both change
// nothing.
package example

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/company/harness-platform/bootstrap/answers"
)

// recorded is answers.File of the module the test runs in.
var recorded = sync.OnceValues(func() (answers.Answers, error) {
	dir, err := os.Getwd()
	if err != nil {
		return answers.Answers{}, err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return answers.Recorded(dir)
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return answers.Answers{}, os.ErrNotExist
		}
		dir = parent
	}
})

// Answers are the files' answers.
func Answers(t testing.TB) answers.Answers {
	t.Helper()
	a, err := recorded()
	if err != nil {
		t.Fatalf("the files' answers (%s): %v", answers.File, err)
	}
	return a
}

// L is s, written with the example's values, with the files' own.
func L(t testing.TB, s string) string { t.Helper(); return In(t, "", s) }

// In is L for a text of file, where the file tells what a value is (the
// secrets' region only in the stack files and esc/).
func In(t testing.TB, file, s string) string {
	t.Helper()
	out, err := answers.Localize(file, s, answers.Example, Answers(t))
	if err != nil {
		t.Fatalf("the fixture cannot be rewritten into the files' answers: %v", err)
	}
	return out
}

// Back is data, the content of file (its path in the project), with the
// example's values in place of the files' own.
func Back(t testing.TB, file string, data []byte) []byte {
	t.Helper()
	out, err := answers.Localize(file, string(data), Answers(t), answers.Example)
	if err != nil {
		t.Fatalf("%s cannot be read as the example: %v", file, err)
	}
	return []byte(out)
}

// ReadFile reads the file at p (relative to the test's directory, e.g.
// ../Pulumi.dev.yaml) with the example's values (Back).
func ReadFile(t testing.TB, p string) []byte {
	t.Helper()
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	name := filepath.ToSlash(filepath.Clean(p))
	for strings.HasPrefix(name, "../") {
		name = name[3:]
	}
	return Back(t, name, data)
}
