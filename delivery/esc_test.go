package delivery

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/pulumi/esc"
	"github.com/pulumi/esc/eval"
	"github.com/pulumi/esc/schema"
	"github.com/pulumi/pulumi/sdk/v3/go/common/diag"
	"github.com/pulumi/pulumi/sdk/v3/go/common/diag/colors"
	"github.com/pulumi/pulumi/sdk/v3/go/common/workspace"

	"github.com/company/harness-platform/internal/catalogtest"
)

// The ESC environments as ESC itself reads them: parsed, checked and
// evaluated by the ESC module (github.com/pulumi/esc, the evaluator the
// ESC service and CLI run), with the providers they open standing in
// with the shapes ESC documents: aws-login's OIDC inputs and its secret
// credentials, aws-secrets' inputs and its secret values
// (https://www.pulumi.com/docs/esc/integrations/dynamic-login-credentials/aws-login/,
// .../dynamic-secrets/aws-secrets/). Every credential an environment
// hands out (environment variables, Pulumi config) must come out
// secret, and none may be written in the file.
func TestESCEvaluates(t *testing.T) {
	files, _ := filepath.Glob("../esc/*.yaml")
	if len(files) == 0 {
		t.Fatal("no ESC environment in ../esc")
	}
	ctx := context.Background()
	execContext, err := esc.NewExecContext(map[string]esc.Value{})
	if err != nil {
		t.Fatal(err)
	}
	for _, file := range files {
		name := escName(file)
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		decl, diags, err := eval.LoadYAMLBytes(file, data)
		if err != nil {
			t.Fatal(err)
		}
		if diags.HasErrors() {
			t.Errorf("%s: ESC refuses it: %v", file, diags)
			continue
		}
		if _, diags := eval.CheckEnvironment(ctx, name, decl, nil, standInProviders{}, escFiles{}, execContext, false); diags.HasErrors() {
			t.Errorf("%s: ESC's check refuses it: %v", file, diags)
			continue
		}
		env, diags := eval.EvalEnvironment(ctx, name, decl, nil, standInProviders{}, escFiles{}, execContext)
		if diags.HasErrors() {
			t.Errorf("%s: ESC cannot open it: %v", file, diags)
			continue
		}
		for _, top := range []string{"environmentVariables", "pulumiConfig"} {
			v, ok := env.Properties[top]
			if !ok {
				continue
			}
			for key, value := range v.Value.(map[string]esc.Value) {
				if credential(key) && !value.Secret {
					t.Errorf("%s: %s.%s comes out in plain text; take it from a secret (aws-login, aws-secrets)", file, top, key)
				}
			}
		}
		if strings.Contains(string(data), "AKIA") || strings.Contains(string(data), "ghp_") {
			t.Errorf("%s holds a key", file)
		}
		if !strings.Contains(string(data), "fn::open::aws-login:") || !strings.Contains(string(data), "oidc:") {
			t.Errorf("%s: AWS is not reached by OIDC login", file)
		}
	}
}

// credential reports whether an environment variable or config key names
// a credential.
func credential(key string) bool {
	k := strings.ToLower(key)
	for _, w := range []string{"token", "password", "apikey", "api_key", "secret", "access_key"} {
		if strings.Contains(k, w) {
			return true
		}
	}
	return false
}

// escProject is the ESC project of the environments in esc/.
const escProject = "harness-platform"

// escName is the environment a file defines: esc/harness-platform-dev.yaml
// is harness-platform/dev, esc/harness-platform-dev-preview.yaml
// harness-platform/dev-preview.
func escName(file string) string {
	return escProject + "/" + strings.TrimPrefix(strings.TrimSuffix(filepath.Base(file), ".yaml"), escProject+"-")
}

// escFiles serves the environments an environment imports from esc/.
type escFiles struct{}

func (escFiles) LoadEnvironment(_ context.Context, name string) ([]byte, eval.Decrypter, error) {
	data, err := os.ReadFile(filepath.Join("..", "esc", strings.Replace(name, "/", "-", 1)+".yaml"))
	if err != nil {
		return nil, nil, fmt.Errorf("environment %q is not in esc/: %w", name, err)
	}
	return data, nil, nil
}

// standInProviders are aws-login and aws-secrets with their documented
// inputs and outputs; they answer stand-in values, secret as the real
// ones are.
type standInProviders struct{}

func (standInProviders) LoadProvider(_ context.Context, name string) (esc.Provider, error) {
	switch name {
	case "aws-login":
		return awsLogin{}, nil
	case "aws-secrets":
		return awsSecrets{}, nil
	}
	return nil, fmt.Errorf("unknown provider %q", name)
}

func (standInProviders) LoadRotator(_ context.Context, name string) (esc.Rotator, error) {
	return nil, fmt.Errorf("unknown rotator %q", name)
}

type awsLogin struct{}

func (awsLogin) Schema() (*schema.Schema, *schema.Schema) {
	oidc := schema.Object().Properties(schema.BuilderMap{
		"roleArn":     schema.String(),
		"sessionName": schema.String(),
		"duration":    schema.String(),
		"policyArns":  schema.Array().Items(schema.String()),
	}).Required("roleArn", "sessionName")
	inputs := schema.Object().Properties(schema.BuilderMap{"oidc": oidc}).Required("oidc").Schema()
	credential := schema.String().Schema()
	credential.Secret = true
	outputs := schema.Object().Properties(schema.SchemaMap{
		"accessKeyId": credential, "secretAccessKey": credential, "sessionToken": credential,
	}).Schema()
	return inputs, outputs
}

