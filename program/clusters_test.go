package program

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"

	"github.com/company/harness-platform/calendar"
	"github.com/company/harness-platform/catalog"
	"github.com/company/harness-platform/components"
	"github.com/company/harness-platform/internal/catalogtest"
	"github.com/company/harness-platform/internal/mocktest"
	"github.com/company/harness-platform/plan"
)

const (
	tAWSProvider        = "pulumi:providers:aws"
	tK8sProvider        = "pulumi:providers:kubernetes"
	tVpc                = "aws:ec2/vpc:Vpc"
	tSubnet             = "aws:ec2/subnet:Subnet"
	tNat                = "aws:ec2/natGateway:NatGateway"
	tLogGroup           = "aws:cloudwatch/logGroup:LogGroup"
	tEKS                = "aws:eks/cluster:Cluster"
	tNodeGroup          = "aws:eks/nodeGroup:NodeGroup"
	tKMS                = "aws:kms/key:Key"
	tOIDC               = "aws:iam/openIdConnectProvider:OpenIdConnectProvider"
	tAccessEntry        = "aws:eks/accessEntry:AccessEntry"
	tAccessPol          = "aws:eks/accessPolicyAssociation:AccessPolicyAssociation"
	tRole               = "aws:iam/role:Role"
	tAttach             = "aws:iam/rolePolicyAttachment:RolePolicyAttachment"
	tToken              = "harness:platform/delegatetoken:Delegatetoken"
	tAWSConn            = "harness:platform/awsConnector:AwsConnector"
	tNamespace          = "kubernetes:core/v1:Namespace"
	tK8sSecret          = "kubernetes:core/v1:Secret"
	tExternalSecret     = "kubernetes:external-secrets.io/v1:ExternalSecret"
	tDelegateToken      = "harness:platform/delegatetoken:Delegatetoken"
	tSecretStore        = "kubernetes:external-secrets.io/v1:SecretStore"
	tClusterRole        = "kubernetes:rbac.authorization.k8s.io/v1:ClusterRole"
	tClusterRoleBinding = "kubernetes:rbac.authorization.k8s.io/v1:ClusterRoleBinding"
	tRelease            = "kubernetes:helm.sh/v3:Release"
	tRoleBinding        = "kubernetes:rbac.authorization.k8s.io/v1:RoleBinding"
)

// value walks a dotted path of a resource's inputs, through secrets.
func value(r mocktest.Registered, path string) resource.PropertyValue {
	v := resource.NewObjectProperty(r.Inputs)
	for _, k := range strings.Split(path, ".") {
		for v.IsSecret() {
			v = v.SecretValue().Element
		}
		if !v.IsObject() {
			return resource.PropertyValue{}
		}
		v = v.ObjectValue()[resource.PropertyKey(k)]
	}
	for v.IsSecret() {
		v = v.SecretValue().Element
	}
	return v
}

func propertyStrings(v resource.PropertyValue) []string {
	var out []string
	if v.IsArray() {
		for _, e := range v.ArrayValue() {
			out = append(out, e.StringValue())
		}
	}
	return out
}

