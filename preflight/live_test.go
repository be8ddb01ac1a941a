package preflight

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// The real services' preflight opens and reads the ESC environments in
// the organisation esc/pulumi/access.yaml names (Live.Organization), not
// in a fixed one; PULUMI_ORG wins; with neither it says what to write.
func TestLiveOpensEnvironmentsInTheOrganisation(t *testing.T) {
	var paths []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "token pul-test" {
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		paths = append(paths, r.Method+" "+r.URL.Path)
		w.Write([]byte("{}"))
	}))
	defer srv.Close()
	t.Setenv("PULUMI_API", srv.URL)
	t.Setenv("PULUMI_ACCESS_TOKEN", "pul-test")
	t.Setenv("PULUMI_ORG", "")
	ctx := context.Background()
	acme := Live{Organization: "acme"}
	if err := acme.OpenEnvironment(ctx, "harness-platform/dev"); err != nil {
		t.Fatal(err)
	}
	if _, err := acme.EnvironmentDefinition(ctx, "harness-platform/dev"); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PULUMI_ORG", "override")
	if err := acme.OpenEnvironment(ctx, "harness-platform/dev"); err != nil {
		t.Fatal(err)
	}
	want := []string{"POST /api/esc/environments/acme/harness-platform/dev/open", "GET /api/esc/environments/acme/harness-platform/dev",
		"POST /api/esc/environments/override/harness-platform/dev/open"}
	if strings.Join(paths, "\n") != strings.Join(want, "\n") {
		t.Errorf("requests %q, want %q", paths, want)
	}
	t.Setenv("PULUMI_ORG", "")
	if err := (Live{}).OpenEnvironment(ctx, "harness-platform/dev"); err == nil || !strings.Contains(err.Error(), "esc/pulumi/access.yaml (organization)") {
		t.Errorf("without an organisation: %v, want what to write", err)
	}
}
