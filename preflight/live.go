package preflight

import (
	"cmp"
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/netip"
	"net/url"
	"os"
	"os/exec"
	"slices"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	awsconfig "github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/service/eks"
	ekstypes "github.com/aws/aws-sdk-go-v2/service/eks/types"
	"github.com/aws/aws-sdk-go-v2/service/sts"
	"gopkg.in/yaml.v3"

	"github.com/company/harness-platform/calendar"
)

// Live asks the real services, with the credentials the providers read
// from the environment: HARNESS_PLATFORM_API_KEY (and HARNESS_ENDPOINT),
// GITHUB_TOKEN or the GitHub App's (github.go), the AWS SDK's default chain (what
// ESC's OIDC login exports).
type Live struct {
	Client *http.Client
	// CheckIP answers a GET with the caller's public IPv4 address
	// (default: AWS's https://checkip.amazonaws.com).
	CheckIP string
	// Organization is the Pulumi Cloud organisation the ESC environments
	// are in (esc/pulumi/access.yaml's organization); PULUMI_ORG, when
	// set, wins.
	Organization string
}

// organization is the Pulumi Cloud organisation of the environments.
func (l Live) organization() (string, error) {
	if org := cmp.Or(os.Getenv("PULUMI_ORG"), l.Organization); org != "" {
		return org, nil
	}
	return "", errors.New("no Pulumi organisation to open the environments in: write it in esc/pulumi/access.yaml (organization), or set PULUMI_ORG")
}

func (l Live) client() *http.Client {
	if l.Client != nil {
		return l.Client
	}
	return &http.Client{Timeout: 15 * time.Second}
}

func env(key, fallback string) string {
	if v := os.Getenv(key); v != "" {
		return v
	}
	return fallback
}

// get does a GET and returns the status and (the first 64 KiB of) the body.
func (l Live) get(ctx context.Context, u string, header http.Header) (int, []byte, error) {
	return l.do(ctx, http.MethodGet, u, header)
}

// do sends a request without a body and returns the status and (the
// first 64 KiB of) the body.
func (l Live) do(ctx context.Context, method, u string, header http.Header) (int, []byte, error) {
	req, err := http.NewRequestWithContext(ctx, method, u, nil)
	if err != nil {
		return 0, nil, err
	}
	req.Header = header
	resp, err := l.client().Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
	return resp.StatusCode, body, err
}

// Harness reads the organisation with the key, as the provider's first
// call does (Harness API: GET /ng/api/organizations/{identifier}).
func (l Live) Harness(ctx context.Context, account, org string) error {
	key := os.Getenv("HARNESS_PLATFORM_API_KEY")
	if key == "" {
		return errors.New("HARNESS_PLATFORM_API_KEY is not set")
	}
	base := strings.TrimSuffix(env("HARNESS_ENDPOINT", "https://app.harness.io/gateway"), "/")
	u := fmt.Sprintf("%s/ng/api/organizations/%s?accountIdentifier=%s", base, url.PathEscape(org), url.QueryEscape(account))
	status, body, err := l.get(ctx, u, http.Header{"x-api-key": {key}})
	if err != nil {
		return err
	}
	if status != http.StatusOK {
		return fmt.Errorf("GET %s: %d %s", u, status, strings.TrimSpace(string(body)))
	}
	return nil
}

// OpenEnvironment opens the environment with the run's Pulumi token, as
// the CLI does for a stack importing it (Pulumi Cloud REST API: POST
// /api/esc/environments/{org}/{project}/{env}/open); the open session
// is left to expire. The organisation is l.Organization's.
func (l Live) OpenEnvironment(ctx context.Context, name string) error {
	token := os.Getenv("PULUMI_ACCESS_TOKEN")
	if token == "" {
		return errors.New("PULUMI_ACCESS_TOKEN is not set: the CLI cannot open the stacks' ESC environments")
	}
	org, err := l.organization()
	if err != nil {
		return err
	}
	u := fmt.Sprintf("%s/api/esc/environments/%s/%s/open", strings.TrimSuffix(env("PULUMI_API", "https://api.pulumi.com"), "/"), org, name)
	status, body, err := l.do(ctx, http.MethodPost, u, http.Header{"Authorization": {"token " + token}, "Accept": {"application/json"}})
	if err != nil {
		return err
	}
	if status/100 != 2 {
		return fmt.Errorf("[%d] %s", status, strings.TrimSpace(string(body)))
	}
	return nil
}

