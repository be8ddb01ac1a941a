package preflight

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/pem"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/company/harness-platform/apibudget"
	"github.com/company/harness-platform/calendar"
	"github.com/company/harness-platform/catalog"
	"github.com/company/harness-platform/diag"
	"github.com/company/harness-platform/internal/catalogtest"
	"github.com/company/harness-platform/internal/example"
)

// What dev's stacks use: the foundation repository and every service
// repository by owner, the deployer role in each EKS region, and only the
// clusters already deployed.
func TestRequire(t *testing.T) {
	c := catalogtest.Example(t, "..")
	r, err := Require(c, "acct", "dev", map[string]string{"euw1": "kubeconfig of euw1"})
	if err != nil {
		t.Fatal(err)
	}
	repos := r.GitHub[example.Answers(t).GitHub.Organization]
	if r.Org != "default" || len(r.GitHub) != 1 || len(repos) < 10 || !slices.Contains(repos, "harness-platform") || !slices.Contains(repos, "payment-service") {
		t.Errorf("org %q, GitHub %v", r.Org, r.GitHub)
	}
	// The webhook variables, in the one organisation.
	if !slices.Equal(r.OrgVariables, []string{example.Answers(t).GitHub.Organization}) {
		t.Errorf("organisation variables in %v", r.OrgVariables)
	}
	if a := c.Stacks["dev"].AWS; r.AWS == nil || *r.AWS != (AWSIdentities{Account: example.L(t, "111111111111"), Deployer: a.RoleArn, Preview: a.PreviewRoleArn, Region: "eu-west-1", File: "Pulumi.dev.yaml"}) {
		t.Errorf("AWS identities %+v", r.AWS)
	}
	if len(r.Clusters) != 1 || r.Clusters[0] != (Cluster{Region: "euw1", Kubeconfig: "kubeconfig of euw1"}) {
		t.Errorf("clusters %v", r.Clusters)
	}
	// What is written where: reviewers on this program's repository, the
	// catalog-info.yaml commit in the Backstage service's.
	for _, w := range r.Writes {
		if w.Reviewers != (w.Repo == "harness-platform") || w.Workflows != (w.Repo == "harness-platform") || w.Files != (w.Repo == "exports") {
			t.Errorf("write %+v", w)
		}
	}
	if len(r.Writes) != len(repos) {
		t.Errorf("%d writes for %d repositories", len(r.Writes), len(repos))
	}
	dev := c.Stacks["dev"]
	if len(r.EKS) != 2 {
		t.Fatalf("EKS clusters %+v", r.EKS)
	}
	if e := r.EKS[0]; e.Name != "int-stable-euw1" || e.Region != "eu-west-1" || e.Version != dev.Cluster.KubernetesVersion || e.Policy != "STANDARD" || e.File != "Pulumi.dev.yaml" {
		t.Errorf("EKS cluster %+v", e)
	}
	// Every add-on the tables version, at the plan's version: "" for one
	// whose table has no row (the VPC CNI at 1.35: EKS's default build).
	var addons []EKSAddon
	for _, a := range calendar.EKSAddons() {
		addons = append(addons, EKSAddon{Name: a.Name, Version: a.Version(dev.Cluster.KubernetesVersion)})
	}
	if !slices.Equal(r.EKS[0].Addons, addons) || !slices.Contains(addons, EKSAddon{Name: "vpc-cni"}) {
		t.Errorf("EKS add-ons %+v, want %+v", r.EKS[0].Addons, addons)
	}
	// A service stack's name checks its whole environment.
	shard := c.StacksOf("staging")[1]
	if rs, err := Require(c, "acct", shard, nil); err != nil || rs.Environment != "staging" || len(rs.Clusters) != 0 {
		t.Errorf("%s: %+v %v", shard, rs, err)
	}
}

// Run asks every check and reports every failure with its fix.
func TestRunReportsEveryProblem(t *testing.T) {
	r := Requirements{Environment: "dev", Account: "acct", Org: "default", GitHub: map[string][]string{"a": {"x"}, "b": {"y"}},
		AWS: &AWSIdentities{Account: "1", Deployer: "arn:aws:iam::1:role/d", Region: "eu-west-1"}, Clusters: []Cluster{{"euw1", "k"}}}
	problems := Run(context.Background(), refusing(), r)
	var got []string
	for _, p := range problems {
		got = append(got, p.Check)
	}
	want := "Harness API key for account acct|GitHub credential for owner a (x)|GitHub credential for owner b (y)|AWS identity in account 1|cluster API of dev/euw1"
	if strings.Join(got, "|") != want {
		t.Errorf("checks %q, want %q", strings.Join(got, "|"), want)
	}
	for _, p := range problems {
		if p.Fix == "" || !strings.Contains(p.Error(), "refused") {
			t.Errorf("%v: no fix or no cause", p)
		}
	}
	if problems := Run(context.Background(), inOrder(), r); len(problems) != 0 {
		t.Errorf("problems with every check passing: %v", problems)
	}
}

// fake answers every check: with err when it is set, else with its
// answers (inOrder's pass every check).
type fake struct {
	err    error
	caller string
	plan   string
	repo   GitHubRepo
	eks    EKSAnswer
	addr   netip.Addr
	rate   RateLimit
	org    GitHubOrg
	// opens are the ESC environments the token may open (nil: every one).
	opens []string
	// definitions are the environments' definitions Pulumi Cloud holds,
	// by name (absent: an empty one).
	definitions map[string]string
	gitx        GitExperience
	// tree is the config repository's files, by path (nil: none asked).
	tree map[string]string
	// tokens are the account's delegate tokens.
	tokens []DelegateToken
	// scan is what the account holds for the image scan ("" Licence:
	// ACTIVE).
	scan ScanAccount
	// addons are the versions EKS lists of each add-on (none: nil);
	// asked, when set, records each question (region/addon/k8s).
	addons map[string][]EKSAddonVersion
	asked  *[]string
}

// inOrder is a fake whose every answer passes; refusing one that refuses
// every check.
func inOrder() fake {
	return fake{caller: "arn:aws:sts::1:assumed-role/d/s", repo: GitHubRepo{Admin: true, Push: true}, org: GitHubOrg{Variables: true, Secrets: true},
		eks: EKSAnswer{Status: EKSStandardSupport}, addr: netip.MustParseAddr("52.94.76.5")}
}

func refusing() fake {
	f := inOrder()
	f.err = errors.New("refused")
	return f
}

