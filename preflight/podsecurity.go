package preflight

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"regexp"
	"sync"

	"gopkg.in/yaml.v3"
	corev1 "k8s.io/api/core/v1"
	psapi "k8s.io/pod-security-admission/api"
	"k8s.io/pod-security-admission/policy"
)

// Pod Security. A service's namespace enforces its archetype's Pod
// Security level, pinned to its cluster's version
// (plan.PodSecurityLabels). The API server accepts a Deployment whose pod
// template that level refuses, with a warning, and then refuses its pods:
// the ReplicaSet reports FailedCreate and Harness waits out the steady
// state check into a rollback. So preflight evaluates every manifest's
// pod templates with Kubernetes' own checks (k8s.io/pod-security-admission
// policy.DefaultChecks, what the admission plugin runs) and refuses in
// the API server's words (`violates PodSecurity "restricted:v1.34": ...`).

var (
	evaluatorOnce sync.Once
	evaluator     policy.Evaluator
	evaluatorErr  error
)

func podSecurityEvaluator() (policy.Evaluator, error) {
	evaluatorOnce.Do(func() { evaluator, evaluatorErr = policy.NewEvaluator(policy.DefaultChecks()) })
	return evaluator, evaluatorErr
}

// templateAction is a Go template action; a manifest is a template Harness
// renders with the service's Values file before it applies it.
var templateAction = regexp.MustCompile(`\{\{[^}]*\}\}`)

// PodSecurityRefusals are the pod templates of a manifest's objects
// (ManifestObjects) that level (at version) refuses, one line each: the
// workload, its kind and the checks' reasons and fixes, as the API server
// says them.
func PodSecurityRefusals(docs []map[string]any, level, version string) ([]string, error) {
	lvl, err := psapi.ParseLevel(level)
	if err != nil || lvl == psapi.LevelPrivileged {
		return nil, err
	}
	ver, err := psapi.ParseVersion(version)
	if err != nil {
		return nil, err
	}
	eval, err := podSecurityEvaluator()
	if err != nil {
		return nil, err
	}
	var out []string
	for _, doc := range docs {
		kind, _ := doc["kind"].(string)
		tmpl := podTemplate(kind, doc)
		if tmpl == nil {
			continue
		}
		raw, err := json.Marshal(tmpl)
		if err != nil {
			return out, err
		}
		var pod corev1.PodTemplateSpec
		if err := json.Unmarshal(raw, &pod); err != nil {
			return out, fmt.Errorf("%s: its pod template: %w", kind, err)
		}
		res := policy.AggregateCheckResults(eval.EvaluatePod(psapi.LevelVersion{Level: lvl, Version: ver}, &pod.ObjectMeta, &pod.Spec))
		if !res.Allowed {
			meta, _ := doc["metadata"].(map[string]any)
			out = append(out, fmt.Sprintf("%s %v would violate PodSecurity %q: %s", kind, meta["name"], psapi.LevelVersion{Level: lvl, Version: ver}.String(), res.ForbiddenDetail()))
		}
	}
	return out, nil
}

// ManifestObjects are the objects of manifest content, its template
// actions rendered as a string first: what they produce is a value (the
// image), never a security setting or a volume.
func ManifestObjects(content []byte) ([]map[string]any, error) {
	dec := yaml.NewDecoder(bytes.NewReader(templateAction.ReplaceAll(content, []byte("rendered"))))
	var out []map[string]any
	for {
		var doc map[string]any
		if err := dec.Decode(&doc); errors.Is(err, io.EOF) {
			return out, nil
		} else if err != nil {
			return out, fmt.Errorf("not YAML once rendered: %w", err)
		}
		if doc != nil {
			out = append(out, doc)
		}
	}
}

// VolumeClaims are the persistent volumes a manifest's objects
// (ManifestObjects) ask for, one
// line each: a PersistentVolumeClaim, a StatefulSet's volumeClaimTemplates,
// a pod's generic ephemeral volume or claim. On an EKS cluster a claim
// is provisioned by the Amazon EBS CSI driver, which this platform does
// not install (EKS: "The Amazon EBS CSI driver ... is required" for
// dynamic provisioning since Kubernetes 1.23, the in-tree plugin being
// migrated to it), so such a claim stays Pending and its pods with it.
func VolumeClaims(docs []map[string]any) []string {
	var out []string
	for _, doc := range docs {
		kind, _ := doc["kind"].(string)
		meta, _ := doc["metadata"].(map[string]any)
		name := fmt.Sprint(meta["name"])
		if kind == "PersistentVolumeClaim" {
			out = append(out, "PersistentVolumeClaim "+name)
			continue
		}
		spec, _ := doc["spec"].(map[string]any)
		if tmpls, _ := spec["volumeClaimTemplates"].([]any); kind == "StatefulSet" && len(tmpls) > 0 {
			out = append(out, fmt.Sprintf("StatefulSet %s: %d volumeClaimTemplates", name, len(tmpls)))
		}
		tmpl, _ := podTemplate(kind, doc).(map[string]any)
		podSpec, _ := tmpl["spec"].(map[string]any)
		vols, _ := podSpec["volumes"].([]any)
		for _, v := range vols {
			vol, _ := v.(map[string]any)
			if _, ok := vol["persistentVolumeClaim"]; ok {
				out = append(out, fmt.Sprintf("%s %s: volume %v (persistentVolumeClaim)", kind, name, vol["name"]))
			}
			if e, _ := vol["ephemeral"].(map[string]any); e != nil {
				out = append(out, fmt.Sprintf("%s %s: volume %v (ephemeral volumeClaimTemplate)", kind, name, vol["name"]))
			}
		}
	}
	return out
}

// podTemplate is the pod template of a workload of kind (the pod itself
// for a Pod), as decoded; nil for any other kind.
func podTemplate(kind string, doc map[string]any) any {
	get := func(m any, keys ...string) any {
		for _, k := range keys {
			mm, ok := m.(map[string]any)
			if !ok {
				return nil
			}
			m = mm[k]
		}
		return m
	}
	switch kind {
	case "Pod":
		return map[string]any{"metadata": doc["metadata"], "spec": doc["spec"]}
	case "Deployment", "StatefulSet", "DaemonSet", "ReplicaSet", "Job":
		return get(doc, "spec", "template")
	case "CronJob":
		return get(doc, "spec", "jobTemplate", "spec", "template")
	}
	return nil
}
