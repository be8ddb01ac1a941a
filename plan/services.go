package plan

import (
	"fmt"
	"strings"

	"github.com/company/harness-platform/catalog"
	"github.com/company/harness-platform/harness/document"
	"github.com/company/harness-platform/ident"
)

// buildServices is the Harness service of every catalog
// service that shard holds.
func buildServices(c *catalog.Catalog, f *catalog.Foundation, scope Scope, shard string) ([]Service, error) {
	gh, reg := f.Github, f.Registry
	var services []*catalog.Service
	for i := range c.Services {
		if c.Services[i].Stack == shard {
			services = append(services, &c.Services[i])
		}
	}
	out := make([]Service, len(services))
	err := parallel(len(services), func(i int) error {
		s := services[i]
		tags := serviceTags(s)
		y, err := document.MarshalString(serviceDocument(s, tags, f, scope))
		if err != nil {
			return fmt.Errorf("service %s: %w", s.Name, err)
		}
		out[i] = Service{
			Identifier:  ident.Service(s.Name),
			Name:        s.Name,
			Description: s.Description,
			Tags:        TagList(tags),
			YAML:        y,
			Needs: []Ref{
				{KindProject, scope.ProjectID}, {KindGithubConnector, gh.ConnectorIdentifier},
				{KindDockerConnector, reg.ConnectorIdentifier},
			},
		}
		return nil
	})
	return out, err
}

// serviceDocument is the Harness service of s. Its manifests are the
// generated ones of the environment and region being deployed, rendered
// with the Values file of the environment being deployed (valuesFile); its
// primary artifact is the catalog's image in the
// foundation's registry, tagged with the pipeline's imageTag input. With a
// single source, primaryArtifactRef names it, so no run asks for it.
// https://developer.harness.io/docs/continuous-delivery/deploy-srv-diff-platforms/kubernetes/cd-kubernetes-category/add-artifacts-for-kubernetes-deployments
func serviceDocument(s *catalog.Service, tags map[string]string, f *catalog.Foundation, scope Scope) document.ServiceDocument {
	gh, reg := f.Github, f.Registry
	skipVersioning := false
	return document.ServiceDocument{Service: document.Service{
		Name:              s.Name,
		Identifier:        ident.Service(s.Name),
		OrgIdentifier:     scope.OrgID,
		ProjectIdentifier: scope.ProjectID,
		Description:       s.Description,
		Tags:              tags,
		ServiceDefinition: document.ServiceDefinition{Type: "Kubernetes", Spec: document.ServiceSpec{
			Artifacts: &document.Artifacts{Primary: document.PrimaryArtifact{
				PrimaryArtifactRef: PrimaryArtifact,
				Sources: []document.ArtifactSource{{
					Identifier: PrimaryArtifact,
					Type:       "DockerRegistry",
					Spec: document.DockerArtifact{
						ConnectorRef: reg.ConnectorIdentifier,
						ImagePath:    strings.TrimPrefix(s.Image, reg.Host+"/"),
						Tag:          "<+pipeline.variables." + ImageTagInput + ">",
					},
				}},
			}},
			Manifests: []document.ManifestElement{
				{Manifest: document.Manifest{
					Identifier: "manifests",
					Type:       "K8sManifest",
					Spec: document.ManifestSpec{Store: document.Store{Type: "Github", Spec: document.GitSource{
						ConnectorRef: gh.ConnectorIdentifier,
						GitFetchType: "Branch",
						Branch:       gh.Branch,
						Paths:        []string{ident.ManifestPath(s.Name, "<+env.name>", "<+pipeline.variables."+TargetRegionInput+">") + "/manifests.yaml"},
					}}, SkipResourceVersioning: &skipVersioning},
				}},
				{Manifest: document.Manifest{
					Identifier: "values",
					Type:       "Values",
					Spec:       document.ManifestSpec{Store: document.Store{Type: "Harness", Spec: document.FileStore{Files: []string{"/" + ident.ValuesFileName(s.Name, "<+env.identifier>")}}}},
				}},
			},
			Variables: []document.ServiceVariable{
				{Name: "imageTag", Type: "String", Value: "<+pipeline.variables." + ImageTagInput + ">"},
			},
		}},
	}}
}
