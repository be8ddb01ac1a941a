package ghrunner

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// Origin is the repository the workflows run in: a git repository of
// the runner's own (never the project's clone), made from a copy of a
// working tree, whose commits the tests add (a pull request's change, a
// merge to main). The checkout stand-in fetches from it.
type Origin struct {
	// Repo is the repository's owner/name (github.repository).
	Repo string
	// Dir is the repository's work tree (its .git beside the files).
	Dir string
}

// gitEnv is the environment of the runner's own git commands: no user
// configuration, fixed identities and dates, so commits are repeatable.
func gitEnv() []string {
	env := []string{"GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null", "HOME=" + os.TempDir(),
		"GIT_AUTHOR_NAME=ghrunner", "GIT_AUTHOR_EMAIL=ghrunner@example.invalid", "GIT_COMMITTER_NAME=ghrunner",
		"GIT_COMMITTER_EMAIL=ghrunner@example.invalid", "GIT_AUTHOR_DATE=2026-01-01T00:00:00Z", "GIT_COMMITTER_DATE=2026-01-01T00:00:00Z"}
	if p := os.Getenv("PATH"); p != "" {
		env = append(env, "PATH="+p)
	}
	return env
}

func git(dir string, args ...string) (string, error) {
	out, err := gitBytes(dir, args...)
	return strings.TrimSpace(string(out)), err
}

func gitBytes(dir string, args ...string) ([]byte, error) {
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = gitEnv()
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("git %s: %v: %s", strings.Join(args, " "), err, strings.TrimSpace(errOut.String()))
	}
	return out.Bytes(), nil
}

// NewOrigin makes the repository repo in dir from the files of the
// working tree src that git would commit there (tracked, and untracked
// but not ignored: `git ls-files --cached --others --exclude-standard`,
// which reads src's repository and changes nothing in it), committed on
// main. skip drops files by their path's first element (e.g. ".state").
func NewOrigin(repo, src, dir string, skip ...string) (*Origin, error) {
	list, err := git(src, "ls-files", "-z", "--cached", "--others", "--exclude-standard")
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	for _, name := range strings.Split(list, "\x00") {
		if name == "" {
			continue
		}
		first, _, _ := strings.Cut(name, "/")
		skipped := false
		for _, s := range skip {
			skipped = skipped || first == s
		}
		if skipped {
			continue
		}
		from := filepath.Join(src, name)
		info, err := os.Lstat(from)
		if os.IsNotExist(err) {
			continue // deleted in the work tree, not yet in the index
		}
		if err != nil {
			return nil, err
		}
		if !info.Mode().IsRegular() {
			continue
		}
		data, err := os.ReadFile(from)
		if err != nil {
			return nil, err
		}
		to := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
			return nil, err
		}
		if err := os.WriteFile(to, data, info.Mode().Perm()); err != nil {
			return nil, err
		}
	}
	return initOrigin(repo, dir)
}

// OriginOf makes the repository repo in dir holding files (by path),
// committed on main.
func OriginOf(repo, dir string, files map[string]string) (*Origin, error) {
	for name, data := range files {
		to := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
			return nil, err
		}
		if err := os.WriteFile(to, []byte(data), 0o644); err != nil {
			return nil, err
		}
	}
	return initOrigin(repo, dir)
}

func initOrigin(repo, dir string) (*Origin, error) {
	o := &Origin{Repo: repo, Dir: dir}
	if _, err := git(dir, "init", "-q", "-b", "main"); err != nil {
		return nil, err
	}
	// A checkout fetches commits by their sha, as actions/checkout does.
	if _, err := git(dir, "config", "uploadpack.allowAnySHA1InWant", "true"); err != nil {
		return nil, err
	}
	if _, err := o.Commit("main", "the working tree", nil); err != nil {
		return nil, err
	}
	return o, nil
}

// Commit checks out branch (creating it from main's tip when new),
// applies edit to the work tree (nil: none), commits everything and
// returns the commit's sha.
func (o *Origin) Commit(branch, message string, edit func(dir string) error) (string, error) {
	if _, err := git(o.Dir, "rev-parse", "-q", "--verify", "refs/heads/"+branch); err != nil {
		if _, err := git(o.Dir, "rev-parse", "-q", "--verify", "HEAD"); err == nil {
			if _, err := git(o.Dir, "checkout", "-q", "-b", branch, "main"); err != nil {
				return "", err
			}
		}
	} else if _, err := git(o.Dir, "checkout", "-q", branch); err != nil {
		return "", err
	}
	if edit != nil {
		if err := edit(o.Dir); err != nil {
			return "", err
		}
	}
	if _, err := git(o.Dir, "add", "-A"); err != nil {
		return "", err
	}
	if _, err := git(o.Dir, "commit", "-q", "--allow-empty", "-m", message); err != nil {
		return "", err
	}
	return git(o.Dir, "rev-parse", "HEAD")
}

// Merge merges branch into main (a merge commit, as a pull request's
// merge button makes) and returns main's new sha.
func (o *Origin) Merge(branch, message string) (string, error) {
	if _, err := git(o.Dir, "checkout", "-q", "main"); err != nil {
		return "", err
	}
	if _, err := git(o.Dir, "merge", "-q", "--no-ff", "-m", message, branch); err != nil {
		return "", err
	}
	return git(o.Dir, "rev-parse", "HEAD")
}

// Head is the sha branch points at.
func (o *Origin) Head(branch string) (string, error) {
	return git(o.Dir, "rev-parse", "refs/heads/"+branch)
}

// SetRef points ref (refs/pull/1/merge) at sha.
func (o *Origin) SetRef(ref, sha string) error {
	_, err := git(o.Dir, "update-ref", ref, sha)
	return err
}

// ReadFile is a file of commit sha.
func (o *Origin) ReadFile(sha, path string) ([]byte, error) {
	return gitBytes(o.Dir, "show", sha+":"+path)
}
