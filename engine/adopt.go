package engine

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/google/go-cmp/cmp"
	"github.com/pulumi/pulumi/sdk/v3/go/auto"
	"github.com/pulumi/pulumi/sdk/v3/go/auto/events"
	"github.com/pulumi/pulumi/sdk/v3/go/auto/optpreview"
	"github.com/pulumi/pulumi/sdk/v3/go/auto/optrefresh"
	"github.com/pulumi/pulumi/sdk/v3/go/common/apitype"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/plugin"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/sig"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"

	"github.com/company/harness-platform/harness/importid"
)

// Adoption: the organisation already runs Harness under the identifiers
// the catalog derives, and Harness refuses a second object with an
// existing identifier, so a first up over such an account fails object by
// object. Import adopts what exists into the state instead, unchanged:
//
//  1. a preview lists what the stack would create (type, URN, inputs);
//  2. a probe asks the provider, for each Harness object among them,
//     whether it exists: a second preview, in which the program first
//     calls the provider's lookup (harness:platform/getPipeline, ...) with
//     each object's scope and identifier, so an object that does not
//     exist is an answer rather than a failure;
//  3. with yes, `pulumi import --file` reads what exists into the state by
//     the provider's import IDs (package importid), under the URNs the
//     program declares, with their components; nothing in the account
//     changes.
//
// The next preview then shows the differences between what exists and
// what the catalog declares as in-place updates.

// AdoptStatus is what Import found for one object.
type AdoptStatus string

const (
	// Adopted: the object exists and is what the catalog declares.
	Adopted AdoptStatus = "adopted"
	// Different: the object exists; fields differ from the catalog's (the
	// next up updates them in place).
	Different AdoptStatus = "adopted, different"
	// ToCreate: the object does not exist; up creates it.
	ToCreate AdoptStatus = "to create"
	// NotDeclared: the object exists in a scope the catalog declares (an
	// organisation's project, a project's pipeline, service or
	// environment) and the catalog does not declare it. Import lists it
	// and leaves it alone; nothing deletes it.
	NotDeclared AdoptStatus = "exists, not declared"
)

// Adoption is Import's finding for one object the stack declares and its
// state does not hold, or for one the catalog does not declare
// (NotDeclared: no stack, no URN).
type Adoption struct {
	Stack    string
	URN      string
	Type     string
	ImportID string
	Status   AdoptStatus
	Fields   []string // the fields that differ, for Different
}

// ImportOptions configure Import.
type ImportOptions struct {
	// Yes adopts; without it Import only reports.
	Yes bool
	// Stdout and Stderr receive the progress of the import itself.
	Stdout, Stderr io.Writer
}

// Import finds and (with Yes) adopts the existing objects of one stack,
// or of every stack of an environment in dependency order. Running it
// again finds nothing new: what it adopted is in the state.
//
// Imported as a whole, an environment's report also lists the objects
// that exist where the catalog declares objects and that no stack of it
// declares (NotDeclared). A single service stack declares only its share
// of its projects' objects, so its import does not list them.
func (s *Session) Import(ctx context.Context, name string, o ImportOptions) (ImportReport, error) {
	if o.Yes {
		if err := s.checkDelivery(name); err != nil {
			return ImportReport{}, err
		}
	}
	waves, err := Waves(s.Catalog, name)
	if err != nil {
		return ImportReport{}, err
	}
	run := &importRun{declared: map[string]bool{}, listed: map[string]bool{}}
	if _, shard, _ := s.Catalog.EnvironmentOf(name); shard == "" {
		run.existing = map[string]Adoption{}
	}
	var out ImportReport
	for _, wave := range waves {
		for _, stack := range wave {
			found, err := s.importStack(ctx, stack, o, run)
			out.Objects = append(out.Objects, found...)
			if err != nil {
				out.Calls = run.calls
				return out, err
			}
		}
	}
	out.Objects = append(out.Objects, run.undeclared()...)
	out.Calls = run.calls
	return out, nil
}

// ImportReport is what Import found, and the provider calls it made.
type ImportReport struct {
	Objects []Adoption
	// Calls counts the provider calls: one lookup per object the stacks
	// would create, one per page of a listing, one read per adopted
	// object. Harness allows about 1,000 API calls a minute per key.
	Calls int
}

// importRun is what one Import gathers across the stacks it covers: what
// they declare, and what exists in the scopes they declare objects in.
type importRun struct {
	declared map[string]bool     // objectKey of every object a stack declares
	listed   map[string]bool     // scopeKey of every listing made
	existing map[string]Adoption // objectKey of what the listings found; nil: do not list
	calls    int                 // provider calls made
}

