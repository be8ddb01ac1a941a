package ghrunner

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
)

// hashFiles is GitHub's hashFiles(path, ...) over the workspace, as the
// Actions runner computes it (actions/runner,
// src/Misc/expressionFunc/hashFiles/src/hashFiles.ts): the files the
// patterns match under GITHUB_WORKSPACE (a pattern starting with "!"
// excludes), each file's SHA-256 digest written in turn into one SHA-256,
// whose hex is the value; "" when no file matches ("Returns a single hash
// for the set of files that matches the path pattern", docs.github.com,
// "Evaluate expressions in workflows and actions", hashFiles). act's own
// hashes the files' contents concatenated, which is another value, so
// the runner gives act this one. Files are taken in lexical order (the
// runner's globber yields them in its search order, which is lexical
// on a sorted directory listing).
func hashFiles(workspace string) func([]reflect.Value) (any, error) {
	return func(args []reflect.Value) (any, error) {
		var include, exclude []string
		for _, a := range args {
			if a.Kind() != reflect.String {
				return nil, fmt.Errorf("hashFiles: the patterns must be strings")
			}
			for _, p := range strings.Split(a.String(), "\n") {
				p = strings.TrimPrefix(strings.TrimSpace(p), "./")
				switch {
				case p == "":
				case strings.HasPrefix(p, "!"):
					exclude = append(exclude, strings.TrimPrefix(strings.TrimPrefix(p, "!"), "./"))
				default:
					include = append(include, p)
				}
			}
		}
		if workspace == "" {
			return "", nil
		}
		fsys := os.DirFS(workspace)
		var files []string
		err := fs.WalkDir(fsys, ".", func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			matches := func(patterns []string) bool {
				for _, p := range patterns {
					if ok, _ := doublestar.Match(p, path); ok {
						return true
					}
				}
				return false
			}
			if matches(include) && !matches(exclude) {
				files = append(files, path)
			}
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("hashFiles: %w", err)
		}
		if len(files) == 0 {
			return "", nil
		}
		sort.Strings(files)
		result := sha256.New()
		for _, f := range files {
			h := sha256.New()
			file, err := os.Open(filepath.Join(workspace, f))
			if err != nil {
				return nil, fmt.Errorf("hashFiles: %w", err)
			}
			_, err = io.Copy(h, file)
			file.Close()
			if err != nil {
				return nil, fmt.Errorf("hashFiles: %w", err)
			}
			result.Write(h.Sum(nil))
		}
		return hex.EncodeToString(result.Sum(nil)), nil
	}
}
