package catalog

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/company/harness-platform/diag"
	"github.com/company/harness-platform/ident"
	"github.com/company/harness-platform/internal/example"
)

// exampleFiles reads the example catalog and stack files.
func exampleFiles(t testing.TB) map[string][]byte {
	t.Helper()
	files := map[string][]byte{}
	names := []string{ServicesFile, TeamsFile, ArchetypesFile, RegionsFile, ProjectFile, AccessFile}
	stacks, _ := filepath.Glob("../Pulumi.*.yaml")
	for _, s := range stacks {
		names = append(names, filepath.Base(s))
	}
	// The example's values, whatever bootstrap wrote: the cases below
	// are written with them.
	for _, name := range names {
		files[name] = example.ReadFile(t, filepath.Join("..", name))
	}
	return files
}

func TestExampleIsValid(t *testing.T) {
	c, err := Parse(exampleFiles(t))
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Services) < 12 || len(c.Teams) < 4 || len(c.Chain) != 3 {
		t.Fatalf("example too small: %d services, %d teams, chain %v", len(c.Services), len(c.Teams), c.Chain)
	}
}

// edit replaces the first occurrence of old in file; the test fails if old
// is not there, so a case can never silently test the valid example.
type edit struct{ file, old, new string }

func TestValidationErrors(t *testing.T) {
	cases := []struct {
		name  string
		edits []edit
		want  []string // every diagnostic, exactly
	}{
		{"yaml syntax", []edit{{ServicesFile, "    team: checkout\n    archetype: api\n    repo: company/checkout\n", "    team: checkout\n    archetype: [api\n    repo: company/checkout\n"}},
			[]string{`catalog/services.yaml:34:5: YAML syntax error: ',' or ']' must be specified; fix the YAML syntax`}},
		// yaml.v3 reported this tab on line 32, the line before it.
		{"a tab in the indentation", []edit{{ServicesFile, "    team: checkout\n    archetype: api\n", "    team: checkout\n\tarchetype: api\n"}},
			[]string{"catalog/services.yaml:33:1: YAML syntax error: found character '\t' that cannot start any token; fix the YAML syntax"}},
		{"a required value given blank", []edit{{ServicesFile, "    repo: company/checkout\n", "    repo: \"\"\n"}, {ServicesFile, "    team: checkout\n", "    team: \" \"\n"}},
			[]string{
				`catalog/services.yaml:32:11: "team" is empty; write a value: Owning team, a name from catalog/teams.yaml`,
				`catalog/services.yaml:34:11: "repo" is empty; write a value: Source repository, owner/name`,
			}},
		{"an unknown delivery path", []edit{{"Pulumi.dev.yaml", "  harness-platform:runner:\n", "  harness-platform:delivery: argocd\n  harness-platform:runner:\n"}},
			[]string{`Pulumi.dev.yaml:87:30: "argocd" is not a valid harness-platform:delivery; use one of: github-actions, harness-ci, operator`}},
		{"an egress that is not a network", []edit{{"catalog/archetypes.yaml", "network: {egress: [10.0.0.0/8]}", "network: {egress: [10.0.0.1/8]}"}},
			[]string{`catalog/archetypes.yaml:25:24: egress "10.0.0.1/8" is not a CIDR; write a network such as 10.0.0.0/8 (its first address, then its prefix length)`}},
		{"the operator delivers, unseen by the clusters", []edit{{"Pulumi.dev.yaml", "  harness-platform:runner:\n", "  harness-platform:delivery: operator\n  harness-platform:runner:\n"}},
			[]string{`Pulumi.dev.yaml:87:30: stack "dev" is delivered by the operator, but nothing says the operator can reach its clusters' API; add harness-platform:runner operatorEgressCidrs: the NAT network the operator's workspace pods reach the clusters from, and cover it in publicAccessCidrs`}},
		{"the operator's network outside the access list", []edit{{"Pulumi.dev.yaml", "  harness-platform:runner:\n", "  harness-platform:delivery: operator\n  harness-platform:runner:\n    operatorEgressCidrs: [203.0.113.0/28]\n"}},
			[]string{`Pulumi.dev.yaml:89:27: the operator's address 203.0.113.0/28 cannot reach the clusters' API: publicAccessCidrs [198.51.100.0/28] does not cover it; add 203.0.113.0/28 to harness-platform:cluster publicAccessCidrs`}},
		{"a key given twice", []edit{{ServicesFile, "    team: checkout\n    archetype: api\n", "    team: checkout\n    archetype: api\n    team: payments\n"}},
			[]string{`catalog/services.yaml:34:5: key "team" is given twice; keep one of them`}},
		{"bad network", []edit{{"Pulumi.production.yaml", "networkCidr: 10.3.0.0/17", "networkCidr: 10.3.0.0/33"}},
			[]string{`Pulumi.production.yaml:12:20: networkCidr "10.3.0.0/33" is not an IPv4 CIDR; write an IPv4 network such as 10.3.0.0/17`}},
		{"no token generation", []edit{{"Pulumi.production.yaml", "networkCidr: 10.3.0.0/17\n", "networkCidr: 10.3.0.0/17\n      delegateTokenGeneration: 0\n"}},
			[]string{`Pulumi.production.yaml:13:32: delegateTokenGeneration 0 is not a generation; write 1 or more (platformctl rotate-delegate-token -s production --region euw1 raises it)`}},
		{"overlapping networks", []edit{{"Pulumi.production.yaml", "networkCidr: 10.3.128.0/17", "networkCidr: 10.2.0.0/16"}},
			[]string{
				`Pulumi.staging.yaml:11:20: networkCidr 10.2.0.0/17 overlaps 10.2.0.0/16 (stack production, region euw2); give each environment and region a network of its own`,
				`Pulumi.staging.yaml:13:20: networkCidr 10.2.128.0/17 overlaps 10.2.0.0/16 (stack production, region euw2); give each environment and region a network of its own`,
			}},
		{"approval without a group", []edit{{"Pulumi.production.yaml", "teamApprovals: 1", "teamApprovals: 0"}},
			[]string{`Pulumi.production.yaml:16:20: approval teamApprovals 0 is too low: the gate would pass without that group; require at least 1`}},
		{"bad freeze date", []edit{{"Pulumi.production.yaml", `"2026-12-31"`, `"2026-12-32"`}},
			[]string{`Pulumi.production.yaml:23:28: freeze date "2026-12-32" is not a date; write a date as YYYY-MM-DD`}},
		{"unknown key", []edit{{ServicesFile, "    repo: company/ledger\n", "    repo: company/ledger\n    replicas: 3\n"}},
			[]string{`catalog/services.yaml:18:5: unknown key "replicas"; did you mean "regions"?`}},
		{"misspelt key", []edit{{ServicesFile, "    tags: {tier: critical}\n  - name: ledger-writer", "    tgas: {tier: critical}\n  - name: ledger-writer"}},
			[]string{`catalog/services.yaml:13:5: unknown key "tgas"; did you mean "tags"?`}},
		{"missing required field", []edit{{ServicesFile, "    team: payments\n    archetype: worker\n", "    archetype: worker\n"}},
			[]string{`catalog/services.yaml:14:5: missing required key "team"; add "team: ..."`}},
		{"duplicate service", []edit{{ServicesFile, "name: basket-service", "name: checkout-api"}},
			[]string{`catalog/services.yaml:39:11: duplicate service name "checkout-api"; remove or rename one of them (the first is at line 31)`}},
		{"name not a kubernetes name", []edit{{ServicesFile, "name: basket-service", "name: Basket_Service"}},
			[]string{`catalog/services.yaml:39:11: service name "Basket_Service" must be lower-case letters, digits and '-', starting and ending with a letter or digit; rename it: the name is also its Kubernetes namespace and release name`}},
		{"reserved word", []edit{{ServicesFile, "name: basket-service", "name: status"}},
			[]string{`catalog/services.yaml:39:11: service "status": identifier "status" is a word Harness reserves; choose a name whose identifier is valid: it starts with a letter, uses letters, digits and '-' or '_', and is not a reserved word`}},
		{"identifier starts with a digit", []edit{{ServicesFile, "name: basket-service", "name: 9-lives"}},
			[]string{`catalog/services.yaml:39:11: service "9-lives": identifier "9_lives" must start with a letter or '_' and contain only letters, digits, '_' or '$'; choose a name whose identifier is valid: it starts with a letter, uses letters, digits and '-' or '_', and is not a reserved word`}},
		{"namespace too long", []edit{{ServicesFile, "name: basket-service", "name: basket-service-with-a-name-far-too-long-for-namespaces-x"}},
			[]string{`catalog/services.yaml:39:11: namespace in "dev": "int-stable-basket-service-with-a-name-far-too-long-for-namespaces-x-euw1" is 72 characters long; Kubernetes names allow at most 63; shorten the service name`,
				`catalog/services.yaml:39:11: namespace in "staging": "pre-stable-basket-service-with-a-name-far-too-long-for-namespaces-x-euw1" is 72 characters long; Kubernetes names allow at most 63; shorten the service name`,
				`catalog/services.yaml:39:11: namespace in "production": "prod-basket-service-with-a-name-far-too-long-for-namespaces-x-euw1" is 66 characters long; Kubernetes names allow at most 63; shorten the service name`}},
		{"teams collide after mapping", []edit{{TeamsFile, "  - name: identity\n", "  - name: data_team\n    userGroup: data_team_x\n    description: x\n    notifications: {slackWebhookSecret: slack_data}\n  - name: data-team\n"}, {ServicesFile, "team: identity", "team: data_team"}, {ServicesFile, "team: identity", "team: data_team"}, {ServicesFile, "team: identity", "team: data_team"}},
			[]string{`catalog/teams.yaml:38:11: team "data-team" maps to Harness identifier "data_team", the same as team "data_team"; rename one of them (the other is at line 34)`}},
		{"unknown team", []edit{{ServicesFile, "team: checkout\n    archetype: worker", "team: chekout\n    archetype: worker"}},
			[]string{`catalog/services.yaml:45:11: unknown team "chekout"; did you mean "checkout"?`}},
		{"unknown platform team", []edit{{TeamsFile, "platformTeam: platform", "platformTeam: platfrom"}},
			[]string{`catalog/teams.yaml:5:15: platform team "platfrom" is not a team; did you mean "platform"?`}},
		{"unknown archetype", []edit{{ServicesFile, "archetype: cron\n    repo: company/promotions", "archetype: batch\n    repo: company/promotions"}},
			[]string{`catalog/services.yaml:52:16: unknown archetype "batch"; use one of: api, cron, worker, or declare it in catalog/archetypes.yaml`}},
		{"unknown region", []edit{{ServicesFile, "regions: [euw1]", "regions: [use1]"}},
			[]string{`catalog/services.yaml:25:15: unknown region "use1"; did you mean "euw1"?`}},
		{"unknown environment", []edit{{ServicesFile, "environments: [dev]", "environments: [qa]"}},
			[]string{`catalog/services.yaml:55:20: unknown environment "qa"; use one of: dev, production, staging, or declare it in Pulumi.qa.yaml`}},
		{"promotion skips staging", []edit{{ServicesFile, "environments: [dev, staging]\n  - name: promo", "environments: [dev, production]\n  - name: promo"}},
			[]string{`catalog/services.yaml:49:25: service "pricing-engine" is enabled in "production" but not in its upstream "staging"; add "staging" to its environments first: services are promoted through the chain`}},
		{"bad enum", []edit{{ServicesFile, "productionStrategy: rolling", "productionStrategy: blue-green"}},
			[]string{`catalog/services.yaml:81:27: "blue-green" is not a valid productionStrategy; use one of: canary, rolling`}},
		{"wrong kind", []edit{{ServicesFile, "environments: [dev]", "environments: dev"}},
			[]string{`catalog/services.yaml:55:19: expected a list for "environments", found "dev"; write it as a list, e.g. [a, b]`}},
		{"image with a tag", []edit{{ServicesFile, "checkout/basket-service\n", "checkout/basket-service:1.2.3\n"}},
			[]string{`catalog/services.yaml:43:12: image "registry.company.io/checkout/basket-service:1.2.3" has a tag; remove the tag: the image tag is a runtime input of the pipeline`}},
		{"stack: unknown region", []edit{{"Pulumi.staging.yaml", "- name: euw2", "- name: euw3"}},
			[]string{`Pulumi.production.yaml:13:7: region "euw2" of Production environment "production" is not a region of its upstream "staging": a Production run deploys its image tag to the same region of "staging" first; add "euw2" to Pulumi.staging.yaml, or remove it here`,
				`Pulumi.staging.yaml:12:13: unknown region "euw3"; did you mean "euw1"?`,
				`catalog/services.yaml:74:15: region "euw2" is not a region of environment "staging"; add "euw2" to Pulumi.staging.yaml, or leave the service's environments without "staging"`}},
		{"production region the upstream lacks", []edit{{"Pulumi.staging.yaml", "    - name: euw2\n      networkCidr: 10.2.128.0/17\n", ""}},
			[]string{`Pulumi.production.yaml:13:7: region "euw2" of Production environment "production" is not a region of its upstream "staging": a Production run deploys its image tag to the same region of "staging" first; add "euw2" to Pulumi.staging.yaml, or remove it here`,
				`catalog/services.yaml:74:15: region "euw2" is not a region of environment "staging"; add "euw2" to Pulumi.staging.yaml, or leave the service's environments without "staging"`}},
		{"stack: missing upstream", []edit{{"Pulumi.production.yaml", "upstream: staging", "upstream: stagign"}},
			[]string{`Pulumi.production.yaml:5:30: upstream stack "stagign" has no stack file; did you mean "staging"?`}},
		{"stack: two stacks claim the foundation", []edit{{"Pulumi.staging.yaml", "  harness-platform:upstream: dev\n", ""}},
			[]string{`Pulumi.staging.yaml:4:3: stack "staging" has no upstream, so it owns the foundation, but has no foundation settings; add harness-platform:foundation (org, project, github), or set harness-platform:upstream`,
				`Pulumi.staging.yaml:4:3: stacks "dev" and "staging" both have no upstream and so both claim the foundation; set harness-platform:upstream in Pulumi.staging.yaml; only Pulumi.dev.yaml owns the foundation`}},
		{"stack: backstageUrl not https", []edit{{"Pulumi.dev.yaml", "backstageUrl: https://backstage.company.io\n", "backstageUrl: http://backstage.company.io\n"}},
			[]string{`Pulumi.dev.yaml:34:19: foundation backstageUrl "http://backstage.company.io" is not the https URL of a Backstage instance; write the https URL Backstage is served at (its app.baseUrl), such as https://backstage.example.org`}},
		{"stack: backstageUrl with a query", []edit{{"Pulumi.dev.yaml", "backstageUrl: https://backstage.company.io\n", "backstageUrl: https://backstage.company.io/?team=payments\n"}},
			[]string{`Pulumi.dev.yaml:34:19: foundation backstageUrl "https://backstage.company.io/?team=payments" is not the https URL of a Backstage instance; write the https URL Backstage is served at (its app.baseUrl), such as https://backstage.example.org`}},
		{"stack: backstageUrl without a host", []edit{{"Pulumi.dev.yaml", "backstageUrl: https://backstage.company.io\n", "backstageUrl: backstage.company.io\n"}},
			[]string{`Pulumi.dev.yaml:34:19: foundation backstageUrl "backstage.company.io" is not the https URL of a Backstage instance; write the https URL Backstage is served at (its app.baseUrl), such as https://backstage.example.org`}},
		// The connectors' credentials are no config of any stack: a leftover
		// key says what replaced it.
		{"stack: a GitHub token left in config", []edit{{"Pulumi.dev.yaml", "config:\n", "config:\n  harness-platform:githubToken:\n    secure: v1:abc\n"}},
			[]string{`Pulumi.dev.yaml:7:3: harness-platform:githubToken is no longer read: no credential is kept in a stack's config; Harness's GitHub connectors authenticate as a GitHub App whose private key is in AWS Secrets Manager: set foundation.github.app (applicationId, installationId, privateKeySecret) and foundation.secretManager, then remove harness-platform:githubToken (pulumi config rm harness-platform:githubToken --stack dev, or its ESC environment's pulumiConfig)`}},
		{"stack: a registry password left in config", []edit{{"Pulumi.dev.yaml", "config:\n", "config:\n  harness-platform:registryPassword: hunter2\n"}},
			[]string{`Pulumi.dev.yaml:7:3: harness-platform:registryPassword is no longer read: no credential is kept in a stack's config; Harness reads the registry password from AWS Secrets Manager: set foundation.registry.passwordSecret and foundation.secretManager, then remove harness-platform:registryPassword (pulumi config rm harness-platform:registryPassword --stack dev, or its ESC environment's pulumiConfig)`}},
		{"stack: a registry user without its password's secret", []edit{{"Pulumi.dev.yaml", "      passwordSecret: harness-platform/harness/registry-password\n", ""}},
			[]string{`Pulumi.dev.yaml:38:17: registry username "harness-bot" has no passwordSecret; name the password's AWS Secrets Manager secret in registry.passwordSecret`}},
		{"stack: a GitHub App id that is no number, a secret name AWS refuses", []edit{{"Pulumi.dev.yaml", `applicationId: "1000003"`, `applicationId: "harness-app"`}, {"Pulumi.dev.yaml", "privateKeySecret: harness-platform/harness/github-app-key", "privateKeySecret: github app key"}},
			[]string{`Pulumi.dev.yaml:29:24: github app applicationId "harness-app" is not a number; write the number GitHub shows, quoted, e.g. "123456"`,
				`Pulumi.dev.yaml:31:27: github app privateKeySecret "github app key" is not a Secrets Manager secret name; use the secret's name in AWS Secrets Manager: letters, digits and /_+=.@-`}},
		{"stack: no secret manager", []edit{{"Pulumi.dev.yaml", "    secretManager:\n      connectorIdentifier: aws_secrets_manager\n      region: eu-west-1\n      roleArn: arn:aws:iam::111111111111:role/harness-secrets-reader\n", ""}},
			[]string{`Pulumi.dev.yaml:17:5: missing required key "secretManager"; add "secretManager: ..."`}},
		{"stack: no queries for an archetype that verifies", []edit{{"Pulumi.production.yaml", "      - archetype: worker\n", "      - archetype: cron\n"}},
			[]string{`Pulumi.production.yaml:27:7: no queries for archetype "worker", which ledger-writer, report-generator verify in stack "production"; add queries for archetype "worker"`}},
		{"stack: query without the namespace", []edit{{"Pulumi.staging.yaml", `latency: histogram_quantile(0.99, sum by (le, pod) (rate(job_duration_seconds_bucket{namespace=~"{{namespace}}"}[1m])))`, `latency: histogram_quantile(0.99, sum by (le, pod) (rate(job_duration_seconds_bucket{ns=~"{{ns}}"}[1m])))`}},
			[]string{`Pulumi.staging.yaml:22:18: latency query of "worker" does not use {{namespace}}: it would measure every service; filter on the service's namespaces, e.g. {namespace=~"{{namespace}}"}`,
				`Pulumi.staging.yaml:22:18: unknown placeholder {{ns}} in the latency query of "worker"; use {{namespace}} or {{service}}`}},
		// Canary analysis compares instances by the pod label: every
		// aggregation keeps it, and the query is PromQL.
		{"stack: queries that sum the instance away", []edit{
			{"Pulumi.staging.yaml", `latency: histogram_quantile(0.99, sum by (le, pod) (rate(job_duration_seconds_bucket`, `latency: histogram_quantile(0.99, sum by (le) (rate(job_duration_seconds_bucket`},
			{"Pulumi.dev.yaml", `errorRate: sum by (pod) (rate(http_requests_total{namespace=~"{{namespace}}",code=~"5.."}[1m]))`, `errorRate: sum(rate(http_requests_total{namespace=~"{{namespace}}",code=~"5.."}[1m]))`},
			{"Pulumi.production.yaml", `errorRate: sum by (pod) (rate(jobs_failed_total{namespace=~"{{namespace}}"}[1m])) / sum by (pod)`, `errorRate: sum by (pod) (rate(jobs_failed_total{namespace=~"{{namespace}}"}[1m])) / on (namespace) sum by (pod, namespace)`}},
			[]string{`Pulumi.dev.yaml:51:20: errorRate query of "api" drops the instance label "pod" at sum(rate(http_requests_total{code=~"5..",namespace=~"{{namespace}}"}[1m])): Harness's canary analysis compares instances by it, and would have nothing to compare; keep "pod" in every aggregation, e.g. sum by (pod) (...), sum by (le, pod) (...)`,
				`Pulumi.production.yaml:31:20: errorRate query of "worker" drops the instance label "pod" at sum by (pod) (rate(jobs_failed_total{namespace=~"{{namespace}}"}[1m])) / on (namespace) sum by (pod, namespace) (rate...: Harness's canary analysis compares instances by it, and would have nothing to compare; keep "pod" in every aggregation, e.g. sum by (pod) (...), sum by (le, pod) (...)`,
				`Pulumi.staging.yaml:22:18: latency query of "worker" drops the instance label "pod" at sum by (le) (rate(job_duration_seconds_bucket{namespace=~"{{namespace}}"}[1m])): Harness's canary analysis compares instances by it, and would have nothing to compare; keep "pod" in every aggregation, e.g. sum by (pod) (...), sum by (le, pod) (...)`}},
		{"stack: a query that is not PromQL", []edit{{"Pulumi.staging.yaml", `latency: histogram_quantile(0.99, sum by (le, pod) (rate(job_duration_seconds_bucket{namespace=~"{{namespace}}"}[1m])))`, `latency: histogram_quantile(0.99, sum by (le, pod) (rate(job_duration_seconds_bucket{namespace=~"{{namespace}}"}[1m]))`}},
			[]string{`Pulumi.staging.yaml:22:18: latency query of "worker" is not PromQL: 1:110: parse error: unclosed left parenthesis; write a PromQL expression (https://prometheus.io/docs/prometheus/latest/querying/basics/)`}},
		{"service: image not a reference, or pinned", []edit{{"catalog/services.yaml", "image: registry.company.io/payments/payment-service", "image: registry.company.io/payments/Payment-Service"},
			{"catalog/services.yaml", "image: registry.company.io/data/export-scheduler", "image: registry.company.io/data/export-scheduler@sha256:0123456789012345678901234567890123456789012345678901234567890123"}},
			[]string{
				`catalog/services.yaml:11:12: image "registry.company.io/payments/Payment-Service" is not an image reference: invalid reference format: repository name (payments/Payment-Service) must be lowercase; write a repository as Docker names it, e.g. registry.example.com/team/service (lower case, no tag)`,
				`catalog/services.yaml:86:12: image "registry.company.io/data/export-scheduler@sha256:0123456789012345678901234567890123456789012345678901234567890123" is pinned to a digest; remove the digest: the image tag is a runtime input of the pipeline`}},
		{"service: image outside the registry", []edit{{"catalog/services.yaml", "image: registry.company.io/payments/payment-service", "image: ghcr.io/company/payment-service"}},
			[]string{`catalog/services.yaml:11:12: image "ghcr.io/company/payment-service" is not in the registry registry.company.io; use an image of registry.company.io, the registry the foundation's connector reads (registry.url)`}},
		{"stack: unknown project key", []edit{{"Pulumi.production.yaml", "  harness-platform:approval:", "  harness-platform:aproval:"}},
			[]string{`Pulumi.production.yaml:15:3: unknown key "harness-platform:aproval"; did you mean "harness-platform:approval"?`}},
		{"stack: bad change window", []edit{{"Pulumi.production.yaml", `start: "10:00"`, `start: "25:00"`}, {"Pulumi.production.yaml", "Thu]", "Thursday]"}},
			[]string{`Pulumi.production.yaml:20:27: "Thursday" is not a weekday; use one of: Mon, Tue, Wed, Thu, Fri, Sat, Sun`,
				`Pulumi.production.yaml:21:12: change window start "25:00" is not a time; write it as HH:MM in UTC, e.g. 10:00`}},
		{"cluster: unquoted kubernetes version", []edit{{"Pulumi.production.yaml", `kubernetesVersion: "1.35"`, `kubernetesVersion: 1.30`}},
			[]string{`Pulumi.production.yaml:45:24: kubernetesVersion 1.30 is not a string (Pulumi config would read it as a number); quote it: kubernetesVersion: "1.30"`}},
		{"cluster: public endpoint open to the internet", []edit{{"Pulumi.production.yaml", "    publicAccessCidrs: [198.51.100.0/28]", "    publicAccessCidrs: [0.0.0.0/0, 203.0.113.7/24, 198.51.100.0/28]"}},
			[]string{`Pulumi.production.yaml:53:25: publicAccessCidrs 0.0.0.0/0 opens the API server to the whole internet; list only the networks that administer the cluster`,
				`Pulumi.production.yaml:53:36: publicAccessCidrs "203.0.113.7/24" has host bits set; write 203.0.113.0/24`}},
		{"cluster: public endpoint without networks", []edit{{"Pulumi.staging.yaml", "    publicAccessCidrs: [198.51.100.0/28]\n", ""}},
			[]string{`Pulumi.staging.yaml:42:21: a public endpoint needs publicAccessCidrs; list the networks allowed to reach it in publicAccessCidrs, or remove publicEndpoint`,
				`Pulumi.staging.yaml:52:19: the runners' address 198.51.100.0/28 cannot reach the clusters' API: publicAccessCidrs [] does not cover it; add 198.51.100.0/28 to harness-platform:cluster publicAccessCidrs`}},
		// Where the jobs run: the runners must reach every cluster's API.
		{"runner: missing", []edit{{"Pulumi.dev.yaml", "  harness-platform:runner:\n    labels: [self-hosted, harness-platform]\n    egressCidrs: [198.51.100.0/28]\n    delegateSelectors: [harness-platform-runner]   # the Harness Docker delegates on the runner hosts\n    # Pull requests' code runs on hosts of its own, which no up runs on\n    # (docs/delivery.md, Who runs what).\n    previewLabels: [self-hosted, harness-platform-preview]\n    previewDelegateSelectors: [harness-platform-preview-runner]\n", ""}},
			[]string{`Pulumi.dev.yaml:7:3: stack "dev" declares EKS clusters but no harness-platform:runner: nothing says its CI jobs can reach their API; add harness-platform:runner with the labels and egressCidrs of the self-hosted runners that run this stack (docs/delivery.md, Where the jobs run)`}},
		{"runner: no delegate selectors for the CI pipeline", []edit{{"Pulumi.staging.yaml", "    delegateSelectors: [harness-platform-runner]   # the Harness Docker delegates on the runner hosts\n", ""}},
			[]string{`Pulumi.staging.yaml:52:5: stack "staging" has no runner delegateSelectors: the Harness CI pipeline of company/harness-platform would up it on any delegate of the account, the clusters' too, which cannot run its steps; add harness-platform:runner delegateSelectors: the tags of the Harness Docker delegates on the runner hosts (docs/delivery.md, Where the jobs run)`}},
		{"runner: a cluster delegate's tag selects the CI pipeline's delegate", []edit{{"Pulumi.production.yaml", "    delegateSelectors: [harness-platform-runner]", "    delegateSelectors: [harness-platform-runner, prod]"}},
			[]string{`Pulumi.production.yaml:64:50: runner delegateSelector "prod" is the environment tag of production's cluster delegates: the CI pipeline's stages could land on a Kubernetes delegate, which has no Docker runner; use a tag only the runner hosts' Docker delegates have, e.g. harness-platform-runner`}},
		{"runner: no delegate tag in common", []edit{{"Pulumi.production.yaml", "    delegateSelectors: [harness-platform-runner]", "    delegateSelectors: [production-runner]"}},
			[]string{`Pulumi.dev.yaml:90:24: the environments' runners share no delegate selector: the CI pipeline previews every stack in one step, on a runner that reaches every environment; give every environment's runners one delegate tag in common`}},
		{"runner: private endpoint", []edit{{"Pulumi.staging.yaml", "    publicEndpoint: true", "    publicEndpoint: false"}, {"Pulumi.staging.yaml", "    publicAccessCidrs: [198.51.100.0/28]\n", ""}},
			[]string{`Pulumi.staging.yaml:52:18: the runners cannot reach the clusters of stack "staging": their API endpoint is private, and the runners run outside the regions' VPCs; set harness-platform:cluster publicEndpoint: true with publicAccessCidrs covering the runners' egressCidrs`}},
		{"runner: previews on the up runners", []edit{{"Pulumi.dev.yaml", "previewLabels: [self-hosted, harness-platform-preview]", "previewLabels: [self-hosted, harness-platform]"},
			{"Pulumi.staging.yaml", "previewDelegateSelectors: [harness-platform-preview-runner]", "previewDelegateSelectors: [harness-platform-runner]"}},
			[]string{
				`Pulumi.dev.yaml:93:20: runner previewLabels [self-hosted harness-platform] are all labels of up runners: a pull request's job could run on a host that runs ups; add a label only the preview runners have, e.g. harness-platform-preview`,
				`Pulumi.staging.yaml:58:31: runner previewDelegateSelectors [harness-platform-runner] differ from "dev"'s: the CI pipeline previews every stack in one stage; write [harness-platform-preview-runner], as stack "dev" does`,
				`Pulumi.staging.yaml:58:32: runner previewDelegateSelector "harness-platform-runner" is also an up runner's: the preview stage could run a pull request's code where ups run; use a tag only the preview runners' delegates have, e.g. harness-platform-preview-runner`}},
		{"runner: addresses the clusters do not allow", []edit{{"Pulumi.production.yaml", "    egressCidrs: [198.51.100.0/28]", "    egressCidrs: [198.51.100.0/27, 192.0.2.7/24]"}},
			[]string{`Pulumi.production.yaml:63:19: the runners' address 198.51.100.0/27 cannot reach the clusters' API: publicAccessCidrs [198.51.100.0/28] does not cover it; add 198.51.100.0/27 to harness-platform:cluster publicAccessCidrs`,
				`Pulumi.production.yaml:63:36: runner egressCidrs "192.0.2.7/24" is not a network of the runners' addresses; write the runners' NAT network, masked, e.g. 192.0.2.0/28`}},
		{"cluster: log retention CloudWatch does not offer", []edit{{"Pulumi.production.yaml", `kubernetesVersion: "1.35"`, "kubernetesVersion: \"1.35\"\n    logRetentionDays: 100"}},
			[]string{`Pulumi.production.yaml:46:23: logRetentionDays 100 is not a CloudWatch Logs retention period; use one of CloudWatch's retention periods: [1 3 5 7 14 30 60 90 120 150 180 365 400 545 731 1096 1827 2192 2557 2922 3288 3653]`}},
		{"cluster: node group sizes", []edit{{"Pulumi.production.yaml", "desiredSize: 4", "desiredSize: 12"}, {"Pulumi.dev.yaml", "minSize: 2", "minSize: 0"}},
			[]string{`Pulumi.dev.yaml:72:16: nodeGroup minSize 0 is below 1; keep at least 1 node for the delegate`,
				`Pulumi.production.yaml:50:20: nodeGroup desiredSize 12 is outside [3, 10]; make minSize <= desiredSize <= maxSize`}},
		{"cluster: bad role and instance type", []edit{{"Pulumi.staging.yaml", "roleArn: arn:aws:iam::222222222222:role/harness-platform-deployer", "roleArn: arn:aws:iam::2222:user/me"}, {"Pulumi.staging.yaml", "instanceType: m6i.xlarge", "instanceType: large"}},
			[]string{`Pulumi.staging.yaml:32:14: aws roleArn "arn:aws:iam::2222:user/me" is not an IAM role ARN; write an IAM role ARN such as arn:aws:iam::111122223333:role/harness-platform-deployer`,
				`Pulumi.staging.yaml:38:21: nodeGroup instanceType "large" is not an instance type; write an EC2 instance type such as m6i.large`}},
		{"cluster: eks region needs an account and a cluster", []edit{{"Pulumi.staging.yaml", "  harness-platform:aws:\n    roleArn: arn:aws:iam::222222222222:role/harness-platform-deployer\n    previewRoleArn: arn:aws:iam::222222222222:role/harness-platform-preview\n", ""}},
			[]string{`Pulumi.staging.yaml:4:3: stack "staging" declares EKS clusters but has no harness-platform:aws; add harness-platform:aws with the roleArn of the environment's account`}},
		// Who runs: previews have their own read-only role, in the
		// environment's account, and each principal one access entry.
		{"aws: no preview role", []edit{{"Pulumi.staging.yaml", "    previewRoleArn: arn:aws:iam::222222222222:role/harness-platform-preview\n", ""}},
			[]string{`Pulumi.staging.yaml:32:5: stack "staging" declares EKS clusters but harness-platform:aws has no previewRoleArn: previews would need the deployer's write access to read the clusters; add previewRoleArn: the read-only role of the stack's -preview ESC environment (docs/delivery.md, Who runs what)`}},
		{"aws: previews as the deployer", []edit{{"Pulumi.staging.yaml", "previewRoleArn: arn:aws:iam::222222222222:role/harness-platform-preview", "previewRoleArn: arn:aws:iam::222222222222:role/harness-platform-deployer"}},
			[]string{`Pulumi.staging.yaml:33:21: aws previewRoleArn is the deployer role: previews of pull requests would run with write access; give previews their own read-only role`}},
		{"aws: preview role of another account, admin as the deployer", []edit{
			{"Pulumi.production.yaml", "previewRoleArn: arn:aws:iam::333333333333:role/harness-platform-preview", "previewRoleArn: arn:aws:iam::111111111111:role/harness-platform-preview"},
			{"Pulumi.production.yaml", "adminRoleArn: arn:aws:iam::333333333333:role/platform-admin", "adminRoleArn: arn:aws:iam::333333333333:role/harness-platform-deployer"}},
			[]string{`Pulumi.production.yaml:43:21: aws previewRoleArn is in account 111111111111, the deployer in 333333333333: the AWS provider allows one account; use a role of account 333333333333`,
				`Pulumi.production.yaml:46:19: cluster adminRoleArn is also the stack's deployer role: EKS takes one access entry per principal; give the platform team a role of its own`}},
		{"cluster: vpc too small", []edit{{"Pulumi.dev.yaml", "networkCidr: 10.1.0.0/17", "networkCidr: 10.1.0.0/22"}},
			[]string{`Pulumi.dev.yaml:13:20: networkCidr 10.1.0.0/22 is too small for an EKS VPC of four subnets; use a /20 or larger network`}},
		{"cluster: unknown region kind", []edit{{"Pulumi.dev.yaml", "      networkCidr: 10.1.128.0/17", "      networkCidr: 10.1.128.0/17\n      kind: gke"}},
			[]string{`Pulumi.dev.yaml:16:13: "gke" is not a valid kind; did you mean "eks"?`}},
		{"cluster: an existing region needs no network (only the node group is wrong)", []edit{{"Pulumi.dev.yaml", "    - name: euw2\n      networkCidr: 10.1.128.0/17", "    - name: euw2\n      kind: existing"}, {"Pulumi.dev.yaml", "minSize: 2", "minSize: 0"}},
			[]string{`Pulumi.dev.yaml:72:16: nodeGroup minSize 0 is below 1; keep at least 1 node for the delegate`}},
		{"delegate: chart and image not pinned", []edit{{"Pulumi.staging.yaml", "chartVersion: 1.0.22", "chartVersion: ~1.0"}, {"Pulumi.production.yaml", "image: harness/delegate:25.10.87101", "image: harness/delegate:latest"}},
			[]string{`Pulumi.production.yaml:56:12: delegate image "harness/delegate:latest" is not pinned to a release; pin a release tag such as harness/delegate:25.10.87101 (the upgrader is off, so this is what runs)`,
				`Pulumi.staging.yaml:45:19: delegate chartVersion "~1.0" is not pinned; pin an exact version such as 1.0.22`}},
		{"delegate: bad sizes", []edit{{"Pulumi.production.yaml", "    replicas: 2\n", "    replicas: 0\n    memory: 2Gi\n    managerEndpoint: http://app.harness.io\n"}},
			[]string{`Pulumi.production.yaml:57:15: delegate replicas 0 is below 1; run at least 1 replica (2 for availability)`,
				`Pulumi.production.yaml:58:13: delegate memory "2Gi" is not a number; write a number: cpu in cores (1), memory in MiB (2048)`,
				`Pulumi.production.yaml:59:22: delegate managerEndpoint "http://app.harness.io" is not an https URL; use an https URL`}},
		{"delegate: missing", []edit{{"Pulumi.staging.yaml", "  harness-platform:delegate:\n    chartVersion: 1.0.22\n    image: harness/delegate:25.10.87101\n    replicas: 2\n", ""}},
			[]string{`Pulumi.staging.yaml:4:3: stack "staging" has no harness-platform:delegate: every cluster needs one; add harness-platform:delegate with chartVersion and image`}},
		{"stack: plaintext kubeconfigs", []edit{{"Pulumi.dev.yaml", "config:\n", "config:\n  harness-platform:kubeconfigs: '{\"euw1\": \"apiVersion: v1\"}'\n"}},
			[]string{`Pulumi.dev.yaml:7:33: harness-platform:kubeconfigs is stored in plaintext; remove it and run: pulumi config set --secret harness-platform:kubeconfigs --stack dev`}},
		{"service stack: more services than its bound", []edit{{TeamsFile, "maxServices: 60", "maxServices: 12"}},
			[]string{"catalog/services.yaml:82:11: service stack \"services\" holds more than 12 services (serviceStacks.maxServices) from this entry on; split it (`stack:` or `stacks:` on a team in catalog/teams.yaml, or `stack:` on some services), then run `platformctl move` for each environment; or raise serviceStacks.maxServices"}},
		{"service stack: a repository in two", []edit{{ServicesFile, "repo: company/refunds\n", "repo: company/ledger\n    stack: refunds\n"}},
			[]string{"catalog/services.yaml:24:12: service \"refund-service\" is in service stack \"refunds\", but another service of repository company/ledger (line 17) is in \"services\", and a repository reads its webhooks from one stack; put every service of company/ledger in one service stack: set `stack: services` on this entry"}},
		{"service stack: GitHub's name of another", []edit{{TeamsFile, "  - name: payments\n    stack: services\n", "  - name: payments\n    stack: Services\n"}},
			[]string{"catalog/teams.yaml:28:12: service stacks \"Services\" and \"services\" would share their GitHub variables (HARNESS_WEBHOOKS_<ENV>_SERVICES: GitHub's names compare without case and hold no '-'); rename one of the two service stacks (`stack:` in catalog/teams.yaml or catalog/services.yaml)"}},
		{"service stack: invalid name", []edit{{TeamsFile, "  - name: payments\n    stack: services\n", "  - name: payments\n    stack: pay.ments\n"}},
			[]string{"catalog/teams.yaml:21:12: service stack \"pay.ments\" is not a valid stack name; name the service stack with at most 60 letters, digits, '-' and '_'"}},
		{"service stack: negative counts", []edit{{TeamsFile, "maxServices: 60", "maxServices: -1"}, {TeamsFile, "  - name: payments\n    stack: services\n", "  - name: payments\n    stack: services\n    stacks: -2\n"}},
			[]string{`catalog/teams.yaml:11:16: serviceStacks.maxServices must be positive; set a positive number, such as 60`, `catalog/teams.yaml:22:13: team "payments": stacks must be positive; set a positive number of stacks`}},
		{"team without a channel", []edit{{TeamsFile, "    notifications:\n      slackWebhookSecret: account.slack_checkout\n      pagerDutyKeySecret: account.pagerduty_checkout\n", ""}},
			[]string{`catalog/teams.yaml:27:11: team "checkout" has no notification channel: its failed deployments and pending approvals would reach no one; add notifications: {slackWebhookSecret: <Harness secret holding its Slack webhook URL>} to the team`}},
		{"platform team without a channel", []edit{{TeamsFile, "    notifications:\n      slackWebhookSecret: account.slack_platform\n      pagerDutyKeySecret: account.pagerduty_platform\n", ""}},
			[]string{`catalog/teams.yaml:13:11: team "platform" has no notification channel: its failed deployments and pending approvals would reach no one; add notifications: {slackWebhookSecret: <Harness secret holding its Slack webhook URL>} to the team`}},
		{"bad secret references", []edit{{TeamsFile, "account.slack_payments", "project.slack_payments"}, {TeamsFile, "account.pagerduty_payments", "pagerduty-payments"}, {TeamsFile, "slackWebhookSecret: account.slack_data", "slackWebhookSecret: https://hooks.slack.com/services/T0/B0/x"}},
			[]string{`catalog/teams.yaml:25:27: slackWebhookSecret "project.slack_payments": the scope "project" is neither account nor org; name a Harness secret: <id> in the project, org.<id> or account.<id>`,
				`catalog/teams.yaml:26:27: pagerDutyKeySecret "pagerduty-payments": ` + identErr("pagerduty-payments") + `; name a Harness secret: <id> in the project, org.<id> or account.<id>`,
				`catalog/teams.yaml:47:27: slackWebhookSecret "https://hooks.slack.com/services/T0/B0/x": is a URL: a secret's value does not belong in the catalog; keep it in a Harness secret; name a Harness secret: <id> in the project, org.<id> or account.<id>`}},
		{"limit below request", []edit{{ServicesFile, `resources: {limits: {cpu: "2", memory: 1Gi}}`, `resources: {limits: {cpu: 200m, memory: 1Gi}}`}},
			[]string{`catalog/services.yaml:38:33: service "checkout-api": limits.cpu 200m is below requests.cpu 250m; Kubernetes refuses such a pod; raise limits.cpu to at least 250m, or lower the request`}},
		{"archetype limit below request", []edit{{ArchetypesFile, "limits: {cpu: 500m, memory: 256Mi}", "limits: {cpu: 500m, memory: 100Mi}"}},
			[]string{`catalog/archetypes.yaml:34:35: archetype "cron": limits.memory 100Mi is below requests.memory 128Mi; Kubernetes refuses such a pod; raise limits.memory to at least 128Mi, or lower the request`}},
		{"archetype without limits", []edit{{ArchetypesFile, "      limits: {cpu: 500m, memory: 256Mi}\n", ""}},
			[]string{`catalog/archetypes.yaml:26:11: archetype "cron" sets no limits.cpu, limits.memory, and 4 service(s) of it set none: settlement-batch, promo-importer, account-cleanup, export-scheduler; add limits.cpu, limits.memory under resources: to the archetype (or to the overrides.resources of each of its services)`}},
		{"override without the archetype's missing limit", []edit{{ArchetypesFile, "      limits: {cpu: 500m, memory: 256Mi}\n", ""}, {ServicesFile, "image: registry.company.io/data/export-scheduler\n", "image: registry.company.io/data/export-scheduler\n    overrides: {resources: {limits: {cpu: 500m}}}\n"}},
			[]string{`catalog/archetypes.yaml:26:11: archetype "cron" sets no limits.cpu, limits.memory, and 3 service(s) of it set none: settlement-batch, promo-importer, account-cleanup; add limits.cpu, limits.memory under resources: to the archetype (or to the overrides.resources of each of its services)`,
				`catalog/services.yaml:87:28: service "export-scheduler" has no limits.memory (its archetype "cron" sets none); add limits.memory to its overrides.resources, or to archetype "cron"`}},
		{"not a quantity", []edit{{ServicesFile, `memory: 1Gi}}`, `memory: 1 GB}}`}, {ArchetypesFile, "requests: {cpu: 250m,", "requests: {cpu: -1,"}},
			[]string{`catalog/archetypes.yaml:11:23: archetype "api": requests.cpu "-1" is not a positive Kubernetes quantity; write a positive Kubernetes quantity, e.g. 250m or "1"`,
				`catalog/services.yaml:38:46: service "checkout-api": limits.memory "1 GB" is not a positive Kubernetes quantity; write a positive Kubernetes quantity, e.g. 256Mi or 1Gi`}},
		{"workload factor", []edit{{"Pulumi.dev.yaml", "    replicas: 0.5\n", "    replicas: 0\n"}},
			[]string{`Pulumi.dev.yaml:98:15: harness-platform:workloads.replicas is 0; set a factor above 0 and at most 10, e.g. 0.5 for half`}},
		{"service network", []edit{{"Pulumi.production.yaml", "    publicEndpoint: true", "    serviceCidr: 10.3.0.0/16\n    publicEndpoint: true"},
			{"Pulumi.staging.yaml", "    publicEndpoint: true", "    serviceCidr: 172.20.0.0/8\n    publicEndpoint: true"}},
			[]string{`Pulumi.production.yaml:52:18: serviceCidr 10.3.0.0/16 overlaps region euw1's VPC 10.3.0.0/17: EKS refuses a Service network that overlaps the cluster's VPC; use a network outside every VPC of the stack, e.g. 172.20.0.0/16`,
				`Pulumi.production.yaml:52:18: serviceCidr 10.3.0.0/16 overlaps region euw2's VPC 10.3.128.0/17: EKS refuses a Service network that overlaps the cluster's VPC; use a network outside every VPC of the stack, e.g. 172.20.0.0/16`,
				`Pulumi.staging.yaml:42:18: serviceCidr "172.20.0.0/8" has host bits set; write 172.0.0.0/8`}},
		{"scraper", []edit{{"Pulumi.dev.yaml", "      namespace: monitoring\n      podLabels: {app.kubernetes.io/name: prometheus}", "      namespace: Monitoring\n      podLabels: {app.kubernetes.io/name: prom etheus}"}},
			[]string{`Pulumi.dev.yaml:59:18: scraper namespace "Monitoring": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?'); write a Kubernetes namespace name, e.g. monitoring`,
				`Pulumi.dev.yaml:60:18: scraper label app.kubernetes.io/name value "prom etheus": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?'); write a Kubernetes label value, e.g. prometheus`}},
		{"several problems at once", []edit{{ServicesFile, "team: checkout\n    archetype: worker", "team: chekout\n    archetype: worker"}, {ServicesFile, "regions: [euw1]", "regions: [use1]"}},
			[]string{`catalog/services.yaml:25:15: unknown region "use1"; did you mean "euw1"?`,
				`catalog/services.yaml:45:11: unknown team "chekout"; did you mean "checkout"?`}},
	}
	if len(cases) < 15 {
		t.Fatalf("the table needs at least 15 bad inputs, has %d", len(cases))
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			files := exampleFiles(t)
			for _, e := range tc.edits {
				s := string(files[e.file])
				if !strings.Contains(s, e.old) {
					t.Fatalf("edit target %q not in %s", e.old, e.file)
				}
				files[e.file] = []byte(strings.Replace(s, e.old, e.new, 1))
			}

			c, err := Parse(files)
			if c != nil {
				t.Fatal("an invalid catalog was returned")
			}
			var derr *diag.Error
			if !errors.As(err, &derr) {
				t.Fatalf("want *diag.Error, got %v", err)
			}
			var got []string
			for _, d := range derr.List {
				got = append(got, d.String())
			}
			if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Errorf("diagnostics:\n got: %s\nwant: %s", strings.Join(got, "\n      "), strings.Join(tc.want, "\n      "))
			}
		})
	}
}