func (f fake) Harness(context.Context, string, string) error { return f.err }
func (f fake) GitHubFiles(_ context.Context, _, _, _ string, keep func(string) bool) (map[string][]byte, error) {
	out := map[string][]byte{}
	for p, content := range f.tree {
		if keep(p) {
			out[p] = []byte(content)
		}
	}
	return out, f.err
}
func (f fake) GitExperience(context.Context, string, string, string) (GitExperience, error) {
	return f.gitx, nil
}
func (f fake) DelegateTokens(context.Context, string) ([]DelegateToken, error) {
	return f.tokens, f.err
}
func (f fake) DelegateGroups(context.Context, string, string) ([]DelegateGroup, error) {
	return nil, f.err
}
func (f fake) ImageScanAccount(context.Context, string, string, string, []string) (ScanAccount, error) {
	if f.scan.Licence == "" {
		f.scan.Licence = "ACTIVE"
	}
	return f.scan, f.err
}
func (f fake) OpenEnvironment(_ context.Context, env string) error {
	if f.opens != nil && !slices.Contains(f.opens, env) {
		return errors.New("[403] You do not have permission to perform this operation.")
	}
	return f.err
}
func (f fake) EnvironmentDefinition(_ context.Context, env string) ([]byte, error) {
	if d, ok := f.definitions[env]; ok {
		return []byte(d), nil
	}
	return []byte("values: {}\n"), f.err
}
func (f fake) GitHub(context.Context, string, []string) error                 { return f.err }
func (f fake) GitHubPlan(context.Context, string) (string, error)             { return f.plan, f.err }
func (f fake) GitHubRepo(context.Context, string, string) (GitHubRepo, error) { return f.repo, f.err }
func (f fake) GitHubOrg(context.Context, string) (GitHubOrg, error)           { return f.org, f.err }
func (f fake) CallerIdentity(context.Context, string, string) (string, error) { return f.caller, f.err }
func (f fake) Cluster(context.Context, string, string) error                  { return f.err }
func (f fake) Command(context.Context, string) error                          { return f.err }
func (f fake) RunnerAddress(context.Context) (netip.Addr, error)              { return f.addr, f.err }
func (f fake) GitHubRateLimit(context.Context, string) (RateLimit, error)     { return f.rate, f.err }
func (f fake) EKS(context.Context, string, string, string) (EKSAnswer, error) {
	return f.eks, f.err
}
func (f fake) EKSAddonVersions(_ context.Context, region, addon, k8s string) ([]EKSAddonVersion, error) {
	if f.asked != nil {
		*f.asked = append(*f.asked, region+"/"+addon+"/"+k8s)
	}
	return f.addons[addon], f.err
}

// Preflight asks EKS itself (DescribeClusterVersions, DescribeCluster)
// whether it offers the version and would take the cluster to it.
func TestEKSChecks(t *testing.T) {
	e := EKSCluster{Name: "prod-euw1", Region: "eu-west-1", Version: "1.35", Policy: "STANDARD", File: "Pulumi.production.yaml"}
	standard := []string{"1.35", "1.34"}
	for _, tc := range []struct {
		name    string
		cluster EKSCluster
		answer  EKSAnswer
		want    string
	}{
		{"offered, not deployed", e, EKSAnswer{Status: EKSStandardSupport, Standard: standard}, ""},
		{"one minor version up", e, EKSAnswer{Status: EKSStandardSupport, Standard: standard, Deployed: "1.34"}, ""},
		{"not listed", e, EKSAnswer{Standard: standard},
			"EKS cluster prod-euw1 in eu-west-1: EKS does not offer Kubernetes 1.35 (DescribeClusterVersions: not listed); set kubernetesVersion in Pulumi.production.yaml to a version in standard support: 1.35, 1.34"},
		{"extended support with the standard policy", e, EKSAnswer{Status: EKSExtendedSupport, Standard: standard},
			"Kubernetes 1.35 is in EKS extended support, and upgradePolicy is STANDARD: EKS upgrades the cluster itself; set kubernetesVersion in Pulumi.production.yaml to a version in standard support (1.35, 1.34), or upgradePolicy: EXTENDED"},
		{"extended support on purpose", EKSCluster{Name: e.Name, Region: e.Region, Version: e.Version, Policy: "EXTENDED"}, EKSAnswer{Status: EKSExtendedSupport}, ""},
		{"two minor versions up", e, EKSAnswer{Status: EKSStandardSupport, Standard: standard, Deployed: "1.33"},
			`it runs Kubernetes 1.33 (DescribeCluster), and EKS refuses the update to 1.35: InvalidParameterException: Unsupported Kubernetes minor version update from 1.33 to 1.35; set kubernetesVersion "1.34" in Pulumi.production.yaml, up, and repeat until 1.35`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := inOrder()
			f.eks = tc.answer
			problems := Run(context.Background(), f, Requirements{EKS: []EKSCluster{tc.cluster}})
			var got []string
			for _, p := range problems {
				got = append(got, p.Error())
			}
			if text := strings.Join(got, "\n"); tc.want == "" && text != "" || !strings.Contains(text, tc.want) {
				t.Errorf("got %q, want %q", text, tc.want)
			}
		})
	}
}

