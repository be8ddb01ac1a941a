package plan

import (
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/company/harness-platform/internal/catalogtest"
)

// tv is a version of template id whose spec has the runtime inputs named.
func tv(id, version string, inputs ...string) StageTemplate {
	y := "template:\n  identifier: " + id + "\n  versionLabel: " + version + "\n  type: Stage\n  spec:\n    type: Deployment\n    spec:\n      fixed: " + version + "\n"
	for _, in := range inputs {
		y += "      " + in + ": <+input>\n"
	}
	return StageTemplate{Identifier: id, Version: version, YAML: y}
}

func candidate(t StageTemplate) StageTemplate { t.Candidate = true; return t }

func versionsOf(ts []StageTemplate) []string {
	var out []string
	for _, t := range ts {
		s := t.Identifier + "@" + t.Version
		if t.Candidate {
			s += " (candidate)"
		}
		out = append(out, s)
	}
	return out
}

// A template version's way through Harness: what the platform stack
// declares at each step, given what it declared last and what the
// service stacks' pipelines use.
func TestTemplateVersions(t *testing.T) {
	v1, v2, v3 := tv("d", "v1", "a"), tv("d", "v2", "a"), tv("d", "v3", "a", "b")
	v4 := tv("d", "v4", "a", "c")
	cases := []struct {
		name              string
		planned, deployed []StageTemplate
		uses              []string // stack:use
		want              []string
		note              string
	}{
		{name: "first", planned: []StageTemplate{v1}, want: []string{"d@v1"}},
		{name: "unchanged", planned: []StageTemplate{v1}, deployed: []StageTemplate{v1}, uses: []string{"s1:d"}, want: []string{"d@v1"}},
		{name: "same inputs: the new version is stable at once", planned: []StageTemplate{v2}, deployed: []StageTemplate{v1}, uses: []string{"s1:d", "s2:d"},
			want: []string{"d@v2"}},
		{name: "new inputs: a candidate beside the stable version", planned: []StageTemplate{v3}, deployed: []StageTemplate{v1}, uses: []string{"s1:d", "s2:d"},
			want: []string{"d@v1", "d@v3 (candidate)"}, note: "which the pipelines of s1, s2 still run"},
		{name: "one stack moved, one failed", planned: []StageTemplate{v3}, deployed: []StageTemplate{v1, candidate(v3)}, uses: []string{"s1:d@v3", "s2:d"},
			want: []string{"d@v1", "d@v3 (candidate)"}, note: "which the pipelines of s2 still run"},
		{name: "every stack moved: stable, the old one deleted", planned: []StageTemplate{v3}, deployed: []StageTemplate{v1, candidate(v3)}, uses: []string{"s1:d@v3", "s2:d@v3"},
			want: []string{"d@v3"}, note: "version v3 is stable now"},
		{name: "no pipeline yet: stable at once", planned: []StageTemplate{v3}, deployed: []StageTemplate{v1}, want: []string{"d@v3"}, note: "version v3 is stable now"},
		{name: "another change in flight: the pinned candidate is kept", planned: []StageTemplate{v4}, deployed: []StageTemplate{v1, candidate(v3)}, uses: []string{"s1:d@v3", "s2:d"},
			want: []string{"d@v1", "d@v3 (candidate)", "d@v4 (candidate)"}, note: "version v3 is kept: the pipelines of s1"},
		{name: "promoted, still pinned, then a change keeping its inputs", planned: []StageTemplate{tv("d", "v5", "a", "b")}, deployed: []StageTemplate{v3}, uses: []string{"s1:d@v3", "s2:d@v3"},
			want: []string{"d@v3 (candidate)", "d@v5"}, note: "version v3 is kept"},
		{name: "dropped, still used", deployed: []StageTemplate{v1}, uses: []string{"s1:d"}, want: []string{"d@v1"}, note: "version v1 is kept: the pipelines of s1"},
		{name: "dropped, unused", deployed: []StageTemplate{v1, candidate(v3)}, uses: []string{"s1:e"}, want: nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var uses []TemplateUse
			for _, u := range c.uses {
				stack, use, _ := strings.Cut(u, ":")
				uses = append(uses, ParseTemplateUse(stack, use))
			}
			got, notes, err := TemplateVersions(c.planned, c.deployed, uses)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(versionsOf(got), c.want) {
				t.Errorf("declared %q, want %q (notes %q)", versionsOf(got), c.want, notes)
			}
			if joined := strings.Join(notes, "\n"); c.note != "" && !strings.Contains(joined, c.note) || c.note == "" && len(notes) > 0 {
				t.Errorf("notes %q, want one saying %q", notes, c.note)
			}
			matter, err := UsesMatter(c.planned, c.deployed)
			if err != nil {
				t.Fatal(err)
			}
			if !matter {
				// Without the uses the answer must be the same.
				again, _, _ := TemplateVersions(c.planned, c.deployed, nil)
				if !slices.Equal(versionsOf(again), versionsOf(got)) {
					t.Errorf("UsesMatter says the uses do not matter, but without them %q", versionsOf(again))
				}
			}
		})
	}
}