// Each stack declares, per region, a cluster in its own network through an
// explicit AWS provider and a pinned delegate in it.
func TestClustersAndDelegates(t *testing.T) {
	c := example(t)
	for _, stack := range c.Chain {
		st := c.Stacks[stack]
		regions := len(st.Regions)
		rec := mustRun(t, c, stack)
		nats := 2 // one per zone
		if st.Cluster.NATGateways == catalog.NATSingle {
			nats = 1
		}
		counts := map[string]int{
			tAWSProvider: regions, tVpc: regions, tSubnet: 4 * regions, tNat: nats * regions, tEKS: regions, tLogGroup: regions,
			// Access entries: the platform team, the deployer, the preview
			// role; access policies for the first two (the preview role's
			// reads are its group's ClusterRole).
			tNodeGroup: regions, tKMS: regions, tOIDC: regions, tAccessEntry: 3 * regions, tAccessPol: 2 * regions,
			// The preview group's role, and the delegate's deployer role.
			tClusterRole: 2 * regions, tClusterRoleBinding: regions,
			// The delegate, the External Secrets Operator and the Cluster
			// Autoscaler; the token is the credentials stack's, its Secret
			// made by the operator.
			tToken: 0, tK8sSecret: 0, tRelease: 3 * regions, tAWSConn: regions,
			tExternalSecret: regions, tSecretStore: regions,
			// The platform stack's, and each service stack's for its
			// namespaces.
			tK8sProvider: regions * len(c.StacksOf(stack)),
		}
		for typ, want := range counts {
			if got := len(rec.OfType(typ)); got != want {
				t.Errorf("%s: %d %s, want %d", stack, got, typ, want)
			}
		}
		// Every AWS resource goes through the stack's explicit provider,
		// which assumes no role (the run already is the deployer or the
		// preview role) and refuses credentials of any other account.
		for _, p := range rec.OfType(tAWSProvider) {
			if _, ok := p.Inputs["assumeRole"]; ok {
				t.Errorf("%s: AWS provider %s assumes a role: the deployer would have to trust itself", stack, p.Name)
			}
			if got := propertyStrings(value(p, "allowedAccountIds")); len(got) != 1 || got[0] != st.AWS.Account() {
				t.Errorf("%s: AWS provider %s allows accounts %v, want [%s]", stack, p.Name, got, st.AWS.Account())
			}
		}
		for _, r := range rec.Resources() {
			if strings.HasPrefix(r.Type, "aws:") && !strings.Contains(r.Provider, tAWSProvider+"::") {
				t.Errorf("%s: %s %s uses provider %q, not the stack's explicit one", stack, r.Type, r.Name, r.Provider)
			}
			if strings.HasPrefix(r.Type, "kubernetes:") && !strings.Contains(r.Provider, tK8sProvider+"::") {
				t.Errorf("%s: %s %s is not declared in its cluster", stack, r.Type, r.Name)
			}
		}
		for i, r := range st.Regions {
			vpc := rec.OfType(tVpc)[i]
			if got := str(vpc, "cidrBlock"); got != r.NetworkCIDR {
				t.Errorf("%s: VPC %s has %s, want the region's %s", stack, vpc.Name, got, r.NetworkCIDR)
			}
		}
		for _, s := range rec.OfType(tSubnet) {
			tags := value(s, "tags").ObjectValue()
			cluster := strings.TrimSuffix(strings.TrimSuffix(strings.TrimSuffix(s.Name, "-a"), "-b"), "-private")
			cluster = strings.TrimSuffix(cluster, "-public")
			if tags[resource.PropertyKey("kubernetes.io/cluster/"+cluster)].StringValue() != "shared" {
				t.Errorf("%s: subnet %s lacks the EKS cluster tag: %v", stack, s.Name, tags)
			}
			role := "kubernetes.io/role/internal-elb"
			if strings.Contains(s.Name, "-public-") {
				role = "kubernetes.io/role/elb"
			}
			if _, ok := tags[resource.PropertyKey(role)]; !ok {
				t.Errorf("%s: subnet %s lacks %s", stack, s.Name, role)
			}
		}
		for _, e := range rec.OfType(tEKS) {
			if got := propertyStrings(value(e, "encryptionConfig.resources")); !slices.Equal(got, []string{"secrets"}) {
				t.Errorf("%s: %s encrypts %v, want [secrets]", stack, e.Name, got)
			}
			if value(e, "encryptionConfig.provider.keyArn").StringValue() == "" {
				t.Errorf("%s: %s has no KMS key", stack, e.Name)
			}
			// Private for the nodes; public only to the stack's CI
			// runners (harness-platform:runner).
			runner := c.Stacks[stack].Runner
			if !value(e, "vpcConfig.endpointPrivateAccess").BoolValue() || !value(e, "vpcConfig.endpointPublicAccess").BoolValue() ||
				!slices.Equal(propertyStrings(value(e, "vpcConfig.publicAccessCidrs")), runner.EgressCidrs) {
				t.Errorf("%s: %s endpoint access: private %v public %v from %v, want private, and public from the runners' %v only", stack, e.Name,
					value(e, "vpcConfig.endpointPrivateAccess"), value(e, "vpcConfig.endpointPublicAccess"), value(e, "vpcConfig.publicAccessCidrs"), runner.EgressCidrs)
			}
			if got := len(value(e, "vpcConfig.subnetIds").ArrayValue()); got != 2 {
				t.Errorf("%s: %s runs in %d subnets, want the 2 private ones", stack, e.Name, got)
			}
			if got := propertyStrings(value(e, "enabledClusterLogTypes")); !slices.Contains(got, "audit") || !slices.Contains(got, "authenticator") || len(got) != 5 {
				t.Errorf("%s: %s logs %v, want every control-plane log", stack, e.Name, got)
			}
			if value(e, "accessConfig.bootstrapClusterCreatorAdminPermissions").BoolValue() || value(e, "accessConfig.authenticationMode").StringValue() != "API" {
				t.Errorf("%s: %s gives its creator implicit admin", stack, e.Name)
			}
			if got := str(e, "version"); got != st.Cluster.KubernetesVersion {
				t.Errorf("%s: %s runs Kubernetes %q, want %q", stack, e.Name, got, st.Cluster.KubernetesVersion)
			}
			// The control-plane logs go to a log group with a retention,
			// declared before the cluster (EKS would make one, kept forever).
			want := "/aws/eks/" + str(e, "name") + "/cluster"
			i := slices.IndexFunc(rec.OfType(tLogGroup), func(l mocktest.Registered) bool { return str(l, "name") == want })
			if i < 0 {
				t.Errorf("%s: no log group %s", stack, want)
			} else if l := rec.OfType(tLogGroup)[i]; value(l, "retentionInDays").NumberValue() != float64(st.Cluster.LogRetentionDays) || !slices.Contains(e.Dependencies, l.URN(stack)) {
				t.Errorf("%s: log group %s keeps logs %v days (want %d), or the cluster does not wait for it (%v)", stack, want, value(l, "retentionInDays"), st.Cluster.LogRetentionDays, e.Dependencies)
			}
			// Explicit: EKS's default (EXTENDED) would bill extended
			// support without the stack file saying so.
			if got := value(e, "upgradePolicy.supportType").StringValue(); got != "STANDARD" {
				t.Errorf("%s: %s upgradePolicy %q, want STANDARD", stack, e.Name, got)
			}
		}
		policies := map[string]string{
			st.Cluster.AdminRoleArn: "AmazonEKSClusterAdminPolicy",
			st.AWS.RoleArn:          "AmazonEKSClusterAdminPolicy",
		}
		for _, a := range rec.OfType(tAccessPol) {
			if want, ok := policies[str(a, "principalArn")]; !ok || !strings.HasSuffix(str(a, "policyArn"), "/"+want) {
				t.Errorf("%s: access policy %s: %s for %s", stack, a.Name, str(a, "policyArn"), str(a, "principalArn"))
			}
		}
		// The preview role reads through its group, whose ClusterRole
		// reads no Secret.
		for _, a := range rec.OfType(tAccessEntry) {
			groups := propertyStrings(value(a, "kubernetesGroups"))
			if str(a, "principalArn") == st.AWS.PreviewRoleArn && !slices.Equal(groups, []string{plan.PreviewGroup}) {
				t.Errorf("%s: the preview role's access entry %s has groups %v, want [%s]", stack, a.Name, groups, plan.PreviewGroup)
			}
		}
		for _, r := range rec.OfType(tClusterRole) {
			if value(r, "metadata.name").StringValue() != plan.PreviewGroup {
				continue
			}
			for _, rule := range value(r, "rules").ArrayValue() {
				if slices.Contains(propertyStrings(rule.ObjectValue()["resources"]), "secrets") || slices.Contains(propertyStrings(rule.ObjectValue()["resources"]), "*") {
					t.Errorf("%s: ClusterRole %s reads Secrets: %v", stack, r.Name, rule)
				}
			}
		}
		autoscalers := 0
		for _, r := range rec.OfType(tRelease) {
			if str(r, "chart") != calendar.ClusterAutoscalerChart {
				continue
			}
			autoscalers++
			if got, want := value(r, "values.image.tag").StringValue(), calendar.ClusterAutoscalerImages[st.Cluster.KubernetesVersion]; got != want {
				t.Errorf("%s: %s runs cluster-autoscaler %s, want %s (the cluster's minor)", stack, r.Name, got, want)
			}
			if str(r, "version") != calendar.ClusterAutoscalerChartVersion || str(r, "namespace") != "kube-system" {
				t.Errorf("%s: %s: chart %s in %s", stack, r.Name, str(r, "version"), str(r, "namespace"))
			}
		}
		if autoscalers != regions {
			t.Errorf("%s: %d Cluster Autoscalers, want one per cluster (%d)", stack, autoscalers, regions)
		}
		for _, p := range rec.OfType(tK8sProvider) {
			if d := value(p, "helmReleaseSettings.driver"); !d.IsString() || d.StringValue() != plan.HelmDriver {
				t.Errorf("%s: Kubernetes provider %s keeps Helm releases with driver %v, want %s (readable without Secrets)", stack, p.Name, d, plan.HelmDriver)
			}
		}
		for _, n := range rec.OfType(tNodeGroup) {
			// The autoscaler sets the desired size: an up leaves it.
			if !slices.Equal(n.IgnoreChanges, []string{"scalingConfig.desiredSize"}) {
				t.Errorf("%s: node group %s ignores changes to %v, want scalingConfig.desiredSize", stack, n.Name, n.IgnoreChanges)
			}
			if got := str(n, "version"); got != st.Cluster.KubernetesVersion {
				t.Errorf("%s: node group %s at Kubernetes %q, want its cluster's %q", stack, n.Name, got, st.Cluster.KubernetesVersion)
			}
			// The AMI is explicit: Amazon Linux 2023 (m6i: x86).
			if got := str(n, "amiType"); got != "AL2023_x86_64_STANDARD" {
				t.Errorf("%s: node group %s AMI type %q, want AL2023_x86_64_STANDARD", stack, n.Name, got)
			}
			ng := st.Cluster.NodeGroup
			if value(n, "scalingConfig.minSize").NumberValue() != float64(ng.MinSize) || value(n, "scalingConfig.maxSize").NumberValue() != float64(ng.MaxSize) ||
				!slices.Equal(propertyStrings(value(n, "instanceTypes")), []string{ng.InstanceType}) {
				t.Errorf("%s: node group %s: %v", stack, n.Name, n.Inputs)
			}
		}
		for _, k := range rec.OfType(tKMS) {
			if !value(k, "enableKeyRotation").BoolValue() {
				t.Errorf("%s: key %s does not rotate", stack, k.Name)
			}
		}
		checkDelegates(t, c, stack, rec)
	}
}