// Preflight asks EKS (DescribeAddonVersions) which versions of each
// add-on it offers for the cluster's Kubernetes version: a version the
// plan declares that EKS does not list is reported with those it does and
// its default; an add-on whose table has no row, with EKS's default, the
// row to add; one EKS has no version of either, not at all.
func TestEKSAddonChecks(t *testing.T) {
	e := EKSCluster{Name: "prod-euw1", Region: "eu-west-1", Version: "1.35", Policy: "STANDARD", File: "Pulumi.production.yaml"}
	declared := func(vpcCNI, kubeProxy, coreDNS string) []EKSAddon {
		return []EKSAddon{{"vpc-cni", vpcCNI}, {"kube-proxy", kubeProxy}, {"coredns", coreDNS}}
	}
	kubeProxy := []EKSAddonVersion{{Version: "v1.35.3-eksbuild.13"}, {Version: "v1.35.0-eksbuild.2", Default: true}}
	coreDNS := []EKSAddonVersion{{Version: "v1.14.3-eksbuild.3"}, {Version: "v1.14.1-eksbuild.1", Default: true}}
	vpcCNI := []EKSAddonVersion{{Version: "v1.21.1-eksbuild.1"}, {Version: "v1.20.6-eksbuild.1", Default: true}}
	for _, tc := range []struct {
		name   string
		addons []EKSAddon
		listed map[string][]EKSAddonVersion
		want   []string
	}{
		{"compatible, no VPC CNI row, EKS without a VPC CNI either", declared("", "v1.35.3-eksbuild.13", "v1.14.3-eksbuild.3"),
			map[string][]EKSAddonVersion{"kube-proxy": kubeProxy, "coredns": coreDNS}, nil},
		{"incompatible", declared("", "v1.35.3-eksbuild.13", "v1.14.4-eksbuild.1"),
			map[string][]EKSAddonVersion{"kube-proxy": kubeProxy, "coredns": coreDNS},
			[]string{"EKS add-on coredns of cluster prod-euw1 in eu-west-1 (Kubernetes 1.35): EKS does not list v1.14.4-eksbuild.1, the version calendar/eks-addons.json gives for Kubernetes 1.35, as compatible with it " +
				"(DescribeAddonVersions lists v1.14.3-eksbuild.3, v1.14.1-eksbuild.1 (default)): CreateAddon or UpdateAddon would refuse it (InvalidParameterException: Addon version specified is not supported); " +
				`set coredns's row for 1.35 in calendar/eks-addons.json to a version EKS lists (its default: v1.14.1-eksbuild.1), as AWS's table gives it (https://docs.aws.amazon.com/eks/latest/userguide/managing-coredns.html#coredns-versions), and set "read" to the day it was read`}},
		{"none listed", declared("", "v1.35.3-eksbuild.13", "v1.14.3-eksbuild.3"),
			map[string][]EKSAddonVersion{"coredns": coreDNS},
			[]string{"EKS add-on kube-proxy of cluster prod-euw1 in eu-west-1 (Kubernetes 1.35): EKS lists no kube-proxy version for Kubernetes 1.35 (DescribeAddonVersions), and the plan asks for v1.35.3-eksbuild.13 (calendar/eks-addons.json): " +
				"CreateAddon or UpdateAddon would refuse it (InvalidParameterException: Addon version specified is not supported); keep kubernetesVersion in Pulumi.production.yaml at a version EKS has kube-proxy builds for"}},
		{"no row: EKS's default is the row to add", declared("", "v1.35.3-eksbuild.13", "v1.14.3-eksbuild.3"),
			map[string][]EKSAddonVersion{"vpc-cni": vpcCNI, "kube-proxy": kubeProxy, "coredns": coreDNS},
			[]string{"EKS add-on vpc-cni of cluster prod-euw1 in eu-west-1 (Kubernetes 1.35): calendar/eks-addons.json has no vpc-cni version for Kubernetes 1.35 (read " + calendar.EKSAddonsRead + "), so the program asks for none: " +
				"EKS creates vpc-cni at its default build, and a cluster that runs it keeps the build it runs; EKS's default for Kubernetes 1.35 is v1.20.6-eksbuild.1 (DescribeAddonVersions); " +
				`add "1.35": "v1.20.6-eksbuild.1" to vpc-cni's versions in calendar/eks-addons.json, or the build AWS's table gives for 1.35 (https://docs.aws.amazon.com/eks/latest/userguide/managing-vpc-cni.html#vpc-cni-versions) if EKS lists it too, and set "read" to the day it was read`}},
		{"no row, no default", declared("", "v1.35.3-eksbuild.13", "v1.14.3-eksbuild.3"),
			map[string][]EKSAddonVersion{"vpc-cni": {{Version: "v1.21.1-eksbuild.1"}}, "kube-proxy": kubeProxy, "coredns": coreDNS},
			[]string{`EKS lists v1.21.1-eksbuild.1 and marks none its default (DescribeAddonVersions); add "1.35": "v1.21.1-eksbuild.1" to vpc-cni's versions`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := inOrder()
			f.addons = tc.listed
			var asked []string
			f.asked = &asked
			c := e
			c.Addons = tc.addons
			problems := Run(context.Background(), f, Requirements{EKS: []EKSCluster{c}})
			if len(problems) != len(tc.want) {
				t.Errorf("%d problems, want %d: %v", len(problems), len(tc.want), problems)
			}
			for i, w := range tc.want {
				if i < len(problems) && !strings.Contains(problems[i].Error(), w) {
					t.Errorf("got %q, want %q", problems[i].Error(), w)
				}
				// A missing row leaves the build to EKS, as validation
				// warns: the run goes on. A version EKS refuses stops it.
				if i < len(problems) && problems[i].Warning != strings.Contains(w, "to vpc-cni's versions") {
					t.Errorf("%q: warning %v", w, problems[i].Warning)
				}
			}
			if want := []string{"eu-west-1/vpc-cni/1.35", "eu-west-1/kube-proxy/1.35", "eu-west-1/coredns/1.35"}; !slices.Equal(asked, want) {
				t.Errorf("asked EKS %v, want %v", asked, want)
			}
		})
	}
	// Refused: once for the cluster, with the permission to grant.
	f := refusing()
	c := e
	c.Addons = declared("", "v1.35.3-eksbuild.13", "v1.14.3-eksbuild.3")
	problems := checkEKSAddons(context.Background(), f, c)
	if len(problems) != 1 || problems[0].Error() != "EKS add-on vpc-cni of cluster prod-euw1 in eu-west-1 (Kubernetes 1.35): refused; let the run's AWS identity call eks:DescribeAddonVersions" {
		t.Errorf("refused: %v", problems)
	}
}

// Live asks EKS's DescribeAddonVersions (GET /addons/supported-versions)
// with the add-on and the Kubernetes version, through every page, and
// keeps the versions whose compatibilities name that version, with
// defaultVersion; EKS's refusal is its answer.
func TestLiveEKSAddonVersions(t *testing.T) {
	var queries []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/addons/supported-versions" || !strings.Contains(r.Header.Get("Authorization"), "Credential=AKIDPREFLIGHT/") {
			w.WriteHeader(http.StatusNotFound)
			return
		}
		q := r.URL.Query()
		queries = append(queries, q.Encode())
		w.Header().Set("Content-Type", "application/json")
		switch {
		case q.Get("addonName") == "coredns":
			w.Header().Set("x-amzn-ErrorType", "AccessDeniedException")
			w.WriteHeader(http.StatusForbidden)
			fmt.Fprint(w, `{"message":"User: arn:aws:sts::111111111111:assumed-role/harness-platform-preview/pr is not authorized to perform: eks:DescribeAddonVersions"}`)
		case q.Get("nextToken") == "":
			fmt.Fprint(w, `{"addons":[{"addonName":"vpc-cni","type":"networking","owner":"aws","addonVersions":[
				{"addonVersion":"v1.21.1-eksbuild.1","architecture":["amd64","arm64"],"compatibilities":[{"clusterVersion":"1.35","defaultVersion":false,"platformVersions":["*"]}]},
				{"addonVersion":"v1.19.0-eksbuild.1","compatibilities":[{"clusterVersion":"1.34","defaultVersion":true}]}]}],"nextToken":"page2"}`)
		default:
			fmt.Fprint(w, `{"addons":[{"addonName":"vpc-cni","addonVersions":[
				{"addonVersion":"v1.20.6-eksbuild.1","compatibilities":[{"clusterVersion":"1.35","defaultVersion":true,"platformVersions":["*"]}]}]}]}`)
		}
	}))
	defer srv.Close()
	for k, v := range map[string]string{"AWS_ENDPOINT_URL_EKS": srv.URL, "AWS_ACCESS_KEY_ID": "AKIDPREFLIGHT", "AWS_SECRET_ACCESS_KEY": "secret", "AWS_SESSION_TOKEN": "",
		"AWS_PROFILE": "", "AWS_CONFIG_FILE": filepath.Join(t.TempDir(), "none"), "AWS_SHARED_CREDENTIALS_FILE": filepath.Join(t.TempDir(), "none"), "AWS_EC2_METADATA_DISABLED": "true"} {
		t.Setenv(k, v)
	}
	got, err := Live{}.EKSAddonVersions(context.Background(), "eu-west-1", "vpc-cni", "1.35")
	want := []EKSAddonVersion{{Version: "v1.21.1-eksbuild.1"}, {Version: "v1.20.6-eksbuild.1", Default: true}}
	if err != nil || !slices.Equal(got, want) {
		t.Errorf("vpc-cni for 1.35: %+v %v, want %+v", got, err, want)
	}
	if len(queries) != 2 || queries[0] != "addonName=vpc-cni&kubernetesVersion=1.35" || queries[1] != "addonName=vpc-cni&kubernetesVersion=1.35&nextToken=page2" {
		t.Errorf("queries %q", queries)
	}
	if _, err := (Live{}).EKSAddonVersions(context.Background(), "eu-west-1", "coredns", "1.35"); err == nil ||
		!strings.Contains(err.Error(), "operation error EKS: DescribeAddonVersions") || !strings.Contains(err.Error(), "AccessDeniedException") {
		t.Errorf("refused: %v", err)
	}
}