func identErr(id string) string { return ident.Check(id).Error() }

// Only a team someone must tell something to needs a channel: one owning a
// service that is not retired, or the platform team.
func TestTeamsWithoutServicesNeedNoChannel(t *testing.T) {
	files := exampleFiles(t)
	files[TeamsFile] = []byte(strings.Replace(string(files[TeamsFile]), "teams:\n", "teams:\n  - name: research\n    stack: services\n    members: [zoe@company.com]\n", 1))
	c, err := Parse(files)
	if err != nil {
		t.Fatal(err)
	}
	if team, ok := c.Team("research"); !ok || team.Notify != (Notify{}) {
		t.Errorf("research: %+v", team)
	}
	if team, _ := c.Team("payments"); team.Notify != (Notify{"account.slack_payments", "account.pagerduty_payments"}) {
		t.Errorf("payments: %+v", team.Notify)
	}
}

// Each environment's workload: the archetype's, the service's overrides,
// scaled by the environment's factors (rounded up, at least one replica).
func TestWorkloadsPerEnvironment(t *testing.T) {
	c, err := Parse(exampleFiles(t))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		service, env string
		want         Workload
	}{
		// dev halves everything: 3 * 0.5 = 1.5 -> 2 replicas.
		{"payment-service", "dev", Workload{2, Quantities{"125m", "128Mi"}, Quantities{"500m", "256Mi"}}},
		{"payment-service", "production", Workload{3, Quantities{"250m", "256Mi"}, Quantities{"1", "512Mi"}}},
		// Overrides replace only what they set.
		{"checkout-api", "production", Workload{6, Quantities{"250m", "256Mi"}, Quantities{"2", "1Gi"}}},
		{"checkout-api", "dev", Workload{3, Quantities{"125m", "128Mi"}, Quantities{"1", "512Mi"}}},
		// At least one replica.
		{"settlement-batch", "dev", Workload{1, Quantities{"50m", "64Mi"}, Quantities{"250m", "128Mi"}}},
	} {
		s, _ := c.Service(tc.service)
		if got := s.In[tc.env].Workload; got != tc.want {
			t.Errorf("%s in %s: %+v, want %+v", tc.service, tc.env, got, tc.want)
		}
	}
}
