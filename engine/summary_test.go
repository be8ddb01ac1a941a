package engine

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"

	"github.com/company/harness-platform/internal/catalogtest"
	"github.com/company/harness-platform/plan"
	"github.com/company/harness-platform/summary"
)

// The pull-request summary of a real offline preview of a service stack
// of a 1,000-service catalog's dev, with the policy pack: the counts
// first, every service of the stack touched, and far below GitHub's
// 64,000 characters (one summary per stack: the split bounds each).
func TestPreviewSummaryAtScale(t *testing.T) {
	t.Parallel()
	c := catalogtest.SyntheticCatalog(t, "..", 1000)
	pack, err := BuildPolicyPack("..")
	if err != nil {
		t.Fatal(err)
	}
	config, err := PolicyConfig("..")
	if err != nil {
		t.Fatal(err)
	}
	stacks := c.StacksOf("dev")
	if len(stacks) < 10 {
		t.Fatalf("a 1,000-service dev in %d stacks", len(stacks))
	}
	stack := stacks[1]
	s := open(t, t.TempDir(), c)
	var log bytes.Buffer
	res, err := s.Preview(context.Background(), stack, PreviewOptions{PolicyPacks: []string{pack}, PolicyPackConfigs: []string{config}, EventLog: &log})
	if err != nil {
		t.Fatalf("preview: %v\n%s", err, s.out)
	}
	p, err := plan.Build(c, stack)
	if err != nil {
		t.Fatal(err)
	}
	owner := p.ServiceOf()
	pre, err := summary.Read(stack, &log, func(urn resource.URN) string { return owner(urn.Name()) })
	if err != nil {
		t.Fatal(err)
	}
	md := pre.Markdown("https://ci.example/run/1", 60000)
	creates := res.ChangeSummary["create"]
	want := fmt.Sprintf("### ✅ `%s`: %d to create, 0 to update, 0 to replace, 0 to delete; 0 policy violations (0 mandatory)", stack, creates)
	if first := strings.SplitN(md, "\n", 2)[0]; first != want || creates < 9*len(p.Deployments) {
		t.Errorf("first line %q, want %q (and at least 9 objects a service: %d creates for %d)", first, want, creates, len(p.Deployments))
	}
	if len(pre.Services) != len(p.Deployments) || len(p.Deployments) < 20 {
		t.Errorf("%d services touched, want the %d deployed", len(pre.Services), len(p.Deployments))
	}
	if len(md) >= 64000 {
		t.Errorf("summary of %d bytes", len(md))
	}
	t.Logf("%s: %d creates, %d services, a %d-byte summary", stack, creates, len(pre.Services), len(md))
}
