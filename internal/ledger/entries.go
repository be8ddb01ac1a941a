package ledger

// Entries are the ledger's behaviours.
var Entries = []Entry{
	// GitHub Actions: internal/ghrunner.
	{"GitHub Actions", "${{ }} expressions: operators, coercions, property and filter dereference, functions", "nektos/act pkg/exprparser (v0.2.81), on rhysd/actionlint's parser", true, "internal/ghrunner", "TestEval"},
	{"GitHub Actions", "an if: that calls no status function is success() && (if); cancelled() only when the run is cancelled; failure() over a job's ancestors", "https://docs.github.com/en/actions/reference/workflows-and-actions/expressions#status-check-functions", false, "internal/ghrunner", "TestCondition"},
	{"GitHub Actions", "hashFiles(): each matched file's SHA-256 into one SHA-256, '!' excludes, '' for no file", "actions/runner src/Misc/expressionFunc/hashFiles/src/hashFiles.ts", false, "internal/ghrunner", "TestHashFiles"},
	{"GitHub Actions", "concurrency groups: one running, one pending, the pending replaced; queue: max up to 100 pending", "https://docs.github.com/en/actions/how-tos/write-workflows/choose-when-workflows-run/control-workflow-concurrency", false, "internal/ghrunner", "TestConcurrencyQueue"},
	{"GitHub Actions", "a run arriving at a full queue: max is cancelled itself", "https://docs.github.com/en/actions/how-tos/write-workflows/choose-when-workflows-run/control-workflow-concurrency", false, "internal/ghrunner", "TestFullQueueCancelsTheArrival"},
	{"GitHub Actions", "cancel-in-progress cancels the running run of the group", "https://docs.github.com/en/actions/reference/workflows-and-actions/workflow-syntax#concurrency", false, "internal/ghrunner", "TestCancelInProgress"},
	{"GitHub Actions", "needs, outputs and reusable workflows' inputs and outputs", "https://docs.github.com/en/actions/reference/workflows-and-actions/reusing-workflow-configurations", false, "internal/ghrunner", "TestJobsNeedsAndReusableWorkflows"},
	{"GitHub Actions", "artifacts (upload/download-artifact v4 names, hidden files) and reruns of failed jobs", "https://github.com/actions/upload-artifact (v4 README)", false, "internal/ghrunner", "TestArtifactsAndReruns"},
	{"GitHub Actions", "timeout-minutes: a step's kills its process and fails the step; a job's (default 360) cancels the job", "https://docs.github.com/en/actions/reference/workflows-and-actions/workflow-syntax#jobsjob_idtimeout-minutes", false, "internal/ghrunner", "TestTimeoutMinutes"},
	{"GitHub Actions", "environments with required reviewers: a job waits for one reviewer's approval, not its run's actor's where self-review is prevented; a rejected job fails; the rules are those the program declares", "https://docs.github.com/en/actions/how-tos/deploy/configure-and-manage-deployments/review-deployments", false, "internal/ghrunner", "TestEnvironmentReviews"},
	{"GitHub Actions", "a concurrency group's waiting runs start in no promised order: production's plans made stale by an up in between are planned and approved again", "https://docs.github.com/en/actions/how-tos/write-workflows/choose-when-workflows-run/control-workflow-concurrency", false, "delivery", "TestStalePlansArePlannedAgain"},
	{"GitHub Actions", "a checkout of another private repository needs a token minted for it (create-github-app-token, or ESC gh-login's repositories): the job's own token reads only its repository", "https://docs.github.com/en/actions/security-for-github-actions/security-guides/automatic-token-authentication", false, "internal/ghrunner", "TestCheckoutOfAnotherRepositoryNeedsItsToken"},
	{"GitHub Actions", "a cancelled run: its jobs' if: re-evaluated, always() and cancelled() jobs run (running or not yet started), the rest cancelled", "https://docs.github.com/en/actions/how-tos/manage-workflow-runs/cancel-a-workflow-run", false, "internal/ghrunner", "TestCancelInProgress"},
	{"GitHub Actions", "run: steps with bash as GitHub's Linux runners run them (bash --noprofile --norc -eo pipefail)", "https://docs.github.com/en/actions/reference/workflows-and-actions/workflow-syntax#jobsjob_idstepsshell", false, "internal/ghrunner", "TestShells"},

	// GitHub API: simulated/github.
	{"GitHub API", "organisation variables and secrets only with the token's Variables and Secrets permissions, in go-github's error format", "https://docs.github.com/en/rest/actions/variables", false, "simulated/github", "TestOrgWritesNeedTheirPermission"},
	{"GitHub API", "the Terraform schema's defaults filled in Check, as the real provider's Check does", "integrations/terraform-provider-github github/ (v6.12.1)", false, "simulated/github", "TestGitHubCheckDefaults"},
	{"GitHub API", "a repository environment's repositoryId is its repository's id, set when it is created and kept by reads", "integrations/terraform-provider-github github/resource_github_repository_environment.go (v6.12.1: Create, Read)", false, "simulated/github", "TestEnvironmentKeepsItsRepositoryID"},
	{"GitHub API", "runner groups: the repositories and workflows a group admits", "https://docs.github.com/en/rest/actions/self-hosted-runner-groups", false, "simulated/github", "TestRunnerGroup"},
	{"GitHub API", "the REST API the real plugin reads in a preview (organisation, team, repository)", "https://docs.github.com/en/rest/repos/repos#get-a-repository", false, "simulated/github", "TestGitHubAPI"},

	// Harness: simulated/harness.
	{"Harness", "the provider's Check: types, identifiers, conflicts, exactly-one-of, required-with", "../shared/harness-provider/constraints.json (terraform-provider-harness v0.45.0)", false, "simulated/harness", "TestHarnessCheckEnforcesConstraints"},
	{"Harness", "replacement on a force-new property", "../shared/harness-provider/constraints.json", false, "simulated/harness", "TestHarnessDiffReplacesOnForceNew"},
	{"Harness", "ids and import IDs as the provider's", "harness/terraform-provider-harness internal/service/platform (importers)", false, "simulated/harness", "TestHarnessIDsAndImportAsTheProvider"},
	{"Harness", "a pipeline an enabled on-save pipeline policy set denies is refused, its templates applied", "https://developer.harness.io/docs/platform/governance/policy-as-code/harness-governance-overview", false, "simulated/harness", "TestHarnessEnforcesOnSavePolicies"},
	{"Harness", "no template policy set evaluated on a template saved through the provider's OpenAPI template endpoints", "harness/harness-core TemplateResourceApiHelper (no validateGovernanceRules); terraform-provider-harness internal/service/pipeline/template/resource_template.go", false, "simulated/harness", "TestProviderTemplateSavesAreNotGoverned"},
	{"Harness", "a service a pipeline still deploys cannot be deleted", "https://developer.harness.io/docs/continuous-delivery/x-platform-cd-features/services/services-overview", false, "simulated/harness", "TestHarnessRefusesDeletingReferencedService"},
	{"Harness", "pipeline chaining one level deep, the child existing in its scope", "https://developer.harness.io/docs/platform/pipelines/pipeline-chaining/", false, "simulated/harness", "TestHarnessRefusesChainingWhatCannotRun"},
	{"Harness", "a revoked delegate token's name stays taken", "harness/harness-core DelegateNgTokenServiceImpl (revoked tokens kept until validUntil)", false, "simulated/harness", "TestRevokedTokenNamesAreKept30Days"},
	{"Harness", "custom webhook URLs as Harness computes them", "https://developer.harness.io/docs/platform/triggers/trigger-deployments-using-custom-triggers", false, "simulated/harness", "TestCustomWebhookURL"},
	{"Harness", "the provider's list data sources, paged as the provider pages", "harness/terraform-provider-harness internal/service/platform (data sources)", false, "simulated/harness", "TestHarnessListsAsTheProvider"},
	{"Harness", "a 429 met with the provider client's backoff and ten retries", "harness/harness-go-sdk (retryablehttp client)", false, "simulated/harness", "TestSpendWaitsAsTheProvidersDo"},

	// ESC: trust (ESC's evaluator).
	{"ESC", "environments evaluated by ESC's own evaluator, fn::open type-checked against the published provider schemas", "pulumi/esc eval (v0.25.0); ../shared/esc-schema/esc_schemas.json", true, "trust", "TestEnvironmentsUseOnlyPublishedInputs"},
	{"ESC", "a quoted GitHub App id refused as ESC's schema refuses it", "../shared/esc-schema/esc_schemas.json (github-app)", true, "trust", "TestESCRefusesAQuotedAppID"},
	{"ESC", "the stand-in providers declare exactly the published schemas", "../shared/esc-schema/esc_schemas.json", false, "trust", "TestStandInsDeclareThePublishedSchemas"},
	{"ESC", "a login lives as long as the shortest of what opening it grants", "https://www.pulumi.com/docs/esc/integrations/dynamic-login-credentials/aws-login/", false, "trust", "TestShortestLoginIsWhatOpeningGrants"},

	// AWS: simulated/aws.
	{"AWS", "the Terraform schema's constraints (required, conflicts, exactly-one-of, allowed values, list sizes)", "hashicorp/terraform-provider-aws internal/service/* (the files and commits in simulated/aws/aws-constraints.json)", false, "simulated/aws", "TestAWSConstraints"},
	{"AWS", "EKS refuses a version past extended support, a skipped minor, a downgrade", "https://docs.aws.amazon.com/eks/latest/userguide/update-cluster.html", false, "simulated/aws", "TestEKSRefusesVersions"},
	{"AWS", "EKS refuses an add-on version not compatible with the cluster, a node group newer than the control plane, an update while nodes lag", "hashicorp/terraform-provider-aws#32238, #33385; eksctl-io/eksctl#3727, #7976", false, "simulated/aws", "TestEKSRefusesPartsOfACluster"},
	{"AWS", "DescribeAddonVersions answers what CreateAddon takes", "https://docs.aws.amazon.com/eks/latest/APIReference/API_DescribeAddonVersions.html", false, "simulated/aws", "TestEKSAddonVersionsAgreeWithCreateAddon"},
	{"AWS", "an in-place update's plan keeps computed outputs (an EKS upgrade's preview knows the OIDC issuer: no replacement)", "hashicorp/terraform-plugin-sdk helper/schema (v2: a computed attribute is new-computed in an update only by CustomizeDiff)", false, "engine", "TestEKSUpgradeWithAddons"},
	{"AWS", "STS refuses a role that does not trust the caller (no implicit self-trust)", "https://docs.aws.amazon.com/IAM/latest/UserGuide/id_roles_terms-and-concepts.html", false, "engine", "TestSelfAssumeRefused"},

	// Kubernetes: simulated/kubernetes, preflight, connectivity.
	{"Kubernetes", "a read authorized by the access entries' policies and the groups' RBAC, refused in the API server's words", "kubernetes/kubernetes staging/src/k8s.io/component-helpers/auth/rbac/validation (Covers)", true, "simulated/kubernetes", "TestPreviewRoleReadsNoSecret"},
	{"Kubernetes", "a pod template checked against its namespace's Pod Security level and version", "kubernetes/pod-security-admission policy.DefaultChecks (v0.32.3)", true, "preflight", "TestPodSecurityOfManifests"},
	{"Kubernetes", "NetworkPolicies judged as Kubernetes defines them: peers, selectors, ipBlocks, ports, both directions", "mattfenwick/cyclonus pkg/matcher (v0.5.6), tools/netpolmatch", true, "connectivity", "TestSelectorsAsKubernetesReadsThem"},
	{"Kubernetes", "the VPC CNI enforces policies only with its network policy agent on", "https://docs.aws.amazon.com/eks/latest/userguide/cni-network-policy-configure.html", false, "engine", "TestChainPassesTheConnectivityMatrix"},
	{"Kubernetes", "pods admitted by Pod Security as the API server's plugin admits them: the Deployment accepted with warnings, its ReplicaSet's pods refused under their generateName prefix", "kubernetes/pod-security-admission admission.Admission (v0.32.3)", true, "simulated/kubernetes", "TestPodSecurityRefusesThePods"},
	{"Kubernetes", "pods placed by their requests (pod count, CPU, memory; least allocated first), a pod no node holds Pending with the scheduler's FitError", "kubernetes/kubernetes pkg/scheduler/framework/types.go (FitError.Error), plugins/noderesources/fit.go", false, "simulated/kubernetes", "TestOverCapacityPodsStayPending"},
	{"Kubernetes", "the Cluster Autoscaler grows the node group for a pod an empty node holds, up to maxSize (TriggeredScaleUp, NotTriggerScaleUp)", "kubernetes/autoscaler cluster-autoscaler/FAQ.md (events on pods), core/scaleup", false, "simulated/kubernetes", "TestAutoscalerScalesUpToMax"},
	{"Kubernetes", "every service of the chain runs at its rollout's peak in the clusters an offline up made; a refused or oversized one fails", "https://kubernetes.io/docs/concepts/security/pod-security-admission/ and https://kubernetes.io/docs/concepts/scheduling-eviction/kube-scheduler/ (on the simulated EKS node groups)", false, "engine", "TestChainRunsItsServices"},
	{"Kubernetes", "the clusters' CA certificates, which the real provider parses", "https://kubernetes.io/docs/tasks/access-application-cluster/configure-access-multiple-clusters/", false, "simulated/kubernetes", "TestClusterCA"},
}
