package components

import (
	"fmt"

	"github.com/pulumi/pulumi-aws/sdk/v6/go/aws/iam"
	helmv3 "github.com/pulumi/pulumi-kubernetes/sdk/v4/go/kubernetes/helm/v3"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"

	"github.com/company/harness-platform/plan"
)

// declareClusterAutoscaler installs the cluster's Cluster Autoscaler: its
// IRSA role with the policy the autoscaler's AWS guide recommends, scoped
// to the cluster's own Auto Scaling groups, and the pinned chart at the
// cluster's minor version.
func declareClusterAutoscaler(ctx *pulumi.Context, c *Cluster, a *plan.ClusterAutoscaler, aws []pulumi.ResourceOption) error {
	role, err := newIRSARole(ctx, c, a.IRSA, aws)
	if err != nil {
		return err
	}
	if _, err := iam.NewRolePolicy(ctx, a.IRSA.RoleName, &iam.RolePolicyArgs{
		Name:   pulumi.String("cluster-autoscaler"),
		Role:   role.Name,
		Policy: pulumi.String(autoscalerPolicy(a.ClusterName)),
	}, aws...); err != nil {
		return err
	}
	_, err = helmv3.NewRelease(ctx, a.ClusterName+"-"+a.Chart, &helmv3.ReleaseArgs{
		Name:           pulumi.String(a.Chart),
		Namespace:      pulumi.String(a.Namespace),
		Chart:          pulumi.String(a.Chart),
		Version:        pulumi.String(a.ChartVersion),
		RepositoryOpts: &helmv3.RepositoryOptsArgs{Repo: pulumi.String(a.ChartRepository)},
		// The chart's values (charts/cluster-autoscaler/values.yaml):
		// autoDiscovery.clusterName finds the groups tagged for the
		// cluster; awsRegion is where they are; image.tag the release of
		// the cluster's minor version.
		Values: pulumi.Map{
			"cloudProvider": pulumi.String("aws"),
			"awsRegion":     pulumi.String(a.AWSRegion),
			"autoDiscovery": pulumi.Map{"clusterName": pulumi.String(a.ClusterName)},
			"image":         pulumi.Map{"tag": pulumi.String(a.ImageTag)},
			"rbac": pulumi.Map{"serviceAccount": pulumi.Map{
				"create":      pulumi.Bool(true),
				"name":        pulumi.String(plan.ClusterAutoscalerServiceAccount),
				"annotations": pulumi.Map{"eks.amazonaws.com/role-arn": role.Arn},
			}},
		},
	}, pulumi.Parent(c), pulumi.Provider(c.Provider), pulumi.Version(KubernetesVersion))
	return err
}

// autoscalerPolicy is the Cluster Autoscaler's "Full Cluster Autoscaler
// Features Policy" (kubernetes/autoscaler,
// cluster-autoscaler/cloudprovider/aws/README.md, "IAM Policy"): it
// reads every group and instance type, and resizes or terminates in
// only the groups tagged as the cluster's, which EKS tags a managed node
// group's with.
func autoscalerPolicy(cluster string) string {
	return fmt.Sprintf(`{"Version":"2012-10-17","Statement":[`+
		`{"Effect":"Allow","Action":["autoscaling:SetDesiredCapacity","autoscaling:TerminateInstanceInAutoScalingGroup"],"Resource":"*",`+
		`"Condition":{"StringEquals":{"aws:ResourceTag/k8s.io/cluster-autoscaler/%s":"owned"}}},`+
		`{"Effect":"Allow","Action":["autoscaling:DescribeAutoScalingGroups","autoscaling:DescribeAutoScalingInstances",`+
		`"autoscaling:DescribeLaunchConfigurations","autoscaling:DescribeScalingActivities","autoscaling:DescribeTags",`+
		`"ec2:DescribeImages","ec2:DescribeInstanceTypes","ec2:DescribeLaunchTemplateVersions",`+
		`"ec2:GetInstanceTypesFromInstanceRequirements","eks:DescribeNodegroup"],"Resource":"*"}]}`, cluster)
}
