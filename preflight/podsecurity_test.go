package preflight

import (
	"strings"
	"testing"
)

// deployment is a manifest of a Deployment whose container has
// securityContext sc (YAML, indented for the container) and the image
// from the Values file.
func deployment(sc string) []byte {
	return []byte(`apiVersion: apps/v1
kind: Deployment
metadata:
  name: payments
spec:
  selector:
    matchLabels: {app: payments}
  template:
    metadata:
      labels: {app: payments}
    spec:
      containers:
        - name: payments
          image: {{.Values.image}}
          securityContext:
` + sc)
}

const compliant = `            runAsNonRoot: true
            allowPrivilegeEscalation: false
            capabilities: {drop: [ALL]}
            seccompProfile: {type: RuntimeDefault}
`

// Kubernetes' own Pod Security checks refuse a privileged container and
// one that may run as root under restricted, in the admission plugin's
// words, and accept a compliant one; baseline accepts what only
// restricted refuses.
func TestPodSecurityOfManifests(t *testing.T) {
	for _, tc := range []struct {
		name, sc, level string
		want            []string // in the refusal; none: accepted
	}{
		{"compliant", compliant, "restricted", nil},
		{"privileged", compliant + "            privileged: true\n", "restricted",
			[]string{`Deployment payments would violate PodSecurity "restricted:v1.34"`, `privileged (container "payments" must not set securityContext.privileged=true)`}},
		{"privileged under baseline", compliant + "            privileged: true\n", "baseline", []string{`privileged (container "payments" must not set securityContext.privileged=true)`}},
		{"no runAsNonRoot", strings.Replace(compliant, "            runAsNonRoot: true\n", "", 1), "restricted",
			[]string{`runAsNonRoot != true (pod or container "payments" must set securityContext.runAsNonRoot=true)`}},
		{"no runAsNonRoot under baseline", strings.Replace(compliant, "            runAsNonRoot: true\n", "", 1), "baseline", nil},
	} {
		got, err := refusals(deployment(tc.sc), tc.level, "v1.34")
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		switch {
		case tc.want == nil && len(got) > 0:
			t.Errorf("%s: refused: %v", tc.name, got)
		case tc.want != nil && len(got) != 1:
			t.Errorf("%s: %v, want one refusal", tc.name, got)
		case tc.want != nil:
			for _, w := range tc.want {
				if !strings.Contains(got[0], w) {
					t.Errorf("%s: %q does not say %q", tc.name, got[0], w)
				}
			}
		}
	}
}

// Persistent volumes, in each of the forms a manifest asks for them; a
// Deployment with an emptyDir asks for none.
func TestVolumeClaims(t *testing.T) {
	manifest := []byte(`apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: data}
spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}}
---
apiVersion: apps/v1
kind: StatefulSet
metadata: {name: db}
spec:
  template:
    spec:
      containers: [{name: db, image: "{{.Values.image}}"}]
  volumeClaimTemplates:
    - metadata: {name: pgdata}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: api}
spec:
  template:
    spec:
      containers: [{name: api, image: "{{.Values.image}}"}]
      volumes:
        - {name: cache, emptyDir: {}}
        - {name: scratch, ephemeral: {volumeClaimTemplate: {spec: {accessModes: [ReadWriteOnce]}}}}
        - {name: old, persistentVolumeClaim: {claimName: data}}
`)
	objects, err := ManifestObjects(manifest)
	if err != nil {
		t.Fatal(err)
	}
	got := VolumeClaims(objects)
	want := []string{"PersistentVolumeClaim data", "StatefulSet db: 1 volumeClaimTemplates",
		"Deployment api: volume scratch (ephemeral volumeClaimTemplate)", "Deployment api: volume old (persistentVolumeClaim)"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("claims:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if objects, err := ManifestObjects(deployment(compliant)); err != nil || len(VolumeClaims(objects)) > 0 {
		t.Errorf("a Deployment without volumes: %v %v", VolumeClaims(objects), err)
	}
}

// refusals are PodSecurityRefusals of manifest content.
func refusals(content []byte, level, version string) ([]string, error) {
	objects, err := ManifestObjects(content)
	if err != nil {
		return nil, err
	}
	return PodSecurityRefusals(objects, level, version)
}
