package core

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"
)

// Secrets are stored as digests; reading back gives the known value while
// the digest matches, and a different secret once it does not.
func TestSecretsAreStoredAsDigests(t *testing.T) {
	dir := t.TempDir()
	c, err := OpenCloud(dir, "harness")
	if err != nil {
		t.Fatal(err)
	}
	props := resource.PropertyMap{
		"identifier": resource.NewStringProperty("tok"),
		"value":      resource.MakeSecret(resource.NewStringProperty("s3cr3t-value")),
	}
	if err := c.Put("SecretText/tok", Record{Type: "t", Properties: toStored(props)}); err != nil {
		t.Fatal(err)
	}
	if err := c.Flush(); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(filepath.Join(dir, "harness.json"))
	if !strings.Contains(string(data), "secretSha256") || strings.Contains(string(data), "s3cr3t-value") {
		t.Fatal("secret written in plaintext")
	}
	rec, _ := c.Get("SecretText/tok")
	back := FromStored(rec.Properties, props)
	if !back.DeepEquals(props) {
		t.Fatalf("unchanged secret read back as %v", back)
	}
	other := resource.PropertyMap{"value": resource.MakeSecret(resource.NewStringProperty("rotated"))}
	changed := FromStored(rec.Properties, other)["value"]
	if !changed.IsSecret() || changed.DeepEquals(other["value"]) {
		t.Fatalf("a secret that differs from the cloud must read back as different: %v", changed)
	}
}

// An edit to the file between runs is what Read returns after Reload.
func TestOutOfBandEditsAreRead(t *testing.T) {
	dir := t.TempDir()
	c, _ := OpenCloud(dir, "harness")
	_ = c.Put("Pipeline/p", Record{Type: "t", Properties: map[string]any{"yaml": "a"}})
	if err := c.Flush(); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "harness.json")
	data, _ := os.ReadFile(path)
	if err := os.WriteFile(path, []byte(strings.Replace(string(data), `"a"`, `"b"`, 1)), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := c.Reload(); err != nil {
		t.Fatal(err)
	}
	if rec, _ := c.Get("Pipeline/p"); rec.Properties["yaml"] != "b" {
		t.Fatalf("edit not seen: %v", rec.Properties)
	}
}

// A write the store acknowledged survives the process that made it being
// killed before its coalesced write: the next store on the directory
// replays the journal, as a real service persists a write before
// answering it; a snapshot empties the journal.
func TestAcknowledgedWritesSurviveAKill(t *testing.T) {
	dir := t.TempDir()
	c, err := OpenCloud(dir, "harness")
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Put("kept", Record{Type: "t", Name: "kept"}); err != nil {
		t.Fatal(err)
	}
	if err := c.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := c.Put("svc", Record{Type: "t", Name: "svc"}); err != nil {
		t.Fatal(err)
	}
	if err := c.Delete("kept"); err != nil {
		t.Fatal(err)
	}
	// Killed: no Flush. The file has "kept" alone.
	c.mu.Lock()
	c.timer.Stop()
	c.mu.Unlock()
	after, err := OpenCloud(dir, "harness")
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := after.Get("svc"); !ok {
		t.Error("an acknowledged create was lost with the process")
	}
	if _, ok := after.Get("kept"); ok {
		t.Error("an acknowledged delete was lost with the process")
	}
	if _, err := os.Stat(filepath.Join(dir, "harness.json.journal")); !os.IsNotExist(err) {
		t.Errorf("the journal outlives the snapshot that holds it: %v", err)
	}
}
