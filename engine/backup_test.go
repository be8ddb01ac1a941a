package engine

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/pulumi/pulumi/sdk/v3/go/common/apitype"

	"github.com/company/harness-platform/catalog"
	"github.com/company/harness-platform/internal/catalogtest"
)

// Up backs every stack up before changing it; restoring the backup taken
// before an up, a refresh preview shows that up's changes as drift. A
// backup of another stack is refused, and the newest KeepBackups are kept.
func TestBackupAndRestore(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	state := deployedDev(t) // after dev's first up
	c := example(t)
	s := open(t, state, c)
	shard := catalogtest.OnlyServiceStack(t, c, "dev")
	for _, stack := range c.StacksOf("dev") {
		if b, _ := s.Backups(stack); len(b) != 0 {
			t.Errorf("%s held nothing before its first up, yet it has backups %v", stack, b)
		}
	}
	s.Close()

	// A change in the service stack: a service's description (an
	// archetype's change would write only the platform stack's templates).
	files, err := catalogtest.ExampleFiles("..")
	if err != nil {
		t.Fatal(err)
	}
	services := files[catalog.ServicesFile]
	files[catalog.ServicesFile] = bytes.Replace(services, []byte("description: Card and wallet payments."), []byte("description: Cards, wallets and vouchers."), 1)
	if bytes.Equal(services, files[catalog.ServicesFile]) {
		t.Fatal("the change changes nothing: update the test to the example's services")
	}
	changed, err := catalog.Parse(files)
	if err != nil {
		t.Fatal(err)
	}
	s = open(t, state, changed)
	res, err := s.Up(ctx, "dev", UpOptions{})
	if err != nil {
		t.Fatalf("up dev after the change: %v\n%s", err, s.out)
	}
	updated := (*res.Summary.ResourceChanges)[string(apitype.OpUpdate)]
	if updated == 0 {
		t.Fatal("the change updated nothing")
	}
	backups := map[string]string{}
	for _, stack := range c.StacksOf("dev") {
		b, err := s.Backups(stack)
		if err != nil || len(b) != 1 {
			t.Fatalf("%s: backups %v (%v), want the one taken before the second up", stack, b, err)
		}
		backups[stack] = b[0]
	}

	if _, err := s.Restore(ctx, "dev", backups[shard], RepairOptions{}); err == nil || !strings.Contains(err.Error(), "holds the state of stack "+shard) {
		t.Fatalf("restoring %s's backup to dev: %v, want a refusal naming %s", shard, err, shard)
	}
	r, err := s.Restore(ctx, shard, backups[shard], RepairOptions{})
	if err != nil {
		t.Fatalf("restore %s: %v\n%s", shard, err, s.out)
	}
	if got := r.ChangeSummary[apitype.OpUpdate]; got != updated {
		t.Errorf("the refresh preview after the restore shows %d updates (%v), want the %d the up made since the backup", got, r.ChangeSummary, updated)
	}
	if b, _ := s.Backups(shard); len(b) != 2 {
		t.Errorf("the state a restore replaces is backed up first: backups %v", b)
	}

	s.opts.KeepBackups = 1
	if _, err := s.Backup(ctx, shard); err != nil {
		t.Fatal(err)
	}
	if b, _ := s.Backups(shard); len(b) != 1 {
		t.Errorf("KeepBackups 1 keeps %d backups: %v", len(b), b)
	}
}
