package preflight

import (
	"context"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/pem"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
)

// Without a token, preflight authenticates as the GitHub provider's
// app_auth does: a JWT signed with the App's key buys an installation
// token (POST /app/installations/{id}/access_tokens), which the reads
// then carry; the rate limit is the installation's.
func TestLiveGitHubAppAuthentication(t *testing.T) {
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	keyPEM := pem.EncodeToMemory(&pem.Block{Type: "RSA PRIVATE KEY", Bytes: x509.MarshalPKCS1PrivateKey(key)})
	var minted atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		auth := r.Header.Get("Authorization")
		switch {
		case r.Method == http.MethodPost && r.URL.Path == "/app/installations/4242/access_tokens":
			if !strings.HasPrefix(auth, "Bearer ") || strings.Count(auth, ".") != 2 {
				w.WriteHeader(http.StatusUnauthorized)
				fmt.Fprint(w, `{"message":"A JSON web token could not be decoded"}`)
				return
			}
			minted.Add(1)
			w.WriteHeader(http.StatusCreated)
			fmt.Fprint(w, `{"token":"ghs_minted","expires_at":"2099-01-01T00:00:00Z"}`)
		case auth != "token ghs_minted":
			w.WriteHeader(http.StatusUnauthorized)
			fmt.Fprint(w, `{"message":"Bad credentials"}`)
		case r.URL.Path == "/repos/company/platform":
			fmt.Fprint(w, `{"private":false,"default_branch":"main","permissions":{"admin":true,"push":true}}`)
		case r.URL.Path == "/rate_limit":
			fmt.Fprint(w, `{"resources":{"core":{"limit":12500,"remaining":12400,"reset":4070908800}}}`)
		default:
			w.WriteHeader(http.StatusNotFound)
		}
	}))
	defer srv.Close()
	t.Setenv("GITHUB_API_URL", srv.URL)
	t.Setenv("GITHUB_TOKEN", "")
	t.Setenv("GITHUB_APP_ID", "1000001")
	t.Setenv("GITHUB_APP_INSTALLATION_ID", "4242")
	t.Setenv("GITHUB_APP_PEM_FILE", string(keyPEM))
	ctx := context.Background()
	l := Live{}
	if err := l.GitHub(ctx, "company", []string{"platform"}); err != nil {
		t.Errorf("the App's installation: %v", err)
	}
	if g, err := l.GitHubRepo(ctx, "company", "platform"); err != nil || !g.Admin {
		t.Errorf("the repository as the installation reads it: %+v %v", g, err)
	}
	if rl, err := l.GitHubRateLimit(ctx, "company"); err != nil || rl.Limit != 12500 || rl.Remaining != 12400 {
		t.Errorf("the installation's budget: %+v %v", rl, err)
	}
	if minted.Load() != 1 {
		t.Errorf("%d installation tokens minted; want 1 per client (ghinstallation keeps it until it expires)", minted.Load())
	}

	t.Setenv("GITHUB_APP_PEM_FILE", "not a key")
	if err := l.GitHub(ctx, "company", []string{"platform"}); err == nil || !strings.Contains(err.Error(), "GITHUB_APP_PEM_FILE") {
		t.Errorf("a bad key: %v", err)
	}
	t.Setenv("GITHUB_APP_ID", "")
	if err := l.GitHub(ctx, "company", []string{"platform"}); err == nil || !strings.Contains(err.Error(), "GITHUB_TOKEN is not set (nor the GitHub App's") {
		t.Errorf("no credential: %v", err)
	}
}

// Live reads the two Git Experience settings at the project's scope.
func TestLiveGitExperience(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		if r.Header.Get("x-api-key") != "good" || q.Get("accountIdentifier") != "acct" || q.Get("orgIdentifier") != "default" || q.Get("projectIdentifier") != "platform" {
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		switch r.URL.Path {
		case "/ng/api/settings/enforce_git_experience":
			fmt.Fprint(w, `{"status":"SUCCESS","data":{"valueType":"Boolean","value":"true"}}`)
		case "/ng/api/settings/default_store_type_for_entities":
			fmt.Fprint(w, `{"status":"SUCCESS","data":{"valueType":"String","value":"REMOTE"}}`)
		default:
			w.WriteHeader(http.StatusNotFound)
		}
	}))
	defer srv.Close()
	t.Setenv("HARNESS_ENDPOINT", srv.URL)
	t.Setenv("HARNESS_PLATFORM_API_KEY", "good")
	gx, err := Live{}.GitExperience(context.Background(), "acct", "default", "platform")
	if err != nil || gx != (GitExperience{Enforced: true, DefaultStore: "REMOTE"}) {
		t.Errorf("%+v %v", gx, err)
	}
	t.Setenv("HARNESS_PLATFORM_API_KEY", "bad")
	if _, err := (Live{}).GitExperience(context.Background(), "acct", "default", "platform"); err == nil || !strings.Contains(err.Error(), "401") {
		t.Errorf("a bad key: %v", err)
	}
}

// Live lists the account's delegate tokens, a revoked one with its
// revocation (validUntil less 30 days), and the delegate groups using a
// token.
func TestLiveDelegateTokens(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		if r.Header.Get("x-api-key") != "good" || q.Get("accountIdentifier") != "acct" {
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		switch r.URL.Path {
		case "/ng/api/delegate-token-ng":
			// DelegateTokenDetails as harness-core serialises it.
			fmt.Fprint(w, `{"metaData":{},"resource":[{"uuid":"u1","accountId":"acct","name":"d-token","createdAt":1760000000000,"status":"REVOKED","ownerIdentifier":"","revokeAfter":0},{"name":"d-g2-token","status":"ACTIVE"}]}`)
		case "/ng/api/delegate-token-ng/delegate-groups":
			if q.Get("delegateTokenName") != "d-g2-token" {
				fmt.Fprint(w, `{"resource":{"delegateGroupDetails":[]}}`)
				return
			}
			fmt.Fprint(w, `{"resource":{"delegateGroupDetails":[{"groupName":"d","activelyConnected":true,"delegateInstanceDetails":[{"hostName":"d-0"},{"hostName":"d-1"}]}]}}`)
		default:
			w.WriteHeader(http.StatusNotFound)
		}
	}))
	defer srv.Close()
	t.Setenv("HARNESS_ENDPOINT", srv.URL)
	t.Setenv("HARNESS_PLATFORM_API_KEY", "good")
	tokens, err := Live{}.DelegateTokens(context.Background(), "acct")
	if err != nil || len(tokens) != 2 || tokens[0] != (DelegateToken{Name: "d-token", Status: "REVOKED"}) || tokens[1] != (DelegateToken{Name: "d-g2-token", Status: "ACTIVE"}) {
		t.Errorf("tokens %+v %v", tokens, err)
	}
	groups, err := Live{}.DelegateGroups(context.Background(), "acct", "d-g2-token")
	if err != nil || len(groups) != 1 || groups[0] != (DelegateGroup{Name: "d", Connected: true, Instances: 2}) {
		t.Errorf("groups %+v %v", groups, err)
	}
}
