package plan

import (
	"fmt"

	"github.com/company/harness-platform/catalog"
	"github.com/company/harness-platform/harness/document"
	"github.com/company/harness-platform/ident"
	"github.com/company/harness-platform/policy/rego"
)

// buildEnvironment is the stack's Harness environment, its clusters (with
// their delegates, connectors and infrastructure definitions), its
// Prometheus connector and, in Production, its change-window policy.
func buildEnvironment(p *Plan, c *catalog.Catalog, st *catalog.Stack) error {
	env := st.Environment
	inProject := []Ref{{KindProject, p.Scope.ProjectID}}
	p.Environment = Environment{
		Identifier: env.Identifier, Name: env.Name, Description: env.Description, Type: env.Type,
		// The platform team owns the environments (required-tags).
		Tags:  managedTags(map[string]string{"environment": env.Name, "team": c.PlatformTeam}),
		Needs: inProject,
	}
	namespaces, guardrails := map[string][]string{}, map[string]Guardrail{} // the platform stack declares none
	if !p.IsPlatform() {
		var err error
		if namespaces, guardrails, err = namespacesByRegion(c, st, p.Shard); err != nil {
			return err
		}
	}
	for _, r := range st.Regions {
		region := r.Name
		cl, err := buildCluster(st, r, namespaces[region], guardrails, p.Scope)
		if err != nil {
			return err
		}
		delegate := cl.Delegate.Name
		tags := managedTags(map[string]string{"environment": env.Name, "region": region})
		conn := KubernetesConnector{
			Identifier:        ident.KubernetesConnector(env.Identifier, region),
			Name:              env.Name + "-" + region,
			Description:       "Cluster " + env.Name + "/" + region + " through delegate " + delegate,
			DelegateSelectors: []string{delegate},
			Tags:              tags,
			Needs:             []Ref{{KindProject, p.Scope.ProjectID}, {KindDelegate, delegate}},
		}
		infraID := ident.Infrastructure(env.Identifier, region)
		y, err := document.MarshalString(document.InfrastructureDocument{InfrastructureDefinition: document.Infrastructure{
			Name:              env.Name + "-" + region,
			Identifier:        infraID,
			OrgIdentifier:     p.Scope.OrgID,
			ProjectIdentifier: p.Scope.ProjectID,
			EnvironmentRef:    env.Identifier,
			DeploymentType:    "Kubernetes",
			Type:              "KubernetesDirect",
			Spec: document.InfraSpec{
				ConnectorRef: conn.Identifier,
				Namespace:    ident.NamespaceExpr(region),
				ReleaseName:  "<+service.name>",
			},
		}})
		if err != nil {
			return fmt.Errorf("infrastructure %s: %w", infraID, err)
		}
		cl.Connector = conn
		cl.Infrastructure = Infrastructure{
			Identifier: infraID, Name: env.Name + "-" + region, EnvID: env.Identifier,
			Type: "KubernetesDirect", DeploymentType: "Kubernetes", Tags: tags, YAML: y,
			Needs: []Ref{{KindEnvironment, env.Identifier}, {KindKubernetesConnector, conn.Identifier}},
		}
		p.Clusters = append(p.Clusters, cl)
	}
	p.Prometheus = prometheusConnector(st, p.Scope, managedTags(map[string]string{"environment": env.Name}))
	if w := st.ChangeWindow; w != nil {
		tags := managedTags(map[string]string{"environment": env.Name})
		policyID := ident.ChangeWindowPolicy(env.Identifier)
		p.ChangeWindow = &ChangeWindow{
			Policy: Policy{
				Identifier:  policyID,
				Name:        "Change window " + env.Name,
				Description: "Deployments to " + env.Name + " run only inside the change window",
				Rego:        rego.ChangeWindow(w),
				Tags:        tags,
				Needs:       inProject,
			},
			PolicySet: PolicySet{
				Identifier: ident.ChangeWindowPolicySet(env.Identifier),
				Name:       "Change window " + env.Name,
				Action:     "onstep",
				Type:       "custom",
				Enabled:    true,
				Policies:   []string{policyID},
				Severity:   "error",
				Tags:       tags,
				Needs:      []Ref{{KindPolicy, policyID}},
			},
		}
	}
	return nil
}