// The organisation variables the stacks write need the token's
// organisation permission Variables: a token that may not use them is
// reported with GitHub's refusal and the permission to grant; a preview,
// which writes nothing, is not asked.
func TestGitHubOrgChecks(t *testing.T) {
	r := Requirements{GitHub: map[string][]string{"company": {"x"}}, OrgVariables: []string{"company"}}
	f := inOrder()
	if problems := Run(context.Background(), f, r); len(problems) != 0 {
		t.Errorf("a token that may use the variables: %v", problems)
	}
	f.org = GitHubOrg{}
	var got []string
	for _, p := range Run(context.Background(), f, r) {
		got = append(got, p.Error())
	}
	want := "GitHub organisation company: the token may not use its Actions variables: the stacks' webhook variables (one per service stack) would be refused (403 Resource not accessible by integration); grant the platform's GitHub App the organisation permission Variables: Read and write"
	if text := strings.Join(got, "\n"); !strings.Contains(text, want) {
		t.Errorf("got %q, want %q", text, want)
	}
	// A read-only run reads the organisation's variables and secrets
	// (the drift check refreshes them): without Secrets: read it fails.
	r.ReadOnly = true
	f.org = GitHubOrg{Variables: true}
	got = nil
	for _, p := range Run(context.Background(), f, r) {
		got = append(got, p.Error())
	}
	want = "GitHub organisation company: the token may not read its Actions secrets: reading the stacks' webhook API key secrets would be refused (403 Resource not accessible by integration); grant the reader GitHub App, harness-platform-reader (its manifest in esc/github/), the organisation permissions Variables: Read and Secrets: Read"
	if text := strings.Join(got, "\n"); !strings.Contains(text, want) {
		t.Errorf("a read-only run: got %q, want %q", text, want)
	}
	f.org = GitHubOrg{Variables: true, Secrets: true}
	if problems := Run(context.Background(), f, r); len(problems) != 0 {
		t.Errorf("a read-only run: %v", problems)
	}
}

// Preflight opens every environment the stacks open, and proves that a
// read-only run's token cannot open one that holds writing credentials:
// a preview run with a deployer's token is reported, as is an up whose
// token may not open its own environment, and logins shorter than a run.
func TestEnvironmentChecks(t *testing.T) {
	ctx := context.Background()
	preview := Requirements{ReadOnly: true, Opens: []string{"harness-platform/dev-preview"},
		MustNotOpen: []string{"harness-platform/ci", "harness-platform/dev"}}
	f := inOrder()
	f.opens = []string{"harness-platform/dev-preview", "harness-platform/ci-preview"}
	if p := Run(ctx, f, preview); len(p) != 0 {
		t.Errorf("the preview team's token: %v", p)
	}
	f.opens = []string{"harness-platform/dev-preview", "harness-platform/dev", "harness-platform/ci"} // a deployer's token
	var got []string
	for _, p := range Run(ctx, f, preview) {
		got = append(got, p.Error())
	}
	want := "ESC environment harness-platform/ci: this read-only run's token can open it, and it holds writing credentials: the run's code could write"
	if text := strings.Join(got, "\n"); !strings.Contains(text, want) || len(got) != 2 {
		t.Errorf("a preview with a deployer's token: got %q, want %q and dev", text, want)
	}
	up := Requirements{Opens: []string{"harness-platform/dev"}}
	f.opens = []string{"harness-platform/dev-preview"}
	// Pulumi Cloud's definitions, not esc/'s: dev imports ci, whose login
	// someone shortened to an hour there.
	f.definitions = map[string]string{
		"harness-platform/dev": example.L(t, "imports: [harness-platform/ci]\nvalues:\n  l:\n    fn::open::aws-login:\n      oidc: {roleArn: arn:aws:iam::111111111111:role/x, sessionName: s, duration: 6h}\n"),
		"harness-platform/ci":  example.L(t, "values:\n  l:\n    fn::open::aws-login:\n      oidc: {roleArn: arn:aws:iam::111111111111:role/y, sessionName: s, duration: 1h}\n"),
	}
	got = nil
	for _, p := range Run(ctx, f, up) {
		got = append(got, p.Error())
	}
	for _, want := range []string{
		"ESC environment harness-platform/dev: [403] You do not have permission to perform this operation.; give the run its team's Pulumi token",
		"the AWS logins of harness-platform/dev: they last 1h0m0s in Pulumi Cloud's definition, and a run may take 6h0m0s",
		// The secrets the environment reads (its import's), and who makes
		// each (package credentials).
		example.L(t, "if the refusal is a secret's (missing, or without a value), put it: AWS Secrets Manager harness-platform/ci/github-app-writer-key (account 111111111111"),
		"made by the Harness account admin (a service account's API key)",
	} {
		if text := strings.Join(got, "\n"); !strings.Contains(text, want) {
			t.Errorf("an up with the preview token and 1h logins: got %q, want %q", text, want)
		}
	}
}

