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
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
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

// Other is an organisation whose every answer differs from cur's, with
// the GitHub and the Pulumi organisation of different names (so a value
// written as the wrong one's is seen) and two runner networks where the
// example has one.
func Other(cur answers.Answers) answers.Answers {
	// differ is a unless that is cur's value, then b.
	differ := func(cur, a, b string) string {
		if cur == a {
			return b
		}
		return a
	}
	a := answers.Answers{
		GitHub:  answers.GitHubAnswers{Organization: differ(cur.GitHub.Organization, "acme-gh", "globex-gh"), Apps: map[string]answers.AppAnswers{}},
		Pulumi:  answers.PulumiAnswers{Organization: differ(cur.Pulumi.Organization, "acme-cloud", "globex-cloud")},
		AWS:     answers.AWSAnswers{Accounts: map[string]string{}, SecretsRegion: differ(cur.AWS.SecretsRegion, "ap-southeast-2", "ca-central-1")},
		Harness: answers.HarnessAnswers{AccountID: differ(cur.Harness.AccountID, "Xk2pQ9_vT-4aZ", "Pz7rW1_qA-9bY")},
		Domains: answers.DomainAnswers{Services: differ(cur.Domains.Services, "acme-corp.net", "globex.org"), Mail: differ(cur.Domains.Mail, "mail.acme.example", "globex.example")},
		Runners: answers.RunnerAnswers{EgressCidrs: []string{"52.16.32.0/28", "54.72.10.16/28"}},
	}
	if slices.Equal(cur.Runners.EgressCidrs, a.Runners.EgressCidrs) {
		a.Runners.EgressCidrs = []string{"34.240.0.0/28"}
	}
	for i, name := range slices.Sorted(maps.Keys(cur.GitHub.Apps)) {
		app := answers.AppAnswers{AppID: differ(cur.GitHub.Apps[name].AppID, fmt.Sprint(4876543+i), fmt.Sprint(5976543+i))}
		if id := cur.GitHub.Apps[name].InstallationID; id != "" {
			app.InstallationID = differ(id, fmt.Sprint(612345670+i), fmt.Sprint(712345670+i))
		}
		a.GitHub.Apps[name] = app
	}
	for i, env := range slices.Sorted(maps.Keys(cur.AWS.Accounts)) {
		a.AWS.Accounts[env] = differ(cur.AWS.Accounts[env], fmt.Sprint(444444098765+i*111111000000), fmt.Sprint(123456789012+i))
	}
	return a
}

// Value is L for a package-level variable, before any test runs: it
// panics where L fails the test.
func Value(s string) string {
	a, err := recorded()
	if err != nil {
		panic(fmt.Sprintf("the files' answers (%s): %v", answers.File, err))
	}
	out, err := answers.Localize("", s, answers.Example, a)
	if err != nil {
		panic(err)
	}
	return out
}
