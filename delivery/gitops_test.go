package delivery

import (
	"bytes"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/mod/semver"
	"gopkg.in/yaml.v3"

	"github.com/company/harness-platform/internal/example"
)

// manifest is one Kubernetes object, decoded loosely.
type manifest struct {
	APIVersion string `yaml:"apiVersion"`
	Kind       string `yaml:"kind"`
	Metadata   struct {
		Name        string            `yaml:"name"`
		Namespace   string            `yaml:"namespace"`
		Annotations map[string]string `yaml:"annotations"`
	} `yaml:"metadata"`
	Spec map[string]any    `yaml:"spec"`
	Data map[string]string `yaml:"data"`
	// ClusterRoleBinding fields.
	RoleRef struct {
		Kind, Name string
	} `yaml:"roleRef"`
	Subjects []struct {
		Kind, Name, Namespace string
	} `yaml:"subjects"`
}

func manifests(t *testing.T, path string) []manifest {
	t.Helper()
	data := example.ReadFile(t, path) // the example's values, as the tests name them
	var out []manifest
	dec := yaml.NewDecoder(bytes.NewReader(data))
	for {
		var m manifest
		if err := dec.Decode(&m); errors.Is(err, io.EOF) {
			return out
		} else if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		if m.Kind == "" || m.APIVersion == "" || m.Metadata.Name == "" {
			t.Errorf("%s: an object without apiVersion, kind or name", path)
		}
		out = append(out, m)
	}
}

// The operator's Stacks form the chain (dev on main; staging and
// production pinned to a promoted commit, production's one staging has
// run; each waiting for its upstream), refresh before updates, never
// destroy on removal, fetch the private repository with a token, take
// their credentials from ESC; the service account is bound to
// system:auth-delegator only; the root Application applies the
// Applications, the operator's chart pinned at 2.3.0 or later among
// them, and no environment's Stacks where the operator does not deliver
// (the example's environments: none; platformctl's
// TestGitOpsAppliesOnlyOperatorEnvironments for the Applications of
// those it does). There is no preview Stack: the operator cannot preview
// with the read-only environment (docs/operating.md, The operator path).
func TestGitOps(t *testing.T) {
	type want struct {
		stack, branch, prereq string
		pinned, preview       bool
		wave                  string
	}
	wants := map[string]want{
		"dev":        {"company/harness-platform/dev", "main", "", false, false, "2"},
		"staging":    {"company/harness-platform/staging", "", "harness-platform-dev", true, false, "3"},
		"production": {"company/harness-platform/production", "", "harness-platform-staging", true, false, "4"},
	}
	commits := map[string]string{}
	for dir, w := range wants {
		ms := manifests(t, filepath.Join("../deploy/argocd/stacks", dir, "stack.yaml"))
		if len(ms) != 1 || ms[0].Kind != "Stack" || ms[0].APIVersion != "pulumi.com/v1" {
			t.Fatalf("%s: %v", dir, ms)
		}
		s := ms[0].Spec
		preview, _ := s["preview"].(bool)
		branch, _ := s["branch"].(string)
		commit, _ := s["commit"].(string)
		commits[dir] = commit
		if s["stack"] != w.stack || branch != w.branch || (commit != "") != w.pinned || preview != w.preview || s["refresh"] != true ||
			s["destroyOnFinalize"] != false || s["serviceAccountName"] != serviceAccount(dir) || ms[0].Metadata.Annotations["argocd.argoproj.io/sync-wave"] != w.wave {
			t.Errorf("%s: spec %v, annotations %v", dir, s, ms[0].Metadata.Annotations)
		}
		if envs, _ := s["environment"].([]any); len(envs) == 0 {
			t.Errorf("%s: no ESC environment", dir)
		}
		auth, _ := s["gitAuth"].(map[string]any)
		token, _ := auth["accessToken"].(map[string]any)
		if secret, _ := token["secret"].(map[string]any); token["type"] != "Secret" || secret["name"] == nil || secret["key"] == nil {
			t.Errorf("%s: gitAuth %v: the private repository needs an access token from a Secret", dir, auth)
		}
		prereqs, _ := s["prerequisites"].([]any)
		switch {
		case w.prereq == "" && len(prereqs) != 0, w.prereq != "" && len(prereqs) != 1:
			t.Errorf("%s: prerequisites %v, want %q", dir, prereqs, w.prereq)
		case w.prereq != "":
			p := prereqs[0].(map[string]any)
			req, _ := p["requirement"].(map[string]any)
			if p["name"] != w.prereq || req["succeededWithinDuration"] == nil {
				t.Errorf("%s: prerequisite %v", dir, p)
			}
		}
	}
	// Staging runs a commit of main; production one staging was pinned to.
	if out, err := exec.Command("git", "merge-base", "--is-ancestor", commits["staging"], "HEAD").CombinedOutput(); err != nil {
		t.Errorf("staging's commit %s is not on this branch's history (a full clone is needed): %v %s", commits["staging"], err, out)
	}
	history, err := exec.Command("git", "log", "-p", "--format=", "--", "../deploy/argocd/stacks/staging/stack.yaml").Output()
	if err != nil {
		t.Fatalf("reading staging's promotions from git: %v", err)
	}
	if !strings.Contains(string(history), "+  commit: "+commits["production"]+"\n") && commits["production"] != commits["staging"] {
		t.Errorf("production's commit %s is none staging has been pinned to: promote to staging first", commits["production"])
	}
	for _, m := range manifests(t, "../deploy/argocd/rbac.yaml") {
		if m.Kind == "ClusterRoleBinding" || m.Kind == "RoleBinding" {
			if m.RoleRef.Name != "system:auth-delegator" || len(m.Subjects) != 1 || m.Subjects[0].Name != "harness-platform" {
				t.Errorf("binding %s grants %s to %v: only system:auth-delegator", m.Metadata.Name, m.RoleRef.Name, m.Subjects)
			}
		}
		if m.Kind == "ClusterRole" || m.Kind == "Role" {
			t.Errorf("rbac.yaml defines role %s: the program needs none in this cluster", m.Metadata.Name)
		}
	}
	apps := map[string]manifest{}
	for _, m := range manifests(t, "../deploy/argocd/applications.yaml") {
		apps[m.Metadata.Name] = m
	}
	op, ok := apps["pulumi-kubernetes-operator"]
	source, _ := op.Spec["source"].(map[string]any)
	// Argo CD's OCI source (User Guide, "OCI"): the chart's repository
	// by oci://, path "." for a Helm chart, its tag.
	if version, _ := source["targetRevision"].(string); !ok || source["repoURL"] != "oci://ghcr.io/pulumi/helm-charts/pulumi-kubernetes-operator" ||
		source["path"] != "." || semver.Compare("v"+version, "v2.3.0") < 0 {
		t.Errorf("the operator's Application installs %v, want the OCI chart pulumi-kubernetes-operator (path .) at 2.3.0 or later (preview mode, structured config)", source)
	}
	for _, env := range []string{"dev", "staging", "production"} {
		if _, ok := apps["harness-platform-"+env]; ok {
			t.Errorf("an Application syncs %s's Stacks, which the operator does not deliver", env)
		}
	}
	root := manifests(t, "../deploy/argocd/root.yaml")
	if len(root) != 1 || root[0].Kind != "Application" {
		t.Fatal("root.yaml: want the root Application")
	}
	source, _ = root[0].Spec["source"].(map[string]any)
	directory, _ := source["directory"].(map[string]any)
	if source["path"] != "deploy/argocd" || directory["include"] != "applications.yaml" {
		t.Errorf("the root Application syncs %v, want deploy/argocd/applications.yaml", source)
	}
	cm := manifests(t, "../deploy/argocd/argocd-cm.yaml")
	if len(cm) != 1 || !strings.Contains(cm[0].Data["resource.customizations.health.pulumi.com_Stack"], `c.type == "Ready"`) {
		t.Error("argocd-cm has no health check for pulumi.com Stacks")
	}
}

