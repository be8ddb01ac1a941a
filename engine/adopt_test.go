package engine

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/pulumi/pulumi/sdk/v3/go/common/apitype"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/plugin"

	"github.com/company/harness-platform/adopt"
	"github.com/company/harness-platform/harness/importid"
	"github.com/company/harness-platform/plan"
	"github.com/company/harness-platform/simulated"
)

// An account that already holds dev's Harness objects, made outside
// Pulumi (some since edited by hand), and an empty state: a plain up is
// refused, names platformctl import, and changes no existing object;
// import reports and then adopts without changing the account; the next
// preview creates no existing object and updates exactly the edited ones
// in place; after up the preview is clean and every adopted object is
// the one that was there. The same with half of the pipelines and
// triggers missing: those are left for up to create.
func TestImportAdoptsExistingObjects(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	c := example(t)
	made := deployedDev(t) // dev's objects, as the program makes them
	account := providerRecords(t, made, "harness")
	keys := slices.Sorted(maps.Keys(account))
	// The organisation already holds the service stacks'
	// webhook variables (wired by hand, S25): GitHub refuses to create
	// them again.
	variables := map[string]simulated.Record{}
	for k, r := range providerRecords(t, made, "github") {
		if r.Type == importid.GitHubOrgVariable {
			variables[k] = r
		}
	}
	if len(variables) == 0 {
		t.Fatal("dev declares no GitHub organisation variable")
	}

	for _, partial := range []bool{false, true} {
		name := map[bool]string{false: "whole account", true: "partial account"}[partial]
		t.Run(name, func(t *testing.T) {
			existing := map[string]simulated.Record{}
			for k, r := range account {
				existing[k] = r
			}
			// Edited by hand since: a pipeline's YAML, a service's
			// description.
			var editedPipeline, editedService string
			for _, k := range keys {
				r := existing[k]
				switch {
				case editedPipeline == "" && r.Type == "harness:platform/pipeline:Pipeline":
					editedPipeline = k
					r.Properties = maps.Clone(r.Properties)
					r.Properties["yaml"] = r.Properties["yaml"].(string) + "# edited in the Harness UI\n"
				case editedService == "" && r.Type == "harness:platform/service:Service":
					editedService = k
					r.Properties = maps.Clone(r.Properties)
					r.Properties["description"] = "edited in the Harness UI"
				}
				existing[k] = r
			}
			// Made by hand and not in the catalog: a pipeline and a
			// service in a project the catalog declares. Import lists
			// them; nothing deletes them.
			var undeclared []string
			for _, k := range keys {
				r := existing[k]
				if r.Type != "harness:platform/pipeline:Pipeline" && r.Type != "harness:platform/service:Service" ||
					slices.ContainsFunc(undeclared, func(u string) bool { return existing[u].Type == r.Type }) {
					continue
				}
				r.Properties = maps.Clone(r.Properties)
				r.Properties["identifier"] = "legacy_by_hand"
				r.Properties["name"] = "legacy by hand"
				key := strings.TrimSuffix(k, "/"+account[k].Properties["identifier"].(string)) + "/legacy_by_hand"
				existing[key] = r
				undeclared = append(undeclared, key)
			}
			if len(undeclared) != 2 {
				t.Fatalf("made %d objects by hand, want a pipeline and a service", len(undeclared))
			}
			missing := map[string]bool{}
			if partial {
				n := 0
				for _, k := range keys {
					typ := existing[k].Type
					if k != editedPipeline && (typ == "harness:platform/pipeline:Pipeline" || typ == "harness:platform/triggers:Triggers") {
						if n++; n%2 == 0 {
							missing[k] = true
							delete(existing, k)
						}
					}
				}
				if len(missing) == 0 {
					t.Fatal("nothing was left out of the partial account")
				}
			}
			state := t.TempDir()
			s := open(t, state, c)
			writeCloud(t, state, existing)
			writeProvider(t, state, "github", variables)
			unchanged := func(when string) {
				t.Helper()
				for provider, records := range map[string]map[string]simulated.Record{"harness": existing, "github": variables} {
					now := providerRecords(t, state, provider)
					for k, r := range records {
						if got, ok := now[k]; !ok || !reflect.DeepEqual(got.Properties, jsonRoundTrip(t, r.Properties)) {
							t.Errorf("%s: existing object %s was changed or deleted", when, k)
						}
					}
				}
			}

			if _, err := s.Up(ctx, "dev", UpOptions{}); err == nil || !strings.Contains(err.Error(), "platformctl import --stack") {
				t.Fatalf("a plain up over existing objects: %v, want a refusal naming platformctl import", err)
			}
			unchanged("after the refused up")

			checkpoint := func(stack string) []byte {
				data, _ := os.ReadFile(filepath.Join(state, "backend", ".pulumi", "stacks", "harness-platform", stack+".json"))
				return data
			}
			before := map[string][]byte{}
			for _, stack := range c.StacksOf("dev") {
				before[stack] = checkpoint(stack)
			}
			found, err := s.Import(ctx, "dev", ImportOptions{})
			report := found.Objects
			if err != nil {
				t.Fatalf("import (report only): %v\n%s", err, s.out)
			}
			for _, stack := range c.StacksOf("dev") {
				if got := checkpoint(stack); !bytes.Equal(got, before[stack]) {
					t.Errorf("import without --yes changed %s's state", stack)
				}
			}
			counts := map[adopt.Status]int{}
			fields := map[string][]string{}
			for _, a := range report {
				counts[a.Status]++
				if a.Status == adopt.Different {
					fields[a.ImportID] = a.Fields
				}
			}
			if counts[adopt.ToCreate] != len(missing) && !partial {
				t.Errorf("report %v: want nothing to create in the whole account", counts)
			}
			if partial && counts[adopt.ToCreate] < len(missing) {
				t.Errorf("report %v: want at least the %d missing objects to create", counts, len(missing))
			}
			for _, want := range []struct{ key, field string }{{editedPipeline, "yaml"}, {editedService, "description"}} {
				r := account[want.key]
				id := importIDOfRecord(t, r)
				if !slices.Contains(fields[id], want.field) {
					t.Errorf("the hand-edited %s is reported with differences %v, want %s", id, fields[id], want.field)
				}
			}
			if counts[adopt.Adopted]+counts[adopt.Different] == 0 {
				t.Fatalf("nothing found to adopt: %v", counts)
			}
			// Over objects the program made, only the hand edits are
			// different: what Harness and the provider read back beside
			// the declared values is what the next preview keeps.
			for _, a := range report {
				if a.Status == adopt.Different && a.URN != urnOf(t, report, account[editedPipeline]) && a.URN != urnOf(t, report, account[editedService]) {
					t.Errorf("%s is reported different in %v, but the program made it and no one edited it", a.URN, a.Fields)
				}
			}
			// The deploy-stage templates too, each version by its import
			// ID (org/project/identifier/versions/version).
			adoptedTemplates := 0
			for _, a := range report {
				if a.Type == "harness:platform/template:Template" && (a.Status == adopt.Adopted || a.Status == adopt.Different) && strings.Contains(a.ImportID, "/versions/v") {
					adoptedTemplates++
				}
			}
			if p, err := plan.Build(c, "dev"); err != nil || adoptedTemplates != len(p.Templates) {
				t.Errorf("import adopts %d templates, want dev's %d (%v)", adoptedTemplates, len(p.Templates), err)
			}
			adoptedVariables := 0
			for _, a := range report {
				if a.Type == importid.GitHubOrgVariable && (a.Status == adopt.Adopted || a.Status == adopt.Different) {
					adoptedVariables++
				}
			}
			if adoptedVariables != len(variables) {
				t.Errorf("import finds %d of the %d existing GitHub organisation variables", adoptedVariables, len(variables))
			}
			if lookups := counts[adopt.ToCreate] + counts[adopt.Adopted] + counts[adopt.Different]; found.Calls <= lookups {
				t.Errorf("import counts %d provider calls, want a lookup per object (%d) and the listings' pages", found.Calls, lookups)
			}
			var listed []string
			for _, a := range report {
				if a.Status == adopt.NotDeclared {
					listed = append(listed, a.Type+" "+a.ImportID)
				}
			}
			var wantListed []string
			for _, k := range undeclared {
				wantListed = append(wantListed, existing[k].Type+" "+importIDOfRecord(t, existing[k]))
			}
			slices.Sort(wantListed)
			if !slices.Equal(listed, wantListed) {
				t.Errorf("import lists as not declared %v, want exactly the hand-made %v", listed, wantListed)
			}

			logged := len(s.out.String())
			if _, err := s.Import(ctx, "dev", ImportOptions{Yes: true}); err != nil {
				t.Fatalf("import --yes: %v\n%s", err, s.out)
			}
			// The imported inputs are what the provider's Read returns,
			// valid as the provider checks them.
			if out := s.out.String()[logged:]; strings.Contains(out, "failed to validate") {
				t.Errorf("import --yes warns:\n%s", out)
			}
			unchanged("after import")
			again, err := s.Import(ctx, "dev", ImportOptions{Yes: true})
			if err != nil {
				t.Fatalf("a second import: %v", err)
			}
			for _, a := range again.Objects {
				if a.Status != adopt.ToCreate && a.Status != adopt.NotDeclared {
					t.Errorf("a second import found %s %s again", a.Status, a.URN)
				}
			}

			var log bytes.Buffer
			if _, err := s.Preview(ctx, "dev", PreviewOptions{EventLog: &log}); err != nil {
				t.Fatalf("preview after import: %v\n%s", err, s.out)
			}
			var updated []string
			for _, line := range bytes.Split(log.Bytes(), []byte("\n")) {
				var e apitype.EngineEvent
				if len(line) == 0 || json.Unmarshal(line, &e) != nil || e.ResourcePreEvent == nil {
					continue
				}
				md := e.ResourcePreEvent.Metadata
				if !strings.HasPrefix(md.Type, "harness:") && md.Type != importid.GitHubOrgVariable {
					continue
				}
				switch md.Op {
				case apitype.OpSame:
				case apitype.OpUpdate:
					// Harness never returns a secret's value: an adopted
					// secret is written again by the first up.
					// An object that refers to a cluster this account did
					// not have (its connector's endpoint, role) changes to
					// the new cluster's, unknown until it exists.
					if md.Type != "harness:platform/secretText:SecretText" && !strings.Contains(fmt.Sprint(md.New.Inputs), plugin.UnknownStringValue) {
						updated = append(updated, md.URN)
					}
				case apitype.OpCreate:
					if !partial || (md.Type != "harness:platform/pipeline:Pipeline" && md.Type != "harness:platform/triggers:Triggers") {
						t.Errorf("preview after import creates %s, which exists", md.URN)
					}
				default:
					t.Errorf("preview after import: %s %s, want adopted objects kept", md.Op, md.URN)
				}
			}
			slices.Sort(updated)
			want := []string{urnOf(t, report, account[editedPipeline]), urnOf(t, report, account[editedService])}
			slices.Sort(want)
			if !slices.Equal(updated, want) {
				t.Errorf("preview after import updates %v, want exactly the two hand-edited objects %v", updated, want)
			}

			if _, err := s.Up(ctx, "dev", UpOptions{}); err != nil {
				t.Fatalf("up after import: %v\n%s", err, s.out)
			}
			pre, err := s.Preview(ctx, "dev", PreviewOptions{})
			if err != nil {
				t.Fatal(err)
			}
			for op, n := range pre.ChangeSummary {
				if op != apitype.OpSame && n > 0 {
					t.Errorf("the preview after import and up is not clean: %v", pre.ChangeSummary)
				}
			}
			now := providerRecords(t, state, "harness")
			for _, k := range append(slices.Collect(maps.Keys(account)), undeclared...) {
				if _, ok := now[k]; !ok {
					t.Errorf("%s is gone after up", k)
				}
			}
			if now[editedPipeline].Properties["yaml"] != account[editedPipeline].Properties["yaml"] {
				t.Error("up did not restore the hand-edited pipeline to the catalog's YAML")
			}
		})
	}
}

// urnOf is the URN under which the import report names a record.
func urnOf(t *testing.T, report []adopt.Adoption, r simulated.Record) string {
	t.Helper()
	id := importIDOfRecord(t, r)
	for _, a := range report {
		if a.ImportID == id && a.Type == r.Type {
			return a.URN
		}
	}
	t.Fatalf("the import report does not name %s", id)
	return ""
}

// importIDOfRecord is the import ID of a simulated Harness object.
func importIDOfRecord(t *testing.T, r simulated.Record) string {
	t.Helper()
	return adopt.Declared{Type: r.Type, Inputs: r.Properties}.ImportID()
}

func jsonRoundTrip(t *testing.T, v map[string]any) map[string]any {
	t.Helper()
	data, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var out map[string]any
	if err := json.Unmarshal(data, &out); err != nil {
		t.Fatal(err)
	}
	return out
}
