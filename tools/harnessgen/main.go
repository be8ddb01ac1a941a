// Command harnessgen generates the project's Go bindings of the Harness
// provider (harness/sdk) with Pulumi's own Go code generator
// (pkg/v3/codegen/go), the one that writes the official SDKs.
//
// The official SDK (github.com/pulumi/pulumi-harness/sdk) is not served by
// the module proxy, and neither is the provider's Pulumi schema; what the
// project has is the provider's API facts (../shared/harness-provider:
// schema.json and constraints.json). harnessgen turns those facts into a
// Pulumi package schema restricted to the resources the program uses (the
// list in harness/bindings.txt) and the types they reach, and runs the
// generator over it:
//
//	go -C tools/harnessgen run . -root ../..           # rewrite harness/sdk
//	go -C tools/harnessgen run . -root ../.. -check    # exit 1 if it is stale
//
// What the facts do not hold, the bindings do not have: descriptions (the
// facts carry none) and functions (the program calls none).
package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/blang/semver"
	gogen "github.com/pulumi/pulumi/pkg/v3/codegen/go"
	"github.com/pulumi/pulumi/pkg/v3/codegen/schema"
)

// The generated packages' import path and where they are written, relative
// to the project root.
const (
	importBase = "github.com/company/harness-platform/harness/sdk"
	outDir     = "harness/sdk"
	listFile   = "harness/bindings.txt"
	factsDir   = "../shared/harness-provider"
	tool       = "harnessgen (Pulumi pkg/v3/codegen/go v3.256.0)"
)

func main() {
	root := flag.String("root", ".", "the project's root directory")
	check := flag.Bool("check", false, "compare with the files on disk instead of writing them")
	flag.Parse()
	if err := run(*root, *check); err != nil {
		fmt.Fprintln(os.Stderr, "harnessgen:", err)
		os.Exit(1)
	}
}

func run(root string, check bool) error {
	tokens, err := readList(filepath.Join(root, listFile))
	if err != nil {
		return err
	}
	facts, err := readFacts(filepath.Join(root, factsDir))
	if err != nil {
		return err
	}
	spec, err := packageSpec(facts, tokens)
	if err != nil {
		return err
	}
	pkg, diags, err := schema.BindSpec(spec, noPackages{}, schema.ValidationOptions{})
	if err != nil {
		return err
	}
	if diags.HasErrors() {
		return diags
	}
	files, err := gogen.GeneratePackage(tool, pkg, nil)
	if err != nil {
		return err
	}
	// The generator names files after the last element of the import
	// path ("sdk/..."); they go under outDir.
	want := map[string][]byte{}
	for name, data := range files {
		// (and .gitattributes, which marks them generated, at the top).
		rel, _ := strings.CutPrefix(name, path.Base(importBase)+"/")
		want[filepath.Join(root, outDir, filepath.FromSlash(rel))] = data
	}
	return sync(filepath.Join(root, outDir), want, check)
}

