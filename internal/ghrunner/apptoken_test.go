package ghrunner

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/company/harness-platform/internal/example"
)

// Another private repository is checked out only with a token minted for
// it: the job's own token reads only its repository (docs.github.com,
// "Automatic token authentication"), and git answers as GitHub does for
// a repository it cannot read; an App token covers the repositories
// create-github-app-token names (its README), and only those its
// installation is on.
func TestCheckoutOfAnotherRepositoryNeedsItsToken(t *testing.T) {
	shared := example.L(t, "company/harness-platform-shared")
	for _, c := range []struct {
		name, mint, token, want string
	}{
		{"the job's token", "", "", example.L(t, "remote: Repository not found.\nfatal: repository 'https://github.com/company/harness-platform-shared/' not found")},
		{"github.token", "", "${{ github.token }}", "Repository not found"},
		{"an App token for it", "repositories: harness-platform-shared", "${{ steps.app.outputs.token }}", ""},
		{"the owner's installation", "", "${{ steps.app.outputs.token }}", ""},
		{"an App token for another", "repositories: harness-platform", "${{ steps.app.outputs.token }}", "Repository not found"},
		{"a repository the App is not on", "repositories: harness-platform-shared,secrets", "${{ steps.app.outputs.token }}", example.L(t, "GET /repos/company/secrets/installation - 404: Not Found")},
	} {
		t.Run(c.name, func(t *testing.T) {
			mint := ""
			if c.token == "${{ steps.app.outputs.token }}" {
				mint = fmt.Sprintf(example.L(t, `
      - uses: actions/create-github-app-token@v2
        id: app
        with:
          app-id: ${{ vars.READER_APP_ID }}
          private-key: ${{ secrets.READER_PRIVATE_KEY }}
          owner: company
          %s`), c.mint)
			}
			token := ""
			if c.token != "" {
				token = "\n          token: " + c.token
			}
			wf := `on: push
jobs:
  test:
    runs-on: ubuntu-latest
    steps:` + mint + `
      - uses: actions/checkout@v4
        with:
          repository: ` + shared + `
          path: shared` + token + `
`
			r, sha := newRunner(t, map[string]string{".github/workflows/t.yml": wf})
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, "README"), []byte("facts"), 0o644); err != nil {
				t.Fatal(err)
			}
			r.Repos = map[string]string{shared: dir}
			r.Actions["actions/create-github-app-token"] = CreateGitHubAppToken
			r.Vars = map[string]string{"READER_APP_ID": example.L(t, "1000003")}
			r.Secrets = map[string]string{"READER_PRIVATE_KEY": "-----BEGIN RSA PRIVATE KEY-----stand-in"}
			r.Apps = []App{{ID: example.L(t, "1000003"), PrivateKey: r.Secrets["READER_PRIVATE_KEY"], Owner: example.Answers(t).GitHub.Organization, Repositories: []string{shared, repo}}}
			run := trigger(t, r, ".github/workflows/t.yml", push(sha))
			wait(t, r)
			j := run.Job("test")
			var errs []string
			for _, s := range j.Steps {
				if s.Err != nil {
					errs = append(errs, s.Err.Error())
				}
			}
			got := strings.Join(errs, "\n")
			switch {
			case c.want == "" && j.Result != Success:
				t.Errorf("%s: %s", j.Result, got)
			case c.want != "" && (j.Result != Failure || !strings.Contains(got, c.want)):
				t.Errorf("%s: %q, want a failure saying %q", j.Result, got, c.want)
			}
		})
	}
}