func checkDelegates(t *testing.T, c *catalog.Catalog, stack string, rec *mocktest.Recorder) {
	t.Helper()
	st := c.Stacks[stack]
	// No token in this stack: the delegates' Secrets come from Secrets
	// Manager, by the ExternalSecrets the stack declares (names only).
	if n := len(rec.OfType(tK8sSecret)); n > 0 {
		t.Errorf("%s: %d Kubernetes Secrets declared; the token reaches the cluster from Secrets Manager", stack, n)
	}
	if n := len(rec.OfType(tDelegateToken)); n > 0 {
		t.Errorf("%s: %d delegate tokens declared; they belong to %s", stack, n, catalog.CredentialsStackName(stack))
	}
	secrets := map[string]string{} // Secret: Secrets Manager secret
	for _, es := range rec.OfType(tExternalSecret) {
		if es.Inputs.ContainsSecrets() {
			t.Errorf("%s: ExternalSecret %s holds a secret", stack, es.Name)
		}
		secrets[value(es, "spec.target.name").StringValue()] = value(es, "spec.data").ArrayValue()[0].ObjectValue()["remoteRef"].ObjectValue()["key"].StringValue()
	}
	p, err := plan.Build(c, stack)
	if err != nil {
		t.Fatal(err)
	}
	var releases []mocktest.Registered
	for _, r := range rec.OfType(tRelease) {
		if str(r, "chart") == components.DelegateChart {
			releases = append(releases, r)
		}
	}
	if len(releases) != len(st.Regions) {
		t.Errorf("%s: %d delegate releases for %d regions", stack, len(releases), len(st.Regions))
	}
	for _, rel := range releases {
		// Registered concurrently: matched to its region by name.
		i := slices.IndexFunc(st.Regions, func(r catalog.StackRegion) bool {
			return strings.HasSuffix(rel.Name, "-"+r.Name)
		})
		if i < 0 {
			t.Errorf("%s: release %s names no region of the stack", stack, rel.Name)
			continue
		}
		region := st.Regions[i]
		name := "harness-delegate-" + st.Environment.Name + "-" + region.Name
		vals := value(rel, "values").ObjectValue()
		get := func(k string) resource.PropertyValue { return vals[resource.PropertyKey(k)] }
		if str(rel, "chart") != "harness-delegate-ng" || str(rel, "version") != st.Delegate.ChartVersion || value(rel, "repositoryOpts.repo").StringValue() != st.Delegate.ChartRepository {
			t.Errorf("%s: release %s: chart %s %s from %s", stack, rel.Name, str(rel, "chart"), str(rel, "version"), value(rel, "repositoryOpts.repo"))
		}
		if got := value(rel, "timeout").NumberValue(); got < 600 {
			t.Errorf("%s: %s waits %v s for a delegate image of about 1 GB on fresh nodes", stack, rel.Name, got)
		}
		if up := get("upgrader").ObjectValue()["enabled"]; !up.IsBool() || up.BoolValue() {
			t.Errorf("%s: %s: the upgrader is not off (%v)", stack, rel.Name, up)
		}
		if get("delegateDockerImage").StringValue() != st.Delegate.Image {
			t.Errorf("%s: %s runs %v, want the pinned %s", stack, rel.Name, get("delegateDockerImage"), st.Delegate.Image)
		}
		token := p.Clusters[slices.IndexFunc(p.Clusters, func(cl plan.Cluster) bool { return cl.Region == region.Name })].Delegate
		if key := secrets[get("existingDelegateToken").StringValue()]; key == "" || key != token.TokenSecret.Name {
			t.Errorf("%s: %s: existingDelegateToken %v is made from %q, want %s", stack, rel.Name, get("existingDelegateToken"), key, token.TokenSecret.Name)
		}
		// A rotated token restarts the pods: their template names it.
		var h resource.PropertyValue
		if a := get("annotations"); a.IsObject() {
			h = a.ObjectValue()[components.TokenAnnotation]
		}
		if !h.IsString() || h.StringValue() != token.Token {
			t.Errorf("%s: %s: pod annotation %s is %v, want the token's name %s", stack, rel.Name, components.TokenAnnotation, h, token.Token)
		}
		if _, inline := vals["delegateToken"]; inline {
			t.Errorf("%s: %s passes the token as a chart value", stack, rel.Name)
		}
		if get("delegateName").StringValue() != name || get("k8sPermissionsType").StringValue() != "CLUSTER_VIEWER" ||
			get("tags").StringValue() != st.Environment.Name+","+region.Name+",network-"+region.NetworkCIDR ||
			get("accountId").StringValue() != mocktest.TestAccount {
			t.Errorf("%s: %s values: %v", stack, rel.Name, vals)
		}
		if arn := get("serviceAccount").ObjectValue()["annotations"].ObjectValue()["eks.amazonaws.com/role-arn"]; arn.StringValue() == "" {
			t.Errorf("%s: %s has no IRSA role", stack, rel.Name)
		}
	}
	// The IRSA role trusts exactly the delegate's service account, and may
	// only pull images.
	irsa := 0
	for _, role := range rec.OfType(tRole) {
		if !strings.HasSuffix(role.Name, "-irsa") {
			continue
		}
		irsa++
		sa := "system:serviceaccount:harness-delegate-ng:" + strings.TrimSuffix(role.Name, "-irsa")
		var policy map[string]any
		if err := json.Unmarshal([]byte(str(role, "assumeRolePolicy")), &policy); err != nil || !strings.Contains(str(role, "assumeRolePolicy"), `:sub":"`+sa+`"`) {
			t.Errorf("%s: %s trusts %s (%v)", stack, role.Name, str(role, "assumeRolePolicy"), err)
		}
	}
	if irsa != len(st.Regions) {
		t.Errorf("%s: %d IRSA roles, want %d", stack, irsa, len(st.Regions))
	}
	for _, a := range rec.OfType(tAttach) {
		if strings.Contains(a.Name, "-irsa-") && !strings.HasSuffix(str(a, "policyArn"), "/AmazonEC2ContainerRegistryReadOnly") {
			t.Errorf("%s: the delegate's role gets %s", stack, str(a, "policyArn"))
		}
	}
	// The AWS connector takes the delegate's IRSA role; the Kubernetes
	// connector its service account.
	for _, conn := range append(rec.OfType(tAWSConn), rec.OfType(tK8s)...) {
		path := "inheritFromDelegate.delegateSelectors"
		if conn.Type == tAWSConn {
			path = "irsa.delegateSelectors"
		}
		sel := propertyStrings(value(conn, path))
		if len(sel) != 1 || !strings.HasPrefix(sel[0], "harness-delegate-"+st.Environment.Name+"-") {
			t.Errorf("%s: %s selects %v", stack, conn.Name, sel)
		}
	}
	// The delegate writes only where deployments go: a RoleBinding per
	// deployment namespace.
	want := 0
	for _, name := range stacksOf(c, stack) {
		p, err := plan.Build(c, name)
		if err != nil {
			t.Fatal(err)
		}
		for _, cl := range p.Clusters {
			if !p.IsPlatform() {
				want += len(cl.Delegate.Namespaces)
			} else if cl.Delegate.ScanNamespace != "" {
				want++ // Production's image scan (plan.ImageScanNamespace)
			}
		}
	}
	if got := len(rec.OfType(tRoleBinding)); got != want || want == 0 {
		t.Errorf("%s: %d role bindings, want one per deployment namespace (%d)", stack, got, want)
	}
	// Each binding is created after its namespace and deleted before it.
	namespaces := map[string][]mocktest.Registered{} // by name: one per cluster
	for _, ns := range rec.OfType(tNamespace) {
		n := value(ns, "metadata.name").StringValue()
		namespaces[n] = append(namespaces[n], ns)
	}
	for _, rb := range rec.OfType(tRoleBinding) {
		// In the stack of the binding: a service stack, or the platform
		// stack for the image scan's namespace.
		dependsOnIt := func(ns mocktest.Registered) bool {
			return slices.ContainsFunc(c.StacksOf(stack), func(s string) bool { return slices.Contains(rb.Dependencies, ns.URN(s)) })
		}
		if !slices.ContainsFunc(namespaces[value(rb, "metadata.namespace").StringValue()], dependsOnIt) {
			t.Errorf("%s: role binding %s does not depend on its namespace %q (%v)", stack, rb.Name, value(rb, "metadata.namespace").StringValue(), rb.Dependencies)
		}
		// The delegate's deployer role, never admin (which writes the
		// namespace's NetworkPolicies).
		if got := value(rb, "roleRef.name").StringValue(); got != plan.DeployerRole {
			t.Errorf("%s: role binding %s grants %s, want %s", stack, rb.Name, got, plan.DeployerRole)
		}
	}
}

