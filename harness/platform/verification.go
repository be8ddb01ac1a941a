package platform

import (
	"reflect"

	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

var prometheusConnectorToken = register("harness:platform/prometheusConnector:PrometheusConnector", PrometheusConnectorArgs{}, func() pulumi.CustomResource { return &PrometheusConnector{} })

// PrometheusConnector is a Harness connector to a Prometheus server, the health source of monitored services.
type PrometheusConnector struct {
	pulumi.CustomResourceState

	DelegateSelectors pulumi.StringArrayOutput `pulumi:"delegateSelectors"`
	Description       pulumi.StringPtrOutput   `pulumi:"description"`
	Identifier        pulumi.StringOutput      `pulumi:"identifier"`
	Name              pulumi.StringPtrOutput   `pulumi:"name"`
	OrgId             pulumi.StringPtrOutput   `pulumi:"orgId"`
	PasswordRef       pulumi.StringPtrOutput   `pulumi:"passwordRef"`
	ProjectId         pulumi.StringPtrOutput   `pulumi:"projectId"`
	Tags              pulumi.StringArrayOutput `pulumi:"tags"`
	Url               pulumi.StringOutput      `pulumi:"url"`
	UserName          pulumi.StringPtrOutput   `pulumi:"userName"`
}

type prometheusConnectorArgs struct {
	DelegateSelectors []string `pulumi:"delegateSelectors"`
	Description       *string  `pulumi:"description"`
	Identifier        string   `pulumi:"identifier"`
	Name              *string  `pulumi:"name"`
	OrgId             *string  `pulumi:"orgId"`
	PasswordRef       *string  `pulumi:"passwordRef"`
	ProjectId         *string  `pulumi:"projectId"`
	Tags              []string `pulumi:"tags"`
	Url               string   `pulumi:"url"`
	UserName          *string  `pulumi:"userName"`
}

// PrometheusConnectorArgs are the inputs of a PrometheusConnector.
type PrometheusConnectorArgs struct {
	DelegateSelectors pulumi.StringArrayInput
	Description       pulumi.StringPtrInput
	Identifier        pulumi.StringInput
	Name              pulumi.StringPtrInput
	OrgId             pulumi.StringPtrInput
	PasswordRef       pulumi.StringPtrInput
	ProjectId         pulumi.StringPtrInput
	Tags              pulumi.StringArrayInput
	Url               pulumi.StringInput
	UserName          pulumi.StringPtrInput
}

func (PrometheusConnectorArgs) ElementType() reflect.Type {
	return reflect.TypeOf((*prometheusConnectorArgs)(nil)).Elem()
}

// NewPrometheusConnector registers a PrometheusConnector.
func NewPrometheusConnector(ctx *pulumi.Context, name string, args *PrometheusConnectorArgs, opts ...pulumi.ResourceOption) (*PrometheusConnector, error) {
	if args == nil {
		return nil, errMissingArgs
	}
	if args.Identifier == nil {
		return nil, required("Identifier")
	}
	if args.Url == nil {
		return nil, required("Url")
	}
	var resource PrometheusConnector
	if err := ctx.RegisterResource(prometheusConnectorToken, name, args, &resource, defaultOpts(opts)...); err != nil {
		return nil, err
	}
	return &resource, nil
}

var monitoredServiceToken = register("harness:platform/monitoredService:MonitoredService", MonitoredServiceArgs{}, func() pulumi.CustomResource { return &MonitoredService{} })

// MonitoredService is a Harness service in one environment, watched through its health sources: what a Verify step analyses.
type MonitoredService struct {
	pulumi.CustomResourceState

	Identifier pulumi.StringOutput              `pulumi:"identifier"`
	OrgId      pulumi.StringOutput              `pulumi:"orgId"`
	ProjectId  pulumi.StringOutput              `pulumi:"projectId"`
	Request    MonitoredServiceRequestPtrOutput `pulumi:"request"`
}

type monitoredServiceArgs struct {
	Identifier string                   `pulumi:"identifier"`
	OrgId      string                   `pulumi:"orgId"`
	ProjectId  string                   `pulumi:"projectId"`
	Request    *MonitoredServiceRequest `pulumi:"request"`
}

// MonitoredServiceArgs are the inputs of a MonitoredService.
type MonitoredServiceArgs struct {
	Identifier pulumi.StringInput
	OrgId      pulumi.StringInput
	ProjectId  pulumi.StringInput
	Request    MonitoredServiceRequestPtrInput
}

func (MonitoredServiceArgs) ElementType() reflect.Type {
	return reflect.TypeOf((*monitoredServiceArgs)(nil)).Elem()
}

// NewMonitoredService registers a MonitoredService.
func NewMonitoredService(ctx *pulumi.Context, name string, args *MonitoredServiceArgs, opts ...pulumi.ResourceOption) (*MonitoredService, error) {
	if args == nil {
		return nil, errMissingArgs
	}
	if args.Identifier == nil {
		return nil, required("Identifier")
	}
	if args.OrgId == nil {
		return nil, required("OrgId")
	}
	if args.ProjectId == nil {
		return nil, required("ProjectId")
	}
	var resource MonitoredService
	if err := ctx.RegisterResource(monitoredServiceToken, name, args, &resource, defaultOpts(opts)...); err != nil {
		return nil, err
	}
	return &resource, nil
}
