package engine

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

// cloudFiles reads every simulated provider's cloud.
func cloudFiles(t *testing.T, state string) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	for _, p := range []string{"harness", "aws", "kubernetes", "github"} {
		data, err := os.ReadFile(filepath.Join(state, "cloud", p+".json"))
		if err != nil {
			t.Fatal(err)
		}
		out[p] = data
	}
	return out
}

// The project's policy pack passes the example stacks, and refuses a
// Production approval below the organisation's threshold and a script
// step, in preview and in up, with the policy's name and what to fix; a
// refused up changes nothing.
func TestPolicyPack(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	pack, err := BuildPolicyPack("..")
	if err != nil {
		t.Fatal(err)
	}
	if again, err := BuildPolicyPack(".."); err != nil || again != pack {
		t.Fatalf("second build: %s %v, want the cached %s", again, err, pack)
	}
	c := example(t)
	state := t.TempDir()
	s := open(t, state, c)
	config, err := PolicyConfig("..")
	if err != nil {
		t.Fatal(err)
	}
	withPack := UpOptions{PolicyPacks: []string{pack}, PolicyPackConfigs: []string{config}}
	for _, stack := range []string{"dev", "staging"} {
		if _, err := s.Up(ctx, stack, withPack); err != nil {
			t.Fatalf("up %s with the policy pack: %v\n%s", stack, err, s.out)
		}
	}
	if strings.Contains(s.out.String(), "[mandatory]") || strings.Contains(s.out.String(), "[advisory]") {
		t.Fatalf("the example stacks violate the pack:\n%s", s.out)
	}

	refused := func(t *testing.T, s harnessSession, o PreviewOptions, policy, message string) {
		t.Helper()
		before := cloudFiles(t, state)
		resources := stateURNs(t, state, "staging")
		s.out.b.Reset()
		if _, err := s.Preview(ctx, "production", o); err == nil {
			t.Fatal("preview passed")
		}
		for _, want := range []string{policy, message} {
			if !strings.Contains(s.out.String(), want) {
				t.Errorf("preview output does not say %q:\n%s", want, s.out)
			}
		}
		if _, err := s.Up(ctx, "production", UpOptions{PolicyPacks: o.PolicyPacks, PolicyPackConfigs: o.PolicyPackConfigs}); err == nil {
			t.Fatal("up passed")
		}
		for p, data := range cloudFiles(t, state) {
			if !bytes.Equal(before[p], data) {
				t.Errorf("the refused up changed the simulated %s cloud", p)
			}
		}
		if _, err := os.Stat(filepath.Join(state, "backend", ".pulumi", "stacks", "harness-platform", "production.json")); err == nil {
			if n := len(stateEntries(t, state, "production")); n > 0 {
				t.Errorf("the refused up left %d resources in production's state", n)
			}
		}
		if after := stateURNs(t, state, "staging"); strings.Join(after, "\n") != strings.Join(resources, "\n") {
			t.Error("staging's state changed")
		}
	}

	t.Run("approvals below the organisation's threshold", func(t *testing.T) {
		cfg := filepath.Join(t.TempDir(), "policy.json")
		// The project's config, with the organisation's threshold raised.
		var project map[string]any
		if data, err := os.ReadFile(config); err != nil || json.Unmarshal(data, &project) != nil {
			t.Fatalf("reading %s: %v", config, err)
		}
		project["production-pipeline-gates"] = map[string]any{"minApprovers": 2}
		data, _ := json.Marshal(project)
		if err := os.WriteFile(cfg, data, 0o600); err != nil {
			t.Fatal(err)
		}
		o := PreviewOptions{PolicyPacks: []string{pack}, PolicyPackConfigs: []string{cfg}}
		refused(t, s, o, "production-pipeline-gates", "approvers.minimumCount is 1; require at least 2")
	})

	t.Run("a shell script step", func(t *testing.T) {
		// What a faulty generator would register: a ShellScript step in
		// the template of payment-service's Production pipeline.
		transformed := openWith(t, state, c, func(_ context.Context, args *pulumi.ResourceTransformArgs) *pulumi.ResourceTransformResult {
			if args.Type != "harness:platform/template:Template" || !strings.HasPrefix(args.Name, "deploy_api_prod_canary_verified-") {
				return nil
			}
			y, ok := args.Props["templateYaml"].(pulumi.String)
			if !ok {
				return nil
			}
			edited := strings.Replace(string(y), "type: K8sCanaryDelete\n", "type: ShellScript\n", 1)
			if edited == string(y) {
				panic("the template has no canary delete step: update the test")
			}
			args.Props["templateYaml"] = pulumi.String(edited)
			return &pulumi.ResourceTransformResult{Props: args.Props, Opts: args.Opts}
		})
		refused(t, transformed, PreviewOptions{PolicyPacks: withPack.PolicyPacks, PolicyPackConfigs: withPack.PolicyPackConfigs}, "no-script-steps", "step rollback_canary_delete is a ShellScript step")
	})

	if _, err := s.Up(ctx, "production", withPack); err != nil {
		t.Fatalf("up production with the policy pack: %v\n%s", err, s.out)
	}
}
