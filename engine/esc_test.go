package engine

import (
	"context"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/pulumi/pulumi/sdk/v3/go/auto"
	"github.com/pulumi/pulumi/sdk/v3/go/common/diag"
	"github.com/pulumi/pulumi/sdk/v3/go/common/diag/colors"
	"github.com/pulumi/pulumi/sdk/v3/go/common/workspace"

	"github.com/company/harness-platform/catalog"
)

// A service stack imports its environment's ESC environments, as its
// platform stack's file does, so that Pulumi gives it the same values: the
// file is created, or its imports completed, and nothing else in it
// changes. The Pulumi CLI's own loader and the catalog read the result.
func TestServiceStacksImportTheirEnvironment(t *testing.T) {
	t.Parallel()
	cli, err := FindCLI()
	if err != nil {
		t.Fatalf("%v (make test installs it)", err)
	}
	dir := t.TempDir()
	project, err := os.ReadFile("../Pulumi.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "Pulumi.yaml"), project, 0o600); err != nil {
		t.Fatal(err)
	}
	const salt = "encryptionsalt: v1:9Y6NVVgwjbA=:v1:dgO45Kk6Kfydlkd5:S59yVEprMxehl0iYdrMz/8pQO8kkyw==\n"
	if err := os.WriteFile(filepath.Join(dir, "Pulumi.staging.payments.yaml"), []byte(salt+"environment:\n  - platform/shared\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	ws, err := auto.NewLocalWorkspace(ctx, auto.WorkDir(dir), auto.Pulumi(cli))
	if err != nil {
		t.Fatal(err)
	}
	c := example(t)
	for _, stack := range []string{"dev.payments", "staging.payments"} {
		env, _ := catalog.SplitStack(stack)
		want := c.Stacks[env].Imports
		if len(want) == 0 {
			t.Fatalf("Pulumi.%s.yaml imports no ESC environment", env)
		}
		for range 2 { // the second time changes nothing
			if err := importEnvironments(ctx, ws, stack, want); err != nil {
				t.Fatal(err)
			}
		}
		sink := diag.DefaultSink(io.Discard, io.Discard, diag.FormatOptions{Color: colors.Never})
		proj, err := workspace.LoadProject(filepath.Join(dir, "Pulumi.yaml"))
		if err != nil {
			t.Fatal(err)
		}
		file := filepath.Join(dir, "Pulumi."+stack+".yaml")
		ps, err := workspace.LoadProjectStack(sink, proj, file)
		if err != nil {
			t.Fatal(err)
		}
		got := ps.Environment.Imports()
		for _, w := range want {
			if n := strings.Count(strings.Join(got, " "), w); n != 1 {
				t.Errorf("%s imports %v: want %s once", stack, got, w)
			}
		}
		data, _ := os.ReadFile(file)
		if stack == "staging.payments" && (!slices.Contains(got, "platform/shared") || !strings.Contains(string(data), strings.TrimSpace(salt))) {
			t.Errorf("%s lost what it held:\n%s", stack, data)
		}
		with := maps.Clone(c.Files())
		with["Pulumi."+stack+".yaml"] = data
		if _, err := catalog.Parse(with); err != nil {
			t.Errorf("the catalog refuses %s as written:\n%s\n%v", stack, data, err)
		}
	}
}
