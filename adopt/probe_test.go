package adopt

import (
	"errors"
	"fmt"
	"sort"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

// account answers the probe's calls as the providers would over an
// account holding the project and the pipeline, 103 pipelines in all, and
// the organisation's variable; the delegate token does not exist.
type account struct {
	calls []string
}

func (a *account) NewResource(args pulumi.MockResourceArgs) (string, resource.PropertyMap, error) {
	return args.Name + "-id", args.Inputs, nil
}

func (a *account) Call(args pulumi.MockCallArgs) (resource.PropertyMap, error) {
	a.calls = append(a.calls, args.Token)
	in := args.Args.Mappable()
	switch args.Token {
	case "harness:platform/getProject:getProject":
		return resource.NewPropertyMapFromMap(map[string]any{"id": "payments", "identifier": "payments", "orgId": "acme", "name": "payments"}), nil
	case "harness:platform/getPipeline:getPipeline":
		return resource.NewPropertyMapFromMap(map[string]any{"id": "deploy", "identifier": "deploy", "orgId": "acme", "projectId": "payments", "yaml": "pipeline: {}\n"}), nil
	case "harness:platform/getDelegatetoken:getDelegatetoken":
		return nil, fmt.Errorf("resource with ID %s not found", in["name"])
	case "harness:platform/getPipelineList:getPipelineList":
		n := 100
		if in["page"] != 0.0 {
			n = 3
		}
		var items []any
		for i := range n {
			items = append(items, map[string]any{"identifier": fmt.Sprintf("p%v_%d", in["page"], i)})
		}
		return resource.NewPropertyMapFromMap(map[string]any{"pipelines": items}), nil
	case "github:index/getActionsOrganizationVariables:getActionsOrganizationVariables":
		return resource.NewPropertyMapFromMap(map[string]any{"variables": []any{
			map[string]any{"name": "WEBHOOK", "value": "https://hooks", "visibility": "selected"},
			map[string]any{"name": "OTHER", "value": "x", "visibility": "all"},
		}}), nil
	}
	return resource.PropertyMap{}, nil
}

// The probe runs before the program: it lists page by page, takes a
// lookup's "not found" as an answer, lists each owner's variables through
// a stand-in for its provider, and counts every call.
func TestProbeProgram(t *testing.T) {
	r := NewRun(true)
	p, err := r.Probe(plan)
	if err != nil {
		t.Fatal(err)
	}
	var ps Probes
	ps.Store("dev", p)
	ran := false
	a := &account{}
	err = pulumi.RunErr(ps.Wrap(func(*pulumi.Context) error { ran = true; return nil }), pulumi.WithMocks("harness-platform", "dev", a))
	if err != nil {
		t.Fatal(err)
	}
	if !ran {
		t.Error("the program did not run after the probe")
	}
	// Projects, pipelines (two pages), services, environments; three
	// lookups; one listing of variables.
	if p.Calls() != 9 || len(a.calls) != 9 {
		t.Errorf("the probe counts %d calls and made %v, want 9", p.Calls(), a.calls)
	}
	var found []string
	for urn := range p.found {
		found = append(found, urn)
	}
	sort.Strings(found)
	if want := []string{pipelineURN, projectURN, variableURN}; !cmp.Equal(found, want) {
		t.Errorf("found %v, want %v", found, want)
	}
	if len(p.listed) != 103 {
		t.Errorf("listed %d pipelines, want 103 over two pages", len(p.listed))
	}

	ps.Delete("dev")
	a.calls = nil
	if err := pulumi.RunErr(ps.Wrap(func(*pulumi.Context) error { return nil }), pulumi.WithMocks("harness-platform", "dev", a)); err != nil || len(a.calls) != 0 {
		t.Errorf("the program without a probe called %v (%v)", a.calls, err)
	}
}

// A lookup refused for another reason than a missing object (a
// credential) stops the probe.
func TestProbeStopsOnARefusal(t *testing.T) {
	p, err := NewRun(false).Probe(plan)
	if err != nil {
		t.Fatal(err)
	}
	var ps Probes
	ps.Store("dev", p)
	err = pulumi.RunErr(ps.Wrap(func(*pulumi.Context) error { return nil }), pulumi.WithMocks("harness-platform", "dev", refusing{}))
	if err == nil {
		t.Fatal("a refused lookup was taken for an answer")
	}
}

type refusing struct{}

func (refusing) NewResource(args pulumi.MockResourceArgs) (string, resource.PropertyMap, error) {
	return args.Name + "-id", args.Inputs, nil
}

func (refusing) Call(pulumi.MockCallArgs) (resource.PropertyMap, error) {
	return nil, errors.New("401 Unauthorized: invalid API key")
}
