package plan

import (
	"fmt"

	"github.com/company/harness-platform/catalog"
)

// A delegate's token is made by Harness and must reach its cluster, and
// whoever reads a stack decrypts it (Pulumi Cloud, RBAC permission sets:
// Stack Read holds stack:export and stack:decrypt). So the token never
// passes through the platform stack, which previews and the next
// environment's deployer read:
//
//   - the environment's credentials stack (catalog.CredentialsStackName),
//     which only its own deployer team reads, creates the token and puts
//     it in AWS Secrets Manager, in the cluster's account and region
//     (TokenSecret);
//   - the platform stack declares, in the delegate's namespace, an
//     ExternalSecret that the cluster's External Secrets Operator turns
//     into the Kubernetes Secret the chart's existingDelegateToken names
//     (external-secrets.io/v1, ESO 0.16: ExternalSecret spec.data
//     remoteRef.key, spec.target.name; its AWS provider reads Secrets
//     Manager with the controller's IRSA role when the store names no
//     auth). The platform stack holds names only.

// TokenAnnotation is the delegate pods' annotation naming their token: a
// new token is a new pod template, so the delegates restart with it, and
// which token a delegate runs with can be told without the token.
const TokenAnnotation = "harness-platform/delegate-token"

// TokenSecretPrefix begins the name of every delegate token's Secrets
// Manager secret; the operator's IRSA role may read these and no other.
const TokenSecretPrefix = "harness-platform/delegate-tokens/"

// TokenSecretKey is the key the chart's existingDelegateToken Secret must
// hold the token under (harness-delegate-ng, templates/deployment.yaml:
// secretKeyRef key DELEGATE_TOKEN).
const TokenSecretKey = "DELEGATE_TOKEN"

// TokenSecret is where a delegate token waits for its cluster.
type TokenSecret struct {
	// Name is the Secrets Manager secret's name: TokenSecretPrefix, then
	// the environment and the token's name (a rotation is a new name).
	Name      string
	AWSRegion string
	// Account is the AWS account it lives in: the environment's.
	Account string
	// KubernetesSecret is the Secret ESO writes in the delegate's
	// namespace (existingDelegateToken): the token's name, so that a
	// rotated token is a new Secret and the pods that still run with
	// the old one keep reading it until they are replaced.
	KubernetesSecret string
	// Store is the SecretStore (EKS: declared beside the delegate) or
	// ClusterSecretStore (an existing cluster: its owner's) ESO reads
	// Secrets Manager through.
	Store     string
	StoreKind string
}

// Token secret stores.
const (
	// TokenStore is the SecretStore declared in the delegate's namespace
	// of an EKS cluster.
	TokenStore = "harness-delegate-token"
	// ExistingClusterStore is the ClusterSecretStore an existing
	// cluster's owner provides: ESO reading the environment account's
	// Secrets Manager (docs/delivery.md, Bootstrap).
	ExistingClusterStore = "harness-platform"
)

// ExternalSecretsOperator is the External Secrets Operator an EKS cluster
// runs to bring its delegate's token from Secrets Manager: the chart
// pinned, in its own namespace, its controller's service account given an
// IRSA role that may read the environment's delegate token secrets only.
type ExternalSecretsOperator struct {
	Namespace       string
	ChartRepository string
	Chart           string
	ChartVersion    string
	IRSA            IRSA
	// Secrets is the ARN pattern of the secrets the role may read.
	Secrets string
}

// External Secrets Operator's chart: charts.external-secrets.io, chart
// external-secrets 0.16.2 (serves external-secrets.io/v1, its storage
// version since 0.16.0).
const (
	ESONamespace       = "external-secrets"
	ESOChart           = "external-secrets"
	ESOChartRepository = "https://charts.external-secrets.io"
	ESOChartVersion    = "0.16.2"
	// ESOServiceAccount is the chart's controller service account
	// (serviceAccount.name defaults to the release's full name).
	ESOServiceAccount = "external-secrets"
)

// Credential is one delegate's token as the credentials stack declares
// it.
type Credential struct {
	// Delegate is the delegate it is for.
	Delegate string
	Token    string
	Secret   TokenSecret
}

// Credentials plans the credentials stack of the environment whose
// platform stack is env: one token per cluster.
func Credentials(c *catalog.Catalog, env string) ([]Credential, error) {
	p, err := Build(c, env)
	if err != nil {
		return nil, err
	}
	out := make([]Credential, 0, len(p.Clusters))
	for _, cl := range p.Clusters {
		out = append(out, Credential{Delegate: cl.Delegate.Name, Token: cl.Delegate.Token, Secret: cl.Delegate.TokenSecret})
	}
	return out, nil
}

// TokenSecretOf is ts for another token of the same delegate: where a
// token the delegates still run with waits, in environment envName.
func TokenSecretOf(ts TokenSecret, envName, token string) TokenSecret {
	out := ts
	out.Name = fmt.Sprintf("%s%s/%s", TokenSecretPrefix, envName, token)
	out.KubernetesSecret = token
	return out
}

// tokenSecret is where the token of environment envName waits in
// account, region awsRegion, for an EKS cluster's SecretStore or an
// existing cluster's ClusterSecretStore.
func tokenSecret(envName, token, awsRegion, account string, existing bool) TokenSecret {
	ts := TokenSecret{AWSRegion: awsRegion, Account: account, Store: TokenStore, StoreKind: "SecretStore"}
	if existing {
		ts.Store, ts.StoreKind = ExistingClusterStore, "ClusterSecretStore"
	}
	return TokenSecretOf(ts, envName, token)
}

// externalSecretsOperator is the operator of the EKS cluster of delegate
// name, reading the token secrets of environment envName in account.
func externalSecretsOperator(name, envName, awsRegion, account string) *ExternalSecretsOperator {
	return &ExternalSecretsOperator{
		Namespace:       ESONamespace,
		ChartRepository: ESOChartRepository,
		Chart:           ESOChart,
		ChartVersion:    ESOChartVersion,
		IRSA: IRSA{
			RoleName:       name + "-eso",
			ServiceAccount: ESONamespace + ":" + ESOServiceAccount,
		},
		// Secrets Manager appends six random characters to a secret's
		// ARN ("-AbCdEf"; AWS Secrets Manager User Guide, "Permissions
		// policy examples"): the environment's prefix and "*" take
		// every token's secret, suffix included, and no other.
		Secrets: fmt.Sprintf("arn:aws:secretsmanager:%s:%s:secret:%s%s/*", awsRegion, account, TokenSecretPrefix, envName),
	}
}
