package plan

import (
	"slices"
	"strings"

	"github.com/company/harness-platform/catalog"
	"github.com/company/harness-platform/diag"
	"github.com/company/harness-platform/ident"
)

// The manifests contract (seed 004, sec. 5 and 8): every service
// pipeline's K8sManifest reads
//
//	generated/<service>/<environment name>/<region>/manifests.yaml
//
// from the foundation's config repository (foundation.github: its URL and
// branch, through the cross-org connector), and the service's Values file
// (Harness's file store) puts the image in: a manifest takes it as
// {{.Values.image}}, which Harness renders from image:
// <+artifacts.primary.image> (developer.harness.io, "Add Kubernetes
// manifests": Go templating of manifests with Values files).

// ManifestFile is one manifest a pipeline deploys.
type ManifestFile struct {
	Path                 string
	Service, Env, Region string
	// Image is the service's image repository (no tag): a manifest that
	// names it itself deploys that tag, whatever the run was given.
	Image string
	// PodSecurity is the Pod Security level its namespace enforces (the
	// archetype's), PodSecurityVersion the version the checks are pinned
	// to (v<minor> of an EKS cluster; latest on an existing cluster, whose
	// version the program does not know), as PodSecurityLabels label the
	// namespace.
	PodSecurity, PodSecurityVersion string
	// NoVolumes: its cluster provisions no persistent volume (an EKS
	// cluster: no EBS CSI driver is installed), so a claim stays Pending.
	NoVolumes bool
	// Pos is the service's catalog entry.
	Pos diag.Pos
}

// ManifestsRepo is the config repository and what the catalog deploys
// from it.
type ManifestsRepo struct {
	Owner, Repo, Branch string
	Files               []ManifestFile
}

// Manifests are the manifests stack's environment deploys (every service
// in it, in each of its regions), from the root stack's config
// repository; nil without one.
func Manifests(c *catalog.Catalog, env string) *ManifestsRepo {
	root := c.Stacks[c.Chain[0]].Foundation
	st, ok := c.Stacks[env]
	if root == nil || !ok {
		return nil
	}
	path := strings.TrimSuffix(strings.TrimPrefix(root.Github.URL, "https://github.com/"), ".git")
	owner, repo, ok := strings.Cut(path, "/")
	if !ok {
		return nil
	}
	m := &ManifestsRepo{Owner: owner, Repo: repo, Branch: root.Github.Branch}
	levels := map[string]string{}
	for _, a := range c.Archetypes {
		levels[a.Name] = a.PodSecurity
	}
	versions, eks := map[string]string{}, map[string]bool{}
	for _, r := range st.Regions {
		versions[r.Name] = "latest"
		if r.Kind != catalog.RegionExisting && st.Cluster != nil {
			versions[r.Name] = "v" + st.Cluster.KubernetesVersion
			eks[r.Name] = true
		}
	}
	for i := range c.Services {
		s := &c.Services[i]
		in, ok := s.In[st.Name]
		if !ok {
			continue
		}
		for _, r := range in.Regions {
			m.Files = append(m.Files, ManifestFile{
				Path:    ident.ManifestPath(s.Name, st.Environment.Name, r) + "/manifests.yaml",
				Service: s.Name, Env: st.Environment.Name, Region: r, Image: s.Image, Pos: s.Pos,
				PodSecurity: levels[s.Archetype], PodSecurityVersion: versions[r], NoVolumes: eks[r],
			})
		}
	}
	slices.SortFunc(m.Files, func(a, b ManifestFile) int { return strings.Compare(a.Path, b.Path) })
	return m
}
