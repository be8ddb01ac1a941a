// Package components holds the Pulumi component resources that turn the
// catalog into Harness resources: Foundation (owned by the stack with no
// upstream), EnvironmentSlice (one per stack) and ServiceDeployment (one per
// catalog service enabled in the stack). Each has typed args, parents its
// children to itself and registers its outputs.
package components

import (
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"

	"github.com/company/harness-platform/internal/pipeline"
)

// Type tokens of the components.
const (
	FoundationType        = "harness-platform:index:Foundation"
	EnvironmentSliceType  = "harness-platform:index:EnvironmentSlice"
	ServiceDeploymentType = "harness-platform:index:ServiceDeployment"
)

// ProjectRefs locate the Harness project every stack deploys into. In the
// foundation stack they come from the Foundation; downstream from the
// upstream stack's outputs.
type ProjectRefs struct {
	OrgID     pulumi.StringOutput
	ProjectID pulumi.StringOutput
}

// resolved waits for both identifiers.
func (r ProjectRefs) resolved() pulumi.Output {
	return pulumi.All(r.OrgID, r.ProjectID).ApplyT(func(v []any) pipeline.Refs {
		return pipeline.Refs{OrgID: v[0].(string), ProjectID: v[1].(string)}
	})
}

func tagList(tags map[string]string) pulumi.StringArray {
	return pulumi.ToStringArray(pipeline.TagList(tags))
}
