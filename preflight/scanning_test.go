package preflight

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/company/harness-platform/internal/catalogtest"
)

// Production's preflight asks for the STO licence and the secrets its
// image scans read; no other environment's does.
func TestImageScanRequirements(t *testing.T) {
	c := catalogtest.Example(t, "..")
	r, err := Require(c, "acct", "production", nil)
	if err != nil {
		t.Fatal(err)
	}
	if r.ImageScan == nil || r.ImageScan.Module != "STO" || !slices.Equal(r.ImageScan.Secrets, []string{"wiz_client_id", "wiz_client_secret", "docker_registry_password"}) {
		t.Errorf("production: %+v", r.ImageScan)
	}
	for _, env := range []string{"dev", "staging"} {
		if r, err := Require(c, "acct", env, nil); err != nil || r.ImageScan != nil {
			t.Errorf("%s: %+v %v", env, r.ImageScan, err)
		}
	}
}

// An account without an active STO licence, or a project without the
// scans' secrets, is reported with its fix; one with both passes.
func TestImageScanChecks(t *testing.T) {
	r := Requirements{Environment: "production", Account: "acct", Org: "default", Project: "platform",
		ImageScan: &ImageScanNeeds{Module: "STO", Secrets: []string{"wiz_client_id", "wiz_client_secret"}}}
	for _, tc := range []struct {
		name string
		scan ScanAccount
		want []string
	}{
		{"licensed, with the secrets", ScanAccount{Licence: "ACTIVE"}, nil},
		{"expired", ScanAccount{Licence: "EXPIRED"}, []string{
			"Harness account acct for the image scan of production's deployments: the account's STO (Security Testing Orchestration) licence is EXPIRED: Harness runs no STO step without it, so every Production deployment would stop at its image scan; subscribe the account to STO"}},
		{"no licence", ScanAccount{Licence: "none"}, []string{"licence is none"}},
		{"no Wiz secret", ScanAccount{Licence: "ACTIVE", Missing: []string{"wiz_client_secret"}}, []string{
			"project default/platform has no secret wiz_client_secret: the Wiz step of every Production deployment reads it, and fails; create them in the project as text secrets: wiz_client_id and wiz_client_secret hold the client ID and secret of a Wiz service account"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := inOrder()
			f.scan = tc.scan
			var got []string
			for _, p := range Run(context.Background(), f, r) {
				got = append(got, p.Error())
			}
			if len(got) != len(tc.want) {
				t.Fatalf("got %q, want %d problems", got, len(tc.want))
			}
			for i, w := range tc.want {
				if !strings.Contains(got[i], w) {
					t.Errorf("got %q, want %q", got[i], w)
				}
			}
		})
	}
	// A refused read is reported, not taken for a pass.
	f := inOrder()
	if problems := checkImageScan(context.Background(), refusing(), r); len(problems) != 1 || !strings.Contains(problems[0].Fix, "Account Viewer") {
		t.Errorf("refused: %+v", problems)
	}
	if problems := checkImageScan(context.Background(), f, Requirements{}); problems != nil {
		t.Errorf("no scans: %+v", problems)
	}
}

// Live reads the STO licence (an ACTIVE one past its expiry is expired)
// and asks for each secret in the project, a 404 being a missing one.
func TestLiveImageScanAccount(t *testing.T) {
	expiry := time.Now().Add(24 * time.Hour)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		if r.Header.Get("x-api-key") != "good" {
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		switch {
		case r.URL.Path == "/ng/api/licenses/modules/acct" && q.Get("moduleType") == "STO":
			fmt.Fprintf(w, `{"status":"SUCCESS","data":[{"moduleType":"STO","status":"ACTIVE","expiryTime":%d}]}`, expiry.UnixMilli())
		case r.URL.Path == "/ng/api/v2/secrets/wiz_client_id" && q.Get("projectIdentifier") == "platform" && q.Get("orgIdentifier") == "default":
			fmt.Fprint(w, `{"status":"SUCCESS","data":{"secret":{"identifier":"wiz_client_id"}}}`)
		default:
			w.WriteHeader(http.StatusNotFound)
			fmt.Fprint(w, `{"status":"ERROR","code":"RESOURCE_NOT_FOUND_EXCEPTION"}`)
		}
	}))
	defer srv.Close()
	t.Setenv("HARNESS_ENDPOINT", srv.URL)
	t.Setenv("HARNESS_PLATFORM_API_KEY", "good")
	a, err := Live{}.ImageScanAccount(context.Background(), "acct", "default", "platform", []string{"wiz_client_id", "wiz_client_secret"})
	if err != nil || a.Licence != "ACTIVE" || !slices.Equal(a.Missing, []string{"wiz_client_secret"}) {
		t.Errorf("account %+v %v", a, err)
	}
	expiry = time.Now().Add(-time.Hour)
	if a, err := (Live{}).ImageScanAccount(context.Background(), "acct", "default", "platform", nil); err != nil || a.Licence != "EXPIRED" {
		t.Errorf("expired: %+v %v", a, err)
	}
	if a, err := (Live{}).ImageScanAccount(context.Background(), "other", "default", "platform", nil); err == nil {
		t.Errorf("no such account: %+v", a)
	}
}
