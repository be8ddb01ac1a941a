package engine

import (
	"context"
	"strings"
	"testing"

	exampletest "github.com/company/harness-platform/internal/example"
	"github.com/company/harness-platform/plan"
	"github.com/company/harness-platform/simulated"
)

// In an account that enforces Git Experience, preflight reports, with
// Harness's words and the fix, what the up then meets: Harness refuses
// the inline templates and pipelines; nothing else of the stack's Harness
// objects is the refusal's.
func TestGitExperienceEnforcedAsPreflightSays(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	c := example(t)
	s := open(t, t.TempDir(), c)
	reach := simulated.DefaultReach(c)
	reach.HarnessGitExperienceEnforced = true
	s.servers().SetReach(reach)
	want := "Hence Interaction with INLINE entities is forbidden."
	problems, err := s.Preflight(ctx, "dev")
	if err != nil {
		t.Fatal(err)
	}
	if text := problemsText(problems); !strings.Contains(text, "Harness Git Experience of project") || !strings.Contains(text, want) || !strings.Contains(text, "enforce_git_experience") {
		t.Errorf("preflight: %s", text)
	}
	if _, err := s.Up(ctx, "dev", UpOptions{}); err == nil || !strings.Contains(err.Error()+s.out.String(), want) {
		t.Errorf("the up was not refused as preflight said: %v\n%s", err, s.out)
	}
}

// A manifest the config repository does not hold, or that does not take
// its image from the Values file, is what preflight reports, with the
// service's catalog line, before a pipeline fetches it; with every
// manifest there and conforming, nothing.
func TestManifestsContractAsPreflightSays(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	c := example(t)
	s := open(t, t.TempDir(), c)
	if problems, err := s.Preflight(ctx, "dev"); err != nil || len(problems) != 0 {
		t.Fatalf("every manifest there: %v %s", err, problemsText(problems))
	}
	// dev's first manifest, as the pipelines fetch it.
	first := plan.Manifests(c, "dev").Files[0].Path
	reach := simulated.DefaultReach(c)
	for _, files := range reach.GitHub.Files {
		delete(files, first)
	}
	s.servers().SetReach(reach)
	problems, err := s.Preflight(ctx, "dev")
	if err != nil {
		t.Fatal(err)
	}
	if text := problemsText(problems); len(problems) != 1 || !strings.Contains(text, exampletest.L(t, "is not on branch main of company/platform-next")) || !strings.Contains(text, "catalog/services.yaml:") {
		t.Errorf("one manifest missing: %s", text)
	}
	// One manifest with an image of its own instead of the Values file's:
	// the pipeline would deploy it, whatever the run was given.
	reach = simulated.DefaultReach(c)
	for _, files := range reach.GitHub.Files {
		files[first] = strings.Replace(files[first], "{{.Values.image}}", exampletest.L(t, "registry.company.io/payments/payment-service:1.4.2"), 1)
	}
	s.servers().SetReach(reach)
	if problems, err = s.Preflight(ctx, "dev"); err != nil {
		t.Fatal(err)
	}
	if text := problemsText(problems); len(problems) != 1 || !strings.Contains(text, "breaks the manifests contract") || !strings.Contains(text, "catalog/services.yaml:") {
		t.Errorf("one manifest not taking its image from the Values file: %s", text)
	}
	// One manifest whose pods its namespace's Pod Security level refuses
	// (Kubernetes' own checks): a privileged container, and one that may
	// run as root.
	for _, tc := range []struct{ name, from, to, want string }{
		{"privileged", "allowPrivilegeEscalation: false\n", "allowPrivilegeEscalation: false\n            privileged: true\n", `must not set securityContext.privileged=true`},
		{"runAsNonRoot", "runAsNonRoot: true\n", "runAsUser: 1000\n", `must set securityContext.runAsNonRoot=true`},
	} {
		reach = simulated.DefaultReach(c)
		for _, files := range reach.GitHub.Files {
			if !strings.Contains(files[first], tc.from) {
				t.Fatalf("%s: the simulated manifest has no %q", tc.name, tc.from)
			}
			files[first] = strings.Replace(files[first], tc.from, tc.to, 1)
		}
		s.servers().SetReach(reach)
		if problems, err = s.Preflight(ctx, "dev"); err != nil {
			t.Fatal(err)
		}
		if text := problemsText(problems); len(problems) != 1 || !strings.Contains(text, first) || !strings.Contains(text, `would violate PodSecurity "restricted:v1.`) ||
			!strings.Contains(text, tc.want) || !strings.Contains(text, "catalog/services.yaml:") {
			t.Errorf("%s: %s", tc.name, text)
		}
	}
	// One manifest with a PersistentVolumeClaim: the EKS clusters run no
	// EBS CSI driver, so it would stay Pending.
	reach = simulated.DefaultReach(c)
	for _, files := range reach.GitHub.Files {
		files[first] += "---\napiVersion: v1\nkind: PersistentVolumeClaim\nmetadata:\n  name: data\nspec:\n  accessModes: [ReadWriteOnce]\n  resources: {requests: {storage: 1Gi}}\n"
	}
	s.servers().SetReach(reach)
	if problems, err = s.Preflight(ctx, "dev"); err != nil {
		t.Fatal(err)
	}
	if text := problemsText(problems); len(problems) != 1 || !strings.Contains(text, "asks for persistent volumes (PersistentVolumeClaim data)") ||
		!strings.Contains(text, "has no storage driver") || !strings.Contains(text, "catalog/services.yaml:") {
		t.Errorf("a manifest with a volume claim: %s", text)
	}
}
