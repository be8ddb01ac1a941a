package bootstrap

import (
	"errors"
	"fmt"
	"github.com/company/harness-platform/bootstrap/answers"
	"github.com/company/harness-platform/internal/catalogtest"
	"github.com/company/harness-platform/internal/example"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// The answers bootstrap recorded are the files': the tests' fixtures
// (internal/example) are rewritten into them.
func TestRecordedAnswersAreTheFiles(t *testing.T) {
	_, cur := tracked(t)
	data, err := os.ReadFile(filepath.Join("..", answers.File))
	if err != nil {
		t.Fatal(err)
	}
	if string(data) != string(cur.Marshal()) {
		t.Errorf("%s is not the files' answers, which are\n%s\nwrite them with platformctl bootstrap --print-answers > %s, or change the files back", answers.File, cur.Marshal(), answers.File)
	}
}

// tracked is the repository's files and the answers they are written
// with.
func tracked(t *testing.T) (map[string][]byte, answers.Answers) {
	t.Helper()
	files, err := answers.Tracked("..")
	if err != nil {
		t.Fatal(err)
	}
	cur, err := Current("..")
	if err != nil {
		t.Fatal(err)
	}
	return files, cur
}

// write lays files out under a new directory.
func write(t *testing.T, files map[string][]byte) string {
	t.Helper()
	dir := t.TempDir()
	catalogtest.WriteFiles(t, dir, files, 0o644)
	return dir
}

// Written over another organisation's answers, the files read back as
// those answers (the catalog's loader, the trust model's), hold none of
// the values they had outside the Go sources, and written back are
// byte for byte what they were.
func TestRewriteRoundTrip(t *testing.T) {
	files, cur := tracked(t)
	to := example.Other(cur)
	forth, err := answers.Plan(files, cur, to)
	if err != nil {
		t.Fatal(err)
	}
	after := forth.Over(files)
	got, err := Current(write(t, after))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, to) {
		t.Errorf("the rewritten files read back as\n%s\nwant\n%s", got.Marshal(), to.Marshal())
	}
	// Every value the files had, as a word of its own; the secrets'
	// region is left where it is a catalog region's.
	var old []string
	old = append(old, cur.GitHub.Organization, cur.Pulumi.Organization, cur.Harness.AccountID, cur.Domains.Services, cur.Domains.Mail)
	old = append(old, slices.Collect(maps.Values(cur.AWS.Accounts))...)
	for _, app := range cur.GitHub.Apps {
		old = append(old, app.AppID)
		if app.InstallationID != "" {
			old = append(old, app.InstallationID)
		}
	}
	old = append(old, cur.Runners.EgressCidrs...)
	var left []string
	for _, name := range slices.Sorted(maps.Keys(after)) {
		if !answers.Rewritten(name) {
			continue
		}
		for _, v := range old {
			re := regexp.MustCompile(`(^|[^A-Za-z0-9_@-])` + regexp.QuoteMeta(v) + `($|[^A-Za-z0-9_-])`)
			for _, loc := range re.FindAllIndex(after[name], -1) {
				line := strings.Count(string(after[name][:loc[0]]), "\n") + 1
				left = append(left, fmt.Sprintf("%s:%d: %s", name, line, v))
				if len(left) > 40 {
					break
				}
			}
			if strings.Contains(name, v) {
				left = append(left, name+": "+v+" in the path")
			}
		}
	}
	if len(left) > 0 {
		t.Errorf("%d example value(s) left after the rewrite:\n%s", len(left), strings.Join(left, "\n"))
	}
	if forth.Values() < 100 || len(forth.Renamed) != len(cur.AWS.Accounts)+len(cur.GitHub.Apps) {
		t.Errorf("the rewrite replaced %d values and renamed %v", forth.Values(), forth.Renamed)
	}
	// Every answer is written somewhere, and each replaced value is one
	// of them.
	whats := []string{"the GitHub organisation", "the Pulumi organisation", "the services' domain", "the mail domain",
		"the Harness account id", "the secrets' region", "the runners' networks"}
	for env := range cur.AWS.Accounts {
		whats = append(whats, "the AWS account of "+env)
	}
	for name, app := range cur.GitHub.Apps {
		whats = append(whats, "the App id of "+name)
		if app.InstallationID != "" {
			whats = append(whats, "the installation id of "+name)
		}
	}
	total := 0
	for _, what := range whats {
		if forth.Changes[what] == 0 {
			t.Errorf("no value written as %s: %v", what, forth.Changes)
		}
		total += forth.Changes[what]
	}
	if total != forth.Values() {
		t.Errorf("%d values replaced, %d of them answers: %v", forth.Values(), total, forth.Changes)
	}

	back, err := answers.Plan(after, to, cur)
	if err != nil {
		t.Fatal(err)
	}
	again := back.Over(after)
	for _, name := range slices.Sorted(maps.Keys(files)) {
		if string(again[name]) != string(files[name]) {
			t.Errorf("%s differs after the round trip", name)
		}
	}
	for name := range again {
		if _, ok := files[name]; !ok {
			t.Errorf("%s was not there before the round trip", name)
		}
	}
}