// undeclared are the listed objects no stack declares, sorted.
func (r *importRun) undeclared() []Adoption {
	var out []Adoption
	for k, a := range r.existing {
		if !r.declared[k] {
			out = append(out, a)
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Type != out[j].Type {
			return out[i].Type < out[j].Type
		}
		return out[i].ImportID < out[j].ImportID
	})
	return out
}

// objectKey names a Harness object by its type and import ID.
func objectKey(typ, importID string) string { return typ + " " + importID }

// scopes are the listings a stack's declarations call for, not yet made
// in this run: the projects of each organisation an object is declared
// in, and the pipelines, services and environments of each project.
func (r *importRun) scopes(plan []declared) []listingCall {
	if r.existing == nil {
		return nil
	}
	var out []listingCall
	add := func(scope map[string]string) {
		for _, l := range importid.Listings() {
			args := map[string]string{}
			for _, k := range l.Scope {
				if scope[k] == "" {
					args = nil
					break
				}
				args[k] = scope[k]
			}
			if len(args) != len(scope) {
				continue
			}
			key := l.Token + " " + fmt.Sprint(args)
			if !r.listed[key] {
				r.listed[key] = true
				out = append(out, listingCall{Listing: l, args: args})
			}
		}
	}
	for _, d := range plan {
		if !importid.Known(d.typ) {
			continue
		}
		in := stringInputs(d)
		org, project := in["orgId"], in["projectId"]
		switch d.typ {
		case "harness:platform/organization:Organization":
			org = in["identifier"]
		case "harness:platform/project:Project":
			project = in["identifier"]
		}
		if org != "" {
			add(map[string]string{"orgId": org})
		}
		if org != "" && project != "" {
			add(map[string]string{"orgId": org, "projectId": project})
		}
	}
	return out
}

// listingCall is one listing of one scope.
type listingCall struct {
	importid.Listing
	args map[string]string
}

// declared is one resource of a stack's preview.
type declared struct {
	urn, typ, parent, provider string
	inputs                     map[string]any
	create                     bool
}

func (s *Session) importStack(ctx context.Context, name string, o ImportOptions, run *importRun) ([]Adoption, error) {
	defer s.flush()
	// An import reads; it needs no upstream deployed (a service stack's
	// platform stack may be adopted in the same run, its contract not yet
	// exported).
	stack, err := s.stack(ctx, name, true)
	if err != nil {
		return nil, err
	}
	plan, err := declaredBy(ctx, stack)
	if err != nil {
		return nil, err
	}
	var set probeSet
	for _, d := range plan {
		if !importid.Known(d.typ) {
			continue
		}
		run.declared[objectKey(d.typ, importIDOf(d))] = true
		if strings.HasPrefix(providerName(d.provider), "default_") {
			set.version = providerVersion(d.provider)
			if d.create {
				set.lookups = append(set.lookups, d)
			}
		}
	}
	if set.version != "" {
		set.lists = run.scopes(plan)
	}
	if set.github, err = githubOrgs(plan); err != nil {
		return nil, err
	}
	if len(set.lookups) == 0 && len(set.lists) == 0 && len(set.github) == 0 {
		return nil, nil
	}
	found, listed, calls, err := s.probe(ctx, stack, set)
	run.calls += calls
	if err != nil {
		return nil, err
	}
	candidates := set.lookups
	for _, g := range set.github {
		candidates = append(candidates, g.variables...)
	}
	for _, a := range listed {
		run.existing[objectKey(a.Type, a.ImportID)] = a
	}
	var out []Adoption
	adopting := 0
	for _, d := range candidates {
		a := Adoption{Stack: name, URN: d.urn, Type: d.typ, ImportID: importIDOf(d), Status: ToCreate}
		if state, ok := found[d.urn]; ok {
			a.Status = Adopted
			inputs := d.inputs
			if d.typ == importid.GitHubOrgVariable {
				// The organisation's listing shows no variable's
				// repositories: what it shows is compared, and the up
				// after the import sets the repositories.
				inputs = map[string]any{}
				for k := range state {
					inputs[k] = d.inputs[k]
				}
			}
			if a.Fields = differing(inputs, state); len(a.Fields) > 0 {
				a.Status = Different
			}
			adopting++
		}
		out = append(out, a)
	}
	if !o.Yes || adopting == 0 {
		return out, nil
	}
	run.calls += adopting
	return out, s.adopt(ctx, stack, plan, out, o)
}