// Live asks Harness and GitHub as the providers do, with the credentials
// from the environment, and reads a refusal as one.
func TestLiveHarnessAndGitHub(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.URL.Path == "/ng/api/organizations/default" && r.URL.Query().Get("accountIdentifier") == "acct":
			if r.Header.Get("x-api-key") != "good" {
				w.WriteHeader(http.StatusUnauthorized)
				fmt.Fprint(w, `{"code":"INVALID_TOKEN"}`)
				return
			}
			fmt.Fprint(w, `{"status":"SUCCESS"}`)
		case strings.HasPrefix(r.URL.Path, "/repos/"):
			if r.Header.Get("Authorization") != "Bearer ghs_good" {
				w.WriteHeader(http.StatusUnauthorized)
				return
			}
			switch r.URL.Path {
			case "/repos/company/admin":
				fmt.Fprint(w, `{"private":true,"default_branch":"main","permissions":{"admin":true,"push":true}}`)
			case "/repos/company/readonly":
				fmt.Fprint(w, `{"private":false,"default_branch":"trunk","permissions":{"admin":false,"push":false}}`)
			case "/repos/company/admin/actions/permissions/access":
				fmt.Fprint(w, `{"access_level":"organization"}`)
			case "/repos/company/admin/branches/main/protection":
				fmt.Fprint(w, `{"required_pull_request_reviews":{"required_approving_review_count":1}}`)
			case "/repos/company/readonly/rules/branches/trunk":
				fmt.Fprint(w, `[{"type":"deletion"}]`)
			default:
				w.WriteHeader(http.StatusNotFound)
			}
		case r.URL.Path == "/orgs/company":
			fmt.Fprint(w, `{"login":"company","plan":{"name":"team"}}`)
		case r.URL.Path == "/orgs/company/actions/variables" && r.URL.Query().Get("per_page") == "1":
			fmt.Fprint(w, `{"total_count":0,"variables":[]}`)
		case r.URL.Path == "/orgs/someone/actions/variables":
			w.Header().Set("X-Accepted-GitHub-Permissions", "organization_actions_variables=read")
			w.WriteHeader(http.StatusForbidden)
			fmt.Fprint(w, `{"message":"Resource not accessible by integration"}`)
		default:
			w.WriteHeader(http.StatusNotFound)
		}
	}))
	defer srv.Close()
	t.Setenv("HARNESS_ENDPOINT", srv.URL)
	t.Setenv("GITHUB_API_URL", srv.URL)
	ctx := context.Background()
	l := Live{}

	t.Setenv("HARNESS_PLATFORM_API_KEY", "good")
	if err := l.Harness(ctx, "acct", "default"); err != nil {
		t.Errorf("a good key: %v", err)
	}
	t.Setenv("HARNESS_PLATFORM_API_KEY", "bad")
	if err := l.Harness(ctx, "acct", "default"); err == nil || !strings.Contains(err.Error(), "401") {
		t.Errorf("a bad key: %v", err)
	}
	t.Setenv("HARNESS_PLATFORM_API_KEY", "")
	if err := l.Harness(ctx, "acct", "default"); err == nil || !strings.Contains(err.Error(), "HARNESS_PLATFORM_API_KEY is not set") {
		t.Errorf("no key: %v", err)
	}

	t.Setenv("GITHUB_TOKEN", "ghs_good")
	if err := l.GitHub(ctx, "company", []string{"admin"}); err != nil {
		t.Errorf("an admin token: %v", err)
	}
	if g, err := l.GitHubRepo(ctx, "company", "admin"); err != nil || g != (GitHubRepo{Private: true, Admin: true, Push: true, PullRequestsOnly: true, ActionsAccess: "organization"}) {
		t.Errorf("a private repository whose main takes pull requests only: %+v %v", g, err)
	}
	if g, err := l.GitHubRepo(ctx, "company", "readonly"); err != nil || g != (GitHubRepo{}) {
		t.Errorf("a public repository the token may only read: %+v %v", g, err)
	}
	if plan, err := l.GitHubPlan(ctx, "company"); err != nil || plan != "team" {
		t.Errorf("the organisation's plan: %q %v", plan, err)
	}
	if plan, err := l.GitHubPlan(ctx, "someone"); err != nil || plan != "" {
		t.Errorf("an owner whose plan the token cannot read: %q %v", plan, err)
	}
	if g, err := l.GitHubOrg(ctx, "company"); err != nil || g != (GitHubOrg{Variables: true}) {
		t.Errorf("an organisation whose variables the token may use: %+v %v", g, err)
	}
	if g, err := l.GitHubOrg(ctx, "someone"); err != nil || g != (GitHubOrg{}) {
		t.Errorf("an organisation whose variables the token may not use: %+v %v", g, err)
	}
	if _, err := l.GitHubRepo(ctx, "company", "missing"); err == nil || !strings.Contains(err.Error(), "/repos/company/missing: 404") {
		t.Errorf("a missing repository: %v", err)
	}
	t.Setenv("GITHUB_TOKEN", "ghs_bad")
	if err := l.GitHub(ctx, "company", []string{"admin", "readonly"}); err == nil || !strings.Contains(err.Error(), "401") {
		t.Errorf("a bad token: %v", err)
	}
	t.Setenv("GITHUB_TOKEN", "")
	if err := l.GitHub(ctx, "company", []string{"admin"}); err == nil || !strings.Contains(err.Error(), "GITHUB_TOKEN is not set") {
		t.Errorf("no token: %v", err)
	}
}

