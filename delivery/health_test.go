package delivery

import (
	"fmt"
	"testing"

	lua "github.com/yuin/gopher-lua"
	"gopkg.in/yaml.v3"
)

// health runs an Argo CD health customization as Argo CD does: a Lua
// script (gopher-lua, the interpreter Argo CD embeds) with the object as
// the global obj, returning a table with status and message.
func health(t *testing.T, script, object string) (status, message string) {
	t.Helper()
	var obj map[string]any
	if err := yaml.Unmarshal([]byte(object), &obj); err != nil {
		t.Fatal(err)
	}
	L := lua.NewState(lua.Options{SkipOpenLibs: false})
	defer L.Close()
	L.SetGlobal("obj", toLua(L, obj))
	if err := L.DoString(script); err != nil {
		t.Fatalf("the health script fails: %v", err)
	}
	ret, ok := L.Get(-1).(*lua.LTable)
	if !ok {
		t.Fatalf("the health script returns %v, not a table", L.Get(-1))
	}
	return ret.RawGetString("status").String(), ret.RawGetString("message").String()
}

// toLua converts a decoded YAML value to Lua values: maps to tables,
// lists to 1-based tables.
func toLua(L *lua.LState, v any) lua.LValue {
	switch v := v.(type) {
	case map[string]any:
		t := L.NewTable()
		for k, e := range v {
			t.RawSetString(k, toLua(L, e))
		}
		return t
	case []any:
		t := L.NewTable()
		for _, e := range v {
			t.Append(toLua(L, e))
		}
		return t
	case string:
		return lua.LString(v)
	case bool:
		return lua.LBool(v)
	case int:
		return lua.LNumber(v)
	case float64:
		return lua.LNumber(v)
	case nil:
		return lua.LNil
	}
	panic(fmt.Sprintf("no Lua value for %T", v))
}

// The Stack health check: Healthy only for the spec the operator has
// observed; a Ready left from before a spec change is Progressing.
func TestStackHealth(t *testing.T) {
	cm := manifests(t, "../deploy/argocd/argocd-cm.yaml")
	script := cm[0].Data["resource.customizations.health.pulumi.com_Stack"]
	stack := func(generation, observed int, conditions string) string {
		return fmt.Sprintf("metadata: {generation: %d}\nstatus:\n  observedGeneration: %d\n  conditions: %s\n", generation, observed, conditions)
	}
	ready := `[{type: Ready, status: "True", message: up to date}]`
	for _, c := range []struct {
		name, object, want string
	}{
		{"ready at the current spec", stack(2, 2, ready), "Healthy"},
		{"ready before a spec change", stack(3, 2, ready), "Progressing"},
		{"reconciling", stack(2, 2, `[{type: Reconciling, status: "True", message: running}, {type: Ready, status: "False"}]`), "Progressing"},
		{"stalled", stack(2, 2, `[{type: Stalled, status: "True", message: update failed}]`), "Degraded"},
		{"never reconciled", "metadata: {generation: 1}\n", "Progressing"},
	} {
		if got, msg := health(t, script, c.object); got != c.want {
			t.Errorf("%s: %s (%s), want %s", c.name, got, msg, c.want)
		}
	}
}

// The Application health check: a parent's sync waves wait for each
// child Application to be healthy.
func TestApplicationHealth(t *testing.T) {
	cm := manifests(t, "../deploy/argocd/argocd-cm.yaml")
	script := cm[0].Data["resource.customizations.health.argoproj.io_Application"]
	if script == "" {
		t.Fatal("argocd-cm has no health check for Applications: a parent's sync waves would not wait for its children")
	}
	for object, want := range map[string]string{
		"status: {health: {status: Healthy}}":                         "Healthy",
		"status: {health: {status: Degraded, message: Stack failed}}": "Degraded",
		"status: {sync: {status: OutOfSync}}":                         "Progressing",
		"metadata: {name: x}":                                         "Progressing",
	} {
		if got, _ := health(t, script, object); got != want {
			t.Errorf("%s: %s, want %s", object, got, want)
		}
	}
}
