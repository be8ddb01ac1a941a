package engine

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/pulumi/pulumi/sdk/v3/go/common/apitype"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"

	"github.com/company/harness-platform/catalog"
	"github.com/company/harness-platform/internal/catalogtest"
	exampletest "github.com/company/harness-platform/internal/example"
	"github.com/company/harness-platform/plan"
	"github.com/company/harness-platform/preflight"
)

// devAt is the example catalog with dev's clusters at version (and
// upgradePolicy, when not empty).
func devAt(t *testing.T, version, policy string) *catalog.Catalog {
	t.Helper()
	files, err := catalogtest.ExampleFiles("..")
	if err != nil {
		t.Fatal(err)
	}
	old := `kubernetesVersion: "` + example(t).Stacks["dev"].Cluster.KubernetesVersion + `"`
	repl := `kubernetesVersion: "` + version + `"`
	if policy != "" {
		repl += "\n    upgradePolicy: " + policy
	}
	if !strings.Contains(string(files["Pulumi.dev.yaml"]), old) {
		t.Fatalf("Pulumi.dev.yaml has no %s", old)
	}
	files["Pulumi.dev.yaml"] = []byte(strings.Replace(string(files["Pulumi.dev.yaml"]), old, repl, 1))
	c, err := catalog.Parse(files)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// clusterVersion registers every EKS cluster at version, past the
// program's own checks: what an older program, or a run whose outputs
// were lost, would send to EKS.
func clusterVersion(version string) pulumi.ResourceTransform {
	return func(_ context.Context, args *pulumi.ResourceTransformArgs) *pulumi.ResourceTransformResult {
		if args.Type != "aws:eks/cluster:Cluster" {
			return nil
		}
		args.Props["version"] = pulumi.String(version)
		return &pulumi.ResourceTransformResult{Props: args.Props, Opts: args.Opts}
	}
}

// The simulated EKS refuses what EKS refuses, with its words: a version
// past extended support (CreateCluster) and an update of more than one
// minor version (UpdateClusterVersion). Preflight reports each first,
// asking the simulated EKS as it asks the real one; the program refuses
// the upgrade before anything changes.
func TestEKSRefusesVersions(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	state := t.TempDir()
	// dev deployed at 1.33: in extended support, on purpose.
	deployed := devAt(t, "1.33", "EXTENDED")
	s := open(t, state, deployed)
	if _, err := s.Up(ctx, "dev", UpOptions{}); err != nil {
		t.Fatalf("up at 1.33: %v\n%s", err, s.out)
	}
	s.Close()

	// The stack file asks for 1.35: two minor versions at once.
	next := open(t, state, devAt(t, "1.35", ""))
	problems, err := next.Preflight(ctx, "dev")
	if want := "EKS cluster int-stable-euw1 in eu-west-1: it runs Kubernetes 1.33 (DescribeCluster), and EKS refuses the update to 1.35"; err != nil || !strings.Contains(problemsText(problems), want) {
		t.Errorf("preflight: %v %s, want %q", err, problemsText(problems), want)
	}
	if _, err := next.Preview(ctx, "dev", PreviewOptions{}); err == nil || !strings.Contains(err.Error()+next.out.String(), "upgrade check failed: cluster int-stable-euw1 runs Kubernetes 1.33") {
		t.Errorf("the preview of a two-version upgrade: %v\n%s", err, next.out)
	}
	next.Close()

	// Past the program's check, EKS itself refuses.
	forced := openWith(t, state, deployed, clusterVersion("1.35"))
	if _, err := forced.Up(ctx, "dev", UpOptions{}); err == nil ||
		!strings.Contains(forced.out.String(), "UpdateClusterVersion, https response error StatusCode: 400") ||
		!strings.Contains(forced.out.String(), "InvalidParameterException: Unsupported Kubernetes minor version update from 1.33 to 1.35") {
		t.Errorf("an update EKS refuses: %v\n%s", err, forced.out)
	}
	forced.Close()

	// A version past extended support: no cluster of it is created.
	gone := openWith(t, t.TempDir(), example(t), clusterVersion("1.31"))
	req := preflight.Requirements{EKS: []preflight.EKSCluster{{Name: "int-stable-euw1", Region: "eu-west-1", Version: "1.31", Policy: "STANDARD", File: "Pulumi.dev.yaml"}}}
	if text := problemsText(preflight.Run(ctx, gone.servers(), req)); !strings.Contains(text, "EKS does not offer Kubernetes 1.31 (DescribeClusterVersions: not listed)") {
		t.Errorf("preflight of 1.31: %s", text)
	}
	if _, err := gone.Up(ctx, "dev", UpOptions{}); err == nil ||
		!strings.Contains(gone.out.String(), "InvalidParameterException: unsupported Kubernetes version 1.31") {
		t.Errorf("a cluster of 1.31: %v\n%s", err, gone.out)
	}
}

// A role assuming itself needs a trust statement naming itself (AWS's
// 2023 change): the simulated STS refuses it otherwise, which is why
// the AWS providers assume nothing (the run already is the role).
func TestSelfAssumeRefused(t *testing.T) {
	t.Parallel()
	deployer := example(t).Stacks["dev"].AWS.RoleArn
	s := openWith(t, t.TempDir(), example(t), func(_ context.Context, args *pulumi.ResourceTransformArgs) *pulumi.ResourceTransformResult {
		if args.Type != "pulumi:providers:aws" {
			return nil
		}
		args.Props["assumeRole"] = pulumi.Map{"roleArn": pulumi.String(deployer)}
		return &pulumi.ResourceTransformResult{Props: args.Props, Opts: args.Opts}
	})
	_, err := s.Preview(context.Background(), "dev", PreviewOptions{})
	want := exampletest.L(t, "User: arn:aws:sts::111111111111:assumed-role/harness-platform-deployer/harness-platform is not authorized to perform: sts:AssumeRole on resource: ") + deployer
	if err == nil || !strings.Contains(s.out.String(), want) {
		t.Errorf("a provider assuming the run's own role: %v, want %q\n%s", err, want, s.out)
	}
}

// An upgrade by one minor version goes through the real CLI in the order
// AWS documents, and the simulated EKS, which refuses any other order,
// lets it: dev deployed at 1.33 (its add-ons created, CoreDNS once the
// nodes are up), then at 1.34: the control plane, the add-ons at 1.34's
// versions, the nodes. Past the program's choice, EKS refuses an add-on
// version the cluster's Kubernetes version has none of.
func TestEKSUpgradeWithAddons(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	state := t.TempDir()
	s := open(t, state, devAt(t, "1.33", "EXTENDED"))
	if _, err := s.Up(ctx, "dev", UpOptions{}); err != nil {
		t.Fatalf("up at 1.33: %v\n%s", err, s.out)
	}
	s.Close()
	next := open(t, state, devAt(t, "1.34", ""))
	// The upgrade's preview replaces nothing: the control plane, add-ons
	// and nodes update in place, and the cluster's OIDC issuer stays
	// known, so its IAM OIDC provider and the roles that trust it keep
	// their identity (terraform-plugin-sdk v2 keeps computed attributes
	// in an update's plan: simulated/aws KeepsComputed).
	var log bytes.Buffer
	if _, err := next.Preview(ctx, "dev", PreviewOptions{EventLog: &log}); err != nil {
		t.Fatalf("preview at 1.34: %v\n%s", err, next.out)
	}
	updated := 0
	for _, line := range bytes.Split(log.Bytes(), []byte("\n")) {
		var e apitype.EngineEvent
		if len(line) == 0 || json.Unmarshal(line, &e) != nil || e.ResourcePreEvent == nil {
			continue
		}
		switch m := e.ResourcePreEvent.Metadata; m.Op {
		case apitype.OpReplace, apitype.OpCreateReplacement, apitype.OpDeleteReplaced, apitype.OpDiscardReplaced:
			t.Errorf("the upgrade's preview replaces %s", m.URN)
		case apitype.OpUpdate:
			updated++
			t.Logf("the upgrade's preview updates %s (%v)", m.URN, m.Diffs)
		}
	}
	if updated == 0 {
		t.Error("the upgrade's preview updates nothing")
	}
	if _, err := next.Up(ctx, "dev", UpOptions{}); err != nil {
		t.Fatalf("up at 1.34: %v\n%s", err, next.out)
	}
	next.Close()
	clusters, nodes := map[string]string{}, map[string]string{}
	addons := map[string]string{}
	for _, r := range providerRecords(t, state, "aws") {
		switch r.Type {
		case "aws:eks/cluster:Cluster":
			clusters[fmt.Sprint(r.Properties["name"])] = fmt.Sprint(r.Properties["version"])
		case "aws:eks/nodeGroup:NodeGroup":
			nodes[fmt.Sprint(r.Properties["clusterName"])] = fmt.Sprint(r.Properties["version"])
		case "aws:eks/addon:Addon":
			addons[fmt.Sprint(r.Properties["clusterName"], " ", r.Properties["addonName"])] = fmt.Sprint(r.Properties["addonVersion"])
		}
	}
	if len(clusters) != 2 || len(addons) != 6 {
		t.Fatalf("clusters %v, add-ons %v: want dev's two clusters with three add-ons each", clusters, addons)
	}
	for name, v := range clusters {
		if v != "1.34" || nodes[name] != "1.34" {
			t.Errorf("%s: control plane %s, nodes %s, want 1.34", name, v, nodes[name])
		}
		for _, a := range []string{"vpc-cni", "kube-proxy", "coredns"} {
			if got, want := addons[name+" "+a], plan.EKSAddonsFor("1.34"); !slices.ContainsFunc(want, func(w plan.EKSAddon) bool { return w.Name == a && w.Version == got }) {
				t.Errorf("%s %s at %s, want 1.34's (%v)", name, a, got, want)
			}
		}
	}

	// CoreDNS at 1.35's build on the 1.34 clusters: EKS refuses it.
	i := slices.IndexFunc(plan.EKSAddonsFor("1.35"), func(a plan.EKSAddon) bool { return a.Name == "coredns" })
	coredns135 := plan.EKSAddonsFor("1.35")[i].Version
	forced := openWith(t, state, devAt(t, "1.34", ""), func(_ context.Context, args *pulumi.ResourceTransformArgs) *pulumi.ResourceTransformResult {
		if args.Type != "aws:eks/addon:Addon" || !strings.HasSuffix(args.Name, "-coredns") {
			return nil
		}
		args.Props["addonVersion"] = pulumi.String(coredns135)
		return &pulumi.ResourceTransformResult{Props: args.Props, Opts: args.Opts}
	})
	if _, err := forced.Up(ctx, "dev", UpOptions{}); err == nil ||
		!strings.Contains(forced.out.String(), "updating EKS Add-On (int-stable-euw1:coredns): operation error EKS: UpdateAddon, https response error StatusCode: 400") ||
		!strings.Contains(forced.out.String(), "InvalidParameterException: Addon version specified is not supported") {
		t.Errorf("CoreDNS at a version for 1.35 on a 1.34 cluster: %v\n%s", err, forced.out)
	}
}
