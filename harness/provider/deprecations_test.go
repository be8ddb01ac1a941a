package provider

import (
	"encoding/json"
	"flag"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"
)

var update = flag.Bool("update", false, "rewrite deprecations.json from $HARNESS_SDK_INPUT_TS")

func TestParseDeprecations(t *testing.T) {
	src := `export namespace platform {
    export interface MonitoredServiceRequest {
        /**
         * Enable or disable the monitored service.
         *
         * @deprecated enabled field is deprecated
         */
        enabled?: pulumi.Input<boolean | undefined>;
        /**
         * Name for the monitored service.
         */
        name: pulumi.Input<string>;
    }
    export interface Other {
        kept?: pulumi.Input<string>;
    }
}
`
	got := ParseDeprecations(src)
	want := []Deprecation{{Module: "platform", Type: "MonitoredServiceRequest", Property: "enabled", Message: "enabled field is deprecated"}}
	if !slices.Equal(got, want) {
		t.Errorf("got %+v, want %+v", got, want)
	}
}

// deprecations.json is what ParseDeprecations reads from the SDK typings
// it names; with HARNESS_SDK_INPUT_TS set (a checkout of pulumi-harness at
// the pinned version), the test checks it, or with -update rewrites it.
func TestNestedDeprecationsFile(t *testing.T) {
	file := os.Getenv("HARNESS_SDK_INPUT_TS")
	if file == "" {
		t.Skip("HARNESS_SDK_INPUT_TS is not set: nothing to regenerate deprecations.json from")
	}
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	got, err := json.MarshalIndent(ParseDeprecations(string(src)), "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	got = append(got, '\n')
	if *update {
		if err := os.WriteFile("deprecations.json", got, 0o644); err != nil {
			t.Fatal(err)
		}
	} else if string(got) != string(deprecationsJSON) {
		t.Error("deprecations.json differs from the typings; rerun with -update")
	}
}

// A deprecated nested input set anywhere is a problem; left unset it is
// none.
func TestNestedDeprecationsChecked(t *testing.T) {
	facts, _, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	if d := facts.Types["MonitoredServiceRequest"].Properties["enabled"].Deprecated; d != "enabled field is deprecated" {
		t.Fatalf("MonitoredServiceRequest.enabled: deprecation %q", d)
	}
	request := map[string]any{"name": "n", "type": "Application", "serviceRef": "s", "environmentRef": "e"}
	inputs := func() resource.PropertyMap {
		return resource.NewPropertyMapFromMap(map[string]any{"identifier": "s_e", "orgId": "o", "projectId": "p", "request": request})
	}
	const token = "harness:platform/monitoredService:MonitoredService"
	for _, p := range facts.CheckResource(token, inputs()) {
		if strings.Contains(p, "deprecated") {
			t.Errorf("unset: %s", p)
		}
	}
	request["enabled"] = true
	problems := facts.CheckResource(token, inputs())
	if !slices.Contains(problems, token+".request.enabled is deprecated: enabled field is deprecated") {
		t.Errorf("set: %q", problems)
	}
}