// declaredBy previews the stack and returns what it declares.
func declaredBy(ctx context.Context, stack auto.Stack) ([]declared, error) {
	ch := make(chan events.EngineEvent)
	var out []declared
	done := make(chan struct{})
	go func() {
		defer close(done)
		for e := range ch {
			if e.ResourcePreEvent == nil || e.ResourcePreEvent.Metadata.New == nil {
				continue
			}
			m := e.ResourcePreEvent.Metadata
			out = append(out, declared{urn: m.URN, typ: m.Type, parent: m.New.Parent, provider: m.New.Provider,
				inputs: m.New.Inputs, create: m.Op == apitype.OpCreate})
		}
	}()
	_, err := stack.Preview(ctx, optpreview.EventStreams(ch), optpreview.ProgressStreams(io.Discard), optpreview.ErrorProgressStreams(io.Discard))
	<-done
	if err != nil {
		return nil, fmt.Errorf("the preview of %s before the import failed: %w", stack.Name(), err)
	}
	return out, nil
}

// probeSet is what a probe asks the providers.
type probeSet struct {
	lookups []declared    // Harness objects to look up
	lists   []listingCall // Harness listings
	version string        // of the Harness provider
	github  []githubOrg   // GitHub organisations whose variables to list
}

// probe asks the providers which of a stack's objects exist, by their
// lookups, and returns what they answered for those that do, by URN. The
// lookups run in a preview of the program itself, before it declares the
// stack (a program declaring nothing would preview the deletion of what
// the state holds, which protected objects refuse).
//
// It also makes the listings and returns what they found, and the number
// of provider calls made.
func (s *Session) probe(ctx context.Context, stack auto.Stack, set probeSet) (map[string]map[string]any, []Adoption, int, error) {
	found := map[string]map[string]any{}
	var listed []Adoption
	calls := 0
	lookups := func(pctx *pulumi.Context) error {
		for _, l := range set.lists {
			got, n, err := list(pctx, l, set.version)
			calls += n
			if err != nil {
				return err
			}
			listed = append(listed, got...)
		}
		for _, d := range set.lookups {
			args, err := importid.Parse(d.typ, importIDOf(d))
			if err != nil {
				return err
			}
			var result map[string]any
			calls++
			_, err = pctx.InvokePackageRaw(importid.Lookup(d.typ), args, &result, "", pulumi.Version(set.version))
			if err != nil && !isNotFound(err) {
				return fmt.Errorf("looking up %s (%s): %w", d.urn, importid.Lookup(d.typ), err)
			}
			if err == nil && result["id"] != nil && result["id"] != "" {
				found[d.urn] = result
			}
		}
		n, err := probeGitHub(pctx, set.github, found)
		calls += n
		return err
	}
	s.probes.Store(stack.Name(), pulumi.RunFunc(lookups))
	defer s.probes.Delete(stack.Name())
	if _, err := stack.Preview(ctx, optpreview.ProgressStreams(io.Discard), optpreview.ErrorProgressStreams(io.Discard)); err != nil {
		return nil, nil, calls, fmt.Errorf("looking up the objects of %s: %w", stack.Name(), err)
	}
	return found, listed, calls, nil
}

// maxPages bounds a listing's paging (100,000 objects at 100 a page).
const maxPages = 1000

// list calls one listing, page by page, and returns what exists and the
// number of pages read.
func list(pctx *pulumi.Context, l listingCall, version string) ([]Adoption, int, error) {
	var out []Adoption
	for page := 0; page < maxPages; page++ {
		args := map[string]any{}
		for k, v := range l.args {
			args[k] = v
		}
		if l.Page != "" {
			args[l.Page], args[l.Size] = page, l.PageSize
		}
		var result map[string]any
		if _, err := pctx.InvokePackageRaw(l.Token, args, &result, "", pulumi.Version(version)); err != nil {
			return nil, page + 1, fmt.Errorf("listing %s in %v (%s): %w", l.Field, l.args, l.Token, err)
		}
		items, _ := result[l.Field].([]any)
		for _, item := range items {
			item, _ := item.(map[string]any)
			inputs := maps.Clone(l.args)
			inputs["identifier"], _ = item["identifier"].(string)
			id, err := importid.Format(l.Type, inputs)
			if err != nil {
				return nil, page + 1, fmt.Errorf("listing %s in %v: %w", l.Field, l.args, err)
			}
			out = append(out, Adoption{Type: l.Type, ImportID: id, Status: NotDeclared})
		}
		if l.Page == "" || len(items) < l.PageSize {
			return out, page + 1, nil
		}
	}
	return nil, maxPages, fmt.Errorf("listing %s in %v: more than %d pages", l.Field, l.args, maxPages)
}

