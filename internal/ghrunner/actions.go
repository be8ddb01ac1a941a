package ghrunner

import (
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// The stand-ins of the actions the workflows use. Each does what its
// action does to the job (files, outputs, variables, PATH) with what a
// machine without GitHub has, and refuses what the action refuses; its
// doc comment says what it does not do.

// Checkout stands in for actions/checkout@v4: it fetches the run's
// commit (with: ref, else github.sha) from the Origin into the
// workspace (with: path under it) as actions/checkout does, git init,
// then git fetch at fetch-depth (default 1: a shallow clone, so a step
// that needs history fails as it would on GitHub; 0: every branch and
// pull request ref), then a detached checkout. with: repository naming
// another repository links its directory from Runner.Repos instead, when
// with: token is a token minted for it (CreateGitHubAppToken); the job's
// own token reads only its repository, and git's answer is GitHub's for
// a private repository it cannot read ("Repository not found").
// It does not: persist credentials (no token is written to
// .git/config, whatever persist-credentials says; nothing offline needs
// one), fetch tags for fetch-depth 1, submodules, LFS, sparse
// checkouts, or check out a pull request's merge commit (a pull
// request's branch is made from main's tip, so its head is that merge).
func Checkout(s *StepContext) error {
	dest := filepath.Join(s.Workspace, s.With["path"])
	o := s.Runner.Origin
	if repo := s.With["repository"]; repo != "" && repo != o.Repo {
		dir, ok := s.Runner.Repos[repo]
		if !ok {
			return fmt.Errorf("repository %s is not known to this runner (Runner.Repos)", repo)
		}
		// The job's own token (with: token's default) reads only its
		// repository; another needs a token minted for it (apptoken.go).
		if !s.Runner.reads(s.With["token"], repo) {
			return fmt.Errorf("remote: Repository not found.\nfatal: repository 'https://github.com/%s/' not found "+
				"(the token reads only %s: mint one for %s with actions/create-github-app-token and pass it as with: token)", repo, o.Repo, repo)
		}
		if err := os.RemoveAll(dest); err != nil {
			return err
		}
		if err := os.MkdirAll(filepath.Dir(dest), 0o755); err != nil {
			return err
		}
		return os.Symlink(dir, dest)
	}
	sha := s.With["ref"]
	if sha == "" {
		sha = s.Job.Run.Event.SHA
	}
	depth := 1
	if d := s.With["fetch-depth"]; d != "" {
		var err error
		if depth, err = strconv.Atoi(d); err != nil {
			return fmt.Errorf("fetch-depth %q: %w", d, err)
		}
	}
	if err := os.MkdirAll(dest, 0o755); err != nil {
		return err
	}
	steps := [][]string{{"init", "-q"}, {"remote", "add", "origin", "file://" + o.Dir}}
	if depth == 0 {
		steps = append(steps, []string{"fetch", "-q", "--prune", "origin", "+refs/heads/*:refs/remotes/origin/*", "+refs/pull/*:refs/remotes/pull/*", "+refs/tags/*:refs/tags/*"},
			[]string{"fetch", "-q", "origin", sha})
	} else {
		steps = append(steps, []string{"fetch", "-q", "--no-tags", "--depth=" + strconv.Itoa(depth), "origin", sha})
	}
	steps = append(steps, []string{"checkout", "-q", "--detach", sha})
	for _, args := range steps {
		if _, err := git(dest, args...); err != nil {
			return err
		}
	}
	fmt.Fprintf(s.Log, "checked out %s at %s (fetch-depth %d) into %s\n", o.Repo, sha, depth, dest)
	return nil
}

// SetupGo stands in for actions/setup-go@v5: it puts dir first on PATH
// (a go of the machine's, or a shim of it) after checking that the
// go-version-file and cache-dependency-path it names exist in the
// workspace. It does not: install the version go-version-file names
// (the machine's Go is used), or restore or save Go's caches (the
// machine's are shared by every job).
func SetupGo(dir string) Action {
	return func(s *StepContext) error {
		for _, in := range []string{"go-version-file", "cache-dependency-path"} {
			if f := s.With[in]; f != "" {
				if _, err := os.Stat(filepath.Join(s.Workspace, f)); err != nil {
					return fmt.Errorf("%s %s: %w", in, f, err)
				}
			}
		}
		s.AddPath(dir)
		return nil
	}
}

// Cache stands in for actions/cache@v4: every restore misses
// (cache-hit is false) and nothing is saved; the key and path must be
// set, as the action requires. It does not: cache anything.
func Cache(s *StepContext) error {
	if s.With["key"] == "" || s.With["path"] == "" {
		return fmt.Errorf("Input required and not supplied: %s", map[bool]string{true: "key", false: "path"}[s.With["key"] == ""])
	}
	s.Outputs["cache-hit"] = "false"
	fmt.Fprintf(s.Log, "Cache not found for input keys: %s\n", s.With["key"])
	return nil
}

// UploadArtifact stands in for actions/upload-artifact@v4: it copies
// the files the path patterns match (one per line, relative to the
// workspace, * ? ** and !exclusions; a directory means all below it)
// into the run's artifact of that name, rooted at the patterns' least
// common search path, as v4 roots it. As v4 does, it skips hidden files
// and directories (a name starting with '.'), a searched directory
// itself included, unless include-hidden-files is true; applies
// if-no-files-found (warn, the default: no artifact; error; ignore);
// and refuses a name the run already holds from any attempt, "an
// artifact with this name already exists on the workflow run", unless
// overwrite is true. It does not: compress, keep retention-days, or
// follow symbolic links out of the workspace.
func UploadArtifact(s *StepContext) error {
	name := s.With["name"]
	if name == "" {
		name = "artifact"
	}
	if s.With["path"] == "" {
		return fmt.Errorf("Input required and not supplied: path")
	}
	var include, exclude []string
	for _, line := range strings.Split(s.With["path"], "\n") {
		line = strings.TrimSpace(line)
		switch {
		case line == "" || strings.HasPrefix(line, "#"):
		case strings.HasPrefix(line, "!"):
			exclude = append(exclude, strings.TrimPrefix(line, "!"))
		default:
			include = append(include, line)
		}
	}
	hidden := s.With["include-hidden-files"] == "true"
	files := map[string]bool{}
	var roots []string
	for _, pat := range include {
		root, matches, err := globFiles(s.Workspace, pat, hidden)
		if err != nil {
			return err
		}
		roots = append(roots, root)
		for _, m := range matches {
			files[m] = true
		}
	}
	for _, pat := range exclude {
		_, matches, err := globFiles(s.Workspace, pat, true)
		if err != nil {
			return err
		}
		for _, m := range matches {
			delete(files, m)
		}
	}
	if len(files) == 0 {
		msg := fmt.Sprintf("No files were found with the provided path: %s. No artifacts will be uploaded.", strings.Join(include, ", "))
		switch s.With["if-no-files-found"] {
		case "error":
			return fmt.Errorf("%s", msg)
		case "ignore":
			fmt.Fprintln(s.Log, msg)
		default:
			fmt.Fprintln(s.Log, "::warning::"+msg)
		}
		return nil
	}
	run := s.Job.Run
	if old, ok := run.Artifacts[name]; ok {
		if s.With["overwrite"] != "true" {
			return fmt.Errorf("Failed to CreateArtifact: Received non-retryable error: Failed request: (409) Conflict: an artifact with this name already exists on the workflow run (%s, uploaded by %s in attempt %d)",
				name, old.Job, old.Attempt)
		}
		if err := os.RemoveAll(old.Dir); err != nil {
			return err
		}
		delete(run.Artifacts, name)
	}
	root := commonRoot(roots)
	dir := filepath.Join(s.Runner.Root, fmt.Sprintf("run-%d", run.ID), "artifacts", name)
	a := &Artifact{Name: name, Dir: dir, Job: s.Job.Name, Attempt: run.Attempt}
	for _, f := range slices.Sorted(maps.Keys(files)) {
		rel, err := filepath.Rel(root, f)
		if err != nil {
			return err
		}
		if err := copyFile(f, filepath.Join(dir, rel)); err != nil {
			return err
		}
		a.Files = append(a.Files, filepath.ToSlash(rel))
	}
	run.Artifacts[name] = a
	s.Outputs["artifact-id"] = strconv.Itoa(len(run.Artifacts))
	s.Outputs["artifact-url"] = fmt.Sprintf("https://github.com/%s/actions/runs/%d/artifacts/%s", s.Runner.Origin.Repo, run.ID, name)
	fmt.Fprintf(s.Log, "uploaded artifact %s: %d files\n", name, len(a.Files))
	return nil
}

// DownloadArtifact stands in for actions/download-artifact@v4: with a
// name, it copies that artifact of the run (whichever attempt uploaded
// it) into path (default: the workspace), and fails as v4 does when the
// run has none of that name; without one, every artifact into
// path/<name>/. It does not: download other runs' artifacts
// (run-id, github-token), patterns, or merge-multiple.
func DownloadArtifact(s *StepContext) error {
	run := s.Job.Run
	dest := filepath.Join(s.Workspace, s.With["path"])
	var names []string
	if name := s.With["name"]; name != "" {
		if _, ok := run.Artifacts[name]; !ok {
			return fmt.Errorf("Unable to download artifact(s): Artifact not found for name: %s\n        Please ensure that your artifact is not expired and the artifact was uploaded using a compatible version of toolkit/upload-artifact.", name)
		}
		names = []string{name}
	} else {
		names = slices.Sorted(maps.Keys(run.Artifacts))
	}
	for _, name := range names {
		a := run.Artifacts[name]
		to := dest
		if s.With["name"] == "" {
			to = filepath.Join(dest, name)
		}
		for _, f := range a.Files {
			if err := copyFile(filepath.Join(a.Dir, filepath.FromSlash(f)), filepath.Join(to, filepath.FromSlash(f))); err != nil {
				return err
			}
		}
		fmt.Fprintf(s.Log, "downloaded artifact %s (attempt %d's): %d files into %s\n", name, a.Attempt, len(a.Files), to)
	}
	s.Outputs["download-path"] = dest
	return nil
}

func copyFile(from, to string) error {
	data, err := os.ReadFile(from)
	if err != nil {
		return err
	}
	info, err := os.Stat(from)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
		return err
	}
	return os.WriteFile(to, data, info.Mode().Perm())
}