// EnvironmentDefinition reads the environment's definition with the run's
// Pulumi token (Pulumi Cloud REST API, Environments: GET
// /api/esc/environments/{org}/{project}/{env}, which answers its YAML, as
// esc's own client reads it: cmd/esc/cli/client GetEnvironment).
func (l Live) EnvironmentDefinition(ctx context.Context, name string) ([]byte, error) {
	token := os.Getenv("PULUMI_ACCESS_TOKEN")
	if token == "" {
		return nil, errors.New("PULUMI_ACCESS_TOKEN is not set: the environments' definitions cannot be read")
	}
	org, err := l.organization()
	if err != nil {
		return nil, err
	}
	u := fmt.Sprintf("%s/api/esc/environments/%s/%s", strings.TrimSuffix(env("PULUMI_API", "https://api.pulumi.com"), "/"), org, name)
	status, body, err := l.do(ctx, http.MethodGet, u, http.Header{"Authorization": {"token " + token}, "Accept": {"application/x-yaml"}})
	if err != nil {
		return nil, err
	}
	if status/100 != 2 {
		return nil, fmt.Errorf("[%d] %s", status, strings.TrimSpace(string(body)))
	}
	return body, nil
}

// CallerIdentity asks STS who the default credential chain is (what
// ESC's OIDC login exports, and what the AWS provider uses).
func (l Live) CallerIdentity(ctx context.Context, _, region string) (string, error) {
	cfg, err := awsconfig.LoadDefaultConfig(ctx, awsconfig.WithRegion(region))
	if err != nil {
		return "", err
	}
	out, err := sts.NewFromConfig(cfg).GetCallerIdentity(ctx, &sts.GetCallerIdentityInput{})
	if err != nil {
		return "", err
	}
	return aws.ToString(out.Arn), nil
}

// Cluster asks the API server over TLS with the kubeconfig's CA, with
// the token its credential plugin gives this run: the plugin must be
// installed here, the server must answer from here, and it must
// authenticate the run (a 401 means it has no access entry).
func (l Live) Cluster(ctx context.Context, _ string, kubeconfig string) error {
	server, ca, err := Server(kubeconfig)
	if err != nil {
		return err
	}
	pool := x509.NewCertPool()
	if ca != nil {
		pool.AppendCertsFromPEM(ca)
	}
	c := &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool, MinVersion: tls.VersionTLS12}}}
	tok, err := token(ctx, kubeconfig)
	if err != nil {
		return err
	}
	if tok == "" {
		_, _, err = Live{Client: c}.get(ctx, strings.TrimSuffix(server, "/")+"/version", http.Header{})
		return err
	}
	// /api answers every authenticated user (system:discovery): a 401
	// means the cluster does not know who the run is (no access entry).
	u := strings.TrimSuffix(server, "/") + "/api"
	status, _, err := Live{Client: c}.get(ctx, u, http.Header{"Authorization": {"Bearer " + tok}})
	if err != nil {
		return err
	}
	if status == http.StatusUnauthorized {
		return fmt.Errorf("GET %s: 401 Unauthorized: the cluster does not authenticate this run's identity (no access entry for it)", u)
	}
	return nil
}

// Server is the API server URL and CA of a kubeconfig's current context.
func Server(kubeconfig string) (server string, ca []byte, err error) {
	var cfg struct {
		Current  string `yaml:"current-context"`
		Contexts []struct {
			Name    string
			Context struct{ Cluster string }
		}
		Clusters []struct {
			Name    string
			Cluster struct {
				Server string
				CA     string `yaml:"certificate-authority-data"`
			}
		}
	}
	if err := yaml.Unmarshal([]byte(kubeconfig), &cfg); err != nil {
		return "", nil, fmt.Errorf("reading the kubeconfig: %w", err)
	}
	cluster := ""
	for _, c := range cfg.Contexts {
		if c.Name == cfg.Current {
			cluster = c.Context.Cluster
		}
	}
	for _, c := range cfg.Clusters {
		if c.Name == cluster || (cluster == "" && len(cfg.Clusters) == 1) {
			if c.Cluster.CA != "" {
				if ca, err = base64.StdEncoding.DecodeString(c.Cluster.CA); err != nil {
					return "", nil, fmt.Errorf("the kubeconfig's certificate-authority-data: %w", err)
				}
			}
			return c.Cluster.Server, ca, nil
		}
	}
	return "", nil, errors.New("the kubeconfig names no cluster for its current context")
}

