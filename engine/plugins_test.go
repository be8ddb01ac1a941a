package engine

import (
	"strings"
	"testing"

	"github.com/pulumi/pulumi/sdk/v3/go/common/apitype"
)

// check-plugins counts what the real plugins said of their own objects
// only: a change on a deployed stack, an error on a plugin's object and
// the run's own failure each land in their place; another provider's
// objects and a fresh stack's creates are not counted.
func TestReadPluginEvents(t *testing.T) {
	t.Parallel()
	const (
		file  = "urn:pulumi:dev.services::harness-platform::github:index/repositoryFile:RepositoryFile::payments-catalog"
		env   = "urn:pulumi:dev.services::harness-platform::harness:platform/environment:Environment::dev"
		prov  = "urn:pulumi:dev.services::harness-platform::pulumi:providers:github::github-company"
		child = "urn:pulumi:dev.services::harness-platform::harness-platform:index:GitHub$github:index/teamRepository:TeamRepository::t"
	)
	log := strings.Join([]string{
		`{"resourcePreEvent":{"metadata":{"op":"update","urn":"` + file + `","type":"github:index/repositoryFile:RepositoryFile","diffs":["content"]}}}`,
		`{"resourcePreEvent":{"metadata":{"op":"update","urn":"` + env + `","type":"harness:platform/environment:Environment"}}}`,
		`{"resourcePreEvent":{"metadata":{"op":"same","urn":"` + prov + `","type":"pulumi:providers:github"}}}`,
		`{"resourcePreEvent":{"metadata":{"op":"create","urn":"` + child + `","type":"github:index/teamRepository:TeamRepository"}}}`,
		`{"diagnosticEvent":{"urn":"` + child + `","severity":"error","message":"permission must be one of pull, push"}}`,
		`{"diagnosticEvent":{"urn":"` + env + `","severity":"warning","message":"deprecated"}}`,
		`{"diagnosticEvent":{"severity":"error","message":"preview failed"}}`,
	}, "\n")
	r, err := readPluginEvents(strings.NewReader(log), "dev.services", false, map[string]string{"github": "bin"})
	if err != nil {
		t.Fatal(err)
	}
	if r.Objects != 3 || r.Changes[apitype.OpUpdate] != 1 || r.Changes[apitype.OpCreate] != 1 {
		t.Errorf("objects %d, changes %v; want 3 objects, an update and a create", r.Objects, r.Changes)
	}
	if len(r.Diffs) != 2 || !strings.Contains(r.Diffs[0], "content") {
		t.Errorf("diffs %q", r.Diffs)
	}
	if len(r.Errors) != 1 || len(r.Warnings) != 0 || len(r.Other) != 1 {
		t.Errorf("errors %q, warnings %q, other %q; want the plugin's error and the run's failure", r.Errors, r.Warnings, r.Other)
	}
	fresh, err := readPluginEvents(strings.NewReader(log), "dev.services", true, map[string]string{"github": "bin"})
	if err != nil {
		t.Fatal(err)
	}
	if fresh.Changes[apitype.OpCreate] != 0 {
		t.Errorf("a fresh stack's creates counted as changes: %v", fresh.Changes)
	}
}