// An existing cluster declares no AWS resource; its kubeconfig is a
// secret from config.
func TestExistingCluster(t *testing.T) {
	c := catalogtest.ExampleWithExistingCluster(t, "..")
	const kubeconfig = "apiVersion: v1\nkind: Config\n# existing-cluster-credentials\n"
	cfgs, _ := json.Marshal(map[string]string{"euw2": kubeconfig})
	rec := &mocktest.Recorder{StackOutputs: deployedChain(c)}
	err := mocktest.Run(New(c.Files()), "staging", rec, mocktest.WithConfig(map[string]string{
		"harness:accountId": mocktest.TestAccount, catalog.KubeconfigsKey: string(cfgs),
	}, catalog.KubeconfigsKey))
	if err != nil {
		t.Fatal(err)
	}
	for _, res := range rec.Resources() {
		if strings.HasPrefix(res.Type, "aws:") && strings.Contains(res.Name, "euw2") || res.Type == tAWSProvider && strings.Contains(res.Name, "euw2") {
			t.Errorf("existing cluster: %s %s declared", res.Type, res.Name)
		}
	}
	if got := len(rec.OfType(tEKS)); got != 1 {
		t.Errorf("%d EKS clusters, want 1 (euw1)", got)
	}
	providers := rec.OfType(tK8sProvider)
	if len(providers) != 2 {
		t.Fatalf("%d Kubernetes providers", len(providers))
	}
	for _, p := range providers {
		if !p.Inputs["kubeconfig"].IsSecret() && !p.Inputs["kubeconfig"].ContainsSecrets() {
			t.Errorf("provider %s: kubeconfig not a secret", p.Name)
		}
	}
	if got := len(rec.OfType(tAWSConn)); got != 1 {
		t.Errorf("%d AWS connectors, want 1: an existing cluster has no IRSA", got)
	}
}