// EKS asks EKS in region, as the run (the default credential chain, as
// the AWS provider), for the version's status (DescribeClusterVersions, which lists the
// versions EKS offers with their support status) and the cluster's
// version (DescribeCluster; ResourceNotFoundException: not created yet).
func (l Live) EKS(ctx context.Context, region, name, version string) (EKSAnswer, error) {
	cfg, err := awsconfig.LoadDefaultConfig(ctx, awsconfig.WithRegion(region))
	if err != nil {
		return EKSAnswer{}, err
	}
	client := eks.NewFromConfig(cfg)
	var a EKSAnswer
	pages := eks.NewDescribeClusterVersionsPaginator(client, &eks.DescribeClusterVersionsInput{})
	for pages.HasMorePages() {
		page, err := pages.NextPage(ctx)
		if err != nil {
			return EKSAnswer{}, err
		}
		for _, v := range page.ClusterVersions {
			if aws.ToString(v.ClusterVersion) == version {
				a.Status = string(v.VersionStatus)
			}
			if v.VersionStatus == ekstypes.VersionStatusStandardSupport {
				a.Standard = append(a.Standard, aws.ToString(v.ClusterVersion))
			}
		}
	}
	slices.SortFunc(a.Standard, func(x, y string) int { return calendar.Minor(y) - calendar.Minor(x) })
	out, err := client.DescribeCluster(ctx, &eks.DescribeClusterInput{Name: aws.String(name)})
	var notFound *ekstypes.ResourceNotFoundException
	switch {
	case errors.As(err, &notFound):
	case err != nil:
		return EKSAnswer{}, err
	default:
		a.Deployed = aws.ToString(out.Cluster.Version)
	}
	return a, nil
}

// EKSAddonVersions asks EKS in region, as the run (the default credential
// chain, as the AWS provider), which versions of the add-on it offers for
// Kubernetes version k8s: DescribeAddonVersions with addonName and
// kubernetesVersion (GET /addons/supported-versions, every page), whose
// addons[].addonVersions[] each carry compatibilities[], the cluster
// versions it runs on (clusterVersion) and whether it is EKS's default
// there (defaultVersion). Only a version whose compatibilities name k8s
// is kept, whatever EKS filtered.
func (l Live) EKSAddonVersions(ctx context.Context, region, addon, k8s string) ([]EKSAddonVersion, error) {
	cfg, err := awsconfig.LoadDefaultConfig(ctx, awsconfig.WithRegion(region))
	if err != nil {
		return nil, err
	}
	var out []EKSAddonVersion
	pages := eks.NewDescribeAddonVersionsPaginator(eks.NewFromConfig(cfg), &eks.DescribeAddonVersionsInput{
		AddonName: aws.String(addon), KubernetesVersion: aws.String(k8s),
	})
	for pages.HasMorePages() {
		page, err := pages.NextPage(ctx)
		if err != nil {
			return nil, err
		}
		for _, a := range page.Addons {
			if aws.ToString(a.AddonName) != addon {
				continue
			}
			for _, v := range a.AddonVersions {
				for _, c := range v.Compatibilities {
					if aws.ToString(c.ClusterVersion) == k8s {
						out = append(out, EKSAddonVersion{Version: aws.ToString(v.AddonVersion), Default: c.DefaultVersion})
						break
					}
				}
			}
		}
	}
	return out, nil
}

// RunnerAddress asks CheckIP for the address this run comes from.
func (l Live) RunnerAddress(ctx context.Context) (netip.Addr, error) {
	u := l.CheckIP
	if u == "" {
		u = "https://checkip.amazonaws.com"
	}
	status, body, err := l.get(ctx, u, http.Header{})
	if err != nil {
		return netip.Addr{}, err
	}
	if status != http.StatusOK {
		return netip.Addr{}, fmt.Errorf("GET %s: %d", u, status)
	}
	return netip.ParseAddr(strings.TrimSpace(string(body)))
}

