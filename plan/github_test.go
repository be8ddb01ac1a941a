package plan

import (
	"net/url"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

// The deploy link is the template's page under the instance's URL, with or
// without a trailing '/' or a path the instance is served under, and its
// formData the service's entity ref as JSON.
func TestDeployTemplateURL(t *testing.T) {
	for base, want := range map[string]string{
		"https://backstage.company.io":         "https://backstage.company.io/create/templates/default/deploy-service",
		"https://backstage.company.io/":        "https://backstage.company.io/create/templates/default/deploy-service",
		"https://company.io/backstage/":        "https://company.io/backstage/create/templates/default/deploy-service",
		"https://backstage.company.io:8443///": "https://backstage.company.io:8443/create/templates/default/deploy-service",
	} {
		got := DeployTemplateURL(base, "payment-service")
		page, query, _ := strings.Cut(got, "?")
		if page != want || query != "formData=%7B%22service%22%3A%22component%3Adefault%2Fpayment-service%22%7D" {
			t.Errorf("DeployTemplateURL(%q) = %s", base, got)
		}
		if u, err := url.Parse(got); err != nil || u.Query().Get("formData") != `{"service":"component:default/payment-service"}` {
			t.Errorf("%s: %v", got, err)
		}
	}
}

// Without the Backstage instance's URL a catalog-info.yaml links to the
// pipelines only.
func TestCatalogInfoLinks(t *testing.T) {
	ci := CatalogInfo{Service: "payment-service", Team: "payments", Scope: Scope{OrgID: "default", ProjectID: "platform"},
		Pipelines: []NamedID{{"int-stable", "payment_service_int_stable"}}, ServiceID: "payment_service"}
	for _, deploy := range []string{"", DeployTemplateURL("https://backstage.company.io", ci.Service)} {
		ci.DeployURL = deploy
		content, err := ci.Content("acct")
		if err != nil {
			t.Fatal(err)
		}
		var doc struct {
			Metadata struct {
				Links []struct{ URL, Title, Icon string }
			}
		}
		if err := yaml.Unmarshal([]byte(content), &doc); err != nil {
			t.Fatal(err)
		}
		links := doc.Metadata.Links
		if deploy != "" {
			if len(links) == 0 || links[0].URL != deploy || links[0].Title != DeployLinkTitle || links[0].Icon != DeployLinkIcon {
				t.Errorf("the deploy link is not first: %+v", links)
				continue
			}
			links = links[1:]
		}
		if len(links) != 1 || links[0].Title != "Harness pipeline int-stable" || strings.Contains(content, "/create/templates/") != (deploy != "") {
			t.Errorf("DeployURL %q: links %+v", deploy, doc.Metadata.Links)
		}
	}
}
