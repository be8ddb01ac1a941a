package preflight

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

func TestManifestProblem(t *testing.T) {
	const image = "registry.company.io/payments/payment-service"
	deployment := func(containers string) string {
		return "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: payment-service\nspec:\n  template:\n    spec:\n      containers:\n" + containers
	}
	for _, c := range []struct {
		name, manifest, want string
	}{
		{"the Values file's image", deployment("        - name: app\n          image: {{.Values.image}}\n"), ""},
		{"trimmed and quoted", deployment("        - name: app\n          image: {{- .Values.image | quote }}\n"), ""},
		{"a sidecar of its own", deployment("        - name: app\n          image: {{ .Values.image }}\n        - name: proxy\n          image: envoyproxy/envoy:v1.31.0\n"), ""},
		{"a tag of its own", deployment("        - name: app\n          image: registry.company.io/payments/payment-service:1.4.2\n"), "names the service's image itself (image: registry.company.io/payments/payment-service:1.4.2)"},
		{"quoted, by digest", deployment("        - name: app\n          image: \"registry.company.io/payments/payment-service@sha256:0f\"\n"), "names the service's image itself"},
		{"both", deployment("        - image: {{.Values.image}}\n        - image: registry.company.io/payments/payment-service:latest\n"), "names the service's image itself"},
		{"no image from the values", deployment("        - name: app\n          image: busybox\n"), "does not take its image from the Values file"},
		{"another service's repository is not this one's", deployment("        - image: {{.Values.image}}\n        - image: registry.company.io/payments/payment-service-migrations:2\n"), ""},
	} {
		got := manifestProblem([]byte(c.manifest), image)
		if c.want == "" && got != "" || c.want != "" && !strings.Contains(got, c.want) {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}

// untar keeps the files of the archive, by their path within the
// repository, as GitHub's tarball lays them out.
func TestUntar(t *testing.T) {
	buf := tarball(t, []tarEntry{
		{"company-platform-next-0f1e2d3/", "", tar.TypeDir},
		{"company-platform-next-0f1e2d3/generated/a/dev/euw1/manifests.yaml", "image: {{.Values.image}}\n", tar.TypeReg},
		{"company-platform-next-0f1e2d3/README.md", "readme", tar.TypeReg},
	})
	got, err := untar(bytes.NewReader(buf), func(p string) bool { return strings.HasPrefix(p, "generated/") })
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || string(got["generated/a/dev/euw1/manifests.yaml"]) != "image: {{.Values.image}}\n" {
		t.Errorf("untar kept %q", got)
	}
}

// Live reads the config repository with one API call: the archive link
// (GitHub answers 302 to codeload), then the download, which it keeps to
// the files asked for.
func TestLiveGitHubFiles(t *testing.T) {
	archive := tarball(t, []tarEntry{
		{"company-platform-next-0f1e2d3/generated/a/dev/euw1/manifests.yaml", "image: {{.Values.image}}\n", tar.TypeReg},
		{"company-platform-next-0f1e2d3/other.txt", "other", tar.TypeReg},
	})
	var api []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/repos/company/platform-next/tarball/main":
			api = append(api, r.Method+" "+r.URL.Path+" "+r.Header.Get("Authorization"))
			http.Redirect(w, r, "http://"+r.Host+"/codeload/company/platform-next/legacy.tar.gz/refs/heads/main?token=short-lived", http.StatusFound)
		case "/codeload/company/platform-next/legacy.tar.gz/refs/heads/main":
			w.Write(archive)
		default:
			api = append(api, r.Method+" "+r.URL.Path)
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	t.Setenv("GITHUB_API_URL", srv.URL)
	t.Setenv("GITHUB_TOKEN", "ghs_reader")
	files, err := Live{}.GitHubFiles(context.Background(), "company", "platform-next", "main", func(p string) bool { return strings.HasPrefix(p, "generated/") })
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != 1 || string(files["generated/a/dev/euw1/manifests.yaml"]) != "image: {{.Values.image}}\n" {
		t.Errorf("files %q", files)
	}
	if len(api) != 1 || api[0] != "GET /repos/company/platform-next/tarball/main Bearer ghs_reader" {
		t.Errorf("API calls %q, want the archive link alone, with the token", api)
	}
}

// tarEntry is a file or directory of a test archive.
type tarEntry struct {
	name, body string
	typ        byte
}

// tarball is a tar.gz archive of entries, in order, as GitHub's tarball
// endpoint serves a repository.
func tarball(t *testing.T, entries []tarEntry) []byte {
	t.Helper()
	var buf bytes.Buffer
	gz := gzip.NewWriter(&buf)
	tw := tar.NewWriter(gz)
	for _, e := range entries {
		if err := tw.WriteHeader(&tar.Header{Name: e.name, Typeflag: e.typ, Size: int64(len(e.body)), Mode: 0o644}); err != nil {
			t.Fatal(err)
		}
		if _, err := tw.Write([]byte(e.body)); err != nil {
			t.Fatal(err)
		}
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := gz.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}