// withProbes runs, before the program, the lookups Import probes a stack
// with.
func withProbes(prog pulumi.RunFunc, probes *sync.Map) pulumi.RunFunc {
	return func(ctx *pulumi.Context) error {
		if p, ok := probes.Load(ctx.Stack()); ok {
			if err := p.(pulumi.RunFunc)(ctx); err != nil {
				return err
			}
		}
		return prog(ctx)
	}
}

// adopt imports the existing objects into the stack's state with `pulumi
// import --file`: each by its import ID, under the URN the program
// declares (its chain of components is created in the state with it; they
// are no cloud objects), with the provider version the program uses.
// Nothing in the account changes: import only reads. The next preview
// shows the differences as in-place updates.
func (s *Session) adopt(ctx context.Context, stack auto.Stack, plan []declared, found []Adoption, o ImportOptions) error {
	name := stack.Name()
	byURN := map[string]declared{}
	for _, d := range plan {
		byURN[d.urn] = d
	}
	ids := map[string]string{}
	var unreadable []declared // adopted through the state (importid.Adoptable)
	for _, a := range found {
		if a.Status != Adopted && a.Status != Different {
			continue
		}
		if importid.Adoptable(a.Type) || a.Type == importid.GitHubOrgVariable {
			ids[a.URN] = a.ImportID
		} else {
			unreadable = append(unreadable, byURN[a.URN])
		}
	}
	keys := map[string]string{} // URN -> its name in the import file
	nameTable := map[string]string{}
	var resources []importSpec
	var add func(urn string) string
	add = func(urn string) string {
		d, ok := byURN[urn]
		if !ok || d.typ == "pulumi:pulumi:Stack" {
			return "" // the stack: every import's default parent
		}
		if k, ok := keys[urn]; ok {
			return k
		}
		k := fmt.Sprintf("r%d", len(keys))
		keys[urn] = k
		if !d.create {
			nameTable[k] = urn // the state holds it
			return k
		}
		r := importSpec{Type: d.typ, Name: k, LogicalName: resource.URN(urn).Name(), Parent: add(d.parent)}
		id, imported := ids[urn]
		switch {
		case imported && strings.HasPrefix(providerName(d.provider), "default_"):
			r.ID, r.Version = id, providerVersion(d.provider)
		case imported:
			// Through the program's explicit provider: in the state,
			// or created by the import with its configuration.
			r.ID, r.Provider = id, add(providerURN(d.provider))
		case strings.HasPrefix(d.typ, "pulumi:providers:"):
			r.Version, r.Inputs = versionOf(d), d.inputs
		default:
			r.Component = true
		}
		resources = append(resources, r)
		return k
	}
	for _, a := range found {
		if _, ok := ids[a.URN]; ok {
			add(a.URN)
		}
	}
	for _, d := range unreadable {
		add(d.parent) // its components, for the state entry below
	}
	if err := s.backupBefore(ctx, stack, "import"); err != nil {
		return err
	}
	dir, err := s.importDir(name)
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	data, err := json.Marshal(map[string]any{"nameTable": nameTable, "resources": resources})
	if err != nil {
		return err
	}
	file := filepath.Join(dir, "import.json")
	if err := os.WriteFile(file, data, 0o600); err != nil {
		return err
	}
	host, err := buildCached(s.opts.ProjectDir, LanguageHostPackage, LanguageHostBinary, "import-host")
	if err != nil {
		return err
	}
	env := append(slices.Clone(s.env), "PATH="+filepath.Dir(host)+string(os.PathListSeparator)+os.Getenv("PATH"))
	stdout, stderr := runOptions{Stdout: o.Stdout, Stderr: o.Stderr}.streams(s)
	outText, errText, _, err := s.cli.Run(ctx, dir, nil, []io.Writer{stdout}, []io.Writer{stderr}, env,
		"import", "--stack", name, "--file", file, "--yes", "--skip-preview", "--non-interactive",
		"--generate-code=false", "--protect=false")
	s.deployedOutputs(name, nil)
	if err != nil {
		return fmt.Errorf("importing into %s: %w: %s%s", name, err, outText, errText)
	}
	if len(unreadable) == 0 {
		return nil
	}
	return s.adoptThroughState(ctx, stack, unreadable, stdout, stderr)
}