// globFiles are the files under workspace that pattern matches, as
// @actions/glob finds them: from the pattern's search path (its
// segments before the first wildcard), a directory matching meaning
// every file below it, hidden names (a searched directory's own
// included) skipped unless hidden. root is the search path, or a
// matched file's directory when the search path is that file.
func globFiles(workspace, pattern string, hidden bool) (root string, files []string, err error) {
	pattern = strings.TrimSuffix(path.Clean(filepath.ToSlash(pattern)), "/")
	segs := strings.Split(pattern, "/")
	i := 0
	for i < len(segs) && !strings.ContainsAny(segs[i], "*?[") {
		i++
	}
	search := filepath.Join(workspace, filepath.FromSlash(strings.Join(segs[:i], "/")))
	root = search
	info, err := os.Lstat(search)
	if os.IsNotExist(err) {
		return root, nil, nil
	}
	if err != nil {
		return "", nil, err
	}
	if !info.IsDir() {
		root = filepath.Dir(search)
	}
	err = filepath.WalkDir(search, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !hidden && strings.HasPrefix(d.Name(), ".") {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if d.IsDir() {
			return nil
		}
		rel, err := filepath.Rel(workspace, p)
		if err != nil {
			return err
		}
		if matchDescendant(segs, strings.Split(filepath.ToSlash(rel), "/")) {
			files = append(files, p)
		}
		return nil
	})
	return root, files, err
}

// matchDescendant reports whether the path's segments match the
// pattern's, or those of a directory the pattern matches (implicit
// descendants).
func matchDescendant(pattern, segs []string) bool {
	for n := len(segs); n >= 1; n-- {
		if matchSegs(pattern, segs[:n]) {
			return true
		}
	}
	return false
}

func matchSegs(pattern, segs []string) bool {
	if len(pattern) == 0 {
		return len(segs) == 0
	}
	if pattern[0] == "**" {
		for k := 0; k <= len(segs); k++ {
			if matchSegs(pattern[1:], segs[k:]) {
				return true
			}
		}
		return false
	}
	if len(segs) == 0 {
		return false
	}
	ok, err := path.Match(pattern[0], segs[0])
	return err == nil && ok && matchSegs(pattern[1:], segs[1:])
}

// commonRoot is the least common ancestor of dirs.
func commonRoot(dirs []string) string {
	if len(dirs) == 0 {
		return ""
	}
	root := dirs[0]
	for _, d := range dirs[1:] {
		for root != d && !strings.HasPrefix(d, root+string(filepath.Separator)) {
			parent := filepath.Dir(root)
			if parent == root {
				break
			}
			root = parent
		}
	}
	return root
}