// A delegate waits for its cluster's Kubernetes provider, a custom
// resource, and for nothing else of the cluster: an update plan (preview
// --save-plan, up --plan) records each resource's dependencies, and a
// DependsOn naming the Cluster component gave whichever of its children
// the SDK had registered by then, a set that differed between the preview
// and the up.
func TestDelegateWaitsForTheClusterProvider(t *testing.T) {
	c := example(t)
	for _, stack := range c.Chain {
		rec := mustRunOne(t, c, stack)
		providers := map[string]bool{}
		for _, p := range rec.OfType(tK8sProvider) {
			if resource.URN(p.Parent).Type() == components.ClusterType {
				providers[p.URN(stack)] = true
			}
		}
		delegates := rec.OfType(components.DelegateType)
		if len(delegates) == 0 || len(delegates) != len(providers) {
			t.Fatalf("%s: %d delegates for %d cluster providers", stack, len(delegates), len(providers))
		}
		for _, d := range delegates {
			if len(d.Dependencies) != 1 || !providers[d.Dependencies[0]] {
				t.Errorf("%s: delegate %s depends on %v, want its cluster's Kubernetes provider only", stack, d.Name, d.Dependencies)
				continue
			}
			delete(providers, d.Dependencies[0]) // one delegate per cluster
		}
	}
}

