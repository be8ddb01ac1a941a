package engine

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"strings"
	"testing"

	"github.com/pulumi/pulumi/sdk/v3/go/common/apitype"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"

	"github.com/company/harness-platform/engine/createid"
)

// A kill while the engine creates a provider (issue 47: "a pending create
// of ...$pulumi:providers:kubernetes::int-stable-euw1", which recover
// refused, "cannot tell the id") leaves a pending create that recover
// settles: a provider has no cloud object and nothing was created with
// it, so the record is dropped and the next up makes it.
func TestRecoverSettlesAPendingProviderCreate(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := open(t, t.TempDir(), example(t))
	if _, err := s.Up(ctx, "dev", UpOptions{}); err != nil {
		t.Fatalf("up: %v\n%s", err, s.out)
	}
	// Written into the checkpoint as the killed CLI left it: `pulumi
	// stack import` drops pending operations.
	file := s.checkpointFile("dev")
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var checkpoint map[string]any
	if err := json.Unmarshal(data, &checkpoint); err != nil {
		t.Fatal(err)
	}
	d, _ := checkpoint["checkpoint"].(map[string]any)["latest"].(map[string]any)
	var pending string
	for _, r := range d["resources"].([]any) {
		m, _ := r.(map[string]any)
		if typ := fmt.Sprint(m["type"]); strings.HasPrefix(typ, "pulumi:providers:kubernetes") && pending == "" {
			// The same provider under a name the state does not hold:
			// what the engine records before it configures one.
			res := maps.Clone(m)
			pending = fmt.Sprint(m["urn"]) + "-killed"
			res["urn"], res["id"] = pending, ""
			delete(res, "outputs")
			d["pending_operations"] = []any{map[string]any{"resource": res, "type": string(apitype.OperationTypeCreating)}}
		}
	}
	if pending == "" {
		t.Fatal("no Kubernetes provider in dev's state")
	}
	if data, err = json.Marshal(checkpoint); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, data, 0o600); err != nil {
		t.Fatal(err)
	}
	settled, err := s.Recover(ctx, "dev", RepairOptions{})
	if err != nil {
		t.Fatalf("recover: %v\n%s", err, s.out)
	}
	if len(settled) != 1 || settled[0].URN != pending {
		t.Errorf("recover settled %+v, want the provider's pending create %s", settled, pending)
	}
	res, err := s.Up(ctx, "dev", UpOptions{})
	if err != nil {
		t.Fatalf("up after recover: %v\n%s", err, s.out)
	}
	onlyOp(t, "up after recover", opTypes(*res.Summary.ResourceChanges), apitype.OpSame)
}

