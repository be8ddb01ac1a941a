package platformctl

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/company/harness-platform/catalog"
	"github.com/company/harness-platform/internal/catalogtest"
)

// tags stands for the stacks' recorded commits.
type tags map[string]string

func (t tags) DeployedCommit(_ context.Context, stack string) (string, error) { return t[stack], nil }

// repo is a git clone holding files, committed; commit adds a change.
type repo struct {
	t   *testing.T
	dir string
}

func newRepo(t *testing.T, files map[string][]byte) *repo {
	t.Helper()
	r := &repo{t: t, dir: t.TempDir()}
	r.git("init", "-q", "-b", "main")
	r.git("config", "user.email", "t@example.com")
	r.git("config", "user.name", "t")
	files["main.go"] = []byte("package main\n")
	r.commit("the example", files)
	return r
}

func (r *repo) git(args ...string) string {
	r.t.Helper()
	out, err := exec.Command("git", append([]string{"-C", r.dir}, args...)...).CombinedOutput()
	if err != nil {
		r.t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

func (r *repo) commit(message string, files map[string][]byte) string {
	r.t.Helper()
	for name, data := range files {
		p := filepath.Join(r.dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			r.t.Fatal(err)
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			r.t.Fatal(err)
		}
	}
	r.git("add", "-A")
	r.git("commit", "-q", "-m", message)
	return r.git("rev-parse", "HEAD")
}

// A merge's up applies the stacks its change touches, from each stack's
// recorded commit: one service's change its service stack and the
// platform stack; nothing in the catalog no service stack; an archetype
// every stack; the program every stack; a merge after a failed one (its
// stacks' commits not moved) both changes; a stack without a commit, or
// whose commit the clone lacks, or an up of uncommitted files, is upped.
func TestChangedStacks(t *testing.T) {
	files, err := catalogtest.Synthetic("../..", 300)
	if err != nil {
		t.Fatal(err)
	}
	r := newRepo(t, files)
	base := r.git("rev-parse", "HEAD")
	c, err := catalog.Load(r.dir)
	if err != nil {
		t.Fatal(err)
	}
	all := c.StacksOf("dev")
	if len(all) < 5 {
		t.Fatalf("dev has %d stacks: want several service stacks", len(all))
	}
	at := func(commit string) tags {
		out := tags{}
		for _, st := range all {
			out[st] = commit
		}
		return out
	}
	changed := func(deployed tags) []string {
		t.Helper()
		c, err := catalog.Load(r.dir)
		if err != nil {
			t.Fatal(err)
		}
		var log bytes.Buffer
		got, _, err := changedStacks(context.Background(), deployed, c, r.dir, "dev", &log)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%s", log.String())
		return got
	}
	stackOf := func(service string) string {
		c, _ := catalog.Load(r.dir)
		s, _ := c.Service(service)
		return catalog.ServiceStackName("dev", s.Stack)
	}

	if got := changed(at(base)); len(got) != 0 {
		t.Errorf("deployed at HEAD: %v", got)
	}
	if got := changed(tags{}); !slices.Equal(got, all) {
		t.Errorf("nothing recorded: %v, want every stack", got)
	}

	// One service's replicas.
	services := string(files[catalog.ServicesFile])
	edited := strings.Replace(services, "  - name: svc-00010\n", "  - name: svc-00010\n    description: changed\n", 1)
	one := r.commit("one service", map[string][]byte{catalog.ServicesFile: []byte(edited)})
	want := []string{"dev", stackOf("svc-00010")}
	if got := changed(at(base)); !slices.Equal(got, want) {
		t.Errorf("one service changed: %v, want %v", got, want)
	}

	// The docs only: nothing.
	docs := r.commit("docs", map[string][]byte{"docs/x.md": []byte("x\n")})
	if got := changed(at(one)); len(got) != 0 {
		t.Errorf("a docs change: %v, want nothing", got)
	}

	// A second service while the first merge's up failed: its stacks
	// still record base, so both changes are applied.
	edited2 := strings.Replace(edited, "  - name: svc-00123\n", "  - name: svc-00123\n    description: changed\n", 1)
	r.commit("another service", map[string][]byte{catalog.ServicesFile: []byte(edited2)})
	failed := at(docs)
	failed["dev"], failed[stackOf("svc-00010")] = base, base
	got := changed(failed)
	for _, st := range []string{"dev", stackOf("svc-00010"), stackOf("svc-00123")} {
		if !slices.Contains(got, st) {
			t.Errorf("after a failed merge: %v lacks %s", got, st)
		}
	}
	if len(got) > 3 {
		t.Errorf("after a failed merge: %v, want the two services' stacks and the platform stack", got)
	}

	// An archetype: every stack.
	head := r.git("rev-parse", "HEAD")
	archetypes := strings.Replace(string(files[catalog.ArchetypesFile]), "description:", "description: changed,", 1)
	r.commit("an archetype", map[string][]byte{catalog.ArchetypesFile: []byte(archetypes)})
	if got := changed(at(head)); !slices.Equal(got, all) {
		t.Errorf("an archetype changed: %v, want every stack", got)
	}

	// The program: every stack.
	head = r.git("rev-parse", "HEAD")
	r.commit("the program", map[string][]byte{"main.go": []byte("package main\n\nfunc main() {}\n")})
	if got := changed(at(head)); !slices.Equal(got, all) {
		t.Errorf("the program changed: %v, want every stack", got)
	}

	// A commit the clone lacks, and an up of uncommitted files.
	if got := changed(at("0123456789abcdef0123456789abcdef01234567")); !slices.Equal(got, all) {
		t.Errorf("an unknown base: %v, want every stack", got)
	}
	if got := changed(at(uncommitted)); !slices.Equal(got, all) {
		t.Errorf("after an up of uncommitted files: %v, want every stack", got)
	}
}