// A cluster's API answers (any HTTP status) over TLS with the
// kubeconfig's CA; a server that does not answer is reported.
func TestLiveCluster(t *testing.T) {
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusUnauthorized) // no token: still reachable
	}))
	ca := base64.StdEncoding.EncodeToString(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: srv.Certificate().Raw}))
	kubeconfig := func(server string) string {
		return fmt.Sprintf(`{"apiVersion":"v1","kind":"Config","current-context":"c","clusters":[{"name":"c","cluster":{"server":%q,"certificate-authority-data":%q}}],"contexts":[{"name":"c","context":{"cluster":"c","user":"c"}}]}`, server, ca)
	}
	if err := (Live{}).Cluster(context.Background(), "euw1", kubeconfig(srv.URL)); err != nil {
		t.Errorf("a reachable API: %v", err)
	}
	// With the kubeconfig's credential plugin: its token must be known
	// to the cluster (a 401 is an identity with no access entry), and
	// the plugin must be installed.
	authed := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/api" || r.Header.Get("Authorization") != "Bearer known" {
			w.WriteHeader(http.StatusUnauthorized)
		}
	}))
	defer authed.Close()
	authedCA := base64.StdEncoding.EncodeToString(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: authed.Certificate().Raw}))
	dir := t.TempDir()
	plugin := func(tok string) {
		script := "#!/bin/sh\necho '{\"apiVersion\":\"client.authentication.k8s.io/v1beta1\",\"kind\":\"ExecCredential\",\"status\":{\"token\":\"" + tok + "\"}}'\n"
		if err := os.WriteFile(filepath.Join(dir, "fake-aws"), []byte(script), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("PATH", dir+string(os.PathListSeparator)+os.Getenv("PATH"))
	withPlugin := func(command string) string {
		return fmt.Sprintf(`{"apiVersion":"v1","kind":"Config","current-context":"c","clusters":[{"name":"c","cluster":{"server":%q,"certificate-authority-data":%q}}],"contexts":[{"name":"c","context":{"cluster":"c","user":"c"}}],"users":[{"name":"c","user":{"exec":{"apiVersion":"client.authentication.k8s.io/v1beta1","command":%q,"args":["eks","get-token"]}}}]}`, authed.URL, authedCA, command)
	}
	plugin("known")
	if err := (Live{}).Cluster(context.Background(), "euw1", withPlugin("fake-aws")); err != nil {
		t.Errorf("a known identity: %v", err)
	}
	plugin("stranger")
	if err := (Live{}).Cluster(context.Background(), "euw1", withPlugin("fake-aws")); err == nil || !strings.Contains(err.Error(), "401 Unauthorized: the cluster does not authenticate this run's identity") {
		t.Errorf("an identity without an access entry: %v", err)
	}
	if err := (Live{}).Cluster(context.Background(), "euw1", withPlugin("no-such-plugin")); err == nil || !strings.Contains(err.Error(), "exec: executable no-such-plugin not found") {
		t.Errorf("a missing credential plugin: %v", err)
	}
	if err := (Live{}).Command(context.Background(), "no-such-plugin"); err == nil {
		t.Error("a missing command was found")
	}

	url := srv.URL
	srv.Close()
	if err := (Live{}).Cluster(context.Background(), "euw1", kubeconfig(url)); err == nil {
		t.Error("a closed API server answered")
	}
}

// Before an up creates clusters, preflight checks that the run comes
// from the runners' networks and that the clusters' public endpoint will
// answer it, naming placeholder (reserved) networks.
func TestNetworkChecks(t *testing.T) {
	n := Network{File: "Pulumi.dev.yaml", Labels: []string{"self-hosted"}, EgressCidrs: []string{"52.94.76.0/28"}, PublicEndpoint: true, PublicAccessCidrs: []string{"52.94.76.0/28"}}
	placeholder := Network{File: n.File, Labels: n.Labels, EgressCidrs: []string{"198.51.100.0/28"}, PublicEndpoint: true, PublicAccessCidrs: []string{"198.51.100.0/28"}}
	for _, tc := range []struct {
		name string
		n    Network
		want []string
	}{
		{"from the runners", n, nil},
		{"placeholders", placeholder, []string{
			"the address this run comes from, 52.94.76.5: not in the runners' egressCidrs [198.51.100.0/28] (egressCidrs 198.51.100.0/28 is in a documentation range, TEST-NET-2 (RFC 5737); publicAccessCidrs 198.51.100.0/28 is in a documentation range, TEST-NET-2 (RFC 5737): placeholders no run comes from); run the job on the stack's runners (runs-on: [self-hosted]), and write their NAT network in Pulumi.dev.yaml (harness-platform:runner egressCidrs)",
			"the address this run comes from, 52.94.76.5: the clusters' public endpoint allows only publicAccessCidrs [198.51.100.0/28]: an up would create the clusters, then time out on their API (port 443)"}},
	} {
		problems := Run(context.Background(), inOrder(), Requirements{Network: &tc.n})
		var got []string
		for _, p := range problems {
			got = append(got, p.Error())
		}
		if len(got) != len(tc.want) {
			t.Errorf("%s: %d problems, want %d:\n%s", tc.name, len(got), len(tc.want), strings.Join(got, "\n"))
			continue
		}
		for i := range got {
			if !strings.HasPrefix(got[i], tc.want[i]) {
				t.Errorf("%s:\n got %s\nwant %s", tc.name, got[i], tc.want[i])
			}
		}
	}
}

// Live asks AWS's checkip for the run's address.
func TestLiveRunnerAddress(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { fmt.Fprintln(w, "52.94.76.5") }))
	defer srv.Close()
	if addr, err := (Live{CheckIP: srv.URL}).RunnerAddress(context.Background()); err != nil || addr != netip.MustParseAddr("52.94.76.5") {
		t.Errorf("address %v, %v", addr, err)
	}
}

// The run must be the environment's deployer or preview role, in its
// account: the AWS providers assume nothing and allow one account.
func TestIdentityChecks(t *testing.T) {
	a := AWSIdentities{Account: "111111111111", Deployer: "arn:aws:iam::111111111111:role/ci/harness-platform-deployer",
		Preview: "arn:aws:iam::111111111111:role/harness-platform-preview", Region: "eu-west-1", File: "Pulumi.dev.yaml"}
	for _, tc := range []struct{ caller, want string }{
		{"arn:aws:sts::111111111111:assumed-role/harness-platform-deployer/harness-platform-dev", ""},
		{"arn:aws:sts::111111111111:assumed-role/harness-platform-preview/pr-42", ""},
		{"arn:aws:sts::111111111111:assumed-role/platform-admin/alice", "the run is arn:aws:sts::111111111111:assumed-role/platform-admin/alice, neither the deployer (roleArn) nor the preview role (previewRoleArn) of Pulumi.dev.yaml"},
		{"arn:aws:sts::222222222222:assumed-role/harness-platform-deployer/x", "of another account: the AWS provider would refuse it (AWS account ID not allowed: 222222222222)"},
	} {
		problems := checkIdentity(context.Background(), fake{caller: tc.caller}, "dev", a)
		text := ""
		for _, p := range problems {
			text += p.Error()
		}
		if tc.want == "" && text != "" || !strings.Contains(text, tc.want) {
			t.Errorf("%s: got %q, want %q", tc.caller, text, tc.want)
		}
		if tc.want != "" && !strings.Contains(text, "run an up with ESC environment harness-platform/dev") {
			t.Errorf("%s: no fix in %q", tc.caller, text)
		}
	}
}