// Written with its own answers, nothing changes.
func TestRewriteIsIdempotent(t *testing.T) {
	files, cur := tracked(t)
	r, err := answers.Plan(files, cur, cur)
	if err != nil {
		t.Fatal(err)
	}
	if !r.Empty() || r.Values() != 0 {
		t.Errorf("the files' own answers change %d values in %v", r.Values(), slices.Collect(maps.Keys(r.Files)))
	}
}

// Where one name is both organisations', a place that says neither way
// is refused at its line and column, and nothing is planned.
func TestRewriteRefusesWhatItCannotTell(t *testing.T) {
	_, cur := tracked(t)
	files := map[string][]byte{
		"docs/a.md":  []byte("The repository " + cur.GitHub.Organization + "/harness-platform.\nAsk " + cur.GitHub.Organization + " first.\n"),
		"esc/b.yaml": []byte("environment: " + cur.Pulumi.Organization + "/harness-platform/dev\n"),
	}
	if cur.GitHub.Organization != cur.Pulumi.Organization {
		t.Skip("the organisations have different names; every place is either's")
	}
	_, err := answers.Plan(files, cur, example.Other(cur))
	var amb *answers.AmbiguousError
	if !errors.As(err, &amb) {
		t.Fatalf("err = %v, want an AmbiguousError", err)
	}
	if len(amb.List) != 1 || amb.List[0].File != "docs/a.md" || amb.List[0].Line != 2 || amb.List[0].Col != 5 {
		t.Errorf("refused at %v, want docs/a.md:2:5 only", amb.List)
	}
}

// An answers file is read against the files' own: every problem at
// once, each at its line, with what to write.
func TestReadAnswersNamesEveryProblem(t *testing.T) {
	_, cur := tracked(t)
	good := example.Other(cur)
	p := filepath.Join(t.TempDir(), "answers.yaml")
	if err := os.WriteFile(p, good.Marshal(), 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := answers.Read(p, cur)
	if err != nil || !reflect.DeepEqual(got, good) {
		t.Fatalf("Read(Marshal(a)) = %+v, %v; want a", got, err)
	}

	envs := slices.Sorted(maps.Keys(cur.AWS.Accounts))
	bad := example.Other(cur)
	bad.GitHub.Organization = "acme_gh"                   // GitHub logins have no underscore
	bad.AWS.Accounts[envs[1]] = "12345"                   // not 12 digits
	bad.AWS.Accounts[envs[2]] = bad.AWS.Accounts[envs[0]] // shared
	bad.Runners.EgressCidrs = []string{"52.16.32.1/28"}   // not masked
	for name := range bad.GitHub.Apps {
		delete(bad.GitHub.Apps, name)
		break
	}
	if err := os.WriteFile(p, bad.Marshal(), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = answers.Read(p, cur)
	if err == nil {
		t.Fatal("bad answers read without an error")
	}
	for _, want := range []string{
		`answers.yaml:6:17: github.organization "acme_gh" is not one; write the GitHub organisation's login`,
		`is not one; write the 12-digit account id`,
		`is ` + envs[0] + `'s account too`,
		`runners.egressCidrs[0] "52.16.32.1/28" is not one`,
		`github.apps has no `,
	} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("the error does not say %q:\n%v", want, err)
		}
	}
}
