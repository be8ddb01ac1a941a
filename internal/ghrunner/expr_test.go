package ghrunner

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func testScope() *Scope {
	return &Scope{Contexts: map[string]any{
		"github": map[string]any{"event": map[string]any{"pull_request": map[string]any{"number": float64(7), "base": map[string]any{"sha": "abc"}}},
			"run_id": "1001", "server_url": "https://github.com", "repository": "company/harness-platform"},
		"needs": map[string]any{
			"paths":           map[string]any{"result": "success", "outputs": map[string]any{"dev": "github-actions", "staging": "operator"}},
			"plan-production": map[string]any{"result": "success", "outputs": map[string]any{"first-step": "true"}},
			"stacks":          map[string]any{"result": "failure", "outputs": map[string]any{}},
		},
		"steps":   map[string]any{"webhook": map[string]any{"outputs": map[string]any{"key": "HARNESS_KEY", "url": "https://x"}}},
		"secrets": map[string]any{"HARNESS_KEY": "s3cret"},
		"inputs":  map[string]any{"stack": "dev", "plan": true, "round": "2"},
		"matrix":  map[string]any{"stack": "staging"},
		"vars":    map[string]any{"A": "1"},
	}}
}

// The expressions the workflows write, evaluated as GitHub evaluates
// them.
func TestEval(t *testing.T) {
	s := testScope()
	for expr, want := range map[string]any{
		"needs.paths.outputs.dev == 'github-actions'":                                 true,
		"needs.paths.outputs.staging == 'github-actions'":                             false,
		"needs.plan-production.outputs.first-step == 'true'":                          true,
		"needs.PATHS.outputs.DEV":                                                     "github-actions",
		"needs.missing.result":                                                        nil,
		"needs.stacks.result != 'skipped'":                                            true,
		"join(needs.*.result, ' ')":                                                   "success success failure",
		"steps.webhook.outputs.key != '' && secrets[steps.webhook.outputs.key] || ''": "s3cret",
		"steps.nope.outputs.key != '' && secrets[steps.nope.outputs.key] || ''":       "",
		"inputs.plan":                                  true,
		"!inputs.plan":                                 false,
		"inputs.round == 2":                            true, // '2' and 2 compare as numbers
		"'GitHub-Actions' == 'github-actions'":         true,
		"null == 0":                                    true,
		"'' == false":                                  true,
		"'abc' == 0":                                   false, // NaN
		"contains(needs.*.result, 'failure')":          true,
		"contains('Hello World', 'WORLD')":             true,
		"startsWith('refs/heads/main', 'refs/heads/')": true,
		"format('{0}/{1}', 'a', 3)":                    "a/3",
		"format('{{{0}}}', 'x')":                       "{x}",
		"fromJSON('{\"a\": [1, 2]}').a[1]":             float64(2),
		"toJSON(inputs.round)":                         `"2"`,
		"matrix.stack":                                 "staging",
		"1 < 2 && 'b' > 'A'":                           true,
		"github.event.pull_request.number":             float64(7),
	} {
		got, err := s.Eval(expr)
		if err != nil {
			t.Errorf("%s: %v", expr, err)
			continue
		}
		if got != want {
			t.Errorf("%s = %#v, want %#v", expr, got, want)
		}
	}
	if v, err := s.Eval("hashFiles('go.sum')"); err != nil || v != "" {
		t.Errorf("hashFiles without a workspace: %#v %v, want no file: ''", v, err)
	}
	if _, err := s.Eval("needs.paths.outputs.dev =="); err == nil {
		t.Error("a broken expression parsed")
	}
	if _, err := s.Eval("nocontext.x"); err == nil {
		t.Error("an unknown context evaluated")
	}
}

func TestInterpolate(t *testing.T) {
	s := testScope()
	got, err := s.Interpolate("${{ github.server_url }}/${{ github.repository }}/actions/runs/${{ github.run_id }} and ${{ '}}' }} ${{ inputs.plan }}")
	if err != nil {
		t.Fatal(err)
	}
	if want := "https://github.com/company/harness-platform/actions/runs/1001 and }} true"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	v, err := s.Value("${{ inputs.plan }}")
	if v != true || err != nil {
		t.Errorf("a field that is one expression keeps its type: %#v %v", v, err)
	}
	v, err = s.Value("plans-${{ inputs.stack }}-${{ github.run_id }}-${{ inputs.round }}")
	if v != "plans-dev-1001-2" || err != nil {
		t.Errorf("got %#v %v", v, err)
	}
}

// An if: that calls no status function is success() && (if); the ${{ }}
// are optional.
func TestCondition(t *testing.T) {
	failed := false
	s := testScope()
	s.Status = Status{Success: func() bool { return !failed }, Failure: func() bool { return failed }}
	for _, c := range []struct {
		cond         string
		ok, okFailed bool
	}{
		{"", true, false},
		{"needs.paths.outputs.dev == 'github-actions'", true, false},
		{"${{ needs.paths.outputs.dev == 'github-actions' }}", true, false},
		{"${{ !failure() && !cancelled() && needs.paths.outputs.dev == 'github-actions' }}", true, false},
		{"always()", true, true},
		{"always() && needs.stacks.result != 'skipped'", true, true},
		{"failure()", false, true},
		{"steps.webhook.outputs.key == 'HARNESS_KEY'", true, false},
	} {
		for _, f := range []bool{false, true} {
			failed = f
			got, err := s.Condition(c.cond)
			want := c.ok
			if f {
				want = c.okFailed
			}
			if err != nil || got != want {
				t.Errorf("if: %q (failed %v) = %v %v, want %v", c.cond, f, got, err, want)
			}
		}
	}
}

// hashFiles is the Actions runner's: each matched file's SHA-256, in
// turn, into one SHA-256 (actions/runner hashFiles.ts); "!" excludes; ”
// when nothing matches.
func TestHashFiles(t *testing.T) {
	dir := t.TempDir()
	for name, content := range map[string]string{"go.sum": "a", "sub/go.sum": "b", "sub/x.txt": "c"} {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	digest := func(contents ...string) string {
		outer := sha256.New()
		for _, c := range contents {
			inner := sha256.Sum256([]byte(c))
			outer.Write(inner[:])
		}
		return hex.EncodeToString(outer.Sum(nil))
	}
	s := &Scope{Contexts: map[string]any{}, Workspace: dir}
	for expr, want := range map[string]string{
		"hashFiles('go.sum')":                           digest("a"),
		"hashFiles('**/go.sum')":                        digest("a", "b"), // go.sum, sub/go.sum: lexical
		"hashFiles('**/go.sum', '!sub/**')":             digest("a"),
		"hashFiles('./sub/*')":                          digest("b", "c"),
		"hashFiles('nothing/**')":                       "",
		"hashFiles('**/go.sum') != hashFiles('go.sum')": "",
	} {
		got, err := s.Eval(expr)
		if err != nil {
			t.Errorf("%s: %v", expr, err)
			continue
		}
		if strings.Contains(expr, "!=") {
			if got != true {
				t.Errorf("%s = %v", expr, got)
			}
			continue
		}
		if got != want {
			t.Errorf("%s = %v, want %v", expr, got, want)
		}
	}
}