// Command looks name up on PATH, as client-go's exec authenticator does.
func (Live) Command(_ context.Context, name string) error {
	if _, err := exec.LookPath(name); err != nil {
		return PluginMissing(name)
	}
	return nil
}

// PluginMissing is client-go's error for a kubeconfig credential plugin
// that is not installed (k8s.io/client-go/plugin/pkg/client/auth/exec).
func PluginMissing(name string) error {
	return fmt.Errorf("getting credentials: exec: executable %s not found\n\nIt looks like you are trying to use a client-go credential plugin that is not installed.\n\n"+
		"To learn more about this feature, consult the documentation available at:\n      https://kubernetes.io/docs/reference/access-authn-authz/authentication/#client-go-credential-plugins", name)
}

// Exec is a kubeconfig user's credential plugin.
type Exec struct {
	Command string
	Args    []string
	Env     []struct{ Name, Value string }
}

// PluginOf is the credential plugin of a kubeconfig's (first) user; nil
// for none, or a kubeconfig that does not parse.
func PluginOf(kubeconfig string) *Exec {
	var cfg struct {
		Users []struct {
			User struct{ Exec *Exec }
		}
	}
	if yaml.Unmarshal([]byte(kubeconfig), &cfg) != nil || len(cfg.Users) == 0 {
		return nil
	}
	return cfg.Users[0].User.Exec
}

// token runs the kubeconfig's credential plugin, as client-go does, and
// returns its token ("" when the kubeconfig has no plugin).
func token(ctx context.Context, kubeconfig string) (string, error) {
	e := PluginOf(kubeconfig)
	if e == nil {
		return "", nil
	}
	path, err := exec.LookPath(e.Command)
	if err != nil {
		return "", PluginMissing(e.Command)
	}
	cmd := exec.CommandContext(ctx, path, e.Args...)
	cmd.Env = os.Environ()
	for _, v := range e.Env {
		cmd.Env = append(cmd.Env, v.Name+"="+v.Value)
	}
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("getting credentials: exec: executable %s failed: %w", e.Command, err)
	}
	var cred struct {
		Status struct{ Token string } `json:"status"`
	}
	if err := json.Unmarshal(out, &cred); err != nil || cred.Status.Token == "" {
		return "", fmt.Errorf("getting credentials: %s returned no token", e.Command)
	}
	return cred.Status.Token, nil
}

// GitExperience reads the project's Git Experience settings with the key
// (Harness API: GET /ng/api/settings/{identifier}, the value in effect at
// the project's scope).
func (l Live) GitExperience(ctx context.Context, account, org, project string) (GitExperience, error) {
	setting := func(id string) (string, error) {
		var r struct {
			Data struct {
				Value string `json:"value"`
			} `json:"data"`
		}
		err := l.harness(ctx, "/ng/api/settings/"+url.PathEscape(id),
			url.Values{"accountIdentifier": {account}, "orgIdentifier": {org}, "projectIdentifier": {project}}, &r)
		return r.Data.Value, err
	}
	enforced, err := setting("enforce_git_experience")
	if err != nil {
		return GitExperience{}, err
	}
	store, err := setting("default_store_type_for_entities")
	if err != nil {
		return GitExperience{}, err
	}
	return GitExperience{Enforced: enforced == "true", DefaultStore: store}, nil
}

// DelegateTokens lists the account's delegate tokens, active and revoked
// (Harness API: GET /ng/api/delegate-token-ng, DelegateTokenDetails: name
// and status; nothing says when a token was revoked).
func (l Live) DelegateTokens(ctx context.Context, account string) ([]DelegateToken, error) {
	var r struct {
		Resource []struct {
			Name   string `json:"name"`
			Status string `json:"status"`
		} `json:"resource"`
	}
	if err := l.harness(ctx, "/ng/api/delegate-token-ng", url.Values{"accountIdentifier": {account}}, &r); err != nil {
		return nil, err
	}
	out := make([]DelegateToken, 0, len(r.Resource))
	for _, t := range r.Resource {
		out = append(out, DelegateToken{Name: t.Name, Status: t.Status})
	}
	return out, nil
}

