package credentials

import (
	"flag"
	"os"
	"regexp"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/company/harness-platform/catalog"
	"github.com/company/harness-platform/internal/catalogtest"
	"github.com/company/harness-platform/internal/doccheck"
	"github.com/company/harness-platform/trust"
)

var update = flag.Bool("update", false, "rewrite docs/runbook.md's credentials table")

func model(t *testing.T) *trust.Model {
	t.Helper()
	m, err := trust.Load()
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// Every credential the project's files read is named, found by reading
// those files independently of List: each secretId of the ESC
// environments, each AWS secret the templates make, each team's channel
// secrets, each image scan secret; the operator's and the CI pipeline's
// stored tokens only where those paths deliver. Each says where it lives,
// who makes it, who reads it and how to check it.
func TestEveryCredentialIsNamed(t *testing.T) {
	c := catalogtest.Example(t, "..")
	m := model(t)
	list := List(c, m)
	var want []string
	for _, data := range m.Environments {
		for _, match := range regexp.MustCompile(`secretId:\s*(\S+)`).FindAllSubmatch(data, -1) {
			want = append(want, string(match[1]))
		}
	}
	for _, a := range m.Accounts {
		for name := range a.Secrets {
			want = append(want, name)
		}
	}
	var teams struct {
		Teams []struct {
			Notify map[string]string `yaml:"notify"`
		} `yaml:"teams"`
	}
	data, err := os.ReadFile("../catalog/teams.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if err := yaml.Unmarshal(data, &teams); err != nil {
		t.Fatal(err)
	}
	for _, team := range teams.Teams {
		for _, id := range team.Notify {
			want = append(want, id)
		}
	}
	want = append(want, "wiz_client_id", "wiz_client_secret", "pulumi_preview_token")
	for _, name := range want {
		if _, ok := For(list, name); !ok {
			t.Errorf("credential %s is read but not named", name)
		}
	}
	for _, cr := range list {
		if cr.What == "" || cr.Where == "" || cr.Owner == "" || len(cr.ReadBy) == 0 || cr.Check == "" {
			t.Errorf("incomplete: %+v", cr)
		}
	}
	// No environment is delivered by the operator in the example: no
	// Kubernetes Secret is asked for; one that is asks for its token and
	// the repository token.
	if _, ok := For(list, "Kubernetes Secret"); ok {
		t.Error("the example asks for the operator's Kubernetes Secrets")
	}
	c.Stacks["staging"].Delivery = catalog.DeliveryOperator
	list = List(c, m)
	for _, name := range []string{"Kubernetes Secret pulumi/pulumi-access-token-staging", "Kubernetes Secret pulumi/harness-platform-git"} {
		if _, ok := For(list, name); !ok {
			t.Errorf("staging by the operator: %s not named", name)
		}
	}
	if _, ok := For(list, "pulumi-access-token-dev"); ok {
		t.Error("dev's operator token named, and dev is not delivered by the operator")
	}
}

// docs/runbook.md's Credentials table is List's (-update rewrites it).
func TestRunbookNamesTheCredentials(t *testing.T) {
	want := Markdown(List(catalogtest.Example(t, ".."), model(t)))
	const doc = "../docs/runbook.md"
	if _, ok := doccheck.Section(t, doc, "credentials", want, *update); !ok {
		t.Errorf("%s's credentials table is stale: go test ./credentials -update rewrites it", doc)
	}
}