func TestTemplateUseRoundTrip(t *testing.T) {
	for _, u := range []TemplateUse{{Stack: "s", Template: "d"}, {Stack: "s", Template: "d", Version: "v1"}} {
		if got := ParseTemplateUse("s", u.String()); got != u {
			t.Errorf("%+v -> %q -> %+v", u, u.String(), got)
		}
	}
}

// A service stack pins to the plan's version exactly the pipelines of a
// template whose runtime inputs differ from the stable version the
// platform stack declares, with the inputs written for that version;
// the others keep referencing the stable version.
func TestPinTemplates(t *testing.T) {
	c := catalogtest.Example(t, "..")
	build := func() *Plan {
		p, err := Build(c, "production.services")
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	p := build()
	if len(p.Templates) < 2 {
		t.Fatalf("production.services uses %d templates, want two or more", len(p.Templates))
	}
	moved := p.Templates[0]
	// The platform's stable versions: the first template's lacks an
	// input (an older version), the others are the plan's own or a
	// version with the same inputs.
	var platform []StageTemplate
	for i, tmpl := range p.Templates {
		s := tmpl
		s.Version = "v0000000" + string(rune('a'+i))
		if i == 0 {
			s.YAML = strings.Replace(s.YAML, "serviceRef: <+input>", "serviceRef: fixed", 1)
			if s.YAML == tmpl.YAML {
				t.Fatal("the template has no serviceRef input")
			}
		}
		platform = append(platform, s, candidate(tv(tmpl.Identifier, "vcandidate", "other")))
	}
	if err := PinTemplates(p, platform); err != nil {
		t.Fatal(err)
	}
	unpinned := build()
	pinned := 0
	for i, d := range p.Deployments {
		was := unpinned.Deployments[i].Pipeline
		switch {
		case d.Pipeline.Template == moved.Identifier:
			pinned++
			ref := regexp.MustCompile(`(?m)^( *)templateRef: ` + regexp.QuoteMeta(moved.Identifier) + `\n`)
			want := ref.ReplaceAllString(was.YAML, "${0}${1}versionLabel: "+moved.Version+"\n")
			if d.Pipeline.TemplateVersion != moved.Version || d.Pipeline.YAML != want || want == was.YAML {
				t.Errorf("pipeline %s pins %q; its YAML is not the unpinned one with versionLabel %s after its templateRef", d.Pipeline.Identifier, d.Pipeline.TemplateVersion, moved.Version)
			}
		case d.Pipeline.TemplateVersion != "" || d.Pipeline.YAML != was.YAML:
			t.Errorf("pipeline %s of template %s, whose inputs are the stable version's, is pinned to %q", d.Pipeline.Identifier, d.Pipeline.Template, d.Pipeline.TemplateVersion)
		}
	}
	if pinned == 0 {
		t.Fatalf("no pipeline of %s pinned", moved.Identifier)
	}
	// What runs is the pinned version's document with the pipeline's inputs.
	for _, d := range p.Deployments {
		if d.Pipeline.Template != moved.Identifier {
			continue
		}
		if _, err := Resolve(d.Pipeline.YAML, p.Templates); err != nil {
			t.Errorf("pipeline %s: %v", d.Pipeline.Identifier, err)
		}
		break
	}
}
