package components

import (
	"github.com/pulumi/pulumi-aws/sdk/v6/go/aws/ec2"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"

	"github.com/company/harness-platform/plan"
)

// declareEndpoints declares the VPC's endpoints (plan.VPCEndpoints): a
// gateway endpoint on the private route tables, or an interface endpoint
// in the private subnets with private DNS (which needs the VPC's DNS
// support and hostnames, both on), behind a security group that lets in
// HTTPS from the VPC: an interface endpoint takes the VPC's default
// security group otherwise, which admits only its own members, and the
// nodes and pods are not (docs.aws.amazon.com/vpc/latest/privatelink/create-interface-endpoint.html,
// "Security groups"; Terraform aws_vpc_endpoint, security_group_ids).
func declareEndpoints(ctx *pulumi.Context, e *plan.EKS, vpc *ec2.Vpc, private, privateRoutes pulumi.StringArray, in []pulumi.ResourceOption) error {
	sg, err := ec2.NewSecurityGroup(ctx, e.Name+"-endpoints", &ec2.SecurityGroupArgs{
		VpcId:       vpc.ID(),
		Description: pulumi.String("HTTPS from the VPC to its interface endpoints"),
		Ingress: ec2.SecurityGroupIngressArray{&ec2.SecurityGroupIngressArgs{
			Description: pulumi.String("HTTPS from the VPC"),
			Protocol:    pulumi.String("tcp"), FromPort: pulumi.Int(443), ToPort: pulumi.Int(443),
			CidrBlocks: pulumi.StringArray{pulumi.String(e.VPC.CIDR)},
		}},
		Tags: pulumi.StringMap{"Name": pulumi.String(e.Name + "-endpoints")},
	}, in...)
	if err != nil {
		return err
	}
	for _, ep := range e.Endpoints {
		args := &ec2.VpcEndpointArgs{
			VpcId:       vpc.ID(),
			ServiceName: pulumi.String("com.amazonaws." + e.AWSRegion + "." + ep.Service),
			Tags:        pulumi.StringMap{"Name": pulumi.String(e.Name + "-" + ep.Service)},
		}
		if ep.Gateway {
			args.VpcEndpointType = pulumi.String("Gateway")
			args.RouteTableIds = privateRoutes
		} else {
			args.VpcEndpointType = pulumi.String("Interface")
			args.PrivateDnsEnabled = pulumi.Bool(true)
			args.SubnetIds = private
			args.SecurityGroupIds = pulumi.StringArray{sg.ID()}
		}
		if _, err := ec2.NewVpcEndpoint(ctx, e.Name+"-"+ep.Service, args, in...); err != nil {
			return err
		}
	}
	return nil
}
