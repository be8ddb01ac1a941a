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