// adoptThroughState adopts objects whose provider import cannot read them
// back (a delegate token: the importer sets no name, and the token's read
// looks it up by name) as recover does: each is written into the state
// with its id and declared inputs, and a refresh targeting them reads them
// by what the state holds, keeping what the cloud has.
func (s *Session) adoptThroughState(ctx context.Context, stack auto.Stack, objects []declared, stdout, stderr io.Writer) error {
	var targets []string
	err := editState(ctx, stack, func(deployment map[string]any) (bool, error) {
		resources, _ := deployment["resources"].([]any)
		for _, d := range objects {
			provider := ""
			for _, r := range resources {
				r, _ := r.(map[string]any)
				if urn, _ := r["urn"].(string); r["type"] == "pulumi:providers:"+strings.SplitN(d.typ, ":", 2)[0] &&
					resource.URN(urn).Name() == providerName(d.provider) {
					provider = urn + "::" + fmt.Sprint(r["id"])
				}
			}
			if provider == "" {
				return false, fmt.Errorf("%s: its provider %s is not in the state after the import", d.urn, d.provider)
			}
			resources = append(resources, map[string]any{
				"urn": d.urn, "custom": true, "type": d.typ, "id": importid.ResourceID(d.typ, stringInputs(d)),
				"parent": d.parent, "provider": provider, "inputs": d.inputs, "outputs": d.inputs,
			})
			targets = append(targets, d.urn)
		}
		deployment["resources"] = resources
		return true, nil
	})
	if err != nil {
		return err
	}
	_, err = stack.Refresh(ctx, optrefresh.Target(targets), optrefresh.ProgressStreams(stdout), optrefresh.ErrorProgressStreams(stderr), optrefresh.ShowSecrets(false))
	return err
}

// LanguageHostPackage is the language host `pulumi import` asks which
// packages the program needs (see its command's comment).
const (
	LanguageHostPackage = "./cmd/pulumi-language-harness-platform"
	LanguageHostBinary  = "pulumi-language-harness-platform"
)

// importSpec is one resource of a `pulumi import --file` file.
type importSpec struct {
	Type        string `json:"type"`
	Name        string `json:"name"`
	LogicalName string `json:"logicalName,omitempty"`
	ID          string `json:"id,omitempty"`
	Parent      string `json:"parent,omitempty"`
	Version     string `json:"version,omitempty"`
	Component   bool   `json:"component,omitempty"`
	// Provider names an explicit provider (in the name table or the
	// file); a provider declared in the file has its configuration in
	// Inputs.
	Provider string         `json:"provider,omitempty"`
	Inputs   map[string]any `json:"inputs,omitempty"`
}

// importDir is a directory from which `pulumi import` works on the stack:
// the project under the runtime of the import's language host, and the
// stack's settings file (its config, the provider's settings and the
// secrets' salt).
func (s *Session) importDir(name string) (string, error) {
	dir, err := os.MkdirTemp("", "harness-platform-import-")
	if err != nil {
		return "", err
	}
	project := fmt.Sprintf("name: %s\nruntime: harness-platform\n", s.project)
	if err := os.WriteFile(filepath.Join(dir, "Pulumi.yaml"), []byte(project), 0o600); err != nil {
		return "", err
	}
	file := "Pulumi." + name + ".yaml"
	settings, err := os.ReadFile(filepath.Join(s.workspace.WorkDir(), file))
	if err != nil && !os.IsNotExist(err) {
		return "", err
	}
	return dir, os.WriteFile(filepath.Join(dir, file), settings, 0o600)
}

// importIDOf is the provider's import ID of a declared object ("" if its
// inputs do not say).
func importIDOf(d declared) string {
	in := stringInputs(d)
	if d.typ == importid.GitHubOrgVariable {
		return in["variableName"]
	}
	id, _ := importid.Format(d.typ, in)
	return id
}

// stringInputs are the string inputs of a declared object (identifier,
// name and scope among them).
func stringInputs(d declared) map[string]string {
	out := map[string]string{}
	for k, v := range d.inputs {
		if s, ok := v.(string); ok {
			out[k] = s
		}
	}
	return out
}