// Production's image scan runs in a namespace of its own in each cluster:
// Pod Security baseline, the delegate's admin binding, a NetworkPolicy
// that lets in only the delegate's namespace and lets out DNS and HTTPS;
// no other environment has it, and the scan step group names it.
func TestImageScanNamespace(t *testing.T) {
	c := example(t)
	for _, stack := range c.Chain {
		rec := mustRun(t, c, stack)
		var scan []mocktest.Registered
		for _, ns := range rec.OfType(tNamespace) {
			if value(ns, "metadata.name").StringValue() == plan.ImageScanNamespace {
				scan = append(scan, ns)
			}
		}
		if !c.Stacks[stack].IsProduction() {
			if len(scan) != 0 {
				t.Errorf("%s: %d image scan namespaces outside Production", stack, len(scan))
			}
			continue
		}
		if len(scan) != len(c.Stacks[stack].Regions) {
			t.Fatalf("%s: %d image scan namespaces, want one per cluster", stack, len(scan))
		}
		for _, ns := range scan {
			if got := value(ns, "metadata.labels").ObjectValue()["pod-security.kubernetes.io/enforce"].StringValue(); got != "baseline" {
				t.Errorf("%s: %s enforces %q", stack, ns.Name, got)
			}
		}
		var policies int
		for _, np := range rec.OfType("kubernetes:networking.k8s.io/v1:NetworkPolicy") {
			if value(np, "metadata.namespace").StringValue() != plan.ImageScanNamespace {
				continue
			}
			policies++
			from := fmt.Sprint(value(np, "spec.ingress").Mappable())
			to := fmt.Sprint(value(np, "spec.egress").Mappable())
			if !strings.Contains(from, plan.DelegateNamespace) || strings.Count(from, "namespaceSelector") != 1 || !strings.Contains(to, "port:443") || !strings.Contains(to, "port:53") {
				t.Errorf("%s: scan NetworkPolicy %s: ingress %s egress %s", stack, np.Name, from, to)
			}
		}
		if policies != len(scan) {
			t.Errorf("%s: %d scan NetworkPolicies for %d namespaces", stack, policies, len(scan))
		}
	}
	p, err := plan.Build(c, "production")
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Templates) == 0 {
		t.Fatal("production plans no templates")
	}
	for _, doc := range p.Templates {
		if !strings.Contains(doc.YAML, "namespace: "+plan.ImageScanNamespace) {
			t.Errorf("template %s does not run its scan in %s", doc.Identifier, plan.ImageScanNamespace)
		}
	}
}
