package importid

import (
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// The import IDs of terraform-provider-harness's importers
// (helpers/schema.go) and import.sh examples, for every level the program
// uses, and back.
func TestFormatAndParse(t *testing.T) {
	project := map[string]string{"orgId": "o", "projectId": "p"}
	with := func(base map[string]string, kv ...string) map[string]string {
		out := maps.Clone(base)
		if out == nil {
			out = map[string]string{}
		}
		for i := 0; i < len(kv); i += 2 {
			out[kv[i]] = kv[i+1]
		}
		return out
	}
	for _, c := range []struct {
		token  string
		inputs map[string]string
		want   string
	}{
		{"harness:platform/organization:Organization", with(nil, "identifier", "o"), "o"},
		{"harness:platform/project:Project", with(nil, "orgId", "o", "identifier", "p"), "o/p"},
		{"harness:platform/pipeline:Pipeline", with(project, "identifier", "pl"), "o/p/pl"},
		{"harness:platform/triggers:Triggers", with(project, "targetId", "pl", "identifier", "t"), "o/p/pl/t"},
		{"harness:platform/inputSet:InputSet", with(project, "pipelineId", "pl", "identifier", "s"), "o/p/pl/s"},
		{"harness:platform/infrastructure:Infrastructure", with(project, "envId", "e", "identifier", "i"), "o/p/e/i"},
		{"harness:platform/infrastructure:Infrastructure", with(nil, "envId", "e", "identifier", "i"), "e/i"},
		{"harness:platform/githubConnector:GithubConnector", with(nil, "identifier", "c"), "c"},
		{"harness:platform/githubConnector:GithubConnector", with(nil, "orgId", "o", "identifier", "c"), "o/c"},
		{"harness:platform/resourceGroup:ResourceGroup", with(project, "identifier", "rg"), "o/p/rg"},
		{"harness:platform/monitoredService:MonitoredService", with(project, "identifier", "ms"), "o/p/ms"},
		{"harness:platform/delegatetoken:Delegatetoken", with(project, "name", "tok"), "o/p/tok"},
		{"harness:platform/template:Template", with(project, "identifier", "deploy", "version", "3"), "o/p/deploy/versions/3"},
		{"harness:platform/template:Template", with(nil, "orgId", "o", "identifier", "deploy"), "o/deploy"},
	} {
		got, err := Format(c.token, c.inputs)
		if err != nil || got != c.want {
			t.Errorf("Format(%s, %v) = %q, %v; want %q", c.token, c.inputs, got, err, c.want)
			continue
		}
		back, err := Parse(c.token, got)
		if err != nil || !maps.Equal(back, c.inputs) {
			t.Errorf("Parse(%s, %q) = %v, %v; want %v", c.token, got, back, err, c.inputs)
		}
		if id := ResourceID(c.token, c.inputs); id != c.inputs[schemes[c.token].id] || id == "" {
			t.Errorf("ResourceID(%s) = %q, want the bare identifier", c.token, id)
		}
	}
}

func TestRefusals(t *testing.T) {
	for _, c := range []struct {
		token  string
		inputs map[string]string
		want   string
	}{
		{"harness:platform/pipeline:Pipeline", map[string]string{"orgId": "o", "identifier": "x"}, "needs projectId"},
		{"harness:platform/service:Service", map[string]string{"projectId": "p", "identifier": "x"}, "projectId is set without orgId"},
		{"harness:platform/service:Service", map[string]string{"orgId": "o/x", "identifier": "x"}, "splits on"},
		{"harness:platform/nope:Nope", nil, "no known import ID format"},
	} {
		if _, err := Format(c.token, c.inputs); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Format(%s, %v): %v, want %q", c.token, c.inputs, err, c.want)
		}
	}
	for token, id := range map[string]string{
		"harness:platform/project:Project":   "o/p/x",
		"harness:platform/pipeline:Pipeline": "o/x",
		"harness:platform/service:Service":   "o/p/x/y",
		"harness:platform/triggers:Triggers": "o//pl/t",
	} {
		if got, err := Parse(token, id); err == nil {
			t.Errorf("Parse(%s, %q) = %v, want a refusal", token, id, got)
		}
	}
}

// Every Harness type the bindings register has a known format.
func TestEveryBoundTypeHasAFormat(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "sdk", "platform", "*.go"))
	if err != nil || len(files) == 0 {
		t.Fatalf("the generated bindings in ../sdk/platform: %v", err)
	}
	token := regexp.MustCompile(`"(harness:platform/[A-Za-z]+:[A-Za-z]+)"`)
	seen := 0
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range token.FindAllStringSubmatch(string(data), -1) {
			seen++
			if !Known(m[1]) {
				t.Errorf("%s registers %s, which has no import ID format here", f, m[1])
			}
		}
	}
	if seen < 20 {
		t.Fatalf("found %d registered types in the bindings, expected every one", seen)
	}
}

// A lookup token names its type's data source, and back.
func TestLookup(t *testing.T) {
	for _, token := range Types() {
		lookup := Lookup(token)
		if back, ok := LookedUp(lookup); !ok || back != token {
			t.Errorf("Lookup(%s) = %s, which reads back as %q, %v", token, lookup, back, ok)
		}
	}
	if got := Lookup("harness:platform/pipeline:Pipeline"); got != "harness:platform/getPipeline:getPipeline" {
		t.Errorf("the pipeline's lookup is %s", got)
	}
	if _, ok := LookedUp("github:index/getTeam:getTeam"); ok {
		t.Error("another provider's lookup read as a Harness type")
	}
}

// An environment variable's ID as terraform-provider-github builds and
// parses it (util.go buildID, escapeIDPart; parseID3).
