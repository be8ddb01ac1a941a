package harness

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"

	"github.com/company/harness-platform/simulated/core"
)

// Deleting a delegate token revokes it, as the provider does; Harness
// keeps the name 30 days and refuses a new token of that name until then,
// in its words; after them the name is free.
func TestRevokedTokenNamesAreKept30Days(t *testing.T) {
	dir := t.TempDir()
	cloud, err := core.OpenCloud(dir, "harness")
	if err != nil {
		t.Fatal(err)
	}
	p := core.NewProvider(core.Config{Name: "harness", Version: Version, Cloud: cloud, Behavior: harnessBehavior(t)})
	ctx := context.Background()
	props, err := core.Marshal(resource.NewPropertyMapFromMap(map[string]any{"accountId": Account, "name": "int-stable-euw1-token"}))
	if err != nil {
		t.Fatal(err)
	}
	create := func() (*pulumirpc.CreateResponse, error) {
		return p.Create(ctx, &pulumirpc.CreateRequest{Type: DelegateTokenType, Name: "int-stable-euw1-token", Properties: props})
	}
	made, err := create()
	if err != nil {
		t.Fatal(err)
	}
	const taken = `{"status":"ERROR","code":"INVALID_REQUEST","message":"Token with given name already exists for given account, org and project"}`
	if _, err := create(); err == nil || !strings.Contains(err.Error(), taken) {
		t.Fatalf("a second active token of one name: %v", err)
	}
	del := func() error {
		_, err := p.Delete(ctx, &pulumirpc.DeleteRequest{Type: DelegateTokenType, Id: made.GetId(), Properties: made.GetProperties()})
		return err
	}
	if err := del(); err != nil {
		t.Fatal(err)
	}
	if err := del(); err == nil || !strings.Contains(err.Error(), "Specified token is already revoked.") {
		t.Fatalf("revoking twice: %v", err)
	}
	listed, err := DelegateTokens(core.Reach{}, cloud, Account)
	if err != nil || len(listed) != 1 || listed[0].Status != "REVOKED" {
		t.Fatalf("listed after the revocation: %+v %v", listed, err)
	}
	if _, err := create(); err == nil || !strings.Contains(err.Error(), taken) {
		t.Fatalf("a revoked name within 30 days: %v", err)
	}

	// 30 days on: the store's record revoked a month ago.
	if err := cloud.Flush(); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, "harness.json")
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var records map[string]core.Record
	if err := json.Unmarshal(data, &records); err != nil {
		t.Fatal(err)
	}
	for id, r := range records {
		r.Properties[RevokedAtKey] = time.Now().Add(-RevokedTokenTTL - time.Hour).UTC().Format(time.RFC3339)
		records[id] = r
	}
	if data, err = json.Marshal(records); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, data, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := cloud.Reload(); err != nil {
		t.Fatal(err)
	}
	if listed, err := DelegateTokens(core.Reach{}, cloud, Account); err != nil || len(listed) != 0 {
		t.Fatalf("listed after 30 days: %+v %v", listed, err)
	}
	if _, err := create(); err != nil {
		t.Fatalf("the name after 30 days: %v", err)
	}
}