// sync writes want, removing generated files that are no longer generated
// (tests, hand-written by definition, stay); with check it only reports.
func sync(dir string, want map[string][]byte, check bool) error {
	var stale []string
	have := map[string]bool{}
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		if err != nil || d.IsDir() || strings.HasSuffix(path, "_test.go") {
			return err
		}
		have[path] = true
		if _, ok := want[path]; !ok {
			stale = append(stale, path+" (no longer generated)")
			if !check {
				return os.Remove(path)
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	for path, data := range want {
		old, err := os.ReadFile(path)
		if err == nil && bytes.Equal(old, data) {
			continue
		}
		if !have[path] {
			stale = append(stale, path+" (missing)")
		} else {
			stale = append(stale, path+" (differs)")
		}
		if check {
			continue
		}
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(path, data, 0o644); err != nil {
			return err
		}
	}
	if check && len(stale) > 0 {
		sort.Strings(stale)
		return fmt.Errorf("the Harness bindings are not current; run `make bindings`:\n  %s", strings.Join(stale, "\n  "))
	}
	return nil
}

// readList reads the resource tokens the program uses: one per line,
// blank lines and # comments ignored.
func readList(path string) ([]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var tokens []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line, _, _ := strings.Cut(sc.Text(), "#")
		if line = strings.TrimSpace(line); line != "" {
			tokens = append(tokens, line)
		}
	}
	return tokens, sc.Err()
}

// facts is the part of ../shared/harness-provider this tool reads.
type facts struct {
	Version   string                   `json:"version"`
	Provider  resourceFacts            `json:"provider"`
	Resources map[string]resourceFacts `json:"resources"`
	Types     map[string]typeFacts     `json:"types"`
	// constraints.json: which properties the provider computes.
	Computed map[string]map[string]bool
}

type resourceFacts struct {
	Module             string                   `json:"module"`
	Inputs             map[string]propertyFacts `json:"inputs"`
	RequiredInputs     []string                 `json:"requiredInputs"`
	Outputs            map[string]string        `json:"outputs"`
	SecretOutputs      []string                 `json:"secretOutputs"`
	DeprecationMessage string                   `json:"deprecationMessage"`
}

type propertyFacts struct {
	Type       string `json:"type"`
	Required   bool   `json:"required"`
	Secret     bool   `json:"secret"`
	Deprecated bool   `json:"deprecated"`
}

type typeFacts struct {
	GoPackage  string                   `json:"goPackage"`
	Properties map[string]propertyFacts `json:"properties"`
}

func readFacts(dir string) (*facts, error) {
	var f facts
	data, err := os.ReadFile(filepath.Join(dir, "schema.json"))
	if err != nil {
		return nil, fmt.Errorf("%w (harnessgen reads the Harness provider's facts from ../shared beside the project)", err)
	}
	if err := json.Unmarshal(data, &f); err != nil {
		return nil, fmt.Errorf("%s: %w", filepath.Join(dir, "schema.json"), err)
	}
	var constraints struct {
		Resources map[string]struct {
			Properties map[string]struct {
				Computed     bool `json:"computed"`
				ComputedOnly bool `json:"computedOnly"`
				AutoName     bool `json:"autoName"`
			} `json:"properties"`
		} `json:"resources"`
	}
	data, err = os.ReadFile(filepath.Join(dir, "constraints.json"))
	if err != nil {
		return nil, err
	}
	if err := json.Unmarshal(data, &constraints); err != nil {
		return nil, fmt.Errorf("%s: %w", filepath.Join(dir, "constraints.json"), err)
	}
	f.Computed = map[string]map[string]bool{}
	for token, r := range constraints.Resources {
		f.Computed[token] = map[string]bool{}
		for name, p := range r.Properties {
			// A bridged provider's output is always set when Terraform
			// computes it (or names it).
			f.Computed[token][name] = p.Computed || p.ComputedOnly || p.AutoName
		}
	}
	return &f, nil
}

// packageSpec is the Pulumi package schema of the listed resources, in the
// shape the Terraform bridge gives pulumi-harness: tokens
// harness:<module>/<name>:<Name>, types harness:<module>/<Type>:<Type>.
func packageSpec(f *facts, tokens []string) (schema.PackageSpec, error) {
	spec := schema.PackageSpec{
		Name:        "harness",
		DisplayName: "Harness",
		Version:     f.Version,
		Description: "The project's bindings of the Harness provider (pulumi-harness " + f.Version + "), for the resources it uses.",
		Meta:        &schema.MetadataSpec{ModuleFormat: "(.*)(?:/[^/]*)"},
		Resources:   map[string]schema.ResourceSpec{},
		Types:       map[string]schema.ComplexTypeSpec{},
		Language: map[string]schema.RawMessage{
			"go": mustJSON(gogen.GoPackageInfo{
				ImportBasePath:       importBase,
				RootPackageName:      "harness",
				RespectSchemaVersion: true,
				// Only the types the program uses exist; no extra
				// Input types nobody calls.
				GenerateExtraInputTypes: false,
			}),
		},
	}
	var missing []string
	typeQueue := []string{}
	ref := func(typ string) (schema.TypeSpec, error) {
		return typeSpec(typ, f, &typeQueue)
	}
	provider, err := resourceSpec("pulumi:providers:harness", f.Provider, nil, ref)
	if err != nil {
		return spec, err
	}
	spec.Provider = &provider
	for _, token := range tokens {
		r, ok := f.Resources[token]
		if !ok {
			missing = append(missing, token)
			continue
		}
		rs, err := resourceSpec(token, r, f.Computed[token], ref)
		if err != nil {
			return spec, err
		}
		spec.Resources[token] = rs
	}
	if len(missing) > 0 {
		return spec, fmt.Errorf("%s: not resources of the provider: %s", listFile, strings.Join(missing, ", "))
	}
	for len(typeQueue) > 0 {
		name := typeQueue[0]
		typeQueue = typeQueue[1:]
		t := f.Types[name]
		tok := typeToken(name, t)
		if _, done := spec.Types[tok]; done {
			continue
		}
		obj := schema.ComplexTypeSpec{ObjectTypeSpec: schema.ObjectTypeSpec{Type: "object", Properties: map[string]schema.PropertySpec{}}}
		for _, pname := range sortedKeys(t.Properties) {
			p := t.Properties[pname]
			ts, err := ref(p.Type)
			if err != nil {
				return spec, fmt.Errorf("type %s.%s: %w", name, pname, err)
			}
			obj.Properties[pname] = schema.PropertySpec{TypeSpec: ts}
			if p.Required {
				obj.Required = append(obj.Required, pname)
			}
		}
		spec.Types[tok] = obj
	}
	return spec, nil
}

func resourceSpec(token string, r resourceFacts, computed map[string]bool, ref func(string) (schema.TypeSpec, error)) (schema.ResourceSpec, error) {
	rs := schema.ResourceSpec{
		ObjectTypeSpec: schema.ObjectTypeSpec{
			Type:       "object",
			Properties: map[string]schema.PropertySpec{},
		},
		InputProperties:    map[string]schema.PropertySpec{},
		RequiredInputs:     slices.Clone(r.RequiredInputs),
		DeprecationMessage: r.DeprecationMessage,
	}
	for _, name := range sortedKeys(r.Inputs) {
		in := r.Inputs[name]
		ts, err := ref(in.Type)
		if err != nil {
			return rs, fmt.Errorf("%s.%s: %w", token, name, err)
		}
		ps := schema.PropertySpec{TypeSpec: ts, Secret: in.Secret}
		if in.Deprecated {
			ps.DeprecationMessage = "Deprecated by the provider."
		}
		rs.InputProperties[name] = ps
	}
	for _, name := range sortedKeys(r.Outputs) {
		ts, err := ref(r.Outputs[name])
		if err != nil {
			return rs, fmt.Errorf("%s.%s: %w", token, name, err)
		}
		in, isInput := r.Inputs[name]
		ps := schema.PropertySpec{TypeSpec: ts, Secret: slices.Contains(r.SecretOutputs, name) || in.Secret}
		if in.Deprecated {
			ps.DeprecationMessage = "Deprecated by the provider."
		}
		rs.Properties[name] = ps
		if !isInput || in.Required || computed[name] {
			rs.Required = append(rs.Required, name)
		}
	}
	return rs, nil
}

// typeSpec reads the facts' type notation: string, boolean, integer,
// number, any, array<T>, map<T>, object:<TypeName>.
func typeSpec(typ string, f *facts, queue *[]string) (schema.TypeSpec, error) {
	switch {
	case typ == "string" || typ == "boolean" || typ == "integer" || typ == "number":
		return schema.TypeSpec{Type: typ}, nil
	case typ == "any":
		return schema.TypeSpec{Ref: "pulumi.json#/Any"}, nil
	case strings.HasPrefix(typ, "array<") && strings.HasSuffix(typ, ">"):
		items, err := typeSpec(typ[len("array<"):len(typ)-1], f, queue)
		return schema.TypeSpec{Type: "array", Items: &items}, err
	case strings.HasPrefix(typ, "map<") && strings.HasSuffix(typ, ">"):
		elem, err := typeSpec(typ[len("map<"):len(typ)-1], f, queue)
		return schema.TypeSpec{Type: "object", AdditionalProperties: &elem}, err
	case strings.HasPrefix(typ, "object:"):
		name := strings.TrimPrefix(typ, "object:")
		t, ok := f.Types[name]
		if !ok {
			return schema.TypeSpec{}, fmt.Errorf("unknown type %s", name)
		}
		*queue = append(*queue, name)
		return schema.TypeSpec{Type: "object", Ref: "#/types/" + typeToken(name, t)}, nil
	}
	return schema.TypeSpec{}, fmt.Errorf("unknown type notation %q", typ)
}

func typeToken(name string, t typeFacts) string {
	module := t.GoPackage[strings.LastIndex(t.GoPackage, "/")+1:]
	if module == "harness" {
		module = "index"
	}
	return "harness:" + module + "/" + name + ":" + name
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// noPackages is the loader of a schema that references no other package.
type noPackages struct{}

func (noPackages) LoadPackage(pkg string, _ *semver.Version) (*schema.Package, error) {
	return nil, fmt.Errorf("the Harness schema references package %s; harnessgen loads none", pkg)
}

func (l noPackages) LoadPackageV2(_ context.Context, d *schema.PackageDescriptor) (*schema.Package, error) {
	return l.LoadPackage(d.Name, nil)
}

func mustJSON(v any) schema.RawMessage {
	data, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return data
}