// isNotFound reports whether a lookup failed because the object does not
// exist: the Harness API's 404 (ENTITY_NOT_FOUND, RESOURCE_NOT_FOUND),
// which the provider reports as "resource with ID ... not found"
// (terraform-provider-harness helpers/errors.go), or as an empty id. Any
// other failure (401, 403: a credential) stops the import.
func isNotFound(err error) bool {
	msg := strings.ToLower(err.Error())
	return strings.Contains(msg, "not found") || strings.Contains(msg, "not_found")
}

// providerName is the name in a provider reference, a URN and an id
// (urn:...::pulumi:providers:harness::default_0_16_0::id).
func providerName(ref string) string {
	return resource.URN(providerURN(ref)).Name()
}

// providerURN is the URN in a provider reference (urn::id).
func providerURN(ref string) string {
	if i := strings.LastIndex(ref, "::"); i >= 0 {
		return ref[:i]
	}
	return ref
}

// providerVersion is the version of a default provider reference
// (default_0_16_0: 0.16.0).
func providerVersion(ref string) string {
	v, _ := strings.CutPrefix(providerName(ref), "default_")
	return strings.ReplaceAll(v, "_", ".")
}

// differing lists the declared inputs the next preview would update, as
// the bridged provider's Diff sees them: a declared input is compared
// with what the object holds, and inside it only what the program
// declares; what only the provider or Harness sets (a principal's scope
// level, an SDKv2 block's unset attributes, read back as [] or "") is
// not a difference, and an unset value equals its zero value. Secrets,
// which the preview masks, are not compared, nor values the preview does
// not know yet (what objects still to create will give: a delegate's
// selector, a trigger's webhook URL); the report cannot tell them.
func differing(declared, state map[string]any) []string {
	var out []string
	for k, want := range declared {
		if isMasked(want) || isUnknown(want) {
			continue
		}
		if !sameInput(want, state[k]) {
			out = append(out, k)
		}
	}
	sort.Strings(out)
	return out
}

// isUnknown says whether v holds a value the preview does not know.
func isUnknown(v any) bool {
	data, err := json.Marshal(v)
	return err == nil && bytes.Contains(data, []byte(plugin.UnknownStringValue))
}

// sameInput says whether the object's value got holds the declared want
// (both as JSON decodes them): go-cmp, with what a bridged provider's
// Diff ignores left out (inputDiff).
func sameInput(want, got any) bool {
	want, got = normalJSON(want), normalJSON(got)
	if isZero(want) && isZero(got) {
		// (cmp meets an absent value, nil, only inside a map or slice.)
		return true
	}
	return cmp.Equal(want, got, inputDiff)
}

// inputDiff compares a declared input with what the object holds as the
// bridged provider's Diff does: a map key the program does not declare
// is the provider's or Harness's to set (and one the object lacks is
// unset), and an unset value equals its zero value (SDKv2 reads an unset
// optional attribute back as "", false, 0, [] or {}).
var inputDiff = cmp.Options{
	cmp.FilterPath(func(p cmp.Path) bool {
		mi, ok := p.Last().(cmp.MapIndex)
		if !ok {
			return false
		}
		want, got := mi.Values()
		return !want.IsValid() || !got.IsValid() && isZero(want.Interface())
	}, cmp.Ignore()),
	cmp.FilterValues(func(want, got any) bool { return isZero(want) && isZero(got) }, cmp.Comparer(func(_, _ any) bool { return true })),
}

// isZero says whether v is unset or a zero value, as SDKv2 stores an
// unset optional attribute.
func isZero(v any) bool {
	switch v := v.(type) {
	case nil:
		return true
	case string:
		return v == ""
	case bool:
		return !v
	case float64:
		return v == 0
	case []any:
		return len(v) == 0
	case map[string]any:
		return len(v) == 0
	}
	return false
}

// normalJSON is v as JSON decodes it (numbers as float64, structs as
// maps), so values from the preview and from a lookup compare alike.
func normalJSON(v any) any {
	switch v.(type) {
	case nil, string, bool, float64, []any, map[string]any:
		return v
	}
	data, err := json.Marshal(v)
	if err != nil {
		return v
	}
	var out any
	if json.Unmarshal(data, &out) != nil {
		return v
	}
	return out
}

func isMasked(v any) bool {
	switch v := v.(type) {
	case string:
		return v == "[secret]"
	case map[string]any:
		if v[sig.Key] == sig.Secret {
			return true
		}
		for _, e := range v {
			if isMasked(e) {
				return true
			}
		}
	case []any:
		for _, e := range v {
			if isMasked(e) {
				return true
			}
		}
	}
	return false
}
