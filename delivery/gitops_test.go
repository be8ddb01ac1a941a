package delivery

import (
	"bytes"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
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
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
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

// The operator's Stacks form the chain (preview of dev on the preview
// branch; dev on main; staging and production pinned to a promoted commit,
// production's one staging has run; each waiting for its upstream),
// refresh before updates, never destroy on removal, take their
// credentials from ESC; the service account is bound to
// system:auth-delegator only; the root Application applies the
// Applications in sync waves, which retry and create their namespace.
func TestGitOps(t *testing.T) {
	type want struct {
		stack, branch, prereq string
		pinned, preview       bool
		wave                  string
	}
	wants := map[string]want{
		"preview":    {"company/harness-platform/dev", "preview", "", false, true, "1"},
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
			if m.RoleRef.Name != "system:auth-delegator" || len(m.Subjects) != 1 || (m.Subjects[0].Name != "harness-platform" && m.Subjects[0].Name != "harness-platform-preview") {
				t.Errorf("binding %s grants %s to %v: only system:auth-delegator", m.Metadata.Name, m.RoleRef.Name, m.Subjects)
			}
		}
		if m.Kind == "ClusterRole" || m.Kind == "Role" {
			t.Errorf("rbac.yaml defines role %s: the program needs none in this cluster", m.Metadata.Name)
		}
	}
	waves := map[string]string{}
	for _, m := range manifests(t, "../deploy/argocd/applications.yaml") {
		if m.Kind != "Application" {
			continue
		}
		name := strings.TrimPrefix(m.Metadata.Name, "harness-platform-")
		waves[name] = m.Metadata.Annotations["argocd.argoproj.io/sync-wave"]
		policy, _ := m.Spec["syncPolicy"].(map[string]any)
		_, automated := policy["automated"].(map[string]any)
		if automated == (name == "production") {
			t.Errorf("application %s: automated sync %v (production is synced by hand)", name, automated)
		}
		options, _ := policy["syncOptions"].([]any)
		retry, _ := policy["retry"].(map[string]any)
		if !slices.Contains(options, any("CreateNamespace=true")) || retry["limit"] == nil {
			t.Errorf("application %s: sync options %v, retry %v: want CreateNamespace=true and a retry", name, options, retry)
		}
	}
	root := manifests(t, "../deploy/argocd/root.yaml")
	if len(root) != 1 || root[0].Kind != "Application" {
		t.Fatal("root.yaml: want the root Application")
	}
	source, _ := root[0].Spec["source"].(map[string]any)
	directory, _ := source["directory"].(map[string]any)
	if source["path"] != "deploy/argocd" || directory["include"] != "applications.yaml" {
		t.Errorf("the root Application syncs %v, want deploy/argocd/applications.yaml", source)
	}
	if got := strings.Join([]string{waves["rbac"], waves["preview"], waves["dev"], waves["staging"], waves["production"]}, ","); got != "0,1,2,3,4" {
		t.Errorf("sync waves rbac, preview, dev, staging, production: %s", got)
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
// user; the preview Stack previews as the read-only preview role.
func TestOperatorWorkspaces(t *testing.T) {
	cli, err := os.ReadFile("../engine/cli.go")
	if err != nil {
		t.Fatal(err)
	}
	_, rest, _ := strings.Cut(string(cli), `CLIVersion = "`)
	version, _, _ := strings.Cut(rest, `"`)
	files, _ := filepath.Glob("../deploy/argocd/stacks/*/*.yaml")
	if len(files) < 7 {
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
			envs, _ := m.Spec["environment"].([]any)
			if preview, _ := m.Spec["preview"].(bool); preview && (len(envs) != 1 || !strings.HasSuffix(envs[0].(string), "-preview")) {
				t.Errorf("%s: a preview Stack runs with ESC %v, not a -preview environment (the read-only role)", f, envs)
			}
		}
	}
}

// serviceAccount is the operator's workspace service account of the Stack
// in dir: the preview Stack, which runs a pull request's code, has its own
// (in a namespace of its own), the deployers' Stacks share one.
func serviceAccount(dir string) string {
	if dir == "preview" {
		return "harness-platform-preview"
	}
	return "harness-platform"
}