// What GitHub refuses of the stacks' writes in a repository, reported
// before the run: protection rules its plan does not allow, writes the
// token's permissions do not cover, commits to a pull-request-only branch.
func TestGitHubRepoChecks(t *testing.T) {
	all := GitHubWrite{Owner: "company", Repo: "r", Admin: true, Reviewers: true, Files: true, Workflows: true}
	for _, tc := range []struct {
		name, plan string
		repo       GitHubRepo
		want       []string
	}{
		{"public, everything allowed", "team", GitHubRepo{Admin: true, Push: true}, nil},
		{"private on Enterprise", "enterprise", GitHubRepo{Private: true, Admin: true, Push: true, ActionsAccess: "organization"}, nil},
		{"private, plan unknown", "", GitHubRepo{Private: true, Admin: true, Push: true, ActionsAccess: "organization"}, nil},
		{"private, its workflows callable only from itself", "enterprise", GitHubRepo{Private: true, Admin: true, Push: true, ActionsAccess: "none"},
			[]string{`private, with Actions access level "none": the services' repositories cannot call its reusable workflow deploy-to-harness.yml; set its Actions access to the organization`}},
		{"private on Team", "team", GitHubRepo{Private: true, Admin: true, Push: true, ActionsAccess: "organization"},
			[]string{"GitHub repository company/r: private, and the organisation's plan is team: GitHub refuses required reviewers there (422 Failed to create the environment protection rule. Please ensure the billing plan supports the required reviewers protection rule.); make the repository public, move the organisation to GitHub Enterprise, or give its staging and production environments no reviewers"}},
		{"read-only token, pull requests only", "enterprise", GitHubRepo{PullRequestsOnly: true},
			[]string{"the token may not administer it", "the token may not write its contents", "its default branch takes changes only through pull requests: the catalog-info.yaml commit would be refused (409 Changes must be made through a pull request); let the platform's GitHub App bypass that rule"}},
	} {
		problems := checkGitHubRepo(context.Background(), fake{repo: tc.repo}, all, tc.plan)
		var got []string
		for _, p := range problems {
			got = append(got, p.Error())
		}
		if len(got) != len(tc.want) {
			t.Errorf("%s: %d problems, want %d:\n%s", tc.name, len(got), len(tc.want), strings.Join(got, "\n"))
			continue
		}
		for i := range got {
			if !strings.Contains(got[i], tc.want[i]) {
				t.Errorf("%s:\n got %s\nwant %s", tc.name, got[i], tc.want[i])
			}
		}
	}
	// A service's repository is only read (its id) and given the
	// webhook variables: no administration asked; but on GitHub Free a
	// private one sees no organisation variable.
	service := GitHubWrite{Owner: "company", Repo: "r", Webhooks: true}
	if p := checkGitHubRepo(context.Background(), fake{repo: GitHubRepo{Private: true}}, service, "team"); len(p) != 0 {
		t.Errorf("a service's repository on Team: %v", p)
	}
	if p := checkGitHubRepo(context.Background(), fake{repo: GitHubRepo{}}, service, "free"); len(p) != 0 {
		t.Errorf("a public service repository on Free: %v", p)
	}
	p := checkGitHubRepo(context.Background(), fake{repo: GitHubRepo{Private: true}}, service, "free")
	if len(p) != 1 || !strings.Contains(p[0].Error(), "organisation variables and secrets are not available to private repositories on GitHub Free") {
		t.Errorf("a private service repository on Free: %v", p)
	}
}

// A run that changes nothing (a preview, the drift check) holds a
// read-only GitHub token: preflight does not ask it for what only writes
// need, and a refused credential's fix names the read-only token.
func TestReadOnlyRun(t *testing.T) {
	r := Requirements{Environment: "dev", Account: "a", Org: "o", GitHub: map[string][]string{"company": {"r"}},
		Writes: []GitHubWrite{{Owner: "company", Repo: "r", Reviewers: true, Files: true}}}
	readOnly := inOrder()
	readOnly.plan = "enterprise"
	readOnly.repo = GitHubRepo{} // may not administer, may not write
	if p := Run(context.Background(), readOnly, r); len(p) == 0 {
		t.Fatal("an up with a read-only token passed preflight")
	}
	r.ReadOnly = true
	if p := Run(context.Background(), readOnly, r); len(p) != 0 {
		t.Errorf("a read-only run asked for writes: %v", p)
	}
	p := Run(context.Background(), refusing(), r)
	found := false
	for _, pr := range p {
		if strings.Contains(pr.Fix, "harness-platform/ci-preview") {
			found = true
		}
	}
	if !found {
		t.Errorf("a refused read-only run's fixes do not name the read-only token: %v", p)
	}
}

// A run whose calls need longer than a run may take is refused with the
// numbers: 2,003 GitHub writes need four hours of the content budget
// (fits six); with 100 calls left of the credential's hour, reset in 50
// minutes, 4,006 calls need another hour after the reset (fits); within
// two hours neither fits. The Harness key's budget bounds the time too.
func TestBudgetCheck(t *testing.T) {
	dev := devFirstUpGitHub()
	f := inOrder()
	f.rate = RateLimit{Limit: 15000, Remaining: 100, Reset: 50 * time.Minute}
	r := Requirements{Environment: "dev", GitHub: map[string][]string{"company": {"svc"}}, Calls: dev}
	if p := checkBudget(context.Background(), f, r); len(p) != 0 {
		t.Fatalf("refused within six hours: %v", p)
	}
	r.MaxRunTime = 2 * time.Hour
	p := checkBudget(context.Background(), f, r)
	if len(p) != 1 {
		t.Fatalf("not refused within two hours: %v", p)
	}
	msg := p[0].Error()
	for _, s := range []string{
		"need at least 4h, and a run may take 2h",
		"GitHub content-generating (per hour) (500 per hour): 2003 calls, at least 4h",
		"GitHub credential on company: 100 of 15000 calls remain this hour, reset in 50m; 4006 needed, at least 50m",
		"split the run",
	} {
		if !strings.Contains(msg, s) {
			t.Errorf("the refusal lacks %q:\n%s", s, msg)
		}
	}
	// Harness alone: 130,000 calls are over two hours of one key's.
	r = Requirements{Environment: "dev", MaxRunTime: 2 * time.Hour, Calls: apibudget.Calls{HarnessReads: 65000, HarnessWrites: 65000}}
	if p := checkBudget(context.Background(), f, r); len(p) != 1 || !strings.Contains(p[0].Error(), "Harness API key (1000 per minute): 130000 calls, at least 2h 9m") {
		t.Errorf("the Harness key's budget: %v", p)
	}
	// Nothing known, nothing checked.
	if p := checkBudget(context.Background(), f, Requirements{MaxRunTime: time.Nanosecond}); len(p) != 0 {
		t.Errorf("refused a run of no calls: %v", p)
	}
}

// devFirstUpGitHub are dev's first up at 1,000 services in GitHub (issue 34's
// measure): 2,003 objects created.
func devFirstUpGitHub() apibudget.Calls {
	return apibudget.Calls{GitHubReads: 2003, GitHubWrites: 2003, GitHubContent: 2003}
}