func (awsLogin) Open(_ context.Context, _ map[string]esc.Value, _ esc.EnvExecContext) (esc.Value, error) {
	return esc.NewValue(map[string]esc.Value{
		"accessKeyId":     esc.NewSecret("ASIA-STAND-IN"),
		"secretAccessKey": esc.NewSecret("stand-in"),
		"sessionToken":    esc.NewSecret("stand-in"),
	}), nil
}

type awsSecrets struct{}

func (awsSecrets) Schema() (*schema.Schema, *schema.Schema) {
	get := schema.Record(schema.BuilderMap{}).AdditionalProperties(schema.Object().Properties(schema.BuilderMap{
		"secretId":     schema.String(),
		"versionId":    schema.String(),
		"versionStage": schema.String(),
	}).Required("secretId"))
	inputs := schema.Object().Properties(schema.BuilderMap{
		"region": schema.String(),
		"login":  schema.Always(),
		"get":    get,
	}).Required("region", "login", "get").Schema()
	return inputs, schema.Always()
}

func (awsSecrets) Open(_ context.Context, inputs map[string]esc.Value, _ esc.EnvExecContext) (esc.Value, error) {
	get, _ := inputs["get"].Value.(map[string]esc.Value)
	names := make([]string, 0, len(get))
	for k := range get {
		names = append(names, k)
	}
	sort.Strings(names)
	out := map[string]esc.Value{}
	for _, k := range names {
		// Named by the secret it stands for, so tests can tell which
		// secret a credential comes from.
		id, _ := get[k].Value.(map[string]esc.Value)["secretId"].Value.(string)
		out[k] = esc.NewSecret("stand-in value of " + id)
	}
	return esc.NewValue(out), nil
}

// Every stack file imports its ESC environment, which esc/ defines, so
// the CLI run by hand or by CI reads the same values; pull requests'
// previews replace it with the environment's read-only one (the
// workflows open the same environments: TestWorkflowContract).
func TestStackFilesImportTheirESCEnvironment(t *testing.T) {
	c := catalogtest.Example(t, "..")
	_, preview := load(t, "preview.yml")
	// The stack files as the Pulumi CLI loads them (its own loader and
	// schema, sdk/go/common/workspace), and as the catalog reads them.
	project, err := workspace.LoadProject("../Pulumi.yaml")
	if err != nil {
		t.Fatal(err)
	}
	sink := diag.DefaultSink(io.Discard, io.Discard, diag.FormatOptions{Color: colors.Never})
	for _, env := range c.Chain {
		want := "harness-platform/" + env
		ps, err := workspace.LoadProjectStack(sink, project, "../Pulumi."+env+".yaml")
		if err != nil {
			t.Fatalf("Pulumi.%s.yaml as the Pulumi CLI loads it: %v", env, err)
		}
		if imports := ps.Environment.Imports(); !slices.Contains(imports, want) || len(ps.EnvironmentBytes()) == 0 {
			t.Errorf("Pulumi.%s.yaml imports %v for the Pulumi CLI, want %s", env, imports, want)
		}
		if !slices.Contains(c.Stacks[env].Imports, want) {
			t.Errorf("Pulumi.%s.yaml imports %v, want %s", env, c.Stacks[env].Imports, want)
		}
		for _, file := range []string{"../esc/harness-platform-" + env + ".yaml", "../esc/harness-platform-" + env + "-preview.yaml"} {
			if _, err := os.Stat(file); err != nil {
				t.Errorf("stack %s: %v", env, err)
			}
		}
	}
	if !strings.Contains(preview, `--override-env "harness-platform/$env=harness-platform/$env-preview"`) {
		t.Error("pull requests' previews read the deployer's ESC environment the stack file imports")
	}
}

// What runs on changes no one has approved yet (a pull request's preview)
// and what only reads (the drift check) open the <env>-preview
// environments: their Harness key and GitHub token are the read-only
// ones of harness-platform/ci-preview, never harness-platform/ci's,
// which write.
func TestPreviewEnvironmentsAreReadOnly(t *testing.T) {
	ctx := context.Background()
	execContext, err := esc.NewExecContext(map[string]esc.Value{})
	if err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob("../esc/*-preview.yaml")
	if len(files) < 4 {
		t.Fatalf("preview environments: %v", files)
	}
	want := map[string]string{
		"HARNESS_PLATFORM_API_KEY": "stand-in value of harness-platform/ci/harness-viewer-api-key",
		"GITHUB_TOKEN":             "stand-in value of harness-platform/ci/github-read-token",
	}
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		decl, _, err := eval.LoadYAMLBytes(file, data)
		if err != nil {
			t.Fatal(err)
		}
		env, diags := eval.EvalEnvironment(ctx, escName(file), decl, nil, standInProviders{}, escFiles{}, execContext)
		if diags.HasErrors() {
			t.Fatalf("%s: %v", file, diags)
		}
		vars := env.Properties["environmentVariables"].Value.(map[string]esc.Value)
		for k, v := range want {
			if got := vars[k].Value; got != v {
				t.Errorf("%s: %s is %v, want the read-only %q", file, k, got, v)
			}
		}
	}
}