// workspaceImages are the Pulumi images known to carry the kubeconfigs'
// credential plugin (the AWS CLI v2), by repository: pulumi/pulumi-docker-
// containers' docker/pulumi/Dockerfile installs it (`./aws/install`) and
// is the only image built with a nonroot variant; pulumi/pulumi-go has
// neither.
var workspaceImages = map[string]bool{"pulumi/pulumi": true}

// Every operator Stack's workspace can run `aws eks get-token` (the
// image carries the AWS CLI) at the pinned CLI's version, as a nonroot
// user; none previews.
func TestOperatorWorkspaces(t *testing.T) {
	cli, err := os.ReadFile("../engine/cli.go")
	if err != nil {
		t.Fatal(err)
	}
	_, rest, _ := strings.Cut(string(cli), `CLIVersion = "`)
	version, _, _ := strings.Cut(rest, `"`)
	files, _ := filepath.Glob("../deploy/argocd/stacks/*/*.yaml")
	if len(files) < 3 {
		t.Fatalf("only %d Stack manifests", len(files))
	}
	for _, f := range files {
		for _, m := range manifests(t, f) {
			tmpl, _ := m.Spec["workspaceTemplate"].(map[string]any)
			spec, _ := tmpl["spec"].(map[string]any)
			image, _ := spec["image"].(string)
			repo, tag, _ := strings.Cut(image, ":")
			if !workspaceImages[repo] || tag != version+"-nonroot" {
				t.Errorf("%s: workspace image %q: want one of %v at %s-nonroot (the AWS CLI for the kubeconfigs, the pinned CLI)", f, image, workspaceImages, version)
			}
			if preview, _ := m.Spec["preview"].(bool); preview {
				t.Errorf("%s: a preview Stack (the operator appends its environment to the stack's own: it would open the deployer's)", f)
			}
		}
	}
}

// serviceAccount is the operator's workspace service account: the
// deployers' Stacks share one.
func serviceAccount(string) string { return "harness-platform" }