// An account that enforces Git Experience refuses the inline pipelines
// and templates the stacks save: preflight says so with Harness's words
// and the fix, before an up meets it; a read-only run saves nothing and
// is not asked.
func TestGitExperienceEnforced(t *testing.T) {
	r := Requirements{Environment: "dev", Account: "acct", Org: "default", Project: "platform"}
	f := inOrder()
	f.gitx = GitExperience{Enforced: true, DefaultStore: "REMOTE"}
	problems := Run(context.Background(), f, r)
	if len(problems) != 1 || problems[0].Check != "Harness Git Experience of project default/platform" ||
		!strings.Contains(problems[0].Error(), "Git Experience is enforced for the current scope with accountId: [acct], orgIdentifier: [default] and projIdentifier: [platform]. Hence Interaction with INLINE entities is forbidden.") ||
		!strings.Contains(problems[0].Fix, "enforce_git_experience") {
		t.Errorf("problems %v", problems)
	}
	r.ReadOnly = true
	if problems := Run(context.Background(), f, r); len(problems) != 0 {
		t.Errorf("a read-only run: %v", problems)
	}
	// A REMOTE default is met by the store type the stacks declare.
	f.gitx.Enforced, r.ReadOnly = false, false
	if problems := Run(context.Background(), f, r); len(problems) != 0 {
		t.Errorf("a REMOTE default: %v", problems)
	}
}

// Every manifest a pipeline of the environment deploys is on the config
// repository's branch and takes its image from the Values file; each one
// missing or not conforming is reported with the service's catalog entry
// and the fix, from one read of the repository's archive.
func TestManifestsContract(t *testing.T) {
	c := catalogtest.Example(t, "..")
	r, err := Require(c, "acct", "dev", nil)
	if err != nil {
		t.Fatal(err)
	}
	m := r.Manifests
	if m == nil || m.Owner != example.Answers(t).GitHub.Organization || m.Repo != "platform-next" || m.Branch != "main" || len(m.Files) == 0 {
		t.Fatalf("manifests %+v", m)
	}
	f := inOrder()
	f.tree = map[string]string{"README.md": "not a manifest"}
	for _, file := range m.Files {
		f.tree[file.Path] = "spec:\n  template:\n    spec:\n      containers:\n        - name: app\n          image: {{ .Values.image }}\n"
	}
	if problems := checkManifests(context.Background(), f, m); len(problems) != 0 {
		t.Errorf("every manifest present: %v", problems)
	}
	missing, pinned := m.Files[0], m.Files[1]
	delete(f.tree, missing.Path)
	f.tree[pinned.Path] = "spec:\n  template:\n    spec:\n      containers:\n        - name: app\n          image: " + pinned.Image + ":1.4.2\n"
	problems := checkManifests(context.Background(), f, m)
	if len(problems) != 2 || !strings.Contains(problems[0].Error(), missing.Path+example.L(t, " is not on branch main of company/platform-next")) ||
		!strings.Contains(problems[0].Check, "catalog/services.yaml:") || !strings.Contains(problems[0].Fix, "{{.Values.image}}") {
		t.Errorf("one missing: %v", problems)
	}
	if len(problems) == 2 && (!strings.Contains(problems[1].Error(), pinned.Path+example.L(t, " on branch main of company/platform-next breaks the manifests contract: it names the service's image itself (image: ")+pinned.Image+":1.4.2)") ||
		!strings.Contains(problems[1].Check, "manifests of "+pinned.Service) || !strings.Contains(problems[1].Fix, "image: {{.Values.image}}")) {
		t.Errorf("one with its own tag: %v", problems[1])
	}
}

// Where the operator delivers the stack and the run is the operator's,
// the address the clusters must admit is the operator's NAT, not the
// runners'.
func TestOperatorRunsFromItsNetwork(t *testing.T) {
	files := catalogtest.ShippedFiles(t, "..")
	old := []byte("  harness-platform:runner:\n")
	files["Pulumi.dev.yaml"] = bytes.Replace(files["Pulumi.dev.yaml"], old,
		[]byte("  harness-platform:delivery: operator\n  harness-platform:runner:\n    operatorEgressCidrs: [198.51.100.0/29]\n"), 1)
	c, err := catalog.Parse(files)
	if err != nil {
		t.Fatal(err)
	}
	runners := c.Stacks["dev"].Runner.EgressCidrs
	t.Setenv(catalog.DeliveryEnv, catalog.DeliveryOperator)
	r, err := Require(c, "acct", "dev", nil)
	if err != nil || r.Network == nil || !slices.Equal(r.Network.EgressCidrs, []string{"198.51.100.0/29"}) {
		t.Fatalf("the operator's run: %+v %v", r.Network, err)
	}
	t.Setenv(catalog.DeliveryEnv, catalog.DeliveryGitHubActions)
	if r, err = Require(c, "acct", "dev", nil); err != nil || !slices.Equal(r.Network.EgressCidrs, runners) {
		t.Fatalf("the runners' run: %+v %v", r.Network, err)
	}
}

// A delegate token the stack would create under a name Harness holds
// revoked is reported with the date Harness frees it and the generation
// to take, past every one Harness holds; an active one (the stack's own)
// and a read-only run are not.
func TestRevokedDelegateTokenNames(t *testing.T) {
	pos := diag.Pos{File: "Pulumi.dev.yaml", Line: 12, Col: 13}
	r := Requirements{Environment: "dev", Account: "acct", DelegateTokens: []PlannedToken{
		{Name: "harness-delegate-int-stable-euw1-token", Region: "euw1", Pos: pos},
		{Name: "harness-delegate-int-stable-euw2-token", Region: "euw2", Pos: pos},
	}}
	f := inOrder()
	f.tokens = []DelegateToken{
		{Name: "harness-delegate-int-stable-euw1-token", Status: "REVOKED"},
		{Name: "harness-delegate-int-stable-euw1-g2-token", Status: "ACTIVE"},
		{Name: "harness-delegate-int-stable-euw2-token", Status: "ACTIVE"},
	}
	problems := Run(context.Background(), f, r)
	if len(problems) != 1 || problems[0].Check != "delegate token harness-delegate-int-stable-euw1-token of region euw1" ||
		!strings.Contains(problems[0].Error(), "Pulumi.dev.yaml:12:13: the token was revoked within the last 30 days (Harness keeps a revoked token's name that long, and does not list since when)") ||
		!strings.Contains(problems[0].Error(), "Token with given name already exists for given account, org and project") ||
		problems[0].Fix != "set delegateTokenGeneration: 3 on region euw1 (Pulumi.dev.yaml:12:13), or run platformctl rotate-delegate-token, which picks it" {
		t.Errorf("problems %v", problems)
	}
	r.ReadOnly = true
	if problems := Run(context.Background(), f, r); len(problems) != 0 {
		t.Errorf("a read-only run: %v", problems)
	}
}