// DelegateGroups lists the delegate groups that use the token (Harness
// API: GET /ng/api/delegate-token-ng/delegate-groups, DelegateGroupListing:
// groupName, activelyConnected, delegateInstanceDetails).
func (l Live) DelegateGroups(ctx context.Context, account, token string) ([]DelegateGroup, error) {
	var r struct {
		Resource struct {
			DelegateGroupDetails []struct {
				GroupName               string            `json:"groupName"`
				ActivelyConnected       bool              `json:"activelyConnected"`
				DelegateInstanceDetails []json.RawMessage `json:"delegateInstanceDetails"`
			} `json:"delegateGroupDetails"`
		} `json:"resource"`
	}
	if err := l.harness(ctx, "/ng/api/delegate-token-ng/delegate-groups", url.Values{"accountIdentifier": {account}, "delegateTokenName": {token}}, &r); err != nil {
		return nil, err
	}
	var out []DelegateGroup
	for _, g := range r.Resource.DelegateGroupDetails {
		out = append(out, DelegateGroup{Name: g.GroupName, Connected: g.ActivelyConnected, Instances: len(g.DelegateInstanceDetails)})
	}
	return out, nil
}

// harness GETs path of the Harness API with the key and decodes its JSON
// answer into out.
func (l Live) harness(ctx context.Context, path string, query url.Values, out any) error {
	key := os.Getenv("HARNESS_PLATFORM_API_KEY")
	if key == "" {
		return errors.New("HARNESS_PLATFORM_API_KEY is not set")
	}
	u := strings.TrimSuffix(env("HARNESS_ENDPOINT", "https://app.harness.io/gateway"), "/") + path + "?" + query.Encode()
	status, body, err := l.get(ctx, u, http.Header{"x-api-key": {key}})
	if err != nil {
		return err
	}
	if status != http.StatusOK {
		return fmt.Errorf("GET %s: %d %s", u, status, strings.TrimSpace(string(body)))
	}
	if err := json.Unmarshal(body, out); err != nil {
		return fmt.Errorf("GET %s: %w", u, err)
	}
	return nil
}

// ImageScanAccount reads the account's licence of the scanning module
// (Harness API: GET /ng/api/licenses/modules/{accountIdentifier}
// ?moduleType=, ModuleLicenseDTO status and expiryTime) and asks for each
// secret in the project (GET /ng/api/v2/secrets/{identifier}, which
// answers 404 for one it does not hold).
func (l Live) ImageScanAccount(ctx context.Context, account, org, project string, secrets []string) (ScanAccount, error) {
	var lic struct {
		Data []struct {
			Status     string `json:"status"`
			ExpiryTime int64  `json:"expiryTime"`
		} `json:"data"`
	}
	if err := l.harness(ctx, "/ng/api/licenses/modules/"+url.PathEscape(account), url.Values{"moduleType": {"STO"}}, &lic); err != nil {
		return ScanAccount{}, err
	}
	var out ScanAccount
	for _, m := range lic.Data {
		status := m.Status
		if status == "ACTIVE" && m.ExpiryTime > 0 && time.UnixMilli(m.ExpiryTime).Before(time.Now()) {
			status = "EXPIRED"
		}
		if out.Licence != "ACTIVE" {
			out.Licence = status
		}
	}
	key := os.Getenv("HARNESS_PLATFORM_API_KEY")
	base := strings.TrimSuffix(env("HARNESS_ENDPOINT", "https://app.harness.io/gateway"), "/")
	for _, id := range secrets {
		u := base + "/ng/api/v2/secrets/" + url.PathEscape(id) + "?" +
			url.Values{"accountIdentifier": {account}, "orgIdentifier": {org}, "projectIdentifier": {project}}.Encode()
		status, body, err := l.get(ctx, u, http.Header{"x-api-key": {key}})
		switch {
		case err != nil:
			return out, err
		case status == http.StatusNotFound:
			out.Missing = append(out.Missing, id)
		case status != http.StatusOK:
			return out, fmt.Errorf("GET %s: %d %s", u, status, strings.TrimSpace(string(body)))
		}
	}
	return out, nil
}