// Online, recover settles a pending create of every kind the way its
// provider would have made it (package createid): moved into the state
// with its id, dropped when the next create takes the object over, or
// dropped and reported when AWS made its id up; a pending update or
// delete is left to the refresh. A type with no rule refuses the whole
// stack, unchanged.
func TestRecoverSettlesOnlineByProviderRules(t *testing.T) {
	const stack = "urn:pulumi:dev::harness-platform::"
	provider := map[string]any{"urn": stack + "pulumi:providers:aws::euw1", "id": "p-1", "type": "pulumi:providers:aws", "custom": true,
		"inputs": map[string]any{"region": "eu-west-1", "allowedAccountIds": `["111111111111"]`,
			"defaultTags": `{"tags":{"environment":"int-stable","managed-by":"harness-platform"}}`}}
	awsRef := stack + "pulumi:providers:aws::euw1::p-1"
	cluster := stack + "harness-platform:index:Cluster::euw1"
	create := func(typ, name string, inputs map[string]any) map[string]any {
		return map[string]any{"type": string(apitype.OperationTypeCreating), "resource": map[string]any{
			"urn": stack + typ + "::" + name, "type": typ, "custom": true, "provider": awsRef, "parent": cluster, "inputs": inputs}}
	}
	role := create("aws:iam/role:Role", "euw1-nodes", map[string]any{"name": "euw1-nodes-bc4282b"})
	vpc := create("aws:ec2/vpc:Vpc", "euw1", map[string]any{"cidrBlock": "10.1.0.0/17", "tags": map[string]any{"Name": "int-stable-euw1"}})
	ns := create("kubernetes:core/v1:Namespace", "delegate", map[string]any{"metadata": map[string]any{"name": "harness-delegate-ng"}})
	team := create("github:index/teamRepository:TeamRepository", "platform", map[string]any{"teamId": "platform", "repository": "harness-platform"})
	component := map[string]any{"type": string(apitype.OperationTypeCreating), "resource": map[string]any{"urn": cluster, "type": "harness-platform:index:Cluster", "custom": false}}
	newProvider := map[string]any{"type": string(apitype.OperationTypeCreating), "resource": map[string]any{
		"urn": stack + "pulumi:providers:kubernetes::euw1", "type": "pulumi:providers:kubernetes", "custom": true}}
	existing := map[string]any{"urn": stack + "aws:kms/key:Key::euw1", "id": "key-1", "type": "aws:kms/key:Key", "custom": true}
	updating := map[string]any{"type": string(apitype.OperationTypeUpdating), "resource": existing}
	deleting := map[string]any{"type": string(apitype.OperationTypeDeleting), "resource": map[string]any{
		"urn": stack + "aws:eks/addon:Addon::coredns", "id": "euw1:coredns", "type": "aws:eks/addon:Addon", "custom": true}}
	deployment := map[string]any{
		"resources":          []any{provider, existing},
		"pending_operations": []any{component, newProvider, role, vpc, ns, team, updating, deleting},
	}
	settled, dropped, err := settlePending(deployment, (&Session{}).pendingID)
	if err != nil {
		t.Fatal(err)
	}
	if len(settled) != 8 {
		t.Errorf("settled %d operations, want 8: %v", len(settled), settled)
	}
	if ops, _ := deployment["pending_operations"].([]any); len(ops) != 0 {
		t.Errorf("%d pending operations left", len(ops))
	}
	ids := map[string]string{}
	for _, r := range deployment["resources"].([]any) {
		m := r.(map[string]any)
		ids[strings.TrimPrefix(fmt.Sprint(m["urn"]), stack)] = fmt.Sprint(m["id"])
	}
	want := map[string]string{
		"pulumi:providers:aws::euw1":             "p-1",
		"aws:kms/key:Key::euw1":                  "key-1",
		"harness-platform:index:Cluster::euw1":   "<nil>", // a component: no id
		"aws:iam/role:Role::euw1-nodes":          "euw1-nodes-bc4282b",
		"kubernetes:core/v1:Namespace::delegate": "harness-delegate-ng",
	}
	if !maps.Equal(ids, want) {
		t.Errorf("the state holds %v, want %v", ids, want)
	}
	// The component is before the resources that name it.
	order := map[string]int{}
	for i, r := range deployment["resources"].([]any) {
		order[fmt.Sprint(r.(map[string]any)["urn"])] = i
	}
	if order[cluster] > order[stack+"aws:iam/role:Role::euw1-nodes"] {
		t.Errorf("the component is after its children: %v", order)
	}
	if len(dropped) != 2 || dropped[0].Kind != createid.Generated || dropped[1].Kind != createid.Retaken {
		t.Fatalf("dropped %+v, want the VPC (generated) and the team's repository (retaken)", dropped)
	}
	for _, s := range []string{"a VPC", "in eu-west-1", "tagged Name=int-stable-euw1, environment=int-stable, managed-by=harness-platform", "aws ec2 delete-vpc"} {
		if !strings.Contains(dropped[0].Note, s) {
			t.Errorf("the VPC's report %q does not say %q", dropped[0].Note, s)
		}
	}

	// No rule: refused, nothing changed.
	bucket := create("aws:s3/bucket:Bucket", "b", map[string]any{"bucket": "b"})
	deployment = map[string]any{"resources": []any{provider}, "pending_operations": []any{bucket, create("aws:iam/role:Role", "r", map[string]any{"name": "r"})}}
	if _, _, err := settlePending(deployment, (&Session{}).pendingID); err == nil || !strings.Contains(err.Error(), "aws:s3/bucket:Bucket::b (no rule for aws:s3/bucket:Bucket)") {
		t.Errorf("want a refusal naming the bucket, got %v", err)
	}
	if len(deployment["resources"].([]any)) != 1 || len(deployment["pending_operations"].([]any)) != 2 {
		t.Error("a refused recover changed the deployment")
	}
}

// Every object a deployed dev holds has an id rule for recover online
// (package createid), given the inputs its provider checked, as a
// pending create records them: none is refused as unknown.
func TestRecoverHasAnIDRuleForEveryDeployedType(t *testing.T) {
	t.Parallel()
	state := deployedDev(t)
	kinds := map[createid.Kind]int{}
	for _, stack := range example(t).StacksOf("dev") {
		var cp struct {
			Checkpoint struct {
				Latest struct {
					Resources []map[string]any
				}
			}
		}
		if err := json.Unmarshal(stateFile(t, state, stack), &cp); err != nil {
			t.Fatal(err)
		}
		providers := map[string]map[string]any{}
		for _, r := range cp.Checkpoint.Latest.Resources {
			if strings.HasPrefix(fmt.Sprint(r["type"]), "pulumi:providers:") {
				providers[fmt.Sprint(r["urn"])+"::"+fmt.Sprint(r["id"])], _ = r["inputs"].(map[string]any)
			}
		}
		for _, r := range cp.Checkpoint.Latest.Resources {
			typ := fmt.Sprint(r["type"])
			if r["custom"] != true || strings.HasPrefix(typ, "pulumi:providers:") {
				continue
			}
			inputs, _ := r["inputs"].(map[string]any)
			got := createid.ID(typ, resource.NewPropertyMapFromMap(inputs), resource.NewPropertyMapFromMap(providers[fmt.Sprint(r["provider"])]))
			if got.Kind == createid.Unknown {
				t.Errorf("%s: %s: no id online: %s", stack, r["urn"], got.Note)
			}
			kinds[got.Kind]++
		}
	}
	t.Logf("ids of dev's objects online: %v", kinds)
	if kinds[createid.Known] < 200 {
		t.Errorf("only %d known ids", kinds[createid.Known])
	}
}
