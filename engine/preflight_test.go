package engine

import (
	"context"
	"fmt"
	"maps"
	"net/netip"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"

	"github.com/company/harness-platform/apibudget"
	"github.com/company/harness-platform/calendar"
	exampletest "github.com/company/harness-platform/internal/example"
	"github.com/company/harness-platform/preflight"
	"github.com/company/harness-platform/simulated"
	"github.com/company/harness-platform/simulated/aws"
)

// Preflight against the simulated services: with everything in place it
// passes and the preview runs; each refusal the real services make (no
// GitHub credential, a Harness key refused, an AWS role that cannot be
// assumed, a cluster API that does not answer from the runner's network,
// a stack locked by another run) is reported, all at once, with its fix;
// and the operation itself meets the same refusals from the simulated
// providers, so a preflight that passes is one the run agrees with.
func TestPreflight(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	c := example(t)
	state := t.TempDir()
	s := open(t, state, c)
	if problems, err := s.Preflight(ctx, "dev"); err != nil || len(problems) > 0 {
		t.Fatalf("preflight before the first up: %v %v", problems, err)
	}
	// From outside the runners' networks, before the clusters exist: the
	// up would create them and then time out on their API.
	s.servers().SetReach(simulated.Reach{Runner: netip.MustParseAddr("192.0.2.10")})
	problems, err := s.Preflight(ctx, "dev")
	for _, want := range []string{
		exampletest.L(t, "the address this run comes from, 192.0.2.10: not in the runners' egressCidrs [198.51.100.0/28]"),
		exampletest.L(t, "the address this run comes from, 192.0.2.10: the clusters' public endpoint allows only publicAccessCidrs [198.51.100.0/28]: an up would create the clusters, then time out on their API (port 443)"),
	} {
		if err != nil || !strings.Contains(problemsText(problems), want) {
			t.Errorf("preflight before the first up, from outside: %v, want %q:\n%s", err, want, problemsText(problems))
		}
	}
	// Deployed (a copy of the shared deployed dev).
	s.Close()
	state = deployedDev(t)
	s = open(t, state, c)
	if problems, err := s.Preflight(ctx, "dev"); err != nil || len(problems) > 0 {
		t.Fatalf("preflight with everything in place: %v %v", problems, err)
	}
	if _, err := s.Preview(ctx, "dev", PreviewOptions{ExpectNoChanges: true}); err != nil {
		t.Fatalf("preview after a passing preflight: %v\n%s", err, s.out)
	}

	// Everything refused at once.
	outside := netip.MustParseAddr("192.0.2.10")
	stranger := "arn:aws:iam::999999999999:role/harness-platform-deployer"
	s.servers().SetReach(simulated.Reach{Runner: outside, NoGitHubCredential: true, InvalidHarnessKey: true, Identities: []string{stranger}})
	lockDir := filepath.Join(state, "backend", ".pulumi", "locks", "organization", "harness-platform", "dev")
	if err := os.MkdirAll(lockDir, 0o700); err != nil {
		t.Fatal(err)
	}
	lock := filepath.Join(lockDir, "0123.json")
	if err := os.WriteFile(lock, []byte(`{"pid":4242,"username":"runner","hostname":"ci-7","timestamp":"2026-11-25T10:00:00Z"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	problems, err = s.Preflight(ctx, "dev")
	if err != nil {
		t.Fatal(err)
	}
	text := problemsText(problems)
	want := []string{
		"the lock of stack dev: held by runner@ci-7 (pid 4242) since 2026-11-25T10:00:00Z; wait for that run to end; if it was killed, `platformctl recover --stack dev --offline --unlock --yes`",
		"Harness API key for account " + simulated.Account + `: 401 Unauthorized: {"status":"ERROR","code":"INVALID_TOKEN"`,
		exampletest.L(t, "GitHub credential for owner company (accounts, "),
		"401 Requires authentication []; give the GitHub provider a token (GITHUB_TOKEN, from ESC harness-platform/ci)",
		exampletest.L(t, "AWS identity in account 111111111111: the run is arn:aws:sts::999999999999:assumed-role/harness-platform-deployer/harness-platform, of another account: the AWS provider would refuse it (AWS account ID not allowed: 999999999999); run an up with ESC environment harness-platform/dev"),
		"cluster API of dev/euw1: Get \"https://",
		"cluster API of dev/euw2: Get \"https://",
		"i/o timeout (the cluster's API does not answer from 192.0.2.10",
		"run the job on the stack's runners (harness-platform:runner labels)",
	}
	for _, w := range want {
		if !strings.Contains(text, w) {
			t.Errorf("preflight does not report %q:\n%s", w, text)
		}
	}
	if err := os.Remove(lock); err != nil {
		t.Fatal(err)
	}

	// The operation meets each refusal alone, as preflight said.
	for _, c := range []struct {
		name  string
		reach simulated.Reach
		want  string
		// preview is what the preview meets, when not want.
		preview string
	}{
		{"no GitHub credential", simulated.Reach{Runner: simulated.DefaultReach(c).Runner, NoGitHubCredential: true}, "401 Requires authentication", ""},
		{"runner outside the clusters' networks", simulated.Reach{Runner: outside}, "i/o timeout (the cluster's API does not answer from 192.0.2.10", ""},
		{"credentials of another account", simulated.Reach{Runner: simulated.DefaultReach(c).Runner, Identities: []string{stranger}}, "AWS account ID not allowed: 999999999999", ""},
		{"an identity with no access entry", simulated.Reach{Runner: simulated.DefaultReach(c).Runner, Identities: []string{exampletest.L(t, "arn:aws:iam::111111111111:role/someone-else")}},
			exampletest.L(t, "the run is arn:aws:sts::111111111111:assumed-role/someone-else/harness-platform, neither the deployer"),
			exampletest.L(t, "the server has asked for the client to provide credentials (arn:aws:iam::111111111111:role/someone-else has no access entry on EKS cluster int-stable-euw1)")},
		{"no credential plugin", simulated.Reach{Runner: simulated.DefaultReach(c).Runner, Identities: simulated.DefaultReach(c).Identities, NoCredentialPlugin: true}, "exec: executable aws not found", ""},
	} {
		s.servers().SetReach(c.reach)
		problems, err := s.Preflight(ctx, "dev")
		if err != nil || !strings.Contains(problemsText(problems), c.want) {
			t.Errorf("%s: preflight reports %s %v, want %q", c.name, problemsText(problems), err, c.want)
		}
		s.out.Reset()
		if c.preview == "" {
			c.preview = c.want
		}
		if _, err := s.Preview(ctx, "dev", PreviewOptions{}); err == nil || !strings.Contains(s.out.String(), c.preview) {
			t.Errorf("%s: the preview passed or failed otherwise (%v), want %q:\n%s", c.name, err, c.preview, s.out)
		}
	}
}

// Preflight's question to EKS of the add-ons' versions (DescribeAddonVersions)
// agrees with the run: in the deployed dev, the versions it judges are
// those of the add-ons the up created (the VPC CNI, whose table has no
// row for 1.35, none), each the one the simulated EKS lists for the
// cluster's version, as its default, and preflight reports nothing; a
// version the simulated EKS does not list for it, preflight reports with
// the one it lists, and the simulated EKS refuses as the update of the
// deployed add-on.
func TestPreflightEKSAddons(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	c := example(t)
	s := open(t, deployedDev(t), c)
	if problems, err := s.Preflight(ctx, "dev"); err != nil || len(problems) > 0 {
		t.Fatalf("preflight of the deployed dev: %v %v", problems, err)
	}
	req, err := preflight.Require(c, s.account(), "dev", nil)
	if err != nil {
		t.Fatal(err)
	}
	cloud := s.servers().Cloud("aws")
	if err := cloud.Reload(); err != nil {
		t.Fatal(err)
	}
	deployed := map[string]string{} // cluster/add-on: version
	var unversioned []string        // created at EKS's default build
	for _, r := range cloud.OfType("aws:eks/addon:Addon") {
		name := fmt.Sprint(r.Properties["clusterName"]) + "/" + fmt.Sprint(r.Properties["addonName"])
		if v, ok := r.Properties["addonVersion"]; ok {
			deployed[name] = fmt.Sprint(v)
		} else {
			unversioned = append(unversioned, name)
		}
	}
	judged := map[string]string{}
	var unpinned []string
	for _, e := range req.EKS {
		for _, a := range e.Addons {
			if a.Version == "" {
				unpinned = append(unpinned, e.Name+"/"+a.Name)
				continue
			}
			judged[e.Name+"/"+a.Name] = a.Version
			listed, err := s.servers().EKSAddonVersions(ctx, e.Region, a.Name, e.Version)
			if want := []preflight.EKSAddonVersion{{Version: a.Version, Default: true}}; err != nil || !slices.Equal(listed, want) {
				t.Errorf("%s on %s: the simulated EKS lists %+v %v, want %+v", a.Name, e.Name, listed, err, want)
			}
		}
	}
	if len(deployed) == 0 || !maps.Equal(judged, deployed) {
		t.Errorf("preflight judges the add-ons %v, the up created %v", judged, deployed)
	}
	// The VPC CNI at 1.35 (no row): created without a version, and
	// preflight knows it as EKS's default.
	slices.Sort(unversioned)
	slices.Sort(unpinned)
	if !slices.Equal(unversioned, unpinned) {
		t.Errorf("created without a version %v, preflight leaves to EKS %v", unversioned, unpinned)
	}

	// CoreDNS at the build the table gives for 1.33, on the 1.35 cluster.
	e := req.EKS[0]
	coredns, _ := calendar.LookupEKSAddon("coredns")
	stale := coredns.Version("1.33")
	for i, a := range e.Addons {
		if a.Name == "coredns" {
			e.Addons[i].Version = stale
		}
	}
	problems := preflight.Run(ctx, s.servers(), preflight.Requirements{Account: req.Account, EKS: []preflight.EKSCluster{e}})
	want := fmt.Sprintf("EKS add-on coredns of cluster %s in %s (Kubernetes %s): EKS does not list %s, the version calendar/eks-addons.json gives for Kubernetes %s, as compatible with it (DescribeAddonVersions lists %s (default))",
		e.Name, e.Region, e.Version, stale, e.Version, coredns.Version(e.Version))
	if text := problemsText(problems); !strings.Contains(text, want) {
		t.Errorf("preflight of CoreDNS %s: %s, want %q", stale, text, want)
	}
	update := resource.NewPropertyMapFromMap(map[string]any{"clusterName": e.Name, "addonName": "coredns", "addonVersion": stale})
	if err := (aws.Behavior{}).CheckSave("aws:eks/addon:Addon", update, cloud); err == nil ||
		!strings.HasPrefix(err.Error(), "updating EKS Add-On ("+e.Name+":coredns): operation error EKS: UpdateAddon") ||
		!strings.HasSuffix(err.Error(), "InvalidParameterException: Addon version specified is not supported") {
		t.Errorf("the simulated EKS's update of CoreDNS to %s: %v", stale, err)
	}
}

func problemsText(problems []preflight.Problem) string {
	var b strings.Builder
	for _, p := range problems {
		b.WriteString(p.Error() + "\n")
	}
	return b.String()
}

// An update plan's calls: each resource's planned steps as its provider
// makes them (a replacement once, its create and delete halves not
// again), nothing for what stays; no plan file, no calls.
func TestPlanCalls(t *testing.T) {
	dir := t.TempDir()
	plan := `{"resourcePlans": {
  "urn:pulumi:dev.services::harness-platform::harness:platform/pipeline:Pipeline::a": {"steps": ["create"]},
  "urn:pulumi:dev.services::harness-platform::harness:platform/pipeline:Pipeline::b": {"steps": ["same"]},
  "urn:pulumi:dev.services::harness-platform::github:index/actionsOrganizationVariable:ActionsOrganizationVariable::company-webhooks": {"steps": ["replace", "create-replacement", "delete-replaced"]},
  "urn:pulumi:dev.services::harness-platform::pulumi:providers:github::github-company": {"steps": ["create"]}
}}`
	file := filepath.Join(dir, "dev.services.plan.json")
	if err := os.WriteFile(file, []byte(plan), 0o600); err != nil {
		t.Fatal(err)
	}
	got, err := planCalls(file)
	if err != nil {
		t.Fatal(err)
	}
	want := apibudget.Calls{HarnessReads: 1, HarnessWrites: 1, GitHubReads: 2, GitHubWrites: 2, GitHubContent: 2}
	if got != want {
		t.Errorf("plan calls %s, want %s", got, want)
	}
	if none, err := planCalls(filepath.Join(dir, "missing.plan.json")); err != nil || !none.IsZero() {
		t.Errorf("no plan: %s, %v", none, err)
	}
	if err := os.WriteFile(file, []byte("{"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := planCalls(file); err == nil || !strings.Contains(err.Error(), file) {
		t.Errorf("a broken plan: %v", err)
	}
}
